"""Round 19, numP: the model's facts behind JAX130 (a Python list the model can show,
returned by a library function or a helper) and JAX121 (a module constant another
module rebinds, a dict changed through an alias).  Each INVALID project has a VALID
twin that stays silent (the corrected code)."""

from project_files import lint_files


def _msg(fn: str, short: str, what: str = "list") -> str:
    return (f"`jnp.{fn}` does not accept a Python {what}: this raises `TypeError: {short} requires ndarray "
            f"or scalar arguments, got <class '{what}'>`. Convert it first with `jnp.asarray(...)`")


_OOB8 = ("index 8 is out of bounds for axis 0 with size 8, and JAX raises no IndexError: the read is "
         "clamped to the nearest valid index (silently the wrong element)")


# fresh set 19, seq2seq-speech run_flax_speech_recognition_seq2seq.py:1389 (review19 revB.md, "missed"):
# `jnp.linalg.norm(jax.tree_util.tree_leaves(...))` passes the list tree_leaves returns (TypeError, JAX 0.10.2)
_LEAVES_MAIN = """\
import jax
import jax.numpy as jnp
from jax import tree_util as tu

import utils


@jax.jit
def step(g):
    n1 = jnp.linalg.norm(jax.tree_util.tree_leaves(g))
    leaves, treedef = jax.tree.flatten(g)
    n2 = jnp.sum(leaves)
    n3 = jnp.max(tu.tree_flatten(g)[0])
    n4 = jnp.mean(utils.all_leaves(g))
    n5 = jnp.mean(norms(g["w"]))
    n6 = jnp.sum(list(g.values()))
    return n1 + n2 + n3 + n4 + n5 + n6


def norms(ps):
    return [jnp.linalg.norm(p) for p in ps]
"""
_LEAVES_UTILS = """\
import jax


def all_leaves(t):
    return jax.tree_util.tree_leaves(t)
"""


def test_library_and_helper_lists_reach_jnp(tmp_path, monkeypatch):
    found = lint_files(tmp_path, monkeypatch, {"main.py": _LEAVES_MAIN, "utils.py": _LEAVES_UTILS}, select="JAX130")
    assert found == [
        ("JAX130", "main.py", 10, 26, _msg("linalg.norm", "norm")),
        ("JAX130", "main.py", 12, 18, _msg("sum", "sum")),
        ("JAX130", "main.py", 13, 18, _msg("max", "max")),
        ("JAX130", "main.py", 14, 19, _msg("mean", "mean")),
        ("JAX130", "main.py", 15, 19, _msg("mean", "mean")),
        ("JAX130", "main.py", 16, 18, _msg("sum", "sum")),
    ]


def test_library_and_helper_lists_converted_are_silent(tmp_path, monkeypatch):
    # the twins: each list stacked or converted before the jnp call; the helpers return arrays
    main = """\
import jax
import jax.numpy as jnp
from jax import tree_util as tu

import utils


@jax.jit
def step(g):
    n1 = jnp.linalg.norm(jnp.stack(jax.tree_util.tree_leaves(g)))
    leaves, treedef = jax.tree.flatten(g)
    n2 = sum(jnp.sum(l) for l in leaves)
    n3 = jnp.max(jnp.asarray(tu.tree_flatten(g)[0]))
    n4 = jnp.mean(utils.all_leaves(g))
    n5 = jnp.mean(norms(g["w"]))
    n6 = jnp.sum(jnp.array(list(g.values())))
    n7 = jnp.sum(jax.tree_util.tree_leaves(g)[0])
    return n1 + n2 + n3 + n4 + n5 + n6 + n7


def norms(ps):
    return jnp.stack([jnp.linalg.norm(p) for p in ps])
"""
    utils = """\
import jax
import jax.numpy as jnp


def all_leaves(t):
    return jnp.concatenate([jnp.ravel(l) for l in jax.tree_util.tree_leaves(t)])
"""
    assert lint_files(tmp_path, monkeypatch, {"main.py": main, "utils.py": utils}, select="JAX130") == []


def test_list_fix_converts_the_returned_list(tmp_path, monkeypatch):
    files = {"m.py": "import jax\nimport jax.numpy as jnp\n\n\ndef f(g):\n    return jnp.sum(jax.tree_util.tree_leaves(g))\n"}
    lint_files(tmp_path, monkeypatch, files, "--fix", select="JAX130")
    fixed = (tmp_path / "m.py").read_text()
    assert fixed == "import jax\nimport jax.numpy as jnp\n\n\ndef f(g):\n    return jnp.sum(jnp.asarray(jax.tree_util.tree_leaves(g)))\n"
    compile(fixed, "m.py", "exec")


