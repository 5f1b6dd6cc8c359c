"""``gitlab``: a GitLab Code Quality report (``artifacts:reports:codequality``).

A JSON array with one object per finding, with the fields GitLab documents
for custom tools: ``description``, ``check_name``, ``fingerprint``,
``severity`` and ``location.path`` / ``location.lines.begin`` (``end`` too).

The fingerprint is the finding's line-free identity (see ``jaxlint.output.baseline``),
so a finding whose lines moved is the same issue to the merge-request widget,
and two identical findings in one function still get different fingerprints.
Severities: error -> ``major``, warning -> ``minor``, info -> ``info``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from jaxlint.findings import Severity
from jaxlint.output import OutputReport

SEVERITIES = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def _path(report: OutputReport, path: str) -> str:
    p = Path(path)
    if p.is_absolute():
        try:
            return p.resolve().relative_to(report.cwd.resolve()).as_posix()
        except (ValueError, OSError):
            return p.as_posix()
    return p.as_posix().removeprefix("./")


def _cell(f) -> str:
    """A notebook's line counts in the cell, which the description names."""
    return f"(cell {f.cell}, line {f.line}) " if f.cell is not None else ""


def build(report: OutputReport) -> list[dict[str, Any]]:
    entries = report.fingerprints()
    issues = []
    for f in report.findings:
        issues.append({
            "description": f"{f.code} {_cell(f)}{f.message}",
            "check_name": f.code,
            "fingerprint": entries[id(f)].fingerprint,
            "severity": SEVERITIES.get(f.severity, "major"),
            "location": {
                "path": _path(report, f.path),
                # a notebook's: the lines of its JSON text that hold the cell's lines
                "lines": {"begin": max(1, report.file_line(f, f.line)),
                          "end": max(1, report.file_line(f, f.end_line), report.file_line(f, f.line))},
            },
        })
    return issues


def write(report: OutputReport, out: TextIO, color: bool) -> None:
    json.dump(build(report), out, indent=2, ensure_ascii=False)
    out.write("\n")
