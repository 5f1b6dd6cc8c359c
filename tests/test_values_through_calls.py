"""Shapes, integers and kinds through calls (model/returns.py, Value.const): what a helper
of the file returns for a call, ``self.attr`` set once in ``__init__``, a dataclass's integer
default, ``x.shape[0]`` of a known shape, ``len()`` of a list built by a comprehension,
module constants and no-argument helpers of another module; and the rules that use them:
out-of-bounds indices (JAX121), unrolled loops (JAX502), in-place updates (JAX101), NumPy
on tracers (JAX204).  Every INVALID file is written at least two ways, each checked with
JAX (the index is clamped silently, the update raises TypeError, NumPy raises
TracerArrayConversionError); every VALID twin is the same code where the value is not
known or not a JAX array, and stays silent."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from jaxlint.cli import cli
from rule_examples import lint

OOB1 = '''\
import jax.numpy as jnp


def make_table():
    return jnp.zeros((3, 4))


def make_steps(n=5):
    steps = jnp.arange(n)
    steps = steps * 2
    return steps


def bins(edges):
    return jnp.zeros((edges.shape[0] - 1, 2))


def main():
    edges = jnp.linspace(0.0, 1.0, 6)
    return make_table()[5], make_steps()[7], bins(edges)[5, 0], make_table()[1, 4]
'''

OOB1_VALID = '''\
import jax.numpy as jnp


def make_table():
    return jnp.zeros((3, 4))


def make_steps(n=5):
    steps = jnp.arange(n)
    return steps


def grow(x):
    if x.shape[0] < 10:
        x = jnp.concatenate([x, x])
    return x


def main(k):
    return make_table()[2, 3], make_steps(10)[7], grow(jnp.zeros(4))[6], make_steps(k)[7]
'''

OOB2 = '''\
import jax
import jax.numpy as jnp


class Buffer:
    def __init__(self):
        self.slots = jnp.zeros((4, 3))
        self.rows = self.slots.shape[0]

    def last(self):
        return self.slots[self.rows]


class Ring:
    def __init__(self):
        self.data = jnp.arange(8)

    @jax.jit
    def peek(self):
        return self.data[8]


@jax.jit
def f(x):
    y = jnp.ones((300, 2))
    n = y.shape[0]
    return x + y[n]
'''

OOB2_VALID = '''\
import jax.numpy as jnp


class Buffer:
    def __init__(self):
        self.slots = jnp.zeros((4, 3))

    def last(self):
        return self.slots[3]


class Ring:
    def __init__(self):
        self.data = jnp.arange(8)

    def peek(self):
        return self.data[9]


def resize(r):
    r.data = jnp.arange(16)


def f(x):
    y = jnp.ones((300, 2))
    n = y.shape[0]
    for i in range(3):
        n = n - 1
        x = x + y[n]
    return x
'''

LOOP1 = '''\
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Config:
    n_layers: int = 400
    width: int = 8


CONFIG = Config()


def make_blocks(n):
    return [jnp.eye(4) * i for i in range(n)]


@jax.jit
def deep(x):
    for _ in range(CONFIG.n_layers):
        x = jnp.tanh(x)
    return x


@jax.jit
def grid_sum(x):
    grid = jnp.zeros((256, 2))
    for i in range(grid.shape[0]):
        x = x + grid[i]
    return x


@jax.jit
def stack(x):
    blocks = [jnp.eye(4) * i for i in range(150)]
    for i in range(len(blocks)):
        x = blocks[i] @ x
    return x
'''

LOOP1_VALID = '''\
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class Config:
    n_layers: int = 400


CONFIG = Config()
CONFIG.n_layers = 4


@jax.jit
def deep(x):
    for _ in range(CONFIG.n_layers):
        x = jnp.tanh(x)
    return x


@jax.jit
def grid_sum(x):
    grid = jnp.zeros((16, 2))
    for i in range(grid.shape[0]):
        x = x + grid[i]
    return x


@jax.jit
def stack(x):
    blocks = [jnp.eye(4) * i for i in range(15)]
    for i in range(len(blocks) * 6):
        x = blocks[i] @ x
    return x
'''

INPLACE1 = '''\
import jax
import jax.numpy as jnp


def init_state(n):
    state = jnp.zeros(n)
    state = state + 1.0
    return state


def init_pair(key):
    w = jax.random.normal(key, (3, 3))
    return w, jnp.zeros(3)


class Tracker:
    def __init__(self, key):
        self.counts = init_state(4)

    def hit(self, i):
        self.counts[i] += 1


class Layer:
    def _reset(self, weights):
        weights[0] = 0.0
        return weights

    def reset(self):
        return self._reset(jnp.ones(3))


def main(key):
    s = init_state(3)
    s[0] = 5.0
    w, b = init_pair(key)
    b[1] -= 1.0
    return s, w, b
'''

INPLACE1_VALID = '''\
import numpy as np
import jax.numpy as jnp


def init_state(n):
    return np.zeros(n)


def maybe(n):
    if n > 3:
        return jnp.zeros(n)
    return [0.0] * n


class Tracker:
    def __init__(self):
        self.counts = init_state(4)

    def hit(self, i):
        self.counts[i] += 1


class Layer:
    def _reset(self, weights):
        weights[0] = 0.0
        return weights

    def reset(self):
        return self._reset(np.ones(3))


def main():
    s = init_state(3)
    s[0] = 5.0
    m = maybe(2)
    m[0] = 1.0
    return s, m
'''

NP1 = '''\
import functools

import jax
import jax.numpy as jnp
import numpy as np


def split_state(s):
    pos = jnp.tanh(s)
    return pos, pos * 2.0


class Integrator:
    def state(self, x):
        return jnp.sin(x), jnp.cos(x)

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, x):
        pos, vel = self.state(x)
        return np.concatenate([pos, vel])


@jax.jit
def energy(s):
    pos, vel = split_state(s)
    return np.exp(vel) + pos


@jax.jit
def penalty(params):
    return sum(np.square(leaf).sum() for leaf in jax.tree_util.tree_leaves(params))

'''

NP1_VALID = '''\
import jax
import jax.numpy as jnp
import numpy as np


def split_state(s):
    pos = np.tanh(s)
    return pos, pos * 2.0


class Integrator:
    def state(self, x):
        return jnp.sin(x), jnp.cos(x)

    def step(self, x):
        pos, vel = self.state(x)
        return np.concatenate([pos, vel])


@jax.jit
def energy(s):
    pos, vel = split_state(np.ones(3))
    return np.exp(vel) + s


def penalty(params, config):
    return sum(np.square(leaf).sum() for leaf in jax.tree_util.tree_leaves(config))


penalty_jit = jax.jit(penalty, static_argnums=1)
out = Integrator().step(np.ones(3))
'''

LOOP2 = '''\
import jax
import jax.numpy as jnp

N = 200


@jax.jit
def integrate(x):
    for t in jnp.linspace(0.0, 1.0, 200):
        x = x + t * x
    return x


@jax.jit
def accumulate(x):
    grid = jnp.zeros((300, 2))
    for row in grid:
        x = x + row
    return x


@jax.jit
def weighted(x):
    for i, t in enumerate(range(N)):
        x = x * t + i
    return x
'''

LOOP2_VALID = '''\
import jax
import jax.numpy as jnp

N = 20


@jax.jit
def integrate(x):
    for t in jnp.linspace(0.0, 1.0, 20):
        x = x + t * x
    return x


@jax.jit
def accumulate(x, grid):
    for row in grid:
        x = x + row
    return x


@jax.jit
def weighted(x):
    for i, t in enumerate(range(N)):
        x = x * t + i
    return x
'''

# integers every call passes: a scalar array to a jitted window, a Python int to a helper
OOB3 = '''\
import jax
import jax.numpy as jnp
from jax import lax


def window(x, start):
    return lax.dynamic_slice_in_dim(x, start, 3)


def pick(v, i):
    return v[i]


frames = jnp.arange(10.0)
print(jax.jit(window)(frames, jnp.array(8)), pick(frames, 12), pick(frames + 1, 12))
'''

OOB3_VALID = '''\
import jax
import jax.numpy as jnp
from jax import lax


def window(x, start):
    return lax.dynamic_slice_in_dim(x, start, 3)


def pick(v, i):
    return v[i]


frames = jnp.arange(10.0)
print(jax.jit(window)(frames, jnp.array(7)), pick(frames, 9), pick(frames, -10), window(frames, 2))
'''

# a loop variable's range (`range(N + 1)`, `i + 1`): off by one, where no test in the loop
# looks at it and the array keeps its shape (`.at[]` updates of itself)
OOB4 = '''\
import jax
import jax.numpy as jnp

N = 10


def fill():
    x = jnp.zeros(N)
    for i in range(N + 1):
        x = x.at[i].set(i * 2.0)
    return x


@jax.jit
def diffs(v):
    grid = jnp.linspace(0.0, 1.0, 8)
    out = jnp.zeros(8)
    for i in range(8):
        out = out.at[i].set(grid[i + 1] - grid[i])
    return out * v
'''

OOB4_VALID = '''\
import jax
import jax.numpy as jnp

N = 10


def fill():
    x = jnp.zeros(N)
    for i in range(N):
        x = x.at[i].set(i * 2.0)
    return x


@jax.jit
def diffs(v):
    grid = jnp.linspace(0.0, 1.0, 8)
    out = jnp.zeros(7)
    for i in range(7):
        out = out.at[i].set(grid[i + 1] - grid[i])
    for i in range(8):
        i = i - 1
        out = out + grid[i]
    return out * v


def guarded():
    x = jnp.zeros(N)
    for i in range(N + 1):
        if i == N:
            break
        x = x.at[i].set(i * 2.0)
    y = jnp.zeros(N)
    for i in range(N + 1):
        y = y.at[i].set(1.0) if i < N else y
    z = [y[j] for j in range(N + 1) if j < N]
    return x, y, z


def grow():
    x = jnp.zeros(1)
    for i in range(10):
        v = x[i - 1]
        x = jnp.append(x, v + i)
    return x
'''


INVALID = {
    'oob1': (OOB1, 'JAX121', [
        (20, 25, 'index 5 is out of bounds for axis 0 with size 3, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)'),
        (20, 42, 'index 7 is out of bounds for axis 0 with size 5, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)'),
        (20, 58, 'index 5 is out of bounds for axis 0 with size 5, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)'),
        (20, 81, 'index 4 is out of bounds for axis 1 with size 4, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)'),
    ]),
    'oob2': (OOB2, 'JAX121', [
        (11, 27, 'index 4 is out of bounds for axis 0 with size 4, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)'),
        (20, 26, 'index 8 is out of bounds for axis 0 with size 8, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)'),
        (27, 18, 'index 300 is out of bounds for axis 0 with size 300, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)'),
    ]),
    'loop1': (LOOP1, 'JAX502', [
        (22, 14, 'this Python loop runs 400 times while JAX traces `deep`, so it is unrolled into 400 copies of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs)'),
        (30, 14, 'this Python loop runs 256 times while JAX traces `grid_sum`, so it is unrolled into 256 copies of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs)'),
        (37, 39, 'this Python loop runs 150 times while JAX traces `stack`, so it is unrolled into 150 copies of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs)'),
        (38, 14, 'this Python loop runs 150 times while JAX traces `stack`, so it is unrolled into 150 copies of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs)'),
    ]),
    'inplace1': (INPLACE1, 'JAX101', [
        (21, 9, 'JAX arrays are immutable: `self.counts[i] += ...` raises TypeError. Use `self.counts = self.counts.at[i].add(...)`'),
        (26, 9, 'JAX arrays are immutable: `weights[0] = ...` raises TypeError. Use `weights = weights.at[0].set(...)`'),
        (35, 5, 'JAX arrays are immutable: `s[0] = ...` raises TypeError. Use `s = s.at[0].set(...)`'),
        (37, 5, 'JAX arrays are immutable: `b[1] -= ...` raises TypeError. Use `b = b.at[1].subtract(...)`'),
    ]),
    'np1': (NP1, 'JAX204', [
        (20, 16, '`np.concatenate` on a traced value (it depends on the traced argument `x` of `step` (wrapped by jax.jit)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.concatenate` (jax.numpy) instead'),
        (26, 12, '`np.exp` on a traced value (it depends on the traced argument `s` of `energy` (decorated with @jax.jit)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.exp` (jax.numpy) instead'),
        (31, 16, '`np.square` on a traced value (it depends on the traced argument `params` of `penalty` (decorated with @jax.jit)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.square` (jax.numpy) instead'),
    ]),
    'loop2': (LOOP2, 'JAX502', [
        (9, 14, 'this Python loop runs 200 times (once per element of `jnp.linspace(0.0, 1.0, 200)`) while JAX traces `integrate`, so it is unrolled into 200 copies of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` over the elements)'),
        (17, 16, 'this Python loop runs 300 times (once per element of `grid`) while JAX traces `accumulate`, so it is unrolled into 300 copies of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` over the elements)'),
        (24, 17, 'this Python loop runs 200 times (once per element of `enumerate(range(N))`) while JAX traces `weighted`, so it is unrolled into 200 copies of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` over the elements)'),
    ]),
    'oob3': (OOB3, 'JAX121', [
        (7, 40, 'start 8 with slice size 3 does not fit axis 0 of size 10, and JAX raises no IndexError: `lax.dynamic_slice_in_dim` moves the start back to 7 so that the slice fits (it reads a different window)'),
        (11, 14, 'index 12 is out of bounds for axis 0 with size 10, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)'),
    ]),
    'oob4': (OOB4, 'JAX121', [
        (10, 18, '`i` runs from 0 to 10 in the loop around it: index 10 is out of bounds for axis 0 with size 10, and JAX raises no IndexError: `.at[...].set(...)` silently drops the update'),
        (19, 34, '`i + 1` runs from 1 to 8 in the loop around it: index 8 is out of bounds for axis 0 with size 8, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)'),
    ]),
}

VALID = {
    'oob4': (OOB4_VALID, 'JAX121'),
    'oob3': (OOB3_VALID, 'JAX121'),
    'loop2': (LOOP2_VALID, 'JAX502'),
    'oob1': (OOB1_VALID, 'JAX121'),
    'oob2': (OOB2_VALID, 'JAX121'),
    'loop1': (LOOP1_VALID, 'JAX502'),
    'inplace1': (INPLACE1_VALID, 'JAX101'),
    'np1': (NP1_VALID, 'JAX204'),
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid(name):
    text, code, expected = INVALID[name]
    found = [(f.line, f.col, f.message) for f in lint(text, select=[code])]
    assert found == expected


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_twin(name):
    text, code = VALID[name]
    assert [(f.line, f.col, f.message) for f in lint(text, select=[code])] == []


# across modules: constants and no-argument helpers of another module ("values" facts),
# by name and through the module (`S.N_STEPS`); a helper's tuple of arrays
SETTINGS = '''\
import jax.numpy as jnp

N_STEPS = 500
GRID = 2 * 4
SMALL = 10


def make_grid():
    return jnp.zeros((GRID, GRID))


def init_params(n):
    return jnp.ones((n, n)), jnp.zeros(n)
'''

RUN = '''\
import jax
import jax.numpy as jnp

import sim.settings as S
from sim.settings import N_STEPS, init_params, make_grid


@jax.jit
def rollout(x):
    for _ in range(N_STEPS):
        x = jnp.sin(x)
    return x


@jax.jit
def relax(x):
    for _ in range(S.N_STEPS):
        x = jnp.cos(x)
    return x


def corner():
    return make_grid()[S.GRID], jnp.zeros(S.SMALL)[S.SMALL]


def reset(n):
    w, b = init_params(n)
    b[0] = 0.0
    return w, b
'''

# the twins: a constant bound twice, a shape that depends on the argument, a grid
# indexed in bounds, a NumPy pair
SETTINGS_VALID = '''\
import numpy as np
import jax.numpy as jnp

N_STEPS = 500
N_STEPS = 5
GRID = 2 * 4
SMALL = 10


def make_grid(n=GRID):
    return jnp.zeros((n, n))


def init_params(n):
    return np.ones((n, n)), np.zeros(n)
'''

RUN_VALID = RUN.replace("make_grid()[S.GRID]", "make_grid(16)[S.GRID]").replace(
    "jnp.zeros(S.SMALL)[S.SMALL]", "jnp.zeros(S.SMALL)[S.SMALL - 1]")

JAX502_MSG = ("this Python loop runs 500 times while JAX traces `{}`, so it is unrolled into 500 copies of "
              "its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to "
              "collect per-step outputs)")
JAX121_MSG = ("index {} is out of bounds for axis 0 with size {}, and JAX raises no IndexError: the read is "
              "clamped to the nearest valid index (silently the wrong element)")


def _project(root: Path, settings: str, run: str) -> list[tuple]:
    (root / "pyproject.toml").write_text("")
    (root / "sim").mkdir()
    (root / "sim" / "__init__.py").write_text("")
    (root / "sim" / "settings.py").write_text(settings)
    (root / "sim" / "run.py").write_text(run)
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "json"])
    assert result.exit_code in (0, 1), result.output
    return [(f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"])
            for f in json.loads(result.stdout)]


def test_values_across_modules(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _project(tmp_path, SETTINGS, RUN) == [
        ("JAX502", "sim/run.py", 10, 14, JAX502_MSG.format("rollout")),
        ("JAX502", "sim/run.py", 17, 14, JAX502_MSG.format("relax")),
        ("JAX121", "sim/run.py", 23, 24, JAX121_MSG.format(8, 8)),
        ("JAX121", "sim/run.py", 23, 52, JAX121_MSG.format(10, 10)),
        ("JAX101", "sim/run.py", 28, 5,
         "JAX arrays are immutable: `b[0] = ...` raises TypeError. Use `b = b.at[0].set(...)`"),
    ]


def test_values_across_modules_valid(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _project(tmp_path, SETTINGS_VALID, RUN_VALID) == []


def test_constants_of_a_module_that_never_names_jax(tmp_path, monkeypatch):
    """A configuration module without JAX is never analysed: its integer constants come
    from its summary (the binding an importer sees), by name and through the module."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "sim").mkdir()
    (tmp_path / "sim" / "__init__.py").write_text("")
    (tmp_path / "sim" / "config.py").write_text("DEPTH = 300\nWIDTH = 8\nSMALL = 500\nSMALL = 5\n")
    (tmp_path / "sim" / "run.py").write_text(textwrap.dedent('''\
        import jax
        import jax.numpy as jnp

        import sim.config as C
        from sim.config import SMALL, WIDTH


        @jax.jit
        def deep(x):
            for _ in range(C.DEPTH):
                x = jnp.tanh(x)
            for _ in range(SMALL):
                x = jnp.tanh(x)
            return x + jnp.zeros(WIDTH)[WIDTH - 1] + jnp.zeros(WIDTH)[WIDTH]
        '''))
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "json"])
    assert result.exit_code == 1, result.output
    found = [(f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"])
             for f in json.loads(result.stdout)]
    assert found == [
        ("JAX502", "sim/run.py", 10, 14, JAX502_MSG.replace("500", "300").format("deep")),
        ("JAX121", "sim/run.py", 14, 63, JAX121_MSG.format(8, 8)),
    ]
