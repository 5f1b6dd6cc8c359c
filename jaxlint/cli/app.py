"""What every ``jaxlint`` command shares: the ``cli`` group (``check`` when
the first argument is not a command), error and warning lines, the output
stream, the exit codes.  The commands register themselves on ``cli`` from
their own modules (``jaxlint/cli/__init__.py`` imports them)."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, NoReturn, Optional, TextIO

import click

from jaxlint import __version__
from jaxlint.workspace.config import ConfigError, cache_dir_for

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

_SUBCOMMAND_FLAGS = ("--help", "-h", "--version", "-V")


def error(message: str) -> None:
    """Print one ``error: ...`` line on stderr."""
    err = sys.stderr
    if err.isatty() and not os.environ.get("NO_COLOR"):
        err.write(f"\x1b[1;31merror\x1b[0m: {message}\n")
    else:
        err.write(f"error: {message}\n")
    err.flush()


def use_color(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# what other tools call jaxlint's commands: `jaxlint lsp` is no folder, but the user
# meant the language server
_SYNONYMS = {
    "lsp": "server", "language-server": "server", "languageserver": "server",
    "langserver": "server", "ls": "server", "pylsp": "server", "serve-lsp": "server",
    "mcp-server": "mcp", "mcpserver": "mcp",
    "lint": "check", "fix": "check --fix", "format": "check --fix",
    "explain": "rule", "doc": "rule", "docs": "rule", "list": "rules",
    "run": "observe", "trace": "observe", "verify": "confirm",
    "benchmark": "bench", "clear": "clean", "clean-cache": "clean",
}


class _DefaultGroup(click.Group):
    """A group that runs ``check`` when the first argument is not a subcommand."""

    def add_command(self, cmd: click.Command, name: Optional[str] = None) -> None:
        _check_file_options(cmd)
        super().add_command(cmd, name)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if (len(args) == 1 and args[0] in self.commands and args[0] != "check"
                and os.path.lexists(args[0])):
            raise click.UsageError(_ambiguous(args[0]))
        if args and args[0] not in self.commands and args[0] not in _SUBCOMMAND_FLAGS:
            first = args[0]
            if not os.path.exists(first) and not first.startswith("-"):
                import difflib

                close = ([_SYNONYMS[first.lower()]] if first.lower() in _SYNONYMS
                         else difflib.get_close_matches(first, list(self.commands), n=1, cutoff=0.75))
                if close:
                    raise click.UsageError(
                        f"'{first}' is neither a file nor a command; did you mean `jaxlint {close[0]}`?"
                    )
            args = ["check", *args]
        return super().parse_args(ctx, args)

    def make_context(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        try:
            return super().make_context(*args, **kwargs)
        except KeyboardInterrupt:  # while the arguments are parsed: as in invoke
            raise _Interrupted() from None
        except click.ClickException as exc:
            raise _styled(exc) from None

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            # click would print "Aborted!" and exit 1, the code for findings
            raise _Interrupted() from None
        except click.NoSuchOption as exc:
            # click suggests anything loosely alike (`--bogus` -> `--jobs`); keep close ones
            import difflib

            exc.possibilities = [  # type: ignore[misc]
                p for p in (exc.possibilities or [])
                if difflib.SequenceMatcher(None, exc.option_name, p).ratio() >= 0.75
            ]
            raise _styled(exc) from None
        except click.ClickException as exc:
            raise _styled(exc) from None


def _needs_value(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """A file option followed by another option (`--baseline --output-format concise`)
    took that option as its file name: say the option needs a value instead."""
    names = {o for p in ctx.command.params if isinstance(p, click.Option)
             for o in (*p.opts, *p.secondary_opts)}
    for v in value if isinstance(value, (tuple, list)) else (value,):
        if isinstance(v, str) and v.startswith("-") and v.split("=", 1)[0] in names:
            kind = param.metavar or ("DIR" if isinstance(param.type, click.Path)
                                     and not param.type.file_okay else "FILE")
            raise click.UsageError(f"{param.opts[-1]} needs a {kind.strip('[]')}: `{v}` is an "
                                   f"option, not a file name", ctx)
    return value


def _check_file_options(cmd: click.Command) -> None:
    """Every option that takes a file or folder name checks it is not another option."""
    for p in cmd.params:
        if isinstance(p, click.Option) and not p.is_flag and p.callback is None and (
                isinstance(p.type, click.Path) or p.metavar in ("FILE", "PATH", "[FILE]")):
            p.callback = _needs_value


class _Styled(click.ClickException):
    """click's own error (a usage error, a bad option value) said as jaxlint says its
    errors: ``error: ...`` (click writes ``Error: ...``), usage lines kept."""

    def __init__(self, inner: click.ClickException) -> None:
        super().__init__(inner.message)
        self.inner = inner
        self.exit_code = inner.exit_code

    def show(self, file: Optional[TextIO] = None) -> None:
        import io
        import re

        buf = io.StringIO()
        self.inner.show(buf)
        (file or sys.stderr).write(re.sub(r"^Error: ", "error: ", buf.getvalue(), flags=re.M))


def _styled(exc: click.ClickException) -> click.ClickException:
    return exc if isinstance(exc, (_Interrupted, _Styled)) else _Styled(exc)


class _Interrupted(click.ClickException):
    """Ctrl-C: one line, and 130 (128 + SIGINT), as shells report an interrupted
    command, so that CI and pre-commit can tell it from a run with findings."""

    exit_code = 130

    def __init__(self) -> None:
        super().__init__("interrupted")

    def show(self, file: Optional[TextIO] = None) -> None:
        global INTERRUPTED
        INTERRUPTED = True  # `main` ends the process with 130 (exit_interrupted)
        (file or sys.stderr).write("interrupted\n")


INTERRUPTED = False  # a Ctrl-C ended the command (click then raises SystemExit(130))


def exit_interrupted(say: bool = True) -> NoReturn:
    """End the process with 130 now (after "interrupted", unless said already): the
    console entry point's way out of a Ctrl-C.  Not ``sys.exit(130)``: when the Ctrl-C
    landed in code run by ``exec`` of a string (a dataclass's generated ``__init__``,
    while a module is imported), CPython marks the interrupt unhandled however it was
    handled later, and ends the process by SIGINT (status -2) instead of 130.  Every
    process jaxlint started was ended on the way here (``runtime.procs.stopping``)."""
    out = sys.stderr
    if say:
        out.write("interrupted\n")
    for stream in (sys.stdout, out):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(130)


def _ambiguous(name: str) -> str:
    """``jaxlint clean`` beside a folder ``clean``: say how to get either."""
    kind = "folder" if os.path.isdir(name) else "file"
    try:
        cache = os.path.relpath(cache_dir_for(Path.cwd(), None, None))
    except (ConfigError, ValueError):
        cache = "DIR"
    command = {
        "clean": f"`jaxlint clean --cache-dir {cache}` removes the cache",
        "rules": "`jaxlint rules --output-format text` lists the rules",
        "rule": "`jaxlint rule CODE` shows a rule's documentation",
    }.get(name, f"`jaxlint {name} .` runs the {name} command on the current directory")
    return (f"'{name}' is both a {kind} here and a jaxlint command: `jaxlint check {name}` "
            f"lints the {kind}; {command}")


@click.group(
    cls=_DefaultGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
)
@click.version_option(__version__, "-V", "--version", prog_name="jaxlint",
                      message="%(prog)s %(version)s")
def cli() -> None:
    """jaxlint: a linter for JAX's sharp bits.

    `jaxlint PATHS...` is short for `jaxlint check PATHS...`.
    """


def not_written(output_file: Optional[str], exc: OSError) -> None:
    """One error line; a closed stdout pipe (``| head``) is left to click,
    which exits quietly."""
    if output_file is None and isinstance(exc, BrokenPipeError):
        raise exc
    error(f"{output_file}: cannot be written ({exc.strerror or exc})")


def warning(message: str) -> None:
    err = sys.stderr
    if err.isatty() and not os.environ.get("NO_COLOR"):
        err.write(f"\x1b[1;33mwarning\x1b[0m: {message}\n")
    else:
        err.write(f"warning: {message}\n")


@contextmanager
def output_stream(path: Optional[str], default: Optional[TextIO] = None
                  ) -> Iterator[tuple[TextIO, bool]]:
    if path is None:
        out = default or sys.stdout
        yield out, use_color(out)
        out.flush()
        return
    parent = Path(path).parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):  # `-o a.py/x.json`, a.py a file: not "File exists"
        import errno

        blocker = next((p for p in (parent, *parent.parents) if p.exists() and not p.is_dir()), parent)
        raise NotADirectoryError(errno.ENOTDIR, f"{blocker} is not a directory") from None
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        yield fh, False
