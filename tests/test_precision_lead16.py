"""Key reuse that cannot happen (fresh set 16's reviews, after the round's measure):
a key wrapper that refuses a second draw, and a draw guarded by the loop variable equal
to one value of a loop over distinct values.  Each VALID shape is written two ways, each
with an INVALID twin that must still be reported."""

from __future__ import annotations

from rule_examples import lint


def _found(code: str):
    return [(f.code, f.line, f.col, f.message) for f in lint(code, select={"JAX301"})]


# alphafold's `prng.SafeKey` (copied by ColabDesign's `shared/prng.py`): `split` raises on
# a second use, so the stored key is drawn from once
SAFE_KEY = """\
import jax


class SafeKey:
    def __init__(self, key):
        self._key = key
        self._used = False

    def _assert_not_used(self):
        if self._used:
            raise RuntimeError("Random key has been used previously.")

    def split(self, num_keys=2):
        self._assert_not_used()
        self._used = True
        return jax.random.split(self._key, num_keys)
"""

# the same guard written inline, with `assert`
ONCE_ASSERT = """\
import jax


class OneShot:
    def __init__(self, key):
        self.key = key
        self.spent = False

    def draw(self, shape):
        assert not self.spent, "draw once"
        self.spent = True
        return jax.random.normal(self.key, shape)
"""

# the twin with no guard: every call of `split` draws the same numbers
KEY_HOLDER = """\
import jax


class KeyHolder:
    def __init__(self, key):
        self._key = key
        self._used = False

    def split(self, num_keys=2):
        self._used = True
        return jax.random.split(self._key, num_keys)
"""

# ColabDesign's trRosetta block: dropout only on the second of two passes
ONE_PASS = """\
import jax
import jax.numpy as jnp


def dropout(x, key, rate):
    keep = jax.random.bernoulli(key, 1.0 - rate, shape=x.shape)
    return keep * x / (1.0 - rate)


def block(x, key, rate=0.15):
    y = x
    for n in [0, 1]:
        if n == 1:
            y = dropout(y, key, rate)
        y = jnp.tanh(y)
    return y
"""

# written another way: a `range` loop, the literal on the left, the draw inline
FIRST_STEP = """\
import jax
import jax.numpy as jnp


def rollout(x, key, steps=4):
    for t in range(steps):
        if 0 == t:
            x = x + jax.random.normal(key, x.shape)
        x = jnp.tanh(x)
    return x
"""

# the twin whose test holds on every iteration: the same mask every pass
EVERY_PASS = ONE_PASS.replace("if n == 1:", "if n >= 0:")


def test_a_key_wrapper_that_refuses_a_second_draw_is_silent():
    assert _found(SAFE_KEY) == []
    assert _found(ONCE_ASSERT) == []


def test_a_stored_key_without_the_guard_is_still_reported():
    assert _found(KEY_HOLDER) == [(
        "JAX301", 11, 16,
        "`self._key` is set only when the object is built and `split` draws from it with `random.split` without "
        "replacing it, so every call of `split` draws the same random numbers. Split it in the method (`self._key, "
        "sub = jax.random.split(self._key)`) and draw with `sub`")]


def test_a_draw_on_one_iteration_of_a_loop_is_silent():
    assert _found(ONE_PASS) == []
    assert _found(FIRST_STEP) == []


def test_a_draw_on_every_iteration_is_still_reported():
    assert _found(EVERY_PASS) == [(
        "JAX301", 14, 17,
        "`key` is consumed by `random.bernoulli` via `dropout` inside a loop but never replaced, so every iteration "
        "draws the same random numbers. Split a new key each iteration (`key, sub = jax.random.split(key)`) or use "
        "`jax.random.fold_in(key, i)`")]


# ----------------------------------------------------------------------------------------
# The diff review's findings on the round's change (each: what must be reported again, or
# what must stay silent), checked with JAX 0.10.2.

from project_files import lint_files  # noqa: E402


def _project(tmp_path, monkeypatch, files, select):
    return lint_files(tmp_path, monkeypatch, files, select=select, dedent=True)


_GEOM = '''
    import jax.numpy as jnp


    def slope(x1, x2, y1, y2):
        d = x2 - x1
        return jnp.where(d == 0.0, 0.0, (y2 - y1) / d)
'''
_GEOM_MSG = (
    "`(y2 - y1) / d` is computed for every element, also where `d == 0.0` is true and masks it out; its "
    "derivative is infinite/NaN where `d` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `d` with "
    "the same condition too (double where: `jnp.where(cond, d, 1.0)` inside)")


def test_a_project_fitting_with_scipy_optimize_differentiates(tmp_path, monkeypatch):
    # `jax.scipy.optimize.minimize(method="BFGS")` takes the gradient of its function
    fit = '''
        import jax
        import jax.numpy as jnp

        from geom import slope


        def loss(p):
            return jnp.sum(slope(p[0], p[1], p[2], p[3]) ** 2)


        res = jax.scipy.optimize.minimize(loss, jnp.ones(4), method="BFGS")
    '''
    assert _project(tmp_path, monkeypatch, {"geom.py": _GEOM, "fit.py": fit}, "JAX120") == [
        ("JAX120", "geom.py", 7, 37, _GEOM_MSG)]


