"""Expand command-line paths into the Python files to lint.

Directories are walked in sorted order and yield the files the configuration's
``include`` / ``extend-include`` globs match (default ``*.py``, ``*.pyi``, ``*.ipynb``:
a notebook's code cells are linted as one module).
Skipped while walking: version-control and tool directories (``.git``,
``__pycache__``, ``build``, ``node_modules``, ...), virtual environments
(directories holding ``pyvenv.cfg``), links to directories, paths matched by ``.gitignore`` files
(the ones inside the walked tree and the ones above it up to the repository
root) unless ``respect-gitignore = false``, and the configuration's
``exclude`` / ``extend-exclude`` globs.  A path named on the command line is
linted even when excluded, unless ``--force-exclude`` is given.

Discovery resolves no configuration itself: it reads the resolved configuration
of each directory (``config.ResolvedConfig``, through the ``config_for`` the
workspace hands it: ``ConfigStore.for_dir``, which reads each configuration
file once).
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional, Protocol

import pathspec


class DirConfig(Protocol):
    """What discovery reads of a directory's resolved configuration (``config.ResolvedConfig``)."""

    respect_gitignore: bool

    def is_included(self, path: Path) -> bool: ...

    def is_excluded(self, path: Path, is_dir: bool) -> bool: ...


# an absolute directory -> its resolved configuration
ConfigFor = Callable[[Path], DirConfig]


ALWAYS_SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".venv",
        "venv",
        ".direnv",
        ".eggs",
        ".ipynb_checkpoints",
        ".svn",
        ".bzr",
        "__pycache__",
        "build",
        "dist",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".jaxlint_cache",
        "node_modules",
        "site-packages",
        "__pypackages__",
    }
)


# build outputs by convention, unless the folder is a package of the project's own
# (``mylib/dist/__init__.py``)
_BUILD_OUTPUTS = frozenset({"build", "dist"})


def is_skipped_dir(path: Path) -> bool:
    name = path.name
    if name in _BUILD_OUTPUTS:
        return not (path / "__init__.py").is_file()
    if name in ALWAYS_SKIPPED_DIRS or name.endswith(".egg-info"):
        return True
    if (path / "pyvenv.cfg").is_file():
        return True  # a virtual environment, whatever it is called (env, .env, ...)
    return False


@dataclass
class Discovery:
    """The files to lint (sorted, unique) and one error line per bad path."""

    files: list[Path] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class _GitIgnores:
    """The .gitignore specs that apply inside a directory, memoised per directory."""

    def __init__(self) -> None:
        self._own: dict[Path, Optional[pathspec.GitIgnoreSpec]] = {}

    def own(self, directory: Path) -> Optional[pathspec.GitIgnoreSpec]:
        if directory not in self._own:
            spec = None
            gi = directory / ".gitignore"
            try:
                if gi.is_file():
                    lines = gi.read_text(encoding="utf-8", errors="replace").splitlines()
                    spec = pathspec.GitIgnoreSpec.from_lines(lines)
            except OSError:
                spec = None
            self._own[directory] = spec
        return self._own[directory]

    def ancestors(self, directory: Path) -> list[tuple[Path, pathspec.GitIgnoreSpec]]:
        """Specs of ``directory`` and its parents up to the repository root
        (the nearest directory holding ``.git``); only ``directory`` itself
        when it is not inside a repository."""
        chain = [directory]
        for parent in directory.parents:
            if (chain[-1] / ".git").exists():
                break
            chain.append(parent)
        else:
            if not (chain[-1] / ".git").exists():
                chain = [directory]
        out = []
        for d in reversed(chain):
            spec = self.own(d)
            if spec is not None:
                out.append((d, spec))
        return out


def _ignored(specs: Iterable[tuple[Path, pathspec.GitIgnoreSpec]], path: Path, is_dir: bool) -> bool:
    ignored = False
    for base, spec in specs:
        try:
            rel = path.relative_to(base).as_posix()
        except ValueError:
            continue
        if is_dir:
            rel += "/"
        # a later (deeper) file may re-include with "!", so let each decide in turn
        res = spec.check_file(rel)
        if res.include is not None:
            ignored = bool(res.include)
    return ignored


