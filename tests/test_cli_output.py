"""Every output format, on real findings and on hand-made ones with fixes."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from jaxlint.cli import cli
from jaxlint.findings import Applicability, Edit, FileResult, Finding, Fix, Severity
from jaxlint.lint.linter import lint_source
from jaxlint.output import OutputReport, summary_line, write
from jaxlint.output import github, statistics
from jaxlint.workspace.ruleinfo import load_rule_infos
from jaxlint.settings import LintSettings

BAD = "import jax\ndef f(:\n"
SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "bad.py").write_text(BAD)
    (tmp_path / "pkg" / "good.py").write_text("import jax\n")
    (tmp_path / "other.py").write_text("import jax\nx = (\n")
    return tmp_path


def _expected(path: str, text: str) -> Finding:
    result = lint_source(text.encode(), path, LintSettings(select=frozenset({"JAX001"})))
    assert len(result.findings) == 1
    return result.findings[0]


def _check(*args: str):
    return CliRunner().invoke(cli, ["check", "--no-cache", *args])


def _made_up_report(tmp_path: Path) -> OutputReport:
    """Findings with a safe fix, an unsafe fix and none (no rule ships fixes yet)."""
    src = tmp_path / "m.py"
    src.write_text("import jax\nx = jnp.zeros(3)\nx[0] = 1\n")

    def finding(code: str, line: int, sev: Severity, fix: Fix | None) -> Finding:
        return Finding(code, f"rule-{code.lower()}", f"message: {code}, 100%", "m.py",
                       line, 1, line, 5, sev, fix=fix)

    safe = Fix(Applicability.SAFE, "Use .at[].set()", (Edit(3, 1, 3, 9, "x = x.at[0].set(1)"),))
    unsafe = Fix(Applicability.UNSAFE, "Rewrite", (Edit(2, 1, 2, 2, "y"),))
    findings = [
        finding("JAX001", 3, Severity.ERROR, safe),
        finding("JAX001", 2, Severity.WARNING, unsafe),
        finding("JAX002", 1, Severity.INFO, None),
    ]
    return OutputReport(results=[FileResult("m.py", findings, parsed=True)],
                        rules=load_rule_infos(), cwd=tmp_path)


def _render(fmt: str, report: OutputReport) -> str:
    buf = io.StringIO()
    write(fmt, report, buf)
    return buf.getvalue()


def test_concise_exact(project: Path) -> None:
    result = _check("--output-format", "concise", ".")
    assert result.exit_code == 1
    a = _expected("other.py", "import jax\nx = (\n")
    b = _expected("pkg/bad.py", BAD)
    assert result.stdout.splitlines() == [
        f"other.py:{a.line}:{a.col}: JAX001 {a.message}",
        f"pkg/bad.py:{b.line}:{b.col}: JAX001 {b.message}",
        "Found 2 errors.",
    ]


def test_concise_fix_marker_and_summary(tmp_path: Path) -> None:
    report = _made_up_report(tmp_path)
    lines = _render("concise", report).splitlines()
    assert lines[0] == "m.py:1:1: JAX002 message: JAX002, 100%"
    assert lines[1] == "m.py:2:1: JAX001 message: JAX001, 100%"  # unsafe fix: no marker
    assert lines[2] == "m.py:3:1: JAX001 [*] message: JAX001, 100%"
    # the words follow the severities: one error, one warning, one info
    assert summary_line(report) == ("Found 3 findings: 1 error, 1 warning, 1 info finding "
                                    "(1 fixable with --fix; 1 more with --unsafe-fixes).")
    report.unsafe_fixes = True
    assert summary_line(report) == ("Found 3 findings: 1 error, 1 warning, 1 info finding "
                                    "(2 fixable with --fix).")
    assert summary_line(OutputReport(results=[])) == "All checks passed!"


def test_full_shows_source_and_caret(project: Path) -> None:
    result = _check(".")
    assert result.exit_code == 1
    b = _expected("pkg/bad.py", BAD)
    out = result.stdout
    assert f"pkg/bad.py:{b.line}:{b.col}: JAX001 {b.message}" in out
    src_line = BAD.splitlines()[b.line - 1]
    assert f"{b.line} | {src_line}" in out
    assert " " * (b.col - 1) + "^" in out
    assert out.rstrip().endswith("Found 2 errors.")
    assert "\x1b[" not in out  # no colour when not a terminal


def test_full_fix_help_and_clean_summary(tmp_path: Path, monkeypatch) -> None:
    report = _made_up_report(tmp_path)
    out = _render("full", report)
    assert "3 | x[0] = 1\n  | ^^^^\n" in out
    assert "= help: Use .at[].set()" in out
    assert "= help (unsafe): Rewrite" in out
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.py").write_text("x = 1\n")
    result = _check("ok.py")
    assert result.exit_code == 0 and result.stdout == "All checks passed!\n"
    assert _check("-q", "ok.py").stdout == ""


def test_full_carets_count_the_columns_of_wide_characters(tmp_path: Path, monkeypatch) -> None:
    """East Asian wide characters take two terminal columns, a combining mark none: the
    carets sit under the code, as Ruff places them."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w.py").write_text('import jax.numpy as jnp\nx = jnp.zeros(3)\n'
                                   'd = {"日本": "e\u0301"}; x[0] = 5.0\n')
    out = _check("--select", "JAX101", "w.py").stdout
    assert out.splitlines()[:5] == [
        "w.py:3:19: JAX101 [*] JAX arrays are immutable: `x[0] = ...` raises TypeError. "
        "Use `x = x.at[0].set(...)`",
        "  |",
        '3 | d = {"日本": "e\u0301"}; x[0] = 5.0',
        "  | " + " " * 19 + "^" * 10,  # 18 characters before: 2 wide (+2), 1 combining (-1)
        "  |"]


