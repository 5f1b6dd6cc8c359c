"""Source positions for just the nodes that have findings.

libcst's ``PositionProvider`` records a range for every node of the file and
costs about 1.4x a parse; a plain codegen pass costs about 0.2x.  This module
runs one plain codegen pass with a state that tracks the line and column
lazily and records ranges only for the requested nodes, and it runs only for
files that produced a finding.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterable, Iterator, Optional

import libcst as cst
from libcst._nodes.internal import CodegenState

Position = tuple[int, int]  # (line 1-based, column 0-based)


class _TargetedState(CodegenState):
    """A codegen state that notes where selected nodes start and end."""

    def __init__(self, module: cst.Module, targets: set[int]) -> None:
        super().__init__(
            default_indent=module.default_indent,
            default_newline=module.default_newline,
        )
        self.targets = targets
        self.ranges: dict[int, tuple[Position, Position]] = {}
        self._scanned = 0  # tokens consumed into (line, col)
        self._line = 1
        self._col = 0
        self._stack: list[Position] = []

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
                self.ranges[key] = (start, self._now())

    def _now(self) -> Position:
        tokens = self.tokens
        line, col = self._line, self._col
        for i in range(self._scanned, len(tokens)):
            tok = tokens[i]
            nl = tok.count("\n")
            if nl:
                line += nl
                col = len(tok) - tok.rfind("\n") - 1
            else:
                col += len(tok)
        self._scanned = len(tokens)
        self._line, self._col = line, col
        return (line, col)

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
                start = self.ranges[id(start_node)][0]
            if end_node is not None and id(end_node) in self.ranges:
                end = self.ranges[id(end_node)][1]
            self.ranges[key] = (start, end)


def node_ranges(
    module: cst.Module, nodes: Iterable[cst.CSTNode]
) -> dict[int, tuple[Position, Position]]:
    """Map ``id(node)`` to ((line, col), (end_line, end_col)) for each node.

    Columns are 0-based here, as libcst counts them.  Ranges match libcst's
    ``PositionProvider`` for statements and expressions; the few node classes
    without a syntactic position get their whitespace-inclusive range.
    """
    targets = {id(n) for n in nodes}
    if _statement_cache is not None and targets:
        ranges = _ranges_by_statement(module, targets, _statement_cache)
        if ranges is not None:
            return ranges
    state = _TargetedState(module, set(targets))
    module._codegen(state)
    return state.ranges


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
    from jaxlint.model.walk import children

    ids = []
    stack = [node]
    while stack:
        n = stack.pop()
        ids.append(id(n))
        stack.extend(children(n))
    return frozenset(ids)


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
    module: cst.Module, targets: set[int], cache: StatementCache
) -> Optional[dict[int, tuple[Position, Position]]]:
    """``node_ranges`` generating code only for the statements holding a target;
    None when some target is not under a top-level statement (the caller then
    generates the whole module)."""
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
        code = e[2]
        nl = code.count("\n")
        if nl:
            state._line += nl
            state._col = len(code) - code.rfind("\n") - 1
        else:
            state._col += len(code)
    return state.ranges
