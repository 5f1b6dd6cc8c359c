"""PRNG keys across calls: which parameters a function consumes (directly, through a
closure it defines, or through flax's ``rngs=``), and what stays the same from one
loop iteration or one call to the next.

A key handed to the same consumer twice gives the same numbers; so does a key made
from the same seed in every iteration, a key a closure captures (every call of the
closure draws with it), and a key that a function builds from a fixed seed instead
of the one it is given.
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jaxlint.model import apis
from jaxlint.model.scopes import bound_once, writes
from jaxlint.model.units import ClassInfo, Unit
from jaxlint.model.walk import arg_at, children, descendants, dotted_name, positional_args, walk_tree

# names under which code hands a PRNG key to a function
_KEY_WORDS = ("key", "rng", "prng", "rngkey", "prngkey", "seed_key")




def key_like_name(name: str) -> bool:
    """``key``, ``rng``, ``dropout_key``, ``rng_key``, ``prng``... (not ``keys``/``seed``)."""
    low = name.lower().strip("_")
    if low in _KEY_WORDS:
        return True
    return low.endswith(("_key", "_rng", "_prng")) or low.startswith(("rng_", "key_", "prng_"))


# a literal keyword that puts a model in evaluation mode: its dropout draws nothing
_EVAL_MODE = {"deterministic": True, "train": False, "training": False, "is_training": False}


def _eval_mode(call: cst.Call) -> bool:
    """Does ``call`` pass a literal evaluation-mode flag (``deterministic=True``,
    ``train=False``, ``is_training=False``...)?"""
    for a in call.args:
        if a.keyword is not None and a.keyword.value in _EVAL_MODE and isinstance(a.value, cst.Name) \
                and a.value.value == str(_EVAL_MODE[a.keyword.value]):
            return True
    return False


def rngs_keys(call: cst.Call) -> list[cst.Name]:
    """The names given as keys in a literal ``rngs={"dropout": key, ...}`` argument
    (flax's ``apply``/``init``): each is consumed by that call.  Not the ``"params"``
    stream of an ``apply``: it only initialises variables missing from the ones given
    (the same key twice gives the same, given, parameters); nor the ``"dropout"``
    stream of a call in evaluation mode (``deterministic=True``, ``is_training=False``):
    dropout then returns its input and draws nothing."""
    out: list[cst.Name] = []
    applying = isinstance(call.func, cst.Attribute) and call.func.attr.value == "apply"
    evaluating: Optional[bool] = None
    for a in call.args:
        if a.keyword is None or a.keyword.value != "rngs" or not isinstance(a.value, cst.Dict):
            continue
        for el in a.value.elements:
            stream = el.key.evaluated_value if isinstance(getattr(el, "key", None), cst.SimpleString) else None
            if applying and stream == "params":
                continue
            if stream == "dropout":
                if evaluating is None:
                    evaluating = _eval_mode(call)
                if evaluating:
                    continue
            v = getattr(el, "value", None)
            if isinstance(v, cst.Name) and all(v.value != o.value for o in out):
                out.append(v)
    return out


def key_param_consumed(unit: Unit, name: str, how: str) -> None:
    """``name`` is consumed in ``unit``: when it is a parameter of ``unit``, or of a
    function ``unit`` is nested in (a closure reading it, not rebinding it), that
    function consumes that parameter."""
    u: Optional[Unit] = unit
    passed: list[Unit] = []  # the nested functions between the draw and the key's scope
    while u is not None and not u.is_module:
        if u.param(name) is not None:
            u.consumes_keys.setdefault(name, how)
            break
        if name in u.global_names or name in u.nonlocal_names:
            return
        if name in u.assigned and not only_defaulted(u, name):
            break
        passed.append(u)
        u = u.parent
    else:
        return  # a module's key: not an enclosing function's
    for p in passed:
        p.captured_keys.setdefault(name, how)


def draw_dims(call: cst.Call, qualname: str, library: bool) -> set[str]:
    """The names ``call``, a draw from a key, takes bare as a dimension of what it draws:
    an element of a sampler's shape (``normal(key, (m, n))``), the shape itself
    (``normal(key, shape)``), or a positional argument of a library layer built with
    ``key=`` (``eqx.nn.Linear(m, n, key=key)``).  A draw whose arguments differ only there
    is the same key drawn at another size: with ``jax_threefry_partitionable`` (on by
    default) ``normal(k, (4, 8))`` is ``normal(k, (8, 8))[:4]`` (checked on jax 0.10.2).
    Not ``split``'s count: keys handed on are judged where they are drawn from."""
    if library:
        return {a.value.value for a in call.args if a.keyword is None and type(a.value) is cst.Name}
    slot = apis.SHAPE_ARGS.get(qualname)
    if slot is None or qualname == "jax.random.split" or any(a.star for a in call.args):
        return set()
    shape = arg_at(call, slot[0], slot[1])
    if type(shape) is cst.Name:
        return {shape.value}
    if isinstance(shape, (cst.Tuple, cst.List)):
        return {el.value.value for el in shape.elements if type(el.value) is cst.Name}
    return set()


def draw_size_params(unit: Unit) -> list[str]:
    """The parameters of ``unit`` it gives bare as a dimension of a draw from a key it
    consumes (``draw_dims``), never rebound in its body."""
    if not unit.consumes_keys:
        return []
    return sorted(p.name for p in unit.params if p.name in unit.draw_dims and p.name not in unit.assigned
                  and p.name not in unit.consumes_keys)


def split_in_place(unit: Unit, name: str, qualname) -> bool:
    """Is every binding of the parameter ``name`` in ``unit`` a split of itself
    (``key, sub = jax.random.split(key)``)?  The key the caller gives is consumed by
    the first of them: the function consumes its parameter."""
    if unit.param(name) is None or not isinstance(unit.node, cst.FunctionDef):
        return False
    ws = writes(unit.node, name)
    for w in ws:
        v = getattr(w, "value", None)
        if type(w) is not cst.Assign or type(v) is not cst.Call or qualname(v.func) != "jax.random.split":
            return False
        first = arg_at(v, 0, "key")
        if type(first) is not cst.Name or first.value != name:
            return False
    return bool(ws)


def _is_none_test(test: cst.BaseExpression, name: str, negated: bool) -> bool:
    """Is ``test`` ``name is None`` (``negated``: ``name is not None``)?"""
    if type(test) is not cst.Comparison or len(test.comparisons) != 1:
        return False
    op = test.comparisons[0].operator
    other = test.comparisons[0].comparator
    return type(test.left) is cst.Name and test.left.value == name and type(other) is cst.Name \
        and other.value == "None" and type(op) is (cst.IsNot if negated else cst.Is)


_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)


def drawn_outside_comprehensions(unit: Unit, name: str, qualname: Callable) -> bool:
    """Is the parameter ``name`` bound in ``unit`` only as the target of comprehensions
    (``{o: f(o, rng) for o, rng in zip(obs, rngs)}``: a name of the comprehension's own
    scope, not the parameter), and handed to a ``jax.random`` function outside every such
    comprehension (``rngs = jax.random.split(rng, n)``)?  The parameter is then consumed."""
    if unit.param(name) is None or not isinstance(unit.node, cst.FunctionDef):
        return False
    ws = writes(unit.node, name)
    if not ws or any(type(w) is not cst.CompFor for w in ws):
        return False
    inside: set[int] = set()
    for n in descendants(unit.node):
        if isinstance(n, _COMPREHENSIONS):
            f = n.for_in
            bound = False
            while f is not None:
                bound = bound or any(type(x) is cst.Name and x.value == name for x in (f.target, *descendants(f.target)))
                f = f.inner_for_in
            if bound:
                inside.update(id(d) for d in descendants(n))
    for n in descendants(unit.node):
        if type(n) is cst.Call and id(n) not in inside:
            q = qualname(n.func) or ""
            first = positional_args(n)[0].value if positional_args(n) else None
            if q.startswith("jax.random.") and type(first) is cst.Name and first.value == name:
                return True
    return False


