"""One key given to two calls of a helper that only sizes its draw (branch keyB).

A helper called twice with one key on other data is often meant (random features of
``x`` and of ``y`` under one draw), so JAX301 left two calls of one helper alone unless
their arguments were the same.  Arguments the helper only sizes its draw with are no
other data: ``init_layer(key, 4, 8)`` then ``init_layer(key, 8, 8)`` of ``def
init_layer(key, m, n): return normal(key, (m, n))`` draws the same key at two sizes, and
with ``jax_threefry_partitionable`` (on by default) the numbers overlap: on jax 0.10.2
``normal(k, (4, 8))`` equals ``normal(k, (8, 8))[:4]`` exactly.  The model records the
parameters a function gives bare as a dimension of a draw from a key it consumes
(model/keyflow.draw_dims / draw_size_params: a sampler's shape or an element of it, a
positional argument of an equinox layer built with ``key=``, and a helper handing one
on), for the functions of the file, methods through ``self`` and, as the consumer facts'
``dims``, functions imported from the project.
"""

from __future__ import annotations

from project_files import lint_files

_REUSE = ("`{k}` was already consumed by `{by}` on line {line}: both calls get the same random bits. "
          "Split it first, e.g. `k1, k2 = jax.random.split({k})`, and give each call its own key")


def _reuse(path, row, col, k, by, line):
    return ("JAX301", path, row, col, _REUSE.format(k=k, by=by, line=line))


# the helper of the same file draws its weights at the sizes it is given
SAME_FILE = """\
import jax
import jax.numpy as jnp


def init_layer(key, m, n):
    w = jax.random.normal(key, (m, n)) / jnp.sqrt(m)
    return w, jnp.zeros((n,))


def init_mlp(key):
    l1 = init_layer(key, 4, 8)
    l2 = init_layer(key, 8, 8)
    return [l1, l2]
"""

# the helper lives in another module, reached by name and through its module; its
# dimension is the whole shape (`normal(key, shape)`) and the calls pass it by keyword
OTHER_MODULE = {
    "nets/__init__.py": "",
    "nets/layers.py": """\
import jax


def weights(key, shape, scale=1.0):
    return scale * jax.random.truncated_normal(key, -2.0, 2.0, shape)
""",
    "model.py": """\
from nets.layers import weights
import nets.layers as L


def build(key):
    w1 = weights(key, shape=(3, 16))
    w2 = weights(key, shape=(16, 1))
    return w1, w2


def build_other(rng):
    return L.weights(rng, (3, 16)), L.weights(rng, (16, 16))
""",
}

# a helper building an equinox layer with the key it is given, called from a module's
# `__init__`; and a method reached through `self`
EQX_AND_METHOD = """\
import equinox as eqx
import jax


def make_linear(in_size, out_size, key):
    return eqx.nn.Linear(in_size, out_size, key=key)


class Encoder(eqx.Module):
    first: eqx.nn.Linear
    second: eqx.nn.Linear

    def __init__(self, key):
        self.first = make_linear(3, 16, key=key)
        self.second = make_linear(16, 16, key=key)


class Builder:
    def weight(self, key, shape):
        return jax.random.uniform(key, shape, minval=-1.0, maxval=1.0)

    def build(self, key):
        a = self.weight(key, (4, 4))
        b = self.weight(key, (4, 2))
        return a, b
"""

# what stays silent: split keys; random features of two inputs under one draw (the input
# is data, read beyond its shape); a helper whose calls differ in a scale, not a size; a
# helper that only splits its key; one call per key
SILENT = """\
import jax
import jax.numpy as jnp


def init_layer(key, m, n):
    return jax.random.normal(key, (m, n))


def init_mlp(key):
    k1, k2 = jax.random.split(key)
    return init_layer(k1, 4, 8), init_layer(k2, 8, 8)


def random_features(key, x):
    w = jax.random.normal(key, (x.shape[-1], 64))
    return jnp.cos(x @ w)


def kernel(key, x, y):
    return random_features(key, x) @ random_features(key, y).T


def scaled(key, m, scale):
    return scale * jax.random.normal(key, (m,))


def two_scales(key):
    return scaled(key, 4, 1.0), scaled(key, 4, 0.5)


def keys(key, n):
    return jax.random.split(key, n)


def two_key_sets(key):
    return keys(key, 2), keys(key, 3)


def once(key):
    return init_layer(key, 4, 8)
"""


