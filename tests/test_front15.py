"""A new user's review (newuser15): the runtime companion, MCP and encodings.

Runtime verdicts come from real JAX on CPU (skipped cleanly when JAX cannot be imported)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def _jaxlint(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jaxlint", *args], cwd=cwd, capture_output=True,
                          text=True, env=env, timeout=600)


def _confirm(cwd: Path, *args: str) -> tuple[int, list[dict], str]:
    proc = _jaxlint("confirm", "--no-cache", "--output-format", "json", *args, cwd=cwd)
    return proc.returncode, json.loads(proc.stdout or "[]"), proc.stderr


def _verdicts(findings: list[dict]) -> list[tuple]:
    return [(f["code"], f["location"]["row"], f["function"], f["runtime"]["verdict"],
             f["runtime"].get("evidence") or f["runtime"].get("reason")) for f in findings]


# ----------------------------------------------------------------------------- JAX120's probe

GRADS = """\
import jax
import jax.numpy as jnp
from jax import lax
import jax.numpy as np_


def log_above_one(x: jax.Array):
    return jnp.where(x > 1.0, jnp.log(x - 1.0), 0.0)


def below_minus_one(x: jax.Array):
    return lax.select(x < -1.0, jnp.log(-1.0 - x), jnp.zeros_like(x))


def reversed_bound(x: jax.Array):
    return np_.where(
        0.5 < x,
        np_.log(x - 0.5),
        0.0,
    )


def log_shifted_ok(x: jax.Array):
    return jnp.where(x > 1.0, jnp.log(x + 1.0), 0.0)
"""


def test_jax120_is_probed_at_the_number_its_condition_compares_with(tmp_path: Path) -> None:
    """The NaN gradient of `where(x > 1.0, log(x - 1.0), 0)` is at x = 1, not at 0: the
    probe also fills the argument with each number the condition compares with (inline,
    `lax.select`, an alias, the number written first, a call over several lines); a
    branch whose gradient is finite at both points stays not-reproduced, naming both."""
    pytest.importorskip("jax")
    (tmp_path / "grads.py").write_text(GRADS)
    rc, findings, _ = _confirm(tmp_path, "grads.py")
    nan = "has 8 NaN value(s) while the function value is finite (0)"
    assert _verdicts(findings) == [
        ("JAX120", 8, "log_above_one", "confirmed", f"jax.grad at the boundary point (argument 0 = 1) {nan}"),
        ("JAX120", 12, "below_minus_one", "confirmed",
         f"jax.grad at the boundary point (argument 0 = -1) {nan}"),
        ("JAX120", 18, "reversed_bound", "confirmed",
         f"jax.grad at the boundary point (argument 0 = 0.5) {nan}"),
        ("JAX120", 24, "log_shifted_ok", "not-reproduced", "jax.grad at argument 0 = 0 and at 1 is finite"),
    ]
    assert rc == 1


# ----------------------------------------------------------------------------- --run commands

LOSSES = """\
import jax
import jax.numpy as jnp


@jax.jit
def mse(pred, y):
    if (pred - y).max() > 1.0:
        return jnp.mean((pred - y) ** 2)
    return jnp.mean(jnp.abs(pred - y))
"""
TRAIN = """\
import jax.numpy as jnp

from mypkg.losses import mse

if __name__ == "__main__":
    print(mse(jnp.ones(3), jnp.zeros(3)))
