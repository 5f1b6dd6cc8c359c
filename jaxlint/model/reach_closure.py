"""The project's derivative reach, closed over its files (model/gradreach.py tells what
each file differentiates, hands on and mentions).  Plain Python on the files' summaries
(no libcst): the project driver runs it every round, also on a warm run from the cache.

A function is reached when a reached body (or a root) mentions it: a name of its file's
scope, the function an import names, or, for an attribute, a re-export or a star
import, any function of that name; a class mentioned anywhere reaches its dunder methods
and ``setup`` (what Python and the module libraries call on its object); a module-level
name reached reaches what it is bound to.  A file the run read but did not analyse gives
every word of its text outside imports.
"""

from __future__ import annotations

import re
from typing import Iterable, Optional

# names a test runner and Python call on a class's object
_DUNDER = re.compile(r"^(__\w+__|setup)$")
# a word of a file's text that may name a function: not a module or object an attribute is
# read from (`pkg.inference.Taylor`: `Taylor`), not on an import line
_WORD = re.compile(rb"(?<![\w.])[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*")
_IMPORT_LINE = re.compile(rb"^[ \t]*(?:from|import)[ \t][^\n(]*(?:\([^)]*\)|[^\n]*)", re.M)


def underived(summaries: dict[str, dict], unread: Iterable[bytes],
              module_of: Optional[dict[str, str]] = None, entries: frozenset = frozenset()) -> dict[str, list[str]]:
    """file -> the functions and methods (``f``, ``Class.m``) of it that no derivative of
    the project reaches.  ``summaries``: each analysed file's ``summarize``; ``unread``: the
    text of the project's files that gave none (their words are all roots); ``module_of``:
    each file's module name (``pkg.ops``), for what an import names; ``entries``: the
    project's tests and notebooks, whose use of a function is no use by the project's own
    code (a library's function its tests call is still there for its users)."""
    if any("*" in s.get("roots", ()) for s in summaries.values()):
        # a derivative of a function no name places (model/gradreach.py OPAQUE): any
        # function may be the one differentiated
        return {}
    by_name: dict[str, list[tuple[str, str, str]]] = {}  # last name -> (kind, file, key)
    in_file: dict[tuple[str, str], list[tuple[str, str, str]]] = {}  # (file, key) -> targets
    methods_of: dict[tuple[str, str], list[str]] = {}
    globals_of: dict[tuple[str, str], list[str]] = {}
    mentioned_anywhere: set[str] = set()
    used: set[str] = set()  # mentioned by the project's own code (not its tests and notebooks)

    def add(kind: str, f: str, key: str) -> None:
        target = (kind, f, key)
        by_name.setdefault(key.rsplit(".", 1)[-1], []).append(target)
        in_file.setdefault((f, key), []).append(target)

    for f, s in summaries.items():
        for key, toks in s.get("units", {}).items():
            mentioned_anywhere.update(_last(t) for t in toks)
            if key.endswith(".__classbody__"):
                cname = key[: -len(".__classbody__")]
                add("class", f, cname)
                methods_of.setdefault((f, cname), []).append(key)
                continue
            add("func", f, key)
            if "." in key:
                methods_of.setdefault((f, key.rsplit(".", 1)[0]), []).append(key)
        for name, toks in s.get("globals", {}).items():
            globals_of.setdefault((f, name), []).extend(toks)
            add("global", f, name)
            mentioned_anywhere.update(_last(t) for t in toks)
        for t in (*s.get("roots", ()), *s.get("top", ())):
            mentioned_anywhere.add(_last(t))
        if f not in entries:
            for toks in (*s.get("units", {}).values(), *s.get("globals", {}).values(),
                         s.get("roots", ()), s.get("top", ())):
                used.update(_last(t) for t in toks)
    file_of = {m: f for f, m in (module_of or {}).items() if m}
    packages = {m.split(".", 1)[0] for m in file_of}

    def resolve(f: Optional[str], tok: str) -> list[tuple[str, str, str]]:
        if tok.startswith("="):
            name = tok[1:]
            found = in_file.get((f, name), []) if f is not None else []
            if not found and f is not None:
                # a function defined inside a unit (`jax.grad(lambda b: _safe_div(1.0, b))`
                # in the method that defines `_safe_div`): that unit
                found = [t for outer in summaries.get(f, {}).get("nested", {}).get(name, ())
                         for t in in_file.get((f, outer), [])]
            if not found and f is not None and name in summaries.get(f, {}).get("relative", {}):
                # `from .ops import energy`: the function of the module it names
                placed = _absolute(summaries[f]["relative"][name], (module_of or {}).get(f), f)
                return resolve(None, "@" + placed) if placed is not None else by_name.get(name, [])
            if found or f is None or not summaries.get(f, {}).get("star"):
                return found  # a name of this file's scope (or a builtin, a local)
            return by_name.get(name, [])
        if tok.startswith("@"):
            parts = tok[1:].split(".")
            for i in range(len(parts) - 1, 0, -1):
                target_file = file_of.get(".".join(parts[:i]))
                if target_file is not None:
                    found = in_file.get((target_file, ".".join(parts[i:])), [])
                    if found:
                        return found
                    break
            if parts[0] not in packages:
                return []  # a library's function (`jax.numpy.sum`)
            return by_name.get(parts[-1], [])  # re-exported by a package, or not placed: by name
        return by_name.get(tok, [])

    reached: set[tuple[str, str]] = set()
    work: list[tuple[Optional[str], str]] = []
    for f, s in summaries.items():
        work.extend((f, t) for t in s.get("roots", ()))
    for data in unread:
        text = _IMPORT_LINE.sub(b"", data)
        work.extend((None, w.rsplit(b".", 1)[-1].strip().decode("ascii", "replace"))
                    for w in set(_WORD.findall(text)))

    def reach_class(f: str, ckey: str) -> None:
        # what Python and the module libraries call on its object (`__call__`, `setup`...)
        for m in methods_of.get((f, ckey), ()):
            if m.endswith(".__classbody__") or _DUNDER.match(m.rsplit(".", 1)[-1]):
                reach(f, m)

    def reach(f: str, key: str) -> None:
        if (f, key) not in reached:
            reached.add((f, key))
            work.extend((f, t) for t in summaries[f]["units"].get(key, ()))

    # a class mentioned anywhere: its object may go anywhere
    for targets in by_name.values():
        for kind, f, key in targets:
            if kind == "class" and key.rsplit(".", 1)[-1] in mentioned_anywhere:
                reach_class(f, key)
    seen: set[tuple[Optional[str], str]] = set()
    while work:
        item = work.pop()
        if item in seen:
            continue
        seen.add(item)
        for kind, f, key in resolve(*item):
            if kind == "func":
                reach(f, key)
            elif kind == "class":
                reach_class(f, key)
            elif (f, key) not in reached:
                reached.add((f, key))
                work.extend((f, t) for t in globals_of.get((f, key), ()))
    out: dict[str, list[str]] = {}
    for f, s in summaries.items():
        # (a function the project never mentions is there for its users, who may differentiate it)
        left = [k for k in s.get("units", {}) if not k.endswith(".__classbody__") and (f, k) not in reached
                and k.rsplit(".", 1)[-1] in used]
        if left:
            out[f] = sorted(left)
    return out


def _absolute(relative: str, module: Optional[str], path: str) -> Optional[str]:
    """``..ops.energy`` imported in module ``pkg.sub.model`` -> ``pkg.ops.energy`` (a
    package's ``__init__.py`` is its own base); None where the dots climb above it."""
    if not module:
        return None
    level = len(relative) - len(relative.lstrip("."))
    parts = module.split(".")
    if not path.replace("\\", "/").endswith("/__init__.py") and path != "__init__.py":
        parts = parts[:-1]
    if level - 1 > len(parts):
        return None
    base = parts[:len(parts) - (level - 1)]
    rest = relative[level:]
    return ".".join([*base, rest] if rest else base) or None


def _last(tok: str) -> str:
    return tok.lstrip("=@").rsplit(".", 1)[-1]
