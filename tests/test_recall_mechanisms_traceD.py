"""Traced control flow and conversions reached through loop bodies, carries and
transformations the model missed (branch traceD).

* a loop primitive's body (``fori_loop``, ``scan``, ``while_loop``) and a cond branch get
  arrays whatever the parameters' annotations say: ``def body(i: int, total)`` under
  ``lax.fori_loop`` has a tracer ``i`` (the annotation made it a Python value), and a
  helper it hands ``i`` to (``def pick(batch, idx: int)``) asserts on a tracer (recall
  case 1526, scenic's ``get_microbatch``);
* a loop carry keeps its pytree class: ``State(err, n)`` of a NamedTuple given to
  ``while_loop`` reaches the body with its fields tracers (``if state.error > tol``), and a
  body given as a bound method (``lax.while_loop(self._cond, self._body, (x, state))``)
  gets the carry too (recall case 437, jaxopt's LBFGS ``not flag | ~state.failed``);
  a static field of a ``flax.struct`` dataclass stays a Python value;
* the builtins ``all``/``any``/``sorted`` and ``max``/``min`` of one iterable convert or
  compare its elements as Python bools: a display of tracers (``all([x > 0, y > 0])``,
  ``sorted([a, b])``, ``any(v < 0 for v in (x, y))``), a name holding a list of tracers (``max(losses)``); ``min(i, 3)``
  of a traced argument of unknown kind against a number (recall case 1510's spelling,
  ``min(decay_steps, step)``);
* flax nnx's ``fori_loop``/``while_loop`` (and ``cond``/``switch``/``eval_shape``/``pmap``/
  ``shard_map``) trace their bodies: what JAX computes there is a tracer;
* ``checkify.checkify`` (called or as a decorator) and ``eqx.filter_make_jaxpr`` trace the
  function they are given.

Behaviour checked with JAX 0.10.2 (CPU), each statement alone: every INVALID statement
raises TracerBoolConversionError (ConcretizationTypeError for ``int()`` under
``filter_make_jaxpr``), every VALID twin runs."""

from __future__ import annotations

from project_files import lint_files

ANN = """\
import jax
import jax.numpy as jnp


def body(i: int, total):
    if i > 2:
        return total
    return total + 1.0


def pick(batch, idx: int):
    assert idx < 4
    return batch[idx]


def step(count: int, acc):
    return acc + pick(jnp.ones(4), count)


def scan_body(carry: float, x):
    if carry > 1.0:
        return carry, x
    return carry + x, x


out = jax.lax.fori_loop(0, 4, body, 0.0)
out2 = jax.lax.fori_loop(0, 4, step, 0.0)
out3 = jax.lax.scan(scan_body, 0.0, jnp.ones(3))
"""

ANN_VALID = """\
import jax
import jax.numpy as jnp


def body(i: int, total):
    return total + i


def shifted(n: int):
    if n > 2:
        return jnp.ones(n)
    return jnp.zeros(n)


out = jax.lax.fori_loop(0, 4, body, 0.0)
small = jax.jit(shifted, static_argnums=0)(3)
"""

CARRY = """\
from typing import NamedTuple

import jax
import jax.numpy as jnp


class State(NamedTuple):
    error: jnp.ndarray
    count: jnp.ndarray


def keep_going(state):
    if state.error > 1e-3:
        return True
    return False


def halve(state):
    return State(state.error / 2, state.count + 1)


class Solver:
    def __init__(self, tol):
        self.tol = tol

    def _cond(self, inputs):
        _, state = inputs
        return (state.count < 10) & (not state.error < self.tol)

    def _body(self, inputs):
        x, state = inputs
        return x, halve(state)

    def run(self, x):
        state = State(jnp.asarray(1.0), jnp.asarray(0))
        return jax.lax.while_loop(self._cond, self._body, (x, state))


out = jax.lax.while_loop(keep_going, halve, State(jnp.asarray(1.0), jnp.asarray(0)))
res = Solver(1e-3).run(jnp.zeros(3))
"""

