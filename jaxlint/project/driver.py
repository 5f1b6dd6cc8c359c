"""Lint a set of files as projects: rounds until the cross-module facts settle.

Round 1 lints every file once, as the single-file engine always did, with its
module name set: each result carries the file's summary and what its traced
code tells the modules it calls.  Then, per project (files grouped by project
root, named by the source roots), the summaries make a ``ProjectIndex``; the
calls and transformation sites resolve to functions of other files; those files
get the facts and are linted again.  Their own traced calls may reach further
modules, so this repeats (at most ``MAX_ROUNDS``), each round re-linting only
the files whose facts changed.  A helper module that never names JAX is skipped
by the prefilter in round 1 and analysed in full once a fact reaches it.

The cache keys each result on the file's bytes, its settings and the facts it
was given (``LintSettings.fingerprint``), so a warm run is warm in every round,
and editing a helper re-lints only the files whose facts changed.
"""

from __future__ import annotations

import json
import os
import re
import traceback
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Optional, Protocol, Sequence, Union

from jaxlint.cache import Cache
from jaxlint.findings import FileResult
from jaxlint.model import reach_closure
from jaxlint.model.factreads import same_answers
from jaxlint.project.facts import canonical, carries_kind, incoming_facts
from jaxlint.project.index import ProjectIndex
from jaxlint.project.roots import PROJECT_MARKERS, ModuleName, SourceRoots, unmarked_root
from jaxlint.lint.runner import Memo, RunResult, WorkerPool, default_jobs, run
from jaxlint.settings import LintSettings

MAX_ROUNDS = 6
# what a file that names a derivative must spell (model/gradtrace.names_derivative)
_DERIVATIVE_WORDS = re.compile(rb"grad|jvp|vjp|jac|hessian|lineari[sz]e|linear_transpose|closure_convert|custom_"
                               rb"|jet|optax|jaxopt|optimistix|trax|objax|elegy|keras|flax\.training|import\s*\*"
                               rb"|numpyro|blackjax|tensorflow_probability|scipy\.optimize|netket|flowjax")
# parsed trees kept between rounds, in all workers together (an estimate: see linter.TreeStore);
# a project whose trees do not fit parses the rest again when they come back
TREE_BUDGET = 1 << 30
# a project larger than this is not indexed around a few named files
MAX_CONTEXT_FILES = 5000


class _Project:
    def __init__(self, root: Path, roots: SourceRoots, marked: bool) -> None:
        self.root = root
        self.roots = roots
        self.marked = marked  # found by a pyproject/setup.cfg/git marker, not the cwd fallback
        self.files: list[str] = []
        self.module: dict[str, ModuleName] = {}
        self.packages: frozenset[str] = frozenset()
        # folder (a module prefix) -> the first names of the modules in it: what an absolute
        # import in a script of that folder may name (`python lib/run.py` puts `lib/` first
        # on sys.path, so its `import util` is `lib/util.py`)
        self.beside: dict[str, frozenset[str]] = {}
        self.index: Optional[ProjectIndex] = None  # reused across rounds
        # where the whole project was asked for, the files of it that no module name
        # places (the ``__init__.py`` of a root that is a package itself, two files of one
        # name): read as text only (None: the project was not linted whole)
        self.unplaced: Optional[list[str]] = None
        self.indexed: frozenset[str] = frozenset()
        self.imports: dict[str, frozenset[str]] = {}  # file the prefilter skipped -> what it imports
        self.resolved: dict = {}  # what each file's output resolves to (facts.incoming_facts' memo)
        self.candidates: dict = {}  # file -> (its output, the skipped modules its traced calls may name)
        # a .py file under the root that the run did not lint may take a derivative (None: not asked yet)
        self.unlinted_deriving: Optional[bool] = None
        # the project's derivative reach, computed once per run (_underived): each file's
        # summary (held: its id is not reused) and content fingerprint, and the last inputs
        # and their answer
        self.reach_prints: dict[str, tuple[dict, int]] = {}
        self.underived_memo: Optional[tuple[tuple, dict[str, list[str]]]] = None


