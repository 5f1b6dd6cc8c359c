"""Static arguments, recompiles and state after tracing (issue 22, branch statP).

1. An eager structured loop given a new callable at every iteration: `jax.lax.scan`,
   `fori_loop`, `while_loop` and `lax.map`, called outside any trace, trace their body
   and compile the loop, caching the traced body per function object; a bound method
   (`obj.step`, a new object at each attribute access, of a class of this module or of
   another module of the project: the `methods` fact), a lambda or a partial made in
   the loop body traces and compiles again every iteration (JAX501).  Observed with
   JAX 0.10.2 and `JAX_LOG_COMPILES=1`: four `jit(scan)` (or `jit(while)`) compiles for
   four iterations with each of these bodies; one with a module-level def or a method
   bound once before the loop.  The same code in a function body is silent (it may run
   under a trace, where the body is traced once with it).
"""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str], select: str = "JAX501") -> list[tuple]:
    return lint_files(root, monkeypatch, files, select=select, dedent=True)


def _scan_msg(prim: str, what: str, advice: str) -> str:
    return (f"`lax.{prim}` of {what} traces and compiles again on every iteration of the loop: called "
            f"outside a trace, `lax.{prim}` caches its traced body per function object, and this one is "
            f"new each time. Create the function once: {advice}, and pass the varying values as "
            f"arguments or carry")


_BOUND = "the bound method `{0}` (a new object at every attribute access)"
_HOIST = "take the bound method once, before the loop (`step = {0}`)"
_DEF = "define it once, before the loop (a module-level def)"


# 1a. Case 1440 (QDax, https://github.com/adaptive-intelligent-robotics/QDax/commit/
# ab13dbd127916de0cc83d8cef94fd1ae7dd106dd, 'avoid consecutive jits of same method in for
# loops'): the notebook's main loop gives `lax.scan` the jitted method
# `map_elites.scan_update` of a class of another module at every iteration.
MAP_ELITES = """\
from functools import partial

import jax
import jax.numpy as jnp


class MAPElites:
    def __init__(self, scoring_function):
        self._scoring_function = scoring_function

    @partial(jax.jit, static_argnames=("self",))
    def scan_update(self, carry, unused):
        x, key = carry
        key, sub = jax.random.split(key)
        y = x + 0.1 * jax.random.normal(sub, x.shape)
        better = self._scoring_function(y) > self._scoring_function(x)
        x = jnp.where(better[:, None], y, x)
        return (x, key), jnp.max(self._scoring_function(x))
"""

LOOP_1440 = """\
import jax
import jax.numpy as jnp

from qd.map_elites import MAPElites


def score(x):
    return -jnp.sum(x ** 2, axis=1)


if __name__ == "__main__":
    map_elites = MAPElites(scoring_function=score)
    carry = (jnp.ones((8, 2)), jax.random.PRNGKey(0))
    for i in range(4):
        carry, metrics = jax.lax.scan(
            {body},
            carry,
            (),
            length=5,
        )
"""


def test_an_eager_scan_of_a_method_of_another_modules_class_per_iteration(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"qd/__init__.py": "", "qd/map_elites.py": MAP_ELITES,
                                        "main.py": LOOP_1440.format(body="map_elites.scan_update")})
    assert got == [("JAX501", "main.py", 16, 13, _scan_msg(
        "scan", _BOUND.format("map_elites.scan_update"), _HOIST.format("map_elites.scan_update")))]


def test_the_method_taken_once_before_the_loop_stays_silent(tmp_path, monkeypatch):
    # the VALID twin of 1a: one bound method for every iteration (one compile)
    text = LOOP_1440.format(body="update").replace(
        "    for i in range(4):", "    update = map_elites.scan_update\n    for i in range(4):")
    assert _lint(tmp_path, monkeypatch, {"qd/__init__.py": "", "qd/map_elites.py": MAP_ELITES,
                                         "main.py": text}) == []


def test_a_stored_function_is_one_object_and_stays_silent(tmp_path, monkeypatch):
    # the class stores the body on the instance (`self.scan_update = ...` shadows any
    # method): the attribute is the same object at every access
    stored = MAP_ELITES.replace("        self._scoring_function = scoring_function",
                                "        self._scoring_function = scoring_function\n"
                                "        self.scan_update = jax.jit(self._step)") \
        .replace("def scan_update(self", "def _step(self").replace(
            '    @partial(jax.jit, static_argnames=("self",))\n', "")
    assert _lint(tmp_path, monkeypatch, {"qd/__init__.py": "", "qd/map_elites.py": stored,
                                         "main.py": LOOP_1440.format(body="map_elites.scan_update")}) == []


