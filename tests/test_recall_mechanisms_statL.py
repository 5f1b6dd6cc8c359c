"""State a jitted callable captures, its static arguments, and the clocks around it
(issue 22, branch statL).

Each mechanism is a fact of the model (or of a rule reading it) that last round's
unseen measures lacked:

* a jitted function of another module, imported by name (``from ops import attention``,
  ``import ops`` ... ``ops.attention``, an alias), keeps its jit when it is passed on as a
  value: a timing helper's function parameter that every call gives it is a jitted
  call, and its clock read before the result is ready is JAX505 (pkgrev17
  ``p26_timing_helper``: ``time_fn(f, *args)`` in utils/timing.py);
* ``jax.jit(obj.method)`` and ``jax.jit(obj)`` of an instance of a plain class of the
  file run the method its class inherits from a base of the file (``Layer.__call__``
  of ``layer = Dense()``): its ``self.calls += 1`` is JAX403 (newuser17
  ``p32_counter_module``);
* JAX405 follows ``self.x`` read in a lambda or a def nested in a jitted method
  (``jax.tree.map(lambda p, g: p - self.lr * g, ...)``, newuser17 ``p10_trainer_attr``),
  a jit kept in an attribute (``self.step = jax.jit(self._step)``) and called through it
  by driving code that sets the attribute between calls (pkgrev17 ``p17_trainer_attr``,
  single-file form ``diag/d17.py``), a helper of the file that calls the jit and is
  called on both sides of a global's rebinding (newuser17 ``p09_temp_global``), and a
  ``nonlocal`` setter returned with the jitted closure (newuser17 ``p31_closure``);
* JAX504: a static argument given a helper's result that changes one-to-one with the
  loop counter (``lr=cosine(i)``, a helper of this file or of another module, also one
  that never names JAX: pkgrev17 ``p07_static_lr_schedule``).

Behaviour was checked with JAX 0.10.2 on the reports' programs (pkgrev17: p26 0.009 ms
timed against 94.8 ms blocked, p17 ``[0.8 0.8]`` for an expected ``[0.9 0.9]``, p07 10
traces for 10 calls; newuser17: p09 still samples at T=1, p10 trains at lr=0.1
throughout, p31 prints ``0 0``, p32 prints ``calls: 1`` after 5 calls)."""

from __future__ import annotations

from project_files import lint_files

_CLOCK = ("`{clock}` is read while the JAX computation started on line {line} may still be running "
          "(dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), "
          "not the work. Wait for the result first: `jax.block_until_ready(result)` or "
          "`result.block_until_ready()`")

# -- JAX505: a jitted function of another module handed to a timing helper -------------
# (pkgrev17 p26_timing_helper)
TIMING = """\
import time


def time_fn(f, *args, n=10):
    f(*args)
    t0 = time.perf_counter()
    for _ in range(n):
        f(*args)
    return (time.perf_counter() - t0) / n
"""

TIMING_BLOCKED = TIMING.replace("        f(*args)\n    return", "        jax.block_until_ready(f(*args))\n    return") \
    .replace("import time\n", "import time\n\nimport jax\n")

OPS = """\
import jax
import jax.numpy as jnp


@jax.jit
def attention(q, k, v):
    return jax.nn.softmax(q @ k.T / jnp.sqrt(q.shape[-1])) @ v


step = jax.jit(lambda x: x * 2.0)
"""

HOST_OPS = """\
import numpy as np


def attention(q, k, v):
    return np.exp(q @ k.T) @ v
"""

BENCH_BY_NAME = """\
import jax.numpy as jnp
from ops import attention
from utils.timing import time_fn

q = jnp.ones((256, 64))
print(time_fn(attention, q, q, q))
"""

BENCH_BY_MODULE = """\
import jax.numpy as jnp
import ops
from utils import timing

q = jnp.ones((256, 64))
print(timing.time_fn(ops.attention, q, q, q))
"""

BENCH_BY_ALIAS = """\
import jax.numpy as jnp
from ops import step as double
from utils.timing import time_fn


def main():
    x = jnp.ones((256, 64))
    return time_fn(double, x, n=5)
"""