def _projects(files: Sequence[Path], src_for: Callable[[Path], tuple[Optional[list[str]], Path]]) -> dict[str, _Project]:
    """display path -> its project (files outside any project are left out)."""
    by_root: dict[Path, _Project] = {}
    root_of_dir: dict[Path, Optional[Path]] = {}
    holds_code: dict[Path, Optional[str]] = {}
    marks: dict[Optional[Path], bool] = {}
    out: dict[str, _Project] = {}
    cwd = Path.cwd().resolve()
    for f in files:
        absolute = Path(os.path.abspath(f))
        d = absolute.parent
        if d not in root_of_dir:
            # a pyproject/setup.cfg/git root, else the current directory; a folder of
            # projects (no Python file of its own) gives each subfolder its own
            hit = unmarked_root(d.resolve(), cwd, holds_code)
            found, marked = hit if hit is not None else (None, False)
            root_of_dir[d] = found
            marks[found] = marks.get(found, False) or marked
        root = root_of_dir[d]
        if root is None:
            continue
        project = by_root.get(root)
        if project is None:
            src, config_dir = src_for(root)
            project = by_root[root] = _Project(root, SourceRoots.for_project(root, src, config_dir), marks[root])
        name = project.roots.module_name(absolute)
        if name is None:
            continue
        project.files.append(str(f))
        project.module[str(f)] = name
        out[str(f)] = project
    for project in by_root.values():
        # two files with one module name: that module is unknown
        dup = {n for n, k in Counter(m.name for m in project.module.values()).items() if k > 1}
        for f in [f for f, m in project.module.items() if m.name in dup]:
            del project.module[f]
            out.pop(f, None)
        if dup:  # (a symlinked copy of a module, two scripts of one name): no module of the project
            project.files = [f for f in project.files if f in project.module]
        project.packages = frozenset(m.name.split(".", 1)[0] for m in project.module.values())
        beside: dict[str, set[str]] = {}
        regular = {m.name for m in project.module.values() if m.is_package}  # folders with __init__.py
        for m in project.module.values():
            prefix, _, rest = m.name.rpartition(".")
            while prefix and rest:
                beside.setdefault(prefix, set()).add(rest.split(".", 1)[0])
                prefix, _, last = prefix.rpartition(".")
                rest = f"{last}.{rest}"
        project.beside = {k: frozenset(v) for k, v in beside.items() if k not in regular}
    return out


def _packages_for(project: "_Project", m: ModuleName) -> frozenset[str]:
    """The names an absolute import in module ``m`` may resolve to inside the project:
    its top-level modules, and those beside ``m`` in its folder (a script's folder is
    first on ``sys.path``)."""
    folder = "" if m.is_package else m.name.rpartition(".")[0]  # an __init__ is never a script
    near = project.beside.get(folder) if folder else None
    return project.packages | near if near else project.packages


class WorkspaceView(Protocol):
    """What the driver reads of a front end's ``jaxlint.workspace.Workspace``."""

    sources: dict[str, Union[str, bytes]]  # display path -> text to lint instead of the disk's

    @property
    def cache(self) -> Optional[Cache]: ...

    def settings_for(self, path: Path) -> LintSettings: ...

    def src_for(self, root: Path) -> tuple[Optional[list[str]], Path]: ...

    def files_of(self, root: Path) -> list[Path]: ...

    def read(self, path: Path) -> bytes: ...


@dataclass(frozen=True)
class RunOptions:
    """How a project run lints (the workspace says what with)."""

    jobs: Optional[int] = None
    show_progress: Optional[bool] = None
    file_timeout: Optional[float] = None
    # lint the rest of each project named by a marker file too, for the facts it gives
    context: bool = True
    # lint in this process, results remembered here (the language server; no worker, no snapshot)
    memo: Optional[Memo] = None


def describe_projects(files: Sequence[Path], workspace: WorkspaceView
                      ) -> list[tuple[Path, tuple[Path, ...], bool, int]]:
    """The projects ``files`` belong to, as ``run_project`` groups them: (project
    root, its source roots, whether a marker file found the root (else it is the
    current directory), how many of ``files`` it holds); for ``--verbose``."""
    by_root: dict[Path, tuple[_Project, int]] = {}
    for project in _projects(files, workspace.src_for).values():
        kept, n = by_root.get(project.root, (project, 0))
        by_root[project.root] = (kept, n + 1)
    return [(p.root, p.roots.roots, p.marked, n) for p, n in by_root.values()]


