"""Helpers that transform a function parameter on one path only (``f = jax.jit(fn) if
jit else fn``; ``if use_jit: return jax.jit(fn)`` then ``return fn``; ``if
DISABLE_JIT: body_fun(i, val) else: lax.fori_loop(..., body_fun, ...)``): the function a
caller hands them is traced only when the call picks the transforming path.

``mode_of`` reads the helper: ``ALWAYS`` (no other path uses the function untransformed),
``UNKNOWN`` (another path does, and the choice is no test of a parameter: a global
setting, an attribute), or a condition on a parameter (a JSON-able list: the facts
``takes_fns`` carry it across modules).  ``holds`` answers a condition for one call: the
literal the call passes for that parameter (or its literal default); anything else is
unknown, and unknown is no transformation (the function is left untraced)."""

from __future__ import annotations

from typing import Optional, Union

import libcst as cst

from jaxlint.model.walk import walk_tree

ALWAYS = "always"
UNKNOWN = "unknown"
# a condition: [parameter, op, literal, polarity, has_default, default]
Condition = list
_NO = object()  # not a literal


def mode_of(fn: cst.CSTNode, site: cst.CSTNode, name: str, params: dict, transformed: set[int]) -> Union[str, Condition]:
    """How the helper ``fn`` transforms its parameter ``name`` at ``site`` (the
    transformation's call): always, on a condition of a parameter (``params``: name ->
    ParamInfo), or unknown.  ``transformed``: ids of the expressions handed to a
    transformation in the file (not an untransformed use)."""
    body = getattr(fn, "body", None)
    if body is None:
        return ALWAYS
    # every test that chooses between the transformation and an untransformed use: one
    # is a condition of the call; several (an `elif` chain, nested ifs) are a
    # conjunction this model does not carry: unknown
    found: list[tuple[cst.BaseExpression, bool]] = []
    for n in walk_tree(body):
        t = type(n)
        if t is cst.If or t is cst.IfExp:
            for branch, rest, polarity in ((n.body, n.orelse, True), (n.orelse, n.body, False)):  # type: ignore[attr-defined]
                if branch is None or rest is None or not _within(branch, site):
                    continue
                if _eager_use(rest, name, transformed):
                    found.append((n.test, polarity))  # type: ignore[attr-defined]
        elif t is cst.IndentedBlock:
            stmts = list(n.body)  # type: ignore[attr-defined]
            for i, stmt in enumerate(stmts):
                if type(stmt) is not cst.If or stmt.orelse is not None:
                    continue
                after = stmts[i + 1:]
                if _within(stmt.body, site) and any(_eager_use(s, name, transformed) for s in after):
                    # `if use_jit: return jax.jit(fn)` then `return fn`
                    found.append((stmt.test, True))
                elif any(_within(s, site) for s in after) and _leaves(stmt.body) \
                        and _eager_use(stmt.body, name, transformed):
                    # `if not use_jit: return fn` then `return jax.jit(fn)`
                    found.append((stmt.test, False))
    if not found:
        return ALWAYS
    if len(found) > 1:
        return UNKNOWN
    cond = _condition(found[0][0], found[0][1], params)
    return cond if cond is not None else UNKNOWN


def holds(cond: Condition, value: object) -> Optional[bool]:
    """Does ``cond`` pick the transforming path for the parameter's ``value`` (a Python
    literal, or ``_NO``: unknown -> None)?"""
    if value is _NO:
        return None
    _, op, lit, polarity, _, _ = cond
    try:
        if op == "truth":
            got = bool(value)
        elif op == "==":
            got = value == lit and type(value) is type(lit)
        elif op == "!=":
            got = not (value == lit and type(value) is type(lit))
        elif op == "in":
            got = any(value == v and type(value) is type(v) for v in lit)
        elif op == "not in":
            got = not any(value == v and type(value) is type(v) for v in lit)
        else:
            return None
    except Exception:  # pragma: no cover - literals compare
        return None
    return got == polarity