def only_defaulted(unit: Unit, name: str) -> bool:
    """Is every binding of the parameter ``name`` in ``unit`` a default for a call that
    gives none (``key = key if key is not None else PRNGKey(0)``, ``key = PRNGKey(0) if
    key is None else key``, ``if key is None: key = ...``)?  A key the caller gives then
    reaches the body unchanged."""
    if unit.param(name) is None or not isinstance(unit.node, cst.FunctionDef):
        return False
    guarded: set[int] = set()
    for n in descendants(unit.node):
        if type(n) is cst.If and _is_none_test(n.test, name, False) and n.orelse is None:
            guarded.update(id(d) for d in descendants(n.body))
    ws = writes(unit.node, name)
    if not ws:
        return False
    for w in ws:
        if type(w) is not cst.Assign or len(w.targets) != 1 or type(w.targets[0].target) is not cst.Name:
            return False
        if id(w) in guarded:
            continue
        v = w.value
        if type(v) is cst.IfExp and (
                _is_none_test(v.test, name, True) and type(v.body) is cst.Name and v.body.value == name
                or _is_none_test(v.test, name, False) and type(v.orelse) is cst.Name and v.orelse.value == name):
            continue
        return False
    return True


def invariant(expr: cst.CSTNode, varying: set[str], calls: bool) -> bool:
    """Is ``expr`` the same in every iteration of a loop that binds ``varying``: no
    name it reads is bound there (``calls=False``: and it calls nothing, so
    ``PRNGKey(int(time.time()))`` or ``PRNGKey(next(seeds))`` vary)?"""
    skip: set[int] = set()
    for n in (expr, *descendants(expr)):
        if isinstance(n, cst.Attribute):
            skip.add(id(n.attr))
        elif isinstance(n, cst.Arg) and n.keyword is not None:
            skip.add(id(n.keyword))
        elif isinstance(n, (cst.Lambda, cst.FunctionDef, cst.GeneratorExp, cst.ListComp, cst.SetComp,
                            cst.DictComp, cst.Yield, cst.Await)):
            return False
        elif isinstance(n, cst.Call):
            if not calls:
                return False
        elif isinstance(n, cst.Name) and id(n) not in skip and n.value in varying:
            return False
    return True


