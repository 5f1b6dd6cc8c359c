"""The JAX model's answers, asserted directly (not through a rule's findings).

Pass 1 (``build_index``) decides which units are traced, why, and which of their
parameters are traced or static.  Pass 2 (the ``Interpreter``) answers, at each
point of the walk, what a rule may ask through ``RuleContext``.  To ask at a
point, a snippet calls the marker ``probe(expr)``; a tiny check records the
context's answers there, wired the way ``jaxlint.engine.analyze`` wires rules.
A model change shows up here, where it happens, before any rule's output moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from textwrap import dedent
from typing import Optional

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from jaxlint.engine import hook_tables
from jaxlint.engine.context import RuleContext
from jaxlint.engine.rule import Check
from jaxlint.model import values as V
from jaxlint.model.index import FileIndex, build_index
from jaxlint.model.interpreter import Interpreter, schedule
from jaxlint.model.units import Unit
from jaxlint.model.values import KeyToken
from jaxlint.settings import LintSettings


# --------------------------------------------------------------------------- wiring
def index_of(source: str) -> FileIndex:
    return build_index(cst.parse_module(dedent(source)))


def unit(index: FileIndex, qualname: str) -> Unit:
    (found,) = [u for u in index.units if u.qualname == qualname]
    return found


@dataclass
class Answer:
    """What the context said at one ``probe(expr)`` / ``consume(expr)`` call."""

    expr: str  # the probed expression's source
    line: int
    unit: str  # the unit being walked
    reasons: tuple[str, ...]  # why that unit is traced, as the walk knows it
    in_traced: bool
    loops: int  # Python loops around the probe
    traced: bool
    kind: str
    deps: frozenset[str]
    qualname: Optional[str]
    key: Optional[KeyToken]
    consumed_before: Optional[int] = None  # consume(): line of the earlier consumption
    tracer: bool = False  # a tracer of any sort (ctx.is_tracer), concrete ones too
    in_tracing: bool = False  # the code runs with tracers (ctx.in_tracing)
    concrete: bool = False  # differentiated outside jit only (ctx.concrete_tracers)


class Probe(Check):
    """Records the context's answers at each call of the markers ``probe(expr)``
    and ``consume(expr)`` (the latter also consumes the key ``expr`` holds)."""

    def __init__(self, ctx: RuleContext, lines: dict[cst.CSTNode, int]) -> None:
        super().__init__(ctx)
        self.lines = lines
        self.answers: list[Answer] = []

    def visit_Call(self, node: cst.Call) -> None:
        marker = node.func.value if isinstance(node.func, cst.Name) else None
        if marker not in ("probe", "consume"):
            return
        ctx = self.ctx
        expr = node.args[0].value
        value = ctx.value(expr)
        key = ctx.key_token(expr)
        answer = Answer(
            expr=ctx.code(expr).strip(),
            line=self.lines[node],
            unit=ctx.unit.qualname,
            reasons=tuple(ctx.unit.reasons),
            in_traced=ctx.in_traced,
            loops=len(ctx.loop_stack),
            traced=ctx.is_traced(expr),
            kind=value.kind,
            deps=value.deps,
            qualname=ctx.qualname(expr),
            key=key,
            tracer=ctx.is_tracer(expr),
            in_tracing=ctx.in_tracing,
            concrete=ctx.concrete_tracers,
        )
        if marker == "consume":
            assert key is not None, f"consume({answer.expr}): no key identity"
            earlier = ctx.consume_key(key, node, "consume")
            answer.consumed_before = None if earlier is None else self.lines[earlier[0]]
        self.answers.append(answer)


def probe(source: str) -> list[Answer]:
    """Walk ``source`` as the engine does and return the answers at its markers,
    in walk order (callers before callees, statements in order)."""
    text = dedent(source)
    module = cst.parse_module(text)
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    lines = {node: pos.start.line for node, pos in positions.items()}
    index = build_index(module)
    interp = Interpreter(index, text, "probe.py", LintSettings(select=frozenset()))
    check = Probe(RuleContext(interp), lines)
    interp.set_hooks(*hook_tables([check]))
    for u in schedule(index):
        interp.run_unit(u)
    return check.answers


def at(answers: list[Answer], line: int) -> Answer:
    (found,) = [a for a in answers if a.line == line]
    return found


# --------------------------------------------------------------------------- pass 1: traced units
def test_which_units_are_traced_and_why():
    index = index_of("""
        import jax
        from jax import lax

        @jax.jit
        def step(x):
            return x

        def loss(p):
            return p

        grad_loss = jax.grad(loss)

        def per_row(r):
            return r

        rows = jax.vmap(per_row)

        def body(i, carry):
            return carry

        out = lax.fori_loop(0, 3, body, 0.0)

        def cb(v):
            return v

        @jax.jit
        def with_callback(x):
            return jax.pure_callback(cb, x, x)

        def plain(x):
            return x
    """)
    assert unit(index, "step").reasons == ["decorated with @jax.jit"]
    assert unit(index, "per_row").reasons == ["wrapped by jax.vmap"]
    # grad alone evaluates with concrete values: Python control flow still works there
    assert not unit(index, "loss").traced
    assert unit(index, "body").reasons == ["a body passed to lax.fori_loop"]
    assert unit(index, "cb").host and not unit(index, "cb").traced
    assert unit(index, "cb").reasons == ["a host callback of jax.pure_callback"]
    assert not unit(index, "plain").traced and unit(index, "plain").reasons == []
    assert [u.qualname for u in index.units if u.traced] == ["step", "per_row", "body", "with_callback"]


def test_flax_module_methods_are_traced():
    index = index_of("""
        import flax.linen as nn

        class Block(nn.Module):
            def __call__(self, x, train: bool, scale=1.0):
                return x

            def setup(self):
                pass
    """)
    method = unit(index, "Block.__call__")
    # model.apply calls it under jit with arrays: the plain positional parameters
    # are tracers; an annotated flag and a defaulted parameter are configuration
    assert method.reasons == ["a method of the module class Block"]
    assert method.traced_params == {"x"}
    assert unit(index, "Block.setup").reasons == []


# --------------------------------------------------------------------------- pass 1: traced / static params
@pytest.mark.parametrize(
    "decorator, traced, static",
    [
        ("@jax.jit", {"x", "n", "flag"}, set()),
        ("@partial(jax.jit, static_argnums=1)", {"x", "flag"}, {"n"}),
        ("@partial(jax.jit, static_argnums=(-1,))", {"x", "n"}, {"flag"}),
        ("@partial(jax.jit, static_argnums=(0, -2))", {"flag"}, {"x", "n"}),
        ("@partial(jax.jit, static_argnames='flag')", {"x", "n"}, {"flag"}),
        ("@partial(jax.jit, static_argnames=('n', 'flag'))", {"x"}, {"n", "flag"}),
        ("@jax.jit(static_argnames='n')", {"x", "flag"}, {"n"}),
    ],
)
def test_static_params_of_a_decorated_function(decorator, traced, static):
    index = index_of(f"""
        from functools import partial
        import jax

        {decorator}
        def f(x, n, flag):
            return x
    """)
    f = unit(index, "f")
    assert (f.traced_params, f.static_params) == (traced, static)


def test_a_defaulted_parameter_is_traced_only_when_a_caller_passes_it():
    answers = probe("""
        import jax

        @jax.jit
        def f(x, flag=False):
            probe(flag)
            return x

        @jax.jit
        def g(x, flag=False):
            probe(flag)
            return x

        y = g(1.0, True)
    """)
    assert [(a.unit, a.traced) for a in answers] == [("f", False), ("g", True)]


def test_static_argnums_count_after_partial_bound_arguments():
    index = index_of("""
        from functools import partial
        import jax

        def h(scale, x, mode):
            return x * scale

        hj = jax.jit(partial(h, 2.0), static_argnums=1)
    """)
    h = unit(index, "h")
    # static_argnums=1 is the second argument jit sees: `mode` (`scale` is bound)
    assert h.static_params == {"mode"}
    assert h.traced_params == {"x"}


def test_differentiated_outside_jit_marks_the_arguments_it_differentiates():
    """jax.grad & co. call the function at once with tracers of concrete values, for
    the arguments ``argnums`` names (jvp/vjp/linearize: every primal); under jit the
    function is traced as before (model/gradtrace.py)."""
    index = index_of("""
        import jax
        from jax import grad as g

        def f(x, data):
            return x
        def f2(w, b, data):
            return w
        def f3(a, b):
            return a
        def f4(p, q, scale=1.0):
            return p
        def f5(u):
            return u
        def f6(z, n):
            return z
        def inner(v):
            return v
        def plain(v):
            return v

        g(f)(1.0, None)
        jax.value_and_grad(f2, argnums=(0, 2))(1.0, 2.0, 3.0)
        jax.jacrev(f3, 1)(1.0, 2.0)
        jax.grad(plain, argnums=ARGNUMS)(1.0)
        jax.vjp(f4, 1.0, 2.0)
        jax.jvp(f5, (1.0,), (1.0,))
        jitted = jax.jit(jax.grad(f6))

        @jax.jit
        def step(x):
            return jax.grad(inner)(x)
    """)
    got = {u.qualname: (sorted(u.grad_params), u.grad_reasons, u.concrete_traced)
           for u in index.units if u.grad_reasons}
    assert got == {
        "f": (["x"], ["differentiated by jax.grad"], True),
        "f2": (["data", "w"], ["differentiated by jax.value_and_grad"], True),
        "f3": (["b"], ["differentiated by jax.jacrev"], True),
        "f4": (["p", "q"], ["differentiated by jax.vjp"], True),
        "f5": (["u"], ["differentiated by jax.jvp"], True),
        # jit around grad: f6's arguments are abstract tracers (traced, not concrete)
        "f6": (["z"], ["differentiated by jax.grad"], False),
        "inner": (["v"], ["differentiated by jax.grad"], True),  # step's walk traces it (below)
    }
    assert unit(index, "f6").traced and unit(index, "f6").traced_params == {"z", "n"}
    assert not unit(index, "plain").grad_reasons  # argnums not a literal: unknown


def test_tracers_of_concrete_values_in_a_differentiated_function():
    """Differentiated outside jit: the differentiated arguments and what JAX computes
    from them are tracers (``is_tracer``) but not abstract ones (``is_traced``); the
    other arguments and jnp results of concrete data are plain values; a helper
    given the tracers runs with them; under jit (grad inside a jitted function) the
    same function's tracers are abstract."""
    answers = probe("""
        import jax
        import jax.numpy as jnp

        def helper(v, k):
            probe(v)
            probe(k)
            return v

        def loss(w, x):
            probe(w)
            y = jnp.sum(w * x)
            probe(y)
            probe(jnp.ones(3))
            probe(x)
            probe(w.shape)
            return helper(y, 2)

        jax.grad(loss)(jnp.ones(3), jnp.ones(3))

        def inner(v):
            probe(v)
            return v

        @jax.jit
        def step(x):
            return jax.grad(inner)(x)
    """)
    w, y, ones, x, shape = (at(answers, n) for n in (11, 13, 14, 15, 16))
    assert (w.tracer, w.traced, w.in_tracing, w.in_traced, w.concrete) == (True, False, True, False, True)
    assert (y.tracer, y.traced, y.kind) == (True, False, V.ARRAY)
    assert [a.tracer for a in (ones, x, shape)] == [False, False, False]
    v, k = at(answers, 6), at(answers, 7)
    assert (v.unit, v.tracer, v.traced, v.concrete, k.tracer) == ("helper", True, False, True, False)
    under_jit = at(answers, 22)
    assert (under_jit.tracer, under_jit.traced, under_jit.in_traced, under_jit.concrete) == (True, True, True, False)


