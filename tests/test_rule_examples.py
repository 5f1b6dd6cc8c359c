"""Every rule's own VALID / INVALID examples, run as tests (Fixit-style).

* VALID: no finding of the rule.
* INVALID: exactly the listed (line, column) findings, in order.
* INVALID with ``fixed``: applying the rule's fixes gives exactly that text, the
  result parses, re-linting shows none of the rule's findings left and no new
  finding of any rule, and fixing again changes nothing.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import libcst as cst
import pytest

import jaxlint
from jaxlint.docs import rule_source
from jaxlint.engine.rule import fix_availability_of

from jaxlint.engine.fixes import apply_findings
from jaxlint.rules import all_rules, default_codes
from rule_examples import lint

CASES_VALID = [
    pytest.param(rule, i, ex, id=f"{rule.code}-valid-{i}")
    for rule in all_rules()
    for i, ex in enumerate(rule.VALID)
]
CASES_INVALID = [
    pytest.param(rule, i, ex, id=f"{rule.code}-invalid-{i}")
    for rule in all_rules()
    for i, ex in enumerate(rule.INVALID)
]
CASES_FIXED = [p for p in CASES_INVALID if p.values[2].fixed is not None]


def test_every_rule_has_examples():
    for rule in all_rules():
        if rule.runtime_only:  # only `jaxlint observe` reports it: tests/test_observe.py
            assert not rule.VALID and not rule.INVALID, rule.code
            continue
        assert rule.VALID, f"{rule.code} has no VALID examples"
        assert rule.INVALID, f"{rule.code} has no INVALID examples"


def test_every_invalid_example_pins_its_messages():
    """Each INVALID example lists the full message of every finding it expects
    (``test_invalid_example`` compares them), so a changed message is seen."""
    missing = [
        f"{rule.code} INVALID[{i}]"
        for rule in all_rules()
        for i, ex in enumerate(rule.INVALID)
        if ex.messages is None or len(ex.messages) != len(ex.expected)
    ]
    assert missing == []


def test_one_rule_per_file_named_after_the_rule():
    """``rules/<family>/<rule_name>.py``, each file holding one rule; the page and
    ``jaxlint rule CODE`` name that file."""
    root = Path(jaxlint.__file__).resolve().parent.parent
    modules: dict[str, str] = {}
    for rule in all_rules():
        _, _, family, stem = rule.__module__.split(".")
        assert stem == rule.name.replace("-", "_"), rule.code
        assert (root / rule_source(rule)).is_file(), rule.code
        assert rule.__module__ not in modules, f"{rule.code} shares a file with {modules[rule.__module__]}"
        modules[rule.__module__] = rule.code
        assert (root / "jaxlint" / "rules" / family / "__init__.py").is_file()


def test_fix_availability_matches_examples():
    for rule in all_rules():
        has_fixed = any(ex.fixed is not None for ex in rule.INVALID)
        assert has_fixed == (rule.fix_availability != "none"), rule.code
        # derived from the examples (and the page's Example is INVALID[0]),
        # never declared a second time
        assert rule.fix_availability == fix_availability_of(rule.INVALID), rule.code
        source = inspect.getsource(rule)
        assert "fix_availability =" not in source and "example =" not in source, rule.code


@pytest.mark.parametrize("rule,i,ex", CASES_VALID)
def test_valid_example(rule, i, ex):
    found = lint(ex.code, select=[rule.code], x64=ex.x64, options=ex.options)
    assert [(f.line, f.col, f.message) for f in found] == []


@pytest.mark.parametrize("rule,i,ex", CASES_INVALID)
def test_invalid_example(rule, i, ex):
    found = lint(ex.code, select=[rule.code], x64=ex.x64, options=ex.options)
    assert [(f.code, f.line, f.col) for f in found] == [
        (rule.code, line, col) for line, col in ex.expected
    ]
    for f in found:
        assert f.name == rule.name
        assert f.end_line >= f.line
        if ex.message_contains:
            assert ex.message_contains in f.message
    if ex.messages is not None:
        assert [f.message for f in found] == list(ex.messages)


@pytest.mark.parametrize("rule,i,ex", CASES_FIXED)
def test_fixed_example(rule, i, ex):
    found = lint(ex.code, select=[rule.code], x64=ex.x64, options=ex.options)
    # without --unsafe-fixes an unsafe fix must not apply
    if ex.unsafe:
        unchanged, n = apply_findings(ex.code, found, unsafe=False)
        assert n == 0 and unchanged == ex.code
    text = ex.code
    for _ in range(5):  # repeat until nothing more applies
        found = lint(text, select=[rule.code], x64=ex.x64, options=ex.options)
        text, n = apply_findings(text, found, unsafe=ex.unsafe)
        if n == 0:
            break
    assert text == ex.fixed
    cst.parse_module(text)  # still valid Python
    assert lint(text, select=[rule.code], x64=ex.x64) == []
    before = {(f.code) for f in lint(ex.code, select=default_codes(), x64=ex.x64)}
    after = {(f.code) for f in lint(text, select=default_codes(), x64=ex.x64)}
    assert after <= before, f"the fix introduced {after - before}"
    again, n = apply_findings(text, lint(text, select=[rule.code], x64=ex.x64), unsafe=True)
    assert n == 0 and again == text
