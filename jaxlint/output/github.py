"""``github``: GitHub Actions workflow commands that annotate the pull request.

    ::error title=jaxlint (JAX001),file=a.py,line=2,col=7,endLine=2,endColumn=7::message
"""

from __future__ import annotations

from typing import TextIO

from jaxlint.findings import Finding, Severity
from jaxlint.output import OutputReport

_COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def format_finding(f: Finding) -> str:
    props = ",".join(
        f"{k}={escape_property(str(v))}"
        for k, v in (
            ("title", f"jaxlint ({f.code})"),
            ("file", f.path),
            ("line", f.line),
            ("col", f.col),
            ("endLine", f.end_line),
            ("endColumn", f.end_col),
        )
    )
    # a notebook's line and column count in the cell, which the message names
    where = f"cell {f.cell}, line {f.line}: " if f.cell is not None else ""
    return f"::{_COMMANDS.get(f.severity, 'error')} {props}::{escape_data(where + f.message)}"


def write(report: OutputReport, out: TextIO, color: bool) -> None:
    for f in report.findings:
        out.write(format_finding(f) + "\n")
