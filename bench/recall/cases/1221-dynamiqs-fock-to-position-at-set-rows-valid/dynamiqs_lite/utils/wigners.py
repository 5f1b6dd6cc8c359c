from __future__ import annotations

from math import pi, sqrt

import jax.numpy as jnp
from jax import Array

from .array_types import dtype_real_to_complex


def ket_in_position_basis(psi: Array, xvec: Array, g: float = 2.0) -> Array:
    """Wavefunction of a ket in the position basis (the first step of the FFT Wigner)."""
    n = psi.shape[0]

    # compute psi in position basis
    U = _fock_to_position(n, xvec * g / jnp.sqrt(2))
    psi_x = psi.T @ U
    return psi_x[0]


def _fock_to_position(n: int, positions: Array) -> Array:
    """
    Compute the change-of-basis matrix from the Fock basis to the position basis of an
    oscillator of dimension n, as evaluated at the specific position values provided.
    """
    n_positions = positions.shape[0]
    U = jnp.zeros((n, n_positions), dtype=dtype_real_to_complex(positions.dtype))
    U = U.at[0].set(pi ** (-0.25) * jnp.exp(-0.5 * positions**2))

    if n == 1:
        return U

    U = U.at[1].set(sqrt(2.0) * positions * U[0, :])
    for k in range(2, n):
        U = U.at[k].set(
            sqrt(2.0 / k) * positions * U[k - 1, :] - sqrt(1.0 - 1.0 / k) * U[k - 2, :]
        )
    return U
