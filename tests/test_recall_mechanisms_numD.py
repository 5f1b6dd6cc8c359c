"""Batch 11's misses by mechanism (issue 22, branch numD): a call of a removed JAX name
that more than one live import binds (each of them removed), a `where` branch that calls
a function of the project which divides by (or takes the root or log of) the masked
input, a gradient clip whose divisor is a Euclidean norm (guarding the division leaves
the norm's own NaN gradient at 0), and 64-bit data that JAX silently narrows to 32 bits.

Each INVALID program's error or wrong result (ImportError, a NaN gradient, a float32
result, an int32 overflow) was observed with JAX 0.10.2; the VALID twins run and stay
silent."""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str], select: str) -> list[tuple]:
    return lint_files(root, monkeypatch, files, select=select, dedent=True)


# 1. Case 1110 (https://github.com/lindermanlab/ssm-jax/issues/37): the removed
# `tree_multimap` imported twice, from `jax` and from `jax.tree_util`; whichever import
# binds it, the name is gone, so its call site is reported as a single import's is.
# The compatibility shim (a fallback import of `tree_map` under the old name) and a
# second import of a name JAX still has stay silent at the call.

TREES = """\
import jax.numpy as np
from jax import vmap, lax, tree_multimap
from jax.tree_util import tree_map, tree_reduce, tree_multimap


def tree_all_equal(tree1, tree2):
    return tree_reduce(
        lambda x, y: np.all(x) == np.all(y) == True,
        tree_multimap(lambda x, y: np.all(x == y), tree1, tree2),
        True
    )
"""

TREES_SHIM = """\
try:
    from jax import tree_multimap
except ImportError:
    from jax.tree_util import tree_map as tree_multimap
from jax.experimental.host_callback import id_print
from jax.tree_util import tree_map as id_print


def tree_add(a, b):
    id_print(a)
    return tree_multimap(lambda x, y: x + y, a, b)
"""

_MULTIMAP = ("was removed in JAX 0.3.16 (deprecated in 0.3.5): use `jax.tree.map` instead "
             "(tree_map takes several trees")


def test_removed_name_bound_by_two_live_imports_is_reported_at_its_call(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"utils.py": TREES}, "JAX901") == [
        ("JAX901", "utils.py", 2, 28,
         f"`from jax import tree_multimap` {_MULTIMAP}; the top-level alias went with tree_util's)"),
        ("JAX901", "utils.py", 3, 50, f"`from jax.tree_util import tree_multimap` {_MULTIMAP})"),
        ("JAX901", "utils.py", 9, 9,
         f"`tree_multimap` (`jax.tree_util.tree_multimap`) {_MULTIMAP})"),
    ]


def test_shim_or_live_replacement_import_keeps_the_call_silent(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"utils.py": TREES_SHIM}, "JAX901")
    assert [(f[2], f[3]) for f in found] == [(5, 44)]  # the removed import itself only


# 2. Case 1114 (https://github.com/GalSim-developers/JAX-GalSim/pull/194): the k = 0
# normalisation selected with `jnp.where`, while the other branch calls a Bessel helper
# that divides by `k` (infinite at 0): the gradient is NaN at the centre.  The same
# written another way: a plain function taking the log of the masked input, passed by
# keyword.
# The PR's fix (`k_msk = jnp.where(k > 0, k, 1.0)` passed instead) and a helper that
# guards its own input stay silent.

MOFFAT = """\
import jax
import jax.numpy as jnp


def _Knu(nu, x):
    return jnp.sqrt(jnp.pi / (2.0 * x)) * jnp.exp(-x) * (1.0 + (4.0 * nu * nu - 1.0) / (8.0 * x))


class Moffat:
    def __init__(self, beta, flux):
        self.beta = beta
        self.flux = flux

    def _kValue_untrunc(self, k):
        return jnp.where(k > 0, self.flux * jnp.power(k, self.beta - 1.0) * _Knu(self.beta - 1.0, k), self.flux)

    def _kValue_fixed(self, k):
        k_msk = jnp.where(k > 0, k, 1.0)
        return jnp.where(k > 0, self.flux * jnp.power(k_msk, self.beta - 1.0) * _Knu(self.beta - 1.0, k_msk), self.flux)


def kvalue(beta, k):
    return Moffat(beta, 1.0)._kValue_untrunc(k).sum()


def kvalue_fixed(beta, k):
    return Moffat(beta, 1.0)._kValue_fixed(k).sum()


if __name__ == "__main__":
    k = jnp.array([0.0, 0.5])
    print(jax.grad(kvalue)(3.0, k), jax.grad(kvalue_fixed)(3.0, k))  # nan, finite
"""

