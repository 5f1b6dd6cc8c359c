"""Every use jaxlint makes of libcst's internals, in one place.

jaxlint leans on three things libcst does not promise to keep:

* ``CodegenState`` (in ``libcst._nodes.internal``), the state its code
  generation threads through every node; ``jaxlint.parse.positions`` subclasses it to
  note where selected nodes start and end.
* ``CSTNode.__post_init__`` (in ``libcst._nodes.base``), the hook through
  which every node constructor validates the node; ``unvalidated_parser``
  switches it off while libcst's own parser (whose trees are valid by
  construction) runs.
* The node classes' metaclass: they are ABCs, and ``isinstance(x, cst.Name)`` that is
  not an exact match runs ``ABCMeta.__instancecheck__`` in Python (the model and the
  rules make millions of such checks); ``plain_instance_checks`` gives them a
  metaclass whose checks are ``type``'s own, the same answers where no virtual
  subclass is registered (none is: it changes nothing otherwise).
* The layout of the node classes (frozen, slotted dataclasses):
  ``jaxlint.parse.fastparse`` builds nodes without their constructors, setting each
  field through its slot (``node_maker``).  The field names of every class it
  builds are recorded below (``NODE_FIELDS``, as libcst 1.4 to 1.9 have them);
  ``layout_mismatch`` compares them with the installed libcst, and fastparse
  switches itself off on any difference (a reordered, renamed or new field).

``pyproject.toml`` pins libcst to the range CI tests (``make test`` at the
newest release the pin admits, ``make test-libcst-low`` at the lowest).  No
other jaxlint module imports libcst's private modules (tests/test_architecture.py).
"""

from __future__ import annotations

import abc
import dataclasses
import threading
from importlib import metadata
from typing import Any, Callable, Iterable, Optional

import libcst as cst
from libcst._nodes.internal import CodegenState

__all__ = ["CodegenState", "LIBCST_VERSION", "NODE_FIELDS", "LayoutError", "layout_mismatch", "slot_setter",
           "node_maker", "plain_instance_checks", "unvalidated_parser"]

try:
    LIBCST_VERSION = metadata.version("libcst")
except metadata.PackageNotFoundError:  # pragma: no cover - libcst run from a source tree
    LIBCST_VERSION = "unknown"


class LayoutError(Exception):
    """A node class is not laid out as ``node_maker`` needs."""


