import jax.numpy as jnp
import jax

def loop_cumsum(vals):
  def body_fun(i, state):
    return state + vals[i]
  init = vals.dtype.type(0)
  return jax.lax.fori_loop(0, len(vals), body_fun, init)

if __name__ == "__main__":
  with jax.disable_jit():
    print(loop_cumsum(jnp.arange(0)))
  # 0

  try:
    print(loop_cumsum(jnp.arange(0)))
  except IndexError as e:
    print("IndexError:", e)
