"""Which method ``self.m(...)`` runs: the one ``self``'s class resolves, or an override.

``Environment.step`` (jitted) calls ``self.step_env(...)``; run on an instance of a
subclass that overrides ``step_env`` and inherits ``step``, the override runs, under the
same trace.  Each such override of the file's subclasses (any depth, through the bases
written in this file; ``Base[T]`` written for a generic base is ``Base``) is a target of
the call; a subclass that overrides the calling method itself does not reach the
override through it.  Across modules the caller's module tells the call
(``model/calls.py``, ``"overrides"`` on the record) and ``project/facts.py`` gives it to
the overrides of the project's subclasses in other modules.  A method traced only because it runs
on instances of some classes (``RebayesSWEKF(...).scan(...)`` under ``vmap``, ``scan``
inherited from ``Rebayes``: ``Unit.traced_receivers``) reaches only the overrides those
classes resolve, and so do the methods it calls on ``self``.  A call written in a
branch that a test of a parameter against None picks (``if bel is None: carry =
self.init_bel(...)``) is reached only by the traced callers that leave it None, which the
model does not tell apart: there, only the classes those restricted reasons name count
(unknown for the rest).  A subclass the model cannot place (a base it cannot resolve) is
not a target: unknown reaches nothing."""

from __future__ import annotations

from typing import Iterable, Optional

import libcst as cst

from jaxlint.model.units import ClassInfo, Unit
from jaxlint.model.walk import descendants


def _derives(cls: ClassInfo, base: ClassInfo, depth: int = 0) -> bool:
    if depth > 16:
        return False
    return any(p is base or _derives(p, base, depth + 1) for p in cls.parents)


def subclass_overrides(classes: Iterable[ClassInfo], caller: Unit, name: str,
                       only: Optional[set[str]] = None) -> list[Unit]:
    """The methods ``name`` of the subclasses (of this file) of ``caller``'s class that
    ``self.name(...)`` in ``caller`` runs on their instances: each subclass that
    inherits ``caller`` (its own method of that name is ``caller``) and whose ``name``
    is not the one ``caller``'s class resolves.  ``only``: the names of the classes of
    this file whose instances ``caller`` runs traced on (``Unit.traced_receivers``),
    when only those."""
    own: Optional[ClassInfo] = caller.cls
    if own is None or caller.name in ("__init__", "__post_init__"):
        return []
    base_target = own.method(name)
    out: list[Unit] = []
    for c in classes:
        if c is own or not _derives(c, own) or (only is not None and c.name not in only):
            continue
        if c.method(caller.name) is not caller:
            continue  # it overrides the caller: `self.name` there is reached another way
        m = c.method(name)
        if m is not None and m is not base_target and m not in out:
            out.append(m)
    return out


def none_guarded_calls(unit: Unit) -> frozenset[int]:
    """The ids of the calls of ``unit``'s body written in a branch of ``if p is None`` /
    ``if p is not None`` on one of its parameters (either branch; the body's own
    statements, not nested functions)."""
    params = {p.name for p in unit.params}
    out: set[int] = set()
    for n in descendants(unit.node):
        if type(n) is not cst.If:
            continue
        t = n.test
        if type(t) is not cst.Comparison or len(t.comparisons) != 1 or type(t.left) is not cst.Name \
                or t.left.value not in params:
            continue
        c = t.comparisons[0]
        if type(c.operator) not in (cst.Is, cst.IsNot) or type(c.comparator) is not cst.Name \
                or c.comparator.value != "None":
            continue
        for branch in (n.body, n.orelse):
            if branch is None:
                continue
            for m in descendants(branch):
                if type(m) is cst.Call:
                    out.add(id(m))
    return frozenset(out)


def is_stub(unit: Unit) -> bool:
    """Is ``unit`` a method with no behaviour of its own, to be overridden: decorated
    ``@abstractmethod``, or a body of nothing but a docstring, ``pass``, ``...`` and
    ``raise NotImplementedError`` (model/overrides.py: ``self.sample(key)`` of a base runs
    a subclass's override)."""
    node = unit.node
    if not isinstance(node, cst.FunctionDef):
        return False
    for d in node.decorators:
        dec = d.decorator
        if (type(dec) is cst.Name and dec.value == "abstractmethod") or \
                (type(dec) is cst.Attribute and dec.attr.value == "abstractmethod"):
            return True
    body = node.body
    stmts = body.body if isinstance(body, cst.IndentedBlock) else [body]
    for stmt in stmts:
        if not isinstance(stmt, cst.SimpleStatementLine):
            return False
        for small in stmt.body:
            if type(small) is cst.Pass:
                continue
            if type(small) is cst.Expr and type(small.value) in (cst.SimpleString, cst.ConcatenatedString, cst.Ellipsis):
                continue
            if type(small) is cst.Raise and small.exc is not None:
                exc = small.exc.func if type(small.exc) is cst.Call else small.exc
                if type(exc) is cst.Name and exc.value == "NotImplementedError":
                    continue
            return False
    return True
