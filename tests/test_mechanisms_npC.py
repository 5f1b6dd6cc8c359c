"""Round 23, npC: the model's facts behind JAX204 (numpy-on-tracer) that recur in the
recall set: a list that starts empty and is grown with ``.append(tracer)`` holds tracers
(``np.stack(xs)`` raises TracerArrayConversionError: pymdp's index_to_combination, case
1226), and SciPy's quadrature (``quad``/``dblquad``/``tplquad``/``nquad``) given a traced
bound, a traced ``args=`` or an integrand that reads a tracer raises (cases 412/425); and
a ``jax.custom_jvp``/``jax.custom_vjp`` def differentiated outside jit runs on its primal
values (its NumPy calls run: the false findings of 412/425 line 6/11 once quad is read).
Every INVALID program was run with jax 0.10.2 (the errors named in the messages); each
has a VALID twin that stays silent."""

from project_files import lint_files

_NP = ("NumPy converts it with `__array__()`, which raises TracerArrayConversionError. "
       "Use `jnp.{fn}` (jax.numpy) instead")
_Q = ("Integrate with jax.numpy (`jnp.trapezoid` on a grid, a fixed Gauss rule), or call "
      "SciPy through `jax.pure_callback`")

_APPEND_MAIN = """\
import jax
import jax.numpy as jnp
import numpy as onp
from jax import lax

import utils


@jax.jit
def digits(index):
    x = []
    for base in (3, 2):
        x.append(index % base)
        index = index // base
    return onp.stack(x, axis=-1)


def rows(h):
    out = []
    for w in (1.0, 2.0):
        out.append(jnp.tanh(h * w))
    return onp.array(out)


if __name__ == "__main__":
    for f, a in ((digits, jnp.arange(4)), (lambda h: lax.map(rows, h), jnp.ones((2, 3))),
                 (jax.vmap(utils.features), jnp.ones((2, 3)))):
        try:
            f(a)
            print("ran")
        except jax.errors.TracerArrayConversionError as e:
            print("TracerArrayConversionError")
"""

_APPEND_UTILS = """\
import numpy as np


def features(x):
    feats = []
    feats.append(x ** 2)
    feats.append(x + 1.0)
    return np.concatenate(feats, axis=-1)
"""

_APPEND_VALID = """\
import jax
import jax.numpy as jnp
import numpy as onp


@jax.jit
def digits(index):
    x = []
    for base in (3, 2):
        x.append(index % base)
    sizes = []
    for d in (2, 3):
        sizes.append(float(d))
    return jnp.stack(x, axis=-1), onp.array(sizes)


def reset(xs):
    xs.clear()
    xs.append(1.0)


@jax.jit
def rows(h):
    out = []
    out.append(h)
    reset(out)
    return onp.array(out) * h


print(digits(jnp.arange(4)), rows(jnp.ones(3)))
"""

_QUAD_MAIN = """\
import jax
from scipy.integrate import quad

import tails


@jax.jit
def area(c):
    val, err = quad(lambda x: c * x, 0.0, 1.0)
    return val


def weighted(x, c):
    return c * x


@jax.jit
def area2(c):
    return quad(weighted, 0.0, 1.0, args=(c,))[0]


if __name__ == "__main__":
    for f in (area, area2, jax.grad(tails.tail)):
        try:
            f(1.0)
            print("ran")
        except (jax.errors.ConcretizationTypeError, jax.errors.TracerBoolConversionError) as e:
            print(type(e).__name__)
"""

_QUAD_TAILS = """\
from scipy import integrate as si


def tail(b):
    return si.quad(lambda x: x * x, 0.0, b)[0]
"""

_QUAD_VALID = """\
import jax
from scipy.integrate import quad

UNIT = quad(lambda x: x * x, 0.0, 1.0)[0]


@jax.jit
def scaled(c):
    return c * quad(lambda x: 2.0 * x, 0.0, 1.0)[0] + UNIT


print(scaled(1.0))
"""


def test_list_grown_with_tracers_reaches_numpy(tmp_path, monkeypatch):
    # in a loop of a jitted function, in a lax.map body (no loop), in another module's helper
    # vmapped (two appends); onp/np aliases, stack/array/concatenate
    found = lint_files(tmp_path, monkeypatch, {"main.py": _APPEND_MAIN, "utils.py": _APPEND_UTILS}, select="JAX204")
    assert found == [
        ("JAX204", "main.py", 15, 12, "`onp.stack` on a traced value (it depends on the traced argument `index` of "
         "`digits` (decorated with @jax.jit)): " + _NP.format(fn="stack")),
        ("JAX204", "main.py", 22, 12, "`onp.array` on a traced value (it depends on the traced argument `h` of "
         "`rows` (a body passed to lax.map)): " + _NP.format(fn="array")),
        ("JAX204", "utils.py", 8, 12, "`np.concatenate` on a traced value (it depends on the traced argument `x` of "
         "`features` (wrapped by jax.vmap in main.py:27)): " + _NP.format(fn="concatenate")),
    ]


