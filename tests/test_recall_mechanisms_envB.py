"""Configuration and timing that real code gets wrong (branch envB): `JAX_ENABLE_X64` set
after JAX was imported (also with `os.environ.setdefault`/`update`, after importing a project
module that imports JAX, in a function of a module whose package imports JAX: recall case
1633); x64 switched on by another module's helper (a re-exported function reached through
the package, a conditional switch, a method of a class: recall case 1634's twin); a
stopwatch around a method of a class of another module, and a timing context manager of
another module (recall case 1635); a jitted function made anew by a method, a lambda or
through a name, and called inline in a loop.

Each INVALID program was run with JAX 0.10.2 on CPU and shows what its comment says:

* JAX reads `JAX_ENABLE_X64` once, when `jax` is imported (`jax/_src/config.py`:
  `bool_state` calls `bool_env` as the option is defined), so setting it afterwards leaves
  x64 off: `jnp.array(1.0, dtype=jnp.float64)` warns and is `float32`;
* a jitted call returns before its work is done (asynchronous dispatch);
* `JAX_LOG_COMPILES=1` prints `Compiling jit(update)` once per iteration for a jit made
  anew each iteration (`jax.jit(partial(update, lr=lr))`, also `eqx.filter_jit`), and once
  in all for a factory under `functools.lru_cache`.

The VALID twins run and stay silent."""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str], select: str) -> list[tuple]:
    root.mkdir(parents=True, exist_ok=True)
    return lint_files(root, monkeypatch, files, select=select)


_LATE = "JAX reads it once, when it is imported, so x64 stays off (`jnp.float64` arrays are `float32`)"

# 1. `JAX_ENABLE_X64` set after JAX was imported: by `os.environ.setdefault` after `import
# jax.numpy`, by `environ.update({...})` after importing a project module that imports JAX,
# by `os.environ.update(JAX_ENABLE_X64=...)` in a function of a module importing JAX, and in
# a function of a module whose package `__init__` imports JAX (case 1633, BrainPy's
# `enable_x64`). Each prints `float32` for an array asked as float64 (and warns).
ENV_LATE = {
    "direct.py": """\
import os

import jax.numpy as jnp

os.environ.setdefault("JAX_ENABLE_X64", "True")
""",
    "model.py": """\
import jax.numpy as jnp


def predict(x):
    return jnp.sin(x)
""",
    "via_import.py": """\
from os import environ

import model

environ.update({"JAX_ENABLE_X64": "1"})
""",
    "helper.py": """\
import os

import jax


def use_double():
    os.environ.update(JAX_ENABLE_X64="true")
""",
    "lib/__init__.py": """\
from lib import math
""",
    "lib/math/__init__.py": """\
from jax import numpy

from .setting import *
""",
    "lib/math/setting.py": """\
import os

__all__ = ["enable_x64"]


def enable_x64(mode):
    os.environ["JAX_ENABLE_X64"] = str(int(mode))
""",
}

# the twins: the variable set before the first JAX import (here, and in `conftest.py`), next
# to `jax.config.update(...)` (or a helper calling it), for a child process, or in a module that imports no JAX; all
# of them give float64 arrays where they mean to
ENV_LATE_VALID = {
    "first.py": """\
import os

os.environ.setdefault("JAX_ENABLE_X64", "True")

import jax.numpy as jnp

x = jnp.array(1.0, dtype=jnp.float64)
""",
    "tests/conftest.py": """\
import os

os.environ.update({"JAX_ENABLE_X64": "1"})

import jax
""",
    "both.py": """\
import os

import jax


def enable_x64():
    os.environ["JAX_ENABLE_X64"] = "1"
    jax.config.update("jax_enable_x64", True)
""",
    "helped.py": """\
import os

import jax


def _apply(flag):
    jax.config.update("jax_enable_x64", flag)


def enable_x64():
    os.environ["JAX_ENABLE_X64"] = "1"
    _apply(True)
""",
    "launch.py": """\
import os
import subprocess

import jax


def launch(script):
    os.environ["JAX_ENABLE_X64"] = "1"
    subprocess.run(["python", script], check=True)
""",
    "settings.py": """\
import os


def enable_x64():
    os.environ["JAX_ENABLE_X64"] = "1"
""",
}


def test_env_set_after_jax_import(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, ENV_LATE, "JAX123") == [
        ("JAX123", "direct.py", 5, 1,
         "`JAX_ENABLE_X64` is set after `import jax`: JAX reads it when it is imported, so x64 stays off here. "
         "Set it before the first `import jax` (or call `jax.config.update(\"jax_enable_x64\", True)`)"),
        ("JAX123", "helper.py", 7, 5,
         f"`JAX_ENABLE_X64` is set in `use_double`, which runs after this module imported JAX (`import jax`, "
         f"line 3): {_LATE}. Call `jax.config.update(\"jax_enable_x64\", True)` instead"),
        ("JAX123", "lib/math/setting.py", 7, 5,
         f"`JAX_ENABLE_X64` is set in `enable_x64`, which runs after the package above this module imported "
         f"JAX (lib/math/__init__.py imports it): {_LATE}. Call `jax.config.update(\"jax_enable_x64\", True)` "
         "instead"),
        ("JAX123", "via_import.py", 5, 1,
         f"`JAX_ENABLE_X64` is set after `import model` (line 3) imported JAX (model.py imports it): {_LATE}. "
         "Set it before that import (or call `jax.config.update(\"jax_enable_x64\", True)`)"),
    ]