def run_project(files: Sequence[Path], workspace: WorkspaceView, options: RunOptions = RunOptions()) -> RunResult:
    """Lint ``files`` (display paths) with the project-wide model.

    The workspace gives each file's settings, the source roots of each project,
    the files of a project (``files_of``: when ``files`` are only part of a
    project, the rest of it is linted too, from the cache when warm, for the
    facts it gives; only ``files`` are reported), the texts that stand in for
    files on disk (``sources``), how a file is read, and the cache."""
    wanted = {str(f) for f in files}
    src_for = workspace.src_for
    settings_for = workspace.settings_for
    project_of = _projects(files, src_for)
    whole: dict[Path, set[str]] = {}  # root of a marked project -> all its files
    if options.context:
        extra: list[Path] = []
        for project in {id(p): p for p in project_of.values()}.values():
            if project.marked:
                others = workspace.files_of(project.root)
                whole[project.root] = {str(f) for f in others}
            else:
                # the current directory, or the folder holding the package run in: the
                # part of it the files named are in, and what that imports
                heads = set()
                for f in project.files:
                    rel = os.path.relpath(os.path.realpath(f), project.root).split(os.sep, 1)[0]
                    if rel != os.pardir:
                        heads.add(rel.removesuffix(".py"))
                others = _reached_from(project.root, heads, workspace.files_of, workspace.read)
            others = [f for f in others if str(f) not in wanted]
            if others and len(others) <= MAX_CONTEXT_FILES:
                extra.extend(others)
        if extra:
            files = [*files, *extra]
            project_of = _projects(files, src_for)
        for project in {id(p): p for p in project_of.values()}.values():
            # every file of the project is linted, each as a module of it
            everything = whole.get(project.root)
            project.unplaced = sorted(everything - set(project.files)) if everything is not None else None
    cache = workspace.cache
    jobs, show_progress, file_timeout = options.jobs, options.show_progress, options.file_timeout
    read = workspace.read

    def run_files(files: Sequence[Path], settings: Callable[[Path], LintSettings], cache: Optional[Cache],
                  **kwargs) -> RunResult:
        return run(files, settings, cache, read=read, memo=options.memo, **kwargs)

    facts: dict[str, str] = {}
    summarize: set[str] = set()
    x64_from_folder: set[str] = set()  # files below a conftest.py/__init__.py enabling x64

    def settings(path: Path) -> LintSettings:
        base = settings_for(path)
        name = str(path)
        project = project_of.get(name)
        if project is None:
            return base
        m = project.module[name]
        return replace(
            base,
            module=m.name,
            is_package=m.is_package,
            project_packages=_packages_for(project, m),
            facts=facts.get(name, ""),
            summarize=name in summarize,
            x64=base.x64 or name in x64_from_folder,
        )

    snapshot_key = None
    data_for: dict[str, Union[str, bytes]] = dict(workspace.sources)
    if cache is not None and options.memo is None:
        snapshot_key = _snapshot_key(files, settings, cache, data_for, read)
        known = cache.get_snapshot(snapshot_key) if snapshot_key is not None else None
        if known is not None:
            # an unchanged project: its facts are known, each result is read once, without its summary
            for name, (fact, helper, x64) in known.items():
                if name in project_of:
                    facts[name] = fact
                    (summarize.add if helper else summarize.discard)(name)
                    (x64_from_folder.add if x64 else x64_from_folder.discard)(name)
            outcome = run_files(files, settings, cache, jobs=jobs, show_progress=show_progress,
                                file_timeout=file_timeout, data_for=data_for, with_project=False)
            if not outcome.tracebacks:
                return _wanted(outcome, wanted, settings)
            # facts that break the analysis: not what a run wrote; forget them and start over
            cache.discard_snapshot(snapshot_key)
            facts.clear()
            summarize.clear()
            x64_from_folder.clear()
    pool = WorkerPool(jobs or default_jobs(), file_timeout, TREE_BUDGET)
    try:
        if options.memo is None:
            pool.start(min(2, len(files)))  # they import the linter while round 1 reads the cache
        def keep(name: str) -> None:
            """``name``'s latest result stands for its new facts too (it asked none of
            the facts that changed): remembered for its new settings, as a lint would be."""
            result = latest_of.get(name)
            data = _bytes_of(name, data_for, read)
            if result is None or data is None:
                return
            if cache is not None:
                cache.put(cache.key(data, settings(Path(name))), result)
            if options.memo is not None:
                options.memo.remember(name, data_for.get(name, data), settings(Path(name)), result)

        latest_of: dict[str, FileResult] = {}
        outcome = _rounds(files, wanted, project_of, settings, cache, facts, summarize, x64_from_folder,
                          pool, jobs, show_progress, file_timeout, data_for, run_files, read, latest_of, keep)
    except Exception:  # a defect of the project analysis: lint each file on its own rather than stop the run
        outcome = None
        failure = traceback.format_exc()
    finally:
        pool.close()
    if outcome is None:
        facts.clear()
        summarize.clear()
        x64_from_folder.clear()
        outcome = run_files(files, settings, None, jobs=jobs, show_progress=show_progress,
                            file_timeout=file_timeout, data_for=data_for)
        final = _wanted(outcome, wanted, settings)
        final.errors.append("internal error in the analysis across modules: each file was linted on its own "
                            "(run with --verbose for the traceback)")
        final.tracebacks.append("analysis across modules:\n" + failure)
        final.uncacheable += 1
        return final
    if snapshot_key is not None and not outcome.uncacheable:
        cache.put_snapshot(snapshot_key, {
            name: [facts.get(name, ""), name in summarize, name in x64_from_folder]
            for name in sorted(set(facts) | summarize | x64_from_folder)
        })
    return _wanted(outcome, wanted, settings)


