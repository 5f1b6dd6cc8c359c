"""Shared by check.py and score.py: read and validate the cases of the recall set."""

from __future__ import annotations

import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"

CONCEPTS = {
    "tracer-bool",
    "tracer-int-conversion",
    "numpy-on-tracer",
    "boolean-mask",
    "dynamic-shape",
    "inplace-update",
    "discarded-update",
    "global-read-captured",
    "global-mutation",
    "self-mutation",
    "impure-print",
    "key-reuse",
    "host-rng",
    "iterator",
    "python-loop-unroll",
    "recompilation",
    "static-arg-unhashable",
    "static-arg-signature",
    "timing",
    "x64",
    "out-of-bounds-index",
    "deprecated-api",
    "list-to-jnp",
    "where-nan-gradient",
    "donated-buffer",
    "cond-branches",
    "non-array-argument",
}
EXPECTS = {"error", "stdout", "stderr", "runs"}
STATUSES = {"INVALID", "VALID"}


@dataclass
class Label:
    file: str
    line: int
    text: str
    codes: list[str]


@dataclass
class Case:
    name: str
    path: Path
    source: str
    concept: str
    status: str
    layout: str
    entry: str
    expect: str
    match: str
    min_count: int = 1
    max_count: int | None = None
    env: dict[str, str] = field(default_factory=dict)
    needs: list[str] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    note: str = ""

    def py_files(self) -> list[str]:
        return sorted(
            p.relative_to(self.path).as_posix() for p in self.path.rglob("*.py")
        )


class CaseError(Exception):
    pass


def load_case(path: Path) -> Case:
    toml = path / "case.toml"
    if not toml.is_file():
        raise CaseError(f"{path.name}: no case.toml")
    try:
        data = tomllib.loads(toml.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise CaseError(f"{path.name}/case.toml: {exc}") from None
    try:
        check = data["check"]
        case = Case(
            name=path.name,
            path=path,
            source=data["source"],
            concept=data["concept"],
            status=data["status"],
            layout=data["layout"],
            entry=data["entry"],
            expect=check["expect"],
            match=check.get("match", ""),
            min_count=int(check.get("min_count", 1)),
            max_count=int(check["max_count"]) if "max_count" in check else None,
            env={str(k): str(v) for k, v in check.get("env", {}).items()},
            needs=list(data.get("needs", [])),
            note=data.get("note", ""),
            labels=[
                Label(lab["file"], int(lab["line"]), lab["text"], list(lab["codes"]))
                for lab in data.get("label", [])
            ],
        )
    except KeyError as exc:
        raise CaseError(f"{path.name}/case.toml: missing key {exc}") from None
    if not case.source.startswith("https://"):
        raise CaseError(f"{path.name}: source must be the thread's https URL")
    if case.concept not in CONCEPTS:
        raise CaseError(f"{path.name}: unknown concept {case.concept!r}")
    if case.status not in STATUSES:
        raise CaseError(f"{path.name}: status must be INVALID or VALID")
    if case.expect not in EXPECTS:
        raise CaseError(f"{path.name}: check.expect must be one of {sorted(EXPECTS)}")
    if case.layout not in ("file", "project"):
        raise CaseError(f"{path.name}: layout must be file or project")
    files = case.py_files()
    if case.layout == "file" and len(files) != 1:
        raise CaseError(f"{path.name}: layout 'file' needs exactly one .py file")
    if case.entry not in files:
        raise CaseError(f"{path.name}: entry {case.entry!r} is not a file of the case")
    if case.status == "INVALID" and not case.labels:
        raise CaseError(f"{path.name}: an INVALID case needs at least one label")
    if case.status == "VALID" and case.labels:
        raise CaseError(f"{path.name}: a VALID twin has no labels")
    for lab in case.labels:
        src = path / lab.file
        if not src.is_file():
            raise CaseError(f"{path.name}: label file {lab.file!r} does not exist")
        lines = src.read_text().splitlines()
        if not 1 <= lab.line <= len(lines) or lab.text not in lines[lab.line - 1]:
            raise CaseError(
                f"{path.name}: label {lab.file}:{lab.line} does not hold {lab.text!r}"
                " (the file changed: fix the label's line)"
            )
    return case


def _number(name: str) -> int:
    """The case's number (the digits before the first '-'); -1 for another name."""
    head = name.split("-")[0]
    return int(head) if head.isdigit() else -1


def load_cases(names: list[str] | None = None) -> list[Case]:
    dirs = sorted(p for p in CASES.iterdir() if p.is_dir())
    if names:
        wanted = set(names)
        # A short number (one or two digits) N is a batch: the cases whose number
        # // 100 == N ("2" is cases 200-299, "10" is cases 1000-1099, not 100-109).
        batches = {int(n) for n in wanted if n.isdigit() and len(n) < 3}
        dirs = [
            d for d in dirs
            if d.name in wanted
            or d.name.split("-")[0] in wanted
            or _number(d.name) // 100 in batches
        ]
        if not dirs:
            sys.exit(f"no case named {', '.join(sorted(wanted))}")
    cases, errors = [], []
    for d in dirs:
        try:
            cases.append(load_case(d))
        except CaseError as exc:
            errors.append(str(exc))
    if errors:
        for e in errors:
            print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    return cases
