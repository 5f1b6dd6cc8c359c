"""Batch 7's misses by mechanism (issue 22, branch recallR): where-NaN gradients whose
singular point the model reaches through a name, a constant multiple or the other branch;
out-of-bounds windows of functions traced by `jax.jit(f).lower(...)`/`.trace(...)`,
`jax.eval_shape(f, ...)` and `jax.make_jaxpr(f)(...)`; keys replicated to every shard by
`jax.shard_map`, bound by `partial` through a name to a mapped function, and given first
to numpyro's `Distribution.sample`.

Each INVALID program's NaN gradient, moved window or repeated draw was observed with JAX
0.10.2 (numpyro 0.22.0); the VALID twins run (finite gradients, windows that fit, distinct
draws) and stay silent."""

from __future__ import annotations

import ast
from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str], select: str = "", extra: tuple = ()) -> list[tuple]:
    return lint_files(root, monkeypatch, files, *extra, select=select, dedent=True)


# 1. where-NaN gradients (cases 715, 743): the condition through a name bound to a test
# (`positive = x > 0`), a divisor that is a constant multiple of the tested variable
# (`pi_x = lax.mul(pi, x)`, `(jnp.pi * x)`), a threshold a constant-making helper builds
# (`_const(x, 0)`), and a divisor the other branch tests against 0 (`jnp.abs(w) < eps` in
# the branch selected where the Taylor branch `2.0 / w` is masked out). grad at 0: nan.

SPECIAL = """\
import numpy as onp
import jax.numpy as jnp
from jax import lax

pi = onp.pi


def _const(x, value):
    return onp.array(value, dtype=jnp.result_type(x))


def sinc(x):
    pi_x = lax.mul(_const(x, pi), x)
    return jnp.where(lax.eq(x, _const(x, 0)),
                     _const(x, 1), lax.div(lax.sin(pi_x), pi_x))


def sinc_inline(x):
    return jnp.where(x == 0, 1.0, jnp.sin(jnp.pi * x) / (jnp.pi * x))


def log_pos(x):
    positive = x > 0
    return jnp.where(positive, jnp.log(x), 0.0)


def get_eps(dtype):
    return {jnp.dtype("float32"): 1e-5, jnp.dtype("float64"): 1e-10}[dtype]


def atan_factor(w, norm_sq):
    use_taylor = norm_sq < get_eps(norm_sq.dtype)
    return jnp.where(
        use_taylor,
        2.0 / w - 2.0 / 3.0 * norm_sq / w ** 3,
        jnp.where(jnp.abs(w) < get_eps(w.dtype), jnp.pi, 1.0),
    )
"""

# the double-where twins (grad at 0: 0.0), a mask that does not test the scaled variable,
# and another branch that tests `w` against 1.0, not 0
SPECIAL_OK = """\
import numpy as onp
import jax.numpy as jnp
from jax import lax

pi = onp.pi


def _const(x, value):
    return onp.array(value, dtype=jnp.result_type(x))


def sinc(x):
    is_zero = lax.eq(x, _const(x, 0))
    safe_x = jnp.where(is_zero, _const(x, 1), x)
    pi_x = lax.mul(_const(x, pi), safe_x)
    return jnp.where(is_zero, _const(x, 1), lax.div(lax.sin(pi_x), pi_x))


def sinc_inline(x):
    safe = jnp.where(x == 0, 1.0, x)
    return jnp.where(x == 0, 1.0, jnp.sin(jnp.pi * safe) / (jnp.pi * safe))


def log_pos(x):
    positive = x > 0
    return jnp.where(positive, jnp.log(jnp.where(positive, x, 1.0)), 0.0)


def scaled(x, mask):
    return jnp.where(mask, jnp.sin(2.0 * x) / (2.0 * x), 1.0)


def get_eps(dtype):
    return {jnp.dtype("float32"): 1e-5, jnp.dtype("float64"): 1e-10}[dtype]


def atan_factor(w, norm_sq):
    use_taylor = norm_sq < get_eps(norm_sq.dtype)
    safe_w = jnp.where(use_taylor, w, 1.0)
    return jnp.where(
        use_taylor,
        2.0 / safe_w - 2.0 / 3.0 * norm_sq / safe_w ** 3,
        jnp.where(jnp.abs(w) < get_eps(w.dtype), jnp.pi, 1.0),
    )


def other_branch_unrelated(w, norm_sq):
    use_taylor = norm_sq < 1e-5
    return jnp.where(use_taylor, 2.0 / w, jnp.where(w > 1.0, 1.0, 0.5))
"""


