"""JAX506 donated-argument-reused: An argument donated to a jitted call (`donate_argnums`/`donate_argnames`) is used afterwards: `Array has been deleted`."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid, assignment_targets, bound_names
from jaxlint.findings import Severity
from jaxlint.model import values as V
from jaxlint.model.units import Unit
from jaxlint.model.walk import assigned_in, children, descendants, positional_args


class DonatedArgumentReused(Rule):
    code = "JAX506"
    name = "donated-argument-reused"
    runtime_check = 'calls the function: confirmed when `RuntimeError: Array has been deleted` is raised at the flagged line.'
    summary = "An argument donated to a jitted call (`donate_argnums`/`donate_argnames`) is used afterwards: `Array has been deleted`"
    severity = Severity.ERROR
    seed = "FAQ § buffer donation (seed 004)"
    what_it_does = (
        "After a call of a function jitted with `donate_argnums`/`donate_argnames`, flags a "
        "read of a variable that was passed in a donated position, before the variable is "
        "bound again. `params = update(params, grads)` (the usual pattern) rebinds the name "
        "and stays silent; reading `.shape`/`.dtype`/`.ndim`/`.size` or `.is_deleted()` is "
        "allowed, and so is deleting it again (`x.delete()`, `jax.tree.map(lambda h: h.delete(), "
        "batch)`: a no-op on deleted buffers). A value known to be a NumPy array (which JAX copies, not donates) is skipped. "
        "Also flags a donated variable passed again in the same call, as itself (`f(x, x)`) or through a "
        "name bound to it earlier on the same path (`batch = x; x = update(x, batch)`; not one bound in only one branch of an `if`). "
        "A donated pytree written here (a tuple, list or dict display, `dict(...)`, a NamedTuple or pytree "
        "dataclass built with its fields, bound to a name on this path or written in the call) that holds one "
        "JAX array twice is flagged at the argument (`state = (params, params); step(state)`); so is a read, "
        "after the call, of a JAX array the donated tree holds (`a` of `state = (a, b)`, `p` of "
        "`step(State(p, q))`) or of an alias of a donated name (`keep = x; step(x); keep`), and a name donated "
        "by a call in a simple statement of a loop's body that the loop never binds again (the next iteration "
        "passes the deleted buffer; not a loop that may `break`/`return`/`raise`, nor `range(1)`). A Python "
        "number or a NumPy array in two leaves becomes two device buffers and is not flagged."
    )
    why_bad = (
        "Donation lets XLA reuse the input buffer for the output; the donated `jax.Array` is "
        "deleted by the call. The 2022 FAQ says donation only happens on GPU/TPU; on current "
        "JAX (0.10.2, 0.12) it happens on CPU too, with no warning, and any later use raises:\n\n"
        "```\nRuntimeError: Array has been deleted with shape=float32[2,3].\n```\n\n"
        "A buffer donated and passed again to the same call is refused (jax 0.10.2 on CPU): `JaxRuntimeError: "
        "INVALID_ARGUMENT: Attempt to use a buffer that was previously donated in the same call to Execute()` "
        "(or `Attempt to donate a buffer which is also used by the same call`, by argument order)."
    )
    use_instead = (
        "Rebind the donated name to the result (`y = add(x, y)`), don't donate arguments you "
        "still need, or pass a copy (`add(x, y.copy())`)."
    )
    fix_safety = "No automatic fix."
    VALID = [
        Valid(
            """
            import jax
            import jax.numpy as jnp

            f = jax.jit(lambda x, y: x + y, donate_argnums=(0,))
            g = jax.jit(lambda x, y: x + y)

            def train(x, n):
                out = g(x, x)
                for _ in range(n):
                    batch = out.copy()
                    out = f(out, batch)
                    batch = out
                    out = jnp.zeros(3)
                    out = f(out, batch)
                return out
            """
        ),
        Valid(
            """
            import jax
            from functools import partial

            @partial(jax.jit, donate_argnums=0)
            def update(params, grads):
                return params - 0.1 * grads

            def train(params, grads):
                params = update(params, grads)
                return params
            """
        ),
        Valid(
            """
            import jax

            add = jax.jit(lambda x, y: x + y, donate_argnums=1)

            def f(x, y):
                z = add(x, y)
                print(x, y.shape)
                return z
            """
        ),
        Valid(
            """
            import jax

            add = jax.jit(lambda x, y: x + y, donate_argnums=1)

            def f(x, y):
                z = add(x, y)
                y = z * 2
                return y + x
            """
        ),
        Valid(
            """
            import jax

            add = jax.jit(lambda x, y: x + y)

            def f(x, y):
                z = add(x, y)
                return y + z
            """
        ),
        # a donated array's shape and dtype stay readable: lowering, eval_shape, make_jaxpr
        Valid(
            """
            import jax
            import jax.numpy as jnp

            step = jax.jit(lambda p, x: (p * x, x), donate_argnums=(0,))
            params = jnp.ones((4, 4))
            new_params, _ = step(params, jnp.ones((4, 4)))
            compiled = step.lower(params, jnp.ones((4, 4))).compile()
            print(jax.eval_shape(lambda p: p.sum(), params))
            print(jax.make_jaxpr(step)(params, jnp.ones((4, 4))))
            """
        ),
        # a branch that donates and then returns or raises never reaches what follows
        # the `if`; the `if` branch's donation is not seen by the `elif`/`else` branches
        Valid(
            """
            import jax
            from functools import partial

            @partial(jax.jit, donate_argnames=("state",))
            def finalize(state):
                return state * 0

            class Runner:
                def step(self, state, done):
                    if done: return finalize(state=state)
                    return state + 1

                def check(self, state, ok):
                    if not ok:
                        last = finalize(state=state)
                        raise RuntimeError(last)
                    return state.sum()
            """
        ),
        Valid(
            """
            import jax

            write = jax.jit(lambda c, n: c + n, donate_argnums=(0,))

            def apply(cache, new, mode):
                if mode == "write":
                    out = write(cache, new)
                elif mode == "double":
                    out = cache * 2
                else:
                    out = cache + new
                return out
            """
        ),
        # the twins: a copy in the second leaf; a Python number or a NumPy array in two
        # leaves (each becomes its own device buffer); the leaf or alias bound again before
        # it is read; a loop that rebinds the donated name, leaves after the call, or runs once
        Valid(
            """
            import functools
            import jax
            import jax.numpy as jnp
            import numpy as np

            step = jax.jit(lambda s: jax.tree.map(lambda a: a + 1, s), donate_argnums=0)

            @functools.partial(jax.jit, donate_argnames=("state",))
            def update(state, lr):
                return jax.tree.map(lambda a: a - lr, state)

            def tuple_copy():
                params = jnp.zeros(4)
                state = (params, jnp.copy(params))
                return step(state)

            def numbers_and_numpy():
                w = 1.0
                h = np.zeros(3)
                return update(state={"w": w, "z": w, "h": h, "g": h}, lr=0.1)

            def leaf_rebound():
                a, b = jnp.zeros(2), jnp.ones(2)
                state = (a, b)
                a, b = step(state)
                return a + b

            def alias_rebound():
                x = jnp.zeros(4)
                keep = x
                out = update(x, 0.1)
                keep = out
                return out + keep

            def loops():
                x = jnp.zeros(4)
                for _ in range(3):
                    x = step(x)
                for _ in range(3):
                    out = step(x)
                    break
                y = jnp.zeros(4)
                for _ in range(1):
                    out = step(y)
                z = jnp.zeros(4)
                for i in range(3):
                    if i == 2:
                        out = step(z)
                return out
            """
        ),
    ]

    INVALID = [
        # one JAX array twice in the donated pytree: a tuple bound here, a dict display
        # by keyword, `dict(...)` holding an alias of it (jax 0.10.2: `INVALID_ARGUMENT:
        # Attempt to donate the same buffer twice in Execute()`)
        Invalid(
            """
            import functools
            import jax
            import jax.numpy as jnp

            step = jax.jit(lambda s: jax.tree.map(lambda a: a + 1, s), donate_argnums=0)

            @functools.partial(jax.jit, donate_argnames=("state",))
            def update(state, lr):
                return jax.tree.map(lambda a: a - lr, state)

            def tuple_twice():
                params = jnp.zeros(4)
                state = (params, params)
                return step(state)

            def dict_twice_by_keyword():
                w = jnp.ones(3)
                return update(state={"w": w, "z": w}, lr=0.1)

            def nested_through_alias():
                params = jnp.zeros(4)
                z = params
                opt_state = dict(z=z, count=jnp.zeros(()))
                return update((params, opt_state), 0.1)
            """,
            expected=[(14, 17), (18, 25), (24, 20)],
            messages=[
                "the donated argument `state` holds `params` twice (bound together on line 13): JAX refuses to donate one buffer twice, `JaxRuntimeError: INVALID_ARGUMENT: Attempt to donate the same buffer twice`. Hold a copy in one of the places (`jnp.copy`, `jax.tree.map(jnp.copy, ...)`) or don't donate it",
                "the donated argument holds `w` twice: JAX refuses to donate one buffer twice, `JaxRuntimeError: INVALID_ARGUMENT: Attempt to donate the same buffer twice`. Hold a copy in one of the places (`jnp.copy`, `jax.tree.map(jnp.copy, ...)`) or don't donate it",
                "the donated argument holds `params` twice (bound together on line 22): JAX refuses to donate one buffer twice, `JaxRuntimeError: INVALID_ARGUMENT: Attempt to donate the same buffer twice`. Hold a copy in one of the places (`jnp.copy`, `jax.tree.map(jnp.copy, ...)`) or don't donate it",
            ],
        ),
        # a buffer read after the call through another name: a leaf of the donated tuple,
        # an alias; and one donated again by the next iteration of a loop that never
        # rebinds it (`while`, a `pmap` in a `for`): jax 0.10.2 raises `Array has been
        # deleted` / `INVALID_ARGUMENT: ... Buffer has been deleted or donated`
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            step = jax.jit(lambda s: jax.tree.map(lambda a: a + 1, s), donate_argnums=0)

            def leaf_read_after():
                a, b = jnp.zeros(2), jnp.ones(2)
                state = (a, b)
                new = step(state)
                return new[0] + a

            def alias_read_after():
                x = jnp.zeros(4)
                keep = x
                out = step(x)
                return out + keep

            def loop_while():
                x = jnp.zeros(4)
                i = 0
                while i < 3:
                    out = step(x)
                    i += 1
                return out

            def loop_pmap():
                p = jax.pmap(lambda v: v * 2, donate_argnums=(0,))
                x = jnp.zeros((1, 4))
                for _ in range(2):
                    y = p(x)
                return y
            """,
            expected=[(10, 21), (16, 18), (22, 20), (30, 15)],
            messages=[
                "`a` is held by `state`, donated to the jitted call on line 9: the call deleted its buffer, and using it now raises `RuntimeError: Array has been deleted`. Read the call's result instead, or don't donate it",
                "`keep` is the same array as `x`, donated to the jitted call on line 15: the call deleted its buffer, and using it now raises `RuntimeError: Array has been deleted`. Read the call's result instead, or don't donate it",
                "`x` is donated to this jitted call inside a loop and never bound again in it: the next iteration passes the buffer this call deleted, `INVALID_ARGUMENT: Buffer has been deleted or donated`. Rebind it to the result (`x = ...`), or don't donate it",
                "`x` is donated to this jitted call inside a loop and never bound again in it: the next iteration passes the buffer this call deleted, `INVALID_ARGUMENT: Buffer has been deleted or donated`. Rebind it to the result (`x = ...`), or don't donate it",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            from functools import partial

            f = jax.jit(lambda x, y: x + y, donate_argnums=(0,))

            @partial(jax.jit, donate_argnames=("state",))
            def update(state, batch):
                return state + batch

            def train(x, n):
                out = f(x, x)
                for _ in range(n):
                    batch = out
                    out = update(state=out, batch=batch)
                return out
            """,
            expected=[(12, 16), (15, 39)],
            messages=[
                "`x` is donated to this jitted call and passed again as another argument: one buffer donated and used by the same call raises `JaxRuntimeError: INVALID_ARGUMENT` (the runtime refuses it). Pass a copy (`x.copy()`) or don't donate it",
                "`out` is donated to this jitted call and passed again as another argument (`batch` is bound to `out` on line 14): one buffer donated and used by the same call raises `JaxRuntimeError: INVALID_ARGUMENT` (the runtime refuses it). Pass a copy (`batch.copy()`) or don't donate it",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            def add(x, y):
                return x + y

            x = jnp.ones((2, 3))
            y = jnp.ones((2, 3))
            z = jax.jit(add, donate_argnums=1)(x, y)
            print(y + 1)
            """,
            expected=[(10, 7)],
            messages=[
                "`y` was donated to the jitted call on line 9 (donate_argnums/donate_argnames): the call deleted its buffer, and using it now raises `RuntimeError: Array has been deleted`. Rebind it to the result, or don't donate it",
            ],
        ),
        Invalid(
            """
            import jax
            from functools import partial

            @partial(jax.jit, donate_argnames=('state',))
            def step(state, batch):
                return state + batch

            def train(state, batches):
                new_state = step(state, batches[0])
                return new_state, state.sum()
            """,
            expected=[(10, 23)],
            messages=[
                "`state` was donated to the jitted call on line 9 (donate_argnums/donate_argnames): the call deleted its buffer, and using it now raises `RuntimeError: Array has been deleted`. Rebind it to the result, or don't donate it",
            ],
        ),
        # the donating branch falls through to a read after the `if`; a read inside the
        # branch before its `return`
        Invalid(
            """
            import jax

            write = jax.jit(lambda c, n: c + n, donate_argnums=(0,))

            def apply(cache, new, overwrite):
                if overwrite:
                    out = write(cache, new)
                else:
                    out = new
                return out + cache.sum()

            def log_and_write(cache, new, overwrite):
                if overwrite:
                    out = write(cache, new)
                    print(cache)
                    return out
                return cache
            """,
            expected=[(10, 18), (15, 15)],
            messages=[
                "`cache` was donated to the jitted call on line 7 (donate_argnums/donate_argnames): the call deleted its buffer, and using it now raises `RuntimeError: Array has been deleted`. Rebind it to the result, or don't donate it",
                "`cache` was donated to the jitted call on line 14 (donate_argnums/donate_argnames): the call deleted its buffer, and using it now raises `RuntimeError: Array has been deleted`. Rebind it to the result, or don't donate it",
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._unit: Optional[Unit] = None
        self._donated: dict[str, cst.Call] = {}
        # `alias = name` assignments seen on this path: alias -> (name, if depth, statement)
        self._aliases: dict[str, tuple] = {}
        # `state = (params, opt_state)` / `{"w": w, "z": w}` seen on this path: name ->
        # (the display, if depth, statement, whether a leaf is a JAX array)
        self._displays: dict[str, tuple] = {}
        # a name donated through another one: name -> (the donated name, the statement
        # that binds one to the other or holds it in a display)
        self._via: dict[str, tuple] = {}
        self._branches: list[_Branches] = []
        self._elifs: set[int] = set()

    def _sync(self) -> None:
        if self._unit is not self.ctx.unit:
            self._unit = self.ctx.unit
            self._donated = {}
            self._aliases = {}
            self._displays = {}
            self._via = {}
            self._abstract = frozenset()
            self._branches = []
            self._elifs = set()

    # -- control flow: one path at a time ------------------------------------------
    # The walk is linear; an `if` frame records the donations made in each branch.
    # A donation in a branch that ends with `return`/`raise` never reaches what follows
    # the `if` (`if not kvs: return erase(cache)` then `insert(cache, kvs)`), and one made
    # in the `if` branch is not seen by its `else`/`elif` branch.
    def visit_If(self, node: cst.If) -> None:
        self._sync()
        if id(node) in self._elifs and self._branches:
            self._enter_else(self._branches[-1])
        if isinstance(node.orelse, cst.If):
            self._elifs.add(id(node.orelse))
        self._branches.append(_Branches(node))

    def visit_Else(self, node: cst.Else) -> None:
        self._sync()
        if self._branches and self._branches[-1].node.orelse is node:
            self._enter_else(self._branches[-1])

    def _enter_else(self, b: "_Branches") -> None:
        if b.in_else:
            return
        b.in_else = True
        for n, call in b.body:
            if self._donated.get(n) is call:
                del self._donated[n]
                if not _ends(b.node.body):
                    b.suspended.append((n, call))

    def leave_If(self, node: cst.If) -> None:
        self._sync()
        if not any(f.node is node for f in self._branches):
            return
        while self._branches[-1].node is not node:
            # an `if` the model walked one branch of (the other is dead under trace) was not
            # left: what was donated after it belongs to the branch around it
            stale = self._branches.pop()
            self._record(stale.body + stale.orelse)
        b = self._branches.pop()
        depth = len(self._branches)
        for a, (_, d, _) in list(self._aliases.items()):
            if d > depth:
                del self._aliases[a]  # (made in one branch: not on every path after the `if`)
        for a, (_, d, _, _) in list(self._displays.items()):
            if d > depth:
                del self._displays[a]
        self._elifs.discard(id(node.orelse))
        live: list = []
        if not b.in_else:
            # no `else`: the `if` branch's donations live on unless it always leaves
            if _ends(node.body):
                for n, call in b.body:
                    if self._donated.get(n) is call:
                        del self._donated[n]
            else:
                live = b.body
        else:
            live = list(b.orelse)
            if isinstance(node.orelse, cst.Else) and _ends(node.orelse.body):
                for n, call in live:
                    if self._donated.get(n) is call:
                        del self._donated[n]
                live = []
            for n, call in b.suspended:
                if n not in self._donated:
                    self._donated[n] = call
                    live.append((n, call))
        if self._branches:
            self._record(live)

    def _record(self, marks) -> None:
        b = self._branches[-1]
        (b.orelse if b.in_else else b.body).extend(marks)

    def _unbind_targets(self, targets) -> None:
        for t in targets:
            for n in bound_names(t):
                self._donated.pop(n.value, None)

    def leave_Assign(self, node: cst.Assign) -> None:
        self._unbind_targets(assignment_targets(node))
        self._forget_aliases(assignment_targets(node))
        if len(node.targets) == 1 and type(node.targets[0].target) is cst.Name and type(node.value) is cst.Name \
                and node.targets[0].target.value != node.value.value:
            # `batch = x`: one buffer under two names, until either is bound again
            self._aliases[node.targets[0].target.value] = (node.value.value, len(self._branches), node)
        elif len(node.targets) == 1 and type(node.targets[0].target) is cst.Name:
            items = self._display_items(node.value)
            if items is not None:
                # `state = (params, params)`: a pytree whose leaves are these buffers
                self._displays[node.targets[0].target.value] = (
                    node.value, len(self._branches), node, self._holds_array(items))

    def leave_AugAssign(self, node) -> None:
        self._unbind_targets(assignment_targets(node))
        self._forget_aliases(assignment_targets(node))

    leave_AnnAssign = leave_AugAssign

    def _forget_aliases(self, targets) -> None:
        if not self._aliases and not self._displays and not self._via:
            return
        names = {n.value for t in targets for n in bound_names(t)}
        for a, (b, _, _) in list(self._aliases.items()):
            if a in names or b in names:
                del self._aliases[a]
        for a, (expr, _, _, _) in list(self._displays.items()):
            # the name, or one of its leaves, bound again: no longer known to share
            if a in names or any(type(e) is cst.Name and e.value in names for e in self._display_items(expr) or ()):
                del self._displays[a]
        for n in names:
            self._via.pop(n, None)

    def visit_Del(self, node: cst.Del) -> None:
        self._sync()
        self._unbind_targets([node.target])

    def leave_For(self, node: cst.For) -> None:
        self._unbind_targets([node.target])

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value == "delete":
            base = node.value
            while isinstance(base, cst.Subscript):
                base = base.value  # `batch["x"].delete()`: an item of the donated tree, deleted again
            if isinstance(base, cst.Name):
                self._skip = base
                return
        if isinstance(node.value, cst.Name) and node.attr.value in ("shape", "dtype", "ndim", "size", "is_deleted", "sharding", "aval", "weak_type", "delete"):
            self._skip = node.value

    _skip: Optional[cst.CSTNode] = None
    _abstract: frozenset = frozenset()

    def visit_Call(self, node: cst.Call) -> None:
        """`step.lower(params, ...)`, `jax.eval_shape(f, params)`, `jax.make_jaxpr(f)(params)`:
        only shapes and dtypes are read (tracing with abstract values), never the buffer."""
        if not self._donated:
            return
        func = node.func
        abstract = isinstance(func, cst.Attribute) and func.attr.value in ("lower", "trace", "eval_shape")
        if not abstract:
            q = self.ctx.qualname(func)
            abstract = q == "jax.eval_shape" or (
                isinstance(func, cst.Call) and self.ctx.qualname(func.func) == "jax.make_jaxpr")
        if not abstract:
            # `jax.tree.map(lambda h: h.delete(), batch)`: deleting what is already deleted
            # is a no-op (`Array.delete()` returns when the buffers are gone), no read
            q = self.ctx.qualname(func)
            fn = node.args[0].value if node.args and node.args[0].keyword is None else None
            abstract = q in _TREE_MAPS and isinstance(fn, cst.Lambda) and _deletes_param(fn)
        if abstract:
            self._abstract = self._abstract | {id(a.value) for a in node.args if isinstance(a.value, cst.Name)}

    def visit_Name(self, node: cst.Name) -> None:
        self._sync()
        if not self._donated or node.value not in self._donated:
            return
        if self._skip is node or id(node) in self._abstract:
            return
        call = self._donated.pop(node.value)
        via = self._via.pop(node.value, None)
        if via is not None:
            held = f"{via[2]} of the jitted call" if not via[0] else f"{via[2]} `{via[0]}`, donated to the jitted call"
            self.report(
                node,
                f"`{node.value}` {held} on line {{related_line}}: the call deleted its buffer, and using it now "
                f"raises `RuntimeError: Array has been deleted`. Read the call's result instead, or don't donate it",
                related=call,
            )
            return
        self.report(
            node,
            f"`{node.value}` was donated to the jitted call on line {{related_line}} "
            f"(donate_argnums/donate_argnames): the call deleted its buffer, and using it now "
            f"raises `RuntimeError: Array has been deleted`. Rebind it to the result, or don't "
            f"donate it",
            related=call,
        )

    def leave_Call(self, node: cst.Call) -> None:
        self._sync()
        ctx = self.ctx
        if ctx.in_traced:
            return
        info = ctx.jit_callee(node, exact=False)
        if info is None or not info.has_donated:
            return
        donated = [a for i, a in enumerate(positional_args(node)) if info.donated_position(i)] + [
            a for a in node.args if a.keyword is not None and info.donated_name(a.keyword.value)]
        if not self._passed_twice(node, donated):
            self._donated_twice(node, donated)
        self._donated_each_iteration(node, donated)
        for a in donated:
            self._mark(a.value, node)
            self._mark_shared(a.value, node)

    # -- pytrees of buffers: displays bound on this path ---------------------------------
    def _display_items(self, e: cst.BaseExpression) -> Optional[list]:
        """The leaves of a tuple/list/dict display or a ``dict(k=v)`` call, nested
        displays flattened (``((a, b), {"c": c})`` -> a, b, c); None for anything
        else, or a display with ``*``/``**`` (its leaves are not all written)."""
        t = type(e)
        if t in (cst.Tuple, cst.List):
            items = [el.value for el in e.elements if not isinstance(el, cst.StarredElement)]
            if len(items) != len(e.elements):
                return None
        elif t is cst.Dict:
            items = [el.value for el in e.elements if isinstance(el, cst.DictElement)]
            if len(items) != len(e.elements):
                return None
        elif t is cst.Call and type(e.func) is cst.Name and e.func.value == "dict" \
                and self.ctx.lookup("dict") is None and all(a.keyword is not None for a in e.args):
            items = [a.value for a in e.args]
        elif t is cst.Call:
            items = self._record_leaves(e)
            if items is None:
                return None
        else:
            return None
        out: list = []
        for item in items:
            inner = self._display_items(item)
            out.extend(inner if inner is not None else [item])
        return out

    def _record_leaves(self, call: cst.Call) -> Optional[list]:
        """``State(p, p)`` / ``TrainState(params=p, ema=p)`` of a NamedTuple or a pytree
        dataclass the model reads (model/pytrees.py): the arguments given to its data
        fields (a static field is no leaf); None for any other call."""
        cls = self.ctx.value(call).cls
        flat = cls.flat if cls is not None else None
        if not flat or flat.get("reg") not in ("namedtuple", "dataclass") or any(a.star for a in call.args):
            return None
        fields = list((flat.get("fields") or {}).items())
        kinds = dict(fields)
        out = []
        for i, a in enumerate(call.args):
            kind = kinds.get(a.keyword.value) if a.keyword is not None else (fields[i][1] if i < len(fields) else None)
            if kind is None:
                return None
            if kind == "d":
                out.append(a.value)
        return out

    def _is_array(self, e: cst.BaseExpression) -> bool:
        return self.ctx.value(e).kind in _ARRAY_KINDS

    def _holds_array(self, items: list) -> bool:
        return any(self._is_array(i) or (type(i) is cst.Name and i.value in self._displays
                                         and self._displays[i.value][3]) for i in items)

    def _leaves(self, e: cst.BaseExpression, out: list, seen: frozenset = frozenset()) -> None:
        """(identity, the name as written, the statement that bound it into the tree) for
        each name in the donated tree ``e``: a name bound to a display here stands for
        itself and its leaves; an alias (``y = x``) for the name it was bound to."""
        items = self._display_items(e)
        if items is not None:
            for item in items:
                self._leaves(item, out, seen)
            return
        if type(e) is not cst.Name:
            return
        name = e.value
        d = self._displays.get(name)
        if d is not None and name not in seen:
            out.append((name, e, None, d[3]))
            for item in self._display_items(d[0]) or ():
                if type(item) is cst.Name:
                    self._leaves(item, out, seen | {name})
                    out[-1] = out[-1][:2] + (d[2],) + out[-1][3:] if out and out[-1][2] is None else out[-1]
            return
        alias = self._aliases.get(name)
        if alias is not None:
            out.append((alias[0], e, alias[2], self._is_array(e)))
            return
        out.append((name, e, None, self._is_array(e)))

    def _donated_twice(self, call: cst.Call, donated: list) -> None:
        """``state = (params, params); step(state)`` with ``state`` donated: the pytree
        holds one JAX array twice and JAX refuses to donate a buffer twice
        (`INVALID_ARGUMENT: Attempt to donate the same buffer twice in Execute()`); a
        Python number or a NumPy array in two leaves becomes two device buffers, and a
        value of unknown kind is not reported."""
        leaves: list = []
        for a in donated:
            mine: list = []
            self._leaves(a.value, mine)
            leaves.extend((leaf, a.value) for leaf in mine)
        first: dict = {}
        for (ident, written, stmt, is_array), where in leaves:
            if ident in first and is_array:
                bound = first[ident][2] or stmt
                how = " (bound together on line {related_line})" if bound is not None else ""
                arg = f" `{where.value}`" if type(where) is cst.Name else ""
                self.report(
                    where,
                    f"the donated argument{arg} holds `{ident}` twice{how}: JAX refuses to donate one buffer twice, "
                    f"`JaxRuntimeError: INVALID_ARGUMENT: Attempt to donate the same buffer twice`. Hold a "
                    f"copy in one of the places (`jnp.copy`, `jax.tree.map(jnp.copy, ...)`) or don't donate it",
                    related=bound,
                )
                return
            first.setdefault(ident, (written, is_array, stmt))
            if ident in first and first[ident][2] is None and stmt is not None:
                first[ident] = (written, is_array, stmt)

    def _mark_shared(self, e: cst.BaseExpression, call: cst.Call) -> None:
        """Names that hold a buffer the call donates, besides the argument itself: the
        leaves of a donated display (``step(state)`` deletes ``params`` of
        ``state = (params, opt)``) and the other name of an alias (``y = x; step(x)``)."""
        leaves: list = []
        self._leaves(e, leaves)
        donated_names = {ident for ident, _, _, _ in leaves}
        if type(e) is cst.Name:
            donated_names.add(e.value)
        for a, (b, _, stmt) in self._aliases.items():
            if b in donated_names and a not in self._donated:
                self._donate_via(a, b, stmt, call, "is the same array as")
        for ident, written, stmt, is_array in leaves:
            if ident in self._donated or not is_array:
                continue
            src = e.value if type(e) is cst.Name else None
            if src is not None and ident != src:
                self._donate_via(ident, src, self._displays[src][2] if src in self._displays else stmt, call,
                                 "is held by")
            elif src is None and type(written) is cst.Name:
                # `step((a, b))`, `step(State(p, q))`: a leaf written in the donated argument
                self._donate_via(ident, "", stmt, call, "was passed inside the donated argument")

    def _donate_via(self, name: str, src: str, stmt, call: cst.Call, how: str) -> None:
        self._donated[name] = call
        self._via[name] = (src, stmt, how)
        if self._branches:
            self._record([(name, call)])

    # -- loops --------------------------------------------------------------------------
    def _donated_each_iteration(self, call: cst.Call, donated: list) -> None:
        """``for ...: out = step(x)`` with ``x`` donated and bound nowhere in the loop: the
        second iteration passes the buffer the first one deleted (`Buffer has been
        deleted or donated`).  Loops that may leave early (`break`, `return`, `raise`)
        and ``range`` of a literal 0 or 1 are not judged."""
        stack = self.ctx.loop_stack
        if not stack:
            return
        loop = stack[-1].node
        if not isinstance(loop, (cst.For, cst.While)) or not _repeats(loop) or _may_leave(loop.body) \
                or not _runs_each_iteration(loop, call):
            return
        bound = None
        for a in donated:
            e = a.value
            if type(e) is not cst.Name:
                continue
            v = self.ctx.value(e)
            if v.kind in (V.NPARRAY, V.STATIC, V.FUNCTION, V.MODULE):
                continue
            if bound is None:
                bound = assigned_in(loop, defs=True)
            if e.value in bound:
                continue
            self.report(
                e,
                f"`{e.value}` is donated to this jitted call inside a loop and never bound again in it: the "
                f"next iteration passes the buffer this call deleted, `INVALID_ARGUMENT: Buffer has been "
                f"deleted or donated`. Rebind it to the result (`{e.value} = ...`), or don't donate it",
            )
            return

    def _passed_twice(self, call: cst.Call, donated: list) -> bool:
        """``f(x, x)`` / ``batch = x; update(x, batch)`` with ``x`` donated: one buffer is
        donated and passed again in the same call, which JAX refuses (`INVALID_ARGUMENT:
        Attempt to use a buffer that was previously donated in the same call`)."""
        names = {a.value.value: a for a in donated if type(a.value) is cst.Name
                 and self.ctx.value(a.value).kind not in (V.NPARRAY, V.STATIC, V.FUNCTION, V.MODULE)}
        if not names:
            return False
        for a in call.args:
            if any(a is d for d in donated) or type(a.value) is not cst.Name or a.star:
                continue
            name = a.value.value
            alias = self._aliases.get(name)
            same = name if name in names else (alias[0] if alias is not None and alias[0] in names else None)
            if same is None:
                continue
            how = "" if same == name else f" (`{name}` is bound to `{same}` on line {{related_line}})"
            self.report(
                a.value,
                f"`{same}` is donated to this jitted call and passed again as another argument{how}: one "
                f"buffer donated and used by the same call raises `JaxRuntimeError: INVALID_ARGUMENT` (the "
                f"runtime refuses it). Pass a copy (`{name}.copy()`) or don't donate it",
                related=alias[2] if same != name else None,
            )
            return True
        return False

    def _mark(self, e: cst.BaseExpression, call: cst.Call) -> None:
        if not isinstance(e, cst.Name):
            return
        v = self.ctx.value(e)
        if v.kind in (V.NPARRAY, V.STATIC, V.FUNCTION, V.MODULE):
            return
        self._donated[e.value] = call
        if self._branches:
            self._record([(e.value, call)])


class _Branches:
    """The donations made in each branch of one `if` statement."""

    __slots__ = ("node", "in_else", "body", "orelse", "suspended")

    def __init__(self, node: cst.If) -> None:
        self.node = node
        self.in_else = False
        self.body: list = []
        self.orelse: list = []
        self.suspended: list = []


_TREE_MAPS = frozenset({"jax.tree.map", "jax.tree_util.tree_map", "jax.tree_map"})
_ARRAY_KINDS = (V.ARRAY, V.KEY, V.KEYS)


def _repeats(loop) -> bool:
    """Not a ``for _ in range(0)``/``range(1)`` loop (literal bounds run once or never)."""
    if isinstance(loop, cst.For) and isinstance(loop.iter, cst.Call) and type(loop.iter.func) is cst.Name \
            and loop.iter.func.value == "range" and len(loop.iter.args) == 1 \
            and isinstance(loop.iter.args[0].value, cst.Integer):
        return int(loop.iter.args[0].value.value, 0) > 1
    if isinstance(loop, cst.While) and isinstance(loop.test, cst.Name) and loop.test.value == "False":
        return False
    return True


def _runs_each_iteration(loop, call: cst.Call) -> bool:
    """Is ``call`` in a simple statement of the loop's own body (not under an `if`, a `try`
    or a nested loop of it, which may run it on one iteration only)?"""
    body = loop.body
    stmts = body.body if isinstance(body, cst.IndentedBlock) else [body]
    for st in stmts:
        if isinstance(st, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) \
                and any(n is call for n in descendants(st)):
            return True
    return False


def _may_leave(body: cst.CSTNode) -> bool:
    """Does the loop body hold a `break`, `return` or `raise` (outside nested defs)?"""
    stack = [body]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.Break, cst.Return, cst.Raise)):
            return True
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        stack.extend(children(n))
    return False


def _deletes_param(fn: cst.Lambda) -> bool:
    """``lambda h: h.delete()``: the lambda only deletes its one parameter."""
    ps = fn.params.params
    body = fn.body
    return len(ps) == 1 and isinstance(body, cst.Call) and not body.args \
        and isinstance(body.func, cst.Attribute) and body.func.attr.value == "delete" \
        and isinstance(body.func.value, cst.Name) and body.func.value.value == ps[0].name.value


def _ends(block: cst.BaseSuite) -> bool:
    """Does the block always leave its function (its last statement a `return`/`raise`)?"""
    body = block.body
    last = body[-1] if body else None
    if isinstance(last, cst.SimpleStatementLine):
        last = last.body[-1] if last.body else None
    return isinstance(last, (cst.Return, cst.Raise))
