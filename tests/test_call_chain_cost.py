"""A chain of calls (a table whose rows lost their commas: ``(0, 1)  # row,`` is
``(0, 1)(0, 1)...``, one call nested in the next) is linted in linear time: no rule
prints the whole callee of every call in the chain (JAX301's unmapped-key check did,
quadratic: 300 rows took 25 s, 1,000 rows over 60 s)."""

from __future__ import annotations

from jaxlint.engine import context
from jaxlint.lint.linter import lint_source
from jaxlint.rules import default_codes
from jaxlint.settings import LintSettings


def test_rules_print_a_chain_of_calls_a_bounded_number_of_times(monkeypatch) -> None:
    rows = "".join("    (" + ", ".join(str(i) for i in range(30)) + ")  # row,\n" for _ in range(300))
    text = ("import jax\nimport jax.numpy as jnp\n\n\ndef lookup(i, table=[\n" + rows
            + "]):\n    return jnp.asarray(table)[i]\n")
    printed = []
    real = context.RuleContext.code

    def counting(self, node):
        out = real(self, node)
        printed.append(len(out))
        return out

    monkeypatch.setattr(context.RuleContext, "code", counting)
    result = lint_source(text, "chain.py", LintSettings(select=frozenset(default_codes())))
    assert result.error is None and result.findings == []
    assert sum(printed) < 2 * len(text)  # not ~ rows * len(text) / 2
