"""The engine: runs the enabled rules over the model of one file.

    linter (decode, parse) -> engine.analyze -> model (index, interpreter)
                                             -> rules' hooks -> reports -> findings

``analyze`` is handed the rule classes to run (the registry lives above, in
``jaxlint.rules``; the engine imports no rule).  Only enabled rules are
instantiated and get hooks in the dispatch tables, so a disabled rule costs
nothing.  A check shared by several rules (``Rule.check``) runs once for all of
its enabled codes.
"""

from __future__ import annotations

import sys
from typing import Callable, Optional, Sequence

import libcst as cst

from jaxlint.engine.context import NeedsSourceTree, RuleContext
from jaxlint.engine.project import outgoing_facts
from jaxlint.engine.reports import to_findings
from jaxlint.engine.rule import Check, Rule
from jaxlint.findings import Finding
from jaxlint.settings import LintSettings

__all__ = ["NeedsSourceTree", "analyze", "hook_tables"]

_RECURSION_LIMIT = 10000


def hook_tables(checks: Sequence[Check]) -> tuple[dict[type, list[Callable]], dict[type, list[Callable]]]:
    """node class -> the checks' bound ``visit_*`` / ``leave_*`` methods (their
    names were checked against libcst's node classes when each class was defined)."""
    visit: dict[type, list[Callable]] = {}
    leave: dict[type, list[Callable]] = {}
    for check in checks:
        for attr, cls, is_visit in type(check).hooks:
            (visit if is_visit else leave).setdefault(cls, []).append(getattr(check, attr))
    return visit, leave


def analyze(
    module: cst.Module,
    text: str,
    path: str,
    settings: LintSettings,
    rules: Sequence[type[Rule]],
    facts: Optional[dict] = None,
    project_out: Optional[dict] = None,
    built: bool = False,
) -> list[Finding]:
    """The findings of the enabled ``rules`` on one parsed file (unsorted).

    ``built``: ``module`` was built from CPython's tree (``jaxlint.parse.fastparse``),
    which knows no positions: at the first report ``NeedsSourceTree`` is raised
    (before any position or fix is made; the rest of the walk would be thrown
    away) and the caller analyses libcst's own tree of the file instead.

    ``facts``: what the project's other modules know of this file's functions
    (``jaxlint/project/facts.py``).  ``project_out``, when given, receives what
    this file tells the other modules: its calls from traced code to their
    functions, and the transformations it applies to them."""
    from jaxlint.model.factreads import FactReads
    from jaxlint.model.index import build_index
    from jaxlint.model.interpreter import Interpreter, schedule
    from jaxlint.model.observed import apply as apply_observed, observed_units
    from jaxlint.model.scopes import forget as forget_scopes

    groups: dict[type[Check], set[str]] = {}
    by_code: dict[str, type[Rule]] = {}
    for r in rules:
        if r.code in settings.select:
            check_cls = r.check_class()
            if check_cls.hooks or check_cls.finish is not Check.finish:
                groups.setdefault(check_cls, set()).add(r.code)
                by_code[r.code] = r
    if not groups and project_out is None:
        return []
    # which facts the analysis asks for: the driver lints the file again only when
    # one of those answers changes (model/factreads.py)
    reads = FactReads() if project_out is not None else None
    forget_scopes()  # the last file's memo (model/scopes.py)
    index = build_index(module, facts, reads)
    interp = Interpreter(index, text, path, settings)
    ctx = RuleContext(interp)
    ctx._built = built
    checks = []
    for check_cls, codes in groups.items():
        check = check_cls(ctx)
        check.codes = frozenset(codes)
        checks.append(check)
    interp.set_hooks(*hook_tables(checks))
    if sys.getrecursionlimit() < _RECURSION_LIMIT:
        sys.setrecursionlimit(_RECURSION_LIMIT)  # deep expressions recurse in the walks
    observed = observed_units(index.units, settings.observed) if settings.observed else None
    for unit in schedule(index):
        if observed and id(unit) in observed:
            apply_observed(unit, observed[id(unit)])  # only what the model left unknown
        interp.run_unit(unit)
    interp.unit = index.module_unit
    for check in checks:
        check.finish()
    if project_out is not None:
        project_out.update(outgoing_facts(interp, settings))
    if not ctx._reports:
        findings: list[Finding] = []
    elif built:
        raise NeedsSourceTree
    else:
        findings = to_findings(ctx, by_code)
    if project_out is not None:
        project_out["reads"] = reads.as_json()  # type: ignore[union-attr]  (all asked by now)
    return findings

