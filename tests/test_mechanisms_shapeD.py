"""Dynamic shapes and boolean masks (branch shapeD): the mechanisms behind batch 18's
misses 1833 and 1851, and the API surface of JAX205/JAX206/JAX202's size side.

1. A loop variable that takes functions in turn (`for fn in (f, g): jax.jit(fn)(x)`,
   `for name, fn in (("f", f), ...)`, `[jax.jit(fn) for fn in FNS]`): each function of
   the literal is traced (case 1833).
2. A concrete JAX array under jit (`self._n = jnp.asarray(n)` read in a method jitted with
   `self` static, a module constant `N = jnp.asarray(5)`): every operation on it is a
   staged jax.numpy call, so `self._n + 1`, `-N`, `SIZES[0]`, `SIZES.sum()` are tracers
   there (case 1851); under vmap alone, grad or `ensure_compile_time_eval` they stay
   concrete, and the array itself (`jnp.arange(self._n)`) is concrete.
3. Masks spelled through a dtype (`y.astype(bool)` of a traced argument, `jnp.asarray(y,
   dtype=jnp.bool_)`, `lax.convert_element_type(x, bool)`, `jnp.zeros(n, dtype=bool)
   .at[i].set(True)`), mask reductions with an axis (`jnp.any(m, axis=1)`), lax's
   comparisons and `jnp.invert` of a mask.
4. Value-dependent sizes beyond `size=`: the `x.compress(c)` and `x.repeat(r)` methods,
   `jnp.trim_zeros`, `jnp.roots` (`strip_zeros`), `jnp.delete` with traced indices
   (`assume_unique_indices`), `jnp.polymul(..., trim_leading_zeros=True)`.

Every INVALID program's error was observed with JAX 0.10.2 on CPU (under `jax.jit` unless
said); the VALID twins run and stay silent."""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str], select: str) -> list[tuple]:
    return lint_files(root, monkeypatch, files, select=select, dedent=True)


def _where(found: list[tuple]) -> list[tuple]:
    return [f[:4] for f in found]


# 1. Loop variables over functions ------------------------------------------------------

LOOP_SAME_FILE = """\
import jax
import jax.numpy as jnp

t = jnp.ones((4, 4), dtype=jnp.float32)


def f(x):
    return jnp.compress(x.ravel() > 0, x.ravel())


def g(x):
    return jnp.extract(x > 0, x)


if __name__ == "__main__":
    for fn in (f, g):
        try:
            jax.jit(fn)(t)
        except Exception as e:
            print(fn.__name__, type(e).__name__)
"""

LOOP_OPS = """\
import jax.numpy as jnp


def positive(x):
    return jnp.compress(x > 0, x)


def distinct(x):
    return jnp.unique(x)
"""

LOOP_RUN = """\
import jax
import jax.numpy as jnp

import ops


def top(x):
    return jnp.argwhere(x > 1)


FNS = [top, ops.distinct]
jitted = [jax.jit(fn) for fn in FNS]

if __name__ == "__main__":
    for name, fn in [("positive", ops.positive), ("top", top)]:
        print(name, jax.vmap(fn)(jnp.ones((2, 3))))
"""

LOOP_VALID = """\
import jax
import jax.numpy as jnp


def f(x):
    return jnp.compress(x > 0, x, size=x.shape[0])


def g(x):
    return jnp.unique(x)


for fn in (f,):
    jax.jit(fn)(jnp.ones(3))
for fn in (g,):
    print(fn(jnp.ones(3)))
"""


def _size_msg(what: str, kw: str, origin: str, error: str = "ConcretizationTypeError") -> str:
    return (f"{what} without `{kw}=` on a traced value (it depends on the traced argument {origin}): its "
            f"output shape depends on the values, so tracing raises {error}. Pass a static `{kw}=` (an "
            f"upper bound), ")


def test_loop_over_a_tuple_of_functions_traces_each(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"main.py": LOOP_SAME_FILE}, "JAX206")
    assert _where(found) == [("JAX206", "main.py", 8, 12), ("JAX206", "main.py", 12, 12)]
    slow = "ConcretizationTypeError (TracerBoolConversionError on JAX 0.10)"
    assert found[0][4] == _size_msg("`jnp.compress`", "size", "`x` of `f` (wrapped by jax.jit)", slow) + \
        "or compute it outside the traced function"
    assert found[1][4] == _size_msg("`jnp.extract`", "size", "`x` of `g` (wrapped by jax.jit)", slow) + \
        "or compute it outside the traced function"


