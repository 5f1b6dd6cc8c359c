"""False findings on real projects of the tuning sets (fresh set 10: alpa, ithaca,
multinerf, learned_optimization, gymnax, flaxmodels, jax_verify), each fixed in the
model, with the false shape written two ways (VALID: silent) and its INVALID twins,
still reported.

* the driver: a file dropped from the project's modules (a symlinked copy of a module,
  ``pkg.py`` beside ``pkg/__init__.py``) left in its files: an internal error
  (``KeyError``) for the whole run (alpa's ``benchmark/*/util.py``);
* notebooks: a cell magic below Colab's form annotations (``#@markdown`` then
  ``%%html``) is the cell's magic (ithaca's colab: JAX001);
* JAX204: ``lax.conv_dimension_numbers`` and the conv shape helpers give static values
  (flaxmodels ``ops.py``);
* JAX405: a use and a rebinding on different branches of one ``if`` (alpa's
  ``benchmark_step_func``); a statement that only names the function anew (gymnax's
  ``rollout_fn = hk.transform(rollout)``); ``opt.update(...)`` read as a use of a
  function ``update``, and an optimizer's ``opt.update(g, s, p)`` as a dict's in-place
  update (learned_optimization's Part1 notebook);
* JAX301: the dropout stream of ``rngs=`` in a call in evaluation mode, also through a
  helper (ithaca); a loop or comprehension over one element (alpa); a test loop whose
  iterations each draw from their own values and hand no state to the next (multinerf's
  stepfun_test and render_test);
* JAX120: a ``where`` in a test that the test runner calls and that differentiates
  nothing (jax_verify's sdp_verify_test).
"""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from jaxlint.cli import cli


def _check(*args: str) -> list[str]:
    result = CliRunner().invoke(cli, ["check", *args, "--no-cache", "--output-format", "concise"])
    return result.stdout.splitlines() + ([result.stderr] if result.stderr else [])


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"))


def _notebook(path: Path, *cells: str) -> None:
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {},
                     "outputs": [], "source": textwrap.dedent(src).lstrip("\n")} for i, src in enumerate(cells)],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb, indent=1))


# --- the driver: files dropped from the project's modules ---------------------------

_JITTED = """
import jax


@jax.jit
def step(x):
    return x + 1
"""
_DRIVER = """
from pkg.model import step

print(step(1))
"""


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_symlinked_copy_of_a_module_is_no_internal_error(tmp_path, monkeypatch):
    _write(tmp_path / "pkg" / "util.py", "def helper(x):\n    return x + 1\n")
    _write(tmp_path / "pkg" / "model.py", _JITTED)
    _write(tmp_path / "run.py", _DRIVER)
    (tmp_path / "other").mkdir()
    os.symlink("../pkg/util.py", tmp_path / "other" / "util.py")
    monkeypatch.chdir(tmp_path)
    assert _check(".") == ["All checks passed!"]
    # ... and the files still report what they hold
    _write(tmp_path / "pkg" / "util.py", """
        import jax


        def helper():
            k = jax.random.key(0)
            return jax.random.normal(k), jax.random.normal(k)
        """)
    message = ("JAX301 `k` was already consumed by `random.normal` on line 6: both calls get the same random "
               "bits. Split it first, e.g. `k1, k2 = jax.random.split(k)`, and give each call its own key")
    assert _check(".") == [f"other/util.py:6:34: {message}", f"pkg/util.py:6:34: {message}", "Found 2 errors."]


def test_a_module_beside_a_package_of_its_name_is_no_internal_error(tmp_path, monkeypatch):
    _write(tmp_path / "pkg" / "__init__.py", "")
    _write(tmp_path / "pkg" / "model.py", _JITTED)
    _write(tmp_path / "tools" / "__init__.py", "")
    _write(tmp_path / "tools.py", "def helper(x):\n    return x + 1\n")
    _write(tmp_path / "run.py", _DRIVER)
    monkeypatch.chdir(tmp_path)
    assert _check(".") == ["All checks passed!"]


