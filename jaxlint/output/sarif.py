"""``sarif``: a SARIF 2.1.0 log (GitHub code scanning, IDE viewers).

Every rule jaxlint knows is listed in ``tool.driver.rules``; each result
points at its rule by ``ruleId`` and ``ruleIndex``.  File locations are
relative to ``%SRCROOT%`` (the current directory, given in
``originalUriBaseIds``) when the file is under it, absolute URIs otherwise.

Every result carries ``partialFingerprints["jaxlint/v1"]``: a digest of the
finding's line-free identity (rule, file, enclosing function or class, the
normalised text of the flagged statement, occurrence; see
``jaxlint.output.baseline``), so that code-scanning services follow a finding when
lines move.  With ``--baseline``, every result also has a ``baselineState``:
``new`` (reported), ``unchanged`` (recorded in the baseline: listed with an
external suppression, so a viewer can show it as accepted) or ``absent`` (in
the baseline, no longer found: the file is the only location left).

A finding in a notebook (``.ipynb``): code scanning shows a result on the raw file,
so its region is where the cell's source text is in the notebook's JSON (lines and
columns of that text); the cell and the region in the cell's source are in the
result's ``properties`` (``cell``, ``cellRegion``), its message ("cell 3, line 2,
column 5: ...") and a logical location ``cell 3``.  Its fix is left out: the edits
count in the cell's source, not in the file.  Columns count characters
(``columnKind``: ``unicodeCodePoints``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional, TextIO
from urllib.parse import quote

import jaxlint
from jaxlint.findings import Finding
from jaxlint.output import OutputReport

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT_KEY = "jaxlint/v1"
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


def _result(report: OutputReport, f: Finding, index: dict[str, int],
            state: Optional[str] = None) -> dict[str, Any]:
    artifact = _location(report, f.path)
    region = _region(f.line, f.col, f.end_line, f.end_col)
    message = f.message
    properties: dict[str, Any] = {}
    if f.cell is not None:
        # a notebook: code scanning shows the region on the raw .ipynb, so it is the
        # place of the cell's source in the JSON text; the cell and the region in its
        # source go in the properties, the message and a logical location
        in_json = report.file_region(f)
        if in_json is not None:
            region = _region(*in_json)
        else:  # (JSON not readable as such: its lines, as the GitHub format gives them)
            line = report.file_line(f, f.line)
            region = {"startLine": max(1, line), "endLine": max(1, line, report.file_line(f, f.end_line))}
        message = f"cell {f.cell}, line {f.line}, column {f.col}: {f.message}"
        properties = {"cell": f.cell, "cellRegion": _region(f.line, f.col, f.end_line, f.end_col)}
    result: dict[str, Any] = {
        "ruleId": f.code,
        "level": _LEVELS.get(f.severity.value, "warning"),
        "message": {"text": message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": artifact,
                    "region": region,
                }
            }
        ],
    }
    if f.cell is not None:
        result["locations"][0]["logicalLocations"] = [
            {"name": f"cell {f.cell}", "fullyQualifiedName": f"{f.path}:cell {f.cell}"}
        ]
    if f.code in index:
        result["ruleIndex"] = index[f.code]
    if f.related:
        # the call chain that puts this code under a trace, set in other files
        related = [
            {
                "id": i,
                "physicalLocation": {
                    "artifactLocation": _location(report, path),
                    "region": {"startLine": max(1, line)},
                },
                "message": {"text": message},
            }
            for i, (path, line, message) in enumerate(f.related)
        ]
        result["relatedLocations"] = related
        steps = [{"location": {k: v for k, v in loc.items() if k != "id"}} for loc in reversed(related)]
        steps.append({"location": result["locations"][0]})
        result["codeFlows"] = [{"threadFlows": [{"locations": steps}]}]
    entry = report.fingerprints().get(id(f))
    if entry is not None:
        result["partialFingerprints"] = {FINGERPRINT_KEY: entry.fingerprint}
    if state is not None:
        result["baselineState"] = state
        if state == "unchanged":
            result["suppressions"] = [{
                "kind": "external",
                "justification": f"recorded in the baseline {report.baseline.path}",
            }]
    if f.runtime is not None:  # the verdict of `jaxlint confirm`
        properties["runtime"] = f.runtime
    if properties:
        result["properties"] = properties
    if f.fix is not None and f.cell is None:  # (a cell's edits count in its source, not the file's)
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
            "defaultConfiguration": {"level": _LEVELS.get(r.severity, "warning")},
            "properties": {"defaultEnabled": r.default_enabled, "fix": r.fix_availability},
        }
        for r in rules
    ]
    for item in driver_rules:  # an address only where the project configures one
        url = report.rule_url(item["id"])
        if url:
            item["helpUri"] = url
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "jaxlint",
                        "version": jaxlint.__version__,
                        "rules": driver_rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "originalUriBaseIds": {
                    "%SRCROOT%": {"uri": report.cwd.resolve().as_uri() + "/"}
                },
                "results": _results(report, index),
                "invocations": [_invocation(report)],
            }
        ],
    }


def _results(report: OutputReport, index: dict[str, int]) -> list[dict[str, Any]]:
    b = report.baseline
    if b is None:
        return [_result(report, f, index) for f in report.findings]
    out = [_result(report, f, index, "new") for f in report.findings]
    out += [_result(report, f, index, "unchanged") for f in sorted(b.unchanged, key=Finding.sort_key)]
    out += [_absent(report, e, index) for e in b.absent]
    return out


def _absent(report: OutputReport, entry, index: dict[str, int]) -> dict[str, Any]:
    """A baselined finding that no longer occurs: its file, no region."""
    from jaxlint.output.baseline import fingerprint_of, relative_posix

    root = Path(report.baseline.path).resolve().parent
    absolute = (root / entry.path).resolve()
    rel = relative_posix(str(absolute), report.cwd.resolve())
    key = (entry.code, rel, entry.scope, "".join(entry.text.split()), entry.occurrence)
    info = {r.code: r for r in report.rules}.get(entry.code)
    where = f" in `{entry.scope}`" if entry.scope else ""
    result: dict[str, Any] = {
        "ruleId": entry.code,
        "level": _LEVELS.get(info.severity, "warning") if info else "warning",
        "message": {"text": f"{entry.message or entry.code} (no longer found{where}: `{entry.text}`)"},
        "locations": [{"physicalLocation": {"artifactLocation": _location(report, str(absolute))}}],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint_of(key)},
        "baselineState": "absent",
    }
    if entry.code in index:
        result["ruleIndex"] = index[entry.code]
    return result


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
