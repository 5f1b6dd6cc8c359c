"""Every rule's own VALID / INVALID examples, run as tests (Fixit-style).

* VALID: no finding of the rule.
* INVALID: exactly the listed (line, column) findings, in order.
* INVALID with ``fixed``: applying the rule's fixes gives exactly that text, the
  result parses, re-linting shows none of the rule's findings left and no new
  finding of any rule, and fixing again changes nothing.
"""

from __future__ import annotations

import libcst as cst
import pytest

from jaxlint.fixes import apply_findings
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
        assert rule.VALID, f"{rule.code} has no VALID examples"
        assert rule.INVALID, f"{rule.code} has no INVALID examples"


def test_every_invalid_example_pins_its_messages():
    """Each INVALID example lists the full message of every finding it expects
    (``test_invalid_example`` compares them), so a changed message is seen."""
    missing = [
        f"{rule.code} INVALID[{i}]"
        for rule in all_rules()
        for i, ex in enumerate(rule.INVALID)
        # the deprecation rules of rules/deprecated.py are being rewritten, with
        # their messages, into rules/deprecations/; this exception goes with that file
        if rule.__module__ != "jaxlint.rules.deprecated"
        and (ex.messages is None or len(ex.messages) != len(ex.expected))
    ]
    assert missing == []


def test_fix_availability_matches_examples():
    for rule in all_rules():
        has_fixed = any(ex.fixed is not None for ex in rule.INVALID)
        assert has_fixed == (rule.fix_availability != "none"), rule.code


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