# The fields of every node class ``jaxlint.parse.fastparse`` builds, in libcst's order
# (``dataclasses.fields``), as the libcst releases of the pinned range have them.
NODE_FIELDS: dict[str, tuple[str, ...]] = {
    "AnnAssign": ('target', 'annotation', 'value', 'equal', 'semicolon'),
    "Annotation": ('annotation', 'whitespace_before_indicator', 'whitespace_after_indicator'),
    "Arg": ('value', 'keyword', 'equal', 'comma', 'star', 'whitespace_after_star', 'whitespace_after_arg'),
    "AsName": ('name', 'whitespace_before_as', 'whitespace_after_as'),
    "Assert": ('test', 'msg', 'comma', 'whitespace_after_assert', 'semicolon'),
    "Assign": ('targets', 'value', 'semicolon'),
    "AssignTarget": ('target', 'whitespace_before_equal', 'whitespace_after_equal'),
    "Attribute": ('value', 'attr', 'dot', 'lpar', 'rpar'),
    "AugAssign": ('target', 'operator', 'value', 'semicolon'),
    "Await": ('expression', 'lpar', 'rpar', 'whitespace_after_await'),
    "BinaryOperation": ('left', 'operator', 'right', 'lpar', 'rpar'),
    "BooleanOperation": ('left', 'operator', 'right', 'lpar', 'rpar'),
    "Break": ('semicolon',),
    "Call": ('func', 'args', 'lpar', 'rpar', 'whitespace_after_func', 'whitespace_before_args'),
    "ClassDef": (
        'name', 'body', 'bases', 'keywords', 'decorators', 'lpar', 'rpar', 'leading_lines',
        'lines_after_decorators', 'whitespace_after_class', 'whitespace_after_name',
        'whitespace_before_colon', 'type_parameters', 'whitespace_after_type_parameters',
    ),
    "CompFor": (
        'target', 'iter', 'ifs', 'inner_for_in', 'asynchronous', 'whitespace_before', 'whitespace_after_for',
        'whitespace_before_in', 'whitespace_after_in',
    ),
    "CompIf": ('test', 'whitespace_before', 'whitespace_before_test'),
    "Comparison": ('left', 'comparisons', 'lpar', 'rpar'),
    "ComparisonTarget": ('operator', 'comparator'),
    "Continue": ('semicolon',),
    "Decorator": ('decorator', 'leading_lines', 'whitespace_after_at', 'trailing_whitespace'),
    "Del": ('target', 'whitespace_after_del', 'semicolon'),
    "Dict": ('elements', 'lbrace', 'rbrace', 'lpar', 'rpar'),
    "DictComp": (
        'key', 'value', 'for_in', 'lbrace', 'rbrace', 'lpar', 'rpar', 'whitespace_before_colon',
        'whitespace_after_colon',
    ),
    "DictElement": ('key', 'value', 'comma', 'whitespace_before_colon', 'whitespace_after_colon'),
    "Element": ('value', 'comma'),
    "Ellipsis": ('lpar', 'rpar'),
    "Else": ('body', 'leading_lines', 'whitespace_before_colon'),
    "ExceptHandler": ('body', 'type', 'name', 'leading_lines', 'whitespace_after_except', 'whitespace_before_colon'),
    "ExceptStarHandler": (
        'body', 'type', 'name', 'leading_lines', 'whitespace_after_except', 'whitespace_after_star',
        'whitespace_before_colon',
    ),
    "Expr": ('value', 'semicolon'),
    "Finally": ('body', 'leading_lines', 'whitespace_before_colon'),
    "Float": ('value', 'lpar', 'rpar'),
    "For": (
        'target', 'iter', 'body', 'orelse', 'asynchronous', 'leading_lines', 'whitespace_after_for',
        'whitespace_before_in', 'whitespace_after_in', 'whitespace_before_colon',
    ),
    "From": ('item', 'whitespace_before_from', 'whitespace_after_from'),
    "FunctionDef": (
        'name', 'params', 'body', 'decorators', 'returns', 'asynchronous', 'leading_lines',
        'lines_after_decorators', 'whitespace_after_def', 'whitespace_after_name', 'whitespace_before_params',
        'whitespace_before_colon', 'type_parameters', 'whitespace_after_type_parameters',
    ),
    "GeneratorExp": ('elt', 'for_in', 'lpar', 'rpar'),
    "Global": ('names', 'whitespace_after_global', 'semicolon'),
    "If": ('test', 'body', 'orelse', 'leading_lines', 'whitespace_before_test', 'whitespace_after_test'),
    "IfExp": (
        'test', 'body', 'orelse', 'lpar', 'rpar', 'whitespace_before_if', 'whitespace_after_if',
        'whitespace_before_else', 'whitespace_after_else',
    ),
    "Imaginary": ('value', 'lpar', 'rpar'),
    "Import": ('names', 'semicolon', 'whitespace_after_import'),
    "ImportAlias": ('name', 'asname', 'comma'),
    "ImportFrom": (
        'module', 'names', 'relative', 'lpar', 'rpar', 'semicolon', 'whitespace_after_from',
        'whitespace_before_import', 'whitespace_after_import',
    ),
    "IndentedBlock": ('body', 'header', 'indent', 'footer'),
    "Index": ('value', 'star', 'whitespace_after_star'),
    "Integer": ('value', 'lpar', 'rpar'),
    "Lambda": ('params', 'body', 'colon', 'lpar', 'rpar', 'whitespace_after_lambda'),
    "List": ('elements', 'lbracket', 'rbracket', 'lpar', 'rpar'),
    "ListComp": ('elt', 'for_in', 'lbracket', 'rbracket', 'lpar', 'rpar'),
    "Module": ('body', 'header', 'footer', 'encoding', 'default_indent', 'default_newline', 'has_trailing_newline'),
    "Name": ('value', 'lpar', 'rpar'),
    "NameItem": ('name', 'comma'),
    "NamedExpr": ('target', 'value', 'lpar', 'rpar', 'whitespace_before_walrus', 'whitespace_after_walrus'),
    "Nonlocal": ('names', 'whitespace_after_nonlocal', 'semicolon'),
    "Param": (
        'name', 'annotation', 'equal', 'default', 'comma', 'star', 'whitespace_after_star',
        'whitespace_after_param',
    ),
    "Parameters": ('params', 'star_arg', 'kwonly_params', 'star_kwarg', 'posonly_params', 'posonly_ind'),
    "Pass": ('semicolon',),
    "Raise": ('exc', 'cause', 'whitespace_after_raise', 'semicolon'),
    "Return": ('value', 'whitespace_after_return', 'semicolon'),
    "Set": ('elements', 'lbrace', 'rbrace', 'lpar', 'rpar'),
    "SetComp": ('elt', 'for_in', 'lbrace', 'rbrace', 'lpar', 'rpar'),
    "SimpleStatementLine": ('body', 'leading_lines', 'trailing_whitespace'),
    "SimpleStatementSuite": ('body', 'leading_whitespace', 'trailing_whitespace'),
    "SimpleString": ('value', 'lpar', 'rpar'),
    "Slice": ('lower', 'upper', 'step', 'first_colon', 'second_colon'),
    "StarredDictElement": ('value', 'comma', 'whitespace_before_value'),
    "StarredElement": ('value', 'comma', 'lpar', 'rpar', 'whitespace_before_value'),
    "Subscript": ('value', 'slice', 'lbracket', 'rbracket', 'lpar', 'rpar', 'whitespace_after_value'),
    "SubscriptElement": ('slice', 'comma'),
    "Try": ('body', 'handlers', 'orelse', 'finalbody', 'leading_lines', 'whitespace_before_colon'),
    "TryStar": ('body', 'handlers', 'orelse', 'finalbody', 'leading_lines', 'whitespace_before_colon'),
    "Tuple": ('elements', 'lpar', 'rpar'),
    "UnaryOperation": ('operator', 'expression', 'lpar', 'rpar'),
    "While": ('test', 'body', 'orelse', 'leading_lines', 'whitespace_after_while', 'whitespace_before_colon'),
    "With": (
        'items', 'body', 'asynchronous', 'leading_lines', 'lpar', 'rpar', 'whitespace_after_with',
        'whitespace_before_colon',
    ),
    "WithItem": ('item', 'asname', 'comma'),
    "Yield": ('value', 'lpar', 'rpar', 'whitespace_after_yield'),
}


