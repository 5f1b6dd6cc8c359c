"""The recorder beyond the first call: shardings, later calls, imports (real JAX on CPU).

* inputs sharded over a 2-device CPU mesh (XLA_FLAGS=--xla_force_host_platform_device_count=2)
  are recorded with their PartitionSpec and mesh, re-created for the check, in the --run
  process and in a worker from the cache, and said to be unsharded where the devices are
  missing;
* a static argument changed by a `__main__` loop: the called function's observed calls
  (distinct signatures, up to a cap) are replayed and its compiles counted;
* JAX's dtype warning attributed to JAX's own file still confirms JAX110 at the user's line;
* the trace function is off while a package with no watched file is imported.

Each test works on a copy in a temporary directory.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("jax")

pytestmark = pytest.mark.slow  # real JAX in subprocesses (`make test-fast` skips it)

from click.testing import CliRunner  # noqa: E402

from jaxlint.cli import cli  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures" / "runtime"
TWO_DEVICES = "--xla_force_host_platform_device_count=2"


def _confirm(root: Path, *args: str, env: dict | None = None) -> list[dict]:
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        for k, v in (env or {}).items():
            if v is None:
                mp.delenv(k, raising=False)
            else:
                mp.setenv(k, v)
        result = CliRunner().invoke(cli, ["confirm", "--output-format", "json", *args],
                                    catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def _by_line(found: list[dict]) -> dict:
    return {(f["location"]["row"], f["code"]): f["runtime"] for f in found}


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[tool.jaxlint]\ncache-dir = "cache"\n')
    for name, text in files.items():
        (root / name).write_text(textwrap.dedent(text))
    return root


SHARDED = "x: f32[4,2] sharded P('data', None) on mesh {data: 2} (observed in --run `python prog.py`)"
TRACE_EVIDENCE = ("jax.errors.TracerBoolConversionError at line 10: Attempted boolean "
                  "conversion of traced array with shape bool[].")
NOT_HERE = ("P('data', None) on mesh {data: 2} not re-created: it needs 2 devices and 1 are "
            "here; the inputs are unsharded")


def test_sharded_inputs_are_recorded_and_recreated(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "sharded", root)
    (root / "pyproject.toml").write_text('[tool.jaxlint]\ncache-dir = "cache"\n')
    two = {"XLA_FLAGS": TWO_DEVICES}

    # in the --run process: the jitted `center` saw a tracer (abstract mesh: the first two
    # devices), `per_shard` the concrete array (the recorded devices); per_shard's loop
    # runs once per device, so with the sharding it compiles twice in one call
    by = _by_line(_confirm(root, "prog.py", "--run", "python prog.py", env=two))
    assert sorted(by) == [(10, "JAX201"), (18, "JAX501")]
    center, per_shard = by[(10, "JAX201")], by[(18, "JAX501")]
    assert center["verdict"] == "confirmed"
    assert center["evidence"] == TRACE_EVIDENCE
    assert center["inputs"] == [SHARDED]
    assert center["details"]["shardings"] == [
        "P('data', None) on mesh {data: 2} re-created on the first 2 device(s) here"]
    assert per_shard["verdict"] == "confirmed"
    assert per_shard["evidence"].startswith("jit(<lambda>) compiled 2 times in one call of "
                                            "`per_shard`")
    assert per_shard["details"]["compiles"] == {"jit(<lambda>)": 2}
    assert per_shard["details"]["shardings"] == [
        "P('data', None) on mesh {data: 2} re-created on the recorded devices"]
    entries = [json.loads(p.read_text())
               for p in (root / "cache" / "runtime" / "observed").glob("*.json")]
    arg = next(e for e in entries if e["function"] == "per_shard")["args"][0]
    assert arg["sharding"] == {"kind": "named", "axes": ["data"], "sizes": [2],
                               "types": ["Explicit"], "spec": ["data", None], "devices": [0, 1]}

    # from the cache, in a worker with two devices: the same sharding, the same verdicts
    by = _by_line(_confirm(root, "prog.py", env=two))
    assert by[(18, "JAX501")]["details"]["compiles"] == {"jit(<lambda>)": 2}
    assert by[(18, "JAX501")]["details"]["shardings"] == [
        "P('data', None) on mesh {data: 2} re-created on the recorded devices"]
    assert by[(10, "JAX201")]["evidence"] == TRACE_EVIDENCE

    # with one device: unsharded inputs, and the verdict says so
    by = _by_line(_confirm(root, "prog.py", env={"XLA_FLAGS": None}))
    assert by[(10, "JAX201")]["evidence"] == f"{TRACE_EVIDENCE} ({NOT_HERE})"
    assert by[(10, "JAX201")]["details"]["shardings"] == [NOT_HERE]
    per_shard = by[(18, "JAX501")]
    assert per_shard["verdict"] == "confirmed"
    assert per_shard["details"]["compiles"] == {"jit(<lambda>)": 1}  # one device: one pass
    assert per_shard["evidence"].endswith(f"({NOT_HERE})")


STATIC_LOOP = """\
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def power(x, n):
    return x ** n


