"""JAX123 x64-enabled-late: `jax.config.update('jax_enable_x64', True)` after module-level code already made JAX arrays."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import apis


class LateX64Enable(Rule):
    code = "JAX123"
    name = "x64-enabled-late"
    summary = "`jax.config.update('jax_enable_x64', True)` after module-level code already made JAX arrays"
    severity = Severity.WARNING
    seed = "The Sharp Bits § Double (64bit) precision (seed 000)"
    what_it_does = (
        "Flags a module-level `jax.config.update(\"jax_enable_x64\", True)` that comes after "
        "module-level statements which already created JAX arrays or ran `jax.numpy`, "
        "`jax.lax` or `jax.random` computations."
    )
    why_bad = (
        "The seed says x64 \"only works on startup\"; current JAX (0.10, 0.12) accepts the "
        "switch at any time without a warning, which is the trap: arrays made before it stay "
        "32-bit (`x.dtype` is `float32`), arrays made after are 64-bit, mixing them promotes "
        "to 64-bit, and a function jitted on the old arrays retraces for the new ones. Results "
        "silently have mixed precision."
    )
    use_instead = "Enable x64 first, right after importing JAX (or set `JAX_ENABLE_X64=1` in the environment):\n\n```python\nimport jax\njax.config.update(\"jax_enable_x64\", True)\nimport jax.numpy as jnp\n\nx = jnp.ones(3)\n```"
    fix_safety = "No automatic fix: moving the statement changes the dtypes of everything created before it."
    VALID = [
        Valid(
            """
            import jax
            import jax.numpy as jnp

            jax.config.update("jax_enable_x64", True)
            x = jnp.ones(3)
            """
        ),
        # only functions defined before
        Valid(
            """
            import jax
            import jax.numpy as jnp

            def f(x):
                return jnp.sin(x)

            jax.config.update("jax_enable_x64", True)
            print(f(jnp.ones(3)))
            """
        ),
        # dtype queries are not computations
        Valid(
            """
            import jax
            import jax.numpy as jnp

            EPS = jnp.finfo(jnp.float32).eps
            jax.config.update("jax_enable_x64", True)
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            x = jnp.ones(3)
            jax.config.update("jax_enable_x64", True)
            y = x + 1
            """,
            expected=[(5, 1)],
            messages=[
                "x64 is enabled after JAX arrays were already created at line 4: arrays made before this point stay 32-bit while later ones are 64-bit. Enable x64 right after importing jax",
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._first: Optional[cst.CSTNode] = None
        self._x64: Optional[set[int]] = None

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if not ctx.unit.is_module:
            return
        if self._x64 is None:
            self._x64 = {id(n) for n in ctx.index.x64_nodes}
        if id(node) in self._x64:
            if self._first is not None:
                self.report(
                    node,
                    "x64 is enabled after JAX arrays were already created at line {related_line}: "
                    "arrays made before this point stay 32-bit while later ones are 64-bit. Enable "
                    "x64 right after importing jax",
                    related=self._first,
                )
            return
        if self._first is not None:
            return
        q = ctx.qualname(node.func)
        if not q or not q.startswith(apis.ARRAY_MODULES) or q in apis.STATIC_RESULT_FUNCS:
            return
        if q.rsplit(".", 1)[1] in ("PRNGKey", "key", "finfo", "iinfo", "dtype"):
            return
        self._first = node
