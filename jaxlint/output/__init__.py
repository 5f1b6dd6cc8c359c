"""Output formats.  Each module renders one format: ``write(report, out, color)``.

``full`` (default) and ``concise`` are for people; ``json``, ``sarif``,
``github``, ``gitlab`` and ``junit`` are for machines.  ``statistics`` renders the
``--statistics`` table.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, TextIO

from jaxlint.findings import Applicability, FileResult, Finding
from jaxlint.parse.lines import split_lines
from jaxlint.workspace.ruleinfo import RuleInfo

FORMATS = ("full", "concise", "json", "sarif", "github", "gitlab", "junit")


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
    # what --baseline hid and found stale (jaxlint.output.baseline.Outcome), when one is used
    baseline: Optional[Any] = None
    # a documentation address per rule code, when one is configured (docs-url)
    docs_url: Optional[str] = None

    def __post_init__(self) -> None:
        self.findings = sorted(
            (f for r in self.results for f in r.findings), key=Finding.sort_key
        )
        self._lines: dict[str, Optional[list[str]]] = {}
        self._json_lines: dict[str, dict[int, list[int]]] = {}
        self._json_places: dict[str, Any] = {}  # notebook path -> parse.notebook.JsonPlaces

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

    def source_text(self, path: str) -> Optional[str]:
        """The text of ``path`` (stdin's, or read from disk); None when unreadable."""
        text = self.sources.get(path)
        if text is None:
            try:
                data = (self.cwd / path).read_bytes()
            except OSError:
                return None
            text = _decode(data)
        return text

    def source_lines(self, path: str) -> Optional[list[str]]:
        """The lines of ``path`` (for code frames); None when unreadable."""
        if path not in self._lines:
            text = self.source_text(path)
            self._lines[path] = split_lines(text) if text is not None else None
        return self._lines[path]

    def finding_lines(self, f: Finding) -> Optional[list[str]]:
        """The lines a finding's line and column count in: its file's, or in a
        notebook its cell's."""
        if f.cell is None:
            return self.source_lines(f.path)
        key = f"{f.path}\0cell {f.cell}"
        if key not in self._lines:
            self._lines[key] = None
            text = self.source_text(f.path)
            if text is not None:
                from jaxlint.parse.notebook import Notebook, NotebookError

                try:
                    self._lines[key] = Notebook.from_bytes(text.encode("utf-8")).cell_lines(f.cell)
                except NotebookError:
                    pass
        return self._lines[key]

    def file_line(self, f: Finding, line: int) -> int:
        """``line`` of ``f`` as a line of its file: in a notebook, where a finding's
        lines count in its cell, the line of the notebook's JSON text on which that
        cell line is kept (what GitHub and GitLab anchor annotations to); the line
        itself elsewhere, or when the JSON cannot be read."""
        if f.cell is None:
            return line
        key = f"{f.path}\0json"
        if key not in self._json_lines:
            places = self._places(f.path)
            self._json_lines[key] = places.lines() if places is not None else {}
        starts = self._json_lines[key].get(f.cell) or []
        if not starts:
            return line
        return starts[min(max(line, 1), len(starts)) - 1]

    def file_region(self, f: Finding) -> Optional[tuple[int, int, int, int]]:
        """A notebook finding's range as (line, column, end line, end column) of the
        notebook's JSON text, every one 1-based (the characters of the cell's source
        inside its JSON strings); None for a finding that is not in a notebook, or
        when the JSON cannot be read."""
        if f.cell is None:
            return None
        places = self._places(f.path)
        if places is None:
            return None
        start = places.place(f.cell, f.line, f.col)
        end = places.place(f.cell, f.end_line, f.end_col, end=True)
        if start is None or end is None or end < start:
            return None
        return (*start, *end)

    def _places(self, path: str) -> Any:
        if path not in self._json_places:
            from jaxlint.parse.notebook import JsonPlaces

            text = self.source_text(path)
            self._json_places[path] = JsonPlaces(text) if text is not None else None
        return self._json_places[path]

    def rule_url(self, code: str) -> Optional[str]:
        """The documentation address of a rule: only when ``docs-url`` configures one."""
        if not self.docs_url:
            return None
        return self.docs_url.replace("{code}", code)

    def fingerprints(self) -> dict[int, Any]:
        """The line-free identity (``jaxlint.output.baseline.Entry``) of every finding
        shown and hidden, by ``id(finding)``; paths relative to ``cwd``."""
        if getattr(self, "_entries", None) is None:
            from jaxlint.output.baseline import compute_entries

            shown = list(self.findings)
            hidden = list(self.baseline.unchanged) if self.baseline is not None else []
            everything = shown + hidden
            entries = compute_entries(everything, self.source_text, self.cwd)
            self._entries = {id(f): e for f, e in zip(everything, entries)}
        return self._entries


def _decode(data: bytes) -> str:
    """A file's text as Python reads it (BOM, PEP 263 cookie), never failing;
    without importing the linter (and libcst) on a cached run."""
    import io
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding, errors="replace")
    except (SyntaxError, LookupError):
        text = data.decode("utf-8", errors="replace")
    return text[1:] if text.startswith("\ufeff") else text


