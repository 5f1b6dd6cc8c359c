"""Kernels calculating stellar age PDF-weighting of SSP tempates"""

import jax
from jax import jit as jjit
from jax import numpy as jnp

from ..constants import N_T_LGSM_INTEGRATION, SFR_MIN, T_BIRTH_MIN
from ..cosmology import TODAY

jax.config.update("jax_enable_x64", True)

__all__ = ("_get_linspace_time_tables", "_get_lgt_birth")


@jjit
def _get_linspace_time_tables(t0=TODAY):
    """Convenience function returning time arrays used in SFH integrations"""
    t_table = jnp.linspace(T_BIRTH_MIN, t0, N_T_LGSM_INTEGRATION)
    lgt_table = jnp.log10(t_table)
    return t_table, lgt_table


@jjit
def _get_lgt_birth(t_obs, lg_ages):
    """Age of the universe in Gyr at the birth time
    of the stellar populations observed at t_obs"""
    t_birth = t_obs - 10**lg_ages
    t_birth = jnp.where(t_birth < T_BIRTH_MIN, T_BIRTH_MIN, t_birth)
    lgt_birth = jnp.log10(t_birth)
    return lgt_birth
