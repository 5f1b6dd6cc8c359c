"""Mechanisms of the tracP round (which code runs traced, which values are tracers).

Each mechanism: INVALID examples written several ways, and a VALID twin of each that
stays silent.  Sources: recall case 1404 (rejax, ``if not (train_state or rng)`` in
``DQN.train``, a classmethod given to ``jax.jit(DQN.train)``;
https://github.com/keraJLi/rejax/commit/bc825f47f19b832f5d7d6f28d2d8f12550a5f44c).
"""

from tests.project_files import lint_files

MSG_RNG = (
    "Python `if` on a traced value: it depends on the traced argument `rng` of `{fn}` ({how}); this raises "
    "TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; or, if `rng` is a Python value, mark it "
    "static ({hint})"
)


# -- a jitted function's defaulted parameter that no call passes holds its default:
#    `state or rng` with `state=None` converts `rng` (case 1404) -------------------------

def test_classmethod_jitted_through_its_class_or_on_unpassed_default(tmp_path, monkeypatch):
    # case 1404: `jax.jit(DQN.train)` of a classmethod (`cls` bound), called with a key
    files = {"train.py": (
        "import jax\n"
        "\n"
        "\n"
        "class DQN:\n"
        "    @classmethod\n"
        "    def train(cls, config, rng=None, train_state=None):\n"
        "        if not (train_state or rng):\n"
        "            raise ValueError('either train_state or rng')\n"
        "        return config\n"
        "\n"
        "\n"
        "train_fn = jax.jit(DQN.train)\n"
        "train_fn(1.0, jax.random.PRNGKey(0))\n"
    )}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX201") == [
        ("JAX201", "train.py", 7, 32, MSG_RNG.format(fn="train", how="wrapped by jax.jit", hint="static_argnames='rng'")),
    ]


def test_classmethod_valid_twin_checks_none(tmp_path, monkeypatch):
    files = {"train.py": (
        "import jax\n"
        "\n"
        "\n"
        "class DQN:\n"
        "    @classmethod\n"
        "    def train(cls, config, rng=None, train_state=None):\n"
        "        if train_state is None and rng is None:\n"
        "            raise ValueError('either train_state or rng')\n"
        "        return config\n"
        "\n"
        "\n"
        "train_fn = jax.jit(DQN.train)\n"
        "train_fn(1.0, jax.random.PRNGKey(0))\n"
    )}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX201") == []


def test_plain_function_wrapped_by_name_or_on_unpassed_default(tmp_path, monkeypatch):
    # case 1404 written as a function: `step = jax.jit(train)`, the key passed by keyword
    files = {"loop.py": (
        "import jax\n"
        "\n"
        "\n"
        "def train(config, state=None, rng=None):\n"
        "    if state or rng:\n"
        "        return config\n"
        "    return -config\n"
        "\n"
        "\n"
        "step = jax.jit(train)\n"
        "step(2.0, rng=jax.random.key(1))\n"
    )}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX201") == [
        ("JAX201", "loop.py", 5, 17, MSG_RNG.format(fn="train", how="wrapped by jax.jit", hint="static_argnums=2")),
    ]


def test_plain_function_valid_twin_default_true(tmp_path, monkeypatch):
    # `use_cache=True or rng`: the left operand is true, `or` never reaches the key
    files = {"loop.py": (
        "import jax\n"
        "\n"
        "\n"
        "def train(config, use_cache=True, rng=None):\n"
        "    if use_cache or rng:\n"
        "        return config\n"
        "    return -config\n"
        "\n"
        "\n"
        "step = jax.jit(train)\n"
        "step(2.0, rng=jax.random.key(1))\n"
    )}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX201") == []


def test_decorated_jit_and_on_unpassed_true_default(tmp_path, monkeypatch):
    # case 1404 written with `and`: `check=True and key` converts the key
    files = {"sample.py": (
        "import jax\n"
        "import jax.numpy as jnp\n"
        "\n"
        "\n"
        "@jax.jit\n"
        "def sample(x, rng=None, check=True):\n"
        "    if check and rng:\n"
        "        return x + 1.0\n"
        "    return x\n"
        "\n"
        "\n"
        "sample(jnp.ones(3), jax.random.PRNGKey(0))\n"
    )}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX201") == [
        ("JAX201", "sample.py", 7, 18, MSG_RNG.format(fn="sample", how="decorated with @jax.jit",
                                                       hint="static_argnums=1")),
    ]


