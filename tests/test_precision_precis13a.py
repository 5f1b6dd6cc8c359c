"""False findings on fresh set 13 (init2winit, l2p, nested-transformer, spherical-cnn,
fedjax, serket, swirl-dynamics), each fixed in the model, with the false shape written
two ways (VALID: silent) and its INVALID twins, still reported.

* JAX401: a `logging` call (stdlib, absl, a logger) in traced code that logs the traced
  function's own parameters, as given, with `%s`/`%r` or a plain f-string field
  (``logging.info("train_step(batch=%s)", batch)``): a deliberate trace-time log of the
  shapes each compilation is made for.  A value computed in the body, a parameter
  rebound first, a loop body's carry, and a tracer formatted as a number (`%d`, `%f`:
  logging writes ``--- Logging error ---``; an f-string spec raises) are still reported;
* JAX301: a split replayed to take the other key of the same pair
  (``split(k)[1]`` then ``split(split(k)[0])[1]``: fedjax's tests);
* JAX405: a global rebound to an equal object (``optim = optax.adam(1e-4)`` in each cell);
* JAX505: an f-string that formats the step's result before it reads the clock;
* JAX501: a notebook's function that the notebook calls once, outside loops.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

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


# --- JAX401: a trace-time log of the traced function's own inputs --------------------

def test_a_log_of_the_traced_functions_own_inputs_is_a_trace_time_log(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # pmap through absl's logging; a helper the step calls (a concatenated format); a
    # jitted function through a logger's f-string and an eager `%`
    _write(tmp_path / "steps.py", """
        import functools
        import logging

        import jax
        import jax.numpy as jnp
        from absl import logging as alog


        def get_learning_rate(step, *, base, warmup=5):
            logging.info(("get_learning_rate(step=%s, "
                          "base=%s)"), step, base)
            return base * jnp.minimum(1.0, step / warmup)


        @functools.partial(jax.pmap, axis_name="batch")
        def train_step(state, batch):
            alog.info("train_step(batch=%s)", batch)
            lr = get_learning_rate(state, base=0.1)
            return state - lr * jnp.mean(batch)


        @jax.jit
        def eval_step(params, batch):
            logger = logging.getLogger(__name__)
            logger.info(f"eval_step(params={params!r}, batch={batch})")
            logging.info("eval_step(%s)" % (batch,))
            return jnp.mean(params * batch)
        """)
    assert _check("steps.py") == ["All checks passed!"]


def test_logs_of_computed_values_and_numbers_are_still_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "train.py", """
        import logging

        import jax
        import jax.numpy as jnp
        from absl import logging as alog


        @jax.jit
        def train_step(state, batch):
            batch = batch / 255.0
            alog.info("train_step(batch=%s)", batch)
            loss = jnp.mean((state - batch) ** 2)
            logging.info("loss %s", loss)
            logging.info("step %d of %s", state, batch)
            alog.info("lr %.3f", state)
            logging.info(f"state {state:.2f}")
            return loss


        def body(carry, x):
            logging.info("carry %s", carry)
            return carry + x, x


        out = jax.lax.scan(body, 0.0, jnp.ones(3))
        """)
    logs = ("runs once, at trace time, and logs a tracer (e.g. `JitTracer(float32[])`), not the values; later "
            "calls log nothing. Return the value and log it outside, or log from the device with "
            "`jax.debug.callback(lambda v: {0}(\"%s\", v), x)`")
    number = ("formats the tracer `state` with `%{0}` while JAX traces it: a tracer has no value to format, so "
              "this fails with {1} when the record is emitted, which logging catches and writes as `--- Logging error ---` instead of the "
              "line. Log it with `%s` (its shape and dtype), or the value with `jax.debug.print(\"{{}}\", x)`")
    assert _check("train.py") == [
        "train.py:11:5: JAX401 `alog.info` in traced `train_step` " + logs.format("alog.info"),
        "train.py:13:5: JAX401 `logging.info` in traced `train_step` " + logs.format("logging.info"),
        "train.py:14:5: JAX401 `logging.info` in `train_step` " + number.format(
            "d", "`TypeError: %d format: a real number is required, not DynamicJaxprTracer`"),
        "train.py:15:5: JAX401 `alog.info` in `train_step` " + number.format(
            "f", "`ConcretizationTypeError` (`float()` of a tracer)"),
        "train.py:16:5: JAX401 `logging.info` in `train_step` formats the tracer `state` with `:.2f` while JAX "
        "traces it: this raises `TypeError: unsupported format string passed to DynamicJaxprTracer.__format__` "
        "(a tracer has no value to format). Use `jax.debug.print(\"{:.2f}\", state)` to print the runtime value",
        "train.py:21:5: JAX401 `logging.info` in traced `body` " + logs.format("logging.info"),
        "Found 6 errors.",
    ]


# --- JAX301: keys shared on purpose ---------------------------------------------------

def test_a_replayed_split_handing_on_the_other_key_is_no_reuse(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "replay_test.py", """
        import jax
        import jax.random as jr


        def test_replays_the_split_chain():
            rng = jax.random.PRNGKey(0)
            first = jax.random.uniform(jax.random.split(rng)[1], [])
            second = jax.random.uniform(
                jax.random.split(jax.random.split(rng)[0])[1], [])
            key = jr.key(1)
            a = jr.normal(jr.split(key, 3)[0], (2,))
            b = jr.normal(jr.split(key, 3)[2], (2,))
            return first, second, a, b
        """)
    assert _check("replay_test.py") == ["All checks passed!"]


def test_a_replayed_split_handing_on_the_same_key_is_still_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "draws.py", """
        import jax
        import jax.random as jr


        def draws():
            rng = jax.random.PRNGKey(0)
            first = jax.random.uniform(jax.random.split(rng)[1], [])
            second = jax.random.uniform(jax.random.split(rng)[1], [])
            key = jr.key(1)
            a = jr.normal(jr.split(key, 3)[0], (2,))
            b = jr.normal(jr.split(key, 3)[0], (2,))
            return first, second, a, b
        """)
    assert _check("draws.py") == [
        "draws.py:8:33: JAX301 `rng` was already split on line 7; a split key must not be used again. Use the "
        "keys `split` returned (e.g. `rng, sub = jax.random.split(rng)` and pass `sub`)",
        "draws.py:11:19: JAX301 `key` was already split on line 10; a split key must not be used again. Use the "
        "keys `split` returned (e.g. `key, sub = jax.random.split(key)` and pass `sub`)",
        "Found 2 errors.",
    ]


_ROTATION = """
import jax