def _snapshot_key(files: Sequence[Path], settings: Callable[[Path], LintSettings], cache: Cache,
                  data_for: dict[str, Union[str, bytes]], read: Callable[[Path], bytes]) -> Optional[str]:
    """A digest of every file's name, bytes and round-1 settings (None when one
    cannot be read: that run is not one to remember).  Fills ``data_for``."""
    import hashlib

    h = hashlib.sha256()
    for f in sorted(str(f) for f in files):
        data = _bytes_of(f, data_for, read)
        if data is None:
            return None
        h.update(f"{f}\0{cache.key(data, settings(Path(f)))}\0".encode())
    return h.hexdigest()


def _wanted(outcome: RunResult, wanted: set[str], settings: Callable[[Path], LintSettings]) -> RunResult:
    """``outcome`` restricted to the files asked for, with their final settings."""
    final = RunResult(cache_hits=outcome.cache_hits, settings_of={name: settings(Path(name)) for name in wanted})
    final.results = [r for r in outcome.results if r.path in wanted]
    final.errors = [e for e in outcome.errors if e.split(": ", 1)[0] in wanted]
    final.tracebacks = [tb for tb in outcome.tracebacks if tb.split(":\n", 1)[0] in wanted]
    return final


def _rounds(files, wanted, project_of, settings, cache, facts, summarize, x64_from_folder,
            pool, jobs, show_progress, file_timeout, data_for, run_files, read, latest, keep) -> RunResult:
    """``latest`` (empty, filled here): each file's latest result; ``keep(name)``:
    that result stands for the file's new facts (it is not linted again)."""
    outcome = run_files(files, settings, cache, jobs=jobs, show_progress=show_progress, file_timeout=file_timeout,
                  pool=pool, data_for=data_for)
    uncacheable = outcome.uncacheable
    latest.update((r.path, r) for r in outcome.results)
    errors = {line.split(": ", 1)[0]: line for line in outcome.errors}
    tracebacks = {tb.split(":\n", 1)[0]: tb for tb in outcome.tracebacks}
    hits = outcome.cache_hits
    projects = {id(p): p for p in project_of.values()}
    lost: set[str] = set()  # failed in a later round (a crash, a time-out, a bug): settled as failed
    for _ in range(MAX_ROUNDS - 1):
        again: list[Path] = []
        kept: list[str] = []
        for project in projects.values():
            again.extend(_next_round(project, latest, facts, summarize, data_for, read, kept))
        for name in kept:
            if name not in lost:
                keep(name)
        again.extend(_x64_round(project_of, latest, x64_from_folder))
        again = [p for p in again if str(p) not in lost]
        if not again:
            break
        more = run_files(sorted(set(again), key=str), settings, cache, jobs=jobs, show_progress=False,
                   file_timeout=file_timeout, pool=pool, data_for=data_for)
        hits += more.cache_hits
        uncacheable += more.uncacheable
        for r in more.results:
            if r.path in more.lost:
                # keep what it told the project before (its summary stays in the index, so
                # the facts do not swing back and forth), report the failure, do not retry
                before = latest.get(r.path)
                if r.project is None and before is not None:
                    r.project = before.project
                lost.add(r.path)
            else:
                errors.pop(r.path, None)
            latest[r.path] = r
        for line in more.errors:
            errors[line.split(": ", 1)[0]] = line
        for tb in more.tracebacks:
            tracebacks[tb.split(":\n", 1)[0]] = tb
    final = RunResult(cache_hits=hits, uncacheable=uncacheable)
    final.results = [latest[name] for name in sorted(latest)]
    final.errors = [errors[name] for name in sorted(errors)]
    final.tracebacks = [tracebacks[name] for name in sorted(tracebacks)]
    return final


