"""Expression evaluation: the abstract ``Value`` of an expression where the walk
stands (memoized per node and unit), from the bindings (``model/bindings.py``),
the API tables (``model/apis.py``) and what the file's helpers return."""

from __future__ import annotations

from functools import lru_cache
import re
from typing import Optional

import libcst as cst

from jaxlint.model import pytree_methods
from jaxlint.model import namespaces
from jaxlint.model import apis, instances, kinds, pytrees, returns, shape_flow
from jaxlint.model import nondiff
from jaxlint.model import values as V
from jaxlint.model.constants import host_array_expr
from jaxlint.model.bindings import replace_value
from jaxlint.model.shapes import constructor_facts, int_range
from jaxlint.model.transformed import differentiates, gradient_tree
from jaxlint.model.arg_shapes import rebound_in_loop
from jaxlint.model.program_order import attribute_writes
from jaxlint.model.scopes import bound_once, bound_receiver, scope_of, writes
from jaxlint.model.units import Unit
from jaxlint.model.values import KeyToken, Value
from jaxlint.model.walk import bound_names, descendants, dotted_name, int_value, keyword_arg, positional_args, string_value

# pseudo-dependency: computed by a JAX operation inside traced code
JAX_COMPUTED = frozenset({"<jax>"})

COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)

_BUILTIN_STATIC = frozenset(
    {"len", "isinstance", "issubclass", "type", "hasattr", "callable", "id", "str",
     "repr", "hash", "getattr", "dir", "vars", "format", "print", "sorted"}
)

# `.at[...]` methods whose result has the array's shape
_AT_KEEPS_SHAPE = frozenset({"set", "add", "subtract", "multiply", "mul", "divide", "power", "min", "max", "apply"})

# layer classes built and applied in one expression inside a module's method
_LAYER_MODULES = ("flax.linen.", "flax.nnx.", "haiku.", "equinox.nn.")


