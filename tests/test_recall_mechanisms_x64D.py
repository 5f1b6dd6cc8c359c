"""x64, non-array-argument, list-to-jnp and host-rng (branch x64D): the mechanisms the
real-bug set's misses lacked, each with INVALID programs written two ways or more and
VALID twins that stay silent.

* JAX110: the strings NumPy reads as a 64-bit dtype (`dtype='int'` is int64,
  `'float'` float64, `'complex'` complex128, `'d'`, `'q'`, `'intp'`...; case 1834,
  https://github.com/jax-ml/jax/issues/4540).  The Python types themselves
  (`dtype=int`, `dtype=float`) are JAX's default types: no warning, no finding.
* JAX123: a module switching x64 on by its own top level, imported by another after
  that one made JAX arrays (`jax.config.update`: case 1856, GPJax issue 128) or after
  it imported jax (`JAX_ENABLE_X64` in the environment: case 1741, discopt PR 264).
* JAX209: values jit cannot make abstract arrays, by what builds them: a device
  (`jax.devices()[0]`, case 1831, jax issue 4416), a NumPy array of strings
  (`np.array(['hi'])`, case 1832, jax issue 5228), a sharding, a mesh, a dtype, a
  `range`, a set, a list/tuple/dict display holding a string; also to a jit of a
  function of another module (its signature unknown here).
* JAX406: a draw from a NumPy/Python generator object made outside the trace
  (`rng = np.random.default_rng(34982345)` ... `rng.random()` in a jitted function;
  case 419, jax issue 24412).
* JAX130: the jax.numpy functions measured to reject a list (a table), a list among
  the arrays `jnp.concatenate`/`jnp.stack` join (case 1746, jax issue 1013), and
  `jnp.ndim`/`shape`/`size` of a list holding a tracer (case 424, jax issue 12083).

Each INVALID line was run with JAX 0.10.2 on CPU (the error or warning is in its
finding's message); the VALID twins run."""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str], select: str) -> list[tuple]:
    return lint_files(root, monkeypatch, files, select=select, dedent=True)


def _f64(written: str, canonical: str, where: str, narrow: str) -> str:
    return (f"`{written}` (`{canonical}`) {where} is truncated to 32-bit because jax_enable_x64 is off (JAX only "
            f"warns). Enable x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `{narrow}`")


# ---------------------------------------------------------------------------------
# JAX110: 64-bit dtype strings

DTYPE_STRINGS = """\
import jax
import jax.numpy as jnp
import numpy as np

a = jax.numpy.asarray([2, 3], dtype='int')
b = jnp.zeros(3, dtype="float")
c = jnp.ones(2).astype('complex')
d = jax.random.randint(jax.random.PRNGKey(0), (2,), 0, 3, dtype='q')
e = jnp.where(b > 0, np.zeros(3, dtype='d'), 1.0)
"""

DTYPE_TYPES = """\
import jax
import jax.numpy as jnp
import numpy as np

a = jax.numpy.asarray([2, 3], dtype=int)
b = jnp.zeros(3, dtype=float)
c = jnp.ones(2).astype(complex)
d = jax.random.randint(jax.random.PRNGKey(0), (2,), 0, 3, dtype='i')
e = jnp.where(b > 0, np.zeros(3, dtype='f'), 1.0)
h = np.zeros(3, dtype='int')
"""


def test_dtype_strings_numpy_reads_as_64_bit(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"main.py": DTYPE_STRINGS}, "JAX110") == [
        ("JAX110", "main.py", 5, 37, _f64("int", "int64", "requested in `jnp.asarray`", "int32")),
        ("JAX110", "main.py", 6, 24, _f64("float", "float64", "requested in `jnp.zeros`", "float32")),
        ("JAX110", "main.py", 7, 24, _f64("complex", "complex128", "in `.astype()` of a JAX array", "complex64")),
        ("JAX110", "main.py", 8, 65, _f64("q", "int64", "requested in `jax.random.randint`", "i")),
        ("JAX110", "main.py", 9, 5,
         "`np.zeros(3, dtype='d')` is a float64 NumPy array: `jnp.where` converts it to float32 because "
         "jax_enable_x64 is off, without a warning (the 64-bit request is NumPy's). Enable x64 at start-up "
         "(`jax.config.update('jax_enable_x64', True)`), or make the array float32"),
    ]


