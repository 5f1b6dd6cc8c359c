"""Batch 6's misses by mechanism (issue 22, branch recallN): arguments JAX needs as Python
values, host libraries given tracers, removed `jaxlib` modules, Python values vs tracers,
chained comparisons, and value facts through conversions and comprehensions.

Each INVALID program's error was observed with JAX 0.10.2 (the error named in the
message); the VALID twins run and stay silent."""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str], select: str = "") -> list[tuple]:
    return lint_files(root, monkeypatch, files, select=select, dedent=True)


# 1. Arguments JAX needs as Python values (cases 623, 659): not the sizes of MORE_SIZE_ARGS
# but every static parameter of JAX's own jitted functions and the arguments other functions
# turn into Python ints (jaxlint/model/static_args.py, derived by bench/static_args.py).

STATIC_INVALID = """\
import functools

import jax
import jax.numpy as jnp


def rotate(img, quarter_turns):
    return jnp.rot90(img, quarter_turns)


@jax.jit
def augment(img, turns):
    return rotate(img, turns) + 1.0


@jax.jit
def quantize(x, bits):
    return jax.lax.reduce_precision(x, exponent_bits=bits, mantissa_bits=2)


def upper(scores):
    offset = jnp.argmax(scores[0])
    return jnp.triu(scores, k=offset)


rot = jax.jit(jnp.rot90)(jnp.ones((3, 3)), 2)
band = jax.vmap(upper)(jnp.ones((2, 3, 3)))
"""

STATIC_VALID = """\
import functools

import jax
import jax.numpy as jnp


def rotate(img, quarter_turns):
    return jnp.rot90(img, quarter_turns)


@functools.partial(jax.jit, static_argnames="turns")
def augment(img, turns):
    return rotate(img, turns) + 1.0


@jax.jit
def powers(F, x, axis=-1):
    out = [jnp.linalg.matrix_power(F, i) @ x for i in range(3)]
    n = F.shape[0]
    return jnp.roll(jnp.stack(out), n, axis=axis), jnp.triu(F, k=n - 1)


rot = jax.jit(jnp.rot90, static_argnums=1)(jnp.ones((3, 3)), 2)
rot2 = jax.jit(functools.partial(jnp.rot90, k=2))(jnp.ones((3, 3)))
"""

_UNHASHABLE = "ValueError: Non-hashable static arguments are not supported"


def test_static_arguments_of_jax_functions(tmp_path, monkeypatch):
    # a static argument of JAX's own jit is a static position (JAX207: what JAX raises is
    # "Non-hashable static arguments"); any other Python-value argument is a conversion (JAX202)
    found = _lint(tmp_path, monkeypatch, {"aug.py": STATIC_INVALID, "ok.py": STATIC_VALID}, "JAX202,JAX207")
    assert found == [
        ("JAX202", "aug.py", 18, 54,
         "`exponent_bits` of `lax.reduce_precision` must be a Python value (JAX compiles it into the "
         "computation), but it is traced: it depends on the traced argument `bits` of `quantize` "
         "(decorated with @jax.jit); this raises ConcretizationTypeError: Abstract tracer value "
         "encountered where concrete value is expected. Compute it from Python values (constants, "
         "shapes); or, if `bits` is a Python value, mark it static (static_argnums=1)"),
        ("JAX207", "aug.py", 8, 27,
         "`k` of `jnp.rot90` must be a Python value (JAX compiles it into the computation), but it is "
         "traced: it depends on the traced argument `quarter_turns` of `rotate` (called from traced "
         f"`augment`); this raises {_UNHASHABLE}. Compute it from Python values (constants, shapes)"),
        ("JAX207", "aug.py", 23, 31,
         "`k` of `jnp.triu` must be a Python value (JAX compiles it into the computation), but it is "
         "traced: it depends on the traced argument `scores` of `upper` (wrapped by jax.vmap); this "
         f"raises {_UNHASHABLE}. Compute it from Python values (constants, shapes)"),
        ("JAX207", "aug.py", 26, 44,
         "`jax.jit(jnp.rot90)` traces every argument it is not told is static, so `k` of `jnp.rot90` "
         f"(here `2`) becomes a tracer; it must be a Python value ({_UNHASHABLE}). Mark it static "
         "(`jax.jit(jnp.rot90, static_argnums=1)`), or bind it first: `functools.partial(jnp.rot90, k=...)`"),
    ]


