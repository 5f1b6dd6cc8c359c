"""Methods and properties of a pytree class run on a traced instance.

``cosmo.k`` with ``cosmo`` a traced argument whose class (of this file) is a registered
pytree (``register_pytree_node_class`` with its ``tree_flatten``, a flax struct, a
``register_dataclass``/chex dataclass, an equinox Module): the property ``k`` runs with
``self`` the instance JAX rebuilt from tracers, so ``self.<data leaf>`` is a tracer there,
and so it is in what that method calls on ``self`` (``self.Omega``, ``self.normalize()``).
Only a receiver the model shows traced, of a class whose record it reads, gives a method
its leaves; a class it cannot read, or an instance of unknown class, gives nothing.
"""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst

from jaxlint.model import apis, pytrees
from jaxlint.model.units import ClassInfo, Unit
from jaxlint.model.walk import descendants, dotted_name

_DEPTH = 4
_ARRAY_COMPARISONS = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual,
                      cst.Equal, cst.NotEqual)
# methods of a JAX array whose result is an array computed from it
_ARRAY_METHODS = frozenset({"sum", "mean", "max", "min", "prod", "std", "var", "any", "all",
                            "argmax", "argmin", "cumsum", "dot", "reshape", "ravel", "squeeze",
                            "transpose", "astype", "clip", "round", "conj"})
PROPERTIES = frozenset({"property", "functools.cached_property", "cached_property"})


def class_info(interp: Any, value: Any) -> Optional[ClassInfo]:
    """The class of this file a traced ``value`` is an instance of: its instance ref
    (``model = Model(...)`` passed), or its pytree class (an annotation, what every
    traced caller passes) when that is one class of this file."""
    from jaxlint.model import instances

    if value.instance is not None:
        return instances.of_class(interp, value.instance)
    if value.cls is None:
        return None
    found = [c for c in interp.index.classes if interp.index.pytree_class(c.name) is value.cls]
    return found[0] if len(found) == 1 else None


def foreign_ref(interp: Any, value: Any) -> Optional[str]:
    """``@module:Qualname`` of the pytree class of another module of the project a
    traced ``value`` is an instance of (the class record its facts carry, or the instance
    every call passes), else None."""
    ref = value.cls.flat.get("ref") if value.cls is not None else value.instance
    if not isinstance(ref, str) or not ref.startswith("@"):
        return None
    module = ref[1:].partition(":")[0]
    return ref if module and module != interp.settings.module else None


def index_leaves(index: Any, info: ClassInfo) -> frozenset[str]:
    """``leaves`` for the index (applying another module's facts)."""
    pc = index.pytree_class(info.name)
    if pc is None:
        return frozenset()
    return frozenset(f for f in pc.flat.get("fields", {}) if pytrees.attribute(pc.flat, f)[0] == "data")


def leaves(interp: Any, info: ClassInfo) -> frozenset[str]:
    """The fields of ``info`` that are data leaves of its pytree (tracers when an
    instance flows through a trace); empty for a class the model cannot read."""
    memo = interp.scratch_memo
    key = ("pytree-leaves", id(info))
    got = memo.get(key)
    if got is None:
        pc = interp.index.pytree_class(info.name)
        got = frozenset()
        if pc is not None:
            got = frozenset(f for f in pc.flat.get("fields", {}) if pytrees.attribute(pc.flat, f)[0] == "data")
        memo[key] = got
    return got


def is_property(unit: Optional[Unit]) -> bool:
    return unit is not None and type(unit.node) is cst.FunctionDef and any(
        dotted_name(d.decorator) in PROPERTIES for d in unit.node.decorators)


def run_on(target: Unit, fields: frozenset[str], reason: str) -> None:
    """``target`` (a method of the class) runs with ``self`` holding tracers in ``fields``."""
    if not fields or target.host or type(target.node) is not cst.FunctionDef:
        return
    target.mark_traced(reason)
    target.self_leaves |= fields


