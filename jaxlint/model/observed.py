"""Observed facts in the model (``jaxlint check --observed``).

``jaxlint observe`` recorded which functions ran under a JAX trace and the kind of
value each parameter received there (``jaxlint/workspace/observed.py``; the file's
settings carry this file's share, ``LintSettings.observed``).  They are used only
where the model's own inference says nothing, and never against what it shows:

* a function the model does not take as traced when its turn comes (callers and
  enclosing functions first, so every mark the model makes itself is in) becomes
  traced when the run saw it under ``jit`` (a jaxpr trace: jit, scan, cond...) or
  ``vmap``, with a reason that says so; under ``grad`` alone it stays as it is
  (values there are concrete);
* in a traced function, a parameter the model marked neither traced nor static
  becomes traced where every observed call gave it a tracer (an array tracer: a JAX
  array; a container of tracers: a traced value of unknown kind), and static where
  every call gave it a static argument or a Python number.

A unit is found by the model's qualified name and its rank among the units of that
name in source order (two ``def f`` in one scope, lambdas).
"""

from __future__ import annotations

import json
from typing import Optional

from jaxlint.model.units import Unit

_TRACED = {"tracer": True, "pytree-tracers": False}  # kind -> an array
_STATIC = frozenset({"static", "scalar"})


def observed_units(units: list[Unit], raw: str) -> dict[int, dict]:
    """id(unit) -> its observed fact, from ``LintSettings.observed``."""
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        return {}
    wanted: dict[tuple[str, int], dict] = {}
    for entry in data.get("units") or ():
        if isinstance(entry, list) and len(entry) == 3 and isinstance(entry[2], dict):
            wanted[(str(entry[0]), int(entry[1]))] = entry[2]
    if not wanted:
        return {}
    out: dict[int, dict] = {}
    rank: dict[str, int] = {}
    for u in units:
        if u.is_module:
            continue
        n = rank.get(u.qualname, 0)
        rank[u.qualname] = n + 1
        fact = wanted.get((u.qualname, n))
        if fact is not None:
            out[id(u)] = fact
    return out


def _reason(fact: dict) -> Optional[str]:
    under = set(fact.get("under") or ())
    if "jit" in under:
        if fact.get("root"):
            return "traced by jax.jit in the run `jaxlint observe` recorded"
        return "seen running under a JAX trace in the run `jaxlint observe` recorded"
    if "vmap" in under or "other" in under:
        return "seen running under jax.vmap in the run `jaxlint observe` recorded" \
            if under & {"vmap", "other"} == {"vmap"} else \
            "seen running under a JAX trace in the run `jaxlint observe` recorded"
    return None  # grad alone (concrete values), or untraced


def apply(unit: Unit, fact: dict) -> None:
    """Fill in what the model left unknown about ``unit`` with what the run saw."""
    if unit.host:
        return
    reason = _reason(fact)
    if reason is None:
        return
    if not unit.traced:
        unit.mark_traced(reason)
        under = set(fact.get("under") or ())
        if "jit" not in under and "other" not in under:
            unit.eager_reasons.add(reason)  # vmap alone: what the batch does not touch is concrete
    params = fact.get("params") or {}
    for p in unit.params:
        if p.name in unit.traced_params or p.name in unit.static_params:
            continue
        kind = params.get(p.name)
        if kind in _TRACED:
            unit.traced_params.add(p.name)
            if _TRACED[kind]:
                unit.array_params.add(p.name)
        elif kind in _STATIC:
            unit.static_params.add(p.name)
