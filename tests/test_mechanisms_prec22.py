"""Mechanisms of the prec22 round.

1. A method of a flax/equinox/haiku module class called through an instance,
   ``model.plot(5, 4)`` with ``model`` a name the file binds (not an import): a call of
   that method (tracB's ``direct_kinds``, model/calls.py ``_note_receiver_method``).
   Where every mention of ``.plot`` in the file but those on an imported module
   (``plt.plot``) is such a call passing Python values, the method's parameters are
   not tracers.  Checked with jax 0.10.2 / equinox / flax on CPU (matplotlib stubbed):
   the VALID files run; ``jax.jit(GMM.plot)(model, 4, 5)``, ``jax.jit(net.grid)(jnp.array(4), 5)``
   and ``model.plot(obs[0], 4)`` inside ``eqx.filter_jit`` raise TracerBoolConversionError.
   An eager call with an array (``model.plot(jnp.array(4), 5)``) runs, but the model
   keeps today's finding there: a call that passes anything but a Python value leaves
   the method traced by default.

2. JAX504: a loop counter over a constant range of at most 8 values (``range(3)``,
   ``range(num_viz)`` with ``num_viz = 3`` bound once, ``range(1, 4)``) inside another
   loop of the same scope is not one compile per iteration: each value compiles once, in
   the outer loop's first pass, then hits the cache (jax 0.10.2 on CPU: VALID_504 below
   runs with ``sample._cache_size() == 5`` and ``decode`` compiling 3 times after 150
   calls each).  A bound that is not such a constant (a parameter, ``len(x)``, a name bound
   twice), a range over more than 8 values, or no loop around it keeps the finding.
"""

import json

from tests.project_files import lint_files

MSG201 = (
    "Python `if` on a traced value: it depends on the traced {args} of `{fn}` ({how}); this raises "
    "TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"
)
STATIC = "; or, if `n_col` is a Python value, mark it static (static_argnames='n_col')"

EQX = (
    "import equinox as eqx\n"
    "import jax\n"
    "import jax.numpy as jnp\n"
    "import matplotlib.pyplot as plt\n"
    "import numpy as np\n"
    "\n"
    "\n"
    "class GMM(eqx.Module):\n"
    "    mixing_coeffs: jax.Array\n"
    "\n"
    "    def __init__(self, k, key):\n"
    "        self.mixing_coeffs = jax.random.uniform(key, (k,))\n"
    "\n"
    "    def plot(self, n_row, n_col):\n"
    "        if n_row * n_col != len(self.mixing_coeffs):\n"
    '            raise TypeError("bad shape")\n'
    "        fig, axes = plt.subplots(n_row, n_col)\n"
    "        return fig\n"
    "\n"
    "    def tile(self, shape):\n"
    "        if shape[0] * shape[1] != len(self.mixing_coeffs):\n"
    '            raise TypeError("bad shape")\n'
    "        return shape\n"
    "\n"
    "\n"
    "@eqx.filter_jit\n"
    "def train_step(model, params, obs):\n"
    "    return params, jnp.sum(model.mixing_coeffs * obs)\n"
    "\n"
    "\n"
    "@eqx.filter_jit\n"
    "def update_model_params(model, params):\n"
    "    return model\n"
    "\n"
    "\n"
    "model = GMM(20, jax.random.key(0))\n"
    "losses = []\n"
    "for epoch in range(20):\n"
    "    params, loss = train_step(model, 1.0, jnp.ones(20))\n"
    "    model = update_model_params(model, params)\n"
    "    losses.append(loss)\n"
    "    if epoch % 10 == 0:\n"
    "        model.plot(5, 4)\n"
    "        model.tile((4, 5))\n"
    "plt.plot(-np.array(losses))\n"
)

FLAX = (
    "import flax.linen as nn\n"
    "import jax\n"
    "import jax.numpy as jnp\n"
    "\n"
    "\n"
    "class Net(nn.Module):\n"
    "    features: int = 20\n"
    "\n"
    "    @nn.compact\n"
    "    def __call__(self, x):\n"
    "        return nn.Dense(self.features)(x)\n"
    "\n"
    "    def grid(self, n_row, n_col):\n"
    "        if n_row * n_col != self.features:\n"
    '            raise TypeError("bad shape")\n'
    "        return n_row, n_col\n"
    "\n"
    "\n"
    "net = Net()\n"
    "params = net.init(jax.random.key(0), jnp.ones(3))\n"
    "step = jax.jit(net.apply)\n"
    "for epoch in range(3):\n"
    "    y = step(params, jnp.ones(3))\n"
    "    print(net.grid(5, 4), net.grid(n_row=4, n_col=5))\n"
)

# the calls made by a helper (a second way of writing the calls)
FLAX_HELPER = FLAX.replace(
    "    print(net.grid(5, 4), net.grid(n_row=4, n_col=5))\n",
    "    print(show(net))\n",
).replace("net = Net()\n", "def show(m):\n    return m.grid(5, 4), m.grid(n_row=4, n_col=5)\n\n\nnet = Net()\n")


def _notebook(text: str) -> str:
    """``text`` as a notebook, one cell per top-level block (the cells are one file)."""
    cells = [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
              "source": part.splitlines(True)} for part in text.split("\n\n\n")]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_module_method_called_on_an_instance_with_python_values_only(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {
        "valid_eqx.py": EQX + "model.plot(n_row=4, n_col=5)\nmodel.tile(shape=(5, 4))\n",
        "valid_flax.py": FLAX,
        "valid_helper.py": FLAX_HELPER,
        "valid_nb.ipynb": _notebook(EQX + "model.plot(4, 5)\n"),
    }, select="JAX201")
    assert found == []


