"""Helpers shared by the performance rules."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.model.walk import descendants


def range_bounds(ctx, call: cst.CSTNode) -> Optional[list[cst.BaseExpression]]:
    if not isinstance(call, cst.Call) or ctx.builtin_name(call.func) != "range":
        return None
    if any(a.keyword is not None or a.star for a in call.args):
        return None
    return [a.value for a in call.args]


class TracedLoopMixin:
    ctx: object

    def _iters(self, node: cst.CSTNode) -> list[cst.BaseExpression]:
        if isinstance(node, cst.For):
            return [node.iter]
        out = []
        f = getattr(node, "for_in", None)
        while f is not None:
            out.append(f.iter)
            f = f.inner_for_in
        return out

    def _does_jax_work(self, node: cst.CSTNode) -> bool:
        """Does the loop body call JAX or touch a traced value?  A loop of pure
        Python arithmetic adds nothing to the jaxpr, however long."""
        ctx = self.ctx
        body = node.body if isinstance(node, cst.For) else node
        for n in descendants(body):
            if isinstance(n, cst.Call):
                q = ctx.qualname(n.func)
                if q is not None and q.split(".", 1)[0] in ("jax", "flax", "equinox", "optax", "haiku"):
                    return True
            elif isinstance(n, cst.Name):
                v = ctx.lookup(n.value)  # no memo: the body has not been walked yet
                if v is not None and v.traced:
                    return True
        return False

    def _check(self, node: cst.CSTNode) -> None:
        if not self.ctx.in_traced or not self._does_jax_work(node):
            return
        for it in self._iters(node):
            bounds = range_bounds(self.ctx, it)
            if bounds:
                self.check_range(it, bounds)
            else:
                self.check_iterable(it)

    def check_range(self, it: cst.Call, bounds: list[cst.BaseExpression]) -> None:  # pragma: no cover
        raise NotImplementedError

    def check_iterable(self, it: cst.BaseExpression) -> None:
        """A loop over something other than ``range(...)`` (``for row in x``)."""

    def visit_For(self, node: cst.For) -> None:
        self._check(node)

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = visit_For