def test_static_argument_table_matches_installed_jax():
    """The table is what bench/static_args.py derives from the installed JAX."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, str(root / "bench" / "static_args.py"), "--check"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


# 2. Host libraries (case 638): SciPy's own functions convert tracers with `__array__()` like
# NumPy (JAX204), and `math` turns its arguments into Python numbers (JAX202).

HOST_INVALID = """\
import math
from math import exp

import jax
import jax.numpy as jnp
import scipy
from scipy import linalg as sla
from scipy.stats import norm


@jax.jit
def propagate(generator, t):
    return sla.expm(generator * t)


def log_likelihood(mu, xs):
    return norm.logpdf(xs, loc=mu).sum()


def warmup(step, base):
    return base * exp(-step / 100.0) + math.sqrt(step)


grads = jax.grad(log_likelihood)(0.0, jnp.ones(3))
lr = jax.jit(warmup)(jnp.int32(3), 0.1)
k = jax.vmap(lambda a: scipy.special.gammaln(a))(jnp.ones(3))
"""

HOST_VALID = """\
import math

import jax
import jax.numpy as jnp
import jax.scipy as jsp
import numpy as np
import scipy
from scipy.stats import norm


@jax.jit
def propagate(generator, t):
    return jsp.linalg.expm(generator * t) * math.sqrt(generator.shape[0])


def host_logpdf(xs):
    return norm.logpdf(np.asarray(xs)).astype(np.float32)


@jax.jit
def score(xs):
    lp = jax.pure_callback(host_logpdf, jax.ShapeDtypeStruct(xs.shape, jnp.float32), xs)
    return lp.sum() + jsp.special.gammaln(xs).sum()


table = scipy.special.gammaln(np.arange(1.0, 4.0))
"""


def _scipy(call: str, q: str, origin: str, twin: str) -> str:
    shown = f"`{call}`" if call == q else f"`{call}` (`{q}`)"
    return (f"{shown} on a traced value ({origin}): SciPy runs on the host and converts it with "
            f"`__array__()`, which raises TracerArrayConversionError. Use `{twin}` instead")


def test_host_libraries_on_tracers(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"host.py": HOST_INVALID, "ok.py": HOST_VALID}, "JAX202,JAX204")
    step = ("it depends on the traced argument `step` of `warmup` (wrapped by jax.jit); `math` converts "
            "it with `__float__()`, which raises ConcretizationTypeError. Use `jnp.{}`; or, if `step` is a "
            "Python value, mark it static (static_argnums=0)")
    assert found == [
        ("JAX202", "host.py", 21, 19, "`math.exp()` needs a Python number, but its argument is traced: " + step.format("exp")),
        ("JAX202", "host.py", 21, 40, "`math.sqrt()` needs a Python number, but its argument is traced: " + step.format("sqrt")),
        ("JAX204", "host.py", 13, 12, _scipy(
            "sla.expm", "scipy.linalg.expm",
            "it depends on the traced arguments `generator`, `t` of `propagate` (decorated with @jax.jit)",
            "jax.scipy.linalg.expm")),
        ("JAX204", "host.py", 17, 12, _scipy(
            "norm.logpdf", "scipy.stats.norm.logpdf",
            "it depends on the traced argument `mu` of `log_likelihood` (differentiated by jax.grad)",
            "jax.scipy.stats.norm.logpdf")),
        ("JAX204", "host.py", 26, 24, _scipy(
            "scipy.special.gammaln", "scipy.special.gammaln",
            "it depends on the traced argument `a` of `<lambda>` (wrapped by jax.vmap)",
            "jax.scipy.special.gammaln")),
    ]


# 3. Removed APIs (case 653): jaxlib.xla_client, the module jax.lib.xla_client re-exported,
# still imports, without the members JAX's CHANGELOG removed from the re-export nor XLA's
# older client API; `import jaxlib.xla_client as xc` is not "JAX's internals".

XLA_CLIENT = """\
import jaxlib.xla_client as xc
from jaxlib.xla_client import ops, shape_from_pyval

import jax


def build():
    b = xc.XlaBuilder("add_one")
    x = ops.Parameter(b, 0, shape_from_pyval(1.0))
    return b.build(ops.Add(x, ops.Constant(b, 1.0)))


def on_error():
    try:
        return jax.devices()
    except xc.XlaRuntimeError:
        return []


dtype = xc.PrimitiveType.F32
"""

XLA_CLIENT_OLD = """\
from jaxlib import xla_client

