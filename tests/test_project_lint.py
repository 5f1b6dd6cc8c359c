"""The project-wide model through the CLI: sharp bits whose traced context is set
in one module and whose offending line is in another (tests/fixtures/xmodule/)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from jaxlint.cli import cli

FIXTURES = Path(__file__).parent / "fixtures" / "xmodule"


def _lint(root: Path, *args: str) -> list[tuple[str, str, int, int, str]]:
    result = CliRunner().invoke(cli, ["check", ".", "--output-format", "json", *args])
    assert result.exit_code in (0, 1), result.output
    return [
        (f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"])
        for f in json.loads(result.stdout)
    ]


@pytest.fixture
def project(tmp_path: Path, monkeypatch):
    def copy(name: str) -> Path:
        dest = tmp_path / name
        shutil.copytree(FIXTURES / name, dest)
        monkeypatch.chdir(dest)
        return dest

    return copy


def test_absolute_imports_every_kind_of_helper(project):
    root = project("abs_pkg")
    found = _lint(root, "--no-cache")
    assert [f[:4] for f in found] == [
        ("JAX203", "trainer/data.py", 7, 12),
        ("JAX204", "trainer/losses.py", 7, 12),
        ("JAX101", "trainer/losses.py", 11, 5),
        ("JAX401", "trainer/metrics.py", 5, 5),
        ("JAX202", "trainer/metrics.py", 6, 12),
        ("JAX201", "trainer/schedule.py", 2, 8),
    ]
    assert found[-1][4] == (
        "Python `if` on a traced value: it depends on the traced argument `step` of `warmup` "
        "(called from `train_step` (trainer/train.py:12), which is decorated with @jax.jit); "
        "this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"
    )
    # the helper module never names JAX: the prefilter skips it until a fact reaches it
    assert "jax" not in (root / "trainer" / "schedule.py").read_text()


def test_relative_imports_and_static_arguments_of_the_caller(project):
    project("rel_pkg")
    found = _lint(Path("."), "--no-cache")
    # `if eps > 0` in layer_norm is fine: `eps` is static in forward's jit
    assert [f[:4] for f in found] == [("JAX101", "model/layers/dense.py", 6, 5)]


def test_src_layout_and_a_scan_body_from_another_module(project):
    project("src_layout")
    found = _lint(Path("."), "--no-cache")
    assert [f[:4] for f in found] == [("JAX201", "src/rnnlib/cells.py", 6, 8)]
    assert "(a body passed to lax.scan in src/rnnlib/rnn.py:7)" in found[0][4]


def test_re_exports_through_a_star_import(project):
    project("reexport")
    found = _lint(Path("."), "--no-cache")
    assert [f[:4] for f in found] == [("JAX202", "ops/activations.py", 11, 12)]
    assert "(called from `block` (main.py:8), which is decorated with @jax.jit)" in found[0][4]


def test_clean_project_that_looks_suspicious_is_silent(project):
    project("clean_pkg")
    assert _lint(Path("."), "--no-cache") == []


def test_one_file_of_a_project_uses_the_project_facts(project):
    project("abs_pkg")
    result = CliRunner().invoke(cli, ["check", "trainer/schedule.py", "--no-cache", "--output-format", "concise"])
    # only the named file is reported, with what the rest of the project tells it
    assert result.stdout.splitlines()[0].startswith(
        "trainer/schedule.py:2:8: JAX201 Python `if` on a traced value: it depends on the traced "
        "argument `step` of `warmup` (called from `train_step` (trainer/train.py:12)"
    )
    assert "trainer/losses.py" not in result.stdout


def test_standard_input_with_a_filename_uses_the_project_facts(project):
    root = project("abs_pkg")
    text = (root / "trainer" / "schedule.py").read_text()
    for cache in ("--no-cache", "--cache-dir=c", "--cache-dir=c"):
        result = CliRunner().invoke(cli, ["check", "-", "--stdin-filename", "trainer/schedule.py", cache,
                                          "--output-format", "concise"], input=text)
        assert result.exit_code == 1
        assert result.stdout.splitlines()[0].startswith(
            "trainer/schedule.py:2:8: JAX201 Python `if` on a traced value: it depends on the traced "
            "argument `step` of `warmup` (called from `train_step` (trainer/train.py:12)")
    # the unsaved text counts, not the file on disk: the `if` is gone from it
    result = CliRunner().invoke(cli, ["check", "-", "--stdin-filename", "trainer/schedule.py", "--no-cache",
                                      "--output-format", "concise"], input="def warmup(step, total):\n    return step\n")
    assert result.exit_code == 0, result.stdout


def test_a_file_outside_any_project_keeps_single_file_analysis(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("")
    sub = tmp_path / "sub"
    sub.mkdir()
    helper = tmp_path / "helper.py"
    helper.write_text("def warmup(step):\n    if step < 10:\n        return 1\n    return 2\n")
    monkeypatch.chdir(sub)
    # the helper is named directly and nothing in its project calls it under a trace
    result = CliRunner().invoke(cli, ["check", str(helper), "--no-cache", "--output-format", "concise"])
    assert result.exit_code == 0, result.output


def test_cache_is_exact_after_editing_a_helper(project):
    root = project("abs_pkg")
    cold = _lint(root)
    warm = _lint(root)
    assert warm == cold
    # the caller stops passing a tracer to `warmup`: its finding goes, the rest stay
    train = root / "trainer" / "train.py"
    train.write_text(train.read_text().replace("warmup(step, 1000)", "warmup(3, 1000)"))
    edited = _lint(root)
    assert [f[:4] for f in edited] == [f[:4] for f in cold if f[1] != "trainer/schedule.py"]
    # and back
    train.write_text(train.read_text().replace("warmup(3, 1000)", "warmup(step, 1000)"))
    assert _lint(root) == cold


def test_jits_imported_from_another_module_static_and_donated(project):
    project("jit_pkg")
    found = _lint(Path("."), "--no-cache")
    assert [f[:4] for f in found] == [
        ("JAX501", "pkg/sweep.py", 8, 16),
        ("JAX207", "pkg/train.py", 7, 25),
        ("JAX506", "pkg/train.py", 8, 11),
        # the same jit reached through the imported module (`import pkg.step as S`)
        ("JAX207", "pkg/train_mod.py", 6, 27),
        ("JAX506", "pkg/train_mod.py", 7, 11),
    ]
    # a factory imported from another module makes a new function per call
    assert "`jit` of the function `make_step(...)` returns (a new one per call)" in found[0][4]
    assert found[1][4].startswith(
        "A dict is passed to `update` in a static position (parameter `lr`; static_argnums=1)"
    )
    assert found[3][4].startswith(
        "A dict is passed to `S.update` in a static position (parameter `lr`; static_argnums=1)"
    )
    assert found[4][4].startswith("`state` was donated to the jitted call on line 6")


def test_values_reaching_static_arguments_and_loops_across_modules(project):
    """A jit of an imported function (no signature here: static_argnums counts the call's
    positions), the static half of `eqx.partition` of an equinox Module imported from
    another module (its hashing travels in the class record), and a loop over `a.size`
    in a function jitted by another module.  Each checked with JAX 0.10.2: lines 10 and
    21 raise ValueError (Non-hashable static arguments), 11 and 22 run; the loop is
    unrolled (100 equations at size 20)."""
    project("static_values")
    found = _lint(Path("."), "--no-cache", "--extend-select", "JAX503")
    assert [f[:4] for f in found] == [
        ("JAX503", "pkg/ops.py", 6, 14),
        ("JAX207", "pkg/run.py", 10, 24),
        ("JAX207", "pkg/run.py", 21, 48),
    ]
    assert found[1][4].startswith(
        "A JAX array (`n` is bound to `jnp.add(2, 1)` on line 9) is passed to `apply_jit` in a static position "
        "(argument 1; static_argnums=1)"
    )
    assert found[2][4].startswith(
        "A half of `eqx.partition(Net({\"a\": 2}), ...)`, an instance of the equinox Module `Net` "
        "whose field `sizes` is a dict (a Module hashes its fields), is passed to "
        "`jax.jit(merge, static_argnames=\"static\")` in a static position (parameter `static`; "
        "static_argnames='static')"
    )


def test_the_chain_in_json_sarif_and_the_full_format(project):
    import jsonschema

    project("abs_pkg")
    runner = CliRunner()
    data = json.loads(runner.invoke(cli, ["check", ".", "--no-cache", "--output-format", "json"]).stdout)
    schedule = next(f for f in data if f["filename"] == "trainer/schedule.py")
    assert schedule["related"] == [{
        "filename": "trainer/train.py",
        "row": 12,
        "message": "called from `train_step` (trainer/train.py:12), which is decorated with @jax.jit",
    }]
    full = runner.invoke(cli, ["check", "trainer/schedule.py", "--no-cache"]).stdout
    assert ("  = note: runs under a trace: called from `train_step` (trainer/train.py:12), "
            "which is decorated with @jax.jit\n") in full
    log = json.loads(runner.invoke(cli, ["check", ".", "--no-cache", "--output-format", "sarif"]).stdout)
    schema = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.validate(log, schema)
    result = next(r for r in log["runs"][0]["results"]
                  if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "trainer/schedule.py")
    assert [(loc["physicalLocation"]["artifactLocation"]["uri"], loc["physicalLocation"]["region"]["startLine"])
            for loc in result["relatedLocations"]] == [("trainer/train.py", 12)]
    flow = result["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [step["location"]["physicalLocation"]["artifactLocation"]["uri"] for step in flow] == [
        "trainer/train.py", "trainer/schedule.py"]


def test_a_key_consumed_by_a_helper_of_another_module_then_reused(project):
    project("sampler")
    found = _lint(Path("."), "--no-cache")
    assert found == [(
        "JAX301", "mcmc/sampler.py", 9, 10,
        "`key` was already consumed by `gaussian_step()` on line 8: both calls get the same random "
        "bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key",
    ), (
        # the helpers reached through the imported module (`from mcmc import proposals as P`)
        "JAX301", "mcmc/sampler_mod.py", 9, 10,
        "`key` was already consumed by `P.gaussian_step()` on line 8: both calls get the same random "
        "bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each call its own key",
    )]


def test_a_jitted_step_of_another_module_given_the_same_key_every_iteration(project):
    """The step's nested loss function draws from its key parameter: the step consumes
    it, and a loop in another module that hands it the same key reuses it (by name or
    through the module); a key split each iteration stays silent."""
    project("key_loop")
    found = _lint(Path("."), "--no-cache")
    assert found == [(
        "JAX301", "trainer/train.py", 9, 18,
        "`dropout_key` is consumed by `random.bernoulli` via `train_step` inside a loop but never "
        "replaced, so every iteration draws the same random numbers. Split a new key each iteration "
        "(`dropout_key, sub = jax.random.split(dropout_key)`) or use `jax.random.fold_in(dropout_key, i)`",
    ), (
        "JAX301", "trainer/train.py", 15, 18,
        "`key` is consumed by `random.bernoulli` via `steps.train_step` inside a loop but never "
        "replaced, so every iteration draws the same random numbers. Split a new key each iteration "
        "(`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`",
    )]


def test_an_equinox_model_split_over_modules(project):
    project("eqx_model")
    found = _lint(Path("."), "--no-cache")
    assert [f[:4] for f in found] == [("JAX204", "net/activations.py", 10, 12)]
    assert "(called from `MLP.__call__` (net/mlp.py:12), which is a method of the module class MLP)" in found[0][4]


FIX_HELPER = """\
import jax
import jax.numpy as jnp


