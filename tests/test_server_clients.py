"""``jaxlint server`` with other clients: pulled diagnostics and UTF-8 positions
(Neovim 0.11's capabilities), UTF-32 positions and no code-action resolve
(Emacs 29), settings from initializationOptions and workspace/configuration,
a rule that fails, and a clean shutdown (the raw protocol, no client library)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("pygls.lsp.server", reason="the [lsp] extra (pygls 2) is not installed")
pytest_lsp = pytest.importorskip("pytest_lsp", reason="pytest-lsp is not installed")

from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

from lsp_client import SERVER, Doc, config, edits_of, make_client, rng, summary  # noqa: E402
from test_server import SAMPLE  # noqa: E402

asyncio = pytest.mark.asyncio(loop_scope="function")


def by_code(diags, code):
    (d,) = [d for d in diags if d.code == code]
    return d


# ----------------------------------------------------------------------------- Neovim 0.11


@pytest_lsp.fixture(config=config())
async def nvim(lsp_client: LanguageClient, tmp_path):
    lsp_client.root = tmp_path
    lsp_client.set_configuration({"lint": {"ignore": ["JAX301"]}}, section="jaxlint")
    result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("neovim@v0.11.0"),
        root_uri=tmp_path.as_uri(),
        initialization_options={"settings": {"lint": {"ignore": ["JAX102"]}}},
    ))
    lsp_client.init_result = result
    yield
    await lsp_client.shutdown_session()


async def pull(client, doc):
    report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=doc.uri)))
    assert report.kind == "full"
    return list(report.items)


@asyncio
async def test_pull_diagnostics_utf8_and_initialization_options(nvim: LanguageClient):
    caps = nvim.init_result.capabilities
    assert caps.position_encoding == types.PositionEncodingKind.Utf8
    assert caps.diagnostic_provider.identifier == "jaxlint"
    assert nvim.init_result.server_info.name == "jaxlint"
    doc = Doc(nvim, nvim.root / "pulled.py", SAMPLE)
    items = await pull(nvim, doc)
    # JAX102 ignored by initializationOptions; the emoji is 4 UTF-8 bytes
    assert summary(items) == [("JAX101", 6, 4, 6, 17), ("JAX301", 18, 8, 18, 36),
                              ("JAX901", 19, 24, 19, 36)]
    actions = await nvim.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=doc.uri), range=items[2].range,
        context=types.CodeActionContext(diagnostics=[items[2]])))
    fix = actions[0]
    assert fix.title == "jaxlint (JAX901): Replace with `jax.tree.map`"
    assert fix.edit.changes is not None and fix.edit.document_changes is None
    assert edits_of(fix.edit, doc.uri) == [
        types.TextEdit(range=rng(19, 24, 19, 36), new_text="jax.tree.map")]
    doc.apply(fix.edit, encoding="utf-8")
    assert 'label = "\U0001F600"; t = jax.tree.map(lambda v: v, a)' in doc.text
    assert [d.code for d in await pull(nvim, doc)] == ["JAX101", "JAX301"]
    # settings pulled with workspace/configuration when the notification carries none;
    # they replace those of initializationOptions (JAX102 is back, JAX301 ignored)
    nvim.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    for _ in range(400):
        codes = [d.code for d in await pull(nvim, doc)]
        if codes != ["JAX101", "JAX301"]:
            break
    assert codes == ["JAX101", "JAX102"]
    # pulled, never pushed
    assert doc.uri not in nvim.published


# ----------------------------------------------------------------------------- Emacs 29


@pytest_lsp.fixture(config=config())
async def emacs(lsp_client: LanguageClient, tmp_path):
    lsp_client.root = tmp_path
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("emacs"),
        workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="w")],
    ))
    yield
    await lsp_client.shutdown_session()


@asyncio
async def test_utf32_positions_and_eager_fix_all(emacs: LanguageClient):
    doc = Doc(emacs, emacs.root / "e.py", SAMPLE)
    diags = await doc.diagnostics()
    assert summary(diags)[-1] == ("JAX901", 19, 21, 19, 33)
    actions = await emacs.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=doc.uri), range=rng(0, 0, 0, 0),
        context=types.CodeActionContext(diagnostics=[], only=["source.fixAll"])))
    (action,) = actions
    assert action.edit is not None  # no resolve support: the edit comes at once
    doc.apply(action.edit, encoding="utf-32")
    assert [d.code for d in await doc.diagnostics()] == ["JAX102", "JAX301"]


# ----------------------------------------------------------------------------- observed facts


@pytest_lsp.fixture(config=config())
async def observed(lsp_client: LanguageClient, tmp_path):
    from test_observed_facts import write_ops_facts

    write_ops_facts(tmp_path)
    lsp_client.root = tmp_path
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="w")],
    ))
    yield
    await lsp_client.shutdown_session()


@asyncio
async def test_the_facts_jaxlint_observe_recorded_when_the_configuration_asks(observed: LanguageClient):
    """`observed = true` in [tool.jaxlint]: the server lints with `jaxlint observe`'s
    facts as `jaxlint check` does (a function the model cannot follow, called through a
    dict, ran traced by jit: its tracer `if` and `np.tanh` are reported)."""
    from test_observed_facts import OPS

    doc = Doc(observed, observed.root / "ops.py", OPS)
    diags = await doc.diagnostics()
    assert summary(diags) == [("JAX201", 7, 7, 7, 18), ("JAX204", 9, 11, 9, 21)]
    assert "traced by jax.jit in the run `jaxlint observe` recorded" in by_code(diags, "JAX201").message


# ----------------------------------------------------------------------------- failing rule

SITECUSTOMIZE = textwrap.dedent('''\
    # makes one rule raise, to check that the server reports the others
    from jaxlint.rules import all_rules

    def _boom(self, *args, **kwargs):
        raise RuntimeError("rule exploded")

    for _rule in all_rules():
        if _rule.code == "JAX301":
            _rule.__init__ = _boom
    ''')


@pytest.fixture
def broken_rule_env(tmp_path):
    import os

    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")])
    return env


@asyncio
async def test_a_failing_rule_is_logged_and_the_others_report(broken_rule_env, tmp_path):
    client = await ClientServerConfig(server_command=SERVER, client_factory=make_client,
                                      server_env=broken_rule_env).start()
    try:
        await client.initialize_session(types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"), root_uri=tmp_path.as_uri()))
        doc = Doc(client, tmp_path / "b.py", SAMPLE)
        assert [d.code for d in await doc.diagnostics()] == ["JAX101", "JAX102", "JAX901"]
        logged = [m.message for m in client.log_messages if m.type == types.MessageType.Error]
        assert any(m.startswith(f"jaxlint: rule JAX301 failed on {doc.path} and was skipped; "
                                "the other rules still report.") and "rule exploded" in m
                   for m in logged)
        await client.shutdown_session()
        assert client._server.returncode == 0
    finally:
        await client.stop()


# ----------------------------------------------------------------------------- lifecycle


def _frame(obj) -> bytes:
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def _read_messages(data: bytes) -> list[dict]:
    out = []
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        fields = dict(line.split(b": ", 1) for line in head.split(b"\r\n"))
        length = int(fields[b"Content-Length"])
        out.append(json.loads(rest[:length]))
        data = rest[length:]
    return out


def test_shutdown_then_exit_ends_the_process_cleanly(tmp_path):
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    proc = subprocess.run(SERVER, input=b"".join(_frame(m) for m in messages),
                          capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    replies = _read_messages(proc.stdout)
    assert [r.get("id") for r in replies] == [1, 2]
    assert replies[0]["result"]["serverInfo"]["name"] == "jaxlint"
    assert replies[1]["result"] is None


def test_exit_without_shutdown_exits_1(tmp_path):
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    proc = subprocess.run(SERVER, input=b"".join(_frame(m) for m in messages),
                          capture_output=True, timeout=60)
    assert proc.returncode == 1


def test_static_engine_does_not_import_pygls(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("import jax\nx = jax.tree_map(f, y)\n")
    code = ("import sys\nfrom jaxlint.cli import main\n"
            "try:\n    main(['check', '--no-cache', '-q', sys.argv[1]])\n"
            "except SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules\n"
            "             if m.split('.')[0] in ('pygls', 'lsprotocol') or m.startswith('jaxlint.server')))\n")
    proc = subprocess.run([sys.executable, "-c", code, str(src)], capture_output=True, text=True,
                          timeout=60)
    assert proc.stdout.strip().splitlines()[-1] == "[]"


def test_without_pygls_one_clear_line(tmp_path):
    import os

    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text("import sys\nsys.modules['pygls'] = None\n")
    env = dict(os.environ, PYTHONPATH=str(site))
    proc = subprocess.run(SERVER, input=b"", capture_output=True, timeout=60, env=env)
    assert proc.returncode == 2
    assert proc.stdout == b""
    assert proc.stderr.decode() == (
        "error: `jaxlint server` needs pygls 2 and lsprotocol (the `lsp` extra): "
        "pip install -e '.[lsp]' in a jaxlint checkout, or pip install 'pygls>=2.0' 'lsprotocol>=2025.0.0'\n")


class _Raw:
    """The server as a subprocess, spoken to in raw JSON-RPC."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.replies: dict = {}

    def send(self, *messages) -> None:
        for m in messages:
            self.proc.stdin.write(_frame(m))
        self.proc.stdin.flush()

    def wait_for(self, *ids) -> None:
        while not all(i in self.replies for i in ids):
            headers = {}
            while True:
                line = self.proc.stdout.readline()
                assert line, "the server closed its output"
                if line == b"\r\n":
                    break
                key, _, value = line.decode().partition(": ")
                headers[key] = value.strip()
            body = json.loads(self.proc.stdout.read(int(headers["Content-Length"])))
            if "id" in body and "method" not in body:
                self.replies[body["id"]] = body


