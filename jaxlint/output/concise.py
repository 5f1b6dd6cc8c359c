"""``concise``: one line per finding, ``path:line:col: CODE [*] message``."""

from __future__ import annotations

import re
from typing import TextIO

from jaxlint.findings import Finding
from jaxlint.output import OutputReport


_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")


def escape_path(path: str) -> str:
    """A path on one line: control characters (a newline in a file name) as
    Python escapes (``\\n``, ``\\x1b``), so one finding is always one line."""
    return _CONTROL_RE.sub(lambda m: repr(m.group())[1:-1], path)


def format_finding(report: OutputReport, f: Finding) -> str:
    marker = " [*]" if report.is_fixable(f) else ""
    cell = f"cell {f.cell}:" if f.cell is not None else ""
    return f"{escape_path(f.path)}:{cell}{f.line}:{f.col}: {f.code}{marker} {f.message}"


def write(report: OutputReport, out: TextIO, color: bool) -> None:
    if color:
        from rich.console import Console
        from rich.text import Text

        console = Console(file=out, force_terminal=True, highlight=False, soft_wrap=True)
        for f in report.findings:
            line = Text()
            line.append(escape_path(f.path), style="bold")
            cell = f"cell {f.cell}:" if f.cell is not None else ""
            line.append(f":{cell}{f.line}:{f.col}:", style="cyan")
            line.append(" ")
            line.append(f.code, style="bold red")
            if report.is_fixable(f):
                line.append(" [*]", style="cyan")
            line.append(f" {f.message}")
            console.print(line)
        return
    for f in report.findings:
        out.write(format_finding(report, f) + "\n")
