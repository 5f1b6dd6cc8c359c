"""The tools of ``jaxlint mcp``, free of any MCP code.

Each tool takes the client's arguments (a dict) and a :class:`Workspace` (the
roots the client declared) and returns a JSON-able dict, or raises
:class:`ToolInputError` with one sentence for the client.  ``server.py`` turns
those into MCP results.

The first workspace root plays the part of the current directory of a
``jaxlint check`` run: relative paths start there, it is where the
configuration is looked for when a file has none above it, and ``confirm``
runs there.  Files are linted in this process, one at a time (a server must not
fork while its transport threads run), with the same cache as the command line
when it lies inside the roots.  Files are read and written only through
``confined`` (descriptors of the roots, no link followed on the way).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from jaxlint.lifeline import DIE_WITH_PARENT_ENV

# seconds the whole `confirm` call may take (each import and finding has its own limit)
CONFIRM_TIME_LIMIT = 600.0
_POLL_S = 0.25  # how often a running `confirm` looks for a cancellation
_STOP_GRACE_S = 5.0  # how long a stopped `confirm` may take to end its workers before SIGKILL
DEFAULT_SOURCE_NAME = "<source>.py"


# the longest path and name a client may give (Linux's PATH_MAX and NAME_MAX)
MAX_PATH_BYTES = 4096
MAX_NAME_BYTES = 255
MAX_COMMAND_BYTES = 100_000  # a `run` command (one argument of a process: Linux allows 128 KiB)
_QUOTE_CHARS = 80  # a longer argument is shown cut, with its length


class ToolInputError(Exception):
    """A bad argument or a refused path: one sentence for the client."""


def quote(value: str) -> str:
    """A client's string as an error sentence shows it: quoted, and cut when long."""
    if len(value) <= _QUOTE_CHARS:
        return repr(value)
    return f"{value[:_QUOTE_CHARS // 2]!r}... ({len(value)} characters)"


# ----------------------------------------------------------------------------- workspace


@dataclass
class Workspace:
    """The directories the tools may read and write (absolute, resolved)."""

    roots: list[Path]

    @classmethod
    def of(cls, roots: list[Path]) -> "Workspace":
        resolved = []
        for r in roots:
            p = Path(os.path.abspath(r)).resolve()
            if p not in resolved:
                resolved.append(p)
        if not resolved:
            raise ValueError("a workspace needs at least one root")
        return cls(resolved)

    @property
    def base(self) -> Path:
        return self.roots[0]

    def contains(self, path: Path) -> bool:
        try:
            real = Path(os.path.realpath(path))
        except (OSError, ValueError):  # a link changed while it was followed
            return False
        return any(real == r or r in real.parents for r in self.roots)

    def resolve(self, raw: str, what: str = "path") -> Path:
        """The absolute path of a client path; refused outside the roots."""
        shown = quote(raw)
        if not raw.strip():
            raise ToolInputError(f"{what} {shown} is empty; name a file or directory.")
        if "\0" in raw:
            raise ToolInputError(f"{what} {shown} is not a valid path (it contains a NUL character).")
        try:
            encoded = os.fsencode(raw)
        except UnicodeError:
            raise ToolInputError(f"{what} {shown} is not a valid path (it cannot be encoded).") from None
        if len(encoded) > MAX_PATH_BYTES or any(len(part) > MAX_NAME_BYTES for part in encoded.split(b"/")):
            raise ToolInputError(f"{what} {shown} is too long (a path has at most {MAX_PATH_BYTES} bytes, "
                                 f"and each name in it at most {MAX_NAME_BYTES}).")
        try:
            p = Path(raw).expanduser()
        except RuntimeError:  # ~user of no such user
            p = Path(raw)
        absolute = p if p.is_absolute() else self.base / p
        absolute = Path(os.path.normpath(absolute))
        if not self.contains(absolute):
            raise ToolInputError(
                f"{what} {shown} is outside the workspace roots ({self._roots_text()}), so it is refused."
            )
        return absolute

    def exists(self, absolute: Path, raw: str, what: str = "path") -> None:
        """ToolInputError unless ``absolute`` (from :meth:`resolve`) exists."""
        try:
            os.stat(absolute)
        except FileNotFoundError:
            raise ToolInputError(f"{what} {quote(raw)} does not exist.") from None
        except (OSError, ValueError) as exc:
            why = getattr(exc, "strerror", None) or str(exc)
            raise ToolInputError(f"{what} {quote(raw)} cannot be read ({why}).") from None

    def _roots_text(self) -> str:
        return ", ".join(str(r) for r in self.roots)


def roots_from_uris(uris: list[str]) -> list[Path]:
    """Directories of the ``file://`` root URIs a client declared (others ignored)."""
    from urllib.parse import unquote, urlparse
    from urllib.request import url2pathname

    out = []
    for uri in uris:
        parsed = urlparse(str(uri))
        if parsed.scheme != "file":
            continue
        if parsed.netloc not in ("", "localhost"):
            continue
        path = url2pathname(unquote(parsed.path))
        if path:
            out.append(Path(path))
    return out


