import jax.numpy as jnp


class smail_nz:
    """Smail et al. redshift distribution n(z) ~ z^a exp(-(z/z0)^b)."""

    def __init__(self, a, b, z0, gals_per_arcmin2=1.0):
        self.a, self.b, self.z0 = a, b, z0
        self.gals_per_arcmin2 = gals_per_arcmin2

    def __call__(self, z):
        return z ** self.a * jnp.exp(-((z / self.z0) ** self.b))
