from keras_lite import backend
from keras_lite.backend import jax as jax_backend


def shuffle(x, axis=0, seed=None):
    """Shuffle the elements of a tensor uniformly at random along an axis."""
    return jax_backend.random.shuffle(x, axis=axis, seed=seed)
