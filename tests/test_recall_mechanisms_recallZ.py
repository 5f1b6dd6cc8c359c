"""Batch 10's misses by mechanism (issue 22, branch recallZ): an in-place write on a
value that is a JAX array on the paths through a branch and a host NumPy array on the
others (the placeholder `ans = np.zeros_like(mu)` that the branches of an `if` rebind to
`sig * ...`, where every call passes a JAX `sig`), and a method of a project class reached
from traced code through a parameter every call fills with an instance of that class.

Each INVALID program's error (TypeError "JAX arrays are immutable",
TracerBoolConversionError, TracerArrayConversionError) was observed with JAX 0.10.2; the
VALID twins run and stay silent."""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str], select: str = "JAX101") -> list[tuple]:
    return lint_files(root, monkeypatch, files, select=select, dedent=True)


def _msg(written: str, name: str, use: str) -> str:
    return (f"JAX arrays are immutable: `{written} = ...` raises TypeError on the paths where `{name}` "
            f"holds a JAX array (a branch above binds one; the other paths leave a NumPy array). Make it "
            f"one kind of array on every path and use `{use}`, or `np.where` on both")


# 1. Case 1026 (https://github.com/aidancrilly/NeSST/pull/71): a host placeholder rebound
# by the branches of an if/elif chain to the product of a JAX array the caller of another
# module passes; the write after the chain raises on every path through a branch.  The
# PR's fix (`np.where` on the result) stays silent.

PRODUCERS = """\
import jax.numpy as jnp


def total_xsec(E, E_table, sig_table):
    return jnp.interp(E, E_table, sig_table)
"""

ANGULAR = """\
import numpy as np
from numpy.polynomial.legendre import legval


def legendre_eval(sig, mu, coeff):
    c = coeff.T
    ans = np.zeros_like(mu)
    if len(mu.shape) == 1:
        ans = sig * legval(mu, c, tensor=False)
    elif len(mu.shape) == 2:
        ans = sig * legval(mu, c[:, None, :], tensor=False)
    ans[np.abs(mu) > 1.0] = 0.0
    return ans
"""

ANGULAR_FIXED = ANGULAR.replace("""    ans[np.abs(mu) > 1.0] = 0.0
    return ans
""", """    return np.where(np.abs(mu) > 1.0, 0.0, ans)
""")

MAIN = """\
import numpy as np

from xsec.angular import legendre_eval
from xsec.producers import total_xsec

if __name__ == "__main__":
    E = np.linspace(1.0, 14.0, 5)
    sig = total_xsec(E, np.array([0.0, 20.0]), np.array([1.0, 3.0]))
    mu = np.linspace(-1.2, 1.2, 5)
    coeff = np.stack([np.full(5, 0.5), np.full(5, 0.1)], axis=1)
    print(legendre_eval(sig, mu, coeff))
"""


def test_placeholder_rebound_by_branches_to_a_jax_product_across_modules(tmp_path, monkeypatch):
    files = {"xsec/__init__.py": "", "xsec/producers.py": PRODUCERS, "xsec/angular.py": ANGULAR, "main.py": MAIN}
    assert _lint(tmp_path, monkeypatch, files) == [
        ("JAX101", "xsec/angular.py", 12, 5,
         _msg("ans[np.abs(mu) > 1.0]", "ans", "ans = ans.at[np.abs(mu) > 1.0].set(...)")),
    ]


def test_placeholder_fixed_with_np_where_is_silent(tmp_path, monkeypatch):
    files = {"xsec/__init__.py": "", "xsec/producers.py": PRODUCERS, "xsec/angular.py": ANGULAR_FIXED, "main.py": MAIN}
    assert _lint(tmp_path, monkeypatch, files) == []


# 2. The same paths written another way: a helper that moves its host array to the device
# on one branch only (`if on_device: w = jnp.asarray(w) / w.sum()`), the array made in
# the function (`np.asarray(counts)`, `np.zeros(3)`); the twin that brings the result back
# to the host (`np.array(...)`, a writable copy) on that branch stays silent, and so does a
# join of a JAX array with a value that is not an array (a list).

