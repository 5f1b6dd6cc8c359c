from jax import random
import jax
import jax.numpy as jnp


def biject_alpha(idx, val):
    alpha, i, key = val
    # hyperparameters for randomisation
    cdf_bins=20

    key, consume = random.split(key)
    samples = random.uniform(consume, (cdf_bins-1,), maxval=1.0)
    samples = jnp.hstack((jnp.array([0.0]), samples))
    montonous = jnp.cumsum(samples)
    cdf = montonous/montonous[-1]

    # idx of first occurenece
    mask = (i-1) == idx
    start_idx = jnp.select(mask, jnp.arange(len(mask)))

    # biject slice
    alpha_i = alpha[mask]
    bijected_alpha = cdf[(alpha_i//(1/cdf_bins)).astype(int)]
    alpha = jax.lax.dynamic_update_slice(alpha, bijected_alpha, start_idx)
    return (alpha, i, key)
