"""Which functions run traced when a transformation reaches them through an object that
holds them: haiku's ``hk.transform(f).apply``, optax's ``GradientTransformation.update``
(jaxlint/model/holders.py).  Every INVALID line was checked with JAX (jax 0.10.2,
dm-haiku 0.0.17, optax 0.2.8): TracerBoolConversionError; the VALID ones run."""

from __future__ import annotations

from rule_examples import lint

HELD = """\
import functools

import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    h = hk.Linear(3)(x)
    if h.mean() > 0:  # traced under the jitted step below
        return h
    return -h


f = hk.without_apply_rng(hk.transform(forward))


@jax.jit
def step(params, x):
    return f.apply(params, x)


@hk.transform
def net(x, is_training):
    h = hk.Linear(3)(x)
    if is_training:  # static: jit's static_argnums=3 is apply's (params, rng, x, is_training)
        h = h * 2
    if h.sum() > 0:
        return h
    return h


predict = jax.jit(net.apply, static_argnums=3)


def eager(x):
    h = hk.Linear(3)(x)
    if h.mean() > 0:  # runs eagerly: apply is never jitted
        return h
    return -h


g = hk.transform(eager)


def run(params, key, x):
    return g.apply(params, key, x)


def clip_update(updates, state, params=None):
    del params
    if jnp.linalg.norm(updates) > 1.0:  # jax.jit(tx.update)
        updates = updates / 2
    return updates, state


tx = optax.GradientTransformation(lambda p: (), clip_update)
update = jax.jit(tx.update)


def scale_update(updates, state, params=None):
    if state is None:  # a Python value: never traced
        return updates, state
    return updates, state


tx2 = optax.GradientTransformation(init=lambda p: None, update=scale_update)


def plain_step(g, params):
    return tx2.update(g, None, params)
"""


def test_haiku_apply_and_optax_update_trace_the_function_they_hold():
    found = lint(HELD)
    assert [(f.code, f.line, f.col) for f in found] == [
        ("JAX201", 11, 8),  # f.apply(params, x) called in a jitted step (without_apply_rng)
        ("JAX201", 29, 8),  # jax.jit(net.apply, static_argnums=3): `is_training` static, `x` traced
        ("JAX201", 53, 8),  # jax.jit(tx.update)
    ]
    assert found[1].message == (
        "Python `if` on a traced value: it depends on the traced argument `x` of `net` (wrapped by "
        "jax.jit as `net.apply`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"
    )
    assert found[0].message.startswith(
        "Python `if` on a traced value: it depends on the traced argument `x` of `forward` (called from traced `step`)")


FILTERED = """\
import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit
def make_step(model, x, n):
    print("x", x)
    if n > 2:
        x = x * 2
    return model(x)


@eqx.filter_jit
def other(model, x, n):
    print("x", x)
    return model(jnp.asarray(x)) * n


def main():
    model = eqx.nn.Linear(2, 1, key=jax.random.PRNGKey(0))
    make_step(model, jnp.ones((2,)), 3)
    other(model, [1.0, 2.0], 3)
"""


def test_filter_jit_traces_the_unannotated_parameters_its_calls_pass_arrays():
    """equinox traces array leaves and keeps Python values static (checked: `x` prints
    `JitTracer(float32[2])` in make_step and `[1.0, 2.0]` in other; `n > 2` runs)."""
    found = lint(FILTERED)
    assert [(f.code, f.line, f.col) for f in found] == [("JAX401", 8, 5)]


BOUND = """\
import functools

import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, delta):
        self.delta = delta

    def loss(self, p, x):
        err = jnp.abs(x @ p)
        if err.max() < self.delta:
            return jnp.sum(err ** 2)
        return jnp.sum(err)

    def clip(self, g):
        if g.sum() > 1.0:
            return g / 2
        return g

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, p, x):
        l, g = jax.value_and_grad(self.loss)(p, x)
        return p - self.clip(g)

    def evaluate(self, ps, x, k):
        return jax.vmap(self.score, in_axes=(0, None, None))(ps, x, k)

    def score(self, p, x, k):
        if k > 1:
            p = p * k
        return max(0.0, jnp.sum(p * x))
"""


def test_bound_methods_transformed_or_called_from_a_jitted_method():
    """Methods defined before the jitted method that reaches them (`jax.value_and_grad(
    self.loss)`, `self.clip(g)`), and `jax.vmap(self.score, in_axes=...)` whose in_axes
    count after `self` (checked: TracerBoolConversionError at lines 13, 18 and 33; `k > 1`
    runs, k is not mapped)."""
    found = lint(BOUND)
    assert [(f.code, f.line, f.col) for f in found] == [
        ("JAX201", 13, 12), ("JAX201", 18, 12), ("JAX201", 33, 16)]
    assert found[2].message.startswith(
        "`max()` compares its arguments as Python bools, but `jnp.sum(p * x)` is traced: it depends on "
        "the traced argument `p` of `score` (wrapped by jax.vmap)")


def test_a_module_method_called_at_module_level_with_unpacked_shape_ints():
    """The call site is module-level code (dynamax's demos): its unpacked names are read
    from the module's own statements (an internal error before)."""
    found = lint(
        "import flax.linen as nn\n"
        "import jax.numpy as jnp\n"
        "\n"
        "class Emb(nn.Module):\n"
        "    def table(self, n, d):\n"
        "        return jnp.zeros((n, d))\n"
        "\n"
        "x = jnp.ones((4, 3))\n"
        "n, d = x.shape\n"
        "t = Emb().table(n, d)\n"
    )
    assert [(f.code, f.line) for f in found] == []