def loop_target_read(loop: cst.CSTNode, qualname: Optional[Callable] = None) -> bool:
    """Does the loop (or comprehension) read its own target (``for cfg in configs:
    ... cfg ...``): its iterations differ by design, not only by what they draw?
    A read inside a closure counts when the iteration runs or transforms it
    (``jax.jit(lambda x: f(x, algorithm))``), not one stored for later.  A ``_``-named
    target, an unused one, or a ``while`` loop: repetitions.  ``qualname``: the
    file's name resolution (``jit`` imported from jax), else names as written."""
    if isinstance(loop, cst.For):
        targets, body = [loop.target], [loop.body]
    elif isinstance(loop, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
        targets, body = [], []
        comp = loop.for_in
        while comp is not None:
            targets.append(comp.target)
            body.append(comp.iter)
            body.extend(c.comparison for c in comp.ifs)
            comp = comp.inner_for_in
        body.extend([loop.key, loop.value] if isinstance(loop, cst.DictComp) else [loop.elt])
    else:
        return False
    names = {n.value for t in targets for n in (t, *descendants(t))
             if isinstance(n, cst.Name) and not n.value.startswith("_")}
    if not names:
        return False
    return any(_reads_target(b, names, qualname) for b in body)


# functions that apply the function they are given before they return (a lambda handed
# to them runs in this iteration), besides JAX's transformations
_APPLYING = frozenset(("map", "filter", "sorted", "min", "max", "reduce", "tree_map", "tree_map_with_path",
                       "map_with_path", "tree_reduce"))


def _reads_target(root: cst.CSTNode, names: set[str], qualname: Optional[Callable]) -> bool:
    """Does ``root`` (one iteration's code) read one of ``names``: in its own code, or in
    a lambda or nested function that the iteration calls or transforms (``jax.jit(lambda
    x: f(x, algorithm))``, ``step = lambda: ...; step()``, ``map(lambda ...)``, a nested
    ``def`` called there)?  A closure stored for later (``hooks.append(lambda: cfg)``)
    does not make the iterations differ."""
    scopes: list[cst.CSTNode] = []
    called: set[str] = set()
    applied: set[int] = set()
    bound: dict[int, str] = {}
    for n in (root, *descendants(root)):
        t = type(n)
        if t is cst.Name:
            if n.value in names:  # type: ignore[attr-defined]
                return True
        elif t is cst.Lambda or t is cst.FunctionDef:
            scopes.append(n)
        elif t is cst.Assign and type(n.value) is cst.Lambda:  # type: ignore[attr-defined]
            for tg in n.targets:  # type: ignore[attr-defined]
                if type(tg.target) is cst.Name:
                    bound[id(n.value)] = tg.target.value  # type: ignore[attr-defined]
        elif t is cst.Call:
            f = n.func  # type: ignore[attr-defined]
            if type(f) is cst.Name:
                called.add(f.value)
            elif type(f) is cst.Lambda:
                applied.add(id(f))
            if _applies(f, qualname):
                for a in n.args:  # type: ignore[attr-defined]
                    if type(a.value) is cst.Lambda:
                        applied.add(id(a.value))
                    elif type(a.value) is cst.Name:
                        called.add(a.value.value)
    for s in scopes:
        if type(s) is cst.FunctionDef:
            run = s.name.value in called or any(  # type: ignore[attr-defined]
                _applies(d.decorator, qualname) for d in s.decorators)  # type: ignore[attr-defined]
        else:
            run = id(s) in applied or bound.get(id(s)) in called
        if run and any(isinstance(n, cst.Name) and n.value in names for n in walk_tree(s)):
            return True
    return False


def _applies(func: cst.CSTNode, qualname: Optional[Callable]) -> bool:
    """Is ``func`` (what a call calls, or a decorator) a JAX transformation or a
    function that applies the function it is given (``map``, ``jax.tree.map``)?"""
    funcs = [func]
    if isinstance(func, cst.Call):  # `@jax.jit(...)`, `@partial(jax.jit, ...)`
        funcs = [func.func] + [a.value for a in func.args[:1] if a.keyword is None]
    for f in funcs:
        q = (qualname(f) if qualname is not None else None) or dotted_name(f) or ""
        if apis.transform_for(q) is not None or q.rsplit(".", 1)[-1] in _APPLYING:
            return True
    return False


def module_key_fields(cls: ClassInfo, qualname) -> dict[str, str]:
    """The fields of a flax linen module class (declared in its body: given at
    construction, fixed for the life of the object) that its methods hand to a
    ``jax.random`` consumer (``jax.random.split(self.rng_key)``): field -> consumer.
    Every ``apply`` of one instance draws from the same key."""
    fields = []
    for stmt in cls.node.body.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    fields.append(small.target.value)
    out: dict[str, str] = {}
    if not fields:
        return out
    for m in cls.methods.values():
        if not isinstance(m.node, cst.FunctionDef):
            continue
        for n in descendants(m.node.body):
            if not isinstance(n, cst.Call):
                continue
            q = qualname(n.func) or ""
            if not q.startswith("jax.random.") or q.rsplit(".", 1)[1] not in apis.RANDOM_CONSUMERS:
                continue
            key = arg_at(n, 0, "key")
            if (isinstance(key, cst.Attribute) and isinstance(key.value, cst.Name) and key.value.value == "self"
                    and key.attr.value in fields):
                out.setdefault(key.attr.value, q.rsplit(".", 1)[1])
    return out


# haiku's key stream: what draws from the key an ``apply`` is given
_HAIKU_DRAWS = frozenset({"haiku.next_rng_key", "haiku.next_rng_keys", "haiku.maybe_next_rng_key",
                          "haiku.reserve_rng_keys", "haiku.dropout"})


def haiku_draws(unit: Unit, qualname, class_named, depth: int = 3) -> Optional[str]:
    """The haiku draw (``next_rng_key``, ``dropout``...) that the function a
    ``hk.transform`` holds makes, directly, through a function of the file it calls,
    or through a method of a module class of the file it builds; None when it makes
    none that can be seen (unknown: the apply's key is not counted as consumed)."""
    seen: set[int] = set()
    todo = [(unit, 0)]
    while todo:
        u, d = todo.pop()
        if id(u.node) in seen:
            continue
        seen.add(id(u.node))
        for n in descendants(u.node):
            if not isinstance(n, cst.Call):
                continue
            q = qualname(n.func) or ""
            if q in _HAIKU_DRAWS:
                return "hk." + q.rsplit(".", 1)[1]
            if d < depth and isinstance(n.func, cst.Name):
                callee = u.lookup_def(n.func.value)
                if callee is not None:
                    todo.append((callee, d + 1))
                    continue
                cls = class_named(n.func.value)
                if cls is not None:
                    todo.extend((m, d + 1) for m in cls.methods.values())
    return None


# draws from a key stream a library hands the function each time it runs: numpyro's
# seed handler (`numpyro.sample` of a latent, `numpyro.prng_key()`), haiku's
# `hk.next_rng_key()` inside a transformed function, flax's `self.make_rng(...)`
_STREAM_DRAWS = {"numpyro.sample": "numpyro", "numpyro.prng_key": "numpyro",
                 "haiku.next_rng_key": "haiku", "haiku.next_rng_keys": "haiku",
                 "haiku.maybe_next_rng_key": "haiku", "haiku.reserve_rng_keys": "haiku"}
STREAM_ADVICE = {"numpyro": "`numpyro.prng_key()`", "haiku": "`hk.next_rng_key()`",
                 "flax": "`self.make_rng(name)`"}


def stream_draw(unit: Unit, qualname) -> Optional[tuple[cst.Call, str]]:
    """The first call in ``unit``'s own body that draws from a key stream a library
    hands the function anew each run (``numpyro.sample("z", d)`` without ``obs=``,
    ``numpyro.prng_key()``, ``hk.next_rng_key()``, ``self.make_rng("dropout")`` in a
    flax linen method), and the library; None when there is none."""
    if not isinstance(unit.node, cst.FunctionDef):
        return None
    linen = unit.cls is not None and unit.cls.linen and bool(unit.params) and unit.params[0].name == "self"
    for n in descendants(unit.node):
        if type(n) is not cst.Call:
            continue
        func = n.func
        if linen and type(func) is cst.Attribute and func.attr.value == "make_rng" \
                and type(func.value) is cst.Name and func.value.value == "self":
            return n, "flax"
        lib = _STREAM_DRAWS.get(qualname(func) or "")
        if lib is None:
            continue
        if lib == "numpyro" and any(a.keyword is not None and a.keyword.value == "obs"
                                    and not (type(a.value) is cst.Name and a.value.value == "None") for a in n.args):
            continue  # an observed site draws nothing
        return n, lib
    return None


# the full arity of a haiku holder's method: `apply(params, rng, *args)`, with state
# `apply(params, state, rng, *args)`; `without_apply_rng` drops the rng (a smaller skip)
_HAIKU_FULL = {("hk.transform", "apply"): 2, ("hk.transform_with_state", "apply"): 3}


def haiku_apply_rng(call: cst.Call, held, draws: Callable[[Unit], str]
                    ) -> Optional[tuple[cst.BaseExpression, str]]:
    """``f.apply(params, rng, x)`` of ``f = hk.transform(forward)`` (``apply(params,
    state, rng, x)`` with state) where ``forward`` draws from haiku's key stream
    (``draws(unit)``: the draw's name, "" when none is seen): the rng argument and the
    draw.  None when the call is no such apply (``init`` draws the parameters, not the
    noise; a ``without_apply_rng`` apply takes no key; a starred argument hides it), or
    passes a literal evaluation-mode flag (``is_training=False``), as for flax."""
    func = call.func
    if held is None or type(func) is not cst.Attribute or func.attr.value != "apply" \
            or _HAIKU_FULL.get((held.holder, "apply")) != held.skip:
        return None
    drawn = draws(held.unit)
    if not drawn or _eval_mode(call):
        return None  # (`is_training=False`: dropout, the usual draw, returns its input)
    pos = positional_args(call)
    at = held.skip - 1
    if at >= len(pos) or any(a.star for a in call.args[:held.skip]):
        return None
    return pos[at].value, drawn


# mapping transformations and where their ``in_axes`` is written (position, keyword)
_MAPPERS = {"jax.vmap": 1, "jax.pmap": None, "equinox.filter_vmap": None, "equinox.filter_pmap": None,
            "flax.nnx.vmap": None}


def mapper(transform: cst.Call, qualname: Callable[[cst.CSTNode], Optional[str]]) -> Optional[str]:
    """The mapping transformation (``jax.vmap``, ``jax.pmap``, ``eqx.filter_vmap``...) a
    call such as ``jax.vmap(f, in_axes=0)`` applies, or None."""
    q = qualname(transform.func)
    return q if q in _MAPPERS else None


def unmapped_positions(transform: cst.Call, qualname: Callable[[cst.CSTNode], Optional[str]]) -> Optional[frozenset]:
    """The positions of the arguments a mapping transformation's call (``jax.vmap(f,
    in_axes=(None, 0))``) hands to every element unchanged: the ``None`` entries of a
    literal ``in_axes`` tuple or list; every position for ``in_axes=None`` (as the
    frozenset ``{-1}``); None when it maps them all or ``in_axes`` is not a literal."""
    q = qualname(transform.func)
    if q in apis.PARTIALS and transform.args and transform.args[0].keyword is None:
        # `@partial(jax.vmap, in_axes=(None, 0))` on a def: the keyword alone
        q = qualname(transform.args[0].value)
        if q not in _MAPPERS:
            return None
        axes = next((a.value for a in transform.args if a.keyword is not None and a.keyword.value == "in_axes"), None)
        return _unmapped(axes)
    if q not in _MAPPERS or not transform.args or transform.args[0].keyword is not None:
        return None
    axes = arg_at(transform, _MAPPERS[q], "in_axes") if _MAPPERS[q] is not None else None
    if axes is None:
        axes = next((a.value for a in transform.args if a.keyword is not None and a.keyword.value == "in_axes"), None)
    return _unmapped(axes)


def _unmapped(axes: Optional[cst.BaseExpression]) -> Optional[frozenset]:
    if axes is None:
        return None
    if type(axes) is cst.Name and axes.value == "None":
        return frozenset({-1})
    if type(axes) in (cst.Tuple, cst.List):
        return frozenset(i for i, el in enumerate(axes.elements)
                         if type(el.value) is cst.Name and el.value.value == "None")
    return None


def initializer_of(func: cst.BaseExpression, unit: Unit, index, qualname: Callable[[cst.CSTNode], Optional[str]],
                   depth: int = 0) -> Optional[str]:
    """The factory (its short name: ``lecun_normal``) whose initializer the callee
    ``func`` of a call holds, an initializer that draws from the key it is called with
    (``apis.INITIALIZER_FACTORIES``): ``jax.nn.initializers.normal()`` written in place;
    a name bound once to such a call (``init = nn.initializers.lecun_normal()``, here or
    in an enclosing scope, also through another such name); ``self.kernel_init`` of a
    class whose body gives the field such a default (``kernel_init: Callable =
    default_kernel_init``, a flax linen or dataclass field) and that no method assigns.
    None for anything else."""
    if depth > 3:
        return None
    t = type(func)
    if t is cst.Call:
        q = qualname(func.func)
        return q.rsplit(".", 1)[1] if apis.initializer_factory(q) else None
    if t is cst.Name:
        bound = bound_once(index, unit, func)
        if bound is func:
            return _initializer_param(unit, func.value, index, qualname, depth)
        return initializer_of(bound, unit, index, qualname, depth + 1)
    if t is cst.Attribute and type(func.value) is cst.Name and func.value.value == "self":
        u: Optional[Unit] = unit
        while u is not None and u.cls is None:
            u = u.parent  # a function nested in a method reads the method's `self`
        if u is None or not u.params or u.params[0].name != "self":
            return None
        return _field_initializer(u.cls, func.attr.value, index, qualname, depth)
    return None


def _initializer_param(unit: Unit, name: str, index, qualname, depth: int) -> Optional[str]:
    """The parameter ``name`` of ``unit`` (or of a function it is nested in), never
    rebound, when it holds an initializer that draws: annotated ``Initializer``
    (``weight_init: Initializer``), or defaulting to a drawing one (``kernel_init=
    lecun_normal()``)."""
    u: Optional[Unit] = unit
    while u is not None and not u.is_module:
        p = u.param(name)
        if p is not None:
            if name in u.assigned:
                return None
            if apis.initializer_type(p.annotation):
                default = p.default.func if type(p.default) is cst.Call else p.default
                q = qualname(default) if default is not None else None
                if q is not None and "." in q and q.rsplit(".", 1)[0] in apis.INITIALIZER_MODULES \
                        and not apis.initializer_factory(q):
                    return None  # `bias_init: Initializer = zeros`: by default it draws nothing
                return name
            return initializer_of(p.default, u, index, qualname, depth + 1) if p.default is not None else None
        if name in u.assigned:
            return None
        u = u.parent
    return None


def _field_initializer(cls: ClassInfo, attr: str, index, qualname, depth: int) -> Optional[str]:
    """The initializer factory a class field's default holds (its body: ``attr = value`` or
    ``attr: T = value``), when no method of the class assigns ``self.attr``."""
    value = None
    for stmt in cls.node.body.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.AnnAssign) and type(small.target) is cst.Name and small.target.value == attr:
                value = small.value
            elif isinstance(small, cst.Assign) and len(small.targets) == 1 \
                    and type(small.targets[0].target) is cst.Name and small.targets[0].target.value == attr:
                value = small.value
    if value is None:
        return None
    factory = initializer_of(value, index.module_unit, index, qualname, depth + 1)
    if factory is None:
        return None
    for m in cls.methods.values():
        for d in descendants(m.node):
            if type(d) is cst.AssignTarget and type(d.target) is cst.Attribute and d.target.attr.value == attr:
                return None  # `self.kernel_init = ...` somewhere: not the default alone
    return factory



