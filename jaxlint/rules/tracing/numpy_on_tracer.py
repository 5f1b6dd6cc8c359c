"""JAX204 numpy-on-tracer: A NumPy function (`np.exp`, `np.asarray`, `np.dot`...) applied to a traced value."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Replacement, Rule, Valid, fix
from jaxlint.findings import Applicability, Severity
from jaxlint.model import apis
from jaxlint.model import values as V
from jaxlint.model.walk import keyword_arg, walk_tree


# NumPy functions that call ``__array__`` on their arguments (checked on jax 0.10.2 with
# numpy 2.4: each raises TracerArrayConversionError on a jit tracer).  Functions that
# forward to an array method (np.sum/mean/max/min/prod/std/var/argmax/argmin/cumsum/
# cumprod/all/any/reshape/transpose/round/squeeze/shape/ndim/size/repeat/flip/swapaxes/
# moveaxis/split/searchsorted/real/imag) work on tracers and are not listed.
RAISING = frozenset(
    """
    asarray array asanyarray ascontiguousarray asfortranarray copy
    dot vdot matmul inner outer einsum tensordot cross kron
    exp exp2 expm1 log log2 log10 log1p logaddexp logaddexp2 sqrt cbrt square reciprocal
    abs absolute fabs sign negative positive
    sin cos tan arcsin arccos arctan arctan2 sinh cosh tanh arcsinh arccosh arctanh hypot sinc
    radians degrees deg2rad rad2deg
    floor ceil rint trunc fix
    add subtract multiply divide true_divide floor_divide power float_power mod remainder fmod
    maximum minimum fmax fmin clip nan_to_num heaviside
    isnan isfinite isinf isclose allclose isneginf isposinf signbit
    logical_and logical_or logical_not logical_xor
    greater greater_equal less less_equal equal not_equal
    where concatenate stack hstack vstack dstack column_stack
    ravel zeros_like ones_like empty_like full_like
    atleast_1d atleast_2d atleast_3d expand_dims broadcast_to tile roll diag diagonal trace
    sort nonzero unique count_nonzero diff cumulative_sum conj conjugate angle
    nanmean nansum nanmax nanmin nanstd nanvar median percentile quantile average
    interp histogram bincount meshgrid
    append insert delete pad lexsort flatnonzero argwhere union1d intersect1d setdiff1d isin
    digitize fliplr flipud rot90 triu tril polyval convolve correlate gradient trapezoid
    cov corrcoef vander select piecewise linspace arange
    float16 float32 float64 int8 int16 int32 int64 uint8 uint16 uint32 uint64
    complex64 complex128 bool_
    linalg.norm linalg.inv linalg.det linalg.solve linalg.eigh linalg.eigvalsh linalg.svd
    linalg.qr linalg.cholesky linalg.pinv linalg.slogdet linalg.lstsq linalg.matrix_power
    """.split()
)
# the names above that jax.numpy spells the same way (the fix target); 64-bit dtypes are
# left out (they need x64, see JAX110)
_NO_JNP = frozenset(
    {"asanyarray", "ascontiguousarray", "asfortranarray", "float64", "int64", "uint64", "complex128",
     # their jnp twins need a static size or bounds under jit (size=..., concrete endpoints)
     "flatnonzero", "argwhere", "union1d", "intersect1d", "setdiff1d", "linspace", "arange"}
)


class NumpyOnTracer(Rule):
    code = "JAX204"
    caught_by = apis.TRACER_ARRAY_CATCHERS
    name = "numpy-on-tracer"
    runtime_check = '`jax.jit(f).trace(...)`: confirmed when `TracerArrayConversionError` is raised at the flagged line.'
    summary = "A NumPy function (`np.exp`, `np.asarray`, `np.dot`...) applied to a traced value"
    severity = Severity.ERROR
    seed = (
        "The Sharp Bits § Non-array inputs: NumPy vs. JAX (seed 000); FAQ § Abstract tracer "
        "value encountered / kinds of JAX values (seeds 001, 004)"
    )
    what_it_does = (
        "Inside traced code, flags calls of NumPy (`numpy`, whatever its alias) functions that "
        "convert their arguments to a NumPy array when an argument is a tracer: `np.asarray`, "
        "`np.array`, ufuncs (`np.exp`, `np.log`, `np.sqrt`, `np.abs`, `np.maximum`, `np.isnan`"
        "...), `np.dot`, `np.matmul`, `np.where`, `np.concatenate`, `np.stack`, `np.clip`, "
        "`np.ravel`, `np.zeros_like`, `np.linalg.norm`, dtype constructors like "
        "`np.float32(x)`, and more; and SciPy's own functions (not `jax.scipy`), which run on "
        "the host and convert their arguments the same way: `scipy.special.hyp2f1`, "
        "`scipy.linalg.expm`, `scipy.stats.norm.logpdf`, `scipy.signal.convolve`... (the message "
        "names the `jax.scipy` twin where JAX has one). SciPy's quadrature (`scipy.integrate.quad`, "
        "`dblquad`, `tplquad`, `nquad`) is flagged when a bound or `args=` is traced, or when "
        "the integrand is a lambda that reads a tracer of the enclosing function: SciPy "
        "compares the bounds and calls `float()` on what the integrand returns "
        "(TracerBoolConversionError or ConcretizationTypeError).\n\n"
        "NumPy functions that forward to the array's own method (`np.sum`, `np.mean`, "
        "`np.max`, `np.min`, `np.prod`, `np.std`, `np.var`, `np.argmax`, `np.cumsum`, "
        "`np.all`, `np.any`, `np.reshape`, `np.transpose`, `np.round`, `np.squeeze`, "
        "`np.shape`, `np.ndim`, `np.size`...) work on tracers and are not flagged; neither is "
        "NumPy on static values (shapes, static arguments) or outside traced code. "
        "`import jax.numpy as np` is `jax.numpy`, not NumPy, and is never flagged.\n\n"
        "A function differentiated outside `jit` (`jax.grad(f)(x)`, `value_and_grad`, "
        "`jacfwd`/`jacrev`/`hessian`, `jvp`/`vjp`/`linearize`, and the helpers it hands its "
        "tracers to) counts too: its differentiated arguments are tracers of concrete values, "
        "and `np.power(x, 2)` raises TracerArrayConversionError there as well. The arguments "
        "`argnums` leaves out are its plain values.\n\n"
        "What is traced is followed through NumPy functions that forward to the array's "
        "method (`np.sum(x)` is `x.sum()`, a tracer: `np.sqrt(np.sum(x))` raises), a lambda "
        "bound to a name and called from traced code, a method of the class whose every "
        "return is a jax.numpy computation (`self._predict(obs)` in traced code is a tracer, "
        "whatever it is given), and host NumPy arrays handed to a function inside a dict "
        "display (`model({\"radec\": np.array(...)})`, then `params[\"radec\"][s]` with `s` "
        "traced), and a list that starts empty and is grown with `.append(...)` of tracers "
        "(`xs = []`, `xs.append(x % b)` in a loop, then `np.stack(xs)`)."
    )
    why_bad = (
        "A tracer has no data for NumPy to copy. NumPy calls `__array__()` and JAX raises at "
        "trace time:\n\n"
        "```\njax.errors.TracerArrayConversionError: The numpy.ndarray conversion method "
        "__array__() was called on traced array with shape float32[3]\n```\n\n"
        "(Under `jax.grad` alone the same calls also raise.) `x + np.ones(3)` is fine: the "
        "array operator dispatches to JAX."
    )
    use_instead = (
        "```python\n@jax.jit\ndef f(x):\n    return jnp.exp(x) + jnp.dot(x, x)\n```"
    )
    fix_safety = (
        "When the module already imports `jax.numpy` (under any alias that is not shadowed "
        "at the call) and `jax.numpy` has a function of the same name, the fix rewrites "
        "`np.X(...)` to `jnp.X(...)` with that alias. It is **unsafe**: the flagged call "
        "cannot run as written, but the replacement computes on the device with JAX's dtype "
        "rules (float32 by default) and returns a JAX array, and NumPy-only keywords (`out=`, "
        "`order=`, `casting=`) are not accepted by every `jax.numpy` function; calls passing "
        "`out=` get no fix. No fix is offered when the module does not import `jax.numpy`, nor "
        "when the NumPy name is a parameter or a local (`def f(x, xnp=np)`: the callers choose "
        "the namespace, so the message says to pass `jax.numpy` instead)."
    )
    VALID = [
        # host tables turned into JAX arrays, or indexed with static values; jax.numpy
        # a namespace parameter every traced call sets to jax.numpy; host arrays kept
        # beside tracers in a dict, and a list slot overwritten with one
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np

            def to_ndc(origins, xnp=np):
                oz = origins[..., 2]
                return xnp.stack([origins[..., 0] / oz, -xnp.ones_like(oz)], axis=-1)

            @jax.jit
            def render(origins):
                feats = {"ndc": to_ndc(origins, xnp=jnp), "w": np.ones(3)}
                parts = [origins, feats["ndc"]]
                parts[0] = np.zeros(3)
                return feats["ndc"].sum() * np.exp(feats["w"]) * np.exp(parts[0])
            """
        ),
        # in tree_map callbacks (NumPy on static sizes); an instance of a class whose
        # method uses jax.numpy
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np

            BINS = np.linspace(0.0, 1.0, 16)
            FIRST = BINS[3]

            class Preprocess:
                def squash(self, x):
                    return jnp.tanh(x)

            PRE = Preprocess()

            @jax.jit
            def f(i, x, params):
                grid = np.arange(x.shape[0])
                y = jnp.asarray(BINS)[i] + FIRST + x[grid[x.shape[0] - 1]] + x[grid] * i
                z = jax.tree_util.tree_map(lambda p: jnp.tanh(p) / np.sqrt(p.size), params)
                return y, z, PRE.squash(x)
            """
        ),
        Valid(
            """
            import jax
            import numpy as np


            def check_rank(x: jax.Array, rank):
                # arrays have `.shape`: the NumPy branch never runs under a trace
                shape = x.shape if hasattr(x, "shape") else np.asarray(x).shape
                return len(shape) == rank


            @jax.jit
            def f(x):
                assert check_rank(x, 2)
                return x * 2
            """,
        ),
        # method-forwarding NumPy functions work on tracers
        Valid(
            """
            import jax
            import numpy as np

            @jax.jit
            def f(x):
                return np.sum(x) / np.size(x) + np.mean(x, axis=0).max() + np.reshape(x, (-1,)).shape[0]
            """
        ),
        # NumPy on shapes and static arguments
        Valid(
            """
            from functools import partial
            import jax
            import jax.numpy as jnp
            import numpy as np

            @partial(jax.jit, static_argnums=(1,))
            def f(x, n):
                k = int(np.prod(x.shape))
                scale = np.sqrt(n)
                return jnp.reshape(x, (k,)) * scale + np.float32(0.5)
            """
        ),
        # NumPy outside traced code
        Valid(
            """
            import numpy as np
            import jax.numpy as jnp

            def evaluate(preds):
                preds = np.asarray(preds)
                return np.exp(preds).mean()
            """
        ),
        # `import jax.numpy as np` is jax.numpy
        Valid(
            """
            import jax
            import jax.numpy as np

            @jax.jit
            def f(x):
                return np.exp(x) + np.dot(x, x)
            """
        ),
        # host callbacks see concrete NumPy arrays
        Valid(
            """
            import jax
            import numpy as np

            def host_log(v):
                print(np.asarray(v).round(2))

            @jax.jit
            def f(x):
                jax.debug.callback(host_log, x)
                return x + np.ones(3)
            """
        ),
        # a plain function: the model cannot tell whether it is ever traced, so it stays quiet
        Valid(
            """
            import numpy as np

            def loss(params, batch):
                return np.log(np.asarray(batch)).sum() * params
            """
        ),
        # under trace the argument is a tracer, never a NumPy array: the branch is dead
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np


            @jax.jit
            def stack_rows(rows):
                if isinstance(rows[0], np.ndarray):
                    return np.stack(rows)
                return jnp.stack(rows)


            @jax.jit
            def norm(x):
                if not isinstance(x, jax.Array):
                    return np.linalg.norm(x)
                return jnp.linalg.norm(x)
            """
        ),
        # a tracer has `.shape`: the NumPy fallback never runs under trace
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np


            def rank_of(a: jax.Array):
                shape = a.shape if hasattr(a, "shape") else np.asarray(a).shape
                return len(shape)


            @jax.jit
            def flatten(x: jax.Array):
                return x.reshape(-1) if rank_of(x) > 1 else x
            """
        ),
        # data structures of Python values under jit: comprehensions of shapes and
        # ranges, a list display of static values, NumPy on each element of a host table
        Valid(
            """
            import jax
            import numpy as np

            TABLE = np.arange(12.0).reshape(4, 3)


            @jax.jit
            def features(x):
                sizes = [x.shape[i] for i in range(x.ndim)]
                dims = np.array(sizes)
                grid = np.stack([np.arange(n) for n in x.shape[:1]])
                cols = np.lexsort([TABLE[:, i] for i in range(3)])
                rows = [np.tanh(r) for r in TABLE]
                return x * dims.prod() + grid.sum() + cols[0] + len(rows)
            """
        ),
        # differentiated outside jit: NumPy on shapes and on the arguments grad does not
        # differentiate (argnums=0) is NumPy on Python values and host arrays
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np

            def loss(w, x):
                n = np.prod(w.shape)
                scale = np.sqrt(np.mean(x ** 2))
                return jnp.sum(w ** 2) / n * scale

            g = jax.grad(loss)(jnp.ones(3), np.ones(5))
            """
        ),
        # a branch for NumPy inputs that the differentiated tracers never take
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np

            def total(x):
                y = np.asarray(x, dtype=np.float32) if isinstance(x, np.ndarray) else x
                return jnp.sum(y ** 2)

            g = jax.grad(total)(jnp.ones(3))
            """
        ),
        # the fixes of arrays built in place and indexed by a tracer: lax.iota, jax.numpy;
        # a NumPy array built in place indexed by a static value
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as onp
            from jax import jit, lax

            def lookup(x):
                return lax.iota(jnp.int32, x.shape[0])[x] + jnp.arange(x.shape[0])[x]

            def scaled(n, v):
                def body(i, acc):
                    return acc + jnp.asarray(onp.linspace(0.0, 1.0, 8) * 2.0)[i] * v + onp.arange(4)[2]
                return lax.fori_loop(0, n, body, 0.0)

            out = jit(lookup)(jnp.array([0, 1, 2]))
            """
        ),
        # the same module applied eagerly (concrete arrays: NumPy works), and a method
        # other than `__call__` jitted through `apply(..., method=...)`
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np
            import flax.linen as nn


            class Block(nn.Module):
                features: int

                @nn.compact
                def __call__(self, x):
                    return nn.Dense(self.features)(np.tanh(x))

                def encode(self, x):
                    return x * 2.0


            class Net(nn.Module):
                def setup(self):
                    self.block = Block(4)

                def __call__(self, x):
                    return self.block(x)


            net = Net()
            variables = net.init(jax.random.PRNGKey(0), jnp.ones((1, 2)))
            eager = net.apply(variables, jnp.ones((1, 2)))
            block = Block(4)
            bv = block.init(jax.random.PRNGKey(1), jnp.ones((1, 2)))
            enc = jax.jit(lambda v, x: block.apply(v, x, method=Block.encode))(bv, jnp.ones((1, 2)))
            print(eager, enc)
            """
        ),
        # NumPy functions that forward to the array's method (np.sum, np.mean) on a host
        # table; a method returning NumPy data; lambdas of jax.numpy; NumPy outside traced code
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as onp
            from jax import lax


            class Scorer:
                def __init__(self, n):
                    self.table = onp.ones((n, n))

                def _logits(self, x):
                    return self.table

                def score(self, x):
                    return x + onp.exp(self._logits(x))

                def bias(self):
                    return onp.asarray(self._logits(onp.eye(3)))


            def norm(v):
                return jnp.sqrt(onp.sum(v ** 2, axis=-1))


            activation = lambda z: jnp.maximum(z, 0.0)
            host_only = lambda z: onp.maximum(z, 0.0)


            def run(xs):
                s = Scorer(3)
                return s.score(xs) + s.bias() + norm(xs) + onp.mean(xs).astype(jnp.float32) + activation(xs) + onp.sum(xs.shape)


            out = lax.map(run, jnp.ones((2, 3)))
            print(host_only(onp.ones(3)))
            """
        ),
        # a dict of NumPy arrays changed before the call (an entry assigned, `.update`), or
        # holding JAX arrays: its entries are not known host arrays there
        Valid(
            """
            import jax.numpy as jnp
            import numpy as np
            from jax import lax


            def radec2lm(radec):
                def body(s, lm):
                    ra, dec = radec[s]
                    return lm.at[s, 0].set(jnp.cos(dec) * ra)

                return lax.fori_loop(0, radec.shape[0], body, jnp.zeros((radec.shape[0], 2)))


            def model(params):
                return radec2lm(params["radec"]).sum()


            def fit(params):
                return radec2lm(params["radec"]).sum()


            def evaluate(params):
                return radec2lm(params["radec"]).sum()


            p1 = {"radec": np.array([[3.0, -0.5], [3.1, -0.4]])}
            p1["radec"] = jnp.asarray(p1["radec"])
            print(model(p1))
            p2 = {"radec": np.array([[3.0, -0.5]])}
            p2.update(radec=jnp.asarray(p2["radec"]))
            print(fit(p2))
            print(evaluate({"radec": jnp.array([[3.0, -0.5]])}))
            """
        ),
    ]

    INVALID = [
        # host NumPy arrays indexed by a tracer; NumPy in a tree_map callback over traced
        # a NumPy array a helper returns in a tuple: still a host array
        Invalid(
            """
            import jax
            import numpy as np


            def make_bins():
                return np.linspace(0.0, 1.0, 8), 8


            @jax.jit
            def f(i):
                bins, n = make_bins()
                return bins[i]
            """,
            expected=[(12, 12)],
            messages=[
                "`bins[i]` indexes the host NumPy array `bins` with a traced value (it depends on the traced argument `i` of `f` (decorated with @jax.jit)): NumPy converts the index with `__array__()`, which raises TracerArrayConversionError. Make it a JAX array first: `jnp.asarray(bins)[i]`",
            ],
        ),
        # leaves; a method reached through a module-level instance
        Invalid(
            """
            import jax
            import numpy as np

            BINS = np.linspace(0.0, 1.0, 16)

            class Preprocess:
                def squash(self, x):
                    return np.tanh(x)

            PRE = Preprocess()

            @jax.jit
            def f(i, x, params):
                grid = np.arange(x.shape[0])
                y = BINS[i] + x[grid[i]] + BINS[i:i + 2].sum()
                return y, jax.tree_util.tree_map(lambda p: np.exp(p), params), PRE.squash(x)
            """,
            expected=[(8, 16), (15, 9), (15, 21), (15, 32), (16, 48)],
            messages=[
                "`np.tanh` on a traced value (it depends on the traced argument `x` of `squash` (called from traced `f`)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.tanh` (jax.numpy) instead",
                "`BINS[i]` indexes the host NumPy array `BINS` with a traced value (it depends on the traced argument `i` of `f` (decorated with @jax.jit)): NumPy converts the index with `__array__()`, which raises TracerArrayConversionError. Make it a JAX array first: `jnp.asarray(BINS)[i]`",
                "`grid[i]` indexes the host NumPy array `grid` with a traced value (it depends on the traced argument `i` of `f` (decorated with @jax.jit)): NumPy converts the index with `__array__()`, which raises TracerArrayConversionError. Make it a JAX array first: `jnp.asarray(grid)[i]`",
                "`BINS[i:i + 2]` indexes the host NumPy array `BINS` with a traced value (it depends on the traced argument `i` of `f` (decorated with @jax.jit)): NumPy converts the index with `__index__()`, which raises TracerIntegerConversionError. Make it a JAX array first: `jnp.asarray(BINS)[i:i + 2]`",
                "`np.exp` on a traced value (it depends on the traced argument `p` of `<lambda>` (called from traced `f`)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.exp` (jax.numpy) instead",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np

            @jax.jit
            def f(x):
                return np.exp(x) + np.dot(x, x)
            """,
            expected=[(7, 12), (7, 24)],
            messages=[
                "`np.exp` on a traced value (it depends on the traced argument `x` of `f` (decorated with @jax.jit)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.exp` (jax.numpy) instead",
                "`np.dot` on a traced value (it depends on the traced argument `x` of `f` (decorated with @jax.jit)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.dot` (jax.numpy) instead",
            ],
            fixed="""
            import jax
            import jax.numpy as jnp
            import numpy as np

            @jax.jit
            def f(x):
                return jnp.exp(x) + jnp.dot(x, x)
            """,
            unsafe=True,
        ),
        Invalid(
            """
            import jax
            import numpy as onp

            def step(x, y):
                z = onp.asarray(x)
                return onp.concatenate([z, y])

            step_jit = jax.jit(step)
            """,
            expected=[(5, 9), (6, 12)],
            messages=[
                "`onp.asarray` on a traced value (it depends on the traced argument `x` of `step` (wrapped by jax.jit)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.asarray` (jax.numpy) instead",
                "`onp.concatenate` on a traced value (it depends on the traced argument `y` of `step` (wrapped by jax.jit)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.concatenate` (jax.numpy) instead",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np

            def to_ndc(origins, xnp=np):
                oz = origins[..., 2]
                return xnp.stack([origins[..., 0] / oz, -xnp.ones_like(oz)], axis=-1)

            @jax.jit
            def render(origins):
                feats = {"ndc": to_ndc(origins), "raw": origins}
                return np.exp(feats["raw"]).sum() + feats["ndc"].sum()
            """,
            expected=[(7, 12), (7, 46), (12, 12)],
            messages=[
                "`xnp.stack` on a traced value (it depends on the traced argument `origins` of `to_ndc` (called from traced `render`)): `xnp` is NumPy here (what every call gives it), and NumPy converts the value with `__array__()`, which raises TracerArrayConversionError. Pass `jax.numpy` as `xnp` where the function is traced",
                "`xnp.ones_like` on a traced value (it depends on the traced argument `origins` of `to_ndc` (called from traced `render`)): `xnp` is NumPy here (what every call gives it), and NumPy converts the value with `__array__()`, which raises TracerArrayConversionError. Pass `jax.numpy` as `xnp` where the function is traced",
                "`np.exp` on a traced value (it depends on the traced argument `origins` of `render` (decorated with @jax.jit)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.exp` (jax.numpy) instead",
            ],
        ),
        Invalid(
            """
            import jax
            from jax import numpy as jnp
            import numpy as np

            @jax.vmap
            def f(x):
                mask = ~np.isnan(x)
                return jnp.where(mask, x, 0.0) / np.linalg.norm(x) + np.float32(x)
            """,
            expected=[(7, 13), (8, 38), (8, 58)],
            messages=[
                "`np.isnan` on a traced value (it depends on the traced argument `x` of `f` (decorated with @jax.vmap)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.isnan` (jax.numpy) instead",
                "`np.linalg.norm` on a traced value (it depends on the traced argument `x` of `f` (decorated with @jax.vmap)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.linalg.norm` (jax.numpy) instead",
                "`np.float32` on a traced value (it depends on the traced argument `x` of `f` (decorated with @jax.vmap)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.float32` (jax.numpy) instead",
            ],
            fixed="""
            import jax
            from jax import numpy as jnp
            import numpy as np

            @jax.vmap
            def f(x):
                mask = ~jnp.isnan(x)
                return jnp.where(mask, x, 0.0) / jnp.linalg.norm(x) + jnp.float32(x)
            """,
            unsafe=True,
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np
            from jax import lax

            def body(carry, x):
                return carry + np.maximum(x, 0.0), None

            out, _ = lax.scan(body, 0.0, jnp.arange(3.0))
            """,
            expected=[(7, 20)],
            messages=[
                "`np.maximum` on a traced value (it depends on the traced argument `x` of `body` (a body passed to lax.scan)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.maximum` (jax.numpy) instead",
            ],
            fixed="""
            import jax
            import jax.numpy as jnp
            import numpy as np
            from jax import lax

            def body(carry, x):
                return carry + jnp.maximum(x, 0.0), None

            out, _ = lax.scan(body, 0.0, jnp.arange(3.0))
            """,
            unsafe=True,
        ),
        # a tracer *is* a jax.Array: the NumPy branch runs under trace
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np


            @jax.jit
            def stack_rows(rows):
                if isinstance(rows[0], jax.Array):
                    return np.stack(rows)
                return jnp.stack(rows)
            """,
            expected=[(9, 16)],
            messages=[
                "`np.stack` on a traced value (it depends on the traced argument `rows` of `stack_rows` (decorated with @jax.jit)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.stack` (jax.numpy) instead",
            ],
        ),
        # the guard tests another attribute: the NumPy call runs on the tracer
        Invalid(
            """
            import jax
            import numpy as np


            def rank_of(a: jax.Array):
                shape = a.shape if hasattr(a, "tolist_shape") else np.asarray(a).shape
                return len(shape)


            @jax.jit
            def flatten(x: jax.Array):
                return x.reshape(-1) if rank_of(x) > 1 else x
            """,
            expected=[(6, 56)],
            messages=[
                "`np.asarray` on a traced value (it depends on the traced argument `a` of `rank_of` (called from traced `flatten`)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.asarray` (jax.numpy) instead",
            ],
        ),
        # traced values inside a data structure: a list display bound to a name, a list
        # comprehension, a generator expression; NumPy functions that convert their
        # arguments (lexsort, append, unique) reached through tree_map and an alias
        Invalid(
            """
            import jax
            import numpy as onp


            @jax.jit
            def features(state, table):
                pos, vel = state
                parts = [pos, vel]
                feats = onp.concatenate(parts)
                order = onp.lexsort([table[:, i] for i in range(3)])
                total = onp.stack(list(r * 2 for r in (pos, vel)))
                shifted = jax.tree_util.tree_map(lambda x: onp.append(x[0], x[:-1]), state)
                return feats, order, total, shifted
            """,
            expected=[(9, 13), (10, 13), (11, 13), (12, 48)],
            messages=[
                "`onp.concatenate` on a traced value (it depends on the traced argument `state` of `features` (decorated with @jax.jit)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.concatenate` (jax.numpy) instead",
                "`onp.lexsort` on a traced value (it depends on the traced argument `table` of `features` (decorated with @jax.jit)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.lexsort` (jax.numpy) instead",
                "`onp.stack` on a traced value (it depends on the traced argument `state` of `features` (decorated with @jax.jit)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.stack` (jax.numpy) instead",
                "`onp.append` on a traced value (it depends on the traced argument `x` of `<lambda>` (called from traced `features`)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.append` (jax.numpy) instead",
            ],
        ),
        # differentiated outside jit (jacrev, vjp...): the JVP tracers of the values refuse
        # __array__ too, also in a helper the differentiated function hands them to
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np

            def residual(theta, t):
                return np.power(theta * t, 2)

            def to_host(v):
                return np.asarray(v)

            def energy(pos):
                return jnp.sum(to_host(pos) ** 2)

            J = jax.jacrev(residual)(jnp.ones(4), np.linspace(0.0, 1.0, 4))
            e, pullback = jax.vjp(energy, jnp.ones(3))
            """,
            expected=[(6, 12), (9, 12)],
            messages=[
                "`np.power` on a traced value (it depends on the traced argument `theta` of `residual` (differentiated by jax.jacrev)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.power` (jax.numpy) instead",
                "`np.asarray` on a traced value (it depends on the traced argument `v` of `to_host` (called from differentiated `energy`)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.asarray` (jax.numpy) instead",
            ],
        ),
        # a host NumPy array built in place and indexed by a tracer: a constructor under
        # an alias, NumPy arithmetic of one, in a function jitted by name and in a
        # lax.fori_loop body
        Invalid(
            """
            import jax
            import numpy as onp
            from jax import jit, lax

            def lookup(x):
                return onp.arange(x.shape[0])[x]

            def scaled(n, v):
                def body(i, acc):
                    return acc + (onp.linspace(0.0, 1.0, 8) * 2.0)[i] * v
                return lax.fori_loop(0, n, body, 0.0)

            out = jit(lookup)(jax.numpy.array([0, 1, 2]))
            """,
            expected=[(6, 12), (10, 22)],
            messages=[
                "`onp.arange(x.shape[0])[x]` indexes the host NumPy array `onp.arange(x.shape[0])` with a traced value (it depends on the traced argument `x` of `lookup` (wrapped by jax.jit)): NumPy converts the index with `__array__()`, which raises TracerArrayConversionError. Make it a JAX array first: `jnp.asarray(onp.arange(x.shape[0]))[x]`",
                "`(onp.linspace(0.0, 1.0, 8) * 2.0)[i]` indexes the host NumPy array `(onp.linspace(0.0, 1.0, 8) * 2.0)` with a traced value (it depends on the traced argument `i` of `body` (a body passed to lax.fori_loop)): NumPy converts the index with `__array__()`, which raises TracerArrayConversionError. Make it a JAX array first: `jnp.asarray((onp.linspace(0.0, 1.0, 8) * 2.0))[i]`",
            ],
        ),
        # a flax linen module applied under jit runs its `__call__` traced, and the
        # submodules it calls too: `jax.jit(net.apply)` with a submodule set in `setup`;
        # `Head().apply(...)` in a jitted function (NumPy on the inputs raises there)
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np
            import flax.linen as nn


            class Block(nn.Module):
                features: int

                @nn.compact
                def __call__(self, x):
                    return nn.Dense(self.features)(np.tanh(x))


            class Net(nn.Module):
                def setup(self):
                    self.block = Block(4)

                def __call__(self, x):
                    return self.block(x)


            net = Net()
            variables = net.init(jax.random.PRNGKey(0), jnp.ones((1, 2)))
            out = jax.jit(net.apply)(variables, jnp.ones((1, 2)))
            """,
            expected=[(12, 40)],
            messages=[
                "`np.tanh` on a traced value (it depends on the traced argument `x` of `__call__` (called from traced `__call__`)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.tanh` (jax.numpy) instead",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as onp
            from flax import linen


            class Head(linen.Module):
                @linen.compact
                def __call__(self, x, y):
                    return linen.Dense(1)(onp.concatenate([x, y], axis=-1))


            @jax.jit
            def predict(variables, x, y):
                return Head().apply(variables, x, y)


            v = Head().init(jax.random.PRNGKey(0), jnp.ones((1, 2)), jnp.ones((1, 2)))
            print(predict(v, jnp.ones((1, 2)), jnp.ones((1, 2))))
            """,
            expected=[(10, 31)],
            messages=[
                "`onp.concatenate` on a traced value (it depends on the traced argument `x` of `__call__` (called from traced `predict`)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.concatenate` (jax.numpy) instead",
            ],
        ),
        # a tracer through np.sum/np.mean (they return tracers), a method whose every return is
        # jax.numpy computed in traced code (whatever it is given), a helper, a lambda bound to a
        # name and called from traced code
        Invalid(
            """
            import jax
            import numpy as onp
            from jax import lax


            class Scorer:
                def __init__(self, n):
                    self.w = jax.numpy.ones((n, n))

                def _logits(self, x):
                    return jax.numpy.tanh(x @ self.w)

                def score(self, x):
                    return onp.exp(self._logits(x))

                def bias(self):
                    return onp.asarray(self._logits(onp.eye(3)))


            def norm(v):
                return onp.sqrt(onp.sum(v ** 2, axis=-1))


            activation = lambda z: onp.maximum(z, 0.0)


            def run(xs):
                s = Scorer(3)
                return s.score(xs) + s.bias() + norm(xs) + onp.log(onp.mean(xs)) + activation(xs)


            out = lax.map(run, jax.numpy.ones((2, 3)))
            """,
            expected=[(14, 16), (17, 16), (21, 12), (24, 24), (29, 48)],
            messages=[
                "`onp.exp` on a traced value (it depends on the traced argument `x` of `score` (called from traced `run`)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.exp` (jax.numpy) instead",
                "`onp.asarray` on a traced value (it is computed by JAX inside `bias` (called from traced `run`)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.asarray` (jax.numpy) instead",
                "`onp.sqrt` on a traced value (it depends on the traced argument `v` of `norm` (called from traced `run`)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.sqrt` (jax.numpy) instead",
                "`onp.maximum` on a traced value (it depends on the traced argument `z` of `<lambda>` (called from traced `run`)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.maximum` (jax.numpy) instead",
                "`onp.log` on a traced value (it depends on the traced argument `xs` of `run` (a body passed to lax.map)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.log` (jax.numpy) instead",
            ],
        ),
        # host NumPy arrays reaching traced code inside a dict passed to a function (a dict
        # display at the call, a name bound to one), read by literal key
        Invalid(
            """
            import jax.numpy as jnp
            import numpy as np
            from jax import lax


            def radec2lm(radec):
                def body(s, lm):
                    ra, dec = radec[s]
                    return lm.at[s, 0].set(jnp.cos(dec) * ra)

                return lax.fori_loop(0, radec.shape[0], body, jnp.zeros((radec.shape[0], 2)))


            def model(params):
                radec = params["radec"]
                return radec2lm(radec).sum()


            def weights(table, i):
                return lax.fori_loop(0, 2, lambda k, acc: acc + table["w"][k], 0.0) + i


            print(model({"radec": np.array([[3.0, -0.5], [3.1, -0.4]])}))
            cfg = {"w": np.ones(3), "name": "demo"}
            print(weights(cfg, 1))
            """,
            expected=[(8, 19), (20, 53)],
            messages=[
                "`radec[s]` indexes the host NumPy array `radec` with a traced value (it depends on the traced argument `s` of `body` (a body passed to lax.fori_loop)): NumPy converts the index with `__array__()`, which raises TracerArrayConversionError. Make it a JAX array first: `jnp.asarray(radec)[s]`",
                "`table[\"w\"][k]` indexes the host NumPy array `table[\"w\"]` with a traced value (it depends on the traced argument `k` of `<lambda>` (a body passed to lax.fori_loop)): NumPy converts the index with `__array__()`, which raises TracerArrayConversionError. Make it a JAX array first: `jnp.asarray(table[\"w\"])[k]`",
            ],
        ),
    ]

    def _traced_arg(self, expr: cst.BaseExpression) -> Optional[V.Value]:
        ctx = self.ctx
        if isinstance(expr, (cst.List, cst.Tuple)):
            for el in expr.elements:
                found = self._traced_arg(el.value)
                if found is not None:
                    return found
            return None
        if ctx.is_tracer(expr):
            return ctx.value(expr)
        v = ctx.value(expr)
        if v.kind in (V.LIST, V.ITERATOR) and v.item is not None and v.item.traced and not ctx.unit.host:
            return v.item  # a comprehension of traced values: `[x[:, i] for i in range(3)]`
        if v.kind in (V.LIST, V.TUPLE) and v.elements is not None and not ctx.unit.host:
            for el in v.elements:
                if el.traced:
                    return el  # a name bound to a list display of traced values
        return None

    def leave_Call(self, node: cst.Call) -> None:
        # on leaving: a comprehension among the arguments has been walked in its own
        # scope, so the value of its element is known
        ctx = self.ctx
        if not ctx.in_tracing:  # also under jax.grad alone: JVP tracers refuse __array__ too
            return
        q = ctx.qualname(node.func)
        if q in apis.HOST_QUADRATURE:
            self._quadrature(node, q)  # type: ignore[arg-type]
            return
        if apis.host_scipy(q):
            self._scipy(node, q)  # type: ignore[arg-type]
            return
        if q is None or not q.startswith("numpy."):
            return
        name = q[len("numpy."):]
        if name not in RAISING:
            return
        traced = self._first_traced(node)
        if traced is None:
            return
        short = name
        the_fix = None
        alias = self._jnp_alias()
        head = node.func
        while type(head) is cst.Attribute:
            head = head.value
        if type(head) is cst.Name and ctx.local(head.value) is not None:
            # `def f(x, xnp=np)`: `xnp.stack` is NumPy's because the calls leave `xnp`
            # at its default; the caller chooses the namespace, so no rewrite here
            self.report(
                node,
                f"`{ctx.code(node.func)}` on a traced value ({ctx.describe_origin(traced)}): `{head.value}` "
                f"is NumPy here (what every call gives it), and NumPy converts the "
                f"value with `__array__()`, which raises TracerArrayConversionError. Pass `jax.numpy` "
                f"as `{head.value}` where the function is traced",
            )
            return
        if alias is not None and name not in _NO_JNP and keyword_arg(node, "out") is None:
            new = f"{alias}.{name}"
            the_fix = fix(Applicability.UNSAFE, f"Use `{new}`", Replacement(node.func, new))
        shown = f"{alias or 'jnp'}.{short}"
        self.report(
            node,
            f"`{ctx.code(node.func)}` on a traced value ({ctx.describe_origin(traced)}): NumPy "
            f"converts it with `__array__()`, which raises TracerArrayConversionError. "
            f"Use `{shown}` (jax.numpy) instead",
            the_fix,
        )

    def _first_traced(self, node: cst.Call):
        """What the first traced argument of the call depends on, or None."""
        for a in node.args:
            traced = self._traced_arg(a.value)
            if traced is not None:
                return traced
        return None

    def _scipy(self, node: cst.Call, q: str) -> None:
        """`scipy.special.hyp2f1(a, b, c, x)`, `scipy.linalg.expm(m)`, `norm.logpdf(x)`: SciPy
        runs on the host and converts its arguments with `__array__()` like NumPy."""
        traced = self._first_traced(node)
        if traced is None:
            return
        twin = apis.jax_scipy_twin(q)
        instead = (f"Use `{twin}` instead" if twin is not None else
                   "Compute it with jax.numpy / jax.scipy, or call SciPy through `jax.pure_callback`")
        shown = self.ctx.code(node.func).strip()
        self.report(
            node,
            f"`{shown}`{'' if shown == q else f' (`{q}`)'} on a traced value ({self.ctx.describe_origin(traced)}): "
            f"SciPy runs on the host and converts it with `__array__()`, which raises "
            f"TracerArrayConversionError. {instead}",
        )

    def _quadrature(self, node: cst.Call, q: str) -> None:
        """`quad(f, a, b)` with a traced bound or `args=`, or an integrand lambda that
        reads a tracer of the enclosing function (`quad(lambda x: c * x, 0, 1)`): SciPy
        compares the bounds and calls `float()` on what the integrand returns."""
        ctx = self.ctx
        traced, how = None, ""
        for i, a in enumerate(node.args):
            if a.star:
                return
            integrand = (a.keyword is None and i == 0) or (a.keyword is not None and a.keyword.value == "func")
            if integrand:
                if type(a.value) is cst.Lambda:
                    traced = self._captured_tracer(a.value)
                    how = "the integrand reads it, and SciPy calls `float()` on what the integrand returns, which raises ConcretizationTypeError"
            else:
                traced = self._traced_arg(a.value)
                how = ("SciPy calls `float()` on the integrand's value, which raises ConcretizationTypeError"
                       if a.keyword is not None and a.keyword.value == "args" else
                       "SciPy compares it as a Python number, which raises TracerBoolConversionError or ConcretizationTypeError")
            if traced is not None:
                break
        if traced is None:
            return
        shown = ctx.code(node.func).strip()
        self.report(
            node,
            f"`{shown}`{'' if shown == q else f' (`{q}`)'} on a traced value ({ctx.describe_origin(traced)}): "
            f"{how}. Integrate with jax.numpy (`jnp.trapezoid` on a grid, a fixed Gauss rule), or call "
            f"SciPy through `jax.pure_callback`",
        )

    def _captured_tracer(self, fn: cst.Lambda) -> Optional[V.Value]:
        """A tracer of the enclosing scope that the lambda ``fn``'s body reads."""
        own = {p.name.value for p in (*fn.params.params, *fn.params.kwonly_params, *fn.params.posonly_params)}
        for n in walk_tree(fn.body):
            if type(n) is cst.Name and n.value not in own and self.ctx.is_tracer(n):
                return self.ctx.value(n)
        return None

    def visit_Subscript(self, node: cst.Subscript) -> None:
        """``TABLE[i]``: a host NumPy array indexed by a tracer."""
        ctx = self.ctx
        if not ctx.in_traced:
            return
        base = ctx.value(node.value)
        if base.kind != V.NPARRAY and not (base.kind == V.STATIC and base.pytype == "ndarray") \
                and not ctx.holds_host_numpy_array(node.value):
            return
        traced = None
        in_slice = False
        for el in node.slice:
            s = el.slice
            in_slice = not isinstance(s, cst.Index)
            parts = [s.value] if isinstance(s, cst.Index) else [p for p in (s.lower, s.upper, s.step) if p is not None]
            for part in parts:
                traced = self._traced_arg(part)
                if traced is not None:
                    break
            if traced is not None:
                break
        if traced is None:
            return
        how = (
            "`__index__()`, which raises TracerIntegerConversionError" if in_slice
            else "`__array__()`, which raises TracerArrayConversionError"
        )
        base = ctx.code(node.value).strip()
        index = ctx.code(node).strip()[len(ctx.code(node.value).strip()):]
        self.report(
            node,
            f"`{ctx.code(node).strip()}` indexes the host NumPy array `{base}` with a traced value "
            f"({ctx.describe_origin(traced)}): NumPy converts the index with {how}. "
            f"Make it a JAX array first: "
            f"`{self._jnp_alias() or 'jnp'}.asarray({base}){index}`",
        )

    def _jnp_alias(self) -> Optional[str]:
        for local, full in self.ctx.imports.names.items():
            if full == "jax.numpy" and self.ctx.qualname(cst.Name(local)) == "jax.numpy":
                return local
        return None
