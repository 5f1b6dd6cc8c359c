"""End-to-end tests of ``jaxlint server``: the server runs as a real subprocess
speaking LSP over stdio to a pytest-lsp client (VS Code's capabilities: pushed
diagnostics, UTF-16 positions, versioned edits, resolvable code actions)."""

from __future__ import annotations

import asyncio
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("pygls.lsp.server", reason="the [lsp] extra (pygls 2) is not installed")
pytest_lsp = pytest.importorskip("pytest_lsp", reason="pytest-lsp is not installed")

from lsprotocol import types  # noqa: E402
from pytest_lsp import LanguageClient  # noqa: E402

from lsp_client import Doc, config, edits_of, open_vscode_workspace, rng, summary  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")

REPO = Path(__file__).resolve().parent.parent

SAMPLE = textwrap.dedent('''\
    import jax
    import jax.numpy as jnp


    def update():
        x = jnp.zeros((3, 3))
        x[1, :] = 1.0
        return x


    def discard():
        x = jnp.zeros(3)
        x.at[0].set(5.0)  # noqa: E501
        return x


    def g(key):
        a = jax.random.normal(key, (3,))
        b = jax.random.normal(key, (3,))
        label = "\U0001F600"; t = jax.tree_map(lambda v: v, a)
        return a, b, label, t
    ''')

MSG_101 = ("JAX arrays are immutable: `x[1, :] = ...` raises TypeError. "
           "Use `x = x.at[1, :].set(...)`")
MSG_102 = ("`x.at[...].set(...)` returns a new array and leaves `x` unchanged; the result is "
           "discarded, so this line does nothing. Assign it: `x = x.at[...].set(...)`")
MSG_301 = ("`key` was already consumed by `random.normal` on line 18: both calls get the same "
           "random bits. Split it first, e.g. `k1, k2 = jax.random.split(key)`, and give each "
           "call its own key")
MSG_901 = ("`jax.tree_map` was removed in JAX 0.6.0 (deprecated in 0.4.26): use `jax.tree.map` "
           "instead (identical signature)")

# (code, line, char, end line, end char), 0-based, UTF-16: the emoji on line 19 counts 2
EXPECTED = [
    ("JAX101", 6, 4, 6, 17),
    ("JAX102", 12, 4, 12, 20),
    ("JAX301", 18, 8, 18, 36),
    ("JAX901", 19, 22, 19, 34),
]


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient, tmp_path_factory):
    await open_vscode_workspace(lsp_client, tmp_path_factory)
    yield
    await lsp_client.shutdown_session()


def open_doc(client, name: str, text: str) -> Doc:
    return Doc(client, client.root / name, text)


def by_code(diags, code):
    (d,) = [d for d in diags if d.code == code]
    return d


async def test_diagnostics_on_open_at_exact_ranges(client: LanguageClient):
    doc = open_doc(client, "open_sample.py", SAMPLE)
    diags = await doc.diagnostics()
    assert summary(diags) == EXPECTED
    d101 = by_code(diags, "JAX101")
    assert d101.message == MSG_101
    assert d101.severity == types.DiagnosticSeverity.Error
    assert d101.source == "jaxlint"
    assert d101.code_description.href == (REPO / "docs" / "rules" / "JAX101.md").as_uri()
    assert d101.tags is None
    d102 = by_code(diags, "JAX102")
    assert d102.message == MSG_102
    assert list(d102.tags) == [types.DiagnosticTag.Unnecessary]
    d301 = by_code(diags, "JAX301")
    assert d301.message == MSG_301
    assert list(d301.related_information) == [types.DiagnosticRelatedInformation(
        location=types.Location(uri=doc.uri, range=rng(17, 4, 17, 36)),
        message="the key was first used here",
    )]
    d901 = by_code(diags, "JAX901")
    assert d901.message == MSG_901
    assert list(d901.tags) == [types.DiagnosticTag.Deprecated]
    assert d901.severity == types.DiagnosticSeverity.Error