WEIGHTS = """\
import jax.numpy as jnp
import numpy as np


def normalise(counts, on_device):
    w = np.asarray(counts, dtype=float)
    if on_device:
        w = jnp.asarray(w) / w.sum()
    w[w < 1e-3] = 0.0
    return w


def first_free(on_device):
    slots = np.zeros(3)
    if on_device:
        slots = jnp.asarray(slots) + 1.0
    slots[0] = 0.0
    return slots


def normalise_host(counts, on_device):
    w = np.asarray(counts, dtype=float)
    if on_device:
        w = np.array(jnp.asarray(w) / w.sum())
    w[w < 1e-3] = 0.0
    return w


def collect(on_device):
    out = [0.0, 1.0]
    if on_device:
        out = jnp.asarray(out)
    else:
        out = [2.0, 3.0]
    return out


if __name__ == "__main__":
    print(normalise([1, 2, 3000], True), first_free(True))
    print(normalise_host([1, 2, 3000], True), collect(True))
"""


def test_branch_moves_a_host_array_to_the_device(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"weights.py": WEIGHTS}) == [
        ("JAX101", "weights.py", 9, 5, _msg("w[w < 1e-3]", "w", "w = w.at[w < 1e-3].set(...)")),
        ("JAX101", "weights.py", 17, 5, _msg("slots[0]", "slots", "slots = slots.at[0].set(...)")),
    ]


# 3. A method of a project class reached from traced code through a parameter that every
# call fills with an instance of that class (case 1036, https://github.com/jaxleyverse/jaxley/pull/610:
# `integrate(cell, params)` runs `module.get_all_parameters(pstate)`, whose assert meets a
# tracer; case 1006, https://github.com/PythonOT/POT/issues/625: `emd` converts its input with
# the backend object's `to_numpy`, `np.array(a)`).  Written three ways: the instance a module
# global of the same file, a class of another module handed on by a helper of a third, and a
# backend object whose method converts to NumPy.  The twins (a check on shapes, a helper one
# of whose calls passes a value the model cannot place) stay silent.

SAME_FILE = """\
import jax
import jax.numpy as jnp


class Cell:
    def __init__(self, n):
        self.n = n

    def check(self, p):
        assert p.min() > 0
        return p


def integrate(module, p):
    return module.check(p) * 2


cell = Cell(3)


@jax.jit
def loss(p):
    return integrate(cell, p).sum()
"""

CELL = """\
class Cell:
    def __init__(self, n):
        self.n = n

    def check(self, p):
        assert p.min() > 0
        return p

    def check_shape(self, p):
        assert p.shape[0] > 0
        return p
"""

INTEGRATE = """\
def integrate(module, p):
    return module.check(p) * 2


def integrate_shape(module, p):
    return module.check_shape(p) * 2
"""

LOSS = """\
import jax
import jax.numpy as jnp

from sim.cell import Cell
from sim.integrate import integrate, integrate_shape

cell = Cell(3)


@jax.jit
def loss(p):
    return integrate(cell, p).sum() + integrate_shape(cell, p).sum()


if __name__ == "__main__":
    loss(jnp.ones(3))
"""

BACKEND = """\
import jax.numpy as jnp
import numpy as np


class JaxBackend:
    def to_numpy(self, a):
        return np.array(a)

    def from_numpy(self, a):
        return jnp.array(a)
"""

LP = """\
import numpy as np


def emd(a, b, M, nx):
    M0 = M
    M = nx.to_numpy(M)
    G = np.eye(M.shape[0]) / M.shape[0]
    return nx.from_numpy(G) * M0
"""

OT_MAIN = """\
import jax
import jax.numpy as jnp

from ot.backend import JaxBackend
from ot.lp import emd

nx = JaxBackend()


@jax.jit
def loss_fn(x, y):
    costs = (x[:, None] - y[None, :]) ** 2
    pi = emd(jnp.ones(3) / 3, jnp.ones(3) / 3, costs, nx)
    return jnp.sum(pi * costs)


if __name__ == "__main__":
    loss_fn(jnp.ones(3), jnp.zeros(3))
"""

ASSERT_MSG = ("Python `assert` on a traced value: it depends on the traced argument `p` of `check` ({how}); "
              "this raises TracerBoolConversionError. Use `jax.experimental.checkify.check`, or assert on "
              "shapes/dtypes only")


def test_method_of_an_instance_parameter_same_file(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"cell.py": SAME_FILE}, select="JAX201") == [
        ("JAX201", "cell.py", 10, 16, ASSERT_MSG.format(how="called from traced `integrate`")),
    ]


def test_method_of_an_instance_parameter_across_modules(tmp_path, monkeypatch):
    files = {"sim/__init__.py": "", "sim/cell.py": CELL, "sim/integrate.py": INTEGRATE, "main.py": LOSS}
    assert _lint(tmp_path, monkeypatch, files, select="JAX201") == [
        ("JAX201", "sim/cell.py", 6, 16, ASSERT_MSG.format(
            how="called from `integrate` (sim/integrate.py:2), which is called from `loss` (main.py:12), "
                "which is decorated with @jax.jit")),
    ]


