"""JAX501 jit-of-fresh-function: `jax.jit`/`pmap` of a `lambda`, `partial` or inner function created anew in a loop or per call: recompiles every time."""

from __future__ import annotations

import re

import os
from typing import Callable, Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import apis, kinds
from jaxlint.model import values as V
from jaxlint.model.scopes import bound_once, bound_receiver, instance_class
from jaxlint.model.units import Unit
from jaxlint.model.walk import descendants, dotted_name, keyword_arg, positional_args, walk_tree


# transforms whose result keeps a compile cache keyed on the function object
_CACHING = apis.CACHING_JITS
# transforms that return a new function object on every call (grad(f) is not cached by jit)
_WRAPPERS = frozenset(
    {"jax.grad", "jax.value_and_grad", "jax.vmap", "jax.jacfwd", "jax.jacrev", "jax.jacobian",
     "jax.hessian", "jax.checkpoint", "jax.remat", "equinox.filter_grad",
     "equinox.filter_value_and_grad", "equinox.filter_vmap"}
)


_EQX_CACHING = frozenset({"equinox.filter_jit", "equinox.filter_pmap"})
_EQX_WRAPPERS = frozenset({"equinox.filter_vmap", "equinox.filter_grad", "equinox.filter_value_and_grad"})


def _equal_eqx_wrapper(ctx, fn: cst.BaseExpression, loop: Optional[cst.CSTNode]) -> bool:
    """``eqx.filter_jit(eqx.filter_vmap(g))`` with ``g`` one function object (a
    module-level function, a method of a class not known to be a plain one): equinox's
    wrappers are Modules, pytrees that ``filter_jit`` caches by structure, so a new
    wrapper of the same function hits the cache (checked with equinox: one trace for
    four calls; a fresh closure or a plain object's bound method inside traces again)."""
    if isinstance(fn, cst.Attribute):
        return _eqx_module_method(ctx, fn)
    if not isinstance(fn, cst.Call) or ctx.qualname(fn.func) not in _EQX_WRAPPERS:
        return False
    pos = positional_args(fn)
    inner = pos[0].value if pos else None
    if inner is None or isinstance(inner, cst.Lambda):
        return False
    if isinstance(inner, cst.Call):
        return _equal_eqx_wrapper(ctx, inner, loop)
    if isinstance(inner, cst.Attribute) and _eqx_module_method(ctx, inner):
        return True
    return isinstance(inner, (cst.Name, cst.Attribute)) and _fresh_reason(ctx, inner, loop) is None


def _eqx_module_method(ctx, fn: cst.Attribute) -> bool:
    """``model.setup`` of an instance of an equinox Module class of this file: a pytree
    (its arrays the dynamic part), so ``filter_jit`` caches it across new instances."""
    obj = fn.value
    if not isinstance(obj, cst.Name):
        return False
    unit = ctx.unit
    if obj.value == "self" and unit.cls is not None and unit.param("self") is not None:
        cls = unit.cls
    else:
        cls = instance_class(ctx.index, unit, obj)
    return cls is not None and any(b == "equinox.Module" or b.startswith("equinox.nn.") for b in cls.bases)


_SHAPED = frozenset({"zeros", "ones", "empty", "full"})


def _literal_shape(ctx, e: cst.BaseExpression) -> Optional[tuple]:
    """The shape of an array written with a literal one: ``jnp.ones((2, 2))``,
    ``np.zeros(3)``, ``jnp.array(1.0)`` (a scalar); None when unknown."""
    if not isinstance(e, cst.Call):
        return None
    q = ctx.qualname(e.func) or ""
    mod, _, name = q.rpartition(".")
    if mod not in ("jax.numpy", "numpy"):
        return None
    pos = positional_args(e)
    if not pos:
        return None
    v = pos[0].value
    if name in ("array", "asarray"):
        return () if isinstance(v, (cst.Integer, cst.Float)) else None
    if name not in _SHAPED:
        return None
    if isinstance(v, cst.Integer):
        return (int(v.value),)
    if isinstance(v, (cst.Tuple, cst.List)) and all(isinstance(el.value, cst.Integer) for el in v.elements):
        return tuple(int(el.value.value) for el in v.elements)  # type: ignore[attr-defined]
    return None


_ARRAY_ATTRS = frozenset({"shape", "dtype", "ndim", "size", "T", "at", "real", "imag"})


def _used_as_object(fn: cst.CSTNode, names: set[str]) -> bool:
    """Does ``fn`` read an attribute of one of ``names`` (other than an array's
    `.shape`/`.dtype`/`.at`...) or call it?"""
    if not names:
        return False
    for m in walk_tree(fn):
        if isinstance(m, cst.Attribute) and isinstance(m.value, cst.Name) and m.value.value in names \
                and m.attr.value not in _ARRAY_ATTRS:
            return True
        if isinstance(m, cst.Call) and isinstance(m.func, cst.Name) and m.func.value in names:
            return True
    return False


def _built_from_item(ctx, loop: cst.CSTNode, wrap: cst.CSTNode, bodies: Optional[list] = None) -> bool:
    """Is the jitted function taken from an object the loop builds from its item
    (``for w in windows: cfg = Config(window=w).init()`` ... ``jax.jit(jax.vmap(cfg.mask))``;
    ``for spec in specs: model = Model(spec)`` ... ``jax.jit(model.apply)``)?  Each
    iteration has its own configuration, a static part of the function: hoisting the
    jit out of the loop would still compile once per configuration."""
    if not isinstance(loop, cst.For) or not isinstance(wrap, cst.Call):
        return False
    item = {n.value for n in walk_tree(loop.target) if isinstance(n, cst.Name)}
    # the names the loop body binds to a construction that reads the item
    built: set[str] = set()
    for _ in range(3):
        before = len(built)
        for n in walk_tree(loop.body, _SCOPE_NODE):
            if not isinstance(n, cst.Assign) or not isinstance(n.value, cst.Call):
                continue
            q = ctx.qualname(n.value.func) or ""
            if q.startswith(("jax.", "functools.")):
                continue  # a transformation or a partial: the function itself, judged as such
            reads = {m.value for m in walk_tree(n.value) if isinstance(m, cst.Name)}
            if reads & (item | built):
                built.update(m.value for t in n.targets for m in walk_tree(t.target) if isinstance(m, cst.Name))
        if len(built) == before:
            break
    if not built:
        return False
    if bodies is not None:
        # an eager loop primitive's body that holds such an object (`partial(_body_fn,
        # solver=solver)` with `solver = optax.adam(b1=b1)` built from the item): each
        # iteration's body is another computation, a compile per item anyway
        return any(isinstance(m, cst.Name) and m.value in built for b in bodies for m in walk_tree(b))
    # the object's method or attribute, wrapped (`jax.vmap(cfg.mask)`, `model.apply`)
    return any(isinstance(m, cst.Attribute) and isinstance(m.value, cst.Name) and m.value.value in built
               for a in wrap.args for m in walk_tree(a.value))


def _static_literal(e: cst.BaseExpression) -> bool:
    """``"sum"``, ``True``, ``None``: a Python constant no trace takes as data (a number
    may be: `x * scale` could be an argument)."""
    return isinstance(e, (cst.SimpleString, cst.ConcatenatedString)) or (
        isinstance(e, cst.Name) and e.value in ("True", "False", "None"))


def _loop_bindings(loop: cst.CSTNode) -> dict[str, list[cst.CSTNode]]:
    """Names the loop body binds -> what it binds them to (assigned values, inner defs)."""
    out: dict[str, list[cst.CSTNode]] = {}
    for n in walk_tree(loop.body, _SCOPE_NODE):  # type: ignore[attr-defined]
        if isinstance(n, cst.Assign) and len(n.targets) == 1 and isinstance(n.targets[0].target, cst.Name):
            out.setdefault(n.targets[0].target.value, []).append(n.value)
        elif isinstance(n, cst.FunctionDef) and n is not loop:
            out.setdefault(n.name.value, []).append(n)
    return out


# keywords of `jax.jit` fixed when the jitted function is built: no argument can carry them
_SETTINGS = frozenset({"in_shardings", "out_shardings", "device", "backend"})


def _settings_per_item(loop: cst.For, wrap: cst.Call, item: set[str]) -> bool:
    """Does the jit take a setting fixed at construction from the loop's item, directly
    or through a name the loop body binds from it (``for chunk in chunks: jax.jit(lambda
    xs: xs, out_shardings=[specs[i] for i in chunk])``)?  Each iteration asks for another
    compilation (other output shardings), which a jit built once could not give."""
    derived = set(item)
    bound = _loop_bindings(loop)
    for _ in range(3):
        before = len(derived)
        for name, values in bound.items():
            if name not in derived and any(
                    isinstance(m, cst.Name) and m.value in derived for v in values
                    if not isinstance(v, cst.FunctionDef) for m in walk_tree(v)):
                derived.add(name)
        if len(derived) == before:
            break
    for a in wrap.args:
        if a.keyword is None or a.keyword.value not in _SETTINGS:
            continue
        # (not an attribute of the item, `in_shardings=x.sharding`: arrays of one
        # collection usually share theirs, and a fresh function compiles each time)
        owners = {id(m.value) for m in walk_tree(a.value) if isinstance(m, cst.Attribute)}
        if any(isinstance(m, cst.Name) and m.value in derived and id(m) not in owners for m in walk_tree(a.value)):
            return True
    return False


_ARGNUMS_TRANSFORMS = frozenset({"jax.grad", "jax.value_and_grad", "jax.hessian", "jax.jacfwd", "jax.jacrev",
                                 "jax.jacobian"})


def _literal_items(ctx, loop: cst.For, ok: Callable[[cst.BaseExpression], bool]) -> set[str]:
    """The loop's names that take, one after the other, the elements of a literal
    collection all of which pass ``ok``: ``for flag in [False, True]`` (``flag``), ``for
    flag, name in zip((False, True), names)`` (``flag``)."""
    def literal(e: cst.BaseExpression) -> bool:
        return isinstance(e, (cst.List, cst.Tuple, cst.Set)) and bool(e.elements) and all(
            isinstance(el, cst.Element) and ok(el.value) for el in e.elements)

    if isinstance(loop.target, cst.Name):
        return {loop.target.value} if literal(loop.iter) else set()
    it = loop.iter
    if not isinstance(loop.target, (cst.Tuple, cst.List)) or not isinstance(it, cst.Call) \
            or not isinstance(it.func, cst.Name) or it.func.value != "zip" or ctx.shadowed("zip") \
            or any(a.star or a.keyword is not None for a in it.args) or len(it.args) != len(loop.target.elements):
        return set()
    return {t.value.value for t, a in zip(loop.target.elements, it.args)
            if isinstance(t.value, cst.Name) and literal(a.value)}


