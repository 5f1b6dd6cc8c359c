"""Mechanisms of the lead's 2026-11-28 round.

1. Two module classes of one file that each define a method of one name (``GMM.plot``
   and ``BMM.plot``, the mixture-model notebook's layout): each ``def`` is a definition,
   not a use, and an instance call ``model.plot(5, 4)`` counts as a call of each
   (model/calls.py ``_note_receiver_method``), so where every other mention of ``.plot``
   is such a call passing Python values, neither method's parameters are tracers
   (model/walker.py ``_direct_calls_known``).  Checked with jax 0.10.2 / equinox on CPU
   (matplotlib stubbed): the VALID equinox file runs; with ``model.plot(obs[0], 4)`` inside
   the ``eqx.filter_jit`` step, which both classes' instances go through, it raises
   TracerBoolConversionError (both findings true).
"""

from tests.project_files import lint_files
from tests.test_mechanisms_prec22 import EQX, FLAX, MSG201

SECOND_EQX = (
    "\n"
    "\n"
    "class BMM(eqx.Module):\n"
    "    probs: jax.Array\n"
    "\n"
    "    def __init__(self, k, key):\n"
    "        self.probs = jax.random.uniform(key, (k,))\n"
    "\n"
    "    def plot(self, n_row, n_col):\n"
    "        if n_row * n_col != len(self.probs):\n"
    '            raise TypeError("bad shape")\n'
    "        return plt.subplots(n_row, n_col)\n"
    "\n"
    "\n"
    "model2 = BMM(20, jax.random.key(1))\n"
    "params, loss = train_step(model2, 1.0, jnp.ones(20))\n"
)

SECOND_FLAX = (
    "\n"
    "\n"
    "class Wide(nn.Module):\n"
    "    @nn.compact\n"
    "    def __call__(self, x):\n"
    "        return nn.Dense(40)(x)\n"
    "\n"
    "    def grid(self, n_row, n_col):\n"
    "        if n_row * n_col != 40:\n"
    '            raise TypeError("bad shape")\n'
    "        return n_row, n_col\n"
    "\n"
    "\n"
    "wide = Wide()\n"
    "wparams = wide.init(jax.random.key(1), jnp.ones(3))\n"
    "y = jax.jit(wide.apply)(wparams, jnp.ones(3))\n"
)


def test_two_module_classes_define_one_method_called_with_python_values(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {
        "valid_eqx.py": EQX + SECOND_EQX + "model2.plot(4, 5)\n",
        "valid_flax.py": FLAX + SECOND_FLAX + "print(wide.grid(8, 5))\n",
    }, select="JAX201")
    assert found == []


TRACED = "    return params, jnp.sum(model.mixing_coeffs * obs)\n"


def test_two_module_classes_one_method_still_traced_otherwise(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {
        "traced_eqx.py": EQX.replace(TRACED, "    model.plot(obs[0], 4)\n" + TRACED) + SECOND_EQX,
        "helper_eqx.py": EQX.replace(TRACED, "    show(model, obs[0])\n" + TRACED).replace(
            "@eqx.filter_jit\ndef train_step", "def show(m, n):\n    return m.plot(n, 4)\n\n\n"
            "@eqx.filter_jit\ndef train_step") + SECOND_EQX,
    }, select="JAX201")
    gmm = MSG201.format(args="argument `n_row`", fn="plot", how="a method of the module class GMM")
    bmm = MSG201.format(args="argument `n_row`", fn="plot", how="a method of the module class BMM")
    assert found == [
        ("JAX201", "helper_eqx.py", 15, 12, gmm),
        ("JAX201", "helper_eqx.py", 60, 12, bmm),
        ("JAX201", "traced_eqx.py", 15, 12, gmm),
        ("JAX201", "traced_eqx.py", 56, 12, bmm),
    ]


# 2. A method called on an object the trace builds in the call itself (``Model().apply(t)``)
#    stores on that object only: its attributes live and die with the trace, as for
#    ``g = Game(x); g.step(y)`` (model/calls.py ``_built_here``).  jax 0.10.2 on CPU: both
#    VALID programs run and return fresh draws; with a module-level ``m = Model()`` and
#    ``run3`` below, ``m.v`` is a leaked tracer after the call (``JitTracer(key<fry>[])``).
HOLDERS = (
    "import jax\n"
    "\n"
    "\n"
    "class Model:\n"
    "    def __init__(self):\n"
    "        self.v = jax.random.key(0)\n"
    "\n"
    "    def apply(self, t):\n"
    "        self.v, k = jax.random.split(self.v)\n"
    "        return jax.random.normal(k, (2,)) * t\n"
    "\n"
    "\n"
    "class Model2:\n"
    "    def __init__(self):\n"
    "        self.v = jax.random.key(0)\n"
    "\n"
    "    def apply(self, t):\n"
    "        self.v = jax.random.split(self.v)[0]\n"
    "        return jax.random.normal(self.v, (2,)) * t\n"
)
RUNS = (
    "\n"
    "\n"
    "@jax.jit\n"
    "def run(t):\n"
    "    return Model().apply(t)\n"
    "\n"
    "\n"
    "@jax.jit\n"
    "def run2(t):\n"
    "    return holders.Model2().apply(t)\n"
)


