"""Timing misses by mechanism (issue 22, branch keyI): a ``with`` block timed by a
context manager whose exit reads the clock (recall case 411: a ``Timer`` class whose
``__enter__``/``__exit__`` read ``time.perf_counter()``, around ``[f() for ...]`` of a
jitted ``f``).  The exit's clock read closes the interval like a second
``time.perf_counter()`` after the block: JAX work started in the block and not waited for
is dispatch timed.

Instances gathered from git histories before the mechanism was built (each test names
its commit); an INVALID tree is the shape of the commit's code with the wait taken out
(or, for the fix commits, the code before them), its VALID twin the code as committed.
The timers only have to run: what differs is the time measured (a 2000x2000 matmul on
CPU: 0.13 ms without blocking against 230 ms with it, jax 0.10.2, JAX505's own figure)."""

from __future__ import annotations

from tests.project_files import lint_files

MSG = (
    "`{call}` is the last JAX computation in the block timed by `with {start}` (line {line}), whose "
    "exit reads the clock while the computation may still be running (dispatch is asynchronous): this "
    "measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result "
    "inside the block: `jax.block_until_ready(result)`"
)

# https://github.com/Joshuaalbert/jaxns/commit/c8183bff994be331649917323c22a12e0ebfd717
# (benchmarks/difficult_problems/main.py: a Timer class reading monotonic_ns on entry and
# printing the difference on exit, around an ahead-of-time compiled sampler)
JAXNS = """\
from time import monotonic_ns

import jax
import jax.numpy as jnp


class Timer:
    def __enter__(self):
        self.t0 = monotonic_ns()

    def __exit__(self, exc_type, exc_val, exc_tb):
        print(f"Time to execute: {(monotonic_ns() - self.t0) / 1e9} seconds.")


def ns(key):
    return jnp.cumsum(jax.random.normal(key, (1000, 100)), axis=0)


def main():
    ns_jit = jax.jit(lambda key: ns(key))
    ns_compiled = ns_jit.lower(jax.random.PRNGKey(42)).compile()
    with Timer():
        state = ns_compiled(jax.random.PRNGKey(42))
    return state
"""

JAXNS_OK = JAXNS.replace(
    "        state = ns_compiled(jax.random.PRNGKey(42))\n",
    "        state = ns_compiled(jax.random.PRNGKey(42))\n        state.block_until_ready()\n",
)

# https://github.com/google/maxtext/commit/c4a7d463ba4ff48a5d8ed030d0e92866a640f11e
# (MaxText/inference_mlperf/offline_mode.py: a contextlib.contextmanager `timed` logging
# perf_counter around its yield; the warm-up it times is the engines' own, unknown here)
MAXTEXT = """\
import contextlib
import logging
import time

import jax
import jax.numpy as jnp

log = logging.getLogger(__name__)


@contextlib.contextmanager
def timed(msg):
  log.info(msg + " start")
  start = time.perf_counter()
  yield
  end = time.perf_counter()
  log.info(msg + " done: " + str(end - start))


@jax.jit
def prefill(params, tokens):
  return jnp.tanh(tokens @ params)


def warmup(params, batches):
  with timed("warmup"):
    for tokens in batches:
      logits = prefill(params, tokens)
  return logits
"""

MAXTEXT_OK = MAXTEXT.replace("      logits = prefill(params, tokens)\n",
                             "      logits = prefill(params, tokens).block_until_ready()\n")

# the engines of the commit's own warm-up: unknown calls, which may wait
MAXTEXT_ENGINES = """\
import contextlib
import gc
import time


@contextlib.contextmanager
def timed(msg):
  print(msg + " start")
  start = time.perf_counter()
  yield
  end = time.perf_counter()
  print(msg + " done: " + str(end - start))


def warm_up(length_and_batch, engines, warmup_samples):
  with timed("warmup"):
    for (length, _), engine in zip(length_and_batch, engines):
      engine.init_decode_state()
      engine.warmup(length, warmup_samples[length])
      engine.decode_state = None
      gc.collect()
"""

# https://github.com/Toni-SM/skrl/commit/a2651a4053d952ace794e3037fe2fa0fc999b715
# (skrl.utils.ScopedTimer: time.time() in __enter__ and __exit__; the agents time their
# update with it).  Here in the agent's own module, and, as skrl has it, in another one.
SKRL_TIMER = """\
import time


class ScopedTimer:
    \"\"\"Scoped timer that can be used to time the execution of a block of code.\"\"\"

    def __enter__(self):
        self._elapsed_time = None
        self._start_time = time.time()
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self._elapsed_time = time.time() - self._start_time

    @property
    def elapsed_time_ms(self) -> float:
        return self._elapsed_time * 1000
"""

