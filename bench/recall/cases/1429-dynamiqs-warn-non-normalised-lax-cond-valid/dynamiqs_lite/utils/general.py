from __future__ import annotations

import jax.numpy as jnp

from ..qarrays import QArray, QArrayLike, to_jax


def todm(x: QArrayLike) -> QArray:
    r"""Returns the density matrix representation of a quantum state."""
    x = to_jax(x)
    if x.shape[-1] == 1:
        return QArray(x @ jnp.conj(jnp.swapaxes(x, -1, -2)))
    return QArray(x)
