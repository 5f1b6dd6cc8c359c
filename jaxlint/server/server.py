"""The pygls (2.x) wiring of ``jaxlint server``; the logic lives in ``core``.

Linting runs in one worker thread, on a copy of the buffer taken when it
starts, so the server keeps reading messages meanwhile.  Edits are coalesced:
a change schedules a lint shortly after it (``DEBOUNCE_S``), a change that
arrives during a lint makes that document be linted once more, and a result
is published only if the document is still at the version that was linted.

Each open document keeps an ``IncrementalParser``: after an edit only the
top-level statements whose text changed are parsed again (``incremental.py``).

Diagnostics are pushed (``textDocument/publishDiagnostics``) unless the client
pulls them (``textDocument/diagnostic``), as Ruff's server does.

The server never imports or runs the user's code: it parses buffers with
libcst, exactly as ``jaxlint check`` does.

Project-wide analysis (``project.py``): the CLI's project driver runs in a
second worker thread, reading the open buffers in place of their files on disk;
an edited buffer is linted at once with the facts the last run gave its file,
and when what it tells its project changes, the driver runs again (debounced,
``REFRESH_DEBOUNCE_S``) and the open documents whose facts changed are published
again.  The server works in the first workspace folder (its working directory),
so paths in messages read as ``jaxlint check`` run there prints them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument, Workspace

from jaxlint import __version__
from jaxlint.workspace.config import ConfigError
from jaxlint.findings import Finding
from jaxlint.server import core
from jaxlint.server.incremental import IncrementalParser
from jaxlint.server.project import ProjectModel, display, server_workspace
from jaxlint.settings import LintSettings

DEBOUNCE_S = 0.015  # coalesce the bursts of didChange a fast typist sends
REFRESH_DEBOUNCE_S = 0.1  # the project-wide run after a change of what a file tells its project
PYTHON_SUFFIXES = (".py", ".pyi")
WATCHED_GLOBS = ("**/pyproject.toml", "**/jaxlint.toml", "**/.jaxlint.toml", "**/*.py")

log = logging.getLogger("jaxlint.server")


class _ClientErrorFilter(logging.Filter):
    """pygls logs every error answer with its traceback; an answer to a client's
    bad request (invalid parameters: the client's mistake, answered with one line)
    is not a server error and leaves no traceback on stderr."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, JsonRpcInvalidParams)


logging.getLogger("pygls.protocol.json_rpc").addFilter(_ClientErrorFilter())


def uri_to_path(uri: str) -> Optional[Path]:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


_LSP_LINE_RE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


class LspTextDocument(TextDocument):
    """A document whose lines end where the protocol says, at ``\r\n``, ``\r`` or
    ``\n`` only.  pygls splits them with ``str.splitlines``, which also breaks at a
    form feed, ``\x0b``, ``\x1c``-``\x1e``, ``\x85``, U+2028 and U+2029: an
    incremental edit after such a character (a form feed between two functions, a
    U+2028 in a string) was applied lines away from where the editor made it, and
    every later diagnostic was for a text the editor did not have."""

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(_LSP_LINE_RE.findall(self.source))


class LspWorkspace(Workspace):
    """pygls's workspace, with the documents split into lines as the protocol says."""

    def _create_text_document(self, doc_uri: str, source: Optional[str] = None,
                              version: Optional[int] = None,
                              language_id: Optional[str] = None) -> TextDocument:
        return LspTextDocument(doc_uri, source=source, version=version, language_id=language_id,
                               sync_kind=self._sync_kind, position_codec=self.position_codec)


@dataclass
class Linted:
    """The last lint of one document."""

    version: Optional[int]
    text: str
    findings: list[Finding]
    settings: Optional[LintSettings]  # None: not linted (excluded, bad configuration)
    path: str
    tells: bool = False  # what the file tells its project changed: the project model is stale
    error: Optional[str] = None  # why the linter could not check it ("could not be checked: ...")


class JaxlintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("jaxlint", __version__,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         notebook_document_sync=types.NotebookDocumentSyncOptions(
                             notebook_selector=[types.NotebookDocumentFilterWithCells(
                                 cells=[types.NotebookCellLanguage(language="python")],
                                 notebook="jupyter-notebook")],
                             save=True))
        self.infos: tuple = ()
        self.resolver: Optional[core.SettingsResolver] = None
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jaxlint-lint")
        self.project_executor = ThreadPoolExecutor(max_workers=1,
                                                   thread_name_prefix="jaxlint-project")
        self.model: Optional[ProjectModel] = None
        self.refresh_handle: Optional[asyncio.TimerHandle] = None
        self.refreshing = False
        self.refresh_again = False
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.running: set[str] = set()
        self.dirty: set[str] = set()
        self.linted: dict[str, Linted] = {}
        # what was last published for each document (version, diagnostics): the same
        # again is not sent (a settings change relints every document, and the
        # project model's refresh may relint it once more with the same result)
        self.published: dict[str, tuple[Optional[int], list[types.Diagnostic]]] = {}
        self.parsers: dict[str, IncrementalParser] = {}  # per open document
        self.shown: set[str] = set()
        self.pull = False
        self.notebook_cells: dict[str, list[str]] = {}  # open notebook -> its cells' uris

    # ------------------------------------------------------------------ client facts

    @property
    def encoding(self) -> str:
        enc = self.workspace.position_encoding or types.PositionEncodingKind.Utf16
        return str(getattr(enc, "value", enc))

    def _cap(self, *names: str) -> Any:
        obj: Any = self.client_capabilities
        for n in names:
            obj = getattr(obj, n, None)
            if obj is None:
                return None
        return obj

    @property
    def versioned_edits(self) -> bool:
        return bool(self._cap("workspace", "workspace_edit", "document_changes"))

    @property
    def resolve_edits(self) -> bool:
        props = self._cap("text_document", "code_action", "resolve_support", "properties") or ()
        return "edit" in props

    # ------------------------------------------------------------------ messages

    def log(self, message: str, kind: types.MessageType = types.MessageType.Log) -> None:
        self.window_log_message(types.LogMessageParams(type=kind, message=message))

    def show_once(self, message: str, kind: types.MessageType = types.MessageType.Error) -> None:
        """Show ``message`` once (window/showMessage), and only log its repeats: a client
        that displays both kinds would show it twice."""
        if message not in self.shown:
            self.shown.add(message)
            self.window_show_message(types.ShowMessageParams(type=kind, message=message))
        else:
            self.log(message, kind)

    # ------------------------------------------------------------------ settings

    def apply_client_settings(self, raw: Any) -> None:
        settings, problems = core.ClientSettings.parse(raw)
        settings, more = settings.validated(self.infos)
        for line in problems + more:
            self.show_once(line, types.MessageType.Warning)
        assert self.resolver is not None
        self.resolver.set_client(settings)

    # ------------------------------------------------------------------ linting

    def notebook_of(self, uri: str) -> Optional[types.NotebookDocument]:
        """The open notebook that holds the cell ``uri`` (None for a plain document)."""
        return self.workspace.get_notebook_document(cell_uri=uri)

    def is_python(self, uri: str) -> bool:
        if self.notebook_of(uri) is not None:
            return False  # a cell is linted as part of its notebook (lint_notebook)
        doc = self.workspace.text_documents.get(uri)
        if doc is None:
            return False
        if doc.language_id:
            return doc.language_id == "python"
        return urlparse(uri).path.endswith(PYTHON_SUFFIXES)

    def schedule(self, uri: str, delay: float = DEBOUNCE_S) -> None:
        if self.is_python(uri):
            self._debounce(uri, lambda: self.lint_and_publish(uri), delay)

    def _debounce(self, key: str, job, delay: float) -> None:
        """Run ``job()`` (a coroutine) ``delay`` seconds from now, replacing the
        one pending for ``key`` (a document or a notebook)."""
        handle = self.pending.pop(key, None)
        if handle is not None:
            handle.cancel()
        loop = asyncio.get_running_loop()
        self.pending[key] = loop.call_later(delay, lambda: asyncio.ensure_future(job()))

    def _lint_job(self, uri: str, version: Optional[int], text: str) -> tuple[Linted, list, list]:
        """Runs in the worker thread: (result, failed rules, messages to show)."""
        path = uri_to_path(uri)
        assert self.resolver is not None
        messages: list[str] = []
        settings_path = path
        if settings_path is None:  # an unsaved buffer: configured as a file in the first folder
            base = self.resolver.folders[-1] if self.resolver.folders else Path.cwd()
            settings_path = base / "untitled.py"
        name = display(path) if path is not None else uri
        try:
            if path is not None and self.resolver.is_excluded(path):
                return Linted(version, text, [], None, name), [], messages
            settings = self.resolver.settings_for(settings_path)
        except ConfigError as exc:
            messages.append(str(exc))
            return Linted(version, text, [], None, name), [], messages
        model = self.model if path is not None else None
        if model is not None:
            settings = model.settings_of(name) or settings  # the facts of the last project run
            known = model.recall(name, text, settings)
            if known is not None and not known.error:  # linted by the last project run
                return (Linted(version, text, known.findings, settings, name,
                               model.tells_more(name, known)), [], messages)
        parser = self.parsers.setdefault(uri, IncrementalParser())
        if model is not None:
            model.editing.set()
        try:
            outcome = core.lint_text(text, name, settings, parser)
        finally:
            if model is not None:
                model.editing.clear()
        if outcome.result.error:
            messages.append(f"{name}: {outcome.result.error}")
        tells = False
        if model is not None:
            if not outcome.failed_rules:
                model.remember(name, text, settings, outcome.result)
            tells = model.tells_more(name, outcome.result)
        linted = Linted(version, text, outcome.result.findings, settings, name, tells,
                        outcome.result.error)
        return linted, outcome.failed_rules, messages

    # ------------------------------------------------------------------ notebooks

    def cell_doc(self, uri: str):
        """A cell's text document (the workspace keys documents by unquoted uri)."""
        return self.workspace.text_documents.get(unquote(uri))

    def notebook_bytes(self, nb: types.NotebookDocument) -> tuple[bytes, list[str]]:
        """The open notebook as nbformat-4 JSON (its cells' current texts) and the
        uri of each cell, in order: what ``lint_source`` reads as a notebook."""
        cells, uris = [], []
        for cell in nb.cells:
            doc = self.cell_doc(cell.document)
            source = doc.source if doc is not None else ""
            kind = "code" if cell.kind == types.NotebookCellKind.Code else "markdown"
            if kind == "code" and doc is not None and doc.language_id not in (None, "", "python"):
                kind = "raw"  # a cell in another language is not Python
            entry: dict[str, Any] = {"cell_type": kind, "metadata": {}, "source": source}
            if kind == "code":
                entry.update(execution_count=None, outputs=[])
            cells.append(entry)
            uris.append(cell.document)
        data = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)
        return data.encode("utf-8"), uris

    def _lint_notebook_job(self, nb_uri: str, data: bytes, uris: list[str], texts: dict[str, str],
                           versions: dict[str, Optional[int]]) -> tuple[dict[str, Linted], list[str]]:
        """Runs in the worker thread: the notebook's findings, as a ``Linted`` per cell."""
        from jaxlint.lint.linter import lint_source

        assert self.resolver is not None
        path = uri_to_path(nb_uri)
        base = self.resolver.folders[-1] if self.resolver.folders else Path.cwd()
        settings_path = path if path is not None else base / "untitled.ipynb"
        name = display(path) if path is not None else nb_uri
        if not name.endswith(".ipynb"):
            name += ".ipynb"
        messages: list[str] = []
        try:
            if path is not None and self.resolver.is_excluded(path):
                return {u: Linted(versions[u], texts[u], [], None, name) for u in uris}, messages
            settings = self.resolver.settings_for(settings_path)
        except ConfigError as exc:
            messages.append(str(exc))
            return {u: Linted(versions[u], texts[u], [], None, name) for u in uris}, messages
        if self.model is not None and path is not None:
            settings = self.model.settings_of(name) or settings
        result = lint_source(data, name, settings)
        if result.error:
            messages.append(f"{name}: {result.error}")
        by_cell: dict[int, list[Finding]] = {}
        for f in result.findings:
            by_cell.setdefault(f.cell or 1, []).append(f)
        return ({u: Linted(versions[u], texts[u], by_cell.get(i, []), settings, name)
                 for i, u in enumerate(uris, start=1)}, messages)

    async def lint_notebook(self, nb_uri: str) -> Optional[dict[str, Linted]]:
        """Lint an open notebook as it is now; each cell's result is kept and returned."""
        nb = self.workspace.get_notebook_document(notebook_uri=nb_uri)
        if nb is None:
            return None
        data, uris = self.notebook_bytes(nb)
        texts, versions = {}, {}
        for u in uris:
            doc = self.cell_doc(u)
            texts[u] = doc.source if doc is not None else ""
            versions[u] = doc.version if doc is not None else None
        last = [self.linted.get(u) for u in uris]
        if all(x is not None and x.text == texts[u] and x.version == versions[u]
               for x, u in zip(last, uris)) and self.notebook_cells.get(nb_uri) == uris:
            return {u: x for u, x in zip(uris, last)}  # type: ignore[misc]
        loop = asyncio.get_running_loop()
        linted, messages = await loop.run_in_executor(
            self.executor, self._lint_notebook_job, nb_uri, data, uris, texts, versions)
        for message in messages:
            self.show_once(message)
        for u in self.notebook_cells.get(nb_uri, []):
            if u not in linted:  # a cell deleted since: its diagnostics go
                self.linted.pop(u, None)
                self.clear_diagnostics(u)
        self.notebook_cells[nb_uri] = uris
        self.linted.update(linted)
        return linted

    async def lint_and_publish_notebook(self, nb_uri: str) -> None:
        self.pending.pop(nb_uri, None)
        try:
            linted = await self.lint_notebook(nb_uri)
            if linted is None:
                return
            for uri, cell in linted.items():
                doc = self.cell_doc(uri)
                if doc is not None and doc.version == cell.version and doc.source == cell.text:
                    self.publish(uri, cell)
        except Exception as exc:  # never let one notebook take the server down
            log.exception("lint failed")
            self.log(f"jaxlint: internal error while linting {nb_uri}: "
                     f"{exc.__class__.__name__}: {exc}", types.MessageType.Error)

    def schedule_notebook(self, nb_uri: str, delay: float = DEBOUNCE_S) -> None:
        self._debounce(nb_uri, lambda: self.lint_and_publish_notebook(nb_uri), delay)

    async def lint(self, uri: str) -> Optional[Linted]:
        """Lint the document as it is now (or reuse the last lint of this version)."""
        nb = self.notebook_of(uri)
        if nb is not None:
            cells = await self.lint_notebook(nb.uri)
            return cells.get(uri) if cells is not None else None
        doc = self.workspace.text_documents.get(uri)
        if doc is None:
            return None
        version, text = doc.version, doc.source
        last = self.linted.get(uri)
        if last is not None and last.version == version and last.text == text:
            return last
        loop = asyncio.get_running_loop()
        linted, failed, messages = await loop.run_in_executor(
            self.executor, self._lint_job, uri, version, text)
        if uri not in self.workspace.text_documents:  # closed meanwhile
            self.parsers.pop(uri, None)
        for code, tb in failed:
            self.log(f"jaxlint: rule {code} failed on {uri_to_path(uri) or linted.path} and was skipped; "
                     f"the other rules still report.\n{tb}", types.MessageType.Error)
        for message in messages:
            self.show_once(message)
        if self.resolver is not None and self.resolver.observed.problem:
            self.show_once(f"jaxlint: {self.resolver.observed.problem}", types.MessageType.Warning)
        self.linted[uri] = linted
        if linted.tells:
            self.schedule_refresh()
        return linted

    async def lint_and_publish(self, uri: str) -> None:
        self.pending.pop(uri, None)
        if uri in self.running:
            self.dirty.add(uri)
            return
        self.running.add(uri)
        try:
            while True:
                self.dirty.discard(uri)
                linted = await self.lint(uri)
                doc = self.workspace.text_documents.get(uri)
                if linted is None or doc is None:
                    return
                if uri not in self.dirty and doc.version == linted.version:
                    self.publish(uri, linted)
                if uri not in self.dirty:
                    return
        except Exception as exc:  # never let one document take the server down
            log.exception("lint failed")
            self.log(f"jaxlint: internal error while linting {uri}: "
                     f"{exc.__class__.__name__}: {exc}", types.MessageType.Error)
        finally:
            self.running.discard(uri)

    def to_diagnostics(self, uri: str, linted: Linted) -> list[types.Diagnostic]:
        pos = core.Positions(linted.text, self.encoding)
        texts: dict[Path, Optional[str]] = {}

        def locate(name: str, line: int) -> Optional[types.Location]:
            path = Path(os.path.abspath(name))  # a display path: relative to the working directory
            if path not in texts:
                doc = self.workspace.text_documents.get(path.as_uri())
                if doc is not None:
                    texts[path] = doc.source
                else:
                    try:
                        texts[path] = path.read_text(encoding="utf-8", errors="replace")
                    except OSError:
                        texts[path] = None
            return core.line_location(path, line, texts[path], self.encoding)

        diags = [core.diagnostic(f, pos, uri, locate) for f in linted.findings]
        if linted.error is not None:
            diags.append(core.error_diagnostic(linted.error, pos))
        return diags

    def publish(self, uri: str, linted: Linted) -> None:
        if self.pull:
            return
        diagnostics = self.to_diagnostics(uri, linted)
        if self.published.get(uri) == (linted.version, diagnostics):
            return
        self.published[uri] = (linted.version, diagnostics)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=linted.version, diagnostics=diagnostics))

    def clear_diagnostics(self, uri: str) -> None:
        """The document is gone (closed, a deleted cell): its diagnostics go."""
        self.published.pop(uri, None)
        if not self.pull:
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    # ------------------------------------------------------------------ the project model

    def schedule_refresh(self, delay: float = REFRESH_DEBOUNCE_S) -> None:
        """Run the project driver over the open documents shortly (debounced)."""
        if self.model is None:
            return
        if self.refresh_handle is not None:
            self.refresh_handle.cancel()
        loop = asyncio.get_running_loop()
        self.refresh_handle = loop.call_later(
            delay, lambda: asyncio.ensure_future(self.refresh()))

    def _refresh_job(self, docs: dict[Path, str]) -> dict:
        assert self.model is not None and self.resolver is not None
        buffers = {}
        for path, text in docs.items():
            try:
                if not self.resolver.is_excluded(path):
                    buffers[path] = text
            except ConfigError:
                continue  # shown by the document's own lint
        return self.model.refresh(buffers)

    async def refresh(self) -> None:
        """Lint the open documents with the project-wide model (in the project
        thread) and publish those whose diagnostics it changed."""
        self.refresh_handle = None
        if self.model is None:
            return
        if self.refreshing:
            self.refresh_again = True
            return
        if self.pending or self.running:
            self.schedule_refresh()  # the editor's lints first: run when they are done
            return
        self.refreshing = True
        try:
            while True:
                self.refresh_again = False
                docs: dict[Path, str] = {}
                seen: dict[str, tuple[str, Optional[int], str]] = {}  # name -> (uri, version, text)
                for uri, doc in list(self.workspace.text_documents.items()):
                    path = uri_to_path(uri)
                    if path is None or not self.is_python(uri):
                        continue
                    docs[path] = doc.source
                    seen[display(path)] = (uri, doc.version, doc.source)
                loop = asyncio.get_running_loop()
                final = await loop.run_in_executor(self.project_executor, self._refresh_job, docs)
                changed = False
                for name, (result, settings) in final.items():
                    if name not in seen:
                        continue
                    uri, version, text = seen[name]
                    doc = self.workspace.text_documents.get(uri)
                    if doc is None:
                        continue
                    last = self.linted.get(uri)
                    if (last is not None and last.version == doc.version and last.text == doc.source
                            and last.settings == settings and last.findings == result.findings):
                        continue
                    # lint it again with the new facts (the result of this run, when the
                    # buffer has not changed since, comes from the model's memo)
                    self.linted.pop(uri, None)
                    self.schedule(uri, 0)
                    changed = True
                if changed and self.pull and self._cap("workspace", "diagnostics", "refresh_support"):
                    self.workspace_diagnostic_refresh(None)
                if not self.refresh_again:
                    return
        except Exception as exc:  # the documents keep their own diagnostics
            log.exception("project run failed")
            self.log(f"jaxlint: the project-wide analysis failed: {exc.__class__.__name__}: {exc}",
                     types.MessageType.Error)
        finally:
            self.refreshing = False

    def relint_all(self) -> None:
        """Configuration changed: every open document is linted again."""
        if self.model is not None:
            self.model.forget()
            if self.refreshing:
                self.refresh_again = True  # the run under way read the old configuration
        self.linted.clear()
        for uri in list(self.workspace.text_documents):
            self.schedule(uri, 0)
        for nb_uri in list(self.notebook_cells):
            self.schedule_notebook(nb_uri, 0)
        if self.pull and self._cap("workspace", "diagnostics", "refresh_support"):
            self.workspace_diagnostic_refresh(None)

    # ------------------------------------------------------------------ code actions

    async def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        cell_of = self.notebook_of(uri)
        if not self.is_python(uri) and cell_of is None:
            return []
        linted = await self.lint(uri)
        if linted is None or linted.settings is None:
            return []
        only = params.context.only
        pos = core.Positions(linted.text, self.encoding)
        sent = [d for d in params.context.diagnostics or [] if d.source == core.SOURCE]
        actions: list[types.CodeAction] = []
        noqa: list[types.CodeAction] = []
        for f in linted.findings:
            diag = core.diagnostic(f, pos, uri)
            if sent:
                if not any(core.finding_matches(f, d, pos) for d in sent):
                    continue
            elif not core.ranges_overlap(diag.range, params.range):
                continue
            if f.fix is not None and any(e.cell not in (None, f.cell) for e in f.fix.edits):
                pass  # a notebook fix that also edits another cell: fix-all applies it
            elif f.fix is not None and core.kind_wanted(types.CodeActionKind.QuickFix, only):
                actions.append(core.fix_action(f, linted.text, pos, uri, linted.version, diag,
                                               self.versioned_edits))
            if f.code != "JAX001" and core.kind_wanted(types.CodeActionKind.QuickFix, only):
                action = core.noqa_action(f, linted.text, pos, uri, linted.version, diag,
                                          self.versioned_edits)
                if action is not None and all(a.title != action.title for a in noqa):
                    noqa.append(action)
        actions.extend(noqa)
        everything = linted.findings
        if cell_of is not None:  # fix-all in a cell fixes the notebook
            everything = [f for u in self.notebook_cells.get(cell_of.uri, [])
                          for f in (self.linted[u].findings if u in self.linted else [])]
        if core.kind_wanted(core.FIX_ALL_KIND, only) and core.has_safe_fix(
                f for f in everything if f.code in linted.settings.select):
            action = types.CodeAction(
                title="jaxlint: Fix all auto-fixable problems",
                kind=core.FIX_ALL_KIND,
                data={"uri": uri, "version": linted.version},
            )
            if not self.resolve_edits:
                action = await self.resolve_fix_all(action)
            actions.append(action)
        return actions

    async def resolve_fix_all(self, action: types.CodeAction) -> types.CodeAction:
        data = action.data or {}
        uri = data.get("uri") if isinstance(data, dict) else None
        if not uri:
            return action
        if self.notebook_of(uri) is not None:
            action.edit = self.cells_edit(await self.fix_all_cells(uri))
            return action
        edits = await self.fix_all(uri)
        doc = self.workspace.text_documents.get(uri)
        version = doc.version if doc is not None else None
        action.edit = core.workspace_edit(uri, version, edits or [], self.versioned_edits)
        return action

    async def fix_all_cells(self, cell_uri: str) -> dict[str, list[types.TextEdit]]:
        """The safe fixes of the notebook holding ``cell_uri``, verified as
        ``jaxlint check --fix`` verifies them: an edit per changed cell."""
        nb = self.notebook_of(cell_uri)
        linted = await self.lint(cell_uri)
        if nb is None or linted is None or linted.settings is None:
            return {}
        data, uris = self.notebook_bytes(nb)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.executor, _notebook_fix_edits, data, uris, linted.path, linted.settings, self.encoding)

    def cells_edit(self, changes: dict[str, list[types.TextEdit]]) -> types.WorkspaceEdit:
        if not self.versioned_edits:
            return types.WorkspaceEdit(changes=changes)
        docs = []
        for uri, edits in changes.items():
            doc = self.cell_doc(uri)
            docs.append(types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(
                    uri=uri, version=doc.version if doc is not None else None),
                edits=edits))
        return types.WorkspaceEdit(document_changes=docs)

    async def fix_all(self, uri: str) -> Optional[list[types.TextEdit]]:
        linted = await self.lint(uri)
        if linted is None or linted.settings is None:
            return None
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.executor, core.fix_all_edits, linted.text, linted.path, linted.settings,
            self.encoding)

    async def apply(self, uri: str, edits: list[types.TextEdit], label: str) -> bool:
        doc = self.workspace.text_documents.get(uri)
        version = doc.version if doc is not None else None
        result = await self.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
            edit=core.workspace_edit(uri, version, edits, self.versioned_edits), label=label))
        return bool(result and result.applied)


