import jax.numpy as np
from jax import lax

import jax_cosmo_lite.constants as const


def radial_comoving_distance(cosmo, a):
    r"""Radial comoving distance in [Mpc/h] for a given scale factor.

    (Reduced: a trapezoidal integral of 1/(a^2 E(a)) instead of jax_cosmo's ODE solve.)
    """
    atab = np.linspace(a, 1.0, 256)
    E = np.sqrt(cosmo.Omega_m * atab**-3 + cosmo.Omega_k * atab**-2 + cosmo.Omega_de)
    integrand = 1.0 / (atab**2 * E)
    return const.rh * np.trapezoid(integrand, atab, axis=0)


def transverse_comoving_distance(cosmo, a):
    r"""Transverse comoving distance in [Mpc/h] for a given scale factor.

    Parameters
    ----------
    a : array_like
        Scale factor

    Returns
    -------
    f_k : ndarray, or float if input scalar
        Transverse comoving distance corresponding to the specified
        scale factor.
    """
    index = cosmo.k + 1

    def open_universe(chi):
        return const.rh / cosmo.sqrtk * np.sinh(cosmo.sqrtk * chi / const.rh)

    def flat_universe(chi):
        return chi

    def close_universe(chi):
        return const.rh / cosmo.sqrtk * np.sin(cosmo.sqrtk * chi / const.rh)

    branches = (open_universe, flat_universe, close_universe)

    chi = radial_comoving_distance(cosmo, a)

    return lax.switch(cosmo.k + 1, branches, chi)
