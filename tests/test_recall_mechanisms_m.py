"""Batch 6's groups A and J by mechanism (issue 22, branch recallM): PRNG key flow that JAX301
could not represent, and asynchronous work handed back by helpers (JAX505).  Each INVALID
line was run with JAX 0.10.2 (flax, equinox in the .venv) and draws the same numbers (or times
the dispatch) as the message says; each VALID twin draws fresh numbers (or waits)."""

from __future__ import annotations

from project_files import lint_files


_lint = lint_files


def _505(started: int) -> str:
    return (f"`time.perf_counter()` is read while the JAX computation started on line {started} may still be "
            "running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result "
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
         "never waited for: this measures the dispatch (and, on a first call, the compilation), not the work. Time "
         "`jax.block_until_ready(predict(params, x))` instead"),
    ]


# ---------------------------------------------------------------- keys through transformed calls (A, 649)
MAPPED = """\
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp


def worker(k, x):
    return x + jax.random.normal(k)


def dropout_step(params, rng, batch):
    keep = jax.random.bernoulli(rng, 0.9, batch.shape)
    return jnp.where(keep, batch @ params, 0.0)


@partial(jax.vmap, in_axes=(None, 0))
def add_noise(k, x):
    return x + 0.1 * jax.random.normal(k, x.shape)


def worker_fold(k, i, x):
    k = jax.random.fold_in(k, i)
    return x + jax.random.normal(k)


def sample(key, x):
    return x + jax.random.uniform(key, x.shape)


def broadcast(key, xs):
    return jax.vmap(worker, in_axes=(None, 0))(key, xs)


def decorated(key, xs):
    return add_noise(key, xs)


def replicated(key, params, batch):
    return jax.pmap(dropout_step, in_axes=(None, None, 0))(params, key, batch)


def filtered(key, xs):
    return eqx.filter_vmap(worker, in_axes=(None, 0))(key, xs)


def twice(key, x):
    noise = jax.random.normal(key, x.shape)
    out = jax.jit(sample)(key, x)
    return noise, out


def twice_bound(key, x):
    step = jax.jit(sample)
    first = jax.random.normal(key, x.shape)
    return first, step(key, x)


def fine(key, xs, params, batch):
    n = xs.shape[0]
    k0, k1, k2 = jax.random.split(key, 3)
    a = jax.vmap(worker, in_axes=(0, 0))(jax.random.split(k0, n), xs)
    b = jax.vmap(worker_fold, in_axes=(None, 0, 0))(k1, jnp.arange(n), xs)
    c = jax.vmap(dropout_step, in_axes=(None, 0, 0))(params, jax.random.split(k2, n), batch)
    return a, b, c


def test_jit_matches():
    key = jax.random.PRNGKey(0)
    x = jnp.ones(3)
    y = sample(key, x)
    z = jax.jit(sample)(key, x)
    return y, z
"""


def _unmapped(line: int, col: int, transform: str, helper: str, sampler: str) -> tuple:
    return ("JAX301", "mapped.py", line, col,
            f"`key` is not mapped (`in_axes` None for it): `{transform}` gives every element the same key, and "
            f"`{helper}` draws from it with `random.{sampler}`, so every element draws the same random numbers. "
            "Map one key per element: pass `jax.random.split(key, n)` with in_axes 0 for it")


def _again(line: int, col: int, before: int) -> tuple:
    return ("JAX301", "mapped.py", line, col,
            f"`key` was already consumed by `random.normal` on line {before}: both calls get the same random bits. "
            "Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key")


def test_keys_through_mapped_and_jitted_calls(tmp_path, monkeypatch):
    """A key given unmapped (`in_axes` None) to a function that draws from it: `jax.vmap(f, in_axes=...)`,
    a `@partial(jax.vmap, in_axes=...)` def, `jax.pmap`, `eqx.filter_vmap` (every element draws the same
    numbers, checked with JAX); a key drawn from and then given to `jax.jit(f)(key, x)` or to a name bound to
    `jax.jit(f)`, outside any loop.  Silent: split keys mapped with in_axes 0, an unmapped key the worker
    only folds in with the element's index, a test comparing `f(key, x)` with `jax.jit(f)(key, x)`."""
    got = _lint(tmp_path, monkeypatch, {"mapped.py": MAPPED})
    assert got == [
        _unmapped(32, 12, "jax.vmap", "worker", "normal"),
        _unmapped(36, 12, "@jax.vmap", "add_noise", "normal"),
        _unmapped(40, 12, "jax.pmap", "dropout_step", "bernoulli"),
        _unmapped(44, 12, "eqx.filter_vmap", "worker", "normal"),
        _again(49, 11, 48),
        _again(56, 19, 55),
    ]