def test_python_types_as_dtypes_are_jax_defaults(tmp_path, monkeypatch):
    # `dtype=int` is JAX's default integer (int32 with x64 off, no warning); 'i'/'f' are 32-bit;
    # a NumPy array that stays on the host is NumPy's business
    assert _lint(tmp_path, monkeypatch, {"main.py": DTYPE_TYPES}, "JAX110") == []


# ---------------------------------------------------------------------------------
# JAX123: a module switching x64 on at import, imported too late

GP_INIT = """\
import jax

jax.config.update("jax_enable_x64", True)

from gp_lite.kernels import RBF
"""

GP_KERNELS = """\
import jax.numpy as jnp


class RBF:
    def __call__(self, x, y):
        return jnp.exp(-jnp.sum((x - y) ** 2))
"""

GP_MAIN = """\
import jax

key = jax.random.PRNGKey(0)
before = jax.random.normal(key)

import gp_lite as gpx  # noqa: E402

after = jax.random.normal(key)
"""

# the same switch in a submodule, reached through a helper module the script imports
GP_SETTINGS = """\
from jax import config

config.update("jax_enable_x64", 1)
"""

GP_API = """\
from gp2 import settings
"""

GP2_MAIN = """\
import jax.numpy as jnp

grid = jnp.linspace(0.0, 1.0, 5)

from gp2.api import settings  # noqa: E402
"""

GP_MAIN_FIRST = """\
import jax

import gp_lite as gpx

key = jax.random.PRNGKey(0)
draw = jax.random.normal(key)
"""

_LATE_ARRAYS = ("Importing this module enables x64, but `{path}` imports it (line {line}) after its top level "
                "already created JAX arrays (`{code}`): those stay 32-bit while arrays made after the import are "
                "64-bit (random draws and results change with the import). Enable x64 in the program's entry "
                "point, before any array is made, not at a library's import")


def test_package_enabling_x64_imported_after_arrays(tmp_path, monkeypatch):
    files = {"gp_lite/__init__.py": GP_INIT, "gp_lite/kernels.py": GP_KERNELS, "main.py": GP_MAIN,
             "gp2/__init__.py": "", "gp2/settings.py": GP_SETTINGS, "gp2/api.py": GP_API, "run2.py": GP2_MAIN}
    assert _lint(tmp_path, monkeypatch, files, "JAX123") == [
        ("JAX123", "gp2/settings.py", 3, 1,
         _LATE_ARRAYS.format(path="run2.py", line=5, code="grid = jnp.linspace(0.0, 1.0, 5)")),
        ("JAX123", "gp_lite/__init__.py", 3, 1,
         _LATE_ARRAYS.format(path="main.py", line=6, code="before = jax.random.normal(key)")),
    ]


def test_package_enabling_x64_imported_first_is_silent(tmp_path, monkeypatch):
    files = {"gp_lite/__init__.py": GP_INIT, "gp_lite/kernels.py": GP_KERNELS, "main.py": GP_MAIN_FIRST}
    assert _lint(tmp_path, monkeypatch, files, "JAX123") == []


ENV_INIT = """\
import os as _os

if _os.environ.get("JAX_ENABLE_X64", "1") != "0":
    _os.environ.setdefault("JAX_ENABLE_X64", "1")

from solver_lite.model import residual
"""

ENV_INIT_ASSIGN = """\
import os

os.environ["JAX_ENABLE_X64"] = "1"

from solver_lite.model import residual
"""

ENV_INIT_LIVE = ENV_INIT.replace("""    _os.environ.setdefault("JAX_ENABLE_X64", "1")
""", """    _os.environ.setdefault("JAX_ENABLE_X64", "1")
    import sys as _sys
    if "jax" in _sys.modules:
        _sys.modules["jax"].config.update("jax_enable_x64", True)
""")

ENV_MODEL = """\
import jax.numpy as jnp


def residual(x, y):
    return jnp.abs(x - y)
"""

