"""How instances of a dataclass of this file hash (for static arguments of ``jit``).

``@dataclasses.dataclass`` with ``eq=True`` (the default) and neither ``frozen=True`` nor
``unsafe_hash=True`` sets ``__hash__`` to None: every instance is unhashable.  With
``frozen=True`` or ``unsafe_hash=True`` the hash is that of the tuple of its fields (those
not declared ``field(hash=False)`` / ``field(compare=False)``), so one unhashable field (a
JAX or NumPy array, a list) makes the instance unhashable.  ``@flax.struct.dataclass`` is
a frozen dataclass.  ``eq=False`` keeps ``object.__hash__`` (identity).  Checked with
CPython 3.11's ``dataclasses`` and JAX 0.10.2's ``jit`` (``ValueError: Non-hashable static
arguments are not supported``).
"""

from __future__ import annotations

from typing import Callable, NamedTuple, Optional

import libcst as cst

from jaxlint.model.kinds import dataclass_fields
from jaxlint.model.walk import keyword_arg, self_writes, walk_tree

_FROZEN_DECORATORS = frozenset({"flax.struct.dataclass"})

UNHASHABLE = "unhashable"  # __hash__ is None
BY_FIELDS = "by-fields"  # the hash of the fields' tuple


def dataclass_hashing(node: cst.ClassDef, qualname: Callable[[cst.CSTNode], Optional[str]]) -> Optional[tuple[str, list[str]]]:
    """(UNHASHABLE or BY_FIELDS, the fields that take part in the hash, in ``__init__``'s
    order) for a dataclass of this file; None when its instances hash by identity or the
    class is not one the model reads (bases, a ``__hash__`` of its own, keywords it cannot
    read)."""
    fields = dataclass_fields(node, qualname)
    if fields is None:
        return None
    for stmt in node.body.body:
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value in ("__hash__", "__eq__"):
            return None
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign) and any(
                    isinstance(t.target, cst.Name) and t.target.value == "__hash__" for t in small.targets
                ):
                    return None
    mode: Optional[str] = None
    for d in node.decorators:
        dec = d.decorator
        q = qualname(dec.func if isinstance(dec, cst.Call) else dec)
        if q in _FROZEN_DECORATORS:
            mode = BY_FIELDS
        elif q == "dataclasses.dataclass":
            flags = {}
            if isinstance(dec, cst.Call):
                for name in ("eq", "frozen", "unsafe_hash"):
                    kw = keyword_arg(dec, name)
                    if kw is None:
                        continue
                    if not isinstance(kw.value, cst.Name) or kw.value.value not in ("True", "False"):
                        return None  # a flag computed elsewhere
                    flags[name] = kw.value.value == "True"
            if not flags.get("eq", True) and not flags.get("unsafe_hash", False):
                return None  # identity hash
            mode = BY_FIELDS if flags.get("frozen") or flags.get("unsafe_hash") else UNHASHABLE
    if mode is None:
        return None
    return mode, [f for f in fields if _hashed(node, f, qualname)]


def _hashed(node: cst.ClassDef, name: str, qualname) -> bool:
    """The field is not declared ``field(hash=False)`` or ``field(compare=False)``."""
    for stmt in node.body.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if (
                isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name)
                and small.target.value == name and isinstance(small.value, cst.Call)
                and (qualname(small.value.func) or "").endswith("field")
            ):
                for kw in ("hash", "compare"):
                    a = keyword_arg(small.value, kw)
                    if a is not None and not (isinstance(a.value, cst.Name) and a.value.value == "True"):
                        return False
    return True


class Hashing(NamedTuple):
    """How instances of a class of this file hash, read from its definition."""

    mode: str  # UNHASHABLE or BY_FIELDS
    params: list[str]  # the constructor's parameters, in order (no `self`)
    hashed: dict[str, str]  # constructor parameter -> the field it lands in, for hashed fields
    kind: str  # "dataclass", "module" (an equinox Module), "linen" (a flax linen Module), "class" (its own `__hash__`)
    # hashed fields ``__init__`` always sets to an unhashable value of its own making
    # (``self.layers = [...]``, ``self.W = jax.random.normal(...)``): field -> what it is
    built: dict = {}


