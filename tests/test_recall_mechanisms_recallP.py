"""Batch 7's state, mutation, recompilation and impure-call misses by mechanism (issue 22,
branch recallP).  Python state that outlives a trace written from traced code: an item or
attribute of something `self` holds (`self._logger.metrics["loss"] = loss`,
`self.stats["n"] += 1`), and an item of a list the enclosing function was given
(`tot[0] += x`, the list passed by a call of this module or of another one); a function
jitted anew per call of its enclosing function and handed at once to a transformation
(`eqx.filter_value_and_grad(loss_fn)(...)`, `jax.grad(energy)(w)`); profiler annotations
given a traced value in traced code.  Each INVALID line was run with JAX 0.10.2 (equinox in
the .venv) and does what the message says (the counter advances once for three calls, the
stored value is a tracer, the inner function compiles at every call, the annotation is
entered once with the tracer's text); each VALID twin stays silent."""

from __future__ import annotations

from project_files import lint_files


_lint = lint_files


# --------------------------------------------------------------------------- self-held state
HELD_AGENT = """\
import jax.numpy as jnp


class Logger:
    def __init__(self):
        self.metrics = {"steps": 0, "loss": 0.0}


class Agent:
    def __init__(self, epochs=2):
        self._logger = Logger()
        self._epochs = epochs
        self.history = {"shape": None}

    def update(self, x):
        loss = jnp.sum(x ** 2)
        self._logger.metrics["steps"] += self._epochs
        self._logger.metrics["loss"] = loss
        self.history["shape"] = x.shape
        return x - 0.1 * loss
"""

HELD_MAIN = """\
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

from pkg.agent import Agent


class Counts:
    calls = 0


class Model:
    def __init__(self):
        self.counts = Counts()
        self.cache = {}
        self.buffer = jnp.zeros(3)

    @partial(jax.jit, static_argnums=0)
    def step(self, x):
        self.counts.calls = self.counts.calls + 1
        self.cache["last"] = jnp.tanh(x)
        self.cache["n"] = x.shape[0]
        return x

    def rollout(self, xs):
        def body(c, x):
            self.cache["carry"] += x
            return c + x, None
        return lax.scan(body, 0.0, xs)[0]


agent = Agent()
fast_update = jax.jit(agent.update)
model = Model()
total = jax.jit(model.rollout)(jnp.ones(3))
"""

HELD_VALID = """\
from functools import partial

import flax.linen as nn
import jax
import jax.numpy as jnp


class Scratch:
    def __init__(self, x):
        self.parts = {"x": x}

    def grow(self, y):
        self.parts["y"] = y * 2
        return self.parts["x"] + self.parts["y"]


@jax.jit
def local_object(x):
    s = Scratch(x)
    return s.grow(x)


class Block(nn.Module):
    def setup(self):
        self.dense = nn.Dense(3)

    def __call__(self, x):
        return self.dense(x)


class Eager:
    def __init__(self):
        self.stats = {"n": 0, "loss": 0.0}

    def update(self, x):
        self.stats["n"] += 1
        self.stats["loss"] = jnp.sum(x)
        return x


class Stateless:
    def __init__(self):
        self.widths = {"in": 3}

    def __hash__(self):
        return 0

    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        n = self.widths["in"]
        return x[:n] * 2, {"loss": jnp.sum(x)}


class RefStats:
    def __init__(self):
        self.mean = jax.new_ref(jnp.zeros(3))

    def update(self, x):
        self.mean[...] = x * 2
        return x


e = Eager()
e.update(jnp.ones(3))
y = Stateless().apply(jnp.ones(4))
stats = RefStats()
z = jax.jit(stats.update)(jnp.ones(3))
"""


def _held(what: str, method: str, why: str) -> str:
    return (f"`{what}` is assigned inside traced method `{method}`: it is held by `self`, which outlives "
            f"the trace; {why}. Return the value (or the new state) and store it outside")


