"""Stand-in for dynamiqs.qarrays: a dense qarray with norm(), asqarray and to_jax."""
from __future__ import annotations

import jax.numpy as jnp
from jax import Array


class QArray:
    def __init__(self, data: Array):
        self.data = jnp.asarray(data)

    def norm(self) -> Array:
        x = self.data
        if x.shape[-1] == 1:  # ket
            return jnp.linalg.norm(x, axis=(-2, -1))
        return jnp.trace(x, axis1=-2, axis2=-1).real  # density matrix


QArrayLike = QArray | Array


def asqarray(x: QArrayLike) -> QArray:
    return x if isinstance(x, QArray) else QArray(x)


def to_jax(x: QArrayLike) -> Array:
    return x.data if isinstance(x, QArray) else jnp.asarray(x)
