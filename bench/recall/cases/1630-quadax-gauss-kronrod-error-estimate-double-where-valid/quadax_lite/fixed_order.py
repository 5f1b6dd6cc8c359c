"""Fixed order quadrature."""

import abc
from collections.abc import Callable
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp

from .quad_weights import gk_weights
from .utils import wrap_func


def _dot(w, f):
    return jnp.sum(w * f.T, axis=-1).T

class AbstractQuadratureRule(eqx.Module):
    """Abstract base class for 1D quadrature rules (abstract methods removed)."""


    def norm(self, x: jax.Array) -> jax.Array:
        """Norm to use for measuring error for vector valued integrands."""
        return jnp.linalg.norm(jnp.asarray(x).flatten(), ord=jnp.inf)



class NestedRule(AbstractQuadratureRule):
    """Base class for nested quadrature rules.

    Nested rules consist of a set of nodes (xh) and weights (wh) for a high order rule,
    along with an additional set of weights (wl) for a lower order rule that shares
    nodes with the high order rule.
    """

    _xh: jax.Array
    _wh: jax.Array
    _wl: jax.Array
    _norm: float | int | Callable

    @eqx.filter_jit
    def integrate(
        self,
        fun: Callable[..., jax.Array],
        a: float,
        b: float,
        args: tuple[Any, ...],
    ) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
        """Integrate a function from a to b using a nested rule.

        Parameters
        ----------
        fun : callable
            Function to integrate, should have a signature of the form
            ``fun(x, *args)`` -> float, Array. Should be JAX transformable.
        a, b : float
            Lower and upper limits of integration. Must be finite.
        args : tuple, optional
            Extra arguments passed to fun.

        Returns
        -------
        y : float, Array
            Estimate of the integral of fun from a to b
        err : float
            Estimate of the absolute error in y from nested Gauss rule.
        y_abs : float, Array
            Estimate of the integral of abs(fun) from a to b
        y_mmn : float, Array
            Estimate of the integral of abs(fun - <fun>) from a to b, where <fun>
            is the mean value of fun over the interval.

        """
        vfun = wrap_func(fun, args)

        def truefun():
            f = jax.eval_shape(vfun, jnp.array(0.0))
            z = jnp.zeros(f.shape, f.dtype)
            return z, self.norm(z), jnp.abs(z), jnp.abs(z)

        def falsefun():

            halflength = (b - a) / 2
            center = (b + a) / 2
            f: jax.Array = vfun(center + halflength * self._xh)
            result_kronrod = _dot(self._wh, f) * halflength
            result_gauss = _dot(self._wl, f) * halflength

            integral_abs = _dot(self._wh, jnp.abs(f))  # ~integral of abs(fun)
            integral_mmn = _dot(
                self._wh, jnp.abs(f - result_kronrod / (b - a))
            )  # ~ integral of abs(fun - mean(fun))

            result = result_kronrod

            uflow = jnp.finfo(f.dtype).tiny
            eps = jnp.finfo(f.dtype).eps
            abserr = jnp.abs(result_kronrod - result_gauss)
            # double where trick to avoid nans when ratio would be zero or inf
            # The scaling is only defined when both quantities are nonzero. The ratio
            # must also be substituted, not just masked afterwards: ``x ** 1.5`` has an
            # infinite second derivative at ``x == 0``, so differentiating the
            # unselected branch twice yields ``inf * 0 == nan``, which ``where``
            # then propagates.
            # ``abserr`` is exactly zero whenever the two rules agree to the last bit,
            # which a smooth enough integrand does reach.
            scalable = (integral_mmn != 0.0) & (abserr != 0.0)
            mmn_safe = jnp.where(scalable, integral_mmn, 1.0)
            ratio = jnp.where(scalable, 200.0 * abserr / mmn_safe, 1.0)
            abserr = jnp.where(
                scalable,
                integral_mmn * jnp.minimum(1.0, ratio**1.5),
                abserr,
            )
            abserr = jnp.where(
                (integral_abs > uflow / (50.0 * eps)),
                jnp.maximum((eps * 50.0) * integral_abs, abserr),
                abserr,
            )
            return result, self.norm(abserr), integral_abs, integral_mmn

        return jax.lax.cond(a == b, truefun, falsefun)



class GaussKronrodRule(NestedRule):
    """Integrate a function from a to b using a fixed order Gauss-Kronrod rule.

    Integration is performed using an order n Kronrod rule with error estimated
    using an embedded n//2 order Gauss rule.

    Parameters
    ----------
    order : {15, 21, 31, 41, 51, 61}
        Order of integration scheme.
    norm : int, callable
        Norm to use for measuring error for vector valued integrands. No effect if the
        integrand is scalar valued. If an int, uses p-norm of the given order, otherwise
        should be callable.
    """

    def __init__(self, order: int = 21, norm: Callable | float | int = jnp.inf):
        self._norm = norm

        try:
            self._xh, self._wh, self._wl = (
                jnp.array(gk_weights[order]["xk"]),
                jnp.array(gk_weights[order]["wk"]),
                jnp.array(gk_weights[order]["wg"]),
            )
        except KeyError as e:
            raise NotImplementedError(
                f"order {order} not implemented, should be one of {gk_weights.keys()}"
            ) from e
