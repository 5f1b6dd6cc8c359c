"""The language server's logic, free of any client or transport.

Everything here is a plain function (or a small class) over jaxlint's own
results and lsprotocol's types, so each piece is tested without a client:

* ``Positions``: jaxlint counts 1-based lines and columns in characters; LSP
  counts 0-based lines and columns in UTF-16 code units (or UTF-8 / UTF-32,
  when negotiated).  Lines end at ``\\n``, ``\\r\\n`` or ``\\r`` in both.
* ``ClientSettings``: select / ignore / extend-select (and a configuration
  file) from ``initializationOptions`` or ``workspace/didChangeConfiguration``,
  in the shapes Ruff's server accepts them.
* ``SettingsResolver``: the configuration of each file exactly as the CLI
  finds it (``ConfigStore``: the nearest pyproject.toml / jaxlint.toml,
  per-file-ignores, excludes), one store per workspace folder.
* ``lint_text``: lint an in-memory buffer; a rule that raises is left out
  (and named) while the other rules still report.
* ``diagnostic``: a Finding as an LSP Diagnostic.
* ``fix_action`` / ``noqa_action`` / ``fix_all_edits``: code actions, built
  from the Finding's own fix, ``fixer.add_noqa`` and ``fixer.fix_text`` (the
  CLI's verified ``--fix``).
* ``noqa_hover``: the summary of the rule whose code is under the cursor in a
  ``# noqa:`` / ``# jaxlint: ignore[...]`` comment.
"""

from __future__ import annotations

import bisect
import re
import traceback
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence

from lsprotocol import types

from jaxlint.workspace.config import CONFIG_FILENAMES, ConfigStore, Overrides
from jaxlint.findings import Applicability, FileResult, Finding, Severity
from jaxlint.engine.fixes import plan_edits
from jaxlint.parse.lines import LINE_BREAK, line_starts
from jaxlint.workspace.ruleinfo import RuleInfo, expand_selector
from jaxlint.settings import LintSettings

SOURCE = "jaxlint"
FIX_ALL_KIND = "source.fixAll.jaxlint"
CMD_APPLY_FIX = "jaxlint.applyFix"
CMD_ADD_NOQA = "jaxlint.addNoqa"
CMD_FIX_ALL = "jaxlint.applyAutofix"
COMMANDS = (CMD_APPLY_FIX, CMD_ADD_NOQA, CMD_FIX_ALL)

# rules about JAX APIs that are deprecated or were removed: editors strike them through
DEPRECATED_CODES = frozenset({"JAX901", "JAX902", "JAX903", "JAX904", "JAX905"})
# code that does nothing (the updated copy is thrown away): editors fade it
UNNECESSARY_CODES = frozenset({"JAX102"})

# Rules whose message names a second line (the engine fills ``{related_line}``
# from the node it relates the finding to); what that line is, per rule.
RELATED_LABELS = {
    "JAX301": "the key was first used here",
    "JAX405": "the global is reassigned here",
    "JAX123": "JAX arrays were first created here",
    "JAX505": "the JAX computation started here",
    "JAX506": "the argument was donated here",
}
_RELATED_RE = re.compile(r"\bline (\d+)\b")

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}

_LINE_SPLIT_RE = LINE_BREAK  # jaxlint.parse.lines: lines as CPython counts them


# ----------------------------------------------------------------------------- positions


