"""Lint many files: cache look-ups in this process, misses in worker processes.

The parent reads each file's bytes, resolves its settings and asks the cache;
only misses are sent, in chunks, to forked worker processes (one for a few
files or ``-j 1``), supervised so that a file that crashes its worker or
exceeds the per-file time limit costs that file only.  ``jaxlint.lint.linter`` (and
so libcst) is imported only when there is a miss, so a fully cached run never
loads the parser.  Results come back in path order whatever the completion order.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
import time
import traceback
from collections import deque
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from pathlib import Path
from typing import Callable, Iterator, Optional, Protocol, Sequence, Union

from jaxlint.cache import Cache
from jaxlint.findings import FileResult
from jaxlint.settings import LintSettings

# below this many misses the pool costs more than it saves
_MIN_PARALLEL = 8
PROGRESS_THRESHOLD = 50


@dataclass
class RunResult:
    results: list[FileResult] = field(default_factory=list)
    # one line per file that could not be linted ("path: reason")
    errors: list[str] = field(default_factory=list)
    # tracebacks of internal errors, shown with --verbose
    tracebacks: list[str] = field(default_factory=list)
    cache_hits: int = 0
    # results that may not be cached (an internal error, a crash, a time-out): a machine's state
    uncacheable: int = 0
    # the files among ``results`` that failed in a way that may not be cached
    lost: set = field(default_factory=set)
    # the settings each file was finally linted with (the project driver's: with its facts),
    # for whoever lints the file again (the fixer)
    settings_of: dict = field(default_factory=dict)


# (display path, file bytes, settings)
_Job = tuple[str, bytes, LintSettings]
# (result, traceback of an internal error or None)
_Outcome = tuple[FileResult, Optional[str]]


def lint_one(path: str, data: bytes, settings: LintSettings, trees=None) -> _Outcome:
    """Lint one file's bytes; an internal error becomes ``FileResult.error``.
    ``trees``: a ``jaxlint.lint.linter.TreeStore`` kept across the driver's rounds."""
    try:
        from jaxlint.lint.linter import lint_source

        return lint_source(data, path, settings, trees=trees), None
    except Exception as exc:  # a bug in jaxlint: report it, keep going
        result = FileResult(path=path)
        first = str(exc).splitlines()[0] if str(exc) else ""
        result.error = f"internal error: {exc.__class__.__name__}{': ' + first if first else ''}"
        return result, traceback.format_exc()


def lint_isolated(path: str, data: bytes, settings: LintSettings,
                  file_timeout: Optional[float] = None) -> _Outcome:
    """``lint_one`` in a supervised worker process where the platform can fork
    one cheaply (a crash or a hang costs the result, not the caller)."""
    if not _can_fork():
        return lint_one(path, data, settings)
    ((result, tb, _),) = list(supervise([(path, data, settings)], 1, file_timeout))
    return result, tb


def _lint_chunk(jobs: Sequence[_Job]) -> list[_Outcome]:
    return [lint_one(*job) for job in jobs]


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))  # type: ignore[attr-defined]
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _preload_linter() -> None:
    try:
        import jaxlint.lint.linter  # noqa: F401  (libcst)
        import jaxlint.engine  # noqa: F401
        import jaxlint.model.interpreter  # noqa: F401
        from jaxlint.rules import all_rules

        all_rules()
    except Exception:  # a broken import is reported per file by the workers
        pass


