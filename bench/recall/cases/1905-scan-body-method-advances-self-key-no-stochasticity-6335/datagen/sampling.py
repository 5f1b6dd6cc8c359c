import jax.random as jrandom


def sample(key, init_x):
    return init_x + jrandom.normal(key, init_x.shape)


def sample_distribution(key, prev_val):
    return prev_val + 0.1 * jrandom.normal(key, prev_val.shape)
