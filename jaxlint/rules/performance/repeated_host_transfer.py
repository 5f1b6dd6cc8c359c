"""JAX507 repeated-host-transfer: One line of the run copied device arrays to the host after new device work, step after step (`float(x)`, `x.item()`, `.tolist()`, printing)."""

from __future__ import annotations

from jaxlint.engine.rule import Rule
from jaxlint.findings import Severity


class RepeatedHostTransfer(Rule):
    code = "JAX507"
    name = "repeated-host-transfer"
    summary = "One line of the run copied device arrays to the host after new device work, step after step (`float(x)`, `x.item()`, `.tolist()`, printing)"
    severity = Severity.WARNING
    seed = "Asynchronous dispatch; transfer guard"
    about_tracing = False
    runtime_check = "None: only a run shows it; `jaxlint observe` reports it from the run."
    runtime_only = (
        "`jaxlint observe` counts, per line of your code, the implicit copies of a concrete "
        "`jax.Array` to the host (the array's `_value`, behind `float()`, `int()`, `bool()`, "
        "`.tolist()`, printing and, on a GPU/TPU, `np.asarray(x)`; and `.item()`), and every "
        "dispatch of device work (each jit call and eager operation ends in a hook JAX calls "
        "while its NaN checker is on). A copy is a *sync* when device work was dispatched "
        "since the previous copy at that line: the host waited for it. A line is reported "
        "when it synced at least 10 times in one process, at least once every 8 dispatches "
        "(median of the gaps): a copy on every step of a loop that dispatches device work "
        "(`float(loss)` each step, `.item()` in a metrics helper called each step, a "
        "`while float(err) > tol:` test). Not reported: results printed after the loop (no "
        "device work between the copies), a logging step every N steps (a gap of N "
        "dispatches or more: from 9 on with one jit call a step), a loop of a few steps, "
        "an array already copied (a GPU keeps the host copy), explicit `jax.device_get` "
        "(JAX's transfer guard allows it: the code asked), the NaN checker's own look at "
        "each output, and copies for a host callback the code asked for "
        "(`jax.debug.print`, `jax.debug.callback`, `io_callback`, `pure_callback`). On the "
        "CPU backend `np.asarray(x)` of a single-device array reads its buffer directly (no "
        "copy, not counted); on a GPU NumPy asks the array's `__array__` and it is counted. "
        "Host-to-device copies are JAX509."
    )
    what_it_does = ("Reports a line that copied a device array to the host after new device "
                    "work at least 10 times during the run, at least once every 8 dispatches.")
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