# ----------------------------------------------------------------------------- arguments

# argument kinds: JSON schema and the check of a value
_KINDS: dict[str, tuple[dict[str, Any], Callable[[Any], bool], str]] = {
    "string": ({"type": "string"}, lambda v: isinstance(v, str), "a string"),
    "boolean": ({"type": "boolean"}, lambda v: isinstance(v, bool), "true or false"),
    "strings": (
        {"type": "array", "items": {"type": "string"}},
        lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
        "a list of strings",
    ),
    "seconds": (
        {"type": "number", "exclusiveMinimum": 0},
        lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 and math.isfinite(v),
        "a number of seconds above 0",
    ),
}


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    description: str
    required: bool = False
    default: Any = None


@dataclass(frozen=True)
class ToolSpec:
    name: str
    title: str
    description: str
    params: tuple[Param, ...]
    output_schema: dict[str, Any]
    read_only: bool
    destructive: bool = False
    open_world: bool = False
    # (arguments, workspace, cancel event) -> result
    run: Callable[..., dict[str, Any]] = field(default=lambda a, w, c=None: {})

    def input_schema(self) -> dict[str, Any]:
        props = {}
        for p in self.params:
            schema = dict(_KINDS[p.kind][0])
            schema["description"] = p.description
            if p.default is not None:
                schema["default"] = p.default
            props[p.name] = schema
        out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
        required = [p.name for p in self.params if p.required]
        if required:
            out["required"] = required
        return out

    def validate(self, arguments: Any) -> dict[str, Any]:
        """The arguments with defaults filled in; ToolInputError when they are wrong."""
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise ToolInputError(f"The arguments of {self.name} must be a JSON object.")
        known = {p.name: p for p in self.params}
        for key in arguments:
            if key not in known:
                takes = ", ".join(known) if known else "no arguments"
                raise ToolInputError(f"{self.name} has no argument {quote(str(key))}; it takes {takes}.")
        out: dict[str, Any] = {}
        for p in self.params:
            value = arguments.get(p.name)
            if value is None:
                if p.required:
                    raise ToolInputError(f"{self.name} needs the argument {p.name!r}.")
                out[p.name] = p.default
                continue
            if not _KINDS[p.kind][1](value):
                raise ToolInputError(f"{p.name!r} must be {_KINDS[p.kind][2]}.")
            out[p.name] = value
        return out


# ----------------------------------------------------------------------------- results


def finding_dict(f) -> dict[str, Any]:
    """One finding as the tools report it (positions 1-based, as the CLI prints them)."""
    fix = None
    if f.fix is not None:
        fix = {
            "safety": f.fix.applicability.value,
            "message": f.fix.message,
            "edits": [
                {
                    "line": e.line,
                    "column": e.col,
                    "end": {"line": e.end_line, "column": e.end_col},
                    "content": e.content,
                }
                for e in f.fix.edits
            ],
        }
    out = {
        "code": f.code,
        "name": f.name,
        "message": f.message,
        "path": f.path,
        "line": f.line,
        "column": f.col,
        "end": {"line": f.end_line, "column": f.end_col},
        "severity": f.severity.value,
        "function": f.function,
        "url": f.url,
        "fix": fix,
    }
    if f.cell is not None:  # a notebook: line and column count in this cell (1-based, every cell counted)
        out["cell"] = f.cell
    if f.runtime is not None:
        out["runtime"] = f.runtime
    return out


def _summary(findings: list, errors: list[str]) -> str:
    n = len(findings)
    if n == 0:
        text = "No findings."
    else:
        safe = sum(1 for f in findings if f.fix is not None and f.fix.applicability.value == "safe")
        unsafe = sum(1 for f in findings if f.fix is not None and f.fix.applicability.value != "safe")
        text = f"{n} finding{'s' if n != 1 else ''}"
        parts = []
        if safe:
            parts.append(f"{safe} with a safe fix")
        if unsafe:
            parts.append(f"{unsafe} with an unsafe fix")
        text += f" ({', '.join(parts)})." if parts else "."
    if errors:
        text += f" {len(errors)} path{'s' if len(errors) != 1 else ''} could not be checked."
    return text


# ----------------------------------------------------------------------------- linting


@dataclass
class _Target:
    """One file to lint: where it is, how it is shown."""

    absolute: Path
    display: str


@dataclass
class _Run:
    store: Any  # ConfigStore
    cache_dir: Optional[Path]  # inside the roots; None: no cache (every choice leads outside)
    infos: tuple
    # display name -> the settings it was linted with (with its project's facts), for fix
    settings_of: dict = dataclasses.field(default_factory=dict)
    base: Optional[Path] = None  # chain paths in messages are shown relative to it
    # absolute path -> the file as read for linting (confined.ReadFile), for fix to write back
    read: dict = dataclasses.field(default_factory=dict)
    lint: Any = None  # the jaxlint.workspace.Workspace every project run of this call lints with


