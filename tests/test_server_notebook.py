"""``jaxlint server`` and notebook documents (LSP 3.17 ``notebookDocument/*``):
a real server subprocess and a pytest-lsp client, as VS Code and Ruff's server
speak them: the cells are linted as one program, diagnostics land on each cell
with cell-relative ranges, quick fixes and fix-all edit the cells."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

pytest.importorskip("pygls.lsp.server", reason="the [lsp] extra (pygls 2) is not installed")
pytest_lsp = pytest.importorskip("pytest_lsp", reason="pytest-lsp is not installed")

from lsprotocol import types  # noqa: E402
from pytest_lsp import LanguageClient  # noqa: E402

from lsp_client import TIMEOUT, apply_text_edits, config, edits_of, open_vscode_workspace, summary  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")

CELLS = [
    (types.NotebookCellKind.Code, "import jax\nimport jax.numpy as jnp\n"),
    (types.NotebookCellKind.Markup, "# A jitted step\n"),
    (types.NotebookCellKind.Code, "@jax.jit\ndef f(x):\n    if x > 0:\n        return x\n    return -x\n"),
    (types.NotebookCellKind.Code, "x = jnp.ones(3)\n%timeit f(x)\ny = jax.tree_map(f, [x])\n"),
    (types.NotebookCellKind.Code, "key = jax.random.PRNGKey(0)\na = jax.random.normal(key, (3,))\n"),
    (types.NotebookCellKind.Code, "b = jax.random.uniform(key, (3,))\n"),
]


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient, tmp_path_factory):
    await open_vscode_workspace(lsp_client, tmp_path_factory)
    yield
    await lsp_client.shutdown_session()


def _cell_uri(nb: Path, i: int) -> str:
    return f"vscode-notebook-cell://{nb.as_posix()}#W{i}sZmlsZQ%3D%3D"


class Notebook:
    def __init__(self, client, path: Path) -> None:
        self.client, self.path = client, path
        self.uri = path.as_uri()
        self.version = 1
        self.cells = [(kind, _cell_uri(path, i), text) for i, (kind, text) in enumerate(CELLS)]
        self.versions = {uri: 1 for _, uri, _ in self.cells}
        path.write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
        client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=self.uri, notebook_type="jupyter-notebook", version=1,
                cells=[types.NotebookCell(kind=k, document=u) for k, u, _ in self.cells]),
            cell_text_documents=[types.TextDocumentItem(
                uri=u, language_id="python" if k == types.NotebookCellKind.Code else "markdown",
                version=1, text=t) for k, u, t in self.cells]))

    def text(self, i: int) -> str:
        return self.cells[i][2]

    def uri_of(self, i: int) -> str:
        return self.cells[i][1]

    def change_cell(self, i: int, new_text: str) -> None:
        kind, uri, _ = self.cells[i]
        self.cells[i] = (kind, uri, new_text)
        self.version += 1
        self.versions[uri] += 1
        self.client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(uri=self.uri, version=self.version),
            change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(
                text_content=[types.NotebookDocumentCellContentChanges(
                    document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                    changes=[types.TextDocumentContentChangeWholeDocument(text=new_text)])]))))

    async def diagnostics(self, i: int) -> list[types.Diagnostic]:
        uri = self.uri_of(i)
        want = self.versions[uri]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while True:
            for p in reversed(self.client.published.get(uri, [])):
                if p.version == want:
                    return list(p.diagnostics)
            if loop.time() > deadline:
                raise AssertionError(f"no diagnostics for cell {i} version {want}: {[m.message for m in self.client.log_messages]} {list(self.client.published)}")
            await asyncio.sleep(0.005)


async def test_diagnostics_land_on_their_cells_with_cell_ranges(client: LanguageClient):
    nb = Notebook(client, client.root / "explore.ipynb")
    assert await nb.diagnostics(0) == []
    assert summary(await nb.diagnostics(2)) == [("JAX201", 2, 7, 2, 12)]
    assert summary(await nb.diagnostics(3)) == [("JAX505", 1, 0, 1, 12), ("JAX901", 2, 4, 2, 16)]
    (d301,) = await nb.diagnostics(5)
    assert summary([d301]) == [("JAX301", 0, 4, 0, 33)]
    assert "already consumed by `random.normal` on line 2 of cell 5" in d301.message
    # editing one cell changes what another cell is told: the key is split now
    nb.change_cell(4, "key = jax.random.PRNGKey(0)\nkey, sub = jax.random.split(key)\n"
                      "a = jax.random.normal(sub, (3,))\n")
    assert await nb.diagnostics(4) == []
    nb.change_cell(5, "b = jax.random.uniform(key, (3,))\n")
    assert await nb.diagnostics(5) == []


async def test_quick_fix_and_fix_all_edit_the_cells(client: LanguageClient):
    nb = Notebook(client, client.root / "fixes.ipynb")
    (d901,) = [d for d in await nb.diagnostics(3) if d.code == "JAX901"]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=nb.uri_of(3)), range=d901.range,
        context=types.CodeActionContext(diagnostics=[d901])))
    fix = next(a for a in actions if a.kind == types.CodeActionKind.QuickFix and "jax.tree.map" in a.title)
    assert apply_text_edits(nb.text(3), edits_of(fix.edit, nb.uri_of(3))) == (
        "x = jnp.ones(3)\n%timeit f(x)\ny = jax.tree.map(f, [x])\n")
    noqa = next(a for a in actions if a.title == "jaxlint: Disable JAX901 for this line")
    assert apply_text_edits(nb.text(3), edits_of(noqa.edit, nb.uri_of(3))) == (
        "x = jnp.ones(3)\n%timeit f(x)\ny = jax.tree_map(f, [x])  # noqa: JAX901\n")
    fix_all = next(a for a in actions if a.kind == "source.fixAll.jaxlint")
    if fix_all.edit is None:
        fix_all = await client.code_action_resolve_async(fix_all)
    assert apply_text_edits(nb.text(3), edits_of(fix_all.edit, nb.uri_of(3))) == (
        "x = jnp.ones(3)\n%timeit f(x)\ny = jax.tree.map(f, [x])\n")
    nb.change_cell(3, "x = jnp.ones(3)\n%timeit f(x)\ny = jax.tree.map(f, [x])\n")
    assert summary(await nb.diagnostics(3)) == [("JAX505", 1, 0, 1, 12)]


async def test_closing_a_notebook_clears_its_cells(client: LanguageClient):
    nb = Notebook(client, client.root / "closing.ipynb")
    assert summary(await nb.diagnostics(2)) == [("JAX201", 2, 7, 2, 12)]
    client.notebook_document_did_close(types.DidCloseNotebookDocumentParams(
        notebook_document=types.NotebookDocumentIdentifier(uri=nb.uri),
        cell_text_documents=[types.TextDocumentIdentifier(uri=u) for _, u, _ in nb.cells]))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while client.published[nb.uri_of(2)][-1].diagnostics:
        assert loop.time() < deadline
        await asyncio.sleep(0.01)
