"""Static arguments across modules (issue 22, branch statC).

1. A jitted method of a class of another module of the project, called on an instance
   the calling scope binds once to ``Cls(...)`` (``Cls`` imported by name, or reached
   through its module): jit receives the instance as argument 0 (``self``), so a method
   that declares ``self`` static hashes it at the call, and an instance that cannot be
   hashed (an equinox Module given a list field, a plain ``@dataclass``) raises there
   (JAX207).  Observed with JAX 0.10.2: ``ValueError: Non-hashable static arguments are
   not supported`` at ``model.energy(jnp.ones(3))`` and at ``shape.area(2.0)``; a tuple
   field, or ``@dataclass(frozen=True)`` over a tuple, runs.  Case 444 (equinox issue 11,
   the reconstruction split into modules).
2. A module-level name bound to a jit (``ask = jit(ask_strategy, static_argnums=2)``,
   ``scale = jax.jit(_scale, static_argnames="table")``) whose static parameter a call in
   another module gives a JAX array, or a dict the project's own helper hands back
   (``params, memory = init_strategy(...)``, every return of the helper a tuple with a dict
   display there): reported at the ``jit(...)`` too, as a jit decorator already is, naming
   the calling module (JAX207).  Observed with JAX 0.10.2: ``ValueError: Non-hashable static
   arguments are not supported`` at both calls.  Case 1314 (evosax, commit a869dda 'Fix jit
   unhashable dict problem').
3. A jitted method of a class of another module called on an instance that every object
   of the calling class holds in an attribute (``self.source = Basis(names)`` once in
   ``__init__``, no other method assigning it; the class has no base but ``object``):
   ``self.source.update(param, [...])`` passes ``self.source`` as ``self`` and the list
   (or a JAX array) to a static parameter, reported at the method's decorator naming the
   calling module, as for an instance a local name holds (JAX207).  Observed with JAX
   0.10.2: ``ValueError: Non-hashable static arguments are not supported`` for the list
   and for ``jnp.arange(3)``.  Case 1640 (jaxtronomy, commit aadd592) calls its jitted
   ``update_linear`` this way.
4. ``jax.jit(fn)`` of a function of another module that hands a parameter, unchanged, to
   a static parameter of a jitted def of its own module (at the top level of its body,
   or under ``if p == <literal>`` with ``p`` defaulting to that literal, when the call
   leaves ``p`` out): this jit traces the parameter, so the inner jit gets a tracer in a
   static position; reported at the argument of the call through the jit (the facts
   ``static_sinks``, engine/project.py), unless the jit declares it static (by position
   or by name: jit maps one to the other through the signature) (JAX207).  Observed with
   JAX 0.10.2: ``ValueError: Non-hashable static arguments are not supported`` for
   ``jax.jit(fit)(x, 3)`` and ``reduce_jit(x, k=2)``; ``jax.jit(fit, static_argnums=1)``
   and ``static_argnames="k"`` run.  Case 464 (pcax issue 3).
5. Inside a jitted function, what a jit of another module returns is traced (a jitted
   method called through ``self.source``, as in 3, a jit imported by name, or one reached
   through its module imported here, ``lb.take(...)``): handed
   on to a static parameter of a jit of that module (``a, i = self.source.update(param,
   i)`` then ``self.light.update(param, i)``), the tracer is told to the declaring module
   and reported at its decorator, naming the calling module (JAX207).  Observed with
   JAX 0.10.2: ``ValueError: Non-hashable static arguments are not supported`` at the
   second call; with ``i`` traced (``static_argnums=(0,)``, ``param[i]``) it runs.
   Case 1640 (jaxtronomy, commit aadd592 'fixed bug with marking tracer as static').
"""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str]) -> list[tuple]:
    return lint_files(root, monkeypatch, files, select="JAX207", dedent=True)


NETWORK = """\
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp


class Network(eqx.Module):
    layers: list
    scale: float

    def __init__(self, layers, scale):
        self.layers = layers
        self.scale = scale

    @partial(jax.jit, static_argnums=0)
    def energy(self, x):
        return -jnp.sum(x) * self.scale * len(self.layers)
"""

NETWORK_MAIN = """\
import jax.numpy as jnp

from hop.network import Network

if __name__ == "__main__":
    layers = {layers}
    model = Network(layers, 0.5)
    print(model.energy(jnp.ones(3)))
"""

SHAPES = """\
import dataclasses
from functools import partial

import jax


@dataclasses.dataclass{args}
class Shape:
    sizes: tuple

    @partial(jax.jit, static_argnames=("self",))
    def area(self, x):
        return x * sum(self.sizes)
"""

SHAPES_MAIN = """\
import geo.shapes as gs


def run():
    shape = gs.Shape((1, 2))
    return shape.area(2.0)
"""

