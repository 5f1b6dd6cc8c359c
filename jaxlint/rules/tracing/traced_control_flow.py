"""JAX201 traced-control-flow: Python `if`/`while`/ternary/`and`/`or`/`not`/`assert`/`bool()` on a traced value."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import apis
from jaxlint.model import values as V
from jaxlint.model.walk import dotted_name, walk_tree


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
    caught_by = apis.TRACER_BOOL_CATCHERS
    name = "traced-control-flow"
    runtime_check = '`jax.jit(f).trace(...)`: confirmed when `TracerBoolConversionError` is raised at the flagged line.'
    summary = "Python `if`/`while`/ternary/`and`/`or`/`not`/`assert`/`bool()`/`max()`/`min()`/`all()`/`any()` on a traced value"
    severity = Severity.ERROR
    seed = (
        "The Sharp Bits § Control Flow (seed 000); FAQ § Abstract tracer value encountered "
        "(seeds 001, 004); tutorial § jit and control flow (seed 002)"
    )
    what_it_does = (
        "Inside code that JAX traces with abstract values (a function under `jit`, `vmap`, "
        "`pmap`, `shard_map`, or a body passed to `lax.scan`, `fori_loop`, `while_loop`, "
        "`cond`, `switch`, `map`, and helpers they call; also a function handed to a helper "
        "that gives that parameter to one of them, `fit(hinge, w, x)` with `def fit(loss_fn, "
        "w, x): jax.jit(jax.grad(loss_fn))`, in the file or across modules, or a project's "
        "decorator that does so (`@compiled` with `def compiled(fn): return jax.jit(fn)`, also "
        "through `functools.wraps`); a function run through `partial(f, 2)(x)`; equinox's "
        "`filter_jit`/`filter_vmap`, `checkify.checkify`, and haliax's `named_jit`/`filter_jit`, whose arguments are "
        "traced where a call passes an array (haliax is not read: its documented API, "
        "`eqx.filter_jit` with named axes, is assumed; another library's jit wrapper is not "
        "known, and what it wraps is not taken as traced); and a numpyro model "
        "given to `Predictive`, `NUTS`/`HMC`/`SA`/`BarkerMH` or `SVI`, whose sample sites "
        "without `obs` are tracers there), flags Python constructs that turn an "
        "array into a Python `bool`: `if`, `elif`, `while`, `x if c else y`, `and`, `or`, "
        "`not`, `assert`, comprehension `if` clauses and `bool(...)`, and the builtin "
        "`max(a, b)`/`min(a, b)` (they compare their arguments; an argument of unknown kind "
        "against a number literal, `min(i, 3)`, is a scalar), `all`/`any` of a display, "
        "comprehension or list holding tracers (`all([x > 0, y > 0])`: each element is "
        "converted) and `sorted`/`max`/`min` of one such list of two or more, a chained comparison "
        "(`500 < w <= 600` is `(500 < w) and (w <= 600)`) and `in` (`i in (0, 9)` converts each "
        "`i == 0`; `q in labels` asks a traced array for a bool), when the value is a "
        "tracer: a non-static argument, or anything JAX computed from one.\n\n"
        "Shape checks (`x.shape[0] > 2`, `x.ndim`, `len(x)`), `x is None` (and `x == None`: an array compared with None is Python's False), `isinstance`, "
        "static arguments (`static_argnums`/`static_argnames`), parameters annotated `str` or "
        "`Literal[...]` (no tracer is a string: traced code calling `mask(x, model_mode)` passes "
        "a Python value), parameters of a flax/haiku/equinox module method that every call "
        "passes a Python value (a literal, a tuple of them, a literal default left alone) where "
        "every use of the class (`Block()(x, (2, 3))`) or of the method's name (`self.pool(x, 3)`, "
        "`model.apply(v, x, (2, 3), method=Net.encode)`) in its file is such a call, loop variables of "
        "`range(<static>)` and functions transformed only by `grad`/`value_and_grad`/"
        "`jacfwd`/`jacrev`/`hessian`/`jvp`/`vjp`/`linearize` outside `jit`, and the helpers "
        "they hand their tracers to (which trace with concrete values) are not flagged. Neither are "
        "parameters of a jitted function that keep their default (no call of the project "
        "passes them: `mode=Mode.SUM`, `dims=(0,)`), values a guard proved concrete (`if isinstance(v, "
        "jax.core.Tracer): raise ...`; `if p is None: return ...` also through an alias "
        "`nbrs = p`, even one rebound after the guard; the right operand of `isinstance(s, float) and s == 1.0`, which runs only "
        "for a Python float), and `jnp` results of concrete data in a function that only "
        "`jax.vmap(f)(keys)` runs (vmap evaluates what does not touch the batched values), "
        "or in a helper called only from one.\n\n"
        "The right operand of `and`/`or` counts when the left one is a constant that hands "
        "the test to it (`if True and x:`, `False or ...`, a name bound once to an integer "
        "literal), and `bool` itself given to a transformation (`jax.jit(bool)(x)`, "
        "`jax.vmap(bool)(xs)`) is flagged at the call."
    )
    why_bad = (
        "Under `jit` the function is traced with abstract values that stand for every array "
        "of a shape and dtype; Python cannot pick a branch for them and JAX raises:\n\n"
        "```\njax.errors.TracerBoolConversionError: Attempted boolean conversion of traced "
        "array with shape bool[].\n```\n\n"
        "(`TracerBoolConversionError` is a subclass of `ConcretizationTypeError`.) The error "
        "comes only when the function is first called, often far from where it was written."
    )
    use_instead = (
        "Select with `jnp.where` (`jnp.maximum`/`jnp.minimum` for `max`/`min`), branch with "
        "`lax.cond`, loop with `lax.while_loop`; or, if "
        "the value is really a Python configuration value, declare it static:\n\n"
        "```python\n@jax.jit\ndef f(x):\n    return jnp.where(x < 3, 3. * x ** 2, -4 * x)\n\n"
        "@partial(jax.jit, static_argnums=(1,))\ndef g(x, mode):\n    if mode == 'train':\n"
        "        ...\n```"
    )
    fix_safety = "No automatic fix: the right rewrite (`jnp.where`, `lax.cond`, `static_argnums`) depends on intent."
    VALID = [
        # Python values inside traced code: a parameter compared with a string constant
        # (a Python string: `model_mode`), an int shard_map hands over with spec `None`,
        # a helper's result computed under `jax.ensure_compile_time_eval()`
        Valid(
            """
            import functools

            import flax.linen as nn
            import jax
            import jax.numpy as jnp
            from jax.sharding import PartitionSpec as P

            MODE_PREFILL = "prefill"


            def is_zero_in_zero(phi):
                with jax.ensure_compile_time_eval():
                    return jnp.allclose(phi(jnp.array(0.0)), 0.0)


            class Block(nn.Module):
                @nn.compact
                def __call__(self, x, model_mode):
                    if model_mode == MODE_PREFILL:
                        x = x * 2
                    if is_zero_in_zero(jnp.tanh):
                        x = x + 1
                    return nn.Dense(4)(x)


            def ring(mesh, x, cp_size: int):
                @functools.partial(jax.shard_map, mesh=mesh, in_specs=(P("x"), None), out_specs=P("x"))
                def body(a, n):
                    if n > 1:
                        return jnp.roll(a, n)
                    return a
                return body(x, cp_size)
            """
        ),
        # a parameter annotated `str` or `Literal[...]` of a helper that traced code calls:
        # no tracer is a string, the caller passes a Python value (a mode, a name)
        Valid(
            """
            from typing import Literal

            import jax

            PREFILL = "prefill"


            def mask(x, model_mode: str):
                if model_mode == PREFILL:
                    return x
                return x * 2


            class Pool:
                def reduce(self, x, how: Literal["sum", "mean"]):
                    if how == MODES[0]:
                        return x.sum()
                    return x.mean()


            MODES = ("sum", "mean")


            @jax.jit
            def step(x, mode):
                return mask(x, mode) + Pool().reduce(x, mode)
            """
        ),
        # the left operand of `and`/`or` shows the name a Python value before the right
        # one runs: a tracer is no float (`and` stops), no int for `type(o) is int`, and
        # whatever passes `isinstance(l, jax.Array) or ...` is one
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def scale(scalar, tree):
                if isinstance(scalar, float) and scalar == 1.0:
                    return tree
                return jax.tree_util.tree_map(lambda x: scalar * x, tree)


            def shift(x, offset):
                return x if type(offset) is int and offset == 0 else x + offset


            def clip(x, limit):
                if isinstance(limit, jax.Array) or limit > 0:
                    return jnp.minimum(x, limit)
                return x


            @jax.jit
            def f(s, t):
                return scale(s, t), shift(t, s), clip(t, s)
            """
        ),
        # a staticmethod called as `self.f(x, self.block_size)`: no receiver, so `x` goes to
        # its first parameter and the Python int field to the second (flax, equinox)
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from flax import linen as nn


            class LocalAttention(nn.Module):
                block_size: int = 4

                @staticmethod
                def _blocks(x: jnp.ndarray, block_size: int, left: int):
                    if block_size > 1:
                        x = x[: (x.shape[0] // block_size) * block_size]
                    idx = jnp.arange(block_size) + left
                    return x.reshape(-1, block_size), idx

                @nn.compact
                def __call__(self, x):
                    blocks, idx = self._blocks(x, self.block_size, max(0, 3 - 1))
                    return blocks.sum() + idx.sum()
            """
        ),
        # ...and through an instance (`B(3).extract(x, 3)`, `b.extract(x, 3)`)
        Valid(
            """
            import jax


            class B:
                def __init__(self, k):
                    self.k = k

                @staticmethod
                def extract(x, n):
                    if n > 2:
                        return x[:n]
                    return x


            @jax.jit
            def f(x):
                b = B(3)
                return B(3).extract(x, 3) + b.extract(x, 3)
            """
        ),
        Valid(
            """
            import equinox as eqx
            import jax


            class Pool(eqx.Module):
                size: int = 2

                @staticmethod
                def _pool(x: jax.Array, n: int):
                    if n > 1:
                        return x.reshape(-1, n).max(axis=1)
                    return x

                def __call__(self, x):
                    return self._pool(x, self.size)
            """
        ),
        # `== None` / `!= None` (a linter's style complaint, not a tracer's): an array
        # compared with None gives Python's False, under jit too; written two ways
        Valid(
            """
            import jax
            import jax.numpy as jnp


            @jax.jit
            def f(x, params):
                if params == None:
                    return x
                if x != None:
                    return x + params["a"]
                return x


            def step(state, inputs):
                w = jnp.ones(3) if None == inputs else inputs
                return state + w, None


            jax.lax.scan(step, jnp.zeros(3), jnp.ones((4, 3)))
            """
        ),
        # a linen helper method that only the class's own methods call gets what they pass: shape ints and a
        # tuple of them returned by another helper are Python values (scenic's window partition)
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from flax import linen as nn


            class Block(nn.Module):
                window: int = 4

                def partition(self, x):
                    b, h, w, c = x.shape
                    ph, pw = (-h) % self.window, (-w) % self.window
                    x = jnp.pad(x, ((0, 0), (0, ph), (0, pw), (0, 0)))
                    return x, (h + ph, w + pw)

                def unpartition(self, x, pad_hw, hw):
                    hp, wp = pad_hw
                    h, w = hw
                    x = x.reshape(-1, hp, wp, x.shape[-1])
                    if hp > h or wp > w:
                        x = x[:, :h, :w, :]
                    return x

                @nn.compact
                def __call__(self, x):
                    h, w = x.shape[1], x.shape[2]
                    x, pad_hw = self.partition(x)
                    x = nn.Dense(x.shape[-1])(x)
                    return self.unpartition(x, pad_hw, (h, w))
            """
        ),
        Valid(
            # helpers of the file that return a shape, or a Python value of Python
            # arguments: concrete under jit
            """
            import jax
            import jax.numpy as jnp

            def n_rows(x):
                return x.shape[0]

            def scaled(a, s):
                y = a * s
                return y

            @jax.jit
            def step(g):
                if n_rows(g) > 2:
                    g = g[:2]
                if scaled(3.0, 2.0) > 1:
                    g = g + 1
                return g
            """
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def normalize(p, validate=False):
                if validate:
                    # only when a caller asks for validation, and no traced caller does
                    if not jnp.allclose(p.sum(), 1.0):
                        raise ValueError("not a distribution")
                return p / p.sum()


            @jax.jit
            def f(p):
                return normalize(p)
            """,
        ),
        # grad alone traces with concrete values (The Sharp Bits)
        Valid(
            """
            from jax import grad

            def f(x):
                if x < 3:
                    return 3. * x ** 2
                return -4 * x

            grad(f)(2.)
            """
        ),
        # static-range loops and shape checks
        Valid(
            """
            import jax

            @jax.jit
            def f(x):
                for i in range(3):
                    x = 2 * x
                if x.shape[0] > 2 and x.ndim == 1:
                    x = x[:2]
                return x
            """
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def g(x, y=None):
                if y is None:
                    y = jnp.zeros_like(x)
                if isinstance(x, tuple) or len(x) == 0:
                    return y
                return x + y
            """
        ),
        # static_argnums / static_argnames, also negative and through partial
        Valid(
            """
            from functools import partial
            import jax

            @partial(jax.jit, static_argnums=(1,))
            def f(x, n):
                if n > 0:
                    return x * n
                return x
            """
        ),
        Valid(
            """
            import jax

            def f(x, mode):
                if mode == 'train':
                    return x
                return -x

            f2 = jax.jit(f, static_argnames='mode')
            f3 = jax.jit(f, static_argnums=-1)
            """
        ),
        # numba.jit is not jax.jit
        Valid(
            """
            import numba
            import jax

            @numba.jit
            def f(x):
                if x > 0:
                    return x
                return -x
            """
        ),
        # plain Python outside traced code
        Valid(
            """
            import jax.numpy as jnp

            def f(x):
                if jnp.sum(x) > 0:
                    return x
                return -x
            """
        ),
        # lax.cond / where instead of if
        Valid(
            """
            import jax
            from jax import lax

            @jax.jit
            def f(x):
                return lax.cond(x > 0, lambda v: v, lambda v: -v, x)
            """
        ),
        # host callbacks see concrete values
        Valid(
            """
            import jax

            def log_if_big(v):
                if v > 10:
                    print(v)

            @jax.jit
            def f(x):
                jax.debug.callback(log_if_big, x)
                return x
            """
        ),
        # flax module: a bool flag is static configuration
        Valid(
            """
            import flax.linen as nn
            import jax

            class MLP(nn.Module):
                @nn.compact
                def __call__(self, x: jax.Array, train: bool = False):
                    if train:
                        x = nn.Dropout(0.1, deterministic=False)(x)
                    return nn.Dense(3)(x)
            """
        ),
        # equinox filter_jit: non-array arguments are static
        Valid(
            """
            import equinox as eqx

            @eqx.filter_jit
            def f(model, x, flag):
                if flag:
                    return model(x)
                return x
            """
        ),
        # vmap with in_axes=None: that argument is passed through unchanged
        Valid(
            """
            import jax

            def f(x, n):
                if n > 1:
                    return x * n
                return x

            v = jax.vmap(f, in_axes=(0, None))
            """
        ),
        # a partial that binds the flag before the transform sees the function
        Valid(
            """
            import functools
            import jax

            def foo(x, y, flag):
                return (x * 2) + y if flag else (x + y)
            foo = functools.partial(foo, flag=True)
            foo = jax.pmap(foo)
            """
        ),
        # scan passes two operands: a defaulted third parameter keeps its Python default
        Valid(
            """
            import jax

            def step(carry, x, first=False):
                if not first:
                    carry = carry + x
                return carry, x

            out = jax.lax.scan(step, 0.0, jax.numpy.ones(3))
            """
        ),
        # isinstance narrows to a Python number; guards on static flags
        Valid(
            """
            import jax
            from jax import lax

            @jax.jit
            def norm_index(index, size):
                if isinstance(index, int):
                    return index + size if index < 0 else index
                return lax.select(index < 0, index + size, index)
            """
        ),
        Valid(
            """
            import functools
            import jax
            import jax.numpy as jnp

            def solve(a, rcond, numpy_resid=True):
                rank = jnp.sum(a > rcond)
                if numpy_resid and (rank < 3 or a.shape[0] <= 2):
                    return a
                return -a

            fast = jax.jit(functools.partial(solve, numpy_resid=False))
            """
        ),
        # flax module methods: shape checks and static flags are fine
        Valid(
            """
            import flax.linen as nn

            class Block(nn.Module):
                features: int

                @nn.compact
                def __call__(self, x, train: bool, mode='sum'):
                    if x.ndim == 1 or x.shape[-1] != self.features:
                        x = nn.Dense(self.features)(x)
                    if mode == 'sum' and train:
                        x = x * 2
                    return x
            """
        ),
        # truthiness of a pytree argument is a container's; dict keys are strings
        Valid(
            """
            import jax

            @jax.jit
            def decay(params, grads):
                if not grads:
                    return params
                out = {}
                for name in params:
                    if name == 'bias':
                        continue
                    out[name] = params[name] * 0.99
                return out
            """
        ),
        # static fields of pytree classes
        Valid(
            """
            import dataclasses
            import functools
            import jax
            from flax import struct

            class State(struct.PyTreeNode):
                params: dict
                accum: int = struct.field(pytree_node=False, default=1)

            @functools.partial(jax.tree_util.register_dataclass, data_fields=['w'], meta_fields=['depth'])
            @dataclasses.dataclass
            class Net:
                w: jax.Array
                depth: int

            @jax.jit
            def step(state, net, x):
                if state.accum > 1:
                    x = x / state.accum
                for _ in range(net.depth):
                    x = jax.nn.relu(x @ net.w)
                return x
            """
        ),
        # the flatten's aux data is static: `register_pytree_node_class`, read through
        # the parameter's annotation
        Valid(
            """
            import jax
            import jax.numpy as jnp

            @jax.tree_util.register_pytree_node_class
            class Mesh:
                def __init__(self, verts, n_faces):
                    self.verts = verts
                    self.n_faces = n_faces

                def tree_flatten(self):
                    return (self.verts,), (self.n_faces,)

                @classmethod
                def tree_unflatten(cls, aux, children):
                    return cls(children[0], *aux)

            @jax.jit
            def area(mesh: Mesh):
                if mesh.n_faces == 0:
                    return jnp.zeros(())
                return jnp.zeros(mesh.n_faces) + mesh.verts.sum()
            """
        ),
        # `register_dataclass` called on the class, static metadata through a variable and a
        # dict literal, a nested class's static field, a helper the jitted code calls
        Valid(
            """
            import dataclasses
            import jax
            import numpy as np

            META = dict(static=True)

            @dataclasses.dataclass
            class Opt:
                flags: int = dataclasses.field(metadata=META)

            @dataclasses.dataclass
            class Model:
                opt: Opt
                mask: np.ndarray = dataclasses.field(metadata={"static": True})

            jax.tree_util.register_dataclass(Opt)
            jax.tree_util.register_dataclass(Model)

            def helper(m: Model, x):
                if m.opt.flags & 4:
                    return x[np.nonzero(m.mask)]
                return x

            @jax.jit
            def run(m, x):
                return helper(m, x)
            """
        ),
        # a class the model cannot read (a base from elsewhere, no parameter annotation):
        # its attributes are unknown, and unknown never reports
        Valid(
            """
            import jax
            from mylib import Base

            class Model(Base):
                nv: int

            @jax.jit
            def f(m: Model, sys, x):
                for _ in range(m.nv):
                    x = x + 1
                if sys.n_iter == 0:
                    return x
                return x
            """
        ),
        # a branch no traced caller reaches: every traced call passes `size`
        Valid(
            """
            import jax

            def _unique(x, size=None):
                if size is None:
                    if x.sum() > 0:
                        return x
                return x[:size]

            @jax.jit
            def f(x):
                return _unique(x * 2, size=x.shape[0])
            """
        ),
        # static_argnums counts from the first parameter jit sees (after partial)
        Valid(
            """
            import functools
            import jax

            def f(scale, x, n):
                if n > 2:
                    return x * scale
                return x

            g = jax.jit(functools.partial(f, 2.0), static_argnums=1)
            """
        ),
        # lax.dtype / lax.axis_size / private helpers return Python values
        Valid(
            """
            import jax
            from jax import lax

            @jax.jit
            def f(k, c):
                if not lax.dtype(k) == lax.dtype(c):
                    raise TypeError('dtype')
                return k + c
            """
        ),
        # a submodule's `__call__` only ever called by its holder with a static length
        Valid(
            """
            import equinox as eqx
            import jax
            import jax.numpy as jnp

            MAX_LEN = 128


            class Positions(eqx.Module):
                table: jax.Array

                def __call__(self, n):
                    if n > self.table.shape[0]:
                        raise ValueError("sequence too long")
                    return self.table[:n]


            class Encoder(eqx.Module):
                pos: Positions

                def __call__(self, x):
                    n = min(x.shape[0], MAX_LEN)
                    return x[:n] + self.pos(n)
            """
        ),
        # a jitted function's defaults (any value) that no call passes stay Python values; an
        # `is None` guard through an alias of the parameter every traced caller passes; under
        # `jax.vmap(f)(keys)` alone, jnp of closed-over concrete data is concrete
        Valid(
            """
            import enum
            import jax
            import jax.numpy as jnp
            import numpy as np

            TABLE = np.linspace(0.0, 1.0, 5)


            class Mode(enum.Enum):
                SUM = 1
                MEAN = 2


            @jax.jit
            def reduce(x, mode=Mode.SUM, dims=(0,)):
                if mode == Mode.SUM:
                    return jnp.sum(x, axis=dims)
                return jnp.mean(x, axis=dims)


            def total(x):
                return reduce(x)


            def energy(r, neighbor=None):
                nbrs = neighbor
                if nbrs is None:
                    if jnp.any(r > 1.0):
                        raise ValueError("overlapping particles")
                    return jnp.sum(r)
                return jnp.sum(r[nbrs])


            @jax.jit
            def step(r, idx):
                return energy(r, idx)


            def sample(key):
                scale = jnp.asarray(TABLE).max()
                if scale > 0.5:
                    return jax.random.normal(key) * scale
                return jax.random.normal(key)


            def draw(keys):
                return jax.vmap(sample)(keys)
            """
        ),
        # a helper called only from code that `jax.vmap(f)(keys)` runs eagerly
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np

            DATA = np.arange(10.0)


            def scale_of(data):
                s = jnp.std(jnp.asarray(data))
                if s > 0.1:
                    return 2.0
                return 1.0


            def sample(key):
                return jax.random.normal(key) * scale_of(DATA)


            def run(keys):
                return jax.vmap(sample)(keys)
            """
        ),
        # builtin max/min of static values (shapes) under jit, jnp.maximum on tracers
        Valid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def hinge(margin, score):
                n = max(score.shape[0], 1)
                return jnp.maximum(0.0, margin - score) / n

            def evaluate(m, s):
                return jnp.mean(jax.vmap(lambda a, b: min(a.ndim, 2) * jnp.minimum(a, b))(m, s))
            """
        ),
        # a constant left operand that decides the test alone: the traced right side never runs
        Valid(
            """
            import jax

            VERBOSE = 0

            @jax.jit
            def f(x, flag):
                if False and x > 0:
                    x = x + 1
                if VERBOSE and x.sum() > 0:
                    x = x - 1
                if True or x < 0:
                    x = x * 2
                return x
            """
        ),
        # `bool` given to a transformation as a value, not called on a tracer
        Valid(
            """
            import jax
            import jax.numpy as jnp

            converters = [bool, int]
            mask = jax.jit(lambda x: x.astype(bool))(jnp.arange(5))
            ok = bool(jax.jit(jnp.any)(mask))
            """
        ),
        # differentiated outside jit (grad, value_and_grad, vjp, any alias): the tracers
        # hold values, and Python control flow on them works
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from jax import grad as g

            def loss(w, x):
                if jnp.sum(w) > 0:
                    return jnp.sum((x @ w) ** 2)
                while jnp.abs(w[0]) < 10:
                    w = w * 2
                return jnp.sum(w) if w[1] > 0 else -jnp.sum(w)

            dw = g(loss)(jnp.ones(3), jnp.ones((2, 3)))
            out, pullback = jax.vjp(loss, jnp.ones(3), jnp.ones((2, 3)))
            """
        ),
        # ... also in the functions defined inside it, which capture its tracers
        Valid(
            """
            import jax

            def loss(w):
                def inner():
                    if w > 0:
                        return int(w) * w
                    return w
                f = lambda: w * 2 if w > 0 else w
                return inner() + f()

            jax.grad(loss)(1.0)
            """
        ),
        # a function handed to a parameter no transformation gets, or to one that does when
        # the function branches on Python values only
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def hinge(w, x):
                margin = jnp.sum(w * x)
                if margin > 0:
                    return margin
                return 0.0


            def smooth(w, x, squared=True):
                margin = jnp.sum(w * x)
                if squared:
                    return jnp.maximum(margin, 0.0) ** 2
                return jnp.maximum(margin, 0.0)


            def evaluate(loss_fn, w, x):
                return loss_fn(w, x)


            def fit(loss_fn, w, x):
                g = jax.jit(jax.grad(loss_fn))
                return w - 0.1 * g(w, x)


            print(evaluate(hinge, jnp.ones(3), jnp.ones(3)))
            w = fit(smooth, jnp.ones(3), jnp.ones(3))
            """
        ),
        # a helper with an eager mode (numpyro's `fori_loop`): which branch runs is a setting
        Valid(
            """
            import jax

            DISABLE_CONTROL_FLOW = False


            def fori_loop(lower, upper, body_fun, init_val):
                if DISABLE_CONTROL_FLOW:
                    val = init_val
                    for i in range(int(lower), int(upper)):
                        val = body_fun(i, val)
                    return val
                else:
                    return jax.lax.fori_loop(lower, upper, body_fun, init_val)


            def body(i, x):
                if x > 10:
                    return x
                return x + i


            y = fori_loop(0, 3, body, 1)
            """
        ),
        # a site with `obs=` returns the observation, which is traced only if the caller passes
        # a JAX array (a NumPy `y` stays concrete): unknown here, so silent; a model called
        # directly (its key given) runs eagerly; a function differentiated outside jit holds
        # concrete values
        Valid(
            """
            import jax
            import numpyro
            import numpyro.distributions as dist
            from numpyro.infer import MCMC, NUTS


            def model(y):
                x = numpyro.sample("y", dist.Normal(0.0, 1.0), obs=y)
                if x > 0:
                    numpyro.sample("z", dist.Normal(x, 1.0))


            def eager_model(key):
                s = numpyro.sample("s", dist.Normal(0.0, 1.0), rng_key=key)
                return 1 if s > 0 else 0


            mcmc = MCMC(NUTS(model), num_warmup=10, num_samples=10)
            print(eager_model(jax.random.key(0)))


            @jax.grad
            def g(x):
                return x ** 2 if bool(x) else x


            print(g(1.0))
            """
        ),
        # an object built from tracers whose attribute the code sets again before the test
        # (a Python float there), and the corrected test on a stored tracer (`jnp.where`)
        Valid(
            """
            import jax
            import jax.numpy as jnp


            class Term:
                def __init__(self, *, S0, Q):
                    self.S0, self.Q = S0, Q


            @jax.jit
            def model(log_q):
                term = Term(S0=1.0, Q=jnp.exp(log_q))
                limit = jnp.where(term.Q < 0.5, term.S0, 2.0 * term.S0)
                term.Q = 0.3
                if term.Q < 0.5:
                    limit = limit + 1.0
                return limit
            """
        ),
        # a module's `__call__` whose every call (every use of the class is a call seen:
        # `Block()(x, (2, 3))`) passes a Python value, or leaves a literal default
        Valid(
            """
            import flax.linen as nn


            class Block(nn.Module):
                @nn.compact
                def __call__(self, x, dims, act="relu"):
                    if dims[0] > 1:
                        x = x * 2
                    if act == "relu":
                        x = nn.relu(x)
                    return nn.Dense(4)(x)


            class Net(nn.Module):
                @nn.compact
                def __call__(self, x):
                    x = Block()(x, (2, 3))
                    return Block(name="out")(x, dims=(1,), act="gelu")
            """
        ),
    ]

    INVALID = [
        # shard_map with spec `P()` makes the Python int a tracer (JAX 0.10.2)
        Invalid(
            """
            import functools

            import jax
            import jax.numpy as jnp
            from jax.sharding import PartitionSpec as P


            def ring(mesh, x, cp_size: int):
                @functools.partial(jax.shard_map, mesh=mesh, in_specs=(P("x"), P()), out_specs=P("x"))
                def body(a, n):
                    if n > 1:
                        return jnp.roll(a, n)
                    return a
                return body(x, cp_size)
            """,
            expected=[(11, 12)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `n` of `body` (wrapped by jax.shard_map); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
            ],
        ),
        # a guard that lets a tracer through (`jax.Array` among the types, `is not None`),
        # or one on another name, leaves the right operand traced
        Invalid(
            """
            import jax


            def bad(scalar, tree):
                if isinstance(scalar, (float, jax.Array)) and scalar == 1.0:
                    return tree
                if scalar is not None and scalar == 2.0:
                    return tree
                if isinstance(tree, float) and scalar == 3.0:
                    return tree
                return tree


            @jax.jit
            def g(s, t):
                return bad(s, t)
            """,
            expected=[(5, 51), (7, 31), (9, 36)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `scalar` of `bad` (called from traced `g`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
            ] * 3,
        ),
        # ...while the array itself, given to the staticmethod's first parameter, is traced
        Invalid(
            """
            import equinox as eqx
            import jax


            class Pool(eqx.Module):
                size: int = 2

                @staticmethod
                def _pool(x: jax.Array, n: int):
                    if x.sum() > n:
                        return x[:n]
                    return x

                def __call__(self, x):
                    return self._pool(x, self.size)
            """,
            expected=[(10, 12)],
            messages=[
                'Python `if` on a traced value: it depends on the traced argument `x` of `_pool` (a method of the module class Pool); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`',
            ],
        ),
        # a parameter of a module's `__call__` that one of its calls (every use of the class
        # is a call seen) gives a JAX array: under `jax.jit(net.apply)` it is a tracer
        Invalid(
            """
            import flax.linen as nn
            import jax.numpy as jnp


            class Block(nn.Module):
                @nn.compact
                def __call__(self, x, dims):
                    if dims[0] > 1:
                        x = x * 2
                    return nn.Dense(4)(x)


            class Net(nn.Module):
                @nn.compact
                def __call__(self, x):
                    x = Block()(x, (2, 3))
                    return Block()(x, jnp.array([1, 2]))
            """,
            expected=[(8, 12)],
            messages=[
                'Python `if` on a traced value: it depends on the traced argument `dims` of `__call__` (a method of the module class Block); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`',
            ],
        ),
        # ...and a traced value passed to such a helper makes its parameter traced
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            from flax import linen as nn


            class Norm(nn.Module):
                def clip(self, x, limit):
                    if limit > 0:
                        return jnp.clip(x, -limit, limit)
                    return x

                @nn.compact
                def __call__(self, x):
                    return self.clip(nn.Dense(3)(x), jnp.abs(x).max())
            """,
            expected=[(8, 12)],
            messages=[
                'Python `if` on a traced value: it depends on the traced argument `limit` of `clip` (a method of the module class Norm); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`',
            ],
        ),
        Invalid(
            """
            import jax

            @jax.jit
            def f(x):
                if x < 3:
                    return 3. * x ** 2
                else:
                    return -4 * x
            """,
            expected=[(5, 8)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `x` of `f` (decorated with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; or, if `x` is a Python value, mark it static (static_argnums=0)",
            ],
        ),
        Invalid(
            """
            from jax import jit

            @jit
            def f(x):
                while x < 10:
                    x = x + 1
                return x
            """,
            expected=[(5, 11)],
            messages=[
                "Python `while` on a traced value: it depends on the traced argument `x` of `f` (decorated with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.while_loop` (or `lax.fori_loop`); or, if `x` is a Python value, mark it static (static_argnums=0)",
            ],
        ),
        Invalid(
            # the loss is defined before the jitted step that differentiates it: under
            # jit, grad's tracers wrap jit's, and `if` on them raises all the same
            """
            import jax

            def loss_fn(params, x):
                y = params * x
                if y.sum() > 0:
                    return y.sum()
                return -y.sum()

            @jax.jit
            def train_step(params, x):
                loss, grads = jax.value_and_grad(loss_fn)(params, x)
                return params - 0.1 * grads
            """,
            expected=[(5, 8)],
            messages=[
                "Python `if` on a traced value: it depends on the traced arguments `params`, `x` of `loss_fn` (called from traced `train_step`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
            ],
        ),
        Invalid(
            # a helper of the file that returns a JAX computation of a tracer returns a tracer
            """
            import jax
            import jax.numpy as jnp

            def global_norm(g):
                return jnp.sqrt(jnp.sum(g ** 2))

            @jax.jit
            def clip(g):
                norm = global_norm(g)
                if norm > 1.0:
                    g = g / norm
                return g
            """,
            expected=[(10, 8)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `g` of `clip` (decorated with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
            ],
        ),
        Invalid(
            # a layer applied to the module's traced input gives a tracer
            """
            import flax.linen as nn

            class MLP(nn.Module):
                @nn.compact
                def __call__(self, x):
                    y = nn.Dense(4)(x)
                    if y.sum() > 0:
                        y = -y
                    return y
            """,
            expected=[(7, 12)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `x` of `__call__` (a method of the module class MLP); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
            ],
        ),
        Invalid(
            """
            import jax

            def divide(x, y):
                return x / y if y >= 1. else 0.

            fast = jax.jit(divide)
            """,
            expected=[(4, 21)],
            messages=[
                "Python `... if ... else ...` on a traced value: it depends on the traced argument `y` of `divide` (wrapped by jax.jit); this raises TracerBoolConversionError. Use `jnp.where(cond, a, b)` or `jax.lax.cond`; or, if `y` is a Python value, mark it static (static_argnums=1)",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            from jax import lax

            def body(i, x):
                y = jnp.sin(x)
                if y.sum() > 0 and i > 2:
                    return y
                return x

            out = lax.fori_loop(0, 10, body, jnp.ones(3))
            """,
            expected=[(7, 8)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `x` of `body` (a body passed to lax.fori_loop); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.vmap
            def f(x: jax.Array):
                assert x > 0
                ok = not x
                return bool(x) or ok
            """,
            expected=[(6, 12), (7, 10), (8, 12)],
            messages=[
                "Python `assert` on a traced value: it depends on the traced argument `x` of `f` (decorated with @jax.vmap); this raises TracerBoolConversionError. Use `jax.experimental.checkify.check`, or assert on shapes/dtypes only",
                "`not` converts a traced value to a Python bool: it depends on the traced argument `x` of `f` (decorated with @jax.vmap); this raises TracerBoolConversionError. Use `jnp.logical_not` / `~`",
                "`bool()` of a traced value: it depends on the traced argument `x` of `f` (decorated with @jax.vmap); this raises TracerBoolConversionError. Keep it as an array and use `jnp.where` / `jax.lax.cond`",
            ],
        ),
        Invalid(
            """
            import jax

            @jax.jit
            def masked_mean(x, mask):
                if mask is not None and mask.any():
                    return (x * mask).sum() / mask.sum()
                return x.mean()
            """,
            expected=[(5, 29)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `mask` of `masked_mean` (decorated with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; or, if `mask` is a Python value, mark it static (static_argnums=1)",
            ],
        ),
        # flax module __call__ runs under jit with array arguments (model.apply)
        Invalid(
            """
            import flax.linen as nn

            class Block(nn.Module):
                @nn.compact
                def __call__(self, x, train: bool):
                    if x.mean() > 0:
                        x = nn.relu(x)
                    return x
            """,
            expected=[(6, 12)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `x` of `__call__` (a method of the module class Block); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
            ],
        ),
        # a defaulted flag that callers pass is traced unless declared static
        Invalid(
            """
            import jax

            @jax.jit
            def forward(params, x, training=False):
                if training:
                    x = x * 0.5
                return x @ params

            y = forward(1.0, 2.0, True)
            """,
            expected=[(5, 8)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `training` of `forward` (decorated with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; or, if `training` is a Python value, mark it static (static_argnums=2)",
            ],
        ),
        # ...but a helper that some traced caller gives None does run the branch
        Invalid(
            """
            import jax

            def _unique(x, size=None):
                if size is None:
                    if x.sum() > 0:
                        return x
                return x[:size]

            @jax.jit
            def f(x):
                return _unique(x * 2)
            """,
            expected=[(5, 12)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `x` of `_unique` (called from traced `f`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
            ],
        ),
        Invalid(
            """
            import jax

            def helper(v):
                if v > 0:
                    return v
                return -v

            @jax.jit
            def f(x):
                return helper(x * 2)
            """,
            expected=[(4, 8)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `v` of `helper` (called from traced `f`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                return [v for v in x * 2 if v > 0]
            """,
            expected=[(6, 33)],
            messages=[
                "Python `if (in a comprehension)` on a traced value: it depends on the traced argument `x` of `f` (decorated with @jax.jit); this raises TracerBoolConversionError. Use `jnp.where` or a boolean mask with a fixed size; or, if `x` is a Python value, mark it static (static_argnums=0)",
            ],
        ),
        # the holder passes a length computed from the data: traced
        Invalid(
            """
            import equinox as eqx
            import jax


            class Positions(eqx.Module):
                table: jax.Array

                def __call__(self, n):
                    if n > self.table.shape[0]:
                        raise ValueError("sequence too long")
                    return self.table * n


            class Encoder(eqx.Module):
                pos: Positions

                def __call__(self, x, mask):
                    return x + self.pos(mask.sum())
            """,
            expected=[(9, 12)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `n` of `__call__` (a method of the module class Positions); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
            ],
        ),
        Invalid(
            # a data leaf of a class the model reads stays a tracer; its static field does not
            """
            import jax
            from flax import struct

            @struct.dataclass
            class State:
                loss: jax.Array
                n: int = struct.field(pytree_node=False)

            @jax.jit
            def update(state: State, x):
                if state.n > 1:
                    x = x / state.n
                if state.loss > 0:
                    return x
                return -x
            """,
            expected=[(13, 8)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `state` of `update` (decorated with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; or, if `state` is a Python value, mark it static (static_argnums=0)",
            ],
        ),
        Invalid(
            # the class travels with the argument into an unannotated helper: its static
            # field stays a Python value, its array leaf a tracer
            """
            import equinox as eqx
            import jax

            class Net(eqx.Module):
                w: jax.Array
                depth: int = eqx.field(static=True)

            def _apply(net, x):
                for _ in range(net.depth):
                    x = x @ net.w
                if net.w.sum() > 0:
                    return x
                return -x

            @jax.jit
            def forward(net: Net, x):
                return _apply(net, x)
            """,
            expected=[(11, 8)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `net` of `_apply` (called from traced `forward`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
            ],
        ),
        Invalid(
            # two callers pass objects of two classes (flax struct, equinox): a field both
            # make static is a Python value, one both make an array leaf a tracer
            """
            import equinox as eqx
            import jax
            from flax import struct

            @struct.dataclass
            class Small:
                x: jax.Array
                n: int = struct.field(pytree_node=False)

            class Big(eqx.Module):
                x: jax.Array
                n: int = eqx.field(static=True)

            def _run(m, y):
                for _ in range(m.n):
                    y = y + m.x
                if (m.x > 0).all():
                    return y
                return -y

            @jax.jit
            def small(m: Small, y):
                return _run(m, y)

            @jax.jit
            def big(m: Big, y):
                return _run(m, y)
            """,
            expected=[(17, 8)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `m` of `_run` (called from traced `small`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
            ],
        ),
        Invalid(
            # the class of what a plain call passes to a jitted function: a NamedTuple's
            # fields are leaves; a lambda flatten's aux data is static
            """
            from typing import NamedTuple
            import jax
            import jax.numpy as jnp

            class Carry(NamedTuple):
                pos: jax.Array
                steps: int

            class Table:
                def __init__(self, rows, n):
                    self.rows, self.n = rows, n

            jax.tree_util.register_pytree_node(Table, lambda t: ((t.rows,), t.n), lambda n, ch: Table(ch[0], n))

            @jax.jit
            def advance(c, t, x):
                for _ in range(t.n):
                    x = x + t.rows
                if c.pos.sum() > 0:
                    return x
                return x

            advance(Carry(jnp.zeros(3), 2), Table(jnp.ones(3), 4), 1.0)
            """,
            expected=[(19, 8)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `c` of `advance` (decorated with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; or, if `c` is a Python value, mark it static (static_argnums=0)",
            ],
        ),
        # a call that passes the default traces it; `jit(vmap(f))` stages every jnp call
        Invalid(
            """
            import enum
            import jax
            import jax.numpy as jnp
            import numpy as np

            TABLE = np.linspace(0.0, 1.0, 5)


            class Mode(enum.Enum):
                SUM = 1
                MEAN = 2


            @jax.jit
            def reduce(x, mode=Mode.SUM.value):
                if mode == Mode.SUM.value:
                    return jnp.sum(x)
                return jnp.mean(x)


            def total(x, m):
                return reduce(x, mode=m)


            def sample(key):
                scale = jnp.asarray(TABLE).max()
                if scale > 0.5:
                    return jax.random.normal(key) * scale
                return jax.random.normal(key)


            draw = jax.jit(jax.vmap(sample))
            """,
            expected=[(16, 8), (27, 8)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `mode` of `reduce` (decorated with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; or, if `mode` is a Python value, mark it static (static_argnums=1)",
                "Python `if` on a traced value: it is computed by JAX inside `sample` (wrapped by jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
            ],
        ),
        # the same helper, once the vmapped function is also called from a jitted one
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np

            DATA = np.arange(10.0)


            def scale_of(data):
                s = jnp.std(jnp.asarray(data))
                if s > 0.1:
                    return 2.0
                return 1.0


            def sample(key):
                return jax.random.normal(key) * scale_of(DATA)


            def run(keys):
                return jax.vmap(sample)(keys)


            @jax.jit
            def noisy(x, key):
                return x + sample(key)
            """,
            expected=[(10, 8)],
            messages=[
                "Python `if` on a traced value: it is computed by JAX inside `scale_of` (called from traced `sample`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
            ],
        ),
        # jax.checkpoint traces its function to a jaxpr even called eagerly (static
        # arguments stay Python values)
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            def layer(x, train):
                if train:
                    x = x * 2
                if x.sum() > 0:
                    return jnp.tanh(x)
                return x

            y = jax.checkpoint(layer, static_argnums=1)(jnp.ones(3), True)
            """,
            expected=[(7, 8)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `x` of `layer` "
                "(wrapped by jax.checkpoint); this raises TracerBoolConversionError. Use "
                "`jax.lax.cond` or `jnp.where`",
            ],
        ),
        # builtin max/min compare with `>`: a bool of a tracer (vmap in plain code, a jit
        # through a helper)
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            def hinge(margin, score):
                return max(0.0, margin - score)

            def evaluate(m, s):
                return jnp.mean(jax.vmap(hinge)(m, s))

            def clip(x, hi):
                return min(2.0 * x, hi)

            @jax.jit
            def step(x):
                return clip(jnp.tanh(x), 0.5)
            """,
            expected=[(5, 12), (11, 12)],
            messages=[
                "`max()` compares its arguments as Python bools, but `margin - score` is traced: it "
                "depends on the traced arguments `margin`, `score` of `hinge` (wrapped by jax.vmap); "
                "this raises TracerBoolConversionError. Use `jnp.maximum`",
                "`min()` compares its arguments as Python bools, but `2.0 * x` is traced: it depends on the "
                "traced argument `x` of `clip` (called from traced `step`); this raises "
                "TracerBoolConversionError. Use `jnp.minimum`",
            ],
        ),
        # a constant left operand hands the test to the traced right one: `True and x`
        # converts `x` to bool; so do `DEBUG and ...` (DEBUG = 1) and `False or ...`
        Invalid(
            """
            import jax

            DEBUG = 1

            @jax.jit
            def f(qiaoqiao):
                if True and qiaoqiao:
                    return 1
                return 0

            @jax.jit
            def g(x):
                while DEBUG and x.sum() > 0:
                    x = x - 1
                assert False or x.max() < 10
                return x

            f(True)
            """,
            expected=[(7, 17), (13, 21), (15, 21)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `qiaoqiao` of `f` (decorated with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; or, if `qiaoqiao` is a Python value, mark it static (static_argnums=0)",
                "Python `while` on a traced value: it depends on the traced argument `x` of `g` (decorated with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.while_loop` (or `lax.fori_loop`); or, if `x` is a Python value, mark it static (static_argnums=0)",
                "Python `assert` on a traced value: it depends on the traced argument `x` of `g` (decorated with @jax.jit); this raises TracerBoolConversionError. Use `jax.experimental.checkify.check`, or assert on shapes/dtypes only; or, if `x` is a Python value, mark it static (static_argnums=0)",
            ],
        ),
        # `bool` itself transformed: jit and vmap hand it a tracer
        Invalid(
            """
            import jax

            jax.jit(bool)(jax.numpy.arange(5))
            flags = jax.vmap(bool)(jax.numpy.ones(3))
            """,
            expected=[(3, 1), (4, 9)],
            messages=[
                "`jax.jit(bool)` traces its argument and calls `bool()` on the tracer: this raises TracerBoolConversionError (ValueError for an array of several elements). Instead, use `x.astype(bool)` or `jnp.any`/`jnp.all`, or call `bool()` outside the transformation",
                "`jax.vmap(bool)` traces its argument and calls `bool()` on the tracer: this raises TracerBoolConversionError (ValueError for an array of several elements). Instead, use `x.astype(bool)` or `jnp.any`/`jnp.all`, or call `bool()` outside the transformation",
            ],
        ),
        # a function handed to a helper that transforms its parameter (`jax.jit(jax.grad(loss_fn))`,
        # `lax.scan(step_fn, ...)`), directly or through a caller that hands it on
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def hinge(w, x):
                margin = jnp.sum(w * x)
                if margin > 0:
                    return margin
                return 0.0


            def accumulate(carry, x):
                while x > carry:
                    carry = carry + 1.0
                return carry, x


            def fit(loss_fn, w, x):
                g = jax.jit(jax.grad(loss_fn))
                return w - 0.1 * g(w, x)


            def train(objective, w, x):
                return fit(objective, w, x)


            def total(step_fn, xs):
                return jax.lax.scan(step_fn, 0.0, xs)


            w = train(hinge, jnp.ones(3), jnp.ones(3))
            total(accumulate, jnp.arange(3.0))
            """,
            expected=[(7, 8), (13, 11)],
            messages=[
                "Python `if` on a traced value: it depends on the traced arguments `w`, `x` of `hinge` (wrapped by jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
                "Python `while` on a traced value: it depends on the traced arguments `carry`, `x` of `accumulate` (a body passed to lax.scan); this raises TracerBoolConversionError. Use `jax.lax.while_loop` (or `lax.fori_loop`)",
            ],
        ),
        # a numpyro model given to an inference class: its sample sites are tracers there;
        # a function differentiated by a decorator and called from jit gets the caller's tracer
        Invalid(
            """
            import jax
            import numpyro
            import numpyro.distributions as dist
            from numpyro.infer import Predictive


            def sleep_model():
                feeling_lazy = numpyro.sample("feeling_lazy", dist.Bernoulli(0.9))
                if feeling_lazy:
                    return numpyro.sample("slept", dist.Normal(8.0, 1.0))
                return numpyro.sample("slept", dist.Normal(6.0, 1.0))


            prior = Predictive(sleep_model, num_samples=100)


            @jax.grad
            def g(x):
                positive = bool(x)
                return x ** 2 * positive


            @jax.jit
            def f(x):
                return g(x)


            f(1.0)
            """,
            expected=[(9, 8), (19, 16)],
            messages=[
                "Python `if` on a traced value: it is computed by JAX inside `sleep_model` (a model given to numpyro.infer.Predictive); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
                "`bool()` of a traced value: it depends on the traced argument `x` of `g` (called from traced `f`); this raises TracerBoolConversionError. Keep it as an array and use `jnp.where` / `jax.lax.cond`",
            ],
        ),
        # an attribute of an object built in traced code from a tracer: a plain class whose
        # `__init__` stores its parameters as they are (celerite2's `OverdampedSHOTerm(...,
        # Q=Q)` in a numpyro model, then `if over.Q < 0.5:`); `term.S0`, given a Python
        # float, is no tracer
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            class Term:
                def __init__(self, *, S0, Q):
                    self.S0, self.Q = S0, Q


            def pick(q):
                term = Term(S0=1.0, Q=q)
                if term.Q < 0.5:
                    return term.S0
                if term.S0 > 0.0:
                    return 2.0 * term.S0
                return 0.0


            @jax.jit
            def model(log_q):
                return pick(jnp.exp(log_q))
            """,
            expected=[(12, 8)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `q` of `pick` (called from traced `model`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
            ],
        ),
        # an equinox Module handed to a jitted function whose calls pass an instance of it:
        # `jax.vmap(model)(xs)` runs its `__call__` on tracers (the layer the constructor
        # stored gives one)
        Invalid(
            """
            import equinox as eqx
            import jax
            import jax.numpy as jnp


            class GatedMLP(eqx.Module):
                lin: eqx.nn.Linear

                def __init__(self, key):
                    self.lin = eqx.nn.Linear(4, 4, key=key)

                def __call__(self, x):
                    out = self.lin(x)
                    if jnp.linalg.norm(out) > 1.0:
                        out = out / jnp.linalg.norm(out)
                    return x + out


            @eqx.filter_jit
            def loss(model, xs):
                return jnp.mean(jax.vmap(model)(xs) ** 2)


            model = GatedMLP(jax.random.PRNGKey(0))
            print(loss(model, jnp.ones((8, 4))))
            """,
            expected=[(14, 12)],
            messages=[
                "Python `if` on a traced value: it depends on the traced argument `x` of `__call__` (called from traced `loss`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._covered: set[int] = set()
        self._reported: set[int] = set()  # tests' parts reported as a whole (`if 0 < x < 1:`)

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
            if _is_presence_check(test.left) or self._reaches_right(test):
                # `x is not None and x.any()`: the right side runs whenever the
                # guard passes; `True and x`, `0 or x`: always; after a plain flag
                # it may never run (unsure)
                found = self._bool_offender(test.right)
                if found is not None and self._guarded_by_left(test, found[0]):
                    return None
                return found
            return None
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self._bool_offender(test.expression)
        v = self._array_tracer(test)
        return (test, v) if v is not None else None

    def _guarded_by_left(self, test: cst.BooleanOperation, node: cst.CSTNode) -> bool:
        """The right operand runs only when the left one proved the traced names of
        ``node`` to be Python values: `isinstance(s, float) and s == 1.` (a tracer is no
        float: `and` stops first), `isinstance(s, jax.Array) or s > 0`."""
        ctx = self.ctx
        shown = set(ctx.concrete_names(test.left, isinstance(test.operator, cst.Or)))
        if not shown:
            return False
        traced = {n.value for n in walk_tree(node) if isinstance(n, cst.Name) and ctx.is_traced(n)}
        return bool(traced) and traced <= shown

    def _reaches_right(self, test: cst.BooleanOperation) -> bool:
        """The left operand's truth is a constant that hands the test to the right one:
        `True and x`, `1 and x`, `False or x`, `None or x`, `DEBUG and x` for a name
        bound once to an integer literal (``ctx.constant_int``)."""
        left = test.left
        truth: Optional[bool] = None
        if isinstance(left, cst.Name) and left.value in ("True", "False", "None"):
            truth = left.value == "True"
        else:
            i = self.ctx.constant_int(left)
            if i is not None:
                truth = i != 0
            else:
                # `train_state or rng` with `train_state=None` that no traced call passes
                truth = self.ctx.truth_under_trace(left)
        if truth is None:
            return False
        return truth if isinstance(test.operator, cst.And) else not truth

    def _test(self, owner: str, test: cst.BaseExpression, alternative: str) -> None:
        ctx = self.ctx
        found = self._bool_offender(test)
        self._cover(test)
        if found is None:
            return
        node, v = found
        self._reported.add(id(node))
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

    def visit_Comparison(self, node: cst.Comparison) -> None:
        """`500 < w <= 600` is `(500 < w) and (w <= 600)`: Python converts the first
        comparison to a bool; `x in (1, 2)` compares `x` with each element and converts the
        result; `1 in w` asks the traced array for a bool."""
        if id(node) in self._reported:
            return
        ctx = self.ctx
        left = node.left
        parts = node.comparisons
        for i, c in enumerate(parts):
            right = c.comparator
            if i < len(parts) - 1:
                # `<` between a number and a container raises anyway: a traced operand of
                # unknown kind ordered against something is an array
                find = self._scalar_tracer if isinstance(
                    c.operator, (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)
                ) else self._array_tracer
                v = find(left) or find(right)
                if v is not None:
                    first = f"{ctx.code(left).strip()}{ctx.code(c.operator)}{ctx.code(right).strip()}"
                    self.report(
                        node,
                        f"A chained comparison converts `{first.strip()}` to a Python bool before it "
                        f"compares again (it is `({first.strip()}) and (...)`), but it is traced: "
                        f"{ctx.describe_origin(v)}; this raises TracerBoolConversionError. Compare "
                        f"each pair and combine them with `&`: `({first.strip()}) & (...)`{ctx.static_hint(v)}",
                    )
                    return
            if isinstance(c.operator, (cst.In, cst.NotIn)):
                v = self._array_tracer(right)
                what = f"`in` asks the traced array `{ctx.code(right).strip()}` for a Python bool"
                if v is None and self._python_sequence(right):
                    # an argument of unknown kind only against a display of numbers
                    # (`i in (0, 9)`): a pytree may well be looked for among objects
                    v = self._array_tracer(left) or (self._scalar_tracer(left) if self._numbers(right) else None)
                    what = (f"`in` compares `{ctx.code(left).strip()}` with each element of a Python "
                            f"sequence and converts each result to a Python bool, but "
                            f"`{ctx.code(left).strip()}` is traced")
                if v is not None:
                    self.report(
                        node,
                        f"{what}: {ctx.describe_origin(v)}; this raises "
                        f"TracerBoolConversionError. Use `jnp.isin(x, jnp.asarray(values))` or "
                        f"`jnp.any(array == x)`{ctx.static_hint(v)}",
                    )
                    return
            left = right

    def _scalar_tracer(self, e: cst.BaseExpression):
        """A traced array, or a traced argument of unknown kind that the function compares
        with numbers (what else would it look for in a tuple of numbers?)."""
        v = self._array_tracer(e)
        if v is not None:
            return v
        if self.ctx.is_traced(e) and isinstance(e, cst.Name):
            v = self.ctx.value(e)
            if v.kind == V.UNKNOWN and v.cls is None:
                return v
        return None

    def _python_sequence(self, e: cst.BaseExpression) -> bool:
        """A tuple or list display, or a name the model knows holds one (not a dict or a
        set: `in` hashes the tracer there instead)."""
        if isinstance(e, (cst.Tuple, cst.List)):
            return True
        v = self.ctx.value(e)
        return v.kind in (V.LIST, V.TUPLE) and v.elements is not None and v.pytype != "dict"

    @staticmethod
    def _numbers(e: cst.BaseExpression) -> bool:
        """A tuple or list display of number literals (`(0, 9)`, `[-1, 1.5]`)."""
        if not isinstance(e, (cst.Tuple, cst.List)) or not e.elements:
            return False
        for el in e.elements:
            x = el.value
            if isinstance(x, cst.UnaryOperation) and isinstance(x.operator, cst.Minus):
                x = x.expression
            if not isinstance(x, (cst.Integer, cst.Float)):
                return False
        return True

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
        if isinstance(func, cst.Call):
            self._transformed_bool(node, func)
            return
        if isinstance(func, cst.Name) and func.value in ("max", "min"):
            self._builtin_max_min(node, func.value)
            return
        if isinstance(func, cst.Name) and func.value in ("all", "any", "sorted"):
            self._builtin_iterable(node, func.value)
            return
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

    def _transformed_bool(self, node: cst.Call, inner: cst.Call) -> None:
        """`jax.jit(bool)(x)`, `jax.vmap(bool)(xs)`: the transformation hands a tracer to
        `bool()`."""
        ctx = self.ctx
        t = apis.transform_for(ctx.qualname(inner.func))
        if t is None or not t.traces or not inner.args or not node.args or inner.args[0].keyword is not None:
            return
        if ctx.builtin_name(inner.args[0].value) != "bool":
            return
        self.report(
            node,
            f"`{ctx.code(inner).strip()}` traces its argument and calls `bool()` on the tracer: this "
            f"raises TracerBoolConversionError (ValueError for an array of several elements). "
            f"Instead, use `x.astype(bool)` or `jnp.any`/`jnp.all`, or call `bool()` outside the "
            f"transformation",
        )

    def _iterable_tracer(self, e: cst.BaseExpression, least: int):
        """(element expression, Value) of a traced array among the elements ``e`` hands
        out when iterated, where there are at least ``least`` of them: a list/tuple/set
        display, a comprehension or generator over anything, a traced array itself (its
        rows), a name holding a list/tuple of tracers; else None."""
        ctx = self.ctx
        if isinstance(e, (cst.List, cst.Tuple, cst.Set)):
            els = [el.value for el in e.elements if not isinstance(el, cst.StarredElement)]
            if len(e.elements) < least:
                return None
            for x in els:
                v = self._array_tracer(x)
                if v is not None:
                    return x, v
            return None
        if isinstance(e, (cst.GeneratorExp, cst.ListComp)) and least <= 1:
            v = self._array_tracer(e.elt)
            if v is not None:
                return e.elt, v
            return self._compared_item(e)
        v = self._array_tracer(e)
        if v is not None and least <= 1:
            return e, v
        held = ctx.value(e)
        if held.kind in (V.LIST, V.TUPLE) and held.elements is not None and len(held.elements) >= least:
            for el in held.elements:
                if el.kind == V.ARRAY and el.traced:
                    return e, el
        return None

    def _compared_item(self, e) -> Optional[tuple]:
        """``v > 0 for v in (x, y)``: one `for` over a display (or list) of tracers whose
        target the element compares with a number (or is itself): each item a traced
        array, each element a traced bool."""
        f = e.for_in
        if f.inner_for_in is not None or f.ifs or not isinstance(f.target, cst.Name):
            return None
        if isinstance(f.iter, (cst.GeneratorExp, cst.ListComp)):
            return None
        found = self._iterable_tracer(f.iter, 1)
        if found is None and isinstance(f.iter, (cst.List, cst.Tuple)) and isinstance(e.elt, cst.Comparison):
            # an argument of unknown kind that the element compares with a number: a scalar
            for el in f.iter.elements:
                v = None if isinstance(el, cst.StarredElement) else self._scalar_tracer(el.value)
                if v is not None:
                    found = (el.value, v)
                    break
        if found is None:
            return None
        target = f.target.value
        elt = e.elt
        if isinstance(elt, cst.Name) and elt.value == target:
            return elt, found[1]
        if isinstance(elt, cst.Comparison) and len(elt.comparisons) == 1:
            c = elt.comparisons[0]
            if not isinstance(c.operator, (cst.LessThan, cst.LessThanEqual, cst.GreaterThan,
                                           cst.GreaterThanEqual, cst.Equal, cst.NotEqual)):
                return None
            sides = (elt.left, c.comparator)
            if any(isinstance(x, cst.Name) and x.value == target for x in sides) and \
                    any(self._numbers(cst.Tuple([cst.Element(x)])) for x in sides):
                return elt, found[1]
        return None

    def _builtin_iterable(self, node: cst.Call, name: str) -> None:
        """``all([x > 0, y > 0])``, ``any(v > 0 for v in xs)``, ``sorted([a, b])``: the
        builtin converts each element (compares two of them) as a Python bool, which a
        traced array cannot give (jax 0.10.2: TracerBoolConversionError under jit)."""
        if self.ctx.builtin_name(node.func) != name or len(node.args) != 1 \
                or node.args[0].star or node.args[0].keyword is not None:
            return
        found = self._iterable_tracer(node.args[0].value, 1 if name in ("all", "any") else 2)
        if found is None:
            return
        e, v = found
        alt = {"all": "`jnp.all(jnp.stack([...]))`", "any": "`jnp.any(jnp.stack([...]))`",
               "sorted": "`jnp.sort(jnp.stack([...]))`"}[name]
        what = "converts each element to a Python bool" if name != "sorted" else "compares its elements as Python bools"
        self.report(
            node,
            f"`{name}()` {what}, but `{self.ctx.code(e).strip()}` is traced: "
            f"{self.ctx.describe_origin(v)}; this raises TracerBoolConversionError. Use {alt}"
            f"{self.ctx.static_hint(v)}",
        )

    def _builtin_max_min(self, node: cst.Call, name: str) -> None:
        """``max(0.0, margin - score)``: the builtin compares its arguments with ``>``/``<``
        and converts the result to a Python bool, which a traced array cannot give."""
        if self.ctx.builtin_name(node.func) != name:
            return
        args = node.args
        if len(args) == 1 and not args[0].star and args[0].keyword is None:
            # `max([a, b])`, `min(losses)` of a list of tracers: the same comparisons
            found = self._iterable_tracer(args[0].value, 2)
            if found is not None:
                alt = "jnp.max(jnp.stack(...))" if name == "max" else "jnp.min(jnp.stack(...))"
                self.report(
                    node,
                    f"`{name}()` compares its arguments as Python bools, but `{self.ctx.code(found[0]).strip()}` "
                    f"is traced: {self.ctx.describe_origin(found[1])}; this raises TracerBoolConversionError. "
                    f"Use `{alt}`{self.ctx.static_hint(found[1])}",
                )
            return
        if len(args) < 2 or any(a.star or a.keyword is not None for a in args):
            return
        numbers = any(self._numbers(cst.Tuple([cst.Element(a.value)])) for a in args)
        for a in args:
            # an argument of unknown kind compared with a number literal is a scalar
            v = self._scalar_tracer(a.value) if numbers else self._array_tracer(a.value)
            if v is not None:
                alt = "jnp.maximum" if name == "max" else "jnp.minimum"
                self.report(
                    node,
                    f"`{name}()` compares its arguments as Python bools, but `{self.ctx.code(a.value)}` "
                    f"is traced: {self.ctx.describe_origin(v)}; this raises TracerBoolConversionError. "
                    f"Use `{alt}`{self.ctx.static_hint(v)}",
                )
                return
