"""Which functions of an entry file no derivative can reach.

A notebook or a test module (``test_*.py``, ``*_test.py``) is run, never imported:
its functions are called only from its own code (a test runner calls its tests,
which differentiate nothing by themselves).  A derivative reaches one of them only
through the file's own differentiating calls (``jax.grad(loss)``, ``jax.vjp(f, x)``,
``jax.value_and_grad``...) or through a callable that the file hands it to
(``trainer.fit(loss)``, ``optax``, a decorator, a list of functions): that callee may
differentiate it.  A decorated function that returns nothing (a test under
``@set_flag(False)``) is no root: it has no output a decorator could differentiate.  ``DerivativeReach`` collects those *roots* once per file and
closes them over the names each reached function mentions (over-approximated by
name: any function of the file with a name mentioned in a reached body is reached).
A function is *underived* when neither it nor a function around it is reached, nor
given to a reverse-mode differentiation (``Unit.grad_reasons``: a function only
``jax.jacfwd``/``jax.jvp``/``jax.linearize`` differentiate is run, and its masked
branches' tangents dropped, gradtrace.FORWARD_ONLY); a method only when
the file differentiates nothing at all (its object may be used anywhere), or when its
class is one only the test runner makes (the file never names it: ``class TestGraph:``
... ``def test_laplacian(self)``), whose methods are then placed by name like functions.

Unknown stays unknown: a differentiating call whose function is not a function of
the file (``jax.grad(g)`` with ``g = jax.jit(f)``, ``jax.grad(model.loss)`` with no
``loss`` defined here) makes nothing of the file underived.  A function handed only
to a transformation that does not differentiate (``jax.jit(f)``, ``jax.vmap(f)``,
``@jax.jit``) is not reached by that, as long as what the transformation returns is
only called (``f_jit = jax.jit(f)`` ... ``f_jit(x)``, ``jax.jit(f)(x)``).
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jaxlint.model.gradtrace import DIFFERENTIATING, FORWARD_ONLY, in_reverse_mode
from jaxlint.model.units import Unit
from jaxlint.model.walk import children, descendants, positional_args

# transformations that do not differentiate the function they are given
_PLAIN_WRAPPERS = frozenset({"jax.jit", "jax.vmap", "jax.pmap", "jax.named_call", "equinox.filter_jit",
                             "equinox.filter_vmap", "functools.partial"})
# what else hands a function to differentiation
_ALSO_DIFFERENTIATING = frozenset({"jax.linear_transpose", "jax.closure_convert"})
_PLAIN_DECORATORS = frozenset({"staticmethod", "classmethod", "property", "functools.wraps"})
# a test runner's decorators call the test, they differentiate nothing
_RUNNER_DECORATORS = ("pytest.", "absl.testing.parameterized.", "parameterized.", "unittest.")


def entry_file(path: str) -> bool:
    """A notebook or a test module: run, never imported."""
    base = path.replace("\\", "/").rsplit("/", 1)[-1]
    return base.endswith(".ipynb") or (base.endswith(".py") and (base.startswith("test_") or base.endswith("_test.py")))


class DerivativeReach:
    def __init__(self, module: cst.Module, units: list[Unit], qualname: Callable[[cst.CSTNode], Optional[str]]):
        self.qualname = qualname
        self.by_name: dict[str, list[Unit]] = {}
        self.unit_of: dict[int, Unit] = {}
        self.units = units
        for u in units:
            self.unit_of[id(u.node)] = u
            if not u.is_module:
                self.by_name.setdefault(u.name, []).append(u)
        self.unknown = False
        self.reached: set[int] = set()  # ids of units a derivative may reach
        self.mentioned: set[str] = set()  # the names the file's code mentions (not a def's own name)
        self._plain_args = self._plain_wrapped(module)
        roots: list[Unit] = []
        stack: list[tuple[cst.CSTNode, Optional[cst.CSTNode]]] = [(module, None)]
        while stack:
            node, parent = stack.pop()
            t = type(node)
            if t is cst.Name and not (type(parent) in (cst.ClassDef, cst.FunctionDef)
                                      and parent.name is node):  # type: ignore[union-attr]
                self.mentioned.add(node.value)
            if t is cst.Call:
                q = qualname(node.func) or ""
                if q in FORWARD_ONLY:
                    # forward mode only (`jax.jacfwd(f)`, `jax.jvp(f, ...)`): it runs `f`, and
                    # a masked branch's tangent is dropped; `f` is handed to no one else
                    pos = positional_args(node)
                    if pos:
                        self._plain_args.add(id(pos[0]))
                elif q in DIFFERENTIATING or q in _ALSO_DIFFERENTIATING:
                    found = self._functions(_fn_arg(node))
                    if found is None:
                        self.unknown = True  # it differentiates what the model cannot place
                        return
                    roots.extend(found)
            elif t is cst.Name and node.value in self.by_name and not self._plain_use(node, parent):
                roots.extend(self.by_name[node.value])  # handed on: its taker may differentiate it
            elif t is cst.Attribute and node.attr.value in self.by_name and not (
                    type(parent) is cst.Call and parent.func is node):  # type: ignore[union-attr]
                # `fit(self.loss)`: a method handed on (not a function nested in another:
                # no object has it as an attribute, `geom.laplacian` is another one)
                roots.extend(u for u in self.by_name[node.attr.value]
                             if u.cls is not None or u.parent is None or u.parent.is_module)
            elif t is cst.FunctionDef and not all(self._plain_decorator(d.decorator) for d in node.decorators) \
                    and gives_value(node):
                u = self.unit_of.get(id(node))
                if u is not None:
                    roots.append(u)  # a decorator takes it (and may differentiate it)
            for c in children(node):
                stack.append((c, node))
        # close over the names each reached function mentions, and what it defines
        inner: dict[int, list[Unit]] = {}
        for u in units:
            if u.parent is not None:
                inner.setdefault(id(u.parent), []).append(u)
        work = roots
        while work:
            u = work.pop()
            if id(u) in self.reached:
                continue
            self.reached.add(id(u))
            attrs: set[str] = set()
            for n in _names_in(u.node, attrs):
                work.extend(self.by_name.get(n, ()))
            for n in attrs:
                # `op.reference`: a method or a module-level function (not one nested in
                # another: no object has it as an attribute)
                work.extend(x for x in self.by_name.get(n, ()) if x.cls is not None or x.parent is None
                            or x.parent.is_module)
            work.extend(inner.get(id(u), ()))

    def _functions(self, e: Optional[cst.BaseExpression]) -> Optional[list[Unit]]:
        """The functions of the file ``e`` may be (a def's name, a lambda, a method named
        so, ``partial(f, ...)``, ``jax.grad(f)``), or None: not known here."""
        if e is None:
            return None
        if type(e) is cst.Lambda:
            u = self.unit_of.get(id(e))
            return [u] if u is not None else None
        if type(e) is cst.Name:
            return self.by_name.get(e.value) or None
        if type(e) is cst.Attribute:
            return self.by_name.get(e.attr.value) or None
        if type(e) is cst.Call:
            q = self.qualname(e.func) or ""
            if q in _PLAIN_WRAPPERS or q in DIFFERENTIATING:
                # `partial(f, ...)`, `jax.grad(jax.grad(f))`, `jax.grad(jax.jit(f))`
                return self._functions(_fn_arg(e))
        return None

    def _plain_decorator(self, d: cst.BaseExpression) -> bool:
        """``@jax.jit``, ``@partial(jax.jit, static_argnums=0)``, ``@staticmethod``, a
        test runner's ``@pytest.mark.parametrize(...)``: no differentiation."""
        if type(d) is cst.Call:
            q = self.qualname(d.func) or ""
            if q == "functools.partial":
                pos = positional_args(d)
                q = (self.qualname(pos[0].value) or "") if pos else ""
        else:
            q = self.qualname(d) or ""
        return q in _PLAIN_WRAPPERS or q in _PLAIN_DECORATORS or q.startswith(_RUNNER_DECORATORS)

    def _plain_use(self, name: cst.Name, parent: Optional[cst.CSTNode]) -> bool:
        """Is this mention of a function of the file no hand-off to a possible
        differentiator: a call, its own def, an attribute's name, a keyword, or the
        function given to ``jax.jit``/``jax.vmap`` whose result is only called?"""
        t = type(parent)
        if t is cst.Call:
            return parent.func is name  # type: ignore[union-attr]
        if t in (cst.FunctionDef, cst.ClassDef):
            return parent.name is name  # type: ignore[union-attr]
        if t is cst.Attribute:
            return parent.attr is name  # type: ignore[union-attr]
        if t is cst.Arg:
            return parent.keyword is name or id(parent) in self._plain_args  # type: ignore[union-attr]
        return False

    def _plain_wrapped(self, module: cst.Module) -> set[int]:
        """ids of the arguments given to a plain transformation (``jax.jit(f)``) whose
        result is called at once (``jax.jit(f)(x)``) or bound to a name that is
        otherwise only ever called (``f_jit = jax.jit(f)`` ... ``f_jit(x)``)."""
        uses: dict[str, list[bool]] = {}  # name -> is each mention a call
        binds: list[tuple[str, cst.Arg]] = []
        plain: set[int] = set()
        stack: list[tuple[cst.CSTNode, Optional[cst.CSTNode]]] = [(module, None)]
        while stack:
            node, parent = stack.pop()
            t = type(node)
            if t is cst.Name:
                if type(parent) is cst.Call:
                    uses.setdefault(node.value, []).append(parent.func is node)  # type: ignore[union-attr]
                elif type(parent) is not cst.AssignTarget and not (
                        type(parent) is cst.Attribute and parent.attr is node) and not (  # type: ignore[union-attr]
                        type(parent) in (cst.Arg, cst.FunctionDef, cst.ClassDef)
                        and getattr(parent, "keyword", getattr(parent, "name", None)) is node):
                    uses.setdefault(node.value, []).append(False)  # (a binding is no use)
            elif t is cst.Call and (self.qualname(node.func) or "") in _PLAIN_WRAPPERS - {"functools.partial"}:
                pos = positional_args(node)
                if pos and type(pos[0].value) is cst.Name:
                    if type(parent) is cst.Call and parent.func is node:  # type: ignore[union-attr]
                        plain.add(id(pos[0]))
                    elif type(parent) is cst.Assign and len(parent.targets) == 1 \
                            and type(parent.targets[0].target) is cst.Name:
                        binds.append((parent.targets[0].target.value, pos[0]))
            for c in children(node):
                stack.append((c, node))
        for target, arg in binds:
            if all(uses.get(target, ())):
                plain.add(id(arg))
        return plain

    def underived(self, unit: Optional[Unit]) -> bool:
        """No derivative reaches ``unit`` (nor a function around it)."""
        if self.unknown or unit is None:
            return False
        u: Optional[Unit] = unit
        while u is not None and not u.is_module:
            if id(u) in self.reached or in_reverse_mode(u, self.units):
                return False
            if u.cls is not None and self.reached and not self._runner_only(u.cls):
                # a method runs wherever its object is used (`model.apply(p, x)`,
                # `Model()(x)` in a differentiated loss): not placed by name
                return False
            u = u.parent
        return True


    def _runner_only(self, cls) -> bool:
        """Is ``cls`` a class whose object only the test runner makes: the file never
        mentions its name (no call, base, argument or annotation), and it has no operator
        or ``__call__`` that code holding ``self`` could run without naming it?  Its
        methods then run only when the runner calls them or when a reached function
        names them (``self.loss``), as the file's functions do."""
        if cls.name in self.mentioned:
            return False
        return not any(m.startswith("__") and m.endswith("__") and m != "__init__" for m in cls.methods)


