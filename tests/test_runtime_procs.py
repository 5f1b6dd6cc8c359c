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
