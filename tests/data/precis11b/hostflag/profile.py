import functools

import jax
import jax.numpy as jnp
import numpy as np

from hostflag.interp import coefficients


@functools.lru_cache(maxsize=8)
def kernel_table(n):
    k = np.linspace(0.0, 1.0, n)
    return coefficients(k, np.sin(k), on_host=True)


@jax.jit
def k_value(k, beta):
    vals = jnp.power(1.0 + k, -beta)
    table = kernel_table(32)
    return coefficients(k, vals) + table.sum()
