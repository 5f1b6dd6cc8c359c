"""JAX207 non-hashable-static-argument: A list, dict, set, array or tracer passed in a `static_argnums`/`static_argnames` position."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import apis, kinds
from jaxlint.model import values as V
from jaxlint.model.kinds import DISPLAY, called_return_fact
from jaxlint.model.hashing import UNHASHABLE, Hashing, attribute_param, attribute_value, class_hashing
from jaxlint.model.pytree_read import declares_static
from jaxlint.model.scopes import bound_once, scope_of, writes
from jaxlint.model.walk import dotted_name, walk_tree
from jaxlint.rules.tracing._library_statics import call_findings


_NP_ARRAY_MAKERS = frozenset(
    "numpy." + n
    for n in (
        "array", "asarray", "zeros", "ones", "empty", "full", "arange", "linspace", "eye",
        "identity", "zeros_like", "ones_like", "empty_like", "full_like", "concatenate",
        "stack", "frombuffer", "fromiter", "loadtxt", "load",
    )
)


def _extra_positional(info, call: cst.Call) -> Optional[tuple[int, int]]:
    """(how many positional parameters the jitted def takes, how many the call passes)
    when the call passes more than its signature, seen here, takes (no ``*args``)."""
    if info.unit is None or not info.exact or info.has_vararg or any(a.star for a in call.args):
        return None
    takes = len(info.positional)
    passes = sum(1 for a in call.args if a.keyword is None) + (1 if info.receiver is not None else 0)
    return (takes, passes) if passes > takes else None


class NonHashableStaticArg(Rule):
    code = "JAX207"
    name = "non-hashable-static-argument"
    runtime_check = '`jax.jit(f).trace(...)`: confirmed when `ValueError: Non-hashable static arguments` is raised at the call.'
    summary = "A list, dict, set, array or tracer passed in a `static_argnums`/`static_argnames` position"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Control Flow, static_argnums (seed 000); FAQ § Abstract tracer value encountered (seed 001); tutorial § jit: static argnums, strings (seed 002); study notes § static args (seed 003)"
    what_it_does = (
        "At calls of functions jitted in the same file (`@jax.jit`, `@partial(jax.jit, "
        "static_argnums=...)`, also stacked over decorators that keep the def's signature: "
        "`@jax.grad`, `@jax.value_and_grad`, `@jax.jacfwd`/`jacrev`/`hessian`, `@jax.checkpoint`/"
        "`remat`, `@jax.vmap`, `@jax.custom_jvp`/`custom_vjp`, `@jax.named_call`, "
        "`@eqx.filter_grad`/`filter_value_and_grad`/`filter_checkpoint`/`filter_vmap`, or a "
        "decorator of the file returning a `functools.wraps(fn)` wrapper; "
        "`f2 = jax.jit(f, static_argnames=...)`, "
        "`jax.jit(f, ...)(...)`), flags arguments in static positions that cannot be hashed: "
        "list/dict/set displays and comprehensions, `list(...)`/`dict(...)`/`set(...)`, a "
        "conditional expression whose two branches are the same one of these "
        "(`dict(cfg[\"kw\"]) if \"kw\" in cfg else {}`), "
        "names bound to a list display, JAX arrays, NumPy arrays built by `np.array`/"
        "`np.zeros`..., and tracers (a static argument fed from traced code). A parameter of the "
        "calling function passed on unchanged is judged by that function's calls in the file: "
        "`def grid(f, limits): return _grid(f, limits)` with `grid(f, [-2, 2])` (or a module-level "
        "name bound only to a list/dict/set display) is reported at the jitted call. So is a parameter every call of which (in this file and in "
        "the other modules of the project) passes a JAX array, a NumPy array or a PRNG key "
        "(`steps_before_u_turn(step, jnp.array(...), ...)` in main.py reaching `is_u_turn(initial_position, "
        "...)` in another module); and a jitted def of this file whose static parameters calls in "
        "other modules give such arrays is reported at its decorator too, naming those modules; so "
        "is a jitted method called there on an instance the calling scope binds once to the class, "
        "its arguments mapped with `self` first, given such an array or a list or dict built there "
        "(`lens_image = LensImage(...)` then `lens_image.model(kwargs_lens_light=[...])` with "
        "`static_argnums=(0, 3, 4, 5)`), or through an attribute every instance of the calling "
        "class holds (`self.source.update(param, [...])`, `__init__` binding `self.source` once to "
        "`Basis(...)`); the instance itself, passed as a static `self`, is judged at the call "
        "(`model.energy(x)` with `model = Network([...], ...)` of an `equinox.Module` of another "
        "module). A module-level `ask = jit(ask_strategy, static_argnums=2)` is reported at its "
        "`jit(...)` as a decorator is, also when the value is a list/dict/set display a helper of "
        "the project hands back in a tuple (`params, memory = init_strategy(...)`). And "
        "`jax.jit(fit)(x, 3)` (or `fit_jit = jax.jit(pcax.fit)`) of a function of another module "
        "that hands `n_components` unchanged to a static parameter of a jit of its module (at the "
        "top level of its body, or under `if solver == \"full\":` with `solver` defaulting to "
        "`\"full\"` and left out) is reported at the argument unless this jit declares it static: "
        "it traces it, and the inner jit gets a tracer in a static position. Inside a jitted "
        "function, what a jit of another module returns is a tracer: handed on to a static "
        "parameter of a jit of that module (`a, i = self.source.update(param, i)` then "
        "`self.light.update(param, i)`), it is reported at that jit's decorator. A "
        "module-level name another module of the project binds once to a list/dict/set display "
        "(`from config import PARAMS`, `config.PARAMS`; also a configuration module that never "
        "names JAX), and a class attribute the class body binds once to one (`Config.LAYERS`, "
        "`self.LAYERS`, a plain class of the file, `.LAYERS` assigned nowhere) count too.\n\n"
        "JAX's own functions have static arguments too (`jnp.linalg.norm`'s `ord`, "
        "`jnp.rot90`'s `k`, `jnp.linalg.matrix_power`'s `n`, `jnp.sort`'s `axis`...: the entries "
        "of jaxlint/model/static_args.py whose error is the non-hashable one, derived from the "
        "installed JAX by bench/static_args.py): a traced value given to one in traced code "
        "(`jnp.triu(x, k=n)` with `n` a traced argument), or a call of `jax.jit(jnp.linalg.norm)` "
        "that leaves such an argument traced (`norm_jit(x, ord=1)`), is flagged the same way.\n\n"
        "Instances of the file's dataclasses too: a plain `@dataclass` (eq=True, not frozen) has "
        "no hash at all, and a `frozen=True`/`unsafe_hash=True` one (or `@flax.struct.dataclass`) "
        "hashes its fields, so a field given an array, a list or another such instance (or one "
        "its `__init__` fills with a list, a dict or an array of its own making) makes it "
        "unhashable (fields declared `field(compare=False)`/`hash=False` do not count). The same "
        "for a flax linen Module (a dataclass hashing its fields; `static_broadcasted_argnums` of "
        "`jax.pmap` counts as static), for an `equinox.Module` (a frozen dataclass: its own `__init__` read through `self.f = p`; "
        "also a class of another module of the project), for a class whose `__hash__` is "
        "`hash((self.a, self.b))` with `__init__` setting them, and for either half of "
        "`eqx.partition(module, ...)` (whose list/dict/set fields stay). A jitted method called "
        "on an instance (`c.calc(3)`, or `c(3)` for `__call__`) passes the instance as `self`.\n\n"
        "Values reach the call through names too: a name its scope binds once (a dict at module "
        "level or under `if __name__ == \"__main__\":`, a JAX or NumPy array), a helper of the "
        "file (or of another module of the project, also one that never names JAX) whose every "
        "`return` is a list/dict/set display, a name unpacked from such a helper's tuple "
        "(`params, memory = init_strategy(...)` where every `return` is `params, memory` with "
        "`params` bound once there to a dict display), an attribute every instance holds a list/dict/set "
        "or NumPy array in (`self.cfg = dict(s=s)` once in `__init__` of a class of the file, "
        "assigned nowhere else, read through `self` or an instance built in the caller), the "
        "list/dict/set default of the calling function's parameter when a call of that function "
        "leaves it out, an attribute of an object "
        "built once by a class of the file (`cfg.layers` of `cfg = Config([64, 64])`: a "
        "dataclass field, or `self.layers = layers` in `__init__`, rebound nowhere). A jit of a function whose "
        "signature is not known here (`jax.jit(imported_fn, static_argnums=0)`, a partial) is "
        "checked where the declaration alone decides: positional arguments at the literal "
        "`static_argnums`, keywords named in `static_argnames`. `jax.partial` (JAX's old export "
        "of `functools.partial`) binds a jit's keywords like `functools.partial`. "
        "What `functools.partial(jitted, ...)` binds is checked as if passed at a call. A call "
        "through a transformation of the jit (`jax.grad(loss)(w, x, y)`, `jax.value_and_grad`, "
        "`jax.jacrev`..., `jax.vmap(f, in_axes)(...)`, of the jit or of `functools.partial(jit, "
        "...)`) reaches it with the `partial`'s arguments first, then the call's: an argument "
        "the transformation differentiates (`argnums`) or maps (`in_axes` not None) is a tracer "
        "there, the others keep their values (a NumPy array from `np.random.randn(50, 3)` or "
        "`np.random.normal(..., size=...)` is unhashable). A name bound more than once where every "
        "binding is an optimizer state or a jitted function's output is unhashable too: "
        "`opt_state = opt_init(x)` of `jax.example_libraries.optimizers` (lists of arrays), "
        "`state = tx.init(params)` of an optax optimizer with state (`optax.adam(...)`), then "
        "`opt_state = step_jit(..., opt_state)` in the loop (arrays).\n\n"
        "Also, at any argument of a jitted function: an instance of a pytree class of the file "
        "(`@flax.struct.dataclass`, an `equinox.Module`, without an `__init__` of its own) built "
        "with a JAX or NumPy array in a field it declares static (`struct.field(pytree_node="
        "False)`, `eqx.field(static=True)`), when the function is called twice in the file or in "
        "a loop: the second call compares the static fields with the cached structure's, and "
        "`==` on arrays raises (a list there compares by value and is left alone).\n\n"
        "And at the declaration itself: a field a pytree class declares static "
        "(`eqx.field(static=True)` of an `equinox.Module`, `struct.field(pytree_node=False)` of "
        "`@flax.struct.dataclass`/`PyTreeNode`, `dataclasses.field(metadata={\"static\": True})` "
        "under `@jax.tree_util.register_dataclass`) that is annotated as an array (`jax.Array`, "
        "`jnp.ndarray`, `np.ndarray`, `Float[Array, ...]`; not `ArrayLike`/`chex.Array`, which "
        "admit numbers) or that `__init__` sets to a JAX or NumPy array, whoever builds the "
        "instances and whatever jits them (`eqx.filter_jit` too); a class local to a function "
        "(a test's fixture) only where that function applies a transformation or calls a jitted "
        "function of the file (its instances live there). equinox 0.13 warns when such an "
        "instance is built (`UserWarning: A JAX array is being set as static! This can result in "
        "unexpected behavior and is usually a mistake to do.`), and the second call of a jitted "
        "function with another instance raises `ValueError: Exception raised while checking "
        "equality of metadata fields of pytree. Make sure that metadata fields are hashable and "
        "have simple equality semantics. (Note: arrays cannot be passed as metadata fields!)` "
        "(under `eqx.filter_jit`, wrapped in `static arguments should be comparable using "
        "__eq__`)."
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
        "For arrays, pass them as traced (non-static) arguments instead. When the call passes "
        "more positional arguments than the jitted def's signature (seen here, no `*args`) takes "
        "(`create_empty_env(env_params, static_env_params)` for `def create_empty_env("
        "static_env_params)`), the value in the static position is an argument too many: the "
        "message says so (once it hashes, the call raises `TypeError: ... takes 1 positional "
        "argument but 2 were given`)."
    )
    fix_safety = "No automatic fix."
    VALID = [
        # static fields holding a list (compared by value) or a tuple; one call with an array
        Valid(
            """
            import equinox as eqx
            import jax
            import jax.numpy as jnp
            from flax import struct


            class Grid(eqx.Module):
                values: jax.Array
                sizes: list = eqx.field(static=True)


            @struct.dataclass
            class Config:
                table: jax.Array
                shape: tuple = struct.field(pytree_node=False)


            @jax.jit
            def total(grid, cfg):
                return grid.values.sum() + cfg.table.sum()


            for seed in range(2):
                cfg = Config(jnp.arange(3.0), (3,))
                out = total(Grid(jnp.ones(3), [1, 2]), cfg)
            once = total(Grid(jnp.ones(3), [1]), Config(jnp.ones(2), (2,)))
            """
        ),
        # `__init__` makes a tuple of the list it is given: hashable
        Valid(
            """
            import equinox as eqx
            import jax
            import jax.numpy as jnp


            class Basis(eqx.Module):
                sizes: tuple
                order: int

                def __init__(self, order, sizes):
                    self.order = order
                    self.sizes = tuple(sizes)


            def project(basis, x):
                return x * basis.order + len(basis.sizes)


            project_jit = jax.jit(project, static_argnums=0)

            if __name__ == "__main__":
                y = project_jit(Basis(4, [1, 2]), jnp.ones(3))
            """
        ),
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
        # a jit of a function whose signature is unknown here (imported): lists in traced positions, tuples and ints in static ones, keywords static_argnames does not name; a name rebound to another transformation
        Valid(
            """
            import functools

            import jax
            import jax.numpy as jnp
            from ops import apply

            apply_jit = jax.jit(apply, static_argnums=1)
            apply_jit([jnp.ones(3)], (1, 2), jnp.arange(3))
            apply_jit(jnp.ones(3), 2, table=jnp.arange(3))
            jax.jit(functools.partial(apply, 2.0), static_argnames="opts")(opts=(1, 2), table=[1, 2])
            apply_jit = jax.vmap(apply)
            apply_jit(jnp.ones(3), jnp.arange(3))
            """
        ),
        # names rebound to a tuple, helpers that may return a tuple or None
        Valid(
            """
            import functools

            import jax
            import jax.numpy as jnp


            @functools.partial(jax.jit, static_argnames="cfg")
            def step(x, cfg):
                return x * dict(cfg)["scale"]


            def default_cfg(frozen):
                if frozen:
                    return (("scale", 2.0),)
                return {"scale": 2.0}


            def maybe_cfg(flag):
                if flag:
                    return {"scale": 2.0}


            CFG = {"scale": 3.0}
            CFG = tuple(CFG.items())


            if __name__ == "__main__":
                cfg = {"scale": 3.0}
                cfg = tuple(cfg.items())
                step(jnp.ones(3), cfg=cfg)
                step(jnp.ones(3), cfg=CFG)
                step(jnp.ones(3), cfg=default_cfg(True))
                print(maybe_cfg(False) or step(jnp.ones(3), cfg=(("scale", 1.0),)))
            """
        ),
        # classes that hash: `__hash__` over a hashable attribute, an attribute another method rebinds (unknown), an equinox Module whose static half keeps a tuple (its array field is None there)
        Valid(
            """
            from functools import partial

            import equinox as eqx
            import jax
            import jax.numpy as jnp


            class Scaler:
                def __init__(self, w, on):
                    self.w = w
                    self.on = on

                @partial(jax.jit, static_argnums=0)
                def __call__(self, x):
                    return self.w * x if self.on else x

                def __hash__(self):
                    return hash(self.on)


            class Tagged:
                def __init__(self, w):
                    self.w = w

                @partial(jax.jit, static_argnums=0)
                def apply(self, x):
                    return self.w * x

                def __hash__(self):
                    return hash(self.w)

                def load(self):
                    self.w = float(self.w.sum())


            class Net(eqx.Module):
                sizes: tuple
                w: jax.Array

                def __call__(self, x):
                    return x * len(self.sizes)


            @partial(jax.jit, static_argnums=1)
            def run(x, net):
                return net(x)


            scaler = Scaler(jnp.array(2.0), True)

            tagged = Tagged(jnp.array(2.0))
            tagged.load()
            tagged.apply(jnp.ones(3)) + scaler(jnp.ones(3))
            net = Net((3, 3), jnp.ones(3))
            params, static = eqx.partition(net, eqx.is_array)
            run(jnp.ones(3), static)
            """
        ),
        # fields that hold tuples and strings, an attribute a method rebinds, a field rebound after construction
        Valid(
            """
            import dataclasses
            from functools import partial

            import jax
            import jax.numpy as jnp


            @dataclasses.dataclass
            class Config:
                layers: tuple
                act: str = "relu"


            class Options:
                def __init__(self, table, scale):
                    self.table = table
                    self.scale = scale

                def freeze(self):
                    self.table = tuple(self.table.tolist())


            @partial(jax.jit, static_argnums=1)
            def mlp(x, layers):
                return x * len(layers)


            config = Config((64, 64))
            options = Options(jnp.arange(3), 2.0)
            options.freeze()
            mlp(jnp.ones(3), config.layers)
            mlp(jnp.ones(3), options.table)
            mlp(jnp.ones(3), config.act)
            extra = Config([1])
            extra.layers = (1,)
            mlp(jnp.ones(3), extra.layers)
            """
        ),
        # fields normalised where the model cannot follow them: `__init__` rebinding the attribute inside an `if` / a `try`, a dataclass's `__post_init__` (frozen or `unsafe_hash`), a config handed to a call that may rebind its field (positional, keyword)
        Valid(
            """
            import dataclasses
            from functools import partial

            import jax
            import jax.numpy as jnp


            class Sizes:
                def __init__(self, sizes):
                    self.sizes = sizes
                    if isinstance(sizes, list):
                        self.sizes = tuple(sizes)

                def __hash__(self):
                    return hash(self.sizes)


            class Widths:
                def __init__(self, widths):
                    self.widths = widths
                    try:
                        self.widths = tuple(widths)
                    except TypeError:
                        pass

                def __hash__(self):
                    return hash(self.widths)


            @dataclasses.dataclass(frozen=True)
            class Frozen:
                sizes: tuple

                def __post_init__(self):
                    object.__setattr__(self, "sizes", tuple(self.sizes))


            @dataclasses.dataclass(unsafe_hash=True)
            class Loose:
                sizes: tuple

                def __post_init__(self):
                    self.sizes = tuple(self.sizes)


            @dataclasses.dataclass
            class Config:
                layers: list


            def freeze(c):
                c.layers = tuple(c.layers)


            @partial(jax.jit, static_argnums=1)
            def f(x, cfg):
                return x * len(cfg.sizes if hasattr(cfg, "sizes") else cfg.widths)


            @partial(jax.jit, static_argnums=1)
            def mlp(x, layers):
                return x * len(layers)


            f(1.0, Sizes([1, 2]))
            f(1.0, Widths([1, 2]))
            f(1.0, Frozen([1, 2]))
            f(1.0, Loose([1, 2]))
            config = Config([64, 64])
            freeze(config)
            mlp(jnp.ones(3), config.layers)
            other = Config([32])
            freeze(c=other)
            mlp(jnp.ones(3), other.layers)
            """
        ),
        # `functools.partial` of a jitted function binding a tuple to the static parameter, a list to a traced one; a partial of `jax.jit` itself
        Valid(
            """
            import functools

            import jax
            import jax.numpy as jnp


            @functools.partial(jax.jit, static_argnames=("cfg",))
            def step(x, cfg):
                return x * dict(cfg)["lr"]


            def run(x):
                cfg = (("lr", 0.1),)
                train = functools.partial(step, cfg=cfg)
                return train(x)


            grads = functools.partial(step, [jnp.ones(3)])
            jitter = functools.partial(jax.jit, static_argnums=[0])
            print(run(jnp.ones(3)))
            """
        ),
        # the same transformations with the static argument unmapped (`in_axes=None`), bound
        # by keyword in a `partial`, or hashable (a tuple) and not differentiated
        Valid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp
            import numpy as np


            @partial(jax.jit, static_argnums=(1,))
            def power(x, n):
                return x ** n


            @partial(jax.jit, static_argnums=(1,))
            def loss(w, data):
                return jnp.sum((jnp.asarray(data) @ w) ** 2)


            def batched(xs):
                return jax.vmap(power, in_axes=(0, None))(xs, 3)


            def partial_static(xs):
                return jax.vmap(partial(power, n=3))(xs)


            def fit(w):
                data = ((1.0, 2.0, 3.0),)
                return jax.grad(loss)(w, data)
            """
        ),
        # flax linen Modules whose fields are hashable (a tuple, a string)
        Valid(
            """
            from functools import partial
            from typing import Any, Mapping

            import flax.linen as nn
            import jax


            class Mlp(nn.Module):
                widths: tuple
                act: str = "relu"

                @nn.compact
                def __call__(self, x):
                    for w in self.widths:
                        x = nn.Dense(w)(x)
                    return x


            @partial(jax.jit, static_argnums=(0,))
            def step(model, params, x):
                return model.apply(params, x)


            def train_step(model, params, x):
                return model.apply(params, x)


            def main(params, x):
                model = Mlp(widths=(16, 4))
                step(model, params, x)
                p = jax.pmap(train_step, static_broadcasted_argnums=(0,))
                p(Mlp((8,), "tanh"), params, x)
            """
        ),
        # the same states passed as traced arguments; the optimizer (functions, hashable) static
        Valid(
            """
            from functools import partial

            import jax
            import optax
            from jax.example_libraries import optimizers


            def run_steps(n, update_fun, opt_state):
                return jax.lax.fori_loop(0, n, update_fun, opt_state)


            run_jit = jax.jit(run_steps, static_argnums=(0, 1))


            @partial(jax.jit, static_argnames=("opt",))
            def apply_step(grads, params, state, opt):
                updates, state = opt.update(grads, state, params)
                return optax.apply_updates(params, updates), state


            def fit(params, update_fun, loops):
                opt_init, opt_update, get_params = optimizers.adam(step_size=0.1)
                opt_state = opt_init(params)
                for _ in range(loops):
                    opt_state = run_jit(10, update_fun, opt_state)
                return get_params(opt_state)


            def train(params, grads, loops):
                tx = optax.adam(1e-3)
                state = tx.init(params)
                for _ in range(loops):
                    params, state = apply_step(grads, params, state, tx)
                return params
            """
        ),
        # attributes that hold a tuple, one another method (or the caller) sets again, or one
        # the class normalises
        Valid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp


            @partial(jax.jit, static_argnums=(1,))
            def pad_to(x, dims):
                return jnp.zeros(dims) + x


            class Trainer:
                def __init__(self, dims):
                    self.shape = (2, 2)
                    self.dims = [2, 2]
                    self.sizes = [3, 3]

                def freeze(self):
                    self.dims = tuple(self.dims)

                def step(self, x):
                    return pad_to(x, self.shape) + pad_to(x, self.dims)


            def run(x):
                t = Trainer(2)
                t.sizes = (3, 3)
                return pad_to(x, t.sizes)
            """
        ),
        # a list default that every call replaces; a tuple default; a default of the jitted
        # function itself (jit binds defaults without hashing them)
        Valid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp


            @partial(jax.jit, static_argnums=(1,))
            def pad_to(x, dims):
                return jnp.zeros(dims) + x


            @partial(jax.jit, static_argnames=("cfg",))
            def step(x, cfg={"s": 1.0}):
                return x * cfg["s"]


            def run(x, dims=[2, 2]):
                return pad_to(x, dims)


            def run2(x, dims=(2, 2)):
                return pad_to(x, dims)


            y = run(jnp.ones(2), (3, 3)) + run2(jnp.ones(2)) + step(jnp.ones(2))
            """
        ),
        # JAX's own static arguments given Python values: a literal, a static argument of the
        # jitted caller, or named static on the outer jit
        Valid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp


            @partial(jax.jit, static_argnames="k")
            def band(x, k):
                return jnp.triu(x, k=k) + jnp.rot90(x, 1)


            norm_jit = jax.jit(jnp.linalg.norm, static_argnames="ord")
            print(norm_jit(jnp.ones(3), ord=1))
            print(jax.jit(jnp.linalg.norm)(jnp.ones(3)))
            """,
        ),
    ]

    INVALID = [
        # an array in a field the pytree class declares static (equinox, flax.struct), passed
        # to a jitted function again and again: the second call compares the structures and
        # raises ValueError (checked with JAX)
        Invalid(
            """
            from typing import Any

            import equinox as eqx
            import jax
            import jax.numpy as jnp
            import numpy as np
            from flax import struct


            class Grid(eqx.Module):
                values: jax.Array
                weights: Any = eqx.field(static=True)


            @struct.dataclass
            class Config:
                table: Any = struct.field(pytree_node=False)
                scale: float = 1.0


            @jax.jit
            def total(grid, cfg):
                return grid.values.sum() * cfg.scale


            for seed in range(2):
                cfg = Config(jnp.arange(3.0))
                out = total(Grid(jnp.ones(3), np.ones(2)), cfg)
            """,
            expected=[(28, 17), (28, 48)],
            messages=[
                "`Grid(jnp.ones(3), np.ones(2))`, an instance of `Grid` whose static field `weights` (declared static: part of the tree structure, not a leaf) is a NumPy array, is passed to `total` (parameter `grid`): jit compares the static fields with the cached call's, and `==` on arrays raises ValueError (arrays cannot be passed as metadata fields). Make the field a leaf (drop `pytree_node=False`/`static=True`) or store a hashable value (a tuple, a number)",
                "`cfg`, an instance of `Config` whose static field `table` (declared static: part of the tree structure, not a leaf) is a JAX array, is passed to `total` (parameter `cfg`): jit compares the static fields with the cached call's, and `==` on arrays raises ValueError (arrays cannot be passed as metadata fields). Make the field a leaf (drop `pytree_node=False`/`static=True`) or store a hashable value (a tuple, a number)",
            ],
        ),
        # a static field declared as an array, or set to one by `__init__`: reported at the
        # declaration, whatever jits the instances (`eqx.filter_jit` too) and wherever they
        # are built (equinox 0.13 warns at construction; the second call with another
        # instance raises)
        Invalid(
            """
            import equinox as eqx
            import jax
            import jax.numpy as jnp
            import jax.random as jr


            class Data(eqx.Module):
                data: jax.Array = eqx.field(static=True)

                def __init__(self, seed):
                    self.data = jr.uniform(jr.PRNGKey(seed), (10, 10))


            class Lookup(eqx.Module):
                table: object = eqx.field(static=True)
                size: tuple = eqx.field(static=True)

                def __init__(self, n):
                    self.table = jnp.eye(n)
                    self.size = (n, n)
            """,
            expected=[(8, 5), (15, 5)],
            messages=[
                "The static field `data` of the equinox Module `Data` (`eqx.field(static=True)`: part of the tree structure, not a leaf) is annotated `jax.Array`: jit hashes the static fields and compares them with `==` against the cached call's, so a second call with another instance raises ValueError: Exception raised while checking equality of metadata fields of pytree (arrays cannot be passed as metadata fields) (equinox warns when an instance is built: A JAX array is being set as static!). Make the field a leaf (drop the static marker) or store a hashable value (a tuple, a number)",
                "The static field `table` of the equinox Module `Lookup` (`eqx.field(static=True)`: part of the tree structure, not a leaf) is set to a JAX array by `__init__` (`self.table = jnp.eye(n)`): jit hashes the static fields and compares them with `==` against the cached call's, so a second call with another instance raises ValueError: Exception raised while checking equality of metadata fields of pytree (arrays cannot be passed as metadata fields) (equinox warns when an instance is built: A JAX array is being set as static!). Make the field a leaf (drop the static marker) or store a hashable value (a tuple, a number)",
            ],
        ),
        # a hashed field that `__init__` fills with an array or a dict of its own making (not
        # from an argument), the instance built in the `if __name__ == "__main__":` block
        Invalid(
            """
            from functools import partial

            import equinox as eqx
            import jax
            import jax.numpy as jnp


            class Basis(eqx.Module):
                nodes: jax.Array
                order: int

                def __init__(self, order):
                    self.order = order
                    self.nodes = jnp.linspace(-1.0, 1.0, order)


            class Table:
                def __init__(self, names):
                    self.names = names
                    self.index = {n: i for i, n in enumerate(names)}

                def __hash__(self):
                    return hash((self.names, self.index))


            def project(basis, x):
                return jnp.polyval(basis.nodes, x)


            def lookup(table, x):
                return x[table.index["b"]]


            project_jit = jax.jit(project, static_argnums=0)
            lookup_jit = jax.jit(lookup, static_argnums=0)

            if __name__ == "__main__":
                basis = Basis(4)
                table = Table(("a", "b"))
                y = project_jit(basis, jnp.ones(3))
                z = lookup_jit(table, jnp.ones(3))
            """,
            expected=[(40, 21), (41, 20)],
            messages=[
                "An instance of the equinox Module `Basis` whose field `nodes` is a JAX array that `__init__` makes (a Module hashes its fields) is passed to `project_jit` in a static position (parameter `basis`; static_argnums=0): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
                "An instance of `Table` whose `__hash__` hashes `self.index`, a dict that `__init__` makes, is passed to `lookup_jit` in a static position (parameter `table`; static_argnums=0): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
            ],
        ),
        # optimizer states in a static slot, their name rebound in the loop to the jit's output: example_libraries opt_init(...) (lists of arrays), optax tx.init(...) (arrays)
        Invalid(
            """
            from functools import partial

            import jax
            import optax
            from jax.example_libraries import optimizers


            def run_steps(n, update_fun, opt_state):
                return jax.lax.fori_loop(0, n, update_fun, opt_state)


            run_jit = jax.jit(run_steps, static_argnums=(0, 1, 2))


            @partial(jax.jit, static_argnames=("state",))
            def apply_step(grads, params, state):
                updates, state = tx.update(grads, state, params)
                return optax.apply_updates(params, updates), state


            tx = optax.adam(1e-3)


            def fit(params, update_fun, loops):
                opt_init, opt_update, get_params = optimizers.adam(step_size=0.1)
                opt_state = opt_init(params)
                for _ in range(loops):
                    opt_state = run_jit(10, update_fun, opt_state)
                return get_params(opt_state)


            def train(params, grads, loops):
                state = tx.init(params)
                for _ in range(loops):
                    params, state = apply_step(grads, params, state=state)
                return params
            """,
            expected=[(28, 45), (35, 57)],
            messages=[
                'An optimizer state (`opt_init(...)` of `optimizers.adam`: lists of arrays) is passed to `run_jit` in a static position (parameter `opt_state`; static_argnums=(0, 1, 2)): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)',
                "An optax optimizer state (`tx.init(...)` of `optax.adam`: arrays) is passed to `apply_step` in a static position (parameter `state`; static_argnames='state'): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
            ],
        ),
        # a flax linen Module hashes its fields: a dict field makes it unhashable, in jit's static_argnums and pmap's static_broadcasted_argnums
        Invalid(
            """
            from functools import partial
            from typing import Any, Mapping

            import flax.linen as nn
            import jax
            import jax.numpy as jnp


            class NerfModel(nn.Module):
                embeddings: Mapping[str, Any]

                @nn.compact
                def __call__(self, x):
                    return nn.Dense(4)(x)


            @partial(jax.jit, static_argnums=(0,))
            def step(model, params, x):
                return model.apply(params, x)


            def train_step(model, params, x):
                return model.apply(params, x)


            def main(params, x):
                model = NerfModel(embeddings={"warp": [0, 1]})
                step(model, params, x)
                p = jax.pmap(train_step, static_broadcasted_argnums=(0,))
                p(model, params, x)
            """,
            expected=[(28, 10), (30, 7)],
            messages=[
                'An instance of the flax Module `NerfModel` whose field `embeddings` is a dict (a flax Module hashes its fields) is passed to `step` in a static position (parameter `model`; static_argnums=0): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)',
                'An instance of the flax Module `NerfModel` whose field `embeddings` is a dict (a flax Module hashes its fields) is passed to `p` in a static position (parameter `model`; static_broadcasted_argnums=0): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)',
            ],
        ),
        # through a transformation of the jitted function: `jax.grad`/`value_and_grad` pass the
        # call's arguments on (a NumPy array in a static slot; a differentiated one is a
        # tracer), `jax.vmap` maps them (a tracer), also after `functools.partial`
        Invalid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp
            import numpy as np


            @partial(jax.jit, static_argnums=(1,))
            def loss(w, data):
                return jnp.sum((data @ w) ** 2)


            @partial(jax.jit, static_argnames=("n",))
            def power(x, n):
                return x ** n


            def fit(w):
                data = np.random.normal(0.0, 1.0, size=(8, 3))
                return jax.value_and_grad(loss)(w, data)


            def batched(xs):
                return jax.vmap(power, in_axes=(None, 0))(2.0, xs)


            def twice(w, data_tuple):
                return jax.grad(loss, argnums=(0, 1))(w, data_tuple)
            """,
            expected=[(20, 40), (24, 52), (28, 46)],
            messages=[
                'A NumPy array (`data` is bound to `np.random.normal(0.0, 1.0, size=(8, 3))`) is passed through `jax.value_and_grad` to `loss` in a static position (parameter `data`; static_argnums=1): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)',
                "A tracer (`jax.vmap` maps the call's argument 1) is passed through `jax.vmap` to `power` in a static position (parameter `n`; static_argnames='n'): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
                "A tracer (`jax.grad` differentiates the call's argument 1) is passed through `jax.grad` to `loss` in a static position (parameter `data`; static_argnums=1): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
            ],
        ),
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
                "A JAX array (`w` is bound to `jnp.ones(3)` on line 9) is passed to `scale_jit` in a static position (parameter `table`; static_argnames=('table', 'opts')): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
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
                "An instance of the dataclass `Opts` (`@dataclass` with eq=True and neither frozen=True nor unsafe_hash=True sets `__hash__` to None) is passed to `f` in a static position (parameter `c`; static_argnums=1): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, declare the dataclass `frozen=True` (it then hashes by its fields, which must be hashable themselves)",
                "An instance of the dataclass `C` whose field `x` is a NumPy array (its hash hashes every field) is passed to `f` in a static position (parameter `c`; static_argnums=1): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
            ],
        ),
        # a jit of an imported function (no signature here): static_argnums counts the call's positional arguments, static_argnames its keywords
        Invalid(
            """
            import functools

            import jax
            import jax.numpy as jnp
            from ops import apply

            apply_jit = jax.jit(apply, static_argnums=1)
            apply_jit(jnp.ones(3), jnp.arange(3))
            jax.jit(functools.partial(apply, 2.0), static_argnames="opts")(jnp.ones(3), opts=[1, 2])
            """,
            expected=[(8, 24), (9, 82)],
            messages=[
                "A JAX array is passed to `apply_jit` in a static position (argument 1; static_argnums=1): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
                "A list is passed to `jax.jit(functools.partial(apply, 2.0), static_argnames=\"opts\")` in a static position (parameter `opts`; static_argnames='opts'): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass a tuple",
            ],
        ),
        # a dict bound to a name, or returned by a helper of the file
        Invalid(
            """
            import functools

            import jax
            import jax.numpy as jnp


            @functools.partial(jax.jit, static_argnames="cfg")
            def step(x, cfg):
                return x * cfg["scale"]


            def default_cfg():
                return {"scale": 2.0}


            if __name__ == "__main__":
                cfg = {"scale": 3.0}
                step(jnp.ones(3), cfg=cfg)
                step(jnp.ones(3), cfg=default_cfg())
            """,
            expected=[(18, 27), (19, 27)],
            messages=[
                "A dict (`cfg` is bound to `{\"scale\": 3.0}`) is passed to `step` in a static position (parameter `cfg`; static_argnames='cfg'): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
                "A dict (what `default_cfg` returns) is passed to `step` in a static position (parameter `cfg`; static_argnames='cfg'): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
            ],
        ),
        # `jax.partial` (functools.partial, exported by JAX until 0.2.21) binding the jit's static_argnums: a tracer from the scan body
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            from jax import jit


            @jax.partial(jit, static_argnums=(1,))
            def power(x, k):
                return x ** k


            @jit
            def body(carry, x):
                k = carry["k"]
                return carry, power(x, k)
            """,
            expected=[(14, 28)],
            messages=[
                "A tracer is passed to `power` in a static position (parameter `k`; static_argnums=1): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
            ],
        ),
        # instances whose hash reads their fields: a class hashing a JAX array attribute, called with itself static (`self`, static_argnums=0); the static half of `eqx.partition` of a Module with a list field
        Invalid(
            """
            from functools import partial

            import equinox as eqx
            import jax
            import jax.numpy as jnp


            class Scaler:
                def __init__(self, w, on):
                    self.w = w
                    self.on = on

                @partial(jax.jit, static_argnums=0)
                def __call__(self, x):
                    return self.w * x if self.on else x

                def __hash__(self):
                    return hash((self.w, self.on))


            class Net(eqx.Module):
                sizes: list

                def __call__(self, x):
                    return x


            @partial(jax.jit, static_argnums=1)
            def run(x, net):
                return net(x)


            scaler = Scaler(jnp.array(2.0), True)
            scaler(jnp.ones(3))
            net = Net([3, 3])
            params, static = eqx.partition(net, eqx.is_array)
            run(jnp.ones(3), static)
            """,
            expected=[(34, 1), (37, 18)],
            messages=[
                "An instance of `Scaler` whose `__hash__` hashes `self.w`, a JAX array, is passed to `scaler` in a static position (parameter `self`; static_argnums=0): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
                "A half of `eqx.partition(net, ...)`, an instance of the equinox Module `Net` whose field `sizes` is a list (a Module hashes its fields), is passed to `run` in a static position (parameter `net`; static_argnums=1): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
            ],
        ),
        # held in a config object: a dataclass field, an attribute `__init__` sets from its parameter
        Invalid(
            """
            import dataclasses
            from functools import partial

            import jax
            import jax.numpy as jnp


            @dataclasses.dataclass(frozen=True)
            class Config:
                layers: list
                act: str = "relu"


            class Options:
                def __init__(self, table, scale):
                    self.table = table
                    self.scale = scale


            @partial(jax.jit, static_argnums=1)
            def mlp(x, layers):
                return x * len(layers)


            config = Config([64, 64])
            options = Options(jnp.arange(3), 2.0)
            mlp(jnp.ones(3), config.layers)
            mlp(jnp.ones(3), options.table)
            """,
            expected=[(27, 18), (28, 18)],
            messages=[
                "A list (`config.layers`: `Config(...)` was given it for `layers`) is passed to `mlp` in a static position (parameter `layers`; static_argnums=1): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass a tuple",
                "A JAX array (`options.table`: `Options(...)` was given it for `table`) is passed to `mlp` in a static position (parameter `layers`; static_argnums=1): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
            ],
        ),
        # bound by `functools.partial` to a jitted function: every call of the partial passes it on
        Invalid(
            """
            import functools

            import jax
            import jax.numpy as jnp


            @functools.partial(jax.jit, static_argnames=("cfg",))
            def step(x, cfg):
                return x * cfg["lr"]


            def run(x):
                cfg = {"lr": 0.1}
                train = functools.partial(step, cfg=cfg)
                return train(x)


            lr_step = functools.partial(step, jnp.ones(3), {"lr": 0.1})
            """,
            expected=[(14, 41), (18, 48)],
            messages=[
                "A dict (`cfg` is bound to `{\"lr\": 0.1}`) is passed by `functools.partial` to `step` in a static position (parameter `cfg`; static_argnames='cfg'): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
                "A dict is passed by `functools.partial` to `step` in a static position (parameter `cfg`; static_argnames='cfg'): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
            ],
        ),
        # an attribute every instance holds a list/dict in: set once by `__init__`, read
        # through `self` in a method or through an instance built in the caller
        Invalid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp


            @partial(jax.jit, static_argnums=(1,))
            def pad_to(x, dims):
                return jnp.zeros(dims) + x


            def scale(x, cfg):
                return x * cfg["s"]


            scale_jit = jax.jit(scale, static_argnames="cfg")


            class Trainer:
                def __init__(self, s):
                    self.shape = [2, 2]
                    self.cfg = dict(s=s)

                def step(self, x):
                    return scale_jit(pad_to(x, self.shape), cfg=self.cfg)


            def run(x):
                t = Trainer(2.0)
                return pad_to(x, t.shape)
            """,
            expected=[(25, 36), (25, 53), (30, 22)],
            messages=[
                "A list (`self.shape`: `Trainer.__init__` sets it to `[2, 2]`) is passed to `pad_to` in a static position (parameter `dims`; static_argnums=1): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass a tuple",
                "A dict (`self.cfg`: `Trainer.__init__` sets it to `dict(s=s)`) is passed to `scale_jit` in a static position (parameter `cfg`; static_argnames='cfg'): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)",
                "A list (`t.shape`: `Trainer.__init__` sets it to `[2, 2]`) is passed to `pad_to` in a static position (parameter `dims`; static_argnums=1): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass a tuple",
            ],
        ),
        # a wrapper's default, a list, passed on to the static position by a call that leaves it out
        Invalid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp


            @partial(jax.jit, static_argnums=(1,))
            def pad_to(x, dims):
                return jnp.zeros(dims) + x


            def run(x, dims=[2, 2]):
                return pad_to(x, dims)


            y = run(jnp.ones(2))
            """,
            expected=[(13, 22)],
            messages=[
                "A list (`dims`'s default `[2, 2]`: a call of `run` leaves it out) is passed to `pad_to` in a static position (parameter `dims`; static_argnums=1): static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are not supported. Instead, pass a tuple",
            ],
        ),
        # a tracer given to a static argument of JAX's own jitted functions: in traced code
        # (a traced parameter), and through `jax.jit` of the function itself (checked with JAX:
        # ValueError: Non-hashable static arguments are not supported)
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            @jax.jit
            def band(x, k):
                return jnp.triu(x, k=k)


            norm_jit = jax.jit(jnp.linalg.norm)
            print(norm_jit(jnp.ones(3), ord=1))
            """,
            expected=[(7, 26), (11, 33)],
            messages=[
                "`k` of `jnp.triu` must be a Python value (JAX compiles it into the computation), but it is traced: it depends on the traced argument `k` of `band` (decorated with @jax.jit); this raises ValueError: Non-hashable static arguments are not supported. Compute it from Python values (constants, shapes); or, if `k` is a Python value, mark it static (static_argnums=1)",
                "`jax.jit(jnp.linalg.norm)` traces every argument it is not told is static, so `ord` of `jnp.linalg.norm` (here `1`) becomes a tracer; it must be a Python value (ValueError: Non-hashable static arguments are not supported). Mark it static (`jax.jit(jnp.linalg.norm, static_argnames='ord')`), or bind it first: `functools.partial(jnp.linalg.norm, ord=...)`",
            ],
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        for arg, message in call_findings(ctx, node, static_position=True):
            self.report(arg, message)  # a tracer in a static argument of JAX's own jit
        call, through = node, ""
        traced: dict[int, str] = {}
        if node.args and ctx.qualname(node.func) in apis.PARTIALS and not node.args[0].keyword \
                and not any(a.star for a in node.args):
            # `functools.partial(step_jit, cfg={...})`: every call of it passes them on
            call = node.with_changes(func=node.args[0].value, args=node.args[1:])
            through = " by `functools.partial`"
        elif isinstance(node.func, cst.Call):
            unwrapped = self._through_transform(node, traced)
            if unwrapped is not None:
                call, through = unwrapped
        info = ctx.jit_callee(call, static_only=True)
        if info is None:
            return
        if info.unit is None and info.site is not None and not through:
            self._into_static_sink(call, info)
        # a jitted method of a class of another module (`model.energy(x)`): the instance is
        # judged here; the other static arguments are told to that module (its decorator)
        imported_method = info.receiver is not None and info.site is None
        for a, position, pname in info.args(call):
            if imported_method and a.value is not info.receiver:
                continue
            if not info.is_static(position, pname):
                self._static_field(call, a.value, pname, position)
                continue
            what = traced.get(id(a)) or self._unhashable(a.value)
            if what is None:
                continue
            where = f"parameter `{pname}`" if pname else (f"argument {position}" if position is not None else "a static position")
            if what.startswith(("a list", "a set")):
                fix_hint = "pass a tuple"
            elif "neither frozen=True nor unsafe_hash=True" in what:
                # a plain dataclass is no pytree either: as a traced argument it raises
                # TypeError (not a valid JAX type); frozen, it hashes by its fields
                fix_hint = ("declare the dataclass `frozen=True` (it then hashes by its fields, "
                            "which must be hashable themselves)")
            else:
                fix_hint = "pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)"
            extra = _extra_positional(info, call)
            if extra is not None:
                # `create_empty_env(env_params, static_env_params)` for `def create_empty_env(static_env_params)`:
                # the value in the static position is an argument too many
                takes, passes = extra
                fix_hint = (
                    f"`{self.ctx.code(call.func)}` takes {takes} positional argument{'s' if takes != 1 else ''} "
                    f"but the call passes {passes} (TypeError once the static ones hash): pass only the "
                    f"arguments its signature names"
                )
            # where a name passed here was made (`grid = jnp.array(...)` a few lines up): the
            # value to change is there (one finding, at the call that raises)
            made, related = "", None
            if type(a.value) is cst.Name and not any(c in what for c in "(,`"):
                bound_to = bound_once(ctx.index, ctx.unit, a.value)
                if type(bound_to) is cst.Call and bound_to is not a.value:
                    code = ctx.code(bound_to).strip()
                    if len(code) > 60 or "\n" in code:
                        code = ctx.code(bound_to.func).strip() + "(...)"
                    made = f" (`{a.value.value}` is bound to `{code}` on line {{related_line}})"
                    related = bound_to
            self.report(
                a.value,
                f"{what[0].upper() + what[1:]}{made} is passed{through} to `{self.ctx.code(call.func)}` in a static "
                f"position ({where}; {info.label()}): static arguments must be hashable, so the "
                f"call raises ValueError: Non-hashable static arguments are not supported. "
                f"Instead, {fix_hint}",
                related=related,
            )

    # transformations that call the function they wrap with the call's own arguments, in
    # order: (which arguments they turn into tracers)
    _GRADS = frozenset({"jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.jacobian",
                        "jax.hessian"})

    def _through_transform(self, node: cst.Call, traced: dict[int, str]):
        """``jax.grad(loss)(r, x, y)``, ``jax.vmap(partial(map_row, alpha, T))(xs)``: the
        call that reaches the wrapped function (the arguments ``partial`` binds first,
        then the call's own), and how it was reached; ``traced`` gets the arguments the
        transformation turns into tracers (the ones it differentiates or maps). None
        when the wrapped function or what the transformation traces is not known."""
        ctx = self.ctx
        outer = node.func
        q = ctx.qualname(outer.func)
        if (q not in self._GRADS and q != "jax.vmap") or any(a.star for a in (*outer.args, *node.args)):
            return None
        pos = [a for a in outer.args if a.keyword is None]
        if not pos:
            return None
        fn = pos[0].value
        args = list(node.args)
        n_pos = sum(1 for a in args if a.keyword is None)
        mapped: Optional[set[int]]
        if q == "jax.vmap":
            spec = next((a.value for a in outer.args if a.keyword is not None and a.keyword.value == "in_axes"),
                        pos[1].value if len(pos) > 1 else None)
            mapped = _axes(spec, n_pos)
            verb = "maps"
        else:
            spec = next((a.value for a in outer.args if a.keyword is not None and a.keyword.value == "argnums"),
                        pos[1].value if len(pos) > 1 else None)
            mapped = _argnums(spec)
            verb = "differentiates"
        if mapped is None and isinstance(spec, cst.Name):
            # `axis = 0` ... `vmap(f, axis)`: a name its scope binds once
            bound_to = bound_once(ctx.index, ctx.unit, spec)
            if bound_to is not None and bound_to is not spec:
                mapped = _axes(bound_to, n_pos) if q == "jax.vmap" else _argnums(bound_to)
        if mapped is None:
            return None
        short = ctx.code(outer.func).strip()
        bound: list[cst.Arg] = []
        through = f" through `{short}`"
        if isinstance(fn, cst.Call) and ctx.qualname(fn.func) in apis.PARTIALS:
            inner = [a for a in fn.args if a.keyword is None]
            if not inner or any(a.star for a in fn.args):
                return None
            bound = [a for a in fn.args if a is not inner[0]]
            fn = inner[0].value
            through = f" through `{short}` of `functools.partial`"
        i = 0
        for a in args:
            if a.keyword is None:
                if i in mapped and not isinstance(a.value, (cst.Integer, cst.Float, cst.SimpleString)):
                    # (a number mapped or differentiated fails earlier, with another error)
                    traced[id(a)] = f"a tracer (`{short}` {verb} the call's argument {i})"
                i += 1
            elif q == "jax.vmap" and not isinstance(a.value, (cst.Integer, cst.Float, cst.SimpleString)):
                traced[id(a)] = f"a tracer (`{short}` maps the keyword `{a.keyword.value}`)"
        bound_pos = [a for a in bound if a.keyword is None]
        bound_kw = [a for a in bound if a.keyword is not None]
        own_pos = [a for a in args if a.keyword is None]
        own_kw = [a for a in args if a.keyword is not None]
        return cst.Call(func=fn, args=[*bound_pos, *own_pos, *bound_kw, *own_kw]), through

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
        if isinstance(e, cst.IfExp) and depth < 4:
            # `dict(cfg["kw"]) if "kw" in cfg else {}`: whichever branch runs, the same kind
            body, orelse = self._unhashable(e.body, depth + 1), self._unhashable(e.orelse, depth + 1)
            if body is not None and orelse is not None and body.split(" (")[0] == orelse.split(" (")[0]:
                return body.split(" (")[0]
            return None
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
                if q in _NP_ARRAY_MAKERS or _np_random_array(q, e):
                    return "a NumPy array"
                if q.startswith("jax.numpy.") and ctx.value(e).kind == V.ARRAY:
                    return "a JAX array"
            return self._helper_result(e)
        if isinstance(e, cst.Name):
            v = ctx.value(e)
            if v.kind == V.LIST and v.elements is not None:
                return "a list"
            if v.kind == V.ARRAY and v.local_array:
                return "a JAX array"
            passed = self._passed_kind(e.value, v)
            if passed is not None:
                return passed
            if depth < 4:
                state = self._every_binding(e, depth)
                if state is not None:
                    return state
                bound = self._bound(e)
                if bound is not None:
                    what = self._unhashable(bound, depth + 1)
                    if what is not None:
                        return what if isinstance(bound, (cst.Name, cst.Attribute)) or " (" in what \
                            else f"{what} (`{e.value}` is bound to `{_short(ctx.code(bound))}`)"
            return self._imported_display(e) or self._unpacked_display(e) or self._from_callers(e.value)
        if isinstance(e, cst.Attribute) and depth < 4:
            return self._constructor_arg(e, depth) or self._init_field(e) or self._imported_display(e) \
                or self._class_attribute(e)
        return None

    def _passed_kind(self, name: str, v: V.Value) -> Optional[str]:
        """``name`` is a parameter of the (untraced) function making the call, passed on
        unchanged, to which every call of that function (in this file and in the other
        modules of the project: model/kinds.py) passes a concrete JAX array, a NumPy
        array or a PRNG key: ``steps_before_u_turn(step, np.array([1.0, 0.5]), ...)`` in
        main.py reaching ``is_u_turn(initial_position, ...)`` with ``initial_position``
        static."""
        unit = self.ctx.unit
        what = _PASSED.get(v.kind)
        if what is None or v.traced or self.ctx.in_traced or unit.param(name) is None or name in unit.assigned \
                or unit.arg_kinds.get(name) != v.kind:
            return None
        return f"{what} (every call of `{unit.name}` passes one for `{name}`)"

    def _unpacked_display(self, e: cst.Name) -> Optional[str]:
        """``params`` of ``params, memory = init_strategy(...)``, the one binding of the
        name in its scope, where every return of the helper (of this file, or of another
        module of the project: its ``displays:`` fact, model/kinds.py) is a tuple with a
        list/dict/set display, or a local bound once to one, at that position."""
        ctx = self.ctx
        scope = ctx.unit
        while scope is not None and not scope.is_module and e.value not in scope.assigned \
                and scope.param(e.value) is None:
            scope = scope.parent
        if scope is None or (not scope.is_module and scope.param(e.value) is not None):
            return None
        bound = writes(scope.node, e.value)
        if len(bound) != 1 or not isinstance(bound[0], cst.Assign) or len(bound[0].targets) != 1:
            return None
        assign = bound[0]
        target = assign.targets[0].target
        call = assign.value
        if not isinstance(target, (cst.Tuple, cst.List)) or not isinstance(call, cst.Call) \
                or any(isinstance(el, cst.StarredElement) for el in target.elements):
            return None
        at = next((i for i, el in enumerate(target.elements)
                   if isinstance(el.value, cst.Name) and el.value.value == e.value), None)
        if at is None:
            return None
        written = dotted_name(call.func)
        fact = called_return_fact(ctx.index, ctx.local, ctx.value, call, kinds.display_elements)
        if fact is None or not fact.startswith(kinds.DISPLAYS):
            return None
        n, _, held = fact[len(kinds.DISPLAYS):].partition(":")
        if not n.isdigit() or int(n) != len(target.elements):
            return None
        for item in held.split(","):
            i, _, what = item.partition("=")
            if i.isdigit() and int(i) == at:
                return f"a {what} (`{e.value}` is unpacked from what `{written or ctx.code(call.func)}` returns)"
        return None

    def _imported_display(self, e: cst.BaseExpression) -> Optional[str]:
        """``PARAMS`` imported from another module of the project (``from env import
        PARAMS``, or ``env.PARAMS``) that binds it once to a list/dict/set display there
        (``values`` facts, ``model/kinds.py`` ``display_constants``)."""
        ctx = self.ctx
        if not ctx.index.imported_values:
            return None
        written = dotted_name(e)
        known = ctx.index.imported_values.get(written) if written is not None else None
        if known is None or "display" not in known or ctx.local(written.split(".", 1)[0]) is not None:
            return None
        return f"a {known['display']} (`{written}`, a module-level {known['display']} of another module of the project)"

    def _class_attribute(self, e: cst.Attribute) -> Optional[str]:
        """``Config.LAYERS`` (or ``self.LAYERS`` in a method of ``Config``) where the class
        ``Config`` of this file binds ``LAYERS`` once in its body to a list/dict/set
        display, and no statement of the file assigns ``.LAYERS``."""
        ctx = self.ctx
        if not isinstance(e.value, cst.Name):
            return None
        owner = e.value.value
        if owner == "self":
            cls = ctx.unit.cls if ctx.unit.params and ctx.unit.params[0].name == "self" else None
        else:
            cls = None
            if ctx.unit.param(owner) is None and (ctx.unit.is_module or owner not in ctx.unit.assigned):
                cls = next((c for c in ctx.index.classes if c.name == owner
                            and any(n is c.node for n in ctx.module.body)), None)
        if cls is None or not any(n is cls.node for n in ctx.module.body):
            return None
        attr = e.attr.value
        if any(w[1] == attr for w in self._attribute_writes()):
            return None  # assigned somewhere (`self.LAYERS = ...`, `Config.LAYERS = ...`)
        if owner == "self" and any(c is not cls and _binds_in_body(c.node, attr) for c in ctx.index.classes):
            return None  # another class binds it too: `self` may be a subclass overriding it
        value = None
        for stmt in cls.node.body.body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, cst.Assign) and any(
                            isinstance(t.target, cst.Name) and t.target.value == attr for t in small.targets):
                        if value is not None:
                            return None
                        value = small.value
                    elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) \
                            and small.target.value == attr:
                        if value is not None:
                            return None
                        value = small.value
            elif isinstance(stmt, cst.FunctionDef) and stmt.name.value == attr:
                return None
        what = _display(value) if value is not None else None
        if what is None:
            return None
        if cls.bases or any(d for d in cls.node.decorators):
            # a dataclass field's default, or a base that may rebind it: only a plain class
            return None
        return f"{what} (`{ctx.code(e).strip()}`: the class `{cls.name}` binds `{attr}` to `{_short(ctx.code(value))}`)"

    def _init_field(self, e: cst.Attribute) -> Optional[str]:
        """``self.cfg`` in a method (or ``m.cfg`` with ``m`` bound once to ``Model(...)``)
        of a class of this file whose ``__init__`` sets that attribute, once, to a
        list/dict/set display or a NumPy array, and that nothing else assigns: what
        every instance holds there."""
        ctx = self.ctx
        if not isinstance(e.value, cst.Name):
            return None
        owner = e.value.value
        info = None
        if owner == "self" and ctx.unit.cls is not None and ctx.unit.params and ctx.unit.params[0].name == "self":
            info = ctx.unit.cls
            if not any(n is info.node for n in ctx.module.body):
                return None  # a class nested in a function: its instances are less known
        else:
            call = bound_once(ctx.index, ctx.unit, e.value)
            info = self._local_class(call) if call is not None and call is not e.value else None
        if info is None:
            return None
        if any(w[1] == e.attr.value and w[0] != "self" for w in self._attribute_writes()):
            return None  # set from outside the class (`trainer.cfg = ...`)
        value = attribute_value(info.node, e.attr.value)
        if value is None:
            return None
        what = _display(value)
        if what is None and isinstance(value, cst.Call):
            b = ctx.builtin_name(value.func)
            if b in ("list", "dict", "set"):
                what = f"a {b}"
            else:
                q = ctx.qualname(value.func)
                if q is not None and (q in _NP_ARRAY_MAKERS or _np_random_array(q, value)):
                    what = "a NumPy array"
        if what is None:
            return None
        return f"{what} (`{ctx.code(e).strip()}`: `{info.name}.__init__` sets it to `{_short(ctx.code(value))}`)"

    _OPTIMIZER_LIBS = ("jax.example_libraries.optimizers.", "jax.experimental.optimizers.")
    # optax optimizers whose state holds arrays (a step count, moments): unhashable
    _OPTAX_STATEFUL = frozenset({"adam", "adamw", "adamax", "adamaxw", "nadam", "nadamw", "radam", "rmsprop",
                                 "adagrad", "adabelief", "lamb", "lion", "yogi", "amsgrad", "novograd",
                                 "adadelta", "adafactor"})

    def _every_binding(self, e: cst.Name, depth: int) -> Optional[str]:
        """A name its scope binds more than once (``opt_state = opt_init(x)``, then
        ``opt_state = step_jit(..., opt_state)`` in a loop), each binding an optimizer
        state or the output of a jitted function (arrays): what the first one is."""
        ctx = self.ctx
        u = scope_of(ctx.index, ctx.unit, e.value)
        if u is None or u.is_module or ctx.unit.param(e.value) is not None:
            return None
        ws = writes(u.node, e.value)
        if len(ws) < 2:
            return None
        first = None
        for w in ws:
            if not isinstance(w, cst.Assign) or len(w.targets) != 1:
                return None
            target = w.targets[0].target
            if isinstance(target, cst.Tuple) and any(
                    isinstance(el.value, cst.Name) and el.value.value == e.value and not isinstance(el, cst.StarredElement)
                    for el in target.elements):
                # `params, state = step_jit(...)`: a part of a jitted function's output
                what = self._array_state(w.value, u, jit_only=True)
                if what is None:
                    return None
                first = first or what
                continue
            if not isinstance(target, cst.Name):
                return None
            what = self._array_state(w.value, u)
            if what is None:
                return None
            first = first or what
        return first

    def _array_state(self, value: cst.BaseExpression, scope, jit_only: bool = False) -> Optional[str]:
        """``opt_init(x)`` of ``opt_init, opt_update, get_params = optimizers.adam(...)``
        (lists of arrays), ``tx.init(params)`` of ``tx = optax.adam(...)``, or a call of a
        jitted function of this file that returns something (arrays): what it is."""
        ctx = self.ctx
        if not isinstance(value, cst.Call):
            return None
        func = value.func
        if jit_only:
            info = ctx.jit_callee(value, static_only=True) if isinstance(func, cst.Name) else None
            unit = info.unit if info is not None else None
            return f"a part of the output of the jitted `{func.value}` (arrays)" if unit is not None and unit.returns \
                and not any(r is None for r in unit.returns) else None
        if isinstance(func, cst.Name):
            for w in writes(scope.node, func.value):
                if isinstance(w, cst.Assign) and len(w.targets) == 1 and isinstance(w.targets[0].target, cst.Tuple) \
                        and isinstance(w.value, cst.Call):
                    els = w.targets[0].target.elements
                    q = ctx.qualname(w.value.func) or ""
                    if els and isinstance(els[0].value, cst.Name) and els[0].value.value == func.value \
                            and q.startswith(self._OPTIMIZER_LIBS):
                        return f"an optimizer state (`{func.value}(...)` of `{ctx.code(w.value.func).strip()}`: lists of arrays)"
            info = ctx.jit_callee(value)
            unit = info.unit if info is not None else None
            if unit is not None and unit.returns and not any(
                    r is None or (isinstance(r, cst.Name) and r.value == "None") for r in unit.returns):
                return f"the output of the jitted `{func.value}` (arrays)"
            return None
        if isinstance(func, cst.Attribute) and func.attr.value == "init" and isinstance(func.value, cst.Name):
            made = bound_once(ctx.index, ctx.unit, func.value)
            q = ctx.qualname(made.func) if isinstance(made, cst.Call) else None
            if q is not None and q.startswith("optax.") and q.rsplit(".", 1)[1] in self._OPTAX_STATEFUL:
                return f"an optax optimizer state (`{ctx.code(func).strip()}(...)` of `{ctx.code(made.func).strip()}`: arrays)"
        return None

    _STATIC_FIELD_CLASSES = ("flax.struct.dataclass", "flax.struct.PyTreeNode")
    # what makes a class's `static=True`/`pytree_node=False`/`metadata={"static": True}`
    # fields part of its tree structure: a decorator, or a base
    _STATIC_FIELD_DECORATORS = frozenset({"flax.struct.dataclass", "jax.tree_util.register_dataclass",
                                          "jax.tree.register_dataclass"})
    _STATIC_FIELD_BASES = frozenset({"equinox.Module", "flax.struct.PyTreeNode"})
    # annotations that admit arrays only (not `ArrayLike`/`chex.Array`, which admit numbers)
    _ARRAY_ONLY = frozenset({"jax.Array", "jax.numpy.ndarray", "jaxtyping.Array", "numpy.ndarray"})

    def _array_annotation(self, ann: cst.BaseExpression) -> Optional[str]:
        """``jax.Array``, ``np.ndarray``, ``Float[Array, "n"]``: how it is written."""
        ctx = self.ctx
        e = ann
        if isinstance(e, cst.Subscript):
            q = ctx.qualname(e.value)
            if q not in apis.JAXTYPING_DTYPES or not e.slice or not isinstance(e.slice[0].slice, cst.Index):
                return None
            e = e.slice[0].slice.value
        if isinstance(e, cst.SimpleString):
            return None
        q = ctx.qualname(e) if isinstance(e, (cst.Name, cst.Attribute)) else None
        return ctx.code(ann).strip() if q in self._ARRAY_ONLY else None

    def _static_declarations(self, info) -> dict[str, cst.AnnAssign]:
        """The fields a pytree class declares static (``eqx.field(static=True)``,
        ``struct.field(pytree_node=False)``, ``dataclasses.field(metadata={"static":
        True})`` under ``jax.tree_util.register_dataclass``): name -> declaration."""
        ctx = self.ctx
        node = info.node
        decorated = False
        for d in node.decorators:
            dec = d.decorator
            q = ctx.qualname(dec.func if isinstance(dec, cst.Call) else dec)
            if q in apis.PARTIALS and isinstance(dec, cst.Call) and dec.args:
                q = ctx.qualname(dec.args[0].value)
            if q in self._STATIC_FIELD_DECORATORS:
                decorated = True
        if not decorated and not any(b in self._STATIC_FIELD_BASES for b in info.bases):
            return {}
        out: dict[str, cst.AnnAssign] = {}
        for stmt in node.body.body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) \
                            and isinstance(small.value, cst.Call) and declares_static(small.value):
                        out[small.target.value] = small
        return out

    def _may_be_jitted(self, info) -> bool:
        """A class of the module may be jitted by whoever imports it.  A class local to
        a function (a test's fixture) lives only there: only when that function (or a
        function nested in it) applies a transformation, or calls a function of the file
        that is jitted, can its instances reach a jit."""
        scope = info.scope
        if scope is None or scope.is_module:
            return True
        index = self.ctx.index

        def inside(u) -> bool:
            while u is not None:
                if u is scope:
                    return True
                u = u.parent
            return False

        if any(inside(site.scope) for site in index.sites):
            return True
        for n in walk_tree(scope.node):
            if type(n) is cst.Call and type(n.func) is cst.Name:
                target = scope.lookup_def(n.func.value)
                if target is not None and target.jit_root:
                    return True
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        """``@partial(jax.jit, static_argnums=(0, 2)) def is_u_turn(...)`` whose static
        parameters calls in other modules give JAX or NumPy arrays (model/calls.py, routed
        by jaxlint/project/facts.py): the declaration is reported too, in the file that
        holds it, naming the modules whose calls raise."""
        ctx = self.ctx
        unit = ctx.index.unit_of.get(id(node))
        if unit is None or not unit.static_given:
            return
        for d in node.decorators:
            info = ctx.jit_declaration(d.decorator)
            if info is None or info.unit is not unit:
                continue
            self._report_given(d.decorator, unit.name, info, unit.static_given)

    def _into_static_sink(self, call: cst.Call, info) -> None:
        """``fit_jit(x, 3)`` with ``fit_jit = jax.jit(pcax_lite.fit)``: a jit of a function
        of another module that hands its parameter ``n_components``, unchanged, to a
        static parameter of a jit of its own module (facts ``static_sinks``,
        engine/project.py).  This jit does not declare it static, so it traces it: the
        inner jit receives a tracer in a static position, and the call raises."""
        ctx = self.ctx
        sinks = ctx.index.imported_static_sinks
        fn = info.site.fn_expr
        written = dotted_name(fn) if sinks else None
        known = sinks.get(written) if written is not None else None
        if known is None or ctx.lookup(written.split(".", 1)[0]) is not None:
            return
        positional = [p[0] for p in known["params"] if p[1] in ("pos", "posonly")]
        kinds_of = {p[0]: p[1] for p in known["params"]}
        passed: dict[str, cst.Arg] = {}
        for i, a in enumerate(call.args):
            if a.star:
                return  # (what a `*args` fills is unknown)
            if a.keyword is None:
                if i < len(positional):
                    passed[positional[i]] = a
            elif kinds_of.get(a.keyword.value) in ("pos", "kwonly"):
                passed[a.keyword.value] = a
        if any(p in passed for p in known.get("when", {})):
            return  # the call picks another branch than the one that hands it on
        if (info.static_nums_node is not None and info.static_nums is None) \
                or (info.static_names_node is not None and info.static_names is None):
            return  # declared static, but not as literals
        nums, names = info.static_nums or [], info.static_names or []
        if any(k < 0 for k in nums):
            return
        for param, (inner, inner_param, label) in sorted(known["sinks"].items()):
            a = passed.get(param)
            if a is None:
                continue
            position = positional.index(param) if param in positional else None
            if param in names or (position is not None and position in nums):
                continue  # (jit maps names and positions through the signature)
            hint = (f"static_argnums={position}" if position is not None and a.keyword is None
                    else f"static_argnames='{param}'")
            self.report(
                a.value,
                f"`{ctx.code(a.value).strip()}` is passed to `{ctx.code(call.func).strip()}` for `{param}`: that jit "
                f"of `{written}` traces it, and `{written}` hands it to `{inner}`, which declares "
                f"`{inner_param}` static ({label}): a tracer in a static position raises ValueError: "
                f"Non-hashable static arguments are not supported. Instead, declare it static where "
                f"`{written}` is jitted ({hint})",
            )

    def _report_given(self, where: cst.CSTNode, name: str, info, static_given: dict) -> None:
        """The jit declaration ``where`` of ``name`` (a decorator, or the ``jax.jit(...)``
        a module-level name is bound to), whose static parameters calls in other
        modules give unhashable values (``static_given``: param -> [[kind, path], ...])."""
        positional = [p.name for p in info.unit.positional()]
        given = [(p, gs) for p, gs in sorted(static_given.items(), key=lambda pg: (
            positional.index(pg[0]) if pg[0] in positional else len(positional), pg[0]))
            if info.is_static(positional.index(p) if p in positional else None, p)]
        if not given:
            return
        names = ", ".join(f"`{p}`" for p, _ in given)
        parts = []
        for p, gs in given:
            whats = sorted({_PASSED.get(k, "an array") for k, _ in gs})
            paths = sorted({path for _, path in gs})
            parts.append(f"{' or '.join(whats)} for `{p}` (a call in {', '.join(paths)})")
        self.report(
            where,
            f"`{name}` declares {names} static ({info.label()}), but other modules pass "
            f"{'; '.join(parts)}: static arguments must be hashable, so those calls raise "
            f"ValueError: Non-hashable static arguments are not supported. Instead, leave "
            f"{'them' if len(given) > 1 else 'it'} out of the static arguments (traced), or pass a "
            f"hashable value (tuple, int, str)",
        )

    def visit_Assign(self, node: cst.Assign) -> None:
        """``self.data = jr.uniform(...)`` in the ``__init__`` of a pytree class whose
        ``data`` is declared static: remembered for ``finish``.  And a module-level
        ``ask = jit(ask_cma_strategy, static_argnums=2)`` whose static parameters calls
        in other modules give unhashable values: reported at the ``jit(...)``, as a
        decorator is."""
        unit = self.ctx.unit
        bound = self.ctx.index.static_given_bound
        if bound and unit.is_module and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name) \
                and node.targets[0].target.value in bound:
            info = self.ctx.jit_declaration(node.value)
            if info is not None and info.unit is not None and info.checked:
                self._report_given(node.value, node.targets[0].target.value, info, bound[node.targets[0].target.value])
        if unit.name != "__init__" or unit.cls is None or len(node.targets) != 1:
            return
        t = node.targets[0].target
        if not (isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self"):
            return
        kind = self.ctx.value(node.value).kind
        if kind in (V.ARRAY, V.NPARRAY):
            made = getattr(self, "_init_arrays", None)
            if made is None:
                made = self._init_arrays = {}
            made.setdefault((id(unit.cls.node), t.attr.value), (node.value, kind))

    def finish(self) -> None:
        """A pytree class field declared static that holds an array: annotated as one
        (``data: jax.Array = eqx.field(static=True)``) or set to one by ``__init__``.
        Reported at the declaration, whatever jits its instances (``jax.jit``,
        ``eqx.filter_jit``) and wherever they are built."""
        ctx = self.ctx
        made = getattr(self, "_init_arrays", None) or {}
        for info in ctx.index.classes:
            fields = self._static_declarations(info)
            if fields and not self._may_be_jitted(info):
                continue
            for name, decl in fields.items():
                ann = self._array_annotation(decl.annotation.annotation)
                if ann is not None:
                    what = f"is annotated `{ann}`"
                elif (id(info.node), name) in made:
                    value, kind = made[(id(info.node), name)]
                    what = (f"is set to {'a NumPy' if kind == V.NPARRAY else 'a JAX'} array by `__init__` "
                            f"(`self.{name} = {_short(ctx.code(value))}`)")
                else:
                    continue
                lib = "equinox Module" if "equinox.Module" in info.bases else "pytree class"
                warn = (" (equinox warns when an instance is built: A JAX array is being set as static!)"
                        if lib == "equinox Module" else "")
                self.report(
                    decl.target,
                    f"The static field `{name}` of the {lib} `{info.name}` "
                    f"(`{_short(ctx.code(decl.value))}`: part of the tree structure, not a leaf) {what}: "
                    f"jit hashes the static fields and compares them with `==` against the cached "
                    f"call's, so a second call with another instance raises ValueError: Exception raised "
                    f"while checking equality of metadata fields of pytree (arrays cannot be passed as "
                    f"metadata fields){warn}. Make the field a leaf (drop the static marker) or store a "
                    f"hashable value (a tuple, a number)",
                )

    def _static_field(self, call: cst.Call, e: cst.BaseExpression, pname: Optional[str], position) -> None:
        """An instance of a pytree class of this file (``@flax.struct.dataclass``, an
        ``equinox.Module``) passed to a jitted function, built with an unhashable value
        (an array, a list) in a field the class declares static (``struct.field(
        pytree_node=False)``, ``eqx.field(static=True)``): the static fields are part of
        the argument's tree structure, which jit hashes: the call raises."""
        ctx = self.ctx
        made = e
        if isinstance(e, cst.Name):
            made = self._bound(e)
        info = self._local_class(made) if made is not None else None
        if info is None:
            return
        node = info.node
        pytree = any(ctx.qualname(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator)
                     in self._STATIC_FIELD_CLASSES for d in node.decorators) \
            or any(b in ("equinox.Module", "flax.struct.PyTreeNode") for b in info.bases)
        if not pytree:
            return
        fields: list[str] = []
        static: set[str] = set()
        for stmt in node.body.body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                        fields.append(small.target.value)
                        if isinstance(small.value, cst.Call) and declares_static(small.value) \
                                and self._array_annotation(small.annotation.annotation) is None:
                            # (a field annotated as an array is reported at its declaration)
                            static.add(small.target.value)
            elif isinstance(stmt, cst.FunctionDef) and stmt.name.value == "__init__":
                return  # its own constructor: the arguments need not be the fields
        if not static:
            return
        i = 0
        for a in made.args:
            if a.keyword is None:
                field = fields[i] if i < len(fields) else None
                i += 1
            else:
                field = a.keyword.value
            if field not in static:
                continue
            what = self._unhashable(a.value, 1)
            if what is None or "array" not in what.split(" (", 1)[0]:
                continue  # a list compares by value: jit finds it again
            if not ctx.loop_stack and self._calls_of(ctx.code(call.func).strip()) < 2:
                continue  # one call: nothing to compare the structure with
            where = f"parameter `{pname}`" if pname else f"argument {position}"
            self.report(
                e,
                f"`{ctx.code(e).strip()}`, an instance of `{info.name}` whose static field `{field}` "
                f"(declared static: part of the tree structure, not a leaf) is {what}, is passed to "
                f"`{ctx.code(call.func).strip()}` ({where}): jit compares the static fields with the "
                f"cached call's, and `==` on arrays raises ValueError (arrays cannot be passed as "
                f"metadata fields). Make the field a leaf (drop `pytree_node=False`/`static=True`) "
                f"or store a hashable value (a tuple, a number)",
            )
            return

    def _calls_of(self, written: str) -> int:
        """How many calls in the file are written ``written(...)`` (once per file)."""
        counts = getattr(self, "_call_counts", None)
        if counts is None:
            counts = self._call_counts = {}
            for n in walk_tree(self.ctx.module):
                if isinstance(n, cst.Call):
                    name = dotted_name(n.func)
                    if name is not None:
                        counts[name] = counts.get(name, 0) + 1
        return counts.get(written, 0)

    def _local_class(self, call: cst.BaseExpression):
        """The class of this file (at module level) that ``call`` constructs, else None."""
        ctx = self.ctx
        if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Name) or any(a.star for a in call.args):
            return None
        if ctx.unit.lookup_def(call.func.value) is not None:
            return None
        return next((c for c in ctx.index.classes if c.name == call.func.value
                     and any(n is c.node for n in ctx.module.body)), None)

    def _attribute_writes(self) -> set[tuple[str, str]]:
        """(name, attribute) for every `name.attribute = ...` (or `+=`, `del`) of the
        file: an instance's field rebound after its constructor ran; and (name, "")
        for every name passed to a call (`freeze(config)` may rebind its fields)
        (once per file)."""
        found = getattr(self, "_writes", None)
        if found is None:
            found = self._writes = set()
            for n in walk_tree(self.ctx.module):
                t = type(n)
                if t is cst.Arg:
                    if type(n.value) is cst.Name:
                        found.add((n.value.value, ""))
                    continue
                if t is cst.Assign:
                    targets = [x.target for x in n.targets]
                elif t in (cst.AugAssign, cst.AnnAssign):
                    targets = [n.target]
                elif t is cst.Del:
                    targets = [n.target]
                else:
                    continue
                for target in targets:
                    for m in (target, *walk_tree(target)):
                        if type(m) is cst.Attribute and type(m.value) is cst.Name:
                            found.add((m.value.value, m.attr.value))
        return found

    def _constructor_arg(self, e: cst.Attribute, depth: int) -> Optional[str]:
        """``cfg.layers`` where ``cfg`` is bound once to ``Config(...)`` of a class of this
        file whose ``layers`` holds what the constructor was given (a dataclass field,
        ``self.layers = layers`` in ``__init__``): what that argument is."""
        ctx = self.ctx
        call = bound_once(ctx.index, ctx.unit, e.value) if isinstance(e.value, cst.Name) else None
        info = self._local_class(call) if call is not None and call is not e.value else None
        if info is None:
            return None
        found = attribute_param(info.node, ctx.qualname, e.attr.value)
        writes = self._attribute_writes()
        if found is None or (e.value.value, e.attr.value) in writes or (e.value.value, "") in writes:
            return None  # rebound after the constructor ran, or handed to a call that may
        params, param = found
        arg = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == param), None)
        if arg is None and param in params:
            pos = [a for a in call.args if a.keyword is None]
            i = params.index(param)
            arg = pos[i].value if i < len(pos) else None
        inner = self._unhashable(arg, depth + 1) if arg is not None else None
        if inner is None:
            return None
        return f"{inner} (`{ctx.code(e).strip()}`: `{info.name}(...)` was given it for `{param}`)"

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
        returned = called_return_fact(ctx.index, ctx.local, ctx.value, call)
        if returned is not None:
            # a helper of another module of the project (its return fact, model/kinds.py)
            written = dotted_name(call.func)
            if returned.startswith(DISPLAY):
                return f"a {returned[len(DISPLAY):]} (what `{written}` returns)"
            return None
        if not isinstance(call.func, cst.Name):
            return None
        v = ctx.value(call.func)
        unit = v.unit
        if v.kind != V.FUNCTION or unit is None or v.transform is not None \
                or not isinstance(unit.node, cst.FunctionDef) or unit.is_generator or unit.node.decorators:
            return None
        last = unit.node.body.body[-1] if unit.node.body.body else None
        if isinstance(last, cst.SimpleStatementLine):
            last = last.body[-1]
        if not isinstance(last, cst.Return):
            return None  # it may fall off its end and return None
        kinds = {_display(r) for r in unit.returns}
        if len(kinds) != 1:
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
        if not isinstance(call, cst.Call) or any(a.star for a in call.args):
            return None
        if isinstance(call.func, cst.Attribute):
            # `models.NerfModel(...)`: a class of another module of the project, through
            # the module imported here
            written = dotted_name(call.func)
            if written is None or ctx.lookup(written.split(".", 1)[0]) is not None:
                return None
            found = ctx.index.class_hash(written)
            how = Hashing(**found) if found else None
            name = written
            info = None
        elif not isinstance(call.func, cst.Name) or ctx.unit.lookup_def(call.func.value) is not None:
            return None
        else:
            info = self._local_class(call)
        if info is not None:
            how = class_hashing(info.node, info.bases, ctx.qualname)
            name = info.name
        elif isinstance(call.func, cst.Name):
            # a class another module of the project defines, imported here: its record
            found = ctx.index.class_hash(call.func.value) if ctx.lookup(call.func.value) is None else None
            how = Hashing(**found) if found else None
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
            if field is None or (isinstance(e, cst.Name) and (e.value, field) in self._attribute_writes()):
                continue
            inner = self._unhashable(a.value, depth + 1)
            if inner is None or (containers and not inner.startswith(("a list", "a dict", "a set"))):
                continue
            if how.kind == "dataclass":
                return f"an instance of the dataclass `{name}` whose field `{field}` is {inner} (its hash hashes every field)"
            if how.kind == "linen":
                return f"an instance of the flax Module `{name}` whose field `{field}` is {inner} (a flax Module hashes its fields)"
            if how.kind == "module":
                return f"an instance of the equinox Module `{name}` whose field `{field}` is {inner} (a Module hashes its fields)"
            return f"an instance of `{name}` whose `__hash__` hashes `self.{field}`, {inner},"
        for field, what in how.built.items():
            if containers and what not in ("a list", "a dict", "a set"):
                continue
            inner = f"{what} that `__init__` makes"
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
        if not isinstance(target, cst.Tuple) or len(target.elements) != 2 or not isinstance(value, cst.Call) \
                or not any(isinstance(el.value, cst.Name) and el.value.value == e.value for el in target.elements):
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
        param = unit.param(name)
        default = _display(param.default) if param is not None else None
        for n in calls.get(unit.name, ()):
            if any(a.star for a in n.args):
                continue
            arg = next((a.value for a in n.args if a.keyword is not None and a.keyword.value == name), None)
            if arg is None and index is not None:
                pos = [a for a in n.args if a.keyword is None]
                arg = pos[index].value if index < len(pos) else None
            if arg is None and default is not None:
                # the call leaves it out: the default, a list/dict/set display, is passed on
                return (f"{default} (`{name}`'s default `{_short(ctx.code(param.default))}`: a call of "
                        f"`{unit.name}` leaves it out)")
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


