"""Property-based tests: generated programs (hypothesmith) and mutants of real files.

For any input: no traceback, a result, JAX001 exactly when CPython refuses the
text, positions inside the file.  With any line endings (``\\n``, ``\\r\\n``, a
lone ``\\r``, mixed; characters ``str.splitlines`` breaks at in strings and
comments): every finding where CPython's ``ast`` puts its node, ``--fix``
editing only the intended text, and a mutant's findings and fixes the same as
those of its LF twin.  For ``--fix`` on anything that compiles: the
result compiles and a second run changes nothing (the fixer itself checks that
the tree changed only in the rewritten nodes and refuses the fix otherwise).

The example budget is fixed and the examples derandomized, so CI runs the same
cases every time; ``JAXLINT_FUZZ_EXAMPLES=N`` (``make fuzz``) runs N of each.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ast
import io

from mutants import compiles, encode, ending_problems, mutate, refused_by_python, rewrite_endings

from jaxlint.fix.fixer import add_noqa, fix_text
from jaxlint.lint.linter import lint_source
from jaxlint.lint.linter import decode_source
from jaxlint.rules import default_codes
from jaxlint.lint.runner import lint_one, run
from jaxlint.settings import LintSettings

ROOT = Path(__file__).resolve().parent.parent
SEEDS = sorted([*ROOT.glob("examples/*/*.py"), *ROOT.glob("tests/fixtures/lint/*.py")])
TEXTS = [p.read_text(encoding="utf-8") for p in SEEDS]
SETTINGS = LintSettings(select=frozenset(default_codes() | {"JAX001"}))
EXAMPLES = int(os.environ.get("JAXLINT_FUZZ_EXAMPLES", "25"))
BUDGET = settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 25,
                  suppress_health_check=list(HealthCheck), database=None)


def check_lint_properties(data: bytes) -> None:
    result, tb = lint_one("m.py", data, SETTINGS)
    assert tb is None, tb
    assert result.path == "m.py"
    text, decode_error = decode_source(data)
    if text is None:
        assert result.error == decode_error and not result.findings
        return
    if "# jaxlint: skip-file" in text:
        return
    jax001 = [f for f in result.findings if f.code == "JAX001"]
    if refused_by_python(text):
        assert len(jax001) == 1 and result.findings == jax001 and result.error is None
    else:
        assert not jax001
        assert result.error is None or result.error.startswith("could not be checked: ")
    n_lines = text.count("\n") + text.count("\r") + 1
    for f in result.findings:
        assert 1 <= f.line <= n_lines + 1 and f.col >= 1, f
        assert (f.line, f.col) <= (f.end_line, f.end_col), f


def check_fix_properties(text: str) -> None:
    if not compiles(text):  # bytecode too: `return` outside a function parses but does not compile
        return
    fixed = fix_text(text, "m.py", SETTINGS, unsafe=True)
    if not fixed.changed:
        return
    compile(fixed.text, "m.py", "exec", dont_inherit=True)  # still compiles
    again = fix_text(fixed.text, "m.py", SETTINGS, unsafe=True)
    assert again.text == fixed.text, "a second --fix changed the text again"


@st.composite
def mutants(draw) -> tuple[bytes, str]:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    text = mutate(rng.choice(TEXTS), rng, edits=rng.randrange(1, 5))
    return encode(text, rng), text


@BUDGET
@given(mutants())
def test_mutants_of_real_files_lint_without_a_traceback(mutant) -> None:
    check_lint_properties(mutant[0])


@BUDGET
@given(mutants())
def test_fixes_on_mutants_compile_and_are_idempotent(mutant) -> None:
    check_fix_properties(mutant[1])


@BUDGET
@given(hypothesmith.from_node())
def test_generated_programs_lint_without_a_traceback(source: str) -> None:
    text = "import jax\nimport jax.numpy as jnp\n" + source
    check_lint_properties(text.encode("utf-8", "surrogatepass"))


@BUDGET
@given(hypothesmith.from_grammar())
def test_generated_token_soup_lints_without_a_traceback(source: str) -> None:
    check_lint_properties(("import jax\n" + source).encode("utf-8", "surrogatepass"))


def test_every_mutant_of_a_run_gets_a_result(tmp_path: Path) -> None:
    rng = random.Random(14)
    files = []
    for i in range(12):
        path = tmp_path / f"m{i:02}.py"
        path.write_bytes(encode(mutate(rng.choice(TEXTS), rng), rng))
        files.append(path)
    out = run(files, lambda p: SETTINGS, None, jobs=2)
    assert out.tracebacks == []
    assert sorted(r.path for r in out.results) == sorted(map(str, files))
    assert all("internal error" not in e for e in out.errors)


@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.name)
def test_seed_files_themselves(path: Path) -> None:
    check_lint_properties(path.read_bytes())
    check_fix_properties(path.read_text(encoding="utf-8"))


# ----------------------------------------------------------------------------- line endings

# (source, its text after --fix): lines joined by generated line endings at "{n}"
PIECES = (
    ("x{k} = jax.tree_map(f, y)", "x{k} = jax.tree.map(f, y)"),
    ("# jax.tree_map in a comment, \u00e9\x0c\x0b\x1c\x1d\x1e\x85\u2028\u2029 and more", None),
    ("s{k} = 'jax.tree_map \x0c\x1c\x85\u2028\u2029'", None),
    ('d{k} = """doc{n}jax.tree_map(f, y){n}"""', None),
    ("t{k} = (jax.tree_map(f,{n}    y), 1)", "t{k} = (jax.tree.map(f,{n}    y), 1)"),
    ("u{k} = 1 + \\{n}    jax.tree_map(g, 2)", "u{k} = 1 + \\{n}    jax.tree.map(g, 2)"),
    ("if c:{n}    v{k} = jax.tree_map(h, c){n}else:{n}    pass", "if c:{n}    v{k} = jax.tree.map(h, c){n}else:{n}    pass"),
    ("\u00e9{k} = '\u00fc\u2028'; w{k} = jax.tree_map(f, y)", "\u00e9{k} = '\u00fc\u2028'; w{k} = jax.tree.map(f, y)"),
    ("\x0cz{k} = [jax.tree_map,{n}      jax.tree_map]", "\x0cz{k} = [jax.tree.map,{n}      jax.tree.map]"),
    ("", None),
)
JAX901 = LintSettings(select=frozenset({"JAX901"}))


@st.composite
def sources_with_mixed_endings(draw) -> tuple[str, str]:
    """(a source with random line endings, the same source as --fix must leave it)."""
    chosen = draw(st.lists(st.integers(0, len(PIECES) - 1), min_size=1, max_size=12))
    src_lines, fixed_lines = ["import jax"], ["import jax"]
    for k, i in enumerate(chosen):
        src, fixed = PIECES[i]
        fixed = src if fixed is None else fixed
        src_lines += src.format(k=k, n="\n").split("\n")
        fixed_lines += fixed.format(k=k, n="\n").split("\n")
    assert len(src_lines) == len(fixed_lines)
    ends = draw(st.lists(st.sampled_from(["\n", "\r\n", "\r"]),
                         min_size=len(src_lines), max_size=len(src_lines)))
    for i in range(1, len(ends)):  # a lone CR, an empty line, an LF: that is one CRLF
        if ends[i] == "\n" and ends[i - 1] == "\r" and src_lines[i] == "":
            ends[i] = "\r\n"
    if draw(st.booleans()) and src_lines[-1]:
        ends[-1] = ""  # no line break at the end
    src = "".join(line + end for line, end in zip(src_lines, ends))
    fixed = "".join(line + end for line, end in zip(fixed_lines, ends))
    return src, fixed


def cpython_positions(text: str) -> list[tuple[int, int, int, int]]:
    """Where CPython's ``ast`` puts each ``jax.tree_map``: 1-based lines and
    character columns (CPython counts UTF-8 bytes; its lines as ``io`` splits them)."""
    lines = io.StringIO(text, newline=None).read().split("\n")

    def char(line: int, col: int) -> int:
        return len(lines[line - 1].encode("utf-8")[:col].decode("utf-8")) + 1

    return sorted(
        (n.lineno, char(n.lineno, n.col_offset), n.end_lineno, char(n.end_lineno, n.end_col_offset))
        for n in ast.walk(ast.parse(text))
        if isinstance(n, ast.Attribute) and n.attr == "tree_map"
        and isinstance(n.value, ast.Name) and n.value.id == "jax"
    )


@BUDGET
@given(sources_with_mixed_endings())
def test_positions_and_fixes_with_mixed_line_endings(case: tuple[str, str]) -> None:
    src, expected = case
    findings = lint_source(src, "m.py", JAX901, prefilter=False).findings
    assert sorted((f.line, f.col, f.end_line, f.end_col) for f in findings) == cpython_positions(src)
    result = fix_text(src, "m.py", JAX901)
    assert result.errors == [] and result.skipped == []
    assert result.text == expected  # only the intended text, every line ending kept
    assert fix_text(result.text, "m.py", JAX901).text == expected
    noqa, _ = add_noqa(src, findings)
    assert lint_source(noqa, "m.py", JAX901, prefilter=False).findings == []
    assert [e for e in io.StringIO(noqa, newline="").readlines() if e.endswith(("\r", "\n"))] and \
        noqa.count("\r") == src.count("\r") and noqa.count("\n") == src.count("\n")


@st.composite
def mutants_with_endings(draw) -> str:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    text = mutate(rng.choice(TEXTS), rng, edits=rng.randrange(1, 5))
    return rewrite_endings(text, rng)


@BUDGET
@given(mutants_with_endings())
def test_mutants_with_cr_crlf_or_mixed_endings_agree_with_their_lf_twin(text: str) -> None:
    assert ending_problems(text, SETTINGS) == []
