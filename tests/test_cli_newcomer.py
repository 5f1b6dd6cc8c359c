"""What a newcomer hit first: command/folder collisions, a closed pipe, undecodable
files, invented URLs and outside paths, summary words, option suggestions,
narrow runtime tables."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from jaxlint.cli import cli

ROOT = Path(__file__).resolve().parent.parent


def _jaxlint(*args: str, cwd: Path, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jaxlint", *args], cwd=cwd,
                          capture_output=True, text=True, **kw)


# ----------------------------------------------------------------------------- collisions

BUGGY = "import jax.numpy as jnp\n\n\ndef f():\n    x = jnp.zeros(3)\n    x[0] = 1.0\n    return x\n"


def test_clean_beside_a_clean_folder_is_refused_and_removes_nothing(tmp_path: Path) -> None:
    (tmp_path / "clean").mkdir()
    (tmp_path / "clean" / "m.py").write_text(BUGGY)
    # the folder is linted (and cached) with `check`
    lint = _jaxlint("check", "clean", "--output-format", "concise", cwd=tmp_path)
    assert lint.returncode == 1 and lint.stdout.startswith("clean/m.py:6:5: JAX101")
    assert (tmp_path / ".jaxlint_cache" / "CACHEDIR.TAG").exists()
    r = _jaxlint("clean", cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.splitlines()[-1] == (
        "error: 'clean' is both a folder here and a jaxlint command: `jaxlint check clean` "
        "lints the folder; `jaxlint clean --cache-dir .jaxlint_cache` removes the cache")
    assert (tmp_path / ".jaxlint_cache" / "CACHEDIR.TAG").exists()
    # the command, as the line names it
    cleaned = _jaxlint("clean", "--cache-dir", ".jaxlint_cache", cwd=tmp_path)
    assert cleaned.returncode == 0 and not (tmp_path / ".jaxlint_cache").exists()


def test_bench_beside_a_bench_folder_runs_no_user_code(tmp_path: Path) -> None:
    (tmp_path / "bench").mkdir()
    marker = tmp_path / "executed"
    (tmp_path / "bench" / "b.py").write_text(
        f"import jax\nopen({str(marker)!r}, 'w').write('ran')\n")
    r = _jaxlint("bench", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.splitlines()[-1] == (
        "error: 'bench' is both a folder here and a jaxlint command: `jaxlint check bench` "
        "lints the folder; `jaxlint bench .` runs the bench command on the current directory")
    assert not marker.exists()
    # with more arguments the command is unambiguous; without a folder it is the command
    lint = _jaxlint("check", "bench", "--no-cache", cwd=tmp_path)
    assert lint.returncode == 0 and lint.stdout == "All checks passed!\n"
    assert not marker.exists()
    elsewhere = tmp_path / "other"
    elsewhere.mkdir()
    assert _jaxlint("clean", cwd=elsewhere).stdout.startswith("No cache at ")


# ----------------------------------------------------------------------------- closed pipe


def test_closed_pipe_exits_quietly(tmp_path: Path) -> None:
    lines = ["import jax.numpy as jnp", "", "def f():", "    x = jnp.zeros(3)"]
    lines += [f"    x[{i}] = 1" for i in range(600)]
    (tmp_path / "many.py").write_text("\n".join(lines) + "\n")
    for fmt in ("json", "full"):
        proc = subprocess.Popen([sys.executable, "-m", "jaxlint", "many.py", "--no-cache",
                                 "--output-format", fmt], cwd=tmp_path,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        first = proc.stdout.readline()
        proc.stdout.close()  # as `| head -1` does
        err = proc.stderr.read().decode()
        proc.wait(timeout=120)
        proc.stderr.close()
        assert first.strip() in (b"[", b"many.py:5:5: JAX101 [*] JAX arrays are immutable: "
                                       b"`x[0] = ...` raises TypeError. Use `x = x.at[0].set(...)`")
        assert err == "", err
        assert proc.returncode == 1


# ----------------------------------------------------------------------------- undecodable


@pytest.mark.parametrize("data", [b"x = '\xe9\xff'\n", b"import jax\nx = '\xe9\xff'\n"])
def test_undecodable_file_is_reported_whatever_it_contains(tmp_path: Path, monkeypatch, data) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "latin.py").write_bytes(data)
    (tmp_path / "ok.py").write_text("x = 1\n")
    r = CliRunner().invoke(cli, ["check", "--no-cache", "."])
    assert r.exit_code == 2
    err = r.stderr.splitlines()
    assert len(err) == 1 and err[0].startswith("error: latin.py: ")
    assert r.stdout == "No findings, but 1 path could not be checked (see the errors).\n"
    sarif = json.loads(CliRunner().invoke(cli, ["check", "--no-cache", ".", "--output-format", "sarif"]).stdout)
    inv = sarif["runs"][0]["invocations"][0]
    assert inv["executionSuccessful"] is False
    assert inv["toolExecutionNotifications"][0]["message"]["text"].startswith("latin.py: ")


# ----------------------------------------------------------------------------- no invented URLs or outside paths

_SHIPPED = ["README.md", "pyproject.toml", ".pre-commit-hooks.yaml", "Makefile"]
_FORBIDDEN = [
    re.compile(r"github\.com/jaxlint", re.I),
    re.compile(r"\.\./shared"),
    re.compile(r"/work/"),
    re.compile(r"\bproject brief\b|\bthe brief\b", re.I),
]


def _shipped_files() -> list[Path]:
    files = [ROOT / name for name in _SHIPPED]
    files += sorted((ROOT / "docs").rglob("*.md"))
    files += sorted((ROOT / "jaxlint").rglob("*.py"))
    files += sorted((ROOT / "examples").rglob("*.*"))
    return [f for f in files if f.is_file() and "__pycache__" not in f.parts]


def test_no_placeholder_url_or_outside_path_in_docs_code_or_metadata() -> None:
    problems = []
    for path in _shipped_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for n, line in enumerate(text.splitlines(), 1):
            for pattern in _FORBIDDEN:
                if pattern.search(line):
                    problems.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    # the installed package's metadata (README as long description, license)
    from importlib.metadata import metadata

    meta = metadata("jax-sharpbits")
    for pattern in _FORBIDDEN:
        if pattern.search(str(meta)):
            problems.append(f"package metadata: {pattern.pattern}")
    assert problems == []


def test_license_is_an_spdx_expression() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "Apache-2.0"


def test_no_rule_url_unless_docs_url_is_configured(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.py").write_text(BUGGY)
    data = json.loads(CliRunner().invoke(cli, ["check", "--no-cache", "m.py", "--output-format", "json"]).stdout)
    assert [d["url"] for d in data] == [None]
    rules = json.loads(CliRunner().invoke(cli, ["rules", "--output-format", "json"]).stdout)
    assert {r["url"] for r in rules} == {None}
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint]\ndocs-url = "https://docs.example.org/jaxlint/{code}.html"\n')
    data = json.loads(CliRunner().invoke(cli, ["check", "--no-cache", "m.py", "--output-format", "json"]).stdout)
    assert [d["url"] for d in data] == ["https://docs.example.org/jaxlint/JAX101.html"]
    sarif = json.loads(CliRunner().invoke(cli, ["check", "--no-cache", "m.py", "--output-format", "sarif"]).stdout)
    by_id = {r["id"]: r for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert by_id["JAX101"]["helpUri"] == "https://docs.example.org/jaxlint/JAX101.html"
    rules = json.loads(CliRunner().invoke(cli, ["rules", "--output-format", "json"]).stdout)
    assert rules[0]["url"] == f"https://docs.example.org/jaxlint/{rules[0]['code']}.html"
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\ndocs-url = "docs/rules"\n')
    bad = CliRunner().invoke(cli, ["check", "--no-cache", "m.py"])
    assert bad.exit_code == 2
    assert bad.stderr.endswith("key 'docs-url' must be an http(s) URL containing {code}, "
                               "got string 'docs/rules'\n")


def test_configuration_snippets_in_the_docs_are_valid(tmp_path: Path) -> None:
    from jaxlint.workspace.config import ConfigStore, Overrides
    from jaxlint.workspace.ruleinfo import load_rule_infos

    blocks = []
    for doc in ("README.md", "docs/cli.md", "docs/ci.md"):
        blocks += re.findall(r"```toml\n(.*?)```", (ROOT / doc).read_text(), re.S)
    assert len(blocks) >= 3
    for n, block in enumerate(blocks):
        cfg = tmp_path / f"c{n}" / "pyproject.toml"
        cfg.parent.mkdir()
        cfg.write_text(block)
        ConfigStore(load_rule_infos(), Overrides(), cfg.parent, cfg)  # raises on any problem


# ----------------------------------------------------------------------------- words and suggestions


def test_summary_words_follow_the_severities(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w.py").write_text("import jax.numpy as jnp\n\nZ = jnp.zeros(2, dtype=jnp.float64)\n")
    r = CliRunner().invoke(cli, ["check", "--no-cache", "w.py", "--output-format", "concise"])
    assert r.exit_code == 1
    assert r.stdout.splitlines()[-1] == "Found 1 warning (1 fixable with --unsafe-fixes)."
    (tmp_path / "m.py").write_text(BUGGY)
    r = CliRunner().invoke(cli, ["check", "--no-cache", ".", "--output-format", "concise"])
    assert r.stdout.splitlines()[-1] == ("Found 2 findings: 1 error, 1 warning "
                                        "(1 fixable with --fix; 1 more with --unsafe-fixes).")


def test_unknown_option_suggests_only_close_names(tmp_path: Path) -> None:
    r = _jaxlint("--bogus", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.splitlines()[-1] == "error: No such option '--bogus'."
    r = _jaxlint("check", "--statistic", cwd=tmp_path)
    assert r.stderr.splitlines()[-1] == "error: No such option '--statistic'. Did you mean '--statistics'?"


def test_bare_jaxlint_prints_the_help_and_check_alone_lints_the_folder(tmp_path: Path) -> None:
    """docs/cli.md: `jaxlint` alone shows the help (exit 2), as `ruff` alone does;
    `jaxlint check` and `jaxlint --OPTION` lint `.`."""
    (tmp_path / "m.py").write_text(BUGGY)
    bare = _jaxlint(cwd=tmp_path)
    assert (bare.returncode, bare.stdout) == (2, "")
    assert bare.stderr.startswith("Usage: jaxlint [OPTIONS] COMMAND [ARGS]...\n")
    for args in (["check"], ["--output-format", "concise"]):
        r = _jaxlint(*args, "--no-cache", cwd=tmp_path)
        assert r.returncode == 1 and "m.py:6:5: JAX101" in r.stdout, args


def test_click_errors_use_jaxlints_error_prefix(tmp_path: Path) -> None:
    """Usage errors and bad option values say `error:` as jaxlint's own errors do."""
    r = _jaxlint("check", "--output-format", "foo", "x.py", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.splitlines() == [
        "Usage: jaxlint check [OPTIONS] [PATHS]...",
        "Try 'jaxlint check --help' for help.",
        "",
        "error: Invalid value for '--output-format' (env var: 'JAXLINT_OUTPUT_FORMAT'): 'foo' is "
        "not one of 'full', 'concise', 'json', 'sarif', 'github', 'gitlab', 'junit'."]
    r = _jaxlint("rule", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.splitlines()[-1] == "error: Missing argument 'CODE'."


@pytest.mark.parametrize("args, line", [
    (["check", "m.py", "--baseline", "--output-format", "concise"],
     "error: --baseline needs a FILE: `--output-format` is an option, not a file name"),
    (["m.py", "--write-baseline", "--quiet"],
     "error: --write-baseline needs a FILE: `--quiet` is an option, not a file name"),
    (["m.py", "-o", "--output-format=json"],
     "error: --output-file needs a FILE: `--output-format=json` is an option, not a file name"),
    (["observe", "--baseline", "--run", "python m.py"],
     "error: --baseline needs a FILE: `--run` is an option, not a file name"),
    (["clean", "--cache-dir", "--config"],
     "error: --cache-dir needs a DIR: `--config` is an option, not a file name"),
])
def test_a_file_option_followed_by_an_option_needs_a_file(tmp_path: Path, args, line) -> None:
    (tmp_path / "m.py").write_text(BUGGY)
    r = _jaxlint(*args, cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr.splitlines()[-1]) == (2, "", line)
    assert not (tmp_path / "--output-format").exists() and not (tmp_path / "--quiet").exists()


def test_stdin_filename_without_dash_warns_that_it_is_ignored(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(BUGGY)
    r = _jaxlint("m.py", "--stdin-filename", "other.py", "--output-format", "concise", cwd=tmp_path)
    assert r.returncode == 1 and r.stdout.startswith("m.py:6:5: JAX101")
    assert r.stderr == ("warning: --stdin-filename names standard input, which is read only with "
                        "the path `-` (`jaxlint check - --stdin-filename other.py`); the paths "
                        "given are linted and it is ignored\n")


# ----------------------------------------------------------------------------- runtime tables


def test_rules_piped_fit_80_columns_unless_columns_says(monkeypatch) -> None:
    """`jaxlint rules | less`: 80 columns when stdout is not a terminal (COLUMNS wins)."""
    monkeypatch.delenv("COLUMNS", raising=False)
    out = CliRunner().invoke(cli, ["rules"]).stdout
    lines = out.splitlines()
    assert lines[0].startswith("jaxlint ") and max(len(ln) for ln in lines) == 80
    assert any(ln.startswith(" JAX001   syntax-error ") for ln in lines)
    monkeypatch.setenv("COLUMNS", "150")
    wide = CliRunner().invoke(cli, ["rules"]).stdout.splitlines()
    assert max(len(ln) for ln in wide) == 150


def test_runtime_report_with_nothing_to_check_prints_no_table(monkeypatch) -> None:
    from jaxlint.runtime.driver import RuntimeReport
    from jaxlint.runtime.report import write_table

    monkeypatch.delenv("COLUMNS", raising=False)
    out = io.StringIO()
    write_table(RuntimeReport(findings=[], runs=[{
        "command": "python -m a_rather_long_module_name --with --several --options --given",
        "status": "ok", "wall_s": 1.25, "processes": 1}]), out, False)
    assert out.getvalue() == (
        "--run `python -m a_rather_long_module_name --with --several --options --given`: ok in "
        "1.2 s, 1 Python process(es) recorded\nno findings to check\n")


def test_runtime_table_is_readable_at_80_columns(monkeypatch) -> None:
    from jaxlint.findings import Finding, Severity
    from jaxlint.runtime.driver import RuntimeReport
    from jaxlint.runtime.report import write_table

    evidence = ("two jitted calls on the same inputs return identical outputs while two eager "
                "calls (jax.disable_jit) differ: the host random numbers were drawn once, at trace time")
    f = Finding("JAX406", "host-rng-in-trace", "m", "examples/sharp/experiment.py", 19, 13, 19, 30,
                Severity.ERROR, function="augment",
                runtime={"verdict": "confirmed", "evidence": evidence,
                         "inputs": ["x: f32[8] (JAXLINT_INPUTS)"]})
    report = RuntimeReport(findings=[f], environment={"jax_version": "0.10.2", "device": "cpu"})
    monkeypatch.setenv("COLUMNS", "80")
    out = io.StringIO()
    write_table(report, out, False)
    lines = out.getvalue().splitlines()
    assert max(len(ln) for ln in lines) <= 80
    assert lines[:7] == [
        "jaxlint runtime: JAX 0.10.2 on cpu",
        "Runtime verdicts",
        "examples/sharp/experiment.py:19:13 JAX406 confirmed in augment",
        "    evidence: two jitted calls on the same inputs return identical outputs while",
        "      two eager calls (jax.disable_jit) differ: the host random numbers were",
        "      drawn once, at trace time",
        "    inputs assumed: x: f32[8] (JAXLINT_INPUTS)",
    ]
    assert lines[-1] == "1 confirmed"


@pytest.mark.slow
def test_installing_prints_no_setuptools_warning(tmp_path: Path) -> None:
    """What `make demo`/`make test` run (an editable install, quiet), into a scratch
    target: setuptools' deprecation and editable-mode warnings must not appear."""
    run = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(tmp_path / "t"),
         "-e", str(ROOT)],
        capture_output=True, text=True, timeout=300)
    out = run.stdout + run.stderr
    if run.returncode != 0 and re.search(r"No matching distribution|Could not find a version|"
                                         r"Failed to establish a new connection", out):
        pytest.skip("setuptools cannot be fetched for the isolated build here")
    assert run.returncode == 0, out
    assert re.findall(r".*(?:BuildBackendWarning|SetuptoolsDeprecationWarning|SetuptoolsWarning).*",
                      out) == []


# ----------------------------------------------------------------------------- issue 25: what a new user hit


def test_ctrl_c_exits_130_with_one_line(tmp_path: Path) -> None:
    import os
    import signal
    import time

    # `check -` waits on stdin: Ctrl-C (SIGINT to the whole process group, as a terminal sends it)
    proc = subprocess.Popen([sys.executable, "-m", "jaxlint", "check", "-", "--no-cache"], cwd=tmp_path,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        _wait_reading_stdin(proc)  # past the imports, reading stdin
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert err == "interrupted\n" and out == ""


def _wait_reading_stdin(proc: subprocess.Popen, limit: float = 120.0) -> None:
    """Until ``proc`` is blocked reading its standard input (Linux: its current system
    call is read(0, ...)), not a fixed sleep that a loaded machine outruns."""
    import time

    syscall = Path(f"/proc/{proc.pid}/syscall")
    began = time.monotonic()
    while time.monotonic() - began < limit:
        assert proc.poll() is None, proc.communicate()
        try:
            if syscall.read_text().startswith("0 0x0 "):
                return
        except OSError:  # no /proc, or not allowed: the time it always took, with room
            time.sleep(3)
            return
        time.sleep(0.02)
    raise AssertionError("jaxlint never came to read its standard input")


_CTRL_C_AT = r"""
import signal, sys, weakref
sys.argv = ["jaxlint", "check", "-", "--no-cache"]
import click.core
from jaxlint import _entry
from jaxlint.cli import app

WHERE = {where!r}

def ctrl_c():
    signal.raise_signal(signal.SIGINT)

if WHERE == "click":  # in click's Command.main, between make_context and invoke
    enter = click.core.Context.__enter__
    def entered(self):
        if self.parent is None:
            ctrl_c()
        return enter(self)
    click.core.Context.__enter__ = entered
else:  # in a weakref callback (an import lock's, a __del__'s): Python drops what it raises
    invoke = app._DefaultGroup.invoke
    def invoked(self, ctx):
        class Gone: pass
        gone = Gone()
        keep = weakref.ref(gone, lambda ref: ctrl_c())
        del gone
        return invoke(self, ctx)  # then `check -` reads stdin until the Ctrl-C comes
    app._DefaultGroup.invoke = invoked
_entry.main()
"""


@pytest.mark.parametrize("where", ["click", "weakref-callback"])
def test_ctrl_c_where_python_or_click_would_lose_it_is_130(tmp_path: Path, where: str) -> None:
    """A Ctrl-C that lands in click's own code (click printed "Aborted!", status 1) or in
    a weakref callback (Python printed "Exception ignored in ...", dropped it and the
    run went on reading stdin: the flaky Ctrl-C test under load) is "interrupted" and
    130 all the same: sent again a moment later, where jaxlint takes it."""
    proc = subprocess.run([sys.executable, "-c", _CTRL_C_AT.format(where=where)], cwd=tmp_path,
                          stdin=subprocess.PIPE, capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stderr, proc.stdout) == (130, "interrupted\n", "")


def test_an_unraisable_keyboard_interrupt_is_raised_again() -> None:
    """``_entry._unraisable`` (sys.unraisablehook under the console script): the dropped
    KeyboardInterrupt comes back in the main thread; other unraisable errors go to the
    hook that was there before."""
    import signal
    import time
    import weakref

    from jaxlint import _entry

    seen = []
    hook = sys.unraisablehook
    sys.unraisablehook = lambda u: _entry._unraisable(u, seen.append)
    try:
        class Gone:
            pass

        with pytest.raises(KeyboardInterrupt):
            gone = Gone()
            keep = weakref.ref(gone, lambda ref: signal.raise_signal(signal.SIGINT))  # noqa: F841
            del gone
            for _ in range(500):
                time.sleep(0.01)
        assert seen == []
        gone = Gone()
        keep = weakref.ref(gone, lambda ref: 1 / 0)  # noqa: F841
        del gone
        assert [u.exc_type for u in seen] == [ZeroDivisionError]
    finally:
        sys.unraisablehook = hook


@pytest.fixture(scope="module")
def interpreter_start() -> float:
    """How long Python takes here to start and reach the script's first import (a Ctrl-C
    before that is the interpreter's, not jaxlint's); the slowest of three."""
    import time

    took = []
    for _ in range(3):
        began = time.monotonic()
        subprocess.run([sys.executable, "-c", "import jaxlint._entry"], check=True)
        took.append(time.monotonic() - began)
    return max(took)


@pytest.mark.parametrize("delay", [0.0, 0.03, 0.06, 0.1, 0.2, 0.35])
def test_ctrl_c_while_the_console_script_imports_is_130(tmp_path: Path, delay: float,
                                                         interpreter_start: float) -> None:
    """The installed `jaxlint` script (not `python -m jaxlint`): a Ctrl-C while it imports
    its modules is "interrupted" and 130, never a KeyboardInterrupt traceback nor status -2
    (docs/runtime.md: "wherever it lands, the start-up included").  The delays sweep the
    imports, from when the interpreter has started."""
    import os
    import signal
    import time

    delay += interpreter_start
    script = Path(sys.executable).parent / "jaxlint"
    assert "from jaxlint._entry import main" in script.read_text(), "stale script: run make"
    proc = subprocess.Popen([str(script), "check", "-", "--no-cache"], cwd=tmp_path,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        time.sleep(delay)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert (proc.returncode, err, out) == (130, "interrupted\n", "")


def test_an_interrupt_does_not_outlive_its_main_call(tmp_path: Path, monkeypatch, capsys) -> None:
    """After one in-process `main()` ended by Ctrl-C, the next `main()` exits with its own
    status (here 0), not os._exit(130)."""
    import jaxlint.cli as cli_package
    from jaxlint.cli import app

    monkeypatch.setattr(app, "INTERRUPTED", True)  # what an earlier interrupted main() left
    ended = []
    monkeypatch.setattr(cli_package, "exit_interrupted", lambda say=True: ended.append(130))
    (tmp_path / "ok.py").write_text("x = 1\n")
    with pytest.raises(SystemExit) as exit_:
        cli_package.main(["check", str(tmp_path / "ok.py"), "--no-cache"])
    assert (exit_.value.code, ended) == (0, [])


def test_a_folder_without_python_files_warns_as_ruff_does(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "readme.txt").write_text("import jax\n")
    r = _jaxlint("check", "notes", "--no-cache", cwd=tmp_path)
    assert r.returncode == 0
    assert r.stderr == "warning: No Python files found under the given path(s)\n"
    assert r.stdout == ""  # no "All checks passed!": nothing was checked


NO_JAX_SITECUSTOMIZE = '''
import sys


class _NoJax:
    """Makes `import jax` fail in this interpreter and every child that inherits PYTHONPATH."""

    def find_spec(self, name, path=None, target=None):
        if name == "jax" or name.startswith("jax."):
            raise ModuleNotFoundError("No module named 'jax'", name=name)
        return None


sys.meta_path.insert(0, _NoJax())
'''


@pytest.mark.parametrize("command", ["confirm", "bench", "observe"])
def test_confirm_without_jax_says_to_install_the_runtime_extra(tmp_path: Path, command: str) -> None:
    """Every runtime command gives the install line the README gives: from a
    checkout (jax-sharpbits is not on PyPI; observe named `jax-sharpbits[runtime]`)."""
    import os

    stub = tmp_path / "nojax"
    stub.mkdir()
    (stub / "sitecustomize.py").write_text(NO_JAX_SITECUSTOMIZE)
    (tmp_path / "m.py").write_text(BUGGY)
    env = dict(os.environ, PYTHONPATH=str(stub))
    args = ["--", sys.executable, "m.py"] if command == "observe" else ["m.py", "--no-cache"]
    r = _jaxlint(command, *args, cwd=tmp_path, env=env)
    assert r.returncode == 2
    assert r.stdout == ""
    what = "your command" if command == "observe" else "your code"
    assert r.stderr == (
        f"error: `jaxlint {command}` runs {what} with JAX, which cannot be imported here "
        "(No module named 'jax'): install the runtime extra from a jaxlint checkout, "
        "`pip install -e '.[runtime]'` (or JAX itself: `pip install jax`)\n")
    assert all("jax-sharpbits[" not in p.read_text() for p in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")])


TWO_UNSAFE = "import jax.numpy as jnp\ny = jnp.ones(3, dtype=jnp.float64)\nz = jnp.zeros(2, dtype=jnp.float64)\n"


def test_fix_wording_counts_fixes_as_the_summary_does(tmp_path: Path) -> None:
    (tmp_path / "u.py").write_text(TWO_UNSAFE)
    r = _jaxlint("check", "--no-cache", "--fix", "--unsafe-fixes", "--show-fixes", "u.py", cwd=tmp_path)
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert lines[0] == "Fixed 2 warnings:"  # JAX110 is a warning: one noun for both lines
    assert lines[-1] == "Found 2 warnings (2 fixed, 0 remaining)."


def test_diff_names_the_hidden_unsafe_fixes(tmp_path: Path) -> None:
    (tmp_path / "u.py").write_text(TWO_UNSAFE)
    (tmp_path / "t.py").write_text("import jax\n\ny = jax.tree_map(f, z)\n")
    only_unsafe = _jaxlint("check", "--no-cache", "--diff", "u.py", cwd=tmp_path)
    assert only_unsafe.returncode == 0 and only_unsafe.stdout == ""
    assert only_unsafe.stderr == (
        "No fixes available (2 hidden fixes can be enabled with the `--unsafe-fixes` option).\n")
    both = _jaxlint("check", "--no-cache", "--diff", "u.py", "t.py", cwd=tmp_path)
    assert both.returncode == 1 and both.stdout.startswith("--- a/t.py\n")
    assert both.stderr == (
        "Would fix 1 error (2 hidden fixes can be enabled with the `--unsafe-fixes` option).\n")


def test_statistics_marks_unsafe_fixable_rules_as_ruff_does(tmp_path: Path) -> None:
    (tmp_path / "u.py").write_text(TWO_UNSAFE)
    (tmp_path / "t.py").write_text("import jax\n\ny = jax.tree_map(f, z)\n")
    r = _jaxlint("check", "--no-cache", "--statistics", "u.py", "t.py", cwd=tmp_path)
    assert r.stdout.splitlines()[:2] == [
        "2\tJAX110\t[-] float64-without-x64",
        "1\tJAX901\t[*] removed-jax-api",
    ]
    shown = _jaxlint("check", "--no-cache", "--statistics", "--unsafe-fixes", "u.py", cwd=tmp_path)
    assert shown.stdout.splitlines()[0] == "2\tJAX110\t[*] float64-without-x64"


def test_rule_page_cites_jax_docs_without_seed_numbers() -> None:
    r = CliRunner().invoke(cli, ["rule", "JAX201", "--output-format", "markdown"])
    assert r.exit_code == 0
    assert r.output.splitlines()[2] == (
        "Enabled by default · Severity: error · No fix available · JAX docs: The Sharp Bits § Control Flow; "
        "FAQ § Abstract tracer value encountered")
    assert "seed" not in r.output.lower()


def test_unknown_codes_get_a_did_you_mean(tmp_path: Path) -> None:
    r = _jaxlint("rule", "JAX3011", cwd=tmp_path)  # (JAX2011: JAX201 and JAX211 alike)
    assert r.returncode == 2
    assert r.stderr == "error: unknown rule 'JAX3011'; did you mean JAX301? (see `jaxlint rules`)\n"
    far = _jaxlint("rule", "XYZ", cwd=tmp_path)
    assert far.stderr == "error: unknown rule 'XYZ' (see `jaxlint rules`)\n"
    (tmp_path / "m.py").write_text(BUGGY)
    sel = _jaxlint("check", "--no-cache", "--select", "JAX1011", "m.py", cwd=tmp_path)
    assert sel.returncode == 2
    assert sel.stderr == "error: command line: unknown rule selector 'JAX1011' in '--select'; did you mean JAX101?\n"
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nignore = ["prng-key-reuses"]\n')
    cfg = _jaxlint("check", "--no-cache", "m.py", cwd=tmp_path)
    assert cfg.returncode == 2
    assert cfg.stderr == (f"error: {tmp_path / 'pyproject.toml'}: unknown rule selector 'prng-key-reuses' "
                          "in 'ignore'; did you mean prng-key-reuse?\n")


def test_json_fix_edits_use_rows_and_columns_as_locations_do(tmp_path: Path) -> None:
    (tmp_path / "t.py").write_text("import jax\n\ny = jax.tree_map(f, z)\n")
    r = _jaxlint("check", "--no-cache", "--output-format", "json", "t.py", cwd=tmp_path)
    (finding,) = json.loads(r.stdout)
    assert finding["location"] == {"row": 3, "column": 5}
    assert finding["fix"]["edits"] == [{
        "content": "jax.tree.map",
        "location": {"row": 3, "column": 5},
        "end_location": {"row": 3, "column": 17},
    }]


def test_output_file_under_a_file_says_not_a_directory(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(BUGGY)
    r = _jaxlint("check", "--no-cache", "a.py", "-o", "a.py/x.json", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr == "error: a.py/x.json: cannot be written (a.py is not a directory)\n"
    assert (tmp_path / "a.py").read_text() == BUGGY


def test_verbose_names_the_project_root_and_source_roots(tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "pyproject.toml").write_text("[tool.jaxlint]\n")
    (proj / "m.py").write_text(BUGGY)
    (proj / "n.py").write_text(BUGGY)
    r = _jaxlint("check", "-v", "--no-cache", "proj", cwd=tmp_path)
    lines = r.stderr.splitlines()
    assert "project root: proj (found by its pyproject.toml); source roots: proj/src, proj; 2 files" in lines
    (tmp_path / "loose").mkdir()
    (tmp_path / "loose" / "m.py").write_text(BUGGY)
    r = _jaxlint("check", "-v", "--no-cache", "m.py", cwd=tmp_path / "loose")
    assert ("project root: . (the current directory: no project marker above the files); "
            "source roots: src, .; 1 file") in r.stderr.splitlines()


def test_setup_leaves_jaxlint_reachable_and_says_what_tests_cost() -> None:
    tomllib = pytest.importorskip("tomllib")

    readme = (ROOT / "README.md").read_text()
    setup = readme.split("## Set-up on a fresh machine", 1)[1].split("\n## ", 1)[0]
    assert ". .venv/bin/activate   # puts `jaxlint` on your PATH" in setup
    assert "`make test` takes about 15 minutes on two cores" in setup and "make test-fast" in setup
    demo = subprocess.run(["make", "--no-print-directory", "-n", "demo"], cwd=ROOT, capture_output=True, text=True).stdout
    assert "run \\`. .venv/bin/activate\\` to put \\`jaxlint\\` on your PATH" in demo
    markers = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["markers"]
    assert any(m.startswith("slow:") for m in markers)
    fast = subprocess.run(["make", "--no-print-directory", "-n", "test-fast"], cwd=ROOT, capture_output=True, text=True).stdout
    assert fast.strip().endswith('-m pytest -m "not slow"')
    full = subprocess.run(["make", "--no-print-directory", "-n", "test"], cwd=ROOT, capture_output=True, text=True).stdout
    assert full.strip().endswith("-m pytest")  # CI keeps running everything
    slow = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "slow",
                           "-p", "no:cacheprovider", "tests/test_precommit.py", "tests/test_runtime.py"],
                          cwd=ROOT, capture_output=True, text=True).stdout
    assert "tests/test_precommit.py: 1" in slow and "tests/test_runtime.py:" in slow


@pytest.mark.parametrize("args, meant", [
    (["lsp"], "server"),
    (["lsp", "--help"], "server"),  # not check's help
    (["language-server"], "server"),
    (["mcp-server"], "mcp"),
    (["explain", "JAX101"], "rule"),
])
def test_another_tools_name_for_a_command_is_suggested(tmp_path: Path, args: list[str], meant: str) -> None:
    """`jaxlint lsp` used to say "lsp: no such file or directory" (and `--help`
    showed check's help): one line names the command meant."""
    r = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert r.exit_code == 2
    assert r.output == (f"error: '{args[0]}' is neither a file nor a command; "
                        f"did you mean `jaxlint {meant}`?\n")


def test_the_docs_say_what_ctrl_c_does() -> None:
    """docs/cli.md said Ctrl-C gives `Aborted!`, status 1 (click's default), and had a
    stray sentence fragment after the output-format table."""
    text = (ROOT / "docs" / "cli.md").read_text()
    assert "Aborted!" not in text
    assert "Ctrl-C: one line, `interrupted`, status 130" in text
    assert "rule's page offline.\ninternal error" not in text


def test_a_noqa_with_an_unknown_code_suppresses_nothing_and_says_so(tmp_path: Path) -> None:
    """`# noqa: JAX999` names no rule: the finding on its line is still reported, and
    so is the unknown code (JAX002, tests/test_noqa_codes.py), as docs/cli.md says."""
    (tmp_path / "m.py").write_text(BUGGY.replace("x[0] = 1.0", "x[0] = 1.0  # noqa: JAX999"))
    r = _jaxlint("check", "m.py", "--no-cache", "--output-format", "concise", cwd=tmp_path)
    assert r.returncode == 1 and r.stderr == ""
    assert r.stdout.splitlines()[:2] == [
        "m.py:6:5: JAX101 [*] JAX arrays are immutable: `x[0] = ...` raises TypeError. Use `x = x.at[0].set(...)`",
        "m.py:6:25: JAX002 [*] `JAX999` in `# noqa` is not a jaxlint rule code, so it suppresses nothing "
        "(see `jaxlint rules`)"]
    assert "A jaxlint code that names no rule (`# noqa: JAX9999`" in (ROOT / "docs" / "cli.md").read_text()