class Positions:
    """Convert between jaxlint's character positions and LSP positions in one text."""

    def __init__(self, text: str, encoding: str = types.PositionEncodingKind.Utf16) -> None:
        self.text = text
        self.encoding = str(getattr(encoding, "value", encoding))
        self.offsets = line_starts(text)  # start offset of each line (1-based index - 1)
        self._lines: Optional[list[str]] = None

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = _LINE_SPLIT_RE.split(self.text)
        return self._lines

    def line_text(self, line0: int) -> str:
        lines = self.lines
        return lines[line0] if 0 <= line0 < len(lines) else ""

    def _units(self, s: str) -> int:
        if self.encoding == types.PositionEncodingKind.Utf8.value:
            return len(s.encode("utf-8", "surrogatepass"))
        if self.encoding == types.PositionEncodingKind.Utf32.value:
            return len(s)
        return len(s.encode("utf-16-le", "surrogatepass")) // 2

    def position(self, line: int, col: int) -> types.Position:
        """LSP position of jaxlint's 1-based (line, character column)."""
        line0 = max(line - 1, 0)
        if line0 >= len(self.lines):  # past the end: the end of the text
            line0 = len(self.lines) - 1
            return types.Position(line0, self._units(self.lines[line0]))
        text = self.line_text(line0)
        return types.Position(line0, self._units(text[: max(col - 1, 0)]))

    def at_offset(self, offset: int) -> types.Position:
        """LSP position of a character offset into the text."""
        offset = max(0, min(offset, len(self.text)))
        line0 = bisect.bisect_right(self.offsets, offset) - 1
        line0 = min(line0, len(self.lines) - 1)
        return types.Position(line0, self._units(self.text[self.offsets[line0]:offset]))

    def column(self, pos: types.Position) -> int:
        """The 1-based character column of an LSP position (clamped to its line)."""
        text = self.line_text(pos.line)
        units = 0
        for i, ch in enumerate(text):
            if units >= pos.character:
                return i + 1
            units += self._units(ch)
        return len(text) + 1

    def finding_range(self, f: Finding) -> types.Range:
        start = self.position(f.line, f.col)
        end = self.position(f.end_line, f.end_col)
        if (end.line, end.character) < (start.line, start.character):
            end = start
        if f.code == "JAX001" and end == start:
            # a syntax error is a point: show the character there (if any)
            text = self.line_text(start.line)
            col = f.col - 1
            if col < len(text):
                end = types.Position(start.line, start.character + self._units(text[col]))
        return types.Range(start, end)

    def whole_line(self, line: int) -> types.Range:
        """The range of a 1-based line's text without its indentation."""
        text = self.line_text(line - 1)
        body = text.rstrip()
        indent = len(body) - len(body.lstrip())
        return types.Range(
            types.Position(line - 1, self._units(text[:indent])),
            types.Position(line - 1, self._units(body)),
        )


def line_location(path: Path, line: int, text: Optional[str],
                  encoding: str = types.PositionEncodingKind.Utf16) -> types.Location:
    """The location of a 1-based line of another file (its text without the
    indentation; the line's start when the text is not at hand)."""
    if text is None or line < 1:
        start = types.Position(max(line - 1, 0), 0)
        return types.Location(uri=path.as_uri(), range=types.Range(start, start))
    return types.Location(uri=path.as_uri(), range=Positions(text, encoding).whole_line(line))


def ranges_overlap(a: types.Range, b: types.Range) -> bool:
    """Whether two ranges touch (an empty range touches what contains it)."""
    a0, a1 = (a.start.line, a.start.character), (a.end.line, a.end.character)
    b0, b1 = (b.start.line, b.start.character), (b.end.line, b.end.character)
    return a0 <= b1 and b0 <= a1


# ----------------------------------------------------------------------------- settings


_SETTING_KEYS = {
    "select": "select",
    "ignore": "ignore",
    "extendSelect": "extend_select",
    "extend-select": "extend_select",
    "extend_select": "extend_select",
    "configuration": "configuration",
}


