"""Processes that leave nothing behind (pure Python, no JAX).

Every process ``confirm``/``bench`` starts (runtime workers, ``--run``
commands) goes through ``spawn``: it runs in its own session (process group),
and gets a *lifeline*, the read end of a pipe whose write end only this
process holds.  The child side (``guard``) then:

* asks the kernel for SIGTERM when its parent dies (``PR_SET_PDEATHSIG``); its
  handler kills the tree,
* becomes a child subreaper (``PR_SET_CHILD_SUBREAPER``), so descendants the
  user's code orphans (daemonised, ``setsid``) stay its descendants,
* watches the lifeline in a thread: end of file means the parent is gone
  (killed, stopped by a signal, crashed), and it kills its whole tree,
* enforces its own time limit (the same kill),
* and kills every descendant when it ends normally (``reap``).

The parent kills a child's tree on time-out (``kill_tree``), and every live
child's tree when it is stopped by SIGTERM, SIGHUP or SIGINT (``stopping``).
While ``stopping`` lasts the parent is a child subreaper too: what a child
leaves when it dies without cleaning up (``os._exit``, killed by a signal, the
user's code killing it) becomes the parent's child and is killed as soon as
the child is released (``reap_strays``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from typing import Callable, Iterator, Optional

from jaxlint.lifeline import PR_SET_CHILD_SUBREAPER, PR_SET_PDEATHSIG, prctl

LIFELINE_ENV = "JAXLINT_LIFELINE"  # "fd:parent_pid:time_limit_s"

_live: dict[int, tuple[subprocess.Popen, int]] = {}
_lock = threading.RLock()
_stopped = False  # the run is being stopped: start nothing more
# while ``stopping`` lasts: this process is a subreaper, and these children were not ours to end
_subreaper = False
_before: frozenset[int] = frozenset()


# ----------------------------------------------------------------------------- /proc


def _children_map() -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                data = fh.read()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces and parentheses
        rest = data[data.rfind(b")") + 2:].split()
        if len(rest) < 2:
            continue
        out.setdefault(int(rest[1]), []).append(int(name))
    return out


def descendants(pid: int) -> list[int]:
    """All live descendants of ``pid`` (Linux /proc; empty elsewhere)."""
    children = _children_map()
    out: list[int] = []
    stack = list(children.get(pid, []))
    while stack:
        p = stack.pop()
        out.append(p)
        stack.extend(children.get(p, []))
    return out


def alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            data = fh.read()
        return data[data.rfind(b")") + 2:][:1] not in (b"Z", b"X")
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return sys.platform != "linux"


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


# ----------------------------------------------------------------------------- parent side


def spawn(argv: list[str], time_limit: float, **popen: object) -> subprocess.Popen:
    """Start ``argv`` in its own session with a lifeline (see the module docstring)."""
    read_end, write_end = os.pipe()
    env = dict(popen.pop("env", None) or os.environ)  # type: ignore[arg-type]
    env[LIFELINE_ENV] = f"{read_end}:{os.getpid()}:{time_limit:g}"
    with _lock:  # a child is known before reap_strays or kill_all look
        if _stopped:
            os.close(read_end)
            os.close(write_end)
            raise KeyboardInterrupt("the run is being stopped")
        try:
            proc = subprocess.Popen(argv, env=env, start_new_session=True, pass_fds=(read_end,),
                                    **popen)  # type: ignore[call-overload]
        except BaseException:
            os.close(write_end)
            raise
        finally:
            os.close(read_end)
        _live[proc.pid] = (proc, write_end)
    return proc


def kill_tree(proc: subprocess.Popen) -> None:
    """SIGKILL the child, its process group and every descendant (found first)."""
    found = descendants(proc.pid)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    _kill(proc.pid)
    for pid in found:
        _kill(pid)


def release(proc: subprocess.Popen) -> None:
    """The child ended (or was killed): make sure its group is gone, drop the lifeline."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # anything left in its group
    except (ProcessLookupError, PermissionError):
        pass
    with _lock:
        entry = _live.pop(proc.pid, None)
    if entry is not None:
        try:
            os.close(entry[1])
        except OSError:
            pass
    reap_strays()


