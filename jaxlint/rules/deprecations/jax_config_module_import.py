"""JAX905 jax-config-module-import: `from jax.config import config`: the `jax.config` module was removed."""

from __future__ import annotations

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.rules.deprecations._check import SEED, DeprecationCheck


class ConfigModuleImport(Rule):
    code = "JAX905"
    name = "jax-config-module-import"
    runtime_check = 'the installed JAX evaluates the import alone: confirmed when it raises `ImportError`; at module level, also the --run raising it at the line.'
    summary = "`from jax.config import config`: the `jax.config` module was removed"
    severity = Severity.ERROR
    seed = SEED
    check = DeprecationCheck
    about_tracing = False

    what_it_does = (
        "Flags `from jax.config import config` (and uses of `jax.config.config`). In a `try` "
        "whose handler catches `ImportError`, the import is a probe and is not reported when "
        "a handler falls back on JAX (`from jax import config`); it is reported when no "
        "handler does (NumPy, a flag, a warning, a `raise`) and the `try` goes on to enable "
        "JAX after it (imports what JAX still has, `use_jax = True`): where JAX is installed "
        "the import fails today, and the program silently runs without JAX. The same holds "
        "for the removed imports of JAX901."
    )
    why_bad = (
        "The `jax.config` module was removed in JAX 0.4.29 (deprecated in 0.4.25): the import "
        "raises `ModuleNotFoundError: No module named 'jax.config'`. The configuration object is "
        "`jax.config` itself. Older tutorials (the Sharp Bits' x64 section among them) use the "
        "old import."
    )
    use_instead = "```python\nfrom jax import config\nconfig.update('jax_enable_x64', True)\n```"
    fix_safety = "Safe: `from jax import config` binds the same configuration object under the same name."

    VALID = [
        Valid(
            """
            import jax
            jax.config.update('jax_enable_x64', True)
            from jax import config
            """,
        ),
        # a compatibility shim: the handler imports the configuration from JAX
        Valid(
            """
            try:
                from jax.config import config
            except ImportError:
                from jax import config
            config.update("jax_enable_x64", True)
            """,
        ),
    ]
    INVALID = [
        Invalid(
            """
            from jax.config import config
            config.update('jax_enable_x64', True)
            """,
            expected=[(1, 24)],
            fixed="""
            from jax import config
            config.update('jax_enable_x64', True)
            """,
            messages=[
                '`from jax.config import config` was removed in JAX 0.4.29 (deprecated in 0.4.25): use `jax.config` (`from jax import config`) instead (the jax.config module was removed; the object is jax.config)',
            ],
        ),
        Invalid(
            """
            from jax.config import config as jcfg
            """,
            expected=[(1, 24)],
            fixed="""
            from jax import config as jcfg
            """,
            messages=[
                '`from jax.config import config` was removed in JAX 0.4.29 (deprecated in 0.4.25): use `jax.config` (`from jax import config`) instead (the jax.config module was removed; the object is jax.config)',
            ],
        ),
        # the fallback is NumPy: where JAX is installed, the JAX path is lost (pymbar#504)
        Invalid(
            """
            try:
                from jax.config import config
                config.update("jax_enable_x64", True)
                from jax.numpy import exp
                use_jax = True
            except ImportError:
                from numpy import exp
                use_jax = False
            """,
            expected=[(2, 28)],
            fixed="""
            try:
                from jax import config
                config.update("jax_enable_x64", True)
                from jax.numpy import exp
                use_jax = True
            except ImportError:
                from numpy import exp
                use_jax = False
            """,
            messages=[
                '`from jax.config import config` was removed in JAX 0.4.29 (deprecated in 0.4.25): use `jax.config` (`from jax import config`) instead (the jax.config module was removed; the object is jax.config)',
            ],
        ),
    ]
