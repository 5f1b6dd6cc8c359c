"""False findings the reviewers found on fresh set 13 (and 12), part B, by mechanism, each
written at least two ways (VALID: silent), with twins that must still be reported (INVALID).

* X. x64 as a module's documented precondition (swirl-dynamics weno_nn/weno.py: "This
  library assumes that the double precision is turned on ... config.update(
  "jax_enable_x64", True)"): the module's docstring speaks of x64, as a dtype constant's
  comment may; its users switch it on.  Still reported: a docstring that says nothing of
  x64.
* X2. (withdrawn after the diff review: one process started with `JAX_ENABLE_X64` on, a
  noxfile's test session, does not make x64 on where the library runs.)  Still reported:
  a process given `JAX_ENABLE_X64` off.
* G. JAX120 in a notebook or a test module (run, never imported) where no derivative the
  file takes reaches the `where` (jaxoplanet's introduction-to-jax.ipynb: `selu` jitted and
  timed, `jax.grad` applied to other functions only).  Still reported: the same function
  differentiated (through a lambda, a `jax.grad` of a `jax.jit`), handed to a callable that
  may differentiate it, or in a library module (a caller may differentiate it).
* G2. (withdrawn after the diff review) A library's public function stays reported when
  only tests and notebooks call it (jaxoplanet `rotation.compute_rotation_matrices`): its
  users may differentiate it.  Also reported: a test differentiating it, a library module
  calling it, no caller.
* S. JAX201/JAX202 in a static helper of a module class reached from a method parameter
  the method asserts is a Python tuple (jaxoplanet `Pijk.__getitem__`: `assert
  isinstance(key, tuple)` then `self.index(*key)` -> `ijk2lm(i, j, k)`): the parameter
  is no array the model may assume, and what it holds is unknown.  Still reported: the
  same without the assertion, or asserting a JAX array.
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


# -- X2. x64 given to a process the project starts --------------------------------------
_ORBIT = """
import jax.numpy as jnp


def rotate(y):
    return jnp.array(y, dtype=jnp.complex128)
"""


def test_x2_still_reported_where_the_process_gets_x64_off(tmp_path, monkeypatch):
    msg = ("`complex128` requested in `jnp.array` is truncated to 32-bit because jax_enable_x64 is off (JAX "
           "only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `complex64`")
    assert _lint(tmp_path, monkeypatch, {
        "orbits/__init__.py": "",
        "orbits/rotation.py": _ORBIT,
        "noxfile.py": """
            import nox


            @nox.session
            def test_x32(session):
                session.run("pytest", env={"JAX_ENABLE_X64": "0"})
        """,
    }, select="JAX110") == [("JAX110", "orbits/rotation.py", 6, 31, msg)]


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
             "derivative is infinite/NaN where `n` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `n` "
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
    # a method of an object a differentiated loss uses
    nb3 = _notebook("""
import jax
import jax.numpy as jnp


class Act:
    def __call__(self, x):
        return jnp.where(x > 0, x, jnp.exp(x) - 1.0)


act = Act()


def loss(x):
    return act(x).sum()


g = jax.grad(loss)(jnp.ones(3))
""")
    found = _lint(tmp_path / "a", monkeypatch, {"a.ipynb": nb1, "b.ipynb": nb2, "c.ipynb": nb3}, select="JAX120")
    assert found == [
        ("JAX120", "a.ipynb", 6, 48, _SELU_MSG),
        ("JAX120", "b.ipynb", 6, 48, _SELU_MSG),
        ("JAX120", "c.ipynb", 7, 36, _SELU_MSG),
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
        # a method handed on as a bound method
        "tests/test_min.py": """
            import jax.numpy as jnp
            from optimizers import minimize


            class Problem:
                def energy(self, v):
                    n = jnp.sqrt(jnp.sum(v * v))
                    return jnp.sum(jnp.where(n == 0.0, 0.0, v / n))


            def test_min():
                assert minimize(Problem().energy, jnp.ones(3)) is not None
        """,
    }, select="JAX120") == [
        ("JAX120", "geometry.py", 8, 37, _NORM_MSG),
        ("JAX120", "tests/test_fit.py", 8, 37, _NORM_MSG),
        ("JAX120", "tests/test_grad.py", 8, 37, _NORM_MSG),
        ("JAX120", "tests/test_min.py", 9, 49, _NORM_MSG),
    ]


# -- G2. a library function the project reaches only from such code --------------------
_ROTATION = """
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0,))
def rotation_matrices(deg, x, y, z):
    norm = jnp.sqrt(x * x + y * y + z * z)
    x = jnp.where(norm == 0.0, 0.0, x / norm)
    return x * deg
"""
_ROT_MSG = ("`x / norm` is computed for every element, also where `norm == 0.0` is true and masks it out; its "
            "derivative is infinite/NaN where `norm` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `norm` "
            "with the same condition too (double where: `jnp.where(cond, norm, 1.0)` inside)")


def test_g2_library_function_only_called_where_nothing_differentiates_is_still_reported(tmp_path, monkeypatch):
    # a public function of a library: its users may differentiate it, whatever the
    # project's own tests and notebooks do with it (the diff review: tests must not
    # silence a library's warnings)
    found = _lint(tmp_path, monkeypatch, {
        "starry/__init__.py": "",
        "starry/rotation.py": _ROTATION,
        # a test imports it inside the test and calls it; another test differentiates
        # something else
        "tests/rotation_test.py": """
            import jax
            import jax.numpy as jnp


            def test_unit_axes():
                from starry.rotation import rotation_matrices
                assert rotation_matrices(2, 1.0, 0.0, 0.0) == 2.0


            def test_grad_of_square():
                assert jax.grad(lambda t: t * t)(1.0) == 2.0
        """,
        # a notebook imports it at its top and calls it at module level
        "docs/tour.ipynb": _notebook("""
