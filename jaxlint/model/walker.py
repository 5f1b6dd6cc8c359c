"""The walker: statements in flow order, expressions in pre-order, offering each
node to the rules' hooks (node class -> callables, on entering and leaving) and
keeping the bindings in step (branches, loops, comprehensions, definitions)."""

from __future__ import annotations

import re

from typing import Callable, Iterable, Mapping, Optional, Sequence

import libcst as cst

from jaxlint.model import apis, arg_shapes, custom_rules, gradtrace, kinds
from jaxlint.model import values as V
from jaxlint.model.bindings import LoopFrame, replace_value
from jaxlint.model.evaluation import COMPREHENSIONS
from jaxlint.model.journal import JournalDict
from jaxlint.model.keyflow import key_like_name
from jaxlint.model.narrowing import last_small, none_guard
from jaxlint.model.units import MODULE_METHOD, Unit
from jaxlint.model.values import Value
from jaxlint.model.walk import children, descendants, dotted_name, walk_tree

# expression nodes without expression children
_LEAVES = frozenset(
    {cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.Ellipsis}
)

# context managers under which JAX evaluates what does not depend on a tracer at once

Hooks = Mapping[type, Sequence[Callable[[cst.CSTNode], None]]]


_CATCH_ALL = frozenset({"builtins.Exception", "builtins.BaseException"})

# builtins that read their arguments and change none
_READERS = frozenset({"len", "range", "enumerate", "zip", "list", "tuple", "print", "sorted", "isinstance",
                      "sum", "min", "max", "any", "all", "iter", "reversed", "str", "repr", "int", "float",
                      "bool", "type", "id", "hash"})


def _holds_tracers(v: Value) -> bool:
    """A list/dict display (or comprehension) the model knows holds tracers."""
    return v.kind == V.LIST and (
        (v.item is not None and v.item.traced) or (v.elements is not None and any(e.traced for e in v.elements))
        or (v.fields is not None and any(fv.traced for _, fv in v.fields)))


def _carried(v: Value, deps: frozenset) -> Value:
    """What a loop primitive's body receives for an initial carry ``v``: the same Python
    structure (a tuple or list display the model knows element by element, a list of
    arrays), every array in it a tracer; anything else a traced value of unknown kind
    (a pytree: ``None`` stays ``None``)."""
    if v.kind in (V.ARRAY, V.NPARRAY):
        return Value(kind=V.ARRAY, traced=True, deps=deps)
    if v.kind == V.ARRAYS and v.item is not None and v.item.kind == V.ARRAY and v.fields is None:
        return Value(kind=V.ARRAYS, traced=True, deps=deps, item=Value(kind=V.ARRAY, traced=True, deps=deps))
    if v.kind in (V.TUPLE, V.LIST) and v.elements is not None and v.fields is None and v.pytype is None:
        return Value(kind=v.kind, traced=True, deps=deps, elements=tuple(_carried(e, deps) for e in v.elements))
    # an instance of a pytree class the model reads (`State(err, n)` of a NamedTuple, a
    # flax.struct dataclass): its class goes with it, its data fields tracers, its
    # static fields Python values (model/evaluation.py `_field`)
    return Value(traced=True, deps=deps, cls=v.cls)


def _instance_handed(node: cst.ClassDef) -> bool:
    """Does a method of the class ``node`` call its instance (`self(x)`) or hand it
    on (`jax.vmap(self)`, `f(self)`, `m = self`)?  Its ``__call__`` then has calls
    the model does not count."""
    for fn in node.body.body:
        if type(fn) is not cst.FunctionDef or not fn.params.params:
            continue
        me = fn.params.params[0].name.value
        for n in walk_tree(fn.body):
            t = type(n)
            if (t is cst.Call and type(n.func) is cst.Name and n.func.value == me) or (
                    t is cst.Arg and type(n.value) is cst.Name and n.value.value == me) or (
                    t in (cst.Assign, cst.Return) and type(n.value) is cst.Name and n.value.value == me):
                return True
    return False


