"""loopB: recompiles from jits built per call, and benchmark timing, gathered from git histories.

Each INVALID project is a trimmed program from a fix commit (the code before it) or the
recall set's batch 11, written at least two ways; each VALID twin is the fixed code,
which stays silent.  The commit a test comes from is named in a comment.
"""

from tests.project_files import lint_files

# --- JAX501: a function that runs again and again, as the project shows it -------------

# pyscfad eval_gto before PR 152 (recall case 1116), written as a driver module calling a
# helper module that calls the builder: a loop two modules away runs the builder again
_EVAL_GTO = """\
import jax
import jax.numpy as jnp


def tangent(coords, coords_t, order):
    ao = jnp.stack([coords] * 3)

    @jax.jit
    def _contract(ao1, t):
        out = 0
        for i in range(order + 1):
            out = out + ao1[i] * t
        return out

    return _contract(ao, coords_t)
"""

_NUMINT = """\
from pkg.gto.eval_gto import tangent


def eval_ao_tangent(coords, coords_t):
    return tangent(coords, coords_t, 1)
"""

_MAIN_LOOP = """\
import jax.numpy as jnp

from pkg.dft.numint import eval_ao_tangent

if __name__ == "__main__":
    for step in range(3):
        t = eval_ao_tangent(jnp.ones(3), jnp.ones(3))
"""

_INIT = {"pkg/__init__.py": "", "pkg/gto/__init__.py": "", "pkg/dft/__init__.py": ""}


def test_jit_of_closure_in_function_run_from_a_loop_two_modules_away(tmp_path, monkeypatch):
    # https://github.com/fishjojo/pyscfad/pull/152 (recall case 1116)
    got = lint_files(tmp_path, monkeypatch, {**_INIT, "pkg/gto/eval_gto.py": _EVAL_GTO,
                                             "pkg/dft/numint.py": _NUMINT, "main.py": _MAIN_LOOP},
                     select="JAX501")
    assert got == [
        ("JAX501", "pkg/gto/eval_gto.py", 8, 6,
         "`jit` of the inner function `_contract` defined in `tangent` compiles again on every call of "
         "`tangent`: jit caches per function object and `tangent` builds a new one each time. Build it "
         "once: at module level, in a builder cached with `functools.cache`, or jit `tangent` itself; and "
         "pass the varying values as arguments"),
    ]


def test_jit_of_closure_in_function_called_once_stays_silent(tmp_path, monkeypatch):
    # the same builder run once by the program: one compile, as a module-level jit would
    main = _MAIN_LOOP.replace("    for step in range(3):\n        t = ", "    t = ")
    got = lint_files(tmp_path, monkeypatch, {**_INIT, "pkg/gto/eval_gto.py": _EVAL_GTO,
                                             "pkg/dft/numint.py": _NUMINT, "main.py": main},
                     select="JAX501")
    assert got == []


def test_jit_at_module_level_with_static_order_stays_silent(tmp_path, monkeypatch):
    # the fix: the kernel jitted once at module level, the order a static argument
    fixed = """\
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=2)
def _contract(ao1, t, order):
    out = 0
    for i in range(order + 1):
        out = out + ao1[i] * t
    return out


def tangent(coords, coords_t, order):
    ao = jnp.stack([coords] * 3)
    return _contract(ao, coords_t, order)
"""
    got = lint_files(tmp_path, monkeypatch, {**_INIT, "pkg/gto/eval_gto.py": fixed,
                                             "pkg/dft/numint.py": _NUMINT, "main.py": _MAIN_LOOP},
                     select="JAX501")
    assert got == []


# paxml's PjitPartitioner.preprocess_prng_key before e4fad96: a nested identity function
# jitted per call of the stored `_broadcast_key`, the method called once per training step
# through an instance of the class in another module
_PARTITIONING = """\
import jax
from jax.sharding import Mesh, NamedSharding, PartitionSpec
import numpy as np


class PjitPartitioner:

  def __init__(self):
    self._global_mesh = Mesh(np.array(jax.devices()), ('data',))
    self._broadcast_key_fn = None

  def preprocess_prng_key(self, prng_key):
    if not self._broadcast_key_fn:
      def _broadcast_key(k):
        def _identity(x):
          return x

        rep_sharding = NamedSharding(self._global_mesh, PartitionSpec())
        return jax.jit(
            _identity, in_shardings=rep_sharding, out_shardings=rep_sharding
        )(k)

      self._broadcast_key_fn = _broadcast_key

    return self._broadcast_key_fn(prng_key)
"""

