"""Positions as CPython counts them, whatever the line endings (issue 20, item 1).

Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r``, in any mix, and at nothing
else (not at the form feed, ``\\x0b``, ``\\x1c``-``\\x1e``, ``\\x85``,
``\\u2028``, ``\\u2029`` where ``str.splitlines`` breaks).  Every finding's
line and column, every fix edit, ``# noqa`` and ``--add-noqa``, code frames,
JSON and SARIF agree with CPython's ``ast``; a fix whose positions do not hold
the code it was made for is never applied (an internal error of its rule).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from jaxlint.output.baseline import compute_entries
from jaxlint.cli import cli
from jaxlint.fix.fixer import add_noqa, fix_text
from jaxlint.lint.linter import lint_source
from jaxlint.settings import LintSettings
from jaxlint.engine.suppression import comment_lines

REPRO = b"import jax\ry = somemodule.function_name()\nx = jax.tree_map(f, z)\n"
JAX901 = LintSettings(select=frozenset({"JAX901"}))


def _invoke(*args: str):
    return CliRunner().invoke(cli, ["check", "--no-cache", *args])


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "jaxlint.toml").write_text('select = ["JAX901"]\n')
    return tmp_path


def _attribute_positions(text: str, attr: str = "tree_map") -> list[tuple[int, int, int, int]]:
    """CPython's positions of every ``jax.<attr>``, columns in characters, 1-based
    (lines split the way CPython's universal newlines split them)."""
    import io

    lines = io.StringIO(text, newline=None).read().split("\n")
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name):
            def char(line: int, col: int) -> int:
                return len(lines[line - 1].encode("utf-8")[:col].decode("utf-8")) + 1
            out.append((node.lineno, char(node.lineno, node.col_offset),
                        node.end_lineno, char(node.end_lineno, node.end_col_offset)))
    return sorted(out)


def _positions(text: str, code: str = "JAX901") -> list[tuple[int, int, int, int]]:
    findings = lint_source(text, "m.py", JAX901, prefilter=False).findings
    return sorted((f.line, f.col, f.end_line, f.end_col) for f in findings if f.code == code)


# ----------------------------------------------------------------------------- the repro


def test_the_lone_cr_repro_is_fixed_byte_exact_and_reported_at_3_5(project: Path) -> None:
    (project / "min.py").write_bytes(REPRO)
    shown = _invoke("min.py")
    assert shown.exit_code == 1
    assert shown.output.startswith("min.py:3:5: JAX901 [*] `jax.tree_map` was removed")
    assert "3 | x = jax.tree_map(f, z)\n  |     ^^^^^^^^^^^^\n" in shown.output
    fixed = _invoke("min.py", "--fix")
    assert fixed.exit_code == 0, fixed.output
    assert (project / "min.py").read_bytes() == (
        b"import jax\ry = somemodule.function_name()\nx = jax.tree.map(f, z)\n")
    assert "Found 1 error (1 fixed, 0 remaining)." in fixed.output
    again = _invoke("min.py", "--fix")
    assert (project / "min.py").read_bytes() == (
        b"import jax\ry = somemodule.function_name()\nx = jax.tree.map(f, z)\n")
    assert again.exit_code == 0


def test_the_repro_matches_cpythons_ast() -> None:
    text = REPRO.decode()
    assert _attribute_positions(text) == [(3, 5, 3, 17)]
    assert _positions(text) == [(3, 5, 3, 17)]


def test_json_and_sarif_positions_after_a_lone_cr(project: Path) -> None:
    (project / "min.py").write_bytes(REPRO)
    data = json.loads(_invoke("min.py", "--output-format", "json").output)
    assert [(d["location"], d["end_location"]) for d in data] == [
        ({"row": 3, "column": 5}, {"row": 3, "column": 17})]
    assert data[0]["fix"]["edits"] == [
        {"content": "jax.tree.map", "location": {"row": 3, "column": 5}, "end_location": {"row": 3, "column": 17}}]
    sarif = json.loads(_invoke("min.py", "--output-format", "sarif").output)
    region = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"], region["endLine"], region["endColumn"]) == (3, 5, 3, 17)
    concise = _invoke("min.py", "--output-format", "concise").output
    assert concise.startswith("min.py:3:5: JAX901 ")


# ----------------------------------------------------------------------------- CRLF and mixed


@pytest.mark.parametrize("nl", ["\r\n", "\r", "mixed"])
def test_fix_keeps_every_line_ending_and_edits_only_the_call(nl: str) -> None:
    ends = ["\r\n", "\r", "\n", "\r\n", "\r", "\n", "\r"] if nl == "mixed" else [nl] * 7
    lines = ['import jax', 's = """a', 'jax.tree_map(f, z)"""  # jax.tree_map',
             "t = (jax.tree_map(f,", "  z))", "u = 1 + \\", "  jax.tree_map(g, t)"]
    text = "".join(line + end for line, end in zip(lines, ends))
    assert _attribute_positions(text) == [(4, 6, 4, 18), (7, 3, 7, 15)]
    assert _positions(text) == [(4, 6, 4, 18), (7, 3, 7, 15)]
    result = fix_text(text, "m.py", JAX901)
    assert result.errors == [] and result.skipped == []
    expected = text.replace("(jax.tree_map(f,", "(jax.tree.map(f,").replace("  jax.tree_map(g", "  jax.tree.map(g")
    assert result.text == expected
    assert fix_text(result.text, "m.py", JAX901).text == expected


