"""Batch 8's misses on Python values vs tracers, by mechanism (issue 22, branch recallT):
a numpyro model given to an inference class runs traced (its sample sites are tracers);
a traced argument keeps its kind through a transformation decorator (`@jax.grad`
called from jit); a loop primitive's carry keeps its initial value's Python structure
(a list of arrays stays a list whose items a traced index cannot pick); a `for` loop
over a JAX array built in the trace is reported at the loop, where the fix goes; a
helper that rebinds its parameter to a JAX array before any return (`f_k =
jnp.asarray(f_k)`, then `f_k = f_k - f_k[0]`) returns a JAX array, in the modules that
import it too (an in-place write on its result raises).

Each INVALID program's error was observed with JAX 0.10.2 (numpyro 0.22.0) and the
VALID twins run; they stay silent."""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str], select: str = "") -> list[tuple]:
    return lint_files(root, monkeypatch, files, select=select)


# 1. numpyro models (case 805): `Predictive(model=...)`, `NUTS(model)` and `SVI(model,
# guide, ...)` trace the model (vmap / lax.map, jit); a sample site without `obs` is a
# tracer there: `while heavy:` raises TracerBoolConversionError, `int(s)`
# ConcretizationTypeError.  The model in another module, numpyro imported under an
# alias and by name.  VALID: a site with `obs=y` hands back the observation (a Python
# float here), a model that only `numpyro.handlers.seed` runs is eager.

MODELS = """\
import numpyro as npr
import numpyro.distributions as dist


def coin_model(flips=None):
    p = npr.sample("p", dist.Beta(1.0, 1.0))
    heavy = npr.sample("heavy", dist.Bernoulli(0.5))
    while heavy:
        heavy = heavy - 1
    npr.sample("flips", dist.Bernoulli(p), obs=flips)


def observed_model(y):
    x = npr.sample("y", dist.Normal(0.0, 1.0), obs=y)
    if x > 0:
        npr.sample("z", dist.Normal(x, 1.0))
"""

FIT = """\
import numpyro
import numpyro.distributions as dist
from numpyro import sample
from numpyro.infer import MCMC, NUTS, SVI, Predictive, Trace_ELBO
from numpyro.infer.autoguide import AutoNormal

from pkg.models import coin_model, observed_model


def scale_model():
    s = sample("s", dist.HalfNormal(1.0))
    n = int(s)
    return sample("x", dist.Normal(0.0, n + 1.0))


def eager_model():
    s = sample("s", dist.Normal(0.0, 1.0))
    if s > 0:
        return 1
    return 0


def fit_coin(key):
    return Predictive(model=coin_model, num_samples=3)(key)


def fit_observed(key):
    MCMC(NUTS(observed_model), num_warmup=5, num_samples=5, progress_bar=False).run(key, 1.0)


def fit_scale(key):
    svi = SVI(scale_model, AutoNormal(scale_model), numpyro.optim.Adam(0.1), Trace_ELBO())
    return svi.run(key, 5, progress_bar=False)


def run_eager():
    return numpyro.handlers.seed(eager_model, 0)()
"""


def test_numpyro_model_sample_sites_are_tracers(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/models.py": MODELS, "pkg/fit.py": FIT},
                  select="JAX201,JAX202")
    assert found == [
        ("JAX201", "pkg/models.py", 8, 11,
         "Python `while` on a traced value: it is computed by JAX inside `coin_model` (a model given to numpyro.infer.Predictive in pkg/fit.py); this raises TracerBoolConversionError. Use `jax.lax.while_loop` (or `lax.fori_loop`)"),
        ("JAX202", "pkg/fit.py", 12, 9,
         "`int()` needs a concrete value, but its argument is traced: it is computed by JAX inside `scale_model` (a model given to numpyro.infer.SVI); this raises ConcretizationTypeError. Instead, keep it as an array (`x.astype(jnp.int32)`), or return it and convert outside the traced function"),
    ]


# 2. a traced argument through transformation decorators (case 839): `@jax.grad` /
# `@jax.value_and_grad` functions called from jitted functions with the tracer of a
# float the program passes: `bool(x)` / `if w:` raise TracerBoolConversionError.  VALID:
# the same function differentiated outside jit (concrete tracers: `bool` works), and
# one given a list (a pytree: its truth is the list's).

