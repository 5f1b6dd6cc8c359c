from __future__ import annotations

import warnings

import jax.numpy as jnp

from ._utils import _get_default_dtype
from .qarrays import QArrayLike, asqarray


def check_shape(x, argname: str, *shapes: str, subs: dict | None = None):
    # (shape checks of the original left out)
    return x


def _warn_non_normalised(x: QArrayLike, argname: str):
    # issue a warning if the input qarray-like is not normalised
    x = asqarray(x)
    atol = 1e-2 if _get_default_dtype() == jnp.float32 else 1e-6
    norm = x.norm()
    if not jnp.allclose(norm, 1.0, rtol=0.0, atol=atol):
        warnings.warn(
            f'Argument {argname} is not normalized (expected norm 1.0 but norm is'
            f' {norm}).',
            stacklevel=2,
        )
