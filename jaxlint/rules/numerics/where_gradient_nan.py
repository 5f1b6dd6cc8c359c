"""JAX120 where-gradient-nan: `jnp.where(cond, log(x), c)`: the masked branch still runs, and its infinite derivative makes the gradient NaN."""

from __future__ import annotations

import ast
import math
from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Replacement, Rule, Valid, fix
from jaxlint.findings import Applicability, Severity
from jaxlint.model.optimizer_triples import optimizer_update
from jaxlint.model import nograd
from jaxlint.model import values as V
from jaxlint.model.gradtrace import DIFFERENTIATING, in_reverse_mode
from jaxlint.model.units import Unit
from jaxlint.model.walk import descendants, dotted_name, int_value, positional_args, walk_tree


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
    # overflow to inf for a large input (float32: above about 88), with an infinite derivative
    "jax.numpy.exp": 0.0,
    "jax.numpy.expm1": 0.0,
    "jax.numpy.exp2": 0.0,
    "jax.numpy.cosh": 0.0,
    "jax.numpy.sinh": 0.0,
    "jax.lax.exp": 0.0,
    "jax.lax.expm1": 0.0,
    "jax.lax.exp2": 0.0,
    "jax.lax.cosh": 0.0,
    "jax.lax.sinh": 0.0,
    # (nanD breadth, each checked on jax 0.10.2 as `grad(lambda x: jnp.where(cond, f(x), 0.))`
    # at the point: NaN there, 0 beyond it where noted)
    "jax.numpy.log1p": 0.0,  # at -1 (below: 0)
    "jax.lax.log1p": 0.0,
    "jax.numpy.arctanh": 0.0,  # at 1 and -1 (beyond: 0)
    "jax.lax.atanh": 0.0,
    "jax.numpy.arccosh": 2.0,  # where |x| <= 1 (at -3: 0)
    "jax.lax.acosh": 2.0,
    "jax.numpy.cbrt": 1.0,  # at 0 (at -1: 0)
    "jax.lax.cbrt": 1.0,
    "jax.lax.reciprocal": 1.0,  # at 0
    "jax.scipy.special.entr": 1.0,  # at 0
    "jax.scipy.special.gammaln": 1.0,  # at 0, -1, -2... (at -0.5: 0)
    "jax.lax.lgamma": 1.0,
}
# the singular set of each function (see _SINGULAR_POINTS); the rest: 0 and below
_SINGULAR_KIND = {
    "jax.numpy.reciprocal": "zero",
    "jax.numpy.arccos": "unit",
    "jax.numpy.arcsin": "unit",
    "jax.lax.acos": "unit",
    "jax.lax.asin": "unit",
    **{f"jax.{m}.{f}": "overflow" for m in ("numpy", "lax") for f in ("exp", "expm1", "exp2")},
    **{f"jax.{m}.{f}": "overflow_both" for m in ("numpy", "lax") for f in ("cosh", "sinh")},
    "jax.numpy.log1p": "minus_one",
    "jax.lax.log1p": "minus_one",
    "jax.numpy.arctanh": "unit_only",
    "jax.lax.atanh": "unit_only",
    "jax.numpy.arccosh": "unit_in",
    "jax.lax.acosh": "unit_in",
    "jax.numpy.cbrt": "zero",
    "jax.lax.cbrt": "zero",
    "jax.lax.reciprocal": "zero",
    "jax.scipy.special.entr": "zero",
    "jax.scipy.special.gammaln": "poles",
    "jax.lax.lgamma": "poles",
}
# norms whose default (2-norm, Frobenius) is a sqrt of a sum of squares: NaN gradient at
# the zero vector (checked on jax 0.10.2; ord=1 and ord=inf are not singular there, nor
# optax.safe_norm)
_EUCLIDEAN_NORMS = frozenset({"jax.numpy.linalg.norm", "jax.numpy.linalg.vector_norm",
                              "jax.numpy.linalg.matrix_norm"})


def _euclidean_order(ctx, call: cst.Call) -> bool:
    """No `ord`, `ord=None` or `"fro"` (the second positional argument of `norm`), or
    `ord=2` where that is the Euclidean norm of vectors: `vector_norm`, `norm` with an
    integer `axis`.  (`ord=2` of a matrix is its largest singular value, whose gradient
    at the zero matrix is finite: `matrix_norm(m, ord=2)`, `norm(m, ord=2)`.)"""
    q = ctx.qualname(call.func)
    pos = positional_args(call)
    order = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "ord"),
                 pos[1].value if len(pos) > 1 and q == "jax.numpy.linalg.norm" else None)
    if order is None:
        return True
    if isinstance(order, cst.Name) and order.value == "None":
        return True
    if isinstance(order, cst.Integer):
        if order.value != "2" or q == "jax.numpy.linalg.matrix_norm":
            return False
        if q == "jax.numpy.linalg.vector_norm":
            return True
        axis = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "axis"),
                    pos[2].value if len(pos) > 2 else None)
        if isinstance(axis, cst.UnaryOperation) and isinstance(axis.operator, cst.Minus):
            axis = axis.expression
        return isinstance(axis, cst.Integer)
    if isinstance(order, cst.SimpleString):
        return order.evaluated_value == "fro"
    return False


# norms of a whole pytree: the root of a sum of squares, NaN gradient at all zeros
# (jax 0.10.2: grad of optax.global_norm(t) ** 2 at zeros is NaN)
_GLOBAL_NORMS = frozenset({"optax.global_norm", "optax.tree_utils.tree_l2_norm", "optax.tree.norm"})
_SQUARE_FUNCS = frozenset({"jax.numpy.square", "jax.lax.square"})
_EYES = frozenset({"jax.numpy.eye", "jax.numpy.identity", "numpy.eye", "numpy.identity"})
_NORM_POWERS = _SQUARE_FUNCS | {"jax.numpy.power", "jax.numpy.float_power", "jax.lax.pow", "jax.lax.integer_pow"}


def _squared(ctx, e: cst.CSTNode) -> bool:
    """``v ** 2``, ``jnp.square(v)``, ``v * v``, ``jnp.abs(v) ** 2``."""
    if isinstance(e, cst.BinaryOperation):
        if isinstance(e.operator, cst.Power):
            return isinstance(e.right, cst.Integer) and e.right.value == "2"
        if isinstance(e.operator, cst.Multiply):
            return ctx.code(e.left).strip() == ctx.code(e.right).strip()
        return False
    if isinstance(e, cst.Call) and len(e.args) == 1 and not e.args[0].star:
        return ctx.qualname(e.func) in _SQUARE_FUNCS
    return False


def _sum_of_squares(ctx, e: cst.CSTNode) -> bool:
    """``jnp.sum(v ** 2)`` (any `axis=`), ``jnp.sum(jnp.square(v))``, ``(v ** 2).sum()``,
    ``jnp.dot(v, v)``, ``jnp.vdot(v, v)``, ``v @ v``: 0 exactly at the zero vector."""
    if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, cst.MatrixMultiply):
        return _plain(e.left) and ctx.code(e.left).strip() == ctx.code(e.right).strip()
    if not isinstance(e, cst.Call):
        return False
    q = ctx.qualname(e.func) or ""
    pos = positional_args(e)
    if q == "jax.numpy.sum" and pos:
        return _squared(ctx, pos[0].value)
    if q in ("jax.numpy.dot", "jax.numpy.vdot", "jax.numpy.inner") and len(pos) == 2 and len(e.args) == 2:
        return _plain(pos[0].value) and ctx.code(pos[0].value).strip() == ctx.code(pos[1].value).strip()
    if isinstance(e.func, cst.Attribute) and e.func.attr.value == "sum" and not pos:
        return _squared(ctx, e.func.value)
    return False


_POWER = ("jax.numpy.power", "jax.numpy.float_power", "jax.lax.pow", "jax.lax.integer_pow")
_DIVIDE = ("jax.numpy.divide", "jax.numpy.true_divide", "jax.lax.div")
_GUARDS = frozenset(
    {"jax.numpy.where", "jax.lax.select", "jax.numpy.maximum", "jax.numpy.clip", "jax.numpy.fmax",
     "jax.lax.max", "jax.lax.clamp", "jax.numpy.nan_to_num", "jax.numpy.abs"}
)


# points where each kind of branch function has an infinite/NaN derivative (samples of
# its singular set): `log`/`sqrt`/fractional powers at 0 and below, a division at 0,
# `arcsin`/`arccos` at +-1 and beyond
_SINGULAR_POINTS = {
    "everywhere": (),  # `x * jnp.inf`: an infinite derivative at every point
    "nonpositive": (0.0, -1e-30, -1.0, -1e30),
    "zero": (0.0,),
    "unit": (1.0, -1.0, 2.0, -2.0),
    "unit_only": (1.0, -1.0),  # `arctanh`: finite derivative beyond ±1
    "unit_in": (1.0, 0.5, 0.0, -0.5, -1.0),  # `arccosh`: NaN derivative for |x| < 1, inf at ±1
    "minus_one": (-1.0,),  # `log1p`: finite derivative below -1
    "poles": (0.0, -1.0, -2.0),  # `gammaln`: 0 and the negative integers
    # `exp`/`expm1`/`cosh`/`sinh` overflow to inf above about 88 (float32; 709 in float64), and
    # so does their derivative: a branch masked out for every large input gets 0 * inf
    "overflow": (1e30,),
    "overflow_both": (1e30, -1e30),
}
_OVERFLOW = frozenset({"overflow", "overflow_both"})
# is the derivative of a function of this kind infinite/NaN at value v of its input?
_SINGULAR_TEST = {
    "nonpositive": lambda v: v <= 0,
    "zero": lambda v: v == 0,
    "unit": lambda v: abs(v) >= 1,
    "unit_only": lambda v: abs(v) == 1,
    "unit_in": lambda v: abs(v) <= 1,
    "minus_one": lambda v: v == -1,
    "poles": lambda v: v <= 0 and v == int(v),
}
# functions whose values lie in a small interval, so `exp` of them cannot overflow
_BOUNDED = frozenset(
    [f"jax.nn.{f}" for f in ("sigmoid", "hard_sigmoid", "softmax", "log_sigmoid", "hard_tanh", "soft_sign")]
    + [f"jax.numpy.{f}" for f in ("tanh", "sin", "cos", "clip", "sign", "arctan", "cos", "sin")]
    + ["jax.scipy.special.expit", "jax.scipy.special.erf", "jax.lax.clamp", "jax.numpy.clip"])
# functions whose derivative is zero (or that JAX does not differentiate): their
# results carry no tangent, whatever their inputs
_NO_TANGENT = frozenset(
    f"jax.numpy.{n}" for n in (
        "sign floor ceil round rint trunc fix argmax argmin argsort nonzero isnan isfinite isinf isclose "
        "logical_and logical_or logical_not logical_xor equal not_equal greater greater_equal less less_equal "
        "array_equal allclose zeros ones empty full zeros_like ones_like empty_like arange eye identity "
        "tri tril_indices triu_indices indices heaviside searchsorted digitize bincount count_nonzero "
        "sort_complex signbit floor_divide"
    ).split()
) | frozenset({"jax.lax.stop_gradient", "jax.lax.sign", "jax.lax.floor", "jax.lax.ceil", "jax.lax.round",
               "jax.lax.iota", "jax.lax.broadcasted_iota", "jax.lax.argmax", "jax.lax.argmin",
               "jax.nn.one_hot"})
# methods of an array that are functions of its values (and their own arguments) only
_ARRAY_METHODS = frozenset(
    "astype sum mean max min prod cumsum reshape transpose squeeze ravel flatten any all clip "
    "round T swapaxes repeat take".split()
)
_SMALL = 1e-6  # the value assumed for `eps`-like thresholds (small and positive)


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


# functions singular at 0 only: their derivative (1/x, 1/(x ln 2), ...) is finite for a
# negative input, where the value is NaN but the masked gradient is 0 (checked on jax 0.10.2)
_SINGULAR_AT_ZERO = frozenset({"jax.numpy.log", "jax.numpy.log2", "jax.numpy.log10", "jax.lax.log",
                               "jax.numpy.reciprocal", "jax.numpy.cbrt", "jax.lax.cbrt"})


def _exponent(e: cst.CSTNode) -> Optional[float]:
    """The number a power's exponent is written as (``-1``, ``0.5``, ``1/3``), or None."""
    try:
        return float(ast.literal_eval(cst.Module([]).code_for_node(e)))
    except (ValueError, SyntaxError, TypeError):
        return None


def _singular_where(ctx, op_node: cst.CSTNode, key: str, kind: str) -> str:
    """Where the derivative of ``op_node``, a function of ``key``, is infinite or NaN, as
    the model knows it: ``log`` and a division at 0 only (finite for a negative input),
    ``sqrt`` and a power below 1 at 0 and below, a power above 1 below 0, ``arcsin`` at
    1 and -1 and beyond.  (jax 0.10.2: ``grad(lambda x: where(False, log(x), 0.))(-1.)``
    is 0, at 0 NaN; the ``sqrt`` twin is NaN at -1 too.)"""
    if kind == "zero":
        return f"where `{key}` is 0"
    if kind == "unit":
        return f"where `{key}` is 1 or -1, or beyond"
    if kind == "unit_only":
        return f"where `{key}` is 1 or -1"
    if kind == "unit_in":
        return f"where `{key}` is between -1 and 1"
    if kind == "minus_one":
        return f"where `{key}` is -1"
    if kind == "poles":
        return f"where `{key}` is 0 or a negative integer"
    if kind != "nonpositive":
        return "there"
    q = ctx.qualname(op_node.func) if isinstance(op_node, cst.Call) else None
    if q in _SINGULAR_AT_ZERO:
        return f"where `{key}` is 0"
    exponent = None
    if isinstance(op_node, cst.BinaryOperation) and isinstance(op_node.operator, cst.Power):
        exponent = _exponent(op_node.right)
    elif isinstance(op_node, cst.Call) and len(op_node.args) == 2:
        exponent = _exponent(op_node.args[1].value)
    if exponent is not None and exponent < 0 and exponent == int(exponent):
        return f"where `{key}` is 0"  # `x ** -1`: a division
    if exponent is not None and exponent > 1:
        return f"where `{key}` is negative"  # `x ** 1.5`: 0 is fine
    return f"where `{key}` is 0 or negative"


def _fmt(v: float) -> str:
    return repr(float(v))


# reductions whose `where=` drops elements (after their argument was computed for all)
_MASKED_REDUCTIONS = frozenset("jax.numpy." + n for n in (
    "sum", "mean", "prod", "nansum", "nanmean", "nanprod", "var", "std", "nanvar", "nanstd"))
_CMP_FUNCS = frozenset(
    "jax.numpy." + n for n in ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal", "isclose")
) | frozenset("jax.lax." + n for n in ("lt", "le", "gt", "ge", "eq", "ne"))
_BOOL_FUNCS = frozenset(
    {"jax.numpy.logical_and", "jax.numpy.logical_or", "jax.numpy.logical_not", "jax.lax.bitwise_and",
     "jax.lax.bitwise_or", "jax.lax.bitwise_not", "jax.lax.and_", "jax.lax.or_", "jax.lax.not_"}
)
_SMALL_WORDS = ("eps", "tiny", "small", "tol", "thresh", "min")


_CONST_LIKE = frozenset({"jax.lax._const", "jax.lax._const_like"})
_ARRAY_MAKERS = frozenset({"numpy.array", "numpy.asarray", "jax.numpy.array", "jax.numpy.asarray",
                           "jax.numpy.full_like", "numpy.full_like"})


def _made_constant(ctx, e: cst.CSTNode) -> Optional[cst.BaseExpression]:
    """The number a constant-making helper turns into an array: JAX's own
    ``lax._const(x, 0)``, or a function of this file each of whose `return`s builds an
    array of one of its parameters (``def _constant_like(x, c): return np.array(c,
    dtype=...)``, called ``_constant_like(x, 0)``): the argument given for that parameter."""
    if not isinstance(e, cst.Call) or any(a.star for a in e.args):
        return None
    q = ctx.qualname(e.func)
    pos = positional_args(e)
    if q in _CONST_LIKE:
        return pos[1].value if len(pos) == 2 else None
    if not isinstance(e.func, cst.Name):
        return None
    v = ctx.lookup(e.func.value)
    unit = v.unit if v is not None else None
    if unit is None or not isinstance(unit.node, cst.FunctionDef) or not unit.returns:
        return None
    which = None
    for r in unit.returns:
        if not isinstance(r, cst.Call) or ctx.qualname(r.func) not in _ARRAY_MAKERS:
            return None
        rpos = positional_args(r)
        k = 1 if (ctx.qualname(r.func) or "").endswith("full_like") else 0
        if len(rpos) <= k or not isinstance(rpos[k].value, cst.Name):
            return None
        name = rpos[k].value.value
        if which not in (None, name):
            return None
        which = name
    positional = [p.name for p in unit.positional()]
    if which not in positional or len(pos) != len(e.args):
        return None
    i = positional.index(which)
    return pos[i].value if i < len(pos) else None


def _small_call(ctx, e: cst.CSTNode) -> bool:
    """A call of a function named for a small constant (``get_epsilon(dtype)``, ``eps()``)."""
    if not isinstance(e, cst.Call):
        return False
    last = (dotted_name(e.func) or "").rsplit(".", 1)[-1].lower()
    return bool(last) and any(w in last for w in _SMALL_WORDS if w != "min")


def _thresholdish(ctx, e: cst.CSTNode) -> bool:
    """A numeric literal or a small-constant-looking value (``eps``, ``finfo(...).tiny``)."""
    if isinstance(e, (cst.Integer, cst.Float)):
        return True
    if _small_call(ctx, e):
        return True
    made = _made_constant(ctx, e)
    if made is not None:
        return _thresholdish(ctx, made)
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


_ABS = frozenset({"jax.numpy.abs", "jax.numpy.absolute", "jax.lax.abs"})


def _unabs(ctx, e: cst.CSTNode) -> cst.CSTNode:
    """``jnp.abs(w)`` -> ``w`` (a test of ``|w|`` against a threshold tests ``w``)."""
    if isinstance(e, cst.Call) and ctx.qualname(e.func) in _ABS:
        pos = positional_args(e)
        if len(pos) == 1 and len(e.args) == 1:
            return pos[0].value
    return e


def _exprs_in(ctx, e: cst.CSTNode, res=None) -> set[str]:
    """Source texts of the values that ``e`` compares with a threshold (``x > 0``,
    ``x != 0``, ``d < eps``, ``lax.lt(a, full_like(a, small))``, ``jnp.abs(w) < eps``),
    through ``&``/``|``/``~`` and (with ``res``) a name bound to such a test."""
    out: set[str] = set()
    stack = [e]
    seen = 0
    while stack:
        n = stack.pop()
        pairs: list[tuple[cst.CSTNode, cst.CSTNode]] = []
        if isinstance(n, cst.Name) and res is not None and seen < 8:
            seen += 1
            bound = res(n)
            if bound is not None:
                stack.append(bound)
            continue
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
                x = _unabs(ctx, x)
                if _plain(x) and _thresholdish(ctx, y):
                    out.add(ctx.code(x).strip())
    return out


def _number(ctx, e: cst.CSTNode, key: str, at: float):
    """The value of ``e`` when the expression ``key`` equals ``at``: literals,
    ``eps``-like names (small positive), ``abs``/negation of those; None if unknown."""
    if ctx.code(e).strip() == key:
        return at
    if isinstance(e, (cst.Integer, cst.Float)):
        try:
            return float(e.value)
        except ValueError:
            return None
    if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Minus):
        v = _number(ctx, e.expression, key, at)
        return None if v is None else -v
    if isinstance(e, (cst.Name, cst.Attribute)):
        last = (e.value if isinstance(e, cst.Name) else e.attr.value).lower()
        return _SMALL if any(w in last for w in _SMALL_WORDS) else None
    if _small_call(ctx, e):
        return _SMALL
    made = _made_constant(ctx, e)
    if made is not None:
        return _number(ctx, made, key, at)
    if isinstance(e, cst.Call):
        q = ctx.qualname(e.func) or ""
        pos = positional_args(e)
        if q in ("jax.numpy.abs", "jax.numpy.absolute", "jax.lax.abs") and len(pos) == 1:
            v = _number(ctx, pos[0].value, key, at)
            return None if v is None else abs(v)
        if q.endswith(("zeros_like", ".zeros")):
            return 0.0
        if q.endswith(("full_like", ".full")) and len(pos) >= 2:
            return _number(ctx, pos[1].value, key, at)
        if (q.endswith((".asarray", ".array")) or q.startswith(("jax.numpy.float", "jax.numpy.int"))) and pos:
            return _number(ctx, pos[0].value, key, at)
    return None


_OPS = {
    cst.LessThan: lambda a, b: a < b, cst.LessThanEqual: lambda a, b: a <= b,
    cst.GreaterThan: lambda a, b: a > b, cst.GreaterThanEqual: lambda a, b: a >= b,
    cst.Equal: lambda a, b: a == b, cst.NotEqual: lambda a, b: a != b,
}
_CMP_OPS = {
    "less": _OPS[cst.LessThan], "lt": _OPS[cst.LessThan], "less_equal": _OPS[cst.LessThanEqual],
    "le": _OPS[cst.LessThanEqual], "greater": _OPS[cst.GreaterThan], "gt": _OPS[cst.GreaterThan],
    "greater_equal": _OPS[cst.GreaterThanEqual], "ge": _OPS[cst.GreaterThanEqual],
    "equal": _OPS[cst.Equal], "eq": _OPS[cst.Equal], "not_equal": _OPS[cst.NotEqual], "ne": _OPS[cst.NotEqual],
}


