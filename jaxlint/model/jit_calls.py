"""Calls of functions jitted in this file: which ``jax.jit`` a call invokes, and
what that jit declares static (``static_argnums``/``static_argnames``) or donated
(``donate_argnums``/``donate_argnames``).

The Interpreter owns one ``JitCalls``; rules ask ``ctx.jit_callee(call)`` and
``ctx.jit_declaration(call)``.  The interpreter records ``name = jax.jit(...)``
assignments itself (``JitCalls.note_assign``), so rules keep no bookkeeping.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple, Optional

import libcst as cst

from jaxlint.model import apis
from jaxlint.model import values as V
from jaxlint.model.index import TransformSite
from jaxlint.model.scopes import bound_once, bound_receiver, instance_class
from jaxlint.model.units import Unit
from jaxlint.model.walk import dotted_name, keyword_arg, literal_ints, literal_strs, positional_args

JIT_NAMES = frozenset({"jax.jit", "jax.pjit", "jax.experimental.pjit.pjit", "jax.pmap"})


class ArgSlot(NamedTuple):
    """An argument of a call and the parameter it lands in."""

    arg: cst.Arg
    position: Optional[int]  # index among positional arguments; None for keywords
    name: Optional[str]  # the parameter's name; None for `*args`


@dataclass
class JitInfo:
    """A function wrapped by ``jax.jit`` and what the wrap declares static or donated."""

    unit: Optional[Unit]  # the wrapped def or lambda; None when not known
    site: Optional[TransformSite]
    checked: bool  # jit sees the unit's own signature (JAX208 checks the declaration)
    exact: bool  # callers see the unit's own signature too (not a method, one decorator)
    static_nums: Optional[list[int]] = None  # literal static_argnums (None: absent)
    static_names: Optional[list[str]] = None  # literal static_argnames (None: absent)
    static_nums_node: Optional[cst.BaseExpression] = None
    static_names_node: Optional[cst.BaseExpression] = None
    donate_nums: Optional[list[int]] = None
    donate_names: Optional[list[str]] = None
    donate_literal: bool = True  # donate_argnums/donate_argnames absent or literal
    # a jitted method called on an instance (`obj.method(...)`): the instance, which
    # jit receives as argument 0 (`self`)
    receiver: Optional[cst.BaseExpression] = None
    nums_keyword: str = "static_argnums"  # pmap's: static_broadcasted_argnums

    @property
    def positional(self):
        return self.unit.positional() if self.unit is not None else []

    @property
    def has_vararg(self) -> bool:
        return self.unit is not None and any(p.kind == "vararg" for p in self.unit.params)

    @property
    def has_kwarg(self) -> bool:
        return self.unit is not None and any(p.kind == "kwarg" for p in self.unit.params)

    @property
    def has_static(self) -> bool:
        return bool(self.static_nums or self.static_names)

    @property
    def has_donated(self) -> bool:
        return bool(self.donate_nums or self.donate_names)

    def _declared_position(self, nums, names, i: int, loose: bool) -> bool:
        positional = self.positional
        n = len(positional)
        for k in nums or ():
            if k == i or (k < 0 and (loose or not self.has_vararg) and k + n == i):
                return True
        return bool(names) and i < n and positional[i].name in names

    def _declared_name(self, nums, names, name: str, loose: bool) -> bool:
        if names and name in names:
            return True
        p = self.unit.param(name) if self.unit is not None else None
        if p is not None and p.index is not None and (loose or p.kind != "posonly"):
            return self._declared_position(nums, names, p.index, loose)
        return False

    # ``loose`` keeps the JAX5xx rules' older reading where the two resolvers disagreed:
    # a negative index counts from the end even with `*args`, and a keyword matches a
    # static position even for a positional-only parameter.  JAX207/209 read it strictly.
    def static_position(self, i: int, loose: bool = False) -> bool:
        return self._declared_position(self.static_nums, self.static_names, i, loose)

    def static_name(self, name: str, loose: bool = False) -> bool:
        return self._declared_name(self.static_nums, self.static_names, name, loose)

    def donated_position(self, i: int) -> bool:
        return self._declared_position(self.donate_nums, self.donate_names, i, True)

    def donated_name(self, name: str) -> bool:
        return self._declared_name(self.donate_nums, self.donate_names, name, True)

    def is_static(self, position: Optional[int], name: Optional[str]) -> bool:
        """Whether an argument passed at ``position`` (or by keyword ``name``) is static."""
        return self.static_position(position) if position is not None else self.static_name(name or "")

    def param_name(self, i: int) -> Optional[str]:
        positional = self.positional
        return positional[i].name if i < len(positional) else None

    def label(self) -> str:
        bits = []
        nums, names = self.static_nums, self.static_names
        if self.static_nums_node is not None and nums is not None:
            kw = self.nums_keyword
            bits.append(f"{kw}={tuple(nums)!r}".replace(",)", ")") if len(nums) != 1 else f"{kw}={nums[0]}")
        if self.static_names_node is not None and names is not None:
            bits.append(f"static_argnames={tuple(names)!r}" if len(names) != 1 else f"static_argnames='{names[0]}'")
        return ", ".join(bits) or "no static arguments"

    def args(self, call: cst.Call) -> list[ArgSlot]:
        """Every argument of ``call`` that maps to a parameter (up to the first ``*``/``**``).
        With no signature known (``jax.jit(imported_fn, static_argnums=0)``) each
        positional argument keeps its position and each keyword its name: what
        ``static_argnums``/``static_argnames`` name without a signature."""
        out = []
        positional = self.positional
        shift = 0
        if self.receiver is not None and positional:
            out.append(ArgSlot(cst.Arg(self.receiver), 0, positional[0].name))
            shift = 1
        for i, a in enumerate(call.args, shift):
            if a.star:
                break
            if self.unit is None:
                out.append(ArgSlot(a, None, a.keyword.value) if a.keyword is not None else ArgSlot(a, i, None))
                continue
            if a.keyword is not None:
                name = a.keyword.value
                p = self.unit.param(name) if self.unit is not None else None
                if p is None and not self.has_kwarg:
                    continue
                if p is not None and p.kind in ("posonly", "vararg", "kwarg"):
                    continue
                out.append(ArgSlot(a, None, name))
            elif i < len(positional):
                out.append(ArgSlot(a, i, positional[i].name))
            elif self.has_vararg:
                out.append(ArgSlot(a, i, None))
        return out


def _declaration(call: Optional[cst.Call], unit: Optional[Unit], site, checked: bool, exact: bool) -> Optional[JitInfo]:
    """The JitInfo of a jit call's keywords; None when static_argnums/names are not literal."""
    info = JitInfo(unit, site, checked, exact)
    if call is None:
        return info
    # pmap's static arguments: `static_broadcasted_argnums` (no names)
    nums_kw = "static_broadcasted_argnums" if keyword_arg(call, "static_broadcasted_argnums") is not None \
        else "static_argnums"
    info.nums_keyword = nums_kw
    a = keyword_arg(call, nums_kw)
    if a is not None:
        info.static_nums, info.static_nums_node = literal_ints(a.value), a.value
        if info.static_nums is None:
            return None
    a = keyword_arg(call, "static_argnames")
    if a is not None:
        info.static_names, info.static_names_node = literal_strs(a.value), a.value
        if info.static_names is None:
            return None
    a = keyword_arg(call, "donate_argnums")
    if a is not None:
        info.donate_nums = literal_ints(a.value)
        info.donate_literal = info.donate_nums is not None
    a = keyword_arg(call, "donate_argnames")
    if a is not None:
        info.donate_names = literal_strs(a.value)
        info.donate_literal = info.donate_literal and info.donate_names is not None
    if any(arg.star for arg in call.args):
        info.checked = info.exact = False
    return info


