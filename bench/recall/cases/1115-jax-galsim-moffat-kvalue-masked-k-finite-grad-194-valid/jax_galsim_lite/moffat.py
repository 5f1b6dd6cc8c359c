import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


def _Knu(nu, x):
    """Modified Bessel 2nd kind for Untruncated Moffat"""
    # stand-in for jax_galsim.bessel.kv: its large-x form, infinite at x = 0 like kv
    return jnp.sqrt(jnp.pi / (2.0 * x)) * jnp.exp(-x) * (1.0 + (4.0 * nu * nu - 1.0) / (8.0 * x))


@register_pytree_node_class
class Moffat:
    def __init__(self, beta, scale_radius, flux=1.0):
        self._params = {"beta": beta, "scale_radius": scale_radius, "flux": flux}

    def tree_flatten(self):
        return (self._params,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        obj = cls.__new__(cls)
        obj._params = children[0]
        return obj

    @property
    def beta(self):
        return self._params["beta"]

    @property
    def scale_radius(self):
        return self._params["scale_radius"]

    @property
    def flux(self):
        return self._params["flux"]

    @property
    def _r0(self):
        return self.scale_radius

    @property
    def _r0_sq(self):
        return self._r0 * self._r0

    @property
    def _knorm(self):
        """Normalisation f(k) (trunc = 0, k=0)"""
        return self.flux

    @property
    def _knorm_bis(self):
        """Normalisation f(k) (trunc = 0; k=/= 0)"""
        x1 = self.flux * 4
        x2 = jnp.power(2.0, self.beta)
        x3 = jnp.exp(jax.lax.lgamma(self.beta - 1.0))
        return x1 / (x2 * x3)

    def _kValue_untrunc(self, k):
        """Non truncated version of _kValue"""
        k_msk = jnp.where(k > 0, k, 1.0)
        return jnp.where(
            k > 0,
            self._knorm_bis
            * jnp.power(k_msk, self.beta - 1.0)
            * _Knu(self.beta - 1.0, k_msk),
            self._knorm,
        )

    @jax.jit
    def _kValue(self, kpos):
        """computation of the Moffat response in k-space with switch of truncated/untracated case
        kpos can be a scalar or a vector (typically, scalar for debug and 2D considering an image)
        """
        k = jnp.sqrt((kpos.x**2 + kpos.y**2) * self._r0_sq)
        out_shape = jnp.shape(k)
        k = jnp.atleast_1d(k)
        res = self._kValue_untrunc(k)
        return res.reshape(out_shape)
