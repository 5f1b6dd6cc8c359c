"""`jaxlint mcp`: the server started as a subprocess, driven by the MCP SDK's own
stdio client (tools/list, tools/call with good and bad arguments, roots).

Skipped when the `mcp` SDK (the [mcp] extra) is not installed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Awaitable, Callable, Optional

import pytest

pytest.importorskip("mcp")

import anyio  # noqa: E402
import mcp_types as types  # noqa: E402
from mcp import ClientSession, StdioServerParameters, stdio_client  # noqa: E402

SHARP = """\
import jax
import jax.numpy as jnp


def update():
    x = jnp.zeros(3)
    x[0] = 1.0
    return x


@jax.jit
def f(x):
    print(x)
    if x > 0:
        return x
    return -x
"""
FIXED = SHARP.replace("    x[0] = 1.0\n", "    x = x.at[0].set(1.0)\n")
CONFIG = """\
[tool.jaxlint]
ignore = ["JAX401"]
per-file-ignores = { "tests/*" = ["JAX101"] }
"""
MSG_101 = "JAX arrays are immutable: `x[0] = ...` raises TypeError. Use `x = x.at[0].set(...)`"
MSG_201 = ("Python `if` on a traced value: it depends on the traced argument `x` of `f` (decorated "
           "with @jax.jit); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; "
           "or, if `x` is a Python value, mark it static (static_argnums=0)")
DIFF = """\
--- a/pkg/sharp.py
+++ b/pkg/sharp.py
@@ -4,7 +4,7 @@
 
 def update():
     x = jnp.zeros(3)
-    x[0] = 1.0
+    x = x.at[0].set(1.0)
     return x
 
 
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "pkg").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "pyproject.toml").write_text(CONFIG)
    (root / "pkg" / "sharp.py").write_text(SHARP)
    (root / "tests" / "test_sharp.py").write_text(SHARP)
    (tmp_path / "outside.py").write_text(SHARP)
    return root


Scenario = Callable[[ClientSession], Awaitable[Any]]


def _serve(cwd: Path, scenario: Scenario, roots: Optional[list[Path]] = None) -> Any:
    """Start `jaxlint mcp` in ``cwd``, run ``scenario`` against it, return its result.

    With ``roots`` the client declares the roots capability and lists them."""
    errlog_path = cwd.parent / "server-stderr.txt"

    async def list_roots(context: Any) -> types.ListRootsResult:
        return types.ListRootsResult(roots=[types.Root(uri=r.as_uri()) for r in roots or []])

    async def main() -> Any:
        params = StdioServerParameters(command=sys.executable, args=["-m", "jaxlint", "mcp"], cwd=cwd)
        with open(errlog_path, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write,
                                         list_roots_callback=list_roots if roots else None) as session:
                    await session.initialize()
                    return await scenario(session)

    result = anyio.run(main)
    assert "Traceback" not in errlog_path.read_text()
    return result


def _error(result: types.CallToolResult) -> str:
    assert result.is_error, result
    assert result.structured_content is None
    [block] = result.content
    return block.text


def _ok(result: types.CallToolResult) -> dict:
    assert not result.is_error, result.content
    [block] = result.content
    assert json.loads(block.text) == result.structured_content  # text mirrors the structure
    return result.structured_content


def _where(findings: list[dict]) -> list[tuple]:
    return [(f["code"], f["path"], f["line"], f["column"], f["message"]) for f in findings]


def test_list_tools(project: Path) -> None:
    async def scenario(s: ClientSession):
        return (await s.list_tools()).tools

    tools = {t.name: t for t in _serve(project, scenario)}
    assert sorted(tools) == ["check", "confirm", "fix", "rule", "rules"]
    assert tools["check"].input_schema == {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "paths": {"type": "array", "items": {"type": "string"},
                      "description": tools["check"].input_schema["properties"]["paths"]["description"]},
            "source": {"type": "string",
                       "description": tools["check"].input_schema["properties"]["source"]["description"]},
            "filename": {"type": "string",
                         "description": tools["check"].input_schema["properties"]["filename"]["description"]},
            "select": {"type": "array", "items": {"type": "string"},
                       "description": tools["check"].input_schema["properties"]["select"]["description"]},
        },
    }
    assert tools["rule"].input_schema["required"] == ["code"]
    assert tools["confirm"].input_schema["required"] == ["paths"]
    assert tools["fix"].input_schema["properties"]["write"]["default"] is False
    assert tools["confirm"].description.startswith("RUNS THE USER'S CODE")
    assert tools["check"].annotations.read_only_hint is True
    assert tools["fix"].annotations.read_only_hint is False
    assert tools["fix"].annotations.destructive_hint is True
    for t in tools.values():
        assert t.output_schema["type"] == "object" and t.description


