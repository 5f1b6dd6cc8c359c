"""Array namespaces chosen at run time: a helper that returns ``jax.numpy`` on some paths
and NumPy on the others (scipy's ``array_namespace(*arrays)``, a backend switch ``def
xp(): return jnp if _BACKEND == "jax" else numpy``).  Its result is the *dual*
namespace; an array its constructors build (``xp.zeros(n)``, ``xp.asarray(a)``) is a
JAX array on the calls where the namespace is ``jax.numpy`` and a host NumPy array on
the others: ``Value.jax_on_some_path`` (an in-place write raises on the first).  Only
the two namespaces, only returns that are all one of them, both present: anything else
is unknown."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.model import values as V
from jaxlint.model.scopes import writes
from jaxlint.model.values import Value
from jaxlint.model.walk import walk_tree

# the qualname of the namespace a helper returns: jax.numpy on some paths, NumPy on others
DUAL = "numpy|jax.numpy"
_SPACES = frozenset({"numpy", "jax.numpy"})
# what the namespace builds one new array with (the same name in both): a host array
# under NumPy, a JAX array under jax.numpy
_BUILDERS = frozenset({
    "zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like",
    "array", "asarray", "arange", "eye", "identity", "linspace", "copy", "diag", "outer",
    "tile", "repeat", "stack", "concatenate", "where", "reshape",
})

DUAL_VALUE = Value(kind=V.FUNCTION, qualname=DUAL)
# an array one of the namespace's builders made (``qualname`` keeps where it came from,
# for the message)
BUILT = Value(jax_on_some_path=True, qualname=DUAL)


def dual_return(found: list[Value]) -> Optional[Value]:
    """The dual namespace when every return of a helper is ``jax.numpy`` or NumPy (the
    module, or the dual namespace itself), both present; None otherwise."""
    names: set[str] = set()
    for v in found:
        if v.kind != V.FUNCTION or v.transform is not None or v.unit is not None:
            return None
        if v.qualname == DUAL:
            names |= _SPACES
        elif v.qualname in _SPACES:
            names.add(v.qualname)
        else:
            return None
    return DUAL_VALUE if names == _SPACES else None


def built(base: Value, attr: str) -> Optional[Value]:
    """``xp.zeros(...)`` of the dual namespace ``xp``: an array that is a JAX array on some
    calls and a NumPy one on the others; None for anything else."""
    if base.kind == V.FUNCTION and base.qualname == DUAL and base.transform is None and attr in _BUILDERS:
        return BUILT
    return None


def mixed_binop(l: Value, r: Value) -> Optional[Value]:
    """``out + np.diag(...)``, ``0.01 * xp.outer(...)``: arithmetic of such an array with
    another one, or with a Python number (untraced): the same mix."""
    if l.traced or r.traced or not (l.jax_on_some_path or r.jax_on_some_path):
        return None
    if all(v.jax_on_some_path or v.kind in (V.NPARRAY, V.STATIC) for v in (l, r)):
        return BUILT
    return None


def imported_only(scope: cst.CSTNode, stmt: cst.CSTNode) -> frozenset[str]:
    """The names an import inside ``stmt`` (an ``if``, a ``try``) binds that nothing else
    in ``scope`` binds: ``import jax.numpy as jnp`` then ``return jnp`` names the module."""
    names: set[str] = set()
    aliases: set[int] = set()
    for n in walk_tree(stmt):
        if type(n) in (cst.Import, cst.ImportFrom) and not isinstance(n.names, cst.ImportStar):
            for a in n.names:
                if a.asname is not None and type(a.asname.name) is cst.Name:
                    names.add(a.asname.name.value)
                    aliases.add(id(a.asname))
                elif a.asname is None and type(n) is cst.Import:
                    head = a.name
                    while type(head) is cst.Attribute:
                        head = head.value
                    if type(head) is cst.Name:
                        names.add(head.value)  # `import jax`: binds `jax`
    if not names:
        return frozenset()
    return frozenset(n for n in names if all(id(w) in aliases for w in writes(scope, n)))
