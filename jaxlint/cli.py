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
"""

from __future__ import annotations

import os
import sys
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional, TextIO

import click

from jaxlint import __version__
from jaxlint.config import ConfigError, ConfigStore, Overrides, cache_dir_for, split_codes
from jaxlint.output import FORMATS

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


def _use_color(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class _DefaultGroup(click.Group):
    """A group that runs ``check`` when the first argument is not a subcommand."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if (len(args) == 1 and args[0] in self.commands and args[0] != "check"
                and os.path.lexists(args[0])):
            raise click.UsageError(_ambiguous(args[0]))
        if args and args[0] not in self.commands and args[0] not in _SUBCOMMAND_FLAGS:
            first = args[0]
            if not os.path.exists(first) and not first.startswith("-"):
                import difflib

                close = difflib.get_close_matches(first, list(self.commands), n=1, cutoff=0.75)
                if close:
                    raise click.UsageError(
                        f"'{first}' is neither a file nor a command; did you mean `jaxlint {close[0]}`?"
                    )
            args = ["check", *args]
        return super().parse_args(ctx, args)

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
            raise


class _Interrupted(click.ClickException):
    """Ctrl-C: one line, and 130 (128 + SIGINT), as shells report an interrupted
    command, so that CI and pre-commit can tell it from a run with findings."""

    exit_code = 130

    def __init__(self) -> None:
        super().__init__("interrupted")

    def show(self, file: Optional[TextIO] = None) -> None:
        (file or sys.stderr).write("interrupted\n")


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


# ----------------------------------------------------------------------------- check


@dataclass
class CheckOptions:
    """The options of ``jaxlint check`` (one field per command-line option)."""

    paths: tuple[str, ...]
    select: tuple[str, ...]
    ignore: tuple[str, ...]
    extend_select: tuple[str, ...]
    output_format: str
    output_file: Optional[str]
    statistics: bool
    exit_zero: bool
    jobs: Optional[int]
    no_cache: bool
    cache_dir: Optional[str]
    config: Optional[str]
    stdin_filename: Optional[str]
    force_exclude: bool
    x64: Optional[bool]
    quiet: bool
    show_files: bool
    verbose: bool
    fix: bool = False
    unsafe_fixes: bool = False
    diff: bool = False
    show_fixes: bool = False
    fix_only: bool = False
    exit_non_zero_on_fix: bool = False
    add_noqa: bool = False
    baseline: Optional[str] = None
    write_baseline: Optional[str] = None
    no_baseline: bool = False
    file_timeout: Optional[float] = None


@cli.command("check")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--select", multiple=True, metavar="CODES",
              help="Comma-separated rule codes, prefixes or names to enable (replaces the configured selection); ALL enables every rule.")
@click.option("--ignore", multiple=True, metavar="CODES", help="Comma-separated rules to disable.")
@click.option("--extend-select", multiple=True, metavar="CODES",
              help="Comma-separated rules to enable in addition to the selection.")
@click.option("--output-format", type=click.Choice(FORMATS), default="full",
              envvar="JAXLINT_OUTPUT_FORMAT", show_default=True, show_envvar=True,
              help="How to print the findings.")
@click.option("-o", "--output-file", type=click.Path(dir_okay=False),
              help="Write the findings to this file instead of stdout.")
