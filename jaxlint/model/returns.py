"""What a call of a helper of this file returns, and what ``self.attr`` holds: the
helper's body read for its caller.

The interpreter walks callers before callees, so when a caller's walk reaches
``make()`` the body of ``make`` has not been walked.  ``returned_value`` reads it then,
in a scratch environment: the parameters bound to the values the call passes (a
default to its default), the body's straight-line assignments evaluated in order
(``x = jnp.zeros((n, 4)); y = x.reshape(2, -1)``), a name bound inside an ``if``,
loop, ``with`` or ``try`` unknown from there, and every ``return`` evaluated where
it stands; the result is the join of the returns.  The caller's traced-ness holds
(``jnp.zeros`` in a helper called from traced code is a tracer).  What it gives:
the kind (a JAX array, a host array, a tuple of them), the static shape, the
integer (``Value.const``), the arrays a returned dict display holds under literal
keys (``return {"obs": jnp.zeros((n, d))}``: ``buf["obs"]`` of ``buf = init_buffer()``).  ``attribute_value`` does the same for ``self.attr``
assigned once, in ``__init__``/``setup``.

Unknown stays unknown: a decorated helper, a generator, ``*args``, recursion past
three levels, a return of something the model cannot evaluate.
"""

from __future__ import annotations

import re
from typing import Any, Optional

import libcst as cst

from jaxlint.model import namespaces
from jaxlint.model import values as V
from jaxlint.model.constants import constant_int, host_array_expr
from jaxlint.model.scopes import writes
from jaxlint.model.shape_flow import fold_int
from jaxlint.model.journal import JournalDict
from jaxlint.model.units import ClassInfo, Unit
from jaxlint.model.values import Value
from jaxlint.model.walk import assigned_in, self_writes, statement_nodes

_MAX_DEPTH = 3


class _Module:
    """The module's top level, for ``fold_int`` of a constant's definition: literals
    and the module's constants, no flow values."""

    def __init__(self, index: Any) -> None:
        self.index = index
        self.unit = index.module_unit

    def value(self, node: cst.CSTNode) -> Value:
        return V.UNKNOWN_VALUE
_INIT_METHODS = ("__init__", "setup")
# the parts of a value a read body gives its caller
_KEPT = (V.ARRAY, V.NPARRAY, V.STATIC, V.TUPLE, V.ARRAYS)


def _plain(v: Value) -> Value:
    """A value as the read body may hold it: no PRNG key identity, no function."""
    if v.key is not None or v.unit is not None:
        return V.UNKNOWN_VALUE
    return v


def _signature(v: Value) -> tuple:
    return (v.kind, v.traced, v.shape, v.const, v.int_range,
            tuple(_signature(e) for e in v.elements) if v.elements is not None and len(v.elements) < 16 else None)


def returned_value(interp: Any, unit: Unit, call: cst.Call, arg_vals: list[Value], n_bound: int = 0,
                   traced: Optional[bool] = None, defaults: bool = True) -> Optional[Value]:
    """The join of ``unit``'s returns for this call (None: unknown); ``traced``: whether
    the call runs under a trace (default: where the walk stands); ``defaults``: a
    parameter the call does not pass holds its default (else: unknown)."""
    node = unit.node
    if type(node) is not cst.FunctionDef or node.decorators or unit.is_generator or interp.concrete:
        return None
    if not unit.returns or any(r is None for r in unit.returns):
        return None
    if any(a.star for a in call.args) or interp.scratch_depth >= _MAX_DEPTH:
        return None
    if traced is None:
        traced = interp.in_traced and not interp.eager
    key = (id(unit), n_bound, traced, defaults, tuple(_signature(v) for v in arg_vals),
           tuple(a.keyword.value if a.keyword is not None else None for a in call.args))
    memo = interp.scratch_memo
    if key in memo:
        return memo[key]
    memo[key] = None  # recursion: unknown
    params = unit.positional()[n_bound:]
    given: dict[str, Value] = {}
    pos = 0
    for a, v in zip(call.args, arg_vals):
        if a.keyword is None:
            if pos >= len(params) and any(p.kind == "vararg" for p in unit.params):
                continue  # into `*arrays`, which the read leaves unknown
            if pos >= len(params):
                return None
            given[params[pos].name] = _plain(v)
            pos += 1
        else:
            given[a.keyword.value] = _plain(v)
    out = _read(interp, unit, given, traced, returns=True, defaults=defaults)
    memo[key] = out
    return out