ENV_MAIN = """\
import jax
import jax.numpy as jnp

import solver_lite
"""

ENV_MAIN_FIRST = """\
import solver_lite

import jax
"""

_LATE_ENV = ("`JAX_ENABLE_X64` is set when this module is imported, but `main.py` imports it (line {line}) after "
             "importing jax, which read the variable then: x64 stays off there (`jnp.float64` arrays are "
             "`float32`). Also switch the live config when jax is imported already "
             "(`jax.config.update(\"jax_enable_x64\", True)`), or set the variable before jax is imported")


def test_package_setting_the_env_var_imported_after_jax(tmp_path, monkeypatch):
    for init, at in ((ENV_INIT, (4, 5)), (ENV_INIT_ASSIGN, (3, 1))):
        root = tmp_path / str(at[0])
        root.mkdir()
        files = {"solver_lite/__init__.py": init, "solver_lite/model.py": ENV_MODEL, "main.py": ENV_MAIN}
        assert _lint(root, monkeypatch, files, "JAX123") == [
            ("JAX123", "solver_lite/__init__.py", *at, _LATE_ENV.format(line=4)),
        ]


def test_package_setting_the_env_var_twins_are_silent(tmp_path, monkeypatch):
    # the package also updates the live config; the script imports the package before jax
    for i, (init, main) in enumerate(((ENV_INIT_LIVE, ENV_MAIN), (ENV_INIT, ENV_MAIN_FIRST))):
        root = tmp_path / str(i)
        root.mkdir()
        files = {"solver_lite/__init__.py": init, "solver_lite/model.py": ENV_MODEL, "main.py": main}
        assert _lint(root, monkeypatch, files, "JAX123") == []


# ---------------------------------------------------------------------------------
# JAX209: non-array values by what builds them

_LEAF = ("{what} is passed to `{func}` for the traced {where}: jit makes every traced argument an abstract "
         "array and cannot make this one, so the call raises TypeError: Error interpreting argument ... as an "
         "abstract array. {advice}")
_STATIC = "Declare it static{hint}, or close over it instead of passing it"
_UNHASHABLE = "Close over it instead of passing it, or pass arrays"

MATCHING = """\
import numpy as np
import jax.numpy as jnp


def match_faces(desc):
    return jnp.asarray(desc).sum()
"""

NON_ARRAYS = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax import jit

from faces.matching import match_faces


def ident(x):
    return x


matches_jit = jit(match_faces)
matches_jit(jax.devices()[0])
dev = jax.local_devices()[0]
jax.jit(ident)(dev)
jit(lambda x: x)(np.array(['hi']))
jit(ident)(np.full(2, 'a'))
jit(ident)(range(3))
jit(ident)(jnp.float32)
jit(ident)(['a', 'b'])
jit(ident)({'k': 'v'})
jit(ident)(jax.make_mesh((1,), ('x',)))
"""

NON_ARRAYS_VALID = """\
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import jit

from faces.matching import match_faces


def ident(x):
    return x


