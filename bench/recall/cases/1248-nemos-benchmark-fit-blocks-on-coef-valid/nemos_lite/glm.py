"""A Poisson GLM fitted by gradient descent (stands for nemos.GLM and its solvers)."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class GLMParams(NamedTuple):
    coef: jax.Array
    intercept: jax.Array


class SolverStats(NamedTuple):
    converged: jax.Array


class SolverState(NamedTuple):
    stats: SolverStats


class GLM:
    def __init__(self, solver_name="GradientDescent", stepsize=1e-3, maxiter=2000):
        self.solver_name = solver_name
        self.stepsize = stepsize
        self.maxiter = maxiter

    def initialize_params(self, X, y):
        return GLMParams(jnp.zeros((X.shape[1], y.shape[1])), jnp.log(jnp.mean(y, axis=0)))

    def _loss(self, params, X, y):
        rate = jnp.exp(X @ params.coef + params.intercept)
        return jnp.mean(rate - y * jnp.log(rate))

    def _optimizer_run(self, params, X, y):
        grad = jax.grad(self._loss)

        def step(_, p):
            g = grad(p, X, y)
            return jax.tree.map(lambda a, b: a - self.stepsize * b, p, g)

        params = jax.lax.fori_loop(0, self.maxiter, step, params)
        gnorm = jnp.sqrt(sum(jnp.sum(g**2) for g in jax.tree.leaves(grad(params, X, y))))
        return params, SolverState(SolverStats(gnorm < 1e-3)), None
