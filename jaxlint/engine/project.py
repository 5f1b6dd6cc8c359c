"""What one file tells the rest of its project: the facts other modules need.

After the walk, the interpreter knows every call from traced code to a function
imported from the project's own modules (with the arguments that are tracers),
and the index knows every transformation applied here to such a function
(``jax.jit(losses.loss_fn, static_argnums=1)``).  They go out as plain JSON with
their lines, for ``jaxlint/project/facts.py`` to resolve and hand to the
modules that define those functions.
"""

from __future__ import annotations

from jaxlint.model.interpreter import Interpreter
from jaxlint.model.jit_calls import export_of
from jaxlint.positions import node_ranges
from jaxlint.settings import LintSettings


def _why(reasons: list[str]) -> str:
    return reasons[0] if reasons else "traced"


def outgoing_facts(interp: Interpreter, settings: LintSettings) -> dict:
    packages = settings.project_packages
    imports = interp.imports
    sites = [
        s for s in interp.index.external_sites
        if imports.project_import(s.callee.split(".", 1)[0], packages)
    ]
    jits = {}
    for name, info in sorted(interp.jit_calls.exports().items()):
        decl = export_of(info)
        if decl is not None:
            jits[name] = decl
    calls = interp.external_calls
    if not calls and not sites:
        return {"calls": [], "sites": [], "jits": jits}
    ranges = node_ranges(interp.module, [c.node for c in calls] + [s.node for s in sites])

    def line(node) -> int:
        rng = ranges.get(id(node))
        return rng[0][0] if rng else 0

    out_calls = []
    seen = set()
    for c in calls:
        key = (c.callee, c.caller.qualname, c.traced_pos, c.traced_kw, c.array_pos, c.array_kw,
               c.n_pos, c.keywords, c.none_pos, c.none_kw)
        if key in seen:
            continue
        seen.add(key)
        out_calls.append({
            "callee": c.callee,
            "caller": c.caller.qualname,
            "line": line(c.node),
            "why": _why(c.caller.reasons),
            "traced_pos": list(c.traced_pos),
            "traced_kw": list(c.traced_kw),
            "array_pos": list(c.array_pos),
            "array_kw": list(c.array_kw),
            "n_pos": c.n_pos,
            "keywords": list(c.keywords),
            "none_pos": list(c.none_pos),
            "none_kw": list(c.none_kw),
        })
    out_sites = []
    for s in sites:
        out_sites.append({
            "callee": s.callee,
            "transform": s.transform,
            "line": line(s.node),
            "why": s.reason,
            "static_pos": None if s.static_pos is None else list(s.static_pos),
            "static_names": None if s.static_names is None else list(s.static_names),
            "n_bound": s.n_bound,
            "kw_bound": list(s.kw_bound),
            "unbatched_pos": list(s.unbatched_pos),
        })
    return {"calls": out_calls, "sites": out_sites, "jits": jits}