# --------------------------------------------------------------------------- pass 2: values at a point
def test_traced_values_kind_and_deps_at_a_point():
    answers = probe("""
        import jax
        import jax.numpy as jnp

        @jax.jit
        def f(x, n):
            y = 1.0
            probe(y)
            if n > 0:
                y = jnp.sin(x) * 2
            probe(y)
            probe(x.shape)
            probe(len(x))
            return y

        def plain(x):
            probe(jnp.ones(3))
            return x
    """)
    before, joined = at(answers, 8), at(answers, 11)
    assert (before.traced, before.kind) == (False, V.STATIC)
    # after the branch: a tracer on one path is a tracer (the join keeps its deps;
    # the kinds differ, so the kind is unknown)
    assert (joined.traced, joined.kind, joined.deps) == (True, V.UNKNOWN, frozenset({"<jax>", "x"}))
    assert joined.in_traced and joined.unit == "f" and joined.reasons == ("decorated with @jax.jit",)
    # shapes and lengths of tracers are Python values
    assert [(a.traced, a.kind) for a in (at(answers, 12), at(answers, 13))] == [(False, V.STATIC)] * 2
    # a jnp result outside traced code is a concrete array
    outside = at(answers, 17)
    assert (outside.in_traced, outside.traced, outside.kind) == (False, False, V.ARRAY)