def _session(ws: Workspace, select: Optional[list[str]]) -> _Run:
    """The configuration, as a `jaxlint check` run in the first root sees it (ConfigError
    for a bad configuration file: ``call`` reports it)."""
    from jaxlint.workspace.config import DEFAULT_CACHE_DIR_NAME, ConfigStore, Overrides, cache_dir_for
    from jaxlint.workspace.ruleinfo import expand_selector, load_rule_infos

    # the cache `jaxlint check` would use in the first root when it lies inside the roots;
    # else (a pyproject.toml above the root, a cache-dir or JAXLINT_CACHE_DIR elsewhere) the
    # first root's own .jaxlint_cache, and none when that too leads outside (a link)
    cache_dir: Optional[Path] = cache_dir_for(ws.base, None, None)
    if not ws.contains(cache_dir):
        cache_dir = ws.base / DEFAULT_CACHE_DIR_NAME
        if not ws.contains(cache_dir):
            cache_dir = None
    infos = load_rule_infos(cache_dir)
    if select is not None:
        if not select:
            raise ToolInputError("'select' must name at least one rule (or be left out).")
        for sel in select:
            if expand_selector(infos, sel) is None:
                raise ToolInputError(
                    f"Unknown rule selector {quote(sel)} in 'select' (the rules tool lists every code)."
                )
    overrides = Overrides(select=tuple(select) if select is not None else None)
    from jaxlint.workspace.observed import ConfiguredFacts

    # `observed = true` (or a file) in [tool.jaxlint]: `jaxlint observe`'s facts, as
    # `jaxlint check` gives them, from a facts file inside the roots only
    store = ConfigStore(infos, overrides, ws.base, observed=ConfiguredFacts(ws.contains))
    return _Run(store=store, cache_dir=cache_dir, infos=infos, lint=_lint_workspace(store, ws, cache_dir))


def _lint_workspace(store, ws: Workspace, cache_dir: Optional[Path]):
    """The CLI's workspace, every file read inside the roots only (a file that
    leads outside them cannot be read) and named by its absolute path."""
    from jaxlint.mcp_server import confined
    from jaxlint.workspace import Workspace as LintWorkspace, cache_in

    def read(path: Path) -> bytes:
        try:
            return confined.read(path, ws.roots).data
        except confined.Refused as exc:
            raise PermissionError(f"refused ({exc})") from None

    return LintWorkspace(store, ws.base, cache=cache_in(cache_dir), display=lambda p: p, read=read)


def _display(absolute: Path, raw_base: Optional[Path]) -> str:
    """Relative to the base the client's relative path started from; else absolute."""
    if raw_base is not None:
        try:
            return absolute.relative_to(raw_base).as_posix()
        except ValueError:
            pass
    return str(absolute)


def _targets(raw_paths: list[str], ws: Workspace, run: _Run) -> tuple[list[_Target], list[str]]:
    """The files under the client's paths (discovered as the CLI does) and error lines."""
    requested: list[tuple[str, Path]] = []
    for raw in raw_paths:
        absolute = ws.resolve(raw)
        ws.exists(absolute, raw)
        requested.append((raw, absolute))
    targets: list[_Target] = []
    errors: list[str] = []
    seen: set[Path] = set()
    for raw, absolute in requested:
        base = ws.base if not Path(raw).expanduser().is_absolute() else None
        found = run.lint.discover([str(absolute)])
        errors.extend(found.errors)
        for f in found.files:
            f = Path(f)
            if f in seen:
                continue
            seen.add(f)
            shown = _display(f, base)
            if not ws.contains(f):
                errors.append(f"{shown}: refused (it links outside the workspace roots)")
                continue
            targets.append(_Target(absolute=f, display=shown))
    return targets, errors


