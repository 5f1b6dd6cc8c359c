"""The project-wide model for the language server: open buffers over files on disk.

``jaxlint check`` lints a project in rounds (``project.driver.run_project``):
every file once, then again the files whose cross-module facts changed, until
they settle.  The server runs that same driver, in the background, in its own process
(``RunOptions.memo``): each open buffer stands in for its file on disk
(``Workspace.sources``) and every result is remembered by (text, settings), so
that a refresh after an edit lints again only the edited file and the files
whose facts it changed.

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
from typing import Callable, Optional, Union

from jaxlint.findings import FileResult
from jaxlint.settings import LintSettings
from jaxlint.workspace import Workspace

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
    current texts (keyed by settings) that computing them needed.  It is the
    runner's memo (``runner.Memo``) for the project runs of ``refresh``."""

    def __init__(self, workspace: Workspace) -> None:
        # settings (raises ConfigError), roots, discovery, the CLI's cache (.jaxlint_cache)
        # for the files read from disk: a project that `jaxlint check` has linted is
        # warm for the server too, and the other way round
        self.workspace = workspace
        self._lock = threading.Lock()
        # display name -> (digest of the text, {settings fingerprint: result})
        self._memo: dict[str, tuple[bytes, dict[str, FileResult]]] = {}
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

    def linting(self, name: str) -> None:
        """A refresh lints ``name`` now: after the editor's own lint."""
        while self.editing.is_set():
            time.sleep(_YIELD_S)
        self.lints += 1

    def forget(self) -> None:
        """The configuration or the files on disk changed: nothing read is kept."""
        with self._lock:
            self._memo.clear()
            self.workspace.forget_files()
            self.settings.clear()
            self.outputs.clear()

    def forget_files(self) -> None:
        """Files were created or deleted: discover the projects again."""
        with self._lock:
            self.workspace.forget_files()

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
        project-wide model, the buffers standing in for their files on disk,
        in this thread (no worker).  Returns display name -> (result, the
        settings it was linted with)."""
        from jaxlint.project.driver import RunOptions, run_project

        ws = self.workspace
        texts = {str(ws.display(p)): t for p, t in buffers.items()}
        ws.sources = dict(texts)
        outcome = run_project([Path(n) for n in sorted(texts)], ws,
                              RunOptions(jobs=1, show_progress=False, memo=self))
        final: dict[str, tuple[FileResult, LintSettings]] = {}
        for r in outcome.results:
            s = outcome.settings_of.get(r.path)
            if s is None:
                continue
            final[r.path] = (r, s)
        self.settings = {name: s for name, (_r, s) in final.items()}
        self.outputs = {name: r.project for name, (r, _s) in final.items()}
        return final


def server_workspace(store_for, configuration: Callable[[], Optional[str]]) -> Workspace:
    """The language server's workspace: ``store_for`` (absolute path -> the
    ConfigStore of its workspace folder), display paths as the CLI's run in the
    server's working directory, the CLI's cache there (made on first use, with
    the ``configuration`` file the client names then)."""
    from jaxlint.workspace.config import cache_dir_for
    from jaxlint.workspace import cache_in

    def cache_for():
        config = configuration()
        config_path = Path(config).expanduser() if config else None
        return cache_in(cache_dir_for(Path.cwd(), None, config_path))()

    return Workspace(store_for, display=lambda p: Path(display(Path(os.path.abspath(p)))), cache=cache_for)
