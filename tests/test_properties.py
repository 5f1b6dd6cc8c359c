"""Property-based tests: generated programs (hypothesmith) and mutants of real files.

For any input: no traceback, a result, JAX001 exactly when CPython refuses the
text, positions inside the file.  For ``--fix`` on anything that compiles: the
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

from mutants import compiles, encode, mutate, refused_by_python

from jaxlint.fixer import fix_text
from jaxlint.linter import decode_source
from jaxlint.rules import default_codes
from jaxlint.runner import lint_one, run
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
