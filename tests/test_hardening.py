"""No input kills a run, nothing unparsed passes as clean (issue 14, items 1 and 4).

Crash isolation: cheap guards before libcst's native parser (CPython parses
first; nesting and length limits), and supervised worker processes as the
backstop (a crash or a hang costs one file, at any -j and any file count).
Decoding: BOMs of UTF-8/16/32 and PEP 263 before the prefilter; every file is
checked for being valid Python, whether or not it mentions JAX.
"""

from __future__ import annotations

import codecs
import faulthandler
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jaxlint.lint import runner
from jaxlint.parse import guard
from jaxlint.lint.linter import lint_source
from jaxlint.rules import default_codes
from jaxlint.settings import LintSettings

SETTINGS = LintSettings(select=frozenset(default_codes() | {"JAX001"}))
INPLACE = "import jax.numpy as jnp\ndef f():\n    x = jnp.zeros(3)\n    x[0] = 1\n    return x\n"
INPLACE_LINE = "{}:4:5: JAX101 [*] JAX arrays are immutable: `x[0] = ...` raises TypeError. Use `x = x.at[0].set(...)`"
DEEP_PARENS = "import jax\ny = " + "(" * 5000 + "1" + ")" * 5000 + "\n"
# valid for CPython (a flat BoolOp), nested 100,000 deep for libcst: its native parser segfaults
DEEP_AND = "import jax\ny = " + " and ".join(["a"] * 100_000) + "\n"


def _jaxlint(cwd: Path, *args: str, unguarded: bool = False) -> subprocess.CompletedProcess:
    """Run the CLI in a fresh interpreter (a crash there cannot take pytest down)."""
    code = "import sys\n"
    if unguarded:  # lift the guards so that the native crash is reached: the backstop's test
        code += "import jaxlint.parse.guard as g\ng.MAX_DEPTH = g.MAX_NODES = 10**9\n"
        # and send every file to libcst's parser (the tree built from CPython's never crashes)
        code += ("import jaxlint.parse.fastparse as fp\n"
                 "def _refuse(*a):\n    raise fp.Unsupported('test')\nfp.from_ast = _refuse\n")
    code += "from jaxlint.cli import main\nmain(sys.argv[1:])\n"
    return subprocess.run(
        [sys.executable, "-c", code, "check", "--no-cache", "--output-format", "concise", *args],
        cwd=cwd, capture_output=True, text=True, timeout=120,
    )


def _files(tmp_path: Path, bad_name: str, bad: str, n_good: int) -> list[str]:
    for i in range(n_good):
        (tmp_path / f"good{i}.py").write_text(INPLACE)
    (tmp_path / bad_name).write_text(bad)
    return [INPLACE_LINE.format(f"good{i}.py") for i in range(n_good)]


# ----------------------------------------------------------------------------- the segfault


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_5000_nested_parentheses_are_jax001_and_the_other_files_are_linted(tmp_path: Path, jobs: str) -> None:
    expected = _files(tmp_path, "deep.py", DEEP_PARENS, 2)  # few files: the serial path
    result = _jaxlint(tmp_path, "-j", jobs, ".")
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:3] == [
        "deep.py:2:205: JAX001 The file does not parse: too many nested parentheses",
        *expected,
    ]
    assert result.stderr == ""


@pytest.mark.parametrize("jobs,n_good", [("1", 2), ("2", 2), ("2", 9)])
def test_a_native_parser_crash_costs_one_file_only(tmp_path: Path, jobs: str, n_good: int) -> None:
    # the guard would refuse this file; without it libcst's parser really crashes
    expected = _files(tmp_path, "aa_crash.py", DEEP_AND, n_good)
    result = _jaxlint(tmp_path, "-j", jobs, ".", unguarded=True)
    assert result.returncode == 2
    assert result.stderr.splitlines() == ["error: aa_crash.py: could not be checked: jaxlint crashed on it (SIGSEGV)"]
    assert result.stdout.splitlines()[:-1] == sorted(expected)


