from jax import jit, random

import rng

if __name__ == "__main__":
  key = random.PRNGKey(0)
  init = jit(rng.init)
  key, a = init(key)
  key, b = init(key)
  print(a, b)
  print("repeated:", bool(a == b))
