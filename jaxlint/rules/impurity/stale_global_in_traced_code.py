"""JAX405 stale-global-in-traced-code: A global, closed-over local or attribute that is set again between calls is read inside traced code: jit bakes in the value it saw."""

from __future__ import annotations

import re
from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model import apis
from jaxlint.model import values as V
from jaxlint.model.scopes import writes
from jaxlint.model.program_order import INSTANCE, instance_writes, parameter_setters, Sequence, across, attribute_writes, bindings, cleared_after, driving_callers
from jaxlint.model.units import Unit
from jaxlint.model.walk import (bound_names, children, descendants, dotted_name, keyword_arg, positional_args,
                                self_writes, walk_tree)
from jaxlint.rules.impurity._common import binds


def _literal_text(ctx, stmt: cst.CSTNode) -> Optional[str]:
    """The source of a constant assigned by ``stmt`` (``LR = 0.1``), else None."""
    if isinstance(stmt, cst.Assign):
        v = stmt.value
        if isinstance(v, cst.UnaryOperation) and isinstance(v.operator, cst.Minus):
            v = v.expression
        if isinstance(v, (cst.Integer, cst.Float, cst.SimpleString)) or (
            isinstance(v, cst.Name) and v.value in ("True", "False", "None")
        ):
            return ctx.code(stmt.value).strip()
    return None


def _constant(v: cst.BaseExpression) -> bool:
    if isinstance(v, cst.UnaryOperation) and isinstance(v.operator, cst.Minus):
        v = v.expression
    if isinstance(v, (cst.Tuple, cst.List)):
        return all(not isinstance(e, cst.StarredElement) and _constant(e.value) for e in v.elements)
    return isinstance(v, (cst.Integer, cst.Float, cst.SimpleString)) or (
        isinstance(v, cst.Name) and v.value in ("True", "False", "None"))


def _equal_value_text(ctx, stmt: cst.CSTNode) -> Optional[str]:
    """The source of what ``stmt`` assigns when it is a constant (``LR = 0.1``) or a call
    of an imported module's function on constants only (``optim = optax.adam(1e-4)``):
    each such assignment makes an equal value.  Not a draw (a `random` function) nor a
    call given nothing (``time.time()``): their values differ from call to call."""
    text = _literal_text(ctx, stmt)
    if text is not None or not isinstance(stmt, cst.Assign) or not isinstance(stmt.value, cst.Call):
        return text
    call = stmt.value
    q = ctx.qualname(call.func)
    if q is None or "." not in q or "random" in q.split(".") or not call.args \
            or any(a.star or not _constant(a.value) for a in call.args):
        return None
    return ctx.code(call).strip()


def _recomputed_alike(ctx, owner, assigns: list, name: str) -> bool:
    """Is every assignment of the closure variable ``name`` in ``owner`` the same
    expression (``num_train, train_idx = train_init()`` before the loop and in it), reading
    only names ``owner`` binds once or not at all?  Each one computes the value again from
    the same inputs: the value the compiled function kept is the one it would read."""
    values = []
    for a in assigns:
        if not isinstance(a, cst.Assign) or not isinstance(a.value, (cst.Call, cst.Attribute, cst.Subscript,
                                                                      cst.BinaryOperation)):
            return False
        values.append(a.value)
    if len({ctx.code(v).strip() for v in values}) != 1:
        return False
    # (the targets of these assignments themselves: `n, idx = init()` rebinds `idx` alike)
    targets = {m.value for a in assigns for t in a.targets for m in walk_tree(t.target) if isinstance(m, cst.Name)}
    for m in walk_tree(values[0]):
        if isinstance(m, cst.Name) and m.value not in targets and \
                len(writes(owner.node, m.value)) + (owner.param(m.value) is not None) > 1:
            return False  # an input set again in between (a parameter, once): the value may differ
    return True


