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
    runtime_check = '`jax.jit(f).trace(...)` on abstract inputs: confirmed when `TypeError` (item assignment on an immutable array) is raised at the flagged line.'
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
        "functional update leaves it unchanged. A module global or a closure variable updated "
        "inside a function gets no fix unless the function declares it `global`/`nonlocal`: "
        "rebinding it there would make it a new local (UnboundLocalError). Other augmented operators (`//=`, `%=`, `@=`) get no fix."
    )
    VALID = [
        # attributes: updated functionally; a NumPy buffer; an attribute some method
        # rebinds to a list
        Valid(
            """
            import jax.numpy as jnp
            import numpy as np

            class Ring:
                def __init__(self, n):
                    self.buf = jnp.zeros(n)
                    self.host = np.zeros(n)
                    self.items = jnp.zeros(n)
                    self.pos = 0

                def reset(self):
                    self.items = [0.0] * self.buf.shape[0]

                def push(self, v):
                    self.buf = self.buf.at[self.pos].set(v)
                    self.host[self.pos] = float(v)
                    self.items[self.pos] = v
                    self.pos = (self.pos + 1) % self.buf.shape[0]
            """
        ),
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
        # jnp.split (like array_split, meshgrid, broadcast_arrays) returns a Python list
        Valid(
            """
            import jax.numpy as jnp


            def unflatten(flat, sizes):
                leaves = jnp.split(flat, sizes)
                leaves[0] = leaves[0].reshape(2, 2)
                leaves[-1] = {"bias": leaves[-1]}
                return leaves
            """
        ),
        # a collective of a pytree returns that pytree: `stats` is still a dict
        Valid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp
            from jax import lax


            @partial(jax.pmap, axis_name="devices")
            def step(w, batch):
                loss = jnp.mean((batch @ w) ** 2)
                g = jax.grad(lambda w: jnp.mean((batch @ w) ** 2))(w)
                loss, stats, g = lax.pmean((loss, {"loss": loss}, g), axis_name="devices")
                stats["lr"] = 0.01
                return w - 0.01 * g, stats
            """
        ),
        # `jax.device_get` gives host values (NumPy arrays, dicts of them): mutable
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def record(log, step, metrics, rate):
                log[step] = metrics
                host = jax.device_get(log)
                host[step]["steps_per_sec"] = rate
                weights = jax.device_get(jnp.ones(3))
                weights[0] = 0.0
                return host, weights
            """
        ),
        # call sites: a NumPy array at one of the calls, a NumPy branch for NumPy arrays,
        # a helper also used as a value (its other callers are unknown), a helper that
        # returns a NumPy array, a dataclass field rebound to a list
        Valid(
            """
            import dataclasses

            import jax.numpy as jnp
            import numpy as np


            def zero_first(v):
                if isinstance(v, np.ndarray):
                    v[0] = 0.0
                    return v
                return v.at[0].set(0.0)


            def fill(buf, i):
                buf[i] = 0.0
                return buf


            def clear(rows):
                rows[0] = 0.0


            def host(n):
                return np.zeros(n)


            @dataclasses.dataclass
            class Batch:
                x: object


            zero_first(jnp.ones(3))
            fill(jnp.zeros(3), 1)
            fill(np.zeros(3), 1)
            clear(jnp.zeros(3))
            handlers = [clear]
            h = host(3)
            h[0] = 1.0
            b = Batch(x=jnp.zeros(3))
            b.x = [0.0, 1.0]
            b.x[0] = 2.0
            """
        ),
    ]

    INVALID = [
        # an array held on an attribute since __init__
        Invalid(
            """
            import jax.numpy as jnp

            class Ring:
                def __init__(self, n):
                    self.buf = jnp.zeros(n)
                    self.pos = 0

                def push(self, v):
                    self.buf[self.pos] = v
                    self.pos = (self.pos + 1) % self.buf.shape[0]
            """,
            expected=[(9, 9)],
            fixed="""
            import jax.numpy as jnp

            class Ring:
                def __init__(self, n):
                    self.buf = jnp.zeros(n)
                    self.pos = 0

                def push(self, v):
                    self.buf = self.buf.at[self.pos].set(v)
                    self.pos = (self.pos + 1) % self.buf.shape[0]
            """,
            unsafe=True,
            messages=[
                "JAX arrays are immutable: `self.buf[self.pos] = ...` raises TypeError. Use `self.buf = self.buf.at[self.pos].set(...)`",
            ],
        ),
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
        # the items of jnp.split's list are arrays, and a collective of one array is an array
        Invalid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp
            from jax import lax


            @partial(jax.pmap, axis_name="devices")
            def step(x):
                head, tail = jnp.split(x, 2)
                head[0] = 0.0
                total = lax.psum(jnp.stack([x.sum(), x.max()]), "devices")
                total[1] = 1.0
                return head, tail, total
            """,
            expected=[(11, 5), (13, 5)],
            messages=[
                "JAX arrays are immutable: `head[0] = ...` raises TypeError. Use `head = head.at[0].set(...)`",
                "JAX arrays are immutable: `total[1] = ...` raises TypeError. Use `total = total.at[1].set(...)`",
            ],
            fixed="""
            from functools import partial

            import jax
            import jax.numpy as jnp
            from jax import lax


            @partial(jax.pmap, axis_name="devices")
            def step(x):
                head, tail = jnp.split(x, 2)
                head = head.at[0].set(0.0)
                total = lax.psum(jnp.stack([x.sum(), x.max()]), "devices")
                total = total.at[1].set(1.0)
                return head, tail, total
            """,
            unsafe=True,
        ),
        # a global or a closure variable: `x = x.at[...]` inside the function would make
        # `x` a local (UnboundLocalError), so no fix (tests/test_fix.py checks it)
        Invalid(
            """
            import jax.numpy as jnp

            table = jnp.zeros(4)


            def reset_first():
                table[0] = 1.0


            def make_counter():
                counts = jnp.zeros(3)

                def bump(i):
                    counts[i] += 1

                return bump
            """,
            expected=[(7, 5), (14, 9)],
            messages=[
                "JAX arrays are immutable: `table[0] = ...` raises TypeError. Use `table = table.at[0].set(...)`",
                "JAX arrays are immutable: `counts[i] += ...` raises TypeError. Use `counts = counts.at[i].add(...)`",
            ],
        ),
        # two names for one array: the fix is unsafe (`b` keeps the old values)
        Invalid(
            """
            import jax.numpy as jnp


            def twins():
                a = b = jnp.zeros(2)
                a[0] = 1.0
                return a, b
            """,
            expected=[(6, 5)],
            messages=[
                "JAX arrays are immutable: `a[0] = ...` raises TypeError. Use `a = a.at[0].set(...)`",
            ],
            fixed="""
            import jax.numpy as jnp


            def twins():
                a = b = jnp.zeros(2)
                a = a.at[0].set(1.0)
                return a, b
            """,
            unsafe=True,
        ),
        # a one-line function body (a simple statement suite)
        Invalid(
            """
            import jax.numpy as jnp

            def f(): x = jnp.zeros(3); x[0] = 1.0; return x
            """,
            expected=[(3, 28)],
            fixed="""
            import jax.numpy as jnp

            def f(): x = jnp.zeros(3); x = x.at[0].set(1.0); return x
            """,
            messages=[
                "JAX arrays are immutable: `x[0] = ...` raises TypeError. Use `x = x.at[0].set(...)`",
            ],
        ),
        # a helper's parameter is a JAX array at every call (by position, by keyword,
        # through an alias of jax.numpy); a helper that returns one
        Invalid(
            """
            import jax.numpy as xp


            def bump(v, a, b):
                v[a:b] += 1
                return v


            def fill(buf, i):
                buf[i] = 0.0
                return buf


            def init(n):
                w = xp.zeros(n)
                return w * 2


            def main():
                bump(xp.arange(10), 2, 4)
                fill(buf=xp.ones(3), i=1)
                w = init(3)
                w[0] = 1.0
            """,
            expected=[(5, 5), (10, 5), (23, 5)],
            messages=[
                "JAX arrays are immutable: `v[a:b] += ...` raises TypeError. Use `v = v.at[a:b].add(...)`",
                "JAX arrays are immutable: `buf[i] = ...` raises TypeError. Use `buf = buf.at[i].set(...)`",
                "JAX arrays are immutable: `w[0] = ...` raises TypeError. Use `w = w.at[0].set(...)`",
            ],
        ),
        # an attribute set from jax.random in __init__; the fields of a dataclass built here
        Invalid(
            """
            import dataclasses

            import jax
            import jax.numpy as jnp


            class Layer:
                def __init__(self, key, d):
                    self.w = jax.random.normal(key, (d,))

                def reset(self):
                    self.w[0] = 0.0


            @dataclasses.dataclass
            class Params:
                w: jax.Array
                b: jax.Array


            def build(key):
                p = Params(jax.random.normal(key, (3,)), b=jnp.zeros(3))
                p.b[1] = 2.0
                p.w[0] = 1.0
                return p
            """,
            expected=[(12, 9), (23, 5), (24, 5)],
            messages=[
                "JAX arrays are immutable: `self.w[0] = ...` raises TypeError. Use `self.w = self.w.at[0].set(...)`",
                "JAX arrays are immutable: `p.b[1] = ...` raises TypeError. Use `p.b = p.b.at[1].set(...)`",
                "JAX arrays are immutable: `p.w[0] = ...` raises TypeError. Use `p.w = p.w.at[0].set(...)`",
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
        if base_val.kind != V.ARRAY and not ctx.attribute_holds_jax_array(sub.value):
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
        rebinds_local = not isinstance(sub.value, cst.Name) or ctx.rebinding_works(sub.value.value)
        if method is not None and single and dotted_name(sub.value) is not None and rebinds_local:
            new = f"{base} = {base}.at[{idx}].{method}({ctx.code(value).strip()})"
            safe = (
                base_val.local_array
                and isinstance(sub.value, cst.Name)
                and sub.value.value not in ctx.unit.global_names
                and sub.value.value not in ctx.unit.nonlocal_names
            )
            the_fix = fix(
                Applicability.SAFE if safe else Applicability.UNSAFE,
                f"Replace with `{base} = {base}.at[{idx}].{method}(...)`",
                Replacement(stmt, new),
            )
        self.report(stmt, message, the_fix)
