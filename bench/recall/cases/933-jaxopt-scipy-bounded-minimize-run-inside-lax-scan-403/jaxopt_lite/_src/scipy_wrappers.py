"""Wrappers of scipy.optimize.minimize (reduced)."""

from typing import Any, NamedTuple, Optional

import jax.numpy as jnp
import numpy as onp
import scipy as osp
from jax import tree_util


def jnp_to_onp(x_jnp: Any,
               dtype: Optional[Any] = onp.float64) -> onp.ndarray:
  """Converts JAX PyTree into repr suitable for scipy.optimize.minimize."""
  x_onp = [onp.asarray(leaf, dtype).reshape(-1)
           for leaf in tree_util.tree_leaves(x_jnp)]
  # NOTE(fllinares): return value must *not* be read-only, I believe.
  return onp.concatenate(x_onp)


class ScipyMinimizeInfo(NamedTuple):
  x: Any
  fun: Any
  success: bool


class OptStep(NamedTuple):
  params: Any
  state: Any


class ScipyBoundedMinimize:
  def __init__(self, fun, method="l-bfgs-b"):
    self.fun = fun
    self.method = method

  def run(self, init_params, bounds, *args, **kwargs):
    x0 = jnp_to_onp(init_params)
    lower, upper = bounds
    scipy_bounds = osp.optimize.Bounds(jnp_to_onp(lower), jnp_to_onp(upper))

    def scipy_fun(x_onp):
      return float(self.fun(jnp.asarray(x_onp).reshape(jnp.shape(init_params)), *args, **kwargs))

    res = osp.optimize.minimize(scipy_fun, x0, method=self.method, bounds=scipy_bounds)
    params = ScipyMinimizeInfo(x=jnp.asarray(res.x), fun=res.fun, success=res.success)
    return OptStep(params=params, state=None)
