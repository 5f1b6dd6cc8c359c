"""Shapes that reach a function's parameters from its calls (model/arg_shapes.py), also
across modules (jax#3493: `network_output[20]` of a `(4, 10)` product, in a loss that a
jitted step differentiates in another module).  Every INVALID tree was run with JAX
0.10.2 (the read clamps to row 3); every VALID twin runs."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from jaxlint.cli import cli

LOSSES = """\
import jax
import jax.numpy as jnp


def loss(params, obs):
    out = params * obs
    return jnp.sum(jax.lax.stop_gradient(params[0]) * out[20])
"""

TRAIN = """\
import jax
import jax.numpy as jnp

import losses


@jax.jit
def update(params, obs):
    value, grad = jax.value_and_grad(losses.loss)(params, obs)
    return params - grad


print(update(jnp.ones((10,)), jnp.ones(({rows}, 10))))
"""


def _lint(root: Path) -> list[tuple[str, str, int, int, str]]:
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "json"])
    assert result.exit_code in (0, 1), result.output
    return [(f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"])
            for f in json.loads(result.stdout)]


def _tree(root: Path, files: dict[str, str]) -> None:
    (root / "pyproject.toml").write_text("")
    for name, text in files.items():
        (root / name).write_text(text)


def test_a_shape_passed_through_a_jitted_step_to_a_differentiated_loss_of_another_module(tmp_path, monkeypatch):
    _tree(tmp_path, {"losses.py": LOSSES, "train.py": TRAIN.format(rows=4)})
    monkeypatch.chdir(tmp_path)
    assert _lint(tmp_path) == [(
        "JAX121", "losses.py", 7, 59,
        "index 20 is out of bounds for axis 0 with size 4, and JAX raises no IndexError: the read is "
        "clamped to the nearest valid index (silently the wrong element)",
    )]


def test_shapes_from_other_modules_that_differ_or_a_loss_passed_as_a_value_stay_silent(tmp_path, monkeypatch):
    # 24 rows: in bounds; another module passing (4, 10) as well makes the shape unknown,
    # and so does one handing `loss` to another function (it may call it with anything)
    _tree(tmp_path, {"losses.py": LOSSES, "train.py": TRAIN.format(rows=24)})
    monkeypatch.chdir(tmp_path)
    assert _lint(tmp_path) == []
    (tmp_path / "evaluate.py").write_text(
        "import jax.numpy as jnp\n\nfrom losses import loss\n\nprint(loss(jnp.ones((10,)), jnp.ones((4, 10))))\n")
    assert _lint(tmp_path) == []
    (tmp_path / "train.py").write_text(TRAIN.format(rows=4))
    evaluate = "import jax.numpy as jnp\n\nfrom losses import loss\n\n\ndef run(f):\n    return f\n\n\n{}print(loss(jnp.ones((10,)), jnp.ones((4, 10))))\n"
    (tmp_path / "evaluate.py").write_text(evaluate.format("run(loss)\n"))
    assert _lint(tmp_path) == []
    (tmp_path / "evaluate.py").write_text(evaluate.format(""))  # the same shapes, no other use
    assert [f[:4] for f in _lint(tmp_path)] == [("JAX121", "losses.py", 7, 59)]
