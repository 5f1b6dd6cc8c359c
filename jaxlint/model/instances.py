"""Instances of the project's classes: which class a value is an instance of, so that
a method called on it (``Matern32(scale).matmul(x)``, ``d[mask]``,
``self.transform.check(modes)``) reaches that class's method, in this file or, as a
call fact, in the module that defines the class.

A class is named by a *ref* (``Value.instance``): the dotted name this file writes
(``Matern32``, ``models.Net``: a class of this file or a name imported from the
project; ``jaxlint/project/facts.py`` resolves it), or ``@module:qualname`` once it has
crossed modules (a constructor argument: ``ObjectiveFunction(Transform(modes))`` gives
``ObjectiveFunction.__init__``'s ``transform`` the kind ``obj:@desc.transform:Transform``).

An attribute of ``self`` holds an instance when the class assigns it once, in
``__init__`` (or flax's ``setup``), from a constructor call or from a parameter of
``__init__`` that every call of the class passes an instance of the same class
(``model/kinds.py``: call-site kinds, joined across modules).  Anything else is
unknown, and unknown reaches nothing.

A method of a parameter handed to a transformation (``jax.vmap(agent.update)``, or of an
element of a tuple parameter the function unpacks: ``agent1, agent2 = agents``) is
transformed in the class the callers pass an instance of (``obj:``, or ``objs:`` for a
tuple display of instances): the parameter wants the callers' instance kinds
(``wanted_instances``), and ``model/index.py`` records the site for that class's module
once the facts name it.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Optional

import libcst as cst

from jaxlint.model import kinds
from jaxlint.model import values as V
from jaxlint.model.scopes import scope_of
from jaxlint.model.units import ClassInfo, Unit
from jaxlint.model.walk import dotted_name, statement_nodes, walk_tree

# the kind name of an instance as a call-site fact: "obj:" + ref
OBJ = kinds.OBJ
_INIT_METHODS = ("__init__", "setup")


def local_class(interp: Any, name: str) -> Optional[ClassInfo]:
    """The module-level class of this file that ``name`` (not shadowed here) names."""
    if "." in name:
        return None
    found = [c for c in interp.index.classes if c.name == name]
    if len(found) != 1 or not any(s is found[0].node for s in interp.module.body):
        return None
    return found[0]


def constructed(interp: Any, written: Optional[str]) -> Optional[str]:
    """The ref of the instance a call of ``written`` (``Cls``, ``mod.Cls``) builds, when
    it names a class of this file or something imported from the project (a function
    imported from the project gives a ref too: what it resolves to decides, and a
    function's attributes resolve to nothing)."""
    if written is None:
        return None
    head = written.split(".", 1)[0]
    bound = interp.lookup(head)
    if local_class(interp, written) is not None:
        # the class statement binds its name to an unknown value; another binding hides it
        if (bound is None or bound == V.UNKNOWN_VALUE) and scope_of(interp.index, interp.unit, head) is interp.index.module_unit:
            return written
        return None
    if bound is not None:
        return None  # a local value
    if interp.settings.module is None or interp.builtin_name(cst.Name(head)) is not None:
        return None
    if interp.imports.project_import(head, interp.settings.project_packages):
        return written
    return None


# methods that change what reading or writing an attribute does
_ATTRIBUTE_HOOKS = ("__getattr__", "__getattribute__", "__setattr__", "__new__", "__set_name__")


def stored_parameters(interp: Any, cls: ClassInfo) -> Optional[dict]:
    """A plain class of this file whose own ``__init__`` stores parameters as they are,
    at the top of its body (``self.Q = Q``, ``self.S0, self.Q = S0, Q``): ``{"params":
    the positional parameters after self, "attrs": {attribute: parameter}}`` for the
    attributes nothing else in the file writes; None for a class with a hook on attribute
    access, a decorator, a metaclass or keywords, a JAX module base, or none stored.  A
    call in traced code gives the instance the tracers it passes there
    (model/evaluation.py); other modules get it as a ``stored`` fact."""
    memo = interp.scratch_memo
    key = ("stored", id(cls))
    if key in memo:
        return memo[key]
    memo[key] = None
    if cls.is_jax_module or cls.node.decorators or cls.node.keywords \
            or any(m in cls.methods for m in _ATTRIBUTE_HOOKS):
        return None
    init = cls.methods.get("__init__")
    if init is None or type(init.node) is not cst.FunctionDef or init.node.decorators \
            or not init.params or init.params[0].kind not in ("pos", "posonly"):
        return None
    me = init.params[0].name
    stored: dict[str, str] = {}
    for stmt in init.node.body.body:
        if type(stmt) is not cst.SimpleStatementLine:
            continue
        for small in stmt.body:
            if type(small) is not cst.Assign or len(small.targets) != 1:
                continue
            target, value = small.targets[0].target, small.value
            pairs = [(target, value)]
            if type(target) in (cst.Tuple, cst.List) and type(value) in (cst.Tuple, cst.List) \
                    and len(target.elements) == len(value.elements):
                pairs = [(t.value, v.value) for t, v in zip(target.elements, value.elements)]
            for t, v in pairs:
                if type(t) is cst.Attribute and type(t.value) is cst.Name and t.value.value == me \
                        and type(v) is cst.Name and init.param(v.value) is not None \
                        and v.value not in init.assigned:
                    stored[t.attr.value] = v.value
    attrs = {a: p for a, p in sorted(stored.items())
             if attribute_writes(interp, a) - _other_classes_self_writes(interp, cls, a) == 1}
    if not attrs:
        return None
    memo[key] = {"params": [p.name for p in init.params[1:] if p.kind in ("pos", "posonly")], "attrs": attrs}
    return memo[key]


def _other_classes_self_writes(interp: Any, cls: ClassInfo, attr: str) -> int:
    """How many of the file's writes of ``.attr`` are ``self.attr = ...`` in a method of
    another class of this file, neither ``cls`` nor one of its bases (``self.Q = Q`` of a
    sibling term class): they write instances of that class, never one ``cls(...)``
    builds."""
    memo = interp.scratch_memo
    key = ("self-writes-by-class",)
    table = memo.get(key)
    if table is None:
        table = memo[key] = {}
        for c in interp.index.classes:
            counts: dict[str, int] = {}
            for m in c.methods.values():
                if type(m.node) is not cst.FunctionDef or not m.params:
                    continue
                me = m.params[0].name
                for n in walk_tree(m.node.body):
                    t = type(n)
                    if t is cst.Assign:
                        targets = [tg.target for tg in n.targets]
                    elif t in (cst.AugAssign, cst.AnnAssign):
                        targets = [n.target]
                    else:
                        continue
                    for tg in targets:
                        els = [e.value for e in tg.elements] if type(tg) in (cst.Tuple, cst.List) else [tg]
                        for e in els:
                            if type(e) is cst.Attribute and type(e.value) is cst.Name and e.value.value == me:
                                counts[e.attr.value] = counts.get(e.attr.value, 0) + 1
            table[id(c)] = counts
    bases: set[int] = set()
    todo = [cls]
    while todo:
        c = todo.pop()
        if id(c) not in bases:
            bases.add(id(c))
            todo.extend(c.parents)
    return sum(table.get(id(c), {}).get(attr, 0) for c in interp.index.classes if id(c) not in bases)


def attribute_writes(interp: Any, attr: str) -> int:
    """How many assignments to ``<anything>.attr`` the file's text holds, as a target
    of an unpacking too (``self.S0, self.Q = S0, Q``); memoized."""
    memo = interp.scratch_memo
    key = ("attr-writes-any", attr)
    n = memo.get(key)
    if n is None:
        n = memo[key] = len(re.findall(
            rf"\.{re.escape(attr)}\s*(?:,[^=\n]*)?(?:[-+*/@%&|^]|//|\*\*|>>|<<)?=(?!=)", interp.text))
    return n


def of_class(interp: Any, ref: str) -> Optional[ClassInfo]:
    """The class of this file a ref names, if it is one."""
    if ref.startswith("@"):
        module, _, qualname = ref[1:].partition(":")
        return local_class(interp, qualname) if module == interp.settings.module else None
    return local_class(interp, ref)


def attribute(interp: Any, cls: ClassInfo, attr: str) -> Optional[str]:
    """The ref of the instance ``self.attr`` holds in the methods of ``cls``: the class
    assigns it once, in ``__init__``/``setup``, a constructor call or a parameter of
    ``__init__`` that every call of the class gives an instance of one class."""
    memo = interp.instance_attrs.get(id(cls))
    if memo is None:
        memo = interp.instance_attrs[id(cls)] = _attributes(interp, cls)
    return memo.get(attr)


def _attributes(interp: Any, cls: ClassInfo) -> dict[str, str]:
    assigned: dict[str, list] = {}
    for name, m in cls.methods.items():
        if not isinstance(m.node, cst.FunctionDef):
            continue
        for n in statement_nodes(m.node.body):
            if type(n) is cst.Assign:
                for t in n.targets:
                    _note(assigned, t.target, n.value, m)
            elif type(n) in (cst.AnnAssign, cst.AugAssign):
                _note(assigned, n.target, getattr(n, "value", None), m)
    out: dict[str, str] = {}
    for attr, writes in assigned.items():
        if len(writes) != 1:
            continue
        value, method = writes[0]
        if method.name not in _INIT_METHODS or value is None:
            continue
        ref = None
        if type(value) is cst.Call:
            ref = _constructed_in(interp, method, dotted_name(value.func))
        elif type(value) is cst.Name:
            p = method.param(value.value)
            if p is not None and value.value not in method.assigned and method.name == "__init__":
                k = method.arg_kinds.get(p.name)
                if k is not None and k.startswith(OBJ) and ctor_callers_known(interp, cls, method):
                    ref = k[len(OBJ):]
        if ref is not None:
            out[attr] = ref
    return out


def _note(assigned: dict, target: cst.CSTNode, value, method: Unit) -> None:
    if type(target) in (cst.Tuple, cst.List):
        for el in target.elements:  # type: ignore[attr-defined]
            _note(assigned, el.value, None, method)
        return
    if type(target) is cst.Attribute and type(target.value) is cst.Name and target.value.value == "self":
        assigned.setdefault(target.attr.value, []).append((value, method))


def _constructed_in(interp: Any, method: Unit, written: Optional[str]) -> Optional[str]:
    """``constructed`` for a call written in ``method`` (not the unit being walked)."""
    if written is None:
        return None
    head = written.split(".", 1)[0]
    if method.param(head) is not None or head in method.assigned:
        return None
    if local_class(interp, written) is not None:
        return written
    if interp.settings.module is not None and interp.imports.project_import(head, interp.settings.project_packages):
        return written
    return None


def ctor_callers_known(interp: Any, cls: ClassInfo, init: Unit) -> bool:
    """Are the calls that gave ``__init__`` its parameter kinds all the uses of the
    class?  No importing module uses it other than by calling it, and this file
    writes its name only in the ``class`` statement and the calls seen (a subclass,
    ``isinstance``, a class passed as a value: unknown)."""
    if init.escapes:
        return False
    return kinds.uses_of(interp.text, cls.name)[0] == 1 + init.local_calls


def wanted_instances(interp: Any) -> dict[str, list[str]]:
    """``Cls.__init__`` -> its parameters stored as ``self.attr`` (once) where a method
    of ``Cls`` calls a method of ``self.attr``: only these receive the instance kinds
    of other modules' calls (``project/facts.py``), so that a module whose classes are
    merely handed objects is not linted again for them."""
    out: dict[str, list[str]] = {}
    for cls in interp.index.classes:
        attrs = interp.index.attr_receivers.get(cls.name)
        init = cls.methods.get("__init__")
        if not attrs or init is None or not isinstance(init.node, cst.FunctionDef) \
                or local_class(interp, cls.name) is None:
            continue
        params = set()
        for stmt in init.node.body.body:
            if type(stmt) is not cst.SimpleStatementLine:
                continue
            for small in stmt.body:
                if type(small) is cst.Assign and len(small.targets) == 1:
                    t = small.targets[0].target
                    if (type(t) is cst.Attribute and type(t.value) is cst.Name and t.value.value == "self"
                            and t.attr.value in attrs and type(small.value) is cst.Name
                            and init.param(small.value.value) is not None):
                        params.add(small.value.value)
        if params:
            out[f"{cls.name}.__init__"] = sorted(params)
    for name, unit in interp.index.module_unit.defs.items():
        # `def integrate(module, p): module.get_params(p)`: the class its callers pass an
        # instance of has the method that runs (model/walker.py)
        receivers = interp.index.param_receivers.get(id(unit))
        if receivers and unit.cls is None and isinstance(unit.node, cst.FunctionDef):
            out[name] = sorted(set(out.get(name, ())) | receivers)
    for (qualname, param), _ in interp.index.param_methods.items():
        # `jax.vmap(agent.update)` with `agent` a parameter: the class its callers pass
        # an instance of names the method transformed (model/index.py, apply_facts)
        out.setdefault(qualname, [])
        if param not in out[qualname]:
            out[qualname] = sorted([*out[qualname], param])
    return out


def classmethod_class(unit: Unit, func: cst.BaseExpression) -> Optional[ClassInfo]:
    """The class whose classmethod ``unit`` is, when ``func`` is its ``cls`` parameter
    (``return cls(lo, hi)``: a constructor of that class)."""
    if type(func) is not cst.Name or unit.cls is None or not isinstance(unit.node, cst.FunctionDef):
        return None
    params = unit.positional()
    if not params or params[0].name != func.value or func.value in unit.assigned:
        return None
    if not any(dotted_name(d.decorator) == "classmethod" for d in unit.node.decorators):
        return None
    return unit.cls


# the methods a generated ``__init__`` runs after storing the fields: a dataclass's
# ``__post_init__``, an equinox Module's ``__check_init__`` (each class's of the MRO)
FIELD_CHECKS = ("__post_init__", "__check_init__")


_LIBRARY_BASES = ("equinox.", "flax.", "chex.", "typing.", "abc.", "object", "builtins.")


def _written_bases(cls: ClassInfo, classes: list) -> Optional[list[ClassInfo]]:
    """The classes of this file ``cls`` derives from, in order; None when a base is
    neither one of them nor a library class (a class of another module of the project
    may add fields of its own)."""
    out: list[ClassInfo] = []
    resolved = list(cls.bases)
    for a in cls.node.bases:
        if a.keyword is not None:
            continue  # `metaclass=...`
        d = dotted_name(a.value)
        found = [c for c in classes if c.name == d and c is not cls] if d is not None and "." not in d else []
        if len(found) == 1:
            out.append(found[0])
            continue
        last = (d or "").rsplit(".", 1)[-1]
        if not last or not any(b.rsplit(".", 1)[-1] == last and b.startswith(_LIBRARY_BASES) for b in resolved):
            return None
    return out


def class_member(cls: ClassInfo, name: str, classes: list, depth: int = 0) -> Optional[Unit]:
    """``cls``'s method ``name``, its own or one a base class of this file defines."""
    m = cls.methods.get(name)
    if m is not None or depth > 8:
        return m
    for base in _written_bases(cls, classes) or ():
        m = class_member(base, name, classes, depth + 1)
        if m is not None:
            return m
    return None


def constructor_of(classes: list, name: str) -> Optional[Unit]:
    """The ``__init__`` (its own or a base's of this file) that calling the class
    ``name`` of this file runs, when one class has that name and it is not a
    flax/equinox/haiku module (their generated constructors store fields)."""
    found = [c for c in classes if c.name == name]
    if len(found) != 1 or found[0].is_jax_module:
        return None
    init = class_member(found[0], "__init__", classes)
    return init if init is not None and isinstance(init.node, cst.FunctionDef) else None


def init_fields(cls: ClassInfo, classes: list = (), depth: int = 0) -> Optional[list[tuple[str, bool]]]:
    """The fields a generated ``__init__`` (a dataclass, an equinox Module, a flax
    struct) takes, in order, each with whether it has a default: the annotated names
    of the class body (``ClassVar`` and ``field(init=False)`` left out), after those of
    its base classes of this file.  None when the order is unknown (a base class of
    another module of the project)."""
    out: list[tuple[str, bool]] = []
    bases = _written_bases(cls, list(classes))
    if bases is None or depth > 8:
        return None
    for base in reversed(bases):
        inherited = init_fields(base, classes, depth + 1)
        if inherited is None:
            return None
        for name, has_default in inherited:
            if all(name != n for n, _ in out):
                out.append((name, has_default))
    for name, has_default in _own_fields(cls):
        at = [i for i, (n, _) in enumerate(out) if n == name]
        if at:
            out[at[0]] = (name, has_default)  # a field redefined keeps its place
        else:
            out.append((name, has_default))
    return out


def _own_fields(cls: ClassInfo) -> list[tuple[str, bool]]:
    """The fields ``cls``'s own body declares, in order, each with whether it has a default."""
    out: list[tuple[str, bool]] = []
    for stmt in cls.node.body.body:
        if type(stmt) is not cst.SimpleStatementLine:
            continue
        for small in stmt.body:
            if type(small) is not cst.AnnAssign or type(small.target) is not cst.Name:
                continue
            ann = dotted_name(small.annotation.annotation) or ""
            if ann.rsplit(".", 1)[-1] == "ClassVar" or (
                    type(small.annotation.annotation) is cst.Subscript
                    and (dotted_name(small.annotation.annotation.value) or "").rsplit(".", 1)[-1] == "ClassVar"):
                continue
            value = small.value
            if type(value) is cst.Call and (dotted_name(value.func) or "").rsplit(".", 1)[-1] == "field":
                if any(a.keyword is not None and a.keyword.value == "init" and type(a.value) is cst.Name
                       and a.value.value == "False" for a in value.args):
                    continue
                has_default = any(a.keyword is not None and a.keyword.value in ("default", "default_factory")
                                  for a in value.args)
            else:
                has_default = value is not None
            out.append((small.target.value, has_default))
    return out


def traced_fields(cls: ClassInfo, n_pos: int, traced_pos: Iterable[int], keywords: Iterable[str],
                  traced_kw: Iterable[str], star_traced: bool, classes: list = ()) -> set[str]:
    """The fields of ``cls`` a call of its generated ``__init__`` gives tracers: the
    positional arguments by field order, keywords by name, and a traced ``*args`` /
    ``**kwargs`` every field without a default that no other argument fills (where the
    order of the fields is unknown: the keywords only)."""
    fields = init_fields(cls, classes)
    if fields is None:
        return {k for k in traced_kw if any(k == n for n, _ in _own_fields(cls))}
    names = [n for n, _ in fields]
    out = {names[i] for i in traced_pos if i < len(names)}
    out |= {k for k in traced_kw if k in names}
    if star_traced:
        given = set(names[:n_pos]) | set(keywords)
        out |= {n for n, has_default in fields if not has_default and n not in given}
    return out

def class_level_method(classes: list, func: cst.Attribute) -> Optional[Unit]:
    """``Cls.make(x)``: a classmethod or staticmethod of a class of this file (its own
    or a base's), called on the class."""
    if type(func.value) is not cst.Name:
        return None
    found = [c for c in classes if c.name == func.value.value]
    if len(found) != 1:
        return None
    m = class_member(found[0], func.attr.value, classes)
    if m is None or not isinstance(m.node, cst.FunctionDef) or not any(
            dotted_name(d.decorator) in ("classmethod", "staticmethod") for d in m.node.decorators):
        return None
    return m


# `.name =`, `.name +=`... anywhere in a file's text (not `==`): the attributes it may assign
_ATTR_ASSIGNED = re.compile(r"\.([A-Za-z_]\w*)\s*(?:\*\*|//|>>|<<|[-+*/@%&|^])?=(?!=)")


def assigned_attributes(text: str) -> frozenset[str]:
    """Every attribute name the file's text may assign (``obj.step = ...``, ``+=``),
    read from the text in one pass, an over-approximation: for ``bound_methods``."""
    return frozenset(_ATTR_ASSIGNED.findall(text))


def bound_methods(cls: ClassInfo, qualname, assigned_anywhere: frozenset = frozenset(),
                  setattrs: bool = True) -> list[str]:
    """The methods an attribute access on an instance of ``cls`` binds anew each time
    (``obj.step``: a new bound-method object at every access, equal but not identical):
    the defs of the class body that take the instance first, undecorated or decorated
    with a jit (``@partial(jax.jit, static_argnames=("self",))``: the jitted function
    binds like a function), less any name the class also assigns on an instance
    (``self.step = ...`` shadows the method), and less any name the file's text assigns
    as an attribute anywhere (``assigned_anywhere``, ``assigned_attributes``); the class
    body is walked for ``setattr(self, ...)`` only where the text has ``setattr``
    (``setattrs``).
    Sorted; exported to the modules that import the class (``methods``) so that
    ``jax.lax.scan(obj.step, ...)`` there is known to get a fresh callable."""
    from jaxlint.model.walk import self_writes

    assigned: set[str] = set(assigned_anywhere)
    for stmt in cls.node.body.body if setattrs else ():
        if isinstance(stmt, cst.FunctionDef):
            found = self_writes(stmt.body, deep=True, deletes=True, setattrs=True)
            if found is None:
                return []  # `setattr(self, name, ...)` with a computed name: anything
            assigned.update(found)
    out = []
    for name, unit in cls.methods.items():
        node = unit.node
        if isinstance(node, cst.FunctionDef) and all(_jit_decorator(d.decorator, qualname) for d in node.decorators) \
                and unit.positional() and name not in assigned and not name.startswith("__"):
            out.append(name)
    return sorted(out)


def _jit_decorator(dec: cst.BaseExpression, qualname) -> bool:
    """``@jax.jit``, ``@partial(jax.jit, ...)``, ``@jax.jit(...)``-style decorators of
    the caching jits (model/apis.py ``CACHING_JITS``)."""
    from jaxlint.model.apis import CACHING_JITS

    if isinstance(dec, cst.Call):
        if qualname(dec.func) == "functools.partial":
            return bool(dec.args) and dec.args[0].keyword is None and qualname(dec.args[0].value) in CACHING_JITS
        return qualname(dec.func) in CACHING_JITS
    return qualname(dec) in CACHING_JITS
