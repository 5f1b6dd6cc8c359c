"""`jaxlint check --observed`: the facts `jaxlint observe` recorded (which functions ran
under a JAX trace, each parameter's kind, a jit's static_argnums) fill in what the
static model leaves unknown, and never what it shows (docs/runtime.md, "Observed facts
in `check`").

The end-to-end tests run real JAX on CPU: a project whose functions are called through
a dict the model cannot follow is run under `jaxlint observe`, then `check --observed`
reports the bug at its exact line, column, code and message; the corrected twin stays
silent; stale facts are ignored with one line; the cache never hands back the result of
a run without the facts; every output format works.  The model tests need no JAX.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from textwrap import dedent

import pytest

from jaxlint.lint.linter import lint_source
from jaxlint.settings import LintSettings
from jaxlint.workspace.observed import ObservedError, ObservedFacts, functions_of

OPS = '''\
import jax.numpy as jnp
import numpy as np


def clip(x, mode):
    if mode == "hard":
        return jnp.clip(x, -1.0, 1.0)
    if x.sum() > 0:
        return x
    return np.tanh(x)


def scale(x, n):
    if n > 2:
        return x * n
    return x


def pairs(tree, k):
    a, b = tree
    if k > 1:
        return a * k + b
    return a


OPS = {"clip": clip, "scale": scale, "pairs": pairs}
'''

MAIN = '''\
import jax
import jax.numpy as jnp

from ops import OPS


def apply(name, x, arg):
    return jax.jit(OPS[name], static_argnums=1)(x, arg)


@jax.jit
def both(x):
    return OPS["pairs"]((x, x), 2)


if __name__ == "__main__":
    print(apply("clip", jnp.ones(3), "hard"))
    print(apply("scale", jnp.ones(3), 3))
    print(both(jnp.ones(2)))
    print(OPS["scale"](jnp.ones(2), 1))
'''

REASON = "traced by jax.jit in the run `jaxlint observe` recorded"
EXPECTED = [
    ("JAX201", "ops.py", 8, 8,
     f"Python `if` on a traced value: it depends on the traced argument `x` of `clip` ({REASON}); "
     "this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; or, if `x` is a "
     "Python value, mark it static (static_argnums=0)"),
    ("JAX204", "ops.py", 10, 12,
     f"`np.tanh` on a traced value (it depends on the traced argument `x` of `clip` ({REASON})): "
     "NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use "
     "`jnp.tanh` (jax.numpy) instead"),
]


def write_ops_facts(root: Path, config: str = "[tool.jaxlint]\nobserved = true\n") -> None:
    """``ops.py`` and the facts a run of ``main.py`` records for it (``clip`` traced by
    jit, `x` a tracer, `mode` static), written as `jaxlint observe` writes them, in the
    default place; and a configuration asking for them.  For the front ends that read
    the facts the configuration names (the language server, the MCP server)."""
    (root / "ops.py").write_text(OPS)
    (root / "pyproject.toml").write_text(config)
    table = {f.qualname: f for f in functions_of(OPS)}
    facts = root / ".jaxlint_cache" / "observed" / "facts.json"
    facts.parent.mkdir(parents=True)
    facts.write_text(json.dumps({"version": 2, "root": str(root.resolve()), "functions": [{
        "file": "ops.py", "qualname": "clip", "line": table["clip"].line, "sha": table["clip"].sha,
        "under": ["jit"], "root": True, "params": {"x": "tracer", "mode": "static"},
        "static": ["mode"], "static_argnums": [1], "static_argnames": []}]}))


def jaxlint(cwd: Path, *args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("JAXLINT_CACHE_DIR", None)
    return subprocess.run([sys.executable, "-m", "jaxlint", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, env=env)


def rows(out: str) -> list[tuple]:
    return [(f["code"], f["filename"], f["location"]["row"], f["location"]["column"],
             f["message"]) for f in json.loads(out)]


@pytest.fixture(scope="module")
def observed_project(tmp_path_factory) -> Path:
    """The project, run once under `jaxlint observe` (real JAX): its facts in the
    default place, <cache-dir>/observed/facts.json."""
    pytest.importorskip("jax")
    if sys.platform != "linux":
        pytest.skip("observe's process guard uses /proc")
    root = tmp_path_factory.mktemp("observed")
    (root / "ops.py").write_text(OPS)
    (root / "main.py").write_text(MAIN)
    done = jaxlint(root, "observe", "--run", "python main.py", "-v", ".")
    assert done.returncode == 0, done.stderr
    # only what ran under a JAX trace is recorded (`apply`, never traced, is not)
    assert "observed facts for 4 function(s), 4 of them traced, written to" in done.stderr
    return root


@pytest.fixture
def project(observed_project, tmp_path) -> Path:
    """A fresh copy of the observed project (with its facts, which name files relative
    to the project root: they hold at the copy's path), for a test to edit."""
    copy = tmp_path / "p"
    shutil.copytree(observed_project, copy)
    shutil.rmtree(copy / ".jaxlint_cache" / "lint", ignore_errors=True)
    return copy


def test_observe_records_every_function_it_saw(observed_project):
    doc = json.loads((observed_project / ".jaxlint_cache" / "observed" / "facts.json").read_text())
    assert doc["version"] == 2 and doc["commands"] == ["python main.py"]
    assert doc["root"] == str(observed_project.resolve())
    assert {f["file"] for f in doc["functions"]} == {"main.py", "ops.py"}  # relative to the root
    got = {f["qualname"]: (f["under"], f["root"], f["params"], f["static_argnums"],
                           f["traced_calls"], f["untraced_calls"]) for f in doc["functions"]}
    assert got == {
        "both": (["jit"], True, {"x": "tracer"}, [], 1, 0),
        "clip": (["jit"], True, {"x": "tracer", "mode": "static"}, [1], 1, 0),
        "scale": (["jit"], True, {"x": "tracer", "n": "static"}, [1], 1, 0),
        "pairs": (["jit"], False, {"tree": "pytree-tracers", "k": "scalar"}, [], 1, 0),
    }
    table = {f.qualname: f for f in functions_of((observed_project / "ops.py").read_text())}
    for f in doc["functions"]:
        if f["file"] == "ops.py":
            assert f["sha"] == table[f["qualname"]].sha and f["line"] == table[f["qualname"]].line


def test_check_observed_reports_what_the_dispatch_hid(project):
    """Without the facts the model cannot follow `OPS[name]` and is silent; with them,
    `clip` ran traced by jit with `x` a tracer and `mode` static: the tracer `if` and
    `np.tanh` of the branch the run did not take are reported.  `scale` (its `n`
    observed static) and `pairs` (its `k` a Python int) stay silent."""
    done = jaxlint(project, "check", "--output-format", "json", ".")
    assert (done.returncode, json.loads(done.stdout)) == (0, []), done.stderr
    done = jaxlint(project, "check", "--output-format", "json", "--observed")
    assert done.returncode == 1, done.stderr
    assert rows(done.stdout) == EXPECTED
    assert done.stderr == ""


def test_the_cache_keeps_observed_and_unobserved_results_apart(project):
    for args, expected in ((["--observed"], EXPECTED), ([], []), (["--observed"], EXPECTED),
                           ([], [])):
        done = jaxlint(project, "check", ".", "-v", "--output-format", "json", *args)
        assert rows(done.stdout) == expected, (args, done.stderr)
    # the third and fourth runs came from the cache (every file)
    assert "linted 2 files (2 from the cache)" in done.stderr
    # new facts (another run, the same functions): a new key, not the old results
    facts = project / ".jaxlint_cache" / "observed" / "facts.json"
    doc = json.loads(facts.read_text())
    for f in doc["functions"]:
        if f["qualname"] == "clip":
            f["params"]["x"] = "mixed"  # as if another call passed a Python number
    facts.write_text(json.dumps(doc))
    done = jaxlint(project, "check", "-v", "--output-format", "json", "--observed")
    assert rows(done.stdout) == [], done.stderr
    assert "from the cache)" in done.stderr and "(2 from the cache)" not in done.stderr


def test_stale_facts_are_ignored_with_one_line(project):
    ops = project / "ops.py"
    ops.write_text(ops.read_text().replace("        return x\n    return np.tanh(x)",
                                           "        return x + 0\n    return np.tanh(x)"))
    done = jaxlint(project, "check", "--output-format", "json", "--observed")
    assert (done.returncode, rows(done.stdout)) == (0, [])
    facts = project / ".jaxlint_cache" / "observed" / "facts.json"
    assert done.stderr.splitlines() == [
        f"warning: 1 of 4 observed functions in {facts.resolve()} is stale (edited since "
        "`jaxlint observe` ran) and was ignored; run `jaxlint observe` again"]
    # code moved down (not edited): its facts still hold
    ops.write_text("# a comment\n\n" + OPS)
    done = jaxlint(project, "check", "--output-format", "concise", "-q", "--observed")
    assert [line.split(" ")[:2] for line in done.stdout.splitlines()] == [
        ["ops.py:10:8:", "JAX201"], ["ops.py:12:12:", "JAX204"]]
    assert done.stderr == ""


@pytest.mark.parametrize("fmt,probe", [
    ("full", "ops.py:8:8: JAX201 Python `if` on a traced value"),
    ("concise", "ops.py:8:8: JAX201 Python `if` on a traced value"),
    ("json", '"code": "JAX201"'),
    ("sarif", '"ruleId": "JAX204"'),
    ("github", "::error title=jaxlint (JAX201),file=ops.py,line=8,col=8"),
    ("gitlab", '"check_name": "JAX204"'),
    ("junit", "JAX201"),
])
def test_every_output_format(project, fmt, probe):
    done = jaxlint(project, "check", "--output-format", fmt, "--observed")
    assert done.returncode == 1 and probe in done.stdout, (fmt, done.stdout, done.stderr)


def test_configuration_and_explicit_file(project, tmp_path):
    facts = project / ".jaxlint_cache" / "observed" / "facts.json"
    moved = tmp_path / "facts.json"
    shutil.copy(facts, moved)
    done = jaxlint(project, "check", "--output-format", "json", f"--observed={moved}", ".")
    assert rows(done.stdout) == EXPECTED
    (project / "pyproject.toml").write_text("[tool.jaxlint]\nobserved = true\n")
    done = jaxlint(project, "check", "--output-format", "json")
    assert rows(done.stdout) == EXPECTED, done.stderr
    done = jaxlint(project, "check", "--output-format", "json", "--no-observed")
    assert rows(done.stdout) == [], done.stderr
    (project / "pyproject.toml").write_text('[tool.jaxlint]\nobserved = "nowhere.json"\n')
    done = jaxlint(project, "check", "--output-format", "json")
    assert rows(done.stdout) == []
    assert done.stderr.startswith(f"warning: {project.resolve() / 'nowhere.json'}: no observed facts")


NOISY = '''\

@jax.jit
def noisy(x):
    print(x)
    return x + 1


noisy(jnp.ones(2))
'''


@pytest.mark.parametrize("watched", [False, True])
def test_confirm_run_records_the_facts_too(tmp_path, watched):
    """`confirm --run` records the facts as `observe` does, by default: with nothing to confirm
    (`check` is silent on this project) the command runs for the facts alone; with a
    finding to confirm the recorder's trace function hands the facts recorder every
    call (one trace function per process).  `check --observed` then reports what the
    dispatch hid."""
    pytest.importorskip("jax")
    if sys.platform != "linux":
        pytest.skip("the process guard uses /proc")
    (tmp_path / "ops.py").write_text(OPS)
    main = MAIN.replace("\n\nif __name__", NOISY + "\n\nif __name__") if watched else MAIN
    (tmp_path / "main.py").write_text(main)
    # recorded by default, in the file `check --observed` reads by default
    done = jaxlint(tmp_path, "confirm", "--output-format", "json", "--run", "python main.py",
                   "-v", ".")
    assert done.returncode == (1 if watched else 0), done.stderr
    assert f"observed facts for {6 if watched else 5} function(s), {5 if watched else 4} of them " \
           f"traced, written to" in done.stderr
    if watched:  # the finding was confirmed in the run: the recorder worked as before
        assert [(f["code"], f["runtime"]["verdict"]) for f in json.loads(done.stdout)] == [
            ("JAX401", "confirmed")]
    doc = json.loads((tmp_path / ".jaxlint_cache" / "observed" / "facts.json").read_text())
    assert doc["written_by"] == "jaxlint confirm" and doc["commands"] == ["python main.py"]
    got = {f["qualname"]: (f["under"], f["params"]) for f in doc["functions"]}
    assert got["clip"] == (["jit"], {"x": "tracer", "mode": "static"})
    assert got["pairs"] == (["jit"], {"tree": "pytree-tracers", "k": "scalar"})
    done = jaxlint(tmp_path, "check", "--output-format", "json", "--observed", "--select", "JAX2")
    assert (done.returncode, rows(done.stdout), done.stderr) == (1, EXPECTED, "")
    # --no-facts: nothing recorded, and with nothing to confirm nothing runs
    (tmp_path / ".jaxlint_cache" / "observed" / "facts.json").unlink()
    done = jaxlint(tmp_path, "confirm", "--output-format", "json", "--run", "python main.py",
                   "--no-facts", ".")
    assert not (tmp_path / ".jaxlint_cache" / "observed" / "facts.json").exists()
    if not watched:
        assert "stopped: no finding inside a function to watch" in done.stderr


KILLS_ITS_GUARD = '''

# then the process jaxlint started for this command (the guard) is killed by SIGKILL
pid = os.getppid()
while pid > 1:
    with open(f"/proc/{pid}/cmdline", "rb") as fh:
        if b"jaxlint.runtime.procs" in fh.read():
            os.kill(pid, 9)
            break
    with open(f"/proc/{pid}/stat") as fh:
        pid = int(fh.read().rsplit(")", 1)[1].split()[1])
time.sleep(30)
'''


def test_a_run_killed_by_a_signal_writes_no_facts(tmp_path):
    """A --run whose process was killed by a signal did not run to its end: no facts
    file (it was written from what the run had recorded until then, as if finished)."""
    pytest.importorskip("jax")
    if sys.platform != "linux":
        pytest.skip("the process guard uses /proc")
    (tmp_path / "ops.py").write_text(OPS)
    (tmp_path / "main.py").write_text("import os\nimport time\n" + MAIN + KILLS_ITS_GUARD)
    facts = tmp_path / "facts.json"
    done = jaxlint(tmp_path, "confirm", "--output-format", "json", "--run", "python main.py",
                   "--facts", str(facts), "-v", ".")
    assert "--run `python main.py`: killed by SIGKILL" in done.stderr, done.stderr
    assert not facts.exists(), done.stderr


def test_a_run_whose_program_is_killed_by_sigkill_writes_no_facts(tmp_path):
    """The program killed by SIGKILL (what the OOM killer sends): the guard reports `exit
    status 137 (signal 9)`, which is not a run that ended, for `confirm --facts` and for
    `observe` alike: no facts file (observe's would hold only what other processes of the
    command recorded, and replace a whole one)."""
    pytest.importorskip("jax")
    if sys.platform != "linux":
        pytest.skip("the process guard uses /proc")
    (tmp_path / "ops.py").write_text(OPS)
    (tmp_path / "main.py").write_text(MAIN + "\nimport os\nimport signal\n\n"
                                      "os.kill(os.getpid(), signal.SIGKILL)\n")
    facts = tmp_path / "facts.json"
    done = jaxlint(tmp_path, "confirm", "--output-format", "json", "--run", "python main.py",
                   "--facts", str(facts), "-v", ".")
    assert "--run `python main.py`: exit status 137 (signal 9)" in done.stderr, done.stderr
    assert not facts.exists(), done.stderr
    done = jaxlint(tmp_path, "observe", "--run", "python main.py", "--facts", str(facts), "-v",
                   ".")
    assert "--run `python main.py`: exit status 137 (signal 9)" in done.stderr, done.stderr
    assert "no --run command ran to its end: no observed facts written" in done.stderr
    assert not facts.exists(), done.stderr


def test_a_facts_file_that_cannot_be_used_is_one_line(tmp_path):
    (tmp_path / "m.py").write_text("import jax\n")
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "old.json").write_text('{"version": 0, "functions": []}')
    for arg, line in (
        ("--observed", f"error: {tmp_path.resolve() / '.jaxlint_cache' / 'observed' / 'facts.json'}: "
                       "no observed facts (No such file or directory); `jaxlint observe --run CMD` writes them"),
        ("--observed=bad.json", "error: bad.json: not a facts file (not JSON; `--observed` takes the word "
                                "after it as its FILE: write --observed=FILE, or put the paths first)"),
        ("--observed=old.json", "error: old.json: facts file version 0, this jaxlint reads versions 1 to 2: "
                                "run `jaxlint observe` again"),
    ):
        done = jaxlint(tmp_path, "check", arg)
        assert (done.returncode, done.stderr.splitlines()) == (2, [line]), arg
    # a folder or a Python file after `--observed` is no facts file: it is the path to lint,
    # with the default facts file (`jaxlint check --observed train.py`)
    default = (f"error: {tmp_path.resolve() / '.jaxlint_cache' / 'observed' / 'facts.json'}: "
               "no observed facts (No such file or directory); `jaxlint observe --run CMD` writes them")
    for args in (("--observed", "."), ("--observed", "m.py"), ("--observed=m.py",)):
        done = jaxlint(tmp_path, "check", *args)
        assert (done.returncode, done.stderr.splitlines()) == (2, [default]), args


