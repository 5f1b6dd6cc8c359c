"""A cell that does not parse hides nothing else: Jupyter compiles each cell by
itself and runs the others, so the other cells are linted (the bad cell's lines
set aside) and the bad cell gets JAX001 at its own cell, line and column."""

from __future__ import annotations

import json

from jaxlint.lint.linter import lint_notebook
from jaxlint.rules import default_codes
from jaxlint.settings import LintSettings

SETTINGS = LintSettings(select=frozenset(default_codes() | {"JAX001"}))
TREE_MAP = ("`jax.tree_map` was removed in JAX 0.6.0 (deprecated in 0.4.26): use `jax.tree.map` "
            "instead (identical signature)")


def _notebook(*cells: tuple[str, str]) -> bytes:
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": kind, "metadata": {}, "source": source,
         **({"outputs": [], "execution_count": None} if kind == "code" else {})}
        for kind, source in cells]}).encode()


def _found(data: bytes) -> list[tuple]:
    result = lint_notebook(data, "nb.ipynb", SETTINGS)
    assert result.error is None
    return [(f.code, f.cell, f.line, f.col, f.message, f.fix is not None) for f in result.findings]


def test_the_other_cells_are_linted_around_a_cell_that_does_not_parse() -> None:
    data = _notebook(("code", "import jax\ny = jax.tree_map(abs, 1)\n"),
                     ("markdown", "# notes"),
                     ("code", "def f(:\n  pass"),
                     ("code", "@jax.jit\ndef g(x):\n    print(x)\n    return jax.tree_map(abs, x)\n"))
    found = _found(data)
    assert [f[:4] for f in found] == [
        ("JAX901", 1, 2, 5), ("JAX001", 3, 1, 7), ("JAX401", 4, 3, 5), ("JAX901", 4, 4, 12)]
    assert found[0][4] == TREE_MAP and found[1][4] == ("The cell does not parse: invalid syntax; the notebook's other cells "
                                                          "are checked")
    assert not any(f[5] for f in found)  # --fix refuses a notebook that does not parse: no [*]


def test_a_notebook_that_parses_keeps_its_fixes() -> None:
    data = _notebook(("code", "import jax\ny = jax.tree_map(abs, 1)\n"), ("code", "z = 1\n"))
    assert _found(data) == [("JAX901", 1, 2, 5, TREE_MAP, True)]


def test_every_cell_that_does_not_parse_gets_its_own_error() -> None:
    data = _notebook(("code", "import jax\n"), ("code", "def g(:\n    pass\n"),
                     ("code", "y = jax.tree_map(abs, 1)\n"), ("code", "class:\n    pass\n"))
    assert [f[:4] for f in _found(data)] == [("JAX001", 2, 1, 7), ("JAX901", 3, 1, 5), ("JAX001", 4, 1, 6)]
    # a cell that does not run imports nothing: what it would have bound is unknown after it
    data = _notebook(("code", "import jax\ndef g(:\n    pass\n"), ("code", "y = jax.tree_map(abs, 1)\n"))
    assert [f[:4] for f in _found(data)] == [("JAX001", 1, 2, 7)]