async def test_unsaved_edits_are_linted_and_versions_tracked(client: LanguageClient):
    doc = open_doc(client, "change.py", SAMPLE)
    assert summary(await doc.diagnostics()) == EXPECTED
    # the buffer (not the file on disk) is what counts
    doc.replace(SAMPLE.replace("    x[1, :] = 1.0\n", "    x = x + 1.0\n"))
    diags = await doc.diagnostics()
    assert [d.code for d in diags] == ["JAX102", "JAX301", "JAX901"]
    assert summary(diags)[0] == ("JAX102", 12, 4, 12, 20)
    # an incremental edit: indent nothing, add a line above everything
    doc.type_at(types.Position(0, 0), "# header\n")
    diags = await doc.diagnostics()
    assert summary(diags) == [("JAX102", 13, 4, 13, 20), ("JAX301", 19, 8, 19, 36),
                              ("JAX901", 20, 22, 20, 34)]


async def test_typing_through_syntax_errors(client: LanguageClient):
    """Every keystroke of a new function: each version either gets JAX001 or
    parses; the server never stops answering, and the last version is right."""
    doc = open_doc(client, "typing.py", "import jax\n")
    assert await doc.diagnostics() == []
    line = "def h(k):\n    return jax.random.normal(k) + jax.random.normal(k)\n"
    pos = types.Position(1, 0)
    text_before = doc.text
    for i, ch in enumerate(line):
        doc.type_at(pos, ch)
        pos = (types.Position(pos.line + 1, 0) if ch == "\n"
               else types.Position(pos.line, pos.character + 1))
    assert doc.text == text_before + line
    diags = await doc.diagnostics()
    assert summary(diags) == [("JAX301", 2, 34, 2, 54)]
    # each publication during the burst was for a version that was current when linted
    for p in client.published[doc.uri]:
        for d in p.diagnostics:
            assert d.code in ("JAX001", "JAX301")
    # a half-typed call: JAX001 at the position Python reports
    doc.type_at(types.Position(2, 54), "(")
    diags = await doc.diagnostics()
    assert [(d.code, d.severity) for d in diags] == [("JAX001", types.DiagnosticSeverity.Error)]
    assert diags[0].message == "The file does not parse: '(' was never closed"
    assert diags[0].range == rng(2, 54, 2, 55)


async def test_quick_fix_applied_and_rechecked(client: LanguageClient):
    doc = open_doc(client, "quickfix.py", SAMPLE)
    diags = await doc.diagnostics()
    d101 = by_code(diags, "JAX101")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=doc.uri),
        range=d101.range,
        context=types.CodeActionContext(diagnostics=[d101],
                                        trigger_kind=types.CodeActionTriggerKind.Invoked),
    ))
    titles = [a.title for a in actions]
    assert titles == [
        "jaxlint (JAX101): Replace with `x = x.at[1, :].set(...)`",
        "jaxlint: Disable JAX101 for this line",
        "jaxlint: Fix all auto-fixable problems",
    ]
    fix = actions[0]
    assert fix.kind == types.CodeActionKind.QuickFix
    assert fix.is_preferred is True
    assert list(fix.diagnostics) == [d101]
    # versioned edit (the client supports documentChanges)
    assert fix.edit.document_changes[0].text_document.version == doc.version
    assert edits_of(fix.edit, doc.uri) == [
        types.TextEdit(range=rng(6, 4, 6, 17), new_text="x = x.at[1, :].set(1.0)")]
    new = doc.apply(fix.edit)
    assert "    x = x.at[1, :].set(1.0)\n" in new
    diags = await doc.diagnostics()
    assert [d.code for d in diags] == ["JAX102", "JAX301", "JAX901"]


async def test_unsafe_fix_is_labelled(client: LanguageClient):
    doc = open_doc(client, "unsafe.py", SAMPLE)
    d102 = by_code(await doc.diagnostics(), "JAX102")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=doc.uri), range=d102.range,
        context=types.CodeActionContext(diagnostics=[d102])))
    fix = actions[0]
    assert fix.title == ("jaxlint (JAX102): Assign the result back to `x` "
                         "(unsafe fix: may change behaviour)")
    assert fix.is_preferred is False
    doc.apply(fix.edit)
    assert "    x = x.at[0].set(5.0)  # noqa: E501\n" in doc.text
    assert [d.code for d in await doc.diagnostics()] == ["JAX101", "JAX301", "JAX901"]


