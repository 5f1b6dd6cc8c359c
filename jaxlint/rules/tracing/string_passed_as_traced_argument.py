"""JAX209 string-passed-as-traced-argument: A string passed to a non-static parameter of a jitted function."""

from __future__ import annotations

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model.scopes import bound_once


# equinox modules whose pytree leaves include a function (JAX 0.10.2, equinox 0.13:
# `jax.jit(f)(module)` raises TypeError; Linear, Conv, GRUCell, LayerNorm... do not)
_FUNCTION_LEAF_MODULES = frozenset({"equinox.nn.Lambda", "equinox.nn.MLP"})


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
        "`static_argnames`; and an `eqx.nn.Lambda`/`eqx.nn.MLP` (built there or bound once to a "
        "name) passed to plain `jax.jit` for a traced parameter: their leaves include a function."
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
        # equinox modules through eqx.filter_jit; an all-array module through jax.jit
        Valid(
            """
            import equinox as eqx
            import jax


            def loss_fn(model, x, y):
                return (model(x) - y) ** 2


            model = eqx.nn.Lambda(jax.nn.relu)
            lin = eqx.nn.Linear(2, 2, key=jax.random.PRNGKey(0))
            a = eqx.filter_jit(loss_fn)(model, 0.0, 0.0)
            b = jax.jit(loss_fn)(lin, jax.numpy.ones(2), 0.0)
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
        # an equinox module holding a function, given to plain jax.jit
        Invalid(
            """
            import equinox as eqx
            import jax


            def loss_fn(model, x, y):
                return (model(x) - y) ** 2


            model = eqx.nn.Lambda(jax.nn.relu)
            jax.jit(loss_fn)(model, 0, 0)
            f = jax.jit(loss_fn)
            f(eqx.nn.MLP(2, 2, 4, 1, key=jax.random.PRNGKey(0)), 0, 0)
            """,
            expected=[(10, 18), (12, 3)],
            messages=[
                "An `eqx.nn.Lambda` is passed to `jax.jit(loss_fn)` for the traced parameter `model`: its leaves include a function, which jit cannot make an abstract array, so the call raises TypeError: Error interpreting argument ... as an abstract array. Use `eqx.filter_jit` (it traces only the array leaves), or partition the module with `eqx.partition(model, eqx.is_array)`",
                "An `eqx.nn.MLP` is passed to `f` for the traced parameter `model`: its leaves include a function, which jit cannot make an abstract array, so the call raises TypeError: Error interpreting argument ... as an abstract array. Use `eqx.filter_jit` (it traces only the array leaves), or partition the module with `eqx.partition(model, eqx.is_array)`",
            ],
        ),
    ]

    def _function_leaves(self, call: cst.Call, arg: cst.BaseExpression, pname) -> bool:
        """An equinox module whose leaves include a function (`eqx.nn.Lambda(jax.nn.relu)`,
        `eqx.nn.MLP`'s activations) given to plain `jax.jit` as a traced argument."""
        ctx = self.ctx
        made = bound_once(ctx.index, ctx.unit, arg)
        if not isinstance(made, cst.Call):
            return False
        q = ctx.qualname(made.func)
        if q not in _FUNCTION_LEAF_MODULES:
            return False
        where = f"parameter `{pname}`" if pname else "`*args`"
        self.report(
            arg,
            f"An `{q.replace('equinox.', 'eqx.')}` is passed to `{ctx.code(call.func)}` for the traced "
            f"{where}: its leaves include a function, which jit cannot make an abstract array, so "
            f"the call raises TypeError: Error interpreting argument ... as an abstract array. Use "
            f"`eqx.filter_jit` (it traces only the array leaves), or partition the module with "
            f"`eqx.partition(model, eqx.is_array)`",
        )
        return True

    def visit_Call(self, node: cst.Call) -> None:
        info = self.ctx.jit_callee(node)
        if info is None:
            return
        filtered = info.site is not None and info.site.transform.filtered
        for a, position, pname in info.args(node):
            if info.is_static(position, pname):
                continue
            if not filtered and self._function_leaves(node, a.value, pname):
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
