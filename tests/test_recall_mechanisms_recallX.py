"""Batch 10's key-reuse misses by mechanism (issue 22, branch recallX), each written at
least two ways with its corrected twin:

* a key of the enclosing scope handed, inside a ``lax.scan``/``fori_loop`` body, to a
  consumer other than a ``jax.random`` sampler (a flax ``apply(rngs=...)``, a helper that
  draws, the apply of a haiku transform of the function a caller hands in): every step
  gets the same key, as in a Python loop;
* a sampler chosen by name (``getattr(jax.random, name)``) draws from a key that is
  split afterwards to make the next state;
* a key derived from the function's key rebound, unread, to a literal-seeded key: every
  later draw is the same whatever the seed;
* (precision) a key read from an attribute that the loop body rebinds
  (``s.key, k1 = split(s.key)``) is a new key every iteration.

Each INVALID program's behaviour was observed with JAX 0.10.2 (the same mask or noise at
every step; KeyReuseError under ``jax.debug_key_reuse``; the same parameters for seeds 0
and 1); the VALID twins run and draw anew."""

from __future__ import annotations

import ast
from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str]) -> list[tuple]:
    return lint_files(root, monkeypatch, files, select="JAX301", dedent=True)


def _parses(files: dict[str, str]) -> None:
    import textwrap
    for text in files.values():
        ast.parse(textwrap.dedent(text))


_SCAN_ADVICE = (" inside a {prim} body, which runs every iteration with the same key: every step draws the "
                "same random numbers. Carry the key through the loop and split it each step, or pass "
                "per-step keys as `xs` (`jax.random.split({name}, n)`)")


# https://github.com/eserie/wax-ml/pull/45 (batch 10, case 1000): the scan body applies the
# haiku transform of the caller's function with the enclosing rng at every step
WAX_UNROLL = """\
    from typing import Any, cast

    import haiku as hk
    import jax
    from haiku import TransformedWithState


    def unroll_transform_with_state(fun):
        if not isinstance(fun, TransformedWithState):
            fun = hk.transform_with_state(fun)
        fun = cast(TransformedWithState, fun)

        def apply_fn(params: Any, state: Any, rng, xs):
            def scan_f(prev_state, x):
                outputs, next_state = fun.apply(
                    params, prev_state, rng, x
                )
                return next_state, outputs

            return jax.lax.scan(scan_f, init=state, xs=xs)

        return apply_fn


    def unroll_python(f):
        fun = hk.transform(f)

        def apply_fn(params, rng, xs):
            return [fun.apply(params, rng, x) for x in xs]

        return apply_fn
"""

# the fix of that PR: the rng travels in the carry and is split at every step; an apply
# given None, an evaluation apply, and two applies in a row (what the function draws
# cannot be seen) stay silent
WAX_UNROLL_FIXED = """\
    import haiku as hk
    import jax


    def unroll_transform_with_state(fun):
        fun = hk.transform_with_state(fun)

        def apply_fn(params, state, rng, xs):
            def scan_f(carry, x):
                prev_state, rng = carry
                rng, sub = jax.random.split(rng)
                outputs, next_state = fun.apply(params, prev_state, sub, x)
                return (next_state, rng), outputs

            return jax.lax.scan(scan_f, (state, rng), xs)

        def apply_no_rng(params, state, xs):
            def scan_f(prev_state, x):
                outputs, next_state = fun.apply(params, prev_state, None, x)
                return next_state, outputs

            return jax.lax.scan(scan_f, state, xs)

        def evaluate(params, state, rng, xs):
            def scan_f(prev_state, x):
                outputs, next_state = fun.apply(params, prev_state, rng, x, is_training=False)
                return next_state, outputs

            return jax.lax.scan(scan_f, state, xs)

        def twice(params, state, rng, x, y):
            a, _ = fun.apply(params, state, rng, x)
            b, _ = fun.apply(params, state, rng, y)
            return a, b

        return apply_fn, apply_no_rng, evaluate, twice
"""


