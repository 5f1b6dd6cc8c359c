"""Which functions of a project a derivative can reach (the project's derivative reach).

A NaN that only a gradient shows (``jnp.where(x > 0, jnp.log(x), 0.)``) exists only where
a derivative reaches the code: a function handed to ``jax.grad`` (``value_and_grad``,
``vjp``, ``jvp``, ``jacrev``, ``hessian``, ``eqx.filter_grad``, ``nnx.grad``...), what it
calls, the methods and modules it uses, and the functions handed to a callee that may
differentiate them (``trainer.fit(loss)``, ``jaxopt.LBFGS(fun=loss)``, an unknown
decorator).  Code that only runs outside every derivative -- a BFGS update of a solver's
state, a data augmentation, an optimizer's update of the gradients, a metric logged after
the loss, a function nobody calls -- takes no derivative, and its masked singular branch
gives no NaN.

Each file tells its project (``summarize``, from its text alone):

* ``units``: for each top-level function and each method (``f``, ``Class.m``), the
  names its body mentions (names and attribute names, with its nested functions);
* ``roots``: the names in what the file hands to a differentiating transformation or
  to a callee that may differentiate it (any call but Python's builtins, JAX's
  transformations that do not differentiate, and the containers of gradient
  transformations), with what the local names there are bound to, and the functions a
  decorator other than a plain one takes;
* ``globals``: what each module-level name is bound to, where it may hold a function
  (``loss_fn = partial(loss, cfg)``), and ``top``: the names module-level code mentions.

The project (``reach_closure.underived``) closes the roots over those names: a function is reached when a
reached body (or a root) mentions its name; a class mentioned so reaches its dunder methods
(``__call__``, ``__init__``, ``setup``: what Python and the module libraries call), and so
does a class mentioned anywhere at all (its object may be handed anywhere); a module-level
name mentioned so reaches what it is bound to.  By name, over the whole project: an
over-approximation of reach.  The functions left that the project's own code (not its tests and notebooks) mentions somewhere
(it uses them, outside every derivative) are *underived*; one it never uses is there for its users,
who may differentiate it.  A file whose summary is
missing (not read, skipped by the prefilter) gives every word of its text as roots.
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jaxlint.model.gradtrace import DIFFERENTIATING, FORWARD_ONLY
from jaxlint.model.nograd import gives_value
from jaxlint.model.walk import children

# calls that differentiate nothing they are given (the function is only run, or wrapped
# in a transformation that is then run where it is called)
_PLAIN_PREFIXES = ("jax.lax.", "jax.tree_util.", "jax.tree.", "jax.numpy.", "numpy.", "builtins.",
                   "functools.", "jax.debug.", "jax.experimental.io_callback", "jax.pure_callback",
                   "typing.", "dataclasses.", "logging.", "math.")
_PLAIN_CALLS = frozenset({
    "jax.jit", "jax.vmap", "jax.pmap", "jax.named_call", "jax.checkpoint", "jax.remat", "jax.eval_shape",
    "jax.make_jaxpr", "jax.block_until_ready", "jax.device_put", "jax.device_get",
    "equinox.filter_jit", "equinox.filter_vmap", "equinox.filter_pmap", "equinox.filter_eval_shape",
    # objax's jit, vmap, pmap and its function wrapper (its `Grad`/`GradValues` differentiate)
    "objax.Jit", "objax.Vectorize", "objax.Parallel", "objax.Function", "objax.Function.with_vars",
    # an optax gradient transformation holds an `update` applied to gradients, never differentiated
    "optax.GradientTransformation", "optax.GradientTransformationExtraArgs",
    "optax.stateless", "optax.stateless_with_tree_map",
})
_PLAIN_DECORATORS = frozenset({"staticmethod", "classmethod", "property", "functools.wraps", "functools.cache",
                               "functools.lru_cache", "abc.abstractmethod", "typing.overload",
                               "jax.jit", "jax.vmap", "jax.pmap", "jax.named_call", "equinox.filter_jit",
                               "dataclasses.dataclass", "objax.Function.with_vars", "objax.Jit"})
_BUILTIN_NAMES = frozenset({"print", "len", "isinstance", "issubclass", "getattr", "setattr", "hasattr",
                            "range", "enumerate", "zip", "list", "tuple", "dict", "set", "int", "float",
                            "str", "bool", "repr", "type", "sorted", "min", "max", "sum", "any", "all",
                            "super", "format", "id", "hash", "iter", "next", "open"})


_QUALNAME: list = [None]  # the resolver of the file being summarized


def _token(n: cst.CSTNode) -> Optional[str]:
    """What a name or attribute mentions: ``@pkg.mod.f`` (resolved through the imports),
    ``=f`` (a bare name of this file's scope), ``f`` (an attribute: by name anywhere)."""
    qualname = _QUALNAME[0]
    q = qualname(n) if qualname is not None else None
    if q is not None:
        return "@" + q
    if type(n) is cst.Name:
        return "=" + n.value  # type: ignore[attr-defined]
    return None


def _names(node: cst.CSTNode, out: set[str]) -> None:
    """What ``node`` mentions (``_token``): a name, an attribute resolved through the
    imports (``pkg.inference.Taylor``: that one, not every function named ``inference``),
    or the last name of an attribute of a value (``self.loss``: by name)."""
    stack = [node]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is cst.Name:
            out.add(_token(n))  # type: ignore[arg-type]
            continue
        if t in (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString):
            continue
        if t is cst.Attribute:
            tok = _token(n)
            if tok is not None:
                out.add(tok)
                continue
            out.add(n.attr.value)  # type: ignore[attr-defined]
            stack.append(n.value)  # type: ignore[attr-defined]
            continue
        stack.extend(children(n))


def _bindings(body: cst.CSTNode) -> dict[str, list[cst.CSTNode]]:
    """What each name is bound to in ``body`` (any depth): assignments, loops."""
    out: dict[str, list[cst.CSTNode]] = {}
    stack = [body]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is cst.Assign:
            for target in n.targets:  # type: ignore[attr-defined]
                for name in _target_names(target.target):
                    out.setdefault(name, []).append(n.value)  # type: ignore[attr-defined]
        elif t in (cst.AnnAssign, cst.AugAssign) and getattr(n, "value", None) is not None:
            for name in _target_names(n.target):  # type: ignore[attr-defined]
                out.setdefault(name, []).append(n.value)  # type: ignore[attr-defined]
        elif t is cst.NamedExpr:
            for name in _target_names(n.target):  # type: ignore[attr-defined]
                out.setdefault(name, []).append(n.value)  # type: ignore[attr-defined]
        stack.extend(children(n))
    return out


def _target_names(t: cst.CSTNode) -> list[str]:
    if type(t) is cst.Name:
        return [t.value]  # type: ignore[attr-defined]
    if type(t) in (cst.Tuple, cst.List):
        return [x for el in t.elements for x in _target_names(el.value)]  # type: ignore[attr-defined]
    if type(t) is cst.StarredElement:
        return _target_names(t.value)  # type: ignore[attr-defined]
    if type(t) is cst.Attribute:
        return [t.attr.value]  # type: ignore[attr-defined]  # `self.loss_fn = loss`
    return []


def _expand(e: cst.CSTNode, binds: dict[str, list[cst.CSTNode]], out: set[str],
            functional: Optional[Callable[[cst.CSTNode], bool]] = None, skip: frozenset = frozenset()) -> None:
    """The names in ``e`` and, for a local name, in what it is bound to (a few steps;
    with ``functional``, only through the bindings it accepts: what may hold a function)."""
    todo = [e]
    seen: set[str] = set()
    steps = 0
    while todo and steps < 64:
        steps += 1
        here: set[str] = set()
        _names(todo.pop(), here)
        for tok in here - seen:
            seen.add(tok)
            n = tok[1:] if tok.startswith("=") else None
            bound = binds.get(n, ()) if n is not None else ()
            kept = [v for v in bound if functional is None or functional(v)]
            if functional is not None and n in skip:
                continue  # a parameter: what the callers give it is handed on at their calls
            if not bound or kept:
                out.add(tok)  # (a name bound only to computed data is no function)
            todo.extend(kept)


# a root no name stands for: a derivative taken of a function the summary cannot name
# (a parameter, `REGISTRY[name]`, `getattr(self, kind + "_loss")`, `self.loss_fn`): any
# function of the project may be the one differentiated, so nothing is underived
OPAQUE = "*"


def _opaque_target(e: cst.CSTNode, params: frozenset, binds: Optional[dict] = None, depth: int = 0,
                   defs=frozenset()) -> bool:
    """Is ``e``, given to a differentiating transformation, a function the file's names
    cannot place: a subscript, a call other than ``partial`` or a factory of the file,
    an attribute of ``self``/``cls`` or of a parameter, a local bound to one of those?
    (A parameter itself is placed: its callers' arguments and its default are roots.)"""
    t = type(e)
    if t is cst.Name:
        if e.value in params:  # type: ignore[attr-defined]
            return False  # what its callers pass is handed on at their calls; its default is a root
        bound = (binds or {}).get(e.value, ())  # type: ignore[attr-defined]
        # a local bound to what cannot be placed (`fn = getattr(self, kind + "_loss")`)
        return depth < 4 and any(v is not None and _opaque_target(v, params, binds, depth + 1, defs) for v in bound)
    if t is cst.Subscript:
        return True
    if t is cst.Call:
        f = e.func  # type: ignore[attr-defined]
        name = f.value if type(f) is cst.Name else f.attr.value if type(f) is cst.Attribute else ""
        if name == "partial" or name == "Partial":
            args = e.args  # type: ignore[attr-defined]
            return bool(args) and _opaque_target(args[0].value, params, binds, depth + 1, defs)
        if type(f) is cst.Name and name in defs and name not in params:
            # a factory of this file (`c_fn = make_residual(sol)`): what it returns is a
            # function it defines or mentions, reached with the factory (its name is a root)
            return False
        return True
    if t is cst.Attribute:
        base = e.value  # type: ignore[attr-defined]
        while type(base) is cst.Attribute:
            base = base.value  # type: ignore[attr-defined]
        return type(base) is not cst.Name or base.value in ("self", "cls") or base.value in params  # type: ignore[attr-defined]
    return False


def summarize(module: cst.Module, qualname: Callable[[cst.CSTNode], Optional[str]]) -> dict:
    """The file's part of its project's derivative reach (see the module docstring)."""
    _QUALNAME[0] = qualname
    try:
        return _summarize(module, qualname)
    finally:
        _QUALNAME[0] = None


def _summarize(module: cst.Module, qualname: Callable[[cst.CSTNode], Optional[str]]) -> dict:
    units: dict[str, set[str]] = {}
    local: dict[str, set[str]] = {}
    roots: set[str] = set()
    top: set[str] = set()  # the names module-level code mentions
    nested: dict[str, list[str]] = {}  # a function defined inside units -> those units
    globals_: dict[str, set[str]] = {}
    # (node, the unit key its mentions go to, the bindings of the function around it)
    stack: list[tuple[cst.CSTNode, Optional[str], dict, str, frozenset]] = []
    module_binds = _bindings_shallow(module)
    defs = _LazyDefs(module)  # (walked only when a derivative is taken of a call's result)
    for stmt in module.body:
        stack.append((stmt, None, module_binds, "", frozenset()))
    while stack:
        node, key, binds, prefix, params = stack.pop()
        t = type(node)
        if t is cst.FunctionDef and (key is None or key.endswith("\0class")):
            name = prefix + node.name.value  # type: ignore[attr-defined]
            mentioned = units.setdefault(name, set())
            fbinds = _bindings(node.body)  # type: ignore[attr-defined]
            # its parameters and the names it assigns are its own: a mention of them is
            # no mention of the project's function or module-level name of that name
            own = local.setdefault(name, set())
            own.update(k for k, vs in fbinds.items() if any(True for _ in vs))
            own -= _attr_targets(node.body)  # type: ignore[attr-defined]
            own.update(_param_names(node))
            if not all(_plain_decorator(qualname, d.decorator) for d in node.decorators) \
                    and gives_value(node):  # type: ignore[attr-defined]
                roots.add("=" + node.name.value)  # type: ignore[attr-defined]  # a decorator takes it
            for d in node.decorators:  # type: ignore[attr-defined]
                _names(d.decorator, mentioned)
            fparams = frozenset(_param_names(node))
            for p in (*node.params.params, *node.params.kwonly_params,  # type: ignore[attr-defined]
                      *node.params.posonly_params):  # type: ignore[attr-defined]
                if p.default is not None and type(p.default) in (cst.Name, cst.Attribute):
                    # `def step(p, loss_fn=xent)`: a call that passes no function runs the default
                    _names(p.default, roots)
            for c in children(node):
                if type(c) is not cst.Name:
                    stack.append((c, name, fbinds, "", fparams))
            continue
        if t is cst.ClassDef and (key is None or key.endswith("\0class")):
            cname = prefix + node.name.value  # type: ignore[attr-defined]
            body_key = cname + ".__classbody__"
            units.setdefault(body_key, set())
            for b in node.bases:  # type: ignore[attr-defined]
                _names(b.value, units[body_key])
            for c in node.body.body:  # type: ignore[attr-defined]
                stack.append((c, body_key + "\0class", binds, cname + ".", params))
            continue
        if t is cst.FunctionDef and key is not None:
            outer = key.split("\0", 1)[0]
            if outer not in nested.setdefault(node.name.value, []):  # type: ignore[attr-defined]
                nested[node.name.value].append(outer)  # type: ignore[attr-defined]
        if t is cst.Name or t is cst.Attribute:
            tok = _token(node)
            skip_kids = tok is not None or t is cst.Attribute
            if tok is None:
                tok = node.attr.value  # type: ignore[attr-defined]  # `self.loss`: by name
            (units[key.split("\0", 1)[0]] if key is not None else top).add(tok)
            if skip_kids:
                if t is cst.Attribute and not tok.startswith("@"):
                    stack.append((node.value, key, binds, prefix, params))  # type: ignore[attr-defined]
                continue
        elif t is cst.Call:
            q = qualname(node.func) or ""  # type: ignore[attr-defined]
            if q in FORWARD_ONLY:
                pass  # forward mode only: it runs the function, a masked branch's tangent is dropped
            elif q in DIFFERENTIATING or q in ("jax.linear_transpose", "jax.closure_convert"):
                for a in node.args:  # type: ignore[attr-defined]
                    if _opaque_target(a.value, params, binds, 0, defs):
                        roots.add(OPAQUE)
                    _expand(a.value, binds, roots)
            elif not _plain_call(q, node.func) and not _applies_transform(qualname, node.func):  # type: ignore
                for a in node.args:  # type: ignore[attr-defined]
                    if type(a.value) not in (cst.Integer, cst.Float, cst.SimpleString):
                        # handed on: the callee may differentiate it (a local name: through
                        # what may hold a function, not the data a call computed)
                        _expand(a.value, binds, roots, lambda v: _may_hold_function(qualname, v), params)
        if key is None and t in (cst.Assign, cst.AnnAssign) and getattr(node, "value", None) is not None:
            targets = ([x for tg in node.targets for x in _target_names(tg.target)]  # type: ignore[attr-defined]
                       if t is cst.Assign else _target_names(node.target))  # type: ignore[attr-defined]
            value: set[str] = set()
            if _may_hold_function(qualname, node.value):  # type: ignore[attr-defined]
                _names(node.value, value)  # type: ignore[attr-defined]  # (not data a call computed)
            for name in targets:
                globals_.setdefault(name, set()).update(value)
        if t in (cst.Import, cst.ImportFrom):
            continue  # (binds names; no use of them)
        if t is cst.AnnAssign:
            kids = [node.annotation.annotation] + ([node.value] if node.value is not None else [])  # type: ignore
        elif t is cst.Assign:
            # a name bound is no mention of it (`update: classmethod`, `fn = staticmethod(f)`)
            kids = [node.value] + [tg.target for tg in node.targets  # type: ignore[attr-defined]
                                   if type(tg.target) not in (cst.Name, cst.Attribute)]
        else:
            kids = children(node)
        for c in kids:
            stack.append((c, key, binds, prefix, params))
    for k, own in local.items():
        units[k] -= {"=" + n for n in own}
    star = any(type(n) is cst.ImportFrom and type(n.names) is cst.ImportStar  # type: ignore[attr-defined]
               for line in module.body if type(line) is cst.SimpleStatementLine for n in line.body)
    out = {"units": {k: sorted(v) for k, v in sorted(units.items())}, "roots": sorted(roots), "star": star,
           "nested": {k: sorted(v) for k, v in sorted(nested.items())},
           "globals": {k: sorted(v) for k, v in sorted(globals_.items())}, "top": sorted(top)}
    relative = _relative_imports(module)
    if relative:
        out["relative"] = relative
    return out


def _relative_imports(module: cst.Module) -> dict[str, str]:
    """The names the file's module-level relative imports bind, each to what it names
    (``from .ops import energy``: ``{"energy": ".ops.energy"}``): the import table
    leaves them unplaced (``=energy``), the project places them (model/reach_closure.py)."""
    out: dict[str, str] = {}
    for line in module.body:
        if type(line) is not cst.SimpleStatementLine:
            continue
        for n in line.body:  # type: ignore[attr-defined]
            if type(n) is not cst.ImportFrom or not n.relative or type(n.names) is cst.ImportStar:  # type: ignore
                continue
            dots = "." * len(n.relative)  # type: ignore[attr-defined]
            base = _dotted(n.module) if n.module is not None else ""  # type: ignore[attr-defined]
            if base is None:
                continue
            for alias in n.names:  # type: ignore[attr-defined]
                name = _dotted(alias.name)
                if name is None:
                    continue
                local = alias.asname.name.value if alias.asname is not None and type(alias.asname.name) is cst.Name \
                    else name
                out[local] = dots + (base + "." if base else "") + name
    return dict(sorted(out.items()))


def _dotted(n: cst.CSTNode) -> Optional[str]:
    if type(n) is cst.Name:
        return n.value  # type: ignore[attr-defined]
    if type(n) is cst.Attribute:
        head = _dotted(n.value)  # type: ignore[attr-defined]
        return None if head is None else head + "." + n.attr.value  # type: ignore[attr-defined]
    return None


def _applies_transform(qualname: Callable[[cst.CSTNode], Optional[str]], func: cst.CSTNode) -> bool:
    """``jax.grad(loss)(x)``, ``jax.jit(f)(x)``: what a transformation returned, called
    with values (the primals), not functions."""
    if type(func) is not cst.Call:
        return False
    q = qualname(func.func) or ""  # type: ignore[attr-defined]
    return q in DIFFERENTIATING or q in FORWARD_ONLY or q in _PLAIN_CALLS


def _may_hold_function(qualname: Callable[[cst.CSTNode], Optional[str]], v: cst.CSTNode) -> bool:
    """Can a name bound to ``v`` hold a function: a name, an attribute, a lambda, a
    choice, a container of such, ``partial``/a transformation of one -- not the result of
    another call (the data a function computed: ``x = augment(img)``)?"""
    t = type(v)
    if t in (cst.Name, cst.Attribute, cst.Lambda, cst.Subscript):
        return True
    if t is cst.IfExp:
        return _may_hold_function(qualname, v.body) or _may_hold_function(qualname, v.orelse)  # type: ignore
    if t in (cst.Tuple, cst.List):
        return any(_may_hold_function(qualname, el.value) for el in v.elements)  # type: ignore[attr-defined]
    if t is cst.Dict:
        return any(type(el) is cst.DictElement and _may_hold_function(qualname, el.value)
                   for el in v.elements)  # type: ignore[attr-defined]
    if t is cst.Call:
        q = qualname(v.func) or ""  # type: ignore[attr-defined]
        return q in ("functools.partial", "jax.tree_util.Partial") or q in DIFFERENTIATING or q in _PLAIN_CALLS
    return False


class _LazyDefs:
    """The names of the functions the file defines with ``def`` (at any depth), found on
    the first question (most files never ask)."""

    def __init__(self, module: cst.Module):
        self.module = module
        self.names: Optional[set[str]] = None

    def __contains__(self, name: object) -> bool:
        if self.names is None:
            self.names = set()
            stack: list[cst.CSTNode] = [self.module]
            while stack:
                n = stack.pop()
                if type(n) is cst.FunctionDef:
                    self.names.add(n.name.value)  # type: ignore[attr-defined]
                stack.extend(children(n))
        return name in self.names


def _param_names(fn: cst.CSTNode) -> set[str]:
    """The parameters of ``fn`` and of the functions and lambdas inside it."""
    out: set[str] = set()
    stack = [fn]
    while stack:
        n = stack.pop()
        if type(n) is cst.Param:
            out.add(n.name.value)  # type: ignore[attr-defined]
        stack.extend(children(n))
    return out


def _attr_targets(body: cst.CSTNode) -> set[str]:
    """Names assigned only as attributes (``self.loss_fn = ...``): not locals."""
    out: set[str] = set()
    plain: set[str] = set()
    stack = [body]
    while stack:
        n = stack.pop()
        if type(n) is cst.AssignTarget:
            t = n.target  # type: ignore[attr-defined]
            (out.add(t.attr.value) if type(t) is cst.Attribute else plain.update(_target_names(t)))
        stack.extend(children(n))
    return out - plain


def _bindings_shallow(module: cst.Module) -> dict[str, list[cst.CSTNode]]:
    """Module-level bindings (not inside functions or classes)."""
    out: dict[str, list[cst.CSTNode]] = {}
    for stmt in module.body:
        if type(stmt) is cst.SimpleStatementLine:
            for small in stmt.body:
                if type(small) is cst.Assign:
                    for target in small.targets:
                        for name in _target_names(target.target):
                            out.setdefault(name, []).append(small.value)
    return out


def _plain_call(q: str, func: cst.CSTNode) -> bool:
    if q in _PLAIN_CALLS or q.startswith(_PLAIN_PREFIXES) or q in _BUILTIN_NAMES:
        return True
    return type(func) is cst.Name and func.value in _BUILTIN_NAMES  # type: ignore[attr-defined]


def _plain_decorator(qualname: Callable[[cst.CSTNode], Optional[str]], d: cst.BaseExpression) -> bool:
    """``@jax.jit``, ``@partial(jax.jit, ...)``, ``@staticmethod``, ``@property``, a test
    runner's ``@pytest.mark...``, ``@parameterized...``: none differentiates."""
    if type(d) is cst.Call:
        q = qualname(d.func) or ""  # type: ignore[attr-defined]
        if q == "functools.partial" and d.args:  # type: ignore[attr-defined]
            q = qualname(d.args[0].value) or ""  # type: ignore[attr-defined]
    else:
        q = qualname(d) or ""
    if type(d) is cst.Name and d.value in ("staticmethod", "classmethod", "property"):  # type: ignore[attr-defined]
        return True
    return q in _PLAIN_DECORATORS or q.startswith(("pytest.", "absl.testing.", "parameterized.", "unittest.")) \
        or q.endswith((".setter", ".getter", ".deleter"))
