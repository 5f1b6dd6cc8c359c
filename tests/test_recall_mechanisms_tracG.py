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
# child of `tree_flatten`) of a cosmology a jitted function is given.  Written twice: the
# jitted function's parameter annotated with the class, and a plain function jitted in the
# `__main__` block with an instance built there.
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
    for entry in (ENTRY_ANNOTATED, ENTRY_MAIN):
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


# 4. Case 911 (celerite2's JAX terms, https://github.com/exoplanet-dev/celerite2/issues/78):
# `SHOTerm(*args, **kwargs)` builds an overdamped and an underdamped term, two classes whose
# `__init__` both store `self.Q = Q`, and branches on `over.Q`; a jitted caller gives `Q` a
# tracer.  The attribute written by the sibling class's `__init__` is not a write of the
# instance `OverdampedSHOTerm(...)` builds, and the keyword forwarded through `**kwargs`
# reaches the parameter of its name.  Written three ways: in one module with the keyword
# forwarded, in one module with the keyword passed on by name, and across modules (the
# terms in a package, the jitted caller in main.py).  The VALID twins: a caller passing a
# Python float for `Q`, and a class that sets `self.Q` again in a method of its own.
TERMS = """\
import jax.numpy as jnp


class OverdampedSHOTerm:
    def __init__(self, *, S0, w0, Q, eps=1e-5):
        self.S0, self.w0, self.Q, self.eps = S0, w0, Q, eps

    def coefficients(self):
        f = jnp.sqrt(jnp.maximum(1.0 - 4.0 * self.Q**2, self.eps))
        return self.S0 * self.w0 * self.Q * f
{EXTRA}

class UnderdampedSHOTerm:
    def __init__(self, *, S0, w0, Q, eps=1e-5):
        self.S0, self.w0, self.Q, self.eps = S0, w0, Q, eps

    def coefficients(self):
        f = jnp.sqrt(jnp.maximum(4.0 * self.Q**2 - 1.0, self.eps))
        return self.S0 * self.w0 * self.Q / f


def SHOTerm(*args, **kwargs):
    over = OverdampedSHOTerm(*args, **kwargs)
    under = UnderdampedSHOTerm(*args, **kwargs)
    if over.Q < 0.5:
        return over
    return under


def sho_term(S0, w0, Q):
    under = UnderdampedSHOTerm(S0=S0, w0=w0, Q=Q)
    if under.Q >= 0.5:
        return under
    return OverdampedSHOTerm(S0=S0, w0=w0, Q=Q)
"""

CALLER = """\
import jax
import jax.numpy as jnp
{IMPORT}

@jax.jit
def kernel_value(log_Q):
    a = {MOD}SHOTerm(S0=1.0, w0=1.0, Q={Q})
    b = {MOD}sho_term(1.0, 1.0, {Q})
    return a.coefficients() + b.coefficients()
"""

RESET = """
    def reset(self):
        self.Q = 0.3
"""


def _terms(extra: str = "") -> str:
    return TERMS.replace("{EXTRA}", extra)


def _caller(q: str, module: bool) -> str:
    return (CALLER.replace("{IMPORT}", "\nfrom celerite_lite import terms\n" if module else "")
            .replace("{MOD}", "terms." if module else "").replace("{Q}", q))


def _sho(fn: str, caller: str, where: str = "") -> str:
    via = f"(called from `{caller}` ({where}), which is decorated with @jax.jit)" if where else \
        f"(called from traced `{caller}`)"
    return (f"Python `if` on a traced value: it depends on the traced argument `Q` of `{fn}` {via}; "
            f"this raises TracerBoolConversionError. {_IF}")


def test_attribute_of_a_term_built_from_a_traced_keyword_in_one_module(tmp_path, monkeypatch):
    text = _terms() + "\n\n" + _caller("jnp.exp(log_Q)", module=False)
    got = _lint(tmp_path, monkeypatch, {"terms.py": text})
    assert got == [
        ("JAX201", "terms.py", 25, 8, _sho("SHOTerm", "kernel_value")),
        ("JAX201", "terms.py", 32, 8, _sho("sho_term", "kernel_value")),
    ]


