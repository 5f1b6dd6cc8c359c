"""Pytree classes: which attributes of a registered class are data leaves (tracers
under a trace) and which are static (aux data: Python values under a trace).

A class's *record* is read from its definition in one file (``pytree_read.class_record``;
this module is plain data and imports no libcst: the project driver uses it on warm runs):

    {"reg": how it is registered, or None,
     "bases": [each base as written: "Base", "base.Base", "equinox.Module"...],
     "fields": {name: DATA | STATIC | CONST | UNSURE},
     "ann": {field: its annotation's class, as written ("Option", "jax.Array")}}

``reg`` is "dataclass" (``jax.tree_util.register_dataclass``, ``flax.struct``,
chex, jax_dataclasses), "eqx" (an ``equinox.Module``: under ``eqx.filter_jit`` its
non-array fields are static, so only array fields count as leaves), "namedtuple"
(every field a leaf), "flatten" (``register_pytree_node(_class)``/``..._with_keys``:
what the flatten function returns first is data, second the aux data), "static"
(``register_static``: the whole object is aux data) or "opaque" (registered in a
way this reading cannot follow: nothing is known of its fields).

``resolve`` merges a record with its bases' (through any number of modules: the
caller says how a base resolves) into a *flat* record: {"reg", "fields", "ann"}
with ``ann`` holding the flat records of fields whose class is known too (a few
levels deep).  ``attribute`` says what ``obj.attr`` is when ``obj`` is an instance.
Unknown stays unknown: a class with no record, a field the reading did not find, a
base that does not resolve to a registration give None.
"""

from __future__ import annotations

from typing import Callable, Optional

from jaxlint.model import apis

class PyClass:
    """A flat record, compared by identity (kept on abstract values)."""

    __slots__ = ("flat",)

    def __init__(self, flat: dict) -> None:
        self.flat = flat

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"PyClass({self.flat.get('reg')}, {sorted(self.flat.get('fields', {}))})"


DATA = "d"  # a pytree leaf: a tracer under a trace
STATIC = "s"  # aux data: the Python value under a trace
CONST = "c"  # a class attribute (ClassVar, class-level assignment): a Python value
UNSURE = "?"

DECORATOR_REGS = {
    "jax.tree_util.register_dataclass": "dataclass",
    "jax.tree_util.register_static": "static",
    "flax.struct.dataclass": "dataclass",
    "chex.dataclass": "dataclass",
    "chex.mappable_dataclass": "dataclass",
    "jax_dataclasses.pytree_dataclass": "dataclass",
    "jax.tree_util.register_pytree_node_class": "flatten",
    "jax.tree_util.register_pytree_with_keys_class": "flatten",
}
CALL_REGS = {
    "jax.tree_util.register_dataclass": "dataclass",
    "jax.tree_util.register_static": "static",
    "jax.tree_util.register_pytree_node": "flatten",
    "jax.tree_util.register_pytree_with_keys": "flatten",
}
BASE_REGS = {
    "flax.struct.PyTreeNode": "dataclass",
    "equinox.Module": "eqx",
    "typing.NamedTuple": "namedtuple",
}
# classes of libraries, by qualified name: their flat records
LIBRARY_CLASSES: dict[str, dict] = {
    "flax.training.train_state.TrainState": {
        "reg": "dataclass",
        "fields": {"step": DATA, "apply_fn": STATIC, "params": DATA, "tx": STATIC, "opt_state": DATA},
        "ann": {},
    },
}
# attributes of an array, read on a traced value of unknown class: array API
ARRAY_ATTRS = frozenset({"T", "mT", "real", "imag", "flat"})
STATIC_WRAPPERS = frozenset({"jax_dataclasses.Static", "jax_dataclasses._dataclasses.Static"})
CLASSVAR = frozenset({"typing.ClassVar", "ClassVar"})
INITVAR = frozenset({"dataclasses.InitVar", "InitVar"})
OPTIONAL = frozenset({"typing.Optional", "Optional", "typing.Union", "Union"})
_DEPTH = 3

def resolve(record: dict, base_of: Callable[[str], Optional[dict]], depth: int = 0) -> dict:
    """The flat record of a class: its own fields over its bases' (``base_of``:
    a base as written -> its flat record, or None), the registration its own or
    the nearest base's, and the flat records of its fields' classes
    (``base_of`` resolves an annotation the same way)."""
    reg = record.get("reg")
    fields: dict[str, str] = {}
    anns: dict = {}
    for b in record.get("bases", ()):
        flat = LIBRARY_CLASSES.get(b) or (base_of(b) if depth < 8 else None)
        if flat is None:
            if b in BASE_REGS:
                reg = reg or BASE_REGS[b]
            continue
        reg = reg or flat.get("reg")
        for k, v in flat.get("fields", {}).items():
            fields.setdefault(k, v)
        for k, v in flat.get("ann", {}).items():
            anns.setdefault(k, v)
    fields.update(record.get("fields", {}))
    for k, a in record.get("ann", {}).items():
        if a in apis.ARRAY_ANNOTATIONS or a in apis.STATIC_ANNOTATIONS:
            anns[k] = a
        elif depth < _DEPTH:
            sub = LIBRARY_CLASSES.get(a) or base_of(a)
            if sub is not None:
                anns[k] = sub
    out = {"reg": reg, "fields": fields, "ann": anns}
    if record.get("hash"):
        out["hash"] = record["hash"]  # the class's own (model/hashing.py): never its bases'
    if record.get("fnleaf"):
        out["fnleaf"] = record["fnleaf"]  # its fields holding a Python function (pytree_read.py)
    return out


def attribute(flat: dict, attr: str) -> tuple[str, object]:
    """What ``obj.attr`` is for an instance ``obj`` of the class ``flat`` that
    flows through a trace: ("data", the field's annotation: a qualified name or
    a flat record, or None), ("static", the same) or ("unknown", None)."""
    reg = flat.get("reg")
    if reg is None or reg == "opaque":
        return "unknown", None
    state = flat.get("fields", {}).get(attr)
    ann = flat.get("ann", {}).get(attr)
    if state is None:
        return "unknown", None
    if reg == "static" or state in (STATIC, CONST):
        return "static", ann
    if state == UNSURE:
        return "unknown", None
    if reg == "eqx" and not (isinstance(ann, str) and ann in apis.ARRAY_ANNOTATIONS) and not isinstance(ann, dict):
        return "unknown", None  # eqx.filter_jit keeps non-array leaves static
    return "data", ann


def merge(a: dict, b: dict) -> dict:
    """The flat record of a value of class ``a`` or ``b`` (two traced callers pass
    different classes): an attribute both read the same way (a data leaf in both,
    static in both) keeps that reading; any other is unknown."""
    fields: dict[str, str] = {}
    anns: dict = {}
    for attr in sorted(set(a.get("fields", {})) & set(b.get("fields", {}))):
        wa, na = attribute(a, attr)
        wb, nb = attribute(b, attr)
        if wa == wb and wa in ("data", "static"):
            fields[attr] = DATA if wa == "data" else STATIC
            if na is not None and na == nb:
                anns[attr] = na
    return {"reg": "merged", "fields": fields, "ann": anns}
