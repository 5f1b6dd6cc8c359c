"""No lint worker outlives ``jaxlint check`` (real process trees, no mocks).

``jaxlint check DIR -j 2`` is started in its own session (as ``setsid`` does) on
a folder with enough files to keep two workers busy; once its workers exist the
parent is stopped with SIGKILL, SIGTERM or SIGHUP.  Five seconds later nothing
of that session is alive, and whoever reads the command's output sees its end.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")

SOURCE = '''\
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def step{n}(x, y):
    if x.sum() > 0:
        y = y + 1
    for i in range(3):
        x = x * np.float64(2.0) + jnp.ones(3)
    print(x)
    return jax.tree_map(lambda a: a + 1, (x, y))


def loop{n}(key, xs):
    out = []
    for x in xs:
        out.append(jax.random.normal(key, (3,)) + step{n}(x, x))
    return out
'''


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            data = fh.read().decode(errors="replace")
    except OSError:
        return None
    return data[data.rfind(")") + 2:].split()  # state ppid pgrp session ...


def _session(sid: int) -> list[int]:
    """Live (not zombie) processes of session ``sid``."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            fields = _stat(int(name))
            if fields and fields[0] not in ("Z", "X") and int(fields[3]) == sid:
                out.append(int(name))
    return out


def _children(pid: int) -> list[int]:
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            fields = _stat(int(name))
            if fields and fields[0] not in ("Z", "X") and int(fields[1]) == pid:
                out.append(int(name))
    return out


def _poll(predicate, timeout: float, step: float = 0.05):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(step)


def _at_end(stream, timeout: float) -> bool:
    """Whether end of file is read from ``stream`` within ``timeout`` seconds."""
    import select

    fd = stream.fileno()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        if ready and not os.read(fd, 65536):
            return True
    return False


@pytest.fixture(scope="module")
def busy_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("busy")
    (root / "pyproject.toml").write_text("[project]\nname = 'busy'\n")
    pkg = root / "pkg"
    pkg.mkdir()
    # enough work for two workers for well over the few seconds the test needs
    body = "\n".join(SOURCE.format(n=n) for n in range(60))
    for i in range(300):
        (pkg / f"m{i}.py").write_text(body)
    return root


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP])
def test_no_worker_outlives_a_stopped_check(busy_dir, sig):
    proc = subprocess.Popen(
        [sys.executable, "-m", "jaxlint", "check", "--no-cache", "-j", "2", "pkg"],
        cwd=busy_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        workers = _poll(lambda: len(_children(proc.pid)) >= 2 and _children(proc.pid), 60)
        assert workers, "the workers never started"
        time.sleep(0.5)  # they are linting now
        assert proc.poll() is None, "the check ended before it could be stopped"
        proc.send_signal(sig)
        proc.wait(timeout=30)
        if sig != signal.SIGKILL:
            assert proc.returncode == -sig  # it died by the signal: status 128+N in a shell
        _poll(lambda: not _session(proc.pid), 5)
        assert _session(proc.pid) == [], "still alive 5 s after the parent"
        # nobody holds the output pipes: a reader (a CI step) sees their end
        assert _at_end(proc.stdout, 5) and _at_end(proc.stderr, 5)
    finally:
        for pid in [proc.pid, *_session(proc.pid)]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()
