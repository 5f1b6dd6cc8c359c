"""Fixes users can trust: ``--fix``, ``--diff``, ``--add-noqa`` on real files.

``fix_text`` applies the fixable findings of one file in passes.  Each pass
applies every non-overlapping fix at once (earliest, outermost first; the
others wait for the next pass), then re-parses and re-lints the result with
the file's rules *and* every default rule.  A pass is kept only when the text
still parses (and still compiles, if it compiled before), its syntax tree
differs from the old one only in the rewritten nodes (``fixcheck``), and no rule reports
more findings than before; otherwise its fixes are retried one at a time and
each one that breaks the file is skipped and reported.  Passes repeat until
nothing more applies (at most ``MAX_PASSES``).  A fix whose edit does not find,
at its positions, the code it was made for (``Edit.original``) is never
applied: it is an internal error of its rule (``FixResult.errors``) and the
file is left as it was.

``SourceFile`` reads a file once (bytes, encoding, BOM, mode) and
``SourceFile.write`` writes new text atomically (a temporary file in the same
directory, then ``os.replace``), with the same encoding, BOM and mode; a
symbolic link is written through to its target, and a file with several hard
links is rewritten in place so the links stay one file.  Line
endings are kept because only the fixed spans change and inserted text uses
the file's newline convention (see ``fixes.py``).

``add_noqa`` appends ``# noqa: CODE`` to the line that can carry a comment for
each finding, merging with an existing ``# noqa: X``.
"""

from __future__ import annotations

import codecs
import difflib
import os
import stat
import warnings
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable, Optional

from jaxlint.atomic import write_atomic, write_through  # noqa: F401  (write_atomic re-exported)
from jaxlint.findings import Finding
from jaxlint.fix.fixcheck import changed_outside
from jaxlint.engine.fixes import choose, plan_edits, splice
from jaxlint.parse.lines import LineIndex, split_lines
from jaxlint.settings import LintSettings
from jaxlint.engine.suppression import comment_lines, directives

MAX_PASSES = 10


# ----------------------------------------------------------------------------- fixing


@dataclass(frozen=True)
class AppliedFix:
    code: str
    line: int  # in the text of the pass that applied it
    col: int
    message: str  # the fix's message
    cell: Optional[int] = None  # a notebook's cell: line and col count in it


@dataclass
class FixResult:
    text: str  # the fixed text
    applied: list[AppliedFix] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # one line per refused fix
    # one line per rule whose fix proved misplaced (an internal error of that rule):
    # the text is then left as it was, with every fix of the file dropped
    errors: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)  # what remains (the file's rules)
    passes: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def _verify_settings(settings: LintSettings) -> LintSettings:
    from jaxlint.rules import default_codes

    from dataclasses import replace

    # the project's facts stay: a helper traced from another module is fixed and checked as one
    return replace(settings, select=frozenset(settings.select) | default_codes() | {"JAX001"})


