from jax import jit

import rng

if __name__ == "__main__":
  print(rng.init())  # -1.2515389
  print(rng.init())  # -0.58665067
  init = jit(rng.init)
  a = init()
  b = init()
  print(a, b)
  print("repeated:", bool(a == b))