def test_list_grown_with_host_values_or_changed_by_a_call_is_silent(tmp_path, monkeypatch):
    # Python floats appended; a list of tracers stacked with jnp; a list handed to a helper
    # that empties it (what it holds is unknown from there): the program runs
    assert lint_files(tmp_path, monkeypatch, {"main.py": _APPEND_VALID}, select="JAX204") == []


def test_scipy_quadrature_of_a_traced_value(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"main.py": _QUAD_MAIN, "tails.py": _QUAD_TAILS}, select="JAX204")
    assert found == [
        ("JAX204", "main.py", 9, 16, "`quad` (`scipy.integrate.quad`) on a traced value (it depends on the traced "
         "argument `c` of `area` (decorated with @jax.jit)): the integrand reads it, and SciPy calls `float()` on "
         "what the integrand returns, which raises ConcretizationTypeError. " + _Q),
        ("JAX204", "main.py", 19, 12, "`quad` (`scipy.integrate.quad`) on a traced value (it depends on the traced "
         "argument `c` of `area2` (decorated with @jax.jit)): SciPy calls `float()` on the integrand's value, which "
         "raises ConcretizationTypeError. " + _Q),
        ("JAX204", "tails.py", 5, 12, "`si.quad` (`scipy.integrate.quad`) on a traced value (it depends on the traced "
         "argument `b` of `tail` (differentiated by jax.grad)): SciPy compares it as a Python number, which raises "
         "TracerBoolConversionError or ConcretizationTypeError. " + _Q),
    ]


def test_scipy_quadrature_of_host_values_is_silent(tmp_path, monkeypatch):
    # Python bounds and an integrand of its own variable only; the result scales a tracer
    assert lint_files(tmp_path, monkeypatch, {"main.py": _QUAD_VALID}, select="JAX204") == []


_CUSTOM_OPS = """\
from functools import partial

import jax
import numpy as np


@jax.custom_jvp
def softplus(x):
    return np.log1p(np.exp(x))


@softplus.defjvp
def softplus_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return softplus(x), t / (1.0 + np.exp(-float(x)))


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def scaled(k, x):
    return k * np.sqrt(x)


def scaled_fwd(k, x):
    return scaled(k, x), x


def scaled_bwd(k, x, g):
    return (g * k * 0.5 / x ** 0.5,)


scaled.defvjp(scaled_fwd, scaled_bwd)
"""

_CUSTOM_MAIN = """\
import jax

import ops
from ops import scaled


def loss(x):
    return ops.softplus(x) + scaled(2.0, x)


print(jax.grad(ops.softplus)(1.0), jax.grad(scaled, argnums=1)(2.0, 4.0), jax.value_and_grad(loss)(1.0))
"""

_CUSTOM_JITTED = """\
import jax
import numpy as np


@jax.custom_jvp
def softplus(x):
    return np.log1p(np.exp(x))


@softplus.defjvp
def softplus_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return softplus(x), t


if __name__ == "__main__":
    try:
        print(jax.jit(jax.grad(softplus))(1.0))
    except jax.errors.TracerArrayConversionError:
        print("TracerArrayConversionError")
"""


def test_custom_derivative_def_under_eager_grad_runs_on_primal_values(tmp_path, monkeypatch):
    # jax.grad of a custom_jvp def of another module, of a partial(custom_vjp,
    # nondiff_argnums) def imported by name, and both called from a helper given to
    # value_and_grad: NumPy runs on the primal values (the program prints the gradients);
    # under jit(grad(...)) the body is traced and np.exp raises
    found = lint_files(tmp_path, monkeypatch, {"ops.py": _CUSTOM_OPS, "main.py": _CUSTOM_MAIN,
                                               "jitted.py": _CUSTOM_JITTED}, select="JAX204")
    assert found == [
        ("JAX204", "jitted.py", 7, 21, "`np.exp` on a traced value (it depends on the traced argument `x` of "
         "`softplus` (wrapped by jax.jit)): " + _NP.format(fn="exp")),
    ]
