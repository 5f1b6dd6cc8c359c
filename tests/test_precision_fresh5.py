"""False findings read on real code (fresh set 5), each removed by a change to the
model's mechanism, with the twins that must stay reported.  Snippets written here in
the shape of the mechanism (several shapes each), not copied from the code read."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from click.testing import CliRunner

from jaxlint.cli import cli
from jaxlint.lint.linter import lint_source
from jaxlint.settings import LintSettings
from jaxlint.workspace.ruleinfo import load_rule_infos

_ALL = frozenset(r.code for r in load_rule_infos())


def _found(src: str, path: str = "pkg/mod.py", code: str | None = None) -> list[tuple[str, int, int, str]]:
    result = lint_source(textwrap.dedent(src), path, LintSettings(select=_ALL))
    return [(f.code, f.line, f.col, f.message) for f in result.findings if code is None or f.code == code]


def _reuse(name: str, by: str, line: int) -> str:
    return (f"`{name}` was already consumed by `{by}` on line {line}: both calls get the same random bits. "
            f"Split it first, e.g. `k1, k2 = jax.random.split({name})`, and give each call its own key")


# --- 1. JAX405: a setter that drops the compiled function, or the one-time setup ---
# (the mechanism: every method that writes an attribute a method jitted with `self`
# static reads was a change between calls; a setter that resets the recompile flag or
# the attribute holding the jitted function, one that calls `jax.clear_caches()`, and
# the setup that gives a placeholder its first value were taken for changes)

def _stale_self(attr: str, method: str, setter: str, line: int) -> str:
    return (f"`self.{attr}` is read in `{method}`, which is jitted with `self` a Python object, and "
            f"`{setter}` sets it (line {line}): the compiled function keeps the value read at its first "
            "trace, so later calls ignore the change. Pass it as an argument (or make the object a pytree)")


def test_setter_resetting_the_recompile_flag_that_guards_the_jit() -> None:
    src = """\
    import jax


    class Trainer:
        def __init__(self, loss_fn):
            self._loss_fn = loss_fn
            self._compiled = False
            self._step = None

        def with_loss_fn(self, fn):
            self._loss_fn = fn
            self._compiled = False

        def _kernel(self, params, batch):
            return jax.grad(self._loss_fn)(params, batch)

        def compile(self):
            if self._compiled:
                return
            self._step = jax.jit(self._kernel, donate_argnums=0)
            self._compiled = True

        def step(self, params, batch):
            self.compile()
            return self._step(params, batch)
    """
    assert _found(src) == []


def test_setter_dropping_the_attribute_that_holds_the_jitted_method() -> None:
    src = """\
    from functools import partial

    import jax


    class Sampler:
        def __init__(self, temperature):
            self.temperature = temperature
            self._sample = None

        def set_temperature(self, t):
            self.temperature = t
            self._sample = None

        def _draw(self, key, logits):
            return jax.random.categorical(key, logits / self.temperature)

        @property
        def sample(self):
            if self._sample is None:
                self._sample = jax.jit(partial(self._draw))
            return self._sample
    """
    assert _found(src) == []


def test_setter_that_clears_jax_caches() -> None:
    src = """\
    import jax


    class Model:
        def __init__(self, scale):
            self.scale = scale

        def rescale(self, scale):
            self.scale = scale
            jax.clear_caches()

        def forward(self, x):
            return x * self.scale

        def run(self, x):
            return jax.jit(self.forward)(x)
    """
    assert _found(src) == []


def test_lazy_initialisation_under_a_none_guard_before_the_first_call() -> None:
    src = """\
    import functools

    import jax


    class Experiment:
        def __init__(self, config):
            self.config = config
            self._optimizer = None
            self._train_input = None

        def _initialize_train(self):
            self._train_input = iter(range(10))
            self._schedule = make_schedule(self.config.steps)
            self._optimizer = make_optimizer(self.config.lr, self._schedule)

        def step(self, params, grads):
            if self._train_input is None:
                self._initialize_train()
            return self._update(params, grads)

        @functools.partial(jax.jit, static_argnums=0)
        def _update(self, params, grads):
            updates = self._optimizer.update(grads, self._schedule(0))
            return params + updates


    def make_schedule(n):
        return lambda i: 1.0 / (i + n)


    def make_optimizer(lr, schedule):
        return None
    """
    assert _found(src) == []


def test_placeholder_given_its_value_by_a_loader_computing_it_from_the_config() -> None:
    src = """\
    import jax
    from jax.sharding import NamedSharding, PartitionSpec


    class Engine:
        def __init__(self, config, mesh):
            self.config = config
            self.mesh = mesh
            self.cache_sharding = None

        def load_params(self, *args, params=None, rng=None):
            spec = PartitionSpec(*self.config.cache_axes)
            self.cache_sharding = NamedSharding(self.mesh, spec)
            return params

        def insert(self, cache):
            return jax.lax.with_sharding_constraint(cache, self.cache_sharding)

        def generate(self, cache):
            return jax.jit(self.insert)(cache)
    """
    assert _found(src) == []


def test_setter_that_leaves_the_compiled_function_alone_still_reported() -> None:
    # a flag that the jit-building method never reads
    src = """\
    import jax


    class Trainer:
        def __init__(self, loss_fn):
            self._loss_fn = loss_fn
            self._dirty = False
            self._step = None

        def with_loss_fn(self, fn):
            self._loss_fn = fn
            self._dirty = True

        def _kernel(self, params, batch):
            return jax.grad(self._loss_fn)(params, batch)

        def compile(self):
            if self._step is not None:
                return
            self._step = jax.jit(self._kernel)
    """
    assert _found(src) == [("JAX405", 15, 25, _stale_self("_loss_fn", "_kernel", "with_loss_fn", 11))]
    # a decorated method: resetting a flag does not drop its trace
    src = """\
    import functools

    import jax


    class Engine:
        def __init__(self, scale):
            self.scale = scale
            self._compiled = False

        def set_scale(self, scale):
            self.scale = scale
            self._compiled = False

        @functools.partial(jax.jit, static_argnums=0)
        def forward(self, x):
            return x * self.scale
    """
    assert _found(src) == [("JAX405", 17, 20, _stale_self("scale", "forward", "set_scale", 12))]


def test_setter_of_a_placeholder_or_a_recompute_of_a_set_value_still_reported() -> None:
    # the value comes from the caller: each call of `load` may change it
    src = """\
    import functools

    import jax


    class Engine:
        def __init__(self):
            self.weights = None

        def load(self, weights):
            self.weights = weights

        @functools.partial(jax.jit, static_argnums=0)
        def forward(self, x):
            return x @ self.weights
    """
    assert _found(src) == [("JAX405", 15, 20, _stale_self("weights", "forward", "load", 11))]
    # construction gives it a value: the method changes it
    src = """\
    import jax


    class Model:
        def __init__(self, config):
            self.config = config
            self.scale = 1.0

        def recompute(self):
            self.scale = self.config.base * 2

        def forward(self, x):
            return x * self.scale

        def run(self, x):
            return jax.jit(self.forward)(x)
    """
    assert _found(src) == [("JAX405", 13, 20, _stale_self("scale", "forward", "recompute", 10))]


def test_global_reassigned_then_caches_cleared() -> None:
    src = """\
    import jax
    import jax.numpy as jnp

    scale = 1.0


    @jax.jit
    def f(x):
        return x * scale


    print(f(jnp.ones(3)))
    scale = 2.0
    jax.clear_caches()
    print(f(jnp.ones(3)))


    class Cfg:
        lr = 0.1


    cfg = Cfg()


    @jax.jit
    def g(x):
        return x * cfg.lr


    for lr in (0.1, 0.2):
        cfg.lr = lr
        jax.clear_caches()
        g(jnp.ones(3))
    """
    assert _found(src) == []
    twin = textwrap.dedent(src).replace("scale = 2.0\njax.clear_caches()", "scale = 2.0").replace(
        "    jax.clear_caches()\n    g(", "    g(")
    assert [(c, ln, col) for c, ln, col, _ in _found(twin)] == [("JAX405", 9, 16), ("JAX405", 26, 16)]


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))


def _lint(root: Path, monkeypatch) -> list[tuple[str, str, int, int]]:
    monkeypatch.chdir(root)
    res = CliRunner().invoke(cli, [".", "--no-cache", "--output-format", "json", "--exit-zero"])
    assert res.exit_code == 0, res.output
    return sorted((f["code"], f["filename"], f["location"]["row"], f["location"]["column"])
                  for f in json.loads(res.output))


def test_module_attribute_set_in_another_module_then_caches_cleared(tmp_path, monkeypatch) -> None:
    files = {
        "pyproject.toml": "[project]\nname = 'pkg'\n",
        "pkg/__init__.py": "",
        "pkg/config.py": "lr = 0.1\n",
        "pkg/model.py": """\
            import jax

            from pkg import config


            @jax.jit
            def step(w, g):
                return w - config.lr * g
            """,
        "pkg/train.py": """\
            import jax

            from pkg import config
            from pkg.model import step


            def sweep(w, g):
                for lr in (0.1, 0.01):
                    config.lr = lr
                    jax.clear_caches()
                    w = step(w, g)
                return w
            """,
    }
    _write(tmp_path, files)
    assert [f for f in _lint(tmp_path, monkeypatch) if f[0] == "JAX405"] == []
    files["pkg/train.py"] = "\n".join(ln for ln in files["pkg/train.py"].splitlines() if "clear_caches" not in ln)
    _write(tmp_path, files)
    assert [f for f in _lint(tmp_path, monkeypatch) if f[0] == "JAX405"] == [
        ("JAX405", "pkg/model.py", 8, 16)]


# --- 2. JAX404: an outer container used as scratch inside a loop body ---
# (the mechanism: any traced value stored into a container of the enclosing function
# was a leak; a body that overwrites the slots it then reads, in one trace, with the
# enclosing function never reading the container after it, leaks nothing that is used)

def _leak(n: str, body: str) -> str:
    return (f"`{n}` lives outside the trace of `{body}`: storing a traced value in it leaks the tracer "
            "(using it later raises UnexpectedTracerError, or ConcretizationTypeError from `float()`/`bool()`), "
            "and cached calls do not store anything. "
            "Return the value instead")


_SCRATCH = """\
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def scatter_rows(cache, rows, lengths):
    loc = [slice(None)] * 3
    src = [slice(None)] * 3
    src[1] = 0

    def body(i, c):
        loc[0] = i
        loc[1] = lengths[i]
        src[0] = i
        return c.at[tuple(loc)].set(rows[tuple(src)])

    def body_scaled(i, c):
        loc[0] = i
        loc[1] = lengths[i]
        src[0] = i
        return c.at[tuple(loc)].set(2 * rows[tuple(src)])

    c = lax.fori_loop(0, rows.shape[0], body, cache)
    return lax.fori_loop(0, rows.shape[0], body_scaled, c)


