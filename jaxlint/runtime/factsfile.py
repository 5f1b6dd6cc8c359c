"""Observed facts, parent side (pure Python, no JAX): ``jaxlint observe`` merges the
``facts`` events its commands' processes wrote (``runtime/factrec.py``) and writes the
facts file that ``jaxlint check --observed`` reads (``workspace/observed.py``: the
format, and the source hash each function is keyed by)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Optional

from jaxlint.workspace.observed import FACTS_VERSION, KINDS, TRACES, functions_of, match, relative_file


def merge(events: list[dict]) -> list[dict]:
    """One record per function (file, qualname, first line) over every process."""
    out: dict[tuple, dict] = {}
    for e in events:
        if e.get("event") != "facts" or not isinstance(e.get("functions"), list):
            continue
        for rec in e["functions"]:
            if not isinstance(rec, dict):
                continue
            key = (rec.get("file"), rec.get("qualname"), rec.get("line"))
            if not all(isinstance(k, (str, int)) for k in key):
                continue
            have = out.get(key)
            if have is None:
                out[key] = have = {"file": key[0], "qualname": key[1], "line": key[2], "under": set(),
                                   "traced_calls": 0, "untraced_calls": 0, "root": False,
                                   "kinds": {}, "static_argnums": set(), "static_argnames": set(),
                                   "commands": set()}
            have["under"].update(u for u in rec.get("under") or () if u in TRACES)
            have["traced_calls"] += int(rec.get("traced_calls") or 0)
            have["untraced_calls"] += int(rec.get("untraced_calls") or 0)
            have["root"] = have["root"] or bool(rec.get("root"))
            for name, kind in (rec.get("params") or {}).items():
                if kind in KINDS:
                    have["kinds"].setdefault(name, set()).add(kind)
            have["static_argnums"].update(int(n) for n in rec.get("static_argnums") or ())
            have["static_argnames"].update(str(n) for n in rec.get("static_argnames") or ())
            if e.get("command"):
                have["commands"].add(e["command"])
    return list(out.values())


def facts_document(events: list[dict], commands: list[str], root: Optional[Path] = None,
                   written_by: str = "jaxlint observe") -> dict:
    """The facts file's content: each function keyed by its file (relative to ``root``,
    the project root, when inside it), qualified name and a hash of its source (read
    now, from the file the run executed)."""
    tables: dict[str, Optional[list]] = {}
    functions = []
    for rec in sorted(merge(events), key=lambda r: (r["file"], r["line"], r["qualname"])):
        table = tables.get(rec["file"], False)
        if table is False:
            try:
                table = functions_of(Path(rec["file"]).read_text(encoding="utf-8"))
            except (OSError, SyntaxError, ValueError, UnicodeDecodeError, RecursionError):
                table = None
            tables[rec["file"]] = table
        found = match(table, rec["qualname"], rec["line"]) if table else None
        if found is None:
            continue  # not a def or lambda jaxlint can name (or two lambdas on one line)
        kinds = rec["kinds"]
        params = {n: (next(iter(ks)) if len(ks) == 1 else "mixed") for n, ks in sorted(kinds.items())}
        functions.append({
            "file": relative_file(rec["file"], root), "qualname": rec["qualname"], "line": rec["line"], "sha": found.sha,
            "under": sorted(rec["under"]), "root": rec["root"],
            "traced_calls": rec["traced_calls"], "untraced_calls": rec["untraced_calls"],
            "params": params,
            "static": sorted(n for n, k in params.items() if k == "static"),
            "static_argnums": sorted(rec["static_argnums"]),
            "static_argnames": sorted(rec["static_argnames"]),
        })
    doc = {"version": FACTS_VERSION, "written_by": written_by, "time": int(time.time()),
           "commands": list(commands), "functions": functions}
    if root is not None:
        doc["root"] = os.path.realpath(root)
    return doc


def write_facts(path: Path, events: list[dict], commands: list[str], root: Optional[Path] = None,
                written_by: str = "jaxlint observe") -> tuple[int, int]:
    """Write the facts file (atomically); (functions recorded, of them traced).
    Raises OSError when it cannot be written."""
    from jaxlint.cache import atomic_write_text

    doc = facts_document(events, commands, root, written_by)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(doc, indent=1, sort_keys=True) + "\n")
    traced = sum(1 for f in doc["functions"] if f["under"])
    return len(doc["functions"]), traced
