from typing import Tuple

import jax
import jax.numpy as jnp

CounterState = int

class CounterV2:

  def count(self, n: CounterState) -> Tuple[int, CounterState]:
    # You could just return n + 1, but here we separate its role as
    # the output and as the counter state for didactic purposes.
    return n + 1, n + 1

  def reset(self) -> CounterState:
    return 0

counter = CounterV2()
state = counter.reset()

for _ in range(3):
  value, state = counter.count(state)
  print(value)

state = counter.reset()
fast_count = jax.jit(counter.count)

if __name__ == "__main__":
  seen = []
  for _ in range(3):
    value, state = fast_count(state)
    seen.append(int(value))
  print("jitted counts:", seen)