def _timing_files(bench: str, timing: str = TIMING, ops: str = OPS) -> dict:
    return {"utils/__init__.py": "", "utils/timing.py": timing, "ops.py": ops, "bench.py": bench}


def test_imported_jit_passed_to_timing_helper(tmp_path, monkeypatch):
    for i, bench in enumerate((BENCH_BY_NAME, BENCH_BY_MODULE, BENCH_BY_ALIAS)):
        root = tmp_path / f"p{i}"
        root.mkdir()
        found = lint_files(root, monkeypatch, _timing_files(bench), select="JAX505")
        assert found == [("JAX505", "utils/timing.py", 9, 13, _CLOCK.format(clock="time.perf_counter()", line=8))], i


def test_imported_jit_timing_twins_stay_silent(tmp_path, monkeypatch):
    # the helper waits for the result; or the function handed over is NumPy's, not a jit
    for i, (bench, timing, ops) in enumerate((
            (BENCH_BY_NAME, TIMING_BLOCKED, OPS), (BENCH_BY_MODULE, TIMING_BLOCKED, OPS),
            (BENCH_BY_ALIAS, TIMING_BLOCKED, OPS), (BENCH_BY_NAME, TIMING, HOST_OPS),
            (BENCH_BY_MODULE, TIMING, HOST_OPS))):
        root = tmp_path / f"p{i}"
        root.mkdir()
        assert lint_files(root, monkeypatch, _timing_files(bench, timing, ops), select="JAX505") == [], i


# -- JAX403: jax.jit(obj.method) / jax.jit(obj) of an inherited method -----------------
# (newuser17 p32_counter_module)
_SELF = ("`self.{attr}` is assigned inside traced method `{method}`: the update runs once, at trace "
         "time: compiled calls never repeat it. Pass the state in as an argument and return the new state")
_SELF_TRACER = ("`self.{attr}` is assigned inside traced method `{method}`: it stores a tracer in the object "
                "(UnexpectedTracerError when read later), and compiled calls never repeat it. Pass the state in "
                "as an argument and return the new state")

COUNTER_BOUND_METHOD = """\
import jax
import jax.numpy as jnp


class Layer:
    def __init__(self):
        self.calls = 0

    def __call__(self, params, x):
        self.calls += 1
        return self.forward(params, x)


class Dense(Layer):
    def forward(self, params, x):
        return x @ params["w"] + params["b"]


layer = Dense()
apply = jax.jit(layer.__call__)
p = {"w": jnp.eye(2), "b": jnp.zeros(2)}
for _ in range(5):
    apply(p, jnp.ones(2))
"""

COUNTER_INSTANCE = """\
import jax
import jax.numpy as jnp


class Counted:
    def __init__(self):
        self.n = 0

    def __call__(self, x):
        self.n = self.n + 1
        return jnp.tanh(x)


class Act(Counted):
    pass


def main():
    act = Act()
    f = jax.jit(act)
    return [f(jnp.ones(3)) for _ in range(3)]
"""

COUNTER_NAMED_METHOD = """\
import jax
import jax.numpy as jnp


class Base:
    def step(self, x):
        self.last = x
        return x * 2


class Model(Base):
    def __init__(self):
        self.last = None


model = Model()
run = jax.jit(model.step)
out = run(jnp.ones(2))
"""


def test_jit_of_instance_runs_inherited_method(tmp_path, monkeypatch):
    cases = (
        (COUNTER_BOUND_METHOD, [("JAX403", "m.py", 10, 9, _SELF.format(attr="calls", method="__call__"))]),
        (COUNTER_INSTANCE, [("JAX403", "m.py", 10, 9, _SELF.format(attr="n", method="__call__"))]),
        (COUNTER_NAMED_METHOD, [("JAX403", "m.py", 7, 9, _SELF_TRACER.format(attr="last", method="step"))]),
    )
    for i, (text, expected) in enumerate(cases):
        root = tmp_path / f"p{i}"
        root.mkdir()
        assert lint_files(root, monkeypatch, {"m.py": text}, select="JAX403") == expected, i