@dataclass(frozen=True)
class ClientSettings:
    """Settings an editor passes (initializationOptions / didChangeConfiguration)."""

    select: Optional[tuple[str, ...]] = None
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    configuration: Optional[str] = None  # a config file used for every file (--config)

    @classmethod
    def parse(cls, raw: Any) -> tuple["ClientSettings", list[str]]:
        """(settings, one line per problem).  Accepts ``{"settings": {...}}``,
        ``{"jaxlint": {...}}`` or the settings themselves, with the rule keys at
        top level or under ``"lint"`` (as Ruff's server takes them)."""
        problems: list[str] = []
        if raw is None:
            return cls(), problems
        if not isinstance(raw, dict):
            return cls(), [f"jaxlint settings must be an object, got {type(raw).__name__}"]
        for wrapper in ("settings", "jaxlint"):
            while isinstance(raw.get(wrapper), dict):
                raw = raw[wrapper]
        flat: dict[str, Any] = {}
        for key, value in raw.items():
            if key == "lint" and isinstance(value, dict):
                for k, v in value.items():
                    flat[k] = v
            else:
                flat[key] = value
        values: dict[str, Any] = {}
        for key, value in flat.items():
            attr = _SETTING_KEYS.get(key)
            if attr is None:
                continue  # other clients' or other tools' settings: not ours to judge
            if attr == "configuration":
                if value is None:
                    continue
                if not isinstance(value, str) or not value:
                    problems.append(f"jaxlint setting 'configuration' must be a file path, got {value!r}")
                    continue
                values[attr] = value
                continue
            if value is None:
                continue
            if isinstance(value, str):
                codes = tuple(s.strip() for s in value.split(",") if s.strip())
            elif isinstance(value, list) and all(isinstance(v, str) for v in value):
                codes = tuple(s.strip() for v in value for s in v.split(",") if s.strip())
            else:
                problems.append(f"jaxlint setting '{key}' must be a list of rule codes, got {value!r}")
                continue
            values[attr] = codes
        return cls(**values), problems

    def validated(self, infos: Sequence[RuleInfo]) -> tuple["ClientSettings", list[str]]:
        """Drop unknown rule selectors (one line each) so the rest still applies."""
        problems: list[str] = []

        def keep(codes: Optional[tuple[str, ...]], key: str) -> Optional[tuple[str, ...]]:
            if codes is None:
                return None
            good = []
            for sel in codes:
                if expand_selector(infos, sel) is None:
                    problems.append(f"jaxlint settings: unknown rule selector '{sel}' in '{key}'")
                else:
                    good.append(sel)
            return tuple(good)

        select = keep(self.select, "select")
        if select == () and self.select:
            # every selector given was unknown (a typo): linting with nothing selected would
            # look like clean code; the project's own selection applies until it is mended
            problems.append("jaxlint settings: no known rule selector in 'select': the project's selection applies")
            select = None
        return (
            ClientSettings(
                select=select,
                ignore=keep(self.ignore, "ignore") or (),
                extend_select=keep(self.extend_select, "extendSelect") or (),
                configuration=self.configuration,
            ),
            problems,
        )

    def overrides(self) -> Overrides:
        return Overrides(select=self.select, ignore=self.ignore, extend_select=self.extend_select)


def is_config_file(path: Path) -> bool:
    return path.name in CONFIG_FILENAMES


