"""JAX120-JAX123: numerics, indexing and dtypes that go silently wrong."""

from __future__ import annotations

import math
from typing import Optional

import libcst as cst

from jaxlint.findings import Applicability, Severity
from jaxlint.model import apis
from jaxlint.model import values as V
from jaxlint.model.walk import arg_at, children, int_value, keyword_arg, positional_args, string_value
from jaxlint.engine.rule import Invalid, Replacement, Rule, Valid, fix

# functions whose derivative is infinite or NaN somewhere, with a safe stand-in input
_SINGULAR = {
    "jax.numpy.log": 1.0,
    "jax.numpy.log2": 1.0,
    "jax.numpy.log10": 1.0,
    "jax.numpy.sqrt": 1.0,
    "jax.numpy.reciprocal": 1.0,
    "jax.numpy.arccos": 0.0,
    "jax.numpy.arcsin": 0.0,
    "jax.lax.log": 1.0,
    "jax.lax.sqrt": 1.0,
    "jax.lax.rsqrt": 1.0,
    "jax.lax.acos": 0.0,
    "jax.lax.asin": 0.0,
}
_POWER = ("jax.numpy.power", "jax.numpy.float_power", "jax.lax.pow")
_DIVIDE = ("jax.numpy.divide", "jax.numpy.true_divide", "jax.lax.div")
_GUARDS = frozenset(
    {"jax.numpy.where", "jax.lax.select", "jax.numpy.maximum", "jax.numpy.clip", "jax.numpy.fmax",
     "jax.lax.max", "jax.lax.clamp", "jax.numpy.nan_to_num", "jax.numpy.abs"}
)


def _plain(e: cst.CSTNode) -> bool:
    if isinstance(e, cst.Name):
        return True
    if isinstance(e, cst.Attribute):
        return _plain(e.value)
    if isinstance(e, cst.Subscript):
        return _plain(e.value)
    return False


def _fractional_or_negative(e: cst.CSTNode) -> bool:
    if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Minus):
        return isinstance(e.expression, (cst.Integer, cst.Float))
    if isinstance(e, cst.Float):
        try:
            v = float(e.value)
        except ValueError:
            return False
        return v != int(v)
    if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, cst.Divide):
        return isinstance(e.left, (cst.Integer, cst.Float)) and isinstance(e.right, (cst.Integer, cst.Float))
    return False


def _fmt(v: float) -> str:
    return "1.0" if v == 1.0 else "0.0"


