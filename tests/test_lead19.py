"""The lead's fixes of session 19, each from a reviewer's reading of fresh set 20.

1. JAX901 on the calls of a removed name imported under the user's own alias whose
   replacement is the same callable: mesh-transformer-jax imports
   `from jax.experimental import PartitionSpec as P` twice and calls `P(...)` 35 times;
   each call was reported beside the import, though the import's fix (`from
   jax.sharding import PartitionSpec as P`) mends them all. Calls of the removed name
   itself (renamed at the call: `tree_multimap(...)`) and of names with no drop-in
   replacement (`id_print(x)`) are still reported.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str], select: str) -> list[tuple]:
    return lint_files(root, monkeypatch, files, select=select)


SPEC_ALIAS = """\
from jax.experimental import PartitionSpec as P


def layer_specs(n):
    return [P("dp", None) for _ in range(n)], P(None, "mp")
"""

SPEC_OTHER_ALIAS = """\
import jax
from jax.experimental.maps import Mesh as DeviceMesh
from jax.experimental import PartitionSpec as Spec


def build(devices):
    mesh = DeviceMesh(devices, ("dp",))
    return mesh, Spec("dp")
"""

NAME_ITSELF = """\
from jax.experimental import PartitionSpec
from jax.experimental.host_callback import id_print


def spec(x):
    id_print(x)
    return PartitionSpec("dp")
"""


def test_calls_of_a_drop_in_alias_are_the_imports_finding(tmp_path, monkeypatch):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    found = _lint(tmp_path / "a", monkeypatch, {"specs.py": SPEC_ALIAS}, "JAX901")
    assert [(f[0], f[1], f[2], f[3]) for f in found] == [("JAX901", "specs.py", 1, 30)]
    found = _lint(tmp_path / "b", monkeypatch, {"mesh.py": SPEC_OTHER_ALIAS}, "JAX901")
    assert [(f[0], f[1], f[2], f[3]) for f in found] == [
        ("JAX901", "mesh.py", 2, 35), ("JAX901", "mesh.py", 3, 30)]


def test_calls_of_the_removed_name_itself_are_still_reported(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"spec.py": NAME_ITSELF}, "JAX901")
    assert [(f[0], f[1], f[2], f[3]) for f in found] == [
        ("JAX901", "spec.py", 1, 30), ("JAX901", "spec.py", 2, 44),
        ("JAX901", "spec.py", 6, 5), ("JAX901", "spec.py", 7, 12)]
    assert found[3][4].startswith("`PartitionSpec` (`jax.experimental.PartitionSpec`) was removed in "
                                  "JAX 0.4.11 (deprecated in 0.4.1): use `jax.sharding.PartitionSpec`")


# 2. Four rows said "was removed in JAX 0.10.2", a version JAX's CHANGELOG does not give
# for them (it records only their deprecation; they are gone in 0.10.2, the version the
# table was checked against): they say "removed by" as the table's other such rows do
# (reviewer A of fresh set 20 on mesh-transformer-jax's `with_sharding_constraint`).

WSC = """\
from jax.experimental.pjit import with_sharding_constraint
from jax.experimental import enable_x64
import jax


def shard(x, spec):
    return jax.lax.zeros_like_array(with_sharding_constraint(x, spec))
"""


def test_removal_the_changelog_does_not_date_says_by(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"wsc.py": WSC}, "JAX901")
    assert [(f[2], f[3], f[4]) for f in found] == [
        (1, 35, "`from jax.experimental.pjit import with_sharding_constraint` was removed by JAX "
                "0.10.2 (deprecated in 0.4.16): use `jax.lax.with_sharding_constraint` instead"),
        (2, 30, "`from jax.experimental import enable_x64` was removed by JAX 0.10.2 (deprecated in "
                "0.8.0): use `jax.enable_x64(True)` instead"),
        (7, 12, "`jax.lax.zeros_like_array` was removed by JAX 0.10.2 (deprecated in 0.7.1): use "
                "`jnp.zeros_like` instead"),
        (7, 37, "`with_sharding_constraint` (`jax.experimental.pjit.with_sharding_constraint`) was "
                "removed by JAX 0.10.2 (deprecated in 0.4.16): use `jax.lax.with_sharding_constraint` "
                "instead"),
    ]


# 3. JAX401's words for a function reached from traced code that no jit of its own or
# of an enclosing function caches (multi-module review 19, p05): `env_step` in
# envs/pendulum.py runs inside a `lax.scan` body that `rollout` builds afresh on each
# plain-Python call, and JAX 0.10.2 printed `JitTracer(float32[])` on every call of
# `rollout`, not once: "later calls print nothing" was wrong. A function jitted itself,
# or nested in one, keeps it.

ENV = """\
import jax.numpy as jnp


def env_step(state, action):
    pos, vel = state
    vel = vel + 0.1 * (action - 0.5)
    reward = -jnp.abs(pos + 0.1 * vel)
    print("step reward:", reward)
    return (pos, vel), reward
"""

ROLLOUT = """\
import jax

from envs.pendulum import env_step


def rollout(w, state, horizon=5):
    def body(s, _):
        return env_step(s, jax.nn.sigmoid(w))

    _, rewards = jax.lax.scan(body, state, None, length=horizon)
    return rewards


@jax.jit
def jitted_rollout(w, state):
    def body(s, _):
        print("carry:", s)
        return s, w

    return jax.lax.scan(body, state, None, length=3)
