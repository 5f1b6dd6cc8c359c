import numpy as np

import jax  # JAX is installed
from pymbar_lite import mbar_solvers

if __name__ == "__main__":
    u_kn = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0]])
    N_k = np.array([2.0, 1.0])
    print(mbar_solvers.mbar_gradient(u_kn, N_k, np.zeros(2)))
    print("pymbar uses JAX:", mbar_solvers.use_jit)
