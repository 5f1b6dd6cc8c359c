"""Mechanisms of the held branches' exemptions narrowed to what they mean (read-through
of recallF, recallG, precis5): each INVALID two or more ways the exemption used to let
through, with VALID twins that stay silent.  Snippets written from the mechanism."""

from __future__ import annotations

import json
import textwrap

from click.testing import CliRunner

from jaxlint.cli import cli
from jaxlint.lint.linter import lint_source
from jaxlint.settings import LintSettings
from jaxlint.workspace.ruleinfo import load_rule_infos

_ALL = frozenset(r.code for r in load_rule_infos())


def _found(src: str, code: str | None = None, path: str = "pkg/mod.py") -> list[tuple[str, int, int, str]]:
    result = lint_source(textwrap.dedent(src), path, LintSettings(select=_ALL))
    return [(f.code, f.line, f.col, f.message) for f in result.findings if code is None or f.code == code]


def _loop_reuse(name: str, by: str, kind: str) -> str:
    return (f"`{name}` is consumed by `{by}` inside a {kind} but never replaced, so every iteration draws the "
            f"same random numbers. Split a new key each iteration (`{name}, sub = jax.random.split({name})`) "
            f"or use `jax.random.fold_in({name}, i)`")


# --- JAX301: an evaluation apply is told by whole words of its keyword ---
# (the mechanism: substrings of the keyword: `sampl` in upsample, `train` in constrain,
# `eval` in retrieval, `test` in latest; the words now, split on `_` and camelCase)

_EVAL_BY_WORDS = """\
import haiku as hk


def upsampled(model, variables, key, batches):
    out = []
    for x in batches:
        out.append(model.apply(variables, x, upsample=False, rngs={"dropout": key}))
    return out


def constrained(model, variables, key, batches):
    return [model.apply(variables, x, constrain=False, rngs={"dropout": key}) for x in batches]


def forward(x, retrieval, latest):
    x = hk.Linear(4)(x)
    if retrieval:
        x = hk.dropout(hk.next_rng_key(), 0.5, x)
    return x


net = hk.transform(forward)


def lookup(params, key, batches):
    return [net.apply(params, key, x, retrieval=True, latest=True) for x in batches]


def dropout_kept(model, variables, key, batches):
    return [model.apply(variables, x, no_dropout=False, rngs={"dropout": key}) for x in batches]
"""

_EVAL_TWINS = """\
import haiku as hk


def evaluated(model, variables, key, batches):
    out = []
    for x in batches:
        out.append(model.apply(variables, x, isTraining=False, rngs={"dropout": key}))
    return out


def deterministic(model, variables, key, batches):
    return [model.apply(variables, x, non_deterministic=False, rngs={"dropout": key}) for x in batches]


def forward(x, is_training):
    x = hk.Linear(4)(x)
    if is_training:
        x = hk.dropout(hk.next_rng_key(), 0.5, x)
    return x


net = hk.transform(forward)


def predict(params, key, batches):
    return [net.apply(params, key, x, is_eval=True) for x in batches]


def sampled_off(model, variables, key, batches):
    return [model.apply(variables, x, disable_dropout=True, rngs={"dropout": key}) for x in batches]
"""


def test_keywords_that_only_contain_an_evaluation_word_are_no_evaluation() -> None:
    assert _found(_EVAL_BY_WORDS) == [
        ("JAX301", 7, 20, _loop_reuse("key", "model.apply(rngs=...)", "loop")),
        ("JAX301", 12, 13, _loop_reuse("key", "model.apply(rngs=...)", "comprehension")),
        ("JAX301", 26, 13, _loop_reuse("key", "hk.dropout` via `net.apply", "comprehension")),
        ("JAX301", 30, 13, _loop_reuse("key", "model.apply(rngs=...)", "comprehension")),
    ]


def test_evaluation_words_camel_case_and_negated_still_exempt() -> None:
    assert _found(_EVAL_TWINS) == []


# --- JAX501: a jit rebuilt only on change needs a recorded key or a cleared flag ---
# (the mechanism: any write in the if body to a name its test reads)

