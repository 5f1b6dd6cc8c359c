"""False findings a new user met on real projects (evojax's slime volley `Game`, jaxued's
`runner_state` loop), and their twins written other ways.  Each program runs with JAX
0.10.2 and gives correct results.

* JAX403 on a method called in traced code on an object that trace built itself (`game =
  Game(x); game.set_action(y)`): its attributes are the trace's own locals, nothing
  outlives it; also a helper method it calls on `self`, a `lax.scan` body, and the class
  in another module.  Still reported when any traced caller uses an object that outlives
  the trace (a module-level instance), here or in another module.
* JAX301 "consumed inside a loop but never replaced" when the key is read out of a
  container the loop body binds again (`split(runner_state[0])` then `runner_state =
  step(...)`): from the second iteration on it is the key the body stored.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from jaxlint.cli import cli

DATA = Path(__file__).parent / "data" / "newuser10"


def _check(cwd: Path, *args: str) -> list[str]:
    result = CliRunner().invoke(cli, ["check", *args, "--no-cache", "--output-format", "concise"])
    return result.stdout.splitlines()


@pytest.mark.parametrize("name", ["game_built_in_trace.py", "scan_body_helper_object.py", "runner_state_loop.py"])
def test_fine_programs_stay_silent(name, tmp_path, monkeypatch):
    shutil.copy(DATA / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    assert _check(tmp_path, name) == ["All checks passed!"]


def test_an_object_that_outlives_the_trace_is_still_reported(tmp_path, monkeypatch):
    shutil.copy(DATA / "shared_and_fresh_counter.py", tmp_path / "m.py")
    monkeypatch.chdir(tmp_path)
    assert _check(tmp_path, "m.py") == [
        "m.py:10:9: JAX403 `self.total` is assigned inside traced method `add`: it stores a tracer in the "
        "object (UnexpectedTracerError when read later), and compiled calls never repeat it. Pass the state "
        "in as an argument and return the new state",
        "Found 1 error.",
    ]


def test_a_key_reused_within_one_iteration_is_still_reported(tmp_path, monkeypatch):
    shutil.copy(DATA / "carry_tuple_while.py", tmp_path / "m.py")
    monkeypatch.chdir(tmp_path)
    assert _check(tmp_path, "m.py") == [
        "m.py:15:23: JAX301 `carry[1]` was already consumed by `random.normal` via `sample_env` on line 14 "
        "and is split here: JAX promises independent random numbers only for a key used once (with "
        "`jax_debug_key_reuse` on, this split raises KeyReuseError for a typed key from `jax.random.key`). Split before the first use, e.g. "
        "`key, sub = jax.random.split(carry[1])`, and draw with `sub`",
        "Found 1 error.",
    ]


def test_the_class_of_another_module_built_in_the_trace(tmp_path, monkeypatch):
    shutil.copytree(DATA / "proj", tmp_path / "proj")
    monkeypatch.chdir(tmp_path / "proj")
    assert _check(tmp_path / "proj", ".") == ["All checks passed!"]
    (tmp_path / "proj" / "pkg" / "shared.py").write_text(
        "import jax\n\nfrom pkg.game import Game\n\nGAME = Game(0.0)\n\n\n@jax.jit\n"
        "def shared_update(x):\n    GAME.set_action(x)\n    return x\n")
    assert _check(tmp_path / "proj", ".") == [
        "pkg/game.py:10:9: JAX403 `self.flag` is assigned inside traced method `set_action`: it stores a tracer "
        "in the object (UnexpectedTracerError when read later), and compiled calls never repeat it. Pass the "
        "state in as an argument and return the new state",
        "pkg/game.py:11:9: JAX403 `self.a` is assigned inside traced method `set_action`: it stores a tracer in "
        "the object (UnexpectedTracerError when read later), and compiled calls never repeat it. Pass the state "
        "in as an argument and return the new state",
        "Found 2 errors.",
    ]
