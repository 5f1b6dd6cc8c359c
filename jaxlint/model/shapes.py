"""Static shapes and float-ness of arrays built by literal constructors.

``jnp.arange(10)`` has shape ``(10,)``; ``jnp.zeros((2, 3))`` has ``(2, 3)``;
``jnp.array([[1, 2], [3, 4]])`` has ``(2, 2)``.  Only literal arguments count:
anything computed gives ``None`` (unknown), so rules that use a shape stay
quiet when the model is unsure.
"""

from __future__ import annotations

import math
from typing import Optional

import libcst as cst

from jaxlint.model.shape_flow import fold_int
from jaxlint.model.walk import arg_at, int_value, keyword_arg, positional_args, walk_tree

Shape = tuple[int, ...]

# jax functions whose result is floating point whatever the (real) input
FLOAT_RESULT_FUNCS = frozenset(
    "jax.numpy." + n
    for n in (
        "sin cos tan arcsin arccos arctan arctan2 sinh cosh tanh arcsinh arccosh arctanh exp exp2 "
        "expm1 log log2 log10 log1p sqrt cbrt linspace logspace geomspace mean average std var "
        "nanmean nanstd nanvar true_divide divide reciprocal hypot deg2rad rad2deg degrees radians "
        "logaddexp logaddexp2 sinc"
    ).split()
) | frozenset(
    {
        "jax.random.normal", "jax.random.uniform", "jax.random.truncated_normal",
        "jax.random.gumbel", "jax.random.exponential", "jax.random.laplace",
        "jax.random.logistic", "jax.random.beta", "jax.random.gamma", "jax.random.cauchy",
        "jax.nn.sigmoid", "jax.nn.softmax", "jax.nn.log_softmax", "jax.nn.softplus",
        "jax.nn.gelu", "jax.nn.silu", "jax.nn.tanh",
    }
)


_FLOAT_DTYPE_WORDS = ("float", "bfloat", "half", "double", "single", "f2", "f4", "f8")


def _float_literal(node: cst.CSTNode) -> Optional[float]:
    if isinstance(node, cst.Float):
        try:
            return float(node.value.replace("_", ""))
        except ValueError:
            return None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        v = _float_literal(node.expression)
        return -v if v is not None else None
    iv = int_value(node)
    return float(iv) if iv is not None else None


def _shape_literal(node: Optional[cst.CSTNode], ctx=None) -> Optional[Shape]:
    """A shape written as integers; with ``ctx`` (the model where the call stands) also
    the integers it knows: constants, ``(n, 4)`` with ``n = x.shape[0]``, ``x.shape``."""
    if node is None:
        return None
    n = int_value(node) if ctx is None else fold_int(ctx, node)
    if n is not None:
        return (n,) if n >= 0 else None
    if isinstance(node, (cst.Tuple, cst.List)):
        out = []
        for el in node.elements:
            if isinstance(el, cst.StarredElement):
                return None
            v = int_value(el.value) if ctx is None else fold_int(ctx, el.value)
            if v is None or v < 0:
                return None
            out.append(v)
        return tuple(out)
    if ctx is not None:
        c = ctx.value(node).const
        if type(c) is tuple and all(type(d) is int and d >= 0 for d in c):
            return c  # `jnp.zeros(x.shape)` of a known shape
    return None


def _display_shape(node: cst.CSTNode, depth: int = 0) -> Optional[Shape]:
    """Shape of a nested list/tuple display of number literals."""
    if depth > 8:
        return None
    if isinstance(node, (cst.List, cst.Tuple)):
        if any(isinstance(el, cst.StarredElement) for el in node.elements):
            return None
        subs = [_display_shape(el.value, depth + 1) for el in node.elements]
        if any(s is None for s in subs):
            return None
        if subs and any(s != subs[0] for s in subs):
            return None
        return (len(subs),) + (subs[0] if subs else ())  # type: ignore[operator]
    if _float_literal(node) is not None:
        return ()
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return ()
    return None


def _has_float_literal(node: cst.CSTNode) -> bool:
    if isinstance(node, cst.Float):
        return True
    if isinstance(node, (cst.List, cst.Tuple)):
        return any(_has_float_literal(el.value) for el in node.elements if not isinstance(el, cst.StarredElement))
    if isinstance(node, cst.UnaryOperation):
        return _has_float_literal(node.expression)
    return False


