"""JAX406 stateful-rng-in-traced-code: `np.random.*` / `random.random()` inside traced code draws once and bakes the numbers in."""

from __future__ import annotations

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.model.scopes import bound_once, scope_of
from jaxlint.findings import Severity


_STDLIB_RANDOM = frozenset(
    {"random", "randint", "randrange", "uniform", "gauss", "normalvariate", "choice", "choices",
     "shuffle", "sample", "betavariate", "expovariate", "gammavariate", "lognormvariate",
     "triangular", "vonmisesvariate", "paretovariate", "weibullvariate", "getrandbits", "binomialvariate"}
)


class StatefulRngInTraced(Rule):
    code = "JAX406"
    name = "stateful-rng-in-traced-code"
    runtime_check = 'differential: two compiled calls return the same output while two eager calls differ (host randomness baked in at trace time).'
    summary = "`np.random.*` / `random.random()` inside traced code draws once and bakes the numbers in"
    severity = Severity.ERROR
    seed = "The Sharp Bits § Random Numbers (seed 000); tutorial § NumPy's global RNG state (seed 002)"
    what_it_does = (
        "Flags calls to NumPy's stateful random API (`np.random.normal`, `np.random.rand`, "
        "`np.random.default_rng`, ...) and to the standard library `random` module inside code "
        "that JAX traces. The same calls outside traced code (making data, seeding) are fine, "
        "and so is a branch no trace takes (`if rng is None:` where every traced caller, and "
        "every jit of a `partial` that binds it, passes a key), and a generator made there from a "
        "literal seed (`np.random.RandomState(1729)`, `np.random.default_rng(0)`, "
        "`np.random.Generator(np.random.PCG64(7))`, `random.Random(0)`): it gives the same numbers on "
        "every call, traced or not. A draw from such a generator object made outside the trace is "
        "flagged whatever its seed (`rng = np.random.default_rng(34982345)` at module level, or in a "
        "function no transformation traces, then `rng.random()`, `state.randn()`, `py.gauss(0, 1)` "
        "in a jitted function or a `scan` body; also `random.SystemRandom()`): the generator advances "
        "only while tracing, so the compiled function repeats one draw (its state methods, "
        "`get_state`, `seed`, `spawn`... draw nothing). And SciPy's `scipy.stats.<dist>.rvs(...)`, "
        "which draws from NumPy's global RNG, unless it passes a literal `random_state`.\n\n"
        "Also flagged: a call, in a function a transformation traces (`@jax.jit`, a `scan` "
        "body...), of a project function that keeps a module-global JAX key as state "
        "(`global _KEY; _KEY, sub = jax.random.split(_KEY)`), or of one that calls such a "
        "function, directly or through a table of functions, in this module or another."
    )
    why_bad = (
        "The Python RNG runs once, while the function is traced, and its result becomes a "
        "constant of the compiled computation: `jax.jit(lambda x: x + np.random.normal(size=2))` "
        "returns the same \"noise\" on every call (a new input shape retraces and draws new "
        "constants). No warning is given."
    )
    use_instead = "Pass a JAX PRNG key and use `jax.random`:\n\n```python\n@jax.jit\ndef noisy(x, key):\n    return x + jax.random.normal(key, x.shape)\n```"
    fix_safety = "No automatic fix: a key has to be threaded through the function."
    VALID = [
        # a module-global key advanced by a helper called eagerly; a key passed in
        Valid(
            """
            import jax

            _KEY = jax.random.key(0)


            def next_key():
                global _KEY
                _KEY, sub = jax.random.split(_KEY)
                return sub


            @jax.jit
            def noisy(x, key):
                return x + jax.random.normal(key, x.shape)


            y = noisy(jax.numpy.zeros(2), next_key())
            """
        ),
        Valid(
            """
            import numpy as np
            import jax

            data = np.random.normal(size=(100, 3))

            @jax.jit
            def f(x, key):
                return x + jax.random.normal(key, x.shape)

            f(data, jax.random.key(0))
            """
        ),
        # jax.random imported as `random`
        Valid(
            """
            import jax
            from jax import random

            @jax.jit
            def f(x, key):
                return x + random.uniform(key, x.shape)
            """
        ),
        # host callback
        Valid(
            """
            import jax
            import numpy as np

            def noise(x):
                return x + np.random.normal(size=x.shape).astype(x.dtype)

            @jax.jit
            def f(x):
                return jax.pure_callback(noise, jax.ShapeDtypeStruct(x.shape, x.dtype), x)
            """
        ),
        # the NumPy branch is the host input pipeline's: every trace passes a key (traced
        # callers by keyword, a jit of a `partial` that binds one), so no trace takes it
        Valid(
            """
            import functools

            import jax
            import numpy as np


            def mixup(batch, alpha=1.0, rng=None):
                if rng is None:
                    weight = np.random.beta(alpha, alpha)
                else:
                    weight = jax.random.beta(rng, alpha, alpha)
                return batch * weight


            mixup_fn = jax.jit(functools.partial(mixup, alpha=1.0, rng=jax.random.PRNGKey(0)))


            @jax.pmap
            def train_step(batch, rng):
                return mixup(batch, rng=rng)
            """
        ),
        # the same through `from functools import partial` and jax.vmap, the test reversed
        Valid(
            """
            from functools import partial

            import jax
            import numpy as np


            def augment(x, key=None):
                if key is not None:
                    return x + jax.random.normal(key, x.shape)
                return x + np.random.normal(size=x.shape)


            batched = jax.vmap(partial(augment, key=jax.random.PRNGKey(1)))
            """
        ),
        # a generator made on each call from a fixed seed: every call, traced or not, draws
        # the same numbers, so baking them in changes nothing
        Valid(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np


            @jax.jit
            def power_iteration(m):
                v0 = np.random.RandomState(1729).uniform(-1.0, 1.0, m.shape[0]).astype(np.float32)
                return m @ jnp.asarray(v0)
            """
        ),
        Valid(
            """
            import random

            import jax
            import numpy as np


            def probe(x):
                gen = np.random.Generator(np.random.PCG64(7))
                order = random.Random(0).sample(range(4), 4)
                return x[order] * gen.normal(size=4) + np.random.default_rng([1, 2]).random()


            batched = jax.vmap(probe)
            """
        ),
    ]

    INVALID = [
        # a generator seeded from the OS each trace: the numbers of one trace are baked in
        Invalid(
            """
            import jax
            import numpy as np


            @jax.jit
            def jitter(x):
                return x + np.random.default_rng().normal(size=x.shape)
            """,
            expected=[(7, 16)],
            messages=[
                "`np.random.default_rng` (NumPy's stateful RNG) inside traced `jitter` runs once at trace time: its numbers are baked into the compiled function and repeat on every call. Pass a PRNG key and use `jax.random` instead",
            ],
        ),
        # the jitted partial leaves the key out: the trace takes the NumPy branch
        Invalid(
            """
            import functools

            import jax
            import numpy as np


            def mixup(batch, alpha=1.0, rng=None):
                if rng is None:
                    weight = np.random.beta(alpha, alpha)
                else:
                    weight = jax.random.beta(rng, alpha, alpha)
                return batch * weight


            mixup_fn = jax.jit(functools.partial(mixup, alpha=1.0))
            """,
            expected=[(9, 18)],
            messages=[
                "`np.random.beta` (NumPy's stateful RNG) inside traced `mixup` runs once at trace time: its numbers are baked into the compiled function and repeat on every call. Pass a PRNG key and use `jax.random` instead",
            ],
        ),
        Invalid(
            """
            import jax
            import numpy as np

            f = jax.jit(lambda x: x + np.random.normal(size=2))
            """,
            expected=[(4, 27)],
            messages=[
                "`np.random.normal` (NumPy's stateful RNG) inside traced `<lambda>` runs once at trace time: its numbers are baked into the compiled function and repeat on every call. Pass a PRNG key and use `jax.random` instead",
            ],
        ),
        Invalid(
            """
            import random
            import jax

            @jax.vmap
            def jitter(x):
                return x * random.random()
            """,
            expected=[(6, 16)],
            messages=[
                "`random.random` (Python's stateful `random` module) inside traced `jitter` runs once at trace time: its numbers are baked into the compiled function and repeat on every call. Pass a PRNG key and use `jax.random` instead",
            ],
        ),
        # a helper that advances a module-global key, called from a jitted function
        Invalid(
            """
            import jax

            _KEY = jax.random.key(0)


            def next_key():
                global _KEY
                _KEY, sub = jax.random.split(_KEY)
                return sub


            @jax.jit
            def noisy(x):
                return x + jax.random.normal(next_key(), x.shape)
            """,
            expected=[(14, 34)],
            messages=[
                "`next_key` draws from the module-global JAX key `_KEY` and stores the next key back (`global _KEY`): inside traced `noisy` that runs once, at trace time, so the compiled function repeats the same random numbers on every call, and `_KEY` is left holding a tracer. Pass a PRNG key to `noisy` and split it there",
            ],
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if not ctx.in_traced:
            return
        q = ctx.qualname(node.func)
        if q is None:
            if self._generator_draw(node):
                return
            self._global_key(node)
            return
        if q in _SEEDED_GENERATORS and _constant_seed(node):
            # `np.random.RandomState(1729).uniform(...)`: a generator made on each call with
            # one fixed seed gives the same numbers every call, traced or not
            return
        if q.startswith("numpy.random."):
            what = f"`{ctx.code(node.func).strip()}` (NumPy's stateful RNG)"
        elif q.startswith("random.") and q.count(".") == 1 and q.split(".")[1] in _STDLIB_RANDOM:
            what = f"`{ctx.code(node.func).strip()}` (Python's stateful `random` module)"
        elif q.startswith("scipy.stats.") and q.endswith(".rvs") and not _constant_seed_keyword(node):
            what = f"`{ctx.code(node.func).strip()}` (SciPy draws from NumPy's stateful RNG)"
        else:
            self._global_key(node)
            return
        self.report(
            node,
            f"{what} inside traced `{ctx.unit.name}` runs once at trace time: its numbers are baked "
            "into the compiled function and repeat on every call. Pass a PRNG key and use "
            "`jax.random` instead",
        )

    def _generator_draw(self, node: cst.Call) -> bool:
        """``rng.random()`` in traced code, where ``rng`` is a NumPy or Python generator
        (``np.random.default_rng(34982345)``, ``np.random.RandomState()``,
        ``random.Random(0)``) that a scope outside the trace binds once (the module, a
        function no transformation traces): the draw runs once, at trace time, and the
        generator's state advances only then, so every call repeats the same numbers,
        whatever its seed (eager calls would each draw new ones)."""
        ctx = self.ctx
        func = node.func
        if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name) \
                or func.attr.value in _NOT_DRAWS or func.attr.value.startswith("_"):
            return False
        name = func.value.value
        owner = scope_of(ctx.index, ctx.unit, name)
        if owner is None or owner is ctx.unit or not (owner.is_module or not owner.traced):
            return False
        made = bound_once(ctx.index, owner, func.value)
        if not isinstance(made, cst.Call) or ctx.qualname(made.func) not in _GENERATORS:
            return False
        self.report(
            node,
            f"`{ctx.code(func).strip()}` draws from `{name}`, a stateful {ctx.code(made.func).strip()} generator "
            f"made outside the trace, inside traced `{ctx.unit.name}`: the draw runs once at trace time, "
            "its numbers are baked into the compiled function and repeat on every call. Pass a PRNG key "
            "and use `jax.random` instead",
        )
        return True

    def _global_key(self, node: cst.Call) -> None:
        """A call of a function that advances a module-global JAX key (``global _KEY;
        _KEY, sub = jax.random.split(_KEY)``: model/keystate.py), in a function that a
        transformation traces itself (the helpers between are traced through it: the
        call that starts the trace is the one to change)."""
        ctx = self.ctx
        unit = ctx.unit
        if not any(not r.startswith("called from") for r in unit.reasons):
            return
        found = ctx.global_key_call(node)
        if found is None:
            return
        callee, key = found
        self.report(
            node,
            f"`{callee}` draws from the module-global JAX key `{key}` and stores the next key "
            f"back (`global {key}`): inside traced `{unit.name}` that runs once, at trace time, so "
            "the compiled function repeats the same random numbers on every call, and "
            f"`{key}` is left holding a tracer. Pass a PRNG key to `{unit.name}` and split it there",
        )


# generators made from a seed: with a constant one they give the same numbers on
# every call (the numbers baked in at trace time are the ones every call would draw)
_SEEDED_GENERATORS = frozenset({
    "numpy.random.RandomState", "numpy.random.default_rng", "numpy.random.Generator", "numpy.random.PCG64",
    "numpy.random.PCG64DXSM", "numpy.random.MT19937", "numpy.random.Philox", "numpy.random.SFC64",
    "numpy.random.SeedSequence", "random.Random",
})


# bit generators and seed sequences: their methods draw no variates for the program
_BIT_GENERATORS = frozenset({"numpy.random.PCG64", "numpy.random.PCG64DXSM", "numpy.random.MT19937",
                             "numpy.random.Philox", "numpy.random.SFC64", "numpy.random.SeedSequence"})
# what makes a generator object whose methods draw variates
_GENERATORS = _SEEDED_GENERATORS - _BIT_GENERATORS | {"random.SystemRandom"}
# methods of a generator that draw nothing (state, seeding, spawning)
_NOT_DRAWS = frozenset({"get_state", "set_state", "getstate", "setstate", "seed", "spawn", "bit_generator",
                        "jumped"})


def _constant_seed_keyword(call: cst.Call) -> bool:
    """``rvs(..., random_state=0)``: a literal seed gives the same numbers on every call."""
    for a in call.args:
        if a.keyword is not None and a.keyword.value in ("random_state", "seed"):
            return isinstance(a.value, cst.Integer) or isinstance(a.value, cst.Call) and _constant_seed(a.value)
    return False


def _constant_seed(call: cst.Call) -> bool:
    """Is the seed of ``call`` a literal (``RandomState(1729)``, ``default_rng([1, 2])``,
    ``Generator(PCG64(0))``)?  No seed at all draws one from the OS: not constant."""
    pos = [a for a in call.args if a.keyword is None or a.keyword.value == "seed"]
    if len(pos) != 1 or pos[0].star:
        return False
    v = pos[0].value
    if isinstance(v, cst.Call):
        return _constant_seed(v)  # `Generator(PCG64(0))`
    if isinstance(v, (cst.List, cst.Tuple)):
        return bool(v.elements) and all(isinstance(e.value, cst.Integer) for e in v.elements)
    return isinstance(v, cst.Integer)
