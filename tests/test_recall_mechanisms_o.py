"""Batch 6's group C by mechanism (issue 22, branch recallO): which functions are traced.
Transform targets that are not plain defs (a lambda bound to a name and jitted with static
positions, a class given to jit, a method of an imported class's instance); functions handed to
a library's callback slot (optax schedules, flax/haiku lifted transforms, tree maps in traced
code); closures returned by a project factory and called in traced code; Python ints given to
`eqx.filter_jit` in a loop.  Each INVALID line was run with JAX 0.10.2 (optax, flax, equinox in
the .venv) and fails (or retraces) as the message says; each VALID twin runs (or traces once)."""

from __future__ import annotations

from project_files import lint_files


_lint = lint_files


def _static_msg(name: str, param: str, nums: str, made: str = "") -> str:
    return (f"A JAX array{made} is passed to `{name}` in a static position (parameter `{param}`; static_argnums={nums}): "
            "static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments "
            "are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value "
            "(tuple, int, str)")


TARGET_OPS = """\
import jax
import jax.numpy as jnp

scale = lambda v, n: v * n
scale_jit = jax.jit(scale, static_argnums=(1,))


class Base:
    def __init__(self, x):
        if jnp.any(x < 0):
            raise ValueError("negative")
        self.x = x


class Grid(Base):
    pass


class Store:
    def __init__(self, x, check=False):
        self.x = x
        self.check = check


class Solver:
    def __init__(self, tol):
        self.tol = tol

    def solve(self, x):
        if x.sum() > self.tol:
            return x
        return -x
"""

TARGET_MAIN = """\
import jax
import jax.numpy as jnp

from pkg.ops import Grid, Solver, Store, scale_jit


def run(x):
    weights = jnp.ones(3)
    y = scale_jit(x, weights)
    z = scale_jit(x, 3)
    g = jax.jit(Grid)(x)
    st = jax.jit(Store)(x)
    s = Solver(1.0)
    r = jax.jit(s.solve)(x)
    return y, z, g, st, r


def local(x):
    norm = lambda v, ord: jnp.linalg.norm(v, ord)
    f = jax.jit(norm, static_argnums=1)
    return f(x, jnp.array(2)), f(x, 2), f(x, (2,))


class Interval:
    def __init__(self, lo, hi):
        if lo > hi:
            raise ValueError("empty")
        self.lo, self.hi = lo, hi


class Box:
    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi


intervals = jax.vmap(Interval)(jnp.zeros(3), jnp.ones(3))
boxes = jax.jit(Box)(jnp.zeros(3), jnp.ones(3))
"""