def rnn(params, xs):
    tmp = {}

    def step(h, x):
        tmp["pre"] = params["w"] * h + x
        tmp["h"] = jnp.tanh(tmp["pre"])
        return tmp["h"], tmp["h"] * 2

    return lax.scan(step, jnp.zeros(()), xs)


@jax.jit
def window_sum(x):
    idx = [0, 0]

    def cond(s):
        return s[0] < 3

    def body(s):
        i, acc = s
        idx[0] = i
        idx[1] = i + 2
        return i + 1, acc + lax.dynamic_slice(x, (idx[0],), (2,)).sum() + x[idx[1]]

    return lax.while_loop(cond, body, (0, 0.0))
"""


def test_scratch_overwritten_then_read_in_each_body_is_no_leak() -> None:
    # index buffers shared by two fori_loop bodies, a dict of intermediates in a scan
    # step, a list of slots in a while_loop body (all run under jax 0.10.2)
    assert _found(_SCRATCH) == []


def test_scratch_read_after_the_loop_or_read_before_written_still_reported() -> None:
    # the enclosing function reads the leaked slot after the loop (UnexpectedTracerError)
    src = """\
    import jax
    from jax import lax


    @jax.jit
    def scatter_rows(cache, rows, lengths):
        loc = [slice(None)] * 3

        def body(i, c):
            loc[0] = i
            loc[1] = lengths[i]
            return c.at[tuple(loc)].set(rows[i])

        out = lax.fori_loop(0, rows.shape[0], body, cache)
        return out, loc[1]
    """
    assert _found(src, code="JAX404") == [("JAX404", 10, 9, _leak("loc", "body")),
                                          ("JAX404", 11, 9, _leak("loc", "body"))]
    # a running total kept across iterations: the body is traced once, so it never adds up
    src = """\
    from jax import lax


    def running(xs):
        acc = [0.0]

        def step(c, x):
            acc[0] = acc[0] + x
            return c + acc[0], None

        return lax.scan(step, 0.0, xs)
    """
    assert _found(src, code="JAX404") == [("JAX404", 8, 9, _leak("acc", "step"))]
    # two bodies that overwrite different slots: one reads the other's tracer
    src = _SCRATCH.replace("        loc[1] = lengths[i]\n        src[0] = i\n        return c.at[tuple(loc)].set(2",
                           "        src[0] = i\n        return c.at[tuple(loc)].set(2")
    assert [(c, ln, col) for c, ln, col, _ in _found(src, code="JAX404")] == [
        ("JAX404", 13, 9), ("JAX404", 14, 9), ("JAX404", 19, 9)]


# --- 3. JAX120: a `where` in code that reverse mode never differentiates ---
# (the mechanism: only the `bwd` of `defvjp` and `defjvp` rules were exempt; the
# function of a custom_vjp/custom_jvp (its rule is used instead), the `fwd` rule, a
# Pallas kernel (`pallas_call` has no reverse-mode rule: `jax.grad` raises) and the
# private or nested helpers only they call were taken as differentiated)

_NO_REVERSE = """\
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _finalize(o, l):
    inv = jnp.where(l == 0.0, 0.0, 1.0 / l)
    lse = jnp.where(l == 0.0, -1e9, jnp.log(l))
    return o * inv, lse