class StaleGlobalRead(Rule):
    code = "JAX405"
    name = "stale-global-in-traced-code"
    runtime_check = 'differential: after a compiled call, each numeric or array global it reads is changed; the compiled result stays the old one while the eager one follows.'
    summary = "A global, closed-over local or attribute that is set again between calls is read inside traced code: jit bakes in the value it saw"
    severity = Severity.WARNING
    seed = "The Sharp Bits § Pure functions, `impure_uses_globals` (seed 000); FAQ § jit and global state (seed 001)"
    what_it_does = (
        "Flags reads, inside code traced by a transformation that caches its trace (jit, "
        "pmap, the lax loops), of a value that the driving code sets again between two "
        "calls of the traced function, in program order (a notebook's cells, top to bottom; "
        "the bodies of `if __name__ == \"__main__\":`, `with` and `try` blocks in line):\n\n"
        "* a module-level name assigned more than once or in a loop, where a (re)assignment "
        "comes after the traced function was used (called, or wrapped and called: `f = "
        "jax.jit(g)`) and it is used again after it (or both happen in one loop; a `def` or "
        "assignment that gives the name another function ends the old one's uses); a name "
        "the function calls, or hands to a transformation that calls it (`jax.vmap(act)(x)`, "
        "`lax.map(step, xs)`), counts when it is set to another function (`act = jnp.tanh`, "
        "a lambda); a call of a helper of the file that calls the jitted function "
        "(`generate` calling the jitted `sample_token`, directly or through another such "
        "helper) is a call of it too, at the top level and in a function that rebinds the "
        "name through `global`;\n"
        "* a local of the enclosing function that a jitted closure or lambda reads, "
        "reassigned between two calls of it, or rebound by a `nonlocal` setter that the "
        "enclosing function returns with the jitted closure (`return act, set_bias`, "
        "`return jax.jit(apply), set_scale`) when the code that unpacks the two calls the "
        "setter between two calls of the jit;\n"
        "* an attribute of a module or module-level object (`config.lr`), or an attribute "
        "chain (`cfg.model.scale`), set again in this file between two calls;\n"
        "* an attribute of a module of the project (`settings.g`, `config.LR`) that another "
        "module sets between two calls of the function it calls or jits (`f = "
        "jit(impure_uses_globals)`, `from pkg.train import step`, `train.step(...)`), at its "
        "top level or in a function's body, in program order;\n"
        "* `self.x` in a method jitted with `self` a Python object (`static_argnums=0`, or "
        "`jax.jit(obj.method)`), also in a lambda or def nested in it (`jax.tree.map(lambda "
        "p, g: p - self.lr * g, ...)`), when another method sets `self.x` or the driving code sets "
        "`obj.x` (in this file, or in another module of the project on an instance of the class "
        "it builds, also through a function of its own given the instance: `configure(c, False)` "
        "setting `obj.mul`) between two calls (of the method, or of the attribute a method keeps its jit "
        "in: `self.step = jax.jit(self._step)` ... `t.step(...)`) (not when that method is the one place the file "
        "transforms the class's methods, `pmap(partial(self.step, ...))` built on every call: "
        "each call traces anew);\n"
        "* a module global of a jitted function changed between two calls without being "
        "assigned there: a function of the file that rebinds it (`global w`) is called, or an "
        "item is written into it (`CONFIG[\"lr\"] = ...`, `CONFIG.update(...)`; not a call "
        "a dict's method cannot be, `opt.update(grads, state, params)`, which returns new "
        "values), at the top "
        "level or in the body of a function that calls it; in a function body, a list/dict/set "
        "global changed by one of its methods (`LAYERS.append(3)`) or by a helper of the file "
        "that writes into it counts too;\n"
        "* a list or dict of a module of the project changed in place by another module "
        "between two calls (`config.SCALES[\"a\"] = 2.0`, `LAYERS.append(3)` after `from "
        "pkg.config import LAYERS`), read in the jitted function as `config.SCALES` or as a name "
        "imported from that module (a rebinding, `config.SCALES = {...}`, does not reach such a "
        "name).\n\n"
        "A value the function both prints and computes with (`print(\"Inside:\", y)` then "
        "`return x + y`) is reported where it computes with it: that read is what the compiled "
        "function keeps.\n\n"
        "Globals assigned once (constants, configuration), a global set again to the same "
        "constant or to an equal object (the same call of an imported module's function on "
        "constants, `optim = optax.adam(1e-4)` in each cell; not a `random` function), a closed-over local computed again by the same expression from inputs "
        "that were not set again (`n, idx = train_init()` before the epoch loop and in it), a name rebound before the first call or after the last one, a jit made "
        "anew after the change, a use and a change on different branches of one `if` (no run "
        "does both), a statement that only names the function anew without calling it (`fn = "
        "hk.transform(f)`, `g = jax.vmap(fn.apply)`: nothing is traced there), a method "
        "of the same name on another object (`opt.update(...)` is no use of a function "
        "`update`), values passed as arguments, `jax.vmap`/`jax.grad` (they "
        "trace every call), names the function calls wrapped again (`f = jax.jit(f)`) "
        "and flags read in an `assert` (a test that the body runs only when traced) "
        "are not flagged. Nor is a change that drops the compiled function: a setter that "
        "resets the recompile flag the jit-building method tests (`self._compiled = False` "
        "with `if self._compiled: return` before `self._step = jax.jit(self._kernel)`) or the "
        "attribute the jitted method is kept in, or calls `jax.clear_caches()`; a global or "
        "attribute set and then cleared with `jax.clear_caches()` before the next call (in "
        "this file or another module); nor the one-time setup of an attribute that "
        "construction leaves unset or `None` (`load_params`, `_initialize_train`), when it "
        "computes the value itself rather than storing a value its caller hands in, and runs "
        "once: it leaves early once done (`if self._ready: return`) or writes under `if "
        "self.x is None:`, or each call of it in the class is under such a guard on an "
        "attribute it sets, or in a method that runs once by the same test (`_make_opt` called "
        "from `_initialize_train`, which `step` calls under `if self._train_input is None:` and "
        "which sets `_train_input`), and no code of the file calls it in a loop (a setup run again "
        "before every call of the jitted function, `self._update_eps(); self._step(x)`, is "
        "reported: the trace keeps the first value)."
    )
    why_bad = (
        "A global read under `jit` is a constant of the traced computation. The compiled "
        "function keeps the value the global had at trace time: after `g = 10.` a cached call "
        "still uses the old `g` (`jit(f)(5.)` gives `5.0`, not `15.0`), and only a retrace "
        "(a new input shape or dtype) picks up the new value, so results depend on call "
        "history. No warning is given."
    )
    use_instead = "Pass the value as an argument:\n\n```python\n@jax.jit\ndef f(x, g):\n    return x + g\n```"
    fix_safety = "No automatic fix: the signature and every call site change."
    VALID = [
        # a use and a rebinding on different branches of one `if`; a statement that only
        # names the function anew (no trace runs); an optimizer's pure `opt.update(...)`
        Valid(
            """
            import jax
            import optax


            def run(args, build):
                if args.jit:
                    def step(x):
                        return model(x)

                    model = build(1)
                    infer = jax.jit(step)
                else:
                    def step(x):
                        return model(x)

                    model = build(2)
                    infer = jax.jit(step)
                return infer(1.0)


            scale = 1.0


            def apply(x):
                return x * scale


            fn = jax.jit(apply)
            scale = 2.0
            print(fn(1.0), fn(2.0))

            opt = optax.sgd(0.1)


            @jax.jit
            def update(params, state, grads):
                updates, state = opt.update(grads, state, params)
                return optax.apply_updates(params, updates), state


            params = jax.numpy.ones(3)
            state = opt.init(params)
            params, state = update(params, state, params)
            upd, _ = opt.update(params, state, params)
            params, state = update(params, state, params)
            """
        ),
        # ... set by a function before any call
        Valid(
            """
            import jax
            import jax.numpy as jnp

            act = jnp.tanh


            @jax.jit
            def layer(x):
                return act(x) * 2


            def setup():
                global act
                act = jax.nn.gelu


            def run(x):
                setup()
                return layer(x), layer(x)
            """
        ),
        # a setter that runs before the first call (configuration), and a factor passed
        # as an argument
        Valid(
            """
            import jax
            import jax.numpy as jnp

            SCALE = 1.0

            def configure(value):
                global SCALE
                SCALE = value

            @jax.jit
            def scale(x, factor):
                return x * SCALE * factor

            def main():
                configure(3.0)
                return scale(jnp.ones(2), 1.0), scale(jnp.ones(2), 2.0)
            """
        ),
        # constant assigned once
        Valid(
            """
            import jax
            import jax.numpy as jnp

            SCALE = 2.0

            @jax.jit
            def f(x):
                return jnp.sin(x) * SCALE
            """
        ),
        # reassigned only before the function is defined (configuration)
        Valid(
            """
            import jax
            import sys

            if sys.platform == 'darwin':
                EPS = 1e-6
            else:
                EPS = 1e-8

            @jax.jit
            def f(x):
                return x + EPS
            """
        ),
        # local variable of the same name
        Valid(
            """
            import jax

            g = 0.

            @jax.jit
            def f(x):
                g = 2.
                return x + g

            g = 1.
            """
        ),
        # a function name that is rebound (wrapped) is called, not read as data
        Valid(
            """
            import jax

            def helper(x):
                return x * 2

            helper = jax.jit(helper)

            @jax.jit
            def f(x):
                return helper(x)

            helper = jax.checkpoint(helper)
            """
        ),
        # notebook style: set again after the last call (nothing calls `update` afterwards),
        # and to the same value
        Valid(
            """
            import jax
            import jax.numpy as jnp

            LR = 0.1


            @jax.jit
            def update(w, g):
                return w - LR * g


            w = jnp.ones(3)
            for _ in range(3):
                w = update(w, jnp.ones(3))

            LR = 0.1
            print(w, LR)
            """
        ),
        # notebook style: the name is rebound for other code; what captured it is never
        # called again (a lambda applied at once; a jitted alias rebound to something else)
        Valid(
            """
            import jax
            import jax.numpy as jnp

            x = jnp.array([[3.]])
            z = jax.jit(lambda: x * 2)()
            print(z)

            def add_one(a):
                return a + x

            f = jax.jit(add_one)
            print(f(jnp.ones(1)))
            f = jax.jit(lambda a: a - 1)

            x = jnp.arange(12.).reshape(3, 4)
            print(f(x))
            """
        ),
        # the global is set again before the function is first called: the trace sees the new value
        Valid(
            """
            import jax
            import optax

            optimizer = optax.sgd(0.1)

            def step(params, opt_state, grads):
                updates, opt_state = optimizer.update(grads, opt_state, params)
                return optax.apply_updates(params, updates), opt_state

            optimizer = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(0.1))
            step = jax.jit(step)
            params = {"w": jax.numpy.ones(3)}
            new_params, new_state = step(params, optimizer.init(params), params)
            """
        ),
        # passed as an argument; the jit rebuilt after the change; rebound before the first call; a jit made anew in each iteration; vmap, which traces every call
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def main():
                scale = 2.0
                f = jax.jit(lambda x, s: x * s)
                first = f(jnp.ones(2), scale)
                scale = 3.0
                second = f(jnp.ones(2), scale)
                return first, second


            def rebuilt():
                scale = 2.0
                f = jax.jit(lambda x: x * scale)
                first = f(jnp.ones(2))
                scale = 3.0
                f = jax.jit(lambda x: x * scale)
                return first, f(jnp.ones(2))


            def before():
                scale = 2.0
                scale = 3.0
                f = jax.jit(lambda x: x * scale)
                return f(jnp.ones(2)), f(jnp.ones(3))


            def in_loop(xs):
                for lr in (0.1, 0.01):
                    step = jax.jit(lambda p: p - lr)
                    xs = step(xs)
                return xs


            def vmapped(xs):
                scale = 2.0
                g = jax.vmap(lambda x: x * scale)
                a = g(xs)
                scale = 3.0
                return a, g(xs)
            """
        ),
        # the attribute passed as an argument; a method that is not jitted; an object attribute set before the call or passed
        Valid(
            """
            import functools

            import jax
            import jax.numpy as jnp

            import settings


            @jax.jit
            def step(p, g, lr):
                return p - lr * g


            def train(p, g):
                settings.lr = 0.01
                p = step(p, g, settings.lr)
                return step(p, g, settings.lr)


            class Objective:
                def __init__(self, target):
                    self.target = target

                def compute(self, x):
                    return jnp.sum(x) - self.target

                def set_target(self, target):
                    self.target = target


            class Scaler:
                def __init__(self, mul):
                    self.mul = mul

                def calc(self, x, mul):
                    return x * mul


            def run():
                s = Scaler(2.0)
                s.mul = 3.0
                fast = jax.jit(s.calc)
                a = fast(jnp.ones(2), s.mul)
                s.mul = 4.0
                return a, fast(jnp.ones(2), s.mul)
            """
        ),
        # a flag asserted inside the jitted function: a test that the Python body runs only at trace time
        Valid(
            """
            import jax


            def check_compiled(test, fun, x):
                def wrapped(*args):
                    test.assertTrue(python_should_be_executing)
                    return fun(*args)

                cfun = jax.jit(wrapped)
                python_should_be_executing = True
                first = cfun(x)
                python_should_be_executing = False
                return first, cfun(x)
            """
        ),
        # the setter transforms the method anew on every call, after setting the attribute
        # (numpyro's MCMC.run: `self._args = args` then `pmap(partial(self._single_chain, ...))`):
        # each call traces a new function object, which reads the new value
        Valid(
            """
            from functools import partial

            from jax import pmap


            class MCMC:
                def __init__(self, kernel):
                    self.kernel = kernel
                    self._args = ()

                def _get_fns(self):
                    return self.kernel(*self._args)

                def _single_chain(self, init, scale):
                    fn = self._get_fns()
                    return fn(init) * scale

                def run(self, init, *args):
                    self._args = args
                    chain = partial(self._single_chain, scale=2.0)
                    return pmap(chain)(init)
            """
        ),
        # the same with jax.jit of the bound method, built before the write (traced at the call)
        Valid(
            """
            import jax
            import jax.numpy as jnp


            class Trainer:
                def __init__(self):
                    self.weight = 1.0

                def loss(self, x):
                    return jnp.sum(x) * self.weight

                def fit(self, x, weight):
                    step = jax.jit(self.loss)
                    self.weight = weight
                    return step(x)
            """
        ),
        # the container written before the first call; the rebinding helper called only
        # after the last one; a function vmapped as well as jitted is left alone
        Valid(
            """
            import jax
            import jax.numpy as jnp

            CONFIG = {"scale": 1.0}
            weights = jnp.ones(3)


            def set_weights(w):
                global weights
                weights = w


            @jax.jit
            def f(x):
                return x * CONFIG["scale"] + jnp.dot(weights, x)


            CONFIG["scale"] = 3.0
            print(f(jnp.ones(3)))
            set_weights(jnp.zeros(3))
            """
        ),
        # the function passed as a static argument; vmap alone (traces every call); a global
        # function rebound before the first call only
        Valid(
            """
            import jax
            import jax.numpy as jnp
            from jax import lax


            def batched(x, fn):
                return jax.vmap(fn)(x)


            def eager(x):
                return jax.vmap(transform)(x)


            transform = lambda v: v
            batched_jit = jax.jit(batched, static_argnums=1)
            first = batched_jit(jnp.ones(2), transform)
            e1 = eager(jnp.ones(2))
            transform = lambda v: -v
            second = batched_jit(jnp.ones(2), transform)
            e2 = eager(jnp.ones(2))

            STEP = jnp.tanh
            STEP = jnp.sin


            @jax.jit
            def run(xs):
                return lax.map(STEP, xs)


            a = run(jnp.ones(3))
            b = run(jnp.ones(3))
            """
        ),
        # ... a class registered as a pytree by a call, not a decorator: `self` is flattened
        # under jit, `mul` is aux data (a changed value retraces), `x` a traced leaf
        Valid(
            """
            from jax import jit, tree_util


            class Scaled:
                def __init__(self, x, mul):
                    self.x = x
                    self.mul = mul

                @jit
                def calc(self, y):
                    if self.mul:
                        return self.x * y
                    return y

                def _flatten(self):
                    return (self.x,), {"mul": self.mul}

                @classmethod
                def _unflatten(cls, aux, children):
                    return cls(*children, **aux)


            tree_util.register_pytree_node(Scaled, Scaled._flatten, Scaled._unflatten)

            s = Scaled(2.0, True)
            s.calc(3.0)
            s.mul = False
            s.calc(3.0)
            """
        ),
        # ... the same through an alias of jax.tree_util and register_dataclass
        Valid(
            """
            import functools

            import jax
            import jax.tree_util as jtu


            class Affine:
                def __init__(self, w, shift):
                    self.w = w
                    self.shift = shift

                @functools.partial(jax.jit)
                def apply(self, x):
                    return self.w * x + self.shift


            jtu.register_dataclass(Affine, data_fields=["w"], meta_fields=["shift"])

            f = Affine(2.0, 1.0)
            f.apply(3.0)
            f.shift = 5.0
            f.apply(3.0)
            """
        ),
        # a container changed before the first call, or after the last; one passed as an
        # argument (a pytree: read anew at each call); a local of the same name
        Valid(
            """
            import jax
            import jax.numpy as jnp

            SCALES = {"a": 1.0}


            @jax.jit
            def apply(x):
                return x * SCALES["a"]


            @jax.jit
            def apply_with(x, scales):
                return x * scales["a"]


            def main():
                x = jnp.ones(3)
                SCALES["a"] = 2.0
                first = apply(x)
                second = apply(x)
                SCALES["a"] = 3.0
                scales = {"a": 1.0}
                y = apply_with(x, scales)
                scales["a"] = 2.0
                return first, second, y, apply_with(x, scales)


            def other():
                SCALES = {"a": 0.0}
                apply(jnp.ones(3))
                SCALES["a"] = 1.0
                return apply(jnp.ones(3)), SCALES
            """
        ),
        # the closure variable computed again by the same expression from unchanged
        # inputs (a loader's count each epoch, `len` of the same table): the same value
        Valid(
            """
            import jax
            import jax.numpy as jnp


            def load(split):
                return 100 // 8, jnp.arange(8)


            def main(epochs):
                n_batches, order = load("train")

                @jax.jit
                def epoch(w):
                    return jax.lax.fori_loop(0, n_batches, lambda i, v: v * 0.99, w)

                w = jnp.ones(3)
                for _ in range(epochs):
                    n_batches, order = load("train")
                    w = epoch(w)
                return w


            def count(table, xs):
                size = len(table)
                f = jax.jit(lambda x: x * size)
                out = [f(x) for x in xs]
                size = len(table)
                return out, f(xs[0])
            """
        ),
    ]

    INVALID = [
        # a function the jitted code calls, set to another one by a function (`global act`)
        # after calling it: the compiled `layer` keeps tanh
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            act = jnp.tanh


            @jax.jit
            def layer(x):
                return act(x) * 2


            def main(x):
                y = layer(x)
                global act
                act = jax.nn.relu
                return y, layer(x)
            """,
            expected=[(9, 12)],
            messages=[
                "`act` is a module global that `main` reassigns (`global act`, line 15) after calling `layer`: under jit its value is read once, at trace time, and baked into the compiled function, so the later calls still use the old value until a retrace. Pass it as an argument",
            ],
        ),
        # the jit is built once, when the object is: the setter's change is never seen
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            class Trainer:
                def __init__(self):
                    self.weight = 1.0
                    self._step = jax.jit(self.loss)

                def loss(self, x):
                    return jnp.sum(x) * self.weight

                def fit(self, x, weight):
                    self.weight = weight
                    return self._step(x)
            """,
            expected=[(11, 29)],
            messages=[
                "`self.weight` is read in `loss`, which is jitted with `self` a Python object, and `fit` sets it (line 14): the compiled function keeps the value read at its first trace, so later calls ignore the change. Pass it as an argument (or make the object a pytree)",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            SCALE = 1.0

            @jax.jit
            def scale(x):
                return x * SCALE

            def main():
                global SCALE
                first = scale(jnp.ones(2))
                SCALE = 2.0
                second = scale(jnp.ones(2))
                return first, second
            """,
            expected=[(8, 16)],
            messages=[
                "`SCALE` is a module global that `main` reassigns (`global SCALE`, line 13) after calling `scale`: under jit its value is read once, at trace time, and baked into the compiled function, so the later calls still use the old value until a retrace. Pass it as an argument",
            ],
        ),
        Invalid(
            """
            from jax import jit

            g = 0.

            def impure_uses_globals(x):
                return x + g

            print(jit(impure_uses_globals)(4.))
            g = 10.
            print(jit(impure_uses_globals)(5.))
            """,
            expected=[(6, 16)],
            messages=[
                "`g` is a module global that is reassigned (line 9) after `impure_uses_globals` is defined: under jit its value is read once, at trace time, and baked into the compiled function, so later assignments are ignored until a retrace. Pass it as an argument",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            y = 0

            @jax.jit
            def f(x):
                print('Inside:', y)
                return x + y

            for y in range(3):
                print('Result:', f(jnp.array(1)))
            """,
            # (reported where `f` computes with it: the print shows the value it was traced with)
            expected=[(9, 16)],
            messages=[
                "`y` is a module global that is reassigned (line 11) after `f` is defined: under jit its value is read once, at trace time, and baked into the compiled function, so later assignments are ignored until a retrace. Pass it as an argument",
            ],
        ),
        # the value changes and the compiled `update` is called again afterwards
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            LR = 0.1


            @jax.jit
            def update(w, g):
                return w - LR * g


            w = update(jnp.ones(3), jnp.ones(3))
            LR = 0.01
            w = update(w, jnp.ones(3))
            """,
            expected=[(9, 16)],
            messages=[
                "`LR` is a module global that is reassigned (line 13) after `update` is defined: under jit its value is read once, at trace time, and baked into the compiled function, so later assignments are ignored until a retrace. Pass it as an argument",
            ],
        ),
        # through a jitted alias, called before and after the global changes
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            offset = 1.0

            def shift(a):
                return a + offset

            shifted = jax.jit(shift)
            print(shifted(jnp.ones(2)))
            offset = 5.0
            print(shifted(jnp.ones(2)))
            """,
            expected=[(7, 16)],
            messages=[
                "`offset` is a module global that is reassigned (line 11) after `shift` is defined: under jit its value is read once, at trace time, and baked into the compiled function, so later assignments are ignored until a retrace. Pass it as an argument",
            ],
        ),
        # a global rebound in the __main__ block between two calls
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            extra_learning_rate = 0.1


            @jax.jit
            def step(params, grads):
                return params - grads * extra_learning_rate


            if __name__ == "__main__":
                first = step(jnp.ones(2), jnp.ones(2))
                extra_learning_rate = 0.01
                second = step(jnp.ones(2), jnp.ones(2))
            """,
            expected=[(9, 29)],
            messages=[
                "`extra_learning_rate` is a module global that is reassigned (line 14) after `step` is defined: under jit its value is read once, at trace time, and baked into the compiled function, so later assignments are ignored until a retrace. Pass it as an argument",
            ],
        ),
        # an attribute of an imported module set between two calls
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            import settings


            @jax.jit
            def step(params, grads):
                return params - settings.lr * grads


            def train(params, grads):
                params = step(params, grads)
                settings.lr = 0.01
                return step(params, grads)
            """,
            expected=[(9, 21)],
            messages=[
                "`settings.lr` is set again (line 14) after `step` has been called: under jit the attribute is read once, at trace time, and baked into the compiled function, so the later calls still use the old value until a retrace. Pass it as an argument",
            ],
        ),
        # a closed-over local rebound after the call; a function rebound to another one
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def main(x):
                scale = 2.0
                f = jax.jit(lambda v: v * scale)
                first = f(x)
                scale = 3.0
                return first, f(x)


            act = jnp.tanh


            @jax.jit
            def layer(x):
                return act(x)


            y = layer(jnp.ones(2))
            act = jax.nn.relu
            y = layer(jnp.ones(2))
            """,
            expected=[(7, 31), (18, 12)],
            messages=[
                "`scale` is a local of `main` that is reassigned (line 9) after `f` has been called: the compiled function keeps the value it read when it was traced, so the later calls still use the old value until a retrace. Pass it as an argument",
                "`act` is a module global that is reassigned (line 22) after `layer` is defined: under jit its value is read once, at trace time, and baked into the compiled function, so later assignments are ignored until a retrace. Pass it as an argument",
            ],
        ),
        # a closed-over local written into (not rebound) between two calls: the message says so
        Invalid(
            """
            import jax
            import jax.numpy as jnp


            def run():
                table = [0.0]

                @jax.jit
                def bump(x):
                    return x + table[0]

                y = bump(jnp.ones(3))
                table[0] = 2.0
                return bump(y)
            """,
            expected=[(10, 20)],
            messages=[
                "`table` is a local of `run` that changes in place (`table[...] = ...`) (line 13) after `bump` has been called: the compiled function keeps the value it read when it was traced, so the later calls still use the old value until a retrace. Pass it as an argument",
            ],
        ),
        # an attribute of self (a static argument, or the instance of a bound method given to jit) set after the call
        Invalid(
            """
            import functools

            import jax
            import jax.numpy as jnp


            class Objective:
                def __init__(self, target):
                    self.target = target

                @functools.partial(jax.jit, static_argnums=(0,))
                def compute(self, x):
                    return jnp.sum(x) - self.target

                def set_target(self, target):
                    self.target = target


            class Scaler:
                def __init__(self, mul):
                    self.mul = mul

                def calc(self, x):
                    return x * self.mul


            def run(x):
                s = Scaler(2.0)
                fast = jax.jit(s.calc)
                first = fast(x)
                s.mul = 3.0
                return first, fast(x)
            """,
            expected=[(13, 29), (24, 20)],
            messages=[
                "`self.target` is read in `compute`, which is jitted with `self` a Python object, and `set_target` sets it (line 16): the compiled function keeps the value read at its first trace, so later calls ignore the change. Pass it as an argument (or make the object a pytree)",
                "`s.mul` is set again (line 31) after `s.calc` has been called: it is jitted with `self` a Python object, so the compiled function keeps the value read at its first trace and the later calls ignore the change. Pass it as an argument (or make the object a pytree)",
            ],
        ),
        # equinox: a global set between two calls of an eqx.filter_jit function
        Invalid(
            """
            import equinox as eqx

            scale = 1.0


            @eqx.filter_jit
            def step(model, x):
                return model(x) * scale


            def main(model, x):
                global scale
                a = step(model, x)
                scale = 2.0
                return a, step(model, x)
            """,
            expected=[(8, 23)],
            messages=[
                "`scale` is a module global that `main` reassigns (`global scale`, line 14) after calling `step`: under jit its value is read once, at trace time, and baked into the compiled function, so the later calls still use the old value until a retrace. Pass it as an argument",
            ],
        ),
        # a global changed between two calls without an assignment at module level: an item
        # written into a dict; a helper declaring `global` called
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            CONFIG = {"scale": 1.0}
            weights = jnp.ones(3)


            def set_weights(w):
                global weights
                weights = w


            @jax.jit
            def f(x):
                return x * CONFIG["scale"] + jnp.dot(weights, x)


            print(f(jnp.ones(3)))
            CONFIG["scale"] = 3.0
            set_weights(jnp.zeros(3))
            print(f(jnp.ones(3)))
            """,
            expected=[(15, 16), (15, 42)],
            messages=[
                "`CONFIG` is a module global that changes in place (`CONFIG[...] = ...`) (line 19) between two calls of `f`: under jit its value is read once, at trace time, and baked into the compiled function, so the later calls still use the old value until a retrace. Pass it as an argument",
                "`weights` is a module global that `set_weights` reassigns (`global weights`) when it is called (line 20) between two calls of `f`: under jit its value is read once, at trace time, and baked into the compiled function, so the later calls still use the old value until a retrace. Pass it as an argument",
            ],
        ),
        # a global function handed to a transformation inside jitted code (vmap, lax.map:
        # they call it) and rebound between calls: a lambda (jax#28225, the jit made anew
        # shares the cache of `batched`), a jax.numpy function
        Invalid(
            """
            import jax
            import jax.numpy as jnp
            from jax import lax


            def batched(x):
                return jax.vmap(transform)(x)


            transform = lambda v: v
            batched_jit = jax.jit(batched)
            first = batched_jit(jnp.ones(2))
            transform = lambda v: -v
            batched_jit = jax.jit(batched)
            second = batched_jit(jnp.ones(2))


            STEP = jnp.tanh


            @jax.jit
            def run(xs):
                return lax.map(STEP, xs)


            a = run(jnp.ones(3))
            STEP = jnp.sin
            b = run(jnp.ones(3))
            """,
            expected=[(7, 21), (23, 20)],
            messages=[
                "`transform` is a module global that is reassigned (line 13) after `batched` is defined: under jit its value is read once, at trace time, and baked into the compiled function, so later assignments are ignored until a retrace. Pass it as an argument",
                "`STEP` is a module global that is reassigned (line 27) after `run` is defined: under jit its value is read once, at trace time, and baked into the compiled function, so later assignments are ignored until a retrace. Pass it as an argument",
            ],
        ),
        # a module-level container changed in place between two calls, in the body of the
        # function that drives the jitted one, directly or through a helper that writes into it
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            SCALES = {"a": 1.0}
            LAYERS = [1, 2]


            @jax.jit
            def apply(x):
                return x * SCALES["a"] + len(LAYERS)


            def register(width):
                LAYERS.append(width)


            def main():
                x = jnp.ones(3)
                first = apply(x)
                SCALES["a"] = 2.0
                register(3)
                return first, apply(x)
            """,
            expected=[(10, 16), (10, 34)],
            messages=[
                "`SCALES` is a module global that changes in place (`SCALES[...] = ...`) (line 20) between two calls of `apply`: under jit its value is read once, at trace time, and baked into the compiled function, so the later calls still use the old value until a retrace. Pass it as an argument",
                "`LAYERS` is a module global that `register` changes in place when it is called (line 21) between two calls of `apply`: under jit its value is read once, at trace time, and baked into the compiled function, so the later calls still use the old value until a retrace. Pass it as an argument",
            ],
        ),
        # the twin: the same expression, but an input (`frac`) changed in between
        Invalid(
            """
            import jax


            def schedule(w, epochs, frac):
                steps = int(len(w) * frac)

                @jax.jit
                def run(v):
                    return v * steps

                for _ in range(epochs):
                    v = run(w)
                    frac = frac / 2
                    steps = int(len(w) * frac)
                return v
            """,
            expected=[(9, 20)],
            messages=[
                "`steps` is a local of `schedule` that is reassigned (line 14) after `run` has been called: the compiled function keeps the value it read when it was traced, so the later calls still use the old value until a retrace. Pass it as an argument",
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._skip: set[int] = set()
        # `self.n += 1`: its target's implicit read only feeds the store (JAX403 reports the
        # store, at the same place); a read that feeds the result is another node
        self._aug_targets: set[int] = set()
        self._calls: set[int] = set()
        self._seqs: dict[int, Sequence] = {}
        self._reported: set[tuple[int, str]] = set()
        self._checked: set[tuple[int, str]] = set()
        self._asserting = 0
        self._printing = 0  # inside the arguments of a builtin `print(...)`
        self._attr_writes: Optional[dict[str, list[tuple[cst.CSTNode, cst.CSTNode]]]] = None
        # (traced function, global) -> a change between two of its calls (one scan each)
        self._changes: dict[tuple[int, str], Optional[tuple[str, cst.CSTNode]]] = {}
        # global name -> the units that rebind it (`global name`), and the names the text
        # ever follows with `.` or `[` (those alone can be changed in place): once per file
        self._global_writers: Optional[dict[str, list[Unit]]] = None
        self._dotted: Optional[frozenset[str]] = None
        # a global's rebinding after a call -> the function that call named (the jit, or a
        # helper of the file that calls it)
        self._late_callee: dict[int, str] = {}

    def _writers_of(self, name: str) -> list[Unit]:
        """The units of the file that declare ``global name`` and assign it."""
        if self._global_writers is None:
            out: dict[str, list[Unit]] = {}
            for w in self.ctx.index.units:
                for g in w.global_names:
                    if g in w.assigned:
                        out.setdefault(g, []).append(w)
            self._global_writers = out
        return self._global_writers.get(name, [])

    def _may_change_in_place(self, name: str) -> bool:
        """Does the text ever follow ``name`` with `.` or `[` (an item write or a method
        call on it)?  A superset: comments and strings count too."""
        if self._dotted is None:
            self._dotted = frozenset(re.findall(r"(\w+)[\s\\)]*[.\[]", self.ctx.text))
        return name in self._dotted

    def _seq(self, unit: Unit) -> Sequence:
        """The statements of ``unit`` (the module or a function) in program order."""
        node = unit.node
        seq = self._seqs.get(id(node))
        if seq is None:
            body = node.body if isinstance(node, cst.Module) else getattr(node.body, "body", ())
            seq = self._seqs[id(node)] = Sequence(body)
        return seq

    def _names_of(self, outer: Unit, seq: Sequence) -> tuple[set[str], Optional[int]]:
        """The names the traced function ``outer`` goes by in ``seq``, and where it is
        defined (a def, or the statement that holds a lambda)."""
        at = seq.index(outer.node)
        if at is None:
            return set(), None
        if isinstance(outer.node, cst.FunctionDef):
            return {outer.name}, at
        stmt = seq.stmts[at]
        if any(isinstance(n, cst.Call) and isinstance(n.func, (cst.Call, cst.Lambda)) for n in descendants(stmt)):
            return set(), at  # `jax.jit(lambda: ...)()`: applied once, where it is written
        return {name for name, value in bindings(stmt) if value is not None}, at

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Attribute):
            self._aug_targets.add(id(node.target))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._skip.add(id(node.attr))
        if id(node) in self._aug_targets:
            return
        if self.ctx.in_traced and not self._printed_here_read_there(node):
            self._attribute(node)

    def visit_Call(self, node: cst.Call) -> None:
        self._calls.add(id(node.func))
        if _is_assert_call(node):
            self._asserting += 1
        if self.ctx.builtin_name(node.func) == "print":
            self._printing += 1
        if self.ctx.in_traced:
            # `jax.vmap(act)(x)`, `lax.scan(body, ...)` in traced code: the transformation
            # calls the function it is handed, so that name is read as a call
            t = apis.transform_for(self.ctx.qualname(node.func))
            if t is not None:
                pos = positional_args(node)
                for i in t.fn_args:
                    if i < len(pos) and type(pos[i].value) is cst.Name:
                        self._calls.add(id(pos[i].value))
                for name in t.fn_kwargs:
                    a = keyword_arg(node, name)
                    if a is not None and type(a.value) is cst.Name:
                        self._calls.add(id(a.value))

    def leave_Call(self, node: cst.Call) -> None:
        if _is_assert_call(node):
            self._asserting -= 1
        if self.ctx.builtin_name(node.func) == "print":
            self._printing -= 1

    def _printed_here_read_there(self, node: cst.CSTNode) -> bool:
        """Is ``node`` an argument of ``print(...)`` while the function also reads the same
        name (or attribute) outside any print?  That read feeds what the function computes
        and returns: the finding goes there (a print shows the value it was traced with)."""
        if not self._printing:
            return False
        text = self.ctx.code(node)
        body = self.ctx.unit.node
        return _read_outside_print(self.ctx, getattr(body, "body", body), type(node), text, False)

    def visit_Assert(self, node: cst.Assert) -> None:
        self._asserting += 1

    def leave_Assert(self, node: cst.Assert) -> None:
        self._asserting -= 1

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._skip.add(id(node.keyword))

    def visit_Name(self, node: cst.Name) -> None:
        ctx = self.ctx
        if not ctx.in_traced or id(node) in self._skip or self._asserting:
            return  # (a flag asserted at trace time: a test of what runs when, on purpose)
        if self._printed_here_read_there(node):
            return
        n = node.value
        unit = ctx.unit
        if (id(unit), n) in self._reported:
            return
        u: Optional[Unit] = unit
        while u is not None and not u.is_module:
            if n in u.global_names or n in u.nonlocal_names:
                return
            if binds(u, n):
                if u is not unit:
                    self._closure_read(node, n, u)
                return
            u = u.parent
        assigns = ctx.index.module_assignments.get(n)
        if not assigns:
            if unit.attr_changes or (unit.parent is not None and not unit.parent.is_module):
                self._imported_changed(node, unit)
            return
        called = id(node) in self._calls
        mv = ctx.module_value(n)
        if mv is not None and (mv.kind == V.MODULE or (mv.kind == V.FUNCTION and not called)):
            return
        if not _caching(unit):
            return  # traced only by transformations that trace every call (`jax.vmap(f)(x)`)
        outer = _outermost(unit)
        seq = self._seq(ctx.index.module_unit)
        def_at = seq.index(outer.node)
        if def_at is None:
            return
        # class attributes are not module globals
        assigns = [a for a in assigns if seq.index(a) is not None]
        late = self._rebound_after_call(n, outer)
        if called:
            # a function called by name: stale only when the name is set to another
            # function (`act = jnp.tanh`, a lambda), not wrapped (`helper = jax.jit(helper)`)
            assigns = [a for a in assigns if _other_function(a, n)]
            if late is not None and not _other_function(late[1], n):
                late = None
            if late is None and len(assigns) < 2 and not any(id(a) in seq.in_loop for a in assigns):
                return
        if late is not None:
            writer, stmt = late
            self._reported.add((id(unit), n))
            self.report(
                node,
                f"`{n}` is a module global that `{writer}` reassigns (`global {n}`, line "
                f"{{related_line}}) after calling `{self._late_callee.get(id(stmt), outer.name)}`: under jit its value is read once, "
                "at trace time, and baked into the compiled function, so the later calls still use "
                "the old value until a retrace. Pass it as an argument",
                related=stmt,
            )
            return
        changed = None
        if not called:
            key = (id(outer), n)
            if key not in self._changes:
                self._changes[key] = self._changed_between(n, outer, seq, def_at)
            changed = self._changes[key]
        if changed is not None:
            how, stmt = changed
            self._reported.add((id(unit), n))
            self.report(
                node,
                f"`{n}` is a module global that {how} (line {{related_line}}) between two calls of "
                f"`{outer.name}`: under jit its value is read once, at trace time, and baked into the "
                "compiled function, so the later calls still use the old value until a retrace. Pass "
                "it as an argument",
                related=stmt,
            )
            return
        if not called and self._set_from_elsewhere(node, unit):
            return
        in_loop = [a for a in assigns if id(a) in seq.in_loop]
        if len(assigns) < 2 and not in_loop:
            return
        names, defined_at = self._names_of(outer, seq)
        uses = seq.uses(names, defined_at)
        if names and _jitted(outer):
            # a helper of the file that calls the jitted function (`generate` calling
            # `sample_token`): each call of it in the driving code calls the jit too
            callers = driving_callers(ctx.index, outer)
            for caller in callers:
                uses = sorted({*uses, *seq.uses({caller.name}, seq.index(caller.node))})
            if callers:
                # (a `def` that names a function in its body calls nothing yet)
                uses = [(i, loop) for i, loop in uses if not isinstance(seq.stmts[i], (cst.FunctionDef, cst.ClassDef))]
        # a rebinding matters only if the function was called (traced) before it and can be
        # called again after it: a notebook that rebinds `x` for other code is fine
        later = [a for a in assigns if seq.at[id(a)] > def_at and across(uses, seq.at[id(a)], def_at, seq)
                 and not cleared_after(seq, uses, seq.at[id(a)])]
        literal = {_equal_value_text(ctx, a) for a in assigns}
        if len(literal) == 1 and None not in literal:
            return  # set again to the same constant (or an equal object, `optax.adam(1e-4)`
            # in each cell): the compiled value is still right
        if not later:
            return
        self._reported.add((id(unit), n))
        self.report(
            node,
            f"`{n}` is a module global that is reassigned (line {{related_line}}) after "
            f"`{outer.name}` is defined: under jit its value is read once, at trace time, and baked "
            "into the compiled function, so later assignments are ignored until a retrace. Pass it "
            "as an argument",
            related=later[0],
        )

    def _changed_between(self, name: str, outer: Unit, seq: Sequence, def_at: int) -> Optional[tuple[str, cst.CSTNode]]:
        """A module-level statement between two uses of the traced function ``outer`` that
        changes the global ``name`` without assigning it there: a call of a function of the
        file that rebinds it (`global name`), or an item written into it (`name[k] = v`,
        `name.update(...)`): (what it does, the node)."""
        ctx = self.ctx
        if not _jitted(outer) or any(r.endswith(_UNCACHED) for r in outer.reasons):
            return None  # every use of it goes through a cached trace (not `jax.vmap(f)` too)
        module = ctx.index.module_unit
        writers = {
            w.name for w in self._writers_of(name)
            if w is not outer and w.parent is module and isinstance(w.node, cst.FunctionDef)
        }
        if not writers and not self._may_change_in_place(name):
            return None  # nothing can change it but an assignment
        text = ctx.text
        # (a look at the text first: most globals are never written into); only a list,
        # dict or set is changed by its methods (`buffer.add(...)` of another object may
        # return a new state and change nothing)
        touched = (f"{name}[" in text or f"{name}." in text) and _container(ctx, name)
        inplace = {
            w.name for w in ctx.index.units
            if w is not outer and w.parent is module and isinstance(w.node, cst.FunctionDef) and not w.traced
            and name not in w.assigned and any(_changes_in_place(n, name) for n in descendants(w.node))
        } if touched else set()
        uses: Optional[list] = None
        for i, stmt in enumerate(seq.stmts):
            if i <= def_at or isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
                continue
            found = self._change_in(stmt, name, writers, inplace, touched)
            if found is None:
                continue
            if uses is None:
                names, defined_at = self._names_of(outer, seq)
                uses = seq.uses(names, defined_at)
            if across(uses, i, def_at, seq) and not cleared_after(seq, uses, i):
                return found
        # ... or in the body of a function that drives it (`main()`: call, change, call)
        if not isinstance(outer.node, cst.FunctionDef) or not (touched or writers):
            return None
        for u in ctx.index.units:
            if u is outer or u.is_module or u.traced or not isinstance(u.node, cst.FunctionDef) \
                    or (name in u.assigned and name not in u.global_names) or _inside(u, outer):
                continue
            useq: Optional[Sequence] = None
            fuses: Optional[list] = None
            for n in descendants(u.node):
                if not _changes_in_place(n, name) and not (
                        type(n) is cst.Call and type(n.func) is cst.Name and n.func.value in writers | inplace):
                    continue
                useq = useq or self._seq(u)
                at = useq.index(n)
                if at is None:
                    continue
                found = self._change_in(useq.stmts[at], name, writers, inplace, touched)
                if found is None:
                    continue
                if fuses is None:
                    fuses = useq.uses({outer.name}, None)
                if across(fuses, at, None, useq):
                    return found
        return None

    @staticmethod
    def _change_in(stmt: cst.CSTNode, name: str, writers: set[str], inplace: set[str],
                   container: bool) -> Optional[tuple[str, cst.CSTNode]]:
        """What in ``stmt`` changes the global ``name`` without assigning it: (how, node).
        ``container``: ``name`` is a list/dict/set (any of their mutating methods counts;
        otherwise only a dict's ``update``/``setdefault``/``pop``/``clear``)."""
        methods = _MUTATORS if container else _DICT_MUTATORS
        for n in descendants(stmt):
            if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value in writers:
                return (f"`{n.func.value}` reassigns (`global {name}`) when it is called", n)
            if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value in inplace:
                return (f"`{n.func.value}` changes in place when it is called", n)
            if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) \
                    and isinstance(n.func.value, cst.Name) and n.func.value.value == name \
                    and n.func.attr.value in methods and (container or _fits_dict_method(n)):
                return (f"changes in place (`{name}.{n.func.attr.value}(...)`)", n)
            if isinstance(n, (cst.Assign, cst.AugAssign, cst.Del)) and _changes_in_place(n, name):
                return (f"changes in place (`{name}[...] = ...`)", n)
        return None

    def _closure_read(self, node: cst.Name, n: str, owner: Unit) -> None:
        """``n`` is a local of the enclosing function ``owner``: a closure variable.
        A caching transformation keeps the value it saw when it traced."""
        ctx = self.ctx
        unit = ctx.unit
        if owner.traced or n in ("self", "cls"):
            return
        outer = unit
        while outer.parent is not None and outer.parent is not owner:
            outer = outer.parent
        if outer.parent is not owner or not _jitted(outer):
            return
        seq = self._seq(owner)
        names, def_at = self._names_of(outer, seq)
        if def_at is None or not names:
            return
        if id(node) not in self._calls and self._set_through_setter(node, n, owner, outer):
            return
        assigns = [w for w in writes(owner.node, n) if seq.index(w) is not None
                   and not _attribute_store_unread(w, n, outer.node)]
        if len(assigns) < 2 or id(node) in self._calls and not all(_other_function(a, n) for a in assigns):
            return
        literal = {_literal_text(ctx, a) for a in assigns}
        if len(literal) == 1 and None not in literal:
            return
        if _recomputed_alike(ctx, owner, assigns, n):
            return  # `num_train, idx = train_init()` again each epoch: the same count
        uses = seq.uses(names, def_at)
        later = [a for a in assigns if seq.at[id(a)] > def_at and across(uses, seq.at[id(a)], def_at, seq)
                 and not cleared_after(seq, uses, seq.at[id(a)])]
        if not later:
            return
        self._reported.add((id(unit), n))
        how = f"changes in place (`{n}[...] = ...`)" if _changes_in_place(later[0], n) else "is reassigned"
        stored = _attribute_stores(later[0], n)
        if stored:
            how = f"changes in place (`{n}.{'.'.join(stored[0])} = ...`)"
        self.report(
            node,
            f"`{n}` is a local of `{owner.name}` that {how} (line {{related_line}}) after "
            f"`{_label(outer, names)}` has been called: the compiled function keeps the value it "
            "read when it was traced, so the later calls still use the old value until a retrace. "
            "Pass it as an argument",
            related=later[0],
        )

    def _set_through_setter(self, node: cst.Name, n: str, owner: Unit, outer: Unit) -> bool:
        """``n``, a local of ``owner`` read by the jitted closure ``outer``, is rebound by
        a sibling def (``def set_bias(b): nonlocal bias; bias = b``) that ``owner`` returns
        with ``outer`` (``return act, set_bias``), and the code that unpacks the two
        (``act, set_bias = make_policy(w)``) calls the setter between two calls of the
        jit: reported (True)."""
        setters = {name: u for name, u in owner.defs.items()
                   if n in u.nonlocal_names and n in u.assigned and u is not outer}
        if not setters:
            return False
        places: Optional[tuple[int, dict[int, str]]] = None
        for r in walk_tree(owner.node, lambda x: type(x) in (cst.FunctionDef, cst.Lambda, cst.ClassDef),
                           with_root=False):
            if not isinstance(r, cst.Return) or not isinstance(r.value, cst.Tuple):
                continue
            names = [_returned_name(self.ctx, e.value) for e in r.value.elements]
            if outer.name in names and any(x in setters for x in names):
                places = (names.index(outer.name), {i: x for i, x in enumerate(names) if x in setters})
        if places is None:
            return False
        at_fn, at_setters = places
        for scope in self._scopes():
            if scope is owner:
                continue
            seq = self._seq(scope)
            for i, stmt in enumerate(seq.stmts):
                if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1 \
                        or not isinstance(stmt.body[0], cst.Assign) or len(stmt.body[0].targets) != 1:
                    continue
                a = stmt.body[0]
                target = a.targets[0].target
                if not (isinstance(a.value, cst.Call) and isinstance(a.value.func, cst.Name)
                        and a.value.func.value == owner.name and isinstance(target, (cst.Tuple, cst.List))):
                    continue
                bound = [e.value.value if isinstance(e.value, cst.Name) else None for e in target.elements]
                if len(bound) <= max(at_fn, *at_setters) or bound[at_fn] is None:
                    continue
                uses = [u for u in seq.uses({bound[at_fn]}, i) if u[0] != i]
                for k, setter in at_setters.items():
                    if bound[k] is None:
                        continue
                    for j, _ in seq.uses({bound[k]}, i):
                        if j != i and across(uses, j, i, seq):
                            self._reported.add((id(self.ctx.unit), n))
                            self.report(
                                node,
                                f"`{n}` is a local of `{owner.name}` that `{setter}` reassigns "
                                f"(`nonlocal {n}`), and `{bound[k]}` is called (line {{related_line}}) "
                                f"between two calls of `{bound[at_fn]}`: the compiled function keeps "
                                "the value it read when it was traced, so the later calls still use "
                                "the old value until a retrace. Pass it as an argument",
                                related=next((c for c in descendants(seq.stmts[j]) if isinstance(c, cst.Call)
                                              and isinstance(c.func, cst.Name) and c.func.value == bound[k]),
                                             seq.stmts[j]),
                            )
                            return True
        return False

    # -- attributes read at trace time --------------------------------------------
    def _attribute(self, node: cst.Attribute) -> None:
        ctx = self.ctx
        base = node.value
        if isinstance(base, cst.Name):
            b = base.value
            dotted = f"{b}.{node.attr.value}"
        elif isinstance(base, cst.Attribute):
            # an attribute chain (`cfg.model.scale`) rooted at a name, not at `self`
            chain = dotted_name(node)
            if chain is None or chain.split(".", 1)[0] in ("self", "cls"):
                return
            b, dotted = chain.split(".", 1)[0], chain
        else:
            return
        unit = ctx.unit
        if (id(unit), dotted) in self._checked:
            return
        self._checked.add((id(unit), dotted))  # each attribute once per function
        if not _caching(unit):
            return
        if b == "self" and unit.cls is not None and unit.params and unit.params[0].name == "self":
            self._self_attribute(node, dotted, unit)
            return
        if b == "self":
            # a lambda or a def nested in a jitted method (`jax.tree.map(lambda p, g: p -
            # self.lr * g, ...)`): its `self` is the method's, read under the method's trace
            method = _enclosing_method(unit)
            if method is not None and method.traced and _caching(method):
                self._self_attribute(node, dotted, method)
            return
        # `config.lr`: an attribute of a module-level name (an imported module, a
        # namespace class, an object), set again in this file after a call
        u: Optional[Unit] = unit
        while u is not None and not u.is_module:
            if b in u.global_names or binds(u, b):
                return
            u = u.parent
        if self._changed_elsewhere(node, unit, dotted):
            return
        writes_of = self._writes().get(dotted)
        if not writes_of:
            return
        outer = _outermost(unit)
        for owner_node, w in writes_of:
            owner = self._unit_of(owner_node)
            if owner is None or owner.traced:
                continue
            seq = self._seq(owner)
            at = seq.index(w)
            if at is None:
                continue
            if owner.is_module:
                names, def_at = self._names_of(outer, seq)
                uses = seq.uses(names, def_at)
            else:
                def_at = None
                uses = seq.uses({outer.name}, None) if isinstance(outer.node, cst.FunctionDef) else []
            if not across(uses, at, def_at, seq) or cleared_after(seq, uses, at):
                continue
            self._reported.add((id(unit), dotted))
            self.report(
                node,
                f"`{dotted}` is set again (line {{related_line}}) after `{_label(outer, set())}` has "
                "been called: under jit the attribute is read once, at trace time, and baked into the "
                "compiled function, so the later calls still use the old value until a retrace. Pass "
                "it as an argument",
                related=w,
            )
            return

    def _imported_changed(self, node: cst.Name, unit: Unit) -> None:
        """``SCALES`` imported by name from a project module (``from pkg.config import
        SCALES``) and read here, that another module changes (in place:
        ``SCALES["a"] = 2.0``, ``config.LAYERS.append(3)``) between two calls of this
        function (or of the function it is nested in)."""
        if id(node) in self._calls:
            return
        q = self.ctx.qualname(node)
        if q is None or "." not in q:
            return
        m, a = q.rsplit(".", 1)
        # changed in place (a rebinding of the module's attribute leaves this name alone)
        changed = _changed_between(unit, (m, a + "[]"))
        if changed is not None:
            where, u = changed
            self._reported.add((id(unit), node.value))
            self.report(
                node,
                f"`{node.value}` (`{q}`) is changed in {where} between two calls of `{u.name}`: under "
                "jit its value is read once, at trace time, and baked into the compiled function, so the "
                "later calls still use the old value until a retrace. Pass it as an argument",
            )

    def _set_from_elsewhere(self, node: cst.Name, unit: Unit) -> bool:
        """``TEMPERATURE``, a global of this module, read here, that another module of
        the project sets between two calls of this function (or of the function it is
        nested in): ``sampling.TEMPERATURE = 0.1``, ``setattr(sampling, ...)``, or a call of
        a function of this module that rebinds it (``global TEMPERATURE``)."""
        own = self.ctx.settings.module
        if not own:
            return False
        changed = _changed_between(unit, (own, node.value))
        if changed is None:
            return False
        where, u = changed
        self._reported.add((id(unit), node.value))
        self.report(
            node,
            f"`{node.value}` is a module global that {where} sets again between two calls of "
            f"`{u.name}`: under jit its value is read once, at trace time, and baked into the "
            "compiled function, so the later calls still use the old value until a retrace. Pass "
            "it as an argument",
        )
        return True

    def _changed_elsewhere(self, node: cst.Attribute, unit: Unit, dotted: str) -> bool:
        """``settings.g`` read here, with ``settings`` a module of the project that
        another module sets (``settings.g = 10.``) between two calls of this function
        (or of the function it is nested in): reported, with that file."""
        q = self.ctx.qualname(node.value)
        if q is None:
            return False
        changed = _changed_between(unit, (q, node.attr.value), (q, node.attr.value + "[]"))
        if changed is None:
            return False
        where, u = changed
        self._reported.add((id(unit), dotted))
        self.report(
            node,
            f"`{dotted}` is set again in {where} between two calls of `{u.name}`: under jit "
            "the attribute is read once, at trace time, and baked into the compiled function, "
            "so the later calls still use the old value until a retrace. Pass it as an argument",
        )
        return True

    def _self_attribute(self, node: cst.Attribute, dotted: str, unit: Unit) -> None:
        """``self.x`` read in a method ``unit`` traced with ``self`` a Python object (a
        static argument, or the instance of a bound method given to jit), or in a lambda
        or def nested in it: a later ``obj.x = ...`` or a setter method is not seen by the
        cached trace."""
        ctx = self.ctx
        cls = unit.cls
        if cls is None or cls.is_jax_module or "self" in unit.traced_params or unit.name in _SETUP:
            return
        if cls.node.decorators or ctx.index.pytree_class(cls.name) is not None:
            # a dataclass or a registered pytree (by a decorator, a base, or a call such as
            # `tree_util.register_pytree_node(Cls, flatten, unflatten)`): `self` is flattened
            # under jit, its leaves traced and its aux data part of the cache key, so a
            # changed attribute is seen (or retraced): its own rules
            return
        if unit.reasons and all(r.startswith("called from") for r in unit.reasons):
            # traced only because traced code calls it (`trace(model).get_trace(x)` inside a
            # jitted function): the instance is whatever that trace holds, not jitted with it
            return
        elsewhere = {o[2] for o in unit.origins}
        if unit.reasons and all(r.startswith("called from") or r in elsewhere for r in unit.reasons):
            # jitted in another module (`jax.jit(svi.update)` there): whether a setter runs
            # between two calls of that jit on the same instance is that module's order,
            # which this file does not see
            return
        attr = node.attr.value
        changed = _changed_between(unit, (INSTANCE, attr))
        if changed is not None:
            # another module builds an instance and sets the attribute between two calls of
            # the method (`c.mul = False`, or a function of its own given `c`)
            where, u = changed
            self._reported.add((id(unit), dotted))
            self.report(
                node,
                f"`{dotted}` is read in `{unit.name}`, which is jitted with `self` a Python object, "
                f"and {where} sets it on an instance between two calls of `{u.name}`: the compiled "
                "function keeps the value read at its first trace, so later calls ignore the change. "
                "Pass it as an argument (or make the object a pytree)",
            )
            return
        # a setter: another method sets the attribute after construction (not one that
        # construction calls: configuration before the first call)
        setup_calls = {
            n.func.attr.value
            for name, m in cls.methods.items() if name in _SETUP
            for n in descendants(m.node)
            if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute)
            and isinstance(n.func.value, cst.Name) and n.func.value.value == "self"
        }
        for name, m in cls.methods.items():
            if m is unit or name in _SETUP or name in setup_calls or m.traced:
                continue
            ws = attribute_writes(m.node, dotted)
            if ws and self._rebuilt_by(m):
                continue  # the setter transforms the method anew on each call: traced again
            if ws and (self._invalidated_by(m, unit) or _lazy_setup(cls, m, ws, dotted, ctx.index.module)):
                # the setter drops the compiled function (a recompile flag, the attribute
                # holding the jitted method, `jax.clear_caches()`), or it is the one-time
                # setup that gives the attribute its first value: no trace sees a change
                continue
            if ws:
                self._reported.add((id(unit), dotted))
                self.report(
                    node,
                    f"`{dotted}` is read in `{unit.name}`, which is jitted with `self` a Python "
                    f"object, and `{name}` sets it (line {{related_line}}): the compiled function "
                    "keeps the value read at its first trace, so later calls ignore the change. "
                    "Pass it as an argument (or make the object a pytree)",
                    related=ws[0],
                )
                return
        # an instance built in the driving code, its attribute set between two calls
        setters = None
        for scope in self._scopes():
            seq = self._seq(scope)
            for i, stmt in enumerate(seq.stmts):
                for var, value in bindings(stmt):
                    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Name)
                            and value.func.value == cls.name):
                        continue
                    names = (unit.name, *self._holders(cls, unit))
                    uses = seq.uses({f"{var}.{n}" for n in names}, None)
                    called = next((n for n in names if seq.uses({f"{var}.{n}"}, None)), unit.name)
                    if setters is None:
                        setters = parameter_setters(ctx.index)
                    for stmt2 in seq.stmts[i + 1:]:
                        # `c.mul = False`, or `configure(c, False)` of a function of the file
                        # that sets `obj.mul` on that parameter
                        helped = [w for a, w in instance_writes(stmt2, var, setters)
                                  if a == attr and type(w) is cst.Call]
                        for w in attribute_writes(stmt2, f"{var}.{attr}") + helped:
                            at = seq.at[id(w)]
                            if across(uses, at, None, seq):
                                self._reported.add((id(unit), dotted))
                                self.report(
                                    node,
                                    f"`{var}.{attr}` is set again (line {{related_line}}) after "
                                    f"`{var}.{called}` has been called: it is jitted with `self` "
                                    "a Python object, so the compiled function keeps the value "
                                    "read at its first trace and the later calls ignore the "
                                    "change. Pass it as an argument (or make the object a pytree)",
                                    related=w,
                                )
                                return

    def _holders(self, cls, unit: Unit) -> tuple[str, ...]:
        """The attributes the class's methods keep a jit of the method ``unit`` in
        (``self.step = jax.jit(self._step)`` in ``__init__``: ``step``), so that the
        driving code's ``t.step(...)`` calls it."""
        out = []
        for site in self.ctx.index.sites:
            if site.call is None or site.scope.cls is not cls or not any(
                    isinstance(n, cst.Attribute) and n.attr.value == unit.name and isinstance(n.value, cst.Name)
                    and n.value.value == "self" for n in walk_tree(site.fn_expr)):
                continue
            for n in walk_tree(site.scope.node):
                if isinstance(n, cst.Assign) and n.value is site.call:
                    for t in n.targets:
                        if isinstance(t.target, cst.Attribute) and isinstance(t.target.value, cst.Name) \
                                and t.target.value.value == "self":
                            out.append(t.target.attr.value)
        return tuple(out)

    def _rebuilt_by(self, setter: Unit) -> bool:
        """Is every transformation of this class's methods written in the file applied
        in ``setter`` (``run`` sets ``self._args`` and calls ``pmap(partial(self.step,
        ...))``)?  Each call of the setter then traces a new function object, which reads
        the attribute it has just set: no trace is kept across the change."""
        cls = setter.cls
        own = []
        for site in self.ctx.index.sites:
            if site.target is not None and site.target.cls is cls:
                own.append(site)  # a decorated method: traced once, cached
            elif site.scope.cls is cls and _of_self(site.fn_expr, site.scope):
                own.append(site)
        return bool(own) and all(site.scope is setter and site.call is not None for site in own)

    def _invalidated_by(self, setter: Unit, unit: Unit) -> bool:
        """Does ``setter`` make the next call of ``unit`` trace anew?  It clears JAX's
        caches (``jax.clear_caches()``), or every transformation of ``unit`` is applied
        at call time in a method of the class (``self._step = jax.jit(self._kernel)``)
        and the setter resets what that method keeps: the attribute the jitted function
        is stored in (``self._step = None``) or a flag its guard reads (``self._compiled =
        False`` with ``if self._compiled: return`` before the jit)."""
        if _clears_caches(setter.node):
            return True
        cls = setter.cls
        mine = []
        for site in self.ctx.index.sites:
            if site.target is unit:
                return False  # a decorated method: its trace is kept with the class
            if site.scope.cls is cls and site.call is not None and _of_self(site.fn_expr, site.scope):
                mine.append(site)
        named = [s for s in mine if any(isinstance(n, cst.Attribute) and n.attr.value == unit.name
                                        and isinstance(n.value, cst.Name) and n.value.value == "self"
                                        for n in walk_tree(s.fn_expr))]
        sites = named or mine
        if not sites:
            return False
        reset = set(self_writes(setter.node, nested=False) or ())
        for site in sites:
            if site.scope is setter or not (reset & _keeps(site)):
                return False
        return True

    def _scopes(self) -> list[Unit]:
        return [u for u in self.ctx.index.units
                if (u.is_module or isinstance(u.node, cst.FunctionDef)) and not u.traced and u.cls is None]

    def _unit_of(self, node: cst.CSTNode) -> Optional[Unit]:
        for u in self.ctx.index.units:
            if u.node is node:
                return u
        return None

    def _writes(self) -> dict[str, list[tuple[cst.CSTNode, cst.CSTNode]]]:
        """Assignments to ``name.attr`` (not ``self``) in the module's statements and its
        top-level functions: dotted target -> [(scope node, assignment)]."""
        if self._attr_writes is None:
            out: dict[str, list[tuple[cst.CSTNode, cst.CSTNode]]] = {}
            for scope in self._scopes():
                # (statements only: an assignment is never inside an expression)
                for n in walk_tree(scope.node, _not_a_block, with_root=False, source_order=True):
                    targets: list[cst.CSTNode] = []
                    if isinstance(n, cst.Assign):
                        targets = [t.target for t in n.targets]
                    elif isinstance(n, (cst.AugAssign, cst.AnnAssign)):
                        targets = [n.target]
                    for t in targets:
                        chain = dotted_name(t) if isinstance(t, cst.Attribute) else None
                        if chain is not None and chain.split(".", 1)[0] not in ("self", "cls"):
                            out.setdefault(chain, []).append((scope.node, n))
            self._attr_writes = out
        return self._attr_writes

    def _rebound_after_call(self, name: str, outer: Unit) -> Optional[tuple[str, cst.CSTNode]]:
        """A function of the file that declares ``global name`` and assigns it after it
        called ``outer`` (the traced function): (its name, the assignment)."""
        writers = self._writers_of(name)
        if not writers:
            return None
        # the jit, or a helper of the file that calls it (`model` calling the jitted `apply`)
        callees = {outer.name} | ({c.name for c in driving_callers(self.ctx.index, outer)} if _jitted(outer) else set())
        for w in writers:
            if w is outer:
                continue
            bound = {id(b) for b in writes(w.node, name)}
            called = None
            for n in descendants(w.node):
                if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value in callees:
                    called = called or n.func.value
                elif called and id(n) in bound:
                    self._late_callee[id(n)] = called
                    return w.name, n
        return None