def test_jit_of_instance_twins_stay_silent(tmp_path, monkeypatch):
    # the count kept by the caller (returned), not written on self under the trace
    twins = (
        COUNTER_BOUND_METHOD.replace("        self.calls += 1\n", ""),
        COUNTER_INSTANCE.replace("        self.n = self.n + 1\n", ""),
        COUNTER_NAMED_METHOD.replace("        self.last = x\n", ""),
    )
    for i, text in enumerate(twins):
        root = tmp_path / f"p{i}"
        root.mkdir()
        assert lint_files(root, monkeypatch, {"m.py": text}, select="JAX403") == [], i


# -- JAX405: self read in a closure of a jitted method; a jit kept in an attribute -------
# (newuser17 p10_trainer_attr, repro y10.py; pkgrev17 p17_trainer_attr, diag/d17.py)
_SETTER = ("`self.{attr}` is read in `{method}`, which is jitted with `self` a Python object, and `{setter}` "
           "sets it (line {line}): the compiled function keeps the value read at its first trace, so later "
           "calls ignore the change. Pass it as an argument (or make the object a pytree)")
_DRIVEN = ("`{var}.{attr}` is set again (line {line}) after `{var}.{called}` has been called: it is jitted "
           "with `self` a Python object, so the compiled function keeps the value read at its first trace "
           "and the later calls ignore the change. Pass it as an argument (or make the object a pytree)")

SGD_LAMBDA = """\
import jax


class SGD:
    def __init__(self, lr):
        self.lr = lr
        self._update = jax.jit(self.update)

    def update(self, params, grads):
        return jax.tree.map(lambda p, g: p - self.lr * g, params, grads)

    def fit(self, p, g):
        for i in range(3):
            p = self._update(p, g)
            self.lr = self.lr * 0.1
        return p
"""

SGD_NESTED_DEF = """\
import jax


class SGD:
    def __init__(self, lr):
        self.lr = lr
        self._update = jax.jit(self.update)

    def update(self, params, grads):
        def scaled(g):
            return self.lr * g
        return jax.tree.map(lambda p, g: p - scaled(g), params, grads)

    def decay(self):
        self.lr = self.lr * 0.5
"""

TRAINER_ATTRIBUTE = """\
import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, lr):
        self.lr = lr
        self.step = jax.jit(self._step)

    def _step(self, p, g):
        return p - self.lr * g


t = Trainer(lr=0.1)
p = t.step(jnp.ones(2), jnp.ones(2))
t.lr = 0.0
p = t.step(p, jnp.ones(2))
"""

POLICY_PARTIAL = """\
from functools import partial

import jax
import jax.numpy as jnp


class Policy:
    def __init__(self, temperature):
        self.temperature = temperature
        self._act = jax.jit(partial(self.logits, scale=2.0))

    def logits(self, x, scale):
        return scale * x / self.temperature


def run():
    pol = Policy(1.0)
    a = pol._act(jnp.ones(2))
    pol.temperature = 0.5
    return a, pol._act(jnp.ones(2))
"""


def test_self_read_in_closure_or_through_kept_jit(tmp_path, monkeypatch):
    cases = (
        (SGD_LAMBDA, [("JAX405", "m.py", 10, 46, _SETTER.format(attr="lr", method="update", setter="fit", line=15))]),
        (SGD_NESTED_DEF, [("JAX405", "m.py", 11, 20, _SETTER.format(attr="lr", method="update", setter="decay",
                                                                       line=15))]),
        (TRAINER_ATTRIBUTE, [("JAX405", "m.py", 11, 20, _DRIVEN.format(var="t", attr="lr", line=16, called="step"))]),
        (POLICY_PARTIAL, [("JAX405", "m.py", 13, 28, _DRIVEN.format(var="pol", attr="temperature", line=19,
                                                                     called="_act"))]),
    )
    for i, (text, expected) in enumerate(cases):
        root = tmp_path / f"p{i}"
        root.mkdir()
        assert lint_files(root, monkeypatch, {"m.py": text}, select="JAX405") == expected, i


