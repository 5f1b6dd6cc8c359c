"""JAX209 string-passed-as-traced-argument: A string passed to a non-static parameter of a jitted function."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import apis
from jaxlint.model import values as V
from jaxlint.model.jit_calls import JIT_NAMES
from jaxlint.model.pytree_read import function_leaf, function_leaf_fields
from jaxlint.model.scopes import bound_once
from jaxlint.model.walk import children, dotted_name, string_value, walk_tree


# equinox modules whose pytree leaves include a function (JAX 0.10.2, equinox 0.13:
# `jax.jit(f)(module)` raises TypeError; Linear, Conv, GRUCell, LayerNorm... do not)

# optax's optimizer constructors: a GradientTransformation, a NamedTuple of two functions
_OPTAX_OPTIMIZERS = frozenset({
    "adam", "adamw", "sgd", "rmsprop", "adagrad", "adabelief", "adafactor", "adamax", "adamaxw",
    "nadam", "nadamw", "radam", "lamb", "lars", "lion", "yogi", "amsgrad", "novograd", "fromage",
    "noisy_sgd", "sm3", "chain", "adadelta",
})



def _registered_names(module: cst.Module) -> set[str]:
    """The names a ``register...(X, ...)`` call of the file registers: ``X`` itself; the
    classes a loop or comprehension hands it (``for cls in (A, B):
    register_pytree_node(cls, ...)``, also through a name bound to that tuple); and
    the arguments of the calls of a helper that registers its parameter (``def
    _register(cls): register_pytree_node_class(cls)`` ... ``_register(A)``)."""
    out: set[str] = set()
    helpers: set[str] = set()
    tables: dict[str, cst.BaseExpression] = {}
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign) and len(small.targets) == 1 \
                        and isinstance(small.targets[0].target, cst.Name):
                    tables[small.targets[0].target.value] = small.value

    def names_in(e: cst.BaseExpression) -> set[str]:
        if isinstance(e, cst.Name) and e.value in tables:
            e = tables[e.value]
        return {n.value for n in walk_tree(e) if isinstance(n, cst.Name)}

    stack: list[tuple[cst.CSTNode, tuple, frozenset, str]] = [(module, (), frozenset(), "")]
    while stack:
        n, loops, params, fn = stack.pop()
        if isinstance(n, cst.Call) and "register" in (dotted_name(n.func) or ""):
            for a in n.args:
                if not isinstance(a.value, cst.Name):
                    continue
                name = a.value.value
                out.add(name)
                for targets, it in loops:
                    if name in targets:
                        out.update(names_in(it))
                if name in params and fn:
                    helpers.add(fn)
        if isinstance(n, cst.FunctionDef):
            params = frozenset(p.name.value for p in (*n.params.params, *n.params.posonly_params,
                                                      *n.params.kwonly_params))
            fn = n.name.value
        elif isinstance(n, cst.For):
            loops = (*loops, ({t.value for t in walk_tree(n.target) if isinstance(t, cst.Name)}, n.iter))
        elif isinstance(n, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
            f = n.for_in
            while f is not None:
                loops = (*loops, ({t.value for t in walk_tree(f.target) if isinstance(t, cst.Name)}, f.iter))
                f = f.inner_for_in
        stack.extend((c, loops, params, fn) for c in children(n))

    if helpers:
        for n in walk_tree(module):
            if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value in helpers:
                out.update(a.value.value for a in n.args if isinstance(a.value, cst.Name))
            elif isinstance(n, cst.ClassDef) and any(isinstance(d.decorator, cst.Name) and d.decorator.value in helpers
                                                     for d in n.decorators):
                out.add(n.name.value)
    return out


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
        "`static_argnames`; and an equinox layer whose leaves include a Python function (built "
        "there or bound once to a name) passed to plain `jax.jit` for a traced parameter: "
        "`eqx.nn.Lambda`, `eqx.nn.MLP` (its activations), the pooling layers (`Pool`, "
        "`MaxPool1d`..`3d`, `AvgPool1d`..`3d`, `AdaptivePool`, `AdaptiveMaxPool1d`..`3d`, "
        "`AdaptiveAvgPool1d`..`3d`: their `operation`), `eqx.nn.WeightNorm` (its norm function), "
        "an `eqx.nn.Sequential` holding one (or a JAX function), and an `equinox.Module` of the "
        "project (of the file, or of another module; nested Modules followed) with a non-static "
        "field set to one or to a JAX function (`self.act = jax.nn.gelu`). "
        "Also other objects that are not pytrees of arrays, built there or bound once to a name: "
        "an instance of a flax linen Module class (of the file, or of another module of the "
        "project), of a plain class of the file (no "
        "bases, no decorators, no metaclass, no `__jax_array__`, no `register...(Cls, ...)` call in "
        "the file, also through a loop over classes, `for cls in (A, B): register_pytree_node(cls, "
        "...)`, or a helper that registers its parameter), "
        "an optax optimizer (`optax.adam(...)`: a tuple of functions), a haiku "
        "`hk.transform(...)`, a function of the file; and values no jit can take, by what builds "
        "them (JAX 0.10.2: each raises the same TypeError): a device (`jax.devices()[0]`, "
        "`jax.local_devices()[0]`) or a list of them, a sharding (`NamedSharding`, "
        "`SingleDeviceSharding`), a mesh (`jax.make_mesh(...)`, `Mesh`), a `PartitionSpec`, a NumPy "
        "array of strings (`np.array(['hi'])`, `np.full(2, 'a')`, `dtype=str`/`'U8'`/`object`), a "
        "dtype (`jnp.float32`), a `range`, `slice` or set, a list, tuple or dict display holding a "
        "string; these also at a call of a jit of a function whose signature is unknown here "
        "(`jit(match_faces)` of another module), at a position its literal `static_argnums` does not "
        "list when it declares no `static_argnames`. `eqx.filter_jit` is left alone (it traces "
        "only the array leaves). "
        "And `@jax.jit` (or `@partial(jax.jit, ...)`) on a method of such a plain class that does "
        "not declare `self` static, reported at the decorator whoever calls the method "
        "(`model(x)`, `policy.act(obs)`, `self.x_step(v)` from another method): jit receives the "
        "instance as argument 0 at every call. A `@staticmethod`, an `eqx.filter_jit` (it makes "
        "non-array leaves static) and a class with bases or decorators (an `eqx.Module`, a "
        "registered pytree) are left alone."
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
        # a jitted method whose `self` is static, or whose class is a pytree (an equinox
        # Module, a registered class): jit can take the instance
        Valid(
            """
            from functools import partial

            import equinox as eqx
            import jax
            import jax.numpy as jnp


            class Policy:
                def __init__(self, w):
                    self.w = w

                @partial(jax.jit, static_argnums=0)
                def act(self, obs):
                    return jnp.argmax(obs @ self.w)


            class Critic(eqx.Module):
                w: jax.Array

                @jax.jit
                def value(self, obs):
                    return obs @ self.w


            p = Policy(jnp.eye(3))
            p.act(jnp.ones(3))
            c = Critic(jnp.ones(3))
            c.value(jnp.ones(3))
            """
        ),
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
        # the module static, classes registered as pytrees (decorator, register_pytree_node call), an optimizer given to eqx.filter_jit
        Valid(
            """
            from functools import partial

            import equinox as eqx
            import flax.linen as nn
            import jax
            import jax.numpy as jnp
            import optax


            class Net(nn.Module):
                @nn.compact
                def __call__(self, x):
                    return nn.Dense(4)(x)


            @jax.tree_util.register_pytree_node_class
            class Scaler:
                def __init__(self, s):
                    self.s = s

                def tree_flatten(self):
                    return (self.s,), None

                @classmethod
                def tree_unflatten(cls, aux, children):
                    return cls(*children)


            class Shift:
                def __init__(self, b):
                    self.b = b


            jax.tree_util.register_pytree_node(Shift, lambda s: ((s.b,), None), lambda _, c: Shift(*c))


            @partial(jax.jit, static_argnums=(0,))
            def apply(model, params, x):
                return model.apply(params, x)


            @jax.jit
            def scaled(scaler, shift, x):
                return x * scaler.s + shift.b


            @eqx.filter_jit
            def update(opt, grads, state):
                return opt.update(grads, state)


            def run(params, grads, state, x):
                net = Net()
                y = apply(net, params, x)
                w = scaled(Scaler(2.0), Shift(1.0), x)
                u = update(optax.adam(1e-3), grads, state)
                return y, w, u
            """
        ),
        # the same Module under `eqx.filter_jit`, or with the function in a static field
        Valid(
            """
            from typing import Callable

            import equinox as eqx
            import jax


            class Net(eqx.Module):
                linear: eqx.nn.Linear
                act: Callable = eqx.field(static=True)

                def __init__(self, key):
                    self.linear = eqx.nn.Linear(2, 2, key=key)
                    self.act = jax.nn.gelu


            @jax.jit
            def forward(model, x):
                return model(x)


            @eqx.filter_jit
            def forward_filtered(model, x):
                return model(x)


            net = Net(jax.random.PRNGKey(0))
            forward(net, 0)
            forward_filtered(eqx.nn.MaxPool2d(kernel_size=3), 0)
            """
        ),
    ]

    INVALID = [
        # objects that are not pytrees of arrays in traced slots: a flax linen Module of the file, an optax optimizer, an instance of a plain class, a function
        Invalid(
            """
            from functools import partial

            import flax.linen as nn
            import haiku as hk
            import jax
            import jax.numpy as jnp
            import optax


            class Net(nn.Module):
                @nn.compact
                def __call__(self, x):
                    return nn.Dense(4)(x)


            class Scaler:
                def __init__(self, s):
                    self.s = s


            @jax.jit
            def apply(model, params, x):
                return model.apply(params, x)


            @partial(jax.jit, static_argnums=(0,))
            def step(n, opt, params, grads, state):
                updates, state = opt.update(grads, state)
                return optax.apply_updates(params, updates), state


            def act(x):
                return jnp.tanh(x)


            @jax.jit
            def scaled(scaler, fn, x):
                return fn(x) * scaler.s


            def run(params, grads, state, x):
                net = Net()
                y = apply(net, params, x)
                opt = optax.adam(1e-3)
                p, s = step(1, opt, params, grads, state)
                w = scaled(Scaler(2.0), act, x)
                return y, p, s, w
            """,
            expected=[(43, 15), (45, 20), (46, 16), (46, 29)],
            messages=[
                'A flax linen Module (`Net(...)`, not a pytree) is passed to `apply` for the traced parameter `model`: jit makes every traced argument an abstract array and cannot make this one, so the call raises TypeError: Error interpreting argument ... as an abstract array. Declare it static (static_argnums=0, when it is hashable), or close over it instead of passing it',
                'An optax optimizer (`optax.adam(...)`, a tuple of functions) is passed to `step` for the traced parameter `opt`: jit makes every traced argument an abstract array and cannot make this one, so the call raises TypeError: Error interpreting argument ... as an abstract array. Declare it static (static_argnums=1, when it is hashable), or close over it instead of passing it',
                'An instance of `Scaler` (a class not registered as a pytree) is passed to `scaled` for the traced parameter `scaler`: jit makes every traced argument an abstract array and cannot make this one, so the call raises TypeError: Error interpreting argument ... as an abstract array. Declare it static (static_argnums=0, when it is hashable), or close over it instead of passing it',
                'The function `act` is passed to `scaled` for the traced parameter `fn`: jit makes every traced argument an abstract array and cannot make this one, so the call raises TypeError: Error interpreting argument ... as an abstract array. Declare it static (static_argnums=1, when it is hashable), or close over it instead of passing it',
            ],
        ),
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
        # a pooling layer holds its pooling function; a Module of the file holding one (or a
        # JAX function in a field that is not static), an `eqx.nn.Sequential` holding a Lambda
        Invalid(
            """
            from typing import Callable

            import equinox as eqx
            import jax


            class Net(eqx.Module):
                pool: eqx.nn.MaxPool2d
                act: Callable

                def __init__(self):
                    self.pool = eqx.nn.MaxPool2d(kernel_size=3, stride=2)
                    self.act = jax.nn.gelu


            @jax.jit
            def forward(model, x):
                return jax.vmap(model)(x)


            net = Net()
            forward(net, 0)
            forward(eqx.nn.Sequential([eqx.nn.Lambda(jax.nn.relu)]), 0)
            """,
            expected=[(22, 9), (23, 9)],
            messages=[
                "An instance of the Module `Net` whose field `pool` is an `eqx.nn.MaxPool2d` is passed to `forward` for the traced parameter `model`: its leaves include a function, which jit cannot make an abstract array, so the call raises TypeError: Error interpreting argument ... as an abstract array. Use `eqx.filter_jit` (it traces only the array leaves), or partition the module with `eqx.partition(model, eqx.is_array)`",
                "An `eqx.nn.Sequential` holding an `eqx.nn.Lambda` is passed to `forward` for the traced parameter `model`: its leaves include a function, which jit cannot make an abstract array, so the call raises TypeError: Error interpreting argument ... as an abstract array. Use `eqx.filter_jit` (it traces only the array leaves), or partition the module with `eqx.partition(model, eqx.is_array)`",
            ],
        ),
        # `@jax.jit` on a method of a plain class (the first thing a PyTorch user writes)
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            class Linear:
                def __init__(self, key, din, dout):
                    self.w = jax.random.normal(key, (din, dout))

                @jax.jit
                def __call__(self, x):
                    return x @ self.w


            model = Linear(jax.random.PRNGKey(0), 3, 2)
            print(model(jnp.ones((4, 3))).shape)
            """,
            expected=[(9, 6)],
            messages=[
                "`@jax.jit` on `Linear.__call__`, a method of a class not registered as a pytree: jit receives the instance as its first argument (`self`) and makes every traced argument an abstract array, and cannot make this one, so every call raises TypeError: Error interpreting argument ... as an abstract array. Jit a function that takes the arrays it reads as arguments instead, or declare `self` static (`@partial(jax.jit, static_argnums=0)`, when the instance is hashable and never changes)",
            ],
        ),
    ]

    def _local_leaves(self, name: str, depth: int = 0) -> Optional[str]:
        """For a class of this file (at module level) that is an equinox Module: its
        first field holding a Python function (``pytree_read.function_leaf_fields``,
        following the classes of this file its fields build, two levels down)."""
        ctx = self.ctx
        if depth > 2:
            return None
        cls = next((c for c in ctx.index.classes if c.name == name
                    and any(n is c.node for n in ctx.module.body)), None)
        if cls is None:
            # a class of another module of the project, imported here by name
            return self._imported_leaves(cst.Call(func=cst.Name(name))) if ctx.lookup(name) is None else None
        found = function_leaf_fields(cls.node, ctx.qualname, lambda n: self._local_leaves(n, depth + 1))
        if not found:
            return None
        field, what = next(iter(found.items()))
        return f"field `{field}` is {what}"

    def _imported_leaves(self, made: cst.Call) -> Optional[str]:
        """A class of another module of the project (its record's ``fnleaf``, or that of
        a field's annotated class): its first field holding a Python function."""
        ctx = self.ctx
        written = dotted_name(made.func)
        if written is None or ctx.lookup(written.split(".", 1)[0]) is not None:
            return None
        flat = ctx.index.imported_classes.get(written)
        if flat is None:
            cls = ctx.index.pytree_class(written)
            flat = cls.flat if cls is not None else None
        if flat is None:
            return None
        for field, what in (flat.get("fnleaf") or {}).items():
            return f"field `{field}` is {what}"
        for field, sub in (flat.get("ann") or {}).items():
            if isinstance(sub, dict):
                for inner, what in (sub.get("fnleaf") or {}).items():
                    return f"field `{field}` holds a Module whose field `{inner}` is {what}"
        return None

    def _function_leaves(self, call: cst.Call, arg: cst.BaseExpression, pname) -> bool:
        """An equinox module whose leaves include a function given to plain `jax.jit` as a
        traced argument: a layer of ``apis.EQX_FUNCTION_LEAF_LAYERS`` (`eqx.nn.Lambda`,
        `eqx.nn.MLP`'s activations, the pooling layers' operation), an `eqx.nn.Sequential`
        holding one, or a Module of the project (this file's or another module's) whose
        field holds one or a JAX function."""
        ctx = self.ctx
        made = bound_once(ctx.index, ctx.unit, arg)
        if not isinstance(made, cst.Call) or any(a.star for a in made.args):
            return False
        q = ctx.qualname(made.func)
        what = None
        if q in apis.EQX_FUNCTION_LEAF_LAYERS or q == "equinox.nn.Sequential":
            what = function_leaf(made, ctx.qualname, self._local_leaves)
        elif isinstance(made.func, cst.Name) and ctx.unit.lookup_def(made.func.value) is None \
                and any(c.name == made.func.value and any(n is c.node for n in ctx.module.body)
                        for c in ctx.index.classes):
            inner = self._local_leaves(made.func.value)
            what = f"an instance of the Module `{made.func.value}` whose {inner}" if inner is not None else None
        elif isinstance(made.func, (cst.Name, cst.Attribute)):
            inner = self._imported_leaves(made)
            what = f"an instance of the Module `{ctx.code(made.func).strip()}` whose {inner}" if inner is not None else None
        if what is None:
            return False
        where = f"parameter `{pname}`" if pname else "`*args`"
        self.report(
            arg,
            f"{what[0].upper() + what[1:]} is passed to `{ctx.code(call.func)}` for the traced "
            f"{where}: its leaves include a function, which jit cannot make an abstract array, so "
            f"the call raises TypeError: Error interpreting argument ... as an abstract array. Use "
            f"`eqx.filter_jit` (it traces only the array leaves), or partition the module with "
            f"`eqx.partition(model, eqx.is_array)`",
        )
        return True

    def _not_pytree(self, arg: cst.BaseExpression) -> Optional[str]:
        """What ``arg`` is when it is an object jit cannot flatten into arrays: a flax
        linen Module (of this file, or ``nn.Dense(3)``), an instance of a plain class of
        this file that nothing registers as a pytree, an optax optimizer or a haiku
        ``Transformed`` (tuples of functions), a function of this file; else None."""
        ctx = self.ctx
        made = bound_once(ctx.index, ctx.unit, arg)
        leaf = self._non_array_leaf(made)
        if leaf is not None:
            return leaf
        if isinstance(made, cst.Name):
            v = ctx.value(made)
            if v.kind == V.FUNCTION and v.unit is not None and v.transform is None:
                return f"the function `{made.value}`"
            return None
        if not isinstance(made, cst.Call):
            return None
        written = ctx.code(made.func).strip()
        if isinstance(made.func, cst.Name) and ctx.unit.lookup_def(made.func.value) is None:
            cls = next((c for c in ctx.index.classes if c.name == made.func.value
                        and any(n is c.node for n in ctx.module.body)), None)
            if cls is not None:
                if cls.linen:
                    return f"a flax linen Module (`{written}(...)`, not a pytree)"
                if self._plain_class(cls):
                    return f"an instance of `{cls.name}` (a class not registered as a pytree)"
                return None
        if isinstance(made.func, (cst.Name, cst.Attribute)) and ctx.lookup(written.split(".", 1)[0]) is None:
            # a class of another module of the project: a flax linen Module by its record
            found = ctx.index.class_hash(dotted_name(made.func))
            if found is not None and found.get("kind") == "linen":
                return f"a flax linen Module (`{written}(...)`, not a pytree)"
        q = ctx.qualname(made.func) or ""
        last = q.rsplit(".", 1)[-1]
        if q.startswith("optax.") and q.count(".") == 1 and last in _OPTAX_OPTIMIZERS:
            return f"an optax optimizer (`{written}(...)`, a tuple of functions)"
        if q in ("haiku.transform", "haiku.transform_with_state", "haiku.without_apply_rng"):
            return f"a haiku transformed function (`{written}(...)`, a tuple of functions)"
        return None

    def _report_leaf(self, node: cst.Call, arg: cst.BaseExpression, what: str, pname: Optional[str],
                     hint: str) -> None:
        if pname is not None and pname.startswith("#"):
            where = f"argument {pname[1:]}"
        else:
            where = f"parameter `{pname}`" if pname else "`*args`"
        # a list, dict, set or NumPy array is not hashable: it cannot be static either
        unhashable = what.startswith(("a list ", "a dict ", "a tuple holding", "a set", "a NumPy array"))
        advice = "Close over it instead of passing it, or pass arrays" if unhashable else \
            f"Declare it static{hint}, or close over it instead of passing it"
        self.report(
            arg,
            f"{what[0].upper() + what[1:]} is passed to `{self.ctx.code(node.func)}` for the traced "
            f"{where}: jit makes every traced argument an abstract array and cannot make "
            f"this one, so the call raises TypeError: Error interpreting argument ... as an "
            f"abstract array. {advice}",
        )

    def _unknown_signature(self, node: cst.Call) -> None:
        """A jit of a function whose signature is unknown here (``jit(match_faces3)`` of
        another module): an argument at a position ``static_argnums`` does not list, of a
        jit that declares no ``static_argnames`` (which could name it), is traced; one that
        is certainly no array (a device, a NumPy array of strings...) makes the call raise."""
        info = self.ctx.jit_callee(node, static_only=True)
        if info is None or info.unit is not None or info.static_names or info.receiver is not None:
            return
        if info.site is not None and info.site.transform.filtered:
            return
        for a, position, pname in info.args(node):
            if position is None or info.is_static(position, pname):
                continue
            what = self._non_array_leaf(bound_once(self.ctx.index, self.ctx.unit, a.value))
            if what is not None:
                self._report_leaf(node, a.value, what, None if position is None else f"#{position}", "")

    def _builtin(self, func: cst.BaseExpression) -> Optional[str]:
        """The builtin a bare name calls (``range``), when nothing of the file rebinds it."""
        if not isinstance(func, cst.Name) or self.ctx.qualname(func) is not None \
                or self.ctx.lookup(func.value) is not None or self.ctx.unit.lookup_def(func.value) is not None:
            return None
        return func.value

    def _text_array(self, call: cst.Call) -> bool:
        """A NumPy array of strings or objects: ``np.array(['hi'])`` (data all string
        literals), ``np.array(x, dtype=str)``, ``np.full(2, 'a')``."""
        ctx = self.ctx
        if ctx.qualname(call.func) not in apis.NUMPY_ARRAY_BUILDERS:
            return False
        for a in call.args:
            if a.keyword is not None and a.keyword.value == "dtype":
                d = a.value
                written = ctx.qualname(d) or self._builtin(d)
                if written in apis.NUMPY_TEXT_DTYPES:
                    return True
                s = string_value(d)
                return s is not None and (s in ("str", "object", "O") or s.lstrip("<>=|")[:1] in ("U", "S"))
        q = ctx.qualname(call.func)
        args = [a for a in call.args if a.keyword is None and not a.star]
        if q == "numpy.full":
            return len(args) >= 2 and isinstance(args[1].value, cst.SimpleString) \
                and not args[1].value.prefix.lower().startswith("b")
        if q not in ("numpy.array", "numpy.asarray") or not args:
            return False
        data = args[0].value
        if not isinstance(data, (cst.List, cst.Tuple)) or not data.elements:
            return False
        return all(isinstance(el, cst.Element) and isinstance(el.value, (cst.SimpleString, cst.ConcatenatedString,
                                                                        cst.FormattedString))
                   for el in data.elements)

    def _non_array_leaf(self, made: cst.BaseExpression) -> Optional[str]:
        """What ``made`` is when jit cannot make it (or a leaf of it) an abstract array,
        by what builds it (JAX 0.10.2, each raising TypeError: Error interpreting
        argument ... as an abstract array): a device (``jax.devices()[0]``), a list of
        them, a sharding, a mesh, a partition spec, a NumPy array of strings, a ``range``
        or ``slice`` object, a set, a dtype (``jnp.float32``), a list, tuple or dict
        display holding a string literal."""
        ctx = self.ctx
        written = ctx.code(made).strip()
        if isinstance(made, cst.Subscript) and isinstance(made.value, cst.Call) \
                and ctx.qualname(made.value.func) in apis.DEVICE_LISTS:
            return f"a device object (`{written}`)"
        if isinstance(made, cst.Call):
            q = ctx.qualname(made.func)
            if q in apis.DEVICE_LISTS:
                return f"a list of device objects (`{written}`)"
            if q in apis.NON_ARRAY_CONSTRUCTORS:
                return f"{apis.NON_ARRAY_CONSTRUCTORS[q]} (`{written}`)"
            b = self._builtin(made.func)
            if b in apis.NON_ARRAY_BUILTINS:
                return f"{apis.NON_ARRAY_BUILTINS[b]} (`{written}`)"
            if self._text_array(made):
                return f"a NumPy array of strings (`{written}`)"
            return None
        if isinstance(made, cst.Attribute):
            q = ctx.qualname(made) or ""
            head, _, attr = q.rpartition(".")
            if head in ("jax.numpy", "numpy") and attr in apis.DTYPE_NAMES:
                return f"the dtype `{written}` (a type, not an array)"
            return None
        if isinstance(made, (cst.Set, cst.SetComp)):
            return f"a set (`{written}`)"
        if isinstance(made, (cst.List, cst.Tuple, cst.Dict)):
            values = [el.value for el in made.elements if isinstance(el, (cst.Element, cst.DictElement))]
            kind = {cst.List: "a list", cst.Tuple: "a tuple", cst.Dict: "a dict"}[type(made)]
            if any(isinstance(v, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))
                   and not (isinstance(v, cst.SimpleString) and v.prefix.lower().startswith("b")) for v in values):
                return f"{kind} holding a string (`{written}`)"
        return None

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        """``@jax.jit`` (or ``@partial(jax.jit, ...)``) on a method of a plain class of this
        file, ``self`` not declared static: jit receives the instance as argument 0 at every
        call, and an instance of a class nothing registers as a pytree is not a pytree of
        arrays, so every call raises.  Reported at the decorator (where the fix goes), once,
        whoever calls it (``obj.method(x)``, ``self.method(x)`` from another method)."""
        if not node.decorators:
            return
        ctx = self.ctx
        unit = ctx.index.unit_of.get(id(node))
        cls = unit.cls if unit is not None else None
        if cls is None or not any(s is node for s in cls.node.body.body) or not self._plain_class(cls):
            return
        if any(dotted_name(d.decorator) in ("staticmethod", "classmethod") for d in node.decorators):
            return
        positional = unit.positional()
        if not positional:
            return
        for d in node.decorators:
            info = ctx.jit_declaration(d.decorator)
            if info is None and isinstance(d.decorator, (cst.Name, cst.Attribute)) and apis.canonical(
                    ctx.qualname(d.decorator) or "") in JIT_NAMES:
                info = ctx.jit_declaration(node)  # a bare `@jax.jit` is recorded on its def
            if info is None or info.unit is not unit or info.is_static(0, positional[0].name):
                continue
            if info.site is not None and info.site.transform.filtered:
                continue  # eqx.filter_jit: a non-array leaf is static
            self.report(
                d.decorator,
                f"`@{ctx.code(d.decorator).strip()}` on `{cls.name}.{unit.name}`, a method of a class not "
                f"registered as a pytree: jit receives the instance as its first argument (`{positional[0].name}`) "
                f"and makes every traced argument an abstract array, and cannot make this one, so every call "
                f"raises TypeError: Error interpreting argument ... as an abstract array. Jit a function that "
                f"takes the arrays it reads as arguments instead, or declare `{positional[0].name}` static "
                f"(`@partial(jax.jit, static_argnums=0)`, when the instance is hashable and never changes)",
            )
            return

    def _plain_class(self, cls) -> bool:
        """A class with no bases (or ``object``), no decorators, no ``__jax_array__``,
        that no call of the file registers (``register_pytree_node(Cls, ...)``)."""
        node = cls.node
        if node.decorators or any(b != "builtins.object" and b != "object" for b in cls.bases) \
                or any((dotted_name(b.value) or "?") != "object" for b in node.bases):
            return False
        if node.keywords:
            return False  # `metaclass=...`: the metaclass may register it (or make it anything)
        if "__jax_array__" in cls.methods:
            return False
        regs = getattr(self, "_registered", None)
        if regs is None:
            regs = self._registered = _registered_names(self.ctx.module)
        return cls.name not in regs

    def visit_Call(self, node: cst.Call) -> None:
        info = self.ctx.jit_callee(node)
        if info is None:
            self._unknown_signature(node)
            return
        filtered = info.site is not None and info.site.transform.filtered
        for a, position, pname in info.args(node):
            if info.is_static(position, pname):
                continue
            if not filtered and self._function_leaves(node, a.value, pname):
                continue
            what = None if filtered else self._not_pytree(a.value)
            if what is not None:
                hint = ""
                if pname is not None and info.unit is not None:
                    p = info.unit.param(pname)
                    if p is not None and p.index is not None:
                        hint = f" (static_argnums={p.index}, when it is hashable)"
                self._report_leaf(node, a.value, what, pname, hint)
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
