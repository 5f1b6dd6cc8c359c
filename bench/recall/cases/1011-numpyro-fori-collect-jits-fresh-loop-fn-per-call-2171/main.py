import jax.numpy as jnp

from numpyro_lite.util import fori_collect


def f(x):
    return x + 1


if __name__ == "__main__":
    result1 = fori_collect(0, 10, f, jnp.array([0.0]), progbar=False)
    result2 = fori_collect(0, 10, f, jnp.array([5.0]), progbar=False)
    result3 = fori_collect(0, 10, f, jnp.array([9.0]), progbar=False)
    print(result1[-1], result2[-1], result3[-1])