def test_where_nan_through_names_multiples_and_the_other_branch(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/special.py": SPECIAL,
                                          "pkg/special_ok.py": SPECIAL_OK}, select="JAX120")
    assert found == [
        ("JAX120", "pkg/special.py", 15, 36,
         "`lax.div(lax.sin(pi_x), pi_x)` is computed for every element, also where `lax.eq(x, _const(x, 0))` is true and masks it out; its derivative is infinite/NaN where `pi_x` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `pi_x` with the same condition too (double where: `jnp.where(cond, pi_x, 1.0)` inside)"),
        ("JAX120", "pkg/special.py", 19, 35,
         "`jnp.sin(jnp.pi * x) / (jnp.pi * x)` is computed for every element, also where `x == 0` is true and masks it out; its derivative is infinite/NaN where `(jnp.pi * x)` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `(jnp.pi * x)` with the same condition too (double where: `jnp.where(cond, (jnp.pi * x), 1.0)` inside)"),
        ("JAX120", "pkg/special.py", 24, 32,
         "`jnp.log(x)` is computed for every element, also where `positive` is false and masks it out; its derivative is infinite/NaN where `x` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `x` with the same condition too (double where: `jnp.where(cond, x, 1.0)` inside)"),
        # (a `where` written over several lines: reported at the operation's line)
        ("JAX120", "pkg/special.py", 35, 9,
         "`2.0 / w` is computed for every element, also where `use_taylor` is false and masks it out; the other branch, selected there, tests `jnp.abs(w) < get_eps(w.dtype)`, so `w` reaches 0 there, where the derivative of `2.0 / w` is infinite/NaN: the gradient of this `where` is NaN (0 * inf). Guard `w` in this branch too (double where: `jnp.where(use_taylor, w, 1.0)` inside)"),
    ]


def test_where_nan_fix_guards_the_scaled_divisor_and_the_named_condition(tmp_path, monkeypatch):
    src = SPECIAL.split("def get_eps")[0]
    _lint(tmp_path, monkeypatch, {"special.py": src}, select="JAX120", extra=("--fix", "--unsafe-fixes"))
    fixed = (tmp_path / "special.py").read_text()
    ast.parse(fixed)
    assert "lax.div(lax.sin(pi_x), jnp.where(lax.eq(x, _const(x, 0)), 1.0, pi_x))" in fixed
    assert "jnp.sin(jnp.pi * x) / (jnp.where(x == 0, 1.0, (jnp.pi * x)))" in fixed
    assert "jnp.where(positive, jnp.log(jnp.where(positive, x, 1.0)), 0.0)" in fixed
    assert _lint(tmp_path, monkeypatch, {}, select="JAX120") == []


# 2. Out-of-bounds windows of functions traced by an ahead-of-time stage (case 713):
# `jax.jit(f).lower(x, u)`, `.trace(...)`, `jax.eval_shape(f, x)`, `jax.make_jaxpr(f)(x)`
# give `f`'s parameters the shapes they are given, as `jax.jit(f)(x, u)` does; the start
# is moved back (a 2x2 update at [1, 1] of a 2x3 array lands on row 0).

STAGE = """\
import jax
import jax.numpy as jnp
from jax import lax


def place(x, update):
    return lax.dynamic_update_slice(x, update, [1, 1])


def window(x):
    return lax.dynamic_slice(x, (0, 3), (2, 2))


def paste(x, patch):
    return lax.dynamic_update_slice(x, patch, (2, 0))


grid = jnp.zeros((2, 3))
update = jnp.ones((2, 2))
print(jax.jit(place).lower(grid, update).as_text())
print(jax.eval_shape(window, jnp.zeros((3, 4))))
print(jax.make_jaxpr(window)(jnp.zeros((3, 4))))
print(jax.jit(paste).trace(jnp.zeros((3, 4)), jnp.ones((2, 4))).jaxpr)
"""

