import jax.numpy as jnp
import flax.linen as nn
from typing import Any

class Test(nn.Module):
  dtype1: Any  = jnp.float32
  dtype2: Any = None

  def setup(self):
    if self.dtype2 is None:
      self.dtype2 = self.dtype1

  @nn.compact
  def __call__(self, x):
    dense = nn.linear.Dense(name="dense", dtype=self.dtype2)
    return jnp.asarray(dense(x), dtype=self.dtype1) + 1