def test_module_method_on_an_instance_still_traced_otherwise(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {
        "jit_eqx.py": EQX + "jax.jit(GMM.plot)(model, 4, 5)\n",
        "array_eqx.py": EQX + "model.plot(jnp.array(4), 5)\n",
        "traced_eqx.py": EQX.replace(
            "    return params, jnp.sum(model.mixing_coeffs * obs)\n",
            "    model.tile((obs.shape[0] // 4, 4))\n    model.plot(obs[0], 4)\n"
            "    return params, jnp.sum(model.mixing_coeffs * obs)\n"),
        "jit_flax.py": FLAX.replace("net.grid(n_row=4, n_col=5)", "jax.jit(net.grid)(jnp.array(4), 5)"),
    }, select="JAX201")
    assert found == [
        ("JAX201", "array_eqx.py", 15, 12, MSG201.format(
            args="argument `n_row`", fn="plot", how="a method of the module class GMM")),
        ("JAX201", "jit_eqx.py", 15, 12, MSG201.format(
            args="arguments `n_col`, `n_row`", fn="plot", how="wrapped by jax.jit") + STATIC),
        ("JAX201", "jit_flax.py", 14, 12, MSG201.format(
            args="arguments `n_col`, `n_row`", fn="grid", how="wrapped by jax.jit") + STATIC),
        ("JAX201", "traced_eqx.py", 15, 12, MSG201.format(
            args="argument `n_row`", fn="plot", how="called from traced `train_step`")),
    ]


VALID_504 = (
    "from functools import partial\n"
    "\n"
    "import equinox as eqx\n"
    "import jax\n"
    "import jax.numpy as jnp\n"
    "\n"
    "num_viz = 3\n"
    "\n"
    "\n"
    "@partial(jax.jit, static_argnums=1)\n"
    "def sample(x, i):\n"
    "    return x * i\n"
    "\n"
    "\n"
    "@eqx.filter_jit\n"
    "def decode(x, i):\n"
    "    return x + i\n"
    "\n"
    "\n"
    "def train(x, n_epochs):\n"
    "    for epoch in range(n_epochs):\n"
    "        for i in range(num_viz):\n"
    "            x = sample(x, i)\n"
    "        for j in range(3):\n"
    "            x = decode(x, j)\n"
    "        for k in (0, 1, 2):\n"
    "            x = sample(x, k)\n"
    "    return x\n"
    "\n"
    "\n"
    "y = jnp.ones(3)\n"
    "step = 0\n"
    "while step < 50:\n"
    "    step += 1\n"
    "    for i in range(1, 4):\n"
    "        y = sample(y, i + 1)\n"
    "print(train(y, 50), sample._cache_size())\n"
)

INVALID_504 = (
    "from functools import partial\n"
    "\n"
    "import equinox as eqx\n"
    "import jax\n"
    "import jax.numpy as jnp\n"
    "\n"
    "num_viz = 3\n"
    "\n"
    "\n"
    "@partial(jax.jit, static_argnums=1)\n"
    "def sample(x, i):\n"
    "    return x * i\n"
    "\n"
    "\n"
    "@eqx.filter_jit\n"
    "def decode(x, i):\n"
    "    return x + i\n"
    "\n"
    "\n"
    "def train(x, n_epochs, n):\n"
    "    for epoch in range(n_epochs):\n"
    "        for i in range(n):\n"
    "            x = sample(x, i)\n"
    "        for j in range(100):\n"
    "            x = decode(x, j)\n"
    "        for k in range(len(x)):\n"
    "            x = sample(x, k)\n"
    "        for m in range(num_viz):\n"
    "            x = sample(x, m)\n"
    "    for i in range(3):\n"
    "        x = sample(x, i)\n"
    "    return x\n"
    "\n"
    "\n"
    "num_viz = 4\n"
)

MSG504 = (
    "the loop counter `{c}` is passed as the static argument `i` (position 1): every new value traces and "
    "compiles the function again. Pass it as a traced argument instead (remove it from "
    "static_argnums/static_argnames)"
)


def test_counter_over_a_few_constant_values_in_an_outer_loop(tmp_path, monkeypatch):
    """VALID_504 silent (on main: 3 findings); INVALID_504's twins all reported."""
    found = lint_files(tmp_path, monkeypatch, {"valid_504.py": VALID_504, "invalid_504.py": INVALID_504},
                       select="JAX504")
    assert found == [
        ("JAX504", "invalid_504.py", 23, 27, MSG504.format(c="i")),
        ("JAX504", "invalid_504.py", 25, 27,
         "the loop counter `j` is passed to `decode`, an `eqx.filter_jit` function: every argument that is "
         "not an array is static (a Python number is hashed into the compile cache), so every new value traces "
         "and compiles it again (one compile per iteration). Pass it as an array (`jnp.asarray(j)`)"),
        ("JAX504", "invalid_504.py", 27, 27, MSG504.format(c="k")),
        ("JAX504", "invalid_504.py", 29, 27, MSG504.format(c="m")),
        ("JAX504", "invalid_504.py", 31, 23, MSG504.format(c="i")),
    ]
