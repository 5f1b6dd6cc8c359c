"""The rule API: a rule is a small class with its documentation and examples.

A rule declares hook methods named after libcst node classes, ``visit_If``,
``visit_Call``, ``visit_Assign``..., which the model's interpreter calls in
source order, once per node, in one traversal (the engine dispatches only to
enabled rules).  Inside a hook the rule asks the JAX model, through its context
``self.ctx`` (``jaxlint.engine.context.RuleContext``), what it needs: qualified
names, whether a value is a tracer, whether the current code is traced, which
values are PRNG keys.  Rules never re-derive that knowledge.

One check, several codes: a ``Check`` holds the hooks; a ``Rule`` is a check
with one code and its documentation.  Rules that share one matcher (the
deprecation rules) each name that shared check in ``Rule.check``; the engine
runs the check once per file for all of its enabled codes, and the check passes
``code=`` to ``report`` (as Ruff's ``print_call`` emits T201 and T203).

Each rule carries its own documentation sections (rendered to
``docs/rules/CODE.md`` and by ``jaxlint rule CODE``) and its own examples:
``VALID`` snippets must produce no finding of this rule, ``INVALID`` snippets
must produce exactly the findings listed (line and column), and an invalid
example with ``fixed`` must be rewritten to exactly that text by the rule's fix.
The test-suite runs every example of every rule.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Optional, Sequence, Union

import libcst as cst

from jaxlint.engine.types import Replacement, Report, RuleFix
from jaxlint.findings import Applicability, Severity
from jaxlint.model.walk import bound_names  # noqa: F401  (part of the rules' API)

if TYPE_CHECKING:  # pragma: no cover
    from jaxlint.engine.context import RuleContext


def example_text(text: str) -> str:
    """An example as written in a rule, triple-quoted and indented with the
    code around it, made into the file it stands for: the first newline after
    the opening quotes dropped, the common indentation removed."""
    if text.startswith("\n"):
        text = text[1:]
    return textwrap.dedent(text)


@dataclass(frozen=True)
class Valid:
    """Code that must produce no finding of the rule."""

    code: str
    x64: bool = False  # lint as if [tool.jaxlint] x64 = true
    options: tuple[tuple[str, object], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", example_text(self.code))


@dataclass(frozen=True)
class Invalid:
    """Code that must produce exactly ``expected`` findings: (line, column), 1-based.

    ``messages``, when given, pins the full message of each expected finding, in
    the same order; ``fixed`` is the whole file after the rule's fixes."""

    code: str
    expected: Sequence[tuple[int, int]]
    fixed: Optional[str] = None  # expected source after applying the rule's fixes
    unsafe: bool = False  # ``fixed`` needs --unsafe-fixes
    message_contains: Optional[str] = None
    x64: bool = False
    options: tuple[tuple[str, object], ...] = ()
    messages: Optional[Sequence[str]] = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", example_text(self.code))
        if self.fixed is not None:
            object.__setattr__(self, "fixed", example_text(self.fixed))


class HookError(TypeError):
    """A check declares a ``visit_*`` / ``leave_*`` method that names no libcst node class."""


def _node_classes() -> dict[str, type]:
    """libcst's concrete node classes by name (what a hook may be named after)."""
    import inspect

    return {name: obj for name, obj in vars(cst).items()
            if isinstance(obj, type) and issubclass(obj, cst.CSTNode) and not inspect.isabstract(obj)}


_NODES: dict[str, type] = {}


def hook_methods(check_cls: type) -> tuple[tuple[str, type, bool], ...]:
    """(method name, libcst class, is_visit) for every hook ``check_cls`` declares
    (its own or inherited).  Raises ``HookError`` naming the check and the method
    for a ``visit_*`` / ``leave_*`` that names no concrete libcst node class: the
    engine would never call it (a misspelling, an abstract base such as
    ``BaseExpression``, or libcst's ``visit_Node_attribute`` form)."""
    import difflib

    if not _NODES:
        _NODES.update(_node_classes())
    out = []
    for attr in sorted(dir(check_cls)):
        kind, _, node = attr.partition("_")
        if kind not in ("visit", "leave") or not node:
            continue
        cls = _NODES.get(node)
        if cls is None:
            who = getattr(check_cls, "code", None)
            who = f"{who} ({check_cls.__module__}.{check_cls.__qualname__})" if isinstance(who, str) \
                else f"{check_cls.__module__}.{check_cls.__qualname__}"
            close = difflib.get_close_matches(node, _NODES, n=1)
            hint = f"; did you mean `{kind}_{close[0]}`?" if close else ""
            raise HookError(f"{who}: `{attr}` names no libcst node class, so it would never be called{hint}")
        out.append((attr, cls, kind == "visit"))
    return tuple(out)