c = xla_client.ComputationBuilder("simple_scalar")
backend = xla_client.get_local_backend()
shape = xla_client.Shape.array_shape(xla_client.PrimitiveType.F32, ())
"""


def test_removed_members_of_jaxlib_xla_client(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"build.py": XLA_CLIENT, "old.py": XLA_CLIENT_OLD}, "JAX901")
    hlo = ("was removed by JAX 0.10.2: use StableHLO: `jax.jit(f).lower(*args).compiler_ir()` instead "
           "(jaxlib.xla_client no longer has it)")
    assert found == [
        ("JAX901", "build.py", 2, 31, f"`from jaxlib.xla_client import ops` {hlo}"),
        ("JAX901", "build.py", 2, 36, f"`from jaxlib.xla_client import shape_from_pyval` {hlo}"),
        ("JAX901", "build.py", 8, 9, f"`xc.XlaBuilder` {hlo}"),
        ("JAX901", "build.py", 9, 29, f"`shape_from_pyval` (`jaxlib.xla_client.shape_from_pyval`) {hlo}"),
        ("JAX901", "old.py", 3, 5, f"`xla_client.ComputationBuilder` {hlo}"),
        ("JAX901", "old.py", 4, 11,
         "`xla_client.get_local_backend` was removed by JAX 0.10.2: use `jax.devices()` / "
         "`jax.extend.backend.get_backend()` instead (jaxlib.xla_client no longer has it)"),
    ]


# 4. Python value vs tracer (cases 627, 656, 657): an `int`/`float`/`bool` annotation does not make a
# parameter static under a jit that names no static arguments (it is a 0-d array tracer), and
# `type(x)`/`x.__class__` of a tracer printed in traced code shows the tracer's class.

VALUE_INVALID = """\
import jax
import jax.numpy as jnp


@jax.jit
def tile_rows(x, reps: int):
    return jnp.tile(x, (reps, 1))


def dropout(x, rate: float, train: bool):
    if train:
        return x * (1.0 - rate)
    return x


step = jax.jit(dropout)


@jax.jit
def describe(x):
    print("got", type(x).__name__)
    return x * 2


@jax.vmap
def per_row(row):
    print(f"row is {row.__class__}")
    return row.sum()
"""

VALUE_VALID = """\
import functools

import equinox as eqx
import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("reps",))
def tile_rows(x, reps: int):
    return jnp.tile(x, (reps, 1))


@jax.jit
def scale(x, factor: float):
    return x * factor


@eqx.filter_jit
def repeat(x, n: int):
    return jnp.tile(x, (n, 1))


@jax.jit
def shapes(x):
    print("tracing with", x.shape, x.dtype, type(x.shape))
    return x


def show(x):
    if isinstance(x, jax.core.Tracer):
        return x
    print(type(x))
    return x

"""

MODULES_VALID = """\
import flax.linen as nn
import jax
import jax.numpy as jnp
import haiku as hk
import equinox as eqx


class Block(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool, depth: int = 2):
        if train:
            x = nn.Dropout(0.1, deterministic=not train)(x)
        for _ in range(depth):
            x = nn.Dense(3)(x)
        return x


def forward(x, is_training: bool):
    if is_training:
        x = x * 2
    return hk.Linear(3)(x)


f = hk.transform(forward)


class M(eqx.Module):
    def __call__(self, x, n: int):
        return jnp.tile(x, (n, 1))


@jax.jit
def step(params, x):
    return Block().apply(params, x, True)


@jax.jit
def step2(params, x):
    return f.apply(params, None, x, True)


@eqx.filter_jit
def step3(m, x):
    return m(x, 3)
"""

_TYPE_PRINT = ("runs once, at trace time, and the type it prints is the tracer's class (e.g. "
               "`DynamicJaxprTracer`), not the type of the array the call is given; later calls print "
               "nothing. Print the type outside the traced function, or `jax.debug.print(\"{}\", x)` for "
               "the values")


def test_annotated_numbers_and_printed_types(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"prog.py": VALUE_INVALID, "ok.py": VALUE_VALID,
                                          "mods.py": MODULES_VALID}, "JAX201,JAX202,JAX401")
    assert found == [
        ("JAX201", "prog.py", 11, 8,
         "Python `if` on a traced value: it depends on the traced argument `train` of `dropout` (wrapped "
         "by jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; or, if "
         "`train` is a Python value, mark it static (static_argnums=2)"),
        ("JAX202", "prog.py", 7, 25,
         "A shape or size passed to `jnp.tile` is traced: it depends on the traced argument `reps` of "
         "`tile_rows` (decorated with @jax.jit); shapes must be concrete (TypeError: Shapes must be 1D "
         "sequences of concrete values). Derive it from `x.shape`; or, "
         "if `reps` is a Python value, mark it static (static_argnums=1)"),
        ("JAX401", "prog.py", 21, 5, f"`print` in traced `describe` {_TYPE_PRINT}"),
        ("JAX401", "prog.py", 27, 5, f"`print` in traced `per_row` {_TYPE_PRINT}"),
    ]


# 5. Syntax forms (case 614): a chained comparison `a < x <= b` converts `a < x` to a bool; `x in (0, 9)`
# converts each `==`; `q in labels` asks a traced array for a bool.

SYNTAX_INVALID = """\
import jax
import jax.numpy as jnp