@functools.partial(jax.custom_vjp, nondiff_argnums=(2,))
def attention(o, l, causal):
    out, _ = _finalize(o, l)
    return out


def _attention_fwd(o, l, causal):
    out, lse = _finalize(o, l)
    return out, (o, l, lse)


def _attention_bwd(causal, res, g):
    o, l, lse = res
    return g, jnp.zeros_like(l)


attention.defvjp(_attention_fwd, _attention_bwd)


@jax.custom_jvp
def safe_inverse(x):
    return jnp.where(x == 0.0, 0.0, 1.0 / x)


@safe_inverse.defjvp
def _safe_inverse_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return safe_inverse(x), -t * safe_inverse(x) ** 2


def quant_kernel(x_ref, o_ref, *, bits):
    def _block(x):
        scale = jnp.max(jnp.abs(x)) / (2 ** (bits - 1) - 1)
        return jnp.where(scale == 0, 0, 1 / scale)

    o_ref[...] = x_ref[...] * _block(x_ref[...])


def quantize(x):
    return pl.pallas_call(
        functools.partial(quant_kernel, bits=8),
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        interpret=True,
    )(x)

"""


def _nan_where(op: str, cond: str, which: str, key: str, safe: str) -> str:
    return (f"`{op}` is computed for every element, also where `{cond}` is {which} and masks it out; its "
            f"derivative is infinite/NaN {_singular_at(op, key)}, so the gradient of this `where` is NaN (0 * inf). Guard "
            f"`{key}` with the same condition too (double where: `jnp.where(cond, {key}, {safe})` inside)")


def test_where_in_custom_rule_functions_and_pallas_kernels_is_not_differentiated() -> None:
    # a private helper of a custom_vjp function and its fwd rule; a custom_jvp function;
    # a nested helper of a Pallas kernel given through functools.partial (run: no NaN)
    assert _found(_NO_REVERSE, code="JAX120") == []


def test_where_in_a_helper_also_differentiated_elsewhere_still_reported() -> None:
    # the helper is also given to jax.grad directly: its where is differentiated there
    src = _NO_REVERSE + "\n\nloss_grad = jax.grad(lambda o, l: _finalize(o, l)[0].sum(), argnums=1)\n"
    assert _found(src, code="JAX120") == [
        ("JAX120", 9, 36, _nan_where("1.0 / l", "l == 0.0", "true", "l", "1.0")),
        ("JAX120", 10, 37, _nan_where("jnp.log(l)", "l == 0.0", "true", "l", "1.0")),
    ]
    # a public helper: another module may differentiate it
    src = _NO_REVERSE.replace("_finalize", "finalize")
    assert [(c, ln, col) for c, ln, col, _ in _found(src, code="JAX120")] == [("JAX120", 9, 36), ("JAX120", 10, 37)]
    # the same kernel body jitted instead of given to pallas_call is differentiable
    src = _NO_REVERSE.replace("pl.pallas_call(", "jax.jit(")
    assert [(c, ln, col) for c, ln, col, _ in _found(src, code="JAX120")] == [("JAX120", 47, 41)]


# --- 4. JAX301: one key used on purpose, or not drawn from at all ---
# (the mechanisms: a test's sweep over case tables bound to names (or zip/product of
# them) was not a table of cases; permutation/shuffle/choice of each of several arrays
# with one key (paired rows kept aligned) was a reuse; a call inside `pytest.raises`
# (it fails) consumed the key; only five evaluation keywords were known
# (`enable_dropout=False` was not), and haiku applies ignored them; a library
# constructor given its values (`eqx.nn.Embedding(weight=...)`) drew from `key=`; a
# tree map over a single array (one leaf) ran the function for "every element")

_INTENDED_REUSE = """\
import equinox as eqx
import haiku as hk
import itertools
import jax
import jax.numpy as jnp
import jax.random as jr
import pytest


