"""The engine: dispatch only to enabled rules, one check for several codes, deep input."""

from __future__ import annotations

import libcst as cst

from jaxlint.engine import analyze
from jaxlint.engine.rule import Check, Rule
from jaxlint.lint.linter import lint_source
from jaxlint.rules import all_rules, default_codes
from jaxlint.settings import LintSettings


def _settings(*codes: str) -> LintSettings:
    return LintSettings(select=frozenset(codes))


class _Shared(Check):
    calls = 0

    def visit_Call(self, node: cst.Call) -> None:
        type(self).calls += 1
        name = self.ctx.builtin_name(node.func)
        if name == "print":
            self.report(node, "first code", code="TST901")
            self.report(node, "second code", code="TST902")


class _First(Rule):
    code = "TST901"
    name = "test-first"
    summary = "first"
    check = _Shared


class _Second(Rule):
    code = "TST902"
    name = "test-second"
    summary = "second"
    check = _Shared


SRC = "import jax\nprint(1)\n"


def test_one_check_reports_several_codes_and_runs_once():
    _Shared.calls = 0
    module = cst.parse_module(SRC)
    found = analyze(module, SRC, "a.py", _settings("TST901", "TST902"), [_First, _Second])
    assert [(f.code, f.line, f.col, f.message, f.name) for f in found] == [
        ("TST901", 2, 1, "first code", "test-first"),
        ("TST902", 2, 1, "second code", "test-second"),
    ]
    assert _Shared.calls == 1  # one instance, one visit of the single call


def test_a_shared_check_reports_only_enabled_codes():
    module = cst.parse_module(SRC)
    found = analyze(module, SRC, "a.py", _settings("TST902"), [_First, _Second])
    assert [f.code for f in found] == ["TST902"]


def test_disabled_rules_are_not_instantiated():
    _Shared.calls = 0
    module = cst.parse_module(SRC)
    assert analyze(module, SRC, "a.py", _settings("JAX201"), [_First, _Second]) == []
    assert _Shared.calls == 0


def test_deprecation_rules_share_one_check():
    checks = {r.check_class() for r in all_rules() if r.code.startswith("JAX9")}
    assert len(checks) == 1


def test_deep_expressions_are_analysed_not_crashed():
    """Valid Python that nests deeply, up to the guard's limit (1,000-term sums,
    1,000-link attribute chains), goes through the model without a RecursionError."""
    sources = {
        "sum.py": "import jax\ny = " + " + ".join(f"a{i}" for i in range(1000)) + "\n",
        "attr.py": "import jax\ny = x" + ".a" * 1000 + "\n",
        "jit.py": "import jax\n\n@jax.jit\ndef f(x):\n    if x" + " + x" * 1000 + " > 0:\n        return x\n    return -x\n",
    }
    settings = LintSettings(select=default_codes())
    results = {name: lint_source(src, name, settings) for name, src in sources.items()}
    assert {name: (r.error, r.parsed) for name, r in results.items()} == {
        "sum.py": (None, True), "attr.py": (None, True), "jit.py": (None, True)
    }
    assert [(f.code, f.line, f.col) for f in results["jit.py"].findings] == [("JAX201", 5, 8)]


def test_a_misspelled_hook_is_an_error_naming_the_rule():
    import pytest

    from jaxlint.engine.rule import HookError

    with pytest.raises(HookError) as err:
        class Misspelled(Rule):  # noqa: F841
            code = "JAX999"
            name = "misspelled"

            def visit_Nmae(self, node: cst.Name) -> None:
                self.report(node, "never called")

    assert str(err.value) == (
        f"JAX999 ({__name__}.test_a_misspelled_hook_is_an_error_naming_the_rule.<locals>.Misspelled): "
        "`visit_Nmae` names no libcst node class, so it would never be called; did you mean `visit_Name`?")
    # an abstract base is never dispatched to (nodes are dispatched by their own class)
    with pytest.raises(HookError, match=r"^[\w.]*test_engine\..*\.Shared: `leave_BaseExpression` names no libcst"):
        class Shared(Check):  # noqa: F841
            def leave_BaseExpression(self, node: cst.BaseExpression) -> None:
                pass


def test_hooks_are_recorded_once_per_class():
    class Both(Check):
        def visit_Call(self, node: cst.Call) -> None:
            pass

        leave_For = leave_While = visit_Call

    assert Both.hooks == (("leave_For", cst.For, False), ("leave_While", cst.While, False),
                          ("visit_Call", cst.Call, True))
