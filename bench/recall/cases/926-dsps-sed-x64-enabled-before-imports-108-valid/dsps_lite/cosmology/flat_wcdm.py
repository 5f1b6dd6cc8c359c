"""Kernels calculating distances in flat FLRW cosmologies"""

import typing

from jax import jit as jjit
from jax import lax
from jax import numpy as jnp

from ..utils import trapz


class CosmoParams(typing.NamedTuple):
    """NamedTuple storing parameters of a flat w0-wa cdm cosmology"""

    Om0: jnp.float32
    w0: jnp.float32
    wa: jnp.float32
    h: jnp.float32


PLANCK15 = CosmoParams(0.3075, -1.0, 0.0, 0.6774)

MPC = 3.08567758149e24  # Mpc in cm
YEAR = 31556925.2  # year in seconds


@jjit
def _rho_de_z(z, w0, wa):
    a = 1.0 / (1.0 + z)
    de_z = a ** (-3.0 * (1.0 + w0 + wa)) * lax.exp(-3.0 * wa * (1.0 - a))
    return de_z


@jjit
def _Ez(z, Om0, w0, wa):
    zp1 = 1.0 + z
    Ode0 = 1.0 - Om0
    t = Om0 * zp1**3 + Ode0 * _rho_de_z(z, w0, wa)
    E = jnp.sqrt(t)
    return E


@jjit
def _hubble_time(z, Om0, w0, wa, h):
    E0 = _Ez(z, Om0, w0, wa)
    htime = 1e-16 * MPC / YEAR / h / E0
    return htime


@jjit
def age_at_z0(Om0, w0, wa, h):
    """Age of the Universe in Gyr at z=0"""
    z_table = jnp.logspace(0, 3, 512) - 1.0
    integrand = 1 / _Ez(z_table, Om0, w0, wa) / (1 + z_table)
    res = trapz(z_table, integrand)
    th = _hubble_time(0.0, Om0, w0, wa, h)
    return th * res