# windows that fit, and a function staged with two different shapes (unknown: quiet)
STAGE_OK = """\
import jax
import jax.numpy as jnp
from jax import lax


def place(x, update):
    return lax.dynamic_update_slice(x, update, [0, 1])


def window(x):
    return lax.dynamic_slice(x, (0, 2), (2, 2))


def paste(x, patch):
    return lax.dynamic_update_slice(x, patch, (2, 0))


grid = jnp.zeros((2, 3))
update = jnp.ones((2, 2))
print(jax.jit(place).lower(grid, update).as_text())
print(jax.eval_shape(window, jnp.zeros((3, 4))))
print(jax.jit(paste).trace(jnp.zeros((3, 4)), jnp.ones((2, 4))).jaxpr)
print(jax.jit(paste).trace(jnp.zeros((4, 4)), jnp.ones((2, 4))).jaxpr)
"""


def test_out_of_bounds_window_through_lower_trace_eval_shape(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"stage.py": STAGE, "stage_ok.py": STAGE_OK}, select="JAX121")
    assert found == [
        ("JAX121", "stage.py", 7, 48,
         "start 1 with update size 2 does not fit axis 0 of size 2, and JAX raises no IndexError: `lax.dynamic_update_slice` moves the start back to 0 so that the update fits (it writes a different window)"),
        ("JAX121", "stage.py", 11, 34,
         "start 3 with slice size 2 does not fit axis 1 of size 4, and JAX raises no IndexError: `lax.dynamic_slice` moves the start back to 2 so that the slice fits (it reads a different window)"),
        ("JAX121", "stage.py", 15, 48,
         "start 2 with update size 2 does not fit axis 0 of size 3, and JAX raises no IndexError: `lax.dynamic_update_slice` moves the start back to 1 so that the update fits (it writes a different window)"),
    ]


# 3. A key that `jax.shard_map` replicates to every shard (`P()`) while the data is split
# (case 708): consumed in the mapped function, or in a helper it hands the key to with the
# split data; checked with JAX on two CPU devices: both shards' noise identical (the VALID
# twins: `fold_in(key, lax.axis_index(...))`, all arguments replicated, keys split per shard).

SHARD = """\
from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import Mesh, PartitionSpec as P


def _noise(key, x):
    return x + jax.random.normal(key, x.shape)


def noisy(x, key):
    mesh = Mesh(jax.devices(), ("data",))

    def step(key, x):
        return jax.random.uniform(key, x.shape) * x

    stepped = jax.shard_map(step, mesh=mesh, in_specs=(P(), P("data")), out_specs=P("data"))
    return stepped(key, x)


def dropout(x, key):
    mesh = Mesh(jax.devices(), ("data",))

    @partial(jax.shard_map, mesh=mesh, in_specs=(P("data"), P()), out_specs=P("data"))
    def body(x, key):
        return _noise(key, x)

    return body(x, key)
"""

SHARD_OK = """\
from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import Mesh, PartitionSpec as P


def _noise(key, x):
    return x + jax.random.normal(key, x.shape)


def noisy(x, key):
    mesh = Mesh(jax.devices(), ("data",))

    def step(key, x):
        key = jax.random.fold_in(key, jax.lax.axis_index("data"))
        return jax.random.uniform(key, x.shape) * x

    stepped = jax.shard_map(step, mesh=mesh, in_specs=(P(), P("data")), out_specs=P("data"))
    return stepped(key, x)


def dropout(x, key):
    mesh = Mesh(jax.devices(), ("data",))

    @partial(jax.shard_map, mesh=mesh, in_specs=(P("data"), P()), out_specs=P("data"))
    def body(x, key):
        shard_key = jax.random.fold_in(key, jax.lax.axis_index("data"))
        return _noise(shard_key, x)

    return body(x, key)


def replicated(x, key):
    mesh = Mesh(jax.devices(), ("data",))

    @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P()), out_specs=P())
    def body(x, key):
        return _noise(key, x)

    return body(x, key)


def per_shard_keys(x, keys):
    mesh = Mesh(jax.devices(), ("data",))

    @partial(jax.shard_map, mesh=mesh, in_specs=(P("data"), P("data")), out_specs=P("data"))
    def body(x, keys):
        return _noise(keys[0], x)

    return body(x, keys)
"""


