"""JAX206 dynamic-shape-without-size: `jnp.nonzero`/`unique`/one-argument `where`/`bincount`... without `size=` in traced code."""

from __future__ import annotations

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import values as V
from jaxlint.model.walk import arg_at, keyword_arg, positional_args


# qualname -> (keyword that bounds the size, position/keyword of the argument that must be
# traced for the call to fail)
_SIZED: dict[str, tuple[str, tuple[tuple[int, str], ...]]] = {
    "jax.numpy.nonzero": ("size", ((0, "a"),)),
    "jax.numpy.flatnonzero": ("size", ((0, "a"),)),
    "jax.numpy.argwhere": ("size", ((0, "a"),)),
    "jax.numpy.where": ("size", ((0, "condition"),)),
    "jax.numpy.unique": ("size", ((0, "ar"),)),
    "jax.numpy.unique_values": ("size", ((0, "x"),)),
    "jax.numpy.unique_counts": ("size", ((0, "x"),)),
    "jax.numpy.unique_inverse": ("size", ((0, "x"),)),
    "jax.numpy.unique_all": ("size", ((0, "x"),)),
    "jax.numpy.bincount": ("length", ((0, "x"),)),
    "jax.numpy.repeat": ("total_repeat_length", ((1, "repeats"),)),
    "jax.numpy.setdiff1d": ("size", ((0, "ar1"), (1, "ar2"))),
    "jax.numpy.union1d": ("size", ((0, "ar1"), (1, "ar2"))),
    "jax.numpy.intersect1d": ("size", ((0, "ar1"), (1, "ar2"))),
    "jax.numpy.setxor1d": ("size", ((0, "ar1"), (1, "ar2"))),
    "jax.numpy.compress": ("size", ((0, "condition"),)),
    "jax.numpy.extract": ("size", ((0, "condition"),)),
}