# ---------------------------------------------------------------- loop back edges and carries (A, 648)
LOOPS = """\
import jax
import jax.numpy as jnp
from jax import lax


def rollout(key, policy, obs, steps):
    actions = []
    for _ in range(steps):
        key, noise_key = jax.random.split(key)
        obs = obs + jax.random.normal(noise_key, obs.shape)
        actions.append(jax.random.categorical(key, policy(obs)))
    return actions


def anneal(rng, x, n):
    i = 0
    while i < n:
        rng, sub = jax.random.split(rng)
        x = x + jax.random.uniform(sub, x.shape)
        accept = jax.random.bernoulli(rng, 0.5)
        x = jnp.where(accept, x, -x)
        i += 1
    return x


def scan_walk(key, x0, n):
    def step(carry, _):
        key, x = carry
        key, sub = jax.random.split(key)
        x = x + jax.random.normal(sub, x.shape)
        flip = jax.random.bernoulli(key, 0.5)
        return (key, x), flip

    return lax.scan(step, (key, x0), None, length=n)


def fori_walk(key, x0, n):
    def body(i, val):
        x, key = val
        key, sub = jax.random.split(key)
        x = x + jax.random.normal(key, x.shape)
        return x, key

    return lax.fori_loop(0, n, body, (x0, key))


# VALID twins: the key carried is the one nothing consumed
def rollout_ok(key, policy, obs, steps):
    actions = []
    for _ in range(steps):
        key, noise_key, act_key = jax.random.split(key, 3)
        obs = obs + jax.random.normal(noise_key, obs.shape)
        actions.append(jax.random.categorical(act_key, policy(obs)))
    return actions


def scan_ok(key, x0, n):
    def step(carry, _):
        key, x = carry
        key, sub, flip_key = jax.random.split(key, 3)
        x = x + jax.random.normal(sub, x.shape)
        return (key, x), jax.random.bernoulli(flip_key, 0.5)

    return lax.scan(step, (key, x0), None, length=n)


def search(key, x, steps):
    for _ in range(steps):
        key, sub = jax.random.split(key)
        x = x + jax.random.normal(sub, x.shape)
        if jnp.all(x > 0):
            return jax.random.permutation(key, x)
    return x
"""


def test_key_consumed_after_its_last_split_and_carried(tmp_path, monkeypatch):
    """A key consumed after the loop's split rebinds it and carried to the next iteration, whose split
    consumes it again: a `for` and a `while` loop, a `lax.scan` carry unpacked from a tuple, a
    `lax.fori_loop` carry (the loops raise KeyReuseError under `jax_debug_key_reuse`, JAX 0.10.2; the carries
    hand the consumed key to the next step's split, as case 648's collision shows).  Silent:
    a three-way split that carries the unused key, a draw followed by `return`."""
    got = _lint(tmp_path, monkeypatch, {"loops.py": LOOPS})
    assert got == [
        ("JAX301", "loops.py", 11, 24,
         "`key` is consumed by `random.categorical` here and carried to the next iteration of the loop, where "
         "`random.split` on line 9 consumes it again: JAX promises independent random numbers only for a key used once (with `jax_debug_key_reuse` on, the second use raises KeyReuseError for a typed key from `jax.random.key`). Give this call a subkey "
         "(`key, sub = jax.random.split(key)` and pass `sub`)"),
        ("JAX301", "loops.py", 20, 18,
         "`rng` is consumed by `random.bernoulli` here and carried to the next iteration of the loop, where "
         "`random.split` on line 18 consumes it again: JAX promises independent random numbers only for a key used once (with `jax_debug_key_reuse` on, the second use raises KeyReuseError for a typed key from `jax.random.key`). Give this call a subkey "
         "(`rng, sub = jax.random.split(rng)` and pass `sub`)"),
        ("JAX301", "loops.py", 31, 16,
         "`key` is consumed by `random.bernoulli` here and returned as the lax.scan carry: the next step is "
         "handed this consumed key, and `random.split` on line 29 consumes it again: JAX promises independent random numbers only for a key used once (with `jax_debug_key_reuse` on, the second use raises KeyReuseError for a typed key from `jax.random.key`). Give this call a subkey (`key, sub = jax.random.split(key)` and pass `sub`)"),
        ("JAX301", "loops.py", 41, 17,
         "`key` is consumed by `random.normal` here and returned as the lax.fori_loop carry: the next step is "
         "handed this consumed key, and `random.split` on line 40 consumes it again: JAX promises independent random numbers only for a key used once (with `jax_debug_key_reuse` on, the second use raises KeyReuseError for a typed key from `jax.random.key`). Give this call a subkey (`key, sub = jax.random.split(key)` and pass `sub`)"),
    ]


