"""Printing a runtime report: a rich table, JSON, or SARIF (verdicts in properties)."""

from __future__ import annotations

import json
import sys
from typing import Any, Optional, TextIO

from jaxlint.runtime import notebooks
from jaxlint.runtime.driver import RuntimeReport


def _fmt_s(v: Optional[float]) -> str:
    if v is None:
        return "-"
    if v >= 1:
        return f"{v:.2f} s"
    if v >= 1e-3:
        return f"{v * 1e3:.2f} ms"
    return f"{v * 1e6:.0f} us"


def _fmt_bytes(v: Optional[int]) -> str:
    if v is None:
        return "-"
    for unit in ("B", "KiB", "MiB", "GiB"):
        if v < 1024 or unit == "GiB":
            return f"{v:.0f} {unit}" if unit == "B" else f"{v:.1f} {unit}"
        v /= 1024  # type: ignore[assignment]
    return str(v)


# how a run line ends for a command that did not run to its end (MCP's confirm reads it)
FAILED_RUN_NOTE = "; what it observed before is used"


def run_lines(report: RuntimeReport) -> list[str]:
    """One line per --run command: how it ended and how many processes the recorder saw."""
    out = []
    for r in report.runs:
        line = (f"{notebooks.run_named(r['command'])}: {r['status']} in {r['wall_s']:.1f} s, "
                f"{r['processes']} Python process(es) recorded")
        if r["status"] != "ok" and r["status"] and not r["status"].startswith("not run"):
            line += FAILED_RUN_NOTE
            from jaxlint.runtime.observe import last_line

            last = last_line(r.get("output_tail") or "")
            if last:
                line += f" (last output: {last[:160]})"
        out.append(line)
    return out + list(report.problems)


def bench_rows(report: RuntimeReport) -> list[tuple[str, str, dict]]:
    """(where, label, bench dict) for every benchmark in the report."""
    rows = []
    for f in report.findings:
        b = (f.runtime or {}).get("bench")
        if b:
            where = f.where.rsplit(":", 1)[0]  # path:line (path:cell N:line in a notebook)
            rows.append((f"{where} {f.code} {f.function}", b.get("candidate", ""), b))
    for p in report.pairs:
        rows.append((f"{p.get('path')} {p.get('function')}", p.get("candidate", ""), p))
    return rows


def _variant_cells(v: dict) -> list[str]:
    """Compile, steady, compiles, eqns, temp memory: an empty cell says why."""
    if "not_run" in v:
        return ["not run: it raises", "n/a (not run)", "n/a", "n/a", "n/a"]
    if "error" in v:
        return [f"error: {v['error']}"[:60], "n/a (failed)", "n/a", "n/a", "n/a"]
    steady = (f"{_fmt_s(v.get('steady_median_s'))} "
              f"[{_fmt_s(v.get('steady_min_s'))}..{_fmt_s(v.get('steady_max_s'))}]")
    mem = v.get("memory") or {}
    eq = v.get("eqns")
    not_jitted = v.get("mode") == "called as written"
    compile_cell = _fmt_s(v.get("compile_s"))
    if not_jitted and not v.get("compiles_first_call"):
        # no function of the user's compiled: the time is the eager jnp ops' own little jits
        compile_cell = f"n/a: not jitted (JAX's eager ops compiled in {compile_cell})"
    return [
        compile_cell,
        steady,
        f"{v.get('compiles_first_call', '-')}/{v.get('compiles_per_steady_call', 0):g}",
        str(eq) if eq is not None else ("n/a: not jitted" if not_jitted else "n/a: no jaxpr"),
        _fmt_bytes(mem.get("temp_size")) if mem else (
            "n/a: not jitted" if not_jitted else "n/a: no memory_analysis"),
    ]


def _agree_cell(b: dict) -> str:
    agree = b.get("outputs_agree")
    if agree is None:
        text = "n/a: the original raises" if "not_run" in b.get("original", {}) else (
            "n/a: a variant failed")
    else:
        text = "yes" if agree else "no"
    if b.get("outputs_note"):
        text += f" ({b['outputs_note']})"
    g = b.get("gradients")
    if g:
        if "skipped" in g:
            text += f"; gradients: n/a ({g['skipped']})"
        else:
            parts = [f"{k} {g[k + '_nan']} NaN" if k + "_nan" in g else f"{k} failed"
                     for k in ("original", "fixed")]
            text += f"; gradients at {g['at']}: {', '.join(parts)}"
    return text


