"""`jaxlint confirm` / `bench` on notebooks: the notebook is run, cell by cell, under the
recorder (real JAX on CPU, subprocesses); verdicts come back at their cell and line.

Each test writes its notebooks into a temporary directory."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("jax")

from click.testing import CliRunner  # noqa: E402

from jaxlint.cli import cli  # noqa: E402
from jaxlint.parse.notebook import Notebook  # noqa: E402
from jaxlint.runtime import notebooks  # noqa: E402


def _notebook(cells: list[tuple[str, str]]) -> str:
    return json.dumps({
        "cells": [
            {"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {},
             "outputs": [], "source": src} if kind == "code" else
            {"cell_type": "markdown", "id": f"m{i}", "metadata": {}, "source": src}
            for i, (kind, src) in enumerate(cells)],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"


# cross-cell sharp bits: a key used again two cells down (cell 6 after cell 3), a jitted
# function with a Python `if` on a tracer defined in cell 4 and called in cell 7
SHARP = _notebook([
    ("markdown", "# Sharp bits"),
    ("code", "%matplotlib inline\nimport jax\nimport jax.numpy as jnp"),
    ("code", "key = jax.random.PRNGKey(0)\nx = jax.random.normal(key, (3,))"),
    ("code", "@jax.jit\ndef f(x):\n    if x.sum() > 0:\n        return x\n    return -x"),
    ("markdown", "The key again"),
    ("code", "%timeit jnp.ones(3)\ny = jax.random.uniform(key, (3,))\nprint(y)"),
    ("code", "!echo not run\nf(x)"),
])

# what the lint flags does not happen: the key is replaced in a way the lint cannot see,
# and the flagged function is never called; magics and a failing cell do not stop the run
FALSE = _notebook([
    ("code", "import jax\nimport jax.numpy as jnp\n!pip install nothing"),
    ("code", "key = jax.random.PRNGKey(0)\nx = jax.random.normal(key, (3,))"),
    ("code", "globals()['key'] = jax.random.PRNGKey(1)"),
    ("code", "int('a failing cell')"),
    ("code", "%%time\ny = jax.random.uniform(key, (3,))"),
    ("code", "@jax.jit\ndef never(x):\n    if x.sum() > 0:\n        return x\n    return -x"),
])


def _confirm(root: Path, *args: str, cache: bool = False) -> tuple[int, list[dict], str]:
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        result = CliRunner().invoke(cli, ["confirm", "--output-format", "json", "--device", "cpu",
                                          *([] if cache else ["--no-cache"]), *args],
                                    catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout), result.stderr


def _by(found: list[dict]) -> dict:
    return {(f["cell"], f["location"]["row"], f["code"]): f["runtime"] for f in found}


@pytest.fixture(scope="module")
def sharp(tmp_path_factory):
    root = tmp_path_factory.mktemp("nb")
    (root / "sharp.ipynb").write_text(SHARP)
    (root / "pyproject.toml").write_text('[tool.jaxlint]\ncache-dir = "cache"\n')
    before = sorted(p.name for p in root.iterdir())
    code, found, err = _confirm(root, "sharp.ipynb", cache=True)
    return root, before, code, found, err


def test_a_key_used_again_two_cells_down_is_confirmed_at_its_cell(sharp):
    _root, _before, code, found, _err = sharp
    assert code == 1
    verdict = _by(found)[(6, 2, "JAX301")]
    assert verdict["verdict"] == "confirmed"
    assert verdict["evidence"] == ("the notebook run drew from the same key bits at line 2 of "
                                   "cell 3 (`normal`) and line 2 of cell 6 (`uniform`)")
    assert verdict["details"]["use_sites"] == [{"cell": 3, "line": 2}, {"cell": 6, "line": 2}]
    assert (verdict["details"]["cell"], verdict["details"]["line"]) == (6, 2)


def test_an_if_on_a_tracer_in_a_function_called_in_another_cell_is_confirmed(sharp):
    _root, _before, _code, found, _err = sharp
    f = next(f for f in found if f["code"] == "JAX201")
    assert (f["filename"], f["cell"], f["location"], f["function"]) == (
        "sharp.ipynb", 4, {"row": 3, "column": 8}, "f")
    verdict = f["runtime"]
    assert verdict["verdict"] == "confirmed"
    assert verdict["details"]["exception"] == "jax.errors.TracerBoolConversionError"
    assert (verdict["details"]["cell"], verdict["details"]["line"]) == (4, 3)
    assert verdict["evidence"].startswith("jax.errors.TracerBoolConversionError at line 3: ")
    assert verdict["inputs"] == ["x: f32[3] (observed in the run of sharp.ipynb)"]


def test_the_notebook_run_is_reported_and_leaves_no_file(sharp):
    root, before, _code, found, err = sharp
    # the %timeit line ran (JAX505 has no runtime check: its reason is given), cell 7 raised
    assert _by(found)[(6, 1, "JAX505")] == {
        "verdict": "skipped", "details": {},
        "reason": "no runtime check for JAX505: a timing mistake in the caller; results are "
                  "right, only the measured time is wrong"}
    assert ("jaxlint: running the notebook sharp.ipynb cell by cell: exit status 1 in " in err
            and "(last output: jaxlint: cell(s) 7 raised)" in err), err
    # nothing written beside it; the notebook's module is temporary: no observation of
    # it is kept in the cache (the notebook runs each time)
    assert sorted(p.name for p in root.iterdir() if p.name != "cache") == before
    assert not list((root / "cache").rglob("observed/*"))


def test_findings_that_do_not_happen_are_not_confirmed(tmp_path):
    (tmp_path / "false.ipynb").write_text(FALSE)
    code, found, err = _confirm(tmp_path, "false.ipynb")
    assert code == 0, found
    by = _by(found)
    assert set(by) == {(5, 1, "JAX505"), (5, 2, "JAX301"), (6, 3, "JAX201")}, by
    assert by[(5, 2, "JAX301")]["verdict"] == "not-reproduced"
    assert by[(5, 2, "JAX301")]["evidence"] == (
        "the keys used at line 2 in the run of false.ipynb were used nowhere else in "
        "module-level code")
    assert by[(6, 3, "JAX201")]["verdict"] == "skipped"
    assert by[(6, 3, "JAX201")]["reason"] == (
        "no input for argument `x`: run code that calls it (--run), declare it in "
        "JAXLINT_INPUTS or [tool.jaxlint.runtime] inputs, or annotate it; the notebook's run "
        "did not call it")
    assert "cell(s) 4 raised" in err


def test_bench_runs_a_notebooks_functions_in_a_worker(tmp_path):
    # the worker imports the notebook by running its cells (magics included, a failing
    # cell does not stop the import); the flagged function's input is observed in the run
    (tmp_path / "sharp.ipynb").write_text(SHARP)
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(tmp_path)
        result = CliRunner().invoke(cli, ["bench", "--output-format", "json", "--no-cache",
                                          "--device", "cpu", "--runs", "3", "sharp.ipynb"],
                                    catch_exceptions=False)
    data = json.loads(result.stdout)
    f = next(f for f in data["findings"] if f["code"] == "JAX201")
    assert f["cell"] == 4 and f["runtime"]["verdict"] == "confirmed", f["runtime"]
    assert f["runtime"]["details"]["exception"] == "jax.errors.TracerBoolConversionError"


def test_virtual_positions_map_back_to_the_cell():
    nb = Notebook.from_bytes(SHARP.encode())
    from jaxlint.lint.linter import lint_notebook
    from jaxlint.rules import default_codes
    from jaxlint.settings import LintSettings

    result = lint_notebook(SHARP.encode(), "sharp.ipynb", LintSettings(select=default_codes()))
    assert {(f.cell, f.line, f.code) for f in result.findings} == {
        (4, 3, "JAX201"), (6, 1, "JAX505"), (6, 2, "JAX301")}
    for f in result.findings:
        v = notebooks.to_virtual(nb, f)
        assert v.cell is None
        assert nb.position(v.line, v.col) == (f.cell, f.line, f.col)
    chunks = notebooks.cells(nb.text, nb.code_cells[0])
    assert [c for c, _, _ in chunks] == [2, 3, 4, 6, 7]
    assert [start for _, start, _ in chunks] == [nb.virtual_line(c, 1) for c in (2, 3, 4, 6, 7)]


DETACHING = _notebook([
    ("code", "import os, subprocess\nimport jax"),
    ("code", "p = subprocess.Popen(['sleep', '4242'], start_new_session=True)\n"
             "open(os.environ['JAXLINT_TEST_PIDS'], 'a').write(f'{p.pid}\\n')"),
    ("code", "key = jax.random.PRNGKey(0)\na = jax.random.normal(key, (2,))"),
    ("code", "b = jax.random.normal(key, (2,))"),
])


def _sleeps(pids: list[int]) -> list[int]:
    out = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                argv = fh.read().split(b"\0")
        except OSError:
            continue
        if argv[:2] == [b"sleep", b"4242"]:
            try:
                with open(f"/proc/{pid}/stat") as fh:
                    if fh.read().rsplit(")", 1)[1].split()[0] == "Z":
                        continue
            except OSError:
                continue
            out.append(pid)
    return out


@pytest.mark.skipif(sys.platform != "linux", reason="uses /proc")
@pytest.mark.parametrize("stop", [None, signal.SIGTERM])
def test_what_a_notebook_starts_is_gone_when_confirm_ends(tmp_path, stop):
    (tmp_path / "detach.ipynb").write_text(DETACHING)
    pid_file = tmp_path / "pids"
    env = dict(os.environ, JAXLINT_TEST_PIDS=str(pid_file))
    proc = subprocess.Popen([sys.executable, "-m", "jaxlint", "confirm", "--no-cache",
                             "--device", "cpu", "--output-format", "json", "detach.ipynb"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path)

    def recorded() -> list[int]:
        return [int(p) for p in pid_file.read_text().split()] if pid_file.exists() else []

    try:
        if stop is not None:
            deadline = time.monotonic() + 120
            while not recorded() and time.monotonic() < deadline:
                time.sleep(0.05)
            proc.send_signal(stop)
        out, err = proc.communicate(timeout=240)
        pids = recorded()
        assert pids, err.decode()
        if stop is None:
            assert proc.returncode == 1, err.decode()
            found = json.loads(out)
            assert [(f["cell"], f["code"], f["runtime"]["verdict"]) for f in found] == [
                (4, "JAX301", "confirmed")]
        else:
            assert proc.returncode == -stop, err.decode()  # it dies by the signal
        deadline = time.monotonic() + 5
        while _sleeps(pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _sleeps(pids) == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        for pid in _sleeps(recorded()):
            os.kill(pid, signal.SIGKILL)


def test_a_verdict_is_told_at_the_notebooks_cells(tmp_path):
    nb_path = tmp_path / "sharp.ipynb"
    nb_path.write_text(SHARP)
    run = notebooks.prepare(nb_path, "sharp.ipynb", [])
    try:
        from jaxlint.runtime.verdicts import Verdict

        v13, v15 = run.nb.virtual_line(4, 3), run.nb.virtual_line(6, 2)
        verdict = Verdict("confirmed", evidence=(
            f"the --run drew from the same key bits at line {v13} and line {v15} in "
            f"--run `{run.command}` (traced at {run.virtual}:{v13})"),
            details={"line": v15, "use_sites": [v13, v15], "line_runs": 2})
        notebooks.map_verdict(run, verdict, 6)
        assert verdict.evidence == ("the notebook run drew from the same key bits at line 3 of "
                                    "cell 4 and line 2 of cell 6 in the run of sharp.ipynb (traced at "
                                    "sharp.ipynb:cell 4:3)")
        assert verdict.details == {"cell": 6, "line": 2, "line_runs": 2, "use_sites": [
            {"cell": 4, "line": 3}, {"cell": 6, "line": 2}]}
        assert run.virtual.read_text() == run.nb.text
    finally:
        run.cleanup()
    assert not run.virtual.exists()


def test_the_table_names_the_cell(sharp):
    from jaxlint.findings import Finding
    from jaxlint.runtime.driver import RuntimeReport
    from jaxlint.runtime.report import write_table

    _root, _before, _code, found, _err = sharp
    report = RuntimeReport(findings=[Finding.from_dict(f) for f in found])
    out = io.StringIO()
    write_table(report, out, color=False)
    text = out.getvalue()
    assert "sharp.ipynb:cell 4:3:8" in text and "sharp.ipynb:cell 6:2:5" in text, text
