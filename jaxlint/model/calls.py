"""Interprocedural effects of calls: a call from traced code marks its callee
traced (which parameters receive tracers, arrays, pytree classes, None), a call to
an imported function is recorded for the module that defines it
(``ExternalCall``), and the PRNG keys a callee consumes or the fresh functions it
returns are read from the callee."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

import libcst as cst

from jaxlint.model import pytree_methods
from jaxlint.model import apis, arg_shapes, dispatch, gradtrace, instances, keyflow, kinds, slots
from jaxlint.model import values as V
from jaxlint.model.constants import holds_host_numpy_array, host_array_expr
from jaxlint.model.index import applied_method, made_function
from jaxlint.model.narrowing import is_none
from jaxlint.model.overrides import is_stub, none_guarded_calls, subclass_overrides
from jaxlint.model.scopes import bound_once, bound_receiver, instance_class, rebound_wrapper, writes
from jaxlint.model.transformed import filtered_call_arrays
from jaxlint.model.units import MODULE_METHOD, Unit, literal_const
from jaxlint.model.walk import arg_at, descendants, dotted_name, positional_args


_ELSEWHERE = object()  # `super().m(x)` of a base another module defines (model/calls.py)


@dataclass
class ExternalCall:
    """A call from traced code to a function this file imports (a fact for the
    module that defines it): which arguments are tracers."""

    callee: str  # as written: ``losses.loss_fn``, ``U.warmup``, ``loss_fn``
    node: cst.Call
    caller: Unit
    traced_pos: tuple[int, ...]
    traced_kw: tuple[str, ...]
    # of those, the arguments known to be arrays (not lists or pytrees)
    array_pos: tuple[int, ...] = ()
    array_kw: tuple[str, ...] = ()
    # what the call passes: the number of positional arguments, the keywords, and
    # which of them are a literal None (for branches no traced caller reaches)
    n_pos: int = 0
    keywords: tuple[str, ...] = ()
    none_pos: tuple[int, ...] = ()
    none_kw: tuple[str, ...] = ()
    # the Python constants the call passes (``check=False``): (position, value) and
    # (keyword, value); None with ``*args``/``**kwargs`` (which parameter gets what is unknown)
    const_pos: Optional[tuple[tuple[int, object], ...]] = None
    const_kw: Optional[tuple[tuple[str, object], ...]] = None
    # the flat pytree class records (model/pytrees.py) of traced arguments of a known class
    class_pos: tuple[tuple[int, dict], ...] = ()
    class_kw: tuple[tuple[str, dict], ...] = ()
    # a method called on an instance (model/instances.py), for the line of the call:
    # ``.matmul`` (``Matern32(s).matmul(x)``), ``[d`` (``d[mask]``: ``__getitem__``)
    method: str = ""
    # the call runs what a call of ``callee`` returned (``Value.instance``): an instance
    # of a class (its method: ``Matern32(s).matmul(x)``: "matmul"; ``d[i]``: "__getitem__";
    # ``obj(x)``: "") or what a factory made (``step = make_step(3)`` ... ``step(x)``: "";
    # ``tx = make_update()`` ... ``tx.update(g, s)``: "update", the holder's method)
    returned: Optional[str] = None
    # the shapes the call passes (model/arg_shapes.py), or None
    shapes: Optional[dict] = None
    # a constructor call (``Cls(**params)`` in traced code) with a traced ``*args``/``**kwargs``
    star_traced: bool = False
    # ``Cls(x)`` in traced code given a tracer: its ``__init__`` runs with it
    ctor: bool = False
    fresh: bool = False  # a method called on an object the calling trace built (`g = Game(x); g.m(y)`)
    # the receiver is a traced instance of a pytree class of that module (`cosmo.distance(a)`,
    # `cosmo.k`: model/pytree_methods.py): the method runs with its data leaves as tracers;
    # ``read``: an attribute read, which runs the member only where it is a property
    self_leaves: bool = False
    read: bool = False
    # ``self.m(...)`` in a method of a module-level class (``callee`` ``@mod:Cls``,
    # ``returned`` "m"): the overrides of ``m`` in the project's subclasses of other
    # modules that inherit the caller run it too (model/overrides.py, project/facts.py)
    overrides: bool = False
    # a call from a function differentiated outside jit (model/gradtrace.py): the callee
    # runs with tracers of concrete values, not under a trace
    grad: bool = False


class CallEffects:
    """What calls do to other units, for ``Interpreter`` (a mixin)."""

    def key_consumer(self, call: cst.Call) -> list[tuple[cst.BaseExpression, str, str]]:
        """The arguments of ``call`` whose PRNG key the callee hands straight to a
        ``jax.random`` consumer (a function of this file, or one imported from the
        project; not a generator), as (argument, callee name, consumer short name)."""
        func = call.func
        if any(a.star for a in call.args):
            return []
        if isinstance(func, cst.Attribute) and type(func.value) is cst.Name and func.value.value == "self" \
                and self.unit.cls is not None and self.unit.params and self.unit.params[0].name == "self":
            # `self.init_weights(key, n)`: a method of this class that draws from a parameter
            method = self.unit.cls.methods.get(func.attr.value)
            if method is None:
                # `self.ff_block(x, key=key)`: an instance of a project class set in `__init__`
                return self._called_instance_consumer(call, func)
            if not method.consumes_keys and self._left_to_subclasses(method):
                # `self.sample(key)` of an abstract `sample`: every subclass's override draws
                found = self.index.imported_key_consumers.get(f"@sub:{self.unit.cls.name}.{func.attr.value}")
                if found is None:
                    return []
                return self._consumed_args(call, f"self.{func.attr.value}", [tuple(p) for p in found["params"]],
                                           found["consumes"])
            if not method.consumes_keys or method.is_generator \
                    or not isinstance(method.node, cst.FunctionDef) or not bound_receiver(method):
                return []
            return self._consumed_args(call, f"self.{func.attr.value}",
                                       [(p.name, p.kind, p.index) for p in method.params[1:]], method.consumes_keys)
        if isinstance(func, cst.Attribute):  # `proposals.accept(key, ...)`: through an imported module
            held = self._haiku_apply_key(call)
            if held is not None:
                return held
            name = dotted_name(func)
            found = self.index.imported_key_consumers.get(name) if name is not None else None
            if found is None and name is not None and f"{name}.__init__" in self.index.imported_key_consumers:
                # `layers.Conv(n, key=key)`: a project class whose `__init__` draws from `key`
                return self._constructor_consumer(call, name)
            if found is None and type(func.value) is cst.Name:
                # `q.random_action(key)`, `q: BaseQ` (or `q = BaseQ(...)`): the class's method
                return self._instance_method_consumer(call, func)
            if found is None or self.lookup(name.split(".", 1)[0]) is not None:  # type: ignore[union-attr]
                return []
            return self._consumed_args(call, name, [tuple(p) for p in found["params"]],  # type: ignore[arg-type,misc]
                                       found["consumes"])
        if isinstance(func, cst.Call):
            # `jax.jit(sample)(x, key)`, `jax.vmap(worker, in_axes=(None, 0))(key, xs)`: the
            # wrapped function's parameters, in order (outside loops, JAX301 leaves tests
            # alone: two wrapped calls with one key compare two computations there)
            wrapped = self._wrapped_unit(func)
            if wrapped is None:
                # `jax.vmap(noise.worker, in_axes=(None, 0))(key, xs)` of a function imported from the project
                found = self._wrapped_import(func)
                if found is None:
                    # `jax.vmap(self.ff_block, in_axes=(0, None))(x, key)`: an instance's `__call__`
                    held = self._wrapped_instance(func)
                    return self._called_instance_consumer(call, held) if held is not None else []
                return self._consumed_args(call, found[0], [tuple(p) for p in found[1]["params"]],
                                           found[1]["consumes"])
            if type(wrapped.node) is cst.Lambda:
                return self._lambda_consumer(call, wrapped)
            if not wrapped.consumes_keys or wrapped.is_generator or not isinstance(wrapped.node, cst.FunctionDef):
                return []
            return self._consumed_args(call, wrapped.name, [(p.name, p.kind, p.index) for p in wrapped.params],
                                       wrapped.consumes_keys)
        if not isinstance(func, cst.Name):
            return []
        params: list[tuple[str, str, Optional[int]]]
        consumes: dict[str, str]
        v = self.lookup(func.value)
        unit = v.unit if v is not None else self.unit.lookup_def(func.value)
        if unit is None and v is not None and v.kind == V.FUNCTION and v.transform is not None:
            # `step = jax.jit(sample)` called in a loop: `step` hands its arguments to `sample`
            unit = self._wrapped_unit(bound_once(self.index, self.unit, func))
        if unit is None or isinstance(unit.node, cst.ClassDef):
            # `Conv(n, key=key)`: a class of this file (or imported from the project) whose
            # `__init__` draws from `key`
            built = self._constructor_consumer(call, func.value)
            if built or unit is not None:
                return built
            if v is not None:
                # `block(x, key=key)` of `block: Block` (or `block = Block(...)`): its `__call__`
                return self._called_instance_consumer(call, func)
        if unit is not None:
            if not unit.consumes_keys or unit.is_generator or not isinstance(unit.node, cst.FunctionDef):
                return []
            params = [(p.name, p.kind, p.index) for p in unit.params]
            consumes = unit.consumes_keys
        else:
            found = self.index.imported_key_consumers.get(func.value)
            if found is None or v is not None:
                return []
            params = [tuple(p) for p in found["params"]]  # type: ignore[misc]
            consumes = found["consumes"]
        return self._consumed_args(call, func.value, params, consumes)

    # the branching primitives: (position of the branch functions, or of the list of them;
    # whether that position holds a list; position of the first operand)
    _BRANCHES = {"jax.lax.cond": ((1, 2), False, 3), "jax.lax.switch": ((1,), True, 2)}

    def branch_key_consumers(self, call: cst.Call) -> list[tuple[cst.BaseExpression, str, str]]:
        """``lax.cond(p, lambda: self.sample(key), lambda: x)``, ``lax.cond(p, draw, keep,
        key)``, ``lax.switch(i, [f, g], key)``: the keys a branch draws from, a key it
        captures (a lambda whose body hands it to a key consumer, or a draw from it in a
        lambda's body) or an operand its function consumes, as ``key_consumer`` gives them
        (the key, the branch as written, the consumer).  JAX traces every branch, and its
        key-reuse checker (``jax_debug_key_reuse``) counts a key any branch consumes as
        consumed by the call (checked on jax 0.10.2: a draw from the key before or after
        such a ``cond`` raises ``KeyReuseError`` whichever branch runs).  Each key once."""
        if type(call.func) is cst.Attribute and call.func.attr.value not in ("cond", "switch"):
            return []  # (most calls: no resolution asked)
        q = self.qualname(call.func)
        spec = self._BRANCHES.get(q or "")
        if spec is None or any(a.star for a in call.args):
            return []
        fn_pos, is_list, first = spec
        pos = positional_args(call)
        branches: list[cst.BaseExpression] = []
        for i in fn_pos:
            if i >= len(pos):
                return []
            v = pos[i].value
            if is_list:
                if not isinstance(v, (cst.List, cst.Tuple)):
                    return []
                branches.extend(el.value for el in v.elements if not isinstance(el, cst.StarredElement))
            else:
                branches.append(v)
        operands = [cst.Arg(value=a.value) for a in pos[first:]]
        if any(a.keyword is not None and a.keyword.value != "operand" for a in call.args):
            return []
        operands += [cst.Arg(value=a.value) for a in call.args if a.keyword is not None]
        out: list[tuple[cst.BaseExpression, str, str]] = []
        seen: set[str] = set()

        def add(arg: cst.BaseExpression, callee: str, how: str) -> None:
            if type(arg) is cst.Name and arg.value not in seen:
                seen.add(arg.value)
                out.append((arg, callee, how))

        for b in branches:
            if type(b) is cst.Lambda:
                unit = self.index.unit_of.get(id(b))
                if unit is None:
                    continue
                params = {p.name for p in unit.params}
                body = b.body
                if type(body) is cst.Call:
                    if self.qualname(body.func) is not None and (self.qualname(body.func) or "").startswith(
                            "jax.random.") and (self.qualname(body.func) or "").rsplit(".", 1)[1] not in (
                            "split", "fold_in", "key_data", "wrap_key_data", "key", "PRNGKey", "clone"):
                        k = arg_at(body, 0, "key")
                        if type(k) is cst.Name and k.value not in params:
                            add(k, "lambda", (self.qualname(body.func) or "").rsplit(".", 1)[1])
                    for arg, callee, how in self.key_consumer(body):
                        if type(arg) is cst.Name and arg.value not in params:
                            add(arg, callee, how)  # a key the lambda captures
                if operands and unit.params:
                    for arg, callee, how in self._lambda_consumer(cst.Call(func=b, args=operands), unit):
                        add(arg, callee, how)
            elif type(b) in (cst.Name, cst.Attribute) and operands:
                for arg, callee, how in self.key_consumer(cst.Call(func=b, args=operands)):
                    add(arg, callee, how)
        return out

    def draw_dim_args(self, call: cst.Call) -> frozenset:
        """The ids of the arguments of ``call`` given for parameters its callee only sizes
        its draw with (model/keyflow.draw_size_params: ``m``, ``n`` of ``def init_layer(key,
        m, n): return normal(key, (m, n))``): a function of this file, a method of this
        class called through ``self``, or a function imported from the project."""
        func = call.func
        if any(a.star for a in call.args):
            return frozenset()
        params: list = []
        dims: list = []
        if type(func) is cst.Name:
            v = self.lookup(func.value)
            unit = v.unit if v is not None else self.unit.lookup_def(func.value)
            if unit is not None and isinstance(unit.node, cst.FunctionDef):
                params, dims = [(p.name, p.kind, p.index) for p in unit.params], keyflow.draw_size_params(unit)
            elif unit is None and v is None:
                found = self.index.imported_key_consumers.get(func.value)
                if isinstance(found, dict):
                    params, dims = [tuple(p) for p in found["params"]], list(found.get("dims") or ())
        elif type(func) is cst.Attribute and type(func.value) is cst.Name and func.value.value == "self":
            cls = self.unit.cls
            m = cls.methods.get(func.attr.value) if cls is not None and self.unit.params \
                and self.unit.params[0].name == "self" else None
            if m is not None and bound_receiver(m) and isinstance(m.node, cst.FunctionDef):
                params = [(p.name, p.kind, None if p.index is None else p.index - 1) for p in m.params[1:]]
                dims = keyflow.draw_size_params(m)
        elif type(func) is cst.Attribute:
            name = dotted_name(func)
            if name is not None and self.lookup(name.split(".", 1)[0]) is None:
                found = self.index.imported_key_consumers.get(name)
                if isinstance(found, dict):
                    params, dims = [tuple(p) for p in found["params"]], list(found.get("dims") or ())
        if not dims:
            return frozenset()
        wanted = set(dims)
        positional = [p for p in params if p[1] in ("pos", "posonly")]
        out = {id(a.value) for i, a in enumerate(positional_args(call))
               if i < len(positional) and positional[i][0] in wanted}
        out |= {id(a.value) for a in call.args if a.keyword is not None and a.keyword.value in wanted}
        return frozenset(out)

    def returned_keys(self, call: cst.Call) -> tuple[str, dict]:
        """(the callee as written, position -> consumer) of the PRNG keys ``call``'s callee
        returns after drawing from them (model/keyflow.returned_keys: a function of this
        file, a method of this class called through ``self``, a function or class method
        imported from the project); ``("", {})`` when none is known."""
        func = call.func
        unit: Optional[Unit] = None
        found = None
        name = dotted_name(func)
        if name is None:
            return "", {}
        if type(func) is cst.Name:
            v = self.lookup(func.value)
            unit = v.unit if v is not None else self.unit.lookup_def(func.value)
            if unit is None and v is None:
                found = self.index.imported_key_consumers.get(func.value)
        elif type(func) is cst.Attribute and type(func.value) is cst.Name and func.value.value == "self":
            cls = self.unit.cls
            if cls is None or not self.unit.params or self.unit.params[0].name != "self":
                return "", {}
            unit = cls.methods.get(func.attr.value)
            if unit is not None and not bound_receiver(unit):
                return "", {}
        elif type(func) is cst.Attribute and self.lookup(name.split(".", 1)[0]) is None:
            found = self.index.imported_key_consumers.get(name)
        if unit is not None:
            return name, keyflow.returned_keys(unit) if isinstance(unit.node, cst.FunctionDef) else {}
        if isinstance(found, dict) and found.get("returns"):
            return name, {(None if pos < 0 else pos): how for pos, how in found["returns"]}
        return "", {}

    def instance_class(self, obj: cst.Name) -> Optional[str]:
        """The project class ``obj`` holds an instance of, as this file writes it: a
        parameter annotated with it (``schedule: EpsilonGreedySchedule``, never rebound),
        or a name the model knows holds one (``q = BaseQ(6)``); None when unknown."""
        p = self.unit.param(obj.value)
        if p is not None and p.ann_class and obj.value not in self.unit.assigned:
            return p.ann_class
        ref = self.value(obj).instance
        if ref and not ref.startswith("@"):
            return ref
        if p is None:
            return self._element_class(obj.value)
        return None

    # the containers whose annotation `C[X]` (or `tuple[X, ...]`) says each element is an `X`
    _SEQUENCES = frozenset({"list", "List", "Sequence", "tuple", "Tuple", "Iterable", "Collection",
                            "typing.List", "typing.Sequence", "typing.Tuple", "typing.Iterable",
                            "collections.abc.Sequence", "collections.abc.Iterable"})

    def _element_class(self, name: str) -> Optional[str]:
        """``g`` of ``[g(key) for g in gens]`` (or ``for g in self.gens:``) where ``gens`` is
        a parameter annotated ``list[Gen]`` (``List``, ``Sequence``, ``tuple[Gen, ...]``),
        never rebound, or ``self.gens`` a field the class annotates so: the class of every
        element, as written.  Only when every binding of ``name`` in the function is such a
        loop over the same class (None otherwise: unknown)."""
        memo = self.scratch_memo.setdefault(("element-class", id(self.unit)), {})
        if name in memo:
            return memo[name]
        memo[name] = None
        node = self.unit.node
        if not isinstance(node, cst.FunctionDef) or name in self.unit.assigned and not self._loop_bound_only(name):
            return None
        found: Optional[str] = None
        for n in descendants(node):
            t = type(n)
            if t is cst.CompFor or t is cst.For:
                target = n.target
                if type(target) is not cst.Name or target.value != name:
                    if any(type(x) is cst.Name and x.value == name for x in descendants(target)):
                        return None  # (bound as part of a tuple: unknown)
                    continue
                ref = self._iter_element(n.iter)
                if ref is None or (found is not None and ref != found):
                    return None
                found = ref
        memo[name] = found
        return found

    def _loop_bound_only(self, name: str) -> bool:
        """Is ``name`` bound in this function only as a ``for`` target (no assignment)?"""
        for n in descendants(self.unit.node):
            t = type(n)
            if t in (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.NamedExpr, cst.WithItem, cst.AsName):
                target = getattr(n, "target", None) or getattr(n, "name", None)
                if target is not None and any(type(x) is cst.Name and x.value == name
                                              for x in [target, *descendants(target)]):
                    return False
        return True

    def _iter_element(self, it: cst.BaseExpression) -> Optional[str]:
        """The element class of an iterable annotated as a sequence of one project-looking
        class: a parameter of this function, or ``self.field`` of this class."""
        ann: Optional[cst.BaseExpression] = None
        if type(it) is cst.Name:
            p = self.unit.param(it.value)
            if p is None or it.value in self.unit.assigned:
                return None
            for param in descendants(self.unit.node.params):  # type: ignore[union-attr]
                if type(param) is cst.Param and param.name.value == it.value and param.annotation is not None:
                    ann = param.annotation.annotation
        elif type(it) is cst.Attribute and type(it.value) is cst.Name and it.value.value == "self" \
                and self.unit.cls is not None and self.unit.params and self.unit.params[0].name == "self":
            for stmt in self.unit.cls.node.body.body:  # type: ignore[union-attr]
                if isinstance(stmt, cst.SimpleStatementLine):
                    for small in stmt.body:
                        if type(small) is cst.AnnAssign and type(small.target) is cst.Name \
                                and small.target.value == it.attr.value:
                            ann = small.annotation.annotation
        if type(ann) is not cst.Subscript or dotted_name(ann.value) not in self._SEQUENCES:
            return None
        elems = [e.slice for e in ann.slice]
        if not elems or not all(type(e) is cst.Index for e in elems):
            return None
        first = elems[0].value  # type: ignore[attr-defined]
        rest = [e.value for e in elems[1:]]  # type: ignore[attr-defined]
        if rest and not (len(rest) == 1 and type(rest[0]) is cst.Ellipsis):
            return None
        ref = dotted_name(first) if type(first) in (cst.Name, cst.Attribute) else None
        return ref if ref and ref[:1].isupper() or (ref and "." in ref and ref.rsplit(".", 1)[1][:1].isupper()) else None

    def class_streams(self, ref: str) -> dict[str, str]:
        """The key attributes the class ``ref`` keeps as a stream (``attr -> method``,
        model/keyflow.key_streams), of this file or imported from the project (the fact
        ``Cls``)."""
        cls = instances.local_class(self, ref)
        if cls is not None:
            return keyflow.key_streams(cls)
        if self.lookup(ref.split(".", 1)[0]) is not None:
            return {}  # a local of that name
        found = self.index.imported_key_consumers.get(ref)
        return dict(found.get("streams") or {}) if isinstance(found, dict) else {}

    def _class_method(self, ref: str, method: str) -> Optional[tuple[list, dict]]:
        """(parameters after ``self``, the ones it consumes) of the method ``method`` of the
        class ``ref`` when it draws from a key parameter (of this file, or the fact
        ``Cls.method`` of another module)."""
        cls = instances.local_class(self, ref)
        if cls is not None:
            m = cls.methods.get(method)
            if (m is None and cls.method(method) is None) or (m is not None and not m.consumes_keys and self._left_to_subclasses(m)):
                # a method the class leaves to its subclasses, each of which draws from the key
                found = self.index.imported_key_consumers.get(f"@sub:{cls.name}.{method}")
                return None if found is None else ([tuple(p) for p in found["params"]], found["consumes"])
            if m is None or not m.consumes_keys or m.is_generator or not isinstance(m.node, cst.FunctionDef) \
                    or not bound_receiver(m) or m.params[0].name != "self":
                return None
            return [(p.name, p.kind, None if p.index is None else p.index - 1) for p in m.params[1:]], m.consumes_keys
        if self.lookup(ref.split(".", 1)[0]) is not None:
            return None
        found = self.index.imported_key_consumers.get(f"{ref}.{method}")
        if found is None:
            return None
        return [tuple(p) for p in found["params"]], found["consumes"]

    @staticmethod
    def _left_to_subclasses(method: Unit) -> bool:
        """A method of a module-level class with no behaviour of its own (an abstract
        ``sample``: model/overrides.is_stub), bound to its instance."""
        cls = method.cls
        return cls is not None and cls.scope is not None and cls.scope.is_module and bound_receiver(method) \
            and bool(method.params) and method.params[0].name == "self" and is_stub(method)

    def _constructor_consumer(self, call: cst.Call, written: str) -> list[tuple[cst.BaseExpression, str, str]]:
        """``Conv(n, key=key)``: building an instance of a project class runs its own
        ``__init__``; the arguments given for the key parameters it draws from (or splits)
        are consumed, as by a call of a helper (two modules built with one key get the
        same weights)."""
        if not call.args:
            return []
        imported = f"{written}.__init__" in self.index.imported_key_consumers
        names = self.scratch_memo.get(("class-names",))
        if names is None:
            names = self.scratch_memo[("class-names",)] = frozenset(c.name for c in self.index.classes)
        if not imported and written not in names:
            return []  # (first: neither a class of this file nor one the facts name)
        ref = instances.constructed(self, written)
        if ref is None and imported:
            ref = written  # imported from the project (the fact `Cls.__init__`), whatever this file's module name
        found = self._class_method(ref, "__init__") if ref is not None else None
        if found is None:
            return []
        return self._consumed_args(call, written, list(found[0]), found[1])

    def _wrapped_instance(self, expr: cst.Call) -> Optional[cst.BaseExpression]:
        """``jax.vmap(self.ff_block, ...)`` / ``jax.vmap(block, ...)``: the object a mapping
        or wrapping transformation wraps when it is a name or ``self.attr`` (None else)."""
        t = apis.transform_for(self.qualname(expr.func))
        pos = positional_args(expr)
        if t is None or not t.wrapper or not pos:
            return None
        fn = pos[0].value
        if type(fn) is cst.Name or (type(fn) is cst.Attribute and type(fn.value) is cst.Name
                                    and fn.value.value == "self"):
            return fn
        return None

    def _called_instance_consumer(self, call: cst.Call, obj: cst.BaseExpression) -> list[tuple[cst.BaseExpression, str, str]]:
        """``block(x, key=key)`` where ``block`` holds an instance of a project class (a
        parameter annotated with it and never rebound, a name bound to ``Block(...)``,
        ``self.block`` set to ``Block(...)`` in ``__init__``): calling it runs the class's own
        ``__call__``, whose key parameters it draws from are consumed."""
        if type(obj) is cst.Name:
            ref = self.instance_class(obj)
        elif type(obj) is cst.Attribute and type(obj.value) is cst.Name and obj.value.value == "self" \
                and self.unit.cls is not None and self.unit.params and self.unit.params[0].name == "self" \
                and self.unit.cls.methods.get(obj.attr.value) is None:
            ref = self.value(obj).instance
        else:
            return []
        if not ref or ref.startswith("@"):
            return []
        found = self._class_method(ref, "__call__")
        if found is None:
            return []
        return self._consumed_args(call, dotted_name(obj) or "", list(found[0]), found[1])

    def _instance_method_consumer(self, call: cst.Call, func: cst.Attribute) -> list[tuple[cst.BaseExpression, str, str]]:
        """``obj.method(key, ...)`` where ``obj`` holds an instance of a project class whose
        ``method`` draws from that parameter."""
        ref = self.instance_class(func.value)  # type: ignore[arg-type]
        if ref is None:
            return []
        found = self._class_method(ref, func.attr.value)
        if found is None:
            return []
        return self._consumed_args(call, dotted_name(func) or func.attr.value, list(found[0]), found[1])

    def _lambda_consumer(self, call: cst.Call, wrapped: Unit) -> list[tuple[cst.BaseExpression, str, str]]:
        """``jax.vmap(lambda k: data.random_state(model, key=k))(keys)``: a lambda whose body
        calls a key consumer (one imported from the project too) with its own parameters;
        the arguments of ``call`` given for those parameters are consumed."""
        body = wrapped.node.body  # type: ignore[union-attr]
        if any(a.star for a in call.args):
            return []
        params = [p for p in wrapped.params if p.kind in ("pos", "posonly")]
        names = {p.name for p in params}
        inner = [(a, callee, how) for a, callee, how in (self.key_consumer(body) if type(body) is cst.Call else ())
                 if type(a) is cst.Name and a.value in names]
        consumes = {a.value: how for a, _, how in inner}
        callee = inner[0][1] if inner else "lambda"
        for name, how in wrapped.consumes_keys.items():
            consumes.setdefault(name, how)
        if not consumes:
            return []
        return self._consumed_args(call, callee, [(p.name, p.kind, p.index) for p in params], consumes)

    def _haiku_apply_key(self, call: cst.Call) -> Optional[list[tuple[cst.BaseExpression, str, str]]]:
        """``f.apply(params, rng, x)`` of ``f = hk.transform(forward)`` (``apply(params,
        state, rng, x)`` with state) where ``forward`` draws from haiku's key stream
        (``hk.next_rng_key()``, ``hk.dropout``): the apply consumes ``rng``, so two applies
        with one key draw the same numbers. None when ``call`` is no such apply."""
        func = call.func
        if type(func) is not cst.Attribute or func.attr.value not in ("apply", "init"):
            return None
        held = self.index.held_function(func, self.unit)
        if held is None or not held.holder.startswith("hk.transform"):
            return None
        memo = self.haiku_draws_memo

        def draws(unit) -> str:
            drawn = memo.get(id(unit))
            if drawn is None:
                drawn = memo[id(unit)] = keyflow.haiku_draws(
                    unit, self.qualname, lambda name: instances.local_class(self, name)) or ""
            return drawn
        found = keyflow.haiku_apply_rng(call, held, draws)
        if found is None:
            return []
        return [(found[0], dotted_name(func) or "apply", found[1])]

    def flax_init_keys(self, call: cst.Call) -> list[cst.BaseExpression]:
        """``model.init(key, x)`` (``init_with_output``) of a flax linen module: the
        module draws its parameters' initial values from ``key`` (given as ``rngs=`` or
        first; a literal ``{"params": key, ...}``: each key in it).  The module is built
        in place (``MLP().init``), bound once to one (``model = MLP(); model.init``) or a
        parameter annotated with one, of a linen class of this file that draws its initial
        parameters (model/keyflow.linen_class_draws) or one of flax's own layers whose default
        initializers draw (``nn.Dense(4).init``; not ``nn.LayerNorm()``); [] otherwise."""
        func = call.func
        if type(func) is not cst.Attribute or func.attr.value not in ("init", "init_with_output") \
                or any(a.star for a in call.args):
            return []
        recv = func.value
        cls_name: Optional[str] = None
        if type(recv) is cst.Name:
            p = self.unit.param(recv.value)
            if p is not None and recv.value not in self.unit.assigned:
                cls_name = p.ann_class or None
            else:
                made = bound_once(self.index, self.unit, recv)
                recv = made if type(made) is cst.Call else recv
        if type(recv) is cst.Call and type(recv.func) in (cst.Name, cst.Attribute):
            q = self.qualname(recv.func)
            if q is not None and q.startswith("flax.linen.") and q.count(".") == 2 \
                    and q[11:] in apis.FLAX_DRAWING_LAYERS:
                cls_name = ""  # `nn.Dense(4)`: flax's own layer, whose default initializers draw
            elif type(recv.func) is cst.Name and self.lookup(recv.func.value) in (None, V.UNKNOWN_VALUE):
                cls_name = recv.func.value
        if cls_name is None:
            return []
        if cls_name:
            cls = instances.local_class(self, cls_name)
            if cls is None or not cls.linen or not keyflow.linen_class_draws(
                    cls, self.qualname, lambda name: instances.local_class(self, name)):
                return []  # (a module whose parameters all start as constants draws nothing)
        given = arg_at(call, 0, "rngs")
        if given is None:
            return []
        if type(given) is cst.Dict:
            out: list[cst.BaseExpression] = []
            for el in given.elements:
                v = getattr(el, "value", None)
                if type(el) is not cst.DictElement or type(v) not in (cst.Name, cst.Attribute):
                    return []
                if not any(type(o) is type(v) and self.code(o).strip() == self.code(v).strip() for o in out):
                    out.append(v)
            return out
        return [given] if type(given) in (cst.Name, cst.Attribute) else []

    def caller_transform_apply_key(self, call: cst.Call) -> Optional[tuple[cst.BaseExpression, str]]:
        """``fun.apply(params, state, rng, x)`` of ``fun = hk.transform_with_state(fun)``,
        a transform of a function the caller hands in (model/keyflow): (rng argument,
        holder), else None."""
        if type(call.func) is not cst.Attribute or call.func.attr.value != "apply":
            return None
        return keyflow.caller_transform_apply_rng(call, self.unit, self.qualname)

    def applied_key_fields(self, call: cst.Call) -> list[tuple[cst.BaseExpression, str, str, str]]:
        """``net.apply(variables, x)`` with ``net = Noisy(rng_key=key)``, a flax linen module
        class of this file whose methods draw from its key field: each such apply draws
        from the key the module was built with.  (argument given for the field, the
        applied method as written, the consumer, the field); ``init`` is left out (it
        draws for the parameters' initial values, which the noise does not change)."""
        func = call.func
        if type(func) is not cst.Attribute or func.attr.value != "apply":
            return []
        ctor = func.value
        if type(ctor) is cst.Name:
            found = self.unit.binding_for(ctor.value, 1 << 30)
            if found is None or len(found[0].bindings.get(ctor.value, ())) != 1:
                return []
            ctor = found[1][1]
        if type(ctor) is not cst.Call or type(ctor.func) is not cst.Name or any(a.star for a in ctor.args):
            return []
        cls = instances.local_class(self, ctor.func.value)
        if cls is None or not cls.linen or self.lookup(ctor.func.value) not in (None, V.UNKNOWN_VALUE):
            return []
        memo = self.key_fields_memo
        fields = memo.get(id(cls))
        if fields is None:
            fields = memo[id(cls)] = keyflow.module_key_fields(cls, self.qualname)
        out = []
        for field, sampler in fields.items():
            a = next((a for a in ctor.args if a.keyword is not None and a.keyword.value == field), None)
            if a is not None and type(a.value) is cst.Name:
                out.append((a.value, dotted_name(func) or "apply", sampler, field))
        return out

    @staticmethod
    def _consumed_args(call: cst.Call, callee: str, params: list, consumes: dict[str, str]) -> list:
        out = []
        positional = [p for p in params if p[1] in ("pos", "posonly")]
        for i, a in enumerate(positional_args(call)):
            if i < len(positional) and positional[i][0] in consumes:
                out.append((a.value, callee, consumes[positional[i][0]]))
        for a in call.args:
            if a.keyword is not None and a.keyword.value in consumes:
                out.append((a.value, callee, consumes[a.keyword.value]))
        return out

    def _local_callee(self, func: cst.Name) -> tuple[bool, Optional[Unit]]:
        """The function of this file a name calls: (True, its unit) when a binding in
        scope or a def names it (the unit None: a binding to something else); (False,
        None) when neither does (imported, or unknown)."""
        v = self.lookup(func.value)
        if v is not None:
            return True, v.unit
        unit = self.unit.lookup_def(func.value)
        return (True, unit) if unit is not None else (False, None)

    def returns_fresh_function(self, func: cst.Name) -> bool:
        """Does the function this name calls (of this file, or imported from the
        project) return a function it defines, a new object per call?"""
        found, unit = self._local_callee(func)
        if found:
            return unit is not None and unit.returns_fresh_function
        return func.value in self.index.imported_factories

    def returns_fresh_jit(self, func: cst.BaseExpression) -> bool:
        """Does the function this callee names (of this file, or imported from the
        project: ``make_update``, ``steps.make_update``) return a new jitted function on
        every call (``@jax.jit def update`` in its body), with a compile cache of its own?"""
        if isinstance(func, cst.Name):
            found, unit = self._local_callee(func)
            if found:
                return unit is not None and unit.returns_fresh_jit
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self" \
                and self.unit.cls is not None and self.unit.params and self.unit.params[0].name == "self":
            # `self.make_step(lr)`: a method of this class (or a base of the file)
            method = self.unit.cls.method(func.attr.value)
            return method is not None and method.returns_fresh_jit
        written = dotted_name(func)
        return written is not None and written in self.index.imported_jit_factories

    # -- interprocedural effects of calls ------------------------------------------
    def _jit_call_arguments(self, call: cst.Call) -> None:
        """A call of a jitted function of this file: arguments passed for
        defaulted parameters are traced too, and Python scalars become arrays."""
        func = call.func
        if type(func) is cst.Name or type(func) is cst.Attribute:
            # (asks for this name, not whether any jit is imported: model/factreads.py)
            self._imported_jit_passes(call)
        wrapped = False  # called through a wrapper's name or an inline wrapper
        if isinstance(func, cst.Call):
            unit, wrapped = self._wrapped_unit(func), True  # `jax.jit(f)(x, 4)`
        elif isinstance(func, cst.Name):
            v = self.lookup(func.value)
            unit = v.unit if v is not None else self.unit.lookup_def(func.value)
            if unit is None and v is not None and v.kind == V.FUNCTION and v.transform is not None:
                unit = self._wrapped_unit(bound_once(self.index, self.unit, func))  # `fj = jax.jit(f)`
                if unit is None:
                    # `f = jax.jit(f)` after `def f`: the value here is the wrapper
                    unit = self._wrapped_unit(rebound_wrapper(self.index, self.unit, func))
                wrapped = True
        else:
            return
        if unit is None or not unit.jit_root:
            return
        params = unit.positional()
        if wrapped and unit.cls is not None and isinstance(unit.node, cst.FunctionDef) and any(
                dotted_name(d.decorator) == "classmethod" for d in unit.node.decorators):
            params = params[1:]  # `jax.jit(Agent.train)(config, key)`: `cls` is bound
        passed = []
        for i, arg in enumerate(positional_args(call)):
            if i < len(params):
                passed.append((params[i], arg.value))
        for arg in call.args:
            if arg.keyword is not None:
                p = unit.param(arg.keyword.value)
                if p is not None:
                    passed.append((p, arg.value))
        for p, expr in passed:
            if p.name in unit.static_params or p.kind in ("vararg", "kwarg"):
                continue
            if wrapped:
                # through the wrapper: only what the call passes for a default is new
                # here (a Python value until a call passes it, then traced); a lambda
                # jitted as it is (`step = jax.jit(lambda v, x: ...)`) gets the arrays;
                # the pytree class of what it passes (`jax.jit(f)(cosmo, a)`), as above
                unit.pass_class(p.name, self.value(expr).cls)
                if p.name in unit.defaulted_params:
                    unit.traced_params.add(p.name)
                    if self.value(expr).kind in (V.ARRAY, V.KEY):
                        # `jax.jit(train)(config, jax.random.key(0))` into `rng=None`: the
                        # default was all that kept it a Python value; an array (a key is
                        # one: `if key:` raises) arrives as an array tracer
                        unit.array_params.add(p.name)
                if type(unit.node) is cst.Lambda and p.name in unit.traced_params \
                        and self.value(expr).kind == V.ARRAY:
                    unit.array_params.add(p.name)
                continue
            unit.pass_class(p.name, self.value(expr).cls)
            if p.name in unit.defaulted_params:
                unit.traced_params.add(p.name)
            if p.name in unit.traced_params:
                av = self.value(expr)
                scalar = isinstance(expr, (cst.Integer, cst.Float)) or (
                    isinstance(expr, cst.Name) and expr.value in ("True", "False")
                )
                if scalar or av.kind in (V.ARRAY, V.KEY):  # (a key is an array too: `if key:` raises)
                    unit.array_params.add(p.name)

    def _wrapped_import(self, expr: cst.Call) -> Optional[tuple[str, dict]]:
        """``jax.jit(ops.sample)``, ``jax.vmap(sample, ...)`` of a key-consuming function
        imported from the project: (its name as written, its consumer fact)."""
        t = apis.transform_for(self.qualname(expr.func))
        pos = positional_args(expr)
        if t is None or not t.wrapper or not pos or type(pos[0].value) not in (cst.Name, cst.Attribute):
            return None
        name = dotted_name(pos[0].value)
        found = self.index.imported_key_consumers.get(name) if name is not None else None
        if found is None or self.lookup(name.split(".", 1)[0]) is not None:  # type: ignore[union-attr]
            return None
        return name, found  # type: ignore[return-value]

    def _wrapped_unit(self, expr: cst.BaseExpression) -> Optional[Unit]:
        """The function of this file a wrapping transformation's call wraps:
        ``jax.jit(f, ...)`` -> ``f`` (None for anything else)."""
        if not isinstance(expr, cst.Call):
            return None
        t = apis.transform_for(self.qualname(expr.func))
        pos = positional_args(expr)
        if t is None or not t.wrapper or not pos:
            return None
        if isinstance(pos[0].value, cst.Lambda):
            return self.index.unit_of.get(id(pos[0].value))  # `jax.jit(lambda v, x: ...)`
        fn = pos[0].value
        if type(fn) is cst.Attribute and type(fn.value) is cst.Name and self.unit.param(fn.value.value) is None:
            # `jax.jit(Agent.train)`: a classmethod of a class of this file, `cls` bound
            # (the calls' arguments start after it)
            for c in self.index.classes:
                if c.name == fn.value.value:
                    m = c.method(fn.attr.value)
                    if m is not None and isinstance(m.node, cst.FunctionDef) and any(
                            dotted_name(d.decorator) == "classmethod" for d in m.node.decorators):
                        return m
                    return None
            return None
        if not isinstance(fn, cst.Name):
            return None
        return self.unit.lookup_def(fn.value)

    def arg_value(self, expr: cst.BaseExpression) -> V.Value:
        """The value an argument passes: ``value``, except that a NumPy array built from
        Python values (``np.zeros(3)``, ``np.random.randn(n) * s``, a name bound only to
        one), which the value model calls a Python value, is a host array."""
        v = self.value(expr)
        if v.kind == V.STATIC and type(expr) in (cst.Name, cst.Call, cst.BinaryOperation) and (
                host_array_expr(self.index, self.unit, expr, self.qualname)
                or holds_host_numpy_array(self.index, self.unit, expr, self.qualname)):
            return V.Value(kind=V.NPARRAY, dtype_hint=v.dtype_hint)
        return v

    def _applied_arrays(self, call: cst.Call) -> None:
        """``jax.jit(f)(a, x)``, ``jit(grad(mod.f))(s, m, x)``: a transformation applied
        at once; the parameters given a JAX or NumPy array receive traced arrays (not
        lists or pytrees), in this file's ``f`` or, as a site fact, in ``mod``."""
        index = self.index
        local = index.applied_units.get(id(call))
        site = index.applied_sites.get(id(call)) if local is None else None
        if local is None and site is None:
            return
        if any(a.star for a in call.args):
            return
        arrays = tuple(i for i, a in enumerate(positional_args(call))
                       if self.arg_value(a.value).kind in (V.ARRAY, V.NPARRAY))
        if site is not None:
            site.array_pos = tuple(sorted(set(site.array_pos) | set(arrays)))  # after those partial binds
            for i, a in enumerate(positional_args(call)):
                cls = self.arg_value(a.value).cls
                flat = cls.flat if cls is not None else None
                if i in site.class_pos and site.class_pos[i] != flat:
                    site.class_pos[i] = None  # two applications pass different classes: unknown
                else:
                    site.class_pos[i] = flat
            return
        unit, n_bound = local  # type: ignore[misc]
        params = unit.positional()[n_bound:]
        for i in arrays:
            if i < len(params) and params[i].name in unit.traced_params:
                unit.array_params.add(params[i].name)

    def _imported_jit_passes(self, call: cst.Call) -> None:
        """A call of a jit of another module: the parameters with defaults it passes
        (that module keeps a default a Python value only while no call passes it)."""
        name = dotted_name(call.func)
        decl = self.index.imported_jits.get(name) if name is not None else None
        receiver = None
        if decl is None and type(call.func) is cst.Attribute and type(call.func.value) is cst.Name:
            # `lens_image.model(...)`: a jitted method of a class of another module, called
            # on an instance this scope binds once (`lens_image = LensImage(...)`)
            made = bound_once(self.index, self.unit, call.func.value)
            written = dotted_name(made.func) if type(made) is cst.Call else None
            if written is not None and self.lookup(written.split(".", 1)[0]) is None:
                name = f"{written}.{call.func.attr.value}"
                decl = self.index.imported_jits.get(name)
                receiver = call.func.value
        elif decl is not None and self.lookup(name.split(".", 1)[0]) is not None:
            return
        if decl is None and type(call.func) is cst.Attribute:
            # `self.SourceModel.update_linear(...)`: on an instance every object of this
            # class holds in that attribute (`__init__` binds it once to `LinearBasis(...)`)
            made = self._self_attribute_value(call.func.value)
            written = dotted_name(made.func) if type(made) is cst.Call else None
            if written is not None and self.lookup(written.split(".", 1)[0]) is None \
                    and self.unit.lookup_def(written.split(".", 1)[0]) is None:
                name = f"{written}.{call.func.attr.value}"
                decl = self.index.imported_jits.get(name)
                receiver = call.func.value
        if decl is None:
            return
        params = decl.get("params") or []
        positional = [p for p in params if p[1] in ("pos", "posonly")]
        passed = set()
        for i, _ in enumerate(positional_args(call), 1 if receiver is not None else 0):
            if i < len(positional) and positional[i][4]:
                passed.add(positional[i][0])
        with_default = {p[0] for p in params if p[4]}
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value in with_default:
                passed.add(arg.keyword.value)
        if passed:
            self.jit_passes.setdefault(name, set()).update(passed)
        if decl.get("static_nums") or decl.get("static_names"):
            # its static parameters given a concrete array here (unhashable: the call raises)
            from jaxlint.model.jit_calls import jit_from_export
            info = jit_from_export(name, decl)
            if receiver is not None:
                info = replace(info, receiver=receiver)
            for arg, position, pname in info.args(call):
                if pname is None or not info.is_static(position, pname) or arg.value is receiver:
                    continue
                v = self.arg_value(arg.value)
                # (a list or dict built here, `[{"amp": 4.0}]`, a mutable container, is unhashable
                # too: told for a method called on an instance, which JAX207 cannot judge at the
                # call here; an imported function's call is judged at the call, by its displays)
                if not v.traced and (v.kind in kinds.UNHASHABLE or (v.kind == V.LIST and receiver is not None)) and not (
                        v.kind == V.NPARRAY and self._host_scalar(arg.value)):
                    self.static_given.setdefault(name, {})[pname] = v.kind
                elif self.is_traced(arg.value):
                    # a tracer (`kwargs, i = self.source.update(param, i, ...)` inside a
                    # jitted function: what an inner jit returns there is traced)
                    self.static_given.setdefault(name, {})[pname] = "tracer"
                elif self._unpacked_display(arg.value):
                    # `params, memory = init_strategy(...)` with every return of the project's
                    # helper a tuple holding a list/dict/set display there: the project's
                    # own data, which its jit declares static
                    self.static_given.setdefault(name, {})[pname] = V.LIST

    def _self_attribute_value(self, expr: cst.BaseExpression) -> Optional[cst.BaseExpression]:
        """``self.attr`` in a method of a class of this file (no base but ``object``)
        whose ``__init__`` sets ``self.attr`` once and whose other methods never assign
        it: the expression it sets it to (``hashing.attribute_value``); else None."""
        cls = self.unit.cls
        if type(expr) is not cst.Attribute or type(expr.value) is not cst.Name or expr.value.value != "self" \
                or cls is None or not self.unit.params or self.unit.params[0].name != "self" \
                or not isinstance(cls.node, cst.ClassDef) or cls.node.keywords \
                or any(not (type(b.value) is cst.Name and b.value.value == "object") for b in cls.node.bases):
            return None
        from jaxlint.model.hashing import attribute_value
        memo = self.__dict__.setdefault("_self_attribute_memo", {})  # (one walk per class and attribute)
        key = (id(cls.node), expr.attr.value)
        if key not in memo:
            memo[key] = attribute_value(cls.node.with_changes(bases=()), expr.attr.value)
        return memo[key]

    def _unpacked_display(self, expr: cst.BaseExpression) -> bool:
        """``params`` of ``params, memory = init_strategy(...)``, the one binding of the
        name in this function (or at module level), where every return of the helper (of
        another module of the project: its ``displays:`` fact, or a plain def of this
        file) is a tuple of that length with a list/dict/set display at that position."""
        if type(expr) is not cst.Name:
            return False
        unit = self.unit
        if expr.value not in unit.assigned or unit.param(expr.value) is not None:
            return False
        bound = writes(unit.node, expr.value)
        if len(bound) != 1 or type(bound[0]) is not cst.Assign or len(bound[0].targets) != 1:
            return False
        target, call = bound[0].targets[0].target, bound[0].value
        if type(target) not in (cst.Tuple, cst.List) or type(call) is not cst.Call \
                or any(type(el) is cst.StarredElement for el in target.elements):
            return False
        at = next((i for i, el in enumerate(target.elements)
                   if type(el.value) is cst.Name and el.value.value == expr.value), None)
        fact = kinds.called_return_fact(self.index, self.env.get, self.value, call, kinds.display_elements)
        if at is None or fact is None or not fact.startswith(kinds.DISPLAYS):
            return False
        n, _, held = fact[len(kinds.DISPLAYS):].partition(":")
        return n.isdigit() and int(n) == len(target.elements) and any(
            item.partition("=")[0] == str(at) for item in held.split(","))

    # NumPy functions that give a scalar of an array (with no `axis`): hashable
    _REDUCTIONS = frozenset({"prod", "sum", "max", "min", "amax", "amin", "mean", "median", "std", "var",
                             "argmax", "argmin", "any", "all", "size", "ndim", "count_nonzero", "dot", "vdot",
                             "int_", "int32", "int64", "float32", "float64"})

    def _host_scalar(self, expr: cst.BaseExpression, depth: int = 0) -> bool:
        """A NumPy scalar rather than an array (hashable, a fine static argument): an
        element of a host array (``shape[0]``), a reduction of one with no ``axis``
        (``np.prod(shape)``, ``shape.max()``), ``.item()``, ``int(...)``/``float(...)``;
        through a name bound once to one."""
        if depth > 3:
            return False
        if type(expr) is cst.Name:
            made = bound_once(self.index, self.unit, expr)
            return made is not None and made is not expr and self._host_scalar(made, depth + 1)
        if type(expr) is cst.Subscript:
            return len(expr.slice) == 1 and type(expr.slice[0].slice) is cst.Index and type(
                expr.slice[0].slice.value) in (cst.Integer, cst.Name, cst.UnaryOperation)
        if type(expr) is cst.Call:
            if any(a.keyword is not None and a.keyword.value in ("axis", "keepdims") for a in expr.args):
                return False
            q = self.qualname(expr.func) or ""
            last = dotted_name(expr.func) or ""
            last = last.rsplit(".", 1)[-1]
            if q in ("builtins.int", "builtins.float", "builtins.bool", "int", "float", "bool") or last == "item":
                return True
            if (q.startswith("numpy.") and q.rsplit(".", 1)[-1] in self._REDUCTIONS) or (
                    type(expr.func) is cst.Attribute and last in self._REDUCTIONS and len(expr.args) == 0):
                return True
        return False

    def _call_effects(self, call: cst.Call) -> None:
        """Calls from traced code make the callee traced, with the parameters
        that receive tracers marked as such."""
        self._jit_call_arguments(call)
        if type(call.func) is cst.Call:
            self._applied_arrays(call)
        self._note_site(id(call))
        self._note_arg_kinds(call)
        self._note_carry(call)
        arg_shapes.note(self, call)
        filtered_call_arrays(self, call)
        if self.concrete:
            self._differentiated_helper_call(call)
        if not self.in_traced:
            # jax.grad(f)(x) etc. outside traced code change nothing; but a flax/equinox
            # module method runs with traced arrays (model.apply under jit): a helper of
            # another module it hands them to runs traced too
            unit = self.unit
            if unit.cls is not None and unit.cls.is_jax_module and unit.traced_params and not unit.host:
                self._module_helper_call(call)
                func = call.func
                ref = self.value(func.value).instance if type(func) is cst.Attribute else None
                if ref is not None and instances.of_class(self, ref) is None:
                    # `Matern(1.0).matmul(x, x)` in `__call__`: that class's method
                    self._external_call(call, require_traced=True, callee_name=ref,
                                        returned=func.attr.value, method="." + func.attr.value)
                else:
                    self._external_call(call, require_traced=True)
            return
        if self._tree_map_callback(call):
            return
        func = call.func
        target: Optional[Unit] = None
        n_bound = 0
        fresh: Optional[bool] = None  # a method call: is its receiver built in this trace?
        overrides: list[Unit] = []  # `self.m(...)`: the subclasses' overrides that may run too
        wrapped: Optional[cst.BaseExpression] = None  # `f` of `jax.grad(f)(x)`
        if isinstance(func, cst.Name):
            v = self.lookup(func.value)
            if v is not None and v.unit is not None:
                target = v.unit
            elif v is None:
                target = self.unit.lookup_def(func.value)
            if target is None:
                # `op = make_op(2.0)` ... `op(x)`: the function the factory of this file returns
                target = made_function(self.unit, func, self.index.unit_of)
        elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            if func.value.value == "self" and self.unit.cls is not None:
                target = self.unit.cls.method(func.attr.value)
                # `self.step_env(...)` in `Env.step`: on an instance of a subclass that
                # inherits `step`, that subclass's override runs (model/dispatch.py)
                receivers = self.unit.traced_receivers()
                if receivers is None and id(call) in self._none_guarded():
                    # a branch only some traced callers reach: those that name their classes
                    receivers = set().union(*self.unit.receiver_reasons.values())
                here = None if receivers is None else {
                    r.partition(":")[2] for r in receivers if r.partition(":")[0] in ("", self.settings.module)}
                overrides = subclass_overrides(self.index.classes, self.unit, func.attr.value, here)
                own_cls = self.unit.cls
                if self.settings.module is None or self.unit.name in ("__init__", "__post_init__"):
                    pass
                elif receivers is not None:
                    # run only on instances of some classes: their `m` (project/facts.py)
                    for r in sorted(receivers):
                        mod, _, cls_name = r.partition(":")
                        if mod not in ("", self.settings.module):  # ("": this module)
                            self._external_call(call, callee_name=f"@{r}", returned=func.attr.value,
                                                method="." + func.attr.value)
                elif own_cls.scope is not None and own_cls.scope.is_module:
                    # ... and those of its subclasses in other modules (project/facts.py)
                    self._external_call(call, callee_name=f"@{self.settings.module}:{own_cls.name}",
                                        returned=func.attr.value, method="." + func.attr.value,
                                        overrides=True)
                n_bound = bound_receiver(target)  # 0 for a staticmethod: `self.f(x, n)` passes x first
                # (in a constructor, `self` is the object being built: the trace's own)
                fresh = self.unit.name in ("__init__", "__post_init__") or self.unit.only_fresh_receivers()
            else:
                target = self._instance_method(func)
                n_bound = bound_receiver(target)
                fresh = self._built_here(func.value)
                if target is None and self._inherited_elsewhere(
                        call, instance_class(self.index, self.unit, func.value), func.attr.value, fresh):
                    return
                if target is None:
                    # `f.apply(params, rng, x)` of `f = hk.transform(forward)`, `tx.update(...)`
                    target, n_bound, call = self._held_call(func, call)
                if target is None and self.lookup(func.value.value) in (None, V.UNKNOWN_VALUE) \
                        and instances.local_class(self, func.value.value) is not None:
                    # `Interval.around(x)`: a classmethod/staticmethod of a class of this file
                    target = instances.class_level_method(self.index.classes, func)
                    n_bound = bound_receiver(target)
        elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call) \
                and (found := self._super_call(call, func)) is not None:
            # `super().m(x)`: the method of the base (model/overrides.py)
            if found is _ELSEWHERE:
                return
            target, n_bound = found, bound_receiver(found)
            fresh = self.unit.name in ("__init__", "__post_init__") or self.unit.only_fresh_receivers()
        elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call):
            # `Model(...).apply(variables, x)`: the flax module's `__call__`
            target, n_bound, call = self._held_call(func, call)
        elif isinstance(func, cst.Call):
            # jax.grad(f)(x), jax.vmap(f)(x), jax.checkpoint(f)(x) inside traced code
            fq = self.qualname(func.func)
            t = apis.transform_for(fq)
            if t is None and self._dispatch_call(call):
                return
            made = made_function(self.unit, func, self.index.unit_of) if t is None else None
            if made is not None:
                target = made  # `make_op(2.0)(x)`: the function the factory of this file returns
            elif t is None and self.value(func).instance is not None:
                # `MyModule()(x)`, `Scale(2.0)(x)`: the class's `__call__`, here or there
                target, n_bound, own = self._instance_call(func)
                if own is not None:
                    self._external_call(call, callee_name=own, returned="", method=dotted_name(func.func) or "")
                    return
            elif t is not None and not t.host:
                pos = positional_args(func)
                if pos:
                    inner = wrapped = pos[0].value
                    if isinstance(inner, cst.Name):
                        iv = self.lookup(inner.value)
                        target = iv.unit if iv is not None and iv.unit is not None else self.unit.lookup_def(inner.value)
                        ref = iv.instance if target is None and iv is not None else None
                        own = instances.of_class(self, ref) if ref is not None else None
                        if own is not None:
                            # `jax.vmap(model)(xs)` with `model` an instance of a class of this
                            # file: its `__call__` runs with the mapped arguments
                            target = own.methods.get("__call__")
                            n_bound = bound_receiver(target)
                        elif ref is not None:
                            # ... of a class of another module of the project: a fact for it
                            self._external_call(call, callee_name=ref, returned="", method=inner.value)
                            return
                    elif isinstance(inner, cst.Lambda):
                        target = self.index.unit_of.get(id(inner))
                    elif (isinstance(inner, cst.Attribute) and isinstance(inner.value, cst.Name)
                          and inner.value.value == "self" and self.unit.cls is not None):
                        target = self.unit.cls.methods.get(inner.attr.value)  # jax.grad(self.loss)(p, x)
                        n_bound = bound_receiver(target)
        if target is None and wrapped is None and type(func) in (cst.Call, cst.Name):
            # `partial(check, 2)(v)`, `g = partial(check, 2)` ... `g(v)`: the function of
            # this file the partial holds runs with the bound arguments, then the call's
            held = self._partial_call(call)
            if held is not None:
                target, call = held
                func = call.func
        if target is None and wrapped is None and type(func) is cst.Name and self.settings.module is not None:
            # `g(x)` with `g = jax.grad(losses.loss)`: the imported function runs with these
            wrapped = self._transformed_import(func)
            if wrapped is not None:
                self._external_call(call, callee_expr=wrapped, method=func.value)
                return
        if target is None and type(func) is cst.Attribute and wrapped is None:
            # `self.encoder(x)` with `self.encoder = Encoder(...)` in `setup`/`__init__`:
            # calling the instance runs its class's `__call__` (a submodule of a flax
            # module, an equinox layer): here, or as a fact for the defining module
            own = self.value(func).instance
            if own is not None:
                cls = instances.of_class(self, own)
                if cls is None:
                    self._external_call(call, callee_name=own, returned="", method=dotted_name(func) or "")
                    return
                target = cls.methods.get("__call__")
                n_bound = bound_receiver(target)
        if target is None and type(func) in (cst.Attribute, cst.Name):
            # `Matern32(scale).matmul(x)`, `m.loss(x)`, `self.transform.check(x)`: a method of
            # the class the receiver is an instance of (model/instances.py); `step(x)`,
            # `tx.update(g, s)` with `step = make_step(3)`, `tx = make_update()`: what a
            # factory of the project returned (which of the two: the defining module says)
            recv = self.value(func.value if type(func) is cst.Attribute else func)
            ref = recv.instance
            if ref is not None:
                attr = func.attr.value if type(func) is cst.Attribute else ""
                cls = instances.of_class(self, ref)
                if cls is None:
                    self._external_call(call, callee_name=ref, returned=attr,
                                        method="." + attr if attr else (dotted_name(func) or ""),
                                        fresh=bool(attr) and type(func) is cst.Attribute
                                        and self._built_here(func.value),
                                        self_leaves=bool(attr) and recv.traced)  # (a traced pytree's)
                    return
                if attr and not cls.linen:
                    # (also an equinox or NNX module's: `model.encode(x)` runs its method;
                    # not a linen module's `apply`)
                    target = cls.method(attr)
                    n_bound = bound_receiver(target)
                    fresh = self._built_here(func.value) if type(func) is cst.Attribute else None
                    if target is None and self._inherited_elsewhere(call, cls, attr, fresh):
                        return
                elif not attr:
                    target = cls.methods.get("__call__")  # `m = Model(); m(x)`
                    n_bound = bound_receiver(target)
        if target is None and wrapped is None and type(func) is cst.Attribute:
            # `s.pos()` with `s` a traced instance of a pytree class of this file; of another
            # module's: a call fact for its method (model/pytree_methods.py)
            rv = self.value(func.value)
            info = pytree_methods.class_info(self, rv) if rv.traced else None
            if info is not None:
                target = info.method(func.attr.value)
                n_bound = bound_receiver(target)
            elif rv.traced:
                ref = pytree_methods.foreign_ref(self, rv)
                if ref is not None:
                    self._external_call(call, callee_name=ref, returned=func.attr.value,
                                        method="." + func.attr.value, self_leaves=True)
                    return
        if target is None and wrapped is None and self._constructor_call(call):
            return
        if type(func) is cst.Subscript and self._dispatch_call(call):
            return
        if target is None:
            self._external_call(call, callee_expr=wrapped)
            return
        if target is self.unit or target.host:
            return
        self._enter_target(call, func, target, n_bound, fresh)
        if overrides:
            for other in overrides:
                if other is not target and other is not self.unit and not other.host:
                    self._enter_target(call, func, other, bound_receiver(other), fresh)

    def _partial_call(self, call: cst.Call) -> Optional[tuple[Unit, cst.Call]]:
        """``partial(check, 2)(v)`` (or through a name bound once to the partial): the
        function of this file it holds, and the call it amounts to (``check(2, v)``: the
        partial's arguments, then the call's; the argument nodes are the written ones).
        None when the partial holds no function of this file, or stars hide the arguments."""
        func = call.func
        if type(func) is cst.Name:
            if self.lookup(func.value) is None or self.lookup(func.value).kind != V.FUNCTION:
                return None
            func = bound_once(self.index, self.unit, func)
        if type(func) is not cst.Call or self.qualname(func.func) not in apis.PARTIALS:
            return None
        pos = positional_args(func)
        if not pos or type(pos[0].value) is not cst.Name or any(a.star for a in (*func.args, *call.args)):
            return None
        name = pos[0].value.value
        v = self.lookup(name)
        target = v.unit if v is not None and v.unit is not None else (
            self.unit.lookup_def(name) if v is None else None)
        if target is None or not isinstance(target.node, cst.FunctionDef) or target.cls is not None:
            return None
        bound = [a for a in func.args if a is not pos[0]]
        given = [a for a in call.args if a.keyword is None] + [a for a in bound if a.keyword is not None]
        given = [a for a in bound if a.keyword is None] + given + [a for a in call.args if a.keyword is not None]
        return target, cst.Call(func=pos[0].value, args=tuple(given))

    def _none_guarded(self) -> frozenset[int]:
        """model/overrides.none_guarded_calls of this unit (computed once)."""
        cache = self.__dict__.setdefault("_none_guarded_of", {})
        got = cache.get(id(self.unit))
        if got is None:
            got = cache[id(self.unit)] = none_guarded_calls(self.unit)
        return got

    def _super_call(self, call: cst.Call, func: cst.Attribute) -> object:
        """``super().m(...)`` in a method of a class with one base: the base's ``m`` when
        this file defines it (or a base of it), ``_ELSEWHERE`` when the base is another
        module's (a call fact for it is recorded), else None (not such a call, or unknown)."""
        inner = func.value
        assert type(inner) is cst.Call
        cls = self.unit.cls
        if type(inner.func) is not cst.Name or inner.func.value != "super" or inner.args or cls is None \
                or self.lookup("super") is not None:
            return None
        bases = [a.value for a in cls.node.bases if a.keyword is None]
        if len(bases) != 1 or any(a.star for a in cls.node.bases):
            return None  # (several bases: which comes next in the MRO is not followed)
        if cls.parents:
            return cls.parents[0].method(func.attr.value)
        base = bases[0].value if type(bases[0]) is cst.Subscript else bases[0]  # type: ignore[attr-defined]
        written = dotted_name(base) if type(base) in (cst.Name, cst.Attribute) else None
        if written is None or self.settings.module is None:
            return None
        head = written.split(".", 1)[0]
        if self.lookup(head) is not None or not self.imports.project_import(head, self.settings.project_packages):
            return None
        self._external_call(call, callee_name=written, returned=func.attr.value, method="." + func.attr.value)
        return _ELSEWHERE

    def _enter_target(self, call: cst.Call, func: cst.BaseExpression, target: Unit, n_bound: int,
                      fresh: Optional[bool]) -> None:
        """``call`` in traced code runs ``target`` (``n_bound``: its receiver's parameters)."""
        reason = f"called from traced `{self.unit.name}`"
        if type(func) is cst.Attribute and n_bound and type(func.value) is cst.Name and func.value.value == "self":
            receivers = self.unit.traced_receivers()
            if receivers is not None:
                # `self.m(...)` in a method run only on instances of some classes: so is `m`
                target.receiver_reasons.setdefault(reason, set()).update(receivers)
        if type(func) is cst.Attribute and n_bound:
            self._pytree_receiver(func, target, reason)
        target.mark_traced(reason)
        if fresh is not None and n_bound:
            (target.fresh_reasons if fresh else target.held_reasons).add(reason)
        if self.eager:
            target.eager_reasons.add(reason)
        if self.unit.origins and not target.origins:
            target.origins = list(self.unit.origins)
        params = [p for p in target.positional()]
        if n_bound:
            params = params[n_bound:]
        kinds.join_into(target.traced_arg_kinds, kinds.call_kinds(target.params, call, self.arg_value,
                                                                  n_bound=len(target.positional()) - len(params)))
        for i, arg in enumerate(positional_args(call)):
            if i < len(params):
                av = self.value(arg.value)
                target.pass_class(params[i].name, av.cls)
                if av.traced and params[i].name not in target.static_params:
                    target.traced_params.add(params[i].name)
        for arg in call.args:
            if arg.keyword is not None:
                av = self.value(arg.value)
                p = target.param(arg.keyword.value)
                if p is not None:
                    target.pass_class(p.name, av.cls)
                elif av.traced:
                    target.note_star_kw(arg.keyword.value)
                if av.traced and p is not None and p.name not in target.static_params:
                    target.traced_params.add(p.name)
        self._note_none_args(target, params, call)

    def _pytree_receiver(self, func: cst.Attribute, target: Unit, reason: str) -> None:
        """``cosmo.distance(a)``, ``self.normalize()``, ``cosmo.k`` (``func``: the method or
        property read) in traced code, the receiver a traced instance of a pytree class
        of this file (or ``self`` in a method run on one): ``target`` runs with the
        class's data leaves as tracers (model/pytree_methods.py)."""
        recv = func.value
        if type(recv) is cst.Name and recv.value == "self" and self.unit.cls is not None:
            if self.unit.self_leaves and target.cls is not None and self.unit.cls.method(func.attr.value) is target:
                pytree_methods.run_on(target, frozenset(self.unit.self_leaves), reason)
            return
        rv = self.value(recv)
        if not rv.traced:
            return
        info = pytree_methods.class_info(self, rv)
        if info is not None and info.method(func.attr.value) is target:
            pytree_methods.run_on(target, pytree_methods.leaves(self, info), reason)

    def _attribute_effects(self, node: cst.Attribute) -> None:
        """``cosmo.k`` / ``self.Omega`` in traced code naming a property of a class of this
        file, the receiver a traced pytree instance: the property runs there."""
        if not self.in_traced or type(node.value) is not cst.Name:
            return
        recv = node.value.value
        if recv == "self":
            cls = self.unit.cls
            if cls is None or not self.unit.self_leaves:
                return
            prop = cls.method(node.attr.value)
        else:
            rv = self.value(node.value)
            if not rv.traced or (rv.cls is None and rv.instance is None):
                return
            info = pytree_methods.class_info(self, rv)
            if info is None:
                ref = pytree_methods.foreign_ref(self, rv)
                if ref is not None and (rv.cls is None or node.attr.value not in rv.cls.flat.get("fields", {})):
                    # `cosmo.k` of a class another module defines: its property runs there
                    self._external_call(cst.Call(func=node), callee_name=ref, returned=node.attr.value,
                                        method="." + node.attr.value, self_leaves=True, read=True)
                return
            prop = info.method(node.attr.value)
        if pytree_methods.is_property(prop) and prop is not self.unit:
            self._pytree_receiver(node, prop, f"called from traced `{self.unit.name}`")

    def _built_here(self, receiver: cst.BaseExpression) -> bool:
        """Is ``receiver`` an object this traced function builds itself: a local name whose
        every binding here is a constructor call of a class of the project (``game =
        Game(x)``), not a parameter, a global or a closure's; or the constructor call itself
        (``Model().apply(t)``)?  Its attributes then live and die with this trace."""
        if type(receiver) is cst.Call:
            written = dotted_name(receiver.func)
            return written is not None and instances.constructed(self, written) is not None
        if type(receiver) is not cst.Name:
            return False
        name = receiver.value
        unit = self.unit
        if name in unit.global_names or name in unit.nonlocal_names or unit.param(name) is not None:
            return False
        ws = writes(unit.node, name)
        if not ws:
            return False
        for w in ws:
            if type(w) is not cst.Assign or type(w.value) is not cst.Call or len(w.targets) != 1 \
                    or type(w.targets[0].target) is not cst.Name:
                return False
            written = dotted_name(w.value.func)
            if written is None or instances.constructed(self, written) is None:
                return False
        return True

    def _dispatch_call(self, call: cst.Call) -> bool:
        """``_FUNCS[name](x)`` / ``_FUNCS.get(name)(x)`` in traced code, ``_FUNCS`` a dict
        literal of functions (and ``_FUNCS[k] = f`` at module level): whichever the key
        picks runs with these arguments, so every function of the table does (those of
        this file here, imported ones as call facts).  False when ``call`` is no such
        dispatch."""
        values = dispatch.table_functions(self.unit, call.func)
        if values is None:
            return False
        reason = f"called from traced `{self.unit.name}`"
        for value in values:
            target = None
            if type(value) is cst.Name:
                v = self.lookup(value.value)
                target = v.unit if v is not None and v.unit is not None else (
                    self.unit.lookup_def(value.value) if v is None else None)
            if target is None:
                table = call.func.value if type(call.func) is cst.Subscript else None
                self._external_call(call, callee_expr=value, method=".get" if table is None else
                                    "[" + (dotted_name(table) or ""))  # the line: the table's look-up
                continue
            if target is self.unit or target.host:
                continue
            target.mark_traced(reason)
            target.note_consts({})  # not counted as a traced call: its constants stay unknown
            params = target.positional()
            for i, arg in enumerate(positional_args(call)):
                if i < len(params) and self.value(arg.value).traced and params[i].name not in target.static_params:
                    target.traced_params.add(params[i].name)
            for arg in call.args:
                if arg.keyword is not None and self.value(arg.value).traced:
                    p = target.param(arg.keyword.value)
                    if p is not None and p.name not in target.static_params:
                        target.traced_params.add(p.name)
        return True

    def _instance_call(self, func: cst.Call) -> tuple[Optional[Unit], int, Optional[str]]:
        """``Cls(...)(x)``: the ``__call__`` of a class of this file (with its bound
        ``self``), or the ref of the instance when the class is another module's."""
        ref = self.value(func).instance
        cls = instances.of_class(self, ref) if ref is not None else None
        if cls is None:
            return None, 0, ref
        target = cls.methods.get("__call__")
        return target, bound_receiver(target), None

    def _constructor_call(self, call: cst.Call) -> bool:
        """``Cls(x, a1=y)`` in traced code with a tracer among the arguments: the class's
        ``__init__`` runs with them; a generated ``__init__`` (a dataclass, an equinox
        Module) stores them as fields and runs ``__post_init__``/``__check_init__``,
        which see those fields as tracers.  A class of another module: a call fact
        (``project/facts.py``).  False when ``call`` builds no class of the project."""
        written = dotted_name(call.func)
        ref = instances.constructed(self, written) if written is not None else None
        own_cls = instances.classmethod_class(self.unit, call.func)  # `cls(lo, hi)` in a classmethod
        if ref is None and own_cls is None:
            return False
        pos = positional_args(call)
        stars = [a for a in call.args if a.star]
        star_traced = any(self.value(a.value).traced for a in stars)
        traced_pos = [i for i, a in enumerate(pos) if self.value(a.value).traced]
        traced_kw = [a.keyword.value for a in call.args if a.keyword is not None and self.value(a.value).traced]
        if not (traced_pos or traced_kw or star_traced):
            return False  # a constructor given Python values: nothing traced reaches it
        cls = own_cls or instances.of_class(self, ref)
        if cls is None:
            self._external_call(call, callee_name=ref, star_traced=star_traced, ctor=True)
            return True
        reason = f"called from traced `{self.unit.name}`"
        init = instances.class_member(cls, "__init__", self.index.classes)
        if init is not None:
            if init.host or not isinstance(init.node, cst.FunctionDef):
                return True
            init.mark_traced(reason)
            params = init.positional()[bound_receiver(init):]
            self._note_none_args(init, params, call)
            given = {p.name for p in params[:len(pos)]}
            for i in traced_pos:
                if i < len(params) and params[i].name not in init.static_params:
                    init.traced_params.add(params[i].name)
            for k in traced_kw:
                p = init.param(k)
                if p is not None and p.name not in init.static_params:
                    init.traced_params.add(p.name)
            if star_traced:
                given |= {a.keyword.value for a in call.args if a.keyword is not None}
                for p in init.params[1:]:
                    if p.kind in ("pos", "kwonly") and p.default is None and p.name not in given \
                            and p.name not in init.static_params:
                        init.traced_params.add(p.name)
            return True
        fields = instances.traced_fields(cls, len(pos), traced_pos,
                                         [a.keyword.value for a in call.args if a.keyword is not None],
                                         traced_kw, star_traced, self.index.classes)
        for name in instances.FIELD_CHECKS:
            m = instances.class_member(cls, name, self.index.classes)
            if m is not None and fields and isinstance(m.node, cst.FunctionDef) and not m.host:
                m.mark_traced(reason)
                m.traced_fields |= fields
        return True

    def _held_call(self, func: cst.Attribute, call: cst.Call) -> tuple[Optional[Unit], int, cst.Call]:
        """``f.apply(params, rng, x)`` of ``f = hk.transform(forward)``, ``tx.update(...)``,
        ``model.apply(variables, x)`` of a flax module class of this file: the function
        the holder runs, the arguments bound before the call's own (a method's ``self``),
        and the call as that function sees it (the holder's own arguments dropped)."""
        held = self.index.held_function(func, self.unit)
        if held is None or not all(a.keyword is None and not a.star for a in call.args[:held.skip]):
            return None, 0, call
        if held.method and any(a.keyword is not None and a.keyword.value == "method" for a in call.args):
            return None, 0, call  # `model.apply(v, x, method=Model.encode)`: another method
        return held.unit, 1 if held.method else 0, call.with_changes(args=call.args[held.skip:])

    def _differentiated_helper_call(self, call: cst.Call) -> None:
        """A function of this file called with tracers from a function differentiated
        outside jit runs with those tracers too (model/gradtrace.py)."""
        func = call.func
        if any(a.star for a in call.args):
            return
        n_bound = 0
        target: Optional[Unit] = None
        if isinstance(func, cst.Name):
            v = self.lookup(func.value)
            target = v.unit if v is not None and v.unit is not None else (
                self.unit.lookup_def(func.value) if v is None else None)
        elif isinstance(func, cst.Attribute):
            # `emulator.predict(p)`, `Model(w).loss(p)`, `self.helper(p)`: the method of the
            # class of this file the receiver is an instance of (model/instances.py)
            if type(func.value) is cst.Name and func.value.value == "self" and self.unit.cls is not None:
                target = self.unit.cls.method(func.attr.value)
            else:
                ref = self.value(func.value).instance
                cls = instances.of_class(self, ref) if ref is not None else None
                if cls is None and type(func.value) is cst.Name:
                    target = self._instance_method(func)
                elif cls is not None and not cls.is_jax_module:
                    target = cls.methods.get(func.attr.value)
                if target is None and cls is None and ref is not None and not self.in_traced:
                    # `coords.map_coord2pix(ra, dec)` with `coords = Coordinates(...)` of a class
                    # of another module of the project: its method runs with these tracers
                    # (a call fact marked `grad`, as under a jit: project/facts.py)
                    attr = func.attr.value
                    self._external_call(call, require_traced=True, grad=True, callee_name=ref,
                                        returned=attr, method="." + attr)
                    return
            n_bound = bound_receiver(target)
        if target is None and not self.in_traced and type(func) in (cst.Name, cst.Attribute):
            # `ops.init(T0=t)` of another module of the project: it runs with these
            # tracers (a call fact marked `grad`, project/facts.py)
            self._external_call(call, require_traced=True, grad=True)
            return
        if target is None or not isinstance(target.node, cst.FunctionDef) or target.is_generator:
            return
        params = target.positional()[n_bound:]
        traced = [params[i].name for i, a in enumerate(positional_args(call))
                  if i < len(params) and self.value(a.value).traced]
        for a in call.args:
            if a.keyword is not None and target.param(a.keyword.value) is not None and self.value(a.value).traced:
                traced.append(a.keyword.value)
        gradtrace.mark_call(self.unit, target, traced)

    def _transformed_import(self, func: cst.Name) -> Optional[cst.BaseExpression]:
        """``losses.loss`` when the name ``func`` is bound once, in its scope, to a
        transformation of it (``g = jax.grad(losses.loss)``), else None."""
        found = self.unit.binding_for(func.value, 1 << 30)
        if found is None:
            return None
        holder, (_, value) = found
        if type(value) is not cst.Call or len(holder.bindings.get(func.value, ())) != 1:
            return None
        t = apis.transform_for(self.qualname(value.func))
        if t is None or not t.wrapper or t.host or t.fn_args != (0,):
            return None
        pos = positional_args(value)
        return pos[0].value if pos and type(pos[0].value) in (cst.Name, cst.Attribute) else None

    def _subscript_effects(self, node: cst.Subscript) -> None:
        """``d[mask]`` in traced code, ``d`` an instance of a class of another module of
        the project: a call of its ``__getitem__`` with the index (model/instances.py)."""
        if not self.in_traced or self.settings.module is None or len(node.slice) != 1:
            return
        sl = node.slice[0].slice
        if type(sl) is not cst.Index:
            return
        ref = self.value(node.value).instance
        if ref is None or instances.of_class(self, ref) is not None:
            return
        self._external_call(cst.Call(func=cst.Name("__getitem__"), args=[cst.Arg(sl.value)]),
                            callee_name=ref, returned="__getitem__", method="[" + (dotted_name(node.value) or ""))

    def _module_helper_call(self, call: cst.Call) -> None:
        """``self.m(...)`` in a flax/equinox/haiku module method that runs with traced
        arrays: ``m`` (a method of the same class or of a base of this file, its parameters left to its callers by
        the index) gets traced exactly the parameters these arguments make traced."""
        func = call.func
        cls = self.unit.cls
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
                and func.value.value == "self" and cls is not None):
            return
        target = cls.method(func.attr.value)  # its own, or inherited from a base of this file
        if target is None or target is self.unit or target.host:
            return
        params = target.positional()[bound_receiver(target):]
        marked = False
        for i, arg in enumerate(positional_args(call)):
            if i < len(params) and params[i].name not in target.static_params and self.value(arg.value).traced:
                target.traced_params.add(params[i].name)
                marked = True
        for arg in call.args:
            if arg.keyword is not None:
                p = target.param(arg.keyword.value)
                if p is not None and p.name not in target.static_params and self.value(arg.value).traced:
                    target.traced_params.add(p.name)
                    marked = True
        reason = f"{MODULE_METHOD}{(target.cls or cls).name}"
        if marked and reason not in target.reasons:
            target.reasons.append(reason)

    def _instance_method(self, func: cst.Attribute) -> Optional[Unit]:
        """``PRE.squash`` where ``PRE`` holds an instance of a plain class of this file
        (``PRE = Preprocess()``): that class's method, its own or one it inherits from a
        base of this file (flax/equinox modules excepted: their methods have their own
        rules)."""
        cls = instance_class(self.index, self.unit, func.value)
        if cls is None or cls.is_jax_module:
            return None
        return cls.method(func.attr.value)

    def _inherited_elsewhere(self, call: cst.Call, cls, attr: str, fresh) -> bool:
        """``policy.act(x)`` with ``policy = Policy(...)``, a module-level class of this
        file that neither defines ``act`` nor inherits it from a base of this file: the
        method it inherits from a base of another module runs (a fact for that module,
        which follows the bases: project/facts.py).  True when recorded."""
        if cls is None or cls.is_jax_module or cls.scope is None or not cls.scope.is_module \
                or self.settings.module is None or cls.method(attr) is not None:
            return False
        self._external_call(call, callee_name=f"@{self.settings.module}:{cls.name}", returned=attr,
                            method="." + attr, fresh=bool(fresh))
        return True

    def _tree_map_callback(self, call: cst.Call) -> bool:
        """``jax.tree.map(lambda p: ..., params)`` in traced code: the leaves handed to
        the function are tracers when a tree is traced."""
        q = self.qualname(call.func)
        if q not in slots.TREE_MAPS:
            return False
        pos = positional_args(call)
        if len(pos) < 2:
            return False
        fn = pos[0].value
        target = None
        if isinstance(fn, cst.Lambda):
            target = self.index.unit_of.get(id(fn))
        elif isinstance(fn, cst.Name):
            # `jax.tree.map(clip, grads)`: a def of this file (or a lambda bound to the name)
            v = self.lookup(fn.value)
            if v is not None and v.unit is not None:
                target = v.unit
            elif v is None:
                target = self.unit.lookup_def(fn.value)
        if target is None or target.host:
            return False
        target.mark_traced(f"called from traced `{self.unit.name}`")
        params = target.positional()
        if q.endswith("with_path"):
            params = params[1:]  # the key path comes first: not a tracer
        for i, tree in enumerate(pos[1:]):
            tv = self.value(tree.value)
            if i < len(params) and tv.traced and params[i].name not in target.static_params:
                target.traced_params.add(params[i].name)
                if isinstance(fn, cst.Name) and not (tv.deps & self.unit.filtered_params) and not self.unit.filtered_params:
                    # a leaf of a traced tree (not under a filtering jit, which leaves Python
                    # leaves as they are) is a tracer: a JAX array (`isinstance(leaf,
                    # jax.Array)` holds; an `else:` for other leaves is no trace's branch)
                    target.array_params.add(params[i].name)
        return True

    def _external_call(self, call: cst.Call, require_traced: bool = False,
                       callee_expr: Optional[cst.BaseExpression] = None,
                       callee_name: Optional[str] = None, method: str = "",
                       returned: Optional[str] = None, star_traced: bool = False,
                       ctor: bool = False, fresh: bool = False, self_leaves: bool = False,
                       read: bool = False, overrides: bool = False, grad: bool = False) -> None:
        """Record a call from traced code to an imported function (``mod.f(x)``,
        ``f(x)`` after ``from mod import f``) with the arguments that are tracers;
        ``callee_expr``: the function a transformation wraps and the call applies
        (``jax.value_and_grad(losses.loss_fn)(p, b)``: ``losses.loss_fn`` gets them);
        ``callee_name``: the class or factory of the project the receiver came from
        (``Matern32``, ``@desc.transform:Transform``: model/instances.py), with
        ``returned`` the method called on it."""
        if self.settings.module is None:
            return  # linted alone, outside a project
        if callee_name is not None:
            callee = callee_name
        else:
            fexpr = call.func if callee_expr is None else callee_expr
            if type(fexpr) not in (cst.Name, cst.Attribute):
                return
            found = dotted_name(fexpr)
            if found is None:
                return
            callee = found
            head = callee.split(".", 1)[0]
            if self.lookup(head) is not None or self.builtin_name(fexpr) is not None:
                return  # a local value, or a builtin: not another module's function
            if not self.imports.project_import(head, self.settings.project_packages):
                return
            if apis.transform_for(self.qualname(fexpr)) is not None:
                return  # a JAX transformation (when the project is JAX itself): not a helper
        if any(a.star for a in call.args) and not star_traced:
            return  # *args/**kwargs: which parameter gets what is unknown
        pos = [self.value(a.value) for a in positional_args(call)]
        kws = [(a.keyword.value, self.value(a.value)) for a in call.args if a.keyword is not None]
        if require_traced and not any(v.traced for v in pos) and not any(v.traced for _, v in kws):
            return
        self.external_calls.append(ExternalCall(
            callee, call, self.unit,
            traced_pos=tuple(i for i, v in enumerate(pos) if v.traced),
            traced_kw=tuple(k for k, v in kws if v.traced),
            array_pos=tuple(i for i, v in enumerate(pos) if v.traced and v.kind == V.ARRAY),
            array_kw=tuple(k for k, v in kws if v.traced and v.kind == V.ARRAY),
            n_pos=len(pos),
            keywords=tuple(k for k, _ in kws),
            none_pos=tuple(i for i, a in enumerate(positional_args(call)) if is_none(a.value)),
            none_kw=tuple(a.keyword.value for a in call.args if a.keyword is not None and is_none(a.value)),
            const_pos=None if any(a.star for a in call.args) else tuple(
                (i, c[0]) for i, c in enumerate(self._arg_const(a.value) for a in positional_args(call))
                if c is not None),
            const_kw=None if any(a.star for a in call.args) else tuple(
                (a.keyword.value, c[0]) for a, c in ((a, self._arg_const(a.value)) for a in call.args
                                                      if a.keyword is not None) if c is not None),
            class_pos=tuple((i, v.cls.flat) for i, v in enumerate(pos) if v.traced and v.cls is not None),
            class_kw=tuple((k, v.cls.flat) for k, v in kws if v.traced and v.cls is not None),
            method=method,
            returned=returned,
            shapes=arg_shapes.call_shapes(self, call) if callee_name is None and not method else None,
            star_traced=star_traced,
            ctor=ctor,
            fresh=fresh,
            self_leaves=self_leaves,
            read=read,
            overrides=overrides,
            grad=grad,
        ))

    def _note_none_args(self, target: Unit, params: list, call: cst.Call) -> None:
        """Record which parameters traced callers may leave None (omitted with a
        None default, or passed None), so `if p is None:` branches that no traced
        caller can reach are not analysed as traced code."""
        passed: set[str] = set()
        given: set[str] = set()  # passed at all, None included
        for i, arg in enumerate(positional_args(call)):
            if i < len(params):
                given.add(params[i].name)
            if i < len(params) and not is_none(arg.value):
                passed.add(params[i].name)
        if any(a.star for a in call.args):
            passed.update(p.name for p in target.params)  # *args/**kwargs: unsure
        for arg in call.args:
            if arg.keyword is not None:
                given.add(arg.keyword.value)
            if arg.keyword is not None and not is_none(arg.value):
                passed.add(arg.keyword.value)
        for p in target.params:
            if p.name not in passed:
                target.maybe_none.add(p.name)
        target.passed_params |= {p.name for p in target.params if p.name in passed or p.name in given}
        target.traced_calls += 1
        traced: Optional[frozenset] = None
        if not any(a.star for a in call.args):
            traced = frozenset(
                [params[i].name for i, a in enumerate(positional_args(call)) if i < len(params)
                 and self.value(a.value).traced]
                + [a.keyword.value for a in call.args if a.keyword is not None and self.value(a.value).traced])
        target.note_consts(self._call_consts(target, params, call), traced)

    def _call_consts(self, target: Unit, params: list, call: cst.Call) -> dict[str, tuple]:
        """The Python constants a call gives ``target``'s parameters (``params``: those
        its positional arguments fill): a literal passed (``check=False``), a parameter
        of this unit that every traced call gives one constant, a literal default left
        in place.  Nothing with ``*args``/``**kwargs`` (which parameter gets what is
        unknown)."""
        if any(a.star for a in call.args):
            return {}
        consts: dict[str, tuple] = {}
        given: set[str] = set()
        for i, arg in enumerate(positional_args(call)):
            if i < len(params):
                given.add(params[i].name)
                c = self._arg_const(arg.value)
                if c is not None:
                    consts[params[i].name] = c
        for arg in call.args:
            if arg.keyword is not None:
                given.add(arg.keyword.value)
                c = self._arg_const(arg.value)
                if c is not None:
                    consts[arg.keyword.value] = c
        for p in target.params:
            if p.name not in given and p.kind in ("pos", "posonly", "kwonly"):
                c = literal_const(p.default)
                if c is not None:
                    consts[p.name] = c
        return consts

    def _arg_const(self, e: cst.BaseExpression) -> Optional[tuple]:
        """``(value,)`` of an argument always one Python constant in this trace."""
        c = literal_const(e)
        if c is not None or type(e) is not cst.Name:
            return c
        return self.param_const(e.value)  # type: ignore[attr-defined]

    def _note_carry(self, call: cst.Call) -> None:
        """``lax.fori_loop(0, n, body, (xs, h))`` with ``body`` a function of this file:
        the value of the initial carry, for ``body``'s carry parameter (joined over
        every such site; model/walker.py gives it the carry's structure)."""
        if type(call.func) not in (cst.Name, cst.Attribute):
            return
        q = self.qualname(call.func)
        spec = apis.CARRY_LOOPS.get(apis.canonical(q)) if q is not None else None
        if spec is None or any(a.star for a in call.args):
            return
        fns, (init_pos, init_kw), carry_at = spec
        pos = positional_args(call)

        def arg(i: int, kw: str):
            if i < len(pos):
                return pos[i].value
            for a in call.args:
                if a.keyword is not None and a.keyword.value == kw:
                    return a.value
            return None

        init = arg(init_pos, init_kw)
        if init is None:
            return
        for i, kw in fns:
            fn = arg(i, kw)
            n_bound = 0
            if type(fn) is cst.Attribute and type(fn.value) is cst.Name and self.unit.cls is not None \
                    and self.unit.params and fn.value.value == self.unit.params[0].name == "self" \
                    and self.lookup("self") is not None:
                # `lax.while_loop(self._cond_fun, self._body_fun, init)`: a method of this
                # class, bound (its `self` is not the carry)
                body = self.unit.cls.methods.get(fn.attr.value)
                if body is None or type(body.node) is not cst.FunctionDef or body.node.decorators:
                    continue
                n_bound = 1
            elif type(fn) is cst.Name:
                body = self.unit.lookup_def(fn.value)
                if body is None or type(body.node) is not cst.FunctionDef or body.cls is not None:
                    continue
            else:
                continue
            params = body.positional()[n_bound:]
            if carry_at >= len(params):
                continue
            name = params[carry_at].name
            v = self._carry_init(init)
            old = body.carry_values.get(name)
            body.carry_values[name] = v if old is None else V.join(old, v)
            body.carry_sites += 1

    def _carry_init(self, e: cst.BaseExpression) -> V.Value:
        """The value of a loop primitive's initial carry ``e`` as the body receives it
        before ``_carried`` marks its leaves traced: a Python number (`3.`, `0`, `-1.0`,
        `True`), alone or an item of a tuple/list display, becomes a 0-d JAX array
        (JAX converts it: the body's `bool(c)` raises TracerBoolConversionError)."""
        if _number_literal(e):
            return V.Value(kind=V.ARRAY)
        v = self.value(e)
        if type(e) in (cst.Tuple, cst.List) and v.kind in (V.TUPLE, V.LIST) and v.elements is not None \
                and len(v.elements) == len(e.elements) and not any(type(el) is cst.StarredElement for el in e.elements):
            items = tuple(V.Value(kind=V.ARRAY) if _number_literal(el.value) else ev
                          for el, ev in zip(e.elements, v.elements))
            if items != v.elements:
                v = replace(v, elements=items)
        return v

    # -- kinds given by call sites (model/kinds.py) -----------------------------------
    def _note_arg_kinds(self, call: cst.Call) -> None:
        """Any call (traced or not) by name of a plain function: join the kinds of
        what it passes into the callee's parameter kinds: of this file's function, or
        recorded (``arg_calls``) for the module that defines an imported one."""
        func = call.func
        if type(func) is cst.Name:
            v = self.lookup(func.value)
            if v is None:
                unit = self.unit.lookup_def(func.value)
                if unit is None:
                    self._note_external_args(call)
                    return
            elif v.kind == V.FUNCTION and v.unit is not None:
                unit = v.unit
            elif v.kind == V.FUNCTION and v.transform is not None:
                # `pick_jit = jax.jit(pick)` bound once, then `pick_jit(tables, i)`: a call of `pick`
                unit = self._wrapped_unit(bound_once(self.index, self.unit, func))
                if unit is None:
                    return
            else:
                return
            if type(unit.node) is cst.FunctionDef and unit.cls is None:
                kinds.join_into(unit.arg_kinds, kinds.call_kinds(unit.params, call, self.arg_value))
                unit.local_calls += 1
        elif type(func) is cst.Attribute:
            cls = self.unit.cls
            if func.attr.value == "apply":
                self._note_apply_method(call, func)
            if cls is not None and type(func.value) is cst.Name and self.unit.params \
                    and func.value.value == self.unit.params[0].name and self.lookup(func.value.value) is not None:
                # `self._fill(buf)`: the kinds a method of this class is given by its class's calls
                method = cls.methods.get(func.attr.value)
                if method is not None and cls.is_jax_module:
                    _note_direct(method, call, self.arg_value)  # (a module class's: model/walker.py)
                if method is not None and type(method.node) is cst.FunctionDef and not method.node.decorators:
                    kinds.join_into(method.arg_kinds, kinds.call_kinds(method.params, call, self.arg_value, n_bound=1))
                    method.local_calls += 1
                return
            self._note_receiver_method(call, func)
            if self._note_instance_args(call, func):
                return
            self._note_external_args(call)
        elif type(func) is cst.Call and self._note_module_call(call, func):
            pass
        elif type(func) is cst.Call and self.settings.module is not None \
                and self.qualname(func.func) in arg_shapes.KEEP_SHAPES:
            # `jax.grad(losses.loss)(p, x)`: a call of the imported function with these
            # arguments (jit/grad/value_and_grad... hand them over as they are)
            pos = positional_args(func)
            if len(pos) == 1 and type(pos[0].value) in (cst.Name, cst.Attribute) and not any(a.star for a in func.args):
                self._note_external_args(call, pos[0].value)

    def _note_module_call(self, call: cst.Call, func: cst.Call) -> bool:
        """``Block()(x, "relu", (2, 3))``, ``Block(4)(x, mode)``: the ``__call__`` of a
        flax/equinox/haiku module class of this file (its own), built and called at
        once: join the kinds the call passes, a Python value named ``python``, into
        that method's ``direct_kinds``, and count the call (model/walker.py compares
        the count with the uses of the class's name)."""
        if type(func.func) is not cst.Name:
            return False
        ref = self.value(func).instance
        cls = instances.of_class(self, ref) if ref is not None else None
        if cls is None or not cls.is_jax_module or cls.name != func.func.value:
            return False
        method = cls.methods.get("__call__")  # (its own: a subclass's calls are not counted)
        if method is not None:
            _note_direct(method, call, self.arg_value)
        return True

    _APPLY_OWN = frozenset({"method", "rngs", "mutable", "capture_intermediates"})

    def _note_apply_method(self, call: cst.Call, func: cst.Attribute) -> None:
        """``model.apply(variables, x, (2, 3), method=Net.encode)`` (or ``method="encode"``)
        of a flax module class of this file: a call of that method with the arguments
        after ``variables`` (model/walker.py, ``direct_kinds``)."""
        if not call.args or call.args[0].keyword is not None or any(a.star for a in call.args):
            return
        method = applied_method(self.index, self.unit, call)
        if method is None:
            return
        rest = [a for a in call.args[1:] if a.keyword is None or a.keyword.value not in self._APPLY_OWN]
        _note_direct(method, call.with_changes(args=rest), self.arg_value)

    def _note_receiver_method(self, call: cst.Call, func: cst.Attribute) -> None:
        """``model.plot(5, 4)``, ``obj`` a name the file binds (not an import, not a class
        of the file): a call of the method of that name of each flax/equinox/haiku module
        class of this file (``direct_kinds``; the receiver need not be placed: model/walker.py
        counts every mention of ``.plot`` but those on an imported module, ``plt.plot``, and
        a call that passes anything but Python values keeps the method's parameters
        traced)."""
        recv = func.value
        if type(recv) is not cst.Name or recv.value in self.imports.names or not self.index.classes:
            return
        attr = func.attr.value
        if attr.startswith("__") or any(c.name == recv.value for c in self.index.classes):
            return
        for c in self.index.classes:
            method = c.methods.get(attr)
            if method is not None and c.is_jax_module:
                _note_direct(method, call, self.arg_value)

    def _note_instance_args(self, call: cst.Call, func: cst.Attribute) -> bool:
        """``Diagnostics()._ps_tail(ary, n)``, ``self.diag._ps_tail(ary, n)``, ``d = Cls();
        d.m(x)``: a method called on an instance of a class of the project
        (model/instances.py): the kinds of what it passes join that method's parameter
        kinds (``self`` bound), in this file or, recorded (``arg_calls`` with the method),
        in the module that defines the class.  Whether those kinds are used is the
        method's module's call (model/walker.py: a private method whose every use there
        is a call seen)."""
        if type(func.value) is cst.Name and self.unit.params and func.value.value == self.unit.params[0].name \
                and self.unit.cls is not None:
            return False  # `self.m(...)`: the class's own calls (above)
        ref = self.value(func.value).instance
        if ref is None:
            return False
        attr = func.attr.value
        cls = instances.of_class(self, ref)
        if cls is not None:
            method = cls.methods.get(attr)
            if method is not None and type(method.node) is cst.FunctionDef and not method.node.decorators \
                    and not cls.is_jax_module:
                kinds.join_into(method.arg_kinds, kinds.call_kinds(method.params, call, self.arg_value, n_bound=1))
                method.local_calls += 1
            return True
        if self.settings.module is None:
            return True
        if any(a.star for a in call.args):
            self.arg_calls.append((ref, None, None, None, attr))
            return True
        pos = tuple(kinds.fact_name(self.arg_value(a.value)) for a in call.args if a.keyword is None)
        kw = tuple((a.keyword.value, kinds.fact_name(self.arg_value(a.value))) for a in call.args if a.keyword is not None)
        self.arg_calls.append((ref, pos, kw, None, attr))
        return True

    def _note_external_args(self, call: cst.Call, func: Optional[cst.BaseExpression] = None) -> None:
        """``f(...)`` after ``from pkg.mod import f``, ``mod.f(...)``: the kinds of the
        arguments, for ``pkg.mod`` (engine/project.py sends them as facts); ``func``:
        the function a transformation applied at once wraps."""
        if self.settings.module is None:
            return
        func = call.func if func is None else func
        head_node = func
        while type(head_node) is cst.Attribute:  # `mod.f`, `pkg.sub.mod.f`
            head_node = head_node.value
        if type(head_node) is not cst.Name or head_node.value not in self.imports.names:
            return  # `x.sum()`, `f(x)` of a local: not an imported function (the cheap test first)
        callee = dotted_name(func)
        if callee is None:
            return
        head = head_node.value
        if self.lookup(head) is not None:
            return
        if not self.imports.project_import(head, self.settings.project_packages):
            return
        if any(a.star for a in call.args):
            self.arg_calls.append((callee, None, None, None))
            return
        pos = tuple(kinds.fact_name(self.arg_value(a.value)) for a in call.args if a.keyword is None)
        kw = tuple((a.keyword.value, kinds.fact_name(self.arg_value(a.value))) for a in call.args if a.keyword is not None)
        self.arg_calls.append((callee, pos, kw, arg_shapes.call_shapes(self, call)))


def _note_direct(method: Unit, call: cst.Call, value) -> None:
    """A call of ``method``, a method of a flax/equinox/haiku module class of this file
    (``self`` bound), seen: join the kinds it passes, a Python value named ``python``
    (a parameter left at a literal default too), into ``direct_kinds`` and count it."""
    if type(method.node) is not cst.FunctionDef:
        return
    given = kinds.call_kinds(method.params, call, value, n_bound=1, name=kinds.python_name)
    for p in method.params:
        if given.get(p.name) == kinds.DEFAULT and p.has_literal_default:
            given[p.name] = kinds.PYVALUE  # left at its default, a literal (`train=False`)
    kinds.join_into(method.direct_kinds, given)
    method.direct_calls += 1


def _number_literal(e: cst.BaseExpression) -> bool:
    """`3.`, `0`, `-1.0`, `1j`, `True`/`False`: a Python number written in place."""
    if type(e) is cst.UnaryOperation and type(e.operator) in (cst.Minus, cst.Plus):
        e = e.expression
    t = type(e)
    return t in (cst.Integer, cst.Float, cst.Imaginary) or (t is cst.Name and e.value in ("True", "False"))