"""
# a `python` first on PATH that has no JAX: what an unactivated venv gives a --run
NO_JAX_PYTHON = """\
#!/bin/sh
echo "ModuleNotFoundError: No module named 'jax'" >&2
exit 1
"""


@pytest.fixture
def src_project(tmp_path: Path) -> tuple[Path, dict]:
    import os

    pkg = tmp_path / "proj" / "src" / "mypkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "losses.py").write_text(LOSSES)
    (pkg / "train.py").write_text(TRAIN)
    fake = tmp_path / "fakebin"
    fake.mkdir()
    for name in ("python", "python3"):
        (fake / name).write_text(NO_JAX_PYTHON)
        (fake / name).chmod(0o755)
    env = dict(os.environ, PATH=f"{fake}{os.pathsep}{os.environ.get('PATH', '')}")
    return tmp_path / "proj", env


@pytest.mark.skipif(sys.platform == "win32", reason="the PATH shim is a POSIX script")
@pytest.mark.parametrize("command", ["cd src && python -m mypkg.train",
                                     "PYTHONPATH=src python3 src/mypkg/train.py"])
def test_a_run_calling_python_after_its_first_word_uses_jaxlints_interpreter(
        src_project: tuple[Path, dict], command: str) -> None:
    """`confirm` suggests `cd src && python -m mypkg.train`: it runs as printed, with
    jaxlint's interpreter, though the `python` on the user's PATH has no JAX (the venv
    not activated), as a command whose first word is `python` does."""
    pytest.importorskip("jax")
    root, env = src_project
    proc = _jaxlint("confirm", "--no-cache", "--output-format", "json", "src/", "--run", command,
                    cwd=root, env=env)
    assert [(f["code"], f["filename"], f["location"]["row"], f["runtime"]["verdict"])
            for f in json.loads(proc.stdout)] == [("JAX201", "src/mypkg/losses.py", 7, "confirmed")]
    # it ran with JAX (the recorder saw it) and ended on the bug itself
    [line] = [ln for ln in proc.stderr.splitlines() if ln.startswith("jaxlint: --run")]
    assert line.startswith(f"jaxlint: --run `{command}`: exit status 1 in ")
    assert "1 Python process(es) recorded" in line
    assert "No module named 'jax'" not in proc.stderr


def test_a_run_that_crashed_is_named_in_the_skip_reason(src_project: tuple[Path, dict]) -> None:
    """A --run that did not run to its end is named, with how it ended and its last
    line, where the reason said only "no --run command called it" (CLI JSON too)."""
    pytest.importorskip("jax")
    root, env = src_project
    command = "python -c 'import nonexistent_module_xyz'"
    rc, findings, err = _confirm(root, "src/", "--run", command)
    [f] = findings
    assert (f["code"], f["location"]["row"], f["runtime"]["verdict"]) == ("JAX201", 7, "skipped")
    assert f["runtime"]["reason"] == (
        "no input for argument `pred`: run code that calls it (--run), declare it in JAXLINT_INPUTS "
        "or [tool.jaxlint.runtime] inputs, or annotate it; no --run command called it "
        f"(`{command}` ended with exit status 1: ModuleNotFoundError: No module named "
        "'nonexistent_module_xyz'); try --run \"cd src && python -m mypkg.train\" (it calls `mse`)")
    assert rc == 0


# ----------------------------------------------------------------------------- inputs and devices

KEYS = """\
import jax
from jax import Array


def twice(key: jax.Array):
    a = jax.random.normal(key, (2,))
    b = jax.random.normal(key, (2,))
    return a + b


def twice_rng(rng: Array, x: Array):
    noise = jax.random.uniform(rng, (2,))
    return x[:2] + noise + jax.random.uniform(rng, (2,))
"""


def test_a_key_annotated_jax_array_is_built_as_a_key(tmp_path: Path) -> None:
    """`key: jax.Array` (the type of every array, keys too): a parameter the name calls a
    key is given a key, not an f32[8] that JAX refuses as key data; the other argument
    keeps its array, and annotations are named as written (`jax.Array`)."""
    pytest.importorskip("jax")
    (tmp_path / "keys.py").write_text(KEYS)
    rc, findings, _ = _confirm(tmp_path, "keys.py")
    assert [(f["code"], f["location"]["row"], f["function"], f["runtime"]["verdict"],
             f["runtime"]["inputs"]) for f in findings] == [
        ("JAX301", 7, "twice", "confirmed", ["key: key (annotated jax.Array, a key by its name)"]),
        ("JAX301", 13, "twice_rng", "confirmed",
         ["rng: key (annotated jax.Array, a key by its name)",
          "x: f32[8] (from annotation jax.Array, default size)"]),
    ]
    assert rc == 1


def test_a_device_that_is_not_there_is_an_error(tmp_path: Path) -> None:
    """`--device gpu` where JAX finds no GPU: one error line that says so (not an empty
    "AssertionError:"), exit status 2, the findings skipped with the same reason."""
    jax = pytest.importorskip("jax")
    try:
        jax.devices("cuda")
        pytest.skip("a GPU is here")
    except RuntimeError:
        pass
    (tmp_path / "upd.py").write_text("import jax\n\n\n@jax.jit\ndef upd(x: jax.Array):\n"
                                     "    x[0] = 1.0\n    return x\n")
    rc, findings, err = _confirm(tmp_path, "upd.py", "--device", "gpu")
    line = ("JAX could not start the cuda backend (--device gpu): no cuda device found "
            "(AssertionError from jax.devices())")
    assert f"error: {line}\n" in err
    assert _verdicts(findings) == [("JAX101", 6, "upd", "skipped", f"the module failed to import: {line}")]
    assert rc == 2


# ----------------------------------------------------------------------------- where a reason points

HELPERS = """\
import jax


