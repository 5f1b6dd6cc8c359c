"""Batch 5's call-graph misses by mechanism (issue 22, branch recallK; bench/recall
cases 529, 536, 540, 559): what traced code reaches that the model did not follow.

- a constructor called in traced code runs the class's `__init__` with the tracers it
  is given; a generated `__init__` (a dataclass, an equinox Module) stores them as
  fields and runs `__post_init__` / `__check_init__`, which see them (case 536:
  `Cls(**params)` in a jitted function, the class in another module);
- `Cls(...)(x)` and `m = Cls(...); m(x)` run `Cls.__call__` (case 540);
- `TABLE[name](x)` / `TABLE.get(name)(x)` with a dict literal of functions: whichever
  the key picks runs traced (case 529's autoray `_CUSTOM[like, fn](*args)`);
- a function differentiated outside jit hands its tracers to the methods it calls on
  an instance (case 559's `emulator.predict(params)`);
- a function that keeps a module-global JAX key as state (`global _KEY; _KEY, sub =
  jax.random.split(_KEY)`), called where a transformation traces: the numbers of the
  trace repeat on every call (JAX406; case 529's `ar.do("random.normal")` under jit).

Each INVALID tree's failure was observed with JAX 0.10.2 (TracerBoolConversionError,
ConcretizationTypeError, TracerArrayConversionError; equal draws on two jitted calls
and UnexpectedTracerError from the key left behind); the VALID twins run and stay
silent.  The shapes differ from the cases' own on purpose (another module, a helper,
a table registered into, a `.get` look-up, a re-export through a package)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from jaxlint.cli import cli


def _lint(root: Path, monkeypatch, files: dict[str, str]) -> list[tuple]:
    (root / "pyproject.toml").write_text("")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "json"])
    assert result.exit_code in (0, 1), result.output
    return sorted(
        (f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"])
        for f in json.loads(result.stdout)
    )


# ----------------------------------------------------------------- constructors
GEOMETRY = """\
import dataclasses

import equinox as eqx
import jax


@dataclasses.dataclass
class Interval:
    lo: float
    hi: float
    closed: bool = True

    def __post_init__(self):
        if self.lo > self.hi:
            raise ValueError("empty interval")


class Ellipsoid(eqx.Module):
    a: jax.Array
    b: jax.Array

    def __check_init__(self):
        if self.a < self.b:
            raise ValueError("a must be >= b")


class Window:
    def __init__(self, start, stop, step=1):
        self.length = int(stop - start) // step
        self.start = start


class Scale:
    def __init__(self, factor):
        self.factor = factor

    def __call__(self, x):
        print("scaling", x)
        return x * self.factor
"""

MEASURE = """\
import jax
import jax.numpy as jnp

from shapes.geometry import Ellipsoid, Interval, Scale, Window


def bounds(x):
    return Interval(jnp.min(x), jnp.max(x))


@jax.jit
def measure(params, x):
    e = Ellipsoid(**params)
    w = Window(start=x[0], stop=x[1])
    return bounds(x).hi + e.a + Scale(2.0)(x).sum() + w.start
"""

# the same classes built from Python values (the checks run on numbers), and arrays
# handed to them outside jit
MEASURE_OK = """\
import jax
import jax.numpy as jnp

from shapes.geometry import Ellipsoid, Interval, Window


@jax.jit
def measure(x, lo=0.0):
    span = Interval(lo, 1.0)
    w = Window(start=0, stop=4)
    return x * (span.hi - span.lo) + w.length


