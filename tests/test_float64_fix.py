"""JAX110 offers its float64 -> float32 fix only where nothing in the file
suggests that x64 may be on where it runs (a test file, any mention of x64, a
check for a 64-bit dtype): there the finding comes without a fix."""

from __future__ import annotations

import pytest

from jaxlint.lint.linter import lint_source
from jaxlint.settings import LintSettings

MESSAGE = ("`float64` requested in `jnp.zeros` is truncated to 32-bit because jax_enable_x64 "
           "is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`")
PLAIN = "import jax\nimport jax.numpy as jnp\n\nx = jnp.zeros(3, dtype=jnp.float64)\n"


def _findings(text: str, path: str = "pkg/model.py"):
    result = lint_source(text, path, LintSettings(select=frozenset({"JAX110"})))
    return [(f.code, f.line, f.col, f.message, f.fix.applicability.value if f.fix else None,
             [e.content for e in f.fix.edits] if f.fix else None) for f in result.findings]


def test_a_plain_module_gets_the_unsafe_fix() -> None:
    assert _findings(PLAIN) == [("JAX110", 4, 24, MESSAGE, "unsafe", ["jnp.float32"])]


@pytest.mark.parametrize("path", [
    "tests/test_model.py", "pkg/test_model.py", "pkg/model_test.py", "conftest.py", "test/helpers.py",
    "project/tests/data/make.py",
])
def test_no_fix_in_a_test_file(path: str) -> None:
    assert _findings(PLAIN, path) == [("JAX110", 4, 24, MESSAGE, None, None)]


@pytest.mark.parametrize("extra", [
    # the flag read or set with a value the linter cannot see
    "\n\ndef double():\n    return jax.config.jax_enable_x64\n",
    "\nimport os\njax.config.update('jax_enable_x64', os.environ.get('DOUBLE') == '1')\n",
    "\n\ndef setup(flags):\n    jax.config.update('jax_enable_x64', flags.x64)\n",
    # x64 enabled for other code of the file
    "\nwith jax.experimental.enable_x64():\n    y = jnp.ones(2)\n",
    # a helper, fixture or marker that says x64, or a comment
    "\nfrom mytests import requires_x64\n",
    "\n# run with JAX_ENABLE_X64=1\n",
    # the code expects 64-bit values (a check after the finding)
    "\nassert x.dtype == jnp.float64\n",
    "\nEPS = jnp.finfo(jnp.float64).eps\n",
])
def test_no_fix_where_the_file_suggests_x64(extra: str) -> None:
    assert _findings(PLAIN + extra) == [("JAX110", 4, 24, MESSAGE, None, None)]


def test_a_float32_check_does_not_withdraw_the_fix() -> None:
    text = PLAIN + "\nassert jnp.ones(2).dtype == jnp.float32\nTINY = jnp.finfo(jnp.float32).tiny\n"
    assert _findings(text) == [("JAX110", 4, 24, MESSAGE, "unsafe", ["jnp.float32"])]
