"""A property of a pytree class that computes a traced bool or array from its leaves
(``return self.sigma < 1e-6``, ``return self.w.sum() > 0``, ``return self.mu[0] * 2``):
read on a traced instance, its value is a JAX array, so a bare ``if self.is_degenerate:``
(not only ``if self.Omega > 1.0:``) raises TracerBoolConversionError (issue 22, the lead
after session 17's new-user review: its p04 program, a Gaussian whose ``sample`` branches
on ``is_degenerate`` under ``jax.jit``, TracerBoolConversionError with JAX 0.10.2).  A
property that hands back a leaf itself may be a container (``if self.params:`` is a dict's
truth test), and a ``where`` on the property, stay silent."""

from __future__ import annotations

import pytest

from project_files import lint_files

GAUSSIAN = """\
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Gaussian:
    def __init__(self, mu, sigma):
        self.mu = mu
        self.sigma = sigma

    @property
    def is_degenerate(self):
        return {PROPERTY}

    def sample(self, key):
        {SAMPLE}

    def tree_flatten(self):
        return (self.mu, self.sigma), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


@jax.jit
def draw(dist, key):
    return dist.sample(key)


print(draw(Gaussian(jnp.zeros(()), jnp.ones(())), jax.random.key(0)))
"""

BRANCH = ("if self.is_degenerate:\n            return self.mu\n"
          "        return self.mu + self.sigma * jax.random.normal(key, jnp.shape(self.mu))")
WHERE = ("noise = self.sigma * jax.random.normal(key, jnp.shape(self.mu))\n"
         "        return jnp.where(self.is_degenerate, self.mu, self.mu + noise)")

# the same, a flax struct whose property is read by the jitted function itself
STATE = """\
import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class Buffer:
    data: jax.Array
    count: jax.Array

    @property
    def full(self):
        return {PROPERTY}


@jax.jit
def push(buf: Buffer, x):
    {PUSH}
    return buf.replace(data=buf.data.at[buf.count].set(x), count=buf.count + 1)


print(push(Buffer(jnp.zeros(4), jnp.array(0)), 1.0))
"""


def _msg(what: str, fn: str, how: str) -> str:
    return (f"Python `if` on a traced value: it depends on the traced argument `{what}` of `{fn}` "
            f"({how}); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`")


def _lint(tmp_path, monkeypatch, text: str) -> list[tuple]:
    return lint_files(tmp_path, monkeypatch, {"m.py": text}, select="JAX201")


def test_a_property_computing_a_traced_bool_is_a_tracer_in_a_bare_if(tmp_path, monkeypatch):
    for prop in ("self.sigma < 1e-6", "jnp.abs(self.sigma) < 1e-6", "self.sigma.max() < 1e-6"):
        text = GAUSSIAN.replace("{PROPERTY}", prop).replace("{SAMPLE}", BRANCH)
        assert _lint(tmp_path, monkeypatch, text) == [
            ("JAX201", "m.py", 16, 12, _msg("self.is_degenerate", "sample",
                                            "called from traced `draw`"))], prop


def test_a_property_of_a_traced_struct_read_by_the_jitted_function(tmp_path, monkeypatch):
    text = STATE.replace("{PROPERTY}", "self.count >= self.data.shape[0]").replace(
        "{PUSH}", "if buf.full:\n        return buf")
    assert _lint(tmp_path, monkeypatch, text) == [
        ("JAX201", "m.py", 18, 8, _msg("buf", "push", "decorated with @jax.jit")
         + "; or, if `buf` is a Python value, mark it static (static_argnums=0)")]


def test_a_where_on_the_property_or_a_leaf_handed_back_stays_silent(tmp_path, monkeypatch):
    text = GAUSSIAN.replace("{PROPERTY}", "self.sigma < 1e-6").replace("{SAMPLE}", WHERE)
    assert _lint(tmp_path, monkeypatch, text) == []
    # a leaf handed back may be a container: `if self.params:` is Python's truth test
    text = GAUSSIAN.replace("{PROPERTY}", "self.sigma").replace("{SAMPLE}", BRANCH)
    assert _lint(tmp_path, monkeypatch, text) == []
    text = STATE.replace("{PROPERTY}", "self.count >= self.data.shape[0]").replace(
        "{PUSH}", "buf = jax.lax.cond(buf.full, lambda b: b, lambda b: b, buf)")
    assert _lint(tmp_path, monkeypatch, text) == []


