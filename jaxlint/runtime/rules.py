"""Which runtime check each rule gets, or why it gets none (worker side: imports JAX).

A plain data table: rule code -> ``RuntimeCheck`` (the check function itself)
or ``NoCheck`` (the reason, shown in the "skipped" verdict).  Every rule code
has an entry (a test holds it to that).  The rules will later declare this on
themselves; until then this table is the one place to look.
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

TABLE: dict[str, Entry] = {
    "JAX001": NoCheck("a syntax error: the file cannot be run"),
    "JAX101": _TRACE,
    "JAX102": RuntimeCheck(checks.check_dead_update),
    "JAX110": RuntimeCheck(checks.check_float64),
    "JAX120": RuntimeCheck(checks.check_grad_nan),
    "JAX121": RuntimeCheck(checks.check_out_of_bounds),
    "JAX122": NoCheck("the cast saturates only for out-of-range values, which seeded "
                      "inputs do not produce"),
    "JAX123": NoCheck("a module-level ordering problem, not a function to call"),
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
    "JAX505": NoCheck("a timing mistake in the caller: results are right, only the "
                      "measured time is wrong"),
    "JAX506": RuntimeCheck(checks.check_runtime_error),
    "JAX901": RuntimeCheck(checks.check_runtime_error),  # AttributeError at the line
    "JAX902": RuntimeCheck(checks.check_runtime_error),  # DeprecationWarning at the line
    "JAX903": RuntimeCheck(checks.check_runtime_error),  # TypeError: unexpected keyword
    "JAX904": RuntimeCheck(checks.check_runtime_error),  # AttributeError at the line
    "JAX905": NoCheck("an import statement at module level: the module fails to import "
                      "(the worker reports that), there is no function to call"),
    "JAX950": NoCheck("a style suggestion (typed keys): nothing goes wrong at run time"),
}


def lookup(code: str) -> Optional[Entry]:
    return TABLE.get(code)
