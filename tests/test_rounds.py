"""The project driver's rounds: parsed trees kept between rounds, files routed
back to the worker that kept them, and libcst's parse without its per-node checks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import libcst as cst
import pytest
from click.testing import CliRunner

from jaxlint.project import driver as project_driver
from jaxlint.lint import linter, runner
from jaxlint.cli import cli
from jaxlint.workspace.config import ConfigStore, Overrides
from jaxlint.project.driver import RunOptions
from jaxlint.workspace.ruleinfo import load_rule_infos
from jaxlint.workspace import Workspace

FIXTURES = Path(__file__).parent / "fixtures" / "xmodule"

HELPER = """\
import jax.numpy as jnp


def clip(x, limit):
    if x > limit:
        return jnp.minimum(x, limit)
    return x
"""


def _settings(tmp_path: Path, module: str = "pkg.helpers"):
    store = ConfigStore(load_rule_infos(), Overrides(), tmp_path)
    from dataclasses import replace

    return replace(store.settings_for(tmp_path / "x.py"), module=module, project_packages=frozenset({"pkg"}))


def _counting_parser(monkeypatch) -> list[str]:
    """Which parses happen, in order: "built" (a tree built from CPython's,
    ``jaxlint.parse.fastparse``) or "libcst" (libcst's parser)."""
    from jaxlint.parse import fastparse

    parsed: list[str] = []
    real = linter._parse_module
    real_build = fastparse.from_ast

    def parse(text: str):
        parsed.append("libcst")
        return real(text)

    def build(tree, text: str):
        parsed.append("built")
        return real_build(tree, text)

    monkeypatch.setattr(linter, "_parse_module", parse)
    monkeypatch.setattr(fastparse, "from_ast", build)
    return parsed


TRAIN = """\
import jax

from pkg.helpers import clip


@jax.jit
def train_step(x):
    return clip(x, 1.0)
"""


def _facts_for_helper(tmp_path: Path, monkeypatch) -> str:
    """The facts the driver hands pkg/helpers.py (a jitted caller in pkg/train.py)."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "helpers.py").write_text(HELPER)
    (tmp_path / "pkg" / "train.py").write_text(TRAIN)
    monkeypatch.chdir(tmp_path)
    seen: list[str] = []
    real = project_driver.run

    def run(files, settings_for, *args, **kwargs):
        seen.extend(settings_for(Path(f)).facts for f in files if Path(f).name == "helpers.py")
        return real(files, settings_for, *args, **kwargs)

    monkeypatch.setattr(project_driver, "run", run)
    store = ConfigStore(load_rule_infos(), Overrides(), tmp_path)
    files = [Path("pkg/__init__.py"), Path("pkg/helpers.py"), Path("pkg/train.py")]
    project_driver.run_project(files, Workspace(store), RunOptions(jobs=1))
    monkeypatch.setattr(project_driver, "run", real)
    assert seen[0] == "" and seen[-1]
    return seen[-1]


def test_a_kept_tree_is_analysed_again_without_a_second_parse(tmp_path, monkeypatch):
    facts = _facts_for_helper(tmp_path, monkeypatch)
    parsed = _counting_parser(monkeypatch)
    store = linter.TreeStore(1 << 20)
    settings = _settings(tmp_path)
    first = linter.lint_source(HELPER, "pkg/helpers.py", settings, trees=store)
    assert first.findings == []
    from dataclasses import replace

    again = linter.lint_source(HELPER, "pkg/helpers.py", replace(settings, facts=facts), trees=store)
    # the kept tree is analysed again; a finding there brings libcst's parse (for its position)
    assert parsed == ["built", "libcst"]
    assert [(f.code, f.line, f.col) for f in again.findings] == [("JAX201", 5, 8)]
    # libcst's tree replaced the built one: a further round parses nothing
    linter.lint_source(HELPER, "pkg/helpers.py", replace(settings, facts=facts), trees=store)
    assert parsed == ["built", "libcst"]
    # the same result as a fresh parse with the same facts
    fresh = linter.lint_source(HELPER, "pkg/helpers.py", replace(settings, facts=facts))
    assert parsed == ["built", "libcst", "built", "libcst"]
    assert again.findings == fresh.findings and again.project == fresh.project
    assert first.project["summary"] == again.project["summary"]


def test_a_changed_file_is_parsed_again_and_the_budget_is_kept(tmp_path, monkeypatch):
    parsed = _counting_parser(monkeypatch)
    settings = _settings(tmp_path)
    store = linter.TreeStore((len(HELPER) + 1) * linter.TREE_BYTES_PER_CHAR)
    linter.lint_source(HELPER, "pkg/helpers.py", settings, trees=store)
    linter.lint_source(HELPER + "\n", "pkg/helpers.py", settings, trees=store)  # edited between rounds
    assert parsed == ["built", "built"]
    # the store was full with the first tree; the edit dropped it and kept the new one
    linter.lint_source(HELPER + "\n", "pkg/helpers.py", settings, trees=store)
    assert len(parsed) == 2
    other = HELPER.replace("clip", "clip2") + "# a longer file\n"
    linter.lint_source(other, "pkg/other.py", settings, trees=store)
    linter.lint_source(other, "pkg/other.py", settings, trees=store)  # over the budget: not kept
    assert parsed == ["built"] * 4
    # single-file mode (no module name) keeps nothing
    empty = linter.TreeStore(1 << 20)
    linter.lint_source(HELPER, "one.py", _settings(tmp_path).__class__(select=settings.select), trees=empty)
    assert empty.used == 0


def test_the_unvalidated_parse_builds_the_same_tree_and_restores_validation():
    text = (FIXTURES / "abs_pkg" / "trainer" / "train.py").read_text()
    assert linter._parse_module(text).deep_equals(cst.parse_module(text))
    with pytest.raises(cst.ParserSyntaxError):
        linter._parse_module("def f(:\n")
    # node checks are back on after a parse, failed or not
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")


def _project_results(root: Path, budget: int, jobs: int, monkeypatch) -> list:
    monkeypatch.setattr(project_driver, "TREE_BUDGET", budget)
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "-j", str(jobs), "--output-format", "json"])
    assert result.exit_code == 1, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("jobs", [1, 2])
def test_rounds_with_kept_trees_find_what_parsing_again_finds(tmp_path, monkeypatch, jobs):
    for name in ("abs_pkg", "rel_pkg", "eqx_model"):
        root = tmp_path / name
        shutil.copytree(FIXTURES / name, root)
        kept = _project_results(root, 1 << 30, jobs, monkeypatch)
        parsed_again = _project_results(root, 0, jobs, monkeypatch)
        assert kept == parsed_again and kept, name


def test_a_file_linted_again_goes_back_to_the_worker_that_kept_it(tmp_path):
    settings = _settings(tmp_path)
    jobs = [(f"pkg/m{i}.py", HELPER.replace("clip", f"clip{i}").encode(), settings) for i in range(12)]
    pool = runner.WorkerPool(2, None, 1 << 24)
    try:
        first = {r.path: r for r, _, _ in pool.lint(jobs)}
        owner = dict(pool._owner)
        assert sorted(owner) == sorted(j[0] for j in jobs) and set(owner.values()) <= {0, 1}
        own, shared = pool.plan(jobs[3:7] + [("pkg/new.py", b"", settings)])
        for w in (0, 1):
            assert [j[0] for chunk in own[w] for j in chunk] == [j[0] for j in jobs[3:7] if owner[j[0]] == w]
        assert [j[0] for chunk in shared for j in chunk] == ["pkg/new.py"]
        again = {r.path: r for r, _, _ in pool.lint(jobs[3:7])}
        assert all(again[p].findings == first[p].findings for p in again) and len(again) == 4
    finally:
        pool.close()
    assert pool._pool == []


# ----------------------------------------------------------------------------- project snapshots


def _lint_cached(root: Path) -> list:
    result = CliRunner().invoke(cli, ["check", ".", "--cache-dir", "cache", "--output-format", "json"])
    assert result.exit_code == 1, result.output
    return [(f["code"], f["filename"], f["location"]["row"], f["message"]) for f in json.loads(result.stdout)]


def _snapshots(root: Path) -> list[Path]:
    return sorted((root / "cache").rglob("projects/*.json"))


def test_a_warm_run_of_an_unchanged_project_reads_no_summary_and_runs_no_round(tmp_path, monkeypatch):
    root = tmp_path / "abs_pkg"
    shutil.copytree(FIXTURES / "abs_pkg", root)
    monkeypatch.chdir(root)
    cold = _lint_cached(root)
    assert len(cold) == 6 and len(_snapshots(root)) == 1

    def refuse(*args, **kwargs):
        raise AssertionError("not on a warm run of an unchanged project")

    with monkeypatch.context() as m:
        m.setattr(project_driver, "_rounds", refuse)
        m.setattr("jaxlint.cache._valid_project", refuse)  # summaries are not even read
        assert _lint_cached(root) == cold
    # an edit misses the snapshot: the rounds run, and the new state is remembered too
    helper = root / "trainer" / "schedule.py"
    helper.write_text(helper.read_text() + "\n\ndef unused(x):\n    return x\n")
    assert _lint_cached(root) == cold
    assert len(_snapshots(root)) == 2


def test_a_run_with_a_crashed_file_is_not_remembered_and_a_bad_snapshot_is_discarded(tmp_path, monkeypatch):
    root = tmp_path / "abs_pkg"
    shutil.copytree(FIXTURES / "abs_pkg", root)
    monkeypatch.chdir(root)
    real = runner.lint_one

    def flaky(path, data, settings, trees=None):
        if path.endswith("metrics.py"):
            raise RuntimeError("a bug")
        return real(path, data, settings, trees)

    with monkeypatch.context() as m:
        m.setattr(runner, "lint_one", flaky)
        result = CliRunner().invoke(cli, ["check", ".", "--cache-dir", "cache", "--output-format", "concise"])
        assert "trainer/metrics.py" in result.output
    assert _snapshots(root) == []
    cold = _lint_cached(root)
    (snapshot,) = _snapshots(root)
    snapshot.write_text('{"trainer/losses.py": ["not", "a", "snapshot"]}')
    assert _lint_cached(root) == cold  # discarded, the rounds ran again and wrote it back
    assert json.loads(snapshot.read_text()) != {"trainer/losses.py": ["not", "a", "snapshot"]}


def test_the_unvalidated_parse_is_not_used_while_other_threads_run(monkeypatch):
    import threading

    from libcst._nodes.base import CSTNode

    seen = []
    real = cst.parse_module

    def spy(text):
        seen.append(CSTNode.__post_init__.__code__.co_names)
        return real(text)

    monkeypatch.setattr(cst, "parse_module", spy)
    assert threading.active_count() == 1
    linter._parse_module("x = 1\n")  # one thread: no node checks during the parse
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        linter._parse_module("x = 1\n")  # another thread may be building nodes: checks stay on
    finally:
        stop.set()
        other.join()
    assert seen == [(), ("_validate",)]


def test_a_file_that_fails_in_a_later_round_is_reported_not_retried(tmp_path, monkeypatch):
    root = tmp_path / "abs_pkg"
    shutil.copytree(FIXTURES / "abs_pkg", root)
    monkeypatch.chdir(root)
    real = runner.lint_one
    log = tmp_path / "calls.txt"  # the workers are forked: they tell the test through a file

    def fails_with_facts(path, data, settings, trees=None):
        if path.endswith("schedule.py"):
            with open(log, "a") as fh:
                fh.write(("facts" if settings.facts else "alone") + "\n")
            if settings.facts:
                raise RuntimeError("a bug that needs the facts")
        return real(path, data, settings, trees)

    monkeypatch.setattr(runner, "lint_one", fails_with_facts)
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "-j", "1", "--output-format", "concise"])
    assert result.exit_code == 2
    assert "error: trainer/schedule.py: could not be checked: the worker checking it exited (code 0)" in result.output
    calls = log.read_text().split()
    assert calls[-1] == "facts" and calls.count("facts") == 1  # failed with its facts: not tried again


def test_a_snapshot_whose_facts_break_the_analysis_is_forgotten(tmp_path, monkeypatch):
    root = tmp_path / "abs_pkg"
    shutil.copytree(FIXTURES / "abs_pkg", root)
    monkeypatch.chdir(root)
    cold = _lint_cached(root)
    (snapshot,) = _snapshots(root)
    value = json.loads(snapshot.read_text())
    name = next(n for n, v in value.items() if v[0])
    value[name][0] = '{"units": 5}'  # the right shape, facts no run could write
    snapshot.write_text(json.dumps(value))
    assert _lint_cached(root) == cold
    assert json.loads(snapshot.read_text())[name][0] != '{"units": 5}'


PLAIN = """\
import math

from pkg.consts import SCALE


def warmup(step, total):
    if step < total:
        return step / total * SCALE
    return math.sqrt(step)
"""


def test_a_project_module_that_never_names_jax_gives_its_summary_alone(tmp_path, monkeypatch):
    import jaxlint.engine

    monkeypatch.setattr(jaxlint.engine, "analyze", lambda *a, **k: pytest.fail("analysed"))
    result = linter.lint_source(PLAIN, "pkg/schedule.py", _settings(tmp_path, "pkg.schedule"))
    assert result.findings == [] and not result.parsed and result.error is None
    assert result.project["skipped"] is True
    assert (result.project["calls"], result.project["sites"]) == ([], [])
    summary = result.project["summary"]
    assert summary["module"] == "pkg.schedule"
    assert summary["names"]["warmup"] == {"k": "def", "q": "warmup"}
    assert summary["names"]["SCALE"] == {"k": "from", "m": "pkg.consts", "n": "SCALE"}
    # alone (no project) the prefilter leaves it as before: nothing to tell
    alone = linter.lint_source(PLAIN, "schedule.py", _settings(tmp_path).__class__(select=_settings(tmp_path).select))
    assert alone.project is None and alone.findings == []


def test_a_pool_started_early_lints_with_the_workers_it_forked(tmp_path):
    pool = runner.WorkerPool(4, None, 1 << 20)
    try:
        pool.start(2)
        assert len(pool._pool) == (2 if pool.forks else 0)
        settings = _settings(tmp_path)
        jobs = [(f"pkg/m{i}.py", PLAIN.encode(), settings) for i in range(3)]
        outcomes = list(pool.lint(jobs))
        assert sorted(r.path for r, tb, ok in outcomes) == ["pkg/m0.py", "pkg/m1.py", "pkg/m2.py"]
        assert all(tb is None and ok and r.project["skipped"] for r, tb, ok in outcomes)
        assert len(pool._pool) == (3 if pool.forks else 0)  # one more forked for the third file
    finally:
        pool.close()


def test_the_in_process_mode_forks_no_worker(tmp_path, monkeypatch):
    # the language server lints in its own (threaded) process (RunOptions.memo): the
    # workers forked early would never be used, one fork per refresh from a threaded process
    _facts_for_helper(tmp_path, monkeypatch)
    monkeypatch.setattr(runner, "_Worker", lambda *a, **k: pytest.fail("a worker was forked"))
    seen: list[str] = []

    class Memo:
        def recall(self, name, data, settings):
            return None

        def remember(self, name, data, settings, result):
            pass

        def linting(self, name):
            seen.append(name)

    store = ConfigStore(load_rule_infos(), Overrides(), tmp_path)
    files = [Path("pkg/__init__.py"), Path("pkg/helpers.py"), Path("pkg/train.py")]
    out = project_driver.run_project(files, Workspace(store), RunOptions(jobs=1, memo=Memo()))
    assert "pkg/helpers.py" in seen and len(out.results) == 3