def _of_self(expr: cst.CSTNode, method: Unit) -> bool:
    """Does ``expr`` (the function a transformation is given in ``method``) use the
    instance: ``self.step``, ``partial(self.step, ...)``, a lambda calling a method,
    or a local bound to one of those?"""
    exprs = [expr]
    if isinstance(expr, cst.Name):
        exprs += [v for _, v in method.bindings.get(expr.value, ()) if v is not None]
    return any(isinstance(n, cst.Name) and n.value == "self" for e in exprs for n in walk_tree(e))


# the nodes that hold statements, not crossing into a nested function or class
_BLOCKS = frozenset(t for t in (cst.IndentedBlock, cst.SimpleStatementSuite, cst.SimpleStatementLine, cst.If,
                                cst.Else, cst.For, cst.While, cst.With, cst.Try, getattr(cst, "TryStar", None),
                                cst.ExceptHandler, getattr(cst, "ExceptStarHandler", None), cst.Finally,
                                cst.Match, cst.MatchCase) if t is not None)


def _not_a_block(n: cst.CSTNode) -> bool:
    return type(n) not in _BLOCKS


def _clears_caches(node: cst.CSTNode) -> bool:
    """Does ``node`` call ``jax.clear_caches()`` (every cached trace dropped)?"""
    return any(isinstance(n, cst.Call) and (dotted_name(n.func) or "").rsplit(".", 1)[-1] == "clear_caches"
               for n in descendants(node))


