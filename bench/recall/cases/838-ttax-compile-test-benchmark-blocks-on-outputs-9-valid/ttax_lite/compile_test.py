import time

import jax


def benchmark(func, *args):
  func_jit = jax.jit(func)
  # Warmup.
  for _ in range(3):
    func_jit(*args).block_until_ready()

  num_repeats = 100
  s = time.time()
  outs = []
  for _ in range(num_repeats):
    outs.append(func_jit(*args))
  for o in outs:
    o.block_until_ready()
  e = time.time()
  return (e - s) / num_repeats
