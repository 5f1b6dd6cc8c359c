"""The project-wide model for the language server: open buffers over files on disk.

``jaxlint check`` lints a project in rounds (``project_driver.run_project``):
every file once, then again the files whose cross-module facts changed, until
they settle.  The server runs that same driver, in the background, with a
``run_files`` that reads each open buffer in place of its file on disk and
remembers every result by (text, settings), so that a refresh after an edit
lints again only the edited file and the files whose facts it changed.

The keystroke path does not wait for it: an edited buffer is linted alone, with
the settings (module name, facts, x64) the last refresh gave its file, which
costs one file's lint.  When that lint finds that what the file tells its
project (its summary, its traced calls) changed, the server asks for a refresh,
and republishes the open files whose settings the refresh changed (a helper
module's diagnostics appear or go away when its caller's buffer changes).

Display paths are the CLI's: relative to the server's working directory (the
first workspace folder) when below it, else absolute, so messages that name a
caller's file read as ``jaxlint check`` run in that folder prints them.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional, Sequence, Union

from jaxlint.findings import FileResult
from jaxlint.settings import LintSettings

if TYPE_CHECKING:  # the runner (multiprocessing) and the cache load with the first project run
    from jaxlint.cache import Cache
    from jaxlint.runner import RunResult

# a background lint of another file waits while the editor's own lint runs
_YIELD_S = 0.002


def display(path: Path, cwd: Optional[Path] = None) -> str:
    """The CLI's display path: relative to the working directory when below it."""
    cwd = cwd or Path.cwd()
    for candidate in (path, Path(os.path.realpath(path))):  # the folder may be named through a link
        try:
            return str(candidate.relative_to(cwd))
        except ValueError:
            continue
    return str(path)


def _digest(data: Union[str, bytes]) -> bytes:
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=16).digest()


