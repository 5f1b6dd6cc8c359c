"""Processes that die with their parent, and a parent that stops cleanly on a signal.

Standard library only (any layer may use it): the lint workers (``runner``) and
the runtime companion's workers (``runtime.procs``) share it.

* ``die_with_parent`` (child side): on Linux the kernel sends a signal when the
  parent dies (``PR_SET_PDEATHSIG``); elsewhere a thread polls ``getppid()``.
  The kernel sends it when the *thread* that forked the child ends, so a child
  must not outlive the thread that started it (the runner's pools are opened
  and closed in one thread).
* ``stop_on_signals`` (parent side): SIGTERM and SIGHUP raise ``Terminated``
  in the main thread, so ``finally`` blocks end the workers; the command then
  exits as the signal says (``exit_by``: killed by it, status 128+N in a shell).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from typing import Iterator

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
# set by a process that starts `jaxlint` (the MCP server's confirm): its pid; the
# command then gets SIGTERM when that process dies (``cli.main``)
DIE_WITH_PARENT_ENV = "JAXLINT_DIE_WITH_PARENT"


_libc = None


def preload() -> None:
    """Load ctypes and the C library now (Linux), before forking workers: each
    forked worker then calls ``prctl`` at once instead of importing ctypes itself
    (milliseconds each)."""
    global _libc
    if _libc is None and sys.platform == "linux":
        try:
            import ctypes

            _libc = ctypes.CDLL(None, use_errno=True)
            _libc.prctl  # noqa: B018 - the symbol is looked up here, once
        except Exception:  # noqa: BLE001 - no C library to call: prctl says False
            _libc = False


def prctl(option: int, arg: int) -> bool:
    """``prctl(option, arg)`` on Linux; False where it is not available or fails."""
    preload()
    if not _libc:
        return False
    try:
        return _libc.prctl(option, arg, 0, 0, 0) == 0
    except Exception:  # noqa: BLE001 - no prctl: the caller's fallback applies
        return False


def die_with_parent(parent: int, sig: int = signal.SIGKILL, poll: float = 0.5) -> None:
    """Child side, first thing after fork/exec: get ``sig`` when ``parent`` (the
    pid that started this process) dies."""
    armed = prctl(PR_SET_PDEATHSIG, int(sig))
    if os.getppid() != parent:  # the parent died before the line above
        os.kill(os.getpid(), sig)
        os._exit(128 + int(sig))
    if armed:
        return

    def watch() -> None:  # pragma: no cover - platforms without PR_SET_PDEATHSIG
        while os.getppid() == parent:
            time.sleep(poll)
        os.kill(os.getpid(), sig)
        os._exit(128 + int(sig))

    threading.Thread(target=watch, daemon=True, name="jaxlint-parent-watch").start()


class Terminated(BaseException):
    """SIGTERM or SIGHUP reached the command: unwind (ending workers), then ``exit_by``."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum = signum


STOP_SIGNALS = tuple(s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))
                     if s is not None)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """While it lasts, SIGTERM/SIGHUP raise ``Terminated`` (once: a second signal
    during the clean-up is ignored).  Only in the main thread; elsewhere a no-op."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    raised = []

    def handler(signum, _frame):  # noqa: ANN001
        if not raised:
            raised.append(signum)
            raise Terminated(signum)

    old = {}
    for sig in STOP_SIGNALS:
        try:
            old[sig] = signal.signal(sig, handler)
        except (ValueError, OSError):
            pass
    try:
        yield
    finally:
        for sig, previous in old.items():
            if raised:
                signal.signal(sig, signal.SIG_IGN)  # exit_by sets the default back
            else:
                signal.signal(sig, previous)


def exit_by(signum: int) -> None:
    """End this process as ``signum`` would have (exit status 128+N where the
    signal cannot be delivered to ourselves)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    try:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        time.sleep(1)  # delivered at once on POSIX; belt and braces
    except (ValueError, OSError):
        pass
    os._exit(128 + signum)