def test_decorated_jit_valid_twin_static_flag(tmp_path, monkeypatch):
    # the flag is static and passed False by the call: `and` stops before the key
    files = {"sample.py": (
        "from functools import partial\n"
        "\n"
        "import jax\n"
        "import jax.numpy as jnp\n"
        "\n"
        "\n"
        "@partial(jax.jit, static_argnames='check')\n"
        "def sample(x, rng=None, check=True):\n"
        "    if check and rng:\n"
        "        return x + 1.0\n"
        "    return x\n"
        "\n"
        "\n"
        "sample(jnp.ones(3), jax.random.PRNGKey(0), check=False)\n"
    )}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX201") == []


# -- a classmethod jitted through its class in another module: `cls` is bound, so
#    static_argnums counts from the parameter after it ----------------------------------

def test_imported_classmethod_jitted_counts_static_after_cls(tmp_path, monkeypatch):
    # valid: `n` is static (position 0 after `cls`); main reported it as traced
    files = {
        "algos.py": (
            "class Scaler:\n"
            "    @classmethod\n"
            "    def apply(cls, n, x):\n"
            "        if n > 2:\n"
            "            return x * n\n"
            "        return x\n"
        ),
        "main.py": (
            "import jax\n"
            "import jax.numpy as jnp\n"
            "\n"
            "from algos import Scaler\n"
            "\n"
            "f = jax.jit(Scaler.apply, static_argnums=0)\n"
            "print(f(3, jnp.ones(2)))\n"
        ),
    }
    assert lint_files(tmp_path, monkeypatch, files, select="JAX201") == []


def test_imported_classmethod_jitted_through_module_counts_static_after_cls(tmp_path, monkeypatch):
    # the same through the module (`algos.Scaler.apply`); static `n`, traced `x`
    files = {
        "algos.py": (
            "class Scaler:\n"
            "    @classmethod\n"
            "    def apply(cls, n, x):\n"
            "        if n > 2:\n"
            "            return x * n\n"
            "        if x.sum() > 0:\n"
            "            return x\n"
            "        return -x\n"
        ),
        "main.py": (
            "import jax\n"
            "import jax.numpy as jnp\n"
            "\n"
            "import algos\n"
            "\n"
            "f = jax.jit(algos.Scaler.apply, static_argnums=(0,))\n"
            "print(f(3, jnp.ones(2)))\n"
        ),
    }
    found = lint_files(tmp_path, monkeypatch, files, select="JAX201")
    assert [(c, p, r, col) for c, p, r, col, _ in found] == [("JAX201", "algos.py", 6, 12)]


# -- a method an instance inherits runs traced when traced code calls it: from a base of
#    the same file, or of another module (case 1406: skrl's `policy.act`, `act` from
#    `MultiCategoricalMixin`; https://github.com/Toni-SM/skrl/commit/08c01d9ae886e5de20914e216fbbde7e55ff9c33)

_MIXIN_SAME_FILE = (
    "import jax\n"
    "import jax.numpy as jnp\n"
    "\n"
    "\n"
    "class Base:\n"
    "    def act(self, x):\n"
    "        if jnp.linalg.norm(x) > 1e3:\n"
    "            return x / 1e3\n"
    "        return x\n"
    "\n"
    "\n"
    "class Policy(Base):\n"
    "{override}"
    "    def __init__(self, n):\n"
    "        self.n = n\n"
    "\n"
    "\n"
    "policy = Policy(3)\n"
    "\n"
    "\n"
    "@jax.jit\n"
    "def loss(x):\n"
    "    return policy.act(x).sum()\n"
)


def test_inherited_method_of_a_base_of_this_file_runs_traced(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"policy.py": _MIXIN_SAME_FILE.format(override="")}, select="JAX201")
    assert found == [(
        "JAX201", "policy.py", 7, 12,
        "Python `if` on a traced value: it depends on the traced argument `x` of `act` (called from traced "
        "`loss`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`",
    )]


def test_inherited_method_valid_twin_subclass_overrides_it(tmp_path, monkeypatch):
    # the subclass's own `act` runs, not the base's
    override = (
        "    def act(self, x):\n"
        "        return jnp.where(jnp.linalg.norm(x) > 1e3, x / 1e3, x)\n"
        "\n"
    )
    found = lint_files(tmp_path, monkeypatch, {"policy.py": _MIXIN_SAME_FILE.format(override=override)},
                       select="JAX201")
    assert found == []


