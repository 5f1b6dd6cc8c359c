"""Where a module class defined inside a function is applied: its ``init``/``apply`` calls.

A flax module class written inside a function (a test's ``class _Wrapper(nn.Module)``)
can be named only there, so that function shows every way it is used.  When each use
is ``Cls(...).init(rng, ...)``, ``w = Cls(...)`` then ``w.init(rng, ...)`` /
``w.apply(variables, ...)``, the arguments of those calls are what ``__call__``
receives: ``Module.init``/``apply`` trace nothing themselves, so a Python int passed
there reaches ``__call__`` as that int.  Any other use (``jax.jit(w.apply)``,
``partial(w.apply, ...)``, ``w(x)`` as a submodule, the class handed on) leaves the
callers unknown.
"""
from __future__ import annotations

from collections import Counter
from typing import Optional

import libcst as cst

from jaxlint.model.units import ClassInfo, Unit

# the methods of a flax module that call `__call__` with the arguments after the first
ENTRY_METHODS = frozenset({"init", "apply", "init_with_output"})


class _Uses(cst.CSTVisitor):
    def __init__(self, cls_name: str, unit_of: dict[int, Unit], owner: Unit) -> None:
        self.cls_name = cls_name
        self.unit_of = unit_of
        self.stack = [owner]
        self.names: Counter[str] = Counter()  # every `Name` read or written
        self.accounted: Counter[str] = Counter()  # the ones in a shape understood here
        self.instances: set[str] = set()
        self.entries: list[tuple[Unit, cst.Call, Optional[str]]] = []

    def _ctor(self, e: cst.BaseExpression) -> bool:
        return isinstance(e, cst.Call) and isinstance(e.func, cst.Name) and e.func.value == self.cls_name

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.stack.append(self.unit_of.get(id(node), self.stack[-1]))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.stack.pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if node.name.value == self.cls_name:
            self.accounted[self.cls_name] += 1

    def visit_Name(self, node: cst.Name) -> None:
        self.names[node.value] += 1

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name) and self._ctor(node.value):
            name = node.targets[0].target.value
            self.instances.add(name)
            self.accounted[name] += 1
            self.accounted[self.cls_name] += 1

    def visit_Call(self, node: cst.Call) -> None:
        f = node.func
        if not (isinstance(f, cst.Attribute) and f.attr.value in ENTRY_METHODS):
            return
        if self._ctor(f.value):
            self.accounted[self.cls_name] += 1
            self.entries.append((self.stack[-1], node, None))
        elif isinstance(f.value, cst.Name):
            self.entries.append((self.stack[-1], node, f.value.value))


def entry_sites(cls: ClassInfo, method: Unit,
                unit_of: dict[int, Unit]) -> Optional[list[tuple[Unit, cst.Call]]]:
    """The ``init``/``apply`` calls (with the unit each is written in) that run
    ``__call__`` of ``cls``, a module class defined in a function, when they are all
    its uses; None when the class is defined at module level or used any other way.
    The first argument of each call is the key or the variables: ``__call__``'s
    parameters follow it.  ``apply(..., method=...)`` runs another method: left out."""
    owner = method.parent
    if owner is None or owner.is_module:
        return None
    uses = _Uses(cls.name, unit_of, owner)
    owner.node.visit(uses)
    out = []
    for unit, call, recv in uses.entries:
        if recv is not None:
            if recv not in uses.instances:
                continue
            uses.accounted[recv] += 1
        if any(a.keyword is not None and a.keyword.value == "method" for a in call.args):
            continue
        out.append((unit, call))
    for name in (cls.name, *uses.instances):
        if uses.names[name] != uses.accounted[name]:
            return None
    return out or None
