"""Inputs by observation: `jaxlint confirm --run CMD` (real JAX on CPU, subprocesses).

The fixture package tests/fixtures/runtime/observed/proj declares no inputs and
annotates nothing: every input comes from running it (a script with relative
imports, a pytest suite).  Each test works on a copy in a temporary directory,
so nothing is written into the repository.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("jax")

from click.testing import CliRunner  # noqa: E402

from jaxlint.cli import cli  # noqa: E402

pytestmark = pytest.mark.slow  # real JAX in subprocesses (`make test-fast` skips it)

FIXTURE = Path(__file__).parent / "fixtures" / "runtime" / "observed"
RUN = "python -m proj.train --fail"  # the script exits with status 3 after its calls
WHERE = f"(observed in --run `{RUN}`)"

# (line, code, function) of every finding in proj/core.py: all confirmed by the run
EXPECTED = [
    (18, "JAX201", "branchy"),
    (29, "JAX201", "Model.apply"),
    (36, "JAX201", "make_step.step"),
    (44, "JAX201", "run_scan.body"),
    (50, "JAX501", "shift"),
    (54, "JAX201", "positive.<lambda>"),
    (59, "JAX406", "noisy"),
    (76, "JAX203", "evaluate.body"),
    (86, "JAX405", "scaled"),
    (96, "JAX401", "logged"),
    (108, "JAX301", "sample"),
    (119, "JAX501", "loop_jit"),
    (141, "JAX403", "Counter.bump"),
    (155, "JAX102", "reset_first"),
]


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(FIXTURE, root)
    (root / "pyproject.toml").write_text('[tool.jaxlint]\ncache-dir = "cache"\n')
    return root


def _confirm(root: Path, *args: str) -> tuple[int, list[dict], str]:
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        result = CliRunner().invoke(cli, ["confirm", "--output-format", "json", *args],
                                    catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout), result.stderr


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")
            if not p.relative_to(root).parts[0] == "cache"}


def _by(found: list[dict]) -> dict:
    return {(f["location"]["row"], f["code"], f["function"]): f["runtime"] for f in found}


@pytest.fixture(scope="module")
def observed(tmp_path_factory):
    root = _copy(tmp_path_factory.mktemp("observed"))
    before = _files(root)
    code, found, err = _confirm(root, "proj/core.py", "--run", RUN)
    return root, before, code, found, err


def test_every_finding_is_confirmed_from_the_run_alone(observed):
    root, before, code, found, err = observed
    assert code == 1
    by = _by(found)
    assert sorted(by) == sorted(EXPECTED)
    for key, rt in by.items():
        assert rt["verdict"] == "confirmed", (key, rt)


def test_evidence_and_observed_inputs(observed):
    by = _by(observed[3])
    assert by[(18, "JAX201", "branchy")]["details"]["exception"] == \
        "jax.errors.TracerBoolConversionError"
    assert by[(18, "JAX201", "branchy")]["inputs"] == [f"x: f32[6] {WHERE}"]
    method = by[(29, "JAX201", "Model.apply")]
    assert method["evidence"].endswith("(a method, called on the live `Model` object)")
    assert method["details"]["observed"] is True
    closure = by[(36, "JAX201", "make_step.step")]
    assert closure["evidence"].endswith("(a closure, called with the cells it had at its "
                                        "first call)")
    assert by[(44, "JAX201", "run_scan.body")]["inputs"] == [f"c: f32[] {WHERE}",
                                                             f"x: f32[] {WHERE}"]
    assert by[(54, "JAX201", "positive.<lambda>")]["inputs"] == [f"v: f32[] {WHERE}"]
    assert "compiled again on the second call of `shift`" in \
        by[(50, "JAX501", "shift")]["evidence"]
    assert by[(119, "JAX501", "loop_jit")]["details"]["compiles"] == {"jit(<lambda>)": 3}
    assert by[(119, "JAX501", "loop_jit")]["inputs"] == [f"x: f32[6] {WHERE}",
                                                         f"steps: 3 {WHERE}"]
    assert by[(108, "JAX301", "sample")]["details"]["use_sites"] == [107, 108]
    assert by[(108, "JAX301", "sample")]["details"]["tied_draws"] == [107, 108]
    assert by[(108, "JAX301", "sample")]["evidence"].endswith(
        "drew from the same key bits and returned identical values")
    assert by[(108, "JAX301", "sample")]["inputs"][0] == f"key: u32[2] {WHERE}"
    for key in [(59, "JAX406", "noisy"), (76, "JAX203", "evaluate.body"),
                (86, "JAX405", "scaled")]:
        assert by[key]["details"]["oracle"] == "differential", key
    assert by[(86, "JAX405", "scaled")]["details"]["globals"] == ["SCALE"]
    assert "printed on the first call, 0 on the second" in \
        by[(96, "JAX401", "logged")]["evidence"]
    assert by[(141, "JAX403", "Counter.bump")]["evidence"] == (
        "side effect ran at trace time only: self.count changed on the first jitted call and "
        "not on the second (a method, called on the live `Counter` object)")


def test_a_failing_run_still_yields_and_writes_only_the_cache(observed):
    root, before, code, found, err = observed
    assert f"jaxlint: --run `{RUN}`: exit status 3 in " in err
    assert "1 Python process(es) recorded; what it observed before is used" in err
    assert _files(root) == before  # no __pycache__, no other file outside the cache dir
    assert any((root / "cache" / "runtime" / "observed").glob("*.json"))


def test_observations_are_reused_until_the_code_changes(observed):
    root = observed[0]
    code, found, err = _confirm(root, "proj/core.py")
    by = _by(found)
    assert sorted(by) == sorted(EXPECTED)
    assert all(rt["verdict"] == "confirmed" for rt in by.values()), by
    assert by[(18, "JAX201", "branchy")]["inputs"] == [f"x: f32[6] {WHERE}"]  # rechecked
    assert by[(29, "JAX201", "Model.apply")]["evidence"].endswith(
        "(from the cached --run observation; the source has not changed since)")
    core = root / "proj" / "core.py"
    core.write_text(core.read_text() + "\n# changed\n")
    code, found, err = _confirm(root, "proj/core.py", "--select", "JAX201,JAX406")
    by = _by(found)
    assert by[(18, "JAX201", "branchy")] == {
        "verdict": "skipped",
        "reason": "no input for argument `x`: run code that calls it (--run), declare it in "
                  "JAXLINT_INPUTS or [tool.jaxlint.runtime] inputs, or annotate it; try "
                  "--run \"python -m proj.train\" (it calls `branchy`)",
        "details": {},
    }
    assert by[(29, "JAX201", "Model.apply")]["verdict"] == "skipped"
    assert by[(29, "JAX201", "Model.apply")]["reason"].startswith("`Model.apply` is a method")


def test_clean_twins_pass_the_same_oracles(tmp_path):
    from test_runtime import _twin_findings

    from jaxlint.workspace.config import ConfigStore, Overrides
    from jaxlint.findings import FileResult
    from jaxlint.workspace.ruleinfo import load_rule_infos
    from jaxlint.runtime import run_runtime
    from jaxlint.runtime.specs import RuntimeOptions

    root = _copy(tmp_path)
    core = root / "proj" / "core.py"
    results = [FileResult(path=str(core), findings=_twin_findings(core))]
    assert sorted(f.code for f in results[0].findings) == [
        "JAX203", "JAX301", "JAX401", "JAX403", "JAX405", "JAX406", "JAX501"]
    store = ConfigStore(load_rule_infos(None), Overrides())
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        report = run_runtime(results, store, RuntimeOptions(), set(),
                             commands=[("python -m proj.train", str(root))])
    assert report.runs[0]["status"] == "ok"
    for f in report.findings:
        assert f.runtime["verdict"] == "not-reproduced", (f.code, f.function, f.runtime)
        assert any("observed in --run" in s for s in f.runtime["inputs"]), f.runtime


def test_a_pytest_suite_as_the_run(tmp_path):
    root = _copy(tmp_path)
    run = "python -m pytest -q -p no:cacheprovider check_suite.py"
    code, found, err = _confirm(root, "proj/core.py", "--no-cache", "--select", "JAX201",
                                "--run", run)
    by = _by(found)
    assert by[(18, "JAX201", "branchy")]["verdict"] == "confirmed"
    assert by[(18, "JAX201", "branchy")]["inputs"] == [f"x: f32[3] (observed in --run `{run}`)"]
    assert by[(29, "JAX201", "Model.apply")]["verdict"] == "confirmed"
    assert by[(29, "JAX201", "Model.apply")]["inputs"] == [
        f"x: f32[4] (observed in --run `{run}`)"]
    # make_step is not called by the suite: the skip names the script that calls it
    assert by[(36, "JAX201", "make_step.step")]["verdict"] == "skipped"
    assert f"jaxlint: --run `{run}`: ok in " in err


def test_a_run_that_times_out_still_yields_what_it_observed(tmp_path):
    from conftest import time_limit_for

    root = _copy(tmp_path)
    # the limit: three times what the command's imports take here now (a loaded machine
    # took more than a fixed 5 s to import JAX, and the run observed nothing)
    limit = time_limit_for("import jax.numpy as jnp; from proj import core; core.noisy(jnp.ones(5))",
                           cwd=root)
    run = ("python -c \"import time, jax.numpy as jnp; from proj import core; "
           "core.noisy(jnp.ones(5)); time.sleep(600)\"")
    code, found, err = _confirm(root, "proj/core.py", "--no-cache", "--select", "JAX406",
                                "--run", run, "--run-timeout", str(limit))
    (rt,) = [f["runtime"] for f in found]
    assert rt["verdict"] == "confirmed"
    assert rt["inputs"] == [f"x: f32[5] (observed in --run `{run}`)"]
    assert f"jaxlint: --run `{run}`: timed out after {limit:g} s in " in err


def test_run_commands_in_the_config(tmp_path):
    root = _copy(tmp_path)
    (root / "pyproject.toml").write_text(
        '[tool.jaxlint.runtime]\nrun = ["python -m proj.train"]\n')
    code, found, err = _confirm(root, "proj/core.py", "--no-cache", "--select", "JAX406")
    (rt,) = [f["runtime"] for f in found]
    assert rt["verdict"] == "confirmed"
    assert rt["inputs"] == ["x: f32[6] (observed in --run `python -m proj.train`)"]
    # one command may be written as a string
    (root / "pyproject.toml").write_text(
        '[tool.jaxlint.runtime]\nrun = "python -m proj.train"\n')
    code, found, err = _confirm(root, "proj/core.py", "--no-cache", "--select", "JAX406")
    (rt,) = [f["runtime"] for f in found]
    assert rt["verdict"] == "confirmed"
    assert rt["inputs"] == ["x: f32[6] (observed in --run `python -m proj.train`)"]
    # --run replaces the configured command
    code, found, err = _confirm(root, "proj/core.py", "--no-cache", "--select", "JAX406",
                                "--run", "python -c pass")
    assert "--run `python -c pass`" in err and "python -m proj.train" not in err
    (rt,) = [f["runtime"] for f in found]
    assert rt["verdict"] == "skipped" and "no --run command called it" in rt["reason"]
    (root / "pyproject.toml").write_text('[tool.jaxlint.runtime]\nrun = 3\n')
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        result = CliRunner().invoke(cli, ["confirm", "proj/core.py", "--no-cache"])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {root / 'pyproject.toml'}: runtime.run must be a command or a list of commands "
        "(non-empty strings), e.g. \"python train.py --steps 2\", got 3\n")


def test_a_check_that_hangs_inside_the_run_is_stopped(tmp_path):
    """The per-finding time limit holds for checks run inside the --run process."""
    (tmp_path / "slow.py").write_text(
        "import time\n\nimport jax\n\nSLOW = []\n\n\n"
        "def make():\n"
        "    def body(x):\n"
        "        if SLOW:\n"
        "            time.sleep(60)\n"
        "        if x.sum() > 0:\n"
        "            return x\n"
        "        return -x\n"
        "    return jax.jit(body)\n\n\n"
        "if __name__ == '__main__':\n"
        "    import jax.numpy as jnp\n"
        "    try:\n"
        "        make()(jnp.ones(3))\n"
        "    except Exception:\n"
        "        pass\n"
        "    SLOW.append(1)  # from here on, calling body hangs\n")
    code, found, err = _confirm(tmp_path, "slow.py", "--no-cache", "--timeout", "3",
                                "--run", "python slow.py")
    (rt,) = [f["runtime"] for f in found]
    assert rt == {"verdict": "skipped", "details": {},
                  "reason": "timed out after 3 s while checking it inside --run "
                            "`python slow.py`"}
    assert "--run `python slow.py`: stopped: a check inside it timed out after 3 s" in err


def test_star_args_and_keyword_only_arguments_are_observed(tmp_path):
    (tmp_path / "kw.py").write_text(
        "import jax\nimport jax.numpy as jnp\n\n\n"
        "def scaled(x, *rest, factor, **opts):\n"
        "    if factor > x.sum():\n"
        "        return x * factor\n"
        "    return x\n\n\n"
        "if __name__ == '__main__':\n"
        "    try:\n"
        "        jax.jit(scaled, static_argnames='mode')(jnp.ones(3), jnp.ones(2), factor=2.0,"
        " mode='fast')\n"
        "    except Exception:\n"
        "        pass\n")
    code, found, err = _confirm(tmp_path, "kw.py", "--no-cache", "--run", "python kw.py")
    (rt,) = [f["runtime"] for f in found]
    assert rt["verdict"] == "confirmed", rt
    assert rt["evidence"].endswith("(keyword arguments factor, mode as observed)")
    assert rt["inputs"] == ["x: f32[3] (observed in --run `python kw.py`)",
                            "*rest[0]: f32[2] (observed in --run `python kw.py`)"]


def test_bench_with_observed_inputs(tmp_path):
    """bench: a module function observed in the run is benchmarked against its fix
    with the observed inputs; a method checked inside the run says why it is not."""
    root = _copy(tmp_path)
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        result = CliRunner().invoke(cli, [
            "bench", "--no-cache", "--runs", "3", "--output-format", "json", "proj/core.py",
            "--select", "JAX102,JAX403", "--run", "python -m proj.train"],
            catch_exceptions=False)
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    by = _by(report["findings"])
    b = by[(155, "JAX102", "reset_first")]["bench"]
    assert b["inputs"] == ["x: f32[6] (observed in --run `python -m proj.train`)"]
    assert b["outputs_agree"] is False
    assert b["outputs_note"] == "expected: the original is silently wrong"
    assert b["fixed"]["steady_median_s"] > 0
    assert by[(141, "JAX403", "Counter.bump")]["bench"] == {
        "skipped": "no automatic fix and no JAXLINT_ALTERNATIVES entry"}
    assert [r["status"] for r in report["runs"]] == ["ok"]
