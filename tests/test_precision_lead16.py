"""Key reuse that cannot happen (fresh set 16's reviews, after the round's measure):
a key wrapper that refuses a second draw, and a draw guarded by the loop variable equal
to one value of a loop over distinct values.  Each VALID shape is written two ways, each
with an INVALID twin that must still be reported."""

from __future__ import annotations

from rule_examples import lint


def _found(code: str):
    return [(f.code, f.line, f.col, f.message) for f in lint(code, select={"JAX301"})]


# alphafold's `prng.SafeKey` (copied by ColabDesign's `shared/prng.py`): `split` raises on
# a second use, so the stored key is drawn from once
SAFE_KEY = """\
import jax


class SafeKey:
    def __init__(self, key):
        self._key = key
        self._used = False

    def _assert_not_used(self):
        if self._used:
            raise RuntimeError("Random key has been used previously.")

    def split(self, num_keys=2):
        self._assert_not_used()
        self._used = True
        return jax.random.split(self._key, num_keys)
"""

# the same guard written inline, with `assert`
ONCE_ASSERT = """\
import jax


class OneShot:
    def __init__(self, key):
        self.key = key
        self.spent = False

    def draw(self, shape):
        assert not self.spent, "draw once"
        self.spent = True
        return jax.random.normal(self.key, shape)
"""

# the twin with no guard: every call of `split` draws the same numbers
KEY_HOLDER = """\
import jax


class KeyHolder:
    def __init__(self, key):
        self._key = key
        self._used = False

    def split(self, num_keys=2):
        self._used = True
        return jax.random.split(self._key, num_keys)
"""

# ColabDesign's trRosetta block: dropout only on the second of two passes
ONE_PASS = """\
import jax
import jax.numpy as jnp


def dropout(x, key, rate):
    keep = jax.random.bernoulli(key, 1.0 - rate, shape=x.shape)
    return keep * x / (1.0 - rate)


def block(x, key, rate=0.15):
    y = x
    for n in [0, 1]:
        if n == 1:
            y = dropout(y, key, rate)
        y = jnp.tanh(y)
    return y
"""

# written another way: a `range` loop, the literal on the left, the draw inline
FIRST_STEP = """\
import jax
import jax.numpy as jnp


def rollout(x, key, steps=4):
    for t in range(steps):
        if 0 == t:
            x = x + jax.random.normal(key, x.shape)
        x = jnp.tanh(x)
    return x
"""

# the twin whose test holds on every iteration: the same mask every pass
EVERY_PASS = ONE_PASS.replace("if n == 1:", "if n >= 0:")


def test_a_key_wrapper_that_refuses_a_second_draw_is_silent():
    assert _found(SAFE_KEY) == []
    assert _found(ONCE_ASSERT) == []


def test_a_stored_key_without_the_guard_is_still_reported():
    assert _found(KEY_HOLDER) == [(
        "JAX301", 11, 16,
        "`self._key` is set only when the object is built and `split` draws from it with `random.split` without "
        "replacing it, so every call of `split` draws the same random numbers. Split it in the method (`self._key, "
        "sub = jax.random.split(self._key)`) and draw with `sub`")]


def test_a_draw_on_one_iteration_of_a_loop_is_silent():
    assert _found(ONE_PASS) == []
    assert _found(FIRST_STEP) == []


def test_a_draw_on_every_iteration_is_still_reported():
    assert _found(EVERY_PASS) == [(
        "JAX301", 14, 17,
        "`key` is consumed by `random.bernoulli` via `dropout` inside a loop but never replaced, so every iteration "
        "draws the same random numbers. Split a new key each iteration (`key, sub = jax.random.split(key)`) or use "
        "`jax.random.fold_in(key, i)`")]
