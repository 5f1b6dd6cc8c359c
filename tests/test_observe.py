"""`jaxlint observe --run CMD [PATHS]`: JAX's own checkers during the project's own run,
reported at the user's lines (subprocess tests, real JAX on CPU).

Each event kind: the exact code, path, line, column and message; an event inside JAX
or a library outside PATHS is reported at the first line inside PATHS; a line `check`
also flags is marked observed; noqa, --select, --baseline, the output formats, the
exit codes; and nothing the run started outlives it (success, failure, time-out,
Ctrl-C).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytest.importorskip("jax")

from jaxlint.runtime import procs  # noqa: E402

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="uses /proc")

HELPERS = '''\
import jax


def fresh_jit(f, x):
    return jax.jit(f)(x)
'''

TRAIN = '''\
import sys
from functools import partial

import jax
import jax.numpy as jnp

sys.path.insert(0, "lib")
import helpers  # noqa: E402


@partial(jax.jit, static_argnums=1)
def scale(x, n):
    return x * n


@jax.jit
def double(x):
    return x * 2


@jax.jit
def show(x):
    print(x)
    return x + 1


def main():
    x = jnp.ones(3)
    for n in range(3):
        x = scale(x, n)
    total = 0.0
    for _ in range(12):
        total += float(x.sum())
    for _ in range(2):
        helpers.fresh_jit(lambda v: v - 1, x)
    double(1.0)
    double(jnp.float32(1.0))
    show(x)
    y = jnp.zeros(2, dtype=jnp.float64)
    key = jax.random.PRNGKey(0)
    a = jax.random.normal(key, (2,))
    b = jax.random.uniform(key, (2,))
    return total, y, a, b


main()
'''


def observe(cwd: Path, *args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jaxlint", "observe", "--no-cache", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=timeout)


def rows(out: str) -> list[tuple]:
    return [(f["code"], f["filename"], f["location"]["row"], f["location"]["column"],
             f["message"]) for f in json.loads(out)]


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("observe")
    (root / "app").mkdir()
    (root / "lib").mkdir()
    (root / "lib" / "helpers.py").write_text(HELPERS)
    (root / "app" / "train.py").write_text(TRAIN)
    return root


@pytest.fixture(scope="module")
def observed(project) -> subprocess.CompletedProcess:
    return observe(project, "--run", "python app/train.py", "--output-format", "json", "app")


OBSERVE_CONFIRMS = " (observed: confirms {}, which `jaxlint check` reports at this line)"

EXPECTED = [
    ("JAX401", "app/train.py", 23, 5,
     "The run turned a tracer (float32[3]) into text with `print` while JAX traced `show`: "
     "it shows the abstract value, once per trace, not the values; use `jax.debug.print`"
     + OBSERVE_CONFIRMS.format("JAX401")),
    ("JAX504", "app/train.py", 30, 13,
     "`scale` (defined at line 11) was traced 3 times: static argument `n` changed 2 times "
     "(0, 1, 2); every new value of a static argument compiles again"
     + OBSERVE_CONFIRMS.format("JAX504")),
    ("JAX507", "app/train.py", 33, 18,
     "The run copied a device array (float32[]) to the host 12 times at this line, through "
     "`float()`, after each dispatch of device work: each copy waits for the device to finish "
     "the work before it, so the host cannot queue the next step meanwhile; keep the value on "
     "the device (accumulate there), or fetch it every N steps or once after the loop"),
    # jit is called in lib/helpers.py (outside PATHS): reported at the app's call
    ("JAX501", "app/train.py", 35, 9,
     "`<lambda>` (defined at line 35) was traced 2 times: each call jitted a new function "
     "object of the same definition (explain_cache_misses: \"seen another function defined "
     "on the same line\"), so the compilation cache never hits; jit the function once, outside the "
     "loop or the function that calls it, and call that jitted function"),
    ("JAX508", "app/train.py", 37, 5,
     "`double` (defined at line 16) was traced 2 times: an argument's weak type flipped (`x` "
     "f32[]{weak_type=True} -> f32[]{weak_type=False}): a Python scalar and a typed array of "
     "the same dtype compile separately; pass one kind"),
    ("JAX110", "app/train.py", 39, 9,
     "The run requested float64 without x64: Explicitly requested dtype float64 requested in "
     "zeros is not available, and will be truncated to dtype float32."
     + OBSERVE_CONFIRMS.format("JAX110")),
    ("JAX301", "app/train.py", 42, 9,
     "The run consumed one PRNG key twice: `uniform` here, and `normal` at line 41 with the "
     "same key array; split the key and use each part once" + OBSERVE_CONFIRMS.format("JAX301")),
]


def test_each_event_at_the_users_line(observed):
    assert observed.returncode == 1, observed.stderr
    assert rows(observed.stdout) == EXPECTED


def test_the_first_line_inside_paths(project):
    """With lib/ as the only path, the event is reported at lib's line that made the
    jit (the first frame inside PATHS), and the app's events are not reported."""
    done = observe(project, "--run", "python app/train.py", "--output-format", "json", "lib")
    assert done.returncode == 1, done.stderr
    assert rows(done.stdout) == [
        ("JAX501", "lib/helpers.py", 5, 12,
         "`<lambda>` (defined at train.py:35) was traced 2 times: each call jitted a new "
         "function object of the same definition (explain_cache_misses: \"seen another "
         "function defined on the same line\"), so the compilation cache never hits; jit the "
         "function once, outside the loop or the function that calls it, and call that "
         "jitted function")]