# ---------------------------------------------------------------- initializers consume keys (A, 610)
INITS = """\
from typing import Any, Callable

import flax.linen as nn
import jax
import jax.numpy as jnp
from flax import nnx

default_init = jax.nn.initializers.glorot_uniform()


def two_layers(key):
    w1 = default_init(key, (4, 4))
    w2 = default_init(key, (4, 4))
    return w1, w2


def init_mlp(key, sizes):
    return [jax.nn.initializers.normal(0.1)(key, (m, n)) for m, n in zip(sizes[:-1], sizes[1:])]


def weight_and_noise(key):
    w = nnx.initializers.lecun_normal()(key, (4, 4))
    noise = jax.random.normal(key, (4,))
    return w, noise


def make_weight(key, shape):
    init = nn.initializers.he_normal()
    return init(key, shape)


def encoder_decoder(key):
    enc = make_weight(key, (8, 4))
    dec = make_weight(key, (4, 8))
    return enc, dec


class Ensemble(nn.Module):
    members: int
    kernel_init: Callable[..., Any] = nn.initializers.xavier_uniform()

    @nn.compact
    def __call__(self, x):
        def stacked(rng, shape):
            kernels = []
            for _ in range(self.members):
                kernels.append(self.kernel_init(rng, shape))
            return jnp.stack(kernels)

        k = self.param("kernel", stacked, (x.shape[-1], 3))
        return jnp.einsum("...i,mij->m...j", x, k)


# VALID twins
def two_layers_ok(key):
    k1, k2 = jax.random.split(key)
    return default_init(k1, (4, 4)), default_init(k2, (4, 4))


def constants(key):
    zeros = jax.nn.initializers.zeros(key, (4, 4))
    ones = jax.nn.initializers.constant(1.0)(key, (4, 4))
    return zeros, ones, jax.nn.initializers.constant(2.0)(key, (4,))


def init_mlp_ok(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [jax.nn.initializers.normal(0.1)(k, (m, n)) for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


class EnsembleOk(nn.Module):
    members: int
    kernel_init: Callable[..., Any] = nn.initializers.xavier_uniform()

    @nn.compact
    def __call__(self, x):
        def stacked(rng, shape):
            return jnp.stack([self.kernel_init(r, shape) for r in jax.random.split(rng, self.members)])

        k = self.param("kernel", stacked, (x.shape[-1], 3))
        return jnp.einsum("...i,mij->m...j", x, k)
"""

HELPER_INIT = """\
import jax
import flax.linen as nn


def make_weight(key, shape):
    init = nn.initializers.he_normal()
    return init(key, shape)


def build(key):
    w = make_weight(key, (8, 4))
    b = jax.random.normal(key, (4,))
    return w, b
"""