LOW, HIGH = 380.0, 750.0


def visible(wavelength):
    return LOW <= wavelength < HIGH


@jax.jit
def is_edge(i):
    return i in (0, 9)


@jax.jit
def count_known(labels: jax.Array, query):
    if query in labels:
        return 1
    return 0


def body(carry, x):
    return carry + jnp.where(0.0 < x <= 1.0, x, 0.0), None


mask = jax.vmap(visible)(jnp.array([300.0, 500.0]))
total, _ = jax.lax.scan(body, 0.0, jnp.linspace(0.0, 2.0, 5))
"""

SYNTAX_VALID = """\
import functools

import jax
import jax.numpy as jnp

LOW, HIGH = 380.0, 750.0


def visible(wavelength):
    return (LOW <= wavelength) & (wavelength < HIGH)


@functools.partial(jax.jit, static_argnames=("n", "mode"))
def smooth(x, n, mode):
    if 0 < n < 10 and mode in ("mean", "median"):
        x = jnp.convolve(x, jnp.ones(n) / n, mode="same")
    axis = 0
    if 0 <= axis < x.ndim and x.shape[0] in (3, 5):
        x = x * 2
    return x

"""


# penzai's bind_variables: a traced object looked up in a dict (hashing, not `==`), and among
# objects that are not numbers
BIND_VALID = """\
import jax


@jax.jit
def bind(slot, value):
    substitution = {}
    if slot in substitution:
        raise ValueError(slot)
    if slot in (None, "x"):
        return value
    substitution[slot] = value
    return substitution
"""


def test_chained_comparisons_and_membership(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"syn.py": SYNTAX_INVALID, "ok.py": SYNTAX_VALID,
                                          "bind.py": BIND_VALID}, "JAX201")
    isin = "Use `jnp.isin(x, jnp.asarray(values))` or `jnp.any(array == x)`"
    assert found == [
        ("JAX201", "syn.py", 8, 12,
         "A chained comparison converts `LOW <= wavelength` to a Python bool before it compares again "
         "(it is `(LOW <= wavelength) and (...)`), but it is traced: it depends on the traced argument "
         "`wavelength` of `visible` (wrapped by jax.vmap); this raises TracerBoolConversionError. Compare "
         "each pair and combine them with `&`: `(LOW <= wavelength) & (...)`"),
        ("JAX201", "syn.py", 13, 12,
         "`in` compares `i` with each element of a Python sequence and converts each result to a Python "
         "bool, but `i` is traced: it depends on the traced argument `i` of `is_edge` (decorated with "
         f"@jax.jit); this raises TracerBoolConversionError. {isin}; or, if `i` is a Python value, mark "
         "it static (static_argnums=0)"),
        ("JAX201", "syn.py", 18, 8,
         "`in` asks the traced array `labels` for a Python bool: it depends on the traced argument "
         "`labels` of `count_known` (decorated with @jax.jit); this raises TracerBoolConversionError. "
         f"{isin}; or, if `labels` is a Python value, mark it static (static_argnums=0)"),
        ("JAX201", "syn.py", 24, 30,
         "A chained comparison converts `0.0 < x` to a Python bool before it compares again (it is "
         "`(0.0 < x) and (...)`), but it is traced: it depends on the traced argument `x` of `body` (a "
         "body passed to lax.scan); this raises TracerBoolConversionError. Compare each pair and combine "
         "them with `&`: `(0.0 < x) & (...)`"),
    ]


# 6. Value facts (cases 625, 660): conversions keep a known shape (`jnp.asarray(np.linspace(0, 1, 256))`,
# `jax.device_put`, `jnp.array(..., dtype=)`), and a name bound once to a list comprehension or
# `list(...)` is a Python list for jax.numpy.

FACTS_INVALID = """\
import jax
import jax.numpy as jnp
import numpy as np