# --- notebooks: Colab's form annotations above a cell magic -------------------------

def test_a_cell_magic_below_colab_form_annotations_is_the_cells_magic(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _notebook(tmp_path / "nb.ipynb",
              """
              #@markdown
              %%html
              <style>
                p { font-size: 16px; }
              </style>
              """,
              """
              #@title Install { display-mode: "form" }
              #@markdown Run this first.
              %%bash
              pip install -q jax 2>&1 | tail -1
              """)
    assert _check("nb.ipynb") == ["All checks passed!"]


def test_a_python_cell_magic_below_form_annotations_keeps_its_body(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _notebook(tmp_path / "nb.ipynb",
              """
              #@title Sample
              %%capture
              import jax
              key = jax.random.key(0)
              a = jax.random.normal(key, (2,))
              b = jax.random.normal(key, (2,))
              """)
    assert _check("nb.ipynb") == [
        "nb.ipynb:cell 1:6:5: JAX301 `key` was already consumed by `random.normal` on line 5: both calls get "
        "the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its "
        "own key",
        "Found 1 error.",
    ]


def test_a_cell_magic_below_a_plain_comment_is_not_one(tmp_path, monkeypatch):
    # IPython takes `%%` as a cell magic on the cell's first line only: below a plain
    # comment the HTML is read as Python, as the kernel reads it
    monkeypatch.chdir(tmp_path)
    _notebook(tmp_path / "nb.ipynb",
              """
              # styles
              %%html
              <style>p { font-size: 16px; }</style>
              """)
    assert _check("nb.ipynb") == [
        "nb.ipynb:cell 1:3:24: JAX001 The cell does not parse: invalid decimal literal",
        "Found 1 error.",
    ]


# --- JAX204: a convolution's layout, computed from shapes ---------------------------

def test_conv_dimension_numbers_and_pads_are_static(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "ops.py", """
        import jax
        import numpy as np
        from jax import lax


        def conv_transpose(lhs, rhs, strides, padding):
            dn = jax.lax.conv_dimension_numbers(lhs.shape, rhs.shape, ("NHWC", "HWIO", "NHWC"))
            k_shape = np.take(rhs.shape, dn.rhs_spec)
            rhs = jax.numpy.flip(rhs, np.array(dn.rhs_spec)[2:])
            pads = lax.padtype_to_pads(lhs.shape[1:3], k_shape[2:], strides, padding)
            return lax.conv_general_dilated(lhs, rhs, (1, 1), np.array(pads), strides, None, dn)


        def shapes(lhs, rhs):
            dn = lax.conv_dimension_numbers(lhs.shape, rhs.shape, ("NCHW", "OIHW", "NCHW"))
            out = lax.conv_general_shape_tuple(lhs.shape, rhs.shape, (1, 1), "SAME", dn)
            return np.array(out)


        @jax.jit
        def forward(x, w):
            return conv_transpose(x, w, (2, 2), "SAME"), shapes(x, w)
        """)
    assert _check("ops.py") == ["All checks passed!"]


def test_numpy_on_the_traced_operands_of_a_convolution_is_still_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "ops.py", """
        import jax
        import numpy as np
        from jax import lax


        @jax.jit
        def forward(x, w):
            dn = lax.conv_dimension_numbers(x.shape, w.shape, ("NHWC", "HWIO", "NHWC"))
            return lax.conv_general_dilated(x, np.array(w), (1, 1), "SAME", dimension_numbers=dn)
        """)
    assert _check("ops.py") == [
        "ops.py:9:40: JAX204 `np.array` on a traced value (it depends on the traced argument `w` of `forward` "
        "(decorated with @jax.jit)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use "
        "`jnp.array` (jax.numpy) instead",
        "Found 1 error.",
    ]


# --- JAX405: branches, naming anew, methods of another object -------------------------

_BRANCHES = """
import jax


def run(args, build, load):
    if args.method == "jit":
        def step(params, batch):
            return model.apply(params, batch)

        model = build(args.name)
        params = load(model)
        infer = jax.jit(step)
    else:
        def step(params, batch):
            return model.apply(params, batch, cache=True)

        infer = args.parallelize(step)
        model = build(args.name)
        params = load(model)
    return [infer(params, b) for b in args.batches]
"""

_WARMED = """
import jax


def run(args, build, load, data):
    def step(params, batch):
        return model.apply(params, batch)

    if args.jit:
        model = build(args.name)
        infer = jax.jit(step)
        warm = infer(load(model), data[0])
    else:
        model = build(args.other)
        infer = args.parallelize(step)
    return infer(load(model), data[1])
"""

_MODULE_BRANCHES = """
import jax

SCALE = 1.0


@jax.jit
def f(x):
    return x * SCALE


if MODE == "a":
    print(f(1.0))
elif MODE == "b":
    SCALE = 2.0
print(f(2.0))
"""


def test_a_use_and_a_rebinding_on_different_branches_are_not_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "bench.py", _BRANCHES)
    _write(tmp_path / "warmed.py", _WARMED)
    _write(tmp_path / "script.py", _MODULE_BRANCHES)
    assert _check("bench.py", "warmed.py", "script.py") == ["All checks passed!"]


