"""Batch 9's misses by mechanism (issue 22, branch recallW): a JAX array handed to a
method of a project class in another module (an instance built there, held in a local
or in an attribute), and JAX502's message for a loop under `jax.vmap` alone.

Each INVALID program's TypeError was observed with JAX 0.10.2; the VALID twins run and
stay silent."""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str], select: str = "") -> list[tuple]:
    return lint_files(root, monkeypatch, files, select=select, dedent=True)


# 1. In-place item assignment on a JAX array that reaches a method of a class of another
# module (case 931, arviz-stats#367: `_DiagnosticsBase()._ps_tail(log_weights, ...)` writes
# `ary[ordered[tail_ids]] = smoothed`). The method's parameter takes the kinds its calls
# pass, as a function's does: written three ways, a fresh instance (`Smoother()._clip`), an
# instance held in a local (`ranker = Ranker(); ranker._rank(v)`) and one held in an
# attribute set in `__init__` (`self.ranker._rank(v)`), the array made in a third module.

SMOOTHING = """\
import numpy as np


class Smoother:
    def _clip_tail(self, ary, cutoff):
        ary = ary - np.max(ary)
        ary[ary > cutoff] = cutoff
        return ary


class Ranker:
    def _rank(self, values):
        order = np.argsort(values)
        values[order[:2]] = 0.0
        return values
"""

API = """\
from stats.smoothing import Ranker, Smoother


def smooth(log_weights):
    return Smoother()._clip_tail(log_weights, 0.5)


def rank(values):
    ranker = Ranker()
    return ranker._rank(values)


class Pipeline:
    def __init__(self):
        self.ranker = Ranker()

    def _run(self, values):
        return self.ranker._rank(values)
"""

MAIN = """\
import jax.numpy as jnp

from stats.api import Pipeline, rank, smooth

draws = jnp.linspace(0.0, 1.0, 10)
smoothed = smooth(-draws)
ranked = rank(draws * 2)
piped = Pipeline()._run(draws + 1)
"""

# the corrected driver hands NumPy copies (`np.asarray`): the writes are NumPy's
MAIN_OK = """\
import jax.numpy as jnp
import numpy as np

from stats.api import Pipeline, rank, smooth

draws = jnp.linspace(0.0, 1.0, 10)
smoothed = smooth(np.asarray(-draws))
ranked = rank(np.array(draws * 2))
piped = Pipeline()._run(np.asarray(draws + 1))
"""

# one call passes a JAX array, another a value the model cannot place (a parameter nobody
# calls): the joined kind is unknown, and unknown never reports
API_MIXED = API + """

def rank_any(values):
    return Ranker()._rank(values)
"""


def _files(main: str, api: str = API) -> dict[str, str]:
    return {"stats/__init__.py": "", "stats/smoothing.py": SMOOTHING, "stats/api.py": api, "main.py": main}


def test_jax_array_reaches_a_method_of_another_module(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, _files(MAIN), select="JAX101") == [
        ("JAX101", "stats/smoothing.py", 7, 9,
         "JAX arrays are immutable: `ary[ary > cutoff] = ...` raises TypeError. Use `ary = ary.at[ary > cutoff].set(...)`"),
        ("JAX101", "stats/smoothing.py", 14, 9,
         "JAX arrays are immutable: `values[order[:2]] = ...` raises TypeError. Use `values = values.at[order[:2]].set(...)`"),
    ]


def test_numpy_copies_given_to_the_methods_stay_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, _files(MAIN_OK)) == []


def test_a_method_also_given_an_unknown_value_stays_silent(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, _files(MAIN, API_MIXED), select="JAX101")
    assert [f[1:4] for f in found] == [("stats/smoothing.py", 7, 9)]  # `_rank`'s write: unknown


# the same in one file: a method called on an instance of a class of this file
ONE_FILE = """\
import jax.numpy as jnp
import numpy as np


class Table:
    def _write(self, buf, i):
        buf[i] = 1.0
        return buf


def fill(n):
    table = Table()
    return table._write(jnp.zeros(n), 0), Table()._write(jnp.ones(n), 1)
"""


def test_jax_array_given_to_a_method_of_this_file(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"table.py": ONE_FILE}, select="JAX101") == [
        ("JAX101", "table.py", 7, 9,
         "JAX arrays are immutable: `buf[i] = ...` raises TypeError. Use `buf = buf.at[i].set(...)`"),
    ]
    fixed = ONE_FILE.replace("jnp.zeros(n)", "np.zeros(n)").replace("jnp.ones(n)", "np.ones(n)")
    assert _lint(tmp_path, monkeypatch, {"table.py": fixed}, select="JAX101") == []