# shard_map: `in_specs` entries `P()` replicate an argument to every shard
SHARD_MAPS = frozenset({"jax.shard_map", "jax.experimental.shard_map.shard_map"})
_PARTITION_SPECS = frozenset({"jax.sharding.PartitionSpec", "jax.P", "jax.experimental.PartitionSpec",
                              "jax.experimental.pjit.PartitionSpec", "jax.interpreters.pxla.PartitionSpec"})


def _spec_kind(e: cst.BaseExpression, qualname: Callable[[cst.CSTNode], Optional[str]]) -> str:
    """``P()`` (or ``P(None, None)``): "replicated"; ``P("data")``: "sharded"; else "unknown"."""
    if type(e) is not cst.Call or qualname(e.func) not in _PARTITION_SPECS or any(a.star or a.keyword for a in e.args):
        return "unknown"
    if all(type(a.value) is cst.Name and a.value.value == "None" for a in e.args):
        return "replicated"
    return "sharded"


def replicated_keys(index, qualname: Callable[[cst.CSTNode], Optional[str]]) -> dict:
    """id(unit) -> {parameter: (shard_map site, the call that hands it down or None)}: the
    parameters of a function ``jax.shard_map`` runs once per shard that get the same value on
    every shard (``in_specs`` entry ``P()``) while another argument is split (an entry such as
    ``P("obs")``), and not rebound there; one level down too, the parameter of a helper of this
    file that the function calls with it and with a split argument
    (``_draw(rng_key, loc, n)``, ``rng_key`` replicated and ``loc`` split).  A key there is the
    same key on every shard: what it draws is the same on every shard."""
    memo = index.replicated_keys
    if memo is not None:
        return memo
    out: dict = {}
    index.replicated_keys = out
    for site in index.sites:
        if site.qualname not in SHARD_MAPS or site.call is None:
            continue
        unit = site.target
        if unit is None:
            fn = arg_at(site.call, 0, None)
            if type(fn) is not cst.Name:
                continue
            unit = site.scope.lookup_def(fn.value)
        if unit is None or type(unit.node) is not cst.FunctionDef:
            continue
        specs = arg_at(site.call, 2 if site.target is None else None, "in_specs")
        if type(specs) is cst.Name:
            specs = bound_once(index, site.scope, specs)
        if type(specs) not in (cst.Tuple, cst.List):
            continue
        kinds = [_spec_kind(el.value, qualname) for el in specs.elements]
        positional = unit.positional()
        if len(kinds) != len(positional) or "sharded" not in kinds:
            continue
        rep = {p.name for p, k in zip(positional, kinds) if k == "replicated" and p.name not in unit.assigned}
        split = {p.name for p, k in zip(positional, kinds) if k == "sharded"}
        if not rep:
            continue
        mine = out.setdefault(id(unit), {})
        for p in rep:
            mine.setdefault(p, (site, None))

        def nested(n: cst.CSTNode, root=unit.node) -> bool:
            return n is not root and type(n) in (cst.FunctionDef, cst.Lambda, cst.ClassDef)

        for call in walk_tree(unit.node.body, nested):
            if type(call) is not cst.Call or type(call.func) is not cst.Name or any(a.star for a in call.args):
                continue
            helper = unit.lookup_def(call.func.value)
            if helper is None or helper is unit or type(helper.node) is not cst.FunctionDef:
                continue
            reads = {n.value for a in call.args for n in walk_tree(a.value) if type(n) is cst.Name}
            if not reads & split:
                continue
            hpos = helper.positional()
            for i, a in enumerate(call.args):
                if a.keyword is not None:
                    name = a.keyword.value
                elif i < len(hpos):
                    name = hpos[i].name
                else:
                    continue
                if type(a.value) is cst.Name and a.value.value in rep and name not in helper.assigned \
                        and helper.param(name) is not None:
                    out.setdefault(id(helper), {}).setdefault(name, (site, call))
    return out


# batches of copies of one key: `jnp.repeat(key[None], n, axis=0)`, `jnp.tile(key, (n, 1))`,
# `jnp.broadcast_to(key, (n, 2))`; `jnp.stack([key] * n)`, `jnp.array([key for _ in range(n)])`
_COPIERS = frozenset({"jax.numpy.repeat", "jax.numpy.tile", "jax.numpy.broadcast_to",
                      "numpy.repeat", "numpy.tile", "numpy.broadcast_to"})
_STACKERS = frozenset({"jax.numpy.stack", "jax.numpy.array", "jax.numpy.asarray", "jax.numpy.vstack",
                       "numpy.stack", "numpy.array", "numpy.asarray", "numpy.vstack"})


