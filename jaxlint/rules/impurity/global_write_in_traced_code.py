"""JAX402 global-write-in-traced-code: A traced value stored in a `global` or `nonlocal` variable leaks a tracer; a Python update of one runs once per trace."""

from __future__ import annotations

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid, bound_names
from jaxlint.findings import Severity
from jaxlint.model.walk import descendants, walk_tree
from jaxlint.model import values as V
from jaxlint.model.unpacking import unpacked
from jaxlint.rules.impurity._common import assign_pairs, binds, escapes, owner_of


class GlobalWriteInTraced(Rule):
    code = "JAX402"
    name = "global-write-in-traced-code"
    runtime_check = '`jax.checking_leaks()`, then two jitted calls compared: a global written on the first call only (or a leaked tracer).'
    summary = "A traced value stored in a `global` or `nonlocal` variable leaks a tracer; a Python update of one runs once per trace"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Pure functions (seed 000); FAQ § UnexpectedTracerError (seed 001)"
    what_it_does = (
        "Flags assignments to names declared `global`, or `nonlocal` to a function outside "
        "the trace, inside traced code, when the assigned value is a tracer (also one target "
        "of an unpacking: `_, state = jax.random.split(key)`); and updates of "
        "such a name with a Python value (`global n; n += 1`, `nonlocal steps; steps = steps "
        "+ 1`, and `stats[\"calls\"] += 1` on a dict or list from outside the trace) inside "
        "code run by jit, pmap, vmap or a lax loop body, which happen once per "
        "trace, not once per call or iteration. Counting traces on purpose (a name that says "
        "`trace`/`compile`, or one the code asserts on), one-off settings (`global cache; "
        "cache = ...`), updates under grad (it traces every call: there only a stored tracer is "
        "reported, `global last; last = w * 2` in a function given to `jax.grad` or `jax.jvp`, "
        "which leaks the derivative's tracer the same way), and `nonlocal` writes into "
        "an enclosing function that is traced by the same transformation are left alone. The "
        "update may sit in a helper the traced function calls, in its module or another module "
        "of the project (`count()` in a jitted `step`): it runs when jit traces `step` (not a helper "
        "that reads the name it updates: a count it uses at trace time, such as unique names)."
    )
    why_bad = (
        "The global receives the tracer that existed while the function was traced, not a "
        "value. Nothing fails at that point; the first later use of the global raises:\n\n"
        "```\njax.errors.UnexpectedTracerError: Encountered an unexpected tracer. A function "
        "transformed by JAX had a side effect, allowing for a reference to an intermediate "
        "value with type float32[] wrapped in a DynamicJaxprTracer to escape the scope of the "
        "transformation.\n```\n\n"
        "and calls that hit the compilation cache do not assign at all."
    )
    use_instead = "Return the value and store it outside the traced function:\n\n```python\n@jax.jit\ndef step(x):\n    y = x * 2\n    return y, y\n\nout, last = step(x)\n```"
    fix_safety = "No automatic fix: the function's outputs have to change."
    VALID = [
        # the counting helper called by the driver, outside the trace
        Valid(
            """
            import jax

            n_calls = 0


            def count():
                global n_calls
                n_calls += 1


            @jax.jit
            def step(x):
                return x * 2


            def run(x):
                count()
                return step(x)
            """
        ),
        # a helper that reads what it counts: unique names made at trace time, on purpose
        Valid(
            """
            import jax

            count_per_tag = {}


            def summary(name, val):
                if name in count_per_tag:
                    count_per_tag[name] += 1
                    name += "___%d" % count_per_tag[name]
                else:
                    count_per_tag[name] = 0
                return val


            @jax.jit
            def loss(x):
                return summary("loss", x * 2)
            """
        ),
        # counting traces with a Python int is a deliberate trace-time effect
        Valid(
            """
            import jax

            n_traces = 0

            @jax.jit
            def f(x):
                global n_traces
                n_traces += 1
                return x * 2
            """
        ),
        # nonlocal write inside the same trace
        Valid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                total = jnp.zeros_like(x)
                def add(v):
                    nonlocal total
                    total = total + v
                add(x)
                add(2 * x)
                return total
            """
        ),
        # global write outside traced code
        Valid(
            """
            import jax.numpy as jnp

            state = None

            def update(x):
                global state
                state = jnp.sin(x)
            """
        ),
        # counting traces on purpose (a name that says so, a test asserting on it); a counter under grad, which traces every call; a plain loop
        Valid(
            """
            import jax
            import jax.numpy as jnp

            num_traces = 0


            @jax.jit
            def f(x):
                global num_traces
                num_traces += 1
                return x * 2


            def test_cached():
                count = 0

                @jax.jit
                def g(x):
                    nonlocal count
                    count += 1
                    return x + 1

                g(1.0)
                g(2.0)
                assert count == 1


            calls = 0


            def h(x):
                global calls
                calls += 1
                return x


            dh = jax.grad(lambda x: h(x) ** 2)


            def counted(xs):
                steps = 0
                for x in xs:
                    steps += 1
                return steps
            """
        ),
        # a trace counter kept in a dict; a local dict; an update outside the trace
        Valid(
            """
            import jax
            import jax.numpy as jnp

            stats = {"traces": 0}
            history = {"loss": 0.0}


            @jax.jit
            def step(x):
                stats["traces"] += 1
                local = {"n": 0}
                local["n"] += 1
                return x * 2


            def train(xs):
                for x in xs:
                    history["loss"] += float(step(x))
                return history
            """
        ),
    ]

    INVALID = [
        # a helper that counts, called from a jitted function: it runs when jit traces
        # the caller (of this module or of another one), not on every call
        Invalid(
            """
            import jax

            n_calls = 0


            def count():
                global n_calls
                n_calls += 1


            @jax.jit
            def step(x):
                count()
                return x * 2
            """,
            expected=[(8, 5)],
            messages=[
                "`n_calls` is global: `n_calls += 1` inside `count` (called from `step`) runs when jax.jit traces `step`, not on every call: calls served from the cache skip it. Return the new value (or carry it through the loop) instead",
            ],
        ),
        Invalid(
            """
            import jax

            last = None

            @jax.jit
            def step(x):
                global last
                last = x * 2
                return last
            """,
            expected=[(8, 5)],
            messages=[
                "`last` is global: assigning it a traced value inside `step` leaks the tracer out of the trace; using it afterwards raises UnexpectedTracerError, and cached calls never assign it. Return the value instead",
            ],
        ),
        Invalid(
            """
            import jax
            from jax import lax

            def run(xs):
                seen = None
                def body(c, x):
                    nonlocal seen
                    seen = x
                    return c + x, None
                return lax.scan(body, 0.0, xs), seen
            """,
            expected=[(8, 9)],
            messages=[
                "`seen` is nonlocal: assigning it a traced value inside `body` leaks the tracer out of the trace; using it afterwards raises UnexpectedTracerError, and cached calls never assign it. Return the value instead",
            ],
        ),
        # a Python counter updated inside a jitted function
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            n_calls = 0


            @jax.jit
            def step(x):
                global n_calls
                n_calls += 1
                return x * 2
            """,
            expected=[(10, 5)],
            messages=[
                "`n_calls` is global: `n_calls += 1` inside `step` runs when jax.jit traces `step`, not on every call: calls served from the cache skip it. Return the new value (or carry it through the loop) instead",
            ],
        ),
        # a nonlocal counter updated in a lax.scan body
        Invalid(
            """
            import jax
            from jax import lax


            def cumsum(xs):
                steps = 0

                def body(c, x):
                    nonlocal steps
                    steps = steps + 1
                    return c + x, c

                total, _ = lax.scan(body, 0.0, xs)
                return total, steps
            """,
            expected=[(10, 9)],
            messages=[
                "`steps` is nonlocal: `steps = steps + 1` inside `body` runs once, when the lax.scan body is traced, not once per iteration. Return the new value (or carry it through the loop) instead",
            ],
        ),
        # equinox: a counter under eqx.filter_jit
        Invalid(
            """
            import equinox as eqx

            n_steps = 0


            @eqx.filter_jit
            def step(model, x):
                global n_steps
                n_steps += 1
                return model(x)
            """,
            expected=[(9, 5)],
            messages=[
                "`n_steps` is global: `n_steps += 1` inside `step` runs when eqx.filter_jit traces `step`, not on every call: calls served from the cache skip it. Return the new value (or carry it through the loop) instead",
            ],
        ),
        # an item of a module-level dict, or of an enclosing function's list, updated inside traced code
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            stats = {"calls": 0}


            @jax.jit
            def step(x):
                stats["calls"] += 1
                return x * 2


            def run(xs):
                counts = [0]

                def body(c, x):
                    counts[0] += 1
                    return c + x, None

                return jax.lax.scan(body, 0.0, xs), counts
            """,
            expected=[(9, 5), (17, 9)],
            messages=[
                "`stats` is global: `stats[\"calls\"] += 1` inside `step` runs when jax.jit traces `step`, not on every call: calls served from the cache skip it. Return the new value (or carry it through the loop) instead",
                "`counts` is a local of `run`: `counts[0] += 1` inside `body` runs once, when the lax.scan body is traced, not once per iteration. Return the new value (or carry it through the loop) instead",
            ],
        ),
    ]

    def _check(self, node: cst.CSTNode) -> None:
        ctx = self.ctx
        unit = ctx.unit
        if not ctx.in_traced:
            if ctx.in_tracing and (unit.global_names or unit.nonlocal_names):
                # differentiated outside jit (`jax.grad(f)(x)`, `jax.jvp(f, ...)`): f runs on
                # every call, so a Python update is no trace-time surprise, but a tracer
                # stored outside still leaks (UnexpectedTracerError where it is used)
                for target, value in assign_pairs(node):
                    if not unpacked(ctx, target, value) and ctx.is_tracer(value):
                        self._report_leak(target, differentiated=True)
            return
        if isinstance(node, cst.AugAssign) and isinstance(node.target, (cst.Subscript, cst.Attribute)):
            self._item_update(node)
            return
        if not (unit.global_names or unit.nonlocal_names):
            return
        for target, value in assign_pairs(node):
            parts = unpacked(ctx, target, value)
            if parts:
                # `_, state = jax.random.split(key)`, `state, n = x * 2, 3`: each target
                # receives its element (model/unpacking.py)
                for t, sub, traced in parts:
                    if traced:
                        self._report_leak(t)
                    else:
                        # a Python value: an update when the statement reads the name
                        # (`n, m = m, n + 1`), else a one-off setting
                        self._python_update(node, t, value)
                continue
            if not ctx.is_traced(value) and not (isinstance(node, cst.AugAssign) and ctx.is_traced(target)):
                self._python_update(node, target, value)
                continue
            self._report_leak(target)

    def _report_leak(self, target: cst.CSTNode, differentiated: bool = False) -> None:
        """Each global (or escaping nonlocal) name ``target`` binds receives a tracer
        (``differentiated``: of a derivative, outside jit: nothing is cached there)."""
        ctx = self.ctx
        unit = ctx.unit
        for name in bound_names(target):
            n = name.value
            if n in unit.global_names:
                kind = "global"
            elif n in unit.nonlocal_names and escapes(unit, owner_of(unit, n)):
                kind = "nonlocal"
            else:
                continue
            self.report(
                name,
                f"`{n}` is {kind}: assigning it a traced value inside `{unit.name}` leaks the "
                + ("tracer of the derivative out of the differentiation; using it afterwards raises "
                   "UnexpectedTracerError. Return the value instead" if differentiated else
                   "tracer out of the trace; using it afterwards raises UnexpectedTracerError, and "
                   "cached calls never assign it. Return the value instead"),
            )

    def _item_update(self, node: cst.AugAssign) -> None:
        """``stats["calls"] += 1`` on a dict or list of the module or of an enclosing
        function outside the trace, with a Python value: once per trace, like ``n += 1``."""
        ctx = self.ctx
        unit = ctx.unit
        base = node.target.value
        # (the item itself may be a tracer the list was given outside this function:
        # `seq = [jnp.zeros(())]` in the enclosing jitted function; `seq[0] += 1` is
        # still a Python update that runs once per trace)
        if not isinstance(base, cst.Name) or ctx.is_traced(node.value):
            return
        n = base.value
        if binds(unit, n) and n not in unit.nonlocal_names:
            return
        v = ctx.lookup(n)
        if v is None or v.kind != V.LIST or ctx.is_traced(base):
            return
        owner = owner_of(unit, n)
        if not escapes(unit, owner):
            return
        self._report_update(node, node.target, n, "global" if owner is None else f"a local of `{owner.name}`", owner)

    def _python_update(self, node: cst.CSTNode, target: cst.CSTNode, value: cst.BaseExpression) -> None:
        """``global n; n += 1`` (or ``nonlocal``) inside traced code: a Python update that
        runs when the function is traced, not on every call (nor every iteration of a
        traced loop body).  Counting traces on purpose (a name that says so, or one the
        code asserts on) is left alone."""
        ctx = self.ctx
        unit = ctx.unit
        if not isinstance(target, cst.Name):
            return
        n = target.value
        if isinstance(node, cst.Assign):
            # `n = n + 1`: an update of the name (a plain `n = value` is a one-off setting)
            if not any(isinstance(m, cst.Name) and m.value == n for m in descendants(value)) and not (
                    isinstance(value, cst.Name) and value.value == n):
                return
        elif not isinstance(node, cst.AugAssign):
            return
        if n in unit.global_names:
            kind, owner = "global", None
        elif n in unit.nonlocal_names:
            owner = owner_of(unit, n)
            if not escapes(unit, owner):
                return
            kind = "nonlocal"
        else:
            return
        self._report_update(node, target, n, kind, owner)

    def _report_update(self, node: cst.CSTNode, target: cst.CSTNode, n: str, kind: str, owner) -> None:
        ctx = self.ctx
        unit = ctx.unit
        traced = _transform(unit, ctx.index)
        if traced is None or any(w in ctx.code(target).lower() for w in ("trace", "compil")):
            return
        why, root = traced
        nested = unit.parent is not None and isinstance(unit.parent.node, cst.FunctionDef)
        if root != unit.name and not nested and _read_elsewhere(unit.node, node, n):
            # a helper that reads what it counts (`name += "___%d" % counts[name]`): the
            # count serves its own work at trace time (unique names), not a count of calls;
            # a closure of the traced function is part of its trace (recall case 554)
            return
        scope = ctx.module if owner is None else owner.node
        if _asserted(scope, n):
            return  # a test counting traces
        if why.startswith("lax."):
            when = f"once, when the {why} body is traced, not once per iteration"
        else:
            when = f"when {why} traces `{root}`, not on every call: calls served from the cache skip it"
        inside = f"`{unit.name}`" if root == unit.name else f"`{unit.name}` (called from `{root}`)"
        self.report(
            target,
            f"`{n}` is {kind}: `{ctx.code(node).strip()}` inside {inside} runs {when}. Return "
            "the new value (or carry it through the loop) instead",
        )

    def visit_Assign(self, node: cst.Assign) -> None:
        self._check(node)

    visit_AugAssign = visit_AnnAssign = visit_Assign


def _transform(unit, index=None, seen: "set[int] | None" = None) -> "tuple[str, str] | None":
    """The caching transformation (or traced loop) that runs ``unit``: ("jax.jit",
    the function it traces), ("lax.scan", ...); None when there is none it can name
    (grad traces every call).  With the file's ``index``, also through the calls that
    trace a helper: ``bump()`` called from a jitted ``step`` of this file, or of
    another module ("called from `step` (train.py:8), which is decorated with
    @jax.jit"): it runs when jit traces ``step``."""
    u = unit
    while u is not None and not u.is_module:
        for r in u.reasons:
            t = _named(r)
            if t is not None:
                return t[0], unit.name
        if index is not None:
            seen = seen if seen is not None else set()
            seen.add(id(u))
            for r in u.reasons:
                if r.startswith("called from traced `"):
                    # callers of this file: the function of that name that calls it
                    name = r[len("called from traced `"):-1]
                    for c in index.units:
                        if c.name == name and id(c) not in seen and id(u) in index.call_edges.get(id(c), ()):
                            t = _transform(c, index, seen)
                            if t is not None:
                                return t
                elif r.startswith("called from `") and ", which is " in r:
                    # a caller of another module, traced for the reason it gives
                    who = r[len("called from `"):r.index("`", len("called from `"))]
                    t = _named(r.split(", which is ", 1)[1])
                    if t is not None:
                        return t[0], who
        u = u.parent
    return None


def _read_elsewhere(scope: cst.CSTNode, update: cst.CSTNode, name: str) -> bool:
    """Does ``scope`` read ``name`` outside the statement ``update`` (and its ``global``
    declaration)?"""
    inside = {id(m) for m in walk_tree(update)}
    return any(isinstance(m, cst.Name) and m.value == name and id(m) not in inside
               for m in walk_tree(scope, lambda c: isinstance(c, cst.Global)))


def _named(r: str) -> "tuple[str, str] | None":
    """The caching transformation or traced loop a reason names (("jax.jit", ""))."""
    for prefix in ("decorated with @", "wrapped by ", "a body passed to "):
        if r.startswith(prefix):
            t = r[len(prefix):]
            if t.rsplit(".", 1)[-1] in ("grad", "value_and_grad", "jacfwd", "jacrev", "hessian",
                                         "jvp", "vjp", "linearize", "checkpoint", "remat"):
                return None
            return t, ""
    return None


def _asserted(scope: cst.CSTNode, name: str) -> bool:
    """Does ``scope`` check ``name`` in an ``assert`` or an ``assert*``/``expect*`` call?"""
    for n in walk_tree(scope):
        check = isinstance(n, cst.Assert) or (
            isinstance(n, cst.Call) and isinstance(n.func, (cst.Attribute, cst.Name))
            and (n.func.attr.value if isinstance(n.func, cst.Attribute) else n.func.value).lower().startswith(("assert", "expect"))
        )
        if check and any(isinstance(m, cst.Name) and m.value == name for m in descendants(n)):
            return True
    return False
