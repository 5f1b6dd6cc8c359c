"""Batch 9's misses by mechanism (issue 22, branch recallV): haiku's `apply` consuming the
key it is given, removed keyword arguments of JAX functions (a table from JAX's
CHANGELOG), ...

Each INVALID program's sharp bit (the same numbers drawn twice, a TypeError) follows
JAX's documented behaviour; the VALID twins stay silent."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from jaxlint.model import deprecations as D
from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str], select: str = "") -> list[tuple]:
    return lint_files(root, monkeypatch, files, select=select, dedent=True)


# 1. haiku's `apply(params, rng, x)` (`apply(params, state, rng, x)` with state) consumes
# `rng` when the transformed function draws (`hk.next_rng_key()`, `hk.dropout`): the
# function that calls it (or whose closure does: the loss of a jitted update) consumes its
# key parameter, as `rngs={"dropout": rng}` does for flax, so a loop handing it one key
# draws the same numbers every step. Written two ways: `hk.transform` with a loss closure
# in a jitted update imported by another module, and `@haiku.transform_with_state` with
# a helper called in a comprehension. VALID twins: a split key each step, a
# `without_apply_rng` apply (no key), a transformed function that draws nothing.

HK_MODEL = """\
import haiku as hk
import jax
import jax.numpy as jnp


def forward(x):
    x = hk.Linear(8)(x)
    x = hk.dropout(hk.next_rng_key(), 0.5, x)
    return hk.Linear(1)(x)


net = hk.transform(forward)


