import time

import jax


def benchmark(func, *args):
  func_jit = jax.jit(func)
  # Warmup.
  for _ in range(3):
    func_jit(*args).block_until_ready()

  num_repeats = 100
  s = time.time()
  for _ in range(num_repeats):
    func_jit(*args)
  e = time.time()
  return (e - s) / num_repeats