def _notebook_fix_edits(data: bytes, uris: list[str], path: str, settings: LintSettings,
                        encoding: str) -> dict[str, list[types.TextEdit]]:
    """Runs in the worker thread: cell uri -> the edit that fixes it."""
    from jaxlint.fix.fixer import fix_file
    from jaxlint.parse.notebook import Notebook

    ff = fix_file(path, data, settings, unsafe=False)
    if not ff.changed or ff.source is None:
        return {}
    before, after = Notebook.from_bytes(data), Notebook.from_bytes(ff.source.encode(ff.result.text))
    changes: dict[str, list[types.TextEdit]] = {}
    for number in before.code_cells:
        old, new = before.cell_sources[number], after.cell_sources.get(number, "")
        edit = core.diff_edit(old, new, core.Positions(old, encoding))
        if edit is not None:
            changes[uris[number - 1]] = [edit]
    return changes


server = JaxlintServer()


# ---------------------------------------------------------------------------- lifecycle


@server.feature(types.INITIALIZE)
def initialize(ls: JaxlintServer, params: types.InitializeParams) -> None:
    from jaxlint.workspace.ruleinfo import load_rule_infos

    # pygls has just made the workspace (no document is open yet): its documents are
    # to count lines as the client does
    ls.workspace.__class__ = LspWorkspace

    ls.infos = load_rule_infos(None)
    folders = [uri_to_path(f.uri) for f in params.workspace_folders or []]
    if not folders and params.root_uri:
        folders = [uri_to_path(params.root_uri)]
    elif not folders and params.root_path:
        folders = [Path(params.root_path)]
    folders = [f for f in folders if f is not None]
    ls.resolver = core.SettingsResolver(ls.infos, folders)
    if folders and folders[0].is_dir():
        # paths in messages read as `jaxlint check` run in the (first) folder prints them
        os.chdir(folders[0])
    ls.model = _project_model(ls.resolver)
    ls.pull = ls._cap("text_document", "diagnostic") is not None
    ls.apply_client_settings(params.initialization_options)


