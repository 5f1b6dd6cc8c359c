"""JAX504 varying-static-argument: A loop counter passed as a `static_argnums`/`static_argnames` argument: one compile per value."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.model.dimensions import dimension_params

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import apis, kinds
from jaxlint.model.scopes import bound_once
from jaxlint.model.walk import assigned_in, int_value, positional_args, walk_tree


_FILTER_JITS = frozenset({"equinox.filter_jit"})
_NNX_JITS = frozenset({"flax.nnx.jit"})
# flax NNX optimizers: their optax transformation is part of the static graph
_NNX_OPTIMIZERS = frozenset({"flax.nnx.Optimizer", "flax.nnx.ModelAndOptimizer",
                             "flax.nnx.optimizer.Optimizer", "flax.nnx.training.optimizer.Optimizer"})


_LOOPS = (cst.For, cst.While)
# a counter over at most this many values (a constant range) in a loop run again: its
# compiles are few and paid once (see the rule's doc)
_FEW_VALUES = 8
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def _conditional_edge(parent: cst.CSTNode, child: cst.CSTNode) -> bool:
    """May ``child`` be skipped when ``parent`` runs: a branch of an `if` (statement or
    expression), a loop's body or `else` (a loop may run zero times), a `try`'s handlers
    and `else`, a `match` case, the right side of `and`/`or`, a comprehension's parts
    (for each element), a function or lambda body (runs when called)."""
    t = type(parent)
    if t is cst.If or t is cst.While:
        return child is not parent.test
    if t is cst.For:
        return child is parent.body or child is parent.orelse
    if t is cst.IfExp:
        return child is not parent.test
    if t is cst.BooleanOperation:
        return child is parent.right
    if t is cst.Try or t is getattr(cst, "TryStar", None):
        return child is not parent.body and child is not parent.finalbody
    if t is cst.Match:
        return child is not parent.subject
    return t in _COMPREHENSIONS or t is cst.Lambda or t is cst.FunctionDef or t is cst.ClassDef


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


def _counter_in(e: cst.BaseExpression, counters, ctx=None, depth: int = 0) -> Optional[str]:
    """The loop counter ``e`` is a one-to-one function of: the counter itself, arithmetic
    of it with constants or other counters (``i + 1``, ``float(i) / 10``, ``2 ** i``; not
    ``i % 2`` or ``i // k``, which take few values), ``int``/``float`` of one, or a name
    the loop binds to one (``lr = base * (i + 1)``)."""
    if depth > 4:
        return None
    if isinstance(e, cst.Name):
        if e.value in counters:
            return e.value
        bound = _bound_in_loop(ctx, e.value) if ctx is not None else None
        return _counter_in(bound, counters, ctx, depth + 1) if bound is not None else None
    if isinstance(e, cst.BinaryOperation):
        if isinstance(e.operator, (cst.Modulo, cst.FloorDivide, cst.BitAnd, cst.RightShift)):
            return None
        left = _counter_in(e.left, counters, ctx, depth + 1)
        right = _counter_in(e.right, counters, ctx, depth + 1)
        if left is not None and (right is not None or _invariant(ctx, e.right)):
            return left
        if right is not None and _invariant(ctx, e.left):
            return right
        return None
    if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Minus):
        return _counter_in(e.expression, counters, ctx, depth + 1)
    if isinstance(e, cst.Call) and ctx is not None and ctx.builtin_name(e.func) in ("int", "float") \
            and len(e.args) == 1 and e.args[0].keyword is None and not e.args[0].star:
        return _counter_in(e.args[0].value, counters, ctx, depth + 1)
    if isinstance(e, cst.Call) and ctx is not None:
        # a helper whose return changes one-to-one with a parameter (`cosine(i)` of `def
        # cosine(step, total=10): return 0.1 * math.cos(math.pi * step / total)`), of this
        # file or of another module of the project (its `counter:` fact)
        args = _schedule_arguments(ctx, e)
        found = [c for c in (_counter_in(a, counters, ctx, depth + 1) for a in args) if c is not None]
        if len(found) == 1 and all(_counter_in(a, counters, ctx, depth + 1) is not None or _invariant(ctx, a)
                                   for a in args):
            return found[0]  # one of them changes with the counter, the others stay
    return None


def _schedule_arguments(ctx, call: cst.Call) -> list[cst.BaseExpression]:
    """The arguments of ``call`` that its callee's result changes one-to-one with, each
    while the others stay (model/kinds.py ``counter_return``), as the call passes them
    (one it leaves out keeps its default); [] when unknown."""
    if any(a.star for a in call.args):
        return []
    fact = kinds.called_return_fact(ctx.index, ctx.local, ctx.value, call, kinds.counter_return)
    if fact is None or not fact.startswith(kinds.COUNTER):
        return []
    pos = [a for a in call.args if a.keyword is None]
    out = []
    for held in fact[len(kinds.COUNTER):].split(","):
        name, _, at = held.rpartition("@")
        kw = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == name), None)
        i = int(at) if at.isdigit() else -1
        arg = kw if kw is not None else (pos[i].value if 0 <= i < len(pos) else None)
        if arg is not None:  # (else left to its default: the same on every call)
            out.append(arg)
    return out


def _float_leaves(e: cst.BaseExpression, path: tuple = (), depth: int = 0):
    """The Python float literals of ``e`` (``1e-5``, ``-0.5``), also inside dict (string
    keys), list and tuple displays: (path in the display, value, the literal's node)."""
    if depth > 4:
        return
    if isinstance(e, cst.Float):
        try:
            yield path, float(e.value.replace("_", "")), e
        except ValueError:
            return
    elif isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Minus) and isinstance(e.expression, cst.Float):
        for p, v, _ in _float_leaves(e.expression, path, depth + 1):
            yield p, -v, e
    elif isinstance(e, cst.Dict):
        for el in e.elements:
            if isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString):
                yield from _float_leaves(el.value, (*path, el.key.evaluated_value), depth + 1)
    elif isinstance(e, (cst.List, cst.Tuple)):
        for i, el in enumerate(e.elements):
            if isinstance(el, cst.StarredElement):
                return
            yield from _float_leaves(el.value, (*path, i), depth + 1)