if __name__ == "__main__":
    x = jnp.arange(3.0)
    for n in range(6):
        print(power(x, n))
"""


def test_a_static_argument_changed_by_a_main_loop_is_confirmed_from_the_observed_calls(tmp_path):
    root = _project(tmp_path, {"loop.py": STATIC_LOOP})
    by = _by_line(_confirm(root, "loop.py", "--run", "python loop.py"))
    rt = by[(15, "JAX504")]
    assert rt["verdict"] == "confirmed"
    # six calls, the first four distinct signatures kept (the cap)
    assert rt["evidence"] == (
        "jit(power) compiled 4 times over 4 observed calls with the same array shapes and "
        "dtypes; static arguments: n=0; n=1; n=2; n=3 (`power`, the function this line "
        "calls, with 4 observed call(s))")
    assert rt["details"]["oracle"] == "observed calls replayed"
    assert rt["inputs"] == ["x: f32[3] (observed in --run `python loop.py`)",
                            "n: 0 (observed in --run `python loop.py`)"]
    # without --run: the verdict of that run, from the cache, until the file changes
    again = _by_line(_confirm(root, "loop.py"))[(15, "JAX504")]
    assert again["verdict"] == "confirmed"
    assert again["evidence"].endswith("(from the cached --run observation; the source has not "
                                      "changed since)")
    (root / "loop.py").write_text(STATIC_LOOP + "\n")
    changed = _by_line(_confirm(root, "loop.py"))[(15, "JAX504")]
    assert changed == {"verdict": "skipped", "details": {}, "reason": (
        "not inside a function: nothing to call; a --run that makes this call lets the "
        "companion replay the calls of `power`: try --run \"python loop.py\"")}


REPLAY = """\
import json
import sys
import types

import jax
import jax.numpy as jnp

from jaxlint.runtime import checks, observed as ob
from jaxlint.runtime.context import Context, Target

path = sys.argv[1]
module = types.ModuleType("m")
module.__file__ = path
exec(compile(open(path).read(), path, "exec"), module.__dict__)
ctx = Context({"path": path, "options": {}}, module, None, None)
target = {"code": "JAX504", "line": 1, "end_line": 1, "function": "power"}
t = Target("power", module.power, module.power.__wrapped__, True, (1,))
out = {}
for name, calls in {"same": [2, 2], "changing": [2, 3, 4]}.items():
    first, *rest = [ob.ObservedArgs([ob.snap(jnp.ones(3)), n], [f"x: f32[3]", f"n: {n}"], (1,))
                    for n in calls]
    first.more = rest
    v = checks.check_recompiles(ctx, target, t, first)
    out[name] = [v.verdict, v.evidence]
print(json.dumps(out))
"""


def test_the_replay_oracle_counts_compiles_per_static_value(tmp_path):
    (tmp_path / "power.py").write_text(STATIC_LOOP)
    (tmp_path / "replay.py").write_text(REPLAY)
    proc = subprocess.run([sys.executable, str(tmp_path / "replay.py"), str(tmp_path / "power.py")],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["same"] == ["not-reproduced", "no function compiled more than once over 2 calls "
                                             "({'jit(power)': 1})"]
    assert out["changing"] == ["confirmed", "jit(power) compiled 3 times over 3 observed calls "
                                            "with the same array shapes and dtypes; static "
                                            "arguments: n=2; n=3; n=4"]


ASTYPE = """\
import jax
import jax.numpy as jnp


@jax.jit
def precise_sum(x):
    return jnp.sum(x.astype(jnp.float64))


if __name__ == "__main__":
    print(precise_sum(jnp.arange(5.0)))
"""


def test_float64_warning_from_inside_jax_is_placed_at_the_users_line(tmp_path):
    root = _project(tmp_path, {"prog.py": ASTYPE})
    rt = _by_line(_confirm(root, "prog.py", "--run", "python prog.py"))[(7, "JAX110")]
    assert rt["verdict"] == "confirmed"
    assert rt["evidence"].startswith("UserWarning at line 7: Explicitly requested dtype "
                                     "float64 requested in astype is not available")
    assert rt["details"]["line"] == 7
    assert rt["details"]["output_dtypes"] == ["float32"]


QUIET = """\
import json
import os
import sys

from jaxlint.runtime import recorder

job = {"events": os.devnull, "watch": [
    {"id": "0:0", "file": os.path.realpath(sys.argv[1]), "function": "f", "code": "JAX201",
     "line": 2, "end_line": 2}]}