class Evaluator:
    """The value of an expression, for ``Interpreter`` (a mixin)."""

    def value(self, expr: cst.CSTNode) -> Value:
        key = id(expr)
        v = self._memo.get(key)
        if v is None:
            v = self._eval(expr)
            if v.traced and self.concrete and nondiff.drops_tangent(self, expr, v):
                # differentiated outside jit: an integer or boolean result is a concrete array
                v = Value(kind=v.kind, dtype_hint=v.dtype_hint, shape=v.shape)
            self._memo[key] = v
        return v

    def is_traced(self, expr: cst.CSTNode) -> bool:
        """Is ``expr`` an abstract tracer (its value unknown while JAX traces)?"""
        return not self.unit.host and not self.concrete and self.value(expr).traced

    def is_tracer(self, expr: cst.CSTNode) -> bool:
        """Is ``expr`` a tracer of any sort: abstract, or a JVP/linearize tracer of a
        concrete value in a function differentiated outside jit (model/gradtrace.py)?"""
        return not self.unit.host and self.value(expr).traced

    def holds_tracer(self, expr: cst.CSTNode) -> bool:
        """Is ``expr`` a Python container the model can show holds a tracer (of any
        sort, as ``is_tracer``): a tuple or list with one among its elements, a dict
        with one among its values, an instance built with one in a field
        (``State(loss=l)``, ``Term(Q=q)``), at any depth?  Its repr shows the tracer's."""
        return not self.unit.host and V.holds_tracer(self.value(expr))

    # -- evaluation ---------------------------------------------------------------
    def _field(self, base: Value, attr: str) -> Value:
        """``obj.attr`` for a traced ``obj``: a tracer only where the model can show
        it, a data leaf of a class it can read (model/pytrees.py); the array API
        (``x.T``, ``x.real``) of a value of no known class; else unknown."""
        if base.cls is None:
            if attr in pytrees.ARRAY_ATTRS:
                return Value(kind=V.ARRAY, traced=True, deps=base.deps)
            return self._traced_property(base, attr)  # else a class it cannot read: unknown never reports
        what, ann = pytrees.attribute(base.cls.flat, attr)
        if what == "static":
            if isinstance(ann, str) and ann in apis.STATIC_ANNOTATIONS:
                return V.STATIC_VALUE
            return V.UNKNOWN_VALUE  # a Python value, of any type
        if what == "data":
            if isinstance(ann, str) and ann in apis.ARRAY_ANNOTATIONS:
                return Value(kind=V.ARRAY, traced=True, deps=base.deps)
            cls = self.index.flat_class(ann) if isinstance(ann, dict) else None
            return Value(kind=V.UNKNOWN, traced=True, deps=base.deps, cls=cls)
        if what == "unknown" and attr not in base.cls.flat.get("fields", {}):
            return self._traced_property(base, attr)
        return V.UNKNOWN_VALUE

    def _traced_property(self, base: Value, attr: str) -> Value:
        """``cosmo.Omega`` of a traced instance of a pytree class of this file, ``Omega``
        a property computing a JAX value of its leaves: a tracer; else unknown."""
        info = pytree_methods.class_info(self, base)
        prop = info.method(attr) if info is not None else None
        if pytree_methods.is_property(prop) and pytree_methods.member_tracer(
                self, info, prop, pytree_methods.leaves(self, info)):
            # an array it computes (`self.sigma < 1e-6`): `if dist.is_degenerate:` raises too
            kind = V.ARRAY if pytree_methods.computed(prop) else V.UNKNOWN
            return Value(kind=kind, traced=True, deps=base.deps)
        return V.UNKNOWN_VALUE

    def _a_string(self, e: cst.CSTNode, v: Value) -> bool:
        """Is ``e`` (evaluated to ``v``) a Python string or enumeration member: a name
        bound to a string literal in this file, or one another module of the project
        binds to one (``MODE_TRAIN``, ``common_types.MODE_TRAIN``: the ``consts`` facts),
        a member of an ``Enum`` (not ``IntEnum``) here or there (``Mode.TRAIN``)?"""
        if v.pytype == "str":
            return True
        if type(e) is cst.Attribute and type(e.value) is cst.Name and not self.value(e.value).traced:
            # `Mode.TRAIN` of an enumeration of this file (`class Mode(str, enum.Enum)`)
            for c in self.index.classes:
                if c.name == e.value.value and any(b.rsplit(".", 1)[-1] in ("Enum", "StrEnum") for b in c.bases):
                    return True
        if v.kind != V.FUNCTION or type(e) not in (cst.Name, cst.Attribute):
            return False
        written = dotted_name(e)
        return written is not None and self.index.imported_consts.get(written) in ("str", "enum")

    def _eval(self, e: cst.CSTNode) -> Value:
        t = type(e)
        traced_ctx = self.in_traced
        if t is cst.Name:
            v = self.lookup(e.value)
            if v is not None:
                if v.const is not None and (
                        (self.loop_stack and rebound_in_loop(self, e)) or not returns.const_visible(self, e.value)):
                    return replace_value(v, const=None)  # another value in a later iteration, or rebound
                if v.kind == V.LIST and v.shape is not None and not returns.list_length_visible(self, e.value):
                    return replace_value(v, shape=None)  # `LAYERS.append(...)` in some function
                if v.kind == V.LIST and v.pytype == "dict" and (v.fields is not None or v.item is not None) \
                        and not v.traced and self.env.get(e.value) is None and _dict_changed(self.text, e.value):
                    # a dict of the module (or an enclosing function) read here: what its entries
                    # hold is unknown where the file stores into it or hands it on (`TABLE[k] = ...`)
                    return replace_value(v, fields=None, item=None)
                return v
            if e.value in ("True", "False", "None"):
                return V.STATIC_VALUE
            c = self.index.imported_values.get(e.value)
            if c is not None and "int" in c:
                return Value(kind=V.STATIC, const=c["int"])  # `from config import N_STEPS`
            if c is not None:
                held = _imported_constant(c)
                if held is not None:
                    return held  # `from anchors import ANCHORS`: an array, a list
            q = self.imports.resolve_expr(e)
            if q is not None:
                if e.value in self.index.imported_jits:
                    # a jitted function of another module of the project, imported by name
                    # (`from ops import attention`): a value passed on holds the jit
                    return Value(kind=V.FUNCTION, qualname=q, transform="jax.jit")
                return Value(kind=V.FUNCTION, qualname=q)
            return V.UNKNOWN_VALUE
        if t in (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString):
            return V.STR_VALUE
        if t is cst.Integer:
            n = int_value(e)
            return Value(kind=V.STATIC, const=n) if n is not None else V.STATIC_VALUE
        if t in (cst.Float, cst.Imaginary, cst.Ellipsis):
            return V.STATIC_VALUE
        if t is cst.Attribute:
            q = self.qualname(e)
            if q is not None:
                if self.index.imported_values:
                    known = self.index.imported_values.get(dotted_name(e) or "")
                    if known is not None and "int" in known:
                        return Value(kind=V.STATIC, const=known["int"])  # `config.N_STEPS`
                    if known is not None:
                        held = _imported_constant(known)
                        if held is not None:
                            return held  # `anchors.ANCHORS`: an array, a list
                if self.index.imported_jits and (dotted_name(e) or "") in self.index.imported_jits:
                    return Value(kind=V.FUNCTION, qualname=q, transform="jax.jit")  # `ops.attention`
                return Value(kind=V.FUNCTION, qualname=q)
            base = self.value(e.value)
            attr = e.attr.value
            if attr in apis.STATIC_ATTRS and not (base.cls is not None and attr in base.cls.flat.get("fields", ())):
                # (not a field of that name of a pytree class: `grid.shape` of `Grid(shape=jnp.asarray(s))`)
                return shape_flow.shape_attr(base, attr)  # `x.shape` of a known shape: its numbers
            if not base.traced and type(e.value) is cst.Name and e.value.value == "self" and self.unit.cls is not None \
                    and self.unit.params and self.unit.params[0].name == "self" and self.unit.self_leaves:
                leaves = frozenset(self.unit.self_leaves)
                if attr in leaves and not pytree_methods.self_written(self, self.unit, attr):
                    # `self.Omega_k` in a method run on a traced pytree instance: a leaf, a tracer
                    return Value(traced=True, deps=frozenset({f"self.{attr}"}))
                prop = self.unit.cls.method(attr)
                if pytree_methods.is_property(prop) and pytree_methods.member_tracer(self, self.unit.cls, prop, leaves):
                    # `self.Omega` of a property computing it from a leaf (an array it
                    # computes: `if self.is_degenerate:` raises too)
                    kind = V.ARRAY if pytree_methods.computed(prop) else V.UNKNOWN
                    return Value(kind=kind, traced=True, deps=frozenset({f"self.{attr}"}))
            if not base.traced and type(e.value) is cst.Name and e.value.value == "self" and self.unit.cls is not None \
                    and self.unit.params and self.unit.params[0].name == "self":
                held = self.scratch_attrs.get(attr) if self.scratch_attrs is not None else \
                    returns.attribute_value(self, self.unit.cls, attr)
                if held is not None:
                    # `self.buf = jnp.zeros((4, 3))` once, in `__init__`: a concrete array of that shape
                    return Value(kind=held.kind, shape=held.shape, const=held.const, int_range=held.int_range,
                                 pytype=held.pytype)
                ref = instances.attribute(self, self.unit.cls, attr)  # `self.model` set in `__init__`
                if ref is not None:
                    return Value(instance=ref)
                if attr in self.unit.traced_fields and not returns.attribute_written(self, attr):
                    # `self.a1` in `__check_init__` of `Cls(a1=x)` in traced code: the tracer
                    return Value(traced=True, deps=frozenset({f"self.{attr}"}))
            if attr == "at" and (base.kind == V.ARRAY or base.traced):
                return Value(kind=V.AT, traced=base.traced, deps=base.deps, shape=base.shape, dtype_hint=base.dtype_hint)
            if base.kind == V.ARRAY:
                if attr in pytrees.ARRAY_ATTRS or attr in apis.ARRAY_METHODS:
                    return Value(kind=V.ARRAY, traced=base.traced, deps=base.deps)
                # no attribute of a JAX array (`u.domain` of `u = grad * pml`, a field class
                # overloading `*`): the value is no array the model knows; unknown
                return V.UNKNOWN_VALUE
            if base.traced:
                return self._field(base, attr)
            if base.instance is not None and base.kind == V.UNKNOWN:
                held = self._instance_attribute(base.instance, attr)
                if held is not None:
                    return held  # `h.table` of `h = Holder()`: what its `__init__` set
            if base.fields is not None:
                for name, fv in base.fields:
                    if name == attr:
                        if fv.const is not None and returns.attribute_written(self, attr):
                            return replace_value(fv, const=None)  # `cfg.n_layers = 8` somewhere
                        return fv  # `p.w` of `p = Params(w=jnp.zeros(3))`
            return V.UNKNOWN_VALUE
        if t is cst.Subscript:
            base = self.value(e.value)
            idx_traced = False
            deps = base.deps
            for el in e.slice:
                for part in _slice_parts(el.slice):
                    pv = self.value(part)
                    if pv.traced:
                        idx_traced = True
                        deps = deps | pv.deps
            if base.kind == V.LIST and base.fields is not None and len(e.slice) == 1 \
                    and type(e.slice[0].slice) is cst.Index:
                key = string_value(e.slice[0].slice.value)
                for name, fv in base.fields:
                    if key is not None and name == f"[{key}]":
                        if fv.kind == V.LIST:
                            # a list of arrays: its items only as `d["k"][0]` (`_entry_item`); a
                            # name bound to it may see them changed through the dict
                            break
                        return fv  # `params["radec"]` of `params = {"radec": np.array(...)}`
            if type(e.value) is cst.Subscript and len(e.slice) == 1 and type(e.slice[0].slice) is cst.Index:
                held = _entry_item(self, e.value, e.slice[0].slice.value)
                if held is not None:
                    return held  # `cache["k"][0]` of `cache = {"k": [jnp.zeros(4)]}`: that array
            if base.kind == V.LIST and len(e.slice) == 1 and type(e.slice[0].slice) is cst.Index:
                held = _held_item(base, e.slice[0].slice.value)
                if held is not None:
                    return held  # `lst[0]`, `d[k]` of a container of tracers
                held = _display_item(self, e.value, base, e.slice[0].slice.value)
                if held is not None:
                    return held  # `tables[0]` of `tables = [np.arange(10.0), ...]`: that array
                if base.pytype == "dict" and base.item is not None and base.item.kind == V.ARRAY \
                        and not base.item.traced:
                    # `params[name]` of a dict whose every value is a concrete JAX array
                    # (`{"w": jnp.zeros(3), "b": jnp.zeros(2)}`, `dict(w=..., b=...)`)
                    return Value(kind=V.ARRAY)
            if base.kind == V.STATIC:
                if idx_traced:
                    return Value(traced=True, deps=deps)
                return shape_flow.const_item(self, base, e)  # `x.shape[0]`: a known number
            if base.kind == V.KEYS:
                return Value(kind=V.KEY, key=self._subscript_key(e, base))
            if base.kind == V.AT:
                return Value(kind=V.AT_INDEX, traced=base.traced or idx_traced, deps=deps, shape=base.shape,
                             dtype_hint=base.dtype_hint)
            if base.kind == V.ARRAYS and base.item is not None and len(e.slice) == 1:
                sl = e.slice[0].slice
                if isinstance(sl, cst.Index):
                    i = int_value(sl.value)
                    if base.elements is not None and i is not None and -len(base.elements) <= i < len(base.elements):
                        return base.elements[i]  # one piece of `jnp.split(x, 3)`, with its shape
                    return base.item
                return base  # a slice of the list: a list
            if base.kind == V.TUPLE and base.elements is not None and len(e.slice) == 1:
                sl = e.slice[0].slice
                if isinstance(sl, cst.Index) and isinstance(sl.value, cst.Integer):
                    i = int(sl.value.value)
                    if 0 <= i < len(base.elements):
                        return base.elements[i]
            if base.traced or (idx_traced and base.kind == V.ARRAY):
                return Value(kind=V.ARRAY if base.kind == V.ARRAY else V.UNKNOWN, traced=True, deps=deps)
            if base.kind == V.ARRAY and self._staged(base):
                # `SIZES[0]` of a concrete JAX array under jit: indexing is staged, a tracer
                return Value(kind=V.ARRAY, traced=True, deps=base.deps | JAX_COMPUTED)
            if base.kind == V.ARRAY:
                return Value(kind=V.ARRAY, traced=traced_ctx and base.traced)
            if base.kind == V.NPARRAY and not idx_traced:
                return base  # `np.indices(shape)[0]`: a host array (or a NumPy scalar)
            return V.UNKNOWN_VALUE
        if t is cst.Call:
            v = self._eval_call(e)
            if v.kind == V.UNKNOWN and not v.traced and not v.holds and self._builds_record(e):
                v = replace_value(v, holds=True)
            if v.kind == V.UNKNOWN and not v.traced and v.instance is None and type(e.func) in (cst.Name, cst.Attribute):
                ref = instances.constructed(self, dotted_name(e.func))  # `Cls(...)` of the project
                if ref is not None:
                    return replace_value(v, instance=ref)
            return v
        if t is cst.BinaryOperation:
            l, r = self.value(e.left), self.value(e.right)
            if l.kind == V.STATIC and r.kind == V.STATIC:
                return shape_flow.const_binop(e.operator, l, r)
            if (l.kind in (V.LIST, V.TUPLE) or r.kind in (V.LIST, V.TUPLE)) and not (l.traced or r.traced):
                return Value(kind=V.LIST)  # sequence repetition / concatenation
            traced = l.traced or r.traced
            deps = l.deps | r.deps
            if not traced and self._staged(l, r):
                # `self._n + 1` of a concrete JAX array under jit: the operator is a jax.numpy
                # call, staged like any other, so its result is a tracer
                traced, deps = True, deps | JAX_COMPUTED
            if not traced and V.NPARRAY in (l.kind, r.kind) and {l.kind, r.kind} <= {V.NPARRAY, V.STATIC}:
                return Value(kind=V.NPARRAY)  # `np.random.randn(n) * sigma + mu`: a host array
            if traced or V.ARRAY in (l.kind, r.kind):
                shape = shape_flow.binop_shape(e, l, r) if (l.shape is not None or r.shape is not None) else None
                hint = None
                if isinstance(e.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)) and l.dtype_hint == r.dtype_hint == "bool":
                    hint = "bool"
                elif isinstance(e.operator, cst.Divide) or "float" in (l.dtype_hint, r.dtype_hint) or isinstance(e.left, cst.Float) or isinstance(e.right, cst.Float):
                    hint = "float"
                rng = shape_flow.power_range(l, r) if isinstance(e.operator, cst.Power) else None
                return Value(kind=V.ARRAY, traced=traced, deps=deps, dtype_hint=hint, shape=shape,
                             int_range=rng)
            mixed = namespaces.mixed_binop(l, r)
            if mixed is not None:
                return mixed  # `out + np.diag(...)` of arrays of the dual namespace
            return V.UNKNOWN_VALUE
        if t is cst.UnaryOperation:
            inner = self.value(e.expression)
            if isinstance(e.operator, cst.Not):
                return V.STATIC_VALUE
            hint = inner.dtype_hint if isinstance(e.operator, cst.BitInvert) else None
            if type(inner.const) is int and isinstance(e.operator, (cst.Minus, cst.Plus)):
                return Value(kind=V.STATIC, const=-inner.const if isinstance(e.operator, cst.Minus) else inner.const)
            if not inner.traced and self._staged(inner):
                # `-self.n`, `~MASK` of a concrete JAX array under jit: staged, a tracer
                return Value(kind=V.ARRAY, traced=True, deps=inner.deps | JAX_COMPUTED, dtype_hint=hint, shape=inner.shape)
            return Value(kind=inner.kind if inner.kind in (V.ARRAY, V.STATIC) else V.UNKNOWN, traced=inner.traced, deps=inner.deps, dtype_hint=hint)
        if t is cst.Comparison:
            if any(isinstance(c.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for c in e.comparisons):
                return V.STATIC_VALUE
            operands = [e.left] + [c.comparator for c in e.comparisons]
            if any(isinstance(o, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)) for o in operands):
                return V.STATIC_VALUE  # `mode == "train"`: a Python string, not an array
            if any(type(o) is cst.Name and o.value == "None" for o in operands):
                return V.STATIC_VALUE  # `params == None`: an array compared with None is False, a Python bool
            vals = [self.value(o) for o in operands]
            if all(v.kind == V.STATIC for v in vals):
                return V.STATIC_VALUE
            deps = frozenset().union(*(v.deps for v in vals))
            if any(v.traced for v in vals) and all(
                    isinstance(c.operator, (cst.Equal, cst.NotEqual)) for c in e.comparisons) and any(
                    self._a_string(o, v) for o, v in zip(operands, vals)):
                # `mode == MODE_TRAIN` with `MODE_TRAIN = "train"` (here, or in the module it
                # is imported from): `mode` is a Python string, the comparison a Python bool
                return V.STATIC_VALUE
            if any(v.traced for v in vals):
                return Value(kind=V.ARRAY, traced=True, deps=deps, dtype_hint="bool")
            if any(v.kind == V.ARRAY for v in vals):
                return Value(kind=V.ARRAY, dtype_hint="bool")
            return V.UNKNOWN_VALUE
        if t is cst.BooleanOperation:
            l, r = self.value(e.left), self.value(e.right)
            if l.kind == V.STATIC and r.kind == V.STATIC:
                return V.STATIC_VALUE
            # the left operand is always converted to bool; the right one only
            # matters for some Python values of the left (a guard): unsure
            return Value(traced=l.traced, deps=l.deps)
        if t is cst.IfExp:
            return V.join(self.value(e.body), self.value(e.orelse))
        if t in (cst.Tuple, cst.List):
            els = []
            for el in e.elements:
                if isinstance(el, cst.StarredElement):
                    return Value(kind=V.LIST if t is cst.List else V.UNKNOWN)
                els.append(self.value(el.value))
            if t is cst.List:
                return Value(kind=V.LIST, elements=tuple(els))
            return Value(kind=V.TUPLE, elements=tuple(els))
        if t is cst.Dict:
            pairs = [(string_value(el.key), el.value) if type(el) is cst.DictElement else None for el in e.elements]
            return self._dict_display(pairs)
        if t is cst.DictComp:
            # `{k: jnp.zeros(s) for k, s in shapes.items()}`: every value a concrete JAX array
            # (`params[k]` is one, whichever key), else entries unknown
            item = self._memo.get(id(e.value))  # type: ignore[attr-defined]
            if item is None:
                item = self._element_value(e, e.value)  # type: ignore[attr-defined]
            if item.kind == V.ARRAY and not item.traced:
                return Value(kind=V.LIST, item=Value(kind=V.ARRAY), pytype="dict")
            return Value(kind=V.LIST)
        if t is cst.Set:
            return Value(kind=V.LIST)
        if t in COMPREHENSIONS:
            # the value of one element, as the walk found it in the comprehension's scope
            item = self._memo.get(id(e.elt))  # type: ignore[attr-defined]
            if item is None:
                item = self._element_value(e)
            n = self._comprehension_length(e) if t is cst.ListComp else None
            return Value(kind=V.ITERATOR if t is cst.GeneratorExp else V.LIST, item=item,
                         shape=(n,) if n is not None else None, pytype="list" if t is cst.ListComp else None)
        if t is cst.Lambda:
            return Value(kind=V.FUNCTION, unit=self.index.unit_of.get(id(e)))
        if t is cst.NamedExpr:
            return self.value(e.value)
        return V.UNKNOWN_VALUE

    def _staged(self, *operands: Value) -> bool:
        """Does an operator on ``operands`` run staged: under ``jit`` (or a loop primitive's
        body), not under ``vmap`` alone or ``ensure_compile_time_eval``, with a concrete JAX
        array among them?  Every operation on a JAX array is then a traced jax.numpy call,
        whatever its inputs are (JAX 0.10.2: ``S + 1``, ``-S``, ``N[0]`` of module constants
        ``S = jnp.asarray(4)``, ``N = jnp.asarray([5, 6])`` are tracers inside ``jax.jit``
        and ``lax.fori_loop``; under ``vmap`` and ``grad`` they stay concrete)."""
        return self.in_traced and not self.eager and any(
            v.kind == V.ARRAY and not v.traced for v in operands)

    def _mapped_dict(self, call: cst.Call) -> Optional[Value]:
        """``jax.tree.map(f, params)`` with ``f`` a JAX function computing one array
        (``jnp.zeros_like``, ``jnp.abs``) and ``params`` a dict whose every value is a
        concrete JAX array (each value a leaf): a dict of the same keys, every value a JAX
        array; None otherwise (another function, an ``is_leaf``, more trees)."""
        if len(call.args) != 2 or any(a.star or a.keyword is not None for a in call.args):
            return None
        tree = self.value(call.args[1].value)
        if tree.kind != V.LIST or tree.pytype != "dict" or tree.item is None or tree.item.kind != V.ARRAY \
                or tree.item.traced or kinds.call_kind(self.qualname(call.args[0].value)) != V.ARRAY:
            return None
        return Value(kind=V.LIST, pytype="dict", item=Value(kind=V.ARRAY), fields=tuple(
            (n, Value(kind=V.ARRAY)) for n, fv in tree.fields or () if fv.kind == V.ARRAY) or None)

    def _dict_display(self, pairs: list) -> Value:
        """A dict built here, from ``pairs`` (literal key or None, value node; None for a
        ``**other`` entry): a ``{...}`` display or ``dict(w=..., b=...)``.

        ``{"radec": np.array(...)}``: the host NumPy arrays it holds under literal keys
        (fields named ``[key]``, read back by ``d["key"]``; model/kinds.py carries them)
        and the tracers it holds (``{"a": jnp.sin(x)}`` in traced code): ``d["a"]``, and
        ``d[k]`` / ``d.values()`` when every value is one (``item``); a concrete JAX
        array when every value is one (``{"w": jnp.zeros(3), "b": jnp.zeros(2)}``:
        ``d[name]`` is immutable whichever key it names); a tuple display of arrays
        under a literal key (``{"kv": (jnp.zeros(4), jnp.ones(4))}``: immutable, its
        items read back by ``d["kv"][0]``)."""
        held = []
        traced_values: list[Value] = []
        every = bool(pairs)
        every_array = bool(pairs)
        for pair in pairs:
            if pair is None:
                every = every_array = False
                continue
            key, node = pair
            ev = self.value(node)
            if ev.traced:
                every_array = False
                traced_values.append(ev)
                if key is not None:
                    held.append((f"[{key}]", ev))
                continue
            every = False
            if ev.kind != V.ARRAY:
                every_array = False
            if key is not None and (ev.kind == V.NPARRAY or (
                    ev.kind == V.STATIC and ev.shape is not None and type(node) is cst.Call
                    and (self.qualname(node.func) or "").startswith("numpy."))):
                held.append((f"[{key}]", Value(kind=V.NPARRAY)))
            elif key is not None and ev.kind == V.ARRAY:
                # `{"obs": jnp.zeros((n, d))}`: a JAX array, immutable (`d["obs"][i] = o`),
                # of the shape the model knows (`d["obs"][n]` is out of bounds)
                held.append((f"[{key}]", Value(kind=V.ARRAY, shape=ev.shape, int_range=ev.int_range)))
            elif key is not None and ev.kind in (V.TUPLE, V.LIST) and type(node) in (cst.Tuple, cst.List) \
                    and ev.elements and all(el.kind == V.ARRAY and not el.traced for el in ev.elements):
                # `{"kv": (k, v)}`, `{"k": [jnp.zeros(4)]}` of JAX arrays: `d["kv"][0]` is one
                # (a list's item only where the file writes none of it: `_entry_item`)
                held.append((f"[{key}]", Value(kind=ev.kind, elements=tuple(
                    Value(kind=V.ARRAY, shape=el.shape) for el in ev.elements))))
        if every:
            item = _joined(traced_values)
        elif every_array:
            item = Value(kind=V.ARRAY)  # every value a concrete JAX array
        else:
            item = None
        return Value(kind=V.LIST, fields=tuple(held) or None, item=item, pytype="dict")

    def _collective_result(self, q: str, arg: Value, traced_ctx: bool, deps: frozenset) -> Value:
        """``lax.pmean((loss, metrics, grads), axis)`` has the structure of its
        argument: a tuple stays a tuple, a dict a dict; ``lax.psum(1, axis)`` of
        a Python number is a Python number (the axis size)."""
        if arg.kind == V.STATIC:
            if q in apis.COLLECTIVES_STATIC_FOR_STATIC:
                return V.STATIC_VALUE
            return Value(kind=V.ARRAY, traced=traced_ctx, deps=deps | JAX_COMPUTED if traced_ctx else deps)
        if arg.kind == V.TUPLE and arg.elements is not None:
            return Value(kind=V.TUPLE, elements=tuple(self._collective_result(q, el, traced_ctx, el.deps) for el in arg.elements))
        if arg.kind == V.LIST:
            return Value(kind=V.LIST, traced=traced_ctx, deps=deps)  # a dict/list of arrays
        if arg.kind == V.ARRAYS:
            return arg
        kind = V.ARRAY if arg.kind in (V.ARRAY, V.NPARRAY) else V.UNKNOWN
        return Value(kind=kind, traced=traced_ctx or arg.traced, deps=deps | JAX_COMPUTED if traced_ctx else deps)

    def _makes_mask(self, q: str, call: cst.Call, arg_vals: list[Value]) -> bool:
        """Is the array the jax call ``q`` builds a mask: given a bool dtype (``dtype=bool``,
        ``jnp.zeros(n, jnp.bool_)``, ``lax.convert_element_type(x, bool)``), filled with a
        literal bool (``jnp.full(n, True)``, ``jnp.array([True, False])``) or keeping the
        dtype of a mask (``jnp.invert(m)``, ``jnp.zeros_like(m)``) (jax 0.10.2: each indexes
        as a boolean mask)?"""
        d = keyword_arg(call, "dtype")
        pos = positional_args(call)
        at = apis.DTYPE_POSITION.get(q)
        dtype = d.value if d is not None else (pos[at].value if at is not None and at < len(pos) else None)
        if dtype is not None:
            return self._bool_dtype(dtype)
        if not pos or pos[0].star:
            return False
        first = pos[0].value
        if q == "jax.numpy.full" and len(pos) > 1:
            first = pos[1].value
        elif q in ("jax.numpy.array", "jax.numpy.asarray") and type(first) in (cst.List, cst.Tuple):
            els = [el.value for el in first.elements if not isinstance(el, cst.StarredElement)]
            return bool(els) and len(els) == len(first.elements) and all(
                type(el) is cst.Name and el.value in ("True", "False") for el in els)
        if q == "jax.numpy.full":
            return type(first) is cst.Name and first.value in ("True", "False")
        return q in apis.BOOL_KEEPING_FUNCS and arg_vals[0].dtype_hint == "bool"

    def _bool_dtype(self, d: cst.BaseExpression) -> bool:
        """``bool``, ``jnp.bool_``, ``np.bool_``, ``"bool"``."""
        if self.builtin_name(d) == "bool" or string_value(d) == "bool":
            return True
        return self.qualname(d) in ("jax.numpy.bool_", "numpy.bool_", "jax.numpy.bool", "numpy.bool")

    def _is_bool_dtype(self, call: cst.Call) -> bool:
        """``.astype(bool)`` / ``.astype(jnp.bool_)`` / ``.astype("bool")``."""
        pos = positional_args(call)
        if not pos:
            return False
        return self._bool_dtype(pos[0].value)

    def _wide_dtype(self, call: cst.Call) -> Optional[str]:
        """The 64-bit dtype a NumPy constructor's ``dtype=`` asks for: spelled there
        (``np.float64``, ``jnp.float64``, ``"float64"``), or a loop variable of this
        function, bound by nothing else, over a list or tuple display that holds one
        (``for dtype in [jnp.float32, jnp.float64]:``: the array is 64-bit on that pass)."""
        arg = keyword_arg(call, "dtype")
        if arg is None:
            return None
        d = arg.value
        spelled = self._spelled_wide(d)
        if spelled is not None or not isinstance(d, cst.Name):
            return spelled
        unit = getattr(self, "unit", None)
        if unit is None or d.value in unit.bindings or unit.param(d.value) is not None:
            return None
        iters = unit.loop_iters.get(d.value)
        if not iters or len(iters) != 1 or not isinstance(iters[0], (cst.List, cst.Tuple)):
            return None
        for el in iters[0].elements:
            if isinstance(el, cst.Element):
                spelled = self._spelled_wide(el.value)
                if spelled is not None:
                    return spelled
        return None

    def _spelled_wide(self, d: cst.BaseExpression) -> Optional[str]:
        s = d.evaluated_value if isinstance(d, cst.SimpleString) else None
        if isinstance(s, str):
            return s if s in apis.X64_DTYPE_STRINGS else None
        if type(d) is cst.Attribute:
            head, _, attr = (self.qualname(d) or "").rpartition(".")
            if head in ("numpy", "jax.numpy") and attr in apis.X64_DTYPE_ATTRS:
                return attr
        return None

    def _eval_call(self, e: cst.Call) -> Value:
        func = e.func
        traced_ctx = self.in_traced
        arg_vals = [self.value(a.value) for a in e.args]
        any_traced = any(v.traced for v in arg_vals)
        deps = frozenset().union(*(v.deps for v in arg_vals)) if arg_vals else frozenset()
        written = dotted_name(func) if type(func) in (cst.Name, cst.Attribute) else None
        head = self.lookup(written.split(".", 1)[0]) if written is not None else None
        if written == "dict" and e.args and all(a.keyword is not None and not a.star for a in e.args) \
                and self.builtin_name(func) == "dict":
            # `dict(w=jnp.zeros(3), b=...)`: the dict display `{"w": ..., "b": ...}`
            return self._dict_display([(a.keyword.value, a.value) for a in e.args])  # type: ignore[union-attr]
        if written is not None and (head is None or head == V.UNKNOWN_VALUE):
            fields = self._dataclass_fields(written, e)
            cls = self.index.pytree_class(written)
            if fields is None and cls is not None and cls.flat.get("reg") == "namedtuple" \
                    and instances.local_class(self, written.split(".", 1)[0]) is None:
                # `State(w=jnp.zeros(3))` of a NamedTuple of another module (its class record;
                # by keyword: the record does not keep the fields' order), none assignable
                # (`s.w` stays what the call gave)
                names = [n for n, how in cls.flat.get("fields", {}).items() if how != pytrees.CONST]
                fields = kinds.instance_fields(names, e, self.value) \
                    if names and all(a.keyword is not None for a in e.args) else None
            if cls is not None:
                return Value(cls=cls, fields=fields)  # an instance of a pytree class the model reads
            if fields is not None:
                return Value(fields=fields)
            if any(v.traced for v in arg_vals) or (self.unit.traced_star_kw and any(a.star == "**" for a in e.args)):
                stored = self._stored_fields(written, e, arg_vals)
                if stored is not None:
                    return Value(fields=stored)  # `t = Term(Q=q)`: `t.Q` is the tracer `q`
        if traced_ctx and any_traced and not self.eager and _library_layer_call(self, func):
            # `hk.nets.MLP([4, 1])(x)`, `nn.Dense(3).apply(variables, x)`: a layer of a
            # neural-network library applied to a tracer computes an array with JAX
            return Value(kind=V.ARRAY, traced=True, deps=deps | JAX_COMPUTED)
        if traced_ctx and any_traced and not self.eager and not any(
                a.keyword is not None and a.keyword.value == "method" for a in e.args) \
                and _traced_computation(self, func, written, head):
            # `state.apply_fn(v, x)` of a flax TrainState, `model.apply(params, rng, x)` of a
            # haiku transform, a jit of another module: JAX computes it on the tracer
            return Value(kind=V.UNKNOWN, traced=True, deps=deps | JAX_COMPUTED)
        if type(func) is cst.Attribute and head is not None:
            made = namespaces.built(self.value(func.value), func.attr.value)
            if made is not None:
                return made  # `xp.zeros(n)` of `xp = array_namespace(x)`: jax.numpy or NumPy
        q = self.qualname(func)
        # a name of another module of the project, imported absolutely or relatively
        # (`from .helpers import make`: no qualified name, but the facts name it)
        project_name = q is not None or (written is not None and written.split(".", 1)[0] in self.imports.relative)
        if project_name and written in self.index.imported_returns and head is None \
                and not self.index.imported_returns[written].startswith(("dispatched:", kinds.COUNTER, kinds.DISPLAYS)):  # JAX505's, JAX504's, JAX207's
            # a helper of another module of the project whose every return has one kind
            # (or hands back what it was given)
            returned = self.index.imported_returns[written]
            known = self.index.imported_values.get(written)
            if known is not None and (known.get("namespace") or known.get("array") == "mix"):
                return self._known_return(known, e, traced_ctx, deps)  # type: ignore[return-value]
            if returned.startswith(kinds.PASS):
                given = kinds.passed_back(returned, e, self._given)
                if given is not None:
                    return given
            r = self._returned(returned, e, traced_ctx, deps)
            known = self.index.imported_values.get(written)
            if known is not None and "shape" in known and r.kind in (V.ARRAY, V.NPARRAY):
                r = replace_value(r, shape=tuple(known["shape"]))  # `make_grid()` of known shape
            if returned == kinds.DISPLAY + "list" and r.kind == V.UNKNOWN and not r.traced:
                # every return a list display or comprehension (`return [total / c for c in counts]`),
                # also of a module that never names JAX: a Python list
                r = replace_value(r, pytype="list")
            if known is not None and r.kind == V.UNKNOWN and r.pytype is None and not r.traced \
                    and known.get("pytype") in SEQUENCE_TYPES:
                r = replace_value(r, pytype=known["pytype"])  # `class_weights(counts)` of another module: a list
            if known is not None and r.kind == V.UNKNOWN and not r.traced and r.pytype is None:
                r = self._known_return(known, e, traced_ctx, deps) or r
            return r
        if project_name and written is not None and head is None and self.index.imported_values:
            known = self.index.imported_values.get(written)
            if known is not None and "int" in known:
                return Value(kind=V.STATIC, const=known["int"])  # `num_steps()` of another module
            if known is not None and known.get("pytype") in SEQUENCE_TYPES:
                return Value(pytype=known["pytype"])  # `all_leaves(t)` of another module: a list
            held = self._known_return(known, e, traced_ctx, deps) if known is not None else None
            if held is not None:
                return held
            if known is not None and "tuple" in known:
                # `w, b = init_params(key, n)` of another module: a tuple of arrays
                return Value(kind=V.TUPLE, elements=tuple(
                    replace_value(self._returned(k, e, traced_ctx, deps), shape=tuple(sh)) if sh is not None
                    else self._returned(k, e, traced_ctx, deps) for k, sh in known["tuple"]))
        if q is not None:
            if q in _TREE_MAPS and not traced_ctx:
                mapped = self._mapped_dict(e)
                if mapped is not None:
                    return mapped  # `jax.tree.map(jnp.zeros_like, params)`: a dict of JAX arrays
            if q in apis.PARTIALS:
                return Value(kind=V.FUNCTION)
            t = apis.transform_for(q)
            if t is not None:
                return Value(kind=V.FUNCTION, transform=q)
            if q.startswith("jax.random."):
                short = q.rsplit(".", 1)[1]
                if short in ("PRNGKey", "key", "wrap_key_data", "clone", "fold_in"):
                    return Value(kind=V.KEY, key=KeyToken(e, len(self.loop_stack), short), traced=traced_ctx and (any_traced or short != "PRNGKey"), deps=deps)
                if short == "split":
                    return Value(kind=V.KEYS, traced=traced_ctx, deps=deps)
                if short in ("key_data", "key_impl"):
                    return Value(kind=V.ARRAY, traced=traced_ctx and any_traced, deps=deps)
            if q in apis.STATIC_RESULT_FUNCS:
                return V.STATIC_VALUE
            if q in apis.TREE_LEAVES and arg_vals and arg_vals[0].traced and not self.eager \
                    and arg_vals[0].deps - JAX_COMPUTED and len(e.args) == 1 and e.args[0].keyword is None:
                # `jax.tree_util.tree_leaves(params)` of a traced argument: every leaf is a tracer
                item = Value(kind=V.ARRAY, traced=True, deps=arg_vals[0].deps)
                return Value(kind=V.ARRAYS, item=item, pytype="list")
            if q in apis.TREE_LEAVES:
                return Value(pytype="list")  # a Python list, whatever its leaves are
            if q in apis.TREE_FLATTEN:
                # `leaves, treedef = jax.tree_util.tree_flatten(t)`: a list, and the structure
                return Value(kind=V.TUPLE, elements=(Value(pytype="list"), V.UNKNOWN_VALUE))
            if q.rsplit(".", 1)[-1].startswith("_"):
                return V.UNKNOWN_VALUE  # private helpers (jax internals) return anything
            if q in apis.COLLECTIVES:
                pos = positional_args(e)
                if pos:
                    return self._collective_result(q, self.value(pos[0].value), traced_ctx, deps)
            n_pos = len(positional_args(e))
            if self.eager:
                traced_ctx = False  # under vmap alone, only the batched values are tracers
            if q in apis.ARRAY_SEQUENCE_FUNCS or (q in apis.ARRAY_SEQUENCE_IF_MANY and n_pos > 1) or (
                q in apis.ARRAY_SEQUENCE_IF_ONE and n_pos == 1 and len(e.args) == 1
            ):
                item = Value(kind=V.ARRAY, traced=traced_ctx or any_traced, deps=deps | JAX_COMPUTED if traced_ctx else deps)
                pieces = shape_flow.split_shapes(self, q, e, arg_vals[0].shape) if arg_vals else None
                if pieces is not None:
                    return Value(kind=V.ARRAYS, item=item, elements=tuple(replace_value(item, shape=p) for p in pieces))
                return Value(kind=V.ARRAYS, item=item)
            if q in apis.SAMPLE_SITES and traced_ctx and _sample_site_draws(e):
                # `z = numpyro.sample("z", dist.Normal(0, 1))` in a model numpyro's inference
                # traces (model/slots.py): a value drawn under the trace, a tracer (with
                # `obs=y` the site returns the observation as it is given)
                return Value(kind=V.ARRAY, traced=True, deps=deps | JAX_COMPUTED)
            if q.startswith(apis.ARRAY_MODULES) or q.startswith("jax.numpy"):
                hint = "bool" if q in apis.BOOL_RESULT_FUNCS or self._makes_mask(q, e, arg_vals) else None
                shape, floaty = constructor_facts(self, q, e)
                if shape is None and arg_vals and not e.args[0].star:
                    shape = (shape_flow.stacked_shape(q, e, arg_vals[0]) or shape_flow.reshape_call_shape(self, q, e, arg_vals[0])
                             or shape_flow.kept_shape(q, e, arg_vals))
                if traced_ctx:
                    deps = deps | JAX_COMPUTED  # a tracer whatever its inputs are
                rng = int_range(self, q, e) if shape is not None else None
                if q == "jax.numpy.power" and len(arg_vals) == 2 and len(e.args) == 2 \
                        and not any(a.keyword is not None or a.star for a in e.args):
                    rng = shape_flow.power_range(arg_vals[0], arg_vals[1])  # `jnp.power(256, jnp.arange(1, 5))`
                return Value(kind=V.ARRAY, traced=traced_ctx or any_traced, deps=deps, local_array=True, dtype_hint=hint or floaty, shape=shape,
                             int_range=rng)
            if q.startswith("numpy.") or q == "numpy":
                if arg_vals and arg_vals[0].traced and not e.args[0].star and e.args[0].keyword is None \
                        and arg_vals[0].deps - JAX_COMPUTED and q[len("numpy."):] in apis.NUMPY_FORWARDING:
                    # `np.sum(x)` is `x.sum()`: a tracer in, a tracer out (one that depends on a
                    # traced argument: a JAX computation of other values alone may be a branch
                    # that traced calls never take, as far as the model knows)
                    return Value(kind=V.ARRAY, traced=True, deps=arg_vals[0].deps | deps)
                if all(v.kind == V.STATIC for v in arg_vals):
                    shape = constructor_facts(self, "jax.numpy" + q[len("numpy"):], e)[0] if q.count(".") == 1 else None
                    if shape is None and arg_vals and not e.args[0].star:
                        shape = shape_flow.kept_shape(q, e, arg_vals)  # `np.asarray(c)` of a known shape
                    # a NumPy array of literal data: a concrete value, whose shape is known
                    wide = self._wide_dtype(e)  # `np.ones(3, dtype=np.float64)`: 64-bit host data
                    # (``pytype``: a NumPy constructor's result is an ndarray, wherever it goes:
                    # returned, in a tuple or list, under another name)
                    host = "ndarray" if host_array_expr(self.index, self.unit, e, self.qualname) else None
                    if shape is None and wide is None and host is None:
                        return V.STATIC_VALUE
                    return Value(kind=V.STATIC, shape=shape, int_range=int_range(self, q, e) if shape is not None else None,
                                 dtype_hint=wide, pytype=host)
                # `np.array([1, 2])`, `np.zeros((4, 3))`: a host array whose shape the literal gives
                shape = constructor_facts(self, "jax.numpy" + q[len("numpy"):], e)[0] if q.count(".") == 1 else None
                if shape is None and arg_vals and not e.args[0].star:
                    shape = shape_flow.kept_shape(q, e, arg_vals)  # `np.asarray(jnp.arange(10))`
                return Value(kind=V.NPARRAY, shape=shape, dtype_hint=self._wide_dtype(e))
            if q.startswith("math."):
                return V.STATIC_VALUE if not any_traced else Value(traced=True, deps=deps)
            if q == "jax.device_get":
                # host values (NumPy arrays, a pytree of them): mutable, not JAX arrays
                return V.UNKNOWN_VALUE
            if q.startswith("jax.") and q.rsplit(".", 1)[1] in ("device_put", "block_until_ready"):
                # device_put: the argument's pytree, its leaves on the device: an array of an
                # array, a NumPy array or a scalar; a dict of a dict (`jax.device_put(
                # state.to_pure_dict(), cpu)`: host data, a batch, parameters); what
                # block_until_ready waits on is taken for the array a computation returned
                given = arg_vals[0] if arg_vals and not e.args[0].star and e.args[0].keyword is None else None
                if q.endswith("device_put") and given is not None and given.kind not in (V.ARRAY, V.NPARRAY, V.STATIC):
                    return Value(traced=traced_ctx and any_traced, deps=deps)
                shape = shape_flow.kept_shape(q, e, arg_vals) if given is not None else None
                return Value(kind=V.ARRAY, traced=traced_ctx and any_traced, deps=deps, shape=shape)
            return V.UNKNOWN_VALUE
        if isinstance(func, cst.Name):
            name = func.value
            local = self.lookup(name)
            if local is None:
                if name in ("len", "int") and len(e.args) == 1 and not e.args[0].star and e.args[0].keyword is None:
                    n = shape_flow.length(arg_vals[0]) if name == "len" else arg_vals[0].const
                    if type(n) is int:
                        return Value(kind=V.STATIC, const=n)  # `len(layers)` of a tuple, `int(n)`
                if name == "getattr" and len(e.args) >= 2 and not any(a.star or a.keyword for a in e.args[:2]) \
                        and self.qualname(e.args[0].value) == "jax.random":
                    # `jax_op = getattr(jax.random, op.name)`: a function of jax.random, named
                    # by the literal when there is one, else one whose key argument it consumes
                    attr = string_value(e.args[1].value)
                    return Value(kind=V.FUNCTION, qualname=f"jax.random.{attr if attr else apis.RANDOM_BY_NAME}")
                if name in _BUILTIN_STATIC or name in ("int", "float", "bool", "complex"):
                    return V.STATIC_VALUE
                if name == "range":
                    return V.STATIC_VALUE
                if name in ("iter", "map", "filter", "reversed"):
                    return Value(kind=V.ITERATOR)
                if name in ("enumerate", "zip"):
                    return Value(kind=V.ITERATOR)
                if name in ("list", "tuple"):
                    # (``pytype``: a Python list or tuple, which `jax.numpy` functions refuse)
                    if len(arg_vals) == 1 and arg_vals[0].kind in (V.LIST, V.ITERATOR) and arg_vals[0].item is not None \
                            and arg_vals[0].pytype != "dict":  # (`list(d)` of a dict: its keys)
                        return Value(kind=V.LIST, item=arg_vals[0].item, pytype=name)  # `list(f(x) for x in xs)`
                    # `list(x)` of an array: its rows, tracers; of a value of unknown kind
                    # (a dict of parameters: its keys), not shown to hold one
                    return Value(kind=V.LIST, traced=any(v.traced and v.kind == V.ARRAY for v in arg_vals),
                                 deps=deps, pytype=name)
                if name in ("abs", "max", "min", "sum", "round", "pow", "divmod"):
                    if any_traced:
                        return Value(kind=V.ARRAY, traced=True, deps=deps)
                    if name in ("max", "min", "sum") and arg_vals and arg_vals[0].kind in (V.LIST, V.ITERATOR) \
                            and arg_vals[0].item is not None and arg_vals[0].item.traced \
                            and arg_vals[0].item.kind == V.ARRAY and arg_vals[0].pytype != "dict":
                        # `sum(jnp.add(1, 1) for _ in range(n))` in traced code: Python adds the
                        # tracers, and the total is one
                        return Value(kind=V.ARRAY, traced=True, deps=deps | arg_vals[0].item.deps)
                    if all(v.kind == V.STATIC for v in arg_vals):
                        return V.STATIC_VALUE
                return V.UNKNOWN_VALUE
            if local.unit is not None and local.unit.is_generator:
                return Value(kind=V.ITERATOR)
            if local.unit is not None and local.unit.jit_root and traced_ctx:
                # a jitted function called from traced code returns tracers
                # (a pytree of them: the kind stays unknown)
                return Value(kind=V.UNKNOWN, traced=True, deps=deps | JAX_COMPUTED)
            if (traced_ctx or self.concrete) and any_traced and local.unit is not None and \
                    self._returns_array(local.unit, e, arg_vals, concrete=not traced_ctx):
                # a helper of this file that hands back a JAX computation of what it was given
                return self._with_body(Value(kind=V.ARRAY, traced=True, deps=deps | JAX_COMPUTED), local.unit, e, arg_vals)
            if local.unit is not None and local.kind == V.FUNCTION and type(local.unit.node) is cst.FunctionDef \
                    and not local.unit.node.decorators:
                held = returns.global_key_return(self.index, local.unit, self.qualname)
                if held is not None:
                    token = self.key_token(cst.Name(held))  # the module-level key itself
                    if token is not None:
                        return Value(kind=V.KEY, key=token)  # `get_key()`: the same `_KEY` each call
            if local.unit is not None and local.kind == V.FUNCTION:
                given = self._passed_back(local.unit, e)
                if given is not None:
                    return given  # `k2 = same_key(key)`: the argument itself
                eager = not any_traced and bool(local.unit.returns) and all(
                    id(r) in local.unit.eager_returns for r in local.unit.returns)
                # `with jax.ensure_compile_time_eval(): return jnp.allclose(phi(0.0), 0.0)`:
                # of values that are not tracers, a concrete array even in traced code
                return self._with_body(self._returned(self.return_kind(local.unit), e, traced_ctx and not eager, deps),
                                       local.unit, e, arg_vals)
            return V.UNKNOWN_VALUE
        if isinstance(func, cst.Attribute):
            base = self.value(func.value)
            m = func.attr.value
            if traced_ctx and not self.eager and type(func.value) is cst.Name and func.value.value == "self" \
                    and self.unit.cls is not None and m not in self.unit.cls.methods \
                    and self.unit.params and self.unit.params[0].name == "self" \
                    and self._held_jit(self.unit.cls, m):
                # `self._sgd_step(state, batch)` with `self._sgd_step` a jitted function the
                # constructor stored: called in traced code, it returns tracers (a pytree of them)
                return Value(kind=V.UNKNOWN, traced=True, deps=deps | JAX_COMPUTED)
            if traced_ctx and not self.eager and any_traced and type(func.value) is cst.Name \
                    and func.value.value == "self" and self.unit.cls is not None and m not in self.unit.cls.methods \
                    and self.unit.params and self.unit.params[0].name == "self" \
                    and self._held_layer(self.unit.cls, m):
                # `self.lin(x)` with `self.lin = eqx.nn.Linear(...)` (`nnx.Linear`, `nn.Dense`)
                # stored once by the constructor: the layer applied to a tracer gives a tracer
                return Value(kind=V.UNKNOWN, traced=True, deps=deps | JAX_COMPUTED)
            if (traced_ctx or self.concrete) and any_traced and type(func.value) is cst.Name \
                    and func.value.value == "self" and self.unit.cls is not None and self.unit.params \
                    and self.unit.params[0].name == "self":
                method = self.unit.cls.methods.get(m)
                if method is not None and self._returns_array(method, e, arg_vals, n_bound=bound_receiver(method),
                                                              concrete=not traced_ctx):
                    # `self.predict(w, x)`: a method that hands back a JAX computation of its tracers
                    return Value(kind=V.ARRAY, traced=True, deps=deps | JAX_COMPUTED)
            if type(func.value) is cst.Name and func.value.value == "self" and self.unit.cls is not None \
                    and self.unit.params and self.unit.params[0].name == "self":
                method = self.unit.cls.methods.get(m)
                if method is not None and not method.cls.is_jax_module:
                    given = self._passed_back(method, e, n_bound=bound_receiver(method))
                    if given is not None:
                        return given  # `x, key = self.sample(key)`: the argument itself
            if type(func.value) is cst.Name and func.value.value == "self" and self.unit.cls is not None \
                    and not self.unit.cls.is_jax_module and self.unit.params and self.unit.params[0].name == "self" \
                    and not base.traced:
                method = self.unit.cls.methods.get(m)
                if method is not None and bound_receiver(method) == 1:
                    # `pos, vel = self.state(x)`: what the method's body returns for this call
                    body = returns.returned_value(self, method, e, arg_vals, n_bound=1)
                    if body is not None and body.kind in (V.TUPLE, V.ARRAYS, V.ARRAY, V.NPARRAY):
                        return merged(V.UNKNOWN_VALUE, body)
            if traced_ctx and not self.eager and type(func.value) is cst.Name and func.value.value == "self" \
                    and self.unit.cls is not None and self.unit.params and self.unit.params[0].name == "self":
                method = self.unit.cls.methods.get(m)
                if method is not None and self.method_return_kind(method) == V.ARRAY:
                    # `self._predict(obs)` in traced code: a method whose every return is a
                    # jax.numpy computation hands back a tracer, whatever it is given
                    return self._returned(V.ARRAY, e, traced_ctx, deps)
            if base.instance is not None and base.kind == V.UNKNOWN and not base.traced:
                held = self._instance_method_return(base.instance, m, e, arg_vals, traced_ctx, deps)
                if held is not None:
                    return held  # `Maker().make(t)`: what the method returns
            if base.kind == V.AT_INDEX:
                # `x.at[i].set(v)`: an array of `x`'s shape (`.get()`: unknown)
                return Value(kind=V.ARRAY, traced=base.traced or any_traced, deps=base.deps | deps,
                             shape=base.shape if m in _AT_KEEPS_SHAPE else None,
                             # `mask.at[i].set(True)`: still a mask
                             dtype_hint=base.dtype_hint if m in ("set", "min", "max") else None)
            if base.kind == V.KEY and m in ("astype",):
                return base
            if m in apis.CONCRETIZING_METHODS:
                return V.STATIC_VALUE
            if base.kind == V.ARRAY:
                hint = "bool" if m == "astype" and self._is_bool_dtype(e) else None
                if m in ("any", "all"):
                    hint = "bool"  # `m.any(axis=1)`: a mask
                elif m in ("reshape", "ravel", "flatten", "squeeze", "transpose", "copy", "T") \
                        and base.dtype_hint == "bool":
                    hint = "bool"  # `mask.reshape(-1)`: still a mask
                if not base.traced and not any_traced and m in apis.ARRAY_METHODS and self._staged(base):
                    deps = deps | JAX_COMPUTED  # `SIZES.sum()` of a concrete JAX array under jit: staged
                    any_traced = traced_ctx = True
                return Value(kind=V.ARRAY, traced=base.traced or (traced_ctx and any_traced), deps=base.deps | deps, dtype_hint=hint,
                             shape=shape_flow.method_shape(self, base.shape, m, e))
            if base.traced and m in apis.ARRAY_METHODS:
                # (`y.astype(bool)` of a traced argument: a traced mask)
                hint = "bool" if (m == "astype" and self._is_bool_dtype(e)) or (
                    m in ("any", "all") and keyword_arg(e, "axis") is not None) else None
                return Value(kind=V.ARRAY, traced=True, deps=base.deps | deps, dtype_hint=hint)
            if base.kind == V.FUNCTION and base.transform is not None:
                return V.UNKNOWN_VALUE
            return V.UNKNOWN_VALUE
        if isinstance(func, cst.Call):
            inner = self.value(func)
            if inner.kind == V.FUNCTION and inner.transform is not None:
                pos = positional_args(e)
                tree = gradient_tree(inner.transform, func, self.value(pos[0].value), traced_ctx and not self.eager) \
                    if pos and not pos[0].star else None
                if tree is not None:
                    return tree  # `grads = jax.grad(loss)(params, x)`: `grads["w"]` is an array
                if traced_ctx and not self.eager and differentiates(inner.transform, func):
                    # grad/value_and_grad under jit: the value and gradients are JAX's
                    # computation, tracers whatever the inputs (model/transformed.py)
                    return Value(kind=V.UNKNOWN, traced=True, deps=deps | JAX_COMPUTED)
                # jax.jit(f)(x) returns whatever f returns: often a pytree
                return Value(kind=V.UNKNOWN, traced=traced_ctx and any_traced, deps=deps)
            if any_traced:
                layer = self.qualname(func.func)
                if layer is not None and layer.startswith(_LAYER_MODULES) and layer.rsplit(".", 1)[1][:1].isupper():
                    # nn.Dense(4)(x), hk.Linear(8)(x) on a tracer: the layer's output is a tracer
                    return Value(kind=V.UNKNOWN, traced=True, deps=deps | JAX_COMPUTED)
        return V.UNKNOWN_VALUE

    def _held_layer(self, cls, attr: str) -> bool:
        """Does ``cls`` set ``self.<attr>`` once, in ``__init__``/``setup``, to a layer of a
        neural-network library built there (``self.lin = eqx.nn.Linear(4, 16, key=k1)``)?"""
        writes = [(meth, w) for meth in cls.methods.values() if isinstance(meth.node, cst.FunctionDef)
                  for w in attribute_writes(meth.node, f"self.{attr}")]
        return len(writes) == 1 and writes[0][0].name in ("__init__", "setup") and type(writes[0][1]) is cst.Assign \
            and type(writes[0][1].value) is cst.Call and _library_layer_call(self, writes[0][1].value)

    def _held_jit(self, cls, attr: str) -> bool:
        """Does ``cls`` set ``self.<attr>`` once, in ``__init__``/``setup``, to a jitted
        function: a function that method defines under a jit decorator (``@jax.jit def
        sgd_step``), or ``jax.jit(...)`` itself?"""
        memo = self._held_jits.get(id(cls))
        if memo is None:
            memo = self._held_jits[id(cls)] = {}
        if attr in memo:
            return memo[attr]
        found = False
        writes = [(meth, w) for meth in cls.methods.values() if isinstance(meth.node, cst.FunctionDef)
                  for w in attribute_writes(meth.node, f"self.{attr}")]
        if len(writes) == 1 and writes[0][0].name in ("__init__", "setup") and type(writes[0][1]) is cst.Assign:
            meth, w = writes[0]
            value = w.value
            if type(value) is cst.Call:
                t = apis.transform_for(self.qualname(value.func))
                found = t is not None and t.wrapper and not t.filtered
            elif type(value) is cst.Name:
                made = [u for u in self.index.units if u.parent is meth and u.name == value.value
                        and isinstance(u.node, cst.FunctionDef)]
                found = len(made) == 1 and made[0].jit_root and value.value not in meth.assigned
        memo[attr] = found
        return found

    def _with_body(self, r: Value, unit: Unit, call: cst.Call, arg_vals: list[Value], n_bound: int = 0) -> Value:
        """``r``, the value of a call of ``unit`` (a function of this file) as its
        return kind gives it, with what its body tells for this call (model/returns.py):
        the static shape of the array it returns, the integer, the tuple of them."""
        body = returns.returned_value(self, unit, call, arg_vals, n_bound)
        if body is None:
            return r
        return merged(r, body)

    def iteration_count(self, it: cst.BaseExpression, depth: int = 0) -> Optional[int]:
        """How many times ``for _ in it`` runs, where the model knows it: ``range`` of
        known integers, an array of known shape (its rows), a tuple, a list built by a
        comprehension of known length; ``enumerate``/``reversed`` of one, ``zip`` of
        such (the shortest).  None when unknown."""
        if depth > 4:
            return None
        if type(it) is cst.Call and type(it.func) is cst.Name and self.lookup(it.func.value) is None \
                and it.func.value in ("range", "enumerate", "reversed", "zip") \
                and not any(a.star or a.keyword is not None for a in it.args) and it.args:
            name = it.func.value
            if name == "range":
                if len(it.args) > 3:
                    return None
                bounds = [self.value(a.value).const for a in it.args]
                if not all(type(b) is int for b in bounds) or (len(bounds) == 3 and bounds[2] == 0):
                    return None
                return len(range(*bounds))  # type: ignore[arg-type]
            counts = [self.iteration_count(a.value, depth + 1) for a in it.args]
            if name != "zip" and len(counts) != 1:
                return None
            if any(c is None for c in counts):
                return None
            return min(counts)  # type: ignore[type-var]
        v = self.value(it)
        if v.kind == V.STATIC and v.const is None and v.shape is None:
            return None
        return shape_flow.length(v)

    def _range_item(self, call: cst.Call) -> Value:
        """The loop variable of ``for i in range(a, b, s)`` of known integers: a Python
        integer from its first to its last value (``int_range``)."""
        if not 1 <= len(call.args) <= 3 or any(a.star or a.keyword is not None for a in call.args):
            return V.STATIC_VALUE
        bounds = [self.value(a.value).const for a in call.args]
        if not all(type(b) is int for b in bounds) or (len(bounds) == 3 and bounds[2] == 0):
            return V.STATIC_VALUE
        r = range(*bounds)  # type: ignore[arg-type]
        if not r:
            return V.STATIC_VALUE
        return Value(kind=V.STATIC, int_range=(min(r[0], r[-1]), max(r[0], r[-1])))

    def _comprehension_length(self, e: cst.ListComp) -> Optional[int]:
        """How many elements ``[f(i) for i in range(n)]`` has: each ``for`` over a
        ``range`` of known integers, a tuple or an array of known length, no ``if``."""
        total = 1
        f = e.for_in
        while f is not None:
            if f.ifs:
                return None
            it = f.iter
            n = None
            if type(it) is cst.Call and type(it.func) is cst.Name and it.func.value == "range" \
                    and self.lookup("range") is None and 1 <= len(it.args) <= 3 \
                    and not any(a.star or a.keyword is not None for a in it.args):
                bounds = [self.value(a.value).const for a in it.args]
                if all(type(b) is int for b in bounds):
                    n = len(range(*bounds))  # type: ignore[arg-type]
            else:
                v = self.value(it)
                n = shape_flow.length(v) if v.kind != V.LIST else None
            if n is None:
                return None
            total *= n
            f = f.inner_for_in
        return total

    def _element_of(self, iterable: cst.BaseExpression, target: cst.CSTNode) -> Value:
        """The value of one element when iterating ``iterable``."""
        if isinstance(iterable, cst.Call):
            fq = self.qualname(iterable.func)
            if isinstance(iterable.func, cst.Name) and fq is None:
                name = iterable.func.value
                if name == "range":
                    return self._range_item(iterable)
                if name == "enumerate":
                    pos = positional_args(iterable)
                    inner = self._element_of(pos[0].value, target) if pos else V.UNKNOWN_VALUE
                    return Value(kind=V.TUPLE, elements=(V.STATIC_VALUE, inner))
                if name == "zip":
                    pos = positional_args(iterable)
                    return Value(kind=V.TUPLE, elements=tuple(self._element_of(a.value, target) for a in pos))
        if type(iterable) is cst.Call and type(iterable.func) is cst.Attribute and not iterable.args \
                and iterable.func.attr.value in ("values", "items"):
            d = self.value(iterable.func.value)
            if d.kind == V.LIST and d.pytype == "dict" and d.item is not None:
                # `for v in d.values()` / `for k, v in d.items()` of a dict of tracers
                return d.item if iterable.func.attr.value == "values" else Value(
                    kind=V.TUPLE, elements=(V.UNKNOWN_VALUE, d.item))
        v = self.value(iterable)
        if v.kind == V.KEYS:
            return Value(kind=V.KEY, key=KeyToken(target, len(self.loop_stack), "element"))
        if v.kind == V.LIST and v.pytype != "dict" and v.item is not None and v.item.traced and not v.elements:
            return v.item  # `for h in [jnp.tanh(w) for w in ws]`: the comprehension's tracers
        if v.kind == V.ARRAYS and v.item is not None:
            return v.item
        if v.kind in (V.TUPLE, V.LIST) and v.elements:
            # `for r in (pos, vel)`: each element in turn
            out = v.elements[0]
            for el in v.elements[1:]:
                out = V.join(out, el)
            return replace_value(out, key=None) if out.key is not None else out
        if v.traced and v.kind == V.ARRAY:
            return Value(kind=V.ARRAY, traced=True, deps=v.deps)
        if v.kind == V.NPARRAY or (v.kind == V.STATIC and self.arg_value(iterable).kind == V.NPARRAY):
            return Value(kind=V.NPARRAY)  # the rows of a host NumPy array (`for x in np.indices(shape)`)
        # iterating a traced pytree of unknown kind: a dict gives its (string)
        # keys, a list its leaves; unsure, so not a tracer
        if v.kind == V.STATIC:
            return V.STATIC_VALUE
        return V.UNKNOWN_VALUE

    def _returns_array(self, unit: Unit, call: cst.Call, arg_vals: list[Value], n_bound: int = 0,
                       concrete: bool = False) -> bool:
        """Whether ``unit`` (a function of this file), called by ``call`` whose
        argument values are ``arg_vals``, surely returns an array computed by JAX:
        every ``return`` hands back a ``jnp``/``lax``/``jax.nn`` computation
        (not a shape or dtype), arithmetic on one, an array method of a parameter
        that receives a tracer here, or such a parameter itself (directly or
        through a local name assigned only such values).  Anything else (a
        tuple, a subscript, a shape, a Python value): unknown.  ``n_bound``: a method
        called on ``self`` (its first parameter bound).  ``concrete``: the caller is
        differentiated outside jit, where a JAX computation is a tracer only when it
        reads a tracer: every ``return`` must read a parameter given one."""
        if type(unit.node) is not cst.FunctionDef or unit.is_generator or (unit.cls is not None) != bool(n_bound):
            return False
        if not unit.returns or any(v is None for v in unit.returns):
            return False
        if any(a.star or a.keyword is not None for a in call.args):
            return False
        traced = {p.name for p, v in zip(unit.positional()[n_bound:], arg_vals) if v.traced}
        if not traced:
            return False
        assigned = self._local_values(unit)
        params = {p.name for p in unit.params}
        resolve = self.imports.resolve_expr

        def array(e: cst.BaseExpression, depth: int = 0) -> bool:
            if depth > 4:
                return False
            t = type(e)
            if t is cst.Name:
                if e.value in assigned:  # type: ignore[attr-defined]
                    values = assigned[e.value]  # type: ignore[attr-defined]
                    return all(v is not None and array(v, depth + 1) for v in values)
                return e.value in traced  # type: ignore[attr-defined]
            if t is cst.Call:
                func = e.func  # type: ignore[attr-defined]
                if type(func) is cst.Attribute and type(func.value) is cst.Name and func.value.value in traced \
                        and func.value.value not in assigned:
                    return func.attr.value in apis.ARRAY_METHODS
                d = dotted_name(func)
                if d is None or d.split(".", 1)[0] in assigned or d.split(".", 1)[0] in params:
                    return False
                q = resolve(func)
                return q is not None and q.startswith(apis.ARRAY_MODULES) and q not in apis.STATIC_RESULT_FUNCS
            if t is cst.BinaryOperation:
                return array(e.left, depth + 1) or array(e.right, depth + 1)  # type: ignore[attr-defined]
            if t is cst.UnaryOperation:
                return array(e.expression, depth + 1)  # type: ignore[attr-defined]
            return False

        def reads(e: cst.BaseExpression, depth: int = 0) -> bool:
            if depth > 4:
                return False
            for n in descendants(e):
                if type(n) is cst.Name:
                    if n.value in assigned:  # type: ignore[attr-defined]
                        if any(v is not None and reads(v, depth + 1) for v in assigned[n.value]):  # type: ignore[attr-defined]
                            return True
                    elif n.value in traced:  # type: ignore[attr-defined]
                        return True
            return False

        return all(array(v) and (not concrete or reads(v)) for v in unit.returns)

    def _local_values(self, unit: Unit) -> dict[str, list[Optional[cst.BaseExpression]]]:
        """name -> what ``unit``'s own body assigns to it (None for a binding that
        is not ``name = value``: a loop target, an unpacking, an augmented
        assignment...); read once per function."""
        memo = self._local_values_memo
        out = memo.get(id(unit))
        if out is not None:
            return out
        out = memo[id(unit)] = {}
        for n in descendants(unit.node.body):  # type: ignore[attr-defined]
            t = type(n)
            if t is cst.Assign:
                for tg in n.targets:  # type: ignore[attr-defined]
                    simple = type(tg.target) is cst.Name
                    for name in bound_names(tg.target):
                        out.setdefault(name.value, []).append(n.value if simple else None)  # type: ignore[attr-defined]
            elif t in (cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.NamedExpr):
                for name in bound_names(n.target):  # type: ignore[attr-defined]
                    out.setdefault(name.value, []).append(None)
            elif t is cst.AsName:
                for name in bound_names(n.name):  # type: ignore[attr-defined]
                    out.setdefault(name.value, []).append(None)
        return out


    # -- kinds of returns (model/kinds.py) ---------------------------------------------
    def return_kind(self, unit: Unit) -> str:
        """The kind every return of ``unit`` (a function of this file) hands back."""
        k = self._return_kinds.get(id(unit))
        if k is None:
            if unit.cls is not None or type(unit.node) is not cst.FunctionDef:
                k = V.UNKNOWN
            else:
                k = kinds.return_kind(unit, self._resolver(unit), self._local_values)
            self._return_kinds[id(unit)] = k
        return k

    def method_return_kind(self, unit: Unit) -> str:
        """The kind every return of a plain method of a class of this file hands back."""
        k = self._return_kinds.get(("method", id(unit)))
        if k is None:
            k = V.UNKNOWN
            if type(unit.node) is cst.FunctionDef and unit.cls is not None and not unit.cls.is_jax_module:
                k = kinds.return_kind(unit, self._resolver(unit), self._local_values)
            self._return_kinds[("method", id(unit))] = k
        return k

    def passthrough(self, unit: Unit) -> Optional[str]:
        """``kinds.passthrough`` of a function of this file (memoized)."""
        memo = ("pass", id(unit))
        if memo not in self._return_kinds:
            self._return_kinds[memo] = kinds.passthrough(unit)  # type: ignore[index]
        return self._return_kinds[memo]  # type: ignore[index]

    def _passed_back(self, unit: Unit, call: cst.Call, n_bound: int = 0) -> Optional[Value]:
        kind = self.passthrough(unit)
        return kinds.passed_back(kind, call, self._given, n_bound) if kind is not None else None

    def _given(self, arg: cst.CSTNode) -> Value:
        """The value of an argument a helper hands back, with the identity of the PRNG
        key it holds (a name's or an attribute chain's key gets one now)."""
        v = self.value(arg)
        if v.key is None and type(arg) in (cst.Name, cst.Attribute) and v.kind not in (V.STATIC, V.MODULE, V.FUNCTION):
            token = self.key_token(arg)
            if token is not None:
                v = v.with_key(token)
        return v

    def _resolver(self, unit: Unit):
        """Qualified names of calls in ``unit``'s body, by the imports alone (the body
        is not being walked): None for a name the body or its parameters bind."""
        assigned = unit.assigned
        params = {p.name for p in unit.params}
        resolve = self.imports.resolve_expr

        def qualname(func: cst.CSTNode) -> Optional[str]:
            d = dotted_name(func)
            if d is None:
                return None
            head = d.split(".", 1)[0]
            if head in assigned or head in params or self.module_env.get(head) is not None:
                return None
            q = resolve(func)
            return apis.canonical(q) if q is not None else None

        return qualname

    def _instance_attribute(self, ref: str, attr: str) -> Optional[Value]:
        """``obj.attr`` of an instance of a plain class of the project (``ref``): what its
        ``__init__`` set once (an array, a Python list), for a class of this file
        (model/returns.py ``attribute_value``) or of another module (its ``values`` fact),
        when this file writes ``.attr`` nowhere else.  None: unknown."""
        cls = instances.of_class(self, ref)
        if cls is not None:
            if cls.is_jax_module:
                return None
            held = returns.attribute_value(self, cls, attr)
            if held is None:
                return None
            if returns.is_list(held):
                return Value(pytype="list")
            return Value(kind=held.kind, shape=held.shape, const=held.const, int_range=held.int_range,
                         pytype=held.pytype)
        known = self.index.imported_values.get(ref) if not ref.startswith("@") else None
        rec = (known.get("attrs") or {}).get(attr) if known is not None else None
        if rec is None or returns.attribute_written(self, attr):
            return None
        return _imported_constant(rec)

    def _instance_method_return(self, ref: str, m: str, call: cst.Call, arg_vals: list[Value],
                                traced_ctx: bool, deps: frozenset) -> Optional[Value]:
        """``obj.m(...)`` of an instance of a plain class of the project (``ref``): what the
        method's body returns for this call (a class of this file) or for any call
        (another module's ``values`` fact): an array, a Python list, a dict of arrays."""
        cls = instances.of_class(self, ref)
        if cls is not None:
            method = cls.methods.get(m)
            if cls.is_jax_module or method is None or bound_receiver(method) != 1:
                return None
            body = returns.returned_value(self, method, call, arg_vals, n_bound=1)
            if body is None:
                return None
            if returns.is_list(body):
                return Value(pytype="list")
            if body.kind in (V.ARRAY, V.NPARRAY, V.TUPLE, V.ARRAYS) or (body.kind == V.LIST and body.pytype == "dict") \
                    or (body.kind == V.STATIC and body.pytype == "ndarray"):
                return merged(V.UNKNOWN_VALUE, body)
            return None
        known = self.index.imported_values.get(ref) if not ref.startswith("@") else None
        rec = (known.get("returns") or {}).get(m) if known is not None else None
        return self._known_return(rec, call, traced_ctx, deps) if rec is not None else None

    def _known_return(self, known: dict, call: cst.Call, traced_ctx: bool, deps: frozenset) -> Optional[Value]:
        """What a call of another module's helper returns, as its ``values`` fact tells
        (model/returns.py ``exported_values``): an array (``return _TABLE``, a module-level
        array), a new dict of arrays under literal keys (``return {"obs": jnp.zeros((n, d))}``);
        None for anything else."""
        if known.get("key_of"):
            # `get_key()` of another module returning its module-level key: the same key at each call
            label = (dotted_name(call.func) or "key") + "()"
            token = self._attr_tokens.get(label)
            if token is None:
                token = self._attr_tokens[label] = KeyToken(call, len(self.loop_stack), label)
            return Value(kind=V.KEY, key=token)
        if known.get("namespace") == "dual":
            return namespaces.DUAL_VALUE  # `xp = array_namespace(x)` of another module
        if known.get("array") == "mix":
            return namespaces.BUILT  # `out = make_jac(...)` of another module: built by the dual namespace
        if "dict" in known:
            fields = tuple(
                (k, replace_value(self._returned(kind, call, traced_ctx, deps), shape=tuple(sh) if sh is not None else None))
                for k, kind, sh in known["dict"] if kind in (V.ARRAY, V.NPARRAY))
            # every value a JAX array (`"every": "array"`): `d[name]`, any key, is one
            item = self._returned(V.ARRAY, call, traced_ctx, deps) if known.get("every") == V.ARRAY else None
            return Value(kind=V.LIST, pytype="dict", fields=fields, item=item)
        if known.get("array") in (V.ARRAY, V.NPARRAY):
            r = self._returned(known["array"], call, traced_ctx, deps)
            return replace_value(r, shape=tuple(known["shape"])) if "shape" in known else r
        if known.get("pytype") == "list":
            return Value(pytype="list")
        return None

    def _returned(self, kind: str, call: cst.Call, traced_ctx: bool, deps: frozenset) -> Value:
        """The value of a call of a helper whose returns have ``kind``: a JAX array is
        a tracer in traced code (unless it runs eagerly under vmap alone), concrete
        elsewhere; a key is a new key at each call."""
        if kind == V.ARRAY:
            traced = traced_ctx and not self.eager
            return Value(kind=V.ARRAY, traced=traced, deps=deps | JAX_COMPUTED if traced else frozenset())
        if kind == V.KEY:
            return Value(kind=V.KEY, key=KeyToken(call, len(self.loop_stack), "returned"))
        return kinds.value_of(kind)


    def _builds_record(self, call: cst.Call) -> bool:
        """Does ``call`` build a pytree record that keeps a tracer it is given as it is:
        a NamedTuple or a flax/chex dataclass of this file (``State(loss=l)``),
        ``dict(loss=l)``?"""
        if not any(not a.star and self.value(a.value).traced for a in call.args):
            return False
        if self.builtin_name(call.func) == "dict":
            return all(a.keyword is not None for a in call.args)
        written = dotted_name(call.func) if type(call.func) is cst.Name else None
        cls = instances.local_class(self, written) if written is not None else None
        if cls is None or instances.constructed(self, written) is None:
            return False
        if kinds.dataclass_fields(cls.node, self.qualname) is not None:
            # a pytree dataclass (a plain one is no pytree: `jax.debug.print` cannot take it)
            return any(self.qualname(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator)
                       in ("flax.struct.dataclass", "chex.dataclass") for d in cls.node.decorators)
        return len(cls.node.bases) == 1 and not cls.node.keywords and \
            (self.qualname(cls.node.bases[0].value) or "") in ("typing.NamedTuple", "typing_extensions.NamedTuple")

    def _dataclass_fields(self, written: str, call: cst.Call) -> Optional[tuple]:
        """``Params(w=jnp.zeros(3))`` with ``Params`` a dataclass of this file: the
        kinds its fields get (model/kinds.py), or None."""
        if "." in written or not self.index.classes:
            return None
        for info in self.index.classes:
            if info.name == written:
                names = kinds.dataclass_fields(info.node, self.qualname) or kinds.namedtuple_fields(info.node, self.qualname)
                return kinds.instance_fields(names, call, self.value, kinds.dataclass_int_defaults(info.node)) if names else None
        return None


    def _stored_fields(self, written: str, call: cst.Call, arg_vals: list[Value]) -> Optional[tuple]:
        """``Term(S0=1.0, Q=q)`` with ``Term`` a plain class whose own ``__init__``
        stores its parameters as they are (model/instances.py, ``stored_parameters``):
        of this file, or of another module of the project (the ``stored`` facts, for an
        attribute this file does not write either): the attributes the call gives
        tracers, each the tracer it was given (``t.Q < 0.5`` is a Python comparison of a
        tracer).  Star arguments: unknown."""
        star_kw: frozenset[str] = frozenset()
        stars = [a for a in call.args if a.star]
        if stars:
            # `Over(**kwargs)` in `def sho(**kwargs)`: the keywords traced callers give
            # tracers (model/units.py), each reaching the parameter of its name
            # (a `*args` beside it fills positions the model does not know: no keyword's)
            kw = next((p for p in self.unit.params if p.kind == "kwarg"), None)
            va = next((p for p in self.unit.params if p.kind == "vararg"), None)
            double = [a for a in stars if a.star == "**"]
            single = [a for a in stars if a.star == "*"]
            if len(double) != 1 or kw is None or type(double[0].value) is not cst.Name \
                    or double[0].value.value != kw.name or kw.name in self.unit.assigned or not self.unit.traced_star_kw \
                    or len(single) > 1 or (single and (va is None or type(single[0].value) is not cst.Name
                                                       or single[0].value.value != va.name)):
                return None
            star_kw = frozenset(self.unit.traced_star_kw)
        cls = instances.local_class(self, written) if "." not in written else None
        if cls is not None:
            record = instances.stored_parameters(self, cls)
        else:
            record = self.index.imported_stored.get(written) if self.index.imported_stored else None
            if record is not None and any(instances.attribute_writes(self, a) for a in record["attrs"]):
                record = None  # `t.Q = 0.3` here: the attribute is set again
        if record is None:
            return None
        positional = record["params"]
        given: dict[str, Value] = {}
        i = 0
        for k in star_kw:
            given[k] = Value(traced=True, deps=frozenset({k}))
        for a, v in zip(call.args, arg_vals):
            if a.star:
                if a.star == "*":
                    i = len(positional)  # which positions it fills: unknown
                continue
            if a.keyword is None:
                if i >= len(positional):
                    return None
                given[positional[i]] = v
                i += 1
            else:
                given[a.keyword.value] = v
        out = [(attr, given[param]) for attr, param in sorted(record["attrs"].items())
               if param in given and given[param].traced]
        return tuple(out) or None

    def _element_value(self, e, expr: Optional[cst.BaseExpression] = None) -> Value:
        """The value of one element of a comprehension asked for before the walk
        reached it (a rule looking at ``np.stack([...])`` on entering the call):
        its targets bound in a scratch scope, with a scratch memo (nothing of it
        stays: the walk binds and evaluates the element again)."""
        saved = self._memo
        self._memo = {}
        self.env.open()
        try:
            f = e.for_in
            while f is not None:
                self._bind(f.target, self._element_of(f.iter, f.target))
                f = f.inner_for_in
            return self.value(expr if expr is not None else e.elt)
        finally:
            self.env.close()
            self._memo = saved


