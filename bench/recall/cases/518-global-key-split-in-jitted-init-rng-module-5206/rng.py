from jax import random

key = random.PRNGKey(0)


def init():
  global key
  key, subkey = random.split(key)
  return random.normal(subkey, ())
