"""Batch 10's misses by mechanism (issue 22, branch recallZ): an in-place write on a
value that is a JAX array on the paths through a branch and a host NumPy array on the
others (the placeholder `ans = np.zeros_like(mu)` that the branches of an `if` rebind to
`sig * ...`, where every call passes a JAX `sig`).

Each INVALID program's TypeError ("JAX arrays are immutable") was observed with JAX
0.10.2; the VALID twins run and stay silent."""

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
