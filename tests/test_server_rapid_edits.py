"""A rapid-edit session against ``jaxlint server``: every published version's
diagnostics equal ``jaxlint check`` (``lint_source``) on that version's text.

Issue 20 item 2: one of three 200-edit sessions ended with diagnostics that
differed from ``jaxlint check`` on the same text (the incremental parser's tree
was not the whole parse's).  The edits come from the incremental property
(``test_properties_incremental.py``) and reach the server as the incremental
changes an editor sends, without waiting for its answers.  Line endings are
``\\n`` and ``\\r\\n`` here (lone ``\\r`` is the property's, without the editor's
own line splitting in between).
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pygls.lsp.server", reason="the [lsp] extra (pygls 2) is not installed")
pytest_lsp = pytest.importorskip("pytest_lsp", reason="pytest-lsp is not installed")

from lsprotocol import types  # noqa: E402
from pytest_lsp import LanguageClient  # noqa: E402

from lsp_client import Doc, config, open_vscode_workspace  # noqa: E402
from test_properties_incremental import ALIGNED, BASE, KINDS, LINES, SNIPPETS, apply, compiles  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient, tmp_path_factory):
    await open_vscode_workspace(lsp_client, tmp_path_factory)
    yield
    await lsp_client.shutdown_session()


def position_of(text: str, offset: int) -> types.Position:
    """The LSP position (UTF-16) of ``offset``: lines end at ``\\r\\n``, ``\\r`` or ``\\n``."""
    line, start, i = 0, 0, 0
    while i < offset:
        c = text[i]
        if c == "\r" and text[i + 1: i + 2] == "\n":
            if i + 1 >= offset:
                break
            i += 1
        if c in "\r\n":
            line, start = line + 1, i + 1
        i += 1
    return types.Position(line, len(text[start:offset].encode("utf-16-le")) // 2)


def change(doc: Doc, new: str) -> None:
    """Send the edit from ``doc.text`` to ``new`` as one incremental change."""
    old = doc.text
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    # never split a "\r\n" between the replaced range and what is kept
    while 0 < head and old[head - 1] == "\r":
        head -= 1
    while tail and old[len(old) - tail] == "\n" and old[len(old) - tail - 1: len(old) - tail] == "\r":
        tail -= 1
    start, end = position_of(old, head), position_of(old, len(old) - tail)
    doc.version += 1
    doc.text = new
    doc.client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start, end), text=new[head: len(new) - tail])]))


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_every_published_version_equals_a_fresh_check(client: LanguageClient, seed: int):
    from jaxlint.workspace.config import ConfigStore, Overrides
    from jaxlint.lint.linter import lint_source
    from jaxlint.workspace.ruleinfo import load_rule_infos
    from jaxlint.server import core

    rng = random.Random(seed)
    path = client.root / f"rapid{seed}.py"
    doc = Doc(client, path, BASE)
    texts = {doc.version: doc.text}
    await doc.diagnostics()
    kinds = [k for k, w in KINDS.items() for _ in range(w)]
    valid = doc.text
    edits = 0
    while edits < 200:
        kind = rng.choice(kinds)
        pool = SNIPPETS if kind == "type_in" else ALIGNED if kind == "aligned" else LINES
        line = rng.choice([x for x in pool if "\r" not in x and "\ufeff" not in x])
        edit = (kind, rng.random(), line, rng.choice(["\n", "\r\n"]))
        for version in ([valid] if kind == "undo" else apply(doc.text, edit)):
            if version == doc.text:
                continue
            change(doc, version)
            texts[doc.version] = version
            edits += 1
            if compiles(version):
                valid = version
    last = await doc.diagnostics()
    settings = ConfigStore(load_rule_infos(), Overrides(), client.root).settings_for(path)

    def expected(text: str) -> list[tuple]:
        pos = core.Positions(text, types.PositionEncodingKind.Utf16)
        return sorted((f.code, f.message, pos.finding_range(f).start.line, pos.finding_range(f).start.character,
                       pos.finding_range(f).end.line, pos.finding_range(f).end.character)
                      for f in lint_source(text, str(path), settings).findings)

    def published(diags) -> list[tuple]:
        return sorted((d.code, d.message, d.range.start.line, d.range.start.character,
                       d.range.end.line, d.range.end.character) for d in diags)

    assert published(last) == expected(doc.text)
    seen = 0
    for p in client.published[doc.uri]:  # type: ignore[attr-defined]
        if p.version in texts:
            assert published(p.diagnostics) == expected(texts[p.version]), p.version
            seen += 1
    assert seen >= 2


@pytest.mark.parametrize("separator", ["\x0c", "\u2028", "\x85", "\x1c"])
async def test_edits_after_a_character_python_splitlines_breaks_at(client: LanguageClient, separator: str):
    """pygls split the document with ``str.splitlines``, so an edit after a form
    feed (or U+2028 in a string, ...) landed on another line than the editor's."""
    text = f"import jax\ns = '{separator}'\n\x0c\nx = 1\n"
    doc = Doc(client, client.root / f"sep{ord(separator)}.py", text)
    assert await doc.diagnostics() == []
    doc.type_at(types.Position(3, 0), "y = jax.tree_map(f, x)\n")
    diags = await doc.diagnostics()
    assert doc.text == f"import jax\ns = '{separator}'\n\x0c\ny = jax.tree_map(f, x)\nx = 1\n"
    assert [(d.code, d.range.start.line, d.range.start.character) for d in diags] == [("JAX901", 3, 4)]
