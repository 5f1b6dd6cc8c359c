"""Keys that reach a second draw (issue 22, branch keyK).

Three facts the model lacked, each built for every way it is written:

* a helper that draws from a key and returns that same key hands its caller a consumed
  key (model/keyflow.returned_keys; across modules through the consumer facts'
  ``returns``): pkgrev17 ``p21_init_returns_key`` (``init_params`` draws with ``key``
  and returns it; the caller draws again);
* haiku's functional ``hk.dropout(rng, rate, x)`` draws its mask from the key it is
  given (newuser17 ``w21h.py``/``p21_haiku_dropout``; recall case 1306, enn's dropout
  MLP keyed every layer by the same index ``z``);
* a key first used under ``if c:`` is the same key after that ``if`` (its identity was
  lost where the paths met): ``if is_training:`` twice with one key draws the same mask
  twice (newuser17 ``v21b.py``), while two tests no run passes both (``if m == "a"`` /
  ``if m == "b"``, ``if t:`` / ``if not t:``) stay silent.
"""

from __future__ import annotations

from project_files import lint_files

_REUSE = ("`{k}` was already consumed by `{by}` on line {line}: both calls get the same random bits. "
          "Split it first, e.g. `k1, k2 = jax.random.split({k})`, and give each call its own key")


def _reuse(path, row, col, k, by, line):
    return ("JAX301", path, row, col, _REUSE.format(k=k, by=by, line=line))


# -- a helper returns the key it drew from -----------------------------------------

# pkgrev17 p21_init_returns_key: the helper in another module makes a key from a seed,
# draws with it and returns it; the caller (module level) draws again
INIT_OTHER_MODULE = {
    "nn/__init__.py": "",
    "nn/init.py": """\
import jax

def init_params(seed, shape):
    key = jax.random.PRNGKey(seed)
    w = jax.random.normal(key, shape)
    return w, key
""",
    "train.py": """\
import jax
from nn.init import init_params

w, key = init_params(0, (3,))
noise = jax.random.normal(key, (3,))
print(noise, w)
""",
}

# the same helper reached through its module (`import nn.init as I`), in a function
INIT_MODULE_ATTR = {
    "nn/__init__.py": "",
    "nn/init.py": INIT_OTHER_MODULE["nn/init.py"],
    "train.py": """\
import jax
import nn.init as I

def setup(shape):
    w, key = I.init_params(0, shape)
    b = jax.random.uniform(key, shape)
    return w, b
""",
}

# a helper of the same file that makes its key from a seed, draws and hands the key back
NOISE_SAME_FILE = """\
import jax

def make_noise(seed, shape):
    key = jax.random.key(seed)
    noise = jax.random.normal(key, shape)
    return noise, key

def augment(x, seed):
    noise, key = make_noise(seed, x.shape)
    mask = jax.random.bernoulli(key, 0.5, x.shape)
    return (x + noise) * mask
"""

# a method called through `self`, making its key from the seed it keeps
METHOD = """\
import jax

class Agent:
    def __init__(self, seed):
        self.seed = seed

    def _init_weights(self, n):
        key = jax.random.PRNGKey(self.seed)
        w = jax.random.normal(key, (n, n))
        return w, key

    def init(self, n):
        w, key = self._init_weights(n)
        b = jax.random.normal(key, (n,))
        return w, b
"""

# the twins: the helper returns a key it kept back (split first), or a fresh one
INIT_OTHER_MODULE_OK = dict(INIT_OTHER_MODULE, **{"nn/init.py": """\
import jax

def init_params(seed, shape):
    key = jax.random.PRNGKey(seed)
    key, sub = jax.random.split(key)
    w = jax.random.normal(sub, shape)
    return w, key
"""})
INIT_MODULE_ATTR_OK = dict(INIT_MODULE_ATTR, **{"nn/init.py": INIT_OTHER_MODULE_OK["nn/init.py"]})
NOISE_SAME_FILE_OK = NOISE_SAME_FILE.replace(
    "    noise = jax.random.normal(key, shape)\n",
    "    key, sub = jax.random.split(key)\n    noise = jax.random.normal(sub, shape)\n")
METHOD_OK = METHOD.replace("        return w, key\n", "        return w, jax.random.fold_in(key, 1)\n")


def test_helper_in_another_module_returns_the_key_it_drew_from(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, INIT_OTHER_MODULE, select="JAX301") == [
        _reuse("train.py", 5, 9, "key", "random.normal` in `init_params()`, which returned it as `key", 4)]


