"""Functions of the project whose result is JAX work still running: a helper that
returns what a jitted function (or a JAX transformation's callable) returned, without
waiting for it.

JAX dispatches a jitted call asynchronously: the call returns a handle to arrays still
being computed.  A helper ``def generate(x): images = pipeline(x); return images`` hands
that handle on, so a caller that times ``generate(x)`` with ``time.time()`` measures the
dispatch, as if it had timed ``pipeline(x)`` (JAX505).  The helper is read, never walked:
its every ``return`` must be such a call (directly, through a name its body binds once
to one, or a call of another helper of the same kind), and nothing in its body may wait
(``block_until_ready``, ``device_get``, a NumPy conversion, ``print``, ``float(x)``,
``.item()``, a Python test such as ``if``/``assert``/``while``).  A helper of another
module travels as its ``returns`` fact ``dispatched:<callee>`` (``DISPATCHED``).
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jaxlint.model import apis
from jaxlint.model.units import Unit
from jaxlint.model.scopes import writes
from jaxlint.model.walk import descendants, dotted_name

# the ``returns`` fact of a helper of another module whose result is dispatched work
DISPATCHED = "dispatched:"

# transformations whose result, called, computes JAX arrays and returns before they are
# ready (not `make_jaxpr`/`eval_shape`)
DISPATCHING = frozenset(
    {"jax.jit", "jax.pjit", "jax.experimental.pjit.pjit", "jax.pmap", "jax.vmap", "jax.shard_map",
     "jax.experimental.shard_map.shard_map", "jax.checkpoint", "jax.remat", "jax.grad",
     "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.jacobian", "jax.hessian",
     "equinox.filter_jit", "equinox.filter_vmap", "equinox.filter_pmap", "equinox.filter_grad",
     "equinox.filter_value_and_grad", "flax.nnx.jit", "flax.nnx.vmap", "flax.nnx.grad",
     "flax.nnx.value_and_grad"}
)

# calls that wait for the work (or may): on the host or to Python values
_WAITING_BUILTINS = frozenset({"print", "float", "int", "bool", "complex", "str", "repr", "list", "tuple",
                               "sorted", "sum", "max", "min", "len", "input", "open"})
_WAITING_METHODS = frozenset({"block_until_ready", "item", "tolist", "device_get", "copy_to_host_async",
                              "__array__", "numpy", "save", "write", "wait", "result"})
_MAX_DEPTH = 3


def _is_dispatching(q: Optional[str]) -> bool:
    return q is not None and apis.canonical(q) in DISPATCHING


def jitted_def(index, fn: Unit) -> bool:
    """``fn`` is decorated with a dispatching transformation (``@jax.jit``, ``@partial(jax.jit, ...)``)."""
    return any(site.target is fn and _is_dispatching(site.qualname) for site in index.sites)


def _waits(unit: Unit, qualname: Callable[[cst.CSTNode], Optional[str]]) -> bool:
    """Does anything in ``unit``'s body wait for JAX work (or might)?"""
    node = unit.node
    body = node.body if type(node) in (cst.FunctionDef, cst.Lambda) else node
    for d in descendants(body):
        t = type(d)
        if t is cst.For and _counted(d.iter):
            continue  # `for i in range(1000)`: a count of the host's, nothing to wait for
        if t in (cst.If, cst.While, cst.Assert, cst.IfExp, cst.For, cst.With, cst.Try, cst.Await, cst.Yield,
                 cst.FormattedString):
            return True  # a Python test of a result, a loop over one, a context's exit...
        if t is not cst.Call:
            continue
        func = d.func
        if type(func) is cst.Name and func.value in _WAITING_BUILTINS:
            return True
        if type(func) is cst.Attribute and func.attr.value in _WAITING_METHODS:
            return True
        q = qualname(func)
        if q is not None and (q.startswith(("numpy.", "jax.device_get", "jax.block_until_ready", "time.",
                                            "jax.debug.", "logging.", "pickle.", "json."))):
            return True
    return False