def test_check_gives_the_cli_findings_with_the_project_configuration(project: Path) -> None:
    source = "import jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 1\n"

    async def scenario(s: ClientSession):
        return [
            _ok(await s.call_tool("check", {})),
            _ok(await s.call_tool("check", {"paths": ["pkg"]})),
            _ok(await s.call_tool("check", {"paths": [str(project / "pkg" / "sharp.py")]})),
            _ok(await s.call_tool("check", {"paths": ["pkg"], "select": ["JAX201"]})),
            _ok(await s.call_tool("check", {"source": source, "filename": "pkg/new.py"})),
            _ok(await s.call_tool("check", {"source": source, "filename": "tests/new.py"})),
        ]

    (project / "legacy").mkdir()
    (project / "legacy" / "latin.py").write_bytes(b"import jax\nx = '\xe9\xff'\n")
    whole, pkg, absolute, selected, unsaved, unsaved_test = _serve(project, scenario)
    # JAX401 (print) is ignored by the project's configuration, JAX101 by its per-file-ignores
    assert _where(whole["findings"]) == [
        ("JAX101", "pkg/sharp.py", 7, 5, MSG_101),
        ("JAX201", "pkg/sharp.py", 14, 8, MSG_201),
        ("JAX201", "tests/test_sharp.py", 14, 8, MSG_201),
    ]
    # one file that cannot be decoded is reported in one line; the others are checked
    assert whole["files_checked"] == 3 and "files" not in whole and whole["errors"] == [
        "legacy/latin.py: not valid UTF-8: byte 0xe9 on line 2 (save the file as UTF-8, or name "
        "its encoding on line 1 or 2, e.g. `# -*- coding: latin-1 -*-`)"]
    assert whole["summary"] == "3 findings (1 with a safe fix). 1 path could not be checked."
    cli = subprocess.run([sys.executable, "-m", "jaxlint", "check", "--no-cache", "--output-format",
                          "json"], cwd=project, capture_output=True, text=True)
    assert [(d["code"], d["filename"], d["location"]["row"], d["location"]["column"], d["message"])
            for d in json.loads(cli.stdout)] == _where(whole["findings"])
    assert cli.stderr.splitlines() == [f"error: {line}" for line in whole["errors"]]

    assert _where(pkg["findings"]) == _where(whole["findings"])[:2]
    first = pkg["findings"][0]
    assert first["end"] == {"line": 7, "column": 15}
    assert first["severity"] == "error" and first["function"] == "update"
    assert first["fix"] == {
        "safety": "safe",
        "message": "Replace with `x = x.at[0].set(...)`",
        "edits": [{"line": 7, "column": 5, "end": {"line": 7, "column": 15},
                   "content": "x = x.at[0].set(1.0)"}],
    }
    assert pkg["findings"][1]["fix"] is None
    # an absolute path gives absolute paths back
    assert [f["path"] for f in absolute["findings"]] == [str(project / "pkg" / "sharp.py")] * 2
    assert _where(selected["findings"]) == [("JAX201", "pkg/sharp.py", 14, 8, MSG_201)]
    assert _where(unsaved["findings"]) == [("JAX101", "pkg/new.py", 3, 1, MSG_101)]
    assert unsaved_test["findings"] == []  # tests/* ignores JAX101


