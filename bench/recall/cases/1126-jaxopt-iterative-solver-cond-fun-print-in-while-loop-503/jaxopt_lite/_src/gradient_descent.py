from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp

from jaxopt_lite._src import base


class GradientDescentState(NamedTuple):
  iter_num: int
  error: float


class GradientDescent(base.IterativeSolver):
  """Gradient descent with a fixed step size (reduced from jaxopt's ProximalGradient)."""

  def __init__(self, fun: Callable, stepsize=0.1, maxiter=500, tol=1e-3,
               verbose=False, jit="auto", unroll="auto"):
    self.fun = fun
    self.stepsize = stepsize
    self.maxiter = maxiter
    self.tol = tol
    self.verbose = verbose
    self.jit = jit
    self.unroll = unroll
    self.implicit_diff = True

  def init_state(self, init_params, *args, **kwargs):
    return GradientDescentState(iter_num=jnp.asarray(0), error=jnp.asarray(jnp.inf))

  def update(self, params, state, *args, **kwargs):
    grad = jax.grad(self.fun)(params, *args, **kwargs)
    params = jax.tree.map(lambda p, g: p - self.stepsize * g, params, grad)
    error = jnp.sqrt(sum(jnp.sum(g ** 2) for g in jax.tree.leaves(grad)))
    return base.OptStep(params, GradientDescentState(state.iter_num + 1, error))
