"""The new-user review of session 16: the runtime companion, the fixer and the docs.

JAX401's fix keeps a static value (an array's ``.shape``, ``.ndim``, ``.dtype``, an
index of its shape, ``len(...)``, a number) printing as ``print`` printed it: it is
folded into the format as an f-string field, while traced values go through
``jax.debug.print``'s ``{}`` (an argument of ``jax.debug.print`` becomes an array:
``(Array(3, dtype=int32),)`` instead of ``(3,)``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import libcst as cst
import pytest
from click.testing import CliRunner

from jaxlint.cli import cli

PRINTS = """\
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    loss = jnp.sum(x)
    print("shape", x.shape, "loss", loss)
    print(f"n={len(x)} shape {x.shape} loss {loss:.2f} {{lit}}")
    print("dims %d, %s" % (x.ndim, loss))
    print("shape {} dtype {} loss {}".format(x.shape, x.dtype, loss), 3)
    print(x.shape[0], loss, "{")
    jax.debug.print(f"rows {x.shape[0]}: {loss}")
    return loss


step(jnp.ones(3))
"""

PRINTS_FIXED = """\
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    loss = jnp.sum(x)
    jax.debug.print(f"shape {x.shape} loss {{}}", loss)
    jax.debug.print(f"n={len(x)} shape {x.shape} loss {{:.2f}} {{{{lit}}}}", loss)
    jax.debug.print(f"dims {x.ndim}, {{}}", loss)
    jax.debug.print(f"shape {x.shape} dtype {x.dtype} loss {{}} {3}", loss)
    jax.debug.print(f"{x.shape[0]} {{}} {{{{", loss)
    jax.debug.print(f"rows {x.shape[0]}: {{}}", loss)
    return loss


step(jnp.ones(3))
"""

# what the fixed program prints; the first line is what `print` printed for the shape
PRINTED = ["shape (3,) loss 3.0", "n=3 shape (3,) loss 3.00 {lit}", "dims 1, 3.0",
           "shape (3,) dtype float32 loss 3.0 3", "3 3.0 {", "rows 3: 3.0"]


def test_jax401_fix_folds_static_values_into_the_format(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "m.py").write_text(PRINTS)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--fix", "--unsafe-fixes",
                                      "--select", "JAX401", "m.py"])
    fixed = (tmp_path / "m.py").read_text()
    assert fixed == PRINTS_FIXED, result.output
    cst.parse_module(fixed)
    assert "(6 fixed, 0 remaining)" in result.output, result.output


def test_jax401_fixed_program_prints_the_static_values_as_print_did(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    (tmp_path / "fixed.py").write_text(PRINTS_FIXED)
    out = subprocess.run([sys.executable, str(tmp_path / "fixed.py")], capture_output=True,
                         text=True, timeout=300, check=True).stdout.splitlines()
    assert out == PRINTED
    # the shape as `print` shows it (the original's first line, at trace time)
    original = subprocess.run(
        [sys.executable, "-c", "import jax.numpy as jnp; x = jnp.ones(3); print('shape', x.shape)"],
        capture_output=True, text=True, timeout=300, check=True).stdout
    assert original == "shape (3,)\n"
