"""Reports to findings: suppressions, positions (only for reported nodes), fix edits."""

from __future__ import annotations

from typing import Mapping

import libcst as cst

from jaxlint.engine.context import RuleContext
from jaxlint.engine.rule import Rule
from jaxlint.findings import Edit, Finding, Fix
from jaxlint.engine.fixes import import_edits
from jaxlint.parse.lines import LineIndex
from jaxlint.parse.positions import node_spans
from jaxlint.engine.suppression import Suppressions


def to_findings(ctx: RuleContext, rules: Mapping[str, type[Rule]]) -> list[Finding]:
    """The findings of ``ctx``'s reports that no ``# noqa`` suppresses, one per
    (code, line, column), with their fixes as text edits."""
    reports = ctx._reports
    suppressions = Suppressions(ctx.text)
    nodes: list[cst.CSTNode] = []
    for r in reports:
        nodes.append(r.node)
        if r.end_node is not None:
            nodes.append(r.end_node)
        if r.related is not None:
            nodes.append(r.related)
        if r.noqa_also is not None:
            nodes.append(r.noqa_also)
        if r.fix is not None:
            nodes.extend(rep.node for rep in r.fix.replacements)
    # expressions whose code a fix may hold printed alone (their continuation lines without
    # the block's indentation): their text in place, to put back in the fix
    multiline = ctx._multiline if any(
        r.fix is not None and any(isinstance(rep.new, str) and "\n" in rep.new for rep in r.fix.replacements)
        for r in reports) else {}
    nodes.extend(multiline.values())
    spans = node_spans(ctx.module, nodes, ctx.text)
    index = LineIndex(ctx.text)
    ranges = {key: (index.position(s), index.position(e)) for key, (s, e, _) in spans.items()}
    findings: list[Finding] = []
    seen: set[tuple] = set()
    for r in reports:
        rng = ranges.get(id(r.node))
        if rng is None:
            continue
        (line, col), (end_line, end_col) = rng
        if r.end_node is not None and id(r.end_node) in ranges:
            end_line, end_col = ranges[id(r.end_node)][1]
        code = r.code
        if suppressions.is_suppressed(code, line):
            continue
        if r.noqa_also is not None and id(r.noqa_also) in ranges and \
                suppressions.is_suppressed(code, ranges[id(r.noqa_also)][0][0]):
            continue
        message = r.message
        if r.related is not None and "{related_line}" in message:
            rel = ranges.get(id(r.related))
            message = message.replace("{related_line}", str(rel[0][0]) if rel else "?")
        key = (code, line, col)
        if key in seen:
            continue
        seen.add(key)
        fix = None
        if r.fix is not None:
            edits = []
            ok = True
            for rep in r.fix.replacements:
                rr = ranges.get(id(rep.node))
                if rr is None:
                    ok = False
                    break
                content = rep.new if isinstance(rep.new, str) else ctx.module.code_for_node(rep.new)
                if "\n" in content:
                    for alone, expr in multiline.items():
                        if alone in content and id(expr) in spans:
                            content = content.replace(alone, spans[id(expr)][2])
                if not _keeps_comments(rep.node, spans[id(rep.node)][2], content):
                    ok = False  # a fix never loses code: the finding stays, without its fix
                    break
                (sl, sc), (el, ec) = rr
                edits.append(Edit(sl, sc + 1, el, ec + 1, content, original=spans[id(rep.node)][2]))
            if ok and r.fix.needs_import:
                edits.extend(import_edits(ctx.module, r.fix.needs_import))
            if ok:
                fix = Fix(r.fix.applicability, r.fix.message, tuple(edits))
        rule = rules[code]
        findings.append(
            Finding(
                code=code,
                name=rule.name,
                message=message,
                path=ctx.path,
                line=line,
                col=col + 1,
                end_line=end_line,
                end_col=end_col + 1,
                severity=rule.severity,
                fix=fix,
                function=r.function,
                related=r.origins if rule.about_tracing else (),
            )
        )
    return findings


def _keeps_comments(node: cst.CSTNode, original: str, content: str) -> bool:
    """Does the replacement text keep every comment written inside ``node``'s code
    (``original``; a node's trailing comma and the comment after it are not part of it)?
    A fix that rebuilds a call or a statement from its parts (`print(...)` to
    `jax.debug.print(...)`) would drop the comments between them; such a fix is withheld."""
    stack = [node]
    while stack:
        n = stack.pop()
        if type(n) is cst.Comment:
            if n.value in original and n.value not in content:  # type: ignore[attr-defined]
                return False
            continue
        stack.extend(n.children)
    return True
