import jax
import jax.numpy as jnp
from jax import jit

from fns import some_function

some_function_jit = jit(some_function)

x_jax = jax.random.normal(jax.random.PRNGKey(0), (100, 100), dtype = jnp.float32)

if __name__ == "__main__":
    some_function_jit(x_jax, x_jax.T)
    some_function_jit(x_jax, x_jax.T)