def test_bad_arguments_get_one_sentence(project: Path) -> None:
    from jaxlint.workspace.config import _KEYS

    BAD_CONFIG = (f"The jaxlint configuration is invalid: {project / 'bad' / 'jaxlint.toml'}: unknown "
                  f"key 'selcet' (did you mean 'select'?); expected one of: {', '.join(_KEYS)}")
    calls = [
        ("check", {"paths": "pkg"}, "'paths' must be a list of strings."),
        ("check", {"path": ["pkg"]}, "check has no argument 'path'; it takes paths, source, filename, select."),
        ("check", {"paths": ["pkg"], "source": "x = 1\n"}, "Give either 'paths' or 'source', not both."),
        ("check", {"filename": "a.py"}, "'filename' names the text given in 'source'; give 'source' too."),
        ("check", {"paths": ["missing.py"]}, "path 'missing.py' does not exist."),
        ("check", {"paths": []}, "'paths' is empty; leave it out to check the whole workspace."),
        ("check", {"paths": ["pkg"], "select": ["JAX999"]},
         "Unknown rule selector 'JAX999' in 'select' (the rules tool lists every code)."),
        ("fix", {"paths": ["pkg"], "write": "yes"}, "'write' must be true or false."),
        ("fix", {"source": "x = 1\n", "write": True},
         "'write' needs files on disk; with 'source' the fixed text is returned instead."),
        ("rule", {}, "rule needs the argument 'code'."),
        ("rule", {"code": "JAX999"}, "Unknown rule 'JAX999' (the rules tool lists every code)."),
        ("rules", {"all": True}, "rules has no argument 'all'; it takes no arguments."),
        ("confirm", {"paths": ["pkg"], "timeout": 0}, "'timeout' must be a number of seconds above 0."),
        ("confirm", {"paths": []}, "'paths' is empty; name the files to confirm."),
        ("lint", {}, "Unknown tool 'lint'; the tools are check, fix, confirm, rules, rule."),
        ("check", {"paths": ["pkg"], "select": []}, "'select' must name at least one rule (or be left out)."),
        ("check", {"paths": ["bad"]}, BAD_CONFIG),
        ("fix", {"paths": ["a" * 100_000], "write": True},
         "path 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'... (100000 characters) is too long (a path has at "
         "most 4096 bytes, and each name in it at most 255)."),
        ("check", {"paths": ["pkg\0"]}, "path 'pkg\\x00' is not a valid path (it contains a NUL character)."),
        ("fix", {"source": "import jax\n", "filename": "bad/new.py"}, BAD_CONFIG),
    ]
    (project / "bad").mkdir()
    (project / "bad" / "jaxlint.toml").write_text("selcet = []\n")
    (project / "bad" / "x.py").write_text("import jax\n")

    async def scenario(s: ClientSession):
        return [_error(await s.call_tool(name, args)) for name, args, _ in calls]

    assert _serve(project, scenario) == [expected for _, _, expected in calls]


def test_paths_outside_the_workspace_are_refused(project: Path) -> None:
    outside = project.parent / "outside.py"

    async def no_roots(s: ClientSession):
        return [
            _error(await s.call_tool("check", {"paths": [str(outside)]})),
            _error(await s.call_tool("check", {"paths": ["../outside.py"]})),
            _error(await s.call_tool("fix", {"paths": ["/"], "write": True})),
            _error(await s.call_tool("check", {"source": "x = 1\n", "filename": "../x.py"})),
            _error(await s.call_tool("confirm", {"paths": [str(outside)]})),
        ]

    refused = f"is outside the workspace roots ({project}), so it is refused."
    assert _serve(project, no_roots) == [
        f"path {str(outside)!r} {refused}",
        f"path '../outside.py' {refused}",
        f"path '/' {refused}",
        f"filename '../x.py' {refused}",
        f"path {str(outside)!r} {refused}",
    ]
    assert outside.read_text() == SHARP

    # a client that declares roots: only they count, relative paths start at the first one
    async def with_roots(s: ClientSession):
        return [
            _error(await s.call_tool("check", {"paths": [str(project / "tests")]})),
            _ok(await s.call_tool("check", {"paths": ["sharp.py"]})),
            _ok(await s.call_tool("check", {})),
        ]

    pkg = project / "pkg"
    refused_tests, inside, whole = _serve(project, with_roots, roots=[pkg])
    assert refused_tests == (f"path {str(project / 'tests')!r} is outside the workspace roots "
                             f"({pkg}), so it is refused.")
    assert _where(inside["findings"]) == [("JAX101", "sharp.py", 7, 5, MSG_101),
                                          ("JAX201", "sharp.py", 14, 8, MSG_201)]
    assert _where(whole["findings"]) == _where(inside["findings"])


