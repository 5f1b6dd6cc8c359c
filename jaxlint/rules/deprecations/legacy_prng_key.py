"""JAX950 legacy-prng-key: Opt-in: `jax.random.PRNGKey` makes a legacy raw key; consider typed keys (`jax.random.key`)."""

from __future__ import annotations

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.rules.deprecations._check import SEED, DeprecationCheck


class LegacyPrngKey(Rule):
    code = "JAX950"
    name = "legacy-prng-key"
    runtime_check = 'None: a style suggestion (typed keys); nothing goes wrong at run time.'
    summary = "Opt-in: `jax.random.PRNGKey` makes a legacy raw key; consider typed keys (`jax.random.key`)"
    severity = Severity.INFO
    default_enabled = False
    seed = SEED
    check = DeprecationCheck
    about_tracing = False

    what_it_does = (
        "Opt-in suggestion, off by default. Flags `jax.random.PRNGKey(...)`. It is **not** "
        "deprecated (it runs silently on 0.10.2 and 0.12; its docstring calls it legacy)."
    )
    why_bad = (
        "Legacy keys are plain `uint32[2]` arrays: arithmetic on them silently makes new keys, "
        "they can be indexed and converted with `np.asarray`, and JAX's key-reuse checker "
        "(`jax_debug_key_reuse`) does not see them. Typed keys (`jax.random.key`) reject those "
        "mistakes with errors."
    )
    use_instead = "```python\nkey = jax.random.key(0)\n```"
    fix_safety = (
        "No automatic fix: shape, dtype, indexing, `np.asarray`, arithmetic and the shape of "
        "`split` results all differ between the two kinds of keys."
    )

    VALID = [
        Valid(
            """
            import jax

            key = jax.random.key(0)
            """,
        ),
    ]
    INVALID = [
        Invalid(
            """
            import jax

            key = jax.random.PRNGKey(0)
            """,
            expected=[(3, 7)],
            messages=[
                '`jax.random.PRNGKey` is a legacy API; consider `jax.random.key` (typed keys) (not deprecated: a legacy raw uint32[2] key; typed keys differ in shape, dtype and indexing, so no rewrite)',
            ],
        ),
    ]
