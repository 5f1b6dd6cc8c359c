"""Reading pytree classes from a file's tree: the records of ``model/pytrees.py``."""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jaxlint.model import apis
from jaxlint.model.hashing import class_hashing
from jaxlint.model.pytrees import (
    CLASSVAR,
    INITVAR,
    OPTIONAL,
    STATIC_WRAPPERS,
    BASE_REGS,
    CALL_REGS,
    CONST,
    DATA,
    DECORATOR_REGS,
    LIBRARY_CLASSES,
    STATIC,
    UNSURE,
)
from jaxlint.model.walk import children, dotted_name, keyword_arg, literal_strs, positional_args, string_value, walk_tree

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
        if head in OPTIONAL:
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
                if head in CLASSVAR:
                    fields[name] = CONST
                    continue
                if head in INITVAR:
                    continue
                v = small.value
                static = head in STATIC_WRAPPERS or (isinstance(v, cst.Call) and declares_static(v, values))
                fields[name] = STATIC if static else DATA
                a = ref(annotation_node(ann, qualname), qualname) if head not in STATIC_WRAPPERS else None
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
    out = {"reg": reg, "bases": bases, "fields": fields, "ann": anns}
    how = class_hashing(node, [q for b in node.bases if b.keyword is None and (q := qualname(b.value))], qualname)
    if how is not None:
        out["hash"] = how._asdict()  # how its instances hash (static jit arguments, model/hashing.py)
    leaves = function_leaf_fields(node, qualname)
    if leaves:
        out["fnleaf"] = leaves  # fields holding a Python function (plain jax.jit cannot take it, JAX209)
    return out


def function_leaf(value: cst.BaseExpression, qualname: QualFn,
                  local: Callable[[str], Optional[str]] = lambda _: None) -> Optional[str]:
    """What a field value holds when it puts a Python function among a Module's leaves:
    an equinox layer of ``apis.EQX_FUNCTION_LEAF_LAYERS`` (``nn.MaxPool2d(3)``), an
    ``eqx.nn.Sequential`` given one (or a JAX function) in its list, a JAX function
    itself (``jax.nn.relu``), or (``local``) a class of the same module built here whose
    own fields do; None otherwise."""
    if isinstance(value, cst.Call):
        q = qualname(value.func)
        if q in apis.EQX_FUNCTION_LEAF_LAYERS:
            return f"an `{q.replace('equinox.', 'eqx.')}`"
        if q == "equinox.nn.Sequential" and value.args and isinstance(value.args[0].value, (cst.List, cst.Tuple)):
            for el in value.args[0].value.elements:
                inner = function_leaf(el.value, qualname, local)
                if inner is not None:
                    return f"an `eqx.nn.Sequential` holding {inner}"
            return None
        if isinstance(value.func, cst.Name):
            inner = local(value.func.value)
            return f"a `{value.func.value}` whose {inner}" if inner is not None else None
        return None
    if isinstance(value, (cst.Name, cst.Attribute)):
        q = qualname(value)
        if q is not None and q.startswith(("jax.nn.", "jax.numpy.")) and q.count(".") == 2 \
                and q.rsplit(".", 1)[1][:1].islower() and q.rsplit(".", 1)[1] not in _CONSTANTS:
            return f"the function `{q.replace('jax.numpy.', 'jnp.')}`"
    return None


# the lowercase names of jax.numpy that are values, not functions (`max_norm: float = jnp.inf`)
_CONSTANTS = frozenset({"inf", "nan", "pi", "e", "euler_gamma", "newaxis", "c_", "r_", "s_", "mgrid", "ogrid",
                        "index_exp", "fft", "linalg", "initializers"})


def function_leaf_fields(node: cst.ClassDef, qualname: QualFn,
                         local: Callable[[str], Optional[str]] = lambda _: None) -> dict[str, str]:
    """The fields of an equinox Module (a direct subclass of ``equinox.Module``) that
    hold a Python function as a leaf: a non-static field whose class-body default, or
    what ``__init__`` sets it to at the top level of its body, is a ``function_leaf``:
    field -> what it holds."""
    if not any(b.keyword is None and qualname(b.value) == "equinox.Module" for b in node.bases):
        return {}
    static: set[str] = set()
    out: dict[str, str] = {}
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
    for stmt in body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    v = small.value
                    if isinstance(v, cst.Call) and declares_static(v):
                        static.add(small.target.value)
                    elif v is not None:
                        what = function_leaf(v, qualname, local)
                        if what is not None:
                            out[small.target.value] = what
    init = _method(node, "__init__")
    if init is not None and isinstance(init.body, cst.IndentedBlock):
        for stmt in init.body.body:
            if not isinstance(stmt, cst.SimpleStatementLine):
                continue
            for small in stmt.body:
                if isinstance(small, cst.Assign) and len(small.targets) == 1:
                    t = small.targets[0].target
                    if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self" \
                            and t.attr.value not in static:
                        what = function_leaf(small.value, qualname, local)
                        if what is not None:
                            out.setdefault(t.attr.value, what)
    return out


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
        kids, aux = r.elements[0].value, r.elements[1].value
        got_children = _attrs_of(kids, obj, local, DATA, out)
        got_aux = _attrs_of(aux, obj, local, STATIC, out)
        readable = readable or got_children or got_aux
    return out if readable else None


def _returns(node: cst.CSTNode, out: list) -> None:
    for child in children(node):
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

    def reached(n: cst.CSTNode) -> bool:  # True: nothing below ``n`` to read
        nonlocal found
        if isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name) and n.value.value == obj:
            a = n.attr.value
            if out.get(a) != DATA:  # a field in both: the leaves decide
                out[a] = state
            found = True
            return True
        if isinstance(n, cst.Name) and n.value in local and depth < 3:
            found = _attrs_of(local[n.value], obj, local, state, out, depth + 1) or found
            return True
        return False

    for _ in walk_tree(expr, reached):
        pass
    return found
