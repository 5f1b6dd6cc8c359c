import jax.numpy as jnp
from jax import ops
from jax.experimental import loops
def f(arr):
  with loops.Scope() as s:
    s.arr = arr
    for i in s.range(s.arr.shape[0]):
      s.arr = ops.index_update(s.arr, i, s.arr[i] + 2.)
      for _ in s.cond_range(i % 2 == 0):  # Conditionals as loops with 0 or 1 iterations
        s.arr = ops.index_update(s.arr, i, s.arr[i] + 1.)
    return s.arr


if __name__ == "__main__":
    print(f(jnp.zeros(4)))