_TAIL = ("static arguments must be hashable, so the call raises ValueError: Non-hashable static "
         "arguments are not supported. Instead, ")


def test_an_equinox_module_of_another_module_with_a_list_field_as_static_self(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"hop/__init__.py": "", "hop/network.py": NETWORK,
                                        "main.py": NETWORK_MAIN.format(layers="[(32,), (500,)]")})
    assert got == [("JAX207", "main.py", 8, 11,
                    "An instance of the equinox Module `Network` whose field `layers` is a list (a Module "
                    "hashes its fields) is passed to `model.energy` in a static position (parameter `self`; "
                    "static_argnums=0): " + _TAIL + "pass it as a traced (non-static) argument, or pass a "
                    "hashable value (tuple, int, str)")]


def test_the_same_module_given_a_tuple_stays_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"hop/__init__.py": "", "hop/network.py": NETWORK,
                                         "main.py": NETWORK_MAIN.format(layers="((32,), (500,))")}) == []


def test_a_plain_dataclass_of_a_module_imported_whole_as_static_self(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"geo/__init__.py": "", "geo/shapes.py": SHAPES.format(args=""),
                                        "main.py": SHAPES_MAIN})
    assert got == [("JAX207", "main.py", 6, 12,
                    "An instance of the dataclass `gs.Shape` (`@dataclass` with eq=True and neither "
                    "frozen=True nor unsafe_hash=True sets `__hash__` to None) is passed to `shape.area` "
                    "in a static position (parameter `self`; static_argnames='self'): " + _TAIL +
                    "declare the dataclass `frozen=True` (it then hashes by its fields, which must be "
                    "hashable themselves)")]


def test_a_frozen_dataclass_as_static_self_stays_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"geo/__init__.py": "",
                                         "geo/shapes.py": SHAPES.format(args="(frozen=True)"),
                                         "main.py": SHAPES_MAIN}) == []


STRATEGY = """\
import jax
import jax.numpy as jnp
from jax import jit


def init_strategy(mean, popsize):
    params = {params}
    memory = {{"mean": mean}}
    return params, memory


def ask_strategy(rng, memory, params):
    return memory["mean"] + jax.random.normal(rng, (4, memory["mean"].shape[0]))


def _scale(x, table):
    return x * len(table)


ask = jit(ask_strategy, static_argnums=(2))
scale = jax.jit(_scale, static_argnames="table")
"""

STRATEGY_MAIN = """\
import jax
import jax.numpy as jnp

from es.strategy import ask, init_strategy

if __name__ == "__main__":
    params, memory = init_strategy(jnp.zeros(3), 4)
    print(ask(jax.random.PRNGKey(0), memory, params).shape)
"""

STRATEGY_OTHER = """\
import jax.numpy as jnp

import es.strategy as st


def run():
    table = {table}
    return st.scale(2.0, table=table)
"""


def _given_msg(fn: str, param: str, decl: str, what: str, path: str) -> str:
    return (f"`{fn}` declares `{param}` static ({decl}), but other modules pass {what} for `{param}` "
            f"(a call in {path}): static arguments must be hashable, so those calls raise ValueError: "
            f"Non-hashable static arguments are not supported. Instead, leave it out of the static "
            f"arguments (traced), or pass a hashable value (tuple, int, str)")


def _call_msg(what: str, fn: str, param: str, decl: str) -> str:
    return (f"{what} is passed to `{fn}` in a static position (parameter `{param}`; {decl}): " + _TAIL
            + "pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)")


def test_a_helpers_dict_and_an_array_given_to_module_level_jits_of_another_module(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {
        "es/__init__.py": "",
        "es/strategy.py": STRATEGY.format(params='{"popsize": popsize, "sigma": 0.5}'),
        "main.py": STRATEGY_MAIN,
        "other.py": STRATEGY_OTHER.format(table="jnp.ones(3)")})
    assert got == [
        ("JAX207", "es/strategy.py", 20, 7, _given_msg("ask", "params", "static_argnums=2", "a list or dict", "main.py")),
        ("JAX207", "es/strategy.py", 21, 9, _given_msg("scale", "table", "static_argnames='table'", "a JAX array", "other.py")),
        ("JAX207", "main.py", 8, 46, _call_msg(
            "A dict (`params` is unpacked from what `init_strategy` returns)", "ask", "params", "static_argnums=2")),
        ("JAX207", "other.py", 8, 32, _call_msg(
            "A JAX array (`table` is bound to `jnp.ones(3)` on line 7)", "st.scale", "table", "static_argnames='table'")),
    ]