def class_hashing(node: cst.ClassDef, bases: list[str], qualname: Callable[[cst.CSTNode], Optional[str]]) -> Optional[Hashing]:
    """How a class of this file hashes, when the model can read it:

    * a dataclass (``dataclass_hashing``);
    * an ``equinox.Module`` subclass: a frozen dataclass, whose hash hashes its
      annotated fields (``eqx.field(static=True)`` ones too; not ``compare=False``);
      a ``__init__`` of its own maps its parameters to fields by ``self.f = p``;
    * a class whose ``__hash__`` is ``return hash((self.a, self.b))`` (or
      ``hash(self.a)``), with ``__init__`` setting ``self.a = a``.

    None otherwise (other bases, computed hashes, ``*args``)."""
    how = dataclass_hashing(node, qualname)
    if how is not None:
        if _method(node, "__post_init__") is not None:
            return None  # it may normalise a field (`self.sizes = tuple(self.sizes)`)
        order = dataclass_fields(node, qualname) or []
        return Hashing(how[0], order, {f: f for f in how[1]}, "dataclass")
    init = _method(node, "__init__")
    if bases == ["equinox.Module"] and len(node.bases) == 1 and not node.keywords:
        if _method(node, "__hash__") is not None or _method(node, "__eq__") is not None:
            return None
        fields = _annotated(node, qualname)
        hashed = [f for f in fields if _hashed(node, f, qualname)]
        if init is None:
            return Hashing(BY_FIELDS, fields, {f: f for f in hashed}, "module")
        return _through_init(init, hashed, "module", qualname)
    if bases == ["flax.linen.Module"] and len(node.bases) == 1 and not node.keywords and init is None:
        # a flax linen Module: a dataclass whose hash hashes its fields (``TypeError: Failed to
        # hash Flax Module`` for a dict field); its fields are the annotated class attributes
        if _method(node, "__hash__") is not None or _method(node, "__eq__") is not None:
            return None
        fields = _annotated(node, qualname)
        return Hashing(BY_FIELDS, fields, {f: f for f in fields if _hashed(node, f, qualname)}, "linen")
    h = _method(node, "__hash__")
    if h is None or node.bases or node.keywords or init is None:
        return None
    attrs = _hashed_attributes(h)
    if not attrs or _set_outside_init(node, attrs):
        return None
    return _through_init(init, attrs, "class", qualname)


def _set_outside_init(node: cst.ClassDef, attrs: list[str]) -> bool:
    """A method other than ``__init__`` assigns ``self.a`` for one of ``attrs``."""
    for stmt in node.body.body:
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value != "__init__":
            for n in walk_tree(stmt):
                targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else (
                    [n.target] if isinstance(n, (cst.AnnAssign, cst.AugAssign)) else [])
                for t in targets:
                    for m in (t, *walk_tree(t)):
                        if isinstance(m, cst.Attribute) and isinstance(m.value, cst.Name) \
                                and m.value.value == "self" and m.attr.value in attrs:
                            return True
    return False


def _method(node: cst.ClassDef, name: str) -> Optional[cst.FunctionDef]:
    for stmt in node.body.body:
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value == name:
            return stmt
    return None


def _annotated(node: cst.ClassDef, qualname) -> list[str]:
    out = []
    for stmt in node.body.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    ann = small.annotation.annotation
                    head = ann.value if isinstance(ann, cst.Subscript) else ann
                    if not (qualname(head) or "").endswith("ClassVar"):
                        out.append(small.target.value)
    return out


def _hashed_attributes(fn: cst.FunctionDef) -> list[str]:
    """``return hash((self.a, self.b))`` / ``return hash(self.a)``: ["a", "b"] (the
    attributes of ``self`` in the hashed value); [] for any other body."""
    body = fn.body.body
    if len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine) or len(body[0].body) != 1:
        return []
    ret = body[0].body[0]
    if not isinstance(ret, cst.Return) or not isinstance(ret.value, cst.Call):
        return []
    call = ret.value
    if not (isinstance(call.func, cst.Name) and call.func.value == "hash") or len(call.args) != 1 or call.args[0].star:
        return []
    arg = call.args[0].value
    items = [el.value for el in arg.elements if not isinstance(el, cst.StarredElement)] if isinstance(arg, cst.Tuple) else [arg]
    return [
        it.attr.value for it in items
        if isinstance(it, cst.Attribute) and isinstance(it.value, cst.Name) and it.value.value == "self"
    ]


def _through_init(init: cst.FunctionDef, fields: list[str], kind: str, qualname=None) -> Optional[Hashing]:
    """The constructor's parameters and the hashed fields its body sets from them
    (``self.f = p`` at the top level of ``__init__``, once), and those it sets, once, to an
    unhashable value it makes (``_built``)."""
    read = _init_params(init)
    if read is None:
        return None
    params, sets = read
    hashed = {p: f for f, p in sets.items() if f in fields}
    built = _built(init, fields, qualname) if qualname is not None else {}
    return Hashing(BY_FIELDS, params, hashed, kind, built) if hashed or built else None


# array makers: their result is a JAX or NumPy array (unhashable)
_ARRAY_MAKERS = frozenset({"array", "asarray", "zeros", "ones", "full", "empty", "arange", "linspace",
                           "eye", "identity", "stack", "concatenate", "zeros_like", "ones_like", "full_like"})