_ONCE = "the update runs once, at trace time: compiled calls never repeat it"
_STORES = ("it stores a tracer in the object (UnexpectedTracerError when read later), and compiled calls "
           "never repeat it")


def test_writes_into_state_held_by_self(tmp_path, monkeypatch):
    """A traced method (jit of a bound method here and in another module, a jitted method
    with `self` static, a scan body defined in a method) writes an item or attribute of an
    object or container `self` holds: a counter bumped once per trace, a tracer stored.
    Static values stored (`x.shape`), the array attribute's item (JAX101's), an object the
    trace builds itself, a flax module, an eager method, a method that only reads, and a
    Ref the object holds (`self.mean[...] = v`, written per call by design) stay silent."""
    found = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/agent.py": HELD_AGENT,
                                          "main.py": HELD_MAIN, "valid.py": HELD_VALID})
    assert found == [
        ("JAX403", "main.py", 22, 9, _held("self.counts.calls", "step", _ONCE)),
        ("JAX403", "main.py", 23, 9, _held('self.cache["last"]', "step", _STORES)),
        ("JAX403", "main.py", 29, 13, _held('self.cache["carry"]', "body", _STORES)),
        ("JAX403", "pkg/agent.py", 17, 9, _held('self._logger.metrics["steps"]', "update", _ONCE)),
        ("JAX403", "pkg/agent.py", 18, 9, _held('self._logger.metrics["loss"]', "update", _STORES)),
    ]


# --------------------------------------------------------------------------- a captured list
LIST_COUNTERS = """\
import jax
from jax import lax


def make_counter(acc):
    def body(carry, x):
        acc[0] += x
        return carry + x, None

    def run(xs):
        return lax.scan(body, 0.0, xs)[0]

    return run


def make_summer(box):
    @jax.jit
    def add(x):
        box[0] = box[0] + x
        return box[0]

    return add
"""

LIST_MAIN = """\
import jax
import jax.numpy as jnp

from pkg.counters import make_counter, make_summer


def foo(tot):
    @jax.jit
    def increment(x):
        tot[0] += x
        return tot[0]
    return increment


def returned(start):
    @jax.jit
    def increment(total, x):
        return total + x
    return increment


def local():
    @jax.jit
    def f(x):
        acc = [0.0]
        acc[0] += x
        return acc[0]
    return f


def arrays(buf):
    @jax.jit
    def f(x):
        return buf[0] + x
    return f


inc = foo([0.0])
plus = returned([0.0])
run = make_counter([0.0])
add = make_summer([1.0])
g = local()
h = arrays(jnp.zeros(2))
print(inc(1.0), plus(0.0, 1.0), run(jnp.ones(3)), add(2.0), g(1.0), h(1.0))
"""


def _outer(name: str, fn: str) -> str:
    return (f"`{name}` lives outside the trace of `{fn}`: storing a traced value in it leaks the tracer "
            "(using it later raises UnexpectedTracerError, or ConcretizationTypeError from `float()`/`bool()`), "
            "and cached calls do not store anything. "
            "Return the value instead")


def test_traced_value_added_into_a_list_the_caller_passed(tmp_path, monkeypatch):
    """`tot[0] += x` (and `box[0] = box[0] + x`) in a jitted closure or a scan body, `tot`
    a parameter of the enclosing function that every call gives a list display (`foo([0.])`,
    here and from another module): the item becomes a tracer kept after the trace.  The
    returned total, a list built inside the trace and a parameter given an array stay
    silent."""
    found = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/counters.py": LIST_COUNTERS,
                                          "main.py": LIST_MAIN})
    assert found == [
        ("JAX404", "main.py", 10, 9, _outer("tot", "increment")),
        ("JAX404", "pkg/counters.py", 7, 9, _outer("acc", "body")),
        ("JAX404", "pkg/counters.py", 19, 9, _outer("box", "add")),
    ]


