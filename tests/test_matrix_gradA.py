"""The variation matrix of branch gradA (issue 22): every way a derivative reaches a
singular operation (JAX120), and every way a program reaches a name JAX removed
(JAX9xx), each cell an INVALID program with its VALID twin (tests/matrix_gradA_cells.py
builds them; JAX's verdict on them: ``test_the_cells_do_what_they_say``, run by hand with
``JAXLINT_MATRIX_JAX=1``, as the recall set's check.py is).

Hole map on main before this branch (gradA): JAX120 cells found 104/160 (the misses: a
derivative taken in another module of an imported function or method, a helper imported
relatively, the clipped root written inside the root), twins flagged 0/160; JAX9xx cells
found 40/44 (the removed configuration options), twins flagged 0/44."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from jaxlint.cli import cli
from matrix_gradA_cells import API_COLUMNS, API_ROWS, COLUMNS, PASSES, ROW_NAMES, build, op_for
from project_files import lint_files

def _lint(root, monkeypatch, files: dict[str, str], select: str) -> list[tuple]:
    root.mkdir()
    return lint_files(root, monkeypatch, files, select=select)


# holes left (JAX: NaN): a clipped root two modules below a `jax.grad` taken inside a
# jitted step of a third module; the clip report needs a derivative shown on the
# function itself, and the chain step -> loss -> energy does not carry one that far
KNOWN_MISSES = {("jitted_step_other_module", "helper_other_module", "clip_named"),
                ("jitted_step_other_module", "helper_other_relative", "clip_inline")}
FORWARD_ROWS = ("jacfwd", "jvp")  # forward mode only (precision branch precis21b, fresh set 21)
JAX120_CELLS = [(row, col, k) for row in ROW_NAMES for col in COLUMNS for k in range(PASSES)]


@pytest.mark.parametrize("row,col,k", JAX120_CELLS, ids=[f"{r}-{c}-{op_for(r, c, k)}" for r, c, k in JAX120_CELLS])
def test_jax120_cell(tmp_path, monkeypatch, row, col, k):
    bad = build(row, col, False, k)
    found = _lint(tmp_path / "bad", monkeypatch, bad.files, "JAX120")
    if (row, col, op_for(row, col, k)) in KNOWN_MISSES:
        assert found == []  # a hole: the day the model finds it, move it out of KNOWN_MISSES
        return
    if row in FORWARD_ROWS and not op_for(row, col, k).startswith("clip"):
        # forward mode selects the tangent of the branch `where` keeps: no NaN (JAX 0.10.2:
        # `jax.jacfwd(lambda x: jnp.sum(jnp.where(x > 0, 1.0 / x, 0.0)))(jnp.array([0., 1.]))`
        # is [0., -1.], `jax.grad` of it [nan, -1.]); a clipped root is NaN in both modes
        assert found == []
        return
    assert found == [("JAX120", bad.path, bad.line, bad.column, bad.message)]
    good = build(row, col, True, k)
    assert _lint(tmp_path / "good", monkeypatch, good.files, "JAX120") == []


# -- cells outside the rows x columns table -------------------------------------------

_CUSTOM_VJP = {
    "pkg/__init__.py": "",
    "pkg/ops.py": ("import jax.numpy as jnp\n\n\n"
                   "def energy(x):\n    return jnp.sum(jnp.where(x > 0, jnp.sqrt(x), 0.0))\n"),
    "pkg/model.py": (
        "import jax\nimport jax.numpy as jnp\n\nfrom pkg import ops\n\n\n"
        "@jax.custom_vjp\ndef loss(x):\n    v = jnp.maximum(0.0, x)\n    return jnp.sum(jnp.sqrt(v)) + ops.energy(x)\n\n\n"
        "def _fwd(x):\n    return loss(x), x\n\n\n"
        "def _bwd(x, g):\n    return (g * jnp.where(x > 0, 0.5, 0.0),)\n\n\n"
        "loss.defvjp(_fwd, _bwd)\n"),
    "train.py": ("import jax\nimport jax.numpy as jnp\n\nfrom pkg import model\n\n"
                 "if __name__ == \"__main__\":\n    g = jax.grad(model.loss)(jnp.array([0.0, -1.0, 2.0]))\n"
                 "    print(\"nan in grad:\", bool(jnp.isnan(g).any()))\n"),
}


def test_custom_vjp_is_safe_by_construction(tmp_path, monkeypatch):
    """``jax.grad`` of a ``custom_vjp`` function in another module runs its ``bwd``: the
    clipped root inside it is never differentiated (JAX: no NaN)."""
    assert [f for f in lint_files(tmp_path, monkeypatch, _CUSTOM_VJP, select="JAX120")
            if f[1] == "pkg/model.py"] == []


_SAMPLER = {
    "pkg/__init__.py": "",
    "pkg/sample.py": ("import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef draw(x):\n"
                      "    v = jnp.maximum(0.0, x)\n    return jnp.sqrt(v) + jnp.sqrt(jnp.clip(x, 0.0, None))\n"),
    "pkg/model.py": "import jax.numpy as jnp\n\n\ndef loss(w):\n    return jnp.sum(w ** 2)\n",
    "train.py": ("import jax\nimport jax.numpy as jnp\n\nfrom pkg import model, sample\n\n"
                 "if __name__ == \"__main__\":\n    g = jax.grad(model.loss)(jnp.ones(3))\n"
                 "    print(sample.draw(g))\n"),
}


def test_a_clipped_root_no_derivative_reaches_is_silent(tmp_path, monkeypatch):
    """A sampler only jitted (the project differentiates another function): its clipped
    roots, named or inline, give no gradient to make NaN."""
    assert lint_files(tmp_path, monkeypatch, _SAMPLER, select="JAX120") == []


def test_a_derivative_of_a_reexported_function_is_a_derivative_of_it(tmp_path, monkeypatch):
    """Recall case 1412's shape: ``jax.grad(pix.ssim)`` with ``ssim = metrics.ssim`` in
    the package's ``__init__.py``; the clip-then-root in ``metrics.ssim``."""
    files = {
        "pix/__init__.py": "from pix._src import metrics\n\nssim = metrics.ssim\n",
        "pix/_src/__init__.py": "",
        "pix/_src/metrics.py": ("import jax.numpy as jnp\n\n\ndef ssim(a, b):\n    s0 = jnp.maximum(0., jnp.var(a))\n"
                                "    s1 = jnp.maximum(0., jnp.var(b))\n    return jnp.minimum(jnp.sqrt(s0 * s1), 1.0)\n"),
        "main.py": ("import jax\nimport numpy as np\n\nimport pix\n\nif __name__ == \"__main__\":\n"
                    "    img = np.zeros((4, 4))\n    print(jax.grad(pix.ssim)(img, img))\n"),
    }
    assert lint_files(tmp_path, monkeypatch, files, select="JAX120") == [(
        "JAX120", "pix/_src/metrics.py", 7, 24,
        "`jnp.sqrt(s0 * s1)`: `s0 = jnp.maximum(0., jnp.var(a))` clips `s0` to exactly 0 wherever that input is 0 "
        "or below, where the derivative of the square root is infinite and the clip's is 0: the gradient is NaN "
        "there (0 * inf). Clip to a small positive number instead (`jnp.maximum(eps, ...)`), or guard the root's "
        "input (`jnp.sqrt(jnp.where(v > 0, v, 1.0))`)")]


