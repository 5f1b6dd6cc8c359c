"""JAX509 repeated-device-transfer: One line of the run copied host arrays (NumPy) to the device again and again, implicitly."""

from __future__ import annotations

from jaxlint.engine.rule import Rule
from jaxlint.findings import Severity


class RepeatedDeviceTransfer(Rule):
    code = "JAX509"
    name = "repeated-device-transfer"
    summary = "One line of the run copied host arrays (NumPy) to the device again and again, implicitly"
    severity = Severity.WARNING
    seed = "Asynchronous dispatch; transfer guard"
    about_tracing = False
    runtime_check = "None: only a run shows it; `jaxlint observe` reports it from the run."
    runtime_only = (
        "`jaxlint observe` sets JAX's transfer guard for host-to-device copies to `log` "
        "(`jax_transfer_guard_host_to_device`) in the command's Python processes. JAX writes "
        "one log line per implicit copy from C++; observe reads each line in the thread that "
        "writes it (the C library's `stderr` is routed through a callback, Linux only), so "
        "the copy is counted at the line of your code running then, and the line is kept out "
        "of the program's output. A line that copied at least 3 times in one process (a loop, "
        "a function called repeatedly) is reported when the copies JAX described there were "
        "arrays (a NumPy array with at least one dimension); a line where JAX named a Python "
        "or NumPy scalar is not (`x * 2` copies its `2` on every call, by design, and the "
        "copies on jit's C++ fast path come without a description, so they cannot be told "
        "apart). Explicit copies (`jax.device_put`) are not logged, and neither are copies "
        "the code asked for in a host callback. A program whose environment sets a transfer "
        "guard itself (`JAX_TRANSFER_GUARD*`) keeps its own. Device-to-host copies are "
        "JAX507 (the CPU backend logs none of them: its arrays are already in host memory)."
    )
    what_it_does = (
        "Reports a line that copied NumPy arrays to the device implicitly at least 3 times "
        "during the run: a NumPy batch passed to a jitted step, `jnp.asarray(np_array)` or "
        "`x + np_array` in a loop."
    )
    why_bad = (
        "Every call that receives a NumPy array copies it to the device before the "
        "computation can start, in the Python thread, so the device waits for the copy; on a "
        "GPU/TPU each copy crosses the bus. Data that does not change is copied again on "
        "every step."
    )
    use_instead = (
        "Put constant data on the device once, before the loop (`jax.device_put` or "
        "`jnp.asarray` outside it); for a new batch each step, prefetch: `jax.device_put` "
        "the next batch before running the current step, so the copy overlaps the "
        "computation."
    )
    fix_safety = "No automatic fix."
