"""False findings read on real code (fresh set 8), each removed by a change to the
model's mechanism, with the twins that must stay reported.  Snippets written here
in the shape of the mechanism (several shapes each), not copied from the code read."""

from __future__ import annotations

import textwrap

from jaxlint.lint.linter import lint_source
from jaxlint.settings import LintSettings
from jaxlint.workspace.ruleinfo import load_rule_infos

_ALL = frozenset(r.code for r in load_rule_infos())


def _found(src: str, path: str = "pkg/mod.py", code: str | None = None) -> list[tuple[str, int, int, str]]:
    result = lint_source(textwrap.dedent(src), path, LintSettings(select=_ALL))
    return [(f.code, f.line, f.col, f.message) for f in result.findings if code is None or f.code == code]


def _reuse(name: str, by: str, line: int) -> str:
    return (f"`{name}` was already consumed by `{by}` on line {line}: both calls get the same random bits. "
            f"Split it first, e.g. `k1, k2 = jax.random.split({name})`, and give each call its own key")


# --- 2. JAX301: objects built from one key, then asserted equal ---
# (the mechanism: "draws asserted equal" knew element-wise tests only, not a whole
# pytree's (`eqx.tree_equal`, `optax.tree_utils.tree_allclose`), nor one handed to a
# helper (`assert _same(eqx.tree_equal(a, b), True)`); and a call of a module's
# function (`eqx.tree_at(where, a, ...)`, `jnp.all(...)`) counted as an object that
# now holds its argument, so the module name, and every side that read it, came from
# both draws; `_` (a thrown-away result) and `self` (`self.assertTrue(...)`) did too)

def test_objects_built_from_one_key_and_compared_are_meant_to_be_equal() -> None:
    src = """\
    import equinox as eqx
    import jax
    import jax.numpy as jnp
    import optax


    def _same(a, b):
        return bool(a) == bool(b)


    def test_replace_leaf():
        k = jax.random.key(0)
        tree = {"mlp": eqx.nn.MLP(2, 2, 8, 1, key=k), "scale": 1.0}
        expected = {"mlp": eqx.nn.MLP(2, 2, 8, 1, key=k), "scale": 2.0}
        got = eqx.tree_at(lambda t: t["scale"], tree, 2.0)
        assert _same(eqx.tree_equal(got, expected), True)


    class RebuildTest:
        def test_rebuild(self):
            key = jax.random.PRNGKey(4)
            conv = eqx.nn.Conv2d(1, 3, 3, key=key)
            params, _ = eqx.partition(conv, eqx.is_array)
            again = eqx.nn.Conv2d(1, 3, 3, key=key)
            self.assertTrue(optax.tree_utils.tree_allclose(params, eqx.filter(again, eqx.is_array)))


    def test_same_init_same_fit(fit):
        init = jax.random.PRNGKey(2)
        first, _ = fit(eqx.nn.Linear(3, 1, key=init))
        second, _ = fit(eqx.nn.Linear(3, 1, key=init))
        assert jnp.all(first.weight == second.weight)
    """
    assert _found(src, code="JAX301") == []


def test_objects_from_one_key_not_asserted_equal_still_reported() -> None:
    src = """\
    import equinox as eqx
    import jax


    def test_differ():
        k = jax.random.key(0)
        a = eqx.nn.MLP(2, 2, 8, 1, key=k)
        b = eqx.nn.MLP(2, 2, 8, 1, key=k)
        assert not eqx.tree_equal(a, b)


    def test_mixed():
        k = jax.random.key(1)
        a = eqx.nn.Linear(2, 2, key=k)
        b = eqx.nn.Linear(2, 2, key=k)
        c = eqx.tree_at(lambda m: m.bias, a, b.bias)
        assert eqx.tree_equal(c, b)


    def build(key):
        enc = eqx.nn.Linear(4, 4, key=key)
        dec = eqx.nn.Linear(4, 4, key=key)
        return enc, dec
    """
    assert _found(src, code="JAX301") == [
        ("JAX301", 8, 9, _reuse("k", "eqx.nn.MLP", 7)),
        ("JAX301", 15, 9, _reuse("k", "eqx.nn.Linear", 14)),
        ("JAX301", 22, 11, _reuse("key", "eqx.nn.Linear", 21)),
    ]


# --- 2. JAX301: a name alone never makes a key ---
# (the mechanism: a function "given a key but drawing from a fixed seed" took every
# parameter named like a key (`with_params_rng`, `use_rng`) for a key, even one its
# signature declares a bool/int/str; and a key read only in a nested function (a
# closure over it) counted as never read)

