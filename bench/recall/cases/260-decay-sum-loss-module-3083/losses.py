from jax import numpy as jnp


def decay_sum_jax(x, decay):
    y = jnp.zeros(x.shape)
    for t in range(x.shape[0]):
        y = y.at[t].set(x[t] + y[t - 1] * decay)
    return y
