"""JAX504 varying-static-argument: A loop counter passed as a `static_argnums`/`static_argnames` argument: one compile per value."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model.walk import int_value, positional_args


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


def _counter_in(e: cst.BaseExpression, counters) -> Optional[str]:
    if isinstance(e, cst.Name):
        return e.value if e.value in counters else None
    if isinstance(e, cst.BinaryOperation):
        l, r = e.left, e.right
        for a, b in ((l, r), (r, l)):
            if isinstance(a, cst.Name) and a.value in counters and int_value(b) is not None:
                return a.value
    return None


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
        "the loop counter `i` (or `i` combined with constants, `i + 1`). The jitted function is "
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
        name = _counter_in(e, counters)
        if name is None:
            return
        self.report(
            e,
            f"the loop counter `{name}` is passed as the static argument {where}: every new value "
            f"traces and compiles the function again (one compile per iteration). Pass it as a "
            f"traced argument instead (remove it from static_argnums/static_argnames)",
        )