SKRL_AGENT_BODY = """\


@jax.jit
def _update_q(params, batch):
    return jax.tree.map(lambda p: p - 0.01 * jnp.mean(batch) * p, params)


class DDQN:
    def __init__(self, params):
        self.params = params
        self.tracking = {}

    def post_interaction(self, batch):
        with ScopedTimer() as timer:
            self.params = _update_q(self.params, batch)
        self.tracking["Stats / Algorithm update time (ms)"] = timer.elapsed_time_ms
"""

SKRL_AGENT = "import jax\nimport jax.numpy as jnp\n" + SKRL_TIMER + SKRL_AGENT_BODY
SKRL_AGENT_OK = SKRL_AGENT.replace(
    "            self.params = _update_q(self.params, batch)\n",
    "            self.params = jax.block_until_ready(_update_q(self.params, batch))\n",
)
SKRL_IMPORTED = "import jax\nimport jax.numpy as jnp\n\nfrom agents.utils import ScopedTimer\n" + SKRL_AGENT_BODY

# https://github.com/QuantEcon/lecture-jax/commit/a4722af8fca2b30716a53979fe38fabc24855bd4
# (lectures/kesten_processes.md: `with qe.Timer():` around a jitted simulation; the commit
# waits for it): quantecon's Timer is a library's, unknown here
QE = """\
import jax
import jax.numpy as jnp
import quantecon as qe


@jax.jit
def generate_cross_section(mu, sigma):
    return jnp.cumsum(jnp.exp(mu + sigma * jnp.ones((1000, 500))), axis=0)


with qe.Timer():
    data = generate_cross_section(0.1, 0.2)
"""

# https://github.com/netket/netket/commit/738d2c3131d8959f4ac738edb31d0e998785152a
# (netket/utils/timing.py: timed_scope, a contextmanager that yields inside `with timer:`
# of a Timer class reading perf_counter in __enter__/__exit__)
NETKET = """\
import contextlib
import time

import jax
import jax.numpy as jnp


class Timer:
    def __init__(self):
        self.total = 0.0
        self._start_time = 0.0

    def __enter__(self):
        self._start_time = time.perf_counter()
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.total += time.perf_counter() - self._start_time


@contextlib.contextmanager
def timed_scope(name=None):
    timer = Timer()
    with timer:
        yield timer


@jax.jit
def estimate(x):
    return jnp.mean(jnp.tanh(x @ x.T))


def run(x):
    with timed_scope("estimate") as timer:
        e = estimate(x)
    return e, timer.total
"""


def test_timer_class_exit_reads_the_clock(tmp_path, monkeypatch):
    got = lint_files(tmp_path, monkeypatch, {"bench/main.py": JAXNS}, select="JAX505")
    assert got == [
        ("JAX505", "bench/main.py", 23, 17,
         MSG.format(call="ns_compiled(jax.random.PRNGKey(42))", start="Timer()", line=22)),
    ]
    assert lint_files(tmp_path, monkeypatch, {"bench/main.py": JAXNS_OK}, select="JAX505") == []


def test_contextmanager_timer_reads_the_clock_after_its_yield(tmp_path, monkeypatch):
    got = lint_files(tmp_path, monkeypatch, {"inference/offline.py": MAXTEXT}, select="JAX505")
    assert got == [
        ("JAX505", "inference/offline.py", 28, 16,
         MSG.format(call="prefill(params, tokens)", start='timed("warmup")', line=26)),
    ]
    assert lint_files(tmp_path, monkeypatch, {"inference/offline.py": MAXTEXT_OK}, select="JAX505") == []
    # unknown calls in the block may wait: silent
    assert lint_files(tmp_path, monkeypatch, {"inference/offline.py": MAXTEXT_ENGINES}, select="JAX505") == []


def test_scoped_timer_around_a_jitted_update(tmp_path, monkeypatch):
    got = lint_files(tmp_path, monkeypatch, {"agents/ddqn.py": SKRL_AGENT}, select="JAX505")
    assert got == [
        ("JAX505", "agents/ddqn.py", 34, 27,
         MSG.format(call="_update_q(self.params, batch)", start="ScopedTimer()", line=33)),
    ]
    assert lint_files(tmp_path, monkeypatch, {"agents/ddqn.py": SKRL_AGENT_OK}, select="JAX505") == []


def test_timers_the_model_cannot_read_are_silent(tmp_path, monkeypatch):
    # a library's timer, and a contextmanager that yields inside another manager: unknown,
    # never reported
    files = {"lectures/kesten.py": QE, "vqs/timing.py": NETKET}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX505") == []


