"""Mechanisms of the precC round: false positives a reviewer found on fresh projects (rev23).

1. JAX403: ``self.kernel_size = _resolve_kernel_size(self.kernel_size, self.shape)`` in a
   traced method (kernex): the attribute is only handed to a function of the project (or a
   method) given no traced value. What that function returns, and whether a second call
   would change it again, is unknown, so the "update of the same attribute" clause stays
   silent. An update the model sees (an operator, a builtin, ``operator.add``) keeps
   reporting. Checked with jax 0.10.2 on CPU: ``Window.apply`` gives ``size == (2, 2)`` and
   the same result jitted or not, while ``self.calls = operator.add(self.calls, 1)`` ends at
   1 after two jitted calls and at 2 after two eager ones. A helper of the file whose
   ``return`` is computed by a JAX function (``self.key = advance(self.key)``, ``return
   jax.random.split(key)[0]``) moves array state on and keeps reporting: jitted twice,
   ``Noisy.sample`` draws the same noise both times.
2. JAX120: the ``update`` of an ``(init, update, get_params)`` triple returned by a function
   decorated with ``jax.example_libraries.optimizers.optimizer`` (any import or alias) or by a
   decorator of the file that unpacks its function's result into three names (a vendored copy
   of ``optimizers.py``, vbjax ``_optimizers.py``): it post-processes the gradients ``jax.grad``
   gave and is not differentiated (model/optimizer_triples.py). Checked with jax 0.10.2 on CPU:
   ``optimizers.adagrad`` (whose upstream ``update`` has the same ``where``) and the makers below
   give finite parameters after an update with a zero gradient entry. The same functions in an
   undecorated maker (``plain``) keep reporting: they are there for the project's users.
3. JAX301 in tests: a draw written in an assertion's arguments, reached from it only through
   arithmetic, displays, subscripts and ``allclose``/``array_equal``/``asarray`` (oryx
   ``transformations_test.py``: ``assertDictEqual(joint_sample(model)(seed(0)), {'z':
   normal(k1), 'x': normal(k1) + normal(k2)})``), is the expected value rebuilt from the keys
   the code under test drew from; and two draws that are the inputs of two sub-cases of one
   test (oryx ``core_test.py``: ``x = normal(data_rng, (10, 10))`` ... ``x = normal(data_rng,
   (10, 50))``), the first one's names read only by assertions and by names computed from it
   before the second rebinds them, never meet in one computation. Checked with jax 0.10.2 on
   CPU: the VALID tests below pass (the rebuilt values are equal bit for bit); in the INVALID
   ``test_noise_sum`` the std of ``a + b`` is 2.0, not sqrt(2): the two draws are one. Draws
   added together, two layers stacked, draws inside a statistic (``jnp.mean``) or a sub-case
   that carries state (``params = step(params, x)``) keep reporting, and so does a pair drawn
   from the key inside the second sub-case (judged against that sub-case's first draw).
4. JAX301: two different functions of the file called with one key, each handing it to one
   builder and to nothing else with the same arguments (lineax ``benchmarks/gmres_fails_safely.py``:
   ``benchmark_jax(100, key=key)`` then ``benchmark_lx(100, key=key)``, both calling
   ``make_problem(mat_size, key=key)``), whose results no statement computes with together
   (they are printed or asserted side by side): both rebuild the same inputs to compare two
   computations on them. Checked with jax 0.10.2 on CPU: ``bench_same.py`` prints differences
   below 1e-6 between the two solvers (the same system). The builder given other sizes
   (``random_system(rng, 4)`` / ``(rng, 8)``), results combined (``x @ enc @ dec``) and one
   helper called twice (tests/test_recall_mechanisms_keyB.py) keep reporting.
"""

from tests.project_files import lint_files

MSG403 = ("`self.{attr}` is assigned inside traced method `{fn}`: the update runs once, at trace time: "
          "compiled calls never repeat it. Pass the state in as an argument and return the new state")

WINDOW = """\
import jax
import jax.numpy as jnp


def resolve(size, shape):
    if isinstance(size, int):
        return (size,) * len(shape)
    return tuple(size)


class Window:
    def __init__(self, size):
        self.size = size

    def apply(self, x):
        self.shape = x.shape
        self.size = resolve(self.size, self.shape)
        return x[tuple(slice(0, s) for s in self.size)].sum()


w = Window(2)
print(jax.jit(w.apply)(jnp.ones((4, 4))))
"""