def test_env_set_before_jax_import_valid(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, ENV_LATE_VALID, "JAX123,JAX110") == []


# 2. x64 switched on by a helper of another module before the arrays are made: a function
# the package re-exports (`from .setting import *`, reached as `bp.math.enable_x64` and as
# `bm.enable_x64`: case 1634, whose `jax.config.update` gets `str(int(mode))`), one that
# switches under an `if`, and a method of a class (`Precision().apply()`, `p.apply()`).
# Each prints `float64`. The INVALID twin calls a method that switches nothing: `float32`.
X64_HELPERS = {
    "bp/__init__.py": """\
from bp import math
""",
    "bp/math/__init__.py": """\
from jax import numpy

from .setting import *
""",
    "bp/math/setting.py": """\
import jax

__all__ = ["enable_x64"]


def enable_x64(mode):
    jax.config.update("jax_enable_x64", str(int(mode)))
""",
    "cfg.py": """\
import jax


def setup(precision="double"):
    if precision == "double":
        jax.config.update("jax_enable_x64", True)


class Precision:
    def apply(self):
        jax.config.update("jax_enable_x64", True)

    def describe(self):
        return "x64" if jax.config.jax_enable_x64 else "x32"
""",
    "run_pkg.py": """\
import jax.numpy as jnp

import bp

if __name__ == "__main__":
    bp.math.enable_x64(True)
    x = jnp.linspace(0.0, 1.0, 3, dtype=jnp.float64)
    print("dtype:", x.dtype)
""",
    "run_alias.py": """\
import jax.numpy as jnp
from bp import math as bm


def main():
    bm.enable_x64(True)
    return jnp.zeros(3, dtype=jnp.float64)
""",
    "run_if.py": """\
import jax.numpy as jnp

import cfg

cfg.setup()
x = jnp.zeros(3, dtype=jnp.float64)
""",
    "run_method.py": """\
import jax.numpy as jnp

from cfg import Precision


def main():
    Precision().apply()
    return jnp.zeros(3, dtype=jnp.float64)


def main2():
    p = Precision()
    p.apply()
    return jnp.ones(3, dtype=jnp.float64)
""",
    "run_other.py": """\
import jax.numpy as jnp

from cfg import Precision


def main():
    print(Precision().describe())
    return jnp.zeros(3, dtype=jnp.float64)
""",
}


def test_x64_by_helpers_of_other_modules(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, X64_HELPERS, "JAX110") == [
        ("JAX110", "run_other.py", 8, 31,
         "`float64` requested in `jnp.zeros` is truncated to 32-bit because jax_enable_x64 is off (JAX only "
         "warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`"),
    ]


# 3. A stopwatch around a method of a class of another module whose result is a jitted
# call's (`graph.solve(b)`, the instance made by `Graph(a)`, `solver.Graph(a)` or the static
# constructor `FactorGraph.make(...)`, also re-exported by the package: case 1635), and a
# timing context manager of another module (a class whose `__exit__` reads the clock, a
# `@contextmanager` generator, imported by name or reached as `utils.stopwatch`). Each
# measures the dispatch: the interval is printed before the solve is done.
TIMING = {
    "gs/__init__.py": """\
from . import utils as utils
from ._graph import FactorGraph as FactorGraph
""",
    "gs/utils.py": """\
import contextlib
import time


@contextlib.contextmanager
def stopwatch(label):
    start = time.time()
    yield
    print(label, time.time() - start)


class Timer:
    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        print(f"took {time.perf_counter() - self.start:.3f}s")
""",
    "gs/_graph.py": """\
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def _solve(a, b):
    return jnp.linalg.solve(a, b)


class FactorGraph:
    def __init__(self, a):
        self.a = a

    @staticmethod
    def make(a):
        return FactorGraph(jnp.asarray(a))

    def solve(self, b):
        return _solve(self.a, b)

    def solve_host(self, b):
        return np.linalg.solve(np.asarray(self.a), np.asarray(b))
""",
    "bench_method.py": """\
import time

import jax.numpy as jnp

from gs._graph import FactorGraph

a = jnp.eye(3)
b = jnp.ones(3)
graph = FactorGraph(a)
t0 = time.perf_counter()
x = graph.solve(b)
dt = time.perf_counter() - t0
print(dt)
""",
    "bench_timers.py": """\
import jax.numpy as jnp

import gs
from gs.utils import Timer


def bench(a, b):
    graph = gs.FactorGraph.make(a)
    with gs.utils.stopwatch("solve"):
        sol = graph.solve(b)
    with Timer():
        sol = graph.solve(b)
    return sol
""",
}

