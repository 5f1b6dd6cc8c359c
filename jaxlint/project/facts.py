"""Facts across modules: what one file's traced code tells the modules it calls.

Each linted file of a project reports (``FileResult.project``, made by
``jaxlint/engine/project.py``):

* ``calls``: calls from traced code to functions it imports from the project,
  with the argument positions and keywords that are tracers;
* ``sites``: transformations it applies to such functions (``jax.jit(m.f, ...)``);
* ``summary``: its definitions and imports (``summary.py``), for resolution.

``incoming_facts`` resolves each call and site with the ``ProjectIndex`` and
groups them by the module that defines the callee: ``{path: {qualname: [fact]}}``.
A fact names the chain in its reason ("called from `update` (pkg/train.py:14),
which is decorated with @jax.jit"), so messages say why a helper is traced.
Unknown stays unknown: a callee that does not resolve to a function of the
project gives no fact.
"""

from __future__ import annotations

import json
from typing import Iterable, Mapping, Optional

from jaxlint.project.index import ProjectIndex

Json = dict


def _reason(kind: str, caller: str, path: str, line: int, why: str) -> str:
    where = f"{path}:{line}" if line else path
    if kind == "site":
        return f"{why} in {where}"
    who = f"`{caller}`" if caller else "module-level code"
    return f"called from {who} ({where}), which is {_article(why)}"


def _article(why: str) -> str:
    # "decorated with @jax.jit" / "wrapped by jax.jit" / "a body passed to lax.scan" /
    # "called from traced `f`" all read after "which is"
    return why


def incoming_facts(
    index: ProjectIndex,
    outputs: Iterable[tuple[str, str, Json]],
    path_of: Mapping[str, str],
) -> dict[str, dict[str, list[Json]]]:
    """``outputs``: (module name, display path, project output) of every linted file;
    ``path_of``: module name -> display path.  Returns path -> {"units": {qualname:
    [facts]}, "jits": {imported name: declaration}}."""
    out: dict[str, dict] = {}

    def add(module: str, qualname: str, fact: Json) -> None:
        path = path_of.get(module)
        if path is None:
            return
        facts = out.setdefault(path, {}).setdefault("units", {}).setdefault(qualname, [])
        if fact not in facts:
            facts.append(fact)

    outputs = list(outputs)
    jits_of = {module: proj.get("jits") or {} for module, _, proj in outputs}
    for module, path, proj in outputs:
        # jitted functions imported by name from other modules (static/donated arguments)
        for name, binding in sorted((proj["summary"].get("names") or {}).items()):
            if binding.get("k") != "from":
                continue
            target = index.resolve(module, name)
            if target is None or target.kind not in ("function", "assign"):
                continue
            decl = jits_of.get(target.module, {}).get(target.qualname)
            if decl is not None:
                out.setdefault(path, {}).setdefault("jits", {})[name] = decl

        for call in proj.get("calls", ()):
            target = index.resolve(module, call["callee"])
            if target is None or target.kind != "function":
                continue
            add(target.module, target.qualname, {
                "kind": "call",
                "path": path,
                "line": call["line"],
                "reason": _reason("call", call["caller"], path, call["line"], call["why"]),
                "traced_pos": call["traced_pos"],
                "traced_kw": call["traced_kw"],
                "array_pos": call.get("array_pos", []),
                "array_kw": call.get("array_kw", []),
                "n_pos": call.get("n_pos", 0),
                "keywords": call.get("keywords", []),
                "none_pos": call.get("none_pos", []),
                "none_kw": call.get("none_kw", []),
            })
        for site in proj.get("sites", ()):
            target = index.resolve(module, site["callee"])
            if target is None or target.kind != "function":
                continue
            add(target.module, target.qualname, {
                "kind": "site",
                "path": path,
                "line": site["line"],
                "transform": site["transform"],
                "reason": _reason("site", "", path, site["line"], site["why"]),
                "static_pos": site["static_pos"],
                "static_names": site["static_names"],
                "n_bound": site["n_bound"],
                "kw_bound": site["kw_bound"],
                "unbatched_pos": site["unbatched_pos"],
            })
    for facts in out.values():
        for items in facts.get("units", {}).values():
            items.sort(key=lambda f: json.dumps(f, sort_keys=True))
    return out


def canonical(facts: Optional[Mapping[str, Json]]) -> str:
    """The facts of one file as the canonical JSON the cache key includes."""
    if not facts:
        return ""
    return json.dumps(facts, sort_keys=True, separators=(",", ":"))