_TRAINER_LIB = """\
import jax

from paxml_lite.partitioning import PjitPartitioner


def train_and_evaluate(num_steps):
  partitioner = PjitPartitioner()
  root_key = jax.random.PRNGKey(0)
  total = 0.0
  for step in range(num_steps):
    step_key = partitioner.preprocess_prng_key(jax.random.fold_in(root_key, step))
    total += float(jax.random.uniform(step_key))
  return total
"""


def test_jit_of_nested_function_in_method_run_per_step_through_an_instance(tmp_path, monkeypatch):
    # https://github.com/google/paxml/commit/e4fad96057a62c605f8cd36263080dc40a851988
    got = lint_files(tmp_path, monkeypatch, {"paxml_lite/__init__.py": "",
                                             "paxml_lite/partitioning.py": _PARTITIONING,
                                             "paxml_lite/trainer_lib.py": _TRAINER_LIB}, select="JAX501")
    assert got == [
        ("JAX501", "paxml_lite/partitioning.py", 19, 16,
         "`jit` of the inner function `_identity` defined in `_broadcast_key` compiles again on every call "
         "of `_broadcast_key`: jit caches per function object and `_broadcast_key` builds a new one each "
         "time. Build it once: at module level, in a builder cached with `functools.cache`, or jit "
         "`_broadcast_key` itself; and pass the varying values as arguments"),
    ]


def test_jit_of_module_level_identity_stays_silent(tmp_path, monkeypatch):
    # the fix: `_identity` defined globally, one function object for every call
    fixed = _PARTITIONING.replace("""      def _broadcast_key(k):
        def _identity(x):
          return x

""", """      def _broadcast_key(k):
""").replace("class PjitPartitioner:", "def _identity(x):\n  return x\n\n\nclass PjitPartitioner:")
    got = lint_files(tmp_path, monkeypatch, {"paxml_lite/__init__.py": "",
                                             "paxml_lite/partitioning.py": fixed,
                                             "paxml_lite/trainer_lib.py": _TRAINER_LIB}, select="JAX501")
    assert got == []


# init2winit's Trainer.update_params before e2e6bf1 (recall case 1122): a functools.partial
# bound to a name, then jitted, at every training step
_I2W_TRAINER = """\
import functools

import jax


def update(params, batch, lr, grad_clip):
  grad = jax.grad(lambda p: ((batch @ p) ** 2).mean())(params)
  return params - lr * grad


class Trainer:

  def __init__(self, hps):
    self.hps = hps

  def update_params(self, params, batch, lr):
    update_fn = functools.partial(update, grad_clip=self.hps.get('grad_clip'))
    update_jitted = jax.jit(update_fn, donate_argnums=(0,))
    return update_jitted(params, batch, lr)
"""

_I2W_MAIN = """\
import jax.numpy as jnp

from i2w.trainer import Trainer

if __name__ == "__main__":
  trainer = Trainer({'grad_clip': 1.0})
  params = jnp.zeros(3)
  for step in range(3):
    params = trainer.update_params(params, jnp.ones((4, 3)), 0.1)
"""


def test_jit_of_partial_bound_to_a_name_in_method_run_per_step(tmp_path, monkeypatch):
    # https://github.com/google/init2winit/commit/e2e6bf162b682b002bbec674c10db9248d905ce3 (recall case 1122)
    got = lint_files(tmp_path, monkeypatch, {"i2w/__init__.py": "", "i2w/trainer.py": _I2W_TRAINER,
                                             "main.py": _I2W_MAIN}, select="JAX501")
    assert got == [
        ("JAX501", "i2w/trainer.py", 18, 21,
         "`jit` of `update_fn`, a `functools.partial(...)` object made in `update_params` compiles again on "
         "every call of `update_params`: jit caches per function object and `update_params` builds a new "
         "one each time. Build it once: at module level, in a builder cached with `functools.cache`, or jit "
         "`update_params` itself; and pass the varying values as arguments"),
    ]


