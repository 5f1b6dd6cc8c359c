"""Batch 5's misses by mechanism (issue 22, branch recallJ): which binding of a NumPy-or-
jax.numpy name is live, and value kinds that reach a name through a container.

Import fallbacks (case 562): ``try: import jax.numpy as jnp`` / ``except ImportError:
import numpy as jnp``.  jaxlint assumes JAX is installed, so the handler does not run:
its imports only fill names nothing else binds and what it binds (``jnp = None``,
``HAS_JAX = False``) is discarded; ``if HAS_JAX:`` on the guard's flag takes its body.
A ``try`` whose body imports NumPy first keeps NumPy.

Each INVALID program's error was observed with JAX 0.10.2 (``TypeError: JAX arrays are
immutable``); the VALID twins run."""

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


def _immutable(target: str, fix: str) -> str:
    return f"JAX arrays are immutable: `{target} = ...` raises TypeError. Use `{fix}`"


FALLBACK_FROM = """\
try:
    from jax import numpy as np
except ModuleNotFoundError:
    import numpy as np


class Grid:
    def fill(self, n):
        out = np.ones((n, n))
        out[:, 0] = 0.0
        return out
"""

FALLBACK_NONE = """\
try:
    import jax.numpy as jnp
except ImportError:  # CPU-only installs
    jnp = None


def bump(n):
    out = jnp.zeros(n)
    out[0] = 1.0
    return out
"""

FALLBACK_FLAG = """\
try:
    import jax
    HAS_JAX = True
except ImportError:
    HAS_JAX = False

if HAS_JAX:
    import jax.numpy as xp
else:
    import numpy as xp


def stencil(n):
    out = xp.zeros(n)
    out[1:-1] = 2.0
    return out
"""

# NumPy is tried first and is installed: `jnp` is NumPy (updated in place: correct)
NUMPY_FIRST = """\
try:
    import numpy as jnp
except ImportError:
    import jax.numpy as jnp


def bump(n):
    out = jnp.zeros(n)
    out[0] = 1.0
    return out
"""

# the flag negated: the NumPy branch does not run
FLAG_NEGATED = """\
try:
    import jax.numpy
    HAS_JAX = True
except ImportError:
    HAS_JAX = False

if not HAS_JAX:
    import numpy as xp
else:
    import numpy as xp  # the project keeps NumPy for this buffer either way


def stencil(n):
    out = xp.zeros(n)
    out[1:-1] = 2.0
    return out
"""


def test_import_fallbacks_keep_the_jax_binding(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {
        "grid.py": FALLBACK_FROM, "bump.py": FALLBACK_NONE, "stencil.py": FALLBACK_FLAG,
    })
    assert got == [
        ("JAX101", "bump.py", 9, 5, _immutable("out[0]", "out = out.at[0].set(...)")),
        ("JAX101", "grid.py", 10, 9, _immutable("out[:, 0]", "out = out.at[:, 0].set(...)")),
        ("JAX101", "stencil.py", 15, 5, _immutable("out[1:-1]", "out = out.at[1:-1].set(...)")),
    ]


def test_import_fallbacks_that_leave_numpy_stay_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"bump.py": NUMPY_FIRST, "stencil.py": FLAG_NEGATED}) == []


# Module-valued parameters (case 541): `def f(x, xnp=np)` is NumPy where every call leaves
# `xnp` at its default (or passes NumPy); a call passing `jax.numpy` keeps it unknown.
NDC = """\
import jax.numpy as jnp
import numpy as np


def to_ndc(origins, near=1.0, xnp=np):
    oz = origins[..., 2] + near
    return xnp.stack([origins[..., 0] / oz, -xnp.ones_like(oz)], axis=-1)


def normalise(v, *, xp=np):
    return v / xp.linalg.norm(v, axis=-1, keepdims=True)
"""