@server.feature(types.INITIALIZED)
async def initialized(ls: JaxlintServer, params: types.InitializedParams) -> None:
    # load the parser and the rules now, not on the first keystroke
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(ls.executor, _preload)
    if ls._cap("workspace", "did_change_watched_files", "dynamic_registration"):
        try:
            await ls.client_register_capability_async(types.RegistrationParams(registrations=[
                types.Registration(
                    id="jaxlint-config-watcher",
                    method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                    register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=[
                        types.FileSystemWatcher(glob_pattern=g) for g in WATCHED_GLOBS
                    ]),
                )
            ]))
        except Exception as exc:  # the client refused: configuration changes need a restart
            ls.log(f"jaxlint: could not watch configuration files ({exc})",
                   types.MessageType.Warning)


def _project_model(resolver: core.SettingsResolver) -> ProjectModel:
    return ProjectModel(server_workspace(resolver.store_for, lambda: resolver.client.configuration))


def _preload() -> None:
    import jaxlint.lint.linter  # noqa: F401  (libcst)
    import jaxlint.engine  # noqa: F401
    import jaxlint.model.interpreter  # noqa: F401
    from jaxlint.rules import all_rules

    all_rules()


# ---------------------------------------------------------------------------- documents


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: JaxlintServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, 0)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: JaxlintServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: JaxlintServer, params: types.DidSaveTextDocumentParams) -> None:
    path = uri_to_path(params.text_document.uri)
    if path is not None and core.is_config_file(path):
        ls.resolver.reload()  # type: ignore[union-attr]
        ls.relint_all()
        return
    ls.schedule(params.text_document.uri, 0)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: JaxlintServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    handle = ls.pending.pop(uri, None)
    if handle is not None:
        handle.cancel()
    ls.linted.pop(uri, None)
    ls.parsers.pop(uri, None)
    ls.schedule_refresh()  # the file on disk stands in for the buffer again
    ls.clear_diagnostics(uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
def notebook_did_open(ls: JaxlintServer, params: types.DidOpenNotebookDocumentParams) -> None:
    ls.schedule_notebook(params.notebook_document.uri, 0)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
def notebook_did_change(ls: JaxlintServer, params: types.DidChangeNotebookDocumentParams) -> None:
    ls.schedule_notebook(params.notebook_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
def notebook_did_save(ls: JaxlintServer, params: types.DidSaveNotebookDocumentParams) -> None:
    ls.schedule_notebook(params.notebook_document.uri, 0)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
def notebook_did_close(ls: JaxlintServer, params: types.DidCloseNotebookDocumentParams) -> None:
    uri = params.notebook_document.uri
    handle = ls.pending.pop(uri, None)
    if handle is not None:
        handle.cancel()
    for cell in ls.notebook_cells.pop(uri, []):
        ls.linted.pop(cell, None)
        ls.clear_diagnostics(cell)


@server.feature(types.TEXT_DOCUMENT_DIAGNOSTIC,
                types.DiagnosticOptions(identifier="jaxlint", inter_file_dependencies=True,
                                        workspace_diagnostics=False))
async def pull_diagnostics(ls: JaxlintServer, params: types.DocumentDiagnosticParams
                           ) -> types.DocumentDiagnosticReport:
    uri = params.text_document.uri
    items: list[types.Diagnostic] = []
    if ls.is_python(uri) or ls.notebook_of(uri) is not None:
        linted = await ls.lint(uri)
        if linted is not None:
            items = ls.to_diagnostics(uri, linted)
    return types.RelatedFullDocumentDiagnosticReport(items=items)


# ---------------------------------------------------------------------------- workspace


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: JaxlintServer, params: types.DidChangeWatchedFilesParams) -> None:
    changed = [uri_to_path(c.uri) for c in params.changes]
    if any(p is not None and core.is_config_file(p) for p in changed):
        ls.log("jaxlint: configuration changed; linting the open files again")
        ls.resolver.reload()  # type: ignore[union-attr]
        ls.shown.clear()
        ls.relint_all()
        return
    if ls.model is not None and any(p is not None and p.suffix in PYTHON_SUFFIXES for p in changed):
        if any(c.type != types.FileChangeType.Changed for c in params.changes):
            ls.model.forget_files()  # a file was created or deleted: discover again
        ls.schedule_refresh()


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: JaxlintServer,
                                   params: types.DidChangeConfigurationParams) -> None:
    raw = params.settings
    if not raw and ls._cap("workspace", "configuration"):
        try:
            got = await ls.workspace_configuration_async(types.ConfigurationParams(
                items=[types.ConfigurationItem(section="jaxlint")]))
            raw = got[0] if got else None
        except Exception as exc:
            ls.log(f"jaxlint: could not read the client's settings ({exc})",
                   types.MessageType.Warning)
            return
    ls.apply_client_settings(raw)
    ls.shown.clear()
    ls.relint_all()


