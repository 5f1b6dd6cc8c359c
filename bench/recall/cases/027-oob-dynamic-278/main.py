import jax
import numpy as np


@jax.jit
def f(x, i):
    return x[i]


if __name__ == "__main__":
    print(f(np.arange(10), 13))
