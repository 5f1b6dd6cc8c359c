"""Lint one file: decode, check it is Python, prefilter, guard, parse, analyse.

``lint_source`` is the one entry every front end uses (CLI workers, stdin, the
cache, the fixer, the LSP, incremental or not, the MCP server, the runtime
companion); what differs between them is only how libcst's tree is obtained
(its ``parse`` strategy), never the decoding, the guard, the prefilter or the
skip checks, which always run.  It never raises for bad input: a file
that cannot be decoded, or cannot be checked (too deeply nested, refused by
libcst), gets ``FileResult.error``; a file that Python itself refuses gets a
JAX001 finding, whether or not it mentions JAX.
"""

from __future__ import annotations

import ast
import codecs
import gc
import io
import json
import re
import sys
import tokenize
import warnings
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import Optional, Protocol, Union

import libcst as cst

from jaxlint.findings import FileResult, Finding, Severity
from jaxlint.parse.guard import LimitExceeded, blank_constant_tables, check_limits
from jaxlint.parse.libcst_compat import plain_instance_checks, unvalidated_parser
from jaxlint.parse.lines import LineIndex
from jaxlint.settings import LintSettings

# libcst's node classes are ABCs: the model's and the rules' isinstance() checks run
# through ABCMeta's Python code unless they get type's own (the same answers)
plain_instance_checks()

# A file that mentions none of these is not linted (the cheap prefilter), only
# checked for being valid Python.  A JAX rule can only fire where one of these
# modules is imported.  The test runs on the decoded text, so that UTF-16 and
# UTF-32 files are not missed.
PREFILTER_TOKENS = (
    "jax",
    "flax",
    "equinox",
    "optax",
    "chex",
    "numpyro",
    "diffrax",
    "distrax",
    "haiku",
    # a module that only sets JAX's environment (`os.environ["JAX_ENABLE_X64"] = ...`)
    "JAX_ENABLE_X64",
)
_PREFILTER_RE = re.compile("|".join(re.escape(t) for t in PREFILTER_TOKENS))

# Byte-order marks Python's tokenizer does not know (UTF-32 before UTF-16: FF FE 00 00 starts with FF FE)
_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def mentions_jax(text: Union[str, bytes]) -> bool:
    if isinstance(text, bytes):
        text = text.decode("latin-1")
    return _PREFILTER_RE.search(text) is not None


# PEP 263's coding line (as tokenize reads it)
_CODING_RE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+")


def detect_encoding(data: bytes) -> tuple[str, bytes]:
    """(codec name, BOM bytes) of a source file: a UTF-8/16/32 byte-order mark,
    else the PEP 263 coding cookie, else UTF-8.  Raises SyntaxError for a bad
    cookie (as Python does)."""
    for bom, name in _WIDE_BOMS:
        if data.startswith(bom):
            return name, bom
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        # tokenize also refuses a first line that is not UTF-8 when it names no
        # encoding: that file is UTF-8 by default, and decoding it says which byte
        if any(_CODING_RE.match(line) for line in data.splitlines()[:2]):
            raise
        encoding = "utf-8"
    if data.startswith(codecs.BOM_UTF8):
        return "utf-8", codecs.BOM_UTF8
    return encoding, b""


def decode_source(data: bytes) -> tuple[Optional[str], Optional[str]]:
    """Return (text, None) or (None, one-line reason).  Honours a UTF-8 byte-order
    mark and a PEP 263 coding cookie; refuses a UTF-16 or UTF-32 file (its byte-order
    mark), which CPython refuses to run as it refuses undeclared latin-1."""
    try:
        encoding, bom = detect_encoding(data)
    except SyntaxError as exc:  # bad cookie
        return None, f"cannot determine the encoding: {exc}"
    if bom and encoding != "utf-8":
        name = encoding.upper().replace("-LE", "").replace("-BE", "")
        marks = " ".join(f"{b:02X}" for b in bom)
        return None, (f"saved as {name} (byte-order mark {marks}), which Python cannot run: it reads "
                      "source as UTF-8 or as the encoding a coding line names (save the file as UTF-8)")
    try:
        text = data[len(bom):].decode(encoding)
    except UnicodeDecodeError as exc:
        return None, undecodable(data[len(bom):], encoding, exc, cookie=True)
    except LookupError as exc:
        return None, f"cannot decode it as {encoding} ({exc})"
    return text, None


def undecodable(data: bytes, encoding: str, exc: UnicodeDecodeError, cookie: bool) -> str:
    """One sentence for bytes that are not valid ``encoding``: the line and the byte
    (``not valid UTF-8: byte 0xe9 on line 2 (...)``), with what to do about it."""
    name = "UTF-" + encoding[4:].replace("-sig", "").upper() if encoding.lower().startswith("utf-") \
        else encoding
    line = data[:exc.start].decode(encoding, errors="replace").count("\n") + 1
    bad = data[exc.start:exc.end][:4]
    what = "byte" if len(bad) == 1 else "bytes"
    where = f"{what} {' '.join(f'0x{b:02x}' for b in bad)} on line {line}"
    if name != "UTF-8":  # a byte-order mark or a coding line named it
        return f"not valid {name}, the encoding the file declares: {where}"
    hint = ("save the file as UTF-8, or name its encoding on line 1 or 2, e.g. "
            "`# -*- coding: latin-1 -*-`") if cookie else "save the file as UTF-8"
    return f"not valid UTF-8: {where} ({hint})"


def _finding(path: str, line: int, col: int, message: str) -> Finding:
    return Finding(
        code="JAX001",
        name="syntax-error",
        message=f"The file does not parse: {message}",
        path=path,
        line=int(line),
        col=int(col),
        end_line=int(line),
        end_col=int(col),
        severity=Severity.ERROR,
    )