def test_method_of_an_object_built_in_the_call_stores_on_the_trace_own(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {
        "holders.py": HOLDERS,
        "main.py": "import jax\n\nimport holders\nfrom holders import Model\n" + RUNS
        + "\n\nprint(run(1.0), run2(1.0))\n",
    }, select="JAX403")
    assert found == []


def test_method_of_a_held_object_still_reported(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {
        "holders.py": HOLDERS,
        "main.py": "import jax\n\nimport holders\nfrom holders import Model\n" + RUNS
        + "\n\nm = Model()\nm2 = holders.Model2()\n\n\n@jax.jit\ndef run3(t):\n    return m.apply(t) + m2.apply(t)\n"
        "\n\nprint(run(1.0), run2(1.0), run3(1.0))\n",
    }, select="JAX403")
    assert found == [
        ("JAX403", "holders.py", 9, 9, "`self.v` is assigned inside traced method `apply`: it stores a tracer in "
         "the object (UnexpectedTracerError when read later), and compiled calls never repeat it. Pass the "
         "state in as an argument and return the new state"),
        ("JAX403", "holders.py", 18, 9, "`self.v` is assigned inside traced method `apply`: the update runs once, "
         "at trace time: compiled calls never repeat it. Pass the state in as an argument and return the new state"),
    ]


# 3. JAX506: a donated variable passed again in the same call, as itself or through a name
#    bound to it (recall batch 18's 1800 `f(x, x)` and 1802 `batch = x; x = update(x, batch)`
#    with `update` a decorated jit of another module).  jax 0.10.2 on CPU: JaxRuntimeError
#    INVALID_ARGUMENT "Attempt to use a buffer that was previously donated in the same call";
#    the VALID twin (a copy, the alias rebound first, a jit without donation) runs.
TRAINER = (
    "from functools import partial\n"
    "\n"
    "import jax\n"
    "\n"
    "\n"
    "@partial(jax.jit, donate_argnums=(0,))\n"
    "def update(x, batch):\n"
    "    return x + batch\n"
)
LOOP = (
    "import jax.numpy as jnp\n"
    "\n"
    "from trainer.step import update\n"
    "\n"
    "\n"
    "def main(n):\n"
    "    x = jnp.zeros((1024,), dtype=jnp.float32)\n"
    "    for _ in range(n):\n"
    "        batch = x\n"
    "        x = update(x, batch)\n"
    "    return update(x, x)\n"
)


def test_donated_buffer_passed_again_in_the_same_call(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {
        "trainer/__init__.py": "from trainer.step import update\n",
        "trainer/step.py": TRAINER,
        "main.py": LOOP,
        "valid.py": LOOP.replace("batch = x\n", "batch = x.copy()\n").replace(
            "return update(x, x)", "return update(x, jnp.ones(1024))"),
    }, select="JAX506")
    msg = ("`x` is donated to this jitted call and passed again as another argument{}: one buffer donated and "
           "used by the same call raises `JaxRuntimeError: INVALID_ARGUMENT` (the runtime refuses it). Pass a "
           "copy (`{}.copy()`) or don't donate it")
    assert found == [
        ("JAX506", "main.py", 10, 23, msg.format(" (`batch` is bound to `x` on line 9)", "batch")),
        ("JAX506", "main.py", 11, 22, msg.format("", "x")),
    ]


# 4. JAX405: the target of `self.n_updates += 1` in a jitted method is read only to be stored
#    back (JAX403 reports the store, at the same place): not a stale read.  A read of the
#    attribute that feeds the result (`return x + self.n`) is still one, reported there.
#    jax 0.10.2 on CPU: `Counter().step(1.)` returns 2. on every call (n read at trace time).
AUG = (
    "import jax\n"
    "from functools import partial\n"
    "\n"
    "\n"
    "class Runner:\n"
    "    def __init__(self):\n"
    "        self.n_updates = 0\n"
    "        self.scale = 1.0\n"
    "\n"
    "    def reset(self):\n"
    "        self.n_updates = 0\n"
    "        self.scale = 2.0\n"
    "\n"
    "    @partial(jax.jit, static_argnums=0)\n"
    "    def run(self, x):\n"
    "        self.n_updates += 1\n"
    "        return x * self.scale\n"
    "\n"
    "\n"
    "class Counter:\n"
    "    def __init__(self):\n"
    "        self.n = 0\n"
    "\n"
    "    def reset(self):\n"
    "        self.n = 0\n"
    "\n"
    "    @partial(jax.jit, static_argnums=0)\n"
    "    def step(self, x):\n"
    "        self.n += 1\n"
    "        return x + self.n\n"
)


def test_augmented_store_is_not_a_stale_read(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"runner.py": AUG}, select="JAX405")
    stale = ("`{0}` is read in `{1}`, which is jitted with `self` a Python object, and `reset` sets it "
             "(line {2}): the compiled function keeps the value read at its first trace, so later calls "
             "ignore the change. Pass it as an argument (or make the object a pytree)")
    assert found == [
        ("JAX405", "runner.py", 17, 20, stale.format("self.scale", "run", 12)),
        ("JAX405", "runner.py", 30, 20, stale.format("self.n", "step", 25)),
    ]
