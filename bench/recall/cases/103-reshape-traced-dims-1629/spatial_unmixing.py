import jax.numpy as np
from jax import grad, jit


def functional(X, m, n):
    r = X.shape[0]
    X_imshape = np.reshape(X, (r, m, n), order='F')
    return np.sum(X_imshape ** 2)


jax_gradient_spatial_functional = jit(grad(functional))

if __name__ == "__main__":
    m, n = 4, 5
    jax_gradient_spatial_functional(np.ones((3, m * n)), m, n)