def _truth(ctx, cond: cst.CSTNode, key: str, at: float, res=None, depth: int = 0):
    """Three-valued truth of a `where` condition at the point ``key == at`` (with
    ``res``, a name bound to a test is that test)."""
    if isinstance(cond, cst.Name) and res is not None and depth < 8:
        bound = res(cond)
        return None if bound is None else _truth(ctx, bound, key, at, res, depth + 1)

    def cmp(op, a, b):
        x, y = _number(ctx, a, key, at), _number(ctx, b, key, at)
        return None if x is None or y is None else op(x, y)

    if isinstance(cond, cst.Comparison):
        result, left = True, cond.left
        for c in cond.comparisons:
            op = _OPS.get(type(c.operator))
            r = None if op is None else cmp(op, left, c.comparator)
            if r is False:
                return False
            if r is None:
                result = None
            left = c.comparator
        return result
    if isinstance(cond, cst.BinaryOperation) and isinstance(cond.operator, (cst.BitAnd, cst.BitOr)):
        a, b = _truth(ctx, cond.left, key, at, res, depth + 1), _truth(ctx, cond.right, key, at, res, depth + 1)
        if isinstance(cond.operator, cst.BitAnd):
            return False if False in (a, b) else (True if a is b is True else None)
        return True if True in (a, b) else (False if a is b is False else None)
    if isinstance(cond, cst.UnaryOperation) and isinstance(cond.operator, cst.BitInvert):
        a = _truth(ctx, cond.expression, key, at, res, depth + 1)
        return None if a is None else not a
    if isinstance(cond, cst.Call):
        q = ctx.qualname(cond.func) or ""
        pos = positional_args(cond)
        short = q.rsplit(".", 1)[-1]
        if q in _CMP_FUNCS and short in _CMP_OPS and len(pos) == 2:
            return cmp(_CMP_OPS[short], pos[0].value, pos[1].value)
        if q in _BOOL_FUNCS and pos:
            vals = [_truth(ctx, a.value, key, at, res, depth + 1) for a in pos]
            if short in ("logical_not", "bitwise_not", "not_"):
                return None if vals[0] is None else not vals[0]
            if short in ("logical_and", "bitwise_and", "and_"):
                return False if False in vals else (True if all(v is True for v in vals) else None)
            return True if True in vals else (False if all(v is False for v in vals) else None)
    return None


_SCOPE_NODES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


_NUMBER_TYPES = frozenset({"float", "int", "bool", "str"})
_PLAIN_DATACLASS = frozenset({"dataclasses.dataclass", "jax.tree_util.register_static"})


def _number_field(ctx, p, attr: str) -> bool:
    """Is ``p.attr`` a number: ``p`` annotated with a plain ``@dataclasses.dataclass`` of
    this file (not a pytree: no other decorator, no base) whose field ``attr`` is annotated
    ``float``/``int``/``bool``/``str``?  A plain dataclass is a leaf JAX cannot trace into:
    its fields are the Python values it was built with."""
    ann = p.annotation
    if not ann:
        return False
    name = ann.rsplit(".", 1)[-1]
    for c in ctx.index.classes:
        node = c.node
        if c.name != name or node.bases:
            continue
        decorators = {ctx.qualname(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator)
                      for d in node.decorators}
        # (`jax.tree_util.register_static`: a pytree without leaves, its fields static)
        if "dataclasses.dataclass" not in decorators or not decorators <= _PLAIN_DATACLASS:
            return False
        for line in node.body.body:
            if isinstance(line, cst.SimpleStatementLine):
                for small in line.body:
                    if (isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name)
                            and small.target.value == attr):
                        a = small.annotation.annotation
                        return isinstance(a, cst.Name) and a.value in _NUMBER_TYPES
        return False
    return False


def _flag_or_name_param(p) -> bool:
    """A parameter that holds a string, a flag or an integer: annotated ``str``/``bool``/
    ``int`` (`jax.grad` raises for an integer argument: no derivative reaches it; a count
    such as ``num_dims: int``), or with a string or ``True``/``False`` default."""
    if p is None:
        return False
    if p.annotation in ("str", "bool", "int", "builtins.str", "builtins.bool", "builtins.int"):
        return True
    d = p.default
    return isinstance(d, (cst.SimpleString, cst.ConcatenatedString)) or (
        isinstance(d, cst.Name) and d.value in ("True", "False"))


_NUMBER_CMP = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual, cst.Equal, cst.NotEqual)


def _compared_names(test: cst.BaseExpression) -> set[str]:
    """The names a Python test compares with a number, alone or in arithmetic
    (``cutoff == 0.0``, ``kernel_size % 2 == 0``, ``0 < p < 1``, through ``not`` and the
    first operand of ``and``/``or``, which always runs); not ``x is None``, ``x in ...``,
    ``x.shape[0] == 3`` nor ``len(x) > 0``."""
    out: set[str] = set()

    def number(e: cst.CSTNode) -> bool:
        if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, (cst.Minus, cst.Plus)):
            return number(e.expression)
        return isinstance(e, (cst.Integer, cst.Float))

    def arith_names(e: cst.CSTNode, acc: list[str]) -> bool:
        if isinstance(e, cst.Name):
            acc.append(e.value)
            return True
        if number(e):
            return True
        if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, (cst.Minus, cst.Plus)):
            return arith_names(e.expression, acc)
        if isinstance(e, cst.BinaryOperation) and isinstance(
                e.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo,
                             cst.Power)):
            return arith_names(e.left, acc) and arith_names(e.right, acc)
        return False

    stack = [test]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.BooleanOperation):
            stack.append(n.left)  # (the right operand runs only on some paths: `verbose and x > 1`)
        elif isinstance(n, cst.UnaryOperation) and isinstance(n.operator, cst.Not):
            stack.append(n.expression)
        elif isinstance(n, cst.Comparison):
            left = n.left
            for c in n.comparisons:
                if isinstance(c.operator, _NUMBER_CMP):
                    for a, b in ((left, c.comparator), (c.comparator, left)):
                        acc: list[str] = []
                        if number(b) and arith_names(a, acc):
                            out.update(acc)
                left = c.comparator
    return out


def _names_in(e: cst.CSTNode) -> list[str]:
    """The names an assignment target binds (``a``, ``a, (b, c)``, ``*rest``)."""
    out, stack = [], [e]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Name):
            out.append(n.value)
        elif isinstance(n, (cst.Tuple, cst.List)):
            stack.extend(el.value for el in n.elements)
        elif isinstance(n, cst.StarredElement):
            stack.append(n.value)
    return out


def _arith(e: cst.CSTNode) -> bool:
    """``1 - x ** 2``, ``(x - 1)``: a sum, difference, product or power of names and numbers
    (not a plain name: that is tested as it is), or its negation (``-x``)."""
    if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Minus):
        return _plain(e.expression) or _arith(e.expression)
    if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.Power)):
        def leaf(n: cst.CSTNode) -> bool:
            if isinstance(n, cst.BinaryOperation):
                return isinstance(n.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.Power)) \
                    and leaf(n.left) and leaf(n.right)
            if isinstance(n, cst.UnaryOperation):
                return isinstance(n.operator, (cst.Minus, cst.Plus)) and leaf(n.expression)
            return isinstance(n, (cst.Integer, cst.Float)) or _plain(n)
        return leaf(e)
    return False


def _guarded_input(ctx, e: cst.CSTNode) -> bool:
    """An input already kept off the singular point (`jnp.maximum(s, eps)`, a `where`,
    `x + eps`)."""
    if isinstance(e, cst.Call):
        return ctx.qualname(e.func) in _GUARDS
    if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, cst.Add):
        return _thresholdish(ctx, e.left) or _thresholdish(ctx, e.right)
    return False


def _kept_off_zero(ctx, e: cst.CSTNode, depth: int = 0) -> bool:
    """A value a constant keeps away from zero: `x + eps`, `jnp.maximum(x, 1e-12)`,
    `jnp.clip(x, eps)` (not `jnp.maximum(a, b)` of two values, which may both be 0)."""
    if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, cst.Add):
        return _thresholdish(ctx, e.left) or _thresholdish(ctx, e.right)
    if isinstance(e, cst.Call):
        q = ctx.qualname(e.func) or ""
        pos = positional_args(e)
        if q in ("jax.numpy.maximum", "jax.numpy.fmax", "jax.lax.max") and len(pos) == 2:
            return _thresholdish(ctx, pos[0].value) or _thresholdish(ctx, pos[1].value)
        if q in ("jax.numpy.clip", "jax.lax.clamp") and len(pos) >= 2:
            lo = pos[0].value if q == "jax.lax.clamp" else pos[1].value
            return _thresholdish(ctx, lo) and not (isinstance(lo, (cst.Integer, cst.Float)) and float(
                lo.value.replace("_", "")) == 0.0)
        if q in ("jax.numpy.sqrt", "jax.lax.sqrt") and len(pos) == 1 and depth < 4:
            # the root of a value kept off zero (`jnp.sqrt(jnp.sum(v ** 2) + 1e-12)`, the
            # guarded sum of squares `jnp.sqrt(jnp.where(sq > 0, sq, 1.0))`)
            return _kept_off_zero(ctx, pos[0].value, depth + 1)
        if q == "jax.numpy.where" and len(pos) == 3 and depth < 4:
            # each branch nonzero where it is selected: a positive constant, a value kept off
            # zero, or the value the condition selects only where it is not 0 (`sq > 0`)
            def nonzero(branch: cst.CSTNode, side: int) -> bool:
                if isinstance(branch, (cst.Integer, cst.Float)):
                    return float(branch.value.replace("_", "")) != 0.0
                if _kept_off_zero(ctx, branch, depth + 1):
                    return True
                return _plain(branch) and _truth(ctx, pos[0].value, ctx.code(branch).strip(), 0.0) is (side == 2)
            return nonzero(pos[1].value, 1) and nonzero(pos[2].value, 2)
    return False


_INFINITIES = frozenset({"jax.numpy.inf", "numpy.inf", "math.inf", "jax.numpy.PINF", "numpy.PINF"})


def _infinite(ctx, e: cst.CSTNode) -> bool:
    """``jnp.inf``, ``np.inf``, ``math.inf``, ``float("inf")`` (negated too)."""
    if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Minus):
        return _infinite(ctx, e.expression)
    if isinstance(e, (cst.Attribute, cst.Name)):
        return ctx.qualname(e) in _INFINITIES
    if isinstance(e, cst.Call) and ctx.builtin_name(e.func) == "float" and len(e.args) == 1 \
            and isinstance(e.args[0].value, cst.SimpleString):
        return e.args[0].value.evaluated_value.strip().lower() in ("inf", "+inf", "infinity")
    return False


def _where_calls_in(ctx, e: cst.CSTNode) -> list[cst.Call]:
    """The `jnp.where`/`lax.select` calls inside ``e`` (not inside lambdas)."""
    return [n for n in walk_tree(e, lambda n: isinstance(n, cst.Lambda))
            if isinstance(n, cst.Call) and ctx.qualname(n.func) in ("jax.numpy.where", "jax.lax.select")]


