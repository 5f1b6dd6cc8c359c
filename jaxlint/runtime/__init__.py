"""The runtime companion: run flagged functions under real JAX to confirm
findings (``jaxlint confirm``) and benchmark their fixes (``jaxlint bench``).

Imported only by those commands.  This package's parent-side modules
(``driver``, ``specs``, ``rules``, ``report``) do not import JAX; the user's
code and JAX run in ``python -m jaxlint.runtime.worker`` subprocesses
(``checks``, ``bench``).  See docs/runtime.md.
"""

from __future__ import annotations

from jaxlint.runtime.driver import RuntimeReport, run_runtime
from jaxlint.runtime.report import write as write_report

__all__ = ["RuntimeReport", "run_runtime", "write_report"]