from starry.rotation import rotation_matrices

print(rotation_matrices(3, 0.0, 1.0, 0.0))
"""),
    }, select="JAX120")
    assert [f[:4] for f in found] == [("JAX120", "starry/rotation.py", 11, 37)]


def test_g2_still_reported_where_the_project_may_differentiate_it(tmp_path, monkeypatch):
    # a test differentiates it; a library module calls it (its callers may differentiate);
    # nothing calls it (a user may)
    found = []
    for i, other in enumerate(({
        "tests/test_rotation.py": """
            import jax
            from starry.rotation import rotation_matrices


            def test_grad():
                assert jax.grad(lambda t: rotation_matrices(2, t, 0.0, 0.0))(1.0) is not None
        """,
    }, {
        "tests/test_rotation.py": """
            from starry.rotation import rotation_matrices


            def test_value():
                assert rotation_matrices(2, 1.0, 0.0, 0.0) == 2.0
        """,
        "starry/surface.py": """
            from starry import rotation


            def rotate(t):
                return rotation.rotation_matrices(2, t, 0.0, 0.0)
        """,
    }, {})):
        found += _lint(tmp_path / str(i), monkeypatch, {
            "starry/__init__.py": "", "starry/rotation.py": _ROTATION, **other}, select="JAX120")
    assert found == [("JAX120", "starry/rotation.py", 11, 37, _ROT_MSG)] * 3


# -- S. a module-class method parameter asserted to be a Python tuple --------------------
_PIJK = """
import equinox as eqx
import jax
import jax.numpy as jnp


class Pijk(eqx.Module):
    data: dict
    degree: int = eqx.field(static=True)

    @staticmethod
    def ijk2lm(i, j, k):
        if k == 0:
            return int(i + j), 0
        return int(i + j + 1), 1

    def index(self, i, j, k):
        l, m = self.ijk2lm(i, j, k)
        return (l + 1) * l + m

    def __getitem__(self, key):
        {CHECK}
        return self.data[key] * self.index(*key)
"""


def _pijk(check: str) -> str:
    return _PIJK.replace("{CHECK}", check)


_LENS = """
import flax.linen as nn
import jax.numpy as jnp


class Lens(nn.Module):
    n: int

    @staticmethod
    def flat(a, b):
        if a > b:
            return a * 8 + b
        return b * 8 + a

    @nn.compact
    def __call__(self, x):
        return x * self.n

    def pair(self, a, b):
        return self.flat(a, b)

    def entry(self, idx):
        {CHECK}
        return self.pair(*idx)
"""


def _lens(check: str) -> str:
    return _LENS.replace("{CHECK}", check)


def test_s_parameter_asserted_python_tuple(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "pijk.py": _pijk("assert isinstance(key, tuple)"),
        "lens.py": _lens("""if not isinstance(idx, (tuple, list)):
            raise TypeError("an index is a tuple of ints")"""),
    }, select="JAX201,JAX202") == []


def test_s_still_reported_without_the_assertion_or_asserting_an_array(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {
        "pijk.py": _pijk("assert isinstance(key, jax.Array)"),
        "lens.py": _lens("pass"),
    }, select="JAX201,JAX202")
    assert [f[:4] for f in found] == [
        ("JAX201", "lens.py", 11, 12),
        ("JAX201", "pijk.py", 13, 12),
        ("JAX202", "pijk.py", 14, 20),
        ("JAX202", "pijk.py", 15, 16),
    ]
    assert found[0][4] == ("Python `if` on a traced value: it depends on the traced arguments `a`, `b` of `flat` "
                           "(a method of the module class Lens); this raises TracerBoolConversionError. Use "
                           "`jax.lax.cond` or `jnp.where`")
    assert found[2][4] == ("`int()` needs a concrete value, but its argument is traced: it depends on the traced "
                           "arguments `i`, `j` of `ijk2lm` (a method of the module class Pijk); this raises "
                           "ConcretizationTypeError. Instead, keep it as an array (`x.astype(jnp.int32)`), or "
                           "return it and convert outside the traced function")


def test_x_a_docstring_that_says_x64_is_not_needed_states_no_precondition(tmp_path, monkeypatch):
    # the diff review: "x64" in a docstring is no precondition when the sentence negates it
    found = _lint(tmp_path, monkeypatch, {
        "kern/__init__.py": "",
        "kern/ops.py": '''
            """Single-precision kernels for TPU: everything here runs in float32; x64 is not needed
            and is not enabled by this module."""
            import jax.numpy as jnp


            def widen(x):
                return jnp.array(x, dtype=jnp.float64)
        ''',
    }, select="JAX110")
    assert [f[:4] for f in found] == [("JAX110", "kern/ops.py", 8, 31)]