def test_a_project_sampling_with_numpyro_differentiates(tmp_path, monkeypatch):
    # NUTS integrates Hamiltonian dynamics: the gradient of the model's log density
    model = '''
        import jax
        import jax.numpy as jnp
        from numpyro.infer import MCMC, NUTS

        from geom import slope


        @jax.jit
        def potential(a):
            return jnp.sum(slope(a, 1.0, 0.0, 1.0) ** 2)


        mcmc = MCMC(NUTS(potential_fn=potential), num_warmup=10, num_samples=10)
    '''
    assert _project(tmp_path, monkeypatch, {"geom.py": _GEOM, "model.py": model}, "JAX120") == [
        ("JAX120", "geom.py", 7, 37, _GEOM_MSG)]


def test_a_project_with_an_excluded_file_is_not_known_derivative_free(tmp_path, monkeypatch):
    # the training script is left out by the configuration: what it does is not known
    train = '''
        import jax

        from geom import slope

        g = jax.grad(lambda a: slope(a, 1.0, 0.0, 1.0))(0.5)
    '''
    sim = '''
        import jax

        from geom import slope

        step = jax.jit(lambda a: slope(a, 1.0, 0.0, 1.0))
    '''
    (tmp_path / "scripts").mkdir()
    found = _project(tmp_path, monkeypatch, {"geom.py": _GEOM, "sim.py": sim, "scripts/train.py": train}, "JAX120")
    assert found == [("JAX120", "geom.py", 7, 37, _GEOM_MSG)]
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nexclude = ["scripts"]\n')
    from click.testing import CliRunner
    from jaxlint.cli import cli
    import json
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "json", "--select", "JAX120"])
    assert [(f["filename"], f["location"]["row"]) for f in json.loads(result.stdout)] == [("geom.py", 7)]


_OPS = '''
    from functools import partial

    import jax
    import jax.numpy as jnp


    @partial(jax.jit, static_argnums=1)
    def tile(x, n):
        return jnp.tile(x, n)
'''


def test_numpy_scalars_from_another_module_are_hashable_static_arguments(tmp_path, monkeypatch):
    use = '''
        import numpy as np
        import jax.numpy as jnp

        from ops import tile

        shape = np.array([2, 3])
        x = jnp.ones(3)
        a = tile(x, np.prod(shape))
        b = tile(x, shape[0])
        n = int(shape.sum())
        c = tile(x, n)
        d = tile(x, shape.max())
    '''
    assert _project(tmp_path, monkeypatch, {"ops.py": _OPS, "use.py": use}, "JAX207") == []


def test_a_numpy_array_from_another_module_at_a_static_position_is_still_reported(tmp_path, monkeypatch):
    use = '''
        import numpy as np
        import jax.numpy as jnp

        from ops import tile

        reps = np.array([2, 3])
        r = tile(jnp.ones(3), reps)
    '''
    found = _project(tmp_path, monkeypatch, {"ops.py": _OPS, "use.py": use}, "JAX207")
    assert [f[:4] for f in found] == [("JAX207", "ops.py", 8, 2), ("JAX207", "use.py", 8, 23)]


def test_a_carried_key_split_and_indexed_by_the_step_is_not_reuse():
    # each step takes another of the same n keys: different numbers each step
    code = '''\
import jax
import jax.numpy as jnp


def fori_indexed(key, x, n=10):
    def body(i, state):
        k, acc = state
        sub = jax.random.split(k, n)[i]
        return k, acc + jax.random.normal(sub, acc.shape)
    return jax.lax.fori_loop(0, n, body, (key, x))


def per_example(key, xs):
    def body(k, inp):
        i, x = inp
        sub = jax.random.split(k, xs.shape[0])[i]
        return k, x + jax.random.normal(sub, x.shape)
    return jax.lax.scan(body, key, (jnp.arange(xs.shape[0]), xs))[1]
'''
    assert _found(code) == []
    # the twin that draws from the carried key itself is still reported
    bad = code.replace("sub = jax.random.split(k, n)[i]", "sub = jax.random.split(k, n)[0]")
    assert [f[:3] for f in _found(bad)] == [("JAX301", 8, 15)]


def test_an_at_that_leads_to_an_array_is_still_a_discarded_update():
    code = '''\
import jax.numpy as jnp


class Buffer:
    def __init__(self, n):
        self.data = jnp.zeros(n)

    @property
    def at(self):
        return self.data.at


class Angle:
    def __new__(cls, v):
        return jnp.asarray(v, jnp.float32)


def fill():
    buf = Buffer(4)
    buf.at[0].set(1.0)
    a = Angle([0.0, 1.0])
    a.at[0].set(2.0)
    return buf, a
'''
    found = [(f.code, f.line, f.col) for f in lint(code, select={"JAX102"})]
    assert found == [("JAX102", 20, 5), ("JAX102", 22, 5)]
