"""JAX102 discarded-at-update: The result of `x.at[i].set(v)` (or `jnp.put(..., inplace=False)`, `x.sort()`) is thrown away, so the update does nothing."""

from __future__ import annotations

import libcst as cst


from jaxlint.engine.rule import Invalid, Replacement, Rule, Valid, fix
from jaxlint.findings import Applicability, Severity
from jaxlint.model import mutable_state
from jaxlint.model import values as V
from jaxlint.model.scopes import class_statement_instance
from jaxlint.model.walk import arg_at, dotted_name, walk_tree
from jaxlint.rules.arrays._common import INPLACE_WRITERS, inplace_flag, is_false


AT_METHODS = frozenset(
    {"set", "add", "subtract", "multiply", "mul", "divide", "power", "min", "max", "apply"}
)


class DiscardedAtUpdate(Rule):
    code = "JAX102"
    name = "discarded-at-update"
    runtime_check = '`jax.make_jaxpr`: confirmed when the `scatter` built at the flagged line is dead code (nothing uses its result).'
    summary = "The result of `x.at[i].set(v)` (or `jnp.put(..., inplace=False)`, `x.sort()`) is thrown away, so the update does nothing"
    severity = Severity.ERROR
    seed = "The Sharp Bits § In-Place Updates: `.at` updates are out-of-place (seed 000)"
    what_it_does = (
        "Flags an expression statement `x.at[idx].set(v)` (or `.add`, `.subtract`, `.multiply`, "
        "`.divide`, `.power`, `.min`, `.max`, `.apply`) whose result is not used; so are "
        "`jnp.put(a, ind, v, inplace=False)` (`jnp.place`, `jnp.fill_diagonal`, "
        "`jnp.put_along_axis`) and `x.sort()` on a JAX array (also one a dict holds: `params[k].sort()` "
        "of a dict whose every value is a JAX array), written as statements. In a "
        "notebook, the expression a cell ends with is the cell's shown output, not discarded "
        "(unless a trailing `;` hides it). Not an `.at` of an object built from a class statement "
        "of the file (any scope: `t = Tree(...)` of `class Tree(pytreeclass.TreeClass)`, a class "
        "defined in a test function), which is that class's own `at`, no JAX array's.\n\n"
        "Also flags a function that returns the variables it handed to a flax `apply(..., "
        "mutable=...)` (`state` of `{\"params\": p, **state}`, `variables`) while the updated "
        "collections that call returned are bound to a name it never reads: `y, new = "
        "m.apply(v, x, mutable=[\"batch_stats\"])`, or the aux of `jax.value_and_grad(loss, "
        "has_aux=True)` / `jax.grad` whose local `loss` returns them (`return l, updated`). Not "
        "for `_`-prefixed names, `mutable=False`, or sown `intermediates` alone."
    )
    why_bad = (
        "`.at[]` updates are functional: they return a new array and leave `x` unchanged. "
        "Written as a statement, the update is computed and dropped, silently: no error, no "
        "warning, and `x` keeps its old values (verified on JAX 0.10.2 and 0.12). The same "
        "holds for `jnp.put(..., inplace=False)`, which returns the updated copy, and for "
        "`x.sort()`, which sorts in place in NumPy but returns a sorted copy in JAX."
    )
    use_instead = "```python\nx = jnp.zeros(3)\nx = x.at[0].set(5.0)\n```"
    fix_safety = (
        "The fix assigns the result back (`x = x.at[0].set(5.0)`). It is **unsafe**: it "
        "changes what the program computes (the update now happens), which is almost "
        "certainly what was meant but must be reviewed."
    )
    VALID = [
        # the updated collections returned or read; discarded on purpose (`_`); no state
        # asked for (`mutable=False`, sown intermediates only)
        Valid(
            """
            import jax

            def train_step(apply_fn, params, batch_stats, x):
                def loss(p):
                    y, updates = apply_fn({"params": p, **batch_stats}, x, mutable=["batch_stats"])
                    return (y ** 2).sum(), updates
                (l, updates), grads = jax.value_and_grad(loss, has_aux=True)(params)
                return grads, updates

            def eval_step(apply_fn, variables, x):
                y, _ = apply_fn(variables, x, mutable=["batch_stats"])
                z, new_vars = apply_fn(variables, x, mutable=["batch_stats"])
                print(new_vars)
                w, sown = apply_fn(variables, x, mutable=["intermediates"])
                v = apply_fn(variables, x, mutable=False)
                return y, z, w, v, variables
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            x = jnp.zeros(3)
            x = x.at[0].set(5.0)
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            x = jnp.zeros(3)
            print(x.at[0].get())
            """
        ),
        Valid(
            """
            import pandas as pd
            import jax
            df = pd.DataFrame({'a': [1]})
            df.at[0, 'a'] = 2
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            def f(x):
                return x.at[0].set(1.0)
            """
        ),
        # run for the exception it must raise
        Valid(
            """
            import jax.numpy as jnp
            import pytest


            def test_rejects_wrong_row_shape():
                grid = jnp.zeros((2, 3))
                with pytest.raises(ValueError):
                    grid.at[0].set(jnp.ones(4))
            """
        ),
        # the same in dicts of NumPy arrays and of lists (sorted in place), a dict with one
        # NumPy value (`mixed[k]` unknown)
        Valid(
            """
            import jax.numpy as jnp
            import numpy as np


            def sort_all(names):
                host = {"w": np.array([3.0, 1.0]), "b": np.array([2.0, 1.0])}
                for k in host:
                    host[k].sort()
                lists = dict(order=[2, 0, 1])
                lists["order"].sort()
                mixed = {"w": jnp.array([3.0, 1.0]), "b": np.array([2.0, 1.0])}
                for k in names:
                    mixed[k].sort()
                return host, lists, mixed
            """
        ),
        # a Python list sorts in place; the functional forms assigned
        Valid(
            """
            import jax.numpy as jnp
            import numpy as np

            order = [3, 1, 2]
            order.sort()
            h = np.array([3, 1, 2])
            h.sort()
            s = jnp.array([3, 1, 2])
            s = s.sort()
            s = jnp.put(s, jnp.array([0]), 9, inplace=False)
            """
        ),
        # an object of a class of the file: its own functional `.at` (pytreeclass), run in a
        # test for not raising; also a class written inside the test
        Valid(
            """
            import pytreeclass as tc


            class Tree(tc.TreeClass):
                a: int = 1


            def test_set_does_not_raise():
                tree = Tree()
                tree.at["a"].set(0)

                class Local(tc.TreeClass):
                    b: int = 2

                local = Local()
                local.at["b"].set(0)
            """
        ),
    ]

    INVALID = [
        # the collections a flax `apply(..., mutable=...)` updated are never read and the
        # function hands back the variables it passed in: directly, through a loss's aux
        # (`has_aux=True` of value_and_grad or grad)
        Invalid(
            """
            import jax

            def eval_step(apply_fn, variables, x):
                y, new_vars = apply_fn(variables, x, mutable=["batch_stats"])
                return y, variables

            def train_step(apply_fn, params, batch_stats, x):
                def loss(p):
                    y, updates = apply_fn({"params": p, **batch_stats}, x, mutable=["batch_stats"])
                    return (y ** 2).sum(), updates
                (l, updates), grads = jax.value_and_grad(loss, has_aux=True)(params)
                return grads, batch_stats

            def grad_step(model, params, state, x):
                def loss(p):
                    y, new_state = model.apply({"params": p, **state}, x, mutable=True)
                    return y.sum(), new_state
                grads, new_state = jax.grad(loss, has_aux=True)(params)
                return grads, state
            """,
            expected=[(5, 5), (12, 5), (19, 5)],
            messages=[
                "`variables` is returned as it was given: `apply(..., mutable=...)` changes nothing in place, it returns the updated collections, bound to `new_vars` on line 4 and never read, so the state never changes. Return `new_vars` (merged into `variables`) instead",
                "`batch_stats` is returned as it was given: `apply(..., mutable=...)` changes nothing in place, it returns the updated collections, bound to `updates` on line 11 and never read, so the state never changes. Return `updates` (merged into `batch_stats`) instead",
                "`state` is returned as it was given: `apply(..., mutable=...)` changes nothing in place, it returns the updated collections, bound to `new_state` on line 18 and never read, so the state never changes. Return `new_state` (merged into `state`) instead",
            ],
        ),
        # the array field of such an object is a JAX array: its update is dropped
        Invalid(
            """
            import jax.numpy as jnp
            import pytreeclass as tc


            class Tree(tc.TreeClass):
                def __init__(self):
                    self.w = jnp.zeros(3)


            tree = Tree()
            tree.w.at[0].set(1.0)
            """,
            expected=[(11, 1)],
            messages=[
                "`tree.w.at[...].set(...)` returns a new array and leaves `tree.w` unchanged; the result is discarded, so this line does nothing. Assign it: `tree.w = tree.w.at[...].set(...)`",
            ],
            fixed="""
            import jax.numpy as jnp
            import pytreeclass as tc


            class Tree(tc.TreeClass):
                def __init__(self):
                    self.w = jnp.zeros(3)


            tree = Tree()
            tree.w = tree.w.at[0].set(1.0)
            """,
            unsafe=True,
        ),
        Invalid(
            """
            import jax.numpy as jnp
            x = jnp.zeros(3)
            x.at[0].set(5.0)
            """,
            expected=[(3, 1)],
            messages=[
                "`x.at[...].set(...)` returns a new array and leaves `x` unchanged; the result is discarded, so this line does nothing. Assign it: `x = x.at[...].set(...)`",
            ],
            fixed="""
            import jax.numpy as jnp
            x = jnp.zeros(3)
            x = x.at[0].set(5.0)
            """,
            unsafe=True,
        ),
        Invalid(
            """
            import jax

            @jax.jit
            def f(state, i):
                state.grid.at[i].add(1)
                return state
            """,
            expected=[(5, 5)],
            messages=[
                "`state.grid.at[...].add(...)` returns a new array and leaves `state.grid` unchanged; the result is discarded, so this line does nothing. Assign it: `state.grid = state.grid.at[...].add(...)`",
            ],
            fixed="""
            import jax

            @jax.jit
            def f(state, i):
                state.grid = state.grid.at[i].add(1)
                return state
            """,
            unsafe=True,
        ),
        # a subscripted base (a dict entry, a list item): reported without a fix
        Invalid(
            """
            import jax.numpy as jnp
            state = {"grid": jnp.zeros(3)}
            state["grid"].at[0].set(5.0)
            """,
            expected=[(3, 1)],
            messages=[
                '`state["grid"].at[...].set(...)` returns a new array and leaves `state["grid"]` unchanged; the result is discarded, so this line does nothing. Assign it: `state["grid"] = state["grid"].at[...].set(...)`',
            ],
        ),
        # after the `with pytest.raises` block, the discarded update is a bug again
        Invalid(
            """
            import jax.numpy as jnp
            import pytest


            def test_row_update():
                grid = jnp.zeros((2, 3))
                with pytest.raises(ValueError):
                    grid.at[0].set(jnp.ones(4))
                grid.at[0].set(jnp.ones(3))
                assert grid[0].sum() == 3
            """,
            expected=[(9, 5)],
            messages=[
                "`grid.at[...].set(...)` returns a new array and leaves `grid` unchanged; the result is discarded, so this line does nothing. Assign it: `grid = grid.at[...].set(...)`",
            ],
            fixed="""
            import jax.numpy as jnp
            import pytest


            def test_row_update():
                grid = jnp.zeros((2, 3))
                with pytest.raises(ValueError):
                    grid.at[0].set(jnp.ones(4))
                grid = grid.at[0].set(jnp.ones(3))
                assert grid[0].sum() == 3
            """,
            unsafe=True,
        ),
        # `jnp.put(..., inplace=False)` and `x.sort()` dropped
        Invalid(
            """
            import jax.numpy as jnp

            b = jnp.zeros(3)
            jnp.put(b, jnp.array([0]), 1.0, inplace=False)
            s = jnp.array([3, 1, 2])
            s.sort()
            """,
            expected=[(4, 1), (6, 1)],
            messages=[
                "`jnp.put(..., inplace=False)` returns a new array and leaves `b` unchanged; the result is discarded, so this line does nothing. Assign it: `b = jnp.put(...)`",
                "`s.sort()` returns a sorted copy and leaves `s` unchanged (JAX arrays are immutable; NumPy's `sort()` works in place); the result is discarded, so this line does nothing. Assign it: `s = s.sort()`",
            ],
            fixed="""
            import jax.numpy as jnp

            b = jnp.zeros(3)
            b = jnp.put(b, jnp.array([0]), 1.0, inplace=False)
            s = jnp.array([3, 1, 2])
            s = s.sort()
            """,
            unsafe=True,
        ),
        # an array a dict holds: under a literal key, or any key of a dict whose every
        # value is a JAX array (`dict(...)`, a display)
        Invalid(
            """
            import jax.numpy as jnp


            def sort_all():
                params = {"w": jnp.array([3.0, 1.0]), "b": jnp.array([2.0, 1.0])}
                for k in params:
                    params[k].sort()
                ranks = dict(order=jnp.array([2, 0, 1]))
                ranks["order"].sort()
                return params, ranks
            """,
            expected=[(7, 9), (9, 5)],
            messages=[
                "`params[k].sort()` returns a sorted copy and leaves `params[k]` unchanged (JAX arrays are immutable; NumPy's `sort()` works in place); the result is discarded, so this line does nothing. Assign it: `params[k] = params[k].sort()`",
                '`ranks["order"].sort()` returns a sorted copy and leaves `ranks["order"]` unchanged (JAX arrays are immutable; NumPy\'s `sort()` works in place); the result is discarded, so this line does nothing. Assign it: `ranks["order"] = ranks["order"].sort()`',
            ],
            fixed="""
            import jax.numpy as jnp


            def sort_all():
                params = {"w": jnp.array([3.0, 1.0]), "b": jnp.array([2.0, 1.0])}
                for k in params:
                    params[k] = params[k].sort()
                ranks = dict(order=jnp.array([2, 0, 1]))
                ranks["order"] = ranks["order"].sort()
                return params, ranks
            """,
            unsafe=True,
        ),
    ]

    def visit_Assign(self, node: cst.Assign) -> None:
        found = mutable_state.discarded_state(self.ctx, node)
        if found is None:
            return
        name, given = found
        ret = mutable_state.stale_return(self.ctx.unit.node, given)
        if ret is None:
            return
        stmt, stale = ret
        self.report(
            stmt,
            f"`{stale}` is returned as it was given: `apply(..., mutable=...)` changes nothing in "
            f"place, it returns the updated collections, bound to `{name}` on line {{related_line}} "
            f"and never read, so the state never changes. Return `{name}` (merged into `{stale}`) instead",
            related=node,
        )

    def visit_Expr(self, node: cst.Expr) -> None:
        if self.ctx.expects_exception or self.ctx.displayed(node):
            return  # run for the exception it raises, or a notebook cell's shown output
        call = node.value
        if not isinstance(call, cst.Call):
            return
        if self._writer_discarded(node, call) or not isinstance(call.func, cst.Attribute):
            return
        if call.func.attr.value == "sort" and not call.args:
            self._sort_discarded(node, call.func)
            return
        if call.func.attr.value not in AT_METHODS:
            return
        sub = call.func.value
        if not isinstance(sub, cst.Subscript) or not isinstance(sub.value, cst.Attribute):
            return
        at = sub.value
        if at.attr.value != "at":
            return
        base_val = self.ctx.value(at.value)
        if base_val.kind in (V.NPARRAY, V.LIST, V.STATIC, V.MODULE):
            return
        cls = class_statement_instance(self.ctx.index, self.ctx.unit, at.value) if base_val.kind != V.ARRAY else None
        if cls is not None and not _hands_out_an_array_at(cls):
            return  # an instance of a class of the file: its own `at` (a pytreeclass tree), no JAX array
        base = self.ctx.code(at.value)
        method = call.func.attr.value
        message = (
            f"`{base}.at[...].{method}(...)` returns a new array and leaves `{base}` unchanged; "
            f"the result is discarded, so this line does nothing. Assign it: `{base} = {base}.at[...].{method}(...)`"
        )
        the_fix = None
        if dotted_name(at.value) is not None:
            the_fix = fix(
                Applicability.UNSAFE,
                f"Assign the result back to `{base}`",
                Replacement(node, f"{base} = {self.ctx.code(call).strip()}"),
            )
        self.report(node, message, the_fix)

    def _writer_discarded(self, node: cst.Expr, call: cst.Call) -> bool:
        """`jnp.put(a, ind, v, inplace=False)` as a statement: the updated copy is dropped
        (without `inplace=False` the call raises: JAX101)."""
        ctx = self.ctx
        q = ctx.qualname(call.func)
        spec = INPLACE_WRITERS.get(q or "")
        if spec is None or not is_false(inplace_flag(call, spec[0])):
            return False
        shown = ctx.code(call.func).strip()
        target = arg_at(call, 0, spec[1])
        the_fix = None
        if target is not None and dotted_name(target) is not None:
            base = ctx.code(target).strip()
            message = (
                f"`{shown}(..., inplace=False)` returns a new array and leaves `{base}` unchanged; the "
                f"result is discarded, so this line does nothing. Assign it: `{base} = {shown}(...)`"
            )
            if not isinstance(target, cst.Name) or ctx.rebinding_works(target.value):
                the_fix = fix(
                    Applicability.UNSAFE,
                    f"Assign the result back to `{base}`",
                    Replacement(node, f"{base} = {ctx.code(call).strip()}"),
                )
        else:
            message = (
                f"`{shown}(..., inplace=False)` returns a new array; the result is discarded, so "
                "this line does nothing"
            )
        self.report(node, message, the_fix)
        return True

    def _sort_discarded(self, node: cst.Expr, func: cst.Attribute) -> None:
        """`x.sort()` on a JAX array: NumPy sorts in place, JAX returns a sorted copy."""
        ctx = self.ctx
        # `x.sort()`, `self.x.sort()`; `params[k].sort()` of an array a dict (or list) holds
        held = isinstance(func.value, cst.Subscript) and dotted_name(func.value.value) is not None \
            and ctx.value(func.value.value).kind == V.LIST
        if ctx.value(func.value).kind != V.ARRAY or (dotted_name(func.value) is None and not held):
            return
        base = ctx.code(func.value).strip()
        the_fix = None
        if not isinstance(func.value, cst.Name) or ctx.rebinding_works(func.value.value):
            the_fix = fix(
                Applicability.UNSAFE,
                f"Assign the result back to `{base}`",
                Replacement(node, f"{base} = {base}.sort()"),
            )
        self.report(
            node,
            f"`{base}.sort()` returns a sorted copy and leaves `{base}` unchanged (JAX arrays are "
            f"immutable; NumPy's `sort()` works in place); the result is discarded, so this line "
            f"does nothing. Assign it: `{base} = {base}.sort()`",
            the_fix,
        )


def _hands_out_an_array_at(cls) -> bool:
    """Does the class's ``at`` lead to an array's: a ``__new__`` (the "instance" may be
    anything it returns, ``jnp.asarray(v)``), or an ``at`` of its own that returns another
    object's ``.at`` (``return self.data.at``: a delegate, whose updates are discarded the
    same way)?"""
    if "__new__" in cls.methods:
        return True
    own = cls.methods.get("at")
    if own is None:
        return False
    return any(type(n) is cst.Return and type(n.value) is cst.Attribute and n.value.attr.value == "at"
               for n in walk_tree(own.node))