def _x64_round(project_of: dict[str, _Project], latest: dict[str, FileResult], x64_from_folder: set[str]) -> list[Path]:
    """Files of a folder whose ``conftest.py`` (or package ``__init__.py``)
    switches x64 on are linted with x64 on (``LintSettings.x64``), as pytest
    or the import system runs that file first.  So is the library code (every
    file but tests) of a top-level package one of whose own files, not a test, may
    switch x64 on when it runs (``jax.config.update("jax_enable_x64", v)`` in a precision
    config, a service's set-up, an entry script): whether x64 is on where that code
    runs is unknown, and a rule that needs it off stays silent.  Updates
    ``x64_from_folder``; returns the files whose setting changed."""
    folders = set()
    switching: set[tuple[int, str]] = set()  # (project, top-level package) whose non-test code may switch x64 on
    for name, r in latest.items():
        if r.project is not None and name in project_of:
            if r.project.get("x64"):
                folders.add(Path(os.path.abspath(name)).parent)
            switch = r.project.get("x64_switch")
            if switch and not is_test_path(name):
                project = project_of[name]
                # its own package, and the project's packages it imports (a driver script)
                switching.add(_package_of(project, name))
                if isinstance(switch, list):
                    switching.update((id(project), p) for p in switch)
    if not folders and not switching and not x64_from_folder:
        return []  # the common case: no folder switches x64 on
    changed = []
    for name, project in project_of.items():
        path = Path(os.path.abspath(name))
        below = any(parent in folders for parent in path.parents if parent == project.root or project.root in parent.parents)
        below = below or _package_of(project, name) in switching and not is_test_path(name)
        if below != (name in x64_from_folder):
            (x64_from_folder.add if below else x64_from_folder.discard)(name)
            changed.append(Path(name))
    return changed


def _package_of(project: _Project, name: str) -> tuple[int, str]:
    """(the project, the top-level package or module of file ``name``): x64 switched on by
    a package's code may be on where that package's code, and what it imports, runs;
    not in a script beside it that imports none of it (another process)."""
    m = project.module.get(name)
    return id(project), (m.name.split(".", 1)[0] if m is not None else "")


def is_test_path(name: str) -> bool:
    """A test file: ``test_*.py``, ``*_test.py``, ``conftest.py``, or under a
    ``test/`` or ``tests/`` folder."""
    parts = name.replace("\\", "/").split("/")
    base = parts[-1]
    if base == "conftest.py" or base.startswith("test_") or base.endswith(("_test.py", "_test.ipynb")):
        return True
    return any(p in ("test", "tests") for p in parts[:-1])


