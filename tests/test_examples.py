"""The bundled example project: sharp/ must flag exactly its known bugs, clean/ nothing."""

from __future__ import annotations

from pathlib import Path

from jaxlint.lint.linter import lint_source
from jaxlint.rules import default_codes
from jaxlint.settings import LintSettings

ROOT = Path(__file__).resolve().parent.parent / "examples"
SETTINGS = LintSettings(select=default_codes())

# (file, line, column, code) of the headline rules' findings in examples/sharp
EXPECTED_HEADLINE = {
    ("model.py", 19, 13, "JAX301"),  # same key in every loop iteration
    ("model.py", 20, 36, "JAX110"),  # float64 without x64
    ("model.py", 36, 8, "JAX201"),  # if on a tracer under jit
    ("model.py", 44, 15, "JAX301"),  # key reused after normal()
    ("train.py", 30, 5, "JAX101"),  # in-place update
    ("train.py", 32, 9, "JAX101"),
    ("train.py", 38, 22, "JAX202"),  # traced shape
    ("train.py", 45, 32, "JAX201"),  # ternary on a tracer in a scan body
    ("train.py", 60, 18, "JAX203"),  # next() of an outer iterator in a fori_loop body
}
# the rest of the catalogue, in experiment.py
EXPECTED_OTHERS = {
    ("experiment.py", 19, 13, "JAX406"),  # np.random inside jit
    ("experiment.py", 27, 5, "JAX401"),  # print of a tracer inside jit
    ("experiment.py", 32, 42, "JAX120"),  # where(p > 0, p * log(p), 0): NaN gradient
    ("experiment.py", 38, 17, "JAX501"),  # jit of a lambda in a loop
    ("experiment.py", 40, 12, "JAX901"),  # jax.tree_map was removed
    ("experiment.py", 43, 15, "JAX505"),  # timing without block_until_ready
}


def _lint_dir(d: Path):
    out = []
    for path in sorted(d.glob("*.py")):
        res = lint_source(path.read_bytes(), str(path), SETTINGS)
        assert res.error is None
        out.extend((path.name, f.line, f.col, f.code) for f in res.findings)
    return out


def test_sharp_examples_flag_their_bugs():
    found = _lint_dir(ROOT / "sharp")
    assert len(found) == len(set(found))
    assert set(found) == EXPECTED_HEADLINE | EXPECTED_OTHERS


def test_clean_examples_are_silent_for_every_default_rule():
    assert _lint_dir(ROOT / "clean") == []
