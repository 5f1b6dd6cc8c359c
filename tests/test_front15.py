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
        ("JAX120", 16, "reversed_bound", "confirmed",
         f"jax.grad at the boundary point (argument 0 = 0.5) {nan}"),
        ("JAX120", 24, "log_shifted_ok", "not-reproduced", "jax.grad at argument 0 = 0 and at 1 is finite"),
    ]
    assert rc == 1
