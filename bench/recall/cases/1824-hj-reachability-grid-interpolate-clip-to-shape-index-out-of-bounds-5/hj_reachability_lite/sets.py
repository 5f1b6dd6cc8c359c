from flax import struct
import jax.numpy as jnp

from typing import Any

Array = Any


@struct.dataclass
class Box:
    """Class for representing axis-aligned boxes."""
    lo: Array
    hi: Array

    def __post_init__(self):
        object.__setattr__(self, "lo", jnp.asarray(self.lo))
        object.__setattr__(self, "hi", jnp.asarray(self.hi))
