"""False findings the reviewer found on fresh set 25 (rev25), by mechanism, each written at
least two ways (VALID: silent), with twins that must still be reported (INVALID).

* 1. JAX301 on two draws from one key whose results never meet: the inputs of two independent
  sub-cases of a test drawn into different names (ott math_utils_test: `x = uniform(rng, (d,))`
  for a gradient check, `z = uniform(rng, (4, 7, 3))` for a Jacobian one), and a notebook's (or
  script's) second experiment drawing its data again from the seed of the first (ott
  300_LRSinkhorn: `x, y, a, b = create_points(rng, ...)` twice, the second rebinding the names
  of the first).  Reproducibility, not correlated sampling (model/separate_draws.py).  Still reported: results added, handed to one object
  (`model.fit(train)` then `model.score(held_out)`), appended to one list, concatenated.
* 2. JAX301 on a dry run of the callable itself before the run (bayeux oryx_and_bayeux cell 7/8:
  `model.optimize.optax_adam.debug(seed=s, verbosity=3)`, its result thrown away, then
  `model.optimize.optax_adam(seed=s)`): the warm-up mechanism (a discarded call, then the call
  made again with that key), for a method of the callable rather than the same call.  Still
  reported: a dry run whose result is kept (`report = ...debug(seed=k)`), a dry run of another
  sampler.
* 3. JAX501 on a notebook's function that builds `jax.jit(partial(...))` per call but that its
  cells never call, only store as a setting (ott 100_soft_sort: `config.loss = soft_error_loss`,
  read by the jitted `train_step`): under the outer jit the inner one is traced once per outer
  trace (JAX 0.10.2: 5 steps of an outer jit trace the inner function once; 5 eager calls trace
  it 5 times); where it runs is not followed, so unknown, silent.  Still reported: called in an
  eager loop, handed to `map`.
"""

from __future__ import annotations

import json

from project_files import lint_files

ONE_KEY = "both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split({k})`, and give each call its own key"


def _lint(tmp_path, monkeypatch, files, select="JAX301"):
    return lint_files(tmp_path, monkeypatch, files, select=select)


# -- 1. independent sub-cases and experiments ----------------------------------
DATA = 'import jax\n\n\ndef make_points(key, n):\n    return jax.random.uniform(key, (n, 2))\n'

CASES = 'import unittest\n\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\n\nfrom data import make_points\n\n\ndef norm(v):\n    return jnp.sqrt(jnp.sum(v * v, axis=-1))\n\n\ndef test_zero_gradient_at_zero(rng):\n    f = lambda x: norm(x - x)\n    x = jax.random.uniform(rng, (5,))\n    np.testing.assert_array_equal(jax.grad(f)(x), 0.0)\n    z = jax.random.uniform(rng, (4, 7, 3))\n    h = lambda x: norm(x - x)\n    jac = jax.jacobian(h)(z)\n    np.testing.assert_array_equal(jac, 0.0)\n    if x.ndim == 1:\n        np.testing.assert_array_equal(jax.grad(norm)(x), jax.grad(norm)(x))\n        jac = jax.jacobian(norm)(z)\n        np.testing.assert_array_equal(jnp.isnan(jac), False)\n\n\nclass PointsTest(unittest.TestCase):\n    def test_shapes_and_range(self):\n        key = jax.random.key(0)\n        small = make_points(key, 3)\n        self.assertEqual(small.shape, (3, 2))\n        large = make_points(key, 50)\n        self.assertTrue(bool(jnp.all(large >= 0)))\n        self.assertEqual(small.dtype, large.dtype)\n\n\ndef test_noise_is_added(rng):\n    x = jax.random.uniform(rng, (5,))\n    np.testing.assert_array_equal(jax.grad(norm)(x).shape, (5,))\n    z = jax.random.normal(rng, (5,))\n    np.testing.assert_allclose(norm(x + z), norm(z + x))\n\n\nclass FitTest(unittest.TestCase):\n    def test_fit_then_score(self):\n        key = jax.random.key(0)\n        model = Model()\n        train = make_points(key, 30)\n        model.fit(train)\n        held_out = make_points(key, 10)\n        self.assertLess(model.score(held_out), 1.0)\n\n\nclass Model:\n    def fit(self, x):\n        self.mean = x.mean(0)\n\n    def score(self, x):\n        return float(norm(x - self.mean).mean())\n'

