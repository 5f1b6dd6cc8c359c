import jax.numpy as np
from jax import jit


def test_arange(n):
    return np.arange(0, n, 1)


test = jit(test_arange)

if __name__ == "__main__":
    test(5)
