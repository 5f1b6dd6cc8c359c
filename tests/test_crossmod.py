"""Kinds and tracing that cross modules through instances, factories and library
transformations (issue 22, items 1-4 of its recall misses): a method of an instance of a
project class called from traced code (``Cls(x).m(...)``, ``k = mod.Cls(...)``,
``self.sorter.order(...)`` with the sorter handed to ``__init__`` in a third module,
``d[mask]``), the function a factory returns (``lax.scan(get_cell(n), ...)``,
``jax.jit(step)`` of ``step = make_step(3)``, ``tx.update`` of an imported
``optax.GradientTransformation`` factory), ``g = jax.grad(mod.f)`` called under jit,
and a Python loop over a traced array handed through ``jit(grad(f))(..., x)``.

Every INVALID tree was run with JAX 0.10.2 (its error, or the jaxpr growing with the
data, observed); every VALID twin runs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from jaxlint.cli import cli


def _lint(root: Path, *args: str) -> list[tuple[str, str, int, int, str]]:
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "json",
                                      "--extend-select", "JAX503", *args])
    assert result.exit_code in (0, 1), result.output
    return [
        (f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"])
        for f in json.loads(result.stdout)
    ]


def _tree(root: Path, files: dict[str, str]) -> None:
    (root / "pyproject.toml").write_text("")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


KERNELS = """\
import jax
import jax.numpy as jnp
import numpy as np


class Matern:
    def __init__(self, scale):
        self.scale = scale

    def shifted(self, x):
        xs = jax.tree_util.tree_map(lambda v: np.append(v[0], v[:-1]), x)
        return jnp.exp(-jnp.abs(xs) / self.scale)

    def matmul(self, x, y):
        return self.shifted(x) @ y

    def grid(self, n):
        return np.append(np.arange(n), n)


class Sorter:
    def order(self, modes):
        return np.lexsort((modes[:, 1], modes[:, 0]))

    def count(self, modes):
        return np.prod(modes.shape)
"""

OBJECTIVE = """\
import functools

import jax


class Objective:
    def __init__(self, sorter, n):
        self.sorter = sorter
        self.n = n

    @functools.partial(jax.jit, static_argnums=(0,))
    def error(self, modes):
        return modes[self.sorter.order(modes)].sum()

    @functools.partial(jax.jit, static_argnums=(0,))
    def size(self, modes):
        return modes.sum() * self.sorter.count(modes)
"""

# each caller alone, with the finding it must give: (file, line, column, code, chain)
INSTANCE_CALLERS = {
    # an alias import, the instance built and used at once
    "alias": ("geo/fit.py", """\
import jax

from geo.kernels import Matern as M


@jax.jit
def condition(x, y):
    return M(1.5).matmul(x, y)
""", ("geo/kernels.py", 11, 47, "JAX204", "called from traced `shifted`")),
    # through the module's name, the instance held in a local
    "module": ("geo/fit.py", """\
import jax

import geo.kernels as K


@jax.jit
def condition(x, y):
    k = K.Matern(2.0)
    return k.matmul(x, y)
""", ("geo/kernels.py", 11, 47, "JAX204", "called from traced `shifted`")),
    # flax: a module's __call__ (applied under jax.jit(model.apply))
    "flax": ("geo/nets.py", """\
import flax.linen as nn

from geo.kernels import Matern


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(4)(Matern(1.0).matmul(x, x)[None])
""", ("geo/kernels.py", 11, 47, "JAX204", "called from traced `shifted`")),
    # equinox: a filtered jit
    "equinox": ("geo/nets.py", """\
import equinox as eqx
import jax.numpy as jnp

from geo.kernels import Sorter


@eqx.filter_jit
def step(modes):
    return Sorter().order(modes)


def run():
    return step(jnp.array([[0, 1], [1, 0]]))
""", ("geo/kernels.py", 23, 16, "JAX204", "called from `step` (geo/nets.py:9), which is decorated with @eqx.filter_jit")),
    # three modules: the sorter handed to __init__ by a driver, used as `self.sorter` in a jit
    "attribute": ("geo/drive.py", """\
