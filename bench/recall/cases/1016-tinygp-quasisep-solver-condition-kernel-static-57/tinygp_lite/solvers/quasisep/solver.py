from __future__ import annotations

__all__ = ["QuasisepSolver"]

from functools import partial
from typing import Any, Optional

import jax
import jax.numpy as jnp

from tinygp_lite.helpers import JAXArray, dataclass


@dataclass
class QuasisepSolver:
    """A scalable solver that uses quasiseparable matrices"""

    X: JAXArray
    matrix: JAXArray
    factor: JAXArray

    @classmethod
    def init(cls, kernel, X: JAXArray, diag: JAXArray) -> "QuasisepSolver":
        matrix = kernel(X, X) + jnp.diag(jnp.broadcast_to(diag, X.shape))
        factor = jnp.linalg.cholesky(matrix)
        return cls(X=X, matrix=matrix, factor=factor)

    def solve_triangular(self, y: JAXArray, *, transpose: bool = False) -> JAXArray:
        return jax.scipy.linalg.solve_triangular(self.factor, y, lower=True, trans=transpose)

    @partial(jax.jit, static_argnums=(1,))
    def condition(
        self,
        kernel,
        X_test: Optional[JAXArray],
        diag: Optional[JAXArray],
    ) -> Any:
        """Compute the covariance matrix for a conditional GP"""
        if X_test is None:
            Kss = Ks = kernel(self.X, self.X)
        else:
            Kss = kernel(X_test, X_test)
            Ks = kernel(self.X, X_test)
        A = self.solve_triangular(Ks)
        return Kss - A.transpose() @ A
