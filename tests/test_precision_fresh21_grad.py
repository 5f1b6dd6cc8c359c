"""JAX120 only where a reverse-mode derivative reaches the `where` (branch precis21b).

A masked branch's infinite derivative makes a NaN only in reverse mode: the cotangent 0 of
the dropped branch meets its infinite derivative (0 * inf).  In forward mode the tangent of
``jnp.where(c, a, b)`` is the ``select`` of the branches' tangents, so the masked one is
dropped (checked with jax 0.10.2: ``jax.jacfwd``, ``jax.jvp`` and ``jax.linearize`` of
``lambda x: jnp.where(x > 0, jnp.sqrt(x), 0.)`` give 0 at 0; ``jax.grad``, ``jax.jacrev`` and
``jax.hessian`` -- jacfwd of jacrev -- give NaN).  Source: fresh set 21's review (both
reviewers): jax-fem's constitutive updates are differentiated only by its Newton solver's
``jax.jvp``/``jax.jacfwd`` Jacobian.  The facts built here (model/gradtrace.py
``FORWARD_ONLY``, ``in_reverse_mode``; model/gradreach.py, model/nograd.py):

* a function given only to a forward-mode derivative is no root of the project's
  derivative reach, and a function the file marks as differentiated only in forward mode
  is not "differentiated" for JAX120;
* a reverse derivative of a function a factory of the file returns (``c_fn =
  make_constraint(sol)`` ... ``jax.vjp(c_fn, p)``) is placed: the factory is a root, not
  "any function of the project" (which had turned the whole reach off).

* in a test module, a class only the test runner makes (the file never names it) has its
  methods placed by name like functions, and an attribute read (``op.reference``) names a
  method or a module-level function, never one nested in a test: ott's reference
  Laplacian, computed in a test that differentiates nothing next to tests that take
  ``jax.grad``, is silent; differentiated in its own test, or in a class the file makes
  and differentiates through, it is reported.

The corrected (forward-only) code is silent; the same code under ``jax.jacrev``,
``jax.grad``, ``jax.hessian``, ``jax.vjp`` or ``jax.linear_transpose`` is reported.
"""

from __future__ import annotations

import pytest

from project_files import lint_files

_SQRT = ("`jnp.sqrt(x)` is computed for every element, also where `x > 0.0` is false and masks it out; its "
         "derivative is infinite/NaN where `x` is 0 or negative, so the gradient of this `where` is NaN "
         "(0 * inf). Guard `x` with the same condition too (double where: `jnp.where(cond, x, 1.0)` inside)")

_MATERIAL = """\
import jax.numpy as jnp


def safe_sqrt(x):
    return jnp.where(x > 0.0, jnp.sqrt(x), 0.0)


def return_map(strain, yield_stress):
    dev = strain - jnp.mean(strain)
    norm = safe_sqrt(jnp.sum(dev * dev))
    return strain - norm * yield_stress * dev
"""


def _newton(derivative: str) -> dict:
    """A solver module that differentiates the residual (which calls the material's
    return map) with ``derivative``, and an unrelated reverse-mode loss elsewhere (so
    the project takes a reverse derivative and its reach is computed)."""
    return {
        "fem/__init__.py": "",
        "fem/material.py": _MATERIAL,
        "fem/solver.py": f"""\
import jax
import jax.numpy as jnp
from fem.material import return_map


def residual(u):
    return return_map(u, 1.0) - 0.5


def newton_step(u):
{derivative}
    return u - jnp.linalg.solve(jac, r)
""",
        "fit.py": """\
import jax
import jax.numpy as jnp


def loss(w, x):
    return jnp.sum((x @ w) ** 2)


grads = jax.grad(loss)(jnp.ones(3), jnp.ones((2, 3)))
""",
    }


FORWARD_JACFWD = "    r = residual(u)\n    jac = jax.jacfwd(residual)(u)"
FORWARD_JVP = ("    r = residual(u)\n"
               "    jac = jax.vmap(lambda t: jax.jvp(residual, (u,), (t,))[1], out_axes=-1)(jnp.eye(u.shape[0]))")
