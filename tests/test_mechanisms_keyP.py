"""Key reuse (JAX301) followed through more of the ways a key travels (issue 22, branch keyP).

Each test names its source; INVALID programs are written three ways, each with a VALID
twin that must stay silent.
"""

from __future__ import annotations

from project_files import lint_files

# fresh set 19, cleanba convert_data (review19 revA/revB: 6 false findings): a closure that
# permutes the array it is given with the enclosing key, applied to the observations, the
# actions, the returns: one order for all, on purpose (brax's PPO). Written three ways (a
# nested def also tree-mapped, a method's closure with axis=0, a lambda with choice)
# stays silent; a closure that permutes the same array twice, one that permutes a number
# (no data to pair), and one called in a loop are still reported.
ONE_PERMUTATION_FOR_SEVERAL_ARRAYS_KEEPS = {
    "aligned.py": """\
import jax
import jax.numpy as jnp


def update_epoch(carry, storage, advantages, targets):
    agent_state, key = carry
    key, subkey = jax.random.split(key)

    def convert_data(x):
        x = jax.random.permutation(subkey, x)
        return jnp.reshape(x, (4, -1) + x.shape[1:])

    shuffled_storage = jax.tree.map(convert_data, storage)
    shuffled_advantages = convert_data(advantages)
    shuffled_targets = convert_data(targets)
    return (agent_state, key), (shuffled_storage, shuffled_advantages, shuffled_targets)


class Loader:
    def batches(self, key, xs, ys):
        def shuffle(a):
            return jax.random.permutation(key, a, axis=0)

        return shuffle(xs), shuffle(ys)


def pick(key, images, labels):
    take = lambda a: jax.random.choice(key, a, (8,), replace=False)
    return take(images), take(labels)
""",
    "not_aligned.py": """\
import jax


def epoch(key, x):
    key, subkey = jax.random.split(key)

    def shuffle(a):
        return jax.random.permutation(subkey, a)

    first = shuffle(x)
    second = shuffle(x)
    return first, second


def order(key, n):
    def perm(m):
        return jax.random.permutation(key, n)

    return perm(1), perm(2)


def epochs(key, xs):
    def shuffle(a):
        return jax.random.permutation(key, a)

    out = []
    for x in xs:
        out.append(shuffle(x))
    return out
""",
}


def test_one_permutation_for_several_arrays_keeps_rows_aligned(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, ONE_PERMUTATION_FOR_SEVERAL_ARRAYS_KEEPS, select="JAX301") == [
        ('JAX301', 'not_aligned.py', 8, 16, '`subkey` comes from the enclosing scope and is consumed by `random.permutation` in `shuffle`, which is called 2 times (first on line 10): every call draws the same random numbers. Give `shuffle` a key parameter and pass a fresh key to each call'),
        ('JAX301', 'not_aligned.py', 17, 16, '`key` comes from the enclosing scope and is consumed by `random.permutation` in `perm`, which is called 2 times (first on line 19): every call draws the same random numbers. Give `perm` a key parameter and pass a fresh key to each call'),
        ('JAX301', 'not_aligned.py', 24, 16, '`key` comes from the enclosing scope and is consumed by `random.permutation` in `shuffle`, which is called in a loop (first on line 28): every call draws the same random numbers. Give `shuffle` a key parameter and pass a fresh key to each call'),
    ]


# Diff review of round 18: the exemption for a key alias rebound every iteration (axlearn
# utils_test.py:649, review18 revA/revB false) accepted any rebinding; only a fresh key
# (split, fold_in, a seed that varies) counts. Three fresh rebindings stay silent; a
# clone, a copy and an asarray of the same key are reported.
ALIAS_REBOUND_TO_THE_SAME_KEY_IS_A_REUSE = {
    "fresh.py": """\
import jax


def split_each(original_key, n):
    key = original_key
    out = []
    for _ in range(n):
        key, child_key = jax.random.split(key)
        out.append(jax.random.normal(child_key, (2,)))
    return out


def fold_each(original_key, n):
    key = original_key
    out = []
    for i in range(n):
        out.append(jax.random.normal(key, (2,)))
        key = jax.random.fold_in(original_key, i + 1)
    return out


def reseed_each(original_key, n):
    key = original_key
    out = []
    for i in range(n):
        out.append(jax.random.normal(key, (2,)))
        key = jax.random.PRNGKey(i + 1)
    return out
""",
    "same.py": """\
import jax
import jax.numpy as jnp


def cloned(original_key, n):
    key = original_key
    out = []
    for _ in range(n):
        out.append(jax.random.bernoulli(key, 0.5, (2,)))
        key = jax.random.clone(original_key)
    return out


def copied(original_key, n):
    key = original_key
    out = []
    for _ in range(n):
        out.append(jax.random.normal(key, (2,)))
        key = original_key.copy()
    return out


def as_array(original_key, n):
    key = original_key
    out = []
    for _ in range(n):
        out.append(jax.random.uniform(key, (2,)))
        key = jnp.asarray(original_key)
    return out
""",
}