GRADS = """\
import jax
import jax.numpy as jnp


@jax.grad
def slope(x):
    if bool(x):
        return x ** 2
    return x


@jax.value_and_grad
def loss(w):
    if w:
        return w * 2.0
    return w


@jax.jit
def update(w):
    value, g = loss(w)
    return w - 0.1 * g


@jax.jit
def step(x):
    return slope(x)


@jax.grad
def eager_slope(x):
    if bool(x):
        return x ** 2
    return x


def outside(x):
    return eager_slope(x)


@jax.jit
def with_list(xs):
    return count(xs)


@jax.grad
def count(xs):
    if bool(xs):
        return xs[0] * 2.0
    return xs[0]


step(1.0)
update(0.5)
outside(1.0)
with_list([jnp.ones(()), jnp.ones(())])
"""


def test_tracer_kind_through_transformation_decorators(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/grads.py": GRADS}, select="JAX201,JAX202")
    assert found == [
        ("JAX201", "pkg/grads.py", 7, 8,
         "`bool()` of a traced value: it depends on the traced argument `x` of `slope` (called from traced `step`); this raises TracerBoolConversionError. Keep it as an array and use `jnp.where` / `jax.lax.cond`"),
        ("JAX201", "pkg/grads.py", 14, 8,
         "Python `if` on a traced value: it depends on the traced argument `w` of `loss` (called from traced `update`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
    ]


# 3. the carry of a loop primitive (case 832): `fori_loop(0, n, body, (mats, h))` with
# `args[0][i]` in the body, `while_loop` with `i, layers, h = state` then `layers[i]`,
# `scan` with `weights, h = carry` then `weights[x]`: TracerIntegerConversionError.
# VALID: the list stacked into one array first, and a Python int index.

CHAIN = """\
import jax
import jax.numpy as jnp
from jax import lax


def chain_body(i, args):
    edge = jnp.einsum("i,ij->j", args[1], args[0][i])
    return (args[0], edge)


@jax.jit
def chain(mats):
    _, edge = lax.fori_loop(0, len(mats), chain_body, (mats, jnp.ones(2)))
    return edge


def keep_going(state):
    i, layers, h = state
    return i < len(layers)


def apply_layer(state):
    i, layers, h = state
    return i + 1, layers, jnp.tanh(layers[i] @ h)


def forward(layers, h):
    return lax.while_loop(keep_going, apply_layer, (0, layers, h))[2]


def scan_step(carry, x):
    weights, h = carry
    return (weights, h @ weights[x]), h


def run_scan(h):
    weights = [jnp.eye(2), 2.0 * jnp.eye(2)]
    return lax.scan(scan_step, (weights, h), jnp.arange(2))


if __name__ == "__main__":
    chain([jnp.ones((2, 2)), jnp.ones((2, 2))])
    forward([jnp.eye(2), jnp.eye(2)], jnp.ones(2))
"""

CHAIN_OK = """\
import jax
import jax.numpy as jnp
from jax import lax


def chain_body(i, args):
    edge = jnp.einsum("i,ij->j", args[1], args[0][i])
    return (args[0], edge)


@jax.jit
def chain(mats):
    stacked = jnp.stack(mats)
    _, edge = lax.fori_loop(0, len(mats), chain_body, (stacked, jnp.ones(2)))
    return edge


def first_body(i, args):
    edge = jnp.einsum("i,ij->j", args[1], args[0][0])
    return (args[0], edge)


@jax.jit
def first(mats):
    _, edge = lax.fori_loop(0, 3, first_body, (mats, jnp.ones(2)))
    return edge


if __name__ == "__main__":
    chain([jnp.ones((2, 2)), jnp.ones((2, 2))])
    first([jnp.ones((2, 2)), jnp.ones((2, 2))])
"""


def test_loop_carry_keeps_python_structure(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/chain.py": CHAIN, "pkg/chain_ok.py": CHAIN_OK},
                  select="JAX202")
    assert found == [
        ("JAX202", "pkg/chain.py", 7, 43,
         "Indexing a Python list/tuple with a traced value raises TracerIntegerConversionError: it depends on the traced argument `i` of `chain_body` (a body passed to lax.fori_loop). Make it an array (`jnp.asarray(...)[i]`) or use `jax.lax.switch`"),
        ("JAX202", "pkg/chain.py", 24, 36,
         "Indexing a Python list/tuple with a traced value raises TracerIntegerConversionError: it depends on the traced argument `state` of `apply_layer` (a body passed to lax.while_loop). Make it an array (`jnp.asarray(...)[i]`) or use `jax.lax.switch`"),
        ("JAX202", "pkg/chain.py", 33, 26,
         "Indexing a Python list/tuple with a traced value raises TracerIntegerConversionError: it depends on the traced argument `x` of `scan_step` (a body passed to lax.scan). Make it an array (`jnp.asarray(...)[i]`) or use `jax.lax.switch`"),
    ]


# 4. a `for` loop over a JAX array built in the trace (case 814): the finding goes to the
# loop, once, whatever uses its variable (two indexes of tuples on one line; `int(n)` in a
# method a jitted function calls).  VALID: NumPy's arange and range hand out Python ints;
# a loop over a traced argument of unknown kind (`for k in idx`) stays silent: unknown never reports.

DECODER = """\
import jax
import jax.numpy as jnp
import numpy as np

STRIDES = (1, 2, 2)
WIDTHS = [4, 8, 16]


@jax.jit
def decode(x):
    for i in jnp.arange(3)[::-1]:
        x = x * STRIDES[i] + WIDTHS[i]
    return x


class Tower:
    def __call__(self, x):
        for n in jnp.array([1, 2]):
            x = jnp.concatenate([x, jnp.zeros(int(n))])
        return x


@jax.jit
def grow(x):
    return Tower()(x)


@jax.jit
def decode_ok(x):
    for i in np.arange(3)[::-1]:
        x = x * STRIDES[i] + WIDTHS[i]
    for j in range(3):
        x = x + STRIDES[j]
    return x


@jax.jit
def by_rows(x, idx):
    for k in idx:
        x = x + STRIDES[k]
    return x
"""


def test_loop_over_jax_array_reported_at_the_loop(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/decoder.py": DECODER}, select="JAX202")
    assert found == [
        ("JAX202", "pkg/decoder.py", 11, 14,
         "`for i in jnp.arange(3)[::-1]` loops over a JAX array, so under the trace `i` is a tracer (it is computed by JAX inside `decode` (decorated with @jax.jit)): `STRIDES[i]` on line 12 indexes a Python list/tuple with it, which raises TracerIntegerConversionError. Loop over Python ints instead (`range(...)`, `np.arange(...)`)"),
        ("JAX202", "pkg/decoder.py", 18, 18,
         "`for n in jnp.array([1, 2])` loops over a JAX array, so under the trace `n` is a tracer (it is computed by JAX inside `__call__` (called from traced `grow`)): `int(n)` on line 19 needs a concrete value, which raises ConcretizationTypeError. Loop over Python ints instead (`range(...)`, `np.arange(...)`)"),
    ]


# 5. a JAX array through returns across modules (case 823's solver): the helper rebinds
# its parameter to a JAX array at the top of its body, then updates it from itself
# (`f_k = f_k - f_k[0]`) or negates it (`-x / x.sum()`); the caller's item write, by name
# and through a module alias, raises TypeError.  VALID: a return before the rebinding
# (`keep`: a NumPy array comes back as it is), a NumPy rebinding, a rebinding under `if`.

SOLVERS = """\
import jax.numpy as jnp
import numpy as np


def solve(f_k):
    f_k = jnp.asarray(f_k, dtype=jnp.float32)
    for _ in range(3):
        f_k = f_k - f_k[0]
    return f_k


def normalize(x):
    # scale to unit sum
    x = jnp.asarray(x)
    return -x / x.sum()


def keep(x):
    if isinstance(x, np.ndarray):
        return x
    x = jnp.asarray(x)
    return x


def to_host(x):
    x = np.asarray(x)
    return x


def maybe(x, flag):
    if flag:
        x = jnp.asarray(x)
    return x
"""

SOLVE_FIT = """\
import numpy as np

import pkg.solvers as S
from pkg.solvers import keep, maybe, solve, to_host


def fit(n):
    f_k = solve(np.zeros(n))
    f_k[1] = 2.0
    weights = S.normalize(np.ones(n))
    weights[0] += 1.0
    return f_k, weights


def fit_ok(n, flag):
    a = keep(np.zeros(n))
    a[0] = 1.0
    b = to_host(np.zeros(n))
    b[0] = 1.0
    c = maybe(np.zeros(n), flag)
    c[0] = 1.0
    return a, b, c
"""


def test_jax_array_returned_across_modules(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/solvers.py": SOLVERS, "pkg/fit.py": SOLVE_FIT},
                  select="JAX101")
    assert found == [
        ("JAX101", "pkg/fit.py", 9, 5,
         "JAX arrays are immutable: `f_k[1] = ...` raises TypeError. Use `f_k = f_k.at[1].set(...)`"),
        ("JAX101", "pkg/fit.py", 11, 5,
         "JAX arrays are immutable: `weights[0] += ...` raises TypeError. Use `weights = weights.at[0].add(...)`"),
    ]