def python_syntax_error(text: str, path: str) -> tuple[Optional[ast.AST], Optional[Finding]]:
    """Parse ``text`` with CPython: (its tree, None), or (None, a JAX001 finding)
    when Python itself would refuse the file."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences and the like
            # not ``path``: for a file that exists, CPython reads the error's line back from
            # disk (undecoded) and a UTF-16/32 file's error got column 1; ``text`` is the judge
            return compile(text, "<source>", "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True), None
    except (SyntaxError, ValueError) as exc:  # ValueError: NUL bytes before Python 3.12
        if "\0" in text and "null bytes" in str(exc):
            line, col = LineIndex(text).position(text.index("\0"))
            return None, _finding(path, line, col + 1, "source code cannot contain null bytes")
        if isinstance(exc, SyntaxError):
            return None, _finding(path, exc.lineno or 1, max(exc.offset or 1, 1), exc.msg)
        return None, _finding(path, 1, 1, str(exc).splitlines()[0] if str(exc) else "invalid source")
    except RecursionError:
        return None, _finding(path, 1, 1, "too deeply nested for Python's parser (RecursionError)")
    except MemoryError:
        return None, _finding(path, 1, 1, "too deeply nested for Python's parser (MemoryError)")


def _newer_syntax(text: str, bad: Finding) -> Optional[str]:
    """A file this Python refuses but a newer one accepts (``type X = ...``, PEP 695
    generics, PEP 701 f-strings on Python 3.11): "could not be checked: ...", not a
    JAX001 finding; None when libcst (whose grammar knows the newer syntax) refuses it
    too, or this Python is the newest libcst knows."""
    if sys.version_info >= (3, 13):
        return None
    said = bad.message.removeprefix("The file does not parse: ")
    if not (said == "invalid syntax" or said.startswith(("expected ", "f-string"))):
        return None  # CPython's limits (nesting, null bytes) and errors no new syntax causes
    try:
        import libcst as cst

        module = cst.parse_module(text)
    except Exception:  # noqa: BLE001 - its parser's errors (and limits): really invalid
        return None
    here = f"Python {sys.version_info[0]}.{sys.version_info[1]}"
    construct = _newer_construct(module, bad.line)
    if construct is not None:
        what, version = construct
        return (f"could not be checked: line {bad.line} uses {what}, new in Python {version}; this "
                f"jaxlint runs on {here}: run jaxlint with the project's Python ({version} or newer)")
    return (f"could not be checked: {here} cannot parse it (line {bad.line}: {said}) but the syntax "
            f"is valid in a newer Python: run jaxlint with the project's Python")


def _newer_construct(module: cst.Module, line: int) -> Optional[tuple[str, str]]:
    """The syntax newer than this Python at ``line`` of ``module`` (which libcst
    parsed): (what it is, the Python version that brought it), or None."""
    from libcst.metadata import MetadataWrapper, PositionProvider

    found: list[tuple[int, str, str]] = []

    class Finder(cst.CSTVisitor):
        METADATA_DEPENDENCIES = (PositionProvider,)

        def _add(self, node: cst.CSTNode, what: str, version: str) -> None:
            found.append((self.get_metadata(PositionProvider, node).start.line, what, version))

        def visit_TypeAlias(self, node: cst.TypeAlias) -> None:
            self._add(node, "a `type` alias statement (PEP 695)", "3.12")

        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            if node.type_parameters is not None:
                self._add(node.type_parameters, "type parameters (`def f[T]`, PEP 695)", "3.12")

        def visit_ClassDef(self, node: cst.ClassDef) -> None:
            if node.type_parameters is not None:
                self._add(node.type_parameters, "type parameters (`class C[T]`, PEP 695)", "3.12")

    try:
        MetadataWrapper(module, unsafe_skip_copy=True).visit(Finder())
    except Exception:  # noqa: BLE001 - naming the construct is a courtesy, never a failure
        return None
    at = [(what, version) for n, what, version in found if n == line]
    return at[0] if at else None


class TreeStore:
    """Parsed trees kept for the project driver's later rounds.

    A file that receives new facts from other modules is linted again; with its
    tree still here (same path, same text) that costs the analysis alone, not
    CPython's parse, the guards and libcst's parse again.  Bounded by an
    estimate of the trees' memory (``TREE_BYTES_PER_CHAR`` times the text);
    once full, later files are simply parsed again when they come back."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._trees: dict[str, tuple[str, cst.Module, bool]] = {}
        # what later rounds would compute again from the same text: the summary of the
        # kept tree (``summary``: (tree, module name, is_package, summary)), the lines
        # of the calls in the scopes ``_fill_lines`` walked (``lines``) and the tree's
        # loop-call walk (``repeats``: (tree, model/repeats.Walk), a function of the tree alone)
        self._derived: dict[str, dict] = {}

    def derived(self, path: str, text: str, module: Optional[cst.Module] = None) -> Optional[dict]:
        """The derived data kept with ``path``'s tree (a dict to read and fill), or
        None when no tree of this text (or not ``module``, when given) is kept."""
        entry = self._trees.get(path)
        if entry is None or entry[0] != text or (module is not None and entry[1] is not module):
            return None
        return self._derived.setdefault(path, {})

    def get(self, path: str, text: str) -> Optional[tuple[cst.Module, bool]]:
        """(the tree, whether it was built from CPython's tree), or None."""
        entry = self._trees.get(path)
        if entry is None:
            return None
        if entry[0] != text:  # the file changed between rounds
            self.used -= len(entry[0]) * TREE_BYTES_PER_CHAR
            del self._trees[path]
            self._derived.pop(path, None)
            return None
        return entry[1], entry[2]

    def put(self, path: str, text: str, module: cst.Module, built: bool = False) -> None:
        old = self._trees.get(path)
        if old is not None and old[0] == text:
            if old[2] and not built:  # libcst's tree replaces the one built from CPython's
                self._trees[path] = (text, module, built)
                derived = self._derived.get(path, {})
                derived.pop("summary", None)  # (they hold the built tree)
                derived.pop("repeats", None)
                gc.freeze()
            return
        cost = len(text) * TREE_BYTES_PER_CHAR
        if old is not None or self.used + cost > self.budget:
            return
        self._trees[path] = (text, module, built)
        self.used += cost
        # The cyclic collector would scan every kept tree again and again (measured:
        # it ate the whole gain).  Trees hold no cycles: out of its sight they are
        # still freed by reference counting.  At this point (called right after the
        # parse, with the collector off, which collected the youngest generation
        # just before) that generation holds this tree and little else.
        gc.freeze()


