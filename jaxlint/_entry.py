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
import time


def _interrupted(signum, frame):  # noqa: ARG001  (a signal handler's signature)
    try:
        sys.stderr.write("interrupted\n")
        sys.stderr.flush()
    finally:
        os._exit(130)


def _unraisable(unraisable, then=None) -> None:
    """``sys.unraisablehook``: a KeyboardInterrupt that Python would drop (printing
    "Exception ignored in ...") is delivered again, as a new Ctrl-C, once the code
    that swallowed it has returned; anything else goes to the hook that was set."""
    try:
        if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
            _again()
            return
    except KeyboardInterrupt:  # a second Ctrl-C landed here: one is enough
        _again()
        return
    (then or sys.__unraisablehook__)(unraisable)


def _again() -> None:
    """A Ctrl-C for the main thread, a moment from now: not at once, which would
    land in the code that is running."""
    import _thread

    main_thread = _thread.get_ident() if _MAIN is None else _MAIN  # (the hook runs there)

    def fire() -> None:
        time.sleep(0.01)
        try:
            signal.pthread_kill(main_thread, signal.SIGINT)
        except (OSError, ValueError):  # the process is ending
            pass

    try:
        _thread.start_new_thread(fire, ())
    except RuntimeError:  # the interpreter is ending: nothing left to interrupt
        pass


_MAIN = None  # the main thread's id, once ``main`` has set the handlers
_CLI_MAIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cli", "__init__.py")


def _sigint(signum, frame) -> None:  # noqa: ARG001  (a signal handler's signature)
    """SIGINT's handler once the commands are imported: KeyboardInterrupt, except
    in click's own frames right under ``jaxlint.cli.main`` (see the module's doc)."""
    if frame is not None and _in_click_main(frame):
        _again()
        return
    raise KeyboardInterrupt


def _in_click_main(frame) -> bool:
    """Whether the innermost jaxlint frame below ``frame`` (not ``frame`` itself) is
    ``jaxlint.cli.main``: the Ctrl-C landed in click's code that main called."""
    if frame.f_code.co_filename == _CLI_MAIN:
        return False
    here = os.path.dirname(os.path.dirname(_CLI_MAIN)) + os.sep
    f = frame.f_back
    while f is not None:
        name = f.f_code.co_filename
        if name.startswith(here):
            return name == _CLI_MAIN and f.f_code.co_name == "main"
        f = f.f_back
    return False


def main() -> None:
    global _MAIN
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
        import _thread

        _MAIN = _thread.get_ident()
        signal.signal(signal.SIGINT, _sigint)  # from here on, KeyboardInterrupt (mostly)
        then = sys.unraisablehook
        sys.unraisablehook = lambda unraisable: _unraisable(unraisable, then)
    try:
        cli_main()
    except KeyboardInterrupt:  # before cli_main's own handlers were entered
        exit_interrupted()
