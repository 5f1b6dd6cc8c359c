"""JAX404 outer-container-mutation-in-traced-code: Appending/storing a traced value into a list or dict from outside the trace leaks the tracer."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import values as V
from jaxlint.model.program_order import flat_statements
from jaxlint.model.walk import block_statements, children as _kids, walk_tree
from jaxlint.rules.impurity._common import binds, escapes, owner_of


def _scratch_in(ctx, owner: cst.FunctionDef, n: str) -> bool:
    """``n``, a local container of ``owner``: is every nested function that mentions it
    a body that first overwrites it (``n[k] = v``, the same keys ``k`` in each) and
    then reads it, and does ``owner`` not mention it after the first such body?"""
    keys: Optional[set[str]] = None
    seen_body = False
    for stmt in flat_statements(block_statements(owner.body)):
        if isinstance(stmt, cst.FunctionDef):
            if not _mentions(stmt, n):
                continue
            written = _overwritten_then_read(ctx, stmt, n)
            if written is None or keys is not None and written != keys:
                return False
            keys, seen_body = written, True
        elif seen_body and _mentions(stmt, n):
            return False
    return seen_body


def _overwritten_then_read(ctx, fn: cst.FunctionDef, n: str) -> Optional[set[str]]:
    """The keys ``fn`` writes into ``n`` (``n[k] = v``), when every read of ``n`` in it
    comes after the writes it needs (``n[k]`` after ``n[k] = ...``; ``n`` whole after
    all its writes) and there is at least one read; None otherwise (an append, a
    read of a slot not written yet, a loop that both writes and reads, a nested
    function)."""
    stmts = flat_statements(block_statements(fn.body))
    writes_at: list[set[str]] = []
    for stmt in stmts:
        w: set[str] = set()
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign):
                    for t in small.targets:
                        tgt = t.target
                        if isinstance(tgt, cst.Subscript) and isinstance(tgt.value, cst.Name) and tgt.value.value == n:
                            w.add(ctx.code(tgt.slice[0]).strip() if len(tgt.slice) == 1 else ctx.code(tgt).strip())
        elif _mentions(stmt, n):
            return None  # a compound statement (a loop, a nested def) that uses it
        writes_at.append(w)
    every = set().union(*writes_at) if writes_at else set()
    if not every:
        return None
    done: set[str] = set()
    read = False
    for stmt, w in zip(stmts, writes_at):
        targets = set()
        for small in getattr(stmt, "body", ()):
            if isinstance(small, cst.Assign):
                targets.update(id(t.target.value) for t in small.targets if isinstance(t.target, cst.Subscript))
        parents: dict[int, cst.CSTNode] = {}
        for node in walk_tree(stmt):
            for c in _kids(node):
                parents[id(c)] = node
        for node in walk_tree(stmt):
            if not (isinstance(node, cst.Name) and node.value == n) or id(node) in targets:
                continue
            if isinstance(parents.get(id(node)), cst.Attribute) and parents[id(node)].attr is node:
                continue
            up = parents.get(id(node))
            if isinstance(up, cst.Subscript) and up.value is node and len(up.slice) == 1 \
                    and ctx.code(up.slice[0]).strip() in done:
                read = True
                continue
            if done != every:
                return None
            read = True
        done |= w
    return every if read else None


def _mentions(node: cst.CSTNode, n: str) -> bool:
    return any(isinstance(c, cst.Name) and c.value == n for c in walk_tree(node))


_MUTATORS = frozenset({"append", "extend", "insert", "update", "setdefault", "add", "appendleft", "extendleft"})


def _holds_traced(ctx, e: cst.CSTNode) -> bool:
    if isinstance(e, (cst.Tuple, cst.List)):
        return any(ctx.is_traced(el.value) or _captures_traced(ctx, el.value) for el in e.elements)
    if isinstance(e, cst.Dict):
        return any(isinstance(el, cst.DictElement) and (ctx.is_traced(el.value) or _captures_traced(ctx, el.value))
                   for el in e.elements)
    return _captures_traced(ctx, e)


def _captures_traced(ctx, e: cst.CSTNode) -> bool:
    """A lambda that closes over a traced name of this scope (``lambda: x``): calling it
    later hands out the tracer."""
    if not isinstance(e, cst.Lambda):
        return False
    params = {p.name.value for p in (*e.params.params, *e.params.posonly_params, *e.params.kwonly_params)}
    return _reads_traced(ctx, e.body, params)


def _reads_traced(ctx, root: cst.CSTNode, params: set[str]) -> bool:
    """Does ``root`` read a traced name of this scope other than ``params`` (of
    ``a.b.c`` only the base ``a`` is a read)?"""
    def attribute(n: cst.CSTNode) -> bool:
        return isinstance(n, cst.Attribute)

    for n in walk_tree(root, attribute):
        if isinstance(n, cst.Name) and n.value not in params:
            v = ctx.lookup(n.value)
            if v is not None and v.traced:
                return True
        if isinstance(n, cst.Attribute) and _reads_traced(ctx, n.value, params):
            return True
    return False


class OuterContainerMutation(Rule):
    code = "JAX404"
    name = "outer-container-mutation-in-traced-code"
    runtime_check = '`jax.checking_leaks()`, then two jitted calls compared: a container outside the function mutated on the first call only.'
    summary = "Appending/storing a traced value into a list or dict from outside the trace leaks the tracer"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Pure functions (seed 000); FAQ § UnexpectedTracerError (seed 001)"
    what_it_does = (
        "Flags `outer.append(v)`, `.extend`, `.insert`, `.update`, `.setdefault`, `.add` and "
        "`outer[k] = v` (and `outer[k] += v`) inside traced code when `outer` is a list, dict or set created outside "
        "the trace (a module global, a variable of an enclosing function that is not traced "
        "by the same transformation, or its parameter when every call gives it a list display: "
        "`make_counter([0.0])`, in this module or another; "
        "a `lax.scan`/`cond` body writing into its enclosing "
        "function's list counts), or an attribute of a module-level object (`registry.hooks[k] "
        "= v`), and the stored value is a tracer or holds one (a list or dict of tracers, a "
        "lambda that closes over one). Building a local list and "
        "`jnp.stack`-ing it, or appending Python values (trace counters), is not flagged; "
        "nor is scratch space: a container of the enclosing function that each loop body "
        "writing it overwrites (`loc[k] = i`, the same keys in every body) before reading "
        "it, within one trace, and that the enclosing function never uses after defining "
        "the bodies (the tracers left in it are never read)."
    )
    why_bad = (
        "The list receives the tracer that existed during tracing. Nothing fails then; using the "
        "element later raises:\n\n```\njax.errors.UnexpectedTracerError: Encountered an "
        "unexpected tracer. ... JAX transformations require that functions explicitly return "
        "their outputs, and disallow saving intermediate values to global state.\n```\n\n"
        "Calls that hit the compilation cache do not append at all (`len(out)` stays 1)."
    )
    use_instead = "Return the values (or stack them with `lax.scan`) and collect them outside:\n\n```python\n@jax.jit\ndef step(x):\n    return jnp.tanh(x)\n\nhistory.append(step(x))\n```"
    fix_safety = "No automatic fix: the function's outputs have to change."
    VALID = [
        # a local list stacked inside the trace
        Valid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                parts = []
                for i in range(3):
                    parts.append(x * i)
                return jnp.stack(parts)
            """
        ),
        # Python values only (trace log)
        Valid(
            """
            import jax

            traces = []

            @jax.jit
            def f(x):
                traces.append(x.shape)
                return x
            """
        ),
        # outside traced code
        Valid(
            """
            import jax.numpy as jnp

            history = []

            def step(x):
                history.append(jnp.tanh(x))
            """
        ),
        # helper inside the same jit writes to the jitted function's list
        Valid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                out = []
                def emit(v):
                    out.append(v)
                emit(x)
                emit(x + 1)
                return jnp.stack(out)
            """
        ),
        # lambdas that close over no tracer, static values, and code outside the trace
        Valid(
            """
            import jax
            import jax.numpy as jnp


            class Registry:
                def __init__(self):
                    self.hooks = {}


            registry = Registry()
            callbacks = []


            @jax.jit
            def step(x):
                registry.hooks["scale"] = lambda v: v * 2
                callbacks.append(lambda v: v + 1)
                registry.hooks["shape"] = x.shape
                return x


            def outside(x):
                registry.hooks["last"] = [lambda: x]
                return x
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            history = []

            @jax.jit
            def step(x):
                y = jnp.tanh(x)
                history.append(y)
                return y
            """,
            expected=[(9, 5)],
            messages=[
                "`history` lives outside the trace of `step`: storing a traced value in it leaks the tracer (using it later raises UnexpectedTracerError, or ConcretizationTypeError from `float()`/`bool()`), and cached calls do not store anything. Return the value instead",
            ],
        ),
        Invalid(
            """
            import jax
            from jax import lax

            @jax.jit
            def run(xs):
                ys = []
                cache = {}
                def body(c, x):
                    ys.append(x)
                    cache['last'] = c
                    return c + x, None
                return lax.scan(body, 0.0, xs)
            """,
            expected=[(9, 9), (10, 9)],
            messages=[
                "`ys` lives outside the trace of `body`: storing a traced value in it leaks the tracer (using it later raises UnexpectedTracerError, or ConcretizationTypeError from `float()`/`bool()`), and cached calls do not store anything. Return the value instead",
                "`cache` lives outside the trace of `body`: storing a traced value in it leaks the tracer (using it later raises UnexpectedTracerError, or ConcretizationTypeError from `float()`/`bool()`), and cached calls do not store anything. Return the value instead",
            ],
        ),
        # an attribute of a module-level object, and a lambda that closes over a tracer
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            class Registry:
                def __init__(self):
                    self.hooks = {}


            registry = Registry()
            callbacks = []


            def sketch(x):
                registry.hooks["hi"] = [lambda: x]
                callbacks.append(lambda: x * 2)
                return x


            @jax.jit
            def step(x):
                registry.hooks["last"] = x + 1
                return x


            ys = jax.vmap(sketch)(jnp.arange(3))
            """,
            expected=[(15, 5), (16, 5), (22, 5)],
            messages=[
                "`registry.hooks` lives outside the trace of `sketch`: storing a traced value in it leaks the tracer (using it later raises UnexpectedTracerError, or ConcretizationTypeError from `float()`/`bool()`), and cached calls do not store anything. Return the value instead",
                "`callbacks` lives outside the trace of `sketch`: storing a traced value in it leaks the tracer (using it later raises UnexpectedTracerError, or ConcretizationTypeError from `float()`/`bool()`), and cached calls do not store anything. Return the value instead",
                "`registry.hooks` lives outside the trace of `step`: storing a traced value in it leaks the tracer (using it later raises UnexpectedTracerError, or ConcretizationTypeError from `float()`/`bool()`), and cached calls do not store anything. Return the value instead",
            ],
        ),
        # a list the enclosing function was given (`foo([0.])`) and a jitted closure adding a
        # tracer into it: the item is the trace's tracer, and cached calls add nothing
        Invalid(
            """
            import jax


            def foo(tot):
                @jax.jit
                def increment(x):
                    tot[0] += x
                    return tot[0]
                return increment


            incrementer = foo([0.0])
            """,
            expected=[(7, 9)],
            messages=[
                "`tot` lives outside the trace of `increment`: storing a traced value in it leaks the tracer (using it later raises UnexpectedTracerError, or ConcretizationTypeError from `float()`/`bool()`), and cached calls do not store anything. Return the value instead",
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._scratches: dict[tuple[int, str], bool] = {}

    def _outer_list(self, base: cst.CSTNode) -> Optional[str]:
        ctx = self.ctx
        unit = ctx.unit
        if not isinstance(base, cst.Name):
            return None
        n = base.value
        if binds(unit, n) and n not in unit.nonlocal_names:
            return None
        if ctx.value(base).kind != V.LIST:
            return None
        if not escapes(unit, owner_of(unit, n)):
            return None
        return n

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if not ctx.in_traced or not isinstance(node.func, cst.Attribute):
            return
        if node.func.attr.value not in _MUTATORS:
            return
        n = self._outer_list(node.func.value)
        if n is None or not any(ctx.is_traced(a.value) or _holds_traced(ctx, a.value) for a in node.args):
            return
        self._report(node, n)

    def _scratch(self, n: str) -> bool:
        """Is the outer container ``n`` scratch space of the bodies that write it: a local
        of the enclosing function that each body writing it overwrites (``buf[k] = ...``,
        the same keys in every body) before it reads it, within one trace, and that the
        enclosing function never reads after it defines them?  The tracers left in it
        are never used, and a cached call needs nothing stored there."""
        unit = self.ctx.unit
        owner = owner_of(unit, n)
        if owner is None or unit.parent is not owner or not isinstance(owner.node, cst.FunctionDef):
            return False
        key = (id(owner), n)
        if key not in self._scratches:
            self._scratches[key] = _scratch_in(self.ctx, owner.node, n)
        return self._scratches[key]

    def _report(self, node: cst.CSTNode, n: str) -> None:
        self.report(
            node,
            f"`{n}` lives outside the trace of `{self.ctx.unit.name}`: storing a traced value in it "
            "leaks the tracer (using it later raises UnexpectedTracerError, or ConcretizationTypeError "
            "from `float()`/`bool()`), and cached calls do not store anything. Return the value instead",
        )

    def _outer_object_attr(self, base: cst.CSTNode) -> Optional[str]:
        """``a.dct`` where ``a`` is a module-level object (not ``self``, not a module,
        not bound in the traced function): a container that outlives the trace."""
        ctx = self.ctx
        if not isinstance(base, cst.Attribute) or not isinstance(base.value, cst.Name):
            return None
        root = base.value.value
        unit = ctx.unit
        u = unit
        while u is not None and not u.is_module:
            if binds(u, root) or root in u.nonlocal_names:
                return None
            u = u.parent
        mv = ctx.module_value(root)
        if mv is None or mv.kind in (V.MODULE, V.FUNCTION) or root not in ctx.index.module_assignments:
            return None
        return ctx.code(base).strip()

    def visit_Assign(self, node: cst.Assign) -> None:
        ctx = self.ctx
        if not ctx.in_traced:
            return
        traced = ctx.is_traced(node.value)
        if not traced and not _holds_traced(ctx, node.value):
            return
        for t in node.targets:
            tgt = t.target
            if isinstance(tgt, cst.Subscript):
                n = self._outer_list(tgt.value) if traced else None
                if n is not None and self._scratch(n):
                    continue
                if n is None:
                    n = self._outer_object_attr(tgt.value)
                if n is not None:
                    self._report(tgt, n)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        """``tot[0] += x`` with ``x`` traced: the item becomes a tracer, kept in the outer
        container (a static increment is a Python update, JAX402's)."""
        ctx = self.ctx
        tgt = node.target
        if not ctx.in_traced or not isinstance(tgt, cst.Subscript) or not ctx.is_traced(node.value):
            return
        n = self._outer_list(tgt.value) or self._outer_object_attr(tgt.value)
        if n is not None:
            self._report(tgt, n)
