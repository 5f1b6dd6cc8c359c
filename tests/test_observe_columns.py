"""`observe` and `check` point at the same column for a Python test on a traced value.

Python gives the jump that converts an `if`/`elif`/`while`/`assert` test to a bool the
span of the whole statement, so the run's TracerBoolConversionError came back at the
keyword (`env.py:21:5`) while `check` reports the test (`:8`): one sharp bit, two
columns in an editor (new-user review 18, problem 13). The run's span is narrowed to
the test. Subprocess tests, real JAX on CPU.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("jax")

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="uses /proc")

PROGRAMS = {
    # a name as the whole test: the jump's span is the statement's
    "if_name.py": ('''\
        import jax
        import jax.numpy as jnp


        @jax.jit
        def step(x):
            done = jnp.sum(x) > 3.0
            if done:
                x = x * 0.0
            return x


        step(jnp.ones(4))
        ''', 8, 8, 12),
    "elif_name.py": ('''\
        import jax
        import jax.numpy as jnp


        @jax.jit
        def step(x):
            done = jnp.sum(x) > 3.0
            if x.shape[0] > 8:
                x = x + 1.0
            elif done:
                x = x * 0.0
            return x


        step(jnp.ones(4))
        ''', 10, 10, 14),
    "while_name.py": ('''\
        import jax
        import jax.numpy as jnp


        @jax.jit
        def shrink(x):
            big = jnp.max(x) > 1.0
            while big:
                x = x / 2.0
                big = jnp.max(x) > 1.0
            return x


        shrink(jnp.ones(4) * 8.0)
        ''', 8, 11, 14),
}


def lint_json(cwd: Path, *args: str) -> list[tuple]:
    done = subprocess.run([sys.executable, "-m", "jaxlint", *args, "--no-cache",
                           "--output-format", "json"],
                          cwd=cwd, capture_output=True, text=True, timeout=180)
    return [(f["code"], f["location"]["row"], f["location"]["column"],
             f["end_location"]["column"]) for f in json.loads(done.stdout)]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_run_points_at_the_test_like_check(tmp_path, name):
    text, line, col, end = PROGRAMS[name]
    (tmp_path / name).write_text(textwrap.dedent(text))
    observed = lint_json(tmp_path, "observe", "--run", f"{sys.executable} {name}", name)
    assert observed == [("JAX201", line, col, end)]
    checked = lint_json(tmp_path, "check", name)
    assert [f for f in checked if f[0] == "JAX201"] == [("JAX201", line, col, end)]