def test_alias_rebound_to_the_same_key_is_a_reuse(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, ALIAS_REBOUND_TO_THE_SAME_KEY_IS_A_REUSE, select="JAX301") == [
        ('JAX301', 'same.py', 9, 20, '`original_key` is consumed by `random.bernoulli` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`original_key, sub = jax.random.split(original_key)`) or use `jax.random.fold_in(original_key, i)`'),
        ('JAX301', 'same.py', 18, 20, '`original_key` is consumed by `random.normal` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`original_key, sub = jax.random.split(original_key)`) or use `jax.random.fold_in(original_key, i)`'),
        ('JAX301', 'same.py', 27, 20, '`original_key` is consumed by `random.uniform` inside a loop but never replaced, so every iteration draws the same random numbers. Split a new key each iteration (`original_key, sub = jax.random.split(original_key)`) or use `jax.random.fold_in(original_key, i)`'),
    ]


# fresh set 19, deepmind-research counterfactual_fairness/utils.py:204-205 (review19 revB,
# missed): `rng: jnp.ndarray` given to `distribution.sample(seed=rng)` and then to
# `random.normal`. Three ways (a function, jax.Array, a method with sample_and_log_prob);
# the split twins stay silent.
SAMPLE_SEED_OF_A_KEY_ANNOTATED_AS_AN_ARR = {
    "annotated.py": """\
import jax
import jax.numpy as jnp
from jax import random


def mmd_loss(distribution, num_samples: int, rng: jnp.ndarray, n: int = 50):
    samples = distribution.sample(num_samples, seed=rng)
    w = random.normal(rng, shape=(samples.shape[-1], n))
    return samples @ w


def act(policy, key: jax.Array):
    action = policy.sample(seed=key)
    explore = jax.random.uniform(key, ())
    return action, explore


class Agent:
    def step(self, dist, rng_key: jnp.ndarray):
        action, logp = dist.sample_and_log_prob(seed=rng_key)
        noise = jax.random.normal(rng_key, action.shape)
        return action + noise, logp
""",
    "annotated_ok.py": """\
import jax
import jax.numpy as jnp
from jax import random


def mmd_loss(distribution, num_samples: int, rng: jnp.ndarray, n: int = 50):
    rng_s, rng_w = random.split(rng)
    samples = distribution.sample(num_samples, seed=rng_s)
    w = random.normal(rng_w, shape=(samples.shape[-1], n))
    return samples @ w


def act(policy, key: jax.Array):
    k1, k2 = jax.random.split(key)
    action = policy.sample(seed=k1)
    explore = jax.random.uniform(k2, ())
    return action, explore


class Agent:
    def step(self, dist, rng_key: jnp.ndarray):
        k1, k2 = jax.random.split(rng_key)
        action, logp = dist.sample_and_log_prob(seed=k1)
        noise = jax.random.normal(k2, action.shape)
        return action + noise, logp
""",
}


def test_sample_seed_of_a_key_annotated_as_an_array(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, SAMPLE_SEED_OF_A_KEY_ANNOTATED_AS_AN_ARR, select="JAX301") == [
        ('JAX301', 'annotated.py', 8, 9, '`rng` was already consumed by `distribution.sample(seed=...)` on line 7: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(rng)`, and give each call its own key'),
        ('JAX301', 'annotated.py', 14, 15, '`key` was already consumed by `policy.sample(seed=...)` on line 13: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key'),
        ('JAX301', 'annotated.py', 21, 17, '`rng_key` was already consumed by `dist.sample_and_log_prob(seed=...)` on line 20: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(rng_key)`, and give each call its own key'),
    ]