def test_transform_targets_that_are_not_plain_defs(tmp_path, monkeypatch):
    """`f = lambda ...; jax.jit(f, static_argnums=...)` maps static positions like a def (here
    and imported); `jax.jit(Cls)` / `jax.vmap(Cls)` trace the class's `__init__` (its own or a
    base's, in another module); `jax.jit(obj.method)` with `obj` an imported class's instance
    traces the method.  VALID: hashable static arguments, constructors that only store."""
    found = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/ops.py": TARGET_OPS,
                                          "main.py": TARGET_MAIN})
    assert found == [
        ("JAX201", "main.py", 26, 12,
         "Python `if` on a traced value: it depends on the traced arguments `hi`, `lo` of `__init__` "
         "(wrapped by jax.vmap); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
        ("JAX201", "pkg/ops.py", 10, 12,
         "Python `if` on a traced value: it depends on the traced argument `x` of `__init__` (wrapped by "
         "jax.jit in main.py:11); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
        ("JAX201", "pkg/ops.py", 30, 12,
         "Python `if` on a traced value: it depends on the traced argument `x` of `solve` (wrapped by "
         "jax.jit in main.py); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; "
         "or, if `x` is a Python value, mark it static (static_argnames='x')"),
        ("JAX207", "main.py", 9, 22,
         _static_msg("scale_jit", "n", "1", " (`weights` is bound to `jnp.ones(3)` on line 8)")),
        ("JAX207", "main.py", 21, 17, _static_msg("f", "ord", "1")),
        # the module-level jit's declaration too, told by main.py's call (statC)
        ("JAX207", "pkg/ops.py", 5, 13, '`scale_jit` declares `n` static (static_argnums=1), but other modules pass a JAX array for `n` (a call in main.py): static arguments must be hashable, so those calls raise ValueError: Non-hashable static arguments are not supported. Instead, leave it out of the static arguments (traced), or pass a hashable value (tuple, int, str)'),
    ]


FACTORY_OPS = """\
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def make_op(scale):
    def op(values):
        v = np.asarray(values)
        return jnp.asarray(v * scale)
    return op


def make_clip(lo):
    return lambda v: v if v.max() > lo else -v


def make_rule(eps):
    @jax.custom_vjp
    def safe(x):
        return x / (x + eps)

    def safe_fwd(x):
        return safe(x), float(x.sum())

    def safe_bwd(res, g):
        return (g * res,)

    safe.defvjp(safe_fwd, safe_bwd)
    return safe


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def clip_grad(lo, x):
    return x


def clip_fwd(lo, x):
    return x, None


def clip_bwd(lo, res, g):
    if lo > 0:
        g = jnp.clip(g, -lo, lo)
    if g.sum() > 0:
        return (g,)
    return (-g,)


clip_grad.defvjp(clip_fwd, clip_bwd)


@jax.custom_jvp
def soft_abs(x):
    return jnp.sqrt(x * x + 1e-6)


@soft_abs.defjvp
def soft_abs_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    if x.sum() > 0:
        return soft_abs(x), t
    return soft_abs(x), -t


def make_host_op(scale):
    def op(values):
        return np.asarray(values) * scale
    return op
"""

FACTORY_MAIN = """\
import jax
import jax.numpy as jnp

from pkg import ops
from pkg.ops import clip_grad, make_clip, make_host_op, make_op, make_rule, soft_abs


@jax.jit
def f(x):
    op = make_op(2.0)
    a = op(x)
    b = make_clip(0.0)(x)
    c = jax.grad(lambda v: make_rule(1e-3)(v).sum())(x)
    return a + b + c


@jax.jit
def g(x):
    d = jax.grad(lambda v: clip_grad(1.0, v).sum())(x)
    e = jax.grad(lambda v: soft_abs(v).sum())(x)
    return d + e


def host(x):
    return make_host_op(2.0)(x), ops.make_rule(1.0)(x)

"""


def test_closures_returned_by_factories_and_custom_rules_run_traced(tmp_path, monkeypatch):
    """`op = make_op(2.0); op(x)` and `make_clip(0.0)(x)` in traced code run the function the
    factory returns (here in one module: b6 662; across modules); the rules of a custom_vjp /
    custom_jvp function run where it runs under differentiation: `f.defvjp(fwd, bwd)`
    (`bwd`'s nondiff argument stays a Python value: `if lo > 0` is fine), `@f.defjvp`.
    VALID: the same factories' functions called eagerly (`host`)."""
    found = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/ops.py": FACTORY_OPS,
                                          "main.py": FACTORY_MAIN})
    assert found == [
        ("JAX201", "pkg/ops.py", 16, 27,
         "Python `... if ... else ...` on a traced value: it depends on the traced argument `v` of `<lambda>` "
         "(called from `f` (main.py:12), which is decorated with @jax.jit); this raises "
         "TracerBoolConversionError. Use `jnp.where(cond, a, b)` or `jax.lax.cond`"),
        ("JAX201", "pkg/ops.py", 46, 8,
         "Python `if` on a traced value: it depends on the traced argument `g` of `clip_bwd` (the custom "
         "backward rule of traced `clip_grad`); this raises TracerBoolConversionError. Use `jax.lax.cond` "
         "or `jnp.where`"),
        ("JAX201", "pkg/ops.py", 62, 8,
         "Python `if` on a traced value: it depends on the traced argument `primals` of `soft_abs_jvp` (the "
         "custom JVP rule of traced `soft_abs`); this raises TracerBoolConversionError. Use `jax.lax.cond` "
         "or `jnp.where`"),
        ("JAX202", "pkg/ops.py", 25, 25,
         "`float()` needs a concrete value, but its argument is traced: it depends on the traced argument `x` "
         "of `safe_fwd` (the custom forward rule of traced `safe`); this raises ConcretizationTypeError. "
         "Instead, keep it as an array (`x.astype(jnp.float32)`), or return it and convert outside the "
         "traced function"),
        ("JAX204", "pkg/ops.py", 10, 13,
         "`np.asarray` on a traced value (it depends on the traced argument `values` of `op` (called from `f` "
         "(main.py:11), which is decorated with @jax.jit)): NumPy converts it with `__array__()`, which "
         "raises TracerArrayConversionError. Use `jnp.asarray` (jax.numpy) instead"),
    ]


