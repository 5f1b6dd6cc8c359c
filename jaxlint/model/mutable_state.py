"""Collections a flax ``apply(..., mutable=...)`` updated and nobody reads: the call
returns ``(out, updated)`` and leaves the variables it was given as they were (flax
updates nothing in place), so a function that binds ``updated``, never reads it and
hands back the variables it passed in returns stale state (the running mean of
``batch_stats`` never moves).

``discarded_state`` answers for one assignment of a function: ``y, new = m.apply(v,
x, mutable=[...])`` (any callable given a ``mutable=`` that is not ``False``/``None``:
``state.apply_fn``, an ``apply_fn`` argument), or ``(l, new), g =
jax.value_and_grad(loss, has_aux=True)(p)`` / ``g, new = jax.grad(loss,
has_aux=True)(p)`` of a local ``loss`` whose every return is ``l, updated`` with
``updated`` bound by such a call.  Only a name (not ``_``-prefixed) the function
mentions nowhere else, and only where the function returns a variable the call was
given (``state`` of ``{"params": p, **state}``, ``variables``) that it never rebinds."""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst

from jaxlint.model.scopes import writes
from jaxlint.model.walk import keyword_arg

_GRADS = frozenset({"jax.value_and_grad", "jax.grad"})
_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


def _mutable_call(e: cst.CSTNode) -> Optional[cst.Call]:
    """``m.apply(v, x, mutable=[...])``: a call given a ``mutable=`` that is not
    ``False``/``None`` (nor ``["intermediates"]`` alone: sown values, not state)."""
    if type(e) is not cst.Call:
        return None
    kw = keyword_arg(e, "mutable")
    if kw is None:
        return None
    v = kw.value
    if type(v) is cst.Name and v.value in ("False", "None"):
        return None
    if type(v) in (cst.List, cst.Tuple) and all(
            isinstance(el.value, cst.SimpleString) and el.value.evaluated_value == "intermediates" for el in v.elements):
        return None
    return e


def _given(call: cst.Call) -> list[str]:
    """The variables the call was given: ``v`` of ``apply(v, ...)``, ``state`` of
    ``apply({"params": p, **state}, ...)``."""
    if not call.args or call.args[0].keyword is not None or call.args[0].star:
        return []
    first = call.args[0].value
    if type(first) is cst.Name:
        return [first.value]
    if type(first) is cst.Dict:
        return [el.value.value for el in first.elements
                if type(el) is cst.StarredDictElement and type(el.value) is cst.Name]
    return []


def _pair(t: cst.BaseExpression) -> Optional[tuple[cst.BaseExpression, cst.BaseExpression]]:
    if type(t) in (cst.Tuple, cst.List) and len(t.elements) == 2 and not any(
            type(el) is cst.StarredElement for el in t.elements):
        return t.elements[0].value, t.elements[1].value
    return None


def _own_names(fn: cst.CSTNode, name: str) -> int:
    """How many times ``fn``'s own statements (not nested functions) mention ``name``."""
    n = 0
    stack = list(fn.body.children) if isinstance(fn, cst.FunctionDef) else []
    while stack:
        node = stack.pop()
        if isinstance(node, _SCOPES):
            if isinstance(node, cst.FunctionDef) and node.name.value == name:
                n += 1
            continue
        if type(node) is cst.Name and node.value == name:
            n += 1
        stack.extend(node.children)
    return n


def _aux_apply(fn: cst.FunctionDef) -> Optional[cst.Call]:
    """The mutable ``apply`` whose updated collections every return of ``fn`` (a loss
    for ``has_aux=True``) hands back as its aux: ``return l, updated``."""
    bound: dict[str, cst.Call] = {}
    returns: list[cst.Return] = []
    stack = list(fn.body.children)
    while stack:
        node = stack.pop()
        if isinstance(node, _SCOPES):
            continue
        if type(node) is cst.Assign and len(node.targets) == 1:
            call = _mutable_call(node.value)
            pair = _pair(node.targets[0].target)
            if call is not None and pair is not None and type(pair[1]) is cst.Name:
                bound[pair[1].value] = call
        elif type(node) is cst.Return:
            returns.append(node)
        stack.extend(node.children)
    if not returns:
        return None
    calls = set()
    for r in returns:
        pair = _pair(r.value) if r.value is not None else None
        if pair is None or type(pair[1]) is not cst.Name or pair[1].value not in bound:
            return None
        calls.add(id(bound[pair[1].value]))
    if len(calls) != 1:
        return None
    return next(c for c in bound.values() if id(c) in calls)


def discarded_state(ctx: Any, node: cst.Assign) -> Optional[tuple[str, list[str]]]:
    """(the name bound to updated collections nobody reads, the variables the call was
    given) for this assignment of the function being walked; None otherwise."""
    fn = ctx.unit.node
    if not isinstance(fn, cst.FunctionDef) or len(node.targets) != 1:
        return None
    target = node.targets[0].target
    call = _mutable_call(node.value)
    new: Optional[cst.BaseExpression] = None
    if call is not None:
        pair = _pair(target)
        new = pair[1] if pair is not None else None
    elif type(node.value) is cst.Call and type(node.value.func) is cst.Call:
        grad = node.value.func
        q = ctx.qualname(grad.func)
        aux = keyword_arg(grad, "has_aux")
        if q not in _GRADS or aux is None or not (type(aux.value) is cst.Name and aux.value.value == "True") \
                or not grad.args or grad.args[0].keyword is not None or type(grad.args[0].value) is not cst.Name:
            return None
        loss = ctx.unit.lookup_def(grad.args[0].value.value)
        if loss is None or not isinstance(loss.node, cst.FunctionDef) or loss.node.decorators:
            return None
        call = _aux_apply(loss.node)
        pair = _pair(target)
        if call is None or pair is None:
            return None
        if q == "jax.value_and_grad":
            inner = _pair(pair[0])
            new = inner[1] if inner is not None else None
        else:
            new = pair[1]
    if call is None or type(new) is not cst.Name or new.value.startswith("_"):
        return None
    if _own_names(fn, new.value) != 1:
        return None  # read somewhere (or bound again)
    given = [g for g in _given(call) if not writes(fn, g)]
    return (new.value, given) if given else None


def stale_return(fn: cst.FunctionDef, given: list[str]) -> Optional[tuple[cst.Return, str]]:
    """The first return of ``fn`` (its own) that hands back one of ``given`` (alone or
    in a tuple)."""
    stack = list(reversed(fn.body.children))
    while stack:
        node = stack.pop()
        if isinstance(node, _SCOPES):
            continue
        if type(node) is cst.Return and node.value is not None:
            vals = [el.value for el in node.value.elements] if type(node.value) is cst.Tuple else [node.value]
            for v in vals:
                if type(v) is cst.Name and v.value in given:
                    return node, v.value
        stack.extend(reversed(node.children))
    return None
