"""Names that stand for one known value: an integer constant: ``NUM_CLASSES = 10`` at module level,
``n = 3`` in a function.  Rules use them where only a literal counted before (static
out-of-bounds indices, shapes of literal constructors).

(``holds_host_numpy_array``: a NumPy array built by a constructor.)

A name is a constant when its scope binds it exactly once, by a plain assignment of an
integer literal, and nothing else writes it: no augmented or tuple assignment, loop or
``with`` target, parameter, or ``global`` write from a function.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.model.index import FileIndex
from jaxlint.model.scopes import scope_of as _scope_of, writes as _writes
from jaxlint.model.units import Unit
from jaxlint.model.walk import int_value


def constant_int(index: FileIndex, unit: Unit, expr: cst.CSTNode) -> Optional[int]:
    """The integer ``expr`` always holds here: a literal, or a name bound once to one."""
    v = int_value(expr)
    if v is not None or not isinstance(expr, cst.Name):
        return v
    name = expr.value
    u: Optional[Unit] = unit
    while u is not None:
        if u.param(name) is not None:
            return None
        if name in u.global_names:
            u = index.module_unit
        if name in u.assigned or name in u.bindings or u.is_module:
            break
        u = u.parent
    if u is None:
        return None
    entries = u.bindings.get(name)
    if not entries or len(entries) != 1 or int_value(entries[0][1]) is None:
        return None  # cheap test first: one plain assignment of an int literal
    writes = _writes(u.node, name)
    if len(writes) != 1 or not isinstance(writes[0], cst.Assign) or len(writes[0].targets) != 1:
        return None
    if not isinstance(writes[0].targets[0].target, cst.Name):
        return None
    if u.is_module and any(name in w.global_names and name in w.assigned for w in index.units):
        return None
    return int_value(writes[0].value)


_NUMPY_BUILDERS = frozenset(
    "array asarray arange linspace logspace geomspace zeros ones full empty eye identity indices "
    "zeros_like ones_like full_like empty_like concatenate stack vstack hstack tile repeat diag tri "
    "tril triu".split()
)


def holds_host_numpy_array(index: FileIndex, unit: Unit, expr: cst.CSTNode, qualname) -> bool:
    """Every binding of the name ``expr`` in its scope is ``numpy.<constructor>(...)``
    (or ``numpy.random.<sampler>(...)``), and nothing else writes it."""
    if not isinstance(expr, cst.Name):
        return False
    u = _scope_of(index, unit, expr.value)
    if u is None:
        return False
    entries = u.bindings.get(expr.value)
    if not entries or any(not isinstance(e, (cst.Call, cst.BinaryOperation)) for _, e in entries):
        return False  # cheap test first: plain assignments of calls
    if not all(host_array_expr(index, u, e, qualname) for _, e in entries):
        return False  # ... that build NumPy arrays (before the walk of the scope)
    writes = _writes(u.node, expr.value)
    if not writes:
        return False
    for w in writes:
        if not isinstance(w, cst.Assign) or len(w.targets) != 1 or not isinstance(w.targets[0].target, cst.Name):
            return False
        if not host_array_expr(index, u, w.value, qualname):
            return False
    if u.is_module and any(expr.value in w.global_names and expr.value in w.assigned for w in index.units):
        return False
    return True


def host_array_expr(index: FileIndex, unit: Unit, e: cst.CSTNode, qualname, depth: int = 0) -> bool:
    """``e`` builds a NumPy array: ``numpy.<constructor>(...)``, ``numpy.random.<sampler>(...)``,
    or arithmetic of one with numbers or names bound once to a number
    (``random.randn(N) * sigma + mu``)."""
    if depth > 8:
        return False
    if isinstance(e, cst.Call):
        q = qualname(e.func) or ""
        if not q.startswith("numpy."):
            return False
        short = q[len("numpy."):]
        return short in _NUMPY_BUILDERS or (
            short.startswith("random.") and bool(e.args)
            and short[len("random."):] not in ("seed", "default_rng", "RandomState", "get_state", "set_state"))
    if isinstance(e, cst.BinaryOperation) and not isinstance(e.operator, cst.MatrixMultiply):
        sides = (e.left, e.right)
        hosts = [host_array_expr(index, unit, x, qualname, depth + 1) for x in sides]
        return any(hosts) and all(h or _number(index, unit, x) for h, x in zip(hosts, sides))
    return False


def _number(index: FileIndex, unit: Unit, e: cst.CSTNode) -> bool:
    """A number literal, or a name its scope binds once to one (``sigma = 5.0``)."""
    if isinstance(e, (cst.Integer, cst.Float)):
        return True
    if not isinstance(e, cst.Name):
        return False
    u = _scope_of(index, unit, e.value)
    entries = u.bindings.get(e.value) if u is not None else None
    if not entries or len(entries) != 1 or not isinstance(entries[0][1], (cst.Integer, cst.Float)):
        return False
    return len(_writes(u.node, e.value)) == 1  # type: ignore[union-attr]
