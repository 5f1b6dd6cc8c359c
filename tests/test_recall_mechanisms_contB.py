"""JAX arrays held in containers (branch contB): an item assignment through the
container writes into an immutable JAX array and raises

    TypeError: JAX arrays are immutable and do not support in-place item assignment.

(observed with the venv's JAX 0.10.2 on CPU for each INVALID program below; the VALID
twins run).  Mechanisms, in the model (not in JAX101):

1. a dict whose every value is a concrete JAX array carries that (``Value.item``): a
   display, ``dict(w=..., b=...)``, a comprehension (``{k: jnp.zeros(s) for ...}``), a helper's return (this module or another, the
   ``"every"`` of its ``dict`` values fact), the dicts every call passes to a parameter
   (``dict:*=array,...``), ``jax.grad`` of such a dict, ``jax.tree.map`` of a JAX function
   over one (``jax.tree.map(jnp.ones_like, params)``); so ``params[name]``,
   ``for k in params: params[k]`` and ``for v in params.values()`` are JAX arrays.  A
   store of anything else (``params[k] = np.array(...)``), a method that changes the
   dict (``params.update(...)``), handing it to a call, or an alias written, forgets it;
2. a ``typing.NamedTuple`` of the file built here keeps its fields' kinds, as dataclasses
   did (``State(jnp.zeros(3)).w``), and one of another module built by keyword;
3. a tuple display of JAX arrays under a literal key (``{"kv": (k, v)}``) keeps its
   items; a list display (``{"k": [jnp.zeros(4)]}``) too, where every ``["k"]`` of the file
   is read at once by an integer index and nothing is stored into it;
4. a dict of the module read in a function keeps its entries only where the file neither
   stores into it nor changes it nor hands it to a call;
5. ``list(d)`` / ``tuple(d)`` of a dict holds its keys, not its values (a JAX201 false
   positive of main on ``for n in list(d): if n:`` in jitted code).

JAX101's message for an array held in a tuple (``ws[0][1] = v``) no longer advises
``ws[0] = ...`` (a tuple's item cannot be assigned either), nor ``s.w = ...`` for a
NamedTuple's field (AttributeError): ``s = s._replace(w=s.w.at[0].set(...))``, no fix."""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str]) -> list[tuple]:
    return lint_files(root, monkeypatch, files, select="JAX101")


def _msg(written: str, use: str, op: str = "=") -> str:
    return f"JAX arrays are immutable: `{written} {op} ...` raises TypeError. Use `{use}`"


# `for v in d.values(): v[0] = ...`: the advice writes back into the dict (updC)
VALUES_LOOP = " (rebinding the loop variable `v` would leave `{}` unchanged)"


# ---------------------------------------------------------------- 1. every value an array
ANY_KEY = """\
import jax
import jax.numpy as jnp


def bump(name, idx, lr):
    grads = {"w": jnp.zeros((3, 3)), "b": jnp.zeros(3)}
    grads[name][idx] += lr
    return grads


def zero_rows():
    params = dict(w=jnp.ones(3), b=jnp.ones(2))
    for k in params:
        params[k][0] = 0.0
    return params


def clip_all(x):
    g = jax.grad(lambda p: jnp.sum(p["w"] * x) + jnp.sum(p["b"]))({"w": x, "b": x})
    grads = jax.grad(loss)({"w": jnp.ones(3), "b": jnp.ones(3)}, x)
    for v in grads.values():
        v[0] = 0.0
    return g, grads


def loss(p, x):
    return jnp.sum(p["w"] * x + p["b"])
"""

ANY_KEY_FIXED = """\
import json

import jax
import jax.numpy as jnp
import numpy as np


def bump(name, idx, lr):
    grads = {"w": jnp.zeros((3, 3)), "b": jnp.zeros(3)}
    grads[name] = grads[name].at[idx].add(lr)
    return grads


def host_rows(name):
    params = {"w": np.ones(3), "b": np.ones(2)}
    for k in params:
        params[k][0] = 0.0
    mixed = dict(w=jnp.ones(3), b=np.ones(2))
    mixed[name][0] = 0.0
    return params, mixed


def rebound(name):
    params = {"w": jnp.ones(3), "b": jnp.ones(2)}
    params[name] = np.array(params[name])
    params[name][0] = 0.0
    other = {"w": jnp.ones(3)}
    other.update(w=np.zeros(3))
    other[name][0] = 0.0
    alias = {"w": jnp.ones(3)}
    same = alias
    same[name] = [0.0, 0.0]
    alias[name][0] = 1.0
    return params, other, alias


def from_config(path, name):
    with open(path) as f:
        cfg = json.load(f)
    cfg[name][0] = 1.0
    return cfg
"""


def test_any_key_of_a_dict_of_arrays(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": ANY_KEY}) == [
        ("JAX101", "prog.py", 7, 5, _msg("grads[name][idx]", "grads[name] = grads[name].at[idx].add(...)", "+=")),
        ("JAX101", "prog.py", 14, 9, _msg("params[k][0]", "params[k] = params[k].at[0].set(...)")),
        ("JAX101", "prog.py", 22, 9, _msg("v[0]", "for k in grads: grads[k] = grads[k].at[0].set(...)") + VALUES_LOOP.format("grads")),
    ]