def attribute_value(interp: Any, cls: ClassInfo, attr: str) -> Optional[Value]:
    """What ``self.attr`` holds in the methods of ``cls`` (not a JAX module, whose
    attributes are traced fields): the class assigns it once, in ``__init__`` or
    ``setup``, and the file writes ``.attr`` nowhere else; its value as that method's
    straight-line body computes it (the parameters unknown, their defaults too: a
    caller may pass another).  The cheap tests first (the file's text, then the
    class's assignments), the ``__init__`` read once per class."""
    if cls.is_jax_module or _attribute_writes(interp, attr) != 1:
        return None
    memo = interp.scratch_memo
    key = ("attrs", id(cls))
    state = memo.get(key)
    if state is None:
        state = memo[key] = [_write_counts(cls), None]
    if state[0].get(attr) != 1:
        return None
    if state[1] is None:
        if interp.scratch_depth >= _MAX_DEPTH:
            return None
        state[1] = {}  # while its `__init__` is read: unknown
        state[1] = _init_values(interp, cls)
    return state[1].get(attr)


def _write_counts(cls: ClassInfo) -> dict[str, int]:
    """attribute -> how many assignments of ``self.attr`` the class's methods make."""
    writes: dict[str, int] = {}
    for m in cls.methods.values():
        if isinstance(m.node, cst.FunctionDef):
            for a in self_writes(m.node.body) or ():
                writes[a] = writes.get(a, 0) + 1
    return writes


def _init_values(interp: Any, cls: ClassInfo) -> dict[str, Value]:
    """``self.attr = value`` of ``__init__``/``setup``'s top level: the arrays and integers."""
    out: dict[str, Value] = {}
    for name in _INIT_METHODS:
        m = cls.methods.get(name)
        if m is None or not isinstance(m.node, cst.FunctionDef) or m.node.decorators:
            continue
        held = _read(interp, m, {}, False, returns=False)
        for attr, v in (held or {}).items():
            if v.kind in (V.ARRAY, V.NPARRAY) or (v.kind == V.STATIC and (v.const is not None or v.pytype == "ndarray")):
                out[attr] = v
            elif is_list(v):
                out[attr] = Value(pytype="list")  # `self.weights = [1.0, 2.0]`: a Python list
    return out


