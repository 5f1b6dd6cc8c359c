"""Impure prints (JAX401) of a Python container that holds a tracer (issue 22, branch capH).

`print` under a trace shows what Python's repr of its argument shows.  A tuple or list
with a tracer among its elements, a dict with one among its values, a NamedTuple or a
flax/chex dataclass built with one in a field (``LossOutputs(loss=loss, ...)``,
``dict(loss=loss)``), at any depth, prints ``JitTracer(float32[])`` for it, once, at
trace time (the emergent-communication report, recall case 935:
https://github.com/google-deepmind/emergent_communication_at_scale/issues/2, printed
``ListenerLossOutputs(loss=Traced<...>)``; jax-ml/jax#196 printed a list of tracers).
The model shows such a container (``Evaluator.holds_tracer``: the elements, fields and
items it keeps, and a helper's return of one); a container of Python values, `len()` of one, a record built outside
traced code, and `jax.debug.print` of the same container stay silent.  A plain
``dataclasses.dataclass`` is no pytree (``jax.debug.print`` cannot take it): not
reported, since no fix would run.

Each INVALID program's output was observed with JAX 0.10.2 (``metrics: {'loss':
JitTracer(float32[]), ...}`` once for two calls); the fixed programs print the values on
every call."""

from __future__ import annotations

import libcst as cst
from pathlib import Path

from project_files import lint_files

_PRINT = ("`print` in traced `{fn}` runs once, at trace time, and prints a tracer (e.g. "
          "`JitTracer(float32[])`), not the values; later calls print nothing. Use "
          "`jax.debug.print(\"{{}}\", x)` to print runtime values")
# a helper the jitted step calls: how often it is traced depends on its callers
_PRINT_HELPER = ("`print` in traced `{fn}` runs only while JAX traces it and prints a tracer "
                 "(e.g. `JitTracer(float32[])`), not the values; a call served from jit's cache "
                 "prints nothing. Use `jax.debug.print(\"{{}}\", x)` to print runtime values")

STEP = """\
from typing import NamedTuple

import jax
import jax.numpy as jnp
from flax import struct


class LossOutputs(NamedTuple):
    loss: jax.Array
    accuracy: jax.Array


@struct.dataclass
class Metrics:
    loss: jax.Array
    count: int


def loss_fn(w, x, y):
    logits = x @ w
    loss = jnp.mean((logits - y) ** 2)
    outputs = LossOutputs(loss=loss, accuracy=jnp.mean(jnp.abs(logits - y) < 0.5))
    print(outputs)
    return loss


@jax.jit
def train_step(w, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(w, x, y)
    metrics = {"loss": loss, "grad_norm": jnp.linalg.norm(grads)}
    print("metrics:", metrics)
    summary = Metrics(loss=loss, count=1)
    print(f"summary {summary}")
    stats = dict(loss=loss)
    print(stats)
    pair = (loss, grads)
    print("pair", pair)
    return w - 0.1 * grads, metrics
"""

MAIN = """\
import jax.numpy as jnp

from train.step import train_step

if __name__ == "__main__":
    w = jnp.zeros(3)
    for _ in range(2):
        w, metrics = train_step(w, jnp.ones((4, 3)), jnp.ones(4))
    print(metrics)
"""

# what --fix --unsafe-fixes writes (run: each call prints the values)
STEP_FIXED = (STEP.replace("    print(outputs)", '    jax.debug.print("{}", outputs)')
              .replace('    print("metrics:", metrics)', '    jax.debug.print("metrics: {}", metrics)')
              .replace('    print(f"summary {summary}")', '    jax.debug.print("summary {}", summary)')
              .replace("    print(stats)", '    jax.debug.print("{}", stats)')
              .replace('    print("pair", pair)', '    jax.debug.print("pair {}", pair)'))

# containers of Python values, their length, a record's static attribute, a record built
# and printed outside traced code
STEP_STATIC = STEP_FIXED.replace(
    "    return w - 0.1 * grads, metrics",
    "    config = {\"lr\": 0.1, \"steps\": x.shape[0]}\n"
    "    print(\"config:\", config, (1, 2), dict(lr=0.1), len(pair), pair[1].shape)\n"
    "    print(LossOutputs(loss=1.0, accuracy=0.5))\n"
    "    return w - 0.1 * grads, metrics",
) + """

print(LossOutputs(loss=jnp.zeros(()), accuracy=jnp.ones(())), {"w": jnp.ones(3)})
"""

SCAN_LOG = """\
import logging

import jax
import jax.numpy as jnp

log = logging.getLogger(__name__)


def rollout(params, xs):
    def body(carry, x):
        h, t = carry
        h = jnp.tanh(params * h + x)
        new = (h, t + 1)
        print("carry:", new)
        return new, h

    (h, _), hs = jax.lax.scan(body, (jnp.zeros(3), 0), xs)
    stats = {"h_norm": jnp.linalg.norm(h)}
    log.info("rollout %s", stats)
    return hs


run = jax.jit(rollout)
"""