def _number(e: cst.CSTNode) -> bool:
    if type(e) is cst.UnaryOperation and type(e.operator) in (cst.Minus, cst.Plus):
        e = e.expression
    return type(e) in (cst.Integer, cst.Float)


def _counted(it: cst.BaseExpression) -> bool:
    """``range(...)`` of integer literals (and arithmetic on them): iterating reads no array."""
    if type(it) is not cst.Call or type(it.func) is not cst.Name or it.func.value != "range" \
            or not 1 <= len(it.args) <= 3:
        return False

    def literal(e: cst.CSTNode) -> bool:
        if type(e) is cst.BinaryOperation:
            return literal(e.left) and literal(e.right)
        if type(e) is cst.UnaryOperation:
            return literal(e.expression)
        return type(e) is cst.Integer

    return all(a.keyword is None and not a.star and literal(a.value) for a in it.args)


# JAX computations: dispatched like a jitted call's
_ARRAY_PREFIXES = ("jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.", "jax.random.", "jax.image.", "jax.ops.")


def imports_resolver(index) -> Callable[[cst.CSTNode], Optional[str]]:
    """Qualified names by the file's imports alone (a helper's body is read, not walked)."""
    return index.imports.resolve_expr


def returns_dispatched(unit: Unit, index, qualname: Callable[[cst.CSTNode], Optional[str]],
                       depth: int = 0) -> Optional[str]:
    """The callee (as written, for messages) whose dispatched work every ``return`` of
    ``unit`` (a function or lambda of this file) hands back without waiting, or None.
    ``qualname``: the file's import resolution (``imports_resolver``)."""
    node = unit.node
    if depth > _MAX_DEPTH or unit.is_generator or unit.is_module:
        return None
    if type(node) is cst.FunctionDef:
        if node.decorators or not unit.returns or any(r is None for r in unit.returns):
            return None
        returns = list(unit.returns)
    elif type(node) is cst.Lambda:
        returns = [node.body]
    else:
        return None
    found: Optional[str] = None
    for r in returns:
        got = _dispatched_expr(unit, index, qualname, r, depth, set())
        if got is None:
            return None
        found = found or got
    # the body read only for a helper whose returns are dispatched work
    return None if found is None or _waits(unit, qualname) else found


def _dispatched_expr(unit: Unit, index, qualname, e: cst.CSTNode, depth: int, seen: set) -> Optional[str]:
    t = type(e)
    if t is cst.Name:
        name = e.value
        if name in seen or unit.param(name) is not None:
            return None
        entries = unit.bindings.get(name)
        if not entries or any(v is None for _, v in entries):
            return None
        seen.add(name)
        if len(entries) == 1:
            return _dispatched_expr(unit, index, qualname, entries[0][1], depth, seen)
        # `result = 0.0`, then `result = result + jnp.sin(x)` in a loop: every binding a
        # number or dispatched work (and no other write: `+=`, a loop target, unpacking)
        if len(writes(unit.node, name)) != len(entries):
            return None
        found = None
        for _, v in entries:
            if _number(v):
                continue
            got = _dispatched_expr(unit, index, qualname, v, depth, seen)
            if got is None:
                return None
            found = found or got
        return found
    if t is cst.BinaryOperation:
        # `result + jnp.sin(x) * 0.001`: arithmetic on dispatched work is dispatched work
        # (a JAX array's operator returns a JAX array, not yet computed)
        sides = [_dispatched_expr(unit, index, qualname, s, depth, seen) if type(s) is not cst.Name or s.value not in seen
                 else None for s in (e.left, e.right)]
        return next((x for x in sides if x is not None), None)
    if t is not cst.Call or any(a.star for a in e.args):
        return None
    func = e.func
    if type(func) is cst.Call:
        # `jax.jit(step)(x)`
        return dotted_name(func.args[0].value) if func.args and _is_dispatching(qualname(func.func)) \
            and type(func.args[0].value) in (cst.Name, cst.Attribute) else None
    written = dotted_name(func)
    if written is None:
        return None
    if type(func) is cst.Name:
        q = qualname(func)
        if q is not None and q.startswith(_ARRAY_PREFIXES) and func.value not in unit.assigned:
            return written  # `from jax.numpy import dot`
        return _dispatched_name(unit, index, qualname, func.value, depth)
    head = written.split(".", 1)[0]
    if head == "self" and unit.cls is not None and written.count(".") == 1:
        # `self.step(x)`: a jitted method of the class, or one that returns such work
        method = unit.cls.methods.get(func.attr.value)
        if method is None:
            # `self._step = jax.jit(...)` in `__init__`/`setup`, called as `self._step(x)`
            return written if _jit_attribute(unit.cls, func.attr.value, qualname) else None
        if jitted_def(index, method):
            return written
        return written if returns_dispatched(method, index, qualname, depth + 1) is not None else None
    if unit.param(head) is not None or head in unit.assigned:
        return None
    q = qualname(func)
    if q is not None and q.startswith(_ARRAY_PREFIXES) and q not in ("jax.numpy.shape", "jax.numpy.ndim",
                                                                      "jax.numpy.size"):
        return written  # `jnp.dot(a, b)`: a computation dispatched like a jitted call
    return imported(index, written)


