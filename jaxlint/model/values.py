"""Abstract values: what the model knows about the value of an expression."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Optional

import libcst as cst

if TYPE_CHECKING:  # pragma: no cover
    from jaxlint.model.pytrees import PyClass
    from jaxlint.model.units import Unit

# kinds
ARRAY = "array"  # a JAX array (jnp/lax/random result, arithmetic on arrays)
NPARRAY = "nparray"  # a NumPy array (host memory, mutable)
KEY = "key"  # one PRNG key
KEYS = "keys"  # an array of keys (split(key, n))
STATIC = "static"  # a concrete Python value (literal, shape, len, static arg)
ITERATOR = "iterator"  # a stateful Python iterator or generator
FUNCTION = "function"  # a function or callable from a known module
MODULE = "module"  # an imported module
TUPLE = "tuple"  # a tuple/list display with known elements
AT = "at"  # x.at
AT_INDEX = "at_index"  # x.at[i]
LIST = "list"  # a Python list/dict built here (mutable container)
ARRAYS = "arrays"  # a Python list or tuple of arrays (jnp.split, jnp.linalg.svd); ``item``: one of them
UNKNOWN = "unknown"


class KeyToken:
    """Identity of one PRNG key value; two uses of the same token are a reuse."""

    __slots__ = ("node", "loop_depth", "label", "serial")
    _made = itertools.count()

    def __init__(self, node: Optional[cst.CSTNode], loop_depth: int, label: str) -> None:
        self.node = node
        self.loop_depth = loop_depth
        self.label = label
        self.serial = next(KeyToken._made)  # unique for the process (ids can be reused)

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"KeyToken({self.label})"


@dataclass(frozen=True)
class Value:
    kind: str = UNKNOWN
    traced: bool = False
    # names of the traced parameters this value depends on (for messages)
    deps: frozenset[str] = frozenset()
    qualname: Optional[str] = None  # modules, functions, dtypes
    unit: Optional["Unit"] = None  # a function defined in this file
    key: Optional[KeyToken] = None
    elements: Optional[tuple["Value", ...]] = None
    # an array created in this scope by a jax.numpy constructor and not aliased
    local_array: bool = False
    # a transform wrapped around ``unit`` (jax.jit(f) -> FUNCTION with transform)
    transform: Optional[str] = None
    # what is known of an array's dtype: "bool" for masks (comparisons, isnan, ~mask...)
    dtype_hint: Optional[str] = None
    # static shape of an array built by a literal constructor (jnp.arange(10) -> (10,))
    shape: Optional[tuple[int, ...]] = None
    # ARRAYS: the value of one item
    item: Optional["Value"] = None
    # an integer array built by a literal constructor (`jnp.arange(7)`, `np.array([0, 9])`):
    # its smallest and largest element (model/shapes.py), for indices out of bounds
    int_range: Optional[tuple[int, int]] = None
    # an instance of a pytree class the model can read (model/pytrees.py): which of
    # its attributes are leaves and which static
    cls: Optional["PyClass"] = None
    # an instance of a dataclass of this file built here: the kinds of its fields,
    # (name, Value) pairs from the constructor's arguments (model/kinds.py)
    fields: Optional[tuple[tuple[str, "Value"], ...]] = None
    # an instance of a class of the project (model/instances.py): the class as this
    # file writes it (``Matern32``, ``models.Net``) or, from another module's facts,
    # ``@module:qualname``
    instance: Optional[str] = None
    # STATIC: the Python type when known ("str" for a string literal or a constant bound
    # to one, here or in another module): `mode == MODE_TRAIN` compares strings
    pytype: Optional[str] = None
    # the Python integer (or tuple of integers: ``x.shape``) the value always holds
    # here: a literal, arithmetic on known ones, ``x.shape[0]`` of an array of known
    # shape, ``len()`` of a tuple, a module constant (imported too), a helper's return
    # (model/evaluation.py); None when unknown
    const: Optional[object] = None
    # UNKNOWN where paths meet: a JAX array on some of the paths that reach here and a host
    # NumPy array on the others (`out = np.zeros(n)` then `if c: out = sig * w`): an
    # in-place write raises on the paths where it is a JAX array, whatever the others do
    jax_on_some_path: bool = False
    # a record built here with a tracer in a field (``State(loss=l)`` of a NamedTuple or
    # dataclass of this file, ``dict(loss=l)``): its repr shows the tracer's
    holds: bool = False

    def with_key(self, token: KeyToken) -> "Value":
        return replace(self, key=token)


def holds_tracer(v: Value, depth: int = 0) -> bool:
    """Does the container value ``v`` hold a tracer among its elements, its fields or
    (a list or dict whose every item is one) its item, nested up to four deep?"""
    if depth > 4:
        return False
    if v.holds:
        return True
    inner: list[Value] = list(v.elements or ()) + [f for _, f in v.fields or ()]
    if v.item is not None and v.kind in (LIST, ARRAYS):
        inner.append(v.item)
    return any(i.traced or holds_tracer(i, depth + 1) for i in inner)


UNKNOWN_VALUE = Value()
STATIC_VALUE = Value(kind=STATIC)
STR_VALUE = Value(kind=STATIC, pytype="str")


def join(a: Value, b: Value) -> Value:
    """The value after two control-flow paths meet."""
    if a is b or a == b:
        return a
    kind = a.kind if a.kind == b.kind else UNKNOWN
    key = a.key if a.key is b.key else None
    return Value(
        kind=kind,
        traced=a.traced or b.traced,
        deps=a.deps | b.deps,
        qualname=a.qualname if a.qualname == b.qualname else None,
        unit=a.unit if a.unit is b.unit else None,
        key=key,
        local_array=a.local_array and b.local_array,
        dtype_hint=a.dtype_hint if a.dtype_hint == b.dtype_hint else None,
        shape=a.shape if a.shape == b.shape else None,
        item=a.item if a.item == b.item else _grown_item(a, b),
        int_range=a.int_range if a.int_range == b.int_range else None,
        cls=a.cls if a.cls is b.cls else None,
        fields=a.fields if a.fields == b.fields else None,
        instance=a.instance if a.instance == b.instance else None,
        pytype=a.pytype if a.pytype == b.pytype else None,
        const=a.const if a.const == b.const else None,
        jax_on_some_path=kind == UNKNOWN and _array_paths(a, b),
    )


def _grown_item(a: Value, b: Value) -> Optional[Value]:
    """A list empty on one path (``xs = []`` before a loop) whose every item is a tracer
    on the other (appended in the loop's body): its items, where it has any, are tracers."""
    for empty, grown in ((a, b), (b, a)):
        if empty.kind == LIST == grown.kind and empty.elements == () and grown.elements is None \
                and grown.item is not None and grown.item.traced and grown.fields is None:
            return grown.item
    return None


def _array_paths(a: Value, b: Value) -> bool:
    """Do two meeting paths hold a JAX array on one and a host NumPy array (or such a
    mix) on the other, with a JAX array on at least one of them?"""
    def side(v: Value) -> Optional[str]:
        if v.jax_on_some_path:
            return "mix"
        if v.kind == STATIC and v.shape is not None:
            return NPARRAY  # NumPy's array of literal data (`np.zeros(3)`): a host array
        return v.kind if v.kind in (ARRAY, NPARRAY) else None
    sa, sb = side(a), side(b)
    return sa is not None and sb is not None and (sa != sb or sa == "mix")