async def test_noqa_merges_with_existing_comment(client: LanguageClient):
    doc = open_doc(client, "noqa.py", SAMPLE)
    d102 = by_code(await doc.diagnostics(), "JAX102")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=doc.uri), range=d102.range,
        context=types.CodeActionContext(diagnostics=[d102])))
    (noqa,) = [a for a in actions if a.title == "jaxlint: Disable JAX102 for this line"]
    assert noqa.kind == types.CodeActionKind.QuickFix
    assert edits_of(noqa.edit, doc.uri) == [
        types.TextEdit(range=rng(12, 34, 12, 34), new_text=", JAX102")]
    doc.apply(noqa.edit)
    assert "    x.at[0].set(5.0)  # noqa: E501, JAX102\n" in doc.text
    assert [d.code for d in await doc.diagnostics()] == ["JAX101", "JAX301", "JAX901"]
    # a line without a comment gets a new one
    d101 = by_code(await doc.diagnostics(), "JAX101")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=doc.uri), range=d101.range,
        context=types.CodeActionContext(diagnostics=[d101])))
    (noqa,) = [a for a in actions if a.title == "jaxlint: Disable JAX101 for this line"]
    doc.apply(noqa.edit)
    assert "    x[1, :] = 1.0  # noqa: JAX101\n" in doc.text
    assert [d.code for d in await doc.diagnostics()] == ["JAX301", "JAX901"]


async def test_fix_all_is_verified_like_the_cli(client: LanguageClient):
    from jaxlint.workspace.config import ConfigStore, Overrides
    from jaxlint.fix.fixer import fix_text
    from jaxlint.workspace.ruleinfo import load_rule_infos

    doc = open_doc(client, "fixall.py", SAMPLE)
    await doc.diagnostics()
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=doc.uri), range=rng(0, 0, 0, 0),
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll])))
    (action,) = actions
    assert action.kind == "source.fixAll.jaxlint"
    assert action.edit is None  # computed on resolve (the client supports it)
    resolved = await client.code_action_resolve_async(action)
    new = doc.apply(resolved.edit)
    settings = ConfigStore(load_rule_infos(), Overrides(), client.root).settings_for(doc.path)
    assert new == fix_text(SAMPLE, str(doc.path), settings).text
    assert "x = x.at[1, :].set(1.0)" in new and "jax.tree.map(" in new
    assert "    x.at[0].set(5.0)  # noqa: E501\n" in new  # the unsafe fix is not applied
    assert [d.code for d in await doc.diagnostics()] == ["JAX102", "JAX301"]
    # nothing left to fix: no fix-all action
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=doc.uri), range=rng(0, 0, 0, 0),
        context=types.CodeActionContext(diagnostics=[], only=["source.fixAll.jaxlint"])))
    assert list(actions) == []


async def test_execute_commands(client: LanguageClient):
    doc = open_doc(client, "commands.py", SAMPLE)
    await doc.diagnostics()
    client.applied.clear()
    ok = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="jaxlint.applyFix",
        arguments=[{"uri": doc.uri, "code": "JAX901", "start": {"line": 19, "character": 22}}]))
    assert ok is True
    (applied,) = client.applied
    assert edits_of(applied.edit, doc.uri) == [
        types.TextEdit(range=rng(19, 22, 19, 34), new_text="jax.tree.map")]
    doc.apply(applied.edit)
    await doc.diagnostics()
    ok = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="jaxlint.addNoqa",
        arguments=[{"uri": doc.uri, "code": "JAX301", "start": {"line": 18, "character": 8}}]))
    assert ok is True
    doc.apply(client.applied[-1].edit)
    assert "    b = jax.random.normal(key, (3,))  # noqa: JAX301\n" in doc.text
    await doc.diagnostics()
    ok = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="jaxlint.applyAutofix", arguments=[{"uri": doc.uri}]))
    assert ok is True
    doc.apply(client.applied[-1].edit)
    assert [d.code for d in await doc.diagnostics()] == ["JAX102"]
    # a finding that is not there: nothing is applied
    n = len(client.applied)
    ok = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="jaxlint.applyFix",
        arguments=[{"uri": doc.uri, "code": "JAX101", "start": {"line": 0, "character": 0}}]))
    assert ok is False and len(client.applied) == n