# 2. JAX502 under `jax.vmap` alone (the new-user review; neural-tangents' `predict_test.py`
# ensemble loop): nothing is compiled as one program, every call traces again and
# dispatches the copies' operations one by one (measured, jax 0.10.2: 200 iterations of
# `jnp.sin(x) + i`, 85 ms a call under vmap against 0.4 ms with `lax.fori_loop`); the
# same function mapped under `jax.jit` keeps the compile-time message. Written through a
# helper the mapped function calls (a comprehension) and with the map applied inside
# `jax.jit`.

MAPPED = """\
import jax
import jax.numpy as jnp


def smooth(x):
    return jnp.stack([jnp.roll(x, k) for k in range(128)]).mean(0)


def member(key):
    x = jax.random.normal(key, (16,))
    return smooth(x)


def main():
    keys = jax.random.split(jax.random.key(0), 4)
    return jax.vmap(member)(keys)
"""

EAGER = (
    "this Python loop runs 128 times while JAX traces `smooth`, so every call traces again and runs 128 "
    "copies of its body, each operation dispatched on its own (`vmap` without `jit` compiles no program): "
    "the time of every call grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect "
    "per-step outputs)"
)
COMPILED = (
    "this Python loop runs 128 times while JAX traces `smooth`, so it is unrolled into 128 copies of its "
    "body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step "
    "outputs)"
)


def test_loop_under_vmap_alone_costs_dispatches_not_compiles(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"ens.py": MAPPED}, select="JAX502") == [
        ("JAX502", "ens.py", 6, 47, EAGER)]
    jitted = MAPPED.replace("jax.vmap(member)(keys)", "jax.jit(jax.vmap(member))(keys)")
    assert _lint(tmp_path, monkeypatch, {"ens.py": jitted}, select="JAX502") == [
        ("JAX502", "ens.py", 6, 47, COMPILED)]


# 3. JAX207 (case 927, bonsai#170): a JAX array built from host data a few lines up and
# passed in a static position. The call raises (one finding, where the static position is
# seen); the message names the line that made the value, where the fix goes (a tuple of
# tuples). A NumPy array keeps its own wording; the corrected call (a tuple) is silent.

STATIC = """\
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnums=1)
def forward(x, grid):
    return x * 2


def main(data):
    grid = jnp.array(data["grid"])
    table = np.asarray(data["grid"])
    a = forward(jnp.ones(3), grid)
    b = forward(jnp.ones(3), table)
    c = forward(jnp.ones(3), tuple(map(tuple, data["grid"])))
    return a, b, c
"""

_REST = ("is passed to `forward` in a static position (parameter `grid`; static_argnums=1): static arguments "
         "must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. "
         "Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)")


def test_static_array_names_the_line_that_made_it(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"run.py": STATIC}, select="JAX207") == [
        ("JAX207", "run.py", 16, 30,
         "A JAX array (`grid` is bound to `jnp.array(data[\"grid\"])` on line 14) " + _REST),
        ("JAX207", "run.py", 17, 30,
         "A NumPy array (`table` is bound to `np.asarray(data[\"grid\"])`) " + _REST),
    ]


# 4. Attributes of an object built in traced code from tracers (case 911, celerite2#78:
# `over = OverdampedSHOTerm(..., Q=Q)` in a numpyro model, then `if over.Q < 0.5:`): a
# plain class whose `__init__` stores its parameters as they are holds the tracers it
# was given. Written two ways: keywords stored by an unpacking (`self.S0, self.Q = S0, Q`)
# in a helper a jitted function calls, and positional arguments stored one by one in a
# `lax.scan` body (`float(box.hi - box.lo)`). Both raise with JAX 0.10.2
# (TracerBoolConversionError, ConcretizationTypeError). The attribute given a Python float
# (`term.S0 > 0.0`) is silent, and so are the VALID twins: the corrected code
# (`jnp.where`, no `float`), an attribute the file sets again, a class that hooks
# attribute writes.

STORED = """\
import jax
import jax.numpy as jnp


class Term:
    def __init__(self, *, S0, Q, eps=1e-5):
        self.S0, self.Q, self.eps = S0, Q, eps


def pick(q):
    term = Term(S0=1.0, Q=q)
    if term.Q < 0.5:
        return term.S0
    if term.S0 > 0.0:
        return 2.0 * term.S0
    return 0.0


class Box:
    def __init__(self, lo, hi):
        self.lo = lo
        self.hi = hi


def body(carry, x):
    box = Box(x - 1.0, x + 1.0)
    width = float(box.hi - box.lo)
    return carry + width, x


@jax.jit
def model(log_q):
    return pick(jnp.exp(log_q))


totals = jax.lax.scan(body, 0.0, jnp.arange(3.0))
"""