# -- axis B: JAX9xx --------------------------------------------------------------------

API_CELLS = [(row, col) for row in API_ROWS for col in API_COLUMNS]


@pytest.mark.parametrize("row,col", API_CELLS, ids=[f"{r}-{c}" for r, c in API_CELLS])
def test_api_cell(tmp_path, monkeypatch, row, col):
    bad, good = API_ROWS[row][col]
    assert _lint(tmp_path / "bad", monkeypatch, bad, "JAX9") == API_EXPECTED[(row, col)]
    assert _lint(tmp_path / "good", monkeypatch, good, "JAX9") == []


def _run(tmp_path, files: dict[str, str], entry: str) -> subprocess.CompletedProcess:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return subprocess.run([sys.executable, "-W", "ignore", entry], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("JAXLINT_MATRIX_JAX"), reason="runs JAX on every cell: JAXLINT_MATRIX_JAX=1")
def test_the_cells_do_what_they_say(tmp_path):
    """JAX's verdict: an INVALID JAX120 cell prints a NaN gradient and its twin does not;
    an INVALID JAX9xx cell raises and its twin runs (eqx cells need equinox)."""
    pytest.importorskip("jax")
    wrong = []
    for i, (row, col, k) in enumerate(JAX120_CELLS):
        if row.startswith("eqx") and subprocess.run([sys.executable, "-c", "import equinox"]).returncode:
            continue
        for valid in (False, True):
            out = _run(tmp_path / f"g{i}{valid}", build(row, col, valid, k).files, "train.py").stdout
            if ("nan in grad: True" in out) == valid:
                wrong.append((row, col, k, valid, out[-200:]))
    for i, (row, col) in enumerate(API_CELLS):
        for valid in (0, 1):
            p = _run(tmp_path / f"a{i}{valid}", API_ROWS[row][col][valid], "main.py")
            if (p.returncode == 0) != bool(valid):
                wrong.append((row, col, valid, p.stderr[-200:]))
    assert wrong == []