def _read(interp: Any, unit: Unit, given: dict[str, Value], traced: bool, returns: bool, defaults: bool = True):
    """Walk ``unit``'s body straight-line in a scratch environment.  ``returns``: the
    join of its returns (None when one is unknown); else the ``self.attr = value``
    assignments of its top level, attribute -> value."""
    saved = (interp.unit, interp.env, interp._memo, interp.loop_stack, interp.scratch_traced,
             interp.eager, interp.not_none, interp.scratch_attrs)
    interp.unit = unit
    interp.env = env = JournalDict()
    interp._memo = {}
    interp.loop_stack = []
    interp.scratch_traced = traced
    interp.eager = False
    interp.not_none = set()
    interp.scratch_depth += 1
    try:
        for p in unit.params:
            if p.name in given:
                env[p.name] = given[p.name]
            elif p.default is not None and returns and defaults:
                env[p.name] = _plain(interp.value(p.default))
            else:
                env[p.name] = V.UNKNOWN_VALUE
        found: list[Value] = []
        attrs: dict[str, Value] = {}
        interp.scratch_attrs = None if returns else attrs  # `self.n = self.buf.shape[0]` reads what it set
        _block(interp, unit.node.body.body, found, attrs, top=True)  # type: ignore[attr-defined]
        if not returns:
            return attrs
        if not found:
            return None
        dual = namespaces.dual_return(found)
        if dual is not None:
            return dual  # `return jnp` on some paths, `return np` on the others: the dual namespace
        out = found[0]
        for v in found[1:]:
            out = V.join(out, v)
        seq = out.pytype if out.kind in (V.UNKNOWN, V.LIST) and out.pytype in ("list", "tuple") else None
        if seq is None and out.kind == V.LIST and out.pytype is None and out.fields is None \
                and out.elements is not None:
            seq = "list"  # every return a list display (`return [total / c for c in counts]`, `[a, b]`)
        if out.kind not in _KEPT and V.holds_tracer(out):
            # a record built with a tracer (`return State(loss=l)`, `{"loss": l}`; a list of them)
            return Value(holds=True, pytype=seq)
        if out.kind == V.LIST and out.pytype == "dict" and out.fields:
            # `return {"obs": jnp.zeros((n, d)), ...}`: the arrays it holds under literal keys
            # (a new dict at each call: `buf["obs"]` of `buf = init_buffer()`)
            held = tuple((name, fv) for name, fv in out.fields if fv.kind in (V.ARRAY, V.NPARRAY) and not fv.traced)
            # every value a concrete JAX array on every return (`buf[name]`, any key, is one)
            item = out.item if out.item is not None and out.item.kind == V.ARRAY and not out.item.traced else None
            return Value(kind=V.LIST, pytype="dict", fields=held, item=item) if held else None
        if seq is not None:
            return Value(pytype=seq)  # `return [f(x) for x in xs]`, `return list(...)`: a list
        if out.jax_on_some_path and out.qualname == namespaces.DUAL and not out.traced:
            return out  # `return xp.zeros(n)` of the dual namespace: JAX on some calls, NumPy on others
        return out if out.kind in _KEPT else None
    except RecursionError:  # pragma: no cover - deep expressions
        return None
    finally:
        (interp.unit, interp.env, interp._memo, interp.loop_stack, interp.scratch_traced,
         interp.eager, interp.not_none, interp.scratch_attrs) = saved
        interp.scratch_depth -= 1


def _bind(env, target: cst.CSTNode, v: Value, attrs: Optional[dict] = None, top: bool = False) -> None:
    """Bind ``target`` to ``v``; with ``attrs``, an unpacked ``self.attr`` too
    (``self._p, self._n = jnp.asarray(p), jnp.asarray(n)``: its part where ``top``)."""
    t = type(target)
    if t is cst.Name:
        env[target.value] = v  # type: ignore[attr-defined]
    elif t is cst.Attribute and attrs is not None and type(target.value) is cst.Name \
            and target.value.value == "self":  # type: ignore[attr-defined]
        attrs[target.attr.value] = v if top else V.UNKNOWN_VALUE  # type: ignore[attr-defined]
    elif t in (cst.Tuple, cst.List):
        els = target.elements  # type: ignore[attr-defined]
        parts = v.elements if v.kind in (V.TUPLE, V.ARRAYS) and v.elements is not None and len(v.elements) == len(els) else None
        for i, el in enumerate(els):
            if type(el) is cst.StarredElement:
                parts = None
            _bind(env, el.value, parts[i] if parts is not None else V.UNKNOWN_VALUE, attrs, top)


