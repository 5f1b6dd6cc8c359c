"""JAX205 traced-boolean-mask-index: `x[mask]` / `x.at[mask]` with a traced boolean mask (the result shape depends on values)."""

from __future__ import annotations

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid, assignment_targets
from jaxlint.findings import Severity
from jaxlint.model import apis
from jaxlint.model import values as V


class BooleanMaskIndex(Rule):
    code = "JAX205"
    caught_by = apis.BOOLEAN_INDEX_CATCHERS
    name = "traced-boolean-mask-index"
    runtime_check = '`jax.jit(f).trace(...)`: confirmed when `NonConcreteBooleanIndexError` is raised at the flagged line.'
    summary = "`x[mask]` / `x.at[mask]` with a traced boolean mask (the result shape depends on values)"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Dynamic Shapes (seed 000); study notes § static shapes (seed 003)"
    what_it_does = (
        "Inside traced code, flags indexing a JAX array (or its `.at[...]`) with a boolean "
        "array that is traced: a comparison of traced values (`x > 0`), `~jnp.isnan(x)`, "
        "`jnp.logical_and(...)`, `a & b` of masks, `m.astype(bool)`, `jnp.asarray(y, "
        "dtype=bool)`, `jax.lax.convert_element_type(x, bool)`, `jnp.any(m, axis=1)`, "
        "`jax.lax.gt(x, 0)`, `jnp.invert(m)`, `jnp.zeros(n, dtype=bool).at[i].set(True)` (under "
        "`jit` a jax.numpy mask is staged even when built from constants)... Masks built from NumPy "
        "arrays or static values, and boolean indexing outside traced code, are not flagged; "
        "neither is an assignment target `x[mask] = ...` (JAX101 reports that)."
    )
    why_bad = (
        "The number of `True` entries decides the shape of `x[mask]`, and under `jit`/`vmap` "
        "JAX does not know it. Tracing raises:\n\n"
        "```\njax.errors.NonConcreteBooleanIndexError: Array boolean indices must be "
        "concrete; got bool[5]\n```\n\n"
        "`x.at[mask].set(0)` raises the same error."
    )
    use_instead = (
        "Keep the shape and select with the three-argument `jnp.where`:\n\n```python\n"
        "@jax.jit\ndef nansum(x):\n    return jnp.where(jnp.isnan(x), 0.0, x).sum()\n\n"
        "@jax.jit\ndef clip_negative(x):\n    return jnp.where(x < 0, 0.0, x)\n```\n\n"
        "When the selected elements are needed, bound their number: "
        "`idx = jnp.nonzero(mask, size=n, fill_value=0)`."
    )
    fix_safety = "No automatic fix: the replacement value for masked-out elements is a choice."
    VALID = [
        # outside traced code boolean indexing works
        Valid(
            """
            import jax.numpy as jnp

            def drop_nans(x):
                return x[~jnp.isnan(x)]
            """
        ),
        # the three-argument where keeps the shape
        Valid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def nansum(x):
                mask = jnp.isnan(x)
                return jnp.where(mask, 0.0, x).sum()
            """
        ),
        # a NumPy mask is concrete
        Valid(
            """
            import jax
            import numpy as np

            KEEP = np.array([True, False, True])

            @jax.jit
            def f(x):
                keep = np.arange(3) > 0
                return x[KEEP] + x[keep]
            """
        ),
        # integer indices and static comparisons
        Valid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x, i):
                last = x[x.shape[0] - 1]
                first = x[jnp.argmax(x > 0)]
                return x[i] + last + first + x[x.ndim > 1]
            """
        ),
        # a static argument makes the mask concrete
        Valid(
            """
            from functools import partial
            import jax
            import numpy as np

            @partial(jax.jit, static_argnums=(1,))
            def f(x, lengths):
                m = np.asarray(lengths) > 2
                return x[m]
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def nansum(x):
                return x[~jnp.isnan(x)].sum()
            """,
            expected=[(6, 14)],
            messages=[
                "Boolean-mask indexing with a traced mask (it depends on the traced argument `x` of `nansum` (decorated with @jax.jit)): the result shape depends on the values, so tracing raises NonConcreteBooleanIndexError. Instead, use the three-argument `jnp.where(mask, x, fill)` to keep the shape, or `jnp.nonzero(mask, size=n, fill_value=...)` to bound the number of elements",
            ],
        ),
        Invalid(
            """
            import jax

            @jax.jit
            def clip_negative(x):
                return x.at[x < 0].set(0.0)
            """,
            expected=[(5, 17)],
            messages=[
                "Boolean-mask indexing with a traced mask (it depends on the traced argument `x` of `clip_negative` (decorated with @jax.jit)): the result shape depends on the values, so tracing raises NonConcreteBooleanIndexError. Instead, update with `jnp.where(mask, new_value, x)` instead of `x.at[mask]`",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            def masked_mean(x, y):
                valid = jnp.isfinite(x) & (y > 0)
                return x[valid].mean(), y[:, valid]

            batched = jax.vmap(masked_mean)
            """,
            expected=[(6, 14), (6, 34)],
            messages=[
                "Boolean-mask indexing with a traced mask (it depends on the traced arguments `x`, `y` of `masked_mean` (wrapped by jax.vmap)): the result shape depends on the values, so tracing raises NonConcreteBooleanIndexError. Instead, use the three-argument `jnp.where(mask, x, fill)` to keep the shape, or `jnp.nonzero(mask, size=n, fill_value=...)` to bound the number of elements",
                "Boolean-mask indexing with a traced mask (it depends on the traced arguments `x`, `y` of `masked_mean` (wrapped by jax.vmap)): the result shape depends on the values, so tracing raises NonConcreteBooleanIndexError. Instead, use the three-argument `jnp.where(mask, x, fill)` to keep the shape, or `jnp.nonzero(mask, size=n, fill_value=...)` to bound the number of elements",
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._targets: set[int] = set()

    def _mark_targets(self, target: cst.CSTNode) -> None:
        if isinstance(target, cst.Subscript):
            self._targets.add(id(target))
        elif isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self._mark_targets(el.value)

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in assignment_targets(node):
            self._mark_targets(t)

    visit_AugAssign = visit_AnnAssign = visit_Assign

    def visit_Del(self, node: cst.Del) -> None:
        self._mark_targets(node.target)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        ctx = self.ctx
        if id(node) in self._targets or not ctx.in_traced:
            return
        base = ctx.value(node.value)
        if not (base.kind in (V.ARRAY, V.AT) or base.traced):
            return
        for el in node.slice:
            sl = el.slice
            if not isinstance(sl, cst.Index):
                continue
            mv = ctx.value(sl.value)
            if mv.dtype_hint != "bool" or not ctx.is_traced(sl.value):
                continue
            if base.kind == V.AT:
                alt = (
                    "update with `jnp.where(mask, new_value, x)` instead of `x.at[mask]`"
                )
            else:
                alt = (
                    "use the three-argument `jnp.where(mask, x, fill)` to keep the shape, or "
                    "`jnp.nonzero(mask, size=n, fill_value=...)` to bound the number of elements"
                )
            self.report(
                sl.value,
                f"Boolean-mask indexing with a traced mask ({ctx.describe_origin(mv)}): the "
                f"result shape depends on the values, so tracing raises "
                f"NonConcreteBooleanIndexError. Instead, {alt}",
            )
            return
