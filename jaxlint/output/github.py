"""``github``: GitHub Actions workflow commands that annotate the pull request.

    ::error title=jaxlint (JAX001),file=a.py,line=2,col=7,endLine=2,endColumn=7::message
"""

from __future__ import annotations

from typing import Optional, TextIO

from jaxlint.findings import Finding, Severity
from jaxlint.output import OutputReport

_COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def format_finding(f: Finding, report: Optional[OutputReport] = None) -> str:
    if f.cell is None:
        where = ""
        place: tuple = (("line", f.line), ("col", f.col), ("endLine", f.end_line), ("endColumn", f.end_col))
    else:
        # a notebook: GitHub anchors the annotation to a line of the .ipynb file's
        # JSON text, so the line is the one that holds the cell's source line (no
        # column: the JSON line has quotes and escapes); the message names the cell,
        # line and column
        where = f"cell {f.cell}, line {f.line}, column {f.col}: "
        line = report.file_line(f, f.line) if report is not None else f.line
        end = report.file_line(f, f.end_line) if report is not None else f.end_line
        place = (("line", line), ("endLine", max(end, line)))
    props = ",".join(
        f"{k}={escape_property(str(v))}"
        for k, v in (("title", f"jaxlint ({f.code})"), ("file", f.path), *place)
    )
    return f"::{_COMMANDS.get(f.severity, 'error')} {props}::{escape_data(where + f.message)}"


def write(report: OutputReport, out: TextIO, color: bool) -> None:
    for f in report.findings:
        out.write(format_finding(f, report) + "\n")
