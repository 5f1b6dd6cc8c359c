"""Batch 7's tracer/Python-value misses by mechanism (issue 22, branch recallQ).

* Library functions whose own source makes an argument a Python int
  (``core.concrete_or_error(int | operator.index, p)``, ``p = operator.index(p)``), found and
  probed by ``bench/static_args.py``: ``jax.scipy.special.multigammaln``'s ``d``, ``jnp.delete``'s
  ``obj``, traced through ``jax.jit(fn)(...)`` or a traced parameter (case 732).
* A list or tuple of arrays that every call passes to a traced parameter stays a Python container
  under the transformation (a pytree); indexing it with a tracer raises
  TracerIntegerConversionError, whether the function is decorated or bound as
  ``pick_jit = jax.jit(pick)`` and called by that name (case 719).
* A field of a pytree class named like an array attribute (``grid.shape`` of an equinox module
  holding ``jnp.asarray(shape)``, ``buf.size`` of a flax struct holding a JAX array) is the
  field's traced leaf, not the array's static ``.shape``/``.size``; the class comes from the
  calls when the annotation names only a base (``grid: eqx.Module``) (case 710).
* A function of a submodule a package binds, called through the package
  (``import pkg as nk`` then ``nk.optimizer.Sgd(schedule)``, ``pkg.training.fit(loss, ...)``), is
  the submodule's function: what it hands to a transformation or a library's callback slot (an
  optax schedule) is traced (case 722).

Each INVALID line was run with JAX 0.10.2 (equinox, flax in the .venv) and raises the error its
message names; each VALID twin runs."""

from __future__ import annotations

from project_files import lint_files


_lint = lint_files


CONVERTS = {
    'main.py': """\
import jax
import jax.numpy as jnp
from jax.scipy.special import multigammaln

from pkg.stats import coefficients_jit, log_wishart_norm

if __name__ == "__main__":
    print(jax.jit(multigammaln)(jnp.float32(3.0), 2))
    print(log_wishart_norm(jnp.float32(3.0), 2))
    print(coefficients_jit(4))
""",
    'pkg/__init__.py': "",
    'pkg/stats.py': """\
import jax
from jax.scipy import special


@jax.jit
def log_wishart_norm(a, dim):
    return special.multigammaln(a, dim)


def coefficients(n):
    return special.bernoulli(n)


coefficients_jit = jax.jit(coefficients)
""",
    'valid.py': """\
from functools import partial

import jax
import jax.numpy as jnp
from jax.scipy.special import bernoulli, multigammaln


@partial(jax.jit, static_argnums=1)
def log_wishart_norm(a, dim):
    return multigammaln(a, dim) + bernoulli(4)[1]


def drop(x, i):
    return jnp.delete(x, i, assume_unique_indices=True)


if __name__ == "__main__":
    print(jax.jit(multigammaln, static_argnums=1)(jnp.float32(3.0), 2))
    print(log_wishart_norm(jnp.float32(3.0), 2))
    print(jax.jit(drop)(jnp.arange(4.0), 1))
    print(jax.jit(bernoulli, static_argnums=0)(4))
""",
}


LIST_INDEX = {
    'main.py': """\
from pkg.tables import run

if __name__ == "__main__":
    print(run(1))
""",
    'pkg/__init__.py': "",
    'pkg/tables.py': """\
import jax
import jax.numpy as jnp


def pick(tables, i):
    return tables[i] * 2.0


pick_jit = jax.jit(pick)


@jax.jit
def select(idx, mylist):
    return mylist[idx]


def run(i):
    tables = (jnp.zeros(3), jnp.ones(3))
    return pick_jit(tables, i), select(i, [jnp.ones(3), 2 * jnp.ones(3)])
""",
    'valid.py': """\
import jax
import jax.numpy as jnp


@jax.jit
def select(idx, mylist):
    return jnp.stack(mylist)[idx] + mylist[0]


def pick(tables, i):
    return jnp.asarray(tables)[i]


pick_jit = jax.jit(pick)

if __name__ == "__main__":
    print(select(1, [jnp.ones(3), 2 * jnp.ones(3)]))
    print(pick_jit((jnp.zeros(3), jnp.ones(3)), 1))
""",
}


