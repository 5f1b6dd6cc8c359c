"""A fix that would change a line of IPython syntax (`%time x[0] = 1.0`, a `%%timeit`
body) cannot be written back into the cell: it is not offered (no `[*]`, not
counted), and it no longer keeps the notebook's other fixes from being written."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from jaxlint.cli import cli

CELLS = [["import jax\n", "import jax.numpy as jnp\n", "x = jnp.zeros(3)"],
         ["%time x[0] = 1.0\n", "y = jax.tree_map(abs, x)"],
         ["%%timeit\n", "x[1] = 2.0"]]


def _notebook(cells: list[list[str]]) -> str:
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": c}
        for c in cells]}, indent=1) + "\n"


def _run(tmp_path: Path, monkeypatch, *args: str):
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(cli, ["check", "--no-cache", "--output-format", "concise", *args, "nb.ipynb"])


def test_only_fixes_that_can_be_written_are_offered_and_written(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "nb.ipynb").write_text(_notebook(CELLS))
    plain = _run(tmp_path, monkeypatch)
    assert [ln.split(" ")[0:2] for ln in plain.stdout.splitlines()[:3]] == [
        ["nb.ipynb:cell", "2:1:7:"], ["nb.ipynb:cell", "2:2:5:"], ["nb.ipynb:cell", "3:2:1:"]]
    assert "JAX901 [*]" in plain.stdout.splitlines()[1] and "[*]" not in plain.stdout.splitlines()[0]
    assert plain.stdout.splitlines()[-1] == "Found 3 errors (1 fixable with --fix)."
    diff = _run(tmp_path, monkeypatch, "--diff")
    assert diff.stdout == ("--- a/nb.ipynb:cell 2\n+++ b/nb.ipynb:cell 2\n@@ -1,2 +1,2 @@\n %time x[0] = 1.0\n"
                           "-y = jax.tree_map(abs, x)\n\\ No newline at end of file\n"
                           "+y = jax.tree.map(abs, x)\n\\ No newline at end of file\n")
    fixed = _run(tmp_path, monkeypatch, "--fix")
    assert fixed.stdout.splitlines()[-1] == "Found 3 errors (1 fixed, 2 remaining)."
    want = [CELLS[0], ["%time x[0] = 1.0\n", "y = jax.tree.map(abs, x)"], CELLS[2]]
    assert (tmp_path / "nb.ipynb").read_text() == _notebook(want)
    again = _run(tmp_path, monkeypatch, "--fix")
    assert (tmp_path / "nb.ipynb").read_text() == _notebook(want)  # fixing twice changes nothing more
    assert again.stdout.splitlines()[-1] == "Found 2 errors."


def test_a_cell_whose_lines_end_in_a_lone_cr_keeps_its_list_of_lines(tmp_path: Path, monkeypatch) -> None:
    """A source list whose lines end in "\\r" (as some editors write them) is written
    back split the same way, not merged into one string (the JSON layout is kept)."""
    (tmp_path / "pyproject.toml").write_text("")
    cells = [["import jax\r", "y = jax.tree_map(abs, 1)\r", "z = 2"]]
    (tmp_path / "nb.ipynb").write_text(_notebook(cells))
    fixed = _run(tmp_path, monkeypatch, "--fix")
    assert fixed.stdout.splitlines()[-1] == "Found 1 error (1 fixed, 0 remaining)."
    assert (tmp_path / "nb.ipynb").read_text() == _notebook(
        [["import jax\r", "y = jax.tree.map(abs, 1)\r", "z = 2"]])