def _ignored(fn: str, name: str, line: int, how: str, made: str) -> str:
    return (f"`{fn}` is given a key (`{name}`, line {line}) but never uses it: `random.{how}` draws from "
            f"`{made}`, a fixed seed, so every call of `{fn}` draws the same random numbers. "
            "Draw with the key it is given")


def test_a_parameter_declared_no_key_or_read_in_a_closure_is_not_an_ignored_key() -> None:
    src = """\
    from typing import Optional

    import jax


    def sample_batch(n, with_dropout_rng: bool):
        key = jax.random.PRNGKey(0)
        return jax.random.normal(key, (n,)), with_dropout_rng


    def init_state(shape, split_rng: Optional[int] = None, seed_key="fixed"):
        k = jax.random.key(1)
        return jax.random.uniform(k, shape)


    def make_loss(rng):
        def noisy(x):
            return x + jax.random.normal(rng, x.shape)

        base = jax.random.PRNGKey(3)
        return noisy, jax.random.uniform(base, (2,))
    """
    assert _found(src, code="JAX301") == []


def test_a_key_parameter_never_read_still_reported() -> None:
    src = """\
    import jax


    def sample(n, rng):
        key = jax.random.PRNGKey(0)
        return jax.random.normal(key, (n,))


    def perturb(x, noise_key: jax.Array):
        k = jax.random.key(1)
        return x + jax.random.uniform(k, x.shape)
    """
    assert _found(src, code="JAX301") == [
        ("JAX301", 6, 12, _ignored("sample", "rng", 4, "normal", "jax.random.PRNGKey(0)")),
        ("JAX301", 11, 16, _ignored("perturb", "noise_key", 9, "uniform", "jax.random.key(1)")),
    ]


# --- 2. JAX301: a key read through a subscript, replaced by rebinding its container ---
# (the mechanism: a key read as `rngs[1]` was known by that label alone, so a loop
# rebinding `rngs` (`rngs = split(rngs[1], 2)`) was not seen replacing it)

def _loop(name: str, how: str) -> str:
    return (f"`{name}` is consumed by `{how}` inside a loop but never replaced, so every iteration draws "
            f"the same random numbers. Split a new key each iteration (`{name}, sub = jax.random.split({name})`) "
            f"or use `jax.random.fold_in({name}, i)`")


def test_a_container_of_keys_rebound_each_iteration_replaces_them() -> None:
    src = """\
    import jax
    import jax.numpy as jnp
    from perturb import make_noise, sampler


    def noisy_loss(v, key):
        return jnp.sum(v * make_noise(key, v.shape))


    rngs = jax.random.split(jax.random.PRNGKey(0), 2)
    v = jnp.ones(3)
    first_grad = jax.grad(noisy_loss)(v, rngs[1])
    grad_fn = jax.jit(jax.grad(noisy_loss))
    for step in range(100):
        rngs = jax.random.split(rngs[1], 2)
        v = v - 0.1 * grad_fn(v, rngs[1])


    def walk(pos, n, seed):
        keys = jax.random.split(jax.random.PRNGKey(seed))
        pos = pos + jax.vmap(sampler, in_axes=(None, 0))(keys[0], pos)
        while n > 0:
            keys = jax.random.split(keys[1])
            pos, n = pos + sampler(keys[0], pos.shape), n - 1
        return pos


    def train(state, batches, seed):
        rng = {"dropout": jax.random.PRNGKey(seed)}
        for batch in batches:
            rng = dict(zip(["dropout", "noise"], jax.random.split(rng["dropout"])))
            state = state.step(batch, rng["noise"])
        return state
    """
    assert _found(src, code="JAX301") == []


def test_a_container_rebound_from_a_key_never_replaced_still_reported() -> None:
    src = """\
    import jax
    import jax.numpy as jnp

    x = jnp.zeros(3)
    rngs = jax.random.split(jax.random.PRNGKey(0), 2)
    for step in range(100):
        rngs = jax.random.split(rngs[1], 2)
        other = jax.random.split(rngs[0], 2)
        x = x - 0.1 * jax.random.normal(other[1], (3,)) + jax.random.normal(rngs[0], (3,))

    base = jax.random.PRNGKey(1)
    for step in range(100):
        rngs = jax.random.split(base, 2)
        x = x - 0.1 * jax.random.normal(rngs[0], (3,))
    """
    assert _found(src, code="JAX301") == [
        ("JAX301", 9, 55, "`rngs[0]` was already split on line 8; a split key must not be used again. Use the keys "
         "`split` returned (e.g. `rngs[0], sub = jax.random.split(rngs[0])` and pass `sub`)"),
        ("JAX301", 13, 12, _loop("base", "random.split")),
    ]


