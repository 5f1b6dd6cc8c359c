"""JAX504 varying-static-argument: A loop counter passed as a `static_argnums`/`static_argnames` argument: one compile per value."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model.walk import assigned_in, int_value, positional_args, walk_tree


def _loop_counters(ctx) -> dict[str, cst.CSTNode]:
    """Names bound to a counter by an enclosing ``for i in range(...)`` /
    ``for i, x in enumerate(...)`` of the current unit."""
    out: dict[str, cst.CSTNode] = {}
    for frame in ctx.loop_stack:
        node = frame.node
        if not isinstance(node, cst.For):
            continue
        it, tgt = node.iter, node.target
        if not isinstance(it, cst.Call):
            continue
        b = ctx.builtin_name(it.func)
        if b == "range" and isinstance(tgt, cst.Name):
            out[tgt.value] = node
        elif b == "enumerate" and isinstance(tgt, cst.Tuple) and tgt.elements and isinstance(tgt.elements[0].value, cst.Name):
            out[tgt.elements[0].value.value] = node
    return out


def _counter_in(e: cst.BaseExpression, counters, ctx=None, depth: int = 0) -> Optional[str]:
    """The loop counter ``e`` is a one-to-one function of: the counter itself, arithmetic
    of it with constants or other counters (``i + 1``, ``float(i) / 10``, ``2 ** i``; not
    ``i % 2`` or ``i // k``, which take few values), ``int``/``float`` of one, or a name
    the loop binds to one (``lr = base * (i + 1)``)."""
    if depth > 4:
        return None
    if isinstance(e, cst.Name):
        if e.value in counters:
            return e.value
        bound = _bound_in_loop(ctx, e.value) if ctx is not None else None
        return _counter_in(bound, counters, ctx, depth + 1) if bound is not None else None
    if isinstance(e, cst.BinaryOperation):
        if isinstance(e.operator, (cst.Modulo, cst.FloorDivide, cst.BitAnd, cst.RightShift)):
            return None
        left = _counter_in(e.left, counters, ctx, depth + 1)
        right = _counter_in(e.right, counters, ctx, depth + 1)
        if left is not None and (right is not None or _invariant(ctx, e.right)):
            return left
        if right is not None and _invariant(ctx, e.left):
            return right
        return None
    if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Minus):
        return _counter_in(e.expression, counters, ctx, depth + 1)
    if isinstance(e, cst.Call) and ctx is not None and ctx.builtin_name(e.func) in ("int", "float") \
            and len(e.args) == 1 and e.args[0].keyword is None and not e.args[0].star:
        return _counter_in(e.args[0].value, counters, ctx, depth + 1)
    return None


def _invariant(ctx, e: cst.BaseExpression) -> bool:
    """A literal number, or a name (``n``, ``cfg.lr``) the innermost loop does not bind."""
    if int_value(e) is not None or isinstance(e, (cst.Float, cst.Integer)):
        return True
    if ctx is None or not ctx.loop_stack or not isinstance(e, (cst.Name, cst.Attribute)):
        return False
    head = e
    while isinstance(head, cst.Attribute):
        head = head.value
    if not isinstance(head, cst.Name):
        return False
    # (a static argument computed in a loop is rare: no memo)
    return head.value not in assigned_in(ctx.loop_stack[-1].node)


def _bound_in_loop(ctx, name: str) -> Optional[cst.BaseExpression]:
    """The one expression the innermost enclosing loop's body binds ``name`` to
    (``n = i + 1``), when it binds it once, by a plain assignment, and nothing else
    binds it in the function; None otherwise."""
    if not ctx.loop_stack:
        return None
    loop = ctx.loop_stack[-1].node
    if not isinstance(loop, cst.For):
        return None
    found = None
    for n in walk_tree(loop.body):
        if isinstance(n, cst.Assign):
            for t in n.targets:
                names = [t.target] if isinstance(t.target, cst.Name) else list(walk_tree(t.target))
                if any(isinstance(x, cst.Name) and x.value == name for x in names):
                    if found is not None or not isinstance(t.target, cst.Name):
                        return None
                    found = n.value
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr)):
            if any(isinstance(x, cst.Name) and x.value == name for x in walk_tree(n.target)):
                return None
    if found is None or len(ctx.unit.bindings.get(name, ())) != 1:
        return None
    return found


class VaryingStaticArgument(Rule):
    code = "JAX504"
    name = "varying-static-argument"
    runtime_check = 'compile counts over two calls: confirmed when a changing or unhashable static argument compiles again; with `--run`, also the observed calls with other static values replayed in order (a call at module level: those of the function it calls), confirmed when the function compiles again for arrays of the same shapes.'
    summary = "A loop counter passed as a `static_argnums`/`static_argnames` argument: one compile per value"
    severity = Severity.WARNING
    seed = "The Sharp Bits § static arguments and caching (seed 000); tutorial § static_argnums (seed 002)"
    what_it_does = (
        "Flags a call, inside `for i in range(...)` (or `for i, x in enumerate(...)`), of a "
        "function jitted with `static_argnums`/`static_argnames` where the static argument is "
        "the loop counter `i`, or a value that changes with it: `i` combined with constants, "
        "names the loop does not bind or other counters (`i + 1`, `float(i) / n`, `2 ** i`), "
        "`int`/`float` of one, or a name the loop binds once to one (`lr = 0.5 * (i + 1)`); not "
        "`i % k`, `i // k` or `min(i, k)`, which take few values. The jitted function is "
        "resolved through `@jax.jit(...)`/`@partial(jax.jit, ...)` decorators, `f = jax.jit(g, "
        "static_argnums=...)` bindings and `jax.jit(g, ...)(...)` calls."
    )
    why_bad = (
        "Static arguments are part of the compile-cache key: every distinct value traces and "
        "compiles the function again. Measured on jax 0.10.2/0.12: `jit(f, static_argnums=1)` "
        "called with n = 0..5 gives 6 traces and 6 compiles (`_cache_size() == 6`); even "
        "`n=1.0` after `n=1` compiles again. A loop counter is a new value every iteration, so "
        "the loop compiles once per step, silently."
    )
    use_instead = (
        "Pass the counter as a traced argument (drop it from `static_argnums`) and use "
        "`jnp`/`lax` operations on it:\n\n```python\n@jax.jit\ndef step(x, i):\n    return x * i\n```"
    )
    fix_safety = "No automatic fix: the function body may need the value to be static (shapes, Python control flow)."
    VALID = [
        Valid(
            """
            import jax
            from functools import partial

            @partial(jax.jit, static_argnums=1)
            def step(x, mode):
                return x * 2 if mode == 'a' else x

            def run(x):
                for i in range(100):
                    x = step(x, 'a')
                return x
            """
        ),
        # the counter in a traced position
        Valid(
            """
            import jax
            from functools import partial

            @partial(jax.jit, static_argnums=1)
            def step(x, mode, i):
                return x * i

            def run(x):
                for i in range(100):
                    x = step(x, 'a', i)
                return x
            """
        ),
        # not jitted: calling the plain function with a static-looking parameter
        Valid(
            """
            import jax

            def step(x, n):
                return x * n

            fast = jax.jit(step, static_argnums=1)

            def run(x):
                for i in range(10):
                    x = step(x, i)
                return x
            """
        ),
        # iterating over a list of configurations is deliberate
        Valid(
            """
            import jax

            def f(x, n):
                return x[:n]

            g = jax.jit(f, static_argnums=1)
            for n in [1, 2, 4]:
                g(x, n)
            """
        ),
        # values of the counter that take a few values (a parity, a clamp), or none of it
        Valid(
            """
            from functools import partial

            import jax


            @partial(jax.jit, static_argnames=("mode",))
            def step(x, mode):
                return x * 2 if mode else x


            def run(x, n, base):
                for i in range(n):
                    x = step(x, mode=i % 2)
                    x = step(x, mode=min(i, 3))
                    x = step(x, mode=base * 2)
                return x
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            import jax
            from functools import partial

            @partial(jax.jit, static_argnums=1)
            def step(x, i):
                return x * i

            def run(x):
                for i in range(100):
                    x = step(x, i)
                return x
            """,
            expected=[(10, 21)],
            messages=[
                "the loop counter `i` is passed as the static argument `i` (position 1): every new value traces and compiles the function again (one compile per iteration). Pass it as a traced argument instead (remove it from static_argnums/static_argnames)",
            ],
        ),
        Invalid(
            """
            import jax

            def f(x, n):
                return x[:n]

            g = jax.jit(f, static_argnames='n')
            for k in range(8):
                y = g(x, n=k + 1)
            """,
            expected=[(8, 16)],
            messages=[
                "the loop counter `k` is passed as the static argument `n`: every new value traces and compiles the function again (one compile per iteration). Pass it as a traced argument instead (remove it from static_argnums/static_argnames)",
            ],
        ),
        Invalid(
            """
            import jax

            @jax.jit(static_argnames=('layer',))
            def apply(x, layer):
                return x + layer

            def run(x, n):
                for j, _ in enumerate(range(n)):
                    x = apply(x, j)
                return x
            """,
            expected=[(9, 22)],
            messages=[
                "the loop counter `j` is passed as the static argument `layer` (position 1): every new value traces and compiles the function again (one compile per iteration). Pass it as a traced argument instead (remove it from static_argnums/static_argnames)",
            ],
        ),
        # a value computed from the counter, in place or through a name the loop binds
        Invalid(
            """
            from functools import partial

            import jax


            @partial(jax.jit, static_argnames=("scale",))
            def shrink(x, scale):
                return x * scale


            def run(x, n):
                for i in range(n):
                    x = shrink(x, scale=float(i) / n)
                    lr = 0.5 * (i + 1)
                    x = shrink(x, scale=lr)
                return x
            """,
            expected=[(13, 29), (15, 29)],
            messages=[
                "`float(i) / n`, which changes with the loop counter `i`, is passed as the static argument `scale`: every new value traces and compiles the function again (one compile per iteration). Pass it as a traced argument instead (remove it from static_argnums/static_argnames)",
                "`lr`, which changes with the loop counter `i`, is passed as the static argument `scale`: every new value traces and compiles the function again (one compile per iteration). Pass it as a traced argument instead (remove it from static_argnums/static_argnames)",
            ],
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if not ctx.loop_stack or ctx.in_traced:
            return
        counters = _loop_counters(ctx)
        if not counters:
            return
        info = ctx.jit_callee(node, exact=False)
        if info is None or not info.has_static:
            return
        for i, a in enumerate(positional_args(node)):
            if info.static_position(i, loose=True):
                self._check(a.value, counters, f"`{info.param_name(i) or i}` (position {i})")
        for a in node.args:
            if a.keyword is not None and info.static_name(a.keyword.value, loose=True):
                self._check(a.value, counters, f"`{a.keyword.value}`")

    def _check(self, e: cst.BaseExpression, counters: dict[str, cst.CSTNode], where: str) -> None:
        name = _counter_in(e, counters, self.ctx)
        if name is None:
            return
        written = self.ctx.code(e).strip()
        simple = isinstance(e, cst.Name) or (isinstance(e, cst.BinaryOperation) and any(
            isinstance(a, cst.Name) and a.value == name and int_value(b) is not None
            for a, b in ((e.left, e.right), (e.right, e.left))))
        what = f"the loop counter `{name}`" if simple and written != name and isinstance(e, cst.BinaryOperation) \
            or written == name else f"`{written}`, which changes with the loop counter `{name}`,"
        self.report(
            e,
            f"{what} is passed as the static argument {where}: every new value "
            f"traces and compiles the function again (one compile per iteration). Pass it as a "
            f"traced argument instead (remove it from static_argnums/static_argnames)",
        )