CARRY_VALID = """\
from typing import NamedTuple

import flax.struct
import jax
import jax.numpy as jnp


class State(NamedTuple):
    error: jnp.ndarray
    count: jnp.ndarray


@flax.struct.dataclass
class Config:
    error: jnp.ndarray
    verbose: bool = flax.struct.field(pytree_node=False, default=False)


def keep_going(state):
    return state.error > 1e-3


def halve(state):
    return State(state.error / 2, state.count + 1)


def cfg_cond(cfg):
    if cfg.verbose:
        jax.debug.print("err {}", cfg.error)
    return cfg.error > 1e-3


def cfg_body(cfg):
    return cfg.replace(error=cfg.error / 2)


class Solver:
    def _cond(self, inputs):
        _, state = inputs
        return (state.count < 10) & (state.error > 1e-3)

    def _body(self, inputs):
        x, state = inputs
        return x, halve(state)

    def run(self, x):
        state = State(jnp.asarray(1.0), jnp.asarray(0))
        return jax.lax.while_loop(self._cond, self._body, (x, state))


out = jax.lax.while_loop(keep_going, halve, State(jnp.asarray(1.0), jnp.asarray(0)))
res = Solver().run(jnp.zeros(3))
cfg = jax.lax.while_loop(cfg_cond, cfg_body, Config(jnp.asarray(1.0), True))
"""

CK = """\
import equinox as eqx
import jax.numpy as jnp
from jax.experimental import checkify


def clip(x):
    if x > 0:
        return x
    return -x


@checkify.checkify
def scaled(x):
    while x > 1.0:
        x = x / 2
    return x


def sizes(x):
    return int(x)


v = jnp.float32(2.0)
err, y = checkify.checkify(clip)(v)
err2, z = scaled(v)
jaxpr = eqx.filter_make_jaxpr(sizes)(v)
"""

CK_VALID = """\
import jax.numpy as jnp
from jax.experimental import checkify


def clip(x):
    checkify.check(x > -10, "x too small")
    return jnp.where(x > 0, x, -x)


def shape_only(x):
    if x.ndim > 1:
        return x.sum(axis=0)
    return x


v = jnp.float32(2.0)
err, y = checkify.checkify(clip)(v)
err2, z = checkify.checkify(shape_only)(jnp.ones((2, 3)))
"""


def test_annotated_loop_body_parameters_are_traced(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"ann.py": ANN, "ann_valid.py": ANN_VALID})
    assert found == [
        ('JAX201', 'ann.py', 6, 8, 'Python `if` on a traced value: it depends on the traced argument `i` of `body` (a body passed to lax.fori_loop); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`'),
        ('JAX201', 'ann.py', 12, 12, 'Python `assert` on a traced value: it depends on the traced argument `idx` of `pick` (called from traced `step`); this raises TracerBoolConversionError. Use `jax.experimental.checkify.check`, or assert on shapes/dtypes only'),
        ('JAX201', 'ann.py', 21, 8, 'Python `if` on a traced value: it depends on the traced argument `carry` of `scan_body` (a body passed to lax.scan); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`'),
    ]


def test_carry_keeps_its_pytree_class(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"carry.py": CARRY, "carry_valid.py": CARRY_VALID})
    assert found == [
        ('JAX201', 'carry.py', 13, 8, 'Python `if` on a traced value: it depends on the traced argument `state` of `keep_going` (a body passed to lax.while_loop); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`'),
        ('JAX201', 'carry.py', 28, 38, '`not` converts a traced value to a Python bool: it depends on the traced argument `inputs` of `_cond` (a body passed to lax.while_loop); this raises TracerBoolConversionError. Use `jnp.logical_not` / `~`'),
    ]


def test_checkify_and_filter_make_jaxpr_trace(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"ck.py": CK, "ck_valid.py": CK_VALID})
    assert found == [
        ('JAX201', 'ck.py', 7, 8, 'Python `if` on a traced value: it depends on the traced argument `x` of `clip` (wrapped by jax.experimental.checkify.checkify); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`'),
        ('JAX201', 'ck.py', 14, 11, 'Python `while` on a traced value: it depends on the traced argument `x` of `scaled` (decorated with @jax.experimental.checkify.checkify); this raises TracerBoolConversionError. Use `jax.lax.while_loop` (or `lax.fori_loop`)'),
        ('JAX202', 'ck.py', 20, 12, '`int()` needs a concrete value, but its argument is traced: it depends on the traced argument `x` of `sizes` (wrapped by eqx.filter_make_jaxpr); this raises ConcretizationTypeError. Instead, keep it as an array (`x.astype(jnp.int32)`), or return it and convert outside the traced function'),
    ]


BUILTINS_INV = """\
import functools

import jax
import jax.numpy as jnp


@jax.jit
def both_positive(x, y):
    return all([x > 0, y > 0])


@functools.partial(jax.vmap, in_axes=(0, 0))
def ordered(a, b):
    lo, hi = sorted([a, b])
    return hi - lo


def body(i, total):
    step = min(i, 3)
    return total + step


def worst(x):
    losses = [jnp.sum(x), jnp.max(x)]
    return max(losses)


ok = both_positive(jnp.float32(1), jnp.float32(2))
pairs = ordered(jnp.ones(3), jnp.zeros(3))
total = jax.lax.fori_loop(0, 5, body, 0)
w = jax.jit(worst)(jnp.ones(3))


@jax.jit
def any_negative(x, y):
    return any(v < 0 for v in (x, y))


neg = any_negative(jnp.float32(1), jnp.float32(2))
"""

