"""JAX507 repeated-host-transfer: One line of the run copied device arrays to the host again and again (`float(x)`, `x.item()`, `.tolist()`, printing)."""

from __future__ import annotations

from jaxlint.engine.rule import Rule
from jaxlint.findings import Severity


class RepeatedHostTransfer(Rule):
    code = "JAX507"
    name = "repeated-host-transfer"
    summary = "One line of the run copied device arrays to the host again and again (`float(x)`, `x.item()`, `.tolist()`, printing)"
    severity = Severity.WARNING
    seed = "Asynchronous dispatch; transfer guard"
    about_tracing = False
    runtime_check = "None: only a run shows it; `jaxlint observe` reports it from the run."
    runtime_only = (
        "`jaxlint observe` counts, per line of your code, the conversions of a concrete "
        "`jax.Array` to a host value (the array's `_value`, behind `float()`, `int()`, `bool()`, "
        "`.tolist()` and printing, and `.item()`). A line that did it at least 3 "
        "times in one process (a loop, a function called repeatedly) is reported with the "
        "count, how it converted and the array's shape. (`np.asarray(x)` on a single-device "
        "array reads the array's buffer directly in C++, without `_value`, so it is not "
        "counted; JAX's transfer guard, which would log it, logs no device-to-host copy on "
        "the CPU backend.) Host-to-device copies are JAX509. Copies made for a host callback the code asked for (`jax.debug.print`, "
        "`jax.debug.callback`, `io_callback`, `pure_callback`) are not counted: the host is "
        "where the user wants that value."
    )
    what_it_does = "Reports a line that copied device arrays to the host at least 3 times during the run."
    why_bad = (
        "JAX dispatches work asynchronously: Python runs ahead while the device computes. A "
        "host copy waits for the computation to finish, so a `float(loss)` or `if x > 0:` on a "
        "device array in a training loop serialises every step, and on a GPU/TPU each copy "
        "also crosses the bus."
    )
    use_instead = (
        "Keep values on the device inside the loop (`jnp` operations, `lax.cond` for "
        "decisions), accumulate metrics as arrays and fetch them once (`jax.device_get`) "
        "after the loop or every N steps."
    )
    fix_safety = "No automatic fix."
