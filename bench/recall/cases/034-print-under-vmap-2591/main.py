import jax.numpy as np
from jax import vmap


def f(x):
    y = x ** 2
    print(y)
    return y


if __name__ == "__main__":
    vmap(f)(np.arange(4))