# 1b. The same mechanism written three other ways, one module each: a method of a class
# of the script itself given to `fori_loop`'s body through the module imported as a
# whole (`import qd.map_elites as me`), a lambda given to `while_loop` in a notebook-
# style script, a `partial` given to `lax.map`; their twins hoist the callable.
SCRIPT_METHOD = """\
import jax
import jax.numpy as jnp


class Runner:
    def __init__(self, scale):
        self.scale = scale

    def body(self, i, x):
        return x * self.scale + i


runner = Runner(0.5)
x = jnp.ones(3)
for epoch in range(4):
    x = jax.lax.fori_loop(0, 10, {body}, x)
"""

MODULE_ATTR = """\
import jax
import jax.numpy as jnp

import qd.map_elites as me


def score(x):
    return -jnp.sum(x ** 2, axis=1)


algo = me.MAPElites(score)
carry = (jnp.ones((8, 2)), jax.random.PRNGKey(0))
while carry[0].sum() > 1.0:
    carry, m = jax.lax.scan(algo.scan_update, carry, (), length=5)
"""

LAMBDA_WHILE = """\
import jax
import jax.numpy as jnp

x = jnp.zeros(3)
for target in range(1, 5):
    x = jax.lax.while_loop({cond}, lambda a: a + 1.0, x)
"""

PARTIAL_MAP = """\
from functools import partial

import jax
import jax.numpy as jnp


def scale(v, factor):
    return v * factor


xs = jnp.ones((6, 3))
for _ in range(3):
    xs = jax.lax.map({body}, xs)
"""


def test_a_method_of_the_scripts_own_class_in_fori_loop(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"run.py": SCRIPT_METHOD.format(body="runner.body")})
    assert got == [("JAX501", "run.py", 16, 34, _scan_msg(
        "fori_loop", _BOUND.format("runner.body"), _HOIST.format("runner.body")))]


def test_the_scripts_method_bound_once_stays_silent(tmp_path, monkeypatch):
    text = SCRIPT_METHOD.format(body="body").replace("x = jnp.ones(3)\n", "x = jnp.ones(3)\nbody = runner.body\n")
    assert _lint(tmp_path, monkeypatch, {"run.py": text}) == []


def test_a_method_of_a_class_reached_through_the_imported_module(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"qd/__init__.py": "", "qd/map_elites.py": MAP_ELITES,
                                        "evolve.py": MODULE_ATTR})
    assert got == [("JAX501", "evolve.py", 14, 29, _scan_msg(
        "scan", _BOUND.format("algo.scan_update"), _HOIST.format("algo.scan_update")))]


def test_the_same_loop_inside_a_function_stays_silent(tmp_path, monkeypatch):
    # a function body may run under a trace (the body is then traced once with it):
    # unknown, silent
    text = MODULE_ATTR.replace("algo = me.MAPElites(score)\ncarry", "def run():\n    algo = me.MAPElites(score)\n    carry") \
        .replace("while carry", "    while carry").replace("    carry, m = jax", "        carry, m = jax")
    text += "    return carry\n"
    assert _lint(tmp_path, monkeypatch, {"qd/__init__.py": "", "qd/map_elites.py": MAP_ELITES,
                                         "evolve.py": text}) == []


def test_a_lambda_in_an_eager_while_loop(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"solve.py": LAMBDA_WHILE.format(cond="lambda a: a.sum() < target")})
    assert got == [("JAX501", "solve.py", 6, 28, _scan_msg("while_loop", "a `lambda`", _DEF))]


def test_module_level_functions_in_an_eager_while_loop_stay_silent(tmp_path, monkeypatch):
    text = ("import jax\nimport jax.numpy as jnp\n\n\ndef small(a):\n    return a.sum() < 4.0\n\n\n"
            "def inc(a):\n    return a + 1.0\n\n\nx = jnp.zeros(3)\nfor target in range(1, 5):\n"
            "    x = jax.lax.while_loop(small, inc, x)\n")
    assert _lint(tmp_path, monkeypatch, {"solve.py": text}) == []


def test_a_partial_in_an_eager_lax_map(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"rescale.py": PARTIAL_MAP.format(body="partial(scale, factor=2.0)")})
    assert got == [("JAX501", "rescale.py", 13, 22, _scan_msg(
        "map", "a `functools.partial(...)` object", _DEF))]


def test_a_partial_made_once_before_the_loop_stays_silent(tmp_path, monkeypatch):
    text = PARTIAL_MAP.format(body="double").replace("xs = jnp.ones", "double = partial(scale, factor=2.0)\nxs = jnp.ones")
    assert _lint(tmp_path, monkeypatch, {"rescale.py": text}) == []


