"""Values a function differentiated outside jit computes as plain arrays.

``jax.grad(f)(x)`` runs ``f`` at once with JVP tracers of the concrete arguments
(model/gradtrace.py).  An operation whose result cannot carry a derivative (an integer
or boolean result, or ``stop_gradient``) gives a concrete array, not a tracer: JAX
drops the tangent.  Checked with jax 0.10.2 under ``jax.grad`` and ``jax.vjp``:
``print(mu.astype(int))``, ``jnp.int32(mu)``, ``mu > 3``, ``jnp.isnan(mu)``,
``~(mu > 3)``, ``jnp.argmax(...)``, ``jnp.asarray(mu, dtype=jnp.int32)`` and
``lax.stop_gradient(mu)`` print numbers (``5``, ``True``, ``5.0``) and
``np.asarray(mu.astype(int))`` works; ``mu.astype(jnp.float32)`` and ``jnp.where(mu > 3,
mu, 0.0)`` stay ``GradTracer(primal=5.0, ...)``.  Under jit the same results are
tracers (``JitTracer(int32[])``): this applies to concrete tracers only.

A dtype the model cannot read (a variable) keeps the tracer.
"""

from __future__ import annotations

import re
from typing import Any

import libcst as cst

from jaxlint.model import values as V
from jaxlint.model.walk import keyword_arg, positional_args, string_value

_INT_NAMES = frozenset({"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                        "bool_", "int_", "uint"})
_INT_STRING = re.compile(r"^(u?int(8|16|32|64)?|bool)$")
_NUMPY = ("jax.numpy.", "numpy.")
_STOP = frozenset({"jax.lax.stop_gradient"})
_INDEX_RESULTS = frozenset({"jax.numpy.argmax", "jax.numpy.argmin", "jax.numpy.argsort"})
_WITH_DTYPE = frozenset({"jax.numpy.asarray", "jax.numpy.array"})


def drops_tangent(ev: Any, expr: cst.CSTNode, v: V.Value) -> bool:
    """Is ``expr`` (a tracer ``v`` of a function differentiated outside jit) an
    integer or boolean result, or ``stop_gradient``: a concrete array there?"""
    if v.dtype_hint == "bool":
        return True  # a comparison, `jnp.isnan`, `~mask`
    if type(expr) is not cst.Call:
        return False
    func = expr.func
    q = ev.qualname(func) or ""
    if q in _STOP or q in _INDEX_RESULTS:
        return True
    if q.startswith(_NUMPY[0]) and q[len(_NUMPY[0]):] in _INT_NAMES:
        return True  # `jnp.int32(mu)`
    args = [a.value for a in positional_args(expr)]
    kw = keyword_arg(expr, "dtype")
    d = kw.value if kw is not None else None
    if type(func) is cst.Attribute and func.attr.value == "astype":
        d = args[0] if args else d  # `mu.astype(int)`, `mu.astype(dtype="int32")`
    elif q in _WITH_DTYPE:
        d = args[1] if d is None and len(args) > 1 else d  # `jnp.asarray(mu, jnp.int32)`
    else:
        return False
    return d is not None and _integer_dtype(ev, d)


def _integer_dtype(ev: Any, d: cst.CSTNode) -> bool:
    """``int``, ``bool``, ``"int32"``, ``jnp.uint8``, ``np.int64``, ``jnp.bool_``."""
    if type(d) is cst.Name and ev.builtin_name(d) in ("int", "bool"):
        return True
    s = string_value(d)
    if s is not None:
        return bool(_INT_STRING.match(s))
    q = ev.qualname(d) or ""
    return any(q.startswith(p) and q[len(p):] in _INT_NAMES for p in _NUMPY)
