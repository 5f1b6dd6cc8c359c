"""``--statistics``: how many findings of each rule, most frequent first.

    3  JAX001  [ ] syntax-error
    2  JAX901  [*] deprecated-tree-api
    1  JAX110  [-] float64-silently-float32

The marker, as Ruff's: ``[*]`` fixable with ``--fix``, ``[-]`` fixable only with
``--unsafe-fixes``, ``[ ]`` no fix.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, TextIO

from jaxlint.output import OutputReport


def rows(report: OutputReport) -> list[dict[str, Any]]:
    counts: Counter[str] = Counter(f.code for f in report.findings)
    names = {f.code: f.name for f in report.findings}
    fixable = {f.code for f in report.findings if report.is_fixable(f)}
    ordered = sorted(counts, key=lambda c: (-counts[c], c))
    return [
        {"code": c, "name": names[c], "count": counts[c], "fixable": c in fixable}
        for c in ordered
    ]


def write(report: OutputReport, out: TextIO, json_output: bool = False) -> None:
    table = rows(report)
    if json_output:
        json.dump(table, out, indent=2)
        out.write("\n")
        return
    if not table:
        return
    unsafe = {f.code for f in report.findings if f.fix is not None and not report.is_fixable(f)}
    count_w = max(len(str(r["count"])) for r in table)
    code_w = max(len(r["code"]) for r in table)
    for r in table:
        marker = "[*]" if r["fixable"] else "[-]" if r["code"] in unsafe else "[ ]"
        out.write(f"{r['count']:>{count_w}}\t{r['code']:<{code_w}}\t{marker} {r['name']}\n")