def rotate(x, rng):
    signs = jax.random.rademacher(rng, x.shape)
    return x * signs, x.shape


def unrotate(y, rng, shape):
    signs = jax.random.rademacher(rng, shape)
    return y * signs


def shuffle_rows(x, rng):
    return jax.random.permutation(rng, x)
"""


def test_two_helpers_given_one_key_and_other_data_are_still_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "rot" / "__init__.py", "")
    _write(tmp_path / "rot" / "rotation.py", _ROTATION)
    _write(tmp_path / "rot" / "shuffle_test.py", """
        import jax

        from rot import rotation


        def test_two_helpers_one_key():
            x = jax.random.normal(jax.random.PRNGKey(100), (5, 10))
            rng = jax.random.PRNGKey(10)
            y, shape = rotation.rotate(x, rng)
            z = rotation.shuffle_rows(x, rng)
            return y, z
        """)
    assert _check(".") == [
        "rot/shuffle_test.py:10:9: JAX301 `rng` was already consumed by `rotation.rotate()` on line 9: both calls "
        "get the same random bits. Split it first, e.g. `k1, k2 = jax.random.split(rng)`, and give each call its "
        "own key",
        "Found 1 error.",
    ]


# --- JAX405: a global rebound to an equal object -------------------------------------

_SCRIPT = """
import jax
import optax

tx = optax.sgd(0.1, momentum=0.9)


@jax.jit
def step(params, state, grads):
    updates, state = tx.update(grads, state)
    return optax.apply_updates(params, updates), state


params = jax.numpy.ones(3)
state = tx.init(params)
params, state = step(params, state, params)
tx = optax.sgd(LR, momentum=0.9)
state = tx.init(params)
params, state = step(params, state, params)
"""

_CELLS = ("""
import jax
import jax.numpy as jnp
import optax
""", """
@jax.jit
def train_step(net, optim_state, x):
    grad = jax.grad(lambda n: jnp.mean((n * x) ** 2))(net)
    updates, optim_state = optim.update(grad, optim_state)
    return optax.apply_updates(net, updates), optim_state
""", """
net = jnp.ones(2)
optim = optax.adam(1e-4)
optim_state = optim.init(net)
for i in range(10):
    net, optim_state = train_step(net, optim_state, jnp.ones(2))
""", """
net = jnp.ones(2)
optim = optax.adam(LR)
optim_state = optim.init(net)
for i in range(10):
    net, optim_state = train_step(net, optim_state, jnp.ones(2))
