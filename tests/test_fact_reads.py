"""The facts a file's analysis asks for (model/factreads.py), and the project
driver's rounds that lint a file again only when one of those answers changes."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from jaxlint.lint import runner
from jaxlint.model.factreads import EMPTY, WHOLE, FactReads, ReadDict, ReadSet, same_answers
from jaxlint.project import driver as project_driver
from jaxlint.project.driver import RunOptions
from jaxlint.workspace import Workspace, cache_in
from jaxlint.workspace.config import ConfigStore, Overrides
from jaxlint.workspace.ruleinfo import load_rule_infos


# ---------------------------------------------------------------------------- the record
def test_a_read_dict_notes_each_key_asked_and_a_whole_read():
    reads = FactReads()
    d = ReadDict(reads, "jits", {"step": {"static": [1]}})
    assert d.get("step") == {"static": [1]} and d.get("other") is None
    assert "maybe" not in d and d["step"] == {"static": [1]}
    assert reads.as_json() == {"jits": ["maybe", "other", "step"]}
    assert bool(d)
    assert reads.as_json() == {"jits": [EMPTY, "maybe", "other", "step"]}
    assert sorted(d) == ["step"]
    assert WHOLE in reads.as_json()["jits"]


# Whatever is done with the facts, the answer depends only on what the record holds:
# facts that give the same answers to the recorded questions give the same result.
_DICTS = [{"f": "helper"}, {}, {"f": "helper", "g": "flag"}, {"f": "flag"}, {"g": "helper"}]
_DICT_OPS = [len, list, sorted, bool, lambda d: d.get("f"), lambda d: "g" in d, lambda d: d["f"] if "f" in d else 0,
             lambda d: list(d.items()), lambda d: list(d.keys()), lambda d: list(d.values()), dict,
             lambda d: d == {}, lambda d: d != {"f": "helper"}, lambda d: {**d}, lambda d: {} | dict(d),
             lambda d: "f" in d.keys(), lambda d: len(d.items()), lambda d: next(iter(d), None)]


@pytest.mark.parametrize("op", [json.dumps, lambda d: d | {}, lambda d: d.update({}), lambda d: d.setdefault("f", 1),
                                lambda d: d.copy(), pickle.dumps])
def test_what_a_read_dict_cannot_note_fails_loudly(op):
    with pytest.raises((TypeError, AttributeError)):
        op(ReadDict(FactReads(), "x64", {"f": "helper"}))


@pytest.mark.parametrize("op", _DICT_OPS)
def test_what_is_done_with_a_read_dict_depends_only_on_what_it_noted(op):
    for facts in _DICTS:
        reads = FactReads()
        got = op(ReadDict(reads, "x64", facts))
        for other in _DICTS:
            if same_answers(reads.as_json(), {"x64": facts}, {"x64": other}):
                assert op(ReadDict(FactReads(), "x64", other)) == got, (facts, other)


_SETS = [["f"], [], ["f", "a"], ["g"], ["a", "b", "f"]]
_SET_OPS = [len, sorted, bool, list, frozenset, lambda s: "f" in s, lambda s: s & {"a"}, lambda s: {"a"} | s,
            lambda s: s - {"a"}, lambda s: {"a"} - s, lambda s: s <= {"a", "f"}, lambda s: s.isdisjoint(["b"]),
            lambda s: s == frozenset({"f"}), lambda s: {"a"} & s, lambda s: s ^ {"f"}]


@pytest.mark.parametrize("op", _SET_OPS)
def test_what_is_done_with_a_read_set_depends_only_on_what_it_noted(op):
    for items in _SETS:
        reads = FactReads()
        got = op(ReadSet(reads, "x64_units", items))
        for other in _SETS:
            if same_answers(reads.as_json(), {"x64_units": items}, {"x64_units": other}):
                assert op(ReadSet(FactReads(), "x64_units", other)) == got, (items, other)


def test_a_category_held_but_never_asked_is_an_empty_record():
    reads = FactReads()
    ReadDict(reads, "classes", {"P": {}})
    ReadSet(reads, "factories", ["make"])
    assert reads.as_json() == {"classes": [], "factories": []}


def test_same_answers_compares_only_what_was_asked():
    reads = {"classes": ["P"], "factories": ["make"], "units": ["f", "g"], "jits": [EMPTY]}
    old = {"classes": {"P": {"reg": 1}}, "units": {"f": [{"kind": "call"}]}}
    # a class it never asked for, a unit that is not its own, another jit where there was one
    new = {"classes": {"P": {"reg": 1}, "Q": {"reg": 2}}, "units": {"f": [{"kind": "call"}], "h": []},
           "factories": ["other"]}
    assert same_answers(reads, old, new)
    assert same_answers(reads, {"jits": {"a": {}}}, {"jits": {"b": {}}})
    assert not same_answers(reads, old, {**new, "factories": ["make"]})  # asked, now there
    assert not same_answers(reads, old, {**new, "classes": {"P": {"reg": 2}}})  # asked, changed
    assert not same_answers(reads, old, {**new, "units": {"g": []}})  # its own function's facts
    assert not same_answers(reads, {}, {"jits": {"a": {}}})  # asked whether there is any
    # what the record does not hold is compared whole (a category added later, a bool)
    assert not same_answers(reads, old, {**old, "x64_import": True})
    assert not same_answers({**reads, "classes": [WHOLE]}, old, new)


# ---------------------------------------------------------------------------- the rounds
FACTORY = """\
import jax