SHAPE_UTIL = """\
def resolve_strides(strides, shape):
    if isinstance(strides, int):
        return (strides,) * len(shape)
    return strides
"""

STRIDED = """\
import jax
import jax.numpy as jnp

from shape_util import resolve_strides


class Strided:
    def __init__(self, strides):
        self.strides = strides

    def _clip(self, strides, ndim):
        return tuple(strides)[:ndim]

    def run(self, x):
        self.strides = resolve_strides(self.strides, x.shape)
        self.strides = self._clip(self.strides, x.ndim)
        return x[:: self.strides[0]]


s = Strided(2)
print(jax.jit(s.run)(jnp.ones(8)))
"""

COUNTERS = """\
import operator

import jax
import jax.numpy as jnp


class Counter:
    def __init__(self):
        self.calls = 0
        self.widths = ()

    def step(self, x):
        self.calls = operator.add(self.calls, 1)
        self.widths = tuple(self.widths) + (x.shape[0],)
        return x * 2


c = Counter()
print(jax.jit(c.step)(jnp.ones(3)))
"""

KEYED = """\
import jax
import jax.numpy as jnp


def advance(key):
    return jax.random.split(key)[0]


class Noisy:
    def __init__(self):
        self.key = jax.random.PRNGKey(0)

    def sample(self, x):
        self.key = advance(self.key)
        return x + jax.random.normal(self.key, x.shape)


n = Noisy()
f = jax.jit(n.sample)
print(f(jnp.zeros(3)), f(jnp.zeros(3)))
"""


def test_self_attribute_normalised_by_a_helper_of_the_project_is_silent(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {
        "window.py": WINDOW, "shape_util.py": SHAPE_UTIL, "strided.py": STRIDED,
    }, select="JAX403")
    assert found == []


def test_self_attribute_updated_where_the_model_sees_it_still_reports(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"counters.py": COUNTERS, "keyed.py": KEYED}, select="JAX403")
    assert found == [
        ("JAX403", "counters.py", 13, 9, MSG403.format(attr="calls", fn="step")),
        ("JAX403", "counters.py", 14, 9, MSG403.format(attr="widths", fn="step")),
        ("JAX403", "keyed.py", 14, 9, MSG403.format(attr="key", fn="sample")),
    ]


ADAPTIVE_120 = """\
import jax.numpy as jnp
from jax.example_libraries import optimizers


@optimizers.optimizer
def adagrad(step_size):
    def init(x0):
        return x0, jnp.zeros_like(x0)

    def update(i, g, state):
        x, g_sq = state
        g_sq = g_sq + jnp.square(g)
        return x - step_size * jnp.where(g_sq > 0, g / jnp.sqrt(g_sq), 0.0), g_sq

    def get_params(state):
        return state[0]

    return init, update, get_params
"""

ALIASED_120 = """\
import jax.numpy as jnp
from jax.example_libraries.optimizers import optimizer as make_optimizer


@make_optimizer
def rms(step_size):
    def init(x0):
        return x0, jnp.zeros_like(x0)

    def update(i, g, state):
        x, avg = state
        avg = 0.9 * avg + 0.1 * jnp.square(g)
        return x - step_size * jnp.where(avg > 0, g / jnp.sqrt(avg), 0.0), avg

    def get_params(state):
        return state[0]

    return init, update, get_params
"""

VENDORED_120 = """\
import functools

import jax
import jax.numpy as jnp


def optimizer(opt_maker):
    @functools.wraps(opt_maker)
    def tree_opt_maker(*args, **kwargs):
        init, update, get_params = opt_maker(*args, **kwargs)

        def tree_update(i, grads, state):
            return jax.tree.map(lambda g, s: update(i, g, s), grads, state)

        return init, tree_update, get_params

    return tree_opt_maker


@optimizer
def sm3(step_size):
    def init(x0):
        return x0, jnp.zeros_like(x0)

    def update(i, g, state):
        x, accum = state
        accum = accum + jnp.square(g)
        return x - step_size * jnp.where(accum > 0, g / jnp.sqrt(accum), 0.0), accum

    def get_params(state):
        return state[0]

    return init, update, get_params


def plain(step_size):
    def init(x0):
        return x0, jnp.where(x0 > 0, 1.0 / jnp.sqrt(x0), 0.0)

    def update(i, g, state):
        x, accum = state
        accum = accum + jnp.square(g)
        return x - step_size * jnp.where(accum > 0, g / jnp.sqrt(accum), 0.0), accum

    def get_params(state):
        return state[0]

    return init, update, get_params
"""