_NOT_RECORDED = """\
import functools

import jax
import jax.numpy as jnp


def update(params, batch, n):
    return params - 0.1 * jnp.mean(batch[:n])


def pad_to(x, n):
    return jnp.pad(x, (0, n - x.shape[0]))


def padded(params, batches, n):
    for x in batches:
        if x.shape[0] != n:
            x = pad_to(x, n)
            step = jax.jit(functools.partial(update, n=n))
        params = step(params, x)
    return params


def by_shape(params, batches, s):
    for x in batches:
        if x.shape != s:
            s2 = x.shape
            step = jax.jit(lambda p, b: update(p, b, s2[0]))
        params = step(params, x)
    return params


def flag_set_not_cleared(params, batches):
    dirty = True
    for x in batches:
        if dirty:
            step = jax.jit(lambda p, b: update(p, b, x.shape[0]))
            dirty = True
        params = step(params, x)
    return params


def logged_not_cached(params, batches, cache, log):
    for x in batches:
        if x.shape not in cache:
            step = jax.jit(lambda p, b: update(p, b, x.shape[0]))
            log.append(x.shape)
        params = step(params, x)
    return params
"""

_RECORDED = """\
import functools

import jax
import jax.numpy as jnp


def update(params, batch, n):
    return params - 0.1 * jnp.mean(batch[:n])


def cached(params, batches):
    cache = {}
    for x in batches:
        if x.shape not in cache:
            step = jax.jit(lambda p, b: update(p, b, x.shape[0]))
            cache[x.shape] = step
        params = cache[x.shape](params, x)
    return params


def built_once(params, batches):
    built = False
    for x in batches:
        if not built:
            step = jax.jit(lambda p, b: update(p, b, 4))
            built = True
        params = step(params, x)
    return params


def keyed_on_a_pair(params, batches, m):
    last = None
    for x in batches:
        if (x.shape[0], m) != last:
            step = jax.jit(lambda p, b: update(p, b, x.shape[0]))
            last = (x.shape[0], m)
        params = step(params, x)
    return params


def seen_set(params, batches):
    seen = set()
    for x in batches:
        n = x.shape[0]
        if n not in seen:
            step = jax.jit(functools.partial(update, n=n))
            seen.add(n)
        params = step(params, x)
    return params


def unset(params, batches):
    step = None
    for x in batches:
        if step is None:
            step = jax.jit(lambda p, b: update(p, b, 4))
        params = step(params, x)
    return params
"""

_FRESH = ("compiles again on every iteration of the loop: jit caches per function object and this one is "
          "new each time. Create the jitted function once (outside the loop or at module level) and pass "
          "the varying values as arguments")


def test_jit_under_a_test_whose_body_records_no_key_still_reported() -> None:
    assert _found(_NOT_RECORDED, code="JAX501") == [
        ("JAX501", 19, 20, "`jit` of a `functools.partial(...)` object " + _FRESH),
        ("JAX501", 28, 20, "`jit` of a `lambda` " + _FRESH),
        ("JAX501", 37, 20, "`jit` of a `lambda` " + _FRESH),
        ("JAX501", 46, 20, "`jit` of a `lambda` " + _FRESH),
    ]


def test_jit_rebuilt_when_a_recorded_key_changes_is_not_reported() -> None:
    assert _found(_RECORDED, code="JAX501") == []


# --- JAX301: a loop target read only by a closure the iteration never runs ---
# (the mechanism: any read inside a lambda or nested def proved the iterations differ;
# now only a closure the iteration calls or transforms does)

_STORED_CLOSURES = """\
import jax


def collect_hooks(settings):
    hooks = []
    draws = []
    for cfg in settings:
        hooks.append(lambda: print(cfg))
        draws.append(jax.random.normal(jax.random.PRNGKey(0), (3,)))
    return hooks, draws


def register(settings, table):
    draws = []
    for name in settings:
        def report():
            return name
        table.append(report)
        draws.append(jax.random.uniform(jax.random.PRNGKey(1), (2,)))
    return draws
"""

_RUN_CLOSURES = """\
from functools import partial

import jax


def create(key):
    return [jax.random.normal(key, (3,))]


def test_sampling_can_be_jitted():
    for algorithm in ["wilson", "colbourn"]:
        f = jax.jit(lambda x: x * len(algorithm))
        for dist in create(jax.random.PRNGKey(0)):
            f(dist)


def called(settings):
    draws = []
    for cfg in settings:
        show = lambda: print(cfg)
        show()
        draws.append(jax.random.normal(jax.random.PRNGKey(0), (3,)))
    return draws


def decorated(settings, x):
    draws = []
    for scale in settings:
        @partial(jax.jit, static_argnums=())
        def step(v):
            return v * scale
        draws.append(jax.random.normal(jax.random.PRNGKey(0), (3,)))
    return draws
"""