def _jit_attribute(cls, attr: str, qualname) -> bool:
    """Does ``cls`` bind ``self.<attr>`` once, to a dispatching transformation's result
    (``self._step = jax.jit(step)``), in ``__init__`` or ``setup``, and nowhere else?"""
    found = []
    for m in cls.methods.values():
        if type(m.node) is not cst.FunctionDef:
            continue
        for d in descendants(m.node.body):
            if type(d) in (cst.Assign, cst.AugAssign, cst.AnnAssign):
                targets = [t.target for t in d.targets] if type(d) is cst.Assign else [d.target]
                for t in targets:
                    for n in (t, *descendants(t)):
                        if type(n) is cst.Attribute and n.attr.value == attr and type(n.value) is cst.Name \
                                and n.value.value == "self":
                            found.append((m.name, d))
    if len(found) != 1 or found[0][0] not in ("__init__", "setup"):
        return False
    stmt = found[0][1]
    return type(stmt) is cst.Assign and len(stmt.targets) == 1 and type(stmt.targets[0].target) is cst.Attribute \
        and type(stmt.value) is cst.Call and _is_dispatching(qualname(stmt.value.func))


def imported(index, written: str) -> Optional[str]:
    """A function of another module of the project, as this file writes it: a jit, or a
    helper whose ``returns`` fact says it hands back dispatched work (or a JAX array it
    computed)."""
    if written in index.imported_jits:
        return written
    known = index.imported_returns.get(written)
    if known is not None and known.startswith(DISPATCHED):
        return known[len(DISPATCHED):] or written
    return written if known == "array" else None


def _dispatched_name(unit: Unit, index, qualname, name: str, depth: int) -> Optional[str]:
    """A call of ``name`` in ``unit``: a jit of the file or the project (or a helper that
    returns such work)."""
    u: Optional[Unit] = unit
    while u is not None:
        if u.param(name) is not None:
            return None
        fn = u.defs.get(name)
        if fn is not None:
            if jitted_def(index, fn):
                return name
            return name if returns_dispatched(fn, index, qualname, depth + 1) is not None else None
        entries = u.bindings.get(name)
        if entries:
            if len(entries) != 1 or type(entries[0][1]) is not cst.Call:
                return None
            value = entries[0][1]
            return name if _is_dispatching(qualname(value.func)) else None
        if name in u.assigned:
            return None
        u = u.parent
    return imported(index, name)


