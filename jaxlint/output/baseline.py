"""A drift-proof baseline: today's findings, recorded so that only new ones fail.

``jaxlint check --write-baseline FILE`` records every finding; ``--baseline
FILE`` (or ``baseline = "FILE"`` in ``[tool.jaxlint]``) then hides the
recorded ones and reports (and fails on) the others only.

A finding is identified without its line number, so that code added above
it, moved, reordered or re-indented does not turn it into a "new" finding:

* the rule code;
* the file, as a posix path relative to the baseline file's directory;
* the qualified name of the enclosing function or class (``Model.forward``;
  empty at module level);
* the text of the flagged statement, comments removed and whitespace
  normalised (for a compound statement such as ``if``/``for``/``def``, only
  its header lines that hold the finding);
* the occurrence: 0 for the first finding with the same four values in the
  file, 1 for the next one, and so on.

The same identity gives the ``partialFingerprints`` of SARIF results and the
``fingerprint`` of GitLab Code Quality issues.  Only files that have findings
are read and parsed (with Python's ``ast``), and only when a baseline is used
or such fingerprints are written.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import os
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional, Sequence

from jaxlint.findings import Finding
from jaxlint.parse.lines import split_lines

FORMAT_KEY = "jaxlint-baseline"
FORMAT_VERSION = 1
DEFAULT_NAME = "jaxlint-baseline.json"


class BaselineError(Exception):
    """A baseline file that cannot be used, described in one line."""


@dataclass(frozen=True)
class Entry:
    """The line-free identity of one finding."""

    code: str
    path: str
    scope: str
    text: str
    occurrence: int
    message: str = ""  # informational: not part of the identity

    @property
    def key(self) -> tuple[str, str, str, str, int]:
        return (self.code, self.path, self.scope, _squash(self.text), self.occurrence)

    @property
    def fingerprint(self) -> str:
        return fingerprint_of(self.key)

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "path": self.path,
            "scope": self.scope,
            "text": self.text,
            "occurrence": self.occurrence,
            "message": self.message,
        }


def fingerprint_of(key: tuple[str, str, str, str, int]) -> str:
    h = hashlib.sha256("\0".join(str(part) for part in key).encode("utf-8", "surrogatepass"))
    return h.hexdigest()[:32]


def _squash(text: str) -> str:
    return "".join(text.split())


# ----------------------------------------------------------------------------- identity


@dataclass
class _Node:
    start: tuple[int, int]  # (line, byte column), decorators included
    end: tuple[int, int]
    header_end: int  # last line of a compound statement's header (its own end otherwise)
    compound: bool


class _FileIndex:
    """Scopes and statements of one file's text (Python's ast)."""

    def __init__(self, text: str) -> None:
        self.lines = split_lines(text)
        self.scopes: list[tuple[int, int, str]] = []  # (first line, last line, qualname)
        self.stmts: list[_Node] = []
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return
        self._walk(tree, "")

    def _walk(self, node: ast.AST, prefix: str) -> None:
        stack: list[tuple[ast.AST, str]] = [(node, prefix)]
        while stack:
            current, qual = stack.pop()
            for child in ast.iter_child_nodes(current):
                child_qual = qual
                if isinstance(child, ast.stmt):
                    self._add_stmt(child)
                    if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        child_qual = f"{qual}.{child.name}" if qual else child.name
                        first = min([d.lineno for d in child.decorator_list] + [child.lineno])
                        self.scopes.append((first, child.end_lineno or child.lineno, child_qual))
                stack.append((child, child_qual))

    def _add_stmt(self, s: ast.stmt) -> None:
        decorators = getattr(s, "decorator_list", None) or []
        start = min([(d.lineno, d.col_offset) for d in decorators] + [(s.lineno, s.col_offset)])
        end = (s.end_lineno or s.lineno, s.end_col_offset or 0)
        body_lines = [
            b.lineno
            for name in ("body", "orelse", "finalbody", "handlers", "cases")
            for b in (getattr(s, name, None) or [])
            if hasattr(b, "lineno")
        ]
        compound = bool(body_lines)
        header_end = end[0]
        if compound:
            header_end = max(s.lineno, min(body_lines) - 1)
        self.stmts.append(_Node(start, end, header_end, compound))

    def scope_of(self, line: int) -> str:
        best: Optional[tuple[int, int, str]] = None
        for first, last, qual in self.scopes:
            if first <= line <= last and (best is None or first >= best[0]):
                best = (first, last, qual)
        return best[2] if best else ""

    def _byte_col(self, line: int, col: int) -> int:
        if 1 <= line <= len(self.lines):
            return len(self.lines[line - 1][: max(col - 1, 0)].encode("utf-8", "surrogatepass"))
        return max(col - 1, 0)

    def statement_lines(self, f: Finding) -> tuple[int, int]:
        """The lines whose text identifies the statement holding ``f``."""
        pos = (f.line, self._byte_col(f.line, f.col))
        best: Optional[_Node] = None
        for node in self.stmts:
            if node.start <= pos <= node.end and (best is None or node.start >= best.start):
                best = node
        if best is None:
            return f.line, max(f.line, min(f.end_line, f.line + 20))
        if not best.compound:
            return best.start[0], best.end[0]
        first = max(f.line, best.start[0])
        last = max(first, min(f.end_line, best.header_end))
        return first, last

    def text_of(self, first: int, last: int) -> str:
        return normalize(self.lines[first - 1 : last])


def normalize(lines: Sequence[str]) -> str:
    """Comments removed and whitespace collapsed to single spaces."""
    stripped = [ln.strip() for ln in lines]
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("\n".join(stripped) + "\n").readline))
        comments = [t for t in tokens if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError):
        comments = []
    for t in reversed(comments):
        row, col = t.start
        if 1 <= row <= len(stripped):
            stripped[row - 1] = stripped[row - 1][:col] + stripped[row - 1][t.end[1]:]
    return " ".join(" ".join(stripped).split())


def relative_posix(path: str, root: Path) -> str:
    """``path`` (absolute or relative to the current directory) relative to ``root``."""
    p = Path(path)
    absolute = Path(os.path.abspath(p))
    try:
        return absolute.relative_to(root).as_posix()
    except ValueError:
        try:
            return Path(os.path.relpath(absolute, root)).as_posix()
        except ValueError:  # another drive (Windows)
            return absolute.as_posix()


def _cell_text(notebook_text: str, cell: int) -> Optional[str]:
    """The source of a notebook's cell: what a finding in it is identified by."""
    from jaxlint.parse.notebook import Notebook, NotebookError

    try:
        return Notebook.from_bytes(notebook_text.encode("utf-8")).cell_sources.get(cell)
    except NotebookError:
        return None