def write_table(report: RuntimeReport, out: TextIO, color: bool) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    import os

    # not a terminal (a pipe, a file): 80 columns unless COLUMNS says otherwise
    width = None if getattr(out, "isatty", lambda: False)() else _columns()
    console = Console(file=out, highlight=False, soft_wrap=False, width=width,
                      no_color=not color, force_terminal=color)
    env = report.environment
    if env:
        console.print(Text(f"jaxlint runtime: JAX {env.get('jax_version')} on "
                           f"{env.get('device')}"))
    for line in run_lines(report):
        console.print(Text(line), soft_wrap=True)  # one line each, as the terminal wraps it
    if not report.findings:  # no empty table: the summary says there was nothing to check
        _print_summary(report, console)
        return
    if console.width < _NARROW:
        _write_stacked(report, console)
        return
    table = Table(title="Runtime verdicts", title_justify="left")
    # locations stay whole (clickable, copyable); the prose columns wrap
    table.add_column("Location", no_wrap=True)
    table.add_column("Code", no_wrap=True)
    table.add_column("Function", overflow="fold")
    table.add_column("Verdict", no_wrap=True)
    table.add_column("Evidence / reason", overflow="fold", ratio=3)
    table.add_column("Inputs assumed", overflow="fold", ratio=1)
    styles = {"confirmed": "bold red", "not-reproduced": "green", "not-exercised": "cyan",
              "skipped": "yellow"}
    for f in report.findings:
        rt = f.runtime or {}
        verdict = rt.get("verdict", "skipped")
        table.add_row(Text(f.where), Text(f.code), Text(f.function or "-"),
                      Text(verdict, style=styles.get(verdict, "")),
                      Text(rt.get("evidence") or rt.get("reason") or ""),
                      Text("; ".join(rt.get("inputs", [])) or "-"))
    console.print(table)
    rows = bench_rows(report)
    if rows:
        from rich.markup import escape

        bt = Table(title=escape("Benchmarks (steady: median [min..max] of N runs, each ended by "
                                "block_until_ready; compiles: first call/per steady call; temp: "
                                "XLA temp buffers)"), title_justify="left")
        for col in ("Finding / function", "Variant", "Compile", "Steady", "Compiles", "Eqns",
                    "Temp mem", "Outputs agree"):
            bt.add_column(col, overflow="fold")
        for where, label, b in rows:
            if "skipped" in b:
                bt.add_row(Text(where), Text(f"not benchmarked: {b['skipped']}"), "", "", "", "", "", "")
                continue
            agree_s = _agree_cell(b)
            bt.add_row(Text(where), Text("original"), *map(Text, _variant_cells(b["original"])),
                       Text(agree_s))
            bt.add_row(Text(""), Text(label), *map(Text, _variant_cells(b["fixed"])), Text(""))
        console.print(bt)
    _print_summary(report, console)


def _columns() -> int:
    """The width of output that is not a terminal: ``$COLUMNS``, else 80."""
    import os

    try:
        return max(int(os.environ.get("COLUMNS") or 80), 20)
    except ValueError:
        return 80


# below this width the six-column table wraps prose a few letters per line:
# each finding becomes a block of labelled lines instead
_NARROW = 100
_BENCH_COLUMNS = ("Compile", "Steady", "Compiles", "Eqns", "Temp mem")


def _print_summary(report: RuntimeReport, console) -> None:
    from rich.text import Text

    counts: dict[str, int] = {}
    for f in report.findings:
        v = (f.runtime or {}).get("verdict", "skipped")
        counts[v] = counts.get(v, 0) + 1
    summary = ", ".join(f"{n} {v}" for v, n in sorted(counts.items())) or "no findings to check"
    console.print(Text(summary))