jit(match_faces, static_argnums=0)(jax.devices()[0])
jit(match_faces, static_argnames="desc")(jax.devices()[0])
jit(ident)(jax.device_put(np.ones(3), jax.devices()[0]))
jit(match_faces)(np.array([1.0, 2.0]))
jit(ident)(np.array([1, 2], dtype=np.int32))
jit(ident)((1, 2.0))
jit(ident)({'k': 1.0})
jax.jit(ident, static_argnums=0)(jnp.float32)
functools.partial(jax.jit, static_argnums=0)(ident)(range(3))
"""


def test_non_array_values_passed_to_jit(tmp_path, monkeypatch):
    files = {"faces/__init__.py": "", "faces/matching.py": MATCHING, "main.py": NON_ARRAYS}
    p = "parameter `x`"
    hint = " (static_argnums=0, when it is hashable)"
    assert _lint(tmp_path, monkeypatch, files, "JAX209") == [
        ("JAX209", "main.py", 14, 13, _LEAF.format(what="A device object (`jax.devices()[0]`)", func="matches_jit",
                                                   where="argument 0", advice=_STATIC.format(hint=""))),
        ("JAX209", "main.py", 16, 16, _LEAF.format(what="A device object (`jax.local_devices()[0]`)",
                                                   func="jax.jit(ident)", where=p, advice=_STATIC.format(hint=hint))),
        ("JAX209", "main.py", 17, 18, _LEAF.format(what="A NumPy array of strings (`np.array(['hi'])`)",
                                                   func="jit(lambda x: x)", where=p, advice=_UNHASHABLE)),
        ("JAX209", "main.py", 18, 12, _LEAF.format(what="A NumPy array of strings (`np.full(2, 'a')`)",
                                                   func="jit(ident)", where=p, advice=_UNHASHABLE)),
        ("JAX209", "main.py", 19, 12, _LEAF.format(what="A `range` object (`range(3)`)", func="jit(ident)",
                                                   where=p, advice=_STATIC.format(hint=hint))),
        ("JAX209", "main.py", 20, 12, _LEAF.format(what="The dtype `jnp.float32` (a type, not an array)",
                                                   func="jit(ident)", where=p, advice=_STATIC.format(hint=hint))),
        ("JAX209", "main.py", 21, 12, _LEAF.format(what="A list holding a string (`['a', 'b']`)",
                                                   func="jit(ident)", where=p, advice=_UNHASHABLE)),
        ("JAX209", "main.py", 22, 12, _LEAF.format(what="A dict holding a string (`{'k': 'v'}`)",
                                                   func="jit(ident)", where=p, advice=_UNHASHABLE)),
        ("JAX209", "main.py", 23, 12, _LEAF.format(what="A device mesh (`jax.make_mesh((1,), ('x',))`)",
                                                   func="jit(ident)", where=p, advice=_STATIC.format(hint=hint))),
    ]


def test_arrays_and_static_non_arrays_passed_to_jit_are_silent(tmp_path, monkeypatch):
    files = {"faces/__init__.py": "", "faces/matching.py": MATCHING, "main.py": NON_ARRAYS_VALID}
    assert _lint(tmp_path, monkeypatch, files, "JAX209") == []


# ---------------------------------------------------------------------------------
# JAX406: a generator object made outside the trace

GENERATORS = """\
import random

import jax
import jax.numpy as jnp
import numpy as np

rng = np.random.default_rng(34982345)
state = np.random.RandomState()
py = random.Random(0)


@jax.jit
def f(a):
    return a * rng.random() + state.randn() + py.gauss(0, 1)


def make():
    gen = np.random.default_rng()

    def body(c, x):
        return c + gen.normal(), x
    return jax.lax.scan(body, 0.0, jnp.arange(3))
"""

GENERATORS_VALID = """\
import jax
import numpy as np

rng = np.random.default_rng(34982345)


@jax.jit
def g(a):
    local = np.random.default_rng(0)
    return a * local.random()


def eager(a):
    return a * rng.random()


@jax.jit
def h(a, key):
    rng.bit_generator
    return a + jax.random.normal(key)
"""


def _rng(call: str, name: str, made: str, unit: str) -> str:
    return (f"`{call}` draws from `{name}`, a stateful {made} generator made outside the trace, inside traced "
            f"`{unit}`: the draw runs once at trace time, its numbers are baked into the compiled function and "
            "repeat on every call. Pass a PRNG key and use `jax.random` instead")


def test_generator_object_drawn_in_traced_code(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"main.py": GENERATORS}, "JAX406") == [
        ("JAX406", "main.py", 14, 16, _rng("rng.random", "rng", "np.random.default_rng", "f")),
        ("JAX406", "main.py", 14, 31, _rng("state.randn", "state", "np.random.RandomState", "f")),
        ("JAX406", "main.py", 14, 47, _rng("py.gauss", "py", "random.Random", "f")),
        ("JAX406", "main.py", 21, 20, _rng("gen.normal", "gen", "np.random.default_rng", "body")),
    ]


def test_generator_made_in_the_trace_or_drawn_eagerly_is_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"main.py": GENERATORS_VALID}, "JAX406") == []


# ---------------------------------------------------------------------------------
# JAX130: the measured table, lists among joined arrays, shape queries of tracers

LISTS = """\
import jax
import jax.numpy as np
import jax.numpy as jnp
from jax.numpy import stack

