"""A cheap read-only walk over libcst nodes.

libcst's visitor machinery rebuilds every node as it goes (about 1x a parse
per pass); reading the dataclass fields directly, and skipping whitespace and
punctuation, costs about 0.05x.  Children come in field order, which is source
order for every node jaxlint reasons about.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Iterator, Optional

import libcst as cst

# Fields that only hold whitespace, comments or punctuation.
_SKIP_FIELD_NAMES = frozenset(
    {
        "lpar",
        "rpar",
        "comma",
        "semicolon",
        "leading_lines",
        "lines_after_decorators",
        "header",
        "footer",
        "operator",
        "equal",
        "colon",
        "dot",
        "arrow",
        "asynchronous",
        "lbracket",
        "rbracket",
        "lbrace",
        "rbrace",
        "star_tok",
        "newline",
        "trailing_whitespace",
        "default_indent",
        "default_newline",
        "encoding",
        "has_trailing_newline",
        "whitespace",
        "indent",
        "walrus",
        "relative",
        "prefix",
        "value_delimiter",
    }
)

_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields_of(cls: type) -> tuple[str, ...]:
    names = tuple(
        f.name
        for f in dataclasses.fields(cls)
        if f.name not in _SKIP_FIELD_NAMES and not f.name.startswith("whitespace")
    )
    _FIELDS[cls] = names
    return names


# type -> is it a libcst node?  (CSTNode is an ABC: isinstance() through the
# ABC machinery is several times slower than this dictionary look-up)
_IS_NODE: dict[type, bool] = {}


def is_node_type(t: type) -> bool:
    r = _IS_NODE.get(t)
    if r is None:
        r = _IS_NODE[t] = issubclass(t, cst.CSTNode)
    return r


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The child nodes of ``node`` that are not whitespace or punctuation, in field order."""
    fn = _CHILDREN.get(type(node))
    if fn is None:
        fn = _compile_children(type(node))
    return fn(node)


# node class -> a function made for it that reads its fields by name (no generator,
# no getattr): the walks call this a few million times on a large project
_CHILDREN: dict[type, object] = {}


def _compile_children(cls: type):
    names = _FIELDS.get(cls)
    if names is None:
        names = _fields_of(cls)
    shapes = _field_shapes(cls)
    lines = ["def kids(node):", "    out = []"]
    for name in names:
        shape = shapes.get(name)
        if shape == _LEAF:
            continue  # a str, bool or sentinel: never a node
        if shape == _NODE:
            lines.append(f"    out.append(node.{name})")
        elif shape == _OPTIONAL:
            lines += [f"    v = node.{name}", "    if v is not None:", "        out.append(v)"]
        elif shape == _NODES:
            lines.append(f"    out += node.{name}")
        else:  # read the value: a node, a sequence of nodes, or neither
            lines += [
                f"    v = node.{name}",
                "    t = type(v)",
                "    if t is tuple or t is list:",
                "        for x in v:",
                "            r = is_node.get(type(x))",
                "            if r is None:",
                "                r = is_node_type(type(x))",
                "            if r:",
                "                out.append(x)",
                "    else:",
                "        r = is_node.get(t)",
                "        if r is None:",
                "            r = is_node_type(t)",
                "        if r:",
                "            out.append(v)",
            ]
    lines.append("    return out")
    env = {"is_node": _IS_NODE, "is_node_type": is_node_type}
    exec(compile("\n".join(lines), f"<children of {cls.__name__}>", "exec"), env)
    fn = _CHILDREN[cls] = env["kids"]
    return fn


# what a field holds, from libcst's annotations (the values its nodes are built with,
# by libcst's parser and by ``parse/fastparse.py``, keep to them): a node, a node or
# None, a sequence of nodes, or never a node (a str, bool or sentinel); a field
# annotated otherwise (a union of a node and a sentinel...) is read as it comes
_NODE, _OPTIONAL, _NODES, _LEAF = "node", "optional", "nodes", "leaf"


def _field_shapes(cls: type) -> dict[str, str]:
    import typing
    from collections.abc import Sequence

    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # an annotation this Python cannot evaluate: every field read as it comes
        return {}

    def is_node_class(tp) -> bool:
        return isinstance(tp, type) and issubclass(tp, cst.CSTNode)

    def shape(tp) -> Optional[str]:
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin is typing.Union:
            nodes = [a for a in args if a is not type(None)]
            if all(is_node_class(a) for a in nodes):
                return _OPTIONAL if len(nodes) < len(args) else _NODE
            if all(shape(a) == _LEAF for a in args):
                return _LEAF
            return None
        if origin is Sequence and len(args) == 1:
            inner = shape(args[0])
            return _NODES if inner == _NODE else None
        if is_node_class(tp):
            return _NODE
        if tp in (str, bool, int, type(None)) or (isinstance(tp, type) and issubclass(tp, cst.MaybeSentinel)):
            return _LEAF
        return None

    out = {}
    for name, tp in hints.items():
        s = shape(tp)
        if s is not None:
            out[name] = s
    return out


