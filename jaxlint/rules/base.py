"""The rule API: a rule is a small class with its documentation and examples.

A rule declares hook methods named after libcst node classes, ``visit_If``,
``visit_Call``, ``visit_Assign``..., which the analysis walker calls in source
order, once per node, for every rule in one traversal.  Inside a hook the rule
asks the JAX model (``self.ctx``) what it needs: qualified names, whether a
value is a tracer, whether the current code is traced, which values are PRNG
keys.  Rules never re-derive that knowledge.

Each rule carries its own documentation sections (rendered to
``docs/rules/CODE.md`` and by ``jaxlint rule CODE``) and its own examples:
``VALID`` snippets must produce no finding of this rule, ``INVALID`` snippets
must produce exactly the findings listed (line and column), and an invalid
example with ``fixed`` must be rewritten to exactly that text by the rule's fix.
The test-suite runs every example of every rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Optional, Sequence, Union

import libcst as cst

from jaxlint.findings import Applicability, Severity

if TYPE_CHECKING:  # pragma: no cover
    from jaxlint.model.analysis import FileContext


@dataclass(frozen=True)
class Valid:
    """Code that must produce no finding of the rule."""

    code: str
    x64: bool = False  # lint as if [tool.jaxlint] x64 = true
    options: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class Invalid:
    """Code that must produce exactly ``expected`` findings: (line, column), 1-based."""

    code: str
    expected: Sequence[tuple[int, int]]
    fixed: Optional[str] = None  # expected source after applying the rule's fixes
    unsafe: bool = False  # ``fixed`` needs --unsafe-fixes
    message_contains: Optional[str] = None
    x64: bool = False
    options: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class Replacement:
    """Replace ``node`` by ``new`` (a libcst node or source text) in the file."""

    node: cst.CSTNode
    new: Union[cst.CSTNode, str]


@dataclass(frozen=True)
class RuleFix:
    applicability: Applicability
    message: str
    replacements: tuple[Replacement, ...]
    # imports the new code needs, as (module, None) for ``import module`` or
    # (module, name) for ``from module import name``; each is added once, at
    # the top of the file, only where the module does not bind it already.
    # Use ``Rule.module_alias`` first to reuse an existing ``import jax as j``.
    needs_import: tuple[tuple[str, Optional[str]], ...] = ()


@dataclass
class Report:
    """A finding as a rule reports it, before positions are resolved."""

    rule: "Rule"
    node: cst.CSTNode
    message: str
    fix: Optional[RuleFix] = None
    function: Optional[str] = None
    end_node: Optional[cst.CSTNode] = None
    # another node whose line the message mentions as ``{related_line}``
    related: Optional[cst.CSTNode] = None


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]  # kebab-case, e.g. "inplace-array-update"
    summary: ClassVar[str]  # one line, shown by `jaxlint rules`
    severity: ClassVar[Severity] = Severity.ERROR
    default_enabled: ClassVar[bool] = True
    fix_availability: ClassVar[str] = "none"  # "none" | "sometimes" | "always"
    seed: ClassVar[str] = ""  # the seed section this rule comes from

    # documentation sections (Markdown)
    what_it_does: ClassVar[str] = ""
    why_bad: ClassVar[str] = ""
    example: ClassVar[str] = ""
    use_instead: ClassVar[str] = ""
    fix_safety: ClassVar[str] = ""
    options_doc: ClassVar[str] = ""

    VALID: ClassVar[list[Valid]] = []
    INVALID: ClassVar[list[Invalid]] = []

    def __init__(self, ctx: "FileContext") -> None:
        self.ctx = ctx

    def report(
        self,
        node: cst.CSTNode,
        message: str,
        fix: Optional[RuleFix] = None,
        end_node: Optional[cst.CSTNode] = None,
        related: Optional[cst.CSTNode] = None,
    ) -> None:
        self.ctx.add_report(
            Report(self, node, message, fix, end_node=end_node, related=related)
        )

    # called once the whole file has been walked (for rules that decide late)
    def finish(self) -> None:
        pass

    def module_alias(self, module: str) -> Optional[str]:
        """The local name this file binds to ``module`` (``import jax as j`` ->
        ``"j"``), or None: then write ``module`` and pass
        ``needs_import=(module, None)`` to ``fix``."""
        names = self.ctx.imports.names
        if names.get(module.split(".")[0]) == module.split(".")[0] and "." not in module:
            return module
        for local, qualified in sorted(names.items()):
            if qualified == module:
                return local
        return None


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


@dataclass
class RuleSet:
    """The rule classes enabled for one file, with their hook dispatch table."""

    rules: list[type[Rule]] = field(default_factory=list)