def test_jitted_partial_built_once_in_init_stays_silent(tmp_path, monkeypatch):
    # the fix: the jitted function built once and kept
    fixed = _I2W_TRAINER.replace("""    self.hps = hps
""", """    self.hps = hps
    update_fn = functools.partial(update, grad_clip=hps.get('grad_clip'))
    self._update_jitted = jax.jit(update_fn, donate_argnums=(0,))
""").replace("""    update_fn = functools.partial(update, grad_clip=self.hps.get('grad_clip'))
    update_jitted = jax.jit(update_fn, donate_argnums=(0,))
    return update_jitted(params, batch, lr)""", """    return self._update_jitted(params, batch, lr)""")
    got = lint_files(tmp_path, monkeypatch, {"i2w/__init__.py": "", "i2w/trainer.py": fixed,
                                             "main.py": _I2W_MAIN}, select="JAX501")
    assert got == []


# numpyro's fori_collect before PR 2171 (recall case 1011): a project helper that returns its
# function jitted, applied to an inner function, and the builder called three times in a row
_NUMPYRO_UTIL = """\
import jax
from jax import jit
from jax.lax import fori_loop

_DISABLE_CONTROL_FLOW_PRIM = False


def maybe_jit(fn, *args, **kwargs):
    if _DISABLE_CONTROL_FLOW_PRIM:
        return fn
    else:
        return jit(fn, *args, **kwargs)


def fori_collect(lower, upper, body_fun, init_val):
    def loop_fn(val):
        return fori_loop(lower, upper, lambda i, v: body_fun(v), val)

    return maybe_jit(loop_fn, donate_argnums=0)(init_val)
"""

_NUMPYRO_MAIN = """\
import jax.numpy as jnp

from numpyro_lite.util import fori_collect


def f(x):
    return x + 1


if __name__ == "__main__":
    result1 = fori_collect(0, 10, f, jnp.array([0.0]))
    result2 = fori_collect(0, 10, f, jnp.array([5.0]))
    result3 = fori_collect(0, 10, f, jnp.array([9.0]))
"""


def test_helper_jit_of_inner_function_in_builder_called_in_a_row(tmp_path, monkeypatch):
    # https://github.com/pyro-ppl/numpyro/pull/2171 (recall case 1011)
    got = lint_files(tmp_path, monkeypatch, {"numpyro_lite/__init__.py": "", "numpyro_lite/util.py": _NUMPYRO_UTIL,
                                             "main.py": _NUMPYRO_MAIN}, select="JAX501")
    assert got == [
        ("JAX501", "numpyro_lite/util.py", 19, 12,
         "`jit` of the inner function `loop_fn` defined in `fori_collect` compiles again on every call of "
         "`fori_collect`: jit caches per function object and `fori_collect` builds a new one each time. "
         "Build it once: at module level, in a builder cached with `functools.cache`, or jit `fori_collect` "
         "itself; and pass the varying values as arguments"),
    ]


def test_builder_with_decorated_inner_jit_called_twice_in_a_row_from_a_script(tmp_path, monkeypatch):
    # the same mechanism written with `@jax.jit` on the inner function, the two calls at
    # a script's top level
    core = """\
import jax


def solve(x0, steps):
    @jax.jit
    def body(x):
        for _ in range(steps):
            x = x * 0.5
        return x

    return body(x0)
"""
    run = """\
import jax.numpy as jnp

from solvers.core import solve

a = solve(jnp.ones(3), 4)
b = solve(jnp.zeros(3), 4)
"""
    got = lint_files(tmp_path, monkeypatch, {"solvers/__init__.py": "", "solvers/core.py": core, "run.py": run},
                     select="JAX501")
    assert got == [
        ("JAX501", "solvers/core.py", 5, 6,
         "`jit` of the inner function `body` defined in `solve` compiles again on every call of `solve`: jit "
         "caches per function object and `solve` builds a new one each time. Build it once: at module level, "
         "in a builder cached with `functools.cache`, or jit `solve` itself; and pass the varying values as "
         "arguments"),
    ]
    # one call, two calls in the branches of an `if` (only one runs), or two calls given
    # another object each (the name rebound in between, as a notebook's cells do): silent
    for script in (run.replace("b = solve(jnp.zeros(3), 4)\n", ""),
                   run.replace("a = solve(jnp.ones(3), 4)\nb = solve(jnp.zeros(3), 4)\n",
                               "problem = jnp.ones(3)\na = solve(problem, 4)\nproblem = jnp.zeros(3)\nb = solve(problem, 4)\n"),
                   run.replace("a = solve(jnp.ones(3), 4)\nb = solve(jnp.zeros(3), 4)\n",
                               "if jnp.ones(()) > 0:\n    a = solve(jnp.ones(3), 4)\nelse:\n    a = solve(jnp.zeros(3), 4)\n")):
        got = lint_files(tmp_path, monkeypatch, {"solvers/__init__.py": "", "solvers/core.py": core,
                                                 "run.py": script}, select="JAX501")
        assert got == []


