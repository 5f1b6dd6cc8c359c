"""JAX902 deprecated-jax-api: A deprecated JAX API that still runs (with a DeprecationWarning/UserWarning)."""

from __future__ import annotations

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.rules.deprecations._check import SEED, DeprecationCheck, table_doc


class DeprecatedApi(Rule):
    code = "JAX902"
    name = "deprecated-jax-api"
    runtime_check = 'calls the function: confirmed when a `DeprecationWarning`/`FutureWarning` is issued at the flagged line.'
    summary = "A deprecated JAX API that still runs (with a DeprecationWarning/UserWarning)"
    severity = Severity.WARNING
    seed = SEED
    check = DeprecationCheck
    about_tracing = False

    what_it_does = (
        "Flags JAX APIs that still work on current JAX but warn and are scheduled for removal:\n\n"
        + table_doc("JAX902")
        + "\n\nA deprecated keyword that JAX warns about only when it is set (`jit(backend=...)`, "
        "`jit(device=...)`) is reported only when its value is surely set: a string, a device "
        "(`jax.devices()[0]`), or a name bound only to those. `None`, a parameter passed "
        "through, an attribute or a config look-up may be None and are left alone."
    )
    why_bad = (
        "They run with a warning today, e.g. `DeprecationWarning: jax.experimental.pjit.pjit has "
        "been deprecated. Please use jax.jit instead.`, `DeprecationWarning: backend and device "
        "argument on jit is deprecated`, `UserWarning` for `jax.host_count()`; the next removal "
        "turns them into errors."
    )
    use_instead = "```python\nfrom jax import jit\nn = jax.process_count()\n```"
    fix_safety = (
        "`host_*` -> `process_*` are safe renames (identical parameters). `pjit` -> `jax.jit` is "
        "safe with its arguments rewritten: `jax.jit` takes only the function by position, so "
        "`pjit(f, in_s, out_s)` becomes `jax.jit(f, in_shardings=in_s, out_shardings=out_s)` "
        "(and `in_axis_resources`/`out_axis_resources` become `in_shardings`/`out_shardings`). "
        "`jax.experimental.shard_map.shard_map` -> `jax.shard_map` is unsafe (review the call): "
        "`mesh`, `in_specs` and `out_specs` are passed by keyword, `check_rep` becomes "
        "`check_vma`, and `auto=A` becomes `axis_names=frozenset(mesh.axis_names) - "
        "frozenset(A)` (only when the mesh is a plain name). These two renames are offered only "
        "where every use of the old name is seen with its arguments (a call, a bare decorator, "
        "`@functools.partial(old, k=v)`) and every argument maps: an unknown keyword, "
        "`*args`/`**kwargs`, the function passed by keyword, or the old name passed on as a value "
        "(`smap = shard_map.shard_map`) leaves the finding without a fix. For "
        "`from jax.experimental.shard_map import shard_map`, the import and each call of the "
        "name are rewritten together. `jit(backend=/device=)` has no fix."
    )

    VALID = [
        # the jax.extend.core spellings JAX 0.10.2 names
        Valid(
            """
            import jax.extend.core
            from jax.extend.core import Primitive

            def concrete(x):
                return jax.extend.core.concrete_or_error(None, x)
            """,
        ),
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
        # the backend may be None (JAX warns only when it is set): an attribute, a config value
        Valid(
            """
            import jax


            class Runner:
                def __init__(self, fn, backend=None):
                    self.backend = backend
                    self.step = jax.jit(fn, backend=self.backend)


            def compile_for(fn, config):
                backend = config.get("backend")
                return jax.jit(fn, backend=backend)
            """,
        ),
    ]
    INVALID = [
        Invalid(
            """
            import jax
            import jax.core

            def concrete(x):
                return jax.core.concrete_or_error(None, x)
            """,
            expected=[(5, 12)],
            fixed="""
            import jax.extend.core
            import jax
            import jax.core

            def concrete(x):
                return jax.extend.core.concrete_or_error(None, x)
            """,
            messages=[
                '`jax.core.concrete_or_error` is deprecated since JAX 0.10.0: use `jax.extend.core.concrete_or_error` instead',
            ],
        ),
        Invalid(
            """
            import jax.scipy.special

            def legendre(m, n, z):
                return jax.scipy.special.lpmn_values(m, n, z, is_normalized=True)
            """,
            expected=[(4, 12)],
            messages=[
                '`jax.scipy.special.lpmn_values` is deprecated (JAX 0.10.2 warns on use), with nothing to use instead (JAX plans no replacement)',
            ],
        ),
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
                '`from jax.experimental.pjit import pjit` is deprecated since JAX 0.8.0: use `jax.jit` instead (same parameters, all but the function passed by keyword; `in_axis_resources`/`out_axis_resources` were renamed `in_shardings`/`out_shardings`)',
            ],
        ),
        Invalid(
            """
            import jax

            f = jax.jit(lambda x: x, backend='cpu')
            """,
            expected=[(3, 26)],
            messages=[
                '`jax.jit(backend=...)` is deprecated since JAX 0.4.2: use `jax.device_put` on the inputs (or `jax.default_device`) instead (still runs with a DeprecationWarning)',
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
                '`from jax.experimental.shard_map import shard_map` is deprecated since JAX 0.8.0: use `jax.shard_map` instead (`mesh`, `in_specs` and `out_specs` are keyword-only, `check_rep` became `check_vma`, `auto` became `axis_names` (the mesh\'s other axes): review the call)',
            ],
        ),
        # jax.shard_map takes mesh and the specs by keyword only, and check_vma for check_rep
        Invalid(
            """
            import jax
            from jax.experimental import shard_map

            def run(f, mesh, spec):
                return shard_map.shard_map(f, mesh, spec, spec, check_rep=False)
            """,
            expected=[(5, 12)],
            fixed="""
            import jax
            from jax.experimental import shard_map

            def run(f, mesh, spec):
                return jax.shard_map(f, mesh=mesh, in_specs=spec, out_specs=spec, check_vma=False)
            """,
            unsafe=True,
            messages=[
                "`shard_map.shard_map` is deprecated since JAX 0.8.0: use `jax.shard_map` instead (`mesh`, `in_specs` and `out_specs` are keyword-only, `check_rep` became `check_vma`, `auto` became `axis_names` (the mesh's other axes): review the call)",
            ],
        ),
        # an argument the new function has no place for: reported, not fixed
        Invalid(
            """
            import jax
            from jax.experimental import shard_map

            def run(f, mesh, spec, **options):
                return shard_map.shard_map(f, mesh, spec, spec, **options)
            """,
            expected=[(5, 12)],
            messages=[
                "`shard_map.shard_map` is deprecated since JAX 0.8.0: use `jax.shard_map` instead (`mesh`, `in_specs` and `out_specs` are keyword-only, `check_rep` became `check_vma`, `auto` became `axis_names` (the mesh's other axes): review the call)",
            ],
        ),
        # jax.jit takes only the function by position
        Invalid(
            """
            import jax
            import jax.experimental.pjit

            step = jax.experimental.pjit.pjit(lambda x: x, None, None)
            """,
            expected=[(4, 8)],
            fixed="""
            import jax
            import jax.experimental.pjit

            step = jax.jit(lambda x: x, in_shardings=None, out_shardings=None)
            """,
            messages=[
                "`jax.experimental.pjit.pjit` is deprecated since JAX 0.8.0: use `jax.jit` instead (same parameters, all but the function passed by keyword; `in_axis_resources`/`out_axis_resources` were renamed `in_shardings`/`out_shardings`)",
            ],
        ),
        # a device that is surely set
        Invalid(
            """
            import jax

            CPU = jax.devices("cpu")[0]
            f = jax.jit(lambda x: x + 1, device=CPU)
            """,
            expected=[(4, 30)],
            messages=[
                "`jax.jit(device=...)` is deprecated since JAX 0.4.2: use `jax.device_put` on the inputs (or `jax.default_device`) instead (still runs with a DeprecationWarning)",
            ],
        ),
    ]
