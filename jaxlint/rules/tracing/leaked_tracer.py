"""JAX211 leaked-tracer: A tracer escaped the transformation that made it (seen by `jax.checking_leaks`, or used later: `UnexpectedTracerError`)."""

from __future__ import annotations

from jaxlint.engine.rule import Rule
from jaxlint.findings import Severity


class LeakedTracer(Rule):
    code = "JAX211"
    name = "leaked-tracer"
    summary = "A tracer escaped the transformation that made it (seen by `jax.checking_leaks`, or used later: `UnexpectedTracerError`)"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Pure functions; JAX errors § UnexpectedTracerError"
    runtime_check = "None: only a run shows it; `jaxlint observe` reports it from the run."
    runtime_only = (
        "`jaxlint observe` reports a leaked tracer the run used: `UnexpectedTracerError`, a "
        "`TypeError` \"... Tracer'> is not a valid JAX type\" when it reaches a jitted call, "
        "or a tracer error raised outside the function JAX was tracing (the error names that "
        "function; its source says where it ends). With `--check-leaks` it also runs JAX's "
        "`jax_check_tracer_leaks` (the flag behind `jax.checking_leaks`): when a trace ends, "
        "JAX looks for its tracers still referenced from outside (a global list, an "
        "attribute, a closure cell) and raises `Exception: Leaked trace ...` (off by default: "
        "with it JAX compiles every eager operation afresh). Each ends the run; the finding is "
        "at the innermost line of your code in the error's stack."
    )
    what_it_does = (
        "Reports a tracer that outlived its trace: stored in a global, on `self`, in an outer "
        "list, or returned through a side channel from a jitted, vmapped or differentiated "
        "function. The static rules JAX402/JAX403/JAX404 flag the writes they can see; a run "
        "shows the ones made through helpers, containers and libraries as well."
    )
    why_bad = (
        "A tracer stands for a value only while its function is traced. Kept and used later "
        "it raises `UnexpectedTracerError` far from the line that leaked it; kept and never "
        "used it holds the whole trace in memory."
    )
    use_instead = "Return the value from the transformed function instead of storing it (carry it as state)."
    fix_safety = "No automatic fix."