def test_the_guard_refuses_the_crashing_file_with_a_clear_line(tmp_path: Path) -> None:
    expected = _files(tmp_path, "aa_crash.py", DEEP_AND, 1)
    result = _jaxlint(tmp_path, "-j", "1", ".")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "error: aa_crash.py: could not be checked: nesting deeper than 1,500 levels at line 2"
    ]
    assert result.stdout.splitlines()[:-1] == expected


# ----------------------------------------------------------------------------- supervisor


def _job(name: str, text: str = INPLACE) -> tuple:
    return (name, text.encode(), SETTINGS)


def _misbehaving_lint_one(monkeypatch) -> None:
    """Workers are forked: a patched lint_one is what they run."""
    real = runner.lint_one

    def fake(path, data, settings, trees=None):
        name = Path(path).name
        if name.startswith("segv"):
            faulthandler.disable()  # pytest's dump of the crash would only be noise
            os.kill(os.getpid(), signal.SIGSEGV)
        if name.startswith("exit"):
            os._exit(3)
        if name.startswith("hang"):
            time.sleep(60)
        if name.startswith("spin"):  # busy: it uses CPU time until it is stopped
            end = time.monotonic() + 60
            while time.monotonic() < end:
                pass
        return real(path, data, settings, trees)

    monkeypatch.setattr(runner, "lint_one", fake)


@pytest.mark.parametrize("workers", [1, 2])
def test_supervise_reports_crashes_exits_and_hangs_and_lints_the_rest(monkeypatch, workers: int) -> None:
    _misbehaving_lint_one(monkeypatch)
    names = ["a.py", "segv.py", "b.py", "exit.py", "c.py", "hang.py", "d.py", "e.py", "f.py"]
    start = time.monotonic()
    outcomes = list(runner.supervise([_job(n) for n in names], workers, file_timeout=1.5))
    assert time.monotonic() - start < 30
    by_path = {r.path: (r, tb, cacheable) for r, tb, cacheable in outcomes}
    assert sorted(by_path) == sorted(names) and len(outcomes) == len(names)
    assert by_path["segv.py"][0].error == "could not be checked: jaxlint crashed on it (SIGSEGV)"
    assert by_path["exit.py"][0].error == "could not be checked: the worker checking it exited (code 3)"
    assert by_path["hang.py"][0].error == "could not be checked: took over 1.5 s"
    for bad in ("segv.py", "exit.py", "hang.py"):
        assert by_path[bad][2] is False  # never cached: a machine's state, not the file's
    for good in ("a.py", "b.py", "c.py", "d.py", "e.py", "f.py"):
        result, tb, cacheable = by_path[good]
        assert tb is None and cacheable and result.error is None
        assert [(f.code, f.line, f.col) for f in result.findings] == [("JAX101", 4, 5)]
    assert multiprocessing.active_children() == []  # every worker, the replaced ones too, is gone


def test_a_busy_file_is_stopped_by_its_cpu_time(monkeypatch) -> None:
    _misbehaving_lint_one(monkeypatch)
    outcomes = list(runner.supervise([_job("a.py"), _job("spin.py"), _job("b.py")], 1,
                                     file_timeout=1.5))
    by_path = {r.path: r for r, _, _ in outcomes}
    assert by_path["spin.py"].error == "could not be checked: took over 1.5 s"
    assert by_path["a.py"].error is None and by_path["b.py"].error is None