_MIXIN_MODULE = (
    "import jax.numpy as jnp\n"
    "import numpy as np\n"
    "\n"
    "\n"
    "class MultiCategoricalMixin:\n"
    "    def act(self, net_output):\n"
    "        return jnp.split(net_output, {cumsum}(self.nvec), axis=-1)\n"
)

_POLICY_MAIN = (
    "import jax\n"
    "import jax.numpy as jnp\n"
    "import numpy as np\n"
    "\n"
    "from models.mixins import MultiCategoricalMixin\n"
    "\n"
    "\n"
    "class Policy(MultiCategoricalMixin):\n"
    "    def __init__(self, nvec):\n"
    "        self.nvec = np.asarray(nvec)\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    policy = Policy([3, 2])\n"
    "\n"
    "    @jax.jit\n"
    "    def policy_loss(out):\n"
    "        return sum(o.sum() for o in policy.act(out))\n"
    "\n"
    "    print(policy_loss(jnp.ones((8, 5))))\n"
)


def test_inherited_method_of_a_base_of_another_module_runs_traced(tmp_path, monkeypatch):
    # case 1406: the split points are a JAX result inside the jitted loss
    files = {"models/__init__.py": "", "models/mixins.py": _MIXIN_MODULE.format(cumsum="jnp.cumsum"),
             "main.py": _POLICY_MAIN}
    found = lint_files(tmp_path, monkeypatch, files, select="JAX202")
    assert found == [(
        "JAX202", "models/mixins.py", 7, 38,
        "A shape or size passed to `jnp.split` is traced: it is computed by JAX inside `act` (called from "
        "`policy_loss` (main.py:18), which is decorated with @jax.jit); shapes must be concrete "
        "(ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected). Derive "
        "it from `x.shape`, or pass it as a static argument",
    )]


def test_inherited_method_of_another_module_valid_twin_host_cumsum(tmp_path, monkeypatch):
    # the fix of case 1406: NumPy's cumsum of the host array is a Python value
    files = {"models/__init__.py": "", "models/mixins.py": _MIXIN_MODULE.format(cumsum="np.cumsum"),
             "main.py": _POLICY_MAIN}
    assert lint_files(tmp_path, monkeypatch, files, select="JAX202") == []


def test_inherited_method_through_a_module_level_instance_of_another_module(tmp_path, monkeypatch):
    # the base in a package, the instance at module level, a helper of the jitted step calls it
    files = {
        "pkg/__init__.py": "",
        "pkg/mix.py": (
            "import jax.numpy as jnp\n"
            "\n"
            "\n"
            "class Normalizer:\n"
            "    def check(self, x):\n"
            "        assert jnp.all(jnp.isfinite(x)), 'non-finite input'\n"
            "        return x\n"
        ),
        "train.py": (
            "import jax\n"
            "\n"
            "from pkg.mix import Normalizer\n"
            "\n"
            "\n"
            "class Checked(Normalizer):\n"
            "    pass\n"
            "\n"
            "\n"
            "CHECK = Checked()\n"
            "\n"
            "\n"
            "def helper(x):\n"
            "    return CHECK.check(x) * 2\n"
            "\n"
            "\n"
            "@jax.jit\n"
            "def step(x):\n"
            "    return helper(x)\n"
        ),
    }
    found = lint_files(tmp_path, monkeypatch, files, select="JAX201")
    assert [(c, p, r, col) for c, p, r, col, _ in found] == [("JAX201", "pkg/mix.py", 6, 16)]


def test_inherited_method_module_level_instance_valid_twin_eager_only(tmp_path, monkeypatch):
    # the same check called outside the trace (on the concrete result) stays silent
    files = {
        "pkg/__init__.py": "",
        "pkg/mix.py": (
            "import jax.numpy as jnp\n"
            "\n"
            "\n"
            "class Normalizer:\n"
            "    def check(self, x):\n"
            "        assert jnp.all(jnp.isfinite(x)), 'non-finite input'\n"
            "        return x\n"
        ),
        "train.py": (
            "import jax\n"
            "import jax.numpy as jnp\n"
            "\n"
            "from pkg.mix import Normalizer\n"
            "\n"
            "\n"
            "class Checked(Normalizer):\n"
            "    pass\n"
            "\n"
            "\n"
            "CHECK = Checked()\n"
            "\n"
            "\n"
            "@jax.jit\n"
            "def step(x):\n"
            "    return x * 2\n"
            "\n"
            "\n"
            "CHECK.check(step(jnp.ones(3)))\n"
        ),
    }
    assert lint_files(tmp_path, monkeypatch, files, select="JAX201") == []