def _chunks(items: Sequence[_Job], jobs: int) -> list[list[_Job]]:
    # several chunks per worker keeps the pool balanced; few enough to keep IPC cheap
    size = max(1, min(64, len(items) // (jobs * 4) or 1))
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


class Memo(Protocol):
    """Results kept in memory by a caller that lints in its own process (the
    language server: texts of unsaved buffers, which the cache never sees)."""

    def recall(self, name: str, data: Union[str, bytes], settings: LintSettings) -> Optional[FileResult]: ...

    def remember(self, name: str, data: Union[str, bytes], settings: LintSettings, result: FileResult) -> None: ...

    def linting(self, name: str) -> None:
        """Called before ``name`` is linted here (the server lets the editor's own lint go first)."""


def run(
    files: Sequence[Path],
    settings_for: Callable[[Path], LintSettings],
    cache: Optional[Cache],
    jobs: Optional[int] = None,
    show_progress: Optional[bool] = None,
    file_timeout: Optional[float] = None,
    pool: Optional[WorkerPool] = None,
    data_for: Optional[dict[str, Union[str, bytes]]] = None,
    with_project: bool = True,
    read: Optional[Callable[[Path], bytes]] = None,
    memo: Optional[Memo] = None,
) -> RunResult:
    """Lint ``files`` (display paths) and return their results sorted by path.
    ``pool``: workers kept across several runs (the project driver's rounds);
    ``data_for``: files' bytes already read (or text: an editor's buffer, never
    cached on disk); ``read``: how a file is read (default: from disk);
    ``with_project=False``: a cached result comes without its project output
    (the driver has what it needs).

    Each file is linted in a worker process (see ``supervise``): one that
    crashes its worker or takes over ``file_timeout`` seconds (default
    ``DEFAULT_FILE_TIMEOUT``) is reported and the others are still linted.
    With a ``memo``, files are linted in this process, one after the other (no
    worker, no tree store), and every result is remembered in the memo too."""
    out = RunResult()
    results: dict[str, FileResult] = {}
    misses: list[_Job] = []
    keys: dict[str, str] = {}
    for path in files:
        name = str(path)
        data = data_for.get(name) if data_for is not None else None
        if data is None:
            try:
                data = read(Path(path)) if read is not None else Path(path).read_bytes()
            except OSError as exc:
                out.errors.append(f"{name}: cannot be read ({exc.strerror or exc})")
                continue
        settings = settings_for(Path(path))
        if memo is not None:
            hit = memo.recall(name, data, settings)
            if hit is not None:
                results[name] = hit
                out.cache_hits += 1
                continue
        if cache is not None and isinstance(data, bytes):
            key = cache.key(data, settings)
            hit = cache.get(key, name, settings, data, with_project)
            if hit is not None:
                if memo is not None:
                    memo.remember(name, data, settings, hit)
                results[name] = hit
                out.cache_hits += 1
                continue
            keys[name] = key
        misses.append((name, data, settings))  # type: ignore[arg-type]

    if memo is not None:
        outcomes: Iterator[_Supervised] = _in_process(misses, memo)
    else:
        jobs = jobs or default_jobs()
        if show_progress is None:
            show_progress = sys.stderr.isatty() and len(misses) > PROGRESS_THRESHOLD
        outcomes = _lint_all(misses, jobs, show_progress, out, file_timeout, pool)
    for result, tb, cacheable in outcomes:
        results[result.path] = result
        if tb is not None or not cacheable:
            out.uncacheable += 1
            out.lost.add(result.path)
        if tb is not None:
            out.tracebacks.append(f"{result.path}:\n{tb}")
        elif cacheable and cache is not None and result.path in keys:
            cache.put(keys[result.path], result)

    for name in sorted(results):
        result = results[name]
        if result.error:
            out.errors.append(f"{name}: {result.error}")
        out.results.append(result)
    return out


def _in_process(misses: list[_Job], memo: Memo) -> Iterator[_Supervised]:
    """Lint ``misses`` in this thread, remembering each result (not an internal error's)."""
    for name, data, settings in misses:
        memo.linting(name)
        result, tb = lint_one(name, data, settings)
        if tb is None:
            memo.remember(name, data, settings, result)
        yield result, tb, tb is None


def _lint_all(misses: list[_Job], jobs: int, show_progress: bool, out: RunResult,
              file_timeout: Optional[float] = None, pool: Optional[WorkerPool] = None):
    """Yield an outcome for every job, in any order."""
    if not misses:
        return
    progress = None
    task = None
    if show_progress:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        # no refresh thread: workers may be forked again at any time (after a crash)
        progress = Progress(
            TextColumn("Linting"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=True,
            auto_refresh=False,
        )
        progress.start()
        task = progress.add_task("lint", total=len(misses))
    workers = min(jobs, len(misses)) if len(misses) >= _MIN_PARALLEL else 1
    try:
        if pool is not None and (pool.forks or workers == 1):
            source = pool.lint(misses)
        elif not _can_fork():
            # no cheap way to isolate a file (spawning workers costs seconds): the
            # guards alone keep the parser safe, and a pool is used from _MIN_PARALLEL files on
            source = (_pool_outcomes(misses, jobs) if workers > 1
                      else ((*lint_one(*job), True) for job in misses))
        else:
            source = supervise(misses, workers, file_timeout)
        for outcome in source:
            yield outcome
            if progress is not None:
                progress.advance(task)
                progress.refresh()
    finally:
        if progress is not None:
            progress.stop()


# ----------------------------------------------------------------------------- isolation

DEFAULT_FILE_TIMEOUT = 60.0  # CPU seconds one file may take before its worker is stopped
# past the limit in wall time, a worker is stopped as blocked (a read that never ends, a
# lock) when it used less than this share of one CPU; a busy one runs on until its CPU time
# reaches the limit, or this many times the limit in wall time
BLOCKED_SHARE = 0.01
WALL_FACTOR = 10.0


def _cpu_seconds(pid: Optional[int]) -> Optional[float]:
    """The CPU time (user + system) process ``pid`` has used, from /proc (Linux); None
    where it cannot be read (the limit then counts wall-clock time)."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods() and os.name == "posix"


# the supervisor's ends of the live workers' pipes: a worker forked later closes its copies
_parent_ends: set[int] = set()


def _worker_main(conn, tree_budget: int = 0, parent: int = 0,
                 inherited: tuple[int, ...] = ()) -> None:  # pragma: no cover - runs in the forked worker
    """Lint the chunks the supervisor sends, one outcome back per file, in order.
    With a ``tree_budget``, parsed trees are kept for the project driver's later
    rounds (``jaxlint.lint.linter.TreeStore``).

    The worker dies with its supervisor (``parent``): it closes the supervisor's
    pipe ends it inherited (``inherited``: its own pipe's other end and the other
    workers'), so end of file reaches it when the supervisor is gone; the kernel
    kills it when the supervisor dies (``lifeline.die_with_parent``); and it lets go
    of the supervisor's standard output and error at once (a pipe or a CI step
    reading them sees their end when the supervisor ends, whatever a worker does)."""
    import signal

    from jaxlint.lifeline import die_with_parent

    for fd in inherited:
        try:
            os.close(fd)
        except OSError:
            pass
    try:
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.close(devnull)
    except OSError:
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the supervisor's to handle
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)  # not the supervisor's handlers
    if parent:
        die_with_parent(parent)
    _preload_linter()  # a worker started early imports while its supervisor reads the cache
    trees = None
    if tree_budget:
        from jaxlint.lint.linter import TreeStore

        trees = TreeStore(tree_budget)
    try:
        while True:
            chunk = conn.recv()
            if chunk is None:
                break
            for job in chunk:
                result, tb = lint_one(*job, trees=trees)
                try:
                    conn.send((result, tb))
                except (OSError, EOFError):
                    raise
                except Exception as exc:  # a result that does not pickle: a bug, reported as one
                    lost = FileResult(path=job[0])
                    lost.error = f"internal error: the result could not be sent ({exc.__class__.__name__})"
                    conn.send((lost, traceback.format_exc()))
    except (EOFError, OSError, KeyboardInterrupt):
        pass  # the supervisor is gone
    finally:
        os._exit(0)


def _signal_name(code: int) -> str:
    import signal

    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


class _Worker:
    """One forked worker process and the chunk it is working through."""

    def __init__(self, context, tree_budget: int = 0) -> None:
        from jaxlint.lifeline import preload

        preload()  # the worker inherits the C library it calls prctl with
        self.conn, child = context.Pipe()
        inherited = tuple(sorted((_parent_ends | {self.conn.fileno()}) - {child.fileno()}))
        self.process = context.Process(target=_worker_main, daemon=True,
                                       args=(child, tree_budget, os.getpid(), inherited))
        # the worker's collector leaves what it inherits alone: fewer copy-on-write page copies
        gc.freeze()
        try:
            self.process.start()
        finally:
            gc.unfreeze()
        child.close()
        self._fd = self.conn.fileno()
        _parent_ends.add(self._fd)
        self.chunk: list[_Job] = []
        self.done = 0  # outcomes received for the current chunk
        self.since = 0.0  # when its current file started
        self.cpu_since: Optional[float] = None  # the worker's CPU time then (None: not known)
        self.check_at = 0.0  # when to look at its time used next

    def started_file(self, timeout: float) -> None:
        """Its next file starts now: the limit counts CPU time from here (a loaded machine
        stretches wall time, not CPU time)."""
        self.since = self.check_at = time.monotonic()
        self.check_at += timeout
        self.cpu_since = _cpu_seconds(self.process.pid)
        self.seen: Optional[tuple[float, float]] = None  # (when, CPU used) at the last look

    def over(self, timeout: float, now: float) -> bool:
        """Has its current file used ``timeout`` CPU seconds (wall seconds where CPU time
        cannot be read), or that long in wall time while blocked, or ``WALL_FACTOR``
        times that in wall time?  Not yet: when to look again (``check_at``)."""
        used = _cpu_seconds(self.process.pid)
        wall = now - self.since
        if used is None or self.cpu_since is None:
            return wall >= timeout
        used -= self.cpu_since
        # blocked: under 1% of a CPU since the file started, or since the last look (a
        # worker that computed for a while and then waits)
        last_at, last_used = self.seen if self.seen is not None else (self.since, 0.0)
        if used >= timeout or wall >= timeout * WALL_FACTOR or (wall >= timeout and (
                used < BLOCKED_SHARE * wall
                or (now - last_at >= 1.0 and used - last_used < BLOCKED_SHARE * (now - last_at)))):
            return True
        self.seen = (now, used)
        self.check_at = now + max(0.5, min(timeout - used, timeout))
        return False

    @property
    def busy(self) -> bool:
        return self.done < len(self.chunk)

    def give(self, chunk: list[_Job], timeout: float = DEFAULT_FILE_TIMEOUT) -> None:
        self.chunk, self.done = chunk, 0
        self.started_file(timeout)
        self.conn.send(chunk)

    def stop(self, kill: bool = False) -> None:
        if kill and self.process.is_alive():
            self.process.kill()
        else:
            try:
                self.conn.send(None)
            except (OSError, ValueError):
                pass
        self.process.join(5)
        if self.process.is_alive():  # pragma: no cover - a worker deaf to its pipe
            self.process.kill()
            self.process.join()
        _parent_ends.discard(self._fd)
        self.conn.close()


# (result, traceback of an internal error or None, whether the result may be cached)
_Supervised = tuple[FileResult, Optional[str], bool]


def supervise(jobs: Sequence[_Job], workers: int = 1,
              file_timeout: Optional[float] = None) -> Iterator[_Supervised]:
    """Lint ``jobs`` in ``workers`` forked worker processes; yield one outcome per job.

    A worker that dies (a crash in native code: the parser) or spends more
    than ``file_timeout`` seconds on one file costs that file only: it is
    reported ("could not be checked: ..."), the worker is replaced and the
    rest of its chunk goes back in the queue.  Files are sent in chunks and
    answered one by one, so the file in flight is always known.
    """
    pool = WorkerPool(workers, file_timeout)
    try:
        yield from pool.lint(jobs)
    finally:
        pool.close()


class WorkerPool:
    """Forked workers that outlive one ``run``: the project driver lints a
    project in rounds, and a file linted again in a later round goes to the
    worker that linted it before, which kept its parsed tree (``tree_budget``
    bytes in all, shared out between the workers).  Supervised as ``supervise``
    says.  Without fork, files are linted in this process (with a tree store)."""

    def __init__(self, workers: int = 1, file_timeout: Optional[float] = None, tree_budget: int = 0) -> None:
        self.workers = max(1, workers)
        self.timeout = DEFAULT_FILE_TIMEOUT if file_timeout is None else file_timeout
        self.tree_budget = tree_budget // self.workers
        self.forks = _can_fork()
        self.trees = None  # the tree store of this process, when files are linted here
        if not self.forks and tree_budget:
            from jaxlint.lint.linter import TreeStore

            self.trees = TreeStore(tree_budget)
        self._pool: list[_Worker] = []
        self._owner: dict[str, int] = {}  # file -> the worker that linted it last
        self._context = multiprocessing.get_context("fork") if self.forks else None

    def _new(self) -> _Worker:
        return _Worker(self._context, self.tree_budget)

    def start(self, n: int = 2) -> None:
        """Fork up to ``n`` workers now, before they are needed: each imports
        the linter (libcst, the rules: about 0.13 s) while this process does
        other work, such as reading the cache.  (A few: a run where one file
        changed needs one; the others are forked when there is work for them.)"""
        if self.forks:
            while len(self._pool) < min(self.workers, n):
                self._pool.append(self._new())

    def plan(self, jobs: Sequence[_Job]) -> tuple[list[deque], deque]:
        """(each worker's own queue of chunks, the shared queue): a file a worker
        has linted before goes back to it; the rest are shared out."""
        own: list[list[_Job]] = [[] for _ in range(self.workers)]
        fresh: list[_Job] = []
        for job in jobs:
            w = self._owner.get(job[0])
            (own[w] if w is not None else fresh).append(job)
        return [deque(_chunks(o, self.workers)) for o in own], deque(_chunks(fresh, self.workers))

    def lint(self, jobs: Sequence[_Job]) -> Iterator[_Supervised]:
        if not jobs:
            return
        if not self.forks:
            for job in jobs:
                yield (*lint_one(*job, trees=self.trees), True)
            return
        own, shared = self.plan(jobs)
        pool = self._pool
        if len(pool) < min(self.workers, len(jobs)):
            _preload_linter()  # forked workers inherit the parser and rules instead of importing them
        while len(pool) < min(self.workers, len(jobs)):
            pool.append(self._new())

        def next_chunk(i: int) -> Optional[list[_Job]]:
            if own[i]:
                return own[i].popleft()
            if shared:
                return shared.popleft()
            # idle: take the last chunk of the longest queue (parsed again here)
            others = max(range(len(own)), key=lambda k: len(own[k]))
            return own[others].pop() if len(own[others]) > 1 else None

        timeout = self.timeout
        try:
            while True:
                for i, w in enumerate(pool):
                    if not w.busy:
                        chunk = next_chunk(i)
                        if chunk is None:
                            continue
                        if not w.process.is_alive():  # died between chunks: nothing was lost
                            w.stop()
                            pool[i] = w = self._new()
                        w.give(chunk, timeout)
                busy = [w for w in pool if w.busy]
                if not busy:
                    return
                now = time.monotonic()
                wait_for = max(0.0, min(w.check_at for w in busy) - now)
                ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy], wait_for))
                for i, w in enumerate(pool):
                    if not w.busy:
                        continue
                    failure = None
                    if w.conn in ready or w.process.sentinel in ready:
                        try:
                            while w.busy and (w.conn in ready or w.conn.poll()):
                                ready.discard(w.conn)
                                result, tb = w.conn.recv()
                                w.done += 1
                                w.started_file(timeout)
                                self._owner[result.path] = i
                                yield result, tb, tb is None
                        except (EOFError, OSError):
                            w.process.join(5)
                            code = w.process.exitcode
                            failure = (f"could not be checked: jaxlint crashed on it ({_signal_name(code)})"
                                       if code is not None and code < 0 else
                                       f"could not be checked: the worker checking it exited (code {code})")
                    elif time.monotonic() >= w.check_at and w.over(timeout, time.monotonic()):
                        failure = f"could not be checked: took over {timeout:g} s"
                    if failure is None:
                        continue
                    name = w.chunk[w.done][0]
                    rest = w.chunk[w.done + 1:]
                    w.chunk, w.done = [], 0
                    w.stop(kill=True)
                    if rest:
                        shared.appendleft(rest)
                    pool[i] = self._new()
                    lost = FileResult(path=name)
                    lost.error = failure
                    yield lost, None, False
        finally:
            for i, w in enumerate(pool):
                if w.busy:  # abandoned half-way: its pipe holds answers nobody will read
                    w.stop(kill=True)
                    pool[i] = self._new()

    def close(self) -> None:
        for w in self._pool:
            w.stop(kill=w.busy)
        self._pool = []
        if self.trees is not None and self.trees.used:
            gc.unfreeze()  # the kept trees were frozen in this process (TreeStore.put)
        self.trees = None


def _pool_outcomes(misses: list[_Job], jobs: int) -> Iterator[_Supervised]:
    """A plain process pool (platforms without fork): a dead worker costs its chunk."""
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(misses)), mp_context=context)
    try:
        futures = {pool.submit(_lint_chunk, chunk): chunk for chunk in _chunks(misses, jobs)}
        for future in as_completed(futures):
            chunk = futures[future]
            try:
                outcomes = future.result()
            except Exception as exc:  # a worker died, or a result did not pickle
                reason = (
                    "a worker process died while linting this file"
                    if isinstance(exc, BrokenProcessPool)
                    else f"{exc.__class__.__name__}: {exc}".splitlines()[0]
                )
                outcomes = []
                for name, _, _ in chunk:
                    r = FileResult(path=name)
                    r.error = f"could not be checked: {reason}"
                    outcomes.append((r, None))
            for result, tb in outcomes:
                yield result, tb, tb is None and result.error is None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