@pytest.mark.parametrize("wall,cpu,over", [
    (70.0, 20.0, False),   # a loaded machine: 70 s of wall time gave it 20 s of CPU time
    (70.0, 60.0, True),    # 60 s of CPU time: the limit
    (61.0, 0.3, True),     # blocked (under 1% of a CPU): stopped at the limit in wall time
    (601.0, 30.0, True),   # ten times the limit in wall time
    (59.0, 0.0, False),
])
def test_the_file_limit_counts_cpu_time(monkeypatch, wall, cpu, over) -> None:
    """`--file-timeout` counts the worker's CPU time, so a file does not fail on a busy
    machine (the new-user review: a 30k-line file, 16.6 s of CPU, 63 s of wall time at
    load 15, "took over 60 s"), and a worker that waits is still stopped in time."""
    from types import SimpleNamespace

    w = object.__new__(runner._Worker)
    w.process = SimpleNamespace(pid=12345)
    w.since, w.cpu_since, w.seen = 1000.0, 5.0, None
    monkeypatch.setattr(runner, "_cpu_seconds", lambda pid: 5.0 + cpu)
    assert w.over(60.0, 1000.0 + wall) is over
    if not over:  # looked at again when the rest of its CPU time could be spent
        assert w.check_at == 1000.0 + wall + max(0.5, 60.0 - cpu)
    monkeypatch.setattr(runner, "_cpu_seconds", lambda pid: None)  # no /proc: wall time
    assert w.over(60.0, 1000.0 + wall) is (wall >= 60.0)


def test_a_worker_that_computed_and_then_waits_is_stopped(monkeypatch) -> None:
    """20 s of CPU in the first 70 s, then none for the next 10 s (the diff review: a
    worker stopped by SIGSTOP after computing ran on to ten times the limit): blocked."""
    from types import SimpleNamespace

    w = object.__new__(runner._Worker)
    w.process = SimpleNamespace(pid=12345)
    w.since, w.cpu_since, w.seen = 1000.0, 5.0, None
    monkeypatch.setattr(runner, "_cpu_seconds", lambda pid: 25.0)
    assert w.over(60.0, 1070.0) is False  # 20 s of CPU in 70 s: a loaded machine
    assert w.over(60.0, 1080.0) is True   # no CPU since: it waits


def test_a_stopped_run_leaves_no_worker_behind(monkeypatch) -> None:
    _misbehaving_lint_one(monkeypatch)
    outcomes = runner.supervise([_job("a.py"), _job("hang.py"), _job("b.py")], 2, file_timeout=60)
    first = next(outcomes)
    assert first[0].path in ("a.py", "b.py")
    outcomes.close()  # what Ctrl-C in the consumer does (GeneratorExit at the yield)
    assert multiprocessing.active_children() == []


def test_cli_file_timeout_option(monkeypatch, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from jaxlint.cli import cli

    _misbehaving_lint_one(monkeypatch)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hang.py").write_text(INPLACE)
    (tmp_path / "ok.py").write_text(INPLACE)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "-j", "1", "--file-timeout", "1",
                                      "--output-format", "concise", "."])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["error: hang.py: could not be checked: took over 1 s"]
    assert result.stdout.splitlines()[0] == INPLACE_LINE.format("ok.py")


def test_a_crash_is_not_cached(monkeypatch, tmp_path: Path) -> None:
    from jaxlint.cache import Cache

    _misbehaving_lint_one(monkeypatch)
    (tmp_path / "segv.py").write_text(INPLACE)
    cache = Cache(tmp_path / "cache", "digest")
    out = runner.run([tmp_path / "segv.py"], lambda p: SETTINGS, cache, jobs=1)
    assert out.errors == [f"{tmp_path / 'segv.py'}: could not be checked: jaxlint crashed on it (SIGSEGV)"]
    assert not list((tmp_path / "cache").rglob("*.json"))


def test_lint_isolated_survives_a_crash(monkeypatch) -> None:
    _misbehaving_lint_one(monkeypatch)
    result, tb = runner.lint_isolated("segv.py", INPLACE.encode(), SETTINGS)
    assert result.error == "could not be checked: jaxlint crashed on it (SIGSEGV)" and tb is None
    result, tb = runner.lint_isolated("ok.py", INPLACE.encode(), SETTINGS)
    assert [(f.code, f.line) for f in result.findings] == [("JAX101", 4)]


