from functools import partial

import jax.numpy as jnp
from flax import nnx


@partial(nnx.jit, static_argnames=("cond",))
def f(x, cond):
    if cond:
        return x
    else:
        return x + 1


if __name__ == "__main__":
    print(f(jnp.array(1), True))