_parse_module = unvalidated_parser()

# libcst's tree of a file takes about this many bytes per character of source (measured on optax: 24)
TREE_BYTES_PER_CHAR = 24

# How ``lint_source`` obtains libcst's tree of a file that CPython accepted and the
# guard let through (the ``parse`` strategy):
FASTPARSE = "fastparse"  # built from CPython's tree; libcst's parser only where a rule reports
LIBCST = "libcst"  # libcst's own parser


class PrebuiltParse(Protocol):
    """A ``parse`` strategy that brings its own tree (the language server's
    ``IncrementalParser``, which re-parses only the statements an edit touched).

    ``parse`` gets the text and CPython's tree of it, both already checked (valid
    Python, within the guard's limits, not skipped), and returns libcst's tree of
    the text, equal to ``libcst.parse_module``'s, or None: then the file is parsed
    as with ``FASTPARSE``.  The analysis of that tree runs inside ``analysis()``."""

    def parse(self, text: str, tree: ast.Module) -> Optional[cst.Module]: ...

    def analysis(self) -> AbstractContextManager: ...


ParseStrategy = Union[str, PrebuiltParse]


def lint_source(
    source: Union[str, bytes],
    path: str,
    settings: LintSettings,
    *,
    parse: ParseStrategy = FASTPARSE,
    prefilter: bool = True,
    trees: Optional[TreeStore] = None,
) -> FileResult:
    """Lint the text of one file.  ``path`` is used for messages only.

    Every file is decoded, then parsed by CPython (cheap; also the judge of
    valid Python: what it refuses gets JAX001), then measured against the
    nesting and length limits (``jaxlint.parse.guard``), and only then parsed by
    libcst and analysed.  A file that does not mention JAX is only checked for
    being valid Python.  Raises nothing for bad input: what cannot be checked
    gets ``FileResult.error`` ("could not be checked: ...").

    With ``settings.module`` set (the file is part of a project the driver
    indexes), ``FileResult.project`` carries the file's summary and what it tells
    the other modules; ``settings.facts`` is what they tell it.  ``trees``
    keeps parsed trees between the driver's rounds (see ``TreeStore``).

    ``parse`` says how libcst's tree is obtained once every check has passed:
    ``FASTPARSE`` (the default), ``LIBCST``, or a ``PrebuiltParse`` (the
    language server's incremental parser).  The findings are the same.
    """
    if isinstance(parse, str) and parse not in (FASTPARSE, LIBCST):
        raise ValueError(f"unknown parse strategy {parse!r} (expected {FASTPARSE!r}, {LIBCST!r} or a PrebuiltParse)")
    if isinstance(source, bytes) and path.endswith(".ipynb"):
        return lint_notebook(source, path, settings, parse=parse, prefilter=prefilter, trees=trees)
    result = FileResult(path=path)
    if settings.facts or settings.summarize or '"units":[[' in settings.observed:
        prefilter = False  # a helper module that never names JAX can still run traced
    if isinstance(source, bytes):
        text, err = decode_source(source)
        if text is None:
            result.error = err
            return result
    else:
        text = source
    if "# jaxlint: skip-file" in text and _has_skip_file(text):
        return result
    result = _lint_text(result, text, path, settings, parse, prefilter, trees)
    if "JAX002" in settings.select and result.error is None and not any(
            f.code == "JAX001" for f in result.findings):
        result.findings.extend(unknown_noqa_codes(text, path))
    return result


def unknown_noqa_codes(text: str, path: str) -> list[Finding]:
    """JAX002: a jaxlint code in a ``# noqa`` or ``# jaxlint: ignore[...]`` comment that
    names no rule (it suppresses nothing), one finding per code written, at the code,
    with a safe fix that removes it (not where removing it would leave a blanket
    ``# noqa``, nor a comment that goes on after the code); unless the line's own
    directive suppresses JAX002."""
    from jaxlint.engine.suppression import Suppressions, has_directive, unknown_codes

    if not has_directive(text):
        return []
    from jaxlint.rules import all_rules

    known = {r.code for r in all_rules()}
    found = unknown_codes(text, known)
    if not found:
        return []
    from jaxlint.findings import Applicability, Edit, Fix
    from jaxlint.parse.lines import split_lines

    lines = split_lines(text)
    suppressions = Suppressions(text)
    findings = []
    for u in found:
        if suppressions.is_suppressed("JAX002", u.line):
            continue
        spelled = "`# noqa`" if u.kind == "noqa" else "`# jaxlint: ignore[...]`"
        if u.code[:3].upper() == "JAX":
            close, what = _close_codes(u.code, known), "code"
        else:  # a rule name in `# jaxlint: ignore[...]`
            import difflib

            from jaxlint.engine.suppression import RULE_NAMES

            close, what = difflib.get_close_matches(u.code.lower(), RULE_NAMES, n=3), "name"
        message = (f"`{u.code}` in {spelled} is not a jaxlint rule {what}, so it suppresses nothing"
                   + (": did you mean " + " or ".join(f"`{c}`" for c in close) + "?" if close
                      else " (see `jaxlint rules`)"))
        fix = None
        if u.fix is not None:
            a, b = u.fix
            line = lines[u.line - 1]
            fix = Fix(Applicability.SAFE, "Remove the directive" if "#" in line[a:b] else f"Remove `{u.code}`",
                      (Edit(u.line, a + 1, u.line, b + 1, "", original=line[a:b]),))
        findings.append(Finding(
            code="JAX002", name="unknown-noqa-code", message=message, path=path,
            line=u.line, col=u.col + 1, end_line=u.line, end_col=u.end_col + 1,
            severity=Severity.WARNING, fix=fix))
    return findings