def test_key_replicated_to_every_shard(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"shard_noise.py": SHARD, "shard_noise_ok.py": SHARD_OK}, select="JAX301")
    assert found == [
        ("JAX301", "shard_noise.py", 9, 16,
         "`key` is the same key on every shard: `jax.shard_map` replicates it (`P()` in `in_specs`) while it splits another argument, and `random.normal` consumes it here (`_noise` is given it by the mapped function on line 27), so every shard draws the same random numbers. Fold the shard's index in first: `jax.random.fold_in(key, jax.lax.axis_index(axis_name))`"),
        ("JAX301", "shard_noise.py", 16, 16,
         "`key` is the same key on every shard: `jax.shard_map` replicates it (`P()` in `in_specs`) while it splits another argument, and `random.uniform` consumes it here, so every shard draws the same random numbers. Fold the shard's index in first: `jax.random.fold_in(key, jax.lax.axis_index(axis_name))`"),
    ]


# 4. A key bound by `partial` through a name handed to `jax.vmap` (every element draws the
# same numbers: rows equal), and numpyro's `Distribution.sample(key, shape)`, which takes
# the key first (two draws under one key: b == 2a).

DRAWS = """\
from functools import partial

import jax
import numpyro.distributions as dist


def jitter(key, x):
    return x + jax.random.normal(key, x.shape)


def batch_jitter(xs):
    key = jax.random.PRNGKey(0)
    one = partial(jitter, key)
    return jax.vmap(one)(xs)


def prior_draws(n):
    key = jax.random.PRNGKey(1)
    prior = dist.Normal(0.0, 1.0)
    a = prior.sample(key, (n,))
    b = dist.Normal(0.0, 2.0).sample(key, (n,))
    return a, b
"""

DRAWS_OK = """\
from functools import partial

import jax
import numpyro.distributions as dist


def jitter(key, x):
    return x + jax.random.normal(key, x.shape)


def batch_jitter(xs):
    keys = jax.random.split(jax.random.PRNGKey(0), xs.shape[0])
    return jax.vmap(jitter)(keys, xs)


def shifted(xs):
    one = partial(jitter, x=xs[0])
    return jax.vmap(one)(jax.random.split(jax.random.PRNGKey(0), 4))


def prior_draws(n):
    key_a, key_b = jax.random.split(jax.random.PRNGKey(1))
    prior = dist.Normal(0.0, 1.0)
    a = prior.sample(key_a, (n,))
    b = dist.Normal(0.0, 2.0).sample(key_b, (n,))
    return a, b
"""


def test_partial_through_a_name_and_numpyro_positional_key(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"sim/__init__.py": "", "sim/draws.py": DRAWS, "sim/draws_ok.py": DRAWS_OK},
                  select="JAX301")
    assert found == [
        ("JAX301", "sim/draws.py", 13, 27,
         "`key` is bound by `partial` to `jitter`, which draws from it with `random.normal`, and `jax.vmap` calls it once for every element: every element draws the same random numbers. Map a fresh key with each element (`jax.random.split(key, n)`) instead of binding one"),
        ("JAX301", "sim/draws.py", 21, 9,
         "`key` was already consumed by `prior.sample(...)` on line 20: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key"),
    ]


# 5. A singular input that is arithmetic of the tested variable (the NFW lensing profile's
# `sqrt(1 - x ** 2)` under `x < 1`, named `inside`: sqrt(-3) at x = 2; `log(r - 1)` under
# `r > 1`: log(0) at r = 1); grads nan; the twins guard the input (grads 0.0), are never
# singular (`sqrt(r ** 2 + 1)`), or divide by arithmetic of an `int` parameter (evosax's
# BBOB `lambda_alpha` shape: no derivative reaches it).