async def test_commands_with_bad_arguments_answer_invalid_params(client: LanguageClient):
    """A client's malformed command is answered with one line (-32602), not an
    internal error carrying a traceback."""
    from pygls.exceptions import JsonRpcException

    doc = open_doc(client, "badargs.py", SAMPLE)
    await doc.diagnostics()
    for arguments, message in [
        ([{"uri": doc.uri}], 'expected {"uri", "code", "start": {"line", "character"}}'),
        (None, 'expected one argument: {"uri": ..., ...}'),
        ([1, 2], 'expected one argument: {"uri": ..., ...}'),
    ]:
        with pytest.raises(JsonRpcException) as info:
            await client.workspace_execute_command_async(types.ExecuteCommandParams(
                command="jaxlint.applyFix", arguments=arguments))
        assert (info.value.code, info.value.message) == (-32602, message)
        assert not info.value.data  # no traceback


async def test_hover_on_noqa_code(client: LanguageClient):
    doc = open_doc(client, "hover.py", "import jax\nx = 1  # noqa: JAX999, jax301\n")
    await doc.diagnostics()
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=doc.uri), position=types.Position(1, 26)))
    assert hover.range == rng(1, 23, 1, 29)
    assert hover.contents.value.startswith(
        "**JAX301** `prng-key-reuse`\n\nThe same PRNG key is consumed twice")
    # an unknown code or a place outside the comment: nothing
    for char in (17, 2):
        assert await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=doc.uri),
            position=types.Position(1, char))) is None


async def test_config_reload_on_watched_file_change(client: LanguageClient):
    assert [r.method for r in client.registrations] == ["workspace/didChangeWatchedFiles"]
    watchers = client.registrations[0].register_options["watchers"]
    assert [w["globPattern"] for w in watchers] == [
        "**/pyproject.toml", "**/jaxlint.toml", "**/.jaxlint.toml", "**/*.py"]
    project = client.root / "proj"
    project.mkdir()
    pyproject = project / "pyproject.toml"
    pyproject.write_text('[tool.jaxlint]\nignore = ["JAX101"]\n'
                         '[tool.jaxlint.per-file-ignores]\n"sub/*.py" = ["JAX901"]\n')
    doc = Doc(client, project / "sub" / "mod.py", SAMPLE)
    assert [d.code for d in await doc.diagnostics()] == ["JAX102", "JAX301"]
    pyproject.write_text('[tool.jaxlint]\nextend-select = ["JAX950"]\n')
    before = doc.published_count()
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=pyproject.as_uri(), type=types.FileChangeType.Changed)]))
    p = await doc.next_publish(before)
    assert [d.code for d in p.diagnostics] == ["JAX101", "JAX102", "JAX301", "JAX901"]
    # a broken configuration: one clear message, no diagnostics, no crash
    pyproject.write_text('[tool.jaxlint]\nselect = "JAX101"\n')
    before = doc.published_count()
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=pyproject.as_uri(), type=types.FileChangeType.Changed)]))
    p = await doc.next_publish(before)
    assert list(p.diagnostics) == []
    assert client.messages[-1].type == types.MessageType.Error
    assert client.messages[-1].message == (
        f"{pyproject}: [tool.jaxlint] key 'select' must be a list of rule codes, "
        "got string 'JAX101'")
    # the configuration mended: the diagnostics are back (the same empty list is never sent twice)
    pyproject.write_text('[tool.jaxlint]\nignore = ["JAX101"]\n')
    before = doc.published_count()
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=pyproject.as_uri(), type=types.FileChangeType.Changed)]))
    p = await doc.next_publish(before)
    assert [d.code for d in p.diagnostics] == ["JAX102", "JAX301", "JAX901"]
    pyproject.write_text('[tool.jaxlint]\nexclude = ["sub"]\n')
    before = doc.published_count()
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=pyproject.as_uri(), type=types.FileChangeType.Changed)]))
    assert list((await doc.next_publish(before)).diagnostics) == []  # excluded
    doc.close()