LOCAL_FACTORY = """\
import jax
import jax.numpy as jnp
import numpy as np


def _wrap(scale):
    def op(values):
        v = np.asarray(values)
        return jnp.asarray(v * scale)
    return op


def _wrap_host(scale):
    def op(values):
        return np.asarray(values) * scale
    return op


def rank(values):
    func = _wrap(2.0)
    return jnp.vstack([func(v) for v in values])


@jax.jit
def f(x):
    return rank(x.reshape(1, 3)), _wrap(3.0)(x)


def eager(x):
    return _wrap_host(2.0)(x)
"""


def test_closure_returned_by_a_factory_of_the_same_module(tmp_path, monkeypatch):
    """b6 662's shape in one module: the factory's function bound to a local name and called
    on the rows of a traced array, and called in place; VALID: an eager caller."""
    found = _lint(tmp_path, monkeypatch, {"ops.py": LOCAL_FACTORY})
    assert found == [
        ("JAX204", "ops.py", 8, 13,
         "`np.asarray` on a traced value (it depends on the traced argument `values` of `op` (called from "
         "traced `f`)): NumPy converts it with `__array__()`, which raises TracerArrayConversionError. "
         "Use `jnp.asarray` (jax.numpy) instead"),
    ]


SLOTS_DEMO = """\
import haiku as hk
import jax
import jax.numpy as jnp
import optax


def warmup(step):
    if step < 100:
        return 1e-3 * step / 100
    return 1e-3


def decay(count):
    return 1e-4 * 0.5 ** (count // 1000)


def constant(count):
    return 1e-3


tx = optax.adamw(learning_rate=warmup, weight_decay=decay)
joined = optax.join_schedules([constant, lambda c: 1e-3 if c < 10 else 1e-4], boundaries=[10])
injected = optax.inject_hyperparams(optax.sgd)(learning_rate=lambda c: 0.1 if c > 5 else 0.2)
safe = optax.sgd(learning_rate=optax.linear_schedule(0.1, 0.0, 100))
plain = optax.sgd(0.1)


def clip_leaf(g):
    if jnp.abs(g).max() > 1.0:
        return g / jnp.abs(g).max()
    return g


def scale_leaf(g):
    return g * 0.5


@jax.jit
def step(grads):
    return jax.tree.map(clip_leaf, grads), jax.tree_util.tree_map(scale_leaf, grads)


def forward(xs):
    def body(carry, x):
        if x.sum() > 0:
            carry = carry + x
        return carry, x
    return hk.scan(body, jnp.zeros(3), xs)
"""


