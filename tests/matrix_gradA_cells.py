"""The cells of tests/test_matrix_gradA.py: small projects, each an INVALID program
(JAX computes a NaN gradient, or raises at a removed API) and its VALID twin (the fix).

Axis A (JAX120): how a derivative reaches a singular operation.  A row is how the
derivative is taken (``jax.grad`` of a function of this module, of one imported from
another module by attribute, by name, through a package's re-export, of a lambda, of a
``partial``, of a method; ``value_and_grad``, equinox's filter transformations,
``jacrev``/``jacfwd``/``hessian``, ``vjp``/``jvp``, a jitted step of another module);
a column is where the singular operation sits relative to the differentiated function
(in it, in a helper of its module, in a helper of another module imported absolutely or
relatively, in a method of a class); the operation cycles over the singular ones
(``log``, ``sqrt``, a division, ``arccos``, a fractional ``power``, the 2-norm, the root
of a value clipped to 0 by a named variable or inline).  Each cell is a runnable project
(``python train.py`` prints ``nan in grad: True`` for an INVALID cell, ``False`` for its
twin: ``run_cell`` below).

Axis B (JAX9xx): how a program reaches a name JAX removed (see ``API_ROWS``).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Optional

# -- axis A: JAX120 --------------------------------------------------------------------

# op -> (INVALID body, VALID body, the marker the finding points at, the message)
# (bodies use `x`, the function's array parameter, and return a scalar)
OPS: dict[str, tuple[str, str, str, str]] = {
    "log": (
        "return jnp.sum(jnp.where(x > 0, jnp.log(x), 0.0))",
        "return jnp.sum(jnp.where(x > 0, jnp.log(jnp.where(x > 0, x, 1.0)), 0.0))",
        "jnp.log(x)",
        "`jnp.log(x)` is computed for every element, also where `x > 0` is false and masks it out; its "
        "derivative is infinite/NaN where `x` is 0, so the gradient of this `where` is NaN (0 * inf). Guard "
        "`x` with the same condition too (double where: `jnp.where(cond, x, 1.0)` inside)",
    ),
    "sqrt": (
        "return jnp.sum(jnp.where(x > 0, jnp.sqrt(x), 0.0))",
        "return jnp.sum(jnp.where(x > 0, jnp.sqrt(jnp.maximum(x, 1e-12)), 0.0))",
        "jnp.sqrt(x)",
        "`jnp.sqrt(x)` is computed for every element, also where `x > 0` is false and masks it out; its "
        "derivative is infinite/NaN where `x` is 0 or negative, so the gradient of this `where` is NaN "
        "(0 * inf). Guard `x` with the same condition too (double where: `jnp.where(cond, x, 1.0)` inside)",
    ),
    "div": (
        "return jnp.sum(jnp.where(x != 0, 1.0 / x, 0.0))",
        "return jnp.sum(jnp.where(x != 0, 1.0 / jnp.where(x != 0, x, 1.0), 0.0))",
        "1.0 / x",
        "`1.0 / x` is computed for every element, also where `x != 0` is false and masks it out; its "
        "derivative is infinite/NaN where `x` is 0, so the gradient of this `where` is NaN (0 * inf). Guard "
        "`x` with the same condition too (double where: `jnp.where(cond, x, 1.0)` inside)",
    ),
    "arccos": (
        "return jnp.sum(jnp.where(jnp.abs(x) < 1, jnp.arccos(x), 0.0))",
        "return jnp.sum(jnp.where(jnp.abs(x) < 1, jnp.arccos(jnp.where(jnp.abs(x) < 1, x, 0.0)), 0.0))",
        "jnp.arccos(x)",
        "`jnp.arccos(x)` is computed for every element, also where `jnp.abs(x) < 1` is false and masks it "
        "out; its derivative is infinite/NaN where `x` is 1 or -1, or beyond, so the gradient of this "
        "`where` is NaN (0 * inf). Guard `x` with the same condition too (double where: "
        "`jnp.where(cond, x, 0.0)` inside)",
    ),
    "power": (
        "return jnp.sum(jnp.where(x > 0, jnp.power(x, 0.5), 0.0))",
        "return jnp.sum(jnp.where(x > 0, jnp.power(jnp.where(x > 0, x, 1.0), 0.5), 0.0))",
        "jnp.power(x, 0.5)",
        "`jnp.power(x, 0.5)` is computed for every element, also where `x > 0` is false and masks it out; "
        "its derivative is infinite/NaN where `x` is 0 or negative, so the gradient of this `where` is NaN "
        "(0 * inf). Guard `x` with the same condition too (double where: `jnp.where(cond, x, 1.0)` inside)",
    ),
    "norm": (
        "n = jnp.linalg.norm(x[:1])\nreturn jnp.where(n > 0.5, n, 1.0)",
        "sq = jnp.sum(x[:1] ** 2)\nn = jnp.sqrt(jnp.where(sq > 0, sq, 1.0))\nreturn jnp.where(n > 0.5, n, 1.0)",
        "n, 1.0)",
        "`n` is `jnp.linalg.norm(x[:1])`, computed for every element, also where `n > 0.5` is false; at its "
        "singular input `n` is 0 and the derivative is infinite/NaN, and the condition masks that value out, "
        "so the gradient of this `where` is NaN (0 * inf). Guard the input where `n` is computed (double "
        "where: `jnp.where(cond, x, 1.0)` inside, or `jnp.maximum(x, eps)`)",
    ),
    "clip_named": (
        "v = jnp.maximum(0.0, x)\nreturn jnp.sum(jnp.sqrt(v))",
        "v = jnp.maximum(1e-12, x)\nreturn jnp.sum(jnp.sqrt(v))",
        "jnp.sqrt(v)",
        "`jnp.sqrt(v)`: `v = jnp.maximum(0.0, x)` clips `v` to exactly 0 wherever that input is 0 or below, "
        "where the derivative of the square root is infinite and the clip's is 0: the gradient is NaN there "
        "(0 * inf). Clip to a small positive number instead (`jnp.maximum(eps, ...)`), or guard the root's "
        "input (`jnp.sqrt(jnp.where(v > 0, v, 1.0))`)",
    ),
    "clip_inline": (
        "return jnp.sum(jnp.sqrt(jnp.clip(x, 0.0, None)))",
        "return jnp.sum(jnp.sqrt(jnp.clip(x, 1e-12, None)))",
        "jnp.sqrt(jnp.clip(x, 0.0, None))",
        "`jnp.sqrt(jnp.clip(x, 0.0, None))`: `jnp.clip(x, 0.0, None)` clips its input to exactly 0 wherever "
        "that input is 0 or below, where the derivative of the square root is infinite and the clip's is 0: "
        "the gradient is NaN there (0 * inf). Clip to a small positive number instead (`jnp.maximum(eps, "
        "...)`), or guard the root's input (`jnp.sqrt(jnp.where(v > 0, v, 1.0))`)",
    ),
}
OP_NAMES = list(OPS)

# where the singular operation sits, relative to the differentiated function `loss`
COLUMNS = ("in_loss", "helper_same_module", "helper_other_module", "helper_other_relative", "method")

# how the derivative is taken (train.py, the entry): (row, the derivative's code, where
# `loss` is defined: "here" (train.py) or "model" (pkg/model.py), how train.py imports it,
# the way `loss` is written: "function" or "method")
ROWS: dict[str, tuple[str, str, str, str]] = {
    "grad_here": ("g = jax.grad(loss)(x)", "here", "", "function"),
    "grad_imported_attr": ("g = jax.grad(model.loss)(x)", "model", "from pkg import model", "function"),
    "grad_imported_name": ("g = jax.grad(loss)(x)", "model", "from pkg.model import loss", "function"),
    "grad_reexport": ("g = jax.grad(pkg.loss)(x)", "model", "import pkg", "function"),
    "value_and_grad": ("_, g = jax.value_and_grad(model.loss)(x)", "model", "from pkg import model", "function"),
    "lambda": ("g = jax.grad(lambda w: model.loss(w))(x)", "model", "from pkg import model", "function"),
    "partial": ("g = jax.grad(functools.partial(model.loss, scale=2.0))(x)", "model",
                "import functools\nfrom pkg import model", "function"),
    "eqx_filter_grad": ("g = eqx.filter_grad(model.loss)(x)", "model", "import equinox as eqx\nfrom pkg import model",
                        "function"),
    "eqx_filter_value_and_grad": ("_, g = eqx.filter_value_and_grad(model.loss)(x)", "model",
                                  "import equinox as eqx\nfrom pkg import model", "function"),
    "jacrev": ("g = jax.jacrev(model.loss)(x)", "model", "from pkg import model", "function"),
    "jacfwd": ("g = jax.jacfwd(model.loss)(x)", "model", "from pkg import model", "function"),
    "hessian": ("g = jax.hessian(model.loss)(x)", "model", "from pkg import model", "function"),
    "vjp": ("_, pull = jax.vjp(model.loss, x)\n    g = pull(1.0)[0]", "model", "from pkg import model", "function"),
    "jvp": ("_, g = jax.jvp(model.loss, (x,), (jnp.ones(3),))", "model", "from pkg import model", "function"),
    "method": ("g = jax.grad(model.Model().loss)(x)", "model", "from pkg import model", "method"),
    "jitted_step_other_module": ("g = step(x)", "model", "from pkg.step import step", "function"),
}
ROW_NAMES = list(ROWS)
PASSES = 2  # each row meets 5 operations per pass, shifted by 5: all 8 in two passes


def op_for(row: str, col: str, k: int = 0) -> str:
    """The operation of a cell in pass ``k``: every op meets every row and every column."""
    return OP_NAMES[(ROW_NAMES.index(row) + COLUMNS.index(col) + 5 * k) % len(OP_NAMES)]


def _indent(body: str, n: int) -> str:
    return textwrap.indent(body, " " * n)


@dataclass
class Cell:
    files: dict[str, str]
    path: str  # where the finding is expected
    line: int
    column: int
    message: str


def build(row: str, col: str, valid: bool, k: int = 0) -> Cell:
    op = op_for(row, col, k)
    bad, good, marker, message = OPS[op]
    body = good if valid else bad
    derive, home, imports, shape = ROWS[row]
    files: dict[str, str] = {"pkg/__init__.py": ""}
    if row == "grad_reexport":
        files["pkg/__init__.py"] = "from pkg import model as _model\n\nloss = _model.loss\n"
    in_pkg = home == "model"
    helper_imports = ""
    singular_file = None
    if col == "in_loss":
        inner = body
    elif col == "helper_same_module":
        inner = "return _energy(x)"
    elif col in ("helper_other_module", "helper_other_relative"):
        if col == "helper_other_relative" and in_pkg:
            helper_imports = "from .ops import energy\n"
            inner = "return energy(x)"
        elif col == "helper_other_relative":
            helper_imports = "from pkg.ops import energy\n"
            inner = "return energy(x)"
        else:
            helper_imports = "from pkg import ops\n"
            inner = "return ops.energy(x)"
        files["pkg/ops.py"] = "import jax.numpy as jnp\n\n\ndef energy(x):\n" + _indent(body, 4) + "\n"
        singular_file = "pkg/ops.py"
    else:  # method
        inner = "return Energy().of(x)"
    # the scale: the partial row binds it; the rest keeps its default
    lines = ["import jax.numpy as jnp", helper_imports.rstrip("\n"), ""] if helper_imports else ["import jax.numpy as jnp", ""]
    defs = []
    if col == "helper_same_module":
        defs.append("def _energy(x):\n" + _indent(body, 4) + "\n")
    if col == "method":
        defs.append("class Energy:\n    def of(self, x):\n" + _indent(body, 8) + "\n")
    inner_scaled = inner
    if shape == "method":
        loss_def = "class Model:\n    def loss(self, x):\n" + _indent(_scaled(inner_scaled, None), 8) + "\n"
    else:
        loss_def = "def loss(x, scale=1.0):\n" + _indent(_scaled(inner_scaled, "scale"), 4) + "\n"
    module_text = "\n".join(lines) + "\n\n" + "\n\n".join([*defs, loss_def])
    module_text = module_text.replace("\n\n\n\n", "\n\n\n")
    if row == "jitted_step_other_module":
        files["pkg/step.py"] = ("import jax\n\nfrom pkg import model\n\n\n@jax.jit\ndef step(x):\n"
                                "    return jax.grad(model.loss)(x)\n")
    train_head = "import jax\nimport jax.numpy as jnp\n" + (imports + "\n" if imports else "")
    if in_pkg:
        files["pkg/model.py"] = module_text
        train = train_head + "\n\n"
        loss_file = "pkg/model.py"
    else:
        train = "import jax\nimport jax.numpy as jnp\n" + helper_imports + "\n\n" + "\n\n".join([*defs, loss_def]) + "\n\n"
        loss_file = "train.py"
    train += ("if __name__ == \"__main__\":\n    x = jnp.array([0.0, -1.0, 2.0])\n    " + derive +
              "\n    print(\"nan in grad:\", bool(jnp.isnan(jnp.asarray(g)).any()))\n")
    files["train.py"] = train
    path = singular_file or loss_file
    text = files[path]
    if valid:
        return Cell(files, path, 0, 0, "")
    marker_at = text.index(marker)
    line = text.count("\n", 0, marker_at) + 1
    column = marker_at - (text.rfind("\n", 0, marker_at) + 1) + 1
    return Cell(files, path, line, column, message)


def _scaled(inner: str, scale: Optional[str]) -> str:
    """``loss``'s body: the column's code, its result times ``scale`` (the partial row)."""
    if scale is None:
        return inner
    head, _, last = inner.rpartition("\n")
    assert last.startswith("return ")
    return (head + "\n" if head else "") + f"return {scale} * ({last[len('return '):]})"


# -- axis B: JAX9xx --------------------------------------------------------------------
# How a program reaches a name JAX removed.  A row: the removed API; a column: how it is
# written -- "direct" (as the old tutorials wrote it), "alias" (under the user's own
# import alias), "reexport" (imported by a module of the project, `compat.py`, and used
# from there by `main.py`), "version_check" (under a check that JAX 0.10.2 decides for
# the old branch: `jax.__version__ >= "0.4.26"` compares strings, and "0.10.2" is
# smaller).  Each cell: (INVALID files, VALID files: the replacement, or a check that
# JAX 0.10.2 decides for the new branch).

_BRANCH = "if {test}:\n    {first}\nelse:\n    {second}\n"
_NEW_TAKEN = 'hasattr(jax, "tree")'  # true on JAX 0.10.2: the first branch runs
_OLD_TAKEN = 'jax.__version__ >= "0.4.26"'  # strings: "0.10.2" < "0.4.26", the else branch runs


def _api(head: str, old: tuple[str, str], new: tuple[str, str], alias: tuple[str, str, str],
         compat: tuple[str, str, str], branch: tuple[str, str, str]) -> dict[str, tuple[dict[str, str], dict[str, str]]]:
    """``old``/``new``: (import lines, use) of the removed API and of its replacement;
    ``alias``: (import line, use) under the user's alias, then the replacement's whole
    text; ``compat``: the project module's text, old and new, and ``main.py``'s use of
    it; ``branch``: the two statements a version check chooses between, and what follows."""
    a_head, a_use, a_new = alias
    c_old, c_new, c_use = compat
    b_old, b_new, b_after = branch
    main_c = "import jax\nimport compat\n" + c_use + "\n"
    return {
        "direct": ({"main.py": head + old[0] + old[1] + "\n"}, {"main.py": head + new[0] + new[1] + "\n"}),
        "alias": ({"main.py": a_head + a_use + "\n"}, {"main.py": a_new + "\n"}),
        "reexport": ({"compat.py": c_old + "\n", "main.py": main_c}, {"compat.py": c_new + "\n", "main.py": main_c}),
        "version_check": (
            {"main.py": head + _BRANCH.format(test=_OLD_TAKEN, first=b_new, second=b_old) + b_after},
            {"main.py": head + _BRANCH.format(test=_NEW_TAKEN, first=b_new, second=b_old) + b_after}),
    }


_KEY_USE = "def draw(key: {}) -> jax.Array:\n    return jax.random.normal(key)"
API_ROWS: dict[str, dict[str, tuple[dict[str, str], dict[str, str]]]] = {
    "tree_multimap": _api(
        "import jax\n", ("", "y = jax.tree_multimap(lambda a, b: a + b, [1.0], [2.0])"),
        ("", "y = jax.tree.map(lambda a, b: a + b, [1.0], [2.0])"),
        ("import jax.tree_util as tu\n", "y = tu.tree_multimap(lambda a, b: a + b, [1.0], [2.0])",
         "import jax.tree_util as tu\ny = tu.tree_map(lambda a, b: a + b, [1.0], [2.0])"),
        ("import jax\n\ntree_map2 = jax.tree_multimap", "import jax\n\ntree_map2 = jax.tree.map",
         "y = compat.tree_map2(lambda a, b: a + b, [1.0], [2.0])"),
        ("tmap = jax.tree_multimap", "tmap = jax.tree.map", "y = tmap(lambda a, b: a + b, [1.0], [2.0])\n")),
    "partial_from_jax": _api(
        "import jax\n", ("from jax import partial\n", "f = partial(max, 0)"),
        ("from functools import partial\n", "f = partial(max, 0)"),
        ("from jax import partial as bind\n", "f = bind(max, 0)", "from functools import partial as bind\nf = bind(max, 0)"),
        ("from jax import partial", "from functools import partial", "f = compat.partial(max, 0)"),
        ("from jax import partial", "from functools import partial", "f = partial(max, 0)\n")),
    "host_callback": _api(
        "import jax\n", ("import jax.experimental.host_callback as hcb\n", "y = hcb.id_print(1.0)"),
        ("", "jax.debug.print('{}', 1.0)"),
        ("import jax\nfrom jax.experimental.host_callback import id_print as show\n", "y = show(1.0)",
         "import jax\nfrom jax.debug import print as show\nshow('{}', 1.0)"),
        ("from jax.experimental import host_callback as hcb", "from jax import debug as hcb",
         "compat.hcb.print('{}', 1.0)"),
        ("from jax.experimental.host_callback import id_print", "id_print = print", "id_print(1.0)\n")),
    "optimizers": _api(
        "import jax\n", ("from jax.experimental import optimizers\n", "opt = optimizers.sgd(0.1)"),
        ("from jax.example_libraries import optimizers\n", "opt = optimizers.sgd(0.1)"),
        ("import jax.experimental.optimizers as optim\n", "opt = optim.sgd(0.1)",
         "import jax.example_libraries.optimizers as optim\nopt = optim.sgd(0.1)"),
        ("from jax.experimental import optimizers", "from jax.example_libraries import optimizers",
         "opt = compat.optimizers.sgd(0.1)"),
        ("from jax.experimental import optimizers", "from jax.example_libraries import optimizers",
         "opt = optimizers.sgd(0.1)\n")),
    "stax": _api(
        "import jax\n", ("from jax.experimental import stax\n", "init, apply = stax.Dense(3)"),
        ("from jax.example_libraries import stax\n", "init, apply = stax.Dense(3)"),
        ("from jax.experimental import stax as layers\n", "init, apply = layers.Dense(3)",
         "from jax.example_libraries import stax as layers\ninit, apply = layers.Dense(3)"),
        ("from jax.experimental import stax", "from jax.example_libraries import stax",
         "init, apply = compat.stax.Dense(3)"),
        ("from jax.experimental import stax", "from jax.example_libraries import stax",
         "init, apply = stax.Dense(3)\n")),
    "keyarray_annotation": _api(
        "import jax\n", ("", _KEY_USE.format("jax.random.KeyArray")), ("", _KEY_USE.format("jax.Array")),
        ("import jax\nimport jax.random as jr\n", _KEY_USE.format("jr.KeyArray"),
         "import jax\nimport jax.random as jr\n" + _KEY_USE.format("jax.Array")),
        ("import jax\n\nKey = jax.random.KeyArray", "import jax\n\nKey = jax.Array", _KEY_USE.format("compat.Key")),
        ("Key = jax.random.KeyArray", "Key = jax.Array", _KEY_USE.format("Key") + "\n")),
    "device_array": _api(
        "import jax\nimport jax.numpy as jnp\n", ("", "ok = isinstance(jnp.ones(2), jnp.DeviceArray)"),
        ("", "ok = isinstance(jnp.ones(2), jax.Array)"),
        ("import jax.numpy as np\n", "ok = isinstance(np.ones(2), np.DeviceArray)",
         "import jax\nimport jax.numpy as np\nok = isinstance(np.ones(2), jax.Array)"),
        ("import jax.numpy as jnp\n\nArray = jnp.DeviceArray", "import jax\n\nArray = jax.Array",
         "ok = isinstance(jax.numpy.ones(2), compat.Array)"),
        ("Array = jnp.DeviceArray", "Array = jax.Array", "ok = isinstance(jnp.ones(2), Array)\n")),
    "xla_device_array": _api(
        "import jax\n", ("import jax.interpreters.xla\n", "ok = isinstance(jax.numpy.ones(2), jax.interpreters.xla.DeviceArray)"),
        ("", "ok = isinstance(jax.numpy.ones(2), jax.Array)"),
        ("import jax\nfrom jax.interpreters import xla\n", "ok = isinstance(jax.numpy.ones(2), xla.DeviceArray)",
         "import jax\nok = isinstance(jax.numpy.ones(2), jax.Array)"),
        ("from jax.interpreters.xla import DeviceArray", "from jax import Array as DeviceArray",
         "ok = isinstance(jax.numpy.ones(2), compat.DeviceArray)"),
        ("from jax.interpreters.xla import DeviceArray", "from jax import Array as DeviceArray",
         "ok = isinstance(jax.numpy.ones(2), DeviceArray)\n")),
    "config_flag": _api(
        "import jax\n", ("", 'jax.config.update("jax_array", True)'), ("", 'jax.config.update("jax_enable_x64", True)'),
        ("import jax\nfrom jax import config as cfg\n", 'cfg.update("jax_enable_memories", True)',
         'import jax\nfrom jax import config as cfg\ncfg.update("jax_enable_x64", True)'),
        ('import jax\n\njax.config.update("jax_jit_pjit_api_merge", True)',
         'import jax\n\njax.config.update("jax_enable_x64", True)', "x = jax.numpy.ones(2)"),
        ('jax.config.update("jax_coordination_service", True)', 'jax.config.update("jax_enable_x64", True)',
         "x = jax.numpy.ones(2)\n")),
    "jax_core": _api(
        "import jax\n", ("import jax.core\n", "kind = jax.core.ConcreteArray"), ("import jax.core\n", "kind = jax.core.ShapedArray"),
        ("import jax\nfrom jax import core as jc\n", "kind = jc.ConcreteArray",
         "import jax\nfrom jax import core as jc\nkind = jc.ShapedArray"),
        ("from jax.core import ConcreteArray", "from jax.core import ShapedArray as ConcreteArray",
         "kind = compat.ConcreteArray"),
        ("from jax.core import ConcreteArray", "from jax.core import ShapedArray as ConcreteArray",
         "kind = ConcreteArray\n")),
    "jax_lib": _api(
        "import jax\n", ("import jax.lib\n", "backend = jax.lib.xla_bridge.get_backend()"),
        ("import jax.extend.backend\n", "backend = jax.extend.backend.get_backend()"),
        ("import jax\nfrom jax.lib import xla_bridge as xb\n", "backend = xb.get_backend()",
         "import jax\nbackend = jax.default_backend()"),
        ("from jax.lib import xla_bridge", "from jax.extend import backend as xla_bridge",
         "backend = compat.xla_bridge.get_backend()"),
        ("from jax.lib import xla_bridge", "from jax.extend import backend as xla_bridge",
         "backend = xla_bridge.get_backend()\n")),
}
API_COLUMNS = ("direct", "alias", "reexport", "version_check")
