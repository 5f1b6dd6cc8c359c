"""JAX210 cond-branch-structure-mismatch: `lax.cond`/`lax.switch` branches that return visibly different structures."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import leaf_kinds as LK
from jaxlint.model.checkified import branch_wrappings, wrapping
from jaxlint.model.units import Unit
from jaxlint.model.walk import descendants, positional_args, string_value


# a structure: ("leaf", kind, shape, python, code), ("none",), ("tuple", [children]), ("list", [children]),
# ("dict", (keys...), [children]); None when it cannot be known from the syntax
Struct = Optional[tuple]
_LEAF = ("leaf", None, None, False, "")
_NONE = ("none",)
# jax.numpy / lax functions that always return one array
_ONE_ARRAY = frozenset(
    "jax.numpy." + n
    for n in (
        "zeros", "ones", "full", "zeros_like", "ones_like", "full_like", "array", "asarray",
        "sum", "mean", "max", "min", "prod", "exp", "log", "sqrt", "abs", "tanh", "sin", "cos",
        "maximum", "minimum", "clip", "dot", "matmul", "einsum", "square", "negative",
        "reshape", "transpose", "concatenate", "stack", "arange", "eye", "float32", "int32",
    )
) | frozenset("jax.lax." + n for n in ("add", "mul", "sub", "div", "neg", "exp", "log", "full", "select"))


# haiku's and flax nnx's cond/switch run lax's (haiku 0.0.16, flax 0.12.8: the same
# "cond branch outputs must have the same pytree structure" TypeError)
_SAME_AS_LAX = {"haiku.cond": "jax.lax.cond", "haiku.switch": "jax.lax.switch",
                "flax.nnx.cond": "jax.lax.cond", "flax.nnx.switch": "jax.lax.switch"}


def _is_number(e: cst.BaseExpression) -> bool:
    if isinstance(e, (cst.Integer, cst.Float, cst.Imaginary)):
        return True
    return isinstance(e, cst.UnaryOperation) and isinstance(e.expression, (cst.Integer, cst.Float))


def _holds(s: Struct, var: tuple) -> bool:
    """Does the container structure ``s`` hold the operand ``var`` somewhere inside?"""
    if s is None or s[0] in ("leaf", "none", "var"):
        return False
    kids = s[2] if s[0] == "dict" else s[1]
    return any(k == var or _holds(k, var) for k in kids)


def _differ(a: Struct, b: Struct) -> bool:
    if a is None or b is None:
        return False
    if a[0] == "var" or b[0] == "var":
        # an operand of unknown structure (`x`) against a container that holds it
        # (`(x, x)`, `dict(a=x)`): a pytree never has the structure of a container
        # holding it (it has fewer nodes); against anything else it may be equal
        if a == b:
            return False
        var, other = (a, b) if a[0] == "var" else (b, a)
        return _holds(other, var)
    if a[0] != b[0]:
        return True
    if a[0] in ("tuple", "list"):
        if len(a[1]) != len(b[1]):
            return True
        return any(_differ(x, y) for x, y in zip(a[1], b[1]))
    if a[0] == "dict":
        if a[1] != b[1]:
            return True
        return any(_differ(x, y) for x, y in zip(a[2], b[2]))
    return False


def _plain(s: Struct) -> Struct:
    """The structure without the code of its leaves (to compare two `return`s)."""
    if s is None or s[0] in ("none", "var"):
        return s
    if s[0] == "leaf":
        return s[:4]
    if s[0] == "dict":
        return ("dict", s[1], tuple(_plain(c) for c in s[2]))
    return (s[0], tuple(_plain(c) for c in s[1]))


def _type_clash(a: Struct, b: Struct) -> Optional[tuple]:
    """Two structures alike whose leaves at one place differ in kind or static shape:
    that pair of leaves."""
    if a is None or b is None or a[0] != b[0]:
        return None
    if a[0] == "leaf":
        if LK.disjoint(a[1], b[1]) or (a[2] is not None and b[2] is not None and a[2] != b[2]):
            return a, b
        return None
    if a[0] in ("tuple", "list"):
        pairs = zip(a[1], b[1])
    elif a[0] == "dict":
        pairs = zip(a[2], b[2])
    else:
        return None
    for x, y in pairs:
        found = _type_clash(x, y)
        if found is not None:
            return found
    return None


def _leaf_text(s: tuple) -> str:
    return LK.describe(s[1], s[2], s[3]) + (f" `{s[4]}`" if s[4] else "")


def _forget(s: Struct) -> Struct:
    """The structure with its operands of unknown structure unknown."""
    if s is None or s[0] in ("leaf", "none"):
        return s
    if s[0] == "var":
        return None
    if s[0] == "dict":
        return ("dict", s[1], tuple(_forget(c) for c in s[2]))
    return (s[0], tuple(_forget(c) for c in s[1]))


def _describe(s: tuple, vars: bool = False) -> str:
    kind = s[0]
    if kind == "leaf":
        return "a single array"
    if kind == "none":
        return "None"
    if kind == "var":
        return f"its operand `{s[2]}`"
    if kind in ("tuple", "list"):
        inner = ", ".join("unknown" if c is None else _describe(c, vars) for c in s[1])
        return f"a {kind} of {len(s[1])}" + (f" ({inner})" if any(_shown(c, vars) for c in s[1]) else "")
    if not s[1]:
        return "an empty dict"
    inner = ", ".join(f"{k!r}: " + ("unknown" if c is None else _describe(c, vars)) for k, c in zip(s[1], s[2]))
    return "a dict with keys " + ", ".join(repr(k) for k in s[1]) + (
        f" ({inner})" if any(_shown(c, vars) for c in s[2]) else "")


def _shown(c: Struct, vars: bool) -> bool:
    return c is not None and c[0] != "leaf" and (vars or c[0] != "var")


class CondBranchStructure(Rule):
    code = "JAX210"
    name = "cond-branch-structure-mismatch"
    runtime_check = '`jax.jit(f).trace(...)`: confirmed when `lax.cond`/`switch` raises `TypeError` for branches of different structure.'
    summary = "`lax.cond`/`lax.switch` branches that return visibly different structures"
    severity = Severity.ERROR
    seed = (
        "study notes § lax.cond: branches must produce the same type and shape (seed 003); "
        "The Sharp Bits § Control Flow, lax.cond (seed 000)"
    )
    what_it_does = (
        "At `lax.cond(pred, true_fun, false_fun, ...)` (and flax nnx's and haiku's `cond`/`switch`) and `lax.switch(i, [f0, f1, ...], ...)` "
        "where the branches are lambdas or functions of this file, compares what the branches "
        "return, and flags a mismatch only when the structure is certain from the syntax: "
        "tuple/list displays of different lengths, a tuple against a list, a dict against "
        "different keys, `None` (or no `return`) against a value, a number literal or "
        "arithmetic result against a tuple; `dict(a=..., b=...)` and `dict()` are dicts. A branch "
        "that returns its parameter (`lambda x: x`, `def keep(s): return s`) returns the "
        "operand given to `lax.cond`/`lax.switch`, whose display is compared (reported at the "
        "call); an operand whose structure is not visible is equal only to itself, so `lambda "
        "v: v` against `lambda v: (v, v)` differs whatever `v` is. Leaves are compared by "
        "dtype kind and literal shape where the syntax shows them (a Python `0` against "
        "`1.0` or `x / 2`, `jnp.zeros(3)` against `0.0`, `jnp.ones(s, dtype=jnp.int32)` "
        "against `jnp.zeros(s)`); widths never (a weak `0.0` takes a `float32` array's). "
        "Branches that are separate `checkify.checkify` wrappings running a check "
        "(`[make_branch(i) for i in range(3)]` of a factory that returns one, two "
        "`checkify.checkify(...)` calls) return Errors of different structures. Branches may "
        "be given by keyword (`true_fun=`, `branches=`, `operand=`), as `functools.partial(f, "
        "a)` of a def of this file, or, for `lax.switch`, "
        "through a name bound once to a list. A branch returning another plain name, a call "
        "or anything whose structure is not visible is never compared."
    )
    why_bad = (
        "Both branches are traced, and they must produce the same pytree structure, shapes and "
        "dtypes. JAX raises at trace time, even outside `jit`:\n\n"
        "```\nTypeError: cond branch outputs must have the same pytree structure, but they "
        "differ:\n```\n\n"
        "(`switch branch outputs must ...` for `lax.switch`; equal structures with different "
        "dtypes give `TypeError: cond branches must have equal output types but they differ.`)"
    )
    use_instead = (
        "```python\ndef step(x):\n    return lax.cond(x.sum() > 0,\n                    lambda v: (v, v.sum()),\n"
        "                    lambda v: (v, jnp.zeros(())),\n                    x)\n```"
    )
    fix_safety = "No automatic fix: what the other branch should return is not known."
    VALID = [
        Valid(
            """
            import jax.numpy as jnp
            from jax import lax

            def step(x):
                return lax.cond(x.sum() > 0, lambda v: (v, v.sum()), lambda v: (-v, jnp.zeros(())), x)
            """
        ),
        # a branch returning a plain name could be a tuple: not compared
        Valid(
            """
            from jax import lax

            def f(p, state):
                return lax.cond(p, lambda s: s, lambda s: (s[0] + 1, s[1]), state)
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            from jax import lax

            def true_fn(x):
                y = jnp.sin(x)
                return y, y * 2

            def false_fn(x):
                if x.ndim > 1:
                    return x, x
                return jnp.cos(x), x

            out = lax.cond(True, true_fn, false_fn, jnp.ones(3))
            """
        ),
        Valid(
            """
            import jax.numpy as jnp
            from jax import lax

            def g(i, x):
                return lax.switch(i, [lambda v: {'a': v, 'b': 0.0}, lambda v: {'b': 1.0, 'a': -v}], x)
            """
        ),
        # a branch returning its operand against one of the same structure (dict(), dict(a=..))
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from jax import lax


            def keep(state):
                return state


            def reset(state):
                return {"loss": 0.0, "step": 0}


            def step(counter, stats, carry):
                out = lax.switch(counter % 2, [keep, reset], {"loss": stats, "step": counter})
                aux = jax.lax.cond(counter >= 10, lambda x: x, lambda x: (0.0, dict(a=0, b=0)), (1.0, dict(a=3, b=4)))
                other = lax.cond(counter > 1, keep, lambda c: c * 2.0, carry)
                return out, aux, other


            print(jax.jit(step)(jnp.int32(3), 1.0, 2.0))
            """
        ),
        # twins: an operand against arithmetic on it, a weak Python scalar against an array of
        # its kind and shape (), one checkify wrapping given twice, wrappings with no check,
        # checkify around the function that calls lax.switch
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from jax import lax
            from jax.experimental import checkify


            def positive(x):
                checkify.check(jnp.all(x > 0), "x must be positive")
                return x


            def plain(x):
                return -x


            checked = checkify.checkify(positive)


            def step(p, i, x):
                a = lax.cond(p, lambda v: v, lambda v: v + 1.0, x)
                b = lax.cond(p, lambda: 0.0, lambda: jnp.zeros(()))
                c = lax.cond(p, lambda: 0, lambda: jnp.int32(1))
                d = lax.cond(p, lambda: True, lambda: x.sum() > 0)
                e = lax.switch(i, [lambda v: dict(a=v), lambda v: dict(a=v * 2.0)], x)
                f = lax.cond(p, checked, checked, x)
                g = lax.switch(i, [checkify.checkify(plain), checkify.checkify(lambda v: v)], x)
                h = lax.cond(p, lambda: jnp.zeros(3), lambda: jnp.full(3, 0.0))
                return a, b, c, d, e, f, g, h


            def run(p, i, x):
                return lax.switch(i, [positive, plain], x)


            print(jax.jit(step)(True, 1, jnp.ones(3)))
            print(checkify.checkify(jax.jit(run))(True, 1, jnp.ones(3))[1])
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            from jax import lax

            def step(x):
                return lax.cond(x.sum() > 0, lambda v: (v, v.sum()), lambda v: v * 2.0, x)
            """,
            expected=[(4, 58)],
            messages=[
                "`lax.cond` branches return different structures: the true branch returns a tuple of 2, the false branch returns a single array; JAX raises TypeError: cond branch outputs must have the same pytree structure, but they differ. Make every branch return the same tuple/list/dict layout (fill unused slots with zeros)",
            ],
        ),
        Invalid(
            """
            import jax.numpy as jnp
            from jax import lax

            def log_only(x):
                print('negative')

            def scale(x):
                return x * 2.0

            out = lax.cond(jnp.all(jnp.ones(3) > 0), scale, log_only, jnp.ones(3))
            """,
            expected=[(10, 49)],
            messages=[
                "`lax.cond` branches return different structures: the true branch returns a single array, the false branch returns None; JAX raises TypeError: cond branch outputs must have the same pytree structure, but they differ. Make every branch return the same tuple/list/dict layout (fill unused slots with zeros)",
            ],
        ),
        Invalid(
            """
            from jax import lax

            def apply(i, x):
                return lax.switch(i, [lambda v: (v, 0.0), lambda v: (v, 1.0), lambda v: (v, 0.0, 1.0)], x)
            """,
            expected=[(4, 67)],
            messages=[
                "`lax.switch` branches return different structures: branch 0 returns a tuple of 2, branch 2 returns a tuple of 3; JAX raises TypeError: switch branch outputs must have the same pytree structure, but they differ. Make every branch return the same tuple/list/dict layout (fill unused slots with zeros)",
            ],
        ),
        # a branch that returns its operand (a function, a lambda): the operand's structure
        # against the other branch's, reported at the call; dict(...) calls are dicts
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            from jax import lax


            def keep(state):
                return state


            def reset(state):
                return {"loss": 0.0}


            def step(counter, stats):
                out = lax.switch(counter % 2, [keep, reset], {"loss": stats, "step": counter})
                aux = jax.lax.cond(counter >= 10, lambda x: x, lambda x: (0.0, dict()), (1.0, dict(a=3, b=4)))
                return out, aux
            """,
            expected=[(15, 11), (16, 11)],
            messages=[
                "`lax.switch` branches return different structures: branch 0 returns a dict with keys 'loss', 'step', branch 1 returns a dict with keys 'loss'; JAX raises TypeError: switch branch outputs must have the same pytree structure, but they differ. Make every branch return the same tuple/list/dict layout (fill unused slots with zeros)",
                "`lax.cond` branches return different structures: the true branch returns a tuple of 2 (a single array, a dict with keys 'a', 'b'), the false branch returns a tuple of 2 (a single array, an empty dict); JAX raises TypeError: cond branch outputs must have the same pytree structure, but they differ. Make every branch return the same tuple/list/dict layout (fill unused slots with zeros)",
            ],
        ),
        # an operand of unknown structure against a container holding it (`v` vs `(v, v)`,
        # `dict(a=v)` vs `dict(a=(v, v))`): never the same structure; `operand=` is the operand
        Invalid(
            """
            import jax.numpy as jnp
            from jax import lax


            def pair(s):
                return s, s


            def keep(s):
                return s


            def step(i, x):
                out = lax.switch(i, [lambda v: dict(a=v), lambda v: dict(a=(v, v))], x)
                same = lax.cond(i > 0, keep, pair, operand=x)
                return out, same


            step(0, jnp.ones(3))
            """,
            expected=[(14, 11), (15, 12)],
            messages=[
                "`lax.switch` branches return different structures: branch 0 returns a dict with keys 'a' ('a': its operand `x`), branch 1 returns a dict with keys 'a' ('a': a tuple of 2 (its operand `x`, its operand `x`)); JAX raises TypeError: switch branch outputs must have the same pytree structure, but they differ. Make every branch return the same tuple/list/dict layout (fill unused slots with zeros)",
                "`lax.cond` branches return different structures: the true branch returns its operand `x`, the false branch returns a tuple of 2 (its operand `x`, its operand `x`); JAX raises TypeError: cond branch outputs must have the same pytree structure, but they differ. Make every branch return the same tuple/list/dict layout (fill unused slots with zeros)",
            ],
        ),
        # separate checkify.checkify wrappings that run checks (a factory in a comprehension,
        # two checkify.checkify calls): their Error outputs differ in structure
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            from jax.experimental import checkify


            def make_branch(i):
                @checkify.checkify
                def branch(x):
                    checkify.check(jnp.all(x > i), "x must exceed the index")
                    return x * i
                return branch


            def positive(x):
                checkify.check(jnp.all(x > 0), "x must be positive")
                return x


            def negate(x):
                return -x


            def apply(index, x):
                err, out = jax.lax.switch(index, [make_branch(i) for i in range(3)], x)
                err2, out2 = jax.lax.cond(index > 0, checkify.checkify(positive), checkify.checkify(negate), x)
                return out, out2


            apply(1, jnp.ones(3))
            """,
            expected=[(24, 16), (25, 18)],
            messages=[
                "`lax.switch` branches are separate `checkify.checkify` wrappings (branch 0 and branch 1) that run checks: each returns an Error whose pytree carries its own wrapping's checks, so the outputs differ; JAX raises TypeError: switch branch outputs must have the same pytree structure, but they differ. Give `lax.switch` plain branches and checkify the function that calls it",
                "`lax.cond` branches are separate `checkify.checkify` wrappings (the true branch and the false branch) that run checks: each returns an Error whose pytree carries its own wrapping's checks, so the outputs differ; JAX raises TypeError: cond branch outputs must have the same pytree structure, but they differ. Give `lax.cond` plain branches and checkify the function that calls it",
            ],
        ),
        # equal structures, leaves of different kinds or literal shapes: a Python int against a
        # Python float or a true division, a (3,) array against a scalar, float against int32
        Invalid(
            """
            import jax.numpy as jnp
            import numpy as np
            from jax import lax


            def zeros_out(x):
                return jnp.zeros(3)


            def no_change(x):
                return 0.0


            def count(p, i, x):
                n = lax.cond(p, lambda: 0, lambda: 1.0)
                branches = [lambda v: (v, 0), lambda v: (v, v / 2)]
                m = lax.switch(i, branches, x)
                o = lax.cond(p, zeros_out, no_change, x)
                q = lax.cond(p, lambda: jnp.zeros((2, 3)), lambda: jnp.ones((2, 3), dtype=np.int32))
                return n, m, o, q


            count(True, 0, jnp.ones(3))
            """,
            expected=[(15, 32), (16, 35), (18, 32), (19, 48)],
            messages=[
                "`lax.cond` branches return different types: the true branch returns a Python int `0` where the false branch returns a Python float `1.0`; JAX raises TypeError: cond branches must have equal output types but they differ. Give both the same dtype and shape (`jnp.zeros_like`, `.astype`, a literal of the same kind)",
                "`lax.switch` branches return different types: branch 0 returns a Python int `0` where branch 1 returns a float or complex array `v / 2`; JAX raises TypeError: switch branches must have equal output types but they differ. Give both the same dtype and shape (`jnp.zeros_like`, `.astype`, a literal of the same kind)",
                "`lax.cond` branches return different types: the true branch returns a float array of shape (3,) `jnp.zeros(3)` where the false branch returns a Python float `0.0`; JAX raises TypeError: cond branches must have equal output types but they differ. Give both the same dtype and shape (`jnp.zeros_like`, `.astype`, a literal of the same kind)",
                "`lax.cond` branches return different types: the true branch returns a float array of shape (2, 3) `jnp.zeros((2, 3))` where the false branch returns an int array of shape (2, 3) `jnp.ones((2, 3), dtype=np.int32)`; JAX raises TypeError: cond branches must have equal output types but they differ. Give both the same dtype and shape (`jnp.zeros_like`, `.astype`, a literal of the same kind)",
            ],
        ),
        # branches as functools.partial of a def of this file: its first parameters bound,
        # the operands given to the rest (the cond of `scaled` against a lambda of the
        # same layout stays silent)
        Invalid(
            """
            import functools

            import jax.numpy as jnp
            from jax import lax


            def scaled(factor, x):
                return x * factor, x


            def shifted(offset, x):
                return x - offset


            def step(i, x):
                a = lax.switch(i, [functools.partial(scaled, 2.0), functools.partial(shifted, 1.0)], x)
                b = lax.cond(i > 0, functools.partial(scaled, 2.0), lambda v: (v, v), x)
                return a, b


            step(0, jnp.ones(3))
            """,
            expected=[(16, 56)],
            messages=[
                "`lax.switch` branches return different structures: branch 0 returns a tuple of 2, branch 1 returns a single array; JAX raises TypeError: switch branch outputs must have the same pytree structure, but they differ. Make every branch return the same tuple/list/dict layout (fill unused slots with zeros)",
            ],
        ),
        # flax nnx's and haiku's cond/switch run lax's: the same checks, named as written
        Invalid(
            """
            import flax.nnx as nnx
            import haiku as hk
            import jax.numpy as jnp


            def f(p, x):
                return nnx.cond(p, lambda v: v, lambda v: (v, v), x)


            def g(x):
                return hk.switch(0, [lambda u: 0, lambda u: 1.0], x)
            """,
            expected=[(7, 12), (11, 39)],
            messages=[
                "`nnx.cond` branches return different structures: the true branch returns its operand `x`, the false branch returns a tuple of 2 (its operand `x`, its operand `x`); JAX raises TypeError: cond branch outputs must have the same pytree structure, but they differ. Make every branch return the same tuple/list/dict layout (fill unused slots with zeros)",
                "`hk.switch` branches return different types: branch 0 returns a Python int `0` where branch 1 returns a Python float `1.0`; JAX raises TypeError: switch branches must have equal output types but they differ. Give both the same dtype and shape (`jnp.zeros_like`, `.astype`, a literal of the same kind)",
            ],
        ),
    ]

    _given: dict = {}
    _used_operand = False
    _shown = "lax.cond"

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        q = ctx.qualname(node.func)
        self._shown = {"haiku.cond": "hk.cond", "haiku.switch": "hk.switch", "flax.nnx.cond": "nnx.cond",
                       "flax.nnx.switch": "nnx.switch"}.get(q or "", "lax." + (q or "").rsplit(".", 1)[-1])
        q = _SAME_AS_LAX.get(q, q)
        if q not in ("jax.lax.cond", "jax.lax.switch"):
            return
        pos = [a.value for a in positional_args(node)]
        kw = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        if any(a.star for a in node.args):
            return
        if q == "jax.lax.cond":
            # lax.cond(pred, true_fun, false_fun, *operands, operand=...)
            for i, name in ((1, "true_fun"), (2, "false_fun")):
                if len(pos) == i and name in kw:
                    pos.append(kw.pop(name))
            if len(pos) < 3:
                return
            fns = [pos[1], pos[2]]
            labels = ["the true branch", "the false branch"]
            what = "cond"
            ws = [wrapping(ctx, f) for f in fns]
            if self._checkified(node, what, None if None in ws else ws):  # type: ignore[arg-type]
                return
        else:
            # lax.switch(index, branches, *operands, operand=...)
            if len(pos) == 1 and "branches" in kw:
                pos.append(kw.pop("branches"))
            if len(pos) < 2:
                return
            branches = self._display(pos[1])
            if self._checkified(node, "switch", branch_wrappings(ctx, branches)):
                return
            if not isinstance(branches, (cst.List, cst.Tuple)):
                return
            fns = [el.value for el in branches.elements if not isinstance(el, cst.StarredElement)]
            if len(fns) != len(branches.elements):
                return
            labels = [f"branch {i}" for i in range(len(fns))]
            what = "switch"
        operands = pos[3:] if what == "cond" else pos[2:]
        if "operand" in kw and not operands:
            operands = [kw.pop("operand")]
        given = None if kw else operands
        structs, passed = [], []
        for f in fns:
            bound = self._partial(f)
            if bound is not None:
                # `functools.partial(f, a)`: `f` with its first parameters given
                unit, k = bound
                structs.append(self._returns(unit, given, k))
            else:
                structs.append(self._returns(self._unit(f), given))
            passed.append(self._used_operand)
        first = None
        for i, s in enumerate(structs):
            if s is None:
                continue
            if first is None:
                first = i
                continue
            if _differ(structs[first], s):
                # different only through an operand (`x` against `(x, x)`): shown, at the call
                by_operand = not _differ(_forget(structs[first]), _forget(s))
                self.report(
                    # a branch that returns its operand is wrong only with the operand
                    # passed here: the call is the place
                    node if passed[first] or passed[i] or by_operand else fns[i],
                    f"`{self._shown}` branches return different structures: {labels[first]} returns "
                    f"{_describe(structs[first], by_operand)}, {labels[i]} returns "
                    f"{_describe(s, by_operand)}; JAX raises "
                    f"TypeError: {what} branch outputs must have the same pytree structure, but "
                    f"they differ. Make every branch return the same tuple/list/dict layout "
                    f"(fill unused slots with zeros)",
                )
                return
            clash = _type_clash(structs[first], s)
            if clash is not None:
                a, b = clash
                self.report(
                    node if passed[first] or passed[i] else fns[i],
                    f"`{self._shown}` branches return different types: {labels[first]} returns "
                    f"{_leaf_text(a)} where {labels[i]} returns {_leaf_text(b)}; JAX raises "
                    f"TypeError: {what} branches must have equal output types but they differ. "
                    f"Give both the same dtype and shape (`jnp.zeros_like`, `.astype`, a literal "
                    f"of the same kind)",
                )
                return

    def _checkified(self, node: cst.Call, what: str, ws: Optional[list]) -> bool:
        """Branches that are different `checkify.checkify` wrappings, one of them running
        a check: their Error outputs differ in structure (model/checkified.py)."""
        if not ws:
            return False
        for i, (ident, checks) in enumerate(ws):
            for j in range(i):
                if ws[j][0] != ident and (checks or ws[j][1]):
                    names = (["the true branch", "the false branch"] if what == "cond"
                             else [f"branch {k}" for k in range(len(ws))])
                    self.report(
                        node,
                        f"`{self._shown}` branches are separate `checkify.checkify` wrappings "
                        f"({names[j]} and {names[i]}) that run checks: each returns an Error "
                        f"whose pytree carries its own wrapping's checks, so the outputs differ; "
                        f"JAX raises TypeError: {what} branch outputs must have the same pytree "
                        f"structure, but they differ. Give `{self._shown}` plain branches and "
                        f"checkify the function that calls it",
                    )
                    return True
        return False

    def _display(self, e: cst.BaseExpression) -> cst.BaseExpression:
        """A name bound once, to a list/tuple display (`branches = [f, g]`): that display."""
        if not isinstance(e, cst.Name):
            return e
        u: Optional[Unit] = self.ctx.unit
        while u is not None:
            entries = u.bindings.get(e.value)
            if entries:
                if len(entries) == 1 and isinstance(entries[0][1], (cst.List, cst.Tuple, cst.ListComp)):
                    return entries[0][1]
                return e
            u = u.parent
        return e

    def _unit(self, e: cst.BaseExpression) -> Optional[Unit]:
        ctx = self.ctx
        if isinstance(e, cst.Lambda):
            return ctx.index.unit_of.get(id(e))
        if isinstance(e, cst.Name):
            v = ctx.value(e)
            u = v.unit
            if u is not None and isinstance(u.node, cst.FunctionDef) and u.cls is None:
                return u
        return None

    def _partial(self, e: cst.BaseExpression) -> Optional[tuple[Unit, int]]:
        """``functools.partial(f, a, b)`` of a function of this file, positional
        arguments only: (its unit, how many leading parameters it binds)."""
        if not isinstance(e, cst.Call) or self.ctx.qualname(e.func) != "functools.partial" or not e.args:
            return None
        if any(a.star or a.keyword is not None for a in e.args):
            return None
        unit = self._unit(e.args[0].value)
        if unit is None or not isinstance(unit.node, cst.FunctionDef):
            return None
        return unit, len(e.args) - 1

    def _returns(self, unit: Optional[Unit], operands: Optional[list] = None, n_bound: int = 0) -> Struct:
        if unit is None:
            return None
        node = unit.node
        # a branch that hands back what it is given (`lambda x: x`, `def keep(s): return s`)
        # returns the structure of the operand passed for that parameter
        self._given = {}
        self._used_operand = False
        params = unit.positional()[n_bound:]
        if operands is not None and len(operands) == len(params) == len(unit.params) - n_bound:
            self._given = {p.name: (i, e) for i, (p, e) in enumerate(zip(params, operands))
                           if p.name not in unit.assigned}
        if isinstance(node, cst.Lambda):
            return self._struct(node.body)
        if not isinstance(node, cst.FunctionDef) or unit.is_generator or node.decorators:
            return None
        returns = [n for n in descendants(node.body) if isinstance(n, cst.Return)]
        if not returns:
            body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
            last = body[-1] if body else None
            if isinstance(last, cst.SimpleStatementLine) and any(isinstance(s, cst.Raise) for s in last.body):
                return None
            if any(isinstance(n, cst.Raise) for n in descendants(node.body)):
                return None
            return _NONE
        structs = [self._struct(r.value) if r.value is not None else _NONE for r in returns]
        s0 = structs[0]
        if s0 is None or any(_plain(s) != _plain(s0) for s in structs[1:]):
            return None
        return s0

    def _struct(self, e: cst.BaseExpression) -> Struct:
        t = type(e)
        if t is cst.Tuple or t is cst.List:
            kids = []
            for el in e.elements:
                if isinstance(el, cst.StarredElement):
                    return None
                kids.append(self._struct(el.value))
            return ("tuple" if t is cst.Tuple else "list", tuple(kids))
        if t is cst.Dict:
            keys, kids = [], []
            for el in e.elements:
                if not isinstance(el, cst.DictElement):
                    return None
                k = string_value(el.key)
                if k is None:
                    return None
                keys.append(k)
                kids.append((k, self._struct(el.value)))
            kids.sort(key=lambda kv: kv[0])
            return ("dict", tuple(sorted(keys)), tuple(v for _, v in kids))
        if t is cst.Name:
            if e.value == "None":
                return _NONE
            if e.value in ("True", "False"):
                return self._leaf(e, "bool", (), True)
            given = self._given.pop(e.value, None)  # (once: the operand is not a branch's body)
            if given is not None:
                found = self._struct(given[1])
                if found is None:
                    # its structure unknown: the operand itself, equal only to itself
                    found = ("var", given[0], self.ctx.code(given[1]))
                else:
                    self._used_operand = True
                self._given[e.value] = given
                return found
            return None
        if _is_number(e):
            return self._leaf(e, LK.literal_kind(e), (), True)
        if t is cst.UnaryOperation and isinstance(e.operator, (cst.Minus, cst.BitInvert)):
            return _LEAF
        if t is cst.Comparison:
            # `x > 0`, `a == b`: a bool (array) whatever the operands
            return self._leaf(e, "bool", None, False)
        if t is cst.BinaryOperation:
            op = e.operator
            floats = isinstance(e.left, cst.Float) or isinstance(e.right, cst.Float)
            if isinstance(op, cst.Divide) or (floats and isinstance(op, (cst.Add, cst.Subtract, cst.Multiply))):
                # true division, arithmetic with a float literal: float (or complex)
                return self._leaf(e, "inexact", None, False)
            if isinstance(op, (cst.Subtract, cst.Power, cst.MatrixMultiply, cst.FloorDivide)):
                return _LEAF
            if isinstance(op, cst.Add) and (_is_number(e.left) or _is_number(e.right)):
                return _LEAF
            return None
        if t is cst.Call and self.ctx.builtin_name(e.func) == "dict" and all(
                a.keyword is not None and not a.star for a in e.args):
            # `dict(a=3, b=4)`, `dict()`: a dict with those keys
            kids = sorted((a.keyword.value, self._struct(a.value)) for a in e.args)  # type: ignore[union-attr]
            return ("dict", tuple(k for k, _ in kids), tuple(v for _, v in kids))
        if t is cst.Call:
            made = LK.constructed(self.ctx, e)
            if made is not None:
                return self._leaf(e, made[0], made[1], False)
            q = self.ctx.qualname(e.func)
            if q in _ONE_ARRAY:
                return _LEAF
            if q == "jax.numpy.where" and len(e.args) == 3:
                return _LEAF
        return None

    def _leaf(self, e: cst.BaseExpression, kind: Optional[str], shape: Optional[tuple], python: bool) -> tuple:
        code = self.ctx.code(e)
        return ("leaf", kind, shape, python, code if len(code) <= 40 else "")
