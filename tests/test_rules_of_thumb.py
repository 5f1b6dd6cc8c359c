"""Rules of thumb that depend on where the code lives (the file's path)."""

from __future__ import annotations

import textwrap

from jaxlint.lint.linter import lint_source
from jaxlint.settings import LintSettings

HELPER = textwrap.dedent("""
    import jax
    import jax.numpy as jnp


    def _grad_smoke(fwd):
        return jax.jit(jax.grad(fwd))(jnp.array(1.0))


    def smoke_all(fwds):
        return [_grad_smoke(f) for f in fwds]
""")


def _found(path: str) -> list[tuple[str, int, int]]:
    result = lint_source(HELPER, path, LintSettings(select=frozenset({"JAX501"})))
    return [(f.code, f.line, f.col) for f in result.findings]


def test_jax501_per_call_recompile_is_quiet_in_test_modules():
    assert _found("tests/test_meter.py") == []
    assert _found("tests/meter_test.py") == []
    assert _found("tests/conftest.py") == []
    assert _found("pkg/meter.py") == [("JAX501", 7, 12)]