def clip(x):
    if x > 0:
        return x
    return -x


def fill():
    z = jnp.zeros(3)
    z[0] = 1.0
    return z


def show(x):
    print(x)
    return x
"""

FIX_CALLER = """\
import jax

from pk.h import clip, show


@jax.jit
def step(x):
    return show(x) + clip(x)
"""


def test_fix_uses_the_project_facts_and_reports_what_a_fresh_check_finds(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pk").mkdir()
    (tmp_path / "pk" / "__init__.py").write_text("")
    (tmp_path / "pk" / "h.py").write_text(FIX_HELPER)
    (tmp_path / "pk" / "m.py").write_text(FIX_CALLER)
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    before = runner.invoke(cli, ["check", ".", "--output-format", "concise"])
    assert before.exit_code == 1
    assert [line.split(" ", 2)[:2] for line in before.stdout.splitlines()[:-1]] == [
        ["pk/h.py:6:8:", "JAX201"], ["pk/h.py:13:5:", "JAX101"], ["pk/h.py:18:5:", "JAX401"]]
    assert before.stdout.splitlines()[-1] == "Found 3 errors (1 fixable with --fix; 1 more with --unsafe-fixes)."
    # the print of the helper is traced only because of m.py: its fix is offered, shown and applied
    diff = runner.invoke(cli, ["check", ".", "--diff", "--unsafe-fixes"])
    assert '-    print(x)\n+    jax.debug.print("{}", x)\n' in diff.stdout
    assert "-    z[0] = 1.0\n+    z = z.at[0].set(1.0)\n" in diff.stdout
    fixed = runner.invoke(cli, ["check", ".", "--fix", "--unsafe-fixes", "--output-format", "concise"])
    assert fixed.exit_code == 1
    lines = fixed.stdout.splitlines()
    assert [line.split(" ", 2)[:2] for line in lines[:-1]] == [["pk/h.py:6:8:", "JAX201"]]
    assert lines[-1] == "Found 3 errors (2 fixed, 1 remaining)."
    after = runner.invoke(cli, ["check", ".", "--no-cache", "--output-format", "concise"])
    assert after.stdout.splitlines()[:-1] == lines[:-1]


JITS = """\
from functools import partial

import jax


@partial(jax.jit, static_argnums=1)
def power(x, n):
    return x ** n


@partial(jax.jit, donate_argnums=0)
def update(state, g):
    return state - 0.1 * g
"""

DRIVER = """\
from pk import power
from pk.jits import update


