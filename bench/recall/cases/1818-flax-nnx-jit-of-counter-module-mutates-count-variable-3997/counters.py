import jax.numpy as jnp
from flax import nnx


class Count(nnx.Variable): pass


class Counter(nnx.Module):
  def __init__(self):
    self.count = Count(jnp.array(0))

  def __call__(self):
    self.count.value += 1
