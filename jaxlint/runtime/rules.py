"""Which runtime check each rule gets, or why it gets none (worker side: imports JAX).

Each rule declares it on itself (``Rule.runtime_check``: what the check shows,
or "None: " and why not; it is on the rule's page).  This module holds the check
functions for the rules that have one (``CHECKS``); ``TABLE`` (built on first use) adds a ``NoCheck``
with the rule's own reason for the others.  A test holds the two to each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Union

from jaxlint.runtime import checks


@dataclass(frozen=True)
class RuntimeCheck:
    check: Callable  # (ctx, target, t, args) -> Verdict
    # needs only abstract inputs: a nested body can be traced through its enclosing function
    trace_only: bool = False


@dataclass(frozen=True)
class NoCheck:
    reason: str


Entry = Union[RuntimeCheck, NoCheck]

_TRACE = RuntimeCheck(checks.check_trace_error, trace_only=True)
_IMPURE = RuntimeCheck(checks.check_impurity)

CHECKS: dict[str, RuntimeCheck] = {
    "JAX101": _TRACE,
    "JAX102": RuntimeCheck(checks.check_dead_update),
    "JAX110": RuntimeCheck(checks.check_float64),
    "JAX120": RuntimeCheck(checks.check_grad_nan),
    "JAX121": RuntimeCheck(checks.check_out_of_bounds),
    "JAX130": _TRACE,
    "JAX201": _TRACE,
    "JAX202": _TRACE,
    "JAX203": RuntimeCheck(checks.check_iterator),
    "JAX204": _TRACE,
    "JAX205": _TRACE,
    "JAX206": _TRACE,
    "JAX207": _TRACE,
    "JAX208": _TRACE,
    "JAX209": _TRACE,
    "JAX210": _TRACE,
    "JAX301": RuntimeCheck(checks.check_key_reuse),
    "JAX401": _IMPURE,
    "JAX402": _IMPURE,
    "JAX403": _IMPURE,
    "JAX404": _IMPURE,
    "JAX405": RuntimeCheck(checks.check_stale_global),
    "JAX406": RuntimeCheck(checks.check_baked),
    "JAX501": RuntimeCheck(checks.check_recompiles),
    "JAX502": RuntimeCheck(checks.check_unrolled),
    "JAX503": RuntimeCheck(checks.check_unrolled),
    "JAX504": RuntimeCheck(checks.check_recompiles),
    "JAX506": RuntimeCheck(checks.check_runtime_error),
    "JAX901": RuntimeCheck(checks.check_runtime_error),  # AttributeError at the line
    "JAX902": RuntimeCheck(checks.check_runtime_error),  # DeprecationWarning at the line
    "JAX903": RuntimeCheck(checks.check_runtime_error),  # TypeError: unexpected keyword
    "JAX904": RuntimeCheck(checks.check_runtime_error),  # AttributeError at the line
    "JAX905": RuntimeCheck(checks.check_runtime_error),  # ImportError at the line
}


def _no_checks() -> dict[str, NoCheck]:
    from jaxlint.rules import all_rules

    out = {}
    for rule in all_rules():
        text = rule.runtime_check
        if rule.code not in CHECKS and text.startswith("None:"):
            out[rule.code] = NoCheck(text[len("None:"):].strip().rstrip("."))
    return out


_table: Optional[dict[str, Entry]] = None


def table() -> dict[str, Entry]:
    """Every rule: its check, or its reason for having none (the rules are imported,
    and with them libcst, only here: a check in a recorded process needs neither)."""
    global _table
    if _table is None:
        _table = {**CHECKS, **_no_checks()}
    return _table


def __getattr__(name: str) -> object:
    if name == "TABLE":
        return table()
    raise AttributeError(name)


def lookup(code: str) -> Optional[Entry]:
    found = CHECKS.get(code)
    return found if found is not None else table().get(code)