def merged(r: Value, body: Value) -> Value:
    """What the model knows of a call's result (``r``) with what the callee's body
    gives (``body``): shapes and integers added; a kind the return-kind reading
    left unknown (a tuple, an array built in steps) taken from the body."""
    if body.qualname == namespaces.DUAL and not r.traced and r.kind in (V.UNKNOWN, V.FUNCTION) \
            and r.instance is None and r.cls is None and r.fields is None:
        return body  # the dual namespace (`return jnp` / `return np`), or an array it built
    if r.kind == V.ARRAY and body.kind == V.ARRAY:
        return replace_value(r, shape=body.shape, int_range=body.int_range) if body.shape is not None else r
    if r.kind == V.NPARRAY and body.kind == V.NPARRAY:
        return replace_value(r, shape=body.shape) if body.shape is not None else r
    if r.kind in (V.STATIC, V.UNKNOWN) and body.kind == V.STATIC and body.const is not None and not r.traced:
        return Value(kind=V.STATIC, const=body.const)
    if r.kind == V.UNKNOWN and r.instance is None and r.cls is None and r.fields is None and body.kind in (V.ARRAY, V.NPARRAY, V.TUPLE, V.ARRAYS):
        if r.traced and not body.traced:
            return r
        if body.elements is not None:
            # `w, b = init(key)`: arrays the callee made, maybe held elsewhere too
            body = replace_value(body, elements=tuple(replace_value(el, local_array=False) if el.local_array else el
                                                      for el in body.elements))
        return replace_value(body, deps=body.deps | r.deps, local_array=False)
    if r.kind == V.UNKNOWN and not r.traced and r.instance is None and r.cls is None and r.fields is None \
            and body.kind == V.LIST and body.pytype == "dict" and body.fields:
        # `buf = init_buffer()` of `return {"obs": jnp.zeros((n, d))}`: `buf["obs"]` of that shape
        # (and `buf[name]` an array when every value is a concrete one)
        item = body.item if body.item is not None and body.item.kind == V.ARRAY and not body.item.traced else None
        return replace_value(r, kind=V.LIST, pytype="dict", fields=body.fields, item=item)
    if r.kind == V.UNKNOWN and not r.traced and not r.holds and V.holds_tracer(body):
        # `return State(loss=l)`, `return {"loss": l}`, `return [jnp.sum(p) for p in ps]`
        seq = body.pytype if r.pytype is None and body.pytype in SEQUENCE_TYPES and body.kind in (V.UNKNOWN, V.LIST) else r.pytype
        return replace_value(r, holds=True, pytype=seq)
    if r.kind == V.UNKNOWN and r.pytype is None and body.pytype in SEQUENCE_TYPES and body.kind in (V.UNKNOWN, V.LIST, V.ARRAYS):
        return replace_value(r, pytype=body.pytype)  # `return jax.tree_util.tree_leaves(t)`: a list
    return r