rec = recorder.Recorder(job)
print(json.dumps([rec.holds_watched("jax"), rec.holds_watched("jax.numpy"),
                  rec.holds_watched("pkg"), rec.holds_watched("pkg.sub"),
                  rec.holds_watched("no_such_module_here")]))
"""


def test_packages_without_watched_files_are_imported_untraced(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "mod.py").write_text("def f(x):\n    return x\n")
    (tmp_path / "quiet.py").write_text(QUIET)
    proc = subprocess.run([sys.executable, "quiet.py", "pkg/mod.py"], capture_output=True,
                          text=True, cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    # jax: no watched file, traced off; pkg holds one; an unknown name: in doubt, traced
    assert json.loads(proc.stdout) == [False, False, True, True, True]


IMPORT_TIME = {
    "lib.py": """\
        import jax
        import jax.numpy as jnp


        @jax.jit
        def sign(x):
            if x.sum() > 0:
                return x
            return -x


        try:
            FIRST = sign(jnp.ones(3))  # called while the module is imported
        except Exception:
            FIRST = None
        """,
    "main.py": """\
        import jax  # a package with no watched file: imported untraced
        import lib  # a watched file: traced while it is imported

        print(lib.FIRST)
        """,
}


def test_a_watched_function_called_while_its_module_is_imported_is_observed(tmp_path):
    root = _project(tmp_path, IMPORT_TIME)
    rt = _by_line(_confirm(root, "lib.py", "--run", "python main.py"))[(7, "JAX201")]
    assert rt["verdict"] == "confirmed"
    assert rt["inputs"] == ["x: f32[3] (observed in --run `python main.py`)"]


HINTS = """\
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


class Tracker:
    def __init__(self):
        self.calls = 0

    @partial(jax.jit, static_argnums=0)
    def update(self, x):
        self.calls += 1
        return x + 1


def count_positive(xs):
    def body(c, x):
        c = c + 1 if x > 0 else c
        return c, x
    return lax.scan(body, 0.0, xs)


if __name__ == "__main__":
    Tracker().update(jnp.zeros(2))
    print(count_positive(jnp.array([1.0, -2.0])))
"""


def test_without_run_every_skip_names_the_run_that_would_help_from_where_it_is_run(tmp_path):
    root = _project(tmp_path, {})
    (root / "sub").mkdir()
    (root / "sub" / "prog.py").write_text(HINTS)
    method = ("`Tracker.update` is a method: it needs an instance of `Tracker`, which the "
              "runtime cannot build; try --run \"python {}\" (it calls `Tracker`)")
    nested = ("no input for argument `xs`: run code that calls it (--run), declare it in "
              "JAXLINT_INPUTS or [tool.jaxlint.runtime] inputs, or annotate it; try --run "
              "\"python {}\" (it calls `count_positive`)")
    for cwd, script in ((root / "sub", "prog.py"), (root, "sub/prog.py")):
        by = _by_line(_confirm(cwd, str((root / "sub" / "prog.py").relative_to(cwd))))
        assert by[(14, "JAX403")]["reason"] == method.format(script)
        assert by[(20, "JAX201")]["reason"] == nested.format(script)


GATED = {
    "clean.py": """\
        import jax.numpy as jnp


        def double(x):
            return jnp.asarray(x) * 2
        """,
    "script.py": """\
        import pathlib


        def main():
            pathlib.Path("main-ran").write_text("main ran")


        if __name__ == "__main__":
            main()
        """,
}


def test_a_run_with_nothing_to_watch_is_stopped_before_its_first_function_call(tmp_path):
    # --run starts before the lint; its first call of a function of the user's code
    # waits for the watch list, and with nothing to watch the command is stopped there
    # (this script starts fast, no JAX: without the wait, main would run before the lint ends)
    root = _project(tmp_path, GATED)
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        result = CliRunner().invoke(cli, ["confirm", "--output-format", "json", "clean.py",
                                          "--run", "python script.py", "--no-facts"],
                                    catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == []
    assert "jaxlint: --run `python script.py`: stopped: no finding inside a function to watch" \
        in result.stderr
    assert not (root / "main-ran").exists()


MAIN_BLOCK = """\
import jax
import jax.numpy as jnp

if __name__ == "__main__":
    x = jnp.zeros(3)
    for i in range(3):
        y = jax.jit(lambda v: v + i)(x)
    add = jax.jit(lambda v, w: v + w)
    for i in range(3):
        y = add(x, i)
    if y.sum() > 100:
        x.at[0].set(1.0)
        x[1] = 2.0
    try:
        x[0] = 1.0; print("set")
    except Exception:
        pass
    print(y)
    key = jax.random.key(0)
    a = jax.random.normal(key, (2,))
    b = jax.random.uniform(key, (2,))
