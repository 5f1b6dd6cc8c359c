"""Dispatch through a table of functions: ``_FUNCS[name](x)``, ``_FUNCS.get(name)(x)``
(``_FUNCS[like, fn](*args)`` in autoray), with ``_FUNCS`` a dict literal of functions
bound once (and ``_FUNCS[key] = fn`` written at module level, a registration).  The key
is a runtime value, so whichever function it picks runs with the call's arguments: in
traced code each function of the table runs traced (``model/calls.py``).  A table that
holds anything but names of functions (a lambda aside), or whose name is bound more than
once, is no table: unknown, and unknown reaches nothing."""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst


def table_functions(unit: Any, func: cst.BaseExpression) -> Optional[list[cst.BaseExpression]]:
    """The functions (as written: ``normal``, ``ops.normal``) the table ``func`` picks
    from (``_FUNCS[k]``, ``_FUNCS.get(k)``), or None when ``func`` is no such lookup."""
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
    out: list[cst.BaseExpression] = []
    for el in value.elements:
        if type(el) is not cst.DictElement:
            return None  # `**other`: what else it holds is unknown
        out.append(el.value)
    if holder.is_module:
        # registrations at module level: `_FUNCS["normal"] = jax_random_normal`
        for stmt in holder.node.body:
            if type(stmt) is not cst.SimpleStatementLine:
                continue
            for small in stmt.body:
                if type(small) is cst.Assign and len(small.targets) == 1:
                    t = small.targets[0].target
                    if type(t) is cst.Subscript and type(t.value) is cst.Name and t.value.value == table.value:
                        out.append(small.value)
    if not out or not all(type(v) in (cst.Name, cst.Attribute) for v in out):
        return None
    if any(type(v) is cst.Name and v.value in ("None", "True", "False") for v in out):
        return None
    return out
