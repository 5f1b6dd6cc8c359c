"""Round 23, globC: the model's facts behind JAX402/JAX403 for an unpacking
assignment (model/unpacking.py): each target of ``_, self.key = jax.random.split(...)``
or ``state, n = x * 2, 3`` receives its own element.  Each INVALID program has a VALID
twin that stays silent."""

from project_files import lint_files

_STORED = ("it stores a tracer in the object (UnexpectedTracerError when read later), and compiled calls never "
           "repeat it. Pass the state in as an argument and return the new state")


def _self_msg(attr: str, method: str) -> str:
    return f"`self.{attr}` is assigned inside traced method `{method}`: {_STORED}"


def _global_msg(name: str, fn: str, kind: str = "global") -> str:
    return (f"`{name}` is {kind}: assigning it a traced value inside `{fn}` leaks the tracer out of the trace; "
            "using it afterwards raises UnexpectedTracerError, and cached calls never assign it. Return the value instead")


# recall case 1516 (tornadox EnK1.attempt_step, jitted with self static): `_, self.prng_key =
# jax.random.split(self.prng_key)` stores a tracer on the solver (jax 0.10.2: the attribute is a
# DynamicJaxprTracer after the first call, and the second call replays the same draw)
_SELF_SOLVER = """\
from functools import partial

import jax
import jax.numpy as jnp

from keys import fresh


class Solver:
    def __init__(self, key):
        self.key = key
        self.steps = 0

    @partial(jax.jit, static_argnums=0)
    def step(self, x):
        _, self.key = jax.random.split(self.key)
        return x

    @partial(jax.jit, static_argnums=(0,))
    def step2(self, x):
        [self.key, sub] = fresh(self.key)
        self.last, n = jnp.sin(x), 3
        return x + jax.random.normal(sub)
"""
_SELF_KEYS = """\
import jax


def fresh(key):
    return jax.random.split(key)
"""
# the twin: the key goes in and out; Python values unpacked onto self are one-off settings
_SELF_SOLVER_VALID = """\
from functools import partial

import jax
import jax.numpy as jnp

from keys import fresh


class Solver:
    def __init__(self, key):
        self.key = key

    @partial(jax.jit, static_argnums=0)
    def step(self, x, key):
        key, sub = jax.random.split(key)
        return x + jax.random.normal(sub), key

    @partial(jax.jit, static_argnums=(0,))
    def step2(self, x, key):
        [key, sub] = fresh(key)
        last, self.n = jnp.sin(x), 3
        return last + jax.random.normal(sub), key

    def advance(self):
        _, self.key = jax.random.split(self.key)
"""


def test_self_attribute_unpacked_from_a_traced_value(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"solver.py": _SELF_SOLVER, "keys.py": _SELF_KEYS}, select="JAX403")
    assert found == [
        ("JAX403", "solver.py", 16, 12, _self_msg("key", "step")),
        # (what `fresh` of another module returns is not known here: the attribute is still
        # rebound from what the method reads, once, at trace time)
        ("JAX403", "solver.py", 21, 10, "`self.key` is assigned inside traced method `step2`: the update runs "
         "once, at trace time: compiled calls never repeat it. Pass the state in as an argument and return the new state"),
        ("JAX403", "solver.py", 22, 9, _self_msg("last", "step2")),
    ]


def test_self_attribute_unpacked_valid_twin(tmp_path, monkeypatch):
    files = {"solver.py": _SELF_SOLVER_VALID, "keys.py": _SELF_KEYS}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX403") == []