# 2. A jitted method of a class of another module, called on an instance there: the
# method is exported as `Cls.method` (with `self` counted in its `static_argnums`), and a
# call `obj.method(...)` on an instance the calling scope binds once to `Cls(...)` that
# gives a static parameter a list or dict built there (or a JAX array) is reported at the
# method's decorator, naming the calling module (JAX207).  Case 1444 (herculens,
# https://github.com/Herculens/herculens/commit/8175191070ba7e70dafb527b4a4ccf655bad1d3f,
# 'Fix jit staticargs option in model() method'): `static_argnums=(0, 3, 4, 5)` counts
# from `self`, so it marks `kwargs_lens_light`, a list of dicts, static.
LENS = """\
from functools import partial

import jax.numpy as np
from jax import jit


class LensImage(object):
    def __init__(self, num_pix):
        self.num_pix = num_pix

    @partial(jit, static_argnums={nums})
    def model(self, kwargs_lens=None, kwargs_source=None, kwargs_lens_light=None,
              unconvolved=False, source_add=True, lens_light_add=True):
        out = np.zeros((self.num_pix, self.num_pix))
        if lens_light_add is True:
            out += sum(kw["amp"] for kw in kwargs_lens_light)
        return out
"""

LENS_MAIN = """\
from lenses.lens_image import LensImage

if __name__ == "__main__":
    lens_image = LensImage(num_pix=8)
    kwargs_lens_light = [{"amp": 4.0}]
    image = lens_image.model(kwargs_lens=[{"theta_E": 1.0}], kwargs_source=[{"amp": 1.0}],
                             kwargs_lens_light=kwargs_lens_light)
"""


def _static_msg(fn: str, params: str, decl: str, what: str, where: str) -> str:
    return (f"`{fn}` declares {params} static ({decl}), but other modules pass {what} ({where}): static "
            f"arguments must be hashable, so those calls raise ValueError: Non-hashable static arguments "
            f"are not supported. Instead, leave it out of the static arguments (traced), or pass a "
            f"hashable value (tuple, int, str)")


def test_a_list_given_by_keyword_to_a_static_argnum_of_an_imported_jitted_method(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"lenses/__init__.py": "",
                                        "lenses/lens_image.py": LENS.format(nums="(0, 3, 4, 5)"),
                                        "main.py": LENS_MAIN}, select="JAX207")
    assert got == [("JAX207", "lenses/lens_image.py", 11, 6, _static_msg(
        "model", "`kwargs_lens_light`", "static_argnums=(0, 3, 4, 5)",
        "a list or dict for `kwargs_lens_light`", "a call in main.py"))]


def test_the_corrected_static_argnums_stay_silent(tmp_path, monkeypatch):
    # the commit's fix: the three flags static, the parameter lists traced
    assert _lint(tmp_path, monkeypatch, {"lenses/__init__.py": "",
                                         "lenses/lens_image.py": LENS.format(nums="(0, 4, 5, 6)"),
                                         "main.py": LENS_MAIN}, select="JAX207") == []


# The same mechanism written two other ways: the class reached through its module
# imported as a whole, with `static_argnames` and a dict bound once in the calling
# script; and a JAX array given positionally to a static parameter of a method of a
# class imported by name inside a function.  Twins: a tuple, and a string.
RENDER = """\
from functools import partial

import jax
import jax.numpy as jnp


class Renderer:
    def __init__(self, n):
        self.n = n

    @partial(jax.jit, static_argnames=("self", "palette"))
    def draw(self, x, palette):
        return jnp.tanh(x) * len(palette)

    @partial(jax.jit, static_argnums=(0, 2))
    def shade(self, x, mode):
        return x * 2.0 if mode == "dark" else x
"""

RENDER_MAIN = """\
import jax.numpy as jnp

import geo.render as gr

r = gr.Renderer(3)
colours = {palette}
print(r.draw(jnp.ones(3), palette=colours))
"""

SHADE_MAIN = """\
import jax.numpy as jnp

from geo.render import Renderer


def run(x):
    painter = Renderer(2)
    return painter.shade(x, {mode})
"""


def test_a_dict_given_to_a_static_argname_of_a_method_through_the_module(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"geo/__init__.py": "", "geo/render.py": RENDER,
                                        "main.py": RENDER_MAIN.format(palette='{"red": 1, "blue": 2}')},
                select="JAX207")
    assert got == [("JAX207", "geo/render.py", 11, 6, _static_msg(
        "draw", "`palette`", "static_argnames=('self', 'palette')", "a list or dict for `palette`",
        "a call in main.py"))]


def test_a_tuple_for_the_static_argname_stays_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"geo/__init__.py": "", "geo/render.py": RENDER,
                                         "main.py": RENDER_MAIN.format(palette='("red", "blue")')},
                 select="JAX207") == []