def test_initializers_consume_the_key_they_are_called_with(tmp_path, monkeypatch):
    """An initializer made by a factory of jax.nn.initializers (flax linen and nnx re-export them) draws
    from the key it is called with: a module-level `init = glorot_uniform()` called twice with one key,
    `normal(0.1)(key, s)` in a comprehension, nnx's `lecun_normal()(key, s)` then a draw, a linen field
    `kernel_init` defaulting to `xavier_uniform()` called in a Python loop through `self`, and a helper that
    calls one (its key parameter is consumed).  Silent: split keys, `zeros`/`constant` (they draw nothing)."""
    got = _lint(tmp_path, monkeypatch, {"inits.py": INITS, "helper.py": HELPER_INIT})
    assert got == [
        ("JAX301", "helper.py", 12, 9,
         "`key` was already consumed by `make_weight()` on line 11: both calls get the same random bits. "
         "Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key"),
        ("JAX301", "inits.py", 13, 10,
         "`key` was already consumed by `default_init(...)` on line 12: both calls get the same random bits. "
         "Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key"),
        ("JAX301", "inits.py", 18, 13,
         "`key` is consumed by `jax.nn.initializers.normal(0.1)(...)` inside a comprehension but never replaced, "
         "so every iteration draws the same random numbers. Split a new key each iteration "
         "(`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`"),
        ("JAX301", "inits.py", 23, 13,
         "`key` was already consumed by `nnx.initializers.lecun_normal()(...)` on line 22: both calls get the "
         "same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key"),
        ("JAX301", "inits.py", 47, 32,
         "`rng` is consumed by `self.kernel_init(...)` inside a loop but never replaced, so every iteration "
         "draws the same random numbers. Split a new key each iteration (`rng, sub = jax.random.split(rng)`) "
         "or use `jax.random.fold_in(rng, i)`"),
    ]


# ---------------------------------------------------------------- a key as a parameter default (A, 616)
DEFAULTS = """\
import jax
import jax.numpy as jnp

KEY = jax.random.PRNGKey(0)
base_key = jax.random.key(1)


def act(logits, key=KEY):
    return jax.random.categorical(key, logits)


def add_noise(x, noise_key=base_key):
    return x + 0.1 * jax.random.normal(noise_key, x.shape)


class Agent:
    def __init__(self, policy):
        self.policy = policy

    def step(self, obs, rng=KEY):
        return self.policy.sample(obs, rng=rng)


def rollout(logits, steps):
    return [act(logits) for _ in range(steps)]


def denoise(x):
    a = add_noise(x)
    b = add_noise(x * 2)
    return a, b


def run(policy, obs):
    agent = Agent(policy)
    first = agent.step(obs)
    second = agent.step(obs + 1)
    return first, second


# VALID twins
def scale(x, key=KEY, step=0):
    return x * jax.random.fold_in(key, step)


def rollout_ok(logits, steps, key):
    out = []
    for _ in range(steps):
        key, sub = jax.random.split(key)
        out.append(act(logits, key=sub))
    return out, add_noise(logits), scale(logits), scale(logits)
"""


def test_key_bound_as_a_parameter_default(tmp_path, monkeypatch):
    """A parameter whose default is a key of the enclosing scope, drawn from in the body (a sampler, or
    handed on as `rng=`), and calls that leave it out: in a comprehension, three times, a method called twice
    through an instance of its class.  Silent: a default only folded in with another parameter, calls that
    pass a fresh key."""
    got = _lint(tmp_path, monkeypatch, {"defaults.py": DEFAULTS})

    def msg(name: str, default: str, fn: str, where: str) -> str:
        return (f"`{name}` defaults to `{default}`, one key bound when `{fn}` is defined, and this file calls "
                f"`{fn}` {where} without passing it (line {{}}): every such call draws the same random numbers "
                f"here. Make `{name}` a required argument and pass a fresh key to each call")
    assert got == [
        ("JAX301", "defaults.py", 9, 12, msg("key", "KEY", "act", "in a loop").format(25)),
        ("JAX301", "defaults.py", 13, 22, msg("noise_key", "base_key", "add_noise", "3 times").format(29)),
        ("JAX301", "defaults.py", 21, 16, msg("rng", "KEY", "step", "2 times").format(36)),
    ]


WARMUP = """\
import jax


@jax.jit
def pipeline(x, rng):
    return x + jax.random.normal(rng, x.shape)


def generate(x, rng):
    return pipeline(x, rng)


x = jax.numpy.ones(4)
rng = jax.random.PRNGKey(0)
generate(x, rng)  # compile
images = generate(x, rng)
first = generate(x, rng)
second = generate(x, rng)
print(images, first, second)
"""


def test_warm_up_call_whose_result_is_discarded(tmp_path, monkeypatch):
    """A warm-up call (its result thrown away) then the same call timed with the same key (case 620's
    EXTRA): no random bits are seen twice.  Two calls whose results are both kept still draw the same."""
    got = _lint(tmp_path, monkeypatch, {"main.py": WARMUP})
    msg = ("`rng` was already consumed by `generate()` on line 16: both calls get the same random bits. Split it "
           "first, e.g. `k1, k2 = jax.random.split(rng)`, and give each call its own key")
    assert got == [("JAX301", "main.py", 17, 9, msg), ("JAX301", "main.py", 18, 10, msg)]


