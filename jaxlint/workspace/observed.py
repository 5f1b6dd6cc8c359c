"""Observed facts: what ``jaxlint observe`` saw the user's functions do, for
``jaxlint check --observed`` (docs/runtime.md, "Observed facts in `check`").

``jaxlint observe`` writes a facts file (JSON, ``FACTS_VERSION``; default
``<cache-dir>/observed/facts.json``): for every function of the user's code that
ran, its file (relative to the project root, the directory of the configuration, so
that a checkout at another path, a CI workspace, finds its facts; a file outside it
absolute), qualified name, first line and a hash of its source (``functions_of``),
whether it ran under a JAX trace (and which: ``jit``, ``vmap``, ``grad``...), the kind
each parameter received there (``tracer``, ``pytree-tracers``, ``array``, ``numpy``,
``scalar``, ``static``, ``none``, ``pytree``, ``other``, or ``mixed`` when calls
differed) and the ``static_argnums``/``static_argnames`` of the jit that traced it.

``ObservedFacts.load`` reads it for ``check``; ``for_file`` gives one file's facts as
the canonical JSON its ``LintSettings.observed`` carries (with the facts file's content
hash: the cache key of every result linted with it), keeping only the functions
whose source is unchanged since the run (the others are counted as stale).  The
model uses them only where its own inference says nothing (``model/observed.py``).

No JAX and no libcst here: CPython's ``ast`` finds each function's span.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

FACTS_VERSION = 2  # 2: files relative to the document's "root"; 1 (still read): absolute
READS = (1, 2)
DEFAULT_NAME = os.path.join("observed", "facts.json")
MAX_BYTES = 64 << 20

# the kinds a parameter may have been seen with (``mixed``: calls differed)
KINDS = frozenset({"tracer", "pytree-tracers", "array", "numpy", "scalar", "static", "none",
                   "pytree", "other", "mixed"})
# the traces a function may have run under
TRACES = frozenset({"jit", "vmap", "grad", "other"})


class ObservedError(Exception):
    """A facts file that cannot be used, described in one line."""


def default_path(cache_dir: Path) -> Path:
    return Path(cache_dir) / DEFAULT_NAME


@dataclass(frozen=True)
class FunctionSource:
    """One function (or lambda) of a file, as the run names it and as the model does."""

    qualname: str  # as Python's ``co_qualname`` (``f.<locals>.g``, ``C.m``)
    line: int  # its code object's first line (the first decorator's, else the def's)
    def_line: int  # the ``def``/``lambda`` line
    unit: str  # the model's ``Unit.qualname`` (``f.g``, ``C.m``)
    ordinal: int  # among the model's units of that qualname, in source order
    sha: str  # of its source lines (decorators included), first 16 hex digits


def functions_of(text: str) -> list[FunctionSource]:
    """Every def and lambda of ``text`` (raises SyntaxError/ValueError for bad code)."""
    tree = ast.parse(text)
    lines = text.splitlines()
    found: list[tuple] = []

    def walk(node: ast.AST, runtime: str, unit: str, cls: Optional[str]) -> None:
        """``runtime``: the co_qualname prefix here; ``unit``: the enclosing model
        unit's qualname ("" at module level); ``cls``: the class whose body holds
        ``node`` as a statement."""
        t = type(node)
        if t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda):
            is_lambda = t is ast.Lambda
            name = "<lambda>" if is_lambda else node.name  # type: ignore[attr-defined]
            decorators = [] if is_lambda else node.decorator_list  # type: ignore[attr-defined]
            for d in decorators:
                walk(d, runtime, unit, None)
            args = node.args  # type: ignore[attr-defined]
            for d in (*args.defaults, *[k for k in args.kw_defaults if k is not None]):
                walk(d, runtime, unit, None)
            model = (unit + "." if unit else "") + (cls + "." if cls and not is_lambda else "") + name
            line = node.lineno  # type: ignore[attr-defined]
            first = min([line] + [d.lineno for d in decorators])
            end = getattr(node, "end_lineno", None) or line
            body = "\n".join(lines[first - 1:end])
            found.append((runtime + name, first, line, model, (line, node.col_offset),  # type: ignore[attr-defined]
                          hashlib.sha256(body.encode("utf-8", "surrogatepass")).hexdigest()[:16]))
            inner = runtime + name + ".<locals>."
            if is_lambda:
                walk(node.body, inner, model, None)  # type: ignore[attr-defined]
            else:
                for stmt in node.body:  # type: ignore[attr-defined]
                    walk(stmt, inner, model, None)
        elif t is ast.ClassDef:
            for d in (*node.decorator_list, *node.bases, *node.keywords):  # type: ignore[attr-defined]
                walk(d, runtime, unit, None)
            for stmt in node.body:  # type: ignore[attr-defined]
                walk(stmt, runtime + node.name + ".", unit, node.name)  # type: ignore[attr-defined]
        else:
            for child in ast.iter_child_nodes(node):
                walk(child, runtime, unit, None)

    walk(tree, "", "", None)
    ordinals: dict[str, int] = {}
    out = []
    for runtime_q, first, def_line, model, _pos, sha in sorted(found, key=lambda f: f[4]):
        n = ordinals.get(model, 0)
        ordinals[model] = n + 1
        out.append(FunctionSource(runtime_q, first, def_line, model, n, sha))
    return out


def match(table: list[FunctionSource], qualname: str, line: int) -> Optional[FunctionSource]:
    """The function a run recorded as (``co_qualname``, ``co_firstlineno``): the one
    starting at that line, or (the file was edited above it) the only one of that name."""
    named = [f for f in table if f.qualname == qualname]
    at = [f for f in named if line in (f.line, f.def_line)]
    if len(at) == 1:
        return at[0]
    if not at and len(named) == 1:
        return named[0]  # moved (its source hash says whether it changed)
    return None


def relative_file(real: str, root: Optional[Path]) -> str:
    """How a facts file names ``real`` (a real path): relative to ``root`` (posix) when
    inside it, else absolute."""
    if root is not None:
        base = os.path.realpath(root)
        if real == base or real.startswith(base.rstrip(os.sep) + os.sep):
            return Path(os.path.relpath(real, base)).as_posix()
    return real


def file_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class ObservedFacts:
    """A facts file, read once; ``for_file`` per linted file."""

    def __init__(self, path: Path, functions: dict[str, list[dict]], digest: str,
                 root: Optional[Path] = None, recorded_root: Optional[str] = None) -> None:
        self.path = path
        self.by_file = functions  # real path -> its function records
        self.digest = digest[:16]
        self.root = root  # relative files are resolved against it (this project's root)
        self.recorded_root = recorded_root  # the root the run wrote them under
        self.total = 0  # functions looked up (in files linted)
        self.stale = 0  # of them, edited (or gone) since the run
        self.used = 0  # of them, ran under a trace and handed to the model
        self._memo: dict[str, tuple[tuple, str]] = {}  # real path -> (its stamp, the facts)

    @classmethod
    def load(cls, path: Path, root: Optional[Path] = None) -> "ObservedFacts":
        """Read a facts file; ``root``: the project root its relative file names are
        relative to (the directory of the configuration; default: the current one)."""
        shown = str(path)
        try:
            st = os.stat(path)
        except OSError as exc:
            raise ObservedError(f"{shown}: no observed facts ({exc.strerror or exc}); "
                                f"`jaxlint observe --run CMD` writes them") from None
        if stat.S_ISDIR(st.st_mode):
            raise ObservedError(f"{shown}: a directory, not a facts file (`--observed` takes the word "
                                f"after it as its FILE: write --observed=FILE, or put the paths first)")
        if not stat.S_ISREG(st.st_mode):
            raise ObservedError(f"{shown}: not a facts file (not a regular file)")
        if st.st_size > MAX_BYTES:
            raise ObservedError(f"{shown}: not a facts file (larger than {MAX_BYTES >> 20} MiB)")
        try:
            data = Path(path).read_bytes()
            doc = json.loads(data.decode("utf-8"))
        except OSError as exc:
            raise ObservedError(f"{shown}: cannot be read ({exc.strerror or exc})") from None
        except (UnicodeDecodeError, ValueError):
            raise ObservedError(f"{shown}: not a facts file (not JSON; `--observed` takes the word after it "
                                f"as its FILE: write --observed=FILE, or put the paths first)") from None
        if not isinstance(doc, dict) or not isinstance(doc.get("functions"), list):
            raise ObservedError(f"{shown}: not a facts file (no \"functions\" list)")
        if doc.get("version") not in READS:
            raise ObservedError(f"{shown}: facts file version {doc.get('version')!r}, this jaxlint "
                                f"reads versions {READS[0]} to {READS[-1]}: run `jaxlint observe` again")
        base = Path(root) if root is not None else Path.cwd()
        by_file: dict[str, list[dict]] = {}
        for rec in doc["functions"]:
            if _valid(rec):
                # version 1 named files by their absolute paths; 2 relative to the root
                by_file.setdefault(os.path.realpath(base / rec["file"]), []).append(rec)
        recorded = doc.get("root")
        if not isinstance(recorded, str) or "\0" in recorded:
            recorded = None  # no path has a NUL (os.path.realpath would raise)
        return cls(Path(path), by_file, file_digest(data), base, recorded)

    def for_file(self, path: Path) -> str:
        """The canonical JSON of the facts the model may use for ``path`` (the digest
        of the facts file always: the cache key of a result linted with them)."""
        real = os.path.realpath(path)
        try:  # a long-lived front end (the language server): an edited file is read again
            st = os.stat(real)
            stamp: tuple = (real, st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = (real,)
        known = self._memo.get(real)
        if known is not None and known[0] == stamp:
            return known[1]
        units = []
        records = self.by_file.get(real, [])
        if records:
            table: Optional[list[FunctionSource]]
            try:
                table = functions_of(Path(real).read_text(encoding="utf-8"))
            except (OSError, SyntaxError, ValueError, UnicodeDecodeError, RecursionError):
                table = None
            for rec in records:
                self.total += 1
                found = match(table, rec["qualname"], rec["line"]) if table is not None else None
                if found is None or found.sha != rec["sha"]:
                    self.stale += 1
                    continue
                if not rec.get("under"):
                    continue  # ran untraced only: nothing for the model
                self.used += 1
                units.append([found.unit, found.ordinal, {
                    "under": sorted(rec["under"]), "root": bool(rec.get("root")),
                    "params": dict(sorted(rec.get("params", {}).items())),
                    "static": sorted(rec.get("static", []))}])
        out = json.dumps({"digest": self.digest, "units": sorted(units, key=lambda u: (u[0], u[1]))},
                         sort_keys=True, separators=(",", ":"))
        self._memo[real] = (stamp, out)  # one entry per file, however often it is edited
        return out

    def unmatched_line(self) -> Optional[str]:
        """One line when the file holds facts and none of them is for a file of this
        project (after the lint: no linted file had any, and none of their files is
        here): a checkout moved since the run, facts of another project."""
        n = sum(len(v) for v in self.by_file.values())
        if not n or self.total or any(os.path.isfile(f) for f in self.by_file):
            return None
        where = (f"recorded under {self.recorded_root}, " if self.recorded_root
                 and os.path.realpath(self.recorded_root) != os.path.realpath(self.root or ".") else "")
        return (f"none of the {n} observed function{'s' if n != 1 else ''} in {self.path} "
                f"{'is' if n == 1 else 'are'} in a file of this project ({where}looked for "
                f"under {self.root}); run `jaxlint observe` again here")

    def stale_line(self) -> Optional[str]:
        """One line when some looked-up facts were stale."""
        if not self.stale:
            return None
        return (f"{self.stale} of {self.total} observed function{'s' if self.total != 1 else ''} "
                f"in {self.path} {'are' if self.stale != 1 else 'is'} stale (edited since "
                f"`jaxlint observe` ran) and {'were' if self.stale != 1 else 'was'} ignored; "
                f"run `jaxlint observe` again")


class ConfiguredFacts:
    """The facts file ``observed`` in ``[tool.jaxlint]`` names, for the front ends that
    lint without a command line (the language server, the MCP server): looked at again
    on each use (one ``stat``), read again when it changed (a new ``jaxlint observe``
    run).  ``allowed``: whether a facts file may be read at all (the MCP server reads
    inside its roots only).  ``problem``: why the configured file could not be used."""

    def __init__(self, allowed: Optional[Callable[[Path], bool]] = None) -> None:
        self.allowed = allowed
        self.problem: Optional[str] = None
        self._loaded: dict[Path, tuple[tuple, Optional[ObservedFacts]]] = {}

    def facts(self, cfg: Any) -> Optional[ObservedFacts]:
        """The facts a configuration (``workspace.config.Config``) asks for, or None."""
        if not getattr(cfg, "observed", False):
            return None
        path = configured_path(cfg)
        if self.allowed is not None and not self.allowed(path):
            self.problem = f"{path}: outside the roots, not read (`observed` in {cfg.label})"
            return None
        try:
            st = os.stat(path)
            key: tuple = (st.st_mtime_ns, st.st_size, st.st_ino)
        except OSError:
            key = ()
        known = self._loaded.get(path)
        if known is not None and known[0] == key:
            return known[1]
        try:
            facts: Optional[ObservedFacts] = ObservedFacts.load(path, cfg.root)
            self.problem = None
        except ObservedError as exc:
            facts = None
            self.problem = f"{exc} (`observed` in {cfg.label}; linting without them)"
        self._loaded[path] = (key, facts)
        return facts


def configured_path(cfg: Any) -> Path:
    """The facts file of ``observed = true`` (observed/facts.json in the cache directory
    the configuration sets: ``workspace.config.configured_cache_dir``) or ``observed =
    "FILE"`` (relative to the configuration's directory)."""
    if cfg.observed is not True:
        return Path(cfg.root) / str(cfg.observed)
    from jaxlint.workspace.config import configured_cache_dir

    return default_path(configured_cache_dir(cfg))


def _valid(rec: object) -> bool:
    if not isinstance(rec, dict):
        return False
    if not (isinstance(rec.get("file"), str) and isinstance(rec.get("qualname"), str)
            and isinstance(rec.get("line"), int) and isinstance(rec.get("sha"), str)):
        return False
    if "\0" in rec["file"]:
        return False  # no path has one (os.path.realpath would raise)
    under = rec.get("under", [])
    params = rec.get("params", {})
    static = rec.get("static", [])
    return (isinstance(under, list) and all(isinstance(u, str) and u in TRACES for u in under)
            and isinstance(params, dict)
            and all(isinstance(k, str) and isinstance(v, str) and v in KINDS for k, v in params.items())
            and isinstance(static, list) and all(isinstance(s, str) for s in static))
