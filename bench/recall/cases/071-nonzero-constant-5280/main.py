import jax.numpy as np
from jax import jit


@jit
def example():
    a = np.array([0, 1, 2])
    return np.nonzero(a)


if __name__ == "__main__":
    example()