def test_self_read_twins_stay_silent(tmp_path, monkeypatch):
    twins = (
        # the rate passed as an argument
        SGD_LAMBDA.replace("def update(self, params, grads):", "def update(self, params, grads, lr):")
        .replace("p - self.lr * g", "p - lr * g").replace("self._update(p, g)", "self._update(p, g, self.lr)"),
        SGD_NESTED_DEF.replace("def update(self, params, grads):", "def update(self, params, grads, lr):")
        .replace("return self.lr * g", "return lr * g"),
        TRAINER_ATTRIBUTE.replace("def _step(self, p, g):", "def _step(self, p, g, lr):")
        .replace("p - self.lr * g", "p - lr * g").replace("jnp.ones(2))\n", "jnp.ones(2), t.lr)\n"),
        # set before the first call only
        POLICY_PARTIAL.replace("    a = pol._act(jnp.ones(2))\n    pol.temperature = 0.5\n",
                               "    pol.temperature = 0.5\n    a = pol._act(jnp.ones(2))\n"),
        # a scan body in a method that is not jitted: traced anew on each call
        """\
import jax.numpy as jnp
from jax import lax


class Runner:
    def __init__(self, lr):
        self.lr = lr

    def run(self, xs):
        return lax.scan(lambda c, x: (c + self.lr * x, None), 0.0, xs)[0]

    def decay(self):
        self.lr = self.lr * 0.5


r = Runner(0.1)
r.run(jnp.ones(3))
r.decay()
r.run(jnp.ones(3))
""",
    )
    for i, text in enumerate(twins):
        root = tmp_path / f"p{i}"
        root.mkdir()
        assert lint_files(root, monkeypatch, {"m.py": text}, select="JAX405") == [], i


# -- JAX405: a helper of the file that calls the jit; a nonlocal setter -----------------
# (newuser17 p09_temp_global, repro x09a.py; newuser17 p31_closure)
_GLOBAL = ("`{n}` is a module global that is reassigned (line {line}) after `{fn}` is defined: under jit "
           "its value is read once, at trace time, and baked into the compiled function, so later "
           "assignments are ignored until a retrace. Pass it as an argument")
_WRITER = ("`{n}` is a module global that `{writer}` reassigns (`global {n}`, line {line}) after calling "
           "`{called}`: under jit its value is read once, at trace time, and baked into the compiled "
           "function, so the later calls still use the old value until a retrace. Pass it as an argument")
_NONLOCAL = ("`{n}` is a local of `{owner}` that `{setter}` reassigns (`nonlocal {n}`), and `{setter_as}` is "
             "called (line {line}) between two calls of `{fn}`: the compiled function keeps the value it read "
             "when it was traced, so the later calls still use the old value until a retrace. Pass it as an argument")

TEMPERATURE = """\
import jax
import jax.numpy as jnp

TEMPERATURE = 1.0


@jax.jit
def sample_token(key, logits):
    return jax.random.categorical(key, logits / TEMPERATURE)


def generate(key, logits, n):
    out = []
    for k in jax.random.split(key, n):
        out.append(int(sample_token(k, logits)))
    return out


logits = jnp.array([2.0, 1.0, 0.0])
print(generate(jax.random.key(0), logits, 5))
TEMPERATURE = 1e-4
print(generate(jax.random.key(1), logits, 20))
"""

SCALE_TWO_HELPERS = """\
import jax
import jax.numpy as jnp

SCALE = 1.0


@jax.jit
def apply(x):
    return x * SCALE


def layer(x):
    return apply(x) + 1


def model(x):
    return layer(x) * 2


print(model(jnp.ones(3)))
SCALE = 3.0
print(model(jnp.ones(3)))
"""

SCALE_GLOBAL_WRITER = """\
import jax
import jax.numpy as jnp

SCALE = 1.0


@jax.jit
def apply(x):
    return x * SCALE


def model(x):
    return apply(x) * 2


def main():
    global SCALE
    a = model(jnp.ones(3))
    SCALE = 2.0
    return a, model(jnp.ones(3))
"""

POLICY_NONLOCAL = """\
import jax
import jax.numpy as jnp


def make_policy(weights):
    bias = jnp.zeros(2)

    @jax.jit
    def act(obs):
        return jnp.argmax(obs @ weights + bias)

    def set_bias(new_bias):
        nonlocal bias
        bias = new_bias

    return act, set_bias


act, set_bias = make_policy(jnp.eye(2))
print(act(jnp.array([1.0, 0.0])))
set_bias(jnp.array([0.0, 5.0]))
print(act(jnp.array([1.0, 0.0])))
"""

