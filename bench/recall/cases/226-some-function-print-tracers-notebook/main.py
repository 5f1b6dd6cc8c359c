import jax
import numpy as np
import jax.numpy as jnp

from jax import jit


@jit
def some_function(x, y):

  print('Running some_fn()')

  print(f'x = {x}')
  print(f'y = {y}')

  result = jnp.dot(x, y)

  print(f'result = {result}')

  return result


x_jax = jax.random.normal(jax.random.PRNGKey(0), (100, 100), dtype = jnp.float32)

if __name__ == "__main__":
    some_function(x_jax, x_jax.T)
    some_function(x_jax, x_jax.T)
