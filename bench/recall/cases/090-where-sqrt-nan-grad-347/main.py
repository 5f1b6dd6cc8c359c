import jax.numpy as np
from jax import grad


def test_fail(x):
    x = np.sqrt(np.sum(x ** 2, axis=1))
    ones = np.ones_like(x)
    x = np.where(x > 0.5, x, ones)
    return np.sum(x)


x = np.array([[1, 2], [3, 4], [0, 0]], dtype=np.float32)

if __name__ == "__main__":
    print('Gradient:')
    print(grad(test_fail)(x))