SCALER_NONLOCAL = """\
import jax
import jax.numpy as jnp


def make_scaler(scale):
    def apply(x):
        return x * scale

    def set_scale(s):
        nonlocal scale
        scale = s

    return jax.jit(apply), set_scale


def main():
    f, update_scale = make_scaler(2.0)
    for s in (1.0, 3.0):
        f(jnp.ones(2))
        update_scale(s)
    return f(jnp.ones(2))
"""


def test_stale_state_through_helpers_and_setters(tmp_path, monkeypatch):
    cases = (
        (TEMPERATURE, [("JAX405", "m.py", 9, 49, _GLOBAL.format(n="TEMPERATURE", line=21, fn="sample_token"))]),
        (SCALE_TWO_HELPERS, [("JAX405", "m.py", 9, 16, _GLOBAL.format(n="SCALE", line=21, fn="apply"))]),
        (SCALE_GLOBAL_WRITER, [("JAX405", "m.py", 9, 16, _WRITER.format(n="SCALE", writer="main", line=19,
                                                                          called="model"))]),
        (POLICY_NONLOCAL, [("JAX405", "m.py", 10, 43, _NONLOCAL.format(n="bias", owner="make_policy", setter="set_bias",
                                                                         setter_as="set_bias", line=21, fn="act"))]),
        (SCALER_NONLOCAL, [("JAX405", "m.py", 7, 20, _NONLOCAL.format(n="scale", owner="make_scaler", setter="set_scale",
                                                                        setter_as="update_scale", line=20, fn="f"))]),
    )
    for i, (text, expected) in enumerate(cases):
        root = tmp_path / f"p{i}"
        root.mkdir()
        assert lint_files(root, monkeypatch, {"m.py": text}, select="JAX405") == expected, i


def test_stale_state_twins_stay_silent(tmp_path, monkeypatch):
    twins = (
        # the temperature passed as an argument (newuser17 p09_temp_global_ok)
        TEMPERATURE.replace("def sample_token(key, logits):", "def sample_token(key, logits, temperature):")
        .replace("logits / TEMPERATURE", "logits / temperature")
        .replace("def generate(key, logits, n):", "def generate(key, logits, n, temperature=1.0):")
        .replace("sample_token(k, logits)", "sample_token(k, logits, temperature)")
        .replace("TEMPERATURE = 1e-4\nprint(generate(jax.random.key(1), logits, 20))",
                 "print(generate(jax.random.key(1), logits, 20, temperature=1e-4))"),
        # rebound before the first call: every call sees 3.0
        SCALE_TWO_HELPERS.replace("print(model(jnp.ones(3)))\nSCALE = 3.0\n", "SCALE = 3.0\nprint(model(jnp.ones(3)))\n"),
        SCALE_GLOBAL_WRITER.replace("    a = model(jnp.ones(3))\n    SCALE = 2.0\n", "    SCALE = 2.0\n    a = model(jnp.ones(3))\n"),
        # the setter called before the first call only
        POLICY_NONLOCAL.replace("print(act(jnp.array([1.0, 0.0])))\nset_bias(jnp.array([0.0, 5.0]))\n",
                                "set_bias(jnp.array([0.0, 5.0]))\nprint(act(jnp.array([1.0, 0.0])))\n"),
        SCALER_NONLOCAL.replace("    for s in (1.0, 3.0):\n        f(jnp.ones(2))\n        update_scale(s)\n",
                                "    update_scale(3.0)\n    f(jnp.ones(2))\n"),
    )
    for i, text in enumerate(twins):
        root = tmp_path / f"p{i}"
        root.mkdir()
        assert lint_files(root, monkeypatch, {"m.py": text}, select="JAX405") == [], i


# -- JAX504: a schedule of the loop counter as a static argument ------------------------
# (pkgrev17 p07_static_lr_schedule, diag/d07b.py)
_VARYING = ("`{expr}`, which changes with the loop counter `{i}`, is passed as the static argument `{param}`: "
            "every new value traces and compiles the function again. Pass it as a traced argument instead "
            "(remove it from static_argnums/static_argnames)")

