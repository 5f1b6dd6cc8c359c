"""JAX101 inplace-array-update: Item assignment (`x[i] = v`, `x[i] += v`) on an immutable JAX array."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Replacement, Rule, Valid, fix
from jaxlint.findings import Applicability, Severity
from jaxlint.model import values as V
from jaxlint.model.walk import dotted_name


_AUG_METHODS = {
    cst.AddAssign: "add",
    cst.SubtractAssign: "subtract",
    cst.MultiplyAssign: "multiply",
    cst.DivideAssign: "divide",
    cst.PowerAssign: "power",
}


def _slice_code(ctx, sub: cst.Subscript) -> str:
    return ", ".join(ctx.code(el).rstrip(", ").strip() for el in sub.slice)


class InplaceArrayUpdate(Rule):
    code = "JAX101"
    name = "inplace-array-update"
    summary = "Item assignment (`x[i] = v`, `x[i] += v`) on an immutable JAX array"
    severity = Severity.ERROR
    seed = "The Sharp Bits § In-Place Updates (seed 000); tutorial § index_update (seed 002)"
    what_it_does = (
        "Flags `x[idx] = v` and augmented forms (`x[idx] += v`, `-=`, `*=`, `/=`, `**=`) where "
        "`x` is known to be a JAX array: the result of a `jax.numpy`, `jax.lax` or "
        "`jax.random` call, or arithmetic on a traced argument. NumPy arrays, lists, dicts "
        "and pytree arguments of unknown type are left alone."
    )
    why_bad = (
        "JAX arrays are immutable. The assignment raises, eagerly and under `jit` alike:\n\n"
        "```\nTypeError: JAX arrays are immutable and do not support in-place item assignment. "
        "Instead of x[idx] = y, use x = x.at[idx].set(y) or another .at[] method\n```\n\n"
        "Code ported from NumPy hits this on its first run."
    )
    use_instead = (
        "```python\nx = jnp.zeros((3, 3))\nx = x.at[1, :].set(1.0)\nx = x.at[0, 0].add(2.0)\n```\n\n"
        "Inside `jit`, when `x` is not used afterwards, XLA performs the `.at[]` update in place."
    )
    fix_safety = (
        "The fix rewrites `x[i] = v` to `x = x.at[i].set(v)` (`+=` to `.add`, `-=` to "
        "`.subtract`, `*=` to `.multiply`, `/=` to `.divide`, `**=` to `.power`). The original "
        "line always raises, so no working behaviour can change; the fix is **safe** when `x` "
        "was created in the same function by a `jax.numpy` call and no other name refers to "
        "it. It is **unsafe** otherwise: NumPy-style code that updates an array seen through "
        "another name (an argument, an alias) expected that other name to change too, and the "
        "functional update leaves it unchanged. Other augmented operators (`//=`, `%=`, `@=`) "
        "get no fix."
    )
    VALID = [
        Valid(
            """
            import numpy as np
            x = np.zeros((3, 3))
            x[1, :] = 1.0
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            x = jnp.zeros((3, 3))
            x = x.at[1, :].set(1.0)
            """
        ),
        Valid(
            """
            import jax

            @jax.jit
            def f(params):
                params['w'] = params['w'] * 2
                return params
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            out = {}
            out['a'] = jnp.ones(3)
            rows = [jnp.ones(2)]
            rows[0] = jnp.zeros(2)
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            import numpy as np
            buf = np.asarray(jnp.ones(3))
            buf[0] = 2.0
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            x = jnp.zeros(3)
            x += 1
            """
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp

            def init(p):
                return {'lr': 0.1, 'w': p}

            state = jax.jit(init)(jnp.zeros(3))
            state['lr'] = 0.01
            """
        ),
        Valid(
            """
            import jax
            from jax import lax

            @jax.jit
            def f(operand, i):
                starts = [lax.full((), 0, 'int32')] * operand.ndim
                starts[0] = i
                return lax.dynamic_slice(operand, starts, (1,) * operand.ndim)
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            import jax.numpy as jnp
            jax_array = jnp.zeros((3, 3), dtype=jnp.float32)
            jax_array[1, :] = 1.0
            """,
            expected=[(3, 1)],
            messages=[
                "JAX arrays are immutable: `jax_array[1, :] = ...` raises TypeError. Use `jax_array = jax_array.at[1, :].set(...)`",
            ],
            fixed="""
            import jax.numpy as jnp
            jax_array = jnp.zeros((3, 3), dtype=jnp.float32)
            jax_array = jax_array.at[1, :].set(1.0)
            """,
        ),
        Invalid(
            """
            import jax.numpy as jnp
            x = jnp.arange(5)
            x[0] += 1
            x[1] -= 2
            x[2] *= 3
            """,
            expected=[(3, 1), (4, 1), (5, 1)],
            messages=[
                "JAX arrays are immutable: `x[0] += ...` raises TypeError. Use `x = x.at[0].add(...)`",
                "JAX arrays are immutable: `x[1] -= ...` raises TypeError. Use `x = x.at[1].subtract(...)`",
                "JAX arrays are immutable: `x[2] *= ...` raises TypeError. Use `x = x.at[2].multiply(...)`",
            ],
            fixed="""
            import jax.numpy as jnp
            x = jnp.arange(5)
            x = x.at[0].add(1)
            x = x.at[1].subtract(2)
            x = x.at[2].multiply(3)
            """,
        ),
        Invalid(
            """
            import jax

            @jax.jit
            def f(x):
                y = x * 2
                y[0] = 0.0
                return y
            """,
            expected=[(6, 5)],
            messages=[
                "JAX arrays are immutable: `y[0] = ...` raises TypeError. Use `y = y.at[0].set(...)`",
            ],
            fixed="""
            import jax

            @jax.jit
            def f(x):
                y = x * 2
                y = y.at[0].set(0.0)
                return y
            """,
            unsafe=True,
        ),
        Invalid(
            """
            from jax import numpy as np
            a = np.ones(4)
            b = a
            b[0] = 5
            """,
            expected=[(4, 1)],
            messages=[
                "JAX arrays are immutable: `b[0] = ...` raises TypeError. Use `b = b.at[0].set(...)`",
            ],
            fixed="""
            from jax import numpy as np
            a = np.ones(4)
            b = a
            b = b.at[0].set(5)
            """,
            unsafe=True,
        ),
        # `//=`, `%=` and `@=` have no `.at[]` method: reported without a fix
        Invalid(
            """
            import jax.numpy as jnp
            x = jnp.arange(6)
            x[0] //= 2
            """,
            expected=[(3, 1)],
            messages=[
                "JAX arrays are immutable: `x[0] //= ...` raises TypeError. Use `x = x.at[0].set(...)`",
            ],
        ),
    ]

    def visit_Assign(self, node: cst.Assign) -> None:
        for tgt in node.targets:
            if isinstance(tgt.target, cst.Subscript):
                self._check(node, tgt.target, None, node.value, single=len(node.targets) == 1)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Subscript):
            self._check(node, node.target, node.operator, node.value, single=True)

    def _check(self, stmt, sub: cst.Subscript, op, value, single: bool) -> None:
        ctx = self.ctx
        base_val = ctx.value(sub.value)
        if base_val.kind != V.ARRAY:
            return
        base = ctx.code(sub.value)
        idx = _slice_code(ctx, sub)
        method: Optional[str] = "set" if op is None else _AUG_METHODS.get(type(op))
        shown = "set" if method is None else method
        message = (
            f"JAX arrays are immutable: `{base}[{idx}] {'=' if op is None else ctx.code(op).strip()} ...` "
            f"raises TypeError. Use `{base} = {base}.at[{idx}].{shown}(...)`"
        )
        the_fix = None
        if method is not None and single and dotted_name(sub.value) is not None:
            new = f"{base} = {base}.at[{idx}].{method}({ctx.code(value).strip()})"
            safe = base_val.local_array and isinstance(sub.value, cst.Name)
            the_fix = fix(
                Applicability.SAFE if safe else Applicability.UNSAFE,
                f"Replace with `{base} = {base}.at[{idx}].{method}(...)`",
                Replacement(stmt, new),
            )
        self.report(stmt, message, the_fix)
