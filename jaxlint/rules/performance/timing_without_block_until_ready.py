"""JAX505 timing-without-block-until-ready: Timing JAX work with `time.time()`/`perf_counter()` without `block_until_ready()`: measures only the dispatch."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Replacement, Rule, Valid, fix
from jaxlint.findings import Applicability, Severity
from jaxlint.model import values as V
from jaxlint.model.dispatched import DISPATCHING, attribute_dispatched, imports_resolver
from jaxlint.model.apis import CACHING_JITS
from jaxlint.model.scopes import bound_once, instance_class
from jaxlint.model.timers import timing_manager
from jaxlint.model.units import Unit
from jaxlint.model.walk import descendants, walk_tree


_TIMERS = frozenset(
    {"time.time", "time.perf_counter", "time.monotonic", "time.process_time", "time.time_ns",
     "time.perf_counter_ns", "time.monotonic_ns", "timeit.default_timer", "time.process_time_ns",
     "time.thread_time", "time.thread_time_ns",
     # wall-clock datetimes subtracted into a `timedelta` (`datetime.now() - start`)
     "datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today"}
)
# timing a callable: `timeit.timeit(lambda: f(x))`, and the `%timeit f(x)` / `%time f(x)`
# magics and `%%timeit` / `%%time` cells of a notebook (jaxlint.parse.notebook turns them into calls
# of TIMEIT_MAGIC, a name no Python file binds)
_TIMEIT_CALLS = frozenset({"timeit.timeit", "timeit.repeat"})
_TIMEIT_MAGIC = "__jaxlint_timeit__"
_TIME_MAGIC = "__jaxlint_time__"  # `%time f(x)` / a `%%time` cell
_MAGICS = {_TIMEIT_MAGIC: "`%timeit`", _TIME_MAGIC: "`%time`"}
_ARRAY_PREFIXES = ("jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.", "jax.random.", "jax.image.", "jax.ops.")
# transformations whose result, called, computes JAX arrays (eagerly or compiled): its
# call is dispatched asynchronously (one table with the model's helpers that return such
# work, model/dispatched.py)
_DISPATCHING_TRANSFORMS = DISPATCHING
_HARMLESS_BUILTINS = frozenset({"range", "len", "enumerate", "zip", "isinstance", "min", "max", "list", "tuple", "dict"})
_HARMLESS_METHODS = frozenset({"append", "extend", "insert", "update", "add"})
# NumPy builders that make a host array from a shape or scalars: they never wait for JAX
# work (np.array/asarray/*_like of a JAX array would: a device-to-host copy)
_NUMPY_BUILDERS = frozenset(
    "numpy." + n for n in "ones zeros empty full arange linspace logspace geomspace eye identity tri".split()
) | frozenset(
    "numpy.random." + n for n in (
        "rand randn random random_sample ranf sample normal uniform standard_normal randint integers "
        "binomial poisson exponential gamma beta choice permutation default_rng"
    ).split()
)


# methods of a JAX array that compute (a reduction, a product, a cast, a cumulative op):
# dispatched asynchronously like the jnp function of the same name (jax 0.10.2 CPU: a
# 1000x1000 SVD result's `.sum()` returns in microseconds, its value a minute later in
# jax#802); not the host reads (`item`, `tolist`), which wait
_ARRAY_METHODS = frozenset(
    "sum mean max min prod std var argmax argmin cumsum cumprod dot astype any all clip round "
    "conj transpose reshape ravel flatten squeeze sort argsort trace diagonal nonzero".split()
)


# calls that make host data into JAX arrays: a copy, no computation (a `%%time` cell that
# ends with them measures the cell's host work, not a dispatch)
_CONVERSIONS = frozenset({"jax.numpy.array", "jax.numpy.asarray", "jax.device_put"})

class TimingWithoutBlocking(Rule):
    code = "JAX505"
    name = "timing-without-block-until-ready"
    runtime_check = 'None: a timing mistake in the caller; results are right, only the measured time is wrong.'
    summary = "Timing JAX work with `time.time()`/`perf_counter()` without `block_until_ready()`: measures only the dispatch"
    severity = Severity.WARNING
    seed = "FAQ § benchmarking JAX code / asynchronous dispatch (seeds 001, 004); tutorial § timing (seed 002)"
    what_it_does = (
        "Flags a clock read (`time.time()`, `time.perf_counter()`, `time.monotonic()`, "
        "`time.thread_time()`, `timeit.default_timer()`, `datetime.now()`...) that closes an interval in which a JAX computation was "
        "started (a call of a jitted function, also of a parameter that every call of the "
        "function, in this module or another, gives a jitted function (`bench(jax.jit(f), x)`, "
        "`bench(g, x)` with `@jax.jit def g` in the calling module or imported from another "
        "module of the project: `from ops import attention`, `ops.attention`), "
        "a callable another transformation returned (`vf = jax.vmap(f)`, `g = jax.grad(loss)`, "
        "`jax.vmap(f)(x)`, `eqx.filter_vmap`), "
        "or of `jnp`/`lax`/`jax.random`/`jax.nn`; also a helper, of this module or another, "
        "a method (also of a class of another module called on an instance the scope makes: "
        "`graph = Graph(a)` or `graph = FactorGraph.make(a)`, then `graph.solve(b)`), or a lambda, "
        "whose every return hands back such a call's result and "
        "that waits for nothing itself: `def generate(x): images = pipeline(x); return images`, "
        "`self._step = jax.jit(step)` returned by `run`) and "
        "nothing waited for it: no `.block_until_ready()`, `jax.block_until_ready(...)`, "
        "`jax.device_get`, NumPy conversion, `float()`/`int()`/`.item()`/`.tolist()`, `print`, "
        "`if` on a value, or call of an unknown function (which might block) in between. "
        "A read stored in a name that is only ever subtracted from later reads (`tic = "
        "time.time()` ... `time.time() - tic`) starts an interval and closes none: not flagged. "
        "Nor a read in a `print` whose f-string formats the result first (`f\"loss {loss:.3e} "
        "time {time.time() - t0:.3f}\"`: the fields are formatted left to right, and formatting "
        "`loss`, `aux[0]` or `float(loss)` waits for it; `{loss.shape}` does not). "
        "A method of a JAX array that computes (`y.sum()`, `y.astype(t).max()`, with `y` "
        "bound to a jitted call's result or a `jnp` computation, or an attribute `obj.out` whose "
        "class stores there only such results) starts JAX work too. "
        "`timeit.timeit(lambda: f(x))` / `timeit.repeat` / `%timeit f(x)` of a JAX call with "
        "nothing in the lambda that waits is flagged the same way; building the input there "
        "with NumPy from a shape (`np.ones((500, 500))`, `np.random.randn(256, 256)`) waits for "
        "nothing. A `%time`/`%timeit` line that times a statement (`%time y = f(x)`) is read as a "
        "one-line timed cell. A `%%time`/`%%timeit` cell is flagged when it ends with JAX work not "
        "waited for, but not when that work is only host data made into arrays (`X = "
        "jnp.array(X)[:n]` after loading a data set: `jnp.array`/`jnp.asarray`/"
        "`jax.device_put`, a copy, not a computation). A call of an ahead-of-time compiled function (`compiled = "
        "jax.jit(f).lower(x).compile()`, also through `.trace(x)`) starts JAX work like a jitted "
        "call. A benchmark's timed loop, `while state:` on a parameter that the loop body never "
        "names and never breaks out of (google_benchmark's protocol: the object decides when the "
        "loop ends and reads the clock), is flagged at each JAX call in it when nothing waits, "
        "in the loop or after it; and so is the warm-up call of the same function just before "
        "the loop when nothing waits for it (its work runs on into the timed loop). "
        "A block timed by a context manager of the file, or of another module of the project "
        "(`from utils import Timer`, `utils.stopwatch(\"solve\")`), whose exit reads the clock (a class "
        "whose `__enter__` and `__exit__` read it, `with Timer() as t:`; a "
        "`@contextlib.contextmanager` generator reading it before and after its `yield`, "
        "`with timed(\"step\"):`) is an interval too: its last JAX call is flagged when nothing "
        "in the block waits for it. Not a manager whose exit calls anything that might wait "
        "(`block_until_ready`, a helper), one that reads the clock only when asked afterwards "
        "(`yield lambda: perf_counter() - t0`), nor one of a library (CLU's "
        "`report_progress.timed` waits by default): unknown."
    )
    why_bad = (
        "JAX dispatches work asynchronously, on CPU too since jax 0.4.32: a jitted call returns "
        "as soon as the work is queued. Timing the call then measures the dispatch, not the "
        "computation. For a 2000x2000 matmul on CPU: 0.13 ms measured without blocking against "
        "230 ms with `block_until_ready` (jax 0.10.2); 0.15 ms against 113 ms on 0.12."
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
        # a timer that waits: inside the block, in its own exit; a manager that reads the clock
        # only when asked (`yield lambda: ...`); one of a library (unknown: it may wait)
        Valid(
            """
            import contextlib
            import time

            import jax
            import jax.numpy as jnp
            from clu import periodic_actions


            class Timer:
                def __enter__(self):
                    self.start = time.perf_counter()
                    return self

                def __exit__(self, *exc):
                    self.elapsed = time.perf_counter() - self.start


            class SyncTimer:
                def __init__(self):
                    self.out = None

                def __enter__(self):
                    self.start = time.perf_counter()
                    return self

                def __exit__(self, *exc):
                    jax.block_until_ready(self.out)
                    self.elapsed = time.perf_counter() - self.start


            @contextlib.contextmanager
            def stopwatch():
                start = time.perf_counter()
                yield lambda: time.perf_counter() - start


            step = jax.jit(lambda x: x @ x)


            def bench(x, report: periodic_actions.ReportProgress):
                with Timer():
                    y = step(x).block_until_ready()
                with SyncTimer() as t:
                    t.out = step(x)
                with stopwatch() as elapsed:
                    y = step(x)
                with report.timed("step"):
                    y = step(x)
                return y
            """
        ),
        # the benchmark waits in the loop, or after it (a dispatch benchmark draining its queue)
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def batch_inplace_while(state):
                f = jax.jit(lambda xs: xs.at[0].set(1))
                args = (jnp.zeros((1, 100)),)
                jax.block_until_ready(f(*args))  # compile
                while state:
                    jax.block_until_ready(f(*args))


            def jit_simple_dispatch(state):
                f = jax.jit(lambda a, b: a + b)
                x = f(1, 2)
                while state:
                    x = f(1, 2)
                x.block_until_ready()
            """
        ),
        # the same transformed callables waited for, and `jax.make_jaxpr` (it traces, runs nothing)
        Valid(
            """
            import time

            import jax
            import jax.numpy as jnp

            batched = jax.vmap(jnp.sin)
            grad_fn = jax.grad(lambda w: jnp.sum(w ** 2))

            def bench(x):
                t0 = time.perf_counter()
                y = jax.block_until_ready(batched(x))
                g = grad_fn(x).block_until_ready()
                t1 = time.perf_counter()
                jaxpr = jax.make_jaxpr(jnp.cos)(x)
                return y, g, jaxpr, t1 - t0, time.perf_counter() - t1
            """
        ),
        Valid(
            """
            import time
            import jax
            import jax.numpy as jnp

            f = jax.jit(lambda x: x @ x)
            x = jnp.ones((100, 100))
            t0 = time.time()
            y = f(x).block_until_ready()
            t1 = time.time()
            """
        ),
        Valid(
            """
            import time
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                return x @ x

            def bench(x):
                t0 = time.perf_counter()
                y = f(x)
                jax.block_until_ready(y)
                return time.perf_counter() - t0
            """
        ),
        Valid(
            """
            import time
            import numpy as np
            import jax.numpy as jnp

            def bench(x):
                t0 = time.perf_counter()
                y = jnp.dot(x, x)
                z = np.asarray(y)
                return time.perf_counter() - t0
            """
        ),
        Valid(
            """
            import time
            import jax.numpy as jnp

            def bench(x):
                t0 = time.time()
                loss = jnp.sum(x)
                print(loss)
                return time.time() - t0
            """
        ),
        # the timed callable waits, or is not JAX work, or calls something unknown that may wait
        Valid(
            """
            import timeit
            import jax
            import numpy as np

            f = jax.jit(lambda x: x * 2)
            x = np.ones(3)
            a = timeit.timeit(lambda: f(x).block_until_ready(), number=10)
            b = timeit.timeit(lambda: jax.block_until_ready(f(x)), number=10)
            c = timeit.timeit(lambda: np.sort(x), number=10)
            d = timeit.timeit(lambda: np.asarray(f(x)), number=10)
            """
        ),
        # no JAX work in the interval
        Valid(
            """
            import time
            import jax

            def load(path):
                t0 = time.time()
                data = open(path).read()
                return data, time.time() - t0
            """
        ),
        # an unknown function might block: stay quiet
        Valid(
            """
            import time
            import jax.numpy as jnp

            def bench(x, sync):
                t0 = time.time()
                y = jnp.sin(x)
                sync(y)
                return time.time() - t0
            """
        ),
        # `if converged(err):` converts a jitted result to bool: every iteration waits
        Valid(
            """
            import time

            import jax
            import jax.numpy as jnp


            @jax.jit
            def relax(u):
                new = 0.5 * (jnp.roll(u, 1) + jnp.roll(u, -1))
                return new, jnp.max(jnp.abs(new - u))


            @jax.jit
            def converged(err):
                return err < 1e-6


            def solve(u, iters):
                t0 = time.perf_counter()
                for _ in range(iters):
                    u, err = relax(u)
                    if converged(err):
                        break
                return u, time.perf_counter() - t0
            """
        ),
        # the helper waits for the result; or a call gives it a function of unknown kind
        Valid(
            """
            import time

            import jax
            import jax.numpy as jnp


            def time_call(fn, x):
                start = time.time()
                jax.block_until_ready(fn(x))
                return time.time() - start


            def time_any(fn, x):
                start = time.time()
                fn(x)
                return time.time() - start


            x = jnp.ones(3)
            time_call(jax.jit(jnp.sin), x)
            time_any(jax.jit(jnp.sin), x)
            time_any(sorted, [3, 1])
            """
        ),
        # waited for; or a NumPy conversion of an earlier JAX result inside (it waits)
        Valid(
            """
            import timeit

            import jax
            import jax.numpy as jnp
            import numpy as np


            @jax.jit
            def step(x):
                return jnp.tanh(x @ x.T).sum()


            t1 = timeit.timeit(lambda: step(np.ones((256, 256))).block_until_ready(), number=10)
            t2 = timeit.timeit(lambda: step(np.asarray(step(jnp.ones((4, 4))))), number=5)
            """
        ),
        # the same helpers waiting themselves: a conversion of the total, a loop over an
        # array's rows (iterating reads it), a clock read after a result is printed
        Valid(
            """
            import time

            import jax
            import jax.numpy as jnp


            def slow_function(x):
                result = 0.0
                for i in range(1000):
                    result = result + jnp.sin(x) * 0.001
                return float(result)


            def row_total(xs):
                total = 0.0
                for row in xs:
                    total = total + jnp.sum(row)
                return total


            def bench(x, xs):
                start = time.perf_counter()
                slow_function(x)
                row_total(xs)
                return time.perf_counter() - start
            """
        ),
        # the same datetime clocks read after waiting
        Valid(
            """
            import datetime
            from datetime import datetime as dt

            import jax
            import jax.numpy as jnp

            step = jax.jit(lambda x: jnp.tanh(x @ x))


            def train(x):
                start = datetime.datetime.now()
                for _ in range(10):
                    x = step(x)
                x.block_until_ready()
                elapsed = datetime.datetime.now() - start
                t0 = dt.now()
                y = jax.ops.segment_sum(x, jnp.zeros(x.shape[0], int), num_segments=1)
                jax.block_until_ready(y)
                print("took", dt.now() - t0)
                return elapsed
            """
        ),
        # a method of a host NumPy array, a JAX array's method read back with `.item()`
        Valid(
            """
            import time

            import jax
            import numpy as np

            f = jax.jit(lambda a: a @ a)


            def fine(x):
                h = np.ones((100, 100))
                t = time.time()
                s = h.sum()
                dt = time.time() - t
                y = f(x)
                t = time.time()
                z = y.sum().item()
                return dt, time.time() - t, s, z
            """
        ),
        # the stored results converted to NumPy, or waited for, before they are stored
        Valid(
            """
            import time

            import jax
            import jax.numpy as jnp
            import numpy as np


            class Runner:
                def __init__(self):
                    self._step = jax.jit(lambda x: jnp.tanh(x @ x))

                def run(self, x):
                    self.out = np.asarray(self._step(x))

                def run_blocked(self, x):
                    self.last = jax.block_until_ready(self._step(x))


            def bench(x):
                r = Runner()
                r.run(x)
                r.run_blocked(x)
                t0 = time.perf_counter()
                m = r.out.mean()
                s = r.last.sum()
                return time.perf_counter() - t0, m, s
            """
        ),
    ]

    INVALID = [
        # a block timed by a context manager of the file whose exit reads the clock: a class
        # (`__enter__`/`__exit__`) and a `contextlib.contextmanager` generator
        Invalid(
            """
            import contextlib
            import time

            import jax
            import jax.numpy as jnp


            class Timer:
                def __enter__(self):
                    self.start = time.perf_counter()
                    return self

                def __exit__(self, *exc):
                    self.elapsed = time.perf_counter() - self.start


            @contextlib.contextmanager
            def timed(msg):
                start = time.perf_counter()
                yield
                print(msg, time.perf_counter() - start)


            step = jax.jit(lambda x: x @ x)


            def bench(x, n):
                with Timer() as t:
                    ys = [step(x) for _ in range(n)]
                with timed("step"):
                    y = step(x)
                return t.elapsed
            """,
            expected=[(29, 15), (31, 13)],
            messages=[
                "`step(x)` is the last JAX computation in the block timed by `with Timer()` (line 28), whose exit reads the clock while the computation may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result inside the block: `jax.block_until_ready(result)`",
                "`step(x)` is the last JAX computation in the block timed by `with timed(\"step\")` (line 30), whose exit reads the clock while the computation may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result inside the block: `jax.block_until_ready(result)`",
            ],
            fixed="""
            import contextlib
            import time

            import jax
            import jax.numpy as jnp


            class Timer:
                def __enter__(self):
                    self.start = time.perf_counter()
                    return self

                def __exit__(self, *exc):
                    self.elapsed = time.perf_counter() - self.start


            @contextlib.contextmanager
            def timed(msg):
                start = time.perf_counter()
                yield
                print(msg, time.perf_counter() - start)


            step = jax.jit(lambda x: x @ x)


            def bench(x, n):
                with Timer() as t:
                    ys = [jax.block_until_ready(step(x)) for _ in range(n)]
                with timed("step"):
                    y = jax.block_until_ready(step(x))
                return t.elapsed
            """,
            unsafe=True,
        ),
        Invalid(
            """
            import time
            import jax
            import jax.numpy as jnp

            f = jax.jit(lambda x: x @ x)
            x = jnp.ones((2000, 2000))
            t0 = time.time()
            y = f(x)
            t1 = time.time()
            """,
            expected=[(9, 6)],
            messages=[
                "`time.time()` is read while the JAX computation started on line 8 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`",
            ],
            fixed="""
            import time
            import jax
            import jax.numpy as jnp

            f = jax.jit(lambda x: x @ x)
            x = jnp.ones((2000, 2000))
            t0 = time.time()
            y = jax.block_until_ready(f(x))
            t1 = time.time()
            """,
            unsafe=True,
        ),
        Invalid(
            """
            import time
            import jax
            from functools import partial

            @partial(jax.jit, static_argnums=1)
            def step(x, n):
                return x * n

            def bench(x):
                start = time.perf_counter()
                for _ in range(10):
                    x = step(x, 2)
                elapsed = time.perf_counter() - start
                return elapsed
            """,
            expected=[(13, 15)],
            messages=[
                "`time.perf_counter()` is read while the JAX computation started on line 12 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`",
            ],
        ),
        Invalid(
            """
            import time
            import jax

            f = jax.jit(lambda x: x * 2)

            def bench(x):
                t0 = time.perf_counter()
                y = f(x)
                print(f'took {time.perf_counter() - t0:.3f}s', y)
            """,
            expected=[(9, 19)],
            messages=[
                "`time.perf_counter()` is read while the JAX computation started on line 8 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`",
            ],
        ),
        Invalid(
            """
            import time
            import jax.numpy as jnp

            def bench(x):
                t0 = time.monotonic()
                y = jnp.linalg.inv(x)
                return time.monotonic() - t0
            """,
            expected=[(7, 12)],
            messages=[
                "`time.monotonic()` is read while the JAX computation started on line 6 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`",
            ],
        ),
        # timing a callable: the timeit module (in a notebook, `%timeit f(x)` is read the same way)
        Invalid(
            """
            import timeit
            import jax
            import jax.numpy as jnp

            matmul = jax.jit(lambda a: a @ a)
            a = jnp.ones((500, 500))
            per_call = timeit.timeit(lambda: matmul(a), number=100) / 100
            """,
            expected=[(7, 12)],
            messages=[
                "`timeit.timeit(...)` times `matmul(...)`, a JAX computation that is dispatched asynchronously and never waited for: this measures the dispatch (and, on a first call, the compilation), not the work. Time `jax.block_until_ready(matmul(a))` instead",
            ],
            fixed="""
            import timeit
            import jax
            import jax.numpy as jnp

            matmul = jax.jit(lambda a: a @ a)
            a = jnp.ones((500, 500))
            per_call = timeit.timeit(lambda: jax.block_until_ready(matmul(a)), number=100) / 100
            """,
            unsafe=True,
        ),
        Invalid(
            """
            from timeit import repeat
            import jax.numpy as jnp

            x = jnp.ones((1000, 1000))
            times = repeat(lambda: jnp.linalg.svd(x), number=5, repeat=3)
            """,
            expected=[(5, 9)],
            messages=[
                "`repeat(...)` times `jnp.linalg.svd(...)`, a JAX computation that is dispatched asynchronously and never waited for: this measures the dispatch (and, on a first call, the compilation), not the work. Time `jax.block_until_ready(jnp.linalg.svd(x))` instead",
            ],
        ),
        # the test reads a Python flag, not the jitted result: nothing waits
        Invalid(
            """
            import time

            import jax
            import jax.numpy as jnp


            @jax.jit
            def relax(u):
                return 0.5 * (jnp.roll(u, 1) + jnp.roll(u, -1))


            def solve(u, iters, verbose):
                t0 = time.perf_counter()
                for _ in range(iters):
                    if verbose:
                        print("step")
                    u = relax(u)
                return u, time.perf_counter() - t0
            """,
            expected=[(18, 15)],
            messages=[
                "`time.perf_counter()` is read while the JAX computation started on line 17 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`",
            ],
            fixed="""
            import time

            import jax
            import jax.numpy as jnp


            @jax.jit
            def relax(u):
                return 0.5 * (jnp.roll(u, 1) + jnp.roll(u, -1))


            def solve(u, iters, verbose):
                t0 = time.perf_counter()
                for _ in range(iters):
                    if verbose:
                        print("step")
                    u = jax.block_until_ready(relax(u))
                return u, time.perf_counter() - t0
            """,
            unsafe=True,
        ),
        # a timing helper whose function parameter every call gives a jitted function
        # (jax.jit, eqx.filter_jit): its calls return before the work is done
        Invalid(
            """
            import time

            import equinox as eqx
            import jax
            import jax.numpy as jnp


            def time_call(fn, x):
                start = time.time()
                fn(x)
                return time.time() - start


            def test_speed():
                x = jnp.ones((500, 50))
                time_call(jax.jit(jnp.sin), x)
                time_call(eqx.filter_jit(jnp.cos), x)
            """,
            expected=[(11, 12)],
            messages=[
                "`time.time()` is read while the JAX computation started on line 10 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`",
            ],
        ),
        # ... also a def decorated with a jit, passed by name (`timeit(softmax_ce, ...)`)
        Invalid(
            """
            import time

            import jax
            import jax.numpy as jnp


            def timeit(fn, *args, reps=20):
                fn(*args)
                t0 = time.time()
                for _ in range(reps):
                    fn(*args)
                return (time.time() - t0) / reps


            @jax.jit
            def softmax_ce(logits, labels):
                return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * labels, -1))


            logits = jnp.ones((64, 10))
            labels = jax.nn.one_hot(jnp.zeros(64, int), 10)
            print(timeit(softmax_ce, logits, labels))
            """,
            expected=[(12, 13)],
            messages=[
                "`time.time()` is read while the JAX computation started on line 11 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`",
            ],
        ),
        # a callable another transformation returned: a vmapped jitted function (module
        # level, openillumi's benchmark), a stored `jax.grad`, an inline `jax.vmap(f)(x)`
        Invalid(
            """
            from time import time

            import jax
            import numpy as np

            @jax.jit
            def my_function(x, y):
                return x @ y

            vectorized_function = jax.vmap(my_function, in_axes=(0, None))
            x, y = np.ones((1000, 100)), np.ones(100)
            start = time()
            vectorized_function(x, y)
            t_1 = time() - start
            """,
            expected=[(14, 7)],
            messages=[
                "`time()` is read while the JAX computation started on line 13 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`",
            ],
        ),
        Invalid(
            """
            import time

            import jax
            import jax.numpy as jnp


            def loss(w, x):
                return jnp.sum((x @ w) ** 2)


            grad_fn = jax.grad(loss)


            def bench(w, x):
                t0 = time.perf_counter()
                g = grad_fn(w, x)
                t1 = time.perf_counter()
                ys = jax.vmap(jnp.cos)(x)
                return g, ys, t1 - t0, time.perf_counter() - t1
            """,
            expected=[(17, 10), (19, 28)],
            messages=[
                "`time.perf_counter()` is read while the JAX computation started on line 16 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`",
                "`time.perf_counter()` is read while the JAX computation started on line 18 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`",
            ],
        ),
        # a benchmark's timed `while state:` loop (JAX's api_benchmark before PR 17724)
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def batch_inplace_while(state):
                f = jax.jit(lambda xs: xs.at[0].set(1))
                args = (jnp.zeros((1, 100)),)
                f(*args)  # compile
                while state:
                    f(*args)
            """,
            expected=[(8, 5), (10, 9)],
            messages=[
                "`f(*args)` warms up the benchmark `batch_inplace_while` before its timed `while state:` loop, and nothing waits for it (dispatch is asynchronous): its work is still running when the timed loop starts, and counted in it. Wait for it: `jax.block_until_ready(f(*args))`",
                "`f(*args)` runs in the timed `while state:` loop of the benchmark `batch_inplace_while` and nothing waits for it, in the loop or after it (dispatch is asynchronous): the benchmark measures the dispatch, not the work. Wait for the result: `jax.block_until_ready(f(*args))`",
            ],
        ),
        # the input built with NumPy inside the timed lambda does not wait for anything
        Invalid(
            """
            import timeit

            import jax
            import jax.numpy as jnp
            import numpy as np


            @jax.jit
            def step(x):
                return jnp.tanh(x @ x.T).sum()


            t1 = timeit.timeit(lambda: step(np.random.randn(256, 256)), number=10)
            n = 128
            t2 = timeit.repeat(lambda: step(np.zeros((n, n), dtype=np.float32)), number=5)
            """,
            expected=[(13, 6), (15, 6)],
            messages=[
                "`timeit.timeit(...)` times `step(...)`, a JAX computation that is dispatched asynchronously and never waited for: this measures the dispatch (and, on a first call, the compilation), not the work. Time `jax.block_until_ready(step(np.random.randn(256, 256)))` instead",
                "`timeit.repeat(...)` times `step(...)`, a JAX computation that is dispatched asynchronously and never waited for: this measures the dispatch (and, on a first call, the compilation), not the work. Time `jax.block_until_ready(step(np.zeros((n, n), dtype=np.float32)))` instead",
            ],
        ),
        # a helper that accumulates eager JAX work in a counted loop and returns it
        # (theneuralbase: `result = result + jnp.sin(x) * 0.001` 1000 times), or returns
        # arithmetic on a jitted call's result: the caller's clock reads the dispatch
        Invalid(
            """
            import time

            import jax
            import jax.numpy as jnp


            def slow_function(x):
                result = 0.0
                for i in range(1000):
                    result = result + jnp.sin(x) * 0.001
                return result


            model = jax.jit(lambda p, x: jnp.tanh(x @ p))


            def predict(p, x):
                out = model(p, x)
                return out * 2.0 + 1.0


            def bench(p, x):
                start = time.perf_counter()
                for _ in range(100):
                    slow_function(x)
                end = time.perf_counter()
                t0 = time.time()
                y = predict(p, x)
                return end - start, time.time() - t0
            """,
            expected=[(26, 11), (29, 25)],
            messages=[
                "`time.perf_counter()` is read while the JAX computation started on line 25 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`",
                "`time.time()` is read while the JAX computation started on line 28 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`",
            ],
        ),
        # the clock read as a datetime (`datetime.now() - start`, a `timedelta`), or as the
        # thread's CPU time: the same dispatch measured (jax 0.10.2 CPU, a 2000x2000 matmul:
        # 0.14 ms without waiting, 400 ms with)
        Invalid(
            """
            import datetime
            from datetime import datetime as dt
            import time

            import jax
            import jax.numpy as jnp

            step = jax.jit(lambda x: jnp.tanh(x @ x))


            def train(x):
                start = datetime.datetime.now()
                for _ in range(10):
                    x = step(x)
                elapsed = datetime.datetime.now() - start
                t0 = dt.now()
                y = jax.ops.segment_sum(x, jnp.zeros(x.shape[0], int), num_segments=1)
                print("took", dt.now() - t0)
                c0 = time.thread_time()
                z = step(y)
                return elapsed, time.thread_time() - c0
            """,
            expected=[(15, 15), (18, 19), (21, 21)],
            messages=[
                "`datetime.datetime.now()` is read while the JAX computation started on line 14 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`",
                "`dt.now()` is read while the JAX computation started on line 17 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`",
                "`time.thread_time()` is read while the JAX computation started on line 20 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`",
            ],
        ),
        # a method of a JAX array that computes (`y.sum()`, `w.astype(...).max()`), on the
        # result of a jitted call or of `jnp.linalg.svd`: dispatched like `jnp.sum(y)`
        # (jax 0.10.2 CPU: `y.sum()` of a 3000x3000 product returns after 0.05 ms, ready
        # after 1.2 s; jax#802 timed `foo.factors.sum()` the same way)
        Invalid(
            """
            import time

            import jax
            import jax.numpy as jnp
            import numpy as np

            f = jax.jit(lambda a: a @ a)


            def run(x):
                y = f(x)
                t = time.time()
                z = y.sum()
                dt = time.time() - t
                w = jnp.linalg.svd(x, compute_uv=False)
                t = time.perf_counter()
                m = w.astype(jnp.float16).max()
                return dt, time.perf_counter() - t, z, m
            """,
            expected=[(14, 10), (18, 16)],
            messages=[
                "`time.time()` is read while the JAX computation started on line 13 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`",
                "`time.perf_counter()` is read while the JAX computation started on line 17 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`",
            ],
        ),
        # ... also of an attribute of an instance whose class stores there only a jitted
        # call's result (jax#802: `foo.factors.sum()` timed in microseconds, the SVD still
        # running), through a local jitted def or a jit bound in `__init__`
        Invalid(
            """
            import time

            import jax
            import jax.numpy as jnp
            from jax import jit


            class Factorizer:
                def __init__(self, data):
                    self.data = data

                def f(self, rank):
                    @jit
                    def g(data):
                        u, s, vt = jnp.linalg.svd(data, full_matrices=False)
                        return u[:, :rank] * s[:rank]
                    x = g(self.data)
                    self.factors = x


            class Runner:
                def __init__(self):
                    self._step = jax.jit(lambda x: jnp.tanh(x @ x))

                def run(self, x):
                    self.out = self._step(x)


            def bench(data, x):
                foo = Factorizer(data)
                foo.f(10)
                start = time.time()
                total = foo.factors.sum()
                dt = time.time() - start
                r = Runner()
                r.run(x)
                t0 = time.perf_counter()
                m = r.out.mean()
                return dt, time.perf_counter() - t0, total, m
            """,
            expected=[(34, 10), (39, 16)],
            messages=[
                '`time.time()` is read while the JAX computation started on line 33 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`',
                '`time.perf_counter()` is read while the JAX computation started on line 38 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`',
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._unit: Optional[Unit] = None
        self._start: Optional[cst.Call] = None
        self._pending: list[cst.Call] = []
        self._ignore: set[int] = set()
        self._waited: set[int] = set()  # calls whose result a Python test converts to bool
        self._starts_only: set[int] = set()  # clock reads that only start intervals (`tic = time.time()`)

    def visit_Assign(self, node: cst.Assign) -> None:
        """``tic = time.time()`` where ``tic`` is only ever subtracted from later clock
        reads (``time.time() - tic``): it starts an interval and ends none, so work
        dispatched before it is not what it measures."""
        value = node.value
        if (len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name)
                and isinstance(value, cst.Call) and self.ctx.qualname(value.func) in _TIMERS
                and _only_subtracted(self.ctx.unit.node, node.targets[0].target.value)):
            self._starts_only.add(id(value))

    def _sync(self) -> None:
        if self._unit is not self.ctx.unit:
            self._unit = self.ctx.unit
            self._start = None
            self._pending = []
            self._ignore = set()

    def _clear(self, node=None) -> None:
        self._sync()
        self._pending = []

    visit_FormattedString = visit_Await = _clear

    def _clear_test(self, node) -> None:
        """``if f(x):`` / ``while ...:`` / ``assert ...``: Python calls ``bool()`` on the
        test, which waits for the JAX computation it depends on (and, in dispatch
        order, for every computation started before it)."""
        self._clear()
        self._waited.update(id(d) for d in descendants(node.test) if isinstance(d, cst.Call))
        if isinstance(node.test, cst.Call):
            self._waited.add(id(node.test))

    visit_If = visit_Assert = _clear_test

    def visit_While(self, node: cst.While) -> None:
        self._sync()
        if not self.ctx.in_traced:
            self._harness_loop(node)
        self._clear_test(node)

    def _harness_loop(self, node: cst.While) -> None:
        """``while state: f(*args)`` in a benchmark (google_benchmark's protocol): a loop
        on a parameter that its body never names and never breaks out of, so the object
        alone decides when it ends, and times it (it reads the clock when asked for its
        truth).  JAX calls in the loop that nothing waits for, in the loop or after it,
        are dispatch timed; a warm-up call before the loop that nothing waits for is
        still running when the timed loop starts, and counted in it."""
        ctx = self.ctx
        unit = ctx.unit
        test = node.test
        if unit.is_module or not isinstance(test, cst.Name) or unit.param(test.value) is None \
                or test.value in unit.assigned:
            return
        body = [n for n in walk_tree(node.body, _DEF_NODE) if not _DEF_NODE(n) or n is node.body]
        if any(isinstance(n, cst.Break) or (isinstance(n, cst.Name) and n.value == test.value) for n in body):
            return
        loop_calls = [n for n in body if isinstance(n, cst.Call)]
        work = [c for c in loop_calls if self._starts_jax_work(c, ctx.qualname(c.func))]
        if not work or "block_until_ready" in ctx.code(node.body) \
                or any(not self._starts_jax_work(c, ctx.qualname(c.func)) and not self._harmless(c, ctx.qualname(c.func))
                       for c in loop_calls):
            return  # nothing dispatched, or something in the loop waits (or might)
        block = _block_of(unit.node, node)
        if block is None:
            return
        stmts = list(block.body)
        at = next(i for i, st in enumerate(stmts) if st is node)
        if any(isinstance(d, (cst.Call, cst.Return, cst.Yield)) for st in stmts[at + 1:] for d in walk_tree(st)):
            return  # something after the loop (a wait, a result handed on)
        name = unit.name
        for c in work:
            if any(c is not o and any(d is c for d in descendants(o)) for o in work):
                continue  # an argument of another JAX call: reported there
            self.report(
                c,
                f"`{ctx.code(c).strip()}` runs in the timed `while {test.value}:` loop of the benchmark "
                f"`{name}` and nothing waits for it, in the loop or after it (dispatch is asynchronous): "
                f"the benchmark measures the dispatch, not the work. Wait for the result: "
                f"`jax.block_until_ready({ctx.code(c).strip()})`",
            )
        # the warm-up: the calls before the loop, back to the last one that may wait
        warm = []
        for st in reversed(stmts[:at]):
            calls = [d for d in walk_tree(st) if isinstance(d, cst.Call)]
            if any("block_until_ready" in ctx.code(c) for c in calls):
                break
            starts = [c for c in calls if self._starts_jax_work(c, ctx.qualname(c.func))]
            if starts and all(c in starts or self._harmless(c, ctx.qualname(c.func)) for c in calls):
                warm.extend(c for c in starts if not any(c is not o and any(d is c for d in descendants(o))
                                                         for o in starts))
                continue
            if calls and not all(self._harmless(c, ctx.qualname(c.func)) for c in calls):
                break
        for c in warm:
            if not any(ctx.code(c).strip() == ctx.code(w).strip() for w in work):
                continue  # a warm-up of what the loop runs
            self.report(
                c,
                f"`{ctx.code(c).strip()}` warms up the benchmark `{name}` before its timed `while "
                f"{test.value}:` loop, and nothing waits for it (dispatch is asynchronous): its work is "
                f"still running when the timed loop starts, and counted in it. Wait for it: "
                f"`jax.block_until_ready({ctx.code(c).strip()})`",
            )

    def visit_Call(self, node: cst.Call) -> None:
        self._sync()
        ctx = self.ctx
        if ctx.in_traced:
            return
        q = ctx.qualname(node.func)
        timed = self._timed_callable(node, q)
        if timed is not None:
            self._check_timed(node, timed, q)
            return
        if q in _TIMERS:
            if self._start is not None and self._pending and id(node) not in self._starts_only:
                self._report(node)
            self._start = node
            self._pending = []
            return
        if self._start is None or id(node) in self._ignore:
            return
        if ctx.builtin_name(node.func) == "print" and self._pending:
            # print(time.time() - t0): the arguments, timer included, are
            # evaluated before print formats (and so waits for) anything
            made = None
            fields: list = []
            for d in descendants(node):
                if isinstance(d, cst.FormattedStringExpression):
                    fields.append(d)
                if isinstance(d, cst.Call) and ctx.qualname(d.func) in _TIMERS:
                    made = self._results(self._pending) if made is None and fields else made or set()
                    if any(not any(x is d for x in descendants(f)) and _formats_values(f.expression, made)
                           for f in fields):
                        # f"loss {loss:3e} time {time.time() - t0}": the fields are formatted
                        # left to right, and formatting the result waits for it before the
                        # clock is read
                        self._start = d
                        self._pending = []
                        self._ignore.update(id(x) for x in descendants(node) if isinstance(x, cst.Call))
                        return
                    self._report(d)
                    self._start = d
                    self._pending = []
                    self._ignore.update(id(x) for x in descendants(node) if isinstance(x, cst.Call))
                    return
        if self._starts_jax_work(node, q):
            if "block_until_ready" in ctx.code(node) or id(node) in self._waited:
                self._pending = []
            else:
                self._pending.append(node)
            return
        if self._harmless(node, q):
            return
        # might block (or might be anything): stay quiet, also about the calls in its arguments
        self._pending = []
        self._ignore.update(id(d) for d in descendants(node) if isinstance(d, cst.Call))

    def _results(self, calls: list) -> set:
        """The names the calls ``calls`` are assigned to (``net, (loss, aux) = step(...)``)."""
        out: set = set()
        ids = {id(c) for c in calls}
        for n in descendants(self.ctx.unit.node):
            if isinstance(n, cst.Assign) and id(n.value) in ids:
                out.update(x.value for t in n.targets for x in (t.target, *descendants(t.target))
                           if isinstance(x, cst.Name))
        return out

    def _magic_cell(self, node: cst.With) -> Optional[cst.Call]:
        item = node.items[0].item if len(node.items) == 1 else None
        if (isinstance(item, cst.Call) and isinstance(item.func, cst.Name)
                and item.func.value in _MAGICS and self.ctx.qualname(item.func) is None):
            return item
        return None

    def _timer_item(self, node: cst.With) -> Optional[tuple[cst.Call, str]]:
        """``with Timer() as t:`` / ``with timed("step"):`` of a context manager of this
        file that reads a clock on entering and again on leaving (model/timers.py): the
        item's call and the manager's name."""
        for item in node.items:
            name = timing_manager(self.ctx.index, self.ctx.qualname, item.item)
            if name is not None:
                return item.item, name
        return None

    def visit_With(self, node: cst.With) -> None:
        """A `%%timeit` / `%%time` notebook cell, or a block a timing context manager of the
        file wraps: its body is the timed interval."""
        self._sync()
        if self.ctx.in_traced:
            return
        start = self._magic_cell(node)
        if start is None:
            timer = self._timer_item(node)
            if timer is None:
                return
            start = timer[0]
        self._start = start
        self._pending = []

    @staticmethod
    def _ends_with(node: cst.With, call: cst.Call) -> bool:
        """Is ``call`` in the last statement of the ``with`` block's body?"""
        body = node.body.body
        return bool(body) and any(d is call for d in descendants(body[-1]))

    def leave_With(self, node: cst.With) -> None:
        start = self._magic_cell(node)
        if start is None and not self.ctx.in_traced:
            timer = self._timer_item(node)
            if timer is not None and self._start is timer[0]:
                if self._pending:
                    self._report_managed(timer[0], timer[1])
                self._start = None
                self._pending = []
            return
        if start is None or self._start is not start:
            return
        if self._pending and all(self.ctx.qualname(c.func) in _CONVERSIONS for c in self._pending) \
                and self._ends_with(node, self._pending[-1]):
            # the cell's JAX work still pending is only host data made into arrays, and the
            # cell ends there (`X = jnp.array(X)[:n]` after loading a data set): no computation
            # to wait for (`X = jnp.asarray(data); G = X @ X.T` computes after it: reported)
            self._pending = []
        if self._pending and isinstance(node.body, cst.SimpleStatementSuite):
            # `%time y = f(x)` / `%timeit y = f(x)`: a line magic timing one statement
            what = _MAGICS[start.func.value]  # type: ignore[attr-defined]
            shown = self.ctx.code(self._pending[-1].func).strip()
            self.report(
                node,
                f"{what} times a statement that starts `{shown}(...)`, a JAX computation that is "
                f"dispatched asynchronously, and nothing waits for it: this measures the dispatch "
                f"(and, on a first call, the compilation), not the work. Wait inside the timed "
                f"statement: `jax.block_until_ready({shown}(...))`",
                None,
            )
        elif self._pending:
            last = self._pending[-1]
            self.report(
                start,
                f"The timed cell ends while the JAX computation started on line {{related_line}} may "
                f"still be running (dispatch is asynchronous): the cell magic measures the dispatch, "
                f"not the work. End the cell with `jax.block_until_ready(result)`",
                None,
                related=last,
            )
        self._start = None
        self._pending = []

    def _report_managed(self, start: cst.Call, manager: str) -> None:
        """The block of a timing context manager ends while its last JAX call may still run:
        reported at that call, where the wait belongs (the outermost: `f(g(x))` at `f`)."""
        pending = self._pending
        outer = [c for c in pending if not any(o is not c and any(d is c for d in descendants(o)) for o in pending)]
        last = outer[-1] if outer else pending[-1]
        ctx = self.ctx
        jax_alias = self.module_alias("jax")
        rfix = None
        if jax_alias is not None:
            rfix = fix(
                Applicability.UNSAFE,
                f"Wrap in `{jax_alias}.block_until_ready(...)`",
                Replacement(last, f"{jax_alias}.block_until_ready({ctx.code(last).strip()})"),
            )
        shown = ctx.code(last).strip()
        if "\n" in shown:
            # a call written over several lines (`graph.solve(\n    x0, ...\n)`): its callee
            shown = f"{ctx.code(last.func).strip()}(...)"
        self.report(
            last,
            f"`{shown}` is the last JAX computation in the block timed by "
            f"`with {ctx.code(start).strip()}` (line {{related_line}}), whose exit reads the clock "
            f"while the computation may still be running (dispatch is asynchronous): this measures "
            f"the dispatch (and, on a first call, the compilation), not the work. Wait for the result "
            f"inside the block: `jax.block_until_ready(result)`",
            rfix,
            related=start,
        )

    def _timed_callable(self, node: cst.Call, q: Optional[str]) -> Optional[cst.Lambda]:
        """The lambda a `timeit.timeit(lambda: ...)` / `%timeit` magic times."""
        magic = isinstance(node.func, cst.Name) and node.func.value in _MAGICS and q is None
        if not magic and q not in _TIMEIT_CALLS:
            return None
        arg = node.args[0].value if node.args and node.args[0].keyword is None else None
        if arg is None:
            arg = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "stmt"), None)
        return arg if isinstance(arg, cst.Lambda) else None

    def _check_timed(self, node: cst.Call, timed: cst.Lambda, q: Optional[str]) -> None:
        """The timed expression starts JAX work and nothing in it waits: the
        timing measures the dispatch."""
        ctx = self.ctx
        calls = [d for d in descendants(timed.body) if isinstance(d, cst.Call)]
        self._ignore.update(id(c) for c in calls)
        if "block_until_ready" in ctx.code(timed.body) or not isinstance(timed.body, cst.Call):
            return
        body = timed.body
        inner = [c for c in calls if c is not body]
        if any(not self._starts_jax_work(c, ctx.qualname(c.func)) and not self._harmless(c, ctx.qualname(c.func))
               for c in inner):
            return  # an unknown call inside might wait
        if not self._starts_jax_work(body, ctx.qualname(body.func)):
            return
        what = _MAGICS.get(node.func.value, "`%timeit`") if q is None and isinstance(node.func, cst.Name) \
            else f"`{ctx.code(node.func).strip()}(...)`"
        jax_alias = self.module_alias("jax")
        rfix = None
        if jax_alias is not None and q is not None:  # a magic's line is IPython syntax: not rewritten
            rfix = fix(
                Applicability.UNSAFE,
                f"Wrap in `{jax_alias}.block_until_ready(...)`",
                Replacement(body, f"{jax_alias}.block_until_ready({ctx.code(body).strip()})"),
            )
        self.report(
            node,
            f"{what} times `{ctx.code(body.func).strip()}(...)`, a JAX computation that is "
            f"dispatched asynchronously and never waited for: this measures the dispatch (and, on a "
            f"first call, the compilation), not the work. Time `jax.block_until_ready({ctx.code(body).strip()})` instead",
            rfix,
        )

    def _starts_jax_work(self, node: cst.Call, q: Optional[str]) -> bool:
        func = node.func
        if type(func) is cst.Attribute and func.attr.value in _ARRAY_METHODS and self._jax_result(func.value):
            # `y.sum()` of a JAX array (`y = step(x)`): a computation dispatched like
            # `jnp.sum(y)` (a method call on a host NumPy array is not one)
            return True
        if q is not None:
            if q.startswith(_ARRAY_PREFIXES):
                return q not in ("jax.numpy.shape", "jax.numpy.ndim", "jax.numpy.size")
            # a project function imported here that returns a jitted call's result
            return not q.startswith(("jax.", "numpy.")) and self.ctx.dispatched_by(node) is not None
        if self.ctx.jit_callee(node, exact=False) is not None:
            return True
        if isinstance(node.func, cst.Name) and _compiled(self.ctx, bound_once(self.ctx.index, self.ctx.unit, node.func)):
            return True
        # a parameter every call of the function gives a jitted function (`fn` of
        # `def bench(fn, x)` called as `bench(jax.jit(f), x)`, here or in another module)
        func = node.func
        if isinstance(func, cst.Name) and self.ctx.unit.param(func.value) is not None:
            v = self.ctx.value(func)
            return v.kind == V.FUNCTION and v.transform == "jax.jit"
        # a callable a JAX transformation returned (`vf = jax.vmap(f)`, `g = jax.grad(loss)`,
        # `jax.vmap(f)(x)`, `eqx.filter_jit(f)`): calling it runs JAX work, dispatched
        # asynchronously like a jitted call's
        if isinstance(func, (cst.Name, cst.Call)):
            v = self.ctx.value(func)
            if v.kind == V.FUNCTION and v.transform in _DISPATCHING_TRANSFORMS:
                return True
        # a helper (of this file or the project, a method, a lambda) that returns a jitted
        # call's result without waiting: `def generate(x): return pipeline(x)`
        return self.ctx.dispatched_by(node) is not None

    def _jax_result(self, e: cst.BaseExpression, depth: int = 0) -> bool:
        """Is ``e`` a JAX array: by the value model, or a name its scope binds once, to a
        call that starts JAX work (``y = step(x)`` with ``step`` jitted)?"""
        ctx = self.ctx
        if depth > 4:
            return False
        if ctx.value(e).kind == V.ARRAY:
            return True
        if type(e) is cst.Call and type(e.func) is cst.Attribute and e.func.attr.value in _ARRAY_METHODS:
            return self._jax_result(e.func.value, depth + 1)  # `w.astype(jnp.float16).max()`
        if type(e) is cst.Attribute and type(e.value) is cst.Name:
            # `foo.factors` where `foo = Factorizer(...)` and every store of `self.factors`
            # in the class is a jitted call's result (jax#802)
            cls = instance_class(ctx.index, ctx.unit, e.value)
            return cls is not None and attribute_dispatched(
                ctx.index, cls, e.attr.value, imports_resolver(ctx.index)) is not None
        if type(e) is not cst.Name or ctx.unit.param(e.value) is not None:
            return False
        bound = bound_once(ctx.index, ctx.unit, e)
        if type(bound) is not cst.Call or bound is e:
            return False
        if type(bound.func) is cst.Attribute and bound.func.attr.value in _ARRAY_METHODS:
            return self._jax_result(bound, depth + 1)
        return self._starts_jax_work(bound, ctx.qualname(bound.func))

    def _harmless(self, node: cst.Call, q: Optional[str]) -> bool:
        ctx = self.ctx
        b = ctx.builtin_name(node.func)
        if b in _HARMLESS_BUILTINS:
            return True
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in _HARMLESS_METHODS:
            return True
        if q in _NUMPY_BUILDERS:
            # `np.ones((500, 500))`: from a shape and scalars (no call, no JAX array, inside)
            return not any(
                isinstance(d, cst.Call) or ctx.value(d).kind in (V.ARRAY, V.ARRAYS, V.KEY) or ctx.value(d).traced
                for a in node.args for d in (a.value, *descendants(a.value))
                if isinstance(d, (cst.Call, cst.Name, cst.Attribute, cst.Subscript))
            )
        if q is not None and q.startswith("jax.") and "block_until_ready" not in ctx.code(node):
            short = q.rsplit(".", 1)[1]
            return short not in ("block_until_ready", "device_get", "effects_barrier")
        return False

    def _report(self, stop: cst.Call) -> None:
        last = self._pending[-1]
        ctx = self.ctx
        timer = ctx.code(stop.func).strip()
        jax_alias = self.module_alias("jax")
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
            f"still be running (dispatch is asynchronous): this measures the dispatch (and, on a "
            f"first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or "
            f"`result.block_until_ready()`",
            rfix,
            related=last,
        )
        self._pending = []