# found on main before gradA: 40/44 (the config_flag row: 0/4); twins flagged 0/44
API_EXPECTED: dict[tuple[str, str], list[tuple]] = {
    ('tree_multimap', 'direct'): [
        ('JAX901', 'main.py', 2, 5,
         "`jax.tree_multimap` was removed in JAX 0.3.16 (deprecated in 0.3.5): use `jax.tree.map` instead (tree_map takes several trees; the top-level alias went with tree_util's)"),
    ],
    ('tree_multimap', 'alias'): [
        ('JAX901', 'main.py', 2, 5,
         '`tu.tree_multimap` was removed in JAX 0.3.16 (deprecated in 0.3.5): use `jax.tree.map` instead (tree_map takes several trees)'),
    ],
    ('tree_multimap', 'reexport'): [
        ('JAX901', 'compat.py', 3, 13,
         "`jax.tree_multimap` was removed in JAX 0.3.16 (deprecated in 0.3.5): use `jax.tree.map` instead (tree_map takes several trees; the top-level alias went with tree_util's)"),
        ('JAX901', 'main.py', 3, 5,
         "`compat.tree_map2` was removed in JAX 0.3.16 (deprecated in 0.3.5): use `jax.tree.map` instead (tree_map takes several trees; the top-level alias went with tree_util's)"),
    ],
    ('tree_multimap', 'version_check'): [
        ('JAX901', 'main.py', 5, 12,
         "`jax.tree_multimap` was removed in JAX 0.3.16 (deprecated in 0.3.5): use `jax.tree.map` instead (tree_map takes several trees; the top-level alias went with tree_util's)"),
    ],
    ('partial_from_jax', 'direct'): [
        ('JAX901', 'main.py', 2, 17,
         '`from jax import partial` was removed in JAX 0.2.21: use `functools.partial` instead (an accidental export of functools.partial)'),
        ('JAX901', 'main.py', 3, 5,
         '`partial` (`jax.partial`) was removed in JAX 0.2.21: use `functools.partial` instead (an accidental export of functools.partial)'),
    ],
    ('partial_from_jax', 'alias'): [
        ('JAX901', 'main.py', 1, 17,
         '`from jax import partial` was removed in JAX 0.2.21: use `functools.partial` instead (an accidental export of functools.partial)'),
    ],
    ('partial_from_jax', 'reexport'): [
        ('JAX901', 'compat.py', 1, 17,
         '`from jax import partial` was removed in JAX 0.2.21: use `functools.partial` instead (an accidental export of functools.partial)'),
        ('JAX901', 'main.py', 3, 5,
         '`compat.partial` was removed in JAX 0.2.21: use `functools.partial` instead (an accidental export of functools.partial)'),
    ],
    ('partial_from_jax', 'version_check'): [
        ('JAX901', 'main.py', 5, 21,
         '`from jax import partial` was removed in JAX 0.2.21: use `functools.partial` instead (an accidental export of functools.partial)'),
    ],
    ('host_callback', 'direct'): [
        ('JAX901', 'main.py', 2, 8,
         '`import jax.experimental.host_callback` was removed in JAX 0.8.0 (deprecated in 0.4.26): use `jax.debug.callback` / `jax.pure_callback` / `jax.experimental.io_callback` instead (the semantics of id_tap/call differ)'),
        ('JAX901', 'main.py', 3, 5,
         '`hcb.id_print` (`jax.experimental.host_callback.id_print`) was removed in JAX 0.8.0 (deprecated in 0.4.26): use `jax.debug.print("{}", x)` instead (id_print returned its argument; debug.print returns None)'),
    ],
    ('host_callback', 'alias'): [
        ('JAX901', 'main.py', 2, 44,
         '`from jax.experimental.host_callback import id_print` was removed in JAX 0.8.0 (deprecated in 0.4.26): use `jax.debug.print("{}", x)` instead (id_print returned its argument; debug.print returns None)'),
        ('JAX901', 'main.py', 3, 5,
         '`show` (`jax.experimental.host_callback.id_print`) was removed in JAX 0.8.0 (deprecated in 0.4.26): use `jax.debug.print("{}", x)` instead (id_print returned its argument; debug.print returns None)'),
    ],
    ('host_callback', 'reexport'): [
        ('JAX901', 'compat.py', 1, 30,
         '`from jax.experimental import host_callback` was removed in JAX 0.8.0 (deprecated in 0.4.26): use `jax.debug.callback` / `jax.pure_callback` / `jax.experimental.io_callback` instead (the semantics of id_tap/call differ)'),
        ('JAX901', 'main.py', 3, 1,
         '`compat.hcb.print` was removed in JAX 0.8.0 (deprecated in 0.4.26): use `jax.debug.callback` / `jax.pure_callback` / `jax.experimental.io_callback` instead (the semantics of id_tap/call differ)'),
    ],
    ('host_callback', 'version_check'): [
        ('JAX901', 'main.py', 5, 48,
         '`from jax.experimental.host_callback import id_print` was removed in JAX 0.8.0 (deprecated in 0.4.26): use `jax.debug.print("{}", x)` instead (id_print returned its argument; debug.print returns None)'),
    ],
    ('optimizers', 'direct'): [
        ('JAX901', 'main.py', 2, 30,
         '`from jax.experimental import optimizers` was removed in JAX 0.3.16: use `jax.example_libraries.optimizers` (or optax) instead'),
        ('JAX901', 'main.py', 3, 7,
         '`optimizers.sgd` (`jax.experimental.optimizers.sgd`) was removed in JAX 0.3.16: use `jax.example_libraries.optimizers` (or optax) instead'),
    ],
    ('optimizers', 'alias'): [
        ('JAX901', 'main.py', 1, 8,
         '`import jax.experimental.optimizers` was removed in JAX 0.3.16: use `jax.example_libraries.optimizers` (or optax) instead'),
        ('JAX901', 'main.py', 2, 7,
         '`optim.sgd` (`jax.experimental.optimizers.sgd`) was removed in JAX 0.3.16: use `jax.example_libraries.optimizers` (or optax) instead'),
    ],
    ('optimizers', 'reexport'): [
        ('JAX901', 'compat.py', 1, 30,
         '`from jax.experimental import optimizers` was removed in JAX 0.3.16: use `jax.example_libraries.optimizers` (or optax) instead'),
        ('JAX901', 'main.py', 3, 7,
         '`compat.optimizers.sgd` was removed in JAX 0.3.16: use `jax.example_libraries.optimizers` (or optax) instead'),
    ],
    ('optimizers', 'version_check'): [
        ('JAX901', 'main.py', 5, 34,
         '`from jax.experimental import optimizers` was removed in JAX 0.3.16: use `jax.example_libraries.optimizers` (or optax) instead'),
    ],
    ('stax', 'direct'): [
        ('JAX901', 'main.py', 2, 30,
         '`from jax.experimental import stax` was removed in JAX 0.3.16: use `jax.example_libraries.stax` (or flax/equinox) instead'),
        ('JAX901', 'main.py', 3, 15,
         '`stax.Dense` (`jax.experimental.stax.Dense`) was removed in JAX 0.3.16: use `jax.example_libraries.stax` (or flax/equinox) instead'),
    ],
    ('stax', 'alias'): [
        ('JAX901', 'main.py', 1, 30,
         '`from jax.experimental import stax` was removed in JAX 0.3.16: use `jax.example_libraries.stax` (or flax/equinox) instead'),
        ('JAX901', 'main.py', 2, 15,
         '`layers.Dense` (`jax.experimental.stax.Dense`) was removed in JAX 0.3.16: use `jax.example_libraries.stax` (or flax/equinox) instead'),
    ],
    ('stax', 'reexport'): [
        ('JAX901', 'compat.py', 1, 30,
         '`from jax.experimental import stax` was removed in JAX 0.3.16: use `jax.example_libraries.stax` (or flax/equinox) instead'),
        ('JAX901', 'main.py', 3, 15,
         '`compat.stax.Dense` was removed in JAX 0.3.16: use `jax.example_libraries.stax` (or flax/equinox) instead'),
    ],
    ('stax', 'version_check'): [
        ('JAX901', 'main.py', 5, 34,
         '`from jax.experimental import stax` was removed in JAX 0.3.16: use `jax.example_libraries.stax` (or flax/equinox) instead'),
    ],
    ('keyarray_annotation', 'direct'): [
        ('JAX901', 'main.py', 2, 15,
         '`jax.random.KeyArray` was removed in JAX 0.4.24 (deprecated in 0.4.16): use `jax.Array` instead (annotation)'),
    ],
    ('keyarray_annotation', 'alias'): [
        ('JAX901', 'main.py', 3, 15,
         '`jr.KeyArray` was removed in JAX 0.4.24 (deprecated in 0.4.16): use `jax.Array` instead (annotation)'),
    ],
    ('keyarray_annotation', 'reexport'): [
        ('JAX901', 'compat.py', 3, 7,
         '`jax.random.KeyArray` was removed in JAX 0.4.24 (deprecated in 0.4.16): use `jax.Array` instead (annotation)'),
    ],
    ('keyarray_annotation', 'version_check'): [
        ('JAX901', 'main.py', 5, 11,
         '`jax.random.KeyArray` was removed in JAX 0.4.24 (deprecated in 0.4.16): use `jax.Array` instead (annotation)'),
    ],
    ('device_array', 'direct'): [
        ('JAX901', 'main.py', 3, 30,
         '`jnp.DeviceArray` was removed in JAX 0.4.14 (deprecated in 0.4.7): use `jax.Array` instead'),
    ],
    ('device_array', 'alias'): [
        ('JAX901', 'main.py', 2, 29,
         '`np.DeviceArray` was removed in JAX 0.4.14 (deprecated in 0.4.7): use `jax.Array` instead'),
    ],
    ('device_array', 'reexport'): [
        ('JAX901', 'compat.py', 3, 9,
         '`jnp.DeviceArray` was removed in JAX 0.4.14 (deprecated in 0.4.7): use `jax.Array` instead'),
    ],
    ('device_array', 'version_check'): [
        ('JAX901', 'main.py', 6, 13,
         '`jnp.DeviceArray` was removed in JAX 0.4.14 (deprecated in 0.4.7): use `jax.Array` instead'),
    ],
    ('xla_device_array', 'direct'): [
        ('JAX901', 'main.py', 3, 36,
         '`jax.interpreters.xla.DeviceArray` was removed in JAX 0.4.11 (deprecated in 0.4.7): use `jax.Array` instead'),
    ],
    ('xla_device_array', 'alias'): [
        ('JAX901', 'main.py', 3, 36,
         '`xla.DeviceArray` was removed in JAX 0.4.11 (deprecated in 0.4.7): use `jax.Array` instead'),
    ],
    ('xla_device_array', 'reexport'): [
        ('JAX901', 'compat.py', 1, 34,
         '`from jax.interpreters.xla import DeviceArray` was removed in JAX 0.4.11 (deprecated in 0.4.7): use `jax.Array` instead'),
    ],
    ('xla_device_array', 'version_check'): [
        ('JAX901', 'main.py', 5, 38,
         '`from jax.interpreters.xla import DeviceArray` was removed in JAX 0.4.11 (deprecated in 0.4.7): use `jax.Array` instead'),
    ],
    ('config_flag', 'direct'): [
        ('JAX901', 'main.py', 2, 19,
         '`jax.config.update("jax_array", ...)` was removed in JAX 0.4.14 (deprecated in 0.4.7), with nothing to use instead (the option is gone: `jax.Array` and the merged jit are always on)'),
    ],
    ('config_flag', 'alias'): [
        ('JAX901', 'main.py', 3, 12,
         '`jax.config.update("jax_enable_memories", ...)` was removed in JAX 0.5.0 (deprecated in 0.4.32), with nothing to use instead (the option is gone: memories are always on)'),
    ],
    ('config_flag', 'reexport'): [
        ('JAX901', 'compat.py', 3, 19,
         '`jax.config.update("jax_jit_pjit_api_merge", ...)` was removed in JAX 0.4.14 (deprecated in 0.4.7), with nothing to use instead (the option is gone: `jax.Array` and the merged jit are always on)'),
    ],
    ('config_flag', 'version_check'): [
        ('JAX901', 'main.py', 5, 23,
         '`jax.config.update("jax_coordination_service", ...)` was removed in JAX 0.4.16, with nothing to use instead (the option is gone: the coordination service is always on)'),
    ],
    ('jax_core', 'direct'): [
        ('JAX901', 'main.py', 3, 8,
         '`jax.core.ConcreteArray` was removed in JAX 0.4.24, with nothing to use instead (use `jax.core.is_concrete` / static values)'),
    ],
    ('jax_core', 'alias'): [
        ('JAX901', 'main.py', 3, 8,
         '`jc.ConcreteArray` was removed in JAX 0.4.24, with nothing to use instead (use `jax.core.is_concrete` / static values)'),
    ],
    ('jax_core', 'reexport'): [
        ('JAX901', 'compat.py', 1, 22,
         '`from jax.core import ConcreteArray` was removed in JAX 0.4.24, with nothing to use instead (use `jax.core.is_concrete` / static values)'),
    ],
    ('jax_core', 'version_check'): [
        ('JAX901', 'main.py', 5, 26,
         '`from jax.core import ConcreteArray` was removed in JAX 0.4.24, with nothing to use instead (use `jax.core.is_concrete` / static values)'),
    ],
    ('jax_lib', 'direct'): [
        ('JAX901', 'main.py', 3, 11,
         '`jax.lib.xla_bridge.get_backend` was removed in JAX 0.8.0 (deprecated in 0.4.32): use `jax.default_backend()` / `jax.extend.backend` instead (`xla_bridge.get_backend().platform` is `jax.default_backend()`)'),
    ],
    ('jax_lib', 'alias'): [
        ('JAX901', 'main.py', 2, 21,
         '`from jax.lib import xla_bridge` was removed in JAX 0.8.0 (deprecated in 0.4.32): use `jax.default_backend()` / `jax.extend.backend` instead (`xla_bridge.get_backend().platform` is `jax.default_backend()`)'),
        ('JAX901', 'main.py', 3, 11,
         '`xb.get_backend` (`jax.lib.xla_bridge.get_backend`) was removed in JAX 0.8.0 (deprecated in 0.4.32): use `jax.default_backend()` / `jax.extend.backend` instead (`xla_bridge.get_backend().platform` is `jax.default_backend()`)'),
    ],
    ('jax_lib', 'reexport'): [
        ('JAX901', 'compat.py', 1, 21,
         '`from jax.lib import xla_bridge` was removed in JAX 0.8.0 (deprecated in 0.4.32): use `jax.default_backend()` / `jax.extend.backend` instead (`xla_bridge.get_backend().platform` is `jax.default_backend()`)'),
        ('JAX901', 'main.py', 3, 11,
         '`compat.xla_bridge.get_backend` was removed in JAX 0.8.0 (deprecated in 0.4.32): use `jax.default_backend()` / `jax.extend.backend` instead (`xla_bridge.get_backend().platform` is `jax.default_backend()`)'),
    ],
    ('jax_lib', 'version_check'): [
        ('JAX901', 'main.py', 5, 25,
         '`from jax.lib import xla_bridge` was removed in JAX 0.8.0 (deprecated in 0.4.32): use `jax.default_backend()` / `jax.extend.backend` instead (`xla_bridge.get_backend().platform` is `jax.default_backend()`)'),
    ],
}


