"""Notebooks (.ipynb): discovered, linted as the cells' program, positions on
cells in every format, fixes and noqa comments that keep the notebook."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import jsonschema
from click.testing import CliRunner

from jaxlint.cli import cli
from jaxlint.lint.linter import lint_source
from jaxlint.parse.notebook import Notebook
from jaxlint.rules import default_codes
from jaxlint.settings import LintSettings


SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
_IDS = iter(range(10**6))


def _code(source, n=None, outputs=()):
    return {"cell_type": "code", "execution_count": n, "id": f"c{next(_IDS)}", "metadata": {},
            "outputs": list(outputs), "source": source}


def _md(text):
    return {"cell_type": "markdown", "id": f"m{next(_IDS)}", "metadata": {}, "source": [text]}


def _write(path: Path, cells, indent=1) -> bytes:
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
          "nbformat": 4, "nbformat_minor": 5}
    data = (json.dumps(nb, indent=indent, ensure_ascii=False) + "\n").encode("utf-8")
    path.write_bytes(data)
    return data


SHARP = [
    _md("# Training ü\n"),
    _code(["%matplotlib inline\n", "import jax\n", "import jax.numpy as jnp\n", "!pip install optax"], 1),
    _code(["@jax.jit\n", "def f(x):\n", "    if x > 0:\n", "        return x\n", "    return -x\n"], 2,
          outputs=[{"output_type": "stream", "name": "stdout", "text": ["hi\n"]}]),
    _code(["x = jnp.ones(3)\n", "%timeit f(x)\n", "y = jax.tree_map(f, [x])"], 3),
    _code(["%%timeit\n", "f(x)"], 4),
    _code(["jnp.sum?\n"], 5),
    _code(["%%bash\n", "echo $((1 + 2))\n", "if [ x ]; then ls; fi\n"], 6),
]

EXPECTED = [
    "nb.ipynb:cell 3:3:8: JAX201 Python `if` on a traced value: it depends on the traced argument `x` of `f` "
    "(decorated with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; or, "
    "if `x` is a Python value, mark it static (static_argnums=0)",
    "nb.ipynb:cell 4:2:1: JAX505 `%timeit` times `f(...)`, a JAX computation that is dispatched asynchronously "
    "and never waited for: this measures the dispatch (and, on a first call, the compilation), not the work. Time `jax.block_until_ready(f(x))` instead",
    "nb.ipynb:cell 4:3:5: JAX901 [*] `jax.tree_map` was removed in JAX 0.6.0 (deprecated in 0.4.26): use "
    "`jax.tree.map` instead (identical signature)",
    "nb.ipynb:cell 5:1:1: JAX505 The timed cell ends while the JAX computation started on line 2 may still be "
    "running (dispatch is asynchronous): the cell magic measures the dispatch, not the work. End the cell with "
    "`jax.block_until_ready(result)`",
]


def _invoke(*args: str):
    return CliRunner().invoke(cli, ["check", "--no-cache", *args])


@pytest.fixture
def nb(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "nb.ipynb", SHARP)
    return tmp_path / "nb.ipynb"


def test_a_folder_with_a_notebook_is_linted_with_cell_positions(nb: Path) -> None:
    r = _invoke(".", "--output-format", "concise")
    assert r.exit_code == 1
    assert r.output.splitlines()[:-1] == EXPECTED


def test_the_full_format_shows_the_cells_line(nb: Path) -> None:
    r = _invoke("nb.ipynb", "--select", "JAX201")
    assert "nb.ipynb:cell 3:3:8: JAX201" in r.output
    assert "3 |     if x > 0:\n  |        ^^^^^\n" in r.output


def test_json_carries_the_cell_and_cell_relative_rows(nb: Path) -> None:
    r = _invoke("nb.ipynb", "--output-format", "json", "--select", "JAX901")
    (f,) = json.loads(r.output)
    assert (f["cell"], f["location"], f["end_location"]) == (4, {"row": 3, "column": 5}, {"row": 3, "column": 17})
    assert f["fix"]["edits"] == [{"content": "jax.tree.map", "location": {"row": 3, "column": 5},
                                  "end_location": {"row": 3, "column": 17}, "cell": 4}]


def _json_text_at(path: Path, region: dict) -> str:
    """The text a SARIF region covers in the raw file (one line)."""
    assert region["startLine"] == region["endLine"]
    line = path.read_text(encoding="utf-8").split("\n")[region["startLine"] - 1]
    return line[region["startColumn"] - 1:region["endColumn"] - 1]


def test_sarif_points_into_the_notebooks_json_and_names_the_cell(nb: Path) -> None:
    """Code scanning shows a SARIF result on the raw .ipynb: the region is where the
    cell's source text is in the JSON (it used to be the cell-relative line 3, which on
    the raw file is the notebook's metadata); the cell and the cell-relative region are
    in the properties, the message and a logical location; no fix (its edits count in
    the cell)."""
    r = _invoke("nb.ipynb", "--output-format", "sarif", "--select", "JAX201,JAX901")
    log = json.loads(r.output)
    jsonschema.validate(log, json.loads(SCHEMA.read_text()))
    assert log["runs"][0]["columnKind"] == "unicodeCodePoints"
    first, second = log["runs"][0]["results"]
    loc = first["locations"][0]
    region = loc["physicalLocation"]["region"]
    assert region == {"startLine": 41, "startColumn": 13, "endLine": 41, "endColumn": 18}
    assert _json_text_at(nb, region) == "x > 0"
    assert loc["logicalLocations"] == [{"name": "cell 3", "fullyQualifiedName": "nb.ipynb:cell 3"}]
    assert first["properties"] == {"cell": 3, "cellRegion": {"startLine": 3, "startColumn": 8,
                                                             "endLine": 3, "endColumn": 13}}
    assert first["message"]["text"].startswith("cell 3, line 3, column 8: Python `if` on a traced value")
    assert _json_text_at(nb, second["locations"][0]["physicalLocation"]["region"]) == "jax.tree_map"
    assert "fixes" not in second and second["properties"]["cell"] == 4


def test_sarif_regions_through_escapes_one_string_sources_and_astral_characters(tmp_path: Path,
                                                                                monkeypatch) -> None:
    """The JSON column counts the characters as written in the file: escapes (\\", \\t,
    \\u00fc, a surrogate pair) before the finding on its line, a source kept as one
    string (every line on one JSON line), non-ASCII written as is."""
    monkeypatch.chdir(tmp_path)
    cells = [
        _code(["import jax\n", "import jax.numpy as jnp\n"], 1),
        _code("@jax.jit\ndef f(x):\n    s = \"\u00fc\\t\U0001f600\"; t = x > 0\n    if t:\n        return x\n"
              "    return -x\n", 2),
        _code(["y = \"\U0001f600\\\"\"; z = jax.tree_map(abs, [1])\n"], 3),
    ]
    for ensure_ascii in (True, False):
        nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        (tmp_path / "e.ipynb").write_text(json.dumps(nb, indent=1, ensure_ascii=ensure_ascii), encoding="utf-8")
        r = _invoke("e.ipynb", "--output-format", "sarif", "--select", "JAX201,JAX901")
        log = json.loads(r.output)
        jsonschema.validate(log, json.loads(SCHEMA.read_text()))
        found = {res["ruleId"]: res for res in log["runs"][0]["results"]}
        assert set(found) == {"JAX201", "JAX901"}, r.output
        assert found["JAX201"]["properties"]["cellRegion"]["startLine"] == 4
        assert _json_text_at(tmp_path / "e.ipynb", found["JAX201"]["locations"][0]["physicalLocation"]["region"]) == "t"
        assert _json_text_at(tmp_path / "e.ipynb",
                             found["JAX901"]["locations"][0]["physicalLocation"]["region"]) == "jax.tree_map"


@pytest.mark.parametrize("fmt, needle", [
    ("github", "::cell 3, line 3, column 8: Python `if`"),
    ("gitlab", '"description": "JAX201 (cell 3, line 3) Python `if`'),
    ("junit", "cell 3, line 3, col 8, JAX201"),
])
def test_other_formats_name_the_cell(nb: Path, fmt: str, needle: str) -> None:
    r = _invoke("nb.ipynb", "--output-format", fmt, "--select", "JAX201")
    assert needle in r.output


def test_fix_rewrites_only_the_changed_cell_and_keeps_the_rest_byte_for_byte(nb: Path) -> None:
    before = nb.read_bytes()
    r = _invoke("nb.ipynb", "--fix")
    assert r.exit_code == 1
    after = nb.read_bytes()
    expected = before.replace(b'"y = jax.tree_map(f, [x])"', b'"y = jax.tree.map(f, [x])"')
    assert after == expected
    nbformat = pytest.importorskip("nbformat")
    nbformat.validate(nbformat.reads(after.decode("utf-8"), as_version=4))
    assert _invoke("nb.ipynb", "--fix").exit_code == 1
    assert nb.read_bytes() == after  # fixing twice changes nothing more


def test_fix_keeps_an_indent_of_two_and_a_source_given_as_one_string(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    cells = [_code("import jax\r\nout = jax.tree_map(abs, [1])\r\n", 1, outputs=[{"output_type": "error"}])]
    before = _write(tmp_path / "two.ipynb", cells, indent=2)
    assert _invoke("two.ipynb", "--fix").exit_code == 0
    assert (tmp_path / "two.ipynb").read_bytes() == before.replace(b"jax.tree_map", b"jax.tree.map")


def test_fix_keeps_a_notebook_written_with_crlf(tmp_path: Path, monkeypatch) -> None:
    """Jupyter on Windows writes every newline as CRLF: the fixed notebook keeps it."""
    monkeypatch.chdir(tmp_path)
    cells = [_code(["import jax\n", "out = jax.tree_map(abs, [1])\n"], 1)]
    before = _write(tmp_path / "win.ipynb", cells).replace(b"\n", b"\r\n")
    (tmp_path / "win.ipynb").write_bytes(before)
    plain = _invoke("win.ipynb", "--output-format", "concise")
    assert plain.output.endswith("Found 1 error (1 fixable with --fix).\n")
    r = _invoke("win.ipynb", "--fix", "--output-format", "concise")
    assert (r.exit_code, r.output) == (0, "Found 1 error (1 fixed, 0 remaining).\n")
    assert (tmp_path / "win.ipynb").read_bytes() == before.replace(b"jax.tree_map", b"jax.tree.map")


def test_a_layout_that_cannot_be_written_back_is_not_fixable(tmp_path: Path, monkeypatch) -> None:
    """A notebook whose JSON layout jaxlint cannot reproduce (mixed line endings, an
    indent of 5 with trailing spaces) would be refused by --fix: no [*], not counted."""
    monkeypatch.chdir(tmp_path)
    cells = [_code(["import jax\n", "out = jax.tree_map(abs, [1])\n"], 1)]
    data = _write(tmp_path / "odd.ipynb", cells).replace(b"\n", b"\r\n", 3)
    (tmp_path / "odd.ipynb").write_bytes(data)
    plain = _invoke("odd.ipynb", "--output-format", "concise")
    assert plain.output == (
        "odd.ipynb:cell 1:2:7: JAX901 `jax.tree_map` was removed in JAX 0.6.0 (deprecated in "
        "0.4.26): use `jax.tree.map` instead (identical signature)\nFound 1 error.\n")
    assert _invoke("odd.ipynb", "--fix").exit_code == 1
    assert (tmp_path / "odd.ipynb").read_bytes() == data


def test_diff_is_per_cell(nb: Path) -> None:
    r = _invoke("nb.ipynb", "--diff")
    assert r.output.startswith(
        "--- a/nb.ipynb:cell 4\n+++ b/nb.ipynb:cell 4\n@@ -1,3 +1,3 @@\n x = jnp.ones(3)\n %timeit f(x)\n"
        "-y = jax.tree_map(f, [x])\n")


def test_add_noqa_comments_cells_and_magic_lines_and_silences_them(nb: Path) -> None:
    before = nb.read_bytes()
    r = _invoke("nb.ipynb", "--add-noqa")
    assert r.exit_code == 0, r.output
    after = nb.read_bytes().decode("utf-8")
    for line in ('"    if x > 0:  # noqa: JAX201\\n"', '"%timeit f(x)  # noqa: JAX505\\n"',
                 '"y = jax.tree_map(f, [x])  # noqa: JAX901"', '"%%timeit  # noqa: JAX505\\n"'):
        assert line in after
    assert len(after.splitlines()) == len(before.splitlines())
    assert _invoke("nb.ipynb").output == "All checks passed!\n"


def test_baseline_hides_a_notebooks_findings(nb: Path) -> None:
    assert _invoke("nb.ipynb", "--write-baseline", "bl.json").exit_code == 0
    r = _invoke("nb.ipynb", "--baseline", "bl.json")
    assert r.exit_code == 0
    assert "4 findings hidden by the baseline" in r.output


def test_the_cell_order_is_the_program_order(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "cross.ipynb", [
        _code("import jax\nimport jax.numpy as jnp\nscale = 2.0\n"),
        _code("@jax.jit\ndef g(x):\n    return x * scale\n"),
        _code("print(g(jnp.ones(3)))\n"),
        _code("scale = 3.0\nprint(g(jnp.ones(3)))\n"),
        _code("key = jax.random.PRNGKey(0)\na = jax.random.normal(key, (3,))\n"),
        _md("Now draw again"),
        _code("b = jax.random.uniform(key, (3,))\n"),
        _code("for i in range(3):\n    h = jax.jit(lambda x: x + i)\n    h(1.0)\n"),
        _code("jax.config.update('jax_enable_x64', True)\n"),
    ])
    r = _invoke("cross.ipynb", "--output-format", "concise", "--select", "JAX405,JAX301,JAX501,JAX123")
    assert [line.split(" ", 2)[:2] for line in r.output.splitlines()[:-1]] == [
        ["cross.ipynb:cell", "2:3:16:"], ["cross.ipynb:cell", "7:1:5:"], ["cross.ipynb:cell", "8:2:9:"],
        ["cross.ipynb:cell", "9:1:1:"]]
    assert "reassigned (line 1 of cell 4)" in r.output
    assert "already consumed by `random.normal` on line 2 of cell 5" in r.output


@pytest.mark.parametrize("text, message", [
    (b"{not json", "The notebook cannot be read: not valid JSON (Expecting property name enclosed in "
                   "double quotes)"),
    (b'{"worksheets": [{"cells": []}], "metadata": {}, "nbformat": 3, "nbformat_minor": 0}',
     "The notebook cannot be read: nbformat 3 is not supported: jaxlint reads nbformat 4 (opening and "
     "saving it in Jupyter converts it)"),
    (b'{"cells": [], "nbformat": 5}', "The notebook cannot be read: nbformat 5 is not supported: jaxlint "
                                      "reads nbformat 4"),
    (b'{"cells": [], "nbformat": "4"}', "The notebook cannot be read: nbformat '4' (4 is read)"),
    (b'{"nbformat": 4}', "The notebook cannot be read: no `cells` list"),
])
def test_a_file_that_is_no_notebook_gets_one_jax001_line(tmp_path: Path, monkeypatch, text, message) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.ipynb").write_bytes(text)
    r = _invoke("bad.ipynb", "--output-format", "concise")
    assert r.exit_code == 1
    (line,) = r.output.splitlines()[:-1]
    assert line == f"bad.ipynb:1:{2 if text.startswith(b'{not') else 1}: JAX001 {message}"
    assert "Traceback" not in r.output


@pytest.mark.parametrize("text", [b"", b"\n  \n", b"\xef\xbb\xbf"])
def test_an_empty_notebook_is_silent_like_an_empty_module(tmp_path: Path, monkeypatch, text) -> None:
    """A 0-byte (or blank) `.ipynb` has no cells and no code: nothing to report, as for a
    0-byte `.py` beside it; a notebook that is not JSON is still one JAX001 line."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty.ipynb").write_bytes(text)
    (tmp_path / "empty.py").write_bytes(b"")
    r = _invoke(".", "--output-format", "concise")
    assert r.exit_code == 0, r.output
    assert "JAX001" not in r.output
    (tmp_path / "bad.ipynb").write_bytes(b"{not json")
    r = _invoke(".", "--output-format", "concise")
    assert r.exit_code == 1
    assert [line for line in r.output.splitlines() if "JAX" in line] == [
        "bad.ipynb:1:2: JAX001 The notebook cannot be read: not valid JSON (Expecting property name "
        "enclosed in double quotes)"]


