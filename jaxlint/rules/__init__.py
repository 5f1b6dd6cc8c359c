"""The rule registry: every rule class jaxlint ships, in code order.

To add a rule, write a module in this package holding ``Rule`` subclasses
(see ``base.py``); every module here is loaded.  A test checks that codes and
names are unique.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from jaxlint.rules.base import Rule

def _rule_modules() -> list[str]:
    """Every module of this package except the API (``base``)."""
    names = [m.name for m in pkgutil.iter_modules(__path__) if m.name != "base"]
    return sorted(names)



@lru_cache(maxsize=None)
def all_rules() -> tuple[type[Rule], ...]:
    found: list[type[Rule]] = []
    for mod_name in _rule_modules():
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
