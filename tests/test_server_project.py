"""End-to-end tests of ``jaxlint server`` with the project-wide model: open
buffers stand in for their files on disk, and a change in one module's buffer
refreshes the diagnostics of the open modules whose facts it changes.  The
server runs as a real subprocess (pytest-lsp), in a two-module project."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("pygls.lsp.server", reason="the [lsp] extra (pygls 2) is not installed")
pytest_lsp = pytest.importorskip("pytest_lsp", reason="pytest-lsp is not installed")

from lsprotocol import types  # noqa: E402
from pytest_lsp import LanguageClient, client_capabilities  # noqa: E402

from lsp_client import TIMEOUT, Doc, config, rng, summary  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")

MAIN = textwrap.dedent('''\
    import jax

    from app.helper import clip


    @jax.jit
    def step(x):
        return clip(x) * 2
    ''')
MAIN_NO_JIT = MAIN.replace("@jax.jit\n", "")
HELPER = textwrap.dedent('''\
    def clip(x):
        if x > 0:
            return x
        return -x
    ''')
CHAIN = "called from `step` (app/main.py:8), which is decorated with @jax.jit"
MSG_201 = ("Python `if` on a traced value: it depends on the traced argument `x` of `clip` "
           f"({CHAIN}); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`")


def write_project(root: Path) -> None:
    (root / "app").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "app"\nversion = "0.1"\n')
    (root / "app" / "__init__.py").write_text("")
    (root / "app" / "main.py").write_text(MAIN)
    (root / "app" / "helper.py").write_text(HELPER)


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient, tmp_path_factory):
    root = tmp_path_factory.mktemp("project")
    write_project(root)
    lsp_client.root = root
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="project")],
    ))
    yield
    await lsp_client.shutdown_session()


async def settled(doc: Doc, want) -> list[types.Diagnostic]:
    """The diagnostics of ``doc``'s current version once their summary is ``want``
    (the project-wide facts arrive after the buffer's own first lint)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while True:
        for p in reversed(doc.client.published.get(doc.uri, [])[doc.opened_at:]):  # type: ignore[attr-defined]
            if p.version == doc.version:
                if summary(p.diagnostics) == want:
                    return list(p.diagnostics)
                break
        if loop.time() > deadline:
            got = [summary(p.diagnostics) for p in doc.client.published.get(doc.uri, [])]  # type: ignore[attr-defined]
            raise AssertionError(f"{doc.uri}: never {want}; published {got}")
        await asyncio.sleep(0.005)


def cli_json(root: Path, *paths: str) -> list[dict]:
    out = subprocess.run([sys.executable, "-m", "jaxlint", "check", "--no-cache", "--output-format",
                          "json", *paths], cwd=root, capture_output=True, text=True, check=False)
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)


def as_cli(diags: list[types.Diagnostic], name: str) -> list[tuple]:
    """(code, message, row, column, end row, end column) as the CLI's JSON has them (ASCII text)."""
    return [(d.code, d.message, d.range.start.line + 1, d.range.start.character + 1,
             d.range.end.line + 1, d.range.end.character + 1) for d in diags]


def cli_rows(found: list[dict], name: str) -> list[tuple]:
    return [(f["code"], f["message"], f["location"]["row"], f["location"]["column"],
             f["end_location"]["row"], f["end_location"]["column"])
            for f in found if f["filename"] == name]


async def test_helper_gets_the_callers_facts_when_opened(client: LanguageClient):
    root = client.root
    helper = Doc(client, root / "app" / "helper.py", HELPER, write=False)
    diags = await settled(helper, [("JAX201", 1, 7, 1, 12)])
    (d,) = diags
    assert d.message == MSG_201
    assert d.severity == types.DiagnosticSeverity.Error
    # the call chain, at the caller's line in the other file (its text without indentation)
    assert list(d.related_information) == [types.DiagnosticRelatedInformation(
        location=types.Location(uri=(root / "app" / "main.py").as_uri(), range=rng(7, 4, 7, 22)),
        message=CHAIN,
    )]
    # exactly what `jaxlint check` run in the project prints for the file
    assert as_cli(diags, "app/helper.py") == cli_rows(cli_json(root, "app/helper.py"), "app/helper.py")
    helper.close()


