"""How instances of a dataclass of this file hash (for static arguments of ``jit``).

``@dataclasses.dataclass`` with ``eq=True`` (the default) and neither ``frozen=True`` nor
``unsafe_hash=True`` sets ``__hash__`` to None: every instance is unhashable.  With
``frozen=True`` or ``unsafe_hash=True`` the hash is that of the tuple of its fields (those
not declared ``field(hash=False)`` / ``field(compare=False)``), so one unhashable field (a
JAX or NumPy array, a list) makes the instance unhashable.  ``@flax.struct.dataclass`` is
a frozen dataclass.  ``eq=False`` keeps ``object.__hash__`` (identity).  Checked with
CPython 3.11's ``dataclasses`` and JAX 0.10.2's ``jit`` (``ValueError: Non-hashable static
arguments are not supported``).
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jaxlint.model.kinds import dataclass_fields
from jaxlint.model.walk import keyword_arg

_FROZEN_DECORATORS = frozenset({"flax.struct.dataclass"})

UNHASHABLE = "unhashable"  # __hash__ is None
BY_FIELDS = "by-fields"  # the hash of the fields' tuple


def dataclass_hashing(node: cst.ClassDef, qualname: Callable[[cst.CSTNode], Optional[str]]) -> Optional[tuple[str, list[str]]]:
    """(UNHASHABLE or BY_FIELDS, the fields that take part in the hash, in ``__init__``'s
    order) for a dataclass of this file; None when its instances hash by identity or the
    class is not one the model reads (bases, a ``__hash__`` of its own, keywords it cannot
    read)."""
    fields = dataclass_fields(node, qualname)
    if fields is None:
        return None
    for stmt in node.body.body:
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value in ("__hash__", "__eq__"):
            return None
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign) and any(
                    isinstance(t.target, cst.Name) and t.target.value == "__hash__" for t in small.targets
                ):
                    return None
    mode: Optional[str] = None
    for d in node.decorators:
        dec = d.decorator
        q = qualname(dec.func if isinstance(dec, cst.Call) else dec)
        if q in _FROZEN_DECORATORS:
            mode = BY_FIELDS
        elif q == "dataclasses.dataclass":
            flags = {}
            if isinstance(dec, cst.Call):
                for name in ("eq", "frozen", "unsafe_hash"):
                    kw = keyword_arg(dec, name)
                    if kw is None:
                        continue
                    if not isinstance(kw.value, cst.Name) or kw.value.value not in ("True", "False"):
                        return None  # a flag computed elsewhere
                    flags[name] = kw.value.value == "True"
            if not flags.get("eq", True) and not flags.get("unsafe_hash", False):
                return None  # identity hash
            mode = BY_FIELDS if flags.get("frozen") or flags.get("unsafe_hash") else UNHASHABLE
    if mode is None:
        return None
    return mode, [f for f in fields if _hashed(node, f, qualname)]


def _hashed(node: cst.ClassDef, name: str, qualname) -> bool:
    """The field is not declared ``field(hash=False)`` or ``field(compare=False)``."""
    for stmt in node.body.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if (
                isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name)
                and small.target.value == name and isinstance(small.value, cst.Call)
                and (qualname(small.value.func) or "").endswith("field")
            ):
                for kw in ("hash", "compare"):
                    a = keyword_arg(small.value, kw)
                    if a is not None and not (isinstance(a.value, cst.Name) and a.value.value == "True"):
                        return False
    return True
