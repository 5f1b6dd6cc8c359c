from __future__ import annotations

from functools import partial
from typing import Optional

from jax import Array, jit, numpy as jnp, vmap


class DiscreteRV:
    def __init__(self, name: Optional[str] = None, shape: tuple[int, ...] = ()) -> None:
        self._name = name
        self._shape = shape

    # POINT VALUED

    @partial(jit, static_argnums=(0,))
    def logpmf_x(self, *k: Array) -> Array:
        raise NotImplementedError

    @partial(jit, static_argnums=(0,))
    def pmf_x(self, *k: Array) -> Array:
        return jnp.exp(self.logpmf_x(*k))

    # VECTOR VALUED

    @partial(jit, static_argnums=(0,))
    def logpmf_v(self, *k: Array) -> Array:
        return vmap(self.logpmf_x, in_axes=0)(*k)
