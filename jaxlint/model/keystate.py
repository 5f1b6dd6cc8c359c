"""Functions that keep a module-global JAX key as random state: ``next_key()`` declares
``global _KEY`` and advances it (``_KEY, sub = jax.random.split(_KEY)``), like autoray's
``jax_random_get_key``; so does a function of the module that calls one (by name, or
through a table of functions: ``model/dispatch.py``), and a function another module
of the project reports as one (facts ``key_state``).

Eagerly each call draws new numbers.  Called from traced code it runs once, at trace
time: the compiled function repeats the numbers of that trace on every call (and the
key stored back is a tracer).  JAX406 reports such a call where a transformation
traces the caller (``rules/impurity/stateful_rng_in_traced_code.py``).
"""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst

from jaxlint.model import dispatch
from jaxlint.model.walk import dotted_name, walk_tree

# jax.random functions that derive a new key from the one they are given
_ADVANCE = frozenset({"jax.random.split", "jax.random.fold_in", "jax.random.clone"})


def _advanced_global(interp: Any, unit: Any) -> Optional[str]:
    """The global name ``unit`` rebinds to a key derived from it (``global _KEY``,
    ``_KEY, sub = jax.random.split(_KEY)``, ``_KEY = jax.random.fold_in(_KEY, 1)``)."""
    names = unit.global_names & unit.assigned
    if not names or not isinstance(unit.node, cst.FunctionDef):
        return None
    for n in walk_tree(unit.node.body, lambda x: type(x) in (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
        if type(n) is not cst.Assign:
            continue
        value = n.value.value if type(n.value) is cst.Subscript else n.value
        if type(value) is not cst.Call:
            continue
        written = dotted_name(value.func)
        if written is None or interp.imports.resolve_dotted(written) not in _ADVANCE:
            continue
        args = {a.value.value for a in value.args if type(a.value) is cst.Name}
        for t in n.targets:
            targets = [el.value for el in t.target.elements] if type(t.target) in (cst.Tuple, cst.List) \
                else [t.target]
            for target in targets:
                if type(target) is cst.Name and target.value in names and target.value in args:
                    return target.value
    return None


def stateful_functions(interp: Any) -> dict[str, str]:
    """Module-level functions of this file (by name) that advance a module-global key,
    themselves or through what they call, each with that key's name (as the module
    that holds it writes it)."""
    memo = interp.scratch_memo.get(("keystate",))
    if memo is not None:
        return memo
    index = interp.index
    defs = index.module_unit.defs
    out: dict[str, str] = {}
    for name, unit in defs.items():
        g = _advanced_global(interp, unit)
        if g is not None:
            out[name] = g
    imported = index.imported_key_state
    if out or imported:
        by_id = {id(u): name for name, u in defs.items()}
        changed = True
        while changed:
            changed = False
            for name, unit in defs.items():
                if name in out or not isinstance(unit.node, cst.FunctionDef):
                    continue
                for callee in index.call_edges.get(id(unit), ()):
                    if by_id.get(callee) in out:
                        out[name] = out[by_id[callee]]
                        changed = True
                        break
                else:
                    if imported:
                        for n in walk_tree(unit.node.body):
                            if type(n) is cst.Call:
                                g = called_state(interp, n, unit)
                                if g is not None:
                                    out[name] = g
                                    changed = True
                                    break
    interp.scratch_memo[("keystate",)] = out
    return out


def called_state(interp: Any, call: cst.Call, unit: Any = None) -> Optional[str]:
    """The global key a call (written in ``unit``, default the unit being walked)
    advances: a call of an imported function reported as one, by name or through the
    imported module (``ar.do(...)``)."""
    written = dotted_name(call.func)
    if written is None:
        return None
    found = interp.index.imported_key_state.get(written)
    if found is None:
        return None
    head = written.split(".", 1)[0]
    unit = unit if unit is not None else interp.unit
    if unit.param(head) is not None or head in unit.assigned:
        return None  # a local of that name
    return found


def call_state(interp: Any, call: cst.Call) -> Optional[tuple[str, str]]:
    """(the function as written, the global key) when ``call`` runs a function that
    advances a module-global key: of this file (by name, or through a table of
    functions of this file), or of another module of the project."""
    func = call.func
    local = stateful_functions(interp)
    if type(func) is cst.Name and func.value in local:
        v = interp.lookup(func.value)
        target = v.unit if v is not None else interp.unit.lookup_def(func.value)
        if target is not None and target is interp.index.module_unit.defs.get(func.value):
            return func.value, local[func.value]
        return None
    if type(func) in (cst.Subscript, cst.Call):
        for value in dispatch.table_functions(interp.unit, func) or ():
            if type(value) is cst.Name and value.value in local:
                return interp.code(func).strip(), local[value.value]
        return None
    g = called_state(interp, call)
    return (dotted_name(func) or "", g) if g is not None else None
