"""JAX101 / JAX102: in-place updates of immutable JAX arrays."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.findings import Applicability, Severity
from jaxlint.model import values as V
from jaxlint.model.walk import dotted_name
from jaxlint.engine.rule import Invalid, Replacement, Rule, Valid, fix

_AUG_METHODS = {
    cst.AddAssign: "add",
    cst.SubtractAssign: "subtract",
    cst.MultiplyAssign: "multiply",
    cst.DivideAssign: "divide",
    cst.PowerAssign: "power",
}
AT_METHODS = frozenset(
    {"set", "add", "subtract", "multiply", "mul", "divide", "power", "min", "max", "apply"}
)


def _slice_code(ctx, sub: cst.Subscript) -> str:
    return ", ".join(ctx.code(el).rstrip(", ").strip() for el in sub.slice)


class InplaceArrayUpdate(Rule):
    code = "JAX101"
    name = "inplace-array-update"
    summary = "Item assignment (`x[i] = v`, `x[i] += v`) on an immutable JAX array"
    severity = Severity.ERROR
    fix_availability = "sometimes"
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
    example = "```python\nx = jnp.zeros((3, 3))\nx[1, :] = 1.0\nx[0, 0] += 2.0\n```"
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
        Valid("import numpy as np\nx = np.zeros((3, 3))\nx[1, :] = 1.0\n"),
        Valid("import jax.numpy as jnp\nx = jnp.zeros((3, 3))\nx = x.at[1, :].set(1.0)\n"),
        Valid(
            "import jax\n\n@jax.jit\ndef f(params):\n    params['w'] = params['w'] * 2\n    return params\n"
        ),
        Valid("import jax.numpy as jnp\nout = {}\nout['a'] = jnp.ones(3)\nrows = [jnp.ones(2)]\nrows[0] = jnp.zeros(2)\n"),
        Valid("import jax.numpy as jnp\nimport numpy as np\nbuf = np.asarray(jnp.ones(3))\nbuf[0] = 2.0\n"),
        Valid("import jax.numpy as jnp\nx = jnp.zeros(3)\nx += 1\n"),
        Valid("import jax\nimport jax.numpy as jnp\n\ndef init(p):\n    return {'lr': 0.1, 'w': p}\n\nstate = jax.jit(init)(jnp.zeros(3))\nstate['lr'] = 0.01\n"),
        Valid("import jax\nfrom jax import lax\n\n@jax.jit\ndef f(operand, i):\n    starts = [lax.full((), 0, 'int32')] * operand.ndim\n    starts[0] = i\n    return lax.dynamic_slice(operand, starts, (1,) * operand.ndim)\n"),
    ]
    INVALID = [
        Invalid(
            "import jax.numpy as jnp\njax_array = jnp.zeros((3, 3), dtype=jnp.float32)\njax_array[1, :] = 1.0\n",
            expected=[(3, 1)],
            fixed="import jax.numpy as jnp\njax_array = jnp.zeros((3, 3), dtype=jnp.float32)\njax_array = jax_array.at[1, :].set(1.0)\n",
        ),
        Invalid(
            "import jax.numpy as jnp\nx = jnp.arange(5)\nx[0] += 1\nx[1] -= 2\nx[2] *= 3\n",
            expected=[(3, 1), (4, 1), (5, 1)],
            fixed="import jax.numpy as jnp\nx = jnp.arange(5)\nx = x.at[0].add(1)\nx = x.at[1].subtract(2)\nx = x.at[2].multiply(3)\n",
        ),
        Invalid(
            "import jax\n\n@jax.jit\ndef f(x):\n    y = x * 2\n    y[0] = 0.0\n    return y\n",
            expected=[(6, 5)],
            fixed="import jax\n\n@jax.jit\ndef f(x):\n    y = x * 2\n    y = y.at[0].set(0.0)\n    return y\n",
            unsafe=True,
        ),
        Invalid(
            "from jax import numpy as np\na = np.ones(4)\nb = a\nb[0] = 5\n",
            expected=[(4, 1)],
            fixed="from jax import numpy as np\na = np.ones(4)\nb = a\nb = b.at[0].set(5)\n",
            unsafe=True,
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


class DiscardedAtUpdate(Rule):
    code = "JAX102"
    name = "discarded-at-update"
    summary = "The result of `x.at[i].set(v)` is thrown away, so the update does nothing"
    severity = Severity.ERROR
    fix_availability = "sometimes"
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
    example = "```python\nx = jnp.zeros(3)\nx.at[0].set(5.0)   # x is still [0., 0., 0.]\n```"
    use_instead = "```python\nx = jnp.zeros(3)\nx = x.at[0].set(5.0)\n```"
    fix_safety = (
        "The fix assigns the result back (`x = x.at[0].set(5.0)`). It is **unsafe**: it "
        "changes what the program computes (the update now happens), which is almost "
        "certainly what was meant but must be reviewed."
    )
    VALID = [
        Valid("import jax.numpy as jnp\nx = jnp.zeros(3)\nx = x.at[0].set(5.0)\n"),
        Valid("import jax.numpy as jnp\nx = jnp.zeros(3)\nprint(x.at[0].get())\n"),
        Valid("import pandas as pd\nimport jax\ndf = pd.DataFrame({'a': [1]})\ndf.at[0, 'a'] = 2\n"),
        Valid("import jax.numpy as jnp\ndef f(x):\n    return x.at[0].set(1.0)\n"),
    ]
    INVALID = [
        Invalid(
            "import jax.numpy as jnp\nx = jnp.zeros(3)\nx.at[0].set(5.0)\n",
            expected=[(3, 1)],
            fixed="import jax.numpy as jnp\nx = jnp.zeros(3)\nx = x.at[0].set(5.0)\n",
            unsafe=True,
        ),
        Invalid(
            "import jax\n\n@jax.jit\ndef f(state, i):\n    state.grid.at[i].add(1)\n    return state\n",
            expected=[(5, 5)],
            fixed="import jax\n\n@jax.jit\ndef f(state, i):\n    state.grid = state.grid.at[i].add(1)\n    return state\n",
            unsafe=True,
        ),
    ]

    def visit_Expr(self, node: cst.Expr) -> None:
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
