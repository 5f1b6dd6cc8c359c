"""False findings read on real code (fresh set 6) and the precision items left alone,
each removed by a change to the model's mechanism, with the twins that must stay
reported.  Snippets written here in the shape of the mechanism (several shapes each),
not copied from the code read."""

from __future__ import annotations

import json
import textwrap

from jaxlint.lint.linter import lint_source
from jaxlint.settings import LintSettings
from jaxlint.workspace.ruleinfo import load_rule_infos

_ALL = frozenset(r.code for r in load_rule_infos())


def _found(src: str, path: str = "pkg/mod.py", code: str | None = None) -> list[tuple[str, int, int, str]]:
    result = lint_source(textwrap.dedent(src), path, LintSettings(select=_ALL))
    return [(f.code, f.line, f.col, f.message) for f in result.findings if code is None or f.code == code]


# --- 6. JAX121: capture patterns and `except ... as` names are bindings ---
# (the mechanism: the index's names a scope binds left out `case` capture names and
# `except E as n`, so a name bound there resolved to a module constant, or kept the
# integer a local assignment gave it before the `match`)

def _oob(i: int, size: int) -> str:
    return (f"index {i} is out of bounds for axis 0 with size {size}, and JAX raises no IndexError: the read "
            "is clamped to the nearest valid index (silently the wrong element)")


def test_capture_names_and_except_names_are_not_module_constants() -> None:
    src = """\
    import jax.numpy as jnp

    i = 5

    def pick(pair):
        x = jnp.arange(3)
        match pair:
            case (i, k):
                return x[i]
        return x[0]

    def first(items):
        x = jnp.zeros(4)
        match items:
            case [*i]:
                return x[i]
        return x

    def guarded(call):
        x = jnp.zeros(4)
        try:
            call()
        except ValueError as i:
            return x[i]
        return x
    """
    assert _found(src, code="JAX121") == []


def test_capture_rebinding_a_local_constant() -> None:
    src = """\
    import jax.numpy as jnp

    def pick(config):
        i = 5
        x = jnp.arange(3)
        match config:
            case {"index": i}:
                pass
            case {"rest": 0, **i}:
                pass
        return x[i]
    """
    assert _found(src, code="JAX121") == []


def test_constants_not_captured_still_reported() -> None:
    src = """\
    import jax.numpy as jnp

    i = 5
    N = 7

    def pick(pair):
        x = jnp.arange(3)
        match pair:
            case (a, k) if a > 0:
                return x[N]
            case {"n": n, **rest}:
                return x[i]
        try:
            pass
        except ValueError as err:
            return x[i]
        return x[0]
    """
    assert _found(src, code="JAX121") == [
        ("JAX121", 10, 22, _oob(7, 3)),
        ("JAX121", 12, 22, _oob(5, 3)),
        ("JAX121", 16, 18, _oob(5, 3)),
    ]
