"""JAX002 unknown-noqa-code: a jaxlint code in `# noqa` / `# jaxlint: ignore[...]` that
names no rule suppresses nothing and is reported once per code written, at the code,
in every output format (Ruff's RUF102); codes in any case are read as flake8 reads
them; other tools' codes and directives inside strings are left alone."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import libcst as cst
import pytest

from jaxlint.engine.fixes import apply_findings
from rule_examples import lint

ROOT = Path(__file__).resolve().parent.parent

SRC = (
    "import jax.numpy as jnp\n"
    "\n"
    "x = jnp.zeros(3)\n"
    "x[0] = 1.0  # noqa: JAX9999\n"
)
MSG = "`JAX9999` in `# noqa` is not a jaxlint rule code, so it suppresses nothing (see `jaxlint rules`)"
JAX101_MSG = "JAX arrays are immutable: `x[0] = ...` raises TypeError. Use `x = x.at[0].set(...)`"


def _jaxlint(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jaxlint", "check", "--no-cache", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def _codes(found) -> list[tuple[str, int, int]]:
    return [(f.code, f.line, f.col) for f in found]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "m.py").write_text(SRC)
    return tmp_path


def test_concise_and_full(project: Path) -> None:
    r = _jaxlint("m.py", "--output-format", "concise", cwd=project)
    assert r.returncode == 1 and r.stderr == ""
    assert r.stdout.splitlines() == [
        f"m.py:4:1: JAX101 [*] {JAX101_MSG}",
        f"m.py:4:21: JAX002 [*] {MSG}",
        "Found 2 findings: 1 error, 1 warning (2 fixable with --fix).",
    ]
    full = _jaxlint("m.py", cwd=project).stdout
    assert (f"m.py:4:21: JAX002 [*] {MSG}\n  |\n4 | x[0] = 1.0  # noqa: JAX9999\n"
            "  |                     ^^^^^^^\n  |\n  = help: Remove the directive\n") in full


def test_json_sarif_github_gitlab_junit(project: Path) -> None:
    out = json.loads(_jaxlint("m.py", "--output-format", "json", cwd=project).stdout)
    two = [f for f in out if f["code"] == "JAX002"]
    assert len(two) == 1 and two[0]["message"] == MSG and two[0]["name"] == "unknown-noqa-code"
    assert (two[0]["location"], two[0]["end_location"], two[0]["severity"]) == (
        {"row": 4, "column": 21}, {"row": 4, "column": 28}, "warning")
    assert two[0]["fix"]["edits"] == [{"content": "", "location": {"row": 4, "column": 11},
                                       "end_location": {"row": 4, "column": 28}}]

    sarif = json.loads(_jaxlint("m.py", "--output-format", "sarif", cwd=project).stdout)
    run = sarif["runs"][0]
    [res] = [r for r in run["results"] if r["ruleId"] == "JAX002"]
    assert res["message"]["text"] == MSG and res["level"] == "warning"
    assert res["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 4, "startColumn": 21, "endLine": 4, "endColumn": 28}
    assert run["tool"]["driver"]["rules"][res["ruleIndex"]]["id"] == "JAX002"

    gh = _jaxlint("m.py", "--output-format", "github", cwd=project).stdout.splitlines()
    assert f"::warning title=jaxlint (JAX002),file=m.py,line=4,col=21,endLine=4,endColumn=28::{MSG}" in gh

    gl = json.loads(_jaxlint("m.py", "--output-format", "gitlab", cwd=project).stdout)
    [item] = [g for g in gl if g["check_name"] == "JAX002"]
    assert item["description"] == f"JAX002 {MSG}" and item["location"] == {
        "path": "m.py", "lines": {"begin": 4, "end": 4}}

    junit = ET.fromstring(_jaxlint("m.py", "--output-format", "junit", cwd=project).stdout)
    [case] = [c for c in junit.iter("testcase") if c.get("name") == "jaxlint.JAX002"]
    assert (case.get("line"), case.get("column")) == ("4", "21")
    assert case.find("failure").get("message") == MSG


def test_statistics_counts_it(project: Path) -> None:
    r = _jaxlint("m.py", "--statistics", cwd=project)
    assert "1\tJAX002\t[*] unknown-noqa-code" in r.stdout.splitlines()


def test_a_notebook_cell_gets_it_at_the_cell_line(tmp_path: Path) -> None:
    nb = {"cells": [
        {"cell_type": "code", "execution_count": None, "id": "a", "metadata": {}, "outputs": [],
         "source": ["import jax.numpy as jnp\n"]},
        {"cell_type": "code", "execution_count": None, "id": "b", "metadata": {}, "outputs": [],
         "source": ["x = jnp.zeros(3)\n", "y = x + 1  # noqa: JAX9999\n"]},
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "nb.ipynb").write_text(json.dumps(nb))
    r = _jaxlint("nb.ipynb", "--output-format", "concise", cwd=tmp_path)
    assert r.stdout.splitlines()[0] == f"nb.ipynb:cell 2:2:20: JAX002 [*] {MSG}"


def test_unknown_codes_suppress_nothing_and_known_ones_in_any_case_do() -> None:
    base = "import jax.numpy as jnp\nx = jnp.zeros(3)\n"
    # lowercase (flake8 reads codes in any case), uppercase NOQA, jaxlint's own spelling
    for tail in ("# noqa: jax101", "# NOQA: JAX101", "# jaxlint: ignore[jax101]", "# noqa:E501,JAX101"):
        assert _codes(lint(base + f"x[0] = 1.0  {tail}\n")) == [], tail
    # misspelt or unknown: the finding stays, and the code is reported (no blanket noqa)
    for tail, col in (("# noqa: JAX-101", 21), ("# noqa: JAX_101", 21), ("# noqa: JAX1", 21),
                      ("# noqa: JAX", 21), ("# jaxlint: ignore[JAX10]", 31), ("# noqa: E501, jax1010", 27)):
        assert _codes(lint(base + f"x[0] = 1.0  {tail}\n")) == [("JAX101", 3, 1), ("JAX002", 3, col)], tail


def test_other_tools_codes_strings_and_prose_are_left_alone() -> None:
    code = ('import jax\n'
            'import os  # noqa: F401, E501\n'
            'DOC = "write # noqa: JAX9999 to try it"\n'
            'TRIPLE = """\n'
            'x = 1  # noqa: JAX9998\n'
            '"""\n'
            'f = jax.jit  # noqa: B008 JAX arrays are fine here\n'
            'g = f  # type: ignore  # noqa\n')
    assert _codes(lint(code)) == []


