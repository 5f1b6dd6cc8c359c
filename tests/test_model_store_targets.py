"""A store into an item or an attribute (``buf[i] = v``, ``log.scale = v``) binds no
name: it writes into the object its root names (``buf``, ``log``), never into the index
``i`` nor into a variable that happens to share the attribute's name (``scale``).  And an
attribute store into a captured object matters to a jitted function only where the
function reads that attribute, or the whole object (JAX405)."""

from __future__ import annotations

import textwrap

from jaxlint.lint.linter import lint_source
from jaxlint.settings import LintSettings


def _found(code: str) -> list[tuple[str, int, int, str]]:
    res = lint_source(textwrap.dedent(code).lstrip("\n"), "m.py", LintSettings(select=frozenset({"JAX405"})))
    return [(f.code, f.line, f.col, f.message) for f in res.findings]


def test_an_index_or_an_attribute_name_in_a_store_is_not_rebound() -> None:
    assert _found("""
        import jax


        def main(xs):
            i = 0
            scale = 2.0

            def f(x):
                return x * i * scale

            g = jax.jit(f)
            out = g(xs)
            buf = {}
            buf[i] = out
            log = type("Log", (), {})()
            log.scale = out
            return g(xs), buf, log
        """) == []


def test_the_same_names_rebound_are_still_reported() -> None:
    assert _found("""
        import jax


        def main(xs):
            i = 0

            def f(x):
                return x * i

            g = jax.jit(f)
            out = g(xs)
            buf = {}
            for i in range(3):
                buf[i] = out
            return g(xs), buf
        """) == [("JAX405", 8, 20, "`i` is a local of `main` that is reassigned (line 13) after `f` has been "
                  "called: the compiled function keeps the value it read when it was traced, so the later "
                  "calls still use the old value until a retrace. Pass it as an argument")]


# A cost report written into the run's config after compiling a step that reads other
# fields of it (og-marl's compute_flops shape; and written with `+=` on a log object)
def test_an_attribute_the_jitted_function_never_reads_is_no_stale_capture() -> None:
    assert _found("""
        import jax
        import jax.numpy as jnp


        def compute(params, batch, config):
            def loss(p, b):
                return jnp.sum(p * b) * config.network.scale

            f = jax.jit(jax.grad(loss))
            compiled = f.lower(params, batch).compile()
            flops = compiled.cost_analysis()[0]["flops"]
            if "cost" not in config:
                config.cost = {}
            config.cost.train_flops = flops
            if "cost" not in config:
                config.cost = {}
            config.cost.params = 3
            return config


        def train(state, batches, run):
            def step(s, b):
                return s + b * run.hparams.lr

            step = jax.jit(step)
            run.stats.steps = 0
            for b in batches:
                state = step(state, b)
                run.stats.steps += 1
            return state
        """) == []


def test_an_attribute_it_reads_or_the_object_handed_on_whole_is_still_reported() -> None:
    msg = ("`config` is a local of `{f}` that changes in place (`config.scale = ...`) (line {line}) after "
           "`loss` has been called: the compiled function keeps the value it read when it was traced, so the "
           "later calls still use the old value until a retrace. Pass it as an argument")
    assert _found("""
        import jax
        import jax.numpy as jnp


        def compute_read(params, batch, config):
            def loss(p, b):
                return jnp.sum(p * b) * config.scale

            config.scale = 1.0
            f = jax.jit(loss)
            out = f(params, batch)
            config.scale = 2.0
            return f(params, batch) + out


        def compute_whole(params, batch, config):
            def loss(p, b):
                return helper(p, b, config)

            config.scale = 1.0
            f = jax.jit(loss)
            out = f(params, batch)
            config.scale = 2.0
            return f(params, batch) + out
        """) == [("JAX405", 7, 33, msg.format(f="compute_read", line=12)),
                 ("JAX405", 18, 29, msg.format(f="compute_whole", line=23))]
