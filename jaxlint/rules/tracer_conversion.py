"""JAX202: a tracer pulled into a Python number, range, index or shape."""

from __future__ import annotations

import libcst as cst

from jaxlint.findings import Severity
from jaxlint.model import apis
from jaxlint.model import values as V
from jaxlint.model.walk import arg_at
from jaxlint.engine.rule import Invalid, Rule, Valid


class TracerConversion(Rule):
    code = "JAX202"
    name = "tracer-to-python-conversion"
    summary = "`int()`/`float()`/`.item()`/`range()`/indexing/shapes need a concrete value, but get a tracer"
    severity = Severity.ERROR
    seed = (
        "The Sharp Bits § Control Flow and § functions with argument-value dependent shapes "
        "(seed 000); FAQ § Abstract tracer value (seeds 001, 004); study notes § static shapes (seed 003)"
    )
    what_it_does = (
        "Inside traced code, flags conversions of a traced value to a Python value: "
        "`int(x)`, `float(x)`, `complex(x)`, `x.item()`, `x.tolist()`, `range(x)`, indexing a "
        "Python list or tuple with a tracer, and shapes built from tracers "
        "(`jnp.zeros((n,))`, `jnp.ones(n)`, `jnp.arange(n)`, `x.reshape(n, -1)`, "
        "`jax.random.normal(key, (n,))`...). Sizes computed from `.shape`, `len()` or static "
        "arguments are fine and are not flagged."
    )
    why_bad = (
        "A tracer has a shape and dtype but no value. JAX raises when Python needs one:\n\n"
        "* `int()`, `float()`, `.item()`, `.tolist()`: `jax.errors.ConcretizationTypeError: "
        "Abstract tracer value encountered where concrete value is expected`\n"
        "* `range(n)`, `lst[i]`: `jax.errors.TracerIntegerConversionError: The __index__() "
        "method was called on traced array`\n"
        "* shapes: `TypeError: Shapes must be 1D sequences of concrete values of integer type`\n\n"
        "Array shapes must be known when the function is compiled."
    )
    example = (
        "```python\n@jax.jit\ndef f(x, n):\n    y = jnp.ones((n,))\n    for i in range(n):\n"
        "        y = y + x[i]\n    return float(y.sum())\n```"
    )
    use_instead = (
        "```python\n@partial(jax.jit, static_argnums=(1,))\ndef f(x, n):\n    y = jnp.ones((n,))\n"
        "    y = lax.fori_loop(0, n, lambda i, y: y + x[i], y)\n    return y.sum()\n```\n\n"
        "Return arrays from jitted code and convert with `float()` outside it."
    )
    fix_safety = "No automatic fix: making an argument static changes when the function recompiles."
    VALID = [
        Valid("import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef g(x):\n    y = 0.\n    for i in range(x.shape[0]):\n        y = y + x[i]\n    n = int(x.shape[0]) * len(x)\n    return jnp.zeros((n,)) + y\n"),
        Valid("import jax\nimport jax.numpy as jnp\nimport numpy as np\n\n@jax.jit\ndef f(x):\n    return jnp.reshape(x, np.prod(x.shape))\n"),
        Valid("from functools import partial\nimport jax\nimport jax.numpy as jnp\n\n@partial(jax.jit, static_argnums=(0,))\ndef example_fun(length, val):\n    return jnp.ones((length,)) * val\n"),
        Valid("import jax.numpy as jnp\n\ndef summary(x):\n    return float(jnp.mean(x)), x.sum().item()\n"),
        Valid("import jax\n\n@jax.grad\ndef f(x):\n    return x * int(x)\n"),
        Valid("import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef head(x):\n    n = x.shape[0] // 2\n    return x[:n], x[n:], x[::2]\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\ndef example_fun(length, val):\n    return jnp.ones((length,)) * val\n\nbad_example_jit = jax.jit(example_fun)\n",
            expected=[(5, 22)],
            message_contains="static",
        ),
        Invalid(
            "import jax\n\ndef f(x, n):\n    y = 0.\n    for i in range(n):\n        y = y + x[i]\n    return y\n\nf = jax.jit(f)\n",
            expected=[(5, 14)],
            message_contains="TracerIntegerConversionError",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n    total = jnp.sum(x)\n    return int(total) + x.max().item() + float(x[0])\n",
            expected=[(7, 12), (7, 25), (7, 42)],
            message_contains="ConcretizationTypeError",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef window(x, i):\n    return jnp.sort(x)[i:i + 3]\n",
            expected=[(6, 24)],
            message_contains="dynamic_slice",
        ),
        Invalid(
            "import jax\n\n@jax.jit\ndef pick(i, table):\n    options = [1.0, 2.0, 3.0]\n    return options[i] * table\n",
            expected=[(6, 12)],
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x, k):\n    return x.reshape(k, -1) + jax.random.normal(jax.random.key(0), (k,))\n",
            expected=[(6, 22), (6, 69)],
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        func = node.func
        if isinstance(func, cst.Name):
            what = apis.CONCRETIZING_BUILTINS.get(func.value)
            if what is not None and ctx.qualname(func) is None and ctx.local(func.value) is None:
                for a in node.args:
                    if a.keyword is None and ctx.is_traced(a.value):
                        v = ctx.value(a.value)
                        self._report(node, f"`{func.value}()`", what, v)
                        return
            return
        if isinstance(func, cst.Attribute):
            m = func.attr.value
            if m in ("item", "tolist") and ctx.is_traced(func.value):
                self._report(node, f"`.{m}()`", "ConcretizationTypeError", ctx.value(func.value))
                return
            if m in apis.SHAPE_METHODS:
                base = ctx.value(func.value)
                if base.kind == V.ARRAY or base.traced:
                    for a in node.args:
                        if a.keyword is None:
                            self._check_shape(a.value, node, f"`.{m}()`")
                return
        q = ctx.qualname(func)
        if q is None:
            return
        spec = apis.SHAPE_ARGS.get(q)
        if spec is not None:
            shape = arg_at(node, spec[0], spec[1])
            if shape is not None:
                self._check_shape(shape, node, f"`{q.replace('jax.numpy.', 'jnp.')}`")

    def _check_shape(self, shape: cst.BaseExpression, call: cst.Call, where: str) -> None:
        ctx = self.ctx
        parts = [el.value for el in shape.elements] if isinstance(shape, (cst.Tuple, cst.List)) else [shape]
        for p in parts:
            if ctx.is_traced(p):
                v = ctx.value(p)
                self.report(
                    p,
                    f"A shape or size passed to {where} is traced: {ctx.describe_origin(v)}; "
                    f"shapes must be concrete (TypeError: Shapes must be 1D sequences of concrete "
                    f"values). Derive it from `x.shape`, or pass it as a static argument"
                    f"{ctx.static_hint(v)}",
                )
                return

    def visit_Subscript(self, node: cst.Subscript) -> None:
        ctx = self.ctx
        base = ctx.value(node.value)
        if base.kind == V.ARRAY or base.traced:
            for el in node.slice:
                sl = el.slice
                if isinstance(sl, cst.Slice):
                    for part in (sl.lower, sl.upper, sl.step):
                        if part is not None and ctx.is_traced(part):
                            v = ctx.value(part)
                            self.report(
                                part,
                                f"A slice bound is traced: {ctx.describe_origin(v)}; slice sizes must be "
                                f"static (IndexError: Array slice indices must have static start/stop/step). "
                                f"Use `jax.lax.dynamic_slice(x, (start,), (size,))` with a static size"
                                f"{ctx.static_hint(v)}",
                            )
                            return
        if base.kind not in (V.LIST, V.TUPLE) or len(node.slice) != 1:
            return
        sl = node.slice[0].slice
        if isinstance(sl, cst.Index) and ctx.is_traced(sl.value):
            v = ctx.value(sl.value)
            self.report(
                node,
                f"Indexing a Python list/tuple with a traced value raises "
                f"TracerIntegerConversionError: {ctx.describe_origin(v)}. Make it an array "
                f"(`jnp.asarray(...)[i]`) or use `jax.lax.switch`{ctx.static_hint(v)}",
            )

    def _report(self, node, what: str, error: str, v) -> None:
        ctx = self.ctx
        if error == "TracerIntegerConversionError":
            alt = "use `jax.lax.fori_loop`/`lax.scan` for loops of traced length"
        else:
            cast = {"`int()`": "`x.astype(jnp.int32)`", "`float()`": "`x.astype(jnp.float32)`",
                    "`complex()`": "`x.astype(jnp.complex64)`"}.get(what)
            alt = (f"keep it as an array ({cast}), or return it and convert outside the traced function"
                   if cast else "keep it as an array, or return it and convert outside the traced function")
        self.report(
            node,
            f"{what} needs a concrete value, but its argument is traced: "
            f"{ctx.describe_origin(v)}; this raises {error}. Instead, {alt}{ctx.static_hint(v)}",
        )