TRAIN_120 = """\
import jax
import jax.numpy as jnp


def loss(w):
    return jnp.sum(w ** 2)


g = jax.grad(loss)(jnp.ones(3))
"""

MSG120 = ("`jnp.sqrt({v})` is computed for every element, also where `{v} > 0` is false and masks it out; its "
          "derivative is infinite/NaN where `{v}` is 0 or negative, so the gradient of this `where` is NaN "
          "(0 * inf). Guard `{v}` with the same condition too (double where: `jnp.where(cond, {v}, 1.0)` inside)")


def test_update_of_an_example_libraries_optimizer_triple_is_silent(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {
        "adaptive.py": ADAPTIVE_120, "aliased.py": ALIASED_120, "vendored.py": VENDORED_120,
        "train.py": TRAIN_120,
    }, select="JAX120")
    assert found == [
        ("JAX120", "vendored.py", 38, 44, MSG120.format(v="x0")),
        ("JAX120", "vendored.py", 43, 57, MSG120.format(v="accum")),
    ]


MODEL_TEST = """\
import unittest

import jax.numpy as jnp
import numpy as np
from jax import random
from jax import random as jr


def model(key):
    k1, k2 = random.split(key)
    z = random.normal(k1)
    return {"z": z, "x": random.normal(k2) + z}


def scaled(key):
    k1, k2 = jr.split(key)
    a = jr.normal(k1, (2,))
    return {"a": a * 2, "b": a, "c": jr.normal(k2, (2,))}


class ModelTest(unittest.TestCase):
    def test_joint_sample(self):
        k1, k2 = random.split(random.PRNGKey(0))
        out = model(random.PRNGKey(0))
        np.testing.assert_allclose(out["z"], random.normal(k1))
        np.testing.assert_allclose(out["x"], random.normal(k1) + random.normal(k2), rtol=1e-6)

    def test_dict(self):
        k1, k2 = jr.split(jr.PRNGKey(1))
        out = scaled(jr.PRNGKey(1))
        assert jnp.allclose(out["a"], jr.normal(k1, (2,)) * 2)
        assert jnp.allclose(out["b"], jr.normal(k1, (2,))) and jnp.array_equal(out["c"], jr.normal(k2, (2,)))

    def test_two_shapes(self):
        w = random.normal(random.PRNGKey(2), (10, 4))
        data_rng = random.PRNGKey(3)
        x = random.normal(data_rng, (5, 10))
        y = x @ w
        self.assertEqual(y.shape, (5, 4))
        x = random.normal(data_rng, (7, 10))
        self.assertEqual((x @ w).shape, (7, 4))


def test_dense_cases():
    data_rng = random.PRNGKey(4)
    w = jnp.ones((10, 3))
    x = random.normal(data_rng, (10, 10))
    np.testing.assert_allclose(jnp.dot(x, w), x @ w)
    w = jnp.ones((50, 3))
    x = random.normal(data_rng, (10, 50))
    np.testing.assert_allclose(jnp.dot(x, w), x @ w)
"""

REUSE_TEST = """\
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jax import random


def step(params, x):
    return params + 0.1 * x


def test_noise_sum():
    k = random.PRNGKey(0)
    a = random.normal(k, (1000,))
    b = random.normal(k, (1000,))
    np.testing.assert_allclose(jnp.std(a + b), 2.0, atol=0.2)


def test_stacked_layers():
    k = jax.random.PRNGKey(1)
    l1 = eqx.nn.Linear(3, 3, key=k)
    l2 = eqx.nn.Linear(3, 3, key=k)
    assert l2(l1(jnp.ones(3))).shape == (3,)


def test_inside_the_call():
    k = random.PRNGKey(2)
    np.testing.assert_allclose(jnp.mean(random.normal(k, (9,)) + random.normal(k, (9,))), 0.0, atol=10)


def test_state_carried():
    k = random.PRNGKey(3)
    params = jnp.zeros(3)
    x = random.normal(k, (3,))
    params = step(params, x)
    x = random.normal(k, (3,))
    params = step(params, x)
    assert params.shape == (3,)


def test_two_cases_each_tied():
    k = random.PRNGKey(4)
    x = random.normal(k, (3,))
    y = random.uniform(k, (3,))
    assert jnp.all(jnp.isfinite(x * y))
    x = random.normal(k, (5,))
    y = random.uniform(k, (5,))
    assert jnp.all(jnp.isfinite(x * y))
"""

