"""Source positions for just the nodes that have findings.

libcst's ``PositionProvider`` records a range for every node of the file and
costs about 1.4x a parse; a plain codegen pass costs about 0.2x.  This module
runs one plain codegen pass with a state that counts the characters generated
and records the offsets of only the requested nodes, and it runs only for
files that produced a finding.  Offsets become lines and columns through
``jaxlint.parse.lines`` (lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r``, as
CPython and libcst count them), the one conversion every part of jaxlint uses.
"""

from __future__ import annotations

import bisect
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, Optional

import libcst as cst

from jaxlint.parse.libcst_compat import CodegenState
from jaxlint.parse.lines import LineIndex

Position = tuple[int, int]  # (line 1-based, column 0-based, in characters)
# (start offset, end offset, index of the first token, index after the last token)
_Span = tuple[int, int, int, int]


class _TargetedState(CodegenState):
    """A codegen state that notes where selected nodes start and end."""

    def __init__(self, module: cst.Module, targets: set[int]) -> None:
        super().__init__(
            default_indent=module.default_indent,
            default_newline=module.default_newline,
        )
        self.targets = targets
        self.ranges: dict[int, _Span] = {}
        self._scanned = 0  # tokens counted into the offset
        self._pos = 0  # characters generated (or skipped) so far
        self._stack: list[tuple[int, int]] = []

    # whitespace-inclusive fallback for the few node classes (Index, Param...)
    # that do not record a syntactic position themselves
    def before_codegen(self, node: cst.CSTNode) -> None:
        if id(node) in self.targets:
            self._stack.append(self._now())

    def after_codegen(self, node: cst.CSTNode) -> None:
        key = id(node)
        if key in self.targets:
            start = self._stack.pop()
            if key not in self.ranges:
                end = self._now()
                self.ranges[key] = (start[0], end[0], start[1], end[1])

    def _now(self) -> tuple[int, int]:
        """(offset, token index) of the code generated so far."""
        tokens = self.tokens
        pos = self._pos
        for i in range(self._scanned, len(tokens)):
            pos += len(tokens[i])
        self._scanned = len(tokens)
        self._pos = pos
        return pos, len(tokens)

    @contextmanager
    def record_syntactic_position(
        self,
        node: cst.CSTNode,
        *,
        start_node: Optional[cst.CSTNode] = None,
        end_node: Optional[cst.CSTNode] = None,
    ) -> Iterator[None]:
        key = id(node)
        if key not in self.targets:
            yield
            return
        if start_node is not None:
            self.targets.add(id(start_node))
        if end_node is not None:
            self.targets.add(id(end_node))
        start = self._now()
        try:
            yield
        finally:
            end = self._now()
            if start_node is not None and id(start_node) in self.ranges:
                r = self.ranges[id(start_node)]
                start = (r[0], r[2])
            if end_node is not None and id(end_node) in self.ranges:
                r = self.ranges[id(end_node)]
                end = (r[1], r[3])
            self.ranges[key] = (start[0], end[0], start[1], end[1])


def node_spans(
    module: cst.Module, nodes: Iterable[cst.CSTNode], text: Optional[str] = None
) -> dict[int, tuple[int, int, str]]:
    """Map ``id(node)`` to (start offset, end offset, the node's code) for each
    node: offsets into ``text`` (the source the module was parsed from; its
    code when not given), the code as libcst prints it between them (what a
    fix of the node means to replace)."""
    targets = {id(n) for n in nodes}
    state: Optional[_TargetedState] = None
    if _statement_cache is not None and targets:
        state = _state_by_statement(module, targets, _statement_cache)
        if state is not None and text is not None:
            size = state._pos + sum(len(module.code_for_node(line)) for line in module.footer)
            if size != len(text):
                state = None  # the module does not print back to the text: see below
    shift = None
    if state is None:
        state = _TargetedState(module, set(targets))
        module._codegen(state)
        if text is not None:
            shift = _shift(state.tokens, text)
    tokens = state.tokens
    spans = {key: (s, e, "".join(tokens[ts:te])) for key, (s, e, ts, te) in state.ranges.items()}
    if shift is not None:
        spans = {key: (shift(s), shift(e, True), code) for key, (s, e, code) in spans.items()}
    return spans


_DROPPED = " \t\f"