def reap_strays() -> None:
    """Kill (and wait for) this process's children that no live ``spawn`` owns:
    what a dead child left, reparented here while ``stopping`` makes this
    process a subreaper, with every descendant of theirs."""
    if not _subreaper:
        return
    me = os.getpid()
    with _lock:
        children = _children_map()
        keep = set(_live) | _before
        strays = [p for p in children.get(me, []) if p not in keep]
        for stray in strays:
            stack = [stray]
            while stack:
                p = stack.pop()
                _kill(p)
                stack.extend(children.get(p, []))
    for stray in strays:
        deadline = time.monotonic() + 5.0
        while True:
            try:
                pid, _ = os.waitpid(stray, os.WNOHANG)
            except ChildProcessError:
                break
            if pid or time.monotonic() > deadline:
                break
            time.sleep(0.01)


def kill_all() -> None:
    global _stopped
    with _lock:
        _stopped = True  # under the lock: a spawn under way is in _live, a later one refused
        entries = list(_live.values())
    for proc, _fd in entries:
        kill_tree(proc)
    for proc, _fd in entries:
        try:
            proc.wait(timeout=5)
        except Exception:  # noqa: BLE001
            pass
        release(proc)
    reap_strays()


@contextlib.contextmanager
def stopping() -> Iterator[None]:
    """While the run lasts: SIGTERM/SIGHUP (and Ctrl-C) kill every child's tree first."""
    global _stopped, _subreaper, _before
    _stopped = False
    installed: dict[int, object] = {}
    became = not _subreaper and prctl(PR_SET_CHILD_SUBREAPER, 1)
    if became:
        _before = frozenset(_children_map().get(os.getpid(), []))
        _subreaper = True

    def handler(signum, _frame):  # noqa: ANN001
        kill_all()
        for sig, old in installed.items():
            signal.signal(sig, old)  # type: ignore[arg-type]
        os.kill(os.getpid(), signum)  # die as the signal says (exit status 128+N)

    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGHUP):
            try:
                installed[sig] = signal.signal(sig, handler)
            except (ValueError, OSError):
                pass
    try:
        yield
    except BaseException:
        kill_all()  # KeyboardInterrupt and any other way out
        raise
    finally:
        for sig, old in installed.items():
            signal.signal(sig, old)  # type: ignore[arg-type]
        if became:
            reap_strays()
            _subreaper = False
            prctl(PR_SET_CHILD_SUBREAPER, 0)


@dataclass
class Ran:
    """How a ``run_command`` ended."""

    status: str  # "ok", "exit status N", "exit status N (signal M)", "killed by SIGx", "could not start: ...", or why it was stopped
    wall_s: float
    started: bool = True


def run_command(argv: list[str], *, cwd: str, env: dict, out_path: str, guard_limit: float,
                check: Callable[[float], Optional[str]], interval: float = 0.05) -> Ran:
    """Run ``argv`` (a ``--run`` command: ``sh -c CMD``) under the guard
    (``python -m jaxlint.runtime.procs``), its output to ``out_path``, stdin closed.
    Every ``interval`` seconds ``check(elapsed)`` says whether to stop it now: the status
    to report (a time-out, a check inside it that timed out, jaxlint stopping), and its
    tree is killed.  ``confirm``'s and ``observe``'s commands both run here."""
    start = time.monotonic()
    status = "ok"
    with open(out_path, "wb") as out:
        try:
            proc = spawn([sys.executable, "-m", "jaxlint.runtime.procs", *argv],
                         time_limit=guard_limit, stdin=subprocess.DEVNULL, stdout=out,
                         stderr=subprocess.STDOUT, env=env, cwd=cwd)
        except OSError as exc:
            return Ran(f"could not start: {exc.strerror or exc}", 0.0, started=False)
        try:
            while proc.poll() is None:
                time.sleep(interval)
                reason = check(time.monotonic() - start)
                if reason is not None:
                    status = reason
                    kill_tree(proc)
                    proc.wait()
                    break
        finally:
            release(proc)
    rc = proc.returncode
    if status == "ok" and rc is not None and rc < 0:  # it did not run to its end
        try:
            status = f"killed by {signal.Signals(-rc).name}"
        except ValueError:
            status = f"killed by signal {-rc}"
    elif status == "ok" and rc:
        status = f"exit status {rc if rc < 128 else f'{rc} (signal {rc - 128})'}"
    return Ran(status, time.monotonic() - start)