FIELDS = {
    'main.py': """\
from pkg.grids import run

if __name__ == "__main__":
    print(run())
""",
    'pkg/__init__.py': "",
    'pkg/grids.py': """\
import equinox as eqx
import jax
import jax.numpy as jnp
from flax import struct


class Grid(eqx.Module):
    shape: jnp.ndarray
    spacing: float

    def __init__(self, shape, spacing):
        self.shape = jnp.asarray(shape)
        self.spacing = spacing


@struct.dataclass
class Buffer:
    data: jax.Array
    size: jax.Array


@jax.jit
def blank(grid: eqx.Module, x):
    return jnp.zeros(grid.shape) + x


@jax.jit
def positions(buf):
    return jnp.arange(buf.size) + buf.data[0]


def run():
    return blank(Grid((2, 3), 0.1), 1.0), positions(Buffer(data=jnp.ones(4), size=jnp.asarray(4)))
""",
    'valid.py': """\
import equinox as eqx
import jax
import jax.numpy as jnp
from flax import struct


class Grid(eqx.Module):
    shape: tuple = eqx.field(static=True)
    spacing: float

    def __init__(self, shape, spacing):
        self.shape = tuple(shape)
        self.spacing = spacing


@struct.dataclass
class Buffer:
    data: jax.Array
    size: int = struct.field(pytree_node=False)


@jax.jit
def blank(grid: eqx.Module, x):
    return jnp.zeros(grid.shape) + x + jnp.zeros(x.shape)


@jax.jit
def positions(buf):
    return jnp.arange(buf.size) + buf.data[0] + buf.data.size


if __name__ == "__main__":
    print(blank(Grid((2, 3), 0.1), 1.0), positions(Buffer(data=jnp.ones(4), size=4)))
""",
}


SUBMODULES = {
    'main.py': """\
import jax
import jax.numpy as jnp
import numpy as np

import pkg
import pkg as nk


def schedule(n):
    return (1 + np.cos(np.pi * (n % 100) / 100)) * 0.05


def loss(params, x):
    if (params * x).sum() > 0:
        return (params * x).sum()
    return -(params * x).sum()


@jax.jit
def update(opt_state, grads, params):
    return tx.update(grads, opt_state, params)


if __name__ == "__main__":
    params = jnp.ones(3)
    tx = nk.optimizer.Sgd(schedule)
    print(update(tx.init(params), params, params))
    print(pkg.training.fit(loss, params, params))
""",
    'pkg/__init__.py': """\
from pkg import optimizer, training
""",
    'pkg/optimizer.py': """\
import optax


def Sgd(learning_rate):
    return optax.sgd(learning_rate)
""",
    'pkg/training.py': """\
import jax


def fit(loss_fn, params, x):
    step = jax.jit(jax.grad(loss_fn))
    return step(params, x)
""",
    'valid.py': """\
import jax
import jax.numpy as jnp

import pkg


def schedule(n):
    return (1 + jnp.cos(jnp.pi * (n % 100) / 100)) * 0.05


def loss(params, x):
    s = (params * x).sum()
    return jnp.where(s > 0, s, -s)


@jax.jit
def update(opt_state, grads, params):
    return tx.update(grads, opt_state, params)


if __name__ == "__main__":
    params = jnp.ones(3)
    tx = pkg.optimizer.Sgd(schedule)
    print(update(tx.init(params), params, params))
    print(pkg.training.fit(loss, params, params))
""",
}