EXPERIMENTS = 'import jax\nimport matplotlib.pyplot as plt\n\nkey = jax.random.PRNGKey(0)\nx = jax.random.normal(key, (10,))\nplt.hist(x)\nprint(x.mean())\nx = jax.random.normal(key, (10_000,))\nplt.hist(x)\nprint(x.mean())\npair = jax.random.normal(key, (2,))\nplt.hist(pair)\n\ncosts = []\na = jax.random.normal(key, (3, 3))\ncosts.append(float(a.sum()))\nb = jax.random.normal(key, (30, 3))\ncosts.append(float(b.sum()))\nplt.plot(costs)\n'

TWO_EXPERIMENTS = '{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "metadata": {}, "source": "import jax\\nimport jax.numpy as jnp\\nimport matplotlib.pyplot as plt\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "def create_points(rng, n, m, d):\\n    rngs = jax.random.split(rng, 4)\\n    x = jax.random.normal(rngs[0], (n, d)) + 1\\n    y = jax.random.uniform(rngs[1], (m, d))\\n    a = jax.random.uniform(rngs[2], (n,))\\n    b = jax.random.uniform(rngs[3], (m,))\\n    return x, y, a / jnp.sum(a), b / jnp.sum(b)\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "rng = jax.random.key(0)\\nn, m, d = 19, 35, 2\\nx, y, a, b = create_points(rng, n=n, m=m, d=d)\\ncost = jnp.sum((x[:, None] - y[None]) ** 2, -1)\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "plt.imshow(cost)\\nplt.title(f\\"cost: {cost.mean():.4f}\\")\\nplt.show()\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "n, m, d = 10**4, 10**4 + 1, 7\\nx, y, a, b = create_points(rng, n=n, m=m, d=d)\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "cost = jnp.sum((x[:, None] - y[None]) ** 2, -1)\\nvals = []\\nfor r in [1, 2]:\\n    vals.append(float(cost.mean() * r))\\nplt.plot(vals)\\n", "outputs": [], "execution_count": null}]}'

POOLED = '{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "metadata": {}, "source": "import jax\\nimport jax.numpy as jnp\\nimport matplotlib.pyplot as plt\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "def create_points(rng, n, m, d):\\n    rngs = jax.random.split(rng, 4)\\n    x = jax.random.normal(rngs[0], (n, d)) + 1\\n    y = jax.random.uniform(rngs[1], (m, d))\\n    a = jax.random.uniform(rngs[2], (n,))\\n    b = jax.random.uniform(rngs[3], (m,))\\n    return x, y, a / jnp.sum(a), b / jnp.sum(b)\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "rng = jax.random.key(0)\\nn, m, d = 19, 35, 2\\nx, y, a, b = create_points(rng, n=n, m=m, d=d)\\ncost = jnp.sum((x[:, None] - y[None]) ** 2, -1)\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "plt.imshow(cost)\\nplt.title(f\\"cost: {cost.mean():.4f}\\")\\nplt.show()\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "x2, y2, a2, b2 = create_points(rng, n=n, m=m, d=d)\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "total = jnp.concatenate([x, x2])\\nplt.hist(total[:, 0])\\n", "outputs": [], "execution_count": null}]}'


def test_draws_from_one_key_that_never_meet_are_independent_cases(tmp_path, monkeypatch):
    """Silent: a test's gradient and Jacobian sub-cases (different names, a lambda's parameter
    shadowing `x`, an `if` reading each alone), a unittest drawing through a helper of another
    module, a script's two experiments rebinding `x` and only showing it (`plt.hist`, `print`), a
    notebook rebinding its data names for a second experiment.  Reported: draws added, a model
    fitted on one and scored on the other, two draws appended to one list, two data sets
    concatenated in a notebook, a script's draws kept under other names (`pair`, `a`, `b`: its
    globals outlive the run)."""
    got = _lint(tmp_path, monkeypatch, {"data.py": DATA, "test_cases.py": CASES, "experiments.py": EXPERIMENTS,
                                         "two_experiments.ipynb": TWO_EXPERIMENTS, "pooled.ipynb": POOLED})
    assert got == [
        ("JAX301", "experiments.py", 11, 8,
         "`key` was already consumed by `random.normal` on line 8: " + ONE_KEY.format(k="key")),
        ("JAX301", "experiments.py", 15, 5,
         "`key` was already consumed by `random.normal` on line 8: " + ONE_KEY.format(k="key")),
        ("JAX301", "experiments.py", 17, 5,
         "`key` was already consumed by `random.normal` on line 8: " + ONE_KEY.format(k="key")),
        ("JAX301", "pooled.ipynb", 1, 18,  # cell 5
         "`rng` was already consumed by `create_points()` on line 3 of cell 3, which splits it and draws from "
         "the keys it makes: this call makes the same keys, so it draws the same random numbers. Split it "
         "first, e.g. `k1, k2 = jax.random.split(rng)`, and give each call its own key"),
        ("JAX301", "test_cases.py", 41, 9,
         "`rng` was already consumed by `random.uniform` on line 39: " + ONE_KEY.format(k="rng")),
        ("JAX301", "test_cases.py", 51, 20,
         "`key` was already consumed by `make_points()` on line 49: " + ONE_KEY.format(k="key")),
    ]


