"""Helpers for the end-to-end tests of ``jaxlint server`` (pytest-lsp clients).

The client keeps every ``publishDiagnostics`` with its version, answers
``workspace/applyEdit`` (recording the edit) and ``client/registerCapability``.
Edits are applied here independently of the server's own position code.
"""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path
from typing import Optional

from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

SERVER = [sys.executable, "-m", "jaxlint", "server"]
TIMEOUT = 60.0


def make_client() -> LanguageClient:
    from pygls.protocol import default_converter

    client = LanguageClient(converter_factory=default_converter)
    features = {k: v for k, v in DEFAULT_CLIENT_FEATURES.items()
                if k != types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS}
    register_lsp_features(client, features)
    client.published = {}  # type: ignore[attr-defined]
    client.applied = []  # type: ignore[attr-defined]
    client.registrations = []  # type: ignore[attr-defined]

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _published(params: types.PublishDiagnosticsParams) -> None:
        client.published.setdefault(params.uri, []).append(params)  # type: ignore[attr-defined]
        client.diagnostics[params.uri] = params.diagnostics

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def _apply(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        client.applied.append(params)  # type: ignore[attr-defined]
        return types.ApplyWorkspaceEditResult(applied=True)

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def _register(params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    return client


def config() -> ClientServerConfig:
    return ClientServerConfig(server_command=SERVER, client_factory=make_client)


async def open_vscode_workspace(client: LanguageClient, tmp_path_factory) -> None:
    """Initialize a session as VS Code would, in a fresh folder (``client.root``)."""
    from pytest_lsp import client_capabilities

    root = tmp_path_factory.mktemp("workspace")
    client.root = root  # type: ignore[attr-defined]
    await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="workspace")],
    ))


# ----------------------------------------------------------------------------- positions

_LINE_RE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


def _units(s: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(s.encode("utf-8"))
    if encoding == "utf-32":
        return len(s)
    return len(s.encode("utf-16-le")) // 2


def offset_of(text: str, pos: types.Position, encoding: str = "utf-16") -> int:
    lines = [m.group(0) for m in _LINE_RE.finditer(text) if m.group(0)]
    start = sum(len(line) for line in lines[: pos.line])
    line = lines[pos.line].rstrip("\r\n") if pos.line < len(lines) else ""
    units = 0
    for i, ch in enumerate(line):
        if units >= pos.character:
            return start + i
        units += _units(ch, encoding)
    return start + len(line)


def apply_text_edits(text: str, edits, encoding: str = "utf-16") -> str:
    spans = sorted(
        ((offset_of(text, e.range.start, encoding), offset_of(text, e.range.end, encoding), e.new_text)
         for e in edits),
        reverse=True,
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def edits_of(edit: types.WorkspaceEdit, uri: str) -> list[types.TextEdit]:
    if edit.document_changes:
        return [e for dc in edit.document_changes
                if isinstance(dc, types.TextDocumentEdit) and dc.text_document.uri == uri
                for e in dc.edits]
    return list((edit.changes or {}).get(uri, []))


def rng(l0: int, c0: int, l1: int, c1: int) -> types.Range:
    return types.Range(types.Position(l0, c0), types.Position(l1, c1))


# ----------------------------------------------------------------------------- documents


class Doc:
    """An open document as the client sees it."""

    def __init__(self, client: LanguageClient, path: Path, text: str, write: bool = True) -> None:
        self.client, self.path, self.text = client, path, text
        self.uri = path.as_uri()
        self.version = 1
        self.opened_at = len(client.published.get(self.uri, []))  # type: ignore[attr-defined]
        if write:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=self.uri, language_id="python",
                                                 version=1, text=text)))

    def replace(self, new_text: str) -> None:
        """The whole buffer changes (as after the client applied an edit)."""
        self.version += 1
        self.text = new_text
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=new_text)]))

    def type_at(self, pos: types.Position, s: str, encoding: str = "utf-16") -> None:
        """Insert ``s`` at ``pos`` (an incremental change, as a typing user sends)."""
        self.version += 1
        off = offset_of(self.text, pos, encoding)
        self.text = self.text[:off] + s + self.text[off:]
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(pos, pos), text=s)]))

    def apply(self, edit: types.WorkspaceEdit, encoding: str = "utf-16") -> str:
        new = apply_text_edits(self.text, edits_of(edit, self.uri), encoding)
        self.replace(new)
        return new

    def close(self) -> None:
        self.client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=self.uri)))

    async def diagnostics(self, version: Optional[int] = None) -> list[types.Diagnostic]:
        """The diagnostics published for ``version`` (default: the current one)."""
        want = self.version if version is None else version
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while True:
            for p in reversed(self.client.published.get(self.uri, [])):  # type: ignore[attr-defined]
                if p.version == want:
                    return list(p.diagnostics)
            if loop.time() > deadline:
                raise AssertionError(f"no diagnostics for {self.uri} version {want}")
            await asyncio.sleep(0.005)

    async def next_publish(self, after: int) -> types.PublishDiagnosticsParams:
        """The first publication for this document after ``after`` were seen."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while True:
            got = self.client.published.get(self.uri, [])  # type: ignore[attr-defined]
            if len(got) > after:
                return got[after]
            if loop.time() > deadline:
                raise AssertionError(f"no new diagnostics for {self.uri}")
            await asyncio.sleep(0.005)

    def published_count(self) -> int:
        return len(self.client.published.get(self.uri, []))  # type: ignore[attr-defined]


def summary(diags) -> list[tuple]:
    """(code, start line, start char, end line, end char) of each diagnostic."""
    return [(d.code, d.range.start.line, d.range.start.character,
             d.range.end.line, d.range.end.character) for d in diags]
