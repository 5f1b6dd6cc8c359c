"""JAX208 static-argnums-not-in-signature: `static_argnums` index or `static_argnames` name that the jitted function does not have."""

from __future__ import annotations

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import apis
from jaxlint.model.walk import int_value, keyword_arg, string_value


class StaticArgnumsOutOfSignature(Rule):
    code = "JAX208"
    name = "static-argnums-not-in-signature"
    runtime_check = '`jax.jit(f).trace(...)`: confirmed when JAX rejects the `static_argnums`/`static_argnames` declaration.'
    summary = "`static_argnums` index or `static_argnames` name that the jitted function does not have"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Control Flow, static_argnums (seed 000); FAQ § Abstract tracer value encountered (seed 001); tutorial § jit: static argnums, strings (seed 002); study notes § static args (seed 003)"
    what_it_does = (
        "At `jax.jit(f, static_argnums=..., static_argnames=...)`, `@partial(jax.jit, ...)` and "
        "`@jax.jit(...)` where `f` is a function or lambda of this file, flags literal "
        "`static_argnums` indices outside `f`'s positional parameters (unless `f` takes "
        "`*args`) and `static_argnames` that name no parameter of `f` (unless it takes "
        "`**kwargs`) or name a positional-only one. Also `jax.jit(jnp.nonzero, static_argnums=1)` "
        "and the other `jax.numpy` functions whose `size=` is keyword-only (`unique`, "
        "`argwhere`, `where`, `bincount`...): indices beyond their positional parameters."
    )
    why_bad = (
        "JAX checks the signature when `jit` is applied and raises:\n\n"
        "```\nValueError: Jitted function has static_argnums=(3,), but only accepts 1 "
        "positional arguments.\nValueError: Jitted function has invalid argnames {'n'} in "
        "static_argnames. Function does not take these args.\n```\n\n"
        "It usually means the signature changed and the static declaration was not updated, "
        "or the index was counted from 1."
    )
    use_instead = (
        "```python\n@partial(jax.jit, static_argnums=(1,))\ndef resize(x, size):\n"
        "    return jax.image.resize(x, size, 'linear')\n```"
    )
    fix_safety = "No automatic fix: the intended parameter is not known."
    VALID = [
        Valid(
            """
            from functools import partial
            import jax

            @partial(jax.jit, static_argnums=(1,), static_argnames=('mode',))
            def resize(x, size, mode='linear'):
                return jax.image.resize(x, size, mode)

            neg = jax.jit(lambda x, n: x * n, static_argnums=-1)
            """
        ),
        # *args / **kwargs accept any index or name
        Valid(
            """
            import jax

            def apply(fn, *args, **kwargs):
                return fn(*args, **kwargs)

            apply_jit = jax.jit(apply, static_argnums=(0, 3), static_argnames=('axis',))
            """
        ),
        # another decorator below jit changes the signature (no `functools.wraps`: jit
        # sees `inner(*a)`): not checked
        Valid(
            """
            from functools import partial
            import jax

            def logged(fn):
                def inner(*a):
                    return fn(*a)
                return inner

            @partial(jax.jit, static_argnums=(2,))
            @logged
            def f(x):
                return x
            """
        ),
        # the keyword-only size made static by name; an index inside unique's signature
        Valid(
            """
            import jax
            import jax.numpy as jnp

            nz = jax.jit(jnp.nonzero, static_argnames="size")
            uq = jax.jit(jnp.unique, static_argnums=(1, 2, 3, 4))
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            from functools import partial
            import jax

            @partial(jax.jit, static_argnums=(2,))
            def resize(x, size):
                return jax.image.resize(x, size, 'linear')
            """,
            expected=[(4, 35)],
            messages=[
                "static_argnums index 2 is outside the signature of `resize`: JAX raises ValueError: Jitted function has static_argnums=(2,), but only accepts 2 positional arguments. Indices count from 0",
            ],
        ),
        # decorators under jit that keep the signature (`functools.wraps`, `jax.grad`):
        # `inspect.signature` follows `__wrapped__`, and jit checks against it
        Invalid(
            """
            from functools import partial, wraps
            import jax

            def logged(fn):
                @wraps(fn)
                def inner(*a):
                    return fn(*a)
                return inner

            @partial(jax.jit, static_argnums=(2,))
            @logged
            def f(x):
                return x

            @partial(jax.jit, static_argnames="mode")
            @jax.grad
            def loss(w, x):
                return (w * x).sum()
            """,
            expected=[(10, 35), (15, 35)],
            messages=[
                "static_argnums index 2 is outside the signature of `f`: JAX raises ValueError: Jitted function has static_argnums=(2,), but only accepts 1 positional arguments. Indices count from 0",
                "static_argnames names `mode`, which is not a parameter of `loss`: JAX raises ValueError: Jitted function has invalid argnames {'mode'} in static_argnames. Function does not take these args",
            ],
        ),
        Invalid(
            """
            import jax

            def f(x, /, axis, *, keepdims=False):
                return x.sum(axis, keepdims=keepdims)

            g = jax.jit(f, static_argnames=('axes', 'x'))
            h = jax.jit(f, static_argnums=-3)
            """,
            expected=[(6, 33), (6, 41), (7, 31)],
            messages=[
                "static_argnames names `axes`, which is not a parameter of `f`: JAX raises ValueError: Jitted function has invalid argnames {'axes'} in static_argnames. Function does not take these args",
                "static_argnames names `x`, a positional-only parameter of `f`: JAX raises ValueError (invalid argnames ... These are positional-only). Use static_argnums=0",
                "static_argnums index -3 is outside the signature of `f`: JAX raises ValueError: Jitted function has static_argnums=(-3,), but only accepts 2 positional arguments. Indices count from 0",
            ],
        ),
        # jax.numpy's `size=` is keyword-only: no positional index reaches it
        Invalid(
            """
            import jax.numpy as jnp
            from jax import jit

            x = jnp.array([0, 1, 1, 0, 0, 1])
            print(jit(jnp.nonzero, static_argnums=1)(x, 3))
            """,
            expected=[(5, 39)],
            messages=[
                "static_argnums index 1 is outside the signature of `jnp.nonzero`, which takes 1 positional argument (`a`; `size=` is keyword-only): JAX raises ValueError: Jitted function has static_argnums=(1,), but only accepts 1 positional arguments. Use `static_argnames='size'` and pass `size=` by keyword (or `functools.partial(jnp.nonzero, size=...)`)",
            ],
        ),
    ]

    def _jnp_function(self, node: cst.Call) -> None:
        """`jax.jit(jnp.nonzero, static_argnums=1)`: the jax.numpy function's `size` is
        keyword-only (apis.JNP_POSITIONAL)."""
        ctx = self.ctx
        if ctx.qualname(node.func) not in ("jax.jit", "jax.experimental.pjit.pjit") or not node.args:
            return
        fn = node.args[0].value if node.args[0].keyword is None else None
        fq = ctx.qualname(fn) if fn is not None else None
        params = apis.JNP_POSITIONAL.get(fq or "")
        nums = keyword_arg(node, "static_argnums")
        if params is None or nums is None:
            return
        n = len(params)
        short = fq.replace("jax.numpy.", "jnp.")  # type: ignore[union-attr]
        for el in self._elements(nums.value):
            k = int_value(el)
            if k is not None and not (-n <= k < n):
                self.report(
                    el,
                    f"static_argnums index {k} is outside the signature of `{short}`, which takes "
                    f"{n} positional argument{'s' if n > 1 else ''} ({', '.join(f'`{p}`' for p in params)}; "
                    f"`size=` is keyword-only): JAX raises ValueError: Jitted function has "
                    f"static_argnums=({k},), but only accepts {n} positional arguments. Use "
                    f"`static_argnames='size'` and pass `size=` by keyword (or `functools.partial({ctx.code(fn).strip()}, size=...)`)",
                )

    def visit_Call(self, node: cst.Call) -> None:
        self._jnp_function(node)
        info = self.ctx.jit_declaration(node)
        if info is None or not info.checked:
            return
        n = len(info.positional)
        if info.static_nums is not None and not info.has_vararg and info.static_nums_node is not None:
            els = self._elements(info.static_nums_node)
            for el in els:
                k = int_value(el)
                if k is not None and not (-n <= k < n):
                    self.report(
                        el,
                        f"static_argnums index {k} is outside the signature of "
                        f"`{info.unit.name}`: JAX raises ValueError: Jitted function has "
                        f"static_argnums=({k},), but only accepts {n} positional arguments. "
                        f"Indices count from 0",
                    )
        if info.static_names is not None and info.static_names_node is not None and not info.has_kwarg:
            for el in self._elements(info.static_names_node):
                s = string_value(el)
                if s is None:
                    continue
                p = info.unit.param(s)
                if p is None or p.kind in ("vararg", "kwarg"):
                    self.report(
                        el,
                        f"static_argnames names `{s}`, which is not a parameter of "
                        f"`{info.unit.name}`: JAX raises ValueError: Jitted function has invalid "
                        f"argnames {{'{s}'}} in static_argnames. Function does not take these args",
                    )
                elif p.kind == "posonly":
                    self.report(
                        el,
                        f"static_argnames names `{s}`, a positional-only parameter of "
                        f"`{info.unit.name}`: JAX raises ValueError (invalid argnames ... These "
                        f"are positional-only). Use static_argnums={p.index}",
                    )

    @staticmethod
    def _elements(node: cst.BaseExpression) -> list[cst.BaseExpression]:
        if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
            return [el.value for el in node.elements]
        return [node]