# --------------------------------------------------------------------------- jit handed to a transformation
HANDED = """\
import equinox as eqx
import jax
import jax.numpy as jnp


def train(params, x):
    @eqx.filter_jit
    def loss_fn(p, v):
        return jnp.sum((p * v) ** 2)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(params, x)
    return params - 0.1 * grads, loss


def fit(w, xs):
    @jax.jit
    def energy(w, x):
        return jnp.sum(jnp.sin(w * x))

    return jax.grad(energy)(w, xs)


@jax.jit
def energy_once(w, x):
    return jnp.sum(jnp.sin(w * x))


def fit_once(w, xs):
    return jax.grad(energy_once)(w, xs)


@jax.jit
def traced_fit(w, xs):
    @jax.jit
    def energy(w, x):
        return jnp.sum(jnp.sin(w * x))

    return jax.grad(energy)(w, xs)


def sweep(w, xs, n):
    @jax.jit
    def energy(w, x):
        return jnp.sum(jnp.sin(w * x))

    for _ in range(n):
        w = w - jax.grad(energy)(w, xs)
    return w


p = jnp.ones(3)
for _ in range(3):
    p, loss = train(p, jnp.ones(3))
    g = fit(p, jnp.ones(3))
    g = fit_once(p, jnp.ones(3))
    g = traced_fit(p, jnp.ones(3))
    p = sweep(p, jnp.ones(3), 5)
"""


def test_inner_jit_handed_to_a_transformation_per_call(tmp_path, monkeypatch):
    """An inner function jitted anew at each call of its function and handed at once to
    `eqx.filter_value_and_grad(...)(...)` / `jax.grad(...)(...)`: traced and compiled again
    at every call (6 and 9 compilations for three calls, JAX_LOG_COMPILES).  A module-level
    jit, an enclosing function that is itself jitted, and a function whose loop reuses the
    one compile stay silent."""
    found = _lint(tmp_path, monkeypatch, {"main.py": HANDED})
    assert found == [
        ("JAX501", "main.py", 7, 6,
         "`filter_jit` of the inner function `loss_fn` defined in `train` compiles again on every call of "
         "`train`: jit caches per function object and `train` builds a new one each time. Build it once: at "
         "module level, in a builder cached with `functools.cache`, or jit `train` itself; and pass the "
         "varying values as arguments"),
        ("JAX501", "main.py", 16, 6,
         "`jit` of the inner function `energy` defined in `fit` compiles again on every call of `fit`: jit "
         "caches per function object and `fit` builds a new one each time. Build it once: at module level, in "
         "a builder cached with `functools.cache`, or jit `fit` itself; and pass the varying values as "
         "arguments"),
    ]


# --------------------------------------------------------------------------- profiler annotations
ANNOTATED = """\
from functools import partial

import jax
import jax.numpy as jnp
from jax.profiler import TraceAnnotation as TA


@partial(jax.profiler.annotate_function, name="body function")
def body_func(i, val):
    with jax.profiler.StepTraceAnnotation("body function step", step_num=i):
        return val * (i + 1)


@jax.jit
def step(state, step_no):
    with TA(f"train step {step_no}"):
        return state * 2


@jax.jit
def named(state):
    with TA("forward"), jax.named_scope("forward"):
        return state * 2


def factorial(n):
    return jax.lax.fori_loop(0, n, body_func, 1)


def train(state, steps):
    for i in range(steps):
        with jax.profiler.StepTraceAnnotation("train", step_num=i):
            state = step(state, i)
    return state
"""