def discover(paths: Iterable[str], config_for: ConfigFor, cwd: Path, force_exclude: bool = False) -> Discovery:
    """Expand ``paths`` (files and directories) into the files to lint (``cwd``:
    the directory the run started in, where ``--force-exclude`` stops looking up)."""
    out = Discovery()
    seen: set[Path] = set()
    gitignores = _GitIgnores()
    for raw in paths:
        path = Path(raw)
        abs_path = Path(os.path.abspath(path))
        if not abs_path.exists():
            problem = link_problem(abs_path) if os.path.lexists(abs_path) else None
            out.errors.append(f"{raw}: {problem or 'no such file or directory'}")
            continue
        is_dir = abs_path.is_dir()
        if force_exclude and is_excluded(abs_path, is_dir, config_for, cwd, gitignores):
            continue
        if not is_dir and not abs_path.is_file():  # reading a FIFO or a device would wait forever
            out.errors.append(f"{raw}: {not_regular(abs_path)}")
            continue
        if not is_dir:
            if abs_path not in seen:
                seen.add(abs_path)
                out.files.append(path)
            continue
        specs = []
        if config_for(abs_path).respect_gitignore:
            specs = gitignores.ancestors(abs_path.parent) if abs_path.parent != abs_path else []
        _walk(path, abs_path, specs, config_for, gitignores, seen, out)
    out.files.sort(key=lambda p: str(p))
    return out


def is_excluded(
    abs_path: Path, is_dir: bool, config_for: ConfigFor, cwd: Path, gitignores: Optional[_GitIgnores] = None
) -> bool:
    """Whether a path named on the command line is excluded (for --force-exclude):
    it, or a directory above it (up to the current directory), is skipped,
    matches ``exclude`` or is git-ignored.  The path need not exist."""
    gitignores = gitignores or _GitIgnores()
    if is_dir and is_skipped_dir(abs_path):
        return True
    for parent in abs_path.parents:
        if parent == cwd or cwd not in parent.parents:
            break
        if is_skipped_dir(parent):
            return True
    config = config_for(abs_path.parent)
    if config.is_excluded(abs_path, is_dir):
        return True
    if config.respect_gitignore and _ignored(gitignores.ancestors(abs_path.parent), abs_path, is_dir):
        return True
    return False


def _walk(
    path: Path,
    abs_path: Path,
    specs: list[tuple[Path, pathspec.GitIgnoreSpec]],
    config_for: ConfigFor,
    gitignores: _GitIgnores,
    seen: set[Path],
    out: Discovery,
) -> None:
    config = config_for(abs_path)
    if config.respect_gitignore:
        own = gitignores.own(abs_path)
        if own is not None:
            specs = [*specs, (abs_path, own)]
    try:
        entries = sorted(os.scandir(abs_path), key=lambda e: e.name)
    except OSError as exc:
        out.errors.append(f"{path}: cannot be read ({exc.strerror or exc})")
        return
    for entry in entries:
        child_abs = abs_path / entry.name
        child = path / entry.name
        try:
            is_link = entry.is_symlink()
        except OSError:
            continue
        try:
            is_dir = entry.is_dir()  # follows a link; False for a dangling one
        except OSError:
            is_dir = False  # a link loop: reported below if it has a Python file's name
        if is_dir and is_link:
            continue  # never follow directory links (loops, trees outside the project)
        if is_dir:
            if is_skipped_dir(child_abs):
                continue
        elif not config.is_included(child_abs):
            continue
        problem = link_problem(child_abs) if is_link and not is_dir else None
        if problem is not None and entry.name.startswith(".#"):
            continue  # an Emacs lock file (a link to "user@host.pid"): there while a buffer is edited
        # a loop cannot be resolved to match `exclude` globs against; .gitignore needs no resolving
        if problem != LINK_LOOP and config.is_excluded(child_abs, is_dir):
            continue
        if config.respect_gitignore and _ignored(specs, child_abs, is_dir):
            continue
        if is_dir:
            _walk(child, child_abs, specs, config_for, gitignores, seen, out)
            continue
        if problem is not None:  # reported like a missing path, never skipped in silence
            out.errors.append(f"{child}: {problem}")
            continue
        try:
            regular = entry.is_file()  # follows a link
        except OSError:
            regular = False
        if not regular:
            continue  # a FIFO, socket or device named *.py: reading it would wait forever
        if child_abs not in seen:
            seen.add(child_abs)
            out.files.append(child)


def not_regular(path: Path) -> str:
    """Why ``path`` (which exists and is no folder) is not linted."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    kind = ("a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a special file")
    return f"not a regular file but {kind}; only files and folders are linted"


LINK_LOOP = "broken symbolic link (a loop: it leads back to itself)"


def link_problem(path: Path) -> Optional[str]:
    """Why the symbolic link ``path`` leads nowhere (None when it resolves)."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return LINK_LOOP
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return "broken symbolic link (its target does not exist)"
        return f"broken symbolic link ({exc.strerror or exc})"
    return None