def test_fix_returns_the_diff_and_writes_only_when_asked(project: Path) -> None:
    target = project / "pkg" / "sharp.py"

    async def scenario(s: ClientSession):
        dry = _ok(await s.call_tool("fix", {"paths": ["pkg"]}))
        after_dry = target.read_text()
        unsaved = _ok(await s.call_tool("fix", {"source": SHARP, "filename": "pkg/new.py"}))
        print_only = {"paths": ["pkg/sharp.py"], "select": ["JAX401"]}
        safe_only = _ok(await s.call_tool("fix", print_only))
        unsafe = _ok(await s.call_tool("fix", {**print_only, "unsafe": True}))
        written = _ok(await s.call_tool("fix", {"paths": ["pkg/sharp.py"], "write": True}))
        again = _ok(await s.call_tool("fix", {"paths": ["pkg/sharp.py"], "write": True}))
        return dry, after_dry, unsaved, safe_only, unsafe, written, again

    cli = subprocess.run([sys.executable, "-m", "jaxlint", "check", "--no-cache", "--diff", "pkg"],
                         cwd=project, capture_output=True, text=True)
    cli_unsafe = subprocess.run([sys.executable, "-m", "jaxlint", "check", "--no-cache", "--diff",
                                 "--unsafe-fixes", "--select", "JAX401", "pkg/sharp.py"],
                                cwd=project, capture_output=True, text=True)
    dry, after_dry, unsaved, safe_only, unsafe, written, again = _serve(project, scenario)
    assert dry["diff"] == DIFF == cli.stdout
    assert after_dry == SHARP  # write=false writes nothing
    assert dry["fixed"] == 1 and dry["written"] is False and dry["files_checked"] == 1
    assert dry["files"] == [{"path": "pkg/sharp.py", "skipped": [], "written": False, "applied": [
        {"code": "JAX101", "line": 7, "column": 5, "message": "Replace with `x = x.at[0].set(...)`"}]}]
    assert _where(dry["remaining"]) == [("JAX201", "pkg/sharp.py", 14, 8, MSG_201)]
    assert dry["summary"] == "Would fix 1 finding; 1 remains."

    assert unsaved["source"] == FIXED and unsaved["diff"] == DIFF.replace("pkg/sharp.py", "pkg/new.py")

    # the print fix is unsafe: applied only with unsafe=true
    assert safe_only["diff"] == "" and safe_only["fixed"] == 0
    assert [f["code"] for f in safe_only["remaining"]] == ["JAX401"]
    assert unsafe["fixed"] == 1 and unsafe["remaining"] == []
    assert unsafe["diff"] == cli_unsafe.stdout and '+    jax.debug.print("{}", x)\n' in unsafe["diff"]

    assert written["written"] is True and written["summary"] == "Fixed 1 finding; 1 remains."
    assert target.read_text() == FIXED
    assert again["fixed"] == 0 and again["diff"] == "" and again["files"] == []
    assert _where(again["remaining"]) == [("JAX201", "pkg/sharp.py", 14, 8, MSG_201)]


def test_rule_and_rules(project: Path) -> None:
    from jaxlint.docs import render_rule_markdown
    from jaxlint.rules import all_rules

    async def scenario(s: ClientSession):
        return (_ok(await s.call_tool("rules", {})), _ok(await s.call_tool("rule", {"code": "JAX101"})),
                _ok(await s.call_tool("rule", {"code": "prng-key-reuse"})))

    listed, jax101, by_name = _serve(project, scenario)
    registry = all_rules()
    assert [(r["code"], r["name"], r["default_enabled"], r["fix_availability"]) for r in listed["rules"]] == [
        (r.code, r.name, r.default_enabled, r.fix_availability) for r in registry]
    rule101 = next(r for r in registry if r.code == "JAX101")
    assert jax101["name"] == "inplace-array-update" and jax101["fix_availability"] == "sometimes"
    assert jax101["what_it_does"] == rule101.what_it_does.strip()
    assert jax101["fix_safety"] == rule101.fix_safety.strip()
    assert jax101["documentation"] == render_rule_markdown(rule101)
    assert by_name["code"] == "JAX301"


@pytest.mark.slow
def test_confirm_runs_the_runtime_companion(project: Path) -> None:
    pytest.importorskip("jax")

    async def scenario(s: ClientSession):
        return _ok(await s.call_tool("confirm", {"paths": ["pkg/sharp.py"], "timeout": 60}))

    report = _serve(project, scenario)
    assert _where(report["findings"]) == [("JAX101", "pkg/sharp.py", 7, 5, MSG_101),
                                          ("JAX201", "pkg/sharp.py", 14, 8, MSG_201)]
    first, second = (f["runtime"] for f in report["findings"])
    assert first["verdict"] == "confirmed"
    assert first["evidence"].startswith("TypeError at line 7: JAX arrays are immutable")
    assert second == {"verdict": "skipped", "details": {}, "reason": (
        "no input for argument `x`: run code that calls it (--run), declare it in JAXLINT_INPUTS "
        "or [tool.jaxlint.runtime] inputs, or annotate it")}
    assert report["verdicts"] == {"confirmed": 1, "skipped": 1}
    assert report["summary"] == "1 confirmed, 1 skipped." and report["errors"] == []


@pytest.mark.slow
def test_confirm_with_a_run_command_observes_the_inputs(project: Path) -> None:
    pytest.importorskip("jax")
    run = f"{sys.executable} -c 'import jax.numpy as jnp, pkg.sharp as s; s.f(jnp.float32(2.0))'"

    async def scenario(s: ClientSession):
        return _ok(await s.call_tool("confirm", {"paths": ["pkg/sharp.py"], "run": [run], "timeout": 60}))

    report = _serve(project, scenario)
    verdicts = {(f["code"], f["line"]): f["runtime"]["verdict"] for f in report["findings"]}
    # the input the run gave `f` lets the companion trace it: the JAX201 is confirmed too
    assert verdicts == {("JAX101", 7): "confirmed", ("JAX201", 14): "confirmed"}


