""" States. """

from jax import config

import jax.numpy as jnp
from jax.nn import one_hot

from jaxquantum_lite.core.qarray import Qarray

config.update("jax_enable_x64", True)


def basis(N: int, k: int):
    """Creates a |k> (i.e. fock state) ket in a specified Hilbert Space.

    Args:
        N: Hilbert space dimension
        k: fock number

    Returns:
        Fock State |k>
    """
    return Qarray.create(one_hot(k, N).reshape(N, 1))


def thermal(N: int, beta: float) -> Qarray:
    """Thermal state.

    Args:
        N: Hilbert Space Size.
        beta: thermal state inverse temperature.

    Return:
        Thermal state.
    """
    if beta == jnp.inf:
        return basis(N, 0)

    return Qarray.create(jnp.diag(jnp.exp(-beta*jnp.linspace(0, N-1, N)))).unit()
