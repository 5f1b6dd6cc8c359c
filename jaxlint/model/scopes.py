"""Scopes and the statements that bind a name in them (shared by the constant and
instance look-ups; no dependency on the file index, which uses them too)."""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst

from jaxlint.model.units import ClassInfo, Unit
from jaxlint.model.walk import children, descendants, dotted_name


def writes(scope: cst.CSTNode, name: str) -> list[cst.CSTNode]:
    """Statements of ``scope`` (not nested functions) that may bind ``name``."""
    return list(_writes_of(scope).get(name, ()))


# scope node -> (the node, name -> the statements that may bind it): one walk of a
# scope answers every name asked of it (rules ask for many names of one function).
# Emptied at the start of each file's analysis (``forget``): it holds the file's nodes.
_WRITES_MEMO: dict[int, tuple[cst.CSTNode, dict[str, list[cst.CSTNode]]]] = {}


def forget() -> None:
    """Drop what the last file's analysis remembered (engine.analyze, per file)."""
    _WRITES_MEMO.clear()


def _writes_of(scope: cst.CSTNode) -> dict[str, list[cst.CSTNode]]:
    got = _WRITES_MEMO.get(id(scope))
    if got is not None and got[0] is scope:
        return got[1]
    out: dict[str, list[cst.CSTNode]] = {}
    for n in descendants(scope):
        t = type(n)
        if t is cst.Assign:
            for tgt in n.targets:
                for bound in _names_in(tgt.target):
                    out.setdefault(bound, []).append(n)
        elif t in (cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.AsName, cst.NamedExpr):
            target = getattr(n, "target", None) or getattr(n, "name", None)
            if target is not None:
                for bound in _names_in(target):
                    out.setdefault(bound, []).append(n)
        elif t in (cst.FunctionDef, cst.ClassDef):
            out.setdefault(n.name.value, []).append(n)
        elif t in (cst.MatchAs, cst.MatchStar, cst.MatchMapping):
            # `case (i, k):`, `case [*rest]`, `case {**rest}`: capture patterns bind names
            target = n.rest if t is cst.MatchMapping else n.name
            if target is not None:
                out.setdefault(target.value, []).append(n)
    _WRITES_MEMO[id(scope)] = (scope, out)
    return out


def _names_in(target: cst.CSTNode) -> dict[str, None]:
    """The names an assignment target writes (each once, in order): the names it binds
    (``a``, ``a, (b, *c)``), and the name at the root of an item or attribute it stores
    into (``buf[i] = v`` and ``cfg.lr = v`` write into ``buf``, ``cfg``; the index ``i``
    and the attribute's name ``lr`` are not bound)."""
    out: dict[str, None] = {}
    stack = [target]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is cst.Name:
            out[n.value] = None
        elif t is cst.Tuple or t is cst.List:
            stack.extend(reversed([el.value for el in n.elements]))
        elif t is cst.StarredElement or t is cst.Element:
            stack.append(n.value)
        elif t is cst.Subscript or t is cst.Attribute:
            root = n.value
            while type(root) in (cst.Subscript, cst.Attribute):
                root = root.value
            if type(root) is cst.Name:
                out[root.value] = None
        elif not isinstance(n, cst.BaseExpression):  # (a `for` target, `AsName`, ...: look inside)
            stack.extend(reversed(list(children(n))))
    return out


def scope_of(index: Any, unit: Unit, name: str) -> Optional[Unit]:
    u: Optional[Unit] = unit
    while u is not None:
        if u.param(name) is not None:
            return None
        if name in u.global_names:
            return index.module_unit
        if name in u.assigned or name in u.bindings or u.is_module:
            return u
        u = u.parent
    return None


def instance_class(index: Any, unit: Unit, expr: cst.CSTNode) -> Optional[ClassInfo]:
    """The class of this file that the name ``expr`` holds an instance of: its scope
    binds it once, to ``Cls(...)`` (``PRE = Preprocess()`` at module level)."""
    if not isinstance(expr, cst.Name) or expr.value not in index.instances:
        return None
    u = scope_of(index, unit, expr.value)
    if u is None:
        return None
    bound = writes(u.node, expr.value)
    if len(bound) != 1 or not isinstance(bound[0], cst.Assign) or len(bound[0].targets) != 1:
        return None
    value = bound[0].value
    if not isinstance(value, cst.Call) or not isinstance(value.func, cst.Name):
        return None
    found = [c for c in index.classes if c.name == value.func.value]
    if len(found) != 1 or scope_of(index, u, value.func.value) is not index.module_unit:
        return None
    if u.is_module and any(expr.value in w.global_names and expr.value in w.assigned for w in index.units):
        return None
    return found[0]