SHARP = {
    "nan.py": ('import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef f(x):\n'
               '    return jnp.log(x) * 2\n\n\nf(jnp.array([-1.0]))\n',
               [("JAX124", "nan.py", 7, 12,
                 "The run made its first NaN here (jax_debug_nans stops at the first operation whose result "
                 "holds a NaN, also one a `where` drops afterwards): FloatingPointError: "
                 "invalid value (nan) encountered in log")]),
    # eager: observe's NaN check (an output's sum) sends a sum that is not finite to JAX's
    # exact check, so +inf and -inf together (a NaN sum, no NaN) and an Inf pass, and
    # the first NaN ends the run at its operation
    "nan_eager.py": ('import jax.numpy as jnp\n\nx = jnp.array([jnp.inf, -jnp.inf, 1.0])\n'
                     'for i in range(3):\n    y = x * 2\n'
                     'z = jnp.log(jnp.array([-1.0, 2.0]))\n',
                     [("JAX124", "nan_eager.py", 6, 5,
                       "The run made its first NaN here (jax_debug_nans stops at the first operation whose result "
                 "holds a NaN, also one a `where` drops afterwards): FloatingPointError: "
                       "invalid value (nan) encountered in log")]),
    "keys.py": ('import jax\n\n\n@jax.jit\ndef f(k):\n    a = jax.random.normal(k)\n'
                '    return a + jax.random.uniform(k)\n\n\nf(jax.random.key(0))\n',
                # the line from the stack JAX keeps for the operation (no column in it)
                [("JAX301", "keys.py", 7, 5,
                  "The run reused a PRNG key (jax_debug_key_reuse): jax.errors.KeyReuseError: "
                  "In jit, argument 0 is already consumed."
                  + OBSERVE_CONFIRMS.format("JAX301"))]),
    # typed keys reused eagerly; and after a jitted function ran: observe switches JAX's
    # key-reuse checker on at the program's first typed key (the retrace of `g` that
    # the switch causes is no finding)
    "keys_eager.py": ('import jax\nk = jax.random.key(0)\na = jax.random.normal(k)\n'
                      'b = jax.random.uniform(k)\n',
                      [("JAX301", "keys_eager.py", 4, 5,
                        "The run reused a PRNG key (jax_debug_key_reuse): jax.errors.KeyReuseError: "
                        "Previously-consumed key passed to jit-compiled function at index 0"
                        + OBSERVE_CONFIRMS.format("JAX301"))]),
    "keys_late.py": ('import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef g(x):\n    return x * 2'
                     '\n\n\nfor i in range(4):\n    g(jnp.ones(3))\nk = jax.random.key(0)\n'
                     'for i in range(4):\n    g(jnp.ones(3))\nsub = jax.random.split(k)\n'
                     'for i in range(4):\n    g(jnp.ones(3))\na = jax.random.normal(k)\n',
                     [("JAX301", "keys_late.py", 18, 5,
                       "The run reused a PRNG key (jax_debug_key_reuse): jax.errors.KeyReuseError: "
                       "Previously-consumed key passed to jit-compiled function at index 0"
                       + OBSERVE_CONFIRMS.format("JAX301"))]),
    "donated.py": ('import jax\nimport jax.numpy as jnp\n\nf = jax.jit(lambda x: x + 1, '
                   'donate_argnums=0)\nx = jnp.ones(3)\ny = f(x)\nprint(x + 1)\n',
                   [("JAX506", "donated.py", 7, 7,
                     "The run raised RuntimeError: Array has been deleted with "
                     "shape=float32[3]." + OBSERVE_CONFIRMS.format("JAX506"))]),
    "inplace.py": ('import jax.numpy as jnp\n\nx = jnp.arange(4)\nx[0] = 1\n',
                   [("JAX101", "inplace.py", 4, 1,
                     "The run raised TypeError: JAX arrays are immutable and do not support "
                     "in-place item assignment. Instead of x[idx] = y, use x = x.at[idx].set(y) "
                     "or another .at[] method: https://docs.jax.dev/en/latest/_autosummary/"
                     "jax.numpy.ndarray.at.html" + OBSERVE_CONFIRMS.format("JAX101"))]),
    "leak.py": ('import jax\n\nsaved = []\n\n\n@jax.jit\ndef f(x):\n    saved.append(x)\n'
                '    return x + 1\n\n\nf(1.0)\nprint(saved[0] + 1)\n',
                # the leaked tracer passed to an operation (JAX's error: UnexpectedTracerError;
                # a TypeError "... is not a valid JAX type" once the key-reuse checker is on)
                [("JAX211", "leak.py", 13, 7,
                  "The run leaked a tracer out of its transformation: jax.errors.UnexpectedTracerError: "
                  "Encountered an unexpected tracer. A function transformed by JAX had a side "
                  "effect, allowing for a reference to an intermediate value with type float32[] "
                  "wrapped in a DynamicJaxprTracer to escape the scope of the transformation.")]),
}


@pytest.mark.parametrize("name", sorted(SHARP))
def test_a_checker_that_ends_the_run(tmp_path, name):
    """The first NaN and its operation, key reuse under jit (typed keys), a donated
    array used again, a leaked tracer used later: each ends the run, at its line."""
    text, expected = SHARP[name]
    (tmp_path / name).write_text(text)
    # JAX does not donate while its NaN checker is on
    nans = ["--no-debug-nans"] if name == "donated.py" else []
    done = observe(tmp_path, *nans, "--run", f"python {name}", "--output-format", "json")
    assert done.returncode == 1, done.stderr
    assert rows(done.stdout) == expected
    assert f"--run `python {name}`: exit status 1" in done.stderr