class WhereGradientNaN(Rule):
    code = "JAX120"
    name = "where-gradient-nan"
    summary = "`jnp.where(cond, log(x), c)`: the masked branch still runs, and its infinite derivative makes the gradient NaN"
    severity = Severity.WARNING
    fix_availability = "sometimes"
    seed = "FAQ § Gradients contain NaN where using `where` (seeds 001, 004)"
    what_it_does = (
        "Flags a 3-argument `jnp.where(cond, a, b)` (or `lax.select`) where a branch applies a "
        "function that is singular on the masked side (`log`, `log2`, `log10`, `sqrt`, "
        "`rsqrt`, `reciprocal`, `arcsin`, `arccos`, a fractional or negative power, or a "
        "division `a / x`) to a variable that the condition tests (`jnp.where(x > 0, "
        "jnp.log(x), 0.)`), unless that argument is itself guarded (`jnp.log(jnp.where(x > 0, "
        "x, 1.))`, `jnp.maximum`, `jnp.clip`). It is checked everywhere, not only in traced "
        "code, because `grad` may be applied by a caller."
    )
    why_bad = (
        "`where` selects values, but both branches are computed for every element, and "
        "reverse-mode differentiation multiplies the zero cotangent of the unselected branch "
        "by that branch's derivative. Where the derivative is infinite (`log` or `sqrt` at 0, "
        "`1/x` at 0) or NaN (`sqrt` of a negative), `0 * inf = nan`: "
        "`jax.grad(lambda x: jnp.where(x > 0, jnp.log(x), 0.))(0.)` is `nan`, not `0.`. The "
        "forward value is correct and JAX gives no warning, so the NaN shows up later in "
        "training."
    )
    example = "```python\ndef safe_log(x):\n    return jnp.where(x > 0, jnp.log(x), 0.)\n```"
    use_instead = (
        "The \"double where\": also mask the input, so the unselected branch is evaluated at a "
        "harmless point:\n\n```python\ndef safe_log(x):\n    return jnp.where(x > 0, jnp.log(jnp.where(x > 0, x, 1.0)), 0.)\n```"
    )
    fix_safety = (
        "For `jnp.where`, the fix wraps the singular function's argument in the same "
        "condition: `jnp.log(x)` becomes `jnp.log(jnp.where(cond, x, 1.0))` (`0.0` for "
        "`arcsin`/`arccos`, whose derivative is infinite at ±1). Selected values are "
        "unchanged, since the inner `where` passes `x` through exactly where the outer one "
        "selects that branch; the gradient at masked points becomes 0 instead of NaN. It is "
        "**unsafe** because the condition expression is evaluated twice and the stand-in value "
        "is a choice (`1.0` keeps `log`, `sqrt` and divisions finite). `lax.select` needs "
        "operands of equal shape and dtype, so it gets no automatic fix."
    )
    VALID = [
        Valid("import jax.numpy as jnp\n\ndef safe_log(x):\n    return jnp.where(x > 0, jnp.log(jnp.where(x > 0, x, 1.)), 0.)\n"),
        Valid("import jax.numpy as jnp\n\ndef f(x, eps=1e-8):\n    return jnp.where(x > 0, jnp.sqrt(jnp.maximum(x, eps)), 0.)\n"),
        # the condition does not test the singular argument
        Valid("import jax.numpy as jnp\n\ndef f(x, mask):\n    return jnp.where(mask, jnp.log(x), 0.)\n"),
        # smooth branch functions
        Valid("import jax.numpy as jnp\n\ndef f(x):\n    return jnp.where(x > 0, jnp.exp(x), x ** 2)\n"),
        # NumPy, not JAX
        Valid("import numpy as np\n\ndef f(x):\n    return np.where(x > 0, np.log(x), 0.)\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\ndef f(x):\n    return jnp.where(x > 0, jnp.log(x), 0.)\n\ng = jax.grad(f)\n",
            expected=[(5, 29)],
            fixed="import jax\nimport jax.numpy as jnp\n\ndef f(x):\n    return jnp.where(x > 0, jnp.log(jnp.where(x > 0, x, 1.0)), 0.)\n\ng = jax.grad(f)\n",
            unsafe=True,
            message_contains="NaN",
        ),
        Invalid(
            "import jax.numpy as jnp\n\ndef normalize(v, norm):\n    return jnp.where(norm == 0, 0.0, v / norm)\n",
            expected=[(4, 38)],
            fixed="import jax.numpy as jnp\n\ndef normalize(v, norm):\n    return jnp.where(norm == 0, 0.0, v / jnp.where(norm == 0, 1.0, norm))\n",
            unsafe=True,
        ),
        Invalid(
            "from jax import lax\nimport jax.numpy as jnp\n\ndef f(d):\n    return lax.select(d > 0, jnp.sqrt(d), jnp.zeros_like(d))\n",
            expected=[(5, 30)],
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        q = ctx.qualname(node.func)
        if q not in ("jax.numpy.where", "jax.lax.select"):
            return
        pos = positional_args(node)
        if len(pos) != 3 or len(node.args) != 3:
            return
        cond = pos[0].value
        tested = _exprs_in(ctx, cond)
        if not tested:
            return
        for side, branch in ((1, pos[1].value), (2, pos[2].value)):
            for op_node, inner, safe in self._singular_ops(branch):
                key = ctx.code(inner).strip()
                if key not in tested:
                    continue
                the_fix = None
                if q == "jax.numpy.where":
                    where = ctx.code(node.func).strip()
                    c = ctx.code(cond).strip()
                    guarded = (
                        f"{where}({c}, {key}, {_fmt(safe)})" if side == 1 else f"{where}({c}, {_fmt(safe)}, {key})"
                    )
                    the_fix = fix(
                        Applicability.UNSAFE,
                        "Guard the argument with the same condition (double where)",
                        Replacement(inner, guarded),
                    )
                self.report(
                    op_node,
                    f"`{ctx.code(op_node).strip()}` is computed for every element, also where "
                    f"`{ctx.code(cond).strip()}` masks it out; its derivative is infinite/NaN there, "
                    f"so the gradient of this `where` is NaN (0 * inf). Guard `{key}` with the same "
                    f"condition too (double where: `jnp.where(cond, {key}, {_fmt(safe)})` inside)",
                    the_fix,
                )

    def _singular_ops(self, branch: cst.CSTNode):
        ctx = self.ctx
        stack = [branch]
        while stack:
            n = stack.pop()
            if isinstance(n, cst.Lambda):
                continue
            if isinstance(n, cst.Call):
                q = ctx.qualname(n.func)
                if q in _GUARDS:
                    continue
                pos = positional_args(n)
                if q in _SINGULAR and pos and _plain(pos[0].value):
                    yield n, pos[0].value, _SINGULAR[q]
                elif q in _POWER and len(pos) == 2 and _plain(pos[0].value) and _fractional_or_negative(pos[1].value):
                    yield n, pos[0].value, 1.0
                elif q in _DIVIDE and len(pos) == 2 and _plain(pos[1].value):
                    yield n, pos[1].value, 1.0
            elif isinstance(n, cst.BinaryOperation):
                if isinstance(n.operator, cst.Divide) and _plain(n.right) and not isinstance(n.right, (cst.Integer, cst.Float)):
                    yield n, n.right, 1.0
                elif isinstance(n.operator, cst.Power) and _plain(n.left) and _fractional_or_negative(n.right):
                    yield n, n.left, 1.0
            stack.extend(reversed(list(children(n))))


_CMP_FUNCS = frozenset(
    "jax.numpy." + n for n in ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal", "isclose")
) | frozenset("jax.lax." + n for n in ("lt", "le", "gt", "ge", "eq", "ne"))
_BOOL_FUNCS = frozenset(
    {"jax.numpy.logical_and", "jax.numpy.logical_or", "jax.numpy.logical_not", "jax.lax.bitwise_and",
     "jax.lax.bitwise_or", "jax.lax.bitwise_not", "jax.lax.and_", "jax.lax.or_", "jax.lax.not_"}
)
_SMALL_WORDS = ("eps", "tiny", "small", "tol", "thresh", "min")


def _thresholdish(ctx, e: cst.CSTNode) -> bool:
    """A numeric literal or a small-constant-looking value (``eps``, ``finfo(...).tiny``)."""
    if isinstance(e, (cst.Integer, cst.Float)):
        return True
    if isinstance(e, cst.UnaryOperation):
        return _thresholdish(ctx, e.expression)
    if isinstance(e, cst.Name) or isinstance(e, cst.Attribute):
        last = (e.value if isinstance(e, cst.Name) else e.attr.value).lower()
        return any(w in last for w in _SMALL_WORDS)
    if isinstance(e, cst.Call):
        q = ctx.qualname(e.func) or ""
        pos = positional_args(e)
        if q.endswith(("zeros_like", ".zeros")):
            return True
        if q.endswith(("full_like", ".full")):
            return len(pos) >= 2 and _thresholdish(ctx, pos[1].value)
        if q.endswith((".asarray", ".array")) or q.startswith(("jax.numpy.float", "jax.numpy.int")):
            return len(pos) >= 1 and _thresholdish(ctx, pos[0].value)
    return False


def _exprs_in(ctx, e: cst.CSTNode) -> set[str]:
    """Source texts of the values that ``e`` compares with a threshold (``x > 0``,
    ``x != 0``, ``d < eps``, ``lax.lt(a, full_like(a, small))``), through ``&``/``|``/``~``."""
    out: set[str] = set()
    stack = [e]
    while stack:
        n = stack.pop()
        pairs: list[tuple[cst.CSTNode, cst.CSTNode]] = []
        if isinstance(n, cst.Comparison):
            left = n.left
            for c in n.comparisons:
                pairs.append((left, c.comparator))
                left = c.comparator
        elif isinstance(n, cst.BinaryOperation) and isinstance(n.operator, (cst.BitAnd, cst.BitOr)):
            stack.extend((n.left, n.right))
        elif isinstance(n, cst.UnaryOperation) and isinstance(n.operator, cst.BitInvert):
            stack.append(n.expression)
        elif isinstance(n, cst.Call):
            q = ctx.qualname(n.func)
            pos = positional_args(n)
            if q in _CMP_FUNCS and len(pos) >= 2:
                pairs.append((pos[0].value, pos[1].value))
            elif q in _BOOL_FUNCS:
                stack.extend(a.value for a in pos)
        for a, b in pairs:
            for x, y in ((a, b), (b, a)):
                if _plain(x) and _thresholdish(ctx, y):
                    out.add(ctx.code(x).strip())
    return out


# --------------------------------------------------------------------------- JAX121
_AT_DROP = frozenset({"set", "add", "subtract", "multiply", "mul", "divide", "power", "min", "max", "apply"})


class StaticOutOfBoundsIndex(Rule):
    code = "JAX121"
    name = "out-of-bounds-static-index"
    summary = "A literal index outside an array of known shape: JAX clamps reads, drops `.at[]` updates, `take` fills NaN"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Out-of-Bounds Indexing (seed 000)"
    what_it_does = (
        "Flags integer-literal indices (negative too) that are out of bounds for an array whose "
        "shape is known from a literal constructor in the same scope (`jnp.arange(10)`, "
        "`jnp.zeros((3, 4))`, `jnp.ones(5)`, `jnp.array([...])`, `jnp.eye(3)`, `jnp.linspace(0, "
        "1, 5)`): `x[11]`, `x[0, 7]`, `x.at[11].set(v)`, `x.at[11].get()` and `jnp.take(x, "
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
    example = "```python\nx = jnp.arange(10)\nlast = x[10]\nx = x.at[10].set(0)\n```"
    use_instead = "```python\nx = jnp.arange(10)\nlast = x[9]  # or x[-1]\nx = x.at[9].set(0)\n```\n\nTo check indices that are only known at run time, use `jax.experimental.checkify` with `errors=checkify.index_checks`."
    fix_safety = "No automatic fix: the intended index is unknown."
    VALID = [
        Valid("import jax.numpy as jnp\n\nx = jnp.arange(10)\na = x[9] + x[-10] + x[2:20]\ny = x.at[9].set(0)\nz = jnp.take(x, 3)\n"),
        Valid("import jax.numpy as jnp\n\nm = jnp.zeros((3, 4))\nv = m[2, 3] + m[..., 5 - 2] + m[:, 0]\n"),
        # shape unknown: an argument
        Valid("import jax.numpy as jnp\n\ndef f(x):\n    return x[11]\n"),
        # rebinding to something of unknown shape
        Valid("import jax.numpy as jnp\n\nx = jnp.arange(3)\nx = jnp.concatenate([x, x, x, x])\ny = x[11]\n"),
    ]
    INVALID = [
        Invalid(
            "import jax.numpy as jnp\n\nx = jnp.arange(10)\nprint(x[11], x[-11])\n",
            expected=[(4, 9), (4, 16)],
            message_contains="clamp",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(v):\n    buf = jnp.zeros((4, 3))\n    buf = buf.at[1, 3].set(v)\n    return jnp.take(jnp.arange(10.0), 10) + buf\n",
            expected=[(7, 21), (8, 39)],
        ),
        Invalid(
            "import jax.numpy as jnp\n\nw = jnp.array([[1, 2], [3, 4]])\nprint(w[2][0])\n",
            expected=[(4, 9)],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._skip: set[int] = set()

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._skip.add(id(t.target))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._skip.add(id(node.target))

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
            i = int_value(s.value)
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
        pos = positional_args(node)
        arr = arg_at(node, 0, "a")
        idx = arg_at(node, 1, "indices")
        if arr is None or idx is None or keyword_arg(node, "mode") is not None:
            return
        shape = self._shape(arr)
        i = int_value(idx)
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


# --------------------------------------------------------------------------- JAX122
_INT_DTYPES = frozenset({"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "int", "uint"})


class UnsafeFloatToIntCast(Rule):
    code = "JAX122"
    name = "unsafe-float-to-int-cast"
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
    example = "```python\nimg = jax.nn.sigmoid(logits) * 256\npixels = img.astype(jnp.uint8)\n```"
    use_instead = "Make the range explicit:\n\n```python\npixels = jnp.clip(jnp.round(img), 0, 255).astype(jnp.uint8)\n```"
    fix_safety = "No automatic fix: the intended range handling (clip, wrap with `%`, NaN policy) is a choice."
    VALID = [
        Valid("import jax.numpy as jnp\n\nx = jnp.arange(254., 258.)\ny = jnp.clip(jnp.round(x), 0, 255).astype(jnp.uint8)\n"),
        Valid("import jax.numpy as jnp\n\ni = jnp.arange(10).astype(jnp.uint8)\nf = jnp.linspace(0., 1., 5).astype(jnp.float16)\n"),
        Valid("import jax.numpy as jnp\n\ndef f(x):\n    return x.astype(jnp.int32)\n"),
    ]
    INVALID = [
        Invalid(
            "import jax.numpy as jnp\n\nx = jnp.arange(254., 258.)\nprint(x.astype(jnp.uint8), x.astype('int8'))\n",
            expected=[(4, 7), (4, 28)],
            message_contains="saturate",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\ndef to_pixels(logits):\n    img = jax.nn.sigmoid(logits) * 256\n    return jnp.asarray(img, dtype=jnp.uint8)\n",
            expected=[(6, 12)],
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


# --------------------------------------------------------------------------- JAX123
class LateX64Enable(Rule):
    code = "JAX123"
    name = "x64-enabled-late"
    summary = "`jax.config.update('jax_enable_x64', True)` after module-level code already made JAX arrays"
    severity = Severity.WARNING
    seed = "The Sharp Bits § Double (64bit) precision (seed 000)"
    what_it_does = (
        "Flags a module-level `jax.config.update(\"jax_enable_x64\", True)` that comes after "
        "module-level statements which already created JAX arrays or ran `jax.numpy`, "
        "`jax.lax` or `jax.random` computations."
    )
    why_bad = (
        "The seed says x64 \"only works on startup\"; current JAX (0.10, 0.12) accepts the "
        "switch at any time without a warning, which is the trap: arrays made before it stay "
        "32-bit (`x.dtype` is `float32`), arrays made after are 64-bit, mixing them promotes "
        "to 64-bit, and a function jitted on the old arrays retraces for the new ones. Results "
        "silently have mixed precision."
    )
    example = "```python\nimport jax\nimport jax.numpy as jnp\n\nx = jnp.ones(3)\njax.config.update(\"jax_enable_x64\", True)\n```"
    use_instead = "Enable x64 first, right after importing JAX (or set `JAX_ENABLE_X64=1` in the environment):\n\n```python\nimport jax\njax.config.update(\"jax_enable_x64\", True)\nimport jax.numpy as jnp\n\nx = jnp.ones(3)\n```"
    fix_safety = "No automatic fix: moving the statement changes the dtypes of everything created before it."
    VALID = [
        Valid("import jax\nimport jax.numpy as jnp\n\njax.config.update(\"jax_enable_x64\", True)\nx = jnp.ones(3)\n"),
        # only functions defined before
        Valid("import jax\nimport jax.numpy as jnp\n\ndef f(x):\n    return jnp.sin(x)\n\njax.config.update(\"jax_enable_x64\", True)\nprint(f(jnp.ones(3)))\n"),
        # dtype queries are not computations
        Valid("import jax\nimport jax.numpy as jnp\n\nEPS = jnp.finfo(jnp.float32).eps\njax.config.update(\"jax_enable_x64\", True)\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\nx = jnp.ones(3)\njax.config.update(\"jax_enable_x64\", True)\ny = x + 1\n",
            expected=[(5, 1)],
            message_contains="line 4",
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._first: Optional[cst.CSTNode] = None
        self._x64: Optional[set[int]] = None

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if not ctx.unit.is_module:
            return
        if self._x64 is None:
            self._x64 = {id(n) for n in ctx.index.x64_nodes}
        if id(node) in self._x64:
            if self._first is not None:
                self.report(
                    node,
                    "x64 is enabled after JAX arrays were already created at line {related_line}: "
                    "arrays made before this point stay 32-bit while later ones are 64-bit. Enable "
                    "x64 right after importing jax",
                    related=self._first,
                )
            return
        if self._first is not None:
            return
        q = ctx.qualname(node.func)
        if not q or not q.startswith(apis.ARRAY_MODULES) or q in apis.STATIC_RESULT_FUNCS:
            return
        if q.rsplit(".", 1)[1] in ("PRNGKey", "key", "finfo", "iinfo", "dtype"):
            return
        self._first = node
