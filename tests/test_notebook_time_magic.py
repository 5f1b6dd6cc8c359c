"""A `%%time` cell's line takes no comment: IPython 9.18 refuses the cell
(``UsageError: Can't use statement directly after '%%time'!``), while a
`%%timeit` line and a `%time f(x)` line take one.  So `--add-noqa` and the
editor's "Disable JAX505 for this line" put the `# noqa` of a finding on a
`%%time` line on the cell's next line, and that comment suppresses it; and
JAX505 names the magic the cell uses (`%time`, not `%timeit`).  New-user
review 18, problems 3 and 11."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from jaxlint.cli import cli
from jaxlint.engine.suppression import comment_lines

HEAD = ["import jax\n", "import jax.numpy as jnp\n", "f = jax.jit(lambda x: x * 2)\n", "x = jnp.ones(3)"]


def _notebook(cells: list[list[str]]) -> str:
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": c}
        for c in cells]}, indent=1) + "\n"


def _check(tmp_path: Path, monkeypatch, *args: str):
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(cli, ["check", "--no-cache", "--output-format", "concise", *args, "nb.ipynb"])


def _cells(tmp_path: Path) -> list[str]:
    return ["".join(c["source"]) for c in json.loads((tmp_path / "nb.ipynb").read_text())["cells"]]


@pytest.mark.parametrize("magic, noqa_line", [
    ("%%time", "y = f(x)  # noqa: JAX505\n"),    # the magic's line takes no comment: the next line
    ("%%timeit", None),                           # `%%timeit  # noqa: JAX505` runs: on the magic's line
])
def test_add_noqa_on_a_timed_cell_writes_where_ipython_runs_it(tmp_path, monkeypatch, magic, noqa_line) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "nb.ipynb").write_text(_notebook([HEAD, [f"{magic}\n", "y = f(x)\n", "z = f(y)"]]))
    before = _check(tmp_path, monkeypatch)
    assert before.stdout.splitlines()[0] == (
        "nb.ipynb:cell 2:1:1: JAX505 The timed cell ends while the JAX computation started on line 3 may still "
        "be running (dispatch is asynchronous): the cell magic measures the dispatch, not the work. End the cell "
        "with `jax.block_until_ready(result)`")
    added = _check(tmp_path, monkeypatch, "--add-noqa")
    assert added.exit_code == 0 and "Added 1 noqa directive." in added.stderr
    if noqa_line is None:
        assert _cells(tmp_path)[1] == f"{magic}  # noqa: JAX505\ny = f(x)\nz = f(y)"
    else:
        assert _cells(tmp_path)[1] == f"{magic}\n{noqa_line}z = f(y)"
    after = _check(tmp_path, monkeypatch)
    assert after.exit_code == 0 and after.stdout == "All checks passed!\n"


@pytest.mark.parametrize("magic", ["%time", "%timeit"])
def test_jax505_names_the_line_magic_the_cell_uses(tmp_path, monkeypatch, magic) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "nb.ipynb").write_text(_notebook([HEAD, [f"{magic} f(x)"]]))
    assert _check(tmp_path, monkeypatch).stdout.splitlines()[0] == (
        f"nb.ipynb:cell 2:1:1: JAX505 `{magic}` times `f(...)`, a JAX computation that is dispatched "
        "asynchronously and never waited for: this measures the dispatch (and, on a first call, the "
        "compilation), not the work. Time `jax.block_until_ready(f(x))` instead")


def test_an_editor_cells_own_text_moves_the_comment_too() -> None:
    """The LSP's noqa action edits the cell's own text (fixer.add_noqa on it)."""
    assert comment_lines("%%time\ny = f(x)\n") == {1: 2}
    assert comment_lines("  %%time -q\ny = f(x)\n") == {1: 2}
    assert comment_lines("%%timeit\ny = f(x)\n") == {}
    assert comment_lines("x = 1  # %%time\n") == {}