def test_loop_tuple_target_comprehension_and_other_module(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"ops.py": LOOP_OPS, "run.py": LOOP_RUN}, "JAX206")
    assert _where(found) == [("JAX206", "ops.py", 5, 12), ("JAX206", "ops.py", 9, 12),
                             ("JAX206", "run.py", 8, 12)]
    assert "`x` of `positive` (wrapped by jax.vmap in run.py" in found[0][4]
    assert "`x` of `distinct` (wrapped by jax.jit in run.py" in found[1][4]
    assert found[2][4] == _size_msg("`jnp.argwhere`", "size", "`x` of `top` (wrapped by jax.jit)") + \
        "or use the three-argument `jnp.where(cond, x, fill)`"


def test_loop_valid_twins_stay_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"main.py": LOOP_VALID}, "JAX206") == []


# 2. Concrete JAX arrays are staged under jit ------------------------------------------

STAGED_METHOD = """\
from functools import partial

import jax
import jax.numpy as jnp


class Binomial:
    def __init__(self, p, n):
        self._p, self._n = jnp.asarray(p), jnp.asarray(n)
        self._m = n

    @partial(jax.jit, static_argnums=(0,))
    def cdf_x(self, x):
        xx = jnp.arange(0, self._n + 1, dtype=jnp.int32)
        return xx.sum() + x

    @partial(jax.jit, static_argnums=(0,))
    def grid(self, x):
        return jnp.zeros(self._n * 2) + x
"""

STAGED_CONSTS = """\
import jax
import jax.numpy as jnp

N = jnp.asarray(5)
SIZES = jnp.array([3, 4])


def body(i, acc):
    return acc + jnp.ones(-N + 10).sum()


def sample(key):
    return jax.random.normal(key, (SIZES[0],)) + jnp.zeros(SIZES.sum())


total = jax.lax.fori_loop(0, 3, body, 0.0)
draw = jax.jit(sample)(jax.random.key(0))
"""

STAGED_VALID = """\
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

N = jnp.asarray(5)
A = np.asarray(5)


class Binomial:
    def __init__(self, p, n):
        self._n = jnp.asarray(n)
        self._m = n

    @partial(jax.jit, static_argnums=(0,))
    def cdf_x(self, x):
        return jnp.arange(0, self._n).sum() + jnp.arange(self._m + 1).sum() + x


@jax.jit
def f(x):
    with jax.ensure_compile_time_eval():
        n = N + 1
    return jnp.zeros(n).sum() + jnp.zeros(A + 1).sum() + jnp.zeros(N).sum() + x


def g(x):
    return jnp.zeros(N + 1).sum() * x


y = jax.vmap(g)(jnp.ones(3))
z = jax.grad(g)(1.0)
"""


def _shape_msg(fn: str, where: str, error: str) -> str:
    return (f"A shape or size passed to `{fn}` is traced: it is computed by JAX inside {where}; shapes "
            f"must be concrete ({error}). Derive it from `x.shape`, or pass it as a static argument")


_CONC = "ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected"
_SHAPES = "TypeError: Shapes must be 1D sequences of concrete values"


def test_operations_on_a_concrete_attribute_array_are_staged(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"binomial.py": STAGED_METHOD}, "JAX202")
    assert found == [
        ("JAX202", "binomial.py", 14, 28, _shape_msg("jnp.arange", "`cdf_x` (wrapped by jax.jit)", _CONC)),
        ("JAX202", "binomial.py", 19, 26, _shape_msg("jnp.zeros", "`grid` (wrapped by jax.jit)", _SHAPES)),
    ]


def test_operations_on_module_constant_arrays_are_staged(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"consts.py": STAGED_CONSTS}, "JAX202")
    assert _where(found) == [("JAX202", "consts.py", 9, 27), ("JAX202", "consts.py", 13, 36),
                             ("JAX202", "consts.py", 13, 60)]
    assert found[0][4] == _shape_msg("jnp.ones", "`body` (a body passed to lax.fori_loop)", _SHAPES)
    assert found[1][4] == _shape_msg("jax.random.normal", "`sample` (wrapped by jax.jit)", _SHAPES)
    assert found[2][4] == _shape_msg("jnp.zeros", "`sample` (wrapped by jax.jit)", _SHAPES)


def test_concrete_arrays_not_operated_on_or_not_staged_stay_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"valid.py": STAGED_VALID}, "JAX202,JAX201,JAX206") == []


# 3. Masks spelled through a dtype, a reduction, lax ---------------------------------

