"""JAX207 non-hashable-static-argument: A list, dict, set, array or tracer passed in a `static_argnums`/`static_argnames` position."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import values as V
from jaxlint.model.hashing import UNHASHABLE, Hashing, class_hashing
from jaxlint.model.scopes import bound_once, scope_of, writes
from jaxlint.model.walk import walk_tree


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
    runtime_check = '`jax.jit(f).trace(...)`: confirmed when `ValueError: Non-hashable static arguments` is raised at the call.'
    summary = "A list, dict, set, array or tracer passed in a `static_argnums`/`static_argnames` position"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Control Flow, static_argnums (seed 000); FAQ § Abstract tracer value encountered (seed 001); tutorial § jit: static argnums, strings (seed 002); study notes § static args (seed 003)"
    what_it_does = (
        "At calls of functions jitted in the same file (`@jax.jit`, `@partial(jax.jit, "
        "static_argnums=...)`, `f2 = jax.jit(f, static_argnames=...)`, "
        "`jax.jit(f, ...)(...)`), flags arguments in static positions that cannot be hashed: "
        "list/dict/set displays and comprehensions, `list(...)`/`dict(...)`/`set(...)`, "
        "names bound to a list display, JAX arrays, NumPy arrays built by `np.array`/"
        "`np.zeros`..., and tracers (a static argument fed from traced code). A parameter of the "
        "calling function passed on unchanged is judged by that function's calls in the file: "
        "`def grid(f, limits): return _grid(f, limits)` with `grid(f, [-2, 2])` (or a module-level "
        "name bound only to a list/dict/set display) is reported at the jitted call.\n\n"
        "Instances of the file's dataclasses too: a plain `@dataclass` (eq=True, not frozen) has "
        "no hash at all, and a `frozen=True`/`unsafe_hash=True` one (or `@flax.struct.dataclass`) "
        "hashes its fields, so a field given an array, a list or another such instance makes it "
        "unhashable (fields declared `field(compare=False)`/`hash=False` do not count)."
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
    use_instead = (
        "```python\npool(x, (2, 2))  # tuples of hashables are fine\n```\n\n"
        "For arrays, pass them as traced (non-static) arguments instead."
    )
    fix_safety = "No automatic fix."
    VALID = [
        # the wrapper's callers pass hashable values
        Valid(
            """
            from functools import partial
            import jax
            import jax.numpy as jnp

            @partial(jax.jit, static_argnums=(0, 1, 2))
            def _grid(func, limits, num):
                return func(jnp.linspace(*limits, num=num))

            def grid(func, limits, num=11):
                return _grid(func, limits, num)

            grid(jnp.sin, (-2, 2))
            grid(jnp.cos, limits=(0, 1), num=5)
            """
        ),
        Valid(
            """
            from functools import partial
            import jax

            @partial(jax.jit, static_argnums=(1,))
            def pool(x, window):
                return x.reshape(-1, *window).mean(axis=(1, 2))

            y = pool(x, (2, 2))
            z = pool(x, window=(3, 3))
            """
        ),
        # strings and None are hashable static values
        Valid(
            """
            import jax

            def act(x, kind, scale=None):
                return x if kind == 'relu' else -x

            act_jit = jax.jit(act, static_argnames=('kind', 'scale'))
            out = act_jit([1.0, 2.0], 'relu', scale=None)
            """
        ),
        # a list in a traced (non-static) position is a pytree, which is fine
        Valid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def total(xs):
                return sum(jnp.sum(x) for x in xs)

            total([jnp.ones(2), jnp.zeros(3)])
            """
        ),
        # a different function with the same name in another scope
        Valid(
            """
            from functools import partial
            import jax

            @partial(jax.jit, static_argnums=1)
            def f(x, n):
                return x * n

            def g(x):
                def f(a, b):
                    return a
                return f(x, [1, 2])
            """
        ),
        # dataclasses that hash: frozen with hashable fields, an array in a field left out of
        # the hash, eq=False (identity)
        Valid(
            """
            import dataclasses
            from functools import partial
            from typing import Any

            import jax
            import numpy as np


            @dataclasses.dataclass(frozen=True)
            class Frozen:
                n: int
                table: Any = dataclasses.field(default=None, compare=False)


            @dataclasses.dataclass(eq=False)
            class Handle:
                data: Any


            @partial(jax.jit, static_argnums=1)
            def f(x, c):
                return x * c.n


            def run(x):
                return f(x, Frozen(2, np.zeros(3))), f(x, Handle(np.zeros(2)))
            """
        ),
    ]

    INVALID = [
        # a wrapper passes its parameter on to the static position; its caller passes a list/dict
        Invalid(
            """
            from functools import partial
            import jax
            import jax.numpy as jnp

            @partial(jax.jit, static_argnums=(0, 1, 2))
            def _grid(func, limits, num):
                return func(jnp.linspace(*limits, num=num))

            def grid(func, limits, num=11):
                return _grid(func, limits, num)

            @partial(jax.jit, static_argnames=("opts",))
            def _run(x, opts):
                return x * len(opts)

            def run(x, opts):
                return _run(x, opts=opts)

            LIMITS = [-2, 2]
            grid(jnp.sin, LIMITS)
            run(jnp.ones(3), {"a": 1})
            """,
            expected=[(10, 24), (17, 25)],
            messages=[
                "A list (from the call of `grid` that passes `LIMITS` for `limits`) is passed to `_grid` in a static position (parameter `limits`; static_argnums=(0, 1, 2)): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass a tuple",
                "A dict (from the call of `run` that passes `{\"a\": 1}` for `opts`) is passed to `_run` in a static position (parameter `opts`; static_argnames='opts'): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
            ],
        ),
        Invalid(
            """
            from functools import partial
            import jax

            @partial(jax.jit, static_argnums=(1,))
            def pool(x, window):
                return x.reshape(-1, *window).mean(axis=(1, 2))

            y = pool(x, [2, 2])
            """,
            expected=[(8, 13)],
            messages=[
                "A list is passed to `pool` in a static position (parameter `window`; static_argnums=1): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass a tuple",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np

            def scale(x, table, opts):
                return x * opts['k']

            scale_jit = jax.jit(scale, static_argnames=('table', 'opts'))
            w = jnp.ones(3)
            scale_jit(w, table=np.arange(3), opts={'k': 2})
            scale_jit(w, w, {'k'})
            """,
            expected=[(10, 20), (10, 39), (11, 14), (11, 17)],
            messages=[
                "A NumPy array is passed to `scale_jit` in a static position (parameter `table`; static_argnames=('table', 'opts')): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
                "A dict is passed to `scale_jit` in a static position (parameter `opts`; static_argnames=('table', 'opts')): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
                "A JAX array is passed to `scale_jit` in a static position (parameter `table`; static_argnames=('table', 'opts')): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
                "A set is passed to `scale_jit` in a static position (parameter `opts`; static_argnames=('table', 'opts')): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass a tuple",
            ],
        ),
        Invalid(
            """
            import jax

            @jax.jit
            def outer(x, n):
                return inner(x, n)

            @jax.jit(static_argnames='n')
            def inner(x, n):
                return x * n
            """,
            expected=[(5, 21)],
            messages=[
                "A tracer is passed to `inner` in a static position (parameter `n`; static_argnames='n'): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
            ],
        ),
        # dataclass instances: a plain @dataclass has no hash; an unsafe_hash=True one
        # hashes its array field
        Invalid(
            """
            import dataclasses
            from functools import partial
            from typing import Any

            import jax
            import numpy as np


            @dataclasses.dataclass
            class Opts:
                n: int


            @dataclasses.dataclass(unsafe_hash=True)
            class C:
                x: Any


            @partial(jax.jit, static_argnums=1)
            def f(x, c):
                return x * c.x


            def run(x):
                opts = Opts(3)
                return f(x, opts), f(x, C(np.zeros(2)))
            """,
            expected=[(26, 17), (26, 29)],
            messages=[
                "An instance of the dataclass `Opts` (`@dataclass` with eq=True and neither frozen=True nor unsafe_hash=True sets `__hash__` to None) is passed to `f` in a static position (parameter `c`; static_argnums=1): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
                "An instance of the dataclass `C` whose field `x` is a NumPy array (its hash hashes every field) is passed to `f` in a static position (parameter `c`; static_argnums=1): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
            ],
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        info = self.ctx.jit_callee(node, static_only=True)
        if info is None:
            return
        for a, position, pname in info.args(node):
            if not info.is_static(position, pname):
                continue
            what = self._unhashable(a.value)
            if what is None:
                continue
            where = f"parameter `{pname}`" if pname else (f"argument {position}" if position is not None else "a static position")
            fix_hint = (
                "pass a tuple"
                if what.startswith(("a list", "a set"))
                else "pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)"
            )
            self.report(
                a.value,
                f"{what[0].upper() + what[1:]} is passed to `{self.ctx.code(node.func)}` in a static "
                f"position ({where}; {info.label()}): static arguments must be hashable, so the "
                f"call raises ValueError: Non-hashable static arguments are not supported. "
                f"Instead, {fix_hint}",
            )

    def _unhashable(self, e: cst.BaseExpression, depth: int = 0) -> Optional[str]:
        ctx = self.ctx
        if isinstance(e, (cst.List, cst.ListComp)):
            return "a list"
        if isinstance(e, (cst.Dict, cst.DictComp)):
            return "a dict"
        if isinstance(e, (cst.Set, cst.SetComp)):
            return "a set"
        if ctx.is_traced(e):
            return "a tracer"
        if depth < 4:
            inst = self._dataclass_instance(e, depth)
            if inst is not None:
                return inst
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
            return self._helper_result(e)
        if isinstance(e, cst.Name):
            v = ctx.value(e)
            if v.kind == V.LIST and v.elements is not None:
                return "a list"
            if v.kind == V.ARRAY and v.local_array:
                return "a JAX array"
            if depth < 4:
                bound = self._bound(e)
                if bound is not None:
                    what = self._unhashable(bound, depth + 1)
                    if what is not None:
                        return what if isinstance(bound, (cst.Name, cst.Attribute)) or " (" in what \
                            else f"{what} (`{e.value}` is bound to `{_short(ctx.code(bound))}`)"
            return self._from_callers(e.value)
        return None

    def _bound(self, e: cst.Name) -> Optional[cst.BaseExpression]:
        """The expression a name is bound to by its scope's one plain assignment (a
        local, or a module-level name no function rebinds through `global`); None
        for a parameter, a name bound twice, by unpacking, a loop, an import."""
        ctx = self.ctx
        bound = bound_once(ctx.index, ctx.unit, e)
        if bound is e:
            return None
        if ctx.unit.param(e.value) is None and e.value not in ctx.unit.assigned and any(
            e.value in u.global_names and e.value in u.assigned for u in ctx.index.units
        ):
            return None  # a module-level name a function rebinds
        return bound

    def _helper_result(self, call: cst.Call) -> Optional[str]:
        """A call of a plain function of this file whose every `return` hands back a
        list/dict/set display (`def make_cfg(): return {"depth": 2}`)."""
        ctx = self.ctx
        if not isinstance(call.func, cst.Name):
            return None
        v = ctx.value(call.func)
        unit = v.unit
        if v.kind != V.FUNCTION or unit is None or v.transform is not None \
                or not isinstance(unit.node, cst.FunctionDef) or unit.is_generator or unit.node.decorators:
            return None
        kinds = {_display(r) for r in unit.returns}
        if len(kinds) != 1 or not unit.returns:
            return None
        what = kinds.pop()
        return None if what is None else f"{what} (what `{unit.name}` returns)"

    def _dataclass_instance(self, e: cst.BaseExpression, depth: int, containers: bool = False) -> Optional[str]:
        """An instance of a class of this file that cannot be hashed: `__hash__` is None
        (a plain `@dataclass`), or a hashed field holds something unhashable (a frozen or
        `unsafe_hash=True` dataclass, an equinox Module, a class whose `__hash__` hashes
        a tuple of its attributes, given an array or a list).  ``containers``: only
        list/dict/set fields count (the static half of `eqx.partition`, whose array
        leaves are None)."""
        ctx = self.ctx
        call = bound_once(ctx.index, ctx.unit, e)
        if isinstance(call, cst.Name) and not containers:
            part = self._partition_half(call)
            if part is not None:
                inner = self._dataclass_instance(part, depth, containers=True)
                return None if inner is None else f"a half of `eqx.partition({ctx.code(part).strip()}, ...)`, {inner},"
        if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Name) or any(a.star for a in call.args):
            return None
        if ctx.unit.lookup_def(call.func.value) is not None:
            return None
        info = next((c for c in ctx.index.classes if c.name == call.func.value
                     and any(n is c.node for n in ctx.module.body)), None)
        if info is not None:
            how = class_hashing(info.node, info.bases, ctx.qualname)
            name = info.name
        else:
            # a class another module of the project defines, imported here: its record
            cls = ctx.index.pytree_class(call.func.value) if ctx.lookup(call.func.value) is None else None
            how = Hashing(**cls.flat["hash"]) if cls is not None and cls.flat.get("hash") else None
            name = call.func.value
        if how is None:
            return None
        if how.mode == UNHASHABLE:
            if containers:
                return None
            return (f"an instance of the dataclass `{name}` (`@dataclass` with eq=True and neither "
                    f"frozen=True nor unsafe_hash=True sets `__hash__` to None)")
        i = 0
        for a in call.args:
            if a.keyword is None:
                param = how.params[i] if i < len(how.params) else None
                i += 1
            else:
                param = a.keyword.value
            field = how.hashed.get(param) if param is not None else None
            if field is None:
                continue
            inner = self._unhashable(a.value, depth + 1)
            if inner is None or (containers and not inner.startswith(("a list", "a dict", "a set"))):
                continue
            if how.kind == "dataclass":
                return f"an instance of the dataclass `{name}` whose field `{field}` is {inner} (its hash hashes every field)"
            if how.kind == "module":
                return f"an instance of the equinox Module `{name}` whose field `{field}` is {inner} (a Module hashes its fields)"
            return f"an instance of `{name}` whose `__hash__` hashes `self.{field}`, {inner},"
        return None

    def _partition_half(self, e: cst.Name) -> Optional[cst.BaseExpression]:
        """``params, static = eqx.partition(model, eqx.is_array)``: ``model`` for either
        half (an instance of its class, its array leaves or the others replaced by None),
        when the scope binds the name only there."""
        ctx = self.ctx
        u = scope_of(ctx.index, ctx.unit, e.value)
        if u is None:
            return None
        ws = writes(u.node, e.value)
        if len(ws) != 1 or not isinstance(ws[0], cst.Assign) or len(ws[0].targets) != 1:
            return None
        target, value = ws[0].targets[0].target, ws[0].value
        if not isinstance(target, cst.Tuple) or len(target.elements) != 2 or not isinstance(value, cst.Call):
            return None
        if ctx.qualname(value.func) not in ("equinox.partition",) or not value.args or value.args[0].keyword is not None:
            return None
        return value.args[0].value

    def _from_callers(self, name: str) -> Optional[str]:
        """``name`` is a parameter of the (untraced) function making the call, passed
        on unchanged: what a call of that function in this file passes for it, when
        it is a list/dict/set display or a module-level name bound only to one
        (``mesh_eval(f, [-2, 2], ...)`` reaching ``_mesh_eval``'s static ``x_limits``)."""
        ctx = self.ctx
        unit = ctx.unit
        if ctx.in_traced or unit.param(name) is None or name in unit.assigned \
                or not isinstance(unit.node, cst.FunctionDef) or unit.cls is not None:
            return None
        positional = [p.name for p in unit.positional()]
        index = positional.index(name) if name in positional else None
        calls = getattr(self, "_calls_by_name", None)
        if calls is None:
            # the calls of each plain name in the module, in the order of a walk of it (once per file)
            calls = self._calls_by_name = {}
            for n in walk_tree(ctx.module):
                if type(n) is cst.Call and type(n.func) is cst.Name:
                    calls.setdefault(n.func.value, []).append(n)
        for n in calls.get(unit.name, ()):
            if any(a.star for a in n.args):
                continue
            arg = next((a.value for a in n.args if a.keyword is not None and a.keyword.value == name), None)
            if arg is None and index is not None:
                pos = [a for a in n.args if a.keyword is None]
                arg = pos[index].value if index < len(pos) else None
            what = _display(arg)
            if what is None and isinstance(arg, cst.Name):
                stmts = ctx.index.module_assignments.get(arg.value, [])
                values = [st.value for st in stmts if isinstance(st, cst.Assign) and len(st.targets) == 1
                          and isinstance(st.targets[0].target, cst.Name)]
                kinds = {_display(v) for v in values}
                if values and len(values) == len(stmts) and len(kinds) == 1:
                    what = kinds.pop()
            if what is not None:
                return f"{what} (from the call of `{unit.name}` that passes `{ctx.code(arg).strip()}` for `{name}`)"
        return None


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:37] + "..."


def _display(e: Optional[cst.BaseExpression]) -> Optional[str]:
    if isinstance(e, (cst.List, cst.ListComp)):
        return "a list"
    if isinstance(e, (cst.Dict, cst.DictComp)):
        return "a dict"
    if isinstance(e, (cst.Set, cst.SetComp)):
        return "a set"
    return None