class Walker:
    """The walk of one unit, for ``Interpreter`` (a mixin)."""

    def set_hooks(self, hooks: Hooks, leave_hooks: Hooks) -> None:
        """Callables to call, by node class, on entering and leaving a node."""
        self._hooks = hooks
        self._leave_hooks = leave_hooks

    # ------------------------------------------------------------------ walking
    def run_unit(self, unit: Unit) -> None:
        self.unit = unit
        self._memo = {}
        self._qn_memo = {}
        self._attr_tokens = {}
        self.consumed = JournalDict()
        self.loop_stack = []
        env = JournalDict()
        # differentiated outside jit only: its tracers hold values (model/gradtrace.py)
        if self.index.custom_rules:
            custom_rules.enter(unit, self.index.custom_rules)  # `f.defvjp(fwd, bwd)`: as `f` runs
        self.concrete = concrete = unit.concrete_traced
        for p in unit.params:
            ns = self._namespace_param(unit, p) if p.default is not None else None
            if ns is not None:
                env[p.name] = Value(kind=V.FUNCTION, qualname=ns)  # `def f(x, xnp=np)`: `xnp.stack` is NumPy's
            elif concrete and p.name in unit.grad_params and p.name not in unit.static_params:
                env[p.name] = Value(traced=True, deps=frozenset({p.name}))
            elif p.name in unit.traced_params and p.annotation in apis.UNTRACEABLE_ANNOTATIONS:
                # `mode: str` reached from traced code: no tracer is a string (jit refuses
                # one in a traced slot), so the caller passes a Python value
                env[p.name] = V.STATIC_VALUE
            elif p.name in unit.traced_params and unit.direct_kinds.get(p.name) == kinds.PYVALUE \
                    and self._direct_calls_known(unit):
                # the `__call__` of a module class (traced by default) whose every call
                # (`Block()(x, "relu", (2, 3))`, all of them seen) passes a Python value:
                # what the value is stays unknown
                env[p.name] = V.UNKNOWN_VALUE
            elif p.name in unit.traced_params and p.name in unit.carry_values and self._carry_sites_known(unit):
                # the carry of a loop primitive: the initial value's structure, its leaves
                # tracers (`fori_loop(0, n, body, (xs, h))`: `body(i, args)` gets `args[0]`, a
                # Python list of tracers, whose items a traced `i` cannot index)
                env[p.name] = _carried(unit.carry_values[p.name], frozenset({p.name}))
            elif p.name in unit.traced_params:
                # `n: int`, `train: bool` traced: JAX makes the Python number a 0-d array
                is_array = p.annotation in apis.ARRAY_ANNOTATIONS or p.annotation in apis.NUMBER_ANNOTATIONS \
                    or p.name in unit.array_params or (
                    # a helper every call of which (all of them seen) passes a traced JAX array
                    # (through transformation decorators too: `@jax.grad def g(x)` called with a
                    # tracer differentiates a tracer, `@jax.vmap` maps over one)
                    unit.arg_kinds.get(p.name) == kinds.TRACER and self._callers_known(
                        unit, through_transforms=True)) or (
                    # `model.apply(v, x)` -> `__call__`: every call from traced code passes one
                    unit.traced_arg_kinds.get(p.name) == kinds.TRACER and self._traced_callers_known(unit))
                if not is_array and unit.arg_kinds.get(p.name) == V.ARRAYS and self._callers_known(
                        unit, through_transforms=True):
                    # every call passes a list/tuple of arrays (`f(i, [a, b, c])`): the transformation
                    # keeps the Python container (a pytree) and traces its items
                    item = Value(kind=V.ARRAY, traced=True, deps=frozenset({p.name}))
                    env[p.name] = Value(kind=V.ARRAYS, traced=True, deps=frozenset({p.name}), item=item)
                    continue
                kind = V.ARRAY if is_array else V.UNKNOWN
                cls = None
                if not is_array:
                    cls = self.index.pytree_class(p.ann_class) if p.ann_class else None
                    if cls is None:
                        # no annotation, or one naming a base the model cannot read
                        # (`m: eqx.Module`): the class every call passes
                        cls = unit.param_classes.get(p.name)
                k = unit.arg_kinds.get(p.name)
                inst = None
                if not is_array and k is not None and k.startswith(kinds.OBJ) and "|" not in k \
                        and self._callers_known(unit, through_transforms=True):
                    # every call passes an instance of one class of the project (`loss(model,
                    # xs)` with `model = GatedMLP(key)`), which the transformation traces as a
                    # pytree: `model(x)` runs that class's `__call__` with the call's kinds
                    inst = k[len(kinds.OBJ):]
                env[p.name] = Value(kind=kind, traced=True, deps=frozenset({p.name}), cls=cls, instance=inst)
            elif p.name in unit.static_params:
                env[p.name] = V.STATIC_VALUE
            elif p.jax_array and not self.index.imports_pallas:
                # `def g(x: jax.Array)` called eagerly: a concrete JAX array (immutable).
                # Not in a module that uses Pallas: its kernels annotate their Refs
                # (`o_ref: jax.Array`), which `o_ref[...] = v` writes by design
                env[p.name] = Value(kind=V.ARRAY, deps=frozenset({p.name}))
            else:
                env[p.name] = V.UNKNOWN_VALUE
                k = unit.arg_kinds.get(p.name)
                if k is not None and kinds.carried(k) and self._callers_known(
                        unit, through_transforms=p.name in unit.unbatched_params):
                    env[p.name] = kinds.value_of(k)  # what every call passes (a JAX array...)
                elif k is not None and k.startswith(kinds.OBJ) and "|" not in k and self._callers_known(
                        unit, through_transforms=True):
                    # every call passes an instance of one class of the project (`integrate(cell,
                    # p)` with `cell = Module(...)`): `module.get_params(p)` runs that class's
                    # method, traced where this function is (also through a jit decorator:
                    # `@eqx.filter_jit def loss(model, x)` hands the instance on)
                    env[p.name] = Value(instance=k[len(kinds.OBJ):])
        if unit.shape_sites:
            # the shapes every call of this file passes (model/arg_shapes.py): a traced
            # parameter, or one given JAX arrays, is an array of that shape
            for name, (shape, jax_arrays, rng) in arg_shapes.param_shapes(self, unit).items():
                v = env.get(name)
                if v is not None and (v.traced or jax_arrays) and v.kind in (V.ARRAY, V.UNKNOWN):
                    env[name] = replace_value(v, kind=V.ARRAY, shape=shape, int_range=rng)
                elif v is not None and v.kind == V.UNKNOWN and not v.traced and shape == () and rng is not None \
                        and rng[0] == rng[1]:
                    env[name] = Value(kind=V.STATIC, const=rng[0])  # every call passes this integer
        self.env = env
        node = unit.node
        self.x64_depth = 1 if self.x64.unit_on(unit) else 0
        # traced only by `jax.vmap(f)(...)` written in untraced code: what does not
        # touch the batched values runs eagerly (jnp of concrete data is concrete)
        # (also a helper called only from such code)
        eager_sites = bool(unit.eager_sites) and len(unit.eager_sites) == len(unit.trace_sites) and not any(
            s.traced for s in unit.eager_sites.values())
        self.eager = bool(unit.reasons) and not unit.origins and set(unit.reasons) <= (
            unit.eager_reasons | (unit.site_reasons if eager_sites else set()))
        self.raises_depth = 0
        self.caught = []
        self.not_none = set()
        if isinstance(node, cst.Module):
            self.block(node.body)
            self.module_env = dict(self.env)
        elif isinstance(node, cst.FunctionDef):
            self.block(node.body.body)
        elif isinstance(node, cst.Lambda):
            self.expr(node.body)

    def _forget_dict_entries(self, call: cst.Call) -> None:
        """``params.update(...)``, ``prepare(params)``: a dict whose entries the model
        knows (`{"radec": np.array(...)}`) may be changed by the call: they are unknown
        from here."""
        env = self.env
        func = call.func
        # `len(layers)`, `range(n)`, `jnp.stack(layers)`: builtins, JAX and NumPy change no
        # list length nor integer field
        reader = type(func) is cst.Name and func.value in _READERS and self.lookup(func.value) is None
        if not reader and type(func) in (cst.Name, cst.Attribute) and not (
                type(func) is cst.Attribute and type(func.value) is cst.Name and self.lookup(func.value.value) is not None):
            q = self.qualname(func)
            reader = q is not None and q.split(".", 1)[0] in ("jax", "numpy", "math")
        names = [a.value.value for a in call.args if type(a.value) is cst.Name]
        if type(func) is cst.Attribute and type(func.value) is cst.Name:
            names.append(func.value.value)
        for name in names:
            # (aliases are found by the value as it was bound: `b2 = buf` holds an equal one)
            orig = held = env.get(name)
            if not reader and held is not None and _holds_tracers(held):
                held = env[name] = replace_value(held, elements=None, item=None)  # `lst.insert(0, ...)`
            if not reader and held is not None and held.kind == V.LIST and held.item is not None \
                    and held.item.kind == V.ARRAY:
                # `params.update(w=np.zeros(3))`, `reset(params)`: its values may no longer be JAX arrays
                if held.fields is None:
                    self._forget_aliases(name, orig)
                held = env[name] = replace_value(held, item=None)
            if held is not None and held.kind == V.LIST and held.fields is not None:
                if not reader:
                    self._forget_aliases(name, orig)  # `b2 = buf; prepare(b2)`: `buf` too
                env[name] = replace_value(held, fields=None)
            elif reader:
                continue
            elif held is not None and held.kind == V.LIST and held.shape is not None:
                env[name] = replace_value(held, shape=None)  # `layers.append(...)`: its length changes
            elif held is not None and held.fields is not None and any(fv.const is not None for _, fv in held.fields):
                # `configure(cfg)`, `cfg.update(...)`: its integer fields may change
                kept = tuple((n, fv) for n, fv in held.fields if fv.const is None)
                env[name] = replace_value(held, fields=kept or None)

    def _append_tracer(self, call: cst.Call) -> Optional[tuple[str, Value]]:
        """``xs.append(v)`` with ``v`` a tracer, ``xs`` a list display that is empty
        (``xs = []``) or holds only tracers appended so far: every item of ``xs`` is a
        tracer (``np.stack(xs)`` converts one): the name and its value after the call
        (the call's other effects, which forget what ``xs`` held, come first)."""
        func = call.func
        if type(func) is not cst.Attribute or func.attr.value != "append" or type(func.value) is not cst.Name \
                or len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
            return None
        name = func.value.value
        held = self.env.get(name)
        if held is None or held.kind != V.LIST or held.fields is not None or held.pytype not in (None, "list") \
                or self.unit.host:
            return None
        v = self.value(call.args[0].value)
        grown = held.elements == () or (held.elements is None and held.item is not None and held.item.traced)
        if not (grown and v.traced):
            return None
        item = v if held.item is None else V.join(held.item, v)
        return name, replace_value(held, elements=None, item=item, shape=None)

    def _store_into(self, target: cst.CSTNode) -> None:
        """``d["a"] = v``, ``lst[0] = v``: what the model knew the container held
        (tracers read back by ``d[k]``, ``lst[i]``) is forgotten."""
        if type(target) is cst.Subscript and type(target.value) is cst.Name:
            name = target.value.value
            held = self.env.get(name)
            if held is not None and _holds_tracers(held):
                kept = tuple(f for f in held.fields or () if not f[1].traced) or None
                self.env[name] = replace_value(held, elements=None, item=None, fields=kept)
        elif type(target) in (cst.Tuple, cst.List):
            for el in target.elements:
                self._store_into(el.value)

    def _transform_decorator(self, d: cst.BaseExpression) -> bool:
        """``@jax.vmap``, ``@partial(jax.vmap, in_axes=...)``, ``@jax.jit``..."""
        if type(d) is cst.Call:
            q = self.qualname(d.func)
            if q == "functools.partial" and d.args:
                return self.qualname(d.args[0].value) in apis.TRANSFORMS
            return q in apis.TRANSFORMS
        return self.qualname(d) in apis.TRANSFORMS

    def _namespace_param(self, unit: Unit, p) -> Optional[str]:
        """``def f(x, xnp=np)``: the array namespace ``xnp`` is at every call seen
        (model/kinds.namespace_param), when those calls are all of ``f``'s uses."""
        d = p.default
        if type(d) is not cst.Name and type(d) is not cst.Attribute:
            return None
        dotted = dotted_name(d)
        q = self.imports.resolve_expr(d) if dotted is not None else None
        if q not in kinds.NAMESPACES or self.module_env.get(dotted.split(".", 1)[0]) is not None:
            return None
        if not self._callers_known(unit):
            return None
        k = unit.arg_kinds.get(p.name)
        if k is None:
            # no call of this file, nor one of another module that passes a carried kind
            # (those are sent): traced calls that all leave it out give the default
            if not unit.reasons or p.name in unit.traced_params:
                return None
            k = kinds.DEFAULT
        return kinds.namespace_param(q, k)

    def _callers_known(self, unit: Unit, through_transforms: bool = False) -> bool:
        """Are the calls that gave ``unit`` its parameter kinds all its uses?  A plain
        function (no decorator, not a method) whose name this file writes only in its
        ``def`` and the calls seen, and that no importing module uses otherwise.
        ``through_transforms``: for a parameter a vmap decorator hands over unchanged
        (``in_axes`` None), transformation decorators pass the calls' values on."""
        node = unit.node
        if unit.escapes or type(node) is not cst.FunctionDef:
            return False
        if node.decorators and not (through_transforms and all(
                self._transform_decorator(d.decorator) for d in node.decorators)):
            return False
        if unit.cls is not None:
            # a method: called as `self.name(...)` only; a private one (`_fill`), or any in
            # a file linted alone (no other module calls it)
            private = unit.name.startswith("_") and not unit.name.endswith("__")
            if not (private or self.settings.module is None) or unit.cls.is_jax_module:
                return False
            return kinds.attribute_uses(self.text, unit.name) == 1 + unit.local_calls
        return kinds.uses_of(self.text, unit.name)[0] - kinds.exported_mentions(self.text, unit.name) \
            == 1 + unit.local_calls

    def _carry_sites_known(self, unit: Unit) -> bool:
        """Are the loop sites that gave ``unit`` its carry (model/calls.py) all the uses
        of its name: a plain undecorated function of this file, its name written in its
        ``def`` and at those sites only?"""
        node = unit.node
        if unit.escapes or unit.foreign_uses or type(node) is not cst.FunctionDef or node.decorators:
            return False
        if unit.cls is not None:
            # a method: its name written in its `def` and as `self.<name>` at those sites
            # only (no other attribute `.name` anywhere in the file)
            dotted = self.text.count("." + unit.name)
            return kinds.uses_of(self.text, unit.name)[0] == 1 \
                and dotted == kinds.uses_of(self.text, "self." + unit.name)[0] == unit.carry_sites
        return kinds.uses_of(self.text, unit.name)[0] - kinds.exported_mentions(self.text, unit.name) \
            == 1 + unit.carry_sites

    def _direct_calls_known(self, unit: Unit) -> bool:
        """Are the calls of ``unit``, a method of a module class, that this file records
        (``direct_calls``, model/calls.py) all its calls: no transformation takes it, no
        other module's fact reaches it or uses the class, and every mention of the
        class's name (for ``__call__``: `Block()(x, (2, 3))`, not `nn.remat(Block)`,
        `Block().apply`, a subclass, an instance stored; nor `self(x)` in the class) or
        of the method's name (`self.pool(x, 3)`, `method=Net.encode`) but its
        definition is such a call?"""
        if unit.trace_sites or unit.origins or unit.foreign_uses or unit.escapes or unit.cls is None \
                or not unit.direct_calls or unit.cls.name in self.index.used_classes:
            return False  # (`used_classes`: another module uses the class, project/facts.py)
        if not all(r.startswith((MODULE_METHOD, "called from traced")) for r in unit.reasons):
            return False
        if any(self.qualname(d.decorator) != "flax.linen.compact" for d in unit.node.decorators):
            return False  # (`@nn.jit def encode(...)`: a lifted transformation traces what it is given)
        if unit.name != "__call__":
            # `self.pool(x, 3)`, `model.apply(v, x, method=Net.encode)`: every mention of
            # the method's name, an attribute too, but its `def` is a call seen
            # (each class of the file may define it, `GMM.plot` and `BMM.plot`: every `def`
            # is no use, and `model.plot(5, 4)` counts as a call of each, model/calls.py)
            defs = self._def_counts().get(unit.name, 0)
            return kinds.attribute_uses(self.text, unit.name) - self._import_receiver_uses(unit.name) \
                == defs + unit.direct_calls
        name = unit.cls.name
        return kinds.uses_of(self.text, name)[0] - kinds.exported_mentions(self.text, name) \
            == 1 + unit.direct_calls and not _instance_handed(unit.cls.node)

    def _def_counts(self) -> dict[str, int]:
        """How many ``def``s of the file bear each name (counted once per file)."""
        memo = self.__dict__.get("_def_counts_memo")
        if memo is None or memo[0] is not self.index:
            counts: dict[str, int] = {}
            for u in self.index.units:
                if type(u.node) is cst.FunctionDef:
                    counts[u.name] = counts.get(u.name, 0) + 1
            memo = self.__dict__["_def_counts_memo"] = (self.index, counts)
        return memo[1]

    def _import_receiver_uses(self, attr: str) -> int:
        """How many times ``attr`` is written as an attribute of a name that only an import
        binds (``plt.plot`` after ``import matplotlib.pyplot as plt``): a module's function,
        not a method of this file's classes.  A name written anywhere but in an import line
        or before a ``.`` (`plt = fig`, `f(plt)`) is not counted: its attributes stay uses."""
        memo = self.__dict__.setdefault("_import_receiver_memo", {})
        if attr not in memo:
            text = self.text
            out = 0
            for name in self.index.imports.names:
                if "." in name or f"{name}." not in text:
                    continue
                pat = rf"(?<![\w.]){re.escape(name)}(?!\w)"
                pure = True
                for m in re.finditer(pat + r"(?!\s*\.)", text):
                    line = text[text.rfind("\n", 0, m.start()) + 1:m.start()].lstrip()
                    if not line.startswith(("import ", "from ")) or "(" in line:
                        pure = False
                        break
                if pure:
                    out += len(re.findall(pat + rf"\s*\.\s*{re.escape(attr)}(?!\w)", text))
            memo[attr] = out
        return memo[attr]

    def _traced_callers_known(self, unit: Unit) -> bool:
        memo = self.__dict__.setdefault("_traced_callers_memo", {})
        if id(unit) not in memo:
            memo[id(unit)] = self._traced_callers_known_uncached(unit)
        return memo[id(unit)]

    def _traced_callers_known_uncached(self, unit: Unit) -> bool:
        """Are the calls from traced code of this file all that trace ``unit``: a method
        of a flax/equinox/haiku module class (traced by default: any caller) that no
        transformation takes itself (`jax.jit(model.apply)`) and no other module's fact
        reaches, whose class this file only calls and whose `apply` it only calls?"""
        if unit.trace_sites or unit.origins or unit.foreign_uses:
            return False
        if type(unit.node) is cst.Lambda:
            # `step = lambda xs: ...` bound once, every other use of the name a call
            holder = unit.parent
            names = [n for n, entries in (holder.bindings.items() if holder is not None else ())
                     if len(entries) == 1 and entries[0][1] is unit.node]
            if len(names) != 1 or not all(r.startswith(("called from traced", "defined inside traced"))
                                          for r in unit.reasons):
                return False
            found = re.findall(rf"(?<![\w.]){re.escape(names[0])}(?!\w)(\s*\()?", self.text)
            return len(found) >= 2 and sum(1 for f in found if not f) == 1
        if unit.cls is None:
            return False
        if not all(r.startswith((MODULE_METHOD, "called from traced")) for r in unit.reasons):
            return False
        # every use of the class is a call (not `nn.scan(Cls, ...)`), and its `apply` is never
        # handed on as a value (`apply_fn=model.apply`: called where the model does not look)
        name = re.escape(unit.cls.name)
        text = self.text
        if re.search(rf"(?<![\w.]){name}(?!\w)(?!\s*\()(?!\s*[:)]\s*$)", text, re.M) \
                or re.search(r"\.apply\b(?!\s*\()", text) or "apply_fn" in text:
            return False
        return True

    def _dispatch(self, node: cst.CSTNode) -> None:
        hooks = self._hooks.get(type(node))
        if hooks:
            for h in hooks:
                h(node)

    def _dispatch_leave(self, node: cst.CSTNode) -> None:
        hooks = self._leave_hooks.get(type(node))
        if hooks:
            for h in hooks:
                h(node)

    def _host_value(self, e: cst.BaseExpression) -> bool:
        """Is ``e`` known to be a NumPy array (its dtype says nothing of x64)?"""
        return self.value(e).kind == V.NPARRAY

    def block(self, stmts: Iterable[cst.CSTNode]) -> bool:
        """Walk statements; return True if the block always leaves early."""
        raised = 0
        guarded: list[str] = []
        try:
            for s in stmts:
                if self.statement(s):
                    return True
                if type(s) is cst.If:
                    if self.x64.skip_guard(s, self._host_value):
                        # `if not jax.config.jax_enable_x64: self.skipTest(...)`: the
                        # rest of the block runs only with x64 on
                        raised += 1
                        self.x64_depth += 1
                    name = none_guard(s)
                    if name is not None:
                        # `if p is None: return ...` (also through an alias `p = param`)
                        for n in (name, self._alias_of(name) or self._alias_before(name, s)):
                            if n is not None and n not in self.not_none:
                                guarded.append(n)
                                self.not_none.add(n)
                    elif s.orelse is None and isinstance(last_small(s), (cst.Return, cst.Raise)):
                        # `if isinstance(v, jax.core.Tracer): raise TypeError(...)`: what
                        # follows runs only where the test is false (v is concrete)
                        for n in self._concrete_names_if_false(s.test):
                            self.env[n] = V.UNKNOWN_VALUE
                elif type(s) is cst.SimpleStatementLine and self.x64.active and any(
                        isinstance(small, cst.Expr) and self.x64.switches_on(small.value, self.unit) for small in s.body):
                    # `self.enter_context(jax.enable_x64())`, a helper running
                    # `jax.config.update("jax_enable_x64", True)`: on from here
                    raised += 1
                    self.x64_depth += 1
            return False
        finally:
            self.x64_depth -= raised
            self.not_none.difference_update(guarded)

    def statement(self, s: cst.CSTNode) -> bool:
        t = type(s)
        if t is not cst.SimpleStatementLine and not isinstance(s, cst.BaseCompoundStatement):
            # the small statements of a one-line suite: `def f(): x = ...; x[0] = 1`
            return self.small(s)
        if t is cst.SimpleStatementLine:
            for small in s.body:
                if self.small(small):
                    return True
            return False
        self._dispatch(s)
        if t is cst.If:
            return self._if(s)
        if t is cst.For:
            self.expr(s.iter)
            self._loop(s, lambda: self._bind(s.target, self._element_of(s.iter, s.target)), s.body, s.orelse)
        elif t is cst.While:
            self.expr(s.test)
            self._loop(s, None, s.body, s.orelse)
        elif t is cst.FunctionDef:
            self._def(s)
        elif t is cst.ClassDef:
            self._classdef(s)
        elif t is cst.With:
            x64 = 0
            raises = 0
            for item in s.items:
                self.expr(item.item)
                if self.x64.is_enable(item.item):
                    x64 += 1
                if _expects_exception(item.item):
                    raises += 1
                if item.asname is not None:
                    self._bind(item.asname.name, V.UNKNOWN_VALUE)
            self.x64_depth += x64
            self.raises_depth += raises
            # `with jax.ensure_compile_time_eval():` computes what does not depend on a
            # tracer eagerly, at trace time: jnp results of concrete data are concrete
            was_eager = self.eager
            if any(isinstance(item.item, cst.Call) and self.qualname(item.item.func) in apis.COMPILE_TIME_EVAL
                   for item in s.items):
                self.eager = True
            try:
                ends = self.block(s.body.body)
            finally:
                self.x64_depth -= x64
                self.raises_depth -= raises
                self.eager = was_eager
            self._dispatch_leave(s)
            return ends
        elif t is cst.Try or t is getattr(cst, "TryStar", None):
            self.caught.append(self._handled(s))
            body = s.body.body
            # one simple statement (a compound one's `body` is a block, not a sequence)
            self.caught_alone.append(len(body) == 1 and type(body[0]) is cst.SimpleStatementLine
                                     and len(body[0].body) == 1)
            try:
                self.block(s.body.body)
            finally:
                self.caught.pop()
                self.caught_alone.pop()
            dead = id(s) in self.index.dead_handlers  # an import guard's handlers: JAX is installed
            for h in s.handlers:
                if dead:
                    self._open()
                if h.type is not None:
                    self.expr(h.type)
                if h.name is not None:
                    self._bind(h.name.name, V.UNKNOWN_VALUE)
                self.block(h.body.body)
                if dead:
                    self._close()  # `except ImportError: jnp = None` binds nothing that runs
            if s.orelse is not None:
                self.block(s.orelse.body.body)
            if s.finalbody is not None:
                self.block(s.finalbody.body.body)
        elif t is cst.Match:
            self.expr(s.subject)
            envs = []
            for case in s.cases:
                self._open()
                # `case (i, k):`, `case [first, *rest]`, `case {"a": v, **rest}`: the
                # capture names bind parts of the subject (unknown here)
                for n in (case.pattern, *descendants(case.pattern)):
                    tn = type(n)
                    if tn is cst.MatchAs or tn is cst.MatchStar or tn is cst.MatchMapping:
                        target = n.rest if tn is cst.MatchMapping else n.name
                        if target is not None:
                            self._bind(target, V.UNKNOWN_VALUE)
                if case.guard is not None:
                    self.expr(case.guard)
                ends = self.block(case.body.body)
                changes = self._close()
                if not ends:
                    envs.append(changes)
            self._join(envs or [({}, {})])
        self._dispatch_leave(s)
        return False

    def small(self, s: cst.CSTNode) -> bool:
        self._dispatch(s)
        t = type(s)
        if t is cst.Expr:
            self.expr(s.value)
        elif t is cst.Assign:
            self.jit_calls.note_assign(s)
            for tgt in s.targets:
                self._store_into(tgt.target)
            self.expr(s.value)
            v = self.value(s.value)
            if type(s.value) is cst.Name and v.key is None and (v.kind == V.KEY or key_like_name(s.value.value)):
                # `keys = rng_key`: one key under two names (its identity is made at first
                # use; made now, both names share it)
                token = self.key_token(s.value)
                if token is not None:
                    v = v.with_key(token)
            if len(s.targets) > 1 and v.local_array:
                v = replace_value(v, local_array=False)  # `y = z = jnp.zeros(3)`: two names, one array
            for tgt in s.targets:
                self._target_exprs(tgt.target)
                self._bind(tgt.target, v, s.value)
        elif t is cst.AugAssign:
            self.expr(s.value)
            self._target_exprs(s.target)
            old = self.value(s.target)
            new = self.value(s.value)
            if isinstance(s.target, (cst.Name, cst.Attribute)):
                combined = Value(
                    kind=V.ARRAY if V.ARRAY in (old.kind, new.kind) else (old.kind if old.kind == new.kind else V.UNKNOWN),
                    traced=old.traced or new.traced,
                    deps=old.deps | new.deps,
                )
                self._bind(s.target, combined)
        elif t is cst.AnnAssign:
            if s.value is not None:
                self.expr(s.value)
                self._bind(s.target, self.value(s.value), s.value)
        elif t is cst.Return:
            if s.value is not None:
                self.expr(s.value)
            self._dispatch_leave(s)
            return True
        elif t is cst.Raise:
            if s.exc is not None:
                self.expr(s.exc)
            self._dispatch_leave(s)
            return True
        elif t is cst.Assert:
            self.expr(s.test)
            if s.msg is not None:
                self.expr(s.msg)
        elif t is cst.Del:
            self.expr(s.target)
        elif t is cst.Continue or t is cst.Break:
            self._dispatch_leave(s)
            return True
        elif t is cst.Import or t is cst.ImportFrom:
            for name in _imported_names(s):
                self.env.pop(name, None)
        self._dispatch_leave(s)
        return False

    # -- control flow -------------------------------------------------------------
    def _if(self, s: cst.If) -> bool:
        self.expr(s.test)
        dead = self._dead_under_trace(s.test)
        if dead is True:  # `if p is None:` that no traced caller reaches
            orelse = s.orelse
            if orelse is None:
                return False
            return self.statement(orelse) if isinstance(orelse, cst.If) else self._else(orelse)
        if dead is False:
            return self.block(s.body.body)
        untraced = self.untraced_in_branches(s.test)
        self._open()
        saved = self._untrace(untraced[0]) if untraced else None
        for name in self._concrete_names(s.test):
            self.env[name] = V.UNKNOWN_VALUE  # narrowed: a Python value in this branch
        for name in self._host_names(s.test):
            self.env[name] = Value(kind=V.NPARRAY)  # narrowed: `isinstance(v, np.ndarray)`
        x64 = self.x64.condition(s.test, self._host_value)  # `if jax.config.jax_enable_x64:`
        self.x64_depth += x64 is True
        try:
            body_ends = self.block(s.body.body)
        finally:
            self.x64_depth -= x64 is True
        for name, v in (saved or {}).items():
            self.env[name] = v
        then_state = self._close()
        self._open()
        saved = self._untrace(untraced[1]) if untraced else None
        for name in self._host_names_if_false(s.test):
            self.env[name] = Value(kind=V.NPARRAY)  # narrowed: `if not isinstance(v, np.ndarray): ... else:`
        orelse = s.orelse
        self.x64_depth += x64 is False
        try:
            if orelse is None:
                else_ends = False
            elif isinstance(orelse, cst.If):
                else_ends = self.statement(orelse)
            else:
                else_ends = self._else(orelse)
        finally:
            self.x64_depth -= x64 is False
        for name, v in (saved or {}).items():
            self.env[name] = v
        else_state = self._close()
        live = []
        if not body_ends:
            live.append(then_state)
        if not else_ends:
            live.append(else_state)
        self._join(live or [then_state, else_state])
        if untraced and untraced[1] and orelse is None and body_ends and type(self.unit.node) is cst.FunctionDef \
                and any(st is s for st in self.unit.node.body.body):
            # `if use_jax: return ...` at the top of the body: the rest runs for the calls
            # that take no early return only
            self._untrace(untraced[1])
        self._dispatch_leave(s)
        return body_ends and else_ends

    def _untrace(self, names: frozenset) -> dict:
        """In a branch only calls that give these parameters no tracer take: they hold
        what those calls pass (unknown here, no tracer); what they held, to restore."""
        saved = {}
        for name in names:
            v = self.env.get(name)
            if v is not None and v.traced and v.deps == frozenset({name}):
                saved[name] = v
                self.env[name] = V.UNKNOWN_VALUE
        return saved

    def _else(self, orelse: cst.Else) -> bool:
        """The ``else:`` block of an ``if``, between the rules' ``Else`` hooks (a rule
        that follows one path at a time learns where the other branch begins)."""
        self._dispatch(orelse)
        ends = self.block(orelse.body.body)
        self._dispatch_leave(orelse)
        return ends

    def _handled(self, s: cst.CSTNode) -> frozenset[str]:
        """The exceptions the handlers of ``try`` statement ``s`` catch, qualified
        (``jax.errors.ConcretizationTypeError``, ``builtins.TypeError``; ``builtins.BaseException``
        for a bare ``except:``); handlers that only re-raise are left out."""
        out: set[str] = set()
        for h in s.handlers:
            if _reraises(h):
                continue
            if h.type is None:
                out.add("builtins.BaseException")
                continue
            types = [el.value for el in h.type.elements] if isinstance(h.type, cst.Tuple) else [h.type]
            for t in types:
                b = self.builtin_name(t)
                q = f"builtins.{b}" if b else self.qualname(t)
                if q:
                    out.add(q)
        return frozenset(out)

    def _alias_before(self, name: str, stmt: cst.CSTNode) -> Optional[str]:
        """The parameter ``name`` is a copy of where ``stmt`` runs: its one binding
        before ``stmt`` is ``name = param`` (``nbrs = neighbors``; ``nbrs`` may be
        rebound after ``if nbrs is None: return ...``), the parameter never rebound."""
        unit = self.unit
        entries = unit.bindings.get(name)
        if not entries or len(entries) < 2 or unit.param(name) is not None:
            return None
        if any(v is None for _, v in entries):
            return None  # a `def` of that name: where it binds is not followed here
        values = {id(v): v for _, v in entries}
        before = []
        # from the unit's own node: a module's `body` is a tuple of statements, not a node
        for n in descendants(unit.node):
            if n is stmt:
                break
            if id(n) in values:
                before.append(values[id(n)])
        else:
            return None
        if len(before) != 1:
            return None
        value = before[0]
        if isinstance(value, cst.Name) and unit.param(value.value) is not None and value.value not in unit.assigned:
            return value.value
        return None

    def handles(self, *errors: str) -> bool:
        """Does an enclosing ``try:`` of this unit catch one of ``errors`` (qualified
        names: the error and the classes it derives from)?"""
        return any(not c.isdisjoint(errors) for c in self.caught)

    def handles_alone(self) -> bool:
        """Is the current statement the one statement of the innermost ``try:``, whose
        handlers catch anything (``except Exception:``)?  Written to show that it fails."""
        return bool(self.caught) and self.caught_alone[-1] and not self.caught[-1].isdisjoint(_CATCH_ALL)

    def _loop(self, node, bind_target, body, orelse) -> None:
        frame = LoopFrame(node, len(self.loop_stack) + 1, self.env, self.consumed)
        self.loop_stack.append(frame)
        try:
            if bind_target is not None:
                bind_target()
            self.block(body.body)
            self._dispatch_leave(node)
        finally:
            self.loop_stack.pop()
        body_state = self._close()
        # the body may run zero times: the state at entry, with what the rules added to it
        zero = {k: site for k, site in frame.entry_consumed.extra.items() if k not in self.consumed}
        self._join([body_state, ({}, zero)])
        if orelse is not None:
            self.block(orelse.body.body)

    # -- definitions -----------------------------------------------------------
    def _def(self, s: cst.FunctionDef) -> None:
        for dec in s.decorators:
            self.expr(dec.decorator)
        for p in (*s.params.params, *s.params.kwonly_params, *s.params.posonly_params):
            if p.default is not None:
                self.expr(p.default)
        unit = self.index.unit_of.get(id(s))
        if unit is None:
            return
        self._note_site(id(s.name))
        unit.closure_env = dict(self.env) if not self.unit.is_module else None
        if self.unit.traced and not self.unit.host and unit.cls is None and not unit.host:
            # a function defined inside traced code runs under that trace when called
            unit.mark_traced(f"defined inside traced `{self.unit.name}`")
        elif self.concrete and unit.cls is None and not unit.host:
            gradtrace.mark_nested(self.unit, unit)  # its captured tracers hold values too
        self.env[s.name.value] = Value(kind=V.FUNCTION, unit=unit)

    def _classdef(self, s: cst.ClassDef) -> None:
        for dec in s.decorators:
            self.expr(dec.decorator)
        for b in s.bases:
            self.expr(b.value)
        self.env.open()
        self.block(s.body.body)
        self.env.close()  # the class body's names are not the enclosing scope's
        self.env[s.name.value] = V.UNKNOWN_VALUE

    # -- expressions -----------------------------------------------------------
    def expr(self, node: cst.CSTNode) -> None:
        """Offer every node of an expression to the rules (pre-order).  Only
        expressions are walked: the attribute name in ``a.b`` and the keyword
        in ``f(k=v)`` are not variable references and are not visited."""
        t = type(node)
        hooks = self._hooks.get(t)
        if hooks:
            for h in hooks:
                h(node)
        if t in _LEAVES:
            hooks = self._leave_hooks.get(t)
            if hooks:
                for h in hooks:
                    h(node)
            return
        if t is cst.Attribute:
            self.expr(node.value)
            self._attribute_effects(node)
            self._dispatch_leave(node)
            return
        if t is cst.Arg:
            self.expr(node.value)
            self._dispatch_leave(node)
            return
        if t is cst.Lambda:
            unit = self.index.unit_of.get(id(node))
            if unit is not None:
                unit.closure_env = dict(self.env) if not self.unit.is_module else None
                if self.unit.traced and not self.unit.host and not unit.host:
                    unit.mark_traced(f"defined inside traced `{self.unit.name}`")
                elif self.concrete and not unit.host:
                    gradtrace.mark_nested(self.unit, unit)
            for p in node.params.params:
                if p.default is not None:
                    self.expr(p.default)
            return
        if t in COMPREHENSIONS:
            self._comprehension(node)
            return
        if t is cst.IfExp:
            truth = self._truth_under_trace(node.test)
            if truth is not None:
                # `a.shape if hasattr(a, "shape") else np.asarray(a).shape`: under
                # trace only one branch runs
                self.expr(node.test)
                self.expr(node.body if truth else node.orelse)
                self._dispatch_leave(node)
                return
            x64 = self.x64.condition(node.test, self._host_value)  # `jnp.float64 if X64 else jnp.float32`
            if x64 is not None:
                self.expr(node.test)
                for branch, on in ((node.body, x64), (node.orelse, not x64)):
                    self.x64_depth += on
                    try:
                        self.expr(branch)
                    finally:
                        self.x64_depth -= on
                self._dispatch_leave(node)
                return
        if t is cst.Call:
            self._call_effects(node)
            grown = self._append_tracer(node)
            self._forget_dict_entries(node)
            if grown is not None:
                self.env[grown[0]] = grown[1]
        elif t is cst.Subscript:
            self._subscript_effects(node)
        elif t is cst.NamedExpr:
            self.expr(node.value)
            self._bind(node.target, self.value(node.value))
            return
        for child in children(node):
            self.expr(child)
        self._dispatch_leave(node)

    def _comprehension(self, node) -> None:
        """A comprehension runs its element once per item: walk it like a loop."""
        self.env.open()  # the comprehension's names do not leak out
        fors = []
        f = node.for_in
        while f is not None:
            fors.append(f)
            f = f.inner_for_in
        self.expr(fors[0].iter)
        frame = LoopFrame(node, len(self.loop_stack) + 1, self.env, self.consumed)
        self.loop_stack.append(frame)
        try:
            for i, f in enumerate(fors):
                if i:
                    self.expr(f.iter)
                self._bind(f.target, self._element_of(f.iter, f.target))
                for cond in f.ifs:
                    self._dispatch(cond)
                    self.expr(cond.test)
            if isinstance(node, cst.DictComp):
                self.expr(node.key)
                self.expr(node.value)
            else:
                self.expr(node.elt)
                # in the comprehension's scope: the value of one element (a rule may have
                # asked for the comprehension's value before its scope was open)
                item = self.value(node.elt)
                n = self._comprehension_length(node) if type(node) is cst.ListComp else None
                self._memo[id(node)] = Value(kind=V.ITERATOR if type(node) is cst.GeneratorExp else V.LIST, item=item,
                                             shape=(n,) if n is not None else None)
            self._dispatch_leave(node)
        finally:
            self.loop_stack.pop()
        self.env.close()
        self.consumed.apply(self.consumed.close())  # keys consumed inside stay consumed
        self.env.close()

    def _target_exprs(self, target: cst.CSTNode) -> None:
        """Visit the sub-expressions of an assignment target (``x[i]``, ``a.b``)."""
        if isinstance(target, (cst.Subscript, cst.Attribute)):
            self.expr(target)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self._target_exprs(el.value)
        elif isinstance(target, cst.StarredElement):
            self._target_exprs(target.value)


