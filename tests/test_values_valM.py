"""Round 20, valM: where values come from, the cases the origin matrix (tests/matrix_valM.py)
does not hold: a list helper of a module that never names JAX, the getter of a module-level
key (same module, another module), and what the callers of an ``Initializer`` parameter
pass (an initializer that draws nothing).  Each INVALID project has a VALID twin that stays
silent (the corrected code)."""

from project_files import lint_files


def _list_msg(fn: str) -> str:
    return (f"`jnp.{fn}` does not accept a Python list: this raises `TypeError: {fn} requires ndarray or scalar "
            f"arguments, got <class 'list'>`. Convert it first with `jnp.asarray(...)`")


# pkgrev19 p31 (REPORT.md, "missed"): a list built by a helper of a module that never names JAX
_WEIGHTS = """\
def class_weights(counts):
    total = sum(counts)
    return [total / (len(counts) * c) for c in counts]


def uniform(n):
    return [1.0 / n] * n if n else []
"""
_LOSSES = """\
import jax.numpy as jnp

from utils.weights import class_weights
from utils import weights


def weighted(nll, labels, counts):
    w = class_weights(counts)
    return jnp.sum(nll * jnp.take(w, labels)) / jnp.sum(weights.class_weights(counts))
"""
_LOSSES_FIXED = """\
import jax.numpy as jnp

from utils.weights import class_weights
from utils import weights


def weighted(nll, labels, counts):
    w = jnp.asarray(class_weights(counts))
    return jnp.sum(nll * jnp.take(w, labels)) / jnp.sum(jnp.asarray(weights.class_weights(counts)))
"""


def test_list_helper_of_a_module_without_jax(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"utils/__init__.py": "", "utils/weights.py": _WEIGHTS,
                                               "losses.py": _LOSSES}, select="JAX130")
    assert found == [
        ("JAX130", "losses.py", 9, 35, _list_msg("take")),
        ("JAX130", "losses.py", 9, 57, _list_msg("sum")),
    ]


def test_list_helper_converted_is_silent(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"utils/__init__.py": "", "utils/weights.py": _WEIGHTS,
                                               "losses.py": _LOSSES_FIXED}, select="JAX130")
    assert found == []


# pkgrev19 p41 (REPORT.md, "missed"): `get_key()` hands back the same module-level key at
# every call; JAX 0.10.2: `normal(get_key(), (3,)) == normal(get_key(), (3,))` is all True
_RNG = """\
import jax

_KEY = jax.random.key(0)


def get_key():
    return _KEY
"""
_RNG_FIXED = """\
import jax

_KEY = jax.random.key(0)
_COUNT = [0]


def get_key():
    _COUNT[0] += 1
    return jax.random.fold_in(_KEY, _COUNT[0])
"""
_GETTER_MAIN = """\
import jax

from utils import get_key
from utils import rng


def init(key, n):
    return jax.random.normal(key, (n,))


if __name__ == "__main__":
    w = init(get_key(), 3)
    noise = jax.random.normal(get_key(), (3,))
    b = jax.random.uniform(rng.get_key(), (3,))
    c = jax.random.uniform(rng.get_key(), (3,))
"""
_GETTER_ONE_FILE = """\
import jax

SEED_KEY = jax.random.PRNGKey(42)


def seed_key():
    return SEED_KEY


def sample(n):
    a = jax.random.normal(seed_key(), (n,))
    b = jax.random.normal(seed_key(), (n,))
    return a, b
"""


def _reuse(name: str, by: str, line: int) -> str:
    return (f"`{name}` was already consumed by `{by}` on line {line}: both calls get the same random bits. "
            f"Split it first, e.g. `k1, k2 = jax.random.split({name})`, and give each call its own key")


def test_getter_of_a_module_level_key(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"utils/__init__.py": "from .rng import get_key\n",
                                               "utils/rng.py": _RNG, "main.py": _GETTER_MAIN,
                                               "one.py": _GETTER_ONE_FILE}, select="JAX301")
    assert found == [
        ("JAX301", "main.py", 13, 13, _reuse("get_key()", "init()", 12)),
        ("JAX301", "main.py", 15, 9, _reuse("rng.get_key()", "random.uniform", 14)),
        ("JAX301", "one.py", 12, 9, _reuse("seed_key()", "random.normal", 11)),
    ]