def _lint_targets(targets: list[_Target], run: _Run, ws: Workspace,
                  overrides: Optional[dict[str, bytes]] = None, base: Optional[Path] = None):
    """(FileResults with display paths, error lines); ``overrides``: absolute
    path -> text to lint instead of the file on disk.  The other files a message
    names (the chain of a traced helper) are shown relative to ``base`` when the
    file itself is shown relative.

    Every file is read through ``confined`` (never by a path that a link
    swapped in meanwhile could send outside the roots: the targets here, the
    rest of their projects by the workspace's reader), and linted from those
    bytes; ``run.read`` keeps what each target was, for ``fix`` to write back."""
    from jaxlint.mcp_server import confined
    from jaxlint.project.driver import RunOptions, run_project

    data: dict[str, bytes] = dict(overrides or {})
    early_errors = []
    kept = []
    for t in targets:
        key = str(t.absolute)
        if key not in data:
            try:
                was = confined.read(t.absolute, ws.roots)
            except confined.Refused as exc:
                early_errors.append(f"{t.display}: refused ({exc})")
                continue
            except OSError as exc:
                early_errors.append(f"{t.display}: cannot be read ({exc.strerror or exc})")
                continue
            run.read[key] = was
            data[key] = was.data
        kept.append(t)
    targets = kept

    shown = {str(t.absolute): t.display for t in targets}
    # the CLI's project-wide model: the rest of each project gives its facts (read inside the roots)
    run.lint.sources = data
    outcome = run_project([t.absolute for t in targets], run.lint, RunOptions(jobs=1, show_progress=False))
    results = []
    run.base = base
    for r in outcome.results:
        name = shown.get(r.path, r.path)
        if r.path in outcome.settings_of:
            run.settings_of[name] = outcome.settings_of[r.path]
        findings = [_relative_chain(dataclasses.replace(f, path=name), base) for f in r.findings]
        results.append(dataclasses.replace(r, path=name, findings=findings))
    errors = []
    for line in outcome.errors:
        for absolute, name in shown.items():
            if line.startswith(absolute + ":"):
                line = name + line[len(absolute):]
                break
        errors.append(line)
    return results, early_errors + errors


def _relative_chain(f, base: Optional[Path]):
    """``f`` with the other files its message names (the chain of a traced
    helper, linted by absolute path) shown relative to ``base``, as ``f.path`` is."""
    if base is None or Path(f.path).is_absolute():
        return f
    prefix = f"{base}{os.sep}"
    return dataclasses.replace(
        f, message=f.message.replace(prefix, ""),
        related=tuple((p[len(prefix):] if p.startswith(prefix) else p, line, m.replace(prefix, ""))
                      for p, line, m in f.related))


def _source_target(args: dict[str, Any], ws: Workspace) -> tuple[str, Path]:
    """(display name, absolute path) of the text given in ``source``."""
    name = args.get("filename")
    if name is None:
        return DEFAULT_SOURCE_NAME, ws.base / DEFAULT_SOURCE_NAME
    if not name.strip():
        raise ToolInputError("'filename' must not be empty.")
    absolute = ws.resolve(name, "filename")
    shown = _display(absolute, ws.base if not Path(name).expanduser().is_absolute() else None)
    return shown, absolute


def _utf8_as_written(text: str) -> bool:
    """Whether ``text`` reads back the same from its UTF-8 bytes (no coding
    cookie naming another encoding in its first two lines)."""
    from jaxlint.lint.linter import decode_source

    try:
        return decode_source(text.encode("utf-8"))[0] == text
    except UnicodeEncodeError:  # lone surrogates
        return False


def _check_inputs(args: dict[str, Any]) -> None:
    if args.get("source") is not None and args.get("paths") is not None:
        raise ToolInputError("Give either 'paths' or 'source', not both.")
    if args.get("filename") is not None and args.get("source") is None:
        raise ToolInputError("'filename' names the text given in 'source'; give 'source' too.")


def _default_paths(ws: Workspace) -> list[str]:
    return ["."] + [str(r) for r in ws.roots[1:]]


def _lint(args: dict[str, Any], ws: Workspace, run: _Run):
    """(results, errors, sources by display name) for check and fix."""
    from jaxlint.lint.linter import lint_source

    if args.get("source") is not None:
        name, absolute = _source_target(args, ws)
        text = args["source"]
        if _utf8_as_written(text):
            # a file of a project: what the rest of the project tells it counts
            results, errors = _lint_targets([_Target(absolute, name)], run, ws,
                                            {str(absolute): text.encode("utf-8")}, ws.base)
            if results:
                return results[:1], errors, {name: (absolute, text)}
        # the text as given (a coding cookie in it cannot re-decode it)
        result = lint_source(text, name, run.store.settings_for(absolute))
        errors = [f"{name}: {result.error}"] if result.error else []
        return [result], errors, {name: (absolute, text)}
    paths = args.get("paths")
    if paths is not None and not paths:
        raise ToolInputError("'paths' is empty; leave it out to check the whole workspace.")
    targets, errors = _targets(paths if paths is not None else _default_paths(ws), ws, run)
    results, lint_errors = _lint_targets(targets, run, ws, base=ws.base)
    by_name = {t.display: (t.absolute, None) for t in targets}
    return results, sorted(errors + lint_errors), by_name


# ----------------------------------------------------------------------------- tools


def check(args: dict[str, Any], ws: Workspace, cancel: Optional[threading.Event] = None
          ) -> dict[str, Any]:
    _check_inputs(args)
    run = _session(ws, args.get("select"))
    results, errors, _ = _lint(args, ws, run)
    if run.store.observed.problem:  # the configured facts file could not be used
        errors = errors + [f"warning: {run.store.observed.problem}"]
    from jaxlint.findings import Finding

    findings = sorted((f for r in results for f in r.findings), key=Finding.sort_key)
    return {
        "findings": [finding_dict(f) for f in findings],
        "errors": errors,
        "files_checked": len(results),
        "summary": _summary(findings, errors),
    }


