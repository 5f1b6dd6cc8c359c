import jax
from jax import lax
import jax.numpy as jnp
from jax.ops import index_add
from jax.scipy.special import gammaln


class Poisson:
    def __init__(self, rate, *, is_sparse=False, validate_args=None):
        self.rate = rate
        self.is_sparse = is_sparse
        self.batch_shape = jnp.shape(rate)

    def log_prob(self, value):
        value = jax.device_get(value)
        if (
            self.is_sparse
            and not isinstance(value, jax.core.Tracer)
            and jnp.size(value) > 1
        ):
            shape = lax.broadcast_shapes(self.batch_shape, jnp.shape(value))
            rate = jnp.broadcast_to(self.rate, shape).reshape(-1)
            value = jnp.broadcast_to(value, shape).reshape(-1)
            nonzero = value > 0
            sparse_value = value[nonzero]
            sparse_rate = rate[nonzero]
            return index_add(
                -rate,
                nonzero,
                jnp.log(sparse_rate) * sparse_value - gammaln(sparse_value + 1),
            ).reshape(shape)
        return (jnp.log(self.rate) * value) - gammaln(value + 1) - self.rate
