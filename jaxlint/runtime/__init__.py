"""The runtime companion: run flagged functions under real JAX to confirm
findings (``jaxlint confirm``) and benchmark their fixes (``jaxlint bench``).

Imported only by those commands.  Layers, lowest first: ``verdicts`` and
``specs`` (pure Python); ``context`` (what checks and benchmarks share);
``checks`` and ``bench`` (independent of each other); ``rules`` (rule code ->
check, or why none); ``worker`` (orchestrates them in a subprocess).  The
parent side (``driver``, ``report``) does not import JAX; the user's code and
JAX run in ``python -m jaxlint.runtime.worker`` subprocesses.  See
docs/runtime.md.
"""

from __future__ import annotations

from typing import Any

__all__ = ["RuntimeReport", "run_runtime", "write_report"]


def __getattr__(name: str) -> Any:
    # imported on first use: the guard and the recorder (one per --run process) import
    # jaxlint.runtime.procs / .recorder, and need neither the driver nor the report
    if name in ("RuntimeReport", "run_runtime"):
        from jaxlint.runtime import driver

        return getattr(driver, name)
    if name == "write_report":
        from jaxlint.runtime.report import write

        return write
    raise AttributeError(name)