def _block(interp: Any, stmts, found: list, attrs: dict, top: bool) -> None:
    env = interp.env
    for s in stmts:
        if type(s) is cst.SimpleStatementLine:
            for small in s.body:
                t = type(small)
                if t is cst.Return:
                    found.append(interp.value(small.value) if small.value is not None else V.STATIC_VALUE)
                elif t in (cst.Assign, cst.AnnAssign) and small.value is not None:
                    v = _plain(interp.value(small.value))
                    for tg in (small.targets if t is cst.Assign else [small]):
                        target = tg.target
                        if type(target) is cst.Attribute and type(target.value) is cst.Name \
                                and target.value.value == "self":
                            attrs[target.attr.value] = v if top else V.UNKNOWN_VALUE
                        else:
                            _bind(env, target, v, attrs, top)
                elif t is cst.AugAssign:
                    for name in assigned_in(small, defs=True):
                        env[name] = V.UNKNOWN_VALUE
        elif type(s) in (cst.FunctionDef, cst.ClassDef):
            env[s.name.value] = V.UNKNOWN_VALUE
        else:
            # an `if`, a loop, `with`, `try`: what it binds is unknown from its start;
            # its returns are read where they stand (a name only imports bind, here or
            # anywhere in the function, names its module: `import jax.numpy as jnp`)
            imported = namespaces.imported_only(interp.unit.node, s)
            for name in assigned_in(s, defs=True):
                if name not in imported:
                    env[name] = V.UNKNOWN_VALUE
            for n in statement_nodes(s, nested=False):
                if type(n) is cst.Return:
                    found.append(interp.value(n.value) if n.value is not None else V.STATIC_VALUE)
                elif type(n) is cst.Assign:
                    for tg in n.targets:
                        target = tg.target
                        if type(target) is cst.Attribute and type(target.value) is cst.Name \
                                and target.value.value == "self":
                            attrs[target.attr.value] = V.UNKNOWN_VALUE