def make_step(scale):
    def step(x):
        return x * scale
    return step


@jax.jit
def apply(x):
    return helper(x)


def helper(x):
    if x > 0:
        return x
    return -x
"""

# imports the factory but never calls it: its new fact is one it never asks for
USER = """\
import jax
import jax.numpy as jnp

from pkg.factory import make_step


@jax.jit
def loss(x):
    if x.sum() > 0:
        return jnp.sum(x)
    return x
"""

# calls it in a loop: asks whether `make_step` is a factory
CALLER = """\
import jax

from pkg.factory import make_step


def train(xs):
    for x in xs:
        jax.jit(make_step(2.0))(x)
"""


def _project(tmp_path: Path, monkeypatch) -> list[Path]:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "factory.py").write_text(FACTORY)
    (tmp_path / "pkg" / "user.py").write_text(USER)
    (tmp_path / "pkg" / "caller.py").write_text(CALLER)
    monkeypatch.chdir(tmp_path)
    return [Path("pkg/__init__.py"), Path("pkg/caller.py"), Path("pkg/factory.py"), Path("pkg/user.py")]


class _Counting:
    """A memo that remembers nothing and counts the lints (in this process)."""

    def __init__(self) -> None:
        self.linted: list[str] = []
        self.remembered: list[tuple[str, str]] = []

    def recall(self, name, data, settings):
        return None

    def remember(self, name, data, settings, result):
        self.remembered.append((name, settings.facts))

    def linting(self, name):
        self.linted.append(name)


def _run(tmp_path: Path, files: list[Path], memo: _Counting):
    store = ConfigStore(load_rule_infos(), Overrides(), tmp_path)
    out = project_driver.run_project(files, Workspace(store), RunOptions(jobs=1, memo=memo))
    findings = sorted((r.path, f.line, f.col, f.code, f.message) for r in out.results for f in r.findings)
    facts = {name: s.facts for name, s in out.settings_of.items()}
    return findings, facts


def test_a_file_is_linted_again_only_when_a_fact_it_asked_for_changed(tmp_path, monkeypatch):
    files = _project(tmp_path, monkeypatch)
    memo = _Counting()
    findings, facts = _run(tmp_path, files, memo)
    # both importers are told that make_step is a factory
    for name in ("pkg/user.py", "pkg/caller.py"):
        assert json.loads(facts[name])["factories"] == ["make_step"]
    # the one that calls it asked, and is linted again (and now reports the jit per call);
    # the other never asked: its first result stands for its new facts, remembered for them
    assert memo.linted.count("pkg/caller.py") == 2
    assert memo.linted.count("pkg/user.py") == 1
    assert ("pkg/user.py", facts["pkg/user.py"]) in memo.remembered
    assert ("pkg/caller.py", 8, 9, "JAX501") in [f[:4] for f in findings]
    assert ("pkg/user.py", 9, 8, "JAX201") in [f[:4] for f in findings]

    # the same findings and facts as linting every file whose facts changed again
    monkeypatch.setattr(project_driver, "_same_answers", lambda *a: False)
    every = _Counting()
    assert _run(tmp_path, files, every) == (findings, facts)
    assert every.linted.count("pkg/user.py") == 2


def test_a_kept_result_is_cached_for_the_new_facts(tmp_path, monkeypatch):
    files = _project(tmp_path, monkeypatch)
    store = ConfigStore(load_rule_infos(), Overrides(), tmp_path)

    def lint():
        out = project_driver.run_project(files, Workspace(store, cache=cache_in(tmp_path / "cache")),
                                         RunOptions(jobs=1))
        return sorted((r.path, f.line, f.code) for r in out.results for f in r.findings)

    cold = lint()

    def refuse(*args, **kwargs):
        raise AssertionError(f"linted again: {args[0]}")

    with monkeypatch.context() as m:
        m.setattr(runner, "lint_one", refuse)
        m.setattr(runner, "supervise", refuse)
        # the project's snapshot gives each file its final facts: every result is in the cache
        assert lint() == cold
        for snapshot in (tmp_path / "cache").rglob("projects/*.json"):
            snapshot.unlink()
        # every round again, from the cache
        assert lint() == cold


# x64 on everywhere in the library (a function of the package switches it on at run
# time): the x64 reach of a test (tests/conftest.py) names `solve`, whose x64 reach
# names `util.scale` one round later; util's result cannot depend on that fact
X64_FILES = {
    "pyproject.toml": "",
    "solver/__init__.py": "",
    "solver/consts.py": "EPS = 1e-6\n",
    "solver/precision.py": 'import jax\n\n\ndef double():\n    jax.config.update("jax_enable_x64", True)\n',
    "solver/core.py": ("import jax.numpy as jnp\n\nfrom solver import util\n\n\ndef solve(a):\n"
                       "    return util.scale(jnp.linalg.solve(a, jnp.ones(a.shape[0], dtype=jnp.float64)))\n"),
    "solver/util.py": ("import jax.numpy as jnp\n\nfrom solver.consts import EPS\n\n\ndef scale(x):\n"
                       "    return x * jnp.asarray(EPS, dtype=jnp.float64)\n\n\n"
                       "def other(x):\n    return jnp.zeros(3, dtype=jnp.float64) + x\n"),
    "tests/conftest.py": 'import jax\n\njax.config.update("jax_enable_x64", True)\n',
    "tests/test_core.py": ("import jax.numpy as jnp\nfrom solver.core import solve\n\n\n"
                           "def test_solve():\n    assert solve(jnp.eye(2)).shape == (2,)\n"),
}


def test_facts_of_which_units_run_with_x64_are_not_asked_where_every_unit_does(tmp_path, monkeypatch):
    for rel, text in X64_FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    monkeypatch.chdir(tmp_path)
    files = sorted(Path(rel) for rel in X64_FILES if rel.endswith(".py"))
    memo = _Counting()
    findings, facts = _run(tmp_path, files, memo)
    assert json.loads(facts["solver/util.py"])["x64_units"] == ["scale"]
    # linted with x64 off (round 1), then on (round 2); the new fact naming `scale` is not asked
    assert memo.linted.count("solver/util.py") == 2
    assert ("solver/util.py", facts["solver/util.py"]) in memo.remembered
    assert not [f for f in findings if f[3] == "JAX110"]
    # the same findings and facts as linting every file whose facts changed again
    monkeypatch.setattr(project_driver, "_same_answers", lambda *a: False)
    every = _Counting()
    assert _run(tmp_path, files, every) == (findings, facts)
    assert every.linted.count("solver/util.py") == 3
