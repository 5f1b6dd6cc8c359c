"""Property: after every edit, the language server's incremental parse equals a full parse.

Random edit sequences (lines inserted, deleted, replaced or retyped character by
character; comment-only lines at any indentation; blank and whitespace-only lines;
``\\r\\n`` and lone ``\\r`` line endings; edits inside functions and classes; syntax
errors that come and go) are applied to a buffer, and after each one the
``IncrementalParser`` that saw every earlier version must give

* libcst's tree of the text (``deep_equals`` to ``libcst.parse_module``), when it
  gives a tree at all, and
* the findings of ``jaxlint check`` on the same text (code, line, column, end,
  message, fixes), through ``lint_source``.

The example budget follows ``JAXLINT_FUZZ_EXAMPLES`` as in ``test_properties.py``
(``make fuzz`` runs a large one).
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import libcst as cst
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jaxlint.lint.linter import lint_source
from jaxlint.rules import default_codes
from jaxlint.server.incremental import IncrementalParser
from jaxlint.settings import LintSettings

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = LintSettings(select=frozenset(default_codes() | {"JAX001"}))
EXAMPLES = int(os.environ.get("JAXLINT_FUZZ_EXAMPLES", "25"))
BUDGET = settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 25,
                  suppress_health_check=list(HealthCheck), database=None)

BASE = (
    "import jax\n"
    "import jax.numpy as jnp\n"
    "\n"
    "def f():\n"
    "    return 1\n"
    "\n"
    "\n"
    "def g(x):\n"
    "    y = jnp.zeros(3)\n"
    "    y[0] = x\n"
    "    return y\n"
    "\n"
    "@jax.jit\n"
    "def h(key):\n"
    "    a = jax.random.normal(key)\n"
    "    return a + jax.random.normal(key)\n"
    "\n"
    "class A:\n"
    "    def m(self, v):\n"
    "        return jax.tree_map(f, v)\n"
    "\n"
    "jax.tree_map(f, y)\n"
)
SEEDS = [BASE] + [t for p in sorted(ROOT.glob("examples/*/*.py"))
                  for t in [p.read_text(encoding="utf-8")] if t.count("\n") > 10]

# lines a user types: top-level code, code inside a def or class, comments and
# blank lines at every indentation, block openers, brackets left open, tabs
LINES = [
    "", " ", "    ", "\t", "# c", " # c", "  # c", "    # c", "        # c", "\t# c",
    "x = jnp.zeros(3)", "x[0] = 1", "jax.tree_map(f, x)", "    y = jax.tree_map(f, y)",
    "    x[1] = 2", "        return jax.tree_map(g, x)", "    pass", "        pass",
    "def k():", "def k(x):", "class B:", "    def n(self):", "@jax.jit", "if x:", "else:",
    "for i in range(3):", "    key = jax.random.PRNGKey(0)",
    "    b = jax.random.normal(key) + jax.random.normal(key)",
    "z = (1,", "     2)", "w = 1 + \\", "'''doc", "'''", "def bad(:", ")", "\tpass",
    "a = 1; b = jax.tree_map(f, a)", "import jax", "from jax import numpy as jnp",
    "\\", "    \\", "\x0c", "\x0cdef k():", "  \x0c  # c", "s = '''", "    text '''",
    "async def k():", "    await jax.tree_map(f, x)", "match x:", "    case 1:",
    "        y = jax.tree_map(f, x)", "if __name__ == '__main__':", "    # noqa", "x = 1  # c",
    "    '''doc'''", "@dec", "    @jax.jit", "del x", "x[0] = 1  ", "\ufeffimport jax",
]
# snippets typed inside a line, at any column
SNIPPETS = ["  # c", " ", "\t", "x", "(", ")", ":", "\n", "\r\n", "\r", "\\", "'", "jax.", "\n    "]
# lone "\r" line endings: the linter's own line counting for them is being reworked
# elsewhere; the property still holds (the incremental and the whole parse agree)
ENDINGS = ["\n", "\r\n", "\r"]


# statements that fit at any indentation (the "aligned" edit puts them at the
# indentation of the line they go before, so the buffer stays valid more often)
ALIGNED = ["# c", "x = jnp.zeros(3)", "jax.tree_map(f, x)", "x[0] = 1", "pass",
           "key = jax.random.PRNGKey(0)", "b = jax.random.normal(key) + jax.random.normal(key)"]
KINDS = {  # edit kind -> weight
    "aligned": 8, "insert": 4, "delete": 3, "replace": 2, "type": 2, "type_in": 2,
    "ending": 2, "backspace": 1, "undo": 3,
}


@st.composite
def edits(draw):
    n = draw(st.integers(min_value=1, max_value=16))
    kinds = [k for k, w in KINDS.items() for _ in range(w)]
    out = []
    for _ in range(n):
        kind = draw(st.sampled_from(kinds))
        where = draw(st.floats(min_value=0, max_value=1, allow_nan=False))
        pool = SNIPPETS if kind == "type_in" else ALIGNED if kind == "aligned" else LINES
        line = draw(st.sampled_from(pool))
        ending = draw(st.sampled_from(ENDINGS))
        out.append((kind, where, line, ending))
    return out


def split(text: str) -> list[str]:
    lines, start = [], 0
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\r" and text[i + 1: i + 2] == "\n":
            i += 2
            lines.append(text[start:i])
            start = i
            continue
        i += 1
        if c in "\r\n":
            lines.append(text[start:i])
            start = i
    if start < len(text):
        lines.append(text[start:])
    return lines


def body_of(line: str) -> tuple[str, str]:
    for end in ("\r\n", "\n", "\r"):
        if line.endswith(end):
            return line[: -len(end)], end
    return line, ""


def apply(text: str, edit: tuple) -> list[str]:
    """The versions an edit goes through (typing a line gives one per character)."""
    kind, where, new, ending = edit
    lines = split(text)
    i = min(int(where * (len(lines) + 1)), len(lines))
    if kind == "insert":
        return ["".join(lines[:i] + [new + ending] + lines[i:])]
    if kind == "aligned":
        # a statement at the indentation of the line it goes before (that line's ending)
        body, end = body_of(lines[i]) if i < len(lines) else ("", ending)
        indent = body[: len(body) - len(body.lstrip(" \t"))]
        return ["".join(lines[:i] + [indent + new + (end or ending)] + lines[i:])]
    if kind == "delete" and lines:
        i = min(i, len(lines) - 1)
        return ["".join(lines[:i] + lines[i + 1:])]
    if kind == "replace" and lines:
        i = min(i, len(lines) - 1)
        _, end = body_of(lines[i])
        return ["".join(lines[:i] + [new + end] + lines[i + 1:])]
    if kind == "ending" and lines:
        i = min(i, len(lines) - 1)
        body, _ = body_of(lines[i])
        return ["".join(lines[:i] + [body + ending] + lines[i + 1:])]
    if kind == "backspace" and lines:
        # delete the line break before line i (joins two lines), as a backspace does
        i = max(1, min(i, len(lines) - 1))
        if i >= len(lines):
            return [text]
        body, _ = body_of(lines[i - 1])
        return ["".join(lines[: i - 1] + [body + lines[i]] + lines[i + 1:])]
    if kind == "type_in":
        # a snippet typed one character at a time at some column of the text
        at = min(int(where * (len(text) + 1)), len(text))
        return [text[:at] + new[:n] + text[at:] for n in range(1, len(new) + 1)]
    if kind == "type":
        # a new line typed one character at a time, as an editor sends it
        versions = []
        typed = ""
        for c in new + ending:
            typed += c
            versions.append("".join(lines[:i] + [typed] + lines[i:]))
        return versions
    return [text]


def findings(result) -> list[tuple]:
    return [(f.code, f.line, f.col, f.end_line, f.end_col, f.message, f.fix, f.function)
            for f in result.findings]


def check(parser: IncrementalParser, text: str) -> None:
    from jaxlint.server.incremental import lint_incremental

    # the lint first, on the parse that reuses the previous version's statements
    got = lint_incremental(parser, text, "m.py", SETTINGS)
    want = lint_source(text, "m.py", SETTINGS)
    assert findings(got) == findings(want), repr(text)
    assert got.error == want.error
    # then the tree it linted (every statement is reused from that parse)
    module = parser.parse(text)
    if module is not None:
        try:
            whole = cst.parse_module(text)
        except Exception:
            whole = None
        assert whole is not None, "the incremental parser built a tree libcst refuses"
        assert module.deep_equals(whole), repr(text)
        assert module.code == whole.code
        BUILT.append(1)


BUILT: list[int] = []  # versions the incremental parser built a tree for


@BUDGET
@given(st.sampled_from(range(len(SEEDS))), edits(), st.sampled_from(["\n", "\r\n", "\r"]))
def test_random_edits_parse_as_a_whole_parse(seed, sequence, newline) -> None:
    text = SEEDS[seed]
    if newline != "\n":
        text = text.replace("\n", newline)
    parser = IncrementalParser()
    check(parser, text)
    valid = text
    for edit in sequence:
        if edit[0] == "undo":  # back to the last version Python accepted: the error goes away
            versions = [valid]
        else:
            versions = apply(text, edit)
        for version in versions:
            check(parser, version)
            text = version
            if compiles(text):
                valid = text


def compiles(text: str) -> bool:
    try:
        compile(text, "m.py", "exec", dont_inherit=True, flags=ast.PyCF_ONLY_AST)
    except (SyntaxError, ValueError):
        return False
    return True
