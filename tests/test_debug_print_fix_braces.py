"""JAX401's fix to ``jax.debug.print`` is offered only where JAX prints what the
user's ``print`` meant: JAX decides whether a format has placeholders from its
first chunk, so a doubled brace before the first ``{}`` makes it print the format
raw (``shape {{n}} {} 2.5``).  The fixed program is run with real JAX."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import libcst as cst
import pytest
from click.testing import CliRunner

from jaxlint.cli import cli

SOURCE = """\
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    print("shape {n}", x)
    print("a{", x)
    print(x, "{}")
    print("loss", x, "at {step}")
    print(f"dict {{k}}: {x}")
    print("100% done", x)
    return x


f(jnp.float32(2.5))
"""

FIXED = """\
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    print("shape {n}", x)
    print("a{", x)
    jax.debug.print("{} {{}}", x)
    jax.debug.print("loss {} at {{step}}", x)
    print(f"dict {{k}}: {x}")
    jax.debug.print("100% done {}", x)
    return x


f(jnp.float32(2.5))
"""


def test_the_fix_is_withheld_where_jax_would_print_the_format_raw(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "m.py").write_text(SOURCE)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--fix", "--unsafe-fixes", "--select", "JAX401", "m.py"])
    fixed = (tmp_path / "m.py").read_text()
    assert fixed == FIXED
    cst.parse_module(fixed)
    assert "Found 6 errors (3 fixed, 3 remaining)." in result.output
    lines = [ln.split(": ")[0] for ln in result.output.splitlines() if ln.startswith("m.py:")]
    assert lines == ["m.py:7:5", "m.py:8:5", "m.py:11:5"]


def test_the_fixed_program_prints_what_print_meant(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    (tmp_path / "fixed.py").write_text(FIXED)
    out = subprocess.run([sys.executable, str(tmp_path / "fixed.py")], capture_output=True, text=True,
                         timeout=300, check=True).stdout.splitlines()
    # the three prints left as they are print the tracer at trace time, the fixed ones the value
    assert out[3:] == ["2.5 {}", "loss 2.5 at {step}", "100% done 2.5"]