def test_helper_reached_through_its_module_returns_the_key(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, INIT_MODULE_ATTR, select="JAX301") == [
        _reuse("train.py", 6, 9, "key", "random.normal` in `I.init_params()`, which returned it as `key", 5)]


def test_helper_of_the_same_file_returns_its_key_parameter(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"aug.py": NOISE_SAME_FILE}, select="JAX301") == [
        _reuse("aug.py", 10, 12, "key", "random.normal` in `make_noise()`, which returned it as `key", 9)]


def test_method_through_self_returns_its_key(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"agent.py": METHOD}, select="JAX301") == [
        _reuse("agent.py", 14, 13, "key",
               "random.normal` in `self._init_weights()`, which returned it as `key", 13)]


def test_helpers_that_return_a_kept_back_key_stay_silent(tmp_path, monkeypatch):
    for files in (INIT_OTHER_MODULE_OK, INIT_MODULE_ATTR_OK, {"aug.py": NOISE_SAME_FILE_OK},
                  {"agent.py": METHOD_OK}):
        assert lint_files(tmp_path, monkeypatch, files, select="JAX301") == [], files


# -- haiku's functional dropout ------------------------------------------------------

# newuser17 w21h.py: two dropouts, one key
HK_TWICE = """\
import haiku as hk


def forward(x, key):
    h = hk.dropout(key, 0.1, x)
    return hk.dropout(key, 0.1, h)
"""

# the same through an imported name, after a jax.random draw
HK_ALIAS = """\
import jax
from haiku import dropout


def forward(x, rng):
    x = x + jax.random.normal(rng, x.shape)
    return dropout(rng, 0.1, x)
"""

# recall case 1306 (enn's MLPDropoutENN before commit f03e8b5): the index z is the key of
# every layer's dropout, in a loop over the layers
HK_LOOP = """\
import haiku as hk
import jax


def enn_fn(inputs, z, output_sizes, dropout_rate=0.05):
    x = hk.Flatten()(inputs)
    for output_size in output_sizes:
        x = hk.Linear(output_size)(x)
        x = hk.dropout(z, dropout_rate, x)
        x = jax.nn.relu(x)
    return x
"""

HK_TWICE_OK = HK_TWICE.replace("    h = hk.dropout(key, 0.1, x)\n    return hk.dropout(key, 0.1, h)",
                               "    k1, k2 = jax.random.split(key)\n    h = hk.dropout(k1, 0.1, x)\n"
                               "    return hk.dropout(k2, 0.1, h)").replace("import haiku as hk\n",
                                                                          "import haiku as hk\nimport jax\n")
HK_ALIAS_OK = HK_ALIAS.replace("jax.random.normal(rng, x.shape)\n    return dropout(rng,",
                               "jax.random.normal(jax.random.fold_in(rng, 0), x.shape)\n    return dropout(rng,")
HK_LOOP_OK = HK_LOOP.replace("    for output_size in output_sizes:\n",
                             "    for i, output_size in enumerate(output_sizes):\n").replace(
    "hk.dropout(z, dropout_rate, x)", "hk.dropout(jax.random.fold_in(z, i), dropout_rate, x)")


def test_haiku_dropout_twice_with_one_key(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"m.py": HK_TWICE}, select="JAX301") == [
        _reuse("m.py", 6, 12, "key", "hk.dropout(...)", 5)]


def test_haiku_dropout_imported_by_name_after_a_draw(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"m.py": HK_ALIAS}, select="JAX301") == [
        _reuse("m.py", 7, 12, "rng", "random.normal", 6)]


def test_haiku_dropout_keyed_by_one_index_in_every_layer(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"m.py": HK_LOOP}, select="JAX301") == [
        ("JAX301", "m.py", 9, 13,
         "`z` is consumed by `hk.dropout(...)` inside a loop but never replaced, so every iteration draws the "
         "same random numbers. Split a new key each iteration (`z, sub = jax.random.split(z)`) or use "
         "`jax.random.fold_in(z, i)`")]


def test_haiku_dropout_with_its_own_keys_stays_silent(tmp_path, monkeypatch):
    for text in (HK_TWICE_OK, HK_ALIAS_OK, HK_LOOP_OK):
        assert lint_files(tmp_path, monkeypatch, {"m.py": text}, select="JAX301") == [], text


# -- one key under two branches of the same test --------------------------------------

