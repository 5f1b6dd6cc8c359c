"""The ``jaxlint`` console script's entry point (and ``python -m jaxlint``'s).

A Ctrl-C while the command line's modules are imported (a second or so: click,
the commands, their dataclasses) is "interrupted" and exit status 130, like one
anywhere later, never a KeyboardInterrupt traceback nor SIGINT's own status:
until they are imported, SIGINT ends the process with 130 at once (it has
started nothing yet).  This module imports nothing of jaxlint's at its top, so
the script's own ``from jaxlint._entry import main`` is over before any slow
import begins."""

import os
import signal
import sys


def _interrupted(signum, frame):  # noqa: ARG001  (a signal handler's signature)
    try:
        sys.stderr.write("interrupted\n")
        sys.stderr.flush()
    finally:
        os._exit(130)


def main() -> None:
    before = signal.getsignal(signal.SIGINT)
    try:
        if before is signal.default_int_handler:  # (not when Ctrl-C is ignored, `cmd &`)
            signal.signal(signal.SIGINT, _interrupted)
        else:
            before = None
    except ValueError:  # not the main thread: nothing to guard
        before = None
    try:
        from jaxlint.cli import exit_interrupted
        from jaxlint.cli import main as cli_main
    except KeyboardInterrupt:  # a Ctrl-C that landed before the handler was set
        _interrupted(signal.SIGINT, None)
    if before is not None:
        signal.signal(signal.SIGINT, before)  # from here on, KeyboardInterrupt as usual
    try:
        cli_main()
    except KeyboardInterrupt:  # before cli_main's own handlers were entered
        exit_interrupted()