class SettingsResolver:
    """Per-file settings the CLI way, one ``ConfigStore`` per workspace folder.

    A file inside a workspace folder is configured as ``jaxlint check`` run in
    that folder would configure it (the nearest configuration file above the
    file, else the folder's); a file outside every folder as if run in its own
    directory.  ``reload`` forgets everything read (after a configuration file
    changed).  Raises ConfigError (one line) for a broken configuration.
    """

    def __init__(self, infos: Sequence[RuleInfo], folders: Iterable[Path] = (),
                 client: Optional[ClientSettings] = None) -> None:
        self.infos = tuple(infos)
        self.folders = sorted({Path(f).resolve() for f in folders}, key=lambda p: -len(p.parts))
        self.client = client or ClientSettings()
        self._stores: dict[Path, ConfigStore] = {}
        # `observed = true` (or a file) in [tool.jaxlint]: `jaxlint observe`'s facts in
        # every file's settings, as `jaxlint check` gives them; read again when they change
        from jaxlint.workspace.observed import ConfiguredFacts

        self.observed = ConfiguredFacts()

    def set_folders(self, folders: Iterable[Path]) -> None:
        self.folders = sorted({Path(f).resolve() for f in folders}, key=lambda p: -len(p.parts))
        self._stores.clear()

    def set_client(self, client: ClientSettings) -> None:
        self.client = client
        self._stores.clear()

    def reload(self) -> None:
        self._stores.clear()

    def root_for(self, path: Path) -> Path:
        for folder in self.folders:  # deepest first
            if folder == path or folder in path.parents:
                return folder
        return path.parent

    def store_for(self, path: Path) -> ConfigStore:
        root = self.root_for(path)
        store = self._stores.get(root)
        if store is None:
            config = None
            if self.client.configuration:
                config = Path(self.client.configuration).expanduser()
                if not config.is_absolute():
                    config = root / config
            store = ConfigStore(self.infos, self.client.overrides(), root, config,
                                observed=self.observed)
            self._stores[root] = store
        return store

    def settings_for(self, path: Path) -> LintSettings:
        return self.store_for(path).settings_for(path)

    def is_excluded(self, path: Path) -> bool:
        """Excluded by the configuration (or git-ignored), as ``--force-exclude`` decides."""
        from jaxlint.workspace.discovery import is_excluded

        store = self.store_for(path)
        return is_excluded(path, False, store.for_dir, store.cwd)


# ----------------------------------------------------------------------------- linting


@dataclass
class LintOutcome:
    result: FileResult
    # rules that raised on this text: (code, traceback); the others still reported
    failed_rules: list[tuple[str, str]] = field(default_factory=list)


def lint_text(text: str, path: str, settings: LintSettings, parser=None) -> LintOutcome:
    """Lint an in-memory buffer (with ``parser``, an ``IncrementalParser`` that
    saw the buffer's earlier versions, only changed statements are re-parsed).
    Never raises: a rule that fails is left out and named in ``failed_rules``
    (the others' findings are kept)."""
    from jaxlint.lint.linter import lint_source

    try:
        if parser is not None:
            from jaxlint.server.incremental import lint_incremental

            return LintOutcome(lint_incremental(parser, text, path, settings))
        return LintOutcome(lint_source(text, path, settings))
    except Exception:
        whole = traceback.format_exc()
    # find the rules that fail on their own, then lint with the others
    failed: list[tuple[str, str]] = []
    for code in sorted(settings.select):
        if code == "JAX001":
            continue
        one = LintSettings(select=frozenset({code}), x64=settings.x64, options=settings.options)
        try:
            lint_source(text, path, one)
        except Exception:
            failed.append((code, traceback.format_exc()))
    rest = LintSettings(select=settings.select - {c for c, _ in failed}, x64=settings.x64,
                        options=settings.options)
    try:
        return LintOutcome(lint_source(text, path, rest), failed)
    except Exception:  # fails only in combination: report nothing rather than crash
        result = FileResult(path=path)
        result.error = "internal error while linting (see the server log)"
        return LintOutcome(result, failed or [("?", whole)])


# ----------------------------------------------------------------------------- diagnostics


@lru_cache(maxsize=None)
def rule_page(code: str) -> Optional[Path]:
    """The rule's documentation page where the user has it (a checkout's or an
    installed copy's ``docs/rules/CODE.md``), or None."""
    import jaxlint

    package = Path(jaxlint.__file__).resolve().parent
    for docs in (package / "docs" / "rules", package.parent / "docs" / "rules"):
        page = docs / f"{code}.md"
        if page.is_file():
            return page
    return None


def error_diagnostic(error: str, pos: Positions) -> types.Diagnostic:
    """A file the linter could not check (``FileResult.error``: nested too deeply
    for the parser, refused by libcst, ...) as one diagnostic, on the line the
    reason names (else the first line), so the editor shows why nothing else is."""
    m = _RELATED_RE.search(error)
    line = int(m.group(1)) if m is not None and 1 <= int(m.group(1)) <= len(pos.lines) else 1
    return types.Diagnostic(
        range=pos.whole_line(line),
        message=error,
        severity=types.DiagnosticSeverity.Error,
        source=SOURCE,
    )


