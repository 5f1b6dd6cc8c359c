"""Batch 5's group D by mechanism (issue 22, branch recallL): static arguments and non-array
arguments.  jit stacked over transformations that keep the signature; unhashable module-level
constants of other modules and class attributes as static arguments (JAX207); static pytree
fields that hold arrays, reported at the declaration (JAX207); an `nnx.Optimizer` rebuilt with a
fresh optax transformation for an `nnx.jit` step (JAX504); equinox layers and Modules whose leaves
include a function, given to plain `jax.jit` (JAX209).  Each INVALID line was run with JAX 0.10.2,
equinox 0.13, flax (nnx) in the .venv and fails (or retraces) as the message says; each VALID twin
runs (or traces once)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from jaxlint.cli import cli

STEPS = """\
import functools
from functools import partial

import jax
import jax.numpy as jnp


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper


@partial(jax.jit, static_argnames="config")
@jax.value_and_grad
def loss(params, x, config):
    return jnp.sum(params * x) * config["scale"]


@partial(jax.jit, static_argnums=(1,))
@jax.checkpoint
def block(x, widths):
    return x * len(widths)


@partial(jax.jit, static_argnums=1)
@logged
def forward(x, layers):
    return x * len(layers)


@partial(jax.jit, static_argnums=1)
@partial(jax.vmap, in_axes=(0, None))
def per_row(row, sizes):
    return row * len(sizes)


def train(params, x):
    a = loss(params, x, config={"scale": 2.0})
    b = block(x, [64, 64])
    c = forward(x, {"relu", "gelu"})
    d = per_row(x, [1, 2])
    f = loss(params, x, config=(("scale", 2.0),))
    g = block(x, (64, 64))
    return a, b, c, d, f, g
"""

CONST_CONFIG = """\
ENV_PARAMS = {"dt": 0.05, "steps": 200}
HIDDEN = [64, 64]
SIZES = (64, 64)
RESET = {"a": 1}
RESET = tuple(RESET.items())
"""

CONST_FROZEN = """\
import jax

TABLE = [1, 2]


def freeze():
    global TABLE
    TABLE = tuple(TABLE)
    return jax.numpy.asarray(TABLE)
"""

CONST_MAIN = """\
import functools

import jax
import jax.numpy as jnp

from pkg import config
from pkg.config import HIDDEN, SIZES, RESET
from pkg.frozen import TABLE


@functools.partial(jax.jit, static_argnames=("params", "hidden"))
def step(x, params, hidden):
    return x * params["dt"] + len(hidden)


class Cfg:
    LAYERS = [32, 32]
    WIDTHS = (32, 32)

    def run(self, x):
        return step(x, params=self.WIDTHS, hidden=self.LAYERS)


def main(x):
    a = step(x, config.ENV_PARAMS, SIZES)
    b = step(x, params=RESET, hidden=HIDDEN)
    c = step(x, SIZES, Cfg.LAYERS)
    d = step(x, Cfg.WIDTHS, SIZES)
    e = step(x, SIZES, TABLE)
    return a, b, c, d, e
"""

FIELDS = """\
import dataclasses
from typing import Callable

import jax
import jax.numpy as jnp
import numpy as np
import equinox as eqx
from flax import struct
from jaxtyping import Array, Float


@struct.dataclass
class Buffers:
    weights: jnp.ndarray
    table: np.ndarray = struct.field(pytree_node=False)
    n: int = struct.field(pytree_node=False)


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Grid:
    values: jax.Array
    coords: Float[Array, "n 2"] = dataclasses.field(metadata=dict(static=True))
    shape: tuple = dataclasses.field(metadata=dict(static=True))


class Embed(eqx.Module):
    table: object = eqx.field(static=True)
    act: Callable = eqx.field(static=True)
    size: tuple = eqx.field(static=True)

    def __init__(self, n, act):
        self.table = jnp.eye(n)
        self.act = act
        self.size = (n, n)


@dataclasses.dataclass
class Plain:
    coords: jax.Array = dataclasses.field(metadata=dict(static=True))