import jax.numpy as jnp

from geo.kernels import Sorter
from geo.objective import Objective


def run():
    obj = Objective(Sorter(), 3)
    return obj.error(jnp.array([[0, 1], [1, 0]]))
""", ("geo/kernels.py", 23, 16, "JAX204",
      "called from `Objective.error` (geo/objective.py:13), which is wrapped by jax.jit")),
}

# the same shapes where the values are static: shapes, Python ints
INSTANCE_VALID = {
    "alias": ("geo/fit.py", """\
import jax

from geo.kernels import Matern as M


@jax.jit
def condition(x, y):
    return M(1.5).grid(x.shape[0]).sum() * y
"""),
    "attribute": ("geo/drive.py", """\
import jax.numpy as jnp

from geo.kernels import Sorter
from geo.objective import Objective


def run():
    obj = Objective(Sorter(), 3)
    return obj.size(jnp.array([[0, 1], [1, 0]]))
"""),
}


@pytest.mark.parametrize("way", sorted(INSTANCE_CALLERS))
def test_a_method_of_an_instance_of_another_modules_class_runs_traced(tmp_path, monkeypatch, way):
    """Checked with JAX: each caller raises TracerArrayConversionError in geo/kernels.py
    (np.append on the leaves tree_map hands the lambda; np.lexsort on traced columns)."""
    name, text, (path, line, col, code, chain) = INSTANCE_CALLERS[way]
    _tree(tmp_path, {"geo/__init__.py": "", "geo/kernels.py": KERNELS, "geo/objective.py": OBJECTIVE,
                     name: text})
    monkeypatch.chdir(tmp_path)
    found = _lint(tmp_path)
    assert [f[:4] for f in found] == [(code, path, line, col)]
    assert chain in found[0][4]


@pytest.mark.parametrize("way", sorted(INSTANCE_VALID))
def test_the_same_methods_given_static_values_stay_silent(tmp_path, monkeypatch, way):
    name, text = INSTANCE_VALID[way]
    # the objective without its `error` (jitted: it runs `order` on tracers whoever calls it)
    objective = OBJECTIVE.split("    @functools.partial", 1)[0] + "    @functools.partial" + \
        OBJECTIVE.split("    @functools.partial", 2)[2]
    assert "def error" not in objective and "def size" in objective
    _tree(tmp_path, {"geo/__init__.py": "", "geo/kernels.py": KERNELS, "geo/objective.py": objective,
                     name: text})
    monkeypatch.chdir(tmp_path)
    assert _lint(tmp_path) == []


def test_an_instance_indexed_by_a_tracer_calls_its_getitem(tmp_path, monkeypatch):
    """`d[mask]` in a jitted function: `Categorical.__getitem__` runs traced and hands the
    index to a helper of a third module that indexes the rows of `np.indices(...)` with it
    (distrax#291; JAX: TracerArrayConversionError)."""
    _tree(tmp_path, {
        "distr/__init__.py": "",
        "distr/shapes.py": (
            "import numpy as np\n\n\n"
            "def to_index(batch_shape, index):\n"
            "    return tuple([x[index] for x in np.indices(batch_shape)])\n"
        ),
        "distr/cat.py": (
            "from distr import shapes\n\n\n"
            "class Categorical:\n"
            "    def __init__(self, logits):\n"
            "        self.logits = logits\n\n"
            "    def __getitem__(self, index):\n"
            "        index = shapes.to_index(self.logits.shape[:-1], index)\n"
            "        return Categorical(self.logits[index])\n"
        ),
        "main.py": (
            "import jax\nimport jax.numpy as jnp\n\nfrom distr.cat import Categorical\n\n\n"
            "@jax.jit\n"
            "def foo(logits):\n"
            "    d = Categorical(logits)\n"
            "    return d[jnp.arange(logits.shape[0])].logits\n"
        ),
    })
    monkeypatch.chdir(tmp_path)
    found = _lint(tmp_path)
    assert [f[:4] for f in found] == [("JAX204", "distr/shapes.py", 5, 19)]
    assert ("called from `Categorical.__getitem__` (distr/cat.py:9), which is called from `foo` "
            "(main.py:10), which is decorated with @jax.jit") in found[0][4]


OPS = """\
import optax


def make_step(n):
    def step(x):
        if x.sum() > n:
            return x
        return -x
    return step


def make_update():
    def init_fn(params):
        return ()

    def update_fn(updates, state, params=None):
        if updates.sum() > 0:
            return updates, state
        return -updates, state
    return optax.GradientTransformation(init_fn, update_fn)


def loss(x):
    if x.sum() > 0:
        return (x ** 2).sum()
    return x.sum()
"""

FACTORY_CALLERS = {
    # the closure a factory returns, jitted in another module
    "closure": ("""\
import jax

from pk.ops import make_step


def main(x):
    step = make_step(3)
    return jax.jit(step)(x)
""", ("JAX201", "pk/ops.py", 6, 12), "wrapped by jax.jit in pk/main.py:8"),
    # optax: the update function of a GradientTransformation a factory builds
    "optax": ("""\
import jax

from pk import ops


def main(x):
    tx = ops.make_update()
    state = tx.init(x)

    @jax.jit
    def train(p, s):
        return tx.update(p, s)
    return train(x, state)
""", ("JAX201", "pk/ops.py", 17, 12), "called from `main.train` (pk/main.py:12), which is decorated with @jax.jit"),
    # a gradient built once at module level, called inside a jit
    "grad": ("""\
import jax

from pk import ops

g = jax.grad(ops.loss)


@jax.jit
def h(x):
    return g(x)
""", ("JAX201", "pk/ops.py", 24, 8), "called from `h` (pk/main.py:10), which is decorated with @jax.jit"),
}

# the same factories where nothing traces them: eager calls, grad alone
FACTORY_VALID = {
    "closure": """\
from pk.ops import make_step


def main(x):
    step = make_step(3)
    return step(x)
""",
    "optax": """\
from pk import ops


def main(x, g):
    tx = ops.make_update()
    return tx.update(g, tx.init(x))
""",
    "grad": """\
import jax

from pk import ops

g = jax.grad(ops.loss)


def h(x):
    return g(x)
""",
}


@pytest.mark.parametrize("way", sorted(FACTORY_CALLERS))
def test_what_a_factory_of_another_module_returns_runs_traced(tmp_path, monkeypatch, way):
    """Checked with JAX: TracerBoolConversionError at the `if` of each (the eager twins run)."""
    text, expected, chain = FACTORY_CALLERS[way]
    _tree(tmp_path, {"pk/__init__.py": "", "pk/ops.py": OPS, "pk/main.py": text})
    monkeypatch.chdir(tmp_path)
    found = _lint(tmp_path)
    assert [f[:4] for f in found] == [expected]
    assert chain in found[0][4]


@pytest.mark.parametrize("way", sorted(FACTORY_VALID))
def test_the_same_factories_run_eagerly_stay_silent(tmp_path, monkeypatch, way):
    _tree(tmp_path, {"pk/__init__.py": "", "pk/ops.py": OPS, "pk/main.py": FACTORY_VALID[way]})
    monkeypatch.chdir(tmp_path)
    assert _lint(tmp_path) == []


SCAN_CELL = """\
import jax
import jax.numpy as jnp


def get_cell(n):
    def cell(carry, x):
        for i in range(n):
            carry = carry + x[i]
        return carry, x
    return cell


"""
SCAN_RUNS = {
    "at-once": """
def run(xs, n):
    return jax.lax.scan(get_cell(n), jnp.zeros(()), xs)
""",
    "named": """
def run(xs, n):
    cell = get_cell(n)
    return jax.lax.scan(cell, jnp.zeros(()), xs)
""",
}


@pytest.mark.parametrize("way", sorted(SCAN_RUNS))
def test_a_scan_body_a_factory_returns(tmp_path, monkeypatch, way):
    """jax#3596: the body of `lax.scan` is the closure `get_cell(n)` returns, its loop
    unrolled `n` times (the jaxpr grows with `n`), given at once or through a name."""
    (tmp_path / "main.py").write_text(SCAN_CELL + SCAN_RUNS[way])
    monkeypatch.chdir(tmp_path)
    found = _lint(tmp_path)
    assert [f[:4] for f in found] == [("JAX503", "main.py", 7, 18)]
    assert found[0][4].startswith(
        "this Python loop runs `n` times, a parameter of `get_cell`, which builds the traced function, "
        "while JAX traces `cell`")


LIKELIHOOD = """\
from jax.numpy import exp, log


def likelihood(s, m, w):
    total = 0
    for x in w:
        total += -log(exp(-((x - m) / s) ** 2 / 2.0))
    return total


def mlp(params, x):
    for w, b in params:
        x = x @ w + b
    return x
"""


def test_a_loop_over_a_traced_array_of_another_module(tmp_path, monkeypatch):
    """jax#2515 split in two modules: `jit(grad(likelihood))(s, m, x)` with `x` a NumPy
    array (through a helper's parameter) traces one copy of the loop body per data point;
    a loop over a list of layers passed to jit stays silent (its length is the list's)."""
    _tree(tmp_path, {
        "lik.py": LIKELIHOOD,
        "fit.py": (
            "import jax\nimport jax.numpy as jnp\nfrom jax import grad, jit\nfrom numpy import random\n\n"
            "from lik import likelihood, mlp\n\nsigma = 5.0\n\n\n"
            "def dev(pars, x):\n"
            "    return jit(grad(likelihood))(pars[0], pars[1], x)\n\n\n"
            "def main():\n"
            "    x = random.randn(100) * sigma + 1.0\n"
            "    dev((1.0, 2.0), x)\n"
            "    params = [(jnp.ones((3, 3)), jnp.ones(3)) for _ in range(2)]\n"
            "    return jax.jit(mlp)(params, jnp.ones(3))\n"
        ),
    })
    monkeypatch.chdir(tmp_path)
    found = _lint(tmp_path)
    assert [f[:4] for f in found] == [("JAX501", "fit.py", 12, 12), ("JAX503", "lik.py", 6, 14)]
    assert found[1][4] == (
        "this Python loop runs once per row of `w`, a traced array argument of `likelihood`, while JAX "
        "traces `likelihood`: it is unrolled, and compile time grows with the data size. Vectorise "
        "(`jax.vmap` the body) or use `lax.scan` over `w`")


IN_ONE_FILE = """\
import jax
import numpy as np


class Sorter:
    def order(self, modes):
        return np.lexsort((modes[:, 1], modes[:, 0]))

    def count(self, modes):
        return np.prod(modes.shape)


class Objective:
    def __init__(self):
        self.sorter = Sorter()

    def error(self, modes):
        return modes[self.sorter.order(modes)].sum()


@jax.jit
def run(modes):
    return Objective().error(modes)


@jax.jit
def run2(modes):
    s = Sorter()
    return modes.sum() * s.count(modes)
"""


def test_methods_of_instances_of_a_class_of_the_same_file(tmp_path, monkeypatch):
    """`Objective().error(modes)` in a jit, `self.sorter = Sorter()` in `__init__`: `order`
    runs traced (JAX: TracerArrayConversionError); `s.count(modes)` of a local instance
    reads only the shape (runs: 8)."""
    (tmp_path / "main.py").write_text(IN_ONE_FILE)
    monkeypatch.chdir(tmp_path)
    found = _lint(tmp_path)
    assert [f[:4] for f in found] == [("JAX204", "main.py", 7, 16)]
    assert "(called from traced `error`)" in found[0][4]


def test_instance_kinds_travel_only_once_named_where_the_class_is_defined():
    """`obj:Sorter` (as the caller writes it) crosses modules only after project/facts.py
    names the class (`obj:@geo.kernels:Sorter`); a warm run reads the same spelling."""
    from jaxlint.model import kinds
    from jaxlint.project.facts import OBJ, carries_kind

    assert OBJ == kinds.OBJ
    assert carries_kind({"pos": ["obj:@geo.kernels:Sorter", "unknown"], "kw": {}})
    assert not carries_kind({"pos": ["obj:Sorter"], "kw": {}})
    params = [type("P", (), {"name": n, "kind": "pos"})() for n in ("sorter", "n")]
    assert kinds.fact_kinds(params, ["obj:@geo.kernels:Sorter", "obj:Sorter"], {}) == {
        "sorter": "obj:@geo.kernels:Sorter", "n": "unknown"}


LINEN_MODEL = """\
import flax.linen as nn
import numpy as np


class Linear(nn.Module):
    features: int

    def setup(self):
        self.dense = nn.Dense(self.features)

    def __call__(self, x):
        return self.dense(np.asarray(x))


class Model(nn.Module):
    def setup(self):
        self.first = Linear(4)

    def __call__(self, x):
        return self.first(x)
"""

LINEN_APPLIERS = {
    # the module built in place and applied in a jitted function
    "in-place": ("pkg/train.py", """\
import jax

from pkg.model import Model


@jax.jit
def predict(variables, x):
    return Model().apply(variables, x)
""", "called from traced `__call__`"),
    # an instance bound to a name, its `apply` jitted, the class reached through the module
    "jit-apply": ("pkg/serve.py", """\
import jax

from pkg import model as M

net = M.Model()
serve = jax.jit(net.apply)
""", "called from traced `__call__`"),
    # flax `apply`'s own keywords (`rngs=`, `mutable=`) are not arguments of `__call__`:
    # the apply still runs it (an instance bound to a name; the class imported by name)
    "rngs": ("pkg/train.py", """\
import jax

from pkg.model import Model

model = Model()


@jax.jit
def step(variables, x, key):
    return model.apply(variables, x, rngs={"dropout": key})
""", "called from traced `__call__`"),
    "mutable": ("pkg/train.py", """\
import jax

from pkg import model as M


@jax.jit
def step(variables, x):
    out, state = M.Model().apply(variables, x, mutable=["batch_stats"])
    return out, state
""", "called from traced `__call__`"),
}


@pytest.mark.parametrize("way", sorted(LINEN_APPLIERS))
def test_a_flax_module_applied_under_jit_in_another_module_runs_its_submodules_traced(tmp_path, monkeypatch, way):
    """Checked with JAX: both ways raise TracerArrayConversionError at `np.asarray(x)` in the
    submodule `Linear` (unifyai/ivy#16255's shape: the model applied by another module)."""
    name, text, chain = LINEN_APPLIERS[way]
    _tree(tmp_path, {"pkg/__init__.py": "", "pkg/model.py": LINEN_MODEL, name: text})
    monkeypatch.chdir(tmp_path)
    found = _lint(tmp_path)
    assert [f[:4] for f in found] == [("JAX204", "pkg/model.py", 12, 27)]
    assert chain in found[0][4]


def test_a_flax_module_applied_eagerly_or_with_jnp_stays_silent(tmp_path, monkeypatch):
    _tree(tmp_path, {"pkg/__init__.py": "",
                     "pkg/model.py": LINEN_MODEL,
                     "pkg/fixed.py": LINEN_MODEL.replace("import numpy as np", "import jax.numpy as np"),
                     "pkg/eager.py": "from pkg.model import Model\n\n\ndef predict(variables, x):\n"
                                     "    return Model().apply(variables, x)\n",
                     "pkg/serve.py": "import jax\n\nfrom pkg import fixed\n\nserve = jax.jit(fixed.Model().apply)\n"})
    monkeypatch.chdir(tmp_path)
    assert _lint(tmp_path) == []
