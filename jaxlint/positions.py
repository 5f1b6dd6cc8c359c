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
    state = _TargetedState(module, set(targets))
    module._codegen(state)
    return state.ranges