def test_backend_object_converts_a_tracer_to_numpy(tmp_path, monkeypatch):
    files = {"ot/__init__.py": "", "ot/backend.py": BACKEND, "ot/lp.py": LP, "main.py": OT_MAIN}
    assert _lint(tmp_path, monkeypatch, files, select="JAX204") == [
        ("JAX204", "ot/backend.py", 7, 16,
         "`np.array` on a traced value (it depends on the traced argument `a` of `to_numpy` (called from `emd` "
         "(ot/lp.py:6), which is called from `loss_fn` (main.py:13), which is decorated with @jax.jit)): NumPy converts "
         "it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.array` (jax.numpy) instead"),
    ]


def test_helper_given_an_unplaced_value_too_stays_silent(tmp_path, monkeypatch):
    mixed = INTEGRATE + """

def integrate_any(module, p):
    return integrate(module, p)
"""
    files = {"sim/__init__.py": "", "sim/cell.py": CELL, "sim/integrate.py": mixed, "main.py": LOSS}
    assert _lint(tmp_path, monkeypatch, files, select="JAX201") == []


# 4. A write that runs on the NumPy path only (diff review of recallZ): below the join the
# write sits under a condition of its own, so the model cannot show it runs where the array
# is a JAX one, and stays silent.  Written two ways: under `isinstance(w, np.ndarray)` (which
# also makes `w` a host array in its branch; `if not isinstance(w, np.ndarray): w =
# np.array(w)` makes it one on every path after it) and under `if not on_device:` while the
# JAX array comes from `if on_device:`.  The INVALID twins write after an `isinstance` branch
# that leaves the JAX path as it is, and after a join inside the condition that encloses the
# write (`if c:` around both), where the write runs on the JAX path; each raised TypeError.

HOST_ONLY = """\
import jax.numpy as jnp
import numpy as np


def prepare(counts, on_device):
    w = np.asarray(counts, dtype=float)
    if on_device:
        w = jnp.asarray(w)
    if isinstance(w, np.ndarray):
        w[w < 1e-3] = 0.0
    return w


def prepare_flag(counts, on_device):
    w = np.asarray(counts, dtype=float)
    if on_device:
        w = jnp.asarray(w)
    if not on_device:
        w[w < 1e-3] = 0.0
    return w


def to_host(counts, on_device):
    w = np.asarray(counts, dtype=float)
    if on_device:
        w = jnp.asarray(w) * 2.0
    if not isinstance(w, np.ndarray):
        w = np.array(w)
    w[w < 1e-3] = 0.0
    return w


def to_host_else(counts, on_device):
    w = np.asarray(counts, dtype=float)
    if on_device:
        w = jnp.asarray(w) * 2.0
    if isinstance(w, np.ndarray):
        pass
    else:
        w = np.array(w)
    w[w < 1e-3] = 0.0
    return w


if __name__ == "__main__":
    for on_device in (True, False):
        print(prepare([1, 2e-4], on_device), prepare_flag([1, 2e-4], on_device))
        print(to_host([1, 2e-4], on_device), to_host_else([1, 2e-4], on_device))
"""

JAX_PATH_WRITES = """\
import jax.numpy as jnp
import numpy as np


def prepare(counts, on_device):
    w = np.asarray(counts, dtype=float)
    if on_device:
        w = jnp.asarray(w)
    if isinstance(w, np.ndarray):
        print("on the host")
    w[w < 1e-3] = 0.0
    return w


def prepare_in(counts, on_device, clip):
    if clip:
        w = np.asarray(counts, dtype=float)
        if on_device:
            w = jnp.asarray(w)
        w[w < 1e-3] = 0.0
        return w
    return counts


if __name__ == "__main__":
    print(prepare([1, 2e-4], True), prepare_in([1, 2e-4], True, True))
"""


def test_write_on_the_numpy_path_only_is_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prep.py": HOST_ONLY}) == []


def test_write_on_the_jax_path_below_an_isinstance_branch_or_inside_the_condition(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prep.py": JAX_PATH_WRITES}) == [
        ("JAX101", "prep.py", 11, 5, _msg("w[w < 1e-3]", "w", "w = w.at[w < 1e-3].set(...)")),
        ("JAX101", "prep.py", 20, 9, _msg("w[w < 1e-3]", "w", "w = w.at[w < 1e-3].set(...)")),
    ]