def test_any_key_fixed_numpy_rebound_unknown_are_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": ANY_KEY_FIXED}) == []


HELPERS = """\
import jax
import jax.numpy as jnp
import numpy as np


def init_params(key, shape):
    k1, k2 = jax.random.split(key)
    return {"w": jax.random.normal(k1, shape), "b": jnp.zeros(shape[-1])}


def init_host(shape):
    return {"w": np.zeros(shape), "b": jnp.zeros(shape[-1])}
"""

USES_HELPERS = """\
import jax
import jax.numpy as jnp

import helpers
from helpers import init_host, init_params


def reset_first_rows(key):
    params = init_params(key, (3, 3))
    for name in params:
        params[name][0] = 0.0
    return params


def reset_values(key):
    p = helpers.init_params(key, (2, 2))
    for v in p.values():
        v[0] = 1.0
    return p


def host(name):
    h = init_host((2, 2))
    h[name][0] = 1.0
    return h


def zero_first(tree):
    for k in tree:
        tree[k][0] = 0.0
    return tree


zero_first({"w": jnp.zeros(3), "b": jnp.zeros(2)})
zero_first(dict(w=jnp.ones(3), b=jnp.ones(2)))
"""


def test_any_key_through_helpers_and_calls(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"helpers.py": HELPERS, "main.py": USES_HELPERS}) == [
        ("JAX101", "main.py", 11, 9, _msg("params[name][0]", "params[name] = params[name].at[0].set(...)")),
        ("JAX101", "main.py", 18, 9, _msg("v[0]", "for k in p: p[k] = p[k].at[0].set(...)") + VALUES_LOOP.format("p")),
        ("JAX101", "main.py", 30, 9, _msg("tree[k][0]", "tree[k] = tree[k].at[0].set(...)")),
    ]


def test_any_key_a_call_passing_host_arrays_is_silent(tmp_path, monkeypatch):
    mixed = USES_HELPERS + 'import numpy as np\nzero_first({"w": np.zeros(3), "b": np.zeros(2)})\n'
    found = _lint(tmp_path, monkeypatch, {"helpers.py": HELPERS, "main.py": mixed})
    assert [f[:4] for f in found] == [("JAX101", "main.py", 11, 9), ("JAX101", "main.py", 18, 9)]


# ---------------------------------------------------------------- 2. NamedTuple fields
RECORDS = """\
from typing import NamedTuple
import typing

import jax
import jax.numpy as jnp
import numpy as np


class State(NamedTuple):
    w: jax.Array
    step: int


class Buffers(typing.NamedTuple):
    obs: object
    rew: object


def update():
    s = State(jnp.zeros(3), 0)
    s.w[0] = 1.0
    b = Buffers(rew=jnp.zeros(4), obs=np.zeros(4))
    b.obs[0] = 1.0
    b.rew[1] += 2.0
    return s, b
"""


def test_namedtuple_fields_keep_their_kind(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": RECORDS}) == [
        ("JAX101", "prog.py", 21, 5, _msg("s.w[0]", "s = s._replace(w=s.w.at[0].set(...))")),
        ("JAX101", "prog.py", 24, 5, _msg("b.rew[1]", "b = b._replace(rew=b.rew.at[1].add(...))", "+=")),
    ]


# ---------------------------------------------------------------- 3. tuples and lists inside
NESTED = """\
import jax.numpy as jnp
import numpy as np


def write_cache():
    cache = {"k": [jnp.zeros(4)], "kv": (jnp.zeros(4), jnp.ones(4))}
    cache["k"][0][1] = 2.0
    cache["kv"][1][0] = 2.0
    ws = (jnp.ones(3), jnp.ones(3))
    ws[0][1] = 0.0
    return cache, ws


def host_cache():
    store = {"q": [jnp.zeros(4)], "hv": (np.zeros(4),)}
    store["q"][0] = np.zeros(4)
    store["q"][0][1] = 2.0
    store["hv"][0][0] = 1.0
    return store


def aliased():
    store = {"r": [jnp.zeros(4)]}
    rows = store["r"]
    rows[0] = np.zeros(4)
    store["r"][0][1] = 2.0
    return store
"""


def test_tuples_and_lists_inside_a_dict(tmp_path, monkeypatch):
    tuple_advice = "(a tuple's item cannot be assigned either)"
    assert _lint(tmp_path, monkeypatch, {"prog.py": NESTED}) == [
        ("JAX101", "prog.py", 7, 5, _msg('cache["k"][0][1]', 'cache["k"][0] = cache["k"][0].at[1].set(...)')),
        ("JAX101", "prog.py", 8, 5, _msg('cache["kv"][1][0]', 'cache["kv"][1].at[0].set(...)')
         + f' in a new tuple in place of `cache["kv"]` {tuple_advice}'),
        ("JAX101", "prog.py", 10, 5, _msg("ws[0][1]", "ws[0].at[1].set(...)") + f" in a new tuple in place of `ws` {tuple_advice}"),
    ]


