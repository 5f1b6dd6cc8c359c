"""JAX405 stale-global-in-traced-code: A module global that is reassigned later is read inside traced code: jit bakes in the value it saw."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import values as V
from jaxlint.model.scopes import writes
from jaxlint.model.units import Unit
from jaxlint.model.walk import children, descendants
from jaxlint.rules.impurity._common import binds


def _literal_text(ctx, stmt: cst.CSTNode) -> Optional[str]:
    """The source of a constant assigned by ``stmt`` (``LR = 0.1``), else None."""
    if isinstance(stmt, cst.Assign):
        v = stmt.value
        if isinstance(v, cst.UnaryOperation) and isinstance(v.operator, cst.Minus):
            v = v.expression
        if isinstance(v, (cst.Integer, cst.Float, cst.SimpleString)) or (
            isinstance(v, cst.Name) and v.value in ("True", "False", "None")
        ):
            return ctx.code(stmt.value).strip()
    return None


def _module_bindings(stmt: cst.CSTNode) -> list[tuple[str, Optional[cst.CSTNode]]]:
    """The names a module-level statement binds, with the expression bound
    (None where it is not one expression: a loop target, an import, a def)."""
    if isinstance(stmt, cst.SimpleStatementLine):
        out: list[tuple[str, Optional[cst.CSTNode]]] = []
        for small in stmt.body:
            if isinstance(small, cst.Assign):
                for t in small.targets:
                    if isinstance(t.target, cst.Name):
                        out.append((t.target.value, small.value))
                    else:
                        out.extend((n.value, None) for n in descendants(t.target) if isinstance(n, cst.Name))
            elif isinstance(small, (cst.AnnAssign, cst.AugAssign)) and isinstance(small.target, cst.Name):
                out.append((small.target.value, small.value if isinstance(small, cst.AnnAssign) else None))
            elif isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(small.names, cst.ImportStar):
                for alias in small.names:
                    bound = alias.asname.name if alias.asname is not None else alias.name
                    if isinstance(bound, cst.Name):
                        out.append((bound.value, None))
        return out
    if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
        return [(stmt.name.value, None)]
    return []


class StaleGlobalRead(Rule):
    code = "JAX405"
    name = "stale-global-in-traced-code"
    runtime_check = 'differential: after a compiled call, each numeric or array global it reads is changed; the compiled result stays the old one while the eager one follows.'
    summary = "A module global that is reassigned later is read inside traced code: jit bakes in the value it saw"
    severity = Severity.WARNING
    seed = "The Sharp Bits § Pure functions, `impure_uses_globals` (seed 000); FAQ § jit and global state (seed 001)"
    what_it_does = (
        "Flags reads, inside traced code, of a module-level name that the module assigns more "
        "than once or in a loop, where a (re)assignment comes after the traced function was "
        "used (called, or wrapped and called: `f = jax.jit(g)`) and it is used again after it "
        "(or both happen in one loop), in program order: a notebook's cells, top to bottom. "
        "Globals assigned once (constants, configuration), a global set again to the same "
        "constant, a name rebound after the function's last use, and names the function calls "
        "are not flagged."
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
        # a setter that runs before the first call (configuration), and a factor passed
        # as an argument
        Valid(
            """
            import jax
            import jax.numpy as jnp

            SCALE = 1.0

            def configure(value):
                global SCALE
                SCALE = value

            @jax.jit
            def scale(x, factor):
                return x * SCALE * factor

            def main():
                configure(3.0)
                return scale(jnp.ones(2), 1.0), scale(jnp.ones(2), 2.0)
            """
        ),
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
        # notebook style: set again after the last call (nothing calls `update` afterwards),
        # and to the same value
        Valid(
            """
            import jax
            import jax.numpy as jnp

            LR = 0.1


            @jax.jit
            def update(w, g):
                return w - LR * g


            w = jnp.ones(3)
            for _ in range(3):
                w = update(w, jnp.ones(3))

            LR = 0.1
            print(w, LR)
            """
        ),
        # notebook style: the name is rebound for other code; what captured it is never
        # called again (a lambda applied at once; a jitted alias rebound to something else)
        Valid(
            """
            import jax
            import jax.numpy as jnp

            x = jnp.array([[3.]])
            z = jax.jit(lambda: x * 2)()
            print(z)

            def add_one(a):
                return a + x

            f = jax.jit(add_one)
            print(f(jnp.ones(1)))
            f = jax.jit(lambda a: a - 1)

            x = jnp.arange(12.).reshape(3, 4)
            print(f(x))
            """
        ),
        # the global is set again before the function is first called: the trace sees the new value
        Valid(
            """
            import jax
            import optax

            optimizer = optax.sgd(0.1)

            def step(params, opt_state, grads):
                updates, opt_state = optimizer.update(grads, opt_state, params)
                return optax.apply_updates(params, updates), opt_state

            optimizer = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(0.1))
            step = jax.jit(step)
            params = {"w": jax.numpy.ones(3)}
            new_params, new_state = step(params, optimizer.init(params), params)
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            SCALE = 1.0

            @jax.jit
            def scale(x):
                return x * SCALE

            def main():
                global SCALE
                first = scale(jnp.ones(2))
                SCALE = 2.0
                second = scale(jnp.ones(2))
                return first, second
            """,
            expected=[(8, 16)],
            messages=[
                "`SCALE` is a module global that `main` reassigns (`global SCALE`, line 13) after calling `scale`: under jit its value is read once, at trace time, and baked into the compiled function, so the later calls still use the old value until a retrace. Pass it as an argument",
            ],
        ),
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
        # the value changes and the compiled `update` is called again afterwards
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            LR = 0.1


            @jax.jit
            def update(w, g):
                return w - LR * g


            w = update(jnp.ones(3), jnp.ones(3))
            LR = 0.01
            w = update(w, jnp.ones(3))
            """,
            expected=[(9, 16)],
            messages=[
                "`LR` is a module global that is reassigned (line 13) after `update` is defined: under jit its value is read once, at trace time, and baked into the compiled function, so later assignments are ignored until a retrace. Pass it as an argument",
            ],
        ),
        # through a jitted alias, called before and after the global changes
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            offset = 1.0

            def shift(a):
                return a + offset

            shifted = jax.jit(shift)
            print(shifted(jnp.ones(2)))
            offset = 5.0
            print(shifted(jnp.ones(2)))
            """,
            expected=[(7, 16)],
            messages=[
                "`offset` is a module global that is reassigned (line 11) after `shift` is defined: under jit its value is read once, at trace time, and baked into the compiled function, so later assignments are ignored until a retrace. Pass it as an argument",
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
        self._follows: dict[int, bool] = {}

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

    def _uses(self, outer: Unit) -> list[tuple[int, bool]]:
        """The module-level statements that use the traced function ``outer`` (by
        its name, or a name bound to an expression of it: ``f = jax.jit(g)``), in
        program order, as (statement index, whether the statement is a loop).  A
        name rebound to something else stops standing for it; a use inside a
        function defined at module level counts where that definition stands."""
        key = id(outer.node)
        if key not in self._follows:
            uses: list[tuple[int, bool]] = []
            current: set[str] = set()
            for i, stmt in enumerate(self.ctx.module.body):
                if current and any(isinstance(n, cst.Name) and n.value in current
                                   for n in descendants(stmt) if n is not getattr(stmt, "name", None)):
                    uses.append((i, isinstance(stmt, (cst.For, cst.While))))
                if stmt is outer.node:
                    current.add(outer.name)
                    continue
                for name, value in _module_bindings(stmt):
                    refers = value is not None and any(
                        isinstance(n, cst.Name) and n.value in current for n in (value, *descendants(value)))
                    if refers:
                        current.add(name)
                    else:
                        current.discard(name)
            self._follows[key] = uses
        return self._follows[key]

    def _called_across(self, outer: Unit, at: int) -> bool:
        """Is the traced function used both before the rebinding at module statement
        ``at`` and after it (or in the loop that rebinds it), so a compiled call can
        run with the old value after the new one is set?"""
        uses = self._uses(outer)
        if any(i == at and loop for i, loop in uses):
            return True
        return any(i <= at for i, _ in uses) and any(i > at for i, _ in uses)

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
        late = self._rebound_after_call(n, outer)
        if late is not None:
            writer, stmt = late
            self._reported.add((id(unit), n))
            self.report(
                node,
                f"`{n}` is a module global that `{writer}` reassigns (`global {n}`, line "
                f"{{related_line}}) after calling `{outer.name}`: under jit its value is read once, "
                "at trace time, and baked into the compiled function, so the later calls still use "
                "the old value until a retrace. Pass it as an argument",
                related=stmt,
            )
            return
        in_loop = [a for a in assigns if id(a) in self._loops]
        if len(assigns) < 2 and not in_loop:
            return
        later = [a for a in assigns if top.get(id(a), -1) > def_at]
        # a rebinding matters only if the function was called (traced) before it and can be
        # called again after it: a notebook that rebinds `x` for other code is fine
        later = [a for a in later if self._called_across(outer, top[id(a)])]
        literal = {_literal_text(ctx, a) for a in assigns}
        if len(literal) == 1 and None not in literal:
            return  # set again to the same constant: the compiled value is still right
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

    def _rebound_after_call(self, name: str, outer: Unit) -> Optional[tuple[str, cst.CSTNode]]:
        """A function of the file that declares ``global name`` and assigns it after it
        called ``outer`` (the traced function): (its name, the assignment)."""
        for w in self.ctx.index.units:
            if w is outer or name not in w.global_names or name not in w.assigned:
                continue
            bound = {id(b) for b in writes(w.node, name)}
            called = False
            for n in descendants(w.node):
                if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == outer.name:
                    called = True
                elif called and id(n) in bound:
                    return w.name, n
        return None