def test_getter_of_a_fresh_key_is_silent(tmp_path, monkeypatch):
    one = _GETTER_ONE_FILE.replace("def seed_key():\n    return SEED_KEY",
                                   "def seed_key():\n    return jax.random.PRNGKey(42)")
    one = one.replace("    a = jax.random.normal(seed_key(), (n,))\n    b = jax.random.normal(seed_key(), (n,))",
                      "    k1, k2 = jax.random.split(seed_key())\n    a = jax.random.normal(k1, (n,))\n"
                      "    b = jax.random.normal(k2, (n,))")
    found = lint_files(tmp_path, monkeypatch, {"utils/__init__.py": "from .rng import get_key\n",
                                               "utils/rng.py": _RNG_FIXED, "main.py": _GETTER_MAIN,
                                               "one.py": one}, select="JAX301")
    assert found == []


# diffrev19 REPORT.md section 3: `b_init: Initializer` whose only callers pass `zeros` draws nothing
# (JAX 0.10.2: `zeros(k1, s) == zeros(k2, s)`, and jax_debug_key_reuse raises nothing)
_DENSE = """\
import jax
from jax.nn.initializers import Initializer


def dense(key, n_in, n_out, w_init: Initializer, b_init: Initializer):
    return {"w": w_init(key, (n_in, n_out)), "b": b_init(key, (n_out,))}
"""
_DENSE_CALLERS = """\
import jax
from jax.nn.initializers import Initializer, lecun_normal, zeros, ones
from jax.nn import initializers as init

from layers import dense


def mlp(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [dense(k, a, b, lecun_normal(), {B}) for k, a, b in zip(keys, sizes[:-1], sizes[1:])]


def head(key, n, w_init: Initializer, b_init: Initializer):
    return w_init(key, (n, n)), b_init(key, (n,))


def heads(key):
    return head(key, 4, lecun_normal(), {B2}), head(key, 8, init.glorot_normal(), b_init={B3})
"""


def test_initializer_parameter_given_a_drawing_initializer(tmp_path, monkeypatch):
    callers = _DENSE_CALLERS.format(B="lecun_normal()", B2="ones", B3="init.normal()")
    found = lint_files(tmp_path, monkeypatch, {"layers.py": _DENSE, "nets.py": callers}, select="JAX301")
    assert [f[:4] for f in found] == [
        ("JAX301", "layers.py", 6, 51),
        ("JAX301", "nets.py", 14, 33),
    ]


def test_initializer_parameter_given_zeros_is_silent(tmp_path, monkeypatch):
    # (`ones` at one call and `zeros` at the other join to unknown: the model keeps which one)
    callers = _DENSE_CALLERS.format(B="zeros", B2="init.zeros", B3="init.zeros")
    callers = callers.replace("    return head(key, 4, lecun_normal(), init.zeros), head(key, 8, init.glorot_normal(), "
                              "b_init=init.zeros)",
                              "    k1, k2 = jax.random.split(key)\n"
                              "    return head(k1, 4, lecun_normal(), init.zeros), head(k2, 8, init.glorot_normal(), "
                              "b_init=init.zeros)")
    assert "k1, k2" in callers
    found = lint_files(tmp_path, monkeypatch, {"layers.py": _DENSE, "nets.py": callers}, select="JAX301")
    assert found == []


def test_lambda_called_by_name_is_read_as_before(tmp_path, monkeypatch):
    # a lambda bound to a name and called (its unit has no decorators): the key-getter
    # reading looks at plain functions only (an internal error on flax and optax before)
    main = """\
import jax
import jax.numpy as jnp

KEY = jax.random.PRNGKey(0)
make = lambda: KEY
zeros = lambda n: jnp.zeros(n)


def sample():
    a = jax.random.normal(make(), (2,))
    b = jax.random.normal(make(), (2,))
    z = zeros(3)
    z[0] = 1.0
    return a, b, z
"""
    found = lint_files(tmp_path, monkeypatch, {"main.py": main}, select="JAX101,JAX301")
    assert found == []  # (what the lambdas return is not read: unknown never reports)
