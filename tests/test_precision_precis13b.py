"""False findings the reviewers found on fresh set 13 (and 12), part B, by mechanism, each
written at least two ways (VALID: silent), with twins that must still be reported (INVALID).

* X. x64 as a module's documented precondition (swirl-dynamics weno_nn/weno.py: "This
  library assumes that the double precision is turned on ... config.update(
  "jax_enable_x64", True)"): the module's docstring speaks of x64, as a dtype constant's
  comment may; its users switch it on.  Still reported: a docstring that says nothing of
  x64.
* G. JAX120 in a notebook or a test module (run, never imported) where no derivative the
  file takes reaches the `where` (jaxoplanet's introduction-to-jax.ipynb: `selu` jitted and
  timed, `jax.grad` applied to other functions only).  Still reported: the same function
  differentiated (through a lambda, a `jax.grad` of a `jax.jit`), handed to a callable that
  may differentiate it, or in a library module (a caller may differentiate it).
"""

from __future__ import annotations

import json

from project_files import lint_files


def _lint(tmp_path, monkeypatch, files, select=""):
    tmp_path.mkdir(parents=True, exist_ok=True)
    return lint_files(tmp_path, monkeypatch, files, select=select, dedent=True)


def _notebook(*cells: str) -> str:
    return json.dumps({
        "cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                   "source": c.strip("\n").splitlines(keepends=True)} for c in cells],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
    })


# -- X. x64 as a module's documented precondition ------------------------------------
_X64_MSG = ("`float64` requested in `jnp.array` is truncated to 32-bit because jax_enable_x64 is off "
            "(JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `float32`")


def test_x_module_docstring_states_x64_precondition(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "weno/__init__.py": "",
        "weno/weno.py": '''
            """WENO auxiliary functions.

            This library assumes that the double precision is turned on. This can be done
            by setting the value of the flag jax_enable_x64 to true.
            """
            import jax.numpy as jnp


            def upwind_weights(order=3):
                if order == 3:
                    return jnp.array([2.0, 1.0], dtype=jnp.float64) / 3.0
                return 0.1 * jnp.array([3.0, 6.0, 1.0], dtype=jnp.float64)
        ''',
        # another spelling: a single-line docstring naming the X64 flag, `.astype`
        "weno/grid.py": '''
            """Grids in double precision: run with JAX_ENABLE_X64=1."""
            import jax.numpy as jnp


            def cells(n):
                return jnp.linspace(0.0, 1.0, n).astype(jnp.float64)
        ''',
    }, select="JAX110") == []


def test_x_still_reported_where_the_docstring_says_nothing_of_x64(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "weno/__init__.py": "",
        "weno/weno.py": '''
            """WENO auxiliary functions in double precision."""
            import jax.numpy as jnp


            def upwind_weights(order=3):
                # x64: see the docs
                return jnp.array([2.0, 1.0], dtype=jnp.float64) / 3.0
        ''',
        "weno/grid.py": '''
            import jax.numpy as jnp


            def cells(n):
                """Cells of a grid (x64 not needed)."""
                return jnp.array([0.0, 1.0], dtype=jnp.float64)
        ''',
    }, select="JAX110") == [
        ("JAX110", "weno/grid.py", 7, 40, _X64_MSG),
        ("JAX110", "weno/weno.py", 8, 40, _X64_MSG),
    ]


# -- G. JAX120 where nothing differentiates, in a notebook or a test module -------------
_SELU = """
import jax
import jax.numpy as jnp


def selu(x, alpha=1.1, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)
"""
_SELU_MSG = ("`jnp.exp(x)` is computed for every element, also where `x > 0` is true and masks it out; "
             "for a large `x` there it overflows to inf (above about 88 in float32), and so does its "
             "derivative, so the gradient of this `where` is NaN (0 * inf). Guard `x` with the same "
             "condition too (double where: `jnp.where(cond, x, 0.0)` inside)")
_NORM_MSG = ("`v / n` is computed for every element, also where `n == 0.0` is true and masks it out; its "
             "derivative is infinite/NaN there, so the gradient of this `where` is NaN (0 * inf). Guard `n` "
             "with the same condition too (double where: `jnp.where(cond, n, 1.0)` inside)")
_NORMALIZE = """
import jax
import jax.numpy as jnp


def normalize(v):
    n = jnp.sqrt(jnp.sum(v * v))
    return jnp.where(n == 0.0, 0.0, v / n)
"""


def test_g_notebook_function_no_derivative_reaches(tmp_path, monkeypatch):
    nb = _notebook(
        _SELU,
        """
x = jnp.arange(0, 10, 10)
selu(x).block_until_ready()
selu_jit = jax.jit(selu)
selu_jit(x).block_until_ready()
""",
        """
def some_polynomial(x):
    return x ** 2 + 1


print(jax.grad(jax.grad(some_polynomial))(0.0))
""",
        """
def mse(params, x):
    return jnp.mean((params["w"] * x) ** 2)


grads = jax.grad(mse, argnums=0)({"w": 1.0}, x)
print(jax.vmap(selu)(x), jax.jit(selu)(x))
""",
    )
    assert _lint(tmp_path, monkeypatch, {"intro.ipynb": nb}, select="JAX120") == []


def test_g_test_module_helper_no_derivative_reaches(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "tests/test_norms.py": _NORMALIZE + """

@jax.jit
def batch(vs):
    return jax.vmap(normalize)(vs)


def loss(w):
    return jnp.sum(w ** 2)


def test_unit():
    v = normalize(jnp.array([3.0, 4.0]))
    assert abs(float(jnp.sum(v * v)) - 1.0) < 1e-6


def test_batch():
    assert batch(jnp.ones((2, 3))).shape == (2, 3)


def test_grad_of_another_function():
    assert float(jax.grad(loss)(1.0)) == 2.0
""",
    }, select="JAX120") == []


def test_g_still_reported_where_a_derivative_may_reach(tmp_path, monkeypatch):
    # differentiated through a lambda; through a grad of its jit
    nb1 = _notebook(_SELU, """
g = jax.grad(lambda x: selu(x).sum())(jnp.ones(3))
""")
    nb2 = _notebook(_SELU, """
selu_jit = jax.jit(selu)
g = jax.grad(selu_jit)(1.0)
""")
    found = _lint(tmp_path / "a", monkeypatch, {"a.ipynb": nb1, "b.ipynb": nb2}, select="JAX120")
    assert found == [
        ("JAX120", "a.ipynb", 6, 48, _SELU_MSG),
        ("JAX120", "b.ipynb", 6, 48, _SELU_MSG),
    ]
    # handed to a callable that may differentiate it; a helper of a differentiated test;
    # and the same function in a library module, which a caller may differentiate
    assert _lint(tmp_path / "b", monkeypatch, {
        "tests/test_fit.py": _NORMALIZE + """
from optimizers import fit


def test_fit():
    assert fit(normalize, jnp.ones(3)) is not None
""",
        "tests/test_grad.py": _NORMALIZE + """

def test_grad():
    g = jax.grad(lambda v: normalize(v).sum())(jnp.ones(3))
    assert g.shape == (3,)
""",
        "geometry.py": _NORMALIZE,
    }, select="JAX120") == [
        ("JAX120", "geometry.py", 8, 37, _NORM_MSG),
        ("JAX120", "tests/test_fit.py", 8, 37, _NORM_MSG),
        ("JAX120", "tests/test_grad.py", 8, 37, _NORM_MSG),
    ]
