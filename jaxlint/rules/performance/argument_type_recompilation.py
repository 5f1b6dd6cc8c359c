"""JAX508 argument-type-recompilation: A jitted function was compiled again and again because its arguments' shapes, dtypes or weak types kept changing."""

from __future__ import annotations

from jaxlint.engine.rule import Rule
from jaxlint.findings import Severity


class ArgumentTypeRecompilation(Rule):
    code = "JAX508"
    name = "argument-type-recompilation"
    summary = "A jitted function was compiled again and again because its arguments' shapes, dtypes or weak types kept changing"
    severity = Severity.WARNING
    seed = "The Sharp Bits § Dynamic shapes; type promotion § weak types"
    runtime_check = "None: only a run shows it; `jaxlint observe` reports it from the run."
    runtime_only = (
        "`jaxlint observe` runs the command with `jax_explain_cache_misses` on: each time a "
        "jitted function is traced again, JAX logs why its cache missed. A function traced "
        "again because an argument's weak type flipped (a Python scalar one call, a typed "
        "array the next), or traced at least 3 times for changed shapes or dtypes, is "
        "reported at the call of its first retrace, with the compile count and the changes "
        "JAX named. Changed static arguments are JAX504; a function jitted afresh, JAX501."
    )
    what_it_does = (
        "Reports a jitted function recompiled because the abstract types of its arguments "
        "changed between calls: a weak-type flip (`f(1.0)` then `f(jnp.float32(1.0))`), or "
        "3 or more different shapes or dtypes (a batch whose length changes every step)."
    )
    why_bad = (
        "`jit` caches one compiled program per argument shapes, dtypes and weak types. Every "
        "new combination traces and compiles again, which can cost more than the computation "
        "itself; a weak-type flip compiles twice for the same shapes."
    )
    use_instead = (
        "Pass one kind of argument (`jnp.asarray(x, jnp.float32)` at the boundary); pad or "
        "bucket variable-length inputs to a few shapes (and mask)."
    )
    fix_safety = "No automatic fix."