def _close_codes(code: str, known: set[str]) -> list[str]:
    """The rule codes that ``code`` may be a slip for: the same without a dash or an
    underscore (``JAX-101``), else every code one keystroke away (a digit added,
    dropped, changed or two swapped); at most three, in order."""
    plain = re.sub(r"[-_]", "", code.upper())
    if plain in known:
        return [plain]
    digits = plain[3:]
    if not plain.startswith("JAX") or not digits.isdigit():
        return []
    near = set()
    for i in range(len(digits) + 1):
        near.update(digits[:i] + d + digits[i:] for d in "0123456789")  # added
        if i < len(digits):
            near.add(digits[:i] + digits[i + 1:])  # dropped
            near.update(digits[:i] + d + digits[i + 1:] for d in "0123456789")  # changed
        if i + 1 < len(digits):
            near.add(digits[:i] + digits[i + 1] + digits[i] + digits[i + 2:])  # swapped
    found = sorted(c for c in (f"JAX{n}" for n in near) if c in known)
    return found if len(found) <= 3 else []


def _lint_text(result: FileResult, text: str, path: str, settings: LintSettings, parse: ParseStrategy,
               prefilter: bool, trees: Optional[TreeStore]) -> FileResult:
    """``lint_source`` once the text is decoded (every rule but JAX002)."""
    # The cyclic GC would rescan the whole syntax tree again and again while it
    # is alive (measured: ~0.15x a parse); nothing made here needs it before
    # the file is done, so collect only between files.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        kept = trees.get(path, text) if trees is not None else None
        if kept is not None:  # linted before in this run: valid, within the limits, parsed
            result = _parse_and_analyze(result, text, path, settings, kept[0], trees, built=kept[1])
            if result.project is not None and (result.project.get("calls") or result.project.get("sites")):
                lines = (trees.derived(path, text) or {}).get("lines")  # type: ignore[union-attr]
                if lines is None or not _fill_lines_from(result.project, lines):
                    tree, _ = python_syntax_error(text, path)
                    if tree is not None:
                        _fill_lines(result.project, tree, trees.derived(path, text))  # type: ignore[union-attr]
            return result
        tree, bad = python_syntax_error(text, path)
        if bad is not None:
            newer = _newer_syntax(text, bad)
            if newer is None:
                if "JAX001" in settings.select:
                    result.findings.append(bad)
                return result
            # syntax newer than this Python (PEP 695 `type X = ...`, `class C[T]`) that
            # libcst's grammar reads: checked on libcst's tree alone (no CPython tree for
            # the fast path, the limits guard or the call lines); "could not be checked"
            # only where that analysis fails
            if prefilter and not mentions_jax(text) and settings.module is None:
                return result
            return _newer_syntax_checked(result, text, path, settings, trees, newer)
        skipped = prefilter and not mentions_jax(text)
        if skipped and settings.module is None:
            return result
        try:
            check_limits(tree, text)  # type: ignore[arg-type]
        except LimitExceeded as exc:
            hidden = _without_tables(result, text, path, settings, parse, prefilter, trees, tree)  # type: ignore[arg-type]
            if hidden is not None:
                return hidden
            if not skipped:
                result.error = f"could not be checked: {exc.message}"
            return result
        if skipped:
            # a project module that never names JAX: not analysed (unless facts or an
            # import of a jit bring it back), but its summary lets the project resolve
            # calls into it from the first round
            result.project = _summary_only(text, tree, settings)  # type: ignore[arg-type]
            return result
        # CPython's tree goes in a box that the parse below may empty: a file with a
        # finding is parsed by libcst, and both trees at once cost their sum
        box: list[Optional[ast.Module]] = [tree]  # type: ignore[list-item]
        del tree
        if parse == LIBCST:
            result = _parse_and_analyze(result, text, path, settings, trees=trees)
        elif isinstance(parse, str):
            result = _parse_and_analyze(result, text, path, settings, trees=trees, tree=box)
        else:
            module = parse.parse(text, box[0])  # type: ignore[arg-type]
            if module is None:
                result = _parse_and_analyze(result, text, path, settings, trees=trees, tree=box)
            else:
                with parse.analysis():
                    result = _parse_and_analyze(result, text, path, settings, module)
        if result.project is not None and (result.project.get("calls") or result.project.get("sites")):
            tree = box[0] if box[0] is not None else python_syntax_error(text, path)[0]
            if tree is not None:
                _fill_lines(result.project, tree, trees.derived(path, text) if trees is not None else None)
        return result
    finally:
        if gc_was_enabled:
            gc.enable()


