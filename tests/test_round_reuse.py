"""What a later round of the project driver reuses of a kept tree: the file's
summary and the lines of its calls (no CPython parse, no second summary), and
only while they cover what the new analysis reports."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from jaxlint.lint import linter
from jaxlint.model import summary as summary_module
from jaxlint.workspace.config import ConfigStore, Overrides
from jaxlint.workspace.ruleinfo import load_rule_infos

TRAIN = """\
import jax

from pkg.helpers import clip, scale


@jax.jit
def train_step(x):
    y = x + 1
    return clip(y, 1.0)


def evaluate(x):
    z = x * 2
    return scale(z)
"""


def _settings(tmp_path: Path):
    store = ConfigStore(load_rule_infos(), Overrides(), tmp_path)
    return replace(store.settings_for(tmp_path / "x.py"), module="pkg.train", project_packages=frozenset({"pkg"}))


def _counting(monkeypatch) -> list[str]:
    seen: list[str] = []
    real_parse, real_summary = linter.python_syntax_error, summary_module.extract_summary

    def parse(text, path):
        seen.append("parse")
        return real_parse(text, path)

    def summary(*args):
        seen.append("summary")
        return real_summary(*args)

    monkeypatch.setattr(linter, "python_syntax_error", parse)
    monkeypatch.setattr(summary_module, "extract_summary", summary)
    return seen


# `evaluate` traced from another module: its call of `scale` is a new record, in a scope
# the first round did not walk for lines
EVALUATE_TRACED = json.dumps({"units": {"evaluate": [
    {"kind": "call", "traced_pos": [0], "array_pos": [0], "n_pos": 1, "path": "pkg/main.py", "line": 3,
     "reason": "called from `main` (pkg/main.py:3), which is decorated with @jax.jit"}]}})


def test_a_later_round_reuses_the_summary_and_the_call_lines(tmp_path, monkeypatch):
    settings = _settings(tmp_path)
    seen = _counting(monkeypatch)
    store = linter.TreeStore(1 << 20)
    first = linter.lint_source(TRAIN, "pkg/train.py", settings, trees=store)
    assert seen == ["parse", "summary"]
    assert [(c["callee"], c["line"]) for c in first.project["calls"]] == [("clip", 9)]
    # the same text again, other facts of no consequence to the lines: nothing parsed or summarised
    again = linter.lint_source(TRAIN, "pkg/train.py", replace(settings, facts='{"factories":["x"]}'), trees=store)
    assert seen == ["parse", "summary"]
    assert again.project == first.project
    # a function traced now calls a helper: its scope was not walked, CPython parses again
    third = linter.lint_source(TRAIN, "pkg/train.py", replace(settings, facts=EVALUATE_TRACED), trees=store)
    assert seen == ["parse", "summary", "parse"]
    assert sorted((c["callee"], c["line"]) for c in third.project["calls"]) == [("clip", 9), ("scale", 14)]
    # ... and now both scopes are known
    linter.lint_source(TRAIN, "pkg/train.py", replace(settings, facts=EVALUATE_TRACED), trees=store)
    assert seen == ["parse", "summary", "parse"]
    # each the same as a fresh lint with the same facts
    for result, facts in ((again, '{"factories":["x"]}'), (third, EVALUATE_TRACED)):
        fresh = linter.lint_source(TRAIN, "pkg/train.py", replace(settings, facts=facts))
        assert fresh.project == result.project and fresh.findings == result.findings


def test_an_edited_text_forgets_what_was_kept(tmp_path, monkeypatch):
    settings = _settings(tmp_path)
    store = linter.TreeStore(1 << 20)
    linter.lint_source(TRAIN, "pkg/train.py", settings, trees=store)
    seen = _counting(monkeypatch)
    edited = "\n" + TRAIN
    result = linter.lint_source(edited, "pkg/train.py", settings, trees=store)
    assert seen == ["parse", "summary"]
    assert [(c["callee"], c["line"]) for c in result.project["calls"]] == [("clip", 10)]


LAMBDA_CALLER = """\
import jax

from pkg.helpers import clip, scale


@jax.jit
def train_step(x):
    f = lambda y: scale(y)
    return clip(f(x), 1.0)
"""


def test_a_record_in_a_lambda_leaves_the_other_lines_filled(tmp_path):
    # a call from a lambda is in no walked scope (line 0); the others keep their lines
    result = linter.lint_source(LAMBDA_CALLER, "pkg/train.py", _settings(tmp_path))
    assert sorted((c["caller"], c["callee"], c["line"]) for c in result.project["calls"]) == [
        ("train_step", "clip", 9), ("train_step.<lambda>", "scale", 0)]


LOOP = """\
import jax

from pkg.factory import make_step


def train(xs):
    for x in xs:
        jax.jit(make_step(2.0))(x)
"""


def test_a_later_round_reuses_the_loop_call_walk(tmp_path, monkeypatch):
    """The loop-call walk (model/repeats.py) depends on the tree alone: kept with it,
    it is not made again for a later round, though other files were linted between."""
    from jaxlint.model import repeats

    walked: list[str] = []
    real = repeats._walk
    # (a tree built from CPython's prints without the blank lines: each file is named by a call it makes)
    monkeypatch.setattr(repeats, "_walk", lambda m: walked.append("loop" if "make_step(2.0)" in m.code else "train")
                        or real(m))
    caller = replace(_settings(tmp_path), module="pkg.caller")
    store = linter.TreeStore(1 << 20)

    def lint(facts: str, between: bool = True):
        if between:  # another file linted in between (the module-level memo holds the last tree only)
            linter.lint_source(TRAIN, "pkg/train.py", _settings(tmp_path), trees=store)
        return linter.lint_source(LOOP, "pkg/caller.py", replace(caller, facts=facts), trees=store)

    first = lint("", between=False)
    assert walked == ["loop"] and not first.findings
    other = lint(json.dumps({"factories": ["other"]}))
    assert walked == ["loop", "train"] and not other.findings
    # told that `make_step` is a factory: a jit made per iteration (the walk finds the loop)
    facts = json.dumps({"factories": ["make_step"]})
    again = lint(facts)
    assert [(f.code, f.line, f.col) for f in again.findings] == [("JAX501", 8, 9)]
    # the finding's file is analysed again on libcst's tree (a new tree: walked once more)
    assert walked == ["loop", "train", "loop"]
    last = lint(facts)
    assert walked == ["loop", "train", "loop"]
    for result, given in ((other, json.dumps({"factories": ["other"]})), (again, facts), (last, facts)):
        fresh = linter.lint_source(LOOP, "pkg/caller.py", replace(caller, facts=given))
        assert fresh.findings == result.findings and fresh.project == result.project