def ran_to_end(status: str) -> bool:
    """Whether a run's status says its command ran to its end: ``ok`` or its own exit
    status.  Not a command killed by a signal (``killed by SIGKILL``; ``exit status 137
    (signal 9)``, a shell's report of a child the OOM killer ended), timed out, stopped
    or never started: what such a run recorded is partial."""
    return status == "ok" or (status.startswith("exit status") and "(signal" not in status)


def gather(futures: list) -> list:
    """The futures' results, in order.  The main thread waits in short slices: a
    signal the kernel hands to another thread only runs its Python handler (stop
    everything) once the main thread is back in the interpreter."""
    from concurrent.futures import wait

    pending = list(futures)
    while pending:
        _done, not_done = wait(pending, timeout=0.1)
        pending = list(not_done)
    return [f.result() for f in futures]


# ----------------------------------------------------------------------------- child side


def reap() -> None:
    """Kill every descendant of this process (the user's leftovers)."""
    for _ in range(3):
        found = descendants(os.getpid())
        if not found:
            return
        for pid in found:
            _kill(pid)
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                time.sleep(0.01)


def _die() -> None:
    reap()
    try:
        os.killpg(0, signal.SIGKILL)  # our group: ourselves included
    finally:
        os._exit(137)


def guard() -> None:
    """Child side: call first thing.  Does nothing outside a ``spawn``ed process."""
    spec = os.environ.pop(LIFELINE_ENV, "")
    try:
        fd_s, parent_s, limit_s = spec.split(":")
        fd, parent, limit = int(fd_s), int(parent_s), float(limit_s)
    except ValueError:
        return
    # SIGTERM, not SIGKILL, on the parent's death: the handler (or, if the user's
    # code replaced it, the lifeline) kills the descendants before this process goes
    try:
        signal.signal(signal.SIGTERM, lambda *_: _die())
    except ValueError:  # not the main thread
        pass
    prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    if os.getppid() != parent:  # the parent died before the line above
        _die()

    def watch() -> None:
        try:
            while os.read(fd, 1):
                pass
        except OSError:
            pass
        _die()

    def clock() -> None:
        time.sleep(limit)
        sys.stderr.write(f"jaxlint: time limit of {limit:g} s reached\n")
        _die()

    threading.Thread(target=watch, daemon=True, name="jaxlint-lifeline").start()
    if limit > 0:
        threading.Thread(target=clock, daemon=True, name="jaxlint-clock").start()


def run_guarded(argv: list[str]) -> int:
    """``python -m jaxlint.runtime.procs CMD...``: run CMD under a guard and reap its tree."""
    guard()
    if "JAXLINT_RECORD_NEXT" in os.environ:  # the recorder is for the command, not for us
        os.environ["JAXLINT_RECORD"] = os.environ.pop("JAXLINT_RECORD_NEXT")
    if "JAXLINT_OBSERVE_NEXT" in os.environ:  # so are observe's probes
        os.environ["JAXLINT_OBSERVE"] = os.environ.pop("JAXLINT_OBSERVE_NEXT")
    try:
        proc = subprocess.Popen(argv)
    except OSError as exc:
        sys.stderr.write(f"jaxlint: cannot run {argv[0]}: {exc.strerror or exc}\n")
        return 127
    try:
        rc = proc.wait()
    except KeyboardInterrupt:
        rc = 130
    reap()
    return rc if rc >= 0 else 128 - rc


if __name__ == "__main__":
    sys.exit(run_guarded(sys.argv[1:]))
