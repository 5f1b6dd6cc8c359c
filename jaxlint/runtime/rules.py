"""Which rules the runtime companion can check, and how (pure Python, no JAX).

``check_name(code)`` names the check in ``checks.py`` (``check_<name>``).
"""

from __future__ import annotations

from typing import Optional

CHECKS = {
    "JAX101": "trace_error",   # TypeError on item assignment, at the flagged line
    "JAX102": "dead_update",   # the .at[] scatter is dead code in the jaxpr
    "JAX110": "float64",       # JAX's dtype warning at the line; the dtype produced
    "JAX120": "grad_nan",      # jax.grad at the boundary point is NaN
    "JAX121": "out_of_bounds", # checkify(index_checks)
    "JAX201": "trace_error",   # TracerBoolConversionError / ConcretizationTypeError
    "JAX202": "trace_error",   # Concretization / TracerInteger / TracerArray conversion
    "JAX203": "trace_error",   # TypeError: an iterator is not a JAX type
    "JAX301": "key_reuse",     # check_key_reuse with typed keys; use sites from debug_key_reuse
    "JAX501": "recompiles",    # backend compiles per call (jax.monitoring)
    "JAX502": "unrolled",      # jaxpr equation counts (and their growth)
    "JAX503": "unrolled",
    "JAX406": "baked",         # jitted output identical across calls, eager output varies
    "JAX504": "recompiles",
    "JAX506": "runtime_error", # using a donated buffer raises at the line
}
PREFIXES = {"JAX2": "trace_error", "JAX4": "impurity"}


def check_name(code: str) -> Optional[str]:
    if code in CHECKS:
        return CHECKS[code]
    for prefix, name in PREFIXES.items():
        if code.startswith(prefix):
            return name
    return None