MSG301 = ("`k` was already consumed by `{by}` on line {line}: both calls get the same random bits. Split it "
          "first, e.g. `k1, k2 = jax.random.split(k)`, and give each call its own key")


def test_expected_values_and_separate_sub_cases_in_tests_are_silent(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"model_test.py": MODEL_TEST}, select="JAX301")
    assert found == []


def test_draws_that_meet_in_a_test_still_report(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"reuse_test.py": REUSE_TEST}, select="JAX301")
    assert found == [
        ("JAX301", "reuse_test.py", 15, 9, MSG301.format(by="random.normal", line=14)),
        ("JAX301", "reuse_test.py", 22, 10, MSG301.format(by="eqx.nn.Linear", line=21)),
        ("JAX301", "reuse_test.py", 28, 66, MSG301.format(by="random.normal", line=28)),
        ("JAX301", "reuse_test.py", 36, 9, MSG301.format(by="random.normal", line=34)),
        ("JAX301", "reuse_test.py", 44, 9, MSG301.format(by="random.normal", line=43)),
        # the second sub-case's own pair, judged against its own first draw
        ("JAX301", "reuse_test.py", 47, 9, MSG301.format(by="random.normal", line=46)),
    ]


BENCH_SAME = """\
import jax
import jax.numpy as jnp


def make_problem(n, *, key):
    full = jax.random.normal(key, (n, n + 1))
    return full[:, :n] + n * jnp.eye(n), full[:, n]


def solve_dense(n, *, key):
    mat, b = make_problem(n, key=key)
    return jnp.linalg.solve(mat, b)


def solve_cg(n, *, key):
    mat, b = make_problem(n, key=key)
    return jax.scipy.sparse.linalg.cg(mat.T @ mat, mat.T @ b)[0]


for seed in range(3):
    key = jax.random.PRNGKey(seed)
    dense = solve_dense(50, key=key)
    cg = solve_cg(50, key=key)
    print(seed, float(jnp.max(jnp.abs(dense - cg))))
"""

PROBLEMS = """\
import jax


def random_system(rng, n):
    full = jax.random.normal(rng, (n, n + 1))
    return full[:, :n], full[:, n]
"""

BENCH_IMPORTED = """\
import jax
import jax.numpy as jnp

from problems import random_system


def lstsq_error(rng, n):
    a, b = random_system(rng, n)
    return jnp.linalg.norm(a @ jnp.linalg.lstsq(a, b)[0] - b)


def solve_error(rng, n):
    a, b = random_system(rng, n)
    return jnp.linalg.norm(a @ jnp.linalg.solve(a, b) - b)


rng = jax.random.PRNGKey(0)
print("lstsq", lstsq_error(rng, 8))
print("solve", solve_error(rng, 8))
"""

BENCH_REUSE = """\
import jax
import jax.numpy as jnp

from problems import random_system


def init_layer(key, m, n):
    return jax.random.normal(key, (m, n))


def make_encoder(key):
    return jnp.tanh(init_layer(key, 4, 4))


def make_decoder(key):
    return jnp.tanh(init_layer(key, 4, 4))


def small_error(rng):
    a, b = random_system(rng, 4)
    return jnp.linalg.norm(jnp.linalg.solve(a, b))


def large_error(rng):
    a, b = random_system(rng, 8)
    return jnp.linalg.norm(jnp.linalg.solve(a, b))


key = jax.random.PRNGKey(0)
enc = make_encoder(key)
dec = make_decoder(key)
out = jnp.ones(4) @ enc @ dec
rng = jax.random.PRNGKey(1)
print(small_error(rng), large_error(rng))
"""


def test_two_functions_rebuilding_one_problem_from_one_key_are_silent(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {
        "bench_same.py": BENCH_SAME, "problems.py": PROBLEMS, "bench_imported.py": BENCH_IMPORTED,
    }, select="JAX301")
    assert found == []


def test_builder_given_other_sizes_or_results_combined_still_report(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"problems.py": PROBLEMS, "bench_reuse.py": BENCH_REUSE},
                       select="JAX301")
    msg = ("`{k}` was already consumed by `{by}` on line {line}: both calls get the same random bits. Split it "
           "first, e.g. `k1, k2 = jax.random.split({k})`, and give each call its own key")
    assert found == [
        ("JAX301", "bench_reuse.py", 31, 7, msg.format(k="key", by="make_encoder()", line=30)),
        ("JAX301", "bench_reuse.py", 34, 25, msg.format(k="rng", by="small_error()", line=34)),
    ]
