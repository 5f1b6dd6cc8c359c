"""Project roots, source roots and module names.

* The project root of a file is the nearest directory at or above it holding a
  ``pyproject.toml``, ``setup.cfg``, ``setup.py``, ``jaxlint.toml`` or
  ``.jaxlint.toml``; failing that, the root of the git work tree (a directory
  holding ``.git``); failing that, the current directory if the file is below
  it, else there is none (single-file analysis).  A current directory inside a
  package gives way to the folder holding the top-level package (mypy's crawl).
  A package is a folder with an ``__init__.py`` whose name is an identifier (a
  checkout named ``long-range-arena`` is a folder, whatever it holds).
  A git or current-directory root that holds no package of its own is a folder
  of projects: a subfolder is a project when the root holds no code at all, or
  when it holds a package of its own beside the root's loose scripts
  (``unmarked_root``).
* The source roots are the ``src = [...]`` setting of the configuration
  (paths relative to the configuration file's directory, globs allowed), or by
  default, as Ruff does, the project root and its ``src`` subdirectory.
* A file's module name is its path relative to the deepest source root that
  contains it, dots for slashes: ``src/pkg/losses.py`` -> ``pkg.losses``,
  ``pkg/__init__.py`` -> ``pkg``.  Directories need no ``__init__.py``
  (namespace packages).  A file under no source root, or whose path relative
  to its root has a part that is not an identifier, has no module name.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
import re
from pathlib import Path
from typing import Iterable, Optional, Sequence

from jaxlint.paths import resolved
from jaxlint.model.summary_format import absolute_module  # noqa: F401  (re-exported)

PROJECT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", "jaxlint.toml", ".jaxlint.toml")


def find_project_root(path: Path) -> Optional[Path]:
    """The project root of ``path`` (a file or a directory), or None."""
    path = resolved(path)
    start = path if path.is_dir() else path.parent
    for d in (start, *start.parents):
        if any((d / m).is_file() for m in PROJECT_MARKERS):
            return d
    for d in (start, *start.parents):
        if (d / ".git").exists():
            return d
    return None


PACKAGE = "package"  # the directory holds a package (a folder with ``__init__.py``)
FILES = "files"  # ... Python files of its own, and no package


def _is_package(d: Path) -> bool:
    """A folder Python can import as a package: an ``__init__.py`` under a name that is
    an identifier (a checkout named ``long-range-arena`` that holds an ``__init__.py``
    is a folder, not a package: no import statement can name it)."""
    return d.name.isidentifier() and (d / "__init__.py").is_file()


def _holds_code(d: Path) -> Optional[str]:
    """What code the directory holds of its own: PACKAGE, FILES, or None."""
    files = False
    try:
        with os.scandir(d) as it:
            for e in it:
                if e.name.endswith((".py", ".ipynb")) and e.is_file():
                    files = True
                elif e.is_dir(follow_symlinks=False) and _is_package(Path(e.path)):
                    return PACKAGE
    except OSError:
        return None
    return FILES if files else None


def unmarked_root(directory: Path, cwd: Path, memo: Optional[dict] = None) -> Optional[tuple[Path, bool]]:
    """The project root of a file in ``directory`` (absolute, resolved), as
    ``(root, marked)``; None when it is in no project.

    A configuration file (``pyproject.toml``...) marks a project; failing that,
    the git work tree's root; failing that, the current directory when the file
    is below it (``marked`` False), as Ruff does; a current directory that is a
    package (``cd pkg && jaxlint .``) gives way to the folder holding the top-level
    package, so its modules keep their names (``pkg.losses``, as mypy's crawl of the
    ``__init__.py`` chain names them).  A root found by git or the current directory
    that holds no package of its own is a folder of projects (a checkout of
    several, a folder of examples): when it holds no Python file either, each of
    its subfolders is a project of its own; when it holds loose scripts, a
    subfolder (not ``src``, not a package) that holds a package is one.  So a
    file's module names, and so its findings, are the same whether jaxlint runs in
    the project's folder or in the folder above it."""
    for d in (directory, *directory.parents):
        if any((d / m).is_file() for m in PROJECT_MARKERS):
            return d, True
    found: Optional[Path] = None
    marked = True
    for d in (directory, *directory.parents):
        if (d / ".git").exists():
            found = d
            break
    if found is None:
        found, marked = cwd, False
        # run inside a package (`cd pkg && jaxlint .`): the project is the folder that
        # holds the top-level package, as mypy's crawl names modules (`pkg.losses`, not
        # `losses`), so its absolute imports resolve as they do from that folder (and the
        # folders beside the package it imports are of the project too)
        while _is_package(found) and found.parent != found:
            found = found.parent
        if directory != found and found not in directory.parents:
            return None
    memo = {} if memo is None else memo

    def holds(d: Path) -> Optional[str]:
        if d not in memo:
            memo[d] = _holds_code(d)
        return memo[d]

    while directory != found:
        here = holds(found)
        below = found / directory.relative_to(found).parts[0]
        if here == PACKAGE:
            break
        if here == FILES and (below.name == "src" or _is_package(below) or holds(below) != PACKAGE):
            # loose scripts beside the folders of a project; but a folder that holds a
            # package of its own beside loose scripts (`notes.py`, `proj_a/pkg/`) is a
            # project, as it is when jaxlint runs in it
            break
        found = below
    return found, marked


