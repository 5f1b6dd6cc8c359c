"""Parameters a function body uses as dimensions: evidence of a Python int.

A method of a flax/equinox/haiku module is assumed to receive arrays, because
``model.apply(params, x)`` runs it under ``jit`` with the caller's arrays.  A
parameter the body puts straight into a shape (``jnp.tile(x, [num_quantiles, 1])``,
``h, w = size`` then ``jnp.ones((h, w))``) and never reads as an array
(``n.shape``, ``jnp.sum(n)``) is one the author passes a Python value for: the
callers of a module's method hand it a config int or a shape tuple.  Where no
call written in the file passes it an array, the module rule leaves it static.
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jaxlint.model import apis
from jaxlint.model.walk import arg_at, descendants, positional_args


def dimension_params(fn: cst.FunctionDef, names: set[str],
                     qualname: Callable[[cst.CSTNode], Optional[str]]) -> set[str]:
    """The parameters among ``names`` that ``fn``'s body uses directly as a
    dimension (the shape or size argument of a function taking one, an element of
    a shape literal there, through a name unpacked from the parameter or a local
    bound to such a literal) and never as an array: not an attribute's receiver
    (``n.shape``), nor an argument of a ``jax`` function other than a shape."""
    if not names:
        return set()
    nodes = list(descendants(fn.body))
    # local name -> the parameter it stands for as a dimension
    alias: dict[str, str] = {n: n for n in names}
    for n in nodes:
        if not isinstance(n, cst.Assign) or len(n.targets) != 1:
            continue
        tgt, val = n.targets[0].target, n.value
        if isinstance(val, cst.Name) and val.value in names and isinstance(tgt, (cst.Tuple, cst.List)):
            for el in tgt.elements:  # `h, w = size`
                if isinstance(el.value, cst.Name):
                    alias.setdefault(el.value.value, val.value)
        elif isinstance(tgt, cst.Name) and isinstance(val, (cst.Tuple, cst.List)):
            for el in val.elements:  # `shape = [num_quantiles, 1]`
                if isinstance(el.value, cst.Name) and el.value.value in alias:
                    alias.setdefault(tgt.value, alias[el.value.value])
    used: set[str] = set()
    shape_args: set[int] = set()

    def dims(e: Optional[cst.BaseExpression]) -> None:
        if e is None:
            return
        shape_args.add(id(e))
        elems = [el.value for el in e.elements] if isinstance(e, (cst.Tuple, cst.List)) else [e]
        for x in elems:
            shape_args.add(id(x))
            if isinstance(x, cst.Name) and x.value in alias:
                used.add(alias[x.value])

    array_use: set[str] = set()
    for n in nodes:
        if isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name) and n.value.value in names:
            array_use.add(n.value.value)
        if not isinstance(n, cst.Call):
            continue
        q = qualname(n.func)
        if q is not None and (q in apis.SHAPE_ARGS or q in apis.MORE_SIZE_ARGS or q in apis.STATIC_ARGS):
            for pos, kw in apis.size_args(q):
                dims(arg_at(n, pos, kw))
            for pos, kw, _ in apis.static_args(q):  # `jnp.linalg.matrix_power(x, n)`: a Python int too
                dims(arg_at(n, pos, kw))
        elif isinstance(n.func, cst.Attribute) and n.func.attr.value in apis.SHAPE_METHODS:
            args = positional_args(n)
            if len(args) == 1:
                dims(args[0].value)
            else:
                for a in args:
                    dims(a.value)
        elif q is not None and q.startswith("jax."):
            for a in n.args:
                if isinstance(a.value, cst.Name) and a.value.value in names and id(a.value) not in shape_args:
                    array_use.add(a.value.value)
    return used - array_use