def _keeps(site) -> set[str]:
    """What the method applying a transformation at call time keeps of it: the
    ``self`` attribute its result is stored in, and the ``self`` attributes read by
    the tests of the ``if`` statements that guard it (enclosing it, or before it and
    leaving the method: ``if self._compiled: return``)."""
    body = site.scope.node
    out: set[str] = set()
    if not isinstance(body, cst.FunctionDef):
        return out
    for n in walk_tree(body, lambda c: c is not body and isinstance(c, (cst.FunctionDef, cst.Lambda, cst.ClassDef)),
                       source_order=True):
        if isinstance(n, cst.Assign) and any(c is site.call for c in walk_tree(n.value)):
            out.update(t.target.attr.value for t in n.targets
                       if isinstance(t.target, cst.Attribute) and isinstance(t.target.value, cst.Name)
                       and t.target.value.value == "self")
        elif isinstance(n, (cst.If, cst.While)) and (
                any(c is site.call for c in walk_tree(n.body)) or any(
                    isinstance(c, (cst.Return, cst.Raise)) for c in walk_tree(n.body))):
            out.update(a.attr.value for a in walk_tree(n.test)
                       if isinstance(a, cst.Attribute) and isinstance(a.value, cst.Name) and a.value.value == "self")
        elif n is site.call:
            break
    return out


