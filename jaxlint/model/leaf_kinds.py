"""The dtype kind and static shape of one array-valued expression, where the syntax
alone shows them: Python literals, ``jnp`` scalar types, constructors with literal
shapes and dtypes, comparisons, true division and arithmetic with a float literal.

Kinds are "bool", "int", "float", "complex", and "inexact" (float or complex: ``x *
2.0``, ``x / 2`` whatever ``x`` is). ``lax.cond``/``lax.switch`` need equal output
types: a Python ``0`` (weak int) against a float array, ``1.0`` against ``1j``, ``True``
against ``0`` raise ``TypeError: cond branches must have equal output types`` (jax
0.10.2), while a weak Python ``0.0`` against a ``float32`` array of shape ``()`` is fine:
only kinds, never widths, are compared (a weak type takes the other's width).
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

# scalar types and dtype names -> kind (jax.numpy.*, numpy.*; builtins via their name)
_KIND_OF_TYPE = {}
for _n in ("float16", "float32", "float64", "bfloat16", "float_", "double", "single", "half"):
    _KIND_OF_TYPE[_n] = "float"
for _n in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "int_", "uint"):
    _KIND_OF_TYPE[_n] = "int"
for _n in ("complex64", "complex128", "complex_"):
    _KIND_OF_TYPE[_n] = "complex"
_KIND_OF_TYPE["bool_"] = "bool"
_BUILTIN_KIND = {"float": "float", "int": "int", "bool": "bool", "complex": "complex"}

# constructors whose default dtype is float: jnp.zeros(shape, dtype=None)
_FLOAT_BY_DEFAULT = frozenset({"zeros", "ones", "empty"})
_NUMPY_MODULES = ("jax.numpy.", "numpy.")


def literal_kind(e: cst.BaseExpression) -> Optional[str]:
    if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, (cst.Minus, cst.Plus)):
        e = e.expression
    if isinstance(e, cst.Integer):
        return "int"
    if isinstance(e, cst.Float):
        return "float"
    if isinstance(e, cst.Imaginary):
        return "complex"
    if isinstance(e, cst.Name) and e.value in ("True", "False"):
        return "bool"
    return None


def dtype_kind(ctx, e: cst.BaseExpression) -> Optional[str]:
    """``jnp.float32``, ``np.int32``, ``float``, ``'float32'``: its kind."""
    if isinstance(e, cst.SimpleString):
        return _KIND_OF_TYPE.get(e.evaluated_value if isinstance(e.evaluated_value, str) else "")
    b = ctx.builtin_name(e)
    if b in _BUILTIN_KIND:
        return _BUILTIN_KIND[b]
    q = ctx.qualname(e)
    if q is None:
        return None
    for m in _NUMPY_MODULES:
        if q.startswith(m):
            return _KIND_OF_TYPE.get(q[len(m):])
    return None


def literal_shape(e: cst.BaseExpression) -> Optional[tuple]:
    """``3`` -> (3,), ``(2, 3)`` -> (2, 3), ``()`` -> ()."""
    if isinstance(e, cst.Integer):
        return (int(e.value),)
    if isinstance(e, (cst.Tuple, cst.List)):
        out = []
        for el in e.elements:
            if isinstance(el, cst.StarredElement) or not isinstance(el.value, cst.Integer):
                return None
            out.append(int(el.value.value))
        return tuple(out)
    return None


def _arg(call: cst.Call, pos: int, kw: str) -> Optional[cst.BaseExpression]:
    for a in call.args:
        if a.keyword is not None and a.keyword.value == kw:
            return a.value
    positional = [a for a in call.args if a.keyword is None and not a.star]
    return positional[pos].value if len(positional) > pos else None


def constructed(ctx, call: cst.Call) -> Optional[tuple[Optional[str], Optional[tuple]]]:
    """(kind, shape) of ``jnp.zeros((2, 3))``, ``jnp.full(3, 0)``, ``jnp.float32(1)``,
    ``np.int32(0)``; None when the call is none of these or uses ``*args``."""
    if any(a.star for a in call.args):
        return None
    q = ctx.qualname(call.func)
    if q is None or not q.startswith("jax.numpy."):
        return None
    name = q[len("jax.numpy."):]
    if name in _KIND_OF_TYPE:
        # a scalar type applied to a number literal: a scalar of that kind
        arg = call.args[0].value if len(call.args) == 1 else None
        return _KIND_OF_TYPE[name], (() if arg is not None and literal_kind(arg) is not None else None)
    if name in _FLOAT_BY_DEFAULT or name == "full":
        shape_arg = _arg(call, 0, "shape")
        dtype = _arg(call, 2 if name == "full" else 1, "dtype")
        if dtype is not None:
            kind = dtype_kind(ctx, dtype)
        elif name == "full":
            fill = _arg(call, 1, "fill_value")
            kind = literal_kind(fill) if fill is not None else None
        else:
            kind = "float"
        return kind, (literal_shape(shape_arg) if shape_arg is not None else None)
    return None


def disjoint(a: Optional[str], b: Optional[str]) -> bool:
    """Kinds that can never be equal dtypes."""
    if a is None or b is None or a == b:
        return False
    return not ({a, b} <= {"float", "inexact"} or {a, b} <= {"complex", "inexact"})


def describe(kind: Optional[str], shape: Optional[tuple], python: bool) -> str:
    what = {"bool": "bool", "int": "int", "float": "float", "complex": "complex", "inexact": "float or complex"}
    if python:
        return f"a Python {what[kind or 'float']}"
    noun = "an array" if kind is None else ("an " if kind == "int" else "a ") + what[kind] + " array"
    if shape is not None:
        noun += f" of shape {shape!r}"
    return noun
