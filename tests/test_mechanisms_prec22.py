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
"""

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


def test_module_method_called_on_an_instance_with_python_values_only(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {
        "valid_eqx.py": EQX + "model.plot(n_row=4, n_col=5)\nmodel.tile(shape=(5, 4))\n",
        "valid_flax.py": FLAX,
        "valid_helper.py": FLAX_HELPER,
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