def export_of(info: JitInfo) -> Optional[dict]:
    """A jit's declaration as plain JSON, for the modules that import it."""
    unit = info.unit
    if unit is None:
        return None
    return {
        "params": [[p.name, p.kind, p.index, p.has_literal_default, p.default is not None]
                   for p in unit.params],
        "static_nums": info.static_nums,
        "static_names": info.static_names,
        "donate_nums": info.donate_nums,
        "donate_names": info.donate_names,
        "donate_literal": info.donate_literal,
        "checked": info.checked,
        "exact": info.exact,
    }


def jit_from_export(name: str, decl: dict) -> JitInfo:
    """The JitInfo of a jit imported from another module (``export_of`` there): its
    signature as a stand-in unit outside this file's tree."""
    from jaxlint.model.units import ParamInfo

    node = cst.FunctionDef(
        name=cst.Name(name.rsplit(".", 1)[-1]),  # `ops.power`: reached through an imported module
        params=cst.Parameters(),
        body=cst.IndentedBlock(body=[cst.SimpleStatementLine(body=[cst.Pass()])]),
    )
    unit = Unit(node=node, name=name, qualname=name, parent=None)
    for pname, kind, index, literal, has_default in decl["params"]:
        default = cst.Integer("0") if literal else (cst.Name("_") if has_default else None)
        unit.params.append(ParamInfo(pname, kind, index, default, None))
    info = JitInfo(unit, None, bool(decl["checked"]), bool(decl["exact"]))
    info.static_nums, info.static_names = decl["static_nums"], decl["static_names"]
    info.donate_nums, info.donate_names = decl["donate_nums"], decl["donate_names"]
    info.donate_literal = bool(decl["donate_literal"])
    if info.static_nums is not None:
        info.static_nums_node = cst.Name("_")
    if info.static_names is not None:
        info.static_names_node = cst.Name("_")
    return info


