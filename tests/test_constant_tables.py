"""A generated table of constants (data, never JAX code) no longer makes a file
"could not be checked": the table is set aside (``parse.guard.blank_constant_tables``)
and the rest of the file is linted at its own lines and columns; fixes never touch
the table."""

from __future__ import annotations

import ast
from pathlib import Path

import libcst as cst
from click.testing import CliRunner

from jaxlint.cli import cli
from jaxlint.lint.linter import lint_source
from jaxlint.parse import guard
from jaxlint.rules import default_codes
from jaxlint.settings import LintSettings

SETTINGS = LintSettings(select=frozenset(default_codes() | {"JAX001"}))
ROWS = 100_001  # one statement of more than 100,000 syntax nodes

PRINT = ("`print` in traced `f` runs once, at trace time, and prints a tracer (e.g. "
         "`JitTracer(float32[])`), not the values; later calls print nothing. Use "
         "`jax.debug.print(\"{}\", x)` to print runtime values")
TREE_MAP = ("`jax.tree_map` was removed in JAX 0.6.0 (deprecated in 0.4.26): use "
            "`jax.tree.map` instead (identical signature)")


def _table_file(newline: str = "\n") -> str:
    """A module whose second statement is a table of floats, one per line with a
    comment, between code with findings."""
    rows = [f"    {i}.5,  # row {i}" for i in range(ROWS)]
    lines = ["import jax", "import jax.numpy as jnp", "WEIGHTS = [", *rows, "]", "",
             "@jax.jit", "def f(x):", "    print(x)", "    return jax.tree_map(lambda a: a + 1, x)",
             "", 'y = jax.tree_map(lambda a: a, {"w": WEIGHTS})']
    return newline.join(lines) + newline


def test_a_table_is_set_aside_and_the_rest_of_the_file_is_linted() -> None:
    text = _table_file()
    result = lint_source(text, "gen.py", SETTINGS)
    assert result.error is None
    end = 3 + ROWS + 1  # the line of the table's closing bracket
    assert [(f.code, f.path, f.line, f.col, f.message) for f in result.findings] == [
        ("JAX401", "gen.py", end + 4, 5, PRINT),
        ("JAX901", "gen.py", end + 5, 12, TREE_MAP),
        ("JAX901", "gen.py", end + 7, 5, TREE_MAP),
    ]
    # the same findings, messages and columns where the table is small enough to parse as it is
    rows = "".join(f"    {i}.5,  # row {i}\n" for i in range(ROWS))
    small = lint_source(text.replace(rows, "    0.5,\n"), "gen.py", SETTINGS)
    assert [(f.code, f.line + ROWS - 1, f.col, f.message) for f in small.findings] == \
        [(f.code, f.line, f.col, f.message) for f in result.findings]


def test_a_table_of_names_is_still_over_the_limit() -> None:
    text = "import jax\n\n\ny = [\n" + "a,\n" * ROWS + "]\n"  # names, not constants
    result = lint_source(text, "f.py", SETTINGS)
    assert result.error == "could not be checked: a statement of more than 100,000 syntax nodes at line 4"


def test_blanking_keeps_every_line_and_column_and_hides_the_value() -> None:
    text = ("import jax.numpy as jnp\r\nT = {'a': [1, -2.5, (3, None)],\r\n  'b': [" + "[0,\r0,\n0]," * 400
            + "]}\r\nU = jnp.asarray(T)  # kept\n")
    tree = ast.parse(text)
    blanked, spans = guard.blank_constant_tables(tree, text, min_nodes=1000)  # type: ignore[misc]
    assert len(blanked) == len(text)
    assert [i for i, c in enumerate(blanked) if c in "\r\n"] == [i for i, c in enumerate(text) if c in "\r\n"]
    start = text.index("{")
    assert spans == [(start, text.index("}") + 1)]
    assert blanked[:start] == text[:start] and blanked[spans[0][1]:] == text[spans[0][1]:]
    value = ast.parse(blanked).body[1].value  # type: ignore[attr-defined]
    assert isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
    assert value.func.id == guard.TABLE_CALL and not value.args  # a call of an unknown function
    assert guard.blank_constant_tables(ast.parse("x = [1, 2]\n"), "x = [1, 2]\n") is None


def _fix(tmp_path: Path, monkeypatch, data: bytes) -> tuple[bytes, str]:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "gen.py").write_bytes(data)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--fix", "gen.py"])
    fixed = (tmp_path / "gen.py").read_bytes()
    cst.parse_module(fixed)
    CliRunner().invoke(cli, ["check", "--no-cache", "--fix", "gen.py"])
    assert (tmp_path / "gen.py").read_bytes() == fixed  # fixing twice changes nothing more
    return fixed, result.output


def test_fixes_keep_the_table_and_its_line_endings(tmp_path, monkeypatch) -> None:
    text = _table_file("\r\n")
    fixed, output = _fix(tmp_path, monkeypatch, text.encode())
    assert fixed == text.replace("jax.tree_map(", "jax.tree.map(").encode()
    assert "Found 3 errors (2 fixed, 1 remaining)." in output


def test_a_fix_that_would_rewrite_the_table_is_not_offered(tmp_path, monkeypatch) -> None:
    table = "[" + ", ".join(str(i) for i in range(ROWS)) + "]"
    text = ("import jax.numpy as jnp\n\n\ndef f(x):\n"
            f"    return jnp.where(x=x, condition=x > 0, y=jnp.asarray({table}))\n")
    result = lint_source(text, "gen.py", SETTINGS)
    assert [(f.code, f.line, f.col, f.fix) for f in result.findings] == [("JAX903", 5, 27, None)]
    small = lint_source(text.replace(table, "[0, 1]"), "gen.py", SETTINGS)
    assert [(f.code, f.line, f.col, f.fix is not None) for f in small.findings] == [("JAX903", 5, 27, True)]
    fixed, output = _fix(tmp_path, monkeypatch, text.encode())
    assert fixed == text.encode()
    assert "Found 1 error." in output
