"""Nothing a `confirm`/`bench` run started outlives it (subprocess tests, real JAX on CPU).

A module that starts a child (and a daemonised grandchild in its own session)
at import: after the run ends, and when the run itself is stopped by SIGTERM,
SIGINT, SIGHUP or SIGKILL (the parent dying), the worker and both children
are gone.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("jax")

from jaxlint.runtime import procs  # noqa: E402

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="uses /proc")

LEAKY = '''\
import os
import subprocess
import sys
import time

import jax

SLEEP = [sys.executable, "-c", "import time; time.sleep(120)"]
child = subprocess.Popen(SLEEP)
daemon = subprocess.Popen(SLEEP, start_new_session=True)
with open(os.environ["JAXLINT_TEST_PIDS"], "a") as fh:
    fh.write(f"{os.getpid()} {child.pid} {daemon.pid}\\n")

JAXLINT_INPUTS = {"branchy": ["f32[3]"]}


@jax.jit
def branchy(x):
    if SLEEPS:
        time.sleep(120)
    if x.sum() > 0:
        return x
    return -x
'''


def _module(tmp_path: Path, sleeps: bool) -> Path:
    path = tmp_path / ("sleepy.py" if sleeps else "leaky.py")
    path.write_text(LEAKY.replace("SLEEPS", str(sleeps)))
    return path


def _start(tmp_path: Path, module: Path) -> tuple[subprocess.Popen, Path]:
    pids = tmp_path / "pids"
    env = dict(os.environ, JAXLINT_TEST_PIDS=str(pids))
    proc = subprocess.Popen(
        [sys.executable, "-m", "jaxlint", "confirm", "--no-cache", "--output-format", "json",
         "--timeout", "60", str(module)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path)
    return proc, pids


def _pids(path: Path, wait: float = 0.0) -> list[int]:
    deadline = time.monotonic() + wait
    while True:
        if path.exists() and path.read_text().endswith("\n"):
            return [int(p) for p in path.read_text().split()]
        if time.monotonic() > deadline:
            return []
        time.sleep(0.05)


def _gone(pids: list[int], wait: float = 5.0) -> list[int]:
    deadline = time.monotonic() + wait
    while True:
        left = [p for p in pids if procs.alive(p)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def test_children_started_at_import_are_gone_when_the_run_ends(tmp_path):
    proc, pid_file = _start(tmp_path, _module(tmp_path, sleeps=False))
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err.decode()
    assert b'"verdict": "confirmed"' in out
    pids = _pids(pid_file)
    assert len(pids) == 3  # the worker, its child, the daemonised grandchild
    assert _gone(pids) == []


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGKILL])
def test_stopping_the_run_kills_its_workers(tmp_path, sig):
    proc, pid_file = _start(tmp_path, _module(tmp_path, sleeps=True))
    try:
        pids = _pids(pid_file, wait=60)
        assert len(pids) == 3, proc.stderr.read().decode() if proc.poll() is not None else ""
        time.sleep(0.3)  # the worker is in the sleeping function now
        proc.send_signal(sig)
        proc.wait(timeout=20)
        assert proc.returncode != 0
        if sig in (signal.SIGTERM, signal.SIGHUP):
            assert proc.returncode == -sig  # it died by the signal: 128+N in a shell
        assert _gone(pids) == []
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_guarded_child_enforces_its_own_time_limit(tmp_path):
    """Even when nobody kills it, a guarded process ends at its time limit, tree included."""
    pid_file = tmp_path / "pids"
    code = ("import os, subprocess, sys, time\n"
            "from jaxlint.runtime import procs\n"
            "procs.guard()\n"
            "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'],"
            " start_new_session=True)\n"
            f"open({str(pid_file)!r}, 'w').write(f'{{os.getpid()}} {{c.pid}}\\n')\n"
            "time.sleep(60)\n")
    proc = procs.spawn([sys.executable, "-c", code], time_limit=1.5)
    try:
        pids = _pids(pid_file, wait=20)
        assert len(pids) == 2
        start = time.monotonic()
        proc.wait(timeout=20)
        assert time.monotonic() - start < 10
        assert proc.returncode == -signal.SIGKILL
        assert _gone(pids) == []
    finally:
        procs.kill_tree(proc)
        procs.release(proc)


def test_run_guarded_reaps_what_the_command_left(tmp_path):
    pid_file = tmp_path / "pids"
    script = (f"{sys.executable} -c \"import subprocess, sys; "
              "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'], "
              f"start_new_session=True); open({str(pid_file)!r}, 'w').write(str(c.pid) + chr(10))\"")
    proc = procs.spawn([sys.executable, "-m", "jaxlint.runtime.procs", "/bin/sh", "-c", script],
                       time_limit=30)
    try:
        assert proc.wait(timeout=30) == 0
        pids = _pids(pid_file)
        assert len(pids) == 1
        assert _gone(pids) == []
    finally:
        procs.release(proc)


# ----------------------------------------------------------------------------- detached grandchildren

ESCAPING = '''\
import os
import subprocess
import sys
import time

import jax
import jax.numpy as jnp

JAXLINT_INPUTS = {"escape": ["f32[3]"], "stall": ["f32[3]"]}


def _detach():
    """A grandchild in a session of its own (as a daemon makes), then recorded."""
    p = subprocess.Popen(["sleep", "4242"], start_new_session=True)
    with open(os.environ["JAXLINT_TEST_PIDS"], "a") as fh:
        fh.write(f"{p.pid}\\n")


@jax.jit
def escape(x):
    _detach()
    if os.environ.get("JAXLINT_TEST_KILL"):
        os.kill(os.getpid(), 9)  # the worker kills itself
    os._exit(0)  # the worker ends without cleaning up
    if x.sum() > 0:
        return x
    return -x


@jax.jit
def stall(x):
    if os.environ.get("JAXLINT_TEST_STALL"):
        _detach()
        time.sleep(600)
    if x.sum() > 0:
        return x
    return -x


if __name__ == "__main__":
    _detach()
    print(stall(jnp.ones(3)))
'''


def _sleeps(pids: list[int]) -> list[int]:
    """Those of ``pids`` that are still the ``sleep 4242`` the program started."""
    out = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                argv = fh.read().split(b"\0")
        except OSError:
            continue
        if argv[:2] == [b"sleep", b"4242"] and procs.alive(pid):
            out.append(pid)
    return out


def _escaping_run(tmp_path: Path, args: list[str], stall: bool, stop=None,
                  kill: bool = False) -> tuple[int, list[int], str]:
    """Run jaxlint on the escaping program; ``stop(proc, pid_file)`` may stop it.
    (exit status, the detached sleeps' pids, stderr)."""
    (tmp_path / "escaping.py").write_text(ESCAPING)
    pid_file = tmp_path / "pids"
    env = dict(os.environ, JAXLINT_TEST_PIDS=str(pid_file))
    if stall:
        env["JAXLINT_TEST_STALL"] = "1"
    if kill:
        env["JAXLINT_TEST_KILL"] = "1"
    proc = subprocess.Popen([sys.executable, "-m", "jaxlint", *args, "--no-cache", "escaping.py"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path)

    def recorded() -> list[int]:
        return [int(p) for p in pid_file.read_text().split()] if pid_file.exists() else []

    try:
        try:
            if stop is not None:
                stop(proc, pid_file)
            _out, err = proc.communicate(timeout=240)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        pids = recorded()
        assert pids, err.decode()
        deadline = time.monotonic() + 5
        while _sleeps(pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        return proc.returncode, _sleeps(pids), err.decode()
    finally:
        for pid in _sleeps(recorded()):  # a failing test leaves nothing behind either
            os.kill(pid, signal.SIGKILL)


def test_a_detached_grandchild_is_gone_after_a_successful_run(tmp_path):
    # the --run command detaches one sleep itself; the workers one each
    code, left, err = _escaping_run(
        tmp_path, ["confirm", "--exit-zero", "--run", f"{sys.executable} escaping.py"], stall=False)
    assert code == 0, err
    assert left == []


def test_a_detached_grandchild_is_gone_when_the_worker_kills_itself(tmp_path):
    code, left, err = _escaping_run(tmp_path, ["confirm", "--exit-zero"], stall=False, kill=True)
    assert code == 0, err
    assert left == []


def test_a_detached_grandchild_is_gone_after_a_failing_bench(tmp_path):
    # `stall` is confirmed (exit status 1); `escape` ended its worker
    code, left, err = _escaping_run(tmp_path, ["bench", "--runs", "1"], stall=False)
    assert code == 1, err
    assert left == []


def test_detached_grandchildren_are_gone_after_a_time_out(tmp_path):
    code, left, err = _escaping_run(tmp_path, ["confirm", "--exit-zero", "--timeout", "8"],
                                    stall=True)
    assert code == 0, err
    assert left == []


def test_detached_grandchildren_are_gone_after_ctrl_c(tmp_path):
    def interrupt(proc, pid_file):
        # two sleeps: escape's (its worker ended), then stall's (its worker sleeps)
        deadline = time.monotonic() + 120
        while len(_pids(pid_file)) < 2 and time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read().decode()
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)

    code, left, err = _escaping_run(tmp_path, ["confirm"], stall=True, stop=interrupt)
    assert code != 0, err  # click reports Ctrl-C as "Aborted!", status 1
    assert left == []


@pytest.mark.parametrize("where", ["cli", "config"])
def test_the_memory_limit_is_a_verdict(tmp_path, where):
    limit = ["--memory-limit", "0.5"]
    if where == "config":
        (tmp_path / "pyproject.toml").write_text("[tool.jaxlint.runtime]\nmemory-limit = 0.5\n")
        limit = []
    (tmp_path / "hungry.py").write_text('''\
import jax
import numpy as np

JAXLINT_INPUTS = {"hungry": ["f32[3]"], "modest": ["f32[3]"]}


@jax.jit
def hungry(x):
    big = np.ones((96, 1 << 20))  # 768 MiB
    if x.sum() > 0:
        return x + big.sum()
    return -x


@jax.jit
def modest(x):
    if x.sum() > 0:
        return x
    return -x
''')
    proc = subprocess.run([sys.executable, "-m", "jaxlint", "confirm", "--no-cache", "--output-format",
                           "json", *limit, "hungry.py"],
                          capture_output=True, cwd=tmp_path, timeout=240)
    import json

    found = {f["function"]: f["runtime"] for f in json.loads(proc.stdout)}
    assert found["hungry"]["verdict"] == "skipped"
    assert found["hungry"]["reason"] == ("used more than 0.5 GiB of memory (the limit: --memory-limit, "
                                         "or memory-limit in [tool.jaxlint.runtime])")
    assert found["modest"]["verdict"] == "confirmed"  # JAX itself works under the limit
    assert proc.returncode == 1


def test_a_bad_memory_limit_is_one_line(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint.runtime]\nmemory-limit = \"lots\"\n")
    (tmp_path / "m.py").write_text("import jax\n\n\n@jax.jit\ndef f(x):\n    if x > 0:\n        return x\n    return -x\n")
    proc = subprocess.run([sys.executable, "-m", "jaxlint", "confirm", "--no-cache", "m.py"],
                          capture_output=True, cwd=tmp_path, timeout=240)
    assert proc.returncode == 2
    assert proc.stderr.decode().splitlines()[0] == (
        f"error: {tmp_path / 'pyproject.toml'}: runtime.memory-limit must be a number of GiB (0 for no limit)")


def test_a_limit_too_low_for_the_import_says_so(tmp_path):
    (tmp_path / "m.py").write_text("import jax\n\nJAXLINT_INPUTS = {'f': ['f32[3]']}\n\n\n"
                                   "@jax.jit\ndef f(x):\n    if x.sum() > 0:\n        return x\n    return -x\n")
    proc = subprocess.run([sys.executable, "-m", "jaxlint", "confirm", "--no-cache", "--output-format",
                           "json", "--memory-limit", "0.05", "m.py"],
                          capture_output=True, cwd=tmp_path, timeout=240)
    import json

    (finding,) = json.loads(proc.stdout)
    assert finding["runtime"] == {
        "verdict": "skipped", "details": {},
        "reason": "used more than 0.05 GiB of memory (the limit: --memory-limit, or memory-limit in "
                  "[tool.jaxlint.runtime]) while importing the module"}
    assert proc.returncode == 0
