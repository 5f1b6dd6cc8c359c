"""Static shapes carried through the operations that keep them computable.

``model/shapes.py`` reads the shape a literal constructor builds (``jnp.arange(10)``);
this module follows it through what is done to the array next, when every number
involved is known here (a literal, a name bound once to an integer, arithmetic on them):

* ``x.reshape(500, 4, 4)``, ``x.reshape((2, -1))``, ``jnp.reshape(x, (2, -1))``;
* ``jnp.split(x, 5)``, ``jnp.split(x, [2, 5])``, ``jnp.array_split(x, 3)`` (``axis=`` a
  literal): a list of arrays whose count and shapes are known;
* ``jnp.array(pieces)``, ``jnp.asarray(pieces)``, ``jnp.stack(pieces)`` of such a list, or
  of a list display of arrays of one known shape: the stacked shape;
* NumPy's literal constructors (``np.arange(10)``, ``np.zeros((2, 3))``), which build the
  shapes jax.numpy's do.

Anything else gives ``None`` (unknown): rules that use a shape stay quiet then.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.model import values as V
from jaxlint.model.constants import constant_int
from jaxlint.model.walk import arg_at, keyword_arg, positional_args

Shape = tuple[int, ...]

_SPLITS = frozenset({"jax.numpy.split", "jax.numpy.array_split"})
_STACKS = frozenset({"jax.numpy.array", "jax.numpy.asarray", "jax.numpy.stack"})


def fold_int(ctx, node: Optional[cst.CSTNode], depth: int = 0) -> Optional[int]:
    """The integer ``node`` always holds: a literal, a name bound once to one
    (``model/constants.py``), or ``+ - * // % **`` of such (``5 * 100 * 4 * 4``)."""
    if node is None or depth > 16:
        return None
    if isinstance(node, cst.BinaryOperation):
        a = fold_int(ctx, node.left, depth + 1)
        b = fold_int(ctx, node.right, depth + 1)
        if a is None or b is None:
            return None
        op = node.operator
        if isinstance(op, cst.Add):
            return a + b
        if isinstance(op, cst.Subtract):
            return a - b
        if isinstance(op, cst.Multiply):
            return a * b
        if isinstance(op, cst.FloorDivide) and b != 0:
            return a // b
        if isinstance(op, cst.Modulo) and b != 0:
            return a % b
        if isinstance(op, cst.Power) and 0 <= b <= 64 and abs(a) <= 1 << 16:
            return a**b
        return None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        v = fold_int(ctx, node.expression, depth + 1)
        return -v if v is not None else None
    c = constant_int(ctx.index, ctx.unit, node)
    if c is None and type(node) in _VALUED:
        v = ctx.value(node).const  # the model's value here: `n = x.shape[0]`, an imported constant
        c = v if type(v) is int else None
    return c


# expressions whose integer the model's values may know where no literal or constant says it
_VALUED = (cst.Name, cst.Attribute, cst.Subscript, cst.Call)


def _dims(ctx, nodes: list[cst.CSTNode]) -> Optional[list[int]]:
    """``(2, -1)`` / ``2, -1`` as given to reshape: a list of ints, or None."""
    if len(nodes) == 1 and isinstance(nodes[0], (cst.Tuple, cst.List)):
        els = nodes[0].elements
        if any(isinstance(el, cst.StarredElement) for el in els):
            return None
        nodes = [el.value for el in els]
    out = []
    for n in nodes:
        v = fold_int(ctx, n)
        if v is None:
            return None
        out.append(v)
    return out