class Leaf(eqx.Module):
    w: jax.Array
    mask: tuple = eqx.field(static=True)
"""

STATE = """\
from typing import Any

import equinox as eqx
import numpy as np


class Causal(eqx.Module):
    mask: Any = eqx.field(static=True)
    size: int = eqx.field(static=True)

    def __init__(self, n):
        self.mask = np.tril(np.ones((n, n)))
        self.size = n
"""

STATE_MAIN = """\
import equinox as eqx
import jax.numpy as jnp

from model.state import Causal


@eqx.filter_jit
def attend(layer, x):
    return x * layer.size


def run(x):
    for n in (4, 8):
        attend(Causal(n), x)
"""

NNX = """\
from functools import partial

import jax.numpy as jnp
import optax
from flax import nnx


def train_step(model, opt, x):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean(m(x) ** 2))(model)
    opt.update(model, grads)
    return loss


step = nnx.jit(train_step)


@partial(nnx.jit, donate_argnums=0)
def joint_step(state, x):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean(m(x) ** 2))(state.model)
    state.update(grads)
    return loss


def sweep(make_model, x, rates):
    for lr in rates:
        model = make_model()
        tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(lr))
        opt = nnx.Optimizer(model, tx=tx, wrt=nnx.Param)
        step(model, opt, x)


def restarts(make_model, x, n):
    for _ in range(n):
        model = make_model()
        joint_step(nnx.ModelAndOptimizer(model, optax.sgd(0.1)), x)


def hoisted(make_model, x, n):
    tx = optax.adam(1e-3)
    for _ in range(n):
        model = make_model()
        opt = nnx.Optimizer(model, tx, wrt=nnx.Param)
        step(model, opt, x)


def once(make_model, x, n):
    model = make_model()
    opt = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
    for _ in range(n):
        step(model, opt, x)
"""

LEAVES_BLOCKS = """\
import equinox as eqx
import jax


class Block(eqx.Module):
    linear: eqx.nn.Linear
    pool: eqx.nn.AvgPool1d

    def __init__(self, key):
        self.linear = eqx.nn.Linear(4, 4, key=key)
        self.pool = eqx.nn.AvgPool1d(kernel_size=2, stride=1)


