from functools import partial

import jax
import jax.numpy as jnp

def unjitted_loop_body(prev_i):
  return prev_i + 1

def g_inner_jitted_partial(x, n):
  i = 0
  while i < n:
    # Don't do this! each time the partial returns
    # a function with different hash
    i = jax.jit(partial(unjitted_loop_body))(i)
  return x + i

def g_inner_jitted_lambda(x, n):
  i = 0
  while i < n:
    # Don't do this!, lambda will also return
    # a function with a different hash
    i = jax.jit(lambda x: unjitted_loop_body(x))(i)
  return x + i

if __name__ == "__main__":
  print("jit called with partial cache hits")
  print(g_inner_jitted_partial(10, 20))
  print("jit called with lambda cache hits")
  print(g_inner_jitted_lambda(10, 20))