def _dtype_is_float(ctx, node: Optional[cst.CSTNode]) -> Optional[bool]:
    """True/False when a dtype argument is known to be float / not float."""
    if node is None:
        return None
    if isinstance(node, cst.SimpleString):
        text = node.value.strip("\"'")
    elif isinstance(node, cst.Name) and ctx.builtin_name(node) in ("float", "int", "bool", "complex"):
        text = node.value
    else:
        q = ctx.qualname(node)
        if q is None:
            return None
        text = q.rsplit(".", 1)[-1]
    return text.startswith(_FLOAT_DTYPE_WORDS) or text == "float"


def _number(ctx, node: cst.CSTNode) -> Optional[float]:
    """A number literal, or an integer the model knows: a name bound once to an integer
    literal (``NUM_CLASSES``), a constant of another module (``config.CAPACITY``),
    ``x.shape[0]`` of a known shape, integer arithmetic of those (``5 * 100 * 4 * 4``)."""
    v = _float_literal(node)
    if v is None and isinstance(node, (cst.Name, cst.Attribute, cst.Subscript, cst.Call, cst.BinaryOperation)):
        c = fold_int(ctx, node)  # NUM_CLASSES, config.CAPACITY, 5 * 100 * 4 * 4
        v = float(c) if c is not None else None
    return v


# jax.random samplers: the position of their `shape` parameter (JAX 0.10.2's signatures)
_RANDOM_SHAPE_AT = {
    "normal": 1, "uniform": 1, "gumbel": 1, "exponential": 1, "laplace": 1, "logistic": 1,
    "cauchy": 1, "randint": 1, "rademacher": 1, "bernoulli": 2, "truncated_normal": 3,
}


def constructor_facts(ctx, q: str, call: cst.Call) -> tuple[Optional[Shape], Optional[str]]:
    """(static shape, "float" or None) of the array a jax call builds."""
    short = q.rsplit(".", 1)[-1]
    pos = positional_args(call)
    dtype_node = keyword_arg(call, "dtype")
    dtype_float = _dtype_is_float(ctx, dtype_node.value if dtype_node is not None else None)
    shape: Optional[Shape] = None
    floaty: Optional[str] = None
    if q in FLOAT_RESULT_FUNCS:
        floaty = "float"
    if q.startswith("jax.random.") and short in _RANDOM_SHAPE_AT:
        # a sampler given a literal shape (`random.normal(key, (10, 10))`)
        given = arg_at(call, _RANDOM_SHAPE_AT[short], "shape")
        return (_shape_literal(given, ctx) if given is not None else None), floaty if dtype_float is not False else None
    if not q.startswith("jax.numpy.") or "." in q[len("jax.numpy."):]:
        return None, floaty if dtype_float is not False else None
    if short == "arange":
        nums = [_number(ctx, a.value) for a in pos]
        for kw in ("start", "stop", "step"):
            if keyword_arg(call, kw) is not None:
                nums = []
        if nums and all(n is not None for n in nums) and len(nums) <= 3:
            start, stop, step = 0.0, None, 1.0
            if len(nums) == 1:
                stop = nums[0]
            else:
                start, stop = nums[0], nums[1]
                if len(nums) == 3:
                    step = nums[2]
            if step:
                shape = (max(0, math.ceil((stop - start) / step)),)  # type: ignore[operator]
        if any(isinstance(a.value, cst.Float) or (isinstance(a.value, cst.UnaryOperation) and isinstance(a.value.expression, cst.Float)) for a in pos):
            floaty = "float"
    elif short in ("zeros", "ones", "empty", "full"):
        shape = _shape_literal(arg_at(call, 0, "shape"), ctx)
        if short != "full" and dtype_node is None and len(pos) < 2:
            floaty = "float"
        elif short == "full" and dtype_node is None and len(pos) == 2 and isinstance(pos[1].value, cst.Float):
            floaty = "float"
    elif short in ("array", "asarray"):
        data = arg_at(call, 0, "object" if short == "array" else "a")
        if data is not None:
            shape = _display_shape(data)
            if shape is None and type(data) is not cst.Float and fold_int(ctx, data) is not None:
                shape = ()  # `jnp.array(2)`: a scalar
            if shape is not None and _has_float_literal(data) and dtype_node is None:
                floaty = "float"
    elif short in ("eye", "identity"):
        n = fold_int(ctx, pos[0].value) if pos else None
        m = fold_int(ctx, pos[1].value) if short == "eye" and len(pos) > 1 else n
        if n is not None and m is not None and n >= 0 and m >= 0:
            shape = (n, m)
        if dtype_node is None:
            floaty = "float"
    elif short in ("linspace", "logspace", "geomspace"):
        num = arg_at(call, 2, "num")
        n = fold_int(ctx, num) if num is not None else (50 if len(pos) == 2 else None)
        if (
            n is not None and n >= 0 and len(pos) >= 2 and keyword_arg(call, "axis") is None
            and _float_literal(pos[0].value) is not None and _float_literal(pos[1].value) is not None
        ):
            shape = (n,)
    if dtype_float is True:
        floaty = "float"
    elif dtype_float is False:
        floaty = None
    return shape, floaty