BUILTINS_VALID = """\
import functools

import jax
import jax.numpy as jnp


@jax.jit
def both_positive(x, y):
    return all([x.ndim == 0, y.ndim == 0]) and jnp.all(jnp.stack([x > 0, y > 0]))


@functools.partial(jax.jit, static_argnums=1)
def clipped(x, n):
    k = min(n, 3)
    dims = sorted(x.shape)
    return x[:k] * max(len(dims), 1)


def worst(x):
    losses = [jnp.sum(x), jnp.max(x)]
    return jnp.max(jnp.stack(losses))


ok = both_positive(jnp.float32(1), jnp.float32(2))
c = clipped(jnp.ones(5), 4)
w = jax.jit(worst)(jnp.ones(3))


@jax.jit
def any_empty(x, y):
    return any(v is None for v in (x, y)) or any(d < 1 for d in x.shape)


empty = any_empty(jnp.ones(3), jnp.float32(2))
"""


def test_builtins_that_convert_elements(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"builtins_inv.py": BUILTINS_INV, "builtins_valid.py": BUILTINS_VALID})
    assert found == [
        ('JAX201', 'builtins_inv.py', 9, 12, '`all()` converts each element to a Python bool, but `x > 0` is traced: it depends on the traced argument `x` of `both_positive` (decorated with @jax.jit); this raises TracerBoolConversionError. Use `jnp.all(jnp.stack([...]))`; or, if `x` is a Python value, mark it static (static_argnums=0)'),
        ('JAX201', 'builtins_inv.py', 14, 14, '`sorted()` compares its elements as Python bools, but `a` is traced: it depends on the traced argument `a` of `ordered` (wrapped by jax.vmap); this raises TracerBoolConversionError. Use `jnp.sort(jnp.stack([...]))`'),
        ('JAX201', 'builtins_inv.py', 19, 12, '`min()` compares its arguments as Python bools, but `i` is traced: it depends on the traced argument `i` of `body` (a body passed to lax.fori_loop); this raises TracerBoolConversionError. Use `jnp.minimum`'),
        ('JAX201', 'builtins_inv.py', 25, 12, '`max()` compares its arguments as Python bools, but `losses` is traced: it depends on the traced argument `x` of `worst` (wrapped by jax.jit); this raises TracerBoolConversionError. Use `jnp.max(jnp.stack(...))`'),
        ('JAX201', 'builtins_inv.py', 36, 12, '`any()` converts each element to a Python bool, but `v < 0` is traced: it depends on the traced argument `x` of `any_negative` (decorated with @jax.jit); this raises TracerBoolConversionError. Use `jnp.any(jnp.stack([...]))`; or, if `x` is a Python value, mark it static (static_argnums=0)'),
    ]


NNX_INV = """\
import flax.nnx as nnx
import jax.numpy as jnp


def body(i, c):
    if jnp.sum(c) > 3.0:
        return c
    return c + 1.0


def keep_going(c):
    while jnp.max(c) < 3.0:
        c = c + 1.0
    return True


out = nnx.fori_loop(0, 3, body, jnp.ones(2))
out2 = nnx.while_loop(keep_going, lambda c: c, jnp.ones(2))
"""

NNX_VALID = """\
import flax.nnx as nnx
import jax.numpy as jnp


def body(i, c):
    if c.ndim > 1:
        return c.sum(axis=0)
    return jnp.where(jnp.sum(c) > 3.0, c, c + 1.0)


out = nnx.fori_loop(0, 3, body, jnp.ones(2))
"""


def test_nnx_loop_bodies_are_traced(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"nnx_inv.py": NNX_INV, "nnx_valid.py": NNX_VALID})
    assert found == [
        ('JAX201', 'nnx_inv.py', 6, 8, 'Python `if` on a traced value: it is computed by JAX inside `body` (a body passed to flax.nnx.fori_loop); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`'),
        ('JAX201', 'nnx_inv.py', 12, 11, 'Python `while` on a traced value: it is computed by JAX inside `keep_going` (a body passed to flax.nnx.while_loop); this raises TracerBoolConversionError. Use `jax.lax.while_loop` (or `lax.fori_loop`)'),
    ]