def test_helper_that_may_not_jit_and_builder_called_once_stay_silent(tmp_path, monkeypatch):
    # a flag bound to True (the eager path is taken: unknown), and the fixed helper: the
    # loop function built at module level and jitted once
    eager = _NUMPYRO_UTIL.replace("_DISABLE_CONTROL_FLOW_PRIM = False", "_DISABLE_CONTROL_FLOW_PRIM = True")
    got = lint_files(tmp_path, monkeypatch, {"numpyro_lite/__init__.py": "", "numpyro_lite/util.py": eager,
                                             "main.py": _NUMPYRO_MAIN}, select="JAX501")
    assert got == []
    once = _NUMPYRO_MAIN.replace("    result2 = fori_collect(0, 10, f, jnp.array([5.0]))\n", "").replace(
        "    result3 = fori_collect(0, 10, f, jnp.array([9.0]))\n", "")
    got = lint_files(tmp_path, monkeypatch, {"numpyro_lite/__init__.py": "", "numpyro_lite/util.py": _NUMPYRO_UTIL,
                                             "main.py": once}, select="JAX501")
    assert got == []


# --- JAX505: what a benchmark harness times ---------------------------------------------

# JAX's benchmarks/api_benchmark.py before 9d73441 (PR 17724, recall case 1124) and before
# 283fea2: google_benchmark times the `while state:` loop
_GBENCH = """\
import time

_REGISTERED = []


def register(fn):
  _REGISTERED.append(fn)
  return fn


class State:
  def __init__(self, iterations):
    self._left = iterations
    self.start = None

  def __bool__(self):
    if self.start is None:
      self.start = time.perf_counter()
    self._left -= 1
    return self._left >= 0
"""

_API_BENCH = """\
import operator
from functools import partial

import jax
import jax.numpy as jnp

from benchmarks import google_benchmark


@google_benchmark.register
def jit_simple_dispatch(state):
  a = jax.device_put(1)
  b = jax.device_put(2)
  f = jax.jit(operator.add)
  f(a, b)

  while state:
    f(a, b)


def batch_inplace_while(inplace_op, state):

  @jax.jit
  def f(xs):
    return xs.at[0].set(1) if inplace_op == 'scatter' else xs + 1

  args = (jnp.zeros((1, 100)),)
  f(*args)  # compile
  while state:
    f(*args)


google_benchmark.register(partial(batch_inplace_while, 'scatter'))
"""