def test_library_functions_that_make_an_argument_a_python_int(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, CONVERTS) == [
        ("JAX202", "main.py", 8, 51,
         "`jax.jit(multigammaln)` traces every argument it is not told is static, so `d` of "
         "`jax.scipy.special.multigammaln` (here `2`) becomes a tracer; it must be a Python value "
         "(ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected). "
         "Mark it static (`jax.jit(multigammaln, static_argnums=1)`), or bind it first: "
         "`functools.partial(multigammaln, d=...)`"),
        ("JAX202", "pkg/stats.py", 7, 36,
         "`d` of `jax.scipy.special.multigammaln` must be a Python value (JAX compiles it into the "
         "computation), but it is traced: it depends on the traced argument `dim` of `log_wishart_norm` "
         "(decorated with @jax.jit); this raises ConcretizationTypeError: Abstract tracer value encountered "
         "where concrete value is expected. Compute it from Python values (constants, shapes); or, if `dim` "
         "is a Python value, mark it static (static_argnums=1)"),
        ("JAX202", "pkg/stats.py", 11, 30,
         "`n` of `jax.scipy.special.bernoulli` must be a Python value (JAX compiles it into the "
         "computation), but it is traced: it depends on the traced argument `n` of `coefficients` (wrapped "
         "by jax.jit); this raises ConcretizationTypeError: Abstract tracer value encountered where concrete "
         "value is expected. Compute it from Python values (constants, shapes); or, if `n` is a Python "
         "value, mark it static (static_argnums=0)"),
    ]


def test_static_args_table_holds_the_converted_parameters():
    from jaxlint.model.static_args import STATIC_ARGS

    assert STATIC_ARGS["jax.scipy.special.multigammaln"] == ((1, "d", "CONCRETIZATION"),)
    assert STATIC_ARGS["jax.scipy.special.bernoulli"] == ((0, "n", "CONCRETIZATION"),)
    # `bins` is converted only when it is not a 1-D array: a traced vector of edges works; and
    # `jnp.delete(x, i, assume_unique_indices=True)` takes a traced `i`
    assert "jax.numpy.histogram_bin_edges" not in STATIC_ARGS
    assert "jax.numpy.delete" not in STATIC_ARGS


def _list_msg(param: str, fn: str, how: str, pos: int) -> str:
    return (f"Indexing a Python list/tuple with a traced value raises TracerIntegerConversionError: it "
            f"depends on the traced argument `{param}` of `{fn}` ({how}). Make it an array "
            f"(`jnp.asarray(...)[i]`) or use `jax.lax.switch`; or, if `{param}` is a Python value, mark it "
            f"static (static_argnums={pos})")


def test_list_of_arrays_given_to_a_traced_parameter_indexed_by_a_tracer(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, LIST_INDEX) == [
        ("JAX202", "pkg/tables.py", 6, 12, _list_msg("i", "pick", "wrapped by jax.jit", 1)),
        ("JAX202", "pkg/tables.py", 14, 12, _list_msg("idx", "select", "decorated with @jax.jit", 0)),
    ]


def test_list_parameter_with_a_caller_of_unknown_value_stays_silent(tmp_path, monkeypatch):
    files = {"a.py": """\
import jax


@jax.jit
def select(idx, mylist):
    return mylist[idx]


def run(i, tables):
    return select(i, tables)
"""}
    assert _lint(tmp_path, monkeypatch, files) == []


def _shape_msg(fn: str, param: str, where: str, error: str) -> str:
    return (f"A shape or size passed to `{fn}` is traced: it depends on the traced argument `{param}` of "
            f"`{where}` (decorated with @jax.jit); shapes must be concrete ({error}). Derive it from "
            f"`x.shape`; or, if `{param}` is a Python value, mark it static (static_argnums=0)")


def test_pytree_field_named_like_an_array_attribute_is_the_traced_leaf(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, FIELDS) == [
        ("JAX202", "pkg/grids.py", 24, 22, _shape_msg(
            "jnp.zeros", "grid", "blank", "TypeError: Shapes must be 1D sequences of concrete values")),
        ("JAX202", "pkg/grids.py", 29, 23, _shape_msg(
            "jnp.arange", "buf", "positions",
            "ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected")),
    ]


def test_function_of_a_package_submodule_hands_its_parameter_to_a_transformation(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, SUBMODULES) == [
        ("JAX201", "main.py", 14, 8,
         "Python `if` on a traced value: it depends on the traced arguments `params`, `x` of `loss` (wrapped "
         "by jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; or, if "
         "`params` is a Python value, mark it static (static_argnums=0)"),
        ("JAX204", "main.py", 10, 17,
         "`np.cos` on a traced value (it depends on the traced argument `n` of `schedule` (a schedule given "
         "to optax.sgd)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use "
         "`jnp.cos` (jax.numpy) instead"),
    ]
