"""``jaxlint mcp``: jaxlint as a Model Context Protocol server (stdio).

``tools`` holds the tools themselves (plain functions over dicts: argument
checks, workspace roots, check/fix/rule/rules/confirm) and imports no MCP code;
``server`` wires them to the official ``mcp`` SDK.  Only ``jaxlint mcp``
imports ``server`` (and so the SDK).  See docs/agents.md.
"""

from __future__ import annotations

SDK_REQUIREMENT = "mcp>=2.0,<3"


def main() -> int:
    """``jaxlint mcp``: serve until the client hangs up; the exit code."""
    import sys
    from importlib import metadata

    try:
        version = metadata.version("mcp")
    except metadata.PackageNotFoundError:
        version = None
    if version is None or version.split(".")[0] != "2":  # the API used is that of 2.x
        found = f"mcp {version} is installed" if version else "it is not installed"
        sys.stderr.write(
            f"error: `jaxlint mcp` needs the MCP Python SDK 2.x ({found}); install the `mcp` extra "
            f"(pip install -e '.[mcp]' in a checkout) or pip install '{SDK_REQUIREMENT}'\n"
        )
        return 2
    from jaxlint.mcp_server.server import serve

    try:
        serve()
    except KeyboardInterrupt:
        pass
    return 0
