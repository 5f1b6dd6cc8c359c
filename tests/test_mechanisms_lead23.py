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