@click.option("--statistics", is_flag=True, help="Print a count of findings per rule instead of the findings.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), help="Worker processes [default: all cores].")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
@click.option("--file-timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Report a file that takes longer than this to check as not checked, and go on [default: 60].")
@click.option("--cache-dir", type=click.Path(file_okay=False), envvar="JAXLINT_CACHE_DIR",
              help="Cache directory [default: .jaxlint_cache next to the configuration].")
@click.option("--config", type=click.Path(dir_okay=False),
              help="Use this configuration file (pyproject.toml or jaxlint.toml) for every file.")
@click.option("--stdin-filename", metavar="PATH",
              help="The file name to report (and configure) standard input as; read stdin with `-`.")
@click.option("--force-exclude", is_flag=True,
              help="Apply exclusions to paths named on the command line too.")
@click.option("--x64/--no-x64", default=None, help="Lint as if jax_enable_x64 were on (or off).")
@click.option("-q", "--quiet", is_flag=True, help="Print the findings only: no summary line.")
@click.option("--show-files", is_flag=True, help="List the files that would be linted, then exit.")
@click.option("-v", "--verbose", is_flag=True, help="Print details and tracebacks of internal errors.")
@click.option("--fix", is_flag=True, help="Apply safe fixes (each fixed file is re-parsed and re-linted first).")
@click.option("--unsafe-fixes", is_flag=True,
              help="Also apply unsafe fixes with --fix; without --fix, show them as fixable.")
@click.option("--diff", is_flag=True,
              help="Print a unified diff of what --fix would change; write nothing (exit 1 if any).")
@click.option("--show-fixes", is_flag=True, help="With --fix, list every fix applied, per file.")
@click.option("--fix-only", is_flag=True,
              help="Apply fixes and do not report the findings that remain (exit 0).")
@click.option("--exit-non-zero-on-fix", is_flag=True,
              help="Exit 1 when a fix was applied, even if no finding remains.")
@click.option("--add-noqa", is_flag=True,
              help="Add `# noqa: CODE` for every finding (to adopt jaxlint on existing code).")
@click.option("--baseline", type=click.Path(dir_okay=False), metavar="FILE",
              help="Report (and fail on) only the findings not recorded in this baseline file.")
@click.option("--write-baseline", type=click.Path(dir_okay=False), metavar="FILE",
              help="Record today's findings in FILE (with a baseline in use: drop its stale entries only).")
@click.option("--no-baseline", is_flag=True, help="Ignore the baseline set in the configuration.")
def check_command(**kwargs: object) -> None:
    """Lint PATHS (files or directories; default: the current directory)."""
    from jaxlint.lifeline import stop_on_signals

    with stop_on_signals():  # SIGTERM/SIGHUP: the workers end, then jaxlint (main())
        code = run_check(CheckOptions(**kwargs))  # type: ignore[arg-type]
    sys.exit(code)


@dataclass
class _Session:
    """What a check run is configured with."""

    cwd: Path
    store: ConfigStore
    infos: tuple
    cache_dir: Path


@dataclass
class _Linted:
    """What a check run found, before it is reported."""

    results: list
    errors: list[str]  # one line per path that could not be linted
    tracebacks: list[str]  # internal errors, shown with --verbose
    sources: dict[str, str]  # text of files not on disk (stdin), for code frames
    stdin_data: Optional[bytes] = None  # the bytes read from stdin (for --fix)
    # path -> the settings it was linted with (with what the rest of its project tells it)
    settings: dict = field(default_factory=dict)
    no_files: bool = False  # the paths held no Python file (warned; no "All checks passed!")


def run_check(opts: CheckOptions) -> int:
    """Configure, lint, report; return the exit code.

    The stages are separate so that options acting between linting and
    reporting (fixes, diffs, noqa insertion) slot in after ``_lint``.
    """
    stdin_mode = "-" in opts.paths or (not opts.paths and opts.stdin_filename is not None)
    if opts.statistics and opts.output_format not in ("full", "concise", "json"):
        error(f"--statistics prints a table or JSON; it cannot be combined with --output-format {opts.output_format}")
        return EXIT_ERROR
    if stdin_mode and len(opts.paths) > 1:
        error("`-` (standard input) cannot be combined with other paths")
        return EXIT_ERROR
    from jaxlint.baseline import BaselineError
    from jaxlint.cli_baseline import kept_results, load_baseline, match_baseline, write_baseline

    try:
        session = _prepare(opts)
        if opts.show_files and not stdin_mode:
            return _show_files(opts, session)
        baseline = load_baseline(opts, session)
        linted = _lint_stdin(opts, session) if stdin_mode else _lint_paths(opts, session)
    except (ConfigError, BaselineError) as exc:
        error(str(exc))
        return EXIT_ERROR

    for line in linted.errors:
        error(line)
    if opts.verbose:
        for tb in linted.tracebacks:
            sys.stderr.write(tb)

    if opts.write_baseline:
        problem = write_baseline(opts, session, linted, baseline)
        if problem:
            error(problem)
        return EXIT_ERROR if problem or linted.errors else EXIT_OK
    if opts.add_noqa:
        return _add_noqa(opts, linted, stdin_mode)
    fixing = None
    if opts.fix or opts.fix_only or opts.diff:
        fixing = _fix(opts, session, linted, stdin_mode)
        if isinstance(fixing, int):
            return fixing

    from jaxlint.output import OutputReport

    outcome = match_baseline(opts, session, linted, baseline) if baseline is not None else None
    report = OutputReport(results=kept_results(linted.results, outcome), rules=session.infos,
                          cwd=session.cwd, sources=linted.sources, unsafe_fixes=opts.unsafe_fixes,
                          baseline=outcome, docs_url=session.store.root_config.cfg.docs_url)
    if fixing is not None:
        return _finish_fix(opts, report, linted, fixing, stdin_mode)
    report.unchecked = len(linted.errors)
    try:
        with _output_stream(opts.output_file) as (out, color):
            _report(report, opts, out, color, summary=not linted.no_files)
    except OSError as exc:
        _not_written(opts.output_file, exc)
        return EXIT_ERROR

    if linted.errors:
        return EXIT_ERROR
    if report.findings and not opts.exit_zero:
        return EXIT_FINDINGS
    return EXIT_OK


def _not_written(output_file: Optional[str], exc: OSError) -> None:
    """One error line; a closed stdout pipe (``| head``) is left to click,
    which exits quietly."""
    if output_file is None and isinstance(exc, BrokenPipeError):
        raise exc
    error(f"{output_file}: cannot be written ({exc.strerror or exc})")


def _prepare(opts: CheckOptions) -> _Session:
    """Read the configuration and the rule metadata (raises ConfigError)."""
    from jaxlint.ruleinfo import load_rule_infos

    cwd = Path.cwd()
    config = Path(opts.config) if opts.config else None
    cache_dir = cache_dir_for(cwd, opts.cache_dir, config)
    infos = load_rule_infos(None if opts.no_cache else cache_dir)
    overrides = Overrides(
        select=split_codes(opts.select) if opts.select else None,
        ignore=split_codes(opts.ignore),
        extend_select=split_codes(opts.extend_select),
        x64=opts.x64,
    )
    store = ConfigStore(infos, overrides, cwd, config)
    if opts.verbose:
        sys.stderr.write(
            f"jaxlint {__version__}; configuration: {store.root_config.cfg.label}; "
            f"cache: {'off' if opts.no_cache else cache_dir}\n"
        )
        from jaxlint import fastparse

        if fastparse.DISABLED is not None:
            sys.stderr.write(f"fastparse is off (every file takes libcst's parser): {fastparse.DISABLED}\n")
    return _Session(cwd=cwd, store=store, infos=infos, cache_dir=cache_dir)


def _show_files(opts: CheckOptions, session: _Session) -> int:
    from jaxlint.discovery import discover

    found = discover(opts.paths or (".",), session.store, force_exclude=opts.force_exclude)
    for f in found.files:
        click.echo(str(_display(f, session.cwd)))
    for line in found.errors:
        error(line)
    return EXIT_ERROR if found.errors else EXIT_OK


def _run_project(opts: CheckOptions, session: _Session, files: list[Path], show_progress: Optional[bool],
                 overrides: Optional[dict[str, bytes]] = None):
    """``files`` linted with the project-wide model, as `jaxlint check` is configured."""
    from jaxlint.cache import Cache
    from jaxlint.project_driver import run_project
    from jaxlint.ruleinfo import source_digest

    cache = None if opts.no_cache else Cache(session.cache_dir, source_digest())
    return run_project(
        files,
        session.store.settings_for,
        cache,
        _src_setting(session),
        jobs=opts.jobs,
        show_progress=show_progress,
        context_for=_project_files(opts, session),
        file_timeout=opts.file_timeout,
        overrides=overrides,
    )


def _lint_paths(opts: CheckOptions, session: _Session) -> _Linted:
    from jaxlint.discovery import discover

    found = discover(opts.paths or (".",), session.store, force_exclude=opts.force_exclude)
    files = [_display(p, session.cwd) for p in found.files]
    if not files and not found.errors:
        _warning("No Python files found under the given path(s)")  # Ruff's words
    outcome = _run_project(opts, session, files, False if opts.quiet else None)
    if opts.verbose:
        _show_projects(files, session)
        sys.stderr.write(f"linted {len(files)} files ({outcome.cache_hits} from the cache)\n")
    return _Linted(
        results=outcome.results,
        errors=sorted(found.errors + outcome.errors),
        tracebacks=outcome.tracebacks,
        sources={},
        settings=outcome.settings_of,
        no_files=not files and not found.errors,
    )


def _show_projects(files: list[Path], session: _Session) -> None:
    """``--verbose``: the project root and source roots each file was named from
    (module names, and so the facts across modules, follow from them)."""
    from jaxlint.project.roots import PROJECT_MARKERS
    from jaxlint.project_driver import describe_projects

    def shown(p: Path) -> str:
        return str(_display(p, session.cwd.resolve()))

    for root, src, marked, n in describe_projects(files, _src_setting(session)):
        marker = next((m for m in PROJECT_MARKERS if (root / m).is_file()), ".git")
        how = f"found by its {marker}" if marked else "the current directory: no project marker above the files"
        sys.stderr.write(f"project root: {shown(root)} ({how}); source roots: "
                         f"{', '.join(shown(r) for r in src)}; {n} file{'s' if n != 1 else ''}\n")


def _src_setting(session: _Session):
    """project root -> (its `src` setting or None, the directory it is relative to)."""

    def src_for(root: Path):
        cfg = session.store.for_dir(root).cfg
        return cfg.src, cfg.root

    return src_for


def _project_files(opts: CheckOptions, session: _Session):
    """project root -> its files, discovered as the CLI discovers them (for the
    facts the rest of a project gives the files named on the command line)."""
    from jaxlint.discovery import discover

    def files_of(root: Path) -> list[Path]:
        found = discover((str(root),), session.store, force_exclude=opts.force_exclude)
        return [_display(p, session.cwd) for p in found.files]

    return files_of


def _display(path: Path, cwd: Path) -> Path:
    """Show absolute paths under the current directory relative to it."""
    if path.is_absolute():
        try:
            return path.relative_to(cwd)
        except ValueError:
            return path
    return path


def _lint_stdin(opts: CheckOptions, session: _Session) -> _Linted:
    """Lint standard input, configured as ``--stdin-filename`` (never cached)."""
    from jaxlint.linter import decode_source
    from jaxlint.runner import lint_isolated

    name = opts.stdin_filename or "-"
    data = sys.stdin.buffer.read()
    if opts.stdin_filename and opts.force_exclude:
        from jaxlint.discovery import is_excluded

        if is_excluded(Path(os.path.abspath(opts.stdin_filename)), False, session.store):
            return _Linted(results=[], errors=[], tracebacks=[], sources={}, stdin_data=data)
    settings = {}
    if opts.stdin_filename:
        # a file of a project: linted with what the rest of the project tells it
        # (the rest from the cache when warm), the text from standard input
        path = _display(Path(os.path.abspath(name)), session.cwd)
        outcome = _run_project(opts, session, [path], False, overrides={str(path): data})
        from dataclasses import replace

        from jaxlint.findings import FileResult

        result = outcome.results[0] if outcome.results else FileResult(path=name)
        result.path = name
        result.findings = [replace(f, path=name) for f in result.findings]
        tb = outcome.tracebacks[0].split(":\n", 1)[1] if outcome.tracebacks else None
        settings = outcome.settings_of
        if str(path) in settings:
            settings = {name: settings[str(path)]}
    else:
        result, tb = lint_isolated(name, data, session.store.settings_for(Path(name)), opts.file_timeout)
    text, _ = decode_source(data)
    return _Linted(
        results=[result],
        errors=[f"{name}: {result.error}"] if result.error else [],
        tracebacks=[tb] if tb else [],
        sources={name: text} if text is not None else {},
        stdin_data=data,
        settings=settings,
    )


def _report(report, opts: CheckOptions, out: TextIO, color: bool, summary: bool = True) -> None:
    from jaxlint.output import summary_line, write

    if opts.statistics:
        from jaxlint.output import statistics

        statistics.write(report, out, json_output=opts.output_format == "json")
        if opts.output_format != "json" and not opts.quiet and report.findings:
            out.write(summary_line(report) + "\n")
        return
    write(opts.output_format, report, out, color)
    if opts.output_format in ("full", "concise") and not opts.quiet and summary:
        out.write(summary_line(report) + "\n")
    elif report.baseline is not None and not opts.quiet:
        from jaxlint.output import baseline_sentence

        sys.stderr.write(baseline_sentence(report).strip() + "\n")


# ----------------------------------------------------------------------------- fixes


def _fix(opts: CheckOptions, session: _Session, linted: _Linted, stdin_mode: bool):
    """Fix every file that has a fixable finding (``--fix``/``--fix-only``/``--diff``).

    Replaces the fixed files' results by what remains; writes the files unless
    ``--diff`` or stdin.  Returns the list of ``FileFix`` (or an exit code)."""
    from jaxlint.findings import FileResult
    from jaxlint.fixer import fix_file, needs_fixing

    fixed = []
    write = not opts.diff and not stdin_mode
    for i, result in enumerate(linted.results):
        if result.error or not needs_fixing(result.findings, opts.unsafe_fixes):
            continue
        data = linted.stdin_data if stdin_mode else None
        try:
            # the settings it was linted with: a finding that the rest of the project
            # explains (a helper traced from another module) is fixed and verified too
            settings = linted.settings.get(result.path) or session.store.settings_for(Path(result.path))
            ff = fix_file(result.path, data, settings, opts.unsafe_fixes)
        except (OSError, ValueError) as exc:
            linted.errors.append(f"{result.path}: cannot be fixed ({exc})")
            error(linted.errors[-1])
            continue
        for line in ff.result.skipped:
            _warning(f"{result.path}: {line}")
        for line in ff.result.errors:  # a rule's misplaced fix: the file is left as it was
            linted.errors.append(f"{result.path}: {line}")
            error(linted.errors[-1])
        if not ff.changed:
            continue
        if write:
            try:
                assert ff.source is not None
                ff.source.write(ff.result.text)
            except (OSError, UnicodeEncodeError) as exc:
                linted.errors.append(f"{result.path}: cannot be written ({exc})")
                error(linted.errors[-1])
                continue
        fixed.append(ff)
        linted.results[i] = FileResult(path=result.path, findings=ff.result.findings, parsed=True)
        if stdin_mode:
            # a notebook's code frames come from its JSON (jaxlint.notebook maps cells)
            notebook = result.path.endswith(".ipynb") and ff.source is not None
            linted.sources[result.path] = (ff.source.encode(ff.result.text).decode("utf-8", "replace")  # type: ignore[union-attr]
                                           if notebook else ff.result.text)
    if write and fixed and not stdin_mode:
        # what the fixed files now tell the rest of their project may have changed:
        # what remains is what a fresh check says (from the cache for unchanged files)
        again = _lint_paths(opts, session)
        for line in again.errors:
            if line not in linted.errors:
                linted.errors.append(line)
                error(line)
        linted.results = again.results
        linted.settings = again.settings
    return fixed


def _warning(message: str) -> None:
    err = sys.stderr
    if err.isatty() and not os.environ.get("NO_COLOR"):
        err.write(f"\x1b[1;33mwarning\x1b[0m: {message}\n")
    else:
        err.write(f"warning: {message}\n")


def _finish_fix(opts: CheckOptions, report, linted: _Linted, fixed: list, stdin_mode: bool) -> int:
    """Print diffs / the fixed stdin / the remaining findings; the exit code."""
    from jaxlint.fixer import file_diff, show_fixes_text

    from jaxlint.output import count_phrase, severities_of

    n_fixed = sum(len(ff.result.applied) for ff in fixed)
    severity = {r.code: r.severity for r in report.rules}
    fixed_sev = [severity.get(a.code, "error") for ff in fixed for a in ff.result.applied]
    if opts.diff:
        for ff in sorted(fixed, key=lambda x: x.path):
            sys.stdout.write(file_diff(ff))
        sys.stdout.flush()
        if not opts.quiet:
            # the fixes --unsafe-fixes would add (Ruff's hint); ``report`` holds what remains
            _, hidden = report.fix_counts()
            hint = (f"{hidden} hidden fix{'es' if hidden != 1 else ''} can be enabled with "
                    "the `--unsafe-fixes` option") if hidden else ""
            if n_fixed:
                sys.stderr.write(f"Would fix {count_phrase(fixed_sev)}{f' ({hint})' if hint else ''}.\n")
            else:
                sys.stderr.write(f"No fixes available ({hint}).\n" if hint else "No fixes available.\n")
        if linted.errors:
            return EXIT_ERROR
        return EXIT_FINDINGS if fixed else EXIT_OK
    if stdin_mode:  # the fixed source goes to stdout, as with Ruff
        data = fixed[0].source.encode(fixed[0].result.text) if fixed else (linted.stdin_data or b"")
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    text_format = opts.output_format in ("full", "concise")
    try:
        with _output_stream(opts.output_file, sys.stderr if stdin_mode else None) as (out, color):
            if not opts.fix_only:
                if opts.statistics:
                    from jaxlint.output import statistics

                    statistics.write(report, out, json_output=opts.output_format == "json")
                else:
                    from jaxlint.output import write

                    write(opts.output_format, report, out, color)
            info = out if text_format and not opts.statistics else sys.stderr
            if opts.show_fixes:
                info.write(show_fixes_text(fixed, count_phrase(fixed_sev)))
            if not opts.quiet and (text_format or opts.fix_only):
                remaining = len(report.findings)
                if opts.fix_only:
                    info.write(f"Fixed {count_phrase(fixed_sev)}.\n" if n_fixed else "No fixes applied.\n")
                elif n_fixed:
                    from jaxlint.output import baseline_sentence

                    found = count_phrase(fixed_sev + severities_of(report.findings))
                    info.write(f"Found {found} ({n_fixed} fixed, {remaining} remaining)."
                               f"{baseline_sentence(report)}\n")
                else:
                    from jaxlint.output import summary_line

                    info.write(summary_line(report) + "\n")
    except OSError as exc:
        _not_written(opts.output_file, exc)
        return EXIT_ERROR
    if linted.errors:
        return EXIT_ERROR
    if opts.exit_non_zero_on_fix and n_fixed:
        return EXIT_FINDINGS
    if opts.fix_only or opts.exit_zero:
        return EXIT_OK
    return EXIT_FINDINGS if report.findings else EXIT_OK


def _add_noqa(opts: CheckOptions, linted: _Linted, stdin_mode: bool) -> int:
    """``--add-noqa``: a ``# noqa: CODE`` for every finding, files rewritten in place."""
    import ast

    from jaxlint.fixer import SourceFile, add_noqa, add_noqa_notebook

    if stdin_mode:
        error("--add-noqa cannot be used with standard input")
        return EXIT_ERROR
    if opts.fix or opts.fix_only or opts.diff:
        error("--add-noqa cannot be combined with --fix, --fix-only or --diff")
        return EXIT_ERROR
    total = 0
    for result in sorted(linted.results, key=lambda r: r.path):
        findings = [f for f in result.findings if f.code != "JAX001"]
        if result.error or not findings:
            continue
        try:
            if result.path.endswith(".ipynb"):
                src, new, n = add_noqa_notebook(Path(result.path), findings)
            else:
                src = SourceFile.read(Path(result.path))
                new, n = add_noqa(src.text, findings)
            if not n:
                continue
            try:
                ast.parse(new)
            except (SyntaxError, ValueError):
                linted.errors.append(f"{result.path}: noqa comments not added (would not parse)")
                error(linted.errors[-1])
                continue
            src.write(new)
            total += n
        except (OSError, ValueError, UnicodeEncodeError) as exc:
            linted.errors.append(f"{result.path}: noqa comments not added ({exc})")
            error(linted.errors[-1])
    if not opts.quiet:
        sys.stderr.write(f"Added {total} noqa directive{'s' if total != 1 else ''}.\n")
    return EXIT_ERROR if linted.errors else EXIT_OK


@contextmanager
def _output_stream(path: Optional[str], default: Optional[TextIO] = None
                   ) -> Iterator[tuple[TextIO, bool]]:
    if path is None:
        out = default or sys.stdout
        yield out, _use_color(out)
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


# ----------------------------------------------------------------------------- rules


@cli.command("rules")
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def rules_command(output_format: str) -> None:
    """List every rule: code, name, default, fix availability, summary."""
    from jaxlint.rules import all_rules

    rules = all_rules()
    if output_format == "json":
        import json

        from jaxlint.config import find_config_file, load_config

        try:  # a rule's address only where the project configures one (docs-url)
            found = find_config_file(Path.cwd())
            docs_url = load_config(found).docs_url if found else None
        except ConfigError as exc:
            error(str(exc))
            sys.exit(EXIT_ERROR)

        data = [
            {
                "code": r.code,
                "name": r.name,
                "summary": r.summary,
                "severity": getattr(r.severity, "value", str(r.severity)),
                "default_enabled": r.default_enabled,
                "fix_availability": r.fix_availability,
                "seed": r.seed,
                "url": docs_url.replace("{code}", r.code) if docs_url else None,
            }
            for r in rules
        ]
        click.echo(json.dumps(data, indent=2))
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    count = f"{len(rules)} rule{'s' if len(rules) != 1 else ''}"
    from rich import box

    # piped: keep each rule on one line unless COLUMNS asks for a width
    width = None if sys.stdout.isatty() else int(os.environ.get("COLUMNS") or 240)
    console = Console(file=sys.stdout, highlight=False, soft_wrap=False, width=width)
    narrow = console.width < 120
    table = Table(box=box.SIMPLE_HEAD if narrow else box.HEAVY_HEAD, pad_edge=not narrow)
    table.add_column("Code", style="bold", no_wrap=True)
    table.add_column("Name", overflow="fold", min_width=12)
    table.add_column("On" if narrow else "Default", no_wrap=True)
    table.add_column("Fix", no_wrap=True)
    table.add_column("Summary", ratio=1, min_width=24, overflow="fold")
    for r in rules:
        table.add_row(Text(r.code), Text(r.name), "on" if r.default_enabled else "off",
                      Text(r.fix_availability), Text(r.summary))
    console.print(Text(f"jaxlint {__version__}: {count}"))
    console.print(table)


@cli.command("rule")
@click.argument("code")
@click.option("--output-format", type=click.Choice(["text", "markdown", "json"]), default="text",
              show_default=True, help="text renders the Markdown for the terminal.")
def rule_command(code: str, output_format: str) -> None:
    """Show the documentation of one rule (by code or name)."""
    from jaxlint.docs import render_rule_markdown, rule_source
    from jaxlint.rules import get_rule

    rule = get_rule(code)
    if rule is None:
        from jaxlint.rules import all_rules
        from jaxlint.ruleinfo import did_you_mean

        error(f"unknown rule '{code}'{did_you_mean(all_rules(), code)} (see `jaxlint rules`)")
        sys.exit(EXIT_ERROR)
    text = render_rule_markdown(rule)
    if output_format == "markdown":
        click.echo(text, nl=False)
    elif output_format == "json":
        import json

        click.echo(json.dumps({
            "code": rule.code,
            "name": rule.name,
            "summary": rule.summary,
            "severity": getattr(rule.severity, "value", str(rule.severity)),
            "default_enabled": rule.default_enabled,
            "fix_availability": rule.fix_availability,
            "source": rule_source(rule),
            "explanation": text,
        }, indent=2))
    else:
        from rich.console import Console
        from rich.markdown import Markdown

        Console(file=sys.stdout).print(Markdown(text))


# ----------------------------------------------------------------------------- confirm / bench


def _runtime_options(f):
    """Options shared by ``confirm`` and ``bench`` (the runtime companion)."""
    f = click.option("-v", "--verbose", is_flag=True, help="Print details.")(f)
    f = click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings are confirmed.")(f)
    f = click.option("-j", "--jobs", type=click.IntRange(min=1),
                     help="Worker processes run at once [default: up to 4].")(f)
    f = click.option("-o", "--output-file", type=click.Path(dir_okay=False),
                     help="Write the report to this file.")(f)
    f = click.option("--output-format", type=click.Choice(["table", "json", "sarif"]),
                     default="table", show_default=True, help="How to print the verdicts.")(f)
    f = click.option("--device", type=click.Choice(["cpu", "gpu", "tpu"]),
                     help="Run on this JAX platform [default: JAX's default device].")(f)
    f = click.option("--runs", type=click.IntRange(min=1),
                     help="Timed steady-state runs per benchmark [default: 20].")(f)
    f = click.option("--timeout", type=click.FloatRange(min=0.1),
                     help="Seconds allowed per import and per finding [default: 60].")(f)
    f = click.option("--run-timeout", type=click.FloatRange(min=0.1),
                     help="Seconds allowed per --run command [default: 600].")(f)
    f = click.option("--memory-limit", type=click.FloatRange(min=0), metavar="GIB",
                     help="GiB of memory each worker may allocate; a finding whose function "
                          "needs more is skipped as such (0: no limit) [default: half the "
                          "physical memory].")(f)
    f = click.option("--run", "run", multiple=True, metavar="CMD",
                     help="Run this command (repeatable) and watch the flagged functions' "
                          "real inputs [default: [tool.jaxlint.runtime] run].")(f)
    f = click.option("--no-cache", is_flag=True,
                     help="Neither read nor write the cache (lint results, observed inputs).")(f)
    f = click.option("--config", type=click.Path(dir_okay=False),
                     help="Use this configuration file for every file.")(f)
    f = click.option("--ignore", multiple=True, metavar="CODES", help="Rules to disable.")(f)
    f = click.option("--select", multiple=True, metavar="CODES", help="Rules to enable.")(f)
    f = click.argument("paths", nargs=-1, type=click.Path())(f)
    return f


@cli.command("confirm")
@_runtime_options
@click.option("--bench", "bench", is_flag=True,
              help="Also benchmark each confirmed finding against its fix or declared alternative.")
def confirm_command(**kwargs: object) -> None:
    """Run flagged functions under JAX (in a subprocess) to confirm the findings.

    Each finding inside a callable function gets a verdict: confirmed (with the
    evidence), not-reproduced, not-exercised (the check never ran the line), or
    skipped (and why).  User code runs only here,
    in separate processes with time limits.  --run CMD runs your own command
    (a script, a test suite) and takes the functions' inputs from what it sees.
    """
    from jaxlint.lifeline import stop_on_signals

    with stop_on_signals():  # SIGTERM/SIGHUP: every process it started ends, then jaxlint (main())
        code = run_runtime_command(bool(kwargs.pop("bench")), **kwargs)
    sys.exit(code)


@cli.command("bench")
@_runtime_options
def bench_command(**kwargs: object) -> None:
    """Confirm findings, then benchmark original against fixed (or declared alternative)."""
    from jaxlint.lifeline import stop_on_signals

    with stop_on_signals():
        code = run_runtime_command(True, **kwargs)
    sys.exit(code)


def _jax_missing() -> Optional[str]:
    """Why JAX cannot be imported by the runtime's workers (this interpreter), or
    None.  Looks the module up without importing it (JAX's import takes a second)."""
    import importlib.util

    try:
        if importlib.util.find_spec("jax") is not None:
            return None
    except (ImportError, ValueError) as exc:
        return str(exc) or exc.__class__.__name__
    return "No module named 'jax'"


def run_runtime_command(bench: bool, paths, select, ignore, config, no_cache, timeout, runs,
                        device, output_format, output_file, jobs, exit_zero, verbose,
                        run=(), run_timeout=None, memory_limit=None) -> int:
    opts = CheckOptions(
        paths=paths, select=select, ignore=ignore, extend_select=(), output_format="full",
        output_file=None, statistics=False, exit_zero=False, jobs=None, no_cache=no_cache,
        cache_dir=None, config=config, stdin_filename=None, force_exclude=False, x64=None,
        quiet=True, show_files=False, verbose=verbose,
    )
    missing = _jax_missing()
    if missing is not None:
        error(f"`jaxlint {'bench' if bench else 'confirm'}` runs your code with JAX, which cannot be "
              f"imported here ({missing}): install the runtime extra, "
              "`pip install 'jax-sharpbits[runtime]'` (from a checkout: `pip install -e '.[runtime]'`)")
        return EXIT_ERROR
    from jaxlint.runtime import run_runtime, write_report
    from jaxlint.runtime.driver import start_runs
    from jaxlint.runtime.specs import RuntimeOptions

    cli_set = {k for k, v in (("timeout", timeout), ("runs", runs),
                              ("run_timeout", run_timeout), ("memory_limit", memory_limit))
               if v is not None}
    options = RuntimeOptions(device=device, memory_limit=memory_limit)
    if run_timeout is not None:
        options.run_timeout = float(run_timeout)
    if timeout is not None:
        options.timeout = float(timeout)
    if runs is not None:
        options.runs = int(runs)
    commands = [(c, os.getcwd()) for c in run]
    mode = "bench" if bench else "confirm"
    # the --run commands start now: their Python and JAX start-up overlaps the lint
    early = start_runs(commands, options, mode, jobs, frozenset(cli_set)) if commands else None
    try:
        session = _prepare(opts)
        linted = _lint_paths(opts, session)
    except BaseException as exc:
        if early is not None:
            early.stop("jaxlint stopped before it knew what to watch")
            early.result()
        if not isinstance(exc, ConfigError):
            raise
        error(str(exc))
        return EXIT_ERROR
    for line in linted.errors:
        error(line)
    report = run_runtime(linted.results, session.store, options, cli_set, mode=mode, jobs=jobs,
                         commands=commands, early=early,
                         cache_dir=None if no_cache else session.cache_dir)
    for line in report.errors:
        error(line)
    if output_format != "table":
        from jaxlint.runtime.report import run_lines

        for line in run_lines(report):
            click.echo(f"jaxlint: {line}", err=True)
    try:
        with _output_stream(output_file) as (out, color):
            write_report(report, output_format, out, color, bench, rules=session.infos,
                         cwd=session.cwd)
    except OSError as exc:
        _not_written(output_file, exc)
        return EXIT_ERROR
    if linted.errors or report.errors:
        return EXIT_ERROR
    if any((f.runtime or {}).get("verdict") == "confirmed" for f in report.findings) and not exit_zero:
        return EXIT_FINDINGS
    return EXIT_OK


from jaxlint.cli_observe import observe_command  # noqa: E402 - `jaxlint observe` (its own module)

cli.add_command(observe_command(sys.modules[__name__]))  # check's helpers, handed over


# ----------------------------------------------------------------------------- mcp


@cli.command("mcp")
def mcp_command() -> None:
    """Serve jaxlint to coding agents: an MCP server on stdin/stdout (docs/agents.md)."""
    from jaxlint.mcp_server import main as mcp_main

    sys.exit(mcp_main())


# ----------------------------------------------------------------------------- clean


@cli.command("clean")
@click.option("--cache-dir", type=click.Path(file_okay=False), envvar="JAXLINT_CACHE_DIR",
              help="The cache directory to remove.")
@click.option("--config", type=click.Path(dir_okay=False), help="Configuration file to read cache-dir from.")
def clean_command(cache_dir: Optional[str], config: Optional[str]) -> None:
    """Remove the cache directory."""
    from jaxlint.cache import clean_cache

    try:
        target = cache_dir_for(Path.cwd(), cache_dir, Path(config) if config else None)
    except ConfigError as exc:
        error(str(exc))
        sys.exit(EXIT_ERROR)
    try:
        removed = clean_cache(target)
    except OSError as exc:
        error(f"{target}: cannot be removed ({exc.strerror or exc})" if exc.strerror else str(exc))
        sys.exit(EXIT_ERROR)
    click.echo(f"Removed cache at {target}" if removed else f"No cache at {target}")


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


# ----------------------------------------------------------------------------- entry


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
    try:
        cli.main(args=args, prog_name="jaxlint", standalone_mode=True)
    except Terminated as stopped:  # SIGTERM/SIGHUP: workers ended on the way out
        exit_by(stopped.signum)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    except Exception as exc:  # a bug in jaxlint
        if "--verbose" in args or "-v" in args:
            traceback.print_exc()
        first = str(exc).splitlines()[0] if str(exc) else ""
        error(f"internal error: {exc.__class__.__name__}{': ' + first if first else ''}"
              " (run with --verbose for the traceback)")
        sys.exit(EXIT_ERROR)
