"""Projects: linting a project in rounds (``driver.py``), module names and
source roots (``roots.py``), cross-module import resolution over the files'
summaries (``index.py``; a file's summary is made by ``jaxlint/model/summary.py``),
the facts one module gives another (``facts.py``), and a whole project read at
once for tests and tools (``loader.py``).  See docs/project-model.md.

Names are loaded on first use (a warm run imports little).
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
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
