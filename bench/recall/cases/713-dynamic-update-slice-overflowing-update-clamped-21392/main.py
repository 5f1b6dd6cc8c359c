import jax
import jax.numpy as jnp
import numpy as np

def f(x, update):
  return jax.lax.dynamic_update_slice(x, update, [1, 1])

if __name__ == "__main__":
  x = jnp.array([[1, 2, 3], [4, 5, 6]])
  update = jnp.array([[7, 8], [9, 10]])

  # Print lowered HLO
  print(jax.jit(f).lower(x, update).as_text()[:80])
  out = jax.jit(f)(x, update)
  print(out)
  print("row 0 overwritten:", bool(out[0, 1] == 7))