def copied_key(expr: cst.BaseExpression, unit: Unit, index, qualname: Callable[[cst.CSTNode], Optional[str]],
               is_key: Callable[[cst.BaseExpression], bool], depth: int = 0) -> Optional[cst.BaseExpression]:
    """The one key that the batch ``expr`` holds copies of (every row the same key):
    ``jnp.repeat(key[None, :], n, axis=0)``, ``jnp.tile(key, (n, 1))``,
    ``jnp.broadcast_to(key, (n,) + key.shape)``, ``jnp.stack([key] * n)``,
    ``jnp.array([key for _ in range(n)])`` (a comprehension that does not read its
    target), also through a name bound once to one; ``is_key``: does an expression hold
    one key (not a batch of them).  None for anything else (``jax.random.split(key, n)``)."""
    if depth > 3:
        return None
    if type(expr) is cst.Name:
        bound = bound_once(index, unit, expr)
        return None if bound is expr else copied_key(bound, unit, index, qualname, is_key, depth + 1)
    if type(expr) is not cst.Call or any(a.star for a in expr.args):
        return None
    q = qualname(expr.func)
    first = arg_at(expr, 0, None)
    if first is None:
        return None
    if q in _COPIERS:
        src = _one_row(first, qualname)
        return src if src is not None and is_key(src) else None
    if q in _STACKERS:
        elt = None
        if type(first) is cst.BinaryOperation and type(first.operator) is cst.Multiply:
            lst = first.left if type(first.left) in (cst.List, cst.Tuple) else first.right
            if type(lst) in (cst.List, cst.Tuple) and len(lst.elements) == 1:
                elt = lst.elements[0].value
        elif type(first) in (cst.ListComp, cst.GeneratorExp) and first.for_in.inner_for_in is None \
                and not first.for_in.ifs:
            targets = {n.value for n in walk_tree(first.for_in.target) if type(n) is cst.Name}
            if not any(type(n) is cst.Name and n.value in targets for n in walk_tree(first.elt)):
                elt = first.elt
        elif type(first) in (cst.List, cst.Tuple) and len(first.elements) > 1:
            written = {dotted_name(el.value) for el in first.elements}
            if len(written) == 1 and None not in written:
                elt = first.elements[0].value
        if elt is not None and type(elt) in (cst.Name, cst.Attribute) and is_key(elt):
            return elt
    return None


def _one_row(e: cst.BaseExpression, qualname: Callable[[cst.CSTNode], Optional[str]]) -> Optional[cst.BaseExpression]:
    """The key ``e`` makes a batch of one of (``key[None]``, ``key[None, :]``,
    ``key[jnp.newaxis]``, ``jnp.expand_dims(key, 0)``), or ``e`` itself when it is a
    name or attribute (the key as it is)."""
    if type(e) in (cst.Name, cst.Attribute):
        return e
    if type(e) is cst.Subscript and type(e.value) in (cst.Name, cst.Attribute) and e.slice:
        first = e.slice[0].slice
        if type(first) is cst.Index and (type(first.value) is cst.Name and first.value.value == "None"
                                         or qualname(first.value) in ("jax.numpy.newaxis", "numpy.newaxis")):
            rest = e.slice[1:]
            if all(type(s.slice) is cst.Slice and s.slice.lower is None and s.slice.upper is None
                   or type(s.slice) is cst.Index and type(s.slice.value) is cst.Ellipsis for s in rest):
                return e.value
        return None
    if type(e) is cst.Call and qualname(e.func) in ("jax.numpy.expand_dims", "numpy.expand_dims"):
        src, axis = arg_at(e, 0, "a"), arg_at(e, 1, "axis")
        if type(src) in (cst.Name, cst.Attribute) and type(axis) is cst.Integer and axis.value == "0":
            return src
    return None


# methods that build an object: a key they set is its first, not an advance
_BUILDERS = ("__init__", "__post_init__", "setup", "__new__")


def key_streams(cls: ClassInfo) -> dict[str, str]:
    """The key attributes a class keeps as a stream: ``attr -> method`` where a method
    (not one that builds the object) splits ``self.attr`` and stores a half back
    (``self.key, key = jax.random.split(self.key)``, ``self.rng = split(self.rng)[0]``).
    The key the object holds is the one its next call splits: a draw from it elsewhere
    repeats what that split gives."""
    out: dict[str, str] = {}
    for name, m in cls.methods.items():
        if name in _BUILDERS or not isinstance(m.node, cst.FunctionDef) or not m.params \
                or m.params[0].name != "self":
            continue
        for n in descendants(m.node.body):
            if type(n) is not cst.Assign:
                continue
            value = n.value.value if type(n.value) is cst.Subscript else n.value
            if type(value) is not cst.Call or (dotted_name(value.func) or "").rsplit(".", 1)[-1] != "split":
                continue
            src = arg_at(value, 0, "key")
            if type(src) is not cst.Attribute or type(src.value) is not cst.Name or src.value.value != "self":
                continue
            for t in n.targets:
                targets = [el.value for el in t.target.elements] if type(t.target) in (cst.Tuple, cst.List) \
                    else [t.target]
                if any(type(x) is cst.Attribute and type(x.value) is cst.Name and x.value.value == "self"
                       and x.attr.value == src.attr.value for x in targets):
                    out.setdefault(src.attr.value, name)
    return out


_FIXED_SEED = ("jax.random.PRNGKey", "jax.random.key")
_DERIVE = ("jax.random.split", "jax.random.fold_in")


def key_value_class(cls: ClassInfo, attr: str, qualname: Callable[[cst.CSTNode], Optional[str]]) -> bool:
    """Is ``cls`` a key type around ``self.attr``: a method (not one that builds the
    object) returns a new instance of the class built from a key derived from the one
    it holds (``return PRNGKey(jax.random.split(self.rng, n))``, ``return
    type(self)(self.rng[i])``)?  Its instances are then values, like JAX's keys: the
    methods are operations on one key that a caller picks (split it, or take a seed
    from it), not draws of an object that lives on; a reuse would be the caller's."""
    own = {cls.name, "type(self)", "self.__class__"}
    for name, m in cls.methods.items():
        if name in _BUILDERS or not isinstance(m.node, cst.FunctionDef) or not m.params \
                or m.params[0].name != "self":
            continue
        for n in descendants(m.node.body):
            if type(n) is not cst.Return or type(n.value) is not cst.Call:
                continue
            func = n.value.func
            built = dotted_name(func) if type(func) is not cst.Call else (
                "type(self)" if dotted_name(func.func) == "type" and len(func.args) == 1
                and _is_self_attr(func.args[0].value, None) else None)
            if built not in own:
                continue
            if any(_derived_from(a.value, attr, qualname) for a in n.value.args):
                return True
    return False


def _is_self_attr(e: cst.BaseExpression, attr: Optional[str]) -> bool:
    """``self`` (``attr`` None) or ``self.attr``."""
    if attr is None:
        return type(e) is cst.Name and e.value == "self"
    return type(e) is cst.Attribute and type(e.value) is cst.Name and e.value.value == "self" \
        and e.attr.value == attr


def _derived_from(e: cst.BaseExpression, attr: str, qualname) -> bool:
    """``jax.random.split(self.attr, ...)`` / ``fold_in(self.attr, d)`` / ``self.attr[i]``."""
    if type(e) is cst.Subscript:
        return _is_self_attr(e.value, attr)
    if type(e) is cst.Call and qualname(e.func) in _DERIVE:
        return _is_self_attr(arg_at(e, 0, "key"), attr)
    return False


def _names_read(node: cst.CSTNode, name: str) -> bool:
    """Is ``name`` read anywhere in ``node`` (a statement)?  Assignment targets do not
    count; a read in a nested function or lambda does."""
    targets: set[int] = set()
    for n in walk_tree(node, source_order=True):
        if isinstance(n, cst.Assign):
            for t in n.targets:
                targets.update(id(d) for d in walk_tree(t.target) if isinstance(d, cst.Name))
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign)):
            if isinstance(n, cst.AugAssign) and isinstance(n.target, cst.Name) and n.target.value == name:
                return True  # `key += 1` reads it
        if isinstance(n, cst.Name) and n.value == name and id(n) not in targets:
            return True
    return False


