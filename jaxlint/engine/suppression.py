"""Inline suppression comments.

``# noqa`` (every rule on that line), ``# noqa: JAX101, JAX201`` (those rules),
``# jaxlint: ignore[JAX101]`` / ``# jaxlint: ignore`` (the same, jaxlint's own
spelling).  A comment on either the first or the last line of a finding's
range counts, so multi-line statements can carry it where formatters leave it.
File-level ``# jaxlint: skip-file`` is handled before parsing.
"""

from __future__ import annotations

import re
import tokenize

from jaxlint.parse.lines import readline, split_lines

_NOQA_RE = re.compile(
    r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.IGNORECASE
)
_IGNORE_RE = re.compile(r"#\s*jaxlint:\s*ignore(?:\[(?P<codes>[^\]]*)\])?")
_ALL = "*"


def _codes(text: str | None) -> set[str]:
    if not text:
        return {_ALL}
    return {c.strip().upper() for c in re.split(r"[\s,]+", text) if c.strip()}


class Suppressions:
    def __init__(self, text: str) -> None:
        self.by_line: dict[int, set[str]] = {}
        self.text: str | None = text
        self._moved: dict[int, int] | None = None
        if "noqa" not in text and "jaxlint:" not in text:
            return
        for lineno, line in enumerate(split_lines(text), start=1):
            if "#" not in line:
                continue
            codes: set[str] = set()
            for m in _NOQA_RE.finditer(line):
                codes |= _codes(m.group("codes"))
            for m in _IGNORE_RE.finditer(line):
                codes |= _codes(m.group("codes"))
            if codes:
                self.by_line[lineno] = codes

    def codes_on(self, line: int) -> set[str]:
        return self.by_line.get(line, set())

    def is_suppressed(self, code: str, line: int, end_line: int | None = None) -> bool:
        lines = {line, end_line or line}
        if self.by_line and self.text is not None:
            # a line inside a multi-line string or ending in a backslash cannot
            # carry a comment: its `# noqa` sits where `--add-noqa` puts it
            if self._moved is None:
                self._moved = comment_lines(self.text)
            lines |= {self._moved[ln] for ln in lines if ln in self._moved}
        for ln in lines:
            codes = self.by_line.get(ln)
            if codes and (_ALL in codes or code in codes):
                return True
        return False


def comment_lines(text: str) -> dict[int, int]:
    """Lines that cannot end with a comment -> the line where it goes instead.

    A line inside (not the last line of) a multi-line string, or one ending
    with a backslash continuation, cannot carry a ``# noqa``; its comment goes
    on the first later line of the statement that can (the string's last line,
    the continuation's end).
    """
    moved: dict[int, int] = {}
    try:
        tokens = list(tokenize.generate_tokens(readline(text)))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return moved
    blocked: set[int] = set()
    commented: set[int] = set()
    for tok in tokens:
        if tok.type == tokenize.STRING or tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            for ln in range(tok.start[0], tok.end[0]):
                blocked.add(ln)
        elif tok.type == tokenize.COMMENT:
            commented.add(tok.start[0])
    for i, line in enumerate(split_lines(text), start=1):
        if line.endswith("\\") and i not in blocked and i not in commented:
            blocked.add(i)
    for ln in sorted(blocked):
        target = ln + 1
        while target in blocked:
            target += 1
        moved[ln] = target
    return moved