def _lazy_setup(cls, setter: Unit, ws: list[cst.CSTNode], dotted: str, module: cst.Module) -> bool:
    """Is ``setter`` the one-time setup that gives ``self.attr`` its first value
    (``load_params``, ``_initialize_train``)?  Construction leaves the attribute
    unset or ``None`` (the jitted method cannot run before the setter), and the value
    written is computed there, not handed in by the caller (``def set_w(self, w):
    self.w = w`` is a setter that changes it between calls), and the setup runs once
    (``_runs_once``): a setter that recomputes the value before every call of the
    jitted function leaves its trace with the first value."""
    for name in _SETUP:
        m = cls.methods.get(name)
        if m is not None and any(not _is_none(getattr(w, "value", w)) for w in attribute_writes(m.node, dotted)):
            return False
    attr = dotted.split(".", 1)[1]
    for stmt in cls.node.body.body:
        for small in getattr(stmt, "body", ()) if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, (cst.Assign, cst.AnnAssign)):
                targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
                if any(isinstance(t, cst.Name) and t.value == attr for t in targets) and small.value is not None \
                        and not _is_none(small.value):
                    return False
    params = {p.name for p in setter.params[1:]}
    for w in ws:
        if not isinstance(w, (cst.Assign, cst.AnnAssign)) or w.value is None:
            return False  # an update (`+=`) or a setattr: a change
        attrs = {id(n.attr) if isinstance(n, cst.Attribute) else id(n.keyword)
                 for n in walk_tree(w.value) if isinstance(n, cst.Attribute) or isinstance(n, cst.Arg) and n.keyword}
        if any(isinstance(n, cst.Name) and n.value in params and id(n) not in attrs for n in walk_tree(w.value)):
            return False
    return _runs_once(cls, setter, module)

