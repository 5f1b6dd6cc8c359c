"""The rule registry: every rule class jaxlint ships, in code order.

To add a rule, write a module in this package holding one ``Rule`` subclass
(see ``base.py``) and list it in ``_RULE_MODULES`` below.
"""

from __future__ import annotations

import importlib
from functools import lru_cache

from jaxlint.rules.base import Rule

_RULE_MODULES = (
    "syntax_error",
    "inplace_update",
    "float64",
    "traced_control_flow",
    "tracer_conversion",
    "iterators",
    "key_reuse",
)


@lru_cache(maxsize=None)
def all_rules() -> tuple[type[Rule], ...]:
    found: list[type[Rule]] = []
    for mod_name in _RULE_MODULES:
        mod = importlib.import_module(f"jaxlint.rules.{mod_name}")
        for obj in vars(mod).values():
            if (
                isinstance(obj, type)
                and issubclass(obj, Rule)
                and obj is not Rule
                and obj.__module__ == mod.__name__
            ):
                found.append(obj)
    found.sort(key=lambda r: r.code)
    return tuple(found)


def rules_by_code() -> dict[str, type[Rule]]:
    return {r.code: r for r in all_rules()}


def get_rule(code_or_name: str) -> type[Rule] | None:
    key = code_or_name.strip()
    for r in all_rules():
        if r.code == key.upper() or r.name == key.lower():
            return r
    return None


def default_codes() -> frozenset[str]:
    return frozenset(r.code for r in all_rules() if r.default_enabled)


def expand_selector(selector: str) -> set[str] | None:
    """Codes matched by a selector: a full code, a prefix (``JAX1``), a rule
    name, or ``ALL``. Returns None when nothing matches (an unknown code)."""
    sel = selector.strip()
    if sel.upper() == "ALL":
        return {r.code for r in all_rules()}
    rule = get_rule(sel)
    if rule is not None:
        return {rule.code}
    prefix = sel.upper()
    if prefix.startswith("JAX"):
        matched = {r.code for r in all_rules() if r.code.startswith(prefix)}
        return matched or None
    return None
