"""JAX205/JAX206: operations whose output shape depends on traced values."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.findings import Severity
from jaxlint.model import values as V
from jaxlint.model.walk import arg_at, keyword_arg, positional_args
from jaxlint.engine.rule import Invalid, Rule, Valid

_SEED = "The Sharp Bits § Dynamic Shapes (seed 000); study notes § static shapes (seed 003)"


class BooleanMaskIndex(Rule):
    code = "JAX205"
    name = "traced-boolean-mask-index"
    summary = "`x[mask]` / `x.at[mask]` with a traced boolean mask (the result shape depends on values)"
    severity = Severity.ERROR
    seed = _SEED
    what_it_does = (
        "Inside traced code, flags indexing a JAX array (or its `.at[...]`) with a boolean "
        "array that is traced: a comparison of traced values (`x > 0`), `~jnp.isnan(x)`, "
        "`jnp.logical_and(...)`, `a & b` of masks, `m.astype(bool)`... Masks built from NumPy "
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
    example = (
        "```python\n@jax.jit\ndef nansum(x):\n    return x[~jnp.isnan(x)].sum()\n\n"
        "@jax.jit\ndef clip_negative(x):\n    return x.at[x < 0].set(0.0)\n```"
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
        Valid("import jax.numpy as jnp\n\ndef drop_nans(x):\n    return x[~jnp.isnan(x)]\n"),
        # the three-argument where keeps the shape
        Valid("import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef nansum(x):\n    mask = jnp.isnan(x)\n    return jnp.where(mask, 0.0, x).sum()\n"),
        # a NumPy mask is concrete
        Valid("import jax\nimport numpy as np\n\nKEEP = np.array([True, False, True])\n\n@jax.jit\ndef f(x):\n    keep = np.arange(3) > 0\n    return x[KEEP] + x[keep]\n"),
        # integer indices and static comparisons
        Valid("import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x, i):\n    last = x[x.shape[0] - 1]\n    first = x[jnp.argmax(x > 0)]\n    return x[i] + last + first + x[x.ndim > 1]\n"),
        # a static argument makes the mask concrete
        Valid("from functools import partial\nimport jax\nimport numpy as np\n\n@partial(jax.jit, static_argnums=(1,))\ndef f(x, lengths):\n    m = np.asarray(lengths) > 2\n    return x[m]\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef nansum(x):\n    return x[~jnp.isnan(x)].sum()\n",
            expected=[(6, 14)],
            message_contains="NonConcreteBooleanIndexError",
        ),
        Invalid(
            "import jax\n\n@jax.jit\ndef clip_negative(x):\n    return x.at[x < 0].set(0.0)\n",
            expected=[(5, 17)],
            message_contains="jnp.where",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\ndef masked_mean(x, y):\n    valid = jnp.isfinite(x) & (y > 0)\n    return x[valid].mean(), y[:, valid]\n\nbatched = jax.vmap(masked_mean)\n",
            expected=[(6, 14), (6, 34)],
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
        for t in node.targets:
            self._mark_targets(t.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._mark_targets(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._mark_targets(node.target)

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
    summary = "`jnp.nonzero`/`unique`/one-argument `where`/`bincount`... without `size=` in traced code"
    severity = Severity.ERROR
    seed = _SEED
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
    example = (
        "```python\n@jax.jit\ndef positives(x):\n    (idx,) = jnp.nonzero(x > 0)\n"
        "    return x[idx], jnp.unique(x), jnp.bincount(idx)\n```"
    )
    use_instead = (
        "```python\n@jax.jit\ndef positives(x):\n    (idx,) = jnp.nonzero(x > 0, size=x.shape[0], fill_value=0)\n"
        "    return x[idx], jnp.unique(x, size=x.shape[0]), jnp.bincount(idx, length=x.shape[0])\n```\n\n"
        "or keep the full shape with the three-argument `jnp.where(cond, x, fill)`."
    )
    fix_safety = "No automatic fix: the size bound and the fill value are the author's choice."
    VALID = [
        Valid("import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    (idx,) = jnp.nonzero(x > 0, size=3, fill_value=0)\n    u = jnp.unique(x, size=x.shape[0])\n    return idx, u, jnp.bincount(idx, length=4), jnp.where(x > 0, x, 0.0)\n"),
        # outside traced code the sizes are concrete
        Valid("import jax.numpy as jnp\n\ndef positives(x):\n    return x[jnp.nonzero(x > 0)], jnp.unique(x)\n"),
        # repeat with a static count
        Valid("from functools import partial\nimport jax\nimport jax.numpy as jnp\n\n@partial(jax.jit, static_argnums=(1,))\ndef upsample(x, k):\n    return jnp.repeat(x, k, axis=0) + jnp.repeat(x, 2, axis=0)\n"),
        # NumPy on concrete data inside jit
        Valid("import jax\nimport numpy as np\nimport jax.numpy as jnp\n\nLABELS = np.array([0, 2, 2, 1])\n\n@jax.jit\ndef f(x):\n    n = len(np.unique(LABELS))\n    return x * n\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef positives(x):\n    (idx,) = jnp.nonzero(x > 0)\n    return x[idx], jnp.unique(x), jnp.bincount(idx)\n",
            expected=[(6, 14), (7, 20), (7, 35)],
            message_contains="ConcretizationTypeError",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\nfrom jax import lax\n\ndef body(i, x):\n    hits = jnp.where(x > i)\n    return x + jnp.argwhere(x).sum() + hits[0].sum() + x.nonzero()[0].sum()\n\nout = lax.fori_loop(0, 3, body, jnp.zeros(4))\n",
            expected=[(6, 12), (7, 16), (7, 56)],
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x, counts, other):\n    return jnp.repeat(x, counts), jnp.setdiff1d(x, other), jnp.compress(x > 0, x)\n",
            expected=[(6, 12), (6, 35), (6, 60)],
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