def _imported_constant(known: dict) -> Optional[Value]:
    """The value of a module constant another module of the project binds once (its
    ``values`` fact, model/returns.py ``exported_values``): a concrete JAX array or a
    host NumPy array (of its shape), a list display (``{"display": "list"}``: a Python
    list, which `jax.numpy` functions refuse); None for anything else."""
    if known.get("array") in (V.ARRAY, V.NPARRAY):
        shape = known.get("shape")
        return Value(kind=known["array"], shape=tuple(shape) if shape is not None else None)
    if known.get("display") == "list" or known.get("pytype") == "list":
        return Value(pytype="list")
    if known.get("key"):
        return Value(kind=V.KEY)  # its identity: ``key_token`` (model/bindings.py)
    return None


# `jax.tree.map` under its names
_TREE_MAPS = frozenset({"jax.tree.map", "jax.tree_util.tree_map", "jax.tree_map"})

# the Python sequences ``Value.pytype`` names: what a helper's every return builds
SEQUENCE_TYPES = ("list", "tuple")


def _joined(values: list[Value]) -> Optional[Value]:
    if not values:
        return None
    out = values[0]
    for v in values[1:]:
        out = V.join(out, v)
    return replace_value(out, key=None) if out.key is not None else out


def _sample_site_draws(call: cst.Call) -> bool:
    """Does this ``numpyro.sample(name, fn, obs=None, ...)`` call draw: no ``obs`` (the
    third positional argument or the keyword), or a literal ``None``?"""
    obs = None
    n_pos = 0
    for a in call.args:
        if a.star:
            return False
        if a.keyword is None:
            n_pos += 1
            if n_pos == 3:
                obs = a.value
        elif a.keyword.value == "obs":
            obs = a.value
    return obs is None or (type(obs) is cst.Name and obs.value == "None")


