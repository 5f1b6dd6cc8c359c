"""Build a ProjectIndex from files on disk (parse each once, summarise, merge).

The engine will feed summaries from its own parse (and its cache); this loader
is the stand-alone path: tests, tools, and a project not yet cached.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional, Sequence

import libcst as cst

from jaxlint.paths import resolved
from jaxlint.lint.linter import decode_source
from jaxlint.project.index import ProjectIndex
from jaxlint.project.roots import SourceRoots, find_project_root
from jaxlint.model.summary import extract_summary
from jaxlint.workspace.discovery import is_skipped_dir



@dataclass
class LoadedProject:
    root: Path
    roots: SourceRoots
    index: ProjectIndex
    errors: list[str] = field(default_factory=list)  # one line per file left out


def python_files(root: Path) -> list[Path]:
    """The ``.py`` files below ``root``, in sorted order, skipping hidden
    directories, build outputs and virtual environments."""
    out: list[Path] = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(
            x for x in dirs
            if not x.startswith(".") and not is_skipped_dir(Path(d) / x)
        )
        out.extend(Path(d) / f for f in sorted(files) if f.endswith(".py"))
    return out


def summarise_file(path: Path, roots: SourceRoots) -> tuple[Optional[dict], Optional[str]]:
    """(summary, None) or (None, one-line reason)."""
    name = roots.module_name(path)
    if name is None:
        return None, f"{path}: not under a source root as an importable module"
    try:
        data = path.read_bytes()
    except OSError as exc:
        return None, f"{path}: cannot be read ({exc.strerror or exc})"
    text, err = decode_source(data)
    if text is None:
        return None, f"{path}: {err}"
    try:
        module = cst.parse_module(text)
    except Exception as exc:  # noqa: BLE001 - any parser failure is one line
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return None, f"{path}: syntax error: {first}"
    return extract_summary(module, name.name, name.is_package), None


def load_project(root: Path, src: Optional[Sequence[str]] = None,
                 files: Optional[Iterable[Path]] = None) -> LoadedProject:
    """Summarise every Python file of the project at ``root`` (or ``files``)
    and merge them.  ``src`` is the ``src`` setting (relative to ``root``)."""
    root = Path(root).resolve()
    roots = SourceRoots.for_project(root, src)
    project = LoadedProject(root, roots, ProjectIndex())
    for path in (python_files(root) if files is None else files):
        summary, err = summarise_file(Path(path), roots)
        if summary is None:
            project.errors.append(err or f"{path}: left out")
            continue
        full = resolved(path)
        project.index.add(summary, full.relative_to(root).as_posix()
                          if full.is_relative_to(root) else str(path))
    return project


__all__ = ["LoadedProject", "load_project", "load_project_at", "python_files", "summarise_file"]


def load_project_at(path: Path) -> Optional[LoadedProject]:
    """The project that ``path`` belongs to, its ``src`` setting read from the
    configuration that applies there (``jaxlint.workspace.config``); None when ``path``
    is in no project.  A bad configuration raises ``ConfigError`` (one line)."""
    from jaxlint.workspace.config import find_config_file, load_config

    root = find_project_root(Path(path))
    if root is None:
        return None
    cfg_file = find_config_file(Path(path))
    src, base = None, root
    if cfg_file is not None:
        cfg = load_config(cfg_file)
        if cfg.src is not None:
            src, base = cfg.src, cfg.root
    roots = SourceRoots.for_project(root, src, base)
    project = LoadedProject(root, roots, ProjectIndex())
    for f in python_files(root):
        summary, err = summarise_file(f, roots)
        if summary is None:
            project.errors.append(err or f"{f}: left out")
        else:
            project.index.add(summary, f.relative_to(root).as_posix())
    return project