SCHEDULES = """\
import math


def cosine(step, total=10, base=0.1):
    return base * 0.5 * (1 + math.cos(math.pi * step / total))


def warmup(base, step, warmup_steps=100):
    \"\"\"Linear warm-up.\"\"\"
    return base * (step + 1) / warmup_steps
"""

TRAIN_FROM_MODULE = """\
from functools import partial

import jax
import jax.numpy as jnp
from schedules import cosine


@partial(jax.jit, static_argnames="lr")
def step(p, g, lr):
    return p - lr * g


p = jnp.ones(3)
for i in range(10):
    p = step(p, jnp.ones(3), lr=cosine(i))
"""

TRAIN_THROUGH_MODULE = """\
import jax
import jax.numpy as jnp

import schedules


def sgd(p, g, lr):
    return p - lr * g


update = jax.jit(sgd, static_argnums=2)


def train(p, epochs):
    for epoch in range(epochs):
        p = update(p, jnp.ones(3), schedules.warmup(0.1, step=epoch))
    return p
"""

TRAIN_SAME_FILE = """\
import math
from functools import partial

import jax
import jax.numpy as jnp


def exp_decay(t, rate=0.9):
    return 0.1 * math.exp(-rate * t)


@partial(jax.jit, static_argnums=1)
def scale(x, factor):
    return x * factor


def run(x):
    for t in range(20):
        x = scale(x, exp_decay(t))
    return x
"""


def test_schedule_of_loop_counter_as_static_argument(tmp_path, monkeypatch):
    cases = (
        ({"schedules.py": SCHEDULES, "train.py": TRAIN_FROM_MODULE},
         [("JAX504", "train.py", 15, 33, _VARYING.format(expr="cosine(i)", i="i", param="lr"))]),
        ({"schedules.py": SCHEDULES, "train.py": TRAIN_THROUGH_MODULE},
         [("JAX504", "train.py", 16, 36, _VARYING.format(expr="schedules.warmup(0.1, step=epoch)", i="epoch",
                                                          param="lr").replace("`lr`:", "`lr` (position 2):"))]),
        ({"m.py": TRAIN_SAME_FILE}, [("JAX504", "m.py", 19, 22, _VARYING.format(
            expr="exp_decay(t)", i="t", param="factor").replace("`factor`:", "`factor` (position 1):"))]),
    )
    for i, (files, expected) in enumerate(cases):
        root = tmp_path / f"p{i}"
        root.mkdir()
        assert lint_files(root, monkeypatch, files, select="JAX504") == expected, i


def test_schedule_twins_stay_silent(tmp_path, monkeypatch):
    # the rate traced (no static argument), a schedule given a constant, a helper that
    # takes few values (`min`), or given a value that takes few (`t % 2`)
    cases = (
        {"schedules.py": SCHEDULES, "train.py": TRAIN_FROM_MODULE.replace('@partial(jax.jit, static_argnames="lr")',
                                                                          "@jax.jit")},
        {"schedules.py": SCHEDULES, "train.py": TRAIN_THROUGH_MODULE.replace("step=epoch", "step=0")},
        {"m.py": TRAIN_SAME_FILE.replace("return 0.1 * math.exp(-rate * t)", "return min(t, 3)")},
        {"m.py": TRAIN_SAME_FILE.replace("exp_decay(t)", "exp_decay(t % 2)")},
    )
    for i, files in enumerate(cases):
        root = tmp_path / f"p{i}"
        root.mkdir()
        assert lint_files(root, monkeypatch, files, select="JAX504") == [], i


# -- JAX207: a list/dict/set unpacked from a helper's tuple ----------------------------
# (recall case 1314, evosax a869dda: `params, memory = init_strategy(...)`, then
# `ask(rng, memory, params)` of `jit(ask_cma_strategy, static_argnums=(2))`)
_UNHASHABLE = ("A {what} (`{name}` is unpacked from what `{fn}` returns) is passed to `{jit}` in a static position "
               "(parameter `{name}`; {decl}): static arguments must be hashable, so the call raises ValueError: "
               "Non-hashable static arguments are not supported. Instead, {advice}")
_PASS_TRACED = "pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)"