# fresh set 19, deepmind-research counterfactual_fairness/adult_pscf.py:276 and 302 (review19
# revB, missed): `expanded_sample` draws with the enclosing `rnd_key`; calling it consumes
# that key, and a later draw from `rnd_key` repeats its bits. Three ways (a parameter key,
# a local key through sample(seed=), a draw before the closure's call in a method); the
# twins that split first (or pass the key as a parameter) stay silent.
CALL_OF_A_NESTED_FUNCTION_CONSUMES_THE_E = {
    "closures.py": """\
import jax
from jax import random


def perturb(key, x):
    def noisy(y):
        return y + random.normal(key, y.shape)

    a = noisy(x)
    b = random.uniform(key, x.shape)
    return a, b


def predict(seed, dists, q):
    rnd_key = random.PRNGKey(seed)

    def expanded_sample(distribution):
        return distribution.sample(10, seed=rnd_key).reshape((-1, 2))

    h = expanded_sample(q)
    m = dists.sample(seed=rnd_key)
    return h, m


class Model:
    def forward(self, x, rng):
        mask = random.bernoulli(rng, 0.9, x.shape)

        def drop(y):
            return y * random.bernoulli(rng, 0.5, y.shape)

        return drop(x * mask)
""",
    "closures_ok.py": """\
import jax
from jax import random


def perturb(key, x):
    k1, k2 = random.split(key)

    def noisy(y):
        return y + random.normal(k1, y.shape)

    a = noisy(x)
    b = random.uniform(k2, x.shape)
    return a, b


def predict(seed, dists, q):
    rnd_key = random.PRNGKey(seed)
    k_h, k_m = random.split(rnd_key)

    def expanded_sample(distribution, key):
        return distribution.sample(10, seed=key).reshape((-1, 2))

    h = expanded_sample(q, k_h)
    m = dists.sample(seed=k_m)
    return h, m


class Model:
    def forward(self, x, rng):
        rng, sub = random.split(rng)
        mask = random.bernoulli(sub, 0.9, x.shape)

        def drop(y):
            return y * random.bernoulli(rng, 0.5, y.shape)

        return drop(x * mask)
""",
}


def test_call_of_a_nested_function_consumes_the_enclosing_key(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, CALL_OF_A_NESTED_FUNCTION_CONSUMES_THE_E, select="JAX301") == [
        ('JAX301', 'closures.py', 10, 9, '`key` was already consumed by `noisy()` on line 9: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key'),
        ('JAX301', 'closures.py', 21, 9, '`rnd_key` was already consumed by `expanded_sample()` on line 20: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(rnd_key)`, and give each call its own key'),
        ('JAX301', 'closures.py', 32, 16, '`rng` was already consumed by `random.bernoulli` on line 27: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(rng)`, and give each call its own key'),
    ]


# recall case 1400 (klax FullyLinear, https://github.com/Drenderer/klax/commit/80b80eb82d666d1033bbe2eea6c8cfabc05217dd):
# `weight_init: Initializer` called twice with `wkey`. Three ways (an equinox layer, flax's
# Initializer with a draw after, a parameter defaulting to lecun_normal()); the twins with
# split keys stay silent, and so does a `bias_init: Initializer = zeros` given the
# kernel's key (by default it draws nothing).
INITIALIZER_PARAMETERS_DRAW_FROM_THEIR_K = {
    "inits.py": """\
import equinox as eqx
import jax
import jax.random as jrandom
from flax import linen as nn
from jax.nn.initializers import Initializer, zeros


class FullyLinear(eqx.Module):
    weight_y: jax.Array
    weight_z: jax.Array
    bias: jax.Array

    def __init__(self, n_y, n_z, n_out, weight_init: Initializer, bias_init: Initializer = zeros, *, key):
        wkey, bkey = jrandom.split(key, 2)
        self.weight_y = weight_init(wkey, (n_out, n_y))
        self.weight_z = weight_init(wkey, (n_out, n_z))
        self.bias = bias_init(bkey, (n_out,))


def make_pair(key, init: nn.initializers.Initializer, shape):
    w = init(key, shape)
    noise = jax.random.normal(key, shape)
    return w, noise


def two_kernels(key, shape, kernel_init=nn.initializers.lecun_normal()):
    a = kernel_init(key, shape)
    b = kernel_init(key, shape)
    return a, b
""",
    "inits_ok.py": """\
import equinox as eqx
import jax
import jax.random as jrandom
from flax import linen as nn
from jax.nn.initializers import Initializer, zeros


class FullyLinear(eqx.Module):
    weight_y: jax.Array
    weight_z: jax.Array
    bias: jax.Array

    def __init__(self, n_y, n_z, n_out, weight_init: Initializer, bias_init: Initializer = zeros, *, key):
        ykey, zkey, bkey = jrandom.split(key, 3)
        self.weight_y = weight_init(ykey, (n_out, n_y))
        self.weight_z = weight_init(zkey, (n_out, n_z))
        self.bias = bias_init(bkey, (n_out,))


def make_pair(key, init: nn.initializers.Initializer, shape):
    k1, k2 = jax.random.split(key)
    w = init(k1, shape)
    noise = jax.random.normal(k2, shape)
    return w, noise


def weight_and_bias(key, shape, kernel_init: Initializer, bias_init: Initializer = zeros):
    w = kernel_init(key, shape)
    b = bias_init(key, shape[-1:])
    return w, b
""",
}