class ReorderTest:
    def test_equivalence_sweep(self):
        key = jr.key(42)
        sizes = [2, 4, 8]
        cases = [((64,), 0), ((2, 128, 4), 1)]
        for size in sizes:
            for shape, dim in cases:
                x = jr.normal(key, shape)
                assert jnp.allclose(jnp.roll(x, size, dim), jnp.roll(x, size, dim))
        other = jr.key(7)
        for flag, scale in itertools.product((False, True), [0.5, 2.0]):
            y = jr.uniform(other, (3,))
            assert jnp.allclose(y * scale, scale * y) or flag


def split_train_val(key, arrays, n_train):
    arrays = [jr.permutation(key, a) for a in arrays]
    return [a[:n_train] for a in arrays], [a[n_train:] for a in arrays]


def shuffle_pair(key, x, y):
    x = jax.random.permutation(key, x)
    y = jax.random.permutation(key, y)
    return x, y


def subsample(key, xs, ys):
    idx_x = [jr.choice(key, a, (4,), replace=False) for a in (xs, ys)]
    return idx_x


def train_val(key, x):
    return jr.permutation(key, x)


def test_mismatch():
    key = jr.key(0)
    x = jnp.ones(5)
    train_val(key, x)
    x = jnp.ones((3, 5))
    with pytest.raises(ValueError):
        train_val(key, x)
    with pytest.raises(TypeError):
        jr.normal(key, "bad")