def test_static_and_partial_bound_params_are_python_values_in_the_walk():
    answers = probe("""
        from functools import partial
        import jax

        @partial(jax.jit, static_argnums=(-1,))
        def g(x, flag):
            probe(flag)
            probe(x)
            return x

        def h(scale, x, mode):
            probe(scale)
            probe(mode)
            return x

        hj = jax.jit(partial(h, 2.0), static_argnums=1)
    """)
    assert [(a.expr, a.traced) for a in answers] == [
        ("flag", False), ("x", True), ("scale", False), ("mode", False)
    ]
    assert at(answers, 8).deps == frozenset({"x"})


def test_helper_called_from_traced_code_is_traced_in_the_walk():
    answers = probe("""
        from jax import lax

        def body(i, carry):
            return helper(carry)

        def helper(c):
            probe(c)
            return c + 1

        out = lax.fori_loop(0, 3, body, 0.0)
    """)
    (c,) = answers
    assert (c.unit, c.in_traced, c.traced, c.deps) == ("helper", True, True, frozenset({"c"}))
    assert c.reasons == ("called from traced `body`",)


# --------------------------------------------------------------------------- PRNG key identities
def test_key_identity_through_a_branch_and_an_alias():
    answers = probe("""
        from jax import random as jr

        def f(seed, flag):
            key = jr.key(seed)
            consume(key)
            if flag:
                key, sub = jr.split(key)
                consume(sub)
            consume(key)
            other = key
            consume(other)
    """)
    first, sub, after_branch, alias = answers
    assert [a.kind for a in answers] == [V.KEY] * 4
    assert first.consumed_before is None and sub.consumed_before is None
    assert sub.key is not first.key
    # split on one path only: after the join `key` is a new identity, so consuming
    # it is not reported as a reuse of line 6
    assert after_branch.key is not first.key and after_branch.consumed_before is None
    # an alias is the same key: consuming it again is a reuse of line 10
    assert alias.key is after_branch.key and alias.consumed_before == 10