LOSSES = """\
import jax
import jax.numpy as jnp


def entropy_term(p):
    return p * jnp.log(p)


def safe_entropy_term(p):
    p = jnp.where(p > 0, p, 1.0)
    return p * jnp.log(p)


def entropy(p):
    return -jnp.sum(jnp.where(p > 0, entropy_term(p=p), 0.0))


def entropy_safe(p):
    return -jnp.sum(jnp.where(p > 0, safe_entropy_term(p), 0.0))


if __name__ == "__main__":
    p = jnp.array([0.0, 0.5, 0.5])
    print(jax.grad(entropy)(p), jax.grad(entropy_safe)(p))  # [nan ...], finite
"""


def test_where_branch_calls_a_helper_singular_at_the_masked_point(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"moffat.py": MOFFAT, "losses.py": LOSSES},
                  "JAX120")
    assert found == [
        ("JAX120", "losses.py", 15, 38,
         "`entropy_term(p=p)` is computed for every element, also where `p > 0` is false and masks it out; its "
         "derivative is infinite/NaN where `p` is 0 (`entropy_term` computes `jnp.log(p)` with `p` = `p`), so the "
         "gradient of this `where` is NaN (0 * inf). Guard `p` with the same condition too (double where: "
         "`jnp.where(cond, p, 1.0)` inside)"),
        ("JAX120", "moffat.py", 15, 77,
         "`_Knu(self.beta - 1.0, k)` is computed for every element, also where `k > 0` is false and masks it "
         "out; its derivative is infinite/NaN where `k` is 0 (`_Knu` computes `jnp.pi / (2.0 * x)` with `x` = `k`), so "
         "the gradient of this `where` is NaN (0 * inf). Guard `k` with the same condition too (double where: "
         "`jnp.where(cond, k, 1.0)` inside)"),
    ]


def test_helper_fix_is_the_double_where_and_reparses(tmp_path, monkeypatch):
    import libcst as cst
    from click.testing import CliRunner

    from jaxlint.cli import cli

    lint_files(tmp_path, monkeypatch, {"moffat.py": MOFFAT}, select="JAX120", dedent=True)
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--select", "JAX120", "--fix", "--unsafe-fixes"])
    assert result.exit_code in (0, 1), result.output
    fixed = (tmp_path / "moffat.py").read_text()
    cst.parse_module(fixed)
    assert fixed == MOFFAT.replace("* _Knu(self.beta - 1.0, k), self.flux)",
                                   "* _Knu(self.beta - 1.0, jnp.where(k > 0, k, 1.0)), self.flux)")


# 3. The new-user review: a gradient clip that divides by the Euclidean norm under
# `g_norm > 1.0`.  Guarding `g_norm` in the division (the double where) leaves the NaN:
# the norm's own gradient at g = 0 is NaN (jax.grad of both is [nan nan nan] at 0).  The
# finding says so and offers no fix; the clip that guards the sum of squares before the
# root is silent (its gradient at 0 is finite).

CLIP = """\
import jax
import jax.numpy as jnp


def clip(g):
    g_norm = jnp.linalg.norm(g)
    return jnp.where(g_norm > 1.0, g / g_norm, g)


def clip_safe(g):
    sq = jnp.sum(g ** 2)
    g_norm = jnp.sqrt(jnp.where(sq > 1.0, sq, 1.0))
    return jnp.where(sq > 1.0, g / g_norm, g)


if __name__ == "__main__":
    z = jnp.zeros(3)
    print(jax.grad(lambda g: clip(g).sum())(z), jax.grad(lambda g: clip_safe(g).sum())(z))
"""


