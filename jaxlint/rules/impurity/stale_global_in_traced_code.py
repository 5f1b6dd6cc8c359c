"""JAX405 stale-global-in-traced-code: A module global that is reassigned later is read inside traced code: jit bakes in the value it saw."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import values as V
from jaxlint.model.units import Unit
from jaxlint.model.walk import children
from jaxlint.rules.impurity._common import binds


class StaleGlobalRead(Rule):
    code = "JAX405"
    name = "stale-global-in-traced-code"
    summary = "A module global that is reassigned later is read inside traced code: jit bakes in the value it saw"
    severity = Severity.WARNING
    seed = "The Sharp Bits § Pure functions, `impure_uses_globals` (seed 000); FAQ § jit and global state (seed 001)"
    what_it_does = (
        "Flags reads, inside traced code, of a module-level name that the module assigns more "
        "than once or in a loop, where a (re)assignment comes after the traced function is "
        "defined. Globals assigned once (constants, configuration) and names the function "
        "calls are not flagged."
    )
    why_bad = (
        "A global read under `jit` is a constant of the traced computation. The compiled "
        "function keeps the value the global had at trace time: after `g = 10.` a cached call "
        "still uses the old `g` (`jit(f)(5.)` gives `5.0`, not `15.0`), and only a retrace "
        "(a new input shape or dtype) picks up the new value, so results depend on call "
        "history. No warning is given."
    )
    use_instead = "Pass the value as an argument:\n\n```python\n@jax.jit\ndef f(x, g):\n    return x + g\n```"
    fix_safety = "No automatic fix: the signature and every call site change."
    VALID = [
        # constant assigned once
        Valid(
            """
            import jax
            import jax.numpy as jnp

            SCALE = 2.0

            @jax.jit
            def f(x):
                return jnp.sin(x) * SCALE
            """
        ),
        # reassigned only before the function is defined (configuration)
        Valid(
            """
            import jax
            import sys

            if sys.platform == 'darwin':
                EPS = 1e-6
            else:
                EPS = 1e-8

            @jax.jit
            def f(x):
                return x + EPS
            """
        ),
        # local variable of the same name
        Valid(
            """
            import jax

            g = 0.

            @jax.jit
            def f(x):
                g = 2.
                return x + g

            g = 1.
            """
        ),
        # a function name that is rebound (wrapped) is called, not read as data
        Valid(
            """
            import jax

            def helper(x):
                return x * 2

            helper = jax.jit(helper)

            @jax.jit
            def f(x):
                return helper(x)

            helper = jax.checkpoint(helper)
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            from jax import jit

            g = 0.

            def impure_uses_globals(x):
                return x + g

            print(jit(impure_uses_globals)(4.))
            g = 10.
            print(jit(impure_uses_globals)(5.))
            """,
            expected=[(6, 16)],
            messages=[
                "`g` is a module global that is reassigned (line 9) after `impure_uses_globals` is defined: under jit its value is read once, at trace time, and baked into the compiled function, so later assignments are ignored until a retrace. Pass it as an argument",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            y = 0

            @jax.jit
            def f(x):
                print('Inside:', y)
                return x + y

            for y in range(3):
                print('Result:', f(jnp.array(1)))
            """,
            expected=[(8, 22)],
            messages=[
                "`y` is a module global that is reassigned (line 11) after `f` is defined: under jit its value is read once, at trace time, and baked into the compiled function, so later assignments are ignored until a retrace. Pass it as an argument",
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._skip: set[int] = set()
        self._top: Optional[dict[int, int]] = None
        self._loops: set[int] = set()
        self._in_class: set[int] = set()
        self._reported: set[tuple[int, str]] = set()

    def _positions(self) -> dict[int, int]:
        if self._top is None:
            top: dict[int, int] = {}
            for i, stmt in enumerate(self.ctx.module.body):
                stack = [(stmt, False, False)]
                while stack:
                    n, in_loop, in_class = stack.pop()
                    top[id(n)] = i
                    if in_loop:
                        self._loops.add(id(n))
                    if in_class:
                        self._in_class.add(id(n))
                    if isinstance(n, (cst.FunctionDef, cst.Lambda)):
                        continue
                    loop = in_loop or isinstance(n, (cst.For, cst.While))
                    klass = in_class or isinstance(n, cst.ClassDef)
                    stack.extend((c, loop, klass) for c in children(n))
            self._top = top
        return self._top

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._skip.add(id(node.attr))

    def visit_Call(self, node: cst.Call) -> None:
        self._skip.add(id(node.func))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._skip.add(id(node.keyword))

    def visit_Name(self, node: cst.Name) -> None:
        ctx = self.ctx
        if not ctx.in_traced or id(node) in self._skip:
            return
        n = node.value
        assigns = ctx.index.module_assignments.get(n)
        if not assigns:
            return
        top = self._positions()
        unit = ctx.unit
        u: Optional[Unit] = unit
        while u is not None and not u.is_module:
            if binds(u, n) or n in u.global_names or n in u.nonlocal_names:
                return
            u = u.parent
        mv = ctx.module_value(n)
        if mv is not None and mv.kind in (V.FUNCTION, V.MODULE):
            return
        if (id(unit), n) in self._reported:
            return
        outer = unit
        while outer.parent is not None and not outer.parent.is_module:
            outer = outer.parent
        def_at = top.get(id(outer.node))
        if def_at is None:
            return
        # class attributes are not module globals
        assigns = [a for a in assigns if id(a) not in self._in_class]
        in_loop = [a for a in assigns if id(a) in self._loops]
        if len(assigns) < 2 and not in_loop:
            return
        later = [a for a in assigns if top.get(id(a), -1) > def_at]
        if not later:
            return
        self._reported.add((id(unit), n))
        self.report(
            node,
            f"`{n}` is a module global that is reassigned (line {{related_line}}) after "
            f"`{outer.name}` is defined: under jit its value is read once, at trace time, and baked "
            "into the compiled function, so later assignments are ignored until a retrace. Pass it "
            "as an argument",
            related=later[0],
        )