# newuser17 v21b.py: a mask under `if is_training:`, twice
TWO_IFS = """\
import jax


def forward(x, key, is_training):
    if is_training:
        x = x * jax.random.bernoulli(key, 0.9, x.shape)
    x = jax.nn.relu(x)
    if is_training:
        x = x * jax.random.bernoulli(key, 0.9, x.shape)
    return x
"""

# newuser17 p21_haiku_dropout_b.py: haiku dropouts under two `if is_training:`
TWO_IFS_HAIKU = """\
import haiku as hk
import jax


def forward(x, key, is_training):
    h = jax.nn.relu(hk.Linear(64)(x))
    if is_training:
        h = hk.dropout(key, 0.1, h)
    h = jax.nn.relu(hk.Linear(64)(h))
    if is_training:
        h = hk.dropout(key, 0.1, h)
    return hk.Linear(10)(h)
"""

# an attribute test, `not deterministic` twice, in a method; then a draw after the `if`
TWO_IFS_ATTR = """\
import jax


class Block:
    def __init__(self, deterministic):
        self.deterministic = deterministic

    def __call__(self, x, key):
        if not self.deterministic:
            x = x + jax.random.normal(key, x.shape)
        y = jax.random.uniform(key, x.shape)
        return x * y
"""

# the twins: tests no run passes both, and a split
EXCLUSIVE = """\
import jax


def perturb(x, key, mode):
    if mode == "gauss":
        x = x + jax.random.normal(key, x.shape)
    if mode == "uniform":
        x = x + jax.random.uniform(key, x.shape)
    return x


def mask(x, key, train):
    if train:
        a = jax.random.bernoulli(key, 0.5, x.shape)
    if not train:
        a = jax.random.bernoulli(key, 0.9, x.shape)
    return x * a


def noise(x, key, step, kind):
    key = jax.random.fold_in(key, step)
    if kind == 0:
        x = x + jax.random.normal(key, x.shape)
    if kind != 0:
        x = x * jax.random.uniform(key, x.shape)
    return x
"""
TWO_IFS_OK = TWO_IFS.replace("    if is_training:\n        x = x * jax.random.bernoulli(key, 0.9, x.shape)\n    x =",
                             "    k1, k2 = jax.random.split(key)\n    if is_training:\n"
                             "        x = x * jax.random.bernoulli(k1, 0.9, x.shape)\n    x =", 1).replace(
    "    if is_training:\n        x = x * jax.random.bernoulli(key, 0.9, x.shape)\n    return",
    "    if is_training:\n        x = x * jax.random.bernoulli(k2, 0.9, x.shape)\n    return")


def test_one_key_under_two_ifs_of_the_same_test(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"m.py": TWO_IFS}, select="JAX301") == [
        _reuse("m.py", 9, 17, "key", "random.bernoulli", 6)]


def test_haiku_dropout_under_two_ifs(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"m.py": TWO_IFS_HAIKU}, select="JAX301") == [
        _reuse("m.py", 11, 13, "key", "hk.dropout(...)", 8)]


def test_key_drawn_under_an_if_and_again_after_it(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"m.py": TWO_IFS_ATTR}, select="JAX301") == [
        _reuse("m.py", 11, 13, "key", "random.normal", 10)]


def test_exclusive_tests_and_split_keys_stay_silent(tmp_path, monkeypatch):
    for text in (EXCLUSIVE, TWO_IFS_OK):
        assert lint_files(tmp_path, monkeypatch, {"m.py": text}, select="JAX301") == [], text


# -- a loop primitive's carry, and consumers reached through other modules ------------

# recall case 1339 (navix's Dreamer.update_actor before commit ad27601): the probe rollout
# (a method reaching `imagine` of another module) draws from `rng`, and the same `rng`
# seeds the carry of the actor-update scan, whose body splits it again
DREAMER = {
    "agents/__init__.py": "",
    "agents/world.py": """\
import jax


def imagine(params, rng):
    keys = jax.random.split(rng, 3)
    return params + keys.sum()
""",
    "agents/dreamer.py": """\
import jax
from .world import imagine


class Dreamer:
    def rollout(self, params, rng):
        return imagine(params, rng)

    def update(self, params, rng):
        probe = self.rollout(params, rng)

        def step(carry, _):
            params, rng = carry
            rng, key = jax.random.split(rng)
            params = params + jax.random.normal(key)
            return (params, rng), None

        (params, rng), _ = jax.lax.scan(
            step, (params, rng), None, length=3)
        return params, probe, rng
""",
}

