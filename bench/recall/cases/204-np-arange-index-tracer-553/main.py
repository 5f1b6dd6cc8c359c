import numpy as onp
from jax import jit
import jax.numpy as np


def fun(x):
    r = onp.arange(x.shape[0])[x]
    return r


if __name__ == "__main__":
    print(jit(fun)(np.array([0, 1, 2], dtype=np.int32)))