def _assigned_names(stmt: cst.CSTNode) -> set[str]:
    """The plain names a simple statement binds (``a = ...``, ``a, b = ...``)."""
    out: set[str] = set()
    if isinstance(stmt, cst.SimpleStatementLine):
        for small in stmt.body:
            if isinstance(small, cst.Assign):
                for t in small.targets:
                    out.update(d.value for d in walk_tree(t.target) if isinstance(d, cst.Name))
            elif isinstance(small, (cst.AnnAssign, cst.AugAssign)) and isinstance(small.target, cst.Name):
                out.add(small.target.value)
        return out
    # a compound statement: every name it binds anywhere (loops, with, if, nested defs)
    for n in walk_tree(stmt):
        if isinstance(n, cst.Assign):
            for t in n.targets:
                out.update(d.value for d in walk_tree(t.target) if isinstance(d, cst.Name))
        elif isinstance(n, (cst.For, cst.AnnAssign, cst.AugAssign)):
            t = n.target
            out.update(d.value for d in walk_tree(t) if isinstance(d, cst.Name))
        elif isinstance(n, cst.AsName):
            out.update(d.value for d in walk_tree(n.name) if isinstance(d, cst.Name))
        elif isinstance(n, (cst.FunctionDef, cst.ClassDef)):
            out.add(n.name.value)
    return out


def seed_overwrites_stream(unit: Unit, qualname: Callable[[cst.CSTNode], Optional[str]]
                           ) -> list[tuple[cst.Assign, str, cst.CSTNode, cst.Call]]:
    """``rng, _rng = jax.random.split(rng)`` ... ``rng = jax.random.PRNGKey(0)`` in one
    block of a function: a key derived (split, fold_in) from a key parameter of the
    function, directly or through keys derived from it in that block, is rebound, before anything reads it, to a key made from a
    literal seed, and that key is read afterwards.  Every draw after the rebinding
    comes from the fixed seed whatever key the function was given: the seed stops
    mattering there.  (the rebinding, the name, the statement that derived the dropped
    key, the fixed-seed call); empty when none.  A rebinding under a condition (``if
    key is None: key = PRNGKey(0)``) or after a read of the derived key is left alone."""
    found: list[tuple[cst.Assign, str, cst.CSTNode, cst.Call]] = []
    node = unit.node
    if not isinstance(node, cst.FunctionDef) or not isinstance(node.body, cst.IndentedBlock):
        return found
    blocks: list[cst.CSTNode] = []
    seeded = False
    todo: list[cst.CSTNode] = [node.body]
    while todo:  # the function's own blocks, not those of functions or classes nested in it
        n = todo.pop()
        t = type(n)
        if t is cst.IndentedBlock:
            blocks.append(n)
        elif t is cst.Assign and not seeded:
            v = n.value  # type: ignore[attr-defined]
            seeded = type(v) is cst.Call and qualname(v.func) in _FIXED_SEED
        if t in (cst.FunctionDef, cst.ClassDef) and n is not node.body:
            continue
        if isinstance(n, cst.BaseExpression):
            continue  # (statements hold the blocks and the assignments looked for)
        todo.extend(children(n))
    if not seeded:
        return found  # no key of a literal seed bound here: nothing to look for
    for block in blocks:
        if not isinstance(block, cst.IndentedBlock) or not any(
                isinstance(s, cst.SimpleStatementLine) and s.body and isinstance(s.body[0], cst.Assign)
                for s in block.body):
            continue
        stmts = list(block.body)
        # name -> index of the statement whose derived key it holds, unread since
        derived: dict[str, int] = {}
        # names holding keys of the function's parameters or derived from them in this block
        given = {p.name for p in unit.params}
        for i, stmt in enumerate(stmts):
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            if isinstance(small, cst.Assign) and len(small.targets) == 1:
                target = small.targets[0].target
                value = small.value
                if isinstance(target, cst.Name) and isinstance(value, cst.Call) \
                        and qualname(value.func) in _FIXED_SEED and len(value.args) == 1 \
                        and value.args[0].keyword is None and isinstance(value.args[0].value, cst.Integer):
                    name = target.value
                    at = derived.get(name)
                    if at is not None and any(_names_read(s, name) for s in stmts[i + 1:]):
                        found.append((small, name, stmts[at], value))
                    derived.pop(name, None)
                    given.discard(name)
                    continue
                if isinstance(value, cst.Call) and qualname(value.func) in _DERIVE:
                    key = arg_at(value, 0, "key")
                    if isinstance(key, (cst.Name, cst.Attribute)):
                        for n in list(derived):
                            if _names_read(stmt, n):
                                derived.pop(n)
                        names = [d.value for d in walk_tree(target) if isinstance(d, cst.Name)] \
                            if isinstance(target, (cst.Name, cst.Tuple, cst.List)) else []
                        root = key.value if isinstance(key, cst.Name) else None
                        for n in names:
                            if root in given:
                                given.add(n)
                                derived[n] = i
                            else:
                                given.discard(n)
                        continue
            bound = _assigned_names(stmt)
            given -= bound
            for n in list(derived):
                if n in bound or _names_read(stmt, n):
                    derived.pop(n)
    return found


# the rng's position in the apply of a haiku transform of a function (0-based)
_HAIKU_APPLY_RNG = {"haiku.transform": 1, "haiku.transform_with_state": 2}


def _seen_through_cast(e: Optional[cst.BaseExpression], qualname) -> Optional[cst.BaseExpression]:
    """``typing.cast(T, x)`` is ``x``."""
    while isinstance(e, cst.Call) and qualname(e.func) == "typing.cast" and len(e.args) == 2:
        e = e.args[1].value
    return e


def caller_transform_apply_rng(call: cst.Call, scope: Unit, qualname) -> Optional[tuple[cst.BaseExpression, str]]:
    """``fun.apply(params, state, rng, x)`` where ``fun = hk.transform_with_state(fun)``
    transforms a function the caller hands in (a parameter of the enclosing function:
    what it draws cannot be seen here, as in a wrapper that unrolls any haiku function
    over time): the rng argument and how the holder was made.  The key is handed to
    the function for its draws (an apply that draws nothing takes ``None``, or is a
    ``without_apply_rng`` one).  None when ``call`` is no such apply, when a binding of
    ``fun`` is anything but that transform, ``fun``'s own parameter or a ``cast`` of
    it, or when a literal evaluation-mode flag is passed."""
    func = call.func
    if type(func) is not cst.Attribute or func.attr.value != "apply" or type(func.value) is not cst.Name:
        return None
    name = func.value.value
    found = scope.binding_for(name, 1 << 30)
    if found is None:
        return None
    holder = found[0]
    transform: Optional[str] = None
    for _, value in holder.bindings.get(name, ()):
        value = _seen_through_cast(value, qualname)
        if value is None:
            return None  # a def of that name
        if type(value) is cst.Name and value.value == name:
            continue  # `fun = cast(TransformedWithState, fun)`
        if not isinstance(value, cst.Call) or qualname(value.func) not in _HAIKU_APPLY_RNG:
            return None
        fn = arg_at(value, 0, "f")
        if not isinstance(fn, cst.Name) or holder.param(fn.value) is None or fn.value in holder.defs:
            return None  # a function of the file (model/holders.py follows those) or unknown
        q = qualname(value.func)
        if transform is not None and transform != q:
            return None
        transform = q
    if transform is None or (holder.param(name) is not None and all(
            not isinstance(_seen_through_cast(v, qualname), cst.Call) for _, v in holder.bindings.get(name, ()))):
        return None
    if _eval_mode(call) or any(a.star for a in call.args[:_HAIKU_APPLY_RNG[transform] + 1]):
        return None
    pos = positional_args(call)
    at = _HAIKU_APPLY_RNG[transform]
    if at >= len(pos) or string_const_none(pos[at].value):
        return None
    return pos[at].value, "hk." + transform.rsplit(".", 1)[1]


def string_const_none(e: cst.BaseExpression) -> bool:
    return type(e) is cst.Name and e.value == "None"


# loop primitives: (position of the body, of the initial carry, of the carry among the body's parameters)
LOOP_CARRY = {"jax.lax.scan": (0, 1, 0), "jax.lax.fori_loop": (2, 3, 1), "jax.lax.while_loop": (1, 2, 0)}