def test_recursion_error_in_the_analysis_is_could_not_be_checked(monkeypatch) -> None:
    import jaxlint.engine as engine

    def deep(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(engine, "analyze", deep)
    result, tb = runner.lint_one("f.py", INPLACE.encode(), SETTINGS)
    assert tb is None and result.findings == []
    assert result.error == "could not be checked: the analysis ran out of stack (the code is nested too deeply)"


# ----------------------------------------------------------------------------- guards


@pytest.mark.parametrize("text,message", [
    ("import jax\ny = x" + ".a" * 2000 + "\n", "nesting deeper than 1,500 levels at line 2"),
    ("import jax\ny = " + "+".join(f"a{i}" for i in range(2000)) + "\n", "nesting deeper than 1,500 levels at line 2"),
    ("import jax\ny = " + "-" * 1600 + "x\n", "nesting deeper than 1,500 levels at line 2"),
    ("import jax\n\n\ny = [\n" + "a,\n" * 100_001 + "]\n", "a statement of more than 100,000 syntax nodes at line 4"),
])
def test_guard_limits(text: str, message: str) -> None:
    result = lint_source(text, "f.py", SETTINGS)
    assert result.error == f"could not be checked: {message}"
    assert result.findings == [] and not result.parsed


def test_guard_lets_deep_but_legal_code_through() -> None:
    text = "import jax.numpy as jnp\ndef f():\n    x = jnp.zeros(3)\n    x[0] = " + "+".join(["1"] * 900) + "\n"
    result = lint_source(text, "f.py", SETTINGS)
    assert result.error is None and result.parsed
    assert [(f.code, f.line, f.col) for f in result.findings] == [("JAX101", 4, 5)]


def test_guard_walks_only_long_statements() -> None:
    import ast

    text = "def f():\n" + "    x = (1, 2)\n" * 5000
    tree = ast.parse(text)
    seen = []
    real = guard._measure
    try:
        guard._measure = lambda node, *a: seen.append(node)  # type: ignore[assignment]
        guard.check_limits(tree, text, max_depth=50, max_nodes=1000)
    finally:
        guard._measure = real  # type: ignore[assignment]
    assert not [n for n in seen if isinstance(n, (ast.stmt, ast.expr))]  # each statement is too short to matter
    with pytest.raises(guard.LimitExceeded) as info:
        guard.check_limits(ast.parse("x = " + "not " * 60 + "y\n"), "x = " + "not " * 60 + "y\n", max_depth=50)
    assert info.value.line == 1 and info.value.message == "nesting deeper than 50 levels at line 1"


def test_libcst_refusing_valid_python_is_could_not_be_checked() -> None:
    # CPython joins 5,000 implicitly concatenated strings; libcst's grammar gives up
    text = "import jax\ny = " + " ".join(['"a"'] * 5000) + "\n"
    result = lint_source(text, "f.py", SETTINGS)
    assert result.error is not None and result.error.startswith("could not be checked: libcst cannot parse it (line 2: ")
    assert result.findings == []


@pytest.mark.parametrize("text,what", [
    ("import jax\n\ntype Vec = list[float]\n", "a `type` alias statement (PEP 695)"),
    ("import jax\n\ndef first[T](xs: list[T]) -> T:\n    return xs[0]\n", "type parameters (`def f[T]`, PEP 695)"),
    ("import jax\n\nclass Box[T]:\n    item: T\n", "type parameters (`class C[T]`, PEP 695)"),
])
def test_syntax_of_a_newer_python_is_checked_on_libcsts_tree(text: str, what: str) -> None:
    # a project that requires Python 3.12 linted by a jaxlint running on 3.11: the file is
    # valid Python, so JAX001 ("does not parse") would be false; libcst's grammar reads
    # the syntax, so the file is checked on libcst's tree (fresh set 20: efax's 12 such
    # files were "could not be checked")
    result = lint_source(text, "f.py", SETTINGS)
    assert result.findings == []
    assert result.error is None


NEWER_WITH_BITS = """\
import jax

type Vec = jax.Array


class Box[T]:
    def __init__(self, v: T):
        self.v = v


@jax.jit
def flip[T](x: Vec) -> Vec:
    if x.sum() > 0:
        return x
    return -x


def noise(key):
    return jax.random.normal(key, (2,)) + jax.random.normal(key, (2,))
"""


def test_a_newer_syntax_file_gets_its_findings() -> None:
    result = lint_source(NEWER_WITH_BITS, "f.py", SETTINGS)
    assert result.error is None
    assert [(f.code, f.line, f.col) for f in result.findings] == [
        ("JAX201", 13, 8), ("JAX301", 19, 43)]


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="CPython parses PEP 695 itself")
def test_a_newer_syntax_file_whose_check_fails_is_could_not_be_checked(monkeypatch) -> None:
    from jaxlint.lint import linter

    def deep(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(linter, "_parse_and_analyze", deep)
    result = lint_source("import jax\n\ntype Vec = list[float]\n", "f.py", SETTINGS)
    assert result.findings == []
    here = f"Python {sys.version_info[0]}.{sys.version_info[1]}"
    assert result.error == (
        "could not be checked: line 3 uses a `type` alias statement (PEP 695), new in Python "
        f"3.12; this jaxlint runs on {here}: run jaxlint with the project's Python (3.12 or newer)")


def test_newer_syntax_jaxlint_cannot_name_is_checked_too() -> None:
    result = lint_source('import jax\n\nx = f"{"a"}"\n', "f.py", SETTINGS)  # PEP 701 f-string
    assert result.findings == []
    assert result.error is None


def test_invalid_syntax_is_still_jax001() -> None:
    result = lint_source("import jax\nx = (\n", "f.py", SETTINGS)
    assert result.error is None
    assert [(f.code, f.line, f.col) for f in result.findings] == [("JAX001", 2, 5)]


# ----------------------------------------------------------------------------- nothing unparsed passes


def test_a_file_with_a_utf8_bom_is_decoded_before_the_prefilter() -> None:
    result = lint_source(codecs.BOM_UTF8 + INPLACE.encode("utf-8"), "f.py", SETTINGS)
    assert result.error is None and result.parsed
    assert [(f.code, f.line, f.col) for f in result.findings] == [("JAX101", 4, 5)]


@pytest.mark.parametrize("encoding,bom,name", [
    ("utf-16-le", codecs.BOM_UTF16_LE, "UTF-16 (byte-order mark FF FE)"),
    ("utf-16-be", codecs.BOM_UTF16_BE, "UTF-16 (byte-order mark FE FF)"),
    ("utf-32-le", codecs.BOM_UTF32_LE, "UTF-32 (byte-order mark FF FE 00 00)"),
    ("utf-32-be", codecs.BOM_UTF32_BE, "UTF-32 (byte-order mark 00 00 FE FF)"),
])
def test_a_utf16_or_utf32_file_is_refused_as_python_refuses_it(encoding: str, bom: bytes, name: str) -> None:
    """CPython runs no UTF-16/32 source (it reads UTF-8 or what a coding line names):
    one line says why, as for undeclared latin-1, never a lint of a file that cannot run."""
    data = bom + INPLACE.encode(encoding)
    with pytest.raises(SyntaxError):
        compile(data, "f.py", "exec")
    result = lint_source(data, "f.py", SETTINGS)
    assert result.findings == [] and not result.parsed
    assert result.error == (f"saved as {name}, which Python cannot run: it reads source as UTF-8 or "
                            "as the encoding a coding line names (save the file as UTF-8)")


@pytest.mark.parametrize("data", [codecs.BOM_UTF16_LE + INPLACE.encode("utf-16-le"), codecs.BOM_UTF16_LE])
def test_a_utf16_file_is_one_error_line_from_the_cli(tmp_path: Path, data: bytes) -> None:
    (tmp_path / "wide.py").write_bytes(data)
    result = _jaxlint(tmp_path, "wide.py")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "error: wide.py: saved as UTF-16 (byte-order mark FF FE), which Python cannot run: it reads source "
        "as UTF-8 or as the encoding a coding line names (save the file as UTF-8)"]
    assert result.stdout == "No findings, but 1 path could not be checked (see the errors).\n"