class SizeDependentFunction(Rule):
    code = "JAX206"
    name = "dynamic-shape-without-size"
    runtime_check = '`jax.jit(f).trace(...)`: confirmed when the size-dependent function raises `ConcretizationTypeError` at the flagged line.'
    summary = "`jnp.nonzero`/`unique`/one-argument `where`/`bincount`... without `size=` in traced code"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Dynamic Shapes (seed 000); study notes § static shapes (seed 003)"
    what_it_does = (
        "Inside traced code, flags `jax.numpy` functions whose output length depends on the "
        "values of a traced input unless a static size is given: `jnp.nonzero`, "
        "`x.nonzero()`, one-argument `jnp.where(cond)`, `jnp.argwhere`, `jnp.flatnonzero`, "
        "`jnp.unique` (and `unique_values/counts/inverse/all`), `jnp.setdiff1d`, "
        "`jnp.union1d`, `jnp.intersect1d`, `jnp.setxor1d`, `jnp.compress`, `jnp.extract` "
        "without `size=`; `jnp.bincount` without `length=`; `jnp.repeat` with traced "
        "`repeats` and no `total_repeat_length=`. Calls outside traced code, with the size "
        "given, or on concrete (NumPy/static) inputs are not flagged."
    )
    why_bad = (
        "Array shapes must be known when the function is traced. These functions need the "
        "values to know their output size, so JAX raises:\n\n"
        "```\njax.errors.ConcretizationTypeError: Abstract tracer value encountered where "
        "concrete value is expected: traced array with shape int32[]\nThe size argument of "
        "jnp.nonzero must be statically specified to use jnp.nonzero within JAX "
        "transformations.\n```\n\n"
        "(`jnp.compress`/`jnp.extract` raise `TracerBoolConversionError` on JAX 0.10 and "
        "`ConcretizationTypeError` on 0.12.)"
    )
    use_instead = (
        "```python\n@jax.jit\ndef positives(x):\n    (idx,) = jnp.nonzero(x > 0, size=x.shape[0], fill_value=0)\n"
        "    return x[idx], jnp.unique(x, size=x.shape[0]), jnp.bincount(idx, length=x.shape[0])\n```\n\n"
        "or keep the full shape with the three-argument `jnp.where(cond, x, fill)`."
    )
    fix_safety = "No automatic fix: the size bound and the fill value are the author's choice."
    VALID = [
        Valid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                (idx,) = jnp.nonzero(x > 0, size=3, fill_value=0)
                u = jnp.unique(x, size=x.shape[0])
                return idx, u, jnp.bincount(idx, length=4), jnp.where(x > 0, x, 0.0)
            """
        ),
        # outside traced code the sizes are concrete
        Valid(
            """
            import jax.numpy as jnp

            def positives(x):
                return x[jnp.nonzero(x > 0)], jnp.unique(x)
            """
        ),
        # repeat with a static count
        Valid(
            """
            from functools import partial
            import jax
            import jax.numpy as jnp

            @partial(jax.jit, static_argnums=(1,))
            def upsample(x, k):
                return jnp.repeat(x, k, axis=0) + jnp.repeat(x, 2, axis=0)
            """
        ),
        # NumPy on concrete data inside jit
        Valid(
            """
            import jax
            import numpy as np
            import jax.numpy as jnp

            LABELS = np.array([0, 2, 2, 1])

            @jax.jit
            def f(x):
                n = len(np.unique(LABELS))
                return x * n
            """
        ),
        # computed at trace time from constants: `jax.ensure_compile_time_eval`
        Valid(
            """
            import itertools
            import jax
            import jax.numpy as jnp
            import numpy as np

            @jax.jit
            def all_states(x):
                with jax.ensure_compile_time_eval():
                    c = jnp.repeat(jnp.eye(4), 2, axis=0)
                    combs = jnp.array(list(itertools.combinations(np.arange(len(c)), 2)))
                    states = jnp.unique(c[combs].sum(axis=1), axis=0)
                return x + states.sum()
            """
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from jax import ensure_compile_time_eval as eager

            @jax.jit
            def every_third(x):
                with eager():
                    idx = jnp.argwhere(jnp.arange(10) % 3 == 0)
                return x[idx]
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def positives(x):
                (idx,) = jnp.nonzero(x > 0)
                return x[idx], jnp.unique(x), jnp.bincount(idx)
            """,
            expected=[(6, 14), (7, 20), (7, 35)],
            messages=[
                "`jnp.nonzero` without `size=` on a traced value (it depends on the traced argument `x` of `positives` (decorated with @jax.jit)): its output shape depends on the values, so tracing raises ConcretizationTypeError. Pass a static `size=` (an upper bound), or use the three-argument `jnp.where(cond, x, fill)`",
                "`jnp.unique` without `size=` on a traced value (it depends on the traced argument `x` of `positives` (decorated with @jax.jit)): its output shape depends on the values, so tracing raises ConcretizationTypeError. Pass a static `size=` (an upper bound), or compute it outside the traced function",
                "`jnp.bincount` without `length=` on a traced value (it depends on the traced argument `x` of `positives` (decorated with @jax.jit)): its output shape depends on the values, so tracing raises ConcretizationTypeError. Pass a static `length=` (an upper bound), or compute it outside the traced function",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            from jax import lax

            def body(i, x):
                hits = jnp.where(x > i)
                return x + jnp.argwhere(x).sum() + hits[0].sum() + x.nonzero()[0].sum()

            out = lax.fori_loop(0, 3, body, jnp.zeros(4))
            """,
            expected=[(6, 12), (7, 16), (7, 56)],
            messages=[
                "one-argument `jnp.where` without `size=` on a traced value (it depends on the traced arguments `i`, `x` of `body` (a body passed to lax.fori_loop)): its output shape depends on the values, so tracing raises ConcretizationTypeError. Pass a static `size=` (an upper bound), or use the three-argument `jnp.where(cond, x, fill)`",
                "`jnp.argwhere` without `size=` on a traced value (it depends on the traced argument `x` of `body` (a body passed to lax.fori_loop)): its output shape depends on the values, so tracing raises ConcretizationTypeError. Pass a static `size=` (an upper bound), or use the three-argument `jnp.where(cond, x, fill)`",
                "`.nonzero()` without `size=` on a traced value (it depends on the traced argument `x` of `body` (a body passed to lax.fori_loop)): its output shape depends on the values, so tracing raises ConcretizationTypeError. Pass a static `size=` (an upper bound), or use the three-argument `jnp.where(cond, x, fill)`",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x, counts, other):
                return jnp.repeat(x, counts), jnp.setdiff1d(x, other), jnp.compress(x > 0, x)
            """,
            expected=[(6, 12), (6, 35), (6, 60)],
            messages=[
                "`jnp.repeat` without `total_repeat_length=` on a traced value (it depends on the traced argument `counts` of `f` (decorated with @jax.jit)): its output shape depends on the values, so tracing raises ConcretizationTypeError. Pass a static `total_repeat_length=` (an upper bound), or compute it outside the traced function",
                "`jnp.setdiff1d` without `size=` on a traced value (it depends on the traced argument `x` of `f` (decorated with @jax.jit)): its output shape depends on the values, so tracing raises ConcretizationTypeError. Pass a static `size=` (an upper bound), or compute it outside the traced function",
                "`jnp.compress` without `size=` on a traced value (it depends on the traced argument `x` of `f` (decorated with @jax.jit)): its output shape depends on the values, so tracing raises ConcretizationTypeError (TracerBoolConversionError on JAX 0.10). Pass a static `size=` (an upper bound), or compute it outside the traced function",
            ],
        ),
        # under ensure_compile_time_eval a traced argument is still a tracer
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def distinct(x):
                with jax.ensure_compile_time_eval():
                    return jnp.unique(x)
            """,
            expected=[(7, 16)],
            messages=[
                "`jnp.unique` without `size=` on a traced value (it depends on the traced argument `x` of `distinct` (decorated with @jax.jit)): its output shape depends on the values, so tracing raises ConcretizationTypeError. Pass a static `size=` (an upper bound), or compute it outside the traced function",
            ],
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if not ctx.in_traced:
            return
        func = node.func
        q = ctx.qualname(func)
        spec = _SIZED.get(q) if q is not None else None
        if spec is None:
            if isinstance(func, cst.Attribute) and func.attr.value == "nonzero" and q is None:
                base = ctx.value(func.value)
                if ctx.is_traced(func.value) and not self._given(node, "size"):
                    self._report(node, "`.nonzero()`", "size", base)
            return
        size_kw, inputs = spec
        if self._given(node, size_kw):
            return
        if q == "jax.numpy.where" and (len(positional_args(node)) != 1 or any(a.keyword is not None and a.keyword.value in ("x", "y") for a in node.args) or any(a.star for a in node.args)):
            return
        for pos, kw in inputs:
            arg = arg_at(node, pos, kw)
            if arg is not None and ctx.is_traced(arg):
                short = q.replace("jax.numpy.", "jnp.")
                if short == "jnp.where":
                    short = "one-argument `jnp.where`"
                else:
                    short = f"`{short}`"
                self._report(node, short, size_kw, ctx.value(arg))
                return

    @staticmethod
    def _given(node: cst.Call, kw: str) -> bool:
        a = keyword_arg(node, kw)
        if a is None:
            return any(arg.star == "**" for arg in node.args)
        return not (isinstance(a.value, cst.Name) and a.value.value == "None")

    def _report(self, node: cst.Call, what: str, size_kw: str, v: V.Value) -> None:
        ctx = self.ctx
        hint = (
            "or use the three-argument `jnp.where(cond, x, fill)`"
            if "where" in what or "nonzero" in what or "argwhere" in what
            else "or compute it outside the traced function"
        )
        error = (
            "ConcretizationTypeError (TracerBoolConversionError on JAX 0.10)"
            if "compress" in what or "extract" in what
            else "ConcretizationTypeError"
        )
        self.report(
            node,
            f"{what} without `{size_kw}=` on a traced value ({ctx.describe_origin(v)}): its "
            f"output shape depends on the values, so tracing raises {error}. "
            f"Pass a static `{size_kw}=` (an upper bound), {hint}",
        )
