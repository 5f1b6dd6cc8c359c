"""``jaxlint mcp``: the MCP server for coding agents."""

from __future__ import annotations

import sys

from jaxlint.cli.app import cli


# ----------------------------------------------------------------------------- mcp


@cli.command("mcp")
def mcp_command() -> None:
    """Serve jaxlint to coding agents: an MCP server on stdin/stdout (docs/agents.md)."""
    from jaxlint.mcp_server import main as mcp_main

    sys.exit(mcp_main())
