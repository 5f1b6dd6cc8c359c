"""The fixer's own check of its output (as black checks that its output has the
AST of its input): after a set of edits, CPython's syntax tree of the new text
must equal that of the old text everywhere except in the rewritten nodes.

The edits reach here proven to be where their rule meant them: each carries the
code of the node it was made for (``Edit.original``) and ``fixes.plan_edits``
applies it only where the text between its positions is that code (an edit at
a wrong offset is an internal error of the rule, see ``fixer.fix_text``).  The
masked nodes below are therefore the intended ones, and everything else must
stay as it was.  Offsets and CPython's positions meet through ``jaxlint.parse.lines``.

Each edit is mapped, in each text, to the nodes it rewrote: the innermost node
that contains the edited span (in the old text) or the replacement (in the new
text); where that span lies inside a statement list rather than inside one
statement (an inserted ``import``), the statements it overlaps.  Those nodes are
masked (a placeholder where one node was, dropped from a list), and the two
masked trees must dump identically.  What this catches: an edit whose text
binds differently with its surroundings (a missing pair of parentheses, an
unclosed bracket or an indentation that captures the next statement), a
replacement that is not one node, or an edit that reached past the node it
meant to rewrite.
"""

from __future__ import annotations

import ast
import warnings
from typing import Iterable, Optional

from jaxlint.parse.lines import LineIndex

_Span = tuple[int, int]
_MARK = "<rewritten>"


class _Positions:
    """Character offsets of CPython's node positions (which count UTF-8 bytes),
    through ``jaxlint.parse.lines``: the conversion the fix edits went through."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._index = LineIndex(text)
        self._ranges: dict[int, Optional[_Span]] = {}

    def _char(self, line: int, col_bytes: int) -> int:
        return self._index.ast_offset(line, col_bytes)

    def range(self, node: ast.AST) -> Optional[_Span]:
        """(start, end) of ``node``; a node without a position spans its children."""
        key = id(node)
        if key in self._ranges:
            return self._ranges[key]
        result: Optional[_Span] = None
        if getattr(node, "end_lineno", None) is not None and getattr(node, "lineno", None) is not None:
            result = (self._char(node.lineno, node.col_offset),  # type: ignore[attr-defined]
                      self._char(node.end_lineno, node.end_col_offset))  # type: ignore[attr-defined]
            decorators = getattr(node, "decorator_list", None)
            if decorators:  # a decorated def or class starts at its first `@`, not at `def`
                first = self.range(decorators[0])
                if first is not None:
                    at = self.text.rfind("@", 0, first[0])
                    result = (min(result[0], at if at >= 0 else first[0]), result[1])
        elif not isinstance(node, ast.Module):
            spans = [r for r in map(self.range, ast.iter_child_nodes(node)) if r is not None]
            if spans:
                result = (min(s for s, _ in spans), max(e for _, e in spans))
        self._ranges[key] = result
        return result

    def padded(self, node: ast.AST) -> Optional[_Span]:
        """``range`` widened over the parentheses around the node (libcst's
        range of a parenthesized node includes them), and the blanks between."""
        r = self.range(node)
        if r is None:
            return None
        s, e = r
        text = self.text
        while True:
            i, j = s, e
            while i > 0 and text[i - 1] in " \t\r\n\\":
                i -= 1
            while j < len(text) and text[j] in " \t\r\n\\":
                j += 1
            if i > 0 and j < len(text) and text[i - 1] == "(" and text[j] == ")":
                s, e = i - 1, j + 1
            else:
                return s, e


def _contains(outer: _Span, span: _Span) -> bool:
    s, e = span
    if s == e:  # an insertion point: strictly inside
        return outer[0] < s < outer[1]
    return outer[0] <= s and e <= outer[1]


def _overlaps(node: _Span, span: _Span) -> bool:
    s, e = span
    if s == e:
        return node[0] < s < node[1]
    return node[0] < e and s < node[1]


def _children(node: ast.AST):
    """(field, index or None, child) for every child node."""
    for field, value in ast.iter_fields(node):
        if isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, ast.AST):
                    yield field, i, item
        elif isinstance(value, ast.AST):
            yield field, None, value


def _rewritten(tree: ast.AST, pos: _Positions, span: _Span) -> list[int]:
    """ids of the nodes ``span`` rewrote."""
    node = tree
    path = [tree]
    while True:
        inner = None
        for _, _, child in _children(node):
            r = pos.range(child)
            if r is not None and _contains(r, span):
                inner = child
                break
        if inner is None and span[0] < span[1]:
            for _, _, child in _children(node):
                r = pos.padded(child)
                if r is not None and _contains(r, span):
                    inner = child
                    break
        if inner is None:
            break
        node = inner
        path.append(node)
    # the outermost of nodes with the same range (an expression statement and its call)
    r = pos.range(node)
    while len(path) > 1 and r is not None and pos.range(path[-2]) == r:
        path.pop()
        node = path[-1]
    # inside a statement list (or the module) rather than one of its statements?
    for field, value in ast.iter_fields(node):
        if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
            ranges = [pos.range(v) for v in value]
            first, last = ranges[0], ranges[-1]
            if first is None or last is None:
                continue
            if isinstance(node, ast.Module) or (first[0] <= span[0] and span[1] <= last[1]):
                hit = [id(v) for v, r in zip(value, ranges) if r is not None and _overlaps(r, span)]
                if hit or isinstance(node, ast.Module):
                    return hit
    return [] if isinstance(node, ast.Module) else [id(node)]


def _mask(tree: ast.AST, masked: set[int]) -> None:
    stack = [tree]
    while stack:
        node = stack.pop()
        for field, value in ast.iter_fields(node):
            if isinstance(value, list):
                kept = [v for v in value if id(v) not in masked]
                if len(kept) != len(value):
                    setattr(node, field, kept)
                stack.extend(v for v in kept if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST):
                if id(value) in masked:
                    setattr(node, field, ast.Name(id=_MARK, ctx=ast.Load()))
                else:
                    stack.append(value)


def _parse(text: str) -> Optional[ast.AST]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return compile(text, "<fix>", "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def changed_outside(old: str, spans: Iterable[tuple[int, int, str]]) -> Optional[str]:
    """Apply ``spans`` (character offsets in ``old`` and their new text) and
    return why the result is not ``old`` with only the rewritten nodes changed,
    or None when it is (or when the result does not parse: the caller's compile
    check says why).  Raises ValueError when ``old`` does not parse."""
    ordered = sorted(spans, key=lambda t: (t[0], t[1]))
    parts, pos, shift = [], 0, 0
    old_spans: list[_Span] = []
    new_spans: list[_Span] = []
    for start, end, content in ordered:
        parts.append(old[pos:start])
        parts.append(content)
        pos = end
        old_spans.append((start, end))
        new_spans.append((start + shift, start + shift + len(content)))
        shift += len(content) - (end - start)
    parts.append(old[pos:])
    new = "".join(parts)
    before, after = _parse(old), _parse(new)
    if before is None:
        raise ValueError("the original text does not parse")
    if after is None:
        return None  # the fixer's compile check reports it, with Python's message
    try:
        for tree, text, edited in ((before, old, old_spans), (after, new, new_spans)):
            positions = _Positions(text)
            masked: set[int] = set()
            for span in edited:
                masked.update(_rewritten(tree, positions, span))
            _mask(tree, masked)
        if ast.dump(before) != ast.dump(after):
            return "would change the code outside the rewritten nodes"
    except RecursionError:
        return "the code is nested too deeply to verify the fix"
    return None
