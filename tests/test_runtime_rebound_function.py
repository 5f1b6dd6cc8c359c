"""confirm: a JAX405 finding on a line that reads only the program's own functions.

The static rule flags a module-level function or lambda rebound after a jitted function
that calls it (the compiled function keeps the one it traced).  The check changes numbers,
arrays and containers, not functions, so it has no evidence either way: "skipped", naming
the function, and never "not-reproduced" (which it said, without running, before).
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("jax")

LAMBDA = '''\
import jax
import jax.numpy as jnp

activation = lambda v: v * 2.0


@jax.jit
def forward(x):
    return jax.vmap(activation)(x)


if __name__ == "__main__":
    x = jnp.arange(3.0)
    print(forward(x))
    activation = lambda v: v * 3.0
    print(forward(x))
'''

DEF = '''\
import jax
import jax.numpy as jnp
from jax import lax

step_fn = jnp.tanh


@jax.jit
def run(xs):
    return lax.map(step_fn, xs)


if __name__ == "__main__":
    xs = jnp.arange(3.0)
    print(run(xs))
    step_fn = lambda v: v - 1.0
    print(run(xs))
'''


@pytest.mark.parametrize("source, line, name", [(LAMBDA, 9, "activation"), (DEF, 10, "step_fn")])
def test_a_rebound_function_is_skipped_not_refuted(tmp_path: Path, source: str, line: int,
                                                   name: str) -> None:
    (tmp_path / "prog.py").write_text(source)
    done = subprocess.run(
        [sys.executable, "-m", "jaxlint", "confirm", "--no-cache", "--run", "python prog.py",
         "--output-format", "json", "--select", "JAX405", "prog.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300)
    found = [(f["code"], f["location"]["row"], f["runtime"]["verdict"], f["runtime"].get("reason"))
             for f in json.loads(done.stdout)]
    assert found == [("JAX405", line, "skipped",
                      f"line {line} reads `{name}` (a function of the program), which the check "
                      "cannot change as the program would: no evidence either way")], done.stderr
