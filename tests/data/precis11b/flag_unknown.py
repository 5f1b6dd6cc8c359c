import jax
import jax.numpy as jnp
import numpy as np


def coefficients(x, y, on_host=False):
    if not on_host:
        slopes = jnp.diff(y) / jnp.diff(x)
    else:
        slopes = np.diff(y) / np.diff(x)
    return slopes


def fit(x, y, host):
    return coefficients(x, y, on_host=host)


@jax.jit
def k_value(k, beta):
    return fit(k, jnp.power(1.0 + k, -beta), host=bool(k.shape[0] > 4))
