"""Batch 8's key-reuse misses by mechanism (issue 22, branch recallS): keys that
libraries draw from (numpyro's `sample(..., rng_key=)`, `handlers.seed`, `Predictive(...)(key)`,
`MCMC.run(key)`), a batch of copies of one key given to a mapped function
(`jnp.repeat(key[None, :], n, axis=0)`, `jnp.tile`, `jnp.stack([key] * n)`), a key an object
holds for its life consumed by two of its methods, a helper's key parameter given a default
(`if key is None: key = PRNGKey(0)`) that still consumes the key it is given, one finding
per statement for several reuses in it, and a key an object keeps as a stream (a method
splits it and stores a half back) drawn from directly, inside the class or through an
instance (a parameter annotated with a class of another module).

Each INVALID program's repeated draw was observed with JAX 0.10.2 (numpyro 0.22.0): the
observed site's noise is the slope draw, every row of the mapped batch is the same, the
predicted noise is the fitted one, `jax.debug_key_reuse` raises KeyReuseError at the
stream's next split; the VALID twins draw distinct numbers and stay silent."""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str]) -> list[tuple]:
    return lint_files(root, monkeypatch, files, select="JAX301")


# 1. numpyro draws from the key it is given: two `sample` sites given one `rng_key` (the
# second observed only when `y` is passed: its default None draws; `from numpyro import
# sample` and `numpyro.sample`), `handlers.seed(model, key)` then `Predictive(...)(key)`,
# `mcmc.run(key, ...)` then `predictive(key, ...)` of `predictive = Predictive(...)`.
# VALID: split keys; a site always observed (`obs=y`, `y` required) draws nothing.

NUMPYRO = """\
import jax
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from numpyro import sample
from numpyro.infer import MCMC, NUTS, Predictive
from numpyro import handlers


def noisy_line(x, y=None, rng_key=None):
    slope = sample("slope", dist.Normal(0.0, 1.0), rng_key=rng_key)
    return numpyro.sample("y", dist.Normal(slope * x, 1e-4), obs=y, rng_key=rng_key)


def prior_check(model, key, x):
    tr = handlers.trace(handlers.seed(model, key)).get_trace(x)
    samples = Predictive(model, num_samples=3)(key, x)
    return tr, samples


def fit_then_predict(model, rng_key, x, y):
    mcmc = MCMC(NUTS(model), num_warmup=5, num_samples=5, progress_bar=False)
    mcmc.run(rng_key, x, y)
    predictive = Predictive(model, mcmc.get_samples())
    return predictive(rng_key, x)


def noisy_line_split(x, y=None, rng_key=None):
    k1, k2 = jax.random.split(rng_key)
    slope = sample("slope", dist.Normal(0.0, 1.0), rng_key=k1)
    return numpyro.sample("y", dist.Normal(slope * x, 1e-4), obs=y, rng_key=k2)


def observed(x, y, rng_key):
    slope = sample("slope", dist.Normal(0.0, 1.0), rng_key=rng_key)
    return numpyro.sample("y", dist.Normal(slope * x, 1.0), obs=y, rng_key=rng_key)


def model(x):
    a = numpyro.sample("a", dist.Normal(0.0, 1.0))
    numpyro.sample("b", dist.Normal(a, 1.0))

"""


def test_numpyro_draws_from_the_key_it_is_given(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"models.py": NUMPYRO})
    assert found == [
        ("JAX301", "models.py", 12, 12, "`rng_key` was already consumed by `sample(rng_key=...)` on line 11: "
         "both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(rng_key)`, "
         "and give each call its own key"),
        ("JAX301", "models.py", 17, 15, "`key` was already consumed by `handlers.seed(...)` on line 16: "
         "both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, "
         "and give each call its own key"),
        ("JAX301", "models.py", 25, 12, "`rng_key` was already consumed by `mcmc.run(...)` on line 23: "
         "both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(rng_key)`, "
         "and give each call its own key"),
    ]


# 2. A batch of copies of one key given to `jax.vmap`: `jnp.repeat(key[None, :], n, axis=0)`
# to a function of the file, `jnp.tile(key, (n, 1))` through a name to a lambda that hands
# it to a helper imported from the project (whose `key=None` default is filled only when
# none is given), `jnp.stack([rng] * n)` of a typed key.  VALID: `jax.random.split(key, n)`;
# copies given with each element's index folded in (`fold_in(k, i)`: nothing consumed).

STATE = """\
import jax


def random_state(n_joints, *, key=None):
    if key is None:
        key = jax.random.PRNGKey(0)
    k1, k2 = jax.random.split(key)
    return jax.random.uniform(k1, (n_joints,)), jax.random.normal(k2, (3,))
"""