def test_check_leaks_reports_the_leak_where_the_trace_ends(tmp_path):
    (tmp_path / "leak.py").write_text(SHARP["leak.py"][0])
    done = observe(tmp_path, "--check-leaks", "--run", "python leak.py", "--output-format",
                   "json")
    assert done.returncode == 1, done.stderr
    [(code, path, line, col, message)] = rows(done.stdout)
    assert (code, path, line, col) == ("JAX211", "leak.py", 12, 1)
    assert message == ("The run leaked a tracer out of its transformation: Exception: Leaked "
                       "trace DynamicJaxprTrace. Leaked tracer(s): JitTracer(~float32[])")


def test_noqa_select_and_exit_codes(tmp_path):
    text = SHARP["nan.py"][0].replace("* 2\n", "* 2  # noqa: JAX124\n")
    (tmp_path / "nan.py").write_text(text)
    done = observe(tmp_path, "--run", "python nan.py", "--output-format", "concise")
    assert (done.returncode, done.stdout) == (0, "All checks passed!\n"), done.stderr
    (tmp_path / "train.py").write_text(TRAIN.replace('"lib"', '"."'))
    (tmp_path / "helpers.py").write_text(HELPERS)
    done = observe(tmp_path, "--run", "python train.py", "--select", "JAX507,JAX508",
                   "--output-format", "concise", "train.py")
    assert done.returncode == 1, done.stderr
    assert [line.split(" ")[:2] for line in done.stdout.splitlines()[:-1]] == [
        ["train.py:33:18:", "JAX507"], ["train.py:37:5:", "JAX508"]]
    done = observe(tmp_path, "--run", "python train.py", "--select", "JAX507",
                   "--exit-zero", "-q", "train.py")
    assert done.returncode == 0 and "JAX507" in done.stdout


def test_a_crash_after_import_jax_is_not_all_checks_passed(tmp_path):
    """A --run command that imports JAX and then dies of its own error (a ValueError,
    a module that is not installed, an exit status) is an error with its last line,
    written two ways; the NaN checker's stop of a run stays the finding's (noqa'd: a
    pass), and a run that ends well after the same JAX use passes."""
    (tmp_path / "cfg.py").write_text(
        "import jax.numpy as jnp\nx = jnp.ones(3)\nraise ValueError('bad config')\n")
    (tmp_path / "dep.py").write_text(
        "import jax.numpy as jnp\nx = jnp.ones(3)\nimport flax_not_installed_here\n")
    (tmp_path / "ok.py").write_text("import jax.numpy as jnp\nx = jnp.ones(3)\nprint(x.sum())\n")
    done = observe(tmp_path, "--run", "python cfg.py", "cfg.py")
    assert (done.returncode, done.stdout) == (
        2, "No findings, but the --run command failed before anything was observed "
           "(see the error).\n"), done.stderr
    assert done.stderr.startswith("error: --run `python cfg.py`: exit status 1 in ")
    assert done.stderr.endswith(
        " 1 Python process(es) observed (last output: ValueError: bad config)\n")
    done = observe(tmp_path, "--run", "python dep.py", "--run", "python ok.py",
                   "--output-format", "concise")
    assert (done.returncode, done.stdout) == (
        2, "No findings, but 1 of 2 --run commands failed before anything was observed "
           "(see the error).\n"), done.stderr
    assert done.stderr.endswith("(last output: ModuleNotFoundError: No module named "
                                "'flax_not_installed_here')\n"), done.stderr
    done = observe(tmp_path, "--run", "python ok.py", "ok.py")
    assert (done.returncode, done.stdout) == (0, "All checks passed!\n"), done.stderr


def test_errors_exit_2(tmp_path):
    done = observe(tmp_path, "--run", "python x.py", "missing_dir")
    assert (done.returncode, done.stderr) == (2, "error: missing_dir: No such file or directory\n")
    done = observe(tmp_path, "--run", "python x.py", "--baseline", "nope.json")
    assert done.returncode == 2 and done.stderr.startswith("error: nope.json")
    done = observe(tmp_path, "--run", "no-such-command-here")
    assert done.returncode == 2
    assert "error: --run `no-such-command-here`: exit status 127" in done.stderr
    done = observe(tmp_path)
    assert (done.returncode, done.stderr) == (2, NO_COMMAND)


def test_a_failed_run_is_not_all_checks_passed(tmp_path):
    """A --run command that fails before anything is observed (a missing script, a
    non-zero exit) or that starts no Python process gets no success summary."""
    done = observe(tmp_path, "--run", "python nonexist.py", ".")
    assert (done.returncode, done.stdout) == (
        2, "No findings, but the --run command failed before anything was observed "
           "(see the error).\n"), done.stderr
    assert done.stderr.startswith("error: --run `python nonexist.py`: exit status 2 in ")
    done = observe(tmp_path, "--run", "python -c 'import sys; sys.exit(3)'",
                   "--run", "python -c pass", "--output-format", "concise")
    assert (done.returncode, done.stdout) == (
        2, "No findings, but 1 of 2 --run commands failed before anything was observed "
           "(see the error).\n"), done.stderr
    done = observe(tmp_path, "--run", "true")
    assert (done.returncode, done.stdout) == (
        0, "No findings, but nothing was observed: the --run command started no Python "
           "process.\n"), done.stderr
    done = observe(tmp_path, "--run", "python -c pass", "--output-format", "json")
    assert (done.returncode, done.stdout) == (0, "[]\n"), done.stderr