def _newer_syntax_checked(result: FileResult, text: str, path: str, settings: LintSettings,
                          trees: Optional[TreeStore], newer: str) -> FileResult:
    """A file only libcst's grammar reads on this Python, analysed on libcst's tree; a
    failure there is the file's "could not be checked" line (``newer``), never a crash."""
    try:
        return _parse_and_analyze(result, text, path, settings, trees=trees)
    except (RecursionError, MemoryError, cst.ParserSyntaxError):
        result.findings.clear()
        result.project = None
        result.error = newer
        return result


def _without_tables(result: FileResult, text: str, path: str, settings: LintSettings,
                    parse: ParseStrategy, prefilter: bool, trees: Optional[TreeStore],
                    tree: ast.Module) -> Optional[FileResult]:
    """A file over the parser's limits because of a literal of constants (a
    generated table): linted with every such table hidden (``blank_constant_tables``:
    the same lines and columns, the table's value unknown).  A fix that would
    touch a hidden table is dropped.  None when that does not bring the file
    within the limits."""
    blanked = blank_constant_tables(tree, text)
    if blanked is None:
        return None
    hidden_text, spans = blanked
    hidden_tree, bad = python_syntax_error(hidden_text, path)
    if hidden_tree is None or bad is not None:
        return None
    try:
        check_limits(hidden_tree, hidden_text)
    except LimitExceeded:
        return None
    del hidden_tree
    result = _lint_text(result, hidden_text, path, settings, parse, prefilter, trees)
    offsets = LineIndex(hidden_text)

    def touches(f: Finding) -> bool:
        for e in f.fix.edits:  # type: ignore[union-attr]
            a, b = offsets.offset(e.line, e.col), offsets.offset(e.end_line, e.end_col)
            if any(a < end and b > start or a == b and start < a < end for start, end in spans):
                return True
        return False

    result.findings = [replace(f, fix=None) if f.fix is not None and touches(f) else f
                       for f in result.findings]
    return result


def lint_notebook(
    data: bytes,
    path: str,
    settings: LintSettings,
    *,
    parse: ParseStrategy = FASTPARSE,
    prefilter: bool = True,
    trees: Optional[TreeStore] = None,
) -> FileResult:
    """Lint a Jupyter notebook: its code cells in order as one module
    (``jaxlint.parse.notebook``), each finding mapped to its cell, line and column.
    A file that is not an nbformat-4 notebook gets JAX001 with one line; an empty file
    (no bytes but blank ones) has no code and gets nothing, like an empty ``.py``."""
    from jaxlint.parse.notebook import Notebook, NotebookError, map_findings

    body = data[3:] if data.startswith(codecs.BOM_UTF8) else data
    try:  # a notebook is JSON, UTF-8: bytes that are not cannot be checked, as in a .py
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return FileResult(path=path, error=undecodable(body, "utf-8", exc, cookie=False))
    if not body.strip():
        return FileResult(path=path)  # an empty file (0 bytes, or only blank lines): no cells, no
        # code, as silent as an empty `.py` (not an unreadable notebook; other JSON errors are)
    try:
        nb = Notebook.from_bytes(data)
    except NotebookError as exc:
        result = FileResult(path=path)
        if "JAX001" in settings.select:
            reason = re.sub(r"^not a notebook( jaxlint reads)?: ", "", exc.short)  # said once
            # at the place the JSON goes wrong (the excerpt shows that line)
            result.findings.append(replace(_finding(path, exc.line, exc.col, reason),
                                           message=f"The notebook cannot be read: {reason}"))
        return result
    result = lint_source(nb.text, path, settings, parse=parse, prefilter=prefilter, trees=trees)
    others = False  # the cells that parse were linted around one that does not
    if not result.parsed and result.error is None and len(nb.code_cells) > 1:
        alone = _without_bad_cells(nb, path, settings, parse, prefilter, trees)
        if alone is not None:
            result, others = alone, True
    if any(f.fix is not None for f in result.findings):
        # a fix that would change a line of IPython syntax cannot be written back: not offered
        rewritten = nb.rewritten_lines()
        if rewritten:
            result.findings = [replace(f, fix=None) if f.fix is not None and touches_lines(f, rewritten) else f
                               for f in result.findings]
    result.findings = [_cell_error(f, others) if f.code == "JAX001" else f
                       for f in map_findings(nb, result.findings)]
    if any(f.fix is not None for f in result.findings):
        from jaxlint.parse.notebook import writable

        if not writable(nb):  # --fix would refuse it: not fixable, no [*]
            result.findings = [replace(f, fix=None) if f.fix is not None else f
                               for f in result.findings]
    for rec in (*(result.project or {}).get("calls", ()), *(result.project or {}).get("sites", ())):
        if rec.get("line"):  # where the chain messages of other files say the call is
            rec["cell"], rec["line"], _ = nb.position(rec["line"], 1)
    return result


def _cell_error(f: Finding, others: bool) -> Finding:
    """A notebook's syntax error names the cell, not the file (Jupyter compiles each
    cell by itself), and says when the other cells were still checked (``others``:
    ``_without_bad_cells`` linted them around it)."""
    if f.cell is None or not f.message.startswith("The file does not parse: "):
        return f
    said = f.message.removeprefix("The file does not parse: ")
    rest = "; the notebook's other cells are checked" if others else ""
    return replace(f, message=f"The cell does not parse: {said}{rest}")


def touches_lines(f: Finding, lines: frozenset[int]) -> bool:
    """Does a fix of ``f`` edit one of ``lines`` (1-based)?"""
    return any(n in lines for e in f.fix.edits for n in range(e.line, e.end_line + 1))  # type: ignore[union-attr]