STORED_OK = """\
import jax
import jax.numpy as jnp


class Term:
    def __init__(self, *, S0, Q, eps=1e-5):
        self.S0, self.Q, self.eps = S0, Q, eps


def pick(q):
    term = Term(S0=1.0, Q=q)
    return jnp.where(term.Q < 0.5, term.S0, 2.0 * term.S0)


class Box:
    def __init__(self, lo, hi):
        self.lo = lo
        self.hi = hi


class Clamped:
    def __init__(self, v):
        self.v = v

    def __setattr__(self, name, value):
        object.__setattr__(self, name, 0.5 if name == "v" else value)


def body(carry, x):
    box = Box(x - 1.0, x + 1.0)
    box.hi = 2.0
    width = box.hi - box.lo
    if Clamped(x).v > 0.0:
        width = width + 1.0
    return carry + width, x


@jax.jit
def model(log_q):
    return pick(jnp.exp(log_q))


totals = jax.lax.scan(body, 0.0, jnp.arange(3.0))
"""


def test_attributes_of_an_object_built_from_tracers(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"terms.py": STORED}) == [
        ("JAX201", "terms.py", 12, 8,
         "Python `if` on a traced value: it depends on the traced argument `q` of `pick` (called from traced "
         "`model`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
        ("JAX202", "terms.py", 27, 13,
         "`float()` needs a concrete value, but its argument is traced: it depends on the traced argument `x` "
         "of `body` (a body passed to lax.scan); this raises ConcretizationTypeError. Instead, keep it as an "
         "array (`x.astype(jnp.float32)`), or return it and convert outside the traced function"),
    ]


def test_attributes_the_code_sets_again_or_hooks_stay_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"terms.py": STORED_OK}) == []


# ... and across modules: the class's module tells which attributes `__init__` stores
# (a `stored` fact), reached as a module's attribute (`terms.Term(...)`) and as an
# imported name (`Window(...)`). VALID: an attribute the class sets again in a method,
# or that the calling module sets, is not the tracer the call gave.

GP_TERMS = """\
import jax.numpy as jnp


class Term:
    def __init__(self, *, S0, Q):
        self.S0, self.Q = S0, Q

    def value(self, tau):
        return self.S0 * jnp.exp(-tau / self.Q)


class Window:
    def __init__(self, lo, hi):
        self.lo = lo
        self.hi = hi
"""

GP_MAIN = """\
import jax
import jax.numpy as jnp

from gp import terms
from gp.terms import Window


def pick(q):
    term = terms.Term(S0=1.0, Q=q)
    if term.Q < 0.5:
        return term.value(1.0)
    return term.S0


@jax.jit
def model(log_q, x):
    w = Window(x - 1.0, x + 1.0)
    n = int(w.hi - w.lo)
    return pick(jnp.exp(log_q)) * n
"""


def test_attributes_of_an_object_of_another_module_built_from_tracers(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"gp/__init__.py": "", "gp/terms.py": GP_TERMS, "main.py": GP_MAIN}) == [
        ("JAX201", "main.py", 10, 8,
         "Python `if` on a traced value: it depends on the traced argument `q` of `pick` (called from traced "
         "`model`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
        ("JAX202", "main.py", 18, 9,
         "`int()` needs a concrete value, but its argument is traced: it depends on the traced argument `x` of "
         "`model` (decorated with @jax.jit); this raises ConcretizationTypeError. Instead, keep it as an array "
         "(`x.astype(jnp.int32)`), or return it and convert outside the traced function; or, if `x` is a Python "
         "value, mark it static (static_argnums=1)"),
    ]


def test_attributes_set_again_in_either_module_stay_silent(tmp_path, monkeypatch):
    terms_set_again = GP_TERMS.replace(
        "    def value(self, tau):",
        "    def clamp(self):\n        self.Q = 0.5\n\n    def value(self, tau):")
    main_sets = GP_MAIN.replace("    n = int(w.hi - w.lo)", "    w.hi, w.lo = 2.0, 1.0\n    n = int(w.hi - w.lo)")
    main_sets = main_sets.replace("    if term.Q < 0.5:", "    term.clamp()\n    if term.Q < 0.5:")
    found = _lint(tmp_path, monkeypatch, {"gp/__init__.py": "", "gp/terms.py": terms_set_again,
                                          "main.py": main_sets})
    assert found == []
    # (the twin runs: model(0.0, 1.0) gives 1.0)