def _static_per_item(ctx, loop: cst.CSTNode, wrap: cst.CSTNode) -> bool:
    """Does each iteration give the jitted function its own static configuration, taken
    from the loop's item: ``for return_map in [False, True]: jax.jit(partial(f,
    return_map=return_map))`` (a string, bool or None bound by ``partial``), ``for key in
    params: def g(p): return make(**{key: p})`` (the item names a keyword: a dict key,
    an attribute of ``getattr``)?  Each iteration is another computation: a jit out of
    the loop would compile once per item as well."""
    if not isinstance(loop, cst.For) or not isinstance(wrap, cst.Call):
        return False
    item = {n.value for n in walk_tree(loop.target) if isinstance(n, cst.Name)}
    if _settings_per_item(loop, wrap, item):
        return True
    literal = _literal_items(ctx, loop, _static_literal)
    numbered = _literal_items(ctx, loop, lambda e: _static_literal(e) or isinstance(e, cst.Integer))
    bound = _loop_bindings(loop)
    todo: list[tuple[cst.CSTNode, int]] = [(a.value, 0) for a in wrap.args]
    seen: set[int] = set()
    while todo:
        e, depth = todo.pop()
        if id(e) in seen or depth > 8:
            continue
        seen.add(id(e))
        if isinstance(e, cst.Name):
            if e.value in bound and e.value not in item:
                todo.extend((v, depth + 1) for v in bound[e.value])
        elif isinstance(e, cst.Call):
            q = ctx.qualname(e.func)
            if q == "functools.partial":
                if any(isinstance(a.value, cst.Name) and a.value.value in literal for a in e.args[1:]):
                    return True  # `partial(f, return_map=return_map)` over literal items
            if q in _ARGNUMS_TRANSFORMS and any(
                    a.keyword is not None and a.keyword.value in ("argnums", "argnum") and isinstance(a.value, cst.Name)
                    and a.value.value in numbered for a in e.args):
                return True  # `for arg in [0, 1]: jax.hessian(f, argnums=arg)`: another derivative each time
            todo.extend((a.value, depth + 1) for a in e.args)
        elif isinstance(e, (cst.FunctionDef, cst.Lambda)):
            params = {p.name.value for p in walk_tree(e.params) if isinstance(p, cst.Param)}
            names = item - params
            if any(isinstance(m, cst.Name) and m.value in literal - params for m in walk_tree(e.body)):
                return True  # `lambda a: loss(a, implicit)` over literal bools: another computation each time
            for m in walk_tree(e.body):
                if isinstance(m, cst.DictElement) and isinstance(m.key, cst.Name) and m.key.value in names:
                    return True  # `{key: p}`: the item is a key, a keyword name
                if isinstance(m, cst.Call) and isinstance(m.func, cst.Name) and m.func.value in ("getattr", "setattr") \
                        and not ctx.shadowed(m.func.value) and len(m.args) >= 2 \
                        and isinstance(m.args[1].value, cst.Name) and m.args[1].value.value in names:
                    return True  # `getattr(obj, name)`: the item names an attribute
    return False


def _new_shape_each_iteration(ctx, loop: cst.CSTNode, call: cst.Call) -> bool:
    """``for arg in (jnp.array(1.0), jnp.ones(2), jnp.ones((2, 2))): jax.jit(f)(arg)``:
    the loop runs over arrays of pairwise different shapes and the call is given the
    loop's item, so every iteration needs a compile anyway (jit caches per shape too)."""
    if not isinstance(loop, cst.For) or not isinstance(loop.target, cst.Name) \
            or not isinstance(loop.iter, (cst.Tuple, cst.List)) or len(loop.iter.elements) < 2:
        return False
    shapes = [_literal_shape(ctx, el.value) for el in loop.iter.elements]
    if any(s is None for s in shapes) or len(set(shapes)) != len(shapes):
        return False
    item = loop.target.value
    return any(isinstance(a.value, cst.Name) and a.value.value == item for a in call.args)


def _jit_wrapper(ctx, call: cst.Call) -> Optional[str]:
    """``maybe_jit(loop_fn, donate_argnums=0)``: a call of a function of this file that
    returns its first parameter jitted (``return jit(fn, *args, **kwargs)``), or unjitted
    only under an ``if`` on a module-level flag bound once to ``False`` or on a
    parameter the call leaves at a ``False`` default (``if DISABLE: return fn``);
    the jit's qualified name, or None."""
    if not isinstance(call.func, cst.Name):
        return None
    v = ctx.value(call.func)
    unit = v.unit if v.kind == V.FUNCTION else None
    if unit is None or not unit.params or not isinstance(unit.node, cst.FunctionDef) or unit.cls is not None:
        return None
    first = unit.params[0].name
    found = None
    for n in walk_tree(unit.node.body, _SCOPE_NODE):
        if not isinstance(n, cst.Return) or n.value is None:
            continue
        r = n.value
        if isinstance(r, cst.Call) and ctx.qualname(r.func) in _CACHING and positional_args(r) \
                and isinstance(positional_args(r)[0].value, cst.Name) and positional_args(r)[0].value.value == first:
            found = ctx.qualname(r.func)
            continue
        if isinstance(r, cst.Name) and r.value == first and _under_false_flag(ctx, unit, n):
            continue
        return None
    return found


def _under_false_flag(ctx, unit: Unit, ret: cst.Return) -> bool:
    """Is ``ret`` in the body of an ``if FLAG:`` whose ``FLAG`` is a module-level name
    bound once to ``False``?"""
    for n in walk_tree(unit.node.body, _SCOPE_NODE):
        if isinstance(n, cst.If) and _contains(n.body, ret) and isinstance(n.test, cst.Name):
            entries = ctx.index.module_unit.bindings.get(n.test.value, [])
            return (len(entries) == 1 and isinstance(entries[0][1], cst.Name) and entries[0][1].value == "False"
                    and n.test.value not in unit.assigned)
    return False


def _fresh_reason(ctx, expr: cst.BaseExpression, loop: Optional[cst.CSTNode]) -> Optional[str]:
    """Why ``expr`` is a new function object each time this code runs, or None."""
    if isinstance(expr, cst.Lambda):
        return "a `lambda`"
    if isinstance(expr, cst.Call):
        q = ctx.qualname(expr.func)
        if q == "functools.partial":
            return "a `functools.partial(...)` object"
        if q in _WRAPPERS:
            short = q.replace("jax.", "").replace("equinox.", "eqx.")
            return f"the result of `{short}(...)`"
        if isinstance(expr.func, cst.Name) and ctx.returns_fresh_function(expr.func):
            return f"the function `{expr.func.value}(...)` returns (a new one per call)"
        return None
    if isinstance(expr, cst.Attribute):
        return _fresh_attribute(ctx, expr, loop)
    if isinstance(expr, cst.Name):
        v = ctx.value(expr)
        unit = v.unit if v.kind == V.FUNCTION else None
        if unit is None and not ctx.unit.is_module and expr.value in ctx.unit.assigned:
            # `update_fn = functools.partial(update, ...)` bound once in this body, then
            # `jax.jit(update_fn)`: the object the name holds is new each time the body runs
            value = bound_once(ctx.index, ctx.unit, expr)
            if value is not expr and isinstance(value, (cst.Call, cst.Lambda)) \
                    and (loop is None or _contains(loop, value)):
                inner = _fresh_reason(ctx, value, loop)
                if inner is not None and not inner.startswith("the bound method"):
                    return f"`{expr.value}`, {inner} made in `{ctx.unit.name}`"
            return None
        if unit is None or unit.parent is None or unit.parent is not ctx.unit or ctx.unit.is_module:
            return None
        if loop is not None and not _contains(loop, unit.node):
            return None  # defined before the loop: one object for every iteration
        kind = "`lambda`" if isinstance(unit.node, cst.Lambda) else f"inner function `{expr.value}`"
        return f"the {kind} defined in `{ctx.unit.name}`"
    return None


def _fresh_attribute(ctx, expr: cst.Attribute, loop: Optional[cst.CSTNode]) -> Optional[str]:
    """``foo.f``: a bound method, a new object at every attribute access (a method of a
    class of this file taking ``self``, or a flax linen module's ``apply``); ``tx.update``
    of an optimizer that this function (or the loop) builds with ``optax.<name>(...)``:
    new closures each time it is built."""
    obj = expr.value
    if not isinstance(obj, cst.Name):
        return None
    attr = expr.attr.value
    unit = ctx.unit
    if obj.value == "self" and unit.cls is not None and unit.param("self") is not None:
        cls = unit.cls
    else:
        cls = instance_class(ctx.index, unit, obj)
    if cls is not None:
        method = cls.methods.get(attr)
        if (method is not None and bound_receiver(method) == 1) or (cls.linen and attr in ("apply", "init")):
            return f"the bound method `{obj.value}.{attr}` (a new object at every attribute access)"
        return None
    imported = _imported_instance_method(ctx, obj, attr)
    if imported is not None:
        return f"the bound method `{obj.value}.{attr}` (a new object at every attribute access)"
    if unit.is_module or ctx.lookup(obj.value) is None:
        return None
    bound = bound_once(ctx.index, unit, obj)
    if bound is obj or not isinstance(bound, cst.Call) or obj.value not in unit.assigned:
        return None
    q = ctx.qualname(bound.func) or ""
    if q.startswith("optax.") and attr in ("update", "init"):
        what = "optimizer"
    elif q in _FRESH_PAIRS and attr in ("apply", "init"):
        what = "transformed function"  # `f = hk.transform(fn)`: new init/apply closures per call
    else:
        return None
    if loop is not None and not any(n is bound for n in walk_tree(loop)):
        return None  # built before the loop: one object for every iteration
    return (f"`{obj.value}.{attr}` of the {what} `{ctx.code(bound.func).strip()}(...)` built in "
            f"`{unit.name}` (new functions each time it is built)")


# haiku's transforms return a pair of new `init`/`apply` closures at every call (jax 0.10.2,
# dm-haiku: `jax.jit(hk.transform(fn).apply)` in a loop traces `apply_fn` once per
# iteration; a jit of one transform's apply, once)
_FRESH_PAIRS = frozenset(f"haiku.{n}" for n in (
    "transform", "transform_with_state", "without_apply_rng", "multi_transform",
    "multi_transform_with_state", "without_state", "with_empty_state"))


def _imported_instance_method(ctx, obj: cst.Name, attr: str) -> Optional[str]:
    """``map_elites.scan_update`` where ``map_elites`` is bound once, in its scope, to
    ``MAPElites(...)`` of a class another module of the project defines, and
    ``scan_update`` is one of its methods an access binds anew (model/instances.py
    ``bound_methods``, carried as the ``methods`` fact): the class as written."""
    bound = bound_once(ctx.index, ctx.unit, obj)
    if bound is obj or not isinstance(bound, cst.Call):
        return None
    written = dotted_name(bound.func)
    if written is None or ctx.lookup(written.split(".", 1)[0]) is not None:
        return None  # a class of this file, or a local name: not an imported class
    methods = ctx.index.imported_methods.get(written)
    return written if methods is not None and attr in methods else None


def _inline(wrap: cst.Call) -> bool:
    a = keyword_arg(wrap, "inline")
    return a is not None and isinstance(a.value, cst.Name) and a.value.value == "True"


def _runs_once(unit: Unit) -> bool:
    """Test functions (``test_*``, methods of ``*Test`` classes) and ``main`` are
    called once per run: per-call recompiles there cost nothing extra."""
    u: Optional[Unit] = unit
    while u is not None and not u.is_module:
        if u.name.startswith("test") or u.name in ("main", "setUp", "setUpClass"):
            return True
        if u.cls is not None and (u.cls.name.endswith("Test") or u.cls.name.startswith("Test")):
            return True
        u = u.parent
    return False


# functions a program calls once or a few times (loading, set-up, conversion): a
# per-call recompile there is not worth a warning
_ONCE_PREFIXES = ("load", "restore", "from_", "init", "setup", "set_up", "build", "create", "convert", "export")


def _called_rarely(unit: Unit, path: str) -> bool:
    """The rule of thumb for the per-call case: stay quiet in test modules (their
    helpers run a handful of times) and in load/set-up/conversion functions."""
    base = os.path.basename(path)
    if base.startswith("test_") or base.endswith("_test.py") or base == "conftest.py":
        return True
    u: Optional[Unit] = unit
    while u is not None and not u.is_module:
        if u.name.lstrip("_").lower().startswith(_ONCE_PREFIXES) or u.name == "__init__":
            return True
        u = u.parent
    return False


