import jax.numpy as jnp

from tinygp_lite.helpers import JAXArray, dataclass


@dataclass
class Matern32:
    scale: JAXArray
    sigma: JAXArray

    def __call__(self, X1, X2):
        r = jnp.abs(X1[:, None] - X2[None, :]) / self.scale
        arg = jnp.sqrt(3.0) * r
        return self.sigma**2 * (1 + arg) * jnp.exp(-arg)