async def test_client_settings_through_did_change_configuration(client: LanguageClient):
    doc = open_doc(client, "settings.py", SAMPLE)
    assert [d.code for d in await doc.diagnostics()] == [c[0] for c in EXPECTED]
    before = doc.published_count()
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"jaxlint": {"lint": {"ignore": ["JAX1"], "extendSelect": ["JAX950"]}}}))
    p = await doc.next_publish(before)
    assert [d.code for d in p.diagnostics] == ["JAX301", "JAX901"]
    await asyncio.sleep(1.0)  # the project model's refresh (debounced 0.1 s) has run
    assert doc.published_count() == before + 1  # published once, not again unchanged
    before = doc.published_count()
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"settings": {"select": ["JAX301", "JAX999"]}}))
    p = await doc.next_publish(before)
    assert [d.code for d in p.diagnostics] == ["JAX301"]
    assert client.messages[-1] == types.ShowMessageParams(
        type=types.MessageType.Warning,
        message="jaxlint settings: unknown rule selector 'JAX999' in 'select'")
    # shown once, not also logged (a client that displays both showed it twice)
    unknown = "jaxlint settings: unknown rule selector 'JAX999' in 'select'"
    assert [m.message for m in client.messages].count(unknown) == 1
    assert [m.message for m in client.log_messages].count(unknown) == 0
    before = doc.published_count()
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"jaxlint": {}}))
    p = await doc.next_publish(before)
    assert [d.code for d in p.diagnostics] == [c[0] for c in EXPECTED]


async def test_close_clears_diagnostics(client: LanguageClient):
    doc = open_doc(client, "close.py", SAMPLE)
    assert len(await doc.diagnostics()) == 4
    before = doc.published_count()
    doc.close()
    p = await doc.next_publish(before)
    assert list(p.diagnostics) == [] and p.version is None


async def test_files_without_jax_and_other_languages(client: LanguageClient):
    # never mentions jax: only checked for being valid Python (as the CLI)
    doc = open_doc(client, "plain.py", "def f(:\n")
    assert [(d.code, d.range.start.line, d.range.start.character) for d in await doc.diagnostics()] == [
        ("JAX001", 0, 6)]
    doc = open_doc(client, "plain2.py", "def f(x):\n    return x[0]\n")
    assert await doc.diagnostics() == []
    before = len(client.published)
    toml = client.root / "notes.toml"
    toml.write_text("jax = 1\n")
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=toml.as_uri(), language_id="toml", version=1,
                                             text="jax = 1\n")))
    await doc.diagnostics()
    assert toml.as_uri() not in client.published and len(client.published) == before


async def test_saving_a_configuration_file_in_the_editor_reloads_it(client: LanguageClient):
    project = client.root / "saved"
    project.mkdir()
    cfg = project / "jaxlint.toml"
    cfg.write_text('ignore = ["JAX9"]\n')
    doc = Doc(client, project / "m.py", SAMPLE)
    assert [d.code for d in await doc.diagnostics()] == ["JAX101", "JAX102", "JAX301"]
    cfg.write_text('ignore = ["JAX3"]\n')
    before = doc.published_count()
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=cfg.as_uri())))
    p = await doc.next_publish(before)
    assert [d.code for d in p.diagnostics] == ["JAX101", "JAX102", "JAX901"]


async def test_a_configuration_file_named_in_the_settings(client: LanguageClient):
    (client.root / "custom.toml").write_text('ignore = ["JAX3"]\n')
    doc = open_doc(client, "configured.py", SAMPLE)
    assert [d.code for d in await doc.diagnostics()] == [c[0] for c in EXPECTED]
    before = doc.published_count()
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"jaxlint": {"configuration": "custom.toml"}}))
    p = await doc.next_publish(before)
    assert [d.code for d in p.diagnostics] == ["JAX101", "JAX102", "JAX901"]
    before = doc.published_count()
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"jaxlint": {"configuration": "missing.toml"}}))
    p = await doc.next_publish(before)
    assert list(p.diagnostics) == []
    assert client.messages[-1].message.startswith(f"{client.root / 'missing.toml'}: cannot be read")
    before = doc.published_count()
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"jaxlint": {}}))
    assert [d.code for d in (await doc.next_publish(before)).diagnostics] == [c[0] for c in EXPECTED]