def _next_round(
    project: _Project, latest: dict[str, FileResult], facts: dict[str, str], summarize: set[str],
    data_for: dict[str, Union[str, bytes]], read: Callable[[Path], bytes], kept: list[str],
) -> list[Path]:
    """Update ``facts`` from the latest results; the files to lint again.  A file
    whose facts changed only where its analysis asked nothing (``model/factreads.py``)
    is not linted again: its latest result stands for the new facts (``kept``)."""
    outputs = []
    path_of = {m.name: f for f, m in project.module.items()}
    for f in project.files:
        r = latest.get(f)
        if r is None or r.project is None:
            continue
        outputs.append((project.module[f].name, f, r.project))
    # a file's summary depends on its bytes alone: the index (and what it has resolved)
    # stays valid across rounds until a newly analysed file brings a summary
    indexed = frozenset(f for _, f, _ in outputs)
    if project.index is None or project.indexed != indexed:
        project.index = ProjectIndex()
        for _, f, proj in outputs:
            project.index.add(proj["summary"], f)
        project.indexed = indexed
    index = project.index
    # modules some traced call names that the prefilter skipped: analyse them
    wanted: list[Path] = []
    for _module, path, proj in outputs:
        known = project.candidates.get(path)
        if known is None or known[0] is not proj:  # the same output as last round: the same candidates
            # (and the helpers some call hands a JAX array, a key... : model/kinds.py)
            carrying = [a for a in proj.get("args", ()) if carries_kind(a)]
            names = [f for call in (*proj.get("calls", ()), *proj.get("sites", ()), *carrying)
                     for f in _candidates(call["callee"], proj["summary"], path_of)]
            # `self.m(...)` in traced code: the modules of the subclasses whose `m` runs
            # (model/overrides.py), also those that never name JAX
            names += _override_modules(index, _module, proj, path_of)
            known = project.candidates[path] = (proj, names)
        for f in known[1]:
            r = latest.get(f)
            if f not in summarize and (r is None or r.project is None or r.project.get("skipped")) \
                    and f not in wanted:
                summarize.add(f)
                wanted.append(f)
    # modules that never name JAX but import a jit, a key-consuming helper or a
    # function factory of the project (a driver script): analyse them too
    exporters = {m for m, _, proj in outputs
                 if proj.get("jits") or proj.get("consumers") or proj.get("factories") or proj.get("returns")
                 or proj.get("jit_factories")
                 or proj.get("takes_fns")}
    if exporters:
        above = None  # the exporting modules and the packages above them
        for f in project.files:
            r = latest.get(f)
            if f in summarize or f in wanted or r is None or r.parsed or r.error \
                    or (r.project is not None and not r.project.get("skipped")):
                continue
            imported = project.imports.get(f)
            if imported is None:
                imported = project.imports[f] = _project_imports(f, project.module[f],
                                                                 _packages_for(project, project.module[f]),
                                                                 _bytes_of(f, data_for, read))
            if above is None:
                above = {".".join(m.split(".")[:i]) for m in exporters for i in range(1, m.count(".") + 2)}
            if imported & above:
                summarize.add(f)
                wanted.append(f)
    incoming = incoming_facts(index, outputs, path_of, project.resolved, lambda f: _bytes_of(f, data_for, read) or b"")
    if _grad_free(project, latest, data_for, read):
        # no file of the project takes a derivative: told to each analysed file
        for f in project.files:
            r = latest[f]
            if r.project is not None and not r.project.get("skipped"):
                incoming.setdefault(f, {})["project"] = {"grad_free": True}
    else:
        for f, names in _underived(project, latest, data_for, read).items():
            incoming.setdefault(f, {}).setdefault("project", {})["underived"] = names
    again = [Path(f) for f in wanted]
    for f in project.files:
        new = canonical(incoming.get(f))
        old = facts.get(f, "")
        if new != old and f not in wanted:
            facts[f] = new
            if _same_answers(latest.get(f), old, new):
                kept.append(f)
            else:
                again.append(Path(f))
        elif f in wanted:
            facts[f] = new
    return again


def _underived(project: _Project, latest: dict[str, FileResult], data_for: dict[str, Union[str, bytes]],
               read: Callable[[Path], bytes]) -> dict[str, list[str]]:
    """file -> its functions and methods that no derivative of the project reaches
    (model/gradreach.py), for a project whose every ``.py`` file under its root that may
    take a derivative was linted or read (marked or not): a file the run read but did not analyse (skipped by the
    prefilter, not parsed) gives every word of its text as a root.  Empty where the
    whole is not known, and for a project none of whose files names a derivative (its
    public functions are there for its users, who may differentiate them)."""
    if not project.files:
        return {}
    if not any((r.project or {}).get("derives") for r in (latest.get(f) for f in project.files) if r is not None):
        return {}  # a project that takes no derivative: what it has is there for its users (_grad_free)
    unplaced = project.unplaced or []  # (an unmarked project: the files under its root are checked below)
    if project.unlinted_deriving is None:
        project.unlinted_deriving = _unlinted_sources(project, lambda f: _bytes_of(f, data_for, read), unplaced)
    if project.unlinted_deriving:
        return {}
    summaries: dict[str, dict] = {}
    unread: list[bytes] = []
    key: list = []  # what the answer depends on: each file's summary (by content) or its text
    for f in [*project.files, *unplaced]:
        r = latest.get(f)
        reach = (r.project or {}).get("reach") if r is not None and not r.error else None
        if isinstance(reach, dict):
            summaries[f] = reach
            seen = project.reach_prints.get(f)
            if seen is None or seen[0] is not reach:
                # a summary new to this run (a file analysed again gives an equal one)
                seen = project.reach_prints[f] = (reach, hash(repr(reach)))
            key.append((f, seen[1]))
        else:
            data = _bytes_of(f, data_for, read)
            if data is None:
                return {}  # a file that cannot be read: unknown
            unread.append(data)
            key.append((f, None, len(data), hash(data)))
    module_of = {f: m.name for f, m in project.module.items()}
    memo_key = (tuple(key), tuple(sorted(module_of.items())))
    if project.underived_memo is not None and project.underived_memo[0] == memo_key:
        return project.underived_memo[1]  # the same inputs as last round: the same reach
    entries = frozenset(f for f in summaries if is_test_path(f) or f.endswith(".ipynb"))
    out = reach_closure.underived(summaries, unread, module_of, entries)
    project.underived_memo = (memo_key, out)
    return out


