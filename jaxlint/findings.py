"""What a lint run produces: findings, their fixes, and per-file results.

Everything here is plain data (picklable, JSON-able) so that worker processes,
the cache and every output format share one shape.  Lines are 1-based;
columns are 1-based (as Ruff, editors and SARIF count them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Optional

# No documentation site is published: a rule's address is given only where a
# project configures one (``docs-url`` in [tool.jaxlint]); see OutputReport.rule_url.
DOCS_BASE_URL: Optional[str] = None


class Severity(str, Enum):
    ERROR = "error"  # JAX raises, or the result is silently wrong
    WARNING = "warning"  # performance traps, deprecated-but-working APIs
    INFO = "info"  # opinionated suggestions (opt-in band)


class Applicability(str, Enum):
    SAFE = "safe"  # cannot change the behaviour of working code
    UNSAFE = "unsafe"  # may change behaviour; applied only with --unsafe-fixes


@dataclass(frozen=True)
class Edit:
    """Replace source text between two positions (1-based line and column).

    ``original``: the code the edit was made to replace (the rule's node as
    libcst prints it), when known.  The fixer applies the edit only where the
    text between the two positions is exactly that code: an edit whose
    positions went wrong is refused, never applied to other code.  Not part of
    the JSON output."""

    line: int
    col: int
    end_line: int
    end_col: int
    content: str
    cell: Optional[int] = None  # a notebook's cell (1-based): line/col are then relative to it
    original: Optional[str] = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """As Ruff's JSON writes an edit: ``content``, ``location`` and
        ``end_location`` with ``row``/``column`` (as a finding's own location);
        ``cell`` in a notebook."""
        d: dict[str, Any] = {
            "content": self.content,
            "location": {"row": self.line, "column": self.col},
            "end_location": {"row": self.end_line, "column": self.end_col},
        }
        if self.cell is not None:
            d["cell"] = self.cell
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Edit":
        return cls(line=d["location"]["row"], col=d["location"]["column"],
                   end_line=d["end_location"]["row"], end_col=d["end_location"]["column"],
                   content=d["content"], cell=d.get("cell"))


@dataclass(frozen=True)
class Fix:
    applicability: Applicability
    message: str
    edits: tuple[Edit, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "applicability": self.applicability.value,
            "message": self.message,
            "edits": [e.to_dict() for e in self.edits],
        }


@dataclass(frozen=True)
class Finding:
    code: str
    name: str
    message: str
    path: str
    line: int
    col: int
    end_line: int
    end_col: int
    severity: Severity
    fix: Optional[Fix] = None
    function: Optional[str] = None  # qualified name of the enclosing function, if any
    # verdict attached by the runtime companion ("confirmed", "not-reproduced", ...)
    runtime: Optional[dict[str, Any]] = None
    # where the trace that reaches this code comes from, in other files: the call
    # chain as (path, line, message), nearest caller first (the project-wide model)
    related: tuple[tuple[str, int, str], ...] = ()
    # in a notebook (.ipynb): the cell, 1-based counting every cell as Jupyter and Ruff do;
    # line and column (and end) are then relative to the cell's source
    cell: Optional[int] = None

    @property
    def url(self) -> Optional[str]:
        """None: no documentation address ships with jaxlint (see ``docs-url``)."""
        return f"{DOCS_BASE_URL}{self.code}.md" if DOCS_BASE_URL else None

    def sort_key(self) -> tuple:
        return (self.path, self.cell or 0, self.line, self.col, self.code)

    @property
    def where(self) -> str:
        """``path:line:col``, or ``path:cell N:line:col`` in a notebook."""
        cell = f"cell {self.cell}:" if self.cell is not None else ""
        return f"{self.path}:{cell}{self.line}:{self.col}"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "code": self.code,
            "name": self.name,
            "message": self.message,
            "filename": self.path,
            "location": {"row": self.line, "column": self.col},
            "end_location": {"row": self.end_line, "column": self.end_col},
            "severity": self.severity.value,
            "fix": self.fix.to_dict() if self.fix else None,
            "url": self.url,
            "function": self.function,
        }
        if self.cell is not None:
            d["cell"] = self.cell
        if self.runtime is not None:
            d["runtime"] = self.runtime
        if self.related:
            d["related"] = [{"filename": p, "row": line, "message": m} for p, line, m in self.related]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Finding":
        fix = None
        if d.get("fix"):
            f = d["fix"]
            fix = Fix(
                Applicability(f["applicability"]),
                f["message"],
                tuple(Edit.from_dict(e) for e in f["edits"]),
            )
        return cls(
            code=d["code"],
            name=d["name"],
            message=d["message"],
            path=d["filename"],
            line=d["location"]["row"],
            col=d["location"]["column"],
            end_line=d["end_location"]["row"],
            end_col=d["end_location"]["column"],
            severity=Severity(d["severity"]),
            fix=fix,
            function=d.get("function"),
            runtime=d.get("runtime"),
            related=tuple((r["filename"], int(r["row"]), r["message"]) for r in d.get("related") or ()),
            cell=d.get("cell"),
        )


@dataclass
class FileResult:
    """The outcome of linting one file."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    # a problem that prevented linting (unreadable file, bad encoding): one clear line
    error: Optional[str] = None
    parsed: bool = False  # False when the prefilter skipped the file or it failed
    from_cache: bool = False
    # project mode: {"summary": ..., "calls": [...], "sites": [...]} (jaxlint/project/facts.py)
    project: Optional[dict] = None