def test_confirm_runs_a_notebook(project: Path) -> None:
    pytest.importorskip("jax")
    cells = ["import jax\n", "key = jax.random.PRNGKey(0)\nx = jax.random.normal(key, (3,))\n",
             "y = jax.random.uniform(key, (3,))\n"]
    (project / "nb.ipynb").write_text(json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                   "source": c} for c in cells],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 4}))

    async def scenario(s: ClientSession):
        return _ok(await s.call_tool("confirm", {"paths": ["nb.ipynb"], "timeout": 60}))

    report = _serve(project, scenario)
    (found,) = report["findings"]
    assert (found["code"], found["path"], found["cell"], found["line"], found["column"]) == (
        "JAX301", "nb.ipynb", 3, 1, 5)
    assert found["runtime"]["verdict"] == "confirmed"
    assert found["runtime"]["evidence"] == ("the notebook run drew from the same key bits at "
                                            "line 2 of cell 2 (`normal`) and line 1 of cell 3 (`uniform`)")
    assert report["summary"] == "1 confirmed."


def test_the_engine_imports_no_mcp_sdk() -> None:
    code = ("import sys, jaxlint.cli, jaxlint.mcp_server, jaxlint.mcp_server.tools;"
            "assert 'mcp' not in sys.modules and 'mcp_types' not in sys.modules, 'mcp imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_missing_sdk_is_one_line(monkeypatch, capsys) -> None:
    from importlib import metadata

    import jaxlint.mcp_server as mcp_server

    def not_installed(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", not_installed)
    assert mcp_server.main() == 2
    err = capsys.readouterr().err
    assert err == ("error: `jaxlint mcp` needs the MCP Python SDK 2.x (it is not installed); install "
                   "the `mcp` extra (pip install -e '.[mcp]' in a checkout) or pip install 'mcp>=2.0,<3'\n")


def _doc_json_blocks() -> list:
    import re

    text = (Path(__file__).resolve().parent.parent / "docs" / "agents.md").read_text()
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text, re.S)]


def test_the_documented_client_configurations_start_the_server(project: Path) -> None:
    blocks = _doc_json_blocks()
    configs = [b["mcpServers"]["jaxlint"] for b in blocks if "mcpServers" in b]
    configs += [b["servers"]["jaxlint"] for b in blocks if "servers" in b]
    assert len(configs) == 2 and configs[1]["type"] == "stdio"
    bin_dir = Path(sys.executable).parent  # `jaxlint` as installed next to this Python
    for config in configs:
        assert config["command"] == "jaxlint"
        errlog = project.parent / "server-stderr.txt"

        async def main() -> list[str]:
            params = StdioServerParameters(command=str(bin_dir / config["command"]),
                                           args=config["args"], cwd=project)
            with open(errlog, "w") as err:
                async with stdio_client(params, errlog=err) as (read, write):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
                        return sorted(t.name for t in (await session.list_tools()).tools)

        assert anyio.run(main) == ["check", "confirm", "fix", "rule", "rules"]


def test_the_documented_check_example_is_what_check_returns(project: Path) -> None:
    arguments, result = [b for b in _doc_json_blocks() if "source" in b or "findings" in b]

    async def scenario(s: ClientSession):
        return _ok(await s.call_tool("check", arguments))

    assert _serve(project, scenario) == result


def test_an_internal_error_is_one_line(monkeypatch, capsys) -> None:
    from jaxlint.mcp_server import server, tools

    def broken(*args):
        raise KeyError("boom")

    class Ctx:  # `rules` needs no roots, so the session is never used
        session = None

    monkeypatch.setattr(tools, "call", broken)
    params = types.CallToolRequestParams(name="rules", arguments={})
    result = anyio.run(server._call_tool, Ctx(), params)
    assert result.is_error and [c.text for c in result.content] == [
        "Internal error in jaxlint (KeyError: 'boom'); the server's standard error has the traceback."]
    err = capsys.readouterr().err
    assert err.startswith("jaxlint mcp: internal error in rules:\nTraceback") and "KeyError: 'boom'" in err


def _process_groups_running(marker: str) -> set[int]:
    """Process groups of the live processes whose command line contains ``marker``."""
    import os

    groups = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            if marker in cmdline:
                groups.add(os.getpgid(int(pid)))
        except (OSError, ProcessLookupError):
            continue
    return groups


