"""JAX207-JAX209: static-argument errors of jitted functions (ValueError/TypeError at the call)."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.findings import Severity
from jaxlint.model import values as V
from jaxlint.model.walk import int_value, string_value
from jaxlint.engine.rule import Invalid, Rule, Valid

_SEED = (
    "The Sharp Bits § Control Flow, static_argnums (seed 000); FAQ § Abstract tracer value "
    "encountered (seed 001); tutorial § jit: static argnums, strings (seed 002); study notes "
    "§ static args (seed 003)"
)

_NP_ARRAY_MAKERS = frozenset(
    "numpy." + n
    for n in (
        "array", "asarray", "zeros", "ones", "empty", "full", "arange", "linspace", "eye",
        "identity", "zeros_like", "ones_like", "empty_like", "full_like", "concatenate",
        "stack", "frombuffer", "fromiter", "loadtxt", "load",
    )
)


class NonHashableStaticArg(Rule):
    code = "JAX207"
    name = "non-hashable-static-argument"
    summary = "A list, dict, set, array or tracer passed in a `static_argnums`/`static_argnames` position"
    severity = Severity.ERROR
    seed = _SEED
    what_it_does = (
        "At calls of functions jitted in the same file (`@jax.jit`, `@partial(jax.jit, "
        "static_argnums=...)`, `f2 = jax.jit(f, static_argnames=...)`, "
        "`jax.jit(f, ...)(...)`), flags arguments in static positions that cannot be hashed: "
        "list/dict/set displays and comprehensions, `list(...)`/`dict(...)`/`set(...)`, "
        "names bound to a list display, JAX arrays, NumPy arrays built by `np.array`/"
        "`np.zeros`..., and tracers (a static argument fed from traced code)."
    )
    why_bad = (
        "`jit` caches compiled code by the value of static arguments, so they must be "
        "hashable. The call raises:\n\n"
        "```\nValueError: Non-hashable static arguments are not supported. An error occurred "
        "while trying to hash an object of type <class 'list'>, [1, 2]. The error was:\n"
        "TypeError: unhashable type: 'list'\n```\n\n"
        "JAX and NumPy arrays raise the same (`jaxlib._jax.ArrayImpl`), and a tracer in a "
        "static position (e.g. under `vmap`) too."
    )
    example = (
        "```python\n@partial(jax.jit, static_argnums=(1,))\ndef pool(x, window):\n"
        "    return x.reshape(-1, *window).mean(axis=(1, 2))\n\npool(x, [2, 2])\n```"
    )
    use_instead = (
        "```python\npool(x, (2, 2))  # tuples of hashables are fine\n```\n\n"
        "For arrays, pass them as traced (non-static) arguments instead."
    )
    fix_safety = "No automatic fix."
    VALID = [
        Valid("from functools import partial\nimport jax\n\n@partial(jax.jit, static_argnums=(1,))\ndef pool(x, window):\n    return x.reshape(-1, *window).mean(axis=(1, 2))\n\ny = pool(x, (2, 2))\nz = pool(x, window=(3, 3))\n"),
        # strings and None are hashable static values
        Valid("import jax\n\ndef act(x, kind, scale=None):\n    return x if kind == 'relu' else -x\n\nact_jit = jax.jit(act, static_argnames=('kind', 'scale'))\nout = act_jit([1.0, 2.0], 'relu', scale=None)\n"),
        # a list in a traced (non-static) position is a pytree, which is fine
        Valid("import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef total(xs):\n    return sum(jnp.sum(x) for x in xs)\n\ntotal([jnp.ones(2), jnp.zeros(3)])\n"),
        # a different function with the same name in another scope
        Valid("from functools import partial\nimport jax\n\n@partial(jax.jit, static_argnums=1)\ndef f(x, n):\n    return x * n\n\ndef g(x):\n    def f(a, b):\n        return a\n    return f(x, [1, 2])\n"),
    ]
    INVALID = [
        Invalid(
            "from functools import partial\nimport jax\n\n@partial(jax.jit, static_argnums=(1,))\ndef pool(x, window):\n    return x.reshape(-1, *window).mean(axis=(1, 2))\n\ny = pool(x, [2, 2])\n",
            expected=[(8, 13)],
            message_contains="Non-hashable",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\nimport numpy as np\n\ndef scale(x, table, opts):\n    return x * opts['k']\n\nscale_jit = jax.jit(scale, static_argnames=('table', 'opts'))\nw = jnp.ones(3)\nscale_jit(w, table=np.arange(3), opts={'k': 2})\nscale_jit(w, w, {'k'})\n",
            expected=[(10, 20), (10, 39), (11, 14), (11, 17)],
        ),
        Invalid(
            "import jax\n\n@jax.jit\ndef outer(x, n):\n    return inner(x, n)\n\n@jax.jit(static_argnames='n')\ndef inner(x, n):\n    return x * n\n",
            expected=[(5, 21)],
            message_contains="tracer",
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        info = self.ctx.jit_callee(node)
        if info is None:
            return
        for a, position, pname in info.args(node):
            if not info.is_static(position, pname):
                continue
            what = self._unhashable(a.value)
            if what is None:
                continue
            where = f"parameter `{pname}`" if pname else "a static position"
            fix_hint = (
                "pass a tuple"
                if what in ("a list", "a set")
                else "pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)"
            )
            self.report(
                a.value,
                f"{what[0].upper() + what[1:]} is passed to `{self.ctx.code(node.func)}` in a static "
                f"position ({where}; {info.label()}): static arguments must be hashable, so the "
                f"call raises ValueError: Non-hashable static arguments are not supported. "
                f"Instead, {fix_hint}",
            )

    def _unhashable(self, e: cst.BaseExpression) -> Optional[str]:
        ctx = self.ctx
        if isinstance(e, (cst.List, cst.ListComp)):
            return "a list"
        if isinstance(e, (cst.Dict, cst.DictComp)):
            return "a dict"
        if isinstance(e, (cst.Set, cst.SetComp)):
            return "a set"
        if ctx.is_traced(e):
            return "a tracer"
        if isinstance(e, cst.Call):
            b = ctx.builtin_name(e.func)
            if b in ("list", "dict", "set", "bytearray"):
                return f"a {b}"
            q = ctx.qualname(e.func)
            if q is not None:
                if q in _NP_ARRAY_MAKERS:
                    return "a NumPy array"
                if q.startswith("jax.numpy.") and ctx.value(e).kind == V.ARRAY:
                    return "a JAX array"
            return None
        if isinstance(e, cst.Name):
            v = ctx.value(e)
            if v.kind == V.LIST and v.elements is not None:
                return "a list"
            if v.kind == V.ARRAY and v.local_array:
                return "a JAX array"
        return None


class StaticArgnumsOutOfSignature(Rule):
    code = "JAX208"
    name = "static-argnums-not-in-signature"
    summary = "`static_argnums` index or `static_argnames` name that the jitted function does not have"
    severity = Severity.ERROR
    seed = _SEED
    what_it_does = (
        "At `jax.jit(f, static_argnums=..., static_argnames=...)`, `@partial(jax.jit, ...)` and "
        "`@jax.jit(...)` where `f` is a function or lambda of this file, flags literal "
        "`static_argnums` indices outside `f`'s positional parameters (unless `f` takes "
        "`*args`) and `static_argnames` that name no parameter of `f` (unless it takes "
        "`**kwargs`) or name a positional-only one."
    )
    why_bad = (
        "JAX checks the signature when `jit` is applied and raises:\n\n"
        "```\nValueError: Jitted function has static_argnums=(3,), but only accepts 1 "
        "positional arguments.\nValueError: Jitted function has invalid argnames {'n'} in "
        "static_argnames. Function does not take these args.\n```\n\n"
        "It usually means the signature changed and the static declaration was not updated, "
        "or the index was counted from 1."
    )
    example = (
        "```python\n@partial(jax.jit, static_argnums=(2,))\ndef resize(x, size):\n"
        "    return jax.image.resize(x, size, 'linear')\n```"
    )
    use_instead = (
        "```python\n@partial(jax.jit, static_argnums=(1,))\ndef resize(x, size):\n"
        "    return jax.image.resize(x, size, 'linear')\n```"
    )
    fix_safety = "No automatic fix: the intended parameter is not known."
    VALID = [
        Valid("from functools import partial\nimport jax\n\n@partial(jax.jit, static_argnums=(1,), static_argnames=('mode',))\ndef resize(x, size, mode='linear'):\n    return jax.image.resize(x, size, mode)\n\nneg = jax.jit(lambda x, n: x * n, static_argnums=-1)\n"),
        # *args / **kwargs accept any index or name
        Valid("import jax\n\ndef apply(fn, *args, **kwargs):\n    return fn(*args, **kwargs)\n\napply_jit = jax.jit(apply, static_argnums=(0, 3), static_argnames=('axis',))\n"),
        # another decorator below jit changes the signature: not checked
        Valid("from functools import partial, wraps\nimport jax\n\ndef logged(fn):\n    @wraps(fn)\n    def inner(*a):\n        return fn(*a)\n    return inner\n\n@partial(jax.jit, static_argnums=(2,))\n@logged\ndef f(x):\n    return x\n"),
    ]
    INVALID = [
        Invalid(
            "from functools import partial\nimport jax\n\n@partial(jax.jit, static_argnums=(2,))\ndef resize(x, size):\n    return jax.image.resize(x, size, 'linear')\n",
            expected=[(4, 35)],
            message_contains="only accepts 2 positional",
        ),
        Invalid(
            "import jax\n\ndef f(x, /, axis, *, keepdims=False):\n    return x.sum(axis, keepdims=keepdims)\n\ng = jax.jit(f, static_argnames=('axes', 'x'))\nh = jax.jit(f, static_argnums=-3)\n",
            expected=[(6, 33), (6, 41), (7, 31)],
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
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


class StringToTracedArg(Rule):
    code = "JAX209"
    name = "string-passed-as-traced-argument"
    summary = "A string passed to a non-static parameter of a jitted function"
    severity = Severity.ERROR
    seed = _SEED
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
    example = (
        "```python\n@jax.jit\ndef activate(x, kind):\n    return jnp.tanh(x) if kind == 'tanh' else "
        "jax.nn.relu(x)\n\nactivate(x, 'tanh')\n```"
    )
    use_instead = (
        "```python\n@partial(jax.jit, static_argnames='kind')\ndef activate(x, kind):\n    ...\n```"
    )
    fix_safety = "No automatic fix: marking a parameter static changes when the function recompiles."
    VALID = [
        Valid("from functools import partial\nimport jax\nimport jax.numpy as jnp\n\n@partial(jax.jit, static_argnames='kind')\ndef activate(x, kind):\n    return jnp.tanh(x) if kind == 'tanh' else jax.nn.relu(x)\n\nactivate(jnp.ones(3), 'tanh')\nactivate(jnp.ones(3), kind='relu')\n"),
        Valid("import jax\n\ndef f(x, mode):\n    return x\n\ng = jax.jit(f, static_argnums=1)\ng(1.0, 'fast')\ng(1.0, mode='slow')\n"),
        # a plain (not jitted) function with the same name in another scope
        Valid("import jax\n\n@jax.jit\ndef run(x, y):\n    return x + y\n\ndef main():\n    def run(x, y):\n        return x + y\n    return run('a', 'b')\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef activate(x, kind):\n    return jnp.tanh(x) if kind == 'tanh' else jax.nn.relu(x)\n\nactivate(jnp.ones(3), 'tanh')\n",
            expected=[(8, 23)],
            message_contains="static_argnames='kind'",
        ),
        Invalid(
            "import jax\n\ndef f(x, mode, name):\n    return x\n\ng = jax.jit(f, static_argnames='mode')\n\ndef main(x):\n    return g(x, 'fast', name=f'run-{x}') + jax.jit(f)(x, mode='slow', name='a')\n",
            expected=[(9, 30), (9, 63), (9, 76)],
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