def test_a_moved_checkout_keeps_its_facts(observed_project, tmp_path):
    """The facts name files relative to the project root: the same project at another
    path (another machine, a CI workspace) finds them, with no line on stderr; the
    original checkout is gone, so nothing can match it by accident."""
    moved = tmp_path / "elsewhere" / "checkout"
    shutil.copytree(observed_project, moved)
    shutil.rmtree(moved / ".jaxlint_cache" / "lint", ignore_errors=True)
    (moved / "pyproject.toml").write_text("[tool.jaxlint]\nobserved = true\n")
    sub = moved / "sub"
    sub.mkdir()
    original = tmp_path / "original"
    shutil.move(str(observed_project), original)
    try:
        done = jaxlint(moved, "check", "--output-format", "json")
        assert (done.returncode, rows(done.stdout), done.stderr) == (1, EXPECTED, "")
        # from a folder below the root: the configuration's directory is the root still
        done = jaxlint(sub, "check", "--output-format", "json", "..")
        assert rows(done.stdout) == [(c, "../" + f, *rest) for c, f, *rest in EXPECTED], done.stderr
    finally:
        shutil.move(str(original), observed_project)


def test_facts_for_no_file_here_say_so_once(project, tmp_path):
    """Facts that exist but are for files not in this project (the project moved and
    the facts name their absolute paths, the version 1 format; or facts of another
    project) are one warning line, not silently nothing."""
    facts = project / ".jaxlint_cache" / "observed" / "facts.json"
    doc = json.loads(facts.read_text())
    old = dict(doc, version=1, functions=[dict(f, file=f"/gone/checkout/{f['file']}")
                                        for f in doc["functions"]])
    old.pop("root")
    (tmp_path / "old.json").write_text(json.dumps(old))
    done = jaxlint(project, "check", "--output-format", "json", f"--observed={tmp_path / 'old.json'}")
    assert (done.returncode, rows(done.stdout)) == (0, [])
    assert done.stderr.splitlines() == [
        f"warning: none of the 4 observed functions in {tmp_path / 'old.json'} are in a file of "
        f"this project (looked for under {project.resolve()}); run `jaxlint observe` again here"]
    other = dict(doc, root="/gone/checkout", functions=[dict(f, file="pkg/" + f["file"])
                                                        for f in doc["functions"]])
    (tmp_path / "other.json").write_text(json.dumps(other))
    done = jaxlint(project, "check", "--output-format", "json", f"--observed={tmp_path / 'other.json'}")
    assert done.stderr.splitlines() == [
        f"warning: none of the 4 observed functions in {tmp_path / 'other.json'} are in a file of "
        f"this project (recorded under /gone/checkout, looked for under {project.resolve()}); "
        f"run `jaxlint observe` again here"]
    # version 1, absolute paths of this checkout: still read
    here = dict(old, functions=[dict(f, file=str(project.resolve() / f["file"]))
                                for f in doc["functions"]])
    (tmp_path / "here.json").write_text(json.dumps(here))
    done = jaxlint(project, "check", "--output-format", "json", f"--observed={tmp_path / 'here.json'}")
    assert (rows(done.stdout), done.stderr) == (EXPECTED, "")
    # facts of files that are here but not linted: no line (a lint of part of the project)
    (project / "other.py").write_text("x = 1\n")
    done = jaxlint(project, "check", "--output-format", "json", "other.py", "--observed")
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "[]", "")