def test_scan_body_hands_enclosing_key_to_caller_transform_apply(tmp_path, monkeypatch):
    files = {"wax_lite/__init__.py": "", "wax_lite/unroll.py": WAX_UNROLL,
             "fixed/__init__.py": "", "fixed/unroll.py": WAX_UNROLL_FIXED}
    _parses(files)
    assert _lint(tmp_path, monkeypatch, files) == [
        ("JAX301", "wax_lite/unroll.py", 16, 37,
         "`rng` comes from the enclosing scope and is consumed by `fun.apply(...)`"
         + _SCAN_ADVICE.format(prim="lax.scan", name="rng")),
        ("JAX301", "wax_lite/unroll.py", 29, 17,
         "`rng` is consumed by `fun.apply(...)` inside a comprehension but never replaced, so every "
         "iteration draws the same random numbers. Split a new key each iteration (`rng, sub = "
         "jax.random.split(rng)`) or use `jax.random.fold_in(rng, i)`"),
    ]


# another library and another consumer (written for this branch after case 1000's
# mechanism; observed: the same dropout mask at every step / the same noise every step)
FLAX_SCAN = """\
    import flax.linen as nn
    import jax


    class Drop(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.Dropout(0.5, deterministic=False)(x)


    def unroll(variables, xs, rng):
        model = Drop()

        def step(carry, x):
            return carry, model.apply(variables, x, rngs={"dropout": rng})

        return jax.lax.scan(step, 0, xs)[1]


    def unroll_fixed(variables, xs, rng):
        model = Drop()

        def step(key, x):
            key, sub = jax.random.split(key)
            return key, model.apply(variables, x, rngs={"dropout": sub})

        return jax.lax.scan(step, rng, xs)[1]
"""

NOISE = """\
    import jax


    def add_noise(key, x):
        return x + 0.1 * jax.random.normal(key, x.shape)
"""

WALK = """\
    import jax

    from sim.noise import add_noise


    def random_walk(x0, key, n):
        def body(i, x):
            return add_noise(key, x)

        return jax.lax.fori_loop(0, n, body, x0)


    def random_walk_fixed(x0, key, n):
        def body(i, x):
            return add_noise(jax.random.fold_in(key, i), x)

        return jax.lax.fori_loop(0, n, body, x0)
"""


def test_scan_and_fori_bodies_hand_enclosing_key_to_apply_rngs_and_helpers(tmp_path, monkeypatch):
    files = {"flax_scan.py": FLAX_SCAN, "sim/__init__.py": "", "sim/noise.py": NOISE, "sim/walk.py": WALK}
    _parses(files)
    assert _lint(tmp_path, monkeypatch, files) == [
        ("JAX301", "flax_scan.py", 15, 23,
         "`rng` comes from the enclosing scope and is consumed by `model.apply(rngs=...)`"
         + _SCAN_ADVICE.format(prim="lax.scan", name="rng")),
        ("JAX301", "sim/walk.py", 8, 16,
         "`key` comes from the enclosing scope and is consumed by `random.normal` via `add_noise`"
         + _SCAN_ADVICE.format(prim="lax.fori_loop", name="key")),
    ]


# https://github.com/aesara-devs/aesara/issues/1344 (batch 10, case 1002): the sampler,
# chosen by name, draws with the key, which is then split to make the next state
AESARA = """\
    import jax


    def jax_sample_fn(name):
        jax_op = getattr(jax.random, name)

        def sample_fn(rng, size, dtype, *parameters):
            rng_key = rng["jax_state"]
            sample = jax_op(rng_key, *parameters, shape=size, dtype=dtype)
            rng["jax_state"] = jax.random.split(rng_key, num=1)[0]
            return (rng, sample)

        return sample_fn


    def jax_sample_fn_fixed(name):
        jax_op = getattr(jax.random, name)

        def sample_fn(rng, size, dtype, *parameters):
            rng_key = rng["jax_state"]
            rng_key, sample_key = jax.random.split(rng_key, 2)
            sample = jax_op(sample_key, *parameters, shape=size, dtype=dtype)
            rng["jax_state"] = rng_key
            return (rng, sample)

        return sample_fn
"""

# the same on an object's attribute, jax.random imported as `random` (written for this
# branch; observed: KeyReuseError on the second draw)
SAMPLER = """\
    from jax import random


    class Sampler:
        def __init__(self, dist, seed):
            self.dist = dist
            self.key = random.key(seed)

        def draw(self, shape):
            sampler = getattr(random, self.dist)
            x = sampler(self.key, shape)
            self.key = random.split(self.key)[0]
            return x


    class SamplerFixed:
        def __init__(self, dist, seed):
            self.dist = dist
            self.key = random.key(seed)

        def draw(self, shape):
            sampler = getattr(random, self.dist)
            self.key, sub = random.split(self.key)
            return sampler(sub, shape)
"""