def _write_stacked(report: RuntimeReport, console) -> None:
    """The verdicts and benchmarks for a narrow terminal: one block per finding,
    the location whole on its first line, prose wrapped under it."""
    import textwrap

    from rich.text import Text

    styles = {"confirmed": "bold red", "not-reproduced": "green", "not-exercised": "cyan",
              "skipped": "yellow"}

    def field(label: str, value: str) -> None:
        text = textwrap.fill(f"{label}: {value}", width=max(console.width, 40),
                             initial_indent="    ", subsequent_indent="      ",
                             break_long_words=False, break_on_hyphens=False)
        console.print(Text(text), soft_wrap=True)

    console.print(Text("Runtime verdicts", style="italic"))
    for f in report.findings:
        rt = f.runtime or {}
        verdict = rt.get("verdict", "skipped")
        head = Text(f"{f.where} {f.code} ")
        head.append(verdict, style=styles.get(verdict, ""))
        if f.function:
            head.append(f" in {f.function}")
        console.print(head, overflow="ignore", crop=False)
        reason = rt.get("evidence") or rt.get("reason")
        if reason:
            field("evidence" if rt.get("evidence") else "reason", reason)
        if rt.get("inputs"):
            field("inputs assumed", "; ".join(rt["inputs"]))
    rows = bench_rows(report)
    if rows:
        console.print(Text("Benchmarks (steady: median [min..max] of N runs, each ended by "
                           "block_until_ready; compiles: first call/per steady call; temp: "
                           "XLA temp buffers)", style="italic"))
        for where, label, b in rows:
            console.print(Text(where), overflow="ignore", crop=False)
            if "skipped" in b:
                field("not benchmarked", str(b["skipped"]))
                continue
            for name, variant in (("original", b["original"]), (label or "fixed", b["fixed"])):
                cells = _variant_cells(variant)
                if "not_run" in variant or "error" in variant:
                    field(name, cells[0])
                else:
                    field(name, ", ".join(f"{c.lower()} {v}" for c, v in zip(_BENCH_COLUMNS, cells)))
            field("outputs agree", _agree_cell(b))
    _print_summary(report, console)


def as_json(report: RuntimeReport, bench: bool) -> Any:
    findings = [f.to_dict() for f in report.findings]
    if not bench:
        return findings
    return {"findings": findings, "pairs": report.pairs, "environment": report.environment,
            "runs": report.runs, "problems": report.problems}


def write(report: RuntimeReport, fmt: str, out: TextIO, color: bool, bench: bool,
          rules=(), cwd=None) -> None:
    if fmt == "json":
        json.dump(as_json(report, bench), out, indent=2, ensure_ascii=False, default=str)
        out.write("\n")
    elif fmt == "sarif":
        from pathlib import Path

        from jaxlint.output import OutputReport
        from jaxlint.output import sarif
        from jaxlint.findings import FileResult

        results = [FileResult(path=f.path, findings=[f]) for f in report.findings]
        rep = OutputReport(results=results, rules=rules, cwd=cwd or Path.cwd(), sources={})
        sarif.write(rep, out, color)
    elif fmt == "concise":
        write_concise(report, out if out is not None else sys.stdout)
    else:
        write_table(report, out if out is not None else sys.stdout, color)


def write_concise(report: RuntimeReport, out: TextIO) -> None:
    """One line per finding, as `check --output-format concise` writes them
    (``path:line:col: CODE verdict in function: evidence or reason``), then the counts;
    how each --run command ended goes to stderr, as for json."""
    for f in report.findings:
        rt = f.runtime or {}
        head = f"{f.where}: {f.code} {rt.get('verdict', 'skipped')}"
        if f.function:
            head += f" in {f.function}"
        reason = rt.get("evidence") or rt.get("reason")
        out.write(f"{head}: {reason}\n" if reason else f"{head}\n")
    counts: dict[str, int] = {}
    for f in report.findings:
        v = (f.runtime or {}).get("verdict", "skipped")
        counts[v] = counts.get(v, 0) + 1
    out.write((", ".join(f"{n} {v}" for v, n in sorted(counts.items())) or "no findings to check")
              + "\n")