async def test_unsaved_edit_of_the_caller_refreshes_the_helper(client: LanguageClient):
    root = client.root
    helper = Doc(client, root / "app" / "helper.py", HELPER, write=False)
    main = Doc(client, root / "app" / "main.py", MAIN, write=False)
    await settled(helper, [("JAX201", 1, 7, 1, 12)])
    assert await main.diagnostics() == []
    seen = helper.published_count()
    main.replace(MAIN_NO_JIT)  # unsaved: the file on disk still has the jit
    assert list((await helper.next_publish(seen)).diagnostics) == []
    assert await settled(helper, []) == []
    assert (root / "app" / "main.py").read_text() == MAIN
    # the jit comes back (typed in the buffer): so does the helper's diagnostic
    main.replace(MAIN)
    (d,) = await settled(helper, [("JAX201", 1, 7, 1, 12)])
    assert d.message == MSG_201
    main.close()
    helper.close()


async def test_helper_buffer_edit_keeps_the_facts(client: LanguageClient):
    """An edit in the helper's own buffer is linted with the facts its module
    gets (one file's lint), at the new position."""
    root = client.root
    helper = Doc(client, root / "app" / "helper.py", HELPER, write=False)
    await settled(helper, [("JAX201", 1, 7, 1, 12)])
    helper.type_at(types.Position(0, 0), "# clipping\n")
    (d,) = await helper.diagnostics()
    assert summary([d]) == [("JAX201", 2, 7, 2, 12)]
    assert d.message == MSG_201
    helper.close()


async def test_closing_the_caller_restores_the_file_on_disk(client: LanguageClient):
    root = client.root
    helper = Doc(client, root / "app" / "helper.py", HELPER, write=False)
    main = Doc(client, root / "app" / "main.py", MAIN, write=False)
    await settled(helper, [("JAX201", 1, 7, 1, 12)])
    main.replace(MAIN_NO_JIT)
    await settled(helper, [])
    seen = helper.published_count()
    main.close()  # the unsaved change is dropped: the file on disk (with the jit) counts again
    (d,) = (await helper.next_publish(seen)).diagnostics
    assert d.message == MSG_201
    helper.close()


async def test_a_closed_caller_changed_on_disk(client: LanguageClient):
    """A closed file that changes on disk (a checkout, another editor) refreshes
    the open files through workspace/didChangeWatchedFiles."""
    root = client.root
    helper = Doc(client, root / "app" / "helper.py", HELPER, write=False)
    await settled(helper, [("JAX201", 1, 7, 1, 12)])
    main_path = root / "app" / "main.py"
    main_path.write_text(MAIN_NO_JIT)
    try:
        seen = helper.published_count()
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=main_path.as_uri(), type=types.FileChangeType.Changed)]))
        assert list((await helper.next_publish(seen)).diagnostics) == []
        assert cli_rows(cli_json(root, "app/helper.py"), "app/helper.py") == []
    finally:
        main_path.write_text(MAIN)
    seen = helper.published_count()
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=main_path.as_uri(), type=types.FileChangeType.Changed)]))
    (d,) = (await helper.next_publish(seen)).diagnostics
    assert d.message == MSG_201
    helper.close()


@pytest_lsp.fixture(config=config())
async def puller(lsp_client: LanguageClient, tmp_path):
    write_project(tmp_path)
    lsp_client.root = tmp_path
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("neovim@v0.11.0"), root_uri=tmp_path.as_uri()))
    yield
    await lsp_client.shutdown_session()


async def pulled_until(client: LanguageClient, doc: Doc, want) -> list[types.Diagnostic]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while True:
        report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=doc.uri)))
        if summary(report.items) == want:
            return list(report.items)
        if loop.time() > deadline:
            raise AssertionError(f"pulled {summary(report.items)}, never {want}")
        await asyncio.sleep(0.02)


@pytest.mark.asyncio(loop_scope="function")
async def test_pulled_diagnostics_follow_the_project(puller: LanguageClient):
    root = puller.root
    helper = Doc(puller, root / "app" / "helper.py", HELPER, write=False)
    (d,) = await pulled_until(puller, helper, [("JAX201", 1, 7, 1, 12)])
    assert d.message == MSG_201
    main = Doc(puller, root / "app" / "main.py", MAIN, write=False)
    main.replace(MAIN_NO_JIT)
    assert await pulled_until(puller, helper, []) == []
    assert puller.published == {}  # pulled, never pushed
