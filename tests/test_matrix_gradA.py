"""The variation matrix of branch gradA (issue 22): every way a derivative reaches a
singular operation (JAX120), and every way a program reaches a name JAX removed
(JAX9xx), each cell an INVALID program with its VALID twin (tests/matrix_gradA_cells.py
builds them; JAX's verdict on them: ``test_the_cells_do_what_they_say``, run by hand with
``JAXLINT_MATRIX_JAX=1``, as the recall set's check.py is).

Hole map on main before this branch (gradA): JAX120 cells found 98/160, twins flagged
0/160; JAX9xx see API_EXPECTED's comments."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from matrix_gradA_cells import API_COLUMNS, API_ROWS, COLUMNS, PASSES, ROW_NAMES, build, op_for
from project_files import lint_files

JAX120_CELLS = [(row, col, k) for row in ROW_NAMES for col in COLUMNS for k in range(PASSES)]


@pytest.mark.parametrize("row,col,k", JAX120_CELLS, ids=[f"{r}-{c}-{op_for(r, c, k)}" for r, c, k in JAX120_CELLS])
def test_jax120_cell(tmp_path, monkeypatch, row, col, k):
    bad = build(row, col, False, k)
    found = lint_files(tmp_path / "bad", monkeypatch, bad.files, select="JAX120")
    assert found == [("JAX120", bad.path, bad.line, bad.column, bad.message)]
    good = build(row, col, True, k)
    assert lint_files(tmp_path / "good", monkeypatch, good.files, select="JAX120") == []


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
    assert lint_files(tmp_path / "bad", monkeypatch, bad, select="JAX9") == API_EXPECTED[(row, col)]
    assert lint_files(tmp_path / "good", monkeypatch, good, select="JAX9") == []


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


API_EXPECTED: dict[tuple[str, str], list[tuple]] = {}