@server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
def did_change_folders(ls: JaxlintServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    folders = [uri_to_path(f.uri) for f in ls.workspace.folders.values()]
    ls.resolver.set_folders([f for f in folders if f is not None])  # type: ignore[union-attr]
    ls.relint_all()


# ---------------------------------------------------------------------------- actions


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll,
                       core.FIX_ALL_KIND],
    resolve_provider=True,
))
async def code_action(ls: JaxlintServer, params: types.CodeActionParams
                      ) -> list[types.CodeAction]:
    return await ls.code_actions(params)


@server.feature(types.CODE_ACTION_RESOLVE)
async def code_action_resolve(ls: JaxlintServer, action: types.CodeAction) -> types.CodeAction:
    if action.kind == core.FIX_ALL_KIND and action.edit is None:
        return await ls.resolve_fix_all(action)
    return action


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: JaxlintServer, params: types.HoverParams) -> Optional[types.Hover]:
    doc = ls.workspace.text_documents.get(params.text_document.uri)
    if doc is None:
        return None
    return core.noqa_hover(doc.source, params.position, ls.infos, ls.encoding)


def _command_target(args: tuple) -> dict:
    if len(args) != 1 or not isinstance(args[0], dict) or not isinstance(args[0].get("uri"), str):
        raise JsonRpcInvalidParams(message="expected one argument: {\"uri\": ..., ...}")
    return args[0]


