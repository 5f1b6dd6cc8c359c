"""The diff review of session 18 (a reviewer reading the merged round): each fix with
the program that showed the defect (INVALID still reported where it should be, VALID
silent), run with JAX 0.10.2 by the reviewer where JAX's behaviour was the question."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from jaxlint.cli import cli
from jaxlint.engine.suppression import comment_lines
from project_files import lint_files

# an override that only runs eagerly: `m = Model(); jax.jit(m.step)` traces `Model.step`
# on a `Model`, so `self.hook()` there is `Model.hook`, not `Debug.hook`
OVERRIDE = """\
import jax
import jax.numpy as jnp


class Model:
    def step(self, x):
        return self.hook(x) + 1

    def hook(self, x):
        return jnp.tanh(x)


class Debug(Model):
    def hook(self, x):
        print("debug", x)
        return x


{BIND}
print(fast_step(jnp.ones(3)))
print(Debug().step(1.0))
"""


def test_an_override_reached_only_on_instances_of_its_base_stays_silent(tmp_path, monkeypatch) -> None:
    bound = OVERRIDE.replace("{BIND}", "m = Model()\nfast_step = jax.jit(m.step)")
    assert lint_files(tmp_path, monkeypatch, {"m.py": bound}, select="JAX401") == []
    # a `Debug` instance's step jitted: its hook runs traced (still reported)
    debug = OVERRIDE.replace("{BIND}", "m = Debug()\nfast_step = jax.jit(m.step)")
    assert [f[:4] for f in lint_files(tmp_path, monkeypatch, {"m.py": debug}, select="JAX401")] == [
        ("JAX401", "m.py", 15, 9)]


# `int(step / 1000)` takes one value for a thousand steps: no retrace per step
COUNTER = """\
import functools
import math
import jax


def stage(step, steps_per_stage=1000):
    return {STAGE}


@functools.partial(jax.jit, static_argnums=1)
def train_step(x, stage_id):
    return x * (stage_id + 1)


def train(x, num_steps):
    for i in range(num_steps):
        x = train_step(x, stage(i))
    return x
"""


def test_int_of_the_step_is_not_a_new_static_value_each_step(tmp_path, monkeypatch) -> None:
    for stage in ("int(step / steps_per_stage)", "int(math.log2(step + 1))"):
        text = COUNTER.replace("{STAGE}", stage)
        assert lint_files(tmp_path, monkeypatch, {"t.py": text}, select="JAX504") == [], stage
    assert [f[:4] for f in lint_files(tmp_path, monkeypatch, {"t.py": COUNTER.replace("{STAGE}", "float(step) / 10")},
                                      select="JAX504")] == [("JAX504", "t.py", 17, 27)]


# two tests of one value written apart are the same test: both branches run together
BRANCHES = """\
import jax


def quotes(key, mode):
    if mode == "train":
        x = jax.random.normal(key, ())
    if mode == {OTHER}:
        y = jax.random.uniform(key, ())
    return x, y
