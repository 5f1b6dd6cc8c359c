import equinox as eqx
import jax
import jax.numpy as jnp


class LeeSutoTriaxialNFWPotential(eqx.Module):
    """Triaxial NFW potential (Lee & Suto 2003), reduced to its axis-ratio check."""

    m: jax.Array
    r_s: jax.Array
    a1: jax.Array
    a2: jax.Array
    a3: jax.Array

    def __check_init__(self):
        msg = "a1 must be >= a2 and a2 must be >= a3"
        _ = eqx.error_if(
            self.a1, jnp.logical_or(self.a1 < self.a2, self.a2 < self.a3), msg
        )

    def potential(self, xyz):
        x, y, z = xyz[..., 0], xyz[..., 1], xyz[..., 2]
        r = jnp.sqrt((x / self.a1) ** 2 + (y / self.a2) ** 2 + (z / self.a3) ** 2)
        return -self.m * jnp.log1p(r / self.r_s) / r