STRATEGY = """\
import jax
import jax.numpy as jnp
from jax import jit


def init(n):
    params = {"pop_size": n, "mu": n // 2}
    memory = {"mean": jnp.zeros(3)}
    return params, memory


def ask_fn(rng, memory, params):
    return jax.random.normal(rng, (params["pop_size"], 3)) + memory["mean"]


ask = jit(ask_fn, static_argnums=(2))
"""

STRATEGY_MAIN = """\
import jax
from strategy import ask, init

if __name__ == "__main__":
    params, memory = init(8)
    for _ in range(3):
        x = ask(jax.random.PRNGKey(0), memory, params)
"""

SAME_FILE = STRATEGY + """

params, memory = init(8)
x = ask(jax.random.PRNGKey(0), memory, params)
"""

CONFIG_NO_JAX = """\
def make_config(width):
    layers = [width, width]
    opts = {"act": "relu"}
    if width > 128:
        return layers, opts, 2
    return layers, opts, 1
"""

FORWARD = """\
from functools import partial

import jax
import jax.numpy as jnp

import cfg


@partial(jax.jit, static_argnames=("layers", "opts", "depth"))
def forward(x, layers, opts, depth):
    for w in layers:
        x = jnp.tanh(x[:w])
    return x * depth


def run(x):
    layers, opts, depth = cfg.make_config(64)
    return forward(x, layers=layers, opts=opts, depth=depth)
"""


def test_display_unpacked_from_helper_tuple_is_unhashable(tmp_path, monkeypatch):
    decl2 = "static_argnums=2"
    named = "static_argnames=('layers', 'opts', 'depth')"
    cases = (
        ({"m.py": SAME_FILE}, [("JAX207", "m.py", 20, 40, _UNHASHABLE.format(
            what="dict", name="params", fn="init", jit="ask", decl=decl2, advice=_PASS_TRACED))]),
        ({"strategy.py": STRATEGY, "main.py": STRATEGY_MAIN}, [("JAX207", "main.py", 7, 48, _UNHASHABLE.format(
            what="dict", name="params", fn="init", jit="ask", decl=decl2, advice=_PASS_TRACED)),
            # the module-level jit's declaration too, told by main.py's call (statC)
            ("JAX207", "strategy.py", 16, 7, '`ask` declares `params` static (static_argnums=2), but other modules pass a list or dict for `params` (a call in main.py): static arguments must be hashable, so those calls raise ValueError: Non-hashable static arguments are not supported. Instead, leave it out of the static arguments (traced), or pass a hashable value (tuple, int, str)')]),
        ({"cfg.py": CONFIG_NO_JAX, "model.py": FORWARD}, [
            ("JAX207", "model.py", 18, 30, _UNHASHABLE.format(what="list", name="layers", fn="cfg.make_config",
                                                               jit="forward", decl=named, advice="pass a tuple")),
            ("JAX207", "model.py", 18, 43, _UNHASHABLE.format(what="dict", name="opts", fn="cfg.make_config",
                                                               jit="forward", decl=named, advice=_PASS_TRACED)),
        ]),
    )
    for i, (files, expected) in enumerate(cases):
        root = tmp_path / f"p{i}"
        root.mkdir()
        assert lint_files(root, monkeypatch, files, select="JAX207") == expected, i


def test_unpacked_hashable_twins_stay_silent(tmp_path, monkeypatch):
    cases = (
        # evosax's fix: the sampling jitted with ints; here the helper hands back a tuple
        {"m.py": SAME_FILE.replace('params = {"pop_size": n, "mu": n // 2}', "params = (n, n // 2)")
         .replace('params["pop_size"]', "params[0]")},
        # the params traced, not static
        {"strategy.py": STRATEGY.replace(", static_argnums=(2))", ")"), "main.py": STRATEGY_MAIN},
        # tuples made of the displays, and the int `depth` static: hashable
        {"cfg.py": CONFIG_NO_JAX.replace("return layers, opts,", "return tuple(layers), tuple(opts.items()),"),
         "model.py": FORWARD},
    )
    for i, files in enumerate(cases):
        root = tmp_path / f"p{i}"
        root.mkdir()
        assert lint_files(root, monkeypatch, files, select="JAX207") == [], i


