"""A small stand-in for the mip-NeRF model: a coarse and a fine rendering."""
from flax import linen as nn
import jax.numpy as jnp


class NerfModel(nn.Module):
  num_levels: int = 2

  @nn.compact
  def __call__(self, rays):
    renderings = []
    for _ in range(self.num_levels):
      h = nn.relu(nn.Dense(16)(rays))
      renderings.append({
          'rgb': nn.sigmoid(nn.Dense(3)(h)),
          'distance_mean': nn.softplus(nn.Dense(1)(h))[:, 0],
      })
    return renderings
