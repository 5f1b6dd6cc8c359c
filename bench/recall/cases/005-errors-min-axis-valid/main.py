from functools import partial

import jax.numpy as jnp
from jax import jit


@partial(jit, static_argnums=1)
def func(x, axis):
    return x.min(axis)


if __name__ == "__main__":
    print(func(jnp.arange(4), 0))
