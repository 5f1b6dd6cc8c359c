"""JAX202 tracer-to-python-conversion: `int()`/`float()`/`.item()`/`range()`/indexing/shapes need a concrete value, but get a tracer."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import apis
from jaxlint.model import values as V
from jaxlint.model.evaluation import JAX_COMPUTED
from jaxlint.model.walk import arg_at, walk_tree
from jaxlint.rules.tracing._library_statics import bound_transform, direct_findings, short, transformed_finding


class TracerConversion(Rule):
    code = "JAX202"
    caught_by = apis.CONCRETIZATION_CATCHERS | apis.TRACER_INTEGER_CATCHERS
    name = "tracer-to-python-conversion"
    runtime_check = '`jax.jit(f).trace(...)`: confirmed when `ConcretizationTypeError`/`TracerIntegerConversionError` is raised at the flagged line.'
    summary = "`int()`/`float()`/`.item()`/`range()`/indexing/shapes need a concrete value, but get a tracer"
    severity = Severity.ERROR
    seed = (
        "The Sharp Bits § Control Flow and § functions with argument-value dependent shapes "
        "(seed 000); FAQ § Abstract tracer value (seeds 001, 004); study notes § static shapes (seed 003)"
    )
    what_it_does = (
        "Inside traced code, flags conversions of a traced value to a Python value: "
        "`int(x)`, `float(x)`, `complex(x)`, `x.item()`, `x.tolist()`, `range(x)`, the `math` "
        "module's functions (`math.sqrt(x)`, `math.exp(x)`: `__float__`; `math.factorial(n)`: "
        "`__index__`), indexing a "
        "Python list or tuple with a tracer (also a list of arrays every call passes to the traced "
        "function: jit keeps the list and traces its items), and shapes built from tracers "
        "(also a field of a pytree class named like an array attribute: `grid.shape` of an equinox "
        "module holding `jnp.asarray(shape)` is the traced leaf) "
        "(`jnp.zeros((n,))`, `jnp.ones(n)`, `jnp.arange(n)`, `x.reshape(n, -1)`, "
        "`jax.random.normal(key, (n,))`...), and every other argument that fixes a result's "
        "size: `jnp.arange(0, n, 1)`'s stop and step, `jnp.eye(3, m)`, `jnp.tri`, "
        "`jnp.triu_indices(n)`/`tril_indices`, the slice sizes of `lax.dynamic_slice`, "
        "`jax.nn.one_hot`'s `num_classes`, `jax.ops.segment_*`'s `num_segments`, the sections of "
        "`jnp.split`/`array_split`/`hsplit`, `size=` of `jnp.nonzero`/`unique`/`where`, "
        "`jnp.bincount(length=)`, `jnp.pad`'s widths, FFT lengths, window lengths "
        "(`jnp.hanning(M)`), `top_k`'s `k`, `jax.image.resize`'s shape, `lax.scan`'s `length`, "
        "`lax.pad`'s padding, the `k` of `jnp.diagflat`/`triu_indices_from`, the slice bounds of "
        "`jnp.r_[0:n]`/`c_`/`mgrid`/`ogrid`, and every `jax.random` "
        "sampler's shape (the table is `MORE_SIZE_ARGS` in jaxlint/model/apis.py); a size computed "
        "under `jit` from a concrete JAX array (`self._n + 1` of `self._n = jnp.asarray(n)`: the "
        "operation is staged, a tracer) counts as traced; and every other "
        "argument JAX's functions turn into a Python value (`lax.integer_pow`'s `y`, "
        "`lax.reduce_precision`'s bits, `jnp.roll`/`jnp.concatenate`/`jnp.take`'s `axis`, "
        "`jnp.repeat`'s `axis`...), with the error JAX raises for each (the table is "
        "jaxlint/model/static_args.py, derived from the installed JAX by bench/static_args.py). "
        "The static parameters of JAX's own jitted functions (`jnp.linalg.matrix_power`'s `n`, "
        "`jnp.rot90`'s `k`, `jnp.linalg.norm`'s `ord`...), where a tracer raises `ValueError: "
        "Non-hashable static arguments are not supported`, are JAX207's (the same table). Sizes computed from `.shape`, `len()` or static "
        "arguments are fine and are not flagged (an `int`/`float`/`bool` annotation does not make a "
        "parameter static: `@jax.jit` over `def f(x, count: int)` traces `count`, and so does "
        "`@partial(jax.jit, static_argnums=1)` over `def f(x, order: int, count: int)`), and so is a value after a guard that leaves "
        "on a tracer (`if isinstance(v, jax.core.Tracer): raise TypeError(...)`, also "
        "`isinstance(v, jax.Array)`). A parameter of a flax/equinox/haiku module's method is "
        "taken as an array (`model.apply` runs it under `jit`), except one the method puts "
        "straight into a shape (`jnp.tile(x, [num_quantiles, 1])`, `h, w = size` then "
        "`jnp.ones((h, w))`) and never reads as an array, when no call in the file passes it "
        "one: its callers give a Python value.\n\n"
        "Also flags a traced `axis` given to a reduction (`x.min(axis)`, `jnp.sum(x, axis=a)`, "
        "`jnp.argmax(x, a)`: the axis must be a Python int; not a parameter with a Python default, "
        "which callers of a function jitted whole usually leave as it is; a parameter with a default "
        "that a call of the jit passes is traced, also through a function rebound to its own jit, "
        "`f = jax.jit(f)` after `def f(x, n=15)`, then `f(x, n=50)`) and the builtin conversions "
        "themselves given to a transformation (`jax.jit(int)(x)`, `jax.grad(float)(x)`), and a library "
        "function with a size argument given to `jit` and called with that argument not marked "
        "static (`jax.jit(jax.nn.one_hot)(x, 5)`, `f = jax.jit(jax.ops.segment_sum)` then "
        "`f(x, ids, num_segments=4)`).\n\n"
        "A `for` loop over a JAX array built in the trace from Python values alone (`for i in "
        "jnp.arange(5)[::-1]`) hands out tracers: when its variable indexes a list or tuple or "
        "goes to `int()`/`range()`, the finding is at the loop, where the fix goes (loop over "
        "`range(...)` or `np.arange(...)`), once per loop, spanning to the first such use.\n\n"
        "In a function differentiated outside `jit` (`jax.grad(f)(x)`, `value_and_grad`, "
        "`jacfwd`/`jacrev`, `jvp`/`vjp`/`linearize`) the tracers hold concrete values: `int()`, "
        "`.item()`, `range()`, indexes and shapes work and are not flagged, but `float()`, "
        "`complex()` and `.tolist()` of a differentiated value still raise "
        "ConcretizationTypeError (jax 0.10.2) and are flagged."
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
    use_instead = (
        "```python\n@partial(jax.jit, static_argnums=(1,))\ndef f(x, n):\n    y = jnp.ones((n,))\n"
        "    y = lax.fori_loop(0, n, lambda i, y: y + x[i], y)\n    return y.sum()\n```\n\n"
        "Return arrays from jitted code and convert with `float()` outside it."
    )
    fix_safety = "No automatic fix: making an argument static changes when the function recompiles."
    VALID = [
        # a linen helper's sizes that its own class's methods pass as shape ints (a tuple unpacked in
        # another helper first): Python values, `int()` and `jnp.arange` work
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from flax import linen as nn


            class Attention(nn.Module):
                def rel_pos(self, q_size, k_size, table):
                    dist = int(2 * max(q_size, k_size) - 1)
                    coords = jnp.arange(q_size)[:, None] - jnp.arange(k_size)[None, :] + (k_size - 1)
                    return table[:dist][coords]

                def add_rel_pos(self, attn, size):
                    qh, qw = size
                    return attn + self.rel_pos(qh, qw, jnp.ones((2 * max(qh, qw) - 1,)))

                @nn.compact
                def __call__(self, x):
                    batch, height, width, _ = x.shape
                    attn = nn.Dense(width)(x)[0, :, :, 0]
                    return self.add_rel_pos(attn, (height, width))
            """
        ),
        Valid(
            """
            import jax


            @jax.jit
            def bind(slots, values):
                # a dict keyed by values derived from traced pytrees: not list indexing
                table = {}
                for v in values:
                    table[v.slot()] = v
                return [table.get(s, s) for s in slots]
            """
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def g(x):
                y = 0.
                for i in range(x.shape[0]):
                    y = y + x[i]
                n = int(x.shape[0]) * len(x)
                return jnp.zeros((n,)) + y
            """
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np

            @jax.jit
            def f(x):
                return jnp.reshape(x, np.prod(x.shape))
            """
        ),
        Valid(
            """
            from functools import partial
            import jax
            import jax.numpy as jnp

            @partial(jax.jit, static_argnums=(0,))
            def example_fun(length, val):
                return jnp.ones((length,)) * val
            """
        ),
        Valid(
            """
            import jax.numpy as jnp

            def summary(x):
                return float(jnp.mean(x)), x.sum().item()
            """
        ),
        Valid(
            """
            import jax

            @jax.grad
            def f(x):
                return x * int(x)
            """
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def head(x):
                n = x.shape[0] // 2
                return x[:n], x[n:], x[::2]
            """
        ),
        # lax.psum of a Python number is the axis size as a Python int (as lax.axis_size)
        Valid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp
            from jax import lax


            @partial(jax.pmap, axis_name="ring")
            def rotate_all(x):
                n = lax.psum(1, "ring")
                outs = [lax.ppermute(x, "ring", [(i, (i + k) % n) for i in range(n)]) for k in range(n)]
                return jnp.stack(outs) / float(lax.axis_size("ring"))
            """
        ),
        # the enclosing function returns before jitting when `temperature` is None, so
        # under trace the `is None` branch of the closure is dead
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def make_sampler(temperature=None):
                def sample(logits):
                    if temperature is None:
                        return int(jnp.argmax(logits))
                    return jax.nn.softmax(logits / temperature)

                if temperature is None:
                    return sample
                return jax.jit(sample)


            def make_greedy(temperature=None):
                def pick(logits):
                    if temperature is None:
                        return int(jnp.argmax(logits))
                    return jax.nn.softmax(logits / temperature)

                if temperature is None: return pick
                return jax.jit(pick)
            """
        ),
        # a module helper method whose every call in the file passes a shape: static
        Valid(
            """
            import jax.numpy as jnp
            from flax import nnx


            class GRU(nnx.Module):
                def __init__(self, hidden: int, rngs: nnx.Rngs):
                    self.hidden = hidden
                    self.cell = nnx.GRUCell(hidden, hidden, rngs=rngs)

                def zero_state(self, batch_shape):
                    return jnp.zeros((*batch_shape, self.hidden))

                def __call__(self, xs):
                    h = self.zero_state(xs.shape[:1])
                    for t in range(xs.shape[1]):
                        h, _ = self.cell(h, xs[:, t])
                    return h


            @nnx.jit
            def encode(model, xs):
                return model(xs), model.zero_state((4,))
            """
        ),
        # a call of another class's method of the same name (`linen.LSTMCell`) is not a
        # call of this helper
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from flax import linen, nnx


            class Cell(nnx.Module):
                def __init__(self, hidden: int):
                    self.hidden = hidden

                def initialize_carry(self, input_shape, rngs):
                    return jnp.zeros((input_shape[0], self.hidden))


            def test_carry_shapes():
                x = jnp.ones((2, 5, 3))
                ours = Cell(4).initialize_carry(x.shape, nnx.Rngs(0))
                ref = linen.LSTMCell(features=4)
                theirs = ref.initialize_carry(jax.random.key(0), x[:, 0].shape)
                assert ours.shape == theirs[1].shape
            """
        ),
        # guards: after `if isinstance(v, jax.core.Tracer): raise ...` (also through `core`, an
        # alias, `isinstance(v, jax.Array)`, in a disjunction) `v` is a Python value
        Valid(
            """
            import jax
            from jax import core

            Tracer = core.Tracer


            def to_index(v):
                if isinstance(v, jax.core.Tracer):
                    raise TypeError("pass a concrete index")
                return int(v)


            def to_count(v):
                if isinstance(v, jax.Array):
                    raise ValueError("a Python int, please")
                return int(v)


            def to_scale(v):
                if v is None or isinstance(v, Tracer):
                    return 1.0
                return float(v)


            @jax.jit
            def f(x, i):
                return x * to_index(i) + to_count(i) + to_scale(i)
            """
        ),
        # a flax NNX module's helper method that the user calls (a generation loop): it runs
        # eagerly, only the method it calls is jitted
        Valid(
            """
            import jax.numpy as jnp
            from flax import nnx

            class MiniGPT(nnx.Module):
                def __init__(self, rngs: nnx.Rngs):
                    self.linear = nnx.Linear(4, 4, rngs=rngs)

                def __call__(self, x):
                    return self.linear(x)

                @nnx.jit
                def step(self, tokens):
                    return self(tokens)

                def generate(self, max_tokens, start):
                    out = []
                    for i in range(max_tokens):
                        out.append(int(self.step(start).sum() > 0))
                    return out
            """
        ),
        Valid(
            """
            import jax
            from flax.nnx import Module

            class Base(Module):
                pass

            class Sampler(Base):
                def __call__(self, x):
                    return x * 2

                def sample_many(self, n_samples, x):
                    return [float(self(x).sum()) for _ in range(int(n_samples))]
            """
        ),
        # a Python int given to a vmapped function is never mapped (in_axes None, however
        # they are written: a module constant, a computed list)
        Valid(
            """
            import jax
            import jax.numpy as jnp

            AXES = (0, None)

            def pad(x, n):
                return jnp.concatenate([x, jnp.zeros(n)])

            def pad_all(xs, width):
                axes = [0] + [None]
                return jax.vmap(pad, in_axes=AXES)(xs, 3), jax.vmap(pad, in_axes=axes)(xs, width.shape[0])
            """
        ),
        # a linen method given ints unpacked from a shape (another class's `sample`
        # is given a traced count: its own affair)
        Valid(
            """
            import flax.linen as nn
            import jax.numpy as jnp

            class Alpha(nn.Module):
                def sample(self, batch_size, n_agents):
                    return jnp.ones((batch_size, n_agents))

                @nn.compact
                def __call__(self, q_vals):
                    n_agents, steps, batch = q_vals.shape
                    return q_vals.sum() * self.sample(steps * batch, n_agents)

            class Beta(nn.Module):
                def sample(self, n):
                    return n

                def __call__(self, counts):
                    return self.sample(counts.sum())
            """
        ),
        # a module's `__call__` that puts a parameter straight into a shape, called with a
        # Python int (`net.apply(params, x, num_quantiles=n)` with `n` static, or through
        # `vmap(in_axes=None)`) or given a config tuple by its parent module
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from flax import linen as nn


            class QuantileHead(nn.Module):
                num_actions: int

                @nn.compact
                def __call__(self, x, num_quantiles, rng):
                    tiled = jnp.tile(x, [num_quantiles, 1])
                    shape = [num_quantiles, 1]
                    taus = jax.random.uniform(rng, shape=shape)
                    return nn.Dense(self.num_actions)(tiled * taus)


            class PositionEmbedding(nn.Module):
                @nn.compact
                def __call__(self, size):
                    h, w = size
                    grid = jnp.ones((h, w), dtype=jnp.float32)
                    return jnp.cumsum(grid, axis=0) / h


            class PromptEncoder(nn.Module):
                image_embedding_size: tuple = (64, 64)

                def setup(self):
                    self.pe_layer = PositionEmbedding()

                def get_dense_pe(self, image_embedding_size=None):
                    if image_embedding_size is None:
                        image_embedding_size = self.image_embedding_size
                    return self.pe_layer(image_embedding_size)
            """
        ),
        # the same with equinox, the size used through `reshape`
        Valid(
            """
            import equinox as eqx
            import jax.numpy as jnp


            class Repeat(eqx.Module):
                def __call__(self, x, copies):
                    return jnp.broadcast_to(x, (copies, x.shape[0])).reshape(copies, -1)
            """
        ),
        # `if S is None: S = int(...)` that every traced caller skips by passing S (the
        # parameter is assigned only in that branch); the same spelled `is not None`
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def resample_indices(key, log_weights=None, S=None):
                if S is None:
                    S = int(jnp.exp(2.0 * jnp.log(jnp.sum(jnp.exp(log_weights)))))
                return jax.random.choice(key, log_weights.shape[0], (S,))


            @jax.jit
            def body(key, log_weights):
                return resample_indices(key, log_weights, 1)[0]


            def sample_masked(key, mask, num_samples=None):
                if num_samples is not None:
                    return jax.random.choice(key, mask.shape[0], (num_samples,))
                num_samples = int(mask.sum())
                return jnp.nonzero(mask, size=num_samples)[0]


            @jax.jit
            def pick(key, mask):
                return sample_masked(key, mask, num_samples=4)
            """
        ),
        # a static axis; a fixed one; a jitted jax.numpy function
        Valid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp

            @partial(jax.jit, static_argnums=1)
            def func(x, axis):
                return x.min(axis) + jnp.sum(x, axis=axis)

            @jax.jit
            def g(x):
                return x.max(0) + jnp.argmax(x, 0) + jax.jit(jnp.sum)(x)

            n = jax.jit(abs)(-1.0)
            """
        ),
        # an axis parameter with a default, the function jitted whole (optax's losses under
        # `jax.jit(loss)(logits, labels)`): the axis keeps its Python default
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def softmax_cross_entropy(logits, labels, axis=-1):
                return -(labels * jax.nn.log_softmax(logits, axis=axis)).sum(axis)


            def kl(log_p, q, axis=-1):
                return jnp.sum(q * (jnp.log(q) - log_p), axis=axis)


            jax.jit(softmax_cross_entropy)(jnp.zeros((2, 3)), jnp.ones((2, 3)))
            jax.jit(kl)(jnp.zeros(3), jnp.ones(3))
            """
        ),
        # differentiated outside jit: int(), .item(), shapes and indexes see the value
        Valid(
            """
            import jax
            import jax.numpy as jnp

            def loss(w, k):
                n = int(jnp.argmax(w))
                return jnp.sum(w[: n + 1]) * w.sum().item() + jnp.zeros(int(w[0]) + k).sum()

            jax.grad(loss)(jnp.ones(3), 2)
            jax.value_and_grad(loss)(jnp.ones(3), 2)
            """
        ),
        # every size argument static: a static width, jnp.arange's stop from a Python value
        Valid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp
            from jax import lax


            @partial(jax.jit, static_argnums=(2,))
            def window(x, start, width):
                steps = start + jnp.arange(0, width, 1)
                return lax.dynamic_slice(x, (start,), (width,)) + steps


            def band(n, v):
                return jnp.eye(3, n) * v + jnp.arange(stop=n, start=0).sum()


            w = window(jnp.ones(8), 2, 3)
            b = jax.vmap(band, in_axes=(None, 0))(4, jnp.arange(3.0))
            """
        ),
        # sizes from shapes or static arguments; jit told which arguments are static
        Valid(
            """
            from functools import partial
            import jax
            import jax.numpy as jnp
            from jax import jit
            from jax.nn import one_hot


            @partial(jax.jit, static_argnames=("num_actions",))
            def train(batch, num_actions):
                n = batch["x"].shape[0]
                a = jax.nn.one_hot(batch["action"], num_actions)
                return a, jax.ops.segment_sum(batch["x"], batch["ids"], n), jnp.split(batch["x"], n)


            x = jit(one_hot, static_argnums=1)(3, 5)
            y = jit(one_hot, static_argnames="num_classes")(3, num_classes=5)
            z = jit(partial(one_hot, num_classes=5))(3)
            w = jax.jit(jax.ops.segment_sum, static_argnums=2)(jnp.ones(3), jnp.array([0, 0, 1]), 2)
            """
        ),
        # `count: int` named static; a concrete loop index under jit
        Valid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp


            @partial(jax.jit, static_argnames=("count",))
            def moments(x, count: int):
                return [jnp.mean(x ** k) for k in range(count)]


            @jax.jit
            def powers(x):
                return [jnp.linalg.matrix_power(x, k) for k in range(3)]
            """
        ),
        # a loop over Python ints (NumPy's arange, range) indexes tuples with Python ints; a
        # loop primitive's carry that holds a stacked array is indexed as an array
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np
            from jax import lax

            STRIDES = (1, 2, 2)


            @jax.jit
            def decode(x):
                for i in np.arange(3)[::-1]:
                    x = x * STRIDES[i]
                for j in range(3):
                    x = x + STRIDES[j]
                return x


            def body(i, args):
                return args[0], args[1] @ args[0][i]


            @jax.jit
            def chain(mats, h):
                return lax.fori_loop(0, 2, body, (jnp.stack(mats), h))[1]
            """
        ),
    ]


    INVALID = [
        # a defaulted parameter passed through the jitted function's name (`fj = jax.jit(f)`)
        # or an inline `jax.jit(f)(x, 3)`: traced like any argument
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def forward(x, depth=6):
                for _ in range(depth):
                    x = jnp.tanh(x)
                return x


            def scaled(x, k=2):
                return x * int(k)


            fj = jax.jit(forward)
            y = fj(jnp.ones(3), 4)
            z = jax.jit(scaled)(jnp.ones(3), 3)
            """,
            expected=[(6, 14), (12, 16)],
            messages=[
                "`range()` needs a concrete value, but its argument is traced: it depends on the traced argument `depth` of `forward` (wrapped by jax.jit); this raises TracerIntegerConversionError. Instead, use `jax.lax.fori_loop`/`lax.scan` for loops of traced length; or, if `depth` is a Python value, mark it static (static_argnums=1)",
                "`int()` needs a concrete value, but its argument is traced: it depends on the traced argument `k` of `scaled` (wrapped by jax.jit); this raises ConcretizationTypeError. Instead, keep it as an array (`x.astype(jnp.int32)`), or return it and convert outside the traced function; or, if `k` is a Python value, mark it static (static_argnums=1)",
            ],
        ),
        # a traced caller leaves S out: the branch runs under the trace
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def resample_indices(key, log_weights=None, S=None):
                if S is None:
                    S = int(jnp.exp(2.0 * jnp.log(jnp.sum(jnp.exp(log_weights)))))
                return jax.random.choice(key, log_weights.shape[0], (S,))


            @jax.jit
            def body(key, log_weights):
                return resample_indices(key, log_weights)[0]
            """,
            expected=[(7, 13)],
            messages=[
                "`int()` needs a concrete value, but its argument is traced: it depends on the traced argument `log_weights` of `resample_indices` (called from traced `body`); this raises ConcretizationTypeError. Instead, keep it as an array (`x.astype(jnp.int32)`), or return it and convert outside the traced function",
            ],
        ),
        # the parent module passes the count it computes from an array: traced
        Invalid(
            """
            import jax.numpy as jnp
            from flax import linen as nn


            class Head(nn.Module):
                @nn.compact
                def __call__(self, x, n):
                    return jnp.tile(x, [n, 1])


            class Net(nn.Module):
                def setup(self):
                    self.head = Head()

                def __call__(self, x, mask):
                    return self.head(x, jnp.sum(mask))
            """,
            expected=[(8, 29)],
            messages=[
                "A shape or size passed to `jnp.tile` is traced: it depends on the traced argument `n` of `__call__` (a method of the module class Head); shapes must be concrete (TypeError: Shapes must be 1D sequences of concrete values). Derive it from `x.shape`, or pass it as a static argument",
            ],
        ),
        # an equinox module's helper given a traced count by its own `__call__`
        Invalid(
            """
            import equinox as eqx
            import jax
            import jax.numpy as jnp


            class Pool(eqx.Module):
                size: int = 2

                def window(self, x, n):
                    return x.reshape(n, -1).mean(axis=1)

                def __call__(self, x):
                    return self.window(x, jnp.sum(x > 0))
            """,
            expected=[(10, 26)],
            messages=[
                'A shape or size passed to `.reshape()` is traced: it depends on the traced argument `n` of `window` (a method of the module class Pool); shapes must be concrete (TypeError: Shapes must be 1D sequences of concrete values). Derive it from `x.shape`, or pass it as a static argument',
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            def example_fun(length, val):
                return jnp.ones((length,)) * val

            bad_example_jit = jax.jit(example_fun)
            """,
            expected=[(5, 22)],
            messages=[
                "A shape or size passed to `jnp.ones` is traced: it depends on the traced argument `length` of `example_fun` (wrapped by jax.jit); shapes must be concrete (TypeError: Shapes must be 1D sequences of concrete values). Derive it from `x.shape`; or, if `length` is a Python value, mark it static (static_argnums=0)",
            ],
        ),
        Invalid(
            """
            import jax

            def f(x, n):
                y = 0.
                for i in range(n):
                    y = y + x[i]
                return y

            f = jax.jit(f)
            """,
            expected=[(5, 14)],
            messages=[
                "`range()` needs a concrete value, but its argument is traced: it depends on the traced argument `n` of `f` (wrapped by jax.jit); this raises TracerIntegerConversionError. Instead, use `jax.lax.fori_loop`/`lax.scan` for loops of traced length; or, if `n` is a Python value, mark it static (static_argnums=1)",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                total = jnp.sum(x)
                return int(total) + x.max().item() + float(x[0])
            """,
            expected=[(7, 12), (7, 25), (7, 42)],
            messages=[
                "`int()` needs a concrete value, but its argument is traced: it depends on the traced argument `x` of `f` (decorated with @jax.jit); this raises ConcretizationTypeError. Instead, keep it as an array (`x.astype(jnp.int32)`), or return it and convert outside the traced function",
                "`.item()` needs a concrete value, but its argument is traced: it depends on the traced argument `x` of `f` (decorated with @jax.jit); this raises ConcretizationTypeError. Instead, keep it as an array, or return it and convert outside the traced function; or, if `x` is a Python value, mark it static (static_argnums=0)",
                "`float()` needs a concrete value, but its argument is traced: it depends on the traced argument `x` of `f` (decorated with @jax.jit); this raises ConcretizationTypeError. Instead, keep it as an array (`x.astype(jnp.float32)`), or return it and convert outside the traced function; or, if `x` is a Python value, mark it static (static_argnums=0)",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def window(x, i):
                return jnp.sort(x)[i:i + 3]
            """,
            expected=[(6, 24)],
            messages=[
                "A slice bound is traced: it depends on the traced argument `i` of `window` (decorated with @jax.jit); slice sizes must be static (IndexError: Array slice indices must have static start/stop/step). Use `jax.lax.dynamic_slice(x, (start,), (size,))` with a static size; or, if `i` is a Python value, mark it static (static_argnums=1)",
            ],
        ),
        Invalid(
            """
            import jax

            @jax.jit
            def pick(i, table):
                options = [1.0, 2.0, 3.0]
                return options[i] * table
            """,
            expected=[(6, 12)],
            messages=[
                "Indexing a Python list/tuple with a traced value raises TracerIntegerConversionError: it depends on the traced argument `i` of `pick` (decorated with @jax.jit). Make it an array (`jnp.asarray(...)[i]`) or use `jax.lax.switch`; or, if `i` is a Python value, mark it static (static_argnums=0)",
            ],
        ),
        # a list of arrays every call passes: jit keeps the Python list (a pytree) and traces its items
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def select(idx, tables):
                return tables[idx]

            print(select(1, [jnp.ones(3), jnp.zeros(3)]))
            """,
            expected=[(6, 12)],
            messages=[
                "Indexing a Python list/tuple with a traced value raises TracerIntegerConversionError: it depends on the traced argument `idx` of `select` (decorated with @jax.jit). Make it an array (`jnp.asarray(...)[i]`) or use `jax.lax.switch`; or, if `idx` is a Python value, mark it static (static_argnums=0)",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x, k):
                return x.reshape(k, -1) + jax.random.normal(jax.random.key(0), (k,))
            """,
            expected=[(6, 22), (6, 69)],
            messages=[
                "A shape or size passed to `.reshape()` is traced: it depends on the traced argument `k` of `f` (decorated with @jax.jit); shapes must be concrete (TypeError: Shapes must be 1D sequences of concrete values). Derive it from `x.shape`; or, if `k` is a Python value, mark it static (static_argnums=1)",
                "A shape or size passed to `jax.random.normal` is traced: it depends on the traced argument `k` of `f` (decorated with @jax.jit); shapes must be concrete (TypeError: Shapes must be 1D sequences of concrete values). Derive it from `x.shape`; or, if `k` is a Python value, mark it static (static_argnums=1)",
            ],
        ),
        # psum of an array is an array, whatever its dtype
        Invalid(
            """
            from functools import partial

            import jax
            from jax import lax


            @partial(jax.pmap, axis_name="ring")
            def total_steps(counts):
                n = lax.psum(counts.sum(), "ring")
                return [counts * k for k in range(n)]
            """,
            expected=[(10, 33)],
            messages=[
                "`range()` needs a concrete value, but its argument is traced: it depends on the traced argument `counts` of `total_steps` (wrapped by jax.pmap); this raises TracerIntegerConversionError. Instead, use `jax.lax.fori_loop`/`lax.scan` for loops of traced length",
            ],
        ),
        # no early return: `make_sampler()` jits the closure with `temperature` None
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def make_sampler(temperature=None):
                def sample(logits):
                    if temperature is None:
                        return int(jnp.argmax(logits))
                    return jax.nn.softmax(logits / temperature)

                if temperature is None:
                    print("greedy")
                return jax.jit(sample)
            """,
            expected=[(8, 20)],
            messages=[
                "`int()` needs a concrete value, but its argument is traced: it depends on the traced argument `logits` of `sample` (wrapped by jax.jit); this raises ConcretizationTypeError. Instead, keep it as an array (`x.astype(jnp.int32)`), or return it and convert outside the traced function",
            ],
        ),
        # one call passes a traced value: the helper's parameter is traced
        Invalid(
            """
            import jax.numpy as jnp
            from flax import nnx


            class GRU(nnx.Module):
                def __init__(self, hidden: int, rngs: nnx.Rngs):
                    self.hidden = hidden

                def zero_state(self, batch):
                    return jnp.zeros((int(batch), self.hidden))

                def __call__(self, xs, lengths):
                    return self.zero_state(xs.shape[0]) + self.zero_state(lengths.max())
            """,
            expected=[(10, 27)],
            messages=[
                "`int()` needs a concrete value, but its argument is traced: it depends on the traced argument `batch` of `zero_state` (a method of the module class GRU); this raises ConcretizationTypeError. Instead, keep it as an array (`x.astype(jnp.int32)`), or return it and convert outside the traced function",
            ],
        ),
        # a Tracer check that does not leave guards nothing; a guard on `w` leaves `v` traced
        Invalid(
            """
            import jax


            def to_index(v, w):
                if isinstance(v, jax.core.Tracer):
                    print("traced index")
                if isinstance(w, jax.core.Tracer):
                    raise TypeError("pass a concrete weight")
                return int(v) * int(w)


            @jax.jit
            def f(x, i, j):
                return x * to_index(i, j)
            """,
            expected=[(9, 12)],
            messages=[
                "`int()` needs a concrete value, but its argument is traced: it depends on the traced argument `v` of `to_index` (called from traced `f`); this raises ConcretizationTypeError. Instead, keep it as an array (`x.astype(jnp.int32)`), or return it and convert outside the traced function",
            ],
        ),
        # ... but jit traces every argument it is given, the int too
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            AXES = (0, None)

            def shift(x, n):
                return jnp.concatenate([x, jnp.zeros(n)])

            shift_all = jax.jit(jax.vmap(shift, in_axes=AXES))
            """,
            expected=[(7, 42)],
            messages=[
                "A shape or size passed to `jnp.zeros` is traced: it depends on the traced argument "
                "`n` of `shift` (wrapped by jax.jit); shapes must be concrete (TypeError: Shapes must "
                "be 1D sequences of concrete values). Derive it from `x.shape`"
                "; or, if `n` is a Python value, mark it static (static_argnums=1)",
            ],
        ),
        # a linen method given a traced count by its module's `__call__` (model.apply
        # under jit: TypeError)
        Invalid(
            """
            import flax.linen as nn
            import jax.numpy as jnp

            class Beta(nn.Module):
                def sample(self, batch_size, n_agents):
                    return jnp.zeros((batch_size, n_agents))

                @nn.compact
                def __call__(self, q_vals, counts):
                    return self.sample(counts.sum(), q_vals.shape[0])
            """,
            expected=[(6, 27)],
            messages=[
                "A shape or size passed to `jnp.zeros` is traced: it depends on the traced argument "
                "`batch_size` of `sample` (a method of the module class Beta); shapes must be concrete "
                "(TypeError: Shapes must be 1D sequences of concrete values). Derive it from `x.shape`, "
                "or pass it as a static argument",
            ],
        ),
        # a traced axis; a builtin conversion given to a transformation
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def func(x, axis):
                return x.min(axis) + jnp.argmax(x, axis=axis)

            func(jnp.arange(4), 0)
            n = jax.jit(int)(jnp.ones(()))
            """,
            expected=[(6, 18), (6, 45), (9, 5)],
            messages=[
                "The axis passed to `.min()` is traced: it depends on the traced argument `axis` of `func` (decorated with @jax.jit); an axis must be a Python int, so this raises ConcretizationTypeError. Instead, pass a fixed axis; or, if `axis` is a Python value, mark it static (static_argnums=1)",
                "The axis passed to `jnp.argmax` is traced: it depends on the traced argument `axis` of `func` (decorated with @jax.jit); an axis must be a Python int, so this raises TracerIntegerConversionError. Instead, pass a fixed axis; or, if `axis` is a Python value, mark it static (static_argnums=1)",
                "`jax.jit(int)` traces its argument and calls `int()` on the tracer, which needs a concrete value: this raises ConcretizationTypeError. Instead, convert outside the transformation, or use `x.astype(...)`",
            ],
        ),
        # differentiated outside jit: float() (and complex(), .tolist()) of a tracer that
        # carries a derivative raises all the same (jax 0.10.2)
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            def loss(w):
                scale = float(jnp.max(w))
                return jnp.sum(w) * scale

            def residuals(p):
                return jnp.array(p.tolist())

            jax.grad(loss)(jnp.ones(3))
            jax.jacfwd(residuals)(jnp.ones(2))
            """,
            expected=[(5, 13), (9, 22)],
            messages=[
                "`float()` of a value being differentiated: it depends on the traced argument `w` of `loss` (differentiated by jax.grad); JAX refuses to turn a tracer that carries a derivative into a Python number, even outside jit (ConcretizationTypeError). Keep it as an array (`x.astype(jnp.float32)`), or use `jax.lax.stop_gradient` / convert the result outside the differentiated function",
                "`.tolist()` of a value being differentiated: it depends on the traced argument `p` of `residuals` (differentiated by jax.jacfwd); JAX refuses to turn a tracer that carries a derivative into a Python number, even outside jit (ConcretizationTypeError). Keep it as an array, or use `jax.lax.stop_gradient` / convert the result outside the differentiated function",
            ],
        ),
        # jit around grad: every argument is an abstract tracer, the sizes too
        Invalid(
            """
            import jax.numpy as np
            from jax import grad, jit

            def functional(X, m, n):
                r = X.shape[0]
                X_imshape = np.reshape(X, (r, m, n), order='F')
                return np.sum(X_imshape ** 2)

            jax_gradient = jit(grad(functional))
            """,
            expected=[(6, 35)],
            messages=[
                "A shape or size passed to `jnp.reshape` is traced: it depends on the traced argument `m` of `functional` (wrapped by jax.jit); shapes must be concrete (TypeError: Shapes must be 1D sequences of concrete values). Derive it from `x.shape`; or, if `m` is a Python value, mark it static (static_argnums=1)",
            ],
        ),
        # the other arguments that fix a size: jnp.arange's start/stop (positional or keyword),
        # lax.dynamic_slice's slice sizes, jnp.eye's column count
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            from jax import lax


            def window(x, start, width):
                steps = jnp.arange(start, start + width, 1)
                return lax.dynamic_slice(x, (start,), (width,)) + steps


            def band(n):
                return jnp.eye(3, n) + jnp.arange(stop=n, start=0)


            w = jax.jit(window)(jnp.ones(8), 2, 3)
            b = jax.vmap(band)(jnp.arange(3))
            """,
            expected=[(7, 24), (8, 44), (12, 23), (12, 44)],
            messages=[
                "A shape or size passed to `jnp.arange` is traced: it depends on the traced argument `start` of `window` (wrapped by jax.jit); shapes must be concrete (ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected). Derive it from `x.shape`; or, if `start` is a Python value, mark it static (static_argnums=1)",
                "A shape or size passed to `lax.dynamic_slice` is traced: it depends on the traced argument `width` of `window` (wrapped by jax.jit); shapes must be concrete (TypeError: Shapes must be 1D sequences of concrete values). Derive it from `x.shape`; or, if `width` is a Python value, mark it static (static_argnums=2)",
                "A shape or size passed to `jnp.eye` is traced: it depends on the traced argument `n` of `band` (wrapped by jax.vmap); shapes must be concrete (TypeError: Shapes must be 1D sequences of concrete values). Derive it from `x.shape`, or pass it as a static argument",
                "A shape or size passed to `jnp.arange` is traced: it depends on the traced argument `n` of `band` (wrapped by jax.vmap); shapes must be concrete (ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected). Derive it from `x.shape`, or pass it as a static argument",
            ],
        ),
        # the size arguments of the rest of the family: jax.nn, jax.ops, splits, FFT lengths
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            from jax import ops


            @jax.jit
            def train(batch, num_actions, k, n):
                a = jax.nn.one_hot(batch["action"], num_actions)
                s = ops.segment_sum(batch["x"], batch["ids"], num_segments=k)
                return a, s, jnp.array_split(batch["x"], n), jnp.fft.rfft(batch["x"], n)
            """,
            expected=[(8, 41), (9, 64), (10, 46), (10, 75)],
            messages=[
                "A shape or size passed to `jax.nn.one_hot` is traced: it depends on the traced argument `num_actions` of `train` (decorated with @jax.jit); shapes must be concrete (ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected). Derive it from `x.shape`; or, if `num_actions` is a Python value, mark it static (static_argnums=1)",
                "A shape or size passed to `jax.ops.segment_sum` is traced: it depends on the traced argument `k` of `train` (decorated with @jax.jit); shapes must be concrete (ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected). Derive it from `x.shape`; or, if `k` is a Python value, mark it static (static_argnums=2)",
                "A shape or size passed to `jnp.array_split` is traced: it depends on the traced argument `n` of `train` (decorated with @jax.jit); shapes must be concrete (ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected). Derive it from `x.shape`; or, if `n` is a Python value, mark it static (static_argnums=3)",
                "A shape or size passed to `jnp.fft.rfft` is traced: it depends on the traced argument `n` of `train` (decorated with @jax.jit); shapes must be concrete (TracerIntegerConversionError: The __index__() method was called on a traced array). Derive it from `x.shape`; or, if `n` is a Python value, mark it static (static_argnums=3)",
            ],
        ),
        # jit applied to the library function itself: its size argument is traced at the call
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            from jax import jit
            from jax.nn import one_hot

            print(jit(one_hot)(3, 5))
            pool = jax.jit(jax.ops.segment_sum)
            pooled = pool(jnp.ones(3), jnp.array([0, 0, 1]), num_segments=2)


            def chunks(x, n):
                split = jax.jit(jnp.array_split)
                return split(x, n)
            """,
            expected=[(6, 23), (8, 63), (13, 21)],
            messages=[
                "`jit(one_hot)` traces every argument it is not told is static, so `num_classes` of `jax.nn.one_hot` (here `5`) becomes a tracer; a size must be concrete (ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected). Mark it static (`jit(one_hot, static_argnums=1)`), or bind it first: `functools.partial(one_hot, num_classes=...)`",
                "`jax.jit(jax.ops.segment_sum)` traces every argument it is not told is static, so `num_segments` of `jax.ops.segment_sum` (here `2`) becomes a tracer; a size must be concrete (ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected). Mark it static (`jax.jit(jax.ops.segment_sum, static_argnames='num_segments')`), or bind it first: `functools.partial(jax.ops.segment_sum, num_segments=...)`",
                "`jax.jit(jnp.array_split)` traces every argument it is not told is static, so `indices_or_sections` of `jnp.array_split` (here `n`) becomes a tracer; a size must be concrete (ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected). Mark it static (`jax.jit(jnp.array_split, static_argnums=1)`), or bind it first: `functools.partial(jnp.array_split, indices_or_sections=...)`",
            ],
        ),
        # an `int` annotation is no static declaration when the jit names its static
        # arguments and leaves that one out
        Invalid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp


            @partial(jax.jit, static_argnums=(1,))
            def moments(x, order: int, count: int):
                return [jnp.mean(x ** k) for k in range(count)], order


            def pad_to(x, mode: str, width: int):
                return jnp.zeros(width) + x


            padded = jax.jit(pad_to, static_argnames="mode")(jnp.ones(3), "edge", 3)


            @jax.jit
            def scaled(x, count: int):
                # no static arguments named: the annotation does not make `count` static
                return jnp.zeros(count) + x
            """,
            expected=[(9, 39), (13, 22), (22, 22)],
            messages=[
                "`range()` needs a concrete value, but its argument is traced: it depends on the traced argument `count` of `moments` (wrapped by jax.jit); this raises TracerIntegerConversionError. Instead, use `jax.lax.fori_loop`/`lax.scan` for loops of traced length; or, if `count` is a Python value, mark it static (static_argnums=2)",
                "A shape or size passed to `jnp.zeros` is traced: it depends on the traced argument `width` of `pad_to` (wrapped by jax.jit); shapes must be concrete (TypeError: Shapes must be 1D sequences of concrete values). Derive it from `x.shape`; or, if `width` is a Python value, mark it static (static_argnums=2)",
                "A shape or size passed to `jnp.zeros` is traced: it depends on the traced argument `count` of `scaled` (decorated with @jax.jit); shapes must be concrete (TypeError: Shapes must be 1D sequences of concrete values). Derive it from `x.shape`; or, if `count` is a Python value, mark it static (static_argnums=1)",
            ],
        ),
        # a loop over a JAX array built in the trace: reported at the loop, where the fix goes;
        # a list of arrays carried by fori_loop stays a list in the body
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            from jax import lax

            STRIDES = (1, 2, 2)


            @jax.jit
            def decode(x):
                for i in jnp.arange(3)[::-1]:
                    x = x * STRIDES[i] + STRIDES[i]
                return x


            def body(i, args):
                return args[0], args[1] @ args[0][i]


            @jax.jit
            def chain(mats, h):
                return lax.fori_loop(0, len(mats), body, (mats, h))[1]


            chain([jnp.eye(2), jnp.eye(2)], jnp.ones(2))
            """,
            expected=[(10, 14), (16, 31)],
            messages=[
                "`for i in jnp.arange(3)[::-1]` loops over a JAX array, so under the trace `i` is a tracer (it is computed by JAX inside `decode` (decorated with @jax.jit)): `STRIDES[i]` on line 11 indexes a Python list/tuple with it, which raises TracerIntegerConversionError. Loop over Python ints instead (`range(...)`, `np.arange(...)`)",
                "Indexing a Python list/tuple with a traced value raises TracerIntegerConversionError: it depends on the traced argument `i` of `body` (a body passed to lax.fori_loop). Make it an array (`jnp.asarray(...)[i]`) or use `jax.lax.switch`",
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # enclosing `for` loops of the walk: (loop, its target's name or None, whether
        # it iterates a JAX array computed in the trace from Python values alone)
        self._loops: list[tuple[cst.For, Optional[str], bool]] = []
        self._loops_reported: set[int] = set()

    def visit_For(self, node: cst.For) -> None:
        name = node.target.value if type(node.target) is cst.Name else None
        computed = False
        if name is not None and self.ctx.is_traced(node.iter):
            v = self.ctx.value(node.iter)
            # `for i in jnp.arange(5)[::-1]`: an array JAX builds in the trace from
            # Python values alone (no traced argument): every `i` is a tracer only
            # because the loop walks a JAX array, a loop over Python ints is the fix
            computed = v.kind == V.ARRAY and bool(v.deps) and v.deps <= JAX_COMPUTED
        self._loops.append((node, name, computed))

    def leave_For(self, node: cst.For) -> None:
        if self._loops and self._loops[-1][0] is node:
            self._loops.pop()

    def _from_loop(self, e: cst.BaseExpression, use: cst.CSTNode, what: str, error: str) -> bool:
        """``e`` is the target of the innermost enclosing loop over a JAX array computed in
        the trace from Python values (``for i in jnp.arange(5)``), not rebound in its body:
        report once, at the loop's iterable, where the fix goes (a loop over Python ints);
        True when reported here (or already, for an earlier use in the same loop)."""
        if type(e) is not cst.Name:
            return False
        for loop, name, computed in reversed(self._loops):
            if name != e.value:
                continue
            if not computed or _rebinds(loop.body, name):
                return False
            if id(loop) not in self._loops_reported:
                self._loops_reported.add(id(loop))
                ctx = self.ctx
                self.report(
                    loop.iter,
                    f"`for {name} in {ctx.code(loop.iter).strip()}` loops over a JAX array, so under the "
                    f"trace `{name}` is a tracer ({ctx.describe_origin(ctx.value(loop.iter))}): "
                    f"`{ctx.code(use).strip()}` on line {{related_line}} {what}, which raises {error}. "
                    f"Loop over Python ints instead (`range(...)`, `np.arange(...)`)",
                    # to the use: where JAX raises (what `jaxlint confirm` sees)
                    end_node=use,
                    related=use,
                )
            return True
        return False

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        func = node.func
        if ctx.concrete_tracers:
            self._differentiated(node)
            return
        if self._math(node):
            return
        if isinstance(func, cst.Name):
            what = apis.CONCRETIZING_BUILTINS.get(func.value)
            if what is not None and ctx.qualname(func) is None and ctx.local(func.value) is None:
                for a in node.args:
                    if a.keyword is None and ctx.is_traced(a.value):
                        if self._from_loop(a.value, node, "needs a concrete value", what):
                            return
                        v = ctx.value(a.value)
                        self._report(node, f"`{func.value}()`", what, v)
                        return
            wrapped = bound_transform(ctx, func)
            if wrapped is not None:
                self._transformed_library(node, wrapped)
            return
        if isinstance(func, cst.Call):
            self._transformed_builtin(node, func)
            self._transformed_library(node, func)
            return
        if isinstance(func, cst.Attribute):
            m = func.attr.value
            if m in ("item", "tolist") and ctx.is_traced(func.value):
                self._report(node, f"`.{m}()`", "ConcretizationTypeError", ctx.value(func.value))
                return
            if m in apis.AXIS_REDUCTIONS and ctx.value(func.value).kind == V.ARRAY:
                self._check_axis(arg_at(node, 0, "axis"), f"`.{m}()`", m)
            if m in apis.SHAPE_METHODS:
                base = ctx.value(func.value)
                if base.kind == V.ARRAY or base.traced:
                    for a in node.args:
                        if a.keyword is None:
                            self._check_shape(a.value, node, f"`.{m}()`")
                    return
                # else a module's function of that name (`jnp.reshape(x, (m, n))`), below
        q = ctx.qualname(func)
        if q is None:
            return
        if q in apis.AXIS_FUNCTIONS:
            self._check_axis(arg_at(node, 1, "axis"), f"`{q.replace('jax.numpy.', 'jnp.')}`", q.rsplit(".", 1)[1])
            return
        for pos, kw in apis.size_args(q):
            shape = arg_at(node, pos, kw)
            if shape is not None and self._check_shape(shape, node, f"`{short(q)}`",
                                                       apis.SIZE_ARG_ERRORS.get(q)):
                return
        found = direct_findings(ctx, node, q, static_position=False)
        if found is not None:
            self.report(*found)

    def _math(self, node: cst.Call) -> bool:
        """`math.sqrt(x)`, `from math import exp; exp(x)` on a tracer: `math` converts its
        arguments to Python numbers."""
        ctx = self.ctx
        q = ctx.qualname(node.func)
        entry = apis.MATH_CONCRETIZING.get(q) if q is not None else None
        if entry is None:
            return False
        error, twin = entry
        for a in node.args:
            if a.keyword is None and ctx.is_traced(a.value):
                v = ctx.value(a.value)
                instead = f"Use `{twin}`" if twin else "Keep it as an array"
                self.report(
                    node,
                    f"`{q}()` needs a Python number, but its argument is traced: "
                    f"{ctx.describe_origin(v)}; `math` converts it with "
                    f"{'`__index__()`' if error.startswith('TracerInteger') else '`__float__()`'}, "
                    f"which raises {error}. {instead}{ctx.static_hint(v)}",
                )
                return True
        return False

    def _check_axis(self, axis, where: str, name: str) -> None:
        """`x.min(axis)`, `jnp.sum(x, axis=a)` with a traced axis."""
        ctx = self.ctx
        if axis is None or not ctx.is_traced(axis):
            return
        v = ctx.value(axis)
        unit = ctx.unit
        if unit is not None and v.deps and all(
                (p := unit.param(d)) is not None and p.has_literal_default for d in v.deps):
            # `def loss(logits, labels, axis=-1)` jitted whole: callers leave the axis to its
            # default (a Python int, not traced) far more often than they pass an array
            return
        error = "TracerIntegerConversionError" if name.endswith(("argmin", "argmax")) else "ConcretizationTypeError"
        self.report(
            axis,
            f"The axis passed to {where} is traced: {ctx.describe_origin(v)}; an axis must be a "
            f"Python int, so this raises {error}. Instead, pass a fixed axis{ctx.static_hint(v)}",
        )

    def _transformed_library(self, node: cst.Call, inner: cst.Call) -> None:
        """`jax.jit(jax.nn.one_hot)(x, 5)`: a size or a Python-value argument of JAX's
        function made a tracer by the transformation (its static arguments: JAX207)."""
        found = transformed_finding(self.ctx, node, inner, static_position=False)
        if found is not None:
            self.report(*found)

    def _transformed_builtin(self, node: cst.Call, inner: cst.Call) -> None:
        """`jax.jit(int)(x)`, `jax.grad(float)(x)`: the transformation traces its argument
        and hands the tracer to the builtin conversion."""
        ctx = self.ctx
        t = apis.transform_for(ctx.qualname(inner.func))
        if t is None or not t.traces or not inner.args or not node.args or inner.args[0].keyword is not None:
            return
        fn = inner.args[0].value
        name = ctx.builtin_name(fn)
        if name not in ("int", "float", "complex"):
            return
        self.report(
            node,
            f"`{ctx.code(inner).strip()}` traces its argument and calls `{name}()` on the tracer, which "
            f"needs a concrete value: this raises ConcretizationTypeError. Instead, convert outside "
            f"the transformation, or use `x.astype(...)`",
        )

    def _check_shape(self, shape: cst.BaseExpression, call: cst.Call, where: str, error: Optional[str] = None) -> bool:
        ctx = self.ctx
        parts = [el.value for el in shape.elements] if isinstance(shape, (cst.Tuple, cst.List)) else [shape]
        # one level of nesting: `lax.pad(x, 0, [(n, 0, 0)])`'s padding triples
        parts = [q.value for p in parts if isinstance(p, (cst.Tuple, cst.List)) for q in p.elements
                 if not isinstance(q, cst.StarredElement)] + parts
        parts = [p for p in parts if not isinstance(p, (cst.Tuple, cst.List))]
        for p in parts:
            if ctx.is_traced(p):
                v = ctx.value(p)
                self.report(
                    p,
                    f"A shape or size passed to {where} is traced: {ctx.describe_origin(v)}; "
                    f"shapes must be concrete ({error or 'TypeError: Shapes must be 1D sequences of concrete values'}). "
                    f"{_derive_or_static(ctx.static_hint(v))}",
                )
                return True
        return False

    def visit_Subscript(self, node: cst.Subscript) -> None:
        ctx = self.ctx
        built = ctx.qualname(node.value) if ctx.in_traced else None
        if built in apis.INDEX_BUILDERS:
            self._index_builder(node, built)
            return
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
        if base.kind not in (V.LIST, V.TUPLE, V.ARRAYS) or len(node.slice) != 1:
            return
        if self._bound_to_mapping(node.value):
            return  # a dict keyed by a traced value is another story (an unhashable tracer)
        sl = node.slice[0].slice
        if isinstance(sl, cst.Index) and ctx.is_traced(sl.value):
            if self._from_loop(sl.value, node, "indexes a Python list/tuple with it",
                               "TracerIntegerConversionError"):
                return
            v = ctx.value(sl.value)
            self.report(
                node,
                f"Indexing a Python list/tuple with a traced value raises "
                f"TracerIntegerConversionError: {ctx.describe_origin(v)}. Make it an array "
                f"(`jnp.asarray(...)[i]`) or use `jax.lax.switch`{ctx.static_hint(v)}",
            )

    def _index_builder(self, node: cst.Subscript, q: str) -> None:
        """`jnp.r_[0:n]`, `jnp.mgrid[0:3, 0:n]` with a traced bound or step: the slice gives
        the length of the array built, which must be static."""
        ctx = self.ctx
        for el in node.slice:
            sl = el.slice
            if not isinstance(sl, cst.Slice):
                continue
            for part in (sl.lower, sl.upper, sl.step):
                if part is not None and ctx.is_traced(part):
                    v = ctx.value(part)
                    self.report(
                        part,
                        f"A slice bound of `{short(q)}[...]` is traced: {ctx.describe_origin(v)}; it "
                        f"gives the length of the array `{short(q)}` builds, which must be static "
                        f"(ConcretizationTypeError: Abstract tracer value encountered where concrete value "
                        f"is expected). {_derive_or_static(ctx.static_hint(v))}",
                    )
                    return

    def _bound_to_mapping(self, e: cst.BaseExpression) -> bool:
        """Is ``e`` a name this function (or an enclosing one) binds to a dict or set?"""
        if not isinstance(e, cst.Name):
            return False
        u = self.ctx.unit
        while u is not None:
            for _, value in u.bindings.get(e.value, ()):
                if isinstance(value, (cst.Dict, cst.DictComp, cst.Set, cst.SetComp)):
                    return True
                if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in (
                        "dict", "set", "defaultdict", "OrderedDict"):
                    return True
            if e.value in u.bindings:
                return False
            u = u.parent
        return False

    def _differentiated(self, node: cst.Call) -> None:
        """In a function differentiated outside jit (``jax.grad(f)(x)``) the tracers hold
        values: `int()`, `bool()`, `.item()` and shapes work, but `float()`,
        `complex()` and `.tolist()` of a tracer raise ConcretizationTypeError all
        the same (jax 0.10.2): JAX will not drop the derivative silently."""
        ctx = self.ctx
        func = node.func
        what = None
        arg = None
        if isinstance(func, cst.Name) and func.value in ("float", "complex"):
            if ctx.qualname(func) is None and ctx.local(func.value) is None:
                arg = next((a.value for a in node.args if a.keyword is None), None)
                what = f"`{func.value}()`"
        elif isinstance(func, cst.Attribute) and func.attr.value == "tolist" and not node.args:
            arg, what = func.value, "`.tolist()`"
        if arg is None or what is None or not ctx.is_tracer(arg):
            return
        v = ctx.value(arg)
        cast = {"`float()`": " (`x.astype(jnp.float32)`)", "`complex()`": " (`x.astype(jnp.complex64)`)"}.get(what, "")
        self.report(
            node,
            f"{what} of a value being differentiated: {ctx.describe_origin(v)}; JAX refuses to "
            f"turn a tracer that carries a derivative into a Python number, even outside jit "
            f"(ConcretizationTypeError). Keep it as an array{cast}, or use `jax.lax.stop_gradient` "
            f"/ convert the result outside the differentiated function",
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


def _rebinds(body: cst.CSTNode, name: str) -> bool:
    """Does ``body`` assign ``name`` (a plain or augmented assignment, a loop target)?"""
    for n in walk_tree(body):
        if type(n) in (cst.AssignTarget, cst.For, cst.AugAssign, cst.AnnAssign):
            t = n.target
            if type(t) is cst.Name and t.value == name:
                return True
            if type(t) in (cst.Tuple, cst.List) and any(
                    type(el.value) is cst.Name and el.value.value == name for el in t.elements):
                return True
    return False




def _derive_or_static(hint: str) -> str:
    """The advice of a traced shape: derive it from an array's shape, or make it static,
    said once (with the static_argnums to use when the parameter is known)."""
    return f"Derive it from `x.shape`{hint}" if hint else \
        "Derive it from `x.shape`, or pass it as a static argument"