def class_statement_instance(index: Any, unit: Unit, expr: cst.CSTNode) -> Optional[ClassInfo]:
    """The class statement of this file, in any scope (a module-level class, one
    defined inside a test function), that the name ``expr`` holds an instance of: the
    name's scope binds it once, ``t = Cls(...)``, and ``Cls`` names there that class
    statement and nothing else.  (Such an object is no JAX array, whatever its class
    defines: ``t.at[...]`` is the class's own ``at``.)"""
    if not isinstance(expr, cst.Name):
        return None
    u = scope_of(index, unit, expr.value)
    if u is None:
        return None
    bound = writes(u.node, expr.value)
    if len(bound) != 1 or not isinstance(bound[0], cst.Assign) or len(bound[0].targets) != 1 \
            or not isinstance(bound[0].targets[0].target, cst.Name):
        return None
    value = bound[0].value
    if not isinstance(value, cst.Call) or not isinstance(value.func, cst.Name):
        return None
    name = value.func.value
    where: Optional[Unit] = u
    while where is not None:
        if where.param(name) is not None:
            return None
        found = [c for c in index.classes if c.name == name and c.scope is where]
        if found:
            if len(found) != 1 or len(writes(where.node, name)) != 1:
                return None  # the name is bound again in that scope
            return found[0]
        if name in where.assigned or name in where.bindings or name in where.global_names:
            return None
        where = where.parent
    return None


def bound_once(index: Any, unit: Unit, expr: cst.BaseExpression) -> cst.BaseExpression:
    """The expression a name is bound to by its scope's one plain assignment (``c = C(x)``),
    else ``expr`` itself (not a name, a parameter, bound twice or by unpacking)."""
    if not isinstance(expr, cst.Name):
        return expr
    u = scope_of(index, unit, expr.value)
    if u is None:
        return expr
    ws = writes(u.node, expr.value)
    if len(ws) == 1 and isinstance(ws[0], cst.Assign) and len(ws[0].targets) == 1 \
            and isinstance(ws[0].targets[0].target, cst.Name):
        return ws[0].value
    return expr


def rebound_wrapper(index: Any, unit: Unit, expr: cst.BaseExpression) -> Optional[cst.Call]:
    """``f = jax.jit(f, ...)`` after ``def f``: the one assignment of the name ``expr``
    that rebinds it to a call taking that same name first (the function wrapped under
    its own name, as lectures and notebooks write it); None otherwise (bound once, bound
    to anything else, or more than one such call).  The caller knows, from the value
    at its point, that the wrapped binding is the one it sees."""
    if not isinstance(expr, cst.Name):
        return None
    u = scope_of(index, unit, expr.value)
    if u is None:
        return None
    found = []
    for w in writes(u.node, expr.value):
        if isinstance(w, cst.Assign):
            if len(w.targets) != 1 or not isinstance(w.targets[0].target, cst.Name):
                return None
            v = w.value
            if not (isinstance(v, cst.Call) and v.args and v.args[0].keyword is None and not v.args[0].star
                    and isinstance(v.args[0].value, cst.Name) and v.args[0].value.value == expr.value):
                return None
            found.append(v)
        elif not isinstance(w, cst.FunctionDef):
            return None
    return found[0] if len(found) == 1 else None


def factory_binding(scope: Unit, name: str, imports, packages: Optional[frozenset[str]],
                    seq: int = 1 << 30) -> Optional[str]:
    """The project function (as written) whose call is the one binding of ``name``
    seen from ``scope`` (``step = make_step(3)``, ``tx = ops.make_update()``), when it
    is imported from the project; None otherwise."""
    found = scope.binding_for(name, seq)
    if found is None:
        return None
    holder, (_, value) = found
    if type(value) is not cst.Call or len(holder.bindings.get(name, ())) != 1:
        return None
    if type(value.func) not in (cst.Name, cst.Attribute):
        return None
    written = dotted_name(value.func)
    if written is None:
        return None
    head = written.split(".", 1)[0]
    u: Optional[Unit] = holder
    while u is not None:  # a local name or parameter shadows the import
        if u.param(head) is not None or (not u.is_module and head in u.bindings):
            return None
        u = u.parent
    if packages is None:  # any import (the caller filters the project's: engine/project.py)
        return written if head in imports.names or head in imports.relative else None
    return written if imports.project_import(head, packages) else None


def bound_receiver(method: Optional[Unit]) -> int:
    """1 when ``method`` bound to an instance takes it as its first parameter (not a
    staticmethod), else 0."""
    if method is None or not isinstance(method.node, cst.FunctionDef):
        return 0
    if any(dotted_name(d.decorator) in ("staticmethod", "classmethod") for d in method.node.decorators):
        return 1 if any(dotted_name(d.decorator) == "classmethod" for d in method.node.decorators) else 0
    return 1 if method.positional() else 0
