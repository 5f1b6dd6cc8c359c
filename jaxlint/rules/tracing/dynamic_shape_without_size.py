"""JAX206 dynamic-shape-without-size: `jnp.nonzero`/`unique`/one-argument `where`/`bincount`... without `size=` in traced code."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import apis
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
    # the number of segments is `max(segment_ids) + 1` when not given
    "jax.ops.segment_sum": ("num_segments", ((1, "segment_ids"),)),
    "jax.ops.segment_max": ("num_segments", ((1, "segment_ids"),)),
    "jax.ops.segment_min": ("num_segments", ((1, "segment_ids"),)),
    "jax.ops.segment_prod": ("num_segments", ((1, "segment_ids"),)),
}

# size arguments that may also be given by position (jax.ops.segment_*(data, ids, num_segments))
_SIZE_POSITION = {q: 2 for q in _SIZED if q.startswith("jax.ops.segment_")}


# jax.numpy helpers that vmap the function they are given (JAX 0.10.2), and how many
# arguments they take before the function's extra ones
_VMAPPING_HELPERS = frozenset({"jax.numpy.apply_along_axis", "jax.numpy.vectorize"})


class SizeDependentFunction(Rule):
    code = "JAX206"
    caught_by = apis.CONCRETIZATION_CATCHERS
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
        "without `size=`; `jnp.bincount` without `length=`; `jax.ops.segment_sum` (and "
        "`segment_max/min/prod`) without `num_segments`; `jnp.repeat` with traced "
        "`repeats` and no `total_repeat_length=`; the methods `x.nonzero()`, `x.compress(c)` and "
        "`x.repeat(r)` the same way; `jnp.trim_zeros` of a traced array (it has no static form), "
        "`jnp.roots` without `strip_zeros=False`, `jnp.delete` with traced indices and no "
        "`assume_unique_indices=True`, `jnp.polymul(..., trim_leading_zeros=True)`. Calls "
        "outside traced code, with the size "
        "given, or on concrete (NumPy/static) inputs under `vmap` alone are not flagged; under "
        "`jit` the call is flagged on concrete inputs too (jax.numpy stages it: "
        "`jax.jit(partial(f, np_array))` with `f` calling `jnp.unique` raises). Also flags "
        "these functions handed to JAX as a function: `jnp.apply_along_axis(jnp.where, 1, x)`, "
        "`jax.vmap(jnp.nonzero)(x)`, `jax.jit(jnp.unique)`, `jnp.vectorize(jnp.unique, ...)`."
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
        # the three-argument where handed to vmap; a size bound with partial; jnp.unique of a
        # constant where vmap alone runs it (eagerly)
        Valid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp
            import numpy as np

            x = np.array([[0, 0, 1, 1], [1, 1, 0, 0]])
            y = jax.vmap(jnp.where)(x > 0, x, -x)
            idx = jnp.apply_along_axis(partial(jnp.nonzero, size=2), 1, x)

            def scale(k):
                return jnp.unique(x).sum() * k

            z = jax.vmap(scale)(jnp.ones(2))
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
        # under jit a NumPy constant is staged too; size-dependent functions handed to JAX
        Invalid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp
            import numpy as np

            a = np.arange(6).reshape((3, 2))

            def unique(x):
                return jax.numpy.unique(x)

            u = jax.jit(partial(unique, a))()
            w = jnp.apply_along_axis(jnp.where, 1, a)
            n = jax.vmap(jnp.nonzero)(a)
            """,
            expected=[(10, 12), (13, 26), (14, 14)],
            messages=[
                "`jnp.unique` without `size=` inside traced code (it is computed by JAX inside `unique` (wrapped by jax.jit)): jax.numpy stages the call even when its input is concrete, and its output shape depends on the values, so tracing raises ConcretizationTypeError. Pass a static `size=` (an upper bound), or compute it with NumPy outside the traced function",
                "`jnp.where` is handed to `jnp.apply_along_axis`, which traces it, and called there without `size=`: its output shape depends on the values, so tracing raises ConcretizationTypeError. Pass a function that gives a static `size=` (`functools.partial(jnp.where, size=...)`), or use NumPy on concrete data",
                "`jnp.nonzero` is handed to `jax.vmap`, which traces it, and called there without `size=`: its output shape depends on the values, so tracing raises ConcretizationTypeError. Pass a function that gives a static `size=` (`functools.partial(jnp.nonzero, size=...)`), or use NumPy on concrete data",
            ],
        ),
        # jax.ops.segment_* without num_segments: the count is max(segment_ids) + 1
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            from jax.ops import segment_max

            jit_sum = jax.jit(jax.ops.segment_sum)


            @jax.jit
            def pool(x, seg):
                return segment_max(x, seg) + jax.ops.segment_sum(x, seg, 4) + jax.ops.segment_min(x, seg, num_segments=4)
            """,
            expected=[(5, 19), (10, 12)],
            messages=[
                "`jax.ops.segment_sum` is handed to `jax.jit`, which traces it, and called there without `num_segments=`: its output shape depends on the values, so tracing raises ConcretizationTypeError. Pass a function that gives a static `num_segments=` (`functools.partial(jax.ops.segment_sum, num_segments=...)`), or use NumPy on concrete data",
                "`jax.ops.segment_max` without `num_segments=` on a traced value (it depends on the traced argument `seg` of `pool` (decorated with @jax.jit)): its output shape depends on the values, so tracing raises ConcretizationTypeError. Pass a static `num_segments=` (an upper bound), or compute it outside the traced function",
            ],
        ),
    ]

    def _passed_as_function(self, node: cst.Call, q: str) -> None:
        """`jnp.apply_along_axis(jnp.where, 1, x)`, `jax.vmap(jnp.nonzero)(x)`: a function of
        data-dependent output size handed to JAX, which traces it (vmap/jit/lax.map inside)."""
        ctx = self.ctx
        if q in _VMAPPING_HELPERS:
            apply = q.endswith("apply_along_axis")
            fn, extra = arg_at(node, 0, "func1d" if apply else "pyfunc"), (3 if apply else None)
        else:
            t = apis.transform_for(q)
            if t is None or not t.traces or any(
                a.keyword is not None and a.keyword.value in ("static_argnums", "static_argnames") for a in node.args
            ):
                return
            fn, extra = arg_at(node, 0, None), None
            in_axes = keyword_arg(node, "in_axes")
            if in_axes is not None and "None" in ctx.code(in_axes.value):
                return  # `vmap(segment_sum, in_axes=(0, 0, None))`: the size may come unbatched
        fq = ctx.qualname(fn) if fn is not None else None
        if self.__dict__.get("_sized_at_call", {}).get(id(node)) is node:
            return  # `jax.jit(jax.ops.segment_sum)(x, ids, n)`: the size comes with the call
        spec = _SIZED.get(fq or "")
        if spec is None or fq == "jax.numpy.repeat":
            return
        if fq == "jax.numpy.where" and (extra is None or len(positional_args(node)) > extra or len(node.args) > extra):
            return  # `vmap(jnp.where)(c, x, y)` may be the three-argument form
        short = fq.replace("jax.numpy.", "jnp.")  # type: ignore[union-attr]
        self.report(
            fn,
            f"`{short}` is handed to `{ctx.code(node.func).strip()}`, which traces it, and called there "
            f"without `{spec[0]}=`: its output shape depends on the values, so tracing raises "
            f"ConcretizationTypeError. Pass a function that gives a static `{spec[0]}=` "
            f"(`functools.partial({ctx.code(fn).strip()}, {spec[0]}=...)`), or use NumPy on concrete data",
        )

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        q0 = ctx.qualname(node.func)
        if isinstance(node.func, cst.Call) and node.func.args:
            inner = node.func.args[0].value
            iq = ctx.qualname(inner)
            if iq in _SIZE_POSITION and self._given(node, _SIZED[iq][0], _SIZE_POSITION[iq]):
                self.__dict__.setdefault("_sized_at_call", {})[id(node.func)] = node.func
        if q0 is not None and node.args:
            self._passed_as_function(node, q0)
        if not ctx.in_traced:
            return
        func = node.func
        q = ctx.qualname(func)
        spec = _SIZED.get(q) if q is not None else None
        if spec is None:
            if isinstance(func, cst.Attribute) and q is None and func.attr.value in apis.SIZED_METHODS:
                m = func.attr.value
                size_kw, decides = apis.SIZED_METHODS[m]
                base = ctx.value(func.value)
                if not (base.kind == V.ARRAY or base.traced) or self._given(node, size_kw):
                    return
                arg = arg_at(node, decides[0], decides[1]) if decides is not None else func.value
                if arg is not None and ctx.is_traced(arg):
                    self._report(node, f"`.{m}()`", size_kw, ctx.value(arg))
            elif q in apis.VALUE_SIZE_FLAGS:
                self._flagged(node, q)
            return
        size_kw, inputs = spec
        if self._given(node, size_kw, _SIZE_POSITION.get(q)):
            return
        if q == "jax.numpy.where" and (len(positional_args(node)) != 1 or any(a.keyword is not None and a.keyword.value in ("x", "y") for a in node.args) or any(a.star for a in node.args)):
            return
        short = q.replace("jax.numpy.", "jnp.")
        short = "one-argument `jnp.where`" if short == "jnp.where" else f"`{short}`"
        for pos, kw in inputs:
            arg = arg_at(node, pos, kw)
            if arg is not None and ctx.is_traced(arg):
                self._report(node, short, size_kw, ctx.value(arg))
                return
        first = arg_at(node, inputs[0][0], inputs[0][1]) if inputs else None
        if first is not None and ctx.is_traced(node) and q != "jax.numpy.repeat":
            # under jit every jax.numpy call is staged, concrete inputs too: `jnp.unique(a)`
            # of a NumPy constant raises as well (JAX 0.10.2); under vmap alone it runs
            self.report(
                node,
                f"{short} without `{size_kw}=` inside traced code ({ctx.describe_origin(ctx.value(node))}): "
                f"jax.numpy stages the call even when its input is concrete, and its output shape "
                f"depends on the values, so tracing raises ConcretizationTypeError. Pass a static "
                f"`{size_kw}=` (an upper bound), or compute it with NumPy outside the traced function",
            )

    def _flagged(self, node: cst.Call, q: str) -> None:
        """`jnp.trim_zeros(x)`, `jnp.roots(p)`, `jnp.delete(x, i)` of traced inputs: no size
        bound, but a flag (or nothing) that decides whether the output size depends on values."""
        ctx = self.ctx
        flag, safe, default_safe, inputs = apis.VALUE_SIZE_FLAGS[q]
        if any(a.star for a in node.args):
            return
        if flag is not None:
            a = keyword_arg(node, flag)
            if a is None and default_safe:
                return
            if a is not None and ctx.code(a.value).strip() != ("True" if safe == "False" else "False"):
                return  # the safe literal, or a value the model cannot read
        for pos, kw in inputs:
            arg = arg_at(node, pos, kw)
            if arg is None or not ctx.is_traced(arg):
                continue
            short = q.replace("jax.numpy.", "jnp.")
            v = ctx.value(arg)
            if flag is None:
                how = ("the number of zeros it trims depends on the values, so its output shape "
                       "does too and tracing raises ConcretizationTypeError. It has no static-size "
                       "form: keep the full length (mask the zeros with `jnp.where`), or trim "
                       "outside the traced function")
            elif q == "jax.numpy.delete" and v.dtype_hint == "bool":
                how = ("a traced boolean mask deletes as many entries as it holds True values, so the "
                       "output shape depends on the values and tracing raises ConcretizationTypeError "
                       "(`assume_unique_indices=True` does not help a mask). Keep the shape with "
                       "`jnp.where(mask, fill, x)`, or delete outside the traced function")
            elif default_safe:
                how = (f"with `{flag}=True` its output shape depends on the values, so tracing raises "
                       f"ConcretizationTypeError. Leave `{flag}` False (the default), or trim outside "
                       f"the traced function")
            else:
                how = (f"without `{flag}={safe}` its output shape depends on the values, so tracing "
                       f"raises ConcretizationTypeError. Pass `{flag}={safe}`, or compute it outside "
                       f"the traced function")
            self.report(node, f"`{short}` on a traced value ({ctx.describe_origin(v)}): {how}")
            return

    @staticmethod
    def _given(node: cst.Call, kw: str, pos: Optional[int] = None) -> bool:
        a = keyword_arg(node, kw)
        if a is None:
            if pos is not None and (len(positional_args(node)) > pos or any(arg.star == "*" for arg in node.args)):
                return True
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
