"""``json``: a list of findings, each ``Finding.to_dict()`` (Ruff's field names)."""

from __future__ import annotations

import json
from typing import TextIO

from jaxlint.output import OutputReport


def write(report: OutputReport, out: TextIO, color: bool) -> None:
    items = []
    for f in report.findings:
        d = f.to_dict()
        d["url"] = report.rule_url(f.code)  # null unless docs-url is configured
        items.append(d)
    json.dump(items, out, indent=2, ensure_ascii=False)
    out.write("\n")
