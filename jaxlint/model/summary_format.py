"""What a file's summary (``model/summary.py``) and its readers (``jaxlint/project/``)
share, with no libcst: a warm run reads summaries without loading the parser."""

from __future__ import annotations

from typing import Optional

# the layout version of the summaries ``summary.py`` writes and the project index reads
SUMMARY_VERSION = 4


def absolute_module(current: str, is_package: bool, level: int, target: Optional[str]) -> Optional[str]:
    """The absolute name of ``from <level dots><target> import ...`` written in
    module ``current``; None when the dots climb above the top-level package."""
    if level == 0:
        return target
    parts = current.split(".") if current else []
    if not is_package:
        parts = parts[:-1]
    if level - 1 >= len(parts):
        return None
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    if not parts:  # a top-level module has no package to be relative to
        return None
    if target:
        parts = parts + target.split(".")
    return ".".join(parts) if parts else None
