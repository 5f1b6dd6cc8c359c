"""JAX5xx: performance and compilation traps (recompiles, unrolled loops, timing, donation)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from jaxlint.findings import Applicability, Severity
from jaxlint.model import values as V
from jaxlint.model.units import Unit
from jaxlint.model.walk import (
    dotted_name,
    int_value,
    keyword_arg,
    literal_ints,
    literal_strs,
    positional_args,
)
from jaxlint.rules.base import Invalid, Replacement, Rule, Valid, fix

_SEED_PERF = (
    "tutorial § jit: making a new function each time is slow (seed 002); FAQ § jit "
    "caching and closures (seeds 001, 004)"
)

# transforms whose result keeps a compile cache keyed on the function object
_CACHING = frozenset({"jax.jit", "jax.pjit", "jax.experimental.pjit.pjit", "jax.pmap", "equinox.filter_jit", "equinox.filter_pmap"})
_JIT_LIKE = frozenset({"jax.jit", "jax.pjit", "jax.experimental.pjit.pjit"})
# transforms that return a new function object on every call (grad(f) is not cached by jit)
_WRAPPERS = frozenset(
    {"jax.grad", "jax.value_and_grad", "jax.vmap", "jax.jacfwd", "jax.jacrev", "jax.jacobian",
     "jax.hessian", "jax.checkpoint", "jax.remat", "equinox.filter_grad",
     "equinox.filter_value_and_grad", "equinox.filter_vmap"}
)


def _fresh_reason(ctx, expr: cst.BaseExpression, loop: Optional[cst.CSTNode]) -> Optional[str]:
    """Why ``expr`` is a new function object each time this code runs, or None."""
    if isinstance(expr, cst.Lambda):
        return "a `lambda`"
    if isinstance(expr, cst.Call):
        q = ctx.qualname(expr.func)
        if q == "functools.partial":
            return "a `functools.partial(...)` object"
        if q in _WRAPPERS:
            short = q.replace("jax.", "").replace("equinox.", "eqx.")
            return f"the result of `{short}(...)`"
        return None
    if isinstance(expr, cst.Name):
        v = ctx.value(expr)
        unit = v.unit if v.kind == V.FUNCTION else None
        if unit is None or unit.parent is None or unit.parent is not ctx.unit or ctx.unit.is_module:
            return None
        if loop is not None and not _contains(loop, unit.node):
            return None  # defined before the loop: one object for every iteration
        kind = "`lambda`" if isinstance(unit.node, cst.Lambda) else f"inner function `{expr.value}`"
        return f"the {kind} defined in `{ctx.unit.name}`"
    return None


def _contains(outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
    from jaxlint.model.walk import children

    stack = [outer]
    while stack:
        n = stack.pop()
        if n is inner:
            return True
        stack.extend(children(n))
    return False


class RecompileFreshFunction(Rule):
    code = "JAX501"
    name = "jit-of-fresh-function"
    summary = "`jax.jit`/`pmap` of a `lambda`, `partial` or inner function created anew in a loop or per call: recompiles every time"
    severity = Severity.WARNING
    seed = _SEED_PERF
    what_it_does = (
        "Flags `jax.jit(f)` / `jax.pmap(f)` / `eqx.filter_jit(f)` where `f` is a new function object "
        "each time the line runs, and the wrapped function is then called there:\n\n"
        "* `f` is a `lambda`, a `functools.partial(...)`, the result of `jax.grad/vmap/value_and_grad/"
        "checkpoint(...)`, or a function defined inside the loop body;\n"
        "* and either the wrap is inside a loop and the result is called in that loop, or the wrap "
        "is called immediately (`jax.jit(lambda x: ...)(x)`) inside a function body, so every call "
        "of the function compiles again.\n\n"
        "Re-wrapping a named module-level function (`jax.jit(step)` in a loop) is not flagged: "
        "jit's cache is keyed on the function object, so it compiles once. Code that is itself "
        "traced is not flagged (an inner `jit` is inlined into the outer trace, which is cached). "
        "`jax.vmap` alone is not flagged: it has no compile cache to miss."
    )
    why_bad = (
        "`jax.jit` caches compiled code per *function object*. A lambda, a `partial`, a "
        "`jax.grad(f)` result or an inner closure is a different object every time it is "
        "created, so every iteration (or every call) traces and compiles again. Measured with "
        "`jax.monitoring` on jax 0.10.2 and 0.12: a `jax.jit(lambda x: x * 2)` built in a "
        "5-iteration loop gives 5 traces and 5 compiles; `jax.jit(partial(...))` and "
        "`jax.jit(make_closure())` in the loop give 5/5 as well; `jax.jit(jax.grad(loss))` "
        "recompiles on every iteration too; `jax.jit(named_fn)` re-wrapped each iteration "
        "compiles once. Nothing warns: the program is just slow (`jax.explain_cache_misses(True)` "
        "reports `never seen function: <lambda> ... maybe the function is being re-defined "
        "repeatedly, preventing caching?`)."
    )
    example = (
        "```python\nfor batch in batches:\n    step = jax.jit(lambda p, b: update(p, b, lr))\n"
        "    params = step(params, batch)\n```"
    )
    use_instead = (
        "Create the jitted function once, outside the loop (or at module level), and pass "
        "varying values as arguments:\n\n```python\nstep = jax.jit(update)\nfor batch in batches:\n"
        "    params = step(params, batch, lr)\n```"
    )
    fix_safety = "No automatic fix: hoisting the function changes which variables it closes over."
    VALID = [
        # a named module-level function re-wrapped in a loop is cached (A26)
        Valid("import jax\n\ndef double(x):\n    return x * 2\n\ndef run(x):\n    for i in range(5):\n        f = jax.jit(double)\n        x = f(x)\n    return x\n"),
        # hoisted out of the loop
        Valid("import jax\n\ndef run(xs):\n    f = jax.jit(lambda x: x * 2)\n    out = []\n    for x in xs:\n        out.append(f(x))\n    return out\n"),
        # a factory: the jitted function is returned, not called per call
        Valid("import jax\nfrom functools import partial\n\ndef make_step(lr):\n    return jax.jit(partial(update, lr=lr))\n\ndef update(p, g, lr):\n    return p - lr * g\n"),
        # module level, runs once
        Valid("import jax\nimport jax.numpy as jnp\n\ny = jax.jit(lambda x: x + 1)(jnp.ones(3))\n"),
        # inside traced code an inner jit is inlined into the cached outer trace
        Valid("import jax\n\n@jax.jit\ndef f(x):\n    return jax.jit(lambda y: y * 2)(x)\n"),
        # vmap alone has no compile cache to miss
        Valid("import jax\n\ndef run(xs):\n    for x in xs:\n        y = jax.vmap(lambda v: v * 2)(x)\n    return y\n"),
        # an inner function defined before the loop is one object for every iteration
        Valid("import jax\n\ndef run(xs, k):\n    def scale(x):\n        return x * k\n    for x in xs:\n        y = jax.jit(scale)(x)\n    return y\n"),
        # building a list of distinct jitted functions, not calling them in the loop
        Valid("import jax\n\ndef build(n):\n    fns = []\n    for i in range(n):\n        fns.append(jax.jit(lambda x, i=i: x * i))\n    return fns\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\nx = jnp.ones(3)\nfor i in range(5):\n    f = jax.jit(lambda x: x * 2)\n    x = f(x)\n",
            expected=[(6, 9)],
            message_contains="every iteration",
        ),
        Invalid(
            "import jax\nfrom functools import partial\n\ndef train(params, batches, lr):\n    for b in batches:\n        params = jax.jit(partial(update, lr=lr))(params, b)\n    return params\n\ndef update(p, b, lr):\n    return p - lr * b\n",
            expected=[(6, 18)],
        ),
        Invalid(
            "import jax\n\ndef run(xs, k):\n    for x in xs:\n        def scale(v):\n            return v * k\n        y = jax.jit(scale)(x)\n    return y\n",
            expected=[(7, 13)],
        ),
        Invalid(
            "import jax\n\ndef predict(params, x):\n    return jax.jit(lambda p, v: p @ v)(params, x)\n",
            expected=[(4, 12)],
            message_contains="every call of `predict`",
        ),
        Invalid(
            "import jax\n\ndef loss(w, x):\n    return (w * x).sum()\n\ndef fit(w, xs):\n    for x in xs:\n        w = w - jax.jit(jax.grad(loss))(w, x)\n    return w\n",
            expected=[(8, 17)],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._unit: Optional[Unit] = None
        # names bound to a fresh jit inside a loop: name -> (wrap call, loop node, reason)
        self._pending: dict[str, tuple[cst.Call, cst.CSTNode, str]] = {}

    def _sync(self) -> None:
        if self._unit is not self.ctx.unit:
            self._unit = self.ctx.unit
            self._pending = {}

    def _fresh_wrap(self, node: cst.CSTNode, loop: Optional[cst.CSTNode]) -> Optional[str]:
        if not isinstance(node, cst.Call):
            return None
        q = self.ctx.qualname(node.func)
        if q not in _CACHING:
            return None
        pos = positional_args(node)
        fn = pos[0].value if pos else (keyword_arg(node, "fun") or keyword_arg(node, "f"))
        if isinstance(fn, cst.Arg):
            fn = fn.value
        if fn is None:
            return None
        return _fresh_reason(self.ctx, fn, loop)

    def visit_Assign(self, node: cst.Assign) -> None:
        self._sync()
        ctx = self.ctx
        if ctx.in_traced or not ctx.loop_stack or len(node.targets) != 1:
            return
        tgt = node.targets[0].target
        if not isinstance(tgt, cst.Name):
            return
        loop = ctx.loop_stack[-1].node
        reason = self._fresh_wrap(node.value, loop)
        if reason is not None:
            self._pending[tgt.value] = (node.value, loop, reason)  # type: ignore[assignment]
        else:
            self._pending.pop(tgt.value, None)

    def visit_Call(self, node: cst.Call) -> None:
        self._sync()
        ctx = self.ctx
        if ctx.in_traced:
            return
        func = node.func
        loop = ctx.loop_stack[-1].node if ctx.loop_stack else None
        if isinstance(func, cst.Call):
            reason = self._fresh_wrap(func, loop)
            if reason is None:
                return
            if loop is not None:
                self._report(func, reason, "every iteration of the loop")
            elif not ctx.unit.is_module:
                self._report(func, reason, f"every call of `{ctx.unit.name}`")
            return
        if isinstance(func, cst.Name) and func.value in self._pending:
            wrap, wloop, reason = self._pending[func.value]
            if any(f.node is wloop for f in ctx.loop_stack):
                del self._pending[func.value]
                self._report(wrap, reason, "every iteration of the loop")

    def _report(self, wrap: cst.Call, reason: str, when: str) -> None:
        q = self.ctx.qualname(wrap.func) or "jax.jit"
        short = q.rsplit(".", 1)[1]
        self.report(
            wrap,
            f"`{short}` of {reason} compiles again on {when}: jit caches per function object and "
            f"this one is new each time. Create the jitted function once (outside the loop or at "
            f"module level) and pass the varying values as arguments",
        )


# ------------------------------------------------------------------------------------------
def _range_bounds(ctx, call: cst.CSTNode) -> Optional[list[cst.BaseExpression]]:
    if not isinstance(call, cst.Call) or ctx.builtin_name(call.func) != "range":
        return None
    if any(a.keyword is not None or a.star for a in call.args):
        return None
    return [a.value for a in call.args]


def _static_int(ctx, e: cst.BaseExpression) -> Optional[int]:
    """A literal int, or a module-level constant assigned exactly once to a literal int."""
    v = int_value(e)
    if v is not None:
        return v
    if isinstance(e, cst.Name):
        unit = ctx.unit
        if e.value in unit.assigned and not unit.is_module or unit.param(e.value) is not None:
            return None
        stmts = ctx.index.module_assignments.get(e.value, [])
        if len(stmts) == 1 and isinstance(stmts[0], (cst.Assign, cst.AnnAssign)):
            s = stmts[0]
            if isinstance(s, cst.Assign) and len(s.targets) == 1 and isinstance(s.targets[0].target, cst.Name):
                return int_value(s.value)
            if isinstance(s, cst.AnnAssign) and s.value is not None:
                return int_value(s.value)
    if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, (cst.Multiply, cst.Add, cst.Power)):
        l, r = _static_int(ctx, e.left), _static_int(ctx, e.right)
        if l is not None and r is not None:
            if isinstance(e.operator, cst.Multiply):
                return l * r
            if isinstance(e.operator, cst.Add):
                return l + r
            if r <= 64:
                return l ** r
    return None


def _trip_count(ctx, bounds: list[cst.BaseExpression]) -> Optional[int]:
    vals = [_static_int(ctx, b) for b in bounds]
    if any(v is None for v in vals) or not vals:
        return None
    if len(vals) == 1:
        return max(vals[0], 0)
    step = vals[2] if len(vals) == 3 else 1
    if step == 0:
        return None
    return max(0, -(-(vals[1] - vals[0]) // step)) if step > 0 else max(0, -(-(vals[0] - vals[1]) // -step))


class _TracedLoopMixin:
    ctx: object

    def _iters(self, node: cst.CSTNode) -> list[cst.BaseExpression]:
        if isinstance(node, cst.For):
            return [node.iter]
        out = []
        f = getattr(node, "for_in", None)
        while f is not None:
            out.append(f.iter)
            f = f.inner_for_in
        return out

    def _check(self, node: cst.CSTNode) -> None:
        if not self.ctx.in_traced:
            return
        for it in self._iters(node):
            bounds = _range_bounds(self.ctx, it)
            if bounds:
                self.check_range(it, bounds)

    def check_range(self, it: cst.Call, bounds: list[cst.BaseExpression]) -> None:  # pragma: no cover
        raise NotImplementedError

    def visit_For(self, node: cst.For) -> None:
        self._check(node)

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = visit_For


class LongUnrolledLoop(_TracedLoopMixin, Rule):
    code = "JAX502"
    name = "long-unrolled-loop"
    summary = "A Python `for` loop with many static iterations inside traced code: unrolled, compile time grows with N"
    severity = Severity.WARNING
    seed = "The Sharp Bits § Control Flow / structured control flow primitives (seed 000); study notes § loops (seed 003)"
    options_doc = (
        "* `max-unrolled-loop` (int, default 100): the smallest trip count that is reported.\n\n"
        "```toml\n[tool.jaxlint.options]\nmax-unrolled-loop = 64\n```"
    )
    what_it_does = (
        "Inside code JAX traces (`jit`, `vmap`, `lax.scan` bodies, ...), flags a Python `for` loop "
        "or comprehension over `range(N)` where `N` is known statically and is at least "
        "`max-unrolled-loop` (default 100): an integer literal, a module-level constant assigned "
        "once to a literal, or a product/sum of those."
    )
    why_bad = (
        "A Python loop under `jit` runs while tracing: every iteration is copied into the "
        "program, so the jaxpr and the compile time grow with N. Measured on jax 0.10.2 for a "
        "body `x = jnp.sin(x) * 2.0 + i`: 1000 Python iterations give 3000 equations and "
        "3.8 s for the first call, against 1 equation (`scan`) and 0.05 s with `lax.fori_loop`. "
        "There is no error, just slow compiles (and large memory while compiling)."
    )
    example = "```python\n@jax.jit\ndef f(x):\n    for i in range(1000):\n        x = jnp.sin(x) * 2.0 + i\n    return x\n```"
    use_instead = (
        "```python\n@jax.jit\ndef f(x):\n    return lax.fori_loop(0, 1000, lambda i, x: jnp.sin(x) * 2.0 + i, x)\n```\n\n"
        "(or `lax.scan` when per-step outputs are collected). Short loops are fine and often "
        "faster unrolled; `fori_loop(..., unroll=k)` balances the two."
    )
    fix_safety = "No automatic fix: the loop body must be turned into a function of the carried state."
    VALID = [
        Valid("import jax\n\n@jax.jit\ndef f(x):\n    for i in range(10):\n        x = x * 2\n    return x\n"),
        # not traced: a plain Python loop
        Valid("import jax.numpy as jnp\n\ndef f(x):\n    for i in range(1000):\n        x = jnp.sin(x)\n    return x\n"),
        # bound depends on the data shape: JAX503 (opt-in)
        Valid("import jax\n\n@jax.jit\ndef f(x):\n    for i in range(x.shape[0]):\n        x = x.at[i].set(0.)\n    return x\n"),
        # a constant reassigned somewhere: not a known value
        Valid("import jax\n\nN = 1000\nN = 10\n\n@jax.jit\ndef f(x):\n    for i in range(N):\n        x = x + i\n    return x\n"),
        # the threshold is an option
        Valid("import jax\n\n@jax.jit\ndef f(x):\n    for i in range(200):\n        x = x + i\n    return x\n", options=(("max-unrolled-loop", 500),)),
    ]
    INVALID = [
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    for i in range(1000):\n        x = jnp.sin(x) * 2.0 + i\n    return x\n",
            expected=[(6, 14)],
            message_contains="fori_loop",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\nSTEPS = 500\n\ndef body(x):\n    return jnp.stack([x * i for i in range(STEPS)])\n\ny = jax.vmap(body)(jnp.ones(3))\n",
            expected=[(7, 38)],
        ),
        Invalid(
            "import jax\n\n@jax.jit\ndef f(x):\n    for i in range(0, 64 * 4):\n        x = x + i\n    return x\n",
            expected=[(5, 14)],
        ),
    ]

    def check_range(self, it, bounds) -> None:
        n = _trip_count(self.ctx, bounds)
        try:
            limit = int(self.ctx.settings.option("max-unrolled-loop", 100))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            limit = 100
        if n is None or n < limit:
            return
        self.report(
            it,
            f"this Python loop runs {n} times while JAX traces `{self.ctx.unit.name}`, so it is "
            f"unrolled into {n} copies of its body: compile time grows with the trip count. Use "
            f"`lax.fori_loop` (or `lax.scan` to collect per-step outputs)",
        )


class DataSizedUnrolledLoop(_TracedLoopMixin, Rule):
    code = "JAX503"
    name = "data-sized-unrolled-loop"
    summary = "A Python loop over `range(x.shape[i])`/`range(len(x))` inside traced code: unrolled once per element"
    severity = Severity.WARNING
    default_enabled = False
    seed = "The Sharp Bits § Control Flow (seed 000): `range(x.shape[0])` works under jit, unrolled"
    what_it_does = (
        "Opt-in. Inside traced code, flags `for i in range(x.shape[k])` / `range(len(x))` "
        "(and comprehensions over them): loops whose trip count is a data dimension."
    )
    why_bad = (
        "Shapes are static under `jit`, so this works, but the loop is unrolled once per element "
        "of that dimension: with realistic sizes the trace and compile time grow with the data "
        "(see JAX502: 1000 iterations, 3000 equations, 3.8 s to compile). Every new input size "
        "also recompiles with a different number of copies. Off by default because loops over "
        "small dimensions (layers, a handful of heads) are common and cheap."
    )
    example = "```python\n@jax.jit\ndef f(x):\n    for i in range(x.shape[0]):\n        x = x.at[i].set(x[i] * 2)\n    return x\n```"
    use_instead = "Vectorise (`x * 2`), `jax.vmap` the body, or use `lax.fori_loop(0, x.shape[0], body, x)`."
    fix_safety = "No automatic fix."
    VALID = [
        Valid("import jax\n\n@jax.jit\ndef f(x):\n    for i in range(3):\n        x = x * 2\n    return x\n"),
        Valid("import jax.numpy as jnp\n\ndef f(x):\n    for i in range(x.shape[0]):\n        x = x.at[i].set(0.)\n    return x\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\n\n@jax.jit\ndef f(x):\n    for i in range(x.shape[0]):\n        x = x.at[i].set(x[i] * 2)\n    return x\n",
            expected=[(5, 14)],
        ),
        Invalid(
            "import jax\n\n@jax.jit\ndef f(xs):\n    return [xs[i] * 2 for i in range(len(xs))]\n",
            expected=[(5, 32)],
        ),
    ]

    def check_range(self, it, bounds) -> None:
        for b in bounds:
            if self._data_sized(b):
                self.report(
                    it,
                    f"this Python loop runs once per element of `{self.ctx.code(b).strip()}` while JAX "
                    f"traces `{self.ctx.unit.name}`: it is unrolled, and compile time grows with the "
                    f"data size. Vectorise, `jax.vmap` the body or use `lax.fori_loop`",
                )
                return

    def _data_sized(self, b: cst.BaseExpression) -> bool:
        ctx = self.ctx
        if isinstance(b, cst.Subscript) and isinstance(b.value, cst.Attribute) and b.value.attr.value == "shape":
            v = ctx.value(b.value.value)
            return v.traced or v.kind == V.ARRAY
        if isinstance(b, cst.Call) and ctx.builtin_name(b.func) == "len" and b.args:
            v = ctx.value(b.args[0].value)
            return v.traced and v.kind == V.ARRAY or (v.traced and v.kind == V.UNKNOWN and isinstance(b.args[0].value, cst.Name) and b.args[0].value.value in ctx.unit.traced_params)
        return False
