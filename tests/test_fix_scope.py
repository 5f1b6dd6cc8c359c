"""Fixes proven by scope: a fix that rebinds a name is offered only where the
rebinding reaches the variable the code reads, and a fix that writes a module
name only where that name is not shadowed."""

from __future__ import annotations

import textwrap

from jaxlint.findings import Applicability
from jaxlint.fix.fixer import fix_text
from jaxlint.lint.linter import lint_source
from jaxlint.settings import LintSettings


def _fixes(src: str, code: str) -> list[tuple[int, object]]:
    """(line, applicability or None) of each finding of ``code``."""
    result = lint_source(textwrap.dedent(src), "m.py", LintSettings(select=frozenset({code})))
    return [(f.line, f.fix.applicability if f.fix else None) for f in result.findings if f.code == code]


def test_jax101_global_and_closure_get_no_fix_declared_ones_an_unsafe_one():
    src = """
    import jax.numpy as jnp

    table = jnp.zeros(4)
    table[1] = 2.0


    def read_then_set():
        table[0] = 1.0


    def declared():
        global table
        table[0] = 1.0


    def outer():
        counts = jnp.zeros(3)

        def bump(i):
            counts[i] += 1

        def bump_declared(i):
            nonlocal counts
            counts[i] += 1

        return bump, bump_declared
    """
    assert _fixes(src, "JAX101") == [
        (5, Applicability.SAFE),  # module level: the module's own variable
        (9, None),
        (14, Applicability.UNSAFE),
        (21, None),
        (25, Applicability.UNSAFE),
    ]


def test_jax101_fix_of_a_declared_global_runs():
    src = textwrap.dedent("""
    import jax.numpy as jnp

    table = jnp.zeros(2)


    def declared():
        global table
        table[0] = 1.0
    """)
    fixed = fix_text(src, "m.py", LintSettings(select=frozenset({"JAX101"})), unsafe=True)
    text = fixed[0] if isinstance(fixed, tuple) else fixed.text
    assert "    global table\n    table = table.at[0].set(1.0)\n" in text


def test_jax101_aliases_make_the_fix_unsafe():
    src = """
    import jax.numpy as jnp

    def f():
        y = z = jnp.zeros(3)
        y[0] = 1.0
        w = jnp.zeros(3)
        w[0] = 1.0
        return y, z, w
    """
    assert _fixes(src, "JAX101") == [(6, Applicability.UNSAFE), (8, Applicability.SAFE)]


def test_jax401_fix_only_where_jax_is_not_shadowed():
    src = """
    import jax


    @jax.jit
    def f(x):
        print(x)
        return x


    def g(jax, y):
        @jax.jit
        def inner(x):
            print(x)
            return x
        return inner(y)
    """
    assert _fixes(src, "JAX401") == [(7, Applicability.UNSAFE), (14, None)]