def exported_values(interp: Any) -> dict[str, dict]:
    """What this module tells the modules that import from it (``values`` facts), name
    -> record:

    * ``{"int": n}`` for a module-level name bound once to an integer literal
      (``N_STEPS = 500``) or to integer arithmetic the model folds (``N_STEPS = 5 *
      100``, assigned nowhere else, no function rebinding it as a global);
    * for a module-level function (not a method), what any call of it returns, its
      parameters unknown and their defaults not used: ``{"shape": [...]}`` for an array
      of one known shape (``def make_grid(): return jnp.zeros((GRID, GRID))``),
      ``{"int": n}`` for one integer, ``{"tuple": [[kind, shape or None], ...]}`` for a
      tuple of 2 to 16 items of which at least one is an array (``return w, b``: each
      item's kind and shape, ``[unknown, None]`` for an item that is no array)."""
    index = interp.index
    module = index.module_unit
    out: dict[str, dict] = {}
    for name, entries in module.bindings.items():
        if len(entries) != 1 or name.startswith("__"):
            continue
        value = entries[0][1]
        if type(value) is cst.Integer:
            n = constant_int(index, module, cst.Name(name))
        elif type(value) in (cst.UnaryOperation, cst.BinaryOperation) and len(writes(module.node, name)) == 1 \
                and not any(name in u.global_names and name in u.assigned for u in index.units):
            n = fold_int(_Module(index), value)  # `N_STEPS = 5 * 100`
        else:
            n = None
        if n is not None:
            out[name] = {"int": n}
    for name, entries in module.bindings.items():
        # a module-level array bound once (`ANCHORS = jnp.array([0.5, 1.0, 2.0])`, `TABLE =
        # np.zeros((10, 4))`): a concrete JAX array or a host NumPy array, of the shape the
        # model knows, read by the modules that import it
        if name in out or len(entries) != 1 or name.startswith("__") or type(entries[0][1]) is not cst.Call:
            continue
        ws = writes(module.node, name)
        if len(ws) != 1 or type(ws[0]) is not cst.Assign or len(ws[0].targets) != 1 \
                or type(ws[0].targets[0].target) is not cst.Name \
                or any(name in u.global_names and name in u.assigned for u in index.units):
            continue
        v = _module_value(interp, entries[0][1])
        if v is None or v.traced:
            continue
        if v.kind == V.KEY:
            out[name] = {"key": 1}  # `KEY = jax.random.key(0)`: one key, the same object wherever it is read
            continue
        kind = v.kind
        if kind != V.ARRAY and host_array_expr(index, module, entries[0][1], interp.qualname):
            kind = V.NPARRAY  # `np.arange(10.0)` (the model keeps its shape as a static value's)
        if kind in (V.ARRAY, V.NPARRAY):
            out[name] = {"array": kind, **({"shape": list(v.shape)} if v.shape is not None else {})}
    from jaxlint.model.instances import local_class

    for cls in index.classes:
        if cls.name not in out and local_class(interp, cls.name) is cls:
            rec = class_values(interp, cls)
            if rec:
                out[cls.name] = rec  # `h = Holder()` in an importer: `h.table`, `h.make(t)`
    for name, unit in sorted(module.defs.items()):
        if unit.cls is not None:
            continue
        if global_key_return(index, unit, interp.qualname) is not None:
            out[name] = {"key_of": 1}  # `def get_key(): return _KEY`: the same key at every call
            continue
        # what any call returns: its parameters unknown (a call may pass anything)
        v = returned_value(interp, unit, cst.Call(func=cst.Name(name)), [], traced=False, defaults=False)
        if v is None:
            continue
        if v == namespaces.DUAL_VALUE:
            out[name] = {"namespace": "dual"}  # `def xp(): return jnp if ... else numpy`
            continue
        if v.jax_on_some_path and v.qualname == namespaces.DUAL:
            out[name] = {"array": "mix"}  # `return xp.zeros(n)`: JAX on some calls, NumPy on others
            continue
        if _array_kind(v) is not None:
            # an array (`return jnp.zeros((GRID, GRID))`, `return _TABLE` of a module-level
            # array): its kind, and its shape when known
            out[name] = {"array": _array_kind(v), **({"shape": list(v.shape)} if v.shape is not None else {})}
        elif v.kind == V.STATIC and type(v.const) is int:
            out[name] = {"int": v.const}
        elif v.kind == V.LIST and v.pytype == "dict" and v.fields and len(v.fields) <= 16:
            # `return {"obs": jnp.zeros((n, d))}`: the arrays a new dict holds under literal keys
            out[name] = _dict_record(v)
        elif v.kind in (V.UNKNOWN, V.ARRAYS) and v.pytype in ("list", "tuple"):
            out[name] = {"pytype": v.pytype}  # every return a Python list (`return tree_leaves(t)`)
        elif v.kind == V.TUPLE and v.elements is not None and 1 < len(v.elements) <= 16 \
                and any(_array_kind(e) is not None for e in v.elements):
            # `return w, b` of two JAX arrays: their kinds (and shapes) for `w, b = init(...)`
            out[name] = {"tuple": [[_array_kind(e), list(e.shape) if e.shape is not None else None]
                                   if _array_kind(e) is not None else [V.UNKNOWN, None] for e in v.elements]}
    return out


def is_list(v: Value) -> bool:
    """Is ``v`` a Python list the model shows: a list display, a comprehension, ``list(...)``?"""
    if v.traced or v.kind not in (V.UNKNOWN, V.LIST):
        return False
    return v.pytype == "list" or (v.kind == V.LIST and v.elements is not None and v.pytype is None and v.fields is None)


def value_record(v: Optional[Value]) -> Optional[dict]:
    """A value as a ``values`` fact record (what ``exported_values`` tells importers of a
    module-level name, a class's attribute, a method's return): an array and its shape, a
    Python list, a new dict of arrays under literal keys; None for anything else."""
    if v is None:
        return None
    kind = _array_kind(v)
    if kind is not None and not v.traced:
        return {"array": kind, **({"shape": list(v.shape)} if v.shape is not None else {})}
    if is_list(v):
        return {"pytype": "list"}
    if v.kind == V.LIST and v.pytype == "dict" and v.fields and len(v.fields) <= 16:
        return _dict_record(v)
    return None