def _grad_free(project: _Project, latest: dict[str, FileResult], data_for: dict[str, Union[str, bytes]],
               read: Callable[[Path], bytes]) -> bool:
    """Does the project, linted whole, take no derivative: every file read (a file that
    does not parse, or failed, is unknown), none naming a differentiating transformation or
    a library that consumes gradients (``model/gradtrace.names_derivative``; a file the
    prefilter skipped names no JAX library)?  A file of the project that no module name
    places (the ``__init__.py`` of a root that is itself a package) and a ``.py`` file
    under the root that the run did not lint are read as text: one whose text names no
    derivative takes none."""
    if project.unplaced is None or not project.files:
        return False
    for f in project.files:
        r = latest.get(f)
        if r is None or (r.project or {}).get("derives"):
            return False
        if r.project is None or r.error:
            # not read (it does not parse, it failed): unknown, unless its text names no derivative
            if _may_derive(_bytes_of(f, data_for, read)):
                return False
    if any(_may_derive(_bytes_of(f, data_for, read)) for f in project.unplaced):
        return False
    return not _unlinted_sources(project, lambda f: _bytes_of(f, data_for, read))


def _may_derive(data: Optional[bytes]) -> bool:
    """Can a file of this text take a derivative (None: it cannot be read, unknown)?"""
    return data is None or _DERIVATIVE_WORDS.search(data) is not None


def _unlinted_sources(project: _Project, text_of: Callable[[str], Optional[bytes]], also: Sequence[str] = ()) -> bool:
    """Is there a ``.py`` file under the project's root (outside hidden folders) that the
    run did not lint (left out by an ``exclude``, or not asked for) and whose text may take
    a derivative?  What it does is not known, so nothing can be said of the whole project.
    Walked only for a project that looks derivative-free, after every other test."""
    linted = {os.path.realpath(f) for f in (*project.files, *also)}
    for folder, dirs, names in os.walk(project.root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "__pycache__"]
        for n in names:
            path = os.path.join(folder, n)
            if n.endswith(".py") and os.path.realpath(path) not in linted and os.path.isfile(path) \
                    and _may_derive(text_of(path)):  # (not a FIFO: reading one waits forever)
                return True
    return False


def _same_answers(result: Optional[FileResult], old: str, new: str) -> bool:
    """Does ``result`` (linted with the facts ``old``) stand for the facts ``new``:
    its analysis recorded what it asked of its facts, and each answer is the same?"""
    proj = result.project if result is not None else None
    if proj is None or result.error or proj.get("skipped") or not new:
        # (no facts at all turns the prefilter back on: a file that never names JAX is then skipped)
        return False
    reads = proj.get("reads")
    if not isinstance(reads, dict) or not all(
            isinstance(k, list) and all(isinstance(x, str) for x in k) for k in reads.values()):
        return False
    return same_answers(reads, json.loads(old) if old else {}, json.loads(new))


def _bytes_of(path: str, data_for: dict[str, Union[str, bytes]], read: Callable[[Path], bytes]) -> Optional[bytes]:
    """The bytes the run lints as ``path`` (read once; None: it cannot be read)."""
    data = data_for.get(path)
    if data is None:
        try:
            data = data_for[path] = read(Path(path))
        except OSError:
            return None
    return data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data