def test_benchmark_state_loop_without_block(tmp_path, monkeypatch):
    # https://github.com/jax-ml/jax/commit/283fea2c131424d5516c10cf5bdc2bc5f1e658f3 (jit_simple_dispatch)
    # https://github.com/jax-ml/jax/pull/17724 (batch_inplace_while, recall case 1124)
    got = lint_files(tmp_path, monkeypatch, {"benchmarks/__init__.py": "",
                                             "benchmarks/google_benchmark.py": _GBENCH,
                                             "benchmarks/api_benchmark.py": _API_BENCH}, select="JAX505")
    assert got == [
        ("JAX505", "benchmarks/api_benchmark.py", 15, 3,
         "`f(a, b)` warms up the benchmark `jit_simple_dispatch` before its timed `while state:` loop, and "
         "nothing waits for it (dispatch is asynchronous): its work is still running when the timed loop "
         "starts, and counted in it. Wait for it: `jax.block_until_ready(f(a, b))`"),
        ("JAX505", "benchmarks/api_benchmark.py", 18, 5,
         "`f(a, b)` runs in the timed `while state:` loop of the benchmark `jit_simple_dispatch` and nothing "
         "waits for it, in the loop or after it (dispatch is asynchronous): the benchmark measures the "
         "dispatch, not the work. Wait for the result: `jax.block_until_ready(f(a, b))`"),
        ("JAX505", "benchmarks/api_benchmark.py", 28, 3,
         "`f(*args)` warms up the benchmark `batch_inplace_while` before its timed `while state:` loop, and "
         "nothing waits for it (dispatch is asynchronous): its work is still running when the timed loop "
         "starts, and counted in it. Wait for it: `jax.block_until_ready(f(*args))`"),
        ("JAX505", "benchmarks/api_benchmark.py", 30, 5,
         "`f(*args)` runs in the timed `while state:` loop of the benchmark `batch_inplace_while` and nothing "
         "waits for it, in the loop or after it (dispatch is asynchronous): the benchmark measures the "
         "dispatch, not the work. Wait for the result: `jax.block_until_ready(f(*args))`"),
    ]


def test_benchmark_state_loop_that_waits_stays_silent(tmp_path, monkeypatch):
    # the fixes: 9d73441 waits in the loop and for the warm-up; 283fea2 waits after the
    # loop (a dispatch benchmark); a `while queue:` loop that names its test is no harness
    fixed = _API_BENCH.replace("""  f(a, b)

  while state:
    f(a, b)
""", """  x = f(a, b)

  while state:
    x = f(a, b)
  x.block_until_ready()
""").replace("""  f(*args)  # compile
  while state:
    f(*args)
""", """  jax.block_until_ready(f(*args))  # compile
  while state:
    jax.block_until_ready(f(*args))
""")
    fixed += """

def drain(queue):
  g = jax.jit(lambda x: x * 2)
  while queue:
    g(queue.pop())
"""
    got = lint_files(tmp_path, monkeypatch, {"benchmarks/__init__.py": "",
                                             "benchmarks/google_benchmark.py": _GBENCH,
                                             "benchmarks/api_benchmark.py": fixed}, select="JAX505")
    assert got == []


# nemos scripts/benchmarking_glm.py before d0102e5: the call of an ahead-of-time compiled
# function timed with perf_counter, nothing waiting for it
_NEMOS = """\
from time import perf_counter

import jax


def _optimizer_run(params, X, y):
    grad = X.T @ (X @ params - y)
    return params - 0.1 * grad, grad, None


def benchmark_fit(model_pars, X, y, n_reps=3):
    fit_s = []
    for _ in range(n_reps):
        compiled = jax.jit(_optimizer_run).trace(model_pars, X, y).lower().compile()
        t3 = perf_counter()
        _, state, _ = compiled(model_pars, X, y)
        t4 = perf_counter()
        fit_s.append(t4 - t3)
    return fit_s


def benchmark_pmap(x):
    run = jax.pmap(lambda v: v * 2).lower(x).compile()
    start = perf_counter()
    run(x)
    return perf_counter() - start
"""


def test_timed_call_of_an_ahead_of_time_compiled_function(tmp_path, monkeypatch):
    # https://github.com/flatironinstitute/nemos/commit/d0102e5ff4b3418325ace3db095295bdcafa8236
    got = lint_files(tmp_path, monkeypatch, {"scripts/benchmarking_glm.py": _NEMOS}, select="JAX505")
    msg = ("`perf_counter()` is read while the JAX computation started on line {} may still be running "
           "(dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not "
           "the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`")
    assert got == [
        ("JAX505", "scripts/benchmarking_glm.py", 17, 14, msg.format(16)),
        ("JAX505", "scripts/benchmarking_glm.py", 26, 12, msg.format(25)),
    ]


def test_timed_compiled_call_that_waits_stays_silent(tmp_path, monkeypatch):
    # the fix: wait for a result before the clock is read again (the compile itself is synchronous)
    fixed = _NEMOS.replace("""        _, state, _ = compiled(model_pars, X, y)
""", """        pars, state, _ = compiled(model_pars, X, y)
        pars.block_until_ready()
""").replace("    run(x)\n", "    run(x).block_until_ready()\n")
    got = lint_files(tmp_path, monkeypatch, {"scripts/benchmarking_glm.py": fixed}, select="JAX505")
    assert got == []