class WhereGradientNaN(Rule):
    code = "JAX120"
    name = "where-gradient-nan"
    runtime_check = '`jax.grad` at the boundary point (argument = 0): confirmed when the gradient is NaN while the value is finite; `jaxlint bench` compares the fix on gradients.'
    summary = "`jnp.where(cond, log(x), c)`: the masked branch still runs, and its infinite derivative makes the gradient NaN"
    severity = Severity.WARNING
    seed = "FAQ § Gradients contain NaN where using `where` (seeds 001, 004)"
    what_it_does = (
        "Flags a 3-argument `jnp.where(cond, a, b)` (or `lax.select`) where a branch applies a "
        "function that is singular on the masked side (`log`, `log2`, `log10`, `sqrt`, "
        "`rsqrt`, `reciprocal`, `arcsin`, `arccos`, `log1p` (at -1), `arctanh` (at ±1), "
        "`arccosh` (between -1 and 1), `cbrt` (at 0), `jax.scipy.special.gammaln` and "
        "`lax.lgamma` (at 0 and the negative integers), `jax.scipy.special.entr` (at 0), a "
        "fractional or negative power (`lax.integer_pow(x, -2)` too), or a "
        "division `a / x`, or a function of the same module that applies one of those to a "
        "parameter, unguarded: `def _knu(nu, x): return jnp.sqrt(jnp.pi / (2.0 * x)) ...` called "
        "as `_knu(beta, k)`) to a variable that the condition tests (`jnp.where(x > 0, "
        "jnp.log(x), 0.)`), unless that argument is itself guarded (`jnp.log(jnp.where(x > 0, "
        "x, 1.))`, `jnp.maximum`, `jnp.clip`). It reports only when the function's singular "
        "point (0 and below for `log`/`sqrt`/fractional powers, 0 for a division, ±1 for "
        "`arcsin`/`arccos`) can lie where the branch is masked out, by this `where` or by an "
        "enclosing one: `jnp.where(norm > 1.0, 1.0, 1.0 / norm)` is quiet (the division is "
        "masked out only where `norm > 1.0`, where it is finite). The condition may be a name "
        "bound once in the function to a test (`positive = x > 0` ... `jnp.where(positive, "
        "jnp.log(x), 0.)`), `jnp.abs(w) < eps` tests `w`, a threshold may come from a function "
        "named for a small constant (`get_epsilon(dtype)`) or a helper that makes an array of "
        "its argument (`lax._const(x, 0)`, `def _const(x, c): return np.array(c, ...)`), and a "
        "divisor (or `log`/`sqrt` argument) that is a constant multiple or a positive integer "
        "power of the tested variable is 0 where it is: `jnp.sin(jnp.pi * x) / (jnp.pi * x)`, "
        "`pi_x = lax.mul(pi, x)` ... `lax.div(lax.sin(pi_x), pi_x)` under `x == 0`. A branch "
        "that divides by `w` while the other branch (selected where this one is masked out) "
        "tests `w` against 0 (`jnp.where(use_taylor, 2.0 / w, jnp.where(jnp.abs(w) < eps, ...))`) "
        "is reported too: the program expects `w` at 0 exactly there (once per branch). A `where` "
        "written over several lines is reported at the singular operation's line, where a "
        "`# noqa` for it goes. The singular input may also be arithmetic of the tested variable "
        "and constants (`jnp.sqrt(1 - x ** 2)` under `x < 1`, `jnp.log(x - 1)` under `x > 1`): it is "
        "evaluated at the condition's thresholds and around them (and at 0, ±1, ±2), and reported "
        "when it is singular at a value the condition masks out (`x = 2` gives `sqrt(-3)`; for "
        "`log`, whose derivative at a negative number is finite, only 0 counts). A branch that is a name computed "
        "on an earlier line of the same function counts too: `y = jnp.log(x)` ... `jnp.where(x > 0, "
        "y, 0.)` (the condition tests the function's input), and `r = jnp.sqrt(s)` ... "
        "`jnp.where(r > 0.5, r, 1.)` (it tests the result, which is 0 where `sqrt` is singular; "
        "so are `jnp.cbrt` and the 2-norm: `n = jnp.linalg.norm(x)` (also `vector_norm`, "
        "`matrix_norm`, with no `ord`, `'fro'`, or `ord=2` of vectors: `vector_norm`, `norm` with "
        "an integer `axis`) then `jnp.where(n == 0., 1., n)`, where the gradient at the zero vector "
        "is NaN; `ord=1`, `ord=inf`, `ord=2` of a matrix (its largest singular value) and "
        "`optax.safe_norm` are not singular there); "
        "an input guarded where it is computed (`jnp.maximum(s, eps)`, a `where`, `s + eps`) is "
        "quiet, also through a name every binding of which a constant keeps off zero (`n = rms(g) + eps`, "
        "`d = jnp.maximum(x, 1e-12)` ... `jnp.where(n > 0, w / n, 1.)`; not `jnp.maximum(a, b)` of two values; "
        "the root of such a value, `n = jnp.sqrt(jnp.sum(v ** 2) + 1e-12)`, the guarded sum of squares "
        "`n = jnp.sqrt(jnp.where(sq > 0, sq, 1.0))`). A divisor bound to a 2-norm or a square root "
        "(`norm = jnp.linalg.norm(h)`, also once in the loop around the `where`) gets the advice to guard "
        "the sum of squares before the root: guarding `norm` leaves the NaN of the root's own derivative. It is checked everywhere, not only in traced code: in a library module, which can be "
        "imported, a caller may apply `grad`, so a public function of a file linted on its own (not "
        "as part of a whole project) is reported (its users may differentiate it). The lines drawn there: in a project "
        "linted whole (its root marked by `pyproject.toml`, `setup.py`...) none of whose files names a "
        "derivative (`grad`, `value_and_grad`, `jvp`, `vjp`, `jacfwd`/`jacrev`, `hessian`, `linearize`, "
        "`custom_vjp`/`custom_jvp`, equinox's `filter_grad`..., flax's `nnx.grad`) or imports a library "
        "that consumes gradients (`optax`, `jaxopt`, `optimistix`, `flax.training`...) or differentiates "
        "what it is given (`numpyro`, `blackjax`, TFP, `jax.scipy.optimize`, `netket`, `flowjax`), and with "
        "no `.py` file under the root left unlinted whose text names a derivative (an `exclude`: what it "
        "does is not known; the `__init__.py` of a root that is itself a package is read the same way), a public "
        "function that the project's own code calls (in its file, or from traced code of another "
        "module) is part of a computation nobody differentiates (a simulator stepped by a "
        "gradient-free search) and is not reported. In a project linted whole that takes derivatives, "
        "a function is reported only where a derivative of the project may reach it: a function given to "
        "`jax.grad` (and the others above, `eqx.filter_grad`, `nnx.grad`, objax's `Grad`) or handed to a "
        "callee that may differentiate it (`fit(loss)`, `jaxopt.LBFGS(fun=loss)`, a decorator other than "
        "`jit`/`vmap`/`property`...), what such a function mentions by name (a function, a method, a "
        "module-level name bound to one), and what Python and the module libraries call on an object "
        "(`__call__`, `__init__`, `setup`) of a class the project mentions anywhere, in any module "
        "(by name: an over-approximation). A function that no derivative reaches and that the project's "
        "own code (not its tests and notebooks) uses stays silent: one called only in code nothing "
        "differentiates (a solver's BFGS update, an environment's jitted step), one that only computes the data "
        "handed to the differentiated loss (`batch = augment(images)` ... `jax.grad(loss)(w, batch)`: "
        "a call's result is data, not a function), one that only transforms gradients after `jax.grad` "
        "(an `update_fn` given to `optax.GradientTransformation`); one the project's own code never uses is "
        "there for its users and is still reported. The `update` of an `(init, update, get_params)` triple "
        "that a function decorated with `jax.example_libraries.optimizers.optimizer` returns (or decorated "
        "with a decorator of the file that unpacks its function's result into three names, a vendored "
        "copy of that module) transforms gradients after `jax.grad` and is not reported, used or not. A `.py` file of the project that the "
        "run read but did not analyse counts every word of its text outside imports as mentioned. In a notebook or a test module (`test_*.py`, "
        "`*_test.py`: run, never imported) it is reported only where a derivative the file takes may reach "
        "it: in a function given to `jax.grad`, `value_and_grad`, `jacrev`, `vjp` (or "
        "a function it mentions), or handed to a callable or decorator that may differentiate it "
        "(`fit(loss)`, an optimizer, a training loop; not a decorated function that returns nothing, a "
        "test under `@set_flag(False)` or `@mock.patch(...)`: it has no output to differentiate); a function given only to `jax.jit`/`jax.vmap` "
        "whose result is only called is not differentiated by that, and a differentiating call on a "
        "function the model cannot place (`jax.grad(step_jit)`, `jax.grad(model.loss)` with no `loss` in "
        "the file) keeps every `where` of the file reported; a method of a class only the test runner makes "
        "(the file never names it) is placed by name like a function, and an attribute read (`op.reference`) "
        "names no function nested in another. A derivative taken only in forward mode (`jax.jacfwd`, "
        "`jax.jvp`, `jax.linearize`, `eqx.filter_jvp`: a Newton solver's Jacobian) reaches no `where` "
        "anywhere: the tangent of `jnp.where` selects the branches' tangents, so the masked one is dropped "
        "(`jax.jacfwd(lambda x: jnp.where(x > 0, jnp.sqrt(x), 0.))(0.)` is 0; `jax.jacrev`, `jax.grad` and "
        "`jax.hessian` of it are NaN); what a factory of the file returns, given to `jax.vjp`, is placed "
        "through the factory. Quiet too: a division whose dividend an earlier line zeroed with a `where` on "
        "the same condition (`s = jnp.where(n == 0, 0., s)` then `jnp.where(n == 0, s, s / n)`, the "
        "jax#1052 workaround), a masked operation that no derivative reaches (its inputs built "
        "only from comparisons, booleans cast to floats, `stop_gradient`, zero-derivative "
        "functions such as `argmax`, `sign`, `floor`, constants, shapes and Python values: "
        "`a = jnp.asarray(a > 0, jnp.float32)` ... `jnp.where(u > 0, i / u, 0)`; a parameter "
        "rebound so only on some paths still counts as differentiable; a function of the module, or imported, "
        "given only such values, `build_laplacian(build_derivative(2, 1.0, u.shape[-1]))`; a parameter "
        "with a string or `True`/`False` default or annotated `str`/`bool`; a parameter of an inner "
        "function or lambda that its function only calls, always with numbers or number fields of "
        "a plain `@dataclasses.dataclass` config, `get = lambda s: ...` then `get(cfg.rope_scale)`; a parameter "
        "that a Python `if`/`while` around the `where`, or one at the function's top level before it, compares "
        "with a number (`if cutoff == 0.0:` ... `time = 2 * cutoff * time`: under `jax.grad` the parameter "
        "would be a tracer and that test would raise, so it is concrete; not `is None`), and values computed "
        "from the outputs of a Pallas kernel with no derivative rule (`o, l = kernels.forward(q, k)` ... "
        "`jnp.where(l == 0.0, 0.0, 1.0 / l)`, through the names of the function around the `where`, its loops "
        "and nested functions: a `pallas_call` applied there, or a function of the module or of another "
        "module of the project that applies one and is no `custom_vjp`/`custom_jvp`: `jax.grad` raises at "
        "the kernel before this gradient exists), "
        "a `where` in the `__init__` of a class that no traced or differentiated function of the file "
        "constructs (an operator precomputed at construction: `grad` differentiates the object's "
        "fields, not the constructor's arithmetic), and a `where` inside a custom derivative rule (`@f.defjvp`, "
        "`f.defjvp(rule)`, the `fwd` and `bwd` of `f.defvjp`), whose own gradient only a second "
        "reverse-mode derivative takes, in the function of a `custom_vjp`/`custom_jvp` "
        "(its rule is differentiated instead), in a Pallas kernel (`pallas_call` has no "
        "reverse-mode rule: `jax.grad` raises; the kernel passed by its name, through a name "
        "bound to it, a `functools.partial` of it, a conditional choice or a factory of the "
        "file returning it), or in a private or nested helper that only "
        "such code calls, a `where` in a test that a test runner calls (a method of a `TestCase` "
        "class, a `test_*` function of a pytest module) and that differentiates nothing around it, "
        "a `where` in `compute` of a clu metric (a subclass of a `clu.metrics` class, `compute` of "
        "a `Metric` averaging what it accumulated: clu calls it to report values, never under a "
        "derivative) unless a differentiated function of the file calls that method, "
        "and a `where` that runs only inside `lax.while_loop` "
        "(its body or condition, or a helper only they call): reverse mode does not go through "
        "`while_loop` (`jax.grad` raises), and forward mode drops the masked branch's tangent. "
        "A `where` in a `lax.scan` or `lax.fori_loop` body is still reported.\n\n"
        "A branch that overflows for a large input is singular there too: `exp`, `expm1`, "
        "`exp2` (and `cosh`, `sinh`, both ways) are inf above about 88 in float32, and so are "
        "their derivatives, so `jnp.where(x > 0, x, alpha * jnp.expm1(x))` (an ELU) or "
        "`jnp.where(x > 20., x, jnp.log1p(jnp.exp(x)))` (a softplus threshold) has a NaN "
        "gradient for a large `x` (also `jnp.exp(-x)` under `x > 0`, for a very negative `x`); "
        "reported only when the condition shows the large values masked out.\n\n"
        "A reduction's `where=` drops elements the same way after its argument ran on all of them: "
        "`jnp.mean(jnp.sqrt(x), where=x > 0)` (also `sum`, `prod`, `nansum`, `nanmean`, `var`, `std`...) is "
        "reported when the mask tests the singular input as a `where` condition does, or when the input is a "
        "`jax.nn.softmax(..., where=m)` of the same mask, 0 exactly where it is dropped, rescaled by a value "
        "read from every element (`attn = attn * jnp.sum(attn) ** -1`: the bare softmax's own derivative "
        "drops the masked cotangent, the rescaling carries the NaN into every element). A mask the code "
        "does not relate to the input's zeros (a parameter) stays silent. A square root of a value clipped "
        "to exactly 0 (`sigma = jnp.maximum(0., sigma)` ... `jnp.sqrt(sigma00 * sigma11)`, `jnp.clip(d, 0.0, "
        "None)`, `lax.max(v, 0.0)`; the name's last binding a statement of the function's own body; or "
        "the clip written inside the root, `jnp.sqrt(jnp.maximum(d, 0.0))`) is reported too, in a function "
        "shown differentiated (given to `jax.grad` here or in another module of the project, or called "
        "from one such): wherever the clip is active the root's derivative is infinite and the clip's is 0 "
        "(`jax.nn.relu` is not such a clip: its derivative rule selects 0). The same code in a sampler "
        "nothing is shown to differentiate stays silent.\n\n"
        "Also: a branch that multiplies the tested variable by an infinite constant "
        "(`jnp.where(x > 0, 0, x * jnp.inf)`: its derivative is infinite everywhere), and a "
        "boolean mask that indexes the result of a singular function of the variable it tests, "
        "in code that is differentiated (`(delta ** 0.5)[delta > 0]`, `jnp.log(p)[p > 0]`): the "
        "dropped elements' infinite derivative meets a zero cotangent.\n\n"
        "A branch computed, on earlier lines, from a name bound to a singular function of the "
        "tested variable is reported at that function (`norm = 1. / (6. * range_)`, `hue = "
        "jnp.where(value == red, norm * (green - blue), hue)`, then `jnp.where(range_ > 0, hue, 0.)`; "
        "`lg = jnp.log(p)`, `ent = p * lg`, `jnp.where(p > 0, ent, 0.)`: followed through three names): "
        "a `where` between them selects, it does not stop the zero cotangent. A divisor whose last "
        "binding, a statement of the function's own body, keeps it off zero is quiet (`z = s.sum()` "
        "then `z = jnp.where(z == 0, 1, z)` ... `lax.select(z > 0, d / z, ...)`); a guard under an "
        "`if`, or one that leaves 0 in place (`jnp.where(z < 0, 1., z)`), is not.\n\n"
        "The 2-norm's own derivative at the zero vector, `x / norm(x)`, is 0/0, whatever follows: "
        "reported where the code shows that point matters. A power above 1 of a 2-norm "
        "(`jnp.linalg.norm(x) ** 2`, `jnp.square(n)` with `n = jnp.linalg.vector_norm(w)`, "
        "`jnp.power(n, 2)`, `n * n`, `jnp.sqrt(jnp.sum(d ** 2, axis=-1)) ** 2`, "
        "`optax.global_norm(params) ** 2`; a name bound to the norm only when every read of it is "
        "such a power: `d` also read as `2 * d * r1` is not smooth at 0 anyway), in a function "
        "shown differentiated: it is smooth at "
        "0 with gradient 0, and JAX gives NaN (`jnp.sum(x ** 2)`, `norm(x, ord=1) ** 2`, "
        "`optax.safe_norm(x, 0.) ** 2`, `optax.tree_utils.tree_l2_norm(p, squared=True)` are "
        "fine). A norm (or the root of a sum of squares) bound once in the function that a "
        "`lax.cond` predicate or a `where` condition tests against 0 (`theta == 0.0`, `theta < "
        "1e-6`, `n > 0`: true at 0 and false just above it, or the reverse; not `theta > 1.0`) "
        "while the norm also enters the selection (a `lax.cond` operand, read by a branch "
        "function or lambda, or read in a `where` branch in a function finite at 0, `jnp.cos(n)`): "
        "the program expects the zero vector, and the selected branch's zero cotangent meets the "
        "norm's NaN derivative (jaxsim's `from_axis_angle`); reported at the norm. A condition built "
        "from an identity matrix (`1 - jnp.eye(n)`, `~jnp.eye(n, dtype=bool)`, `jnp.eye(n) == 0`, a "
        "name bound to one) masks exactly the diagonal: a division by (or `log`/`sqrt` of) a distance "
        "matrix of one array's points there (`jnp.linalg.norm(x[:, None] - x[None, :], axis=-1)`, the "
        "root of a sum of squares of `jnp.expand_dims(x, 0) - jnp.expand_dims(x, 1)`, or a function "
        "of the module returning the norm of its two parameters' difference, called with such views) "
        "is reported: the diagonal is each point's distance to itself, 0 (jax#654's pairwise "
        "Coulomb energy); distances between two different arrays are not."
    )
    why_bad = (
        "`where` selects values, but both branches are computed for every element, and "
        "reverse-mode differentiation multiplies the zero cotangent of the unselected branch "
        "by that branch's derivative. Where the derivative is infinite (`log` or `sqrt` at 0, "
        "`1/x` at 0) or NaN (`sqrt` of a negative), `0 * inf = nan`: "
        "`jax.grad(lambda x: jnp.where(x > 0, jnp.log(x), 0.))(0.)` is `nan`, not `0.`. The "
        "forward value is correct and JAX gives no warning, so the NaN shows up later in "
        "training. The gradient is NaN only at the elements the mask drops where the "
        "function is singular, and the message names that point: `log` and a division "
        "where their argument or divisor is 0 (for a negative input `log`'s value is NaN "
        "but its derivative `1/x` is finite, so the masked gradient is 0 there), `sqrt` "
        "and a power below 1 where it is 0 or negative, a fractional power above 1 where it "
        "is negative, `arcsin`/`arccos` at 1 and -1 or beyond (checked on jax 0.10.2). A "
        "norm clip `jnp.where(n > t, x / n, x)` is NaN only where `n` is 0 (a zero-initialised "
        "layer), which the guard still covers."
    )
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
        # the reduction's argument guarded with its mask: [0., 0.25]; a mask the code does not
        # relate to the argument's zeros is unknown and stays silent
        Valid(
            """
            import jax.numpy as jnp


            def loss(x):
                return jnp.mean(jnp.sqrt(jnp.where(x > 0, x, 1.0)), where=x > 0)


            def masked_nll(probs, mask):
                return -jnp.sum(jnp.log(probs), where=mask)
            """
        ),
        # the twins: the helper given the double where's guarded input, a helper that guards
        # its own input, and the clip that guards the sum of squares before the root
        Valid(
            """
            import jax.numpy as jnp


            def _knu(nu, x):
                return jnp.sqrt(jnp.pi / (2.0 * x)) * jnp.exp(-x)


            def safe_log(x):
                return jnp.log(jnp.where(x > 0, x, 1.0))


            def kvalue(k, beta):
                k_msk = jnp.where(k > 0, k, 1.0)
                return jnp.where(k > 0, jnp.power(k_msk, beta - 1.0) * _knu(beta - 1.0, k_msk), 1.0)


            def entropy(p):
                return jnp.where(p > 0, p * safe_log(p), 0.0)


            def clip(g):
                sq = jnp.sum(g ** 2)
                g_norm = jnp.sqrt(jnp.where(sq > 1.0, sq, 1.0))
                return jnp.where(sq > 1.0, g / g_norm, g)
            """
        ),
        # a constant infinite branch; the input guarded before the function, then masked
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def barrier(x):
                return jnp.sum(jnp.where(x < 1.0, 0.0, jnp.inf))


            def entropy(p):
                safe = jnp.where(p > 0, p, 1.0)
                return -jnp.sum((safe * jnp.log(safe))[p > 0])


            g1 = jax.grad(barrier)(jnp.array([0.5, 2.0]))
            g2 = jax.grad(entropy)(jnp.array([0.0, 1.0]))
            """
        ),
        # computed operands whose input is guarded where they are computed, or smooth
        Valid(
            """
            import jax.numpy as jnp

            def f(x):
                y = jnp.log(jnp.where(x > 0, x, 1.))
                return jnp.where(x > 0, y, 0.)

            def norms(x):
                r = jnp.sqrt(jnp.maximum(jnp.sum(x ** 2, axis=1), 1e-12))
                return jnp.sum(jnp.where(r > 0.5, r, 1.))

            def g(x):
                r = jnp.exp(x)
                return jnp.where(r > 0.5, r, 1.)

            def h(x, mask):
                y = jnp.log(x)
                return jnp.where(mask, y, 0.)
            """
        ),
        Valid(
            """
            import jax.numpy as jnp

            def safe_log(x):
                return jnp.where(x > 0, jnp.log(jnp.where(x > 0, x, 1.)), 0.)
            """
        ),
        Valid(
            """
            import jax.numpy as jnp

            def f(x, eps=1e-8):
                return jnp.where(x > 0, jnp.sqrt(jnp.maximum(x, eps)), 0.)
            """
        ),
        # the condition does not test the singular argument
        Valid(
            """
            import jax.numpy as jnp

            def f(x, mask):
                return jnp.where(mask, jnp.log(x), 0.)
            """
        ),
        # smooth branch functions
        Valid(
            """
            import jax.numpy as jnp

            def f(x):
                return jnp.where(x > 0, jnp.exp(x), x ** 2)
            """
        ),
        # NumPy, not JAX
        Valid(
            """
            import numpy as np

            def f(x):
                return np.where(x > 0, np.log(x), 0.)
            """
        ),
        # the division is masked out only where norm > 1.0, where it is finite: the
        # singular point (norm == 0) is on the selected side
        Valid(
            """
            import jax.numpy as jnp

            def shrink(v, norm):
                return v * jnp.where(norm > 1.0, 1.0, 1.0 / norm)
            """
        ),
        # norms that are not singular at 0: ord=1, ord=inf, optax.safe_norm
        Valid(
            """
            import jax.numpy as jnp
            import optax


            def lengths(v):
                n1 = jnp.linalg.norm(v, ord=1)
                ninf = jnp.linalg.norm(v, jnp.inf)
                ns = optax.safe_norm(v, 1e-6)
                return jnp.where(n1 == 0.0, 1.0, n1) + jnp.where(ninf > 0, ninf, 0.0) + jnp.where(ns == 0.0, 1.0, ns)
            """
        ),
        # ord=2 of a matrix is its largest singular value: a finite gradient at the zero matrix
        Valid(
            """
            import jax.numpy as jnp


            def spectral(m, m2):
                s = jnp.linalg.matrix_norm(m, ord=2)
                t = jnp.linalg.norm(m2, ord=2)  # of a matrix too: its largest singular value
                return jnp.where(s == 0.0, 1.0, s) + jnp.where(t == 0.0, 1.0, t)
            """
        ),
        # nothing differentiable reaches the masked operand: an operator computed from
        # sizes by module functions (`mode="fft"` a string), precomputed in the `__init__`
        # of an object no traced code here constructs, or a helper called only with
        # number fields of a plain dataclass config
        Valid(
            """
            import dataclasses
            import jax.numpy as jnp


            def wavenumbers_sq(n, length, *, mode="fft"):
                k = jnp.fft.fftfreq(n, length / n) * 2 * jnp.pi
                return k ** 2


            class Smoother:
                def __init__(self, n: int, length: float):
                    k2 = wavenumbers_sq(n, length)
                    self.inv = jnp.where(k2 == 0, 0.0, 1.0 / k2)

                def __call__(self, u):
                    return jnp.fft.ifft(jnp.fft.fft(u) * self.inv).real


            def project(u, mode="fft"):
                k2 = wavenumbers_sq(u.shape[-1], 1.0, mode=mode)
                inv = jnp.where(k2 == 0, 0.0, 1.0 / k2)
                return jnp.fft.ifft(jnp.fft.fft(u) * inv).real


            @dataclasses.dataclass
            class Cfg:
                temperature: float = 0.5


            def scaled(x, cfg: Cfg):
                def log_scale(t):
                    return jnp.where(t > 0, jnp.log(t), 0.0)
                return x * log_scale(cfg.temperature) * log_scale(2.0 * cfg.temperature)
            """
        ),
        # a test that the test runner calls and that differentiates nothing: a helper
        # nested in a TestCase method
        Valid(
            """
            import unittest

            import jax
            import jax.numpy as jnp


            class LanczosTest(unittest.TestCase):
                def _check_once(self, seed):
                    def safe_div(a, b):
                        return jnp.where(jnp.logical_and(a == 0, b == 0), a, a / b)

                    x = jax.random.normal(jax.random.key(seed), (5,))
                    self.assertTrue(bool(jnp.all(jnp.isfinite(safe_div(x, x)))))

                def test_lanczos(self):
                    for seed in range(3):
                        self._check_once(seed)
            """
        ),
        # arithmetic of the tested variable that is never singular where it is masked out
        # (`x ** 2 + 1` > 0), or whose input is guarded (double where)
        Valid(
            """
            import jax.numpy as jnp


            def smooth(x):
                return jnp.where(x < 3, jnp.sqrt(x ** 2 + 1), 0.0)


            def profile(x):
                inside = x < 1
                safe = jnp.where(inside, x, 0.0)
                return jnp.where(inside, jnp.sqrt(1 - safe ** 2), 0.0)
            """
        ),
        # the double-where twins of the names, multiples and Taylor branch of the
        # INVALID examples, and a Taylor branch whose other branch tests `w` against 1.0
        Valid(
            """
            import jax.numpy as jnp
            from jax import lax


            def log_pos(x):
                positive = x > 0
                return jnp.where(positive, jnp.log(jnp.where(positive, x, 1.0)), 0.0)


            def sinc(x):
                pi_x = lax.mul(jnp.pi, jnp.where(x == 0, 1.0, x))
                return jnp.where(x == 0, 1.0, lax.div(lax.sin(pi_x), pi_x))


            def atan_factor(w, norm_sq, eps=1e-6):
                use_taylor = norm_sq < eps
                safe_w = jnp.where(use_taylor, w, 1.0)
                return jnp.where(
                    use_taylor,
                    2.0 / safe_w,
                    jnp.where(jnp.abs(w) < eps, jnp.pi, 1.0),
                ) + jnp.where(use_taylor, 1.0 / w, jnp.where(w > 1.0, 1.0, 0.5))
            """
        ),
        # a value a bounded function made (`sigmoid`, `cos`, `clip`) never reaches the
        # overflow of `exp`/`sinh` under the masking `where` (jax.grad: finite)
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def gated(z):
                p = jax.nn.sigmoid(z)
                return jnp.where(p > 0.5, p, jnp.exp(p) - 1.0)


            def bounded(theta):
                c = jnp.cos(theta)
                return jnp.where(c > 0, c, jnp.sinh(c))
            """
        ),
        # the double where (jax.nn.elu since jax#1538): the masked elements compute at 0
        Valid(
            """
            import jax.numpy as jnp

            def elu(x, alpha=1.0):
                safe = jnp.where(x > 0, 0.0, x)
                return jnp.where(x > 0, x, alpha * jnp.expm1(safe))

            def softplus(x):
                return jnp.where(x > 20.0, x, jnp.log1p(jnp.exp(jnp.minimum(x, 20.0))))

            def growth(x):
                return jnp.where(x > 0, jnp.exp(x), 1.0 + x)
            """,
        ),
    ]

    INVALID = [
        # a reduction's `where=` drops the elements where `sqrt` is singular after it ran on
        # them: jax.grad at [0., 4.] is [nan, 0.25] (newuser18's nan5)
        Invalid(
            """
            import jax.numpy as jnp


            def loss(x):
                return jnp.mean(jnp.sqrt(x), where=x > 0)
            """,
            expected=[(5, 21)],
            messages=[
                "`jnp.sqrt(x)` is computed for every element, also where `where=x > 0` is false and drops it from the `mean`; its derivative is infinite/NaN where `x` is 0 or negative, so the gradient of this `mean` is NaN (0 * inf). Guard `x` with the mask too (`jnp.where(x > 0, x, 1.0)` inside)",
            ],
        ),
        # a branch calling a function of the module that divides by the masked input (the
        # gradient at k = 0 is NaN; the fix passes the double where's guarded input)
        Invalid(
            """
            import jax.numpy as jnp


            def _knu(nu, x):
                return jnp.sqrt(jnp.pi / (2.0 * x)) * jnp.exp(-x) * (1.0 + (4.0 * nu * nu - 1.0) / (8.0 * x))


            def kvalue(k, beta):
                return jnp.where(k > 0, jnp.power(k, beta - 1.0) * _knu(beta - 1.0, k), 1.0)
            """,
            expected=[(9, 56)],
            messages=[
                "`_knu(beta - 1.0, k)` is computed for every element, also where `k > 0` is false and masks it out; its derivative is infinite/NaN where `k` is 0 (`_knu` computes `jnp.pi / (2.0 * x)` with `x` = `k`), so the gradient of this `where` is NaN (0 * inf). Guard `k` with the same condition too (double where: `jnp.where(cond, k, 1.0)` inside)",
            ],
            fixed="""
            import jax.numpy as jnp


            def _knu(nu, x):
                return jnp.sqrt(jnp.pi / (2.0 * x)) * jnp.exp(-x) * (1.0 + (4.0 * nu * nu - 1.0) / (8.0 * x))


            def kvalue(k, beta):
                return jnp.where(k > 0, jnp.power(k, beta - 1.0) * _knu(beta - 1.0, jnp.where(k > 0, k, 1.0)), 1.0)
            """,
            unsafe=True,
        ),
        # a clip dividing by a Euclidean norm: guarding the divisor would leave the norm's own
        # NaN gradient at 0 (jax.grad of both at 0: [nan nan]), so no double where is offered
        Invalid(
            """
            import jax.numpy as jnp


            def clip(g):
                g_norm = jnp.linalg.norm(g)
                return jnp.where(g_norm > 1.0, g / g_norm, g)
            """,
            expected=[(6, 36)],
            messages=[
                "`g / g_norm` is computed for every element, also where `g_norm > 1.0` is false and masks it out; its derivative is infinite/NaN where `g_norm` is 0, so the gradient of this `where` is NaN (0 * inf). Guarding `g_norm` is not enough: `g_norm = jnp.linalg.norm(g)` has a NaN gradient itself where it is 0 (the derivative of the square root there); guard the sum of squares before the root (`jnp.sqrt(jnp.where(sq > 0, sq, 1.0))` with `sq` the sum of squares), or use `optax.safe_norm`",
            ],
        ),
        # a branch with an infinite factor (infinite derivative everywhere), and a boolean mask
        # that drops the singular elements after the function was computed (grads: [nan inf],
        # [nan -1.])
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def barrier(x):
                return jnp.sum(jnp.where(x < 1.0, 0.0, x * float("inf")))


            def entropy(p):
                return -jnp.sum((p * jnp.log(p))[p > 0])


            g1 = jax.grad(barrier)(jnp.array([0.5, 2.0]))
            g2 = jax.grad(entropy)(jnp.array([0.0, 1.0]))
            """,
            expected=[(6, 44), (10, 26)],
            messages=[
                "`x * float(\"inf\")` has an infinite derivative everywhere, and `x < 1.0` masks it out where it is true: the gradient of this `where` is NaN there (0 * inf). Write the infinite branch as a constant that does not depend on `x` (`jnp.inf`, `jnp.full_like(x, jnp.inf)`)",
                "`jnp.log(p)` is computed for every element, also where `p > 0` is false and the mask drops it; its derivative is infinite/NaN where `p` is 0, so the gradient is NaN (0 * inf). Guard `p` before the function (`jnp.where(p > 0, p, 1.0)`)",
            ],
        ),
        # a branch computed on an earlier line: the condition tests the function's input
        Invalid(
            """
            import jax.numpy as jnp

            def f(x):
                y = jnp.log(x)
                return jnp.where(x > 0, y, 0.)
            """,
            expected=[(5, 29)],
            messages=[
                "`y` is `jnp.log(x)`, computed for every element, also where `x > 0` is false; its derivative is infinite/NaN where `x` is 0, and the condition masks that point out, so the gradient of this `where` is NaN (0 * inf). Guard the input where `y` is computed (double where: `jnp.where(cond, x, 1.0)` inside, or `jnp.maximum(x, eps)`)",
            ],
        ),
        # ... or tests the computed value itself: sqrt(0) == 0 is masked out by `r > 0.5`
        Invalid(
            """
            import jax.numpy as jnp

            def norms(x):
                r = jnp.sqrt(jnp.sum(x ** 2, axis=1))
                r = jnp.where(r > 0.5, r, jnp.ones_like(r))
                return jnp.sum(r)
            """,
            expected=[(5, 28)],
            messages=[
                "`r` is `jnp.sqrt(jnp.sum(x ** 2, axis=1))`, computed for every element, also where `r > 0.5` is false; at its singular input `r` is 0 and the derivative is infinite/NaN, and the condition masks that value out, so the gradient of this `where` is NaN (0 * inf). Guard the input where `r` is computed (double where: `jnp.where(cond, x, 1.0)` inside, or `jnp.maximum(x, eps)`)",
            ],
        ),
        Invalid(
            """
            import jax.numpy as jnp

            def inverse(x):
                inv = 1.0 / x
                return jnp.where(x == 0, 0., inv)
            """,
            expected=[(5, 34)],
            messages=[
                "`inv` is `1.0 / x`, computed for every element, also where `x == 0` is true; its derivative is infinite/NaN where `x` is 0, and the condition masks that point out, so the gradient of this `where` is NaN (0 * inf). Guard the input where `inv` is computed (double where: `jnp.where(cond, x, 1.0)` inside, or `jnp.maximum(x, eps)`)",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            def f(x):
                return jnp.where(x > 0, jnp.log(x), 0.)

            g = jax.grad(f)
            """,
            expected=[(5, 29)],
            messages=[
                "`jnp.log(x)` is computed for every element, also where `x > 0` is false and masks it out; its derivative is infinite/NaN where `x` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `x` with the same condition too (double where: `jnp.where(cond, x, 1.0)` inside)",
            ],
            fixed="""
            import jax
            import jax.numpy as jnp

            def f(x):
                return jnp.where(x > 0, jnp.log(jnp.where(x > 0, x, 1.0)), 0.)

            g = jax.grad(f)
            """,
            unsafe=True,
        ),
        Invalid(
            """
            import jax.numpy as jnp

            def normalize(v, norm):
                return jnp.where(norm == 0, 0.0, v / norm)
            """,
            expected=[(4, 38)],
            messages=[
                "`v / norm` is computed for every element, also where `norm == 0` is true and masks it out; its derivative is infinite/NaN where `norm` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `norm` with the same condition too (double where: `jnp.where(cond, norm, 1.0)` inside)",
            ],
            fixed="""
            import jax.numpy as jnp

            def normalize(v, norm):
                return jnp.where(norm == 0, 0.0, v / jnp.where(norm == 0, 1.0, norm))
            """,
            unsafe=True,
        ),
        Invalid(
            """
            from jax import lax
            import jax.numpy as jnp

            def f(d):
                return lax.select(d > 0, jnp.sqrt(d), jnp.zeros_like(d))
            """,
            expected=[(5, 30)],
            messages=[
                "`jnp.sqrt(d)` is computed for every element, also where `d > 0` is false and masks it out; its derivative is infinite/NaN where `d` is 0 or negative, so the gradient of this `where` is NaN (0 * inf). Guard `d` with the same condition too (double where: `jnp.where(cond, d, 1.0)` inside)",
            ],
        ),
        # the inner `where` selects `(x - lo) / g` at g == 0, but the outer one masks it out
        Invalid(
            """
            import jax.numpy as jnp

            def step_to_bound(x, g, lo, hi, eps=1e-9):
                t = jnp.where(g < 0, (x - hi) / g, (x - lo) / g)
                return jnp.where(jnp.abs(g) < eps, jnp.inf, jnp.where(g < 0, (x - hi) / g, (x - lo) / g))
            """,
            expected=[(4, 26), (5, 66), (5, 80)],
            messages=[
                "`(x - hi) / g` is computed for every element, also where `g < 0` is false and masks it out; its derivative is infinite/NaN where `g` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `g` with the same condition too (double where: `jnp.where(cond, g, 1.0)` inside)",
                "`(x - hi) / g` is computed for every element, also where `g < 0` is false and masks it out; its derivative is infinite/NaN where `g` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `g` with the same condition too (double where: `jnp.where(cond, g, 1.0)` inside)",
                "`(x - lo) / g` is computed for every element, also where `jnp.abs(g) < eps` is true and masks it out; its derivative is infinite/NaN where `g` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `g` with the same condition too (double where: `jnp.where(cond, g, 1.0)` inside)",
            ],
        ),
        # the 2-norm is a sqrt of a sum of squares: its gradient at the zero vector is NaN,
        # whichever spelling computes it; a cube root at 0
        Invalid(
            """
            import jax.numpy as jnp
            from jax.numpy import linalg as LA


            def cosine(a, b):
                na = jnp.linalg.norm(a, axis=-1, keepdims=True)
                na = jnp.where(na == 0.0, 1.0, na)
                return (a / na) @ b


            def length(v):
                n = LA.vector_norm(v)
                r = jnp.cbrt(v)
                return jnp.where(n > 0, n, 0.0) + jnp.where(r != 0, r, 0.0)
            """,
            expected=[(7, 36), (14, 29), (14, 57)],
            messages=[
                "`na` is `jnp.linalg.norm(a, axis=-1, keepdims=True)`, computed for every element, also where `na == 0.0` is true; at its singular input `na` is 0 and the derivative is infinite/NaN, and the condition masks that value out, so the gradient of this `where` is NaN (0 * inf). Guard the input where `na` is computed (double where: `jnp.where(cond, x, 1.0)` inside, or `jnp.maximum(x, eps)`)",
                "`n` is `LA.vector_norm(v)`, computed for every element, also where `n > 0` is false; at its singular input `n` is 0 and the derivative is infinite/NaN, and the condition masks that value out, so the gradient of this `where` is NaN (0 * inf). Guard the input where `n` is computed (double where: `jnp.where(cond, x, 1.0)` inside, or `jnp.maximum(x, eps)`)",
                "`r` is `jnp.cbrt(v)`, computed for every element, also where `r != 0` is false; at its singular input `r` is 0 and the derivative is infinite/NaN, and the condition masks that value out, so the gradient of this `where` is NaN (0 * inf). Guard the input where `r` is computed (double where: `jnp.where(cond, x, 1.0)` inside, or `jnp.maximum(x, eps)`)",
            ],
        ),
        # the twins that are differentiated: the object constructed inside a
        # differentiated function (its `__init__` runs under `grad`), the helper also
        # called with a parameter
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def wavenumbers_sq(n, length):
                k = jnp.fft.fftfreq(n, length / n) * 2 * jnp.pi
                return k ** 2


            class Smoother:
                def __init__(self, n, length):
                    k2 = wavenumbers_sq(n, length)
                    self.inv = jnp.where(k2 == 0, 0.0, 1.0 / k2)


            def loss(length, u):
                return (u * Smoother(u.shape[-1], length).inv).sum()


            def scaled(x, t):
                def log_scale(s):
                    return jnp.where(s > 0, jnp.log(s), 0.0)
                return x * log_scale(0.5) * log_scale(t)


            print(jax.grad(loss)(1.0, jnp.ones(4)))
            print(jax.grad(scaled, argnums=1)(1.0, 0.0))
            """,
            expected=[(13, 44), (22, 33)],
            messages=[
                "`1.0 / k2` is computed for every element, also where `k2 == 0` is true and masks it out; its derivative is infinite/NaN where `k2` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `k2` with the same condition too (double where: `jnp.where(cond, k2, 1.0)` inside)",
                "`jnp.log(s)` is computed for every element, also where `s > 0` is false and masks it out; its derivative is infinite/NaN where `s` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `s` with the same condition too (double where: `jnp.where(cond, s, 1.0)` inside)",
            ],
        ),
        # the test differentiates the helper: a derivative reaches the where (grad: nan)
        Invalid(
            """
            import unittest

            import jax
            import jax.numpy as jnp


            class DivTest(unittest.TestCase):
                def test_grad(self):
                    def safe_div(a, b):
                        return jnp.where(jnp.logical_and(a == 0, b == 0), a, a / b)

                    g = jax.grad(lambda b: safe_div(0.0, b))(0.0)
                    self.assertTrue(bool(jnp.isnan(g)))
            """,
            expected=[(10, 66)],
            messages=[
                "`a / b` is computed for every element, also where `jnp.logical_and(a == 0, b == 0)` is true and masks it out; its derivative is infinite/NaN where `b` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `b` with the same condition too (double where: `jnp.where(cond, b, 1.0)` inside)",
            ],
        ),
        # a singular input that is arithmetic of the tested variable: `sqrt(1 - x ** 2)` is
        # `sqrt(-3)` at x = 2, where `x < 1` masks it out (NFW-like lensing profiles; grad at
        # 2.0: nan), `log(x - 1)` is `log(0)` at x = 1 (grad: nan)
        Invalid(
            """
            import jax.numpy as jnp


            def profile(x):
                return jnp.where(x < 1, jnp.sqrt(1 - x ** 2), 0.0)


            def shifted_log(x):
                return jnp.where(x > 1, jnp.log(x - 1), 0.0)
            """,
            expected=[(5, 29), (9, 29)],
            messages=[
                "`jnp.sqrt(1 - x ** 2)` is computed for every element, also where `x < 1` is false and masks it out; its derivative is infinite/NaN where `1 - x ** 2` is 0 or negative, so the gradient of this `where` is NaN (0 * inf). Guard `1 - x ** 2` with the same condition too (double where: `jnp.where(cond, 1 - x ** 2, 1.0)` inside)",
                "`jnp.log(x - 1)` is computed for every element, also where `x > 1` is false and masks it out; its derivative is infinite/NaN where `x - 1` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `x - 1` with the same condition too (double where: `jnp.where(cond, x - 1, 1.0)` inside)",
            ],
        ),
        # the condition through a name bound to a test, a divisor that is a constant
        # multiple of the tested variable, and a Taylor branch dividing by `w` that the
        # other branch tests against 0 (grads at 0: nan, nan, nan; the multi-line `where`
        # is reported at the operation's line)
        Invalid(
            """
            import jax.numpy as jnp
            from jax import lax


            def log_pos(x):
                positive = x > 0
                return jnp.where(positive, jnp.log(x), 0.0)


            def sinc(x):
                pi_x = lax.mul(jnp.pi, x)
                return jnp.where(x == 0, 1.0, lax.div(lax.sin(pi_x), pi_x))


            def atan_factor(w, norm_sq, eps=1e-6):
                use_taylor = norm_sq < eps
                return jnp.where(
                    use_taylor,
                    2.0 / w,
                    jnp.where(jnp.abs(w) < eps, jnp.pi, 1.0),
                )
            """,
            expected=[(7, 32), (12, 35), (19, 9)],
            messages=[
                "`jnp.log(x)` is computed for every element, also where `positive` is false and masks it out; its derivative is infinite/NaN where `x` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `x` with the same condition too (double where: `jnp.where(cond, x, 1.0)` inside)",
                "`lax.div(lax.sin(pi_x), pi_x)` is computed for every element, also where `x == 0` is true and masks it out; its derivative is infinite/NaN where `pi_x` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `pi_x` with the same condition too (double where: `jnp.where(cond, pi_x, 1.0)` inside)",
                "`2.0 / w` is computed for every element, also where `use_taylor` is false and masks it out; the other branch, selected there, tests `jnp.abs(w) < eps`, so `w` reaches 0 there, where the derivative of `2.0 / w` is infinite/NaN: the gradient of this `where` is NaN (0 * inf). Guard `w` in this branch too (double where: `jnp.where(use_taylor, w, 1.0)` inside)",
            ],
        ),
        # a branch that overflows for a large input (the ELU of jax#1538, a softplus threshold)
        Invalid(
            """
            import jax.numpy as np

            def elu(x, alpha=1.0):
                return np.where(x > 0, x, alpha * np.expm1(x))

            def softplus(x):
                return np.where(x > 20.0, x, np.log1p(np.exp(x)))
            """,
            expected=[(4, 39), (7, 43)],
            messages=[
                "`np.expm1(x)` is computed for every element, also where `x > 0` is true and masks it out; for a large `x` there it overflows to inf (above about 88 in float32), and so does its derivative, so the gradient of this `where` is NaN (0 * inf). Guard `x` with the same condition too (double where: `jnp.where(cond, x, 0.0)` inside)",
                "`np.exp(x)` is computed for every element, also where `x > 20.0` is true and masks it out; for a large `x` there it overflows to inf (above about 88 in float32), and so does its derivative, so the gradient of this `where` is NaN (0 * inf). Guard `x` with the same condition too (double where: `jnp.where(cond, x, 0.0)` inside)",
            ],
            fixed="""
            import jax.numpy as np

            def elu(x, alpha=1.0):
                return np.where(x > 0, x, alpha * np.expm1(np.where(x > 0, 0.0, x)))

            def softplus(x):
                return np.where(x > 20.0, x, np.log1p(np.exp(np.where(x > 20.0, 0.0, x))))
            """,
            unsafe=True,
        ),
        # ... computed on an earlier line (a SELU's negative branch)
        Invalid(
            """
            import jax.numpy as jnp

            def selu(x, alpha=1.67, scale=1.05):
                neg = alpha * (jnp.exp(x) - 1.0)
                return scale * jnp.where(x > 0, x, neg)
            """,
            expected=[(5, 40)],
            messages=[
                "`neg` is computed with `jnp.exp(x)` for every element, also where `x > 0` is true; it overflows to inf for a large `x`, and so does its derivative, and the condition masks those values out, so the gradient of this `where` is NaN (0 * inf). Guard the input where `neg` is computed (double where: `jnp.where(cond, x, 0.0)` inside, so the masked elements are computed at 0)",
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # id(where call) -> the (condition, side) masks of the `where`s around it
        self._outer: dict[int, list] = {}
        # (id(unit), name) -> the expression last assigned to it in that unit's walk (the
        # walk is in source order), for a `where` operand computed on an earlier line
        self._bound: dict[tuple[int, str], cst.BaseExpression] = {}
        self._rules: Optional[set[str]] = None  # functions reverse mode never differentiates
        self._built_traced: dict[int, bool] = {}  # id(class) -> constructed in traced code here
        self._from_calls: dict[tuple[int, str], bool] = {}
        self._names: Optional[dict[str, list]] = None
        # (id(unit), name) -> every value bound to it so far in the walk (None: unknown)
        self._bindings: dict[tuple[int, str], list[Optional[cst.BaseExpression]]] = {}
        self._reach: object = None  # model/nograd.py's DerivativeReach, False: no entry file
        # the Python tests (`if`/`while`) around the code being walked, and, per unit, the
        # parameters a test at its top level compared with a number (concrete values)
        self._tests: dict[int, tuple[int, cst.CSTNode]] = {}
        self._site: Optional[cst.CSTNode] = None  # the `where` being judged
        self._concrete: dict[int, set[str]] = {}
        self._visiting: set[tuple[int, str]] = set()  # names whose bindings `_no_tangent` is reading
        self._kernel_binds: dict[int, dict[str, list[cst.CSTNode]]] = {}  # see _from_kernel
        # id(call of a project function) -> (its name, the singular operation in its body,
        # the parameter it is applied to): see _helper_singular
        self._helper_ops: dict[int, tuple[str, str, str]] = {}
        # (id(unit), name) -> the value last assigned to it in the walk, and whether that
        # assignment is a statement of the function's own body (it then reaches what follows)
        self._latest: dict[tuple[int, str], tuple[cst.BaseExpression, bool]] = {}
        self._roots_reported: set[int] = set()  # norms reported by `_anticipated_zero_root`

    def visit_If(self, node: cst.If) -> None:
        self._enter_test(node)

    def leave_If(self, node: cst.If) -> None:
        self._tests.pop(id(node), None)

    def visit_While(self, node: cst.While) -> None:
        self._enter_test(node)

    def leave_While(self, node: cst.While) -> None:
        self._tests.pop(id(node), None)

    def _enter_test(self, node) -> None:
        unit = self.ctx.unit
        self._tests[id(node)] = (id(unit), node)
        body = getattr(getattr(unit.node, "body", None), "body", None)
        if isinstance(body, (list, tuple)) and any(line is node for line in body):
            # a test every call runs (at the function's top level): what it compares is
            # concrete from here on
            self._concrete.setdefault(id(unit), set()).update(_compared_names(node.test))

    def _concrete_param(self, name: str) -> bool:
        """Is parameter ``name`` compared with a number by a Python `if`/`while` that runs
        before this code (one around it, or one at the function's top level): `if cutoff
        == 0.0: ...`?  Python's `if` needs a concrete value: under `jax.grad` the parameter
        is a tracer and that test raises, so no derivative with respect to it exists."""
        unit = self.ctx.unit
        if unit.param(name) is None:
            return False
        if name in self._concrete.get(id(unit), ()):
            return True
        here = self._site
        return any(uid == id(unit) and name in _compared_names(stmt.test)
                   and any(n is here for n in walk_tree(stmt)) for uid, stmt in self._tests.values())

    def leave_Assign(self, node: cst.Assign) -> None:
        unit = id(self.ctx.unit)
        for t in node.targets:
            if isinstance(t.target, cst.Name):
                self._bound[(unit, t.target.value)] = node.value
                self._latest[(unit, t.target.value)] = (node.value, self._top_level(node))
                self._note_binding(t.target.value, node.value, node)
            else:
                for n in _names_in(t.target):
                    self._bound.pop((unit, n), None)
                    # (an element of the value: free of tangents when all of it is)
                    self._note_binding(n, node.value, node)

    def leave_AugAssign(self, node: cst.AugAssign) -> None:
        for n in _names_in(node.target):
            self._bound.pop((id(self.ctx.unit), n), None)
            # `x *= 2.0` keeps what `x` held: a parameter's own value still reaches
            self._note_binding(n, node.value if self.ctx.unit.param(n) is None else None, node)

    def visit_For(self, node: cst.For) -> None:
        for n in _names_in(node.target):
            self._bound.pop((id(self.ctx.unit), n), None)
            self._note_binding(n, node.iter, None)

    def _note_binding(self, name: str, value: cst.BaseExpression, stmt: Optional[cst.CSTNode]) -> None:
        """Every value a name of this unit was bound to so far (``None``: one that may
        not replace what it held on every path, for a parameter)."""
        unit = self.ctx.unit
        if stmt is not None and unit.param(name) is not None and not self._top_level(stmt):
            value = None  # `if c: x = x > 0`: the parameter's own value still reaches
        self._bindings.setdefault((id(unit), name), []).append(value)

    def _top_level(self, stmt: cst.CSTNode) -> bool:
        unit = self.ctx.unit
        body = getattr(unit.node, "body", None)
        body = getattr(body, "body", None)
        if not isinstance(body, (list, tuple)):
            return False
        return any(type(line) is cst.SimpleStatementLine and any(small is stmt for small in line.body) for line in body)

    def _kept_off_singular(self, name: cst.Name) -> bool:
        """Is every value this unit binds ``name`` to kept off zero by a constant where
        it is computed (`n = jnp.linalg.norm(g) + eps`, `d = jnp.maximum(jnp.abs(x), 1e-12)`)?
        A divisor built so never is 0: the masked-out branch has a finite derivative."""
        key = (id(self.ctx.unit), name.value)
        entries = self._bindings.get(key)
        if not entries:
            return False
        if all(v is not None and _kept_off_zero(self.ctx, v) for v in entries):
            return True
        # the binding that reaches this read is a statement of the function's own body,
        # the last one so far, and no loop around the read binds the name again: what it
        # held before is replaced (`z = s.sum()` then `z = jnp.where(z == 0, 1, z)` ...
        # `score_dist / z`: z is never 0 there)
        latest = self._latest.get(key)
        return (latest is not None and latest[1] and entries[-1] is latest[0]
                and not self.ctx.rebound_in_loop(name) and _kept_off_zero(self.ctx, latest[0]))

    def _no_tangent(self, e: cst.CSTNode, depth: int = 0) -> bool:
        """Does ``e`` carry no derivative: built only from comparisons (booleans),
        `stop_gradient`, zero-derivative functions (`sign`, `floor`, `argmax`...),
        constants, shapes and Python values, through arithmetic and JAX functions of
        such values?  Its `where` then has no gradient to make NaN (`a = jnp.asarray(a
        > 0, jnp.float32)` ... `jnp.where(u > 0, i / u, 0)`)."""
        if depth > 16:  # (read only for a `where` about to be reported)
            return False
        ctx = self.ctx
        t = type(e)
        if t in (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.Comparison, cst.Ellipsis):
            return True
        if t is cst.UnaryOperation:
            return isinstance(e.operator, cst.Not) or self._no_tangent(e.expression, depth + 1)
        if t is cst.BinaryOperation:
            return self._no_tangent(e.left, depth + 1) and self._no_tangent(e.right, depth + 1)
        if t is cst.IfExp:
            return self._no_tangent(e.body, depth + 1) and self._no_tangent(e.orelse, depth + 1)
        if t in (cst.Tuple, cst.List):
            return all(self._no_tangent(el.value, depth + 1) for el in e.elements)
        if t is cst.Subscript:
            return self._no_tangent(e.value, depth + 1)
        if t is cst.Attribute and e.attr.value in ("shape", "ndim", "size", "dtype"):
            return True
        if t in (cst.Name, cst.Attribute):
            q = ctx.qualname(e)
            if q is not None and q.startswith(("jax.numpy.", "numpy.", "jax.lax.", "math.")):
                return True  # a dtype or a constant of the library (`jnp.float32`, `jnp.pi`, `math.pi`)
        if t in (cst.Name, cst.Attribute, cst.Call, cst.Subscript) and ctx.value(e).kind in (V.STATIC, V.NPARRAY):
            return True  # a Python value or a NumPy array: a constant to differentiation
        if t is cst.Name:
            entries = self._bindings.get((id(ctx.unit), e.value))
            if not entries and _flag_or_name_param(ctx.unit.param(e.value)):
                return True  # `indexing="ij"`, `normalize: bool`: a string or a flag
            if not entries and self._concrete_param(e.value):
                return True  # `if cutoff == 0.0:` in Python: never a tracer, never differentiated
            if not entries and self._param_from_calls(e.value, depth):
                return True  # `get = lambda s: ...` called only as `get(cfg.scale)`
            if entries and ctx.rebound_in_loop(e):
                return False  # a loop around it binds it again: the next iteration reads that
            key = (id(ctx.unit), e.value)
            if key in self._visiting:
                # `time = 2 * cutoff * time`: the name's earlier value, which the other
                # bindings decide (a parameter's own value: only when it is concrete)
                return ctx.unit.param(e.value) is None or self._concrete_param(e.value)
            self._visiting.add(key)
            try:
                return bool(entries) and all(v is not None and self._no_tangent(v, depth + 1) for v in entries)
            finally:
                self._visiting.discard(key)
        if t is cst.Call:
            q = ctx.qualname(e.func) or ""
            if q in _NO_TANGENT or q.startswith("jax.random."):
                return True
            func = e.func
            if self._module_function(func, q):
                # `build_laplacian(build_derivative(2, 1.0, n))`: a function of the module
                # (or imported) reads only its arguments and module constants; given
                # values with no derivative, its result has none either
                return all(a.star == "" and self._no_tangent(a.value, depth + 1) for a in e.args)
            if isinstance(func, cst.Attribute) and not q.startswith(("jax.", "numpy.")):
                # a method of a value (`m.astype(jnp.float32)`, `m.sum()`): of that value
                if func.attr.value not in _ARRAY_METHODS:
                    return False
                return self._no_tangent(func.value, depth + 1) and all(
                    self._no_tangent(a.value, depth + 1) for a in e.args)
            if q.startswith(("jax.numpy.", "jax.lax.", "jax.nn.")):
                return all(self._no_tangent(a.value, depth + 1) for a in e.args)
        return False

    def _only_through_kernel(self, e: cst.CSTNode) -> bool:
        """Does every name ``e`` reads carry either no derivative or one that only a
        Pallas kernel's output gives it (``1 / l``, ``o / l`` with ``o, l`` the kernel's)?
        A name of its own (``w / l``, ``w`` a parameter the kernel never sees) still has a
        derivative through the `where`: `jax.grad` with respect to it gives NaN."""
        skip: set[int] = set()
        names: list[cst.Name] = []
        for n in walk_tree(e):
            if isinstance(n, cst.Call):
                skip.add(id(n.func))
            elif isinstance(n, cst.Attribute):
                skip.add(id(n.attr))
            elif isinstance(n, cst.Name) and id(n) not in skip:
                names.append(n)
        if not names:
            return self._from_kernel(e)
        return any(self._from_kernel(n) for n in names) and all(
            self._from_kernel(n) or self._no_tangent(n) for n in names)

    def _from_kernel(self, e: cst.CSTNode) -> bool:
        """Is ``e`` computed, through the names its function binds (the outermost
        function around it, its loops and nested functions), from what a Pallas kernel
        with no derivative rule returns: ``pl.pallas_call(...)`` applied, a function of
        this module that applies one, or one of another module of the project that does
        (``o, m, l = kernels.forward(q, k, v)`` ... ``jnp.where(l == 0, 0, 1 / l)``)?
        ``pallas_call`` has no reverse-mode rule: ``jax.grad`` through the kernel raises
        before the `where`'s gradient exists."""
        ctx = self.ctx
        top = ctx.unit
        while top.parent is not None and not top.parent.is_module:
            top = top.parent
        if top.is_module or not isinstance(top.node, cst.FunctionDef):
            return False
        binds = self._kernel_binds.get(id(top))
        if binds is None:
            binds = self._kernel_binds[id(top)] = {}
            for n in walk_tree(top.node.body):
                t = type(n)
                if t is cst.Assign:
                    for target in n.targets:
                        for name in _names_in(target.target):
                            binds.setdefault(name, []).append(n.value)
                elif t in (cst.AugAssign, cst.AnnAssign) and n.value is not None:
                    for name in _names_in(n.target):
                        binds.setdefault(name, []).append(n.value)
                elif t is cst.For:
                    for name in _names_in(n.target):
                        binds.setdefault(name, []).append(n.iter)
                elif t is cst.FunctionDef:
                    binds.setdefault(n.name.value, []).append(n.body)  # a nested function: what it computes
        module_defs = ctx.index.module_unit.defs
        seen: set[str] = set()
        todo: list[cst.CSTNode] = [e]
        while todo:
            for n in walk_tree(todo.pop()):
                if isinstance(n, cst.Call):
                    if (ctx.qualname(n.func) or "").endswith(".pallas_call") \
                            or (dotted_name(n.func) or "\0") in ctx.index.imported_kernels:
                        return True
                elif isinstance(n, cst.Name) and n.value not in seen:
                    seen.add(n.value)
                    if n.value in binds:
                        todo.extend(binds[n.value])
                    elif n.value in module_defs and nograd.applies_kernel(module_defs[n.value].node, ctx.qualname):
                        return True
        return False

    def _param_from_calls(self, name: str, depth: int) -> bool:
        """Is ``name`` a parameter of a function or lambda defined in another function,
        used there only by calls that all pass it a constant (a number, arithmetic of
        numbers, a number field of a plain dataclass config: ``get(cfg.rope_scale)``)?
        A function that is also handed on (to ``jax.grad``, returned) is not."""
        ctx = self.ctx
        unit = ctx.unit
        key = (id(unit), name)
        memo = self._from_calls
        if key in memo:
            return memo[key]
        memo[key] = False
        p = unit.param(name)
        parent = unit.parent
        if p is None or parent is None or parent.is_module or p.kind in ("vararg", "kwarg") \
                or not isinstance(parent.node, cst.FunctionDef):
            return False
        if isinstance(unit.node, cst.Lambda):
            fname = next((n for (uid, n), vals in self._bindings.items()
                          if uid == id(parent) and any(v is unit.node for v in vals)), None)
        else:
            fname = unit.name
        if fname is None:
            return False
        calls = []
        mentions = 0
        for n in walk_tree(parent.node.body):
            if isinstance(n, cst.Name) and n.value == fname:
                mentions += 1
            elif isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == fname:
                calls.append(n)
        if not calls or mentions != len(calls) + 1:
            return False  # not only called: handed on, or bound again
        for c in calls:
            if any(a.star for a in c.args):
                return False
            arg = next((a.value for a in c.args if a.keyword is not None and a.keyword.value == name), None)
            if arg is None and p.index is not None:
                pos = [a for a in c.args if a.keyword is None]
                arg = pos[p.index].value if p.index < len(pos) else p.default
            if arg is None or not self._constant_in(arg, parent, depth + 1):
                return False
        memo[key] = True
        return True

    def _constant_in(self, e: cst.CSTNode, unit, depth: int) -> bool:
        """Is ``e``, an expression of ``unit``, a Python number: a literal, arithmetic of
        them, a number field of a parameter annotated with a plain dataclass of this file
        (`cfg.rope_scaling_factor` with `cfg: Config`), or a local bound only to such?"""
        if depth > 8:
            return False
        t = type(e)
        if t in (cst.Integer, cst.Float, cst.SimpleString):
            return True
        if t is cst.UnaryOperation:
            return self._constant_in(e.expression, unit, depth + 1)
        if t is cst.BinaryOperation:
            return self._constant_in(e.left, unit, depth + 1) and self._constant_in(e.right, unit, depth + 1)
        if t is cst.Attribute and isinstance(e.value, cst.Name):
            p = unit.param(e.value.value)
            return p is not None and _number_field(self.ctx, p, e.attr.value)
        if t is cst.Name:
            entries = self._bindings.get((id(unit), e.value))
            return bool(entries) and all(v is not None and self._constant_in(v, unit, depth + 1) for v in entries)
        return False

    def _at_construction(self) -> bool:
        """Is this code the ``__init__`` of a class (not a flax/haiku module, whose methods
        run inside ``init``/``apply``) that no traced or differentiated code constructs?
        What it computes (`self.inv = jnp.where(op == 0, 0., 1 / op)`) is a constant of the
        object: ``grad`` of a function of the object differentiates its fields, never the
        constructor's arithmetic."""
        ctx = self.ctx
        unit = ctx.unit
        if unit.name not in ("__init__", "__post_init__") or unit.cls is None or ctx.in_tracing:
            return False
        cls = unit.cls
        if cls.linen or any(b.startswith(("haiku.", "flax.linen.")) for b in cls.bases):
            return False
        memo = self._built_traced
        if id(cls) not in memo:
            memo[id(cls)] = any(
                (u.reasons or u.grad_reasons) and any(
                    isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == cls.name
                    for n in walk_tree(u.node.body))
                for u in ctx.index.units if not u.is_module and isinstance(u.node, (cst.FunctionDef, cst.Lambda)))
        return not memo[id(cls)]

    def _module_function(self, func: cst.CSTNode, q: str) -> bool:
        """Is ``func`` a function defined at the top level of this module, or one imported
        from a project or library module other than JAX's and NumPy's (whose functions the
        rule reads one by one)?  Not a closure (which may hold a differentiated value), not
        a method (whose object may hold parameters)."""
        if q.startswith(("jax.", "numpy.", "builtins.")) or q in ("jax", "numpy"):
            return False
        v = self.ctx.value(func)
        if v.kind != V.FUNCTION or v.transform is not None:
            return False
        if v.unit is not None:
            return v.unit.parent is not None and v.unit.parent.is_module and v.unit.cls is None \
                and isinstance(v.unit.node, cst.FunctionDef)
        return bool(q) and type(func) in (cst.Name, cst.Attribute)

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        q = ctx.qualname(node.func)
        if q in _MASKED_REDUCTIONS:
            self._reduction_where(node, q)
            return
        if q in ("jax.numpy.sqrt", "jax.lax.sqrt"):
            self._root_of_clipped(node)
            return
        if q in _NORM_POWERS:
            self._power_of_norm(node)
            return
        if q == "jax.lax.cond":
            self._cond_on_norm(node)
            return
        if q not in ("jax.numpy.where", "jax.lax.select"):
            return
        pos = positional_args(node)
        if len(pos) != 3 or len(node.args) != 3:
            return
        self._site = node
        cond = pos[0].value
        # the masks of this `where` and of the `where`s around it: a branch masked
        # out by any of them gets a zero cotangent (times an infinite derivative)
        masks = [(cond, 1), *self._outer.get(id(node), [])]
        for side in (1, 2):
            for d in _where_calls_in(ctx, pos[side].value):
                self._outer[id(d)] = [(cond, side), *self._outer.get(id(node), [])]
        res = self._test_of
        tested = [(c, m_side, _exprs_in(ctx, c, res)) for c, m_side in masks]
        if not tested[0][2] and len(masks) == 1 and not self._anticipating(pos):
            self._diagonal_masked(node, cond, pos)
            return
        for side, branch in ((1, pos[1].value), (2, pos[2].value)):
            anticipated = False  # one finding per branch for a singular point the other branch handles
            for op_node, inner, safe, kind in self._singular_ops(branch):
                key = ctx.code(inner).strip()
                if kind in _OVERFLOW and self._bounded(key):
                    continue  # `p = jax.nn.sigmoid(z)`: never large enough to overflow
                # `pi_x = lax.mul(pi, x)` ... `sin(pi_x) / pi_x`, `x ** 3`: zero where `x` is
                scaled = self._zero_with(inner) if kind in ("zero", "nonpositive") else None
                masking = None
                for i, (c, m_side, keys) in enumerate(tested):
                    k, points = key, _SINGULAR_POINTS[kind]
                    if k not in keys and scaled in keys:
                        k, points = scaled, (0.0,)
                    if i == 0 and k not in keys and kind != "everywhere" and not _plain(inner):
                        # `jnp.sqrt(1 - x ** 2)` under `x < 1`: arithmetic of the tested variable,
                        # singular at a value of it the condition masks out (x = 2: sqrt(-3))
                        if self._arith_singular_masked(op_node, inner, kind, c, keys, side):
                            masking = (i, c, side)
                            break
                    if i == 0 and k not in keys:
                        continue  # (an outer mask counts when it is known at the point)
                    branch_side = side if i == 0 else m_side
                    if kind == "everywhere":
                        masking = (i, c, branch_side)  # infinite wherever it is masked out
                        break
                    verdicts = [_truth(ctx, c, k, at, res) for at in points]
                    masked_value = branch_side == 2  # side 1 is masked out where the condition is false
                    if any(v is masked_value for v in verdicts) or (
                            i == 0 and kind not in _OVERFLOW and all(v is None for v in verdicts)):
                        masking = (i, c, branch_side)
                        break
                handled = None
                if masking is None and not anticipated and kind in ("zero", "nonpositive"):
                    # the branch selected where this one is masked out tests `w` against 0
                    # (`jnp.where(use_taylor, 2.0 / w, jnp.where(jnp.abs(w) < eps, ...))`):
                    # the program expects `w` at 0 exactly where this branch is masked out
                    handled = self._handled_in(pos[3 - side].value, scaled or key)
                    if handled is not None:
                        masking = (0, cond, side)
                if masking is None:
                    continue
                if isinstance(inner, cst.Name) and self._kept_off_singular(inner):
                    continue  # `g_norm = rms(g) + eps` ... `w / g_norm`: never at the singular point
                i, c_node, branch_side = masking
                if kind == "zero" and self._dividend_zeroed(op_node, c_node):
                    continue
                if self._no_tangent(op_node):
                    continue  # nothing differentiable reaches it: no gradient to make NaN
                if self._only_through_kernel(op_node):
                    continue  # a Pallas kernel's output: `jax.grad` raises at the kernel first
                if self._at_construction():
                    continue  # an operator precomputed in `__init__`, outside any differentiation
                if self._in_derivative_rule() or self._only_in_while_loop(ctx.unit):
                    continue
                if self._underived():
                    continue  # a notebook's or test module's function no derivative of the file reaches
                the_fix = None
                if handled is not None:
                    anticipated = True
                    which = "false" if branch_side == 1 else "true"
                    c = ctx.code(cond).strip()
                    self.report(
                        op_node,
                        f"`{ctx.code(op_node).strip()}` is computed for every element, also where `{c}` is "
                        f"{which} and masks it out; the other branch, selected there, tests "
                        f"`{ctx.code(handled).strip()}`, so `{scaled or key}` reaches 0 there, where the "
                        f"derivative of `{ctx.code(op_node).strip()}` is infinite/NaN: the gradient of this "
                        f"`where` is NaN (0 * inf). Guard `{scaled or key}` in this branch too (double where: "
                        f"`jnp.where({c}, {scaled or key}, 1.0)` inside)" if side == 1 else
                        f"`{ctx.code(op_node).strip()}` is computed for every element, also where `{c}` is "
                        f"{which} and masks it out; the other branch, selected there, tests "
                        f"`{ctx.code(handled).strip()}`, so `{scaled or key}` reaches 0 there, where the "
                        f"derivative of `{ctx.code(op_node).strip()}` is infinite/NaN: the gradient of this "
                        f"`where` is NaN (0 * inf). Guard `{scaled or key}` in this branch too (double where: "
                        f"`jnp.where({c}, 1.0, {scaled or key})` inside)",
                        noqa_also=node,  # where it was reported before 2026-11-27
                    )
                    continue
                if kind == "everywhere":
                    which = "false" if branch_side == 1 else "true"
                    self.report(
                        op_node,
                        f"`{ctx.code(op_node).strip()}` has an infinite derivative everywhere, and "
                        f"`{ctx.code(c_node).strip()}` masks it out where it is {which}: the gradient "
                        f"of this `where` is NaN there (0 * inf). Write the infinite branch as a "
                        f"constant that does not depend on `{key}` (`jnp.inf`, `jnp.full_like({key}, jnp.inf)`)",
                    )
                    continue
                root = self._singular_root(inner) if kind == "zero" else None
                if root is not None:
                    # `g_norm = jnp.linalg.norm(g)` ... `jnp.where(g_norm > 1.0, g / g_norm, g)`:
                    # guarding `g_norm` leaves the NaN of the root's own derivative at 0
                    which = "false" if branch_side == 1 else "true"
                    self.report(
                        op_node,
                        f"`{ctx.code(op_node).strip()}` is computed for every element, also where "
                        f"`{ctx.code(c_node).strip()}` is {which} and masks it out; its derivative is "
                        f"infinite/NaN where `{key}` is 0, so the gradient of this `where` is NaN (0 * inf). "
                        f"Guarding `{key}` is not enough: `{key} = {ctx.code(root).strip()}` has a NaN "
                        f"gradient itself where it is 0 (the derivative of the square root there); guard the "
                        f"sum of squares before the root (`jnp.sqrt(jnp.where(sq > 0, sq, 1.0))` with `sq` "
                        f"the sum of squares), or use `optax.safe_norm`",
                        noqa_also=node,  # where it was reported before 2026-11-27
                    )
                    continue
                if q == "jax.numpy.where" and i == 0:
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
                which = "false" if branch_side == 1 else "true"
                limit = "128" if isinstance(op_node, cst.Call) and (ctx.qualname(op_node.func) or "").endswith(
                    "exp2") else "88"
                there = (f"for a large `{key}` there it overflows to inf (above about {limit} in float32), and so "
                         f"does its derivative" if kind in _OVERFLOW else
                         f"its derivative is infinite/NaN {_singular_where(ctx, op_node, key, kind)}")
                helper = self._helper_ops.get(id(op_node))
                if helper is not None:
                    there += f" (`{helper[0]}` computes `{helper[1]}` with `{helper[2]}` = `{key}`)"
                self.report(
                    op_node,
                    f"`{ctx.code(op_node).strip()}` is computed for every element, also where "
                    f"`{ctx.code(c_node).strip()}` is {which} and masks it out; {there}, so the "
                    f"gradient of this `where` is NaN (0 * inf). Guard "
                    f"`{key}` with the same condition too (double where: `jnp.where(cond, {key}, "
                    f"{_fmt(safe)})` inside)",
                    the_fix,
                    noqa_also=node,  # where it was reported before 2026-11-27
                )
        if len(masks) == 1:
            self._computed_operands(cond, pos)
            self._where_on_root(node, cond, pos)
            self._diagonal_masked(node, cond, pos)

    def _reduction_where(self, node: cst.Call, q: str) -> None:
        """``jnp.sum(jnp.log(p), where=p > 0)``, ``jnp.mean(jnp.sqrt(x), where=x > 0)``: a
        reduction's ``where=`` drops elements as a `where` does, after the singular function
        ran on every element; the dropped elements' infinite derivative meets a zero
        cotangent.  Reported where the mask shows the singular point dropped: it tests the
        variable (as a `where` condition), or the variable is a ``softmax(..., where=m)``
        of the same mask (0 exactly where ``m`` is false: ``jnp.sum(a * jnp.log2(a),
        where=m)``)."""
        ctx = self.ctx
        mask = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "where"), None)
        pos = positional_args(node)
        if mask is None or not pos:
            return
        self._site = node
        res = self._test_of
        keys = _exprs_in(ctx, mask, res)
        fname = q.rsplit(".", 1)[-1]
        m = ctx.code(mask).strip()
        for op_node, inner, safe, kind in self._singular_ops(pos[0].value):
            if kind not in ("zero", "nonpositive"):
                continue
            key = ctx.code(inner).strip()
            because = None
            if key in keys:
                if any(_truth(ctx, mask, key, at, res) is False for at in _SINGULAR_POINTS[kind]):
                    because = f"its derivative is infinite/NaN {_singular_where(ctx, op_node, key, kind)}"
            elif isinstance(inner, cst.Name):
                made = self._masked_softmax(inner, m)
                if made is not None:
                    because = (f"`{key} = {ctx.code(made).strip()}` is 0 exactly there, where the derivative "
                               f"of `{ctx.code(op_node).strip()}` is infinite/NaN")
            if because is None:
                continue
            if isinstance(inner, cst.Name) and self._kept_off_singular(inner):
                continue
            if self._no_tangent(op_node) or self._only_through_kernel(op_node) or self._at_construction() \
                    or self._in_derivative_rule() or self._only_in_while_loop(ctx.unit) or self._underived():
                continue
            self.report(
                op_node,
                f"`{ctx.code(op_node).strip()}` is computed for every element, also where `where={m}` is false "
                f"and drops it from the `{fname}`; {because}, so the gradient of this `{fname}` is NaN "
                f"(0 * inf). Guard `{key}` with the mask too (`jnp.where({m}, {key}, {_fmt(safe)})` inside)",
            )

    def _zero_clip(self, e: cst.CSTNode) -> bool:
        """``jnp.maximum(0., x)``, ``jnp.clip(x, 0.0, hi)``, ``lax.max(x, 0.)``: exactly 0
        wherever ``x`` is 0 or below, with a zero derivative there (``jax.nn.relu`` is
        not: its derivative rule selects 0 instead of multiplying, jax 0.10.2)."""
        ctx = self.ctx
        if not isinstance(e, cst.Call):
            return False
        q = ctx.qualname(e.func) or ""
        pos = positional_args(e)

        def zero(v: Optional[cst.CSTNode]) -> bool:
            return isinstance(v, (cst.Integer, cst.Float)) and float(v.value.replace("_", "")) == 0.0

        if q in ("jax.numpy.maximum", "jax.numpy.fmax", "jax.lax.max") and len(pos) == 2 and len(e.args) == 2:
            return zero(pos[0].value) != zero(pos[1].value)
        if q == "jax.numpy.clip":
            lo = pos[1].value if len(pos) > 1 else next(
                (a.value for a in e.args if a.keyword is not None and a.keyword.value in ("min", "a_min")), None)
            return zero(lo)
        return False  # (not `jax.nn.relu`: its own derivative rule selects 0, no NaN)

    def _root_of_clipped(self, node: cst.Call) -> None:
        """``sigma00 = jnp.maximum(0., sigma00)`` ... ``jnp.sqrt(sigma00 * sigma11)``: the
        clip makes the root's input exactly 0 wherever its own input is 0 or below (a flat
        image's variance), where the root's derivative is infinite and the clip's is 0:
        the gradient is NaN (0 * inf).  The root of a name last bound, by a statement of the
        function's own body, to such a clip, of a product with such a factor, or of the
        (dm_pix's SSIM, recall case 1412).  The clip written inside the root
        (`jnp.sqrt(jnp.maximum(d, 0.0))`, "no sqrt of a tiny negative number") computes the
        same gradient and is judged the same way.  Both idioms are common in sampling and
        inference code that nothing differentiates (alphafold3's diffusion sampler, fresh
        set 18; graphcast's sampler, fresh set 20): reported only where a derivative of the
        function is shown (`_differentiated_shown`), never where reach is merely unknown."""
        ctx = self.ctx
        pos = positional_args(node)
        if len(pos) != 1 or len(node.args) != 1:
            return
        arg = pos[0].value
        factors: list[cst.CSTNode] = []
        stack = [arg]
        while stack:
            e = stack.pop()
            if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, cst.Multiply):
                stack.extend((e.right, e.left))  # (source order)
            else:
                factors.append(e)
        clipped = None
        for f in factors:
            if self._zero_clip(f):
                clipped = (None, f)  # written inside the root: `jnp.sqrt(jnp.maximum(d, 0.0))`
                break
            if isinstance(f, cst.Name):
                latest = self._latest.get((id(ctx.unit), f.value))
                if latest is not None and latest[1] and self._zero_clip(latest[0]) \
                        and not ctx.rebound_in_loop(f):
                    clipped = (f.value, latest[0])
                    break
        if clipped is None:
            return
        self._site = node
        if self._no_tangent(node) or self._only_through_kernel(node) or self._at_construction() \
                or self._in_derivative_rule() or self._only_in_while_loop(ctx.unit) or self._underived():
            return
        if not self._differentiated_shown():
            # the clip-then-root idiom ("no sqrt of a rounding error's negative") is common in
            # sampling code nothing differentiates (graphcast's weathernext sampler, fresh set
            # 20): reported only where a derivative of this function is shown, not merely
            # where the project's reach, which matches methods by name, cannot rule one out
            return
        name, clip = clipped
        which = f"`{name} = {ctx.code(clip).strip()}` clips `{name}`" if name is not None \
            else f"`{ctx.code(clip).strip()}` clips its input"
        # a derivative of either mode is shown above: unlike a masked `where` branch, the
        # clipped root's infinite derivative meets the clip's 0 in forward mode too
        # (`jax.jacfwd` gives NaN), so the reverse-mode reach does not apply
        super().report(
            node,
            f"`{ctx.code(node).strip()}`: {which} to exactly 0 wherever that input is 0 or below, where the "
            f"derivative of the square root is infinite and the clip's is 0: the gradient is NaN there "
            f"(0 * inf). Clip to a small positive number instead (`jnp.maximum(eps, ...)`), or guard the "
            f"root's input (`jnp.sqrt(jnp.where(v > 0, v, 1.0))`)",
        )

    def _euclidean_root(self, e: cst.CSTNode) -> Optional[cst.CSTNode]:
        """``e`` is a 2-norm of an unguarded input, written as a norm
        (``jnp.linalg.norm(x)``, ``vector_norm``, ``optax.global_norm``), as the root of a
        sum of squares (``jnp.sqrt(jnp.sum(x ** 2))``, ``jnp.sqrt(jnp.sum(jnp.square(x)))``,
        ``jnp.sqrt(jnp.dot(x, x))``, ``jnp.sqrt(x @ x)``), or as a name last bound to one
        by a statement of the function's own body: the call (0 at the zero vector, where
        its derivative is 0/0, NaN).  None otherwise."""
        ctx = self.ctx
        if isinstance(e, cst.Name):
            key = (id(ctx.unit), e.value)
            latest = self._latest.get(key)
            entries = self._bindings.get(key)
            if latest is None or not latest[1] or not entries or entries[-1] is not latest[0] \
                    or ctx.rebound_in_loop(e) or isinstance(latest[0], cst.Name):
                return None
            return self._euclidean_root(latest[0])
        if not isinstance(e, cst.Call) or any(a.star for a in e.args):
            return None
        q = ctx.qualname(e.func) or ""
        pos = positional_args(e)
        if not pos or _guarded_input(ctx, pos[0].value):
            return None
        if q in _EUCLIDEAN_NORMS:
            return e if _euclidean_order(ctx, e) else None
        if q in _GLOBAL_NORMS and len(e.args) == 1:
            return e
        if q in ("jax.numpy.sqrt", "jax.lax.sqrt") and len(e.args) == 1:
            return e if _sum_of_squares(ctx, pos[0].value) else None
        return None

    def _cond_on_norm(self, node: cst.Call) -> None:
        """``theta = jnp.linalg.norm(v)`` ... ``lax.cond(theta == 0.0, identity, branch,
        (theta, v))``: the predicate shows the program expects the zero vector, and
        ``theta`` also enters the computation (an operand, or read by a branch function
        of this function).  At the zero vector the selected branch gives ``theta`` a zero
        cotangent, which reverse mode multiplies by the norm's own derivative there,
        ``v / ||v||`` = 0/0: the gradient is NaN whatever the branches compute (jaxsim's
        ``from_axis_angle``, recall case 1222; jax 0.10.2: ``grad(lambda v: lax.cond(
        norm(v) == 0., lambda t: 1., lambda t: jnp.cos(t), norm(v)))(zeros(3))`` is NaN).
        A test that does not single out 0 (``theta > 1.0``: true nowhere near 0) shows no
        such expectation and stays silent."""
        ctx = self.ctx
        pos = positional_args(node)
        kw = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        if any(a.star for a in node.args):
            return
        pred = pos[0].value if pos else kw.get("pred")
        if pred is None:
            return
        branches = [a.value for a in pos[1:3]] + [kw[k] for k in ("true_fun", "false_fun") if k in kw]
        operands = [a.value for a in pos[3:]] + [kw[k] for k in ("operand", "operands") if k in kw]

        def enters(key: str) -> bool:
            def reads(e: cst.CSTNode) -> bool:
                return any(isinstance(n, cst.Name) and n.value == key for n in walk_tree(e))

            if any(reads(o) for o in operands):
                return True
            for b in branches:
                if isinstance(b, cst.Lambda) and reads(b.body):
                    return True
                if isinstance(b, cst.Name):
                    fn = next((u for u in ctx.index.units if u.parent is ctx.unit and u.name == b.value
                               and isinstance(u.node, cst.FunctionDef)), None)
                    if fn is not None and key not in fn.assigned and all(p.name != key for p in fn.params) \
                            and reads(fn.node.body):
                        return True
            return False

        self._anticipated_zero_root(node, pred, enters, "the `lax.cond`")

    def _anticipated_zero_root(self, site: cst.Call, pred: cst.BaseExpression, enters, what: str) -> None:
        """A name bound once in this function to a 2-norm or a square root of an unguarded
        input that ``pred`` tests against 0 (true at 0, false near it, or the reverse:
        ``theta == 0.0``, ``theta < 1e-6``, ``n > 0``) and that ``enters(name)`` says
        enters the selection: reported at the root (see `_cond_on_norm`)."""
        ctx = self.ctx
        tested = _exprs_in(ctx, pred, self._test_of)
        for key in sorted(tested):
            if not key.isidentifier():
                continue
            at0 = _truth(ctx, pred, key, 0.0, self._test_of)
            near = _truth(ctx, pred, key, 1e-3, self._test_of)
            if at0 is None or near is None or at0 == near:
                continue  # the test does not single out 0
            name = next((n for n in walk_tree(pred) if isinstance(n, cst.Name) and n.value == key), None)
            if name is None:
                continue
            root = self._singular_root(name)
            if root is None or id(root) in self._roots_reported or not enters(key):
                continue
            self._roots_reported.add(id(root))
            self._site = site
            if self._no_tangent(root) or self._only_through_kernel(root) or self._at_construction() \
                    or self._in_derivative_rule() or self._only_in_while_loop(ctx.unit) or self._underived():
                return
            arg = ctx.code(positional_args(root)[0].value).strip()
            if (ctx.qualname(root.func) or "") in ("jax.numpy.sqrt", "jax.lax.sqrt"):
                expects = f"expects `{arg}` to be 0"
                there = "the derivative of the square root is infinite"
                guard = f"Take the root of a guarded input (`jnp.sqrt(jnp.where({arg} > 0, {arg}, 1.0))`)"
            else:
                expects = f"expects `{arg}` to be the zero vector"
                there = f"the derivative of the 2-norm is `{arg} / norm({arg})` = 0/0"
                guard = (f"Compute the norm of a guarded input (`sq = jnp.sum({arg} ** 2)`, "
                         f"`jnp.sqrt(jnp.where(sq > 0, sq, 1.0))`)")
            self.report(
                root,
                f"`{key} = {ctx.code(root).strip()}` is tested by `{ctx.code(pred).strip()}`, so the program "
                f"{expects}, and `{key}` also enters {what}; there {there}, and reverse mode multiplies "
                f"it by the zero cotangent the selected branch gives `{key}`: the gradient is NaN whatever the "
                f"branches compute. {guard} and test the guarded value's input instead",
            )
            return

    def _where_on_root(self, node: cst.Call, cond: cst.BaseExpression, pos) -> None:
        """``n = jnp.linalg.norm(v)`` ... ``jnp.where(n == 0., 0., jnp.cos(n))``: the
        `where` analogue of `_cond_on_norm`, for a branch that reads the norm in a function
        finite at 0 (a division by it, a branch that is the name itself, are reported by
        the `where` checks above)."""
        ctx = self.ctx

        def enters(key: str) -> bool:
            for side in (1, 2):
                b = pos[side].value
                if isinstance(b, cst.Name):
                    if b.value == key:
                        return False  # `jnp.where(n == 0., 1., n)`: `_computed_operands`
                    continue
                if not any(isinstance(n, cst.Name) and n.value == key
                           for n in walk_tree(b, lambda c: isinstance(c, cst.Lambda))):
                    continue
                for _op, inner, _safe, kind in self._singular_ops(b):
                    if ctx.code(inner).strip() == key or (not _plain(inner) and self._zero_with(inner) == key):
                        return False  # `g / n` under `n > 0`: reported at the division
                return True
            return False

        self._anticipated_zero_root(node, cond, enters, "this `where`")

    def _only_squared(self, name: str) -> bool:
        """Is every read of ``name`` in this function's text a power of it (``n ** 2``,
        ``jnp.square(n)``, ``jnp.power(n, 2)``, ``n * n``)?  A norm also read as itself
        (``2 * d * r1``) makes the function non-smooth at the zero vector: writing its
        square as a sum of squares would not remove the NaN.  (Read on the function's
        source text; a mention in a comment or string counts as a read: quieter.)"""
        import re
        code = self.ctx.code(self.ctx.unit.node)
        n = re.escape(name)
        reads = len(re.findall(rf"(?<![.\w]){n}\b", code)) - len(re.findall(rf"(?<![.\w]){n}\s*=(?!=)", code))
        squared = (len(re.findall(rf"(?<![.\w]){n}\s*\*\*", code))
                   + len(re.findall(rf"(?:square|power|integer_pow|pow)\(\s*{n}\b", code))
                   + 2 * len(re.findall(rf"(?<![.\w]){n}\s*\*\s*{n}\b(?!\s*\*\*)", code)))
        return reads <= squared

    def _single_value(self, e: cst.CSTNode) -> Optional[cst.BaseExpression]:
        """The one value this function binds name ``e`` to (not rebound in a loop), or None."""
        if not isinstance(e, cst.Name):
            return None
        entries = self._bindings.get((id(self.ctx.unit), e.value))
        if not entries or len(entries) != 1 or entries[0] is None or self.ctx.rebound_in_loop(e):
            return None
        return entries[0]

    def _diagonal_side(self, cond: cst.CSTNode, depth: int = 0) -> Optional[int]:
        """The branch a condition built from an identity matrix masks out on the diagonal:
        1 for ``1 - jnp.eye(n)``, ``~jnp.eye(n, dtype=bool)``, ``jnp.eye(n) == 0``,
        ``jnp.logical_not(jnp.eye(n))`` (false there), 2 for ``jnp.eye(n)``, ``jnp.eye(n) ==
        1``, ``jnp.eye(n) > 0`` (true there); None for anything else."""
        ctx = self.ctx
        if depth > 3:
            return None
        bound = self._single_value(cond)
        if bound is not None:
            return self._diagonal_side(bound, depth + 1)

        def eye(e: cst.CSTNode, d: int = 0) -> bool:
            if d > 4:
                return False
            if isinstance(e, cst.Name):
                v = self._single_value(e)
                return v is not None and eye(v, d + 1)
            if isinstance(e, cst.Call):
                q = ctx.qualname(e.func) or ""
                if q in _EYES:
                    return True
                if isinstance(e.func, cst.Attribute) and e.func.attr.value == "astype":
                    return eye(e.func.value, d + 1)
                if q in ("jax.numpy.asarray", "jax.numpy.array") and e.args:
                    return eye(e.args[0].value, d + 1)
            return False

        def zero(e, v) -> bool:
            return isinstance(e, (cst.Integer, cst.Float)) and float(e.value) == v

        if eye(cond):
            return 2
        if isinstance(cond, cst.UnaryOperation) and isinstance(cond.operator, (cst.BitInvert, cst.Not)) \
                and eye(cond.expression):
            return 1
        if isinstance(cond, cst.Call) and ctx.qualname(cond.func) == "jax.numpy.logical_not" and cond.args \
                and eye(cond.args[0].value):
            return 1
        if isinstance(cond, cst.BinaryOperation) and isinstance(cond.operator, cst.Subtract) \
                and zero(cond.left, 1.0) and eye(cond.right):
            return 1
        if isinstance(cond, cst.Comparison) and len(cond.comparisons) == 1 and eye(cond.left):
            op, right = cond.comparisons[0].operator, cond.comparisons[0].comparator
            if isinstance(op, cst.Equal) and zero(right, 0.0) or isinstance(op, cst.NotEqual) and zero(right, 1.0) \
                    or isinstance(op, cst.LessThan) and zero(right, 1.0):
                return 1
            if isinstance(op, cst.Equal) and zero(right, 1.0) or isinstance(op, cst.NotEqual) and zero(right, 0.0) \
                    or isinstance(op, cst.GreaterThan) and zero(right, 0.0):
                return 2
        return None

    def _view(self, e: cst.CSTNode, unit_values=None) -> Optional[tuple[str, int]]:
        """``x[:, None]`` -> ("x", 1), ``x[None]`` -> ("x", 0), ``jnp.expand_dims(x, 0)`` ->
        ("x", 0): an array and the axis a new dimension is inserted at."""
        ctx = self.ctx
        if isinstance(e, cst.Name) and unit_values is None:
            v = self._single_value(e)
            return self._view(v, True) if v is not None else None
        if isinstance(e, cst.Subscript) and _plain(e.value):
            for i, el in enumerate(e.slice):
                if isinstance(el.slice, cst.Index) and isinstance(el.slice.value, cst.Name) \
                        and el.slice.value.value == "None":
                    return ctx.code(e.value).strip(), i
            return None
        if isinstance(e, cst.Call) and ctx.qualname(e.func) in ("jax.numpy.expand_dims", "numpy.expand_dims"):
            pos = positional_args(e)
            if len(pos) == 2 and _plain(pos[0].value):
                axis = int_value(pos[1].value)
                if axis is not None and axis >= 0:
                    return ctx.code(pos[0].value).strip(), axis
        return None

    def _pairwise(self, a: cst.CSTNode, b: cst.CSTNode) -> bool:
        """Are ``a`` and ``b`` one array with a new axis at two different places
        (``x[:, None] - x[None, :]``): their difference is 0 on the diagonal."""
        va, vb = self._view(a), self._view(b)
        return va is not None and vb is not None and va[0] == vb[0] and va[1] != vb[1]

    def _distance_of(self, e: cst.CSTNode, pair) -> bool:
        """``e`` is a 2-norm (or the root of a sum of squares) of ``a - b`` where
        ``pair(a, b)`` holds."""
        ctx = self.ctx
        if not isinstance(e, cst.Call):
            return False
        q = ctx.qualname(e.func) or ""
        pos = positional_args(e)
        if not pos:
            return False
        arg = pos[0].value
        if q in _EUCLIDEAN_NORMS and _euclidean_order(ctx, e):
            diff = arg
        elif q in ("jax.numpy.sqrt", "jax.lax.sqrt") and isinstance(arg, cst.Call) \
                and ctx.qualname(arg.func) == "jax.numpy.sum" and positional_args(arg) \
                and _squared(ctx, positional_args(arg)[0].value):
            sq = positional_args(arg)[0].value
            diff = sq.left if isinstance(sq, cst.BinaryOperation) else positional_args(sq)[0].value
        else:
            return False
        for _ in range(4):
            if not isinstance(diff, cst.Name):
                break
            v = self._single_value(diff)
            if v is None:
                return False
            diff = v
        return isinstance(diff, cst.BinaryOperation) and isinstance(diff.operator, cst.Subtract) \
            and pair(diff.left, diff.right)

    def _zero_diagonal(self, e: cst.CSTNode) -> bool:
        """Is ``e`` (a name bound once to it) a matrix of distances between the points of
        one array, 0 on its diagonal: ``jnp.linalg.norm(x[:, None] - x[None, :], axis=-1)``,
        ``jnp.sqrt(jnp.sum((jnp.expand_dims(x, 0) - jnp.expand_dims(x, 1)) ** 2, -1))``, or a
        function of this module returning the norm of its two parameters' difference called
        with two such views (``distance(ri, rj)`` with ``ri = np.expand_dims(conf, 0)``)?"""
        ctx = self.ctx
        v = self._single_value(e) if isinstance(e, cst.Name) else e
        if not isinstance(v, cst.Call):
            return False
        if self._distance_of(v, self._pairwise):
            return True
        q = ctx.qualname(v.func) or ""
        if not self._module_function(v.func, q):
            return False
        unit = ctx.value(v.func).unit
        if unit is None or not isinstance(unit.node, cst.FunctionDef) or unit.node.decorators \
                or len(unit.returns) != 1 or unit.returns[0] is None:
            return False
        ret = unit.returns[0]
        if isinstance(ret, cst.Name):
            entries = [val for _seq, val in unit.bindings.get(ret.value, ())]
            if len(entries) != 1 or entries[0] is None:
                return False
            ret = entries[0]
        pos = positional_args(v)
        params = [p.name for p in unit.positional()]
        views = {params[i]: self._view(a.value) for i, a in enumerate(pos) if i < len(params)}

        def pair(a: cst.CSTNode, b: cst.CSTNode) -> bool:
            if not (isinstance(a, cst.Name) and isinstance(b, cst.Name)):
                return False
            va, vb = views.get(a.value), views.get(b.value)
            return a.value not in unit.assigned and b.value not in unit.assigned \
                and va is not None and vb is not None and va[0] == vb[0] and va[1] != vb[1]

        if not isinstance(ret, cst.Call):
            return False
        # the helper's norm, its difference read in the helper's own bindings
        saved = self._single_value
        self._single_value = lambda n: (  # type: ignore[method-assign]
            next((val for _s, val in unit.bindings.get(n.value, ())), None)
            if isinstance(n, cst.Name) and len(unit.bindings.get(n.value, ())) == 1 else None)
        try:
            return self._distance_of(ret, pair)
        finally:
            self._single_value = saved  # type: ignore[method-assign]

    def _diagonal_masked(self, node: cst.Call, cond: cst.BaseExpression, pos) -> None:
        """``keep = 1 - jnp.eye(n)`` ... ``jnp.where(keep, q / r, 0.)`` with ``r`` the
        distance matrix of one array's points: the condition masks out exactly the
        diagonal, where ``r`` is 0 (each point's distance to itself), and the masked
        division's infinite derivative meets a zero cotangent; the norm's own derivative
        there is NaN too (jax 0.10.2: NaN in every entry of the gradient; recall case 505,
        jax#654).  Reported at the singular operation."""
        ctx = self.ctx
        side = self._diagonal_side(cond)
        if side is None:
            return
        branch = pos[side].value
        for op_node, inner, _safe, kind in self._singular_ops(branch):
            # (a power of the distance, `1.0 / r ** 6`: `_power_of_norm` reports it)
            if kind not in ("zero", "nonpositive") or not isinstance(inner, cst.Name) \
                    or not self._zero_diagonal(inner):
                continue
            self._site = node
            if self._no_tangent(op_node) or self._only_through_kernel(op_node) or self._at_construction() \
                    or self._in_derivative_rule() or self._only_in_while_loop(ctx.unit) or self._underived():
                return
            key = ctx.code(inner).strip()
            which = "false" if side == 1 else "true"
            self.report(
                op_node,
                f"`{ctx.code(op_node).strip()}` is computed for every element, also on the diagonal, where "
                f"`{ctx.code(cond).strip()}` is {which} and masks it out; `{key}` is the distance of each point "
                f"to itself there, 0, where the derivative of `{ctx.code(op_node).strip()}` is infinite and "
                f"that of the norm is 0/0: the gradient of this `where` is NaN. Mask the squared distances "
                f"before the root (`jnp.sqrt(jnp.where(mask, d2, 1.0))`), so the diagonal is computed at 1",
            )
            return

    def _power_of_norm(self, node: cst.CSTNode) -> None:
        """``jnp.linalg.norm(x) ** 2`` (``jnp.square(n)``, ``jnp.power(n, 2)``, ``n * n``,
        any power above 1 of a 2-norm): smooth at the zero vector, with gradient 0 there,
        but JAX differentiates the norm first, whose derivative ``x / ||x||`` is 0/0 at the
        zero vector: the gradient is NaN (jax 0.10.2: ``grad(lambda x: jnp.linalg.norm(x)
        ** 2)(jnp.zeros(3))`` is ``[nan nan nan]``; ``jnp.sum(x ** 2)`` gives ``[0. 0. 0.]``).
        Reported where a derivative of the function is shown (`_differentiated_shown`):
        the power says the author wants a function smooth at 0, so the zero vector (a
        zero-initialised parameter, a zero residual) is a point the gradient will meet."""
        ctx = self.ctx
        base = None
        if isinstance(node, cst.BinaryOperation):
            if isinstance(node.operator, cst.Power):
                k = _exponent(node.right)
                if k is not None and k > 1:
                    base = node.left
            elif isinstance(node.operator, cst.Multiply) and ctx.code(node.left).strip() == ctx.code(node.right).strip():
                base = node.left
        elif isinstance(node, cst.Call):
            q = ctx.qualname(node.func) or ""
            pos = positional_args(node)
            if any(a.star for a in node.args) or len(pos) != len(node.args):
                return
            if q in ("jax.numpy.square", "jax.lax.square") and len(pos) == 1:
                base = pos[0].value
            elif q in ("jax.numpy.power", "jax.numpy.float_power", "jax.lax.pow", "jax.lax.integer_pow") \
                    and len(pos) == 2:
                k = _exponent(pos[1].value)
                if k is not None and k > 1:
                    base = pos[0].value
        while isinstance(base, cst.Call) and ctx.qualname(base.func) in _ABS and len(base.args) == 1:
            base = base.args[0].value  # `jnp.abs(n) ** 2`
        if base is None:
            return
        root = self._euclidean_root(base)
        if root is None:
            return
        if isinstance(base, cst.Name) and not self._only_squared(base.value):
            return  # `d = norm(c1 - c2)` also read as `d` (`2 * d * r1`): not smooth at 0 anyway
        self._site = node
        if self._no_tangent(root) or self._only_through_kernel(root) or self._at_construction() \
                or self._in_derivative_rule() or self._only_in_while_loop(ctx.unit) or self._underived():
            return
        if not self._differentiated_shown():
            return
        arg_node = positional_args(root)[0].value
        arg = ctx.code(arg_node).strip()
        sq_of = arg if _plain(arg_node) else f"({arg})"
        k = _exponent(node.right) if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Power) \
            else _exponent(positional_args(node)[1].value) if isinstance(node, cst.Call) \
            and len(positional_args(node)) == 2 else 2.0
        half = k / 2 if k is not None else 1.0
        tail = "" if half == 1 else f" ** {int(half) if half == int(half) else half}"
        rq = ctx.qualname(root.func) or ""
        name = f"`{ctx.code(base).strip()}` is `{ctx.code(root).strip()}`, and " if isinstance(base, cst.Name) else ""
        if rq in ("jax.numpy.sqrt", "jax.lax.sqrt"):
            where = f"`{arg}` is 0"
            instead = (f"use `{arg}` itself, not the square of its root" if not tail
                       else f"use `{sq_of}{tail}`, not a power of its root")
        elif rq in _GLOBAL_NORMS:
            where = f"every leaf of `{arg}` is all zeros"
            instead = (f"write the squared norm as a sum of squares "
                       f"(`optax.tree_utils.tree_l2_norm({arg}, squared=True){tail}`), not through the root")
        else:
            where = f"`{arg}` is all zeros"
            instead = (f"write the squared norm as a sum of squares (`jnp.sum({sq_of} ** 2){tail}`, with the "
                       f"norm's `axis` if it has one), not through the root")
        self.report(
            node,
            f"`{ctx.code(node).strip()}`: {name}the derivative of the 2-norm at the zero vector is "
            f"`x / norm(x)` = 0/0, NaN, so this power of it, smooth there with gradient 0, gets a NaN "
            f"gradient wherever {where} (a zero-initialised parameter, a zero residual, a distance of a "
            f"point to itself); {instead}",
        )

    def _masked_softmax(self, name: cst.Name, mask: str) -> Optional[cst.Call]:
        """Is ``name`` bound in this function to a ``softmax(..., where=<mask>)`` (0 where
        the mask is false), then rescaled by a function of itself (``a = a * jnp.sum(a) **
        -1``), and to nothing else?  The softmax.  The rescaling matters: the softmax's own
        derivative drops the masked elements' cotangent (jax 0.10.2: ``jnp.sum(a *
        jnp.log2(a), where=m)`` of the bare softmax has a finite gradient), while a scale
        computed from every element carries their NaN into all of them."""
        ctx = self.ctx
        made, mixed = None, False
        for _seq, v in ctx.unit.bindings.get(name.value, ()):
            if isinstance(v, cst.Call) and ctx.qualname(v.func) == "jax.nn.softmax" and made is None and any(
                    a.keyword is not None and a.keyword.value == "where" and ctx.code(a.value).strip() == mask
                    for a in v.args):
                made = v
            elif made is not None and isinstance(v, cst.BinaryOperation) \
                    and isinstance(v.operator, (cst.Multiply, cst.Divide)) \
                    and isinstance(v.left, cst.Name) and v.left.value == name.value \
                    and any(isinstance(n, cst.Name) and n.value == name.value for n in walk_tree(v.right)):
                mixed = True  # (a product keeps the zeros, a scale read from every element mixes them)
            else:
                return None
        return made if mixed else None

    def _test_of(self, name: cst.Name) -> Optional[cst.BaseExpression]:
        """The test a name of this function is bound to, once and not again in a loop
        (``use_taylor = norm_sq < eps`` ... ``jnp.where(use_taylor, ...)``)."""
        ctx = self.ctx
        entries = self._bindings.get((id(ctx.unit), name.value))
        if not entries or len(entries) != 1 or entries[0] is None or ctx.rebound_in_loop(name):
            return None
        v = entries[0]
        if isinstance(v, cst.Comparison) \
                or isinstance(v, cst.BinaryOperation) and isinstance(v.operator, (cst.BitAnd, cst.BitOr)) \
                or isinstance(v, cst.UnaryOperation) and isinstance(v.operator, cst.BitInvert) \
                or isinstance(v, cst.Call) and ctx.qualname(v.func) in (_CMP_FUNCS | _BOOL_FUNCS):
            return v
        return None

    def _constant_factor(self, e: cst.CSTNode, depth: int = 0) -> bool:
        """A number that does not vary: a literal, a library constant (``jnp.pi``), a
        Python or NumPy value the model knows (``pi = onp.pi``), arithmetic of those, an
        array a constant-making helper builds from one (``_constant_like(x, pi)``)."""
        ctx = self.ctx
        if depth > 4:
            return False
        if isinstance(e, (cst.Integer, cst.Float)):
            return True
        if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Minus):
            return self._constant_factor(e.expression, depth + 1)
        if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, (cst.Multiply, cst.Divide, cst.Add, cst.Subtract)):
            return self._constant_factor(e.left, depth + 1) and self._constant_factor(e.right, depth + 1)
        if isinstance(e, (cst.Name, cst.Attribute)):
            q = ctx.qualname(e) or ""
            if q.startswith(("jax.numpy.", "numpy.", "math.")):
                return True
            return ctx.value(e).kind == V.STATIC
        made = _made_constant(ctx, e)
        return made is not None and self._constant_factor(made, depth + 1)

    def _zero_with(self, e: cst.CSTNode, depth: int = 0) -> Optional[str]:
        """The variable whose 0 makes ``e`` 0: a constant multiple (``jnp.pi * x``,
        ``lax.mul(c, x)``, ``x / 2``, ``-x``), a positive integer power (``w ** 3``), or a
        name of this function bound once to one (``pi_x = lax.mul(pi, x)``)."""
        ctx = self.ctx
        if depth > 4:
            return None

        def var(v: cst.CSTNode) -> Optional[str]:
            return ctx.code(v).strip() if _plain(v) else self._zero_with(v, depth + 1)

        if isinstance(e, cst.Name):
            entries = self._bindings.get((id(ctx.unit), e.value))
            if not entries or len(entries) != 1 or entries[0] is None or ctx.rebound_in_loop(e):
                return None
            v = entries[0]
            return None if isinstance(v, cst.Name) else self._zero_with(v, depth + 1)
        if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Minus):
            return var(e.expression)
        if isinstance(e, cst.BinaryOperation):
            if isinstance(e.operator, cst.Multiply):
                if self._constant_factor(e.left):
                    return var(e.right)
                if self._constant_factor(e.right):
                    return var(e.left)
            elif isinstance(e.operator, cst.Divide) and self._constant_factor(e.right):
                return var(e.left)
            elif isinstance(e.operator, cst.Power) and isinstance(e.right, cst.Integer) \
                    and (int_value(e.right) or 0) > 0:
                return var(e.left)
            return None
        if isinstance(e, cst.Call) and ctx.qualname(e.func) in ("jax.lax.mul", "jax.numpy.multiply"):
            pos = positional_args(e)
            if len(pos) == 2 and len(e.args) == 2:
                if self._constant_factor(pos[0].value):
                    return var(pos[1].value)
                if self._constant_factor(pos[1].value):
                    return var(pos[0].value)
        return None

    def _handled_in(self, other: cst.CSTNode, key: str) -> Optional[cst.CSTNode]:
        """The condition of a `where` in ``other`` that singles out ``key`` at 0 (true
        there and false at ±1, or the reverse: ``jnp.abs(w) < eps``, ``w == 0``)."""
        ctx = self.ctx
        for d in _where_calls_in(ctx, other):
            dpos = positional_args(d)
            if len(dpos) != 3:
                continue
            c = dpos[0].value
            if key not in _exprs_in(ctx, c, self._test_of):
                continue
            at0 = _truth(ctx, c, key, 0.0, self._test_of)
            if at0 is not None and all(_truth(ctx, c, key, v, self._test_of) is (not at0) for v in (1.0, -1.0)):
                return c
        return None

    def _arith_singular_masked(self, op_node: cst.CSTNode, inner: cst.CSTNode, kind: str, cond: cst.CSTNode,
                               keys: set[str], side: int) -> bool:
        """Is ``inner``, arithmetic of one variable the condition tests and of constants
        (``1 - x ** 2``, ``x - 1``, ``2 * x + 3``), at its singular point (0 and below for
        `sqrt`/`log`, 0 for a division, ±1 and beyond for `arcsin`) for some value of
        that variable the condition masks out: a value at or around the condition's
        thresholds, 0, ±1, ±2 (``x = 2`` under ``x < 1`` gives ``sqrt(-3)``)?"""
        ctx = self.ctx
        numbers = {0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5}
        for n in walk_tree(cond):
            if isinstance(n, (cst.Integer, cst.Float)):
                c = self._value_at(n, "", 0.0)
                if c is not None and math.isfinite(c):
                    numbers |= {c, -c, c + 1, c - 1, 2 * c, c / 2}
        masked_value = side == 2
        if kind == "nonpositive" and isinstance(op_node, cst.Call) and (ctx.qualname(op_node.func) or "").rsplit(
                ".", 1)[-1].startswith("log"):
            kind = "zero"  # `log` of a negative number has a finite derivative (1/x): only 0 is singular
        if kind in _OVERFLOW:
            numbers |= {1e30, -1e30}  # `jnp.exp(-x)` overflows where `x` is very negative
        for key in keys:
            if self._value_at(inner, key, 1.5) is None:
                continue  # not arithmetic of `key` and constants alone
            if kind in _OVERFLOW and self._bounded(key):
                continue  # `p = jax.nn.sigmoid(z)`: never large enough to overflow
            for t in sorted(numbers):
                v = self._value_at(inner, key, t)
                if v is None:
                    continue
                if kind in _OVERFLOW:
                    singular = v >= 1e3 or kind == "overflow_both" and v <= -1e3
                else:
                    singular = _SINGULAR_TEST.get(kind, _SINGULAR_TEST["unit"])(v)
                if singular and _truth(ctx, cond, key, t, self._test_of) is masked_value:
                    return True
        return False

    def _bounded(self, key: str) -> bool:
        """Is every value this function binds ``key`` to a call of a function whose values
        lie in a small interval (`sigmoid`, `tanh`, `sin`, `cos`, `clip`...)?  Such a value
        cannot overflow `exp`."""
        entries = self._bindings.get((id(self.ctx.unit), key))
        return bool(entries) and all(isinstance(v, cst.Call) and (self.ctx.qualname(v.func) or "") in _BOUNDED
                                     for v in entries)

    def _value_at(self, e: cst.CSTNode, key: str, t: float, depth: int = 0) -> Optional[float]:
        """The value of arithmetic ``e`` when ``key`` is ``t``: numbers, library constants
        (``jnp.pi``), ``+ - * / **``, ``abs``; None for anything else (another variable)."""
        ctx = self.ctx
        if depth > 12:
            return None
        if ctx.code(e).strip() == key:
            return t
        if isinstance(e, cst.Integer):
            return None if int_value(e) is None else float(int_value(e))
        if isinstance(e, cst.Float):
            try:
                return float(e.value.replace("_", ""))
            except ValueError:
                return None
        if isinstance(e, (cst.Name, cst.Attribute)):
            q = ctx.qualname(e) or ""
            return {"pi": math.pi, "e": math.e}.get(q.rsplit(".", 1)[-1]) if q.startswith(
                ("jax.numpy.", "numpy.", "math.")) else None
        if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, (cst.Minus, cst.Plus)):
            v = self._value_at(e.expression, key, t, depth + 1)
            return None if v is None else (-v if isinstance(e.operator, cst.Minus) else v)
        if isinstance(e, cst.Call) and ctx.qualname(e.func) in _ABS and len(e.args) == 1:
            v = self._value_at(e.args[0].value, key, t, depth + 1)
            return None if v is None else abs(v)
        if isinstance(e, cst.BinaryOperation):
            a = self._value_at(e.left, key, t, depth + 1)
            b = None if a is None else self._value_at(e.right, key, t, depth + 1)
            if a is None or b is None:
                return None
            op = e.operator
            try:
                if isinstance(op, cst.Add):
                    return a + b
                if isinstance(op, cst.Subtract):
                    return a - b
                if isinstance(op, cst.Multiply):
                    return a * b
                if isinstance(op, cst.Divide):
                    return None if b == 0 else a / b
                if isinstance(op, cst.Power):
                    if a < 0 and b != int(b) or a == 0 and b < 0 or abs(b) > 8:
                        return None
                    return float(a ** b)
            except (OverflowError, ZeroDivisionError):
                return None
        return None

    def _anticipating(self, pos) -> bool:
        """Does a branch hold a `where` (where the other branch could be handled)?"""
        return any(_where_calls_in(self.ctx, pos[side].value) for side in (1, 2))

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, (cst.Power, cst.Multiply)):
            self._power_of_norm(node)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        """``(delta ** 0.5)[delta > 0]``: a boolean mask drops the elements where the
        singular function was computed, but its derivative there still meets a zero
        cotangent: the gradient is NaN, as for ``jnp.where(delta > 0, delta ** 0.5, 0)``."""
        ctx = self.ctx
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return
        mask = node.slice[0].slice.value
        if not isinstance(mask, (cst.Comparison, cst.BinaryOperation, cst.UnaryOperation)):
            return
        keys = _exprs_in(ctx, mask)
        if not keys or not ctx.in_tracing:
            return
        for op_node, inner, safe, kind in self._singular_ops(node.value):
            key = ctx.code(inner).strip()
            if key not in keys:
                continue
            verdicts = [_truth(ctx, mask, key, at) for at in _SINGULAR_POINTS[kind]]
            if kind != "everywhere" and not (any(v is False for v in verdicts) or all(v is None for v in verdicts)):
                continue
            if kind == "zero" and self._dividend_zeroed(op_node, mask):
                continue
            if self._in_derivative_rule():
                continue
            m = ctx.code(mask).strip()
            self.report(
                op_node,
                f"`{ctx.code(op_node).strip()}` is computed for every element, also where `{m}` is "
                f"false and the mask drops it; its derivative is infinite/NaN "
                f"{_singular_where(ctx, op_node, key, kind)}, so the gradient "
                f"is NaN (0 * inf). Guard `{key}` before the function (`jnp.where({m}, {key}, "
                f"{_fmt(safe)})`)",
            )

    def _dividend_zeroed(self, op_node: cst.CSTNode, cond: cst.CSTNode) -> bool:
        """``s = jnp.where(c, 0., s)`` on an earlier line, then ``jnp.where(c, s, s / n)``:
        the dividend was zeroed where ``c`` holds by a `where` on the same condition, whose
        gradient sends nothing back to what it replaced (the jax#1052 workaround)."""
        ctx = self.ctx
        if isinstance(op_node, cst.BinaryOperation):
            dividend = op_node.left
        else:
            pos = positional_args(op_node)
            dividend = pos[0].value if pos else None
        if not isinstance(dividend, cst.Name):
            return False
        bound = self._bound.get((id(ctx.unit), dividend.value))
        if not (isinstance(bound, cst.Call) and ctx.qualname(bound.func) in ("jax.numpy.where", "jax.lax.select")):
            return False
        pos = positional_args(bound)
        return bool(pos) and ctx.code(pos[0].value).strip() == ctx.code(cond).strip()

    def _only_in_while_loop(self, unit, depth: int = 0) -> bool:
        """Does this code run only inside ``lax.while_loop`` (its body or condition, a
        function defined in one, or a helper only such code calls)?  Reverse mode does
        not go through ``while_loop`` (``jax.grad`` raises "Reverse-mode
        differentiation does not work for lax.while_loop"), and forward mode's
        ``select`` drops the tangent of the branch it masks out: no NaN gradient
        comes from this `where`."""
        if depth > 4:
            return False
        u = unit
        while u is not None and not u.is_module:
            if u.grad_reasons:
                return False  # differentiated outside jit: no loop around it
            reasons = [r for r in u.reasons if not (r.startswith("defined inside traced") and not self._called_in_parent(u))]
            if reasons and all(self._while_reason(r, depth) for r in reasons):
                return True
            u = u.parent
        return False

    @staticmethod
    def _called_in_parent(u) -> bool:
        """Is the nested function ``u`` called by name in the function that defines it
        (its "defined inside traced" reason then means a call there, under the trace)?"""
        parent = u.parent
        body = getattr(parent.node, "body", None) if parent is not None else None
        if body is None:
            return True
        return any(isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == u.name
                   for n in descendants(body))

    def _while_reason(self, reason: str, depth: int) -> bool:
        if reason in ("a body passed to lax.while_loop", "decorated with @lax.while_loop"):
            return True
        prefix = "called from traced `"
        if reason.startswith(prefix) and reason.endswith("`"):
            name = reason[len(prefix):-1]
            callers = [u for u in self.ctx.index.units if u.name == name]
            return bool(callers) and all(self._only_in_while_loop(c, depth + 1) for c in callers)
        return False

    def _differentiated_shown(self) -> bool:
        """Is this function, or one around it, known to be differentiated (a `jax.grad`
        of it or of a caller, in this file or through the project's facts)?"""
        u = self.ctx.unit
        while u is not None and not u.is_module:
            if u.grad_reasons:
                return True
            u = u.parent
        return False

    def _underived(self) -> bool:
        """Is this code in a notebook or a test module (run, never imported) and reached
        by no derivative the file takes (model/nograd.py)?"""
        ctx = self.ctx
        if self._reach is None:
            self._reach = (nograd.DerivativeReach(ctx.module, ctx.index.units, ctx.qualname)
                           if nograd.entry_file(ctx.path) else False)
        return bool(self._reach) and self._reach.underived(ctx.unit)

    def report(self, node, *args, **kwargs) -> None:
        if self._unreached():
            return  # no derivative of the project reaches this function (model/gradreach.py)
        ctx = self.ctx
        if optimizer_update(ctx.unit, ctx.index.units, ctx.qualname):
            return  # the `update` of an optimizer triple: it post-processes gradients
            # (model/optimizer_triples.py)
        super().report(node, *args, **kwargs)

    def _unreached(self) -> bool:
        """Is this code in a function or method that no derivative of the project, linted
        whole, reaches: not differentiated, not called or used by what is, not handed to
        a callee that may differentiate it (model/gradreach.py)?"""
        ctx = self.ctx
        u = ctx.unit
        while u is not None and u.parent is not None and not u.parent.is_module:
            u = u.parent
        if u is None or u.is_module or in_reverse_mode(u, ctx.index.units):
            return False
        underived = ctx.index.project_facts.get("underived")
        return bool(underived) and u.qualname in underived

    def _in_derivative_rule(self) -> bool:
        """Is this code (or a function around it) never differentiated in reverse mode
        by ``jax.grad`` of the function that uses it?  A custom derivative rule
        (``@f.defjvp``, ``f.defjvp(rule)``, the ``fwd`` and ``bwd`` of ``f.defvjp(fwd,
        bwd)``: differentiated only for a second derivative), the function of a
        ``custom_vjp``/``custom_jvp`` (its rule is used instead), a Pallas kernel
        (``pallas_call`` has no reverse-mode rule: ``jax.grad`` raises), or a private or
        nested helper that only such code calls."""
        if self._rules is None:
            self._rules = self._no_reverse_names()
        return self._no_reverse(self.ctx.unit, 0)

    def _no_reverse(self, unit, depth: int) -> bool:
        assert self._rules is not None
        u = unit
        differentiated = False  # a function on the way is differentiated (or called from one)
        while u is not None and not u.is_module:
            node = u.node
            if isinstance(node, cst.FunctionDef):
                if node.name.value in self._rules or any(
                        (dotted_name(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator) or "")
                        .endswith((".defjvp", ".defjvps")) for d in node.decorators):
                    return True
            if any(not r.startswith("called from") for r in u.grad_reasons):
                return False  # given to jax.grad / value_and_grad itself (its callers decide the rest)
            differentiated = differentiated or bool(u.grad_reasons)
            if not differentiated and u.name == "compute" and u.cls is not None and _clu_metric(u.cls) \
                    and not self._method_differentiated(u.name):
                # `compute` of a clu metric (a `clu.metrics.Metric`'s report of what it
                # accumulated): clu calls it to report values, never under a derivative
                # (unless the file differentiates it: a grad reason above, or a
                # differentiated function of the file calling `<x>.compute()`); its other
                # methods are judged as any function's
                return True
            if not differentiated and self._test_entry(u) and not self._differentiates(u.node):
                return True  # a test the runner calls, which differentiates nothing
            if any(not is_call for _, is_call in self._mentions().get(u.name, ())):
                differentiated = True  # handed on as a value: who calls it is not known here
            u = u.parent
        # a helper: every mention of it in the file is a call from such code
        if depth >= 3 or not isinstance(unit.node, cst.FunctionDef) or unit.parent is None:
            return False
        if unit.parent.is_module and not unit.name.startswith("_"):
            # public: other modules (and the library's users) may differentiate it; not in
            # a project that takes no derivative anywhere, where its own code calls it
            return self._grad_free_project() and self._called_in_project(unit)
        mentions = self._mentions().get(unit.name)  # (a call, or a local alias of it)
        if bool(mentions) and all(
                is_call and caller is not unit and self._no_reverse(caller, depth + 1) for caller, is_call in mentions):
            return True
        # a nested function runs inside its enclosing one (`@pl.when(c) def run(): ...`
        # in a kernel's helper): that one's callers decide (none above was given to grad)
        return isinstance(unit.parent.node, cst.FunctionDef) and self._no_reverse(unit.parent, depth + 1)

    def _method_differentiated(self, name: str) -> bool:
        """Does a function of this file that a derivative reaches call ``<x>.name(...)``?"""
        return any(
            v.grad_reasons and any(type(n) is cst.Call and type(n.func) is cst.Attribute and n.func.attr.value == name
                                   for n in descendants(v.node))
            for v in self.ctx.index.units)

    def _grad_free_project(self) -> bool:
        """Was the project linted whole, and does none of its files name a
        differentiating transformation (``grad``, ``value_and_grad``, ``jvp``, ``vjp``,
        ``jacfwd``/``jacrev``, ``hessian``, ``custom_vjp``..., JAX's, equinox's or
        flax's) or a library that consumes gradients (optax, jaxopt...)?"""
        return bool(self.ctx.index.project_facts.get("grad_free"))

    def _called_in_project(self, unit) -> bool:
        """Does the project's own code call ``unit``: a call of it in its file, or a
        call from traced code of another module?  (A public function nobody in the
        project calls is there for its users, who may differentiate it.)"""
        if any(is_call and caller is not unit for caller, is_call in self._mentions().get(unit.name, ())):
            return True
        return any(r.startswith("called from") for r in unit.reasons)

    def _differentiates(self, node: cst.CSTNode) -> bool:
        """Does ``node`` (a test) call a differentiating transformation anywhere inside?"""
        ctx = self.ctx
        return any(type(n) is cst.Call and ctx.qualname(n.func) in DIFFERENTIATING for n in descendants(node))

    def _test_entry(self, u) -> bool:
        """Is ``u`` a test that a test runner calls, never a function of the program:
        a method of a ``TestCase`` class (``unittest``, ``absltest``, ``parameterized``,
        ``chex``), or a ``test_*`` function of a pytest module (``test_*.py``,
        ``*_test.py``)?"""
        if not isinstance(u.node, cst.FunctionDef):
            return False
        if u.cls is not None:
            return any(b.rsplit(".", 1)[-1].endswith("TestCase") for b in u.cls.bases)
        if u.parent is None or not u.parent.is_module or not u.name.startswith("test"):
            return False
        base = self.ctx.path.replace("\\", "/").rsplit("/", 1)[-1]
        return base.startswith("test_") or base.endswith("_test.py")

    def _mentions(self) -> dict[str, list]:
        """name -> [(the function that mentions it, whether the mention is a call)]."""
        if self._names is None:
            out: dict[str, list] = {}
            for u in self.ctx.index.units:
                root = u.node

                def nested(c: cst.CSTNode, root=root) -> bool:
                    return c is not root and isinstance(c, (cst.FunctionDef, cst.Lambda, cst.ClassDef))

                called: set[int] = set()
                skip: set[int] = set()  # an attribute's name, a keyword, a def's own name
                for n in walk_tree(root, nested):
                    if isinstance(n, cst.Call) and isinstance(n.func, cst.Name):
                        called.add(id(n.func))
                    elif isinstance(n, cst.Assign) and all(isinstance(t.target, cst.Name) for t in n.targets):
                        # `kernel = _single_step if c else _tiled`, then `kernel(...)`: the
                        # helper runs where the local name is called, in this function
                        for v in (n.value.body, n.value.orelse) if isinstance(n.value, cst.IfExp) else (n.value,):
                            if isinstance(v, cst.Name):
                                called.add(id(v))
                    elif isinstance(n, cst.Attribute):
                        skip.add(id(n.attr))
                    elif isinstance(n, cst.Arg) and n.keyword is not None:
                        skip.add(id(n.keyword))
                    elif isinstance(n, (cst.FunctionDef, cst.ClassDef)):
                        skip.add(id(n.name))
                    elif isinstance(n, cst.ImportAlias) and n.asname is not None:
                        skip.add(id(n.name))  # `import ... f as g` binds `g` to another module's `f`
                for n in walk_tree(root, nested):
                    if isinstance(n, cst.Name) and id(n) not in skip:
                        out.setdefault(n.value, []).append((u, id(n) in called))
            self._names = out
        return self._names

    def _no_reverse_names(self) -> set[str]:
        """The functions of this file that reverse mode never differentiates through
        ``jax.grad`` of their user: derivative rules, ``custom_vjp``/``custom_jvp``
        functions, Pallas kernels."""
        ctx = self.ctx
        out: set[str] = set()
        # what each name of the file is bound to (any scope), and the functions'
        # `return` values: a kernel reached through a name (`kernel = _body`), a
        # `partial` bound to one, a conditional choice, or a factory returning it
        # (a name is read in the scope where the kernel is handed over, or the nearest
        # enclosing one that binds it: `f = loss` in one function is not `f = kernel`
        # in another)
        returned: dict[str, list[tuple[Unit, cst.BaseExpression]]] = {}
        for u in ctx.index.units:
            if isinstance(u.node, cst.FunctionDef):
                returned.setdefault(u.name, []).extend((u, r) for r in u.returns if r is not None)

        def bound(u: Optional[Unit], name: str) -> list[cst.BaseExpression]:
            while u is not None:
                entries = u.bindings.get(name)
                if entries:
                    return [v for _seq, v in entries if v is not None]
                u = u.parent
            return []

        def fn_names(e: cst.CSTNode, u: Optional[Unit], depth: int = 0) -> set[str]:
            if depth > 4:
                return set()
            if isinstance(e, cst.Name):
                names = {e.value}
                for v in bound(u, e.value):
                    names |= fn_names(v, u, depth + 1)
                return names
            if isinstance(e, cst.IfExp):
                return fn_names(e.body, u, depth + 1) | fn_names(e.orelse, u, depth + 1)
            if isinstance(e, cst.Call):
                pos = positional_args(e)
                if (dotted_name(e.func) or "").rsplit(".", 1)[-1] == "partial":
                    return fn_names(pos[0].value, u, depth + 1) if pos else set()
                if isinstance(e.func, cst.Name):  # a factory of the file: what it returns
                    names: set[str] = set()
                    for owner, r in returned.get(e.func.value, ()):
                        names |= fn_names(r, owner, depth + 1)
                    return names
            return set()

        def fn_name(e: cst.CSTNode) -> Optional[str]:
            if isinstance(e, cst.Name):
                return e.value
            if isinstance(e, cst.Call) and (dotted_name(e.func) or "").rsplit(".", 1)[-1] == "partial":
                pos = positional_args(e)
                return fn_name(pos[0].value) if pos else None
            return None

        def custom(e: cst.CSTNode) -> bool:
            name = dotted_name(e) or ""
            if name.endswith(("custom_vjp", "custom_jvp")):
                return True
            if isinstance(e, cst.Call):
                if (dotted_name(e.func) or "").endswith(("custom_vjp", "custom_jvp")):
                    return True
                if (dotted_name(e.func) or "").rsplit(".", 1)[-1] == "partial":
                    pos = positional_args(e)
                    return bool(pos) and (dotted_name(pos[0].value) or "").endswith(("custom_vjp", "custom_jvp"))
            return False

        owners: dict[int, Unit] = {}  # call -> the unit it stands in (one walk, when first needed)

        def owner(call: cst.Call) -> Unit:
            if not owners:
                for u in ctx.index.units:
                    for n in walk_tree(u.node, lambda c, root=u.node: c is not root and type(c) in _SCOPE_NODES):
                        if isinstance(n, cst.Call):
                            owners[id(n)] = u
            return owners.get(id(call), ctx.index.module_unit)

        for n in walk_tree(ctx.module):
            if isinstance(n, cst.FunctionDef) and any(custom(d.decorator) for d in n.decorators):
                out.add(n.name.value)
            if not isinstance(n, cst.Call):
                continue
            pos = positional_args(n)
            if isinstance(n.func, cst.Attribute) and n.func.attr.value in ("defjvp", "defjvps", "defvjp"):
                for a in pos[:2] if n.func.attr.value == "defvjp" else pos[:1]:
                    name = fn_name(a.value)
                    if name is not None:
                        out.add(name)
                continue
            callee = (ctx.qualname(n.func) or dotted_name(n.func) or "")
            last = callee.rsplit(".", 1)[-1]
            if pos and (custom(n.func) or last == "pallas_call"
                        or "pallas" in callee and last in ("emit_pipeline", "core_map", "kernel")):
                out |= fn_names(pos[0].value, owner(n))
        return out

    def _computed_operands(self, cond: cst.BaseExpression, pos) -> None:
        """A branch that is a name computed on an earlier line of the same function
        (``y = jnp.log(x)`` ... ``jnp.where(x > 0, y, 0.)``; ``r = jnp.sqrt(s)`` ...
        ``jnp.where(r > 0.5, r, 1.)``): the singular function ran there, for every
        element, and the `where` masks its singular point just the same."""
        ctx = self.ctx
        tested = _exprs_in(ctx, cond)
        if not tested:
            return
        unit = id(ctx.unit)
        for side in (1, 2):
            branch = pos[side].value
            if not isinstance(branch, cst.Name):
                continue
            bound = self._bound.get((unit, branch.value))
            if bound is None or not isinstance(bound, (cst.Call, cst.BinaryOperation)):
                continue
            masked_value = side == 2  # side 1 is masked out where the condition is false
            found = None
            overflow = False
            # the singular function's own argument is what the condition tests
            for op_node, inner, _safe, kind in self._singular_ops(bound):
                key = ctx.code(inner).strip()
                if key in tested and any(_truth(ctx, cond, key, at) is masked_value for at in _SINGULAR_POINTS[kind]):
                    overflow = kind in _OVERFLOW
                    found = (op_node, f"it overflows to inf for a large `{key}`, and so does its derivative, "
                                      f"and the condition masks those values out" if kind in _OVERFLOW else
                             f"its derivative is infinite/NaN {_singular_where(ctx, op_node, key, kind)}, "
                             f"and the condition masks that point out")
                    break
            # the name itself is tested: its value where the function is singular
            if found is None and branch.value in tested:
                out = self._singular_output(bound)
                if out is not None:
                    values, text = out
                    if any(_truth(ctx, cond, branch.value, at) is masked_value for at in values):
                        found = (bound, f"at its singular input `{branch.value}` is {text} and the derivative "
                                        f"is infinite/NaN, and the condition masks that value out")
            if found is None:
                self._upstream_singular(cond, tested, branch, bound, side)
                continue
            if self._in_derivative_rule() or self._only_in_while_loop(ctx.unit) \
                    or self._no_tangent(bound) or self._only_through_kernel(bound):
                continue
            op_node, detail = found
            which = "false" if side == 1 else "true"
            self.report(
                branch,
                (f"`{branch.value}` is `{ctx.code(op_node).strip()}`, computed" if op_node is bound
                 else f"`{branch.value}` is computed with `{ctx.code(op_node).strip()}`")
                + f" for every element, also "
                f"where `{ctx.code(cond).strip()}` is {which}; {detail}, so the gradient of this `where` "
                f"is NaN (0 * inf). Guard the input where `{branch.value}` is computed (double where: "
                + ("`jnp.where(cond, x, 0.0)` inside, so the masked elements are computed at 0)" if overflow else
                   "`jnp.where(cond, x, 1.0)` inside, or `jnp.maximum(x, eps)`)"),
            )

    def _upstream_singular(self, cond, tested: set[str], branch: cst.Name, bound: cst.BaseExpression,
                           side: int) -> None:
        """The branch is a name computed, on earlier lines of the function, from other names
        one of which is a singular function of the variable the condition tests (dm_pix's
        ``norm = 1. / (6. * range_)``, ``hue = jnp.where(value == red, norm * (green - blue),
        hue)``, then ``jnp.where(range_ > 0, hue, 0.)``, recall case 1434): the masked
        elements' zero cotangent flows back through every operation (a `where` selects, it
        does not stop it) and meets the infinite derivative where the divisor is 0.
        Followed through at most three names, each's last binding in this function;
        reported at the singular operation."""
        ctx = self.ctx
        unit = id(ctx.unit)
        seen = {branch.value}
        frontier = [bound]
        masked_value = side == 2
        for _depth in range(3):
            names: list[str] = []
            for e in frontier:
                for n in walk_tree(e, lambda c: isinstance(c, cst.Lambda)):
                    if isinstance(n, cst.Name) and n.value not in seen:
                        seen.add(n.value)
                        names.append(n.value)
            frontier = []
            for name in names:
                value = self._bound.get((unit, name))
                if not isinstance(value, (cst.Call, cst.BinaryOperation)):
                    continue
                frontier.append(value)
                for op_node, inner, _safe, kind in self._singular_ops(value):
                    if kind not in ("zero", "nonpositive"):
                        continue
                    key = ctx.code(inner).strip()
                    if key not in tested:
                        key = self._zero_with(inner) if not _plain(inner) else None
                        if key is None or key not in tested:
                            continue
                    if not any(_truth(ctx, cond, key, at) is masked_value for at in _SINGULAR_POINTS[kind]):
                        continue
                    if isinstance(inner, cst.Name) and self._kept_off_singular(inner):
                        continue
                    if self._in_derivative_rule() or self._only_in_while_loop(ctx.unit) \
                            or self._no_tangent(op_node) or self._only_through_kernel(op_node) \
                            or self._at_construction() or self._underived():
                        return
                    which = "false" if side == 1 else "true"
                    self.report(
                        op_node,
                        f"`{ctx.code(op_node).strip()}` (`{name}`) is computed for every element and reaches "
                        f"`{branch.value}`, which `jnp.where({ctx.code(cond).strip()}, ...)` masks out where the "
                        f"condition is {which}; its derivative is infinite/NaN "
                        f"{_singular_where(ctx, op_node, key, kind)}, which the condition masks out, so the "
                        f"gradient is NaN there (0 * inf). Guard `{key}` where `{name}` is computed "
                        f"(`jnp.where({ctx.code(cond).strip()}, {key}, 1.0)` inside)" if side == 1 else
                        f"`{ctx.code(op_node).strip()}` (`{name}`) is computed for every element and reaches "
                        f"`{branch.value}`, which `jnp.where({ctx.code(cond).strip()}, ...)` masks out where the "
                        f"condition is {which}; its derivative is infinite/NaN "
                        f"{_singular_where(ctx, op_node, key, kind)}, which the condition masks out, so the "
                        f"gradient is NaN there (0 * inf). Guard `{key}` where `{name}` is computed "
                        f"(`jnp.where({ctx.code(cond).strip()}, 1.0, {key})` inside)",
                    )
                    return

    def _singular_output(self, e: cst.BaseExpression):
        """``e`` is a singular function applied to an unguarded input: the values it
        takes at the singular point (`sqrt` -> 0, `log` -> -inf, `1/x` -> ±inf)."""
        ctx = self.ctx
        if isinstance(e, cst.Call):
            q = ctx.qualname(e.func)
            pos = positional_args(e)
            if not pos or _guarded_input(ctx, pos[0].value):
                return None
            if q in ("jax.numpy.sqrt", "jax.lax.sqrt", "jax.numpy.cbrt", "jax.lax.cbrt"):
                return (0.0,), "0"
            if q in _EUCLIDEAN_NORMS and _euclidean_order(ctx, e):
                return (0.0,), "0"  # the gradient of the 2-norm at the zero vector is NaN
            if q in ("jax.numpy.log", "jax.numpy.log2", "jax.numpy.log10", "jax.lax.log"):
                return (-1e30,), "-inf"
            if q in ("jax.numpy.reciprocal", "jax.lax.rsqrt"):
                return (1e30, -1e30), "±inf"
            if q in _POWER and len(pos) == 2 and _fractional_or_negative(pos[1].value):
                return (0.0, 1e30), "0 or ±inf"
        elif isinstance(e, cst.BinaryOperation) and isinstance(e.operator, cst.Power) \
                and _fractional_or_negative(e.right) and not _guarded_input(ctx, e.left):
            return (0.0, 1e30), "0 or ±inf"
        return None

    def _singular_root(self, inner: cst.CSTNode) -> Optional[cst.Call]:
        """``inner`` is a name of this function bound once to a Euclidean norm or a square
        root of an unguarded input (``g_norm = jnp.linalg.norm(g)``): the call, whose own
        gradient is NaN where it is 0, whatever guards the division by it."""
        if not isinstance(inner, cst.Name):
            return None
        entries = self._bindings.get((id(self.ctx.unit), inner.value))
        if not entries or len(entries) != 1 or not isinstance(entries[0], cst.Call):
            return None
        if self.ctx.rebound_in_loop(inner):
            # bound in the loop around it: the one binding of the function, read in the
            # iteration that computed it (`for layer in layers: h = layer(x); norm = norm(h)`)
            every = [v for _seq, v in self.ctx.unit.bindings.get(inner.value, ())]
            if len(every) != 1 or every[0] is not entries[0]:
                return None
        call = entries[0]
        q = self.ctx.qualname(call.func)
        if q not in _EUCLIDEAN_NORMS and q not in ("jax.numpy.sqrt", "jax.lax.sqrt"):
            return None
        out = self._singular_output(call)
        return call if out is not None and out[0] == (0.0,) else None

    def _helper_singular(self, call: cst.Call, q: str, depth: int):
        """A function of the project called in a branch that applies a singular operation
        to one of its parameters, unguarded (``def _knu(nu, x): return jnp.sqrt(jnp.pi /
        (2.0 * x)) ...`` called as ``_knu(beta, k)``): (the argument passed for it, the
        kind of singular point) when the call passes a plain name or arithmetic for it;
        the helper's body is read as the branch is (a `where` or a clamp in it guards)."""
        if depth > 1 or not self._module_function(call.func, q):
            return None
        unit = self.ctx.value(call.func).unit
        if unit is None or not isinstance(unit.node, cst.FunctionDef) or unit.node.decorators:
            return None  # (a decorated one may define its own derivative: `@jax.custom_jvp`)
        params = [p for p in unit.params if p.kind in ("pos", "posonly", "kwonly")]
        names = {p.name for p in params}
        for op, inner, _, kind in self._singular_ops(unit.node.body, depth + 1):
            if kind not in ("zero", "nonpositive"):
                continue
            var = inner.value if isinstance(inner, cst.Name) else None
            if var is None:
                scaled = self._zero_with(inner)
                var = scaled if scaled in names else None
            if var is None or var not in names or var in unit.assigned:
                continue
            p = next(p for p in params if p.name == var)
            arg = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == var), None)
            if arg is None and p.index is not None and p.kind != "kwonly":
                pos = positional_args(call)
                if len(pos) == len(call.args) and p.index < len(pos):
                    arg = pos[p.index].value
            if arg is not None and (_plain(arg) or _arith(arg)):
                self._helper_ops[id(call)] = (unit.name, self.ctx.code(op).strip(), var)
                return arg, "zero"
        return None

    def _singular_ops(self, branch: cst.CSTNode, depth: int = 0):
        ctx = self.ctx

        def leaf(n: cst.CSTNode) -> bool:
            return isinstance(n, cst.Lambda) or isinstance(n, cst.Call) and ctx.qualname(n.func) in _GUARDS

        for n in walk_tree(branch, leaf, source_order=True):
            if isinstance(n, cst.Call):
                q = ctx.qualname(n.func)
                if q in _GUARDS:
                    continue
                pos = positional_args(n)
                if q in _SINGULAR and pos and (_plain(pos[0].value) or _arith(pos[0].value)):
                    yield n, pos[0].value, _SINGULAR[q], _SINGULAR_KIND.get(q, "nonpositive")
                elif q in _POWER and len(pos) == 2 and _plain(pos[0].value) and _fractional_or_negative(pos[1].value):
                    yield n, pos[0].value, 1.0, "nonpositive"
                elif q in _DIVIDE and len(pos) == 2 and (_plain(pos[1].value) or self._zero_with(pos[1].value)):
                    yield n, pos[1].value, 1.0, "zero"
                elif type(n.func) in (cst.Name, cst.Attribute):
                    found = self._helper_singular(n, q or "", depth)
                    if found is not None:
                        yield n, found[0], 1.0, found[1]
            elif isinstance(n, cst.BinaryOperation):
                if isinstance(n.operator, cst.Multiply) and (_infinite(ctx, n.left) or _infinite(ctx, n.right)):
                    other = n.right if _infinite(ctx, n.left) else n.left
                    if _plain(other) and not _infinite(ctx, other):
                        yield n, other, 1.0, "everywhere"
                        continue
                if isinstance(n.operator, cst.Divide) and (_plain(n.right) or self._zero_with(n.right)
                                                           or _arith(n.right)) \
                        and not isinstance(n.right, (cst.Integer, cst.Float)):
                    yield n, n.right, 1.0, "zero"
                elif isinstance(n.operator, cst.Power) and _plain(n.left) and _fractional_or_negative(n.right):
                    yield n, n.left, 1.0, "nonpositive"


def _clu_metric(cls, depth: int = 0) -> bool:
    """Is ``cls`` a clu metric: a subclass of ``clu.metrics.Metric`` (or of another
    ``clu.metrics`` class), directly or through bases of its file?"""
    if depth > 8:
        return False
    return any(b.startswith("clu.metrics.") for b in cls.bases) or any(
        _clu_metric(p, depth + 1) for p in cls.parents)