def _runs_once(cls, setter: Unit, module: cst.Module, depth: int = 0) -> bool:
    """Does ``setter`` run at most once before the jitted method's first call, as far as
    this file shows?  It guards itself (``if self._ready: return`` first, or its writes
    under ``if self.x is None:``), or every call of it in the class is under such a
    guard on an attribute it sets (``if self._opt is None: self._init_train()``), or in
    a method that itself runs once so (``_initialize_train``, called only under ``if
    self._train_input is None:``, which it sets, calls ``self._make_opt()``), and
    no code of the file calls it on an instance in a loop (``for b in batches:
    m.refresh(); m.step(b)``).  A setter called unguarded from another method (before
    each call of the jitted function) runs again and again."""
    name = setter.name
    sets = self_writes(setter.node, nested=False) or []
    node = setter.node
    if isinstance(node, cst.FunctionDef) and isinstance(node.body, cst.IndentedBlock):
        stmts = node.body.body
        if stmts and isinstance(stmts[0], cst.SimpleStatementLine) and isinstance(stmts[0].body[0], cst.Expr) \
                and isinstance(stmts[0].body[0].value, (cst.SimpleString, cst.ConcatenatedString)):
            stmts = stmts[1:]  # the docstring
        first = stmts[0] if stmts else None
        if isinstance(first, cst.If) and _leaves(first.body) and _done_test(first.test, sets, done=True):
            return True  # `if self._ready: return` (or `if self.x is not None: return`)
        if (sets or not depth) and all(_under_guard(node, w, sets) for w in _writes_of(node, sets)):
            return True  # every write under `if self.x is None:` / `if not self._ready:`
    calls = 0
    for m in cls.methods.values():
        if m is setter or not isinstance(m.node, cst.FunctionDef):
            continue
        for n in descendants(m.node):
            if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == name \
                    and isinstance(n.func.value, cst.Name) and n.func.value.value == "self":
                calls += 1
                if not _guarded_call(m.node, n, sets) and not _one_time_caller(cls, m, name, module) \
                        and not (depth < 2 and m.name not in _SETUP and not m.traced
                                 and _runs_once(cls, m, module, depth + 1)):
                    return False
    if depth and not calls:
        return False  # a caller no method calls: only its own guard would show it runs once
    # code of the file calling it on an instance in a loop
    return not _called_in_loop(module, name)


