"""JAX102 discarded-at-update: The result of `x.at[i].set(v)` is thrown away, so the update does nothing."""

from __future__ import annotations

import libcst as cst

from jaxlint.engine.rule import Invalid, Replacement, Rule, Valid, fix
from jaxlint.findings import Applicability, Severity
from jaxlint.model import values as V
from jaxlint.model.walk import dotted_name


AT_METHODS = frozenset(
    {"set", "add", "subtract", "multiply", "mul", "divide", "power", "min", "max", "apply"}
)


class DiscardedAtUpdate(Rule):
    code = "JAX102"
    name = "discarded-at-update"
    runtime_check = '`jax.make_jaxpr`: confirmed when the `scatter` built at the flagged line is dead code (nothing uses its result).'
    summary = "The result of `x.at[i].set(v)` is thrown away, so the update does nothing"
    severity = Severity.ERROR
    seed = "The Sharp Bits § In-Place Updates: `.at` updates are out-of-place (seed 000)"
    what_it_does = (
        "Flags an expression statement `x.at[idx].set(v)` (or `.add`, `.subtract`, `.multiply`, "
        "`.divide`, `.power`, `.min`, `.max`, `.apply`) whose result is not used."
    )
    why_bad = (
        "`.at[]` updates are functional: they return a new array and leave `x` unchanged. "
        "Written as a statement, the update is computed and dropped, silently: no error, no "
        "warning, and `x` keeps its old values (verified on JAX 0.10.2 and 0.12)."
    )
    use_instead = "```python\nx = jnp.zeros(3)\nx = x.at[0].set(5.0)\n```"
    fix_safety = (
        "The fix assigns the result back (`x = x.at[0].set(5.0)`). It is **unsafe**: it "
        "changes what the program computes (the update now happens), which is almost "
        "certainly what was meant but must be reviewed."
    )
    VALID = [
        Valid(
            """
            import jax.numpy as jnp
            x = jnp.zeros(3)
            x = x.at[0].set(5.0)
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            x = jnp.zeros(3)
            print(x.at[0].get())
            """
        ),
        Valid(
            """
            import pandas as pd
            import jax
            df = pd.DataFrame({'a': [1]})
            df.at[0, 'a'] = 2
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            def f(x):
                return x.at[0].set(1.0)
            """
        ),
        # run for the exception it must raise
        Valid(
            """
            import jax.numpy as jnp
            import pytest


            def test_rejects_wrong_row_shape():
                grid = jnp.zeros((2, 3))
                with pytest.raises(ValueError):
                    grid.at[0].set(jnp.ones(4))
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            import jax.numpy as jnp
            x = jnp.zeros(3)
            x.at[0].set(5.0)
            """,
            expected=[(3, 1)],
            messages=[
                "`x.at[...].set(...)` returns a new array and leaves `x` unchanged; the result is discarded, so this line does nothing. Assign it: `x = x.at[...].set(...)`",
            ],
            fixed="""
            import jax.numpy as jnp
            x = jnp.zeros(3)
            x = x.at[0].set(5.0)
            """,
            unsafe=True,
        ),
        Invalid(
            """
            import jax

            @jax.jit
            def f(state, i):
                state.grid.at[i].add(1)
                return state
            """,
            expected=[(5, 5)],
            messages=[
                "`state.grid.at[...].add(...)` returns a new array and leaves `state.grid` unchanged; the result is discarded, so this line does nothing. Assign it: `state.grid = state.grid.at[...].add(...)`",
            ],
            fixed="""
            import jax

            @jax.jit
            def f(state, i):
                state.grid = state.grid.at[i].add(1)
                return state
            """,
            unsafe=True,
        ),
        # a subscripted base (a dict entry, a list item): reported without a fix
        Invalid(
            """
            import jax.numpy as jnp
            state = {"grid": jnp.zeros(3)}
            state["grid"].at[0].set(5.0)
            """,
            expected=[(3, 1)],
            messages=[
                '`state["grid"].at[...].set(...)` returns a new array and leaves `state["grid"]` unchanged; the result is discarded, so this line does nothing. Assign it: `state["grid"] = state["grid"].at[...].set(...)`',
            ],
        ),
        # after the `with pytest.raises` block, the discarded update is a bug again
        Invalid(
            """
            import jax.numpy as jnp
            import pytest


            def test_row_update():
                grid = jnp.zeros((2, 3))
                with pytest.raises(ValueError):
                    grid.at[0].set(jnp.ones(4))
                grid.at[0].set(jnp.ones(3))
                assert grid[0].sum() == 3
            """,
            expected=[(9, 5)],
            messages=[
                "`grid.at[...].set(...)` returns a new array and leaves `grid` unchanged; the result is discarded, so this line does nothing. Assign it: `grid = grid.at[...].set(...)`",
            ],
            fixed="""
            import jax.numpy as jnp
            import pytest


            def test_row_update():
                grid = jnp.zeros((2, 3))
                with pytest.raises(ValueError):
                    grid.at[0].set(jnp.ones(4))
                grid = grid.at[0].set(jnp.ones(3))
                assert grid[0].sum() == 3
            """,
            unsafe=True,
        ),
    ]

    def visit_Expr(self, node: cst.Expr) -> None:
        if self.ctx.expects_exception:
            return  # run for the exception it raises: its result has no use
        call = node.value
        if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Attribute):
            return
        if call.func.attr.value not in AT_METHODS:
            return
        sub = call.func.value
        if not isinstance(sub, cst.Subscript) or not isinstance(sub.value, cst.Attribute):
            return
        at = sub.value
        if at.attr.value != "at":
            return
        base_val = self.ctx.value(at.value)
        if base_val.kind in (V.NPARRAY, V.LIST, V.STATIC, V.MODULE):
            return
        base = self.ctx.code(at.value)
        method = call.func.attr.value
        message = (
            f"`{base}.at[...].{method}(...)` returns a new array and leaves `{base}` unchanged; "
            f"the result is discarded, so this line does nothing. Assign it: `{base} = {base}.at[...].{method}(...)`"
        )
        the_fix = None
        if dotted_name(at.value) is not None:
            the_fix = fix(
                Applicability.UNSAFE,
                f"Assign the result back to `{base}`",
                Replacement(node, f"{base} = {self.ctx.code(call).strip()}"),
            )
        self.report(node, message, the_fix)
