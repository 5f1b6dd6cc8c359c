import jax
import numpy as np


def f(x):
  print(x)
  return x


if __name__ == "__main__":
  x = np.random.randn(5, 8).round(2)
  out = jax.vmap(jax.jacobian(f))(x)