def _without_bad_cells(nb, path: str, settings: LintSettings, parse: ParseStrategy, prefilter: bool,
                       trees: Optional[TreeStore]) -> Optional[FileResult]:
    """A notebook whose cells do not parse together because some do not parse
    alone (Jupyter compiles each cell by itself, and runs the others): the other
    cells linted with those set aside (their lines kept, blank), and JAX001 for
    each of them.  No fix is offered (``--fix`` refuses a file that does not
    parse).  None when the notebook parses, or no cell alone is at fault."""
    _, bad = python_syntax_error(nb.text, path)
    if bad is None:
        return None
    parts: list[str] = []
    errors: list[Finding] = []
    line = 1  # the virtual line where the cell starts
    for i, number in enumerate(nb.code_cells):
        if i:
            parts.append(nb.text_boundary(number))
            line += 1
        virtual = nb.virtual_cells[number]
        _, cell_bad = python_syntax_error("".join(virtual), path)
        if cell_bad is None:
            parts.extend(virtual)
        else:
            errors.append(replace(cell_bad, line=cell_bad.line + line - 1, end_line=cell_bad.end_line + line - 1))
            parts.extend(LINE_ENDING_ONLY.sub("", v) for v in virtual)
        line += len(virtual)
    if not errors:
        return None
    result = lint_source("".join(parts), path, settings, parse=parse, prefilter=prefilter, trees=trees)
    findings = [replace(f, fix=None) if f.fix is not None else f for f in result.findings]
    if "JAX001" in settings.select:
        findings = sorted(findings + errors, key=lambda f: (f.line, f.col, f.code))
    result.findings = findings
    return result


LINE_ENDING_ONLY = re.compile(r"[^\r\n]")


def _parse_and_analyze(result: FileResult, text: str, path: str, settings: LintSettings,
                       module: Optional[cst.Module] = None, trees: Optional[TreeStore] = None,
                       tree: Optional[list] = None, built: bool = False) -> FileResult:
    """Parse (unless ``module`` is given) and analyse.  With CPython's tree
    (``tree``: a one-item list, emptied before libcst's parse so that the two
    trees are not alive together) the analysis first runs on a libcst tree built
    from it (``jaxlint.parse.fastparse``, a fraction of libcst's parse); only a file
    where a rule reports something is parsed by libcst and analysed again on
    that tree, which gives every position, message and fix."""
    from jaxlint.engine import NeedsSourceTree

    keep = trees is not None and settings.module is not None
    if module is None and tree is not None and tree[0] is not None:
        if keep:
            gc.collect(0)  # what the last file left for the collector: not to be frozen with this tree
        module = _built_tree(tree[0], text)
        if module is not None:
            built = True
            if keep:
                trees.put(path, text, module, built=True)  # type: ignore[union-attr]
    if module is None:
        if tree is not None:
            tree[0] = None
        module = _libcst_parse(result, text, path, trees if keep else None)
        if module is None:
            return result
    result.parsed = True
    try:
        return _analyze(result, module, text, path, settings, built, trees if keep else None)
    except NeedsSourceTree:
        pass
    # Out of the handler: its traceback holds the first analysis's frames, and with them
    # its cyclic state (and the built tree).  Still alive at the collection before
    # libcst's parse, they would be frozen with the new tree (TreeStore.put) and never freed.
    module = None  # the built tree (kept in ``trees`` if it is to be kept)
    if tree is not None:
        tree[0] = None
    module = _libcst_parse(result, text, path, trees if keep else None)
    if module is None:
        return result
    return _analyze(result, module, text, path, settings, False, trees if keep else None)


def _built_tree(tree: ast.Module, text: str) -> Optional[cst.Module]:
    """A libcst tree built from CPython's (``jaxlint.parse.fastparse``); None where
    only libcst's parser will do."""
    from jaxlint.parse import fastparse

    try:
        return fastparse.from_ast(tree, text)
    except (fastparse.Unsupported, RecursionError, MemoryError):
        return None


def _summary_only(text: str, tree: ast.Module, settings: LintSettings) -> Optional[dict]:
    """The project output of a file the prefilter skips: its summary alone
    (``"skipped": True``; no calls, no sites, no findings)."""
    from jaxlint.model.summary import extract_summary

    try:
        module = _built_tree(tree, text)
        if module is None:
            module = _parse_module(text)
        summary = extract_summary(module, settings.module, settings.is_package)  # type: ignore[arg-type]
    except (cst.ParserSyntaxError, RecursionError, MemoryError):
        return None
    out = {"calls": [], "sites": [], "summary": summary, "skipped": True}
    displays = _display_returns(module)
    from jaxlint.model.kinds import counter_return, display_elements

    for stmt in module.body:
        counter = (counter_return(stmt) or display_elements(stmt)) if type(stmt) is cst.FunctionDef \
            and stmt.name.value not in displays else None
        if counter is not None:
            # a schedule of a loop counter (JAX504); a tuple holding a list/dict/set (JAX207)
            displays[stmt.name.value] = counter
    if displays:
        out["displays"] = displays  # its functions that build a list/dict/set (JAX207's helpers)
    from jaxlint.model.kinds import display_constants

    constants = display_constants(module)
    if constants:
        out["values"] = constants  # its module-level list/dict/set constants (JAX207's static arguments)
    hashing = _hashing_records(module, summary.get("names") or {})
    if hashing:
        out["pytrees"] = hashing  # how its classes' instances hash (a config dataclass: JAX207)
    if ("__exit__" in text or "contextmanager" in text) and ("time" in text):
        # its context managers that time the block they wrap (JAX505: `with stopwatch():`)
        from jaxlint.model.index import build_index
        from jaxlint.model.timers import module_timers

        index = build_index(module)
        timers = module_timers(index, index.imports.resolve_expr)
        if timers:
            out["timers"] = timers
    from jaxlint.model.x64 import import_time_arrays

    names = summary.get("names") or {}
    packages = settings.project_packages

    def from_project(head: str) -> bool:
        bound = names.get(head) or {}
        return bound.get("k") in ("from", "module") and (bound.get("m") or "").split(".", 1)[0] in packages
    _, calls = import_time_arrays(module, lambda n: None, (), from_project)
    if calls:
        out["import_calls"] = [list(c) for c in calls]  # its top level calls these imported functions
    from jaxlint.model.program_order import global_setters, imported_attribute_writes

    def imported(head: str) -> Optional[str]:
        bound = names.get(head) or {}
        if bound.get("k") == "from":
            return f"{bound.get('m')}.{bound.get('n')}"
        return bound.get("m") if bound.get("k") == "module" else None
    rebound = imported_attribute_writes(module, imported, packages, text)
    if rebound:
        out["mod_writes"] = rebound  # attributes of project modules it rebinds (`config.CAPACITY = n`)
    setters = global_setters(module, text)
    if setters:
        out["setters"] = setters  # its functions that rebind its module-level names (`global TEMPERATURE`)
    return out


