import dataclasses
from typing import Callable

import jax
import jax.numpy as jnp

from . import loop


@dataclasses.dataclass(eq=False)
class GradientDescent:
  fun: Callable
  stepsize: float = 0.1
  maxiter: int = 50
  tol: float = 1e-3

  def _cond_fun(self, inputs):
    params, error = inputs
    return error > self.tol

  def _body_fun(self, inputs):
    params, _ = inputs
    grad = jax.grad(self.fun)(params)
    return params - self.stepsize * grad, jnp.linalg.norm(grad)

  def run(self, init_params):
    init_val = (init_params, jnp.asarray(jnp.inf))
    many_step = loop.while_loop(
        cond_fun=self._cond_fun, body_fun=self._body_fun,
        init_val=init_val, maxiter=self.maxiter - 1, jit=True)
    return many_step[0]
