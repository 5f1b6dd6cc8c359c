"""JAX902 deprecated-jax-api: A deprecated JAX API that still runs (with a DeprecationWarning/UserWarning)."""

from __future__ import annotations

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.rules.deprecations._check import SEED, DeprecationCheck, table_doc


class DeprecatedApi(Rule):
    code = "JAX902"
    name = "deprecated-jax-api"
    summary = "A deprecated JAX API that still runs (with a DeprecationWarning/UserWarning)"
    severity = Severity.WARNING
    seed = SEED
    check = DeprecationCheck
    about_tracing = False

    what_it_does = (
        "Flags JAX APIs that still work on current JAX but warn and are scheduled for removal:\n\n"
        + table_doc("JAX902")
    )
    why_bad = (
        "They run with a warning today, e.g. `DeprecationWarning: jax.experimental.pjit.pjit has "
        "been deprecated. Please use jax.jit instead.`, `DeprecationWarning: backend and device "
        "argument on jit is deprecated`, `UserWarning` for `jax.host_count()`; the next removal "
        "turns them into errors."
    )
    use_instead = "```python\nfrom jax import jit\nn = jax.process_count()\n```"
    fix_safety = (
        "`pjit` -> `jax.jit` and `host_*` -> `process_*` are safe renames (identical parameters). "
        "`jax.experimental.shard_map.shard_map` -> `jax.shard_map` is unsafe: `auto=` was removed "
        "and `check_rep` changed. `jit(backend=/device=)` has no fix."
    )

    VALID = [
        Valid(
            """
            import jax

            f = jax.jit(lambda x: x, donate_argnums=0)
            n = jax.process_count()
            """,
        ),
        Valid(
            """
            import jax
            from jax import shard_map
            """,
        ),
        Valid(
            """
            import jax

            def my_jit(fn, device=None, backend=None):
                return jax.jit(fn, device=device, backend=backend)
            """,
        ),
    ]
    INVALID = [
        Invalid(
            """
            import jax

            n = jax.host_count()
            i = jax.host_id()
            """,
            expected=[(3, 5), (4, 5)],
            fixed="""
            import jax

            n = jax.process_count()
            i = jax.process_index()
            """,
            messages=[
                '`jax.host_count` is deprecated since JAX 0.2.13: use `jax.process_count` instead',
                '`jax.host_id` is deprecated since JAX 0.2.13: use `jax.process_index` instead',
            ],
        ),
        Invalid(
            """
            from jax.experimental.pjit import pjit
            """,
            expected=[(1, 35)],
            fixed="""
            from jax import jit as pjit
            """,
            messages=[
                '`from jax.experimental.pjit import pjit` is deprecated since JAX 0.8.0: use `jax.jit` instead (same parameters; `in_axis_resources`/`out_axis_resources` were renamed `in_shardings`/`out_shardings`)',
            ],
        ),
        Invalid(
            """
            import jax

            f = jax.jit(lambda x: x, backend='cpu')
            """,
            expected=[(3, 26)],
            messages=[
                '`jax.jit(backend=...)` is deprecated since JAX 0.4.2: use `jax.device_put` the inputs (or `jax.default_device`) instead (still runs with a DeprecationWarning)',
            ],
        ),
        Invalid(
            """
            from jax.experimental.shard_map import shard_map
            """,
            expected=[(1, 40)],
            fixed="""
            from jax import shard_map
            """,
            unsafe=True,
            messages=[
                '`from jax.experimental.shard_map import shard_map` is deprecated since JAX 0.8.0: use `jax.shard_map` instead (`auto=` was removed and `check_rep` became `check_vma`: review the call)',
            ],
        ),
    ]
