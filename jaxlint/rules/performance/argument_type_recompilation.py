"""JAX508 argument-type-recompilation: A jitted function was compiled again and again because its arguments' shapes, dtypes or weak types kept changing."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import apis
from jaxlint.model import values as V
from jaxlint.model.scopes import bound_once, writes
from jaxlint.model.walk import positional_args, walk_tree

# constructors whose result is strongly typed whatever their arguments (`jnp.float32(0.)`,
# `jnp.zeros(())`); `jnp.asarray(0.)`/`jnp.array(0.)` of a Python scalar stay weak (only
# with a dtype are they strong), and `zeros_like(x)` keeps the weak type of `x`
_STRONG_SCALARS = frozenset(
    f"{m}.{t}" for m in ("jax.numpy", "numpy")
    for t in ("float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64",
              "uint8", "uint32", "complex64", "complex128"))
_STRONG_ARRAYS = frozenset(f"jax.numpy.{f}" for f in ("zeros", "ones", "empty", "full", "eye", "arange", "linspace"))
_WITH_DTYPE = frozenset({"jax.numpy.asarray", "jax.numpy.array", "numpy.asarray", "numpy.array"})


_RANK = {"bool": 0, "int": 1, "float": 2, "complex": 3}

# jits that trace Python numbers as weakly typed arrays (not static values), and decorators
# that change nothing of the arguments a call passes
_PLAIN_JITS = frozenset({"jax.jit", "jax.pjit", "jax.experimental.pjit.pjit"})
_HARMLESS_DECORATORS = frozenset({"functools.wraps", "staticmethod"})
_KIND_WORDS = {"None": "`None` (an empty pytree)", "bool": "a bool", "int": "a weakly typed int",
               "float": "a weakly typed float", "complex": "a weakly typed complex"}


def _literal_kind(e: cst.BaseExpression) -> Optional[str]:
    """The Python type of a literal element (`None`, `True`, `0`, `-1.`, `2j`), else None."""
    if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, (cst.Minus, cst.Plus)):
        e = e.expression
        if isinstance(e, cst.Name):
            return None
    if isinstance(e, cst.Name):
        return {"None": "None", "True": "bool", "False": "bool"}.get(e.value)
    return {cst.Integer: "int", cst.Float: "float", cst.Imaginary: "complex"}.get(type(e))


def _dtype_kind(text: str) -> Optional[str]:
    """The kind of a dtype written as code (`jnp.float32`, `"int32"`, `np.bool_`), else None."""
    t = text.strip().strip("'\"").rsplit(".", 1)[-1].lower()
    for kind, prefixes in (("complex", ("complex",)), ("float", ("float", "bfloat", "half", "double")),
                           ("int", ("int", "uint")), ("bool", ("bool",))):
        if t.startswith(prefixes):
            return kind
    return None


def _strong(ctx, e: cst.BaseExpression, depth: int = 0) -> Optional[str]:
    """The dtype kind of ``e`` (a jitted function's result) when it is strongly typed whatever
    its weak inputs: a typed constructor, a cast, or arithmetic with one, where the strong
    operand's kind is at least the other's (a weak float times an int32 array stays a weak
    float); None when that cannot be shown."""
    if depth > 12:
        return None
    t = type(e)
    if t is cst.BinaryOperation:
        kinds = [_strong(ctx, e.left, depth + 1), _strong(ctx, e.right, depth + 1)]
        known = [k for k in kinds if k is not None]
        if not known:
            return None
        top = max(known, key=_RANK.__getitem__)
        # the other operand may be a weak Python float: only a float (or complex) result
        # keeps the strong type whatever it is
        return top if _RANK[top] >= _RANK["float"] or len(known) == 2 else None
    if t is cst.UnaryOperation:
        return _strong(ctx, e.expression, depth + 1)
    if t is cst.Call:
        q = ctx.qualname(e.func) or ""
        dtype = next((a.value for a in e.args if a.keyword is not None and a.keyword.value == "dtype"), None)
        if q in _STRONG_SCALARS:
            return _dtype_kind(q)
        if q in _STRONG_ARRAYS:
            if dtype is not None:
                return _dtype_kind(ctx.code(dtype))
            return "float" if q.rsplit(".", 1)[1] in ("zeros", "ones", "empty", "eye", "linspace") else None
        if q in _WITH_DTYPE:
            pos = positional_args(e)
            if dtype is None and len(pos) > 1:
                dtype = pos[1].value
            return _dtype_kind(ctx.code(dtype)) if dtype is not None else None
        if isinstance(e.func, cst.Attribute) and e.func.attr.value == "astype" and e.args:
            return _dtype_kind(ctx.code(e.args[0].value))
    return None


def _returns(node: cst.CSTNode) -> Optional[list[cst.BaseExpression]]:
    """What a lambda or a function returns (every `return` of its own body), or None."""
    if isinstance(node, cst.Lambda):
        return [node.body]
    if not isinstance(node, cst.FunctionDef):
        return None
    out = []
    for n in walk_tree(node.body, lambda m: isinstance(m, (cst.FunctionDef, cst.Lambda, cst.ClassDef))):
        if isinstance(n, cst.Return):
            if n.value is None:
                return None
            out.append(n.value)
    return out or None


def _number(e: cst.BaseExpression) -> bool:
    if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, (cst.Minus, cst.Plus)):
        e = e.expression
    return isinstance(e, (cst.Float, cst.Integer))


class ArgumentTypeRecompilation(Rule):
    code = "JAX508"
    name = "argument-type-recompilation"
    summary = "A jitted function was compiled again and again because its arguments' shapes, dtypes or weak types kept changing"
    severity = Severity.WARNING
    seed = "The Sharp Bits § Dynamic shapes; type promotion § weak types"
    runtime_check = "None: `jaxlint observe` reports it from a run (the compiles JAX logs)."
    what_it_does = (
        "Reports a jitted function recompiled because the abstract types of its arguments "
        "changed between calls: a weak-type flip (`f(1.0)` then `f(jnp.float32(1.0))`), or "
        "3 or more different shapes or dtypes (a batch whose length changes every step).\n\n"
        "Statically, it reports a Python number (weakly typed) that a jitted function is "
        "given and then, at the same argument, the function's own result, when every `return` "
        "of the function is strongly typed (a typed constructor such as `jnp.float32(...)`, "
        "`jnp.zeros(...)`, an `astype`, a `dtype=`, or arithmetic with one): `x = 0.` then "
        "`y = f(x); z = f(y)`, or a loop carry `loss = 0` ... `for b in batches: loss = "
        "step(loss, b)`. It is reported where the number is bound. A result that stays weak "
        "(`lambda x: x * 2.`) compiles once and is not reported. It also reports a call of a "
        "function under plain `jax.jit` (no static or donated argument) given a loop variable "
        "that walks a literal list or tuple of different Python types (`for a in [None, 0, 1.]: "
        "f(a)`): `None` (an empty pytree), a bool, a weakly typed int and a weakly typed float "
        "each compile once.\n\n"
        "From a run: `jaxlint observe` runs the command with `jax_explain_cache_misses` on: each "
        "time a jitted function is traced again, JAX logs why its cache missed. A function traced "
        "again because an argument's weak type flipped (a Python scalar one call, a typed "
        "array the next), or traced at least 3 times for changed shapes or dtypes, is "
        "reported at the call of its first retrace, with the compile count and the changes "
        "JAX named. Changed static arguments are JAX504; a function jitted afresh, JAX501."
    )
    why_bad = (
        "`jit` caches one compiled program per argument shapes, dtypes and weak types. Every "
        "new combination traces and compiles again, which can cost more than the computation "
        "itself; a weak-type flip compiles twice for the same shapes."
    )
    use_instead = (
        "Pass one kind of argument (`jnp.asarray(x, jnp.float32)` at the boundary); pad or "
        "bucket variable-length inputs to a few shapes (and mask)."
    )
    fix_safety = "No automatic fix."
    VALID = [
        Valid(
            """
            import jax
            import jax.numpy as jnp
            x = jnp.float32(0.)
            f = jax.jit(lambda x: x + jnp.float32(1.))
            y = f(x)
            z = f(y)
            """,
        ),
        Valid(
            """
            import jax
            x = 0.
            f = jax.jit(lambda x: x * 2.)
            y = f(x)
            z = f(y)
            """,
        ),
        # a weak Python float combined with an int or bool array stays a weak float: the
        # result fed back compiles nothing new (checked with jax_log_compiles: one compile)
        Valid(
            """
            import jax
            import jax.numpy as jnp


            @jax.jit
            def anneal(lr, done):
                return lr * (1 - done.astype(jnp.int32))


            def run(dones):
                lr = 1e-3
                for done in dones:
                    lr = anneal(lr, done)
                return lr
            """
        ),
        # one Python type in the loop's literal (one compile), a typed value, a static
        # argument, equinox's filter_jit (numbers are static there: JAX504's concern)
        Valid(
            """
            from functools import partial

            import equinox as eqx
            import jax
            import jax.numpy as jnp

            SCALES = [0.5, 1., 2.]


            @jax.jit
            def scale(x, s):
                return x * s


            @partial(jax.jit, static_argnums=1)
            def power(x, p):
                return x ** p


            @eqx.filter_jit
            def shift(x, s):
                return x + s


            def sweep(x):
                for s in SCALES:
                    x = scale(x, s)
                for p in (None, 1, 2.):
                    x = scale(x, jnp.float32(p or 0))
                    x = power(x, p) if p else x
                    x = shift(x, p or 0)
                return x
            """
        ),
    ]
    INVALID = [
        Invalid(
            """
            import jax
            import numpy as np
            x = 0.
            f = jax.jit(lambda x: x + np.float32(0.))
            y = f(x)
            z = f(y)
            """,
            expected=[(3, 5)],
            messages=[
                "`x` starts as the Python number `0.`, weakly typed, and is given to the jitted `f`, "
                "which is later given its own strongly typed result (line 6): `f` compiles "
                "twice, once per weak type. Start from a typed value (`jnp.float32(0.)`, "
                "`jnp.asarray(0., jnp.float32)`)",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def step(loss, batch):
                return loss + jnp.sum(batch).astype(jnp.float32)

            def run(batches):
                loss = 0
                for batch in batches:
                    loss = step(loss, batch)
                return loss
            """,
            expected=[(9, 12)],
            messages=[
                "`loss` starts as the Python number `0`, weakly typed, and is given to the jitted "
                "`step`, which is later given its own strongly typed result (line 11): "
                "`step` compiles twice, once per weak type. Start from a typed value "
                "(`jnp.float32(0)`, `jnp.asarray(0, jnp.float32)`)",
            ],
        ),
        # a loop over literals of different Python types given to a jitted function (DESC
        # #1781): `None`, an int and a float are three compiles; an int and a float, two
        Invalid(
            """
            import jax


            @jax.jit
            def f(x):
                return x

            a_s = [None, 0, 1, 1., 0.]

            for a in a_s:
                f(a)
            """,
            expected=[(11, 5)],
            messages=[
                "the jitted `f` is given `a`, which takes the values of `a_s` (`None`, `0`, `1`, "
                "`1.`, `0.`): `None` (an empty pytree), a weakly typed int and a weakly typed float "
                "are different argument types to `jit`, so `f` compiles 3 times, once per type. Give "
                "it one type (`jnp.asarray(a, jnp.float32)`), handle `None` before the call, or mark "
                "the argument static",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            scale_x = jax.jit(lambda x, s: x * s)


            def sweep(x):
                out = []
                for scale in (1, 0.5, 2, 4.):
                    out.append(scale_x(x, scale))
                return out
            """,
            expected=[(10, 20)],
            messages=[
                "the jitted `scale_x` is given `scale`, which takes the values of `1`, `0.5`, `2`, "
                "`4.`: a weakly typed int and a weakly typed float are different argument types to "
                "`jit`, so `scale_x` compiles 2 times, once per type. Give it one type "
                "(`jnp.asarray(scale, jnp.float32)`), handle `None` before the call, or mark the "
                "argument static",
            ],
        ),
    ]

    _JITS = apis.CACHING_JITS

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._done: set[int] = set()

    def _jitted(self, func: cst.BaseExpression):
        """The lambda or function node a name of a jitted function wraps, or None."""
        ctx = self.ctx
        if not isinstance(func, cst.Name):
            return None
        v = ctx.value(func)
        if v.kind != V.FUNCTION:
            return None
        if v.unit is None:
            # `f = jax.jit(lambda x: ...)`, `f = jax.jit(g)`: the function the one binding wraps
            bound = bound_once(ctx.index, ctx.unit, func)
            if not isinstance(bound, cst.Call) or (ctx.qualname(bound.func) or "") not in self._JITS:
                return None
            pos = positional_args(bound)
            inner = pos[0].value if pos else None
            if isinstance(inner, cst.Lambda):
                return inner
            if isinstance(inner, cst.Name):
                w = ctx.value(inner)
                return w.unit.node if w.kind == V.FUNCTION and w.unit is not None and w.transform is None else None
            return None
        node = v.unit.node
        if v.transform in self._JITS:
            return node
        if isinstance(node, cst.FunctionDef) and any(
                (ctx.qualname(d.decorator) or "") in self._JITS for d in node.decorators):
            return node
        return None

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if ctx.in_traced or id(node) in self._done:
            return
        fn = self._jitted(node.func)
        if fn is None:
            return
        self._mixed_loop(node)
        rets = _returns(fn)
        kinds = [_strong(ctx, r) for r in rets] if rets else []
        if not kinds or None in kinds:
            return
        self._kind = min(kinds, key=_RANK.__getitem__)  # type: ignore[arg-type]
        name = node.func.value  # type: ignore[attr-defined]
        scope = ctx.unit.node
        # every call of this function in this scope: its arguments by position
        calls = [c for c in walk_tree(scope, lambda m: m is not scope and isinstance(
            m, (cst.FunctionDef, cst.Lambda, cst.ClassDef))) if isinstance(c, cst.Call)
                 and isinstance(c.func, cst.Name) and c.func.value == name]
        self._done.update(id(c) for c in calls)
        results = {id(c) for c in calls}
        for i, arg in enumerate(positional_args(node)):
            if not isinstance(arg.value, cst.Name):
                continue
            self._position(name, scope, calls, results, i)

    def _plain_jit(self, func: cst.Name) -> bool:
        """Is ``func`` wrapped by ``jax.jit`` (or pjit) with no static or donated argument:
        ``@jax.jit def f`` or ``f = jax.jit(g)``/``jax.jit(lambda ...)`` bound once?
        (``equinox.filter_jit`` makes Python numbers static: one compile per value.)"""
        ctx = self.ctx
        v = ctx.value(func)
        if v.unit is not None and v.transform is None and isinstance(v.unit.node, cst.FunctionDef):
            decs = [ctx.qualname(d.decorator) or "" for d in v.unit.node.decorators]
            return any(d in _PLAIN_JITS for d in decs) and all(d in _PLAIN_JITS or d in _HARMLESS_DECORATORS for d in decs)
        bound = bound_once(ctx.index, ctx.unit, func)
        return (isinstance(bound, cst.Call) and (ctx.qualname(bound.func) or "") in _PLAIN_JITS
                and all(a.keyword is None for a in bound.args) and len(bound.args) == 1)

    def _mixed_loop(self, node: cst.Call) -> None:
        """JAX508 through a loop: ``for a in [None, 0, 1., ...]: f(a)``, the jitted ``f``
        given, at one argument, the loop's values, literals of different Python types
        (None, bool, int, float, complex): each type is another abstract value (None
        another tree) and compiles again (JAX 0.10.2, jax.log_compiles: three compiles
        for ``[None, 0, 1, 1., 0.]``)."""
        ctx = self.ctx
        func = node.func
        if not isinstance(func, cst.Name) or not self._plain_jit(func):
            return
        for frame in reversed(ctx.loop_stack):
            loop = frame.node
            if not isinstance(loop, cst.For) or not isinstance(loop.target, cst.Name):
                continue
            var = loop.target.value
            if not any(isinstance(a.value, cst.Name) and a.value.value == var and not a.star
                       for a in node.args):
                continue
            if writes(loop.body, var):
                return  # rebound in the body: not the literal any more
            it = loop.iter
            seq = bound_once(ctx.index, ctx.unit, it) if isinstance(it, cst.Name) else it
            if not isinstance(seq, (cst.List, cst.Tuple)) or not seq.elements:
                return
            kinds: list[str] = []
            for el in seq.elements:
                k = _literal_kind(el.value) if not isinstance(el, cst.StarredElement) else None
                if k is None:
                    return
                if k not in kinds:
                    kinds.append(k)
            if len(kinds) < 2:
                return
            values = ", ".join(f"`{ctx.code(el.value).strip()}`" for el in seq.elements[:6])
            if len(seq.elements) > 6:
                values += ", ..."
            names = [_KIND_WORDS[k] for k in kinds]
            listed = ", ".join(names[:-1]) + " and " + names[-1]
            where = f"`{ctx.code(it).strip()}` ({values})" if isinstance(it, cst.Name) else f"{values}"
            self.report(
                node,
                f"the jitted `{func.value}` is given `{var}`, which takes the values of {where}: "
                f"{listed} are different argument types to `jit`, so `{func.value}` compiles "
                f"{len(kinds)} times, once per type. Give it one type (`jnp.asarray({var}, "
                f"jnp.float32)`), handle `None` before the call, or mark the argument static",
            )
            return

    @staticmethod
    def _in_loop(scope: cst.CSTNode, call: cst.Call) -> bool:
        """Is ``call`` in a loop of ``scope`` (it runs again, given what it returned)?"""
        nested = lambda m: m is not scope and isinstance(m, (cst.FunctionDef, cst.Lambda, cst.ClassDef))  # noqa: E731
        return any(isinstance(n, (cst.For, cst.While)) and any(m is call for m in walk_tree(n.body, nested))
                   for n in walk_tree(scope, nested))

    def _position(self, name: str, scope: cst.CSTNode, calls: list, results: set, i: int) -> None:
        """Is argument ``i`` a name bound to a Python number at one call and to the
        function's own result at another (or the same one, in a loop)?"""
        ctx = self.ctx
        literal = fed_back = None
        for c in calls:
            pos = positional_args(c)
            if i >= len(pos) or not isinstance(pos[i].value, cst.Name):
                continue
            arg = pos[i].value.value
            ws = writes(scope, arg)
            if not ws or not all(isinstance(w, cst.Assign) and len(w.targets) == 1
                                 and isinstance(w.targets[0].target, cst.Name) for w in ws):
                continue
            nums = [w for w in ws if _number(w.value)]
            own = [w for w in ws if isinstance(w.value, cst.Call) and id(w.value) in results]
            if len(nums) + len(own) != len(ws) or len(nums) > 1:
                continue
            if nums and literal is None:
                literal = (nums[0], c)
            if own and fed_back is None and (literal is None or c is not literal[1] or self._in_loop(scope, c)):
                fed_back = c  # a later call (or this one, run again in a loop) given the result
        if literal is None or fed_back is None:
            return
        stmt = literal[0]
        target = stmt.targets[0].target
        num = ctx.code(stmt.value).strip()
        number = stmt.value.expression if isinstance(stmt.value, cst.UnaryOperation) else stmt.value
        kind = "float" if isinstance(number, cst.Float) else "int"
        if _RANK[self._kind] < _RANK[kind]:
            return  # a weak float fed back as an int array's result stays a weak float: one compile
        # start from the type the function returns (a float counter fed back as float32)
        typed = {"float": "float32", "int": "int32", "complex": "complex64", "bool": "bool_"}[self._kind]
        self.report(
            stmt.value,
            f"`{target.value}` starts as the Python number `{num}`, weakly typed, and is given to the "
            f"jitted `{name}`, which is later given its own strongly typed result (line {{related_line}}): "
            f"`{name}` compiles twice, once per weak type. Start from a typed value "
            f"(`jnp.{typed}({num})`, `jnp.asarray({num}, jnp.{typed})`)",
            related=fed_back,
        )