# The merged-change review of round 18, item 2: `config.CAPACITY = 8` that main.py
# rebinds under `__main__` and other.py in a function is no constant: JAX121 must stay silent.
_CONFIG = "CAPACITY = 8\n"
_READER = """\
import jax.numpy as jnp
{imp}


def last_slot():
    slots = jnp.arange({ref}.CAPACITY)
    return slots[8]
"""


def test_rebound_module_constant_is_unknown(tmp_path, monkeypatch):
    files = {
        "pkg/__init__.py": "",
        "pkg/config.py": _CONFIG,
        # read through `import pkg.config as cfg`; rebound in another module's function
        "pkg/reader.py": _READER.format(imp="import pkg.config as cfg", ref="cfg"),
        "pkg/boot.py": "from pkg import config\n\n\ndef setup(n):\n    config.CAPACITY = n\n",
        # read through `from pkg import config`; rebound under its own `__main__`
        "main.py": _READER.format(imp="import sys\nfrom pkg import config", ref="config")
        + '\n\nif __name__ == "__main__":\n    config.CAPACITY = int(sys.argv[1])\n',
    }
    assert lint_files(tmp_path, monkeypatch, files, select="JAX121") == []
    # an augmented assignment rebinds it too
    files["pkg/boot.py"] = "import pkg.config\n\n\ndef grow():\n    pkg.config.CAPACITY += 8\n"
    files["main.py"] = _READER.format(imp="from pkg import config", ref="config")
    assert lint_files(tmp_path, monkeypatch, files, select="JAX121") == []


def test_module_constant_nobody_rebinds_still_reports(tmp_path, monkeypatch):
    files = {
        "pkg/__init__.py": "",
        "pkg/config.py": _CONFIG,
        "pkg/reader.py": _READER.format(imp="import pkg.config as cfg", ref="cfg"),
        # another module reads it, and writes an attribute of something else
        "pkg/boot.py": "from pkg import config\n\n\ndef setup(state, n):\n    state.CAPACITY = n\n    return config.CAPACITY\n",
        "main.py": _READER.format(imp="import sys\nfrom pkg import config", ref="config"),
    }
    assert lint_files(tmp_path, monkeypatch, files, select="JAX121") == [
        ("JAX121", "main.py", 8, 18, _OOB8),
        ("JAX121", "pkg/reader.py", 7, 18, _OOB8),
    ]


# The merged-change review of round 18, item 3: a dict of arrays grown through an alias or a walrus keeps
# no stale shape; `prepare(b2)` of an alias may change it too
_ALIASES = """\
import jax.numpy as jnp


def prepare(d):
    d["obs"] = jnp.zeros((16, 3))


def grow_alias():
    buf = {"obs": jnp.zeros((8, 3))}
    b2 = buf
    b2["obs"] = jnp.zeros((16, 3))
    return buf["obs"][8]


def grow_walrus():
    buf = {"obs": jnp.zeros((8, 3))}
    (b := buf)["obs"] = jnp.zeros((16, 3))
    return buf["obs"][8]


def grow_in_helper():
    buf = {"obs": jnp.zeros((8, 3))}
    b2 = buf
    prepare(b2)
    return buf["obs"][8]
"""


def test_dict_changed_through_an_alias_is_unknown(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"m.py": _ALIASES}, select="JAX121") == []


def test_dict_alias_without_a_change_still_reports(tmp_path, monkeypatch):
    text = """\
import jax.numpy as jnp


def alias_read():
    buf = {"obs": jnp.zeros((8, 3))}
    b2 = buf
    return b2["obs"][8]


def other_entry():
    buf = {"obs": jnp.zeros((8, 3))}
    b2 = buf
    b2["act"] = jnp.zeros(3)
    return buf["obs"][8]


def other_dict():
    buf = {"obs": jnp.zeros((8, 3))}
    b2 = {"obs": jnp.zeros((4, 3))}
    b2["obs"] = jnp.zeros((16, 3))
    return buf["obs"][8]
"""
    assert lint_files(tmp_path, monkeypatch, {"m.py": text}, select="JAX121") == [
        ("JAX121", "m.py", 7, 22, _OOB8),
        ("JAX121", "m.py", 14, 23, _OOB8),
        ("JAX121", "m.py", 21, 23, _OOB8),
    ]