def test_an_array_given_to_a_static_argnum_of_a_method_in_a_function(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"geo/__init__.py": "", "geo/render.py": RENDER,
                                        "paint.py": SHADE_MAIN.format(mode="jnp.ones(3)")}, select="JAX207")
    assert got == [("JAX207", "geo/render.py", 15, 6, _static_msg(
        "shade", "`mode`", "static_argnums=(0, 2)", "a JAX array for `mode`", "a call in paint.py"))]


def test_a_string_for_the_static_argnum_stays_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"geo/__init__.py": "", "geo/render.py": RENDER,
                                         "paint.py": SHADE_MAIN.format(mode='"dark"')}, select="JAX207") == []


# 3. A setter reached only through a one-time initializer stays silent (JAX405).  Fresh
# set 19, reviewers A and B (deepmind-research nfnets/experiment.py:268, both
# reviewers: false): `_make_opt` sets `self.opt` and is called only from
# `_initialize_train`, which `step` calls under `if self._train_input is None:` and which
# sets `_train_input`: it runs once, before the first call of the pmapped method, so no
# trace sees a change.  The setter is judged to run once when every call of it is in a
# method that runs once by the same test (guarded on an attribute it sets, or guarding
# itself).  Written three ways; the INVALID twin calls the initializer on every step.
TRAINER = """\
import jax
import jax.numpy as jnp


def make_opt(lr):
    return lambda p, g: p - lr * g


class Experiment:
    def __init__(self, lr):
        self.lr = lr
        self._train_input = None
        self._ready = False
        self.train_fn = jax.jit(self._train_fn)

    def _initialize_train(self):
{init_body}
        self._make_opt()

    def _make_opt(self):
        self.opt = make_opt(self.lr * 2.0)

    def _train_fn(self, params, grads):
        return self.opt(params, grads)

    def step(self, params, grads):
{guard}
        return self.train_fn(params, grads)
"""

_TRAIN_INPUT = "        self._train_input = iter(range(10))"
_READY = "        self._ready = True"


def test_a_setter_called_from_a_guarded_one_time_initializer_stays_silent(tmp_path, monkeypatch):
    # the nfnets shape: the caller sets the attribute its call is guarded on
    text = TRAINER.format(init_body=_TRAIN_INPUT,
                          guard="        if self._train_input is None:\n            self._initialize_train()")
    assert _lint(tmp_path, monkeypatch, {"experiment.py": text}, select="JAX405") == []


def test_a_flag_guarded_initializer_stays_silent(tmp_path, monkeypatch):
    text = TRAINER.format(init_body=_READY,
                          guard="        if not self._ready:\n            self._initialize_train()")
    assert _lint(tmp_path, monkeypatch, {"experiment.py": text}, select="JAX405") == []


def test_an_initializer_that_guards_itself_stays_silent(tmp_path, monkeypatch):
    text = TRAINER.format(init_body="        if self._ready:\n            return\n" + _READY,
                          guard="        self._initialize_train()")
    assert _lint(tmp_path, monkeypatch, {"experiment.py": text}, select="JAX405") == []


def test_an_initializer_called_on_every_step_is_reported(tmp_path, monkeypatch):
    # the INVALID twin: `_initialize_train` (and so `_make_opt`) runs before every call
    text = TRAINER.format(init_body=_TRAIN_INPUT, guard="        self._initialize_train()")
    assert _lint(tmp_path, monkeypatch, {"experiment.py": text}, select="JAX405") == [(
        "JAX405", "experiment.py", 24, 16,
        "`self.opt` is read in `_train_fn`, which is jitted with `self` a Python object, and "
        "`_make_opt` sets it (line 21): the compiled function keeps the value read at its first "
        "trace, so later calls ignore the change. Pass it as an argument (or make the object a pytree)")]


def test_a_body_holding_an_object_built_from_the_item_stays_silent(tmp_path, monkeypatch):
    # tuning optax, examples/contrib/rosenbrock_ademamix.ipynb: each iteration builds its
    # own optimizer from the loop's item and binds it into the scan's body: another
    # computation per item, a compile per item anyway (as `jax.jit(model.apply)` with
    # `model = MLP(width=w)` built in the loop)
    text = ("from functools import partial\n\nimport jax\nimport jax.numpy as jnp\nimport optax\n\n\n"
            "def body(carry, _, *, solver):\n    params, state = carry\n    g = 2.0 * params\n"
            "    updates, state = solver.update(g, state, params)\n"
            "    return (optax.apply_updates(params, updates), state), params\n\n\n"
            "for b1 in [0.9, 0.99]:\n    solver = optax.adam(0.003, b1=b1)\n    params = jnp.ones(2)\n"
            "    _, path = jax.lax.scan(partial(body, solver=solver), (params, solver.init(params)), length=5)\n")
    assert _lint(tmp_path, monkeypatch, {"sweep.py": text}) == []