def reshaped(shape: Optional[Shape], dims: Optional[list[int]]) -> Optional[Shape]:
    """The shape ``reshape(dims)`` gives an array of ``shape`` (one -1 inferred); None
    when either is unknown or the sizes do not match (reshape would raise)."""
    if shape is None or dims is None or any(d < -1 for d in dims) or dims.count(-1) > 1:
        return None
    total = 1
    for s in shape:
        total *= s
    known = 1
    for d in dims:
        if d != -1:
            known *= d
    if -1 in dims:
        if known == 0 or total % known:
            return None
        dims = [total // known if d == -1 else d for d in dims]
    elif known != total:
        return None
    return tuple(dims)


_SHAPE_KEEPING_METHODS = frozenset({"astype", "copy", "clip", "round", "conj", "conjugate"})


def method_shape(ctx, base: Optional[Shape], method: str, call: cst.Call) -> Optional[Shape]:
    """The shape of ``x.method(...)`` for an ``x`` of shape ``base``: reshaped, or kept
    by an element-wise method (``x.astype(float)``, ``x.copy()``, ``x.clip(0, 1)``)."""
    if base is not None and method in _SHAPE_KEEPING_METHODS and not any(a.star for a in call.args):
        return base
    if base is None or method != "reshape" or any(a.star or a.keyword is not None for a in call.args):
        return None
    return reshaped(base, _dims(ctx, [a.value for a in call.args]))


# jax.numpy / lax / nn functions whose result has the shape of their first argument:
# element-wise ones, and those that work along one axis and keep it (`sort`, `argsort`,
# `flip`, `roll`, `softmax`...)
_ELEMENTWISE = frozenset(
    "jax.numpy." + n for n in (
        "abs absolute negative positive sign exp exp2 expm1 log log2 log10 log1p sqrt cbrt square "
        "reciprocal sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh floor ceil "
        "round rint trunc fix isnan isinf isfinite isneginf isposinf logical_not invert bitwise_not "
        "conj conjugate real imag angle deg2rad rad2deg degrees radians sinc nan_to_num signbit "
        "copy fabs i0 spacing"
    ).split()
) | frozenset(
    "jax.lax." + n for n in (
        "abs neg sign exp exp2 expm1 log log1p sqrt rsqrt cbrt sin cos tan asin acos atan sinh cosh "
        "tanh asinh acosh atanh floor ceil round is_finite not_ logistic erf erfc erf_inv lgamma "
        "digamma stop_gradient square reciprocal real imag conj"
    ).split()
) | frozenset(
    "jax.nn." + n for n in (
        "relu relu6 sigmoid softplus soft_sign silu swish log_sigmoid leaky_relu hard_tanh elu celu "
        "selu gelu glu hard_sigmoid hard_silu hard_swish sparse_plus sparse_sigmoid squareplus mish "
        "softmax log_softmax standardize tanh"
    ).split()
) | frozenset({"jax.scipy.special.expit", "jax.scipy.special.logit", "jax.scipy.special.erf",
               "jax.scipy.special.erfc", "jax.scipy.special.gammaln", "jax.scipy.special.digamma"})
# work along an axis and keep the shape (`sort`/`argsort` flatten with `axis=None`)
_ALONG_AXIS = frozenset({"jax.numpy.sort", "jax.numpy.argsort", "jax.numpy.flip", "jax.numpy.roll",
                         "jax.numpy.fliplr", "jax.numpy.flipud"})
# flatten unless given an axis (default None): keep a 1-D shape
_FLAT_BY_DEFAULT = frozenset({"jax.numpy.cumsum", "jax.numpy.cumprod", "jax.numpy.nancumsum",
                              "jax.numpy.nancumprod"})
# element-wise on two operands: the broadcast shape
_ELEMENTWISE_BINARY = frozenset(
    "jax.numpy." + n for n in (
        "add subtract multiply divide true_divide floor_divide power float_power mod remainder "
        "maximum minimum fmax fmin arctan2 hypot logaddexp logaddexp2 equal not_equal less less_equal "
        "greater greater_equal logical_and logical_or logical_xor copysign nextafter heaviside"
    ).split()
)


# conversions to an array that keep the shape of what they are given (`jnp.array(np.arange(10))`)
# unless told otherwise (`ndmin=`, `copy`/`dtype`/`order`/`device` do not change it)
_CONVERSIONS = frozenset({"jax.numpy.array", "jax.numpy.asarray", "numpy.array", "numpy.asarray",
                          "jax.device_put", "numpy.copy", "numpy.ascontiguousarray"})
_CONVERSION_KEYWORDS = frozenset({"dtype", "copy", "order", "device"})


def kept_shape(q: str, call: cst.Call, args: list[V.Value]) -> Optional[Shape]:
    """The shape of a call to a shape-keeping library function from its operands' known
    shapes: ``jnp.exp(c)``, ``jnp.argsort(c)``, ``jax.nn.relu(c)``, ``jnp.maximum(c, 0.)``."""
    if not args or any(a.star for a in call.args) or call.args[0].keyword is not None:
        return None
    pos = positional_args(call)
    if not pos:
        return None
    first = args[0].shape
    if q in _ELEMENTWISE:
        return first
    if q in _CONVERSIONS:
        if len(pos) > (2 if q == "jax.device_put" else 1) or any(
                a.keyword is not None and a.keyword.value not in _CONVERSION_KEYWORDS for a in call.args):
            return None
        return first
    if first is None:
        return None
    if q in _ALONG_AXIS:
        if q in ("jax.numpy.sort", "jax.numpy.argsort"):
            axis = arg_at(call, 1, "axis")
            if isinstance(axis, cst.Name) and axis.value == "None":
                return (_size(first),)  # sorted flat
        return first  # `flip`/`roll` keep the shape whatever the axis
    if q in _FLAT_BY_DEFAULT:
        axis = arg_at(call, 1, "axis")
        if axis is None or isinstance(axis, cst.Name) and axis.value == "None":
            return (_size(first),)
        return first
    if q in _ELEMENTWISE_BINARY and len(pos) >= 2 and call.args[1].keyword is None:
        a = () if _scalar(pos[0].value) else first
        b = () if _scalar(pos[1].value) else args[1].shape
        return broadcast(a, b)
    return None


def _size(shape: Shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _axis(ctx, call: cst.Call, position: int, ndim: int) -> Optional[int]:
    node = arg_at(call, position, "axis")
    if node is None:
        return 0
    a = fold_int(ctx, node)
    if a is None or not -ndim <= a < ndim:
        return None
    return a % ndim


def split_shapes(ctx, q: str, call: cst.Call, shape: Optional[Shape]) -> Optional[list[Shape]]:
    """The shapes of the pieces ``jnp.split``/``jnp.array_split`` cut an array of
    ``shape`` into: ``n`` pieces (an int) or at literal indices (a list)."""
    if q not in _SPLITS or shape is None or not shape or any(a.star for a in call.args):
        return None
    how = arg_at(call, 1, "indices_or_sections")
    axis = _axis(ctx, call, 2, len(shape))
    if how is None or axis is None:
        return None
    size = shape[axis]
    if isinstance(how, (cst.List, cst.Tuple)):
        cuts = _dims(ctx, [how])
        if cuts is None or any(c < 0 for c in cuts):
            return None
        bounds = [0] + [min(c, size) for c in cuts] + [size]
        sizes = [max(0, b - a) for a, b in zip(bounds, bounds[1:])]
    else:
        n = fold_int(ctx, how)
        if n is None or n <= 0 or n > 4096:
            return None
        if q == "jax.numpy.split":
            if size % n:
                return None  # split raises: unequal division
            sizes = [size // n] * n
        else:
            sizes = [size // n + 1] * (size % n) + [size // n] * (n - size % n)
    return [shape[:axis] + (s,) + shape[axis + 1:] for s in sizes]


def stacked_shape(q: str, call: cst.Call, arg: V.Value) -> Optional[Shape]:
    """``jnp.array(pieces)`` / ``jnp.stack(pieces)``: a list of arrays that all have one
    known shape gives that shape with the count in front."""
    if q not in _STACKS or arg.elements is None or not arg.elements:
        return None
    if arg.kind not in (V.ARRAYS, V.LIST, V.TUPLE):
        return None
    if q == "jax.numpy.stack" and keyword_arg(call, "axis") is not None:
        return None
    if len(positional_args(call)) > (1 if q == "jax.numpy.stack" else 2):
        return None
    shapes = {el.shape if el.kind in (V.ARRAY, V.NPARRAY, V.STATIC) else None for el in arg.elements}
    if len(shapes) != 1:
        return None
    one = shapes.pop()
    if one is None:
        return None
    return (len(arg.elements),) + one


def reshape_call_shape(ctx, q: str, call: cst.Call, arr: V.Value) -> Optional[Shape]:
    """``jnp.reshape(x, (2, -1))``."""
    if q != "jax.numpy.reshape" or any(a.star for a in call.args):
        return None
    dims = arg_at(call, 1, "shape")
    if dims is None:
        return None
    return reshaped(arr.shape, _dims(ctx, [dims]))


def _scalar(node: cst.BaseExpression) -> bool:
    """A Python number written as such (``2.0``, ``-1``): shape ``()`` for broadcasting."""
    if isinstance(node, (cst.Integer, cst.Float)):
        return True
    return isinstance(node, cst.UnaryOperation) and isinstance(node.expression, (cst.Integer, cst.Float))


def broadcast(a: Optional[Shape], b: Optional[Shape]) -> Optional[Shape]:
    """NumPy's broadcasting of two known shapes; None when either is unknown or they
    do not broadcast (JAX raises there: another matter)."""
    if a is None or b is None:
        return None
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y) if 1 in (x, y) else x)
    return tuple(reversed(out))


def matmul(a: Optional[Shape], b: Optional[Shape]) -> Optional[Shape]:
    """The shape of ``a @ b`` (2-D and 1-D operands; batched ones broadcast)."""
    if a is None or b is None or not a or not b:
        return None
    if len(a) == 1 and len(b) == 1:
        return () if a == b else None
    if len(a) == 1:
        return b[:-2] + b[-1:] if a[0] == b[-2] else None
    if len(b) == 1:
        return a[:-1] if a[-1] == b[0] else None
    if a[-1] != b[-2]:
        return None
    batch = broadcast(a[:-2], b[:-2])
    return None if batch is None else batch + (a[-2], b[-1])


def binop_shape(e: cst.BinaryOperation, left: V.Value, right: V.Value) -> Optional[Shape]:
    """The shape of an arithmetic operation on arrays of known shapes (or an array
    and a number literal): element-wise operations broadcast, ``@`` contracts."""
    ls = () if _scalar(e.left) else left.shape
    rs = () if _scalar(e.right) else right.shape
    if isinstance(e.operator, cst.MatrixMultiply):
        return matmul(ls, rs)
    if ls == () and rs == ():
        return None  # two numbers: not an array
    return broadcast(ls, rs)


# ------------------------------------------------------------ known Python integers
# ``Value.const``: the integer (or the tuple of integers of ``x.shape``) a value always
# holds.  Every operation below gives None (unknown) unless all its inputs are known.

_INT_OPS = {
    cst.Add: lambda a, b: a + b,
    cst.Subtract: lambda a, b: a - b,
    cst.Multiply: lambda a, b: a * b,
    cst.FloorDivide: lambda a, b: a // b if b else None,
    cst.Modulo: lambda a, b: a % b if b else None,
    cst.Power: lambda a, b: a**b if 0 <= b <= 64 and abs(a) <= 1 << 16 else None,
}


def _int(c: object) -> bool:
    return type(c) is int


_POWER_CAP = 4096  # exponents above this are not worked out (the range is None)


def power_range(base: V.Value, exponent: V.Value) -> Optional[tuple[int, int]]:
    """(smallest, largest) element of ``base ** exponent`` where one side is an integer
    array of known elements (``V.Value.int_range``: ``jnp.arange(1, 5)``) and the other a
    known Python integer, neither negative (``256 ** jnp.arange(1, 5)`` -> (256, 2**32),
    ``jnp.arange(10) ** 3``): the exact values JAX's integer power would give without
    overflow.  None for anything else (a float, a negative, an unknown side)."""
    if base.kind == V.ARRAY and base.int_range is not None and _int(exponent.const) and exponent.kind == V.STATIC:
        lo, hi = base.int_range
        k = int(exponent.const)  # type: ignore[arg-type]
        if lo < 0 or k < 0 or k > _POWER_CAP:
            return None
        return lo ** k, hi ** k
    if exponent.kind == V.ARRAY and exponent.int_range is not None and _int(base.const) and base.kind == V.STATIC:
        c = int(base.const)  # type: ignore[arg-type]
        lo, hi = exponent.int_range
        if c < 0 or lo < 0 or hi > _POWER_CAP:
            return None
        return (c ** lo, c ** hi) if c >= 1 else (c ** hi, c ** lo)
    return None


def const_binop(op: cst.BaseBinaryOp, left: V.Value, right: V.Value) -> V.Value:
    """Arithmetic on two Python values: its integer when both are known integers
    (a tuple of ints added to one: ``x.shape + (1,)``)."""
    a, b = left.const, right.const
    if _int(a) and _int(b):
        f = _INT_OPS.get(type(op))
        c = f(a, b) if f is not None else None
        return V.Value(kind=V.STATIC, const=c) if c is not None else V.STATIC_VALUE
    if type(a) is tuple and type(b) is tuple and isinstance(op, cst.Add):
        return V.Value(kind=V.STATIC, const=a + b)
    # a loop variable's range shifted by a known integer: `i + 1`, `i - 1`, `n - i`, `2 * i`
    lr = left.int_range if left.int_range is not None else ((a, a) if _int(a) else None)
    rr = right.int_range if right.int_range is not None else ((b, b) if _int(b) else None)
    if lr is not None and rr is not None and (left.int_range is None) != (right.int_range is None):
        if isinstance(op, cst.Add):
            return V.Value(kind=V.STATIC, int_range=(lr[0] + rr[0], lr[1] + rr[1]))
        if isinstance(op, cst.Subtract):
            return V.Value(kind=V.STATIC, int_range=(lr[0] - rr[1], lr[1] - rr[0]))
        if isinstance(op, cst.Multiply):
            ends = [x * y for x in lr for y in rr]
            return V.Value(kind=V.STATIC, int_range=(min(ends), max(ends)))
    return V.STATIC_VALUE


def shape_attr(base: V.Value, attr: str) -> V.Value:
    """``x.shape`` / ``x.ndim`` / ``x.size`` of an array whose shape is known: the numbers."""
    shape = base.shape
    if shape is None or base.kind not in (V.ARRAY, V.NPARRAY, V.STATIC):
        return V.STATIC_VALUE
    if attr == "shape":
        return V.Value(kind=V.STATIC, const=tuple(shape))
    if attr == "ndim":
        return V.Value(kind=V.STATIC, const=len(shape))
    if attr == "size":
        n = 1
        for d in shape:
            n *= d
        return V.Value(kind=V.STATIC, const=n)
    return V.STATIC_VALUE


def const_item(ctx, base: V.Value, e: cst.Subscript) -> V.Value:
    """``shape[0]``, ``shape[-1]``, ``shape[1:]`` of a known tuple of integers."""
    c = base.const
    if type(c) is not tuple or len(e.slice) != 1:
        return V.Value(kind=V.STATIC)
    sl = e.slice[0].slice
    if isinstance(sl, cst.Index):
        i = ctx.value(sl.value).const
        if _int(i) and -len(c) <= i < len(c):  # type: ignore[operator]
            return V.Value(kind=V.STATIC, const=c[i])  # type: ignore[index]
        return V.Value(kind=V.STATIC)
    if isinstance(sl, cst.Slice) and sl.step is None:
        lo = ctx.value(sl.lower).const if sl.lower is not None else None
        hi = ctx.value(sl.upper).const if sl.upper is not None else None
        if (sl.lower is None or _int(lo)) and (sl.upper is None or _int(hi)):
            return V.Value(kind=V.STATIC, const=c[lo:hi])  # type: ignore[misc]
    return V.Value(kind=V.STATIC)


def length(v: V.Value) -> Optional[int]:
    """``len(v)``: a tuple display's length, the first dimension of an array of known
    shape, the length of a known tuple of integers (``len(x.shape)``)."""
    if v.kind == V.TUPLE and v.elements is not None:
        return len(v.elements)
    if v.kind == V.ARRAYS and v.elements is not None:
        return len(v.elements)
    if v.kind in (V.ARRAY, V.NPARRAY) and v.shape:
        return v.shape[0]
    if v.kind == V.STATIC and type(v.const) is tuple:
        return len(v.const)
    if v.kind == V.LIST and v.shape:
        return v.shape[0]  # `[layer(i) for i in range(n)]`, not changed since (model/walker.py)
    if v.kind == V.STATIC and v.shape:
        return v.shape[0]
    return None
