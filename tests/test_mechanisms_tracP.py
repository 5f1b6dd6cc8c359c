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
