from functools import partial

import jax.numpy as np
from jax import jit


@partial(jit, static_argnums=(1,))
def f(x, v):
    return x


def main():
    x = np.ones((10, 10))
    v = np.array([1, 2, 3])
    firstCall = f(x, v)
    print(firstCall)
    secondCall = f(x, v)
    print(secondCall)


if __name__ == '__main__':
    main()
