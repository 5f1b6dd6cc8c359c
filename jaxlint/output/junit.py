"""``junit``: JUnit XML for CI test reporters.

One ``<testsuite>`` per linted file; one ``<testcase>`` with a ``<failure>``
per finding, a single passing test case for a clean file, and an ``<error>``
for a file that could not be linted (e.g. not valid UTF-8).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TextIO

from jaxlint.output import OutputReport


def build(report: OutputReport) -> ET.Element:
    by_path: dict[str, list] = {r.path: [] for r in report.results}
    for f in report.findings:
        by_path.setdefault(f.path, []).append(f)
    # files that could not be linted (undecodable...) are errors, not passes
    problems = {r.path: r.error for r in report.results if r.error}
    total = len(report.findings)
    root = ET.Element(
        "testsuites",
        name="jaxlint",
        tests=str(sum(max(1, len(v)) for v in by_path.values())),
        failures=str(total),
        errors=str(len(problems)),
    )
    for path in sorted(by_path):
        findings = by_path[path]
        suite = ET.SubElement(
            root,
            "testsuite",
            name=path,
            tests=str(max(1, len(findings))),
            failures=str(len(findings)),
            errors="1" if path in problems else "0",
        )
        if path in problems:
            case = ET.SubElement(suite, "testcase", name="jaxlint", classname=path)
            err = ET.SubElement(case, "error", message=problems[path], type="jaxlint")
            err.text = f"{path}: {problems[path]}"
            continue
        if not findings:
            ET.SubElement(suite, "testcase", name="jaxlint", classname=path)
            continue
        for f in findings:
            case = ET.SubElement(
                suite,
                "testcase",
                name=f"jaxlint.{f.code}",
                classname=path,
                file=path,
                line=str(f.line),
                column=str(f.col),
            )
            failure = ET.SubElement(case, "failure", message=f.message, type=f.code)
            cell = f"cell {f.cell}, " if f.cell is not None else ""
            failure.text = f"{cell}line {f.line}, col {f.col}, {f.code} {f.message}"
    return root


def write(report: OutputReport, out: TextIO, color: bool) -> None:
    root = build(report)
    ET.indent(root)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(ET.tostring(root, encoding="unicode"))
    out.write("\n")