def test_sampler_chosen_by_name_then_key_split_for_next_state(tmp_path, monkeypatch):
    files = {"random_ops.py": AESARA, "sampler.py": SAMPLER}
    _parses(files)

    def msg(name, sampler, line, short):
        return (f"`{name}` was already consumed by `{sampler} = getattr(jax.random, ...)` on line {line} and is "
                "split here: JAX promises independent random numbers only for a key used once (with "
                "`jax_debug_key_reuse` on, this split raises KeyReuseError for a typed key from `jax.random.key`). Split before the first use, e.g. "
                f"`{short}, sub = jax.random.split({name})`, and draw with `sub`")
    assert _lint(tmp_path, monkeypatch, files) == [
        ("JAX301", "random_ops.py", 10, 28, msg("rng_key", "jax_op", 9, "rng_key")),
        ("JAX301", "sampler.py", 12, 20, msg("self.key", "sampler", 11, "key")),
    ]


# https://github.com/luchris429/purejaxrl/issues/35 (batch 10, case 1042): a dummy key
# overwrites the one split from the seed, so every later split is the same for any seed
DQN = """\
    import jax


    def make_train(env, n_envs):
        def train(rng):
            rng, _rng = jax.random.split(rng)
            env_state = env.reset_batch(_rng, n_envs)

            rng = jax.random.PRNGKey(0)  # use a dummy rng here

            rng, _rng = jax.random.split(rng)
            w = jax.random.normal(_rng, (4, 2))
            return w, env_state, rng

        return train
"""

# written another way (jax.random.key, fold_in, a module-level function; observed: the
# same parameters for seeds 0 and 1), and the twins: the fixed key under its own name,
# a default for a missing key, a chain that starts from a literal seed
SETUP = """\
    import jax


    def init_params(key, n):
        return {"w": jax.random.normal(key, (n, n))}


    def setup(seed_key, step, n):
        seed_key = jax.random.fold_in(seed_key, step)
        seed_key = jax.random.key(42)
        seed_key, init_key = jax.random.split(seed_key)
        return init_params(init_key, n)


    def setup_fixed(seed_key, step, n):
        seed_key = jax.random.fold_in(seed_key, step)
        example_key = jax.random.key(42)
        example = jax.random.bernoulli(example_key, 0.5, (n,))
        seed_key, init_key = jax.random.split(seed_key)
        return init_params(init_key, n), example


    def setup_default(n, key=None):
        if key is None:
            key = jax.random.key(0)
        key, init_key = jax.random.split(key)
        return init_params(init_key, n)


    def restart(n):
        key = jax.random.key(0)
        key, sub = jax.random.split(key)
        key = jax.random.key(1)
        key, init_key = jax.random.split(key)
        return init_params(init_key, n)
"""


def test_derived_key_rebound_to_literal_seed(tmp_path, monkeypatch):
    files = {"dqn.py": DQN, "setup.py": SETUP}
    _parses(files)

    def msg(name, fn, line, made):
        return (f"`{name}` holds a key derived from the one `{fn}` is given (line {line}) and is rebound here, "
                f"unread, to `{made}`, a fixed seed: every key drawn from `{name}` after this line is the same "
                f"whatever key `{fn}` is given. Give the fixed key its own name and go on splitting `{name}`")
    assert _lint(tmp_path, monkeypatch, files) == [
        ("JAX301", "dqn.py", 9, 9, msg("rng", "train", 6, "jax.random.PRNGKey(0)")),
        ("JAX301", "setup.py", 10, 5, msg("seed_key", "setup", 9, "jax.random.key(42)")),
    ]


# https://github.com/netket/netket/pull/1172 (batch 10, case 1014, an extra finding at
# main): the loop body reads the key from `s.key` and stores the next one there
SCOPE_KEY = """\
    import jax


    def sample_next(state, n, make_scope):
        new_rng, rng = jax.random.split(state.rng)
        with make_scope() as s:
            s.key = rng
            for i in range(n):
                s.key, key1, key2 = jax.random.split(s.key, 3)
                s.u = jax.random.uniform(key2) + jax.random.uniform(key1)
        return new_rng, s.u
"""


def test_key_read_from_attribute_the_loop_rebinds_is_new_each_iteration(tmp_path, monkeypatch):
    files = {"metropolis.py": SCOPE_KEY}
    _parses(files)
    assert _lint(tmp_path, monkeypatch, files) == []