def test_a_rebinding_on_the_branch_of_the_use_is_still_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "warmed.py", _WARMED.replace(
        "        warm = infer(load(model), data[0])\n",
        "        warm = infer(load(model), data[0])\n        model = build(args.other)\n"))
    _write(tmp_path / "script.py", _MODULE_BRANCHES.replace('elif MODE == "b":\n    SCALE = 2.0\n',
                                                            'elif MODE == "b":\n    pass\nSCALE = 2.0\n'))
    assert _check("warmed.py", "script.py") == [
        "script.py:8:16: JAX405 `SCALE` is a module global that is reassigned (line 15) after `f` is defined: "
        "under jit its value is read once, at trace time, and baked into the compiled function, so later "
        "assignments are ignored until a retrace. Pass it as an argument",
        "warmed.py:6:16: JAX405 `model` is a local of `run` that is reassigned (line 12) after `step` has been "
        "called: the compiled function keeps the value it read when it was traced, so the later calls still "
        "use the old value until a retrace. Pass it as an argument",
        "Found 2 warnings.",
    ]


def test_naming_the_function_anew_is_no_call(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _notebook(tmp_path / "nb.ipynb",
              """
              import functools

              import haiku as hk
              import jax

              env = make_env("a")


              def rollout(key, steps):
                  obs = env.reset(key)
                  return hk.nets.MLP([4])(obs) * steps


              rollout_fn = hk.without_apply_rng(hk.transform(rollout))
              batch_rollout = jax.vmap(rollout_fn.apply, in_axes=(None, 0, None))
              bound = functools.partial(jax.jit(rollout_fn.apply), steps=3)
              """,
              """
              env = make_env("b")
              params = rollout_fn.init(jax.random.key(0), jax.random.key(1), 3)
              """,
              """
              @jax.jit
              def loss(params, keys):
                  return batch_rollout(params, keys, 3).mean()


              print(loss(params, jax.random.split(jax.random.key(2), 4)))
              print(bound(params, jax.random.key(3)))
              """)
    assert _check("nb.ipynb") == ["All checks passed!"]


def test_a_rebinding_between_two_calls_of_the_named_function_is_still_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "m.py", """
        import haiku as hk
        import jax

        env = make_env("a")


        def rollout(key, steps):
            obs = env.reset(key)
            return hk.nets.MLP([4])(obs) * steps


        rollout_fn = hk.without_apply_rng(hk.transform(rollout))
        apply = jax.jit(rollout_fn.apply, static_argnums=2)
        params = rollout_fn.init(jax.random.key(0), jax.random.key(1), 3)
        print(apply(params, jax.random.key(2), 3))
        env = make_env("b")
        print(apply(params, jax.random.key(3), 3))
        """)
    assert _check("m.py") == [
        "m.py:8:11: JAX405 `env` is a module global that is reassigned (line 16) after `rollout` is defined: "
        "under jit its value is read once, at trace time, and baked into the compiled function, so later "
        "assignments are ignored until a retrace. Pass it as an argument",
        "Found 1 warning.",
    ]


