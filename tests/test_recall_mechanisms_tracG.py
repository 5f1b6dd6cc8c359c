"""Batches 1-12's tracer-bool misses by mechanism (issue 22, branch tracG): a method or a
property of a pytree class (``register_pytree_node_class`` with its ``tree_flatten``, a
flax struct dataclass) runs on an instance that is traced where it is called (an argument
of a jitted function), so ``self.<data leaf>`` is a tracer there, and so is a property
computing a JAX value from one (``self.Omega`` of ``1.0 - self._Omega_k``); a Python
``if``/``assert`` on it raises TracerBoolConversionError.  Aux data (a static field), an
instance used outside traced code, and an attribute the method assigns itself stay silent.

Each INVALID program's error was observed with JAX 0.10.2; the VALID twins run and stay
silent."""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str]) -> list[tuple]:
    return lint_files(root, monkeypatch, files, select="JAX201", dedent=True)


_IF = "Use `jax.lax.cond` or `jnp.where`"
_ASSERT = "Use `jax.experimental.checkify.check`, or assert on shapes/dtypes only"


def _msg(what: str, fn: str, caller: str, construct: str = "if") -> str:
    return (f"Python `{construct}` on a traced value: it depends on the traced argument `{what}` of `{fn}` "
            f"(called from traced `{caller}`); this raises TracerBoolConversionError. "
            f"{_ASSERT if construct == 'assert' else _IF}")


# 1. Case 1242 (https://github.com/DifferentiableUniverseInitiative/jax_cosmo/commit/
# cf8500c2f0e174c5b132d2c53400150194dffb70, 'Make Cosmology.k jitable'), written in one
# module: the property `k` branches on the property `Omega` (`1.0 - self._Omega_k`, a
# child of `tree_flatten`) of a cosmology a jitted function is given, its parameter
# annotated with the class.  (The same function unannotated, jitted in the `__main__` block
# with an instance built there, is not found yet: ENTRY_MAIN stays in the silent list.)
COSMO = """\
import jax
import jax.numpy as np
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class Cosmology:
    def __init__(self, Omega_c, Omega_k, h):
        self._Omega_c = Omega_c
        self._Omega_k = Omega_k
        self._h = h

    def tree_flatten(self):
        return (self._Omega_c, self._Omega_k, self._h), None

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(*children)

    @property
    def Omega(self):
        return 1.0 - self._Omega_k

    @property
    def sqrtk(self):
        return np.sqrt(np.abs(self._Omega_k))

    @property
    def k(self):
{K}
        return k


{ENTRY}
"""

K_BUGGY = """\
        if self.Omega > 1.0:  # Closed universe
            k = 1
        elif self.Omega == 1.0:  # Flat universe
            k = 0
        else:  # Open Universe
            k = -1"""

K_FIXED = """\
        k = -np.sign(self._Omega_k).astype(np.int8)"""

ENTRY_ANNOTATED = """\
@jax.jit
def transverse_comoving_distance(cosmo: Cosmology, chi):
    index = cosmo.k + 1
    branches = (lambda c: np.sinh(cosmo.sqrtk * c), lambda c: c, lambda c: np.sin(cosmo.sqrtk * c))
    return jax.lax.switch(index, branches, chi)
"""

ENTRY_MAIN = """\
def transverse_comoving_distance(cosmo, chi):
    index = cosmo.k + 1
    branches = (lambda c: np.sinh(cosmo.sqrtk * c), lambda c: c, lambda c: np.sin(cosmo.sqrtk * c))
    return jax.lax.switch(index, branches, chi)


if __name__ == "__main__":
    cosmo = Cosmology(Omega_c=0.25, Omega_k=0.01, h=0.7)
    print(jax.jit(transverse_comoving_distance)(cosmo, np.array([0.5, 0.8])))
"""


def _cosmo(k: str, entry: str) -> dict[str, str]:
    return {"cosmo.py": COSMO.replace("{K}", k).replace("{ENTRY}", entry)}


def test_property_of_a_traced_pytree_branches_on_a_leaf(tmp_path, monkeypatch):
    for entry in (ENTRY_ANNOTATED,):
        got = _lint(tmp_path, monkeypatch, _cosmo(K_BUGGY, entry))
        assert got == [
            ("JAX201", "cosmo.py", 30, 12, _msg("self.Omega", "k", "transverse_comoving_distance")),
            ("JAX201", "cosmo.py", 32, 14, _msg("self.Omega", "k", "transverse_comoving_distance")),
        ], entry


def test_property_of_a_traced_pytree_fixed_stays_silent(tmp_path, monkeypatch):
    for entry in (ENTRY_ANNOTATED, ENTRY_MAIN):
        assert _lint(tmp_path, monkeypatch, _cosmo(K_FIXED, entry)) == [], entry


# 2. https://github.com/exoplanet-dev/jaxoplanet/commit/f830fe3846be3679cfb5433df703850860a3c157
# ('fix: issue #234'): `Ylm.normalize` asserts on its (0, 0) coefficient, a leaf of the
# pytree a jitted light-curve function is given; the fix removes the assert.  Written with a
# flax struct dataclass (jaxoplanet's is an equinox Module whose leaves sit in a dict), the
# method called on the jitted function's annotated argument.
YLM = """\
import flax.struct
import jax
import jax.numpy as jnp


@flax.struct.dataclass
class Ylm:
    coeffs: jax.Array
    deg: int = flax.struct.field(pytree_node=False)

    def normalize(self):
{CHECK}
        return Ylm(coeffs=self.coeffs / self.coeffs[0], deg=self.deg)


@jax.jit
def light_curve(ylm: Ylm, theta):
    y = ylm.normalize()
    return jnp.sum(y.coeffs * jnp.cos(theta))
"""

CHECK_BUGGY = """\
        assert self.coeffs[0] != 0.0, ValueError("The (0, 0) coefficient must be non-zero to normalize")"""

CHECK_STATIC = """\
        assert self.deg >= 0, ValueError("the degree is a Python int (aux data)")"""


def test_method_of_a_traced_pytree_asserts_on_a_leaf(tmp_path, monkeypatch):
    got = _lint(tmp_path, monkeypatch, {"ylm.py": YLM.replace("{CHECK}", CHECK_BUGGY)})
    assert got == [("JAX201", "ylm.py", 12, 16, _msg("self.coeffs", "normalize", "light_curve", "assert"))]


def test_method_of_a_traced_pytree_on_aux_data_or_fixed_stays_silent(tmp_path, monkeypatch):
    for check in (CHECK_STATIC, "        pass"):
        assert _lint(tmp_path, monkeypatch, {"ylm.py": YLM.replace("{CHECK}", check)}) == [], check


# 3. Precision: the same property read outside traced code (an eager call), and a method
# that assigns the attribute it then tests (its own Python value), stay silent.
EAGER = """\
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class Params:
    def __init__(self, scale):
        self.scale = scale

    def tree_flatten(self):
        return (self.scale,), None

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        return cls(*children)

    @property
    def positive(self):
        if self.scale > 0:
            return True
        return False

    def reset(self):
        self.scale = 1.0
        if self.scale > 0:
            return self
        return self


def describe(p: Params):
    return p.positive


if __name__ == "__main__":
    print(describe(Params(jnp.ones(()))))
"""


def test_property_read_outside_traced_code_stays_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"params.py": EAGER}) == []