# a fori_loop whose carry is the key itself, after a draw; the module reached by attribute
FORI = {
    "sim/__init__.py": "",
    "sim/noise.py": """\
import jax


def jitter(x, key):
    return x + jax.random.uniform(key, x.shape)
""",
    "sim/run.py": """\
import jax
import sim.noise as noise


def simulate(x, key):
    x = noise.jitter(x, key)

    def body(i, key):
        key, sub = jax.random.split(key)
        return key

    return x, jax.lax.fori_loop(0, 10, body, key)
""",
}

# a while_loop whose carry tuple holds the key, after a module-level helper drew from it
WHILE = """\
import jax


def sample_init(key, n):
    return jax.random.normal(key, (n,))


def chain(key, n):
    x = sample_init(key, n)

    def cond(c):
        return c[0] < 5

    def body(c):
        i, x, key = c
        key, sub = jax.random.split(key)
        return i + 1, x + jax.random.normal(sub, x.shape), key

    return jax.lax.while_loop(cond, body, (0, x, key))
"""

DREAMER_OK = dict(DREAMER, **{"agents/dreamer.py": DREAMER["agents/dreamer.py"].replace(
    "        probe = self.rollout(params, rng)\n",
    "        rng, key_probe = jax.random.split(rng)\n        probe = self.rollout(params, key_probe)\n")})
FORI_OK = dict(FORI, **{"sim/run.py": FORI["sim/run.py"].replace(
    "    x = noise.jitter(x, key)\n", "    key, sub = jax.random.split(key)\n    x = noise.jitter(x, sub)\n")})
WHILE_OK = WHILE.replace("    x = sample_init(key, n)\n",
                         "    key, sub = jax.random.split(key)\n    x = sample_init(sub, n)\n")


def test_scan_carry_after_a_method_reaching_another_module(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, DREAMER, select="JAX301") == [
        ("JAX301", "agents/dreamer.py", 19, 20,
         "`rng` was already split by `self.rollout()` on line 10; a split key must not be used again. Use the "
         "keys `self.rollout()` returned (e.g. `rng, sub = jax.random.split(rng)` and pass `sub`)")]


def test_fori_loop_carrying_a_key_drawn_from_by_an_imported_module(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, FORI, select="JAX301") == [
        _reuse("sim/run.py", 12, 46, "key", "noise.jitter()", 6)]


def test_while_loop_carry_tuple_after_a_helper(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"chain.py": WHILE}, select="JAX301") == [
        _reuse("chain.py", 19, 44, "key", "sample_init()", 9)]


def test_loop_carries_given_their_own_key_stay_silent(tmp_path, monkeypatch):
    for files in (DREAMER_OK, FORI_OK, {"chain.py": WHILE_OK}):
        assert lint_files(tmp_path, monkeypatch, files, select="JAX301") == [], files


# -- flax's Module.init draws the parameters from its key ------------------------------

# orbax's pytorch-users guide (fresh set 17, missed): `dummy_input = normal(key, ...)`
# then `model.init(key, dummy_input)`
FLAX_BOUND = """\
import jax
import flax.linen as nn


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(4)(x)


key = jax.random.PRNGKey(0)
dummy_input = jax.random.normal(key, (8, 3))
model = MLP()
params = model.init(key, dummy_input)
"""

# flax's own layer built in place, the key given as `rngs=` in a function
FLAX_LAYER = """\
import jax
from flax import linen as nn


def make(rng):
    x = jax.random.uniform(rng, (2, 3))
    return nn.Dense(features=4).init(rngs=rng, inputs=x)
"""

# a parameter annotated with the module class, then a draw after the init
FLAX_PARAM = """\
import jax
import flax.linen as nn


class Encoder(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(x)


def init_and_noise(encoder: Encoder, key, x):
    variables = encoder.init({"params": key}, x)
    eps = jax.random.normal(key, x.shape)
    return variables, eps
"""

FLAX_BOUND_OK = FLAX_BOUND.replace("key = jax.random.PRNGKey(0)\n",
                                   "key, init_key = jax.random.split(jax.random.PRNGKey(0))\n").replace(
    "model.init(key, dummy_input)", "model.init(init_key, dummy_input)")
FLAX_LAYER_OK = FLAX_LAYER.replace("    x = jax.random.uniform(rng, (2, 3))\n",
                                   "    rng, sub = jax.random.split(rng)\n    x = jax.random.uniform(sub, (2, 3))\n")
