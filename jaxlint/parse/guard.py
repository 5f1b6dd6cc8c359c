"""Cheap limits checked on CPython's syntax tree before libcst's native parser runs.

libcst's parser is native code that recurses once per nesting level and has no
depth check of its own: deep enough input overflows its stack and kills the
process (a segmentation fault, not an exception).  Its time also grows faster
than linearly with the depth of a chain (``a0 + a1 + ...``, ``x.sum().sum()...``).
CPython's own parser refuses some of these (200 nested brackets, about 3,000
levels), but not all: ``a and b and ...`` is flat for CPython and nested for
libcst, and CPython accepts depths that already take libcst seconds.

So every file that reaches libcst has first been parsed by CPython (which also
decides whether it is valid Python), and its tree is measured here:

* nesting depth: levels of statements and expressions, a boolean chain of
  ``n`` operands counting ``n - 1`` levels as it does for libcst;
* length: the nodes of one simple statement (or of one header expression of a
  compound statement).

Measuring is cheap because a subtree that spans ``c`` characters cannot be more
than about ``c`` levels deep nor hold more than about ``2 c`` nodes: only the rare
statements longer than the limits are walked node by node.
"""

from __future__ import annotations

import ast
import re
from typing import Optional

from jaxlint.parse.lines import line_starts

# Real code stays far below these: in the pinned benchmark corpus (bench/make_corpus.py,
# 1,244 files) the deepest nesting is 33 levels and the longest statement 18,712 nodes
# (a table of constants).  libcst's native parser crashed on `a and b and ...` with
# 16,000 operands (not with 4,000); CPython refuses about 3,000 levels.  At MAX_DEPTH a
# whole lint takes 0.3 to 3.6 s (the slowest: a chain of subscripts, libcst's parse).
MAX_DEPTH = 1500
MAX_NODES = 100_000

# how many levels / nodes a subtree may hold per character of source it spans (and a margin)
_SLACK = 4