def evaluate(model, variables, key, batches):
    out = []
    for x in batches:
        out.append(model.apply(variables, x, enable_dropout=False, rngs={"aqt": key}))
    return out


def forward(x, is_training):
    x = hk.Linear(4)(x)
    if is_training:
        x = hk.dropout(hk.next_rng_key(), 0.5, x)
    return x


net = hk.transform(forward)


def predict(params, key, batches):
    return [net.apply(params, key, x, is_training=False) for x in batches]


def build(key, table):
    emb = eqx.nn.Embedding(weight=table, key=key)
    head = eqx.nn.Linear(4, 2, key=key)
    return emb, head


def perturb(key, w):
    w = jnp.asarray(w)
    return jax.tree.map(lambda x: x + 0.01 * jax.random.normal(key, x.shape), w)


def perturb_annotated(key, w: jax.Array):
    return jax.tree_util.tree_map(lambda x: x + 0.01 * jax.random.normal(key, x.shape), w)
"""

_STILL_REUSED = """\
import equinox as eqx
import haiku as hk
import jax
import jax.numpy as jnp
import jax.random as jr
import pytest


class ReorderTest:
    def test_sweep_over_a_computed_list(self):
        key = jr.key(42)
        sizes = list(range(3))
        for size in sizes:
            x = jr.normal(key, (4,))
            assert x.shape == (4,)


def two_permutations(key, n):
    a = jax.random.permutation(key, n)
    b = jax.random.permutation(key, n)
    return a, b


def train_val(key, x):
    return jr.permutation(key, x)


