"""The server's incremental re-parse gives exactly what a fresh parse gives."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from jaxlint.workspace.config import ConfigStore, Overrides
from jaxlint.lint.linter import lint_source
from jaxlint.workspace.ruleinfo import load_rule_infos
from jaxlint.server.incremental import IncrementalParser, lint_incremental
from jaxlint.settings import LintSettings

REPO = Path(__file__).resolve().parent.parent


def all_rules() -> LintSettings:
    return ConfigStore(load_rule_infos(), Overrides(select=("ALL",)), REPO).settings_for(REPO / "x.py")


def same(parser: IncrementalParser, text: str, settings: LintSettings) -> None:
    module = parser.parse(text)
    if module is not None:
        assert module.code == text
    assert lint_incremental(parser, text, "m.py", settings).findings == \
        lint_source(text, "m.py", settings).findings


EDGE_CASES = {
    "crlf, tabs, no final newline": (
        "import jax\r\n\r\ndef f(x):\r\n\tif x:\r\n\t\treturn jax.tree_map(g, x)\r\n\r\n"
        "def h(k):\r\n\treturn jax.random.normal(k) + jax.random.normal(k)"),
    "header comments, docstring, future import": (
        "#!/usr/bin/env python\n# a comment\n\"\"\"Doc\nstring at column 0\ndef not_code():\n\"\"\"\n"
        "from __future__ import annotations\nimport jax.numpy as jnp\n\n\n# about f\n"
        "@jax.jit\n@other\ndef f(x):\n    x[0] = 1\n    return x\n    # trailing, indented\n"
        "# trailing\n\nx = jnp.zeros(3); x[1] = 2\n"),
    "indentation differs between functions": (
        "import jax\nimport jax.numpy as jnp\n\ndef f():\n  y = jnp.ones(2)\n  y[0] = 1\n"
        "  return y\n\ndef g():\n        z = jnp.ones(2)\n        z[0] = 1\n        return z\n"),
    "top-level if/else and try": (
        "import jax\nif jax:\n    a = jax.tree_map(f, x)\nelse:\n    a = 2\ntry:\n    import numpy as np\n"
        "except ImportError:\n    np = None\nfinally:\n    pass\nb = jax.tree_map(f, x)\n"),
    "non-ASCII and a match statement": (
        "import jax\nlabel = 'é\U0001F600'; t = jax.tree_map(lambda v: v, 1)\n"
        "match t:\n    case 1:\n        u = jax.tree_map(f, t)\n    case _:\n        pass\n"),
    "first block in the second statement": (
        "import jax\nclass A:\n   def m(self, key):\n      a = jax.random.normal(key)\n"
        "      return a + jax.random.normal(key)\n"),
}


@pytest.mark.parametrize("name", list(EDGE_CASES))
def test_edge_cases_match_a_fresh_parse(name):
    text = EDGE_CASES[name]
    settings = all_rules()
    parser = IncrementalParser()
    assert parser.parse(text) is not None  # the incremental path is taken
    same(parser, text, settings)
    # edit one statement: only it is parsed again
    before = parser.parsed
    edited = text.replace("jax.tree_map", "jax.tree.map", 1)
    same(parser, edited, settings)
    assert parser.parsed - before <= 2


def test_random_edits_of_the_examples_match_a_fresh_parse():
    settings = all_rules()
    rng = random.Random(12)
    files = [p for p in sorted((REPO / "examples").rglob("*.py")) if p.read_text().count("\n") > 5]
    assert files
    for path in files:
        text = path.read_text()
        parser = IncrementalParser()
        same(parser, text, settings)
        lines = text.splitlines(keepends=True)
        for _ in range(6):
            i = rng.randrange(len(lines))
            choice = rng.randrange(4)
            if choice == 0:
                lines.insert(i, "# comment\n")
            elif choice == 1 and len(lines) > 1:
                del lines[i]  # may break the syntax: then the whole buffer is linted
            elif choice == 2:
                lines[i] = lines[i].replace("jnp.", "np.", 1)
            else:
                lines.insert(i, lines[i])
            same(parser, "".join(lines), settings)


def test_syntax_errors_fall_back_to_jax001():
    settings = all_rules()
    parser = IncrementalParser()
    text = "import jax\n\ndef f(x):\n    return jax.tree_map(g, x)\n"
    same(parser, text, settings)
    broken = text + "def g(:\n"
    assert parser.parse(broken) is None
    findings = lint_incremental(parser, broken, "m.py", settings).findings
    assert [(f.code, f.line, f.col) for f in findings] == [("JAX001", 5, 7)]


def test_unchanged_statements_are_reused():
    body = "".join(f"def f{i}(x):\n    return jax.tree_map(g, x)\n\n" for i in range(50))
    parser = IncrementalParser()
    assert parser.parse("import jax\n" + body) is not None
    assert (parser.parsed, parser.reused) == (51, 0)
    edited = "import jax\n" + body.replace("def f7(x)", "def f7(y)")
    assert parser.parse(edited).code == edited
    assert (parser.parsed, parser.reused) == (52, 50)
    same(parser, edited, all_rules())


@pytest.mark.parametrize("name", list(EDGE_CASES))
def test_positions_from_the_statement_cache_equal_a_full_pass(name):
    from jaxlint.parse import positions
    from jaxlint.model.walk import children

    text = EDGE_CASES[name]
    module = IncrementalParser().parse(text)
    every = []
    stack = list(module.body)
    while stack:
        n = stack.pop()
        every.append(n)
        stack.extend(children(n))
    cache = positions.StatementCache()
    for wanted in (every, every[:1], every[-3:], every[::7], every[3::11]):
        full = positions.node_ranges(module, wanted)  # no cache: the whole module
        got = positions._ranges_by_statement(module, {id(n) for n in wanted}, cache)
        assert got == full
    # a node outside the module: the caller falls back to the whole module
    assert positions._ranges_by_statement(module, {id(object())}, cache) is None


def test_an_indented_comment_typed_between_two_defs_keeps_the_lines():
    """Issue 20 item 2: ``  # c`` typed on the blank line 6, between two functions,
    one character at a time.  The chunk holding ``f`` ended with that comment; parsed
    on its own, libcst read it as the end of a file and dropped the blank line before
    it, so every later finding came one line early (JAX901 on line 9, not 10)."""
    import libcst as cst

    settings = all_rules()
    text = "import jax\n\ndef f():\n    return 1\n\n\ndef g():\n    pass\n\njax.tree_map(f, y)\n"
    parser = IncrementalParser()
    same(parser, text, settings)
    lines = text.splitlines(keepends=True)
    for n in range(1, len("  # c") + 1):
        lines[5] = "  # c"[:n] + "\n"
        edited = "".join(lines)
        same(parser, edited, settings)
        assert parser.parse(edited).deep_equals(cst.parse_module(edited))
    assert [(f.code, f.line, f.col) for f in lint_incremental(parser, edited, "m.py", settings).findings] \
        == [("JAX901", 10, 1)]
    # the same text opened as a new document
    fresh = IncrementalParser()
    assert [(f.code, f.line, f.col) for f in lint_incremental(fresh, edited, "m.py", settings).findings] \
        == [("JAX901", 10, 1)]


def test_a_statement_written_twice_gets_its_own_nodes():
    """Two top-level chunks with the same text (a copied function) were given the
    same node objects: positions go by node identity, so the second copy's finding
    was lost (reported once, at the first)."""
    settings = all_rules()
    copy = "def f(x):\n    return jax.tree_map(g, x)\n\n"
    text = "import jax\n\n" + copy + copy + "z = 1\n"
    parser = IncrementalParser()
    module = parser.parse(text)
    assert len({id(s) for s in module.body}) == len(module.body) == 4
    same(parser, text, settings)
    assert [(f.code, f.line, f.col) for f in lint_incremental(parser, text, "m.py", settings).findings] \
        == [("JAX901", 4, 12), ("JAX901", 7, 12)]
    # and once more, reusing both copies
    same(parser, text + "w = 2\n", settings)


def test_the_incremental_path_runs_the_guard_in_a_process_that_survives():
    """Issue 25 item 1: ``lint_incremental`` took libcst's parse straight to a
    20,000-operand ``and`` chain (the guard was skipped) and the process died
    (rc 139).  Through the linter's one entry it gets the CLI's answer."""
    import subprocess
    import sys

    script = (
        "from jaxlint.server.incremental import IncrementalParser, lint_incremental\n"
        "from jaxlint.settings import LintSettings\n"
        "s = LintSettings(select=frozenset({'JAX001', 'JAX901'}))\n"
        "chain = ' and '.join(['a'] * 20000)\n"
        "p = IncrementalParser()\n"
        "for text in ('import jax\\n\\ny = 1\\nz = 2\\n',\n"
        "             f'import jax\\n\\n@jax.jit\\ndef f(a):\\n    x = {chain}\\n    return x\\n\\ny = 1\\n',\n"
        "             f'import jax\\nx = {chain}\\ny = jax.tree_map(f, x)\\n'):\n"
        "    r = lint_incremental(p, text, 'm.py', s)\n"
        "    print(r.error, len(r.findings), p.parsed)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "None 0 3",
        "could not be checked: nesting deeper than 1,500 levels at line 5 0 3",
        "could not be checked: nesting deeper than 1,500 levels at line 2 0 3",
    ]


def test_every_parse_strategy_gives_the_same_findings():
    from jaxlint.lint.linter import FASTPARSE, LIBCST

    settings = all_rules()
    parser = IncrementalParser()
    for text in EDGE_CASES.values():
        want = lint_source(text, "m.py", settings).findings
        assert want
        assert lint_source(text, "m.py", settings, parse=FASTPARSE).findings == want
        assert lint_source(text, "m.py", settings, parse=LIBCST).findings == want
        assert lint_source(text, "m.py", settings, parse=parser).findings == want
    with pytest.raises(ValueError, match="unknown parse strategy 'cst'"):
        lint_source("import jax\n", "m.py", settings, parse="cst")


def test_checks_run_before_the_prebuilt_parse():
    """The skip comment, the prefilter and CPython's verdict come first: the parser
    never sees such a buffer."""
    settings = all_rules()

    class Refuses(IncrementalParser):
        def parse(self, text, tree=None):
            raise AssertionError("parsed")

    parser = Refuses()
    for text in ("# jaxlint: skip-file\nimport jax\njax.tree_map(f, x)\n", "import numpy\nx = 1\n"):
        assert lint_source(text, "m.py", settings, parse=parser).findings == []
    bad = lint_source("import jax\ndef f(:\n", "m.py", settings, parse=parser)
    assert [(f.code, f.line, f.col) for f in bad.findings] == [("JAX001", 2, 7)]
