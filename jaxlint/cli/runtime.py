"""``jaxlint confirm`` and ``jaxlint bench``: the runtime companion runs the findings with real JAX."""

from __future__ import annotations

import os
import sys
from typing import Optional

import click

from jaxlint.cli.app import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, cli, error, not_written, output_stream, warning
from jaxlint.cli.check import CheckOptions, lint_paths, prepare
from jaxlint.workspace.config import ConfigError


# ----------------------------------------------------------------------------- confirm / bench


def _runtime_options(f):
    """Options shared by ``confirm`` and ``bench`` (the runtime companion)."""
    f = click.option("-v", "--verbose", is_flag=True, help="Print details.")(f)
    f = click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings are confirmed.")(f)
    f = click.option("-j", "--jobs", type=click.IntRange(min=1),
                     help="Worker processes run at once [default: up to 4].")(f)
    f = click.option("-o", "--output-file", type=click.Path(dir_okay=False),
                     help="Write the report to this file.")(f)
    f = click.option("--output-format", type=click.Choice(["table", "concise", "json", "sarif"]),
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
    f = click.option("--no-facts", is_flag=True,
                     help="Do not record the observed facts of the --run commands (with "
                          "--no-cache they are recorded only when --facts names a file).")(f)
    f = click.option("--facts", "facts", type=click.Path(dir_okay=False), metavar="FILE",
                     help="Where to write the observed facts of the --run commands, which "
                          "`jaxlint check --observed` reads [default: observed/facts.json in "
                          "the cache directory].")(f)
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


def _write_facts(facts: Optional[str], session, report, mode: str, verbose: bool) -> None:
    """The facts file for `check --observed`, from what the --run commands recorded;
    written when at least one command ran (none runs when no finding is inside a
    function); a file that cannot be written is a warning (the verdicts stand)."""
    from pathlib import Path

    from jaxlint.runtime.factsfile import write_facts
    from jaxlint.workspace.observed import default_path

    # the --run commands that ran to their end (a process killed, stopped or timed out
    # writes none; a notebook's run records none)
    ran = [c for e in report.facts_events if e.get("event") == "ran" for c in e["commands"]]
    if not ran:
        return
    if facts:
        path = Path(facts)
    else:
        from jaxlint.cache import prepare_cache_dir

        path = default_path(session.cache_dir)
        try:
            prepare_cache_dir(session.cache_dir)  # its CACHEDIR.TAG and .gitignore
        except OSError:
            pass
    try:
        n, traced = write_facts(path, report.facts_events, ran, session.store.root_config.root,
                                written_by=f"jaxlint {mode}")
    except OSError as exc:
        warning(f"{path}: the observed facts could not be written ({exc.strerror or exc})")
        return
    if verbose:
        click.echo(f"jaxlint: observed facts for {n} function(s), {traced} of them traced, "
                   f"written to {path}", err=True)


# How to get JAX for `confirm`, `bench` and `observe`.  jax-sharpbits is not on PyPI
# (README, "Install from source"): the extra is installed from a checkout, or JAX itself.
RUNTIME_INSTALL_HINT = ("install the runtime extra from a jaxlint checkout, `pip install -e '.[runtime]'` "
                        "(or JAX itself: `pip install jax`)")


def jax_missing() -> Optional[str]:
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
                        run=(), run_timeout=None, memory_limit=None, facts=None,
                        no_facts=False) -> int:
    opts = CheckOptions(
        paths=paths, select=select, ignore=ignore, extend_select=(), output_format="full",
        output_file=None, statistics=False, exit_zero=False, jobs=None, no_cache=no_cache,
        cache_dir=None, config=config, stdin_filename=None, force_exclude=False, x64=None,
        quiet=True, show_files=False, verbose=verbose,
    )
    missing = jax_missing()
    if missing is not None:
        error(f"`jaxlint {'bench' if bench else 'confirm'}` runs your code with JAX, which cannot be "
              f"imported here ({missing}): {RUNTIME_INSTALL_HINT}")
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
    if facts and no_facts:
        error("--facts FILE and --no-facts cannot be given together")
        return EXIT_ERROR
    # `check --observed`'s facts of the functions in PATHS, recorded while the commands
    # run (as `jaxlint observe` records them); the default file is in the cache directory,
    # so with --no-cache only a --facts FILE records them
    facts_paths = None if no_facts or (no_cache and not facts) else \
        [os.path.realpath(p) for p in (paths or (".",))]
    commands = [(c, os.getcwd()) for c in run]
    mode = "bench" if bench else "confirm"
    # the --run commands start now: their Python and JAX start-up overlaps the lint
    early = start_runs(commands, options, mode, jobs, frozenset(cli_set),
                       facts_paths=facts_paths) if commands else None
    try:
        session = prepare(opts)
        linted = lint_paths(opts, session)
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
                         cache_dir=None if no_cache else session.cache_dir,
                         facts_paths=facts_paths)
    for line in report.errors:
        error(line)
    if facts_paths is not None:
        _write_facts(facts, session, report, mode, verbose)
    if output_format != "table":
        from jaxlint.runtime.report import run_lines

        for line in run_lines(report):
            click.echo(f"jaxlint: {line}", err=True)
    try:
        with output_stream(output_file) as (out, color):
            write_report(report, output_format, out, color, bench, rules=session.infos,
                         cwd=session.cwd)
    except OSError as exc:
        not_written(output_file, exc)
        return EXIT_ERROR
    if linted.errors or report.errors:
        return EXIT_ERROR
    if any((f.runtime or {}).get("verdict") == "confirmed" for f in report.findings) and not exit_zero:
        return EXIT_FINDINGS
    return EXIT_OK
