"""The command line: routing, exit codes, stdin, bad files, rules, rule, version."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import jaxlint
from jaxlint.cli import cli, main
from jaxlint.rules import all_rules

BAD = "import jax\ndef f(:\n"


def _invoke(*args: str, **kw):
    return CliRunner().invoke(cli, list(args), **kw)


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "ok.py").write_text("x = 1\n")
    return tmp_path


def test_exit_codes(project: Path) -> None:
    assert _invoke("--no-cache", "ok.py").exit_code == 0
    assert _invoke("--no-cache", "bad.py").exit_code == 1
    assert _invoke("check", "--no-cache", "bad.py").exit_code == 1
    assert _invoke("--no-cache", "--exit-zero", "bad.py").exit_code == 0
    assert _invoke("--no-cache", "--exit-zero", "missing.py", "ok.py").exit_code == 2
    assert _invoke("--no-cache", "--output-format", "xml", "ok.py").exit_code == 2
    assert _invoke("--no-cache", "--jobs", "0", "ok.py").exit_code == 2


def test_no_paths_lints_the_current_directory(project: Path) -> None:
    result = _invoke("check", "--no-cache", "--output-format", "concise")
    assert result.exit_code == 1 and result.stdout.startswith("bad.py:")


def test_syntax_error_is_jax001_with_its_line(project: Path) -> None:
    data = json.loads(_invoke("--no-cache", "--output-format", "json", "bad.py").stdout)
    assert [d["code"] for d in data] == ["JAX001"]
    assert data[0]["location"]["row"] in (2, 3)


def test_non_utf8_file_gives_one_line_and_the_run_goes_on(project: Path) -> None:
    (project / "latin.py").write_bytes(b"import jax\nx = '\xe9\xff'\n")
    result = _invoke("--no-cache", "--output-format", "concise", ".")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines == ["error: latin.py: not valid UTF-8: byte 0xe9 on line 2 (save the file as "
                     "UTF-8, or name its encoding on line 1 or 2, e.g. `# -*- coding: latin-1 -*-`)"]
    assert result.stdout.startswith("bad.py:")


def test_a_non_utf8_first_line_names_the_byte_like_any_other_line(project: Path) -> None:
    (project / "first.py").write_bytes(b"# caf\xe9\nimport jax\n")
    result = _invoke("--no-cache", "--output-format", "concise", "first.py")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: first.py: not valid UTF-8: byte 0xe9 on line 1 (save the file as UTF-8, or name its "
        "encoding on line 1 or 2, e.g. `# -*- coding: latin-1 -*-`)"]


def test_an_undecodable_notebook_is_one_line_and_exit_2_like_a_py_file(project: Path) -> None:
    """A notebook's JSON is UTF-8: one that is not cannot be checked (stderr, exit 2),
    said as for a .py file; a declared encoding that the bytes break names it."""
    (project / "nb.ipynb").write_bytes(b'{"cells": [\n], "metadata": {"t": "caf\xe9"}}\n')
    (project / "asc.py").write_bytes(b"# -*- coding: ascii -*-\nimport jax\n# caf\xc3\xa9\n")
    result = _invoke("--no-cache", "--output-format", "concise", "nb.ipynb", "asc.py")
    assert (result.exit_code, result.stdout) == (
        2, "No findings, but 2 paths could not be checked (see the errors).\n")
    assert result.stderr.splitlines() == [
        "error: asc.py: not valid ascii, the encoding the file declares: byte 0xc3 on line 3",
        "error: nb.ipynb: not valid UTF-8: byte 0xe9 on line 2 (save the file as UTF-8)"]


def test_the_summary_counts_unchecked_paths_beside_findings(project: Path) -> None:
    """Findings in one file and a file that could not be checked: the summary says
    both (not only the findings), with or without fixes applied."""
    (project / "latin.py").write_bytes(b"import jax\nx = '\xe9\xff'\n")
    (project / "old.py").write_text("import jax\nx = jax.tree_map(abs, [1])\n")
    result = _invoke("--no-cache", "--output-format", "concise", "latin.py", "old.py")
    assert result.exit_code == 2
    assert result.stdout.splitlines()[-1] == (
        "Found 1 error (1 fixable with --fix); 1 path could not be checked (see the errors).")
    result = _invoke("--no-cache", "--output-format", "concise", "--fix", "latin.py", "old.py")
    assert result.exit_code == 2
    assert result.stdout.splitlines()[-1] == (
        "Found 1 error (1 fixed, 0 remaining); 1 path could not be checked (see the errors).")


def test_unreadable_file(project: Path) -> None:
    target = project / "secret.py"
    target.write_text(BAD)
    target.chmod(0)
    try:
        if target.read_bytes():  # running as root: permissions are not enforced
            pytest.skip("cannot make a file unreadable here")
    except OSError:
        pass
    try:
        result = _invoke("--no-cache", "--output-format", "concise", ".")
    finally:
        target.chmod(0o644)
    assert result.exit_code == 2
    assert "error: secret.py: cannot be read" in result.stderr
    assert result.stdout.startswith("bad.py:")


def test_stdin(project: Path) -> None:
    result = _invoke("--no-cache", "--output-format", "concise", "-", input=BAD.encode())
    assert result.exit_code == 1 and result.stdout.startswith("-:")
    result = _invoke("--output-format", "concise", "--stdin-filename", "src/model.py", "-",
                     input=BAD.encode())
    assert result.exit_code == 1 and result.stdout.startswith("src/model.py:")
    result = _invoke("--stdin-filename", "src/model.py", input=b"x = 1\n")
    assert result.exit_code == 0
    # full output shows the stdin source line
    result = _invoke("--stdin-filename", "m.py", "-", input=BAD.encode())
    assert "def f(:" in result.stdout
    # per-file-ignores and force-exclude apply to the stdin file name
    (project / "jaxlint.toml").write_text(
        'per-file-ignores = {"gen_*.py" = ["JAX001"]}\nexclude = ["vendor/"]\n'
    )
    assert _invoke("--stdin-filename", "gen_a.py", "-", input=BAD.encode()).exit_code == 0
    assert _invoke("--stdin-filename", "vendor/a.py", "-", input=BAD.encode()).exit_code == 1
    assert _invoke("--force-exclude", "--stdin-filename", "vendor/a.py", "-",
                   input=BAD.encode()).exit_code == 0
    assert _invoke("-", "ok.py", input=b"").exit_code == 2


def test_parallel_run_is_deterministic(project: Path) -> None:
    for i in range(30):
        (project / f"m{i:02d}.py").write_text(BAD if i % 3 == 0 else "import jax\nx = 1\n")
    serial = _invoke("--no-cache", "-j", "1", "--output-format", "concise", ".")
    parallel = _invoke("--no-cache", "-j", "2", "--output-format", "concise", ".")
    assert serial.exit_code == parallel.exit_code == 1
    assert serial.stdout == parallel.stdout
    assert serial.stdout.count("JAX001") == 11


def test_version_and_help() -> None:
    result = _invoke("--version")
    assert result.exit_code == 0 and result.stdout.strip() == f"jaxlint {jaxlint.__version__}"
    assert "check" in _invoke("--help").stdout
    assert "--select" in _invoke("check", "--help").stdout


def test_rules_listing() -> None:
    result = _invoke("rules")
    assert result.exit_code == 0
    for rule in all_rules():
        assert rule.code in result.stdout
    data = json.loads(_invoke("rules", "--output-format", "json").stdout)
    assert [d["code"] for d in data] == [r.code for r in all_rules()]
    assert {"code", "name", "default_enabled", "fix_availability", "summary"} <= set(data[0])


def test_rule_docs() -> None:
    result = _invoke("rule", "JAX001")
    assert result.exit_code == 0 and "syntax-error" in result.stdout and "What it does" in result.stdout
    assert _invoke("rule", "syntax-error").exit_code == 0
    assert _invoke("rule", "JAX001", "--output-format", "markdown").stdout.startswith(
        "# syntax-error (JAX001)"
    )
    bad = _invoke("rule", "JAX999")
    assert bad.exit_code == 2 and bad.stderr.strip() == "error: unknown rule 'JAX999' (see `jaxlint rules`)"


def test_rule_names_the_file_it_lives_in() -> None:
    text = _invoke("rule", "JAX201").stdout
    assert "Source: jaxlint/rules/tracing/traced_control_flow.py" in " ".join(text.split())
    markdown = _invoke("rule", "JAX201", "--output-format", "markdown").stdout
    assert "Source: [`jaxlint/rules/tracing/traced_control_flow.py`]" in markdown
    data = json.loads(_invoke("rule", "JAX503", "--output-format", "json").stdout)
    assert data["source"] == "jaxlint/rules/performance/data_sized_unrolled_loop.py"


def test_internal_error_is_one_line_without_verbose(project: Path, monkeypatch, capsys) -> None:
    import jaxlint.output as output

    def boom(*a, **k):
        raise RuntimeError("kaput\nsecond line")

    monkeypatch.setattr(output, "write", boom)
    with pytest.raises(SystemExit) as exc:
        main(["--no-cache", "ok.py"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "error: internal error: RuntimeError: kaput (run with --verbose for the traceback)"
    ]
    with pytest.raises(SystemExit):
        main(["--no-cache", "--verbose", "ok.py"])
    assert "Traceback" in capsys.readouterr().err


def test_module_entry_point(project: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "jaxlint", "--no-cache", "--output-format",
                           "concise", "bad.py"], capture_output=True, text=True)
    assert proc.returncode == 1 and proc.stdout.startswith("bad.py:")
    proc = subprocess.run([sys.executable, "-m", "jaxlint", "--select", "JAX9999", "bad.py"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_user_flow_guards(tmp_path):
    """Regressions from a user-flow review: one clear line and exit 2 each."""
    import subprocess
    import sys

    def run(*args, cwd=tmp_path):
        return subprocess.run([sys.executable, "-m", "jaxlint", *args], cwd=cwd,
                              capture_output=True, text=True)

    # a mistyped subcommand gets a hint instead of "no such file"
    r = run("ruls")
    assert r.returncode == 2 and "did you mean `jaxlint rules`" in r.stderr
    # a missing path never says "All checks passed!"
    r = run("missing.py")
    assert r.returncode == 2 and "All checks passed" not in r.stdout
    # --statistics is a table or JSON, not SARIF
    (tmp_path / "a.py").write_text("import jax\n")
    r = run("a.py", "--statistics", "--output-format", "sarif")
    assert r.returncode == 2 and "--statistics" in r.stderr
    # a typo in [tool.jaxlint.runtime] is caught by `check` too
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint.runtime]\ntimeuot = 5\n")
    r = run("a.py")
    assert r.returncode == 2 and "runtime.timeuot" in r.stderr
    # an undecodable file is an error in JUnit, not a passing test
    (tmp_path / "pyproject.toml").unlink()
    (tmp_path / "bad.py").write_bytes(b"import jax\nx = '\xe9'\n")
    r = run("bad.py", "--output-format", "junit")
    assert r.returncode == 2 and "<error" in r.stdout