MASKS = """\
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def by_astype(x, y):
    m = y.astype(bool)
    return x[m]


@jax.jit
def by_asarray(x, y):
    return x[jnp.asarray(y, dtype=jnp.bool_)]


@jax.jit
def rows(x):
    return x[jnp.any(x > 0, axis=1)] + x[(x > 0).all(axis=1)].sum()


@jax.jit
def by_lax(x):
    return x[lax.gt(x, 0.0)].sum() + x[lax.convert_element_type(x, bool)].sum()


@jax.jit
def one_hot_mask(x, i):
    m = jnp.zeros(x.shape[0], dtype=bool).at[i].set(True)
    return x.at[jnp.invert(m)].set(0.0)
"""

MASKS_VALID = """\
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def f(x, y):
    m = np.zeros(3, dtype=bool)
    idx = y.astype(jnp.int32)
    keep = jnp.any(x > 0, axis=1)
    return x[m], x[idx], jnp.where(keep[:, None], x, 0.0)


def g(x, y):
    return x[y.astype(bool)], x[jnp.any(x > 0, axis=1)]
"""

_MASK = ("Boolean-mask indexing with a traced mask ({origin}): the result shape depends on the values, "
         "so tracing raises NonConcreteBooleanIndexError. Instead, ")
_KEEP = ("use the three-argument `jnp.where(mask, x, fill)` to keep the shape, or `jnp.nonzero(mask, "
         "size=n, fill_value=...)` to bound the number of elements")


def test_masks_through_dtypes_reductions_and_lax(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"masks.py": MASKS}, "JAX205")
    assert _where(found) == [
        ("JAX205", "masks.py", 9, 14), ("JAX205", "masks.py", 14, 14), ("JAX205", "masks.py", 19, 14),
        ("JAX205", "masks.py", 19, 42), ("JAX205", "masks.py", 24, 14), ("JAX205", "masks.py", 24, 40),
        ("JAX205", "masks.py", 30, 17),
    ]
    assert found[0][4] == _MASK.format(
        origin="it depends on the traced argument `y` of `by_astype` (decorated with @jax.jit)") + _KEEP
    assert found[6][4] == _MASK.format(
        origin="it depends on the traced argument `i` of `one_hot_mask` (decorated with @jax.jit)") + \
        "update with `jnp.where(mask, new_value, x)` instead of `x.at[mask]`"


def test_mask_valid_twins_stay_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"valid.py": MASKS_VALID}, "JAX205") == []


# 4. Value-dependent sizes beyond `size=` ---------------------------------------------

SIZES = """\
import jax
import jax.numpy as jnp


@jax.jit
def methods(x, r):
    return x.compress(x > 0), x.repeat(r)


@jax.jit
def trims(x, i):
    return jnp.trim_zeros(x), jnp.roots(x), jnp.delete(x, i), jnp.delete(x, x > 0)


@jax.jit
def product(a, b):
    return jnp.polymul(a, b, trim_leading_zeros=True)
"""

SIZES_VALID = """\
import jax
import jax.numpy as jnp


@jax.jit
def methods(x, r):
    return x.compress(x > 0, size=3), x.repeat(2), x.repeat(r, total_repeat_length=8)


@jax.jit
def trims(x, i):
    return (jnp.roots(x, strip_zeros=False), jnp.delete(x, i, assume_unique_indices=True),
            jnp.delete(x, 2), jnp.polymul(x, x))


def eager(x, i):
    return jnp.trim_zeros(x), jnp.roots(x), jnp.delete(x, i), x.compress(x > 0)
"""


def test_sizes_decided_by_values_beyond_size(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"sizes.py": SIZES}, "JAX206")
    assert _where(found) == [
        ("JAX206", "sizes.py", 7, 12), ("JAX206", "sizes.py", 7, 31), ("JAX206", "sizes.py", 12, 12),
        ("JAX206", "sizes.py", 12, 31), ("JAX206", "sizes.py", 12, 45), ("JAX206", "sizes.py", 12, 63),
        ("JAX206", "sizes.py", 17, 12),
    ]
    origin = "(it depends on the traced argument `{}` of `{}` (decorated with @jax.jit))"
    assert found[1][4] == (
        f"`.repeat()` without `total_repeat_length=` on a traced value {origin.format('r', 'methods')}: "
        "its output shape depends on the values, so tracing raises ConcretizationTypeError. Pass a static "
        "`total_repeat_length=` (an upper bound), or compute it outside the traced function")
    assert found[2][4] == (
        f"`jnp.trim_zeros` on a traced value {origin.format('x', 'trims')}: the number of zeros it trims "
        "depends on the values, so its output shape does too and tracing raises ConcretizationTypeError. "
        "It has no static-size form: keep the full length (mask the zeros with `jnp.where`), or trim "
        "outside the traced function")
    assert found[3][4] == (
        f"`jnp.roots` on a traced value {origin.format('x', 'trims')}: without `strip_zeros=False` its "
        "output shape depends on the values, so tracing raises ConcretizationTypeError. Pass "
        "`strip_zeros=False`, or compute it outside the traced function")
    assert found[4][4] == (
        f"`jnp.delete` on a traced value {origin.format('i', 'trims')}: without `assume_unique_indices=True` "
        "its output shape depends on the values, so tracing raises ConcretizationTypeError. Pass "
        "`assume_unique_indices=True`, or compute it outside the traced function")
    assert "a traced boolean mask deletes as many entries as it holds True values" in found[5][4]
    assert found[6][4] == (
        f"`jnp.polymul` on a traced value {origin.format('a', 'product')}: with `trim_leading_zeros=True` "
        "its output shape depends on the values, so tracing raises ConcretizationTypeError. Leave "
        "`trim_leading_zeros` False (the default), or trim outside the traced function")