def _display_item(interp, name: cst.BaseExpression, base: Value, index: cst.BaseExpression) -> Optional[Value]:
    """``name[i]`` of a list display the name holds (``tables = [np.arange(10.0), jnp.zeros(3)]``),
    ``i`` a literal in range: its element ``i`` when that is an array (JAX or host) or a
    Python list (a display too), and the file's text writes no item of ``name`` (``name[j] = ...``) nor
    changes its length; None otherwise."""
    if type(name) is not cst.Name or base.elements is None or base.pytype is not None or base.fields is not None:
        return None
    i = int_value(index)
    if i is None or not -len(base.elements) <= i < len(base.elements):
        return None
    el = base.elements[i]
    if el.traced or el.key is not None or not (
            el.kind in (V.ARRAY, V.NPARRAY) or (el.kind == V.STATIC and el.pytype == "ndarray")
            or el.pytype == "list" or (el.kind == V.LIST and el.elements is not None and el.pytype is None
                                       and el.fields is None)):
        return None
    if not returns.list_length_visible(interp, name.value):
        return None
    n = re.escape(name.value)
    if re.search(rf"(?<![\w.]){n}\s*\[[^\]\n]*\]\s*(?:[-+*/@%&|^]|//|\*\*)?=(?!=)", interp.text):
        return None  # an item written somewhere (`tables[0] = ...`)
    return el


