import jax

from keras_lite.random.seed_generator import draw_seed


def jax_draw_seed(seed):
    if isinstance(seed, jax.Array):
        return seed
    else:
        return draw_seed(seed)


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    seed = jax_draw_seed(seed)
    sample = jax.random.normal(seed, shape=shape, dtype=dtype or "float32")
    return sample * stddev + mean


def shuffle(x, axis=0, seed=None):
    seed = jax_draw_seed(seed)
    return jax.random.shuffle(seed, x, axis)