FORWARD_LINEARIZE = ("    r, push = jax.linearize(residual, u)\n"
                     "    jac = jax.vmap(push, out_axes=-1)(jnp.eye(u.shape[0]))")
REVERSE_JACREV = "    r = residual(u)\n    jac = jax.jacrev(residual)(u)"
REVERSE_HESSIAN = "    r = residual(u)\n    jac = jax.hessian(lambda v: jnp.sum(residual(v)))(u)"
REVERSE_TRANSPOSE = ("    r, push = jax.linearize(residual, u)\n"
                     "    pull = jax.linear_transpose(push, u)\n"
                     "    jac = jax.vmap(lambda c: pull(c)[0])(jnp.eye(u.shape[0]))")


# one file: a function differentiated by name, forward or reverse
def _single(derivative: str) -> dict:
    return {"demo.py": f"""\
import jax
import jax.numpy as jnp
import equinox as eqx


def safe_sqrt(x):
    return jnp.where(x > 0.0, jnp.sqrt(x), 0.0)


def loss(w):
    return jnp.sum(w ** 2)


print(jax.grad(loss)(jnp.ones(3)))
print({derivative})
"""}


# a reverse derivative of what a factory of the file returns (jax-fem's implicit adjoint):
# the factory's functions are reached, and so is nothing else
FACTORY = {
    "adjoint.py": """\
import jax
import jax.numpy as jnp


def safe_sqrt(x):
    return jnp.where(x > 0.0, jnp.sqrt(x), 0.0)


def tangent_stiffness(u):
    return jax.jacfwd(lambda v: safe_sqrt(v * v))(u)


def implicit_vjp(sol, params, v):
    def make_constraint(s):
        def constraint(p):
            return s * p - {inner}
        return constraint

    c_fn = make_constraint(sol)
    _, f_vjp = jax.vjp(c_fn, params)
    return f_vjp(v)[0]


print(tangent_stiffness(jnp.ones(3)), implicit_vjp(jnp.ones(3), jnp.ones(3), jnp.ones(3)))
""",
}


@pytest.mark.parametrize("derivative", [FORWARD_JACFWD, FORWARD_JVP, FORWARD_LINEARIZE],
                         ids=["jacfwd", "jvp", "linearize"])
def test_forward_mode_newton_silent(tmp_path, monkeypatch, derivative):
    assert lint_files(tmp_path, monkeypatch, _newton(derivative), select="JAX120") == []


@pytest.mark.parametrize("derivative", [REVERSE_JACREV, REVERSE_HESSIAN, REVERSE_TRANSPOSE],
                         ids=["jacrev", "hessian", "linear_transpose"])
def test_reverse_mode_newton_reported(tmp_path, monkeypatch, derivative):
    assert lint_files(tmp_path, monkeypatch, _newton(derivative), select="JAX120") == [
        ("JAX120", "fem/material.py", 5, 31, _SQRT),
    ]


@pytest.mark.parametrize("derivative", [
    "jax.jacfwd(safe_sqrt)(0.0)",
    "jax.jvp(safe_sqrt, (0.0,), (1.0,))",
    "eqx.filter_jvp(safe_sqrt, (0.0,), (1.0,))",
], ids=["jacfwd", "jvp", "eqx.filter_jvp"])
def test_forward_mode_of_the_function_silent(tmp_path, monkeypatch, derivative):
    assert lint_files(tmp_path, monkeypatch, _single(derivative), select="JAX120") == []


@pytest.mark.parametrize("derivative", [
    "jax.jacrev(safe_sqrt)(0.0)",
    "jax.grad(safe_sqrt)(0.0)",
    "jax.vjp(safe_sqrt, 0.0)[1](1.0)",
    "jax.jacfwd(jax.grad(safe_sqrt))(0.0)",
], ids=["jacrev", "grad", "vjp", "jacfwd-of-grad"])
def test_reverse_mode_of_the_function_reported(tmp_path, monkeypatch, derivative):
    assert lint_files(tmp_path, monkeypatch, _single(derivative), select="JAX120") == [
        ("JAX120", "demo.py", 7, 31, _SQRT),
    ]