def test_outside_the_raises_block():
    key = jr.key(0)
    x = jnp.ones(5)
    first = train_val(key, x)
    x = jnp.ones(4)
    with pytest.raises(ValueError):
        int("x")
    second = train_val(key, x)
    assert first.shape != second.shape


def train_outputs(model, variables, key, batches):
    out = []
    for x in batches:
        out.append(model.apply(variables, x, enable_dropout=True, rngs={"dropout": key}))
    return out


def forward(x, is_training):
    x = hk.Linear(4)(x)
    if is_training:
        x = hk.dropout(hk.next_rng_key(), 0.5, x)
    return x


net = hk.transform(forward)


def train_predict(params, key, batches):
    return [net.apply(params, key, x, is_training=True) for x in batches]


def build(key):
    emb = eqx.nn.Embedding(10, 4, key=key)
    head = eqx.nn.Linear(4, 2, key=key)
    return emb, head


def perturb_params(key, params):
    return jax.tree.map(lambda x: x + 0.01 * jax.random.normal(key, x.shape), params)
"""


def _loop_reuse(name: str, by: str, kind: str) -> str:
    return (f"`{name}` is consumed by `{by}` inside a {kind} but never replaced, so every iteration draws the "
            f"same random numbers. Split a new key each iteration (`{name}, sub = jax.random.split({name})`) "
            f"or use `jax.random.fold_in({name}, i)`")


def test_intended_or_undrawn_key_reuse_is_not_reported() -> None:
    # (each of these shapes was reported before: 12 findings)
    assert _found(_INTENDED_REUSE) == []


def test_their_twins_still_reported() -> None:
    assert _found(_STILL_REUSED) == [
        ("JAX301", 14, 17, _loop_reuse("key", "random.normal", "loop")),
        ("JAX301", 20, 9, _reuse("key", "random.permutation", 19)),
        ("JAX301", 35, 14, _reuse("key", "train_val()", 31)),
        ("JAX301", 42, 20, _loop_reuse("key", "model.apply(rngs=...)", "loop")),
        ("JAX301", 57, 13, _loop_reuse("key", "hk.dropout` via `net.apply", "comprehension")),
        ("JAX301", 62, 12, _reuse("key", "eqx.nn.Embedding", 61)),
        ("JAX301", 67, 46, "`key` comes from the enclosing scope and is consumed by `random.normal` in the "
                           "function, which `jax.tree.map` calls once for every element (line 67): every element "
                           "draws the same random numbers. Give the function a key parameter and map a fresh key "
                           "with each element (`jax.random.split(key, n)`, unflattened into the tree's structure "
                           "for a tree map)"),
    ]


# --- 5. JAX501: a jit rebuilt in a loop only when what it was built for changes ---
# (the mechanism: every jit of a fresh function in a loop body compiled "on every
# iteration"; one under an `if` whose body assigns what the test reads (a recompile
# flag cleared once built, the value it was built for) is built again only on change)

_REBUILT_ON_CHANGE = """\
import functools

import jax
import jax.numpy as jnp


def update(params, batch, num_cats):
    return params - 0.1 * jnp.mean(batch) * num_cats


def train(params, batches, forks):
    num_cats = 2
    need_compile = True
    for step, batch in enumerate(batches):
        if step in forks:
            num_cats += 1
            need_compile = True
        if need_compile:
            update_jit = jax.jit(functools.partial(update, num_cats=num_cats))
            need_compile = False
        params = update_jit(params, batch)
    return params


def evaluate(params, batches):
    built_for = None
    for batch in batches:
        n = batch.shape[0]
        if n != built_for:
            score = jax.jit(lambda p, b: jnp.sum(p * b[:n]))
            built_for = n
        print(score(params, batch))
"""

_REBUILT_PERIODICALLY = """\
import functools

import jax
import jax.numpy as jnp


def update(params, batch, num_cats):
    return params - 0.1 * jnp.mean(batch) * num_cats


def train(params, batches, forks):
    num_cats = 2
    for step, batch in enumerate(batches):
        if step in forks:
            num_cats += 1
        if step % 10 == 0:
            update_jit = jax.jit(functools.partial(update, num_cats=num_cats))
        params = update_jit(params, batch)
    return params