# -- 2. a dry run of the callable, then the run --------------------------------
FIT = 'import bayeux as bx\nimport jax\n\n\ndef fit(log_density, x0, key):\n    model = bx.Model(log_density=log_density, test_point=x0)\n    model.mcmc.numpyro_nuts.debug(seed=key, verbosity=2)\n    draws = model.mcmc.numpyro_nuts(seed=key)\n    return draws\n\n\ndef fit_twice(log_density, x0, key):\n    model = bx.Model(log_density=log_density, test_point=x0)\n    report = model.mcmc.numpyro_nuts.debug(seed=key)\n    draws = model.mcmc.numpyro_nuts(seed=key)\n    return report, draws\n\n\ndef fit_other(log_density, x0, key):\n    model = bx.Model(log_density=log_density, test_point=x0)\n    model.mcmc.numpyro_nuts.debug(seed=key)\n    draws = model.mcmc.blackjax_hmc(seed=key)\n    return draws\n\n\nclass Runner:\n    def __init__(self, sampler):\n        self.sampler = sampler\n\n    def run(self, key):\n        self.sampler.dry_run(seed=key)\n        return self.sampler(seed=key)\n'

DRY_RUN = '{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "metadata": {}, "source": "import bayeux as bx\\nimport jax\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "def log_density(w):\\n    return -(w ** 2).sum()\\n\\nmodel = bx.Model(log_density=jax.jit(log_density), test_point=jax.numpy.zeros(3))\\nseed, other = jax.random.split(jax.random.key(0))\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "model.optimize.optax_adam.debug(seed=seed, verbosity=3, kwargs={\'num_particles\': 8})\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "params, state, loss = model.optimize.optax_adam(seed=seed, num_particles=8)\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "samples = model.mcmc.numpyro_nuts(seed=other)\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "model.mcmc.blackjax_hmc.debug(seed=other)\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "print(params, samples)\\n", "outputs": [], "execution_count": null}]}'


def test_a_discarded_dry_run_of_the_callable_is_a_warm_up(tmp_path, monkeypatch):
    """Silent: bayeux's `model.optimize.optax_adam.debug(seed=seed, ...)` in one notebook cell,
    `model.optimize.optax_adam(seed=seed)` in the next; `model.mcmc.numpyro_nuts.debug(seed=key)`
    then `model.mcmc.numpyro_nuts(seed=key)` in a function; `self.sampler.dry_run(seed=key)` then
    `self.sampler(seed=key)`.  Reported: the dry run's result kept and returned with the run's, a
    dry run of `numpyro_nuts` before a run of `blackjax_hmc`, and a run before another sampler's
    dry run (cell 6)."""
    got = _lint(tmp_path, monkeypatch, {"fit.py": FIT, "dry_run.ipynb": DRY_RUN})
    assert got == [
        ("JAX301", "dry_run.ipynb", 1, 1,  # cell 6
         "`other` was already consumed by `model.mcmc.numpyro_nuts(seed=...)` on line 1 of cell 5: "
         + ONE_KEY.format(k="other")),
        ("JAX301", "fit.py", 15, 13,
         "`key` was already consumed by `model.mcmc.numpyro_nuts.debug(seed=...)` on line 14: " + ONE_KEY.format(k="key")),
        ("JAX301", "fit.py", 22, 13,
         "`key` was already consumed by `model.mcmc.numpyro_nuts.debug(seed=...)` on line 21: " + ONE_KEY.format(k="key")),
    ]


