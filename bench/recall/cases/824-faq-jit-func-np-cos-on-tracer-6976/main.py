import jax
import numpy as np


def func(x):
  print(x)
  return np.cos(x)


if __name__ == "__main__":
  res = jax.jit(func)(0.)
  print(res)
