"""Functions wrapped by ``jax.experimental.checkify.checkify`` given as ``lax.cond`` /
``lax.switch`` branches.

A checkified function returns ``(Error, out)``; the ``Error`` pytree carries static
metadata of the wrapping that traced it, so two *different* wrappings whose bodies run a
``checkify.check`` / ``checkify.debug_check`` return different pytree structures and
``lax.switch([checkify.checkify(f), checkify.checkify(g)], ...)`` raises ``TypeError:
switch branch outputs must have the same pytree structure`` (jax 0.10.2; the same wrapped
object given twice is fine, and so are wrappings of bodies with no check).

``wrapping(ctx, expr)`` answers, for a branch expression, ``(identity, checks)``: an
identity equal for the same wrapped object (a decorated def named twice), fresh for each
``checkify.checkify(...)`` call or each call of a factory that makes one, and whether the
wrapped body visibly runs a check; None when the branch is not known to be checkified.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.model.walk import descendants

CHECKIFY = "jax.experimental.checkify.checkify"
CHECKS = frozenset({"jax.experimental.checkify.check", "jax.experimental.checkify.debug_check"})


def _runs_check(ctx, node: cst.CSTNode) -> bool:
    return any(isinstance(n, cst.Call) and ctx.qualname(n.func) in CHECKS for n in descendants(node))


def _unit_of(ctx, e: cst.BaseExpression):
    if isinstance(e, cst.Lambda):
        return ctx.index.unit_of.get(id(e))
    if isinstance(e, cst.Name):
        return ctx.value(e).unit
    return None


def _decorated(ctx, unit) -> bool:
    node = unit.node
    if not isinstance(node, cst.FunctionDef) or len(node.decorators) != 1:
        return False
    d = node.decorators[0].decorator
    if isinstance(d, cst.Call):
        d = d.func
    return ctx.qualname(d) == CHECKIFY


def _checkify_call(ctx, e: cst.BaseExpression) -> Optional[bool]:
    """``checkify.checkify(f, ...)``: does ``f``'s body run a check (None: not such a call)."""
    if not isinstance(e, cst.Call) or ctx.qualname(e.func) != CHECKIFY or not e.args or e.args[0].keyword:
        return None
    unit = _unit_of(ctx, e.args[0].value)
    return unit is not None and _runs_check(ctx, unit.node)


def wrapping(ctx, e: cst.BaseExpression) -> Optional[tuple[object, bool]]:
    made = _checkify_call(ctx, e)
    if made is not None:
        return ("call", id(e)), made
    unit = _unit_of(ctx, e) if isinstance(e, cst.Name) else None
    if unit is not None and _decorated(ctx, unit):
        return ("def", id(unit.node)), _runs_check(ctx, unit.node)
    if isinstance(e, cst.Call) and not isinstance(e.func, cst.Call):
        # a factory: every value it returns is a wrapping it makes anew
        f = _unit_of(ctx, e.func) if isinstance(e.func, cst.Name) else None
        if f is None or not isinstance(f.node, cst.FunctionDef) or not f.returns:
            return None
        checks = False
        for r in f.returns:
            if r is None:
                return None
            made = _checkify_call(ctx, r)
            if made is None:
                inner = f.defs.get(r.value) if isinstance(r, cst.Name) else None
                if inner is None or not _decorated(ctx, inner) or r.value in f.assigned - {inner.name}:
                    return None
                made = _runs_check(ctx, inner.node)
            checks = checks or made
        return ("call", id(e)), checks
    return None


def branch_wrappings(ctx, branches: cst.BaseExpression) -> Optional[list[tuple[object, bool]]]:
    """The wrappings a `lax.switch` branch sequence (a list/tuple display, or a
    comprehension over a range or display of known length >= 2 that calls a factory)
    holds, one per branch; None unless every branch is a known wrapping."""
    if isinstance(branches, (cst.List, cst.Tuple)):
        out = []
        for el in branches.elements:
            if isinstance(el, cst.StarredElement):
                return None
            w = wrapping(ctx, el.value)
            if w is None:
                return None
            out.append(w)
        return out
    if isinstance(branches, cst.ListComp) and branches.for_in.inner_for_in is None and not branches.for_in.ifs:
        n = ctx.iteration_count(branches.for_in.iter)
        w = wrapping(ctx, branches.elt)
        if n is None or n < 2 or w is None or w[0][0] != "call":
            return None
        return [(("call", id(branches.elt), i), w[1]) for i in range(n)]
    return None