async def _finding_command(ls: JaxlintServer, args: tuple, noqa: bool) -> bool:
    target = _command_target(args)
    uri = target["uri"]
    code, start = target.get("code"), target.get("start")
    if not isinstance(code, str) or not isinstance(start, dict):
        raise JsonRpcInvalidParams(message="expected {\"uri\", \"code\", \"start\": {\"line\", \"character\"}}")
    linted = await ls.lint(uri)
    if linted is None or linted.settings is None:
        return False
    pos = core.Positions(linted.text, ls.encoding)
    where = types.Position(int(start.get("line", -1)), int(start.get("character", -1)))
    f = core.find_finding(linted.findings, code, where, pos)
    if f is None:
        return False
    if noqa:
        edit = core.noqa_edit(f, linted.text, pos)
        edits = [edit] if edit is not None else []
    else:
        if f.fix is None:
            return False
        edits = core.text_edits(linted.text, pos, [f.fix.edits])
    if not edits:
        return False
    return await ls.apply(uri, edits, f"jaxlint: {'noqa' if noqa else 'fix'} {code}")


@server.command(core.CMD_APPLY_FIX)
async def cmd_apply_fix(ls: JaxlintServer, *args: Any) -> bool:
    """Apply the fix of the finding ``{"uri", "code", "start"}``."""
    return await _finding_command(ls, args, noqa=False)


@server.command(core.CMD_ADD_NOQA)
async def cmd_add_noqa(ls: JaxlintServer, *args: Any) -> bool:
    """Add ``# noqa: CODE`` for the finding ``{"uri", "code", "start"}``."""
    return await _finding_command(ls, args, noqa=True)


@server.command(core.CMD_FIX_ALL)
async def cmd_fix_all(ls: JaxlintServer, *args: Any) -> bool:
    """Apply every safe fix of ``{"uri"}`` (verified as ``jaxlint check --fix`` does)."""
    uri = _command_target(args)["uri"]
    if ls.notebook_of(uri) is not None:
        changes = await ls.fix_all_cells(uri)
        if not changes:
            return False
        result = await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
            edit=ls.cells_edit(changes), label="jaxlint: fix all"))
        return bool(result and result.applied)
    edits = await ls.fix_all(uri)
    if not edits:
        return False
    return await ls.apply(uri, edits, "jaxlint: fix all")


def serve() -> int:
    """Serve on stdin/stdout; 0 after ``shutdown`` then ``exit``, 1 for an ``exit``
    without ``shutdown`` (as the protocol asks)."""
    server.start_io()
    return 0 if getattr(server.protocol, "_shutdown", False) else 1
