"""``full`` (default): each finding with its source line and a caret under the range.

    model.py:3:9: JAX001 The file does not parse: ...
      |
    3 | def f(x:
      |         ^
      |
"""

from __future__ import annotations

from typing import Optional, TextIO

from rich.console import Console
from rich.text import Text

from jaxlint.findings import Finding, Severity
from jaxlint.output import OutputReport

_TAB = 4


def _frame(report: OutputReport, f: Finding) -> Optional[tuple[str, str, str]]:
    """(line number, the source line, the underline) for the finding's first line."""
    lines = report.finding_lines(f)
    if not lines or not 1 <= f.line <= len(lines):
        return None
    src = lines[f.line - 1]
    start = max(0, f.col - 1)
    end = f.end_col - 1 if f.end_line == f.line else len(src)
    end = max(end, start + 1)
    shown = src.expandtabs(_TAB)
    pad = _width(src[:start].expandtabs(_TAB))
    width = max(1, _width(src[:end].expandtabs(_TAB)) - pad)
    return str(f.line), shown, " " * pad + "^" * width


def _width(text: str) -> int:
    """Terminal columns of ``text``: an East Asian wide or full-width character takes two,
    a combining mark none (as Ruff places its carets)."""
    if text.isascii():
        return len(text)
    import unicodedata

    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def render(report: OutputReport, f: Finding) -> Text:
    text = Text()
    text.append(f.path, style="bold")
    cell = f"cell {f.cell}:" if f.cell is not None else ""
    text.append(f":{cell}{f.line}:{f.col}:", style="cyan")
    text.append(" ")
    style = "bold red" if f.severity is Severity.ERROR else "bold yellow"
    text.append(f.code, style=style)
    if report.is_fixable(f):
        text.append(" [*]", style="cyan")
    text.append(f" {f.message}\n")
    frame = _frame(report, f)
    if frame is not None:
        num, src, caret = frame
        gutter = " " * len(num)
        text.append(f"{gutter} |\n", style="blue")
        text.append(f"{num} |", style="blue")
        text.append(f" {src}\n")
        text.append(f"{gutter} |", style="blue")
        text.append(f" {caret}\n", style=style)
        text.append(f"{gutter} |\n", style="blue")
    for _path, _line, message in f.related:
        text.append("  = note: ", style="bold cyan")
        text.append(f"runs under a trace: {message}\n")
    if f.fix is not None:
        label = "help" if report.is_fixable(f) else "help (unsafe)"
        text.append(f"  = {label}: ", style="bold cyan")
        text.append(f"{f.fix.message}\n")
    return text


def write(report: OutputReport, out: TextIO, color: bool) -> None:
    console = Console(
        file=out,
        force_terminal=color,
        no_color=not color,
        highlight=False,
        soft_wrap=True,
        emoji=False,
        markup=False,
    )
    for f in report.findings:
        console.print(render(report, f))