def fix(args: dict[str, Any], ws: Workspace, cancel: Optional[threading.Event] = None
        ) -> dict[str, Any]:
    from jaxlint.findings import Finding
    from jaxlint.fix.fixer import file_diff, fix_file, fix_text, needs_fixing, unified_diff
    from jaxlint.mcp_server import confined

    _check_inputs(args)
    run = _session(ws, args.get("select"))
    if args.get("source") is not None and args["write"]:
        raise ToolInputError("'write' needs files on disk; with 'source' the fixed text is returned instead.")
    results, errors, where = _lint(args, ws, run)
    unsafe = bool(args["unsafe"])
    files = []
    diffs = []
    remaining: list = []
    fixed_source = None
    n_fixed = 0
    for result in sorted(results, key=lambda r: r.path):
        if result.error or not needs_fixing(result.findings, unsafe):
            remaining.extend(result.findings)
            continue
        absolute, text = where[result.path]
        # with its project's facts: a helper traced from another module is fixed as one
        settings = run.settings_of.get(result.path) or run.store.settings_for(absolute)
        was = None
        ff = None
        try:
            if text is not None and str(absolute).endswith(".ipynb"):
                # a notebook's JSON: fixed as `--fix` fixes the file (its cells), returned as JSON
                ff = fix_file(str(absolute), text.encode("utf-8"), settings, unsafe)
                old, fr, source_file = ff.old, ff.result, ff.source
            elif text is not None:
                old = text
                fr = fix_text(text, result.path, settings, unsafe=unsafe)
                source_file = None
            else:
                was = run.read[str(absolute)]  # the bytes that were linted, as read
                ff = fix_file(str(absolute), was.data, settings, unsafe)
                old, fr, source_file = ff.old, ff.result, ff.source
        except (OSError, ValueError) as exc:
            errors.append(f"{result.path}: cannot be fixed ({exc})")
            remaining.extend(result.findings)
            continue
        errors.extend(f"{result.path}: {line}" for line in fr.errors)
        changed = fr.text != old
        written = False
        if changed and args["write"]:
            try:
                assert source_file is not None and was is not None
                confined.write(was, source_file.encode(fr.text), ws.roots)
                written = True
            except confined.Refused as exc:
                errors.append(f"{result.path}: not written ({exc})")
                remaining.extend(result.findings)
                continue
            except (OSError, UnicodeEncodeError) as exc:
                errors.append(f"{result.path}: cannot be written ({exc})")
                remaining.extend(result.findings)
                continue
        if text is not None:
            fixed_source = fr.text if ff is None else (
                source_file.encode(fr.text).decode("utf-8") if changed else text)
        if changed:
            # a notebook's diff is one per changed cell, in the cells' own lines (as `--diff`)
            diffs.append(file_diff(dataclasses.replace(ff, path=result.path)) if ff is not None
                         else unified_diff(result.path, old, fr.text))
            n_fixed += len(fr.applied)
        remaining.extend(_relative_chain(dataclasses.replace(f, path=result.path), run.base) for f in fr.findings)
        files.append({
            "path": result.path,
            "applied": [{"code": a.code, "line": a.line, "column": a.col, "message": a.message}
                        for a in fr.applied] if changed else [],
            "skipped": list(fr.skipped),
            "written": written,
        })
    remaining.sort(key=Finding.sort_key)
    out: dict[str, Any] = {
        "diff": "".join(diffs),
        "fixed": n_fixed,
        "written": any(f["written"] for f in files),
        "files_checked": len(results),
        "files": files,
        "remaining": [finding_dict(f) for f in remaining],
        "errors": sorted(errors),
    }
    if args.get("source") is not None:
        out["source"] = fixed_source if fixed_source is not None else args["source"]
    verb = "Fixed" if args["write"] else "Would fix"
    out["summary"] = (f"{verb} {n_fixed} finding{'s' if n_fixed != 1 else ''}; "
                      f"{len(remaining)} remain{'s' if len(remaining) == 1 else ''}.")
    return out


def rules(args: dict[str, Any], ws: Workspace, cancel: Optional[threading.Event] = None
          ) -> dict[str, Any]:
    from jaxlint.rules import all_rules

    return {
        "rules": [
            {
                "code": r.code,
                "name": r.name,
                "summary": r.summary,
                "severity": getattr(r.severity, "value", str(r.severity)),
                "default_enabled": bool(r.default_enabled),
                "fix_availability": r.fix_availability,
                "url": None,  # no public rule pages: `jaxlint rule CODE` has the text
            }
            for r in all_rules()
        ]
    }


