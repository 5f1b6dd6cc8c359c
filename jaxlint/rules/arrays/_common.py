"""Helpers shared by the arrays family's rules."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.model.walk import arg_at, keyword_arg


# NumPy's in-place writers that jax.numpy keeps with an `inplace` flag (True by default:
# the call raises unless it is `inplace=False`, and then it returns the new array); the
# position `inplace` may be passed at (JAX 0.10.2's signatures), the array's parameter
# and the exception it raises without `inplace=False` (observed on JAX 0.10.2)
INPLACE_WRITERS = {
    "jax.numpy.put": (None, "a", "ValueError"),
    "jax.numpy.place": (None, "arr", "ValueError"),
    "jax.numpy.fill_diagonal": (None, "a", "NotImplementedError"),
    "jax.numpy.put_along_axis": (4, "arr", "ValueError"),
}


def inplace_flag(call: cst.Call, position: Optional[int]) -> Optional[cst.BaseExpression]:
    """The expression given for ``inplace`` (by keyword or at ``position``), or None."""
    kw = keyword_arg(call, "inplace")
    if kw is not None:
        return kw.value
    if position is not None:
        return arg_at(call, position, "inplace")
    return None


def is_false(node: Optional[cst.BaseExpression]) -> bool:
    return isinstance(node, cst.Name) and node.value == "False"