# clocks: a function that reads one around the calls of a function it jits anew
# measures the compile (a benchmark's `jit_test`, `compile_time`): the recompile is the point
_CLOCKS = frozenset(
    {"time.perf_counter", "time.perf_counter_ns", "time.time", "time.time_ns", "time.monotonic",
     "time.monotonic_ns", "time.process_time", "timeit.default_timer"}
)


# a clock's own name anywhere, or `time` called, aliased (`from time import time as now`)
# or read (`clock = time.time`): every way a file can reach one of ``_CLOCKS``
_CLOCK_CALL = re.compile(
    r"\b(?:perf_counter|perf_counter_ns|time_ns|monotonic|monotonic_ns|process_time|default_timer)\b"
    r"|\btime\s*\(|\btime\s+as\b|\btime\.time\b"
)
_CLOCK_TEXT: "list" = [None, False]  # [the last text looked at, whether it calls a clock]


def _reads_a_clock(text: str) -> bool:
    """Does the file's text call something named like a clock (every spelling in
    ``_CLOCKS`` ends in one of these names, however imported)?"""
    if _CLOCK_TEXT[0] is not text:
        _CLOCK_TEXT[0], _CLOCK_TEXT[1] = text, _CLOCK_CALL.search(text) is not None
    return _CLOCK_TEXT[1]


def _times_calls(ctx, unit: Unit, memo: "dict[int, bool]") -> bool:
    """Does ``unit``'s own body read a clock twice (a start and an end)?  (Asked for
    many calls of one function: remembered in ``memo``, the file's, per function node.)"""
    body = getattr(unit.node, "body", None)
    if body is None:
        return False
    got = memo.get(id(unit.node))
    if got is not None:
        return got
    reads = 0
    found = False
    if _reads_a_clock(ctx.text):  # (cheap test first, once per file: a clock's name called)
        for n in descendants(body):
            if type(n) is cst.Call and ctx.qualname(n.func) in _CLOCKS:
                reads += 1
                if reads >= 2:
                    found = True
                    break
    memo[id(unit.node)] = found
    return found


def _rebuilt_on_change(loop: cst.CSTNode, node: cst.Assign) -> bool:
    """Is the assignment ``node`` (a jit built in ``loop``) under an ``if`` of the loop
    that rebuilds it only on change: the test checks a recompile flag the body clears
    (``if need_compile: ...; need_compile = False``, ``if not built: ...; built = True``),
    the jitted function or a cached key being unset (``if step is None: step =
    jax.jit(...)``), or compares a cached key with the current value and the body
    records the new one (``if n != built_n: ...; built_n = n``, ``if shape not in
    cache: cache[shape] = jax.jit(...)``)?  The loop then builds (and compiles) a new
    one only when that changes, and reuses it otherwise.  A body that merely writes a
    name the test reads (``if x.shape != s: x = pad(x)``) is no record of a key."""
    nested = lambda c: isinstance(c, (cst.FunctionDef, cst.Lambda, cst.ClassDef))  # noqa: E731
    target = dotted_name(node.targets[0].target) if len(node.targets) == 1 else None
    for n in walk_tree(loop, nested):
        if not isinstance(n, cst.If) or not _contains(n.body, node):
            continue
        writes: list[tuple[Optional[str], Optional[cst.BaseExpression]]] = []
        for a in walk_tree(n.body, nested):
            if isinstance(a, cst.Assign):
                for t in a.targets:
                    tg = t.target
                    if isinstance(tg, cst.Subscript) and len(tg.slice) == 1:
                        # `cache[key] = ...`: the key recorded in the container
                        writes.append((f"{dotted_name(tg.value)}[]", getattr(tg.slice[0].slice, "value", None)))
                    else:
                        writes.append((dotted_name(tg), a.value))
            elif isinstance(a, cst.AnnAssign) and a.value is not None:
                writes.append((dotted_name(a.target), a.value))
            elif isinstance(a, cst.Call) and isinstance(a.func, cst.Attribute) and a.func.attr.value in (
                    "add", "append") and a.args:
                writes.append((f"{dotted_name(a.func.value)}[]", a.args[0].value))
        if any(_records(atom, positive, writes, target) for atom, positive in _test_atoms(n.test, True)):
            return True
    return False


def _test_atoms(test: cst.BaseExpression, positive: bool) -> list[tuple[cst.BaseExpression, bool]]:
    """The parts of an ``if`` test joined by ``and``/``or``, each with whether it is
    meant as written (False under a ``not``)."""
    if isinstance(test, cst.BooleanOperation):
        return _test_atoms(test.left, positive) + _test_atoms(test.right, positive)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _test_atoms(test.expression, not positive)
    return [(test, positive)]


def _records(atom: cst.BaseExpression, positive: bool, writes: list, target: Optional[str]) -> bool:
    """Does the ``if`` body (its ``writes``: dotted target -> value) record what
    ``atom`` tests, so that the test fails next time unless something changed?"""
    def assigned(name: Optional[str]) -> list:
        return [v for t, v in writes if name is not None and t == name and v is not None]

    def names(e: cst.CSTNode) -> set[str]:
        return {x for x in (dotted_name(r) for r in walk_tree(e) if isinstance(r, (cst.Name, cst.Attribute)))
                if x is not None} - {"None", "True", "False"}

    if isinstance(atom, (cst.Name, cst.Attribute)):
        flag = dotted_name(atom)
        if flag is not None and flag == target and not positive:
            return True  # `if not step: step = jax.jit(...)`
        # `if need_compile: ...; need_compile = False`; `if not built: ...; built = True`
        return any(_literal_truth(v) is (not positive) for v in assigned(flag))
    if not isinstance(atom, cst.Comparison) or len(atom.comparisons) != 1:
        return False
    left, op, right = atom.left, atom.comparisons[0].operator, atom.comparisons[0].comparator
    if isinstance(op, (cst.Is, cst.IsNot)) and isinstance(right, cst.Name) and right.value == "None":
        if isinstance(op, cst.Is) == positive:
            unset = dotted_name(left)  # `if step is None:` / `if not (f is not None):`
            return unset is not None and (unset == target or any(
                not (isinstance(v, cst.Name) and v.value == "None") for v in assigned(unset)))
        return False
    changed = isinstance(op, (cst.NotEqual, cst.IsNot)) if positive else isinstance(op, (cst.Equal, cst.Is))
    if changed:
        # `if n != built_n: ...; built_n = n` (either side recorded from the other)
        for mine, other in ((left, right), (right, left)):
            if any(names(v) & names(other) for v in assigned(dotted_name(mine))):
                return True
        return False
    missing = isinstance(op, cst.NotIn) if positive else isinstance(op, cst.In)
    if missing:
        # `if shape not in cache: cache[shape] = jax.jit(...)` (or `seen.add(shape)`)
        return any(names(v) & names(left) for v in assigned(f"{dotted_name(right)}[]"))
    return False


def _literal_truth(v: cst.BaseExpression) -> Optional[bool]:
    """The truth of a literal flag value (True/False/None/0/1), None for anything else."""
    if isinstance(v, cst.Name) and v.value in ("True", "False", "None"):
        return v.value == "True"
    if isinstance(v, cst.Integer):
        return v.value not in ("0", "0x0")
    return None