def test_records_of_the_wrong_shape_are_skipped_not_a_crash(tmp_path):
    (tmp_path / "m.py").write_text("import jax\n")
    base = {"file": str(tmp_path / "m.py"), "qualname": "f", "line": 1, "sha": "0" * 64}
    weird = [dict(base, under=[[1]]), dict(base, params={"x": [1]}), dict(base, file="m\0.py"),
             dict(base, under=[{"jit": 1}])]
    (tmp_path / "weird.json").write_text(json.dumps({"version": 1, "functions": weird}))
    done = jaxlint(tmp_path, "check", "--observed=weird.json")
    assert (done.returncode, done.stderr) == (0, ""), done.stderr


def test_a_recorded_root_no_path_can_have_is_not_a_crash(tmp_path):
    """A "root" with a NUL (no path has one): the facts are still for no file here, one
    warning line, never "internal error: ValueError: embedded null byte"."""
    (tmp_path / "a.py").write_text("x = 1\n")
    doc = {"version": 2, "root": "/nowhere\0x",
           "functions": [{"file": "gone.py", "qualname": "f", "line": 1, "sha": "0"}]}
    (tmp_path / "facts.json").write_text(json.dumps(doc))
    done = jaxlint(tmp_path, "check", "a.py", "--observed=facts.json")
    assert (done.returncode, done.stdout, done.stderr.splitlines()) == (0, "All checks passed!\n", [
        f"warning: none of the 1 observed function in facts.json is in a file of this project "
        f"(looked for under {tmp_path.resolve()}); run `jaxlint observe` again here"])