def _dict_record(v: Value) -> dict:
    """A new dict of arrays under literal keys as a ``values`` record: ``{"dict": [[key,
    kind, shape or None], ...]}``, and ``"every": "array"`` when every value it holds is a
    concrete JAX array (``buf[name]``, whichever key, is one)."""
    out: dict = {"dict": [[k, fv.kind, list(fv.shape) if fv.shape is not None else None]
                          for k, fv in v.fields or () if fv.kind in (V.ARRAY, V.NPARRAY)]}
    if v.item is not None and v.item.kind == V.ARRAY and not v.item.traced:
        out["every"] = V.ARRAY
    return out


def class_values(interp: Any, cls: ClassInfo) -> dict:
    """What instances of ``cls`` (a plain class: not a flax/equinox/haiku module) tell
    importers: ``attrs``, the attributes its ``__init__`` sets once to an array or list
    (model/returns.py ``attribute_value``), and ``returns``, what its plain methods return
    for any call (their parameters unknown): records of ``value_record``."""
    out: dict = {}
    if cls.is_jax_module:
        return out
    init = cls.methods.get("__init__")
    attrs = {}
    if init is not None and isinstance(init.node, cst.FunctionDef):
        for attr in sorted(self_writes(init.node.body) or ()):
            rec = value_record(attribute_value(interp, cls, attr))
            if rec is not None:
                attrs[attr] = rec
    if attrs:
        out["attrs"] = attrs
    rets = {}
    for name, m in sorted(cls.methods.items()):
        if name.startswith("__") or not isinstance(m.node, cst.FunctionDef) or m.node.decorators \
                or not m.params or m.params[0].name != "self":
            continue
        rec = value_record(returned_value(interp, m, cst.Call(func=cst.Name(name)), [], n_bound=1,
                                          traced=False, defaults=False))
        if rec is not None:
            rets[name] = rec
    if rets:
        out["returns"] = rets
    return out


_KEY_MAKERS = frozenset({"jax.random.PRNGKey", "jax.random.key"})


def global_key_return(index: Any, unit: Unit, qualname: Any) -> Optional[str]:
    """The module-level name every ``return`` of the plain function ``unit`` hands back
    when the module binds that name once, to a new PRNG key (``_KEY = jax.random.key(0)``;
    ``def get_key(): return _KEY``), and no function rebinds it: each call gives the
    same key object.  None otherwise."""
    node = unit.node
    if type(node) is not cst.FunctionDef or node.decorators or unit.is_generator or unit.cls is not None:
        return None
    if not unit.returns or any(type(r) is not cst.Name for r in unit.returns):
        return None
    names = {r.value for r in unit.returns}
    if len(names) != 1:
        return None
    name = names.pop()
    if name in unit.assigned or unit.param(name) is not None or name in unit.global_names:
        return None
    module = index.module_unit
    entries = module.bindings.get(name)
    if not entries or len(entries) != 1 or type(entries[0][1]) is not cst.Call \
            or qualname(entries[0][1].func) not in _KEY_MAKERS:
        return None
    if len(writes(module.node, name)) != 1 or any(name in u.global_names and name in u.assigned for u in index.units):
        return None
    return name


def _array_kind(v: Value) -> Optional[str]:
    """``array`` or ``nparray`` when ``v`` is one (a NumPy constructor's result, which the
    model keeps as a static value, is a host array); None otherwise."""
    if v.kind in (V.ARRAY, V.NPARRAY):
        return v.kind
    return V.NPARRAY if v.kind == V.STATIC and v.pytype == "ndarray" else None


