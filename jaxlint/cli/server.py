"""``jaxlint server``: the language server for editors."""

from __future__ import annotations

import sys

from jaxlint.cli.app import cli


# ----------------------------------------------------------------------------- server


@cli.command("server")
def server_command() -> None:
    """Run the language server (LSP over stdio) that editors start.

    Needs pygls 2 and lsprotocol (the lsp extra). Diagnostics on open, change
    and save (with what the rest of the project tells each file), quick fixes, "fix
    all", noqa actions; configured like `jaxlint check`. Editor set-up: docs/editors.md
    in jaxlint's source repository."""
    from jaxlint.server import main as run_server  # pygls is imported only here

    sys.exit(run_server())
