"""Lint many files: cache look-ups in this process, misses in worker processes.

The parent reads each file's bytes, resolves its settings and asks the cache;
only misses are sent, in chunks, to a pool of worker processes (forked where
the platform allows).  ``jaxlint.linter`` (and so libcst) is imported only by
whoever lints a miss, so a fully cached run never loads the parser.  Results
come back in path order whatever the completion order.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import traceback
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Sequence

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


# (display path, file bytes, settings)
_Job = tuple[str, bytes, LintSettings]
# (result, traceback of an internal error or None)
_Outcome = tuple[FileResult, Optional[str]]


def lint_one(path: str, data: bytes, settings: LintSettings) -> _Outcome:
    """Lint one file's bytes; an internal error becomes ``FileResult.error``."""
    try:
        from jaxlint.linter import lint_source

        return lint_source(data, path, settings), None
    except Exception as exc:  # a bug in jaxlint: report it, keep going
        result = FileResult(path=path)
        first = str(exc).splitlines()[0] if str(exc) else ""
        result.error = f"internal error: {exc.__class__.__name__}{': ' + first if first else ''}"
        return result, traceback.format_exc()


def _lint_chunk(jobs: Sequence[_Job]) -> list[_Outcome]:
    return [lint_one(*job) for job in jobs]


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))  # type: ignore[attr-defined]
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _mp_context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _preload_linter() -> None:
    try:
        import jaxlint.linter  # noqa: F401  (libcst)
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


def run(
    files: Sequence[Path],
    settings_for: Callable[[Path], LintSettings],
    cache: Optional[Cache],
    jobs: Optional[int] = None,
    show_progress: Optional[bool] = None,
) -> RunResult:
    """Lint ``files`` (display paths) and return their results sorted by path."""
    out = RunResult()
    results: dict[str, FileResult] = {}
    misses: list[_Job] = []
    keys: dict[str, str] = {}
    for path in files:
        name = str(path)
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            out.errors.append(f"{name}: cannot be read ({exc.strerror or exc})")
            continue
        settings = settings_for(Path(path))
        if cache is not None:
            key = cache.key(data, settings)
            hit = cache.get(key, name)
            if hit is not None:
                results[name] = hit
                out.cache_hits += 1
                continue
            keys[name] = key
        misses.append((name, data, settings))

    jobs = jobs or default_jobs()
    if show_progress is None:
        show_progress = sys.stderr.isatty() and len(misses) > PROGRESS_THRESHOLD
    for result, tb in _lint_all(misses, jobs, show_progress, out):
        results[result.path] = result
        if tb is not None:
            out.tracebacks.append(f"{result.path}:\n{tb}")
        elif cache is not None and result.path in keys:
            cache.put(keys[result.path], result)

    for name in sorted(results):
        result = results[name]
        if result.error:
            out.errors.append(f"{name}: {result.error}")
        out.results.append(result)
    return out


def _lint_all(misses: list[_Job], jobs: int, show_progress: bool, out: RunResult):
    if not misses:
        return
    progress = None
    task = None
    if show_progress:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        progress = Progress(
            TextColumn("Linting"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=True,
        )
    if jobs <= 1 or len(misses) < _MIN_PARALLEL:
        if progress is not None:
            with progress:
                task = progress.add_task("lint", total=len(misses))
                for job in misses:
                    yield lint_one(*job)
                    progress.advance(task)
        else:
            for job in misses:
                yield lint_one(*job)
        return

    context = _mp_context()
    if context.get_start_method() == "fork":
        _preload_linter()  # forked workers inherit the parser and rules instead of importing them
    # start the workers before the progress bar starts its refresh thread (fork safety)
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(misses)), mp_context=context)
    try:
        futures = {pool.submit(_lint_chunk, chunk): chunk for chunk in _chunks(misses, jobs)}
        if progress is not None:
            progress.start()
            task = progress.add_task("lint", total=len(misses))
        from concurrent.futures import as_completed

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
                    r.error = f"internal error: {reason}"
                    outcomes.append((r, f"{reason}\n"))
            for outcome in outcomes:
                yield outcome
            if progress is not None:
                progress.advance(task, len(chunk))
    finally:
        if progress is not None:
            progress.stop()
        pool.shutdown(wait=True, cancel_futures=True)