def test_a_helpers_tuple_and_a_tuple_given_to_module_level_jits_stay_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {
        "es/__init__.py": "",
        "es/strategy.py": STRATEGY.format(params="(popsize, 0.5)"),
        "main.py": STRATEGY_MAIN,
        "other.py": STRATEGY_OTHER.format(table="(1.0, 2.0)")}) == []


def test_the_same_dict_given_to_a_jit_without_static_arguments_stays_silent(tmp_path, monkeypatch):
    text = STRATEGY.format(params='{"popsize": popsize, "sigma": 0.5}').replace(", static_argnums=(2)", "")
    assert _lint(tmp_path, monkeypatch, {"es/__init__.py": "", "es/strategy.py": text, "main.py": STRATEGY_MAIN}) == []


BASIS = """\
from functools import partial

import jax.numpy as jnp
from jax import jit


class Basis(object):
    def __init__(self, names):
        self.names = names

    @partial(jit, static_argnums=(0, 2))
    def update(self, param, kwargs_list):
        return param * len(kwargs_list)
"""

FIT = """\
import jax.numpy as jnp

from lm.basis import Basis


class Fit(object):
    def __init__(self, names):
        self.source = Basis(names)

    def run(self, param):
        return self.source.update(param, {value})
"""

FIT2 = """\
import jax.numpy as jnp

import lm.basis as lb


class Fit2:
    def __init__(self, names):
        self.light = lb.Basis(names)

    def run(self, param):
        return self.light.update(param, {value})
"""


def _basis_msg(what: str, path: str) -> str:
    return _given_msg("update", "kwargs_list", "static_argnums=(0, 2)", what, path)


def test_a_list_given_to_a_jitted_method_through_an_instance_attribute(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"lm/__init__.py": "", "lm/basis.py": BASIS,
                                        "fit.py": FIT.format(value='[{"amp": 1.0}]')})
    assert got == [("JAX207", "lm/basis.py", 11, 6, _basis_msg("a list or dict", "fit.py"))]


def test_an_array_given_through_an_attribute_of_a_class_reached_by_its_module(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"lm/__init__.py": "", "lm/basis.py": BASIS,
                                        "fit2.py": FIT2.format(value="jnp.arange(3)")})
    assert got == [("JAX207", "lm/basis.py", 11, 6, _basis_msg("a JAX array", "fit2.py"))]


def test_a_tuple_given_through_an_instance_attribute_stays_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"lm/__init__.py": "", "lm/basis.py": BASIS,
                                         "fit.py": FIT.format(value='("amp",)'),
                                         "fit2.py": FIT2.format(value="(1, 2)")}) == []


def test_an_attribute_another_method_rebinds_stays_silent(tmp_path, monkeypatch):
    text = FIT.format(value='[{"amp": 1.0}]') + "\n    def reset(self, other):\n        self.source = other\n"
    assert _lint(tmp_path, monkeypatch, {"lm/__init__.py": "", "lm/basis.py": BASIS, "fit.py": text}) == []


PC_INIT = "from pc.core import fit, reduce\n"

PC_CORE = """\
from functools import partial

import jax
import jax.numpy as jnp


def fit(x, n_components, solver="full"):
    if solver == "full":
        return _fit_full(x, n_components)
    raise ValueError(solver)


def reduce(x, k):
    top = _top(x, k)
    return top.sum()


@partial(jax.jit, static_argnames="n_components")
def _fit_full(x, n_components):
    return x[:, :n_components]


@partial(jax.jit, static_argnums=1)
def _top(x, k):
    return jnp.sort(x)[-k:]
"""

PC_A = """\
import jax
import jax.numpy as jnp

from pc import fit

x = jnp.ones((4, 4))
print({call}.shape)
"""

PC_B = """\
import jax
import jax.numpy as jnp

import pc.core as core


def run(x):
    reduce_jit = jax.jit(core.reduce{static})
    return reduce_jit(x, k=2)
"""

_TRACER_IN = ("A tracer is passed to `{0}` in a static position (parameter `{1}`; {2}): " + _TAIL
              + "pass it as a traced (non-static) argument, or pass a hashable value (tuple, int, str)")


def _sink_msg(value: str, jitted: str, fn: str, param: str, inner: str, label: str, hint: str) -> str:
    return (f"`{value}` is passed to `{jitted}` for `{param}`: that jit of `{fn}` traces it, and `{fn}` hands "
            f"it to `{inner}`, which declares `{param}` static ({label}): a tracer in a static position raises "
            f"ValueError: Non-hashable static arguments are not supported. Instead, declare it static where "
            f"`{fn}` is jitted ({hint})")


