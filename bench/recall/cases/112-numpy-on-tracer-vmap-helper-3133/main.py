import jax
import numpy as np

from table import g

a = np.array([1, 2])

if __name__ == "__main__":
    g(a)
    jax.jit(g)(a)