def _module_value(interp: Any, expr: cst.CSTNode) -> Optional[Value]:
    """The value of ``expr``, a module-level binding, evaluated alone: its names unknown
    (None: unknown)."""
    saved = (interp.unit, interp.env, interp._memo, interp.loop_stack, interp.scratch_traced,
             interp.eager, interp.not_none, interp.scratch_attrs)
    interp.unit = interp.index.module_unit
    interp.env = JournalDict()
    interp._memo = {}
    interp.loop_stack = []
    interp.scratch_traced = False
    interp.eager = False
    interp.not_none = set()
    interp.scratch_attrs = None
    interp.scratch_depth += 1
    try:
        return interp.value(expr)
    except RecursionError:  # pragma: no cover - deep expressions
        return None
    finally:
        interp.scratch_depth -= 1
        (interp.unit, interp.env, interp._memo, interp.loop_stack, interp.scratch_traced,
         interp.eager, interp.not_none, interp.scratch_attrs) = saved


def _attribute_writes(interp: Any, attr: str) -> int:
    """How many times the file's text assigns ``<anything>.attr`` (``=`` or an
    augmented assignment)."""
    memo = interp.scratch_memo
    key = ("attr-writes", attr)
    n = memo.get(key)
    if n is None:
        n = memo[key] = len(re.findall(rf"\.\s*{re.escape(attr)}\s*(?:[-+*/@%&|^]|//|\*\*|>>|<<)?=(?!=)", interp.text))
    return n


def attribute_written(interp: Any, attr: str) -> bool:
    """Does the file assign ``<anything>.attr`` (a config field changed after it was built)?"""
    return _attribute_writes(interp, attr) > 0


def const_visible(interp: Any, name: str) -> bool:
    """May the integer bound to ``name`` be trusted where the walk stands?  A local of
    the unit (its flow value); a name of an enclosing function or the module only when
    that scope binds it once and no function rebinds it (``global``/``nonlocal``):
    the value at the end of the module's walk may not be the one a later call sees."""
    unit = interp.unit
    if unit.is_module or name in interp.env:
        return True
    memo = interp.scratch_memo
    key = ("visible", id(unit), name)
    ok = memo.get(key)
    if ok is None:
        ok = True
        scope = unit.parent
        while scope is not None and not scope.is_module and name not in scope.assigned and scope.param(name) is None:
            scope = scope.parent
        if scope is None:
            ok = False
        else:
            wkey = ("writes-once", id(scope), name)
            once = memo.get(wkey)
            if once is None:
                once = memo[wkey] = len(writes(scope.node, name)) == 1
            ok = once and name not in _rebound_elsewhere(interp)
        memo[key] = ok
    return ok


def _rebound_elsewhere(interp: Any) -> frozenset[str]:
    """The names some function of the file rebinds through ``global``/``nonlocal``
    (once per file)."""
    memo = interp.scratch_memo
    out = memo.get("rebound-elsewhere")
    if out is None:
        out = memo["rebound-elsewhere"] = frozenset(
            n for u in interp.index.units for n in (u.global_names | u.nonlocal_names) if n in u.assigned)
    return out


def list_length_visible(interp: Any, name: str) -> bool:
    """May the length known for the list ``name`` be trusted where the walk stands?
    A local of the unit (its flow value: ``append`` forgets it, model/walker.py);
    a list of an enclosing scope bound once that nothing in the file grows or
    shrinks (``name.append(...)``, ``name += ...``, ``del name[...]``)."""
    if interp.unit.is_module or name in interp.env:
        return True
    if not const_visible(interp, name):
        return False
    memo = interp.scratch_memo
    key = ("list", name)
    ok = memo.get(key)
    if ok is None:
        n = re.escape(name)
        ok = memo[key] = re.search(
            rf"(?<![\w.]){n}\s*(?:\.\s*(?:append|extend|insert|pop|remove|clear)\b|\+=|\*=)|\bdel\s+{n}\b",
            interp.text) is None
    return ok