def _same_seed(seed: int, sampler: str) -> str:
    return (f"`jax.random.PRNGKey({seed})` makes the same key in every iteration of the loop and "
            f"`random.{sampler}` draws with the same arguments, so every iteration gets the same random "
            "numbers. Create the key once before the loop and split it each iteration, or use "
            "`jax.random.fold_in(key, i)`")


def test_loop_target_read_only_by_a_stored_closure_still_reported() -> None:
    assert _found(_STORED_CLOSURES, code="JAX301") == [
        ("JAX301", 9, 22, _same_seed(0, "normal")),
        ("JAX301", 19, 22, _same_seed(1, "uniform")),
    ]


def test_loop_target_read_by_a_closure_run_or_transformed_in_the_iteration() -> None:
    assert _found(_RUN_CLOSURES, code="JAX301") == []


# --- JAX405: the one-time setup exemption needs a setup that runs once ---
# (the mechanism: any setter giving a None placeholder a value computed there was taken
# for a one-time setup; one called before every call of the jitted function (from the
# method that calls it, under a guard that is no done-flag, or in a driving loop) leaves
# the trace with the first value: checked with JAX, `Solver.step` and the loop over
# `Calibrated` print the first value twice)

_RECOMPUTED_BEFORE_EACH_CALL = """\
import functools

import jax
import jax.numpy as jnp


class Solver:
    def __init__(self, schedule):
        self.schedule = schedule
        self.t = 0
        self.epsilon = None

    def _update_epsilon(self):
        self.epsilon = self.schedule(self.t)

    @functools.partial(jax.jit, static_argnums=0)
    def _step(self, x):
        return x * self.epsilon

    def step(self, x):
        self._update_epsilon()
        self.t += 1
        return self._step(x)


class Calibrated:
    def __init__(self, base, decay):
        self.base = base
        self.decay = decay
        self.epoch = 0
        self.scale = None
        self.forward = jax.jit(self._forward)

    def calibrate(self):
        self.scale = self.base * self.decay ** self.epoch

    def _forward(self, x):
        return x * self.scale


def train(model, batches):
    for x in batches:
        model.calibrate()
        model.epoch += 1
        model.forward(x)


class Logged:
    def __init__(self, verbose):
        self.verbose = verbose
        self.calls = 0
        self.threshold = None

    def _refresh(self):
        self.threshold = 1.0 + self.calls

    @functools.partial(jax.jit, static_argnums=0)
    def clip(self, x):
        return jnp.minimum(x, self.threshold)

    def run(self, x):
        self.calls += 1
        if self.verbose:
            self._refresh()
        return self.clip(x)

"""

_SET_UP_ONCE = """\
import functools

import jax
import jax.numpy as jnp


class SelfGuarded:
    def __init__(self, schedule):
        self.schedule = schedule
        self._ready = False
        self.epsilon = None

    def _prepare(self):
        if self._ready:
            return
        self.epsilon = self.schedule(0)
        self._ready = True

    @functools.partial(jax.jit, static_argnums=0)
    def _step(self, x):
        return x * self.epsilon

    def step(self, x):
        self._prepare()
        return self._step(x)


class FlagAtTheCall:
    def __init__(self, schedule):
        self.schedule = schedule
        self._ready = False
        self.epsilon = None

    def _prepare(self):
        self.epsilon = self.schedule(0)
        self._ready = True

    @functools.partial(jax.jit, static_argnums=0)
    def _step(self, x):
        return x * self.epsilon

    def step(self, x):
        if not self._ready:
            self._prepare()
        return self._step(x)


class NoneInside:
    def __init__(self, schedule):
        self.schedule = schedule
        self.epsilon = None

    def _prepare(self):
        if self.epsilon is None:
            self.epsilon = self.schedule(0)

    @functools.partial(jax.jit, static_argnums=0)
    def _step(self, x):
        return x * self.epsilon

    def step(self, x):
        self._prepare()
        return self._step(x)


class SetupOnce:
    def __init__(self, base):
        self.base = base
        self.scale = None
        self.forward = jax.jit(self._forward)

    def calibrate(self):
        self.scale = self.base * 2

    def _forward(self, x):
        return x * self.scale


def serve(model, batches):
    model.calibrate()
    for x in batches:
        model.forward(x)


def serve_each(configs, batches):
    for base in configs:
        model = SetupOnce(base)
        model.calibrate()
        for x in batches:
            model.forward(x)


def serve_all(models, x):
    for model in models:
        model.calibrate()
        model.forward(x)


class Loader:
    def __init__(self, config):
        self.config = config
        self.shardings = None

    def load_params(self, params):
        if self.config.nnx:
            return self._load_nnx(params)
        return params

    def _load_nnx(self, params):
        self.shardings = tuple(self.config.axes)
        return params

    @functools.partial(jax.jit, static_argnums=0)
    def insert(self, cache):
        return jax.lax.with_sharding_constraint(cache, self.shardings)
"""


