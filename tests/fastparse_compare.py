"""Shape comparison of two libcst trees, whitespace and punctuation aside
(used by tests/test_fastparse.py and bench/fastparse_check.py)."""
from __future__ import annotations

import dataclasses
from typing import Any, Optional

import libcst as cst

# fields that hold only whitespace, comments, punctuation or formatting
_IGNORED = frozenset({
    "lpar", "rpar", "comma", "semicolon", "leading_lines", "lines_after_decorators", "header", "footer",
    "equal", "colon", "dot", "arrow", "lbracket", "rbracket", "lbrace", "rbrace", "star_tok", "newline",
    "trailing_whitespace", "default_indent", "default_newline", "encoding", "has_trailing_newline",
    "whitespace", "indent", "walrus", "first_colon", "second_colon", "value_delimiter",
    "leading_whitespace", "posonly_ind", "type_parameters",
})


def first_difference(a: Any, b: Any, path: str = "module") -> Optional[str]:
    """None when ``a`` (built) and ``b`` (libcst's parse) have the same shape,
    else where and how they differ."""
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        if not isinstance(a, (list, tuple)) or not isinstance(b, (list, tuple)) or len(a) != len(b):
            return f"{path}: {_short(a)} != {_short(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    if isinstance(a, cst.CSTNode) or isinstance(b, cst.CSTNode):
        if type(a) is not type(b):
            return f"{path}: {type(a).__name__} != {type(b).__name__}"
        if isinstance(a, (cst.BaseUnaryOp, cst.BaseBinaryOp, cst.BaseBooleanOp, cst.BaseCompOp,
                          cst.BaseAugOp, cst.Asynchronous, cst.Dot, cst.ImportStar, cst.ParamStar,
                          cst.ParamSlash, cst.Ellipsis)):
            return None  # the class is all
        for f in dataclasses.fields(a):
            name = f.name
            if name in _IGNORED or name.startswith("whitespace"):
                continue
            if isinstance(a, cst.ParamStar) and name == "comma":
                continue
            d = first_difference(getattr(a, name), getattr(b, name), f"{path}.{name}")
            if d:
                return d
        return None
    if isinstance(a, cst.MaybeSentinel) and b == "" or isinstance(b, cst.MaybeSentinel) and a == "":
        return None
    if a != b:
        return f"{path}: {_short(a)} != {_short(b)}"
    return None


def _short(x: Any) -> str:
    s = repr(x) if not isinstance(x, cst.CSTNode) else type(x).__name__
    return s if len(s) < 120 else s[:117] + "..."
