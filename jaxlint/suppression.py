"""Inline suppression comments.

``# noqa`` (every rule on that line), ``# noqa: JAX101, JAX201`` (those rules),
``# jaxlint: ignore[JAX101]`` / ``# jaxlint: ignore`` (the same, jaxlint's own
spelling).  A comment on either the first or the last line of a finding's
range counts, so multi-line statements can carry it where formatters leave it.
File-level ``# jaxlint: skip-file`` is handled before parsing.
"""

from __future__ import annotations

import re

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
        if "noqa" not in text and "jaxlint:" not in text:
            return
        for lineno, line in enumerate(text.splitlines(), start=1):
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
        for ln in {line, end_line or line}:
            codes = self.by_line.get(ln)
            if codes and (_ALL in codes or code in codes):
                return True
        return False
