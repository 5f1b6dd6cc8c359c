# Classes and functions to use with JAX
#
# Copyright (c) 2021, herculens developers and contributors

__author__ = 'austinpeel', 'aymgal', 'duxfrederic'


import jax.numpy as jnp
from jax import jit, lax


def R_omega(z, t, q, nmax):
    """Angular dependency of the deflection angle in the EPL lens profile.

    The computation follows Eqs. (22)-(29) in Tessore & Metcalf (2015), where
    z = R * e^(i * phi) is a position vector in the lens plane,
    t = gamma - 1 is the logarithmic slope of the profile, and
    q is the axis ratio.

    This iterative implementation is necessary, since the usual hypergeometric
    function `hyp2f1` provided in `scipy.special` has not yet been implemented
    in an autodiff way in JAX.

    Note that the value returned includes an extra factor R multiplying Eq. (23)
    for omega(phi).

    """
    # Compute constant factors
    f = (1. - q) / (1. + q)
    ei2phi = z / z.conjugate()
    # Set the first term of the series
    omega_i = z  # jnp.array(np.copy(z))  # Avoid overwriting z ?
    partial_sum = omega_i

    @jit
    def body_fun(i, val):
        ratio = (2. * i + t - 2) / (2. * i - t + 2.)
        val[1] = -f * ei2phi * ratio * val[1]
        val[0] += val[1]
        return val

    return lax.fori_loop(1, nmax, body_fun, [partial_sum, omega_i])[0]