def _hashing_records(module: cst.Module, names: dict) -> dict[str, dict]:
    """The module-level classes of a file the prefilter skips whose hashing the model
    can tell (``model/hashing.py``: a plain ``@dataclass`` has none, a frozen one hashes
    its fields): {name: a class record holding only ``hash``}, as the classes of a file
    that names JAX give theirs (``pytrees``).  Its imports resolve names (``dataclass``
    from ``dataclasses``); nothing else of the file is read."""
    from jaxlint.model.hashing import class_hashing
    from jaxlint.model.walk import dotted_name

    def qualname(expr: cst.CSTNode) -> Optional[str]:
        written = dotted_name(expr)
        if written is None:
            return None
        head, _, rest = written.partition(".")
        bound = names.get(head)
        if not bound or bound.get("k") not in ("from", "module"):
            return None
        full = f"{bound.get('m')}.{bound.get('n')}" if bound.get("k") == "from" else bound.get("m")
        return f"{full}.{rest}" if rest else full

    out: dict[str, dict] = {}
    for stmt in module.body:
        if type(stmt) is not cst.ClassDef:
            continue
        bases = [q for b in stmt.bases if b.keyword is None and (q := qualname(b.value))]
        how = class_hashing(stmt, bases, qualname)
        if how is not None:
            out[stmt.name.value] = {"reg": None, "bases": bases, "fields": {}, "ann": {},
                                    "hash": how._asdict()}
    return out