# (the library's own lines, pc/core.py 9 and 14, are reported as before: `fit` and `reduce`
# are traced by the jits of the other modules)
_CORE = [
    ("JAX207", "pc/core.py", 9, 29, _TRACER_IN.format("_fit_full", "n_components", "static_argnames='n_components'")),
    ("JAX207", "pc/core.py", 14, 19, _TRACER_IN.format("_top", "k", "static_argnums=1")),
]


def test_a_jit_of_a_function_that_hands_a_parameter_to_a_static_one(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"pc/__init__.py": PC_INIT, "pc/core.py": PC_CORE,
                                        "a.py": PC_A.format(call="jax.jit(fit)(x, 3)"),
                                        "b.py": PC_B.format(static="")})
    assert got == sorted([
        ("JAX207", "a.py", 7, 23, _sink_msg("3", "jax.jit(fit)", "fit", "n_components", "_fit_full",
                                            "static_argnames='n_components'", "static_argnums=1")),
        ("JAX207", "b.py", 9, 28, _sink_msg("2", "reduce_jit", "core.reduce", "k", "_top", "static_argnums=1",
                                            "static_argnames='k'")),
        *_CORE])


def test_the_parameter_declared_static_or_another_branch_stays_silent(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"pc/__init__.py": PC_INIT, "pc/core.py": PC_CORE,
                                        "a.py": PC_A.format(call="jax.jit(fit, static_argnames='n_components')(x, 3)"),
                                        "b.py": PC_B.format(static=", static_argnums=1")})
    assert got == []


def test_a_call_that_picks_another_branch_is_not_reported_at_the_call(tmp_path, monkeypatch):
    # `solver="other"` leaves the `if solver == "full":` branch: only the library's line,
    # as before (a traced `fit`), is reported
    got = _lint(tmp_path, monkeypatch, {"pc/__init__.py": PC_INIT, "pc/core.py": PC_CORE,
                                        "a2.py": PC_A.format(call='jax.jit(fit)(x, 3, solver="other")')})
    assert got == [_CORE[0]]


STEP_LIB = """\
from functools import partial

import jax
import jax.numpy as jnp
from jax import jit


class Basis(object):
    def __init__(self, names):
        self.names = names

    @partial(jit, static_argnums={nums})
    def update(self, param, i):
        return param[i], i + 1


@partial(jax.jit, static_argnums={take_nums})
def take(param, i):
    return param[i], i + 1
"""

STEP_FIT = """\
from functools import partial

import jax
import jax.numpy as jnp

from lm.basis import Basis


class Fit(object):
    def __init__(self, names):
        self.source = Basis(names)
        self.light = Basis(names)

    @partial(jax.jit, static_argnums=0)
    def run(self, param):
        i = 0
        a, i = self.source.update(param, i)
        b, i = self.light.update(param, i)
        return a + b
"""

STEP_WALK = """\
import jax
import jax.numpy as jnp

from lm.basis import take


@jax.jit
def walk(param):
    a, n = take(param, 0)
    b, n = take(param, n)
    return a + b
"""


def test_what_an_inner_jit_returns_given_to_a_static_parameter_of_another_modules_jit(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"lm/__init__.py": "",
                                        "lm/basis.py": STEP_LIB.format(nums="(0, 2)", take_nums="1"),
                                        "fit.py": STEP_FIT, "walk.py": STEP_WALK})
    assert got == [
        ("JAX207", "lm/basis.py", 12, 6, _given_msg("update", "i", "static_argnums=(0, 2)", "a tracer", "fit.py")),
        ("JAX207", "lm/basis.py", 17, 2, _given_msg("take", "i", "static_argnums=1", "a tracer", "walk.py")),
        # (reported before too: a tracer at a call of an imported jit, in the calling file)
        ("JAX207", "walk.py", 10, 24, _TRACER_IN.format("take", "i", "static_argnums=1")),
    ]


def test_the_index_traced_stays_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"lm/__init__.py": "",
                                         "lm/basis.py": STEP_LIB.format(nums="(0,)", take_nums="()"),
                                         "fit.py": STEP_FIT, "walk.py": STEP_WALK}) == []


def test_a_jit_reached_through_its_module_returns_a_tracer_too(tmp_path, monkeypatch):
    walk = STEP_WALK.replace("from lm.basis import take", "import lm.basis as lb").replace("take(", "lb.take(")
    got = _lint(tmp_path, monkeypatch, {"lm/__init__.py": "",
                                        "lm/basis.py": STEP_LIB.format(nums="(0, 2)", take_nums="1"),
                                        "walk.py": walk})
    assert got == [
        ("JAX207", "lm/basis.py", 17, 2, _given_msg("take", "i", "static_argnums=1", "a tracer", "walk.py")),
        ("JAX207", "walk.py", 10, 27, _TRACER_IN.format("lb.take", "i", "static_argnums=1")),
    ]
