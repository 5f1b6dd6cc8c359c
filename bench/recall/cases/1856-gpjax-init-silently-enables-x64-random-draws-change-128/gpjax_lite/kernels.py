import jax.numpy as jnp


class RBF:
    def __init__(self, lengthscale=1.0, variance=1.0):
        self.lengthscale = jnp.array(lengthscale)
        self.variance = jnp.array(variance)

    def __call__(self, x, y):
        return self.variance * jnp.exp(-0.5 * jnp.sum((x - y) ** 2) / self.lengthscale**2)