@lru_cache(maxsize=1024)  # asked at every read of a module's dict: the file's text is scanned once a name
def _dict_changed(text: str, name: str) -> bool:
    """Does the file's text store into the dict ``name`` (``name[k] = v``, ``name[k] += v``),
    change it by a method (``name.update(...)``, ``setdefault``, ``pop``, ``clear``) or hand
    it to a call (``reset(name)``, which may do either)?"""
    n = re.escape(name)
    return re.search(
        rf"(?<![\w.]){n}\s*\[[^\]\n]*\]\s*(?:[-+*/@%&|^]|//|\*\*)?=(?!=)"
        rf"|(?<![\w.]){n}\s*\.\s*(?:update|setdefault|pop|popitem|clear|__setitem__)\s*\("
        rf"|(?<![\w.]){n}\s*\|="
        rf"|[(,]\s*(?:\*\*)?{n}\s*[,)]", text) is not None


_LIST_WRITES = r"\s*(?:\[[^\]\n]*\]\s*(?:[-+*/@%&|^]|//|\*\*)?=(?!=)|\.\s*(?:append|extend|insert|pop|remove|clear|sort|reverse)\b)"


def _entry_item(interp, entry: cst.BaseExpression, index: cst.BaseExpression) -> Optional[Value]:
    """``d["k"][i]`` of a list display of JAX arrays the dict ``d`` holds under the literal
    key ``"k"`` (``{"k": [jnp.zeros(4)]}``), ``i`` a literal in range: that array, where
    every ``["k"]`` the file's text writes (of any name: an alias of ``d`` too) is read by
    an integer index at once and nothing is stored into it (``d["k"][0] = ...``,
    ``d["k"].append(...)``, ``lst = d["k"]``); None otherwise."""
    if type(entry) is not cst.Subscript or len(entry.slice) != 1 \
            or type(entry.slice[0].slice) is not cst.Index or type(entry.value) is not cst.Name:
        return None
    key = string_value(entry.slice[0].slice.value)
    held = interp.value(entry.value)
    if key is None or held.kind != V.LIST or held.pytype != "dict":
        return None
    base = next((fv for n, fv in held.fields or () if n == f"[{key}]"), None)
    i = int_value(index)
    if base is None or base.kind != V.LIST or base.elements is None or i is None \
            or not -len(base.elements) <= i < len(base.elements):
        return None
    el = base.elements[i]
    if el.kind != V.ARRAY or el.traced:
        return None
    k = re.escape(key)
    for m in re.finditer(rf"\[\s*(['\"]){k}\1\s*\]", interp.text):
        rest = interp.text[m.end():m.end() + 200]
        if not re.match(r"\s*\[\s*-?\d+\s*\]", rest) or re.match(_LIST_WRITES, rest):
            return None  # read other than by an index, or an item of it written
    return el