class LimitExceeded(Exception):
    """Raised by ``check_limits``; ``line`` is where the offending construct starts."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def _line_starts(text: str) -> list[int]:
    return line_starts(text)


def _is_compound(node: ast.AST) -> bool:
    return isinstance(getattr(node, "body", None), list)


def check_limits(tree: ast.AST, text: str, max_depth: Optional[int] = None,
                 max_nodes: Optional[int] = None) -> None:
    """Raise ``LimitExceeded`` when ``tree`` (CPython's tree of ``text``) is
    nested deeper than ``max_depth`` or has a statement longer than ``max_nodes``."""
    max_depth = MAX_DEPTH if max_depth is None else max_depth
    max_nodes = MAX_NODES if max_nodes is None else max_nodes
    starts: Optional[list[int]] = None

    def extent(node: ast.AST) -> Optional[int]:
        """An upper bound of the characters ``node`` spans (None: no position)."""
        nonlocal starts
        line = getattr(node, "lineno", None)
        end_line = getattr(node, "end_lineno", None)
        if line is None or end_line is None:
            return None
        if end_line == line:
            return node.end_col_offset - node.col_offset  # type: ignore[attr-defined,operator]
        if starts is None:
            starts = _line_starts(text)
        end = starts[min(end_line, len(starts)) - 1] + (node.end_col_offset or 0)  # type: ignore[attr-defined]
        return end - starts[min(line, len(starts)) - 1]

    # (node, depth, line, an upper bound of the characters it spans from its parent or None)
    stack: list[tuple[ast.AST, int, int, Optional[int]]] = [
        (child, 1, 1, None) for child in ast.iter_child_nodes(tree)
    ]
    while stack:
        node, depth, line, bound = stack.pop()
        line = getattr(node, "lineno", line)
        if depth > max_depth:
            raise LimitExceeded(line, f"nesting deeper than {max_depth:,} levels at line {line}")
        size = extent(node)
        if size is None:
            size = bound  # no position of its own (arguments, withitem, ...): inside its parent's
        if size is not None and depth + size + _SLACK <= max_depth and _SLACK * (size + 1) <= max_nodes:
            continue  # too short to reach either limit
        if _is_compound(node):
            for child in ast.iter_child_nodes(node):
                stack.append((child, depth + 1, line, size))
        elif not isinstance(node, (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)):
            _measure(node, depth, line, max_depth, max_nodes)


def _measure(root: ast.AST, depth0: int, line0: int, max_depth: int, max_nodes: int) -> None:
    """Walk ``root`` fully: its depth (from ``depth0``) and node count."""
    count = 0
    stack = [(root, depth0, line0)]
    while stack:
        node, depth, line = stack.pop()
        line = getattr(node, "lineno", line)
        if depth > max_depth:
            raise LimitExceeded(line, f"nesting deeper than {max_depth:,} levels at line {line}")
        count += 1
        if count > max_nodes:
            raise LimitExceeded(line0, f"a statement of more than {max_nodes:,} syntax nodes at line {line0}")
        step = len(node.values) if isinstance(node, ast.BoolOp) else 1
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)):
                stack.append((child, depth + step, line))


# ----------------------------------------------------------------------------- constant tables

# A literal of constants this large is data (a generated table, weights, a vocabulary),
# never JAX code: ``blank_constant_tables`` hides it from the parser.
TABLE_NODES = 1_000
# the unknown function that stands for a hidden table: one character, so that the call
# fits anywhere (tokens inside brackets may be split by line breaks); NFKC keeps it as is
TABLE_CALL = "\u01c2"
_CONTAINERS = (ast.List, ast.Tuple, ast.Set, ast.Dict)
_NOT_BREAK = re.compile(r"[^\r\n]")


def _constant_size(node: ast.AST, limit: int) -> int:
    """The nodes of ``node`` when it is a literal built only of constants (numbers,
    strings, bytes, None/True/False, a sign, nested lists/tuples/sets/dicts), else -1.
    Stops counting (-1) past ``limit``."""
    count = 0
    stack = [node]
    while stack:
        n = stack.pop()
        count += 1
        if count > limit:
            return -1
        if isinstance(n, ast.Constant):
            continue
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            stack.append(n.operand)
        elif isinstance(n, (ast.List, ast.Tuple, ast.Set)):
            stack.extend(n.elts)
        elif isinstance(n, ast.Dict):
            if any(k is None for k in n.keys):  # ``**mapping``: a name, not a constant
                return -1
            stack.extend(n.keys)  # type: ignore[arg-type]
            stack.extend(n.values)
        else:
            return -1
    return count


def blank_constant_tables(tree: ast.AST, text: str,
                          min_nodes: int = TABLE_NODES) -> Optional[tuple[str, list[tuple[int, int]]]]:
    """``text`` with every literal of constants of at least ``min_nodes`` nodes
    replaced, character for character, by a parenthesized call of an unknown
    function (``(ǂ())`` spread over the literal's span, every line break kept): the
    same lines and columns for all other code, a value the model cannot place
    (unknown), and a parse that costs nothing.  Also returns the replaced spans
    (character offsets).  None when there is no such literal."""
    from jaxlint.parse.lines import LineIndex

    index: Optional[LineIndex] = None
    spans: list[tuple[int, int]] = []
    stack: list[ast.AST] = [tree]
    limit = 4 * (len(text) + 1)
    while stack:
        node = stack.pop()
        if isinstance(node, _CONTAINERS) and hasattr(node, "end_lineno"):
            if index is None:
                index = LineIndex(text)
            start = index.offset(node.lineno, index.char_col(node.lineno, node.col_offset))
            end = index.offset(node.end_lineno, index.char_col(node.end_lineno, node.end_col_offset))  # type: ignore[arg-type]
            # a literal shorter than this cannot hold ``min_nodes`` nodes: skip the count
            if (end - start + 1) * _SLACK >= min_nodes:
                size = _constant_size(node, limit)
                if size >= min_nodes:
                    spans.append((start, end))
                    continue
        stack.extend(ast.iter_child_nodes(node))
    if not spans:
        return None
    spans.sort()
    parts: list[str] = []
    at = 0
    for start, end in spans:
        # the literal's brackets become parentheses; inside, every line break is
        # kept and everything else a space, but for the first three other places,
        # which take the call ``ǂ()``
        inner = list(_NOT_BREAK.sub(" ", text[start + 1:end - 1]))
        free = (i for i, c in enumerate(inner) if c == " ")
        for token in (TABLE_CALL, "(", ")"):
            inner[next(free)] = token
        parts += [text[at:start], "(", "".join(inner), ")"]
        at = end
    parts.append(text[at:])
    return "".join(parts), spans