_SCOPES = frozenset({cst.FunctionDef, cst.Lambda, cst.ClassDef})


def descendants(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Every node below ``node`` (pre-order), not descending into nested
    functions, lambdas or classes."""
    stack = children(node)
    stack.reverse()
    scopes, made, make = _SCOPES, _CHILDREN.get, _compile_children
    while stack:
        n = stack.pop()
        yield n
        t = type(n)
        if t in scopes:
            continue
        kids = (made(t) or make(t))(n)  # (children(), without a call per node)
        if kids:
            kids.reverse()
            stack += kids


def walk_tree(root: cst.CSTNode, prune: Optional[Callable[[cst.CSTNode], bool]] = None, *,
              with_root: bool = True, source_order: bool = False) -> Iterator[cst.CSTNode]:
    """``root`` (unless ``with_root`` is False) and every node below it, depth
    first: the last child first (the order of a walk with a stack), or with
    ``source_order`` in pre-order as written; nothing below a node for which
    ``prune(node)`` is true (that node itself is given).  ``prune`` is called on
    each node as it is reached, so it may also act on it."""
    stack = [root] if with_root else children(root)
    if source_order:
        stack.reverse()
    made, make = _CHILDREN.get, _compile_children
    while stack:
        n = stack.pop()
        yield n
        if prune is None or not prune(n):
            t = type(n)
            kids = (made(t) or make(t))(n)
            if source_order:
                kids.reverse()
            stack += kids


# the expression classes: no statement is below one (a walk after assignments stops there)
_EXPRESSIONS = frozenset(c for c in vars(cst).values() if isinstance(c, type) and issubclass(c, cst.BaseExpression))


def statement_nodes(root: cst.CSTNode, *, nested: bool = True) -> Iterator[cst.CSTNode]:
    """``root`` and the nodes below it down to the expressions (statements, their blocks
    and parts; each expression reached is given, nothing below it): enough to find every
    assignment, ``del``... at a fraction of a whole walk.  ``nested``: into nested
    functions and classes too."""
    yield root
    expressions, scopes, made, make = _EXPRESSIONS, _SCOPES, _CHILDREN.get, _compile_children
    stack = [] if type(root) in expressions else children(root)
    while stack:
        n = stack.pop()
        yield n
        t = type(n)
        if t in expressions or (not nested and t in scopes):
            continue
        stack += (made(t) or make(t))(n)


def bound_names(target: cst.CSTNode) -> list[cst.Name]:
    """The names an assignment target binds, through tuples, lists and starred
    elements (``a, (b, *c)`` -> ``a``, ``b``, ``c``); attributes and subscripts
    bind none."""
    t = type(target)
    if t is cst.Name:
        return [target]  # type: ignore[list-item]
    if t is cst.Tuple or t is cst.List:
        return [n for el in target.elements for n in bound_names(el.value)]  # type: ignore[attr-defined]
    if t is cst.StarredElement:
        return bound_names(target.value)  # type: ignore[attr-defined]
    return []


def dotted_name(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    # (type() rather than isinstance(): libcst's node classes are ABCs, whose
    # isinstance() costs several times a type comparison; none has a subclass)
    t = type(node)
    if t is _NAME:
        return node.value  # type: ignore[attr-defined]
    parts: list[str] = []
    while t is _ATTRIBUTE:
        parts.append(node.attr.value)  # type: ignore[attr-defined]
        node = node.value  # type: ignore[attr-defined]
        t = type(node)
    if t is _NAME:
        parts.append(node.value)  # type: ignore[attr-defined]
        parts.reverse()
        return ".".join(parts)
    return None


_NAME = cst.Name
_ATTRIBUTE = cst.Attribute


def string_value(node: cst.CSTNode) -> str | None:
    """The value of a plain (non-f) string literal, else None."""
    if isinstance(node, cst.SimpleString):
        try:
            v = node.evaluated_value
        except Exception:  # pragma: no cover - libcst refuses odd prefixes
            return None
        return v if isinstance(v, str) else None
    if isinstance(node, cst.ConcatenatedString):
        left = string_value(node.left)
        right = string_value(node.right)
        if left is not None and right is not None:
            return left + right
    return None


def int_value(node: cst.CSTNode) -> int | None:
    if isinstance(node, cst.Integer):
        try:
            return int(node.value.replace("_", ""), 0)
        except ValueError:
            return None
    if (
        isinstance(node, cst.UnaryOperation)
        and isinstance(node.operator, cst.Minus)
        and isinstance(node.expression, cst.Integer)
    ):
        v = int_value(node.expression)
        return -v if v is not None else None
    return None


def literal_ints(node: cst.CSTNode) -> list[int] | None:
    """``1`` or ``(0, 2)`` or ``[1]`` -> list of ints; None if not literal."""
    v = int_value(node)
    if v is not None:
        return [v]
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        out = []
        for el in node.elements:
            iv = int_value(el.value)
            if iv is None:
                return None
            out.append(iv)
        return out
    return None


def literal_strs(node: cst.CSTNode) -> list[str] | None:
    s = string_value(node)
    if s is not None:
        return [s]
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        out = []
        for el in node.elements:
            sv = string_value(el.value)
            if sv is None:
                return None
            out.append(sv)
        return out
    return None


def keyword_arg(call: cst.Call, name: str) -> cst.Arg | None:
    for a in call.args:
        if a.keyword is not None and a.keyword.value == name:
            return a
    return None


def positional_args(call: cst.Call) -> list[cst.Arg]:
    out = []
    for a in call.args:
        if a.keyword is not None or a.star:
            break
        out.append(a)
    return out


def config_update_args(call: cst.Call) -> list[cst.Arg]:
    """The (name, value) arguments of ``jax.config.update(name, val)``, written by position
    or by keyword (``update(name="jax_enable_x64", val=True)``: JAX 0.10.2 takes both)."""
    out = positional_args(call)
    for i, word in enumerate(("name", "val")):
        if len(out) == i:
            kw = keyword_arg(call, word)
            if kw is None:
                break
            out.append(kw)
    return out


def arg_at(call: cst.Call, index: int | None, keyword: str | None) -> cst.BaseExpression | None:
    if keyword:
        kw = keyword_arg(call, keyword)
        if kw is not None:
            return kw.value
    if index is not None:
        pos = positional_args(call)
        if index < len(pos):
            return pos[index].value
    return None


def block_statements(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The statements of a suite (an indented block, a one-line suite, a module), or of
    the body of a compound statement or function (``if``, ``for``, ``def``...)."""
    body = getattr(node, "body", ())
    if isinstance(body, (cst.IndentedBlock, cst.SimpleStatementSuite)):
        body = body.body
    return list(body) if isinstance(body, (list, tuple)) else []


def assigned_in(node: cst.CSTNode, defs: bool = False) -> set[str]:
    """The names ``node`` (a loop, a comprehension, a statement) binds in its targets and
    body: assignment, ``for``/comprehension, walrus and ``as`` targets (every name in a
    target), not inside nested functions, lambdas or classes; ``defs``: the names of
    those nested functions and classes too."""
    out: set[str] = set()
    stack = [node]
    scopes = _SCOPES
    while stack:
        n = stack.pop()
        t = type(n)
        if t in scopes and n is not node:
            if defs and t is not cst.Lambda:
                out.add(n.name.value)  # type: ignore[attr-defined]
            continue
        if t is cst.AssignTarget or t is cst.For or t is cst.CompFor or t is cst.AugAssign \
                or t is cst.AnnAssign or t is cst.NamedExpr:
            tgt = n.target  # type: ignore[attr-defined]
        elif t is cst.AsName:
            tgt = n.name  # type: ignore[attr-defined]
        else:
            tgt = None
        if tgt is not None:
            out.update(x.value for x in (tgt, *descendants(tgt)) if type(x) is cst.Name)
        stack.extend(children(n))
    return out


def self_writes(root: cst.CSTNode, *, nested: bool = True, deep: bool = False, deletes: bool = False,
                setattrs: bool = False) -> Optional[list[str]]:
    """The attributes of ``self`` that ``root`` assigns, once per write (``self.x = ...``,
    annotated, ``+=``, each one a tuple or list target unpacks: ``self.a, self.b = ...``).
    ``nested``: in nested functions, lambdas and classes too; ``deep``: every ``self.x``
    in a target (``self.x[0] = ...``, ``self.x.y = ...``); ``deletes``: ``del self.x``;
    ``setattrs``: ``setattr(self, "x", v)``/``object.__setattr__(...)``, None when one
    names the attribute by something other than a string literal."""
    out: list[str] = []
    if setattrs:  # calls: every expression too
        prune = None if nested else (lambda c: c is not root and type(c) in _SCOPES)
        nodes: Iterator[cst.CSTNode] = walk_tree(root, prune)
    else:
        nodes = statement_nodes(root, nested=nested)
    for n in nodes:
        t = type(n)
        if t is cst.Assign:
            targets = [a.target for a in n.targets]  # type: ignore[attr-defined]
        elif t is cst.AnnAssign or t is cst.AugAssign or (deletes and t is cst.Del):
            targets = [n.target]  # type: ignore[attr-defined]
        elif setattrs and t is cst.Call and n.args and isinstance(n.args[0].value, cst.Name) \
                and n.args[0].value.value == "self" and dotted_name(n.func) in _SETATTRS:  # type: ignore[attr-defined]
            name = string_value(n.args[1].value) if len(n.args) > 1 else None  # type: ignore[attr-defined]
            if name is None:
                return None
            out.append(name)
            continue
        else:
            continue
        for tg in targets:
            found = walk_tree(tg) if deep else walk_tree(tg, lambda x: type(x) in (cst.Subscript, cst.Attribute))
            out.extend(x.attr.value for x in found if type(x) is cst.Attribute and type(x.value) is cst.Name
                       and x.value.value == "self")
    return out


_SETATTRS = ("setattr", "object.__setattr__")