class ProjectModel:
    """The last project-wide facts of the open files, and every lint result of the
    current texts (keyed by settings) that computing them needed."""

    def __init__(self, settings_for: Callable[[Path], LintSettings],
                 src_for: Callable[[Path], tuple], files_of: Callable[[Path], list[Path]],
                 cache_for: Optional[Callable[[], Optional[Cache]]] = None) -> None:
        self._settings_for = settings_for  # absolute path -> base settings (raises ConfigError)
        # the CLI's cache (.jaxlint_cache), for the files read from disk: a project that
        # `jaxlint check` has linted is warm for the server too, and the other way round
        self._cache_for = cache_for
        self._cache: Optional[Cache] = None
        self._cache_made = False
        self._src_for = src_for
        self._files_of = files_of  # project root -> its files (absolute), as the CLI discovers them
        self._lock = threading.Lock()
        # display name -> (digest of the text, {settings fingerprint: result})
        self._memo: dict[str, tuple[bytes, dict[str, FileResult]]] = {}
        self._discovered: dict[Path, list[Path]] = {}
        # what the last refresh settled on, per display name of an open file
        self.settings: dict[str, LintSettings] = {}
        self.outputs: dict[str, Optional[dict]] = {}
        self.editing = threading.Event()  # set while the editor's lint runs: background lints wait
        self.lints = 0  # files linted by refreshes (for tests and the log)

    # ------------------------------------------------------------------ memo

    def remember(self, name: str, text: Union[str, bytes], settings: LintSettings,
                 result: FileResult) -> None:
        digest = _digest(text)
        with self._lock:
            got = self._memo.get(name)
            if got is None or got[0] != digest:
                got = self._memo[name] = (digest, {})
            got[1][settings.fingerprint()] = result

    def recall(self, name: str, text: Union[str, bytes], settings: LintSettings) -> Optional[FileResult]:
        with self._lock:
            got = self._memo.get(name)
        if got is None or got[0] != _digest(text):
            return None
        return got[1].get(settings.fingerprint())

    def forget(self) -> None:
        """The configuration or the files on disk changed: nothing read is kept."""
        with self._lock:
            self._memo.clear()
            self._discovered.clear()
            self.settings.clear()
            self.outputs.clear()

    def forget_files(self) -> None:
        """Files were created or deleted: discover the projects again."""
        with self._lock:
            self._discovered.clear()

    # ------------------------------------------------------------------ the editor's lint

    def settings_of(self, name: str) -> Optional[LintSettings]:
        """The settings the last refresh linted this open file with (None: not known yet)."""
        return self.settings.get(name)

    def tells_more(self, name: str, result: FileResult) -> bool:
        """Whether what ``result`` tells the project differs from what the last
        refresh knew of the file (a refresh would change facts)."""
        if name not in self.outputs:
            return True
        return result.project != self.outputs[name]

    # ------------------------------------------------------------------ refresh

    def refresh(self, buffers: dict[Path, str]) -> dict[str, tuple[FileResult, LintSettings]]:
        """Lint the open files ``buffers`` (absolute path -> text) with the
        project-wide model, the buffers standing in for their files on disk.
        Returns display name -> (result, the settings it was linted with)."""
        from jaxlint.project_driver import run_project
        from jaxlint.runner import RunResult, lint_one

        cwd = Path.cwd()
        texts = {display(p, cwd): t for p, t in buffers.items()}
        if not self._cache_made and self._cache_for is not None:
            self._cache_made = True
            try:
                self._cache = self._cache_for()
            except Exception:  # a broken configuration: no cache, the lints still run
                self._cache = None
        disk_cache = self._cache

        def absolute(p: Path) -> Path:
            return Path(os.path.abspath(p))

        def settings_for(p: Path) -> LintSettings:
            return self._settings_for(absolute(p))

        def context_for(root: Path) -> list[Path]:
            with self._lock:
                files = self._discovered.get(root)
            if files is None:
                files = self._files_of(root)
                with self._lock:
                    self._discovered[root] = files
            return [Path(display(f, cwd)) for f in files]

        def run_files(files: Sequence[Path], settings: Callable[[Path], LintSettings], cache,
                      **_options) -> RunResult:  # in this thread: no workers, no tree store
            out = RunResult()
            results: dict[str, FileResult] = {}
            for path in files:
                name = str(path)
                data: Union[str, bytes, None] = texts.get(name)
                if data is None:
                    try:
                        data = absolute(path).read_bytes()
                    except OSError as exc:
                        out.errors.append(f"{name}: cannot be read ({exc.strerror or exc})")
                        continue
                s = settings(Path(name))
                hit = self.recall(name, data, s)
                if hit is not None:
                    results[name] = hit
                    out.cache_hits += 1
                    continue
                key = None
                if disk_cache is not None and isinstance(data, bytes):
                    key = disk_cache.key(data, s)
                    hit = disk_cache.get(key, name, s, data)
                    if hit is not None:
                        self.remember(name, data, s, hit)
                        results[name] = hit
                        out.cache_hits += 1
                        continue
                while self.editing.is_set():
                    time.sleep(_YIELD_S)
                result, tb = lint_one(name, data, s)
                self.lints += 1
                if tb is not None:
                    out.tracebacks.append(f"{name}:\n{tb}")
                else:
                    self.remember(name, data, s, result)
                    if key is not None:
                        disk_cache.put(key, result)  # type: ignore[union-attr]
                results[name] = result
            for name in sorted(results):
                if results[name].error:
                    out.errors.append(f"{name}: {results[name].error}")
                out.results.append(results[name])
            return out

        def src_for(root: Path):
            return self._src_for(root)

        # the buffers as bytes too: what the driver reads itself (a helper module's imports) is the buffer's
        buffers = {n: t.encode("utf-8", "surrogatepass") if isinstance(t, str) else t for n, t in texts.items()}
        outcome = run_project([Path(n) for n in sorted(texts)], settings_for, None, src_for,
                              jobs=1, show_progress=False, context_for=context_for,
                              run_files=run_files, overrides=buffers)
        final: dict[str, tuple[FileResult, LintSettings]] = {}
        for r in outcome.results:
            s = outcome.settings_of.get(r.path)
            if s is None:
                continue
            final[r.path] = (r, s)
        self.settings = {name: s for name, (_r, s) in final.items()}
        self.outputs = {name: r.project for name, (r, _s) in final.items()}
        return final