e = Ellipsoid(a=jnp.array(2.0), b=jnp.array(1.0))
print(measure(jnp.ones(3)), e.a)
"""


def test_constructors_in_traced_code_run_init_post_init_check_init_and_call(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {
        "shapes/__init__.py": "", "shapes/geometry.py": GEOMETRY, "main.py": MEASURE,
    })
    assert got == [
        ("JAX201", "shapes/geometry.py", 14, 12,
         "Python `if` on a traced value: it depends on the traced arguments `self.hi`, `self.lo` of "
         "`__post_init__` (called from `bounds` (main.py:8), which is called from traced `measure`); "
         "this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
        ("JAX201", "shapes/geometry.py", 23, 12,
         "Python `if` on a traced value: it depends on the traced arguments `self.a`, `self.b` of "
         "`__check_init__` (called from `measure` (main.py:13), which is decorated with @jax.jit); "
         "this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
        ("JAX202", "shapes/geometry.py", 29, 23,
         "`int()` needs a concrete value, but its argument is traced: it depends on the traced "
         "arguments `start`, `stop` of `__init__` (called from `measure` (main.py:14), which is "
         "decorated with @jax.jit); this raises ConcretizationTypeError. Instead, keep it as an array "
         "(`x.astype(jnp.int32)`), or return it and convert outside the traced function"),
        ("JAX401", "shapes/geometry.py", 38, 9,
         "`print` in traced `__call__` runs only while JAX traces it and prints a tracer (e.g. "
         "`JitTracer(float32[])`), not the values; a call served from jit's cache prints "
         "nothing. Use `jax.debug.print(\"{}\", x)` to print runtime values"),
    ]


def test_constructors_given_python_values_stay_silent(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {
        "shapes/__init__.py": "", "shapes/geometry.py": GEOMETRY, "main.py": MEASURE_OK,
    })
    assert got == []


# one file: the instance called by name, a flax-free plain class; the positional
# fields of a dataclass; a dataclass whose check uses jnp.where (silent)
LAYERS = """\
import dataclasses

import jax
import jax.numpy as jnp


class Gate:
    def __call__(self, x):
        if x.sum() > 0:
            return x
        return -x


@dataclasses.dataclass
class Clip:
    lo: jax.Array
    hi: jax.Array

    def __post_init__(self):
        self.width = jnp.where(self.hi > self.lo, self.hi - self.lo, 0.0)


@jax.jit
def step(x):
    gate = Gate()
    clip = Clip(x.min(), x.max())
    return gate(x) * clip.width + Gate()(x)
"""


def test_an_instance_called_by_name_runs_call(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"layers.py": LAYERS})
    assert got == [
        ("JAX201", "layers.py", 9, 12,
         "Python `if` on a traced value: it depends on the traced argument `x` of `__call__` "
         "(called from traced `step`); this raises TracerBoolConversionError. Use `jax.lax.cond` "
         "or `jnp.where`"),
    ]


# ----------------------------------------------------------------- dispatch tables
ACTS = """\
import jax.numpy as jnp


def relu(x):
    return jnp.maximum(x, 0.0)


def leaky(x, slope=0.1):
    if x.min() < 0:
        return jnp.where(x > 0, x, slope * x)
    return x


ACTIVATIONS = {"relu": relu}
ACTIVATIONS["leaky"] = leaky


def apply(name, x):
    return ACTIVATIONS[name](x)
"""

LOSSES = """\
import numpy as np


def l2(x):
    return np.sum(x ** 2)


def l1(x):
    return np.abs(x).sum()
"""

DISPATCH = """\
import jax

from ops import acts
from ops.losses import l1, l2

LOSSES = {"l1": l1, "l2": l2}


@jax.jit
def forward(x):
    return acts.apply("leaky", x)


@jax.jit
def loss(x):
    return LOSSES.get("l1")(x)
"""

ACTS_OK = ACTS.replace("""    if x.min() < 0:
        return jnp.where(x > 0, x, slope * x)
    return x
""", """    return jnp.where(x > 0, x, slope * x)
""")
LOSSES_OK = LOSSES.replace("np.abs(x)", "abs(x)")


def test_functions_picked_from_a_table_in_traced_code_run_traced(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {
        "ops/__init__.py": "", "ops/acts.py": ACTS, "ops/losses.py": LOSSES, "main.py": DISPATCH,
    })
    # `ACTIVATIONS[name](x)` in `apply`: the key is a parameter, known only at run time
    # (the lead's mend: which entry runs is unknown, `_IMPL[backend](x)` with `backend`
    # a static argument picking the JAX entry is fine); a literal key names its entry
    assert got == [
        ("JAX204", "ops/losses.py", 9, 12,
         "`np.abs` on a traced value (it depends on the traced argument `x` of `l1` (called from "
         "`loss` (main.py:16), which is decorated with @jax.jit)): NumPy converts it with "
         "`__array__()`, which raises TracerArrayConversionError. Use `jnp.abs` (jax.numpy) instead"),
    ]


def test_a_table_picked_by_a_static_argument_is_unknown(tmp_path, monkeypatch):
    """`_IMPL[backend](x)` under jit with `backend` static: only the entry the caller names
    runs, and that is the JAX one; the NumPy entry is never traced."""
    got = _lint(tmp_path, monkeypatch, {"main.py": (
        "import jax\nimport jax.numpy as jnp\nimport numpy as np\n\n\n"
        "def _np_norm(x):\n    return np.sqrt(np.sum(np.asarray(x) ** 2))\n\n\n"
        "def _jax_norm(x):\n    return jnp.sqrt(jnp.sum(x ** 2))\n\n\n"
        "_IMPL = {\"numpy\": _np_norm, \"jax\": _jax_norm}\n\n\n"
        "def norm(x, backend):\n    return _IMPL[backend](x)\n\n\n"
        "jit_norm = jax.jit(norm, static_argnames=\"backend\")\nprint(jit_norm(jnp.ones(3), backend=\"jax\"))\n"
    )})
    assert got == []


def test_tables_of_traceable_functions_stay_silent(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {
        "ops/__init__.py": "", "ops/acts.py": ACTS_OK, "ops/losses.py": LOSSES_OK, "main.py": DISPATCH,
    })
    assert got == []


# ------------------------------------------------ methods under grad outside jit
EMULATOR = """\
import jax
import jax.numpy as jnp
import numpy as np


