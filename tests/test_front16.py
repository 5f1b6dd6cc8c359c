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


SINGULAR = """\
import jax
import jax.numpy as jnp
from jax import lax


def loss(margin, n, x, d, u):
    a = jnp.where(margin > 0, -jnp.log(margin), 0.0)
    b = jnp.where(n > 1.0, x / n, x)
    c = jnp.where(d > 0, jnp.sqrt(d), 0.0)
    e = jnp.where(d > 0, d ** 1.5, 0.0)
    f = jnp.where(jnp.abs(u) < 1, jnp.arcsin(u), 0.0)
    g = jnp.where(n > 0, lax.log(n), 0.0)
    h = jnp.where(d > 0, d ** -1, 0.0)
    return jnp.sum(a + b + c + e + f + g + h)


grads = jax.grad(loss, argnums=(0, 1, 2, 3, 4))(1.0, 2.0, 3.0, 4.0, 0.5)
"""


def _jax120(op: str, cond: str, key: str, where: str, safe: str = "1.0") -> str:
    return (f"JAX120 `{op}` is computed for every element, also where `{cond}` is false and masks "
            f"it out; its derivative is infinite/NaN {where}, so the gradient of this `where` is "
            f"NaN (0 * inf). Guard `{key}` with the same condition too (double where: "
            f"`jnp.where(cond, {key}, {safe})` inside)")


def test_jax120_message_names_where_the_derivative_is_singular(tmp_path: Path, monkeypatch) -> None:
    """`log` (jnp and lax) and a division are singular at 0 only, `sqrt` at 0 and below,
    a power above 1 below 0, `arcsin` at +-1 and beyond, `x ** -1` at 0: the message says
    so instead of "there" (wherever the condition is false)."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "m.py").write_text(SINGULAR)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--output-format", "concise",
                                      "--select", "JAX120", "m.py"])
    assert result.output.splitlines() == [
        "m.py:7:32: " + _jax120("jnp.log(margin)", "margin > 0", "margin", "where `margin` is 0"),
        "m.py:8:28: " + _jax120("x / n", "n > 1.0", "n", "where `n` is 0"),
        "m.py:9:26: " + _jax120("jnp.sqrt(d)", "d > 0", "d", "where `d` is 0 or negative"),
        "m.py:10:26: " + _jax120("d ** 1.5", "d > 0", "d", "where `d` is negative"),
        "m.py:11:35: " + _jax120("jnp.arcsin(u)", "jnp.abs(u) < 1", "u", "where `u` is 1 or -1, or beyond",
                              "0.0"),
        "m.py:12:26: " + _jax120("lax.log(n)", "n > 0", "n", "where `n` is 0"),
        "m.py:13:26: " + _jax120("d ** -1", "d > 0", "d", "where `d` is 0"),
        "Found 7 warnings (7 fixable with --unsafe-fixes).",
    ]


def test_jax120_singular_points_hold_in_jax() -> None:
    """What the messages say, checked with JAX: the masked gradient is NaN at the named
    point and finite off it (a negative input to `log`, a non-zero divisor)."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy

    def masked(f, at):
        return float(jax.grad(lambda v: jnp.where(False, f(v), 0.0))(at))

    nan = float("nan")
    table = {"log": (jnp.log, {0.0: nan, -1.0: 0.0, 2.0: 0.0}),
             "div": (lambda v: 1.0 / v, {0.0: nan, -1.0: 0.0, 2.0: 0.0}),
             "pow-1": (lambda v: v ** -1, {0.0: nan, -1.0: 0.0}),
             "sqrt": (jnp.sqrt, {0.0: nan, -1.0: nan, 2.0: 0.0}),
             "pow1.5": (lambda v: v ** 1.5, {0.0: 0.0, -1.0: nan}),
             "arcsin": (jnp.arcsin, {1.0: nan, -1.0: nan, 2.0: nan, 0.0: 0.0})}
    for name, (f, points) in table.items():
        for at, want in points.items():
            got = masked(f, at)
            assert (got != got) == (want != want) and (want != want or got == 0.0), (name, at, got)


# ----------------------------------------------------------------------------- confirm --run, JAX120

BARRIER = """\
import jax
import jax.numpy as jnp


def barrier_loss(params, x):
    margin = params["w"] * x - 1.0
    penalty = jnp.where(margin > 0, -jnp.log(margin), 0.0)
    return jnp.sum(penalty)


def scaled(w, b, x):
    n = w * x - b
    return jnp.sum(jnp.where(n != 0.0, x / n, 0.0))


def barrier_ok(params, x):
    margin = params["w"] * x - 1.0
    safe = jnp.where(margin > 0, margin, 1.0)
    return jnp.sum(jnp.where(margin > 0, -jnp.log(safe), 0.0))


params = {"w": jnp.float32(0.5)}
x = jnp.array([1.0, 4.0, 2.0])
print("grad:", jax.grad(barrier_loss)(params, x)["w"])
print("grad:", jax.value_and_grad(scaled, argnums=(0, 1))(jnp.float32(1.0), jnp.float32(2.0), x)[1])
print("grad:", jax.grad(barrier_ok)(params, x)["w"])
"""


