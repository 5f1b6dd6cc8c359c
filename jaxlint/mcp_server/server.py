"""The MCP side of ``jaxlint mcp``: the official ``mcp`` SDK (2.x), low-level
``Server`` over stdio, serving the tools of ``jaxlint.mcp_server.tools``.

The tools' JSON schemas are written out in ``tools.py`` and arguments are
checked there, so a bad argument gets one sentence back (``isError``), never
a validation dump or a traceback.  Each result carries the tool's dict as
``structuredContent`` and, for clients that read only text, the same JSON as
a text block.

Workspace roots: for the tools that touch files, the server asks a client that
declared the ``roots`` capability for its roots (``roots/list``) at each call,
so a change of roots applies at once; otherwise, or when the client lists no
``file://`` root, the server's working directory is the only root.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import traceback
import warnings
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from jaxlint import __version__
from jaxlint.mcp_server import tools
from jaxlint.mcp_server.tools import ToolInputError, Workspace

logger = logging.getLogger("jaxlint.mcp")

# tools that read or write files (and so need the workspace roots)
_FILE_TOOLS = frozenset({"check", "fix", "confirm"})
# seconds to wait for a client's answer to roots/list
_ROOTS_TIMEOUT = 10.0

INSTRUCTIONS = (
    "jaxlint finds JAX sharp bits in Python code. Call `check` on files you wrote or changed "
    "(or on unsaved text with `source` and `filename`), `rule` to learn why a finding matters and "
    "how to fix it, `fix` to get jaxlint's verified automatic fixes as a diff (write=true applies "
    "them). `confirm` runs the user's code under JAX to confirm findings: use it only when the "
    "user agrees to run their code."
)


def _tool_list() -> list[types.Tool]:
    out = []
    for spec in tools.TOOLS:
        out.append(
            types.Tool(
                name=spec.name,
                title=spec.title,
                description=spec.description,
                input_schema=spec.input_schema(),
                output_schema=spec.output_schema,
                annotations=types.ToolAnnotations(
                    title=spec.title,
                    read_only_hint=spec.read_only,
                    destructive_hint=spec.destructive if not spec.read_only else None,
                    open_world_hint=spec.open_world,
                ),
            )
        )
    return out


async def _roots(ctx: Any) -> list[Path]:
    """The client's ``file://`` roots, or the working directory."""
    session = ctx.session
    caps = session.client_capabilities
    if caps is None or caps.roots is None or not session.can_send_request:
        return [Path.cwd()]
    listed = None
    try:
        with anyio.move_on_after(_ROOTS_TIMEOUT):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # roots are deprecated in the 2026-07-28 protocol
                listed = await session.list_roots()
    except Exception as exc:  # a client that declared roots but cannot list them
        logger.warning("roots/list failed (%s); using the working directory", exc)
    if listed is None:
        return [Path.cwd()]
    return tools.roots_from_uris([str(r.uri) for r in listed.roots]) or [Path.cwd()]


def _text_result(text: str, *, error: bool) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


async def _list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=_tool_list())


async def _call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    name = params.name
    try:
        roots = await _roots(ctx) if name in _FILE_TOOLS else [Path.cwd()]
        ws = Workspace.of(roots)
        cancel = threading.Event()
        try:
            # abandoned on cancellation (the client cancelled, the server stops), and
            # `cancel` then makes the tool stop what it started
            result = await anyio.to_thread.run_sync(tools.call, name, params.arguments, ws, cancel,
                                                    abandon_on_cancel=True)
        finally:
            cancel.set()
    except ToolInputError as exc:
        return _text_result(str(exc), error=True)
    except Exception as exc:  # a bug in jaxlint: one line to the client, the traceback to stderr
        sys.stderr.write(f"jaxlint mcp: internal error in {name}:\n{traceback.format_exc()}")
        sys.stderr.flush()
        first = str(exc).splitlines()[0] if str(exc) else ""
        return _text_result(
            f"Internal error in jaxlint ({exc.__class__.__name__}{': ' + first if first else ''}); "
            "the server's standard error has the traceback.",
            error=True,
        )
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(result, ensure_ascii=False))],
        structured_content=result,
    )


def build_server() -> Server:
    return Server(
        "jaxlint",
        version=__version__,
        title="jaxlint",
        instructions=INSTRUCTIONS,
        on_list_tools=_list_tools,
        on_call_tool=_call_tool,
    )


async def _serve() -> None:
    server = build_server()
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def serve() -> None:
    """Serve over stdin/stdout until the client closes stdin."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="jaxlint mcp: %(levelname)s: %(message)s")
    anyio.run(_serve)