def _group_alive(group: int) -> bool:
    import os

    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.getpgid(int(pid)) == group and b"jaxlint" in Path(f"/proc/{pid}/cmdline").read_bytes():
                return True
        except (OSError, ProcessLookupError):
            continue
    return False


SLOW = """\
import time

import jax.numpy as jnp

time.sleep(60)  # the import hangs: only a kill stops it before the time limits


def update():
    x = jnp.zeros(3)
    x[0] = 1.0
    return x
"""


@pytest.mark.slow
def test_a_cancelled_confirm_stops_the_user_code(project: Path) -> None:
    pytest.importorskip("jax")
    if not Path("/proc/self/cmdline").exists():
        pytest.skip("needs /proc")
    target = str(project / "slow.py")
    Path(target).write_text(SLOW)

    async def scenario(s: ClientSession):
        groups: set[int] = set()
        async with anyio.create_task_group() as tg:
            tg.start_soon(s.call_tool, "confirm", {"paths": [target]})
            for _ in range(300):  # until the companion runs (seconds on a busy machine)
                groups = _process_groups_running(target)
                if groups:
                    break
                await anyio.sleep(0.1)
            tg.cancel_scope.cancel()  # the client gives up: the SDK cancels the request
        for _ in range(50):
            if not any(_group_alive(g) for g in groups):
                break
            await anyio.sleep(0.1)
        return groups, [g for g in groups if _group_alive(g)], _ok(await s.call_tool("rules", {}))

    groups, alive, listed = _serve(project, scenario)
    assert len(groups) == 1 and alive == []  # the companion and its JAX worker were killed
    assert listed["rules"]  # and the server still answers


def test_confirm_stops_when_cancelled_or_out_of_time(project: Path) -> None:
    pytest.importorskip("jax")
    import threading

    from jaxlint.mcp_server import tools

    (project / "slow.py").write_text(SLOW)
    ws = tools.Workspace.of([project])
    args = {"paths": ["slow.py"], "select": None, "timeout": None}
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(tools.ToolInputError) as cancelled:
        tools.confirm(args, ws, cancel)
    assert str(cancelled.value) == "confirm was cancelled, and its processes were stopped."
    with pytest.raises(tools.ToolInputError) as late:
        tools.confirm(args, ws, None, time_limit=0.3)
    assert str(late.value) == ("confirm did not finish within 0.3 s and was stopped; "
                               "name fewer files or rules.")


def test_confirm_ends_when_the_server_is_killed(project: Path) -> None:
    """kill -9 of the process serving MCP while its confirm runs: the companion
    (in a session of its own) and its JAX worker are gone soon after.  The companion
    ends its tree from a Python SIGTERM handler, which runs once the main thread leaves
    the C call it is in (importing JAX can take tens of seconds on a loaded machine):
    the deadline is 60 s, and the usual time is well under a second."""
    pytest.importorskip("jax")
    if not Path("/proc/self/cmdline").exists():
        pytest.skip("needs /proc")
    import os
    import signal
    import subprocess
    import time

    from jaxlint.runtime import procs

    target = str(project / "slow.py")
    Path(target).write_text(SLOW)
    server = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pathlib import Path; from jaxlint.mcp_server import tools; "
         "tools.confirm({'paths': [sys.argv[1]]}, tools.Workspace.of([Path(sys.argv[2])]))",
         target, str(project)], cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    found: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            # the companion (its command line names the file) and, below it, the worker importing it
            companions = [int(p) for p in filter(str.isdigit, os.listdir("/proc"))
                          if p != str(server.pid) and procs.alive(int(p))
                          and target.encode() in Path(f"/proc/{p}/cmdline").read_bytes()]
            found = companions + [d for c in companions for d in procs.descendants(c)]
            if len(found) >= 2:
                break
            time.sleep(0.1)
        assert len(found) >= 2, "the companion and its worker never started"
        server.kill()
        server.wait()
        deadline = time.monotonic() + 60
        while any(procs.alive(p) for p in found) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [p for p in found if procs.alive(p)] == []
    finally:
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if server.poll() is None:
            server.kill()
            server.wait()