def test_a_run_cut_off_by_its_time_limit_is_not_all_checks_passed(tmp_path):
    """A --run command observed for a while (its `.item()` loop seen, then not selected)
    and then killed by --run-timeout ran only in part: the summary says so instead of
    "All checks passed!", written two ways (a script and a module run with -m); the
    status goes to stderr; exit 0, as nothing observed failed."""
    from conftest import time_limit_for

    limit = time_limit_for("import jax", least=10)
    slow = LOOP + "import time\ntime.sleep(600)\n"
    (tmp_path / "slow.py").write_text(slow)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "train.py").write_text(slow)
    done = observe(tmp_path, "--run", "python slow.py", "--run-timeout", str(limit),
                   "--select", "JAX124")
    assert (done.returncode, done.stdout) == (
        0, f"No findings in the part that ran: the --run command timed out after {limit:g} s, "
           "before its end.\n"), done.stderr
    assert f"jaxlint: --run `python slow.py`: timed out after {limit:g} s in " in done.stderr
    done = observe(tmp_path, "--run", "python -m pkg.train", "--run", "python -c pass",
                   "--run-timeout", str(limit), "--select", "JAX124")
    assert (done.returncode, done.stdout) == (
        0, "No findings in the part that ran: 1 of 2 --run commands timed out before their "
           "end (see the warnings).\n"), done.stderr
    # the same loop selected: the findings, and no summary about the time-out
    done = observe(tmp_path, "--run", "python slow.py", "--run-timeout", str(limit),
                   "--output-format", "concise", "-q")
    assert done.returncode == 1, done.stderr
    assert [line.split(" ")[:2] for line in done.stdout.splitlines()] == [
        ["slow.py:6:14:", "JAX507"], ["slow.py:8:14:", "JAX507"]]


NO_COMMAND = ("error: observe needs a command to run: give --run CMD, or set `run = \"CMD\"` in "
              "[tool.jaxlint.runtime] of the project's pyproject.toml\n")

LOOP = '''\
import jax.numpy as jnp

x = jnp.arange(4.0)
total = 0.0
for _ in range(12):
    total += float(x.sum())
for _ in range(14):
    total += x[0].item()
print(total)
'''


