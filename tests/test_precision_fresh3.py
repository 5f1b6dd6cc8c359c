"""False findings read on real code (fresh set 3), each removed by a change to the
model's mechanism, with the twin that must stay reported.  Snippets written here in
the shape of the code read, not copied from it."""

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


def _found(src: str, path: str = "pkg/mod.py", select: frozenset[str] = frozenset()) -> list[tuple[str, int, int, str]]:
    result = lint_source(textwrap.dedent(src), path, LintSettings(select=select or _ALL))
    return [(f.code, f.line, f.col, f.message) for f in result.findings]


def _codes(src: str, path: str = "pkg/mod.py") -> list[tuple[str, int, int]]:
    return [f[:3] for f in _found(src, path)]


def _project(root: Path, monkeypatch, files: dict[str, str]) -> list[tuple[str, str, int, int, str]]:
    """Lint a project of ``files`` (path -> source) from its folder, as a user does."""
    (root / "pyproject.toml").write_text('[project]\nname = "pkg"\n')
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(textwrap.dedent(text))
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "json"])
    assert result.exit_code in (0, 1), result.output
    return [(f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"])
            for f in json.loads(result.stdout)]


def _with_pad(found: list) -> list:
    """``cache_length`` traced also reaches ``jnp.pad``'s widths on line 7 of pkg/masks.py:
    a second true finding (jax 0.10.2: ConcretizationTypeError there once the `if` is
    fixed) since the size check reads nested tuples; the rest is returned."""
    pads = [f for f in found if f[0] == "JAX202"]
    assert [f[:4] for f in pads] == [("JAX202", "pkg/masks.py", 7, 43)]
    assert pads[0][4].startswith(
        "A shape or size passed to `jnp.pad` is traced: it depends on the traced argument `cache_length` of `pad_mask`")
    return [f for f in found if f[0] != "JAX202"]


# --- 1. Python values reaching a flax `__call__` through `Module.init`/`apply` -------

_MASK = """\
import jax.numpy as jnp


def pad_mask(mask, cache_length):
    pad = cache_length - mask.shape[-1]
    if pad > 0:
        mask = jnp.pad(mask, ((0, 0), (0, pad)))
    return mask
"""

_HEAD = """\
import flax.linen as nn
import jax
import jax.numpy as jnp

from pkg.masks import pad_mask
"""

_REPORTED = [(
    "JAX201", "pkg/masks.py", 6, 8,
    "Python `if` on a traced value: it depends on the traced argument `cache_length` of `pad_mask` "
    "(called from `make.Wrapper.__call__` (pkg/wrap.py:11), which is a method of the module class "
    "Wrapper); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
)]

_LOCAL = """
def make(cache_length=16):
    class Wrapper(nn.Module):
        @nn.compact
        def __call__(self, tokens, mask, cache_length):
            return nn.Dense(4)(tokens) * pad_mask(mask, cache_length).sum()

    w = Wrapper()
"""


def _wrap(tmp_path, monkeypatch, code: str):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    return _project(tmp_path, monkeypatch, {"pkg/masks.py": _MASK, "pkg/wrap.py": _HEAD + code})


def test_an_int_given_to_init_of_a_local_module_is_not_traced(tmp_path, monkeypatch):
    # a helper's parameter with an int default, handed to `init` positionally
    assert _wrap(tmp_path, monkeypatch, _LOCAL + """\
    return w.init(jax.random.key(0), jnp.ones((1, 4)), jnp.ones((1, 4)), cache_length)
""") == []


def test_ints_given_by_keyword_to_init_and_apply_of_a_local_module_are_not_traced(tmp_path, monkeypatch):
    # a closure in a test method holding an int, a shape, and a helper's parameter that
    # every call gives an int; keywords to `init` and `apply`; the module built inline
    assert _wrap(tmp_path, monkeypatch, """
def run(tokens, mask, cache_length):
    class Wrapper(nn.Module):
        @nn.compact
        def __call__(self, tokens, mask, cache_length, width):
            return nn.Dense(width)(tokens) * pad_mask(mask, cache_length).sum()

    width = tokens.shape[-1]
    variables = Wrapper().init(jax.random.key(0), tokens=tokens, mask=mask, cache_length=cache_length, width=width)
    return Wrapper().apply(variables, tokens=tokens, mask=mask, cache_length=cache_length, width=width)


class WrapperTest:
    def test_short(self):
        size = 13
        run(jnp.ones((1, 4)), jnp.ones((1, 4)), cache_length=size)

    def test_long(self):
        run(jnp.ones((1, 4)), jnp.ones((1, 4)), 20)

    def test_closure(self):
        size = 9

        class Outer(nn.Module):
            @nn.compact
            def __call__(self, tokens, mask):
                return pad_mask(mask, size).sum() + tokens.sum()

        Outer().init(jax.random.key(0), jnp.ones((1, 4)), jnp.ones((1, 4)))
""") == []


def test_a_local_module_applied_under_jit_stays_traced(tmp_path, monkeypatch):
    # `w.apply` handed to jit: its callers are not all in view
    assert _with_pad(_wrap(tmp_path, monkeypatch, _LOCAL + """\
    variables = w.init(jax.random.key(0), jnp.ones((1, 4)), jnp.ones((1, 4)), cache_length)
    return jax.jit(w.apply)(variables, jnp.ones((1, 4)), jnp.ones((1, 4)), cache_length)
""")) == [_REPORTED[0][:4] + (_REPORTED[0][4].replace(
        "which is a method of the module class Wrapper", "which is wrapped by jax.jit as `w.apply`"),)]


def test_a_local_module_given_a_traced_value_by_apply_stays_traced(tmp_path, monkeypatch):
    # `apply` inside a traced loss, given the loss's own argument
    assert _with_pad(_wrap(tmp_path, monkeypatch, _LOCAL + """\
    variables = w.init(jax.random.key(0), jnp.ones((1, 4)), jnp.ones((1, 4)), cache_length)

    def loss(params, n):
        return w.apply(params, jnp.ones((1, 4)), jnp.ones((1, 4)), n)

    return jax.grad(loss)(variables, jnp.float32(3))
""")) == _REPORTED


def test_a_module_level_module_given_an_int_by_init_stays_traced(tmp_path, monkeypatch):
    # defined at module level: other modules may apply it, under jit
    assert _with_pad(_wrap(tmp_path, monkeypatch, """
class Wrapper(nn.Module):
    @nn.compact
    def __call__(self, tokens, mask, cache_length):
        return nn.Dense(4)(tokens) * pad_mask(mask, cache_length).sum()


def make(cache_length=16):
    return Wrapper().init(jax.random.key(0), jnp.ones((1, 4)), jnp.ones((1, 4)), cache_length)
""")) == [("JAX201", "pkg/masks.py", 6, 8, _REPORTED[0][4].replace("make.Wrapper.__call__` (pkg/wrap.py:11)", "Wrapper.__call__` (pkg/wrap.py:10)"))]


# --- 2. JAX301: a key drawn twice where one draw is never read -------------------------

_EVAL_LOOP = """\
import jax
import jax.numpy as jnp


def run(key, params, evaluate, n_devices, n_evals):
    key, key_e = jax.random.split(key)
    eval_keys = jax.random.split(key_e, n_devices)
    for _ in range(n_evals):
{body}
        metrics = evaluate(params, eval_keys)
    return metrics
"""


def test_a_split_whose_keys_are_rebound_before_any_read_is_no_reuse():
    # the setup's `eval_keys` is replaced in the loop before its only read
    src = _EVAL_LOOP.format(body="        key_e, *eval_keys = jax.random.split(key_e, n_devices + 1)\n"
                                 "        eval_keys = jnp.stack(eval_keys)")
    assert _codes(src) == []


_CELLS = [
    "import jax\nfrom jax import random\n\nkey = random.key(0)",
    "key, _ = random.split(key)\ncontrol = random.normal(key, shape=(65,))\nprint(control.sum())",
    "key, _ = random.split(key)\nunused = random.normal(key, shape=(65,))",
    "print(control.mean())",
]


def _notebook(cells: list[str]) -> bytes:
    return json.dumps({
        "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                   "source": c.splitlines(keepends=True)} for c in cells],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
    }).encode()


def test_a_draw_that_only_feeds_an_unread_sample_is_no_reuse():
    # in a function: the second split's key only draws a vector nothing reads
    src = """\
import jax
from jax import random


def init(key):
    key, _ = random.split(key)
    control = random.normal(key, shape=(65,))
    key, _ = random.split(key)
    unused = random.normal(key, shape=(65,))
    return control
"""
    assert _codes(src) == []


def test_a_draw_at_a_module_or_notebook_top_level_stays_reported():
    # a module's globals outlive it (importers read them), a notebook's too (its user
    # inspects them): the same code at the top level
    src = "\n".join(_CELLS) + "\n"
    assert _codes(src) == [("JAX301", 8, 10)]
    result = lint_source(_notebook(_CELLS), "docs/demo.ipynb", LintSettings(select=_ALL))
    assert [(f.code, f.line, f.col) for f in result.findings] == [("JAX301", 1, 10)]


def test_a_split_whose_keys_are_read_before_the_reuse_stays_reported():
    # read in the loop before being rebound: both draws are seen
    src = _EVAL_LOOP.format(body="        metrics = evaluate(params, eval_keys)\n"
                                 "        key_e, *eval_keys = jax.random.split(key_e, n_devices + 1)")
    assert _found(src) == [(
        "JAX301", 10, 29,
        "`key_e` was already split on line 7; a split key must not be used again. Use the keys `split` "
        "returned (e.g. `key_e, sub = jax.random.split(key_e)` and pass `sub`)",
    )]


def test_a_draw_read_after_the_reuse_or_by_a_nested_function_stays_reported():
    later = """\
import jax
from jax import random


def sample(key):
    noise = random.normal(key, (3,))
    keys = random.split(key, 2)
    return noise, keys
"""
    assert _codes(later) == [("JAX301", 7, 12)]
    nested = """\
import jax
from jax import random


def sample(key):
    keys = random.split(key, 2)

    def first():
        return keys[0]

    keys = random.split(key, 3)
    return first()
"""
    assert _codes(nested) == [("JAX301", 11, 12)]


# --- 3. JAX123: x64 already on (an imported project module, or this file earlier) -----

_SOLVER = """\
import jax
from jax import config
config.update("jax_enable_x64", True)


def solve(a):
    return a * 2
"""

_STYLE = """\
import jax
import jax.numpy as jnp

from {imp} import solve

rho = jnp.ones((4, 1))
jax.config.update("jax_enable_x64", False)
style = jnp.zeros(3)
jax.config.update("jax_enable_x64", True)
print(solve(rho), style)
"""

_LATE = (
    "x64 is enabled after JAX arrays were already created at line {line}: arrays made before this "
    "point stay 32-bit while later ones are 64-bit. Enable x64 right after importing jax"
)


def _x64_project(tmp_path, monkeypatch, run: str, solver: str = _SOLVER):
    (tmp_path / "fem").mkdir()
    (tmp_path / "fem" / "__init__.py").write_text("")
    (tmp_path / "apps").mkdir()
    return _project(tmp_path, monkeypatch, {"fem/solver.py": solver, "apps/run.py": run})


def test_x64_switched_on_by_an_imported_project_module_is_not_enabled_late(tmp_path, monkeypatch):
    # the module imported switches x64 on at import: arrays after it are 64-bit; the
    # file turns it off for a stretch and back on
    assert _x64_project(tmp_path, monkeypatch, _STYLE.format(imp="fem.solver")) == []


def test_x64_switched_on_through_a_package_import_is_not_enabled_late(tmp_path, monkeypatch):
    # `import fem.solver as S` and a plain late switch with nothing turned off
    run = """\
import jax
import jax.numpy as jnp
import fem.solver as S

x = jnp.ones(3)
jax.config.update("jax_enable_x64", True)
print(S.solve(x))
"""
    assert _x64_project(tmp_path, monkeypatch, run) == []


def test_x64_switched_on_only_after_the_arrays_or_by_no_import_stays_reported(tmp_path, monkeypatch):
    # the imported module leaves x64 alone: the arrays at line 6 are 32-bit
    plain = _SOLVER.replace('config.update("jax_enable_x64", True)\n', "")
    assert _x64_project(tmp_path, monkeypatch, _STYLE.format(imp="fem.solver"), plain) == [
        ("JAX123", "apps/run.py", 9, 1, _LATE.format(line=6))]


def test_arrays_made_before_the_project_import_stay_reported(tmp_path, monkeypatch):
    run = """\
import jax
import jax.numpy as jnp

x = jnp.ones(3)

from fem.solver import solve

jax.config.update("jax_enable_x64", True)
print(solve(x))
"""
    assert _x64_project(tmp_path, monkeypatch, run) == [("JAX123", "apps/run.py", 8, 1, _LATE.format(line=4))]


def test_x64_toggled_off_and_on_in_one_file_is_not_enabled_late():
    src = """\
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)
a = jnp.array(1.0)
jax.config.update("jax_enable_x64", False)
b = jnp.array(1.0)
jax.config.update("jax_enable_x64", True)
print(a + b)
"""
    assert _codes(src) == []
    # an array made before x64 was ever on stays 32-bit, whatever the toggles after
    late = src.replace('jax.config.update("jax_enable_x64", True)\na = ', 'a = ')
    assert _found(late) == [("JAX123", 7, 1, _LATE.format(line=4))]


# --- 4. JAX505: a clock read that only starts an interval -----------------------------

_BENCH = """\
import time

import jax
import jax.numpy as jnp


def bench(f, x):
    t0 = time.perf_counter()
    jax.block_until_ready(f(x))
    compile_s = time.perf_counter() - t0
    x = jnp.ones(3) * 2
    t1 = time.perf_counter()
    jax.block_until_ready(f(x))
    return compile_s, time.perf_counter() - t1
"""

_NOTEBOOK_TIMING = [
    "import time\nimport jax\nimport jax.numpy as jnp\nf = jax.jit(jnp.sin)",
    "tic = time.time()\nout = f(jnp.ones(3)).block_until_ready()\nprint(f'took {time.time()-tic:.1f}s')",
    "rng = jax.random.key(42)\ntic = time.time()\nout = f(jax.random.normal(rng, (3,))).block_until_ready()\n"
    "print(f'took {time.time()-tic:.1f}s')",
]


def test_a_clock_read_that_only_starts_an_interval_is_not_a_stop():
    # in a function: the second start after work dispatched between two intervals
    assert _codes(_BENCH) == []
    # a notebook: the start of the next cell's interval after a key is made
    result = lint_source(_notebook(_NOTEBOOK_TIMING), "docs/timing.ipynb", LintSettings(select=_ALL))
    assert [(f.code, f.line) for f in result.findings] == []


def test_a_clock_read_that_ends_an_interval_stays_reported():
    # `t1` also closes the interval begun at `t0` (`t1 - t0`): the work before it is timed
    closing = _BENCH.replace("    return compile_s, time.perf_counter() - t1\n",
                             "    return compile_s, t1 - t0, time.perf_counter() - t1\n")
    assert _found(closing) == [(
        "JAX505", 12, 10,
        "`time.perf_counter()` is read while the JAX computation started on line 11 may still be running "
        "(dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: "
        "`jax.block_until_ready(result)` or `result.block_until_ready()`",
    )]
    # a stop stored and used first: `toc - tic`
    stop = """\
import time

import jax.numpy as jnp


def bench(x):
    tic = time.time()
    y = jnp.sin(x)
    toc = time.time()
    return y, toc - tic
"""
    assert _codes(stop) == [("JAX505", 9, 11)]


# --- 5. one each ----------------------------------------------------------------------

def test_a_string_key_set_on_what_a_transformation_returned_is_a_dict():
    # the pytree of metrics a pmapped function returns, keyed by a literal or an f-string
    src = """\
import jax
import jax.numpy as jnp


def evaluate(params, keys, run):
    metrics = jax.pmap(run)(params, keys)
    metrics = jax.block_until_ready(metrics)
    metrics["steps_per_second"] = jnp.sum(metrics["episode_length"]) / 2.0
    for name in ("return", "length"):
        metrics[f"{name}_mean"] = jnp.mean(metrics[name])
    return metrics
"""
    assert _codes(src) == []


def test_an_index_set_on_what_a_transformation_returned_stays_reported():
    src = """\
import jax
import jax.numpy as jnp


def evaluate(params, keys, run, i):
    out = jax.pmap(run)(params, keys)
    out = jax.block_until_ready(out)
    out[0] = jnp.sum(out)
    out[i] += 1
    return out
"""
    assert _codes(src) == [("JAX101", 8, 5), ("JAX101", 9, 5)]


_MASKED_MEAN = """\
import jax.numpy as jnp


def masked_mean(array, mask):
    summed = jnp.sum(array * mask, axis=0)
    counts = jnp.sum(mask, axis=0)
    summed = {zero}
    return {out}
"""


def test_a_dividend_zeroed_by_a_where_on_the_same_condition_is_guarded():
    # the jax#1052 workaround, written with `jnp.equal` and with `==`, `/` and `jnp.divide`
    assert _codes(_MASKED_MEAN.format(
        zero="jnp.where(jnp.equal(counts, 0.), jnp.zeros_like(summed), summed)",
        out="jnp.where(jnp.equal(counts, 0.), summed, summed / counts)")) == []
    assert _codes(_MASKED_MEAN.format(
        zero="jnp.where(counts == 0, 0.0, summed)",
        out="jnp.where(counts == 0, 0.0, jnp.divide(summed, counts))")) == []


def test_a_dividend_zeroed_on_another_condition_stays_reported():
    assert _codes(_MASKED_MEAN.format(
        zero="jnp.where(counts < 0, 0.0, summed)",
        out="jnp.where(counts == 0, 0.0, summed / counts)")) == [("JAX120", 8, 40)]
    assert _codes(_MASKED_MEAN.format(
        zero="summed * 1.0",
        out="jnp.where(jnp.equal(counts, 0.), summed, summed / counts)")) == [("JAX120", 8, 53)]


_EIGEN = """\
import jax
import jax.numpy as jnp


@jax.custom_jvp
def spectral(x):
    return jnp.linalg.eigh(x)[0]

{rule}
def spectral_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    evals = jnp.linalg.eigh(x)[0]
    diff = evals[:, None] - evals[None, :]
    theta = jnp.where(diff == 0., 1.0, 1.0 / diff)
    return evals, jnp.sum(theta) * jnp.sum(t)
{after}
"""


def test_a_where_inside_a_custom_derivative_rule_is_not_flagged():
    # decorated with `@f.defjvp`, or registered by a call after it
    assert _codes(_EIGEN.format(rule="@spectral.defjvp", after="")) == []
    assert _codes(_EIGEN.format(rule="", after="\nspectral.defjvp(spectral_jvp)")) == []


def test_the_same_where_in_a_plain_function_stays_reported():
    assert _codes(_EIGEN.format(rule="", after="\nspectral_grad = jax.grad(lambda x: spectral_jvp((x,), (x,))[1])")) == [
        ("JAX120", 14, 40)]


_DRIVER = """\
import jax
import jax.numpy as jnp


def train(state, steps):
{pre}    for _ in range(steps):
        state = state + 1
{post}    return state


def {name}():
    def _psync(x):
        return jax.lax.psum(x, "i")

    x = jnp.ones([jax.local_device_count()])
    return jax.pmap(_psync, "i")(x).block_until_ready()


def _barrier(x):
    f = jax.jit(lambda y: jnp.sum(y))
    return f(x)
{extra}"""


def _driver(pre="    _barrier(state)\n", post="    _sync()\n", name="_sync", extra="") -> str:
    return _DRIVER.format(pre=pre, post=post, name=name, extra=extra)


def test_a_private_function_a_driver_calls_once_compiles_once_per_run():
    # a barrier before a `for` driver's loop and at the end of the run
    assert _codes(_driver()) == []
    # the same called by a `while` driver
    assert _codes(_driver(pre="", post="", extra="""

def evaluate(state, n):
    _barrier(state)
    while n > 0:
        n -= 1
    _sync()
    return state
""")) == []


def test_a_per_call_jit_in_a_function_called_otherwise_stays_reported():
    # public: other modules may call it in their loops
    assert _codes(_driver(post="    sync()\n", name="sync")) == [("JAX501", 18, 12)]
    # also called from a function that runs no loop (called again and again elsewhere)
    assert _codes(_driver(extra="""

def step(state):
    _sync()
    return _barrier(state)
""")) == [("JAX501", 18, 12), ("JAX501", 22, 9)]
    # handed on as a callback
    assert _codes(_driver(extra="""

def register(hooks):
    hooks.append(_sync)
""")) == [("JAX501", 18, 12)]


# a traced chain through a call that cannot bind (stale code calling an old signature)

_SOLVE = """\
def jax_solve(A, b, x0, precond{star}):
    assert b.sum() >= 0
    return A @ b
"""

_GRAD = """\
import jax
import jax.numpy as jnp

from pkg.solver import jax_solve


@jax.jit
def backward(A, v):
    return {call}
"""


def _stale(tmp_path, monkeypatch, call: str, star: str = ""):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    return [f[:4] for f in _project(tmp_path, monkeypatch, {
        "pkg/solver.py": _SOLVE.format(star=star), "pkg/grad.py": _GRAD.format(call=call)})]


def test_a_call_with_too_many_arguments_traces_nothing(tmp_path, monkeypatch):
    assert _stale(tmp_path, monkeypatch, "jax_solve(A, v.reshape(-1), None, False, jnp.eye(3))") == []


def test_a_call_with_an_unknown_keyword_traces_nothing(tmp_path, monkeypatch):
    assert _stale(tmp_path, monkeypatch, "jax_solve(A, v, None, precond=None, tol=1e-3)") == []


def test_a_call_that_binds_stays_traced(tmp_path, monkeypatch):
    assert _stale(tmp_path, monkeypatch, "jax_solve(A, v, None, False)") == [("JAX201", "pkg/solver.py", 2, 12)]


def test_a_call_taken_by_star_parameters_stays_traced(tmp_path, monkeypatch):
    assert _stale(tmp_path, monkeypatch, "jax_solve(A, v, None, False, jnp.eye(3), tol=1)", star=", *args, **kw") == [
        ("JAX201", "pkg/solver.py", 2, 12)]