def imported_instance_method(index, unit: Unit, obj: cst.CSTNode, attr: str) -> Optional[str]:
    """``graph.solve(b)`` where ``graph`` is bound once, in its scope, to an instance of
    a class of another module of the project (``graph = Graph(a)``, ``graph =
    solver.Graph(a)``) whose method ``solve`` hands back dispatched work (the class's
    ``returns`` fact ``Graph.solve``): the callee, as ``imported`` gives it; else None."""
    from jaxlint.model.scopes import scope_of, writes

    if type(obj) is not cst.Name or not index.imported_returns:
        return None
    u = scope_of(index, unit, obj.value)
    if u is None:
        return None
    bound = writes(u.node, obj.value)
    if len(bound) != 1 or type(bound[0]) is not cst.Assign or len(bound[0].targets) != 1 \
            or type(bound[0].targets[0].target) is not cst.Name:
        return None
    value = bound[0].value
    if type(value) is not cst.Call:
        return None
    cls = dotted_name(value.func)
    if cls is None:
        return None
    if cls in index.imported_constructors:
        cls = cls.rsplit(".", 1)[0]  # `graph = FactorGraph.make(...)`: a static constructor
    head = cls.split(".", 1)[0]
    if head not in index.imports.names or scope_of(index, u, head) is not index.module_unit \
            or head in index.module_unit.assigned:
        return None  # not (only) the imported name
    if u.is_module and any(obj.value in w.global_names and obj.value in w.assigned for w in index.units):
        return None
    return imported(index, f"{cls}.{attr}")


def constructors(index) -> list[str]:
    """``Cls.make`` for the static and class methods of this file's module-level classes
    whose every ``return`` builds an instance of the class (``return FactorGraph(...)``,
    ``return cls(...)``): a call of one makes an instance, as ``Cls(...)`` does."""
    out = []
    module = index.module_unit
    for c in index.classes:
        if c.scope is not module:
            continue
        for name, m in c.methods.items():
            node = m.node
            if type(node) is not cst.FunctionDef or not m.returns or any(r is None for r in m.returns):
                continue
            kinds = {dotted_name(d.decorator) for d in node.decorators}
            if kinds == {"staticmethod"}:
                own = {c.name}
            elif kinds == {"classmethod"} and m.params:
                own = {c.name, m.params[0].name}
            else:
                continue
            if all(type(r) is cst.Call and type(r.func) is cst.Name and r.func.value in own
                   and r.func.value not in m.assigned for r in m.returns):
                out.append(f"{c.name}.{name}")
    return sorted(out)


def attribute_dispatched(index, cls, attr: str, qualname) -> Optional[str]:
    """``obj.<attr>`` of an instance of ``cls`` (a class of this file) holds dispatched work:
    every method that stores ``self.<attr>`` stores such work (``x = g(self.data)`` with
    ``g`` jitted, then ``self.factors = x``), and there is at least one store.  The callee,
    for messages; None otherwise."""
    found: Optional[str] = None
    for m in cls.methods.values():
        if type(m.node) is not cst.FunctionDef or not m.params:
            continue
        me = m.params[0].name
        for d in descendants(m.node.body):
            if type(d) in (cst.AugAssign, cst.AnnAssign) or (type(d) is cst.Assign and len(d.targets) != 1):
                targets = [d.target] if type(d) is not cst.Assign else [t.target for t in d.targets]
                if any(type(t) is cst.Attribute and t.attr.value == attr for t in targets):
                    return None
                continue
            if type(d) is not cst.Assign:
                continue
            t = d.targets[0].target
            if type(t) is not cst.Attribute or t.attr.value != attr:
                continue
            if type(t.value) is not cst.Name or t.value.value != me:
                return None
            got = _dispatched_expr(m, index, qualname, d.value, 0, set())
            if got is None or _waits(m, qualname):
                return None
            found = found or got
    return found