def test_profiler_annotation_given_a_tracer(tmp_path, monkeypatch):
    """A profiler annotation opened in traced code (a `fori_loop` body, a jitted function
    through an aliased import) and numbered or named by a traced value: entered once, at
    trace time, with the tracer's text (`train step JitTracer(~int32[])`).  An annotation
    with a literal name in traced code, and one around the jitted call, stay silent."""
    found = _lint(tmp_path, monkeypatch, {"main.py": ANNOTATED})
    tail = ("runs once, at trace time, and annotates a tracer, not the values; compiled calls (and the "
            "iterations of a traced loop body) record nothing. Annotate outside the traced function "
            "(around the jitted call, once per step), or name the traced code with `jax.named_scope`")
    assert found == [
        ("JAX401", "main.py", 10, 10, f"`jax.profiler.StepTraceAnnotation` in traced `body_func` {tail}"),
        ("JAX401", "main.py", 16, 10, f"`TA` in traced `step` {tail}"),
    ]


# --------------------------------------------------------------------------- methods of a parameter's instance
PARAM_AGENT = """\
import jax
import jax.numpy as jnp


class Logger:
    def __init__(self):
        self.metrics = {"sgd_steps": 0, "loss": 0.0}


class PPO:
    def __init__(self, epochs=2):
        @jax.jit
        def sgd_step(state, batch):
            loss = jnp.mean((batch @ state) ** 2)
            return state - 0.01 * loss, {"loss": loss}

        self._sgd_step = sgd_step
        self._epochs = epochs
        self._logger = Logger()

    def update(self, batch, state):
        state, results = self._sgd_step(state, batch)
        self._logger.metrics["sgd_steps"] += self._epochs
        self._logger.metrics["loss"] = results["loss"]
        return state


class Greedy:
    def __init__(self):
        self.steps = {"n": 0}
        self.scale = jax.jit(lambda v: v * 2)

    def act(self, obs):
        self.steps["n"] += 1
        return jnp.argmax(obs)

    def update(self, batch, state):
        out = self.scale(state)
        self.steps["last"] = out
        return out


class Quiet:
    def __init__(self):
        self.calls = {"n": 0}

    def update(self, batch, state):
        self.calls["n"] += 1
        return state
"""

PARAM_LEARNERS = """\
import jax


class IndependentLearners:
    def __init__(self, agents):
        self.agents = agents
        agent1, agent2 = agents
        agent2.batch_update = jax.jit(jax.vmap(agent2.update, (1, 0), 0))


class Single:
    def __init__(self, agent):
        self.agent = agent
        self.policy = jax.jit(agent.act)


def evaluate(agent, xs):
    return jax.jit(agent.update)(xs, xs)
"""

PARAM_MAIN = """\
import pickle

import jax.numpy as jnp

from pkg.agents import PPO, Greedy, Quiet
from pkg.learners import IndependentLearners, Single, evaluate

agent1, agent2 = Greedy(), PPO()
learners = IndependentLearners((agent1, agent2))
single = Single(Greedy())
score = evaluate(pickle.loads(b""), jnp.ones(3))
"""


def test_method_of_the_instance_a_caller_passes_is_transformed(tmp_path, monkeypatch):
    """`jax.vmap(agent2.update)` in a constructor whose callers (in another module) pass an
    instance of a project class, as the parameter itself (`Single(Greedy())`, `jax.jit(agent.act)`) or as an
    element of a tuple it unpacks (`agent1, agent2 = agents`): that class's method is
    traced, and its writes into state the instance holds are reported; a jitted function
    the constructor stored on `self` returns tracers when the traced method calls it
    (`results["loss"]`, a tracer stored in the logger).  The other element's `update`
    (never transformed), a class no caller passes (`Quiet`), and a parameter given an
    object of unknown class (`evaluate(pickle.loads(...))`) stay silent."""
    found = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/agents.py": PARAM_AGENT,
                                          "pkg/learners.py": PARAM_LEARNERS, "main.py": PARAM_MAIN})
    assert found == [
        ("JAX403", "pkg/agents.py", 23, 9, _held('self._logger.metrics["sgd_steps"]', "update", _ONCE)),
        ("JAX403", "pkg/agents.py", 24, 9, _held('self._logger.metrics["loss"]', "update", _STORES)),
        ("JAX403", "pkg/agents.py", 34, 9, _held('self.steps["n"]', "act", _ONCE)),
    ]
