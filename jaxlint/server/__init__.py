"""``jaxlint server``: a language server (LSP over stdio) for editors.

``core`` holds the logic (diagnostics, code actions, noqa, settings) as plain
functions over lsprotocol types; ``server`` wires it to pygls.  Neither is
imported by the linter or the CLI unless ``jaxlint server`` runs.
"""

from __future__ import annotations

import sys

MISSING_DEPENDENCY = (
    "`jaxlint server` needs pygls 2 and lsprotocol (the `lsp` extra): "
    "pip install -e '.[lsp]' in a jaxlint checkout, or pip install 'pygls>=2.0' 'lsprotocol>=2025.0.0'"
)


def main() -> int:
    """Run the server on stdin/stdout until the client sends ``exit``."""
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
        from pygls.lsp.server import LanguageServer  # noqa: F401  (pygls 2.x)
    except ImportError:
        sys.stderr.write(f"error: {MISSING_DEPENDENCY}\n")
        return 2
    from jaxlint.server.server import serve

    return serve()
