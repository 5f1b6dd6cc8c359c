"""JAX5xx: performance and compilation traps (recompiles, unrolled loops, timing, donation)."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.findings import Applicability, Severity
from jaxlint.model import values as V
from jaxlint.model.units import Unit
from jaxlint.model.walk import (
    descendants,
    int_value,
    keyword_arg,
    positional_args,
)
from jaxlint.engine.rule import Invalid, Replacement, Rule, Valid, fix

_SEED_PERF = (
    "tutorial § jit: making a new function each time is slow (seed 002); FAQ § jit "
    "caching and closures (seeds 001, 004)"
)

# transforms whose result keeps a compile cache keyed on the function object
_CACHING = frozenset({"jax.jit", "jax.pjit", "jax.experimental.pjit.pjit", "jax.pmap", "equinox.filter_jit", "equinox.filter_pmap"})
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


def _runs_once(unit: Unit) -> bool:
    """Test functions (``test_*``, methods of ``*Test`` classes) and ``main`` are
    called once per run: per-call recompiles there cost nothing extra."""
    u: Optional[Unit] = unit
    while u is not None and not u.is_module:
        if u.name.startswith("test") or u.name in ("main", "setUp", "setUpClass"):
            return True
        if u.cls is not None and (u.cls.name.endswith("Test") or u.cls.name.startswith("Test")):
            return True
        u = u.parent
    return False


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
        "of the function compiles again (test functions, `main` and `setUp`, which run once, are skipped).\n\n"
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
        # a hyper-parameter sweep: each compiled step is reused by the inner loop
        Valid("import functools\nimport jax\n\ndef step(p, lr):\n    return p - lr\n\ndef sweep(p):\n    for lr in [1e-3, 1e-2]:\n        f = jax.jit(functools.partial(step, lr=lr))\n        for _ in range(100):\n            p = f(p)\n    return p\n"),
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
        # a test function runs once: a per-call jit there costs nothing extra
        Valid("import jax\n\ndef test_double():\n    assert jax.jit(lambda x: x * 2)(2) == 4\n"),
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
            elif not ctx.unit.is_module and not _runs_once(ctx.unit):
                self._report(func, reason, f"every call of `{ctx.unit.name}`")
            return
        if isinstance(func, cst.Name) and func.value in self._pending:
            wrap, wloop, reason = self._pending[func.value]
            if any(f.node is wloop for f in ctx.loop_stack):
                del self._pending[func.value]
                if ctx.loop_stack[-1].node is not wloop:
                    # called in an inner loop: each compile is reused many times
                    # (a hyper-parameter sweep), which is the point of jit
                    return
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

    def _does_jax_work(self, node: cst.CSTNode) -> bool:
        """Does the loop body call JAX or touch a traced value?  A loop of pure
        Python arithmetic adds nothing to the jaxpr, however long."""
        ctx = self.ctx
        body = node.body if isinstance(node, cst.For) else node
        for n in descendants(body):
            if isinstance(n, cst.Call):
                q = ctx.qualname(n.func)
                if q is not None and q.split(".", 1)[0] in ("jax", "flax", "equinox", "optax", "haiku"):
                    return True
            elif isinstance(n, cst.Name):
                v = ctx.lookup(n.value)  # no memo: the body has not been walked yet
                if v is not None and v.traced:
                    return True
        return False

    def _check(self, node: cst.CSTNode) -> None:
        if not self.ctx.in_traced or not self._does_jax_work(node):
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
        # a long loop of plain Python arithmetic adds nothing to the jaxpr
        Valid("import math\nimport jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef taylor(x):\n    coeffs = []\n    for k in range(200):\n        coeffs.append(1.0 / math.factorial(min(k, 20)))\n    return jnp.polyval(jnp.asarray(coeffs[:8]), x)\n"),
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


# ------------------------------------------------------------------------------------------
def _loop_counters(ctx) -> dict[str, cst.CSTNode]:
    """Names bound to a counter by an enclosing ``for i in range(...)`` /
    ``for i, x in enumerate(...)`` of the current unit."""
    out: dict[str, cst.CSTNode] = {}
    for frame in ctx.loop_stack:
        node = frame.node
        if not isinstance(node, cst.For):
            continue
        it, tgt = node.iter, node.target
        if not isinstance(it, cst.Call):
            continue
        b = ctx.builtin_name(it.func)
        if b == "range" and isinstance(tgt, cst.Name):
            out[tgt.value] = node
        elif b == "enumerate" and isinstance(tgt, cst.Tuple) and tgt.elements and isinstance(tgt.elements[0].value, cst.Name):
            out[tgt.elements[0].value.value] = node
    return out


class VaryingStaticArgument(Rule):
    code = "JAX504"
    name = "varying-static-argument"
    summary = "A loop counter passed as a `static_argnums`/`static_argnames` argument: one compile per value"
    severity = Severity.WARNING
    seed = "The Sharp Bits § static arguments and caching (seed 000); tutorial § static_argnums (seed 002)"
    what_it_does = (
        "Flags a call, inside `for i in range(...)` (or `for i, x in enumerate(...)`), of a "
        "function jitted with `static_argnums`/`static_argnames` where the static argument is "
        "the loop counter `i` (or `i` combined with constants, `i + 1`). The jitted function is "
        "resolved through `@jax.jit(...)`/`@partial(jax.jit, ...)` decorators, `f = jax.jit(g, "
        "static_argnums=...)` bindings and `jax.jit(g, ...)(...)` calls."
    )
    why_bad = (
        "Static arguments are part of the compile-cache key: every distinct value traces and "
        "compiles the function again. Measured on jax 0.10.2/0.12: `jit(f, static_argnums=1)` "
        "called with n = 0..5 gives 6 traces and 6 compiles (`_cache_size() == 6`); even "
        "`n=1.0` after `n=1` compiles again. A loop counter is a new value every iteration, so "
        "the loop compiles once per step, silently."
    )
    example = (
        "```python\n@partial(jax.jit, static_argnums=1)\ndef step(x, i):\n    return x * i\n\n"
        "for i in range(100):\n    x = step(x, i)\n```"
    )
    use_instead = (
        "Pass the counter as a traced argument (drop it from `static_argnums`) and use "
        "`jnp`/`lax` operations on it:\n\n```python\n@jax.jit\ndef step(x, i):\n    return x * i\n```"
    )
    fix_safety = "No automatic fix: the function body may need the value to be static (shapes, Python control flow)."
    VALID = [
        Valid("import jax\nfrom functools import partial\n\n@partial(jax.jit, static_argnums=1)\ndef step(x, mode):\n    return x * 2 if mode == 'a' else x\n\ndef run(x):\n    for i in range(100):\n        x = step(x, 'a')\n    return x\n"),
        # the counter in a traced position
        Valid("import jax\nfrom functools import partial\n\n@partial(jax.jit, static_argnums=1)\ndef step(x, mode, i):\n    return x * i\n\ndef run(x):\n    for i in range(100):\n        x = step(x, 'a', i)\n    return x\n"),
        # not jitted: calling the plain function with a static-looking parameter
        Valid("import jax\n\ndef step(x, n):\n    return x * n\n\nfast = jax.jit(step, static_argnums=1)\n\ndef run(x):\n    for i in range(10):\n        x = step(x, i)\n    return x\n"),
        # iterating over a list of configurations is deliberate
        Valid("import jax\n\ndef f(x, n):\n    return x[:n]\n\ng = jax.jit(f, static_argnums=1)\nfor n in [1, 2, 4]:\n    g(x, n)\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\nfrom functools import partial\n\n@partial(jax.jit, static_argnums=1)\ndef step(x, i):\n    return x * i\n\ndef run(x):\n    for i in range(100):\n        x = step(x, i)\n    return x\n",
            expected=[(10, 21)],
            message_contains="static",
        ),
        Invalid(
            "import jax\n\ndef f(x, n):\n    return x[:n]\n\ng = jax.jit(f, static_argnames='n')\nfor k in range(8):\n    y = g(x, n=k + 1)\n",
            expected=[(8, 16)],
        ),
        Invalid(
            "import jax\n\n@jax.jit(static_argnames=('layer',))\ndef apply(x, layer):\n    return x + layer\n\ndef run(x, n):\n    for j, _ in enumerate(range(n)):\n        x = apply(x, j)\n    return x\n",
            expected=[(9, 22)],
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if not ctx.loop_stack or ctx.in_traced:
            return
        counters = _loop_counters(ctx)
        if not counters:
            return
        info = ctx.jit_callee(node, exact=False)
        if info is None or not info.has_static:
            return
        for i, a in enumerate(positional_args(node)):
            if info.static_position(i, loose=True):
                self._check(a.value, counters, f"`{info.param_name(i) or i}` (position {i})")
        for a in node.args:
            if a.keyword is not None and info.static_name(a.keyword.value, loose=True):
                self._check(a.value, counters, f"`{a.keyword.value}`")

    def _check(self, e: cst.BaseExpression, counters: dict[str, cst.CSTNode], where: str) -> None:
        name = _counter_in(e, counters)
        if name is None:
            return
        self.report(
            e,
            f"the loop counter `{name}` is passed as the static argument {where}: every new value "
            f"traces and compiles the function again (one compile per iteration). Pass it as a "
            f"traced argument instead (remove it from static_argnums/static_argnames)",
        )


def _counter_in(e: cst.BaseExpression, counters) -> Optional[str]:
    if isinstance(e, cst.Name):
        return e.value if e.value in counters else None
    if isinstance(e, cst.BinaryOperation):
        l, r = e.left, e.right
        for a, b in ((l, r), (r, l)):
            if isinstance(a, cst.Name) and a.value in counters and int_value(b) is not None:
                return a.value
    return None


_TIMERS = frozenset(
    {"time.time", "time.perf_counter", "time.monotonic", "time.process_time", "time.time_ns",
     "time.perf_counter_ns", "time.monotonic_ns", "timeit.default_timer"}
)
_ARRAY_PREFIXES = ("jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.", "jax.random.", "jax.image.")
_HARMLESS_BUILTINS = frozenset({"range", "len", "enumerate", "zip", "isinstance", "min", "max", "list", "tuple", "dict"})
_HARMLESS_METHODS = frozenset({"append", "extend", "insert", "update", "add"})


class TimingWithoutBlocking(Rule):
    code = "JAX505"
    name = "timing-without-block-until-ready"
    summary = "Timing JAX work with `time.time()`/`perf_counter()` without `block_until_ready()`: measures only the dispatch"
    severity = Severity.WARNING
    fix_availability = "sometimes"
    seed = "FAQ § benchmarking JAX code / asynchronous dispatch (seeds 001, 004); tutorial § timing (seed 002)"
    what_it_does = (
        "Flags a clock read (`time.time()`, `time.perf_counter()`, `time.monotonic()`, "
        "`timeit.default_timer()`...) that closes an interval in which a JAX computation was "
        "started (a call of a jitted function, or of `jnp`/`lax`/`jax.random`/`jax.nn`) and "
        "nothing waited for it: no `.block_until_ready()`, `jax.block_until_ready(...)`, "
        "`jax.device_get`, NumPy conversion, `float()`/`int()`/`.item()`/`.tolist()`, `print`, "
        "`if` on a value, or call of an unknown function (which might block) in between."
    )
    why_bad = (
        "JAX dispatches work asynchronously, on CPU too since jax 0.4.32: a jitted call returns "
        "as soon as the work is queued. Timing the call then measures the dispatch, not the "
        "computation. For a 2000x2000 matmul on CPU: 0.13 ms measured without blocking against "
        "230 ms with `block_until_ready` (jax 0.10.2); 0.15 ms against 113 ms on 0.12."
    )
    example = (
        "```python\nt0 = time.perf_counter()\ny = f(x)\nprint(time.perf_counter() - t0)\n```"
    )
    use_instead = (
        "```python\nf(x).block_until_ready()          # warm-up: compile outside the timing\n"
        "t0 = time.perf_counter()\ny = jax.block_until_ready(f(x))\nprint(time.perf_counter() - t0)\n```"
    )
    fix_safety = (
        "The fix wraps the last JAX call before the clock read in `jax.block_until_ready(...)` "
        "(which works for any pytree result and returns it). It is marked unsafe: it changes "
        "what the program measures (which is the point) and, inside a loop, makes every "
        "iteration wait. Offered only when `jax` is imported under a name in scope."
    )
    VALID = [
        Valid("import time\nimport jax\nimport jax.numpy as jnp\n\nf = jax.jit(lambda x: x @ x)\nx = jnp.ones((100, 100))\nt0 = time.time()\ny = f(x).block_until_ready()\nt1 = time.time()\n"),
        Valid("import time\nimport jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    return x @ x\n\ndef bench(x):\n    t0 = time.perf_counter()\n    y = f(x)\n    jax.block_until_ready(y)\n    return time.perf_counter() - t0\n"),
        Valid("import time\nimport numpy as np\nimport jax.numpy as jnp\n\ndef bench(x):\n    t0 = time.perf_counter()\n    y = jnp.dot(x, x)\n    z = np.asarray(y)\n    return time.perf_counter() - t0\n"),
        Valid("import time\nimport jax.numpy as jnp\n\ndef bench(x):\n    t0 = time.time()\n    loss = jnp.sum(x)\n    print(loss)\n    return time.time() - t0\n"),
        # no JAX work in the interval
        Valid("import time\nimport jax\n\ndef load(path):\n    t0 = time.time()\n    data = open(path).read()\n    return data, time.time() - t0\n"),
        # an unknown function might block: stay quiet
        Valid("import time\nimport jax.numpy as jnp\n\ndef bench(x, sync):\n    t0 = time.time()\n    y = jnp.sin(x)\n    sync(y)\n    return time.time() - t0\n"),
    ]
    INVALID = [
        Invalid(
            "import time\nimport jax\nimport jax.numpy as jnp\n\nf = jax.jit(lambda x: x @ x)\nx = jnp.ones((2000, 2000))\nt0 = time.time()\ny = f(x)\nt1 = time.time()\n",
            expected=[(9, 6)],
            fixed="import time\nimport jax\nimport jax.numpy as jnp\n\nf = jax.jit(lambda x: x @ x)\nx = jnp.ones((2000, 2000))\nt0 = time.time()\ny = jax.block_until_ready(f(x))\nt1 = time.time()\n",
            unsafe=True,
            message_contains="block_until_ready",
        ),
        Invalid(
            "import time\nimport jax\nfrom functools import partial\n\n@partial(jax.jit, static_argnums=1)\ndef step(x, n):\n    return x * n\n\ndef bench(x):\n    start = time.perf_counter()\n    for _ in range(10):\n        x = step(x, 2)\n    elapsed = time.perf_counter() - start\n    return elapsed\n",
            expected=[(13, 15)],
        ),
        Invalid(
            "import time\nimport jax\n\nf = jax.jit(lambda x: x * 2)\n\ndef bench(x):\n    t0 = time.perf_counter()\n    y = f(x)\n    print(f'took {time.perf_counter() - t0:.3f}s', y)\n",
            expected=[(9, 19)],
        ),
        Invalid(
            "import time\nimport jax.numpy as jnp\n\ndef bench(x):\n    t0 = time.monotonic()\n    y = jnp.linalg.inv(x)\n    return time.monotonic() - t0\n",
            expected=[(7, 12)],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._unit: Optional[Unit] = None
        self._start: Optional[cst.Call] = None
        self._pending: list[cst.Call] = []
        self._ignore: set[int] = set()

    def _sync(self) -> None:
        if self._unit is not self.ctx.unit:
            self._unit = self.ctx.unit
            self._start = None
            self._pending = []
            self._ignore = set()

    def _clear(self, node=None) -> None:
        self._sync()
        self._pending = []

    visit_If = visit_While = visit_Assert = visit_FormattedString = visit_Await = _clear

    def visit_Call(self, node: cst.Call) -> None:
        self._sync()
        ctx = self.ctx
        if ctx.in_traced:
            return
        q = ctx.qualname(node.func)
        if q in _TIMERS:
            if self._start is not None and self._pending:
                self._report(node)
            self._start = node
            self._pending = []
            return
        if self._start is None or id(node) in self._ignore:
            return
        if ctx.builtin_name(node.func) == "print" and self._pending:
            # print(time.time() - t0): the arguments, timer included, are
            # evaluated before print formats (and so waits for) anything
            from jaxlint.model.walk import descendants

            for d in descendants(node):
                if isinstance(d, cst.Call) and ctx.qualname(d.func) in _TIMERS:
                    self._report(d)
                    self._start = d
                    self._pending = []
                    self._ignore.update(id(x) for x in descendants(node) if isinstance(x, cst.Call))
                    return
        if self._starts_jax_work(node, q):
            if "block_until_ready" in ctx.code(node):
                self._pending = []
            else:
                self._pending.append(node)
            return
        if self._harmless(node, q):
            return
        # might block (or might be anything): stay quiet, also about the calls in its arguments
        self._pending = []
        from jaxlint.model.walk import descendants

        self._ignore.update(id(d) for d in descendants(node) if isinstance(d, cst.Call))

    def _starts_jax_work(self, node: cst.Call, q: Optional[str]) -> bool:
        if q is not None:
            return q.startswith(_ARRAY_PREFIXES) and q not in ("jax.numpy.shape", "jax.numpy.ndim", "jax.numpy.size")
        return self.ctx.jit_callee(node, exact=False) is not None

    def _harmless(self, node: cst.Call, q: Optional[str]) -> bool:
        ctx = self.ctx
        b = ctx.builtin_name(node.func)
        if b in _HARMLESS_BUILTINS:
            return True
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in _HARMLESS_METHODS:
            return True
        if q is not None and q.startswith("jax.") and "block_until_ready" not in ctx.code(node):
            short = q.rsplit(".", 1)[1]
            return short not in ("block_until_ready", "device_get", "effects_barrier")
        return False

    def _report(self, stop: cst.Call) -> None:
        last = self._pending[-1]
        ctx = self.ctx
        timer = ctx.code(stop.func).strip()
        jax_alias = None
        for local, full in ctx.imports.names.items():
            if full == "jax" and ctx.qualname(cst.Name(local)) == "jax":
                jax_alias = local
                break
        rfix = None
        if jax_alias is not None:
            rfix = fix(
                Applicability.UNSAFE,
                f"Wrap in `{jax_alias}.block_until_ready(...)`",
                Replacement(last, f"{jax_alias}.block_until_ready({ctx.code(last).strip()})"),
            )
        self.report(
            stop,
            f"`{timer}()` is read while the JAX computation started on line {{related_line}} may "
            f"still be running (dispatch is asynchronous): this measures the dispatch, not the "
            f"work. Wait for the result first: `jax.block_until_ready(result)` or "
            f"`result.block_until_ready()`",
            rfix,
            related=last,
        )
        self._pending = []


class DonatedArgumentReused(Rule):
    code = "JAX506"
    name = "donated-argument-reused"
    summary = "An argument donated to a jitted call (`donate_argnums`/`donate_argnames`) is used afterwards: `Array has been deleted`"
    severity = Severity.ERROR
    seed = "FAQ § buffer donation (seed 004)"
    what_it_does = (
        "After a call of a function jitted with `donate_argnums`/`donate_argnames`, flags a "
        "read of a variable that was passed in a donated position, before the variable is "
        "bound again. `params = update(params, grads)` (the usual pattern) rebinds the name "
        "and stays silent; reading `.shape`/`.dtype`/`.ndim`/`.size` or `.is_deleted()` is "
        "allowed. A value known to be a NumPy array (which JAX copies, not donates) is skipped."
    )
    why_bad = (
        "Donation lets XLA reuse the input buffer for the output; the donated `jax.Array` is "
        "deleted by the call. The 2022 FAQ says donation only happens on GPU/TPU; on current "
        "JAX (0.10.2, 0.12) it happens on CPU too, with no warning, and any later use raises:\n\n"
        "```\nRuntimeError: Array has been deleted with shape=float32[2,3].\n```"
    )
    example = (
        "```python\nadd = jax.jit(lambda x, y: x + y, donate_argnums=1)\nz = add(x, y)\nprint(y)\n```"
    )
    use_instead = (
        "Rebind the donated name to the result (`y = add(x, y)`), don't donate arguments you "
        "still need, or pass a copy (`add(x, y.copy())`)."
    )
    fix_safety = "No automatic fix."
    VALID = [
        Valid("import jax\nfrom functools import partial\n\n@partial(jax.jit, donate_argnums=0)\ndef update(params, grads):\n    return params - 0.1 * grads\n\ndef train(params, grads):\n    params = update(params, grads)\n    return params\n"),
        Valid("import jax\n\nadd = jax.jit(lambda x, y: x + y, donate_argnums=1)\n\ndef f(x, y):\n    z = add(x, y)\n    print(x, y.shape)\n    return z\n"),
        Valid("import jax\n\nadd = jax.jit(lambda x, y: x + y, donate_argnums=1)\n\ndef f(x, y):\n    z = add(x, y)\n    y = z * 2\n    return y + x\n"),
        Valid("import jax\n\nadd = jax.jit(lambda x, y: x + y)\n\ndef f(x, y):\n    z = add(x, y)\n    return y + z\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\ndef add(x, y):\n    return x + y\n\nx = jnp.ones((2, 3))\ny = jnp.ones((2, 3))\nz = jax.jit(add, donate_argnums=1)(x, y)\nprint(y + 1)\n",
            expected=[(10, 7)],
            message_contains="deleted",
        ),
        Invalid(
            "import jax\nfrom functools import partial\n\n@partial(jax.jit, donate_argnames=('state',))\ndef step(state, batch):\n    return state + batch\n\ndef train(state, batches):\n    new_state = step(state, batches[0])\n    return new_state, state.sum()\n",
            expected=[(10, 23)],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._unit: Optional[Unit] = None
        self._donated: dict[str, cst.Call] = {}

    def _sync(self) -> None:
        if self._unit is not self.ctx.unit:
            self._unit = self.ctx.unit
            self._donated = {}

    def _unbind_targets(self, targets) -> None:
        for t in targets:
            for n in _target_names(t):
                self._donated.pop(n, None)

    def leave_Assign(self, node: cst.Assign) -> None:
        self._unbind_targets([t.target for t in node.targets])

    def leave_AugAssign(self, node: cst.AugAssign) -> None:
        self._unbind_targets([node.target])

    def leave_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._unbind_targets([node.target])

    def visit_Del(self, node: cst.Del) -> None:
        self._sync()
        self._unbind_targets([node.target])

    def leave_For(self, node: cst.For) -> None:
        self._unbind_targets([node.target])

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if isinstance(node.value, cst.Name) and node.attr.value in ("shape", "dtype", "ndim", "size", "is_deleted", "sharding", "aval", "weak_type"):
            self._skip = node.value

    _skip: Optional[cst.CSTNode] = None

    def visit_Name(self, node: cst.Name) -> None:
        self._sync()
        if not self._donated or node.value not in self._donated:
            return
        if self._skip is node:
            return
        call = self._donated.pop(node.value)
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
        for i, a in enumerate(positional_args(node)):
            if info.donated_position(i):
                self._mark(a.value, node)
        for a in node.args:
            if a.keyword is not None and info.donated_name(a.keyword.value):
                self._mark(a.value, node)

    def _mark(self, e: cst.BaseExpression, call: cst.Call) -> None:
        if not isinstance(e, cst.Name):
            return
        v = self.ctx.value(e)
        if v.kind in (V.NPARRAY, V.STATIC, V.FUNCTION, V.MODULE):
            return
        self._donated[e.value] = call


def _target_names(t: cst.CSTNode) -> list[str]:
    if isinstance(t, cst.Name):
        return [t.value]
    if isinstance(t, (cst.Tuple, cst.List)):
        out: list[str] = []
        for el in t.elements:
            out.extend(_target_names(el.value))
        return out
    if isinstance(t, cst.StarredElement):
        return _target_names(t.value)
    return []
