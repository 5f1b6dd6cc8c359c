"""Model for individual halo mass assembly (reduced)."""
from jax import numpy as jnp

from .utils import get_1d_arrays, jax_sigmoid


def _rolling_plaw_vs_logt(logt, logt0, logm0, logtc, k, early, late):
    """Power-law model of halo mass growth with a rolling index."""
    alpha = jax_sigmoid(logt, logtc, k, early, late)
    return logm0 + alpha * (logt - logt0)


def calc_halo_history(tarr, t0, logm0, logtc, k, early, late):
    """Calculate the mass assembly history of a halo."""
    logt, logtc, k, early, late = get_1d_arrays(jnp.log10(tarr), logtc, k, early, late)
    return _rolling_plaw_vs_logt(logt, jnp.log10(t0), logm0, logtc, k, early, late)