def test_characters_that_splitlines_breaks_at_are_not_line_breaks(project: Path) -> None:
    # \x0c, \x1c, \x85, \u2028 in a comment and a string: one line each for CPython
    text = "import jax\n# a\x0cb\x1cc\x85d\u2028e\x0bf\ns = 'x\u2029y\x1cz'; v = jax.tree_map(f, z)\n"
    assert _attribute_positions(text) == [(3, 18, 3, 30)]
    assert _positions(text) == [(3, 18, 3, 30)]
    (project / "m.py").write_text(text, encoding="utf-8", newline="")
    out = _invoke("m.py").output
    assert out.startswith("m.py:3:18: JAX901 ")
    assert "3 | s = 'x\u2029y\x1cz'; v = jax.tree_map(f, z)\n  |                  ^^^^^^^^^^^^\n" in out
    assert fix_text(text, "m.py", JAX901).text == text.replace("v = jax.tree_map", "v = jax.tree.map")


def test_a_non_ascii_line_after_a_lone_cr_counts_characters() -> None:
    text = "import jax\r# é\ré = 'ü'; w = jax.tree_map(f, z)\r"
    assert _attribute_positions(text) == [(3, 14, 3, 26)]
    assert _positions(text) == [(3, 14, 3, 26)]


# ----------------------------------------------------------------------------- noqa


def test_noqa_on_a_line_after_a_lone_cr_suppresses() -> None:
    text = "import jax\ry = somemodule.function_name()\nx = jax.tree_map(f, z)  # noqa: JAX901\n"
    assert _positions(text) == []
    text = "import jax\ry = 1  # noqa: JAX901\nx = jax.tree_map(f, z)\n"
    assert _positions(text) == [(3, 5, 3, 17)]


def test_add_noqa_after_a_lone_cr(project: Path) -> None:
    (project / "min.py").write_bytes(REPRO)
    result = _invoke("min.py", "--add-noqa")
    assert result.exit_code == 0, result.output
    assert (project / "min.py").read_bytes() == (
        b"import jax\ry = somemodule.function_name()\nx = jax.tree_map(f, z)  # noqa: JAX901\n")
    assert _invoke("min.py").exit_code == 0


def test_a_multiline_string_with_cr_endings_moves_the_noqa_to_its_last_line() -> None:
    text = 'import jax\rs = jax.tree_map(f, """a\rb\r""")\rt = 1\r'
    assert comment_lines(text) == {2: 4, 3: 4}
    findings = lint_source(text, "m.py", JAX901, prefilter=False).findings
    new, added = add_noqa(text, findings)
    assert added == 1
    assert new == 'import jax\rs = jax.tree_map(f, """a\rb\r""")  # noqa: JAX901\rt = 1\r'
    assert _positions(new) == []


# ----------------------------------------------------------------------------- baseline


def test_baseline_identity_reads_cpythons_lines() -> None:
    text = "import jax\n# form\x0cfeed\nx = jax.tree_map(f, z)\n"
    findings = lint_source(text, "m.py", JAX901, prefilter=False).findings
    [entry] = compute_entries(findings, lambda p: text, Path.cwd())
    assert entry.text == "x = jax.tree_map(f, z)"
    cr = text.replace("\n", "\r")
    findings = lint_source(cr, "m.py", JAX901, prefilter=False).findings
    [entry_cr] = compute_entries(findings, lambda p: cr, Path.cwd())
    assert entry_cr.fingerprint == entry.fingerprint


# ----------------------------------------------------------------------------- a misplaced fix


def _shift_edits(monkeypatch, by: int) -> None:
    """Make every rule's fix edits land ``by`` columns off (a wrong span)."""
    import jaxlint.engine.reports as reports
    from jaxlint.findings import Edit

    def shifted(line, col, end_line, end_col, content, original=None):
        return Edit(line, col + by, end_line, end_col + by, content, original=original)

    monkeypatch.setattr(reports, "Edit", shifted)


def test_a_fix_at_a_wrong_offset_is_an_internal_error_and_nothing_is_written(project: Path, monkeypatch) -> None:
    text = "import jax\nx = somemodule.function_name(jax.tree_map(f, z))\n"
    _shift_edits(monkeypatch, -1)
    result = fix_text(text, "m.py", JAX901)
    assert result.text == text and result.applied == []
    assert result.errors == [
        "internal error in rule JAX901: its fix at 2:29 does not find the code it was made "
        "for ('jax.tree_map'); no fix applied to this file"]
    assert [f.code for f in result.findings] == ["JAX901"]
    (project / "m.py").write_text(text)
    cli = _invoke("m.py", "--fix")
    assert (project / "m.py").read_text() == text
    assert ("error: m.py: internal error in rule JAX901: its fix at 2:29 does not find the code "
            "it was made for ('jax.tree_map'); no fix applied to this file") in cli.output
    assert cli.exit_code == 2