def _stale_self(attr: str, method: str, setter: str, line: int) -> str:
    return (f"`self.{attr}` is read in `{method}`, which is jitted with `self` a Python object, and "
            f"`{setter}` sets it (line {line}): the compiled function keeps the value read at its first "
            "trace, so later calls ignore the change. Pass it as an argument (or make the object a pytree)")


def test_setup_recomputed_before_each_call_still_reported() -> None:
    assert _found(_RECOMPUTED_BEFORE_EACH_CALL, code="JAX405") == [
        ("JAX405", 18, 20, _stale_self("epsilon", "_step", "_update_epsilon", 14)),
        ("JAX405", 38, 20, _stale_self("scale", "_forward", "calibrate", 35)),
        ("JAX405", 59, 31, _stale_self("threshold", "clip", "_refresh", 55)),
    ]


def test_setup_guarded_by_a_done_flag_or_none_or_called_once_is_not_reported() -> None:
    assert _found(_SET_UP_ONCE, code="JAX405") == []


# --- JAX201/JAX202: a helper that transforms its function argument on one path only ---
# (the mechanism: a parameter handed to a transformation anywhere in the helper made
# every caller's function traced; `f = jax.jit(fn) if jit else fn`, `if backend ==
# "eager": return fn`, `if use_scan: return lax.scan(step, ...)` then a Python loop:
# traced only where the call picks the transforming path by a literal, or the
# parameter's literal default; checked with JAX: a, b, c, d raise, e, f, g run)

_ONE_PATH_ONLY = """\
import jax
import jax.numpy as jnp
from jax import lax


def maybe_jit(fn, jit=True):
    f = jax.jit(fn) if jit else fn
    return f


def compile_fn(fn, backend="eager"):
    if backend == "eager":
        return fn
    return jax.jit(fn)


def run(step, xs, use_scan):
    if use_scan:
        return lax.scan(step, 0.0, xs)[0]
    carry = 0.0
    for x in xs:
        carry, _ = step(carry, x)
    return carry


def loss_a(x):
    if x > 0:
        return x
    return -x


def loss_b(x):
    return float(x) * 2


def loss_c(x):
    return int(x.sum())


def step_d(c, x):
    if x > 0:
        return c + x, None
    return c, None


def loss_e(x):
    if x > 0:
        return x
    return -x


def loss_f(x):
    return float(x) * 2


def step_g(c, x):
    if x > 0:
        return c + x, None
    return c, None


def main(flag):
    a = maybe_jit(loss_a)
    b = maybe_jit(loss_b, jit=True)
    c = compile_fn(loss_c, backend="jit")
    d = run(step_d, jnp.arange(3.0), use_scan=True)
    e = maybe_jit(loss_e, jit=False)
    f = compile_fn(loss_f)
    g = run(step_g, jnp.arange(3.0), flag)
    return a, b, c, d, e, f, g
"""


def _if_traced(fn: str, param: str, how: str) -> str:
    tail = ("; or, if `x` is a Python value, mark it static (static_argnums=0)" if "jit" in how else "")
    return (f"Python `if` on a traced value: it depends on the traced argument `{param}` of `{fn}` ({how}); "
            "this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`" + tail)


def _conversion(call: str, fn: str, dtype: str) -> str:
    return (f"`{call}()` needs a concrete value, but its argument is traced: it depends on the traced argument "
            f"`x` of `{fn}` (wrapped by jax.jit); this raises ConcretizationTypeError. Instead, keep it as an "
            f"array (`x.astype(jnp.{dtype})`), or return it and convert outside the traced function; or, if `x` "
            "is a Python value, mark it static (static_argnums=0)")