def test_helper_of_the_same_file_drawn_at_two_sizes(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"mlp.py": SAME_FILE}, select="JAX301") == [
        _reuse("mlp.py", 12, 10, "key", "init_layer()", 11),
    ]


def test_helper_of_another_module_drawn_at_two_sizes(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, OTHER_MODULE, select="JAX301") == [
        _reuse("model.py", 7, 10, "key", "weights()", 6),
        _reuse("model.py", 12, 37, "rng", "L.weights()", 12),
    ]


def test_equinox_layer_helper_and_method_drawn_at_two_sizes(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"enc.py": EQX_AND_METHOD}, select="JAX301") == [
        _reuse("enc.py", 15, 23, "key", "make_linear()", 14),
        _reuse("enc.py", 24, 13, "key", "self.weight()", 23),
    ]


def test_split_keys_data_arguments_and_splits_stay_silent(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"ok.py": SILENT}, select="JAX301") == []


# -- a step returns its record with the key it drew from -------------------------------

_KEPT = ("`{key}` was consumed by `random.{how}` on line {line} and is handed back unchanged in the "
         "record `{fn}` returns: the next step given it draws the same random numbers. Split it first "
         "(`key, sub = jax.random.split({key})`), draw with `sub` and return the new `key` in the record")


def _kept(path, row, col, key, how, line, fn):
    return ("JAX301", path, row, col, _KEPT.format(key=key, how=how, line=line, fn=fn))


# a NamedTuple state of the same file rebuilt with the key it drew from (JAX: two steps
# draw equal noise); and a scan step that splits the stored key but stores it back unsplit
NAMEDTUPLE = """\
from typing import NamedTuple

import jax


class State(NamedTuple):
    params: jax.Array
    key: jax.Array


def step(state):
    x = jax.random.normal(state.key, state.params.shape)
    new_params = state.params + 0.1 * x
    return State(new_params, state.key)


def scan_step(state, batch):
    k1, k2 = jax.random.split(state.key)
    noise = jax.random.normal(k1, batch.shape) + jax.random.normal(k2, batch.shape)
    return State(params=state.params - batch * noise, key=state.key), noise


def unpacked_step(state):
    params, key = state
    x = jax.random.normal(key, params.shape)
    return State(params + x, key)
"""

# a flax struct state of another module, copied with `.replace` or `dataclasses.replace`
# of other fields
OTHER_MODULE_STATE = {
    "agent/__init__.py": "",
    "agent/state.py": """\
import flax.struct
import jax


@flax.struct.dataclass
class Learner:
    params: jax.Array
    rng: jax.Array
""",
    "agent/train.py": """\
import dataclasses

import jax

from agent.state import Learner


def update(learner: Learner, grads):
    mask = jax.random.bernoulli(learner.rng, 0.9, grads.shape)
    return learner.replace(params=learner.params - mask * grads)


def explore(learner, obs):
    eps = jax.random.uniform(learner.rng, obs.shape)
    return dataclasses.replace(learner, params=learner.params + eps)
""",
}