class Check:
    """Hook methods over the walk of one file, reporting findings.

    The engine makes one instance per file, sets ``codes`` to the enabled codes
    it may report, and calls ``finish`` once the whole file has been walked.
    The hooks are checked when the class is defined (``hook_methods``): a
    misspelled ``visit_Nmae`` is an error that names the rule, never a hook
    that silently does not run."""

    codes: frozenset[str] = frozenset()
    # (method name, libcst class, is_visit) of every hook, set when the class is defined
    hooks: ClassVar[tuple[tuple[str, type, bool], ...]] = ()

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.hooks = hook_methods(cls)

    def __init__(self, ctx: "RuleContext") -> None:
        self.ctx = ctx

    def report(
        self,
        node: cst.CSTNode,
        message: str,
        fix: Optional[RuleFix] = None,
        end_node: Optional[cst.CSTNode] = None,
        related: Optional[cst.CSTNode] = None,
        *,
        code: Optional[str] = None,
        noqa_also: Optional[cst.CSTNode] = None,
    ) -> Optional[Report]:
        """Report a finding at ``node`` (to ``end_node`` when given); ``code`` is
        needed only by a check shared between several rules; a `# noqa` on the first
        line of ``noqa_also`` suppresses it too (where it was reported before a move).  The report is
        returned (None when its code is not enabled): a check that decides late
        may withdraw its ``fix`` in ``finish``."""
        code = code or getattr(self, "code")
        if code not in self.codes:
            return None
        caught = getattr(self, "caught_by", None)
        if caught and self.ctx.handles(caught):
            return None  # inside `try:` with a handler for the error this finding predicts
        if getattr(self, "caught_alone", False) and self.ctx.handles_alone():
            return None  # the one statement of a `try:` that catches anything: shown to fail
        report = Report(code, node, message, fix, end_node=end_node, related=related, noqa_also=noqa_also)
        self.ctx._add_report(report)
        return report

    def finish(self) -> None:
        """Called once the whole file has been walked (for checks that decide late)."""

    def module_alias(self, module: str) -> Optional[str]:
        """The local name this file binds to ``module`` (``import jax as j`` ->
        ``"j"``), or None: then write ``module`` and pass
        ``needs_import=(module, None)`` to ``fix``, unless ``self.ctx.shadowed(module)``
        (a parameter or local of that name hides the module here: offer no fix).
        A name that is shadowed in the current scope is never returned."""
        names = self.ctx.imports.names
        if names.get(module.split(".")[0]) == module.split(".")[0] and "." not in module:
            if not self.ctx.shadowed(module):
                return module
        for local, qualified in sorted(names.items()):
            if qualified == module and not self.ctx.shadowed(local):
                return local
        return None


class Rule(Check):
    """One code: its documentation, its examples and (by default) its own hooks."""

    code: ClassVar[str]
    name: ClassVar[str]  # kebab-case, e.g. "inplace-array-update"
    summary: ClassVar[str]  # one line, shown by `jaxlint rules`
    severity: ClassVar[Severity] = Severity.ERROR
    default_enabled: ClassVar[bool] = True
    fix_availability: ClassVar[str] = "none"  # "none" | "sometimes" | "always"
    seed: ClassVar[str] = ""  # the seed section this rule comes from
    # the shared check that reports this rule's code; None: the rule is its own check
    check: ClassVar[Optional[type[Check]]] = None
    # what `jaxlint confirm` runs to show the problem with real JAX (docs/runtime.md),
    # or "None: " and why there is no runtime check; the runtime companion's table
    # (jaxlint/runtime/rules.py) holds the check functions and is tested against it
    runtime_check: ClassVar[str] = ""
    # findings name where the trace comes from when it is set in another file
    # (False for rules whose findings do not depend on tracing, e.g. deprecations)
    about_tracing: ClassVar[bool] = True
    # a rule that only `jaxlint observe` reports (what a run shows and no static rule
    # sees): how the run shows it.  Such a rule has no hooks and no examples.
    runtime_only: ClassVar[str] = ""

    # documentation sections (Markdown)
    # the qualified exception names whose handler makes the reported code safe: the
    # error the finding predicts and its bases (model/apis.py); a finding inside
    # `try:` with such a handler (not one that only re-raises) is not reported
    caught_by: ClassVar[frozenset[str]] = frozenset()
    # the error is certain wherever the code runs (not only under a trace): a `try:`
    # around just that statement with a catch-all handler shows it failing (a lesson)
    caught_alone: ClassVar[bool] = False
    what_it_does: ClassVar[str] = ""
    why_bad: ClassVar[str] = ""
    use_instead: ClassVar[str] = ""
    fix_safety: ClassVar[str] = ""
    options_doc: ClassVar[str] = ""

    VALID: ClassVar[list[Valid]] = []
    INVALID: ClassVar[list[Invalid]] = []

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "INVALID" in cls.__dict__ and "fix_availability" not in cls.__dict__:
            cls.fix_availability = fix_availability_of(cls.INVALID)

    @classmethod
    def check_class(cls) -> type[Check]:
        return cls.check or cls


def fix_availability_of(invalid: Sequence[Invalid]) -> str:
    """"always" when every INVALID example is fixed, "sometimes" when some are,
    "none" when none is: the examples are the evidence."""
    fixed = [ex.fixed is not None for ex in invalid]
    if fixed and all(fixed):
        return "always"
    return "sometimes" if any(fixed) else "none"


def assignment_targets(node: cst.CSTNode) -> list[cst.BaseExpression]:
    """The targets of an assignment statement: each target of ``a = b = v``, the
    target of ``x += v`` and of ``x: T = v``; [] for any other node.  A rule that
    treats the three alike writes one hook and aliases the others
    (``visit_AugAssign = visit_AnnAssign = visit_Assign``)."""
    if isinstance(node, cst.Assign):
        return [t.target for t in node.targets]
    if isinstance(node, (cst.AugAssign, cst.AnnAssign)):
        return [node.target]
    return []


def fix(
    applicability: Applicability,
    message: str,
    *replacements: Replacement,
    needs_import: Union[None, tuple[str, Optional[str]], Sequence[tuple[str, Optional[str]]]] = (),
) -> RuleFix:
    needs_import = needs_import or ()
    if needs_import and isinstance(needs_import[0], str):
        needs_import = (needs_import,)  # type: ignore[assignment]
    return RuleFix(applicability, message, tuple(replacements),
                   tuple(tuple(n) for n in needs_import))  # type: ignore[misc]