def _held_item(base: Value, index: cst.BaseExpression) -> Optional[Value]:
    """The tracer ``base[index]`` reads back from a container the model knows holds
    tracers: an element of a list display (``[x * 2, y][0]``), any element of one
    whose every element is a tracer, the elements of a comprehension of tracers, any
    value of a dict display whose every value is one (``d[k]``); None otherwise."""
    if base.elements is not None and base.pytype != "dict":
        i = int_value(index)
        if i is not None:
            if -len(base.elements) <= i < len(base.elements) and base.elements[i].traced:
                return base.elements[i]
            return None
        if type(index) is cst.Slice or not base.elements or not all(el.traced for el in base.elements):
            return None
        return _joined(list(base.elements))
    if base.item is not None and base.item.traced and (base.pytype == "dict" or int_value(index) is not None
                                                        or type(index) in (cst.Name, cst.Attribute)):
        return base.item
    return None


def _slice_parts(sl: cst.CSTNode) -> list[cst.CSTNode]:
    if isinstance(sl, cst.Index):
        return [sl.value]
    if isinstance(sl, cst.Slice):
        return [p for p in (sl.lower, sl.upper, sl.step) if p is not None]
    return []


# neural-network libraries whose layer classes map arrays to arrays
_LAYER_MODULES = ("haiku.", "flax.linen.", "equinox.nn.", "flax.nnx.")