# ----------------------------------------------------------------------------- the model, no JAX


def lint(text: str, facts: list) -> list[tuple]:
    text = dedent(text)
    settings = LintSettings(select=frozenset({"JAX201", "JAX204", "JAX202"}),
                            observed=json.dumps({"digest": "d", "units": facts}))
    return [(f.code, f.line) for f in lint_source(text, "m.py", settings).findings]


def test_facts_never_override_what_the_model_shows():
    # static_argnums the model reads: `n` stays static though the facts call it a tracer
    assert lint('''
        from functools import partial
        import jax

        @partial(jax.jit, static_argnums=1)
        def f(x, n):
            if n > 0:
                return x
            return -x
        ''', [["f", 0, {"under": ["jit"], "root": True, "params": {"x": "tracer", "n": "tracer"},
                        "static": []}]]) == []
    # a traced parameter stays traced though the facts saw a Python number
    assert lint('''
        import jax

        @jax.jit
        def f(x):
            if x > 0:
                return x
            return -x
        ''', [["f", 0, {"under": ["jit"], "root": True, "params": {"x": "scalar"}, "static": []}]]) \
        == [("JAX201", 6)]


def test_facts_fill_in_only_the_unknown():
    code = '''
        import jax.numpy as jnp

        def g(x, n):
            if n > 0:
                return x
            if x > 0:
                return x
            return -x

        def g(x, n):
            if x > 0:
                return x
            return n
        '''
    assert lint(code, []) == []
    # the second `g`: only it ran traced
    assert lint(code, [["g", 1, {"under": ["jit"], "root": False, "params": {"x": "tracer", "n": "scalar"},
                                 "static": []}]]) == [("JAX201", 12)]
    assert lint(code, [["g", 0, {"under": ["jit"], "root": False, "params": {"x": "tracer", "n": "scalar"},
                                 "static": []}]]) == [("JAX201", 7)]
    # calls that gave `x` a tracer and a Python number: unknown, silent
    assert lint(code, [["g", 0, {"under": ["jit"], "root": False, "params": {"x": "mixed", "n": "scalar"},
                                 "static": []}]]) == []
    # under grad alone the values are concrete: nothing changes
    assert lint(code, [["g", 0, {"under": ["grad"], "root": False, "params": {"x": "tracer"},
                                 "static": []}]]) == []


