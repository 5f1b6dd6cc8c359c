"""Epistemic indexers for ENNs."""
import dataclasses

import jax


@dataclasses.dataclass
class PrngIndexer:
  """Index by JAX PRNG sequence."""

  def __call__(self, key):
    return jax.random.split(key)[1]