def test_a_fix_with_a_wrong_span_of_the_same_length_elsewhere_is_refused(monkeypatch) -> None:
    # the edit moved onto the line above, where the same columns still parse
    import jaxlint.engine.reports as reports
    from jaxlint.findings import Edit

    monkeypatch.setattr(reports, "Edit", lambda line, col, end_line, end_col, content, original=None:
                        Edit(line - 1, col, end_line - 1, end_col, content, original=original))
    text = "import jax\ny = somemodule.function_name()\nx = jax.tree_map(f, z)\n"
    result = fix_text(text, "m.py", JAX901)
    assert result.text == text
    assert len(result.errors) == 1 and result.errors[0].startswith("internal error in rule JAX901: ")


def test_a_syntax_error_in_a_file_of_lone_cr_lines_is_where_cpython_puts_it_in_the_text(
        project: Path) -> None:
    text = "import jax\rfrom .base import (\rx = 1\r"
    with pytest.raises(SyntaxError) as err:
        compile(text, "<string>", "exec")
    assert (err.value.lineno, err.value.offset) == (2, 19)
    (project / "m.py").write_bytes(text.encode("utf-8"))
    data = json.loads(_invoke("m.py", "--select", "JAX001", "--output-format", "json").output)
    assert [(d["code"], d["location"]) for d in data] == [("JAX001", {"row": 2, "column": 19})]


@pytest.mark.parametrize("nl", ["\r", "\r\n", "\n"])
def test_an_import_a_fix_needs_goes_after_the_docstring_whatever_the_line_endings(nl: str) -> None:
    from jaxlint.rules import default_codes

    lines = ['"""Doc."""', "", "import jax", "", "", "def f(y):", "    return jax.core.concrete_or_error(None, y)"]
    text = nl.join(lines) + nl
    result = fix_text(text, "m.py", LintSettings(select=frozenset(default_codes())), unsafe=True)
    assert [a.code for a in result.applied] == ["JAX902"]
    assert result.text == nl.join(['"""Doc."""', "import jax.extend.core", "", "import jax", "", "",
                                   "def f(y):", "    return jax.extend.core.concrete_or_error(None, y)"]) + nl


@pytest.mark.parametrize("text,position,fixed", [
    # libcst prints no final lone CR, and drops a form feed that starts a top-level line
    ("import jax.numpy as jnp\rx = jnp.zeros(3)\rx.at[0].set(1)\r", (3, 1, 3, 15),
     "import jax.numpy as jnp\rx = jnp.zeros(3)\rx = x.at[0].set(1)\r"),
    ("import jax.numpy as jnp\nx = jnp.zeros(3)\n\x0cx.at[0].set(1)\n", (3, 2, 3, 16),
     "import jax.numpy as jnp\nx = jnp.zeros(3)\n\x0cx = x.at[0].set(1)\n"),
    ("import jax.numpy as jnp\r\n\x0cx = jnp.zeros(3)\r\x0cx.at[0].set(1)\r", (3, 2, 3, 16),
     "import jax.numpy as jnp\r\n\x0cx = jnp.zeros(3)\r\x0cx = x.at[0].set(1)\r"),
], ids=["final-lone-cr", "form-feed", "both"])
def test_where_libcst_does_not_print_the_text_back(text: str, position, fixed: str) -> None:
    settings = LintSettings(select=frozenset({"JAX102"}))
    findings = lint_source(text, "m.py", settings, prefilter=False).findings
    assert [(f.line, f.col, f.end_line, f.end_col) for f in findings] == [position]
    result = fix_text(text, "m.py", settings, unsafe=True)
    assert result.errors == [] and result.text == fixed


def test_a_nul_byte_after_a_lone_cr_is_reported_on_its_line() -> None:
    findings = lint_source("import jax\rx = 1\0\n", "m.py", LintSettings(select=frozenset({"JAX001"}))).findings
    assert [(f.code, f.line, f.col, f.message) for f in findings] == [
        ("JAX001", 2, 6, "The file does not parse: source code cannot contain null bytes")]


@pytest.mark.parametrize("incremental", [False, True])
def test_the_language_server_puts_the_repro_on_line_3(incremental: bool) -> None:
    from lsprotocol import types

    from jaxlint.server.core import Positions, diagnostic, fix_action, lint_text
    from jaxlint.server.incremental import IncrementalParser

    text = REPRO.decode()
    parser = IncrementalParser() if incremental else None
    if parser is not None:
        lint_text("import jax\nx = 1\n", "m.py", JAX901, parser)  # an earlier version of the buffer
    [f] = lint_text(text, "m.py", JAX901, parser).result.findings
    pos = Positions(text)
    diag = diagnostic(f, pos, "file:///m.py")
    assert diag.range == types.Range(types.Position(2, 4), types.Position(2, 16))
    action = fix_action(f, text, pos, "file:///m.py", None, diag)
    [edit] = action.edit.changes["file:///m.py"]
    assert (edit.range, edit.new_text) == (diag.range, "jax.tree.map")
