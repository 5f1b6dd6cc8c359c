"""Inline suppression comments.

``# noqa`` (every rule on that line), ``# noqa: JAX101, JAX201`` (those rules),
``# jaxlint: ignore[JAX101]`` / ``# jaxlint: ignore`` (the same, jaxlint's own
spelling, which also takes rule names: ``# jaxlint: ignore[inplace-array-update]``).  A comment on either the first or the last line of a finding's
range counts, so multi-line statements can carry it where formatters leave it.
File-level ``# jaxlint: skip-file`` is handled before parsing.

Codes are read in any case (``# noqa: jax101`` is JAX101, as flake8 reads them).
A jaxlint code that names no rule (``JAX9999``, a prefix ``JAX1``, ``JAX-101``)
suppresses nothing, and ``unknown_codes`` lists it for JAX002; a ``# noqa:``
whose first word is such a code is not a blanket ``# noqa``.  Other tools' codes
(``E501``) are left alone.
"""

from __future__ import annotations

import re
import tokenize
from typing import NamedTuple, Optional

from jaxlint.parse.lines import readline, split_lines
from jaxlint.parse.notebook import TIME_CELL_LINE

_CODE = r"[A-Z]+[0-9]+"
_NOQA_AT_RE = re.compile(r"#\s*noqa(?P<colon>:\s*)?", re.IGNORECASE)
# one item of a `# noqa:` list (after the colon, or a separator): a code, or a word
# meant as a jaxlint code that is not one (JAX-101, JAX_101, JAX alone)
_ITEM = (r"(?P<item>(?P<bad>JAX(?:[-_][0-9]+|(?=\s*(?:[,#-]|$)))(?![\w-]))"
         r"|[A-Z]+[0-9]+)")
_FIRST_RE = re.compile(_ITEM, re.IGNORECASE)
_ITEM_RE = re.compile(r"[\s,]+" + _ITEM, re.IGNORECASE)
_IGNORE_RE = re.compile(r"#\s*jaxlint:\s*ignore(?:\[(?P<codes>[^\]]*)\])?")
_ALL = "*"

# rule name -> code (`traced-control-flow` -> JAX201), filled by `jaxlint.rules.all_rules`:
# `# jaxlint: ignore[...]` takes a rule's name as well as its code, as `--select` does
RULE_NAMES: dict[str, str] = {}
_NAME_RE = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+")


class CodeSpelling(NamedTuple):
    """One code written in a directive: as written, and its 0-based columns."""

    text: str
    start: int
    end: int


class Directive(NamedTuple):
    """A ``# noqa: ...`` or ``# jaxlint: ignore[...]`` comment on one line."""

    kind: str  # "noqa" or "ignore"
    start: int  # the column of its '#'
    end: int  # where it ends (after the codes, or the ']')
    codes: tuple[CodeSpelling, ...]  # what it names; () for every rule
    misspelt: tuple[CodeSpelling, ...]  # jaxlint codes badly written (JAX-101): none suppresses


def directives(line: str) -> list[Directive]:
    """The suppression directives of one line of source."""
    found: list[Directive] = []
    for m in _NOQA_AT_RE.finditer(line):
        codes: list[CodeSpelling] = []
        misspelt: list[CodeSpelling] = []
        end = m.end()
        if m.group("colon"):
            at = m.end()
            while True:
                word = (_ITEM_RE if codes or misspelt else _FIRST_RE).match(line, at)
                if word is None:
                    break
                item = CodeSpelling(word.group("item"), word.start("item"), word.end("item"))
                (misspelt if word.group("bad") else codes).append(item)
                end = word.end("item")
                at = word.end()
        found.append(Directive("noqa", m.start(), end, tuple(codes), tuple(misspelt)))
    for m in _IGNORE_RE.finditer(line):
        if m.group("codes") is None or not m.group("codes").strip():
            found.append(Directive("ignore", m.start(), m.end(), (), ()))
            continue
        found.append(Directive("ignore", m.start(), m.end(),
                               _spellings(m.group("codes"), m.start("codes")), ()))
    return found


def _spellings(text: str, offset: int) -> tuple[CodeSpelling, ...]:
    return tuple(CodeSpelling(w.group(), offset + w.start(), offset + w.end())
                 for w in re.finditer(r"[^\s,]+", text))


def _codes_of(d: Directive) -> set[str]:
    if not d.codes and not d.misspelt:
        return {_ALL}
    if d.kind == "ignore":
        return {RULE_NAMES.get(c.text.lower(), c.text.upper()) for c in d.codes}
    return {c.text.upper() for c in d.codes}


class UnknownCode(NamedTuple):
    """A jaxlint code in a directive that names no rule (for JAX002)."""

    line: int  # 1-based
    col: int  # 0-based start of the code
    end_col: int
    code: str  # as written
    kind: str  # "noqa" or "ignore"
    fix: Optional[tuple[int, int]]  # the columns [start, end) that removing it deletes


def has_directive(text: str) -> bool:
    """Whether ``text`` may hold a directive: it says ``noqa`` (lower case, upper case or
    capitalized) or ``jaxlint:``.  Plain substring tests, a tenth of a case-blind regex."""
    return "noqa" in text or "jaxlint:" in text or "NOQA" in text or "Noqa" in text


