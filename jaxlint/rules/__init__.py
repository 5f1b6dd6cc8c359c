"""The rule registry: every rule class jaxlint ships, in code order.

A rule lives in ``rules/<family>/<rule_name>.py`` (one rule per file, named after
the rule), a family's shared helpers in ``rules/<family>/_common.py``.  Every
module of this package whose name does not start with ``_`` is loaded.  The rule
API is ``jaxlint.engine.rule``.  A test checks that codes and names are unique.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from jaxlint.engine import suppression
from jaxlint.engine.rule import Rule


def _rule_modules() -> list[str]:
    """Every rule module of this package and its family packages."""
    names = [
        m.name
        for m in pkgutil.walk_packages(__path__, prefix=f"{__name__}.")
        if not m.ispkg and not m.name.rsplit(".", 1)[1].startswith("_")
    ]
    return sorted(names)


@lru_cache(maxsize=None)
def all_rules() -> tuple[type[Rule], ...]:
    found: list[type[Rule]] = []
    for mod_name in _rule_modules():
        mod = importlib.import_module(mod_name)
        for obj in vars(mod).values():
            if (
                isinstance(obj, type)
                and issubclass(obj, Rule)
                and obj is not Rule
                and obj.__module__ == mod.__name__
            ):
                found.append(obj)
    found.sort(key=lambda r: r.code)
    if not suppression.RULE_NAMES:
        suppression.RULE_NAMES.update((r.name, r.code) for r in found)
    return tuple(found)


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