def advances_carried_key(fn: cst.FunctionDef, carry: str) -> bool:
    """Does the loop body ``fn`` take a key-like name out of its carry ``carry``
    (``key = carry["key"]``, ``x, key = carry``, ``key = carry.key``) and bind that name
    again (``key, sub = split(key)``) afterwards?"""
    taken: set[str] = set()
    bound: dict[str, int] = {}
    for n in walk_tree(fn.body, lambda c: isinstance(c, (cst.FunctionDef, cst.Lambda, cst.ClassDef)), source_order=True):
        if type(n) is not cst.Assign:
            continue
        v = n.value
        base = v.value if type(v) in (cst.Subscript, cst.Attribute) else v
        from_carry = type(base) is cst.Name and base.value == carry
        for t in n.targets:
            tgt = t.target
            names = [tgt] if type(tgt) is cst.Name else [el.value for el in getattr(tgt, "elements", ())
                                                          if type(el.value) is cst.Name]
            for nm in names:
                bound[nm.value] = bound.get(nm.value, 0) + 1
                if from_carry and key_like_name(nm.value) and bound[nm.value] == 1:
                    taken.add(nm.value)
    return any(bound.get(k, 0) >= 2 for k in taken)


def _returns_in(stmt: cst.CSTNode) -> list[cst.Return]:
    """The ``return`` statements in ``stmt``, not those of functions or classes it defines."""
    out: list[cst.Return] = []
    stack = [stmt]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is cst.Return:
            out.append(n)
            continue
        if t is cst.FunctionDef or t is cst.ClassDef or t is cst.Lambda:
            continue
        stack.extend(children(n))
    return out


def returned_keys(unit: Unit) -> dict:
    """The positions of what ``unit`` returns that hold a PRNG key it already drew from
    (``w = normal(key, s); return w, key``: position 1; a bare ``return key``: None),
    each with the consumer that drew: the caller that keeps that key holds a consumed
    one, and its next draw repeats those bits.  Only where every ``return`` of the body
    gives such a key at that position, the draw runs on every path before it (a simple
    statement of the body's top level) and the name is bound once (a parameter never
    rebound, or one assignment before the draw)."""
    fn = unit.node
    if type(fn) is not cst.FunctionDef or not unit.key_draws or unit.is_generator \
            or type(fn.body) is not cst.IndentedBlock:
        return {}
    drawn: dict[str, str] = {}
    found: Optional[dict] = None
    for stmt in fn.body.body:
        if type(stmt) is cst.SimpleStatementLine:
            # (`return normal(key, s), key` draws before it returns)
            for n in descendants(stmt):
                if type(n) is not cst.Call:
                    continue
                d = unit.key_draws.get(id(n))
                if d is None or d[0] in drawn:
                    continue
                name = d[0]
                if len(writes(fn, name)) != (unit.param(name) is None):
                    continue  # rebound somewhere: which key is returned is not shown
                drawn[name] = d[1]
        for ret in _returns_in(stmt):
            here: dict = {}
            value = ret.value
            if type(value) is cst.Name:
                if value.value in drawn:
                    here[None] = drawn[value.value]
            elif type(value) is cst.Tuple and not any(type(el) is cst.StarredElement for el in value.elements):
                for i, el in enumerate(value.elements):
                    if type(el.value) is cst.Name and el.value.value in drawn:
                        here[i] = drawn[el.value.value]
            found = here if found is None else {k: v for k, v in found.items() if k in here and v == here[k]}
            if not found:
                return {}
    return found or {}


def record_key_kept(unit: Unit, qualname: Callable[[cst.CSTNode], Optional[str]],
                    is_record: Callable[[str], bool]) -> Optional[tuple]:
    """``def step(state): x = normal(state.key, s); return State(state.params + x,
    state.key)``: a function that draws from (or splits) a key field of a parameter it
    never rebinds, ``P.f``, on every path (a simple statement of its body's top level),
    and whose every ``return`` hands back a record still holding ``P.f``: a pytree class
    (of this file, imported from the project or a library's: ``State(..., P.f)``,
    ``State(key=P.f, ...)``) built with it, or a copy of ``P`` that replaces other
    fields (``P._replace(params=...)``, ``P.replace(params=...)``,
    ``dataclasses.replace(P, params=...)``), alone or in a returned tuple.  The next
    step given that record draws the same numbers (checked with JAX: two steps of such
    a ``NamedTuple`` state draw equal noise).  (the draw, its consumer's short name,
    the returned expression that keeps the key, the key as written) or None."""
    fn = unit.node
    if type(fn) is not cst.FunctionDef or unit.is_generator or type(fn.body) is not cst.IndentedBlock:
        return None
    params = {p.name for p in unit.params if not writes(fn, p.name)}
    drawn: dict[tuple[str, str], tuple] = {}
    # names bound once, at the top level, to a parameter's field: `key = state.key`, or
    # `params, key = state` (the field by its position): name -> (parameter, field)
    aliases: dict[str, tuple[str, str]] = {}
    # the draws of a function nested here (`def loss_fn(p): ... rngs={"dropout": state.key}`),
    # counted where a statement of the top level names it (`jax.grad(loss_fn)(state.params)`)
    nested: dict[str, list] = {}
    found: Optional[tuple] = None
    for stmt in fn.body.body:
        if type(stmt) is cst.FunctionDef:
            own = {p.name.value for p in (*stmt.params.posonly_params, *stmt.params.params,
                                          *stmt.params.kwonly_params)}
            nested[stmt.name.value] = _field_draws(stmt.body, params - own,
                                                   {k: v for k, v in aliases.items() if k not in own}, qualname)
        if type(stmt) is cst.SimpleStatementLine:
            for small in stmt.body:
                if type(small) is cst.Assign and len(small.targets) == 1:
                    _alias_fields(fn, small.targets[0].target, small.value, params, aliases)
            here = _field_draws(stmt, params, aliases, qualname)
            if nested:
                here += [d for n in descendants(stmt) if type(n) is cst.Name and n.value in nested
                         for d in nested[n.value]]
            for field_of, call, how in here:
                drawn.setdefault(field_of, (call, how))
        for ret in _returns_in(stmt):
            if not drawn:
                return None
            kept = _kept_record(ret.value, drawn, qualname, is_record, params, aliases)
            if kept is None:
                return None
            found = found or kept
    return found


def _field_draws(root: cst.CSTNode, params: set, aliases: dict, qualname) -> list:
    """The draws under ``root`` from a parameter's key field (``normal(state.key, s)``,
    ``split(key)`` of ``key = state.key``, flax's ``rngs={"dropout": state.key}`` outside
    evaluation mode; not the ``"params"`` stream of an apply): [((parameter, field), call,
    consumer)]."""
    out = []
    for n in descendants(root):
        if type(n) is not cst.Call:
            continue
        q = qualname(n.func) or ""
        if q.startswith("jax.random.") and q.rsplit(".", 1)[1] in apis.RANDOM_CONSUMERS:
            field_of = _field_of(arg_at(n, 0, "key"), params, aliases)
            if field_of is not None:
                out.append((field_of, n, q.rsplit(".", 1)[1]))
            continue
        for a in n.args:
            if a.keyword is None or a.keyword.value != "rngs" or type(a.value) is not cst.Dict:
                continue
            for el in a.value.elements:
                stream = el.key.evaluated_value if type(getattr(el, "key", None)) is cst.SimpleString else None
                if stream is None or stream == "params" or stream == "dropout" and _eval_mode(n):
                    continue
                field_of = _field_of(el.value, params, aliases)
                if field_of is not None:
                    out.append((field_of, n, "rngs="))
    return out


