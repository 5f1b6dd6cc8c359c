"""Applying fixes to source text (pure functions; no file I/O).

Edits carry 1-based line/column positions as libcst counts them (lines end at
``\\n``, ``\\r\\n`` or ``\\r``; columns count characters).  Edits of one fix
apply together; fixes whose edits overlap an already accepted one are left
for the next pass (the earliest, outermost fix wins).
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from jaxlint.findings import Applicability, Edit, Finding

_LINE_RE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


def line_offsets(text: str) -> list[int]:
    """Offset of the start of each line (index 0 is line 1)."""
    offsets = [0]
    pos = 0
    for m in _LINE_RE.finditer(text):
        if not m.group(0):
            break
        pos = m.end()
        offsets.append(pos)
    return offsets


def _offset(offsets: list[int], line: int, col: int) -> int:
    if line - 1 >= len(offsets):
        return offsets[-1]
    return offsets[line - 1] + col - 1


def fixable(f: Finding, unsafe: bool) -> bool:
    if f.fix is None:
        return False
    return f.fix.applicability == Applicability.SAFE or unsafe


def apply_edits(text: str, fixes: Iterable[Sequence[Edit]]) -> tuple[str, int]:
    """Apply non-overlapping groups of edits; return (new_text, groups applied)."""
    offsets = line_offsets(text)
    accepted: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = []
    applied = 0
    for edits in fixes:
        spans = [
            (_offset(offsets, e.line, e.col), _offset(offsets, e.end_line, e.end_col), e.content)
            for e in edits
        ]
        if any(not (end <= s or start >= e) for start, end, _ in spans for s, e in taken):
            continue  # overlaps a fix already taken: next pass
        accepted.extend(spans)
        taken.extend((s, e) for s, e, _ in spans)
        applied += 1
    for start, end, content in sorted(accepted, key=lambda t: t[0], reverse=True):
        text = text[:start] + content + text[end:]
    return text, applied


def apply_findings(text: str, findings: Iterable[Finding], unsafe: bool = False) -> tuple[str, int]:
    chosen = sorted(
        (f for f in findings if fixable(f, unsafe)),
        key=lambda f: (f.line, f.col, -(f.end_line), -(f.end_col)),
    )
    return apply_edits(text, (f.fix.edits for f in chosen if f.fix is not None))
