import jax.numpy as jnp

from tinygp_lite.solvers.quasisep import QuasisepSolver


class GaussianProcess:
    def __init__(self, kernel, X, *, diag=0.0):
        self.kernel = kernel
        self.X = X
        self.solver = QuasisepSolver.init(kernel, X, jnp.asarray(diag))

    def condition(self, X_test=None, diag=None):
        return self.solver.condition(self.kernel, X_test, diag)