def _one_time_caller(cls, caller: Unit, setter: str, module: cst.Module) -> bool:
    """Is ``caller`` (a method calling the setup ``setter``) itself a one-time entry
    (``load_params`` handing over to ``_load_params_nnx``): no method of the class calls
    it (construction aside), no code of the file calls it in a loop, and it calls no
    jitted method of the class nor an attribute that may hold a jitted function (a
    ``step`` that refreshes the value and then calls the jit runs again and again)?"""
    own = caller.name
    for name, m in cls.methods.items():
        if name in _SETUP or not isinstance(m.node, cst.FunctionDef):
            continue
        for n in descendants(m.node):
            if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == own \
                    and isinstance(n.func.value, cst.Name) and n.func.value.value == "self":
                return False
    if _called_in_loop(module, own):
        return False
    for n in descendants(caller.node):
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and isinstance(n.func.value, cst.Name) \
                and n.func.value.value == "self" and n.func.attr.value != setter:
            m = cls.methods.get(n.func.attr.value)
            if m is None or m.traced:
                return False
    return True


def _leaves(block: cst.CSTNode) -> bool:
    """Does ``block`` leave the function (a ``return`` or ``raise`` in it)?"""
    return any(isinstance(n, (cst.Return, cst.Raise)) for n in descendants(block))


def _done_test(test: cst.BaseExpression, sets: list[str], done: bool) -> bool:
    """Is ``test`` true when the setup is ``done`` (else: when it is not yet): a flag the
    setup sets (``self._ready``, ``not self._ready``) or an attribute it gives a value
    tested against None (``self.x is not None`` / ``self.x is None``)?"""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _done_test(test.expression, sets, not done)
    if isinstance(test, cst.BooleanOperation):
        # leaving once done: `if self._ready or ...: return` (one part suffices), `and`
        # (every part); running the setup only while not done: `if self._opt is None and
        # ...:` (one part suffices), `if self.x is None or self.y is None:` (every part)
        parts = (test.left, test.right)
        if isinstance(test.operator, cst.Or) == done:
            return any(_done_test(t, sets, done) for t in parts)
        return all(_done_test(t, sets, done) for t in parts)
    attr = _self_attr(test)
    if attr is not None:
        return done and attr in sets
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        op, right = test.comparisons[0].operator, test.comparisons[0].comparator
        attr = _self_attr(test.left)
        if attr in sets and isinstance(right, cst.Name) and right.value == "None":
            return isinstance(op, cst.IsNot) == done and isinstance(op, (cst.Is, cst.IsNot))
    return False


def _self_attr(e: cst.CSTNode) -> Optional[str]:
    if isinstance(e, cst.Attribute) and isinstance(e.value, cst.Name) and e.value.value == "self":
        return e.attr.value
    return None


def _writes_of(fn: cst.CSTNode, sets: list[str]) -> list[cst.CSTNode]:
    return [w for a in set(sets) for w in attribute_writes(fn, f"self.{a}")]


def _under_guard(fn: cst.CSTNode, target: cst.CSTNode, sets: list[str]) -> bool:
    """Is ``target`` (a node of function ``fn``) in the body of an ``if`` that runs
    only while the setup is not done (``if self.x is None:``, ``if not self._ready:``),
    or after one that leaves the function once it is (``if self._ready: return``)?"""
    for n in walk_tree(fn, lambda c: c is not fn and isinstance(c, (cst.FunctionDef, cst.Lambda, cst.ClassDef)),
                       source_order=True):
        if n is target:
            return False
        if not isinstance(n, cst.If):
            continue
        if any(c is target for c in walk_tree(n.body)) and _done_test(n.test, sets, done=False):
            return True
        if _leaves(n.body) and not any(c is target for c in walk_tree(n)) and _done_test(n.test, sets, done=True):
            return True
    return False