def main(state, g, x):
    for i in range(100):
        x = power(x, i)
    new = update(state, g)
    return new + state.sum()
"""


def test_a_driver_script_that_never_names_jax_still_meets_the_projects_jits(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pk").mkdir()
    (tmp_path / "pk" / "__init__.py").write_text("from pk.jits import power\n")
    (tmp_path / "pk" / "jits.py").write_text(JITS)
    (tmp_path / "pk" / "driver.py").write_text(DRIVER)
    (tmp_path / "pk" / "other.py").write_text("from pk import power as p\n\n\ndef f(x):\n    return p(x, 2)\n")
    monkeypatch.chdir(tmp_path)
    found = _lint(tmp_path, "--no-cache")
    assert [f[:4] for f in found] == [("JAX504", "pk/driver.py", 7, 22), ("JAX506", "pk/driver.py", 9, 18)]
    assert found[1][4].startswith("`state` was donated to the jitted call on line 8")
    assert _lint(tmp_path) == found  # cold with a cache
    assert _lint(tmp_path) == found  # warm


def test_a_driver_importing_through_the_package_or_from_stdin_meets_the_jits(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pk").mkdir()
    (tmp_path / "pk" / "__init__.py").write_text("from pk.jits import power\n")
    (tmp_path / "pk" / "jits.py").write_text(JITS)
    loop = "\n\ndef main(x):\n    for i in range(100):\n        x = power(x, i)\n    return x\n"
    (tmp_path / "pk" / "b.py").write_text("from . import power" + loop)
    (tmp_path / "pk" / "c.py").write_text("x = 1\n")  # on disk; its unsaved text comes on stdin
    monkeypatch.chdir(tmp_path)
    found = _lint(tmp_path, "--no-cache")
    assert [f[:4] for f in found] == [("JAX504", "pk/b.py", 5, 22)]
    result = CliRunner().invoke(cli, ["check", "-", "--stdin-filename", "pk/c.py", "--no-cache",
                                      "--output-format", "concise"], input="from pk import power" + loop)
    assert result.stdout.splitlines()[0].startswith("pk/c.py:5:22: JAX504 the loop counter `i`")


def _write_tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


_HUBER = "def huber(err, delta):\n    if err > delta:\n        return delta * err\n    return err * err\n"
_NORM = "import numpy as np\n\ndef norm(x):\n    return np.linalg.norm(x)\n"
FOLDER_OF_PROJECTS = {
    # no pyproject.toml anywhere: a flat project and a package project, both with a `losses` module
    "proj_a/losses.py": _HUBER,
    "proj_a/train.py": "import jax\nfrom losses import huber\n\n@jax.jit\ndef step(err):\n    return huber(err, 1.0)\n",
    "proj_b/pkg/__init__.py": "",
    "proj_b/pkg/losses.py": _NORM,
    "proj_b/losses.py": "def unused():\n    return 0\n",
    "proj_b/run.py": "import jax\nfrom pkg.losses import norm\n\nf = jax.jit(norm)\n",
}


@pytest.mark.parametrize("git", [False, True])
def test_a_folder_of_projects_gives_the_same_findings_as_each_projects_folder(tmp_path, monkeypatch, git):
    _write_tree(tmp_path, FOLDER_OF_PROJECTS)
    if git:
        (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    above = [(code, path, line, col) for code, path, line, col, _ in _lint(tmp_path, "--no-cache")]
    assert above == [("JAX201", "proj_a/losses.py", 2, 8), ("JAX204", "proj_b/pkg/losses.py", 4, 12)]
    for name in ("proj_a", "proj_b"):
        monkeypatch.chdir(tmp_path / name)
        inside = [(code, f"{name}/{path}", line, col) for code, path, line, col, _ in _lint(tmp_path / name, "--no-cache")]
        assert inside == [f for f in above if f[1].startswith(name + "/")]


def test_a_folder_of_projects_with_loose_scripts_of_its_own(tmp_path, monkeypatch):
    """A script beside the projects (`notes.py`): a subfolder that holds a package of its
    own is still a project, as when jaxlint runs in it; the flat project beside it
    stays part of the folder's, and its scripts' `from losses import` is the module beside
    them (a script's folder is first on sys.path): the same findings as from its folder."""
    _write_tree(tmp_path, {**FOLDER_OF_PROJECTS, "notes.py": "print('see proj_b')\n"})
    monkeypatch.chdir(tmp_path)
    above = [(code, path, line, col) for code, path, line, col, _ in _lint(tmp_path, "--no-cache")]
    assert above == [("JAX201", "proj_a/losses.py", 2, 8), ("JAX204", "proj_b/pkg/losses.py", 4, 12)]
    for name in ("proj_a", "proj_b"):
        monkeypatch.chdir(tmp_path / name)
        inside = [(code, f"{name}/{path}", line, col) for code, path, line, col, _ in _lint(tmp_path, "--no-cache")]
        assert inside == [f for f in above if f[1].startswith(name + "/")]


def test_a_project_with_code_at_its_top_stays_one_project(tmp_path, monkeypatch):
    # run in an unmarked project whose tests live in a folder without __init__.py
    _write_tree(tmp_path, {
        "losses.py": _HUBER,
        "tests/test_losses.py": "import jax\nfrom losses import huber\n\ndef test_jit():\n    jax.jit(huber)(1.0, 2.0)\n",
    })
    monkeypatch.chdir(tmp_path)
    assert [f[:4] for f in _lint(tmp_path, "--no-cache")] == [("JAX201", "losses.py", 2, 8)]
    # ... and so does one whose package lives in `src/` beside its loose scripts
    _write_tree(tmp_path, {
        "src/lib/__init__.py": "",
        "src/lib/ops.py": _HUBER,
        "run.py": "import jax\nfrom lib.ops import huber\n\nf = jax.jit(huber)\n",
    })
    assert [f[:4] for f in _lint(tmp_path, "--no-cache")] == [
        ("JAX201", "losses.py", 2, 8), ("JAX201", "src/lib/ops.py", 2, 8)]


def test_static_pytree_fields_declared_in_another_module(project):
    """A field is a tracer only when its class (read in another module, in any
    registration spelling) makes it a data leaf: static fields
    (`metadata=dict(static=True)`, a metadata variable, `struct.field(pytree_node=False)`,
    `eqx.field(static=True)`, a flatten's aux data) and a parameter of no known
    class (`integrate(sys, x)`) are silent; the data leaves still report."""
    project("pytree_fields")
    found = _lint(Path("."), "--no-cache")
    assert found == [
        # the class travels with the argument into a helper of a third module
        ("JAX201", "sim/helpers.py", 4, 8,
         "Python `if` on a traced value: it depends on the traced argument `sys` of `settle` "
         "(called from `relax` (sim/physics.py:55), which is decorated with @jax.jit); this raises "
         "TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
        ("JAX201", "sim/physics.py", 23, 8,
         "Python `if` on a traced value: it depends on the traced argument `sys` of `step` "
         "(decorated with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or "
         "`jnp.where`; or, if `sys` is a Python value, mark it static (static_argnums=0)"),
        ("JAX202", "sim/physics.py", 34, 22,
         "A shape or size passed to `jnp.zeros` is traced: it depends on the traced argument `grid` "
         "of `configure` (decorated with @jax.jit); shapes must be concrete (TypeError: Shapes must "
         "be 1D sequences of concrete values). Derive it from `x.shape`"
         "; or, if `grid` is a Python value, mark it static (static_argnums=1)"),
        ("JAX202", "sim/physics.py", 48, 22,
         "A shape or size passed to `jnp.zeros` is traced: it depends on the traced argument `state` "
         "of `reset` (decorated with @jax.jit); shapes must be concrete (TypeError: Shapes must be "
         "1D sequences of concrete values). Derive it from `x.shape`"
         "; or, if `state` is a Python value, mark it static (static_argnums=0)"),
    ]
def test_x64_switched_on_read_and_required_through_helpers_of_other_modules(project):
    """x64 as a project fact: a helper returning ``jax.enable_x64()``, a
    ``@contextmanager`` around it, a function and a constant reading the flag, a
    ``skipif`` mark bound to a name, all in ``dbl/testing.py``; a library function
    reached only through another helper from an x64 block; test modules importing a
    module that switches x64 on when imported (``os.environ["JAX_ENABLE_X64"]`` before
    ``import jax`` in ``dbl/precision.py``, ``jax.config.update`` in ``checks/support.py``),
    and the library function such a module calls (``narrow``); a test class deriving
    from one whose ``setUp`` enters ``jax.enable_x64()``.  ``widen`` is called
    with x64 off: still reported.  ``checks/solve_checks.py`` imports ``jax.numpy``
    before ``dbl.precision``, whose ``JAX_ENABLE_X64`` comes too late there (JAX 0.10.2:
    importing ``checks.solve_checks`` leaves ``jax_enable_x64`` False): JAX123 at the
    variable (branch x64D)."""
    project("x64_pkg")
    found = _lint(Path("."), "--no-cache")
    assert found == [(
        "JAX110", "dbl/ops.py", 9, 33,
        "`float64` requested in `jnp.asarray` is truncated to 32-bit because "
        "jax_enable_x64 is off (JAX only warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', "
        "True)`), or use `float32`",
    ), (
        "JAX123", "dbl/precision.py", 3, 1,
        "`JAX_ENABLE_X64` is set when this module is imported, but `checks/solve_checks.py` imports it (line 3) "
        "after importing jax, which read the variable then: x64 stays off there (`jnp.float64` arrays are "
        "`float32`). Also switch the live config when jax is imported already "
        "(`jax.config.update(\"jax_enable_x64\", True)`), or set the variable before jax is imported",
    )]


def test_guards_and_defaults_across_modules(project):
    """A Tracer guard that raises (``md/convert.py``, through ``from jax import core``),
    an ``is None`` guard on an alias of a parameter every traced caller passes
    (``md/energy.py``), and a jitted function's default from another module's enum that
    no call passes (``total`` in ``md/simulate.py``): silent.  ``to_count`` has no guard;
    ``scale``'s default (the enum member's int value: a member itself compared with a
    tracer is the Python bool False, and jit refuses a member as an argument) is passed
    by a call in ``md/report.py``: traced there."""
    project("guards_pkg")
    found = _lint(Path("."), "--no-cache")
    assert found == [(
        "JAX202", "md/convert.py", 11, 12,
        "`int()` needs a concrete value, but its argument is traced: it depends on the traced "
        "argument `v` of `to_count` (called from `step` (md/simulate.py:18), which is decorated "
        "with @jax.jit); this raises ConcretizationTypeError. Instead, keep it as an array "
        "(`x.astype(jnp.int32)`), or return it and convert outside the traced function",
    ), (
        "JAX201", "md/simulate.py", 23, 8,
        "Python `if` on a traced value: it depends on the traced argument `how` of `scale` "
        "(decorated with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` "
        "or `jnp.where`; or, if `how` is a Python value, mark it static (static_argnums=1)",
    )]


def test_x64_switched_on_when_the_package_is_imported_reaches_its_modules_and_importers(tmp_path, monkeypatch):
    # the package's __init__ imports its configuration, which hands an x64 helper to a
    # flag registry at import; every module of the package, and a test importing the
    # package, run with x64 on; a script that imports neither does not
    _write_tree(tmp_path, {
        "pyproject.toml": '[project]\nname = "physlib"\n',
        "physlib/__init__.py": "from .utils import config\nfrom .stats import accumulate\n",
        "physlib/utils/__init__.py": "",
        "physlib/utils/config.py": (
            "import os\n\n\ndef _update_x64(val):\n    from jax import config as jax_config\n\n"
            "    jax_config.update(\"jax_enable_x64\", val)\n\n\n"
            "FLAGS = {}\n\n\ndef define(name, default, callback):\n    FLAGS[name] = default\n    callback(default)\n\n\n"
            "define(\"PHYSLIB_X64\", os.environ.get(\"JAX_ENABLE_X64\", \"1\") == \"1\", callback=_update_x64)\n"),
        "physlib/stats/__init__.py": "from .online import accumulate\n",
        "physlib/stats/online.py": "import jax.numpy as jnp\n\n\ndef accumulate(n):\n    return jnp.zeros(n, dtype=jnp.float64)\n",
        "tests/test_online.py": "import jax.numpy as jnp\nimport physlib\n\n\ndef test_dtype():\n    assert physlib.accumulate(2).dtype == jnp.complex128 or jnp.ones(2).astype(jnp.float64) is not None\n",
        "scripts/plain.py": "import jax.numpy as jnp\n\nx = jnp.zeros(3, dtype=jnp.float64)\n",
    })
    monkeypatch.chdir(tmp_path)
    assert [f[:4] for f in _lint(tmp_path, "--no-cache")] == [("JAX110", "scripts/plain.py", 3, 24)]


TRANSFORMED_ELSEWHERE = {
    # no pyproject.toml: the transformations are applied in train.py to functions of losses.py
    "pkg/__init__.py": "",
    "pkg/losses.py": (
        "import jax.numpy as jnp\n"
        "\n"
        "def huber(pred, y, delta=1.0):\n"
        "    abs_err = jnp.abs(pred - y)\n"
        "    if jnp.max(abs_err) < delta:\n"                      # 5: under jit through value_and_grad
        "        return jnp.mean(0.5 * abs_err ** 2)\n"
        "    return jnp.mean(delta * (abs_err - 0.5 * delta))\n"
        "\n"
        "def loss_fn(p, b):\n"
        "    x, y = b\n"
        "    return huber(x @ p, y)\n"
        "\n"
        "def hinge(scale, margin, score):\n"
        "    return scale * max(0.0, margin - score)\n"           # 14: under vmap, through partial
        "\n"
        "def clip(x, lo):\n"
        "    if x.sum() > lo:\n"                                  # 17: under jit, through checkpoint
        "        return x\n"
        "    return -x\n"
        "\n"
        "def l2(w, n):\n"
        "    return jnp.sum(w ** 2) * jnp.ones(n)\n"              # n: in_axes=None, a Python int
        "\n"
        "def smooth(p, b):\n"
        "    if p.sum() > 0:\n"                                   # grad alone: concrete values
        "        return jnp.sum(p * b)\n"
        "    return jnp.sum(p)\n"
    ),
    "pkg/train.py": (
        "import functools\n"
        "\n"
        "import jax\n"
        "import jax.numpy as jnp\n"
        "\n"
        "from pkg import losses\n"
        "from pkg.losses import loss_fn\n"
        "\n"
        "@jax.jit\n"
        "def step(p, b):\n"
        "    loss, g = jax.value_and_grad(loss_fn)(p, b)\n"
        "    return loss, g\n"
        "\n"
        "def evaluate(m, s):\n"
        "    return jnp.mean(jax.vmap(functools.partial(losses.hinge, 2.0))(m, s))\n"
        "\n"
        "def reg(ws, n):\n"
        "    return jax.vmap(losses.l2, in_axes=(0, None))(ws, n)\n"
        "\n"
        "@jax.jit\n"
        "def clipped(x):\n"
        "    return jax.checkpoint(losses.clip)(x, 1.0)\n"
        "\n"
        "def fit(p, b):\n"
        "    return jax.grad(losses.smooth)(p, b)\n"
    ),
}


def test_transformations_applied_in_one_module_to_functions_of_another(tmp_path, monkeypatch):
    """value_and_grad/checkpoint of an imported function called inside a jit, vmap of a
    partial of one in plain code: the function runs traced there (checked with JAX:
    TracerBoolConversionError at lines 5, 14, 17); vmap's in_axes=None argument and
    grad alone leave Python values and concrete arrays (silent)."""
    _write_tree(tmp_path, TRANSFORMED_ELSEWHERE)
    monkeypatch.chdir(tmp_path)
    found = _lint(tmp_path, "--no-cache")
    assert [f[:4] for f in found] == [
        ("JAX201", "pkg/losses.py", 5, 8),
        ("JAX201", "pkg/losses.py", 14, 20),
        ("JAX201", "pkg/losses.py", 17, 8),
    ]
    assert found[0][4] == (
        "Python `if` on a traced value: it depends on the traced arguments `pred`, `y` of `huber` "
        "(called from traced `loss_fn`); this raises TracerBoolConversionError. Use `jax.lax.cond` "
        "or `jnp.where`"
    )
    assert found[1][4] == (
        "`max()` compares its arguments as Python bools, but `margin - score` is traced: it depends "
        "on the traced arguments `margin`, `score` of `hinge` (wrapped by jax.vmap in pkg/train.py:15); "
        "this raises TracerBoolConversionError. Use `jnp.maximum`"
    )
    assert "called from `clipped` (pkg/train.py:22), which is decorated with @jax.jit" in found[2][4]


def test_run_inside_a_package_its_modules_keep_their_names(tmp_path, monkeypatch):
    """`cd pkg && jaxlint .` (no pyproject.toml): the modules are still `pkg.losses` and
    `pkg.train` (the folder holding the package is the root, as mypy's crawl names them),
    so `from pkg.losses import loss_fn` resolves and the findings are those of the folder
    above; a file named alone gets the rest of the project's facts too."""
    _write_tree(tmp_path, TRANSFORMED_ELSEWHERE)
    monkeypatch.chdir(tmp_path)
    above = [(code, path, line, col) for code, path, line, col, _ in _lint(tmp_path, "--no-cache")]
    monkeypatch.chdir(tmp_path / "pkg")
    inside = [(code, f"pkg/{path}", line, col) for code, path, line, col, _ in _lint(tmp_path / "pkg", "--no-cache")]
    assert inside == above
    result = CliRunner().invoke(cli, ["check", "losses.py", "--no-cache", "--output-format", "concise"])
    assert result.stdout.splitlines()[:3] == [
        "losses.py:5:8: JAX201 Python `if` on a traced value: it depends on the traced arguments `pred`, "
        "`y` of `huber` (called from traced `loss_fn`); this raises TracerBoolConversionError. Use "
        "`jax.lax.cond` or `jnp.where`",
        "losses.py:14:20: JAX201 `max()` compares its arguments as Python bools, but `margin - score` is "
        "traced: it depends on the traced arguments `margin`, `score` of `hinge` (wrapped by jax.vmap in "
        "train.py:15); this raises TracerBoolConversionError. Use `jnp.maximum`",
        "losses.py:17:8: JAX201 Python `if` on a traced value: it depends on the traced arguments `lo`, "
        "`x` of `clip` (called from `clipped` (train.py:22), which is decorated with @jax.jit); this raises "
        "TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
    ]


BESIDE_THE_PACKAGE = {
    # no pyproject.toml above: `pkg` jits its function through `shared` beside it;
    # `tools` (a project of its own) and `scratch` (imported by nobody) are not its part
    "pkg/__init__.py": "",
    "pkg/step.py": (
        "import jax.numpy as jnp\n"
        "\n"
        "from shared.runner import compiled\n"
        "\n"
        "\n"
        "def body(x):\n"
        "    if x.sum() > 0:\n"                                   # 7: traced by shared's jit
        "        return x\n"
        "    return -x\n"
        "\n"
        "\n"
        "def main():\n"
        "    return compiled(body, jnp.ones(3))\n"
    ),
    "shared/__init__.py": "",
    "shared/runner.py": "import jax\n\n\ndef compiled(fn, x):\n    return jax.jit(fn)(x)\n",
    "tools/pyproject.toml": "[project]\nname = 'tools'\n",
    "tools/tools/__init__.py": "",
    "tools/tools/cli.py": "import shared\n",
    "scratch/try.py": "import jax\n",
}
_BODY_TRACED = (
    "Python `if` on a traced value: it depends on the traced argument `x` of `body` (wrapped by "
    "jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; or, if `x` "
    "is a Python value, mark it static (static_argnums=0)"
)


def test_a_package_run_inside_or_named_gets_the_facts_of_the_package_beside_it(tmp_path, monkeypatch):
    """`cd pkg && jaxlint .`, `jaxlint pkg` and `jaxlint pkg/step.py` from the folder above
    (no pyproject.toml anywhere) report what `jaxlint .` there reports: `shared`, beside
    `pkg` and imported by it, is linted for its facts (its jit traces `body`)."""
    _write_tree(tmp_path, BESIDE_THE_PACKAGE)
    monkeypatch.chdir(tmp_path)
    assert [f for f in _lint(tmp_path, "--no-cache") if f[1].startswith("pkg/")] == [
        ("JAX201", "pkg/step.py", 7, 8, _BODY_TRACED)]
    for named in ("pkg", "pkg/step.py"):
        result = CliRunner().invoke(cli, ["check", named, "--no-cache", "--output-format", "concise"])
        assert result.stdout.splitlines()[0] == f"pkg/step.py:7:8: JAX201 {_BODY_TRACED}", named
    monkeypatch.chdir(tmp_path / "pkg")
    assert _lint(tmp_path / "pkg", "--no-cache") == [("JAX201", "step.py", 7, 8, _BODY_TRACED)]


def test_a_package_run_inside_does_not_lint_the_projects_beside_it(tmp_path, monkeypatch):
    """`cd pkg && jaxlint .`: the folder holding `pkg` names its modules, but only `pkg` and
    what it imports (`shared`) are linted: not `tools` (its own pyproject.toml) nor
    `scratch` (imported by nobody), which in a folder of checkouts would cost the whole
    folder's time."""
    from jaxlint.project import driver

    _write_tree(tmp_path, BESIDE_THE_PACKAGE)
    linted: set[str] = set()
    plain = driver.run

    def run(files, *args, **kwargs):
        linted.update(os.path.relpath(os.path.realpath(f), os.path.realpath(tmp_path)) for f in files)
        return plain(files, *args, **kwargs)

    monkeypatch.setattr(driver, "run", run)
    monkeypatch.chdir(tmp_path / "pkg")
    _lint(tmp_path / "pkg", "--no-cache")
    assert sorted(linted) == ["pkg/__init__.py", "pkg/step.py", "shared/__init__.py", "shared/runner.py"]


def test_a_lambda_bound_to_a_module_name_and_jitted_in_another_module(tmp_path, monkeypatch):
    """`g = lambda i: np.zeros((3, 3))[i, :]` in table.py, `jax.jit(g)(a)` in main.py (jax
    issue 3133, split in two modules): the lambda runs traced (TracerArrayConversionError);
    the line named is the jit's, not the earlier plain call `g(a)`."""
    _write_tree(tmp_path, {
        "table.py": "import numpy as np\n\ng = lambda i: np.zeros((3, 3))[i, :]\nh = lambda i: np.ones((3, 3))[0, :] * i\n",
        "main.py": (
            "import jax\nimport numpy as np\n\nfrom table import g, h\n\na = np.array([1, 2])\n\n\n"
            "def run():\n    g(a)\n    return jax.jit(g)(a), jax.jit(h)(a[0])\n"
        ),
    })
    monkeypatch.chdir(tmp_path)
    found = _lint(tmp_path, "--no-cache")
    assert [f[:4] for f in found] == [("JAX204", "table.py", 3, 15)]
    assert "(wrapped by jax.jit in main.py:11)" in found[0][4]


KIND_OPS = """\
import jax
import numpy as np


def bump(v, a, b):
    v[a:b] += 1
    return v


def scale(v, s):
    v[0] *= s
    return v


def clear(v):
    v[:] = 0.0
    return v


def noise(key, n):
    return jax.random.normal(key, (n,))


def host(n):
    return np.zeros(n)
"""

KIND_MAIN = """\
import jax
import jax.numpy as jnp
import numpy as np

import pk.ops as ops
from pk.ops import bump, clear, host, noise


def run(key):
    bump(jnp.arange(10), 2, 4)
    ops.scale(jnp.ones(3), 2.0)
    clear(np.zeros(3))
    n = noise(key, 3)
    n[0] = 0.0
    h = host(3)
    h[0] = 1.0
    return n, h
"""

KIND_OTHER = """\
import jax.numpy as jnp

from pk.ops import clear, scale

handlers = [scale]
clear(jnp.zeros(2))
"""


def test_kinds_cross_modules_through_call_sites_and_returns(tmp_path, monkeypatch):
    """A helper's parameter is a JAX array where every call in the project passes one
    (imported by name or through its module); a helper of another module returns a
    JAX array (jax.random) or a NumPy array.  A parameter stays unknown where one call
    passes a NumPy array (`clear`) or a module uses the helper as a value (`scale`)."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pk").mkdir()
    (tmp_path / "pk" / "__init__.py").write_text("")
    (tmp_path / "pk" / "ops.py").write_text(KIND_OPS)
    (tmp_path / "pk" / "main.py").write_text(KIND_MAIN)
    monkeypatch.chdir(tmp_path)
    found = _lint(tmp_path, "--no-cache")
    assert found == [
        ("JAX101", "pk/main.py", 14, 5,
         "JAX arrays are immutable: `n[0] = ...` raises TypeError. Use `n = n.at[0].set(...)`"),
        ("JAX101", "pk/ops.py", 6, 5,
         "JAX arrays are immutable: `v[a:b] += ...` raises TypeError. Use `v = v.at[a:b].add(...)`"),
        ("JAX101", "pk/ops.py", 11, 5,
         "JAX arrays are immutable: `v[0] *= ...` raises TypeError. Use `v = v.at[0].multiply(...)`"),
    ]
    assert _lint(tmp_path) == found  # cold with a cache
    assert _lint(tmp_path) == found  # warm
    (tmp_path / "pk" / "other.py").write_text(KIND_OTHER)
    assert [f[:4] for f in _lint(tmp_path)] == [("JAX101", "pk/main.py", 14, 5), ("JAX101", "pk/ops.py", 6, 5)]


def test_the_kinds_a_record_carries_are_the_models():
    """project/facts.py spells the carried kinds itself (a warm run must not import
    libcst through model/kinds.py): the two must agree."""
    from jaxlint.model import kinds
    from jaxlint.project.facts import CARRIED_KINDS, carries_kind

    assert CARRIED_KINDS == kinds.CARRIED
    assert carries_kind({"pos": ["unknown", "array"], "kw": {}})
    assert carries_kind({"pos": [], "kw": {"key": "key"}})
    assert not carries_kind({"pos": ["tracer", "unknown"], "kw": {"n": "static"}})
    assert not carries_kind({"pos": None, "kw": None})


MIXUP = '''import jax
import numpy as np


def mixup(batch, alpha=1.0, rng=None):
    if rng is None:
        weight = np.random.beta(alpha, alpha)
    else:
        weight = jax.random.beta(rng, alpha, alpha)
    return batch * weight
'''

TRAINER = '''import jax

from pk import data


@jax.pmap
def train_step(batch, rng):
    return data.mixup(batch, rng=rng)
'''


@pytest.mark.parametrize("bound, expected", [
    ("alpha=1.0, rng=jax.random.PRNGKey(0)", []),
    ("alpha=1.0", [("JAX406", "pk/data.py", 7, 18)]),
])
def test_a_host_branch_that_no_trace_of_the_project_takes(tmp_path, monkeypatch, bound, expected):
    # `if rng is None:` is the host input pipeline's; the traced callers pass a key, and a
    # test jits a `partial` of the helper that binds one (or, the twin, leaves it out)
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pk").mkdir()
    (tmp_path / "pk" / "__init__.py").write_text("")
    (tmp_path / "pk" / "data.py").write_text(MIXUP)
    (tmp_path / "pk" / "trainer.py").write_text(TRAINER)
    (tmp_path / "pk" / "test_data.py").write_text(
        "import functools\n\nimport jax\n\nfrom pk import data\n\n"
        f"mixup_fn = jax.jit(functools.partial(data.mixup, {bound}))\n")
    monkeypatch.chdir(tmp_path)
    found = _lint(tmp_path, "--no-cache")
    assert [f[:4] for f in found] == expected


TIMING_UTIL = """\
import time


def jit_test(fn, fn_args=(), fn_kwargs=None):
    if fn_kwargs is None:
        fn_kwargs = {}
    start_time = time.time()
    fn(*fn_args, **fn_kwargs)
    end_time = time.time()
    return end_time - start_time


def time_any(fn, arg):
    start = time.perf_counter()
    fn(arg)
    return time.perf_counter() - start
"""

TIMING_TEST = """\
import jax
import jax.numpy as jnp

from coreax.util import jit_test, time_any


def squared_distance(x, y):
    return jnp.sum((x[:, None, :] - y[None, :, :]) ** 2, axis=-1)


def test_squared_distance_jit():
    x = jnp.ones((50, 5))
    assert jit_test(jax.jit(squared_distance), (x, x)) > 0
    time_any(jax.jit(jnp.sin), x)
    time_any(sorted, [3, 1])
"""


def test_a_jitted_function_passed_to_a_timing_helper_of_another_module(tmp_path, monkeypatch):
    """coreax#470: a helper module that never names JAX times `fn(...)`; the only call, in
    a test module, passes `jax.jit(...)`: the calls of `fn` dispatch asynchronously.
    `time_any` is also given a plain function: its parameter stays unknown, silent."""
    (tmp_path / "pyproject.toml").write_text("")
    for pkg in ("coreax", "tests"):
        (tmp_path / pkg).mkdir()
        (tmp_path / pkg / "__init__.py").write_text("")
    (tmp_path / "coreax" / "util.py").write_text(TIMING_UTIL)
    (tmp_path / "tests" / "test_kernel.py").write_text(TIMING_TEST)
    monkeypatch.chdir(tmp_path)
    found = _lint(tmp_path, "--no-cache")
    assert found == [
        ("JAX505", "coreax/util.py", 9, 16,
         "`time.time()` is read while the JAX computation started on line 8 may still be running "
         "(dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result "
         "first: `jax.block_until_ready(result)` or `result.block_until_ready()`"),
    ]
    assert _lint(tmp_path) == found  # cold with a cache
    assert _lint(tmp_path) == found  # warm


# A flax linen Module defined in another module hashes its fields: a dict or list field makes
# an instance unhashable in a static slot (`jax.pmap(..., static_broadcasted_argnums=...)`,
# `jax.jit(..., static_argnums=...)`), reached through the imported module or by name.
_LINEN_MODELS = (
    "from typing import Any, Mapping\n\nimport flax.linen as nn\n\n\n"
    "class NerfModel(nn.Module):\n    embeddings: Mapping[str, Any]\n\n"
    "    @nn.compact\n    def __call__(self, x):\n        return nn.Dense(4)(x)\n\n\n"
    "class Plain(nn.Module):\n    width: int\n\n"
    "    @nn.compact\n    def __call__(self, x):\n        return nn.Dense(self.width)(x)\n"
)
_LINEN_STEP = "def train_step(model, params, x):\n    return model.apply(params, x)\n"


def test_linen_module_with_a_dict_field_in_a_static_slot_across_modules(tmp_path, monkeypatch):
    _write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'nerf'\n",
        "nerf/__init__.py": "",
        "nerf/models.py": _LINEN_MODELS,
        "nerf/training.py": _LINEN_STEP,
        "nerf/train.py": (
            "from functools import partial\n\nimport jax\n\nfrom nerf import models, training\n"
            "from nerf.models import NerfModel, Plain\n\n\n"
            "def main(params, x):\n"
            "    model = models.NerfModel(embeddings={'warp': [0, 1]})\n"
            "    p_step = jax.pmap(training.train_step, axis_name='batch', static_broadcasted_argnums=(0,))\n"
            "    p_step(model, params, x)\n"
            "    step = jax.jit(training.train_step, static_argnums=0)\n"
            "    step(NerfModel({'a': 1}), params, x)\n"
            "    step(Plain(4), params, x)\n"
        ),
    })
    monkeypatch.chdir(tmp_path)
    found = [f for f in _lint(tmp_path) if f[0] == "JAX207"]
    tail = ("static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments "
            "are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value "
            "(tuple, int, str)")
    assert found == [
        ("JAX207", "nerf/train.py", 12, 12,
         "An instance of the flax Module `models.NerfModel` whose field `embeddings` is a dict (a flax Module "
         "hashes its fields) is passed to `p_step` in a static position (argument 0; "
         "static_broadcasted_argnums=0): " + tail),
        ("JAX207", "nerf/train.py", 14, 10,
         "An instance of the flax Module `NerfModel` whose field `embeddings` is a dict (a flax Module "
         "hashes its fields) is passed to `step` in a static position (argument 0; static_argnums=0): " + tail),
    ]


def test_linen_module_of_another_module_in_a_traced_slot(tmp_path, monkeypatch):
    """A flax linen Module is no pytree: jit cannot make it an abstract array (checked with
    JAX: TypeError ... as an abstract array), whether the class is reached through the
    imported module or imported by name; passed static, it is fine."""
    _write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'nerf'\n",
        "nerf/__init__.py": "",
        "nerf/models.py": _LINEN_MODELS,
        "nerf/step.py": (
            "from functools import partial\n\nimport jax\n\nfrom nerf import models\nfrom nerf.models import Plain\n\n\n"
            "@jax.jit\ndef apply(model, params, x):\n    return model.apply(params, x)\n\n\n"
            "@partial(jax.jit, static_argnums=0)\ndef apply_static(model, params, x):\n"
            "    return model.apply(params, x)\n\n\n"
            "def main(params, x):\n    apply(models.Plain(4), params, x)\n    net = Plain(8)\n"
            "    apply_static(net, params, x)\n    return apply(net, params, x)\n"
        ),
    })
    monkeypatch.chdir(tmp_path)
    tail = (" is passed to `apply` for the traced parameter `model`: jit makes every traced argument an "
            "abstract array and cannot make this one, so the call raises TypeError: Error interpreting "
            "argument ... as an abstract array. Declare it static (static_argnums=0, when it is hashable), "
            "or close over it instead of passing it")
    assert [f for f in _lint(tmp_path) if f[0] == "JAX209"] == [
        ("JAX209", "nerf/step.py", 20, 11, "A flax linen Module (`models.Plain(...)`, not a pytree)" + tail),
        ("JAX209", "nerf/step.py", 23, 18, "A flax linen Module (`Plain(...)`, not a pytree)" + tail),
    ]


@pytest.mark.parametrize("beside", ["long-range-arena/__init__.py", "my.checkout/__init__.py"])
def test_a_checkout_whose_folder_name_is_no_identifier_is_not_a_package(tmp_path, monkeypatch, beside):
    """A checkout that holds an ``__init__.py`` under a name no import can spell
    (``long-range-arena``, ``my.checkout``) is a folder, not a package: beside it, a
    project's absolute imports (``from losses import huber``) still resolve from the
    folder above, and running inside it does not crawl up into the folder of projects."""
    _write_tree(tmp_path, {**FOLDER_OF_PROJECTS, beside: "",
                           beside.replace("__init__.py", "lra/ops.py"): _HUBER,
                           beside.replace("__init__.py", "lra/run.py"):
                               "import jax\nfrom lra.ops import huber\n\nf = jax.jit(huber)\n"})
    monkeypatch.chdir(tmp_path)
    above = [(code, path, line, col) for code, path, line, col, _ in _lint(tmp_path, "--no-cache")]
    checkout = beside.split("/")[0]
    assert above == sorted([("JAX201", f"{checkout}/lra/ops.py", 2, 8), ("JAX201", "proj_a/losses.py", 2, 8),
                            ("JAX204", "proj_b/pkg/losses.py", 4, 12)], key=lambda f: f[1])
    for name in ("proj_a", checkout):
        monkeypatch.chdir(tmp_path / name)
        inside = [(code, f"{name}/{path}", line, col) for code, path, line, col, _ in _lint(tmp_path / name, "--no-cache")]
        assert inside == [f for f in above if f[1].startswith(name + "/")]


@pytest.mark.parametrize("link", [True, False])
def test_two_files_with_one_module_name_do_not_stop_the_run(tmp_path, monkeypatch, link):
    """A module symlinked into another folder (alpa's ``benchmark/megatron/util.py ->
    ../alpa/util.py``), or a module and a package of one name (``util.py``, ``util/__init__.py``), beside a module
    that exports a jit: the run goes on, both files are linted alone, the rest as usual."""
    _write_tree(tmp_path, {
        "pyproject.toml": "",
        "bench/alpa/util.py": "def helper(x):\n    return x + 1\n",
        "bench/jits.py": "import jax\n\n\n@jax.jit\ndef power(x, n):\n    if n > 1:\n        return x\n    return x\n",
        "bench/run.py": "from bench.jits import power\nfrom bench.alpa.util import helper\n\nprint(power(helper(1), 2))\n",
    })
    if link:
        (tmp_path / "bench/megatron").mkdir()
        (tmp_path / "bench/megatron/util.py").symlink_to("../alpa/util.py")
    else:  # a module and a package of one name (Python imports the package)
        _write_tree(tmp_path, {"bench/alpa/util/__init__.py": "def helper(x):\n    return x\n"})
    monkeypatch.chdir(tmp_path)
    found = _lint(tmp_path, "--no-cache")
    assert [f[:4] for f in found] == [("JAX201", "bench/jits.py", 6, 8)]


def test_a_defect_of_the_analysis_across_modules_does_not_stop_the_run(tmp_path, monkeypatch):
    """Should the analysis across modules fail (a defect of jaxlint's), every file is
    still linted on its own: its own findings come out, with one line saying what
    happened (exit 2), and the traceback only with --verbose."""
    import jaxlint.project.driver as driver

    def broken(*args, **kwargs):
        raise KeyError("bench/alpa/util.py")

    _write_tree(tmp_path, {
        "pyproject.toml": "",
        "bench/jits.py": "import jax\n\n\n@jax.jit\ndef power(x, n):\n    if n > 1:\n        return x\n    return x\n",
        "bench/keys.py": "import jax\n\nk = jax.random.PRNGKey(0)\na = jax.random.normal(k)\nb = jax.random.normal(k)\n",
    })
    monkeypatch.setattr(driver, "_next_round", broken)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "concise"])
    assert result.exit_code == 2
    assert [line.split(" ", 2)[:2] for line in result.stdout.splitlines() if ": JAX" in line] == [
        ["bench/jits.py:6:8:", "JAX201"], ["bench/keys.py:5:5:", "JAX301"]]
    assert result.stderr.splitlines() == [
        "error: internal error in the analysis across modules: each file was linted on its own "
        "(run with --verbose for the traceback)"]
    verbose = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--verbose", "--output-format", "concise"])
    assert "KeyError: 'bench/alpa/util.py'" in verbose.stderr


NS_API = """\
import numpy as np


def array_namespace(*arrays):
    try:
        import jax
    except ImportError:
        return np
    if any(isinstance(a, jax.Array) for a in arrays):
        import jax.numpy as jnp
        return jnp
    return np


def host_namespace(*arrays):
    return np
"""

NS_BACKEND = """\
import numpy

_BACKEND = "numpy"


def force_backend(name):
    global _BACKEND
    _BACKEND = name


def xp():
    if _BACKEND == "jax":
        import jax.numpy as jnp

        return jnp
    return numpy


def jacobian(d):
    np = xp()
    out = np.zeros((6, 6))
    out = out + np.diag(np.array([d, d, 1.0, 1.0, d, d]))
    return out
"""

NS_USE = """\
from pk.api import array_namespace, host_namespace
from pk import backend


def lazywhere(cond, arrays, f, fill):
    xp = array_namespace(cond, *arrays)
    out = xp.full(cond.shape, fill)
    out[cond] = f(*(a[cond] for a in arrays))
    return out


def host_fill(cond, a):
    xp = host_namespace(cond, a)
    out = xp.zeros(cond.shape)
    out[cond] = a[cond]
    return out


def where_fill(cond, a):
    xp = array_namespace(cond, a)
    return xp.where(cond, a, xp.zeros(cond.shape))


def scaled(d, ro):
    jac = backend.jacobian(d)
    jac[:3, :] /= ro
    return jac
"""


def test_an_array_namespace_of_another_module_that_is_jax_numpy_on_some_paths(tmp_path, monkeypatch):
    """A helper of another module returns `jax.numpy` on some paths and NumPy on the
    others (scipy's `array_namespace`, a backend switch): an array its constructors
    build, here or in that module's helper, is a JAX array on some calls, and an item
    assignment on it raises there.  A namespace that is NumPy on every path, and an
    update without item assignment, stay silent."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pk").mkdir()
    (tmp_path / "pk" / "__init__.py").write_text("")
    (tmp_path / "pk" / "api.py").write_text(NS_API)
    (tmp_path / "pk" / "backend.py").write_text(NS_BACKEND)
    (tmp_path / "pk" / "use.py").write_text(NS_USE)
    monkeypatch.chdir(tmp_path)
    found = _lint(tmp_path, "--no-cache")
    tail = (" holds a JAX array (an array namespace built it, `jax.numpy` on some calls and NumPy on the "
            "others). Update it without item assignment on both (`xp.where`), or use ")
    assert found == [
        ("JAX101", "pk/use.py", 8, 5, "JAX arrays are immutable: `out[cond] = ...` raises TypeError on the "
         "calls where `out`" + tail + "`out = out.at[cond].set(...)` where the namespace is `jax.numpy`"),
        ("JAX101", "pk/use.py", 26, 5, "JAX arrays are immutable: `jac[:3, :] /= ...` raises TypeError on the "
         "calls where `jac`" + tail + "`jac = jac.at[:3, :].divide(...)` where the namespace is `jax.numpy`"),
    ]
    assert _lint(tmp_path) == found  # cold with a cache
    assert _lint(tmp_path) == found  # warm