# JAX transformations whose result takes the wrapped function's arguments at the same
# positions and names, and whose `inspect.signature` is the wrapped function's (each
# wraps it with `functools.wraps`; checked on jax 0.10.2 and equinox 0.13): a jit above
# them sees the def's own signature.  `jax.vmap` maps positions one to one (an
# `in_axes=None` argument reaches the def untouched); `jax.grad(argnums=...)` changes
# what is differentiated, not where the arguments go.
SIGNATURE_KEEPING = frozenset({
    "jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.jacobian", "jax.hessian",
    "jax.checkpoint", "jax.remat", "jax.ad_checkpoint.checkpoint", "jax.named_call", "jax.vmap",
    "jax.custom_jvp", "jax.custom_vjp", "equinox.filter_grad", "equinox.filter_value_and_grad",
    "equinox.filter_checkpoint", "equinox.filter_vmap",
})


def _wraps_decorator(fn: Unit, qualname) -> bool:
    """``def deco(f): @functools.wraps(f) def wrapper(*a, **k): ...; return wrapper``:
    a decorator whose result reports ``f``'s signature (``__wrapped__``)."""
    node = fn.node
    if not isinstance(node, cst.FunctionDef) or not fn.params or not isinstance(node.body, cst.IndentedBlock):
        return False
    first = fn.params[0].name
    wrapped = set()
    for st in node.body.body:
        if isinstance(st, cst.FunctionDef):
            for d in st.decorators:
                dec = d.decorator
                if isinstance(dec, cst.Call) and qualname(dec.func) == "functools.wraps" and dec.args \
                        and isinstance(dec.args[0].value, cst.Name) and dec.args[0].value.value == first:
                    wrapped.add(st.name.value)
    last = node.body.body[-1] if node.body.body else None
    ret = last.body[-1] if isinstance(last, cst.SimpleStatementLine) and last.body else None
    return isinstance(ret, cst.Return) and isinstance(ret.value, cst.Name) and ret.value.value in wrapped


def _bound_def(index, site: TransformSite) -> Optional[Unit]:
    """The def or lambda that ``jax.jit(<fn_expr>, ...)`` wraps, from the index's
    bindings (no partials, no aliases; a name bound once to a lambda)."""
    e = site.fn_expr
    if isinstance(e, cst.Lambda):
        return index.unit_of.get(id(e))
    if not isinstance(e, cst.Name):
        return None
    found = site.scope.binding_for(e.value, site.seq)
    if found is None:
        return None
    holder, (_, value) = found
    if value is None:
        return holder.defs.get(e.value)
    if type(value) is cst.Lambda and len(holder.bindings.get(e.value, ())) == 1:
        # `f = lambda xi: ...; jax.jit(f, static_argnums=0)`: the lambda, as a def
        return index.unit_of.get(id(value))
    return None