# --- 3. JAX120: a divisor kept off zero where it is computed ---
# (the mechanism: an input guarded inline (`w / (n + eps)`, `jnp.maximum(x, eps)`) was
# known safe, but not a name bound to such a value: `n = rms(g) + eps` ... `w / n`)

def test_a_divisor_bound_to_a_guarded_value_is_never_zero() -> None:
    src = """\
    import jax.numpy as jnp


    class Scaler:
        def __init__(self, eps=1e-30):
            self.eps = eps

        def ratio(self, w, g):
            g_norm = jnp.sqrt(jnp.mean(g ** 2)) + self.eps
            return jnp.where(jnp.greater(g_norm, 0), jnp.linalg.norm(w) / g_norm, 1.0)


    def normalize(x, y):
        denom = jnp.maximum(jnp.abs(x), 1e-12)
        return jnp.where(denom != 0, y / denom, 0.0)
    """
    assert _found(src, code="JAX120") == []


def test_a_divisor_not_kept_off_zero_still_reported() -> None:
    src = """\
    import jax.numpy as jnp


    def ratio(w, g, eps):
        g_norm = jnp.sqrt(jnp.mean(g ** 2))
        return jnp.where(g_norm > 0, w / g_norm, 1.0)


    def shifted(x, y):
        denom = jnp.abs(x) - 1.0
        return jnp.where(denom != 0, y / denom, 0.0)


    def step_size(d1, d2, h0):
        max_d = jnp.maximum(d1, d2)
        return jnp.where(max_d <= 1e-15, h0 * 1e-3, 0.01 / max_d)
    """
    def msg(op: str, cond: str, which: str, key: str) -> str:
        return (f"`{op}` is computed for every element, also where `{cond}` is {which} and masks it out; its "
                f"derivative is infinite/NaN {_singular_at(op, key)}, so the gradient of this `where` is NaN (0 * inf). Guard "
                f"`{key}` with the same condition too (double where: `jnp.where(cond, {key}, 1.0)` inside)")

    assert _found(src, code="JAX120") == [
        # a divisor that is a square root: guarding it leaves the root's own NaN gradient at 0 (numD)
        ("JAX120", 6, 34, '`w / g_norm` is computed for every element, also where `g_norm > 0` is false and masks it out; its derivative is infinite/NaN where `g_norm` is 0, so the gradient of this `where` is NaN (0 * inf). Guarding `g_norm` is not enough: `g_norm = jnp.sqrt(jnp.mean(g ** 2))` has a NaN gradient itself where it is 0 (the derivative of the square root there); guard the sum of squares before the root (`jnp.sqrt(jnp.where(sq > 0, sq, 1.0))` with `sq` the sum of squares), or use `optax.safe_norm`'),
        ("JAX120", 11, 34, msg("y / denom", "denom != 0", "false", "denom")),
        ("JAX120", 16, 49, msg("0.01 / max_d", "max_d <= 1e-15", "true", "max_d")),
    ]


# --- 5. JAX501: equinox's filter_jit caches its own wrappers and Modules by structure ---
# (the mechanism: every new function object was taken to miss the cache; equinox's
# `filter_vmap`/`filter_grad` wrappers and a Module's bound method are pytrees that
# `eqx.filter_jit` compares by structure: a new one of the same function hits the cache
# (checked with equinox: 1 trace in 4 calls), while a fresh closure or a plain
# object's bound method traces again (4 in 4))

def _fresh(what: str, fn: str) -> str:
    return (f"`filter_jit` of {what} compiles again on every call of `{fn}`: jit caches per function object and "
            f"`{fn}` builds a new one each time. Build it once: at module level, in a builder cached with "
            f"`functools.cache`, or jit `{fn}` itself; and pass the varying values as arguments")


def test_equinox_wrappers_of_one_function_hit_filter_jits_cache() -> None:
    src = """\
    import equinox as eqx
    import jax
    import jax.numpy as jnp


    def draw(k):
        return jax.random.normal(k, ())


    def loss(model, x):
        return jnp.sum(model(x) ** 2)


    class Model(eqx.Module):
        w: jax.Array

        def prior_draw(self, k):
            return self.w * jax.random.normal(k, ())


    def sample(keys):
        return eqx.filter_jit(eqx.filter_vmap(draw))(keys)


    def grads(model, x):
        return eqx.filter_jit(eqx.filter_grad(loss))(model, x)


    def restarts(w, keys):
        model = Model(w)
        return eqx.filter_jit(eqx.filter_vmap(model.prior_draw))(keys)
    """
    assert _found(src, code="JAX501") == []


