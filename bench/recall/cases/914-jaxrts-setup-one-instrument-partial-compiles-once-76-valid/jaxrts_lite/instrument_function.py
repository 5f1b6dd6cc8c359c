import jax.numpy as jnp


def instrument_gaussian(x, sigma):
    """A normalized Gaussian instrument function over energy shifts."""
    return jnp.exp(-(x**2) / (2 * sigma**2)) / (jnp.sqrt(2 * jnp.pi) * sigma)
