from jax import random


def init(key):
  key, subkey = random.split(key)
  return key, random.normal(subkey, ())
