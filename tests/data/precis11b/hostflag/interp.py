import jax.numpy as jnp
import numpy as np


def coefficients(x, y, on_host=False):
    if not on_host:
        slopes = jnp.diff(y) / jnp.diff(x)
    else:
        slopes = np.diff(y) / np.diff(x)
        slopes[np.isnan(slopes)] = 0.0
    return slopes
