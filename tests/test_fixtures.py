"""Realistic fixture files under tests/fixtures/lint/.

``clean_*.py`` must produce no finding of any default rule.  Other files mark
each expected finding with a trailing ``# expect: CODE:column`` comment (several
separated by spaces); the findings must match exactly (code, line, column).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jaxlint.lint.linter import lint_source
from jaxlint.rules import default_codes
from jaxlint.settings import LintSettings

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "lint"
_EXPECT = re.compile(r"#\s*expect:\s*((?:JAX\d+:\d+\s*)+)")


def _lint(path: Path):
    res = lint_source(path.read_bytes(), str(path), LintSettings(select=default_codes()))
    assert res.error is None
    return res.findings


def _expected(path: Path):
    out = []
    for lineno, line in enumerate(path.read_text().splitlines(), start=1):
        m = _EXPECT.search(line)
        if m:
            for item in m.group(1).split():
                code, col = item.split(":")
                out.append((code, lineno, int(col)))
    return sorted(out)


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("clean_*.py")), ids=lambda p: p.name)
def test_clean_fixture_is_silent(path):
    assert [(f.code, f.line, f.col, f.message) for f in _lint(path)] == []


@pytest.mark.parametrize(
    "path", sorted(p for p in FIXTURES.glob("*.py") if not p.name.startswith("clean_")), ids=lambda p: p.name
)
def test_sharp_fixture_findings(path):
    found = sorted((f.code, f.line, f.col) for f in _lint(path))
    assert found == _expected(path)