def _compile_error(text: str, path: str) -> Optional[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(text, path, "exec", dont_inherit=True)
        except SyntaxError as exc:
            return f"{exc.msg} at {exc.lineno}:{exc.offset}"
        except (ValueError, RecursionError, MemoryError) as exc:
            return exc.__class__.__name__
    return None


def _fix_key(f: Finding, text: str, index: LineIndex) -> tuple:
    """Identifies a fix across passes (positions move; the replaced text does not)."""

    def at(line: int, col: int) -> int:
        return index.offset(line, col - 1)

    assert f.fix is not None
    return (
        f.code,
        f.fix.message,
        tuple((text[at(e.line, e.col):at(e.end_line, e.end_col)], e.content) for e in f.fix.edits),
    )


def _misplaced_line(f: Finding, text: str) -> str:
    assert f.fix is not None
    index = LineIndex(text)
    for e in f.fix.edits:
        start = index.offset(e.line, e.col - 1)
        end = max(start, index.offset(e.end_line, e.end_col - 1))
        if e.original is not None and text[start:end] != e.original:
            want = e.original if len(e.original) <= 40 else e.original[:37] + "..."
            return (f"internal error in rule {f.code}: its fix at {e.line}:{e.col} does not find "
                    f"the code it was made for ({want!r}); no fix applied to this file")
    return f"internal error in rule {f.code}: its fix is misplaced; no fix applied to this file"


def fix_text(
    text: str,
    path: str,
    settings: LintSettings,
    *,
    unsafe: bool = False,
    max_passes: int = MAX_PASSES,
    fixed_lines: Optional[frozenset[int]] = None,
) -> FixResult:
    """Apply the fixes of ``settings.select`` to ``text`` until none applies.
    ``fixed_lines``: lines (1-based) no fix may change while the text keeps its
    number of lines (a notebook's IPython syntax)."""
    from jaxlint.lint.linter import lint_source, touches_lines

    vsettings = _verify_settings(settings)

    def lint(t: str) -> list[Finding]:
        return lint_source(t, path, vsettings, prefilter=False).findings

    compiled_before = _compile_error(text, path) is None
    current = text
    findings = first_findings = lint(current)
    result = FixResult(text=text)
    refused: set[tuple] = set()
    seen = {current}

    def check(candidate: str, baseline: Counter, spans) -> tuple[Optional[str], list[Finding]]:
        """(why the candidate is refused or None, its findings)."""
        if compiled_before:
            try:
                changed = changed_outside(current, spans)
            except ValueError:  # the text being fixed does not parse: nothing to compare with
                changed = None
            if changed is not None:
                return changed, []
        new = lint(candidate)
        if any(f.code == "JAX001" for f in new) and not baseline.get("JAX001"):
            bad = next(f for f in new if f.code == "JAX001")
            return f"would introduce a syntax error ({bad.message} at {bad.line}:{bad.col})", new
        if compiled_before:
            err = _compile_error(candidate, path)
            if err is not None:
                return f"would introduce a syntax error ({err})", new
        counts = Counter(f.code for f in new)
        worse = sorted(c for c, n in counts.items() if n > baseline.get(c, 0))
        if worse:
            return f"would introduce {', '.join(worse)}", new
        return None, new

    for _ in range(max_passes):
        offsets = LineIndex(current)
        frozen = fixed_lines if fixed_lines and offsets.count == LineIndex(text).count else None
        candidates = [
            f for f in choose(findings, unsafe)
            if f.code in settings.select and _fix_key(f, current, offsets) not in refused
            and not (frozen and touches_lines(f, frozen))
        ]
        if not candidates:
            break
        misplaced: list[int] = []
        spans, chosen_idx = plan_edits(
            current, [f.fix.edits for f in candidates], misplaced)  # type: ignore[union-attr]
        if misplaced:
            # positions that do not hold the code the rule's fix was made for: an
            # internal error (never another text rewritten); nothing of this file is fixed
            for i in misplaced:
                f = candidates[i]
                result.errors.append(_misplaced_line(f, current))
            result.applied = []
            result.passes = 0
            current, findings = text, first_findings
            break
        chosen = [candidates[i] for i in chosen_idx]
        baseline = Counter(f.code for f in findings)
        new_text = splice(current, spans)
        why, new_findings = check(new_text, baseline, spans)
        if why is not None:
            # bisect the pass's fixes: keep every group that is clean together
            # with those kept so far; a single fix that is not is skipped
            state = {"kept": [], "text": current, "findings": findings}

            def settle(group: list[Finding], known_bad: Optional[str] = None) -> None:
                reason = known_bad
                if reason is None:
                    trial = state["kept"] + group
                    spans, _ = plan_edits(current, [g.fix.edits for g in trial])  # type: ignore[union-attr]
                    candidate = splice(current, spans)
                    reason, cand_findings = check(candidate, baseline, spans)
                    if reason is None:
                        state.update(kept=trial, text=candidate, findings=cand_findings)
                        return
                if len(group) == 1:
                    f = group[0]
                    refused.add(_fix_key(f, current, offsets))
                    result.skipped.append(f"fix for {f.code} at {f.line}:{f.col} skipped: {reason}")
                    return
                mid = len(group) // 2
                settle(group[:mid])
                settle(group[mid:])

            settle(chosen, why)
            chosen, new_text, new_findings = state["kept"], state["text"], state["findings"]
        if not chosen or new_text == current or new_text in seen:
            break
        result.applied.extend(
            AppliedFix(f.code, f.line, f.col, f.fix.message if f.fix else "") for f in chosen
        )
        result.passes += 1
        seen.add(new_text)
        current, findings = new_text, new_findings
    result.text = current
    result.findings = [f for f in findings if f.code in settings.select]
    return result


# ----------------------------------------------------------------------------- files


@dataclass
class SourceFile:
    """One file's bytes and how to write it back the same way."""

    path: Path
    data: bytes
    text: str
    encoding: str
    bom: bool  # the file starts with a byte-order mark
    mode: Optional[int]
    bom_bytes: bytes = b""  # that mark (UTF-8, UTF-16 or UTF-32), written back as it was

    @classmethod
    def read(cls, path: Path) -> "SourceFile":
        """Raises OSError or ValueError (undecodable)."""
        data = path.read_bytes()
        try:
            mode: Optional[int] = stat.S_IMODE(os.stat(path).st_mode)
        except OSError:
            mode = None
        return cls.from_bytes(path, data, mode)

    @classmethod
    def from_bytes(cls, path: Path, data: bytes, mode: Optional[int] = None) -> "SourceFile":
        from jaxlint.lint.linter import detect_encoding

        try:
            encoding, bom_bytes = detect_encoding(data)
        except SyntaxError as exc:
            raise ValueError(f"cannot determine the encoding: {exc}") from None
        try:
            text = data[len(bom_bytes):].decode(encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise ValueError(f"not valid {encoding} ({exc})") from None
        return cls(path, data, text, encoding, bool(bom_bytes), mode, bom_bytes)

    def encode(self, text: str) -> bytes:
        """Raises UnicodeEncodeError when a fix brought in a character the
        file's encoding cannot hold."""
        body = text.encode(self.encoding)
        bom = self.bom_bytes or (codecs.BOM_UTF8 if self.bom else b"")
        return bom + body

    def write(self, text: str) -> None:
        """Write atomically: never a half-written file, even if interrupted.  A
        symbolic link is written through (its target changes, the link stays);
        a hard-linked file is rewritten in place (see ``atomic.write_through``)."""
        write_through(self.path, self.encode(text), self.mode)


def file_diff(ff: "FileFix") -> str:
    """``--diff`` of one fixed file: a unified diff, per changed cell in a notebook."""
    if isinstance(ff.source, NotebookFile) and ff.changed:
        from jaxlint.parse.notebook import Notebook

        before = ff.source.notebook
        after = Notebook.from_bytes(ff.source.encode(ff.result.text))
        return "".join(
            unified_diff(f"{ff.path}:cell {n}", before.cell_sources[n], after.cell_sources.get(n, ""))  # type: ignore[union-attr]
            for n in before.code_cells  # type: ignore[union-attr]
        )
    return unified_diff(ff.path, ff.old, ff.result.text)


def unified_diff(path: str, old: str, new: str) -> str:
    """A unified diff of two versions of a file (empty when they are equal)."""
    if old == new:
        return ""
    lines = difflib.unified_diff(
        _keep_lines(old),
        _keep_lines(new),
        fromfile=f"a/{path}" if not os.path.isabs(path) else path,
        tofile=f"b/{path}" if not os.path.isabs(path) else path,
    )
    out = []
    for line in lines:
        if not line.endswith(("\n", "\r")):
            line += "\n\\ No newline at end of file\n"
        out.append(line)
    return "".join(out)


def _keep_lines(text: str) -> list[str]:
    return split_lines(text, keepends=True)


# ----------------------------------------------------------------------------- noqa

def add_noqa(text: str, findings: Iterable[Finding]) -> tuple[str, int]:
    """Add ``# noqa: CODE`` for each finding; return (new text, directives added)."""
    moved: Optional[dict[int, int]] = None
    wanted: dict[int, list[str]] = {}
    for f in findings:
        if f.code in ("JAX001", "JAX002"):
            # a file that does not parse cannot be annotated safely; an unknown code in a
            # directive is mended there, not silenced by another code in it (as Ruff's RUF100)
            continue
        if moved is None:
            moved = comment_lines(text)
        line = moved.get(f.line, f.line)
        codes = wanted.setdefault(line, [])
        if f.code not in codes:
            codes.append(f.code)
    if not wanted:
        return text, 0
    lines = split_lines(text, keepends=True)
    added = 0
    for ln, codes in wanted.items():
        if ln - 1 >= len(lines):
            continue
        raw = lines[ln - 1]
        body = raw.rstrip("\r\n")
        ending = raw[len(body):]
        found = [d for d in directives(body) if d.kind == "noqa"]
        d = found[-1] if found else None  # the last noqa comment on the line
        if d is not None and not d.codes and not d.misspelt:
            continue  # a bare `# noqa` already silences everything
        if d is not None:
            present = {c.text.upper() for c in d.codes}
            new = [c for c in codes if c not in present]
            if not new:
                continue
            # after its last code, as written (`# noqa: JAX-101` is no blanket noqa)
            body = body[: d.end] + ", " + ", ".join(new) + body[d.end:]
            added += len(new)
        else:
            body = body.rstrip() + f"  # noqa: {', '.join(codes)}"
            added += len(codes)
        lines[ln - 1] = body + ending
    return "".join(lines), added


# ----------------------------------------------------------------------------- runs


@dataclass
class FileFix:
    """What fixing one file did."""

    path: str
    result: FixResult
    old: str
    source: Optional[SourceFile] = None

    @property
    def changed(self) -> bool:
        return self.result.text != self.old


def fix_file(path: str, data: Optional[bytes], settings: LintSettings, unsafe: bool) -> FileFix:
    """Fix one file (read from disk when ``data`` is None); writes nothing.

    Raises OSError / ValueError when the file cannot be read or decoded."""
    if path.endswith(".ipynb"):
        return _fix_notebook(path, data, settings, unsafe)
    src = SourceFile.read(Path(path)) if data is None else SourceFile.from_bytes(Path(path), data)
    result = fix_text(src.text, path, settings, unsafe=unsafe)
    return FileFix(path=path, result=result, old=src.text, source=src)


@dataclass
class NotebookFile(SourceFile):
    """A notebook being fixed: ``text`` is its virtual module (jaxlint/parse/notebook.py);
    what is written back is the notebook with only the changed cells' sources
    replaced (outputs, metadata, ids and the JSON layout kept)."""

    notebook: Optional[object] = None

    def encode(self, text: str) -> bytes:
        return self.notebook.rebuild(text)  # type: ignore[union-attr]

    @classmethod
    def read_notebook(cls, path: Path, data: Optional[bytes] = None) -> "NotebookFile":
        """The notebook at ``path`` (its ``data`` when given: not read again, mode
        unknown).  Raises OSError, or ValueError when it is not a notebook."""
        from jaxlint.parse.notebook import Notebook, NotebookError

        mode: Optional[int] = None
        if data is None:
            data = path.read_bytes()
            try:
                mode = stat.S_IMODE(os.stat(path).st_mode)
            except OSError:
                mode = None
        try:
            nb = Notebook.from_bytes(data)
        except NotebookError as exc:
            raise ValueError(str(exc)) from None
        return cls(path, data, nb.text, "utf-8", False, mode, notebook=nb)


def _fix_notebook(path: str, data: Optional[bytes], settings: LintSettings, unsafe: bool) -> FileFix:
    from jaxlint.parse.notebook import Notebook, NotebookError, map_findings

    src = NotebookFile.read_notebook(Path(path), data)
    nb, data = src.notebook, src.data
    result = fix_text(nb.text, path, settings, unsafe=unsafe, fixed_lines=nb.rewritten_lines())
    rebuilt: Optional[bytes] = None
    if result.text != nb.text:
        try:
            rebuilt = nb.rebuild(result.text)
        except NotebookError as exc:  # nothing is written: the notebook keeps its fixes for later
            result.skipped.append(f"fixes not applied: {exc}")
            result.text = nb.text
            result.applied = []
            result.findings = lint_notebook_findings(data, path, settings)
            return FileFix(path=path, result=result, old=nb.text, source=src)
    positions = {(a.line, a.col): nb.position(a.line, a.col) for a in result.applied}
    result.applied = [replace(a, line=positions[(a.line, a.col)][1], col=positions[(a.line, a.col)][2],
                              cell=positions[(a.line, a.col)][0]) for a in result.applied]
    fixed = Notebook.from_bytes(rebuilt) if rebuilt is not None else nb
    result.findings = map_findings(fixed, result.findings)
    return FileFix(path=path, result=result, old=nb.text, source=src)


def add_noqa_notebook(path: Path, findings: Iterable[Finding]) -> tuple[NotebookFile, str, int]:
    """``--add-noqa`` on a notebook: (the file, its new virtual text, how many
    comments); findings are given on cells.  Raises OSError / ValueError."""
    from dataclasses import replace as _replace

    from jaxlint.parse.notebook import NotebookError

    src = NotebookFile.read_notebook(path)
    nb = src.notebook
    virtual = []
    for f in findings:
        line = nb.virtual_line(f.cell, f.line) if f.cell is not None else None
        if line is not None:
            virtual.append(_replace(f, line=line, end_line=line, cell=None))
    new, n = add_noqa(nb.text, virtual)
    try:
        nb.rebuild(new)
    except NotebookError as exc:
        raise ValueError(str(exc)) from None
    return src, new, n


def lint_notebook_findings(data: bytes, path: str, settings: LintSettings) -> list[Finding]:
    from jaxlint.lint.linter import lint_source

    return [f for f in lint_source(data, path, _verify_settings(settings), prefilter=False).findings
            if f.code in settings.select]


def needs_fixing(findings: Iterable[Finding], unsafe: bool) -> bool:
    from jaxlint.engine.fixes import fixable

    return any(fixable(f, unsafe) for f in findings)


def show_fixes_text(fixed: list[FileFix], counted: str) -> str:
    """``--show-fixes``: per file, each applied fix (line:col code message).
    ``counted`` names what was fixed as the summary line does (``2 warnings``)."""
    done = [ff for ff in fixed if ff.result.applied and ff.changed]
    total = sum(len(ff.result.applied) for ff in done)
    if not total:
        return "No fixes applied.\n"
    out = [f"Fixed {counted}:\n"]
    for ff in sorted(done, key=lambda x: x.path):
        out.append(f"- {ff.path}:\n")
        for a in ff.result.applied:
            cell = f"cell {a.cell}:" if a.cell is not None else ""
            out.append(f"    {cell}{a.line}:{a.col} {a.code} {a.message}\n")
    return "".join(out)