# what a call-site kind (model/kinds.py) is, where it cannot be hashed
_PASSED = {V.ARRAY: "a JAX array", V.NPARRAY: "a NumPy array", V.KEY: "a PRNG key",
           V.KEYS: "an array of PRNG keys", V.LIST: "a list or dict", "tracer": "a tracer"}


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


_NP_SIZED = frozenset({"rand", "randn", "permutation"})  # an array whenever given an argument


def _np_random_array(q: str, call: cst.Call) -> bool:
    """``np.random.randn(50, 3)``, ``np.random.normal(0, 1, size=(3,))``: a NumPy array
    (``np.random.normal()`` or ``randn()`` with no size is a float, hashable)."""
    if not q.startswith("numpy.random."):
        return False
    short = q[len("numpy.random."):]
    if short in _NP_SIZED:
        return any(a.keyword is None for a in call.args)
    return any(a.keyword is not None and a.keyword.value == "size"
               and not (isinstance(a.value, cst.Name) and a.value.value == "None") for a in call.args)


def _int(e: Optional[cst.BaseExpression]) -> Optional[int]:
    if isinstance(e, cst.Integer):
        return int(e.value)
    return None


def _argnums(spec: Optional[cst.BaseExpression]) -> Optional[set[int]]:
    """What ``argnums`` differentiates: 0 by default, an int, a tuple of ints; None unknown."""
    if spec is None:
        return {0}
    if _int(spec) is not None:
        return {_int(spec)}  # type: ignore[arg-type]
    if isinstance(spec, (cst.Tuple, cst.List)):
        got = [_int(el.value) for el in spec.elements]
        return None if any(g is None for g in got) else set(got)  # type: ignore[arg-type]
    return None


def _axes(spec: Optional[cst.BaseExpression], n: int) -> Optional[set[int]]:
    """The positional arguments ``in_axes`` maps: every one for an int (0 by default),
    those whose entry is not None for a tuple/list of ints and Nones; None unknown."""
    if spec is None or _int(spec) is not None or (
            isinstance(spec, cst.UnaryOperation) and _int(spec.expression) is not None):
        return set(range(n))
    if isinstance(spec, (cst.Tuple, cst.List)):
        out = set()
        for i, el in enumerate(spec.elements):
            v = el.value
            if isinstance(v, cst.Name) and v.value == "None":
                continue
            if _int(v) is None and not (isinstance(v, cst.UnaryOperation) and _int(v.expression) is not None):
                return None
            out.add(i)
        return out
    return None


def _binds_in_body(node: cst.ClassDef, attr: str) -> bool:
    """Does the body of class ``node`` bind ``attr`` (``WIDTHS = (8, 4)``)?"""
    for stmt in node.body.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign) and any(
                        isinstance(t.target, cst.Name) and t.target.value == attr for t in small.targets):
                    return True
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) \
                        and small.target.value == attr:
                    return True
    return False
