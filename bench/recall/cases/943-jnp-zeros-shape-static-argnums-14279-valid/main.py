from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=0)
def f(n):
    return jnp.zeros((8, n))


if __name__ == "__main__":
    print("shape:", f(3).shape)
