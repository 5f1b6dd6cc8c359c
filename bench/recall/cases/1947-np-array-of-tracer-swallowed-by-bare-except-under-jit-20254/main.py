import jax
import numpy as np

jax.config.update('jax_check_tracer_leaks', True)

def f(x):
  try:
    return np.array(x)
  except:
    return None

if __name__ == "__main__":
  print("f([1]):", f([1]))
  print("jit(f)([1]):", jax.jit(f)([1]))