# the twins: the result waited for before the stop (`.block_until_ready()`,
# `jax.block_until_ready`, `np.asarray`, `float`), or a method that returns a NumPy array
TIMING_VALID = {
    **{k: v for k, v in TIMING.items() if k.startswith("gs/")},
    "bench_ok.py": """\
import time
import timeit

import jax
import jax.numpy as jnp
import numpy as np

import gs
from gs.utils import Timer


def bench(a, b):
    graph = gs.FactorGraph.make(a)
    with gs.utils.stopwatch("solve"):
        sol = graph.solve(b).block_until_ready()
    with Timer():
        sol = jax.block_until_ready(graph.solve(b))
    t0 = time.perf_counter()
    host = np.asarray(graph.solve(b))
    dt = time.perf_counter() - t0
    t1 = timeit.default_timer()
    total = float(graph.solve(b).sum())
    dt1 = timeit.default_timer() - t1
    with Timer():
        ref = graph.solve_host(b)
    return sol, host, dt, total, dt1, ref
""",
}

_MANAGED = ("is the last JAX computation in the block timed by `with {}` (line {}), whose exit reads the clock "
            "while the computation may still be running (dispatch is asynchronous): this measures the dispatch "
            "(and, on a first call, the compilation), not the work. Wait for the result inside the block: "
            "`jax.block_until_ready(result)`")


def test_timing_methods_and_managers_of_other_modules(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, TIMING, "JAX505") == [
        ("JAX505", "bench_method.py", 12, 6,
         "`time.perf_counter()` is read while the JAX computation started on line 11 may still be running "
         "(dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not "
         "the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`"),
        ("JAX505", "bench_timers.py", 10, 15,
         "`graph.solve(b)` " + _MANAGED.format('gs.utils.stopwatch("solve")', 9)),
        ("JAX505", "bench_timers.py", 12, 15, "`graph.solve(b)` " + _MANAGED.format("Timer()", 11)),
    ]


def test_timing_multiline_call_named_by_its_callee(tmp_path, monkeypatch):
    # case 1635's spelling: the solve written over several lines is named `graph.solve(...)`
    files = {**{k: v for k, v in TIMING.items() if k.startswith("gs/")}, "bench_lines.py": """\
import jax.numpy as jnp

import gs


def bench(a, b):
    graph = gs.FactorGraph.make(a)
    with gs.utils.stopwatch("solve"):
        sol = graph.solve(
            b
        )
    return sol
"""}
    assert _lint(tmp_path, monkeypatch, files, "JAX505") == [
        ("JAX505", "bench_lines.py", 9, 15, "`graph.solve(...)` " + _MANAGED.format('gs.utils.stopwatch("solve")', 8)),
    ]


def test_timing_waited_or_host_results_valid(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, TIMING_VALID, "JAX505") == []


# 4. A jitted function made anew on each call and called inline in a loop: by a method
# (`self.make_step(lr)(params, b)`), by a lambda (`make = lambda lr: jax.jit(partial(...))`),
# and through a name the factory binds (`step = jax.jit(P(update, lr=lr)); return step`).
# `JAX_LOG_COMPILES=1` prints `Compiling jit(update)` once per iteration. The twins: the
# factory under `functools.lru_cache` (one compile in all), called once before the loop.
FRESH = {
    "train.py": """\
from functools import partial as P

import jax
import jax.numpy as jnp


def update(params, batch, lr):
    return params - lr * jnp.mean(batch)


make = lambda lr: jax.jit(P(update, lr=lr))


def make_named(lr):
    step = jax.jit(P(update, lr=lr))
    return step


class Trainer:
    def make_step(self, lr):
        return jax.jit(P(update, lr=lr))

    def fit(self, params, data, lr):
        for b in data:
            params = self.make_step(lr)(params, b)
        return params


def train(params, data, lr):
    for b in data:
        params = make(lr)(params, b)
    for b in data:
        params = make_named(lr)(params, b)
    return params
""",
}

FRESH_VALID = {
    "train.py": """\
import functools

import jax
import jax.numpy as jnp


def update(params, batch, lr):
    return params - lr * jnp.mean(batch)


@functools.lru_cache(maxsize=None)
def make(lr):
    return jax.jit(functools.partial(update, lr=lr))


class Trainer:
    def make_step(self, lr):
        return jax.jit(functools.partial(update, lr=lr))

    def fit(self, params, data, lr):
        step = self.make_step(lr)
        for b in data:
            params = step(params, b)
        return params


def train(params, data, lr):
    for b in data:
        params = make(lr)(params, b)
    return params
""",
}

_FRESH = ("`{}(...)` returns a new jitted function on every call, with a compile cache of its own: called in "
          "the loop, it traces and compiles again on every iteration, for the same arguments. Make the jitted "
          "function once, before the loop")


def test_fresh_jit_called_inline_in_loop(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, FRESH, "JAX501") == [
        ("JAX501", "train.py", 25, 22, _FRESH.format("self.make_step")),
        ("JAX501", "train.py", 31, 18, _FRESH.format("make")),
        ("JAX501", "train.py", 33, 18, _FRESH.format("make_named")),
    ]


def test_fresh_jit_cached_or_made_once_valid(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, FRESH_VALID, "JAX501") == []
