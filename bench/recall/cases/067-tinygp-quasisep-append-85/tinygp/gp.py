import jax
import jax.numpy as jnp

from tinygp.kernels.quasisep import Matern32


class GaussianProcess:
    def __init__(self, kernel, X):
        self.kernel = kernel
        self.X = X

    def condition(self, y, X_test):
        return _condition(self.kernel.scale, self.X, y, X_test)


@jax.jit
def _condition(scale, X, y, X_test):
    alpha = y / jnp.std(y)
    return Matern32(scale).matmul(X_test, X, alpha)