def test_json_round_trips(project: Path) -> None:
    result = _check("--output-format", "json", ".")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert [d["filename"] for d in data] == ["other.py", "pkg/bad.py"]
    findings = [Finding.from_dict(d) for d in data]
    assert findings[1] == _expected("pkg/bad.py", BAD)
    assert set(data[0]) >= {"code", "message", "filename", "location", "end_location", "fix", "url"}
    report = _made_up_report(project)
    again = [Finding.from_dict(d) for d in json.loads(_render("json", report))]
    assert again == report.findings
    assert json.loads(_check("--output-format", "json", "pkg/good.py").stdout) == []


def test_sarif_validates(project: Path) -> None:
    schema = json.loads(SCHEMA.read_text())
    result = _check("--output-format", "sarif", ".")
    assert result.exit_code == 1
    log = json.loads(result.stdout)
    jsonschema.validate(log, schema)
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "jaxlint" and driver["version"]
    rules = driver["rules"]
    assert {r["id"] for r in rules} >= {"JAX001"}
    res = run["results"][1]
    assert rules[res["ruleIndex"]]["id"] == res["ruleId"] == "JAX001"
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "pkg/bad.py", "uriBaseId": "%SRCROOT%"}
    b = _expected("pkg/bad.py", BAD)
    assert loc["region"]["startLine"] == b.line and loc["region"]["startColumn"] == b.col
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].endswith("/")
    # no documentation address ships with jaxlint: none is invented
    assert all("helpUri" not in r for r in rules)
    assert "informationUri" not in driver
    # with fixes, and with a file outside the source root
    report = _made_up_report(project)
    log = json.loads(_render("sarif", report))
    jsonschema.validate(log, schema)
    fixed = [r for r in log["runs"][0]["results"] if "fixes" in r]
    assert len(fixed) == 2
    repl = fixed[0]["fixes"][0]["artifactChanges"][0]["replacements"][0]
    assert "deletedRegion" in repl and "insertedContent" in repl
    assert [r["level"] for r in log["runs"][0]["results"]] == ["note", "warning", "error"]


def test_github_exact_and_escaping(project: Path) -> None:
    result = _check("--output-format", "github", "pkg")
    b = _expected("pkg/bad.py", BAD)
    msg = b.message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    assert result.stdout.splitlines() == [
        f"::error title=jaxlint (JAX001),file=pkg/bad.py,line={b.line},col={b.col},"
        f"endLine={b.end_line},endColumn={b.end_col}::{msg}"
    ]
    f = Finding("JAX100", "n", "50% a\nb\rc: d, e", "we,ird:name.py", 1, 2, 3, 4, Severity.WARNING)
    assert github.format_finding(f) == (
        "::warning title=jaxlint (JAX100),file=we%2Cird%3Aname.py,line=1,col=2,endLine=3,"
        "endColumn=4::50%25 a%0Ab%0Dc: d, e"
    )


def test_junit_parses(project: Path) -> None:
    result = _check("--output-format", "junit", ".")
    root = ET.fromstring(result.stdout)
    assert root.tag == "testsuites" and root.get("failures") == "2"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert set(suites) == {"other.py", "pkg/bad.py", "pkg/good.py"}
    case = suites["pkg/bad.py"].find("testcase")
    assert case.get("name") == "jaxlint.JAX001"
    assert case.find("failure") is not None
    assert suites["pkg/good.py"].find("testcase").find("failure") is None


def test_statistics(project: Path, tmp_path: Path) -> None:
    result = _check("--statistics", ".")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == ["2\tJAX001\t[ ] syntax-error", "Found 2 errors."]
    data = json.loads(_check("--statistics", "--output-format", "json", ".").stdout)
    assert data == [{"code": "JAX001", "name": "syntax-error", "count": 2, "fixable": False}]
    report = _made_up_report(tmp_path)
    buf = io.StringIO()
    statistics.write(report, buf)
    assert buf.getvalue().splitlines() == [
        "2\tJAX001\t[*] rule-jax001",
        "1\tJAX002\t[ ] rule-jax002",
    ]


def test_output_file_and_env_format(project: Path, monkeypatch) -> None:
    result = _check("--output-format", "json", "-o", "out/report.json", ".")
    assert result.exit_code == 1 and result.stdout == ""
    assert len(json.loads((project / "out" / "report.json").read_text())) == 2
    monkeypatch.setenv("JAXLINT_OUTPUT_FORMAT", "concise")
    assert _check(".").stdout.splitlines()[0].startswith("other.py:")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.delenv("JAXLINT_OUTPUT_FORMAT")
    assert " | " in _check(".").stdout  # still the full format
