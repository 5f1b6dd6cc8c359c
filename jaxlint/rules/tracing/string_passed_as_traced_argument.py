"""JAX209 string-passed-as-traced-argument: A string passed to a non-static parameter of a jitted function."""

from __future__ import annotations

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity


class StringToTracedArg(Rule):
    code = "JAX209"
    name = "string-passed-as-traced-argument"
    runtime_check = '`jax.jit(f).trace(...)`: confirmed when the string argument raises `TypeError` (not a valid JAX type).'
    summary = "A string passed to a non-static parameter of a jitted function"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Control Flow, static_argnums (seed 000); FAQ § Abstract tracer value encountered (seed 001); tutorial § jit: static argnums, strings (seed 002); study notes § static args (seed 003)"
    what_it_does = (
        "At calls of functions jitted in the same file, flags string literals (and f-strings) "
        "passed to parameters that are not declared static with `static_argnums`/"
        "`static_argnames`."
    )
    why_bad = (
        "`jit` turns every non-static argument into an abstract array, and a string is not "
        "an array type. The call raises:\n\n"
        "```\nTypeError: Error interpreting argument to <function f at 0x...> as an abstract "
        "array. The problematic value is of type <class 'str'> and was passed to the function "
        "at path mode.\n```\n\n(Older JAX said `Argument 'add' of type <class 'str'> is not a "
        "valid JAX type`.)"
    )
    use_instead = (
        "```python\n@partial(jax.jit, static_argnames='kind')\ndef activate(x, kind):\n    ...\n```"
    )
    fix_safety = "No automatic fix: marking a parameter static changes when the function recompiles."
    VALID = [
        Valid(
            """
            from functools import partial
            import jax
            import jax.numpy as jnp

            @partial(jax.jit, static_argnames='kind')
            def activate(x, kind):
                return jnp.tanh(x) if kind == 'tanh' else jax.nn.relu(x)

            activate(jnp.ones(3), 'tanh')
            activate(jnp.ones(3), kind='relu')
            """
        ),
        Valid(
            """
            import jax

            def f(x, mode):
                return x

            g = jax.jit(f, static_argnums=1)
            g(1.0, 'fast')
            g(1.0, mode='slow')
            """
        ),
        # a plain (not jitted) function with the same name in another scope
        Valid(
            """
            import jax

            @jax.jit
            def run(x, y):
                return x + y

            def main():
                def run(x, y):
                    return x + y
                return run('a', 'b')
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def activate(x, kind):
                return jnp.tanh(x) if kind == 'tanh' else jax.nn.relu(x)

            activate(jnp.ones(3), 'tanh')
            """,
            expected=[(8, 23)],
            messages=[
                "A string is passed to `activate` for the traced parameter `kind`: jit cannot make a string an abstract array, so the call raises TypeError: Error interpreting argument ... as an abstract array. Declare it static with static_argnames='kind' (or static_argnums=1)",
            ],
        ),
        Invalid(
            """
            import jax

            def f(x, mode, name):
                return x

            g = jax.jit(f, static_argnames='mode')

            def main(x):
                return g(x, 'fast', name=f'run-{x}') + jax.jit(f)(x, mode='slow', name='a')
            """,
            expected=[(9, 30), (9, 63), (9, 76)],
            messages=[
                "A string is passed to `g` for the traced parameter `name`: jit cannot make a string an abstract array, so the call raises TypeError: Error interpreting argument ... as an abstract array. Declare it static with static_argnames='name' (or static_argnums=2)",
                "A string is passed to `jax.jit(f)` for the traced parameter `mode`: jit cannot make a string an abstract array, so the call raises TypeError: Error interpreting argument ... as an abstract array. Declare it static with static_argnames='mode' (or static_argnums=1)",
                "A string is passed to `jax.jit(f)` for the traced parameter `name`: jit cannot make a string an abstract array, so the call raises TypeError: Error interpreting argument ... as an abstract array. Declare it static with static_argnames='name' (or static_argnums=2)",
            ],
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        info = self.ctx.jit_callee(node)
        if info is None:
            return
        for a, position, pname in info.args(node):
            if info.is_static(position, pname):
                continue
            if not isinstance(a.value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
                continue
            if isinstance(a.value, cst.SimpleString) and a.value.prefix.lower().startswith("b"):
                continue  # bytes: the same error, but keep the message exact
            if pname is not None:
                p = info.unit.param(pname)
                hint = (
                    f"static_argnames='{pname}'"
                    if p is None or p.index is None
                    else f"static_argnames='{pname}' (or static_argnums={p.index})"
                )
                where = f"parameter `{pname}`"
            else:
                hint = "static_argnums"
                where = "`*args`"
            self.report(
                a.value,
                f"A string is passed to `{self.ctx.code(node.func)}` for the traced {where}: jit "
                f"cannot make a string an abstract array, so the call raises TypeError: Error "
                f"interpreting argument ... as an abstract array. Declare it static with {hint}",
            )
