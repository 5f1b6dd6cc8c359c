import numpy as onp
import jax.numpy as np
from jax import vmap


def kernel_scalar(x, lam=0.18, beta=1.0):
    if np.abs(x) > lam:
        return 0.0
    else:
        return np.exp(-beta*x**2)


def kernel(xs):
    kernels = vmap(kernel_scalar)(xs)
    return kernels


if __name__ == "__main__":
    n = 10
    xs = onp.random.randn(n)
    k = kernel(xs)
    print(k)