# --- JAX503: a loop whose count the caller chose when it built the object ---------------

# flowMC's RealNVP before PR 154 (issue 153, recall case 1108): the jitted log_prob runs a
# Python loop over the coupling layers that __init__ builds, one per step of range(n_layers)
_REALNVP = """\
import equinox as eqx
import jax
import jax.numpy as jnp


class RealNVP(eqx.Module):
    affine_coupling: list

    def __init__(self, n_features, n_layers, key):
        affine_coupling = []
        for i in range(n_layers):
            key, subkey = jax.random.split(key)
            affine_coupling.append(eqx.nn.Linear(n_features, n_features, key=subkey))
        self.affine_coupling = affine_coupling

    def forward(self, x):
        log_det = 0.0
        for i in range(len(self.affine_coupling)):
            x = self.affine_coupling[i](x)
            log_det += jnp.sum(x)
        return x, log_det

    @eqx.filter_jit
    def log_prob(self, x):
        y, log_det = self.forward(x)
        return log_det - 0.5 * jnp.sum(y ** 2)
"""

# the same count kept as an integer field (another way to write it)
_TOWER = """\
import equinox as eqx
import jax.numpy as jnp


class Tower(eqx.Module):
    block: eqx.nn.Linear
    depth: int

    def __init__(self, width, depth, key):
        self.block = eqx.nn.Linear(width, width, key=key)
        self.depth = depth

    @eqx.filter_jit
    def __call__(self, x):
        for _ in range(self.depth):
            x = jnp.tanh(self.block(x))
        return x
"""


def test_loop_over_layers_counted_by_a_constructor_parameter(tmp_path, monkeypatch):
    # https://github.com/kazewong/flowMC/issues/153 (recall case 1108)
    got = lint_files(tmp_path, monkeypatch, {"realNVP.py": _REALNVP, "tower.py": _TOWER}, select="JAX503")
    assert got == [
        ("JAX503", "realNVP.py", 18, 18,
         "this Python loop runs `len(self.affine_coupling)` times, computed from the length of "
         "`self.affine_coupling`, which `RealNVP.__init__` sets from its parameter `n_layers`, while JAX "
         "traces `forward`: it is unrolled into `len(self.affine_coupling)` copies of its body, and every new "
         "value of `len(self.affine_coupling)` compiles again. Use `lax.fori_loop(0, "
         "len(self.affine_coupling), body, init)` (or `lax.scan`)"),
        ("JAX503", "tower.py", 15, 18,
         "this Python loop runs `self.depth` times, computed from `self.depth`, which `Tower.__init__` sets "
         "from its parameter `depth`, while JAX traces `__call__`: it is unrolled into `self.depth` copies of "
         "its body, and every new value of `self.depth` compiles again. Use `lax.fori_loop(0, self.depth, "
         "body, init)` (or `lax.scan`)"),
    ]


def test_loop_over_layers_of_a_fixed_count_stays_silent(tmp_path, monkeypatch):
    # a count the class fixes (three layers), and a list appended under a condition: silent
    fixed = _REALNVP.replace("for i in range(n_layers):", "for i in range(3):")
    cond = _REALNVP.replace(
        "            affine_coupling.append(eqx.nn.Linear(n_features, n_features, key=subkey))",
        "            if i % 2:\n                affine_coupling.append(eqx.nn.Linear(n_features, n_features, key=subkey))")
    tower = _TOWER.replace("self.depth = depth", "self.depth = 4")
    got = lint_files(tmp_path, monkeypatch, {"realNVP.py": fixed, "cond.py": cond, "tower.py": tower},
                     select="JAX503")
    assert got == []


# --- JAX504: a new function object as a static argument on every call -------------------

# probdiffeq's ivpsolve.solve before 60aeccc: a lambda made on every call of `solve` is the
# static `vector_field` of the jitted taylor_mode_fn; and the same with a partial bound to a name
_TAYLOR = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("vector_field", "num"))
def taylor_mode_fn(*, vector_field, initial_values, num):
    coeffs = [*initial_values]
    for _ in range(num):
        coeffs.append(vector_field(*coeffs[-1:]))
    return jnp.stack(coeffs)


