from functools import partial

import jax.numpy as jnp
from jax import jit, vmap


@partial(jit, static_argnums=(2,))
def map_row(z, alpha, T):
    return jnp.sum(z * alpha) / T


alpha = jnp.array([0.5, 1.0, 2.0])
T = 4
axis = 0

if __name__ == "__main__":
    input = jnp.ones((5, 3))
    print(vmap(partial(map_row, alpha, T), axis)(input))