def _formats_values(e: cst.BaseExpression, names: set) -> bool:
    """Does formatting ``e`` read the values of one of ``names``' arrays (``loss``,
    ``aux[0]``, ``float(loss)``, ``loss.item()``), not only what the host knows of it
    (``loss.shape``, ``len(aux)``)?"""
    if isinstance(e, cst.Call):
        if isinstance(e.func, cst.Name) and e.func.value in ("float", "int", "str", "repr") and len(e.args) == 1:
            return _formats_values(e.args[0].value, names)
        if isinstance(e.func, cst.Attribute) and e.func.attr.value in ("item", "tolist") and not e.args:
            return _formats_values(e.func.value, names)
        return False
    while isinstance(e, cst.Subscript):
        e = e.value
    return isinstance(e, cst.Name) and e.value in names


def _only_subtracted(scope: cst.CSTNode, name: str) -> bool:
    """Is every read of ``name`` in ``scope`` the right operand of a subtraction
    (``t1 - name``), with at least one, and every write a plain assignment?"""
    subtracted: set[int] = set()
    targets: set[int] = set()
    names: list[cst.Name] = []
    for d in walk_tree(scope):
        if isinstance(d, cst.BinaryOperation) and isinstance(d.operator, cst.Subtract) \
                and isinstance(d.right, cst.Name) and d.right.value == name:
            subtracted.add(id(d.right))
        elif isinstance(d, cst.AssignTarget) and isinstance(d.target, cst.Name):
            targets.add(id(d.target))
        elif isinstance(d, cst.Attribute):
            targets.add(id(d.attr))  # `x.name`: not the variable
        elif isinstance(d, cst.Arg) and d.keyword is not None:
            targets.add(id(d.keyword))
        elif isinstance(d, cst.Name) and d.value == name:
            names.append(d)
    return bool(subtracted) and all(id(n) in subtracted or id(n) in targets for n in names)


def _DEF_NODE(n: cst.CSTNode) -> bool:
    return isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda))


def _block_of(root: cst.CSTNode, stmt: cst.CSTNode) -> Optional[cst.IndentedBlock]:
    """The block whose statements hold ``stmt`` directly."""
    for n in walk_tree(root):
        if isinstance(n, cst.IndentedBlock) and any(s is stmt for s in n.body):
            return n
    return None


def _compiled(ctx, e: cst.BaseExpression) -> bool:
    """``jax.jit(f).lower(x).compile()`` (also through ``.trace(x).lower()``): an
    ahead-of-time compiled function, whose calls dispatch as a jitted function's do."""
    if not (isinstance(e, cst.Call) and isinstance(e.func, cst.Attribute) and e.func.attr.value == "compile"):
        return False
    while isinstance(e, cst.Call) and isinstance(e.func, cst.Attribute) and e.func.attr.value in ("compile", "lower", "trace"):
        e = e.func.value
    if isinstance(e, cst.Name):
        # `f_jit = jax.jit(f)` ... `f_jit.lower(x).compile()`: a name bound once to the jit
        e = bound_once(ctx.index, ctx.unit, e)
    return isinstance(e, cst.Call) and ctx.qualname(e.func) in CACHING_JITS
