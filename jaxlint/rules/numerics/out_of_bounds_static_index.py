"""JAX121 out-of-bounds-static-index: A literal index outside an array of known shape: JAX clamps reads, drops `.at[]` updates, `take` fills NaN."""

from __future__ import annotations

import math

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid, assignment_targets
from jaxlint.findings import Severity
from jaxlint.model import values as V
from jaxlint.model.walk import arg_at, int_value, keyword_arg


_AT_DROP = frozenset({"set", "add", "subtract", "multiply", "mul", "divide", "power", "min", "max", "apply"})


class StaticOutOfBoundsIndex(Rule):
    code = "JAX121"
    name = "out-of-bounds-static-index"
    runtime_check = '`checkify(errors=index_checks)`: confirmed when it reports an out-of-bounds index at the flagged line.'
    summary = "A literal index outside an array of known shape: JAX clamps reads, drops `.at[]` updates, `take` fills NaN"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Out-of-Bounds Indexing (seed 000)"
    what_it_does = (
        "Flags integer-literal indices (negative too), and names bound once to an integer literal "
        "(`NUM_CLASSES = 10` at module level, a local `n = 3`), that are out of bounds for an array whose "
        "shape is known from a literal constructor in the same scope (`jnp.arange(10)`, "
        "`jnp.zeros((3, 4))`, `jnp.arange(NUM_CLASSES)`, `jnp.ones(5)`, `jnp.array([...])`, `jnp.eye(3)`, `jnp.linspace(0, "
        "1, 5)`, a `jax.random` sampler given a literal shape: `random.normal(key, (10, 10))`): `x[11]`, `x[0, 7]`, `x.at[11].set(v)`, `x.at[11].get()` and `jnp.take(x, "
        "11)`. Arrays of unknown shape (arguments, results of other calls) are never checked."
    )
    why_bad = (
        "JAX does not raise `IndexError` for out-of-bounds indices, eagerly or under `jit`, "
        "because accelerators cannot raise from inside a computation:\n\n"
        "* reads clamp: `jnp.arange(10)[11]` is `Array(9)` and `[-11]` is `Array(0)`;\n"
        "* `.at[11].set(99)` (and `.add`, ...) silently drops the update;\n"
        "* `jnp.take(jnp.arange(10), 11)` returns `-2147483648` (INT_MIN) and "
        "`jnp.take(jnp.arange(10.), 11)` returns `nan`: `take` defaults to `mode='fill'`.\n\n"
        "The program runs on with a wrong value."
    )
    use_instead = "```python\nx = jnp.arange(10)\nlast = x[9]  # or x[-1]\nx = x.at[9].set(0)\n```\n\nTo check indices that are only known at run time, use `jax.experimental.checkify` with `errors=checkify.index_checks`."
    fix_safety = "No automatic fix: the intended index is unknown."
    VALID = [
        # in bounds, or a sampler whose shape is not a literal
        Valid(
            """
            import jax

            def f(key, shape):
                a = jax.random.normal(key, (10, 10))
                b = jax.random.uniform(key, shape)
                return a[9, :], a[-10], b[10]
            """
        ),
        # constants in bounds; names that are not constants (bound twice, a loop
        # variable, rebound through `global`) are never checked
        Valid(
            """
            import jax.numpy as jnp

            NUM_CLASSES = 10
            LIMIT = 40

            def shrink():
                global LIMIT
                LIMIT = 4

            def f(k):
                logits = jnp.arange(NUM_CLASSES)
                small = jnp.zeros(3)
                n = 3
                n = 2
                last = logits[NUM_CLASSES - 1] + small[n] + logits[LIMIT * 0 + 9]
                for i in range(12):
                    last = last + logits[i]
                return last + logits[LIMIT] + logits[k]
            """
        ),
        Valid(
            """
            import jax.numpy as jnp

            x = jnp.arange(10)
            a = x[9] + x[-10] + x[2:20]
            y = x.at[9].set(0)
            z = jnp.take(x, 3)
            """
        ),
        Valid(
            """
            import jax.numpy as jnp

            m = jnp.zeros((3, 4))
            v = m[2, 3] + m[..., 5 - 2] + m[:, 0]
            """
        ),
        # shape unknown: an argument
        Valid(
            """
            import jax.numpy as jnp

            def f(x):
                return x[11]
            """
        ),
        # rebinding to something of unknown shape
        Valid(
            """
            import jax.numpy as jnp

            x = jnp.arange(3)
            x = jnp.concatenate([x, x, x, x])
            y = x[11]
            """
        ),
    ]

    INVALID = [
        # the shape given to a jax.random sampler
        Invalid(
            """
            import jax.random as random

            a = random.normal(random.PRNGKey(2020), (10, 10))
            row = a[10, :]
            labels = random.randint(random.PRNGKey(0), (8,), 0, 5)
            last = labels[8]
            """,
            expected=[(4, 9), (6, 15)],
            messages=[
                "index 10 is out of bounds for axis 0 with size 10, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
                "index 8 is out of bounds for axis 0 with size 8, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
            ],
        ),
        Invalid(
            """
            import jax.numpy as jnp

            NUM_CLASSES = 10

            def background_logit():
                logits = jnp.arange(NUM_CLASSES, dtype=jnp.float32)
                flags = jnp.zeros((3, 4))
                n = 3
                return logits[NUM_CLASSES], flags.at[n].set(1.0)
            """,
            expected=[(9, 19), (9, 42)],
            messages=[
                "index 10 is out of bounds for axis 0 with size 10, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
                "index 3 is out of bounds for axis 0 with size 3, and JAX raises no IndexError: `.at[...].set(...)` silently drops the update",
            ],
        ),
        Invalid(
            """
            import jax.numpy as jnp

            x = jnp.arange(10)
            print(x[11], x[-11])
            """,
            expected=[(4, 9), (4, 16)],
            messages=[
                "index 11 is out of bounds for axis 0 with size 10, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
                "index -11 is out of bounds for axis 0 with size 10, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(v):
                buf = jnp.zeros((4, 3))
                buf = buf.at[1, 3].set(v)
                return jnp.take(jnp.arange(10.0), 10) + buf
            """,
            expected=[(7, 21), (8, 39)],
            messages=[
                "index 3 is out of bounds for axis 1 with size 3, and JAX raises no IndexError: `.at[...].set(...)` silently drops the update",
                "index 10 is out of bounds for axis 0 with size 10, and JAX raises no IndexError: `jnp.take` defaults to mode='fill' and returns NaN for floats, INT_MIN (-2147483648) for int32",
            ],
        ),
        Invalid(
            """
            import jax.numpy as jnp

            w = jnp.array([[1, 2], [3, 4]])
            print(w[2][0])
            """,
            expected=[(4, 9)],
            messages=[
                "index 2 is out of bounds for axis 0 with size 2, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
            ],
        ),
        # the shape of a jax.random sample (positional or `shape=`), through an alias
        Invalid(
            """
            import jax.random as jr

            a = jr.normal(jr.PRNGKey(0), (10, 10))
            b = jr.uniform(jr.PRNGKey(1), shape=(4,))
            row = a[10, :]
            last = b[4]
            ok = a[9, :] + b[3]
            """,
            expected=[(5, 9), (6, 10)],
            messages=[
                "index 10 is out of bounds for axis 0 with size 10, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
                "index 4 is out of bounds for axis 0 with size 4, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._skip: set[int] = set()

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in assignment_targets(node):
            self._skip.add(id(t))

    visit_AugAssign = visit_Assign

    def _shape(self, arr: cst.CSTNode):
        v = self.ctx.value(arr)
        if v.kind != V.ARRAY or v.shape is None:
            return None
        return v.shape

    def _check(self, sub: cst.Subscript, shape, what: str) -> None:
        dim = 0
        for el in sub.slice:
            if dim >= len(shape):
                return
            s = el.slice
            if isinstance(s, cst.Slice):
                dim += 1
                continue
            if not isinstance(s, cst.Index):
                return
            i = self.ctx.constant_int(s.value)
            if i is None:
                return
            size = shape[dim]
            if i >= size or i < -size:
                self._report_index(s.value, i, dim, size, what)
                return
            dim += 1

    def _report_index(self, node, i: int, axis: int, size: int, what: str) -> None:
        self.report(
            node,
            f"index {i} is out of bounds for axis {axis} with size {size}, and JAX raises no "
            f"IndexError: {what}",
        )

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if id(node) in self._skip:
            return
        base = node.value
        if isinstance(base, cst.Attribute) and base.attr.value == "at":
            return  # handled with the method call
        shape = self._shape(base)
        if shape is None:
            return
        self._check(node, shape, "the read is clamped to the nearest valid index (silently the wrong element)")

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        func = node.func
        if (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Subscript)
            and isinstance(func.value.value, cst.Attribute)
            and func.value.value.attr.value == "at"
        ):
            shape = self._shape(func.value.value.value)
            if shape is None:
                return
            op = func.attr.value
            if op in _AT_DROP:
                if keyword_arg(node, "mode") is not None:
                    return
                self._check(func.value, shape, f"`.at[...].{op}(...)` silently drops the update")
            elif op == "get" and keyword_arg(node, "mode") is None:
                self._check(func.value, shape, "`.at[...].get()` clamps to the nearest valid index")
            return
        if ctx.qualname(func) != "jax.numpy.take":
            return
        arr = arg_at(node, 0, "a")
        idx = arg_at(node, 1, "indices")
        if arr is None or idx is None or keyword_arg(node, "mode") is not None:
            return
        shape = self._shape(arr)
        i = ctx.constant_int(idx)
        if shape is None or i is None:
            return
        axis_node = arg_at(node, 2, "axis")
        if axis_node is None or (isinstance(axis_node, cst.Name) and axis_node.value == "None"):
            size, axis = math.prod(shape), 0
        else:
            axis = int_value(axis_node)
            if axis is None or not -len(shape) <= axis < len(shape):
                return
            size = shape[axis]
        if i >= size or i < -size:
            self._report_index(
                idx, i, axis, size,
                "`jnp.take` defaults to mode='fill' and returns NaN for floats, INT_MIN "
                "(-2147483648) for int32",
            )
