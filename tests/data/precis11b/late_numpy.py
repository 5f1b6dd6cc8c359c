import jax
import jax.numpy as np

grid = np.zeros(3)
grid[0] = 1.0
import numpy as np


@jax.jit
def render(rays):
    return np.asarray(rays) * 2.0
