"""Names that stand for one integer constant: ``NUM_CLASSES = 10`` at module level,
``n = 3`` in a function.  Rules use them where only a literal counted before (static
out-of-bounds indices, shapes of literal constructors).

A name is a constant when its scope binds it exactly once, by a plain assignment of an
integer literal, and nothing else writes it: no augmented or tuple assignment, loop or
``with`` target, parameter, or ``global`` write from a function.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.model.index import FileIndex
from jaxlint.model.units import Unit
from jaxlint.model.walk import descendants, int_value


def _writes(scope: cst.CSTNode, name: str) -> list[cst.CSTNode]:
    """Statements of ``scope`` (not nested functions) that may bind ``name``."""
    out: list[cst.CSTNode] = []
    for n in descendants(scope):
        t = type(n)
        if t is cst.Assign:
            for tgt in n.targets:
                if any(isinstance(m, cst.Name) and m.value == name for m in (tgt.target, *descendants(tgt.target))):
                    out.append(n)
        elif t in (cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.AsName, cst.NamedExpr):
            target = getattr(n, "target", None) or getattr(n, "name", None)
            if target is not None and any(
                isinstance(m, cst.Name) and m.value == name for m in (target, *descendants(target))
            ):
                out.append(n)
        elif t in (cst.FunctionDef, cst.ClassDef) and n.name.value == name:
            out.append(n)
    return out


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
    writes = _writes(u.node, name)
    if len(writes) != 1 or not isinstance(writes[0], cst.Assign) or len(writes[0].targets) != 1:
        return None
    if not isinstance(writes[0].targets[0].target, cst.Name):
        return None
    if u.is_module and any(name in w.global_names and name in w.assigned for w in index.units):
        return None
    return int_value(writes[0].value)
