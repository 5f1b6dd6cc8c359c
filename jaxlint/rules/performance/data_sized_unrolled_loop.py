"""JAX503 data-sized-unrolled-loop: A Python loop over `range(x.shape[i])`/`range(len(x))` inside traced code: unrolled once per element."""

from __future__ import annotations

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import values as V
from jaxlint.rules.performance._common import TracedLoopMixin


class DataSizedUnrolledLoop(TracedLoopMixin, Rule):
    code = "JAX503"
    name = "data-sized-unrolled-loop"
    runtime_check = "jaxpr equation counts, at the loop's size and at half of it, show the growth."
    summary = "A Python loop over `range(x.shape[i])`/`range(len(x))` inside traced code: unrolled once per element"
    severity = Severity.WARNING
    default_enabled = False
    seed = "The Sharp Bits § Control Flow (seed 000): `range(x.shape[0])` works under jit, unrolled"
    what_it_does = (
        "Opt-in. Inside traced code, flags `for i in range(x.shape[k])` / `range(len(x))` "
        "(and comprehensions over them): loops whose trip count is a data dimension."
    )
    why_bad = (
        "Shapes are static under `jit`, so this works, but the loop is unrolled once per element "
        "of that dimension: with realistic sizes the trace and compile time grow with the data "
        "(see JAX502: 1000 iterations, 3000 equations, 3.8 s to compile). Every new input size "
        "also recompiles with a different number of copies. Off by default because loops over "
        "small dimensions (layers, a handful of heads) are common and cheap."
    )
    use_instead = "Vectorise (`x * 2`), `jax.vmap` the body, or use `lax.fori_loop(0, x.shape[0], body, x)`."
    fix_safety = "No automatic fix."
    VALID = [
        Valid(
            """
            import jax

            @jax.jit
            def f(x):
                for i in range(3):
                    x = x * 2
                return x
            """
        ),
        Valid(
            """
            import jax.numpy as jnp

            def f(x):
                for i in range(x.shape[0]):
                    x = x.at[i].set(0.)
                return x
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            import jax

            @jax.jit
            def f(x):
                for i in range(x.shape[0]):
                    x = x.at[i].set(x[i] * 2)
                return x
            """,
            expected=[(5, 14)],
            messages=[
                "this Python loop runs once per element of `x.shape[0]` while JAX traces `f`: it is unrolled, and compile time grows with the data size. Vectorise, `jax.vmap` the body or use `lax.fori_loop`",
            ],
        ),
        Invalid(
            """
            import jax

            @jax.jit
            def f(xs):
                return [xs[i] * 2 for i in range(len(xs))]
            """,
            expected=[(5, 32)],
            messages=[
                "this Python loop runs once per element of `len(xs)` while JAX traces `f`: it is unrolled, and compile time grows with the data size. Vectorise, `jax.vmap` the body or use `lax.fori_loop`",
            ],
        ),
    ]

    def check_range(self, it, bounds) -> None:
        for b in bounds:
            if self._data_sized(b):
                self.report(
                    it,
                    f"this Python loop runs once per element of `{self.ctx.code(b).strip()}` while JAX "
                    f"traces `{self.ctx.unit.name}`: it is unrolled, and compile time grows with the "
                    f"data size. Vectorise, `jax.vmap` the body or use `lax.fori_loop`",
                )
                return

    def _data_sized(self, b: cst.BaseExpression) -> bool:
        ctx = self.ctx
        if isinstance(b, cst.Subscript) and isinstance(b.value, cst.Attribute) and b.value.attr.value == "shape":
            v = ctx.value(b.value.value)
            return v.traced or v.kind == V.ARRAY
        if isinstance(b, cst.Call) and ctx.builtin_name(b.func) == "len" and b.args:
            v = ctx.value(b.args[0].value)
            return v.traced and v.kind == V.ARRAY or (v.traced and v.kind == V.UNKNOWN and isinstance(b.args[0].value, cst.Name) and b.args[0].value.value in ctx.unit.traced_params)
        return False
