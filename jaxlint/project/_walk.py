"""A cheap read-only child walk over libcst nodes (fields read directly).

The same technique as the engine's walk: libcst's visitor machinery rebuilds
every node as it goes, while reading the dataclass fields directly and skipping
whitespace and punctuation costs a small fraction of a parse.  Kept separate so
that this package imports nothing from the engine.
"""

from __future__ import annotations

import dataclasses
from typing import Iterator

import libcst as cst

_SKIP = frozenset(
    {
        "lpar", "rpar", "comma", "semicolon", "leading_lines", "lines_after_decorators",
        "header", "footer", "operator", "equal", "colon", "dot", "arrow", "asynchronous",
        "lbracket", "rbracket", "lbrace", "rbrace", "star_tok", "newline",
        "trailing_whitespace", "default_indent", "default_newline", "encoding",
        "has_trailing_newline", "whitespace", "indent", "walrus", "relative", "prefix",
        "value_delimiter",
    }
)

_FIELDS: dict[type, tuple[str, ...]] = {}
_IS_NODE: dict[type, bool] = {}


def _fields_of(cls: type) -> tuple[str, ...]:
    names = tuple(
        f.name
        for f in dataclasses.fields(cls)
        if f.name not in _SKIP and not f.name.startswith("whitespace")
    )
    _FIELDS[cls] = names
    return names


def children(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The child nodes of ``node`` in field order (source order)."""
    cls = type(node)
    names = _FIELDS.get(cls)
    if names is None:
        names = _fields_of(cls)
    is_node = _IS_NODE
    for name in names:
        value = getattr(node, name)
        t = type(value)
        if t is tuple or t is list:
            for item in value:
                it = type(item)
                r = is_node.get(it)
                if r is None:
                    r = is_node[it] = issubclass(it, cst.CSTNode)
                if r:
                    yield item
        else:
            r = is_node.get(t)
            if r is None:
                r = is_node[t] = issubclass(t, cst.CSTNode)
            if r:
                yield value


def dotted_name(node: cst.CSTNode) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    parts: list[str] = []
    while True:
        t = type(node)
        if t is cst.Attribute:
            parts.append(node.attr.value)  # type: ignore[attr-defined]
            node = node.value  # type: ignore[attr-defined]
        elif t is cst.Name:
            parts.append(node.value)  # type: ignore[attr-defined]
            parts.reverse()
            return ".".join(parts)
        else:
            return None
