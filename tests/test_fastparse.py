"""``jaxlint.parse.fastparse``: libcst trees built from CPython's tree, held against
libcst's own parse, and the analysis that uses them."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import libcst as cst
import pytest

from fastparse_compare import first_difference
from jaxlint.lint import linter
from jaxlint.parse import fastparse
from jaxlint.workspace.config import ConfigStore, Overrides
from jaxlint.workspace.ruleinfo import load_rule_infos

EVERY = Path(__file__).parent / "fixtures" / "fastparse" / "every_construct.py"


def _built(text: str) -> cst.Module:
    return fastparse.from_ast(ast.parse(text), text)


def _same_as_libcst(text: str) -> None:
    built = _built(text)
    assert first_difference(built, cst.parse_module(text)) is None
    # its printed code is the same program
    assert ast.dump(ast.parse(built.code)) == ast.dump(ast.parse(text))


def test_every_construct_has_libcsts_shape():
    _same_as_libcst(EVERY.read_text(encoding="utf-8"))


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_other_line_endings_and_non_ascii_text(newline):
    text = EVERY.read_text(encoding="utf-8").replace("\n", newline)
    _same_as_libcst(text)


@pytest.mark.parametrize(
    "source",
    [
        "x[a,]\n",  # a one-element tuple index keeps its comma
        "x[(a, b)]\n",  # one parenthesised tuple, not two indexes
        "x[(a), b]\n",
        "x[')', b]\n",
        "if a: b = 1; c = 2\n",  # a one-line body
        "if a:\n    pass\nelse:\n    if b:\n        pass\n",  # not an elif
        "f(a=1, *b)\n",  # arguments in source order
        "y = (a + b) * c - a ** b ** c\n",
        "y = {**(a or {}), 'k': [*(b or c)]}\n",
        "s = ('a'\n     'b' f'{c}')\n",
        "def f():\n    match x:\n        case 1:\n            pass\n",
    ],
)
def test_shapes_that_cpythons_tree_does_not_show(source):
    _same_as_libcst(source)


def test_the_comparison_sees_a_difference():
    assert first_difference(_built("a + b\n"), cst.parse_module("a - b\n")) is not None
    assert first_difference(_built("x[a, b]\n"), cst.parse_module("x[(a, b)]\n")) is not None


def test_a_match_statement_keeps_the_text_of_its_strings():
    # lines of a string that spans lines keep their indentation, or lack of it
    _same_as_libcst('def f():\n    match x:\n        case 1:\n            s = """\nno indent"""\n')
    _same_as_libcst('def f():\n    match x:\n        case 1:\n            s = """\n    abc"""\n')
    _same_as_libcst('def f():\n\tmatch x:\n\t\tcase "\u00e9":\n\t\t\tpass\n')


@pytest.mark.parametrize(
    "source",
    [
        "def f(x): \\\n    return x\n",  # one logical line: libcst's one-line suite
        "if a: \\\n  b = 1; \\\n  c = 2\n",
        "x = 1; \\\ny = 2\n",  # one logical line: one SimpleStatementLine
        "x = 1 \\\n; y = 2\n",
        "class A:\n    x: int = 1; \\\n    y = 2\n",
    ],
)
def test_statements_joined_by_a_line_continuation_are_left_to_libcst(source):
    with pytest.raises(fastparse.Unsupported):
        _built(source)


@pytest.mark.parametrize(
    "source",
    [
        "del a,\ndel (a),\ndel (a, b),\ndel a, b,\ndel a  # c,\n",  # `del a,` deletes a tuple
        "y = x[(a,  # c\r b)]\r",  # a comment ends at a CR line ending too
        "def f():\n    g((yield))\n    return (yield)\n",
    ],
)
def test_more_shapes(source):
    _same_as_libcst(source)


SHARP = """\
# a comment with non-ASCII text: é 漢字
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    label = "ü"
    if x.sum() > 0:
        return x
    return -x
