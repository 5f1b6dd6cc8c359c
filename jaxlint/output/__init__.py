"""Output formats.  Each module renders one format: ``write(report, out, color)``.

``full`` (default) and ``concise`` are for people; ``json``, ``sarif``,
``github`` and ``junit`` are for machines.  ``statistics`` renders the
``--statistics`` table.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, TextIO

from jaxlint.findings import Applicability, FileResult, Finding
from jaxlint.ruleinfo import RuleInfo

FORMATS = ("full", "concise", "json", "sarif", "github", "junit")


@dataclass
class OutputReport:
    """Everything a format may need about one run."""

    results: list[FileResult]
    rules: tuple[RuleInfo, ...] = ()
    cwd: Path = field(default_factory=lambda: Path(os.getcwd()))
    unsafe_fixes: bool = False  # reserved for --unsafe-fixes: show unsafe fixes as applicable
    # text of files that are not on disk (stdin), by display path
    sources: dict[str, str] = field(default_factory=dict)
    findings: list[Finding] = field(init=False)
    # paths that could not be linted (missing, unreadable, undecodable)
    unchecked: int = 0

    def __post_init__(self) -> None:
        self.findings = sorted(
            (f for r in self.results for f in r.findings), key=Finding.sort_key
        )
        self._lines: dict[str, Optional[list[str]]] = {}

    def is_fixable(self, finding: Finding) -> bool:
        """Whether ``--fix`` (with the current unsafe setting) would apply the fix."""
        fix = finding.fix
        if fix is None:
            return False
        return fix.applicability is Applicability.SAFE or self.unsafe_fixes

    def fix_counts(self) -> tuple[int, int]:
        """(fixable now, fixable only with --unsafe-fixes)."""
        fixable = sum(1 for f in self.findings if self.is_fixable(f))
        hidden = sum(1 for f in self.findings if f.fix is not None and not self.is_fixable(f))
        return fixable, hidden

    def source_lines(self, path: str) -> Optional[list[str]]:
        """The lines of ``path`` (for code frames); None when unreadable."""
        if path not in self._lines:
            text = self.sources.get(path)
            if text is None:
                try:
                    data = (self.cwd / path).read_bytes()
                    text = data.decode("utf-8-sig", errors="replace")
                except OSError:
                    text = None
            self._lines[path] = text.splitlines() if text is not None else None
        return self._lines[path]


def write(fmt: str, report: OutputReport, out: TextIO, color: bool = False) -> None:
    """Render ``report`` in format ``fmt`` onto ``out``."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown output format {fmt!r}")
    module = importlib.import_module(f"jaxlint.output.{fmt}")
    module.write(report, out, color)


def summary_line(report: OutputReport) -> str:
    """``Found N errors (M fixable with --fix; K more with --unsafe-fixes).``"""
    n = len(report.findings)
    unchecked = max(sum(1 for r in report.results if r.error), report.unchecked)
    if n == 0:
        if unchecked:
            return f"No findings, but {unchecked} path{'s' if unchecked != 1 else ''} could not be checked (see the errors)."
        return "All checks passed!"
    fixable, hidden = report.fix_counts()
    text = f"Found {n} error{'s' if n != 1 else ''}"
    parts = []
    if fixable:
        parts.append(f"{fixable} fixable with --fix")
    if hidden:
        parts.append(
            f"{hidden} more with --unsafe-fixes"
            if fixable
            else f"{hidden} fixable with --unsafe-fixes"
        )
    if parts:
        text += f" ({'; '.join(parts)})"
    return text + "."
