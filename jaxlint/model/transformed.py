"""What a transformation's result is, for the calls that apply it at once.

``jax.value_and_grad(loss_fn)(p, b)`` inside a jitted function returns the loss and
the gradients JAX computed: tracers whatever the arguments were (omnistaging: every
operation under ``jit`` is staged), unlike ``jax.jit(f)(x)``, which returns whatever
``f`` returns.  With ``has_aux=True`` the auxiliary output is ``f``'s own value, so
nothing is said of the result then.
"""

from __future__ import annotations

import libcst as cst

from jaxlint.model import apis
from jaxlint.model.walk import keyword_arg

# transformations whose result is the derivative (and value) computed by JAX
DIFFERENTIATING = frozenset({
    "jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.jacobian", "jax.hessian",
    "equinox.filter_grad", "equinox.filter_value_and_grad",
    "flax.nnx.grad", "flax.nnx.value_and_grad",
})


def differentiates(transform: str, call: cst.Call) -> bool:
    """Does ``call`` (``jax.grad(f, ...)``, the transformation applied to ``f``) make a
    function whose every output JAX computes (no ``has_aux`` other than a literal False)?"""
    if apis.canonical(transform) not in DIFFERENTIATING:
        return False
    aux = keyword_arg(call, "has_aux")
    return aux is None or (isinstance(aux.value, cst.Name) and aux.value.value == "False")
