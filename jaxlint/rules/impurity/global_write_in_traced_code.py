"""JAX402 global-write-in-traced-code: A traced value stored in a `global` or `nonlocal` variable leaks a tracer."""

from __future__ import annotations

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid, bound_names
from jaxlint.findings import Severity
from jaxlint.rules.impurity._common import assign_pairs, escapes, owner_of


class GlobalWriteInTraced(Rule):
    code = "JAX402"
    name = "global-write-in-traced-code"
    runtime_check = '`jax.checking_leaks()`, then two jitted calls compared: a global written on the first call only (or a leaked tracer).'
    summary = "A traced value stored in a `global` or `nonlocal` variable leaks a tracer"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Pure functions (seed 000); FAQ § UnexpectedTracerError (seed 001)"
    what_it_does = (
        "Flags assignments to names declared `global`, or `nonlocal` to a function outside "
        "the trace, inside traced code, when the assigned value is a tracer. Writes of "
        "Python values (`global calls; calls += 1` to count traces, lazy caches of static "
        "objects) are left alone, and so are `nonlocal` writes into an enclosing function "
        "that is traced by the same transformation."
    )
    why_bad = (
        "The global receives the tracer that existed while the function was traced, not a "
        "value. Nothing fails at that point; the first later use of the global raises:\n\n"
        "```\njax.errors.UnexpectedTracerError: Encountered an unexpected tracer. A function "
        "transformed by JAX had a side effect, allowing for a reference to an intermediate "
        "value with type float32[] wrapped in a DynamicJaxprTracer to escape the scope of the "
        "transformation.\n```\n\n"
        "and calls that hit the compilation cache do not assign at all."
    )
    use_instead = "Return the value and store it outside the traced function:\n\n```python\n@jax.jit\ndef step(x):\n    y = x * 2\n    return y, y\n\nout, last = step(x)\n```"
    fix_safety = "No automatic fix: the function's outputs have to change."
    VALID = [
        # counting traces with a Python int is a deliberate trace-time effect
        Valid(
            """
            import jax

            n_traces = 0

            @jax.jit
            def f(x):
                global n_traces
                n_traces += 1
                return x * 2
            """
        ),
        # nonlocal write inside the same trace
        Valid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                total = jnp.zeros_like(x)
                def add(v):
                    nonlocal total
                    total = total + v
                add(x)
                add(2 * x)
                return total
            """
        ),
        # global write outside traced code
        Valid(
            """
            import jax.numpy as jnp

            state = None

            def update(x):
                global state
                state = jnp.sin(x)
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            import jax

            last = None

            @jax.jit
            def step(x):
                global last
                last = x * 2
                return last
            """,
            expected=[(8, 5)],
            messages=[
                "`last` is global: assigning it a traced value inside `step` leaks the tracer out of the trace; using it afterwards raises UnexpectedTracerError, and cached calls never assign it. Return the value instead",
            ],
        ),
        Invalid(
            """
            import jax
            from jax import lax

            def run(xs):
                seen = None
                def body(c, x):
                    nonlocal seen
                    seen = x
                    return c + x, None
                return lax.scan(body, 0.0, xs), seen
            """,
            expected=[(8, 9)],
            messages=[
                "`seen` is nonlocal: assigning it a traced value inside `body` leaks the tracer out of the trace; using it afterwards raises UnexpectedTracerError, and cached calls never assign it. Return the value instead",
            ],
        ),
    ]

    def _check(self, node: cst.CSTNode) -> None:
        ctx = self.ctx
        unit = ctx.unit
        if not ctx.in_traced or not (unit.global_names or unit.nonlocal_names):
            return
        for target, value in assign_pairs(node):
            if not ctx.is_traced(value) and not (isinstance(node, cst.AugAssign) and ctx.is_traced(target)):
                continue
            for name in bound_names(target):
                n = name.value
                if n in unit.global_names:
                    kind = "global"
                elif n in unit.nonlocal_names and escapes(unit, owner_of(unit, n)):
                    kind = "nonlocal"
                else:
                    continue
                self.report(
                    name,
                    f"`{n}` is {kind}: assigning it a traced value inside `{unit.name}` leaks the "
                    "tracer out of the trace; using it afterwards raises UnexpectedTracerError, and "
                    "cached calls never assign it. Return the value instead",
                )

    def visit_Assign(self, node: cst.Assign) -> None:
        self._check(node)

    visit_AugAssign = visit_AnnAssign = visit_Assign
