"""Defines some types used in PaRL"""

from typing import Any, Dict

import jax.numpy as jnp
from typing_extensions import TypeAlias

ArrayTree: TypeAlias = Any

# Evolution types
Fitness: TypeAlias = jnp.ndarray
Genotype: TypeAlias = ArrayTree
Descriptor: TypeAlias = jnp.ndarray

ExtraScores: TypeAlias = Dict[str, ArrayTree]

RNGKey: TypeAlias = jnp.ndarray