def test_the_directive_can_silence_jax002_itself() -> None:
    assert _codes(lint("import jax\ny = 1  # noqa: JAX9999, JAX002\n")) == []


def test_fix_removes_the_unknown_code_and_keeps_the_rest() -> None:
    code = ("import jax\n"
            "a = 1  # noqa: JAX9999\n"
            "b = 2  # noqa: E501, JAX9999, JAX101\n"
            "c = 3  # type: ignore  # noqa: JAX9, JAX8\n"
            "d = 4  # noqa: JAX9999 -- the old name\n")
    text = code
    for _ in range(5):
        text, n = apply_findings(text, [f for f in lint(text) if f.code == "JAX002"], unsafe=False)
        if n == 0:
            break
    assert text == ("import jax\n"
                    "a = 1\n"
                    "b = 2  # noqa: E501, JAX101\n"
                    "c = 3  # type: ignore\n"
                    "d = 4  # noqa: JAX9999 -- the old name\n")
    cst.parse_module(text)
    # the last one has no fix (removing the directive would cut the comment), still reported
    assert _codes(lint(text)) == [("JAX002", 5, 16)]
    assert [f.fix for f in lint(text)] == [None]


def test_the_cli_fix_applies_it(project: Path) -> None:
    r = _jaxlint("m.py", "--fix", "--output-format", "concise", cwd=project)
    assert (project / "m.py").read_text() == ("import jax.numpy as jnp\n\nx = jnp.zeros(3)\n"
                                              "x = x.at[0].set(1.0)\n")
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_docs_say_it() -> None:
    text = (ROOT / "docs" / "cli.md").read_text()
    assert "jaxlint does not yet" not in text
    assert "JAX002" in text


def test_add_noqa_leaves_jax002_to_its_fix_and_merges_after_what_is_written(tmp_path: Path) -> None:
    """--add-noqa added JAX002 to the directive it complains about (silencing the
    complaint), and took `# noqa: JAX-101` for a blanket noqa (its own regex): nothing
    added, the JAX101 finding stayed.  Now JAX002 is never added, and a code goes after
    the codes as written."""
    (tmp_path / "b.py").write_text("import jax.numpy as jnp\nx = jnp.zeros(3)\n"
                                   "x[0] = 1  # noqa: JAX9999\nx[1] = 1  # noqa: JAX-101\n"
                                   "x[2] = 1  # noqa:E501\nx[2] = 1  # noqa\n")
    r = _jaxlint("b.py", "--add-noqa", cwd=tmp_path)
    assert r.returncode == 0 and r.stderr == (
        "Added 3 noqa directives.\nLeft 2 JAX002 findings (a `# noqa` code that names no rule is removed from "
        "its directive, not silenced): `jaxlint check --fix --select JAX002` removes them.\n")
    assert (tmp_path / "b.py").read_text() == (
        "import jax.numpy as jnp\nx = jnp.zeros(3)\n"
        "x[0] = 1  # noqa: JAX9999, JAX101\nx[1] = 1  # noqa: JAX-101, JAX101\n"
        "x[2] = 1  # noqa:E501, JAX101\nx[2] = 1  # noqa\n")
    assert _codes(lint((tmp_path / "b.py").read_text())) == [("JAX002", 3, 19), ("JAX002", 4, 19)]
