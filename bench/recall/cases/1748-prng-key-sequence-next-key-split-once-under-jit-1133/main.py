from __future__ import print_function
from jax.random import PRNGKey, split


def is_prng_key(key):
  return getattr(key, "shape", None) == (2,)


class PRNGKeySequence(object):
  """A simple wrapper class for the PRNG split functionality."""

  def __init__(self, key=None):
    if key is None or not is_prng_key(key):
      key = PRNGKey(0)
    self._key = key

  def next_key(self):
    """Splits the current key into two, returning one and storing the other.

    Returns:
      A PRNG key obtained by splitting an internal key.
    """
    self._key, subkey = split(self._key)
    return subkey


from jax import jit
from jax import random

keys = PRNGKeySequence(PRNGKey(0))


def noisy(x):
  return x + random.normal(keys.next_key(), ())


if __name__ == "__main__":
  print("no jit:", noisy(0.), noisy(0.))
  noisy_jit = jit(noisy)
  a, b = noisy_jit(0.), noisy_jit(0.)
  print("jit:", a, b)
  print(f"same: {bool(a == b)}")