def test_the_run_command_from_the_config(tmp_path):
    """Without --run, observe runs `run` of [tool.jaxlint.runtime] (a string or a list),
    from the configuration's directory; --run replaces it; `run-timeout` is its limit
    unless --run-timeout is given; neither: one line, exit 2; a bad value: one line."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "loop.py").write_text(LOOP)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint.runtime]\nrun = "python pkg/loop.py"\n')
    # from a subdirectory: the command still runs from the configuration's directory
    done = observe(tmp_path / "pkg", "--output-format", "concise", "-q")
    assert done.returncode == 1, done.stderr
    assert [line.split(" ")[:2] for line in done.stdout.splitlines()] == [
        ["loop.py:6:14:", "JAX507"], ["loop.py:8:14:", "JAX507"]]
    # --run replaces the configured command
    (tmp_path / "pkg" / "other.py").write_text(LOOP.replace("range(14)", "range(1)"))
    done = observe(tmp_path, "--run", "python pkg/other.py", "--output-format", "concise", "-q")
    assert done.returncode == 1, done.stderr
    assert [line.split(" ")[:2] for line in done.stdout.splitlines()] == [
        ["pkg/other.py:6:14:", "JAX507"]]
    # run-timeout from the configuration; --run-timeout overrides it
    (tmp_path / "pkg" / "slow.py").write_text("import time\ntime.sleep(60)\n")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint.runtime]\nrun = ["python pkg/slow.py"]\nrun-timeout = 1\n')
    done = observe(tmp_path)  # nothing observed before the time-out: no pass
    assert (done.returncode, done.stdout) == (
        2, "No findings, but the --run command failed before anything was observed "
           "(see the error).\n"), done.stderr
    assert "error: --run `python pkg/slow.py`: timed out after 1 s" in done.stderr
    done = observe(tmp_path, "--run-timeout", "2")
    assert "error: --run `python pkg/slow.py`: timed out after 2 s" in done.stderr
    # a bad value: one line
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint.runtime]\nrun = []\n')
    done = observe(tmp_path)
    assert (done.returncode, done.stderr) == (2, (
        f"error: {tmp_path / 'pyproject.toml'}: runtime.run must be a command or a list of "
        "commands (non-empty strings), e.g. \"python train.py --steps 2\", got []\n"))
    # ...which --run replaces: the bad table does not stop it
    done = observe(tmp_path, "--run", "python pkg/other.py", "--output-format", "concise", "-q")
    assert done.returncode == 1, done.stderr
    assert [line.split(" ")[:2] for line in done.stdout.splitlines()] == [
        ["pkg/other.py:6:14:", "JAX507"]]
    # --facts and --no-facts together: one line
    done = observe(tmp_path, "--run", "python pkg/other.py", "--facts", "f.json", "--no-facts")
    assert (done.returncode, done.stderr) == (2, "error: --facts FILE and --no-facts cannot be given together\n")
    # a table without `run`, and no --run
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint.runtime]\nrun-timeout = 5\n')
    done = observe(tmp_path)
    assert (done.returncode, done.stderr) == (2, NO_COMMAND)


def test_output_formats_and_baseline(observed, project, tmp_path, monkeypatch):
    """Every format of `check`, and --baseline, over the events of the real run above
    (read back from it, so the run happens once)."""
    from click.testing import CliRunner

    from jaxlint.cli import cli
    from jaxlint.runtime import sightings
    from jaxlint.runtime.observe import RunResult

    events = []
    real = sightings.start_observed

    class Recorded:
        def __init__(self, *a, **k):
            self.runs = real(*a, **k)
            self.limit, self.stop = self.runs.limit, self.runs.stop

        @property
        def finished(self):
            return self.runs.finished

        def result(self):
            runs, found = self.runs.result()
            events[:] = found
            return runs, found

    class Replayed:
        def __init__(self, *a, **k):
            self.limit = self.stop = lambda *_: None
            self.finished = False

        def result(self):
            self.finished = True
            return [RunResult("python app/train.py", ".", "ok", 1.0, 1)], events

    monkeypatch.chdir(project)
    monkeypatch.setattr(sightings, "start_observed", Recorded)
    runner = CliRunner()
    result = runner.invoke(cli, ["observe", "--no-cache", "--run", "python app/train.py",
                                 "--output-format", "sarif", "app"])
    assert result.exit_code == 1, result.output
    sarif = json.loads(result.stdout)
    got = [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
           for r in sarif["runs"][0]["results"]]
    assert got == [(code, line) for code, _, line, _, _ in EXPECTED]
    assert sarif["runs"][0]["results"][1]["properties"]["runtime"]["count"] == 3

    monkeypatch.setattr(sightings, "start_observed", Replayed)
    for fmt, probe in (("github", "::warning title=jaxlint (JAX507),file=app/train.py,line=33"),
                       ("gitlab", '"check_name": "JAX508"'),
                       ("junit", 'JAX501'), ("full", "JAX110")):
        result = runner.invoke(cli, ["observe", "--no-cache", "--run", "python app/train.py",
                                     "--output-format", fmt, "app"])
        assert result.exit_code == 1 and probe in result.stdout, (fmt, result.output)

    # a baseline written by `check` from the same lines: what it records is not reported
    base = tmp_path / "base.json"
    result = runner.invoke(cli, ["check", "--no-cache", "--write-baseline", str(base), "app"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["observe", "--no-cache", "--run", "python app/train.py",
                                 "--baseline", str(base), "--output-format", "concise", "-q",
                                 "app"])
    assert result.exit_code == 1
    assert [line.split(" ")[1] for line in result.stdout.splitlines()] == [
        "JAX507", "JAX501", "JAX508"]


# ----------------------------------------------------------------------------- processes

LEAVES = '''\
import os
import subprocess
import sys
import time

SLEEP = [sys.executable, "-c", "import time; time.sleep(120)"]
child = subprocess.Popen(SLEEP)
daemon = subprocess.Popen(SLEEP, start_new_session=True)
with open("pids", "a") as fh:
    fh.write(f"{os.getpid()} {child.pid} {daemon.pid}\\n")
if MODE == "sleep":
    time.sleep(120)
sys.exit(3 if MODE == "fail" else 0)
'''


def _pids(path: Path, wait: float) -> list[int]:
    deadline = time.monotonic() + wait
    while True:
        if path.exists() and path.read_text().endswith("\n"):
            return [int(p) for p in path.read_text().split()]
        if time.monotonic() > deadline:
            return []
        time.sleep(0.05)


def _gone(pids: list[int], wait: float = 30.0) -> list[int]:
    """The pids still alive after ``wait`` seconds at most (polled: a loaded machine may
    take a while to deliver the signals and reap)."""
    deadline = time.monotonic() + wait
    while True:
        left = [p for p in pids if procs.alive(p)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


STOPS = {"ctrl-c": signal.SIGINT, "sigterm": signal.SIGTERM, "sighup": signal.SIGHUP,
         "sigkill": signal.SIGKILL}


@pytest.mark.parametrize("mode", ["ok", "fail", "timeout", *STOPS])
def test_nothing_the_run_started_is_left(tmp_path, mode):
    """The command's process, its child and a detached grandchild are gone when observe
    ends: the command succeeded, failed or timed out; observe got Ctrl-C (SIGINT to its
    whole process group, as a terminal sends it), SIGTERM or SIGHUP (it kills every tree
    it started, then dies by the signal), or SIGKILL (nothing runs in observe then: the
    guard sees its lifeline close and kills the command's tree).  Deadlines are generous
    and polled, never fixed sleeps: the test holds on a loaded machine."""
    (tmp_path / "prog.py").write_text(LEAVES.replace(
        "MODE", repr("sleep" if mode in ("timeout", *STOPS) else mode)))
    args = [sys.executable, "-m", "jaxlint", "observe", "--no-cache", "--run", "python prog.py"]
    limit = 0
    if mode == "timeout":  # long enough for the program (and observe's probes) to start here now
        from conftest import time_limit_for

        limit = time_limit_for("import jax", least=10)
        args += ["--run-timeout", str(limit)]
    proc = subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        pids = _pids(tmp_path / "pids", wait=120)
        assert len(pids) == 3
        if mode == "ctrl-c":
            os.killpg(proc.pid, signal.SIGINT)
        elif mode in STOPS:
            proc.send_signal(STOPS[mode])
        out, err = proc.communicate(timeout=120)
        # a command that failed, or timed out with nothing observed, is an error
        expected = {"ok": 0, "fail": 2, "timeout": 2, "ctrl-c": 130, "sigterm": -signal.SIGTERM,
                    "sighup": -signal.SIGHUP, "sigkill": -signal.SIGKILL}[mode]
        if mode == "ctrl-c":  # "interrupted" and 130, wherever the Ctrl-C lands
            assert err.endswith("interrupted\n") and proc.returncode == 130, (proc.returncode, err)
        else:
            assert proc.returncode == expected, err
        if mode == "fail":
            assert "error: --run `python prog.py`: exit status 3" in err
        if mode == "timeout":
            assert f"--run `python prog.py`: timed out after {limit} s" in err
        assert _gone(pids) == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in _pids(tmp_path / "pids", wait=0):  # a failed test leaves nothing either
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def test_a_key_consumed_twice_on_one_line_says_so_once(tmp_path):
    """Both consumptions on the reported line: "on this line", not "here, and ... at
    line N" naming the same line."""
    (tmp_path / "prog.py").write_text(
        "import jax\n\nkey = jax.random.PRNGKey(0)\n"
        "a, b = jax.random.normal(key, (2,)), jax.random.uniform(key, (2,))\nprint(a, b)\n")
    done = observe(tmp_path, "--run", "python prog.py", "--output-format", "concise", ".")
    assert (done.returncode, done.stdout) == (1, (
        "prog.py:4:38: JAX301 The run consumed one PRNG key twice on this line: `normal` and "
        "then `uniform` with the same key array; split the key and use each part once "
        "(observed: confirms JAX301, which `jaxlint check` reports at this line)\n"
        "Found 1 error.\n")), done.stderr


KEY_CHECKER = '''\
import jax
import jax.numpy as jnp

seen = [jax.config.jax_debug_key_reuse]
x = jnp.ones(3) * 2
k = jax.random.PRNGKey(0)
jax.random.normal(k)
seen.append(jax.config.jax_debug_key_reuse)
jax.random.normal(jax.random.key(1))
seen.append(jax.config.jax_debug_key_reuse)
open("seen", "w").write(repr(seen))
'''


def test_the_key_reuse_checker_is_on_from_the_first_typed_key(tmp_path):
    """JAX's key-reuse checker follows typed keys only, and costs every eager operation
    and jit call: observe switches it on when the program first hands a typed key to
    `jax.random`, not before (eager `jnp` and raw `PRNGKey` keys run without it)."""
    (tmp_path / "prog.py").write_text(KEY_CHECKER)
    done = observe(tmp_path, "--run", "python prog.py", ".")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "seen").read_text() == "[False, False, True]"