def compute_entries(
    findings: Sequence[Finding],
    text_of: Callable[[str], Optional[str]],
    root: Path,
) -> list[Entry]:
    """The identity of each finding (same order), paths relative to ``root``.

    ``text_of(path)`` gives a file's text (None when it cannot be read: the
    finding is then identified by its code, file and message)."""
    root = Path(os.path.abspath(root))
    indexes: dict[str, Optional[_FileIndex]] = {}
    partial: list[tuple[str, str, str, str, str]] = []
    for f in findings:
        where = f.path if f.cell is None else f"{f.path}\0cell {f.cell}"
        if where not in indexes:
            text = text_of(f.path)
            if text is not None and f.cell is not None:
                text = _cell_text(text, f.cell)
            indexes[where] = _FileIndex(text) if text is not None else None
        index = indexes[where]
        if index is None:
            scope, text = f.function or "", f.message
        else:
            scope = index.scope_of(f.line)
            text = index.text_of(*index.statement_lines(f))
        partial.append((f.code, relative_posix(f.path, root), scope, text, f.message))
    # occurrence: position order among findings with the same identity
    order = sorted(range(len(findings)), key=lambda i: (findings[i].path, findings[i].cell or 0, findings[i].line,
                                                         findings[i].col, findings[i].code))
    seen: dict[tuple[str, str, str, str], int] = {}
    occurrence = [0] * len(findings)
    for i in order:
        code, path, scope, text, _ = partial[i]
        k = (code, path, scope, _squash(text))
        occurrence[i] = seen.get(k, 0)
        seen[k] = occurrence[i] + 1
    return [
        Entry(code, path, scope, text, occurrence[i], message)
        for i, (code, path, scope, text, message) in enumerate(partial)
    ]


# ----------------------------------------------------------------------------- the file


@dataclass
class Baseline:
    path: Path
    entries: list[Entry]

    @property
    def root(self) -> Path:
        return Path(os.path.abspath(self.path)).parent


