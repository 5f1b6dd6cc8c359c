"""A layer of a neural-network library applied to a tracer, inside traced code, gives a
tracer: ``nn.Dense(3).apply(variables, x)`` (flax), ``hk.nets.MLP([4, 1])(x)`` (haiku, in a
transformed function), ``eqx.nn.Linear(3, 1, key=k)(x)`` (equinox).  A Python ``if`` on it
raises TracerBoolConversionError (checked with JAX 0.10.2, flax 0.12.8); the model had
them unknown, and unknown never reports."""

from __future__ import annotations

import textwrap

from jaxlint.lint.linter import lint_source
from jaxlint.settings import LintSettings


def _found(code: str) -> list[tuple[str, int, int, str]]:
    res = lint_source(textwrap.dedent(code).lstrip("\n"), "m.py", LintSettings(select=frozenset({"JAX201"})))
    return [(f.code, f.line, f.col, f.message) for f in res.findings]


def test_a_library_layer_applied_to_a_tracer_gives_a_tracer() -> None:
    msg = ("Python `if` on a traced value: it depends on the traced argument `x` of `{f}` ({how}); this "
           "raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`")
    assert _found("""
        import equinox as eqx
        import flax.linen as nn
        import haiku as hk
        import jax


        @jax.jit
        def step(params, x):
            logits = nn.Dense(3).apply({"params": params}, x)
            if logits.max() > 0:
                return logits
            return -logits


        def forward(x):
            out = hk.nets.MLP([4, 1])(x)
            if out.sum() > 0:
                return out
            return -out


        model = hk.transform(forward)
        apply = jax.jit(model.apply)


        @eqx.filter_jit
        def head(x: jax.Array, key):
            y = eqx.nn.Linear(3, 1, key=key)(x)
            if y[0] > 0:
                return y
            return -y
        """) == [
        ("JAX201", 10, 8, msg.format(f="step", how="decorated with @jax.jit")),
        ("JAX201", 17, 8, msg.format(f="forward", how="wrapped by jax.jit as `model.apply`")),
        ("JAX201", 29, 8, msg.format(f="head", how="decorated with @eqx.filter_jit")),
    ]


def test_outside_traced_code_or_on_static_values_it_stays_silent() -> None:
    assert _found("""
        import flax.linen as nn
        import jax
        import jax.numpy as jnp


        def evaluate(params, x):
            logits = nn.Dense(3).apply({"params": params}, x)
            if logits.max() > 0:
                return logits
            return -logits


        @jax.jit
        def step(params, x):
            mask = nn.make_attention_mask(x, x)
            width = nn.Dense(3).features
            if width > 2:
                return mask
            return jnp.zeros(3)
        """) == []