"""


def _settings(tmp_path: Path):
    store = ConfigStore(load_rule_infos(), Overrides(), tmp_path)
    return store.settings_for(tmp_path / "x.py")


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_finding_takes_its_position_and_message_from_libcsts_tree(tmp_path, monkeypatch, newline):
    parses: list[str] = []
    real = linter._parse_module
    monkeypatch.setattr(linter, "_parse_module", lambda text: parses.append("libcst") or real(text))
    result = linter.lint_source(SHARP.replace("\n", newline), "x.py", _settings(tmp_path))
    assert parses == ["libcst"]  # built first, then libcst's parse for the finding
    assert [(f.code, f.line, f.col, f.end_line, f.end_col) for f in result.findings] == [("JAX201", 9, 8, 9, 19)]
    assert result.findings[0].message.startswith("Python `if` on a traced value")


def test_a_clean_file_is_never_parsed_by_libcst(tmp_path, monkeypatch):
    monkeypatch.setattr(linter, "_parse_module", lambda text: pytest.fail("libcst's parser ran"))
    clean = SHARP.replace("if x.sum() > 0:", "if x.shape[0] > 0:")
    assert linter.lint_source(clean, "x.py", _settings(tmp_path)).findings == []


def test_what_cannot_be_built_goes_to_libcsts_parser(tmp_path, monkeypatch):
    def refuse(tree, text):
        raise fastparse.Unsupported("test")

    expected = linter.lint_source(SHARP, "x.py", _settings(tmp_path)).findings
    monkeypatch.setattr(fastparse, "from_ast", refuse)
    assert linter.lint_source(SHARP, "x.py", _settings(tmp_path)).findings == expected


def test_a_project_file_gets_the_same_summary_from_either_tree(tmp_path):
    settings = replace(_settings(tmp_path), module="pkg.step", project_packages=frozenset({"pkg"}))
    text = EVERY.read_text(encoding="utf-8")
    tree = ast.parse(text)
    from jaxlint.model.summary import extract_summary

    assert extract_summary(_built(text), "pkg.step", False) == extract_summary(cst.parse_module(text), "pkg.step", False)
    assert linter.lint_source(text, "pkg/step.py", settings).project is not None
    del tree


def test_identifiers_python_normalises_are_left_to_libcst():
    # CPython's tree has `ν1` for `𝜈1` (NFKC); libcst's keeps what was written
    with pytest.raises(fastparse.Unsupported):
        _built("𝜈1 = 1\n")
    _same_as_libcst("ν1 = 'ü'\n")


LOST = [
    # the guard's body is a one-line suite for libcst (line continuation); either way it is
    # a skip guard (the test returns without x64): no JAX110 from either tree
    ("import jax\nimport jax.numpy as jnp\n\ndef test_f():\n    if not jax.config.jax_enable_x64: \\\n"
     "        return\n    return jnp.zeros(3, dtype=jnp.float64)\n", []),
    # `pytestmark = ...; \` + `FOO = 1` is one line of two statements for libcst: JAX110 stays
    ("import jax\nimport jax.numpy as jnp\nimport pytest\n\n"
     "pytestmark = pytest.mark.skipif(not jax.config.jax_enable_x64, reason='x64'); \\\nFOO = 1\n\n"
     "def test_f():\n    return jnp.zeros(3, dtype=jnp.float64)\n", ["JAX110"]),
]


@pytest.mark.parametrize(("source", "codes"), LOST)
def test_findings_are_those_of_libcsts_tree(tmp_path, monkeypatch, source, codes):
    settings = _settings(tmp_path)
    got = [(f.code, f.line) for f in linter.lint_source(source, "x.py", settings).findings]

    def refuse(tree, text):
        raise fastparse.Unsupported("test")

    monkeypatch.setattr(fastparse, "from_ast", refuse)
    assert got == [(f.code, f.line) for f in linter.lint_source(source, "x.py", settings).findings]
    assert [c for c, _ in got] == codes


def test_a_kept_file_analysed_again_freezes_no_garbage(tmp_path):
    # The libcst parse after NeedsSourceTree ran inside the handler, whose traceback
    # kept the first analysis (and the built tree) alive through the collection
    # before the parse; TreeStore.put then froze it all: never freed in a worker
    # (2.7x the memory of the kept trees on a project with findings).
    import gc

    settings = replace(_settings(tmp_path), module="pkg.step", project_packages=frozenset({"pkg"}))
    body = "".join(f"\ndef g{j}(x, y):\n    return jnp.sum(jnp.sin(x) * y + {j}, axis=0)\n" for j in range(40))
    linter.lint_source(SHARP + body, "warm.py", settings)
    gc.unfreeze()
    gc.collect()
    before = len(gc.get_objects())
    trees = linter.TreeStore(1 << 30)
    n = 10
    try:
        for i in range(n):
            result = linter.lint_source(SHARP + body + f"\nk = {i}\n", f"pkg/f{i}.py", settings, trees=trees)
            assert [f.code for f in result.findings] == ["JAX201"]
            assert trees.get(f"pkg/f{i}.py", SHARP + body + f"\nk = {i}\n")[1] is False  # libcst's tree kept
        frozen = gc.get_freeze_count()
    finally:
        gc.unfreeze()
    gc.collect()
    live = len(gc.get_objects())  # all that was frozen and is not garbage
    kept = live - before  # the kept trees (and little else)
    assert frozen - live < kept / 3, (frozen, live, kept)


# -- a libcst whose node classes are laid out otherwise (libcst_compat) ------------

KEY_REUSE = """\
import jax