class JitCalls:
    """The resolver: jit wraps of this file, decorated defs, and ``name = jax.jit(...)``."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self._sites: Optional[dict[int, TransformSite]] = None  # id(jit call) -> its site
        self._declared: dict[int, JitInfo] = {}  # id(decorator call or def) -> info
        self._decorated: dict[int, JitInfo] = {}  # id(decorated def unit) -> info
        self._wraps: dict[int, Optional[JitInfo]] = {}  # id(jax.jit(f, ...) call) -> info
        self._imports: dict[str, JitInfo] = {}  # imported jits, by local name
        # (id(unit), name) -> the wrap of `name = jax.jit(...)`, forgotten when the name is
        # rebound to anything else (JAX5xx); and the last single-target wrap, never
        # forgotten (JAX207/209 check the name's value instead).  Kept as the two rules had it.
        self._bound: dict[tuple[int, str], JitInfo] = {}
        self._exact_bound: dict[tuple[int, str], JitInfo] = {}

    # -- the file's jit sites ---------------------------------------------------------
    def _index_sites(self) -> dict[int, TransformSite]:
        if self._sites is None:
            self._sites = {}
            for site in self.ctx.index.sites:
                if apis.canonical(site.qualname) not in JIT_NAMES:
                    continue
                if site.target is None:
                    self._sites[id(site.call)] = site
                else:
                    self._decorator(site)
        return self._sites

    def _decorator(self, site: TransformSite) -> None:
        """``@jax.jit``, ``@jax.jit(...)``, ``@partial(jax.jit, ...)`` on a def."""
        unit = site.target
        decs = unit.node.decorators
        at = None
        for k, d in enumerate(decs):
            dec = d.decorator
            if site.call is not None:
                if dec is site.call:
                    at = k
                    break
            elif isinstance(dec, (cst.Name, cst.Attribute)):
                name = dotted_name(dec)
                q = self.ctx.imports.resolve_dotted(name) if name else None
                if q is not None and apis.canonical(q) in JIT_NAMES:
                    at = k
        # jit sees the def's own signature when it is the innermost decorator, or when
        # every decorator under it keeps the signature (`@jax.grad`, `@jax.checkpoint`,
        # a `functools.wraps` wrapper: `inspect.signature` follows `__wrapped__`, and
        # the call's arguments reach the def at the same positions)
        innermost = at is not None and all(self._keeps_signature(d.decorator) for d in decs[at + 1:])
        info = _declaration(site.call, unit, site, innermost, innermost and at == 0 and unit.cls is None)
        if info is None:
            return
        self._declared[id(site.call) if site.call is not None else id(unit.node)] = info
        self._decorated.setdefault(id(unit), info)

    def _keeps_signature(self, dec: cst.BaseExpression) -> bool:
        """A decorator whose result takes the decorated def's arguments at the same
        positions and names and reports its signature: a JAX transformation of
        ``SIGNATURE_KEEPING`` (bare, called with keywords, or through ``partial``), or a
        decorator def of this file that returns a ``functools.wraps(fn)`` wrapper."""
        ctx = self.ctx
        if isinstance(dec, cst.Call):
            q = ctx.qualname(dec.func)
            if q in apis.PARTIALS:
                pos = [a for a in dec.args if a.keyword is None]
                return bool(pos) and pos[0] is dec.args[0] and self._keeps_signature(pos[0].value)
            # `@jax.grad(argnums=1)`, `@jax.checkpoint(policy=...)`: the transformation's keywords
            return q is not None and apis.canonical(q) in SIGNATURE_KEEPING \
                and all(a.keyword is not None for a in dec.args)
        if not isinstance(dec, (cst.Name, cst.Attribute)):
            return False
        q = ctx.qualname(dec)
        if q is not None and apis.canonical(q) in SIGNATURE_KEEPING:
            return True
        if isinstance(dec, cst.Name):
            fn = ctx.index.module_unit.defs.get(dec.value)
            return fn is not None and _wraps_decorator(fn, ctx.qualname)
        return False

    # -- queries ---------------------------------------------------------------------
    def declaration(self, call: cst.CSTNode) -> Optional[JitInfo]:
        """The JitInfo of a jit call written here: ``jax.jit(f, ...)``, ``@partial(jax.jit,
        ...)``, ``@jax.jit(...)``."""
        self._index_sites()
        return self._declared.get(id(call)) or self.wrap(call)

    def wrap(self, call: cst.CSTNode) -> Optional[JitInfo]:
        """``jax.jit(f, static_argnums=...)`` -> its JitInfo (None if not a jit call)."""
        key = id(call)
        if key not in self._wraps:
            self._wraps[key] = self._wrap_info(call) if isinstance(call, cst.Call) else None
        return self._wraps[key]

    def _wrap_info(self, call: cst.Call) -> Optional[JitInfo]:
        ctx = self.ctx
        site = self._index_sites().get(id(call))
        if site is None and ctx.qualname(call.func) not in JIT_NAMES:
            return None
        unit: Optional[Unit] = None
        if site is not None:
            unit = _bound_def(ctx.index, site)
        checked = unit is not None and not (isinstance(unit.node, cst.FunctionDef) and unit.node.decorators)
        if unit is None:
            pos = positional_args(call)
            unit = self._value_unit(pos[0].value) if pos else None
        info = _declaration(call, unit, site, checked, checked and unit.cls is None)
        if info is not None and info.unit is None and any(k < 0 for k in (info.static_nums or []) + (info.donate_nums or [])):
            return None  # a negative index with no signature to count from
        return info

    def _value_unit(self, expr: cst.BaseExpression) -> Optional[Unit]:
        """The def or lambda an expression holds here (flow-sensitive), else the def of that name."""
        if not isinstance(expr, (cst.Name, cst.Lambda)):
            return None
        v = self.ctx.value(expr)
        if v.unit is not None or isinstance(expr, cst.Lambda):
            return v.unit
        return self.ctx.unit.lookup_def(expr.value)

    def note_assign(self, node: cst.Assign) -> None:
        """``name = jax.jit(...)``: remember the wrap; any other value forgets it."""
        info = self.wrap(node.value)
        for t in node.targets:
            if isinstance(t.target, cst.Name):
                key = (id(self.ctx.unit), t.target.value)
                if info is not None:
                    self._bound[key] = info
                    if len(node.targets) == 1 and info.checked:
                        self._exact_bound[key] = info
                else:
                    self._bound.pop(key, None)

    def exports(self) -> dict[str, JitInfo]:
        """The module-level names this file binds to jits (``@jax.jit def f``,
        ``f = jax.jit(g, ...)``): what other modules of the project import."""
        self._index_sites()
        module = self.ctx.index.module_unit
        out: dict[str, JitInfo] = {}
        for name, fn in module.defs.items():
            info = self._decorated.get(id(fn))
            if info is not None:
                out[name] = info
        for (uid, name), info in self._bound.items():
            if uid == id(module):
                out[name] = info
        for cls in self.ctx.index.classes:
            # a jitted method of a module-level class (`@partial(jit, static_argnums=(0, 3))
            # def model(self, ...)`): `Cls.model`, called on instances in other modules
            if cls.scope is not module or sum(c.name == cls.name for c in self.ctx.index.classes) != 1:
                continue
            for name, fn in cls.methods.items():
                info = self._decorated.get(id(fn))
                if info is not None and info.checked and bound_receiver(fn) == 1:
                    out[f"{cls.name}.{name}"] = info
        return out

    def _imported(self, func: cst.CSTNode) -> Optional[JitInfo]:
        """A jit of another module of the project, imported here by name
        (``update(...)``) or reached through an imported module (``ops.update(...)``)."""
        name = dotted_name(func)
        if name is None:
            return None
        decl = self.ctx.index.imported_jits.get(name)
        if decl is None or self.ctx.lookup(name.split(".", 1)[0]) is not None:
            return None  # the name (or the module's name) is rebound here
        info = self._imports.get(name)
        if info is None:
            info = self._imports[name] = jit_from_export(name, decl)
        return info

    def callee(self, call: cst.Call, exact: bool, static_only: bool = False) -> Optional[JitInfo]:
        """The jit a call invokes.  ``exact``: only calls whose arguments map onto the
        wrapped unit's own signature (JAX207/209); else any jit wrap (JAX5xx).
        ``static_only`` (with ``exact``): also a jit of a function whose signature is
        not known here (imported, a partial): ``unit`` None, and only what its
        literal ``static_argnums`` (call positions) and ``static_argnames`` (keywords)
        name is known static; nothing is known traced."""
        func = call.func
        if isinstance(func, cst.Call):
            info = self.wrap(func)
        elif isinstance(func, cst.Name):
            self._index_sites()
            info = self._exact_named(func) if exact else self._named(func)
            if info is None:
                info = self._imported(func)
            if info is None and exact and static_only:
                info = self._unsigned_named(func)
                if info is None:
                    return self._method(func, "__call__")  # an instance called
        elif isinstance(func, cst.Attribute):
            info = self._imported(func)
            if info is None and exact and static_only:
                return self._method(func.value, func.attr.value)
        else:
            return None
        if info is None:
            return None
        if exact and static_only and info.unit is None and info.site is not None:
            return info
        return info if (info.exact if exact else info.donate_literal) else None

    def _exact_named(self, func: cst.Name) -> Optional[JitInfo]:
        """The nearest enclosing scope's jit wrap or jitted def of that name, if the name
        still holds it here."""
        v = self.ctx.value(func)
        if v.kind != V.FUNCTION:
            return None
        u: Optional[Unit] = self.ctx.unit
        while u is not None:
            wrap = self._exact_bound.get((id(u), func.value))
            if wrap is not None:
                return wrap if v.transform is not None and v.unit is None else None
            fn = u.defs.get(func.value)
            info = self._decorated.get(id(fn)) if fn is not None else None
            if info is not None and info.checked:
                return info if v.unit is fn else None
            u = u.parent
        return None

    def _method(self, obj: cst.BaseExpression, method: str) -> Optional[JitInfo]:
        """``obj.method(...)`` (or ``obj(...)``, ``method`` ``__call__``) where ``obj``
        holds an instance of a class of this file (``c = C(...)``, bound once) and
        ``method`` is a jitted def of that class that takes the instance as ``self``:
        jit sees the instance as argument 0."""
        self._index_sites()
        cls = instance_class(self.ctx.index, self.ctx.unit, obj)
        if cls is None:
            return self._imported_method(obj, method)
        fn = cls.methods.get(method)
        info = self._decorated.get(id(fn)) if fn is not None else None
        if info is None or not info.checked or bound_receiver(fn) != 1:
            return None
        return replace(info, receiver=obj)

    def _imported_method(self, obj: cst.BaseExpression, method: str) -> Optional[JitInfo]:
        """``model.energy(x)`` where the scope binds ``model`` once to ``Cls(...)`` (or
        ``mod.Cls(...)``), ``Cls`` a class of another module of the project imported here,
        and ``energy`` a jitted def of that class taking the instance as ``self``
        (exported as ``Cls.energy``): jit sees the instance as argument 0."""
        if not isinstance(obj, cst.Name):
            return None
        made = bound_once(self.ctx.index, self.ctx.unit, obj)
        written = dotted_name(made.func) if isinstance(made, cst.Call) else None
        if written is None or self.ctx.lookup(written.split(".", 1)[0]) is not None:
            return None  # not a name imported here (or rebound here)
        name = f"{written}.{method}"
        decl = self.ctx.index.imported_jits.get(name)
        if decl is None or not decl.get("checked"):
            return None
        info = self._imports.get(name)
        if info is None:
            info = self._imports[name] = jit_from_export(name, decl)
        return replace(info, receiver=obj)

    def _unsigned_named(self, func: cst.Name) -> Optional[JitInfo]:
        """The nearest enclosing scope's ``name = jax.jit(fn, ...)`` of a function whose
        signature is unknown here, if the name still holds a jit wrap here."""
        v = self.ctx.value(func)
        if v.kind != V.FUNCTION or v.transform is None or v.unit is not None:
            return None
        u: Optional[Unit] = self.ctx.unit
        while u is not None:
            wrap = self._bound.get((id(u), func.value))
            if wrap is not None:
                return wrap if wrap.unit is None else None
            if func.value in u.assigned or u.param(func.value) is not None:
                return None
            u = u.parent
        return None

    def _named(self, func: cst.Name) -> Optional[JitInfo]:
        """A wrap bound to the name in this unit or the module, else the jitted def the
        name holds."""
        ctx = self.ctx
        unit, name = ctx.unit, func.value
        for u in (unit, ctx.index.module_unit):
            if (id(u), name) in self._bound:
                if u is not unit and name in unit.assigned and not unit.is_module:
                    return None
                return self._bound[(id(u), name)]
        fn = self._value_unit(func)
        if fn is None or not isinstance(fn.node, cst.FunctionDef):
            return None
        v = ctx.value(func)
        if v.unit is not fn and v.kind != V.FUNCTION and name in unit.assigned:
            return None
        return self._decorated.get(id(fn))
