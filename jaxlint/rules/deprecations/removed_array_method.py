"""JAX904 removed-array-method: A removed `jax.Array` attribute or method (`.device_buffer`, `.device_buffers`, `.to_py()`, `.device()`, `.split()`, `.tile()`...)."""

from __future__ import annotations

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.rules.deprecations._check import SEED, DeprecationCheck, table_doc


class RemovedArrayMethod(Rule):
    code = "JAX904"
    name = "removed-array-method"
    runtime_check = 'calls the function: confirmed when `AttributeError`/`TypeError` is raised at the flagged line.'
    summary = "A removed `jax.Array` attribute or method (`.device_buffer`, `.device_buffers`, `.to_py()`, `.device()`, `.split()`, `.tile()`...)"
    severity = Severity.ERROR
    seed = SEED
    check = DeprecationCheck
    about_tracing = False

    what_it_does = (
        "Flags `x.device_buffer` and `x.device_buffers` (on anything that is not known to be a "
        "NumPy array or a module), and `x.to_py()` / `x.device()` / `x.split(...)` / "
        "`x.tile(...)` / `x.broadcast(...)` / `x.broadcast_in_dim(...)` on values the model "
        "knows are JAX arrays:\n\n" + table_doc("JAX904")
    )
    why_bad = (
        "`x.device_buffer` raises `AttributeError: arr.device_buffer has been deprecated. Use "
        "arr.addressable_data(0)`; `x.device()` raises `TypeError: 'Device' object is not "
        "callable` because `device` is now a property; `x.to_py()` raises `AttributeError`."
    )
    use_instead = "```python\nbuf = x.addressable_data(0)\nd = x.device\n```"
    fix_safety = "Safe: the replacements are the ones JAX's own error messages give (`.device` verified on single-device arrays)."

    VALID = [
        # a string's split; the jax.numpy functions
        Valid(
            """
            import jax.numpy as jnp

            x = jnp.arange(6)
            a, b = jnp.split(x, 2)
            t = jnp.tile(x, 2)
            words = "a,b".split(",")
            """,
        ),
        Valid(
            """
            import jax.numpy as jnp
            import torch

            t = torch.ones(3)
            d = t.device
            x = jnp.ones(3)
            y = x.addressable_data(0)
            """,
        ),
        Valid(
            """
            import jax

            def f(obj):
                return obj.device()
            """,
        ),
    ]
    INVALID = [
        # methods removed in JAX 0.4.14 / 0.3.17 (no fix: the functions take the array first)
        Invalid(
            """
            import jax.numpy as jnp

            x = jnp.arange(6)
            a, b = x.split(2)
            t = x.tile(2)
            """,
            expected=[(4, 8), (5, 5)],
            messages=[
                "`x.split(2)` was removed in JAX 0.4.14 (deprecated in 0.4.5): use `jnp.split(x, ...)` instead",
                "`x.tile(2)` was removed in JAX 0.3.17 (deprecated in 0.3.7): use `jnp.tile(x, reps)` instead",
            ],
        ),
        Invalid(
            """
            import jax.numpy as jnp

            x = jnp.ones(3)
            buf = x.device_buffer
            d = x.device()
            """,
            expected=[(4, 7), (5, 5)],
            fixed="""
            import jax.numpy as jnp

            x = jnp.ones(3)
            buf = x.addressable_data(0)
            d = x.device
            """,
            messages=[
                '`x.device_buffer` was removed in JAX 0.4.27 (deprecated in 0.4.22): use `x.addressable_data(0)` instead',
                "`x.device()` was removed in JAX 0.4.27 (deprecated in 0.4.21): use the `x.device` property (or `x.devices()`) instead (`device` is now a property: `x.device()` raises TypeError: 'Device' object is not callable)",
            ],
        ),
        Invalid(
            """
            import numpy as np
            import jax.numpy as jnp

            x = jnp.arange(4)
            v = x.to_py()
            """,
            expected=[(5, 5)],
            fixed="""
            import numpy as np
            import jax.numpy as jnp

            x = jnp.arange(4)
            v = np.asarray(x)
            """,
            messages=[
                '`x.to_py()` was removed in JAX 0.4.0 (deprecated in 0.3.17): use `np.asarray(x)` instead',
            ],
        ),
        # NumPy is not imported in the file: no fix
        Invalid(
            """
            import jax.numpy as jnp

            x = jnp.arange(4)
            v = x.to_py()
            """,
            expected=[(4, 5)],
            messages=[
                '`x.to_py()` was removed in JAX 0.4.0 (deprecated in 0.3.17): use `np.asarray(x)` instead',
            ],
        ),
    ]
