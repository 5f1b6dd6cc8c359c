"""Helpers shared by the performance rules."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.model import values as V
from jaxlint.model.scopes import scope_of, writes
from jaxlint.model.walk import descendants, int_value, walk_tree

_JAX_FAMILY = ("jax", "flax", "equinox", "optax", "haiku")
_MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse"})
_MAX_DEPTH = 8


def static_number(ctx, unit, e: cst.CSTNode, depth: int = 0):
    """The number ``e`` always holds in ``unit``: a literal; a name its scope (the unit, an
    enclosing function, the module) binds exactly once, by a plain or tuple assignment
    (``n, beta = 20, 0.99``), to one; arithmetic on those (``npart * (npart - 1)``,
    ``int(T / dt)``, ``2 ** 10``); ``len()`` of a literal tuple or list, or of a name bound
    once to one and never mutated.  None when anything in it is unknown."""
    if depth > _MAX_DEPTH:
        return None
    v = int_value(e)
    if v is not None:
        return v
    t = type(e)
    if t is cst.Float:
        try:
            return float(e.value.replace("_", ""))
        except ValueError:
            return None
    if t is cst.Name:
        n = _name_number(ctx, unit, e.value, depth)
        return n if n is not None else _valued(ctx, unit, e)
    if t is cst.UnaryOperation and isinstance(e.operator, (cst.Minus, cst.Plus)):
        x = static_number(ctx, unit, e.expression, depth + 1)
        return None if x is None else (-x if isinstance(e.operator, cst.Minus) else x)
    if t is cst.BinaryOperation:
        op = e.operator
        if not isinstance(op, (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Divide,
                               cst.Modulo, cst.Power)):
            return None
        a = static_number(ctx, unit, e.left, depth + 1)
        b = static_number(ctx, unit, e.right, depth + 1) if a is not None else None
        if b is None:
            return None
        try:
            if isinstance(op, cst.Add):
                return a + b
            if isinstance(op, cst.Subtract):
                return a - b
            if isinstance(op, cst.Multiply):
                return a * b
            if isinstance(op, cst.FloorDivide):
                return a // b
            if isinstance(op, cst.Divide):
                return a / b
            if isinstance(op, cst.Modulo):
                return a % b
            if abs(b) <= 64 and abs(a) < 1 << 32:
                return a ** b
        except (ZeroDivisionError, OverflowError, ValueError, TypeError):
            return None
        return None
    if t is cst.Call and len(e.args) == 1 and not e.args[0].star and e.args[0].keyword is None:
        fn = ctx.builtin_name(e.func)
        arg = e.args[0].value
        if fn == "len":
            n = _length(ctx, unit, arg, depth)
            return n if n is not None else _valued(ctx, unit, e)
        if fn in ("int", "round", "abs"):
            x = static_number(ctx, unit, arg, depth + 1)
            if x is None or isinstance(x, complex):
                return None
            try:
                return int(x) if fn == "int" else (round(x) if fn == "round" else abs(x))
            except (OverflowError, ValueError):
                return None
    return _valued(ctx, unit, e)


def _valued(ctx, unit, e: cst.CSTNode):
    """The integer the model's value of ``e`` holds on this path (``Value.const``:
    ``x.shape[0]`` of an array of known shape, a config field's default, an imported
    constant, what a helper returns), where ``e`` stands in the unit being walked."""
    if unit is not ctx.unit or type(e) not in (cst.Name, cst.Attribute, cst.Subscript, cst.Call):
        return None
    c = ctx.value(e).const
    return c if type(c) is int else None


def _name_number(ctx, unit, name: str, depth: int):
    index = ctx.index
    p = unit.param(name)
    if p is not None:
        # a traced function's parameter left at its default (no call passes it) stays
        # that Python value: `def f(x, n=N_STEPS)` under `jax.jit` loops N_STEPS times
        if p.default is not None and name in unit.defaulted_params and name not in unit.traced_params \
                and name not in unit.assigned:
            return static_number(ctx, unit.parent or index.module_unit, p.default, depth + 1)
        return None
    u = scope_of(index, unit, name)
    if u is None:
        return None  # a parameter, or bound nowhere we can see
    if u.is_module:
        stmts = index.module_assignments.get(name, [])
        if any(name in w.global_names and name in w.assigned for w in index.units):
            return None  # also written by a function's `global`
    else:
        stmts = writes(u.node, name)
    if len(stmts) != 1:
        return None
    s = stmts[0]
    if isinstance(s, cst.AnnAssign):
        if s.value is not None and isinstance(s.target, cst.Name):
            return static_number(ctx, u, s.value, depth + 1)
        return None
    if not isinstance(s, cst.Assign) or len(s.targets) != 1:
        return None
    target = s.targets[0].target
    if isinstance(target, cst.Name):
        return static_number(ctx, u, s.value, depth + 1)
    value = s.value
    if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) \
            and len(target.elements) == len(value.elements) \
            and not any(isinstance(x, cst.StarredElement) for x in (*target.elements, *value.elements)):
        for te, ve in zip(target.elements, value.elements):
            if isinstance(te.value, cst.Name) and te.value.value == name:
                return static_number(ctx, u, ve.value, depth + 1)
    return None


def _length(ctx, unit, e: cst.CSTNode, depth: int):
    """``len()`` of a literal tuple/list, or of a name bound once to one that nothing
    mutates (no `.append(...)`, `+=`, item assignment or deletion anywhere in the file)."""
    if isinstance(e, (cst.Tuple, cst.List)):
        if any(isinstance(x, cst.StarredElement) for x in e.elements):
            return None
        return len(e.elements)
    if not isinstance(e, cst.Name) or depth > _MAX_DEPTH:
        return None
    u = scope_of(ctx.index, unit, e.value)
    if u is None:
        return None
    stmts = writes(u.node, e.value)
    if len(stmts) != 1 or not isinstance(stmts[0], cst.Assign) or len(stmts[0].targets) != 1 \
            or not isinstance(stmts[0].targets[0].target, cst.Name):
        return None
    value = stmts[0].value
    if not isinstance(value, (cst.Tuple, cst.List)):
        return None
    if isinstance(value, cst.List) or u.is_module:
        name = e.value
        for n in walk_tree(ctx.index.module_unit.node):
            if isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name) and n.value.value == name \
                    and n.attr.value in _MUTATORS:
                return None
            if isinstance(n, (cst.AugAssign, cst.Del)) and any(
                    isinstance(m, cst.Name) and m.value == name for m in (n.target, *descendants(n.target))):
                return None
            if isinstance(n, cst.AssignTarget) and isinstance(n.target, cst.Subscript) \
                    and isinstance(n.target.value, cst.Name) and n.target.value.value == name:
                return None
            if isinstance(n, cst.Global) and any(a.name.value == name for a in n.names):
                return None
    return _length(ctx, u, value, depth + 1)


# builtins that walk their first argument in order, one element per step of the loop
# over them: `for t in reversed(range(n))`, `for i, row in enumerate(x)`
_WALKERS = frozenset({"reversed", "enumerate", "sorted", "list", "tuple", "iter"})


def walked(ctx, it: cst.BaseExpression) -> cst.BaseExpression:
    """What a loop over ``it`` walks, through order-keeping builtins: ``range(n)`` for
    ``reversed(range(n))``/``enumerate(range(n))``/``list(range(n))``, ``x`` for
    ``enumerate(x)``; ``it`` itself otherwise."""
    for _ in range(3):
        if not (type(it) is cst.Call and it.args and not it.args[0].star and it.args[0].keyword is None
                and ctx.builtin_name(it.func) in _WALKERS):
            break
        it = it.args[0].value
    return it


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
                if q is not None and q.split(".", 1)[0] in _JAX_FAMILY:
                    return True
                if isinstance(n.func, cst.Name):
                    # `grad_fn = jax.jit(jax.grad(energy))` ... `grad_fn(x)`: a transformed
                    # function held in a name (or one of JAX's, under another name)
                    f = ctx.lookup(n.func.value)
                    if f is not None and f.kind == V.FUNCTION and (
                            f.transform is not None or (f.qualname or "").split(".", 1)[0] in _JAX_FAMILY):
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
                continue
            inner = walked(self.ctx, it)
            bounds = range_bounds(self.ctx, inner) if inner is not it else None
            if bounds:
                self.check_walked_range(it, bounds)
            else:
                self.check_iterable(it)

    def visit_Call(self, node: cst.Call) -> None:
        """Python's builtin ``sum(x)`` iterates ``x`` as a loop would: one add per row."""
        ctx = self.ctx
        if not ctx.in_traced or len(node.args) not in (1, 2) or any(a.star or a.keyword for a in node.args):
            return
        arg = node.args[0].value
        if type(arg) in (cst.GeneratorExp, cst.ListComp, cst.List, cst.Tuple) or ctx.builtin_name(node.func) != "sum":
            return
        self.check_summed(node, arg)

    def check_walked_range(self, it: cst.Call, bounds: list[cst.BaseExpression]) -> None:
        """A loop over ``reversed(range(...))``, ``enumerate(range(...))``..."""
        self.check_iterable(it)

    def check_summed(self, call: cst.Call, arg: cst.BaseExpression) -> None:
        """``sum(x)`` with Python's builtin ``sum``."""

    def check_range(self, it: cst.Call, bounds: list[cst.BaseExpression]) -> None:  # pragma: no cover
        raise NotImplementedError

    def check_iterable(self, it: cst.BaseExpression) -> None:
        """A loop over something other than ``range(...)`` (``for row in x``)."""

    def visit_For(self, node: cst.For) -> None:
        self._check(node)

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = visit_For
