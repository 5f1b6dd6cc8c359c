"""JAX401's words for a loop body traced outside jit (new-user review 17, problem 12):
``jax.lax.scan(body, ...)`` called in plain Python traces ``body`` on each call when
``body`` is a new closure, so a print there shows ``JitTracer(float32[])`` on every
call of the enclosing function (JAX 0.10.2 printed it twice for two calls), once for
all iterations.  "later calls print nothing" was wrong there; it stays for a body
inside a jitted function, which runs once per compilation."""

from __future__ import annotations

import pytest

from project_files import lint_files

SCAN = """\
import jax
import jax.numpy as jnp


{DECORATOR}def discounted_returns(rewards, gamma=0.99):
    def body(ret, r):
        ret = r + gamma * ret
        print(f"return so far: {ret}")
        return ret, ret
    _, out = jax.lax.scan(body, jnp.zeros(()), rewards, reverse=True)
    return out


discounted_returns(jnp.ones(5))
discounted_returns(jnp.ones(5))
"""

FORI = """\
from jax import lax
import jax.numpy as jnp


def power_iteration(m, v, n):
    def step(i, v):
        v = m @ v
        print("norm", jnp.linalg.norm(v))
        return v / jnp.linalg.norm(v)
    return lax.fori_loop(0, n, step, v)
"""

ONCE_PER_TRACE = ("`print` in `{fn}`, a body passed to {loop}, runs only while JAX traces it (once for all its "
                  "iterations) and prints a tracer (e.g. `JitTracer(float32[])`), not each iteration's values. "
                  "Use `jax.debug.print(\"{{}}\", x)` to print runtime values")
ONCE = ("`print` in traced `{fn}` runs once, at trace time, and prints a tracer (e.g. `JitTracer(float32[])`), "
        "not the values; later calls print nothing. Use `jax.debug.print(\"{{}}\", x)` to print runtime values")


def _401(tmp_path, monkeypatch, files):
    return lint_files(tmp_path, monkeypatch, files, select="JAX401")


@pytest.mark.parametrize("decorator, message", [
    ("", ONCE_PER_TRACE.format(fn="body", loop="lax.scan")),
    ("@jax.jit\n", ONCE.format(fn="body")),
])
def test_a_scan_body_outside_jit_prints_on_every_call_not_once(tmp_path, monkeypatch, decorator, message) -> None:
    line = 8 + bool(decorator)
    assert _401(tmp_path, monkeypatch, {"returns.py": SCAN.replace("{DECORATOR}", decorator)}) == [
        ("JAX401", "returns.py", line, 9, message)]


def test_a_fori_loop_body_in_another_spelling(tmp_path, monkeypatch) -> None:
    assert _401(tmp_path, monkeypatch, {"power.py": FORI}) == [
        ("JAX401", "power.py", 8, 9, ONCE_PER_TRACE.format(fn="step", loop="lax.fori_loop"))]