FIRST_THING = '''\
import os
with open("started", "w") as fh:
    fh.write(str(os.getpid()) + "\\n")
import time
time.sleep(120)
'''


@pytest.mark.parametrize("delay", [0.0, 0.15, 0.3, 0.5, 0.8])
def test_ctrl_c_while_observe_starts_is_interrupted_and_130(tmp_path, delay):
    """The command starts before observe has read its configuration: a Ctrl-C there
    (while jaxlint imports modules and builds classes) is "interrupted" and 130 like any
    other, never SIGINT's own status (CPython ends a process by SIGINT when the interrupt
    landed in code run by `exec` of a string, a dataclass's generated `__init__`, however
    it was handled), nor an "internal error" (a Ctrl-C inside `__set_name__`); the
    command is gone.  The delays after the command's first line sweep observe's start."""
    (tmp_path / "prog.py").write_text(FIRST_THING)
    proc = subprocess.Popen([sys.executable, "-m", "jaxlint", "observe", "--no-cache", "--run",
                             "python prog.py"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        pids = _pids(tmp_path / "started", wait=120)
        assert len(pids) == 1
        time.sleep(delay)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        assert (proc.returncode, err.splitlines()[-1:]) == (130, ["interrupted"]), err
        assert _gone(pids) == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in _pids(tmp_path / "started", wait=0):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


CONFIRMED_BY_THE_RUN = '''\
import jax.numpy as jnp


def unused():
    x = jnp.ones(3)
    x[0] = 1.0
    return x


if __name__ == "__main__":
    y = jnp.zeros(3, dtype=jnp.float64)
'''


def test_confirm_takes_the_probes_events(tmp_path):
    """`confirm --run`: a finding outside any function (JAX110 here) is judged by the
    run: the warning JAX issued at that line confirms it.  (Two parts of the companion
    see it: confirm's own module-level check answers first, so the probes' event is
    not needed and the verdict carries the check's evidence.)"""
    (tmp_path / "prog.py").write_text(CONFIRMED_BY_THE_RUN)
    done = subprocess.run([sys.executable, "-m", "jaxlint", "confirm", "--no-cache", "prog.py",
                           "--run", "python prog.py", "--output-format", "json"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=180)
    assert done.returncode == 1, done.stderr
    verdicts = {f["code"]: f["runtime"] for f in json.loads(done.stdout)}
    assert verdicts["JAX110"]["verdict"] == "confirmed"
    assert verdicts["JAX110"]["evidence"].startswith(
        "the --run warned at line 11: UserWarning: Explicitly requested dtype float64 requested "
        "in zeros is not available, and will be truncated to dtype float32.")
    assert verdicts["JAX101"]["verdict"] == "confirmed"  # its own check, as before


CLEAN_TRAIN = '''\
import jax
import jax.numpy as jnp


@jax.jit
def scale(x, n):
    return x * n


@jax.jit
def step(params, x, y):
    def loss(p):
        pred = x @ p
        safe = jnp.where(pred > 0, pred, 1.0)
        return jnp.mean(jnp.where(pred > 0, jnp.log(safe), 0.0) + (pred - y) ** 2)
    value, grad = jax.value_and_grad(loss)(params)
    jax.debug.print("loss {l}", l=value)
    return params - 0.1 * grad, value


def main():
    key = jax.random.PRNGKey(0)
    key, kx, ky, kp = jax.random.split(key, 4)
    x = jax.random.normal(kx, (8, 3))
    y = jax.random.uniform(ky, (8,))
    params = jax.random.normal(kp, (3,))
    for n in range(3):
        x = scale(x, jnp.float32(n + 1))
    losses = []
    for _ in range(5):
        params, value = step(params, x, y)
        losses.append(value)
    return float(jnp.stack(losses).mean())


print(main())
'''


def test_the_corrected_twin_gets_no_finding(tmp_path):
    """The sharp bits above written the way JAX wants (keys split, jit built once, the
    count passed as an array, a guarded log, `jax.debug.print`, one host copy at the
    end): the run is observed and nothing is reported."""
    (tmp_path / "train.py").write_text(CLEAN_TRAIN)
    done = observe(tmp_path, "--run", "python train.py", "--output-format", "json")
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert json.loads(done.stdout) == []


# ----------------------------------------------------------------------------- host-to-device

H2D = '''\
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

step = jax.jit(lambda p, b: p - 0.1 * (p * b).sum())


@jax.jit
def logged(p):
    return io_callback(lambda v: np.asarray(v) * 2, jax.ShapeDtypeStruct((4,), jnp.float32), p)


def main():
    data = np.ones((6, 4), np.float32)
    p = jnp.ones(4)
    for i in range(6):
        p = step(p, data[i])
        p = p + 1
    for i in range(4):
        p = p + data[i]
    for i in range(4):
        p = p + jax.device_put(data[i])
        p = logged(p)
    for i in range(2):
        p = p * jnp.asarray(data[i])
    return p


main()
'''


def test_host_to_device_copies_repeated_at_a_line(tmp_path):
    """JAX's transfer guard at `log`: NumPy arrays copied to the device implicitly at one
    line 3 times or more (a jitted step given a NumPy batch, `x + np_array`) are JAX509 at
    that line; Python scalars (`p + 1`), explicit `device_put`, a host callback's result
    and a line run twice are not; JAX's log lines stay out of the program's output."""
    (tmp_path / "train.py").write_text(H2D + "import sys\nsys.exit(3)\n")
    done = observe(tmp_path, "--run", "python train.py", "--output-format", "json")
    assert done.returncode == 1, done.stderr
    advice = ("implicitly (JAX's transfer guard logged each copy): a NumPy array passed to a "
              "jitted function or a `jnp` operation is copied on every call; put data that does "
              "not change on the device once, before the loop (`jax.device_put`), and prefetch "
              "new batches with `jax.device_put` ahead of the step that uses them")
    assert rows(done.stdout) == [
        ("JAX509", "train.py", 18, 13,
         f"The run copied host data (float32[4]) to the device 6 times at this line, {advice}"),
        ("JAX509", "train.py", 21, 13,
         f"The run copied host data (float32[4]) to the device 4 times at this line, {advice}"),
    ]
    assert "exit status 3" in done.stderr and "guard_lib" not in done.stderr


# ----------------------------------------------------------------------------- device-to-host

D2H = '''\
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda p: p * 0.9 + 0.1)


def log_metrics(m):
    return {"loss": m.item()}


def main():
    p = jnp.zeros(4)
    losses = []
    for i in range(12):
        p = step(p)
        losses.append(float(p.sum()))
    for i in range(12):
        p = step(p)
        log_metrics(p[0])
    while float(jnp.abs(p - 1).max()) > 1e-6 and len(losses) < 40:
        p = step(p) * 0.5
        losses.append(0.0)
    results = [step(p) for _ in range(12)]
    for r in results:
        print(r)
    for i in range(60):
        p = step(p)
        if i % 10 == 0:
            print("step", i, float(p.sum()))
    for i in range(12):
        fetched = jax.device_get(step(p))
    for i in range(3):
        print(step(p))
    return np.asarray(p), fetched


main()
'''

# NumPy on a GPU: a jax.Array has no buffer protocol there, so `np.asarray` asks its
# `__array__` (the host copy); on the CPU NumPy reads the buffer directly.  This makes
# the CPU take the GPU's path, JAX's own `np.asarray` calls included.
GPU_NUMPY = '''\
import jax
import numpy as np

_asarray = np.asarray


def asarray(a, *args, **kwargs):
    if isinstance(a, jax.Array):
        a = a.__array__()
    return _asarray(a, *args, **kwargs)


np.asarray = asarray
'''

GPU_LOOP = '''\
import jax
import jax.numpy as jnp
import numpy as np

import gpu_numpy  # noqa: F401

step = jax.jit(lambda p: p * 0.9 + 0.1)
p = jnp.ones(4)
for i in range(15):
    p = step(p)
history = []
for i in range(12):
    p = step(p)
    history.append(np.asarray(p))
print(len(history))
'''


def test_device_to_host_copies_that_sync_every_step(tmp_path):
    '''JAX507 is a device array copied to the host, implicitly, after new device work each
    time (the host waits for the device: a sync), at least 10 times at one line and at least
    once every 8 dispatches on median: `float()` each step, `.item()` in a helper called
    each step, a `while` test that fetches a value each iteration.  Not reported: results
    printed after the loop (no device work between the copies), a logging step every 10
    steps, `jax.device_get` (explicit), a loop of 3 steps.'''
    (tmp_path / "train.py").write_text(D2H)
    done = observe(tmp_path, "--run", "python train.py", "--output-format", "json")
    assert done.returncode == 1, done.stderr
    advice = ("each copy waits for the device to finish the work before it, so the host "
              "cannot queue the next step meanwhile; keep the value on the device (accumulate "
              "there), or fetch it every N steps or once after the loop")
    assert rows(done.stdout) == [
        ("JAX507", "train.py", 9, 21,
         "The run copied a device array (float32[]) to the host 12 times at this line, through "
         f"`.item()`, once every 3 dispatches of device work (median): {advice}"),
        ("JAX507", "train.py", 17, 23,
         "The run copied a device array (float32[]) to the host 12 times at this line, through "
         f"`float()`, once every 2 dispatches of device work (median): {advice}"),
        ("JAX507", "train.py", 21, 11,
         "The run copied a device array (float32[]) to the host 29 times at this line, through "
         f"`float()`, once every 5 dispatches of device work (median): {advice}"),
    ]


def test_device_to_host_copies_on_a_gpu_path(tmp_path):
    '''With NumPy taking a GPU's path (`__array__` for every `np.asarray`), `np.asarray` of
    each step's result is JAX507, and the NaN checker's own look at every output (it ran
    `np.asarray` on each) is not the user's copy: no finding at the step's line.'''
    (tmp_path / "gpu_numpy.py").write_text(GPU_NUMPY)
    (tmp_path / "loop.py").write_text(GPU_LOOP)
    done = observe(tmp_path, "--run", "python loop.py", "--output-format", "json", "loop.py")
    assert done.returncode == 1, done.stderr
    assert rows(done.stdout) == [
        ("JAX507", "loop.py", 14, 20,
         "The run copied a device array (float32[4]) to the host 12 times at this line, "
         "through `np.asarray()`, after each dispatch of device work: each copy waits for the "
         "device to finish the work before it, so the host cannot queue the next step "
         "meanwhile; keep the value on the device (accumulate there), or fetch it every N "
         "steps or once after the loop")]


CLOG = '''\
import ctypes
import sys

from jaxlint.runtime import clog

libc = ctypes.CDLL(None)
libc.fputs.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
stderr = ctypes.c_void_p.in_dll(libc, "stderr")
seen = []


def listener(data, frame):
    seen.append((data, frame.f_code.co_name, frame.f_lineno))
    return b"TAKE" in data


assert clog.install(listener)


def writer():
    libc.fputs(b"TAKE me\\n", stderr.value)
    libc.fputs(b"pass me on\\n", stderr.value)


writer()
clog.remove()
libc.fputs(b"after\\n", stderr.value)
print(seen)
'''


def test_clog_reads_c_stderr_in_the_writing_thread(tmp_path):
    """runtime/clog.py: a write to the C library's stderr reaches the listener with the
    Python frame that called into C; what it takes is dropped, the rest goes to fd 2;
    after remove() the original stderr is back."""
    (tmp_path / "c.py").write_text(CLOG)
    done = subprocess.run([sys.executable, "c.py"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "pass me on\nafter\n"
    assert done.stdout == ("[(b'TAKE me\\n', 'writer', 21), "
                           "(b'pass me on\\n', 'writer', 22)]\n")


def test_run_only_codes():
    """The codes whose events mark no static finding (observe lints nothing for them) are
    the runtime-only rules outside every family of a static rule."""
    from jaxlint.rules import all_rules
    from jaxlint.runtime.sightings import FAMILIES, RUN_ONLY

    assert RUN_ONLY == {r.code for r in all_rules() if r.runtime_only} - set().union(*FAMILIES)
    assert RUN_ONLY == {"JAX507", "JAX509"}


def test_observe_itself_imports_no_libcst_when_nothing_is_reported(tmp_path):
    """The fixed cost of observe (docs/runtime.md, "Measured: overhead"): a run that shows
    nothing needs neither the lint (libcst, 0.3 s of CPU to import) nor the rule table
    imported afresh: with --no-cache the rule snapshot a `check` left is read."""
    (tmp_path / "ok.py").write_text("x = 1\n")
    done = subprocess.run([sys.executable, "-m", "jaxlint", "check", "-q", "ok.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "jaxlint", "observe",
                           "--no-cache", "-q", "--run", "python ok.py", "ok.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    assert "jaxlint.cli.observe" in imported
    assert not {m for m in imported if m.split(".")[0] == "libcst"}


@pytest.mark.parametrize("how", ["SIGHUP", "SIGTERM", "KeyboardInterrupt"])
def test_a_stop_wrapped_while_a_class_is_made_ends_as_the_stop_says(tmp_path, how):
    """SIGTERM/SIGHUP raise `Terminated` (Ctrl-C: KeyboardInterrupt); landing while a
    class is made, Python wraps it in a RuntimeError ("Error calling __set_name__"). The
    run ends as the stop says (by the signal; "interrupted" and 130), never as an
    "internal error" (seen once in `observe` under SIGHUP while libcst was imported)."""
    script = tmp_path / "wrapped.py"
    script.write_text(textwrap.dedent(f"""\
        import signal
        import sys

        import jaxlint.cli as jcli
        from jaxlint.lifeline import Terminated

        def stop():
            if {how!r} == "KeyboardInterrupt":
                raise KeyboardInterrupt
            raise Terminated(signal.{how} if {how!r} != "KeyboardInterrupt" else 0)

        class Field:
            def __set_name__(self, owner, name):
                stop()

        def main(**kwargs):
            class Node:  # RuntimeError: Error calling __set_name__ ... (from Terminated)
                whitespace_before = Field()

        jcli.cli.main = main
        jcli.main(["check", "."])
        """))
    proc = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    if how == "KeyboardInterrupt":
        assert (proc.returncode, proc.stderr.splitlines()[-1:]) == (130, ["interrupted"]), proc.stderr
    else:
        assert proc.returncode == -getattr(signal, how), proc.stderr
    assert "internal error" not in proc.stderr