def evaluate(params, batches):
    for batch in batches:
        n = batch.shape[0]
        if n > 0:
            score = jax.jit(lambda p, b: jnp.sum(p * b[:n]))
            last = n
        print(score(params, batch))
"""


def test_jit_rebuilt_under_a_recompile_flag_or_on_a_changed_value_is_not_reported() -> None:
    assert _found(_REBUILT_ON_CHANGE, code="JAX501") == []


def test_jit_rebuilt_under_a_test_its_body_does_not_reset_still_reported() -> None:
    fresh = ("compiles again on every iteration of the loop: jit caches per function object and this one is "
             "new each time. Create the jitted function once (outside the loop or at module level) and pass "
             "the varying values as arguments")
    assert _found(_REBUILT_PERIODICALLY, code="JAX501") == [
        ("JAX501", 17, 26, "`jit` of a `functools.partial(...)` object " + fresh),
        ("JAX501", 26, 21, "`jit` of a `lambda` " + fresh),
    ]


# --- 6. JAX209: classes registered as pytrees through a loop, a helper or a metaclass ---
# (the mechanism: only a `register...(Cls, ...)` call naming the class counted; a loop
# over (A, B), a helper registering its parameter, and a metaclass were not seen)

_REGISTERED_INDIRECTLY = """\
import jax
import jax.numpy as jnp
from jax import tree_util


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


class Box:
    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi


for cls in (Point, Box):
    tree_util.register_pytree_node(
        cls, lambda o: (tuple(vars(o).values()), None), lambda _, c, cls=cls: cls(*c))


class Segment:
    def __init__(self, a, b):
        self.a, self.b = a, b


def _tree_class(cls):
    tree_util.register_pytree_node(cls, lambda o: ((o.a, o.b), None), lambda _, c: cls(*c))
    return cls


_tree_class(Segment)


class PytreeMeta(type):
    def __new__(mcs, name, bases, ns):
        cls = super().__new__(mcs, name, bases, ns)
        return tree_util.register_pytree_node_class(cls)


class State(metaclass=PytreeMeta):
    def __init__(self, v):
        self.v = v

    def tree_flatten(self):
        return (self.v,), None

    @classmethod
    def tree_unflatten(cls, aux, c):
        return cls(*c)


@jax.jit
def norm(p):
    return jnp.sqrt(p.x ** 2 + p.y ** 2)


@jax.jit
def width(b):
    return b.hi - b.lo


@jax.jit
def length(s):
    return s.b - s.a


@jax.jit
def bump(s):
    return s.v + 1


print(norm(Point(3.0, 4.0)), width(Box(1.0, 3.0)), length(Segment(1.0, 4.0)), bump(State(1.0)))
"""

_NOT_REGISTERED = """\
import jax
import jax.numpy as jnp
from jax import tree_util


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


class Box:
    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi


for cls in (Point,):
    tree_util.register_pytree_node(
        cls, lambda o: (tuple(vars(o).values()), None), lambda _, c, cls=cls: cls(*c))


class Segment:
    def __init__(self, a, b):
        self.a, self.b = a, b


def _tree_class(cls):
    print(cls.__name__)
    return cls


_tree_class(Segment)


class PytreeMeta(type):
    def __new__(mcs, name, bases, ns):
        cls = super().__new__(mcs, name, bases, ns)
        return tree_util.register_pytree_node_class(cls)


class State(metaclass=PytreeMeta):
    def __init__(self, v):
        self.v = v

    def tree_flatten(self):
        return (self.v,), None

    @classmethod
    def tree_unflatten(cls, aux, c):
        return cls(*c)


@jax.jit
def norm(p):
    return jnp.sqrt(p.x ** 2 + p.y ** 2)


@jax.jit
def width(b):
    return b.hi - b.lo


@jax.jit
def length(s):
    return s.b - s.a


@jax.jit
def bump(s):
    return s.v + 1