BENCH = """\
import jax
import jax.numpy as jnp

import sim.state as st


def draw(key):
    return jax.random.normal(key, (3,))


def batch_repeat(n):
    key = jax.random.PRNGKey(0)
    return jax.vmap(draw)(jnp.repeat(key[None, :], n, axis=0))


def batch_tile(n, key):
    keys = jnp.tile(key, (n, 1))
    return jax.vmap(lambda k: st.random_state(4, key=k))(keys)


def batch_stack(n):
    rng = jax.random.key(1)
    return jax.vmap(draw)(jnp.stack([rng] * n))


def batch_split(n):
    key = jax.random.PRNGKey(0)
    return jax.vmap(draw)(jax.random.split(key, n))


def batch_fold(n):
    key = jax.random.PRNGKey(0)
    copies = jnp.broadcast_to(key, (n, 2))
    return jax.vmap(lambda k, i: jax.random.normal(jax.random.fold_in(k, i), (3,)))(copies, jnp.arange(n))

"""

_ROW = ("every row of this batch is the key `{k}` copied: `jax.vmap` gives each element the same key, "
        "and `{f}` draws from it with `random.{s}`, so every element draws the same random numbers. "
        "Map one key per element: `jax.random.split({k}, n)`")


def test_copies_of_one_key_given_to_a_mapped_function(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"sim/__init__.py": "", "sim/state.py": STATE, "bench.py": BENCH})
    assert found == [
        ("JAX301", "bench.py", 13, 27, _ROW.format(k="key", f="draw", s="normal")),
        ("JAX301", "bench.py", 18, 58, _ROW.format(k="key", f="st.random_state", s="split")),
        ("JAX301", "bench.py", 23, 27, _ROW.format(k="rng", f="draw", s="normal")),
    ]


# 3. A key the object holds for its life (`self._rng_key`, set by a base class of another
# module from the constructor's argument) consumed by `fit` and again by `predict`: the
# predicted noise is the fitted draw.  VALID: two methods that each split it (keys of their
# own), methods that store the key back, a test class whose tests run apart.

BASE = """\
import jax


class BaseEngine:
    def __init__(self, rng_key=None):
        if rng_key is None:
            rng_key = jax.random.PRNGKey(0)
        self._rng_key = rng_key
"""

GAUSS = """\
import jax
import jax.numpy as jnp

from engine.base import BaseEngine


class GaussEngine(BaseEngine):
    def fit(self, x):
        self.mu_ = jnp.mean(x) + jax.random.normal(self._rng_key, ())
        return self

    def predict(self, n):
        return self.mu_ + jax.random.normal(self._rng_key, (n,))


class Sampler:
    def __init__(self, seed):
        self.rng = jax.random.PRNGKey(seed)

    def prior(self, n):
        return jax.random.uniform(self.rng, (n,))

    def posterior(self, n):
        return jax.random.uniform(self.rng, (n,)) * 2.0


class SplitEngine(BaseEngine):
    def fit(self, x):
        _, k1, k2 = jax.random.split(self._rng_key, 3)
        self.mu_ = jnp.mean(x) + jax.random.normal(k1, ())
        return self

    def predict(self, n):
        _, k = jax.random.split(self._rng_key)
        return self.mu_ + jax.random.normal(k, (n,))


class Advancing:
    def __init__(self, seed):
        self.rng = jax.random.PRNGKey(seed)

    def prior(self, n):
        self.rng, k = jax.random.split(self.rng)
        return jax.random.uniform(k, (n,))

    def posterior(self, n):
        self.rng, k = jax.random.split(self.rng)
        return jax.random.uniform(k, (n,)) * 2.0

"""

TEST_ENGINE = """\
import unittest

import jax

from engine.base import BaseEngine


class EngineTest(unittest.TestCase):
    def setUp(self):
        self.key = jax.random.PRNGKey(0)

    def test_fit(self):
        self.assertEqual(jax.random.normal(self.key, (3,)).shape, (3,))

    def test_predict(self):
        self.assertEqual(jax.random.uniform(self.key, (2,)).shape, (2,))
"""


def test_a_stored_key_consumed_by_two_methods(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"engine/__init__.py": "", "engine/base.py": BASE,
                                           "engine/gauss.py": GAUSS, "test_engine.py": TEST_ENGINE})
    assert found == [
        ("JAX301", "engine/gauss.py", 13, 27,
         "`self._rng_key` is the key the object holds for its life: `fit` consumed it with `random.normal` "
         "on line 9 and `predict` draws from it again with `random.normal`; no method gives the object a "
         "new key, so both get the same random bits. Split it where it is used (`self._rng_key, sub = "
         "jax.random.split(self._rng_key)`) and draw with `sub`"),
        ("JAX301", "engine/gauss.py", 21, 16,
         "`self.rng` is set only when the object is built and `prior` draws from it with `random.uniform` "
         "without replacing it, so every call of `prior` draws the same random numbers. Split it in the "
         "method (`self.rng, sub = jax.random.split(self.rng)`) and draw with `sub`"),
        ("JAX301", "engine/gauss.py", 24, 16,
         "`self.rng` is set only when the object is built and `posterior` draws from it with `random.uniform` "
         "without replacing it, so every call of `posterior` draws the same random numbers. Split it in the "
         "method (`self.rng, sub = jax.random.split(self.rng)`) and draw with `sub`"),
    ]