def write(fmt: str, report: OutputReport, out: TextIO, color: bool = False) -> None:
    """Render ``report`` in format ``fmt`` onto ``out``."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown output format {fmt!r}")
    module = importlib.import_module(f"jaxlint.output.{fmt}")
    module.write(report, out, color)


_SEVERITY_WORDS = (("error", "errors"), ("warning", "warnings"), ("info", "info findings"))


def count_phrase(severities: list[str]) -> str:
    """``2 errors``, ``1 warning``, or ``3 findings: 2 errors, 1 warning``:
    the words match the findings' severities."""
    counts = {name: severities.count(name) for name, _ in _SEVERITY_WORDS}
    other = len(severities) - sum(counts.values())
    parts = [
        f"{counts[name]} {one if counts[name] == 1 else many}"
        for name, many in _SEVERITY_WORDS
        for one in [name if name != "info" else "info finding"]
        if counts[name]
    ]
    if other:
        parts.append(f"{other} other")
    if len(parts) == 1 and not other:
        return parts[0]
    n = len(severities)
    return f"{n} finding{'s' if n != 1 else ''}: {', '.join(parts)}"


def severities_of(findings: list[Finding]) -> list[str]:
    return [f.severity.value for f in findings]


def summary_line(report: OutputReport) -> str:
    """``Found N errors (M fixable with --fix; K more with --unsafe-fixes).``,
    then what the baseline hid, if one is used."""
    return _findings_sentence(report) + baseline_sentence(report)


def baseline_sentence(report: OutputReport) -> str:
    """`` 3 findings hidden by the baseline B; 1 baselined finding no longer
    occurs (...).`` (empty without a baseline)."""
    b = report.baseline
    if b is None:
        return ""
    hidden = len(b.unchanged)
    text = f" {hidden} finding{'s' if hidden != 1 else ''} hidden by the baseline {b.path}"
    stale = len(b.absent)
    if stale:
        text += (f"; {stale} baselined finding{'s' if stale != 1 else ''} no longer "
                 f"occur{'s' if stale == 1 else ''} (drop {'them' if stale != 1 else 'it'} with "
                 f"`jaxlint check --baseline {b.path} --write-baseline {b.path}`)")
    return text + "."


def _findings_sentence(report: OutputReport) -> str:
    n = len(report.findings)
    unchecked = max(sum(1 for r in report.results if r.error), report.unchecked)
    if n == 0:
        if unchecked:
            return f"No findings, but {unchecked} path{'s' if unchecked != 1 else ''} could not be checked (see the errors)."
        return "All checks passed!"
    fixable, hidden = report.fix_counts()
    text = f"Found {count_phrase(severities_of(report.findings))}"
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
    return text + unchecked_clause(report) + "."


def unchecked_clause(report: OutputReport) -> str:
    """"; N paths could not be checked (see the errors)" after a count of findings,
    or "" when every path was checked."""
    unchecked = max(sum(1 for r in report.results if r.error), report.unchecked)
    if not unchecked:
        return ""
    return f"; {unchecked} path{'s' if unchecked != 1 else ''} could not be checked (see the errors)"