def gives_value(fn: cst.CSTNode) -> bool:
    """Can ``fn`` (a ``def``) give its caller a value: a ``return`` of an expression
    other than ``None``, or a ``yield``, in its own body?  A function that returns
    nothing (a test: ``@set_flag(False) def test_forward(self): ...``) has no output
    for a decorator to differentiate: ``jax.grad`` of it raises (no scalar output), and
    ``vjp``/``jvp`` of it carry no cotangent or tangent back through its body."""
    for n in descendants(fn.body):  # type: ignore[attr-defined]
        t = type(n)
        if t is cst.Return:
            v = n.value  # type: ignore[attr-defined]
            if v is not None and not (type(v) is cst.Name and v.value == "None"):
                return True
        elif t is cst.Yield:
            return True
    return False


def _fn_arg(call: cst.Call) -> Optional[cst.BaseExpression]:
    pos = positional_args(call)
    if pos:
        return pos[0].value
    for a in call.args:
        if a.keyword is not None and a.keyword.value in ("fun", "f", "func"):
            return a.value
    return None


def _names_in(node: cst.CSTNode, attrs: Optional[set[str]] = None) -> set[str]:
    """The names ``node`` mentions; with ``attrs``, the names read as attributes
    (``op.reference``) go there instead."""
    out: set[str] = set()
    stack = list(children(node)) if not isinstance(node, cst.Module) else []
    while stack:
        n = stack.pop()
        if type(n) is cst.Name:
            out.add(n.value)
        elif attrs is not None and type(n) is cst.Attribute:
            attrs.add(n.attr.value)  # type: ignore[attr-defined]
            stack.append(n.value)  # type: ignore[attr-defined]
            continue
        stack.extend(children(n))
    return out


