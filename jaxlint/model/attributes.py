"""Arrays held on attributes: ``self.buf = jnp.zeros(n)`` in ``__init__`` makes
``self.buf`` a JAX array in every method of the class, as long as nothing else of the
class binds it to something else.
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jaxlint.model import kinds
from jaxlint.model import values as V
from jaxlint.model.units import ClassInfo, Unit
from jaxlint.model.walk import descendants

# jax.numpy functions that return one new array (not a list: `split`, `meshgrid`...)
_ARRAY_BUILDERS = frozenset(
    "zeros ones full empty zeros_like ones_like full_like empty_like arange array asarray eye "
    "identity linspace logspace geomspace concatenate stack hstack vstack tile repeat".split()
)

Qualname = Callable[[cst.CSTNode], Optional[str]]


def _self_name(unit: Unit) -> Optional[str]:
    pos = unit.positional()
    return pos[0].name if pos else None


def _is_self_attr(node: cst.CSTNode, self_name: str, attr: str) -> bool:
    return (
        isinstance(node, cst.Attribute)
        and isinstance(node.value, cst.Name)
        and node.value.value == self_name
        and node.attr.value == attr
    )


def _builds_jax_array(value: cst.BaseExpression, qualname: Qualname, self_name: str, attr: str) -> bool:
    if not isinstance(value, cst.Call):
        return False
    q = qualname(value.func) or ""
    if q.startswith("jax.numpy.") and q[len("jax.numpy."):] in _ARRAY_BUILDERS:
        return True
    if kinds.call_kind(q) == V.ARRAY:
        return True  # `jax.random.normal(k, (d,))`, `jnp.linalg.inv(a)`, `lax.stop_gradient(x)`...
    # self.buf.at[i].set(v): the functional update of the same attribute
    f = value.func
    return (
        isinstance(f, cst.Attribute)
        and isinstance(f.value, cst.Subscript)
        and isinstance(f.value.value, cst.Attribute)
        and f.value.value.attr.value == "at"
        and _is_self_attr(f.value.value.value, self_name, attr)
    )


def attribute_holds_jax_array(cls: ClassInfo, attr: str, qualname: Qualname) -> bool:
    """Does every binding of ``self.<attr>`` in the class's methods build a JAX array,
    with one of them in ``__init__``?  A class-level ``attr = ...`` or any other write
    (a tuple target, a loop, ``setattr``) makes it unknown."""
    in_init = False
    for stmt in cls.node.body.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, (cst.Assign, cst.AnnAssign)):
                    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
                    if any(isinstance(t, cst.Name) and t.value == attr for t in targets):
                        return False
    for name, method in cls.methods.items():
        self_name = _self_name(method)
        if self_name is None:
            continue
        for n in descendants(method.node):
            if isinstance(n, cst.Assign):
                for t in n.targets:
                    tgt = t.target
                    if _is_self_attr(tgt, self_name, attr):
                        if not _builds_jax_array(n.value, qualname, self_name, attr):
                            return False
                        in_init = in_init or name == "__init__"
                    elif any(_is_self_attr(m, self_name, attr) for m in descendants(tgt)) and not isinstance(tgt, cst.Subscript):
                        return False  # (self.buf, x) = ...
            elif isinstance(n, (cst.AnnAssign, cst.For, cst.WithItem)):
                tgt = n.target if not isinstance(n, cst.WithItem) else (n.asname.name if n.asname else None)
                if tgt is not None and (_is_self_attr(tgt, self_name, attr) or any(_is_self_attr(m, self_name, attr) for m in descendants(tgt))):
                    if not (isinstance(n, cst.AnnAssign) and n.value is not None and _builds_jax_array(n.value, qualname, self_name, attr)):
                        return False
                    in_init = in_init or name == "__init__"
            elif isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == "setattr":
                return False
    return in_init