def member_tracer(interp: Any, info: ClassInfo, member: Unit, fields: frozenset[str], depth: int = 0) -> bool:
    """Does every ``return`` of ``member`` (a method or property of ``info`` run with
    tracers in ``self.<fields>``) hand back a JAX computation reading one of them:
    ``self.f`` itself, arithmetic on it, a comparison (``self.sigma < 1e-6``: a traced
    bool), an index or an array method of it (``self.w[0]``, ``self.w.sum()``), a
    ``jnp``/``lax`` function of it, another such property of the class?  Anything else (a
    Python value, a branch): not shown."""
    if depth > _DEPTH or type(member.node) is not cst.FunctionDef or member.is_generator:
        return False
    if not member.returns or any(v is None for v in member.returns):
        return False
    if member.params and _assigns_self(member):
        return False
    resolve = interp.imports.resolve_expr
    assigned = member.assigned

    def tracer(e: cst.BaseExpression, d: int = 0) -> bool:
        if d > _DEPTH:
            return False
        t = type(e)
        if t is cst.Attribute and type(e.value) is cst.Name and e.value.value == "self":
            attr = e.attr.value
            if attr in fields:
                return True
            prop = info.method(attr)
            return prop is not None and prop is not member and is_property(prop) and \
                member_tracer(interp, info, prop, fields, depth + 1)
        if t is cst.BinaryOperation:
            return tracer(e.left, d + 1) or tracer(e.right, d + 1)
        if t is cst.UnaryOperation and not isinstance(e.operator, cst.Not):
            return tracer(e.expression, d + 1)
        if t is cst.Comparison:  # `self.sigma < 1e-6`: a traced bool (`is`/`in` are Python's)
            return all(type(c.operator) in _ARRAY_COMPARISONS for c in e.comparisons) and (
                tracer(e.left, d + 1) or any(tracer(c.comparator, d + 1) for c in e.comparisons))
        if t is cst.Subscript:  # `self.mu[0]`
            return tracer(e.value, d + 1)
        if t is cst.Call and type(e.func) is cst.Attribute and e.func.attr.value in _ARRAY_METHODS:
            return tracer(e.func.value, d + 1)  # `self.w.sum()`
        if t is cst.Call:
            written = dotted_name(e.func)
            if written is None or written.split(".", 1)[0] in assigned:
                return False
            q = resolve(e.func)
            if q is None or not q.startswith(apis.ARRAY_MODULES) or q in apis.STATIC_RESULT_FUNCS:
                return False
            return any(tracer(a.value, d + 1) for a in e.args if a.keyword is None and not a.star)
        return False

    return all(tracer(v) for v in member.returns)


def computed(member: Unit) -> bool:
    """Does every ``return`` of ``member`` (``member_tracer`` holds) compute a new array
    (arithmetic, a comparison, a call) rather than hand back a leaf or a part of one (which
    may be a container: ``if self.params:`` is Python's truth test of a dict)?"""
    return bool(member.returns) and all(
        type(v) in (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison, cst.Call)
        for v in member.returns)


def _assigns_self(unit: Unit) -> bool:
    """Does ``unit`` assign an attribute of ``self`` (its reads may then be its own values)?"""
    for stmt in unit.node.body.body:  # type: ignore[union-attr]
        if type(stmt) is not cst.SimpleStatementLine:
            continue
        for small in stmt.body:
            targets = [t.target for t in small.targets] if type(small) is cst.Assign else (
                [small.target] if type(small) in (cst.AugAssign, cst.AnnAssign) else [])
            if any(type(t) is cst.Attribute and type(t.value) is cst.Name and t.value.value == "self" for t in targets):
                return True
    return False


def self_written(interp: Any, unit: Unit, attr: str) -> bool:
    """Does ``unit`` itself assign ``self.attr`` anywhere in its body?"""
    memo = interp.scratch_memo
    key = ("self-writes", id(unit))
    got = memo.get(key)
    if got is None:
        got = set()
        for n in descendants(unit.node.body):  # type: ignore[union-attr]
            targets = [t.target for t in n.targets] if type(n) is cst.Assign else (
                [n.target] if type(n) in (cst.AugAssign, cst.AnnAssign) else [])
            for t in targets:
                if type(t) is cst.Attribute and type(t.value) is cst.Name and t.value.value == "self":
                    got.add(t.attr.value)
        memo[key] = got
    return attr in got
