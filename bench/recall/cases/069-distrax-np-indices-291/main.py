import jax.numpy as jnp
from jax import jit

from distrax_lite.categorical import Categorical


def foo(logits):
    d = Categorical(logits=logits)
    mask = jnp.arange(logits.shape[0])
    return d[mask].entropy()


if __name__ == "__main__":
    logits = jnp.zeros((3, 3, 3))
    foo(logits)  # fine
    jit(foo)(logits)  # raises