def test_library_callback_slots_run_traced(tmp_path, monkeypatch):
    """Functions given to optax's schedule slots (`adamw`'s learning_rate and weight_decay,
    `join_schedules`' list, `inject_hyperparams(opt)(...)`), mapped over a traced tree by name
    (`jax.tree.map(clip_leaf, grads)`), and given to haiku's control flow (`hk.scan`) run traced.
    VALID: optax's own schedules, a float learning rate, a constant schedule, a mapped function
    with no Python control flow."""
    found = _lint(tmp_path, monkeypatch, {"slots_demo.py": SLOTS_DEMO})
    assert found == [
        ("JAX201", "slots_demo.py", 8, 8,
         "Python `if` on a traced value: it depends on the traced argument `step` of `warmup` (a schedule given "
         "to optax.adamw); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
        ("JAX201", "slots_demo.py", 22, 60,
         "Python `... if ... else ...` on a traced value: it depends on the traced argument `c` of `<lambda>` "
         "(a schedule given to optax.join_schedules); this raises TracerBoolConversionError. Use "
         "`jnp.where(cond, a, b)` or `jax.lax.cond`"),
        ("JAX201", "slots_demo.py", 23, 79,
         "Python `... if ... else ...` on a traced value: it depends on the traced argument `c` of `<lambda>` "
         "(a schedule given to optax.inject_hyperparams); this raises TracerBoolConversionError. Use "
         "`jnp.where(cond, a, b)` or `jax.lax.cond`"),
        ("JAX201", "slots_demo.py", 29, 8,
         "Python `if` on a traced value: it depends on the traced argument `g` of `clip_leaf` (called from "
         "traced `step`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
        ("JAX201", "slots_demo.py", 45, 12,
         "Python `if` on a traced value: it depends on the traced argument `x` of `body` (a body passed to "
         "haiku.scan); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
    ]


SLOT_SCHEDULES = """\
import jax.numpy as jnp


def warmup_cosine(step):
    if step < 500:
        return 1e-3 * step / 500
    return 1e-3 * jnp.cos(step / 1e4)


def smooth_warmup(step):
    return jnp.where(step < 500, 1e-3 * step / 500, 1e-3)
"""

SLOT_OPT = """\
import optax


def make_optimizer(lr_fn, clip=1.0):
    return optax.chain(optax.clip(clip), optax.adam(lr_fn))
"""

SLOT_MAIN = """\
import optax

from pkg import schedules
from pkg.opt import make_optimizer


def decay_schedule(count):
    return 1e-3 if count < 1000 else 1e-4


def flat(count):
    return 1e-3


tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(learning_rate=schedules.warmup_cosine))
tx2 = make_optimizer(decay_schedule)
tx3 = make_optimizer(flat)
tx4 = optax.adamw(learning_rate=schedules.smooth_warmup)
tx5 = make_optimizer(3e-4)
"""


def test_schedules_given_to_optax_across_modules_and_through_a_helper(tmp_path, monkeypatch):
    """b6 631's mechanism in two other shapes: a schedule of another module given to
    `optax.adamw` inside `optax.chain` (the fact goes to the defining module), and a schedule
    handed to a project helper that gives its parameter to `optax.adam`.  VALID: a `jnp.where`
    schedule, a constant schedule, a float through the same helper."""
    found = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/schedules.py": SLOT_SCHEDULES,
                                          "pkg/opt.py": SLOT_OPT, "main.py": SLOT_MAIN})
    assert found == [
        ("JAX201", "main.py", 8, 20,
         "Python `... if ... else ...` on a traced value: it depends on the traced argument `count` of "
         "`decay_schedule` (a schedule given to optax.adam); this raises TracerBoolConversionError. Use "
         "`jnp.where(cond, a, b)` or `jax.lax.cond`"),
        ("JAX201", "pkg/schedules.py", 5, 8,
         "Python `if` on a traced value: it depends on the traced argument `step` of `warmup_cosine` (a schedule "
         "given to optax.adamw in main.py); this raises TracerBoolConversionError. Use `jax.lax.cond` or "
         "`jnp.where`"),
    ]


def test_the_optax_slot_table_matches_the_installed_optax():
    """Every public optax function whose parameter is annotated as a schedule is in the table,
    at its position (keyword-only: None), and nothing else is."""
    import inspect

    import pytest

    from jaxlint.model import slots

    optax = pytest.importorskip("optax")
    import optax.contrib  # noqa: F401

    schedule = str(optax.Schedule)  # a callable of the step count (in ScalarOrSchedule too)
    found: dict[str, tuple] = {}
    for modname, mod in (("optax", optax), ("optax.contrib", optax.contrib)):
        for name in sorted(dir(mod)):
            obj = getattr(mod, name)
            if name.startswith("_") or inspect.isclass(obj) or not callable(obj):
                continue
            try:
                sig = inspect.signature(obj)
            except (TypeError, ValueError):
                continue
            rows = tuple((i if p.kind != p.KEYWORD_ONLY else None, p.name)
                         for i, p in enumerate(sig.parameters.values())
                         if schedule in str(p.annotation) and not str(p.annotation).startswith("typing.Sequence"))
            if rows:
                found[f"{modname}.{name}"] = rows
    assert found == slots.OPTAX_SCHEDULE_SLOTS


FILTER_JIT_NUMBERS = """\
import equinox as eqx
import jax
import jax.numpy as jnp


class Annealer(eqx.Module):
    temperature: float
    count: jax.Array
    params: jax.Array


@eqx.filter_jit
def cool(state):
    return Annealer(temperature=state.temperature * 0.9, count=state.count + 1, params=state.params - 0.1)


@eqx.filter_jit
def tick(state):
    return Annealer(temperature=state.temperature, count=state.count + 1, params=state.params * 0.5)


@eqx.filter_jit
def update(params, step, lr):
    return params - lr * step


def anneal(state, n):
    for _ in range(n):
        state = cool(state)
    return state


def ticks(state, n):
    for _ in range(n):
        state = tick(state)
    return state


def train(params, n):
    for i in range(n):
        params = update(params, i, 0.1)
    for epoch in range(n):
        params = update(params, jnp.asarray(epoch), lr=0.1 * (epoch + 1))
    for k in range(n):
        params = update(params, jnp.asarray(k), 0.1)
    for k in range(n):
        params = update(params, 3, k % 2)
    return params

"""

_EQX_MODULE = """\
import equinox as eqx
import jax.numpy as jnp


class Counter(eqx.Module):
    steps: int
    total: jnp.ndarray
"""

_EQX_FIT = """\
import equinox as eqx

from .module import Counter


@eqx.filter_jit
def _advance(counter):
    return Counter(steps=counter.steps + 1, total=counter.total * 0.5)


@eqx.filter_jit
def _keep(counter):
    return Counter(steps=counter.steps, total=counter.total * 0.5)


def run(counter, n=10):
    for _ in range(n):
        counter = _advance(counter)
    for _ in range(n):
        counter = _keep(counter)
    return counter
"""


def _filter_msg(what: str, fname: str, written: str) -> str:
    return (f"{what} is passed to `{fname}`, an `eqx.filter_jit` function: every argument that is not an "
            "array is static (a Python number is hashed into the compile cache), so every new value traces and "
            f"compiles it again (one compile per iteration). Pass it as an array (`jnp.asarray({written})`)")


def _carried_msg(arg: str, fname: str, cls: str, field: str, ret: str) -> str:
    return (f"`{arg}` is carried through `{fname}`, an `eqx.filter_jit` function, which returns a new `{cls}` "
            f"with its number field `{field}` changed (`{ret}`): under `eqx.filter_jit` every field that is not "
            f"an array is static, so each new value of `{field}` traces and compiles `{fname}` again (one compile "
            f"per iteration). Store it as an array (`{field}: jax.Array`, `jnp.asarray(...)`)")


def test_python_numbers_that_change_per_iteration_under_filter_jit(tmp_path, monkeypatch):
    """Under `eqx.filter_jit` a Python number is static: the loop counter (b6 641's small
    half), a value that changes with it, and a Module carried through the step whose number
    field the step changes (a float field here; an int field of a Module of another module
    below, b6 641's shape) compile once per iteration (JAX_LOG_COMPILES: `update` 10 times,
    `cool` 4 times for 4 iterations).  VALID: a `jnp` counter, a constant, `k % 2`, a field the
    step passes on unchanged, an array field that changes."""
    found = _lint(tmp_path, monkeypatch, {"anneal.py": FILTER_JIT_NUMBERS, "pkg/__init__.py": "from .fit import run\n",
                                          "pkg/module.py": _EQX_MODULE, "pkg/fit.py": _EQX_FIT})
    assert found == [
        ("JAX504", "anneal.py", 29, 17, _carried_msg("state", "cool", "Annealer", "temperature",
                                                     "temperature=state.temperature * 0.9")),
        ("JAX504", "anneal.py", 41, 33, _filter_msg("the loop counter `i`", "update", "i")),
        ("JAX504", "anneal.py", 43, 56, _filter_msg(
            "`0.1 * (epoch + 1)`, which changes with the loop counter `epoch`,", "update", "0.1 * (epoch + 1)")),
        ("JAX504", "pkg/fit.py", 18, 19, _carried_msg("counter", "_advance", "Counter", "steps",
                                                      "steps=counter.steps + 1")),
    ]


KIND_HELPERS = """\
import jax
import jax.numpy as jnp


def rnn(inputs, h):
    outs = []
    for x in inputs:
        h = jnp.tanh(x + h)
        outs.append(h)
    return outs, h


@jax.jit
def forward(xs):
    return rnn(xs, jnp.zeros(3))


def pairs(items, h):
    for x in items:
        h = h + x
    return h


@jax.jit
def forward2(xs, ys):
    return pairs((xs, ys), 0.0)


def main(data):
    xs = jnp.asarray(data)
    return forward(xs), forward2(xs, xs)
"""

KIND_LAMBDAS = """\
import jax
import jax.numpy as jnp


@jax.jit
def forward(xs):
    scan_rows = lambda rows: [jnp.tanh(r) for r in rows]
    total = 0.0
    for h in scan_rows(xs):
        total = total + h
    step = lambda rows: sum(r for r in rows)
    return total, step(xs)


def main(data):
    return forward(jnp.asarray(data))
"""

KIND_LINEN = """\
import flax.linen as nn
import jax
import jax.numpy as jnp


class Decoder(nn.Module):
    features: int

    @nn.compact
    def __call__(self, tokens):
        h = jnp.zeros(self.features)
        for t in tokens:
            h = nn.Dense(self.features)(h) + t
        return h


class Pair(nn.Module):
    @nn.compact
    def __call__(self, parts):
        total = 0.0
        for p in parts:
            total = total + nn.Dense(2)(p)
        return total


def run(data, key):
    model = Decoder(features=4)
    xs = jnp.asarray(data)
    variables = model.init(key, xs)
    step = jax.jit(lambda v, x: model.apply(v, x))
    return step(variables, xs)


def run_pair(data, key):
    model = Pair()
    xs = jnp.asarray(data)
    variables = model.init(key, (xs, xs))
    step = jax.jit(lambda v, a: model.apply(v, (a, a)))
    return step(variables, xs)

"""


def _unrolled(line: int, col: int, path: str, name: str, unit: str) -> tuple:
    return ("JAX503", path, line, col,
            f"this Python loop runs once per row of `{name}`, a traced array argument of `{unit}`, while JAX "
            f"traces `{unit}`: it is unrolled, and compile time grows with the data size. Vectorise (`jax.vmap` "
            f"the body) or use `lax.scan` over `{name}`")


def test_array_kinds_reach_helpers_lambdas_and_module_methods(tmp_path, monkeypatch):
    """A traced parameter is a JAX array when every call that traces it passes one (joined over
    the calls; unknown when a use is not a call seen): a helper of a jitted function, a lambda
    bound to a name in traced code, a flax module's `__call__` through `model.apply` in a jitted
    lambda (b6 633's mechanism; its case fires through `make_jaxpr`).  VALID: a helper given a
    tuple of arrays, a module given a tuple, a module whose `apply` is handed on as a value."""
    apply_fn = KIND_LINEN.replace("    step = jax.jit(lambda v, x: model.apply(v, x))",
                                  "    apply_fn = model.apply\n    step = jax.jit(lambda v, x: apply_fn(v, x))")
    found = _lint(tmp_path, monkeypatch, {"helpers.py": KIND_HELPERS, "lambdas.py": KIND_LAMBDAS,
                                          "decoder.py": KIND_LINEN, "decoder_fn.py": apply_fn},
                  "--extend-select", "JAX503")
    assert found == [
        _unrolled(12, 18, "decoder.py", "tokens", "__call__"),
        _unrolled(7, 14, "helpers.py", "inputs", "rnn"),
        _unrolled(7, 52, "lambdas.py", "rows", "<lambda>"),
        _unrolled(11, 40, "lambdas.py", "rows", "<lambda>"),
    ]


PRECISION_LEAVES = """\
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def _allclose_or_equal(a1, a2):
    if isinstance(a1, np.ndarray):
        return np.allclose(a2, a1)
    elif isinstance(a1, jnp.ndarray):
        return jnp.allclose(a2, a1)
    else:
        return a2 == a1 or a2 is a1


def _tree_equal(t1, t2):
    return jax.tree.map(_allclose_or_equal, t1, t2)


def check(xs, d):
    return jax.vmap(lambda x, y: _tree_equal(x, y), in_axes=(0, None))(xs, d)


@partial(jax.custom_vjp, nondiff_argnames=("empty",))
def gather(x, idx, empty=True):
    return x[idx]


def gather_fwd(x, idx, empty):
    return gather(x, idx, empty=empty), (x.shape, idx)


def gather_bwd(empty, res, g):
    x_shape, idx = res
    if g.shape[0] == x_shape[0]:
        return g[jnp.argsort(idx)], None
    init = jnp.zeros if empty else jnp.ones
    return init(x_shape, g.dtype).at[idx].set(g), None


gather.defvjp(gather_fwd, gather_bwd)


@jax.jit
def loss(x, idx):
    return jax.grad(lambda v: gather(v, idx).sum())(x)
"""

PRECISION_SVI = """\
import jax.numpy as jnp


class SVI:
    def __init__(self, loss):
        self.loss = loss

    def init(self, params, scale):
        self.constrain_fn = lambda p: jnp.exp(p) * scale
        return params

    def update(self, state):
        return self.constrain_fn(state) * self.loss

    def run(self, params, n):
        state = self.init(params, 2.0)
        for _ in range(n):
            state = self.update(state)
        return state
"""

PRECISION_SVI_TEST = """\
import jax
import jax.numpy as jnp

from pkg.svi import SVI


def test_update():
    svi = SVI(1.0)
    state = svi.init(jnp.ones(3), 1.0)
    return jax.jit(svi.update)(state)
"""


def test_precision_twins_of_the_new_traced_functions(tmp_path, monkeypatch):
    """VALID (fresh sets 8 and 9: numpyro, simply): a custom_vjp backward rule testing a shape
    its forward rule put in the residuals, its nondiff argument named by nondiff_argnames; a named def mapped over a traced tree that dispatches on
    `isinstance(leaf, jnp.ndarray)` (its `else` is no trace's branch: every leaf is a tracer);
    a method jitted as `jax.jit(svi.update)` in another module reads an attribute that `init`
    sets before (the order of that module's calls is not this file's to judge: JAX405 quiet)."""
    found = _lint(tmp_path, monkeypatch, {"leaves.py": PRECISION_LEAVES, "pkg/__init__.py": "",
                                          "pkg/svi.py": PRECISION_SVI, "test_svi.py": PRECISION_SVI_TEST})
    assert found == []