class Emulator:
    def __init__(self, n):
        self.n = n

    def predict(self, theta):
        return np.tanh(theta) * self.n

    def check(self, theta):
        if theta[0] > 0:
            return theta
        return -theta


emulator = Emulator(3)


def like(theta):
    return jnp.sum(emulator.predict(theta))


def like2(theta):
    return jnp.sum(Emulator(2).check(theta))


class Model:
    def loss(self, w):
        return jnp.sum(self.helper(w))

    def helper(self, w):
        return np.asarray(w) ** 2


print(jax.grad(like)(jnp.ones(3)))
print(jax.grad(like2)(jnp.ones(3)))
m = Model()
print(jax.grad(m.loss)(jnp.ones(3)))
"""


def test_methods_called_from_a_function_differentiated_outside_jit(tmp_path, monkeypatch):
    # `check`'s `if` works on the concrete tracers of grad outside jit: silent
    got = _lint(tmp_path, monkeypatch, {"emulator.py": EMULATOR})
    assert got == [
        ("JAX204", "emulator.py", 11, 16,
         "`np.tanh` on a traced value (it depends on the traced argument `theta` of `predict` (called "
         "from differentiated `like`)): NumPy converts it with `__array__()`, which raises "
         "TracerArrayConversionError. Use `jnp.tanh` (jax.numpy) instead"),
        ("JAX204", "emulator.py", 35, 16,
         "`np.asarray` on a traced value (it depends on the traced argument `w` of `helper` (called "
         "from differentiated `loss`)): NumPy converts it with `__array__()`, which raises "
         "TracerArrayConversionError. Use `jnp.asarray` (jax.numpy) instead"),
    ]


# ------------------------------------------------------- a module-global key as state
NOISE = """\
import jax
import jax.numpy as jnp

_KEY = jax.random.PRNGKey(0)


def next_key():
    global _KEY
    _KEY, sub = jax.random.split(_KEY)
    return sub


def noise(shape):
    return jax.random.normal(next_key(), shape)


@jax.jit
def noisy(x):
    return x + noise(x.shape)


print(noise((2,)), noise((2,)))
"""

# the state keeper in another module, reached through a package's re-export and a
# `.get` look-up in a table; a key passed in (silent)
RNG = """\
import jax

_STATE = {"key": None}
_GLOBAL = jax.random.key(0)


def fresh():
    global _GLOBAL
    _GLOBAL = jax.random.fold_in(_GLOBAL, 1)
    return _GLOBAL


def uniform(shape):
    return jax.random.uniform(fresh(), shape)


def normal(shape):
    return jax.random.normal(fresh(), shape)


SAMPLERS = {"uniform": uniform, "normal": normal}


def sample(kind, shape):
    return SAMPLERS.get(kind)(shape)
"""

AUGMENT = """\
import jax

import rng


@jax.jit
def augment(x):
    return x + rng.sample("normal", x.shape)


@jax.vmap
def jitter(x, key):
    return x + jax.random.normal(key, x.shape)


