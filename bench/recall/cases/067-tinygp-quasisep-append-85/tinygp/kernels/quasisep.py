import jax
import jax.numpy as jnp
import numpy as np


class Matern32:
    def __init__(self, scale):
        self.scale = scale

    def to_general_qsm(self, X1, X2):
        Xs = jax.tree_util.tree_map(lambda x: np.append(x[0], x[:-1]), X2)
        return jnp.exp(-jnp.abs(X1[:, None] - Xs[None, :]) / self.scale)

    def matmul(self, X1, X2, y):
        return self.to_general_qsm(X1, X2) @ y
