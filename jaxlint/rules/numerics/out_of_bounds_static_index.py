"""JAX121 out-of-bounds-static-index: A literal index outside an array of known shape: JAX clamps reads, drops `.at[]` updates, `take` fills NaN."""

from __future__ import annotations

import math
from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid, assignment_targets
from jaxlint.findings import Severity
from jaxlint.model import values as V
from jaxlint.model.walk import arg_at, descendants, int_value, keyword_arg


_WINDOWS = frozenset({"jax.lax.dynamic_slice", "jax.lax.dynamic_slice_in_dim", "jax.lax.dynamic_update_slice"})
_AT_DROP = frozenset({"set", "add", "subtract", "multiply", "mul", "divide", "power", "min", "max", "apply"})


class StaticOutOfBoundsIndex(Rule):
    code = "JAX121"
    name = "out-of-bounds-static-index"
    runtime_check = '`checkify(errors=index_checks)`: confirmed when it reports an out-of-bounds index at the flagged line.'
    summary = "A literal index outside an array of known shape: JAX clamps reads, drops `.at[]` updates, `take` fills NaN"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Out-of-Bounds Indexing (seed 000)"
    what_it_does = (
        "Flags integer-literal indices (negative too), and names bound once to an integer literal "
        "(`NUM_CLASSES = 10` at module level, a local `n = 3`), that are out of bounds for an array whose "
        "shape is known from a literal constructor in the same scope (`jnp.arange(10)`, "
        "`jnp.zeros((3, 4))`, `jnp.arange(NUM_CLASSES)`, `jnp.ones(5)`, `jnp.array([...])`, `jnp.eye(3)`, `jnp.linspace(0, "
        "1, 5)`, a `jax.random` sampler given a literal shape: `random.normal(key, (10, 10))`): `x[11]`, `x[0, 7]`, `x.at[11].set(v)`, `x.at[11].get()` and `jnp.take(x, "
        "11)`. The shape is followed through `x.reshape(500, 4, 4)` / `jnp.reshape`, "
        "`jnp.split`/`jnp.array_split` into a known number of pieces, and `jnp.array`/`jnp.stack` "
        "of pieces of one shape, and through calls that keep it: element-wise functions "
        "(`jnp.exp(c)`, `jnp.abs`, `lax.sqrt`, `jax.nn.relu`/`softmax`...), two-operand ones that "
        "broadcast (`jnp.maximum(c, 0.5)`), `jnp.sort`/`argsort`/`flip`/`roll` (`jnp.argsort(c)[300]`), "
        "`jnp.cumsum` (flat unless given an axis), and conversions (`jnp.array(np.arange(10))`, "
        "`jnp.asarray`, `np.asarray`, `jax.device_put`; not with `ndmin=`); sizes may be integer arithmetic on literals and constants "
        "(`jnp.arange(5 * 100)`).\n\n"
        "At a call of a jitted function of the file that reads `x[i]` with both `x` and `i` "
        "its traced parameters, the index and the shape passed there are checked too: "
        "`f(np.arange(10), 13)` (NumPy's literal constructors give shapes as jax.numpy's do). "
        "Index arrays whose values the model knows are checked the same way: `jnp.arange`/"
        "`np.arange` of integers (constants and integer arithmetic too) and `jnp.array`/"
        "`np.array` of an integer display, in a subscript (`x[np.arange(7)]`), an `.at[...]` "
        "update or `jnp.take(x, jnp.arange(15))` (reported at the call: the whole gather fills). "
        "The data's shape is kept through `x.astype(...)`, `x.copy()`, `x.clip(...)`.\n\n"
        "Shapes are also followed through arithmetic (`params * obs` broadcasts, `batch @ w` "
        "contracts) and into the parameters of a function of the file when every use of its "
        "name is a call (direct, `jax.jit(f)(...)`, `jax.grad(f)(...)`/`value_and_grad`, an "
        "ahead-of-time stage that traces it with the arguments it is given: `jax.jit(f).lower(x, u)`, "
        "`.trace(...)`, `.eval_shape(...)`, `jax.eval_shape(f, x)`, `jax.make_jaxpr(f)(x)`; "
        "`jax.vmap(f, in_axes=(0, None))(xs, i)`, whose function sees each argument without its "
        "mapped axis, an unmapped one whole, with `in_axes` a literal; a "
        "`@jax.jit` def, a name bound once to `jax.jit(lambda a: ...)`, a name one scope binds once to "
        "a shape-keeping transformation of the function and only calls: `fast = jax.jit(step)` then "
        "`fast(state, 1)`), every call passes the "
        "same known shape, no argument is rebound by a loop around the call and no other "
        "module uses the function. `lax.dynamic_slice(x, [5], [1])`, `lax.dynamic_slice_in_dim` "
        "and `lax.dynamic_update_slice` with literal starts are checked the same way: a window "
        "that does not fit has its start moved back (jax#3621).\n\n"
        "Shapes and integers also come through calls and attributes (`model/returns.py`): what a "
        "helper of the file returns for the call (`def make(): return jnp.zeros((3, 4))` then "
        "`make()[5]`; its parameters bound to the call's arguments, defaults to their defaults, "
        "its straight-line assignments in order), `self.attr` assigned once, in `__init__`/`setup` "
        "(`self.data = jnp.arange(8)` then `self.data[8]` in another method), an array a dict holds under "
        "a literal key (`buf = {\"obs\": jnp.zeros((8, 3))}` or `buf = init_buffer()` of a helper returning "
        "one, then `buf[\"obs\"][8]`; not once the entry is assigned, the dict updated or handed on), a constant or an "
        "argument-free helper of another module of the project (`from sim.settings import GRID, "
        "make_grid`; `config.CAPACITY` of `import config`, also as a length: `jnp.arange(config.CAPACITY)`), "
        "and integer indices the model knows (`n = y.shape[0]`, `len()` of a tuple, a "
        "dataclass field's default, an integer or a scalar array of one (`jnp.array(8)`) that every call "
        "of the function in the file passes: `def pick(v, i): return v[i]` called as `pick(frames, 12)`, "
        "a window start of `jax.jit(window)(frames, jnp.array(8))`). A loop variable of a `range` of "
        "known integers, and `i + 1`, `i - 1`, `2 * i` of one, is an index from its first to its last "
        "value: `for i in range(N + 1): x = x.at[i].set(v)` on `jnp.zeros(N)` drops the last update, "
        "`grid[i + 1]` for `i in range(8)` on 8 points reads the last one twice; unless a test in the "
        "loop looks at the variable (`if i < N:`, `if i == N: break`, `... if i < N else`) or the array "
        "is rebound in the loop other than by `.at[]` updates of itself.\n\n"
        "An `.at[]` update with `mode=\"drop\"` (or `\"fill\"`) whose index is a negative integer "
        "the model knows (a literal, a module constant, an index array of known values: "
        "`.at[jnp.array([0, -1])].set(v, mode=\"drop\")`) within `-size..-1` is flagged too: such "
        "an index is meant as a sentinel to drop, but JAX wraps it to `size + i` and updates that "
        "element (only indices below `-size` or from `size` on are dropped); not with "
        "`wrap_negative_indices=False`.\n\n"
        "Arrays of unknown shape (arguments, results of other calls) are never checked."
    )
    why_bad = (
        "JAX does not raise `IndexError` for out-of-bounds indices, eagerly or under `jit`, "
        "because accelerators cannot raise from inside a computation:\n\n"
        "* reads clamp: `jnp.arange(10)[11]` is `Array(9)` and `[-11]` is `Array(0)`;\n"
        "* `.at[11].set(99)` (and `.add`, ...) silently drops the update;\n"
        "* `jnp.take(jnp.arange(10), 11)` returns `-2147483648` (INT_MIN) and "
        "`jnp.take(jnp.arange(10.), 11)` returns `nan`: `take` defaults to `mode='fill'`.\n\n"
        "The program runs on with a wrong value."
    )
    use_instead = "```python\nx = jnp.arange(10)\nlast = x[9]  # or x[-1]\nx = x.at[9].set(0)\n```\n\nTo check indices that are only known at run time, use `jax.experimental.checkify` with `errors=checkify.index_checks`."
    fix_safety = "No automatic fix: the intended index is unknown."
    VALID = [
        # drop-mode updates whose sentinel really is out of bounds, or that do not wrap
        Valid(
            """
            import jax.numpy as jnp

            x = jnp.zeros(4)
            a = x.at[-5].set(1.0, mode="drop")
            b = x.at[jnp.array([0, 4])].add(1.0, mode="drop")
            c = x.at[jnp.array([0, -1])].set(1.0, mode="drop", wrap_negative_indices=False)
            d = x.at[-1].set(1.0, mode="clip")
            e = x.at[-1].set(1.0)
            """
        ),
        # in bounds, or a sampler whose shape is not a literal
        Valid(
            """
            import jax

            def f(key, shape):
                a = jax.random.normal(key, (10, 10))
                b = jax.random.uniform(key, shape)
                return a[9, :], a[-10], b[10]
            """
        ),
        # constants in bounds, a loop variable in bounds; names that are not constants
        # (bound twice, rebound through `global`) are never checked
        Valid(
            """
            import jax.numpy as jnp

            NUM_CLASSES = 10
            LIMIT = 40

            def shrink():
                global LIMIT
                LIMIT = 4

            def f(k):
                logits = jnp.arange(NUM_CLASSES)
                small = jnp.zeros(3)
                n = 3
                n = 2
                last = logits[NUM_CLASSES - 1] + small[n] + logits[LIMIT * 0 + 9]
                for i in range(10):
                    last = last + logits[i]
                return last + logits[LIMIT] + logits[k]
            """
        ),
        Valid(
            """
            import jax.numpy as jnp

            x = jnp.arange(10)
            a = x[9] + x[-10] + x[2:20]
            y = x.at[9].set(0)
            z = jnp.take(x, 3)
            """
        ),
        Valid(
            """
            import jax.numpy as jnp

            m = jnp.zeros((3, 4))
            v = m[2, 3] + m[..., 5 - 2] + m[:, 0]
            """
        ),
        # shape unknown: an argument
        Valid(
            """
            import jax.numpy as jnp

            def f(x):
                return x[11]
            """
        ),
        # a helper whose shape the call chooses, an attribute set again outside `__init__`
        Valid(
            """
            import jax.numpy as jnp


            def make_steps(n=5):
                return jnp.arange(n)


            class Ring:
                def __init__(self):
                    self.data = jnp.arange(8)

                def last(self):
                    return self.data[8]


            def grow(r):
                r.data = jnp.arange(16)


            print(make_steps(10)[7])
            """
        ),
        # rebinding to something of unknown shape
        Valid(
            """
            import jax.numpy as jnp

            x = jnp.arange(3)
            x = jnp.concatenate([x, x, x, x])
            y = x[11]
            """
        ),
        # call sites: in bounds; a plain function called with a NumPy array raises
        # IndexError itself; an index the jitted function rebinds first
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np

            @jax.jit
            def f(x, i):
                return x[i]

            def g(x, i):
                return x[i]

            @jax.jit
            def h(x, i):
                i = i % x.shape[0]
                return x[i]

            a = f(np.arange(10), 9) + f(jnp.arange(10), -10)
            b = g(np.arange(10), 13) + h(np.arange(10), 13)
            c = jnp.split(jnp.arange(12).reshape(3, -1), [1], axis=1)[1][0, 2]
            """
        ),
        # index arrays in bounds (negative ones too), `mode="clip"`, a size not known, a boolean mask
        Valid(
            """
            import jax.numpy as jnp
            import numpy as np


            def f(n):
                x = jnp.arange(10.0)
                a = jnp.take(x, jnp.arange(10)), jnp.take(x, jnp.arange(12), mode="clip")
                b = x[jnp.arange(-10, 0)], x[np.arange(0, 10, 2)], x[jnp.arange(n)]
                mask = x[jnp.array([True, False, True, False, True, False, True, False, True, True])]
                grid = jnp.zeros((3, 4))
                c = grid[:, jnp.array([0, 3])], grid.at[jnp.array([2, -3])].get()
                return a, b, mask, c
            """
        ),
        # shapes from the calls only when every call passes one shape and every use is a call:
        # an argument rebound in the loop around the call, two shapes, a function passed to map;
        # windows that fit (a negative start counts from the end)
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np
            from jax import lax


            @jax.jit
            def first_row(x):
                return x[5]


            def loss(w, batch):
                return jnp.sum((batch @ w)[8])


            x = jnp.ones((6,))
            for i in range(3):
                print(first_row(x))
                x = jnp.concatenate([x, x, x])
            print(first_row(jnp.ones(6)))
            print(jax.jit(loss)(jnp.zeros((3, 2)), jnp.ones((9, 3))), jax.jit(loss)(jnp.zeros((3, 2)), jnp.ones((12, 3))))
            print(list(map(loss, [jnp.zeros((3, 2))], [jnp.ones((8, 3))])))
            window = jax.jit(lambda a: lax.dynamic_slice(a, [4], [2]) + lax.dynamic_slice(a, [-1], [1]))
            print(window(np.arange(6)))
            """
        ),
        # in bounds after the shape-keeping calls; `jnp.sort(c, axis=None)` and `jnp.cumsum`
        # flatten; an operand of unknown shape broadcast in
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def top(m, other):
                c = jnp.zeros((4, 8))
                return jnp.sort(c, axis=None)[31], jnp.cumsum(c)[31], jnp.maximum(c, other)[9], jax.nn.relu(c)[3, 7]
            """
        ),
        # the same stages with windows that fit, and a function staged with two shapes
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def place(x, update):
                return jax.lax.dynamic_update_slice(x, update, [0, 1])


            def paste(x, patch):
                return jax.lax.dynamic_update_slice(x, patch, (2, 0))


            print(jax.jit(place).lower(jnp.zeros((2, 3)), jnp.ones((2, 2))).as_text())
            print(jax.jit(paste).trace(jnp.zeros((3, 4)), jnp.ones((2, 4))).jaxpr)
            print(jax.jit(paste).trace(jnp.zeros((4, 4)), jnp.ones((2, 4))).jaxpr)
            """
        ),
    ]

    INVALID = [
        # a negative sentinel in a drop-mode update: JAX wraps it (the update lands on the
        # last element); a literal, an index array, a module constant on a later axis
        Invalid(
            """
            import jax.numpy as jnp

            DISCARD = -1

            out = jnp.array([0.0]).at[jnp.array([-1])].add(jnp.array([1.0]), mode="drop")
            x = jnp.zeros(4).at[-1].set(5.0, mode="fill")
            g = jnp.zeros((3, 3)).at[0, DISCARD].set(1.0, mode="drop")
            """,
            expected=[(5, 27), (6, 21), (7, 29)],
            messages=[
                "the index array `jnp.array([-1])` holds -1, which is not dropped by `mode=\"drop\"`: JAX wraps a negative index (here to 0 on axis 0 with size 1; only indices below -1 or from 1 on are dropped), so `.at[...].add(...)` updates that element. Use an index >= 1 as the sentinel to drop, or pass `wrap_negative_indices=False`",
                "index -1 is not dropped by `mode=\"fill\"`: JAX wraps a negative index (here to 3 on axis 0 with size 4; only indices below -4 or from 4 on are dropped), so `.at[...].set(...)` updates that element. Use an index >= 4 as the sentinel to drop, or pass `wrap_negative_indices=False`",
                "index -1 is not dropped by `mode=\"drop\"`: JAX wraps a negative index (here to 2 on axis 1 with size 3; only indices below -3 or from 3 on are dropped), so `.at[...].set(...)` updates that element. Use an index >= 3 as the sentinel to drop, or pass `wrap_negative_indices=False`",
            ],
        ),
        # a function called through a name bound to its jit: the shape every call passes
        Invalid(
            """
            import jax


            def step(state, action):
                return state[4] * action


            state = jax.random.uniform(jax.random.key(0), (4,))
            fast_step = jax.jit(step)
            print(fast_step(state, 1))
            """,
            expected=[(5, 18)],
            messages=[
                "index 4 is out of bounds for axis 0 with size 4, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
            ],
        ),
        # a function traced by `jax.jit(f).lower(...)` and `jax.eval_shape(f, ...)` with
        # arrays of known shape: the 2x2 update at [1, 1] of a 2x3 array lands on row 0
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def place(x, update):
                return jax.lax.dynamic_update_slice(x, update, [1, 1])


            def window(x):
                return jax.lax.dynamic_slice(x, (0, 3), (2, 2))


            print(jax.jit(place).lower(jnp.zeros((2, 3)), jnp.ones((2, 2))).as_text())
            print(jax.eval_shape(window, jnp.zeros((3, 4))))
            """,
            expected=[(6, 52), (10, 38)],
            messages=[
                "start 1 with update size 2 does not fit axis 0 of size 2, and JAX raises no IndexError: `lax.dynamic_update_slice` moves the start back to 0 so that the update fits (it writes a different window)",
                "start 3 with slice size 2 does not fit axis 1 of size 4, and JAX raises no IndexError: `lax.dynamic_slice` moves the start back to 2 so that the slice fits (it reads a different window)",
            ],
        ),
        # the shape given to a jax.random sampler
        Invalid(
            """
            import jax.random as random

            a = random.normal(random.PRNGKey(2020), (10, 10))
            row = a[10, :]
            labels = random.randint(random.PRNGKey(0), (8,), 0, 5)
            last = labels[8]
            """,
            expected=[(4, 9), (6, 15)],
            messages=[
                "index 10 is out of bounds for axis 0 with size 10, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
                "index 8 is out of bounds for axis 0 with size 8, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
            ],
        ),
        Invalid(
            """
            import jax.numpy as jnp

            NUM_CLASSES = 10

            def background_logit():
                logits = jnp.arange(NUM_CLASSES, dtype=jnp.float32)
                flags = jnp.zeros((3, 4))
                n = 3
                return logits[NUM_CLASSES], flags.at[n].set(1.0)
            """,
            expected=[(9, 19), (9, 42)],
            messages=[
                "index 10 is out of bounds for axis 0 with size 10, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
                "index 3 is out of bounds for axis 0 with size 3, and JAX raises no IndexError: `.at[...].set(...)` silently drops the update",
            ],
        ),
        Invalid(
            """
            import jax.numpy as jnp

            x = jnp.arange(10)
            print(x[11], x[-11])
            """,
            expected=[(4, 9), (4, 16)],
            messages=[
                "index 11 is out of bounds for axis 0 with size 10, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
                "index -11 is out of bounds for axis 0 with size 10, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(v):
                buf = jnp.zeros((4, 3))
                buf = buf.at[1, 3].set(v)
                return jnp.take(jnp.arange(10.0), 10) + buf
            """,
            expected=[(7, 21), (8, 39)],
            messages=[
                "index 3 is out of bounds for axis 1 with size 3, and JAX raises no IndexError: `.at[...].set(...)` silently drops the update",
                "index 10 is out of bounds for axis 0 with size 10, and JAX raises no IndexError: `jnp.take` defaults to mode='fill' and returns NaN for floats, INT_MIN (-2147483648) for int32",
            ],
        ),
        Invalid(
            """
            import jax.numpy as jnp

            w = jnp.array([[1, 2], [3, 4]])
            print(w[2][0])
            """,
            expected=[(4, 9)],
            messages=[
                "index 2 is out of bounds for axis 0 with size 2, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
            ],
        ),
        # the shape of a jax.random sample (positional or `shape=`), through an alias
        Invalid(
            """
            import jax.random as jr

            a = jr.normal(jr.PRNGKey(0), (10, 10))
            b = jr.uniform(jr.PRNGKey(1), shape=(4,))
            row = a[10, :]
            last = b[4]
            ok = a[9, :] + b[3]
            """,
            expected=[(5, 9), (6, 10)],
            messages=[
                "index 10 is out of bounds for axis 0 with size 10, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
                "index 4 is out of bounds for axis 0 with size 4, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
            ],
        ),
        # the shape through reshape, array_split/split and stacking the pieces back
        Invalid(
            """
            import jax.numpy as jnp

            array = jnp.arange(5 * 100 * 4 * 4, dtype=jnp.float32).reshape(500, 4, 4)
            x = jnp.array(jnp.array_split(array, 5))
            last = x[5]
            parts = jnp.split(jnp.arange(12).reshape(3, -1), [1], axis=1)
            cell = parts[1][0, 3]
            pair = jnp.stack([jnp.ones(3), jnp.zeros(3)])
            third = pair[2]
            """,
            expected=[(5, 10), (7, 20), (9, 14)],
            messages=[
                "index 5 is out of bounds for axis 0 with size 5, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
                "index 3 is out of bounds for axis 1 with size 3, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
                "index 2 is out of bounds for axis 0 with size 2, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
            ],
        ),
        # the index and the shape known where a jitted function is called
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np

            @jax.jit
            def f(x, i):
                return x[i]

            @jax.jit
            def cell(m, r, c):
                return m[r, c]

            print(f(np.arange(10), 13), cell(jnp.zeros((3, 4)), c=4, r=0))
            """,
            expected=[(13, 24), (13, 55)],
            messages=[
                "index 13, passed to `f` as `i`, is out of bounds for axis 0 with size 10 of `x` (`x[i]` in `f`), and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
                "index 4, passed to `cell` as `c`, is out of bounds for axis 1 with size 4 of `m` (`m[r, c]` in `cell`), and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
            ],
        ),
        # an index array of known values (`jnp.arange`, an integer `jnp.array` display) past the end of the data: `take` fills (jax#10333, jax#16899)
        Invalid(
            """
            import jax.numpy as jnp

            values = jnp.arange(5).astype(float)
            out = jnp.take(
                values,
                jnp.arange(5 * 3),
                axis=0,
            )
            pair = jnp.take(values, jnp.array([0, -6]))
            """,
            expected=[(4, 7), (9, 8)],
            messages=[
                "the index array `jnp.arange(5 * 3)` holds 14 (its values run from 0 to 14), out of bounds for axis 0 with size 5, and JAX raises no IndexError: `jnp.take` defaults to mode='fill' and returns NaN for floats, INT_MIN (-2147483648) for int32",
                "the index array `jnp.array([0, -6])` holds -6 (its values run from -6 to 0), out of bounds for axis 0 with size 5, and JAX raises no IndexError: `jnp.take` defaults to mode='fill' and returns NaN for floats, INT_MIN (-2147483648) for int32",
            ],
        ),
        # the same in subscripts: a read clamps, an `.at[...]` update is dropped
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np


            @jax.jit
            def f(v):
                table = jnp.zeros((4, 3))
                rows = table[np.arange(6)]
                table = table.at[jnp.array([0, 4])].set(v)
                return rows, table
            """,
            expected=[(9, 18), (10, 22)],
            messages=[
                "the index array `np.arange(6)` holds 5 (its values run from 0 to 5), out of bounds for axis 0 with size 4, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
                "the index array `jnp.array([0, 4])` holds 4 (its values run from 0 to 4), out of bounds for axis 0 with size 4, and JAX raises no IndexError: `.at[...].set(...)` silently drops the update",
            ],
        ),
        # the shapes every call passes: a jitted function called with arrays of known shape, the
        # shape through `@` and broadcasting, and on to a helper differentiated inside it
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def loss(w, batch):
                logits = batch @ w
                return jnp.sum(logits[8] + w[3])


            @jax.jit
            def step(w, batch):
                value, grad = jax.value_and_grad(loss)(w, batch)
                return w - 0.1 * grad


            w0 = jnp.zeros((3, 2))
            batch = jnp.ones((8, 3))
            w1 = step(w0, batch)
            """,
            expected=[(7, 27), (7, 34)],
            messages=[
                "index 8 is out of bounds for axis 0 with size 8, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
                "index 3 is out of bounds for axis 0 with size 3, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
            ],
        ),
        # a window that does not fit: lax.dynamic_slice in a jitted lambda called with a NumPy
        # literal, lax.dynamic_update_slice in a function jitted where it is called
        Invalid(
            """
            import jax
            import numpy as np
            from jax import lax

            v = np.array([1, 2])
            window = jax.jit(lambda a: lax.dynamic_slice(a, [5], [1]))


            def write(buf, row):
                return lax.dynamic_update_slice(buf, row, (2, 0))


            print(window(v), jax.jit(write)(np.zeros((3, 4)), np.ones((2, 4))))
            """,
            expected=[(6, 49), (10, 48)],
            messages=[
                "start 5 with slice size 1 does not fit axis 0 of size 2, and JAX raises no IndexError: `lax.dynamic_slice` moves the start back to 1 so that the slice fits (it reads a different window)",
                "start 2 with update size 2 does not fit axis 0 of size 3, and JAX raises no IndexError: `lax.dynamic_update_slice` moves the start back to 1 so that the update fits (it writes a different window)",
            ],
        ),
        # shapes through a helper's return, an attribute set in `__init__`, a known dimension
        Invalid(
            """
            import jax.numpy as jnp


            def make_steps(n=5):
                steps = jnp.arange(n)
                return steps * 2


            class Ring:
                def __init__(self):
                    self.data = jnp.zeros((4, 3))
                    self.rows = self.data.shape[0]

                def last(self):
                    return self.data[self.rows]


            print(make_steps()[7], Ring().last())
            """,
            expected=[(15, 26), (18, 20)],
            messages=[
                "index 4 is out of bounds for axis 0 with size 4, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
                "index 7 is out of bounds for axis 0 with size 5, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
            ],
        ),
        # the shape is kept through element-wise and sorting calls
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def top(scores):
                c = jnp.zeros(256)
                order = jnp.argsort(c)
                probs = jax.nn.softmax(c)
                bounded = jnp.maximum(jnp.exp(c), 0.5)
                return order[300], probs[-257], bounded[256], jnp.cumsum(jnp.ones((4, 8)))[31], jnp.sort(c)[255]
            """,
            expected=[(10, 18), (10, 30), (10, 45)],
            messages=[
                "index 300 is out of bounds for axis 0 with size 256, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
                "index -257 is out of bounds for axis 0 with size 256, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
                "index 256 is out of bounds for axis 0 with size 256, and JAX raises no IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._skip: set[int] = set()
        self._indexed: dict[int, list[tuple[str, str, int, cst.Subscript]]] = {}

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in assignment_targets(node):
            self._skip.add(id(t))

    visit_AugAssign = visit_Assign

    def _shape(self, arr: cst.CSTNode):
        v = self.ctx.value(arr)
        if v.kind != V.ARRAY or v.shape is None:
            return None
        return v.shape

    def _check(self, sub: cst.Subscript, shape, what: str) -> None:
        for dim, s, size in _indexed_dims(sub, shape):
            i = self.ctx.constant_int(s.value)
            if i is None:
                arr = sub.value.value if isinstance(sub.value, cst.Attribute) and sub.value.attr.value == "at" else sub.value
                known = self._index_range(s.value, arr)
                if known is not None and isinstance(s.value, cst.Name) and self.ctx.unit.jit_root \
                        and self.ctx.unit.param(s.value.value) is not None:
                    return  # what the calls of this jit pass: reported at the call (`_call_site`)
                if known is None:
                    return
                if known[1] >= size or known[0] < -size:
                    self._report_range(s.value, s.value, known, dim, size, what)
                    return
            elif i >= size or i < -size:
                self._report_index(s.value, i, dim, size, what)
                return

    def _check_wrapped(self, sub: cst.Subscript, shape, op: str, mode: str) -> None:
        """`x.at[-1].add(v, mode="drop")`: a negative index the update means to drop (an
        off-grid sentinel) is in bounds for JAX, which wraps it (only indices below
        `-size` or from `size` on are dropped): the update lands on the last elements."""
        for dim, s, size in _indexed_dims(sub, shape):
            i = self.ctx.constant_int(s.value)
            held = f"index {i}"
            if i is None:
                v = self.ctx.value(s.value)
                # an index array of known values (`jnp.array([-1])`), not a loop variable
                known = v.int_range if v.kind == V.ARRAY else None
                i = known[0] if known is not None else None
                held = f"the index array `{self.ctx.code(s.value).strip()}` holds {i}, which"
            if i is not None and -size <= i < 0:
                self.report(
                    s.value,
                    f"{held} is not dropped by `mode=\"{mode}\"`: JAX wraps a negative index (here to "
                    f"{i + size} on axis {dim} with size {size}; only indices below {-size} or from {size} "
                    f"on are dropped), so `.at[...].{op}(...)` updates that element. Use an index >= {size} "
                    f"as the sentinel to drop, or pass `wrap_negative_indices=False`",
                )
                return

    def _index_range(self, node: cst.CSTNode, arr: Optional[cst.CSTNode] = None):
        """(smallest, largest) value of an integer index array built from literals
        (`jnp.arange(7)`, `np.array([0, 9])`), or of a loop variable of a `range` of
        known integers (`i`, `i + 1`) that no test in the loop looks at; else None."""
        v = self.ctx.value(node)
        if v.kind == V.STATIC and v.shape is None and v.int_range is not None \
                and (self._guarded(node) or not self._shape_kept(arr)):
            return None
        return v.int_range if v.kind in (V.ARRAY, V.STATIC) else None

    def _shape_kept(self, arr: Optional[cst.CSTNode]) -> bool:
        """Does the array indexed in a loop keep its shape from one iteration to the next:
        a name the loops around rebind only by `.at[...]` updates of itself (`x = x.at[i].set(v)`)?"""
        if not isinstance(arr, cst.Name):
            return False
        name = arr.value
        for frame in self.ctx.loop_stack:
            for n in descendants(frame.node):
                if isinstance(n, cst.AugAssign) and isinstance(n.target, cst.Name) and n.target.value == name:
                    return False
                if isinstance(n, (cst.For, cst.CompFor)) and any(
                        isinstance(m, cst.Name) and m.value == name for m in (n.target, *descendants(n.target))):
                    return False
                if not isinstance(n, cst.Assign):
                    continue
                for t in n.targets:
                    if not any(isinstance(m, cst.Name) and m.value == name for m in (t.target, *descendants(t.target))):
                        continue
                    v = n.value
                    if isinstance(v, cst.IfExp):
                        v = v.body  # `x = x.at[i].set(v) if ok else x` (its test guards the index)
                    if not (isinstance(t.target, cst.Name) and isinstance(v, cst.Call)
                            and isinstance(v.func, cst.Attribute) and v.func.attr.value in _AT_DROP
                            and isinstance(v.func.value, cst.Subscript) and isinstance(v.func.value.value, cst.Attribute)
                            and v.func.value.value.attr.value == "at" and isinstance(v.func.value.value.value, cst.Name)
                            and v.func.value.value.value.value == name):
                        return False
        return True

    def _guarded(self, node: cst.CSTNode) -> bool:
        """Does a test in a loop around ``node`` (an `if`, a conditional expression, a
        `while`, an `assert`, `min`/`max`/`%`/`clip` around it) look at a name of
        ``node``?  (`if i < n: x = x.at[i].set(v)`, `if i == n: break`)"""
        names = {n.value for n in descendants(node) if isinstance(n, cst.Name)}
        if isinstance(node, cst.Name):
            names.add(node.value)
        for frame in self.ctx.loop_stack:
            loop = frame.node
            for n in descendants(loop.body if isinstance(loop, cst.For) else loop):
                test = n.test if isinstance(n, (cst.If, cst.IfExp, cst.While, cst.Assert, cst.CompIf)) else None
                if test is not None and any(isinstance(m, cst.Name) and m.value in names
                                            for m in (test, *descendants(test))):
                    return True
        return False

    def _report_range(self, node, index, known, axis: int, size: int, what: str) -> None:
        lo, hi = known
        bad = hi if hi >= size else lo
        iv = self.ctx.value(index)
        if iv.kind == V.STATIC and iv.shape is None:  # a loop variable (or arithmetic on one)
            self.report(
                node,
                f"`{self.ctx.code(index).strip()}` runs from {lo} to {hi} in the loop around it: index {bad} is "
                f"out of bounds for axis {axis} with size {size}, and JAX raises no IndexError: {what}",
            )
            return
        self.report(
            node,
            f"the index array `{self.ctx.code(index).strip()}` holds {bad} (its values run from {lo} to {hi}), "
            f"out of bounds for axis {axis} with size {size}, and JAX raises no IndexError: {what}",
        )

    def _report_index(self, node, i: int, axis: int, size: int, what: str) -> None:
        self.report(
            node,
            f"index {i} is out of bounds for axis {axis} with size {size}, and JAX raises no "
            f"IndexError: {what}",
        )

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if id(node) in self._skip:
            return
        base = node.value
        if isinstance(base, cst.Attribute) and base.attr.value == "at":
            return  # handled with the method call
        shape = self._shape(base)
        if shape is None:
            return
        self._check(node, shape, "the read is clamped to the nearest valid index (silently the wrong element)")

    def _indexed_params(self, unit) -> list[tuple[str, str, int, cst.Subscript]]:
        """(array parameter, index parameter, axis) for each read `x[i]` in ``unit``'s
        body where `x` and `i` are traced parameters it never rebinds."""
        key = id(unit)
        found = self._indexed.get(key)
        if found is not None:
            return found
        found = []
        params = {p.name for p in unit.params if p.kind in ("pos", "posonly", "kwonly")}
        traced = (params & set(unit.traced_params)) - set(unit.assigned) - set(unit.static_params)
        if unit.jit_root and isinstance(unit.node, cst.FunctionDef) and len(traced) >= 2:
            for n in descendants(unit.node.body):
                if not isinstance(n, cst.Subscript) or not isinstance(n.value, cst.Name) or n.value.value not in traced:
                    continue
                for dim, el in enumerate(n.slice):
                    sl = el.slice
                    if not isinstance(sl, cst.Index) or not isinstance(sl.value, (cst.Name, cst.Integer, cst.UnaryOperation)):
                        break
                    if isinstance(sl.value, cst.Name) and sl.value.value in traced and sl.value.value != n.value.value:
                        found.append((n.value.value, sl.value.value, dim, n))
        self._indexed[key] = found
        return found

    def _call_site(self, node: cst.Call) -> None:
        """`f(np.arange(10), 13)` for a jitted `def f(x, i): return x[i]`: the index and the
        shape are both known where `f` is called."""
        ctx = self.ctx
        fv = ctx.value(node.func)
        unit = fv.unit
        if fv.kind != V.FUNCTION or unit is None or any(a.star for a in node.args):
            return
        uses = self._indexed_params(unit)
        if not uses:
            return
        positional = [p.name for p in unit.positional()]
        given: dict[str, cst.BaseExpression] = {}
        for i, a in enumerate(node.args):
            if a.keyword is not None:
                given[a.keyword.value] = a.value
            elif i < len(positional):
                given[positional[i]] = a.value
        for arr, idx, dim, sub in uses:
            if arr not in given or idx not in given:
                continue
            shape = self._known_shape(given[arr])
            i = ctx.constant_int(given[idx])
            if shape is None or i is None or dim >= len(shape):
                continue
            size = shape[dim]
            if i >= size or i < -size:
                self.report(
                    given[idx],
                    f"index {i}, passed to `{unit.name}` as `{idx}`, is out of bounds for axis {dim} with "
                    f"size {size} of `{arr}` (`{ctx.code(sub).strip()}` in `{unit.name}`), and JAX raises no "
                    f"IndexError: the read is clamped to the nearest valid index (silently the wrong element)",
                )
                return

    def _int(self, node) -> "int | None":
        """The integer ``node`` holds: a constant, or a scalar array of one known integer
        (`jnp.array(2)`, also passed so by every call of the function)."""
        if node is None:
            return None
        i = self.ctx.constant_int(node)
        if i is None:
            known = self.ctx.value(node).int_range
            i = known[0] if known is not None and known[0] == known[1] else None
        return i

    def _ints(self, node) -> "list[int] | None":
        """The integers of a list/tuple display of constants, else None."""
        if not isinstance(node, (cst.List, cst.Tuple)):
            return None
        out = []
        for el in node.elements:
            if isinstance(el, cst.StarredElement):
                return None
            i = self._int(el.value)
            if i is None:
                return None
            out.append(i)
        return out

    def _window(self, node: cst.Call, q: str) -> None:
        """`lax.dynamic_slice(x, [5], [1])` on an axis of size 2: the window does not fit,
        and XLA moves its start back until it does (jax#3621)."""
        ctx = self.ctx
        shape = self._shape(arg_at(node, 0, "operand"))
        if shape is None or any(a.star for a in node.args):
            return
        if q == "jax.lax.dynamic_slice":
            starts_node = arg_at(node, 1, "start_indices")
            starts, sizes = self._ints(starts_node), self._ints(arg_at(node, 2, "slice_sizes"))
            axes = list(range(len(shape)))
        elif q == "jax.lax.dynamic_update_slice":
            starts_node = arg_at(node, 2, "start_indices")
            upd = self._shape(arg_at(node, 1, "update"))
            starts, sizes = self._ints(starts_node), list(upd) if upd is not None else None
            axes = list(range(len(shape)))
        else:  # dynamic_slice_in_dim(x, start, size, axis=0)
            starts_node = arg_at(node, 1, "start_index")
            start, size = self._int(starts_node), ctx.constant_int(arg_at(node, 2, "slice_size"))
            axis_node = arg_at(node, 3, "axis")
            axis = 0 if axis_node is None else ctx.constant_int(axis_node)
            if start is None or size is None or axis is None or not -len(shape) <= axis < len(shape):
                return
            starts, sizes, axes = [start], [size], [axis % len(shape)]
        if starts is None or sizes is None or len(starts) != len(axes) or len(sizes) != len(axes):
            return
        for start, size, axis in zip(starts, sizes, axes):
            dim = shape[axis]
            if start >= 0 and size <= dim and start + size > dim:
                what = "update" if q == "jax.lax.dynamic_update_slice" else "slice"
                name = q.replace("jax.lax.", "lax.")
                self.report(
                    starts_node,
                    f"start {start} with {what} size {size} does not fit axis {axis} of size {dim}, and JAX "
                    f"raises no IndexError: `{name}` moves the start back to {dim - size} so that the "
                    f"{what} fits ({'it writes' if what == 'update' else 'it reads'} a different window)",
                )
                return

    def _known_shape(self, node: cst.CSTNode):
        v = self.ctx.value(node)
        return v.shape if v.kind in (V.ARRAY, V.STATIC) else None

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        func = node.func
        if isinstance(func, cst.Name):
            self._call_site(node)
        if (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Subscript)
            and isinstance(func.value.value, cst.Attribute)
            and func.value.value.attr.value == "at"
        ):
            shape = self._shape(func.value.value.value)
            if shape is None:
                return
            op = func.attr.value
            if op in _AT_DROP:
                mode_arg = keyword_arg(node, "mode")
                if mode_arg is not None:
                    mode = mode_arg.value
                    if isinstance(mode, cst.SimpleString) and mode.evaluated_value in ("drop", "fill") \
                            and keyword_arg(node, "wrap_negative_indices") is None:
                        self._check_wrapped(func.value, shape, op, mode.evaluated_value)
                    return
                self._check(func.value, shape, f"`.at[...].{op}(...)` silently drops the update")
            elif op == "get" and keyword_arg(node, "mode") is None:
                self._check(func.value, shape, "`.at[...].get()` clamps to the nearest valid index")
            return
        q = ctx.qualname(func)
        if q in _WINDOWS:
            self._window(node, q)
            return
        if q != "jax.numpy.take":
            return
        arr = arg_at(node, 0, "a")
        idx = arg_at(node, 1, "indices")
        if arr is None or idx is None or keyword_arg(node, "mode") is not None:
            return
        shape = self._shape(arr)
        i = ctx.constant_int(idx)
        known = self._index_range(idx, arr) if i is None else None
        if shape is None or (i is None and known is None):
            return
        axis_node = arg_at(node, 2, "axis")
        if axis_node is None or (isinstance(axis_node, cst.Name) and axis_node.value == "None"):
            size, axis = math.prod(shape), 0
        else:
            axis = int_value(axis_node)
            if axis is None or not -len(shape) <= axis < len(shape):
                return
            size = shape[axis]
        what = ("`jnp.take` defaults to mode='fill' and returns NaN for floats, INT_MIN "
                "(-2147483648) for int32")
        if known is not None:
            if known[1] >= size or known[0] < -size:
                self._report_range(node, idx, known, axis, size, what)  # the gather, at the call
        elif i >= size or i < -size:
            self._report_index(idx, i, axis, size, what)


def _indexed_dims(sub: cst.Subscript, shape):
    """(axis, index, size) for each integer index of ``sub`` (``x[i, :, j]``) on the axes
    ``shape`` knows, a slice counting its axis; stops at the first other element."""
    dim = 0
    for el in sub.slice:
        if dim >= len(shape):
            return
        s = el.slice
        if isinstance(s, cst.Slice):
            dim += 1
            continue
        if not isinstance(s, cst.Index):
            return
        yield dim, s, shape[dim]
        dim += 1