def test_function_given_to_a_helper_that_transforms_it_on_one_path() -> None:
    assert _found(_ONE_PATH_ONLY) == [
        ("JAX201", 27, 8, _if_traced("loss_a", "x", "wrapped by jax.jit")),
        ("JAX202", 33, 12, _conversion("float", "loss_b", "float32")),
        ("JAX202", 37, 12, _conversion("int", "loss_c", "int32")),
        ("JAX201", 41, 8, _if_traced("step_d", "x", "a body passed to lax.scan")),
    ]


def test_function_given_to_a_helper_that_transforms_it_on_one_path_across_modules(tmp_path, monkeypatch) -> None:
    files = {
        "pyproject.toml": "[project]\nname = 'pkg'\n",
        "pkg/__init__.py": "",
        "pkg/util.py": """\
            import jax


            def maybe_jit(fn, jit=False):
                if jit:
                    return jax.jit(fn)
                return fn


            def train(loss_fn):
                return maybe_jit(loss_fn, jit=True)
            """,
        "pkg/train.py": """\
            from pkg.util import maybe_jit, train


            def loss_on(x):
                if x > 0:
                    return x
                return -x


            def loss_off(x):
                if x > 0:
                    return x
                return -x


            def loss_default(x):
                return float(x)


            def loss_handed_on(x):
                return int(x)


            fast = maybe_jit(loss_on, jit=True)
            slow = maybe_jit(loss_off, jit=False)
            plain = maybe_jit(loss_default)
            step = train(loss_handed_on)
            """,
    }
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, [".", "--no-cache", "--output-format", "json", "--exit-zero"])
    assert res.exit_code == 0, res.output
    got = sorted((f["code"], f["filename"], f["location"]["row"], f["location"]["column"])
                 for f in json.loads(res.output))
    assert got == [("JAX201", "pkg/train.py", 5, 8), ("JAX202", "pkg/train.py", 21, 12)]


_GUARDS_JOINED = """\
import functools

import jax


class Verbose:
    def __init__(self, schedule):
        self.schedule = schedule
        self.t = 0
        self.verbose = True
        self.epsilon = None

    def _update(self):
        self.epsilon = self.schedule(self.t)

    @functools.partial(jax.jit, static_argnums=0)
    def _step(self, x):
        return x * self.epsilon

    def step(self, x):
        if self.epsilon is None or self.verbose:
            self._update()
        self.t += 1
        return self._step(x)


class Both:
    def __init__(self, schedule):
        self.schedule = schedule
        self.epsilon = None
        self.delta = None

    def _update(self):
        self.epsilon = self.schedule(0)
        self.delta = self.schedule(1)

    @functools.partial(jax.jit, static_argnums=0)
    def _step(self, x):
        return x * self.epsilon

    def step(self, x):
        if self.epsilon is None or self.delta is None:
            self._update()
        return self._step(x)
"""


def test_setup_under_a_joined_guard_runs_once_only_when_every_part_is_a_done_test() -> None:
    # `self.epsilon is None or self.verbose` runs the setup again while verbose is set
    assert _found(_GUARDS_JOINED, code="JAX405") == [
        ("JAX405", 18, 20, _stale_self("epsilon", "_step", "_update", 14)),
    ]


def test_a_helper_choosing_the_jit_in_an_elif_chain_is_no_condition_of_one_test() -> None:
    # the jit path is the conjunction of two tests (not eager, not debug): a call
    # passing mode="debug" runs the function eagerly, as does one passing another mode
    # through a variable; neither is reported.  A chain of one test still decides.
    src = """\
    import jax

    counter = 0


    def step(x):
        global counter
        counter += 1
        return x * 2


    def shift(x):
        global counter
        counter += 1
        return x + 1


    def run(fn, x, mode="eager"):
        if mode == "eager":
            out = fn(x)
        elif mode == "debug":
            out = fn(x)
        else:
            out = jax.jit(fn)(x)
        return out


    def go(fn, x, fast=False):
        if not fast:
            return fn(x)
        return jax.jit(fn)(x)


    run(step, 1.0, mode="debug")
    go(shift, 1.0, fast=True)
    """
    assert _found(src) == [
        ("JAX402", 14, 5, "`counter` is global: `counter += 1` inside `shift` runs when jax.jit traces `shift`, not on "
         "every call: calls served from the cache skip it. Return the new value (or carry it through the loop) "
         "instead"),
    ]