def _contains(outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
    from jaxlint.model.walk import walk_tree

    return any(n is inner for n in walk_tree(outer))


class RecompileFreshFunction(Rule):
    code = "JAX501"
    name = "jit-of-fresh-function"
    runtime_check = 'compile counts over two calls (a `jax.monitoring` listener): confirmed when the function compiles again with the same inputs.'
    summary = "`jax.jit`/`pmap` of a `lambda`, `partial` or inner function created anew in a loop or per call: recompiles every time"
    severity = Severity.WARNING
    seed = "tutorial § jit: making a new function each time is slow (seed 002); FAQ § jit caching and closures (seeds 001, 004)"
    what_it_does = (
        "Flags `jax.jit(f)` / `jax.pmap(f)` / `eqx.filter_jit(f)` / `nnx.jit(f)` where `f` is a new function object "
        "each time the line runs, and the wrapped function is then called there; and, in a loop that "
        "calls the result, a call of a factory (of the file or another module of the project, a "
        "method called as `self.make_step(lr)`, a lambda `make = lambda lr: jax.jit(partial(update, "
        "lr=lr))`) that returns a new jitted function (`@jax.jit` on a def of its body, `return "
        "jax.jit(inner)`, `step = jax.jit(partial(update, lr=lr)); return step`; not a factory under a "
        "decorator such as `functools.lru_cache`, which may hand back the same one) "
        "given the same arguments every iteration (arguments the loop changes are left alone):\n\n"
        "* `f` is a `lambda`, a `functools.partial(...)`, the result of `jax.grad/vmap/value_and_grad/"
        "checkpoint(...)`, a function defined inside the loop body, a bound method (`obj.method` "
        "of an instance of a class of the file, `self.method`, a flax linen module's `apply`: a "
        "new object at every attribute access), or `tx.update`/`tx.init` of an optimizer built "
        "there by `optax.<name>(...)`, or `f.apply`/`f.init` of a haiku transform built there "
        "(`f = hk.transform(fn)`, `hk.transform_with_state`, `hk.without_apply_rng(...)`), or a name the function body binds once to one of these "
        "(`update_fn = functools.partial(update, ...)` then `jax.jit(update_fn)`); the wrap may be "
        "a helper of the file that returns its function parameter jitted (`def maybe_jit(fn, "
        "**kw): return jit(fn, **kw)`, its eager path only under a module flag bound to `False`);\n"
        "* and either the wrap is inside a loop and the result is called in that loop, or the wrap "
        "is called immediately (`jax.jit(lambda x: ...)(x)`) inside a function body, or bound to "
        "a name there and called once, outside loops (`f = jax.jit(lambda y: ...)` then `f(x)`; "
        "`@jax.jit` / `@functools.partial(jax.jit, ...)` on a function defined in the body and "
        "called there, or handed there to a transformation applied at once: "
        "`eqx.filter_value_and_grad(loss_fn)(model, x)`, `jax.grad(energy)(w)`), so every call of the function compiles again (called in a loop of the "
        "same body, the compile is reused: not flagged; nor a wrap in a loop under an `if` whose "
        "body records what its test checks, `if need_compile: f = jax.jit(...); need_compile = "
        "False`, `if n != built_for: ...; built_for = n`, `if k not in cache: ...; cache[k] = f`, "
        "`if f is None:`: rebuilt only on change; nor where the jitted function uses the "
        "enclosing function's parameters or locals, which need a compile per value anyway, or "
        "where the enclosing function runs a loop: a driver whose compile the run pays for; the "
        "first is flagged where the project shows that the enclosing function runs again and "
        "again: called in a loop or a comprehension (of the file or another module, also as "
        "`x.method(...)` with `x = Cls(...)` of an imported class), by two statements of one "
        "block one after the other (`r1 = f(a)`, `r2 = f(b)`), or from a function that runs "
        "again and again, across modules (`main` loops over `eval_ao_tangent`, which calls the "
        "builder `_eval_gto_jvp_r`), or stored there and called (a nested def)). Rule of thumb for this per-call case: functions that run "
        "once or a few times are skipped: test functions, `main` (unless the file calls it in a loop or a comprehension: a sweep), `setUp`, every function of a "
        "test module (`test_*.py`, `*_test.py`, `conftest.py`), and load/set-up/conversion "
        "functions (named `load*`, `restore*`, `from_*`, `init*`, `setup*`, `build*`, `create*`, "
        "`convert*`, `export*`, `__init__`), and a private function (`_sync`) that this file only "
        "calls from drivers (functions that run a loop), outside their loops: it runs once per run; "
        "a notebook's function that its cells call once, outside loops and functions, and name nowhere "
        "else (no other module imports a notebook); a notebook's function its cells never call, only "
        "store as a setting (`config.loss = soft_error_loss`, `{\"loss\": f}`): where it runs, under the "
        "jitted step that reads the setting or outside, is not followed; "
        "a function that reads a clock before and after (`time.perf_counter()`, `timeit.default_timer()`) "
        "times the compile on purpose (a benchmark's `jit_test`). "
        "`jit(..., inline=True)` is skipped too (it is meant "
        "to be inlined into an enclosing trace).\n\n"
        "A bound method wrapped and traced (called, `.lower()`, `.trace()`) a second time in "
        "the same scope is flagged at the second wrap: it misses the first's cache. "
        "`self.f = jax.jit(fn)` in the `__init__` of an equinox Module is flagged: each "
        "instance holds a new jitted function, a static field compared by identity, so "
        "`eqx.filter_jit` traces again for every new instance.\n\n"
        "The structured loops `jax.lax.scan`, `fori_loop`, `while_loop` and `lax.map`, called "
        "outside any trace (in a loop of the module's own code: a script, its `__main__` block, "
        "a notebook's cells), trace their body and compile the loop, caching the traced body "
        "per function object: given a new callable at every iteration of a Python loop (a "
        "bound method `obj.step` of a class of this file or of another module of the project, "
        "undecorated or jitted, a `lambda`, a `partial`) each call traces and compiles again "
        "(`lax.scan(map_elites.scan_update, carry, (), length=n)` in the main loop). Flagged "
        "at the body; a body taken once before the loop (`step = obj.step`), a module-level "
        "def, a body holding an object the loop builds from its item (`partial(body, "
        "solver=solver)` with `solver = optax.adam(0.003, b1=b1)`: a compile per item anyway), "
        "and the same code inside a function (which may run under a trace, where the "
        "body is traced once with it) are not.\n\n"
        "Not flagged: a loop over arrays of pairwise different literal shapes (`for a in (jnp.array(1.), "
        "jnp.ones(2), jnp.ones((2, 2))):`) whose item the jitted call is given: each iteration compiles "
        "for its new shape anyway; nor a method of an object the loop builds from its item "
        "(`for w in widths: model = MLP(width=w)` ... `jax.jit(model.apply)`): each iteration has its "
        "own static configuration, which a hoisted jit would compile for too; nor a function that takes "
        "its static configuration from the loop's item: a string, bool or None of a literal list (or of a "
        "literal argument of `zip`) bound by `partial` or read by a closure (`for return_map in [False, "
        "True]: jax.jit(partial(ssim, return_map=return_map))`, `for exact, label in zip((False, True), "
        "labels): jax.jit(jax.hessian(lambda a: energy(a, exact)))`), the `argnums` of a derivative taken "
        "from a literal list (`for arg in [0, 1]: jax.jit(jax.hessian(loss, argnums=arg))`), "
        "or an inner function using the item as a keyword or attribute name (`for name in params: def "
        "f(v): return make(**{name: v})`, `getattr(obj, name)`): each iteration is another computation "
        "(a number bound by `partial` or read by the closure could be an argument: still flagged); nor a jit "
        "whose `in_shardings`/`out_shardings`/`device`/`backend` read the loop's item, or a name the loop "
        "binds from it (`for chunk in chunks: jax.jit(lambda xs: xs, out_shardings=[specs[i] for i in chunk])`): "
        "these are fixed when the jit is built, no argument can carry them, and each iteration compiles for "
        "its own (the same sharding each time is still flagged, and so is an attribute of the item, "
        "`in_shardings=x.sharding`: the arrays of one collection usually share it). "
        "Nor a jit in a function body whose jitted function reads that function's parameters, or reaches "
        "an object among them through an inner function it calls or maps (`def one(key): return "
        "sampler.draw(key)` ... `jax.jit(jax.vmap(one))`; a number or an array the inner function "
        "computes with could be an argument, and is still reported). "
        "Nor `eqx.filter_jit` of an equinox wrapper (`eqx.filter_vmap(g)`, `eqx.filter_grad(g)`) "
        "of one function (a module-level function, a method of an equinox Module instance), or of such a "
        "Module's bound method: equinox's wrappers and Modules are pytrees that `filter_jit` caches by "
        "structure, so a new one of the same function hits the cache (a closure made per call still "
        "traces again).\n\n"
        "Re-wrapping a named module-level function (`jax.jit(step)` in a loop) is not flagged: "
        "jit's cache is keyed on the function object, so it compiles once. Code that is itself "
        "traced is not flagged (an inner `jit` is inlined into the outer trace, which is cached). "
        "`jax.vmap` alone is not flagged: it has no compile cache to miss."
    )
    why_bad = (
        "`jax.jit` caches compiled code per *function object*. A lambda, a `partial`, a "
        "`jax.grad(f)` result or an inner closure is a different object every time it is "
        "created, so every iteration (or every call) traces and compiles again. Measured with "
        "`jax.monitoring` on jax 0.10.2 and 0.12: a `jax.jit(lambda x: x * 2)` built in a "
        "5-iteration loop gives 5 traces and 5 compiles; `jax.jit(partial(...))` and "
        "`jax.jit(make_closure())` in the loop give 5/5 as well; `jax.jit(jax.grad(loss))` "
        "recompiles on every iteration too; `jax.jit(named_fn)` re-wrapped each iteration "
        "compiles once. Nothing warns: the program is just slow (`jax.explain_cache_misses(True)` "
        "reports `never seen function: <lambda> ... maybe the function is being re-defined "
        "repeatedly, preventing caching?`)."
    )
    use_instead = (
        "Create the jitted function once, outside the loop (or at module level), and pass "
        "varying values as arguments:\n\n```python\nstep = jax.jit(update)\nfor batch in batches:\n"
        "    params = step(params, batch, lr)\n```\n\n"
        "Where a function builds it on each call, build it once at module level, or cache the "
        "builder, or jit the outer function (then the inner wrapper is traced once with it):\n\n"
        "```python\n@functools.cache\ndef scanner(step):\n    return jax.jit(partial(lax.scan, step))\n\n\n"
        "def run(carry, xs):\n    return scanner(step)(carry, xs)\n```"
    )
    fix_safety = "No automatic fix: hoisting the function changes which variables it closes over."
    VALID = [
        # a jit factory called once, before the loop; or in a loop with a new value each
        # iteration (a sweep: a compile per value may be what the code means)
        Valid(
            """
            import jax


            def make_update(lr):
                @jax.jit
                def update(p):
                    return p - lr * p
                return update


            def train(p, steps):
                update = make_update(0.1)
                for _ in range(steps):
                    p = update(p)
                return p


            def sweep(p, lrs):
                for lr in lrs:
                    update = make_update(lr)
                    p = update(p)
                return p
            """
        ),
        # the eager scan's body is one object for every iteration: a module-level def, a
        # bound method taken once before the loop
        Valid(
            """
            import jax
            import jax.numpy as jnp


            class Runner:
                def __init__(self, scale):
                    self.scale = scale

                def body(self, carry, x):
                    return carry * self.scale + x, carry


            def step(carry, x):
                return carry + x, carry


            runner = Runner(2.0)
            body = runner.body
            c = jnp.zeros(3)
            for i in range(4):
                c, ys = jax.lax.scan(body, c, jnp.ones((5, 3)))
                c, ys = jax.lax.scan(step, c, jnp.ones((5, 3)))
            """
        ),
        # each iteration another computation: the item is a static setting (a bool bound by
        # partial) or a keyword name the closure uses (JAX-GalSim's derivative tests)
        Valid(
            """
            import functools

            import jax
            import jax.numpy as jnp


            def ssim(a, b, return_map=False):
                d = (a - b) ** 2
                return d if return_map else jnp.mean(d)


            def profile(scale=1.0, sigma=1.0):
                return lambda r: jnp.exp(-r / scale) / sigma


            def compare(a, b):
                for return_map in [False, True]:
                    ssim_fn = jax.jit(functools.partial(ssim, return_map=return_map))
                    print(ssim_fn(a, b))


            def check_derivatives(x):
                for name in ["scale", "sigma"]:
                    def flux(v):
                        return jnp.sum(profile(**{name: v})(x))

                    grad_flux = jax.jit(jax.grad(flux))
                    print(name, grad_flux(2.0))
            """,
        ),
        # each iteration another derivative: a bool of a literal tuple (through `zip`) read
        # by the closure, an `argnums` taken from a literal list
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def energy(a, x, exact):
                if exact:
                    return jnp.sum(a * x)
                return jnp.sum(a * x) ** 2


            def curvature(a, x):
                for exact, label in zip((False, True), ("approx", "exact")):
                    hess = jax.jit(jax.hessian(lambda a, x: energy(a, x, exact)))
                    print(label, hess(a, x), hess(a + 1.0, x))
                for arg in [0, 1]:
                    jac = jax.jit(jax.jacfwd(energy, argnums=arg), static_argnums=2)
                    print(arg, jac(a, x, True))
            """,
        ),
        # built per call but reused by a loop in the same call, or returned (a factory)
        Valid(
            """
            import jax

            def train(data):
                step = jax.jit(lambda p, b: p + b)
                p = 0.
                for b in data:
                    p = step(p, b)
                return p

            def make():
                f = jax.jit(lambda y: y * 2)
                return f

            def apply_all(xs):
                @jax.jit
                def g(v):
                    return v + 1
                return [g(x) for x in xs]
            """
        ),
        # the jitted function uses the caller's values (a compile per value is needed), or
        # the function is a driver running a loop (its compile is paid for by the run)
        Valid(
            """
            import jax

            def scaled(x, scale):
                f = jax.jit(lambda y: y * scale)
                return f(x)

            def single_run(config, rng, make_train):
                train_vjit = jax.jit(jax.vmap(make_train(config)))
                return train_vjit(rng)

            def benchmark(x, steps):
                @jax.jit
                def ref(v):
                    return v * 2
                out = ref(x)
                for _ in range(steps):
                    x = x + 1
                return out, x
            """
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def make_step(lr):
                def step(x):
                    return x - lr * jnp.sign(x)

                return step


            def train(x, lr, n):
                step = jax.jit(make_step(lr))  # made once, called n times
                for _ in range(n):
                    x = step(x)
                return x
            """
        ),
        # a hyper-parameter sweep: each compiled step is reused by the inner loop
        Valid(
            """
            import functools
            import jax

            def step(p, lr):
                return p - lr

            def sweep(p):
                for lr in [1e-3, 1e-2]:
                    f = jax.jit(functools.partial(step, lr=lr))
                    for _ in range(100):
                        p = f(p)
                return p
            """
        ),
        # a named module-level function re-wrapped in a loop is cached (A26)
        Valid(
            """
            import jax

            def double(x):
                return x * 2

            def run(x):
                for i in range(5):
                    f = jax.jit(double)
                    x = f(x)
                return x
            """
        ),
        # hoisted out of the loop
        Valid(
            """
            import jax

            def run(xs):
                f = jax.jit(lambda x: x * 2)
                out = []
                for x in xs:
                    out.append(f(x))
                return out
            """
        ),
        # a factory: the jitted function is returned, not called per call
        Valid(
            """
            import jax
            from functools import partial

            def make_step(lr):
                return jax.jit(partial(update, lr=lr))

            def update(p, g, lr):
                return p - lr * g
            """
        ),
        # module level, runs once
        Valid(
            """
            import jax
            import jax.numpy as jnp

            y = jax.jit(lambda x: x + 1)(jnp.ones(3))
            """
        ),
        # inside traced code an inner jit is inlined into the cached outer trace
        Valid(
            """
            import jax

            @jax.jit
            def f(x):
                return jax.jit(lambda y: y * 2)(x)
            """
        ),
        # a test function runs once: a per-call jit there costs nothing extra
        Valid(
            """
            import jax

            def test_double():
                assert jax.jit(lambda x: x * 2)(2) == 4
            """
        ),
        # vmap alone has no compile cache to miss
        Valid(
            """
            import jax

            def run(xs):
                for x in xs:
                    y = jax.vmap(lambda v: v * 2)(x)
                return y
            """
        ),
        # an inner function defined before the loop is one object for every iteration
        Valid(
            """
            import jax

            def run(xs, k):
                def scale(x):
                    return x * k
                for x in xs:
                    y = jax.jit(scale)(x)
                return y
            """
        ),
        # building a list of distinct jitted functions, not calling them in the loop
        Valid(
            """
            import jax

            def build(n):
                fns = []
                for i in range(n):
                    fns.append(jax.jit(lambda x, i=i: x * i))
                return fns
            """
        ),
        # run once per program (loading a checkpoint), and inlined into an outer trace
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def load_params(path, template):
                raw = jnp.load(path)
                return jax.jit(lambda r: r.astype(template.dtype).reshape(template.shape))(raw)


            def add(a, b):
                return jax.jit(lambda x, y: x + y, inline=True)(a, b)
            """
        ),
        # a jit of the caller's own method (`jit(vmap(model.forward))`) in one-shot
        # utilities: it needs the caller's value, and nothing shows the utility called
        # again and again
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from jax import jit, vmap


            def bruteforce_evidence(model, S=60):
                u = jnp.linspace(0.0, 1.0, S)
                return jnp.log(jnp.sum(jnp.exp(jit(vmap(model.forward))(u))))


            class Model:
                def sanity_check(self, key, S):
                    U = jit(vmap(self.sample_U))(jax.random.split(key, S))
                    return jit(vmap(lambda u: self.forward(u)))(U)
            """
        ),
        # the same with equinox, through an alias
        Valid(
            """
            import equinox as eqx
            import jax

            fjit = eqx.filter_jit


            def report_accuracy(net, xs, ys):
                preds = fjit(jax.vmap(net.predict))(xs)
                return (preds == ys).mean()
            """
        ),
        # a driver: its own loop runs the eval steps, then one gather per evaluation (also
        # when the training loop calls it once per evaluation: the compile is amortised)
        Valid(
            """
            import jax
            import numpy as np


            def evaluate(state, batches, eval_step):
                outs = []
                for batch in batches:
                    outs.append(eval_step(state, batch))
                res = np.stack(outs)
                return jax.pmap(lambda x: jax.lax.all_gather(x, "b"), "b")(res)


            def train(state, data, eval_step, epochs):
                for _ in range(epochs):
                    evaluate(state, data, eval_step)
            """
        ),
        # a bound method wrapped once (module level, before the loop, in __init__), a staticmethod, an optimizer built once at module level, a plain function in an equinox field
        Valid(
            """
            from typing import Callable

            import equinox as eqx
            import jax
            import optax


            class Scaler:
                def __init__(self, s):
                    self.s = s
                    self.jitted = jax.jit(self.f)

                def f(self, x):
                    return x * self.s

                @staticmethod
                def g(x):
                    return x + 1


            class Head(eqx.Module):
                forward: Callable

                def __init__(self, fn):
                    self.forward = fn


            sc = Scaler(2.0)
            tx = optax.adam(1e-3)
            f_jit = jax.jit(sc.f)


            def run(x):
                return f_jit(x) + jax.jit(sc.g)(x) + sc.jitted(x)


            def update(grads, state, params):
                return jax.jit(tx.update)(grads, state, params)


            def sweep(xs):
                step = jax.jit(sc.f)
                for x in xs:
                    step(x)


            def to_ir(fn, x):
                # ahead-of-time lowering of a wrapper: compiled there and then, on purpose
                def wrapper(*args):
                    return fn(*args)

                return jax.jit(wrapper).lower(x).as_text()


            if __name__ == "__main__":
                jax.jit(sc.f).lower(1.0)
                for x in range(3):
                    run(x)
                    update(None, None, None)
                    to_ir(abs, x)
            """
        ),
        # an nnx.jit built once, at module level, called in a loop
        Valid(
            """
            import jax.numpy as jnp
            from flax import nnx


            @nnx.jit
            def step(m, v):
                return m(v).sum()


            model = nnx.Linear(2, 1, rngs=nnx.Rngs(0))
            for i in range(10):
                step(model, jnp.ones((3, 2)))
            """
        ),
        # the jitted function reaches an object of the caller through an inner def it
        # calls or maps (`one` calls `sampler.draw`, `batch` maps `sample`, which reads
        # `model.sampler`): built around that object, a compile per object anyway
        Valid(
            """
            import jax


            def sample_grid(sampler, n):
                def one(key):
                    return sampler.draw(key)
                keys = jax.random.split(jax.random.key(0), n)
                return jax.jit(jax.vmap(one))(keys)


            def generate(model, n):
                def sample(key):
                    return model.sampler.sample(key)

                def batch(keys):
                    return jax.vmap(sample)(keys)
                return jax.jit(batch)(jax.random.split(jax.random.key(0), n))
            """
        ),
        # the jitted function is a method of an object the loop builds from its item (a
        # model per width, a window per size): each iteration has its own static
        # configuration, and a hoisted jit would compile once per configuration too
        Valid(
            """
            import dataclasses
            import jax
            import jax.numpy as jnp
            import flax.linen as nn


            @dataclasses.dataclass(frozen=True)
            class Window:
                size: int

                def mask(self, i, pos):
                    return (pos - i) < self.size


            class MLP(nn.Module):
                width: int

                @nn.compact
                def __call__(self, x):
                    return nn.Dense(self.width)(x)


            def sweep(xs, widths):
                outs = []
                for w in widths:
                    model = MLP(width=w)
                    params = model.init(jax.random.key(0), xs)
                    apply = jax.jit(model.apply)
                    outs.append(apply(params, xs))
                return outs


            def masks(sizes):
                out = []
                for s in sizes:
                    win = Window(size=s)
                    out.append(jax.jit(jax.vmap(win.mask, in_axes=(0, None)))(jnp.arange(4), 3))
                return out
            """
        ),
        # one transform, its apply jitted once before the loop
        Valid(
            """
            import haiku as hk
            import jax


            def forward(x):
                return hk.Linear(3)(x)


            def once(x, rng, n_steps):
                f = hk.transform(forward)
                params = f.init(rng, x)
                apply = jax.jit(f.apply)
                for _ in range(n_steps):
                    y = apply(params, rng, x)
                return y
            """
        ),
    ]

    INVALID = [
        # a factory that returns a new jitted function (`@jax.jit` on a def of its body),
        # called in the loop with the same arguments: traced and compiled again each time
        Invalid(
            """
            import jax


            def make_update(lr):
                @jax.jit
                def update(p):
                    return p - lr * p
                return update


            def train(p, steps):
                for _ in range(steps):
                    update = make_update(0.1)
                    p = update(p)
                return p
            """,
            expected=[(13, 18)],
            messages=[
                "`make_update(...)` returns a new jitted function on every call, with a compile cache of its own: called in the loop, it traces and compiles again on every iteration, for the same arguments. Make the jitted function once, before the loop",
            ],
        ),
        # an eager `lax.scan` given a new bound method at every iteration: traced and
        # compiled again each time (four `jit(scan)` compiles for four iterations)
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            class Runner:
                def __init__(self, scale):
                    self.scale = scale

                def body(self, carry, x):
                    return carry * self.scale + x, carry


            runner = Runner(2.0)
            c = jnp.zeros(3)
            for i in range(4):
                c, ys = jax.lax.scan(runner.body, c, jnp.ones((5, 3)))
            """,
            expected=[(16, 26)],
            messages=[
                "`lax.scan` of the bound method `runner.body` (a new object at every attribute access) traces and compiles again on every iteration of the loop: called outside a trace, `lax.scan` caches its traced body per function object, and this one is new each time. Create the function once: take the bound method once, before the loop (`step = runner.body`), and pass the varying values as arguments or carry",
            ],
        ),
        # the loop's item is a number the function computes with (bound by partial, read by
        # a closure): it could be an argument of one jitted function
        Invalid(
            """
            import functools

            import jax
            import jax.numpy as jnp


            def loss(x, w):
                return jnp.sum((x * w) ** 2)


            def sweep(x):
                for scale in [1.0, 2.0, 4.0]:
                    def scaled(v):
                        return jnp.sum(v * scale)

                    f = jax.jit(scaled)
                    g = jax.jit(functools.partial(loss, w=scale))
                    print(f(x), g(x))
            """,
            expected=[(16, 13), (17, 13)],
            messages=[
                "`jit` of the inner function `scaled` defined in `sweep` compiles again on every iteration of the loop: jit caches per function object and this one is new each time. Create the jitted function once (outside the loop or at module level) and pass the varying values as arguments",
                "`jit` of a `functools.partial(...)` object compiles again on every iteration of the loop: jit caches per function object and this one is new each time. Create the jitted function once (outside the loop or at module level) and pass the varying values as arguments",
            ],
        ),
        # bound methods (a new object at every access: a method of a class of the file, a flax module's apply), an optax optimizer's update built per call, a bound method wrapped and traced twice, a jit stored per instance in an equinox Module field
        Invalid(
            """
            from typing import Callable

            import equinox as eqx
            import flax.linen as nn
            import jax
            import optax


            class Scaler:
                def __init__(self, s):
                    self.s = s

                def f(self, x):
                    return x * self.s


            class MLP(nn.Module):
                @nn.compact
                def __call__(self, x):
                    return nn.Dense(2)(x)


            class Head(eqx.Module):
                forward: Callable

                def __init__(self, fn):
                    self.forward = jax.jit(fn)


            sc = Scaler(2.0)
            model = MLP()


            def run(x):
                return jax.jit(sc.f)(x)


            def predict(params, x):
                return jax.jit(model.apply)(params, x)


            def update(grads, params, lr):
                tx = optax.sgd(lr)
                state = tx.init(params)
                return jax.jit(tx.update)(grads, state, params)


            def sweep(xs):
                for x in xs:
                    step = jax.jit(sc.f)
                    step(x)


            if __name__ == "__main__":
                jax.jit(sc.f).lower(1.0)
                jax.jit(sc.f).lower(1.0)
                for lr in (0.1, 0.01):
                    update(None, None, lr)
                for x in range(3):
                    run(x)
            """,
            expected=[(27, 24), (35, 12), (39, 12), (45, 12), (50, 16), (56, 5)],
            messages=[
                "`jit(...)` stored in the field `forward` of the equinox Module `Head` makes a new jitted function for every instance: a static part of the module, compared by identity, so `eqx.filter_jit` (or a jit given the module) traces and compiles again for each new instance. Store the plain function and jit the code that calls it (it is traced inside the caller's jit anyway)",
                '`jit` of the bound method `sc.f` (a new object at every attribute access) compiles again on every call of `run`: jit caches per function object and `run` builds a new one each time. Build it once: at module level, in a builder cached with `functools.cache`, or jit `run` itself; and pass the varying values as arguments',
                '`jit` of the bound method `model.apply` (a new object at every attribute access) compiles again on every call of `predict`: jit caches per function object and `predict` builds a new one each time. Build it once: at module level, in a builder cached with `functools.cache`, or jit `predict` itself; and pass the varying values as arguments',
                '`jit` of `tx.update` of the optimizer `optax.sgd(...)` built in `update` (new functions each time it is built) compiles again on every call of `update`: jit caches per function object and `update` builds a new one each time. Build it once: at module level, in a builder cached with `functools.cache`, or jit `update` itself; and pass the varying values as arguments',
                '`jit` of the bound method `sc.f` (a new object at every attribute access) compiles again on every iteration of the loop: jit caches per function object and this one is new each time. Create the jitted function once (outside the loop or at module level) and pass the varying values as arguments',
                '`jit` of the bound method `sc.f` (a new object at every attribute access) traces and compiles again: it was wrapped and traced on line 55, and jit caches per function object. Wrap it once and reuse the jitted function (`f = jax.jit(sc.f)`)',
            ],
        ),
        # the caller's method, jitted per call, in a function this file calls in a loop:
        # the same model compiles again on every call
        Invalid(
            """
            from jax import jit, vmap


            def evidence(model, grid):
                return jit(vmap(model.forward))(grid)


            def scan_grids(model, grids):
                return [evidence(model, g) for g in grids]
            """,
            expected=[(5, 12)],
            messages=[
                "`jit` of the result of `vmap(...)` compiles again on every call of `evidence`: jit caches per function object and `evidence` builds a new one each time. Build it once: at module level, in a builder cached with `functools.cache`, or jit `evidence` itself; and pass the varying values as arguments",
            ],
        ),
        # built in a function body and called once there: a new compile per call
        Invalid(
            """
            import functools
            import jax
            import jax.numpy as jnp

            def hot_call(x):
                f = jax.jit(lambda y: jnp.sum(y ** 2))
                return f(x)

            def scan_sum(state, T=5):
                @functools.partial(jax.jit, static_argnums=(1,))
                def _scan(state, T):
                    return jax.lax.scan(lambda c, x: (c + x, c), state, jnp.ones(T))

                return _scan(state, T)
            """,
            expected=[(6, 9), (10, 6)],
            messages=[
                "`jit` of a `lambda` compiles again on every call of `hot_call`: jit caches per function object and `hot_call` builds a new one each time. Build it once: at module level, in a builder cached with `functools.cache`, or jit `hot_call` itself; and pass the varying values as arguments",
                "`jit` of the inner function `_scan` defined in `scan_sum` compiles again on every call of `scan_sum`: jit caches per function object and `scan_sum` builds a new one each time. Build it once: at module level, in a builder cached with `functools.cache`, or jit `scan_sum` itself; and pass the varying values as arguments",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def make_step(lr):
                def step(x):
                    return x - lr * jnp.sign(x)

                return step


            def train(x, lrs):
                for lr in lrs:
                    x = jax.jit(make_step(lr))(x)
                return x
            """,
            expected=[(14, 13)],
            messages=[
                "`jit` of the function `make_step(...)` returns (a new one per call) compiles again on every iteration of the loop: jit caches per function object and this one is new each time. Create the jitted function once (outside the loop or at module level) and pass the varying values as arguments",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            x = jnp.ones(3)
            for i in range(5):
                f = jax.jit(lambda x: x * 2)
                x = f(x)
            """,
            expected=[(6, 9)],
            messages=[
                "`jit` of a `lambda` compiles again on every iteration of the loop: jit caches per function object and this one is new each time. Create the jitted function once (outside the loop or at module level) and pass the varying values as arguments",
            ],
        ),
        Invalid(
            """
            import jax
            from functools import partial

            def train(params, batches, lr):
                for b in batches:
                    params = jax.jit(partial(update, lr=lr))(params, b)
                return params

            def update(p, b, lr):
                return p - lr * b
            """,
            expected=[(6, 18)],
            messages=[
                "`jit` of a `functools.partial(...)` object compiles again on every iteration of the loop: jit caches per function object and this one is new each time. Create the jitted function once (outside the loop or at module level) and pass the varying values as arguments",
            ],
        ),
        Invalid(
            """
            import jax

            def run(xs, k):
                for x in xs:
                    def scale(v):
                        return v * k
                    y = jax.jit(scale)(x)
                return y
            """,
            expected=[(7, 13)],
            messages=[
                "`jit` of the inner function `scale` defined in `run` compiles again on every iteration of the loop: jit caches per function object and this one is new each time. Create the jitted function once (outside the loop or at module level) and pass the varying values as arguments",
            ],
        ),
        Invalid(
            """
            import jax

            def predict(params, x):
                return jax.jit(lambda p, v: p @ v)(params, x)
            """,
            expected=[(4, 12)],
            messages=[
                "`jit` of a `lambda` compiles again on every call of `predict`: jit caches per function object and `predict` builds a new one each time. Build it once: at module level, in a builder cached with `functools.cache`, or jit `predict` itself; and pass the varying values as arguments",
            ],
        ),
        Invalid(
            """
            import jax

            def loss(w, x):
                return (w * x).sum()

            def fit(w, xs):
                for x in xs:
                    w = w - jax.jit(jax.grad(loss))(w, x)
                return w
            """,
            expected=[(8, 17)],
            messages=[
                "`jit` of the result of `grad(...)` compiles again on every iteration of the loop: jit caches per function object and this one is new each time. Create the jitted function once (outside the loop or at module level) and pass the varying values as arguments",
            ],
        ),
        # a predict function is called again and again
        Invalid(
            """
            import jax


            def predict_batch(params, x):
                return jax.jit(lambda p, v: v @ p)(params, x)
            """,
            expected=[(5, 12)],
            messages=[
                "`jit` of a `lambda` compiles again on every call of `predict_batch`: jit caches per function object and `predict_batch` builds a new one each time. Build it once: at module level, in a builder cached with `functools.cache`, or jit `predict_batch` itself; and pass the varying values as arguments",
            ],
        ),
        # no loop in sight: the jitted scan is rebuilt by every call of `run`
        Invalid(
            """
            from functools import partial

            import jax
            from jax import lax


            def step(carry, x):
                return carry + x, carry


            def run(carry, xs):
                return jax.jit(partial(lax.scan, step))(carry, xs)
            """,
            expected=[(12, 12)],
            messages=[
                "`jit` of a `functools.partial(...)` object compiles again on every call of `run`: jit caches per function object and `run` builds a new one each time. Build it once: at module level, in a builder cached with `functools.cache`, or jit `run` itself; and pass the varying values as arguments",
            ],
        ),
        # flax.nnx.jit caches per function object like jax.jit (apis.CACHING_JITS)
        Invalid(
            """
            import jax.numpy as jnp
            from flax import nnx


            def evaluate(model, batches):
                total = 0.0
                for x in batches:
                    total += nnx.jit(lambda m, v: m(v).sum())(model, x)
                return total


            def train_step(model, x):
                @nnx.jit
                def step(m, v):
                    return m(v).sum()

                return step(model, x)


            model = nnx.Linear(2, 1, rngs=nnx.Rngs(0))
            for i in range(10):
                train_step(model, jnp.ones((3, 2)))
            """,
            expected=[(8, 18), (13, 6)],
            messages=[
                "`jit` of a `lambda` compiles again on every iteration of the loop: jit caches per function object and this one is new each time. Create the jitted function once (outside the loop or at module level) and pass the varying values as arguments",
                "`jit` of the inner function `step` defined in `train_step` compiles again on every call of `train_step`: jit caches per function object and `train_step` builds a new one each time. Build it once: at module level, in a builder cached with `functools.cache`, or jit `train_step` itself; and pass the varying values as arguments",
            ],
        ),
        # inner defs that read none of the caller's values (only each other and
        # module-level names): the jitted function could be built once
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def summarize(xs):
                def squash(x):
                    return jnp.tanh(x)

                def stat(x):
                    return squash(x).sum()
                return jax.jit(jax.vmap(stat))(xs)
            """,
            expected=[(11, 12)],
            messages=[
                "`jit` of the result of `vmap(...)` compiles again on every call of `summarize`: jit caches per function object and `summarize` builds a new one each time. Build it once: at module level, in a builder cached with `functools.cache`, or jit `summarize` itself; and pass the varying values as arguments",
            ],
        ),
        # an inner function jitted per call and handed at once to a transformation: traced
        # (and compiled) again inside `filter_value_and_grad` at every call of `train`
        Invalid(
            """
            import equinox as eqx
            import jax.numpy as jnp


            def train(params, x):
                @eqx.filter_jit
                def loss_fn(p, v):
                    return jnp.sum((p * v) ** 2)

                loss, grads = eqx.filter_value_and_grad(loss_fn)(params, x)
                return params - 0.1 * grads, loss


            p = jnp.ones(3)
            for _ in range(3):
                p, loss = train(p, jnp.ones(3))
            """,
            expected=[(6, 6)],
            messages=[
                "`filter_jit` of the inner function `loss_fn` defined in `train` compiles again on every call of `train`: jit caches per function object and `train` builds a new one each time. Build it once: at module level, in a builder cached with `functools.cache`, or jit `train` itself; and pass the varying values as arguments",
            ],
        ),
        # the twin: a closure over a number computed from the item (no object built):
        # the number can be an argument of one jitted function
        Invalid(
            """
            import jax


            def doubled(xs, factors):
                out = []
                for f in factors:
                    g = f * 2
                    out.append(jax.jit(jax.vmap(lambda x: x * g))(xs))
                return out
            """,
            expected=[(8, 20)],
            messages=[
                "`jit` of the result of `vmap(...)` compiles again on every iteration of the loop: jit caches per function object and this one is new each time. Create the jitted function once (outside the loop or at module level) and pass the varying values as arguments",
            ],
        ),
        # haiku's transforms build new `init`/`apply` closures at every call: a jit of the
        # `apply` of a transform built in the loop, or in a helper called in one (jax
        # 0.10.2, dm-haiku: `apply_fn` traced 3 times for 3 iterations, once when built once)
        Invalid(
            """
            import haiku as hk
            import jax
            import jax.numpy as jnp


            def forward(x):
                return hk.Linear(3)(x)


            def hk_loop(x, rng, n_steps):
                for _ in range(n_steps):
                    f = hk.transform(forward)
                    params = f.init(rng, x)
                    y = jax.jit(f.apply)(params, rng, x)
                return y


            def make_apply(x, rng):
                model = hk.without_apply_rng(hk.transform_with_state(forward))
                params, state = model.init(rng, x)
                apply = jax.jit(model.apply)
                return apply(params, state, x)


            def main(x, rng):
                for _ in range(10):
                    make_apply(x, rng)
            """,
            expected=[(14, 13), (21, 13)],
            messages=[
                '`jit` of `f.apply` of the transformed function `hk.transform(...)` built in `hk_loop` (new functions each time it is built) compiles again on every iteration of the loop: jit caches per function object and this one is new each time. Create the jitted function once (outside the loop or at module level) and pass the varying values as arguments',
                '`jit` of `model.apply` of the transformed function `hk.without_apply_rng(...)` built in `make_apply` (new functions each time it is built) compiles again on every call of `make_apply`: jit caches per function object and `make_apply` builds a new one each time. Build it once: at module level, in a builder cached with `functools.cache`, or jit `make_apply` itself; and pass the varying values as arguments',
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._unit: Optional[Unit] = None
        # names bound to a fresh jit inside a loop: name -> (wrap call, loop node, reason)
        self._pending: dict[str, tuple[cst.Call, cst.CSTNode, str]] = {}
        # names bound to a fresh jit in a function body outside loops: name -> (wrap, reason)
        self._once: dict[str, tuple[cst.CSTNode, str]] = {}
        self._has_loop: dict[int, bool] = {}  # id(unit) -> its body runs a loop
        # (scope, bound method as written, transform) -> its first wrap traced there
        self._wrapped: dict[tuple, cst.Call] = {}
        self._times: dict[int, bool] = {}  # id(function node) -> it reads a clock twice

    def _sync(self) -> None:
        if self._unit is not self.ctx.unit:
            self._unit = self.ctx.unit
            self._pending = {}
            self._once = {}

    def _fresh_wrap(self, node: cst.CSTNode, loop: Optional[cst.CSTNode]) -> Optional[str]:
        if not isinstance(node, cst.Call):
            return None
        q = self.ctx.qualname(node.func)
        if q not in _CACHING:
            q = _jit_wrapper(self.ctx, node)
            if q is None:
                return None
        pos = positional_args(node)
        fn = pos[0].value if pos else (keyword_arg(node, "fun") or keyword_arg(node, "f"))
        if isinstance(fn, cst.Arg):
            fn = fn.value
        if fn is None:
            return None
        if q in _EQX_CACHING and _equal_eqx_wrapper(self.ctx, fn, loop):
            return None
        return _fresh_reason(self.ctx, fn, loop)

    def _per_call_unit(self) -> bool:
        """Is this a function body whose every call would compile again (not the module,
        not traced, not a function that runs once or rarely)?"""
        ctx = self.ctx
        if ctx.unit.is_module or ctx.in_traced or self._once_per_run(ctx.unit):
            return False
        if _times_calls(ctx, ctx.unit, self._times):
            return False  # it times the compile on purpose
        u: Optional[Unit] = ctx.unit
        while u is not None and not u.is_module:
            # a method of a class derived from another (a library's layer or module
            # class): such methods usually run inside the model's trace, where an inner
            # jit is traced once with it
            if u.cls is not None and any(dotted_name(b.value) not in (None, "object") for b in u.cls.node.bases):
                return False
            u = u.parent
        return True

    def _once_per_run(self, unit: Unit) -> bool:
        """The rule of thumb (tests, test modules, ``main``, set-up and loading functions
        run once or a few times); a ``main(lr)`` that this file calls in a loop or a
        comprehension (a sweep) runs again and again."""
        if _called_rarely(unit, self.ctx.path) or self._notebook_calls_once(unit) or self._notebook_stored_only(unit):
            return True
        if not _runs_once(unit):
            return False
        return not (unit.name == "main" and self.ctx.called_repeatedly(unit))

    def _notebook_stored_only(self, unit: Unit) -> bool:
        """A notebook's function that its cells never call, only store as a setting
        (``config.loss = soft_error_loss``, ``cfg["loss"] = f``, ``{"loss": f}``): what
        calls it, and whether under a trace (ott's soft-sort tutorial reads ``config.loss``
        inside the jitted ``train_step``, where the inner jit is traced once with the
        outer one) or per step outside one, is not followed: unknown, not reported.
        Handed to a call (``map(f, xs)``, ``run(f)``) or called, it is judged as before."""
        ctx = self.ctx
        if not ctx.path.endswith(".ipynb") or unit.cls is not None or unit.parent is None \
                or not unit.parent.is_module:
            return False
        name, module = unit.name, ctx.index.module
        stored: set[int] = set()
        for n in walk_tree(module):
            if isinstance(n, cst.Assign) and isinstance(n.value, cst.Name) and n.value.value == name \
                    and all(isinstance(t.target, (cst.Attribute, cst.Subscript)) for t in n.targets):
                stored.add(id(n.value))
            elif isinstance(n, cst.DictElement) and isinstance(n.value, cst.Name) and n.value.value == name:
                stored.add(id(n.value))
        if not stored:
            return False
        skip: set[int] = {id(unit.node.name)}
        for n in walk_tree(module):
            if isinstance(n, cst.Attribute):
                skip.add(id(n.attr))
            elif isinstance(n, cst.Arg) and n.keyword is not None:
                skip.add(id(n.keyword))
            elif isinstance(n, cst.Name) and n.value == name and id(n) not in skip and id(n) not in stored:
                return False  # called, or handed on some other way
        return True

    def _notebook_calls_once(self, unit: Unit) -> bool:
        """A notebook's function that its cells call once, outside any loop, and name
        nowhere else (``def plot_score(...)``, then ``plot_score(...)`` in one cell): a
        notebook is a program no other module imports, so the function runs once and
        its inner jit compiles once, as a module-level one would.  The call is a cell's
        own statement, not in a function another cell may call again."""
        ctx = self.ctx
        return (ctx.path.endswith(".ipynb") and unit.cls is None and unit.parent is not None
                and unit.parent.is_module and unit.local_calls == 1 and not ctx.called_repeatedly(unit)
                and kinds.uses_of(ctx.text, unit.name)[0] == 2
                and any(isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == unit.name
                        for n in walk_tree(ctx.index.module, lambda c: isinstance(c, (cst.FunctionDef, cst.ClassDef, cst.Lambda)))))

    _EQX_MODULES = frozenset({"equinox.Module", "equinox._module.Module"})
    _FIELD_JITS = frozenset({"jax.jit", "jax.pmap", "jax.pjit", "jax.experimental.pjit.pjit"})

    def _jit_field(self, node: cst.Assign) -> None:
        """``self.forward = jax.jit(fn)`` in an equinox Module's ``__init__``: each instance
        holds a new jitted function, a static leaf of the module compared by identity,
        so a filtered transformation given a new instance traces again."""
        ctx = self.ctx
        unit = ctx.unit
        tgt = node.targets[0].target
        if (unit.cls is None or unit.name not in ("__init__", "__post_init__") or not isinstance(tgt, cst.Attribute)
                or not isinstance(tgt.value, cst.Name) or tgt.value.value != "self"
                or not isinstance(node.value, cst.Call) or ctx.qualname(node.value.func) not in self._FIELD_JITS):
            return
        if not any(b in self._EQX_MODULES for b in unit.cls.bases):
            return
        q = ctx.qualname(node.value.func) or "jax.jit"
        self.report(
            node.value,
            f"`{q.rsplit('.', 1)[1]}(...)` stored in the field `{tgt.attr.value}` of the equinox Module "
            f"`{unit.cls.name}` makes a new jitted function for every instance: a static part of the "
            f"module, compared by identity, so `eqx.filter_jit` (or a jit given the module) traces and "
            f"compiles again for each new instance. Store the plain function and jit the code that "
            f"calls it (it is traced inside the caller's jit anyway)",
        )

    def visit_Assign(self, node: cst.Assign) -> None:
        self._sync()
        ctx = self.ctx
        if ctx.in_traced or len(node.targets) != 1:
            return
        tgt = node.targets[0].target
        if isinstance(tgt, cst.Attribute):
            self._jit_field(node)
            return
        if not isinstance(tgt, cst.Name):
            return
        if ctx.loop_stack and isinstance(node.value, cst.Call):
            # `update = make_update(0.1)` then `update(p)` in the loop: a new jitted function per iteration
            loop = ctx.loop_stack[-1].node
            if any(isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == tgt.value
                   for n in walk_tree(loop)):
                self._fresh_jit_in_loop(node.value, loop)
        if not ctx.loop_stack:
            # `f = jax.jit(lambda y: ...)` in a function body, then `f(x)` called once
            # there: every call of the function builds and compiles a new one
            reason = self._fresh_wrap(node.value, None) if self._per_call_unit() else None
            if reason is not None and not _inline(node.value) and self._per_call_case(node.value):  # type: ignore[arg-type]
                self._once[tgt.value] = (node.value, reason)  # type: ignore[assignment]
            else:
                self._once.pop(tgt.value, None)
            return
        loop = ctx.loop_stack[-1].node
        reason = self._fresh_wrap(node.value, loop)
        if reason is not None and _rebuilt_on_change(loop, node):
            reason = None  # `if need_compile: f = jax.jit(...); need_compile = False`
        if reason is not None:
            self._pending[tgt.value] = (node.value, loop, reason)  # type: ignore[assignment]
        else:
            self._pending.pop(tgt.value, None)

    def _per_call_case(self, node: cst.CSTNode) -> bool:
        """Is a jit built at ``node`` in a function body (outside loops) a compile per
        call worth reporting?  Not when the enclosing function runs a loop: a driver (a
        training, evaluation or benchmark run) whose compile the loop's work pays for.
        Not when the jitted function uses that function's parameters or locals
        (`jax.jit(jax.vmap(make_train(config)))`, `jit(vmap(model.forward))`), which
        need a compile per value anyway, unless this file shows the function called
        again and again (in a loop or a comprehension): a one-shot utility or
        diagnostic runs once per program."""
        unit = self.ctx.unit
        if id(unit) not in self._has_loop:
            self._has_loop[id(unit)] = any(
                isinstance(n, (cst.For, cst.While)) for n in _own_nodes(unit.node))  # type: ignore[arg-type]
        if self._has_loop[id(unit)] or self._run_by_drivers_only(unit):
            return False
        return not self._uses_callers_values(node) or self.ctx.runs_repeatedly(unit)

    def _driver(self, unit: Unit) -> bool:
        if id(unit) not in self._has_loop:
            self._has_loop[id(unit)] = any(
                isinstance(n, (cst.For, cst.While)) for n in _own_nodes(unit.node))  # type: ignore[arg-type]
        return self._has_loop[id(unit)]

    def _run_by_drivers_only(self, unit: Unit) -> bool:
        """Is ``unit`` a private function (``_sync``) that this file only calls, outside
        loops, from drivers (functions that run a loop: a training or evaluation run)?
        It runs once per run, like the driver's own set-up, whose compile the loop pays
        for; a name handed on (a callback) or any other caller: unsure."""
        ctx = self.ctx
        name = unit.name
        if (not name.startswith("_") or name.startswith("__") or unit.cls is not None
                or not isinstance(unit.node, cst.FunctionDef) or ctx.runs_repeatedly(unit)):
            return False
        mentions = sum(1 for n in walk_tree(ctx.module) if isinstance(n, cst.Name) and n.value == name)
        by_drivers = 0
        for u in ctx.index.units:
            if u.is_module or not isinstance(u.node, cst.FunctionDef):
                continue
            calls = sum(1 for n in _own_nodes(u.node)
                        if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == name)
            if calls and not self._driver(u):
                return False
            by_drivers += calls
        return by_drivers > 0 and mentions == by_drivers + 1

    def _uses_callers_values(self, node: cst.CSTNode) -> bool:
        """Does the jitted function use the enclosing function's parameters or locals,
        itself or through a function defined in that function (``def gen(key): return
        model.sample(key)`` ... ``jax.jit(jax.vmap(gen))``: ``gen`` closes over the
        parameter ``model``)?"""
        unit = self.ctx.unit
        outer = {p.name for p in unit.params} | set(unit.assigned)
        local_defs = {u.name: u.node for u in self.ctx.index.units
                      if u.parent is unit and isinstance(u.node, cst.FunctionDef)}
        seen: set[int] = set()
        todo = [node]
        while todo:
            n = todo.pop()
            if id(n) in seen or len(seen) > 8:
                continue
            seen.add(id(n))
            free = self._free_names(n)
            if n is node:
                if free & outer:
                    return True
            elif _used_as_object(n, (free & outer) - {"self", "cls"}):
                # an inner def that calls a method of, or reads an attribute of, an object of
                # the caller (`sampler.draw(key)`): the jitted function is built around that
                # object, a compile per object anyway. (Not `self`, the same object at each
                # call of the method; not a number or an array it computes with, which could
                # be an argument.)
                return True
            todo.extend(local_defs[f] for f in free if f in local_defs)
        return False

    @staticmethod
    def _free_names(node: cst.CSTNode) -> set[str]:
        """The names ``node`` reads that it does not bind itself."""
        inner: set[str] = set()
        used: set[str] = set()
        for n in walk_tree(node):
            if isinstance(n, cst.Param):
                inner.add(n.name.value)
            elif isinstance(n, cst.Name):
                used.add(n.value)
            elif isinstance(n, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
                targets = n.targets if isinstance(n, cst.Assign) else [n]
                for t in targets:
                    tn = t.target
                    if isinstance(tn, cst.Name):
                        inner.add(tn.value)
        if isinstance(node, cst.FunctionDef):
            inner.add(node.name.value)
        return used - inner

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        """``@jax.jit`` (or ``@functools.partial(jax.jit, ...)``) on a function defined
        inside another function's body: a new jitted function per call of that one."""
        self._sync()
        ctx = self.ctx
        if ctx.loop_stack or not self._per_call_unit():
            self._once.pop(node.name.value, None)
            return
        for dec in node.decorators:
            d = dec.decorator
            target = d
            if isinstance(d, cst.Call) and ctx.qualname(d.func) == "functools.partial":
                pos = positional_args(d)
                target = pos[0].value if pos else d
            elif isinstance(d, cst.Call):
                target = d.func
            if ctx.qualname(target) in _CACHING and not (isinstance(d, cst.Call) and _inline(d)):
                if self._per_call_case(node):
                    self._once[node.name.value] = (d, f"the inner function `{node.name.value}` defined in `{ctx.unit.name}`")
                    return
                break
        self._once.pop(node.name.value, None)

    def _fresh_jit_in_loop(self, call: cst.Call, loop: cst.CSTNode) -> None:
        """``make_update(0.1)`` called in a loop whose body calls what it returns, a
        jitted function the factory makes anew (``@jax.jit def update`` in its body,
        of this file or another module of the project): each iteration traces and
        compiles it again, for the same values.  Arguments that change in the loop
        (a new learning rate per run of a sweep) are left alone: a compile per value
        there may be what the code means."""
        ctx = self.ctx
        if not ctx.returns_fresh_jit(call.func):
            return
        varying = {n.value for t in _loop_targets(loop) for n in walk_tree(t) if isinstance(n, cst.Name)}
        for n in walk_tree(loop):
            if isinstance(n, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
                targets = n.targets if isinstance(n, cst.Assign) else [n]
                varying.update(m.value for t in targets for m in walk_tree(t.target) if isinstance(m, cst.Name))
        for a in call.args:
            if a.star or any(isinstance(m, (cst.Call, cst.Subscript)) for m in walk_tree(a.value)) \
                    or any(isinstance(m, cst.Name) and m.value in varying for m in walk_tree(a.value)):
                return
        written = ctx.code(call.func).strip()
        self.report(
            call,
            f"`{written}(...)` returns a new jitted function on every call, with a compile cache of its own: "
            "called in the loop, it traces and compiles again on every iteration, for the same arguments. "
            "Make the jitted function once, before the loop",
        )

    def visit_Call(self, node: cst.Call) -> None:
        self._sync()
        ctx = self.ctx
        if ctx.in_traced:
            return
        func = node.func
        loop = ctx.loop_stack[-1].node if ctx.loop_stack else None
        if loop is not None and isinstance(func, cst.Call):
            self._fresh_jit_in_loop(func, loop)  # `make_update(0.1)(p)` in the loop
        if isinstance(func, cst.Attribute) and func.attr.value in ("lower", "trace") and isinstance(func.value, cst.Call):
            # `jax.jit(f).lower(x)`: ahead-of-time lowering, meant to compile there and then;
            # only a bound method lowered twice in one scope traces twice for nothing
            reason = self._fresh_wrap(func.value, loop)
            if reason is not None and reason.startswith("the bound method") and not _inline(func.value):
                self._rewrapped(func.value, reason)
            return
        if loop is not None and ctx.unit.is_module and self._eager_loop(node, loop):
            return
        if isinstance(func, cst.Call):
            handed = self._handed_once(func)
            if handed is not None:
                # `jax.grad(step)(x)`, `eqx.filter_value_and_grad(loss_fn)(m, x)`: the new
                # jitted function runs at once, traced inside the wrapper, once per call
                wrap, reason = self._once.pop(handed)
                if not ctx.loop_stack:
                    self._report(wrap, reason, f"every call of `{ctx.unit.name}`", ctx.unit.name)  # type: ignore[arg-type]
                return
            reason = self._fresh_wrap(func, loop)
            if reason is None:
                return
            if _inline(func):
                return  # jit(..., inline=True): inlined into the caller's trace
            if reason.startswith("the bound method") and self._rewrapped(func, reason):
                return
            if loop is not None:
                if not _new_shape_each_iteration(ctx, loop, node) and not _built_from_item(ctx, loop, func) \
                        and not _static_per_item(ctx, loop, func):
                    self._report(func, reason, "every iteration of the loop")
            elif (not ctx.unit.is_module and not self._once_per_run(ctx.unit)
                    and not _times_calls(ctx, ctx.unit, self._times) and self._per_call_case(func)):
                self._report(func, reason, f"every call of `{ctx.unit.name}`", ctx.unit.name)
            return
        if isinstance(func, cst.Name) and func.value in self._once:
            wrap, reason = self._once.pop(func.value)
            if not ctx.loop_stack:
                # called once per call of the function (in a loop there, the compile is reused)
                self._report(wrap, reason, f"every call of `{ctx.unit.name}`", ctx.unit.name)  # type: ignore[arg-type]
            return
        if isinstance(func, cst.Name) and func.value in self._pending:
            wrap, wloop, reason = self._pending[func.value]
            if any(f.node is wloop for f in ctx.loop_stack):
                del self._pending[func.value]
                if ctx.loop_stack[-1].node is not wloop:
                    # called in an inner loop: each compile is reused many times
                    # (a hyper-parameter sweep), which is the point of jit
                    return
                if not _new_shape_each_iteration(ctx, wloop, node) and not _built_from_item(ctx, wloop, wrap) \
                        and not _static_per_item(ctx, wloop, wrap):
                    self._report(wrap, reason, "every iteration of the loop")

    def _eager_loop(self, call: cst.Call, loop: cst.CSTNode) -> bool:
        """``jax.lax.scan(obj.step, carry, xs)`` in a loop of the module's own code (a
        script, a ``__main__`` block, a notebook's cells: outside any trace) with a body
        that is a new callable at every iteration (a bound method, a lambda, a
        ``partial``...): the eager loop primitive traces its body and compiles again each
        time (model/apis.py ``EAGER_COMPILING_LOOPS``).  Reported at the body; True when
        the call is such a primitive (judged here, whatever the verdict)."""
        ctx = self.ctx
        q = ctx.qualname(call.func)
        if q not in apis.EAGER_COMPILING_LOOPS:
            return False
        bodies = apis.body_functions(q, call)
        if _new_shape_each_iteration(ctx, loop, call) or _built_from_item(ctx, loop, call) \
                or _built_from_item(ctx, loop, call, bodies) or _static_per_item(ctx, loop, call):
            return True
        short = q.rsplit(".", 1)[1]
        for fn in bodies:
            reason = _fresh_reason(ctx, fn, loop)
            if reason is None:
                continue
            once = (f"take the bound method once, before the loop (`step = {ctx.code(fn).strip()}`)"
                    if isinstance(fn, cst.Attribute) else "define it once, before the loop (a module-level def)")
            self.report(
                fn,
                f"`lax.{short}` of {reason} traces and compiles again on every iteration of the loop: "
                f"called outside a trace, `lax.{short}` caches its traced body per function object, and "
                f"this one is new each time. Create the function once: {once}, and pass the varying "
                f"values as arguments or carry",
            )
            break  # one finding per call
        return True

    def _handed_once(self, wrapper: cst.Call) -> Optional[str]:
        """The name of a jit built anew in this function body (``self._once``) that a
        call ``wrapper(...)`` hands to a transformation applied at once
        (``jax.grad(step)``, ``eqx.filter_value_and_grad(loss_fn)``), if it is one."""
        if not self._once or self.ctx.qualname(wrapper.func) not in _WRAPPERS:
            return None
        pos = positional_args(wrapper)
        if not pos or not isinstance(pos[0].value, cst.Name) or pos[0].value.value not in self._once:
            return None
        return pos[0].value.value

    def _rewrapped(self, wrap: cst.Call, reason: str) -> bool:
        """A bound method wrapped and traced again in the same scope (``jax.jit(foo.f)(x)``
        twice): the second wrap misses the first's cache and traces again."""
        ctx = self.ctx
        fn = positional_args(wrap)[0].value
        memo = (id(ctx.unit), ctx.code(fn).strip(), ctx.qualname(wrap.func))
        first = self._wrapped.get(memo)
        if first is None:
            self._wrapped[memo] = wrap
            return False
        q = ctx.qualname(wrap.func) or "jax.jit"
        self.report(wrap, f"`{q.rsplit('.', 1)[1]}` of {reason} traces and compiles again: it was wrapped "
                          f"and traced on line {{related_line}}, and jit caches per function object. Wrap it "
                          f"once and reuse the jitted function (`f = jax.jit({ctx.code(fn).strip()})`)",
                    related=first)
        return True

    def _report(self, wrap: cst.Call, reason: str, when: str, caller: Optional[str] = None) -> None:
        func = wrap.func if isinstance(wrap, cst.Call) else wrap
        if isinstance(wrap, cst.Call) and self.ctx.qualname(func) == "functools.partial" and wrap.args:
            func = wrap.args[0].value  # @functools.partial(jax.jit, ...)
        q = self.ctx.qualname(func) or "jax.jit"
        short = q.rsplit(".", 1)[1]
        if caller is None:  # in a loop
            advice = ("this one is new each time. Create the jitted function once (outside the loop or at "
                      "module level) and pass the varying values as arguments")
        else:  # built anew by each call of a function: there is no loop to hoist it out of
            advice = (f"`{caller}` builds a new one each time. Build it once: at module level, in a "
                      f"builder cached with `functools.cache`, or jit `{caller}` itself; and pass the "
                      f"varying values as arguments")
        self.report(wrap, f"`{short}` of {reason} compiles again on {when}: jit caches per function object and "
                          f"{advice}")


def _own_nodes(fn: cst.CSTNode):
    """The nodes of a function's body, not those of functions or classes defined in it."""
    body = getattr(fn, "body", None)
    if body is None:
        return
    for n in walk_tree(body, _SCOPE_NODE, with_root=False):
        if not _SCOPE_NODE(n):
            yield n


def _SCOPE_NODE(n: cst.CSTNode) -> bool:
    return isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda))


def _loop_targets(loop: cst.CSTNode) -> list[cst.CSTNode]:
    """The targets a loop binds on each iteration (a ``for`` loop's target)."""
    return [loop.target] if isinstance(loop, cst.For) else []