def test_initializer_parameters_draw_from_their_key(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, INITIALIZER_PARAMETERS_DRAW_FROM_THEIR_K, select="JAX301") == [
        ('JAX301', 'inits.py', 16, 25, '`wkey` was already consumed by `weight_init(...)` on line 15: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(wkey)`, and give each call its own key'),
        ('JAX301', 'inits.py', 22, 13, '`key` was already consumed by `init(...)` on line 21: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key'),
        ('JAX301', 'inits.py', 28, 9, '`key` was already consumed by `kernel_init(...)` on line 27: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key'),
    ]


# new-user review 18, problem 6 (p13_init_helper_seed_b.py, repro/lib_misses/seed1.py): a
# helper that makes its key from a defaulted or literal seed on every call, called per
# layer, twice, or in a loop. Three ways; the twins (a seed given per call, the key as a
# parameter, a dataset helper with no parameters called twice) stay silent.
CONSTANT_SEED_IN_A_HELPER_CALLED_AGAIN = {
    "seeds.py": """\
import jax
import jax.numpy as jnp


def glorot(shape, seed=0):
    key = jax.random.PRNGKey(seed)
    lim = jnp.sqrt(6.0 / (shape[0] + shape[1]))
    return jax.random.uniform(key, shape, minval=-lim, maxval=lim)


def init_mlp(sizes):
    return [{"w": glorot((m, n)), "b": jnp.zeros((n,))} for m, n in zip(sizes[:-1], sizes[1:])]


def add_noise(x, scale=0.1):
    key = jax.random.key(0)
    return x + scale * jax.random.normal(key, x.shape)


def two_views(x):
    return add_noise(x), add_noise(x)


def jitter(x, seed: int = 42):
    return x + jax.random.normal(jax.random.PRNGKey(seed), shape=x.shape)


def train(xs):
    out = []
    for x in xs:
        out.append(jitter(x))
    return out
""",
    "seeds_ok.py": """\
import jax
import jax.numpy as jnp


def glorot(shape, seed=0):
    key = jax.random.PRNGKey(seed)
    lim = jnp.sqrt(6.0 / (shape[0] + shape[1]))
    return jax.random.uniform(key, shape, minval=-lim, maxval=lim)


def init_mlp(sizes):
    return [{"w": glorot((m, n), seed=i), "b": jnp.zeros((n,))}
            for i, (m, n) in enumerate(zip(sizes[:-1], sizes[1:]))]


def add_noise(x, key, scale=0.1):
    return x + scale * jax.random.normal(key, x.shape)


def two_views(x, key):
    k1, k2 = jax.random.split(key)
    return add_noise(x, k1), add_noise(x, k2)


def dataset():
    key = jax.random.PRNGKey(0)
    return jax.random.normal(key, (10,))


train_set = dataset()
test_set = dataset()
""",
}


def test_constant_seed_in_a_helper_called_again(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, CONSTANT_SEED_IN_A_HELPER_CALLED_AGAIN, select="JAX301") == [
        ('JAX301', 'seeds.py', 8, 12, '`key` is made from the same seed (`jax.random.PRNGKey(seed)`) on every call of `glorot`, which this file calls in a loop or a comprehension (line 12), and `random.uniform` draws from it, so every call with the same shapes returns the same random numbers. Take the key as a parameter and split it at the caller, or use `jax.random.fold_in(key, i)`'),
        ('JAX301', 'seeds.py', 17, 24, '`key` is made from the same seed (`jax.random.key(0)`) on every call of `add_noise`, which this file calls 2 times (first on line 21), and `random.normal` draws from it, so every call with the same shapes returns the same random numbers. Take the key as a parameter and split it at the caller, or use `jax.random.fold_in(key, i)`'),
        ('JAX301', 'seeds.py', 25, 16, '`jax.random.PRNGKey(seed)` makes the same key on every call of `jitter`, which this file calls in a loop or a comprehension (line 31), and `random.normal` draws from it, so every call with the same shapes returns the same random numbers. Take the key as a parameter and split it at the caller, or use `jax.random.fold_in(key, i)`'),
    ]