_OPTIMIZER = """
import jax
import optax

task = make_task(1)
opt = optax.sgd(0.1)


@jax.jit
def update(params, state, batch):
    grads = jax.grad(task.loss)(params, batch)
    updates, state = opt.update(grads, state, params)
    return optax.apply_updates(params, updates), state


params = task.init(jax.random.key(0))
state = opt.init(params)
params, state = update(params, state, task.batch())


class Momentum:
    def update(self, state, grads, loss):
        return state


opt = Momentum()
opt.update(state, {"a": -1.0}, 1.0)
task = make_task(2)
state = opt.update(state, {"a": 1.0}, 2.0)
"""


def test_a_method_of_the_same_name_and_an_optimizer_update_are_no_use_nor_change(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "part1.py", _OPTIMIZER)
    assert _check("part1.py") == ["All checks passed!"]
    # an optimizer's update between two calls changes nothing it read
    _write(tmp_path / "pure.py", """
        import jax
        import optax

        opt = optax.sgd(0.1)


        @jax.jit
        def step(params, state, grads):
            updates, state = opt.update(grads, state, params)
            return optax.apply_updates(params, updates), state


        params = jax.numpy.ones(3)
        state = opt.init(params)
        params, state = step(params, state, params)
        upd, _ = opt.update(params, state, params)
        params, state = step(params, state, params)
        """)
    assert _check("pure.py") == ["All checks passed!"]


def test_a_dict_updated_and_a_global_rebound_between_two_calls_are_still_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "part1.py", _OPTIMIZER + "params, state = update(params, state, task.batch())\n")
    _write(tmp_path / "cfg.py", """
        import jax

        cfg = load_config()


        @jax.jit
        def scale(x):
            return x * cfg["scale"]


        print(scale(1.0))
        cfg.update({"scale": 2.0})
        print(scale(1.0))
        """)
    assert _check("part1.py", "cfg.py") == [
        "cfg.py:8:16: JAX405 `cfg` is a module global that changes in place (`cfg.update(...)`) (line 12) "
        "between two calls of `scale`: under jit its value is read once, at trace time, and baked into the "
        "compiled function, so the later calls still use the old value until a retrace. Pass it as an argument",
        "part1.py:10:22: JAX405 `task` is a module global that is reassigned (line 27) after `update` is "
        "defined: under jit its value is read once, at trace time, and baked into the compiled function, so "
        "later assignments are ignored until a retrace. Pass it as an argument",
        "part1.py:11:22: JAX405 `opt` is a module global that is reassigned (line 25) after `update` is "
        "defined: under jit its value is read once, at trace time, and baked into the compiled function, so "
        "later assignments are ignored until a retrace. Pass it as an argument",
        "Found 3 warnings.",
    ]


# --- JAX301: evaluation mode, one element, test cases apart ---------------------------

_EVAL = """
import jax
import flax.linen as nn


class Model(nn.Module):
    @nn.compact
    def __call__(self, x, is_training: bool):
        return nn.Dropout(0.1, deterministic=not is_training)(nn.Dense(4)(x))


def saliency(forward, x, rng):
    return forward(x, rngs={{"dropout": rng}}, is_training={mode})


def restore(params, texts, model):
    rng = jax.random.PRNGKey(0)  # dummy, no randomness in the model
    forward = lambda x, **kw: model.apply(params, x, **kw)
    out = []
    for x in texts:
        out.append(saliency(forward, x, rng))
    return out


def evaluate(params, texts, model):
    rng = jax.random.PRNGKey(0)
    return [model.apply(params, x, deterministic={det}, rngs={{"dropout": rng}}) for x in texts]
"""


def test_the_dropout_stream_in_evaluation_mode_draws_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "ev.py", _EVAL.format(mode="False", det="True"))
    assert _check("ev.py") == ["All checks passed!"]


