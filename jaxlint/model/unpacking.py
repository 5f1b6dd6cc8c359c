"""What each name or attribute of an unpacking assignment receives.

``_, self.key = jax.random.split(self.key)``, ``state, y = jnp.split(x, 2)``, ``(out,
n) = x * 2, 3``: the targets of a tuple or list target are bound one by one, each to an
element of the value.  ``unpacked`` pairs every plain target (a name, an attribute, a
subscript; nested tuples too) with what the model can show it receives:

* a tuple or list display of the same length (no ``*``): the element's expression;
* anything else: no expression; the element is a tracer when the model evaluates the
  value element by element with a tracer there (``jnp.sin(x), 3`` returned by a
  helper), or, elements unknown, when the value is a tracer (a JAX array: unpacking it
  iterates its first axis and gives tracers).

A ``*rest`` target and a value the model cannot read give an element of unknown value
(never a tracer).  With concrete tracers (differentiated outside jit) or host code,
nothing is a tracer, as ``is_traced`` says.
"""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst

from jaxlint.model import values as V


def unpacked(ctx: Any, target: cst.BaseExpression, value: cst.BaseExpression,
             ) -> list[tuple[cst.BaseExpression, Optional[cst.BaseExpression], bool]]:
    """(target, its value's expression or None, whether it receives a tracer) for each
    plain target of the tuple or list ``target`` bound to ``value``; [] when
    ``target`` is not a tuple or list."""
    if type(target) not in (cst.Tuple, cst.List):
        return []
    out: list[tuple[cst.BaseExpression, Optional[cst.BaseExpression], bool]] = []
    _unpack(ctx, target, value, None, out)
    return out


def _unpack(ctx: Any, target: cst.BaseExpression, expr: Optional[cst.BaseExpression],
            v: Optional[V.Value], out: list) -> None:
    elems = target.elements  # type: ignore[attr-defined]
    n = len(elems)
    starred = any(type(e) is cst.StarredElement for e in elems)
    items: list[tuple[Optional[cst.BaseExpression], Optional[V.Value]]]
    if expr is not None and type(expr) in (cst.Tuple, cst.List) and not starred \
            and len(expr.elements) == n and all(type(e) is cst.Element for e in expr.elements):  # type: ignore[attr-defined]
        items = [(e.value, None) for e in expr.elements]  # type: ignore[attr-defined]
    else:
        whole = v if v is not None else (_value(ctx, expr) if expr is not None else V.UNKNOWN_VALUE)
        if whole.elements is not None and len(whole.elements) == n and not starred:
            items = [(None, e) for e in whole.elements]
        elif whole.traced:
            each = V.Value(kind=V.ARRAY if whole.kind == V.ARRAY else V.UNKNOWN, traced=True, deps=whole.deps)
            items = [(None, each)] * n
        else:
            items = [(None, V.UNKNOWN_VALUE)] * n
    for el, (sub, sub_v) in zip(elems, items):
        t = el.value
        if type(el) is cst.StarredElement:
            out.append((t, None, False))
            continue
        if type(t) in (cst.Tuple, cst.List):
            _unpack(ctx, t, sub, sub_v, out)
            continue
        if sub is not None:
            out.append((t, sub, ctx.is_traced(sub)))
        else:
            traced = bool(sub_v is not None and sub_v.traced) and not ctx.unit.host and not ctx.concrete_tracers
            out.append((t, None, traced))


def _value(ctx: Any, expr: cst.BaseExpression) -> V.Value:
    return ctx.value(expr)