def test_invalid_json_is_reported_where_it_goes_wrong(tmp_path: Path, monkeypatch) -> None:
    """A notebook whose JSON breaks on line 6 (a stray comma, a merge conflict marker):
    JAX001 at that line and column, the excerpt shows it; the message does not repeat
    the position."""
    monkeypatch.chdir(tmp_path)
    good = json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "source": "x = 1\n", "outputs": [],
         "execution_count": None}]}, indent=1).split("\n")
    for name, line, broken in (("comma.ipynb", 5, "  { ,,"), ("merge.ipynb", 3, "<<<<<<< HEAD")):
        lines = list(good)
        lines.insert(line, broken)
        (tmp_path / name).write_text("\n".join(lines))
    r = _invoke(".", "--output-format", "full")
    assert r.exit_code == 1
    assert r.output.splitlines()[:4] == [
        "comma.ipynb:6:5: JAX001 The notebook cannot be read: not valid JSON (Expecting property "
        "name enclosed in double quotes)",
        "  |", "6 |   { ,,", "  |     ^"]
    assert ("merge.ipynb:4:1: JAX001 The notebook cannot be read: not valid JSON (Expecting "
            "property name enclosed in double quotes)") in r.output


def test_ipython_syntax_is_no_syntax_error_and_a_real_one_names_its_cell() -> None:
    settings = LintSettings(select=default_codes())
    data = json.dumps({"cells": [
        _code(["%load_ext autoreload\n", "%autoreload 2\n", "files = !ls\n", "t = %time sum([1])\n",
               "import jax\n", "jax.numpy.sum?\n", "?jax.jit\n"]),
        _code(["%%writefile x.sh\n", "def (:\n"]),
        _code(["for i in range(2):\n", "    %time jax.numpy.ones(3)\n"]),
        _code(["def broken(:\n", "    pass\n"]),
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()
    result = lint_source(data, "m.ipynb", settings)
    # the broken cell is set aside and the others linted (Jupyter runs them): a timed
    # dispatch in cell 3
    assert [(f.code, f.cell, f.line, f.col) for f in result.findings] == [("JAX505", 3, 2, 5), ("JAX001", 4, 1, 12)]


def test_virtual_module_keeps_lines_and_maps_timed_expressions_back() -> None:
    nb = Notebook.from_bytes(json.dumps({"cells": [
        _md("x"), _code(["import jax\n", "  %timeit -n 10 -r 2 f(x)  # slow\n"]), _code(["y = 1"])],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode())
    assert nb.text == ("import jax\n  __jaxlint_timeit__(lambda: f(x))  # slow\n"
                       "# jaxlint: cell boundary 3\ny = 1\n")
    # `f` of `f(x)`: virtual column 30 -> column 22 of the cell's line
    assert nb.position(2, 30) == (2, 2, 22)
    assert nb.position(4, 1) == (3, 1, 1)
    assert nb.rebuild(nb.text) == nb.data


def test_timeit_of_a_jitted_call_in_a_python_file_too() -> None:
    settings = LintSettings(select=frozenset({"JAX505"}))
    src = ("import timeit\nimport jax\nimport jax.numpy as jnp\nf = jax.jit(jnp.sin)\nx = jnp.ones(3)\n"
           "t = timeit.timeit(lambda: f(x), number=10)\n"
           "u = timeit.timeit(lambda: f(x).block_until_ready(), number=10)\n")
    (f,) = lint_source(src, "t.py", settings).findings
    assert (f.line, f.col) == (6, 5)
    assert f.message.startswith("`timeit.timeit(...)` times `f(...)`, a JAX computation")


def test_a_notebook_in_a_project_gets_and_gives_the_projects_facts(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\n')
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "model.py").write_text(
        "from functools import partial\nimport jax\n\n@partial(jax.jit, static_argnums=1)\n"
        "def step(x, n):\n    return x * n\n\ndef helper(x):\n    if x > 0:\n        return x\n    return x\n")
    (tmp_path / "notebooks").mkdir()
    _write(tmp_path / "notebooks" / "01-explore.ipynb", [
        _md("Explore"),
        _code("import jax\nimport jax.numpy as jnp\nfrom pkg.model import step, helper\n"),
        _code("y = step(jnp.ones(3), [1, 2])\n"),
        _code("z = jax.jit(helper)(jnp.ones(3))\n"),
    ])
    r = _invoke(".", "--output-format", "concise")
    assert r.output.splitlines()[:-1] == [
        "notebooks/01-explore.ipynb:cell 3:1:23: JAX207 A list is passed to `step` in a static position "
        "(parameter `n`; static_argnums=1): static arguments must be hashable, so the call raises ValueError: "
        "Non-hashable static arguments are not supported. Instead, pass a tuple",
        "pkg/model.py:9:8: JAX201 Python `if` on a traced value: it depends on the traced argument `x` of "
        "`helper` (wrapped by jax.jit in notebooks/01-explore.ipynb:cell 4:1); this raises "
        "TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; or, if `x` is a Python value, mark it "
        "static (static_argnums=0)",
    ]


@pytest.mark.parametrize("config, linted", [
    ("", ["a.py", "b.ipynb"]),
    ('include = ["*.py"]\n', ["a.py"]),
    ('extend-include = ["*.pyw"]\n', ["a.py", "b.ipynb", "c.pyw"]),
    ('extend-exclude = ["*.ipynb"]\n', ["a.py"]),
])
def test_include_and_extend_include_choose_the_files_of_a_folder(tmp_path: Path, monkeypatch, config, linted) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\n" + config)
    bad = "import jax\nx = jax.tree_map(abs, [1])\n"
    (tmp_path / "a.py").write_text(bad)
    (tmp_path / "c.pyw").write_text(bad)
    _write(tmp_path / "b.ipynb", [_code(bad)])
    r = _invoke(".", "--output-format", "concise", "--select", "JAX901")
    assert sorted({line.split(":")[0] for line in r.output.splitlines()[:-1]}) == linted


def test_the_mcp_check_tool_reads_notebooks(tmp_path: Path) -> None:
    from jaxlint.mcp_server.tools import Workspace, call

    _write(tmp_path / "nb.ipynb", SHARP)
    out = call("check", {"paths": ["nb.ipynb"], "select": ["JAX901"]}, Workspace.of([tmp_path]))
    (f,) = out["findings"]
    assert (f["path"], f["cell"], f["line"], f["column"]) == ("nb.ipynb", 4, 3, 5)


def test_time_magics_with_options_and_statements() -> None:
    nb = Notebook.from_bytes(json.dumps({"cells": [_code([
        "import jax\n", "%timeit -n10 -r3 f(x)\n", "%timeit -q -o g(1)\n", "%time y = f(x)  # bind y\n",
        "%time\n"])], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode())
    assert nb.text == ("import jax\n__jaxlint_timeit__(lambda: f(x))\n__jaxlint_timeit__(lambda: g(1))\n"
                       "with __jaxlint_time__(): y = f(x)  # bind y\npass\n")
    # `%time y = f(x)` times one statement: a one-line timed block (JAX505 reads it as a
    # `%%time` cell), whose `y` is at column 7 of the cell
    assert nb.position(4, 26) == (1, 4, 7)


def test_magics_inside_python_cell_magics() -> None:
    settings = LintSettings(select=default_codes())
    data = json.dumps({"cells": [
        _code(["%%capture\n", "!pip install flax\n", "import jax\n", "y = jax.tree_map(abs, [1])\n"]),
        _code(["%%time\n", "%env A=1\n", "z = jax.tree_map(abs, [1])\n"]),
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()
    result = lint_source(data, "m.ipynb", settings)
    assert [(f.code, f.cell, f.line, f.col, f.end_col) for f in result.findings] == [
        ("JAX901", 1, 4, 5, 17), ("JAX901", 2, 3, 5, 17)]


def test_a_magic_continued_with_backslashes_is_one_magic() -> None:
    # IPython joins `!cmd \` and the lines it continues into one shell command (a
    # line magic alike); the Python after it is still linted, on its own lines
    settings = LintSettings(select=default_codes())
    data = json.dumps({"cells": [
        _code(['!PYTHONPATH="$(pwd)":"$PYTHON_PATH" python scenic/main.py \\\n',
               "  --config=scenic/configs/mnist_config.py \\\n", "  --workdir=./\n",
               "import jax\n", "y = jax.tree_map(abs, [1])\n"]),
        _code(["%env A=1 \\\n", "    B=2\n", "files = !ls -l \\\n", "  /tmp\n", "z = jax.tree_map(abs, [1])\n"]),
        _code(["x = 1 + \\\n", "    2\n", "w = jax.tree_map(abs, [x])\n"]),
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()
    result = lint_source(data, "m.ipynb", settings)
    assert [(f.code, f.cell, f.line, f.col) for f in result.findings] == [
        ("JAX901", 1, 5, 5), ("JAX901", 2, 5, 5), ("JAX901", 3, 3, 5)]
    nb = Notebook.from_bytes(data)
    assert nb.text.splitlines()[:5] == ["pass", "", "", "import jax", "y = jax.tree_map(abs, [1])"]
    assert nb.rebuild(nb.text) == nb.data


@pytest.mark.parametrize("indent", [1, None])
def test_github_and_gitlab_point_at_the_line_of_the_notebooks_json(tmp_path: Path, monkeypatch, indent) -> None:
    """GitHub and GitLab anchor a finding to a line of the .ipynb file's text: the
    JSON line that holds the cell's source line, not the line in the cell (which
    pointed at the notebook's header).  A source kept as one string has all its
    lines on that string's line."""
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "nb.ipynb", SHARP)
    raw = json.loads((tmp_path / "nb.ipynb").read_text())
    if indent is None:  # every source one string, the whole file on one line
        for cell in raw["cells"]:
            cell["source"] = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    (tmp_path / "nb.ipynb").write_text(json.dumps(raw, indent=indent) + "\n")
    want = [i for i, line in enumerate((tmp_path / "nb.ipynb").read_text().splitlines(), start=1)
            if "if x > 0" in line]
    assert len(want) == 1
    gh = _invoke("nb.ipynb", "--output-format", "github", "--select", "JAX201")
    assert gh.output.startswith(f"::error title=jaxlint (JAX201),file=nb.ipynb,line={want[0]},endLine={want[0]}"
                                "::cell 3, line 3, column 8: Python `if`")
    gl = json.loads(_invoke("nb.ipynb", "--output-format", "gitlab", "--select", "JAX201").output)
    assert [i["location"] for i in gl] == [{"path": "nb.ipynb", "lines": {"begin": want[0], "end": want[0]}}]


def test_sarif_region_in_a_cell_whose_lines_end_with_a_lone_cr(tmp_path: Path, monkeypatch) -> None:
    """The cell's lines count as CPython counts them (a lone \\r ends one): the region of
    line 4 of a one-string source with \\r line ends is on its JSON line, at the code."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cr.ipynb").write_text(
        '{"cells":[{"cell_type":"code","source":"import jax\\r\\rx=jax.numpy.zeros(3)\\rx[0]=1",'
        '"metadata":{},"outputs":[],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":4}')
    log = json.loads(_invoke("cr.ipynb", "--output-format", "sarif").output)
    (res,) = log["runs"][0]["results"]
    assert res["properties"]["cellRegion"] == {"startLine": 4, "startColumn": 1, "endLine": 4, "endColumn": 7}
    assert _json_text_at(tmp_path / "cr.ipynb", res["locations"][0]["physicalLocation"]["region"]) == "x[0]=1"


@pytest.mark.parametrize("fmt", ["concise", "github", "sarif"])
def test_a_notebook_nested_thousands_deep_is_one_line_not_an_internal_error(tmp_path: Path, monkeypatch,
                                                                           fmt: str) -> None:
    """json.loads raised RecursionError on an output nested thousands deep: "internal
    error" and exit 2.  Now the notebook cannot be read (JAX001, one line), in every
    format.  (100,000 deep: past any recursion limit a run sets.)"""
    monkeypatch.chdir(tmp_path)
    deep = "[" * 100_000 + "]" * 100_000
    (tmp_path / "deep.ipynb").write_text(
        '{"cells": [{"cell_type": "code", "execution_count": 1, "id": "a", "metadata": {}, "outputs": '
        '[{"output_type": "display_data", "data": {"application/json": %s}, "metadata": {}}], '
        '"source": ["import jax\\n"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}' % deep)
    r = CliRunner().invoke(cli, ["check", "--no-cache", "deep.ipynb", "--output-format", fmt])
    assert r.exit_code == 1, r.output
    assert "internal error" not in r.output
    message = "The notebook cannot be read: its JSON is nested too deeply"
    if fmt == "concise":
        assert r.output.splitlines()[0] == f"deep.ipynb:1:1: JAX001 {message}"
    elif fmt == "github":
        assert r.output == f"::error title=jaxlint (JAX001),file=deep.ipynb,line=1,col=1,endLine=1,endColumn=1::{message}\n"
    else:
        log = json.loads(r.output)
        jsonschema.validate(log, json.loads(SCHEMA.read_text()))
        assert [res["message"]["text"] for res in log["runs"][0]["results"]] == [message]


def test_automagic_lines_are_ipython_not_syntax_errors() -> None:
    """IPython runs a built-in line magic or shell alias written without its `%`
    (automagic: `pip install optax` is `%pip install optax`); a line that is Python
    (`pip = 3`, `ls(x)`, `cd.path`) or starts with another name stays Python."""
    settings = LintSettings(select=default_codes())
    data = json.dumps({"cells": [
        _code(["pip install -q optax 'flax>=0.8'\n", "import jax\n", "y = jax.tree_map(abs, [1])\n"]),
        _code(["if not jax.devices():\n", "    conda install -y jaxlib\n", "cd ../data\n", "ls *.npz\n",
               "load_ext autoreload\n", "matplotlib inline\n"]),
        _code(["pip = 3\n", "ls = [pip]\n", "cd = len(ls)\n", "z = jax.tree_map(abs, ls)\n",
               "precision = {\n", '    "double": True,\n', "}\n", "run , = [1]\n"]),
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()
    result = lint_source(data, "m.ipynb", settings)
    assert [(f.code, f.cell, f.line, f.col) for f in result.findings] == [("JAX901", 1, 3, 5), ("JAX901", 3, 4, 5)]
    # not a magic's name: still a syntax error
    bad = json.dumps({"cells": [_code(["import jax\n", "install optax\n"])],
                      "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()
    assert [(f.code, f.cell, f.line, f.col) for f in lint_source(bad, "m.ipynb", settings).findings] == [
        ("JAX001", 1, 2, 9)]
    nb = Notebook.from_bytes(data)
    assert nb.text.splitlines()[:3] == ["pass", "import jax", "y = jax.tree_map(abs, [1])"]
    assert nb.text.splitlines()[5] == "    pass"
    assert nb.rebuild(nb.text) == nb.data


def test_a_magic_assigned_to_any_target_is_ipython_not_a_syntax_error() -> None:
    """IPython's MagicAssign/SystemAssign take the first ``=`` outside brackets, whatever
    the target: ``times[c] = %timeit -o f()`` (a benchmark notebook filling a dict),
    ``self.out = !ls``, ``a, b = %sx ...``. The rest of the cell is still linted."""
    settings = LintSettings(select=default_codes())
    data = json.dumps({"cells": [
        _code(["import jax\n", "times = {}\n", "for c in ['a', 'b']:\n",
               "    times[c] = %timeit -o jax.numpy.ones(3)\n", "files[0] = !ls  # listing\n",
               "a, b.c = %sx echo 1\n", "z = jax.tree_map(abs, [1])\n", "x['a\\'b'] = !ls\n"]),
        # not magics: a comparison, a keyword argument, `%` as an operator, `!=`
        _code(["ok = (x == %s)\n"]),
        _code(["y = f(k=%d)\n"]),
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()
    nb = Notebook.from_bytes(data)
    assert nb.text.splitlines()[3:6] == ["    times[c] = None", "files[0] = None", "a, b.c = None"]
    assert nb.text.splitlines()[7] == "x['a\\'b'] = None"
    result = lint_source(data, "m.ipynb", settings)
    assert [(f.code, f.cell, f.line, f.col) for f in result.findings] == [
        ("JAX901", 1, 7, 5), ("JAX001", 2, 1, 12), ("JAX001", 3, 1, 9)]


def test_an_update_a_cell_ends_with_is_its_shown_output_not_a_discarded_one() -> None:
    """JAX102: Jupyter shows the value of the expression a cell ends with (IPython's
    ``last_expr``), so ``x.at[0].set(5.0)`` there is looked at, not lost; a trailing
    ``;`` hides the output, and an update in the middle of a cell or in a ``.py`` file is
    still dropped."""
    settings = LintSettings(select=frozenset({"JAX102"}))
    data = json.dumps({"cells": [
        _code(["import jax.numpy as jnp\n", "x = jnp.zeros(3)\n", "x.at[0].set(5.0)\n"]),
        _code(["y = 1; x.at[1].add(1.0)  # shown\n"]),
        _code(["jnp.put(x, jnp.array([0]), 1.0, inplace=False)\n", "\n", "# the end\n"]),
        _md("# middle"),
        _code(["x.at[0].set(5.0);\n"]),
        _code(["x.at[2].set(1.0)\n", "z = 2\n"]),
        _code(["for i in range(2):\n", "    x.at[i].set(1.0)\n"]),
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()
    result = lint_source(data, "m.ipynb", settings)
    assert [(f.code, f.cell, f.line, f.col) for f in result.findings] == [
        ("JAX102", 5, 1, 1), ("JAX102", 6, 1, 1), ("JAX102", 7, 2, 5)]
    py = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx.at[0].set(5.0)\n"
    assert [(f.code, f.line) for f in lint_source(py, "m.py", settings).findings] == [("JAX102", 3)]