"""


def test_findings_in_a_main_block_are_judged_by_the_run_itself(tmp_path):
    root = _project(tmp_path, {"main.py": MAIN_BLOCK})
    found = _confirm(root, "main.py", "--run", "python main.py")
    by = _by_line(found)
    where = "in --run `python main.py`"
    assert by[(7, "JAX501")] == {
        "verdict": "confirmed",
        "evidence": f"jit(<lambda>) compiled 3 times while line 7 ran 3 time(s) {where}",
        "details": {"compiles": {"jit(<lambda>)": 3}, "line_runs": 3,
                    "oracle": "the --run itself"}}
    # a line that never ran is no evidence either way
    assert by[(13, "JAX101")] == {
        "verdict": "not-exercised", "details": {"line_runs": 0},
        "reason": f"the --run never ran line 13: {where}; a --run that reaches it (the branch "
                  "or the input that leads there) would exercise it"}
    caught = by[(15, "JAX101")]
    assert caught["verdict"] == "confirmed"
    assert caught["evidence"].startswith("the --run raised TypeError at line 15: JAX arrays "
                                         "are immutable")
    assert caught["details"]["line"] == 15
    assert by[(21, "JAX301")] == {
        "verdict": "confirmed",
        "evidence": "the --run drew from the same key bits at line 20 (`normal`) and line 21 "
                    "(`uniform`)",
        "details": {"use_sites": [20, 21], "line": 21, "oracle": "the --run itself"}}
    # without --run: the skip names the run that would judge them
    again = _by_line(_confirm(root, "main.py", "--no-cache"))
    assert again[(15, "JAX101")]["reason"] == (
        "not inside a function: nothing to call; a --run that runs this line is its check: "
        "try --run \"python main.py\"")


def test_a_bad_sharding_in_the_cache_is_ignored():
    from jaxlint.runtime import observed as ob

    good = {"kind": "named", "axes": ["data"], "sizes": [2], "types": ["Explicit"],
            "spec": ["data", None], "devices": [0, 1]}
    base = {"t": "array", "shape": [4, 2], "dtype": "float32", "weak": False}
    assert ob.from_json(dict(base, sharding=good)).sharding == good
    for bad in ({"kind": "named", "axes": ["data"], "sizes": [0], "spec": ["data"]},
                {"kind": "named", "axes": ["data", "model"], "sizes": [2], "spec": []},
                {"kind": "named", "axes": [1], "sizes": [2], "spec": []},
                {"kind": "single", "device": "0"}, ["data"], "P('data')"):
        assert ob.from_json(dict(base, sharding=bad)).sharding is None, bad


SLOW = """\
import time


def main():
    time.sleep(30)


if __name__ == "__main__":
    main()
"""


def test_the_configured_run_timeout_applies_to_run_commands(tmp_path):
    root = _project(tmp_path, {"slow.py": SLOW, "sharp.py": ASTYPE})
    (root / "pyproject.toml").write_text('[tool.jaxlint]\ncache-dir = "cache"\n'
                                         '[tool.jaxlint.runtime]\nrun-timeout = 1\n')
    for extra in ((), ("--run-timeout", "1.5")):
        with pytest.MonkeyPatch.context() as mp:
            mp.chdir(root)
            result = CliRunner().invoke(cli, ["confirm", "--output-format", "json", "sharp.py",
                                              "--run", "python slow.py", *extra],
                                        catch_exceptions=False)
        limit = extra[1] if extra else "1"
        assert f"jaxlint: --run `python slow.py`: timed out after {limit} s in " \
            in result.stderr, result.stderr


def test_a_skip_never_suggests_the_run_command_that_was_just_run(monkeypatch, tmp_path) -> None:
    from types import SimpleNamespace

    from jaxlint.findings import Finding, Severity
    from jaxlint.runtime import driver, observe
    from jaxlint.runtime.verdicts import skipped

    monkeypatch.setattr(observe, "suggest_run", lambda path, fn, root: '--run "python -m app.train"')
    f = Finding(code="JAX201", name="n", message="m", path="app/train.py", line=3, col=1, end_line=3,
                end_col=2, severity=Severity.ERROR, function="step")
    job = SimpleNamespace(extra={}, findings=[f], root=tmp_path, path=tmp_path / "app" / "train.py")

    def reason(ran: list[str]) -> str:
        v = skipped("no input for argument `x`")
        driver._explain_skip(v, job, f, ran)
        return v.reason

    assert reason([]) == 'no input for argument `x`; try --run "python -m app.train" (it calls `step`)'
    assert reason(["python -m app.train"]) == "no input for argument `x`; no --run command called it"
    assert reason(["pytest -x"]) == ('no input for argument `x`; no --run command called it; '
                                     'try --run "python -m app.train" (it calls `step`)')