def test_function_names_match_the_models_units():
    """The facts file names a function as Python does (`co_qualname`); the model's unit
    is found by its own qualified name and rank: the two agree on every def and lambda."""
    import libcst as cst

    from jaxlint.model.index import build_index

    text = dedent('''
        import functools
        f = lambda a: a
        def f(x, y=lambda z: z):
            def g(y):
                return lambda z: z
            class K:
                def m(self):
                    return [lambda: 1, lambda: 2]
            return g
        class C:
            @staticmethod
            @functools.wraps(f)
            def m(self):
                h = lambda: 1
                return h
            k = lambda self: 2
            class D:
                def n(self): pass
        if True:
            def f(x): return 2
        ''')
    table = functions_of(text)
    assert [(f.qualname, f.unit, f.ordinal, f.line, f.def_line) for f in table] == [
        ("<lambda>", "<lambda>", 0, 3, 3),
        ("f", "f", 0, 4, 4),
        ("<lambda>", "<lambda>", 1, 4, 4),
        ("f.<locals>.g", "f.g", 0, 5, 5),
        ("f.<locals>.g.<locals>.<lambda>", "f.g.<lambda>", 0, 6, 6),
        ("f.<locals>.K.m", "f.K.m", 0, 8, 8),
        ("f.<locals>.K.m.<locals>.<lambda>", "f.K.m.<lambda>", 0, 9, 9),
        ("f.<locals>.K.m.<locals>.<lambda>", "f.K.m.<lambda>", 1, 9, 9),
        ("C.m", "C.m", 0, 12, 14),
        ("C.m.<locals>.<lambda>", "C.m.<lambda>", 0, 15, 15),
        ("C.<lambda>", "<lambda>", 2, 17, 17),
        ("C.D.n", "D.n", 0, 19, 19),
        ("f", "f", 1, 21, 21),
    ]
    from libcst.metadata import MetadataWrapper, PositionProvider

    wrapper = MetadataWrapper(cst.parse_module(text))
    where = wrapper.resolve(PositionProvider)
    units = [u for u in build_index(wrapper.module).units if not u.is_module]
    rank: dict = {}
    ranked = {}
    for u in units:  # the model's rank of each unit among those of its name -> its def line
        node = u.node.name if isinstance(u.node, cst.FunctionDef) else u.node
        ranked[(u.qualname, rank.get(u.qualname, 0))] = where[node].start.line
        rank[u.qualname] = rank.get(u.qualname, 0) + 1
    assert ranked == {(f.unit, f.ordinal): f.def_line for f in table}