# recall case 1430 (herculens, https://github.com/Herculens/herculens/commit/c51c2ae696bb6d983198b71492882107970eba1c):
# `np.array([ra, dec])` in a helper reached from a method of a class of another module, called on
# an instance from a function differentiated by jax.grad outside jit (the method ran with tracers
# only under a jit before)
_COORDS = """\
import numpy as np
{imp}


class Coordinates:
    def __init__(self, M):
        self._M = M

    def map_coord2pix(self, ra, dec):
        return {body}
"""
_UTIL = "import {np}\n\n\ndef map_coord2pix(ra, dec, M):\n    return M.dot({np_alias}.array([ra, dec]))\n"
_GRAD_MAIN = """\
import jax
import jax.numpy as jnp
import numpy as np

from pkg.coords import Coordinates

{build}


def pixel_x(ra, dec):
    x, y = {receiver}.map_coord2pix(ra, dec)
    return x


print(jax.{transform}(pixel_x)(jnp.array(0.5), jnp.array(-0.2)))
"""


def _np204(path_fn: str, chain: str) -> str:
    return (f"`np.array` on a traced value (it depends on the traced argument `ra` of `map_coord2pix` ({chain})): "
            "NumPy converts it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.array` "
            "(jax.numpy) instead")


def _sub(root, name: str):
    d = root / name
    d.mkdir()
    return d


def _grad_project(np_mod: str, direct: bool, build: str, receiver: str, transform: str) -> dict:
    body = "self._M.dot(np.array([ra, dec]))" if direct else "util.map_coord2pix(ra, dec, self._M)"
    imp = "" if direct else "import pkg.util as util"
    alias = np_mod.split()[-1]
    return {
        "pkg/__init__.py": "",
        "pkg/util.py": _UTIL.format(np=np_mod, np_alias=alias),
        "pkg/coords.py": _COORDS.format(imp=imp, body=body.replace("np.array", f"{alias}.array") if direct else body),
        "main.py": _GRAD_MAIN.format(build=build, receiver=receiver, transform=transform),
    }


def test_method_of_another_modules_instance_runs_with_grad_tracers(tmp_path, monkeypatch):
    # 1: the method itself converts (an instance bound at module level, jax.grad)
    files = _grad_project("numpy as np", True, "coords = Coordinates(np.eye(2))", "coords", "grad")
    assert lint_files(_sub(tmp_path, "a"), monkeypatch, files, select="JAX204") == [
        ("JAX204", "pkg/coords.py", 10, 28, _np204("", "called from `pixel_x` (main.py:11), which is differentiated by jax.grad")),
    ]
    # 2: through a helper of a third module (1430's shape), the instance built in the call, value_and_grad
    files = _grad_project("numpy as np", False, "", "Coordinates(np.eye(2))", "value_and_grad")
    assert lint_files(_sub(tmp_path, "b"), monkeypatch, files, select="JAX204") == [
        ("JAX204", "pkg/util.py", 5, 18, _np204("", "called from `Coordinates.map_coord2pix` (pkg/coords.py:10), which is "
                                               "called from `pixel_x` (main.py:11), which is differentiated by jax.value_and_grad")),
    ]
    # 3: NumPy imported under another name (`import numpy as onp`), jacrev
    files = _grad_project("numpy as onp", False, "coords = Coordinates(np.eye(2))", "coords", "jacrev")
    found = lint_files(_sub(tmp_path, "c"), monkeypatch, files, select="JAX204")
    assert [(c, p, r, col) for c, p, r, col, _ in found] == [("JAX204", "pkg/util.py", 5, 18)]
    assert found[0][4].startswith("`onp.array` on a traced value")


def test_method_of_another_modules_instance_valid_twins(tmp_path, monkeypatch):
    # the corrected code (jnp.array), and a method called with concrete values only
    for i, (np_mod, direct, build, receiver) in enumerate([
            ("jax.numpy as jnp", True, "coords = Coordinates(np.eye(2))", "coords"),
            ("jax.numpy as jnp", False, "", "Coordinates(np.eye(2))")]):
        files = _grad_project(np_mod, direct, build, receiver, "grad")
        if direct:
            files["pkg/coords.py"] = files["pkg/coords.py"].replace("np.array", "jnp.array").replace(
                "import numpy as np", "import jax.numpy as jnp")
        assert lint_files(_sub(tmp_path, str(i)), monkeypatch, files, select="JAX204") == []
    files = _grad_project("numpy as np", True, "coords = Coordinates(np.eye(2))", "coords", "grad")
    files["main.py"] = files["main.py"].replace("x, y = coords.map_coord2pix(ra, dec)",
                                                "x, y = coords.map_coord2pix(0.5, -0.2)\n    x = x * ra")
    assert lint_files(_sub(tmp_path, "c"), monkeypatch, files, select="JAX204") == []
