"""Pytree classes: which attributes of a registered class are data leaves (tracers
under a trace) and which are static (aux data: Python values under a trace).

A class's *record* is read from its definition in one file (``class_record``):

    {"reg": how it is registered, or None,
     "bases": [each base as written: "Base", "base.Base", "equinox.Module"...],
     "fields": {name: DATA | STATIC | CONST | UNSURE},
     "ann": {field: its annotation's class, as written ("Option", "jax.Array")}}

``reg`` is "dataclass" (``jax.tree_util.register_dataclass``, ``flax.struct``,
chex, jax_dataclasses), "eqx" (an ``equinox.Module``: under ``eqx.filter_jit`` its
non-array fields are static, so only array fields count as leaves), "namedtuple"
(every field a leaf), "flatten" (``register_pytree_node(_class)``/``..._with_keys``:
what the flatten function returns first is data, second the aux data), "static"
(``register_static``: the whole object is aux data) or "opaque" (registered in a
way this reading cannot follow: nothing is known of its fields).

``resolve`` merges a record with its bases' (through any number of modules: the
caller says how a base resolves) into a *flat* record: {"reg", "fields", "ann"}
with ``ann`` holding the flat records of fields whose class is known too (a few
levels deep).  ``attribute`` says what ``obj.attr`` is when ``obj`` is an instance.
Unknown stays unknown: a class with no record, a field the reading did not find, a
base that does not resolve to a registration give None.
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jaxlint.model import apis
from jaxlint.model.walk import dotted_name, keyword_arg, literal_strs, positional_args, string_value

class PyClass:
    """A flat record, compared by identity (kept on abstract values)."""

    __slots__ = ("flat",)

    def __init__(self, flat: dict) -> None:
        self.flat = flat

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"PyClass({self.flat.get('reg')}, {sorted(self.flat.get('fields', {}))})"


DATA = "d"  # a pytree leaf: a tracer under a trace
STATIC = "s"  # aux data: the Python value under a trace
CONST = "c"  # a class attribute (ClassVar, class-level assignment): a Python value
UNSURE = "?"

DECORATOR_REGS = {
    "jax.tree_util.register_dataclass": "dataclass",
    "jax.tree_util.register_static": "static",
    "flax.struct.dataclass": "dataclass",
    "chex.dataclass": "dataclass",
    "chex.mappable_dataclass": "dataclass",
    "jax_dataclasses.pytree_dataclass": "dataclass",
    "jax.tree_util.register_pytree_node_class": "flatten",
    "jax.tree_util.register_pytree_with_keys_class": "flatten",
}
CALL_REGS = {
    "jax.tree_util.register_dataclass": "dataclass",
    "jax.tree_util.register_static": "static",
    "jax.tree_util.register_pytree_node": "flatten",
    "jax.tree_util.register_pytree_with_keys": "flatten",
}
BASE_REGS = {
    "flax.struct.PyTreeNode": "dataclass",
    "equinox.Module": "eqx",
    "typing.NamedTuple": "namedtuple",
}
# classes of libraries, by qualified name: their flat records
LIBRARY_CLASSES: dict[str, dict] = {
    "flax.training.train_state.TrainState": {
        "reg": "dataclass",
        "fields": {"step": DATA, "apply_fn": STATIC, "params": DATA, "tx": STATIC, "opt_state": DATA},
        "ann": {},
    },
}
# attributes of an array, read on a traced value of unknown class: array API
ARRAY_ATTRS = frozenset({"T", "mT", "real", "imag", "flat"})
_STATIC_WRAPPERS = frozenset({"jax_dataclasses.Static", "jax_dataclasses._dataclasses.Static"})
_CLASSVAR = frozenset({"typing.ClassVar", "ClassVar"})
_INITVAR = frozenset({"dataclasses.InitVar", "InitVar"})
_OPTIONAL = frozenset({"typing.Optional", "Optional", "typing.Union", "Union"})
_DEPTH = 3

QualFn = Callable[[cst.CSTNode], Optional[str]]


def _as_written(expr: cst.CSTNode) -> Optional[str]:
    if isinstance(expr, (cst.Name, cst.Attribute)):
        return dotted_name(expr)
    if isinstance(expr, cst.SimpleString):
        s = string_value(expr)
        return s if s and s.replace(".", "").replace("_", "").isalnum() else None
    return None


def annotation_node(ann: cst.CSTNode, qualname: QualFn) -> Optional[cst.CSTNode]:
    """The class an annotation names (``Optional[X]``, ``X | None`` -> ``X``;
    ``Float[Array, "n"]`` -> ``Float``); None for anything else."""
    if isinstance(ann, cst.Subscript):
        head = qualname(ann.value) or _as_written(ann.value)
        if head in _OPTIONAL:
            args = [e.slice.value for e in ann.slice if isinstance(e.slice, cst.Index)]
            named = [a for a in args if not (isinstance(a, cst.Name) and a.value == "None")]
            return annotation_node(named[0], qualname) if len(named) == 1 else None
        return ann.value
    if isinstance(ann, cst.BinaryOperation) and isinstance(ann.operator, cst.BitOr):
        sides = [s for s in (ann.left, ann.right) if not (isinstance(s, cst.Name) and s.value == "None")]
        return annotation_node(sides[0], qualname) if len(sides) == 1 else None
    return ann if isinstance(ann, (cst.Name, cst.Attribute, cst.SimpleString)) else None


def ref(node: Optional[cst.CSTNode], qualname: QualFn) -> Optional[str]:
    """A class named in a file, as a record keeps it: the qualified name of a
    library type this module knows (``jax.Array``, ``int``, ``equinox.Module``),
    else the name as written (``Option``, ``base.Sys``), resolved by the reader."""
    if node is None:
        return None
    q = qualname(node) if isinstance(node, (cst.Name, cst.Attribute)) else None
    if q is not None and (q in apis.ARRAY_ANNOTATIONS or q in apis.STATIC_ANNOTATIONS
                          or q in BASE_REGS or q in LIBRARY_CLASSES):
        return q
    return _as_written(node)


def _truthy(expr: cst.CSTNode) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "True"


def _falsy(expr: cst.CSTNode) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "False"


def _static_metadata(expr: cst.CSTNode, values: Callable[[str], Optional[cst.CSTNode]], depth: int = 0) -> bool:
    """``{"static": True}``, ``dict(static=True)``, or a name bound to one."""
    if isinstance(expr, cst.Dict):
        return any(
            isinstance(el, cst.DictElement) and string_value(el.key) == "static" and _truthy(el.value)
            for el in expr.elements
        )
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "dict":
        kw = keyword_arg(expr, "static")
        return kw is not None and _truthy(kw.value)
    if isinstance(expr, cst.Name) and depth < 3:
        bound = values(expr.value)
        return bound is not None and _static_metadata(bound, values, depth + 1)
    return False


def declares_static(call: cst.Call, values: Callable[[str], Optional[cst.CSTNode]] = lambda _: None) -> bool:
    """Whether a field specifier call makes its field static: ``struct.field(
    pytree_node=False)``, ``eqx.field(static=True)``, ``eqx.static_field()``,
    ``dataclasses.field(metadata=...)`` with ``static: True`` in any spelling."""
    name = dotted_name(call.func) or ""
    if name.rsplit(".", 1)[-1] == "static_field":
        return True
    for a in call.args:
        if a.keyword is None:
            continue
        k, v = a.keyword.value, a.value
        if k == "pytree_node" and _falsy(v):
            return True
        if k == "static" and _truthy(v):
            return True
        if k == "metadata" and _static_metadata(v, values):
            return True
    return False


def class_record(
    node: cst.ClassDef,
    qualname: QualFn,
    values: Callable[[str], Optional[cst.CSTNode]],
    reg_calls: list[tuple[str, cst.Call]],
    functions: Callable[[str], Optional[cst.CSTNode]],
) -> Optional[dict]:
    """The record of one class (see the module docstring); None for a class with
    neither a registration, a base, nor annotated fields.  ``qualname``: an
    expression's qualified name; ``values``: the module-level value a name is
    bound to; ``reg_calls``: the module's registration calls naming this class
    (qualified name of the function, the call); ``functions``: the module-level
    def (or lambda) a name is bound to."""
    reg: Optional[str] = None
    meta: Optional[list[str]] = None
    data: Optional[list[str]] = None
    flatten: Optional[dict[str, str]] = None
    for dec in node.decorators:
        d = dec.decorator
        call = d if isinstance(d, cst.Call) else None
        q = qualname(call.func if call is not None else d)
        r = DECORATOR_REGS.get(q or "")
        if r is None:
            continue
        reg = r
        if call is not None and r == "dataclass":
            m, dd = keyword_arg(call, "meta_fields"), keyword_arg(call, "data_fields")
            meta = literal_strs(m.value) if m is not None else meta
            data = literal_strs(dd.value) if dd is not None else data
        if r == "flatten":
            method = _method(node, "tree_flatten")
            flatten = _flatten_fields(method, True) if method is not None else None
            if flatten is None:
                reg = "opaque"
    for q, call in reg_calls:
        r = CALL_REGS[q]
        reg = r
        if r == "dataclass":
            m, dd = keyword_arg(call, "meta_fields"), keyword_arg(call, "data_fields")
            meta = literal_strs(m.value) if m is not None else meta
            data = literal_strs(dd.value) if dd is not None else data
        elif r == "flatten":
            pos = positional_args(call)
            fn_expr = pos[1].value if len(pos) > 1 else None
            if q.endswith("with_keys"):
                kw = keyword_arg(call, "flatten_func")
                if kw is not None:
                    fn_expr = kw.value
            fn = fn_expr if isinstance(fn_expr, cst.Lambda) else (
                functions(fn_expr.value) if isinstance(fn_expr, cst.Name) else None)
            flatten = _flatten_fields(fn, False) if fn is not None else None
            if flatten is None:
                reg = "opaque"
    bases = []
    for b in node.bases:
        if b.keyword is not None:
            continue
        w = ref(b.value, qualname)
        if w in BASE_REGS and reg is None:
            reg = BASE_REGS[w]
        if w is not None:
            bases.append(w)
    fields: dict[str, str] = {}
    anns: dict[str, str] = {}
    for stmt in node.body.body if isinstance(node.body, cst.IndentedBlock) else ():
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                name = small.target.value
                ann = small.annotation.annotation
                head = qualname(ann.value if isinstance(ann, cst.Subscript) else ann) or _as_written(
                    ann.value if isinstance(ann, cst.Subscript) else ann)
                if head in _CLASSVAR:
                    fields[name] = CONST
                    continue
                if head in _INITVAR:
                    continue
                v = small.value
                static = head in _STATIC_WRAPPERS or (isinstance(v, cst.Call) and declares_static(v, values))
                fields[name] = STATIC if static else DATA
                a = ref(annotation_node(ann, qualname), qualname) if head not in _STATIC_WRAPPERS else None
                if a is not None:
                    anns[name] = a
            elif isinstance(small, cst.Assign):
                for t in small.targets:
                    if isinstance(t.target, cst.Name):
                        fields.setdefault(t.target.value, CONST)
    for stmt in node.body.body if isinstance(node.body, cst.IndentedBlock) else ():
        if isinstance(stmt, cst.FunctionDef):
            fields.pop(stmt.name.value, None)  # a method or property, not a field
    if meta is not None or data is not None:
        for f in meta or ():
            fields[f] = STATIC
        for f in data or ():
            fields[f] = DATA
    if flatten is not None:
        fields = {k: (v if v == CONST else UNSURE) for k, v in fields.items()}
        fields.update(flatten)
    if reg is None and not bases and not fields:
        return None
    return {"reg": reg, "bases": bases, "fields": fields, "ann": anns}


def _method(node: cst.ClassDef, name: str) -> Optional[cst.FunctionDef]:
    for stmt in node.body.body if isinstance(node.body, cst.IndentedBlock) else ():
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value == name:
            return stmt
    return None


def _flatten_fields(fn: cst.CSTNode, method: bool) -> Optional[dict[str, str]]:
    """The fields a flatten function sends to the leaves (DATA) and to the aux
    data (STATIC): the attributes of its argument in the first and second items
    of what it returns.  None when no return reads as such a pair."""
    if isinstance(fn, cst.Lambda):
        params, returns, body = fn.params, [fn.body], []
    elif isinstance(fn, cst.FunctionDef):
        params, body = fn.params, fn.body.body
        returns = []
        _returns(fn.body, returns)
    else:
        return None
    first = [*params.posonly_params, *params.params]
    if not first:
        return None
    obj = first[0].name.value
    local: dict[str, cst.CSTNode] = {}
    for stmt in body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign) and len(small.targets) == 1:
                    t = small.targets[0].target
                    if isinstance(t, cst.Name):
                        local[t.value] = small.value
                    elif isinstance(t, cst.Tuple) and isinstance(small.value, cst.Tuple) and \
                            len(t.elements) == len(small.value.elements):
                        for te, ve in zip(t.elements, small.value.elements):
                            if isinstance(te.value, cst.Name):
                                local[te.value.value] = ve.value
    out: dict[str, str] = {}
    readable = False
    for r in returns:
        if not (isinstance(r, (cst.Tuple, cst.List)) and len(r.elements) == 2):
            continue
        children, aux = r.elements[0].value, r.elements[1].value
        got_children = _attrs_of(children, obj, local, DATA, out)
        got_aux = _attrs_of(aux, obj, local, STATIC, out)
        readable = readable or got_children or got_aux
    return out if readable else None


def _returns(node: cst.CSTNode, out: list) -> None:
    for child in node.children:
        if isinstance(child, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            continue
        if isinstance(child, cst.Return):
            if child.value is not None:
                out.append(child.value)
            continue
        _returns(child, out)


def _attrs_of(expr: cst.CSTNode, obj: str, local: dict, state: str, out: dict, depth: int = 0) -> bool:
    """Mark ``obj.attr`` read in ``expr`` (through the function's local names) as
    ``state``; True when some were found."""
    found = False
    stack = [expr]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name) and n.value.value == obj:
            a = n.attr.value
            if out.get(a) != DATA:  # a field in both: the leaves decide
                out[a] = state
            found = True
            continue
        if isinstance(n, cst.Name) and n.value in local and depth < 3:
            found = _attrs_of(local[n.value], obj, local, state, out, depth + 1) or found
            continue
        stack.extend(n.children)
    return found


def resolve(record: dict, base_of: Callable[[str], Optional[dict]], depth: int = 0) -> dict:
    """The flat record of a class: its own fields over its bases' (``base_of``:
    a base as written -> its flat record, or None), the registration its own or
    the nearest base's, and the flat records of its fields' classes
    (``base_of`` resolves an annotation the same way)."""
    reg = record.get("reg")
    fields: dict[str, str] = {}
    anns: dict = {}
    for b in record.get("bases", ()):
        flat = LIBRARY_CLASSES.get(b) or (base_of(b) if depth < 8 else None)
        if flat is None:
            if b in BASE_REGS:
                reg = reg or BASE_REGS[b]
            continue
        reg = reg or flat.get("reg")
        for k, v in flat.get("fields", {}).items():
            fields.setdefault(k, v)
        for k, v in flat.get("ann", {}).items():
            anns.setdefault(k, v)
    fields.update(record.get("fields", {}))
    for k, a in record.get("ann", {}).items():
        if a in apis.ARRAY_ANNOTATIONS or a in apis.STATIC_ANNOTATIONS:
            anns[k] = a
        elif depth < _DEPTH:
            sub = LIBRARY_CLASSES.get(a) or base_of(a)
            if sub is not None:
                anns[k] = sub
    return {"reg": reg, "fields": fields, "ann": anns}


def attribute(flat: dict, attr: str) -> tuple[str, object]:
    """What ``obj.attr`` is for an instance ``obj`` of the class ``flat`` that
    flows through a trace: ("data", the field's annotation: a qualified name or
    a flat record, or None), ("static", the same) or ("unknown", None)."""
    reg = flat.get("reg")
    if reg is None or reg == "opaque":
        return "unknown", None
    state = flat.get("fields", {}).get(attr)
    ann = flat.get("ann", {}).get(attr)
    if state is None:
        return "unknown", None
    if reg == "static" or state in (STATIC, CONST):
        return "static", ann
    if state == UNSURE:
        return "unknown", None
    if reg == "eqx" and not (isinstance(ann, str) and ann in apis.ARRAY_ANNOTATIONS) and not isinstance(ann, dict):
        return "unknown", None  # eqx.filter_jit keeps non-array leaves static
    return "data", ann


def merge(a: dict, b: dict) -> dict:
    """The flat record of a value of class ``a`` or ``b`` (two traced callers pass
    different classes): an attribute both read the same way (a data leaf in both,
    static in both) keeps that reading; any other is unknown."""
    fields: dict[str, str] = {}
    anns: dict = {}
    for attr in sorted(set(a.get("fields", {})) & set(b.get("fields", {}))):
        wa, na = attribute(a, attr)
        wb, nb = attribute(b, attr)
        if wa == wb and wa in ("data", "static"):
            fields[attr] = DATA if wa == "data" else STATIC
            if na is not None and na == nb:
                anns[attr] = na
    return {"reg": "merged", "fields": fields, "ann": anns}
