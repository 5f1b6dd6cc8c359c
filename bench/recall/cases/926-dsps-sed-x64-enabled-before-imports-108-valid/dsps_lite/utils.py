from jax import jit as jjit
from jax import numpy as jnp


@jjit
def trapz(xarr, yarr):
    """Trapezoidal integral"""
    return jnp.sum(0.5 * (yarr[1:] + yarr[:-1]) * jnp.diff(xarr))
