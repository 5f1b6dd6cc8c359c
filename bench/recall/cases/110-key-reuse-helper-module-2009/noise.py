import jax


def uniform_noise(key, shape):
    return jax.random.uniform(key, shape)
