import jax
import jax.numpy as np
from jax import jit, random


@jit
def feature_map(n, d, sigma=1.0, seed=123):
  key = random.key(seed)
  W = random.normal(key, (d, n)) / sigma
  w = random.normal(key, (d, )) / sigma
  b = 2 * np.pi * random.uniform(key, (d, ))

  phi = lambda x, t: np.sqrt(2.0 / d) * np.cos(np.matmul(W, x) + w*t + b)
  return phi


if __name__ == "__main__":
  seen = []
  try:
    phi = feature_map(5, 3)
  except TypeError as err:
    print("TypeError:", str(err).splitlines()[0])
    seen.append("shape")
  # the same body without jit, with JAX's key-reuse checker on
  with jax.debug_key_reuse(True):
    try:
      feature_map.__wrapped__(5, 3)
    except jax.errors.KeyReuseError as err:
      print("KeyReuseError:", str(err).splitlines()[0])
      seen.append("reuse")
  print("shape error and key reuse:", seen == ["shape", "reuse"])
