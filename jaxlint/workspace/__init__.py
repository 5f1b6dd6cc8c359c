"""The workspace a front end lints in, built once per run (or per language server).

The package holds what a front end reads before anything is linted: the
configuration (``config.py``: ``[tool.jaxlint]`` / ``jaxlint.toml``, resolved
once per directory), which files to lint (``discovery.py``) and the rules'
metadata (``ruleinfo.py``, read without importing the rules on a warm run).

``jaxlint check``, the MCP tools and the language server all lint files the same
way: the configuration resolved once per directory (``config.ConfigStore``, one
per workspace folder in the server), the source roots a project's module names
come from, the files of a project discovered as the CLI discovers them, bytes
that stand in for files on disk (standard input, an editor's unsaved buffers, a
file the MCP server read through its confined reader), and the cache.  The
front end builds a ``Workspace`` with what differs between them (how paths are
shown, how files are read) and hands it to ``project.driver.run_project``,
which, with the runner below it, only reads it.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Callable, Optional, Union

from jaxlint.settings import LintSettings
from jaxlint.workspace.observed import ObservedFacts
from jaxlint.workspace.config import ConfigError, ConfigStore
from jaxlint.workspace.discovery import Discovery, discover, is_excluded

_Cache = object  # jaxlint.cache.Cache, imported with the first run (a warm run needs it, --show-files does not)


def cli_display(path: Path, cwd: Path) -> Path:
    """The CLI's display path: an absolute path under ``cwd`` shown relative to it."""
    if path.is_absolute():
        try:
            return path.relative_to(cwd)
        except ValueError:
            return path
    return path


class Workspace:
    """Settings, roots, sources and cache of one front end's runs.

    ``stores``: one ``ConfigStore`` for every file (the CLI, the MCP tools), or a
    function from an absolute path to the store that configures it (the language
    server: one per workspace folder, forgotten when a configuration changes).
    ``display``: a path as results and messages name it (default: relative to
    ``cwd`` when below it).  ``read``: a file's bytes (default: from disk;
    the MCP server reads inside its roots only; raises OSError).  ``cache``: a
    ``jaxlint.cache.Cache``, or a function that makes one on first use (None:
    no cache; an exception: no cache).  ``sources``: display path -> the text
    to lint instead of the file on disk.  ``observed``: the facts ``jaxlint observe``
    recorded (``check --observed``), given to every file's settings."""

    def __init__(
        self,
        stores: Union[ConfigStore, Callable[[Path], ConfigStore]],
        cwd: Optional[Path] = None,
        *,
        cache: Union[None, _Cache, Callable[[], Optional[_Cache]]] = None,
        force_exclude: bool = False,
        display: Optional[Callable[[Path], Path]] = None,
        read: Optional[Callable[[Path], bytes]] = None,
        sources: Optional[dict[str, Union[str, bytes]]] = None,
        observed: Optional[ObservedFacts] = None,
    ) -> None:
        self._store_for = (lambda _path: stores) if isinstance(stores, ConfigStore) else stores
        self.cwd = Path(cwd) if cwd is not None else Path.cwd()
        self._cache = cache
        self._cache_made = not callable(cache)
        self.force_exclude = force_exclude
        self._display = display
        self._read = read
        self.sources: dict[str, Union[str, bytes]] = dict(sources or {})
        self._discovered: dict[Path, list[Path]] = {}
        # `check --observed`: the facts `jaxlint observe` recorded, in every file's settings
        self.observed = observed

    # ------------------------------------------------------------------ configuration

    def store_for(self, path: Path) -> ConfigStore:
        return self._store_for(Path(os.path.abspath(path)))

    def settings_for(self, path: Path) -> LintSettings:
        """The settings the configuration gives ``path`` (a display path or absolute)."""
        absolute = Path(os.path.abspath(path))
        settings = self._store_for(absolute).settings_for(absolute)
        if self.observed is not None:
            settings = replace(settings, observed=self.observed.for_file(absolute))
        return settings

    def src_for(self, root: Path) -> tuple[Optional[list[str]], Path]:
        """Project root -> (its ``src`` setting or None, the directory it is relative to)."""
        cfg = self.store_for(root).for_dir(Path(os.path.abspath(root))).cfg
        return cfg.src, cfg.root

    # ------------------------------------------------------------------ files

    def display(self, path: Path) -> Path:
        if self._display is not None:
            return self._display(path)
        return cli_display(path, self.cwd)

    def discover(self, paths) -> Discovery:
        """The files under ``paths`` (files and folders), as `jaxlint check` finds
        them, named by their display paths."""
        paths = list(paths)
        store = self.store_for(Path(paths[0]) if paths else self.cwd)  # one store for all (a folder's)
        found = discover(paths, store.for_dir, store.cwd, force_exclude=self.force_exclude)
        found.files = [self.display(f) for f in found.files]
        return found

    def is_excluded(self, path: Path) -> bool:
        """Whether the file ``path`` is excluded (as ``--force-exclude`` decides for a named file)."""
        absolute = Path(os.path.abspath(path))
        store = self.store_for(absolute)
        return is_excluded(absolute, False, store.for_dir, store.cwd)

    def files_of(self, root: Path) -> list[Path]:
        """The files of the project at ``root`` (display paths), discovered once."""
        found = self._discovered.get(root)
        if found is None:
            found = self._discovered[root] = self.discover((str(root),)).files
        return list(found)

    def forget_files(self) -> None:
        """Files were created or deleted: discover the projects again."""
        self._discovered.clear()

    def read(self, path: Path) -> bytes:
        """The bytes of a file (raises OSError)."""
        if self._read is not None:
            return self._read(Path(path))
        return Path(path).read_bytes()

    def data_of(self, name: str) -> bytes:
        """The bytes to lint as file ``name`` (a display path): its source, else the disk's."""
        data = self.sources.get(name)
        if data is None:
            return self.read(Path(name))
        return data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data

    # ------------------------------------------------------------------ cache

    @property
    def cache(self):
        """The cache (``jaxlint.cache.Cache``) or None."""
        if not self._cache_made:
            self._cache_made = True
            try:
                self._cache = self._cache()  # type: ignore[operator]
            except (ConfigError, OSError):  # a broken configuration: no cache, the lints still run
                self._cache = None
        return self._cache


def cache_in(cache_dir: Optional[Path]):
    """A function that makes the cache in ``cache_dir`` (keyed on this jaxlint's
    rules), for ``Workspace(cache=...)``; None when there is no cache."""
    if cache_dir is None:
        return None

    def make():
        from jaxlint.cache import Cache
        from jaxlint.workspace.ruleinfo import source_digest

        return Cache(cache_dir, source_digest())

    return make
