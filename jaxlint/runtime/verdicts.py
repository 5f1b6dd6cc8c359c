"""Verdicts: what the runtime companion says about one finding (pure Python, no JAX).

The lowest module of the runtime package: the worker, the checks, the
benchmarks, the recorder and the parent-side driver all use it, and it imports
nothing from them.  A verdict crosses the process boundary as ``to_dict()``
(the ``runtime`` object of a finding in JSON output) and comes back with
``from_dict``.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field
from typing import Any, Literal, Optional

VerdictKind = Literal["confirmed", "not-reproduced", "not-exercised", "skipped"]
KINDS = ("confirmed", "not-reproduced", "not-exercised", "skipped")
# which of two verdicts about one finding is kept: the stronger evidence
RANK = {"confirmed": 3, "not-reproduced": 2, "not-exercised": 1, "skipped": 0}
# verdicts that carry a reason (nothing was shown) rather than evidence
_REASONED = ("skipped", "not-exercised")


@dataclass
class Verdict:
    verdict: VerdictKind
    evidence: str = ""  # confirmed / not-reproduced: what JAX showed
    # skipped: why nothing ran; not-exercised: what ran, and the input that would reach
    # the flagged line (a user can act on either)
    reason: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    inputs: Optional[list[str]] = None  # the inputs used, each with where it came from
    bench: Optional[dict[str, Any]] = None  # bench mode: original against fixed

    def __post_init__(self) -> None:
        if self.verdict not in KINDS:
            raise ValueError(f"unknown verdict {self.verdict!r}")

    @property
    def text(self) -> str:
        return self.reason if self.verdict in _REASONED else self.evidence

    def annotate(self, note: str) -> None:
        """Append ``(note)`` to the evidence or the reason."""
        if self.verdict in _REASONED:
            self.reason = f"{self.reason} ({note})".strip()
        else:
            self.evidence = f"{self.evidence} ({note})".strip()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"verdict": self.verdict}
        if self.verdict in _REASONED:
            out["reason"] = self.reason
        else:
            out["evidence"] = self.evidence
        out["details"] = self.details
        if self.inputs is not None:
            out["inputs"] = list(self.inputs)
        if self.bench is not None:
            out["bench"] = self.bench
        return out

    @classmethod
    def from_dict(cls, data: Any) -> "Verdict":
        """Read one back (from a worker's event or the cache); bad data is a skip."""
        if not isinstance(data, dict) or data.get("verdict") not in KINDS:
            return cls("skipped", reason="the worker sent an unreadable verdict")
        details = data.get("details")
        inputs = data.get("inputs")
        bench = data.get("bench")
        return cls(
            data["verdict"],
            evidence=str(data.get("evidence") or ""),
            reason=str(data.get("reason") or ""),
            details=details if isinstance(details, dict) else {},
            inputs=[str(s) for s in inputs] if isinstance(inputs, list) else None,
            bench=bench if isinstance(bench, dict) else None,
        )


def confirmed(evidence: str, **details: Any) -> Verdict:
    return Verdict("confirmed", evidence=evidence, details=details)


def not_reproduced(evidence: str, **details: Any) -> Verdict:
    return Verdict("not-reproduced", evidence=evidence, details=details)


def not_exercised(reason: str, **details: Any) -> Verdict:
    """The check ran, but never drove the flagged line (in the state that would fail):
    neither a confirmation nor a refutation."""
    return Verdict("not-exercised", reason=reason, details=details)


def skipped(reason: str, **details: Any) -> Verdict:
    return Verdict("skipped", reason=reason, details=details)


def first_line(exc: BaseException) -> str:
    """The message's first line, without the memory addresses a repr in it shows
    (``<function f at 0x7f...>``: ``<function f>``), which change from run to run."""
    text = str(exc).strip()
    return _ADDRESS.sub("", text.splitlines()[0]) if text else ""


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


# what an allocation refused by a worker's data limit (RLIMIT_DATA) shows: Python's and
# NumPy's MemoryError, XLA's "RESOURCE_EXHAUSTED: Out of memory allocating N bytes" on the
# CPU, OpenBLAS giving up at import, C++'s bad_alloc
_OUT_OF_MEMORY = ("MemoryError", "Out of memory allocating", "Unable to allocate",
                  "Memory allocation still failed", "std::bad_alloc")


def memory_reason(limit: int) -> str:
    """The skip reason of a finding whose check needed more than ``limit`` bytes."""
    return (f"used more than {limit / (1 << 30):.3g} GiB of memory (the limit: --memory-limit, "
            "or memory-limit in [tool.jaxlint.runtime])")


def over_memory(limit: int, *texts: Any) -> bool:
    """Whether a limited worker's verdict or error shows an allocation the limit refused."""
    return bool(limit) and any(mark in str(t) for t in texts for mark in _OUT_OF_MEMORY)