def test_a_cancelled_request_leaves_the_server_working(tmp_path):
    src = tmp_path / "c.py"
    src.write_text(SAMPLE)
    uri = src.as_uri()
    doc = {"uri": uri}
    raw = _Raw()
    try:
        raw.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}})
        raw.wait_for(1)
        raw.send(
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": uri, "languageId": "python", "version": 1, "text": SAMPLE}}},
            {"jsonrpc": "2.0", "id": 2, "method": "textDocument/codeAction", "params": {
                "textDocument": doc, "range": {"start": {"line": 0, "character": 0},
                                               "end": {"line": 30, "character": 0}},
                "context": {"diagnostics": []}}},
            {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 2}},
            {"jsonrpc": "2.0", "id": 3, "method": "textDocument/diagnostic",
             "params": {"textDocument": doc}},
        )
        raw.wait_for(2, 3)
        # cancelled (RequestCancelled), or answered when it finished first
        assert raw.replies[2].get("error", {}).get("code") == -32800 or "result" in raw.replies[2]
        assert [d["code"] for d in raw.replies[3]["result"]["items"]] == [
            "JAX101", "JAX102", "JAX301", "JAX901"]
        raw.send({"jsonrpc": "2.0", "id": 4, "method": "shutdown"})
        raw.wait_for(4)
        assert raw.replies[4]["result"] is None
        raw.send({"jsonrpc": "2.0", "method": "exit"})
        assert raw.proc.wait(timeout=60) == 0
    finally:
        if raw.proc.poll() is None:
            raw.proc.kill()
            raw.proc.wait()