""")


def test_a_global_rebound_to_an_equal_object_is_not_stale(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "script.py", _SCRIPT.replace("LR", "0.1"))
    _notebook(tmp_path / "nb.ipynb", *(c.replace("LR", "1e-4") for c in _CELLS))
    assert _check("script.py", "nb.ipynb") == ["All checks passed!"]


def test_a_global_rebound_to_another_object_is_still_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "script.py", _SCRIPT.replace("LR", "0.01"))
    _notebook(tmp_path / "nb.ipynb", *(c.replace("LR", "1e-3") for c in _CELLS))
    assert _check("script.py", "nb.ipynb") == [
        "nb.ipynb:cell 2:4:28: JAX405 `optim` is a module global that is reassigned (line 2 of cell 4) after "
        "`train_step` is defined: under jit its value is read once, at trace time, and baked into the compiled "
        "function, so later assignments are ignored until a retrace. Pass it as an argument",
        "script.py:9:22: JAX405 `tx` is a module global that is reassigned (line 16) after `step` is defined: "
        "under jit its value is read once, at trace time, and baked into the compiled function, so later "
        "assignments are ignored until a retrace. Pass it as an argument",
        "Found 2 warnings.",
    ]


# --- JAX505: the result formatted before the clock is read ---------------------------

_TIMED = """
import time

import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    return w - 0.1 * loss, (loss, x)


def train(w, batches):
    for epoch in range(3):
        t0 = time.time()
        for x in batches:
            w, (loss, _) = train_step(w, x)
            print(FIRST)
        start = time.perf_counter()
        for x in batches:
            w, aux = train_step(w, x)
            print(SECOND)
    return w
"""


def test_an_fstring_formatting_the_result_before_the_clock_is_synchronized(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "timing.py", _TIMED.replace(
        "FIRST", 'f"epoch {epoch} loss {loss:.3e} time {time.time() - t0:.3f}"').replace(
        "SECOND", 'f"loss {aux[0]}", f"took {time.perf_counter() - start}"'))
    assert _check("timing.py") == ["All checks passed!"]


def test_the_clock_read_before_the_result_is_formatted_is_still_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "timing.py", _TIMED.replace(
        "FIRST", 'f"epoch {epoch} time {time.time() - t0:.3f} loss {loss:.3e}"').replace(
        "SECOND", 'f"epoch {epoch} {aux[0].shape}", f"took {time.perf_counter() - start}"'))
    tail = ("may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for "
            "the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`")
    assert _check("timing.py") == [
        f"timing.py:18:41: JAX505 `time.time()` is read while the JAX computation started on line 17 {tail}",
        f"timing.py:22:60: JAX505 `time.perf_counter()` is read while the JAX computation started on line 21 {tail}",
        "Found 2 warnings (2 fixable with --unsafe-fixes).",
    ]


# --- JAX501: a notebook's function called once ---------------------------------------

_NB = ("""
import functools
import jax
import jax.numpy as jnp
""", """
def plot_score(score, t, lo=-1.0, hi=1.0):
    @functools.partial(jax.jit, static_argnums=0)
    def _helper(score, t, lo, hi):
        x = jnp.linspace(lo, hi, 32)
        return score(x, t)

    return _helper(score, t, lo, hi)
""", """
def heat(positions):
    produce = jax.jit(lambda p: jnp.exp(-jnp.sum(p ** 2, axis=-1)))
    return produce(positions)
""", """
grid = plot_score(lambda x, t: x * t, 0.5)
""", """
h = heat(jnp.ones((50, 2)))
""")


def test_a_notebook_function_called_once_compiles_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _notebook(tmp_path / "nb.ipynb", *_NB)
    assert _check("nb.ipynb") == ["All checks passed!"]


def test_a_notebook_function_called_again_is_still_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _notebook(tmp_path / "nb.ipynb", *_NB, """
        grid2 = plot_score(lambda x, t: x * t, 0.1)
        """, """
        for p in (jnp.ones((5, 2)), jnp.zeros((5, 2))):
            h = heat(p)
        """)
    assert _check("nb.ipynb") == [
        "nb.ipynb:cell 2:2:6: JAX501 `jit` of the inner function `_helper` defined in `plot_score` compiles again "
        "on every call of `plot_score`: jit caches per function object and `plot_score` builds a new one each "
        "time. Build it once: at module level, in a builder cached with `functools.cache`, or jit `plot_score` "
        "itself; and pass the varying values as arguments",
        "nb.ipynb:cell 3:2:15: JAX501 `jit` of a `lambda` compiles again on every call of `heat`: jit caches per "
        "function object and `heat` builds a new one each time. Build it once: at module level, in a builder "
        "cached with `functools.cache`, or jit `heat` itself; and pass the varying values as arguments",
        "Found 2 warnings.",
    ]