def test_size_valid_twins_stay_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"valid.py": SIZES_VALID}, "JAX206") == []


# 5. Size arguments beyond the shape: index builders, `k` offsets, scan's length, pads ----

BUILDERS = """\
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def f(x, n):
    a = jnp.r_[0:n]
    b = jnp.mgrid[0:3, 0:n]
    c, d = jnp.tril_indices_from(x, n)
    e = lax.pad(x, 0.0, [(n, 0, 0), (0, 0, 0)])
    _, ys = jax.lax.scan(lambda c, _: (c, c), 0.0, None, length=n)
    return a, b, c, d, e, ys, jnp.diagflat(x, n), jnp.tensordot(x, x, n)
"""

BUILDERS_VALID = """\
import jax
import jax.numpy as jnp


@jax.jit
def g(x):
    n = x.shape[0]
    a = jnp.r_[0:n]
    c, d = jnp.tril_indices_from(x, 1)
    e = jax.lax.pad(x, 0.0, [(n, 0, 0), (0, 0, 0)])
    _, ys = jax.lax.scan(lambda c, _: (c, c), 0.0, None, length=n)
    return a, c, d, e, ys, jnp.diagflat(x, 1), jnp.tensordot(x, x, 2), jnp.mgrid[0:3, 0:n]
"""


def test_sizes_of_index_builders_offsets_scan_and_pad(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"b.py": BUILDERS}, "JAX202")
    assert _where(found) == [
        ("JAX202", "b.py", 8, 18), ("JAX202", "b.py", 9, 26), ("JAX202", "b.py", 10, 37),
        ("JAX202", "b.py", 11, 27), ("JAX202", "b.py", 12, 65), ("JAX202", "b.py", 13, 47),
        ("JAX202", "b.py", 13, 71),
    ]
    origin = "it depends on the traced argument `n` of `f` (decorated with @jax.jit)"
    assert found[0][4] == (
        f"A slice bound of `jnp.r_[...]` is traced: {origin}; it gives the length of the array `jnp.r_` "
        "builds, which must be static (ConcretizationTypeError: Abstract tracer value encountered where "
        "concrete value is expected). Derive it from `x.shape`; or, if `n` is a Python value, mark it "
        "static (static_argnums=1)")
    assert found[4][4] == (
        f"A shape or size passed to `lax.scan` is traced: {origin}; shapes must be concrete "
        f"({_CONC}). Derive it from `x.shape`; or, if `n` is a Python value, mark it static (static_argnums=1)")
    assert found[3][4].startswith("`padding_config` of `lax.pad` must be a Python value (JAX compiles it "
                                  f"into the computation), but it is traced: {origin}; this raises TypeError")


def test_static_builders_offsets_scan_and_pad_stay_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"v.py": BUILDERS_VALID}, "JAX202") == []


# 6. A concrete mask stays concrete; an operation on it under jit is staged -------------

CONST_MASKS = """\
import jax
import jax.numpy as jnp

MASK = jnp.array([True, False, True])


@jax.jit
def kept(x):
    return x[MASK]


@jax.jit
def flipped(x):
    return x[~MASK]


@jax.jit
def both(x):
    return x.at[MASK & MASK].set(0.0)
"""


def test_operations_on_a_constant_mask_are_staged(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"m.py": CONST_MASKS}, "JAX205")
    assert _where(found) == [("JAX205", "m.py", 14, 14), ("JAX205", "m.py", 19, 17)]
    assert found[0][4] == _MASK.format(origin="it is computed by JAX inside `flipped` (decorated with @jax.jit)") + _KEEP
