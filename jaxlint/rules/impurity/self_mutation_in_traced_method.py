"""JAX403 self-mutation-in-traced-method: `self.attr = ...` / `self.n += 1` in a traced method runs once per trace, not per call."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import values as V
from jaxlint.model import nnx_state
from jaxlint.model.nnx_state import hijax_mode, nnx_mutations
from jaxlint.model.program_order import attribute_writes
from jaxlint.model.unpacking import unpacked
from jaxlint.model.walk import dotted_name, walk_tree
from jaxlint.rules.impurity._common import assign_pairs


_INIT_METHODS = frozenset({"__init__", "__post_init__", "__new__", "__setattr__", "setup", "__setstate__"})


# methods that store their argument in the container (list, dict, set, deque)
_MUTATORS = frozenset({"append", "extend", "insert", "update", "setdefault", "add", "appendleft", "extendleft"})


def _names_jit(ctx, e: cst.BaseExpression, qualname: str) -> bool:
    """``jax.jit`` / ``jax.jit(...)`` / ``partial(jax.jit, ...)`` as written in a decorator."""
    if type(e) is cst.Call:
        q = ctx.qualname(e.func)
        if q in ("functools.partial", "partial") and e.args:
            return ctx.qualname(e.args[0].value) == qualname
        return q == qualname
    return ctx.qualname(e) == qualname


def _holds_tracer(ctx, e: cst.CSTNode) -> bool:
    """A list/tuple/set display with a tracer among its elements (``[loss]``)."""
    return isinstance(e, (cst.List, cst.Tuple, cst.Set)) and any(
        isinstance(el, cst.Element) and ctx.is_tracer(el.value) for el in e.elements)


# outside jit, stop_gradient / device_get of a differentiation's tracer is a concrete
# array; float()/int()/.item() of one raise ConcretizationTypeError (JAX202), storing nothing
_CONCRETE_MAKERS = frozenset({"jax.lax.stop_gradient", "jax.device_get", "float", "int", "bool", "complex"})
_CONCRETE_METHODS = frozenset({"item", "tolist"})


def _stores_grad_tracer(ctx, e: cst.CSTNode) -> bool:
    """Outside jit, in a differentiated method: does storing ``e`` keep the
    differentiation's tracer?  ``jax.lax.stop_gradient(l)`` and ``jax.device_get(l)``
    are concrete arrays there; ``float(l)`` / ``l.item()`` raise before storing."""
    if isinstance(e, (cst.List, cst.Tuple, cst.Set)):
        return any(isinstance(el, cst.Element) and _stores_grad_tracer(ctx, el.value) for el in e.elements)
    if isinstance(e, cst.Call):
        func = e.func
        q = ctx.qualname(func) or (func.value if isinstance(func, cst.Name) else None)
        if q in _CONCRETE_MAKERS or isinstance(func, cst.Attribute) and func.attr.value in _CONCRETE_METHODS:
            return False
    return ctx.is_tracer(e)


_CONTAINER_DISPLAYS = (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)
_CONTAINER_MAKERS = frozenset({"list", "dict", "set", "collections.deque", "collections.defaultdict",
                               "collections.OrderedDict"})


def _holds_container(unit, attr: str, qualname) -> bool:
    """Does the class of method ``unit`` set ``self.attr`` only to a list, dict, set or
    deque (a display, a comprehension, ``list()``, ``collections.deque(...)``), and at
    least once?  (``attr`` may be a chain: ``_logger.metrics``.)"""
    return _class_holds_container(unit.cls, attr, qualname)


def _class_holds_container(cls, attr: str, qualname) -> bool:
    if cls is None:
        return False
    found = False
    for m in cls.methods.values():
        for w in attribute_writes(m.node, f"self.{attr}"):
            if isinstance(w, cst.AugAssign):
                continue  # `self.items += [x]` keeps the container
            value = getattr(w, "value", None)
            if isinstance(value, _CONTAINER_DISPLAYS):
                found = True
                continue
            if isinstance(value, cst.Call):
                q = qualname(value.func) or (value.func.value if isinstance(value.func, cst.Name) else None)
                if q in _CONTAINER_MAKERS:
                    found = True
                    continue
            return False
    return found


def _reads_attr(e: cst.CSTNode, me: str, attr: str) -> bool:
    return any(isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name) and n.value.value == me
               and n.attr.value == attr
               for n in walk_tree(e, lambda n: isinstance(n, (cst.Lambda, cst.FunctionDef))))


_CASTS = frozenset({"typing.cast", "typing_extensions.cast"})
_ASSERT_TYPES = frozenset({"typing.assert_type", "typing_extensions.assert_type"})
# conversions that give back an equal value when applied to their own result
_IDEMPOTENT = frozenset({"tuple", "list", "dict", "set", "frozenset", "str", "int", "bool"})
_COPIES = frozenset({"copy.copy", "copy.deepcopy"})


def _same_value(ctx, e: cst.CSTNode, me: str, attr: str) -> bool:
    """Is ``e`` the attribute ``me.attr`` itself, seen through a typing cast, a copy, a
    conversion to its own type or a default (``cast(T, self.cfg)``, ``tuple(self.sizes)``,
    ``self.names or []``)?  Assigning it back is a no-op, or the same value each time: a
    compiled call that does not repeat it loses nothing."""
    while True:
        if isinstance(e, cst.Attribute):
            return isinstance(e.value, cst.Name) and e.value.value == me and e.attr.value == attr
        if isinstance(e, cst.Call):
            args = e.args
            if any(a.star or a.keyword is not None for a in args):
                return False
            q = ctx.qualname(e.func)
            if q in _CASTS and len(args) == 2:
                e = args[1].value
            elif (q in _ASSERT_TYPES and len(args) == 2) or (q in _COPIES and len(args) == 1):
                e = args[0].value
            elif (isinstance(e.func, cst.Name) and e.func.value in _IDEMPOTENT and len(args) == 1
                  and not ctx.shadowed(e.func.value)):
                e = args[0].value
            else:
                return False
        elif (isinstance(e, cst.BooleanOperation) and isinstance(e.operator, cst.Or)
              and not _reads_attr(e.right, me, attr)):
            e = e.left  # `self.names or []`: the default once, then the value itself
        else:
            return False


# builtins whose result the model sees computed from their arguments (a value they are
# given shows through them: `tuple(self.widths) + (n,)`, `len(self.items) + 1`)
_SEEN_BUILTINS = frozenset({"tuple", "list", "dict", "set", "frozenset", "str", "int", "float", "bool", "complex",
                            "len", "sum", "max", "min", "abs", "round", "sorted", "reversed", "zip", "map",
                            "filter", "enumerate", "range", "divmod", "pow"})
# libraries whose functions compute a value from their arguments (an array op, arithmetic)
_SEEN_LIBRARIES = ("jax.", "numpy.", "math.", "operator.", "typing.", "typing_extensions.", "copy.")


_STATE_KINDS = frozenset({V.ARRAY, V.ARRAYS, V.KEY, V.KEYS, V.NPARRAY})


def _update_shown(ctx, e: cst.CSTNode, me: str, attr: str) -> bool:
    """Does ``e`` compute its value from ``me.attr`` where the model can see how: by an
    operator, in a display, through a builtin or a JAX/NumPy function (``self.total + x``,
    ``tuple(self.widths) + (n,)``, ``jnp.append(self.buf, x)``, ``self.items.copy()``)?  Not
    when ``me.attr`` is only handed to a function of the project (or a method) with no
    traced argument (``_resolve_kernel_size(self.kernel_size, x.shape)``, static config
    normalised against a static shape): what that function returns, and whether a second
    call would change it again, is unknown, and unknown never reports."""
    if isinstance(e, cst.Attribute) and isinstance(e.value, cst.Name) and e.value.value == me \
            and e.attr.value == attr:
        return True
    if isinstance(e, (cst.Lambda, cst.FunctionDef, cst.ClassDef)):
        return False
    if isinstance(e, cst.Call):
        func = e.func
        q = ctx.qualname(func)
        seen = (q is not None and q.startswith(_SEEN_LIBRARIES)) or (
            isinstance(func, cst.Name) and func.value in _SEEN_BUILTINS and not ctx.shadowed(func.value))
        if not seen and not _reads_attr(func, me, attr) and not any(ctx.is_traced(a.value) for a in e.args) \
                and ctx.value(e).kind not in _STATE_KINDS and not _returns_jax(ctx, func):
            # a function of the project, or a method of another object (not one of the
            # attribute itself, `self.items.copy()`), given no traced value, whose result the
            # model does not know to be an array or a key (`self.key = advance(self.key)`,
            # `def advance(k): return jax.random.split(k)[0]`: state the call moves on)
            return False
        return any(_update_shown(ctx, c, me, attr) for c in (func, *(a.value for a in e.args)))
    return any(_update_shown(ctx, c, me, attr) for c in _children(e))


def _returns_jax(ctx, func: cst.BaseExpression) -> bool:
    """Is ``func`` a function of this file (or a method called through ``self``) one of
    whose ``return`` values is computed by a JAX function (``return jax.random.split(k)[0]``,
    ``return jnp.roll(buf, 1)``)?  Its result is an array, state the call moves on."""
    unit = None
    if isinstance(func, cst.Name):
        v = ctx.lookup(func.value)
        unit = v.unit if v is not None and v.unit is not None else ctx.unit.lookup_def(func.value)
    elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
        u = ctx.unit
        while u is not None and u.cls is None and u.parent is not None and not u.parent.is_module:
            u = u.parent
        cls = u.cls if u is not None else None
        unit = cls.methods.get(func.attr.value) if cls is not None else None
    if unit is None or not isinstance(unit.node, cst.FunctionDef):
        return False
    return any(isinstance(n, cst.Call) and (ctx.qualname(n.func) or "").startswith("jax.")
               for r in unit.returns if r is not None for n in walk_tree(r))


def _children(e: cst.CSTNode):
    return [c for c in e.children if isinstance(c, cst.CSTNode)]


def _flag_tested(fn: cst.CSTNode, me: str, attr: str) -> bool:
    """Does the method test ``me.attr`` (in an ``if``/``while``/``assert`` or a
    conditional expression) in its own body?"""
    for n in walk_tree(fn, lambda n: isinstance(n, (cst.Lambda, cst.ClassDef)) or (
            isinstance(n, cst.FunctionDef) and n is not fn)):
        test = getattr(n, "test", None) if isinstance(n, (cst.If, cst.While, cst.Assert, cst.IfExp)) else None
        if test is not None and _reads_attr(test, me, attr):
            return True
    return False


class SelfMutationInTraced(Rule):
    code = "JAX403"
    name = "self-mutation-in-traced-method"
    runtime_check = "two jitted calls compared: the object's attribute changes on the first call only."
    summary = "`self.attr = ...` / `self.n += 1` in a traced method runs once per trace, not per call"
    severity = Severity.ERROR
    seed = "tutorial § jit and stateful classes (seed 002); The Sharp Bits § Pure functions (seed 000)"
    what_it_does = (
        "Flags augmented assignments to `self.<attr>` (`self.n += 1`) and assignments of traced "
        "values (also one target of an unpacking: `_, self.key = jax.random.split(self.key)`), "
        "of an update of the same attribute (`self.total = self.total + x`, a swap `self.a, self.b = "
        "self.b, self.a`; not one that "
        "only hands the attribute to a function of the project or a method given no traced value, "
        "`self.size = resolve(self.size, x.shape)`: what it returns is unknown, unless it is a "
        "function of the file whose `return` is computed by JAX, `self.key = advance(self.key)` "
        "with `return jax.random.split(key)[0]`), or of a "
        "flag the method also tests (`assert not self.traced` ... `self.traced = True`, `if not "
        "self.warm: ... self.warm = True`; a literal: a function built once and cached after "
        "`if self._fn is None:` is a memo, not flagged) inside "
        "a method that JAX traces (`jax.jit(obj.method)`, also a method `obj`'s class "
        "inherits from a base of the file, `jax.jit(obj)` of an instance of a plain class of "
        "the file, whose `__call__` runs, `@partial(jax.jit, "
        "static_argnums=0)`, helpers called from such methods), and calls that keep a traced "
        "value in a container held by the object (`self.history.append(loss)`, `.extend`, "
        "`.update`...). In a method differentiated outside jit (`jax.grad(self.loss)(w, x)`, "
        "`value_and_grad`...), whose body runs again at each call, only storing a tracer is "
        "flagged (`self.losses += [loss]`, `self.last = loss`, `self.history.append(loss)`; "
        "not `jax.lax.stop_gradient(loss)`, a concrete array there). "
        "Writes into what the object holds count the same (`self.stats[\"n\"] += 1`, "
        "`self._logger.metrics[\"loss\"] = loss`, `self.counts.calls = self.counts.calls + 1`), "
        "also from a function defined in the method (a `lax.scan` body), where the model shows "
        "that state is plain Python: a list, dict, set or deque the class (or the plain class of "
        "an object it stores in `__init__`) assigns that attribute, or an attribute of such an "
        "object; storing a Python value there (`self.cache[\"shape\"] = x.shape`) is not flagged, "
        "nor is a write into anything else (`self.mean[...] = v` of an nnx Variable or a Ref, "
        "an item of an array attribute: JAX101). "
        "A function jitted with plain `jax.jit` (`@jax.jit`, `jax.jit(step)`) that changes the "
        "flax NNX objects it is given is flagged at the jit: `optimizer.update(model, grads)`, "
        "`nnx.update(model, state)`, `model.count.value += 1` on a parameter the function hands "
        "to an NNX function (`nnx.value_and_grad(loss)(model, x)`, `nnx.state`) or annotates "
        "with an NNX class; `jax.jit` drops those changes, `nnx.jit` keeps them. So does a "
        "draw from an RNG stream an NNX object holds: a parameter that every call of the file "
        "fills with an `nnx.Dropout(..., rngs=...)` (not `deterministic=True`), an instance of an "
        "`nnx.Module` class of the file whose `__init__` builds one, or an `nnx.Rngs`, called "
        "(`model(x)`) or drawn from (`rngs.noise()`) in the jitted function: the stream's count "
        "advanced in the trace is lost, so every call draws the same mask (flax 0.12.8); not when "
        "the file switches the object to eval mode (`.eval()`, `.set_attributes(...)`) or the "
        "function returns it. "
        "Constructors and flax/equinox/haiku modules (frozen, or with their own state "
        "handling) are not flagged, nor a method of a pytree class that a transformation "
        "is given `self` as an argument (`@jax.jit` on the method, `self` not static) and "
        "that returns it (`return self`, `return loss, self`): the trace updates its own "
        "copy and hands the new state back."
    )
    why_bad = (
        "The method body runs once, while it is traced; the compiled function does not contain "
        "the attribute update. A counter advances once and then never again: a jitted "
        "`count()` that does `self.n += 1; return self.n` returns `0, 0, 0` where the Python "
        "version returns `0, 2, 4`, and `counter.n` stays at 1. Storing a traced value in "
        "`self` leaks the tracer: reading it later raises `jax.errors.UnexpectedTracerError`."
    )
    use_instead = "Keep the state outside and pass it through:\n\n```python\n@jax.jit\ndef count(n):\n    n = n + 1\n    return n, n\n```"
    fix_safety = "No automatic fix: the state has to become an argument and an output."
    VALID = [
        # a pytree `self` passed to jit (not static) and returned: the trace updates its own
        # copy, and the caller rebinds the result (`counter = counter.add(2.0)`; treex examples)
        Valid(
            """
            import jax
            import jax.numpy as jnp


            @jax.tree_util.register_pytree_node_class
            class Counter:
                def __init__(self, count):
                    self.count = count

                def tree_flatten(self):
                    return (self.count,), None

                @classmethod
                def tree_unflatten(cls, aux, children):
                    return cls(*children)

                @jax.jit
                def add(self, x):
                    self.count = self.count + x
                    return self


            counter = Counter(jnp.zeros(()))
            counter = counter.add(2.0)
            """,
        ),
        # an object the trace builds itself (`game = Game(x)` in the jitted function): its attributes
        # are the trace's own locals, nothing outlives it (evojax's slime volley `Game`)
        Valid(
            """
            import jax
            import jax.numpy as jnp


            class Game:
                def __init__(self, a):
                    self.a = a
                    self.flag = jnp.int32(0)

                def set_action(self, action):
                    self.flag = jnp.int32(1)
                    self.a = action

                def total(self):
                    return self.a + self.flag


            @jax.jit
            def update(x):
                game = Game(x)
                game.set_action(x * 2)
                return game.total()
            """,
        ),
        # a jitted helper built once and cached on the object after `if ... is None` (a
        # memo, not a flag): each trace reuses the compiled function
        Valid(
            """
            import functools

            import jax
            import jax.numpy as jnp


            class Engine:
                def __init__(self):
                    self._init_fn = None
                    self._double = None

                @functools.partial(jax.jit, static_argnums=0)
                def init_state(self, x):
                    if self._init_fn is None:

                        @jax.jit
                        def initialize():
                            return jnp.zeros(3)

                        self._init_fn = initialize
                    return self._init_fn() + x

                @functools.partial(jax.jit, static_argnums=0)
                def step(self, x):
                    if not self._double:
                        self._double = jax.jit(lambda v: v * 2)
                    return self._double(x)
            """
        ),
        Valid(
            """
            import jax

            class Model:
                def __init__(self, w):
                    self.w = w
                    self.calls = 0

                def apply(self, x):
                    return x @ self.w

            f = jax.jit(Model(1.0).apply)
            """
        ),
        # flax modules handle their own state
        Valid(
            """
            import flax.linen as nn
            import jax

            class Block(nn.Module):
                def setup(self):
                    self.dense = nn.Dense(3)

                def __call__(self, x: jax.Array):
                    return self.dense(x)
            """
        ),
        # not traced
        Valid(
            """
            class Counter:
                def __init__(self):
                    self.n = 0

                def count(self):
                    self.n += 1
                    return self.n
            """
        ),
        # differentiated outside jit, the body runs at each call: a counter and the shapes
        # are Python values; the loss is stored outside, from value_and_grad
        Valid(
            """
            import jax
            import jax.numpy as jnp


            class Fourier:
                def __init__(self):
                    self.losses = []
                    self.shapes = []
                    self.calls = 0

                def predict(self, w, x):
                    return jnp.cos(jnp.outer(x, w))

                def loss(self, w, x, y):
                    self.calls += 1
                    self.shapes.append(x.shape)
                    return jnp.sum((self.predict(w, x)[:, 0] - y) ** 2)

                def update(self, w, x, y):
                    l, g = jax.value_and_grad(self.loss)(w, x, y)
                    self.losses += [l]
                    return w - 0.1 * g


            m = Fourier()
            m.update(jnp.ones(3), jnp.linspace(0.0, 1.0, 3), jnp.zeros(3))
            """
        ),
        # a method of an object held on `self` (an optimizer's `update` returns new state)
        # is no container; a container given static values (shapes)
        Valid(
            """
            import jax
            import optax


            class Trainer:
                def __init__(self):
                    self.optimizer = optax.adam(1e-3)
                    self.shapes = []

                def step(self, params, state, grads):
                    updates, state = self.optimizer.update(grads, state)
                    self.shapes.append(params.shape)
                    return optax.apply_updates(params, updates), state


            trainer = Trainer()
            fast = jax.jit(trainer.step)
            """
        ),
        # differentiated outside jit: `jax.lax.stop_gradient(loss)` (and `jax.device_get` of it) is a
        # concrete array there, stored by `=`, `.append`, `+= [...]`, `.extend`
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from jax.lax import stop_gradient


            class Trainer:
                def __init__(self):
                    self.last = None
                    self.history = []
                    self.values = []

                def loss(self, p, x):
                    l = jnp.sum((p * x) ** 2)
                    self.last = jax.lax.stop_gradient(l)
                    self.history.append(jax.lax.stop_gradient(l))
                    return l

                def objective(self, p, x):
                    v = jnp.sum(jnp.tanh(p * x))
                    self.values += [stop_gradient(v)]
                    self.history.extend([jax.device_get(stop_gradient(v))])
                    return v

                def step(self, p, x):
                    g = jax.grad(self.loss)(p, x)
                    g2 = jax.grad(self.objective)(p, x)
                    return p - 0.1 * (g + g2)


            t = Trainer()
            p = t.step(jnp.ones(3), jnp.ones(3))
            """
        ),
        # a flag set and never tested in the traced method; tested and set in an eager method
        Valid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp


            class Cache:
                def __init__(self):
                    self.warm = False
                    self.built = False

                def __hash__(self):
                    return 0

                @partial(jax.jit, static_argnums=0)
                def step(self, x):
                    self.built = True  # set, never tested
                    return jnp.sin(x)

                def warm_up(self, x):
                    # eager: runs on every call
                    if not self.warm:
                        self.warm = True
                    return self.step(x)
            """
        ),
        # assigning an attribute its own value back, through a typing cast, a conversion to
        # its own type or a default: a no-op after the first time, nothing to repeat
        Valid(
            """
            import typing
            import jax
            import jax.numpy as jnp


            class Encoder:
                def __init__(self, cfg, widths):
                    self.cfg = cfg
                    self.widths = widths
                    self.names = None

                def encode(self, x):
                    self.cfg = typing.cast(dict, self.cfg)
                    self.widths = tuple(self.widths)
                    self.names = self.names or ["out"]
                    return x * self.cfg["scale"] + len(self.widths)


            enc = Encoder({"scale": 2.0}, [3, 4])
            jax.jit(enc.encode)(jnp.ones(3))
            """
        ),
        # `nnx.jit` carries the changes to the NNX objects out of the trace
        Valid(
            """
            from flax import nnx


            def loss_fn(model, x):
                return (model(x) ** 2).mean()


            @nnx.jit
            def train_step(model, optimizer, x):
                loss, grads = nnx.value_and_grad(loss_fn)(model, x)
                optimizer.update(model, grads)
                return loss
            """
        ),
    ]


    INVALID = [
        # a flag the traced method tests and sets (an assert, an if): checked and set once, at trace time
        Invalid(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp


            class Foo:
                def __init__(self):
                    self.f_traced = False

                def f(self):
                    assert not self.f_traced
                    self.f_traced = True


            class Cache:
                def __init__(self):
                    self.warm = False

                def __hash__(self):
                    return 0

                @partial(jax.jit, static_argnums=0)
                def step(self, x):
                    if not self.warm:
                        x = x + 1.0
                        self.warm = True
                    return jnp.sin(x)


            foo = Foo()
            jax.jit(foo.f).lower()
            """,
            expected=[(13, 9), (27, 13)],
            messages=[
                '`self.f_traced` is assigned inside traced method `f`: the method tests `self.f_traced` and sets it, and both run once, at trace time: compiled calls never repeat them, and each new trace sees what the last one left. Pass the state in as an argument and return the new state',
                '`self.warm` is assigned inside traced method `step`: the method tests `self.warm` and sets it, and both run once, at trace time: compiled calls never repeat them, and each new trace sees what the last one left. Pass the state in as an argument and return the new state',
            ],
        ),
        Invalid(
            """
            import jax

            class Counter:
                def __init__(self):
                    self.n = 0

                def count(self):
                    self.n += 1
                    return self.n

            counter = Counter()
            fast_count = jax.jit(counter.count)
            """,
            expected=[(8, 9)],
            messages=[
                "`self.n` is assigned inside traced method `count`: the update runs once, at trace time: compiled calls never repeat it. Pass the state in as an argument and return the new state",
            ],
        ),
        Invalid(
            """
            from functools import partial
            import jax

            class Acc:
                def __init__(self):
                    self.total = 0.0

                @partial(jax.jit, static_argnums=0)
                def add(self, x):
                    self.total = self.total + x
                    return self.total
            """,
            expected=[(10, 9)],
            messages=[
                "`self.total` is assigned inside traced method `add`: it stores a tracer in the object (UnexpectedTracerError when read later), and compiled calls never repeat it. Pass the state in as an argument and return the new state",
            ],
        ),
        # a method differentiated outside jit (jax.grad / value_and_grad of `self.loss`):
        # the loss, computed through another method, collected on `self` by `+=` and by
        # `.append`: the list keeps the differentiation's tracers (jax#2332)
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            class Fourier:
                def __init__(self):
                    self.losses = []
                    self.history = []

                def predict(self, w, x):
                    return jnp.cos(jnp.outer(x, w))

                def loss(self, w, x, y):
                    l = jnp.sum((self.predict(w, x)[:, 0] - y) ** 2)
                    self.losses += [l]
                    return l

                def objective(self, w, x):
                    value = jnp.sum(jnp.tanh(w * x))
                    self.history.append(value)
                    return value

                def update(self, w, x, y):
                    g = jax.grad(self.loss)(w, x, y)
                    v, g2 = jax.value_and_grad(self.objective)(w, x)
                    return w - 0.1 * (g + g2)


            m = Fourier()
            m.update(jnp.ones(3), jnp.linspace(0.0, 1.0, 3), jnp.zeros(3))
            """,
            expected=[(15, 9), (20, 9)],
            messages=[
                "`self.losses` is assigned inside differentiated method `loss`: it stores the differentiation's tracer in the object, not a number (UnexpectedTracerError when it is used after the call). Return the value (`jax.value_and_grad` gives the loss) and store it outside",
                "`self.history.append(...)` keeps a tracer inside differentiated method `objective`: it stores the differentiation's tracer in the object, not a number (UnexpectedTracerError when it is used after the call). Return the value (`jax.value_and_grad` gives the loss) and store it outside",
            ],
        ),
        # a jitted method keeping tracers in a list on `self`
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            class Recorder:
                def __init__(self):
                    self.trace = []

                def step(self, x):
                    y = jnp.tanh(x)
                    self.trace.extend([y, x])
                    return y


            rec = Recorder()
            fast = jax.jit(rec.step)
            fast(jnp.ones(2))
            """,
            expected=[(11, 9)],
            messages=[
                "`self.trace.extend(...)` keeps a tracer inside traced method `step`: it stores a tracer in the object (UnexpectedTracerError when read later), and compiled calls never repeat it. Return the value and store it outside",
            ],
        ),
        # writes into a container or object the instance holds: a counter in a logger's dict
        # bumped once per trace, a loss stored as a tracer (pax's agent update under scan)
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            class Logger:
                def __init__(self):
                    self.metrics = {"sgd_steps": 0, "loss": 0.0}


            class Agent:
                def __init__(self):
                    self._logger = Logger()

                def update(self, x):
                    loss = jnp.sum(x ** 2)
                    self._logger.metrics["sgd_steps"] += 1
                    self._logger.metrics["loss"] = loss
                    self._logger.metrics["shape"] = x.shape
                    return x - 0.1 * loss


            agent = Agent()
            update = jax.jit(agent.update)
            """,
            expected=[(16, 9), (17, 9)],
            messages=[
                '`self._logger.metrics["sgd_steps"]` is assigned inside traced method `update`: it is held by `self`, which outlives the trace; the update runs once, at trace time: compiled calls never repeat it. Return the value (or the new state) and store it outside',
                '`self._logger.metrics["loss"]` is assigned inside traced method `update`: it is held by `self`, which outlives the trace; it stores a tracer in the object (UnexpectedTracerError when read later), and compiled calls never repeat it. Return the value (or the new state) and store it outside',
            ],
        ),
        # a conversion or cast around an update still changes the value at each call
        Invalid(
            """
            from typing import cast
            import jax
            import jax.numpy as jnp


            class Layer:
                def __init__(self):
                    self.widths = (3,)
                    self.calls = 0

                def grow(self, x):
                    self.widths = tuple(self.widths) + (x.shape[0],)
                    self.calls = cast(int, self.calls + 1)
                    return x


            layer = Layer()
            jax.jit(layer.grow)(jnp.ones(3))
            """,
            expected=[(12, 9), (13, 9)],
            messages=[
                "`self.widths` is assigned inside traced method `grow`: the update runs once, at trace time: compiled calls never repeat it. Pass the state in as an argument and return the new state",
                "`self.calls` is assigned inside traced method `grow`: the update runs once, at trace time: compiled calls never repeat it. Pass the state in as an argument and return the new state",
            ],
        ),
        # plain `jax.jit` on a function that changes the flax NNX objects it is given
        Invalid(
            """
            import jax
            from flax import nnx


            def loss_fn(model, x):
                return (model(x) ** 2).mean()


            @jax.jit
            def train_step(model, optimizer, x):
                loss, grads = nnx.value_and_grad(loss_fn)(model, x)
                optimizer.update(model, grads)
                return loss
            """,
            expected=[(9, 1)],
            messages=[
                "`train_step` is jitted with `@jax.jit`, which does not carry changes to the flax NNX objects it is given out of the trace: `optimizer.update(model, grads)` (line 12) changes `optimizer` inside the trace only, and the object keeps its old state after the call. Use `nnx.jit` (or split the objects with `nnx.split` and return the new state)",
            ],
        ),
    ]

    def _method_self(self) -> Optional[str]:
        """``self`` in a method that runs with tracers: traced, or differentiated outside
        jit (``jax.grad(self.loss)(p, x)``: there only storing a tracer is reported,
        the body runs again at each call)."""
        unit = self.ctx.unit
        if not self.ctx.in_tracing:
            return None
        while unit.cls is None and unit.parent is not None and not unit.parent.is_module \
                and isinstance(unit.node, cst.FunctionDef) and "self" not in unit.assigned \
                and unit.param("self") is None:
            # a function defined in a method (a `lax.scan` body): its `self` is the method's
            unit = unit.parent
        if unit.cls is None or unit.cls.is_jax_module:
            return None
        if unit.name in _INIT_METHODS or not isinstance(unit.node, cst.FunctionDef):
            return None
        if unit.only_fresh_receivers():
            return None  # `g = Game(x); g.step(y)` in the trace: the object is the trace's own
        pos = unit.positional()
        if not pos or pos[0].name != "self":
            return None
        if self.ctx.in_traced and unit.self_sites == {"traced"} and _returns_self(unit) and all(
                r.startswith(("decorated with", "wrapped by")) for r in unit.reasons):
            # `self` is a traced pytree (`@jax.jit` on a method of a registered class):
            # the trace updates its own copy and hands it back (`return self`, `return
            # loss, self`): the new state is an output, as the callers rebind it
            return None
        return "self"

    def _check(self, node: cst.CSTNode) -> None:
        me = self._method_self()
        if me is None:
            return
        ctx = self.ctx
        if isinstance(node, cst.AugAssign):
            pairs = [(node.target, node.value, None)]
        else:
            pairs = []
            for target, value in assign_pairs(node):
                parts = unpacked(ctx, target, value)
                if not parts:
                    pairs.append((target, value, None))
                    continue
                # `_, self.key = jax.random.split(self.key)`: each target receives its
                # element (model/unpacking.py)
                for t, sub, traced in parts:
                    if traced or sub is not None or not ctx.is_traced(value):
                        # a tracer is stored; anything else is judged by the statement's
                        # value (`self.a, self.b = self.b, self.a` reads what it rebinds)
                        pairs.append((t, value, traced))
        for target, value, traced in pairs:
            if _held_part(target, me):
                self._check_held(node, target, value, me)
                continue
            if not (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == me):
                continue
            attr = target.attr.value
            if not ctx.in_traced:
                # differentiated outside jit: the body runs at each call; a tracer stored
                # (`self.last = loss`, `self.losses += [loss]`) outlives the differentiation
                if value is not None and traced is None and _stores_grad_tracer(ctx, value):
                    self._report_stored(target, f"`{me}.{attr}` is assigned")
                continue
            if isinstance(node, cst.AugAssign):
                why = "the update runs once, at trace time: compiled calls never repeat it"
            elif ctx.is_traced(value) if traced is None else traced:
                why = "it stores a tracer in the object (UnexpectedTracerError when read later), and compiled calls never repeat it"
            elif _same_value(ctx, value, me, attr):
                continue  # `self.cfg = cast(Config, self.cfg)`: a no-op, nothing to repeat
            elif _reads_attr(value, me, attr) and _update_shown(ctx, value, me, attr):
                why = "the update runs once, at trace time: compiled calls never repeat it"
            elif _flag_value(value) and _flag_tested(ctx.unit.node, me, attr):
                # `assert not self.traced` ... `self.traced = True`: a flag the method checks
                why = (f"the method tests `{me}.{attr}` and sets it, and both run once, at trace time: "
                       f"compiled calls never repeat them, and each new trace sees what the last one left")
            else:
                continue
            self.report(
                target,
                f"`{me}.{attr}` is assigned inside traced method `{ctx.unit.name}`: {why}. "
                "Pass the state in as an argument and return the new state",
            )

    def _check_held(self, node: cst.CSTNode, target: cst.CSTNode, value, me: str) -> None:
        """``self.metrics["steps"] += 1``, ``self._logger.metrics["loss"] = loss``,
        ``self.state.count = self.state.count + 1``: a write into an object or container
        the instance holds (it outlives the trace as ``self`` does), in a traced method."""
        ctx = self.ctx
        if not self._shown_python_state(target, me):
            return  # a Ref or a Variable (`self.mean[...] = v`, `self.count.value += 1`): written by design
        if not ctx.in_traced:
            if value is not None and not isinstance(node, cst.AugAssign) and _stores_grad_tracer(ctx, value):
                self._report_stored(target, f"`{ctx.code(target).strip()}` is assigned")
            return
        written = ctx.code(target).strip()
        if isinstance(node, cst.AugAssign):
            why = "the update runs once, at trace time: compiled calls never repeat it"
            if ctx.is_traced(value):
                why = ("it stores a tracer in the object (UnexpectedTracerError when read later), "
                       "and compiled calls never repeat it")
        elif value is not None and ctx.is_traced(value):
            why = "it stores a tracer in the object (UnexpectedTracerError when read later), and compiled calls never repeat it"
        elif value is not None and any(ctx.code(n).strip() == written for n in walk_tree(value)
                                       if isinstance(n, (cst.Subscript, cst.Attribute))):
            why = "the update runs once, at trace time: compiled calls never repeat it"
        else:
            return
        self.report(
            target,
            f"`{written}` is assigned inside traced method `{ctx.unit.name}`: it is held by `{me}`, "
            f"which outlives the trace; {why}. Return the value (or the new state) and store it outside",
        )

    def _shown_python_state(self, target: cst.CSTNode, me: str) -> bool:
        """Is what ``target`` writes into shown to be plain Python state: an item of a
        chain (``self.stats``, ``self._logger.metrics``) that the class sets only to a
        list, dict, set or deque, or an attribute of an object (``self.counts``) that the
        class sets once, in ``__init__``/``setup``, to an instance of a plain class of
        this file?  Anything else (an array, a Ref, an nnx/flax Variable whose
        ``[...]``/``.value`` writes are the library's state) is not known to be one."""
        ctx = self.ctx
        unit = ctx.unit
        while unit.cls is None and unit.parent is not None and not unit.parent.is_module:
            unit = unit.parent  # (a function defined in the method)
        owner = target.value  # type: ignore[attr-defined]
        chain = dotted_name(owner)
        if chain is None or not chain.startswith(me + "."):
            return False
        rest = chain[len(me) + 1:]
        cls = unit.cls
        for _ in range(4):
            if isinstance(target, cst.Subscript) and _class_holds_container(cls, rest, ctx.qualname):
                return True  # `self.stats[k]`, `self._logger.metrics[k]` set here to a dict
            head, _, rest = rest.partition(".")
            cls = self._plain_instance(cls, head)
            if cls is None:
                return False
            if not rest:
                return not isinstance(target, cst.Subscript)  # `self.counts.calls = ...`
        return False

    def _plain_instance(self, cls, attr: str):
        """The plain class of this file (no base class, not a module) whose instance
        ``cls`` stores in ``self.<attr>`` once, in ``__init__``/``setup``; else None."""
        if cls is None:
            return None
        writes = [(m, w) for m in cls.methods.values() if isinstance(m.node, cst.FunctionDef)
                  for w in attribute_writes(m.node, f"self.{attr}")]
        if len(writes) != 1 or writes[0][0].name not in ("__init__", "setup") or type(writes[0][1]) is not cst.Assign:
            return None
        value = writes[0][1].value
        if type(value) is not cst.Call or type(value.func) is not cst.Name:
            return None
        made = [c for c in self.ctx.index.classes if c.name == value.func.value]
        if len(made) != 1 or made[0].is_jax_module or any(
                dotted_name(b.value) not in (None, "object") for b in made[0].node.bases):
            return None
        return made[0]

    def _report_stored(self, node: cst.CSTNode, what: str) -> None:
        ctx = self.ctx
        if ctx.in_traced:
            how = "traced method"
            why = "it stores a tracer in the object (UnexpectedTracerError when read later), and compiled calls never repeat it"
            instead = "Return the value and store it outside"
        else:
            how = "differentiated method"
            why = ("it stores the differentiation's tracer in the object, not a number "
                   "(UnexpectedTracerError when it is used after the call)")
            instead = "Return the value (`jax.value_and_grad` gives the loss) and store it outside"
        self.report(node, f"{what} inside {how} `{ctx.unit.name}`: {why}. {instead}")

    def visit_Call(self, node: cst.Call) -> None:
        """``self.history.append(loss)``: a tracer kept in a container the object holds."""
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in _MUTATORS
                and isinstance(func.value, cst.Attribute) and isinstance(func.value.value, cst.Name)):
            return
        me = self._method_self()
        if me is None or func.value.value.value != me:
            return
        ctx = self.ctx
        if not _holds_container(ctx.unit, func.value.attr.value, ctx.qualname):
            return  # `self.optimizer.update(g, s)`: a method of some object, not a container's
        if not ctx.in_traced:
            stores = any(_stores_grad_tracer(ctx, a.value) for a in node.args)
        else:
            stores = any(ctx.is_tracer(a.value) or _holds_tracer(ctx, a.value) for a in node.args)
        if stores:
            self._report_stored(node, f"`{ctx.code(func).strip()}(...)` keeps a tracer")

    _PLAIN_JITS = frozenset({"jax.jit", "jax.pjit", "jax.experimental.pjit.pjit"})
    _nnx_file: Optional[bool] = None  # does the file import flax.nnx (set at the first def)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        """``@jax.jit def train_step(model, optimizer, x): ... optimizer.update(model,
        grads)``: plain ``jax.jit`` does not carry the changes a function makes to the
        flax NNX objects it is given out of the trace (``nnx.jit`` does), so the update
        is lost (model/nnx_state.py)."""
        ctx = self.ctx
        if self._nnx_file is None:
            self._nnx_file = any(q == "flax.nnx" or q.startswith("flax.nnx.") for q in ctx.imports.names.values()) \
                and not hijax_mode(ctx.module, ctx.qualname)
        if not self._nnx_file:
            return
        unit = ctx.index.unit_of.get(id(node))
        if unit is None:
            return
        where: Optional[cst.CSTNode] = None
        how = ""
        for site in ctx.index.sites:
            if site.qualname not in self._PLAIN_JITS:
                continue
            if site.target is unit:
                where = next((d for d in node.decorators if _names_jit(ctx, d.decorator, site.qualname)), node)
                how = f"@{ctx.code(where.decorator).strip()}" if isinstance(where, cst.Decorator) else "jax.jit"
                break
            fn = site.fn_expr
            if site.call is not None and type(fn) is cst.Name and fn.value == unit.name \
                    and site.scope.lookup_def(fn.value) is unit:
                where, how = site.call, ctx.code(site.call.func).strip()
                break
        if where is None:
            return
        classes = ctx.index.classes
        changed = nnx_mutations(unit, ctx.qualname, lambda name: any(c.name == name and c.nnx for c in classes))
        if not changed:
            self._rng_draws(node, unit, where, how)
            return
        param, stmt = changed[0]
        self.report(
            where,
            f"`{unit.name}` is jitted with `{how}`, which does not carry changes to the flax NNX objects "
            f"it is given out of the trace: `{ctx.code(stmt).strip()}` (line {{related_line}}) changes "
            f"`{param}` inside the trace only, and the object keeps its old state after the call. "
            f"Use `nnx.jit` (or split the objects with `nnx.split` and return the new state)",
            related=stmt,
        )

    def _rng_draws(self, node: cst.FunctionDef, unit, where: cst.CSTNode, how: str) -> None:
        """``@jax.jit def forward(model, x): return model(x)`` where every call of this
        file passes an NNX object that draws from an RNG stream it holds (``nnx.Dropout(0.5,
        rngs=nnx.Rngs(0))``, a module whose ``__init__`` builds one, an ``nnx.Rngs``):
        the stream's count advanced in the trace is lost, so each call draws the same
        numbers (model/nnx_state.py)."""
        ctx = self.ctx
        name = unit.name if where is not None and isinstance(where, cst.Decorator) else None
        if name is None:
            # `forward_jit = jax.jit(forward)`: the name the jit is bound to
            for n in walk_tree(ctx.module):
                if type(n) is cst.Assign and n.value is where and len(n.targets) == 1 \
                        and type(n.targets[0].target) is cst.Name:
                    name = n.targets[0].target.value
            if name is None:
                return
        calls, bound = [], {}
        for n in walk_tree(ctx.module):
            if type(n) is cst.Call and type(n.func) is cst.Name and n.func.value == name:
                calls.append(n)
            elif type(n) is cst.Assign:
                for t in n.targets:
                    if type(t.target) is cst.Name:
                        bound.setdefault(t.target.value, []).append(n.value)
            elif type(n) in (cst.AugAssign, cst.AnnAssign, cst.For) and type(getattr(n, "target", None)) is cst.Name:
                bound.setdefault(n.target.value, []).append(None)
        if not calls:
            return
        nnx_classes = {c.name: c.node for c in ctx.index.classes if c.nnx}
        positional = [p.name for p in unit.positional()]
        for i, param in enumerate(positional):
            found = None
            for call in calls:
                if any(a.star for a in call.args):
                    return
                arg = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == param), None)
                if arg is None:
                    pos = [a.value for a in call.args if a.keyword is None]
                    arg = pos[i] if i < len(pos) else None
                built, written = arg, None
                if type(arg) is cst.Name:
                    values = bound.get(arg.value, [])
                    if len(values) != 1:
                        found = None
                        break
                    built, written = values[0], arg.value
                what = nnx_state.rng_holder(built, ctx.qualname, nnx_classes.get) if built is not None else None
                # (the whole-module walk for a switch-off only for a name that holds RNG state)
                if what is None or (written is not None and nnx_state.switched_off(ctx.module, written)) or (
                        found is not None and found[1][1] != what[1]):
                    found = None
                    break
                found = (built, what, written)
            if found is None:
                continue
            built, (what, is_rngs), written = found
            stmt = nnx_state.rng_draw(node, param, is_rngs)
            if stmt is None:
                continue
            given = f"`{written}`, " if written else ""
            self.report(
                where,
                f"`{unit.name}` is jitted with `{how}`, which does not carry changes to the flax NNX objects "
                f"it is given out of the trace: every call passes {given}{what} (`{ctx.code(built).strip()}`), "
                f"for `{param}`, and `{ctx.code(stmt).strip()}` (line {{related_line}}) draws from its RNG stream "
                f"inside the trace only: the stream's count is not advanced after the call, so every call "
                f"draws the same random numbers. Use `nnx.jit` (or split the objects with `nnx.split` and "
                f"return the new state)",
                related=stmt,
            )
            return

    def visit_Assign(self, node: cst.Assign) -> None:
        self._check(node)

    visit_AugAssign = visit_AnnAssign = visit_Assign


def _held_part(target: cst.CSTNode, me: str) -> bool:
    """Is ``target`` an item or attribute of something ``me`` holds (``self.d[k]``,
    ``self.a.b[k]``, ``self.a.b``), not ``me.attr`` itself?"""
    if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
        return False  # `self.attr`: the rule's first case
    depth = 0
    e = target
    while isinstance(e, (cst.Attribute, cst.Subscript)):
        e = e.value
        depth += 1
    return depth >= 2 and isinstance(e, cst.Name) and e.value == me


def _returns_self(unit) -> bool:
    """Does every ``return`` of the method give back ``self`` (``return self``, ``return
    loss, self``)?"""
    if not unit.returns or unit.is_generator:
        return False
    for r in unit.returns:
        if isinstance(r, (cst.Tuple, cst.List)):
            if not any(isinstance(el.value, cst.Name) and el.value.value == "self" for el in r.elements):
                return False
        elif not (isinstance(r, cst.Name) and r.value == "self"):
            return False
    return True


def _flag_value(value: Optional[cst.BaseExpression]) -> bool:
    """A flag's value: a literal (`True`, `None`, `0`, `"done"`), not a function or an
    object the method builds and caches (`self._compiled = initialize` after
    `if self._compiled is None:` memoizes a jitted helper: each trace reuses it)."""
    if isinstance(value, cst.UnaryOperation):
        value = value.expression
    if isinstance(value, cst.Name):
        return value.value in ("True", "False", "None")
    return isinstance(value, (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString))