# -- 3. a notebook's builder only stored as a setting ---------------------------
JIT_NOTEBOOKS = {'stored_attr.ipynb': '{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "metadata": {}, "source": "import functools\\n\\nimport jax\\nimport jax.numpy as jnp\\n\\n\\ndef ranks(x, axis=-1):\\n    return jnp.argsort(jnp.argsort(x, axis=axis), axis=axis)\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "def soft_error_loss(logits, labels):\\n    ranks_fn = jax.jit(functools.partial(ranks, axis=-1))\\n    return jnp.mean(labels * ranks_fn(logits))\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "class NameSpace:\\n    pass\\n\\n\\ndef train_step(loss_fn, params, batch):\\n    return params - 0.1 * jax.grad(lambda p: loss_fn(p * batch, batch))(params)\\n\\n\\ndef train(config, params, batches):\\n    step = jax.jit(functools.partial(train_step, config.loss))\\n    for b in batches:\\n        params = step(params, b)\\n    return params\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "config = NameSpace()\\nconfig.loss = soft_error_loss\\nparams = train(config, jnp.ones(3), [jnp.ones(3)] * 10)\\n", "outputs": [], "execution_count": null}]}', 'stored_dict.ipynb': '{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "metadata": {}, "source": "import functools\\n\\nimport jax\\nimport jax.numpy as jnp\\n\\n\\ndef ranks(x, axis=-1):\\n    return jnp.argsort(jnp.argsort(x, axis=axis), axis=axis)\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "def rank_loss(logits, labels):\\n    ranks_fn = jax.jit(functools.partial(ranks, axis=-1))\\n    return jnp.mean(labels * ranks_fn(logits))\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "def train(settings, params, batches):\\n    step = jax.jit(functools.partial(lambda f, p, b: p - 0.1 * jax.grad(lambda q: f(q * b, b))(p), settings[\\"loss\\"]))\\n    for b in batches:\\n        params = step(params, b)\\n    return params\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "settings = {\\"loss\\": rank_loss, \\"lr\\": 0.1}\\nparams = train(settings, jnp.ones(3), [jnp.ones(3)] * 10)\\n", "outputs": [], "execution_count": null}]}', 'eager_loop.ipynb': '{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "metadata": {}, "source": "import functools\\n\\nimport jax\\nimport jax.numpy as jnp\\n\\n\\ndef ranks(x, axis=-1):\\n    return jnp.argsort(jnp.argsort(x, axis=axis), axis=axis)\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "def soft_error_loss(logits, labels):\\n    ranks_fn = jax.jit(functools.partial(ranks, axis=-1))\\n    return jnp.mean(labels * ranks_fn(logits))\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "total = 0.0\\nfor i in range(10):\\n    total += soft_error_loss(jnp.ones(3) * i, jnp.ones(3))\\n", "outputs": [], "execution_count": null}]}', 'mapped.ipynb': '{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "metadata": {}, "source": "import functools\\n\\nimport jax\\nimport jax.numpy as jnp\\n\\n\\ndef ranks(x, axis=-1):\\n    return jnp.argsort(jnp.argsort(x, axis=axis), axis=axis)\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "def soft_error_loss(logits, labels):\\n    ranks_fn = jax.jit(functools.partial(ranks, axis=-1))\\n    return jnp.mean(labels * ranks_fn(logits))\\n", "outputs": [], "execution_count": null}, {"cell_type": "code", "metadata": {}, "source": "config = {\\"loss\\": soft_error_loss}\\nlosses = list(map(soft_error_loss, [jnp.ones(3)] * 10, [jnp.ones(3)] * 10))\\n", "outputs": [], "execution_count": null}]}'}


def test_a_notebook_builder_only_stored_as_a_setting_is_not_a_per_call_compile(tmp_path, monkeypatch):
    """Silent: `config.loss = soft_error_loss` (an attribute), `{"loss": rank_loss}` (a dict entry),
    each read by a jitted step.  Reported: the builder called in an eager loop, or handed to `map`
    (also stored in a dict there: a use other than storing)."""
    got = _lint(tmp_path, monkeypatch, JIT_NOTEBOOKS, select="JAX501")
    msg = ("`jit` of a `functools.partial(...)` object compiles again on every call of `soft_error_loss`: jit "
           "caches per function object and `soft_error_loss` builds a new one each time. Build it once: at "
           "module level, in a builder cached with `functools.cache`, or jit `soft_error_loss` itself; and pass "
           "the varying values as arguments")
    assert got == [("JAX501", "eager_loop.ipynb", 2, 16, msg), ("JAX501", "mapped.ipynb", 2, 16, msg)]  # cell 2
