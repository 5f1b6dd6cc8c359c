"""Round 20, valM: the variation matrix of the value's origin.

Each row is a sink family (a rule's sharp bit) with the value that reaches it
(``PRODUCER``); each column is where that value comes from (the same function, an
alias, a helper's return in this module / another module / through a relative import /
a re-export, returned in a tuple, a dict, by a method, an attribute set in ``__init__``,
a NamedTuple field, a module constant here / imported / read as ``mod.NAME``, a
parameter whose callers pass it, a list or dict element, a closure variable, a helper
returning a module-level value).  A cell is a small project: ``main.py`` (or
``pkg/main.py``) holds ``run``, decorated with ``@jax.jit``, and the sink; its VALID
twin is the corrected code.  ``cells()`` yields every cell; running this file writes
them out (``python tests/matrix_valM.py DEST``) so that each can be run with JAX.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional


@dataclass(frozen=True)
class Family:
    name: str
    code: str
    producer: str  # the value, an expression that may use the traced argument `t`
    sink: tuple[str, ...]  # statements using {E}; `@@` marks the finding's column
    fix: tuple[str, ...]  # the corrected statements
    host_only: bool = False  # the producer needs no `t` (module constants, attributes)
    message: str = ""  # with {E}, {E0} (the first name of E) and {where}


FAMILIES = (
    Family("inplace", "JAX101", "jnp.zeros(8)",
           ("@@{E}[2] = 1.0", "return {E}"),
           ("out = {E}.at[2].set(1.0)", "return out"), True,
           "JAX arrays are immutable: `{E}[2] = ...` raises TypeError. Use `{E} = {E}.at[2].set(...)`"),
    Family("oob", "JAX121", "jnp.arange(3.0)",
           ("out = {E}[@@3]", "return out"),
           ("out = {E}[2]", "return out"), True,
           "index 3 is out of bounds for axis 0 with size 3, and JAX raises no IndexError: the read is "
           "clamped to the nearest valid index (silently the wrong element)"),
    Family("nptable", "JAX204", "np.arange(10.0)",
           ("out = @@{E}[t]", "return out"),
           ("out = jnp.asarray({E})[t]", "return out"), True,
           "`{E}[t]` indexes the host NumPy array `{E}` with a traced value (it depends on the traced argument "
           "`t` of {where}): NumPy converts the index with `__array__()`, which raises "
           "TracerArrayConversionError. Make it a JAX array first: `jnp.asarray({E})[t]`"),
    Family("pylist", "JAX130", "[1.0, 2.0, 3.0]",
           ("out = jnp.sum(@@{E})", "return out"),
           ("out = jnp.sum(jnp.asarray({E}))", "return out"), True,
           "`jnp.sum` does not accept a Python list: this raises `TypeError: sum requires ndarray or scalar "
           "arguments, got <class 'list'>`. Convert it first with `jnp.asarray(...)`"),
    Family("key", "JAX301", "jax.random.PRNGKey(0)",
           ("a = jax.random.normal({E}, (2,))", "b = @@jax.random.normal({E}, (2,))", "return a, b"),
           ("k1, k2 = jax.random.split({E})", "a = jax.random.normal(k1, (2,))",
            "b = jax.random.normal(k2, (2,))", "return a, b"), True,
           "`{E}` was already consumed by `random.normal` on line {line0}: both calls get the same random bits. "
           "Split it first, e.g. `k1, k2 = jax.random.split({E})`, and give each call its own key"),
    Family("tracer", "JAX204", "jnp.sin(t)",
           ("out = @@np.asarray({E})", "return out"),
           ("out = jnp.asarray({E})", "return out"), False,
           "`np.asarray` on a traced value (it depends on the traced argument `t` of {where}): NumPy converts "
           "it with `__array__()`, which raises TracerArrayConversionError. Use `jnp.asarray` (jax.numpy) instead"),
)

_HEAD = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n"
_RUN_WHERE = "`run` (decorated with @jax.jit)"


@dataclass
class Column:
    name: str
    host_only: bool = False  # the producer must not depend on `t`
    main: str = "main.py"
    # how the column builds the project: (files, E, setup lines in the sink's function,
    # the function holding the sink: "run" or other text)
    build: object = None


def _ind(lines, n=4):
    return "\n".join(" " * n + l if l else l for l in lines)


def _project(fam: Family, col: str, fixed: bool) -> Optional[tuple[dict, str, str]]:
    """The cell's files, the path of the file holding the sink, and the `where` of the
    message (None: not a cell of this row)."""
    P = fam.producer
    body = fam.fix if fixed else fam.sink
    main_tail = '\n\nif __name__ == "__main__":\n    print(run(1))\n'

    def sink_in_run(setup, E, head_extra="", before=""):
        lines = list(setup) + [s.replace("{E}", E) for s in body]
        return (_HEAD + head_extra + before + "\n\n@jax.jit\ndef run(t):\n" + _ind(lines) + main_tail)

    files: dict[str, str] = {}
    where = _RUN_WHERE
    path = "main.py"
    if col == "same_fn":
        files["main.py"] = sink_in_run([f"v = {P}"], "v")
    elif col == "alias":
        files["main.py"] = sink_in_run([f"w = {P}", "v = w"], "v")
    elif col == "helper_same":
        files["main.py"] = sink_in_run(["v = make(t)"], "v", before=f"\n\ndef make(t):\n    return {P}\n")
    elif col == "helper_other":
        files["helpers.py"] = _HEAD + f"\n\ndef make(t):\n    return {P}\n"
        files["main.py"] = sink_in_run(["v = make(t)"], "v", "\nfrom helpers import make\n")
    elif col == "helper_modattr":
        files["helpers.py"] = _HEAD + f"\n\ndef make(t):\n    return {P}\n"
        files["main.py"] = sink_in_run(["v = helpers.make(t)"], "v", "\nimport helpers\n")
    elif col == "helper_relative":
        files["pkg/__init__.py"] = ""
        files["pkg/helpers.py"] = _HEAD + f"\n\ndef make(t):\n    return {P}\n"
        files["pkg/main.py"] = sink_in_run(["v = make(t)"], "v", "\nfrom .helpers import make\n")
        path = "pkg/main.py"
    elif col == "helper_reexport":
        files["utils/__init__.py"] = "from .core import make\n"
        files["utils/core.py"] = _HEAD + f"\n\ndef make(t):\n    return {P}\n"
        files["main.py"] = sink_in_run(["v = make(t)"], "v", "\nfrom utils import make\n")
    elif col == "tuple_return":
        files["helpers.py"] = _HEAD + f"\n\ndef make(t):\n    return {P}, 0\n"
        files["main.py"] = sink_in_run(["v, _ = make(t)"], "v", "\nfrom helpers import make\n")
    elif col == "dict_return":
        files["helpers.py"] = _HEAD + f'\n\ndef make(t):\n    return {{"v": {P}}}\n'
        files["main.py"] = sink_in_run(['v = make(t)["v"]'], "v", "\nfrom helpers import make\n")
    elif col == "method_return":
        files["helpers.py"] = _HEAD + f"\n\nclass Maker:\n    def make(self, t):\n        return {P}\n"
        files["main.py"] = sink_in_run(["v = Maker().make(t)"], "v", "\nfrom helpers import Maker\n")
    elif col == "attr_other":
        if not fam.host_only:
            return None
        files["helpers.py"] = _HEAD + f"\n\nclass Holder:\n    def __init__(self):\n        self.v = {P}\n"
        files["main.py"] = sink_in_run(["h = Holder()"], "h.v", "\nfrom helpers import Holder\n")
    elif col == "attr_self":
        if not fam.host_only:
            return None
        if fixed and fam.name == "key":
            # the key stored on the object is split and replaced at each call (JAX301 on the
            # object's key drawn without replacing it)
            body = ("self.v, k = jax.random.split(self.v)", "k1, k2 = jax.random.split(k)",
                    "a = jax.random.normal(k1, (2,))", "b = jax.random.normal(k2, (2,))", "return a, b")
        lines = [s.replace("{E}", "self.v") for s in body]
        files["main.py"] = (_HEAD + f"\n\nclass Model:\n    def __init__(self):\n        self.v = {P}\n\n"
                            "    def apply(self, t):\n" + _ind(lines, 8)
                            + "\n\n\n@jax.jit\ndef run(t):\n    return Model().apply(t)" + main_tail)
        where = "`apply` (called from traced `run`)"
    elif col == "namedtuple":
        files["helpers.py"] = (_HEAD + "from typing import Any, NamedTuple\n\n\nclass State(NamedTuple):\n"
                               f"    v: Any\n\n\ndef init(t):\n    return State(v={P})\n")
        files["main.py"] = sink_in_run(["s = init(t)"], "s.v", "\nfrom helpers import init\n")
    elif col == "const_same":
        if not fam.host_only:
            return None
        files["main.py"] = sink_in_run([], "V", before=f"\nV = {P}\n")
    elif col == "const_other":
        if not fam.host_only:
            return None
        files["consts.py"] = _HEAD + f"\nV = {P}\n"
        files["main.py"] = sink_in_run([], "V", "\nfrom consts import V\n")
    elif col == "const_modattr":
        if not fam.host_only:
            return None
        files["consts.py"] = _HEAD + f"\nV = {P}\n"
        files["main.py"] = sink_in_run([], "consts.V", "\nimport consts\n")
    elif col == "helper_global":
        if not fam.host_only:
            return None
        files["helpers.py"] = _HEAD + f"\n_V = {P}\n\n\ndef make(t):\n    return _V\n"
        files["main.py"] = sink_in_run(["v = make(t)"], "v", "\nfrom helpers import make\n")
    elif col == "param_same":
        lines = [s.replace("{E}", "v") for s in body]
        files["main.py"] = (_HEAD + "\n\ndef use(v, t):\n" + _ind(lines)
                            + f"\n\n\n@jax.jit\ndef run(t):\n    return use({P}, t)" + main_tail)
        where = "`use` (called from traced `run`)"
    elif col == "param_other":
        lines = [s.replace("{E}", "v") for s in body]
        files["helpers.py"] = _HEAD + "\n\ndef use(v, t):\n" + _ind(lines) + "\n"
        files["main.py"] = (_HEAD + "\nfrom helpers import use\n\n\n@jax.jit\ndef run(t):\n"
                            f"    return use({P}, t)" + main_tail)
        path = "helpers.py"
        where = "`use` (called from `run` ({cid}/main.py:10), which is decorated with @jax.jit)"
    elif col == "list_item":
        files["main.py"] = sink_in_run([f"vs = [{P}, {P}]", "v = vs[0]"], "v")
    elif col == "dict_item":
        files["main.py"] = sink_in_run([f'd = {{"v": {P}}}', 'v = d["v"]'], "v")
    elif col == "closure":
        lines = [s.replace("{E}", "v") for s in body]
        files["main.py"] = (_HEAD + f"\n\n@jax.jit\ndef run(t):\n    v = {P}\n\n    def inner():\n"
                            + _ind(lines, 8) + "\n\n    return inner()" + main_tail)
        where = "`inner` (defined inside traced `run`)"
    else:
        raise ValueError(col)
    return files, path, where


COLUMNS = ("same_fn", "alias", "helper_same", "helper_other", "helper_modattr", "helper_relative",
           "helper_reexport", "tuple_return", "dict_return", "method_return", "attr_other", "attr_self",
           "namedtuple", "const_same", "const_other", "const_modattr", "helper_global", "param_same",
           "param_other", "list_item", "dict_item", "closure")


@dataclass
class Cell:
    family: Family
    column: str
    files: dict
    twin: dict
    path: str
    row: int
    col: int
    where: str
    expr: str

    @property
    def id(self) -> str:
        return f"{self.family.name}-{self.column}"


def _locate(text: str) -> tuple[str, int, int]:
    for i, line in enumerate(text.splitlines(), 1):
        j = line.find("@@")
        if j >= 0:
            return text.replace("@@", "", 1), i, j + 1
    raise AssertionError("no marker")


def cells():
    for fam in FAMILIES:
        for col in COLUMNS:
            got = _project(fam, col, False)
            if got is None:
                continue
            files, path, where = got
            text, row, c = _locate(files[path])
            files = dict(files, **{path: text})
            twin = _project(fam, col, True)[0]
            line = text.splitlines()[row - 1]
            expr = line[c - 1:]
            yield Cell(fam, col, files, twin, path, row, c, where, expr)


_E = {"attr_other": "h.v", "attr_self": "self.v", "namedtuple": "s.v", "const_same": "V", "const_other": "V",
      "const_modattr": "consts.V"}


def expected(cell: Cell) -> tuple:
    fam = cell.family
    E = _E.get(cell.column, "v")
    line0 = cell.row - 1
    where = cell.where.replace("{cid}", cell.id)
    msg = fam.message.format(E=E, where=where, line0=line0)
    if fam.name == "tracer" and cell.column.startswith("param_"):
        msg = msg.replace("argument `t`", "argument `v`")
    return (fam.code, cell.path, cell.row, cell.col, msg)


# the findings a cell gives besides its sink's: the key stored on an object and drawn from
# by a method without being replaced (each call of `apply` on one object draws the same numbers)
EXTRA = {
    "key-attr_self": [("JAX301", "main.py", 11, 13,
                       "`self.v` is set only when the object is built and `apply` draws from it with `random.normal` "
                       "without replacing it, so every call of `apply` draws the same random numbers. Split it in the "
                       "method (`self.v, sub = jax.random.split(self.v)`) and draw with `sub`")],
}


def write(dest: Path) -> None:
    for cell in cells():
        for kind, files in (("bug", cell.files), ("twin", cell.twin)):
            root = dest / kind / cell.id
            for name, text in files.items():
                p = root / name
                p.parent.mkdir(parents=True, exist_ok=True)
                p.write_text(text)
            (root / "pyproject.toml").write_text("")


if __name__ == "__main__":
    write(Path(sys.argv[1]))