# ---------------------------------------------------------------- 4. a module's dict
TABLES = """\
import jax.numpy as jnp
import numpy as np

TABLE = {"a": jnp.arange(4), "b": jnp.arange(4)}
SHARED = {"a": jnp.arange(4), "b": jnp.arange(4)}
HANDED = {"a": jnp.arange(4)}


def reset(name):
    SHARED[name] = np.zeros(4)


def fill(d):
    d.update(a=np.zeros(4))


fill(HANDED)


def poke(name):
    TABLE["a"][0] = 9
    TABLE[name][1] = 9
    SHARED[name][0] = 9
    SHARED["a"][0] = 9
    HANDED["a"][0] = 9
"""


def test_module_dict_entries_only_where_nothing_changes_it(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": TABLES}) == [
        ("JAX101", "prog.py", 21, 5, _msg('TABLE["a"][0]', 'TABLE["a"] = TABLE["a"].at[0].set(...)')),
        ("JAX101", "prog.py", 22, 5, _msg("TABLE[name][1]", "TABLE[name] = TABLE[name].at[1].set(...)")),
    ]


STATE_MODULE = """\
from typing import NamedTuple

import jax


class State(NamedTuple):
    w: jax.Array
    step: int
"""

USES_STATE = """\
import jax.numpy as jnp
import numpy as np

import state
from state import State


def step():
    s = State(w=jnp.zeros(3), step=0)
    s.w[0] = 1.0
    t = state.State(step=1, w=jnp.ones(3))
    t.w[1] += 1.0
    h = State(w=np.zeros(3), step=0)
    h.w[0] = 1.0
    return s, t, h
"""


def test_namedtuple_of_another_module_built_by_keyword(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"state.py": STATE_MODULE, "main.py": USES_STATE}) == [
        ("JAX101", "main.py", 10, 5, _msg("s.w[0]", "s = s._replace(w=s.w.at[0].set(...))")),
        ("JAX101", "main.py", 12, 5, _msg("t.w[1]", "t = t._replace(w=t.w.at[1].add(...))", "+=")),
    ]


COMPREHENSIONS = """\
import jax
import jax.numpy as jnp
import numpy as np


def init(shapes, key):
    params = {k: jnp.zeros(s) for k, s in shapes.items()}
    for k in params:
        params[k][0] = 1.0
    keys = jax.random.split(key, len(shapes))
    drawn = {name: jax.random.normal(kk, (3,)) for name, kk in zip(shapes, keys)}
    for v in drawn.values():
        v[0] = 0.0
    host = {k: np.zeros(s) for k, s in shapes.items()}
    for k in host:
        host[k][0] = 1.0
    lists = {k: [0.0] * 3 for k in shapes}
    for k in lists:
        lists[k][0] = 1.0
    return params, drawn, host, lists
"""


def test_dict_comprehension_of_arrays(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": COMPREHENSIONS}) == [
        ("JAX101", "prog.py", 9, 9, _msg("params[k][0]", "params[k] = params[k].at[0].set(...)")),
        ("JAX101", "prog.py", 13, 9, _msg("v[0]", "for k in drawn: drawn[k] = drawn[k].at[0].set(...)") + VALUES_LOOP.format("drawn")),
    ]


TREE_MAPS = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax import tree_util


def masks(name):
    params = {"w": jnp.ones(3), "b": jnp.ones(2)}
    mask = jax.tree.map(jnp.ones_like, params)
    mask["w"][0] = 0.0
    mags = tree_util.tree_map(jnp.abs, params)
    mags[name][1] = 0.0
    host = jax.tree.map(np.array, params)
    host[name][0] = 0.0
    return mask, mags, host
"""


def test_tree_map_of_a_jax_function_over_a_dict_of_arrays(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": TREE_MAPS}) == [
        ("JAX101", "prog.py", 10, 5, _msg('mask["w"][0]', 'mask["w"] = mask["w"].at[0].set(...)')),
        ("JAX101", "prog.py", 12, 5, _msg("mags[name][1]", "mags[name] = mags[name].at[1].set(...)")),
    ]


KEYS_OF_A_DICT_OF_TRACERS = """\
import jax


@jax.jit
def total(x):
    d = {"a": x * 2, "b": x + 1}
    out = 0.0
    for n in list(d):
        if n:
            out = out + d[n]
    for n in tuple(d):
        if n != "":
            out = out - d[n]
    return out
"""


def test_list_of_a_dict_is_its_keys_not_its_values(tmp_path, monkeypatch):
    # `list(d)` of a dict (of tracers, or of JAX arrays) holds its keys: Python strings
    # (main took them for the dict's tracers: JAX201 on `if n:`; the program runs)
    assert lint_files(tmp_path, monkeypatch, {"prog.py": KEYS_OF_A_DICT_OF_TRACERS}) == []