PROFILES = """\
import jax.numpy as jnp


def nfw_f(x):
    inside = x < 1
    return jnp.where(inside, jnp.arccosh(1 / x) / jnp.sqrt(1 - x ** 2), 1.0)


def shifted_log(r, r0=1.0):
    return jnp.where(r > 1, jnp.log(r - 1), 0.0)
"""

PROFILES_OK = """\
import jax.numpy as jnp


def nfw_f(x):
    inside = x < 1
    safe = jnp.where(inside, x, 0.5)
    return jnp.where(inside, jnp.arccosh(1 / safe) / jnp.sqrt(1 - safe ** 2), 1.0)


def shifted_log(r):
    return jnp.where(r > 1, jnp.log(jnp.where(r > 1, r - 1, 1.0)), 0.0)


def smooth(r):
    return jnp.where(r < 3, jnp.sqrt(r ** 2 + 1), 0.0)


def lambda_alpha(alpha, num_dims: int):
    # an integer parameter carries no derivative (`jax.grad` raises for one): the masked
    # division by `num_dims - 1` at num_dims = 1 makes no NaN gradient (grad: 1.41)
    exp = jnp.where(num_dims > 1, 0.5 * jnp.arange(4) / (num_dims - 1), 0.5)
    return jnp.power(alpha, exp).sum()
"""


def test_where_nan_arithmetic_of_the_tested_variable(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"lens/__init__.py": "", "lens/profiles.py": PROFILES,
                                          "lens/profiles_ok.py": PROFILES_OK}, select="JAX120")
    assert found == [
        ("JAX120", "lens/profiles.py", 6, 51,
         "`jnp.sqrt(1 - x ** 2)` is computed for every element, also where `inside` is false and masks it out; its derivative is infinite/NaN where `1 - x ** 2` is 0 or negative, so the gradient of this `where` is NaN (0 * inf). Guard `1 - x ** 2` with the same condition too (double where: `jnp.where(cond, 1 - x ** 2, 1.0)` inside)"),
        ("JAX120", "lens/profiles.py", 10, 29,
         "`jnp.log(r - 1)` is computed for every element, also where `r > 1` is false and masks it out; its derivative is infinite/NaN where `r - 1` is 0, so the gradient of this `where` is NaN (0 * inf). Guard `r - 1` with the same condition too (double where: `jnp.where(cond, r - 1, 1.0)` inside)"),
    ]


# 6. Shapes through `jax.vmap(f, in_axes)(xs)`: `f` sees each argument without its mapped
# axis (an unmapped `None` argument whole): `row[4]` of rows of 4 reads row[3] (values 3, 7),
# `frame[3, 0]` of 3x2 frames reads frame[2, 0], a window at 3 of size 2 in 4 moves to 2.
# Quiet: indices that fit, `in_axes` not written as a literal.

BATCHED = """\
import jax
import jax.numpy as jnp


def last_feature(row):
    return row[4]


def pick(frame, i):
    return frame[i, 0]


def window(x):
    return jax.lax.dynamic_slice(x, (3,), (2,))


xs = jnp.arange(32.0).reshape(8, 4)
a = jax.vmap(last_feature)(xs)
b = jax.vmap(pick, in_axes=(0, None))(jnp.arange(30.0).reshape(5, 3, 2), 3)
c = jax.vmap(window, in_axes=1)(jnp.arange(24.0).reshape(4, 6))
"""

BATCHED_OK = """\
import jax
import jax.numpy as jnp


def last_feature(row):
    return row[4]


def pick(frame, i):
    return frame[i, 0]


def window(x):
    return jax.lax.dynamic_slice(x, (3,), (2,))


AXES = (0, None)
xs = jnp.arange(32.0).reshape(4, 8)
a = jax.vmap(last_feature)(xs)
b = jax.vmap(pick, in_axes=AXES)(jnp.arange(40.0).reshape(5, 4, 2), 3)
c = jax.vmap(window, in_axes=0)(jnp.arange(24.0).reshape(4, 6))
d = jax.vmap(window, in_axes=1)(jnp.arange(24.0).reshape(6, 4))
"""