# a global (or an escaping nonlocal) bound by an unpacking assignment in traced code: jax 0.10.2
# leaves a DynamicJaxprTracer in `state` after `f(jax.random.PRNGKey(0))`
_GLOBAL_MAIN = """\
import jax
import jax.numpy as jnp

import helpers as h

state = None
count = 0


@jax.jit
def f(key):
    global state
    _, state = jax.random.split(key)
    return key


@jax.jit
def g(x):
    global state, count
    (state, y), count = h.pair(x), 2
    return y


def outer(xs):
    last = None

    def body(c, x):
        nonlocal last
        last, c2 = c + x, c
        return c2, None

    return jax.lax.scan(body, 0.0, xs), last
"""
_GLOBAL_HELPERS = """\
import jax.numpy as jnp


def pair(x):
    return jnp.sin(x), jnp.cos(x)
"""
# the twins: the traced values are returned; the globals get Python values (a one-off setting)
_GLOBAL_MAIN_VALID = """\
import jax
import jax.numpy as jnp

import helpers as h

state = None
count = 0


@jax.jit
def f(key):
    global count
    _, new = jax.random.split(key)
    count, label = 3, "split"
    return new


@jax.jit
def g(x):
    global count
    (s, y), count = h.pair(x), 2
    return s + y


def outer(xs):
    last = None

    def body(c, x):
        nonlocal last
        c2, last = c + x, "seen"
        return c2, None

    return jax.lax.scan(body, 0.0, xs), last
"""


def test_global_unpacked_from_a_traced_value(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"main.py": _GLOBAL_MAIN, "helpers.py": _GLOBAL_HELPERS}, select="JAX402")
    assert found == [
        ("JAX402", "main.py", 13, 8, _global_msg("state", "f")),
        ("JAX402", "main.py", 20, 6, _global_msg("state", "g")),
        ("JAX402", "main.py", 29, 9, _global_msg("last", "body", "nonlocal")),
    ]


def test_global_unpacked_valid_twin(tmp_path, monkeypatch):
    files = {"main.py": _GLOBAL_MAIN_VALID, "helpers.py": _GLOBAL_HELPERS}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX402") == []


# recall case 460 (jax#9085): in a function differentiated outside jit, an integer or boolean
# result carries no derivative and is a concrete array (jax 0.10.2 under jax.grad and jax.vjp:
# `print(mu.astype(int))` prints 5, `print(mu > 3)` True, `print(lax.stop_gradient(mu))` 5.0),
# while a float result stays a GradTracer (`print(mu.astype(jnp.float32))`)
_GRAD_MAIN = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from show import report


def func(mu):
    print(mu.astype(int))
    print(jnp.int32(mu), mu.astype("uint8"), jnp.asarray(mu, dtype=np.int64))
    print(mu > 3, jnp.isnan(mu), ~(mu > 3))
    print(lax.stop_gradient(mu))
    n = mu.astype(jnp.int32)
    print(n + 1)
    report(mu)
    print(mu.astype(jnp.float32))
    print(jnp.where(mu > 3, mu, 0.0))
    return mu


g = jax.grad(func)(jnp.array(5.0))
"""
_GRAD_SHOW = """\
import jax
import jax.numpy as jnp


def report(x):
    print("rounded", jnp.round(x).astype(bool), x.astype(dtype=jnp.uint32))
    print("value", x)


def loss(x):
    print("step", jnp.argmax(x), x.astype(int))
    print("x", x * 2)
    return jnp.sum(x ** 2)


out, pullback = jax.vjp(loss, jnp.ones(3))
"""


def test_integer_and_boolean_results_are_concrete_under_grad(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"main.py": _GRAD_MAIN, "show.py": _GRAD_SHOW}, select="JAX401")
    assert [(f[1], f[2], f[3]) for f in found] == [
        ("main.py", 17, 5), ("main.py", 18, 5),
        ("show.py", 7, 5), ("show.py", 12, 5),
    ]
    assert found[0][4].startswith("`print` in `func`, differentiated by jax.grad, prints a tracer (e.g. `GradTracer(primal=1.0, ...)`)")
    assert found[3][4].startswith("`print` in `loss`, differentiated by jax.vjp, prints a tracer")


def test_integer_results_stay_tracers_under_jit(tmp_path, monkeypatch):
    files = {"main.py": _GRAD_MAIN.replace("g = jax.grad(func)", "g = jax.jit(func)"), "show.py": _GRAD_SHOW}
    found = lint_files(tmp_path, monkeypatch, files, select="JAX401")
    assert [(f[1], f[2]) for f in found if f[1] == "main.py"] == [
        ("main.py", 10), ("main.py", 11), ("main.py", 12), ("main.py", 13), ("main.py", 15),
        ("main.py", 17), ("main.py", 18),
    ]


# recall cases 422/423 (JAX FAQ, "jit changes the behavior of my function"): the stale global
# is reported where the function computes with it, not where a print shows it (jax 0.10.2:
# `impure_func` returns 0., 1., 2. for y, scale = 0, 1.; 1, 2.; 2, 3., the values of the first trace)
_PRINTED_MAIN = """\
import jax
import jax.numpy as jnp

