"""``jaxlint server`` lints through the linter's one guarded entry (issue 25 item 1).

A buffer nested deeper than libcst's native parser survives (a 20,000-operand
``and`` chain) used to reach libcst through the incremental parser, which skipped
the guard, and killed the server's process (a segmentation fault).  Now it gets
one "could not be checked" diagnostic, as ``jaxlint check`` reports it, and the
server keeps answering."""

from __future__ import annotations

import pytest

pytest.importorskip("pygls.lsp.server", reason="the [lsp] extra (pygls 2) is not installed")
pytest_lsp = pytest.importorskip("pytest_lsp", reason="pytest-lsp is not installed")

from lsprotocol import types  # noqa: E402
from pytest_lsp import LanguageClient  # noqa: E402

from lsp_client import Doc, config, open_vscode_workspace, rng, summary  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")

CHAIN = " and ".join(["a"] * 20_000)
BEFORE = "import jax\n\n\n@jax.jit\ndef f(a):\n    return a\n\n\ny = jax.tree_map(f, [1])\n"
MSG_901 = ("`jax.tree_map` was removed in JAX 0.6.0 (deprecated in 0.4.26): use `jax.tree.map` "
           "instead (identical signature)")


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient, tmp_path_factory):
    await open_vscode_workspace(lsp_client, tmp_path_factory)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.parametrize("where", ["jitted function", "module level"])
async def test_a_chain_too_deep_for_libcst_gets_one_diagnostic_and_the_server_lives(
        client: LanguageClient, where: str):
    doc = Doc(client, client.root / f"deep_{where.split()[0]}.py", BEFORE)
    assert summary(await doc.diagnostics()) == [("JAX901", 8, 4, 8, 16)]
    # typed into the open buffer: the incremental parser has seen its earlier versions
    if where == "jitted function":
        doc.type_at(types.Position(5, 0), f"    x = {CHAIN}\n")
        line = 6
    else:
        doc.type_at(types.Position(7, 0), f"x = {CHAIN}\n")
        line = 8
    diags = await doc.diagnostics()
    assert [(d.message, d.severity, d.source, d.code) for d in diags] == [(
        f"could not be checked: nesting deeper than 1,500 levels at line {line}",
        types.DiagnosticSeverity.Error, "jaxlint", None)]
    indent = 4 if where == "jitted function" else 0
    assert diags[0].range == rng(line - 1, indent, line - 1, indent + 4 + len(CHAIN))
    # still alive: a request is answered, and the next edit is linted as before
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=doc.uri), position=types.Position(0, 0)))
    assert hover is None
    doc.replace(BEFORE)
    diags = await doc.diagnostics()
    assert summary(diags) == [("JAX901", 8, 4, 8, 16)]
    assert diags[0].message == MSG_901