SCAN_OK = """\
import logging

import jax
import jax.numpy as jnp

log = logging.getLogger(__name__)


def rollout(params, xs):
    def body(carry, x):
        h, t = carry
        h = jnp.tanh(params * h + x)
        new = (h, t + 1)
        jax.debug.print("carry: {}", new)
        print("carry length:", len(new), "shape:", h.shape)
        return new, h

    (h, _), hs = jax.lax.scan(body, (jnp.zeros(3), 0), xs)
    stats = {"h_norm": jnp.linalg.norm(h)}
    jax.debug.print("rollout {}", stats)
    config = {"steps": xs.shape[0], "name": "rollout"}
    print("config:", config, (1, 2), dict(steps=3))
    return hs


run = jax.jit(rollout)
print({"params": jnp.ones(3)})
"""


def test_print_of_records_and_containers_holding_tracers(tmp_path, monkeypatch):
    # the emergent-communication report's shape (a NamedTuple of loss outputs printed in
    # a differentiated loss under jit), a dict display, a flax dataclass in an f-string,
    # dict(...), a tuple: five ways of holding a tracer
    got = lint_files(tmp_path, monkeypatch, {"train/__init__.py": "", "train/step.py": STEP, "main.py": MAIN},
                     select="JAX401")
    assert got == [
        ("JAX401", "train/step.py", 23, 5, _PRINT_HELPER.format(fn="loss_fn")),
        ("JAX401", "train/step.py", 31, 5, _PRINT.format(fn="train_step")),
        ("JAX401", "train/step.py", 33, 5, _PRINT.format(fn="train_step")),
        ("JAX401", "train/step.py", 35, 5, _PRINT.format(fn="train_step")),
        ("JAX401", "train/step.py", 37, 5, _PRINT.format(fn="train_step")),
    ]


def test_fix_prints_the_containers_with_debug_print(tmp_path, monkeypatch):
    lint_files(tmp_path, monkeypatch, {"train/__init__.py": "", "train/step.py": STEP, "main.py": MAIN},
               "--fix", "--unsafe-fixes", select="JAX401")
    fixed = (tmp_path / "train/step.py").read_text()
    assert fixed == STEP_FIXED
    cst.parse_module(fixed)


def test_fixed_and_static_containers_stay_silent(tmp_path, monkeypatch):
    files = {"train/__init__.py": "", "train/step.py": STEP_STATIC, "main.py": MAIN}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX401") == []


def test_scan_carry_tuple_and_logged_dict_hold_tracers(tmp_path, monkeypatch):
    # a lax.scan body prints the new carry it builds; the jitted caller logs a dict of a tracer
    got = lint_files(tmp_path, monkeypatch, {"scan_log.py": SCAN_LOG}, select="JAX401")
    assert got == [
        ("JAX401", "scan_log.py", 14, 9, _PRINT.format(fn="body")),
        ("JAX401", "scan_log.py", 19, 5,
         "`log.info` in traced `rollout` runs once, at trace time, and logs a tracer (e.g. "
         "`JitTracer(float32[])`), not the values; later calls log nothing. Return the value and log it "
         "outside, or log from the device with `jax.debug.callback(lambda v: log.info(\"%s\", v), x)`"),
    ]


def test_scan_carry_printed_with_debug_print_stays_silent(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"scan_ok.py": SCAN_OK}, select="JAX401") == []


# a helper of the file returns the record it builds from its traced arguments: a
# NamedTuple (`env_step`), a dict display (`losses`); printed in the jitted caller
PPO = """\
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Transition(NamedTuple):
    reward: jax.Array
    done: jax.Array


def env_step(state, action):
    reward = jnp.sum(state * action)
    return Transition(reward=reward, done=reward > 1.0)


def losses(params, obs):
    value = obs @ params
    return {"value_loss": jnp.mean(value ** 2), "entropy": jnp.std(value)}


@jax.jit
def update(params, obs):
    transition = env_step(obs[0], params)
    print("transition", transition)
    info = losses(params, obs)
    print(f"losses: {info}")
    return params - 0.01 * transition.reward
"""

PPO_OK = """\
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Transition(NamedTuple):
    reward: jax.Array
    done: jax.Array


def env_step(state, action):
    reward = jnp.sum(state * action)
    return Transition(reward=reward, done=reward > 1.0)


def losses(params, obs):
    value = obs @ params
    return {"value_loss": jnp.mean(value ** 2), "entropy": jnp.std(value)}


@jax.jit
def update(params, obs):
    transition = env_step(obs[0], params)
    jax.debug.print("transition {}", transition)
    info = losses(params, obs)
    jax.debug.print("losses: {}", info)
    print("keys", list(info), len(transition))
    return params - 0.01 * transition.reward
"""


def test_records_returned_by_a_helper_hold_tracers(tmp_path, monkeypatch):
    got = lint_files(tmp_path, monkeypatch, {"ppo.py": PPO}, select="JAX401")
    assert got == [
        ("JAX401", "ppo.py", 25, 5, _PRINT.format(fn="update")),
        ("JAX401", "ppo.py", 27, 5, _PRINT.format(fn="update")),
    ]


def test_records_returned_by_a_helper_printed_on_device_stay_silent(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"ppo_ok.py": PPO_OK}, select="JAX401") == []