import settings
from settings import scale_of

y = 0


@jax.jit
def impure_func(x):
    print("Inside:", y, "scale", settings.scale)
    z = x * settings.scale
    return z + y


@jax.jit
def only_printed(x):
    print("y is", y)
    return x * 2


@jax.jit
def passed(x, y):
    print("Inside:", y)
    return x + y


if __name__ == "__main__":
    for y in range(3):
        settings.scale = scale_of(y)
        print(impure_func(jnp.float32(y)), only_printed(1.0), passed(1.0, y))
"""
_PRINTED_SETTINGS = """\
scale = 1.0


def scale_of(i):
    return 1.0 + i
"""


def test_stale_global_reported_where_it_is_computed_with(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"main.py": _PRINTED_MAIN, "settings.py": _PRINTED_SETTINGS},
                       select="JAX405")
    assert found == [
        ("JAX405", "main.py", 13, 13,
         "`settings.scale` is set again (line 31) after `impure_func` has been called: under jit the attribute is "
         "read once, at trace time, and baked into the compiled function, so the later calls still use the old "
         "value until a retrace. Pass it as an argument"),
        ("JAX405", "main.py", 14, 16,
         "`y` is a module global that is reassigned (line 30) after `impure_func` is defined: under jit its value "
         "is read once, at trace time, and baked into the compiled function, so later assignments are ignored "
         "until a retrace. Pass it as an argument"),
        # read in the print alone: reported there
        ("JAX405", "main.py", 19, 19,
         "`y` is a module global that is reassigned (line 30) after `only_printed` is defined: under jit its value "
         "is read once, at trace time, and baked into the compiled function, so later assignments are ignored "
         "until a retrace. Pass it as an argument"),
    ]


# a swap unpacked onto self or onto globals in traced code: Python state rebound from what it
# reads, once per trace (jax 0.10.2: after two calls of the jitted `swap`, `s.a, s.b` is `2, 1`,
# swapped once; the compiled call swaps nothing)
_SWAP = """\
from functools import partial

import jax

n = 0
m = 1


class S:
    def __init__(self):
        self.a = 1
        self.b = 2

    @partial(jax.jit, static_argnums=0)
    def swap(self, x):
        self.a, self.b = self.b, self.a
        return x


@jax.jit
def g(x):
    global n, m
    n, m = m, n
    return x
"""


def test_swap_unpacked_in_traced_code(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"swap.py": _SWAP}, select="JAX402,JAX403")
    once = "the update runs once, at trace time: compiled calls never repeat it. Pass the state in as an argument and return the new state"
    later = ("inside `g` runs when jax.jit traces `g`, not on every call: calls served from the cache skip it. "
             "Return the new value (or carry it through the loop) instead")
    assert found == [
        ("JAX402", "swap.py", 23, 5, f"`n` is global: `n, m = m, n` {later}"),
        ("JAX402", "swap.py", 23, 8, f"`m` is global: `n, m = m, n` {later}"),
        ("JAX403", "swap.py", 16, 9, f"`self.a` is assigned inside traced method `swap`: {once}"),
        ("JAX403", "swap.py", 16, 17, f"`self.b` is assigned inside traced method `swap`: {once}"),
    ]


# recall case 463 (the JAX FAQ's method example split into two modules): the class with its
# jitted method (self static) in custom.py, the attribute set on an instance in another module
# between two calls, directly or through a function of that module given the instance
# (jax 0.10.2: `c.calc(3)` stays 6 after `c.mul = False`)
_CUSTOM = """\
from functools import partial

