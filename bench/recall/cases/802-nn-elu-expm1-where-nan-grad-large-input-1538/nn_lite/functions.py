import jax.numpy as np


def relu(x):
  return np.maximum(x, 0)


def elu(x, alpha=1.0):
  """Exponential linear unit activation function."""
  return np.where(x > 0, x, alpha * np.expm1(x))