def test_the_dropout_stream_in_training_mode_is_still_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "ev.py", _EVAL.format(mode="True", det="False"))
    assert _check("ev.py") == [
        "ev.py:20:20: JAX301 `rng` is consumed by `rngs=` via `saliency` inside a loop but never replaced, so "
        "every iteration draws the same random numbers. Split a new key each iteration (`rng, sub = "
        "jax.random.split(rng)`) or use `jax.random.fold_in(rng, i)`",
        "ev.py:26:13: JAX301 `rng` is consumed by `model.apply(rngs=...)` inside a comprehension but never "
        "replaced, so every iteration draws the same random numbers. Split a new key each iteration (`rng, "
        "sub = jax.random.split(rng)`) or use `jax.random.fold_in(rng, i)`",
        "Found 2 errors.",
    ]


_ONCE = """
import jax


def benchmark(sizes_arg):
    rngkey = jax.random.PRNGKey(0)
    arr_sizes = {sizes}
    arrs = [jax.random.normal(rngkey, (n,)) for n in arr_sizes]
    for n in ({loop}):
        arrs.append(jax.random.uniform(rngkey, (n,)))
    return arrs
"""


def test_one_element_draws_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "b.py", _ONCE.format(sizes="[256 * 1024 * 1024]", loop="1024,"))
    assert _check("b.py") == [
        # the two draws of one key, each run once, still count against each other
        "b.py:9:21: JAX301 `rngkey` was already consumed by `random.normal` on line 7: both calls get the "
        "same random bits. Split it first, e.g. `k1, k2 = jax.random.split(rngkey)`, and give each call its "
        "own key",
        "Found 1 error.",
    ]


def test_two_elements_are_still_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "b.py", _ONCE.format(sizes="[1024, 2048]", loop="1024, 2048"))
    assert _check("b.py") == [
        "b.py:7:13: JAX301 `rngkey` is consumed by `random.normal` inside a comprehension but never replaced, "
        "so every iteration draws the same random numbers. Split a new key each iteration (`rngkey, sub = "
        "jax.random.split(rngkey)`) or use `jax.random.fold_in(rngkey, i)`",
        "b.py:9:21: JAX301 `rngkey` was already consumed by `random.normal` on line 7: both calls get the "
        "same random bits. Split it first, e.g. `k1, k2 = jax.random.split(rngkey)`, and give each call its "
        "own key",
        "Found 2 errors.",
    ]


_CASES = """
import jax
import jax.numpy as jnp
import numpy as np
from absl.testing import absltest

from pkg import stepfun


def _sample(key, lo, hi):
    return jax.random.uniform(key, (64,), minval=lo, maxval=hi)


class StepfunTest(absltest.TestCase):
    def test_sample_single_bin(self):
        key = jax.random.PRNGKey(0)
        bins = jnp.array([0, 1, 3, 6, 10], jnp.float32)
        for i in range(len(bins) - 1):
            weights = np.zeros(len(bins) - 1, np.float32)
            weights[i] = 1.0
            samples = stepfun.sample(key, bins[None], jnp.log(weights[None]), 625)[0]
            self.assertTrue(jnp.all(samples >= bins[i]))


def test_bins():
    key = jax.random.PRNGKey(1)
    results = []
    for lo, hi in zip(np.arange(3.0), np.arange(1.0, 4.0)):
        s = _sample(key, lo, hi)
        results.append(s.mean())
        assert float(s.min()) >= lo
    np.testing.assert_allclose(np.array(results), np.arange(3.0) + 0.5, atol=0.1)
"""


def test_test_loops_whose_iterations_keep_their_draws_to_themselves(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "pkg" / "__init__.py", "")
    _write(tmp_path / "pkg" / "stepfun.py", """
        import jax
        import jax.numpy as jnp


        def sample(key, t, w_logits, n):
            u = jax.random.uniform(key, t.shape[:-1] + (n,))
            return jnp.take_along_axis(t, jnp.argmax(w_logits, -1)[..., None], -1) + u
        """)
    _write(tmp_path / "tests" / "stepfun_test.py", _CASES)
    assert _check(".") == ["All checks passed!"]