def expand_src(base: Path, entries: Sequence[str]) -> list[Path]:
    """The directories named by a ``src`` setting, relative to ``base``; an entry
    with glob characters expands to the directories it matches (sorted);
    ``~`` and environment variables are expanded as Ruff does."""
    out: list[Path] = []
    for entry in entries:
        text = os.path.expandvars(os.path.expanduser(entry))
        p = Path(text)
        full = p if p.is_absolute() else base / p
        if any(c in text for c in "*?["):
            for match in sorted(glob.glob(str(full))):
                if os.path.isdir(match):
                    out.append(Path(match).resolve())
        else:
            out.append(full.resolve())
    return out


def default_src(project_root: Path) -> list[Path]:
    root = Path(project_root).resolve()
    return [root, root / "src"]


@dataclass(frozen=True)
class ModuleName:
    name: str
    is_package: bool  # the file is a package's __init__.py
    root: Path  # the source root it was named from


class SourceRoots:
    """The source roots of one project; names files as modules."""

    def __init__(self, roots: Iterable[Path]) -> None:
        seen: list[Path] = []
        for r in roots:
            r = Path(r).resolve()
            if r not in seen:
                seen.append(r)
        # deepest first, so src/ wins over the project root that contains it
        self.roots: tuple[Path, ...] = tuple(sorted(seen, key=lambda p: -len(p.parts)))

    @classmethod
    def for_project(cls, project_root: Path, src: Optional[Sequence[str]] = None,
                    config_dir: Optional[Path] = None) -> "SourceRoots":
        """``src`` as read from the configuration (relative to ``config_dir``,
        the project root when omitted); None means the default."""
        if src is None:
            return cls(default_src(project_root))
        return cls(expand_src(Path(config_dir or project_root).resolve(), src))

    def module_name(self, path: Path) -> Optional[ModuleName]:
        path = resolved(path)
        if path.suffix == ".ipynb":
            return self._notebook_name(path)
        if path.suffix != ".py":
            return None
        for root in self.roots:
            try:
                rel = path.relative_to(root)
            except ValueError:
                continue
            parts = list(rel.parts)
            parts[-1] = parts[-1][:-3]
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            if not parts or not all(p.isidentifier() for p in parts):
                return None
            return ModuleName(".".join(parts), is_package, root)
        return None


    def _notebook_name(self, path: Path) -> Optional[ModuleName]:
        """A notebook is a script of its project: never imported, but its imports
        resolve and its calls give facts.  Its name cannot clash with a module's:
        ``notebooks/01-intro.ipynb`` -> ``__notebook__.notebooks._01_intro``."""
        for root in self.roots:
            try:
                rel = path.relative_to(root)
            except ValueError:
                continue
            parts = [re.sub(r"\W", "_", p) for p in (*rel.parts[:-1], rel.stem)]
            parts = [p if p.isidentifier() else f"_{p}" for p in parts]
            return ModuleName(".".join(("__notebook__", *parts)), False, root)
        return None
