import functools

import jax
import jax.numpy as jnp
import numpy as np


def smooth(x, use_jax=True):
    if use_jax:
        return jnp.convolve(x, jnp.ones(3) / 3.0)
    return np.convolve(x, np.ones(3) / 3.0)


@functools.lru_cache(maxsize=8)
def host_table(n):
    grid = np.linspace(0.0, 1.0, n)
    return smooth(grid, use_jax=False)


@jax.jit
def render(x):
    table = host_table(16)
    return smooth(x) + table.sum()
