import jax.numpy as np
from jax import jit, lax


def fun(x):
    r = lax.iota(np.int32, x.shape[0])[x]
    return r


if __name__ == "__main__":
    print(jit(fun)(np.array([0, 1, 2], dtype=np.int32)))
