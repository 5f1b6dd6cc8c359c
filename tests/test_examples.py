"""The bundled example project: sharp/ must flag exactly its known bugs, clean/ nothing."""

from __future__ import annotations

from pathlib import Path

from jaxlint.linter import lint_source
from jaxlint.rules import default_codes
from jaxlint.settings import LintSettings

ROOT = Path(__file__).resolve().parent.parent / "examples"
SETTINGS = LintSettings(select=default_codes())

# (file, line, column, code) of the headline rules' findings in examples/sharp
EXPECTED_HEADLINE = {
    ("model.py", 13, 13, "JAX301"),  # same key in every loop iteration
    ("model.py", 14, 36, "JAX110"),  # float64 without x64
    ("model.py", 30, 8, "JAX201"),  # if on a tracer under jit
    ("model.py", 38, 15, "JAX301"),  # key reused after normal()
    ("train.py", 24, 5, "JAX101"),  # in-place update
    ("train.py", 26, 9, "JAX101"),
    ("train.py", 32, 22, "JAX202"),  # traced shape
    ("train.py", 39, 32, "JAX201"),  # ternary on a tracer in a scan body
    ("train.py", 54, 18, "JAX203"),  # next() of an outer iterator in a fori_loop body
}
HEADLINE = {"JAX101", "JAX102", "JAX110", "JAX201", "JAX202", "JAX203", "JAX301"}


def _lint_dir(d: Path):
    out = []
    for path in sorted(d.glob("*.py")):
        res = lint_source(path.read_bytes(), str(path), SETTINGS)
        assert res.error is None
        out.extend((path.name, f.line, f.col, f.code) for f in res.findings)
    return out


def test_sharp_examples_flag_their_bugs():
    found = {f for f in _lint_dir(ROOT / "sharp") if f[3] in HEADLINE}
    assert found == EXPECTED_HEADLINE


def test_clean_examples_are_silent_for_every_default_rule():
    assert _lint_dir(ROOT / "clean") == []