def rule(args: dict[str, Any], ws: Workspace, cancel: Optional[threading.Event] = None
         ) -> dict[str, Any]:
    from jaxlint.docs import render_rule_markdown
    from jaxlint.rules import all_rules

    key = args["code"].strip()
    if not key:
        raise ToolInputError("'code' must not be empty; give a rule code such as JAX201, or a rule name.")
    found = next((r for r in all_rules() if r.code == key.upper() or r.name == key.lower()), None)
    if found is None:
        raise ToolInputError(f"Unknown rule {quote(args['code'])} (the rules tool lists every code).")
    return {
        "code": found.code,
        "name": found.name,
        "summary": found.summary,
        "severity": getattr(found.severity, "value", str(found.severity)),
        "default_enabled": bool(found.default_enabled),
        "fix_availability": found.fix_availability,
        "url": None,
        "what_it_does": (found.what_it_does or "").strip(),
        "why_bad": (found.why_bad or "").strip(),
        "example": found.INVALID[0].code.strip() if found.INVALID else "",
        "use_instead": (found.use_instead or "").strip(),
        "fix_safety": (found.fix_safety or "").strip(),
        "documentation": render_rule_markdown(found),
    }


def confirm(args: dict[str, Any], ws: Workspace, cancel: Optional[threading.Event] = None,
            time_limit: float = CONFIRM_TIME_LIMIT) -> dict[str, Any]:
    """``jaxlint confirm --output-format json`` in a subprocess, in the first root.

    The subprocess and its workers are killed when ``cancel`` is set (the client
    cancelled the call, or the server is stopping) or after ``time_limit`` seconds."""
    paths = args["paths"]
    if not paths:
        raise ToolInputError("'paths' is empty; name the files to confirm.")
    resolved = []
    for raw in paths:
        absolute = ws.resolve(raw)
        ws.exists(absolute, raw)
        resolved.append((raw, absolute))
    select = args.get("select")
    run = _session(ws, select)  # checks the selectors and the configuration first
    cmd = [sys.executable, "-m", "jaxlint", "confirm", "--output-format", "json"]
    if select:
        cmd += ["--select", ",".join(select)]
    if args.get("timeout") is not None:
        cmd += ["--timeout", repr(float(args["timeout"]))]
    for command in args.get("run") or ():
        if not command.strip():
            raise ToolInputError("each 'run' command must be a non-empty string.")
        if "\0" in command:
            raise ToolInputError(f"'run' command {quote(command)} contains a NUL character.")
        if len(command.encode("utf-8", "surrogatepass")) > MAX_COMMAND_BYTES:
            raise ToolInputError(f"'run' command {quote(command)} is too long "
                                 f"(at most {MAX_COMMAND_BYTES} bytes).")
        cmd += ["--run", command]
    # the subprocess runs in the first root and shows the files under it relative to it;
    # files under a path the client gave as absolute are shown absolute again, as check does
    cmd += ["--", *[str(a) for _, a in resolved]]
    absolute_requests = [a for r, a in resolved if Path(r).expanduser().is_absolute()]
    env = dict(os.environ, NO_COLOR="1")
    env.pop("FORCE_COLOR", None)
    env[DIE_WITH_PARENT_ENV] = str(os.getpid())  # it gets SIGTERM (and stops its workers) if the server dies
    # the companion's cache is the one check uses: inside the roots, or none
    if run.cache_dir is not None:
        env["JAXLINT_CACHE_DIR"] = str(run.cache_dir)
    else:
        cmd.insert(cmd.index("--output-format"), "--no-cache")
    try:
        proc = subprocess.Popen(cmd, cwd=ws.base, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env, start_new_session=True)
    except (OSError, ValueError) as exc:
        why = getattr(exc, "strerror", None) or str(exc)
        raise ToolInputError(f"The runtime companion could not be started ({why}).") from None
    deadline = time.monotonic() + time_limit
    while True:
        try:
            out, err = proc.communicate(timeout=_POLL_S)
            break
        except subprocess.TimeoutExpired:
            why = None
            if cancel is not None and cancel.is_set():
                why = "confirm was cancelled, and its processes were stopped."
            elif time.monotonic() >= deadline:
                why = (f"confirm did not finish within {time_limit:g} s and was stopped; "
                       "name fewer files or rules.")
            if why is None:
                continue
            # SIGTERM first: the companion ends its JAX workers and what the user's code started
            proc.terminate()
            try:
                proc.communicate(timeout=_STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # whatever is left of its group
            except OSError:
                proc.kill()
            proc.communicate()
            raise ToolInputError(why) from None
    from jaxlint.runtime.report import FAILED_RUN_NOTE

    stderr = err.decode("utf-8", "replace").splitlines()
    errors = [line[len("error: "):] for line in stderr if line.startswith("error: ")]
    # a `run` command that crashed or timed out: the agent is told (the CLI says it on stderr)
    failed_runs = [line[len("jaxlint: "):] for line in stderr
                   if line.startswith("jaxlint: ") and FAILED_RUN_NOTE in line]
    errors += failed_runs
    try:
        data = json.loads(out.decode("utf-8", "replace")) if out.strip() else None
    except ValueError:
        data = None
    if not isinstance(data, list):
        reason = errors[0] if errors else f"it exited with code {proc.returncode} and printed no report"
        raise ToolInputError(f"The runtime companion failed: {reason}.")
    from jaxlint.findings import Finding

    findings = []
    for d in data:
        f = Finding.from_dict(d)
        full = ws.base / f.path
        if not Path(f.path).is_absolute() and any(full == a or a in full.parents for a in absolute_requests):
            f = dataclasses.replace(f, path=str(full))
        findings.append(f)
    verdicts: dict[str, int] = {}
    for f in findings:
        v = (f.runtime or {}).get("verdict", "none")
        verdicts[v] = verdicts.get(v, 0) + 1
    summary = (", ".join(f"{n} {v}" for v, n in sorted(verdicts.items())) or "No findings") + "."
    if failed_runs:
        summary += (f" {len(failed_runs)} `run` command{'s' if len(failed_runs) != 1 else ''} "
                    "failed (see errors).")
    return {
        "findings": [finding_dict(f) for f in findings],
        "verdicts": verdicts,
        "errors": errors,
        "summary": summary,
    }


# ----------------------------------------------------------------------------- specs

_POS = {"type": "object", "properties": {"line": {"type": "integer"}, "column": {"type": "integer"}},
        "required": ["line", "column"]}
_FINDING = {
    "type": "object",
    "properties": {
        "code": {"type": "string"},
        "name": {"type": "string"},
        "message": {"type": "string"},
        "path": {"type": "string"},
        "line": {"type": "integer"},
        "column": {"type": "integer"},
        "end": _POS,
        "severity": {"type": "string", "enum": ["error", "warning", "info"]},
        "function": {"type": ["string", "null"]},
        "url": {"type": ["string", "null"]},
        "fix": {
            "type": ["object", "null"],
            "properties": {
                "safety": {"type": "string", "enum": ["safe", "unsafe"]},
                "message": {"type": "string"},
                "edits": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"line": {"type": "integer"}, "column": {"type": "integer"},
                                       "end": _POS, "content": {"type": "string"}},
                        "required": ["line", "column", "end", "content"],
                    },
                },
            },
            "required": ["safety", "message", "edits"],
        },
        "runtime": {"type": "object"},
    },
    "required": ["code", "name", "message", "path", "line", "column", "end", "severity", "fix"],
}
_STRINGS = {"type": "array", "items": {"type": "string"}}
_RULE_FACTS = {
    "code": {"type": "string"},
    "name": {"type": "string"},
    "summary": {"type": "string"},
    "severity": {"type": "string"},
    "default_enabled": {"type": "boolean"},
    "fix_availability": {"type": "string", "enum": ["none", "sometimes", "always"]},
    "url": {"type": ["string", "null"]},
}

