from functools import partial

import jax.numpy as jnp
from jax import jit

@partial(jit, static_argnums=2)
def minimal_example(F, x, n):
    
    return jnp.linalg.matrix_power(F, n) @ x @ jnp.linalg.matrix_power(F, n).T

sample_F = jnp.eye(2)
sample_x = jnp.array([2, 1])
sample_n = 2

if __name__ == "__main__":
    print("result:", minimal_example(sample_F, sample_x, sample_n))