def test_key_identity_in_loops():
    answers = probe("""
        import jax

        def f(key, n):
            for i in range(n):
                consume(key)
            for i in range(n):
                key, sub = jax.random.split(key)
                consume(sub)
    """)
    outer, fresh = answers
    # made outside the loop (depth 0) and consumed inside it (one loop): every
    # iteration gets the same key -- what JAX301 reports
    assert (outer.loops, outer.key.loop_depth) == (1, 0)
    # split inside the loop: a fresh key per iteration
    assert (fresh.loops, fresh.key.loop_depth) == (1, 1)
    assert fresh.key is not outer.key


# --------------------------------------------------------------------------- qualified names
def test_qualname_through_aliases_and_shadowing():
    answers = probe("""
        import jax.numpy as np
        from jax import random as jr
        from jax.numpy import linalg as la
        import jax.numpy as jnp

        def f(jnp):
            probe(np.sin)
            probe(jr.split)
            probe(la.norm)
            probe(jnp.zeros)
    """)
    assert [(a.expr, a.qualname) for a in answers] == [
        ("np.sin", "jax.numpy.sin"),
        ("jr.split", "jax.random.split"),
        ("la.norm", "jax.numpy.linalg.norm"),
        ("jnp.zeros", None),  # the parameter `jnp` shadows the import
    ]
