"""Batch 6's misses by mechanism (issue 22, branch recallN): arguments JAX needs as Python
values, host libraries given tracers, removed `jaxlib` modules, Python values vs tracers,
chained comparisons, and value facts through conversions and comprehensions.

Each INVALID program's error was observed with JAX 0.10.2 (the error named in the
message); the VALID twins run and stay silent."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from click.testing import CliRunner

from jaxlint.cli import cli


def _lint(root: Path, monkeypatch, files: dict[str, str], select: str = "") -> list[tuple]:
    (root / "pyproject.toml").write_text("")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    monkeypatch.chdir(root)
    args = ["check", ".", "--no-cache", "--output-format", "json"]
    if select:
        args += ["--select", select]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code in (0, 1), result.output
    return sorted(
        (f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"])
        for f in json.loads(result.stdout)
    )


# 1. Arguments JAX needs as Python values (cases 623, 659): not the sizes of MORE_SIZE_ARGS
# but every static parameter of JAX's own jitted functions and the arguments other functions
# turn into Python ints (jaxlint/model/static_args.py, derived by bench/static_args.py).

STATIC_INVALID = """\
import functools

import jax
import jax.numpy as jnp


def rotate(img, quarter_turns):
    return jnp.rot90(img, quarter_turns)


@jax.jit
def augment(img, turns):
    return rotate(img, turns) + 1.0


@jax.jit
def quantize(x, bits):
    return jax.lax.reduce_precision(x, exponent_bits=bits, mantissa_bits=2)


def upper(scores):
    offset = jnp.argmax(scores[0])
    return jnp.triu(scores, k=offset)


rot = jax.jit(jnp.rot90)(jnp.ones((3, 3)), 2)
band = jax.vmap(upper)(jnp.ones((2, 3, 3)))
"""

STATIC_VALID = """\
import functools

import jax
import jax.numpy as jnp


def rotate(img, quarter_turns):
    return jnp.rot90(img, quarter_turns)


@functools.partial(jax.jit, static_argnames="turns")
def augment(img, turns):
    return rotate(img, turns) + 1.0


@jax.jit
def powers(F, x, axis=-1):
    out = [jnp.linalg.matrix_power(F, i) @ x for i in range(3)]
    n = F.shape[0]
    return jnp.roll(jnp.stack(out), n, axis=axis), jnp.triu(F, k=n - 1)


rot = jax.jit(jnp.rot90, static_argnums=1)(jnp.ones((3, 3)), 2)
rot2 = jax.jit(functools.partial(jnp.rot90, k=2))(jnp.ones((3, 3)))
"""

_UNHASHABLE = "ValueError: Non-hashable static arguments are not supported"


def test_static_arguments_of_jax_functions(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"aug.py": STATIC_INVALID, "ok.py": STATIC_VALID}, "JAX202")
    assert found == [
        ("JAX202", "aug.py", 8, 27,
         "`k` of `jnp.rot90` must be a Python value (JAX compiles it into the computation), but it is "
         "traced: it depends on the traced argument `quarter_turns` of `rotate` (called from traced "
         f"`augment`); this raises {_UNHASHABLE}. Compute it from Python values (constants, shapes)"),
        ("JAX202", "aug.py", 18, 54,
         "`exponent_bits` of `lax.reduce_precision` must be a Python value (JAX compiles it into the "
         "computation), but it is traced: it depends on the traced argument `bits` of `quantize` "
         "(decorated with @jax.jit); this raises ConcretizationTypeError: Abstract tracer value "
         "encountered where concrete value is expected. Compute it from Python values (constants, "
         "shapes); or, if `bits` is a Python value, mark it static (static_argnums=1)"),
        ("JAX202", "aug.py", 23, 31,
         "`k` of `jnp.triu` must be a Python value (JAX compiles it into the computation), but it is "
         "traced: it depends on the traced argument `scores` of `upper` (wrapped by jax.vmap); this "
         f"raises {_UNHASHABLE}. Compute it from Python values (constants, shapes)"),
        ("JAX202", "aug.py", 26, 44,
         "`jax.jit(jnp.rot90)` traces every argument it is not told is static, so `k` of `jnp.rot90` "
         f"(here `2`) becomes a tracer; it must be a Python value ({_UNHASHABLE}). Mark it static "
         "(`jax.jit(jnp.rot90, static_argnums=1)`), or bind it first: `functools.partial(jnp.rot90, k=...)`"),
    ]


def test_static_argument_table_matches_installed_jax():
    """The table is what bench/static_args.py derives from the installed JAX."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, str(root / "bench" / "static_args.py"), "--check"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