def _display_returns(module: cst.Module) -> dict[str, str]:
    """The module-level functions of a file the prefilter skips whose every return is a
    list/dict/set display (``def make_dims(n): return [n, n]``): {name: kind}, as
    ``model/kinds.py``'s ``display_return`` names them.  Only functions whose last
    statement returns a display are looked into."""
    from jaxlint.model.kinds import DISPLAY
    from jaxlint.model.walk import walk_tree

    kinds = {cst.List: "list", cst.ListComp: "list", cst.Dict: "dict", cst.DictComp: "dict",
             cst.Set: "set", cst.SetComp: "set"}
    out: dict[str, str] = {}
    for stmt in module.body:
        if type(stmt) is not cst.FunctionDef or stmt.decorators:
            continue
        body = stmt.body.body
        last = body[-1] if body else None
        if type(last) is cst.SimpleStatementLine:
            last = last.body[-1]
        if type(last) is not cst.Return or type(last.value) not in kinds:
            continue
        kind = kinds[type(last.value)]
        ok = True
        for n in walk_tree(stmt.body, lambda n: type(n) in (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            t = type(n)
            if t is cst.Yield or (t is cst.Return and kinds.get(type(n.value)) != kind):
                ok = False
                break
        if ok:
            out[stmt.name.value] = DISPLAY + kind
    return out


def _libcst_parse(result: FileResult, text: str, path: str, trees: Optional[TreeStore]) -> Optional[cst.Module]:
    try:
        if trees is not None:
            gc.collect(0)  # what the last file left for the collector: not to be frozen with this tree
        module = _parse_module(text)
    except cst.ParserSyntaxError as exc:
        # CPython accepted the file: this is a limit of libcst's grammar, not the user's error
        raw = str(getattr(exc, "message", None) or exc).strip()
        first = raw.splitlines()[0] if raw else "syntax error"
        line = getattr(exc, "raw_line", None) or 1
        result.parsed = False
        result.error = f"could not be checked: libcst cannot parse it (line {line}: {first})"
        return None
    except (RecursionError, MemoryError) as exc:  # pathological input
        result.parsed = False
        result.error = f"could not be checked: the parser ran out of {_resource(exc)}"
        return None
    if trees is not None:
        trees.put(path, text, module)
    return module


def _analyze(result: FileResult, module: cst.Module, text: str, path: str, settings: LintSettings,
             built: bool, trees: Optional[TreeStore] = None) -> FileResult:
    from jaxlint.engine import NeedsSourceTree, analyze
    from jaxlint.rules import all_rules

    # the analysis may raise the recursion limit; CPython's parse of the next file
    # (whose nesting limit follows it) must not depend on which files came before
    limit = sys.getrecursionlimit()
    try:
        if settings.module is None:
            findings = analyze(module, text, path, settings, all_rules(), built=built)
        else:
            from jaxlint.model.summary import extract_summary

            from jaxlint.model import repeats

            facts = json.loads(settings.facts) if settings.facts else None
            out: dict = {}
            # what depends on the tree alone (its summary, its loop-call walk): a later
            # round of the kept tree reuses it
            derived = trees.derived(path, text, module) if trees is not None else None
            walk = derived.get("repeats") if derived is not None else None
            if walk is not None and walk[0] is module:
                repeats.adopt(module, walk[1])
            findings = analyze(module, text, path, settings, all_rules(), facts, out, built=built)
            if derived is not None and walk is None:
                made = repeats.kept(module)
                if made is not None:
                    derived["repeats"] = (module, made)
            known = derived.get("summary") if derived is not None else None
            if known is not None and known[0] is module and known[1:3] == (settings.module, settings.is_package):
                out["summary"] = known[3]
            else:
                out["summary"] = extract_summary(module, settings.module, settings.is_package)
                if derived is not None:
                    derived["summary"] = (module, settings.module, settings.is_package, out["summary"])
            result.project = out
    except NeedsSourceTree:
        raise
    except (RecursionError, MemoryError) as exc:
        result.parsed = False
        result.error = f"could not be checked: the analysis ran out of {_resource(exc)}"
        return result
    finally:
        sys.setrecursionlimit(limit)
    result.findings.extend(findings)
    result.findings.sort(key=Finding.sort_key)
    return result


def _fill_lines(project: dict, tree: ast.AST, keep: Optional[dict] = None) -> None:
    """The lines of the calls and sites a file tells its project about, from
    CPython's tree (already there: no codegen of the libcst tree): the first call
    of ``callee`` (or the first call with it as an argument) in its function.
    ``keep``: a dict kept with the file's tree (``TreeStore.derived``), where the
    lines found are left for a later round (``_fill_lines_from``)."""
    if not (project.get("calls") or project.get("sites")):
        return
    lines = _call_lines(tree, _scopes_of(project))
    _fill_lines_from(project, lines, strict=False)
    if keep is not None:
        known = keep.get("lines")
        if known is not None:  # the scopes walked now, beside those walked before
            lines = (lines[0] | known[0], {**known[1], **lines[1]}, {**known[2], **lines[2]})
        keep["lines"] = lines


def _scopes_of(project: dict) -> set[str]:
    scopes = {c.get("caller", "") for c in project.get("calls", ())}
    scopes |= {site.get("scope", "") for site in project.get("sites", ())}
    return scopes


def _call_lines(tree: ast.AST, scopes: set[str]) -> tuple[frozenset, dict, dict]:
    """(the scopes walked, (scope, callee) -> line of its first call, ... of the
    first call it is an argument of) for the functions (and the classes around
    them) named in ``scopes``, and the module's own code."""
    first: dict[tuple[str, str], int] = {}  # (scope, callee) -> line of its first call
    passed: dict[tuple[str, str], int] = {}  # ... of the first call it is an argument of

    def dotted(e: ast.AST) -> Optional[str]:
        parts = []
        while isinstance(e, ast.Attribute):
            parts.append(e.attr)
            e = e.value
        if isinstance(e, ast.Name):
            parts.append(e.id)
            return ".".join(reversed(parts))
        return None

    # only the functions (and the classes around them) that the records name are walked
    around = {".".join(parts[:i]) for s in scopes if s for parts in [s.split(".")] for i in range(1, len(parts) + 1)}
    walked = {""}
    stack: list[tuple[ast.AST, str]] = [(tree, "")]
    while stack:
        node, scope = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = f"{scope}.{child.name}" if scope else child.name
                if inner in around:
                    walked.add(inner)
                    stack.append((child, inner))
                continue
            if isinstance(child, ast.Call):
                name = dotted(child.func)
                if name is not None:
                    key = (scope, name)
                    if key not in first or child.lineno < first[key]:
                        first[key] = child.lineno
                if isinstance(child.func, ast.Attribute):
                    key = (scope, "." + child.func.attr)  # `Cls(x).method(...)`: a method's record
                    if key not in first or child.lineno < first[key]:
                        first[key] = child.lineno
                for arg in child.args:
                    name = dotted(arg)
                    if name is not None:
                        key = (scope, name)
                        if key not in passed or child.lineno < passed[key]:
                            passed[key] = child.lineno
            elif isinstance(child, ast.Subscript):
                key = (scope, "[" + (dotted(child.value) or ""))  # `d[i]`: a call of `__getitem__`
                if key not in first or child.lineno < first[key]:
                    first[key] = child.lineno
            elif isinstance(child, ast.Attribute) and isinstance(child.ctx, ast.Load):
                key = (scope, "." + child.attr)  # `cosmo.k`: a property's record (a call's, above, first)
                if key not in first:
                    first[key] = child.lineno
            stack.append((child, scope))
    return frozenset(walked), first, passed


def _fill_lines_from(project: dict, lines: tuple[frozenset, dict, dict], strict: bool = True) -> bool:
    """Fill the lines from ``_call_lines``' maps.  ``strict`` (maps kept from an
    earlier walk): False, and nothing filled, when a record's scope was not walked
    for them (a walk of the tree decides; a scope no walk enters, a lambda's, gets 0)."""
    walked, first, passed = lines
    if strict and not _scopes_of(project) <= walked:
        return False
    # a call: where the callee is called, else handed on (`jax.grad(f)(x)`); a site:
    # where the function is handed to the transformation, else called
    for c in project.get("calls", ()):
        key = (c["caller"], c.get("method") or c["callee"])
        c["line"] = first.get(key) or passed.get(key, 0)
    for site in project.get("sites", ()):
        key = (site.get("scope", ""), site.get("method") or site["callee"])
        site["line"] = passed.get(key) or first.get(key, 0)
    return True


def _resource(exc: BaseException) -> str:
    return "stack (the code is nested too deeply)" if isinstance(exc, RecursionError) else "memory"


_SKIP_FILE_RE = re.compile(r"^\s*#\s*jaxlint:\s*skip-file\b", re.MULTILINE)


def _has_skip_file(text: str) -> bool:
    return _SKIP_FILE_RE.search(text) is not None