def test_fresh_closures_under_filter_jit_still_reported() -> None:
    src = """\
    import equinox as eqx
    import jax
    import jax.numpy as jnp


    def sample(w, keys):
        def draw(k):
            return w * jax.random.normal(k, ())

        return eqx.filter_jit(eqx.filter_vmap(draw))(keys)


    def grads(model, x, scale):
        def loss(m):
            return jnp.sum(m(x) * scale)

        return eqx.filter_jit(eqx.filter_grad(loss))(model)
    """
    assert _found(src, code="JAX501") == [
        ("JAX501", 10, 12, _fresh("the result of `eqx.filter_vmap(...)`", "sample")),
        ("JAX501", 17, 12, _fresh("the result of `eqx.filter_grad(...)`", "grads")),
    ]


# --- 5. JAX501: a loop over arrays of different shapes compiles each time anyway ---
# (the mechanism: a jit built in a loop was taken to waste a compile per iteration
# even when the loop's item, passed to it, has a new shape each time: jit's cache
# misses on a new shape whatever the function object)

def _each(what: str) -> str:
    return (f"`jit` of {what} compiles again on every iteration of the loop: jit caches per function object "
            "and this one is new each time. Create the jitted function once (outside the loop or at module "
            "level) and pass the varying values as arguments")


def test_a_loop_over_arrays_of_new_shapes_compiles_each_time_anyway() -> None:
    src = """\
    import jax
    import jax.numpy as jnp
    import numpy as np


    def check_roundtrip(scale):
        for arg in (jnp.array(1.0), jnp.ones((2,)), jnp.ones((2, 2))):
            def double(x):
                return x * scale

            assert jax.jit(double)(arg).shape == arg.shape


    def check_lambda():
        for x in [np.zeros(3), np.zeros((3, 4))]:
            f = jax.jit(lambda v: v + 1)
            f(x)
    """
    assert _found(src, code="JAX501") == []


def test_a_loop_over_arrays_of_one_shape_still_reported() -> None:
    src = """\
    import jax
    import jax.numpy as jnp


    def check_roundtrip(scale):
        for arg in (jnp.ones(2), jnp.zeros(2)):
            def double(x):
                return x * scale

            assert jax.jit(double)(arg).shape == arg.shape


    def check_items(scale):
        for arg in (jnp.ones(2), jnp.ones((2, 2))):
            f = jax.jit(lambda v: v * scale)
            f(jnp.ones(3))
    """
    assert _found(src, code="JAX501") == [
        ("JAX501", 10, 16, _each("the inner function `double` defined in `check_roundtrip`")),
        ("JAX501", 15, 13, _each("a `lambda`")),
    ]


# --- 2. JAX301: keys handed to a call that switches its randomness off ---
# (the mechanism: an evaluation keyword (`enable_dropout=False`, `train=False`,
# `deterministic=True`) was read on the call consuming a `rngs=` dict only; keys split
# in a loop and written straight into a call whose function is wrapped with such a
# keyword (`vmap(partial(model, enable_dropout=False))(x, key=split(key, n))`) were
# taken as drawn from, every iteration the same)

def test_keys_given_to_an_evaluation_call_in_a_loop_are_not_drawn_from() -> None:
    src = """\
    import functools

    import jax
    import jax.numpy as jnp


    def evaluate(model, batches, key, n):
        accs = []
        for images in batches:
            logits = jax.vmap(functools.partial(model, enable_dropout=False))(
                images, key=jax.random.split(key, num=n)
            )
            accs.append(jnp.argmax(logits, -1))
        return accs


    def predict_all(apply, params, batches, rng):
        step = jax.jit(functools.partial(apply, train=False))
        return [step(params, x, jax.random.split(rng)[0]) for x in batches]
    """
    assert _found(src, code="JAX301") == []


def test_keys_given_to_a_training_call_in_a_loop_still_reported() -> None:
    src = """\
    import functools

    import jax


    def train(model, batches, key, n):
        out = []
        for images in batches:
            logits = jax.vmap(functools.partial(model, enable_dropout=True))(
                images, key=jax.random.split(key, num=n)
            )
            out.append(logits)
        return out
    """
    assert _found(src, code="JAX301") == [("JAX301", 10, 25, _loop("key", "random.split"))]


def _singular_at(op: str, key: str) -> str:
    """Where JAX120's message says the masked function's derivative is infinite/NaN:
    `log` and a division at 0 only, `sqrt` at 0 and below (jax 0.10.2)."""
    return f"where `{key}` is 0 or negative" if "sqrt" in op else f"where `{key}` is 0"