def test_out_of_bounds_through_vmap_in_axes(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"batched.py": BATCHED, "batched_ok.py": BATCHED_OK}, select="JAX121")
    assert found == [
        ("JAX121", "batched.py", 6, 16,
         "index 4 is out of bounds for axis 0 with size 4, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)"),
        ("JAX121", "batched.py", 10, 18,
         "index 3 is out of bounds for axis 0 with size 3, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)"),
        ("JAX121", "batched.py", 14, 38,
         "start 3 with slice size 2 does not fit axis 0 of size 4, and JAX raises no IndexError: `lax.dynamic_slice` moves the start back to 2 so that the slice fits (it reads a different window)"),
    ]


# 7. A key made from a literal seed inside a jitted step called in a loop (`@jax.jit`, or
# `step = jax.jit(train_step)` called by that name), drawn with the shapes of its arguments
# and reaching the return through names computed from it: every step the same dropout mask
# and noise (JAX: masks and noises of two steps equal). Twins: the key a parameter split at
# the caller, the jitted draw called once, a non-jitted shape-dependent draw.

STEPS = """\
import jax
import jax.numpy as jnp


def train_step(params, batch):
    rng = jax.random.PRNGKey(0)
    mask = jax.random.bernoulli(rng, 0.5, batch.shape)
    loss = jnp.mean((batch * mask) @ params)
    return params - 0.1 * loss, mask


@jax.jit
def perturb(params):
    key = jax.random.key(42)
    noise = jax.random.normal(key, params.shape)
    return params + noise, noise


def run(data):
    params = jnp.ones(3)
    step = jax.jit(train_step)
    masks, noises = [], []
    for batch in data:
        params, mask = step(params, batch)
        params, noise = perturb(params)
        masks.append(mask)
        noises.append(noise)
    return masks, noises
"""

STEPS_OK = """\
import jax
import jax.numpy as jnp


def train_step(params, batch, rng):
    mask = jax.random.bernoulli(rng, 0.5, batch.shape)
    loss = jnp.mean((batch * mask) @ params)
    return params - 0.1 * loss, mask


@jax.jit
def perturb(params):
    key = jax.random.key(42)
    noise = jax.random.normal(key, params.shape)
    return params + noise, noise


def run(data):
    params = jnp.ones(3)
    step = jax.jit(train_step)
    key = jax.random.PRNGKey(0)
    masks = []
    for batch in data:
        key, sub = jax.random.split(key)
        params, mask = step(params, batch, sub)
        masks.append(mask)
    params, noise = perturb(params)
    return masks, noise


def init_layer(n):
    key = jax.random.PRNGKey(0)
    return jax.random.normal(key, (n,))


layers = [init_layer(n) for n in (2, 3)]
"""


def test_literal_seed_key_in_a_jitted_step_called_in_a_loop(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"trainer/__init__.py": "", "trainer/steps.py": STEPS,
                                          "trainer/steps_ok.py": STEPS_OK}, select="JAX301")
    assert found == [
        ("JAX301", "trainer/steps.py", 7, 12,
         "`rng` is made from the same seed (`jax.random.PRNGKey(0)`, line 6) on every call of `train_step`, which this file calls in a loop or a comprehension, and `random.bernoulli` draws with the same arguments (shapes of the jitted function's arguments, the same from one call to the next), so every call returns the same random numbers. Take the key as a parameter and split it at the caller, or use `jax.random.fold_in(key, i)`"),
        ("JAX301", "trainer/steps.py", 15, 13,
         "`key` is made from the same seed (`jax.random.key(42)`, line 14) on every call of `perturb`, which this file calls in a loop or a comprehension, and `random.normal` draws with the same arguments (shapes of the jitted function's arguments, the same from one call to the next), so every call returns the same random numbers. Take the key as a parameter and split it at the caller, or use `jax.random.fold_in(key, i)`"),
    ]