def _invariant(ctx, e: cst.BaseExpression) -> bool:
    """A literal number, or a name (``n``, ``cfg.lr``) the innermost loop does not bind."""
    if int_value(e) is not None or isinstance(e, (cst.Float, cst.Integer)):
        return True
    if ctx is None or not ctx.loop_stack or not isinstance(e, (cst.Name, cst.Attribute)):
        return False
    head = e
    while isinstance(head, cst.Attribute):
        head = head.value
    if not isinstance(head, cst.Name):
        return False
    # (a static argument computed in a loop is rare: no memo)
    return head.value not in assigned_in(ctx.loop_stack[-1].node)


def _bound_in_loop(ctx, name: str) -> Optional[cst.BaseExpression]:
    """The one expression the innermost enclosing loop's body binds ``name`` to
    (``n = i + 1``), when it binds it once, by a plain assignment, and nothing else
    binds it in the function; None otherwise."""
    if not ctx.loop_stack:
        return None
    loop = ctx.loop_stack[-1].node
    if not isinstance(loop, cst.For):
        return None
    found = None
    for n in walk_tree(loop.body):
        if isinstance(n, cst.Assign):
            for t in n.targets:
                names = [t.target] if isinstance(t.target, cst.Name) else list(walk_tree(t.target))
                if any(isinstance(x, cst.Name) and x.value == name for x in names):
                    if found is not None or not isinstance(t.target, cst.Name):
                        return None
                    found = n.value
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr)):
            if any(isinstance(x, cst.Name) and x.value == name for x in walk_tree(n.target)):
                return None
    if found is None or len(ctx.unit.bindings.get(name, ())) != 1:
        return None
    return found


def _own_field(e: cst.BinaryOperation, param: str, field: str) -> bool:
    """``m.x + 1`` (``param.field`` combined with a literal number)."""
    for a, b in ((e.left, e.right), (e.right, e.left)):
        if isinstance(a, cst.Attribute) and isinstance(a.value, cst.Name) and a.value.value == param \
                and a.attr.value == field and isinstance(b, (cst.Integer, cst.Float)):
            return not isinstance(e.operator, (cst.Modulo, cst.FloorDivide))
    return False