def unknown_codes(text: str, known: frozenset[str] | set[str]) -> list[UnknownCode]:
    """Every jaxlint code (``JAX`` and digits, any case, or misspelt ``JAX-101``) that
    a directive in a comment names and that is no rule in ``known``.  Another tool's
    code (``E501``) is not jaxlint's business; a directive inside a string is no
    directive.  Cheap unless the text says ``noqa`` or ``jaxlint:``."""
    if not has_directive(text):
        return []
    lines = split_lines(text)
    candidates: list[tuple[int, Directive, list[CodeSpelling]]] = []
    for lineno, line in enumerate(lines, start=1):
        if "#" not in line or not has_directive(line):
            continue
        for d in directives(line):
            unknown = [c for c in d.codes
                       if (c.text[:3].upper() == "JAX" and c.text.upper() not in known)
                       or (d.kind == "ignore" and RULE_NAMES and c.text.lower() not in RULE_NAMES
                           and _NAME_RE.fullmatch(c.text.lower()) is not None)]
            unknown.extend(d.misspelt)
            if unknown:
                candidates.append((lineno, d, unknown))
    if not candidates:
        return []
    comments = _comment_spans(text)
    found: list[UnknownCode] = []
    for lineno, d, unknown in candidates:
        span = comments.get(lineno)
        if span is None or not span[0] <= d.start < span[1]:
            continue  # in a string, not a comment
        line = lines[lineno - 1]
        listed = sorted((*d.codes, *d.misspelt), key=lambda c: c.start)
        for c in unknown:
            found.append(UnknownCode(lineno, c.start, c.end, c.text, d.kind,
                                     _removal(line, d, listed, c)))
    return found


def _removal(line: str, d: Directive, listed: list[CodeSpelling], c: CodeSpelling
             ) -> Optional[tuple[int, int]]:
    """The columns to delete to drop ``c`` from its directive: the code and a
    separator when other codes stay; the whole directive (and the blanks before it)
    when it is the directive's only code and nothing follows it on the line (a
    ``# noqa:`` left empty would silence every rule); None otherwise."""
    i = listed.index(c)
    if len(listed) > 1:
        if i + 1 < len(listed):
            return c.start, listed[i + 1].start
        return listed[i - 1].end, c.end
    if line[d.end:].strip():
        return None
    start = d.start
    while start > 0 and line[start - 1] in " \t":
        start -= 1
    return start, len(line)


def _comment_spans(text: str) -> dict[int, tuple[int, int]]:
    """Line -> the columns [start, end) of the comment on it."""
    spans: dict[int, tuple[int, int]] = {}
    try:
        for tok in tokenize.generate_tokens(readline(text)):
            if tok.type == tokenize.COMMENT:
                spans[tok.start[0]] = (tok.start[1], tok.end[1])
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return spans


class Suppressions:
    def __init__(self, text: str) -> None:
        self.by_line: dict[int, set[str]] = {}
        self.text: str | None = text
        self._moved: dict[int, int] | None = None
        if not has_directive(text):
            return
        for lineno, line in enumerate(split_lines(text), start=1):
            if "#" not in line or not has_directive(line):
                continue
            found = directives(line)
            if found:
                self.by_line[lineno] = set().union(*(_codes_of(d) for d in found))

    def codes_on(self, line: int) -> set[str]:
        return self.by_line.get(line, set())

    def is_suppressed(self, code: str, line: int) -> bool:
        """Whether a `# noqa` suppresses ``code`` reported at ``line``: Ruff's rule, the
        comment on the line the finding is reported at (its first line, the one the
        output shows), or, where that line cannot end with a comment (inside a
        multi-line string, a backslash continuation), on the line that ends the string
        or the continuation; not on a later line of a statement over several lines."""
        lines = {line}
        if self.by_line and self.text is not None:
            # a line inside a multi-line string or ending in a backslash cannot
            # carry a comment: its `# noqa` sits where `--add-noqa` puts it
            if self._moved is None:
                self._moved = comment_lines(self.text)
            lines |= {self._moved[ln] for ln in lines if ln in self._moved}
        for ln in lines:
            codes = self.by_line.get(ln)
            if codes and (_ALL in codes or code in codes):
                return True
        return False


_TIME_CELL = re.compile(r"[ \t]*%%time(?:[ \t#]|$)")


def comment_lines(text: str) -> dict[int, int]:
    """Lines that cannot end with a comment -> the line where it goes instead.

    A line inside (not the last line of) a multi-line string, or one ending
    with a backslash continuation, cannot carry a ``# noqa``; its comment goes
    on the first later line of the statement that can (the string's last line,
    the continuation's end).  A notebook's ``%%time`` line takes no comment either
    (IPython refuses the cell): its comment goes on the cell's next line.
    """
    moved: dict[int, int] = {}
    try:
        tokens = list(tokenize.generate_tokens(readline(text)))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return moved
    blocked: set[int] = set()
    commented: set[int] = set()
    time_lines: list[int] = []
    for tok in tokens:
        if tok.type == tokenize.STRING or tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            for ln in range(tok.start[0], tok.end[0]):
                blocked.add(ln)
        elif tok.type == tokenize.COMMENT:
            commented.add(tok.start[0])
    for i, line in enumerate(split_lines(text), start=1):
        if line.endswith("\\") and i not in blocked and i not in commented:
            blocked.add(i)
        elif line.startswith(TIME_CELL_LINE) or _TIME_CELL.match(line):
            # a notebook's `%%time` line (IPython refuses a comment after it), in the module
            # jaxlint reads or in a cell's own text (an editor's cell): the cell's next line
            # that is not blank (a blank line of the cell has no statement to carry it)
            blocked.add(i)
            time_lines.append(i)
    lines = split_lines(text)
    for ln in time_lines:
        k = ln + 1
        while k <= len(lines) and not lines[k - 1].strip():
            blocked.add(k)
            k += 1
    for ln in sorted(blocked):
        target = ln + 1
        while target in blocked:
            target += 1
        moved[ln] = target
    return moved
