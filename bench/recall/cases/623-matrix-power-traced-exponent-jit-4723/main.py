import jax.numpy as jnp
from jax import jit

def minimal_example(F, x, n):
    
    return jnp.linalg.matrix_power(F, n) @ x @ jnp.linalg.matrix_power(F, n).T

sample_F = jnp.eye(2)
sample_x = jnp.array([2, 1])
sample_n = 2

# Works fine without JIT
minimal_example(sample_F, sample_x, sample_n)

jit_fun = jit(minimal_example)

if __name__ == "__main__":
    jit_fun(sample_F, sample_x, sample_n)