def test_load_rejects_what_is_not_a_facts_file(tmp_path):
    (tmp_path / "list.json").write_text("[]")
    with pytest.raises(ObservedError, match="no \"functions\" list"):
        ObservedFacts.load(tmp_path / "list.json")
    # a malformed record is skipped, the rest used
    (tmp_path / "f.json").write_text(json.dumps({"version": 1, "functions": [
        {"file": 3}, {"file": "a.py", "qualname": "f", "line": 1, "sha": "x", "under": ["warp"]}]}))
    assert ObservedFacts.load(tmp_path / "f.json").by_file == {}


def test_a_function_seen_under_vmap_alone():
    """Under vmap the batched parameter is a tracer; what the batch does not touch runs
    eagerly (a `jnp` value of constants is concrete), as for a `jax.vmap(f)(x)` call."""
    code = '''
        import jax.numpy as jnp

        def g(x, n):
            if jnp.ones(3).sum() > n:
                x = x + 1
            if x > 0:
                return x
            return -x
        '''
    fact = {"under": ["vmap"], "root": True, "params": {"x": "tracer", "n": "scalar"}, "static": []}
    assert lint(code, [["g", 0, fact]]) == [("JAX201", 7)]
    jit = dict(fact, under=["jit"])
    assert lint(code, [["g", 0, jit]]) == [("JAX201", 5), ("JAX201", 7)]


def test_an_error_in_the_facts_recorder_never_switches_the_recorder_off(tmp_path):
    """Under `confirm --run` the recorder's trace function hands every call to the facts
    recorder; an exception escaping it would escape the trace function, and CPython then
    switches tracing off for the thread: the watched calls after it would go unrecorded.
    It is dropped there, and the facts recorder with it (its facts would be partial)."""
    from jaxlint.runtime import recorder

    rec = recorder.Recorder({"events": os.devnull, "watch": []})

    class Broken:
        def trace(self, frame, event, arg):
            raise KeyError("facts")

    rec.facts = Broken()
    frame = sys._getframe()
    rec.trace(frame, "call", None)  # no exception
    assert rec.facts is None