NDC_MAIN = """\
import jax
import jax.numpy as jnp
import numpy as np

from cams.geometry import to_ndc, normalise


@jax.jit
def render(origins):
    return jnp.mean(to_ndc(origins, 2.0))


@jax.jit
def rays(v):
    return normalise(v, xp=np)
"""

NDC_MAIN_OK = """\
import jax
import jax.numpy as jnp

from cams.geometry import to_ndc, normalise


@jax.jit
def render(origins):
    return jnp.mean(to_ndc(origins, 2.0, xnp=jnp))


@jax.jit
def rays(v):
    return normalise(v, xp=jnp)
"""


def _ns_message(call: str, head: str, origin: str) -> str:
    return (f"`{call}` on a traced value ({origin}): `{head}` is NumPy here (what every call gives it), "
            "and NumPy converts the value with `__array__()`, which raises TracerArrayConversionError. "
            f"Pass `jax.numpy` as `{head}` where the function is traced")


def test_namespace_parameter_left_at_numpy_under_jit(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"cams/__init__.py": "", "cams/geometry.py": NDC, "main.py": NDC_MAIN})
    assert got == [
        ("JAX204", "cams/geometry.py", 7, 12, _ns_message(
            "xnp.stack", "xnp", "it depends on the traced argument `origins` of `to_ndc` (called from "
            "`render` (main.py:10), which is decorated with @jax.jit)")),
        ("JAX204", "cams/geometry.py", 7, 46, _ns_message(
            "xnp.ones_like", "xnp", "it depends on the traced argument `origins` of `to_ndc` (called from "
            "`render` (main.py:10), which is decorated with @jax.jit)")),
        ("JAX204", "cams/geometry.py", 11, 16, _ns_message(
            "xp.linalg.norm", "xp", "it depends on the traced argument `v` of `normalise` (called from "
            "`rays` (main.py:15), which is decorated with @jax.jit)")),
    ]


def test_namespace_parameter_given_jax_numpy_stays_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "cams/__init__.py": "", "cams/geometry.py": NDC, "main.py": NDC_MAIN_OK}) == []


# Value kinds through containers (case 559 part b): tracers put in a dict or list display
# in traced code and read back (`d["a"]`, `lst[-1]`, `d[k]` for every key, `d.values()`,
# `d.items()`, a comprehension of tracers) are tracers.
CONTAINERS = """\
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def features(x, y):
    feats = {"sin": jnp.sin(x), "raw": y}
    return np.exp(feats["sin"])


@jax.jit
def last(x, y):
    pair = [x, y * 2]
    return np.exp(pair[-1])


@jax.jit
def ordered(x, y):
    d = {"a": x, "b": y}
    return np.stack([d[k] for k in sorted(d)])


def logs(x, y):
    d = {"a": x, "b": y}
    return [np.log(v) for v in d.values()]


@jax.jit
def squash(w, b):
    out = []
    for name, p in {"w": w, "b": b}.items():
        out.append(np.tanh(p))
    return out


jitted_logs = jax.jit(logs)
"""

# host arrays and Python values kept in the same containers; a slot overwritten
CONTAINERS_OK = """\
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def features(x):
    feats = {"sin": jnp.sin(x), "w": np.ones(3)}
    return x * np.exp(feats["w"])


@jax.jit
def last(x):
    pair = [x, np.ones(3)]
    return x * np.exp(pair[1])


@jax.jit
def replaced(x):
    d = {"a": x}
    d["a"] = np.ones(3)
    return x * np.exp(d["a"])


@jax.jit
def names(x, y):
    d = {"a": x, "b": y}
    return d["a"] * len([np.str_(k) for k in d])
"""


def test_tracers_read_back_from_containers(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"feats.py": CONTAINERS})
    assert [g[:4] for g in got] == [
        ("JAX204", "feats.py", 9, 12),
        ("JAX204", "feats.py", 15, 12),
        ("JAX204", "feats.py", 21, 12),
        ("JAX204", "feats.py", 26, 13),
        ("JAX204", "feats.py", 33, 20),
    ]
    assert got[0][4] == (
        "`np.exp` on a traced value (it depends on the traced argument `x` of `features` (decorated with "
        "@jax.jit)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. "
        "Use `jnp.exp` (jax.numpy) instead")
    assert got[2][4].startswith("`np.stack` on a traced value (it depends on the traced arguments `x`, `y` of "
                                "`ordered`")


