"""Batch 6's groups A and J by mechanism (issue 22, branch recallM): PRNG key flow that JAX301
could not represent, and asynchronous work handed back by helpers (JAX505).  Each INVALID
line was run with JAX 0.10.2 (flax, equinox in the .venv) and draws the same numbers (or times
the dispatch) as the message says; each VALID twin draws fresh numbers (or waits)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from jaxlint.cli import cli


def _lint(root: Path, monkeypatch, files: dict[str, str], *extra: str) -> list[tuple]:
    (root / "pyproject.toml").write_text("")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "json", *extra])
    assert result.exit_code in (0, 1), result.output
    return sorted(
        (f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"])
        for f in json.loads(result.stdout)
    )


def _505(started: int) -> str:
    return (f"`time.perf_counter()` is read while the JAX computation started on line {started} may still be "
            "running (dispatch is asynchronous): this measures the dispatch, not the work. Wait for the result "
            "first: `jax.block_until_ready(result)` or `result.block_until_ready()`")


# ---------------------------------------------------------------- JAX505 through helpers (J)
MODEL = """\
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def forward(params, x):
    return jnp.tanh(x @ params)


def predict(params, x):
    out = forward(params, x)
    return out


def predict_host(params, x):
    return np.asarray(forward(params, x))


def predict_logged(params, x):
    out = forward(params, x)
    print("predicted", out.shape)
    return out
"""

BENCH = """\
import time
import timeit

import jax
import jax.numpy as jnp

from pkg import model
from pkg.model import predict, predict_host, predict_logged


class Runner:
    def __init__(self, params):
        self.params = params
        self._step = jax.jit(lambda p, x: jnp.tanh(x @ p))

    def run(self, x):
        return self._step(self.params, x)

    def run_ready(self, x):
        return jax.block_until_ready(self._step(self.params, x))


params = jnp.eye(256)
x = jnp.ones((256, 256))
runner = Runner(params)
smooth = lambda v: model.forward(params, v)

start = time.perf_counter()
y = predict(params, x)
elapsed = time.perf_counter() - start

start = time.perf_counter()
y = model.predict(params, x)
elapsed = time.perf_counter() - start

start = time.perf_counter()
y = runner.run(x)
elapsed = time.perf_counter() - start

start = time.perf_counter()
y = smooth(x)
elapsed = time.perf_counter() - start

print(timeit.timeit(lambda: predict(params, x), number=10))

start = time.perf_counter()
y = predict_host(params, x)
elapsed = time.perf_counter() - start

start = time.perf_counter()
y = predict_logged(params, x)
elapsed = time.perf_counter() - start

start = time.perf_counter()
y = runner.run_ready(x)
elapsed = time.perf_counter() - start

start = time.perf_counter()
y = predict(params, x).block_until_ready()
elapsed = time.perf_counter() - start
"""


def test_helper_returning_a_jitted_result_is_async_work(tmp_path, monkeypatch):
    """A timed call of a helper that returns a jitted call's result without waiting: imported by
    name or through its module, a method reaching `self._step = jax.jit(...)`, a lambda, a
    `timeit` lambda.  Silent: a helper that converts to NumPy, one that prints (a host sync),
    one that waits, a result waited for."""
    got = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/model.py": MODEL, "bench.py": BENCH})
    assert got == [
        ("JAX505", "bench.py", 30, 11, _505(29)),
        ("JAX505", "bench.py", 34, 11, _505(33)),
        ("JAX505", "bench.py", 38, 11, _505(37)),
        ("JAX505", "bench.py", 42, 11, _505(41)),
        ("JAX505", "bench.py", 44, 7,
         "`timeit.timeit(...)` times `predict(...)`, a JAX computation that is dispatched asynchronously and "
         "never waited for: this measures the dispatch, not the work. Time "
         "`jax.block_until_ready(predict(params, x))` instead"),
    ]
