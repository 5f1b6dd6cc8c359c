"""Utility functions for parsing inputs, mapping coordinates etc."""

from collections.abc import Callable
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp


def wrap_func(fun: Callable[..., jax.Array], args: tuple[Any, ...]):
    """Vectorize, jit, and mask out inf/nan."""
    f = jax.eval_shape(fun, jnp.array(0.0), *args)
    # need to make sure we get the correct shape for array valued integrands
    outsig = "(" + ",".join("n" + str(i) for i in range(len(f.shape))) + ")"

    return _WrappedFunction(fun, args, outsig)


class _WrappedFunction(eqx.Module):
    """Wraps a function in jit/vectorize and masks out inf/nans."""

    fun: Callable[..., jax.Array]
    args: tuple[Any, ...]
    outsig: str

    @eqx.filter_jit
    def __call__(self, x: jax.Array) -> jax.Array:
        f: jax.Array = jnp.vectorize(
            self.fun,
            excluded=tuple(range(1, len(self.args) + 1)),
            signature="()->" + self.outsig,
        )(x, *self.args)
        return jnp.where(jnp.isfinite(f), f, 0.0)