class Plain(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(4, 4, key=key)
"""

LEAVES_MAIN = """\
from typing import Callable

import equinox as eqx
import jax
import jax.numpy as jnp

from lib.blocks import Block, Plain


class Gated(eqx.Module):
    w: jax.Array
    act: Callable

    def __init__(self):
        self.w = jnp.ones(4)
        self.act = jax.nn.gelu


class Holder(eqx.Module):
    block: Block

    def __init__(self, key):
        self.block = Block(key)


class StaticAct(eqx.Module):
    w: jax.Array
    act: Callable = eqx.field(static=True)

    def __init__(self):
        self.w = jnp.ones(4)
        self.act = jax.nn.gelu


@jax.jit
def apply(model, x):
    return x


@eqx.filter_jit
def apply_filtered(model, x):
    return x


def run(x):
    k1, k2, k3, k4 = jax.random.split(jax.random.PRNGKey(0), 4)
    gated = Gated()
    block = Block(k1)
    holder = Holder(k2)
    seq = eqx.nn.Sequential([eqx.nn.Linear(4, 4, key=k3), eqx.nn.Lambda(jax.nn.relu)])
    apply(gated, x)
    apply(block, x)
    apply(holder, x)
    apply(seq, x)
    apply(StaticAct(), x)
    apply(Plain(k4), x)
    apply_filtered(gated, x)
    apply_filtered(holder, x)
"""


def _lint(root: Path, monkeypatch, files: dict[str, str]) -> list[tuple]:
    (root / "pyproject.toml").write_text("")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "json"])
    assert result.exit_code in (0, 1), result.output
    return sorted(
        (f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"])
        for f in json.loads(result.stdout)
    )


def test_jit_over_signature_keeping_transformations_maps_static_positions(tmp_path, monkeypatch):
    """`@partial(jax.jit, static_...)` over `@jax.value_and_grad`, `@jax.checkpoint`, a `functools.wraps`
    decorator and `@partial(jax.vmap, in_axes=(0, None))`: each keeps the def's signature, so the
    static positions land on the call (each call raised ValueError under JAX 0.10.2); the tuples
    stay silent"""
    got = _lint(tmp_path, monkeypatch, {"steps.py": STEPS})
    assert got == [   (   'JAX207',
            'steps.py',
            40,
            32,
            'A dict is passed to `loss` in a static position (parameter `config`; '
            "static_argnames='config'): static arguments must be hashable, so the call raises "
            'ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced '
            '(non-static) argument, or pass a hashable value (tuple, int, str)'),
        (   'JAX207',
            'steps.py',
            41,
            18,
            'A list is passed to `block` in a static position (parameter `widths`; static_argnums=1): '
            'static arguments must be hashable, so the call raises ValueError: Non-hashable static '
            'arguments are not supported. Instead, pass a tuple'),
        (   'JAX207',
            'steps.py',
            42,
            20,
            'A set is passed to `forward` in a static position (parameter `layers`; static_argnums=1): '
            'static arguments must be hashable, so the call raises ValueError: Non-hashable static '
            'arguments are not supported. Instead, pass a tuple'),
        (   'JAX207',
            'steps.py',
            43,
            20,
            'A list is passed to `per_row` in a static position (parameter `sizes`; static_argnums=1): '
            'static arguments must be hashable, so the call raises ValueError: Non-hashable static '
            'arguments are not supported. Instead, pass a tuple')]


def test_module_constants_of_other_modules_and_class_attributes_as_static_arguments(tmp_path, monkeypatch):
    """A dict of a configuration module that never names JAX (reached as `config.ENV_PARAMS`), a list
    imported by name, a class attribute read as `Cls.LAYERS` and as `self.LAYERS`; the tuple
    constant, the dict rebound to a tuple, a list a function of its (JAX) module rebinds through
    `global` and the tuple class attribute stay silent"""
    got = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": '', "pkg/config.py": CONST_CONFIG, "pkg/frozen.py": CONST_FROZEN, "main.py": CONST_MAIN})
    assert got == [   (   'JAX207',
            'main.py',
            21,
            51,
            'A list (`self.LAYERS`: the class `Cfg` binds `LAYERS` to `[32, 32]`) is passed to `step` '
            "in a static position (parameter `hidden`; static_argnames=('params', 'hidden')): static "
            'arguments must be hashable, so the call raises ValueError: Non-hashable static arguments '
            'are not supported. Instead, pass a tuple'),
        (   'JAX207',
            'main.py',
            25,
            17,
            'A dict (`config.ENV_PARAMS`, a module-level dict of another module of the project) is '
            "passed to `step` in a static position (parameter `params`; static_argnames=('params', "
            "'hidden')): static arguments must be hashable, so the call raises ValueError: "
            'Non-hashable static arguments are not supported. Instead, pass it as a traced '
            '(non-static) argument, or pass a hashable value (tuple, int, str)'),
        (   'JAX207',
            'main.py',
            26,
            38,
            'A list (`HIDDEN`, a module-level list of another module of the project) is passed to '
            "`step` in a static position (parameter `hidden`; static_argnames=('params', 'hidden')): "
            'static arguments must be hashable, so the call raises ValueError: Non-hashable static '
            'arguments are not supported. Instead, pass a tuple'),
        (   'JAX207',
            'main.py',
            27,
            24,
            'A list (`Cfg.LAYERS`: the class `Cfg` binds `LAYERS` to `[32, 32]`) is passed to `step` '
            "in a static position (parameter `hidden`; static_argnames=('params', 'hidden')): static "
            'arguments must be hashable, so the call raises ValueError: Non-hashable static arguments '
            'are not supported. Instead, pass a tuple')]


def test_static_fields_holding_arrays_reported_at_the_declaration(tmp_path, monkeypatch):
    """A flax struct field (`pytree_node=False`) annotated `np.ndarray`, a `register_dataclass` field
    (`metadata=dict(static=True)`) annotated `Float[Array, ...]`, an equinox field set to `jnp.eye`
    by `__init__`; static tuples, callables, ints, a plain (unregistered) dataclass and leaves stay
    silent"""
    got = _lint(tmp_path, monkeypatch, {"fields.py": FIELDS})
    assert got == [   (   'JAX207',
            'fields.py',
            15,
            5,
            'The static field `table` of the pytree class `Buffers` '
            '(`struct.field(pytree_node=False)`: part of the tree structure, not a leaf) is annotated '
            '`np.ndarray`: jit hashes the static fields and compares them with `==` against the cached '
            "call's, so a second call with another instance raises ValueError: Exception raised while "
            'checking equality of metadata fields of pytree (arrays cannot be passed as metadata '
            'fields). Make the field a leaf (drop the static marker) or store a hashable value (a '
            'tuple, a number)'),
        (   'JAX207',
            'fields.py',
            23,
            5,
            'The static field `coords` of the pytree class `Grid` '
            '(`dataclasses.field(metadata=dict(stati...`: part of the tree structure, not a leaf) is '
            'annotated `Float[Array, "n 2"]`: jit hashes the static fields and compares them with `==` '
            "against the cached call's, so a second call with another instance raises ValueError: "
            'Exception raised while checking equality of metadata fields of pytree (arrays cannot be '
            'passed as metadata fields). Make the field a leaf (drop the static marker) or store a '
            'hashable value (a tuple, a number)'),
        (   'JAX207',
            'fields.py',
            28,
            5,
            'The static field `table` of the equinox Module `Embed` (`eqx.field(static=True)`: part of '
            'the tree structure, not a leaf) is set to a JAX array by `__init__` (`self.table = '
            'jnp.eye(n)`): jit hashes the static fields and compares them with `==` against the cached '
            "call's, so a second call with another instance raises ValueError: Exception raised while "
            'checking equality of metadata fields of pytree (arrays cannot be passed as metadata '
            'fields) (equinox warns when an instance is built: A JAX array is being set as static!). '
            'Make the field a leaf (drop the static marker) or store a hashable value (a tuple, a '
            'number)')]


def test_static_field_set_to_a_numpy_array_in_another_module_under_filter_jit(tmp_path, monkeypatch):
    """The class lives in another module, has its own `__init__` and its instances go to
    `eqx.filter_jit`: reported at the declaration (the second call raised ValueError)"""
    got = _lint(tmp_path, monkeypatch, {"model/__init__.py": '', "model/state.py": STATE, "main.py": STATE_MAIN})
    assert got == [   (   'JAX207',
            'model/state.py',
            8,
            5,
            'The static field `mask` of the equinox Module `Causal` (`eqx.field(static=True)`: part of '
            'the tree structure, not a leaf) is set to a NumPy array by `__init__` (`self.mask = '
            'np.tril(np.ones((n, n)))`): jit hashes the static fields and compares them with `==` '
            "against the cached call's, so a second call with another instance raises ValueError: "
            'Exception raised while checking equality of metadata fields of pytree (arrays cannot be '
            'passed as metadata fields) (equinox warns when an instance is built: A JAX array is being '
            'set as static!). Make the field a leaf (drop the static marker) or store a hashable value '
            '(a tuple, a number)')]


def test_nnx_optimizer_rebuilt_with_a_fresh_optax_transformation_per_iteration(tmp_path, monkeypatch):
    """`nnx.Optimizer(model, tx=tx)` with `tx = optax.chain(...)` made in the loop, passed to
    `step = nnx.jit(train_step)`; an inline `nnx.ModelAndOptimizer(model, optax.sgd(0.1))` to a
    `@partial(nnx.jit, donate_argnums=0)` step (3 traces for 3 iterations each, counted); the
    hoisted `tx` and the optimizer built once stay silent (1 trace)"""
    got = _lint(tmp_path, monkeypatch, {"train.py": NNX})
    assert got == [   (   'JAX504',
            'train.py',
            29,
            21,
            '`opt`, an `nnx.Optimizer` holding `tx`, a new optax optimizer `optax.chain(...)` (a tuple '
            'of new functions), made in every iteration, is passed to `step`, an `nnx.jit` function: '
            "the optax transformation is part of the optimizer's static graph, which `nnx.jit` looks "
            'up in its compile cache by equality, and a new optax optimizer (a tuple of new functions) '
            'equals only itself, so every call traces and compiles again. Make the optax optimizer '
            'once, before the loop (`tx = optax.adam(...)`), and pass that `tx` to each '
            '`nnx.Optimizer`'),
        (   'JAX504',
            'train.py',
            35,
            20,
            'An `nnx.ModelAndOptimizer` holding a new optax optimizer `optax.sgd(...)` (a tuple of new '
            'functions), made in every iteration, is passed to `joint_step`, an `nnx.jit` function: '
            "the optax transformation is part of the optimizer's static graph, which `nnx.jit` looks "
            'up in its compile cache by equality, and a new optax optimizer (a tuple of new functions) '
            'equals only itself, so every call traces and compiles again. Make the optax optimizer '
            'once, before the loop (`tx = optax.adam(...)`), and pass that `tx` to each '
            '`nnx.Optimizer`')]


def test_equinox_modules_holding_function_leaves_given_to_plain_jit(tmp_path, monkeypatch):
    """A Module whose field is `jax.nn.gelu`, a Module of another module holding an `AvgPool1d`, a
    Module holding that one, an `eqx.nn.Sequential` holding an `eqx.nn.Lambda` (each raised
    TypeError under `jax.jit`); the static callable field, a Module of linears and
    `eqx.filter_jit` stay silent"""
    got = _lint(tmp_path, monkeypatch, {"lib/__init__.py": '', "lib/blocks.py": LEAVES_BLOCKS, "main.py": LEAVES_MAIN})
    assert got == [   (   'JAX209',
            'main.py',
            51,
            11,
            'An instance of the Module `Gated` whose field `act` is the function `jax.nn.gelu` is '
            'passed to `apply` for the traced parameter `model`: its leaves include a function, which '
            'jit cannot make an abstract array, so the call raises TypeError: Error interpreting '
            'argument ... as an abstract array. Use `eqx.filter_jit` (it traces only the array '
            'leaves), or partition the module with `eqx.partition(model, eqx.is_array)`'),
        (   'JAX209',
            'main.py',
            52,
            11,
            'An instance of the Module `Block` whose field `pool` is an `eqx.nn.AvgPool1d` is passed '
            'to `apply` for the traced parameter `model`: its leaves include a function, which jit '
            'cannot make an abstract array, so the call raises TypeError: Error interpreting argument '
            '... as an abstract array. Use `eqx.filter_jit` (it traces only the array leaves), or '
            'partition the module with `eqx.partition(model, eqx.is_array)`'),
        (   'JAX209',
            'main.py',
            53,
            11,
            'An instance of the Module `Holder` whose field `block` is a `Block` whose field `pool` is '
            'an `eqx.nn.AvgPool1d` is passed to `apply` for the traced parameter `model`: its leaves '
            'include a function, which jit cannot make an abstract array, so the call raises '
            'TypeError: Error interpreting argument ... as an abstract array. Use `eqx.filter_jit` (it '
            'traces only the array leaves), or partition the module with `eqx.partition(model, '
            'eqx.is_array)`'),
        (   'JAX209',
            'main.py',
            54,
            11,
            'An `eqx.nn.Sequential` holding an `eqx.nn.Lambda` is passed to `apply` for the traced '
            'parameter `model`: its leaves include a function, which jit cannot make an abstract '
            'array, so the call raises TypeError: Error interpreting argument ... as an abstract '
            'array. Use `eqx.filter_jit` (it traces only the array leaves), or partition the module '
            'with `eqx.partition(model, eqx.is_array)`')]
