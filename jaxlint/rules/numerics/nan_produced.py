"""JAX124 nan-produced: A computation of the run produced a NaN (seen by `jax_debug_nans`): the first one, and the operation that made it."""

from __future__ import annotations

from jaxlint.engine.rule import Rule
from jaxlint.findings import Severity


class NanProduced(Rule):
    code = "JAX124"
    name = "nan-produced"
    summary = "A computation of the run produced a NaN (seen by `jax_debug_nans`): the first one, and the operation that made it"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Debugging NaNs"
    about_tracing = False
    runtime_check = "None: only a run shows it; `jaxlint observe` reports it from the run."
    runtime_only = (
        "`jaxlint observe` runs the command with `jax_debug_nans` on. JAX checks the output "
        "of every operation (and of every jitted function, which it then runs again "
        "operation by operation to find the one that made the NaN) and raises "
        "`FloatingPointError: invalid value (nan) encountered in log`; the run stops there. "
        "The finding is at the line of your code that ran the operation (for a NaN in a "
        "backward pass, the line of the forward operation whose gradient it is, from the "
        "stack JAX keeps for it), with JAX's message as evidence. `--debug-infs` turns on "
        "`jax_debug_infs` too (off by default: `-inf` masks are common and intended)."
    )
    what_it_does = (
        "Reports the first NaN a run produced, with the operation (`log`, `sqrt`, `div`, "
        "`mul` in a gradient...) and the line that ran it. No static rule can see it: it "
        "depends on the values. The first NaN made is not always the harmful one: eagerly "
        "every operation is checked, so a NaN that a `where` drops from the value afterwards "
        "(`jnp.where(m > 0, -jnp.log(m), 0.)` with a negative `m`, an entropy's "
        "`jnp.where(p > 0, p * jnp.log(p), 0.)`) stops the run too, and when a jitted "
        "gradient holds a NaN, JAX's operation-by-operation rerun stops at that masked "
        "forward `log`, not at the `0 * inf` of the gradient (jax 0.10.2); the message says "
        "so. Where such masked NaNs are intended, `--no-debug-nans` runs without the checker."
    )
    why_bad = (
        "A NaN spreads through every later operation: one `log` of a negative number or "
        "`0/0` in a gradient turns the loss, then every parameter, into NaN, often many steps "
        "after the operation that made it. JAX does not check by default (it would cost a "
        "device-to-host check per operation)."
    )
    use_instead = (
        "Guard the operation's input, not only its output: `jnp.where(x > 0, jnp.log(jnp.where(x > 0, x, 1.0)), 0.0)` "
        "(the double-`where` trick, for gradients too), clip with `jnp.clip`, or add an epsilon."
    )
    fix_safety = "No automatic fix."