def test_host_values_in_containers_stay_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"feats.py": CONTAINERS_OK}) == []


# Unbatched vmap parameters (case 514): an `in_axes=None` parameter is not traced but takes
# what its calls pass: a host NumPy array indexed by a traced index raises.
LOOKUP = """\
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.vmap, in_axes=(0, None))
def nearest(x, grid):
    i = jnp.argmin(jnp.abs(x - grid))
    return grid[i]


print(nearest(jnp.array([0.4, 1.6]), np.linspace(0.0, 2.0, 5)))
"""

OPS = """\
import functools

import jax.numpy as jnp
from jax import vmap

__all__ = ["gather"]


@functools.partial(vmap, in_axes=(0, None, None))
def gather(x, table, offsets):
    i = jnp.clip(jnp.round(x).astype(jnp.int32), 0, 7)
    return table[i] + offsets
"""

OPS_MAIN = """\
import jax
import numpy

import tables.ops


print(jax.devices(), tables.ops.gather(numpy.array([0.5, 2.5]), numpy.arange(8.0), 1.0))
"""

# the same calls with JAX arrays
LOOKUP_OK = LOOKUP.replace("np.linspace(0.0, 2.0, 5)", "jnp.linspace(0.0, 2.0, 5)")
OPS_MAIN_OK = """\
import jax.numpy as jnp
import numpy

import tables.ops


print(tables.ops.gather(numpy.array([0.5, 2.5]), jnp.arange(8.0), 1.0))
print(tables.ops.gather(numpy.array([1.5, 3.5]), jnp.arange(8.0), 2.0))
"""


def _host_index(sub: str, name: str, origin: str) -> str:
    return (f"`{sub}` indexes the host NumPy array `{name}` with a traced value ({origin}): NumPy converts "
            f"the index with `__array__()`, which raises TracerArrayConversionError. Make it a JAX array "
            f"first: `jnp.asarray({name})[{sub[len(name) + 1:-1]}]`")


def test_unbatched_vmap_parameter_takes_the_callers_numpy_array(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {
        "lookup.py": LOOKUP, "tables/__init__.py": "", "tables/ops.py": OPS, "main.py": OPS_MAIN})
    assert got == [
        ("JAX204", "lookup.py", 11, 12, _host_index(
            "grid[i]", "grid", "it depends on the traced argument `x` of `nearest` (wrapped by jax.vmap)")),
        ("JAX204", "tables/ops.py", 12, 12, _host_index(
            "table[i]", "table", "it depends on the traced argument `x` of `gather` (wrapped by jax.vmap)")),
    ]


def test_unbatched_vmap_parameter_given_jax_arrays_stays_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "lookup.py": LOOKUP_OK, "tables/__init__.py": "", "tables/ops.py": OPS, "main.py": OPS_MAIN_OK}) == []


# a list made in the enclosing jitted function holds a tracer; a remat'ed closure bumps its
# item: still a Python update that runs once per trace (case 554 kept)
CLOSURE_ITEM = """\
import jax
import jax.numpy as jnp


def f():
    seq = [jnp.zeros([])]

    def g():
        seq[0] += 1
        return seq[0]

    jax.remat(g)()
    return seq[0]


print(jax.jit(f)())
"""


def test_item_update_of_a_list_holding_a_tracer_in_a_closure(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"closure.py": CLOSURE_ITEM})
    assert [g[:4] for g in got] == [("JAX402", "closure.py", 9, 9)]
    assert got[0][4].startswith("`seq` is a local of `f`: `seq[0] += 1` inside `g` (called from `f`) runs when jax.jit traces `f`")