def layout_mismatch(names: Iterable[str]) -> Optional[str]:
    """The first of the node classes ``names`` whose fields (names, in order)
    differ from ``NODE_FIELDS``, described in a few words; None when all match."""
    for name in names:
        recorded = NODE_FIELDS.get(name)
        cls = getattr(cst, name, None)
        if recorded is None:
            return f"{name}: no recorded layout"
        if not isinstance(cls, type) or not dataclasses.is_dataclass(cls):
            return f"{name}: not a node class"
        found = tuple(f.name for f in dataclasses.fields(cls))
        if found != recorded:
            return f"{name}: fields {', '.join(found)} (recorded: {', '.join(recorded)})"
    return None


def slot_setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    for klass in cls.__mro__:
        d = klass.__dict__.get(name)
        if d is not None and hasattr(d, "__set__"):
            return d.__set__
    raise LayoutError(f"{cls.__name__}.{name} has no slot")


def node_maker(cls: type, positional: tuple[str, ...]) -> Callable[..., Any]:
    """``make(*positional, **fields)`` for one node class: positional arguments
    are the fields named in ``positional`` (jaxlint's order, not libcst's), every
    other field is set by keyword or takes its default, one shared instance per
    class (the trees are never mutated).  The node's slots are set directly:
    neither ``__init__`` nor the validation in ``__post_init__`` runs (about
    1.3 us saved per ``Call``).  Raises ``LayoutError`` where the class does not
    have those fields."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    missing = [n for n in positional if n not in fields]
    if missing:
        raise LayoutError(f"{cls.__name__} has no field {missing[0]}")
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    params, keywords, sets = [], [], []
    for name, f in fields.items():
        env[f"_s_{name}"] = slot_setter(cls, name)
        if f.default is not dataclasses.MISSING:
            env[f"_d_{name}"] = f.default
            param = f"{name}=_d_{name}"
        elif f.default_factory is not dataclasses.MISSING:
            env[f"_d_{name}"] = f.default_factory()
            param = f"{name}=_d_{name}"
        else:
            param = name
        if name not in positional:
            keywords.append(param)
        sets.append(f"    _s_{name}(o, {name})")
    for name in positional:
        f = fields[name]
        params.append(name if f"_d_{name}" not in env else f"{name}=_d_{name}")
    if any("=" in a and "=" not in b for a, b in zip(params, params[1:])):
        raise LayoutError(f"{cls.__name__}: a required field after an optional one in {positional}")
    signature = ", ".join(params + (["*"] + keywords if keywords else []))
    src = f"def make({signature}):\n    o = _new(_cls)\n" + "\n".join(sets) + "\n    return o\n"
    exec(src, env)  # noqa: S102 - generated from the field names checked above
    return env["make"]


def unvalidated_parser() -> Callable[[str], cst.Module]:
    """``libcst.parse_module`` without the per-node validation its node
    constructors run (``CSTNode.__post_init__`` calls ``_validate``): the trees
    the parser builds are valid by construction, and the checks cost about a
    tenth of the parse (measured on the pinned corpus).  libcst's own comment
    there says as much ("would allow us to avoid validating the tree when
    parsing a file").  Used only while that hook does nothing but validate, and
    only while this process runs one thread; otherwise the plain parser."""
    try:
        from libcst._nodes.base import CSTNode
    except ImportError:  # pragma: no cover - a libcst that moved it
        return cst.parse_module
    hook = CSTNode.__dict__.get("__post_init__")
    if hook is None or getattr(hook, "__code__", None) is None or hook.__code__.co_names != ("_validate",):
        return cst.parse_module  # pragma: no cover - a libcst whose hook does more

    def skip(self: Any) -> None:
        pass

    def parse_module(text: str) -> cst.Module:
        if threading.active_count() > 1:
            # the hook is the class's, for every thread: another thread (the language
            # server's) may be building nodes that must be checked
            return cst.parse_module(text)
        CSTNode.__post_init__ = skip  # type: ignore[method-assign]
        try:
            return cst.parse_module(text)
        finally:
            CSTNode.__post_init__ = hook  # type: ignore[method-assign]

    return parse_module


class _NodeMeta(abc.ABCMeta):
    """``ABCMeta`` with ``type``'s own instance and subclass checks (C code, no Python
    frame): for a class with no virtual subclass registered and no ``__subclasshook__``
    of its own, the answers are the same."""

    __instancecheck__ = type.__instancecheck__
    __subclasscheck__ = type.__subclasscheck__


def plain_instance_checks() -> bool:
    """Give every libcst node class (``CSTNode`` and its subclasses) the metaclass
    ``_NodeMeta``, unless one of them has a virtual subclass registered
    (``ABCMeta.register``) or a ``__subclasshook__`` of its own, where ``ABCMeta``'s
    answers may differ (then nothing changes).  True when they have it.  Idempotent."""
    classes: list[type] = []
    todo = [cst.CSTNode]
    while todo:
        cls = todo.pop()
        if cls in classes:
            continue
        classes.append(cls)
        todo.extend(cls.__subclasses__())
    if all(type(c) is _NodeMeta for c in classes):
        return True
    try:
        for cls in classes:
            if type(cls) not in (abc.ABCMeta, _NodeMeta) or abc._get_dump(cls)[0] \
                    or cls.__dict__.get("__subclasshook__") is not None:
                return False
        for cls in classes:
            if type(cls) is abc.ABCMeta:
                cls.__class__ = _NodeMeta
    except (AttributeError, TypeError):  # pragma: no cover - another Python's ABCs
        return False
    return True