# what stays silent: the key split and the new half stored (also a key unpacked from the
# state and split); a key folded with the step (not consumed); a copy that replaces the
# key; a draw under a condition only; a key returned outside any record; a test
RECORD_SILENT = """\
from typing import NamedTuple

import jax


class State(NamedTuple):
    params: jax.Array
    key: jax.Array
    step: int


def step(state):
    key, sub = jax.random.split(state.key)
    x = jax.random.normal(sub, state.params.shape)
    return State(state.params + x, key, state.step + 1)


def folded(state):
    k = jax.random.fold_in(state.key, state.step)
    x = jax.random.normal(k, state.params.shape)
    return state._replace(params=state.params + x, step=state.step + 1)


def replaced(state):
    key, sub = jax.random.split(state.key)
    x = jax.random.normal(sub, state.params.shape)
    return state._replace(params=state.params + x, key=key)


def maybe(state, noisy):
    if noisy:
        x = jax.random.normal(state.key, state.params.shape)
        return State(state.params + x, state.key, state.step)
    return state


def unpacked(state):
    params, key, n = state
    key, sub = jax.random.split(key)
    return State(params + jax.random.normal(sub, params.shape), key, n + 1)


def draw(state):
    x = jax.random.normal(state.key, state.params.shape)
    return x, state.key


def test_step_is_deterministic():
    s = State(jax.numpy.zeros(3), jax.random.key(0), 0)
    x = jax.random.normal(s.key, (3,))
    return State(x, s.key, 1)
"""


# flax's TrainState with a key field: the loss closure's dropout draws from `state.key`
# and `apply_gradients` keeps it (JAX: two steps drop the same units); also through a
# name bound to the field and `value_and_grad`
TRAIN_STATE = """\
import jax
import optax
from flax.training import train_state


class TrainState(train_state.TrainState):
    key: jax.Array


@jax.jit
def train_step(state: TrainState, batch):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, batch["x"], training=True, rngs={"dropout": state.key})
        return optax.softmax_cross_entropy_with_integer_labels(logits, batch["y"]).mean()

    grads = jax.grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads)


def update(state, x, y):
    rng = state.key

    def loss_fn(params):
        pred = state.apply_fn({"params": params}, x, rngs={"noise": rng})
        return ((pred - y) ** 2).mean()

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


@jax.jit
def eval_step(state: TrainState, batch):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, batch["x"], training=False, rngs={"dropout": state.key})
        return logits.mean()

    return state.apply_gradients(grads=jax.grad(loss_fn)(state.params))


@jax.jit
def folded_step(state: TrainState, batch):
    key = jax.random.fold_in(state.key, state.step)

    def loss_fn(params):
        logits = state.apply_fn({"params": params}, batch["x"], training=True, rngs={"dropout": key})
        return logits.mean()

    return state.apply_gradients(grads=jax.grad(loss_fn)(state.params))
"""


def test_train_state_whose_dropout_key_is_never_advanced(tmp_path, monkeypatch):
    kept = ("`{key}` was consumed by `rngs=` on line {line} and is handed back unchanged in the record `{fn}` "
            "returns: the next step given it draws the same random numbers. Split it first (`key, sub = "
            "jax.random.split({key})`), draw with `sub` and return the new `key` in the record")
    assert lint_files(tmp_path, monkeypatch, {"train.py": TRAIN_STATE}, select="JAX301") == [
        ("JAX301", "train.py", 17, 12, kept.format(key="state.key", line=13, fn="train_step")),
        ("JAX301", "train.py", 28, 12, kept.format(key="state.key", line=24, fn="update")),
    ]


def test_namedtuple_step_returns_the_key_it_drew_from(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"learn.py": NAMEDTUPLE}, select="JAX301") == [
        _kept("learn.py", 14, 30, "state.key", "normal", 12, "step"),
        _kept("learn.py", 20, 59, "state.key", "split", 18, "scan_step"),
        _kept("learn.py", 26, 30, "key", "normal", 25, "unpacked_step"),
    ]


def test_record_of_another_module_copied_without_a_new_key(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, OTHER_MODULE_STATE, select="JAX301") == [
        _kept("agent/train.py", 10, 12, "learner.rng", "bernoulli", 9, "update"),
        _kept("agent/train.py", 15, 12, "learner.rng", "uniform", 14, "explore"),
    ]


def test_records_given_a_new_key_stay_silent(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"ok_state.py": RECORD_SILENT}, select="JAX301") == []