joined = np.concatenate([[], [1]], 0)
s = stack([jnp.ones(2), (3.0, 4.0)])
m = jnp.meshgrid(jnp.arange(3), [1, 2])
d = jnp.diff([1.0, 2.0, 4.0])

func = lambda x: x + jnp.ndim([jnp.ones(1)])


@jax.jit
def g(x):
    return x * jnp.size((x, x))


jax.jit(func)(0.0)
"""

LISTS_VALID = """\
import jax
import jax.numpy as jnp

W = jnp.ones(3)
rows = [[1.0, 2.0], [3.0, 4.0]]
ok1 = jnp.concatenate([jnp.ones(2), jnp.zeros(2)])
ok2 = jnp.stack(rows)
ok3 = jnp.full([2, 3], 1.0)
ok4 = jnp.split(jnp.arange(6), [2, 4])
ok5 = jnp.diff(jnp.asarray([1.0, 2.0, 4.0]))


@jax.jit
def g(x):
    return x * jnp.ndim([W]) + jnp.shape([1.0, 2.0])[0]


def eager(x):
    return jnp.ndim([x])
"""


def test_lists_jax_numpy_rejects(tmp_path, monkeypatch):
    convert = "Convert it first with `jnp.asarray(...)`"
    assert _lint(tmp_path, monkeypatch, {"main.py": LISTS}, "JAX130") == [
        ("JAX130", "main.py", 6, 26,
         "`jnp.concatenate` does not accept a Python list among the arrays it joins: this raises `TypeError: "
         f"concatenate requires ndarray or scalar arguments, got <class 'list'> at position 0`. {convert}"),
        ("JAX130", "main.py", 7, 26,
         "`jnp.stack` does not accept a Python tuple among the arrays it joins: this raises `TypeError: "
         f"stack requires ndarray or scalar arguments, got <class 'tuple'> at position 1`. {convert}"),
        ("JAX130", "main.py", 8, 33,
         "`jnp.meshgrid` does not accept a Python list: this raises `TypeError: meshgrid requires ndarray or "
         f"scalar arguments, got <class 'list'>`. {convert}"),
        ("JAX130", "main.py", 9, 14,
         "`jnp.diff` does not accept a Python list: this raises `TypeError: diff requires ndarray or scalar "
         f"arguments, got <class 'list'>`. {convert}"),
        ("JAX130", "main.py", 11, 31,
         "`jnp.ndim` of a Python list hands it to NumPy, which converts each element: `jnp.ones(1)` is a JAX "
         "array in traced `<lambda>`, a tracer there, so this raises TracerArrayConversionError. Stack the "
         "arrays first (`jnp.stack(...)`) or read `len(...)` and the elements' `.ndim`/`.shape`"),
        ("JAX130", "main.py", 16, 26,
         "`jnp.size` of a Python tuple hands it to NumPy, which converts each element: `x` is a JAX array in "
         "traced `g`, a tracer there, so this raises TracerArrayConversionError. Stack the arrays first "
         "(`jnp.stack(...)`) or read `len(...)` and the elements' `.ndim`/`.shape`"),
    ]


def test_arrays_and_concrete_lists_are_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"main.py": LISTS_VALID}, "JAX130") == []


GP_MAIN_TWICE = """\
import jax

import gp_lite

key = jax.random.PRNGKey(0)
draw = jax.random.normal(key)