def test_pep263_cookie_is_honoured() -> None:
    text = "# -*- coding: latin-1 -*-\nimport jax.numpy as jnp\ns = 'caf\xe9'\ndef f():\n    x = jnp.zeros(3)\n    x[0] = 1\n"
    result = lint_source(text.encode("latin-1"), "f.py", SETTINGS)
    assert [(f.code, f.line, f.col) for f in result.findings] == [("JAX101", 6, 5)]


@pytest.mark.parametrize("data,line,col,message", [
    (b"x = 1\ndef f(:\n    pass\n", 2, 7, "invalid syntax"),
    (b"x = 1\ny = 2\0\n", 2, 6, "source code cannot contain null bytes"),
    (b"y = " + b"(" * 500 + b"1" + b")" * 500 + b"\n", 1, 205, "too many nested parentheses"),
])
def test_files_without_jax_are_still_checked_for_being_python(data: bytes, line: int, col: int, message: str) -> None:
    result = lint_source(data, "f.py", SETTINGS)
    assert [(f.code, f.line, f.col, f.message) for f in result.findings] == [
        ("JAX001", line, col, f"The file does not parse: {message}")
    ]
    assert not result.parsed


def test_code_libcst_accepts_but_python_refuses_is_jax001() -> None:
    # libcst parses 500 nested parentheses (slowly); CPython stops at 200
    text = "import jax\ny = " + "(" * 500 + "1" + ")" * 500 + "\n"
    result = lint_source(text, "f.py", SETTINGS)
    assert [(f.code, f.line, f.col, f.message) for f in result.findings] == [
        ("JAX001", 2, 205, "The file does not parse: too many nested parentheses")
    ]


