"""JAX503 data-sized-unrolled-loop: A Python loop over `range(x.shape[i])`/`range(len(x))`/`range(static_arg)` inside traced code: unrolled once per step."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import values as V
from jaxlint.model.scopes import bound_once, writes
from jaxlint.model.walk import int_value, walk_tree
from jaxlint.rules.performance._common import TracedLoopMixin, static_number, walked


class DataSizedUnrolledLoop(TracedLoopMixin, Rule):
    code = "JAX503"
    name = "data-sized-unrolled-loop"
    runtime_check = "jaxpr equation counts, at the loop's size and at half of it, show the growth."
    summary = "A Python loop over `range(x.shape[i])`/`range(len(x))`/`range(static_arg)` inside traced code: unrolled once per step"
    severity = Severity.WARNING
    default_enabled = False
    seed = "The Sharp Bits § Control Flow (seed 000): `range(x.shape[0])` works under jit, unrolled"
    what_it_does = (
        "Opt-in. Inside traced code, flags `for i in range(x.shape[k])` / `range(len(x))` / "
        "`range(x.size)` / `range(jnp.size(x))` (and comprehensions over them; integer arithmetic "
        "on one, `range(1, x.shape[0] - 1)`; a local name bound once to one, `n = x.shape[0]`, or "
        "unpacked from the shape, `B, T = x.shape`; walked through `reversed(...)`, "
        "`enumerate(...)`, `list(...)`): "
        "loops whose trip count is a data dimension; and "
        "`range(n)` where the caller chooses `n`: a static argument of the traced function "
        "(`static_argnums`/`static_argnames`), or a parameter of the function that builds it "
        "(`def make(n): @jax.jit def f(x): for i in range(n): ...`), or a parameter of the "
        "traced function left at its default because no call passes it (`def f(x, n=N_STEPS)` "
        "under `jax.jit`: a caller who passes another `n` must make it static; a known default at "
        "or above JAX502's threshold is JAX502's), or a parameter of the constructor of the "
        "object whose method is traced (`range(len(self.layers))` where `__init__` builds "
        "`self.layers` with one element per step of `range(n_layers)`, `range(self.depth)` where "
        "it sets `self.depth = depth`), or a count computed from such an argument "
        "(`range(n - 1)`, `range(2 * n)`, `range(conf.steps)`, `range(len(conf.grid))`, a local "
        "bound once to one), and consecutive pairs of a sequence taken from one "
        "(`zip(a[:-1], a[1:])` with `a = conf.grid`); and `for row in x` over "
        "a traced array argument (one that calls pass a JAX or NumPy array, not a list of "
        "layers), in this module or through another's `jit(grad(f))(..., x)`, also through "
        "`enumerate(x)`/`zip(x, y)`; and Python's builtin `sum(x)` over such an array, "
        "which adds its rows one at a time."
    )
    why_bad = (
        "Shapes are static under `jit`, so this works, but the loop is unrolled once per element "
        "of that dimension: with realistic sizes the trace and compile time grow with the data "
        "(see JAX502: 1000 iterations, 3000 equations, 3.8 s to compile). Every new input size "
        "also recompiles with a different number of copies. Off by default because loops over "
        "small dimensions (layers, a handful of heads) are common and cheap."
    )
    use_instead = "Vectorise (`x * 2`), `jax.vmap` the body, or use `lax.fori_loop(0, x.shape[0], body, x)`."
    fix_safety = "No automatic fix."
    VALID = [
        # a count unpacked from literals, a list of layers through `enumerate`, `sum` of a
        # list, of a shape, of a generator, `sum` outside traced code
        Valid(
            """
            import jax
            import jax.numpy as jnp


            @jax.jit
            def fine(x, layers):
                n_layers, width = 3, 4
                for i in range(n_layers):
                    x = jnp.tanh(x)
                for i, layer in enumerate(layers):
                    x = x @ layer
                return sum([x, x]) + sum(x.shape) + jnp.sum(x) + sum(jnp.tanh(l).sum() for l in layers)


            def eager(x):
                return sum(jnp.tanh(x))


            out = fine(jnp.ones(4), [jnp.ones((4, 4))])
            """
        ),
        # a defaulted count handed to `lax.fori_loop`; a default at JAX502's threshold
        # (JAX502 reports it)
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def rolled(x, depth=6):
                return jax.lax.fori_loop(0, depth, lambda i, v: jnp.tanh(v), x)


            @jax.jit
            def long(x, steps=1000):
                for _ in range(steps):
                    x = jnp.sin(x)
                return x


            z = jax.jit(rolled)(jnp.ones(3))
            """
        ),
        # the same counts with `lax.fori_loop`, or outside traced code
        Valid(
            """
            import functools
            import jax
            import jax.numpy as jnp

            @functools.partial(jax.jit, static_argnums=1)
            def rolled(x, n):
                return jax.lax.fori_loop(0, n, lambda i, v: jnp.sin(v), x)

            def eager(x, n):
                for _ in range(n):
                    x = jnp.sin(x)
                return x
            """
        ),
        Valid(
            """
            import jax

            @jax.jit
            def f(x):
                for i in range(3):
                    x = x * 2
                return x
            """
        ),
        Valid(
            """
            import jax.numpy as jnp

            def f(x):
                for i in range(x.shape[0]):
                    x = x.at[i].set(0.)
                return x
            """
        ),
        # a loop over a list of layers: as many copies as layers, whatever the data
        Valid(
            """
            import jax
            import jax.numpy as jnp

            def mlp(params, x):
                for w, b in params:
                    x = jnp.tanh(x @ w + b)
                return x

            params = [(jnp.ones((3, 3)), jnp.ones(3)) for _ in range(2)]
            y = jax.jit(mlp)(params, jnp.ones(3))
            """
        ),
        # the rank (`x.ndim`), a name bound twice, a static field of a class the model reads, `.size` outside traced code
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from flax import struct


            @struct.dataclass
            class Grid:
                cells: jax.Array
                size: int = struct.field(pytree_node=False)


            @jax.jit
            def f(x, grid: Grid):
                for axis in range(x.ndim):
                    x = jnp.flip(x, axis)
                n = x.shape[0]
                n = 3
                for i in range(n):
                    x = x * 2
                for j in range(grid.size):
                    x = x + grid.cells[j]
                return x


            def eager(a):
                for i in range(a.size):
                    a = a.at[i].set(2 * a[i])
                return a
            """
        ),
        # arithmetic on literals only; a field of a traced argument; a module constant grid
        Valid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp

            GRID = (0.0, 0.5, 1.0)


            @partial(jax.jit, static_argnames=("conf",))
            def simulate(x, conf, n):
                for _ in range(2 * 3):
                    x = jnp.sin(x)
                for a0, a1 in zip(GRID[:-1], GRID[1:]):
                    x = x + (a1 - a0)
                return x * conf.scale
            """
        ),
    ]

    INVALID = [
        # the count is a parameter left at its default (no call passes it): under
        # `@jax.jit` with a module constant, under `jax.vmap` with a literal
        Invalid(
            """
            import functools

            import jax
            import jax.numpy as jnp

            N_LAYERS = 6


            @jax.jit
            def forward(x, depth=N_LAYERS):
                for _ in range(depth):
                    x = jnp.tanh(x)
                return x


            def rollout(state, horizon=16, gamma=0.9):
                total = 0.0
                for t in range(horizon):
                    state = jnp.sin(state)
                    total = total + gamma ** t * state
                return total


            returns = jax.vmap(rollout)(jnp.ones((8, 3)))
            """,
            expected=[(11, 14), (18, 14)],
            messages=[
                "this Python loop runs `depth` times, a parameter of `forward` left at its default (6), while JAX traces `forward`: it is unrolled into `depth` copies of its body, and a caller that passes another `depth` must make it static and compiles again for each value. Use `lax.fori_loop(0, depth, body, init)` (or `lax.scan`)",
                "this Python loop runs `horizon` times, a parameter of `rollout` left at its default (16), while JAX traces `rollout`: it is unrolled into `horizon` copies of its body, and a caller that passes another `horizon` must make it static and compiles again for each value. Use `lax.fori_loop(0, horizon, body, init)` (or `lax.scan`)",
            ],
        ),
        # the count is a static argument: unrolled n times, compiled again for each n
        Invalid(
            """
            import functools
            import jax
            import jax.numpy as jnp

            @functools.partial(jax.jit, static_argnums=1)
            def repeat(x, n):
                for _ in range(n):
                    x = jnp.sin(x)
                return x

            @functools.partial(jax.jit, static_argnames="steps")
            def integrate(x, steps=10):
                for i in range(steps):
                    x = x + 0.1 * jnp.cos(x)
                return x
            """,
            expected=[(7, 14), (13, 14)],
            messages=[
                "this Python loop runs `n` times, a static argument of `repeat`, while JAX traces `repeat`: it is unrolled into `n` copies of its body, and every new value of `n` compiles again. Use `lax.fori_loop(0, n, body, init)` (or `lax.scan`)",
                "this Python loop runs `steps` times, a static argument of `integrate`, while JAX traces `integrate`: it is unrolled into `steps` copies of its body, and every new value of `steps` compiles again. Use `lax.fori_loop(0, steps, body, init)` (or `lax.scan`)",
            ],
        ),
        # ... or a parameter of the function that builds the jitted one
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            def make_stack(num_layers):
                @jax.jit
                def apply(x):
                    for i in range(num_layers):
                        x = jnp.tanh(x)
                    return x
                return apply
            """,
            expected=[(7, 18)],
            messages=[
                "this Python loop runs `num_layers` times, a parameter of `make_stack`, which builds the traced function, while JAX traces `apply`: it is unrolled into `num_layers` copies of its body, and every new value of `num_layers` compiles again. Use `lax.fori_loop(0, num_layers, body, init)` (or `lax.scan`)",
            ],
        ),
        Invalid(
            """
            import jax

            @jax.jit
            def f(x):
                for i in range(x.shape[0]):
                    x = x.at[i].set(x[i] * 2)
                return x
            """,
            expected=[(5, 14)],
            messages=[
                "this Python loop runs once per element of `x.shape[0]` while JAX traces `f`: it is unrolled, and compile time grows with the data size. Vectorise, `jax.vmap` the body or use `lax.fori_loop`",
            ],
        ),
        Invalid(
            """
            import jax

            @jax.jit
            def f(xs):
                return [xs[i] * 2 for i in range(len(xs))]
            """,
            expected=[(5, 32)],
            messages=[
                "this Python loop runs once per element of `len(xs)` while JAX traces `f`: it is unrolled, and compile time grows with the data size. Vectorise, `jax.vmap` the body or use `lax.fori_loop`",
            ],
        ),
        # over the rows of a traced array (jax#2515: one copy of the body per data point)
        Invalid(
            """
            import numpy as np
            from jax import grad, jit
            from jax.numpy import exp, log

            def likelihood(s, m, w):
                total = 0.0
                for x in w:
                    total += -log(exp(-((x - m) / s) ** 2 / 2.0))
                return total

            data = np.random.randn(100) * 5.0 + 1.0
            g = jit(grad(likelihood))(1.0, 2.0, data)
            """,
            expected=[(7, 14)],
            messages=[
                "this Python loop runs once per row of `w`, a traced array argument of `likelihood`, while JAX traces `likelihood`: it is unrolled, and compile time grows with the data size. Vectorise (`jax.vmap` the body) or use `lax.scan` over `w`",
            ],
        ),
        # over `a.size` (jax#7116: one copy of the body per element)
        Invalid(
            """
            import jax


            @jax.jit
            def double_each(a):
                for i in range(a.size):
                    a = a.at[i].set(2 * a[i])
                return a
            """,
            expected=[(6, 14)],
            messages=[
                "this Python loop runs once per element of `a.size` while JAX traces `double_each`: it is unrolled, and compile time grows with the data size. Vectorise, `jax.vmap` the body or use `lax.fori_loop`",
            ],
        ),
        # a local name bound to a dimension, arithmetic on one, `jnp.size(x)`
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def smooth(x):
                n = x.shape[0]
                for i in range(1, n - 1):
                    x = x.at[i].set((x[i - 1] + x[i + 1]) / 2)
                return [x[j] for j in range(jnp.size(x) // 2)]


            smooth_jit = jax.jit(smooth)
            """,
            expected=[(7, 14), (9, 27)],
            messages=[
                "this Python loop runs once per element of `n - 1` while JAX traces `smooth`: it is unrolled, and compile time grows with the data size. Vectorise, `jax.vmap` the body or use `lax.fori_loop`",
                "this Python loop runs once per element of `jnp.size(x) // 2` while JAX traces `smooth`: it is unrolled, and compile time grows with the data size. Vectorise, `jax.vmap` the body or use `lax.fori_loop`",
            ],
        ),
        # the same walks written other ways: a dimension unpacked from the shape and walked
        # backwards, the rows through `enumerate`/`zip`, Python's builtin `sum` over a
        # traced array in a helper (one add per row)
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def discounted(rewards, gamma):
                n_steps, batch = rewards.shape
                acc = jnp.zeros(batch)
                out = []
                for t in reversed(range(n_steps)):
                    acc = rewards[t] + gamma * acc
                    out.append(acc)
                return jnp.stack(out[::-1])


            def weighted_total(w, v):
                return sum(w * v)


            @jax.jit
            def loss(rewards: jax.Array, w: jax.Array):
                total = 0.0
                for i, row in enumerate(rewards):
                    total = total + weighted_total(w, row) * i
                for a, b in zip(rewards, w):
                    total = total + jnp.dot(a, b)
                return discounted(rewards, 0.9).sum() + total
            """,
            expected=[(9, 14), (16, 12), (22, 19), (24, 17)],
            messages=[
                "this Python loop runs once per element of `n_steps` while JAX traces `discounted`: it is unrolled, and compile time grows with the data size. Vectorise, `jax.vmap` the body or use `lax.fori_loop`",
                "Python's builtin `sum` adds the rows of `w * v`, a traced array (it depends on the argument `v`), one at a time while JAX traces `weighted_total`: one add per row is unrolled into the program, and compile time grows with the data size. Use `jnp.sum(w * v, axis=0)`",
                "this Python loop runs once per row of `rewards`, a traced array argument of `loss`, while JAX traces `loss`: it is unrolled, and compile time grows with the data size. Vectorise (`jax.vmap` the body) or use `lax.scan` over `rewards`",
                "this Python loop runs once per row of `rewards`, a traced array argument of `loss`, while JAX traces `loss`: it is unrolled, and compile time grows with the data size. Vectorise (`jax.vmap` the body) or use `lax.scan` over `rewards`",
            ],
        ),
        # counts computed from a static argument: arithmetic, a field of a static config,
        # `len()` of one, a local bound to one; consecutive pairs of a static grid
        Invalid(
            """
            from dataclasses import dataclass
            from functools import partial

            import jax
            import jax.numpy as jnp


            @dataclass(frozen=True)
            class Config:
                steps: int = 50
                grid: tuple = (0.0, 0.5, 1.0)


            @partial(jax.jit, static_argnames=("conf", "n"))
            def simulate(x, conf, n):
                for _ in range(2 * n):
                    x = jnp.sin(x)
                for i in range(len(conf.grid) - 1):
                    x = x * conf.grid[i]
                steps = conf.steps
                for _ in range(steps):
                    x = jnp.cos(x)
                return x


            @partial(jax.jit, static_argnums=(1,))
            def integrate(x, conf):
                a = conf.grid
                for a0, a1 in zip(a[:-1], a[1:]):
                    x = x + (a1 - a0) * jnp.sin(x)
                return x
            """,
            expected=[(16, 14), (18, 14), (21, 14), (29, 19)],
            messages=[
                "this Python loop runs `2 * n` times, computed from `n`, a static argument of `simulate`, while JAX traces `simulate`: it is unrolled into `2 * n` copies of its body, and every new value of `2 * n` compiles again. Use `lax.fori_loop(0, 2 * n, body, init)` (or `lax.scan`)",
                "this Python loop runs `len(conf.grid) - 1` times, computed from `conf`, a static argument of `simulate`, while JAX traces `simulate`: it is unrolled into `len(conf.grid) - 1` copies of its body, and every new value of `len(conf.grid) - 1` compiles again. Use `lax.fori_loop(0, len(conf.grid) - 1, body, init)` (or `lax.scan`)",
                "this Python loop runs `steps` times, computed from `conf`, a static argument of `simulate`, while JAX traces `simulate`: it is unrolled into `steps` copies of its body, and every new value of `steps` compiles again. Use `lax.fori_loop(0, steps, body, init)` (or `lax.scan`)",
                "this Python loop runs once per element of `a[:-1]`, computed from `conf`, a static argument of `integrate`, while JAX traces `integrate`: it is unrolled into one copy of its body per element, and every new value compiles again. Use `lax.scan` over `jnp.asarray(a[:-1])`",
            ],
        ),
    ]

    def check_range(self, it, bounds) -> None:
        for b in bounds:
            chooser = self._caller_sized(b)
            if chooser is None:
                root = self._from_caller(b)
                chooser = f"computed from {root}" if root is not None else None
            if chooser is not None:
                name = self.ctx.code(b).strip()
                again = (f"a caller that passes another `{name}` must make it static and compiles again for each value"
                         if "left at its default" in chooser else f"every new value of `{name}` compiles again")
                self.report(
                    it,
                    f"this Python loop runs `{name}` times, {chooser}, while JAX traces "
                    f"`{self.ctx.unit.name}`: it is unrolled into `{name}` copies of its body, and "
                    f"{again}. Use `lax.fori_loop(0, {name}, body, init)` (or `lax.scan`)",
                )
                return
        known = [static_number(self.ctx, self.ctx.unit, b) for b in bounds]
        if len(known) == 1 and isinstance(known[0], int) and known[0] >= self._jax502_limit():
            return  # `range(y.shape[0])` of an array of known shape, as long as JAX502's: JAX502's
        for b in bounds:
            if self._data_sized(b):
                self.report(
                    it,
                    f"this Python loop runs once per element of `{self.ctx.code(b).strip()}` while JAX "
                    f"traces `{self.ctx.unit.name}`: it is unrolled, and compile time grows with the "
                    f"data size. Vectorise, `jax.vmap` the body or use `lax.fori_loop`",
                )
                return

    def check_walked_range(self, it, bounds) -> None:
        self.check_range(it, bounds)  # `reversed(range(T - 1))`, `enumerate(range(len(x)))`

    def _traced_rows(self, it):
        """``(name, what)`` when ``it`` is a traced array that holds a parameter's data
        (its shape unknown): a loop over it runs once per row of its first axis."""
        ctx = self.ctx
        v = ctx.value(it)
        if not (v.traced and v.kind == V.ARRAY) or v.shape is not None:
            return None
        params = sorted(d for d in v.deps if ctx.unit.param(d) is not None)
        if not params:
            return None
        name = ctx.code(it).strip()
        what = (f"a traced array argument of `{ctx.unit.name}`" if name == params[0]
                else f"a traced array (it depends on the argument `{params[0]}`)")
        return name, what

    def check_iterable(self, it) -> None:
        """``for _x in w`` with ``w`` a traced array that holds a parameter's data (also
        through ``enumerate(w)``/``reversed(w)``/``zip(w, ...)``): one copy of the body
        per row of its first axis."""
        ctx = self.ctx
        inner = walked(ctx, it)
        if type(inner) is cst.Call and ctx.builtin_name(inner.func) == "zip":
            candidates = [a.value for a in inner.args if not a.star and a.keyword is None]
        else:
            candidates = [inner]
        for c in candidates:
            got = self._traced_rows(c)
            if got is None:
                if isinstance(c, cst.Subscript) and all(isinstance(el.slice, cst.Slice) for el in c.slice):
                    # `zip(a[:-1], a[1:])` with `a = conf.a_grid`, `conf` a static argument
                    root = self._from_caller(c)
                    if root is not None:
                        name = ctx.code(c).strip()
                        self.report(
                            it,
                            f"this Python loop runs once per element of `{name}`, computed from {root}, "
                            f"while JAX traces `{ctx.unit.name}`: it is unrolled into one copy of its body "
                            f"per element, and every new value compiles again. Use `lax.scan` over "
                            f"`jnp.asarray({name})`",
                        )
                        return
                continue
            name, what = got
            self.report(
                it,
                f"this Python loop runs once per row of `{name}`, {what}, while JAX traces "
                f"`{ctx.unit.name}`: it is unrolled, and compile time grows with the data size. "
                f"Vectorise (`jax.vmap` the body) or use `lax.scan` over `{name}`",
            )
            return

    def check_summed(self, call, arg) -> None:
        got = self._traced_rows(arg)
        if got is None:
            return
        name, what = got
        self.report(
            call,
            f"Python's builtin `sum` adds the rows of `{name}`, {what}, one at a time while JAX "
            f"traces `{self.ctx.unit.name}`: one add per row is unrolled into the program, and "
            f"compile time grows with the data size. Use `jnp.sum({name}, axis=0)`",
        )

    def _data_sized(self, b: cst.BaseExpression, depth: int = 0) -> bool:
        """A dimension or size of a traced array: `x.shape[k]`, `x.size`, `len(x)`,
        `jnp.size(x)`; integer arithmetic on one and literals (`x.shape[0] - 1`); a
        local name of the traced function bound once to one (`n = x.shape[0]`)."""
        ctx = self.ctx
        if isinstance(b, cst.Subscript) and isinstance(b.value, cst.Attribute) and b.value.attr.value == "shape":
            v = ctx.value(b.value.value)
            return v.traced or v.kind == V.ARRAY
        if isinstance(b, cst.Attribute) and b.attr.value == "size":
            v = ctx.value(b.value)  # an array's element count (not a field of a class it reads)
            return v.kind == V.ARRAY or (v.traced and v.cls is None)
        if isinstance(b, cst.Call) and ctx.builtin_name(b.func) == "len" and b.args:
            v = ctx.value(b.args[0].value)
            return v.traced and v.kind == V.ARRAY or (v.traced and v.kind == V.UNKNOWN and isinstance(b.args[0].value, cst.Name) and b.args[0].value.value in ctx.unit.traced_params)
        if isinstance(b, cst.Call) and ctx.qualname(b.func) in ("jax.numpy.size", "numpy.size") \
                and len(b.args) == 1 and not b.args[0].star and b.args[0].keyword is None:
            v = ctx.value(b.args[0].value)
            return v.kind == V.ARRAY or (v.traced and v.cls is None)
        if depth >= 3:
            return False
        if isinstance(b, cst.BinaryOperation) and isinstance(
            b.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide)
        ):
            sized = [self._data_sized(s, depth + 1) for s in (b.left, b.right)]
            return any(sized) and all(z or int_value(s) is not None for z, s in zip(sized, (b.left, b.right)))
        if isinstance(b, cst.Name):
            unit = ctx.unit
            if unit.param(b.value) is not None or b.value not in unit.assigned:
                return False
            bound = bound_once(ctx.index, unit, b)
            if bound is b:
                return self._unpacked_dimension(b.value)
            return self._data_sized(bound, depth + 1)
        return False

    def _unpacked_dimension(self, name: str) -> bool:
        """``name`` is bound once, by unpacking an array's shape: ``B, T = x.shape``,
        ``*_, n = jnp.shape(x)``."""
        ctx = self.ctx
        ws = writes(ctx.unit.node, name)
        if len(ws) != 1 or type(ws[0]) is not cst.Assign or len(ws[0].targets) != 1 \
                or type(ws[0].targets[0].target) not in (cst.Tuple, cst.List):
            return False
        if not any(type(e.value) is cst.Name and e.value.value == name and type(e) is cst.Element
                   for e in ws[0].targets[0].target.elements):
            return False
        value = ws[0].value
        if type(value) is cst.Attribute and value.attr.value == "shape":
            held = value.value
        elif type(value) is cst.Call and ctx.qualname(value.func) in ("jax.numpy.shape", "numpy.shape") \
                and len(value.args) == 1 and not value.args[0].star and value.args[0].keyword is None:
            held = value.args[0].value
        else:
            return False
        v = ctx.value(held)
        return v.kind == V.ARRAY or (v.traced and v.cls is None)

    def _jax502_limit(self) -> int:
        try:
            return int(self.ctx.settings.option("max-unrolled-loop", 100))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return 100

    def _from_caller(self, b: cst.BaseExpression, depth: int = 0) -> Optional[str]:
        """A count computed from what the caller chooses (`_caller_sized`): integer
        arithmetic on it and literals (`n - 1`, `2 * n`), a field of it (`conf.steps`),
        `len()` of one (`len(conf.a_grid)`), a local name bound once to one. What the
        root is, for the message; None otherwise."""
        if depth > 4:
            return None
        if isinstance(b, cst.BinaryOperation) and isinstance(
            b.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide)
        ):
            sides = [self._from_caller(s, depth + 1) for s in (b.left, b.right)]
            if any(sides) and all(w or int_value(s) is not None for w, s in zip(sides, (b.left, b.right))):
                return next(w for w in sides if w)
            return None
        if isinstance(b, cst.Call) and self.ctx.builtin_name(b.func) == "len" and len(b.args) == 1 \
                and not b.args[0].star and b.args[0].keyword is None:
            return self._from_caller(b.args[0].value, depth + 1)
        if isinstance(b, cst.Subscript) and all(isinstance(el.slice, cst.Slice) for el in b.slice):
            return self._from_caller(b.value, depth + 1)  # `conf.a_grid[1:]`
        if isinstance(b, cst.Attribute):
            built = self._constructor_sized(b)
            if built is not None:
                return built
            root = b
            while isinstance(root, cst.Attribute):
                root = root.value
            if not isinstance(root, cst.Name):
                return None
            chooser = self._caller_sized(root)
            return f"`{root.value}`, {chooser}" if chooser is not None else None
        if isinstance(b, cst.Name):
            chooser = self._caller_sized(b)
            if chooser is not None:
                return f"`{b.value}`, {chooser}" if depth else None  # a bare name: _caller_sized's own
            unit = self.ctx.unit
            if unit.param(b.value) is not None or b.value not in unit.assigned:
                return None
            bound = bound_once(self.ctx.index, unit, b)
            if bound is None or bound is b:
                return None
            return self._from_caller(bound, depth + 1)
        return None

    def _constructor_sized(self, b: cst.Attribute) -> Optional[str]:
        """``self.layers`` (in ``range(len(self.layers))``) or ``self.n_layers`` in a method
        of a class whose ``__init__`` binds that attribute once, to a list it builds with one
        element per step of ``range(n)`` (``for i in range(n): layers.append(...)``, ``[... for
        _ in range(n)]``) or to ``n`` itself, with ``n`` a parameter of ``__init__``: the
        caller chooses the count when it builds the object (flowMC's ``RealNVP(n_features,
        n_layers, ...)``).  What that is, for the message; None otherwise."""
        ctx = self.ctx
        unit = ctx.unit
        cls = unit.cls
        if cls is None or not isinstance(b.value, cst.Name) or not unit.params \
                or b.value.value != unit.params[0].name:
            return None
        init = cls.methods.get("__init__")
        if init is None or not isinstance(init.node, cst.FunctionDef) or not init.params:
            return None
        me = init.params[0].name
        attr = b.attr.value
        stores = [n for n in walk_tree(init.node.body)
                  if isinstance(n, cst.Assign) and len(n.targets) == 1 and isinstance(n.targets[0].target, cst.Attribute)
                  and isinstance(n.targets[0].target.value, cst.Name) and n.targets[0].target.value.value == me
                  and n.targets[0].target.attr.value == attr]
        if len(stores) != 1:
            return None
        value = stores[0].value
        params = {p.name for p in init.params[1:]}

        def count_param(it: cst.BaseExpression) -> Optional[str]:
            # `range(n)` with `n` a parameter of `__init__` that it never rebinds
            if isinstance(it, cst.Call) and ctx.builtin_name(it.func) == "range" and len(it.args) == 1 \
                    and isinstance(it.args[0].value, cst.Name) and it.args[0].value.value in params \
                    and it.args[0].value.value not in init.assigned:
                return it.args[0].value.value
            return None

        n = None
        if isinstance(value, cst.Name) and value.value in params and value.value not in init.assigned:
            n = value.value  # `self.n_layers = n_layers`
        elif isinstance(value, cst.ListComp) and value.for_in.inner_for_in is None and not value.for_in.ifs:
            n = count_param(value.for_in.iter)
        elif isinstance(value, cst.Name) and value.value in init.assigned:
            # `layers = []`, then `layers.append(...)` once per step of `for i in range(n)`
            lst = value.value
            binds = [m for m in walk_tree(init.node.body) if isinstance(m, cst.Assign) and any(
                isinstance(t.target, cst.Name) and t.target.value == lst for t in m.targets)]
            if len(binds) != 1 or not isinstance(binds[0].value, cst.List) or binds[0].value.elements:
                return None
            adds = [m for m in walk_tree(init.node.body) if isinstance(m, cst.Call) and isinstance(m.func, cst.Attribute)
                    and isinstance(m.func.value, cst.Name) and m.func.value.value == lst]
            if len(adds) != 1 or adds[0].func.attr.value != "append":
                return None
            loops = [m for m in walk_tree(init.node.body) if isinstance(m, cst.For)
                     and any(x is adds[0] for x in walk_tree(m.body))]
            if len(loops) != 1 or any(isinstance(x, (cst.If, cst.Break, cst.Continue)) and any(
                    y is adds[0] for y in walk_tree(x)) for x in walk_tree(loops[0].body)):
                return None
            n = count_param(loops[0].iter)
        if n is None:
            return None
        return (f"the length of `{ctx.code(b).strip()}`, which `{cls.name}.__init__` sets from its "
                f"parameter `{n}`" if not (isinstance(value, cst.Name) and value.value == n) else
                f"`{ctx.code(b).strip()}`, which `{cls.name}.__init__` sets from its parameter `{n}`")

    def _caller_sized(self, b: cst.BaseExpression) -> Optional[str]:
        """The loop count is a value the caller chooses: a static argument of the traced
        function (`static_argnums`/`static_argnames`), or a parameter of the function
        that builds it (`def make(n): @jax.jit def f(x): for i in range(n)`).  What that
        is, for the message; None otherwise."""
        if not isinstance(b, cst.Name):
            return None
        unit = self.ctx.unit
        name = b.value
        if unit.param(name) is not None:
            if name in unit.static_params and name not in unit.assigned:
                return f"a static argument of `{unit.name}`"
            if name in unit.defaulted_params and name not in unit.traced_params and name not in unit.assigned:
                # `def f(x, n=N)` under jit, no call passing `n`: the signature lets a
                # caller choose the count (as a static argument); JAX502 reports a known
                # default at or above its threshold
                n = static_number(self.ctx, unit, b)
                if isinstance(n, int) and n >= self._jax502_limit():
                    return None
                known = f" ({n})" if isinstance(n, int) else ""
                return f"a parameter of `{unit.name}` left at its default{known}"
            return None
        if name in unit.assigned or unit.parent is None:
            return None
        outer = unit.parent
        while outer is not None and not outer.is_module:
            if name in outer.assigned and outer.param(name) is None:
                return None
            p = outer.param(name)
            if p is not None:
                if outer.traced_params and name in outer.traced_params:
                    return None  # traced there: `range` of it fails (JAX202), not unrolled
                return f"a parameter of `{outer.name}`, which builds the traced function"
            outer = outer.parent
        return None
