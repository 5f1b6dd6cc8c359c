"""Applying fixes to source text (pure functions; no file I/O).

Edits carry 1-based line/column positions as CPython and libcst count them
(lines end at ``\\n``, ``\\r\\n`` or ``\\r``; columns count characters),
converted to offsets by ``jaxlint.parse.lines``.  An edit that knows the code it was
made to replace (``Edit.original``) applies only where that code is: a fix with
an edit that finds other text at its positions is refused as misplaced.  Edits
of one fix apply together; fixes whose edits overlap an already accepted one
are left for the next pass (the earliest, outermost fix wins).  An edit
identical to one already accepted (the same span and content, e.g. the
``import jax`` two fixes both need) is shared: it is applied once and does not
count as an overlap.  Inserted text uses the file's own newline convention.
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence

from jaxlint.findings import Applicability, Edit, Finding
from jaxlint.parse.lines import LINE_BREAK, LineIndex, line_starts

_NL_RE = LINE_BREAK


def line_offsets(text: str) -> list[int]:
    """Offset of the start of each line (index 0 is line 1)."""
    return line_starts(text)


def newline_of(text: str) -> str:
    """The file's newline convention: its first line ending (``\\n`` if none)."""
    m = _NL_RE.search(text)
    return m.group(0) if m else "\n"


def fixable(f: Finding, unsafe: bool) -> bool:
    if f.fix is None:
        return False
    return f.fix.applicability == Applicability.SAFE or unsafe


def fix_order(f: Finding) -> tuple:
    """Earliest first; at the same start, the outermost (longest) first."""
    return (f.line, f.col, -f.end_line, -f.end_col, f.code)


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    (s1, e1), (s2, e2) = a, b
    if s1 < e2 and s2 < e1:
        return True
    # two edits at the same point (an insertion at the start of a replaced
    # span, or two insertions): their order would be ambiguous
    return s1 == s2


def plan_edits(
    text: str, fixes: Iterable[Sequence[Edit]], misplaced: Optional[list[int]] = None
) -> tuple[list[tuple[int, int, str]], list[int]]:
    """Choose non-overlapping groups of edits in the given order.

    Returns (the character spans to replace, the indexes of the chosen groups).
    A group with an edit whose positions do not hold its ``original`` code is
    never chosen; its index goes to ``misplaced`` when given.
    """
    index = LineIndex(text)
    nl = newline_of(text)
    accepted: dict[tuple[int, int], str] = {}
    chosen: list[int] = []
    for i, edits in enumerate(fixes):
        spans = []
        placed = True
        for e in edits:
            start = index.offset(e.line, e.col - 1)
            end = max(start, index.offset(e.end_line, e.end_col - 1))
            if e.original is not None and text[start:end] != e.original:
                placed = False
            content = e.content
            if nl != "\n":
                content = _NL_RE.sub(lambda _m: nl, content)
            spans.append((start, end, content))
        if not placed:
            if misplaced is not None:
                misplaced.append(i)
            continue
        ok = True
        for start, end, content in spans:
            if accepted.get((start, end)) == content:
                continue  # shared with an accepted fix
            if any(_overlaps((start, end), span) for span in accepted):
                ok = False
                break
        own = [(s, e) for s, e, _ in spans]
        if ok and len(set(own)) != len(own):
            ok = False  # a fix whose own edits collide: malformed
        if not ok:
            continue
        for start, end, content in spans:
            accepted[(start, end)] = content
        chosen.append(i)
    return [(s, e, c) for (s, e), c in accepted.items()], chosen


def splice(text: str, spans: Iterable[tuple[int, int, str]]) -> str:
    parts: list[str] = []
    pos = 0
    for start, end, content in sorted(spans, key=lambda t: (t[0], t[1])):
        parts.append(text[pos:start])
        parts.append(content)
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