def test_test_loops_that_keep_their_draws_or_draw_alike_are_still_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "pkg" / "__init__.py", "")
    _write(tmp_path / "pkg" / "stepfun.py", "import jax\n\n\ndef sample(key, t, w, n):\n"
                                            "    return jax.random.uniform(key, t.shape[:-1] + (n,))\n")
    # state carried from one iteration to the next; a draw given only a size of the iteration
    _write(tmp_path / "tests" / "stepfun_test.py", _CASES.replace(
        "            self.assertTrue(jnp.all(samples >= bins[i]))\n",
        "            self.assertTrue(jnp.all(samples >= bins[i]))\n            total = total + samples.sum()\n")
        .replace("        bins = jnp.array(", "        total = 0.0\n        bins = jnp.array(")
        .replace("        s = _sample(key, lo, hi)\n", "        s = _sample(key, 0.0, hi.size)\n"))
    assert _check(".") == [
        "tests/stepfun_test.py:21:23: JAX301 `key` is consumed by `random.uniform` via `stepfun.sample` inside "
        "a loop but never replaced, so every iteration draws the same random numbers. Split a new key each "
        "iteration (`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`",
        "tests/stepfun_test.py:30:13: JAX301 `key` is consumed by `random.uniform` via `_sample` inside a loop "
        "but never replaced, so every iteration draws the same random numbers. Split a new key each iteration "
        "(`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`",
        "Found 2 errors.",
    ]


# --- JAX120: a test that differentiates nothing ----------------------------------------

_SAFE_DIV = """
import jax
import jax.numpy as jnp
from absl.testing import absltest


class LanczosTest(absltest.TestCase):
    def _check_once(self, seed=0):
        def _safe_div(x1, x2):
            return jnp.where(jnp.logical_and(x1 == 0, x2 == 0), x1, x1 / x2)

        h = jax.random.normal(jax.random.PRNGKey(seed), (5, 5))
        self.assertTrue(bool(jnp.isfinite(_safe_div(h, h.T)).all())){extra}

    def test_lanczos(self):
        for i in range(3):
            self._check_once(seed=i)


def test_ratio():
    x = jnp.arange(3.0)
    r = jnp.where(x == 0, 0.0, 1.0 / x)
    assert bool(jnp.isfinite(r).all())
"""


def test_a_where_in_a_test_that_differentiates_nothing_is_quiet(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "sdp_verify_test.py", _SAFE_DIV.format(extra=""))
    assert _check("sdp_verify_test.py", "--select", "JAX120") == ["All checks passed!"]


def test_a_where_in_a_test_that_differentiates_it_is_still_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "sdp_verify_test.py", _SAFE_DIV.format(
        extra="\n        g = jax.grad(lambda b: _safe_div(1.0, b))(0.0)"))
    # ... and the same function outside a test module: a library others differentiate
    _write(tmp_path / "ratios.py", _SAFE_DIV.format(extra="").split("\n\ndef test_ratio")[0]
           + "\n\n\ndef ratio(x):\n    return jnp.where(x == 0, 0.0, 1.0 / x)\n")
    assert _check("sdp_verify_test.py", "ratios.py", "--select", "JAX120") == [
        "ratios.py:21:35: JAX120 `1.0 / x` is computed for every element, also where `x == 0` is true and masks "
        "it out; its derivative is infinite/NaN where `x` is 0, so the gradient of this `where` is NaN (0 * inf). Guard "
        "`x` with the same condition too (double where: `jnp.where(cond, x, 1.0)` inside)",
        "sdp_verify_test.py:9:69: JAX120 `x1 / x2` is computed for every element, also where "
        "`jnp.logical_and(x1 == 0, x2 == 0)` is true and masks it out; its derivative is infinite/NaN where `x2` is 0, "
        "so the gradient of this `where` is NaN (0 * inf). Guard `x2` with the same condition too (double "
        "where: `jnp.where(cond, x2, 1.0)` inside)",
        "Found 2 warnings (2 fixable with --unsafe-fixes).",
    ]