def load(path: Path) -> Baseline:
    """Read a baseline file (raises BaselineError with one line)."""
    hint = f"write a new one with `jaxlint check --no-baseline --write-baseline {path}`"
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise BaselineError(
            f"{path}: baseline file not found (write it with `jaxlint check --write-baseline {path}`)"
        ) from None
    except OSError as exc:
        raise BaselineError(f"{path}: baseline cannot be read ({exc.strerror or exc})") from None
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
        raise BaselineError(f"{path}: not a jaxlint baseline (invalid JSON: {first}); {hint}") from None
    if not isinstance(doc, dict) or FORMAT_KEY not in doc:
        raise BaselineError(f"{path}: not a jaxlint baseline (no \"{FORMAT_KEY}\" key); {hint}")
    if doc[FORMAT_KEY] != FORMAT_VERSION:
        raise BaselineError(
            f"{path}: baseline format {doc[FORMAT_KEY]!r} is not supported by this jaxlint "
            f"(expected {FORMAT_VERSION}); {hint}"
        )
    items = doc.get("findings")
    if not isinstance(items, list):
        raise BaselineError(f"{path}: broken baseline: \"findings\" must be a list; {hint}")
    entries = []
    for n, item in enumerate(items):
        try:
            if not isinstance(item, dict):
                raise TypeError
            occurrence = item["occurrence"]
            if not isinstance(occurrence, int) or isinstance(occurrence, bool) or occurrence < 0:
                raise TypeError
            fields = [item[k] for k in ("code", "path", "scope", "text")]
            message = item.get("message", "")
            if not all(isinstance(v, str) for v in (*fields, message)):
                raise TypeError
        except (KeyError, TypeError):
            raise BaselineError(
                f"{path}: broken baseline: finding {n + 1} needs code, path, scope, text "
                f"(strings) and occurrence (an integer >= 0); {hint}"
            ) from None
        entries.append(Entry(*fields, occurrence, message))
    return Baseline(Path(path), entries)


def dump(entries: Iterable[Entry]) -> str:
    from jaxlint import __version__

    ordered = sorted(entries, key=lambda e: (e.path, e.code, e.scope, e.text, e.occurrence))
    doc = {
        FORMAT_KEY: FORMAT_VERSION,
        "written-by": f"jaxlint {__version__}",
        "findings": [e.to_dict() for e in ordered],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def write(path: Path, entries: Iterable[Entry]) -> None:
    from jaxlint.atomic import write_atomic

    path = Path(path)
    if str(path.parent) not in ("", "."):
        path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, dump(entries).encode("utf-8"), mode=0o644)


# ----------------------------------------------------------------------------- matching


@dataclass
class Outcome:
    """What a baseline did to one run's findings."""

    path: str  # the baseline file, as given
    new: list[Finding]
    unchanged: list[Finding]  # hidden: recorded in the baseline
    absent: list[Entry]  # recorded, but no longer found (stale)
    entries: dict[int, Entry]  # id(finding) -> its identity, for every finding
    # recorded for files this run could not judge (not linted, or not parsed): kept as they are
    unjudged: list[Entry] = field(default_factory=list)


def match(baseline: Baseline, findings: Sequence[Finding],
          text_of: Callable[[str], Optional[str]], display: str,
          checked: Optional[Callable[[str], bool]] = None) -> Outcome:
    """Split ``findings`` into new and unchanged; list the absent entries.

    ``checked(relative path)`` says whether a recorded file was linted in this
    run: entries of files outside the linted paths are not counted absent."""
    entries = compute_entries(findings, text_of, baseline.root)
    remaining: dict[tuple, list[Entry]] = {}
    for e in baseline.entries:
        remaining.setdefault(e.key, []).append(e)
    new, unchanged = [], []
    for f, e in zip(findings, entries):
        bucket = remaining.get(e.key)
        if bucket:
            bucket.pop()
            unchanged.append(f)
        else:
            new.append(f)
    absent = [e for bucket in remaining.values() for e in bucket]
    unjudged: list[Entry] = []
    if checked is not None:
        unjudged = [e for e in absent if not checked(e.path)]
        absent = [e for e in absent if checked(e.path)]
    order = lambda e: (e.path, e.code, e.scope, e.text, e.occurrence)  # noqa: E731
    absent.sort(key=order)
    unjudged.sort(key=order)
    return Outcome(display, new, unchanged, absent,
                   {id(f): e for f, e in zip(findings, entries)}, unjudged)
