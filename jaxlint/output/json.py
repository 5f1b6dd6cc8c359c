"""``json``: a list of findings, each ``Finding.to_dict()`` (Ruff's field names)."""

from __future__ import annotations

import json
from typing import TextIO

from jaxlint.output import OutputReport


def write(report: OutputReport, out: TextIO, color: bool) -> None:
    json.dump([f.to_dict() for f in report.findings], out, indent=2, ensure_ascii=False)
    out.write("\n")