def _library_layer_call(ev, func: cst.BaseExpression) -> bool:
    """Is ``func`` a layer of a neural-network library, built where it is called
    (``hk.nets.MLP([4, 1])``, ``nn.Dense(3)``, ``eqx.nn.Linear(2, 3, key=k)``), or the
    ``apply`` of one (``nn.Dense(3).apply``)?  A class of such a module, named as classes
    are (capitalised); not its functions (``hk.next_rng_key``, ``nn.make_attention_mask``)."""
    if type(func) is cst.Attribute and func.attr.value == "apply":
        func = func.value
    if type(func) is not cst.Call:
        return False
    q = ev.qualname(func.func)
    if q is None or not q.startswith(_LAYER_MODULES):
        return False
    name = q.rsplit(".", 1)[-1]
    return name[:1].isupper() and not name.isupper()


# what a flax TrainState is, by the names a file may resolve it to
_TRAIN_STATES = frozenset({"flax.training.train_state.TrainState"})
# haiku's transforms: their `apply` runs the transformed function with JAX
_HAIKU_TRANSFORMS = frozenset({"haiku.transform", "haiku.transform_with_state", "haiku.without_apply_rng"})


def _traced_computation(ev, func: cst.BaseExpression, written: Optional[str], head) -> bool:
    """Does calling ``func`` run a computation JAX traces, whatever function it holds
    (one the model cannot read): the ``apply_fn`` of a flax ``TrainState`` (a parameter
    annotated so, or a name bound once to ``TrainState.create(...)``), the ``apply`` of a
    haiku transform (a ``def`` decorated with ``@hk.transform``, a name bound once to
    ``hk.transform(f)``, ``hk.transform_with_state(f)``, ``hk.without_apply_rng(...)``),
    the ``apply`` of a flax linen module built once (``dense = nn.Dense(3)``, ``model =
    Net()`` of a linen class of the file), or a jitted function of another module of the
    project (``jax.jit`` inlined into the trace gives tracers)?"""
    if written is not None and head is None and written in ev.index.imported_jits:
        # (a name of this file shadowing it is `head`; `lb.take` through the module
        # imported here too)
        return True
    if type(func) is cst.Attribute and type(func.value) is cst.Attribute and ev.index.imported_jits:
        # `self.source.update(...)`: a jitted method of a class of another module, on the
        # instance every object of this class holds there (model/calls.py)
        made = ev._self_attribute_value(func.value)
        cls = dotted_name(made.func) if type(made) is cst.Call else None
        if cls is not None and ev.lookup(cls.split(".", 1)[0]) is None \
                and ev.unit.lookup_def(cls.split(".", 1)[0]) is None \
                and f"{cls}.{func.attr.value}" in ev.index.imported_jits:
            return True
    if type(func) is not cst.Attribute or type(func.value) is not cst.Name:
        return False
    attr = func.attr.value
    if attr == "apply_fn":
        return _train_state(ev, func.value)
    if attr == "apply":
        bound = bound_once(ev.index, ev.unit, func.value)
        if bound is func.value:
            return _haiku_decorated(ev, func.value)
        if type(bound) is not cst.Call:
            return False
        if (ev.qualname(bound.func) or "") in _HAIKU_TRANSFORMS or _library_layer_call(ev, bound):
            return True
        # a flax linen module of this file, built once: `model = Net()` ... `model.apply(v, x)`
        made = dotted_name(bound.func)
        if any(c.linen and c.name == made for c in ev.index.classes):
            return True
        # ... or of another module of the project (its record's hash `kind` "linen", project/facts.py)
        rec = ev.index.imported_classes.get(made) if made is not None else None
        return rec is not None and (rec.get("hash") or {}).get("kind") == "linen"
    return False


def _haiku_decorated(ev, name: cst.Name) -> bool:
    """Is ``name`` a ``def`` of this file, bound once, decorated with a haiku transform
    (``@hk.transform``, ``@hk.without_apply_rng`` over it)?"""
    u = scope_of(ev.index, ev.unit, name.value)
    fn = u.defs.get(name.value) if u is not None else None
    if fn is None or not isinstance(fn.node, cst.FunctionDef) or len(writes(u.node, name.value)) != 1:
        return False
    return any((ev.qualname(d.decorator) or "") in _HAIKU_TRANSFORMS for d in fn.node.decorators)


def _train_state(ev, name: cst.Name) -> bool:
    """Is ``name`` a flax ``TrainState`` (or a class of the file derived from one):
    a parameter annotated with it, or bound once to ``TrainState.create(...)``; or, not
    annotated, a parameter of a file that imports flax's ``train_state`` (there, an
    ``apply_fn`` is the TrainState's)?"""
    p = ev.unit.param(name.value)
    if p is not None:
        ann = p.annotation or ""
        if ann in _TRAIN_STATES:
            return True
        cls = next((c for c in ev.index.classes if c.name == ann), None)
        if cls is not None:
            return any(b in _TRAIN_STATES for b in cls.bases)
        return not ann and any(full.startswith("flax.training.train_state") for full in ev.imports.names.values())
    bound = bound_once(ev.index, ev.unit, name)
    if bound is name or type(bound) is not cst.Call or type(bound.func) is not cst.Attribute \
            or bound.func.attr.value != "create":
        return False
    made = ev.qualname(bound.func.value) or ""
    if made in _TRAIN_STATES:
        return True
    cls = next((c for c in ev.index.classes if c.name == made or c.name == dotted_name(bound.func.value)), None)
    return cls is not None and any(b in _TRAIN_STATES for b in cls.bases)