"""


def test_the_same_constant_written_two_ways_is_the_same_test(tmp_path, monkeypatch) -> None:
    for other in ("'train'", '"train"'):
        got = lint_files(tmp_path, monkeypatch, {"k.py": BRANCHES.replace("{OTHER}", other)}, select="JAX301")
        assert [f[:4] for f in got] == [("JAX301", "k.py", 8, 13)], other
    level = BRANCHES.replace('mode == "train"', "mode == 1").replace("{OTHER}", "True")
    assert [f[:4] for f in lint_files(tmp_path, monkeypatch, {"k.py": level}, select="JAX301")] == [
        ("JAX301", "k.py", 8, 13)]
    apart = BRANCHES.replace("{OTHER}", '"eval"')  # exclusive: silent
    assert lint_files(tmp_path, monkeypatch, {"k.py": apart}, select="JAX301") == []


def _notebook(cells: list[str]) -> str:
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": c}
        for c in cells]}, indent=1) + "\n"


def _check(tmp_path: Path, monkeypatch, *args: str):
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(cli, ["check", "--no-cache", "--output-format", "concise", *args, "nb.ipynb"])


HEAD = "import jax.numpy as jnp\nimport numpy as np\ndata = np.ones((4, 4))"


def test_a_time_cell_whose_next_line_is_blank_takes_its_noqa_on_the_first_statement(tmp_path, monkeypatch) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "nb.ipynb").write_text(_notebook([HEAD, "%%time\n\nG = jnp.dot(data, 2)"]))
    added = _check(tmp_path, monkeypatch, "--add-noqa")
    assert added.exit_code == 0 and "Added 1 noqa directive." in added.stderr
    cells = ["".join(c["source"]) for c in json.loads((tmp_path / "nb.ipynb").read_text())["cells"]]
    assert cells[1] == "%%time\n\nG = jnp.dot(data, 2)  # noqa: JAX505"
    assert _check(tmp_path, monkeypatch).stdout == "All checks passed!\n"
    assert comment_lines("%%time\n\n   \nG = f(x)\n") == {1: 4, 2: 4, 3: 4}


def test_a_time_cell_computing_after_its_conversion_is_reported(tmp_path, monkeypatch) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "nb.ipynb").write_text(_notebook([HEAD, "%%time\nX = jnp.asarray(data)\nG = X @ X.T",
                                                  "%%time\nX = jnp.asarray(data)[:2]"]))
    assert _check(tmp_path, monkeypatch).stdout.splitlines() == [
        "nb.ipynb:cell 2:1:1: JAX505 The timed cell ends while the JAX computation started on line 2 may still "
        "be running (dispatch is asynchronous): the cell magic measures the dispatch, not the work. End the cell "
        "with `jax.block_until_ready(result)`",
        "Found 1 warning.",
    ]


BUILD = """\
py_test(name = "a_test", srcs = ["a_test.py"], env = {"JAX_ENABLE_X64": "0"})
py_test(name = "b_test", srcs = ["b_test.py"], env = {"JAX_ENABLE_X64": "on"})
py_test(name = "c_test", srcs = ["c_test.py"], env = {"JAX_ENABLE_X64": "1"})
py_test(name = "c_test_x32", srcs = ["c_test.py"])
py_library(name = "b_test_lib", srcs = ["b_test.py"])
"""
TEST = "import jax.numpy as jnp\n\n\ndef test_f():\n    x = jnp.zeros(3, dtype=jnp.float64)\n"


def test_bazel_x64_needs_every_target_of_the_file_and_reads_values_as_jax_does(tmp_path, monkeypatch) -> None:
    """(a library target listing a test file runs nothing: axlearn's `frontend_utils_test_lib`)"""
    files = {"tests/BUILD": BUILD, "tests/a_test.py": TEST, "tests/b_test.py": TEST, "tests/c_test.py": TEST}
    got = lint_files(tmp_path, monkeypatch, files, select="JAX110")
    assert [f[:4] for f in got] == [("JAX110", "tests/a_test.py", 5, 28), ("JAX110", "tests/c_test.py", 5, 28)]


# a project's type alias of jax.Array (axlearn's `Tensor = jax.Array` in common/utils.py,
# fresh set 18; flaxformer's `Array = jnp.ndarray`, fresh set 15, on a dict of arrays): an annotation written with it is no proof the value is a JAX array
# (`draw_box_on_image(image: Tensor)` is given `images[0].numpy() / 255`); a module or
# function re-exported is still followed (`jr` for `jax.random`)
ANNOTATED = {
    "pkg/__init__.py": "",
    "pkg/utils.py": "import jax\nimport jax.numpy as jnp\nfrom jax import random as jr\n\nTensor = jax.Array\nArray = jnp.ndarray\n",
    "pkg/draw.py": "import numpy as np\n\nfrom pkg.utils import Array, Tensor, jr\n\n\n"
                   "def draw(image: Tensor, color) -> Tensor:\n    image[0:2] = color\n    return image\n\n\n"
                   "def drop(attention: Array, m):\n    attention['a'] *= m\n    return attention\n\n\n"
                   "def shuffled(key, x):\n    return jr.shuffle(key, x)\n",
}


def test_a_type_alias_of_another_module_is_not_taken_for_a_jax_array(tmp_path, monkeypatch) -> None:
    assert [f[:4] for f in lint_files(tmp_path, monkeypatch, ANNOTATED, select="JAX101,JAX901")] == [
        ("JAX901", "pkg/draw.py", 17, 12)]