def test_timer_of_another_module(tmp_path, monkeypatch):
    # a timer of another module, whose file never names JAX (the prefilter skips it, its
    # summary still tells its timers: branch envB): the same block as SKRL_AGENT's
    files = {"agents/utils.py": SKRL_TIMER, "agents/ddqn.py": SKRL_IMPORTED}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX505") == [
        ("JAX505", "agents/ddqn.py", 19, 27,
         MSG.format(call="_update_q(self.params, batch)", start="ScopedTimer()", line=18)),
    ]


# Key reuse: a key made from a literal seed inside a body a lax loop runs step after step
# (recall case 421, coreax issue 375: `random.normal(random.key(0), x.shape)` in the
# fori_loop body over noise levels).  Every step runs the body with arguments of the same
# shapes, so a draw from that key shaped like them is the same draw at every step.
LOOP_MSG = (
    "`{made}` makes the same key at every step of the `{prim}` that runs `{body}` as its body, and "
    "`{how}` draws with the same arguments{shapes}, so every step draws the same random numbers. Carry a "
    "key and split it each step, or use `jax.random.fold_in(key, i)` with the step index"
)
SHAPES = " (shapes of the body's arguments, the same at every step)"

# a method bound with partial and given to fori_loop (the shape of case 421)
SCORE = """\
from functools import partial

import jax
import jax.numpy as jnp
from jax import random


class NoiseConditional:
    def __init__(self, levels):
        self.levels = levels

    def _loop_body(self, i, obj, x, sigmas):
        x_noisy = x + sigmas[i] * random.normal(random.key(0), x.shape)
        return obj + jnp.mean(x_noisy ** 2)

    def objective(self, x, sigmas):
        body = partial(self._loop_body, x=x, sigmas=sigmas)
        return jax.lax.fori_loop(0, self.levels, body, 0.0)
"""

SCORE_OK = """\
from functools import partial

import jax
import jax.numpy as jnp
from jax import random


class NoiseConditional:
    def __init__(self, levels):
        self.levels = levels

    def _loop_body(self, i, obj, x, sigmas, key):
        x_noisy = x + sigmas[i] * random.normal(random.fold_in(key, i), x.shape)
        return obj + jnp.mean(x_noisy ** 2)

    def objective(self, x, sigmas, key):
        body = partial(self._loop_body, x=x, sigmas=sigmas, key=key)
        return jax.lax.fori_loop(0, self.levels, body, 0.0)
"""

# a nested step function scanned over time, the key made with jax.random.PRNGKey
WALK = """\
import jax
import jax.numpy as jnp


def simulate(x0, n_steps):
    def step(x, _):
        key = jax.random.PRNGKey(42)
        noise = jax.random.uniform(key, x.shape, minval=-1.0, maxval=1.0)
        x = x + 0.1 * noise
        return x, x

    return jax.lax.scan(step, x0, None, length=n_steps)
"""

WALK_OK = """\
import jax
import jax.numpy as jnp


def simulate(x0, n_steps, key):
    def step(carry, _):
        x, key = carry
        key, sub = jax.random.split(key)
        noise = jax.random.uniform(sub, x.shape, minval=-1.0, maxval=1.0)
        x = x + 0.1 * noise
        return (x, key), x

    return jax.lax.scan(step, (x0, key), None, length=n_steps)
"""

# a fixed projection made once per step but never returned from the body: silent
PROJ_OK = """\
import jax
import jax.numpy as jnp


def iterate(x0, n_steps):
    def step(x, _):
        w = jax.random.normal(jax.random.PRNGKey(0), (4, 4))
        jax.debug.print("{}", w.sum())
        return x * 0.5, None

    return jax.lax.scan(step, x0, None, length=n_steps)
"""


def test_literal_seed_key_in_a_lax_loop_body(tmp_path, monkeypatch):
    got = lint_files(tmp_path, monkeypatch, {"sm/score.py": SCORE, "sm/walk.py": WALK}, select="JAX301")
    assert got == [
        ("JAX301", "sm/score.py", 13, 35,
         LOOP_MSG.format(made="random.key(0)", prim="lax.fori_loop", body="_loop_body", how="random.normal",
                         shapes=SHAPES)),
        ("JAX301", "sm/walk.py", 8, 17,
         "`key` is made from the same seed (`jax.random.PRNGKey(42)`, line 7) at every step of the `lax.scan` "
         "that runs `step` as its body, and `random.uniform` draws with the same arguments" + SHAPES
         + ", so every step draws the same random numbers. Carry a key and split it each step, or use "
         "`jax.random.fold_in(key, i)` with the step index"),
    ]
    files = {"sm/score.py": SCORE_OK, "sm/walk.py": WALK_OK, "sm/proj.py": PROJ_OK}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX301") == []
