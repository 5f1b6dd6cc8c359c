from functools import partial

import jax
import numpy as np

a = np.arange(6).reshape((3, 2))


def unique(x):
    return jax.numpy.unique(x)


if __name__ == "__main__":
    jax.jit(partial(unique, a))()
