import jax.numpy as jnp


def f(x):
    return jnp.arange(-x, x)
