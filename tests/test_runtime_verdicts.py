"""Verdicts that mean what they say (issue 23 item 1), with real JAX on CPU.

`not-reproduced` only when a check drove the flagged line: every distinct call the
--run recorded is replayed (calls that raised included), the key-reuse check sees
legacy keys carried through loop state and pytrees and keys shared by a vmapped
batch, and a check that never ran the line says `not-exercised`.  The fixture
programs are in tests/fixtures/runtime/verdicts; each test works on a copy.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("jax")

from click.testing import CliRunner  # noqa: E402

from jaxlint.cli import cli  # noqa: E402
from jaxlint.runtime.verdicts import RANK, Verdict, not_exercised  # noqa: E402

FIXTURE = Path(__file__).parent / "fixtures" / "runtime" / "verdicts"
RUNS = ("python scaling.py", "python sampling.py", "python branches.py")


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    root = tmp_path_factory.mktemp("verdicts") / "project"
    shutil.copytree(FIXTURE, root)
    args = ["confirm", "--output-format", "json", "--no-cache", "."]
    for run in RUNS:
        args += ["--run", run]
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 1, result.output
    found = json.loads(result.stdout)
    return {(f["filename"], f["location"]["row"], f["code"], f["function"]): f["runtime"]
            for f in found}


def test_every_finding_has_a_verdict(verdicts):
    assert sorted(verdicts) == [
        ("branches.py", 12, "JAX201", "squash"),
        ("sampling.py", 9, "JAX301", "random_walk.body"),  # the carried key returned unchanged (keyA)
        ("sampling.py", 10, "JAX301", "random_walk.body"),
        ("sampling.py", 19, "JAX301", "metropolis"),
        ("sampling.py", 30, "JAX301", "dropout_rows.drop"),
        ("sampling.py", 41, "JAX301", "Noise.perturb.<lambda>"),
        ("scaling.py", 8, "JAX201", "standardize"),
        ("scaling.py", 14, "JAX201", "weighted"),
    ]


def test_a_later_call_that_stopped_the_run_is_replayed(verdicts):
    rt = verdicts[("scaling.py", 8, "JAX201", "standardize")]
    assert rt["verdict"] == "confirmed"
    assert rt["evidence"].startswith("jax.errors.TracerBoolConversionError at line 8: ")
    assert rt["evidence"].endswith("(observed call 2 of 2 replayed)")
    assert rt["details"]["observed_call"] == 2
    assert rt["inputs"] == ["x: f32[6] (observed call 2 in --run `python scaling.py`)",
                            "scale: f32[] (observed call 2 in --run `python scaling.py`)"]


def test_a_later_call_that_the_program_caught_is_replayed(verdicts):
    rt = verdicts[("scaling.py", 14, "JAX201", "weighted")]
    assert rt["verdict"] == "confirmed"
    assert rt["evidence"].startswith("jax.errors.TracerBoolConversionError at line 14: ")
    assert rt["inputs"][1] == "weight: f32[] (observed call 2 in --run `python scaling.py`)"


@pytest.mark.parametrize("key", [
    ("sampling.py", 10, "JAX301", "random_walk.body"),  # a tuple carried by fori_loop
    ("sampling.py", 19, "JAX301", "metropolis"),  # a dict carried by fori_loop
])
def test_a_legacy_key_in_carried_loop_state_is_followed(verdicts, key):
    rt = verdicts[key]
    line = key[1]
    assert rt["verdict"] == "confirmed"
    assert rt["evidence"].startswith("KeyReuseError from check_key_reuse (legacy uint32 keys "
                                     "replaced by typed keys): ")
    assert (f"key consumed by `normal` at line {line - 1}, then again by `uniform` at line "
            f"{line}") in rt["evidence"]


@pytest.mark.parametrize("key,name,enclosing", [
    (("sampling.py", 30, "JAX301", "dropout_rows.drop"), "bernoulli", "dropout_rows"),
    (("sampling.py", 41, "JAX301", "Noise.perturb.<lambda>"), "normal", "perturb"),
])
def test_a_key_shared_by_a_vmapped_batch_is_reuse(verdicts, key, name, enclosing):
    rt = verdicts[key]
    assert rt["verdict"] == "confirmed"
    assert rt["evidence"].startswith(
        f"`{name}` at line {key[1]} runs under vmap with a key that is not batched ")
    assert rt["evidence"].endswith(f"(called through the enclosing `{enclosing}`)")
    assert rt["details"]["oracle"] == "vmap batching"


def test_a_line_the_check_never_ran_is_not_exercised(verdicts):
    rt = verdicts[("branches.py", 12, "JAX201", "squash")]
    assert rt["verdict"] == "not-exercised"
    assert "evidence" not in rt
    assert rt["reason"] == (
        "the check ran `squash` on 1 call(s) (the inputs shown) and line 12 never ran: no "
        "evidence either way; its static argument(s) mode='soft' chose the path, another value "
        "may reach it. An input that reaches line 12 (the branch or the call that leads there) "
        "would exercise it: declare one in [tool.jaxlint.runtime] inputs, or give a --run that "
        "drives `squash` there")
    assert rt["details"]["calls"] == [rt["inputs"]]
    assert rt["details"]["check"].startswith("traced without error")


def test_not_exercised_round_trips_and_ranks_between():
    v = not_exercised("line 3 never ran", line=3)
    back = Verdict.from_dict(v.to_dict())
    assert (back.verdict, back.reason, back.text, back.details) == (
        "not-exercised", "line 3 never ran", "line 3 never ran", {"line": 3})
    assert RANK["confirmed"] > RANK["not-reproduced"] > RANK["not-exercised"] > RANK["skipped"]


# ----------------------------------------------------------------------------- environment

_NEEDS_MISSING = '''import jax
import nnlib_absent_for_jaxlint_tests as nn


@jax.jit
def {name}(x):
    if x.sum() > 0:
        return nn.relu(x)
    return x
'''


def test_a_missing_package_is_one_environment_problem(tmp_path):
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text(
        '[project]\nname = "demo"\nversion = "0"\n'
        '[project.optional-dependencies]\nnn = ["nnlib-absent-for-jaxlint-tests>=0.1"]\n')
    for name in ("first", "second"):
        (root / f"{name}.py").write_text(_NEEDS_MISSING.format(name=name))
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        result = CliRunner().invoke(cli, ["confirm", "--output-format", "json", "--no-cache",
                                          "first.py", "second.py"], catch_exceptions=False)
        table = CliRunner().invoke(cli, ["confirm", "--no-cache", "first.py", "second.py"],
                                   catch_exceptions=False, terminal_width=200)
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert [(f["filename"], f["location"]["row"], f["runtime"]) for f in found] == [
        (name, 7, {"verdict": "skipped",
                   "reason": "environment: `nnlib_absent_for_jaxlint_tests` is not installed",
                   "details": {"environment": "nnlib_absent_for_jaxlint_tests"}})
        for name in ("first.py", "second.py")]
    line = (f"jaxlint: environment: `nnlib_absent_for_jaxlint_tests` is not installed, so 2 "
            f"module(s) could not be imported (first.py, second.py) and their finding(s) are "
            f"skipped (2); install it: pip install -e \"{root}[nn]\" (the `nn` extra of "
            f"{root / 'pyproject.toml'})")
    assert result.stderr.splitlines().count(line) == 1
    assert "nnlib_absent_for_jaxlint_tests` is not installed, so 2" in table.stdout
    assert table.stdout.count("pip install") == 1


_USES_OWN = '''import jax
import ownpkg_for_jaxlint_tests as own


@jax.jit
def step(x):
    if x.sum() > 0:
        return own.relu(x)
    return x
'''


def test_the_projects_own_package_is_installed_with_pip_install_e(tmp_path):
    """A src-layout project whose tests import its own package, not installed: the hint
    is `pip install -e .`, not a namesake from PyPI."""
    root = tmp_path / "project"
    (root / "src" / "ownpkg_for_jaxlint_tests").mkdir(parents=True)
    (root / "src" / "ownpkg_for_jaxlint_tests" / "__init__.py").write_text(
        "import jax\n\nrelu = jax.nn.relu\n")
    (root / "pyproject.toml").write_text(
        '[project]\nname = "ownpkg-for-jaxlint-tests"\nversion = "0"\ndependencies = ["jax"]\n')
    (root / "tests").mkdir()
    (root / "tests" / "test_step.py").write_text(_USES_OWN)
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        result = CliRunner().invoke(cli, ["confirm", "--output-format", "json", "--no-cache",
                                          "tests/test_step.py"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert ("jaxlint: environment: `ownpkg_for_jaxlint_tests` is not installed, so 1 module(s) "
            "could not be imported (tests/test_step.py) and their finding(s) are skipped (1); "
            "install it: pip install -e . (`ownpkg_for_jaxlint_tests` is this project's own "
            "package, src/ownpkg_for_jaxlint_tests)") in result.stderr.splitlines()


def test_install_hint_without_an_extra():
    from jaxlint.runtime.driver import install_hint

    assert install_hint("haiku", None) == "pip install dm-haiku"
    assert install_hint("some_pkg", None) == "pip install some-pkg"


# ----------------------------------------------------------------------------- vmap in_axes=None

VMAPPED_DRAW = '''import jax
import jax.numpy as jnp


def augment(key, image):
    return image + 0.1 * jax.random.normal(key, image.shape)


@jax.jit
def augment_batch(key, images):
    return jax.vmap(augment, in_axes=(None, 0))(key, images)


out = augment_batch(jax.random.key(0), jnp.zeros((4, 8, 8)))
print(bool(jnp.allclose(out[0], out[1])))
'''

VMAPPED_SPLIT = '''import jax
import jax.numpy as jnp


def augment(key, image):
    k_flip, k_noise = jax.random.split(key)
    flip = jax.random.bernoulli(k_flip)
    image = jnp.where(flip, image[:, ::-1], image)
    return image + 0.1 * jax.random.normal(k_noise, image.shape)


def augment_batch(key, images):
    return jax.vmap(augment, in_axes=(None, 0))(
        key, images)


out = jax.jit(augment_batch)(jax.random.PRNGKey(0), jnp.zeros((4, 8, 8)))
print(bool(jnp.allclose(out[0], out[1])))
'''


@pytest.mark.parametrize("text,row,line,name", [(VMAPPED_DRAW, 11, 6, "normal"),
                                                (VMAPPED_SPLIT, 13, 7, "bernoulli")])
def test_a_key_given_with_in_axes_none_to_a_function_that_draws_is_confirmed(tmp_path, text, row,
                                                                             line, name):
    """The finding is at the `vmap` call, the draw in the mapped function (a typed key and
    a legacy one, a draw and a split): the draw under the call counts (it was
    "not-reproduced" because only draws on the finding's own lines did)."""
    (tmp_path / "aug.py").write_text(text)
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(tmp_path)
        result = CliRunner().invoke(cli, ["confirm", "--output-format", "json", "--no-cache",
                                          "aug.py", "--run", "python aug.py"],
                                    catch_exceptions=False)
    assert result.exit_code == 1, result.output
    (f,) = json.loads(result.stdout)
    assert (f["code"], f["location"]["row"], f["function"]) == ("JAX301", row, "augment_batch")
    rt = f["runtime"]
    assert rt["verdict"] == "confirmed", rt
    assert rt["evidence"] == (
        f"`{name}` at line {line} runs under vmap with a key that is not batched (captured by "
        "the vmapped function, or passed with in_axes=None) while its data is: every example of "
        "the batch draws the same numbers from the same key")
    assert rt["details"]["oracle"] == "vmap batching"


PICKED_PER_EXAMPLE = '''import jax
import jax.numpy as jnp


def augment(key, i, image):
    k = jax.random.split(key, 8)[i]
    return image + 0.1 * jax.random.normal(k, image.shape)


@jax.jit
def augment_batch(key, images):
    return jax.vmap(augment, in_axes=(None, 0, 0))(key, jnp.arange(8), images)


out = augment_batch(jax.random.key(0), jnp.zeros((8, 4, 4)))
print(bool(jnp.allclose(out[0], out[1])))
'''


def test_keys_split_and_picked_per_example_are_not_confirmed(tmp_path):
    """`split(key, 8)[i]` with `i` mapped gives every example its own key (the diff
    review's repro: distinct noise per image): the unbatched key only feeds `split`, and
    the draw takes a batched key, so the vmap check does not confirm it."""
    (tmp_path / "aug.py").write_text(PICKED_PER_EXAMPLE)
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(tmp_path)
        result = CliRunner().invoke(cli, ["confirm", "--output-format", "json", "--no-cache",
                                          "aug.py", "--run", "python aug.py"],
                                    catch_exceptions=False)
    found = json.loads(result.stdout) if result.stdout.strip().startswith("[") else []
    assert not any(f["runtime"].get("verdict") == "confirmed" for f in found), found