def _confirm(cwd: Path, *args: str) -> tuple[int, list[dict], str]:
    import json

    proc = subprocess.run([sys.executable, "-m", "jaxlint", "confirm", "--no-cache",
                           "--output-format", "json", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=900)
    return proc.returncode, json.loads(proc.stdout or "[]"), proc.stderr


def test_confirm_differentiates_the_observed_inputs_and_every_floating_argument(tmp_path: Path) -> None:
    """The run differentiates `params` (a dict) at w = 0.5, where a masked `margin` is 0:
    the probe takes the gradient with respect to every floating-point argument (a pytree
    too) at the values the run called the function with (under `jax.grad` and
    `jax.value_and_grad`), and reproduces the NaN the run printed; the double-where twin
    (its gradient -4.0 in the run) is not reported."""
    pytest.importorskip("jax")
    (tmp_path / "barrier.py").write_text(BARRIER)
    ran = subprocess.run([sys.executable, "barrier.py"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300, check=True).stdout.splitlines()
    assert ran[0] == "grad: nan" and ran[2] == "grad: -4.0", ran
    rc, findings, err = _confirm(tmp_path, "--run", "python barrier.py", "barrier.py")
    got = [(f["code"], f["location"]["row"], f["function"], f["runtime"]["verdict"],
            f["runtime"].get("evidence") or f["runtime"].get("reason")) for f in findings]
    assert got == [
        ("JAX120", 7, "barrier_loss", "confirmed",
         "jax.grad (with respect to arguments 0, 1) at the inputs observed in --run has 2 NaN "
         "value(s) while the function value is finite (0)"),
        ("JAX120", 13, "scaled", "confirmed",
         "jax.grad (with respect to arguments 0, 1, 2) at the inputs observed in --run has 3 NaN "
         "value(s) while the function value is finite (1)"),
    ], err
    assert rc == 1


def test_confirm_takes_output_format_concise(tmp_path: Path) -> None:
    """`confirm --output-format concise` (which `check` and `observe` take): one line per
    finding, then the counts; a script that swaps `check` for `confirm` keeps working."""
    pytest.importorskip("jax")
    (tmp_path / "m.py").write_text(
        "import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef f(x: jax.Array):\n"
        "    if x.sum() > 0:\n        return x\n    return -x\n")
    proc = subprocess.run([sys.executable, "-m", "jaxlint", "confirm", "--no-cache",
                           "--output-format", "concise", "m.py"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=900)
    lines = proc.stdout.splitlines()
    assert (proc.returncode, len(lines), lines[-1]) == (1, 2, "1 confirmed"), proc.stderr
    assert lines[0].startswith("m.py:7:8: JAX201 confirmed in f: "), lines


NOQA = """\
import jax
import jax.numpy as jnp


@jax.jit
def f(x, y):
    if (x.sum()
            > 0):  # noqa: JAX201
        y = -y
    if (x.sum()  # noqa: JAX201
            > 0):
        y = -y
    z = jnp.mean(
        [x, y],  # noqa: JAX130
    )
    w = jnp.mean(
        [x, y],
    )  # noqa: JAX130
    s = '''text
''' + jnp.mean([x, y])  # noqa: JAX130
    return z, w, s
"""


def test_noqa_goes_on_the_line_the_finding_is_reported_at(tmp_path: Path, monkeypatch) -> None:
    """Ruff's rule, the same for every code: a `# noqa` on the finding's reported line
    (the multi-line `if` test's first line, the list's line in a call over three lines)
    suppresses it; one on a later line of the statement does not (the `if` test's last
    line, the call's closing parenthesis); after a multi-line string, on the line the
    finding is at."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "n.py").write_text(NOQA)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--output-format", "concise",
                                      "--select", "JAX201,JAX130", "n.py"])
    assert [line.split(" ")[:2] for line in result.output.splitlines()[:-1]] == [
        ["n.py:7:9:", "JAX201"], ["n.py:17:9:", "JAX130"]], result.output


INT_LEAF = """\
import jax
import jax.numpy as jnp


def loss(params, x):
    h = params["w"] * x
    return jnp.sum(jnp.where(h > 0, jnp.sqrt(h), 0.0)) * params["n"]


if __name__ == "__main__":
    p = {"w": jnp.ones(3), "n": jnp.asarray(2)}
    print(loss(p, jnp.array([0.0, 1.0, 2.0])))
"""


def test_confirm_differentiates_a_pytree_with_an_integer_leaf(tmp_path: Path) -> None:
    """The diff review's shape: `params` holds an int32 step count beside the float
    weights. `jax.grad` over the whole dict raises on the integer leaf unless told
    `allow_int`; the probe takes it (the integer's gradient is float0, not counted) and
    reproduces the NaN at h = 0."""
    pytest.importorskip("jax")
    (tmp_path / "mod.py").write_text(INT_LEAF)
    rc, findings, err = _confirm(tmp_path, "--run", "python mod.py", "mod.py")
    got = [(f["code"], f["location"]["row"], f["function"], f["runtime"]["verdict"]) for f in findings]
    assert got == [("JAX120", 7, "loss", "confirmed")], err
    assert "NaN value(s) while the function value is finite" in findings[0]["runtime"]["evidence"]
