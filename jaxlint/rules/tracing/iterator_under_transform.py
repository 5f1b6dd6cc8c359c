"""JAX203 iterator-under-transform: `next()`/iterators/generators used in traced code or passed to JAX."""

from __future__ import annotations

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import apis
from jaxlint.model import values as V

_LOOP_BODY_REASONS = tuple(f"a body passed to lax.{n}" for n in ("scan", "fori_loop", "while_loop", "map"))


# lax primitives whose non-function arguments are JAX operands
_LAX_OPERAND_PRIMITIVES = frozenset(
    {
        "jax.lax.fori_loop",
        "jax.lax.while_loop",
        "jax.lax.scan",
        "jax.lax.cond",
        "jax.lax.switch",
        "jax.lax.map",
        "jax.lax.associative_scan",
    }
)


class IteratorUnderTransform(Rule):
    code = "JAX203"
    name = "iterator-under-transform"
    runtime_check = 'the trace error (an iterator is not a JAX type); else the differential oracle: compiled and eager runs over two calls disagree (the iterator was read once, at trace time).'
    summary = "`next()`/iterators/generators used in traced code or passed to JAX"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Pure functions: iterators (seed 000)"
    what_it_does = (
        "Flags, inside traced code (jit/vmap bodies, `lax` loop and branch bodies), calls to "
        "`next()` on an iterator that comes from outside the function (in a `lax.scan`/"
        "`fori_loop`/`while_loop`/`map` body: from outside the body, even when the enclosing "
        "traced function makes it), and `yield` in a "
        "function that JAX traces. Everywhere, flags iterators and generators (`iter(...)`, "
        "generator expressions, `map`/`filter`/`zip`/`enumerate` objects, generator calls) "
        "passed as operands to `lax.fori_loop`, `while_loop`, `scan`, `cond`, `switch`, "
        "`map`, or to a jitted function."
    )
    why_bad = (
        "An iterator is hidden Python state, and JAX traces a function once:\n\n"
        "* `lax.fori_loop(0, 10, lambda i, x: x + next(it), 0)` returns `0`, not `45`: the body "
        "was traced once, so `next` ran once, and the compiled loop adds that one value every "
        "iteration, silently (verified on JAX 0.10.2 and 0.12).\n"
        "* Passing an iterator as an operand raises `TypeError: ... is not a valid JAX type` "
        "(`lax.cond`) or `TypeError: Error interpreting argument to ... as an abstract array` "
        "(`jit`, `make_jaxpr`, `lax.scan`).\n"
        "* A jitted generator function cannot return its values as arrays."
    )
    use_instead = (
        "```python\narray = jnp.arange(10)\nlax.fori_loop(0, 10, lambda i, x: x + array[i], 0)\n```"
    )
    fix_safety = "No automatic fix."
    VALID = [
        Valid(
            """
            import jax


            @jax.jit
            def f(xs):
                leaves = iter([xs, xs + 1])

                def take():
                    # the iterator is made inside the same trace
                    return next(leaves)

                return take() + take()
            """,
        ),
        Valid(
            """
            import jax


            def take(leaves):
                # a helper traced through its caller, which makes the iterator in the trace
                return next(leaves) * 2


            @jax.jit
            def f(xs):
                leaves = iter([xs, xs + 1])
                return take(leaves)
            """,
        ),
        Valid(
            """
            import jax.numpy as jnp
            from jax import lax
            array = jnp.arange(10)
            print(lax.fori_loop(0, 10, lambda i, x: x + array[i], 0))
            """
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(xs):
                parts = iter([xs[0], xs[1]])
                first = next(parts)
                return first + next(parts)
            """
        ),
        Valid(
            """
            import jax

            def batches(data):
                for row in data:
                    yield row

            step = jax.jit(lambda b: b * 2)
            for b in batches([1.0, 2.0]):
                step(b)
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            it = iter(range(3))
            x = jnp.asarray(next(it))
            """
        ),
        Valid(
            """
            import jax

            def first_bad(args):
                return next((i, a) for i, a in enumerate(args) if a is None)

            @jax.jit
            def f(x):
                first_bad([x])
                return x
            """
        ),
        Valid(
            """
            import contextlib
            import jax

            @contextlib.contextmanager
            def errors_as_messages():
                yield

            @jax.jit
            def f(x):
                with errors_as_messages():
                    return x * 2
            """
        ),
        # a helper consuming an iterator its traced caller makes afresh on each trace
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def _rebuild(shapes, leaves_iter):
                return [next(leaves_iter).reshape(s) for s in shapes]


            @jax.jit
            def unflatten(flat):
                return _rebuild([(2,), (3,)], iter([flat[:2], flat[2:]]))
            """
        ),
        # an iterator unpacked into the call with `*`: its items are passed
        Valid(
            """
            import jax


            @jax.jit
            def loss(a, b):
                return a + b


            def evaluate(args):
                first = loss(*map(jax.numpy.asarray, args))
                return first + loss(*(jax.numpy.asarray(a) for a in args))
            """
        ),
        # an iterator made inside the loop body, and one a traced function makes and
        # consumes itself
        Valid(
            """
            import jax
            from jax import lax

            def train_step(params, data):
                it = iter(data)
                first = next(it)

                def body(p, _):
                    batches = iter(data)
                    return p - 0.1 * next(batches), p

                params, _ = lax.scan(body, params + first, None, length=3)
                return params

            run = jax.jit(train_step)
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            import jax


            def train(batches, c0):
                def body(c, _):
                    # `batches` comes from the host: scan traces `body` once
                    return c + next(batches), None

                return jax.lax.scan(body, c0, None, length=10)
            """,
            expected=[(7, 20)],
            messages=[
                "`next()` on an iterator from outside traced code runs once, at trace time: the compiled function reuses that single element on every call/iteration (silently wrong). Index an array instead (`xs[i]`), or iterate with `lax.scan`",
            ],
        ),
        Invalid(
            """
            import jax.numpy as jnp
            import jax.lax as lax
            iterator = iter(range(10))
            print(lax.fori_loop(0, 10, lambda i,x: x+next(iterator), 0))
            """,
            expected=[(4, 42)],
            messages=[
                "`next()` on an iterator from outside traced code runs once, at trace time: the compiled function reuses that single element on every call/iteration (silently wrong). Index an array instead (`xs[i]`), or iterate with `lax.scan`",
            ],
        ),
        Invalid(
            """
            import jax.numpy as jnp
            from jax import lax
            iter_operand = iter(range(10))
            lax.cond(True, lambda x: x+1, lambda x: x-1, iter_operand)
            """,
            expected=[(4, 46)],
            messages=[
                "An iterator/generator is passed to lax.cond: iterators are not valid JAX types (TypeError), and traced code would consume them only once. Pass an array (e.g. `jnp.asarray(list(...))`) instead",
            ],
        ),
        Invalid(
            """
            import jax
            from jax import lax, make_jaxpr
            import jax.numpy as jnp

            def func11(arr, extra):
                def body(carry, aelems):
                    ae1, ae2 = aelems
                    return (carry + ae1 * ae2 + extra, carry)
                return lax.scan(body, 0., (arr, jnp.ones(arr.shape)))

            make_jaxpr(func11)(iter(range(16)), 5.)
            """,
            expected=[(11, 20)],
            messages=[
                "An iterator/generator is passed to a jitted function: iterators are not valid JAX types (TypeError), and traced code would consume them only once. Pass an array (e.g. `jnp.asarray(list(...))`) instead",
            ],
        ),
        Invalid(
            """
            import jax

            @jax.jit
            def gen(x):
                for i in range(3):
                    yield x * i
            """,
            expected=[(6, 9)],
            messages=[
                "`yield` in `gen`, which JAX traces (decorated with @jax.jit): a generator cannot be traced or return arrays. Return a stacked array, or use `lax.scan`",
            ],
        ),
        # the iterator is a parameter of the jitted function itself (and of its closure)
        Invalid(
            """
            import jax


            def _take(it):
                return next(it)


            @jax.jit
            def step(x, batches):
                def inner():
                    return next(batches)
                return x + inner() + _take(batches)
            """,
            expected=[(11, 16)],
            messages=[
                "`next()` on an iterator from outside traced code runs once, at trace time: the compiled function reuses that single element on every call/iteration (silently wrong). Index an array instead (`xs[i]`), or iterate with `lax.scan`",
            ],
        ),
        # a generator the enclosing scan body makes, consumed by an inner scan body
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            from jax import lax


            def _sample_minibatches(key, dataset, batch_size):
                perm = jax.random.permutation(key, len(dataset))
                for idx in range(0, len(dataset), batch_size):
                    yield dataset[perm[idx:idx + batch_size]]


            def run_sgd(params, dataset, keys):
                def train_step(carry, key):
                    sample_generator = _sample_minibatches(key, dataset, 2)

                    def step(p, _):
                        minibatch = next(sample_generator)
                        return p - 0.1 * jnp.mean(p - minibatch), p

                    carry, losses = lax.scan(step, carry, None, length=4)
                    return carry, losses.mean()

                return lax.scan(train_step, params, keys)
            """,
            expected=[(17, 25)],
            messages=[
                "`next()` in a `lax.scan` body on an iterator made outside the body runs once, when the body is traced: every iteration reuses that single element (silently wrong). Index an array instead (`xs[i]`), or pass the data to `lax.scan` as `xs`",
            ],
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        func = node.func
        if isinstance(func, cst.Name) and func.value == "next" and ctx.qualname(func) is None:
            if ctx.in_traced and node.args:
                self._check_next(node, node.args[0].value)
            return
        q = ctx.qualname(func)
        if q in _LAX_OPERAND_PRIMITIVES:
            t = apis.transform_for(q)
            fn_positions = set(t.fn_args) | set(t.fn_list_args) if t else set()
            for i, a in enumerate(node.args):
                if a.keyword is None and i in fn_positions:
                    continue
                if a.keyword is not None and t is not None and a.keyword.value in t.fn_kwargs:
                    continue
                self._check_operand(a.value, q.replace("jax.lax.", "lax."))
            return
        if self._is_jitted_callee(func):
            for a in node.args:
                if a.star:
                    continue  # `f(*map(g, args))`: the items are passed, not the iterator
                self._check_operand(a.value, "a jitted function")

    def _is_jitted_callee(self, func: cst.BaseExpression) -> bool:
        ctx = self.ctx
        v = ctx.value(func)
        if v.kind == V.FUNCTION and v.transform is not None:
            return True
        if isinstance(func, cst.Call):
            q = ctx.qualname(func.func)
            t = apis.transform_for(q)
            return t is not None and t.traces
        if v.unit is not None:
            return any(r.startswith(("decorated with", "wrapped by")) for r in v.unit.reasons)
        return False

    def _check_operand(self, expr: cst.BaseExpression, where: str) -> None:
        v = self.ctx.value(expr)
        if v.kind == V.ITERATOR:
            self.report(
                expr,
                f"An iterator/generator is passed to {where}: iterators are not valid JAX types "
                f"(TypeError), and traced code would consume them only once. Pass an array "
                f"(e.g. `jnp.asarray(list(...))`) instead",
            )

    def _made_under_trace(self, name: str) -> bool:
        """Is the iterator ``name`` made on each trace?  A parameter of a helper
        called from traced code (its caller may pass ``iter(leaves)`` afresh), or a
        variable of an enclosing traced function that is not a trace root: yes.
        A parameter of the traced function itself, or a name bound outside traced
        code: no, it comes from outside."""
        roots = ("decorated with", "wrapped by", "a body passed to")
        u = self.ctx.unit
        first = True
        while u is not None and not u.is_module:
            is_param = u.param(name) is not None
            if is_param or (not first and name in u.assigned):
                if not u.traced or u.host:
                    return False
                if not is_param:
                    return True  # a local of an enclosing traced function
                return not any(r.startswith(roots) for r in u.reasons)
            first = False
            u = u.parent
        return False

    def _loop_body(self) -> bool:
        """The function calling `next` is a `lax` loop body: traced once for all its
        iterations, so an iterator it did not make yields one element for all of them, even
        one the enclosing traced function makes afresh on each of its traces."""
        return any(r.startswith(_LOOP_BODY_REASONS) for r in self.ctx.unit.reasons)

    def _check_next(self, node: cst.Call, it: cst.BaseExpression) -> None:
        ctx = self.ctx
        if isinstance(it, cst.Name):
            params = {p.name for p in ctx.unit.params}
            local = ctx.local(it.value) is not None and it.value not in params
            if local:
                return
            if self._made_under_trace(it.value) and not self._loop_body():
                return
        elif not isinstance(it, cst.Attribute):
            return  # next(iter(...)), next(genexp): a fresh iterator on each trace
        body = next((r[len("a body passed to "):] for r in ctx.unit.reasons if r.startswith(_LOOP_BODY_REASONS)), None)
        if body is not None and isinstance(it, cst.Name) and self._made_under_trace(it.value):
            self.report(
                node,
                f"`next()` in a `{body}` body on an iterator made outside the body runs once, when "
                f"the body is traced: every iteration reuses that single element (silently wrong). "
                f"Index an array instead (`xs[i]`), or pass the data to `{body}` as `xs`",
            )
            return
        self.report(
            node,
            "`next()` on an iterator from outside traced code runs once, at trace time: the "
            "compiled function reuses that single element on every call/iteration (silently "
            "wrong). Index an array instead (`xs[i]`), or iterate with `lax.scan`",
        )

    def visit_Yield(self, node: cst.Yield) -> None:
        ctx = self.ctx
        roots = ("decorated with", "wrapped by", "a body passed to")
        if ctx.in_traced and any(r.startswith(roots) for r in ctx.unit.reasons):
            self.report(
                node,
                f"`yield` in `{ctx.unit.name}`, which JAX traces ({ctx.unit.reasons[0] if ctx.unit.reasons else 'traced'}): "
                "a generator cannot be traced or return arrays. Return a stacked array, or use `lax.scan`",
            )
