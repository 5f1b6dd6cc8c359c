"""``jaxlint check`` (the default command): configure, lint, fix, report."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Optional, TextIO

import click

from jaxlint import __version__
from jaxlint.cli.app import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, cli, error, not_written, output_stream, warning
from jaxlint.output import FORMATS
from jaxlint.workspace.config import ConfigError, ConfigStore, Overrides, cache_dir_for, split_codes

if TYPE_CHECKING:
    from jaxlint.workspace import Workspace


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
    # `--observed [FILE]`: None not given, "" the default facts file, else the file
    observed: Optional[str] = None
    no_observed: bool = False


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
              help="Report a file whose check takes more CPU seconds than this as not checked, and go on [default: 60].")
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
@click.option("--observed", is_flag=False, flag_value="", default=None, metavar="[FILE]",
              help="Use the facts `jaxlint observe` recorded (which functions ran traced, each "
                   "parameter's kind) where the static model cannot tell [default FILE: "
                   "observed/facts.json in the cache directory; write --observed=FILE].")
@click.option("--no-observed", is_flag=True, help="Ignore `observed` set in the configuration.")
def check_command(**kwargs: object) -> None:
    """Lint PATHS (files or directories; default: the current directory)."""
    from jaxlint.lifeline import stop_on_signals

    observed = kwargs.get("observed")
    if isinstance(observed, str) and observed and (
            observed.endswith((".py", ".pyi", ".ipynb")) or Path(observed).is_dir()):
        # `jaxlint check --observed train.py`: a facts file is JSON, never Python source
        # nor a folder, so the word is the path to lint and the default facts file is meant
        kwargs["paths"] = (observed, *kwargs.get("paths", ()))  # type: ignore[misc]
        kwargs["observed"] = ""
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
    workspace: Workspace  # what every project run of this command lints with


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
    if opts.stdin_filename is not None and not stdin_mode:
        from jaxlint.cli.app import warning

        warning(f"--stdin-filename names standard input, which is read only with the path `-` "
                f"(`jaxlint check - --stdin-filename {opts.stdin_filename}`); the paths given "
                f"are linted and it is ignored")
    if stdin_mode and len(opts.paths) > 1:
        error("`-` (standard input) cannot be combined with other paths")
        return EXIT_ERROR
    from jaxlint.output.baseline import BaselineError
    from jaxlint.cli.baseline import kept_results, load_baseline, match_baseline, write_baseline

    try:
        session = prepare(opts)
        if opts.show_files and not stdin_mode:
            return _show_files(opts, session)
        baseline = load_baseline(opts, session)
        linted = _lint_stdin(opts, session) if stdin_mode else lint_paths(opts, session)
    except (ConfigError, BaselineError) as exc:
        for line in str(exc).splitlines() or [""]:
            error(line)
        return EXIT_ERROR

    for line in linted.errors:
        error(line)
    _observed_report(session)
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
        with output_stream(opts.output_file) as (out, color):
            print_report(report, opts, out, color, summary=not linted.no_files)
    except OSError as exc:
        not_written(opts.output_file, exc)
        return EXIT_ERROR

    if linted.errors:
        return EXIT_ERROR
    if report.findings and not opts.exit_zero:
        return EXIT_FINDINGS
    return EXIT_OK


def prepare(opts: CheckOptions) -> _Session:
    """Read the configuration and the rule metadata (raises ConfigError)."""
    from jaxlint.workspace.ruleinfo import load_rule_infos

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
        from jaxlint.parse import fastparse

        if fastparse.DISABLED is not None:
            sys.stderr.write(f"fastparse is off (every file takes libcst's parser): {fastparse.DISABLED}\n")
    from jaxlint.workspace import Workspace, cache_in

    workspace = Workspace(store, cwd, cache=cache_in(None if opts.no_cache else cache_dir),
                          force_exclude=opts.force_exclude,
                          observed=_observed_facts(opts, store, cache_dir))
    return _Session(cwd=cwd, store=store, infos=infos, cache_dir=cache_dir, workspace=workspace)


def _observed_facts(opts: CheckOptions, store: ConfigStore, cache_dir: Path):
    """The facts file of ``--observed [FILE]`` or of ``observed`` in the configuration
    (workspace/observed.py), or None.  A facts file asked for on the command line
    that cannot be used is a ConfigError; one the configuration names, a warning."""
    from jaxlint.workspace.observed import ObservedError, ObservedFacts, default_path

    if opts.no_observed:
        if opts.observed is not None:
            raise ConfigError("--observed and --no-observed cannot be combined")
        return None
    if opts.observed is not None:
        path, asked = (Path(opts.observed) if opts.observed else default_path(cache_dir)), True
    else:
        cfg = store.root_config.cfg
        if not cfg.observed:
            return None
        path = default_path(cache_dir) if cfg.observed is True else cfg.root / str(cfg.observed)
        asked = False
    try:
        facts = ObservedFacts.load(path, store.root_config.root)
    except ObservedError as exc:
        if asked:
            raise ConfigError(str(exc)) from None
        warning(f"{exc} (`observed` in {store.root_config.cfg.label}; linting without them)")
        return None
    if opts.verbose:
        sys.stderr.write(f"observed facts: {path} ({sum(len(v) for v in facts.by_file.values())} "
                         f"functions in {len(facts.by_file)} files)\n")
    return facts


def _observed_report(session: _Session) -> None:
    """After the lint: one line saying how many observed facts were stale, or that none
    of them was for a file of this project."""
    facts = session.workspace.observed
    for line in (facts.stale_line(), facts.unmatched_line()) if facts is not None else ():
        if line:
            warning(line)


def _show_files(opts: CheckOptions, session: _Session) -> int:
    ws = session.workspace
    found = ws.discover(opts.paths or (".",))
    for f in found.files:
        click.echo(str(f))
    for line in found.errors:
        error(line)
    return EXIT_ERROR if found.errors else EXIT_OK


def _run_project(opts: CheckOptions, session: _Session, files: list[Path], show_progress: Optional[bool]):
    """``files`` linted with the project-wide model, as `jaxlint check` is configured."""
    from jaxlint.project.driver import RunOptions, run_project

    options = RunOptions(jobs=opts.jobs, show_progress=show_progress, file_timeout=opts.file_timeout)
    return run_project(files, session.workspace, options)


def lint_paths(opts: CheckOptions, session: _Session) -> _Linted:
    ws = session.workspace
    found = ws.discover(opts.paths or (".",))
    files = found.files
    if not files and not found.errors:
        warning("No Python files found under the given path(s)")  # Ruff's words
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
    from jaxlint.project.driver import describe_projects
    from jaxlint.workspace import cli_display

    def shown(p: Path) -> str:
        return str(cli_display(p, session.cwd.resolve()))

    for root, src, marked, n in describe_projects(files, session.workspace):
        marker = next((m for m in PROJECT_MARKERS if (root / m).is_file()), ".git")
        how = f"found by its {marker}" if marked else "the current directory: no project marker above the files"
        sys.stderr.write(f"project root: {shown(root)} ({how}); source roots: "
                         f"{', '.join(shown(r) for r in src)}; {n} file{'s' if n != 1 else ''}\n")


def _lint_stdin(opts: CheckOptions, session: _Session) -> _Linted:
    """Lint standard input, configured as ``--stdin-filename`` (never cached)."""
    from jaxlint.lint.linter import decode_source
    from jaxlint.lint.runner import lint_isolated

    name = opts.stdin_filename or "-"
    data = sys.stdin.buffer.read()
    if opts.stdin_filename and opts.force_exclude:
        if session.workspace.is_excluded(Path(opts.stdin_filename)):
            return _Linted(results=[], errors=[], tracebacks=[], sources={}, stdin_data=data)
    settings = {}
    if opts.stdin_filename:
        # a file of a project: linted with what the rest of the project tells it
        # (the rest from the cache when warm), the text from standard input
        path = session.workspace.display(Path(os.path.abspath(name)))
        session.workspace.sources[str(path)] = data
        outcome = _run_project(opts, session, [path], False)
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


def print_report(report, opts: CheckOptions, out: TextIO, color: bool, summary: bool = True) -> None:
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
    from jaxlint.fix.fixer import fix_file, needs_fixing

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
            warning(f"{result.path}: {line}")
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
            # a notebook's code frames come from its JSON (jaxlint.parse.notebook maps cells)
            notebook = result.path.endswith(".ipynb") and ff.source is not None
            linted.sources[result.path] = (ff.source.encode(ff.result.text).decode("utf-8", "replace")  # type: ignore[union-attr]
                                           if notebook else ff.result.text)
    if write and fixed and not stdin_mode:
        # what the fixed files now tell the rest of their project may have changed:
        # what remains is what a fresh check says (from the cache for unchanged files)
        again = lint_paths(opts, session)
        for line in again.errors:
            if line not in linted.errors:
                linted.errors.append(line)
                error(line)
        linted.results = again.results
        linted.settings = again.settings
    return fixed


def _finish_fix(opts: CheckOptions, report, linted: _Linted, fixed: list, stdin_mode: bool) -> int:
    """Print diffs / the fixed stdin / the remaining findings; the exit code."""
    from jaxlint.fix.fixer import file_diff, show_fixes_text

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
        with output_stream(opts.output_file, sys.stderr if stdin_mode else None) as (out, color):
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
                    from jaxlint.output import baseline_sentence, unchecked_clause

                    found = count_phrase(fixed_sev + severities_of(report.findings))
                    info.write(f"Found {found} ({n_fixed} fixed, {remaining} remaining)"
                               f"{unchecked_clause(report)}."
                               f"{baseline_sentence(report)}\n")
                else:
                    from jaxlint.output import summary_line

                    info.write(summary_line(report) + "\n")
    except OSError as exc:
        not_written(opts.output_file, exc)
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

    from jaxlint.fix.fixer import SourceFile, add_noqa, add_noqa_notebook

    if stdin_mode:
        error("--add-noqa cannot be used with standard input")
        return EXIT_ERROR
    if opts.fix or opts.fix_only or opts.diff:
        error("--add-noqa cannot be combined with --fix, --fix-only or --diff")
        return EXIT_ERROR
    total, unknown = 0, []
    for result in sorted(linted.results, key=lambda r: r.path):
        unknown += [f for f in result.findings if f.code == "JAX002"]
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
        if unknown:
            # a code that names no rule is mended in its directive, never silenced by
            # another code beside it: say so, or the next check fails on it unexplained
            n = len(unknown)
            sys.stderr.write(
                f"Left {n} JAX002 finding{'s' if n != 1 else ''} (a `# noqa` code that names no rule"
                f" is removed from its directive, not silenced): `jaxlint check --fix --select JAX002`"
                f" removes {'them' if n != 1 else 'it'}.\n")
    return EXIT_ERROR if linted.errors else EXIT_OK
