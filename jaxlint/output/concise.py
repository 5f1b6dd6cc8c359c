"""``concise``: one line per finding, ``path:line:col: CODE [*] message``."""

from __future__ import annotations

from typing import TextIO

from jaxlint.findings import Finding
from jaxlint.output import OutputReport


def format_finding(report: OutputReport, f: Finding) -> str:
    marker = " [*]" if report.is_fixable(f) else ""
    return f"{f.path}:{f.line}:{f.col}: {f.code}{marker} {f.message}"


def write(report: OutputReport, out: TextIO, color: bool) -> None:
    if color:
        from rich.console import Console
        from rich.text import Text

        console = Console(file=out, force_terminal=True, highlight=False, soft_wrap=True)
        for f in report.findings:
            line = Text()
            line.append(f.path, style="bold")
            line.append(f":{f.line}:{f.col}:", style="cyan")
            line.append(" ")
            line.append(f.code, style="bold red")
            if report.is_fixable(f):
                line.append(" [*]", style="cyan")
            line.append(f" {f.message}")
            console.print(line)
        return
    for f in report.findings:
        out.write(format_finding(report, f) + "\n")
