import jax
import numpy as np

from interpax_lite import CubicSpline


def fit(x, y, check=True):
    return CubicSpline(x, y, check=check).c


if __name__ == "__main__":
    c = jax.jit(fit, static_argnames=["check"])(np.array([0., 1, 2]), np.array([0., 1, 4]), check=False)
    print("slopes:", c)