def test_clean_file_without_jax_is_not_parsed_by_libcst(monkeypatch) -> None:
    import libcst

    def boom(*a, **k):
        raise AssertionError("libcst must not run on a file without JAX")

    monkeypatch.setattr(libcst, "parse_module", boom)
    result = lint_source(b"import numpy as np\nx = np.zeros(3)\n", "f.py", SETTINGS)
    assert result.findings == [] and result.error is None and not result.parsed


# ----------------------------------------------------------------------------- cache entries


def _cached_entry(tmp_path: Path) -> tuple:
    from jaxlint.cache import Cache

    cache = Cache(tmp_path / "cache", "digest")
    data = INPLACE.encode()
    key = cache.key(data, SETTINGS)
    cache.put(key, lint_source(data, "f.py", SETTINGS))
    (entry,) = (tmp_path / "cache").rglob("*.json")
    return cache, key, data, entry


def _fresh_hit(cache, key, data):
    from jaxlint.cache import Cache

    again = Cache(cache.dir, cache.rules_digest)
    return again, again.get(key, "g.py", SETTINGS, data)


def test_a_valid_entry_is_used(tmp_path: Path) -> None:
    cache, key, data, entry = _cached_entry(tmp_path)
    again, hit = _fresh_hit(cache, key, data)
    assert hit is not None and hit.from_cache and hit.parsed
    assert [(f.code, f.path, f.line, f.col) for f in hit.findings] == [("JAX101", "g.py", 4, 5)]
    assert (again.hits, again.misses, again.discarded) == (1, 0, 0)


@pytest.mark.parametrize("edit", [
    lambda d: d["findings"][0]["location"].update(row=None),
    lambda d: d["findings"][0].update(code="JAX999"),  # not a selected rule
    lambda d: d["findings"][0].update(code="jax101"),
    lambda d: d["findings"][0].update(severity="fatal"),
    lambda d: d["findings"][0]["location"].update(row=0),
    lambda d: d["findings"][0]["end_location"].update(row=400),  # past the end of the file
    lambda d: d["findings"][0]["fix"]["edits"][0]["location"].update(row="4"),
    lambda d: d["findings"][0]["fix"].update(applicability="maybe"),
    lambda d: d.update(parsed="yes"),
    lambda d: d.update(findings={}),
    lambda d: d.update(extra=1),
    lambda d: d.pop("error"),
])
def test_an_entry_with_wrong_values_is_discarded_and_recomputed(tmp_path: Path, edit) -> None:
    import json

    cache, key, data, entry = _cached_entry(tmp_path)
    payload = json.loads(entry.read_text())
    edit(payload)
    entry.write_text(json.dumps(payload))
    again, hit = _fresh_hit(cache, key, data)
    assert hit is None and (again.misses, again.discarded) == (1, 1)
    assert not entry.exists()


