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
from jaxlint.model.walk import dotted_name, string_value, walk_tree

# jax.random functions that derive a new key from the one they are given
_ADVANCE = frozenset({"jax.random.split", "jax.random.fold_in", "jax.random.clone"})


def _advanced_global(interp: Any, unit: Any) -> Optional[str]:
    """The global name ``unit`` rebinds to a key derived from it (``global _KEY``,
    ``_KEY, sub = jax.random.split(_KEY)``, ``_KEY = jax.random.fold_in(_KEY, 1)``) in a
    statement of its body that runs on every call (not under an `if`: a fallback for
    callers that pass no key)."""
    names = unit.global_names & unit.assigned
    if not names or not isinstance(unit.node, cst.FunctionDef):
        return None
    # a write in the body itself, run on every call: not under `if key is None:`, nor after
    # an early `return` (`if key is not None: return key`)
    smalls = []
    for stmt in unit.node.body.body:
        if type(stmt) is cst.SimpleStatementLine:
            smalls.extend(stmt.body)
        elif any(type(x) is cst.Return for x in walk_tree(stmt)):
            break
    for n in smalls:
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


# a function that advances a global key: (the key's name, the table keys (each a set of
# strings) that pick the advancing function when only a table of functions picks it; None: always)
State = tuple[str, Optional[frozenset]]


def _state(found: Any) -> Optional[State]:
    """A fact's entry (``"_KEY"``, or ``["_KEY", ["random.normal", ...]]``) as a State."""
    if isinstance(found, str):
        return found, None
    if isinstance(found, list) and len(found) == 2 and isinstance(found[0], str) and isinstance(found[1], list):
        return found[0], frozenset(frozenset(k for k in keys if isinstance(k, str))
                                   for keys in found[1] if isinstance(keys, list))
    return None


def export(states: dict[str, State]) -> dict[str, Any]:
    """The ``key_state`` facts of this file's functions."""
    return {name: g if when is None else [g, sorted(sorted(keys) for keys in when)]
            for name, (g, when) in sorted(states.items())}


def stateful_functions(interp: Any) -> dict[str, State]:
    """Module-level functions of this file (by name) that advance a module-global key,
    themselves or through what they call (by name, through a table of functions, an
    imported one), each with that key's name and, when only some keys of a table pick
    the advancing function, those keys (``_CUSTOM[("jax", "random.normal")]``: a call
    of ``do`` advances the key only when it names one of them)."""
    memo = interp.scratch_memo.get(("keystate",))
    if memo is not None:
        return memo
    index = interp.index
    defs = index.module_unit.defs
    out: dict[str, State] = {}
    for name, unit in defs.items():
        g = _advanced_global(interp, unit)
        if g is not None:
            out[name] = (g, None)
    if out or index.imported_key_state:
        changed = True
        while changed:
            changed = False
            for name, unit in defs.items():
                if name in out or not isinstance(unit.node, cst.FunctionDef):
                    continue
                for n in walk_tree(unit.node.body, lambda x: type(x) in (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                    if type(n) is not cst.Call:
                        continue
                    found = _callee_state(interp, n, unit, out)
                    if found is not None:
                        out[name] = found
                        changed = True
                        break
    interp.scratch_memo[("keystate",)] = out
    return out


def _callee_state(interp: Any, call: cst.Call, unit: Any, local: dict[str, State]) -> Optional[State]:
    """What a call written in ``unit`` runs, as a State: a function of this file by
    name, the functions of a table (the keys that pick the advancing ones), an
    imported one."""
    func = call.func
    if type(func) is cst.Name and func.value in local:
        if func.value in unit.assigned or unit.param(func.value) is not None:
            return None
        return local[func.value] if unit.lookup_def(func.value) is interp.index.module_unit.defs.get(func.value) \
            else None
    if type(func) in (cst.Subscript, cst.Call):
        picked: set = set()
        g = None
        for keys, value in dispatch.table_entries(unit, func) or ():
            if type(value) is cst.Name and value.value in local:
                g, when = local[value.value]
                if keys is None or when is not None:
                    return g, None  # a key that is no string: whichever call may pick it
                picked.add(keys)
        return (g, frozenset(picked)) if g is not None else None
    return _imported(interp, call, unit)


def _imported(interp: Any, call: cst.Call, unit: Any) -> Optional[State]:
    """An imported function reported as one, called by name or through its module."""
    written = dotted_name(call.func)
    if written is None:
        return None
    found = interp.index.imported_key_state.get(written)
    if found is None:
        return None
    head = written.split(".", 1)[0]
    if unit.param(head) is not None or head in unit.assigned:
        return None  # a local of that name
    return _state(found)


def _names_one(call: cst.Call, when: Optional[frozenset]) -> bool:
    """Does ``call`` pass (as string literals) every string of one of the table keys
    ``when`` (``do("random.normal", like="jax")`` for ``("jax", "random.normal")``)?"""
    if when is None:
        return True
    given = {string_value(a.value) for a in call.args if not a.star}
    return any(keys <= given for keys in when)


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
            g, when = local[func.value]
            return (func.value, g) if _names_one(call, when) else None
        return None
    if type(func) in (cst.Subscript, cst.Call):
        entries = dispatch.table_entries(interp.unit, func)
        if not entries:
            return None
        key = dispatch.literal_key(func)
        for keys, value in entries:
            if type(value) is cst.Name and value.value in local and keys is not None \
                    and keys == {string_value(key)} and _names_one(call, local[value.value][1]):
                return interp.code(func).strip(), local[value.value][0]
        return None
    found = _imported(interp, call, interp.unit)
    if found is None or not _names_one(call, found[1]):
        return None
    return dotted_name(func) or "", found[0]