class VaryingStaticArgument(Rule):
    code = "JAX504"
    name = "varying-static-argument"
    runtime_check = 'compile counts over two calls: confirmed when a changing or unhashable static argument compiles again; with `--run`, also the observed calls with other static values replayed in order (a call at module level: those of the function it calls), confirmed when the function compiles again for arrays of the same shapes.'
    summary = "A loop counter passed as a `static_argnums`/`static_argnames` argument: one compile per value"
    severity = Severity.WARNING
    seed = "The Sharp Bits § static arguments and caching (seed 000); tutorial § static_argnums (seed 002)"
    what_it_does = (
        "Flags a call, inside `for i in range(...)` (or `for i, x in enumerate(...)`), of a "
        "function jitted with `static_argnums`/`static_argnames` where the static argument is "
        "the loop counter `i`, or a value that changes with it: `i` combined with constants, "
        "names the loop does not bind or other counters (`i + 1`, `float(i) / n`, `2 ** i`), "
        "`int`/`float` of one, a name the loop binds once to one (`lr = 0.5 * (i + 1)`), or a "
        "call of a helper (of this file, or of another module of the project, also one that "
        "never names JAX) that is one `return` of such arithmetic of a parameter given one "
        "(`lr=cosine(i)` of `def cosine(step, total=10): return 0.1 * (1 + math.cos(math.pi * "
        "step / total))`; `math.cos`/`exp`/`log`/`sqrt`... of one count); not "
        "`i % k`, `i // k` or `min(i, k)`, which take few values. Nor a counter over a constant "
        "range of at most 8 values (`range(3)`, `range(1, 4)`, `range(num_viz)` with `num_viz = 3` "
        "bound once) inside another loop of the same scope: each value compiles once, in the "
        "outer loop's first pass, and every later pass hits the cache (jax 0.10.2: a `for i in "
        "range(3)` inside 50 epochs leaves `_cache_size() == 3` after 150 calls), a cost paid "
        "once and bounded by the file itself. 8 is a chosen bound: a handful of compiles of "
        "one function, the size of a visualisation or evaluation sweep; past it, or where the "
        "bound is not such a constant (a parameter, `len(x)`, a name bound twice) or no loop "
        "runs it again, it is reported. The jitted function is "
        "resolved through `@jax.jit(...)`/`@partial(jax.jit, ...)` decorators, `f = jax.jit(g, "
        "static_argnums=...)` bindings and `jax.jit(g, ...)(...)` calls.\n\n"
        "Also flags, in any loop, a static argument made anew in every iteration as an object "
        "that equals only itself: an optax optimizer (`optax.adam(1e-3)`, a tuple of new "
        "functions), a `functools.partial(...)`, a lambda, written in the call or bound once by "
        "the loop's body; static means declared by `static_argnums`/`static_argnames`, or any "
        "argument of a function decorated with `eqx.filter_jit`. Outside loops, such a lambda or "
        "`functools.partial(...)` made in the body of a function that the project shows running "
        "again and again (called in a loop, from a function that runs so, across modules) and "
        "passed in a declared static position: a new static value on every call of that "
        "function (probdiffeq's `solve` handing `vector_field=lambda *x: ...` to a jitted "
        "`taylor_mode_fn`). Under `flax.nnx.jit` "
        "(decorated, through `partial`, or `step = nnx.jit(f)`): an `nnx.Optimizer`/"
        "`nnx.ModelAndOptimizer` made in the loop with an optax optimizer made in the loop too "
        "(`nnx.Optimizer(model, optax.adam(1e-3))`): the optax transformation is part of the "
        "optimizer's static graph, so every call traces again (3 traces for 3 epochs, counted "
        "with flax 0.12; building `tx` once before the loop gives 1).\n\n"
        "Under `eqx.filter_jit` every argument that is not an array is static, Python numbers "
        "included: flags the loop counter (or a value that changes with it) passed to such a "
        "function, and a Module the loop carries through it (`m = step(m)`) when the function "
        "returns a new equinox Module whose field annotated `int`/`float` it changes "
        "(`return M(x=m.x + 1, ...)`; the class here or imported): one compile per iteration "
        "(`JAX_LOG_COMPILES=1` shows it). A `jnp` counter, a constant or a field passed on "
        "unchanged stay quiet.\n\n"
        "Outside loops too: a Python float written in a static argument (any argument of an "
        "`eqx.filter_jit` function, also inside a dict, list or tuple display such as "
        "`{\"atol\": 1e-5, \"rtol\": 1e-5}`; a `static_argnums`/`static_argnames` position) "
        "where an earlier call of the same function in the same scope wrote another float at the "
        "same place, and both can run in one execution (the earlier call on every path to this "
        "one, or both in one loop body; not the body and the `else` of an `if`, the two sides of "
        "`a if c else b`, two `match` cases): the call compiles again (a repeated value, an "
        "array, or an int, which is "
        "usually a size, stay quiet)."
    )
    why_bad = (
        "Static arguments are part of the compile-cache key: every distinct value traces and "
        "compiles the function again. Measured on jax 0.10.2/0.12: `jit(f, static_argnums=1)` "
        "called with n = 0..5 gives 6 traces and 6 compiles (`_cache_size() == 6`); even "
        "`n=1.0` after `n=1` compiles again. A loop counter is a new value every iteration, so "
        "the loop compiles once per step, silently."
    )
    use_instead = (
        "Pass the counter as a traced argument (drop it from `static_argnums`) and use "
        "`jnp`/`lax` operations on it:\n\n```python\n@jax.jit\ndef step(x, i):\n    return x * i\n```"
    )
    fix_safety = "No automatic fix: the function body may need the value to be static (shapes, Python control flow)."
    VALID = [
        # the same float twice, and arrays for the values that change (1 compile each)
        Valid(
            """
            import equinox as eqx
            import jax
            import jax.numpy as jnp


            @eqx.filter_jit
            def integrate(y0, opts):
                return jax.lax.fori_loop(0, 10, lambda i, y: y * (1.0 - opts["rtol"]), y0)


            if __name__ == "__main__":
                y0 = jnp.ones(3)
                integrate(y0, {"rtol": 1e-5})
                integrate(y0, {"rtol": 1e-5})
                integrate(y0, {"rtol": jnp.asarray(1e-4)})
                integrate(y0, {"rtol": jnp.asarray(1e-3)})
            """
        ),
        # the same objects made once, before the loop
        Valid(
            """
            import functools

            import equinox as eqx
            import jax
            import jax.numpy as jnp
            import optax


            def scale(x, factor):
                return x * factor


            @functools.partial(jax.jit, static_argnums=1)
            def apply(x, fn):
                return fn(x)


            @eqx.filter_jit
            def train_step(params, tx, state, grads):
                updates, state = tx.update(grads, state, params)
                return optax.apply_updates(params, updates), state


            def run(x, params, grads):
                double = functools.partial(scale, factor=2.0)
                tx = optax.sgd(0.1)
                state = tx.init(params)
                for step in range(3):
                    x = apply(x, double)
                    params, state = train_step(params, tx, state, grads)
                return x, params
            """
        ),
        Valid(
            """
            import jax
            from functools import partial

            @partial(jax.jit, static_argnums=1)
            def step(x, mode):
                return x * 2 if mode == 'a' else x

            def run(x):
                for i in range(100):
                    x = step(x, 'a')
                return x
            """
        ),
        # the counter in a traced position
        Valid(
            """
            import jax
            from functools import partial

            @partial(jax.jit, static_argnums=1)
            def step(x, mode, i):
                return x * i

            def run(x):
                for i in range(100):
                    x = step(x, 'a', i)
                return x
            """
        ),
        # not jitted: calling the plain function with a static-looking parameter
        Valid(
            """
            import jax

            def step(x, n):
                return x * n

            fast = jax.jit(step, static_argnums=1)

            def run(x):
                for i in range(10):
                    x = step(x, i)
                return x
            """
        ),
        # iterating over a list of configurations is deliberate
        Valid(
            """
            import jax

            def f(x, n):
                return x[:n]

            g = jax.jit(f, static_argnums=1)
            for n in [1, 2, 4]:
                g(x, n)
            """
        ),
        # values of the counter that take a few values (a parity, a clamp), or none of it
        Valid(
            """
            from functools import partial

            import jax


            @partial(jax.jit, static_argnames=("mode",))
            def step(x, mode):
                return x * 2 if mode else x


            def run(x, n, base):
                for i in range(n):
                    x = step(x, mode=i % 2)
                    x = step(x, mode=min(i, 3))
                    x = step(x, mode=base * 2)
                return x
            """
        ),
        # the optax transformation made once: the optimizers rebuilt around it trace once
        Valid(
            """
            import jax.numpy as jnp
            import optax
            from flax import nnx


            @nnx.jit
            def train_one_epoch(model, opt, x):
                loss, grads = nnx.value_and_grad(lambda m: jnp.mean(m(x) ** 2))(model)
                opt.update(model, grads)
                return loss


            def train(x, n_epochs):
                tx = optax.adam(1e-3)
                for epoch in range(n_epochs):
                    model = nnx.Linear(4, 1, rngs=nnx.Rngs(epoch))
                    opt = nnx.Optimizer(model, tx, wrt=nnx.Param)
                    train_one_epoch(model, opt, x)
            """
        ),
        # a static argument the body puts into a shape: each value is another program (other
        # shapes), so there is no single compile to keep; tracing it would raise
        Valid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp


            @partial(jax.jit, static_argnums=1)
            def pad(x, n):
                return jnp.zeros((n,)).at[: x.shape[0]].set(x)


            def window(x, size):
                return jnp.ones(size) * x[0]


            window_jit = jax.jit(window, static_argnames="size")


            def run(x):
                out = []
                for n in range(4, 40):
                    out.append(pad(x, n))
                    out.append(window_jit(x, size=n))
                return out
            """
        ),
        # a counter over 3 values inside the training loop: 3 compiles in the first epoch,
        # cache hits after (`sample._cache_size() == 3` however many epochs run)
        Valid(
            """
            from functools import partial

            import jax

            num_viz = 3


            @partial(jax.jit, static_argnums=1)
            def sample(x, i):
                return x * i


            def train(x, n_epochs):
                for epoch in range(n_epochs):
                    for i in range(num_viz):
                        x = sample(x, i)
                return x
            """
        ),
    ]

    INVALID = [
        # the same counter over 12 values, or over a size known only when it runs
        Invalid(
            """
            from functools import partial

            import jax


            @partial(jax.jit, static_argnums=1)
            def sample(x, i):
                return x * i


            def train(x, n_epochs, sizes):
                for epoch in range(n_epochs):
                    for i in range(12):
                        x = sample(x, i)
                    for j in range(len(sizes)):
                        x = sample(x, j)
                return x
            """,
            expected=[(14, 27), (16, 27)],
            messages=[
                "the loop counter `i` is passed as the static argument `i` (position 1): every new value traces and compiles the function again. Pass it as a traced argument instead (remove it from static_argnums/static_argnames)",
                "the loop counter `j` is passed as the static argument `i` (position 1): every new value traces and compiles the function again. Pass it as a traced argument instead (remove it from static_argnums/static_argnames)",
            ],
        ),
        # tolerances in a dict of Python floats, given to an `eqx.filter_jit` function: a new
        # value compiles again (2 compiles)
        Invalid(
            """
            import equinox as eqx
            import jax
            import jax.numpy as jnp


            @eqx.filter_jit
            def integrate(y0, opts):
                return jax.lax.fori_loop(0, 10, lambda i, y: y * (1.0 - opts["rtol"]), y0)


            if __name__ == "__main__":
                y0 = jnp.ones(3)
                integrate(y0, {"rtol": 1e-5})
                integrate(y0, {"rtol": 1e-4})
            """,
            expected=[(14, 19)],
            messages=[
                "`1e-4` is a new Python float for `integrate` (the call on line 13 passed `1e-5` there), an `eqx.filter_jit` function: every leaf of its arguments that is not an array is static, so this call traces and compiles `integrate` again (one compile per value). Pass the number as an array (`jnp.asarray(1e-4)`), which is traced",
            ],
        ),
        # a lambda bound in the loop's body, passed in a static position (3 compiles)
        Invalid(
            """
            import functools

            import jax
            import jax.numpy as jnp


            @functools.partial(jax.jit, static_argnums=1)
            def apply(x, fn):
                return fn(x)


            def run(x):
                for step in range(3):
                    act = lambda v: jnp.tanh(v) * 2.0
                    x = apply(x, act)
                return x

            """,
            expected=[(15, 22)],
            messages=[
                "`act`, a new lambda, made in every iteration, is passed as the static argument `fn` (position 1) of jit: a static argument is looked up in the compile cache by hash and equality, and this object equals only itself, so every call traces and compiles again. Make it once, before the loop",
            ],
        ),
        # an `nnx.Optimizer` rebuilt every epoch with a new optax transformation, passed to
        # an `nnx.jit` step: the transformation is in the optimizer's static graph
        Invalid(
            """
            import jax.numpy as jnp
            import optax
            from flax import nnx


            @nnx.jit
            def train_one_epoch(model, opt, x):
                loss, grads = nnx.value_and_grad(lambda m: jnp.mean(m(x) ** 2))(model)
                opt.update(model, grads)
                return loss


            def train(x, n_epochs):
                for epoch in range(n_epochs):
                    model = nnx.Linear(4, 1, rngs=nnx.Rngs(epoch))
                    opt = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
                    train_one_epoch(model, opt, x)
            """,
            expected=[(17, 32)],
            messages=[
                "`opt`, an `nnx.Optimizer` holding a new optax optimizer `optax.adam(...)` (a tuple of new functions), made in every iteration, is passed to `train_one_epoch`, an `nnx.jit` function: the optax transformation is part of the optimizer's static graph, which `nnx.jit` looks up in its compile cache by equality, and a new optax optimizer (a tuple of new functions) equals only itself, so every call traces and compiles again. Make the optax optimizer once, before the loop (`tx = optax.adam(...)`), and pass that `tx` to each `nnx.Optimizer`",
            ],
        ),
        # a static argument made anew in every iteration as an object that equals only itself:
        # a `functools.partial` in a static position of jit, an optax optimizer given to an
        # `eqx.filter_jit` step (its non-array arguments are static)
        Invalid(
            """
            import functools

            import equinox as eqx
            import jax
            import jax.numpy as jnp
            import optax


            def scale(x, factor):
                return x * factor


            @functools.partial(jax.jit, static_argnums=1)
            def apply(x, fn):
                return fn(x)


            @eqx.filter_jit
            def train_step(params, tx, state, grads):
                updates, state = tx.update(grads, state, params)
                return optax.apply_updates(params, updates), state


            def run(x, params, grads):
                for step in range(3):
                    x = apply(x, functools.partial(scale, factor=2.0))
                    tx = optax.chain(optax.clip(1.0), optax.sgd(0.1))
                    state = tx.init(params)
                    params, state = train_step(params, tx, state, grads)
                return x, params

            """,
            expected=[(26, 22), (29, 44)],
            messages=[
                "a new `functools.partial(...)`, made in every iteration, is passed as the static argument `fn` (position 1) of jit: a static argument is looked up in the compile cache by hash and equality, and this object equals only itself, so every call traces and compiles again. Make it once, before the loop",
                "`tx`, a new optax optimizer `optax.chain(...)` (a tuple of new functions), made in every iteration, is passed as the static argument `tx` of `eqx.filter_jit` (every argument that is not an array is static): a static argument is looked up in the compile cache by hash and equality, and this object equals only itself, so every call traces and compiles again. Make it once, before the loop",
            ],
        ),
        Invalid(
            """
            import jax
            from functools import partial

            @partial(jax.jit, static_argnums=1)
            def step(x, i):
                return x * i

            def run(x):
                for i in range(100):
                    x = step(x, i)
                return x
            """,
            expected=[(10, 21)],
            messages=[
                "the loop counter `i` is passed as the static argument `i` (position 1): every new value traces and compiles the function again. Pass it as a traced argument instead (remove it from static_argnums/static_argnames)",
            ],
        ),
        Invalid(
            """
            import jax

            def f(x, n):
                return x[:n]

            g = jax.jit(f, static_argnames='n')
            for k in range(8):
                y = g(x, n=k + 1)
            """,
            expected=[(8, 16)],
            messages=[
                "the loop counter `k` is passed as the static argument `n`: every new value traces and compiles the function again. Pass it as a traced argument instead (remove it from static_argnums/static_argnames)",
            ],
        ),
        Invalid(
            """
            import jax

            @jax.jit(static_argnames=('layer',))
            def apply(x, layer):
                return x + layer

            def run(x, n):
                for j, _ in enumerate(range(n)):
                    x = apply(x, j)
                return x
            """,
            expected=[(9, 22)],
            messages=[
                "the loop counter `j` is passed as the static argument `layer` (position 1): every new value traces and compiles the function again. Pass it as a traced argument instead (remove it from static_argnums/static_argnames)",
            ],
        ),
        # a value computed from the counter, in place or through a name the loop binds
        Invalid(
            """
            from functools import partial

            import jax


            @partial(jax.jit, static_argnames=("scale",))
            def shrink(x, scale):
                return x * scale


            def run(x, n):
                for i in range(n):
                    x = shrink(x, scale=float(i) / n)
                    lr = 0.5 * (i + 1)
                    x = shrink(x, scale=lr)
                return x
            """,
            expected=[(13, 29), (15, 29)],
            messages=[
                "`float(i) / n`, which changes with the loop counter `i`, is passed as the static argument `scale`: every new value traces and compiles the function again. Pass it as a traced argument instead (remove it from static_argnums/static_argnames)",
                "`lr`, which changes with the loop counter `i`, is passed as the static argument `scale`: every new value traces and compiles the function again. Pass it as a traced argument instead (remove it from static_argnums/static_argnames)",
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._shaping: dict[int, set[str]] = {}  # id(jitted unit) -> its shaping parameters
        # (id(scope), the jitted function as written) -> (argument place, float, call, as written)
        self._floats: dict[tuple, list[tuple[tuple, float, cst.Call, str]]] = {}
        self._paths: dict[int, list[cst.CSTNode]] = {}  # id(call) -> nodes from its unit's node down to it

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if ctx.in_traced:
            return
        self._new_float(node)
        if not ctx.loop_stack:
            if not ctx.unit.is_module and ctx.runs_repeatedly(ctx.unit):
                # a function body that runs again and again: an object made there anew
                # is a new static value on every call (probdiffeq's `solve`)
                self._fresh_static(node, per_call=True)
            return
        self._fresh_static(node)
        counters = {name: loop for name, loop in _loop_counters(ctx).items() if not self._few_values_again(loop)}
        filtered = self._filter_jitted(node.func) or ctx.value(node.func).transform in _FILTER_JITS
        if filtered:
            self._filter_jit_ints(node, counters)
        if not counters:
            return
        info = ctx.jit_callee(node, exact=False)
        if info is None or not info.has_static:
            return
        shaping = self._shaping_params(info)
        for i, a in enumerate(positional_args(node)):
            if info.static_position(i, loose=True) and info.param_name(i) not in shaping:
                self._check(a.value, counters, f"`{info.param_name(i) or i}` (position {i})")
        for a in node.args:
            if a.keyword is not None and info.static_name(a.keyword.value, loose=True) \
                    and a.keyword.value not in shaping:
                self._check(a.value, counters, f"`{a.keyword.value}`")

    def _few_values_again(self, loop: cst.For) -> bool:
        """``for i in range(3)`` (or ``range(num_viz)``, ``num_viz = 3`` bound once; ``range(1,
        4)``) inside another loop of this scope: the counter takes at most ``_FEW_VALUES``
        values, each compiled once in the outer loop's first pass and a cache hit after
        (jax 0.10.2: `_cache_size() == 3` after 150 calls), not one compile per iteration."""
        it = loop.iter
        if not isinstance(it, cst.Call) or self.ctx.builtin_name(it.func) != "range" or not 1 <= len(it.args) <= 3 \
                or any(a.star or a.keyword is not None for a in it.args):
            return False
        bounds = [self._constant_int(a.value) for a in it.args]
        if any(b is None for b in bounds):
            return False
        try:
            n = len(range(*bounds))  # type: ignore[arg-type]
        except ValueError:  # a zero step
            return False
        if n > _FEW_VALUES:
            return False
        for frame in self.ctx.loop_stack:
            if frame.node is loop:
                return False  # (no loop of this scope around it)
            if isinstance(frame.node, _LOOPS):
                return True
        return False

    def _constant_int(self, e: cst.BaseExpression) -> Optional[int]:
        """An int literal, or a name its scope binds once to one (``num_viz = 3``)."""
        v = int_value(e)
        if v is None and isinstance(e, cst.Name):
            made = bound_once(self.ctx.index, self.ctx.unit, e)
            v = int_value(made) if made is not e else None
        return v

    def _new_float(self, node: cst.Call) -> None:
        """A Python float written in a static argument (any argument of an
        `eqx.filter_jit` function, where every leaf that is not an array is static; a
        `static_argnums`/`static_argnames` position), also inside a dict, list or tuple
        display (`{"atol": 1e-5}`), where an earlier call of the same function in the same
        scope wrote another float at the same place: the new value is a new compile-cache
        key, so this call traces and compiles the function again."""
        ctx = self.ctx
        func = node.func
        if not isinstance(func, (cst.Name, cst.Attribute)):
            return
        args: list[tuple[object, cst.BaseExpression]] = []
        if self._filter_jitted(func) or ctx.value(func).transform in _FILTER_JITS:
            jit = "an `eqx.filter_jit` function: every leaf of its arguments that is not an array is static"
            for i, a in enumerate(positional_args(node)):
                args.append((i, a.value))
            args += [(a.keyword.value, a.value) for a in node.args if a.keyword is not None]
        else:
            info = ctx.jit_callee(node, exact=False)
            if info is None or not info.has_static:
                return
            jit = "a jitted function that declares it static"
            for i, a in enumerate(positional_args(node)):
                if info.static_position(i, loose=True):
                    args.append((i, a.value))
            args += [(a.keyword.value, a.value) for a in node.args
                     if a.keyword is not None and info.static_name(a.keyword.value, loose=True)]
        leaves: dict[tuple, tuple[float, cst.BaseExpression, cst.BaseExpression]] = {}
        for where, e in args:
            for path, value, at in _float_leaves(e):
                leaves[(where, *path)] = (value, e, at)
        if not leaves:
            return
        key = (id(ctx.unit), ctx.code(func).strip())
        seen = self._floats.setdefault(key, [])
        for place, (value, arg, at) in leaves.items():
            before = [(v, c, w) for (p, v, c, w) in seen if p == place and self._both_run(c, node)]
            if before and all(v != value for v, _, _ in before):
                _, call0, written0 = before[0]
                fname = ctx.code(func).strip()
                self.report(
                    arg,
                    f"`{ctx.code(at).strip()}` is a new Python float for `{fname}` (the call on line "
                    f"{{related_line}} passed `{written0}` there), {jit}, so this call traces and "
                    f"compiles `{fname}` again (one compile per value). Pass the number as an array "
                    f"(`jnp.asarray({ctx.code(at).strip()})`), which is traced",
                    related=call0,
                )
                break
        for place, (value, _, at) in leaves.items():
            seen.append((place, value, node, ctx.code(at).strip()))

    def _both_run(self, first: cst.Call, later: cst.Call) -> bool:
        """Can ``first`` and ``later`` (walked after it, in the same unit) both run in one
        execution: ``first`` on every path to ``later`` (in the same block, or in a block
        that encloses ``later``'s, under no condition of its own below where they part),
        or both in one loop body.  Calls in branches that exclude each other (the body
        and the `else` of an `if`, two `match` cases, the two sides of `a if c else b`)
        compile once each per run."""
        if first is later:
            return False
        p0, p1 = self._path_to(first), self._path_to(later)
        if p0 is None or p1 is None:
            return False
        n = 0
        while n < min(len(p0), len(p1)) and p0[n] is p1[n]:
            n += 1
        if n == 0:
            return False
        for i in range(n - 1):  # a loop whose body holds both: each iteration may take either
            if type(p0[i]) in _LOOPS and p0[i + 1] is p0[i].body:
                return True
        # below where the paths part, nothing between it and `first` may skip `first`
        return not any(_conditional_edge(p0[i], p0[i + 1]) for i in range(n - 1, len(p0) - 1))

    def _path_to(self, target: cst.CSTNode) -> Optional[list[cst.CSTNode]]:
        """The nodes from the current unit's node down to ``target`` (cached)."""
        got = self._paths.get(id(target))
        if got is not None and got[-1] is target:
            return got
        root = self.ctx.unit.node
        stack: list[tuple[cst.CSTNode, int]] = [(root, 0)]
        path: list[cst.CSTNode] = []
        while stack:
            node, depth = stack.pop()
            del path[depth:]
            path.append(node)
            if node is target:
                self._paths[id(target)] = list(path)
                return self._paths[id(target)]
            stack.extend((c, depth + 1) for c in reversed(node.children))
        return None

    def _shaping_params(self, info) -> set[str]:
        """The jitted function's parameters its body puts straight into a shape or a size
        (`jnp.zeros((n,))`): each value is another program with other shapes, so the
        compile per value cannot be avoided by tracing it (the advice would break the code)."""
        unit = info.unit
        if unit is None or not isinstance(unit.node, cst.FunctionDef):
            return set()
        if id(unit) not in self._shaping:
            self._shaping[id(unit)] = dimension_params(unit.node, {p.name for p in unit.params}, self.ctx.qualname)
        return self._shaping[id(unit)]

    def _fresh_static(self, node: cst.Call, per_call: bool = False) -> None:
        """A static argument made anew in every iteration of the loop around the call, as
        an object that equals only itself (an optax optimizer: a tuple of new functions; a
        lambda; a `functools.partial`): jit's cache never finds it, and every call traces
        and compiles again.  Static: declared by static_argnums/static_argnames, or any
        argument that is not an array under `eqx.filter_jit`."""
        ctx = self.ctx
        info = ctx.jit_callee(node, exact=False)
        candidates: list[tuple[cst.BaseExpression, str]] = []
        if info is not None and info.has_static:
            for i, a in enumerate(positional_args(node)):
                if info.static_position(i, loose=True):
                    candidates.append((a.value, f"`{info.param_name(i) or i}` (position {i})"))
            for a in node.args:
                if a.keyword is not None and info.static_name(a.keyword.value, loose=True):
                    candidates.append((a.value, f"`{a.keyword.value}`"))
            jit = "jit"
        elif ctx.value(node.func).transform in _FILTER_JITS or self._filter_jitted(node.func):
            candidates = [(a.value, f"`{ctx.code(a.value).strip()}`") for a in node.args if not a.star]
            jit = "`eqx.filter_jit` (every argument that is not an array is static)"
        elif ctx.value(node.func).transform in _NNX_JITS or self._filter_jitted(node.func, _NNX_JITS):
            for a in node.args:
                what = None if a.star else self._fresh_nnx_optimizer(a.value)
                if what is None:
                    continue
                self.report(
                    a.value,
                    f"{what[0].upper() + what[1:]}, made in every iteration, is passed to `{ctx.code(node.func).strip()}`, "
                    f"an `nnx.jit` function: the optax transformation is part of the optimizer's "
                    f"static graph, which `nnx.jit` looks up in its compile cache by equality, and a "
                    f"new optax optimizer (a tuple of new functions) equals only itself, so every call "
                    f"traces and compiles again. Make the optax optimizer once, before the loop "
                    f"(`tx = optax.adam(...)`), and pass that `tx` to each `nnx.Optimizer`",
                )
            return
        else:
            return
        if per_call and not info:
            return  # (filtered jits: every non-array argument is static; only declared ones here)
        for e, where in candidates:
            what = self._fresh_object(e, per_call)
            if what is None:
                continue
            if per_call:
                name = ctx.unit.name
                self.report(
                    e,
                    f"{what}, made on every call of `{name}`, is passed as the static argument {where} of "
                    f"{jit}: a static argument is looked up in the compile cache by hash and equality, "
                    f"and this object equals only itself, so every call of `{name}` traces and compiles "
                    f"it again. Make it once (at module level, or cached), or pass what it closes over "
                    f"as arguments of a function defined once",
                )
                continue
            self.report(
                e,
                f"{what}, made in every iteration, is passed as the static argument {where} of "
                f"{jit}: a static argument is looked up in the compile cache by hash and equality, "
                f"and this object equals only itself, so every call traces and compiles again. "
                f"Make it once, before the loop",
            )

    def _filter_jit_ints(self, node: cst.Call, counters: dict[str, cst.CSTNode]) -> None:
        """Python numbers that change every iteration, given to an `eqx.filter_jit`
        function (every leaf that is not an array is static): the loop counter (or a value
        that changes with it), and a Module the loop carries through the call
        (`m = step(m)`) whose number field the function's return changes
        (`return M(x=m.x + 1, ...)`)."""
        ctx = self.ctx
        fname = ctx.code(node.func).strip()
        for a in node.args:
            if a.star:
                continue
            name = _counter_in(a.value, counters, ctx) if counters else None
            if name is not None:
                written = ctx.code(a.value).strip()
                what = f"the loop counter `{name}`" if written == name else \
                    f"`{written}`, which changes with the loop counter `{name}`,"
                self.report(
                    a.value,
                    f"{what} is passed to `{fname}`, an `eqx.filter_jit` function: every argument "
                    f"that is not an array is static (a Python number is hashed into the compile cache), "
                    f"so every new value traces and compiles it again (one compile per iteration). "
                    f"Pass it as an array (`jnp.asarray({written})`)",
                )
                continue
            carried = self._carried_number_field(node, a)
            if carried is not None:
                field, cls, ret = carried
                self.report(
                    node,
                    f"`{ctx.code(a.value).strip()}` is carried through `{fname}`, an `eqx.filter_jit` function, "
                    f"which returns a new `{cls}` with its number field `{field}` changed (`{ret}`): under "
                    f"`eqx.filter_jit` every field that is not an array is static, so each new value of "
                    f"`{field}` traces and compiles `{fname}` again (one compile per iteration). Store it as "
                    f"an array (`{field}: jax.Array`, `jnp.asarray(...)`)",
                )

    def _carried_number_field(self, node: cst.Call, a: cst.Arg) -> Optional[tuple[str, str, str]]:
        """``m = step(m)`` in a loop, ``step`` a def of this file whose every ``return`` builds
        an equinox Module class (here or imported) giving a field annotated as a Python
        number (``x: int``) an arithmetic expression of the parameter's own field
        (``x=m.x + 1``): (field, class as written, the changed field's expression)."""
        ctx = self.ctx
        arg = a.value
        if not isinstance(arg, cst.Name) or not isinstance(node.func, cst.Name) or not ctx.loop_stack:
            return None
        loop = ctx.loop_stack[-1].node
        if not any(isinstance(n, cst.Assign) and n.value is node and len(n.targets) == 1
                   and isinstance(n.targets[0].target, cst.Name) and n.targets[0].target.value == arg.value
                   for n in walk_tree(loop.body)):
            return None  # the loop does not carry it through this call (`m = step(m)`)
        unit = ctx.unit.lookup_def(node.func.value)
        if unit is None or not isinstance(unit.node, cst.FunctionDef):
            return None
        if a.keyword is not None:
            param = unit.param(a.keyword.value)
        else:
            i = positional_args(node).index(a) if a in positional_args(node) else -1
            pos = unit.positional()
            param = pos[i] if 0 <= i < len(pos) else None
        if param is None or not unit.returns:
            return None
        found = None
        for ret in unit.returns:
            if not isinstance(ret, cst.Call) or not isinstance(ret.func, (cst.Name, cst.Attribute)):
                return None
            written = ctx.code(ret.func).strip()
            cls = ctx.index.pytree_class(written)
            if cls is None or cls.flat.get("reg") != "eqx":
                return None
            ann = cls.flat.get("ann") or {}
            for k in ret.args:
                if k.keyword is None or ann.get(k.keyword.value) not in ("int", "float"):
                    continue
                v = k.value
                if isinstance(v, cst.BinaryOperation) and _own_field(v, param.name, k.keyword.value):
                    found = found or (k.keyword.value, written, f"{k.keyword.value}={ctx.code(v).strip()}")
        return found

    def _filter_jitted(self, func: cst.BaseExpression, jits: frozenset = _FILTER_JITS) -> bool:
        """``func`` names a function of this file decorated with one of ``jits``
        (``eqx.filter_jit``; under other decorators too, called with keywords or
        through ``functools.partial``)."""
        ctx = self.ctx
        if not isinstance(func, cst.Name):
            return False
        unit = ctx.unit.lookup_def(func.value)
        node = unit.node if unit is not None else None
        if not isinstance(node, cst.FunctionDef):
            return False
        for d in node.decorators:
            dec = d.decorator
            if isinstance(dec, cst.Call):
                q = ctx.qualname(dec.func)
                if q in apis.PARTIALS and dec.args and dec.args[0].keyword is None:
                    q = ctx.qualname(dec.args[0].value)
            else:
                q = ctx.qualname(dec)
            if q in jits:
                return True
        return False

    def _fresh_nnx_optimizer(self, e: cst.BaseExpression) -> Optional[str]:
        """``nnx.Optimizer(model, optax.adam(1e-3))`` made in the loop around the call
        (written there, or a name the loop's body binds once to it) with an optax
        optimizer made in the loop too (written in the call, or a name the loop binds
        once): what it is."""
        ctx = self.ctx
        made = e
        if isinstance(e, cst.Name):
            made = _bound_in_loop(ctx, e.value)
        if not isinstance(made, cst.Call) or ctx.qualname(made.func) not in _NNX_OPTIMIZERS:
            return None
        tx = next((a.value for a in made.args if a.keyword is not None and a.keyword.value == "tx"), None)
        if tx is None:
            pos = [a for a in made.args if a.keyword is None]
            tx = pos[1].value if len(pos) > 1 else None
        fresh = self._fresh_object(tx) if tx is not None else None
        if fresh is None or "optax" not in fresh:
            return None
        short = ctx.code(made.func).strip()
        return f"`{ctx.code(e).strip()}`, an `{short}` holding {fresh}" if made is not e \
            else f"an `{short}` holding {fresh}"

    def _fresh_object(self, e: cst.BaseExpression, per_call: bool = False) -> Optional[str]:
        """What ``e`` is when it is an object that equals only itself, made in the loop:
        written there (``optax.adam(1e-3)``, ``lambda x: ...``, ``partial(f, a)``) or a name
        the innermost loop's body binds once to one."""
        ctx = self.ctx
        made = e
        if isinstance(e, cst.Name):
            if per_call:
                # a name the function body binds once (outside any loop) to such an object
                unit = ctx.unit
                made = bound_once(ctx.index, unit, e) if e.value in unit.assigned else e
                if made is e:
                    return None
            else:
                made = _bound_in_loop(ctx, e.value)
            if made is None:
                return None
        name = ctx.code(e).strip()
        short = ctx.code(made).strip().split("(", 1)[0]
        if isinstance(made, cst.Lambda):
            return f"`{name}`, a new lambda" if made is not e else "a new lambda"
        if not isinstance(made, cst.Call):
            return None
        func = made.func.func if isinstance(made.func, cst.Call) else made.func  # `inject_hyperparams(adam)(lr)`
        q = ctx.qualname(func) or ""
        if q.startswith("optax.") and not q.startswith(("optax.losses", "optax.tree", "optax.projections")):
            kind = f"a new optax optimizer `{short}(...)` (a tuple of new functions)"
        elif q in ("functools.partial",):
            kind = f"a new `{short}(...)`"
        else:
            return None
        return f"`{name}`, {kind}" if made is not e else kind

    def _check(self, e: cst.BaseExpression, counters: dict[str, cst.CSTNode], where: str) -> None:
        name = _counter_in(e, counters, self.ctx)
        if name is None:
            return
        written = self.ctx.code(e).strip()
        simple = isinstance(e, cst.Name) or (isinstance(e, cst.BinaryOperation) and any(
            isinstance(a, cst.Name) and a.value == name and int_value(b) is not None
            for a, b in ((e.left, e.right), (e.right, e.left))))
        what = f"the loop counter `{name}`" if simple and written != name and isinstance(e, cst.BinaryOperation) \
            or written == name else f"`{written}`, which changes with the loop counter `{name}`,"
        self.report(
            e,
            f"{what} is passed as the static argument {where}: every new value "
            f"traces and compiles the function again. Pass it as a "
            f"traced argument instead (remove it from static_argnums/static_argnames)",
        )
