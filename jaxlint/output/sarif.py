"""``sarif``: a SARIF 2.1.0 log (GitHub code scanning, IDE viewers).

Every rule jaxlint knows is listed in ``tool.driver.rules``; each result
points at its rule by ``ruleId`` and ``ruleIndex``.  File locations are
relative to ``%SRCROOT%`` (the current directory, given in
``originalUriBaseIds``) when the file is under it, absolute URIs otherwise.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

import jaxlint
from jaxlint.findings import Finding
from jaxlint.output import OutputReport

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/jaxlint/jaxlint"
_LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def _location(report: OutputReport, path: str) -> dict[str, Any]:
    p = Path(path)
    absolute = p if p.is_absolute() else (report.cwd / p)
    try:
        rel = absolute.resolve().relative_to(report.cwd.resolve()).as_posix()
    except (ValueError, OSError):
        return {"uri": absolute.resolve().as_uri()}
    return {"uri": quote(rel), "uriBaseId": "%SRCROOT%"}


def _region(line: int, col: int, end_line: int, end_col: int) -> dict[str, int]:
    return {
        "startLine": max(1, line),
        "startColumn": max(1, col),
        "endLine": max(1, end_line),
        "endColumn": max(1, end_col),
    }


def _result(report: OutputReport, f: Finding, index: dict[str, int]) -> dict[str, Any]:
    artifact = _location(report, f.path)
    result: dict[str, Any] = {
        "ruleId": f.code,
        "level": _LEVELS.get(f.severity.value, "warning"),
        "message": {"text": f.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": artifact,
                    "region": _region(f.line, f.col, f.end_line, f.end_col),
                }
            }
        ],
    }
    if f.code in index:
        result["ruleIndex"] = index[f.code]
    if f.runtime is not None:  # the verdict of `jaxlint confirm`
        result["properties"] = {"runtime": f.runtime}
    if f.fix is not None:
        result["fixes"] = [
            {
                "description": {"text": f.fix.message},
                "artifactChanges": [
                    {
                        "artifactLocation": artifact,
                        "replacements": [
                            {
                                "deletedRegion": _region(e.line, e.col, e.end_line, e.end_col),
                                "insertedContent": {"text": e.content},
                            }
                            for e in f.fix.edits
                        ],
                    }
                ],
            }
        ]
    return result


def build(report: OutputReport) -> dict[str, Any]:
    rules = sorted(report.rules, key=lambda r: r.code)
    index = {r.code: i for i, r in enumerate(rules)}
    driver_rules = [
        {
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": r.summary},
            "fullDescription": {"text": r.what_it_does or r.summary},
            "helpUri": r.url,
            "defaultConfiguration": {"level": _LEVELS.get(r.severity, "warning")},
            "properties": {"defaultEnabled": r.default_enabled, "fix": r.fix_availability},
        }
        for r in rules
    ]
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "jaxlint",
                        "version": jaxlint.__version__,
                        "informationUri": INFORMATION_URI,
                        "rules": driver_rules,
                    }
                },
                "originalUriBaseIds": {
                    "%SRCROOT%": {"uri": report.cwd.resolve().as_uri() + "/"}
                },
                "results": [_result(report, f, index) for f in report.findings],
                "invocations": [_invocation(report)],
            }
        ],
    }


def _invocation(report: OutputReport) -> dict[str, Any]:
    """Files that could not be linted become error notifications (not silence)."""
    notes = [
        {
            "level": "error",
            "message": {"text": f"{r.path}: {r.error}"},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": r.path, "uriBaseId": "%SRCROOT%"}}}],
        }
        for r in report.results
        if r.error
    ]
    inv: dict[str, Any] = {"executionSuccessful": not notes and not report.unchecked}
    if notes:
        inv["toolExecutionNotifications"] = notes
    return inv


def write(report: OutputReport, out: TextIO, color: bool) -> None:
    json.dump(build(report), out, indent=2, ensure_ascii=False)
    out.write("\n")
