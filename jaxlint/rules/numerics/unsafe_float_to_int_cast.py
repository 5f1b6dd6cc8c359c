"""JAX122 unsafe-float-to-int-cast: Casting a float JAX array to an integer dtype saturates out-of-range values and maps NaN to 0 (NumPy wraps)."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import values as V
from jaxlint.model.walk import arg_at, string_value


_INT_DTYPES = frozenset({"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "int", "uint"})


class UnsafeFloatToIntCast(Rule):
    code = "JAX122"
    name = "unsafe-float-to-int-cast"
    runtime_check = 'None: the cast saturates only for out-of-range values, which seeded inputs do not produce.'
    summary = "Casting a float JAX array to an integer dtype saturates out-of-range values and maps NaN to 0 (NumPy wraps)"
    severity = Severity.INFO
    default_enabled = False
    seed = "The Sharp Bits § Miscellaneous divergences from NumPy (seed 000)"
    what_it_does = (
        "Flags `.astype(<int dtype>)`, `jnp.asarray(x, dtype=<int dtype>)` and `jnp.array(x, "
        "dtype=<int dtype>)` when `x` is known to be a floating-point JAX array: made by a "
        "float constructor (`jnp.arange(254., 258.)`, `jnp.linspace`, `jnp.zeros`), a "
        "transcendental function (`jnp.exp`, `jnp.sqrt`, `jax.nn.sigmoid`, ...), a float "
        "sampler (`jax.random.normal`/`uniform`), or a division.\n\n"
        "This rule is **off by default** (opt-in: `--extend-select JAX122`): the model does "
        "not know value ranges, and most float-to-int casts in real code are of values already "
        "in range (`jnp.floor`, `jnp.round` and `jnp.clip` results are not flagged, since they "
        "are the usual way to make a cast safe)."
    )
    why_bad = (
        "JAX and NumPy disagree on out-of-range conversions, and neither warns in JAX: "
        "`jnp.arange(254., 258.).astype('uint8')` is `[254, 255, 255, 255]` in JAX "
        "(saturated) but `[254, 255, 0, 1]` in NumPy (wrapped). `[-1, -0.5, nan, inf, -inf]` "
        "→ uint8 is `[0, 0, 0, 255, 0]` in JAX. `[3e9, nan, -3e9]` → int32 is `[2147483647, "
        "0, -2147483648]`. Code ported from NumPy, or relying on either behaviour, silently "
        "computes something else; NaNs become 0 without a trace."
    )
    use_instead = "Make the range explicit:\n\n```python\npixels = jnp.clip(jnp.round(img), 0, 255).astype(jnp.uint8)\n```"
    fix_safety = "No automatic fix: the intended range handling (clip, wrap with `%`, NaN policy) is a choice."
    VALID = [
        Valid(
            """
            import jax.numpy as jnp

            x = jnp.arange(254., 258.)
            y = jnp.clip(jnp.round(x), 0, 255).astype(jnp.uint8)
            """
        ),
        Valid(
            """
            import jax.numpy as jnp

            i = jnp.arange(10).astype(jnp.uint8)
            f = jnp.linspace(0., 1., 5).astype(jnp.float16)
            """
        ),
        Valid(
            """
            import jax.numpy as jnp

            def f(x):
                return x.astype(jnp.int32)
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            import jax.numpy as jnp

            x = jnp.arange(254., 258.)
            print(x.astype(jnp.uint8), x.astype('int8'))
            """,
            expected=[(4, 7), (4, 28)],
            messages=[
                "casting a float JAX array to uint8: JAX saturates out-of-range values and turns NaN into 0 (`[254., 256.]` → `[254, 255]`), where NumPy wraps. Clip and round explicitly if values may be out of range",
                "casting a float JAX array to int8: JAX saturates out-of-range values and turns NaN into 0 (`[254., 256.]` → `[254, 255]`), where NumPy wraps. Clip and round explicitly if values may be out of range",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            def to_pixels(logits):
                img = jax.nn.sigmoid(logits) * 256
                return jnp.asarray(img, dtype=jnp.uint8)
            """,
            expected=[(6, 12)],
            messages=[
                "casting a float JAX array to uint8: JAX saturates out-of-range values and turns NaN into 0 (`[254., 256.]` → `[254, 255]`), where NumPy wraps. Clip and round explicitly if values may be out of range",
            ],
        ),
    ]

    def _int_dtype(self, d: Optional[cst.CSTNode]) -> Optional[str]:
        if d is None:
            return None
        s = string_value(d)
        if s is not None:
            return s if s in _INT_DTYPES else None
        if isinstance(d, cst.Name) and self.ctx.builtin_name(d) == "int":
            return "int"
        q = self.ctx.qualname(d)
        if q and (q.startswith("jax.numpy.") or q.startswith("numpy.")):
            short = q.rsplit(".", 1)[1]
            return short if short in _INT_DTYPES else None
        return None

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        func = node.func
        src: Optional[cst.CSTNode] = None
        dt: Optional[str] = None
        if isinstance(func, cst.Attribute) and func.attr.value == "astype":
            src = func.value
            dt = self._int_dtype(arg_at(node, 0, "dtype"))
        else:
            q = ctx.qualname(func)
            if q in ("jax.numpy.asarray", "jax.numpy.array"):
                src = arg_at(node, 0, "a" if q.endswith("asarray") else "object")
                dt = self._int_dtype(arg_at(node, 1, "dtype"))
        if src is None or dt is None:
            return
        v = ctx.value(src)
        if v.kind != V.ARRAY or v.dtype_hint != "float":
            return
        self.report(
            node,
            f"casting a float JAX array to {dt}: JAX saturates out-of-range values and turns NaN "
            "into 0 (`[254., 256.]` → `[254, 255]`), where NumPy wraps. Clip and round explicitly "
            "if values may be out of range",
        )
