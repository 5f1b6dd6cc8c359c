import jax
import jax.numpy as jnp


class Normal:
    def __init__(self, loc, scale, name=None):
        self.loc = jnp.asarray(loc)
        self.scale = jnp.asarray(scale)
        self.name = name

    def sample(self, key, n):
        return self.loc + self.scale * jax.random.normal(key, (n,))


class EmpiricalDistribution:
    """The pushforward of a lifted call, held as its finite sample batch."""

    def __init__(self, samples, name=None):
        self.samples = samples
        self.name = name
