"""JAX201: Python control flow that needs the concrete value of a tracer."""

from __future__ import annotations

import libcst as cst

from jaxlint.findings import Severity
from jaxlint.model import values as V
from jaxlint.model.walk import dotted_name
from jaxlint.engine.rule import Invalid, Rule, Valid


def _is_presence_check(expr: cst.BaseExpression) -> bool:
    """`x is None`, `x is not None`, `isinstance(...)`, `hasattr(...)`, `callable(...)`."""
    if isinstance(expr, cst.Comparison):
        return all(isinstance(c.operator, (cst.Is, cst.IsNot)) for c in expr.comparisons)
    if isinstance(expr, cst.Call):
        return dotted_name(expr.func) in ("isinstance", "hasattr", "callable")
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
        return _is_presence_check(expr.expression)
    return False


class TracedControlFlow(Rule):
    code = "JAX201"
    name = "traced-control-flow"
    summary = "Python `if`/`while`/ternary/`and`/`or`/`not`/`assert`/`bool()` on a traced value"
    severity = Severity.ERROR
    seed = (
        "The Sharp Bits § Control Flow (seed 000); FAQ § Abstract tracer value encountered "
        "(seeds 001, 004); tutorial § jit and control flow (seed 002)"
    )
    what_it_does = (
        "Inside code that JAX traces with abstract values (a function under `jit`, `vmap`, "
        "`pmap`, `shard_map`, or a body passed to `lax.scan`, `fori_loop`, `while_loop`, "
        "`cond`, `switch`, `map`, and helpers they call), flags Python constructs that turn an "
        "array into a Python `bool`: `if`, `elif`, `while`, `x if c else y`, `and`, `or`, "
        "`not`, `assert`, comprehension `if` clauses and `bool(...)`, when the value is a "
        "tracer: a non-static argument, or anything JAX computed from one.\n\n"
        "Shape checks (`x.shape[0] > 2`, `x.ndim`, `len(x)`), `x is None`, `isinstance`, "
        "static arguments (`static_argnums`/`static_argnames`), loop variables of "
        "`range(<static>)` and functions transformed only by `grad`/`value_and_grad`/"
        "`jacfwd`/`jacrev` (which trace with concrete values) are not flagged."
    )
    why_bad = (
        "Under `jit` the function is traced with abstract values that stand for every array "
        "of a shape and dtype; Python cannot pick a branch for them and JAX raises:\n\n"
        "```\njax.errors.TracerBoolConversionError: Attempted boolean conversion of traced "
        "array with shape bool[].\n```\n\n"
        "(`TracerBoolConversionError` is a subclass of `ConcretizationTypeError`.) The error "
        "comes only when the function is first called, often far from where it was written."
    )
    example = (
        "```python\n@jax.jit\ndef f(x):\n    if x < 3:\n        return 3. * x ** 2\n"
        "    return -4 * x\n```"
    )
    use_instead = (
        "Select with `jnp.where`, branch with `lax.cond`, loop with `lax.while_loop`; or, if "
        "the value is really a Python configuration value, declare it static:\n\n"
        "```python\n@jax.jit\ndef f(x):\n    return jnp.where(x < 3, 3. * x ** 2, -4 * x)\n\n"
        "@partial(jax.jit, static_argnums=(1,))\ndef g(x, mode):\n    if mode == 'train':\n"
        "        ...\n```"
    )
    fix_safety = "No automatic fix: the right rewrite (`jnp.where`, `lax.cond`, `static_argnums`) depends on intent."
    VALID = [
        # grad alone traces with concrete values (The Sharp Bits)
        Valid("from jax import grad\n\ndef f(x):\n    if x < 3:\n        return 3. * x ** 2\n    return -4 * x\n\ngrad(f)(2.)\n"),
        # static-range loops and shape checks
        Valid("import jax\n\n@jax.jit\ndef f(x):\n    for i in range(3):\n        x = 2 * x\n    if x.shape[0] > 2 and x.ndim == 1:\n        x = x[:2]\n    return x\n"),
        Valid("import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef g(x, y=None):\n    if y is None:\n        y = jnp.zeros_like(x)\n    if isinstance(x, tuple) or len(x) == 0:\n        return y\n    return x + y\n"),
        # static_argnums / static_argnames, also negative and through partial
        Valid("from functools import partial\nimport jax\n\n@partial(jax.jit, static_argnums=(1,))\ndef f(x, n):\n    if n > 0:\n        return x * n\n    return x\n"),
        Valid("import jax\n\ndef f(x, mode):\n    if mode == 'train':\n        return x\n    return -x\n\nf2 = jax.jit(f, static_argnames='mode')\nf3 = jax.jit(f, static_argnums=-1)\n"),
        # numba.jit is not jax.jit
        Valid("import numba\nimport jax\n\n@numba.jit\ndef f(x):\n    if x > 0:\n        return x\n    return -x\n"),
        # plain Python outside traced code
        Valid("import jax.numpy as jnp\n\ndef f(x):\n    if jnp.sum(x) > 0:\n        return x\n    return -x\n"),
        # lax.cond / where instead of if
        Valid("import jax\nfrom jax import lax\n\n@jax.jit\ndef f(x):\n    return lax.cond(x > 0, lambda v: v, lambda v: -v, x)\n"),
        # host callbacks see concrete values
        Valid("import jax\n\ndef log_if_big(v):\n    if v > 10:\n        print(v)\n\n@jax.jit\ndef f(x):\n    jax.debug.callback(log_if_big, x)\n    return x\n"),
        # flax module: a bool flag is static configuration
        Valid("import flax.linen as nn\nimport jax\n\nclass MLP(nn.Module):\n    @nn.compact\n    def __call__(self, x: jax.Array, train: bool = False):\n        if train:\n            x = nn.Dropout(0.1, deterministic=False)(x)\n        return nn.Dense(3)(x)\n"),
        # equinox filter_jit: non-array arguments are static
        Valid("import equinox as eqx\n\n@eqx.filter_jit\ndef f(model, x, flag):\n    if flag:\n        return model(x)\n    return x\n"),
        # vmap with in_axes=None: that argument is passed through unchanged
        Valid("import jax\n\ndef f(x, n):\n    if n > 1:\n        return x * n\n    return x\n\nv = jax.vmap(f, in_axes=(0, None))\n"),
        # a partial that binds the flag before the transform sees the function
        Valid("import functools\nimport jax\n\ndef foo(x, y, flag):\n    return (x * 2) + y if flag else (x + y)\nfoo = functools.partial(foo, flag=True)\nfoo = jax.pmap(foo)\n"),
        # scan passes two operands: a defaulted third parameter keeps its Python default
        Valid("import jax\n\ndef step(carry, x, first=False):\n    if not first:\n        carry = carry + x\n    return carry, x\n\nout = jax.lax.scan(step, 0.0, jax.numpy.ones(3))\n"),
        # isinstance narrows to a Python number; guards on static flags
        Valid("import jax\nfrom jax import lax\n\n@jax.jit\ndef norm_index(index, size):\n    if isinstance(index, int):\n        return index + size if index < 0 else index\n    return lax.select(index < 0, index + size, index)\n"),
        Valid("import functools\nimport jax\nimport jax.numpy as jnp\n\ndef solve(a, rcond, numpy_resid=True):\n    rank = jnp.sum(a > rcond)\n    if numpy_resid and (rank < 3 or a.shape[0] <= 2):\n        return a\n    return -a\n\nfast = jax.jit(functools.partial(solve, numpy_resid=False))\n"),
        # flax module methods: shape checks and static flags are fine
        Valid("import flax.linen as nn\n\nclass Block(nn.Module):\n    features: int\n\n    @nn.compact\n    def __call__(self, x, train: bool, mode='sum'):\n        if x.ndim == 1 or x.shape[-1] != self.features:\n            x = nn.Dense(self.features)(x)\n        if mode == 'sum' and train:\n            x = x * 2\n        return x\n"),
        # truthiness of a pytree argument is a container's; dict keys are strings
        Valid("import jax\n\n@jax.jit\ndef decay(params, grads):\n    if not grads:\n        return params\n    out = {}\n    for name in params:\n        if name == 'bias':\n            continue\n        out[name] = params[name] * 0.99\n    return out\n"),
        # static fields of pytree classes
        Valid("import dataclasses\nimport functools\nimport jax\nfrom flax import struct\n\nclass State(struct.PyTreeNode):\n    params: dict\n    accum: int = struct.field(pytree_node=False, default=1)\n\n@functools.partial(jax.tree_util.register_dataclass, data_fields=['w'], meta_fields=['depth'])\n@dataclasses.dataclass\nclass Net:\n    w: jax.Array\n    depth: int\n\n@jax.jit\ndef step(state, net, x):\n    if state.accum > 1:\n        x = x / state.accum\n    for _ in range(net.depth):\n        x = jax.nn.relu(x @ net.w)\n    return x\n"),
        # a branch no traced caller reaches: every traced call passes `size`
        Valid("import jax\n\ndef _unique(x, size=None):\n    if size is None:\n        if x.sum() > 0:\n            return x\n    return x[:size]\n\n@jax.jit\ndef f(x):\n    return _unique(x * 2, size=x.shape[0])\n"),
        # static_argnums counts from the first parameter jit sees (after partial)
        Valid("import functools\nimport jax\n\ndef f(scale, x, n):\n    if n > 2:\n        return x * scale\n    return x\n\ng = jax.jit(functools.partial(f, 2.0), static_argnums=1)\n"),
        # lax.dtype / lax.axis_size / private helpers return Python values
        Valid("import jax\nfrom jax import lax\n\n@jax.jit\ndef f(k, c):\n    if not lax.dtype(k) == lax.dtype(c):\n        raise TypeError('dtype')\n    return k + c\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\n\n@jax.jit\ndef f(x):\n    if x < 3:\n        return 3. * x ** 2\n    else:\n        return -4 * x\n",
            expected=[(5, 8)],
            message_contains="lax.cond",
        ),
        Invalid(
            "from jax import jit\n\n@jit\ndef f(x):\n    while x < 10:\n        x = x + 1\n    return x\n",
            expected=[(5, 11)],
            message_contains="lax.while_loop",
        ),
        Invalid(
            "import jax\n\ndef divide(x, y):\n    return x / y if y >= 1. else 0.\n\nfast = jax.jit(divide)\n",
            expected=[(4, 21)],
            message_contains="static_argnums=1",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\nfrom jax import lax\n\ndef body(i, x):\n    y = jnp.sin(x)\n    if y.sum() > 0 and i > 2:\n        return y\n    return x\n\nout = lax.fori_loop(0, 10, body, jnp.ones(3))\n",
            expected=[(7, 8)],
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\n@jax.vmap\ndef f(x: jax.Array):\n    assert x > 0\n    ok = not x\n    return bool(x) or ok\n",
            expected=[(6, 12), (7, 10), (8, 12)],
        ),
        Invalid(
            "import jax\n\n@jax.jit\ndef masked_mean(x, mask):\n    if mask is not None and mask.any():\n        return (x * mask).sum() / mask.sum()\n    return x.mean()\n",
            expected=[(5, 29)],
        ),
        # flax module __call__ runs under jit with array arguments (model.apply)
        Invalid(
            "import flax.linen as nn\n\nclass Block(nn.Module):\n    @nn.compact\n    def __call__(self, x, train: bool):\n        if x.mean() > 0:\n            x = nn.relu(x)\n        return x\n",
            expected=[(6, 12)],
        ),
        # a defaulted flag that callers pass is traced unless declared static
        Invalid(
            "import jax\n\n@jax.jit\ndef forward(params, x, training=False):\n    if training:\n        x = x * 0.5\n    return x @ params\n\ny = forward(1.0, 2.0, True)\n",
            expected=[(5, 8)],
        ),
        # ...but a helper that some traced caller gives None does run the branch
        Invalid(
            "import jax\n\ndef _unique(x, size=None):\n    if size is None:\n        if x.sum() > 0:\n            return x\n    return x[:size]\n\n@jax.jit\ndef f(x):\n    return _unique(x * 2)\n",
            expected=[(5, 12)],
        ),
        Invalid(
            "import jax\n\ndef helper(v):\n    if v > 0:\n        return v\n    return -v\n\n@jax.jit\ndef f(x):\n    return helper(x * 2)\n",
            expected=[(4, 8)],
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    return [v for v in x * 2 if v > 0]\n",
            expected=[(6, 33)],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._covered: set[int] = set()

    def _cover(self, node: cst.CSTNode) -> None:
        """Mark the boolean operators at the top of a reported test as reported."""
        stack = [node]
        while stack:
            n = stack.pop()
            self._covered.add(id(n))
            if isinstance(n, cst.BooleanOperation):
                stack.extend((n.left, n.right))
            elif isinstance(n, cst.UnaryOperation) and isinstance(n.operator, cst.Not):
                stack.append(n.expression)

    def _array_tracer(self, expr: cst.BaseExpression):
        """The Value of ``expr`` if it is a traced *array* (not a pytree of
        unknown kind, whose truthiness is a Python container's)."""
        if self.ctx.is_traced(expr):
            v = self.ctx.value(expr)
            if v.kind == V.ARRAY:
                return v
        return None

    def _bool_offender(self, test: cst.BaseExpression):
        """(node, value) of the part of a condition that Python converts to bool
        while it is a traced array, or None."""
        if isinstance(test, cst.BooleanOperation):
            found = self._bool_offender(test.left)
            if found is not None:
                return found
            if _is_presence_check(test.left):
                # `x is not None and x.any()`: the right side runs whenever the
                # guard passes; after a plain flag it may never run (unsure)
                return self._bool_offender(test.right)
            return None
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self._bool_offender(test.expression)
        v = self._array_tracer(test)
        return (test, v) if v is not None else None

    def _test(self, owner: str, test: cst.BaseExpression, alternative: str) -> None:
        ctx = self.ctx
        found = self._bool_offender(test)
        self._cover(test)
        if found is None:
            return
        node, v = found
        self.report(
            node,
            f"Python `{owner}` on a traced value: {ctx.describe_origin(v)}; this raises "
            f"TracerBoolConversionError. Use {alternative}{ctx.static_hint(v)}",
        )

    def visit_If(self, node: cst.If) -> None:
        self._test("if", node.test, "`jax.lax.cond` or `jnp.where`")

    def visit_While(self, node: cst.While) -> None:
        self._test("while", node.test, "`jax.lax.while_loop` (or `lax.fori_loop`)")

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self._test("... if ... else ...", node.test, "`jnp.where(cond, a, b)` or `jax.lax.cond`")

    def visit_Assert(self, node: cst.Assert) -> None:
        self._test(
            "assert",
            node.test,
            "`jax.experimental.checkify.check`, or assert on shapes/dtypes only",
        )

    def visit_CompIf(self, node: cst.CompIf) -> None:
        self._test("if (in a comprehension)", node.test, "`jnp.where` or a boolean mask with a fixed size")

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        if id(node) in self._covered:
            return
        ctx = self.ctx
        v = self._array_tracer(node.left)
        if v is None:
            # `flag and (a or b)`: the right side is converted only for some
            # Python values of a guard we cannot see; stay quiet about it
            self._cover(node.right)
            return
        if v is not None:
            op = "and" if isinstance(node.operator, cst.And) else "or"
            alt = "`jnp.logical_and` / `&`" if op == "and" else "`jnp.logical_or` / `|`"
            self._cover(node)
            self.report(
                node.left,
                f"`{op}` converts its left operand to a Python bool, but it is traced: "
                f"{ctx.describe_origin(v)}; this raises TracerBoolConversionError. Use {alt}"
                f"{ctx.static_hint(v)}",
            )

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if not isinstance(node.operator, cst.Not) or id(node) in self._covered:
            return
        ctx = self.ctx
        v = self._array_tracer(node.expression)
        if v is not None:
            self.report(
                node,
                f"`not` converts a traced value to a Python bool: {ctx.describe_origin(v)}; "
                f"this raises TracerBoolConversionError. Use `jnp.logical_not` / `~`{ctx.static_hint(v)}",
            )

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not (isinstance(func, cst.Name) and func.value == "bool") or len(node.args) != 1:
            return
        if self.ctx.qualname(func) is not None:
            return
        arg = node.args[0].value
        v = self._array_tracer(arg)
        if v is not None:
            self.report(
                node,
                f"`bool()` of a traced value: {self.ctx.describe_origin(v)}; this raises "
                f"TracerBoolConversionError. Keep it as an array and use `jnp.where` / `jax.lax.cond`"
                f"{self.ctx.static_hint(v)}",
            )