def test_clip_by_norm_says_the_norm_itself_is_singular(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from jaxlint.cli import cli

    assert _lint(tmp_path, monkeypatch, {"clip.py": CLIP}, "JAX120") == [
        ("JAX120", "clip.py", 7, 36,
         "`g / g_norm` is computed for every element, also where `g_norm > 1.0` is false and masks it out; its "
         "derivative is infinite/NaN where `g_norm` is 0, so the gradient of this `where` is NaN (0 * inf). "
         "Guarding `g_norm` is not enough: `g_norm = jnp.linalg.norm(g)` has a NaN gradient itself where it "
         "is 0 (the derivative of the square root there); guard the sum of squares before the root "
         "(`jnp.sqrt(jnp.where(sq > 0, sq, 1.0))` with `sq` the sum of squares), or use `optax.safe_norm`"),
    ]
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--select", "JAX120", "--fix", "--unsafe-fixes"])
    assert result.exit_code == 1, result.output
    assert (tmp_path / "clip.py").read_text() == CLIP  # no fix: the double where would leave the NaN


# 4. Case 1140 (https://github.com/jax-ml/jax/issues/8604): `256 ** jnp.arange(1, 5)`
# reaches 2**32, beyond int32, and wraps to 0 with x64 off (1 / 0 is inf).  The same
# written other ways: `jnp.power` of a literal base, an array squared, a module constant
# for the exponent's range.  A float base, powers that stay below 2**31 and the same
# code with x64 enabled stay silent.

POWERS = """\
import jax.numpy as jnp

N = 100000


def scales():
    return (1 / 256 ** jnp.arange(1, 5)).astype(jnp.float32)


def decades():
    return jnp.power(10, jnp.arange(12))


def squares():
    return jnp.arange(N) ** 2


def fine():
    return 256.0 ** jnp.arange(1, 5), 256 ** jnp.arange(1, 4), 2 ** jnp.arange(31), jnp.arange(1000) ** 3


if __name__ == "__main__":
    print(scales(), decades()[-2:], squares()[-1])  # [... inf], [1410065408 1215752192], 1409865409
"""


def _overflow(code: str, value: int) -> str:
    return (f"`{code}` reaches {value}, beyond int32 (2147483647): with jax_enable_x64 off JAX computes this "
            f"integer power in int32, where it silently wraps (no warning). Enable x64 at start-up "
            f"(`jax.config.update('jax_enable_x64', True)`), or compute it in floating point")


def test_integer_power_beyond_int32_without_x64(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"powers.py": POWERS}, "JAX110") == [
        ("JAX110", "powers.py", 7, 17, _overflow("256 ** jnp.arange(1, 5)", 4294967296)),
        ("JAX110", "powers.py", 11, 12, _overflow("jnp.power(10, jnp.arange(12))", 100000000000)),
        ("JAX110", "powers.py", 15, 12, _overflow("jnp.arange(N) ** 2", 9999800001)),
    ]


def test_integer_power_with_x64_enabled_is_silent(tmp_path, monkeypatch):
    enabled = POWERS.replace("import jax.numpy as jnp\n",
                             "import jax\n\njax.config.update(\"jax_enable_x64\", True)\n\nimport jax.numpy as jnp\n")
    assert _lint(tmp_path, monkeypatch, {"powers.py": enabled}, "JAX110") == []


# 5. Case 1138 (https://github.com/jax-ml/jax/issues/11012): float64 NumPy arrays (the
# dtype a loop's pass takes from a list holding `jnp.float64`) given to `jnp.where` come
# back float32 with x64 off, with no warning.  The same written other ways: a module's
# `np.asarray(..., dtype="float64")` handed to `jnp.sum` in a function, an int64 array
# built with `np.int64` given to `jnp.cumsum`.  A NumPy array without a 64-bit request,
# a 32-bit loop list, a call that names its dtype and x64 enabled stay silent.

WHERE = """\
import numpy as np
import jax.numpy as jnp

TABLE = np.asarray([0.1, 0.2], dtype="float64")


def total():
    return jnp.sum(TABLE)


def counts():
    c = np.ones(4, dtype=np.int64)
    return jnp.cumsum(c)


def quiet():
    plain = np.ones(3)
    narrow = np.ones(3, dtype=np.float64)
    return jnp.sum(plain), jnp.asarray(narrow, dtype=jnp.float32)


if __name__ == "__main__":
    mask = np.array(True)
    for dtype in [jnp.float16, jnp.float32, jnp.float64]:
        a = np.ones((2, 2), dtype=dtype)
        b = np.array(np.nan, dtype=dtype)
        print(np.dtype(dtype).name, "->", jnp.where(mask, a, b).dtype)  # float64 -> float32
    for narrow in [jnp.float16, jnp.float32]:
        print(jnp.where(mask, np.ones(2, dtype=narrow), 0).dtype)
"""


def _narrowed(name: str, wide: str, func: str, narrow: str) -> str:
    return (f"`{name}` is a {wide} NumPy array: `{func}` converts it to {narrow} because jax_enable_x64 is off, "
            f"without a warning (the 64-bit request is NumPy's). Enable x64 at start-up "
            f"(`jax.config.update('jax_enable_x64', True)`), or make the array {narrow}")


def test_64_bit_numpy_array_given_to_jax_without_x64(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"main.py": WHERE}, "JAX110") == [
        ("JAX110", "main.py", 8, 12, _narrowed("TABLE", "float64", "jnp.sum", "float32")),
        ("JAX110", "main.py", 13, 12, _narrowed("c", "int64", "jnp.cumsum", "int32")),
        ("JAX110", "main.py", 27, 43, _narrowed("a", "float64", "jnp.where", "float32")),
    ]


def test_64_bit_numpy_array_with_x64_enabled_is_silent(tmp_path, monkeypatch):
    enabled = WHERE.replace("import jax.numpy as jnp\n",
                            "import jax\n\njax.config.update(\"jax_enable_x64\", True)\n\nimport jax.numpy as jnp\n")
    assert _lint(tmp_path, monkeypatch, {"main.py": enabled}, "JAX110") == []