# flax's activations are jax.nn's functions (`flax.linen.relu is jax.nn.relu`): the new-user
# review's p11 (a `print` after `nn.relu` in a linen `__call__` under `jax.jit(model.apply)`
# printed a tracer) and its `if` twin (TracerBoolConversionError), written with linen's
# `nn.relu` in a module and `nn.softmax` in a jitted function, and with nnx's `nnx.gelu`
MLP = """\
import flax.linen as nn
import jax


class MLP(nn.Module):
    hidden: int = 32

    @nn.compact
    def __call__(self, x):
        h = nn.relu(nn.Dense(self.hidden)(x))
        {USE}
        return nn.Dense(1)(h)


model = MLP()


@jax.jit
def predict(params, x):
    return model.apply(params, x)
"""

FUNCS = """\
import jax
from flax import nnx
import flax.linen as nn


@jax.jit
def f(x):
    h = nn.softmax(x)
    {USE}
    return h


@nnx.jit
def g(x):
    h = nnx.gelu(x)
    {USE}
    return h
"""


def test_a_flax_activation_of_a_tracer_is_a_tracer(tmp_path, monkeypatch):
    got = lint_files(tmp_path, monkeypatch, {"m.py": MLP.replace(
        "{USE}", 'print("hidden mean:", h.mean())')}, select="JAX401")
    assert [g[:4] for g in got] == [("JAX401", "m.py", 11, 9)]
    assert got[0][4].startswith("`print` in traced `__call__` runs only while JAX traces it "
                                "and prints a tracer")
    got = lint_files(tmp_path, monkeypatch, {"m.py": FUNCS.replace(
        "{USE}", "if h.sum() > 0:\n        h = -h")}, select="JAX201")
    assert got == [
        ("JAX201", "m.py", 9, 8, _msg("x", "f", "decorated with @jax.jit")),
        ("JAX201", "m.py", 17, 8, "Python `if` on a traced value: it is computed by JAX inside `g` "
                                  "(decorated with @flax.nnx.jit); this raises TracerBoolConversionError. "
                                  "Use `jax.lax.cond` or `jnp.where`"),
    ]


def test_a_flax_activation_printed_with_debug_print_stays_silent(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"m.py": MLP.replace(
        "{USE}", 'jax.debug.print("hidden mean: {}", h.mean())')}, select="JAX401") == []
    assert lint_files(tmp_path, monkeypatch, {"m.py": FUNCS.replace(
        "{USE}", "h = jax.numpy.where(h.sum() > 0, -h, h)")}, select="JAX201") == []


# JAX207's advice for a plain dataclass in a static position (the new-user review's p16:
# "pass it as a traced argument" raises TypeError, a dataclass being no pytree; with
# `frozen=True` the program runs), the class in another module
CONFIG = """\
from dataclasses import dataclass

import jax.numpy as jnp


@dataclass
class ModelConfig:
    depth: int = 2
    width: int = 8
    dtype: object = jnp.float32
"""

FORWARD = """\
from functools import partial

import jax
import jax.numpy as jnp

from config import ModelConfig


@partial(jax.jit, static_argnums=1)
def forward(x, cfg):
    for _ in range(cfg.depth):
        x = jnp.tanh(x[..., : cfg.width])
    return x


print(forward(jnp.ones((2, 8)), ModelConfig()))
"""


# the same config module without JAX (`dtype` left out): a module the prefilter skips gives
# its classes' hashing too (pkgrev17's p08: TypeError: unhashable type: 'ModelConfig')
PLAIN_CONFIG = CONFIG.replace("\nimport jax.numpy as jnp\n", "").replace(
    "    dtype: object = jnp.float32\n", "")


