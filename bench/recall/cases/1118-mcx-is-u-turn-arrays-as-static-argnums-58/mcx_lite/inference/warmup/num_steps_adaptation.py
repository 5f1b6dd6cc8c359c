"""Adaptive algorithms for Markov Chain Monte Carlo.

This is a collection of re-usable adaptive schemes for monte carlo algorithms.
The algorithms are used during the warm-up phase of the inference and are
decorrelated from any particular algorithm (dynamic HMC's adaptive choice of
path length is not included, for instance).
"""
from functools import partial

import jax
from jax import numpy as np

__all__ = ["is_u_turn"]


@partial(jax.jit, static_argnums=(0, 2))
def is_u_turn(
    initial_position,
    position,
    inverse_mass_matrix,
    momentum,
) -> bool:
    """Detect when the trajectory starts turning back towards the point
    where it started.
    """
    v = np.multiply(inverse_mass_matrix, momentum)
    position_vec = position - initial_position
    projection = np.multiply(position_vec, v)
    return np.where(projection < 0, True, False)
