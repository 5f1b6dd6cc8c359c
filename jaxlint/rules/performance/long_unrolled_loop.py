"""JAX502 long-unrolled-loop: A Python `for` loop with many static iterations inside traced code: unrolled, compile time grows with N."""

from __future__ import annotations

import math
from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import values as V
from jaxlint.model.walk import int_value, walk_tree
from jaxlint.rules.performance._common import TracedLoopMixin, range_bounds, static_number


def _static_int(ctx, e: cst.BaseExpression) -> Optional[int]:
    """The integer ``e`` always holds here (``static_number``: literals, constants bound
    once, a jitted function's parameter left at such a default, arithmetic on them)."""
    v = static_number(ctx, ctx.unit, e)
    return v if isinstance(v, int) and not isinstance(v, bool) else None


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


class LongUnrolledLoop(TracedLoopMixin, Rule):
    code = "JAX502"
    name = "long-unrolled-loop"
    runtime_check = 'jaxpr equation counts (top level and recursive) show the unrolled body.'
    summary = "A Python `for` loop with many static iterations inside traced code: unrolled, compile time grows with N"
    severity = Severity.WARNING
    seed = "The Sharp Bits § Control Flow / structured control flow primitives (seed 000); study notes § loops (seed 003)"
    options_doc = (
        "* `max-unrolled-loop` (int, default 100): the smallest trip count that is reported.\n\n"
        "```toml\n[tool.jaxlint.options]\nmax-unrolled-loop = 64\n```"
    )
    what_it_does = (
        "Inside code JAX traces (`jit`, `vmap`, `lax.scan` bodies, ...), flags a Python `for` loop "
        "or comprehension over `range(N)` where `N` is known statically (an integer literal; a "
        "name its scope, an enclosing function's or the module's, binds exactly once, by a plain or "
        "tuple assignment (`n, beta = 20, 0.99`), to such a value; arithmetic on those "
        "(`npart * (npart - 1)`, `int(T / dt)`); `len()` of a literal tuple or list, or of a name "
        "bound once to one that nothing mutates; or a parameter "
        "of a jitted function left at such a default because no call passes it) and is at "
        "least `max-unrolled-loop` (default 100); `range(x.shape[k])` counts when every call of "
        "the function in the file passes `x` as a `jnp.zeros/ones/empty/full` of literal shape. Nested static `for` loops count together: "
        "`range(40)` inside `range(40)` unrolls 1600 copies of the inner body, reported at the "
        "outer loop. Python's builtin `sum(x)` over an array of known length at or above the "
        "threshold is reported too (one add per row). "
        "Rule of thumb for functions that run once (a `main`, a test): it is still reported, "
        "because the cost is compile time and the first call pays it in full, however few calls "
        "follow. A loop of 1 iteration, or one whose bound is below the threshold, is never reported.\n\n"
        "The count may also come through the model's integers (`model/returns.py`): a field's "
        "integer default of a dataclass instance built here (`Config().n_layers`), a constant of "
        "another module of the project (`from sim.settings import N_STEPS`, `S.N_STEPS`), "
        "`range(grid.shape[0])` and `len()` of an array of known shape, `len()` of a list built by "
        "a comprehension over a known range (until something appends to it), what a helper "
        "returns. A loop over anything else whose length is known is counted the same way: "
        "`for t in jnp.linspace(0, 1, 200)`, `for row in grid` (its rows), "
        "`enumerate(...)`/`zip(...)`/`reversed(...)` of such."
    )
    why_bad = (
        "A Python loop under `jit` runs while tracing: every iteration is copied into the "
        "program, so the jaxpr and the compile time grow with N. Measured on jax 0.10.2 for a "
        "body `x = jnp.sin(x) * 2.0 + i`: 1000 Python iterations give 3000 equations and "
        "3.8 s for the first call, against 1 equation (`scan`) and 0.05 s with `lax.fori_loop`. "
        "There is no error, just slow compiles (and large memory while compiling). Under "
        "`jax.vmap(f)(x)` called at once in untraced code, with no `jit` around it, nothing is "
        "compiled as one program: every call traces `f` again and dispatches each operation of "
        "the N copies on its own, and the message says so. Measured on jax 0.10.2 for a body "
        "`x = jnp.sin(x) + i` under `vmap` alone: 200 Python iterations cost 85 ms a call, "
        "against 0.4 ms with `lax.fori_loop` of a module-level body (and 0.6 ms with "
        "`jax.jit(jax.vmap(f))`)."
    )
    use_instead = (
        "```python\n@jax.jit\ndef f(x):\n    return lax.fori_loop(0, 1000, lambda i, x: jnp.sin(x) * 2.0 + i, x)\n```\n\n"
        "(or `lax.scan` when per-step outputs are collected). Short loops are fine and often "
        "faster unrolled; `fori_loop(..., unroll=k)` balances the two."
    )
    fix_safety = "No automatic fix: the loop body must be turned into a function of the carried state."
    VALID = [
        # a field changed after the instance was built; a small known shape; a loop over an
        # argument of unknown shape (JAX503's, opt-in)
        Valid(
            """
            import dataclasses

            import jax
            import jax.numpy as jnp


            @dataclasses.dataclass
            class Config:
                n_layers: int = 400


            @jax.jit
            def deep(x, rows):
                cfg = Config()
                cfg.n_layers = 4
                for _ in range(cfg.n_layers):
                    x = jnp.tanh(x)
                for t in jnp.linspace(0.0, 1.0, 20):
                    x = x * t
                for r in rows:
                    x = x + r
                return x
            """
        ),
        # derived counts below the threshold, a list that is appended to, a tuple bound
        # from a call's result: not known, or short
        Valid(
            """
            import jax
            import jax.numpy as jnp

            T, dt = 1.0, 0.02
            n_steps = int(T / dt)
            LAYERS = [16, 16]
            LAYERS.append(32)
            a, b = divmod(1000, 1)


            def simulate(x):
                for _ in range(n_steps):
                    x = x + dt * jnp.sin(x)
                for _ in range(len(LAYERS) * 50):
                    x = jnp.cos(x)
                for _ in range(a):
                    x = jnp.cos(x)
                return x


            y = jax.vmap(simulate)(jnp.ones((4, 3)))
            """
        ),
        # `range(m.shape[0])`: small at every call, or unknown at one of them
        Valid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def row_norms(m):
                acc = 0.0
                for i in range(m.shape[0]):
                    acc = acc + jnp.dot(m[i], m[i])
                return acc

            def main(data):
                return row_norms(jnp.ones((3, 16))), row_norms(data)
            """
        ),
        # a short nest (4 × 8 = 32 copies), and a nest whose inner bound is unknown
        Valid(
            """
            import jax

            @jax.jit
            def pairwise(x, ys):
                total = 0.0
                for i in range(4):
                    for j in range(8):
                        total = total + x[i] * x[j]
                for i in range(40):
                    for y in ys:
                        total = total + x[i] * y
                return total
            """
        ),
        # a long loop of plain Python arithmetic adds nothing to the jaxpr
        Valid(
            """
            import math
            import jax
            import jax.numpy as jnp

            @jax.jit
            def taylor(x):
                coeffs = []
                for k in range(200):
                    coeffs.append(1.0 / math.factorial(min(k, 20)))
                return jnp.polyval(jnp.asarray(coeffs[:8]), x)
            """
        ),
        Valid(
            """
            import jax

            @jax.jit
            def f(x):
                for i in range(10):
                    x = x * 2
                return x
            """
        ),
        # not traced: a plain Python loop
        Valid(
            """
            import jax.numpy as jnp

            def f(x):
                for i in range(1000):
                    x = jnp.sin(x)
                return x
            """
        ),
        # bound depends on the data shape: JAX503 (opt-in)
        Valid(
            """
            import jax

            @jax.jit
            def f(x):
                for i in range(x.shape[0]):
                    x = x.at[i].set(0.)
                return x
            """
        ),
        # a constant reassigned somewhere: not a known value
        Valid(
            """
            import jax

            N = 1000
            N = 10

            @jax.jit
            def f(x):
                for i in range(N):
                    x = x + i
                return x
            """
        ),
        # the threshold is an option
        Valid(
            """
            import jax

            @jax.jit
            def f(x):
                for i in range(200):
                    x = x + i
                return x
            """,
            options=(('max-unrolled-loop', 500),),
        ),
        # a default that a call passes (traced: JAX202's), a short default
        Valid(
            """
            import jax
            import jax.numpy as jnp

            N = 1000

            def simulate(x, n=N, m=8):
                for _ in range(m):
                    x = jnp.sin(x)
                return x

            run = jax.jit(simulate, static_argnames="n")
            y = run(jnp.ones(3), n=5)
            """
        ),
    ]

    INVALID = [
        # counts the model's integers know: a dataclass default, a dimension of a known
        # shape; loops over arrays of known shape
        Invalid(
            """
            import dataclasses

            import jax
            import jax.numpy as jnp


            @dataclasses.dataclass(frozen=True)
            class Config:
                n_layers: int = 400


            @jax.jit
            def deep(x):
                for _ in range(Config().n_layers):
                    x = jnp.tanh(x)
                grid = jnp.zeros((256, 2))
                for i in range(grid.shape[0]):
                    x = x + grid[i]
                for t in jnp.linspace(0.0, 1.0, 200):
                    x = x * t
                return x
            """,
            expected=[(14, 14), (17, 14), (19, 14)],
            messages=[
                "this Python loop runs 400 times while JAX traces `deep`, so it is unrolled into 400 copies of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs)",
                "this Python loop runs 256 times while JAX traces `deep`, so it is unrolled into 256 copies of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs)",
                "this Python loop runs 200 times (once per element of `jnp.linspace(0.0, 1.0, 200)`) while JAX traces `deep`, so it is unrolled into 200 copies of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` over the elements)",
            ],
        ),
        # counts derived from constants: tuple-assigned floats (`int(T / dt)`), arithmetic
        # on a closure's local (`n_iter - 1`), `len()` of a module tuple (jax#18420's
        # `npair = npart * (npart - 1)` is the same mechanism)
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            T, dt = 10.0, 0.01
            n_steps = int(T / dt)
            WEIGHTS = (0.1, 0.2, 0.7)


            def simulate(x):
                for _ in range(n_steps):
                    x = x + dt * jnp.sin(x)
                return x


            def make_solver(scale):
                n_iter = 50 * 4

                @jax.jit
                def solve(x):
                    for i in range(n_iter - 1):
                        x = jnp.tanh(x * scale)
                    for j in range(len(WEIGHTS) * 64):
                        x = x + WEIGHTS[j % 3]
                    return x

                return solve


            y = jax.vmap(simulate)(jnp.ones((4, 3)))
            """,
            expected=[(10, 14), (20, 18), (22, 18)],
            messages=[
                "this Python loop runs 1000 times while JAX traces `simulate`, so every call traces again and runs 1000 copies of its body, each operation dispatched on its own (`vmap` without `jit` compiles no program): the time of every call grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs)",
                "this Python loop runs 199 times while JAX traces `solve`, so it is unrolled into 199 copies of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs)",
                "this Python loop runs 192 times while JAX traces `solve`, so it is unrolled into 192 copies of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs)",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def row_norms(m):
                acc = 0.0
                for i in range(m.shape[0]):
                    acc = acc + jnp.dot(m[i], m[i])
                return acc

            def main():
                return row_norms(jnp.ones((4096, 16)))
            """,
            expected=[(7, 14)],
            messages=[
                "this Python loop runs 4096 times (`m.shape[0]` is up to 4096 at the calls in this file) while JAX traces `row_norms`, so it is unrolled into 4096 copies of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs)",
            ],
        ),
        Invalid(
            """
            import jax

            @jax.jit
            def pairwise(x):
                total = 0.0
                for i in range(40):
                    for j in range(40):
                        total = total + x[i] * x[j]
                return total
            """,
            expected=[(6, 14)],
            messages=[
                "these nested Python loops run 40 × 40 = 1600 times while JAX traces `pairwise`, so the innermost body is unrolled into 1600 copies: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs) for at least one of them",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                for i in range(1000):
                    x = jnp.sin(x) * 2.0 + i
                return x
            """,
            expected=[(6, 14)],
            messages=[
                "this Python loop runs 1000 times while JAX traces `f`, so it is unrolled into 1000 copies of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs)",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            STEPS = 500

            def body(x):
                return jnp.stack([x * i for i in range(STEPS)])

            y = jax.vmap(body)(jnp.ones(3))
            """,
            expected=[(7, 38)],
            messages=[
                "this Python loop runs 500 times while JAX traces `body`, so every call traces again and runs 500 copies of its body, each operation dispatched on its own (`vmap` without `jit` compiles no program): the time of every call grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs)",
            ],
        ),
        Invalid(
            """
            import jax

            @jax.jit
            def f(x):
                for i in range(0, 64 * 4):
                    x = x + i
                return x
            """,
            expected=[(5, 14)],
            messages=[
                "this Python loop runs 256 times while JAX traces `f`, so it is unrolled into 256 copies of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs)",
            ],
        ),
        # a jitted function's parameter left at a module constant's default
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            n = 1000


            def compute_call_price_jax(h0=0.0, n=n, key=jax.random.PRNGKey(1)):
                h = jnp.full(10, h0)
                for t in range(n):
                    key, subkey = jax.random.split(key)
                    h = 0.5 * h + jax.random.normal(subkey, (10,))
                return jnp.mean(h)


            compute_call_price_jax = jax.jit(compute_call_price_jax)
            print(compute_call_price_jax())
            """,
            expected=[(9, 14)],
            messages=[
                "this Python loop runs 1000 times (`n` keeps its default: no call passes it) while JAX traces `compute_call_price_jax`, so it is unrolled into 1000 copies of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs)",
            ],
        ),
        # Python's builtin `sum` over an array of known length walks its rows (a short one
        # is below the threshold)
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            @jax.jit
            def integrate(mu):
                weights = jnp.linspace(0.0, 1.0, 400)
                few = jnp.linspace(0.0, 1.0, 8)
                return sum(weights) * mu + sum(few)
            """,
            expected=[(9, 12)],
            messages=[
                "Python's builtin `sum` adds the 400 rows of `weights` one at a time while JAX traces `integrate`, so it is unrolled into 400 adds: compile time grows with the size. Use `jnp.sum(weights, axis=0)`",
            ],
        ),
        # under `jax.vmap` called at once, with no jit around it: no compile, but every call
        # traces again and dispatches the copies' operations one by one (the message says
        # so); the same loop mapped under `jax.jit` is a compile-time cost
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def train(key):
                w = jax.random.normal(key, (3,))
                for i in range(500):
                    w = w - 0.01 * jnp.sin(w)
                return w


            def simulate(x):
                for _ in range(300):
                    x = jnp.tanh(x)
                return x


            ensemble = jax.vmap(train)(jax.random.split(jax.random.key(0), 8))
            paths = jax.jit(jax.vmap(simulate))(jnp.ones((8, 3)))
            """,
            expected=[(7, 14), (13, 14)],
            messages=[
                "this Python loop runs 500 times while JAX traces `train`, so every call traces again and runs 500 copies of its body, each operation dispatched on its own (`vmap` without `jit` compiles no program): the time of every call grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs)",
                "this Python loop runs 300 times while JAX traces `simulate`, so it is unrolled into 300 copies of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs)",
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._loop: Optional[cst.CSTNode] = None
        self._covered: set[int] = set()  # inner loops of a nest already reported

    def _check(self, node: cst.CSTNode) -> None:
        self._loop = node
        super()._check(node)

    def _nest(self, body: cst.CSTNode) -> tuple[int, ...]:
        """The trip counts of the deepest-multiplying chain of static `for` loops
        directly nested in ``body`` (same function); () when there is none."""
        best: tuple[int, ...] = ()
        for n in walk_tree(body, lambda n: isinstance(n, (cst.FunctionDef, cst.Lambda, cst.ClassDef, cst.For)),
                           with_root=False):
            if isinstance(n, cst.For):
                self._covered.add(id(n))
                bounds = range_bounds(self.ctx, n.iter)
                t = _trip_count(self.ctx, bounds) if bounds else None
                chain = ((t,) if t is not None else ()) + self._nest(n.body)
                if math.prod(chain) > math.prod(best):
                    best = chain
        return best

    def _call_site_trips(self, bounds) -> Optional[int]:
        """``range(m.shape[k])`` where ``m`` is a parameter and every call of the
        function in the file passes an array of literal shape: the largest size."""
        if len(bounds) != 1:
            return None
        b = bounds[0]
        if not (
            isinstance(b, cst.Subscript) and isinstance(b.value, cst.Attribute)
            and b.value.attr.value == "shape" and isinstance(b.value.value, cst.Name)
            and len(b.slice) == 1 and isinstance(b.slice[0].slice, cst.Index)
        ):
            return None
        k = int_value(b.slice[0].slice.value)
        name = b.value.value.value
        if k is None or self.ctx.unit.param(name) is None or name in self.ctx.unit.assigned:
            return None
        shapes = self.ctx.call_site_shapes(name)
        if not shapes or any(s is None or not -len(s) <= k < len(s) for s in shapes):
            return None
        return max(s[k] for s in shapes)  # type: ignore[index]

    def check_iterable(self, it) -> None:
        """``for t in jnp.linspace(0, 1, 200)``, ``for row in grid`` of a known shape,
        ``for i, t in enumerate(range(N))``: one copy of the body per element."""
        n = self.ctx.iteration_count(it)
        if n is None or n < self._limit():
            return
        self.report(
            it,
            f"this Python loop runs {n} times (once per element of `{self.ctx.code(it).strip()}`) while JAX "
            f"traces `{self.ctx.unit.name}`, so {self._cost(n)}. Use `lax.fori_loop` (or `lax.scan` over the elements)",
        )

    def check_summed(self, call, arg) -> None:
        """``sum(x)`` with Python's builtin over an array of known length: one add per row."""
        n = self.ctx.iteration_count(arg)
        if n is None or n < self._limit() or self.ctx.value(arg).kind != V.ARRAY:
            return
        name = self.ctx.code(arg).strip()
        self.report(
            call,
            f"Python's builtin `sum` adds the {n} rows of `{name}` one at a time while JAX traces "
            f"`{self.ctx.unit.name}`, so {self._cost(n, 'adds', 'size')}. Use `jnp.sum({name}, axis=0)`",
        )

    def _cost(self, n: int, copies: str = "copies of its body", grows: str = "trip count") -> str:
        """What the unrolled loop costs: under a transformation that compiles (jit, pmap, the
        lax loops) a program of ``n`` copies, compiled once; under `jax.vmap` called at once
        in untraced code with no `jit` around it (model: the unit runs eagerly), nothing is
        compiled as one program: every call traces again and dispatches each operation of the
        ``n`` copies on its own."""
        if self.ctx.eager_mapped:
            return (f"every call traces again and runs {n} {copies}, each operation dispatched on its own "
                    f"(`vmap` without `jit` compiles no program): the time of every call grows with the {grows}")
        return f"it is unrolled into {n} {copies}: compile time grows with the {grows}"

    def _limit(self) -> int:
        try:
            return int(self.ctx.settings.option("max-unrolled-loop", 100))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return 100

    def check_range(self, it, bounds) -> None:
        source = ""
        n = self._call_site_trips(bounds)
        if n is not None:
            source = f" (`{self.ctx.code(bounds[0]).strip()}` is up to {n} at the calls in this file)"
        else:
            n = _trip_count(self.ctx, bounds)
            defaults = [b.value for b in bounds if isinstance(b, cst.Name) and b.value in self.ctx.unit.defaulted_params]
            if n is not None and defaults:
                source = f" (`{defaults[0]}` keeps its default: no call passes it)"
        try:
            limit = int(self.ctx.settings.option("max-unrolled-loop", 100))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            limit = 100
        if n is None:
            return
        loop = self._loop
        if n < limit and isinstance(loop, cst.For) and loop.iter is it and id(loop) not in self._covered:
            inner = self._nest(loop.body)
            total = n * math.prod(inner)
            if inner and total >= limit and max(inner) < limit:
                factors = " × ".join(str(k) for k in (n, *inner))
                self.report(
                    it,
                    f"these nested Python loops run {factors} = {total} times while JAX traces "
                    f"`{self.ctx.unit.name}`, so "
                    + (self._cost(total, "copies of the innermost body") if self.ctx.eager_mapped else
                       f"the innermost body is unrolled into {total} copies: compile time grows with the trip count")
                    + f". Use `lax.fori_loop` (or `lax.scan` to "
                    f"collect per-step outputs) for at least one of them",
                )
            return
        if n < limit:
            return
        self.report(
            it,
            f"this Python loop runs {n} times{source} while JAX traces `{self.ctx.unit.name}`, so "
            f"{self._cost(n)}. Use `lax.fori_loop` (or `lax.scan` to collect per-step outputs)",
        )