def diagnostic(f: Finding, pos: Positions, uri: str,
               locate: Optional[Callable[[str, int], Optional[types.Location]]] = None
               ) -> types.Diagnostic:
    """One finding as an LSP diagnostic (``data`` holds what code actions need).

    ``relatedInformation``: the line a rule's message names (the first use of a
    reused key, ...), and the call chain that puts the code under a trace from
    other files (``Finding.related``, nearest caller first; ``locate(path, line)``
    gives the location of a line of another file)."""
    rng = pos.finding_range(f)
    page = rule_page(f.code)
    tags = []
    if f.code in DEPRECATED_CODES:
        tags.append(types.DiagnosticTag.Deprecated)
    if f.code in UNNECESSARY_CODES:
        tags.append(types.DiagnosticTag.Unnecessary)
    related: list[types.DiagnosticRelatedInformation] = []
    label = RELATED_LABELS.get(f.code)
    if label is not None:
        m = _RELATED_RE.search(f.message)
        if m is not None and 1 <= int(m.group(1)) <= len(pos.lines):
            related.append(types.DiagnosticRelatedInformation(
                location=types.Location(uri=uri, range=pos.whole_line(int(m.group(1)))),
                message=label,
            ))
    if locate is not None:
        for path, line, message in f.related:
            where = locate(path, line)
            if where is not None:
                related.append(types.DiagnosticRelatedInformation(location=where, message=message))
    data: dict[str, Any] = {"code": f.code}
    if f.fix is not None:
        data["fix"] = f.fix.applicability.value
    return types.Diagnostic(
        range=rng,
        message=f.message,
        severity=_SEVERITY.get(f.severity, types.DiagnosticSeverity.Warning),
        code=f.code,
        code_description=types.CodeDescription(href=page.as_uri()) if page else None,
        source=SOURCE,
        tags=tags or None,
        related_information=related or None,
        data=data,
    )


# ----------------------------------------------------------------------------- code actions


def text_edits(text: str, pos: Positions, edits_groups: Sequence[Sequence]) -> list[types.TextEdit]:
    spans, _ = plan_edits(text, edits_groups)
    return [
        types.TextEdit(range=types.Range(pos.at_offset(s), pos.at_offset(e)), new_text=c)
        for s, e, c in sorted(spans)
    ]


def diff_edit(old: str, new: str, pos: Positions) -> Optional[types.TextEdit]:
    """One edit turning ``old`` into ``new``: the changed middle (None if equal)."""
    if old == new:
        return None
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
    # never split a \r\n pair
    if 0 < start < len(old) and old[start - 1] == "\r" and old[start] == "\n":
        start -= 1
    if 0 < end_old < len(old) and old[end_old - 1] == "\r" and old[end_old] == "\n":
        end_old += 1
        end_new += 1
    return types.TextEdit(
        range=types.Range(pos.at_offset(start), pos.at_offset(end_old)),
        new_text=new[start:end_new],
    )


def workspace_edit(uri: str, version: Optional[int], edits: list[types.TextEdit],
                    versioned: bool) -> types.WorkspaceEdit:
    if versioned:
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
            edits=edits,
        )])
    return types.WorkspaceEdit(changes={uri: edits})


def fix_title(f: Finding) -> str:
    assert f.fix is not None
    title = f"jaxlint ({f.code}): {f.fix.message}"
    if f.fix.applicability == Applicability.UNSAFE:
        title += " (unsafe fix: may change behaviour)"
    return title


def fix_action(f: Finding, text: str, pos: Positions, uri: str, version: Optional[int],
               diag: types.Diagnostic, versioned: bool = False) -> types.CodeAction:
    """The quick fix of one finding (its own edits, as the CLI would apply them)."""
    assert f.fix is not None
    edits = text_edits(text, pos, [f.fix.edits])
    return types.CodeAction(
        title=fix_title(f),
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diag],
        is_preferred=f.fix.applicability == Applicability.SAFE,
        edit=workspace_edit(uri, version, edits, versioned),
    )