def _made_unhashable(value: cst.BaseExpression, qualname) -> Optional[str]:
    """What ``value`` is when it is always unhashable: a list/dict/set display or
    comprehension, ``list(...)``/``dict(...)``/``set(...)``, a JAX or NumPy array maker,
    a ``jax.random`` draw."""
    t = type(value)
    if t in (cst.List, cst.ListComp):
        return "a list"
    if t in (cst.Dict, cst.DictComp):
        return "a dict"
    if t in (cst.Set, cst.SetComp):
        return "a set"
    if t is not cst.Call:
        return None
    if type(value.func) is cst.Name and value.func.value in ("list", "dict", "set") and qualname(value.func) in (None, value.func.value):
        return f"a {value.func.value}"
    q = qualname(value.func) or ""
    head, _, last = q.rpartition(".")
    if head == "jax.random" or (head == "jax.numpy" and last in _ARRAY_MAKERS):
        return "a JAX array"
    if head == "numpy" and last in _ARRAY_MAKERS:
        return "a NumPy array"
    return None


def _built(init: cst.FunctionDef, fields: list[str], qualname) -> dict:
    """{field: what it is} for the hashed ``fields`` that ``__init__`` sets once, at the
    top level of its body, to an unhashable value of its own making."""
    seen = _init_write_counts(init)
    if seen is None:
        return {}
    out: dict = {}
    for stmt in init.body.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if not isinstance(small, (cst.Assign, cst.AnnAssign)) or small.value is None:
                continue
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
            for t in targets:
                if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self" \
                        and t.attr.value in fields and seen.get(t.attr.value) == 1:
                    what = _made_unhashable(small.value, qualname)
                    if what is not None:
                        out[t.attr.value] = what
    return out


def _init_params(init: cst.FunctionDef) -> Optional[tuple[list[str], dict[str, str]]]:
    """(``__init__``'s parameters after ``self``, {attribute: the parameter that
    ``self.attribute = parameter`` at the top level of its body sets it to, when no
    other statement of the body writes it}); None for ``*args``/``**kwargs``."""
    ps = init.params
    if isinstance(ps.star_arg, cst.Param) or ps.star_kwarg is not None:
        return None
    params = [p.name.value for p in (*ps.posonly_params, *ps.params)]
    if not params or params[0] != "self":
        return None
    params = params[1:] + [p.name.value for p in ps.kwonly_params]
    sets: dict[str, str] = {}
    for stmt in init.body.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if not isinstance(small, (cst.Assign, cst.AnnAssign)):
                continue
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
            for t in targets:
                if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self" \
                        and isinstance(small.value, cst.Name) and small.value.value in params:
                    sets[t.attr.value] = small.value.value
    seen = _init_write_counts(init)
    if seen is None:
        return None
    return params, {f: p for f, p in sets.items() if seen.get(f) == 1}


def _init_write_counts(init: cst.FunctionDef) -> Optional[dict[str, int]]:
    """{attribute: how many statements anywhere in ``init`` write ``self.attribute``}
    (``=``, annotated, ``+=``, ``del``, ``setattr(self, "a", v)``, inside an ``if`` or a
    loop too: ``if isinstance(s, list): self.s = tuple(s)`` normalises it); None for a
    ``setattr`` of ``self`` with a name it cannot read."""
    found = self_writes(init.body, deep=True, deletes=True, setattrs=True)
    if found is None:
        return None
    seen: dict[str, int] = {}
    for a in found:
        seen[a] = seen.get(a, 0) + 1
    return seen


def attribute_param(node: cst.ClassDef, qualname: Callable[[cst.CSTNode], Optional[str]], attr: str) -> Optional[tuple[list[str], str]]:
    """(the constructor's parameters, the one whose argument ``obj.attr`` holds) for an
    instance of a class of this file: a dataclass field (``@dataclass``, flax struct,
    chex), or an attribute ``__init__`` sets once from a parameter and no other method
    rebinds.  None otherwise (a property, a computed value, a base class)."""
    fields = dataclass_fields(node, qualname)
    if fields is not None:
        if attr not in fields or _method(node, "__init__") is not None or _method(node, "__post_init__") is not None:
            return None
        return fields, attr
    init = _method(node, "__init__")
    if init is None or node.bases or _set_outside_init(node, [attr]):
        return None
    read = _init_params(init)
    if read is None or attr not in read[1]:
        return None
    return read[0], read[1][attr]


def attribute_value(node: cst.ClassDef, attr: str) -> Optional[cst.BaseExpression]:
    """The expression ``__init__`` sets ``self.attr`` to, for a class of this file
    without bases whose ``__init__`` writes that attribute in one statement at the top
    level of its body and whose other methods never assign it (``self.cfg = {"hidden":
    4}``): what every instance holds there (a parameter, a display, a call...); None
    otherwise."""
    init = _method(node, "__init__")
    if init is None or node.bases or _set_outside_init(node, [attr]):
        return None
    seen = _init_write_counts(init)
    if seen is None or seen.get(attr) != 1:
        return None
    for stmt in init.body.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Assign) and len(small.targets) == 1:
                t = small.targets[0].target
            elif isinstance(small, cst.AnnAssign) and small.value is not None:
                t = small.target
            else:
                continue
            if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self" \
                    and t.attr.value == attr:
                return small.value
    return None