# -- precision (fresh set 17's false findings) -------------------------------------------
# scenic trainer_memory.py:563 (`jax.tree_util.tree_map(lambda h: h.delete(), train_batch)`
# after the donating pmap: Array.delete() of a deleted array is a no-op, checked with JAX
# 0.10.2); rebayes orfit_paper_reproduction.ipynb (a function only vmapped, never jitted,
# reading a global rebound later: vmap traces every call); rebayes l-rvga-flax.ipynb (a
# `%%time` cell that ends with `jnp.array(X)[:n]` after loading a data set)
_DONATED = ("`{n}` was donated to the jitted call on line {line} (donate_argnums/donate_argnames): the call deleted "
            "its buffer, and using it now raises `RuntimeError: Array has been deleted`. Rebind it to the result, or "
            "don't donate it")

DONATE = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=(0, 1))
def step(state, batch):
    return state + batch["x"].sum()


state = jnp.zeros(())
batch = {"x": jnp.ones(3)}
state = step(state, batch)
AFTER
"""


def test_donated_array_deleted_again_is_no_read(tmp_path, monkeypatch):
    silent = ("jax.tree_util.tree_map(lambda h: h.delete(), batch)", "jax.tree.map(lambda a: a.delete(), batch)",
              'batch["x"].delete()')
    for i, after in enumerate(silent):
        root = tmp_path / f"p{i}"
        root.mkdir()
        assert lint_files(root, monkeypatch, {"m.py": DONATE.replace("AFTER", after)}, select="JAX506") == [], i
    root = tmp_path / "read"
    root.mkdir()
    assert lint_files(root, monkeypatch, {"m.py": DONATE.replace("AFTER", 'print(batch["x"])')},
                      select="JAX506") == [("JAX506", "m.py", 15, 7, _DONATED.format(n="batch", line=14))]


VMAPPED = """\
import jax
import jax.numpy as jnp

_div = lambda a, b: a / b
S = 1.0


def experiment(key):
    return _div(key, 2.0) * S


keys = jnp.ones(10)
out = jax.vmap(experiment)(keys)
_div = lambda a, b: a / (b + 1.0)
S = 2.0
out2 = jax.vmap(experiment)(keys)
"""


def test_global_read_only_under_vmap_is_not_stale(tmp_path, monkeypatch):
    root = tmp_path / "vmap"
    root.mkdir()
    assert lint_files(root, monkeypatch, {"m.py": VMAPPED}, select="JAX405") == []
    root = tmp_path / "jit"
    root.mkdir()
    jitted = VMAPPED.replace("jax.vmap(experiment)", "jax.jit(jax.vmap(experiment))").replace(
        "out = jax.jit(jax.vmap(experiment))(keys)", "run = jax.jit(jax.vmap(experiment))\nout = run(keys)").replace(
        "out2 = jax.jit(jax.vmap(experiment))(keys)", "out2 = run(keys)")
    assert [f[:4] for f in lint_files(root, monkeypatch, {"m.py": jitted}, select="JAX405")] == [
        ("JAX405", "m.py", 9, 12), ("JAX405", "m.py", 9, 29)]


def _notebook(*cells: str) -> str:
    import json

    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": c} for c in cells]})


def test_time_cell_ending_with_host_data_made_into_arrays(tmp_path, monkeypatch):
    setup = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n\n\n@jax.jit\ndef f(x):\n    return x @ x.T\n"
    loads = ("%%time\nX = np.load('data.npy')\nX = jnp.array(X)[:100]\n",
             "%%time\nX = np.load('data.npy')\nY = jnp.asarray(X)\n",
             "%%time\nX = np.load('data.npy')\nY = jax.device_put(X)\n")
    for i, cell in enumerate(loads):
        root = tmp_path / f"p{i}"
        root.mkdir()
        assert lint_files(root, monkeypatch, {"nb.ipynb": _notebook(setup, cell)}, select="JAX505") == [], i
    root = tmp_path / "computed"
    root.mkdir()
    found = lint_files(root, monkeypatch, {"nb.ipynb": _notebook(setup, loads[0] + "Z = f(X)\n")}, select="JAX505")
    assert [f[:2] for f in found] == [("JAX505", "nb.ipynb")]