from gp_lite.kernels import RBF  # noqa: E402
"""


def test_package_imported_again_after_arrays_is_silent(tmp_path, monkeypatch):
    # the first import (before the arrays) ran the switch; the later one runs nothing
    files = {"gp_lite/__init__.py": GP_INIT, "gp_lite/kernels.py": GP_KERNELS, "main.py": GP_MAIN_TWICE}
    assert _lint(tmp_path, monkeypatch, files, "JAX123") == []


# x64 switched by `jax.config.update` with keywords (JAX 0.10.2 takes `name=`, `val=`)
KEYWORD_ON = """\
import jax
jax.config.update(name="jax_enable_x64", val=True)
import jax.numpy as jnp
x = jnp.zeros(3, dtype=jnp.float64)
"""

KEYWORD_ON_CONFIG = """\
from jax import config
config.update("jax_enable_x64", val=1)
import jax.numpy as jnp
x = jnp.zeros(3, dtype=jnp.float64)
"""

KEYWORD_LATE = """\
import jax
import jax.numpy as jnp
x = jnp.zeros(3)
jax.config.update(name="jax_enable_x64", val=True)
"""


def test_x64_switched_by_keywords(tmp_path, monkeypatch):
    for i, text in enumerate((KEYWORD_ON, KEYWORD_ON_CONFIG)):
        root = tmp_path / str(i)
        root.mkdir()
        assert _lint(root, monkeypatch, {"main.py": text}, "JAX110,JAX123") == []
    root = tmp_path / "late"
    root.mkdir()
    assert _lint(root, monkeypatch, {"main.py": KEYWORD_LATE}, "JAX123") == [
        ("JAX123", "main.py", 4, 1,
         "x64 is enabled after JAX arrays were already created at line 3: arrays made before this point stay "
         "32-bit while later ones are 64-bit. Enable x64 right after importing jax"),
    ]


POSITIONAL_DTYPES = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

x = jnp.ones(3)
total = jnp.sum(x, 0, jnp.float64)
steps = jnp.arange(0, 3, 1, 'float64')
idx = lax.iota(np.int64, 3)
draws = jax.random.gamma(jax.random.PRNGKey(0), 1.0, (2,), jnp.float64)
"""

POSITIONAL_DTYPES_32 = POSITIONAL_DTYPES.replace("float64", "float32").replace("int64", "int32")


def _f64_named(dtype: str, where: str, narrow: str) -> str:
    return (f"`{dtype}` {where} is truncated to 32-bit because jax_enable_x64 is off (JAX only warns). Enable "
            f"x64 at start-up (`jax.config.update('jax_enable_x64', True)`), or use `{narrow}`")


def test_dtype_given_by_position(tmp_path, monkeypatch):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    assert _lint(tmp_path / "a", monkeypatch, {"main.py": POSITIONAL_DTYPES}, "JAX110") == [
        ("JAX110", "main.py", 7, 23, _f64_named("float64", "requested in `jnp.sum`", "float32")),
        ("JAX110", "main.py", 8, 29, _f64_named("float64", "requested in `jnp.arange`", "float32")),
        ("JAX110", "main.py", 9, 16, _f64_named("int64", "requested in `jax.lax.iota`", "int32")),
        ("JAX110", "main.py", 10, 60, _f64_named("float64", "requested in `jax.random.gamma`", "float32")),
    ]
    assert _lint(tmp_path / "b", monkeypatch, {"main.py": POSITIONAL_DTYPES_32}, "JAX110") == []


SCIPY_DRAWS = """\
import random

import jax
import scipy.stats
from scipy import stats

sys_rng = random.SystemRandom()


@jax.jit
def f(x):
    return x + scipy.stats.norm.rvs(size=3) + stats.expon.rvs() + sys_rng.random()


@jax.jit
def g(x):
    return x + stats.norm.rvs(size=3, random_state=0)


def eager(x):
    return x + stats.norm.rvs(size=3) + sys_rng.random()
"""


def test_scipy_rvs_and_system_random_in_traced_code(tmp_path, monkeypatch):
    baked = ("inside traced `f` runs once at trace time: its numbers are baked into the compiled function and "
             "repeat on every call. Pass a PRNG key and use `jax.random` instead")
    assert _lint(tmp_path, monkeypatch, {"main.py": SCIPY_DRAWS}, "JAX406") == [
        ("JAX406", "main.py", 12, 16, f"`scipy.stats.norm.rvs` (SciPy draws from NumPy's stateful RNG) {baked}"),
        ("JAX406", "main.py", 12, 47, f"`stats.expon.rvs` (SciPy draws from NumPy's stateful RNG) {baked}"),
        ("JAX406", "main.py", 12, 67, _rng("sys_rng.random", "sys_rng", "random.SystemRandom", "f")),
    ]
