"""JAX903 removed-jax-keyword: A keyword argument JAX renamed or removed (`jnp.clip(a_min=...)`, `jnp.where(condition=...)`)."""

from __future__ import annotations

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.rules.deprecations._check import SEED, DeprecationCheck, table_doc


class RemovedKeyword(Rule):
    code = "JAX903"
    name = "removed-jax-keyword"
    runtime_check = 'calls the function: confirmed when `TypeError` (an unexpected keyword) is raised at the flagged line.'
    summary = "A keyword argument JAX renamed or removed (`jnp.clip(a_min=...)`, `jnp.where(condition=...)`)"
    severity = Severity.ERROR
    seed = SEED
    check = DeprecationCheck
    about_tracing = False

    what_it_does = "Flags keyword arguments that current JAX no longer accepts:\n\n" + table_doc("JAX903")
    why_bad = (
        "They raise `TypeError` at the call: `TypeError: clip() got an unexpected keyword argument "
        "'a_min'` (removed in 0.10.0), `TypeError: where() got some positional-only arguments "
        "passed as keyword arguments: 'condition, x, y'`."
    )
    use_instead = "```python\ny = jnp.clip(x, min=0., max=1.)\nz = jnp.where(m, a, b)\n```"
    fix_safety = "Safe: the keywords are renamed or made positional in their documented order."

    VALID = [
        Valid(
            """
            import jax.numpy as jnp

            y = jnp.clip(jnp.ones(3), min=0., max=1.)
            z = jnp.where(y > 0, y, 0.)
            """,
        ),
        Valid(
            """
            import numpy as np

            y = np.clip(np.ones(3), a_min=0., a_max=1.)
            """,
        ),
    ]
    INVALID = [
        Invalid(
            """
            import jax.numpy as jnp

            y = jnp.clip(jnp.ones(3), a_min=0., a_max=1.)
            """,
            expected=[(3, 27), (3, 37)],
            fixed="""
            import jax.numpy as jnp

            y = jnp.clip(jnp.ones(3), min=0., max=1.)
            """,
            messages=[
                '`jnp.clip(a_min=...)` was removed in JAX 0.10.0 (deprecated in 0.4.27): use `min=` instead',
                '`jnp.clip(a_max=...)` was removed in JAX 0.10.0 (deprecated in 0.4.27): use `max=` instead',
            ],
        ),
        Invalid(
            """
            import jax.numpy as jnp

            def f(m, a, b):
                return jnp.where(condition=m, x=a, y=b)
            """,
            expected=[(4, 22)],
            fixed="""
            import jax.numpy as jnp

            def f(m, a, b):
                return jnp.where(m, a, b)
            """,
            messages=[
                '`jnp.where(condition=...)` was removed in JAX 0.4.27 (deprecated in 0.4.21): use positional arguments instead',
            ],
        ),
        # keywords forwarded with `**` cannot be re-ordered safely: no fix
        Invalid(
            """
            import jax.numpy as jnp


            def clip01(x, **bounds):
                return jnp.clip(x, a_min=0., **bounds)
            """,
            expected=[(5, 24)],
            messages=[
                '`jnp.clip(a_min=...)` was removed in JAX 0.10.0 (deprecated in 0.4.27): use `min=` instead',
            ],
        ),
    ]
