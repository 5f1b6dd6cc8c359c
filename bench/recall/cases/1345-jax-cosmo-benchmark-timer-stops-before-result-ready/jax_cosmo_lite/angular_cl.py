from functools import partial

import jax
import jax.numpy as jnp


def _power(cosmo, k):
    return cosmo.sigma8 ** 2 * k ** cosmo.n_s / (1.0 + (k / 0.02) ** 3)


@partial(jax.jit, static_argnames=("probes", "npoints"))
def _angular_cl(cosmo, ell, probes, npoints):
    # Limber integral over a redshift grid (reduced)
    z = jnp.linspace(0.01, 4.0, npoints * 64)
    chi = 3000.0 * z / cosmo.h
    kernels = jnp.stack([nz(z) for probe in probes for nz in probe.redshift_bins])
    k = (ell[:, None] + 0.5) / chi[None, :]
    integrand = kernels[:, None, :] ** 2 * _power(cosmo, k)[None] / chi ** 2
    return jnp.trapezoid(integrand, z, axis=-1)


def angular_cl(cosmo, ell, probes, npoints=128):
    return _angular_cl(cosmo, ell, tuple(probes), npoints)