def _display_ints(node: cst.CSTNode, out: list[int], depth: int = 0) -> bool:
    """The integer literals of a nested list/tuple display, into ``out``; False when an
    element is anything else (a float, a bool, a name)."""
    if depth > 8:
        return False
    if isinstance(node, (cst.List, cst.Tuple)):
        return all(
            not isinstance(el, cst.StarredElement) and _display_ints(el.value, out, depth + 1)
            for el in node.elements
        )
    v = int_value(node)
    if v is None:
        return False
    out.append(v)
    return True


def int_range(ctx, q: str, call: cst.Call) -> Optional[tuple[int, int]]:
    """(smallest, largest) element of the integer array a ``jax.numpy``/``numpy``
    constructor builds from literals: ``arange`` of integers (constants and integer
    arithmetic on them too), ``array``/``asarray`` of a display of integer literals.
    None for anything else (a dtype given, floats, an empty result)."""
    short = q.rsplit(".", 1)[-1]
    if q not in ("jax.numpy." + short, "numpy." + short) or keyword_arg(call, "dtype") is not None:
        return None
    if short == "arange":
        if any(a.keyword is not None or a.star for a in call.args) or not 1 <= len(call.args) <= 3:
            return None
        nums = [fold_int(ctx, a.value) for a in call.args]
        if any(n is None for n in nums):
            return None
        start, stop, step = (0, nums[0], 1) if len(nums) == 1 else (nums[0], nums[1], nums[2] if len(nums) == 3 else 1)
        if not step:
            return None
        count = max(0, -(-(stop - start) // step))
        if count == 0:
            return None
        last = start + step * (count - 1)
        return min(start, last), max(start, last)
    if short in ("array", "asarray"):
        if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
            return None
        data: list[int] = []
        if not isinstance(call.args[0].value, (cst.List, cst.Tuple)):
            n = fold_int(ctx, call.args[0].value)
            return (n, n) if n is not None else None  # `jnp.array(2)`
        if not _display_ints(call.args[0].value, data) or not data:
            return None
        return min(data), max(data)
    return None


def call_site_shapes(interp, param: str) -> list[Optional[Shape]]:
    """The shapes the calls of ``interp.unit`` in the file pass for ``param`` (see
    ``RuleContext.call_site_shapes``)."""
    unit = interp.unit
    if not isinstance(unit.node, cst.FunctionDef) or unit.cls is not None:
        return []
    pos_params = [p.name for p in unit.positional()]
    index = pos_params.index(param) if param in pos_params else None
    out: list[Optional[Shape]] = []
    for n in walk_tree(interp.module):
        if not isinstance(n, cst.Call) or not isinstance(n.func, cst.Name) or n.func.value != unit.name:
            continue
        arg = next((a.value for a in n.args if a.keyword is not None and a.keyword.value == param), None)
        if arg is None and index is not None:
            pos = [a for a in n.args if a.keyword is None]
            if any(a.star for a in n.args):
                out.append(None)
                continue
            arg = pos[index].value if index < len(pos) else None
        shape = None
        if isinstance(arg, cst.Call):
            q = interp.qualname(arg.func)
            if q and q.startswith("jax.numpy.") and q.rsplit(".", 1)[1] in ("zeros", "ones", "empty", "full"):
                shape = _shape_literal(arg_at(arg, 0, "shape"))
        out.append(shape)
    return out