@pytest.mark.parametrize("make", ["fifo", "symlink", "directory", "huge", "garbage"])
def test_an_entry_that_is_not_a_small_regular_file_is_discarded(tmp_path: Path, make: str, monkeypatch) -> None:
    import jaxlint.cache as cache_mod

    cache, key, data, entry = _cached_entry(tmp_path)
    good = entry.read_bytes()
    entry.unlink()
    if make == "fifo":
        os.mkfifo(entry)  # opening it for reading would block until a writer came
    elif make == "symlink":
        (tmp_path / "elsewhere.json").write_bytes(good)
        entry.symlink_to(tmp_path / "elsewhere.json")
    elif make == "directory":
        entry.mkdir()
        (entry / "x").write_text("x")
    elif make == "huge":
        monkeypatch.setattr(cache_mod, "MAX_ENTRY_BYTES", len(good) - 1)
        entry.write_bytes(good)
    else:
        entry.write_bytes(b"\xff\xfe{not json")
    again, hit = _fresh_hit(cache, key, data)
    assert hit is None and again.discarded == 1
    assert not os.path.lexists(entry)
    if make == "symlink":
        assert (tmp_path / "elsewhere.json").read_bytes() == good  # only the link went


def test_a_named_pipe_in_the_cache_does_not_block_the_cli(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(INPLACE)
    code = "import sys\nfrom jaxlint.cli import main\nmain(sys.argv[1:])\n"
    cmd = [sys.executable, "-c", code, "check", "--cache-dir", "c", "--output-format", "concise", "a.py"]
    subprocess.run(cmd, cwd=tmp_path, capture_output=True, timeout=120)
    (entry,) = [e for e in (tmp_path / "c" / "v2").rglob("*.json") if e.parent.name != "projects"]
    entry.unlink()
    os.mkfifo(entry)
    result = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == INPLACE_LINE.format("a.py")
    assert entry.is_file() and not entry.is_symlink()  # recomputed and written back as a file


# ----------------------------------------------------------------------------- smaller items


def test_a_newline_in_a_file_name_does_not_split_a_concise_line(tmp_path: Path) -> None:
    (tmp_path / "a\nb.py").write_text(INPLACE)
    (tmp_path / "c\x1b.py").write_text(INPLACE)
    result = _jaxlint(tmp_path, ".")
    assert result.stdout.splitlines() == [
        INPLACE_LINE.format("a\\nb.py"),
        INPLACE_LINE.format("c\\x1b.py"),
        "Found 2 errors (2 fixable with --fix).",
    ]


def test_symlink_loops_and_dangling_links_are_reported_alike(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text(INPLACE)
    (tmp_path / "dangling.py").symlink_to(tmp_path / "missing.py")
    (tmp_path / "self.py").symlink_to(tmp_path / "self.py")
    (tmp_path / "a.py").symlink_to(tmp_path / "b.py")
    (tmp_path / "b.py").symlink_to(tmp_path / "a.py")
    (tmp_path / "notes").symlink_to(tmp_path / "notes")  # not a Python file's name: not looked at
    (tmp_path / ".#ok.py").symlink_to("user@host.4242:1700000000")  # Emacs's lock while ok.py is edited
    result = _jaxlint(tmp_path, ".")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "error: a.py: broken symbolic link (a loop: it leads back to itself)",
        "error: b.py: broken symbolic link (a loop: it leads back to itself)",
        "error: dangling.py: broken symbolic link (its target does not exist)",
        "error: self.py: broken symbolic link (a loop: it leads back to itself)",
    ]
    assert result.stdout.splitlines()[0] == INPLACE_LINE.format("ok.py")
    named = _jaxlint(tmp_path, "self.py", "dangling.py")
    assert named.stderr.splitlines() == [
        "error: dangling.py: broken symbolic link (its target does not exist)",
        "error: self.py: broken symbolic link (a loop: it leads back to itself)",
    ]


# ----------------------------------------------------------------------------- the fixer checks its output


def _spans(text: str, *edits: tuple[str, str]) -> list:
    out = []
    for old, new in edits:
        i = text.index(old)
        out.append((i, i + len(old), new))
    return out


@pytest.mark.parametrize("text,edits", [
    # the JAX101 rewrite and the import it needs (an insertion before a statement)
    ("import jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 1\n",
     [("x[0] = 1", "x = x.at[0].set(1)"), ("@import jax.numpy", "import jax\n")]),
    # an expression statement becomes an assignment (JAX102)
    ("x = f()\nx.at[0].set(5.0)\n", [("x.at[0].set(5.0)", "x = x.at[0].set(5.0)")]),
    # libcst's range of a parenthesized node includes its parentheses
    ("s = 'café'; y = ((x))\n", [("((x))", "x")]),
    ("y = (a\n     + b)\nz = 1\n", [("(a\n     + b)", "a + b")]),
    # inside a decorator (CPython's def starts at `def`, after its decorators)
    ("x = 1\n@partial(sm.shard_map, check_rep=False)\ndef h(v):\n    return v\n",
     [("sm.shard_map", "jax.shard_map"), ("check_rep", "check_vma")]),
    ("class A:\n    @old.name\n    def h(self):\n        pass\n", [("old.name", "new.name")]),
])
def test_fixcheck_accepts_rewrites_of_whole_nodes(text: str, edits) -> None:
    from jaxlint.fix.fixcheck import changed_outside

    spans = []
    for old, new in edits:
        if old.startswith("@"):  # an insertion before this text
            i = text.index(old[1:])
            spans.append((i, i, new))
        else:
            i = text.index(old)
            spans.append((i, i + len(old), new))
    assert changed_outside(text, spans) is None


@pytest.mark.parametrize("text,old,new", [
    ("y = a * b\n", "b", "c + d"),  # precedence: `a * c + d`
    ("x = a\n(b)\n", "a", "a \\"),  # a continuation swallows the next statement: `a(b)`
    ("def f():\n    return x\n", "x", "x\n    y = 1"),  # an edit that adds a statement after its node
    ("é = 1; y = -a\n", "a", "a ** 2 if c else a"),  # non-ASCII before the edit
])
def test_fixcheck_refuses_edits_that_change_code_outside_their_node(text: str, old: str, new: str) -> None:
    from jaxlint.fix.fixcheck import changed_outside

    assert changed_outside(text, _spans(text, (old, new))) == "would change the code outside the rewritten nodes"


def test_fix_text_refuses_a_fix_that_binds_differently(monkeypatch) -> None:
    from jaxlint.findings import Applicability, Edit, FileResult, Finding, Fix, Severity
    from jaxlint.fix.fixer import fix_text

    def fake_lint(text, path, settings, prefilter=True):
        result = FileResult(path=path, parsed=True)
        if "a * b" in text:
            fix = Fix(Applicability.SAFE, "spell b out", (Edit(1, 9, 1, 10, "c + d"),))
            result.findings.append(Finding("JAX999", "fake", "b", path, 1, 9, 1, 10, Severity.ERROR, fix))
        return result

    monkeypatch.setattr("jaxlint.lint.linter.lint_source", fake_lint)
    settings = LintSettings(select=frozenset({"JAX999"}))
    result = fix_text("y = a * b\n", "t.py", settings)
    assert result.text == "y = a * b\n" and result.applied == []
    assert result.skipped == ["fix for JAX999 at 1:9 skipped: would change the code outside the rewritten nodes"]