_IMPORT_HEADS = re.compile(rb"^[ \t]*(?:from[ \t]+([A-Za-z_]\w*)|import[ \t]+([^#\n;]+))", re.M)


def _reached_from(root: Path, heads: set[str], files_of: Callable[[Path], list[Path]],
                  read: Callable[[Path], bytes]) -> list[Path]:
    """The files of an unmarked project (no pyproject.toml... above its files: the
    folder jaxlint runs in, or the folder holding the package it runs in) that
    belong with the files named: the folders and modules of ``root`` they are in
    (``heads``), those that these import by absolute name, and so on.  A folder
    beside them with a marker of its own is another project.  Such a folder often
    holds other projects too (a folder of checkouts, a home directory): linting all
    of it for facts would cost the whole folder's time, and nothing crosses to it."""
    todo, seen = sorted(heads), set(heads)
    out: list[Path] = []
    while todo:
        head = todo.pop()
        folder = root / head
        if folder.is_dir():
            if any((folder / m).is_file() for m in PROJECT_MARKERS):
                continue  # a project of its own
            found = files_of(folder)
        elif (root / f"{head}.py").is_file():
            found = files_of(root / f"{head}.py")
        else:
            continue
        for f in found:
            out.append(f)
            try:
                text = read(Path(f))
            except OSError:
                continue
            if b"import" not in text:
                continue
            for m in _IMPORT_HEADS.finditer(text):
                names = [m.group(1)] if m.group(1) else [
                    part.split()[0].split(b".")[0] for part in m.group(2).split(b",") if part.split()]
                for name in names:
                    n = name.decode("ascii", "replace").strip("()\\ ")
                    if n and n not in seen and n.isidentifier():
                        seen.add(n)
                        todo.append(n)
    return out


def _project_imports(path: str, name: ModuleName, packages: frozenset[str], text: Optional[bytes]) -> frozenset[str]:
    """The project modules the file at ``path`` (module ``name``, bytes ``text``) names in its imports: each
    imported module, and ``m.n`` for ``from m import n``.  Read with CPython's
    parser, once per run; only for files the prefilter skipped, and only when a
    module of the project exports a jit, a key consumer or a factory (a driver
    script importing one of them, or a package above one that may re-export it,
    is then analysed)."""
    import ast

    from jaxlint.project.roots import absolute_module

    if text is None:
        return frozenset()
    try:
        if b"import" not in text or not (b"from ." in text or any(p.encode() in text for p in packages)):
            return frozenset()  # imports nothing of the project
        tree = ast.parse(text)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = absolute_module(name.name, name.is_package, node.level, node.module)
            if base is not None:
                out.add(base)
                out.update(f"{base}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return frozenset(out)


def _override_modules(index: ProjectIndex, module: str, proj: dict, path_of: dict[str, str]) -> list[str]:
    """The files defining the overrides that the ``self.m(...)`` calls of ``proj``
    (the output of ``module``) run (``"overrides"`` records, project/facts.py)."""
    out: list[str] = []
    for call in proj.get("calls", ()):
        if not call.get("overrides") or not call.get("returned"):
            continue
        where, _, qual = call["callee"][1:].partition(":")
        cls = index.resolve(where or module, qual)
        if cls is None or cls.kind != "class":
            continue
        for t in index.override_targets(cls, call["returned"], call.get("caller", "").rsplit(".", 1)[-1]):
            f = path_of.get(t.module)
            if f is not None and f not in out:
                out.append(f)
    return out


def _candidates(callee: str, summary: dict, path_of: dict[str, str]) -> list[str]:
    """Files that may define ``callee`` (a dotted name written in the module whose
    ``summary`` is given): the project modules its first name is imported from,
    and their submodules along the dotted name.  Only for the prefilter's blind
    spot (helper modules that never name JAX), so a loose guess is enough."""
    head, _, rest = callee.partition(".")
    binding = (summary.get("names") or {}).get(head) or {}
    base = binding.get("m")
    if not base:
        return []
    names = [base]
    if binding.get("k") == "from" and binding.get("n"):
        names.append(f"{base}.{binding['n']}")
    parts = rest.split(".") if rest else []
    for i in range(1, len(parts) + 1):
        names.append(".".join([names[-1], *parts[:i]]))
    return [path_of[n] for n in names if n in path_of]