# two modules started from one key: a controlled comparison, not reported
FLAX_TWO_INITS = FLAX_BOUND.replace(
    "dummy_input = jax.random.normal(key, (8, 3))\n", "dummy_input = jax.numpy.ones((8, 3))\n") + \
    "params_again = MLP().init(key, dummy_input)\n"
FLAX_PARAM_OK = FLAX_PARAM.replace("jax.random.normal(key, x.shape)",
                                   "jax.random.normal(jax.random.fold_in(key, 1), x.shape)")


def test_flax_init_beside_a_draw_from_its_key_is_not_reuse(tmp_path, monkeypatch):
    """flax draws each parameter from `fold_in(key, <path>)`, not from `key`: a draw from
    `key` before or after `init`, and a split after it, share no bits, and JAX's
    `jax_debug_key_reuse` accepts them (JAX 0.10.2, flax 0.12; the diff review of
    session 18 ran them), so none of these is reported."""
    for name, text in (("nb.py", FLAX_BOUND), ("m.py", FLAX_LAYER), ("p.py", FLAX_PARAM)):
        assert lint_files(tmp_path, monkeypatch, {name: text}, select="JAX301") == [], text


# modules whose parameters all start as constants draw nothing (flax's own tests:
# `nn.LayerNorm().init_with_output(key, x)` after drawing `x` from a split of `key`), and a
# test initialising a module from its fixture's key
FLAX_CONSTANT_INIT = """\
import jax
import flax.linen as nn


class Scale(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x * self.param("scale", nn.initializers.ones, (x.shape[-1],))


def norm_init(key):
    x = jax.random.normal(key, (3, 4))
    y, w = nn.LayerNorm().init_with_output(key, x)
    v = Scale().init(key, x)
    return y, w, v
"""
FLAX_IN_TEST = FLAX_LAYER.replace("def make(rng):", "def test_make(rng):")


def test_flax_inits_with_their_own_keys_stay_silent(tmp_path, monkeypatch):
    for text in (FLAX_BOUND_OK, FLAX_LAYER_OK, FLAX_TWO_INITS, FLAX_PARAM_OK, FLAX_CONSTANT_INIT, FLAX_IN_TEST):
        assert lint_files(tmp_path, monkeypatch, {"m.py": text}, select="JAX301") == [], text


# -- where a reuse is shown, and a key under two names ---------------------------------

# recall case 1341 (navix's FourRooms._reset before commit 2c5cb4a): the second draw
# from `k1` is a call written over several lines; the finding sits on the key's line
MULTILINE = """\
import jax


def reset(key, height):
    key, k1, k2 = jax.random.split(key, 3)
    opening_1 = jax.random.randint(k1, shape=(), minval=1, maxval=height // 2)
    opening_2 = jax.random.randint(
        k1, shape=(), minval=height // 2 + 2, maxval=height
    )
    return opening_1, opening_2, jax.random.uniform(k2, minval=0.0,
                                                    maxval=1.0)
"""

# uncertainty-baselines fsvi.py (fresh set 17, missed): `keys = rng_key`, one key under
# two names, each drawn from
ALIAS = """\
import jax


def evaluate(rng_key, x):
    keys = rng_key
    a = jax.random.normal(keys, x.shape)
    b = jax.random.normal(rng_key, x.shape)
    return a, b
"""
ALIAS_OK = ALIAS.replace("    keys = rng_key\n", "    rng_key, keys = jax.random.split(rng_key)\n")
MULTILINE_OK = MULTILINE.replace("        k1, shape=(), minval=height", "        key, shape=(), minval=height")


def test_reuse_in_a_call_over_several_lines_is_shown_at_the_key(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"rooms.py": MULTILINE}, select="JAX301") == [
        _reuse("rooms.py", 8, 9, "k1", "random.randint", 6)]


def test_key_under_two_names(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"ev.py": ALIAS}, select="JAX301") == [
        ("JAX301", "ev.py", 7, 9,
         "`rng_key` is the same key as `keys`, which was already consumed by `random.normal` on line 6: both "
         "calls get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(rng_key)`, and give "
         "each call its own key")]


def test_alias_and_multiline_twins_stay_silent(tmp_path, monkeypatch):
    for text in (ALIAS_OK, MULTILINE_OK):
        assert lint_files(tmp_path, monkeypatch, {"m.py": text}, select="JAX301") == [], text