def test_factory_of_reverse_derivative_places_it(tmp_path, monkeypatch):
    # the vjp differentiates only the factory's constraint: the forward-only stiffness is silent
    files = {"adjoint.py": FACTORY["adjoint.py"].replace("{inner}", "1.0")}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX120") == []


def test_factory_of_reverse_derivative_reaches_its_function(tmp_path, monkeypatch):
    # the factory's constraint calls the helper: the vjp reaches it
    files = {"adjoint.py": FACTORY["adjoint.py"].replace("{inner}", "safe_sqrt(p)")}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX120") == [
        ("JAX120", "adjoint.py", 6, 31, _SQRT),
    ]


# --- a test class only the test runner makes (fresh set 21: ott tests/geometry/graph_test.py:198 and
# geodesic_test.py:185, a reference Laplacian computed in a test that differentiates nothing, in a
# file whose other tests take jax.grad) ------------------------------------------------------------

_DEG = ("`jnp.sqrt(deg)` is computed for every element, also where `deg > 0.0` is false and masks it out; "
        "its derivative is infinite/NaN where `deg` is 0 or negative, so the gradient of this `where` is NaN "
        "(0 * inf). Guard `deg` with the same condition too (double where: `jnp.where(cond, deg, 1.0)` inside)")

_PYTEST_CLASS = """\
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from spectral import build


class TestSpectral:

  @pytest.mark.parametrize("normalize", [False, True])
  def test_reference_laplacian(self, normalize):

    def reference(adj):
      deg = jnp.sum(adj, axis=1)
      scale = jnp.where(deg > 0.0, 1.0 / jnp.sqrt(deg), 0.0)
      return scale[:, None] * (jnp.diag(deg) - adj) * scale[None, :]

    adj = jnp.ones((4, 4))
    op = build(adj, normalize=normalize)
    np.testing.assert_allclose(op.reference, reference(adj))

  def test_differentiable(self):

    def energy(w):
      return jnp.sum(build(w, normalize=False).reference)

    assert jnp.all(jnp.isfinite(jax.grad({target})(jnp.ones((4, 4)))))
"""

_SPECTRAL = {"spectral.py": """\
import jax.numpy as jnp


class Operator:
    def __init__(self, reference):
        self.reference = reference


def build(adj, normalize=False):
    return Operator(adj * 2.0 if normalize else adj)
"""}


def test_reference_in_test_runner_class_silent(tmp_path, monkeypatch):
    # the other test differentiates `energy`, which reads `.reference` of a library object:
    # not the nested reference of the first test
    files = {**_SPECTRAL, "tests/spectral_test.py": _PYTEST_CLASS.replace("{target}", "energy")}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX120") == []


def test_reference_differentiated_in_its_test_reported(tmp_path, monkeypatch):
    # the test that defines the reference differentiates it: reported
    text = _PYTEST_CLASS.replace("{target}", "energy").replace(
        "    np.testing.assert_allclose(op.reference, reference(adj))\n",
        "    np.testing.assert_allclose(op.reference, reference(adj))\n"
        "    jax.grad(lambda w: jnp.sum(reference(w)))(adj)\n")
    files = {**_SPECTRAL, "tests/spectral_test.py": text}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX120") == [
        ("JAX120", "tests/spectral_test.py", 16, 42, _DEG),
    ]


def test_class_the_file_makes_reported(tmp_path, monkeypatch):
    # the file makes the object and differentiates through it: its methods are not placed by name
    text = _PYTEST_CLASS.replace("{target}", "energy") + (
        "\n\ncase = TestSpectral()\n"
        "print(jax.grad(lambda w: jnp.sum(case.test_reference_laplacian(w)))(1.0))\n")
    files = {**_SPECTRAL, "tests/spectral_test.py": text}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX120") == [
        ("JAX120", "tests/spectral_test.py", 16, 42, _DEG),
    ]
