"""Dispatch through a table of functions: ``_FUNCS[name](x)``, ``_FUNCS.get(name)(x)``
(``_FUNCS[like, fn](*args)`` in autoray), with ``_FUNCS`` a dict literal of functions
bound once (and ``_FUNCS[key] = fn`` written at module level, a registration).  The key
names the function that runs with the call's arguments: in traced code the entry a
literal key names runs traced (``model/calls.py``); with a key known only at run time,
which entry runs is unknown (a table of one entry aside).  A table that
holds anything but names of functions (a lambda aside), or whose name is bound more than
once, is no table: unknown, and unknown reaches nothing."""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst

from jaxlint.model.walk import string_value


def table_functions(unit: Any, func: cst.BaseExpression) -> Optional[list[cst.BaseExpression]]:
    """The functions (as written: ``normal``, ``ops.normal``) the table ``func`` picks
    from (``_FUNCS[k]``, ``_FUNCS.get(k)``; the one entry a literal key names, when it
    names one), or None when ``func`` is no such lookup."""
    entries = table_entries(unit, func)
    if entries is None:
        return None
    key = literal_key(func)
    named = _key_strings(key) if key is not None else None
    if named is not None:
        picked = [value for keys, value in entries if keys == named]
        if picked:
            return picked  # `ACTIVATIONS["relu"](x)`: that function
    if len(entries) == 1:
        return [entries[0][1]]
    # a key known only at run time (`_IMPL[backend](x)`, `backend` a static argument that
    # picks the JAX entry): which entry runs traced is unknown, and unknown reaches nothing
    return None


def literal_key(func: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    """The key expression of a table look-up (``T[k]``, ``T.get(k)``), else None."""
    if type(func) is cst.Subscript:
        if len(func.slice) == 1 and type(func.slice[0].slice) is cst.Index:
            return func.slice[0].slice.value
        return None
    if type(func) is cst.Call and len(func.args) == 1 and func.args[0].keyword is None and not func.args[0].star:
        return func.args[0].value
    return None


def table_entries(unit: Any, func: cst.BaseExpression) -> Optional[list[tuple[Optional[frozenset], cst.BaseExpression]]]:
    """``table_functions`` with the strings of each entry's key (``"relu"``,
    ``("jax", "random.normal")``; None for a key of another sort)."""
    if type(func) is cst.Subscript:
        table = func.value
    elif (type(func) is cst.Call and type(func.func) is cst.Attribute and func.func.attr.value == "get"
          and len(func.args) == 1 and func.args[0].keyword is None and not func.args[0].star):
        table = func.func.value
    else:
        return None
    if type(table) is not cst.Name:
        return None
    found = unit.binding_for(table.value, 1 << 30)
    if found is None:
        return None
    holder, (_, value) = found
    if type(value) is not cst.Dict or len(holder.bindings.get(table.value, ())) != 1:
        return None
    out: list[tuple[Optional[frozenset], cst.BaseExpression]] = []
    for el in value.elements:
        if type(el) is not cst.DictElement:
            return None  # `**other`: what else it holds is unknown
        out.append((_key_strings(el.key), el.value))
    if holder.is_module:
        # registrations at module level: `_FUNCS["normal"] = jax_random_normal`
        for stmt in holder.node.body:
            if type(stmt) is not cst.SimpleStatementLine:
                continue
            for small in stmt.body:
                if type(small) is cst.Assign and len(small.targets) == 1:
                    t = small.targets[0].target
                    if type(t) is cst.Subscript and type(t.value) is cst.Name and t.value.value == table.value:
                        key = t.slice[0].slice.value if len(t.slice) == 1 and type(t.slice[0].slice) is cst.Index \
                            else None
                        out.append((_key_strings(key) if key is not None else None, small.value))
    if not out or not all(type(v) in (cst.Name, cst.Attribute) for _, v in out):
        return None
    if any(type(v) is cst.Name and v.value in ("None", "True", "False") for _, v in out):
        return None
    return out


def _key_strings(key: cst.BaseExpression) -> Optional[frozenset]:
    """The strings of a table key: ``"relu"``, ``("jax", "random.normal")``; None else."""
    if type(key) is cst.Tuple:
        parts = [string_value(el.value) for el in key.elements]
        return frozenset(parts) if parts and all(p is not None for p in parts) else None  # type: ignore[arg-type]
    s = string_value(key)
    return frozenset({s}) if s is not None else None