def _pallas_call(qualname: Callable[[cst.CSTNode], Optional[str]], e: cst.CSTNode) -> bool:
    return type(e) is cst.Call and (qualname(e.func) or "").endswith(".pallas_call")  # type: ignore[attr-defined]


def applies_kernel(fn: cst.CSTNode, qualname: Callable[[cst.CSTNode], Optional[str]]) -> bool:
    """Does ``fn`` (a ``def``) run a Pallas kernel that has no derivative rule: apply
    what ``pallas_call`` built (``pl.pallas_call(kernel, ...)(q, k)``, or a name bound
    to it in the function, ``call = pl.pallas_call(...)`` ... ``call(q, k)``), in its
    body or a function nested in it, with no ``custom_vjp``/``custom_jvp`` of its own?
    ``pallas_call`` has no reverse-mode rule: ``jax.grad`` through the function raises
    at the kernel, so nothing the function computes from the kernel's outputs is
    differentiated in reverse mode (forward mode drops a masked branch's tangent)."""
    if type(fn) is not cst.FunctionDef:
        return False
    for d in fn.decorators:  # type: ignore[attr-defined]
        written = qualname(d.decorator.func if type(d.decorator) is cst.Call else d.decorator) or ""
        if written.endswith(("custom_vjp", "custom_jvp")):
            return False
    built: set[str] = set()
    calls: list[cst.Call] = []
    stack: list[cst.CSTNode] = [fn.body]  # type: ignore[attr-defined]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is cst.Assign and _pallas_call(qualname, n.value):  # type: ignore[attr-defined]
            built.update(a.target.value for a in n.targets  # type: ignore[attr-defined]
                         if type(a.target) is cst.Name)
        elif t is cst.Call:
            if _pallas_call(qualname, n.func):  # type: ignore[attr-defined]
                return True
            calls.append(n)  # type: ignore[arg-type]
        stack.extend(children(n))
    return any(type(c.func) is cst.Name and c.func.value in built for c in calls)  # type: ignore[attr-defined]
