import jax.numpy as jnp


def some_function(x, y):

  print('Running some_fn()')

  print(f'x = {x}')
  print(f'y = {y}')

  result = jnp.dot(x, y)

  print(f'result = {result}')

  return result