def noqa_edit(f: Finding, text: str, pos: Positions) -> Optional[types.TextEdit]:
    """``# noqa: CODE`` for one finding, merged into an existing noqa comment
    (``fixer.add_noqa``); None when the line already suppresses it."""
    from jaxlint.fix.fixer import add_noqa

    new, added = add_noqa(text, [f])
    if not added:
        return None
    return diff_edit(text, new, pos)


def noqa_action(f: Finding, text: str, pos: Positions, uri: str, version: Optional[int],
                diag: types.Diagnostic, versioned: bool = False) -> Optional[types.CodeAction]:
    edit = noqa_edit(f, text, pos)
    if edit is None:
        return None
    return types.CodeAction(
        title=f"jaxlint: Disable {f.code} for this line",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diag],
        edit=workspace_edit(uri, version, [edit], versioned),
    )


def fix_all_edits(text: str, path: str, settings: LintSettings,
                  encoding: str = types.PositionEncodingKind.Utf16) -> list[types.TextEdit]:
    """The safe fixes of the whole buffer, verified exactly as ``jaxlint check
    --fix`` verifies them (``fixer.fix_text``): one edit, or none."""
    from jaxlint.fix.fixer import fix_text

    result = fix_text(text, path, settings, unsafe=False)
    edit = diff_edit(text, result.text, Positions(text, encoding))
    return [edit] if edit is not None else []


def has_safe_fix(findings: Iterable[Finding]) -> bool:
    return any(f.fix is not None and f.fix.applicability == Applicability.SAFE for f in findings)


def kind_wanted(kind: str, only: Optional[Sequence[str]]) -> bool:
    """Whether an action of ``kind`` matches the client's ``only`` filter."""
    if not only:
        return True
    return any(kind == o or kind.startswith(str(o) + ".") for o in only)


def finding_matches(f: Finding, diag: types.Diagnostic, pos: Positions) -> bool:
    """Whether a diagnostic the client sends back is this finding's."""
    return diag.source == SOURCE and diag.code == f.code and pos.finding_range(f) == diag.range


def find_finding(findings: Iterable[Finding], code: str, start: types.Position,
                 pos: Positions) -> Optional[Finding]:
    for f in findings:
        if f.code == code and pos.finding_range(f).start == start:
            return f
    return None


# ----------------------------------------------------------------------------- hover

_SUPPRESS_RE = re.compile(
    r"#\s*noqa:\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*)"
    r"|#\s*jaxlint:\s*ignore\[(?P<codes2>[^\]]*)\]",
    re.IGNORECASE,
)
_CODE_RE = re.compile(r"[A-Za-z]+[0-9]+")


def noqa_hover(text: str, position: types.Position, infos: Sequence[RuleInfo],
               encoding: str = types.PositionEncodingKind.Utf16) -> Optional[types.Hover]:
    """The rule's summary when ``position`` is on a code inside a suppression comment."""
    pos = Positions(text, encoding)
    line = pos.line_text(position.line)
    if "#" not in line:
        return None
    col0 = pos.column(position) - 1
    by_code = {i.code: i for i in infos}
    for m in _SUPPRESS_RE.finditer(line):
        group = "codes" if m.group("codes") is not None else "codes2"
        base = m.start(group)
        for cm in _CODE_RE.finditer(m.group(group)):
            start, end = base + cm.start(), base + cm.end()
            if not (start <= col0 <= end):
                continue
            info = by_code.get(cm.group(0).upper())
            if info is None:
                return None
            value = (f"**{info.code}** `{info.name}`\n\n{info.summary}\n\n"
                     f"`jaxlint rule {info.code}` shows the full documentation.")
            return types.Hover(
                contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=value),
                range=types.Range(
                    pos.position(position.line + 1, start + 1),
                    pos.position(position.line + 1, end + 1),
                ),
            )
    return None
