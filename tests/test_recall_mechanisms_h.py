"""Batch 4's misses by mechanism, across modules (issue 22, branch recallH): a helper of
another module that walks a traced array's dimension backwards (`B, T = x.shape`,
`reversed(range(T))`) or adds its rows with Python's builtin `sum`, called from a jitted
function; and a helper that updates the JAX arrays of a list it is given with `p -= ...`
(the list travels as the `arrays` kind).  The single-file shapes are the rules' own
examples (JAX101, JAX120, JAX207, JAX301, JAX502, JAX503, JAX504).

Each INVALID tree's bug was observed with JAX 0.10.2 (the unrolled adds counted in the
jaxpr; the list unchanged after the helper); the VALID twins run and stay silent."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from jaxlint.cli import cli

RETURNS = """\
import jax.numpy as jnp


def discounted(rewards, gamma):
    n_steps, batch = rewards.shape
    acc = jnp.zeros(batch)
    out = []
    for t in reversed(range(n_steps)):
        acc = rewards[t] + gamma * acc
        out.append(acc)
    return jnp.stack(out[::-1])


def total(values, weight):
    return sum(values * weight)
"""

OPTIM = """\
def sgd(params, grads, lr=0.1):
    for p, g in zip(params, grads):
        p -= lr * g
    return params
"""

TRAIN = """\
import jax
import jax.numpy as jnp

from agent.optim import sgd
from agent.returns import discounted, total


@jax.jit
def loss(rewards, w):
    return discounted(rewards, 0.99).sum() + total(rewards[0], w)


params = [jnp.ones(3), jnp.zeros(2)]
grads = [jnp.ones(3), jnp.ones(2)]
new = sgd(params, grads)
"""

# the same helpers with a rolled loop, `jnp.sum`, a list comprehension; NumPy arrays
# given to the in-place update (updated in place: correct)
RETURNS_OK = """\
import jax
import jax.numpy as jnp


def discounted(rewards, gamma):
    def step(acc, r):
        acc = r + gamma * acc
        return acc, acc
    _, out = jax.lax.scan(step, jnp.zeros(rewards.shape[1]), rewards, reverse=True)
    return out


def total(values, weight):
    return jnp.sum(values * weight, axis=0)
"""

TRAIN_OK = """\
import jax
import jax.numpy as jnp
import numpy as np

from agent.optim import sgd
from agent.returns import discounted, total


@jax.jit
def loss(rewards, w):
    return discounted(rewards, 0.99).sum() + total(rewards[0], w)


params = [np.ones(3), np.zeros(2)]
grads = [np.ones(3), np.ones(2)]
new = sgd(params, grads)
"""


def _lint(root: Path, monkeypatch, files: dict[str, str]) -> list[tuple]:
    (root / "pyproject.toml").write_text("")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "json",
                                      "--extend-select", "JAX503"])
    assert result.exit_code in (0, 1), result.output
    return sorted(
        (f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"])
        for f in json.loads(result.stdout)
    )


def test_helpers_of_another_module_unrolled_and_updating_a_list_of_arrays(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {
        "agent/__init__.py": "", "agent/returns.py": RETURNS, "agent/optim.py": OPTIM, "train.py": TRAIN,
    })
    assert got == [
        ("JAX101", "agent/optim.py", 3, 9,
         "`p -= ...` makes a new array and rebinds the loop variable `p`: JAX arrays are immutable, so "
         "the element of `params` it came from is unchanged (a NumPy array was updated in place). Build "
         "a new container of the updated values instead (a list comprehension over the same iteration, "
         "or `jax.tree.map`)"),
        ("JAX503", "agent/returns.py", 8, 14,
         "this Python loop runs once per element of `n_steps` while JAX traces `discounted`: it is "
         "unrolled, and compile time grows with the data size. Vectorise, `jax.vmap` the body or use "
         "`lax.fori_loop`"),
        ("JAX503", "agent/returns.py", 15, 12,
         "Python's builtin `sum` adds the rows of `values * weight`, a traced array (it depends on the "
         "argument `values`), one at a time while JAX traces `total`: one add per row is unrolled into "
         "the program, and compile time grows with the data size. Use `jnp.sum(values * weight, axis=0)`"),
    ]


def test_the_rolled_helpers_and_numpy_lists_stay_silent(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {
        "agent/__init__.py": "", "agent/returns.py": RETURNS_OK, "agent/optim.py": OPTIM, "train.py": TRAIN_OK,
    })
    assert got == []
