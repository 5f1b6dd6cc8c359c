"""Helpers shared by the impurity rules (JAX401-JAX406).

JAX traces a function once per input signature and replays the recorded
computation afterwards.  Python side effects (printing, writing globals,
mutating objects and outer containers, drawing from a stateful RNG) happen
once, at trace time, and the values they see are tracers, not numbers.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import assignment_targets
from jaxlint.model.units import Unit


OWN_TRACE_REASONS = ("decorated with", "wrapped by", "a body passed to")


def own_trace(unit: Unit) -> bool:
    """The unit is traced by a transformation of its own (not only as a helper
    running inside its caller's trace)."""
    return any(r.startswith(OWN_TRACE_REASONS) for r in unit.reasons)


def binds(u: Unit, name: str) -> bool:
    return (name in u.assigned or u.param(name) is not None) and name not in u.global_names


def owner_of(unit: Unit, name: str) -> Optional[Unit]:
    """The enclosing unit whose local ``name`` is (None: the module)."""
    u = unit.parent
    while u is not None and not u.is_module:
        if binds(u, name) and name not in u.nonlocal_names:
            return u
        u = u.parent
    return None


def escapes(unit: Unit, owner: Optional[Unit]) -> bool:
    """Does a value stored from ``unit`` into a variable of ``owner`` outlive
    the trace that produced it?"""
    if owner is None or not owner.traced or owner.host:
        return True
    u: Optional[Unit] = unit
    while u is not None and u is not owner:
        if own_trace(u):
            return True
        u = u.parent
    return False


def assign_pairs(node: cst.CSTNode) -> list[tuple[cst.CSTNode, cst.BaseExpression]]:
    """(target, value) for each target of an assignment that has a value."""
    value = getattr(node, "value", None)
    if value is None:
        return []
    return [(t, value) for t in assignment_targets(node)]