_RAISES_CONTEXTS = frozenset(
    {"raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp", "assertRaisesWithLiteralMatch"}
)

def _reraises(h: cst.ExceptHandler) -> bool:
    """A handler whose body only re-raises what it caught (``raise``, ``raise e``)."""
    body = h.body.body
    if len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine) or len(body[0].body) != 1:
        return False
    r = body[0].body[0]
    if not isinstance(r, cst.Raise) or r.cause is not None:
        return False
    return r.exc is None or (isinstance(r.exc, cst.Name) and h.name is not None
                             and isinstance(h.name.name, cst.Name) and r.exc.value == h.name.name.value)


def _expects_exception(e: cst.BaseExpression) -> bool:
    """``pytest.raises(...)``, ``self.assertRaises(...)``, ``self.assertRaisesRegex(...)``:
    a context whose body is there to raise."""
    if isinstance(e, cst.Call):
        name = dotted_name(e.func)
        return name is not None and name.rsplit(".", 1)[-1] in _RAISES_CONTEXTS
    return False

def _imported_names(s: cst.CSTNode) -> list[str]:
    out = []
    names = getattr(s, "names", None)
    if isinstance(names, (list, tuple)):
        for alias in names:
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                out.append(alias.asname.name.value)
            elif isinstance(alias.name, cst.Name):
                out.append(alias.name.value)
            elif isinstance(alias.name, cst.Attribute):
                d = dotted_name(alias.name)
                if d:
                    out.append(d.split(".")[0])
    return out