@jax.jit
def update(params, rng, x):
    def loss_fn(p):
        return jnp.mean(net.apply(p, rng, x) ** 2)
    grads = jax.grad(loss_fn)(params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
"""

HK_MAIN = """\
import jax
import jax.numpy as jnp

from model import net, update


def train(steps):
    x = jnp.ones((4, 3))
    rng = jax.random.PRNGKey(0)
    params = net.init(rng, x)
    for _ in range(steps):
        params = update(params, rng, x)
    return params


def train_split(steps):
    x = jnp.ones((4, 3))
    rng = jax.random.PRNGKey(0)
    params = net.init(rng, x)
    for _ in range(steps):
        rng, sub = jax.random.split(rng)
        params = update(params, sub, x)
    return params
"""

HK_STATEFUL = """\
import haiku


@haiku.transform_with_state
def noisy(x):
    counter = haiku.get_state("n", [], init=lambda *_: 0)
    haiku.set_state("n", counter + 1)
    return x + haiku.next_rng_key()[0]


@haiku.without_apply_rng
@haiku.transform
def plain(x):
    return haiku.Linear(2)(x)


def quiet(x):
    return haiku.Linear(2)(x)


silent = haiku.transform(quiet)


def evaluate(params, state, key, x):
    out, state = noisy.apply(params, state, key, x)
    return out


def evaluate_all(params, state, key, xs):
    return [evaluate(params, state, key, x) for x in xs]


def predict(params, key, x):
    return plain.apply(params, x) + silent.apply(params, key, x)


def predict_all(params, key, xs):
    out = []
    for x in xs:
        out.append(predict(params, key, x))
    return out
"""


def test_haiku_apply_consumes_its_rng(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"model.py": HK_MODEL, "main.py": HK_MAIN, "stateful.py": HK_STATEFUL},
                select="JAX301")
    assert got == [
        ("JAX301", "main.py", 12, 18,
         "`rng` is consumed by `hk.dropout` via `update` inside a loop but never replaced, so every iteration "
         "draws the same random numbers. Split a new key each iteration (`rng, sub = jax.random.split(rng)`) "
         "or use `jax.random.fold_in(rng, i)`"),
        ("JAX301", "stateful.py", 30, 13,
         "`key` is consumed by `hk.next_rng_key` via `evaluate` inside a comprehension but never replaced, so "
         "every iteration draws the same random numbers. Split a new key each iteration (`key, sub = "
         "jax.random.split(key)`) or use `jax.random.fold_in(key, i)`"),
    ]


# 2. Keyword arguments JAX removed (JAX903), a table from JAX's CHANGELOG: `initial` of
# `softmax`/`log_softmax` (also reached as flax's `nn.log_softmax`, the same function),
# `named_shape` of `ShapeDtypeStruct`, `lowering_platforms` of `export.export`,
# `symbolic_scope` of `symbolic_args_specs` (imported by name), `axis_resources` of
# `with_sharding_constraint`. VALID twins: the same calls with today's keywords.

REMOVED_KW = """\
import jax
import jax.numpy as jnp
from flax import linen as nn
from jax import export
from jax.export import symbolic_args_specs


def masked(x, m):
    return nn.log_softmax(x, where=m, initial=-jnp.inf)


def probs(x, m):
    return jax.nn.softmax(x, axis=0, where=m, initial=0.0)


spec = jax.ShapeDtypeStruct((2,), jnp.float32, named_shape={})
exp = export.export(jax.jit(jnp.sin), lowering_platforms=("cpu",))
args = symbolic_args_specs((jnp.ones(2),), "n", symbolic_scope=None)
y = jax.lax.with_sharding_constraint(jnp.ones(2), axis_resources=None)
"""

REMOVED_KW_OK = """\
import jax
import jax.numpy as jnp
from flax import linen as nn
from jax import export
from jax.export import symbolic_args_specs


def masked(x, m):
    return nn.log_softmax(x, where=m)


def probs(x, m):
    return jax.nn.softmax(x, axis=0, where=m)


spec = jax.ShapeDtypeStruct((2,), jnp.float32)
exp = export.export(jax.jit(jnp.sin), platforms=("cpu",))
args = symbolic_args_specs((jnp.ones(2),), "n", scope=None)
y = jax.lax.with_sharding_constraint(jnp.ones(2), shardings=None)
"""


def test_removed_keywords_from_the_changelog(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"a.py": REMOVED_KW, "ok.py": REMOVED_KW_OK}, select="JAX903")
    drop = "with nothing to use instead (drop it: `where=` alone masks; empty inputs need no `initial`)"
    assert got == [
        # flax's `nn.log_softmax` is jax.nn's own function (model/apis.py FLAX_ACTIVATIONS)
        ("JAX903", "a.py", 9, 39, f"`jax.nn.log_softmax(initial=...)` was removed in JAX 0.4.36 (deprecated in 0.4.27), {drop}"),
        ("JAX903", "a.py", 13, 47, f"`jax.nn.softmax(initial=...)` was removed in JAX 0.4.36 (deprecated in 0.4.27), {drop}"),
        ("JAX903", "a.py", 16, 48, "`jax.ShapeDtypeStruct(named_shape=...)` was removed in JAX 0.4.34, with nothing to use "
                                   "instead (drop it: only `xmap` used it)"),
        ("JAX903", "a.py", 17, 39, "`jax.export.export(lowering_platforms=...)` was removed in JAX 0.4.36: use `platforms=` instead"),
        ("JAX903", "a.py", 18, 49, "`jax.export.symbolic_args_specs(symbolic_scope=...)` was removed in JAX 0.4.36: use "
                                   "`scope=` instead"),
        ("JAX903", "a.py", 19, 51, "`jax.lax.with_sharding_constraint(axis_resources=...)` was removed in JAX 0.4.11 "
                                   "(deprecated in 0.4.4): use `shardings=` instead"),
    ]


def test_removed_keywords_fix_to_the_valid_twin():
    from jaxlint.fix.fixer import fix_text
    from jaxlint.settings import LintSettings

    renamed = REMOVED_KW.replace("def masked", "def _m").split("spec = ")[1]
    fixed = fix_text("import jax\nimport jax.numpy as jnp\nfrom jax import export\n"
                     "from jax.export import symbolic_args_specs\nspec = " + renamed, "t.py",
                     LintSettings(select=frozenset({"JAX903"}))).text
    assert fixed.split("spec = ")[1] == REMOVED_KW_OK.split("spec = ")[1].replace(
        "jnp.float32)", "jnp.float32, named_shape={})")  # no fix where there is nothing to rename to
    cst.parse_module(fixed)


def test_removed_keyword_rows_agree_with_the_installed_jax():
    """Every keyword row removed by JAX ``CURRENT_JAX`` is refused by the installed
    function; every renamed keyword is accepted."""
    import importlib
    import inspect
    import warnings

    jax = pytest.importorskip("jax")
    if tuple(int(p) for p in jax.__version__.split(".")[:3]) != D.CURRENT_JAX:
        pytest.skip(f"the table was checked against JAX {D.CURRENT_JAX}")
    pytest.importorskip("flax")
    wrong = []
    for row in D.TABLE:
        if row.kind != "kwarg" or not D.removed_by(row, D.CURRENT_JAX):
            continue
        module, _, name = row.function.rpartition(".")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            obj = getattr(importlib.import_module(module), name)
        params = inspect.signature(obj).parameters
        accepts_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
        kept = params.get(row.old)
        # (`jnp.sort(kind: None = None)` keeps the name only to refuse any value but None)
        if kept is not None and kept.kind is not inspect.Parameter.POSITIONAL_ONLY \
                and kept.annotation not in (None, "None") or accepts_any:
            wrong.append(f"{D._key(row)} is still accepted")
        if row.fix and row.new_qualname and row.new_qualname not in params:
            wrong.append(f"{D._key(row)}: `{row.new_qualname}` is not a parameter")
    assert wrong == []


# 3. A function that draws from a key stream its library hands it anew each run (a
# numpyro model's latent `numpyro.sample`, `hk.next_rng_key()` in a haiku transformed
# function, `self.make_rng` in a flax module) and also draws from a key it makes from a
# literal seed (case 905: `abm(jax.random.PRNGKey(0), ...)` in a numpyro model): that part
# replays the same numbers on every run while the rest varies. Written four ways: a
# helper imported from another module that splits its key in place (`key, k0 =
# jax.random.split(key)`: it consumes the key it is given), a local helper, a direct
# draw, haiku and flax. VALID twins: the key drawn from the stream, a fixed projection in
# a module that draws nothing else, an observed-only numpyro model.

SIM = """\
import jax


def simulate(key, n, p):
    key, k0 = jax.random.split(key)
    x = jax.random.uniform(k0, (n,)) < p
    return x, jax.random.normal(key, (n,))
"""

NP_MODEL = """\
import jax
import numpyro
import numpyro.distributions as dist

from sim import simulate


def noise(key, n):
    return jax.random.normal(key, (n,))


def model(n, data=None):
    p = numpyro.sample("p", dist.Beta(2, 5))
    _, x = simulate(jax.random.PRNGKey(0), n, p)
    e = noise(jax.random.PRNGKey(1), n)
    numpyro.sample("obs", dist.Normal(x + e, 1.0), obs=data)


def model_ok(n, data=None):
    p = numpyro.sample("p", dist.Beta(2, 5))
    _, x = simulate(numpyro.prng_key(), n, p)
    numpyro.sample("obs", dist.Normal(x, 1.0), obs=data)


def observed_only(n, data):
    _, x = simulate(jax.random.PRNGKey(0), n, 0.5)
    numpyro.sample("obs", dist.Normal(x, 1.0), obs=data)
"""

NETS = """\
import flax.linen as nn
import haiku as hk
import jax


class Noisy(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = True):
        x = nn.Dense(4)(x)
        x = x + jax.random.normal(jax.random.PRNGKey(0), x.shape)
        return nn.Dropout(0.5, deterministic=not train)(x, rng=self.make_rng("dropout"))


class Fixed(nn.Module):
    @nn.compact
    def __call__(self, x):
        proj = jax.random.normal(jax.random.PRNGKey(0), (x.shape[-1], 4))
        return x @ proj


def forward(x):
    key = jax.random.PRNGKey(3)
    noise = jax.random.uniform(key, x.shape)
    return hk.dropout(hk.next_rng_key(), 0.1, x) + noise


def forward_ok(x):
    noise = jax.random.uniform(hk.next_rng_key(), x.shape)
    return hk.dropout(hk.next_rng_key(), 0.1, x) + noise
"""


def test_fixed_seed_beside_a_library_key_stream(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"sim.py": SIM, "model.py": NP_MODEL, "nets.py": NETS}, select="JAX301")
    stream = "a new key each time it runs, but"
    assert got == [
        ("JAX301", "model.py", 14, 12,
         f"`model` draws from numpyro's key stream (`numpyro.sample`), {stream} `simulate()` draws from "
         "`jax.random.PRNGKey(0)`, a fixed seed: every run of `model` replays the same random numbers there. "
         "Draw that key from the stream (`numpyro.prng_key()`)"),
        ("JAX301", "model.py", 15, 9,
         f"`model` draws from numpyro's key stream (`numpyro.sample`), {stream} `noise()` draws from "
         "`jax.random.PRNGKey(1)`, a fixed seed: every run of `model` replays the same random numbers there. "
         "Draw that key from the stream (`numpyro.prng_key()`)"),
        # not a `jax.random` draw from the fixed key in the function itself (nets.py: noise
        # beside the stream, a fixed projection): after the diff review, a draw of a fixed
        # matrix on purpose (random Fourier features) has the same shape
    ]


# 4. Plain `jax.jit` on a function that changes the flax NNX objects it is given (case
# 922: `optimizer.update(model, grads)` under `@jax.jit`): `jax.jit` flattens them and
# drops the changes (`nnx.jit` carries them out), so the parameters never change
# (observed with flax 0.12: the count stays 0.0, the weights stay ones). Written three
# ways: the optimizer's update after `nnx.value_and_grad` under `@jax.jit` in a package
# module, a Variable's `.value +=` on a parameter annotated with the file's `nnx.Module`
# class, `nnx.update` on a parameter, both jitted as `jax.jit(fn)`. VALID twins: `nnx.jit`,
# the functional form (`nnx.merge` / `nnx.split`, the new state returned).

NNX_TRAIN = """\
import jax
import optax
from flax import nnx


def loss_fn(model, inputs, targets):
    logits = model(inputs)
    return optax.softmax_cross_entropy_with_integer_labels(logits, targets).mean()


@jax.jit
def train_step(model, optimizer, inputs, targets):
    loss, grads = nnx.value_and_grad(loss_fn)(model, inputs, targets)
    optimizer.update(model, grads)
    return loss


@nnx.jit
def train_step_ok(model, optimizer, inputs, targets):
    loss, grads = nnx.value_and_grad(loss_fn)(model, inputs, targets)
    optimizer.update(model, grads)
    return loss
"""

NNX_STEPS = """\
import jax
import jax.numpy as jnp
from flax import nnx


class Counter(nnx.Module):
    def __init__(self):
        self.count = nnx.Variable(jnp.zeros(()))
        self.w = nnx.Param(jnp.ones(3))


def bump(model: Counter, x):
    model.count.value += 1
    return model.w.value @ x


def reset(model, x):
    state = nnx.state(model)
    nnx.update(model, jax.tree.map(jnp.zeros_like, state))
    return x


def bump_ok(model: Counter, x):
    model.count.value += 1
    return model.w.value @ x


def pure_step(graphdef, state, x):
    model = nnx.merge(graphdef, state)
    model.count.value += 1
    _, state = nnx.split(model)
    return state


fast_bump = jax.jit(bump)
fast_reset = jax.jit(reset)
nnx_bump = nnx.jit(bump_ok)
fast_pure = jax.jit(pure_step)
"""


def test_plain_jit_drops_nnx_changes(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/train.py": NNX_TRAIN, "steps.py": NNX_STEPS},
                select="JAX403")
    tail = ("inside the trace only, and the object keeps its old state after the call. Use `nnx.jit` (or split "
            "the objects with `nnx.split` and return the new state)")
    assert got == [
        ("JAX403", "pkg/train.py", 11, 1,
         "`train_step` is jitted with `@jax.jit`, which does not carry changes to the flax NNX objects it is "
         f"given out of the trace: `optimizer.update(model, grads)` (line 14) changes `optimizer` {tail}"),
        ("JAX403", "steps.py", 35, 13,
         "`bump` is jitted with `jax.jit`, which does not carry changes to the flax NNX objects it is given out "
         f"of the trace: `model.count.value += 1` (line 13) changes `model` {tail}"),
        ("JAX403", "steps.py", 36, 14,
         "`reset` is jitted with `jax.jit`, which does not carry changes to the flax NNX objects it is given out "
         "of the trace: `nnx.update(model, jax.tree.map(jnp.zeros_like, state))` (line 19) changes `model` "
         f"{tail}"),
    ]


# 5. x64 switched on after an import whose module computed with JAX at import (case
# 925: `from ..cosmology import TODAY` runs `TODAY = age_at_z0(*PLANCK15)`, a jitted
# function of the project, in a module that never names JAX; then `jax.config.update
# ("jax_enable_x64", True)`): those arrays stay float32 (observed: `TODAY dtype: float32`).
# Written two ways: a relative import of a package whose `__init__` imports the module
# calling a jitted function of another module, and an absolute import of a module
# that calls `jnp.asarray` at its top level, the switch in a function. VALID twins: the
# switch before the import; a module whose top level only makes a function
# (`jnp.vectorize`).

X64_FILES = {
    "astro/__init__.py": "",
    "astro/cosmo/__init__.py": "from .defaults import TODAY\n",
    "astro/cosmo/flat.py": (
        "import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef age(om, h):\n"
        "    z = jnp.logspace(0, 3, 64) - 1.0\n    return jnp.sum(1.0 / (1.0 + z)) / h * om\n"),
    "astro/cosmo/defaults.py": "from .flat import age\n\nTODAY = age(0.3, 0.7)\n",
    "astro/sed/__init__.py": "",
    "astro/sed/weights.py": (
        "import jax\nimport jax.numpy as jnp\n\nfrom ..cosmology_free import SEED\nfrom ..cosmo import TODAY\n\n"
        "jax.config.update(\"jax_enable_x64\", True)\n\n\ndef table():\n    return jnp.linspace(0.0, TODAY, 10)\n"),
    "astro/cosmology_free.py": "SEED = 3\n",
    "astro/sed/weights_ok.py": (
        "import jax\n\njax.config.update(\"jax_enable_x64\", True)\n\nfrom ..cosmo import TODAY\n"),
    "consts.py": "import jax.numpy as jnp\n\nH0 = jnp.asarray(67.7)\n",
    "vec.py": "import jax.numpy as jnp\n\ndot = jnp.vectorize(jnp.dot, signature='(n),(n)->()')\n",
    "run.py": (
        "import jax\n\nfrom consts import H0\nfrom vec import dot\n\n\ndef main():\n"
        "    jax.config.update(\"jax_enable_x64\", True)\n    return H0 * 2\n"),
    "run_ok.py": "import jax\n\nfrom vec import dot\n\njax.config.update(\"jax_enable_x64\", True)\n",
}


def test_x64_enabled_after_an_import_that_made_arrays(tmp_path, monkeypatch):
    got = lint_files(tmp_path, monkeypatch, X64_FILES, select="JAX123")
    assert got == [
        ("JAX123", "astro/sed/weights.py", 7, 1,
         "x64 is enabled after `from ..cosmo import TODAY` (line 5) already created JAX arrays while x64 was off, "
         "at import (astro/cosmo/defaults.py: TODAY = age(0.3, 0.7)): they stay 32-bit while arrays made after "
         "this point are 64-bit. Enable x64 before importing it (right after importing jax)"),
        ("JAX123", "run.py", 8, 5,
         "`main` enables x64 after `from consts import H0` (line 3) already created JAX arrays while x64 was off, "
         "at import (consts.py: H0 = jnp.asarray(67.7)): they stay 32-bit while arrays made after the switch are "
         "64-bit. Enable x64 before importing it (right after importing jax)"),
    ]


NNX_RETURNS_STATE = {
    # the new state handed back: in a tuple, through nnx.state, or through a local name
    "train.py": '''import jax
from flax import nnx


def loss_fn(model, x, y):
    return ((model(x) - y) ** 2).mean()


@jax.jit
def step_state(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    return loss, nnx.state((model, optimizer))


@jax.jit
def step_objects(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    return loss, (model, optimizer)


@jax.jit
def step_named(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    out = (loss, model, optimizer)
    return out
''',
}


def test_plain_jit_returning_the_nnx_objects_state_is_not_reported(tmp_path, monkeypatch):
    # the diff review: the caller gets the new state back (nnx.update(..., new_state))
    assert lint_files(tmp_path, monkeypatch, NNX_RETURNS_STATE, select="JAX403") == []


def test_haiku_apply_in_evaluation_mode_draws_nothing(tmp_path, monkeypatch):
    # the diff review: `is_training=False` turns the dropout (the draw) off, as flax's
    # `deterministic=True` does
    files = {"evaluate.py": 'import haiku as hk\nimport jax\nimport jax.numpy as jnp\n\n\ndef forward(x, is_training):\n    h = jax.nn.relu(hk.Linear(64)(x))\n    if is_training:\n        h = hk.dropout(hk.next_rng_key(), 0.5, h)\n    return hk.Linear(1)(h)\n\n\nnet = hk.transform(forward)\n\n\n@jax.jit\ndef eval_step(params, rng, x, y):\n    pred = net.apply(params, rng, x, is_training=False)\n    return jnp.mean((pred - y) ** 2)\n\n\ndef evaluate(params, batches):\n    rng = jax.random.PRNGKey(0)\n    total = 0.0\n    for x, y in batches:\n        total += eval_step(params, rng, x, y)\n    return total / len(batches)\n'}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX301") == []