print(rng.sample("uniform", (2,)))
"""


def test_a_function_advancing_a_module_global_key_called_where_jax_traces(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"noise.py": NOISE})
    assert got == [
        ("JAX402", "noise.py", 9, 5,
         "`_KEY` is global: assigning it a traced value inside `next_key` leaks the tracer out of the "
         "trace; using it afterwards raises UnexpectedTracerError, and cached calls never assign it. "
         "Return the value instead"),
        ("JAX406", "noise.py", 19, 16,
         "`noise` draws from the module-global JAX key `_KEY` and stores the next key back (`global "
         "_KEY`): inside traced `noisy` that runs once, at trace time, so the compiled function repeats "
         "the same random numbers on every call, and `_KEY` is left holding a tracer. Pass a PRNG key "
         "to `noisy` and split it there"),
    ]


def test_a_global_key_state_of_another_module_through_a_package_and_a_table(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {
        "rng/__init__.py": "from rng.state import sample\n", "rng/state.py": RNG, "main.py": AUGMENT,
    })
    # (the sampler `SAMPLERS.get(kind)` picks by a parameter: which one runs traced is
    # unknown, so its own global write is not reported; the call is, by its key state)
    assert [g[:4] for g in got] == [("JAX406", "main.py", 8, 16)]
    assert got[0][4].startswith("`rng.sample` draws from the module-global JAX key `_GLOBAL`")


def test_keys_passed_in_and_global_keys_used_eagerly_stay_silent(tmp_path, monkeypatch):
    text = AUGMENT.replace('return x + rng.sample("normal", x.shape)',
                           'return x + jax.random.normal(jax.random.key(1), x.shape)')
    got = _lint(tmp_path, monkeypatch, {
        "rng/__init__.py": "from rng.state import sample\n", "rng/state.py": RNG, "main.py": text,
    })
    assert got == []


# an `__init__` inherited from a base class of the file; `cls(...)` in a classmethod
# called on the class; a dataclass whose fields follow its base's (positions count
# across both)
INHERITED = """\
import dataclasses

import jax


class Base:
    def __init__(self, n):
        if n < 0:
            raise ValueError("negative")
        self.n = n


class Child(Base):
    pass


@dataclasses.dataclass
class Low:
    lo: float


@dataclasses.dataclass
class Span(Low):
    hi: float

    def __post_init__(self):
        if self.lo > self.hi:
            raise ValueError("empty")

    @classmethod
    def around(cls, x):
        return cls(x.min(), x.max())


@jax.jit
def f(x):
    return Child(x.sum()).n + Span.around(x).hi + Span(0.0, 1.0).lo
"""


def test_inherited_init_and_classmethod_constructors(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"spans.py": INHERITED})
    assert got == [
        ("JAX201", "spans.py", 8, 12,
         "Python `if` on a traced value: it depends on the traced argument `n` of `__init__` (called "
         "from traced `f`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
        ("JAX201", "spans.py", 27, 12,
         "Python `if` on a traced value: it depends on the traced arguments `self.hi`, `self.lo` of "
         "`__post_init__` (called from traced `around`); this raises TracerBoolConversionError. Use "
         "`jax.lax.cond` or `jnp.where`"),
    ]


# a table whose key a literal names: only that entry runs (`"zeros"` draws nothing),
# and a call naming the drawing entry (`"normal"`) is flagged
TABLE_NOISE = """\
import jax
import jax.numpy as jnp

_KEY = jax.random.PRNGKey(0)


def next_key():
    global _KEY
    _KEY, sub = jax.random.split(_KEY)
    return sub


def normal(shape):
    return jax.random.normal(next_key(), shape)


def zeros(shape):
    return jnp.zeros(shape)


SAMPLERS = {"normal": normal, "zeros": zeros}


def draw(kind, shape):
    return SAMPLERS[kind](shape)


@jax.jit
def quiet(x):
    return x + SAMPLERS["zeros"](x.shape) + draw("zeros", x.shape)


@jax.jit
def loud(x):
    return x + draw("normal", x.shape)
"""


def test_a_table_key_names_the_entry_that_runs(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"table_noise.py": TABLE_NOISE})
    # (`SAMPLERS[kind]` in `draw` picks by a parameter: which entry runs traced is unknown,
    # so `next_key`'s global write is not reported; `draw("normal", ...)` is, by its key state)
    assert [g[:4] for g in got] == [("JAX406", "table_noise.py", 35, 16)]
    assert got[0][4].startswith("`draw` draws from the module-global JAX key `_KEY`")