def sample(key):
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(key, (3,))
    return a + b
"""

# Before jaxlint is imported, Call's fields are put in another order (args first,
# and required), as a libcst release might: fastparse must notice and leave every
# file to libcst (makers built from the field order would swap func and args).
REORDERED_CALL = """\
import copy, dataclasses, json, sys
import libcst as cst

fields = dict(cst.Call.__dataclass_fields__)
args = copy.copy(fields.pop("args"))
args.default = args.default_factory = dataclasses.MISSING
cst.Call.__dataclass_fields__ = {"args": args, **fields}

from jaxlint.lint import linter
from jaxlint.parse import fastparse
from jaxlint.workspace.config import ConfigStore, Overrides
from jaxlint.workspace.ruleinfo import load_rule_infos
from pathlib import Path

parses = []
real = linter._parse_module
linter._parse_module = lambda text: parses.append(1) or real(text)
root = Path(sys.argv[1])
settings = ConfigStore(load_rule_infos(), Overrides(), root).settings_for(root / "x.py")
findings = linter.lint_source(sys.argv[2], "x.py", settings).findings
print(json.dumps({"disabled": fastparse.DISABLED, "parses": len(parses),
                  "findings": [[f.code, f.line, f.col, f.end_line, f.end_col] for f in findings]}))
if sys.argv[3:]:
    from jaxlint.cli import main
    main(sys.argv[3:])
"""


def _run_reordered(tmp_path: Path, *cli: str):
    import json
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", REORDERED_CALL, str(tmp_path), KEY_REUSE, *cli],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    return json.loads(proc.stdout.splitlines()[0]), proc


def test_a_reordered_libcst_class_switches_fastparse_off_and_findings_stay_right(tmp_path):
    out, _ = _run_reordered(tmp_path)
    from jaxlint.parse.libcst_compat import LIBCST_VERSION

    assert out["disabled"].startswith(f"libcst {LIBCST_VERSION}: Call: fields args, func, lpar")
    assert out["parses"] == 1  # libcst's parser, straight away (no built tree first)
    assert out["findings"] == [["JAX301", 6, 9, 6, 37]]


def test_verbose_says_once_that_fastparse_is_off(tmp_path):
    (tmp_path / "x.py").write_text(KEY_REUSE)
    _, proc = _run_reordered(tmp_path, "check", "--verbose", "--no-cache", "--output-format", "concise", "x.py")
    assert proc.returncode == 1, proc.stderr
    from jaxlint.parse.libcst_compat import LIBCST_VERSION

    off = [line for line in proc.stderr.splitlines() if "fastparse" in line]
    assert len(off) == 1 and off[0].startswith(
        f"fastparse is off (every file takes libcst's parser): libcst {LIBCST_VERSION}: Call: fields args, func")
    assert "x.py:6:9: JAX301" in proc.stdout


def test_the_layout_as_installed_is_the_recorded_one():
    from jaxlint.parse import libcst_compat

    assert fastparse.DISABLED is None
    assert libcst_compat.layout_mismatch(libcst_compat.NODE_FIELDS) is None


def test_makers_set_fields_by_name_whatever_libcsts_order(monkeypatch):
    from jaxlint.parse import libcst_compat

    import copy
    import dataclasses

    fields = dict(cst.Call.__dataclass_fields__)
    args = copy.copy(fields.pop("args"))
    args.default = args.default_factory = dataclasses.MISSING
    monkeypatch.setattr(cst.Call, "__dataclass_fields__", {"args": args, **fields})
    make = libcst_compat.node_maker(cst.Call, fastparse._POSITIONAL["Call"])
    func, args = cst.Name("f"), [cst.Arg(cst.Name("key"))]
    node = make(func, args)
    assert node.func is func and node.args is args
    assert cst.Module([cst.SimpleStatementLine([cst.Expr(node)])]).code == "f(key)\n"
    assert libcst_compat.layout_mismatch(["Call"]).startswith("Call: fields args, func")


def test_every_class_fastparse_builds_has_a_positional_entry_and_a_recorded_layout():
    from jaxlint.parse import libcst_compat

    tree = ast.parse(Path(fastparse.__file__).read_text(encoding="utf-8"))
    built = {}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "mk"):
            built[node.func.attr] = max(built.get(node.func.attr, 0), len(node.args))
    assert built and set(built) <= set(fastparse._POSITIONAL) == set(libcst_compat.NODE_FIELDS)
    for name, count in built.items():
        assert count <= len(fastparse._POSITIONAL[name]), name