def test_attribute_of_a_term_built_from_a_traced_keyword_across_modules(tmp_path, monkeypatch):
    files = {"celerite_lite/__init__.py": "", "celerite_lite/terms.py": _terms(),
             "main.py": _caller("jnp.exp(log_Q)", module=True)}
    got = _lint(tmp_path, monkeypatch, files)
    assert got == [
        ("JAX201", "celerite_lite/terms.py", 25, 8, _sho("SHOTerm", "kernel_value", "main.py:9")),
        ("JAX201", "celerite_lite/terms.py", 32, 8, _sho("sho_term", "kernel_value", "main.py:10")),
    ]


def test_attribute_of_a_term_given_a_python_float_or_set_again_stays_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"terms.py": _terms() + "\n\n" + _caller("0.3", module=False)}) == []
    files = {"celerite_lite/__init__.py": "", "celerite_lite/terms.py": _terms(RESET),
             "main.py": _caller("jnp.exp(log_Q)", module=True)}
    # (`OverdampedSHOTerm.reset` sets `self.Q` again: `over.Q` is unknown; the underdamped
    # term's is still the tracer)
    assert _lint(tmp_path, monkeypatch, files) == [
        ("JAX201", "celerite_lite/terms.py", 35, 8, _sho("sho_term", "kernel_value", "main.py:10"))]


# 5. Case 1242's layout (the class in `core.py`, the function reading `cosmo.k` in
# `background.py`, the jit in `main.py` with an instance built there): the class record of
# the call's argument names its class, whose property then runs with its leaves as
# tracers; and a method called on the traced instance (`cosmo.check()`, an assert on a
# leaf) across modules.  The fixed property stays silent.
CORE = """\
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

    def check(self):
        assert self._h > 0, "h must be positive"
        return self

    @property
    def k(self):
{K}
        return k
"""

BACKGROUND = """\
import jax.numpy as np
from jax import lax


def transverse_comoving_distance(cosmo, chi):
    cosmo.check()
    branches = (lambda c: np.sinh(cosmo.sqrtk * c), lambda c: c, lambda c: np.sin(cosmo.sqrtk * c))
    return lax.switch(cosmo.k + 1, branches, chi)
"""

MAIN = """\
import jax
import jax.numpy as np

from cosmo_lite.background import transverse_comoving_distance
from cosmo_lite.core import Cosmology

if __name__ == "__main__":
    cosmo = Cosmology(Omega_c=0.25, Omega_k=0.01, h=0.7)
    print(jax.jit(transverse_comoving_distance)(cosmo, np.array([0.5, 0.8])))
"""


def _cosmo_project(k: str) -> dict[str, str]:
    return {"cosmo_lite/__init__.py": "", "cosmo_lite/core.py": CORE.replace("{K}", k),
            "cosmo_lite/background.py": BACKGROUND, "main.py": MAIN}


def test_property_and_method_of_a_traced_pytree_across_modules(tmp_path, monkeypatch):
    def msg(what: str, fn: str, line: int, construct: str = "if") -> str:
        return (f"Python `{construct}` on a traced value: it depends on the traced argument `{what}` of `{fn}` "
                f"(called from `transverse_comoving_distance` (cosmo_lite/background.py:{line}), which is "
                f"wrapped by jax.jit in main.py:9); this raises TracerBoolConversionError. "
                f"{_ASSERT if construct == 'assert' else _IF}")

    got = _lint(tmp_path, monkeypatch, _cosmo_project(K_BUGGY))
    assert got == [
        ("JAX201", "cosmo_lite/core.py", 28, 16, msg("self._h", "check", 6, "assert")),
        ("JAX201", "cosmo_lite/core.py", 33, 12, msg("self.Omega", "k", 8)),
        ("JAX201", "cosmo_lite/core.py", 35, 14, msg("self.Omega", "k", 8)),
    ]


def test_property_of_a_traced_pytree_across_modules_fixed_stays_silent(tmp_path, monkeypatch):
    files = _cosmo_project(K_FIXED)
    files["cosmo_lite/background.py"] = BACKGROUND.replace("    cosmo.check()\n", "")
    assert _lint(tmp_path, monkeypatch, files) == []
