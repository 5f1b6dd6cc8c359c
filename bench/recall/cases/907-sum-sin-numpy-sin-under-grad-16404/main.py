import jax
import numpy as np

@jax.grad
def sum_sin(x):
  return np.sin(x).sum()

if __name__ == "__main__":
  sum_sin(np.random.randn(10, 10))