_SELECT = Param("select", "strings",
                "Rule codes, prefixes (JAX1) or names to check instead of the configured selection; "
                "ALL for every rule.")
_PATHS = Param("paths", "strings",
               "Files or directories, absolute or relative to the first workspace root. "
               "Directories are searched for *.py/*.pyi as `jaxlint check` does.")
_SOURCE = Param("source", "string", "Python text to lint instead of files on disk (an unsaved buffer).")
_FILENAME = Param("filename", "string",
                  "The path the `source` text would have; it selects the configuration and "
                  "per-file ignores, and is the path findings report.")

TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="check",
        title="Lint for JAX sharp bits",
        description=(
            "Lint Python files for JAX sharp bits (traced control flow, in-place updates, PRNG key "
            "reuse, recompilation, ...) with the project's jaxlint configuration, giving the same "
            "findings as `jaxlint check`. Give `paths`, or `source` (with `filename`) for text that "
            "is not saved; with neither, the whole workspace is checked. Each finding has its code, "
            "message, position (1-based line and column, and end), severity and, when jaxlint can "
            "fix it, the fix (safe or unsafe) with its edits. Reads files only; runs no user code."
        ),
        params=(_PATHS, _SOURCE, _FILENAME, _SELECT),
        output_schema={
            "type": "object",
            "properties": {"findings": {"type": "array", "items": _FINDING}, "errors": _STRINGS,
                           "files_checked": {"type": "integer"}, "summary": {"type": "string"}},
            "required": ["findings", "errors", "files_checked", "summary"],
        },
        read_only=True,
        run=check,
    ),
    ToolSpec(
        name="fix",
        title="Fix JAX sharp bits",
        description=(
            "Apply jaxlint's automatic fixes to `paths` (or to `source`) and return the unified diff "
            "and the findings that remain. Every fix is verified first, as `jaxlint --fix` does: the "
            "result must still parse and no rule may report more findings. Files are written only "
            "when `write` is true; `unsafe` also applies fixes that may change behaviour (review "
            "their diff). With `source`, the fixed text is returned in `source`."
        ),
        params=(
            Param("paths", "strings", _PATHS.description),
            _SOURCE,
            _FILENAME,
            _SELECT,
            Param("unsafe", "boolean", "Also apply unsafe fixes (they may change behaviour).",
                  default=False),
            Param("write", "boolean", "Write the fixed files; otherwise only the diff is returned.",
                  default=False),
        ),
        output_schema={
            "type": "object",
            "properties": {
                "diff": {"type": "string"},
                "fixed": {"type": "integer"},
                "written": {"type": "boolean"},
                "files_checked": {"type": "integer"},
                "files": {"type": "array", "items": {"type": "object"}},
                "remaining": {"type": "array", "items": _FINDING},
                "errors": _STRINGS,
                "source": {"type": "string"},
                "summary": {"type": "string"},
            },
            "required": ["diff", "fixed", "written", "files_checked", "files", "remaining", "errors", "summary"],
        },
        read_only=False,
        destructive=True,
        run=fix,
    ),
    ToolSpec(
        name="confirm",
        title="Confirm findings with real JAX (runs user code)",
        description=(
            "RUNS THE USER'S CODE: imports the given files and traces or runs each flagged function "
            "under real JAX, in a separate process (the `jaxlint confirm` runtime companion), to "
            "confirm each finding. Each finding comes back with `runtime.verdict`: confirmed (with "
            "JAX's evidence), not-reproduced, not-exercised (the check never ran the flagged line), or "
            "skipped (with the reason). Needs JAX installed; use "
            "it only on code you trust. `run` gives commands of the project (e.g. `python train.py "
            "--steps 2`, `pytest -x tests/`) to run with a recorder that captures the real inputs of "
            "the flagged functions (else the configured `[tool.jaxlint.runtime] run`). `timeout` "
            "limits each import and each finding (default 60 s, or the configured one); the whole "
            f"call stops after {CONFIRM_TIME_LIMIT:g} s."
        ),
        params=(
            Param("paths", "strings", "Python files, Jupyter notebooks (.ipynb: run top to bottom, "
                  "cell by cell, each finding reported with its `cell`) or directories whose "
                  "findings to confirm, absolute or relative to the first workspace root.",
                  required=True),
            _SELECT,
            Param("run", "strings", "Commands of the project to run with the input recorder "
                  "(each runs the user's code), as `jaxlint confirm --run`."),
            Param("timeout", "seconds", "Seconds allowed for each import and each finding."),
        ),
        output_schema={
            "type": "object",
            "properties": {"findings": {"type": "array", "items": _FINDING},
                           "verdicts": {"type": "object", "additionalProperties": {"type": "integer"}},
                           "errors": _STRINGS, "summary": {"type": "string"}},
            "required": ["findings", "verdicts", "errors", "summary"],
        },
        read_only=False,
        destructive=False,
        open_world=True,
        run=confirm,
    ),
    ToolSpec(
        name="rules",
        title="List jaxlint rules",
        description=(
            "List every jaxlint rule: code, name, one-line summary, severity, whether it is on by "
            "default, and whether an automatic fix exists (none, sometimes, always)."
        ),
        params=(),
        output_schema={
            "type": "object",
            "properties": {"rules": {"type": "array", "items": {
                "type": "object", "properties": _RULE_FACTS, "required": list(_RULE_FACTS)}}},
            "required": ["rules"],
        },
        read_only=True,
        run=rules,
    ),
    ToolSpec(
        name="rule",
        title="Explain a jaxlint rule",
        description=(
            "The documentation of one jaxlint rule, by code (JAX201) or name: what it does, why it "
            "is bad, an example, what to use instead, and how safe its fix is (also as one Markdown "
            "page in `documentation`)."
        ),
        params=(Param("code", "string", "A rule code such as JAX201, or a rule name.", required=True),),
        output_schema={
            "type": "object",
            "properties": {**_RULE_FACTS, **{k: {"type": "string"} for k in (
                "what_it_does", "why_bad", "example", "use_instead", "fix_safety", "documentation")}},
            "required": [*_RULE_FACTS, "what_it_does", "why_bad", "example", "use_instead",
                         "fix_safety", "documentation"],
        },
        read_only=True,
        run=rule,
    ),
)

BY_NAME = {t.name: t for t in TOOLS}


def call(name: str, arguments: Any, ws: Workspace,
         cancel: Optional[threading.Event] = None) -> dict[str, Any]:
    """Run one tool; ToolInputError for an unknown tool or bad arguments.

    ``cancel``, once set, stops a running ``confirm`` (the other tools are quick)."""
    from jaxlint.workspace.config import ConfigError

    spec = BY_NAME.get(name)
    if spec is None:
        raise ToolInputError(f"Unknown tool {quote(str(name))}; the tools are {', '.join(BY_NAME)}.")
    try:
        return spec.run(spec.validate(arguments), ws, cancel)
    except ConfigError as exc:  # a configuration file met while linting
        raise ToolInputError(f"The jaxlint configuration is invalid: {exc}") from None