def test_a_client_of_the_2026_07_28_revision_is_served_too(project: Path) -> None:
    """`server/discover` instead of `initialize`: no roots in that revision, so the
    server's working directory is the root."""

    async def main() -> tuple:
        params = StdioServerParameters(command=sys.executable, args=["-m", "jaxlint", "mcp"], cwd=project)
        with open(project.parent / "server-stderr.txt", "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.discover()
                    return (session.protocol_version,
                            _ok(await session.call_tool("check", {"paths": ["pkg/sharp.py"]})),
                            _error(await session.call_tool("check", {"paths": ["/"]})))

    version, checked, refused = anyio.run(main)
    assert version == "2026-07-28"
    assert _where(checked["findings"]) == [("JAX101", "pkg/sharp.py", 7, 5, MSG_101),
                                           ("JAX201", "pkg/sharp.py", 14, 8, MSG_201)]
    assert refused == f"path '/' is outside the workspace roots ({project}), so it is refused."


def test_an_sdk_of_another_major_version_is_one_line(monkeypatch, capsys) -> None:
    from importlib import metadata

    import jaxlint.mcp_server as mcp_server

    monkeypatch.setattr(metadata, "version", lambda name: "1.27.0")
    assert mcp_server.main() == 2
    assert capsys.readouterr().err.startswith(
        "error: `jaxlint mcp` needs the MCP Python SDK 2.x (mcp 1.27.0 is installed); ")


def test_unsaved_source_of_a_project_file_gets_the_project_facts(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / "pk").mkdir(parents=True)
    (root / "pyproject.toml").write_text("")
    (root / "pk" / "__init__.py").write_text("")
    (root / "pk" / "helper.py").write_text("def clip(x):\n    return x\n")
    (root / "pk" / "train.py").write_text(
        "import jax\n\nfrom pk.helper import clip\n\n\n@jax.jit\ndef step(x):\n    return clip(x)\n")
    unsaved = "def clip(x):\n    if x > 0:\n        return x\n    return -x\n"

    async def scenario(s: ClientSession):
        return _ok(await s.call_tool("check", {"source": unsaved, "filename": "pk/helper.py"}))

    result = _serve(root, scenario)
    assert _where(result["findings"]) == [(
        "JAX201", "pk/helper.py", 2, 8,
        "Python `if` on a traced value: it depends on the traced argument `x` of `clip` (called from "
        "`step` (pk/train.py:8), which is decorated with @jax.jit); this raises TracerBoolConversionError. "
        "Use `jax.lax.cond` or `jnp.where`")]
    assert (root / "pk" / "helper.py").read_text() == "def clip(x):\n    return x\n"  # nothing written


def test_fix_uses_the_project_facts(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / "pk").mkdir(parents=True)
    (root / "pyproject.toml").write_text("")
    (root / "pk" / "__init__.py").write_text("")
    (root / "pk" / "helper.py").write_text(
        "import jax\n\n\ndef clip(x):\n    if x > 0:\n        x = -x\n    print(x)\n    return x\n")
    (root / "pk" / "train.py").write_text(
        "import jax\n\nfrom pk.helper import clip\n\n\n@jax.jit\ndef step(x):\n    return clip(x)\n")

    async def scenario(s: ClientSession):
        return _ok(await s.call_tool("fix", {"paths": ["pk/helper.py"], "unsafe": True}))

    result = _serve(root, scenario)
    assert '-    print(x)\n+    jax.debug.print("{}", x)\n' in result["diff"]
    assert [(f["code"], f["path"], f["line"]) for f in result["remaining"]] == [("JAX201", "pk/helper.py", 5)]
    assert "(pk/train.py:8)" in result["remaining"][0]["message"]
    assert result["summary"] == "Would fix 1 finding; 1 remains."


def test_check_reads_the_observed_facts_the_configuration_asks_for(tmp_path: Path) -> None:
    """`observed = true` in [tool.jaxlint]: the MCP server's check gives each file the
    facts `jaxlint observe` recorded, as `jaxlint check` does; a configured facts file
    that cannot be used is one warning in "errors", and the lint goes on without it."""
    from test_observed_facts import write_ops_facts

    root = tmp_path / "p"
    root.mkdir()
    write_ops_facts(root)

    async def scenario(s: ClientSession):
        return _ok(await s.call_tool("check", {"paths": ["ops.py"]}))

    found = _serve(root, scenario)
    assert [(f["code"], f["line"], f["column"]) for f in found["findings"]] == [
        ("JAX201", 8, 8), ("JAX204", 10, 12)], found
    assert "traced by jax.jit in the run `jaxlint observe` recorded" in found["findings"][0]["message"]
    assert found["errors"] == []
    (root / "pyproject.toml").write_text('[tool.jaxlint]\nobserved = "nowhere.json"\n')
    found = _serve(root, scenario)
    assert found["findings"] == []
    assert found["errors"] == [
        f"warning: {root.resolve() / 'nowhere.json'}: no observed facts (No such file or directory); "
        f"`jaxlint observe --run CMD` writes them (`observed` in {root.resolve() / 'pyproject.toml'}; "
        f"linting without them)"]


def test_fix_of_a_notebook_gives_the_cli_diff_per_cell(project: Path) -> None:
    """The diff a notebook's fix returns is the CLI's `--diff`: one per changed cell,
    in the cell's own lines, never the internal program that joins the cells."""
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": "# notes"},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": "import jax\nx = jax.numpy.zeros(3)\n"},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": "z = jax.tree_map(lambda a: a, x)  # old\n"}]}
    (project / "nb.ipynb").write_text(json.dumps(nb, indent=1))

    async def scenario(s: ClientSession):
        return _ok(await s.call_tool("fix", {"paths": ["nb.ipynb"]}))

    cli = subprocess.run([sys.executable, "-m", "jaxlint", "check", "--no-cache", "--diff", "nb.ipynb"],
                         cwd=project, capture_output=True, text=True)
    result = _serve(project, scenario)
    assert result["diff"] == cli.stdout == (
        "--- a/nb.ipynb:cell 3\n+++ b/nb.ipynb:cell 3\n@@ -1 +1 @@\n"
        "-z = jax.tree_map(lambda a: a, x)  # old\n+z = jax.tree.map(lambda a: a, x)  # old\n")


def test_fix_of_a_notebook_given_as_source_returns_the_fixed_notebook(project: Path) -> None:
    """A notebook's unsaved JSON given as `source` is fixed as `--fix` fixes the file:
    the fixed notebook JSON comes back (only the changed cell's source differs), with the
    CLI's per-cell diff and the finding left; never "0 remain" for a notebook that has some."""
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": ["import jax\n", "key = jax.random.PRNGKey(0)\n", "x = jax.random.normal(key, (3,))\n"]},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": ["y = jax.random.uniform(key, (3,))\n", "z = jax.tree_map(lambda a: a + 1, y)  # keep\n"]}]}
    text = json.dumps(nb, indent=1) + "\n"

    async def scenario(s: ClientSession):
        return [_ok(await s.call_tool("fix", {"source": text, "filename": name}))
                for name in ("nb.ipynb", "unsaved/other.ipynb")]

    for name, result in zip(("nb.ipynb", "unsaved/other.ipynb"), _serve(project, scenario)):
        assert result["summary"] == "Would fix 1 finding; 1 remains."
        assert result["fixed"] == 1
        assert [(f["code"], f["path"], f["cell"], f["line"], f["column"]) for f in result["remaining"]] == [
            ("JAX301", name, 2, 1, 5)]
        assert result["files"][0]["applied"] == [
            {"code": "JAX901", "line": 2, "column": 5,
             "message": result["files"][0]["applied"][0]["message"]}]
        assert result["diff"] == (
            f"--- a/{name}:cell 2\n+++ b/{name}:cell 2\n@@ -1,2 +1,2 @@\n"
            " y = jax.random.uniform(key, (3,))\n"
            "-z = jax.tree_map(lambda a: a + 1, y)  # keep\n"
            "+z = jax.tree.map(lambda a: a + 1, y)  # keep\n")
        fixed = json.loads(result["source"])
        want = json.loads(text)
        want["cells"][1]["source"][1] = "z = jax.tree.map(lambda a: a + 1, y)  # keep\n"
        assert fixed == want
        assert result["source"] == text.replace("jax.tree_map", "jax.tree.map")  # the layout kept


