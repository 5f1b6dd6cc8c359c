import numpy as np
from jax import jit

from interpax_lite import CubicSpline

if __name__ == "__main__":
    spline = jit(CubicSpline)(np.array([0, 1, 2]), np.array([0, 1, 4]))
    print(spline)
