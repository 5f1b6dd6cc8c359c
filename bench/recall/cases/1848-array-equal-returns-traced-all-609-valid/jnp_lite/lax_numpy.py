import numpy as onp
from jax.numpy import asarray


def array_equal(a1, a2):
  """Like onp.array_equal (contributed to jax.numpy in the pull request)."""
  try:
    a1, a2 = asarray(a1), asarray(a2)
  except Exception:
    return False
  if a1.shape != a2.shape:
    return False
  return asarray(a1==a2).all()