"""


def test_print_in_a_helper_of_an_uncached_trace_does_not_promise_silence(tmp_path, monkeypatch):
    files = {"envs/__init__.py": "", "envs/pendulum.py": ENV, "rollout.py": ROLLOUT}
    found = _lint(tmp_path, monkeypatch, files, "JAX401")
    assert found == [
        ("JAX401", "envs/pendulum.py", 8, 5,
         "`print` in traced `env_step` runs only while JAX traces it and prints a tracer (e.g. "
         "`JitTracer(float32[])`), not the values; a call served from jit's cache prints nothing. "
         "Use `jax.debug.print(\"{}\", x)` to print runtime values"),
        ("JAX401", "rollout.py", 17, 9,
         "`print` in traced `body` runs once, at trace time, and prints a tracer (e.g. "
         "`JitTracer(float32[])`), not the values; later calls print nothing. "
         "Use `jax.debug.print(\"{}\", x)` to print runtime values"),
    ]


# 4. JAX120 under the project's derivative reach (gradP): a derivative of a function the
# project's names cannot place leaves no function "underived" (merged-change review 19,
# each checked with JAX 0.10.2: the gradient is NaN where p is 0). Three ways: the
# differentiated function is a parameter's default, an entry of a registry filled by
# item assignment, a method picked by `getattr`.

LOSSES = """\
import jax.numpy as jnp


def xent(p):
    return -jnp.sum(jnp.where(p > 0, jnp.log(p), 0.0))


LOSSES = {}
LOSSES["xent"] = xent
"""

BY_DEFAULT = """\
import jax
from pkg import losses


def step(p, loss_fn=losses.xent):
    return jax.grad(loss_fn)(p)


def log(p):
    return {"x": losses.xent(p)}
"""

BY_REGISTRY = BY_DEFAULT.replace("def step(p, loss_fn=losses.xent):\n    return jax.grad(loss_fn)(p)",
                                 "def step(p, name):\n    return jax.grad(losses.LOSSES[name])(p)")

BY_GETATTR = """\
import jax
import jax.numpy as jnp


class Trainer:
    def safe_loss(self, x):
        return jnp.sum(jnp.where(x > 0, jnp.log(x), 0.0))

    def evaluate(self, x):
        return self.safe_loss(x)

    def step(self, x, kind):
        fn = getattr(self, kind + "_loss")
        return jax.grad(fn)(x)
"""

_LOG_WHERE = ("`jnp.log({v})` is computed for every element, also where `{v} > 0` is false and masks it out; "
              "its derivative is infinite/NaN where `{v}` is 0, so the gradient of this `where` is NaN "
              "(0 * inf). Guard `{v}` with the same condition too (double where: `jnp.where(cond, {v}, 1.0)` "
              "inside)")


@pytest.mark.parametrize("files, expected", [
    ({"pkg/__init__.py": "", "pkg/losses.py": LOSSES, "pkg/train.py": BY_DEFAULT},
     ("JAX120", "pkg/losses.py", 5, 38, _LOG_WHERE.format(v="p"))),
    ({"pkg/__init__.py": "", "pkg/losses.py": LOSSES, "pkg/train.py": BY_REGISTRY},
     ("JAX120", "pkg/losses.py", 5, 38, _LOG_WHERE.format(v="p"))),
    ({"pkg/__init__.py": "", "pkg/model.py": BY_GETATTR},
     ("JAX120", "pkg/model.py", 7, 41, _LOG_WHERE.format(v="x"))),
])
def test_a_derivative_of_an_unplaced_function_keeps_jax120(tmp_path, monkeypatch, files, expected):
    assert _lint(tmp_path, monkeypatch, files, "JAX120") == [expected]


# 5. A module constant another file rebinds is withheld from importers (numP); a test
# module that sets it for itself, or a docstring line that shows how, rebinds nothing the
# project's code runs with (merged-change review 19: a true JAX121 went silent).

READER = """\
import jax.numpy as jnp
import pkg.config as cfg


def last_slot():
    slots = jnp.arange(cfg.CAPACITY)
    return slots[8]
"""

TEST_SETS = """\
from pkg import config, reader


def test_small(monkeypatch):
    config.CAPACITY = 9
    assert reader.last_slot() == 8
"""

DOC_SHOWS = '''\
from pkg import config


def usage():
    """Set the capacity before use::

        config.CAPACITY = 16
    """
    return config.CAPACITY
'''

_OOB = ("index 8 is out of bounds for axis 0 with size 8, and JAX raises no IndexError: the read is "
        "clamped to the nearest valid index (silently the wrong element)")


@pytest.mark.parametrize("extra", [{"tests/test_reader.py": TEST_SETS}, {"pkg/doc.py": DOC_SHOWS}])
def test_a_constant_set_only_by_a_test_or_a_docstring_keeps_its_value(tmp_path, monkeypatch, extra):
    files = {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/config.py": "CAPACITY = 8\n",
             "pkg/reader.py": READER, **extra}
    assert _lint(tmp_path, monkeypatch, files, "JAX121") == [("JAX121", "pkg/reader.py", 7, 18, _OOB)]


def test_a_constant_the_projects_code_rebinds_stays_unknown(tmp_path, monkeypatch):
    files = {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/config.py": "CAPACITY = 8\n",
             "pkg/reader.py": READER,
             "pkg/setup.py": "from pkg import config\n\n\ndef grow():\n    config.CAPACITY = 16\n"}
    assert _lint(tmp_path, monkeypatch, files, "JAX121") == []