@pytest.mark.parametrize("config", [CONFIG, PLAIN_CONFIG])
def test_a_plain_dataclass_in_a_static_position_is_advised_frozen(tmp_path, monkeypatch, config):
    assert ("jnp" in config) is (config is CONFIG)
    got = lint_files(tmp_path, monkeypatch, {"config.py": config, "main.py": FORWARD},
                     select="JAX207")
    assert got == [("JAX207", "main.py", 16, 33,
                    "An instance of the dataclass `ModelConfig` (`@dataclass` with eq=True and "
                    "neither frozen=True nor unsafe_hash=True sets `__hash__` to None) is passed to "
                    "`forward` in a static position (parameter `cfg`; static_argnums=1): static "
                    "arguments must be hashable, so the call raises ValueError: Non-hashable static "
                    "arguments are not supported. Instead, declare the dataclass `frozen=True` (it "
                    "then hashes by its fields, which must be hashable themselves)")]
    frozen = config.replace("@dataclass\n", "@dataclass(frozen=True)\n")
    assert lint_files(tmp_path, monkeypatch, {"config.py": frozen, "main.py": FORWARD},
                      select="JAX207") == []


# The diff review's problems, fixed: a timer whose `__exit__` reads a value (`float`,
# `print` of the result) before its clock waits for it: not a timer that times dispatch
TIMER = """\
import time

import jax
import jax.numpy as jnp


class StepTimer:
    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        {EXIT}
        self.elapsed = time.perf_counter() - self.start


step = jax.jit(lambda x: (x @ x).sum())


def train(x):
    with StepTimer() as t:
        t.loss = step(x)
    return t.elapsed


print(train(jnp.ones((100, 100))))
"""


def test_a_timer_whose_exit_reads_the_result_first_waits_for_it(tmp_path, monkeypatch):
    for exit_ in ("self.value = float(self.loss)", 'print("loss", self.loss)'):
        got = lint_files(tmp_path, monkeypatch, {"m.py": TIMER.replace("{EXIT}", exit_)},
                         select="JAX505")
        assert got == [], exit_
    got = lint_files(tmp_path, monkeypatch, {"m.py": TIMER.replace("{EXIT}", "pass")},
                     select="JAX505")
    assert [g[:4] for g in got] == [("JAX505", "m.py", 22, 18)]


# JAX120 reported at the singular operation of a multi-line `where`: a `# noqa` on the
# `where`'s first line (where it was reported, and where `--add-noqa` put it, before)
# still suppresses it, as one on the operation's line does
WHERE = """\
import jax
import jax.numpy as jnp


def h(x):
    return jnp.where(x > 0,{A}
                     jnp.log(x), 0.0){B}


print(jax.grad(h)(1.0))
"""


def test_jax120_noqa_on_either_line_of_a_multiline_where(tmp_path, monkeypatch):
    def lint(a: str, b: str) -> list:
        return lint_files(tmp_path, monkeypatch, {"m.py": WHERE.replace("{A}", a).replace("{B}", b)},
                          select="JAX120")
    assert [g[:4] for g in lint("", "")] == [("JAX120", "m.py", 7, 22)]
    assert lint("  # noqa: JAX120", "") == []
    assert lint("", "  # noqa: JAX120") == []
    assert [g[:4] for g in lint("  # noqa: JAX101", "")] == [("JAX120", "m.py", 7, 22)]


# `list(x)` holds tracers only where `x` is shown to be an array (its rows); of a traced
# value of unknown kind (a dict of parameters: its keys) it is not shown to (the diff
# review: `print(list(params))`, and a helper returning `(list(p), len(p))`, printed
# `['w']` and `(['w'], 1)`)
LISTS = """\
import jax
import jax.numpy as jnp


def names(params):
    return list(params), len(params)


@jax.jit
def f(params, x):
    rows = jnp.tanh(x)
    {PRINT}
    return params


f({"w": jnp.ones(2)}, jnp.ones((2, 2)))
"""


def test_a_list_of_a_value_of_unknown_kind_is_not_a_tracer_container(tmp_path, monkeypatch):
    for p in ("print(list(params))", "print(names(params))"):
        assert lint_files(tmp_path, monkeypatch, {"m.py": LISTS.replace("{PRINT}", p)},
                          select="JAX401") == [], p
    got = lint_files(tmp_path, monkeypatch, {"m.py": LISTS.replace("{PRINT}", "print(list(rows))")},
                     select="JAX401")
    assert [g[:4] for g in got] == [("JAX401", "m.py", 12, 5)]