# 4. Several reuses of one key in one statement are one finding (one split gives each call
# its key; cases 832/833 had three at one line), at the first repeated call; a reuse in the
# next statement is another.  A helper whose key parameter defaults (`key = key if key is
# not None else ...`) consumes the key it is given.

ONE_LINE = """\
import jax
from jax import random


def draw(key=None):
    key = key if key is not None else random.PRNGKey(0)
    return random.normal(key, (2,))


def tensors(seed):
    key = random.PRNGKey(seed)
    xs = [random.normal(key, (1, 2)), random.normal(key, (2, 4)),
          random.normal(key, (4, 8))]
    ys = [random.uniform(key, (2,))]
    return xs, ys


def twice(seed):
    key = random.PRNGKey(seed)
    return draw(key), draw(key)


def twice_split(seed):
    k1, k2 = random.split(random.PRNGKey(seed))
    return draw(k1), draw(k2)
"""


def test_one_finding_per_statement_and_defaulted_key_parameters(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"main.py": ONE_LINE})
    assert found == [
        ("JAX301", "main.py", 12, 39, "`key` was already consumed by `random.normal` on line 12: both calls "
         "get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each "
         "call its own key"),
        ("JAX301", "main.py", 14, 11, "`key` was already consumed by `random.normal` on line 12: both calls "
         "get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each "
         "call its own key"),
        ("JAX301", "main.py", 20, 23, "`key` was already consumed by `draw()` on line 20: both calls get the "
         "same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key"),
    ]


# 5. A key an object keeps as a stream (a method splits `self.key` and stores a half back):
# drawn from directly, the next split of that key repeats it (KeyReuseError under
# `jax.debug_key_reuse`).  Outside the class: `policy.random_action(schedule.key)` after
# `schedule.explore()`, the schedule a parameter annotated with a class imported from the
# project (its caller runs the stream again), or a local one whose `explore()` runs again in
# a loop; inside it: `sample` runs `self.advance()`, which splits `self.rng`, and draws from
# it.  VALID: the key `next_key()` hands out; a local schedule that is not split again after
# the draw; a method that splits and stores back; `peek`, which does not run the stream
# (nothing shows that the object it draws from is ever advanced).

SCHEDULE = """\
import jax


class Schedule:
    def __init__(self, key, eps):
        self.key = key
        self.eps = eps

    def explore(self):
        self.key, key = jax.random.split(self.key)
        return jax.random.uniform(key) < self.eps

    def next_key(self):
        self.key, key = jax.random.split(self.key)
        return key


class Noise:
    def __init__(self, seed):
        self.rng = jax.random.PRNGKey(seed)

    def advance(self):
        self.rng = jax.random.split(self.rng)[0]

    def sample(self, n):
        self.advance()
        return jax.random.normal(self.rng, (n,))

    def peek(self, n):
        return jax.random.normal(self.rng, (n,))

    def fresh(self, n):
        self.rng, k = jax.random.split(self.rng)
        return jax.random.normal(k, (n,))
"""

ACT = """\
import jax

from agent.schedule import Schedule


class Policy:
    def random_action(self, key):
        return jax.random.randint(key, (), 0, 4)


def act(policy: Policy, schedule: Schedule):
    if schedule.explore():
        return policy.random_action(schedule.key)
    return 0


def act_fresh(policy: Policy, schedule: Schedule):
    if schedule.explore():
        return policy.random_action(schedule.next_key())
    return 0


def noise_twice():
    sched = Schedule(jax.random.key(0), 1.0)
    sched.explore()
    return jax.random.normal(sched.key, (2,))


def noise_loop(n):
    sched = Schedule(jax.random.key(0), 1.0)
    out = []
    for _ in range(n):
        sched.explore()
        out.append(jax.random.normal(sched.key, (2,)))
    return out
"""

_STREAM = ("`{o}.{a}` is the key `{c}.{m}` splits and stores back at each call: `{h}` draws from it "
           "here, and the next `{r}` splits that same key again, so this draw and the keys that split gives "
           "are tied (JAX's key-reuse checker raises KeyReuseError for a typed key). Draw from a key split off it (`{o}.{a}, "
           "sub = jax.random.split({o}.{a})`, then `sub`), or from one `{m}` hands out")


def test_a_key_an_object_splits_and_stores_back_drawn_directly(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"agent/__init__.py": "", "agent/schedule.py": SCHEDULE,
                                           "agent/act.py": ACT})
    assert found == [
        ("JAX301", "agent/act.py", 13, 16, _STREAM.format(o="schedule", a="key", c="Schedule", m="explore",
                                                           h="policy.random_action()", r="schedule.explore()")),
        ("JAX301", "agent/act.py", 34, 20, _STREAM.format(o="sched", a="key", c="Schedule", m="explore",
                                                           h="random.normal", r="sched.explore()")),
        ("JAX301", "agent/schedule.py", 27, 16, _STREAM.format(o="self", a="rng", c="Noise", m="advance",
                                                                h="random.normal", r="self.advance()")),
    ]
