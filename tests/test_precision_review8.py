"""Programs that run correctly with JAX 0.10.2 (each prints its result; checked when
written) which this round's new checks reported, found by the review of the merged
round.  Each is linted alone and must give no finding:

* tf_guard.py: `try: import jax.numpy as xp; from jax.experimental import jax2tf`
  `except ImportError: import numpy as xp`: jax2tf needs TensorFlow, so the NumPy
  fallback may be the live one (JAX101 offered a safe `.at[]` fix on NumPy code);
* eqx_inf_field.py: `max_norm: float = jnp.inf` in an equinox Module is a value, not a
  function leaf (JAX209);
* cond_key.py: a global-key fallback after an early `return key` (JAX406);
* dispatch_np.py: `_IMPL[backend](x)` with `backend` a static argument (JAX204);
* subclass_attr.py: `self.WIDTHS` overridden by the subclass the method runs on (JAX207);
* spectral.py: `matrix_norm(m, ord=2)` is the largest singular value, finite gradient at
  the zero matrix (JAX120);
* neg_static.py: `static_argnums=-1` counts from the end (JAX202);
* seg_static.py: `vmap(segment_sum, in_axes=(0, 0, None))` called with the size (JAX206).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from jaxlint.cli import cli

DATA = Path(__file__).parent / "data" / "review8"


@pytest.mark.parametrize("name", ["tf_guard.py", "eqx_inf_field.py", "cond_key.py", "dispatch_np.py",
                                  "subclass_attr.py", "spectral.py", "neg_static.py", "seg_static.py"])
def test_fine_programs_the_round_reported(name, tmp_path, monkeypatch):
    (tmp_path / name).write_text((DATA / name).read_text())
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", name, "--no-cache", "--output-format", "concise"])
    assert result.stdout.splitlines() == ["All checks passed!"], result.stdout