def test_a_call_the_replacement_takes_as_written_is_covered_by_its_import(tmp_path, monkeypatch):
    """``with_sharding_constraint`` changed its call shape (``axis_resources=`` is gone):
    ``wsc(x, P("data"))`` is a drop-in for ``jax.lax.with_sharding_constraint`` and is
    the import's finding; ``wsc(x, axis_resources=...)`` needs its own change.  A row
    with no call shape under an alias (``zeros_like_array as zla``): every call is the
    import's, whose fix keeps the alias."""
    files = {"main.py": (
        "from jax.experimental.pjit import with_sharding_constraint as wsc\n"
        "from jax.lax import zeros_like_array as zla\n"
        "from jax.sharding import PartitionSpec as P\n\n\n"
        "def f(x):\n"
        "    y = wsc(x, P(\"data\"))\n"
        "    z = wsc(x, axis_resources=P(\"data\"))\n"
        "    return zla(y) + z\n")}
    wsc = ("was removed by JAX 0.10.2 (deprecated in 0.4.16): use `jax.lax.with_sharding_constraint` instead")
    assert lint_files(tmp_path, monkeypatch, files, select="JAX9") == [
        ("JAX901", "main.py", 1, 35, f"`from jax.experimental.pjit import with_sharding_constraint` {wsc}"),
        ("JAX901", "main.py", 2, 21, "`from jax.lax import zeros_like_array` was removed by JAX 0.10.2 (deprecated in "
                                     "0.7.1): use `jnp.zeros_like` instead"),
        ("JAX901", "main.py", 8, 9, f"`wsc` (`jax.experimental.pjit.with_sharding_constraint`) {wsc}"),
    ]
    fixed = CliRunner().invoke(cli, ["check", "main.py", "--no-cache", "--select", "JAX9", "--diff"]).output
    assert "+from jax.numpy import zeros_like as zla" in fixed