def _alias_fields(fn: cst.FunctionDef, target: cst.BaseExpression, value: cst.BaseExpression,
                  params: set, aliases: dict) -> None:
    """Note in ``aliases`` the names ``target = value`` binds once to a field of a
    parameter in ``params`` (``key = state.key``; ``params, key = state``: ``#1``)."""
    if type(target) is cst.Name and type(value) is cst.Attribute and type(value.value) is cst.Name \
            and value.value.value in params and len(writes(fn, target.value)) == 1:
        aliases[target.value] = (value.value.value, value.attr.value)
    elif type(target) in (cst.Tuple, cst.List) and type(value) is cst.Name and value.value in params:
        for i, el in enumerate(target.elements):  # type: ignore[attr-defined]
            if type(el) is cst.StarredElement:
                return
            if type(el.value) is cst.Name and len(writes(fn, el.value.value)) == 1:
                aliases[el.value.value] = (value.value, f"#{i}")


def _field_of(e: Optional[cst.BaseExpression], params: set, aliases: dict) -> Optional[tuple[str, str]]:
    """The (parameter, field) ``e`` reads: ``state.key``, or a name bound to it once."""
    if type(e) is cst.Attribute and type(e.value) is cst.Name and e.value.value in params:
        return e.value.value, e.attr.value
    if type(e) is cst.Name:
        return aliases.get(e.value)
    return None


def _kept_record(value: Optional[cst.BaseExpression], drawn: dict, qualname, is_record,
                 params: set, aliases: dict) -> Optional[tuple]:
    """For ``record_key_kept``: the returned record still holding a drawn key field
    (``value`` itself or an element of a returned tuple), as (draw, consumer, the
    expression that keeps it, the key as written); None when there is none."""
    if value is None:
        return None
    parts = [el.value for el in value.elements] if type(value) is cst.Tuple else [value]
    for e in parts:
        if type(e) is not cst.Call or any(a.star for a in e.args):
            continue
        func = e.func
        written = dotted_name(func)
        copied: Optional[cst.BaseExpression] = None
        kws: list = []
        if written is not None and qualname(func) == "dataclasses.replace":
            copied = e.args[0].value if e.args and e.args[0].keyword is None else None
            kws = list(e.args[1:])
        elif type(func) is cst.Attribute and type(func.value) is cst.Name \
                and func.attr.value in ("_replace", "replace", "apply_gradients"):
            # (flax's `TrainState.apply_gradients(grads=g)` is `self.replace(step=..., params=...,
            # opt_state=...)`: the fields it is given besides)
            copied, kws = func.value, list(e.args)
        if copied is not None or kws:
            # a copy of the parameter that replaces other fields keeps its key
            if type(copied) is not cst.Name or not kws or any(a.keyword is None for a in kws):
                continue
            for (obj, attr), (draw, how) in drawn.items():
                if obj == copied.value and all(a.keyword.value != attr for a in kws):
                    return draw, how, e, f"{obj}.{attr}"
            continue
        if written is None or not is_record(written):
            continue
        for a in e.args:
            v = a.value
            field_of = _field_of(v, params, aliases)
            hit = drawn.get(field_of) if field_of is not None else None
            if hit is not None:
                return hit[0], hit[1], v, dotted_name(v) or ""
    return None


def carried_key_positions(fn: cst.FunctionDef, carry: str) -> set:
    """Where the loop body ``fn`` finds the PRNG key it advances in its carry ``carry``:
    the positions of the unpacking ``x, key = carry`` (at the body's top level, bound
    nowhere else) whose key-like name the body binds again (``key, sub = split(key)``),
    or None when the carry is itself such a key (``def body(i, key): key, sub =
    split(key)``).  Each step consumes what the loop was given there."""
    if type(fn.body) is not cst.IndentedBlock:
        return set()
    out: set = set()
    if key_like_name(carry) and writes(fn, carry):
        out.add(None)
    for stmt in fn.body.body:
        if type(stmt) is not cst.SimpleStatementLine:
            continue
        for small in stmt.body:
            if type(small) is not cst.Assign or len(small.targets) != 1 or type(small.value) is not cst.Name \
                    or small.value.value != carry:
                continue
            tgt = small.targets[0].target
            if type(tgt) not in (cst.Tuple, cst.List):
                continue
            for i, el in enumerate(tgt.elements):
                if type(el) is cst.StarredElement or type(el.value) is cst.StarredElement:
                    break
                if type(el.value) is cst.Name and key_like_name(el.value.value) and len(writes(fn, el.value.value)) >= 2:
                    out.add(i)
    return out


def linen_class_draws(cls: ClassInfo, qualname: Callable[[cst.CSTNode], Optional[str]], local_class,
                      depth: int = 3) -> bool:
    """Does the flax linen module class ``cls`` draw from its "params" key when it is
    initialised: it builds a flax layer whose default initializer draws
    (``apis.FLAX_DRAWING_LAYERS``: ``nn.Dense(4)``), a module class of this file that
    does (``local_class(name)``), or declares ``self.param(name, init, ...)`` with an
    initializer that is not a constant (``nn.initializers.zeros``/``ones``/``constant``)?"""
    for n in walk_tree(cls.node):
        if type(n) is not cst.Call:
            continue
        func = n.func
        q = qualname(func)
        if q is not None and q.startswith("flax.linen.") and q.rsplit(".", 1)[1] in apis.FLAX_DRAWING_LAYERS:
            return True
        if type(func) is cst.Attribute and func.attr.value == "param" and type(func.value) is cst.Name \
                and func.value.value == "self":
            init = arg_at(n, 1, "init_fn")
            iq = qualname(init) if init is not None else None
            short = (iq or "").rsplit(".", 1)[-1]
            if init is not None and short not in ("zeros", "ones", "constant", "zeros_init", "ones_init"):
                return True
        if depth > 0 and type(func) is cst.Name and func.value != cls.name:
            sub = local_class(func.value)
            if sub is not None and sub.linen and linen_class_draws(sub, qualname, local_class, depth - 1):
                return True
    return False


# equinox layers that draw from the `key=` of their call (not of their construction):
# `eqx.nn.Dropout(p)(x, key=key)` draws its mask from `key` unless `inference=True`
# (equinox 0.13: the same key gives the same mask, under `jax.vmap` with the key
# unmapped too)
_CALL_DRAWING_LAYERS = {"equinox.nn.Dropout": "eqx.nn.Dropout"}


def drawing_layer_call(call: cst.Call, unit: Unit, qualname) -> Optional[str]:
    """``self.dropout(x, key=key)`` in a method of a class whose field ``dropout`` holds
    an ``eqx.nn.Dropout``: annotated so in the class body (``dropout: eqx.nn.Dropout``) or
    set once in ``__init__`` (``self.dropout = eqx.nn.Dropout(rate)``), and not called
    with ``inference=True``: how messages name the layer; None otherwise."""
    func = call.func
    if type(func) is not cst.Attribute or type(func.value) is not cst.Name or func.value.value != "self" \
            or unit.cls is None or not unit.params or unit.params[0].name != "self":
        return None
    if not any(a.keyword is not None and a.keyword.value == "key" for a in call.args):
        return None  # (first: the class body is read only for a call given `key=`)
    inference = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "inference"), None)
    if type(inference) is cst.Name and inference.value == "True":
        return None
    attr = func.attr.value
    found: list[str] = []
    for st in unit.cls.node.body.body:
        if type(st) is cst.SimpleStatementLine:
            for small in st.body:
                if type(small) is cst.AnnAssign and type(small.target) is cst.Name and small.target.value == attr:
                    found.append(qualname(small.annotation.annotation) or "")
    init = unit.cls.methods.get("__init__")
    if init is not None and isinstance(init.node, cst.FunctionDef):
        for n in descendants(init.node.body):
            if type(n) is cst.Assign and any(
                    type(t.target) is cst.Attribute and type(t.target.value) is cst.Name
                    and t.target.value.value == "self" and t.target.attr.value == attr for t in n.targets):
                found.append(qualname(n.value.func) or "" if type(n.value) is cst.Call else "")
    if not found or any(f not in _CALL_DRAWING_LAYERS for f in found) or len(set(found)) != 1:
        return None
    return _CALL_DRAWING_LAYERS[found[0]]