def _guarded_call(fn: cst.CSTNode, call: cst.Call, sets: list[str]) -> bool:
    return _under_guard(fn, call, sets)


def _loop_binds(loop: cst.CSTNode) -> set[str]:
    """The names a loop binds to a new object: its target, and names its body assigns
    (``m = Model(cfg)``; not ``m.epoch += 1``, which changes the object)."""
    out = {n.value for n in bound_names(loop.target)} if isinstance(loop, cst.For) else set()
    for n in descendants(loop):
        if isinstance(n, cst.AssignTarget):
            out.update(x.value for x in bound_names(n.target))
        elif isinstance(n, (cst.AnnAssign, cst.NamedExpr)):
            out.update(x.value for x in bound_names(n.target))
    return out


def _called_in_loop(module: cst.Module, name: str) -> bool:
    """Does code of the file call ``obj.<name>(...)`` (not on ``self``) inside a loop,
    on the same instance in every iteration (not ``for cfg in cfgs: m = Model(cfg);
    m.load()``, nor ``for m in models: m.load()``: each instance set up once)?"""
    stack: list[tuple[cst.CSTNode, tuple]] = [(module, ())]
    while stack:
        n, loops = stack.pop()
        if loops and isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == name \
                and not (isinstance(n.func.value, cst.Name) and n.func.value.value == "self"):
            base = dotted_name(n.func.value)
            head = base.split(".", 1)[0] if base is not None else None
            if head is None or not any(head in _loop_binds(loop) for loop in loops):
                return True
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            loops = ()
        inner = loops + (n,) if isinstance(n, (cst.For, cst.While)) else loops
        stack.extend((c, inner) for c in children(n))
    return False


def _is_none(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


_SETUP = ("__init__", "__post_init__", "setup", "__setstate__", "__new__")
# transformations that do not cache a trace: each call traces again and reads anew
_UNCACHED = ("jax.vmap", "jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.hessian",
             "jax.jvp", "jax.vjp", "jax.linearize", "jax.checkpoint", "jax.remat")


def _returned_name(ctx, e: cst.BaseExpression) -> Optional[str]:
    """The local function a returned element names: ``act``, or ``apply`` of
    ``jax.jit(apply)`` (a transformation's first argument)."""
    if isinstance(e, cst.Call) and e.args and e.args[0].keyword is None and not e.args[0].star \
            and apis.transform_for(ctx.qualname(e.func)) is not None:
        e = e.args[0].value
    return e.value if isinstance(e, cst.Name) else None


def _enclosing_method(unit: Unit) -> Optional[Unit]:
    """The method whose ``self`` a lambda or def nested in it reads (none of the
    functions between binds ``self``): the method, else None."""
    u: Optional[Unit] = unit
    while u is not None and not u.is_module and u.cls is None:
        if any(p.name == "self" for p in u.params) or "self" in u.assigned:
            return None
        u = u.parent
    if u is None or u is unit or u.cls is None or not u.params or u.params[0].name != "self":
        return None
    return u


def _caching(unit: Unit) -> bool:
    """Does ``unit`` (or the function it is nested in) run under a transformation that
    caches its trace (jit, pmap, the lax loops and conditionals), as far as this file
    tells?  A helper traced only through its callers counts (its caller's trace is cached)."""
    u: Optional[Unit] = unit
    while u is not None and not u.is_module:
        own = [r for r in u.reasons if r.startswith(("decorated with", "wrapped by", "a body passed to"))]
        if any(not r.endswith(_UNCACHED) for r in own):
            return True
        if u.reasons and not own and not all(r.endswith(_UNCACHED) for r in u.reasons):
            return True  # traced as a helper of traced code (not only of `jax.vmap`'d code)
        u = u.parent
    return False


def _is_assert_call(node: cst.Call) -> bool:
    f = node.func
    name = f.attr.value if isinstance(f, cst.Attribute) else f.value if isinstance(f, cst.Name) else ""
    return name.lower().startswith("assert")


def _jitted(unit: Unit) -> bool:
    """Is ``unit`` itself handed to a jit-like transformation (jit, pmap, filter_jit)?
    Its cache is kept with the function object, across calls of the code around it."""
    return any(r.startswith(("decorated with", "wrapped by")) and r.rsplit(".", 1)[-1].endswith(("jit", "pmap"))
               for r in unit.reasons)


def _outermost(unit: Unit) -> Unit:
    outer = unit
    while outer.parent is not None and not outer.parent.is_module:
        outer = outer.parent
    return outer


def _label(outer: Unit, names: set[str]) -> str:
    if isinstance(outer.node, cst.FunctionDef):
        return outer.name
    return sorted(names)[0] if names else "the lambda"


def _other_function(stmt: cst.CSTNode, name: str) -> bool:
    """Does ``stmt`` bind ``name`` to another function (a lambda, or a function named
    by a dotted name) rather than a wrapper of itself (``f = jax.jit(f)``)?"""
    value = getattr(stmt, "value", None)
    if isinstance(value, cst.Lambda):
        return True
    if isinstance(value, (cst.Name, cst.Attribute)):
        return not any(isinstance(n, cst.Name) and n.value == name for n in (value, *descendants(value)))
    return False


# methods of dict/list/set that change the container in place
_MUTATORS = frozenset({"update", "setdefault", "pop", "popitem", "clear", "append", "extend", "insert",
                       "remove", "add", "discard", "sort", "reverse"})


_DICT_MUTATORS = frozenset({"update", "setdefault", "pop", "clear"})
# the most positional arguments each takes on a dict (`d.update(other)`, `d.pop(k, default)`)
_DICT_ARITY = {"update": 1, "setdefault": 2, "pop": 2, "clear": 0}


def _fits_dict_method(call: cst.Call) -> bool:
    """Can ``call`` (``x.update(...)``...) be a dict's own method: no more positional
    arguments than the dict's takes, and keywords only for ``update``?  An optimizer's
    ``opt.update(grads, state, params)`` returns new values and changes nothing."""
    method = call.func.attr.value  # type: ignore[attr-defined]
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if len(positional) > _DICT_ARITY.get(method, 0):
        return False
    return method == "update" or all(a.keyword is None for a in call.args)


def _attribute_stores(stmt: cst.CSTNode, name: str) -> Optional[list[tuple[str, ...]]]:
    """The attribute paths ``stmt`` stores into ``name`` (``cfg.a.b = v``: ``("a", "b")``)
    when all its targets are such stores, else None."""
    t = type(stmt)
    if t is cst.Assign:
        targets = [x.target for x in stmt.targets]  # type: ignore[attr-defined]
    elif t is cst.AugAssign or t is cst.AnnAssign:
        targets = [stmt.target]  # type: ignore[attr-defined]
    else:
        return None
    paths = []
    for x in targets:
        dotted = dotted_name(x) if type(x) is cst.Attribute else None
        if dotted is None or dotted.split(".", 1)[0] != name:
            return None
        paths.append(tuple(dotted.split(".")[1:]))
    return paths


def _attribute_store_unread(stmt: cst.CSTNode, name: str, traced: cst.CSTNode) -> bool:
    """Is ``stmt`` a store into attributes of ``name`` (``config.cost = {}``) that the
    traced function ``traced`` never reads: it reads ``name`` only through other
    attributes (``config.network.size``), never whole (handed to a call, returned) nor
    through a method?  Such a store changes nothing the compiled function baked in."""
    stores = _attribute_stores(stmt, name)
    if not stores:
        return False
    reads: list[tuple[str, ...]] = []
    bare = direct = 0
    for m in descendants(traced):
        t = type(m)
        if t is cst.Name and m.value == name:
            bare += 1
        elif t is cst.Attribute:
            dotted = dotted_name(m)
            if dotted is not None and dotted.split(".", 1)[0] == name:
                reads.append(tuple(dotted.split(".")[1:]))
                if type(m.value) is cst.Name:
                    direct += 1
        elif t is cst.Call and type(m.func) is cst.Attribute:
            dotted = dotted_name(m.func)
            if dotted is not None and dotted.split(".", 1)[0] == name:
                return False  # a method of it runs: what it reads is unknown
    if bare > direct:
        return False  # used whole
    return not any(r[:len(s)] == s or s[:len(r)] == r for r in reads for s in stores)


def _changes_in_place(n: cst.CSTNode, name: str) -> bool:
    """Is ``n`` an item write into ``name`` (``name[k] = v``, ``name[k] += v``, ``del
    name[k]``) or a call of one of its mutating methods (``name.append(v)``)?"""
    t = type(n)
    if t is cst.Call:
        f = n.func  # type: ignore[attr-defined]
        return type(f) is cst.Attribute and type(f.value) is cst.Name and f.value.value == name \
            and f.attr.value in _MUTATORS
    if t is cst.Assign:
        targets = [x.target for x in n.targets]  # type: ignore[attr-defined]
    elif t is cst.AugAssign or t is cst.Del:
        targets = [n.target]  # type: ignore[attr-defined]
    else:
        return False
    return any(type(x) is cst.Subscript and type(x.value) is cst.Name and x.value.value == name for x in targets)


def _inside(u: Unit, outer: Unit) -> bool:
    p: Optional[Unit] = u
    while p is not None:
        if p is outer:
            return True
        p = p.parent
    return False


def _container(ctx, name: str) -> bool:
    """Is the module global ``name`` bound only to list/dict/set displays (or
    ``list()``/``dict()``/``set()`` calls)?"""
    stmts = ctx.index.module_assignments.get(name) or []
    if not stmts:
        return False
    for st in stmts:
        v = getattr(st, "value", None)
        if isinstance(v, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)):
            continue
        if isinstance(v, cst.Call) and ctx.builtin_name(v.func) in ("list", "dict", "set"):
            continue
        return False
    return True


def _changed_between(unit: Unit, *keys: tuple[str, str]) -> Optional[tuple[str, Unit]]:
    """Where another module changes one of ``keys`` (module, attribute) between two calls
    of ``unit`` or of a function it is nested in (``Unit.attr_changes``), and that
    function; None when none does."""
    u: Optional[Unit] = unit
    while u is not None and not u.is_module:
        for key in keys:
            where = u.attr_changes.get(key)
            if where is not None:  # (a file's path)
                return where, u
        u = u.parent
    return None


def _read_outside_print(ctx, node: cst.CSTNode, kind: type, text: str, printing: bool) -> bool:
    """Does ``node`` (a function's body; not the functions, lambdas and classes defined
    in it) hold an expression of type ``kind`` written ``text`` outside the arguments of
    a builtin ``print(...)``, not called?"""
    for child in node.children:
        if isinstance(child, (cst.FunctionDef, cst.Lambda, cst.ClassDef)) and child is not node:
            continue
        if type(child) is cst.Call:
            inner = printing or ctx.builtin_name(child.func) == "print"
            called = type(child.func) is kind and ctx.code(child.func) == text
            if not called and _read_outside_print(ctx, child.func, kind, text, printing):
                return True
            if any(_read_outside_print(ctx, a, kind, text, inner) for a in child.args):
                return True
            continue
        if not printing and type(child) is kind and ctx.code(child) == text:
            return True
        if _read_outside_print(ctx, child, kind, text, printing):
            return True
    return False