def apply_edits(text: str, fixes: Iterable[Sequence[Edit]]) -> tuple[str, int]:
    """Apply non-overlapping groups of edits; return (new_text, groups applied)."""
    spans, chosen = plan_edits(text, fixes)
    return splice(text, spans), len(chosen)


def choose(findings: Iterable[Finding], unsafe: bool = False) -> list[Finding]:
    """The fixable findings in application order."""
    return sorted((f for f in findings if fixable(f, unsafe)), key=fix_order)


def apply_findings(text: str, findings: Iterable[Finding], unsafe: bool = False) -> tuple[str, int]:
    chosen = choose(findings, unsafe)
    return apply_edits(text, (f.fix.edits for f in chosen if f.fix is not None))


# ----------------------------------------------------------------------------- imports a fix needs


def _binds(module, mod: str, name: Optional[str]) -> bool:
    """Whether a top-level import of ``module`` (a libcst Module) binds it."""
    import libcst as cst

    from jaxlint.model.walk import dotted_name as _module_name

    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if name is None and isinstance(small, cst.Import):
                for alias in small.names:
                    full = _module_name(alias.name) or ""
                    asname = alias.asname.name.value if alias.asname and isinstance(
                        alias.asname.name, cst.Name) else None
                    if asname is None and (full == mod or full.startswith(mod + ".")):
                        return True
                    if asname == mod and full == mod:
                        return True
            elif name is not None and isinstance(small, cst.ImportFrom):
                if small.relative or small.module is None or isinstance(small.names, cst.ImportStar):
                    continue
                if _module_name(small.module) != mod:
                    continue
                for alias in small.names:
                    asname = alias.asname.name.value if alias.asname and isinstance(
                        alias.asname.name, cst.Name) else None
                    if isinstance(alias.name, cst.Name) and alias.name.value == name and asname in (None, name):
                        return True
    return False


def _import_line(module) -> tuple[int, bool]:
    """(line where new imports go, whether a newline must come first): after
    the docstring and ``from __future__`` imports, before the leading comments
    of the next statement."""
    import libcst as cst

    body = list(module.body)
    k = 0
    for i, stmt in enumerate(body):
        if not isinstance(stmt, cst.SimpleStatementLine):
            break
        first = stmt.body[0] if stmt.body else None
        if i == 0 and isinstance(first, cst.Expr) and isinstance(
                first.value, (cst.SimpleString, cst.ConcatenatedString)):
            k = i + 1
            continue
        if all(isinstance(s, cst.ImportFrom) and isinstance(s.module, cst.Name)
               and s.module.value == "__future__" for s in stmt.body):
            k = i + 1
            continue
        break
    # statement by statement: libcst prints a module whose last line ends in a lone
    # CR without it (it knows a final line break only as LF), which moved the import
    prefix = "".join(module.code_for_node(line) for line in module.header)
    prefix += "".join(module.code_for_node(stmt) for stmt in body[:k])
    if k and k == len(body) and not module.has_trailing_newline:
        prefix = prefix[:-2] if prefix.endswith("\r\n") else prefix[:-1]
    if not prefix:
        return 1, False
    ends_nl = prefix.endswith(("\n", "\r"))
    return len(line_offsets(prefix)) if ends_nl else len(line_offsets(prefix)) + 1, not ends_nl


def import_edits(module, needs: Iterable[tuple[str, Optional[str]]]) -> list:
    """Edits inserting the imports a fix needs (none for those already bound).

    Identical edits from several fixes are applied once (see ``fixes.py``)."""
    stmts = []
    for mod, name in needs:
        stmt = f"import {mod}" if name is None else f"from {mod} import {name}"
        if stmt not in stmts and not _binds(module, mod, name):
            stmts.append(stmt)
    if not stmts:
        return []
    line, lead = _import_line(module)
    content = "".join(("\n" + s) if lead else (s + "\n") for s in stmts)
    return [Edit(line, 1, line, 1, content)]