# recall case 1420 (trax LSH attention, https://github.com/google/trax/commit/c046a5ee367d8a257e2a4b3dbdcdd5903dfffeb1):
# trax's fastmath re-exports jax.random by an assignment (`random = jax.random`), and
# `fastmath.random.split(self.rng, n)` twice splits one key twice. Three ways (from-import
# of the module and an attribute assigned, an assigned import alias, `import ... as fm`);
# the split-first twins stay silent.
REEXPORTED = {
    "lib/__init__.py": """\
""",
    "lib/fastmath.py": """\
import jax
from jax import random as _r

random = jax.random
jr = _r
nn_init = jax.nn.initializers
""",
    "lib/layers.py": """\
import jax

from lib import fastmath


class Attention:
    def init_weights_and_state(self, n_heads, batch):
        weight_rngs = fastmath.random.split(self.rng, n_heads)
        state_rngs = fastmath.random.split(self.rng, n_heads * batch)
        return weight_rngs, state_rngs


def noise(key, shape):
    a = fastmath.jr.normal(key, shape)
    b = fastmath.jr.uniform(key, shape)
    return a, b
""",
    "lib/ok.py": """\
import jax

from lib import fastmath
import lib.fastmath as fm


class Attention:
    def init_weights_and_state(self, n_heads, batch):
        w_rng, s_rng = fastmath.random.split(self.rng)
        weight_rngs = fastmath.random.split(w_rng, n_heads)
        state_rngs = fastmath.random.split(s_rng, n_heads * batch)
        return weight_rngs, state_rngs


def noise(key, shape):
    k1, k2 = fastmath.jr.split(key)
    a = fastmath.jr.normal(k1, shape)
    b = fastmath.jr.uniform(k2, shape)
    return a, b


def dropout_masks(rng, shape):
    r1, r2 = fm.random.split(rng)
    m1 = fm.random.bernoulli(r1, 0.5, shape)
    m2 = fm.random.bernoulli(r2, 0.5, shape)
    return m1, m2
""",
    "lib/other.py": """\
import jax
import lib.fastmath as fm


def dropout_masks(rng, shape):
    m1 = fm.random.bernoulli(rng, 0.5, shape)
    m2 = fm.random.bernoulli(rng, 0.5, shape)
    return m1, m2
""",
}


def test_library_module_reexported_by_assignment(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, REEXPORTED, select="JAX301") == [
        ('JAX301', 'lib/layers.py', 9, 22, '`self.rng` was already split on line 8; a split key must not be used again. Use the keys `split` returned (e.g. `self.rng, sub = jax.random.split(self.rng)` and pass `sub`)'),
        ('JAX301', 'lib/layers.py', 15, 9, '`key` was already consumed by `random.normal` on line 14: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key'),
        ('JAX301', 'lib/other.py', 7, 10, '`rng` was already consumed by `random.bernoulli` on line 6: both calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(rng)`, and give each call its own key'),
    ]


# fresh set 18, axlearn audio/streaming/convolutions_test.py:21 and common/text_dual_encoder_test.py:111
# (seen when this round's constant-seed mechanism first ran): a test module's input helper
# makes the same inputs for every test from a fixed seed, on purpose; the same helper in a
# library module is reported (test_constant_seed_in_a_helper_called_again)
TEST_INPUTS = {
    "layers_test.py": """\
import jax


def _get_inputs(shape):
    prng_key = jax.random.PRNGKey(0)
    return jax.random.uniform(prng_key, shape=shape)


def random_int_array(*, shape):
    return jax.random.randint(jax.random.PRNGKey(0), shape=shape, minval=1, maxval=9)


def test_one():
    return _get_inputs((2, 3)), random_int_array(shape=(4,))


def test_two():
    return _get_inputs((2, 3)), random_int_array(shape=(4,))
""",
}


def test_fixed_seed_input_helpers_of_a_test_module_stay_silent(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, TEST_INPUTS, select="JAX301") == []