import jax.numpy as jnp
from jax import jit


class CustomClass:
    def __init__(self, x, mul):
        self.x = x
        self.mul = mul

    @partial(jit, static_argnums=0)
    def calc(self, y):
        if self.mul:
            return self.x * y
        return y

    @partial(jit, static_argnums=0)
    def scaled(self, y):
        return y * self.x


class Plain:
    def __init__(self, x):
        self.x = x

    def calc(self, y):
        return self.x * y
"""
_DRIVER = """\
from custom import CustomClass, Plain


def configure(obj, use_mul):
    obj.mul = use_mul


def main():
    c = CustomClass(2, True)
    print(c.calc(3))
    configure(c, False)
    print(c.calc(3))


if __name__ == "__main__":
    d = CustomClass(2, True)
    print(d.scaled(3))
    d.x = 5
    print(d.scaled(3))
"""
# the twins: set before the first call or after the last one; an attribute the method does not
# read; a method that is not jitted
_DRIVER_VALID = """\
from custom import CustomClass, Plain


def configure(obj, use_mul):
    obj.mul = use_mul


def main():
    c = CustomClass(2, True)
    configure(c, False)
    print(c.calc(3))
    c.mul = True


if __name__ == "__main__":
    d = CustomClass(2, True)
    print(d.scaled(3))
    d.mul = False
    print(d.scaled(3))
    p = Plain(2)
    print(p.calc(3))
    p.x = 5
    print(p.calc(3))
"""


def _instance_msg(dotted: str, method: str) -> str:
    return (f"`{dotted}` is read in `{method}`, which is jitted with `self` a Python object, and main.py sets it "
            f"on an instance between two calls of `{method}`: the compiled function keeps the value read at its "
            "first trace, so later calls ignore the change. Pass it as an argument (or make the object a pytree)")


def test_instance_attribute_set_in_another_module(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"custom.py": _CUSTOM, "main.py": _DRIVER}, select="JAX405")
    assert found == [
        ("JAX405", "custom.py", 14, 12, _instance_msg("self.mul", "calc")),
        ("JAX405", "custom.py", 20, 20, _instance_msg("self.x", "scaled")),
    ]


def test_instance_attribute_set_in_another_module_valid_twin(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"custom.py": _CUSTOM, "main.py": _DRIVER_VALID}, select="JAX405") == []


# the same in one file: the attribute set through a function of the file given the instance
# (jax 0.10.2: "after mul = False: 6")
_ONE_FILE = """\
from functools import partial

from jax import jit


class CustomClass:
    def __init__(self, x, mul):
        self.x = x
        self.mul = mul

    @partial(jit, static_argnums=0)
    def calc(self, y):
        if self.mul:
            return self.x * y
        return y


def configure(obj, use_mul):
    obj.mul = use_mul


def scale(obj, x):
    obj.x = x


if __name__ == "__main__":
    c = CustomClass(2, True)
    print(c.calc(3))
    configure(c, False)
    print("after mul = False:", c.calc(3))
"""


def test_instance_attribute_set_through_a_function_of_the_file(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"main.py": _ONE_FILE}, select="JAX405")
    assert found == [
        ("JAX405", "main.py", 13, 12,
         "`c.mul` is set again (line 29) after `c.calc` has been called: it is jitted with `self` a Python object, "
         "so the compiled function keeps the value read at its first trace and the later calls ignore the change. "
         "Pass it as an argument (or make the object a pytree)"),
    ]


def test_instance_attribute_set_through_a_function_before_the_calls_valid(tmp_path, monkeypatch):
    text = _ONE_FILE.replace("""    print(c.calc(3))
    configure(c, False)
    print("after mul = False:", c.calc(3))""", """    configure(c, False)
    scale(c, 3)
    print(c.calc(3))
    print(c.calc(4))
    scale(CustomClass(1, True), 5)""")
    assert lint_files(tmp_path, monkeypatch, {"main.py": text}, select="JAX405") == []