def call_value(cond: Condition, arg: Optional[cst.BaseExpression], hidden: bool) -> object:
    """The literal a call passes for the condition's parameter: ``arg`` (the expression
    it passes, None when it passes none), its default when it passes none (``hidden``:
    ``*args``/``**kwargs`` may pass it: unknown)."""
    if arg is not None:
        return literal(arg)
    if hidden or not cond[4]:
        return _NO
    return cond[5]


def literal(e: Optional[cst.BaseExpression]) -> object:
    """The Python value of a literal (True/False/None, a number, a string, a tuple or
    list of literals), else ``_NO``."""
    if e is None:
        return _NO
    if isinstance(e, cst.Name):
        return {"True": True, "False": False, "None": None}.get(e.value, _NO)
    if isinstance(e, cst.Integer):
        try:
            return int(e.value.replace("_", ""), 0)
        except ValueError:
            return _NO
    if isinstance(e, cst.Float):
        try:
            return float(e.value.replace("_", ""))
        except ValueError:
            return _NO
    if isinstance(e, cst.SimpleString):
        v = e.evaluated_value
        return v if isinstance(v, str) else _NO
    if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Minus):
        v = literal(e.expression)
        return -v if isinstance(v, (int, float)) and not isinstance(v, bool) else _NO
    if isinstance(e, (cst.Tuple, cst.List)):
        vals = [literal(el.value) for el in e.elements]
        return _NO if any(v is _NO for v in vals) else vals
    return _NO


def _condition(test: cst.BaseExpression, polarity: bool, params: dict) -> Optional[Condition]:
    """``test`` as a condition on a parameter: ``jit``, ``not jit``, ``mode == "jit"``,
    ``backend in ("jit", "pmap")``, ``jit is True``; None for anything else."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _condition(test.expression, not polarity, params)
    if isinstance(test, cst.Name):
        return _on(params, test.value, "truth", None, polarity)
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        op, right, left = test.comparisons[0].operator, test.comparisons[0].comparator, test.left
        if not isinstance(left, cst.Name) and isinstance(right, cst.Name) and isinstance(op, (cst.Equal, cst.NotEqual)):
            left, right = right, left
        if not isinstance(left, cst.Name):
            return None
        lit = literal(right)
        if lit is _NO:
            return None
        if isinstance(op, (cst.Equal, cst.Is)):
            return _on(params, left.value, "==", lit, polarity)
        if isinstance(op, (cst.NotEqual, cst.IsNot)):
            return _on(params, left.value, "!=", lit, polarity)
        if isinstance(op, cst.In) and isinstance(lit, list):
            return _on(params, left.value, "in", lit, polarity)
        if isinstance(op, cst.NotIn) and isinstance(lit, list):
            return _on(params, left.value, "not in", lit, polarity)
    return None


def _on(params: dict, name: str, op: str, lit: object, polarity: bool) -> Optional[Condition]:
    p = params.get(name)
    if p is None or p.kind in ("vararg", "kwarg"):
        return None
    default = literal(p.default) if p.default is not None else _NO
    return [name, op, lit, polarity, default is not _NO, None if default is _NO else default]


def _within(outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
    return any(n is inner for n in walk_tree(outer))


def _leaves(block: cst.CSTNode) -> bool:
    return any(isinstance(n, (cst.Return, cst.Raise)) for n in walk_tree(block))


def _eager_use(root: cst.CSTNode, name: str, transformed: set[int]) -> bool:
    """Does ``root`` use the function ``name`` other than by handing it to a
    transformation or reading an attribute of it: calls it, returns it, binds it,
    passes it on?"""
    attr_of: set[int] = set()
    for n in walk_tree(root):
        if isinstance(n, cst.Attribute):
            attr_of.add(id(n.value))
        elif isinstance(n, cst.Name) and n.value == name and id(n) not in transformed and id(n) not in attr_of:
            return True
    return False