print(norm(Point(3.0, 4.0)), width(Box(1.0, 3.0)), length(Segment(1.0, 4.0)), bump(State(1.0)))
"""


def _not_pytree(cls: str, fn: str, param: str) -> str:
    return (f"An instance of `{cls}` (a class not registered as a pytree) is passed to `{fn}` for the traced "
            f"parameter `{param}`: jit makes every traced argument an abstract array and cannot make this one, "
            "so the call raises TypeError: Error interpreting argument ... as an abstract array. Declare it "
            "static (static_argnums=0, when it is hashable), or close over it instead of passing it")


def test_classes_registered_in_a_loop_by_a_helper_or_a_metaclass_are_pytrees() -> None:
    # (runs under jax 0.10.2: 5.0 2.0 3.0 2.0)
    assert _found(_REGISTERED_INDIRECTLY, code="JAX209") == []


def test_classes_the_loop_or_helper_leave_out_still_reported() -> None:
    assert _found(_NOT_REGISTERED, code="JAX209") == [
        ("JAX209", 72, 36, _not_pytree("Box", "width", "b")),
        ("JAX209", 72, 59, _not_pytree("Segment", "length", "s")),
    ]


# JAX301 (continued): the "params" stream of a flax `apply` draws nothing from given params
# (the mechanism: every stream of `rngs=` counted as drawn; in `apply` the "params"
# stream only initialises variables missing from the ones given: applies under two
# different "params" keys give the same output, checked with flax 0.12.8)

_PARAMS_STREAM = """\
import flax.linen as nn
import jax
import jax.numpy as jnp


class Block(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(4)(x)


def quantize_layers(layers, params_per_layer, key):
    out = []
    for layer, params in zip(layers, params_per_layer):
        _, new_vars = layer.apply(params, jnp.ones((1, 4)), rngs={"params": key}, mutable=True)
        out.append(new_vars)
    return out


if __name__ == "__main__":
    key = jax.random.key(0)
    block = Block()
    p = block.init(key, jnp.ones((1, 4)))
    a = block.apply(p, jnp.ones((1, 4)), rngs={"params": jax.random.key(1)})
    b = block.apply(p, jnp.ones((1, 4)), rngs={"params": jax.random.key(2)})
    print(bool((a == b).all()))
"""


def test_params_stream_of_apply_is_not_a_draw() -> None:
    assert _found(_PARAMS_STREAM, code="JAX301") == []
    twin = _PARAMS_STREAM.replace('rngs={"params": key}', 'rngs={"params": key, "dropout": key}')
    assert _found(twin, code="JAX301") == [
        ("JAX301", 15, 23, _loop_reuse("key", "layer.apply(rngs=...)", "loop"))]


def test_one_key_shuffling_each_row_of_one_array_still_reported() -> None:
    # rows of one array (or indices of `range`): each row shuffled in the same order is the bug
    src = """\
    import jax.numpy as jnp
    import jax.random as jr


    def shuffle_rows(key, batch):
        batch = jnp.asarray(batch)
        return jnp.stack([jr.permutation(key, row) for row in batch])


    def shuffle_each(key, xs):
        return [jr.permutation(key, xs[i]) for i in range(len(xs))]
    """
    assert _found(src, code="JAX301") == [
        ("JAX301", 7, 23, _loop_reuse("key", "random.permutation", "comprehension")),
        ("JAX301", 11, 13, _loop_reuse("key", "random.permutation", "comprehension")),
    ]


def test_setter_resetting_an_attribute_that_does_not_guard_the_jit_still_reported() -> None:
    # `self.verbose` is tested before the jit but does not stop it: no rebuild follows
    src = """\
    import jax


    class Trainer:
        def __init__(self, loss_fn):
            self._loss_fn = loss_fn
            self.verbose = False
            self._step = None

        def with_loss_fn(self, fn):
            self._loss_fn = fn
            self.verbose = True

        def _kernel(self, params, batch):
            return jax.grad(self._loss_fn)(params, batch)

        def compile(self):
            if self.verbose:
                print("compiling")
            if self._step is None:
                self._step = jax.jit(self._kernel)
    """
    assert _found(src, code="JAX405") == [
        ("JAX405", 15, 25, _stale_self("_loss_fn", "_kernel", "with_loss_fn", 11))]


def _singular_at(op: str, key: str) -> str:
    """Where JAX120's message says the masked function's derivative is infinite/NaN:
    `log` and a division at 0 only, `sqrt` at 0 and below (jax 0.10.2)."""
    return f"where `{key}` is 0 or negative" if "sqrt" in op else f"where `{key}` is 0"
