from typing import Dict

import jax.numpy as jnp
from flax import struct
from jax import Array


@struct.dataclass
class Entity:
    position: Array
    tag: Array
    transparent: Array


@struct.dataclass
class State:
    """The reduced game state: the static grid and the entities placed on it."""

    grid: Array
    entities: Dict[str, Entity]

    def get_positions(self) -> Array:
        return jnp.concatenate([e.position for e in self.entities.values()], axis=0)

    def get_tags(self) -> Array:
        return jnp.concatenate([e.tag for e in self.entities.values()], axis=0)

    def get_transparency(self) -> Array:
        return jnp.concatenate([e.transparent for e in self.entities.values()], axis=0)
