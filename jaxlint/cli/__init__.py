"""The ``jaxlint`` command line.

    jaxlint [check] [PATHS]...   lint files and directories (the default command)
    jaxlint rules                list every rule
    jaxlint rule CODE            show one rule's documentation
    jaxlint mcp                  serve the tools to coding agents (MCP over stdio)
    jaxlint clean                remove the cache
    jaxlint server               run the language server (LSP over stdio) for editors

A first argument that names both a command and an existing file or folder
(``jaxlint clean`` beside a folder ``clean``) is refused with one line that
names both readings, never guessed.

Exit codes: 0 no findings, 1 findings, 2 a usage, configuration or internal
error (also when a path is missing or a file could not be read).

The lint path imports neither libcst nor the rules unless some file misses
the cache, so a warm run is quick.

This package holds the group, what every command shares (``error``,
``warning``, ``output_stream``, the exit codes) and ``main``; each command is
a module of its own that registers itself on ``cli``: ``check.py`` (with
``baseline.py``, its baseline options), ``rules.py`` (rules, rule),
``runtime.py`` (confirm, bench), ``mcp.py``, ``clean.py``, ``server.py``.
"""

from __future__ import annotations

import os
import sys
import traceback
from typing import Optional

from jaxlint.cli import check, clean, mcp, observe, rules, runtime, server  # noqa: F401  (each registers its command)
from jaxlint.cli.app import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, cli, error, exit_interrupted  # noqa: F401  (the package's face)


def main(argv: Optional[list[str]] = None) -> None:
    """Console entry point: never a traceback for bad input (see --verbose)."""
    args = list(sys.argv[1:] if argv is None else argv)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="replace")  # type: ignore[attr-defined]
        except (AttributeError, ValueError):
            pass
    from jaxlint.lifeline import DIE_WITH_PARENT_ENV, Terminated, die_with_parent, exit_by

    parent = os.environ.pop(DIE_WITH_PARENT_ENV, "")
    if parent.isdigit():  # started by the MCP server: stop (SIGTERM: cleanly) when it dies
        import signal

        die_with_parent(int(parent), signal.SIGTERM)
    from jaxlint.cli import app as _app

    _app.INTERRUPTED = False  # this call's own Ctrl-C only, never an earlier main()'s
    try:
        cli.main(args=args, prog_name="jaxlint", standalone_mode=True)
    except SystemExit:
        if _app.INTERRUPTED:  # Ctrl-C: "interrupted" was said; 130, never SIGINT's own status
            exit_interrupted(say=False)
        raise
    except Terminated as stopped:  # SIGTERM/SIGHUP: workers ended on the way out
        exit_by(stopped.signum)
    except KeyboardInterrupt:
        exit_interrupted()
    except Exception as exc:  # a bug in jaxlint
        # Ctrl-C, SIGTERM or SIGHUP while a class was made (`__set_name__` wraps it)
        stop = _stop_inside(exc)
        if isinstance(stop, Terminated):
            exit_by(stop.signum)
        if stop is not None:
            exit_interrupted()
        if "--verbose" in args or "-v" in args:
            traceback.print_exc()
        first = str(exc).splitlines()[0] if str(exc) else ""
        error(f"internal error: {exc.__class__.__name__}{': ' + first if first else ''}"
              " (run with --verbose for the traceback)")
        sys.exit(EXIT_ERROR)


def _stop_inside(exc: BaseException) -> Optional[BaseException]:
    """The Ctrl-C (KeyboardInterrupt) or SIGTERM/SIGHUP (``Terminated``) that caused
    ``exc``, if one did (Python wraps an exception raised while a class is made, in
    ``__set_name__``, in a RuntimeError)."""
    from jaxlint.lifeline import Terminated

    seen = 0
    while exc is not None and seen < 20:
        if isinstance(exc, (KeyboardInterrupt, Terminated)):
            return exc
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
        seen += 1
    return None