def test_confirm_tells_the_agent_that_its_run_command_failed(project: Path) -> None:
    """A `run` command that crashes is a line in `errors` (the CLI's run line), counted in
    the summary, and named in the reason of the finding it left skipped."""
    pytest.importorskip("jax")
    (project / "pkg" / "loss.py").write_text(
        "import jax\n\n\n@jax.jit\ndef mse(pred, y):\n    if pred.sum() > y.sum():\n"
        "        return pred\n    return y\n")
    command = "python -c 'import nonexistent_module_xyz'"

    async def scenario(s: ClientSession):
        return _ok(await s.call_tool("confirm", {"paths": ["pkg/loss.py"], "run": [command],
                                                 "timeout": 60}))

    report = _serve(project, scenario)
    [error] = report["errors"]
    assert error.startswith(f"--run `{command}`: exit status 1 in ")
    assert error.endswith("; what it observed before is used (last output: ModuleNotFoundError: "
                          "No module named 'nonexistent_module_xyz')")
    assert report["summary"] == "1 skipped. 1 `run` command failed (see errors)."
    [found] = report["findings"]
    assert (found["code"], found["line"], found["runtime"]["verdict"]) == ("JAX201", 6, "skipped")
    assert (f"no --run command called it (`{command}` ended with exit status 1: ModuleNotFoundError: "
            "No module named 'nonexistent_module_xyz')") in found["runtime"]["reason"]