NOISE = """\
import jax


def perturb(k, x):
    return x + jax.random.normal(k, x.shape)
"""

MAPPED_IMPORT = """\
import jax
import jax.numpy as jnp

from pkg import noise
from pkg.noise import perturb


def run(key, xs):
    return jax.vmap(perturb, in_axes=(None, 0))(key, xs)


def run2(key, xs):
    return jax.vmap(noise.perturb, in_axes=(None, 0))(key, xs)


def ok(key, xs):
    return jax.vmap(perturb)(jax.random.split(key, xs.shape[0]), xs)
"""


def test_unmapped_key_to_an_imported_worker(tmp_path, monkeypatch):
    """The worker is imported from the project (by name, through its module): its key-consumer fact says it
    draws from `k`.  Silent: split keys mapped with the default in_axes 0."""
    got = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/noise.py": NOISE, "main.py": MAPPED_IMPORT})

    def msg(helper: str) -> str:
        return ("`key` is not mapped (`in_axes` None for it): `jax.vmap` gives every element the same key, and "
                f"`{helper}` draws from it with `random.normal`, so every element draws the same random numbers. "
                "Map one key per element: pass `jax.random.split(key, n)` with in_axes 0 for it")
    assert got == [("JAX301", "main.py", 9, 12, msg("perturb")), ("JAX301", "main.py", 13, 12, msg("noise.perturb"))]


# ---------------------------------------------------------------- distributions' samplers (A, row 1)
DISTS = """\
import distrax
import jax
import jax.numpy as jnp
import tensorflow_probability.substrates.jax as tfp

tfd = tfp.distributions


def explore(logits, key):
    policy = distrax.Categorical(logits=logits)
    action = policy.sample(seed=key)
    noise = jax.random.normal(key, logits.shape)
    return action, noise


def two_samples(mu, sigma, key):
    dist = tfd.Normal(mu, sigma)
    a = dist.sample(seed=key)
    b = dist.sample(seed=key)
    return a, b


def act(mu, key):
    action, logp = distrax.Normal(mu, 1.0).sample_and_log_prob(seed=key)
    return action, logp


def rollout(mu, key, steps):
    return [act(mu, key) for _ in range(steps)]


# VALID twins
def explore_ok(logits, key):
    k1, k2 = jax.random.split(key)
    return distrax.Categorical(logits=logits).sample(seed=k1), jax.random.normal(k2, logits.shape)


def rollout_ok(mu, key, steps):
    out = []
    for _ in range(steps):
        key, sub = jax.random.split(key)
        out.append(act(mu, sub))
    return out


def test_sample_shapes(mu, key):
    dist = distrax.Normal(mu, 1.0)
    assert dist.sample(seed=key, sample_shape=(2,)).shape == (2,)
    assert dist.sample_and_log_prob(seed=key)[0].shape == ()
"""


def test_distribution_sample_consumes_its_seed(tmp_path, monkeypatch):
    """`sample(seed=key)` / `sample_and_log_prob(seed=key)` of a distrax or TFP-on-JAX distribution (bound
    once, or built in place) draws from `seed`: then a draw from the same key, two samples with one key, and a
    helper that samples, called in a comprehension with one key.  Silent: split keys, a test sampling one
    distribution under one seed for shapes (distrax's own tests)."""
    got = _lint(tmp_path, monkeypatch, {"dists.py": DISTS})
    assert got == [
        ("JAX301", "dists.py", 12, 13,
         "`key` was already consumed by `policy.sample(seed=...)` on line 11: both calls get the same random bits. "
         "Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key"),
        ("JAX301", "dists.py", 19, 9,
         "`key` was already consumed by `dist.sample(seed=...)` on line 18: both calls get the same random bits. "
         "Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key"),
        ("JAX301", "dists.py", 29, 13,
         "`key` is consumed by `sample_and_log_prob(seed=...)` via `act` inside a comprehension but never "
         "replaced, so every iteration draws the same random numbers. Split a new key each iteration "
         "(`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`"),
    ]
