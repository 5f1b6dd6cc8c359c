"""The project-wide model: module names, per-file summaries, cross-module
import resolution, and the facts one module gives another
(``jaxlint/project_driver.py`` lints projects in rounds with them).  See
docs/project-model.md.

Names are loaded on first use (``summary`` needs libcst; a warm run does not).
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "ProjectIndex": "index",
    "Target": "index",
    "SUMMARY_VERSION": "index",
    "ModuleName": "roots",
    "SourceRoots": "roots",
    "find_project_root": "roots",
    "absolute_module": "roots",
    "extract_summary": "summary",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