def _shift(tokens: list[str], text: str) -> Optional[Callable[..., int]]:
    """Maps offsets in libcst's printed code to offsets in ``text`` where the
    two differ; None when they are equal (or cannot be matched).  libcst drops
    a form feed that starts a top-level statement's line (``\\f`` then
    ``x = 1``: every later offset moves by one character) and a lone ``\\r``
    that ends the file."""
    code = "".join(tokens)
    if code == text:
        return None
    points: list[int] = []  # code offsets where a dropped character of the text follows
    i = j = 0
    n, m = len(code), len(text)
    block = 4096
    while i < n or j < m:
        if code[i:i + block] == text[j:j + block]:
            i += block
            j += block
            continue
        if i < n and j < m and code[i] == text[j]:
            i += 1
            j += 1
        elif j < m and (text[j] in _DROPPED or (i == n and text[j] in "\r\n")):
            points.append(i)
            j += 1
        else:
            return None
    # a node that starts where a character was dropped starts after it; one that ends there, before it
    return lambda offset, end=False: offset + (bisect.bisect_left if end else bisect.bisect_right)(points, offset)


def node_ranges(
    module: cst.Module, nodes: Iterable[cst.CSTNode], text: Optional[str] = None
) -> dict[int, tuple[Position, Position]]:
    """Map ``id(node)`` to ((line, col), (end_line, end_col)) for each node.

    Columns are 0-based here, as libcst counts them.  Ranges match libcst's
    ``PositionProvider`` for statements and expressions; the few node classes
    without a syntactic position get their whitespace-inclusive range.
    ``text``: the module's source (its code is generated when not given).
    """
    spans = node_spans(module, nodes, text)
    index = LineIndex(module.code if text is None else text)
    return {key: (index.position(s), index.position(e)) for key, (s, e, _) in spans.items()}


# ----------------------------------------------------------------------------- statement cache


class StatementCache:
    """Remembers, for each top-level statement object, its code and the ids of
    the nodes under it, so that ``node_ranges`` generates code only for the
    statements that hold a requested node and merely counts the lines of the
    others.  Worth it only when statement objects are reused from one lint to
    the next (the language server's incremental parse); ``jaxlint check``
    never turns it on.  Entries unused for ``KEEP`` calls are dropped."""

    KEEP = 8

    def __init__(self) -> None:
        self._entries: dict[tuple, list] = {}  # key -> [stmt, ids, code, last call]
        self._calls = 0

    def entry(self, stmt: cst.CSTNode, module: cst.Module) -> list:
        key = (id(stmt), module.default_indent, module.default_newline)
        e = self._entries.get(key)
        if e is None or e[0] is not stmt:
            e = [stmt, _subtree_ids(stmt), module.code_for_node(stmt), 0]
            self._entries[key] = e
        e[3] = self._calls
        return e

    def end_call(self) -> None:
        self._calls += 1
        old = self._calls - self.KEEP
        for key in [k for k, e in self._entries.items() if e[3] < old]:
            del self._entries[key]


def _subtree_ids(node: cst.CSTNode) -> frozenset[int]:
    from jaxlint.model.walk import walk_tree

    return frozenset(id(n) for n in walk_tree(node))


_statement_cache: Optional[StatementCache] = None


@contextmanager
def statement_cache(cache: StatementCache) -> Iterator[None]:
    """Use ``cache`` in ``node_ranges`` for the duration (one thread at a time)."""
    global _statement_cache
    previous, _statement_cache = _statement_cache, cache
    try:
        yield
    finally:
        _statement_cache = previous


def _ranges_by_statement(
    module: cst.Module, targets: set[int], cache: StatementCache, text: Optional[str] = None
) -> Optional[dict[int, tuple[Position, Position]]]:
    """``node_ranges`` generating code only for the statements holding a target;
    None when some target is not under a top-level statement."""
    state = _state_by_statement(module, targets, cache)
    if state is None:
        return None
    index = LineIndex(module.code if text is None else text)
    return {key: (index.position(s), index.position(e)) for key, (s, e, _, _) in state.ranges.items()}


def _state_by_statement(
    module: cst.Module, targets: set[int], cache: StatementCache
) -> Optional[_TargetedState]:
    """``node_spans``'s state, generating code only for the statements holding
    a target; None when some target is not under a top-level statement (the
    caller then generates the whole module)."""
    entries = [cache.entry(stmt, module) for stmt in module.body]
    cache.end_call()
    covered: set[int] = set()
    holds = []
    for e in entries:
        hit = targets & e[1]
        holds.append(bool(hit))
        covered |= hit
    if covered != targets:
        return None
    state = _TargetedState(module, set(targets))
    for line in module.header:
        line._codegen(state)
    for stmt, e, held in zip(module.body, entries, holds):
        if held:
            stmt._codegen(state)
            continue
        state._now()  # count what was generated so far, then skip this statement's code
        state._pos += len(e[2])
    return state