def check(pred):
    if pred.sum() > 0:
        return pred
    return -pred
"""
STEP = """\
import jax

from mypkg.helpers import check


def step(key):
    a = jax.random.normal(key, (3,))
    b = check(a)
    return b + jax.random.normal(key, (3,))
"""


def test_a_skip_reason_names_the_file_an_exception_was_raised_in(tmp_path: Path) -> None:
    """The checked function's line is its call; the line that raised is in another
    module of the project: the reason names both (`line 8 (raised at PATH:5)`)."""
    pytest.importorskip("jax")
    pkg = tmp_path / "mypkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "helpers.py").write_text(HELPERS)
    (pkg / "step.py").write_text(STEP)
    _rc, findings, _ = _confirm(tmp_path, "mypkg/step.py", "--select", "JAX301")
    [f] = findings
    assert (f["code"], f["location"]["row"], f["runtime"]["verdict"]) == ("JAX301", 9, "skipped")
    assert f["runtime"]["reason"] == (
        "the key-reuse checker could not trace it: jax.errors.TracerBoolConversionError at line 8 "
        f"(raised at {Path('mypkg', 'helpers.py')}:5): Attempted boolean conversion of traced array "
        "with shape bool[].")


# ----------------------------------------------------------------------------- small things

@pytest.mark.parametrize("typed,meant", [("JAX2O1", "JAX201"), ("jax1o1", "JAX101"), ("JAXI01", "JAX101"),
                                         ("JAX21l", "JAX211")])
def test_a_letter_typed_for_a_digit_suggests_the_code_it_looks_like(typed: str, meant: str) -> None:
    from jaxlint.rules import all_rules
    from jaxlint.workspace.ruleinfo import did_you_mean

    assert did_you_mean(all_rules(), typed) == f"; did you mean {meant}?"


def test_bench_names_a_not_jitted_functions_compile_time_as_the_eager_ops() -> None:
    """`compiles 0/0` beside `compile 254.68 ms`: no function of the user's compiled, so
    the time is JAX's eager ops' own; a jitted or compiling variant keeps its figure."""
    from jaxlint.runtime.report import _variant_cells

    base = {"compile_s": 0.25468, "steady_median_s": 3e-4, "steady_min_s": 2e-4, "steady_max_s": 7e-4,
            "compiles_per_steady_call": 0}
    eager = dict(base, mode="called as written", compiles_first_call=0)
    assert _variant_cells(eager)[0] == "n/a: not jitted (JAX's eager ops compiled in 254.68 ms)"
    assert _variant_cells(eager)[2] == "0/0"
    inner = dict(base, mode="called as written", compiles_first_call=1)
    assert _variant_cells(inner)[0] == "254.68 ms"
    jitted = dict(base, mode="jax.jit", compiles_first_call=1)
    assert _variant_cells(jitted)[0] == "254.68 ms"


@pytest.mark.parametrize("tail,line", [
    ("Traceback (most recent call last):\n  File \"t.py\", line 3, in <module>\n"
     "jax.errors.TracerBoolConversionError: Attempted boolean conversion\n"
     "See https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerBoolConversionError\n\n"
     "--------------------\nFor simplicity, JAX has removed its internal frames from the traceback of the "
     "following exception. Set JAX_TRACEBACK_FILTERING=off to include these.\n",
     "jax.errors.TracerBoolConversionError: Attempted boolean conversion"),
    ("ValueError: bad\njaxlint: cell(s) 7 raised\n", "jaxlint: cell(s) 7 raised"),
    ("ModuleNotFoundError: No module named 'x'\n", "ModuleNotFoundError: No module named 'x'"),
    ("", ""),
])
def test_a_failed_runs_last_line_is_the_exception_above_jaxs_note(tail: str, line: str) -> None:
    from jaxlint.runtime.observe import last_line

    assert last_line(tail) == line