CODEBOOK = np.linspace(0.0, 1.0, 256)
table = jnp.asarray(CODEBOOK)
last = table[256]


def lookup():
    weights = jax.device_put(np.zeros((4, 8)))
    return weights[:, 8]


class Embedding:
    def __init__(self):
        self.rows = jnp.array(np.ones((16, 4)), dtype=jnp.float32)

    def first_and_past_end(self):
        return self.rows[0], self.rows[16]
"""

FACTS_VALID = """\
import jax
import jax.numpy as jnp
import numpy as np

CODEBOOK = np.linspace(0.0, 1.0, 256)
table = jnp.asarray(CODEBOOK)
last = table[255]
wide = jnp.array(CODEBOOK, ndmin=2)
row = wide[0, 255]


def lookup():
    weights = jax.device_put(np.zeros((4, 8)))
    return weights[:, 7], weights[-4]
"""

LISTS_INVALID = """\
import jax
import jax.numpy as jnp


def loss(w, x):
    return jnp.sum((x @ w) ** 2)


def mean_grad(w, batches):
    grads = [jax.grad(loss)(w, b) for b in batches]
    return jnp.mean(grads, axis=0)


def widest(model, xs):
    outs = list(model(x) for x in xs)
    return jnp.max(outs, axis=0)


w = jnp.ones((4, 2))
scores = [jnp.vdot(w, w) * k for k in range(3)]
best = jnp.argmax(scores)
"""

LISTS_VALID = """\
import jax
import jax.numpy as jnp


def loss(w, x):
    return jnp.sum((x @ w) ** 2)


def mean_grad(w, batches):
    grads = [jax.grad(loss)(w, b) for b in batches]
    return jnp.mean(jnp.stack(grads), axis=0)


w = jnp.ones((4, 2))
scores = [jnp.vdot(w, w) * k for k in range(3)]
best = jnp.argmax(jnp.asarray(scores))
table = jnp.array([k * 2 for k in range(3)])


def top(scores):
    return jnp.argmax(scores)

"""


def _oob(index: int, axis: int, size: int) -> str:
    return (f"index {index} is out of bounds for axis {axis} with size {size}, and JAX raises no "
            "IndexError: the read is clamped to the nearest valid index (silently the wrong element)")


def _list(fn: str) -> str:
    return (f"`jnp.{fn}` does not accept a Python list: this raises `TypeError: {fn} requires ndarray or "
            "scalar arguments, got <class 'list'>`. Convert it first with `jnp.asarray(...)`")


def test_conversions_keep_shapes_and_comprehensions_are_lists(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"facts.py": FACTS_INVALID, "facts_ok.py": FACTS_VALID,
                                          "lists.py": LISTS_INVALID, "lists_ok.py": LISTS_VALID},
                  "JAX121,JAX130")
    assert found == [
        ("JAX121", "facts.py", 7, 14, _oob(256, 0, 256)),
        ("JAX121", "facts.py", 12, 23, _oob(8, 1, 8)),
        ("JAX121", "facts.py", 20, 40, _oob(16, 0, 16)),
        ("JAX130", "lists.py", 11, 21, _list("mean")),
        ("JAX130", "lists.py", 16, 20, _list("max")),
        ("JAX130", "lists.py", 21, 19, _list("argmax")),
    ]


SEG = """\
import jax
import jax.numpy as jnp


def dice_loss(predictions, targets, *, apply_softmax: bool = True, smooth: float = 1.0):
    if apply_softmax:
        predictions = jax.nn.softmax(predictions)
    return jnp.sum(predictions * targets) + smooth


def binary(predictions, targets, apply_sigmoid: bool = True):
    return dice_loss(predictions, targets, apply_softmax=apply_sigmoid)
"""

SEG_TEST = """\
import jax

import seg


def test_jit(p, t):
    return jax.jit(seg.dice_loss)(p, t)


def test_vmap():
    def single_loss(pred, target):
        return seg.dice_loss(pred[None, ...], target[None, ...])

    return jax.jit(jax.vmap(single_loss))
"""


def test_annotated_defaults_stay_python_values(tmp_path, monkeypatch):
    """optax's dice_loss: `apply_softmax: bool = True` under `jax.jit(dice_loss)(p, t)`
    keeps its default; a plain call elsewhere passing it does not go through the jit."""
    assert _lint(tmp_path, monkeypatch, {"seg.py": SEG, "seg_test.py": SEG_TEST}, "JAX201") == []