@partial(jax.jit, static_argnums=1)
def apply(x, fn):
    return fn(x)
"""

_IVPSOLVE = """\
import functools

from odefilter import taylor


def solve(vector_field, initial_values, t0, num, parameters=()):
    return taylor.taylor_mode_fn(
        vector_field=lambda *x: vector_field(*x, t=t0, p=parameters),
        initial_values=initial_values,
        num=num,
    )


def scale(x, factor):
    return x * factor


def rescale(x, factor):
    fn = functools.partial(scale, factor=factor)
    return taylor.apply(x, fn)
"""

_ODE_MAIN = """\
import jax.numpy as jnp

from odefilter import ivpsolve


def vf(y, *, t, p):
    return -y * p[0]


if __name__ == "__main__":
    for k in range(3):
        y = ivpsolve.solve(vf, (jnp.ones(2) * k,), 0.0, 2, parameters=(0.5,))
        z = ivpsolve.rescale(y, 2.0)
"""


def test_new_function_object_as_static_argument_on_every_call(tmp_path, monkeypatch):
    # https://github.com/pnkraemer/probdiffeq/commit/60aeccc9d6ac0ebf67c2890a81840b6991fd7730
    got = lint_files(tmp_path, monkeypatch, {"odefilter/__init__.py": "", "odefilter/taylor.py": _TAYLOR,
                                             "odefilter/ivpsolve.py": _IVPSOLVE, "main.py": _ODE_MAIN},
                     select="JAX504")
    assert got == [
        ("JAX504", "odefilter/ivpsolve.py", 8, 22,
         "a new lambda, made on every call of `solve`, is passed as the static argument `vector_field` of jit: "
         "a static argument is looked up in the compile cache by hash and equality, and this object equals only "
         "itself, so every call of `solve` traces and compiles it again. Make it once (at module level, or "
         "cached), or pass what it closes over as arguments of a function defined once"),
        ("JAX504", "odefilter/ivpsolve.py", 20, 28,
         "`fn`, a new `functools.partial(...)`, made on every call of `rescale`, is passed as the static "
         "argument `fn` (position 1) of jit: a static argument is looked up in the compile cache by hash and "
         "equality, and this object equals only itself, so every call of `rescale` traces and compiles it "
         "again. Make it once (at module level, or cached), or pass what it closes over as arguments of a "
         "function defined once"),
    ]


def test_static_function_made_once_or_inside_the_trace_stays_silent(tmp_path, monkeypatch):
    # the fix: the lambda made inside a jitted helper whose static argument is the user's
    # own function (one object per problem); the partial's function passed itself; and
    # the unfixed solver run once by the program
    fixed = """\
import functools

import jax

from odefilter import taylor


@functools.partial(jax.jit, static_argnames=["vector_field", "num"])
def _taylor_coefficients(*, vector_field, initial_values, num, t0, parameters):
    return taylor.taylor_mode_fn(
        vector_field=lambda *x: vector_field(*x, t=t0, p=parameters),
        initial_values=initial_values,
        num=num,
    )


def solve(vector_field, initial_values, t0, num, parameters=()):
    return _taylor_coefficients(vector_field=vector_field, initial_values=initial_values, num=num,
                                t0=t0, parameters=parameters)


def double(x):
    return x * 2.0


def rescale(x, factor):
    return taylor.apply(x, double)
"""
    got = lint_files(tmp_path, monkeypatch, {"odefilter/__init__.py": "", "odefilter/taylor.py": _TAYLOR,
                                             "odefilter/ivpsolve.py": fixed, "main.py": _ODE_MAIN},
                     select="JAX504")
    assert got == []
    once = _ODE_MAIN.replace("    for k in range(3):\n        y = ", "    k = 1\n    if True:\n        y = ")
    got = lint_files(tmp_path, monkeypatch, {"odefilter/__init__.py": "", "odefilter/taylor.py": _TAYLOR,
                                             "odefilter/ivpsolve.py": _IVPSOLVE, "main.py": once},
                     select="JAX504")
    assert got == []
