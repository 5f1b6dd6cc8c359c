"""``jaxlint observe --run CMD [PATHS]``: run the project's own command with JAX's
checkers on, and report what they saw as findings at the user's lines (every output
format of ``check``, noqa, ``--baseline``, the same exit codes).  It reuses ``check``'s
set-up and report (``cli/check.py``, ``cli/app.py``).  The run's side is
``jaxlint.runtime.probes`` (inside the command) and ``jaxlint.runtime.sightings``
(events -> findings); docs/runtime.md, "jaxlint observe"."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Optional

import click

from jaxlint.cli import app, check
from jaxlint.cli.app import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, error
from jaxlint.cli.runtime import RUNTIME_INSTALL_HINT, jax_missing
from jaxlint.output import FORMATS


def observe_command() -> click.Command:
    """The `observe` command."""

    @click.command("observe")
    @click.argument("paths", nargs=-1, type=click.Path())
    @click.option("--run", "run", multiple=True, metavar="CMD",
                  help="The command to run with JAX's checkers on (repeatable): a script, a test "
                       "suite [default: `run` of [tool.jaxlint.runtime], from its directory].")
    @click.option("--run-timeout", type=click.FloatRange(min=0.1), metavar="SECONDS",
                  help="Seconds allowed per --run command [default: `run-timeout` of "
                       "[tool.jaxlint.runtime], else 600].")
    @click.option("--no-debug-nans", is_flag=True,
                  help="Leave JAX's NaN checker off (with it on, JAX does not donate buffers, so a "
                       "donated array used again is not seen).")
    @click.option("--debug-infs", is_flag=True,
                  help="Also stop at the first Inf (jax_debug_infs; off by default: -inf masks are common).")
    @click.option("--check-leaks", is_flag=True,
                  help="Also run JAX's tracer-leak checker (jax_check_tracer_leaks; off by default: "
                       "it makes JAX compile every eager operation afresh).")
    @click.option("--device", type=click.Choice(["cpu", "gpu", "tpu"]),
                  help="Run on this JAX platform [default: JAX's default device].")
    @click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
                  help="Commands run at once.")
    @click.option("--select", multiple=True, metavar="CODES", help="Rules to report (replaces the configured selection).")
    @click.option("--ignore", multiple=True, metavar="CODES", help="Rules not to report.")
    @click.option("--extend-select", multiple=True, metavar="CODES", help="Rules to report in addition.")
    @click.option("--output-format", type=click.Choice(FORMATS), default="full",
                  envvar="JAXLINT_OUTPUT_FORMAT", show_default=True, help="How to print the findings.")
    @click.option("-o", "--output-file", type=click.Path(dir_okay=False),
                  help="Write the findings to this file instead of stdout.")
    @click.option("--statistics", is_flag=True, help="Print a count of findings per rule instead.")
    @click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
    @click.option("--no-cache", is_flag=True, help="Neither read nor write the lint cache.")
    @click.option("--config", type=click.Path(dir_okay=False),
                  help="Use this configuration file for every file.")
    @click.option("--baseline", type=click.Path(dir_okay=False), metavar="FILE",
                  help="Report (and fail on) only the findings not recorded in this baseline file.")
    @click.option("--no-baseline", is_flag=True, help="Ignore the baseline set in the configuration.")
    @click.option("--facts", "facts", type=click.Path(dir_okay=False), metavar="FILE",
                  help="Where to write the observed facts that `jaxlint check --observed` reads "
                       "(which functions ran traced, each parameter's kind) "
                       "[default: observed/facts.json in the cache directory].")
    @click.option("--no-facts", is_flag=True,
                  help="Do not record the observed facts (with --no-cache they are recorded only "
                       "when --facts names a file).")
    @click.option("-q", "--quiet", is_flag=True, help="Print the findings only: no summary line.")
    @click.option("-v", "--verbose", is_flag=True, help="Print details.")
    def command(**kwargs: object) -> None:
        """Run CMD with JAX's own checkers on and report what they saw in PATHS.

        Key reuse, the first NaN and the operation that made it, recompilations and
        their cause, device-to-host and host-to-device copies repeated at a line, leaked and printed
        tracers, float64 truncated, donated arrays used again: each at the first line
        of your code (inside PATHS, default `.`) that led to it.  An event at a line
        that `jaxlint check` also flags says so ("observed").
        """
        from jaxlint.lifeline import stop_on_signals

        with stop_on_signals():  # SIGTERM/SIGHUP: every process it started ends, then jaxlint
            code = run_observe(**kwargs)  # type: ignore[arg-type]
        sys.exit(code)

    return command


def run_observe(paths, run, run_timeout, no_debug_nans, debug_infs, check_leaks, device, jobs, select, ignore,
                extend_select, output_format, output_file, statistics, exit_zero, no_cache,
                config, baseline, no_baseline, quiet, verbose, facts=None, no_facts=False) -> int:
    from jaxlint.output.baseline import BaselineError
    from jaxlint.workspace.config import ConfigError

    if statistics and output_format not in ("full", "concise", "json"):
        error(f"--statistics prints a table or JSON; it cannot be combined with --output-format {output_format}")
        return EXIT_ERROR
    missing = jax_missing()
    if missing is not None:
        error(f"`jaxlint observe` runs your command with JAX, which cannot be imported here "
              f"({missing}): {RUNTIME_INSTALL_HINT}")
        return EXIT_ERROR
    opts = check.CheckOptions(
        paths=tuple(paths), select=select, ignore=ignore, extend_select=extend_select,
        output_format=output_format, output_file=output_file, statistics=statistics,
        exit_zero=exit_zero, jobs=None, no_cache=no_cache, cache_dir=None, config=config,
        stdin_filename=None, force_exclude=False, x64=None, quiet=True, show_files=False,
        verbose=verbose, baseline=baseline, no_baseline=no_baseline, no_observed=True)
    for p in paths:
        if not os.path.exists(p):
            error(f"{p}: No such file or directory")
            return EXIT_ERROR
    from jaxlint.cli.baseline import kept_results, load_baseline, match_baseline
    from jaxlint.runtime import procs
    from jaxlint.runtime import sightings as observing
    from jaxlint.runtime.observe import last_line

    if facts and no_facts:
        error("--facts FILE and --no-facts cannot be given together")
        return EXIT_ERROR
    if no_cache and not facts:
        no_facts = True  # the default facts file is in the cache directory
    opts_facts = None if no_facts else {"facts": True}
    roots = [os.path.realpath(p) for p in (paths or (".",))]
    nans = not no_debug_nans
    with procs.stopping():  # Ctrl-C, SIGTERM: every command's tree is killed first
        # --run commands start now: their Python and JAX start-up overlaps jaxlint's own
        # (the configuration, the baseline); a `run` from the configuration starts once
        # it is read
        early = observing.start_observed([(c, os.getcwd()) for c in run], roots, run_timeout,
                                         jobs, device, debug_infs, check_leaks, nans=nans,
                                         options=opts_facts) \
            if run else None
        failed: Optional[str] = None
        try:
            try:
                session = check.prepare(_snapshot_ok(opts))
                loaded = load_baseline(opts, session)
                commands, configured_timeout = _configured_runs(session, paths, run)
            except (ConfigError, BaselineError, ValueError) as exc:
                failed = str(exc)
            if failed is None and not commands:
                failed = ("observe needs a command to run: give --run CMD, or set "
                          "`run = \"CMD\"` in [tool.jaxlint.runtime] of the project's "
                          "pyproject.toml")
            if failed is not None:
                error(failed)
                return EXIT_ERROR
            timeout = float(run_timeout if run_timeout is not None else configured_timeout)
            if early is None:
                early = observing.start_observed(commands, roots, timeout, jobs, device,
                                                 debug_infs, check_leaks, nans=nans,
                                                 options=opts_facts)
            else:
                early.limit(timeout)
            runs, events = early.result()
        finally:
            if early is not None and not early.finished:  # an error, Ctrl-C: none left
                early.stop("jaxlint stopped before the run ended")
                early.result()
    # the facts of the commands that ran to their end (one killed, timed out or stopped
    # recorded part of them: a facts file from it would replace a whole one)
    finished = [r.command for r in runs if procs.ran_to_end(r.status)]
    if not no_facts and finished:
        problem = _write_facts(facts, session, [e for e in events if e.get("event") != "facts"
                                                or e.get("command") in finished],
                               finished, verbose)
        if problem:  # the run's own findings still count: reported below
            sys.stderr.write(f"warning: {problem}\n")
    elif not no_facts and verbose:
        sys.stderr.write("jaxlint: no --run command ran to its end: no observed facts written\n")
    seen = observing.sightings(events, roots)
    results, sources = _results(seen, session, opts)
    linted = SimpleNamespace(results=results, sources=sources, errors=[])
    from jaxlint.output import OutputReport

    outcome = match_baseline(opts, session, linted, loaded) if loaded is not None else None
    report = OutputReport(results=kept_results(results, outcome), rules=session.infos,
                          cwd=session.cwd, sources=sources, baseline=outcome,
                          docs_url=session.store.root_config.cfg.docs_url)
    problems, blind, cut = [], 0, []
    for r in runs:
        line = f"--run `{r.command}`: {r.status} in {r.wall_s:.1f} s, {r.processes} Python " \
               f"process(es) observed"
        # what the run observed: its events, less the program's own exceptions (a
        # ValueError, a missing module: an exception that is no sharp bit)
        observed = sum(1 for e in events if e.get("command") == r.command
                       and e.get("event") == "hit" and not (
                           e.get("kind") == "exception" and observing.exception_code(e) is None))
        last = last_line(r.output_tail)
        # a command that failed (it could not start, raised, exited non-zero, was
        # killed) or timed out is an error when nothing was observed before; one that
        # failed after events reports them, and is an error too when it gives no
        # finding and what stopped it is no observed sharp bit (the exception its
        # output names was not seen at a line of PATHS, as the NaN checker's
        # FloatingPointError is): a crash is never "All checks passed!"
        failed = r.status != "ok"
        if failed and (observed == 0 or (
                not report.findings and not r.status.startswith("timed out")
                and not _stopped_by_sighting(seen, r.command, r.output_tail))):
            problems.append(line + (f" (last output: {last})" if last else ""))
            blind += observed == 0
        else:
            if r.status.startswith("timed out"):
                cut.append(r.status)  # observed, then cut off: only a part of it ran
            if verbose or r.status != "ok":
                sys.stderr.write(f"jaxlint: {line}\n")
    for line in problems:
        error(line)
    unobserved = _unobserved_summary(runs, problems, blind, cut) if not report.findings else None
    try:
        with app.output_stream(output_file) as (out, color):
            show = SimpleNamespace(statistics=statistics, output_format=output_format, quiet=quiet)
            check.print_report(report, show, out, color, summary=unobserved is None)
            if unobserved is not None and output_format in ("full", "concise") and not quiet \
                    and not statistics:
                out.write(unobserved + "\n")
    except OSError as exc:
        app.not_written(output_file, exc)
        return EXIT_ERROR
    if problems:
        return EXIT_ERROR
    if report.findings and not exit_zero:
        return EXIT_FINDINGS
    return EXIT_OK


def _stopped_by_sighting(seen: list, command: str, tail: str) -> bool:
    """Whether the exception that ended ``command`` (named in the last output it
    printed, its traceback) is one the run observed as a sharp bit."""
    return any(s.evidence.get("command") == command and s.evidence.get("exception")
               and re.search(rf"\b{re.escape(str(s.evidence['exception']))}\b", tail)
               for s in seen)


def _unobserved_summary(runs: list, problems: list, blind: int,
                        cut: Optional[list] = None) -> Optional[str]:
    """The summary line instead of "All checks passed!" when there was nothing to pass:
    a --run command failed (``blind`` of them before anything was observed), a command
    was cut off by its time limit after events (``cut``: their statuses; what ran was
    observed, the rest of the program was not), or no command started a Python process
    (None when the run was observed to its end)."""
    if problems:
        n = len(problems)
        when = " before anything was observed" if blind == n else ""
        if n == len(runs) == 1:
            return f"No findings, but the --run command failed{when} (see the error)."
        return (f"No findings, but {n} of {len(runs)} --run commands failed{when} "
                f"(see the error{'s' if n != 1 else ''}).")
    if cut:
        if len(cut) == len(runs) == 1:
            return (f"No findings in the part that ran: the --run command {cut[0]}, before "
                    "its end.")
        return (f"No findings in the part that ran: {len(cut)} of {len(runs)} --run commands "
                "timed out before their end (see the warnings).")
    if runs and not any(r.processes for r in runs):
        which = "the --run command started" if len(runs) == 1 else "the --run commands started"
        return f"No findings, but nothing was observed: {which} no Python process."
    return None


def _write_facts(facts: Optional[str], session, events: list, commands: list, verbose: bool) -> Optional[str]:
    """The facts file for `check --observed` (runtime/factsfile.py); a problem line or None."""
    from jaxlint.runtime.factsfile import write_facts
    from jaxlint.workspace.observed import default_path

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
        n, traced = write_facts(path, events, commands, session.store.root_config.root)
    except OSError as exc:
        return f"{path}: the observed facts could not be written ({exc.strerror or exc})"
    if verbose:
        sys.stderr.write(f"jaxlint: observed facts for {n} function(s), {traced} of them traced, "
                         f"written to {path}\n")
    return None


def _snapshot_ok(opts):
    """observe lints no project (it reads no lint cache); with --no-cache it still takes
    the rule table from the snapshot in the cache directory when one is there (keyed by
    a digest of jaxlint's sources, never stale; nothing is written): the rule table
    imported afresh costs libcst's import, 0.3 s of CPU, more than the rest of observe's
    own start (docs/runtime.md, "Measured: overhead")."""
    import dataclasses

    from jaxlint.workspace.config import cache_dir_for
    from jaxlint.workspace.ruleinfo import source_digest

    if not opts.no_cache:
        return opts
    try:
        cache_dir = cache_dir_for(Path.cwd(), opts.cache_dir,
                                  Path(opts.config) if opts.config else None)
        if (Path(cache_dir) / f"rules-{source_digest()}.json").is_file():
            return dataclasses.replace(opts, no_cache=False)
    except (OSError, ValueError):
        pass
    return opts


def _configured_runs(session, paths: tuple, run: tuple) -> tuple[list, float]:
    """The (command, cwd) pairs to run and the time limit per command: ``--run`` (from
    the current directory), else the ``run`` list of the ``[tool.jaxlint.runtime]``
    table that applies to each PATH (from that configuration's directory, as
    ``confirm``); the limit is the first configuration's ``run-timeout``, else 600 s.
    Raises ValueError (one line) for a table with a bad value."""
    from jaxlint.runtime.specs import RuntimeOptions, SpecError, read_runtime_table

    commands = [(c, os.getcwd()) for c in run]
    timeout: Optional[float] = None
    for p in paths or (".",):
        target = Path(p).resolve()
        resolved = session.store.for_dir(target) if target.is_dir() else \
            session.store.for_path(target)
        try:
            table = read_runtime_table(resolved.cfg.runtime or {}, resolved.cfg.label)
        except SpecError as exc:
            if run:
                continue  # --run replaces the table's commands: a bad table does not stop it
            raise ValueError(str(exc)) from None
        if timeout is None and "run_timeout" in table:
            timeout = table["run_timeout"]
        if not run:
            for command in table.get("run", []):
                if (command, str(resolved.root)) not in commands:
                    commands.append((command, str(resolved.root)))
    return commands, timeout if timeout is not None else RuntimeOptions().run_timeout


def _results(seen: list, session, opts) -> tuple[list, dict]:
    """Sightings -> one FileResult per file (display paths, as `check` shows them):
    the configured selection and noqa applied; an event at a line where `check`
    reports the same sharp bit is marked observed."""
    if not seen:  # nothing to mark or to filter: neither the lint nor noqa (libcst) is needed
        return [], {}
    from jaxlint.engine.suppression import Suppressions
    from jaxlint.findings import FileResult, Finding, Severity
    from jaxlint.runtime.sightings import RUN_ONLY, same_sharp_bit

    infos = {i.code: i for i in session.infos}
    cwd = session.cwd
    by_file: dict[str, list] = {}
    for s in seen:
        by_file.setdefault(s.path, []).append(s)
    results, sources = [], {}
    # the files linted for the "observed" marks: those with an event of a sharp bit that a
    # static rule can report (a runtime-only one, JAX507/JAX509, confirms nothing)
    static = _static_findings(sorted({s.path for s in seen if s.code not in RUN_ONLY}),
                              session, opts)
    for real, group in sorted(by_file.items()):
        path = Path(real)
        try:
            shown = str(path.relative_to(cwd.resolve()))
        except ValueError:
            shown = str(path)
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        settings = session.store.settings_for(Path(shown))
        noqa = Suppressions(text)
        lines = text.splitlines()
        findings = []
        for s in group:
            info = infos.get(s.code)
            if info is None or s.code not in settings.select or noqa.is_suppressed(s.code, s.line):
                continue
            message = s.message
            confirms = sorted({c for c in static.get((real, s.line), ())
                               if same_sharp_bit(s.code, c)})
            if confirms:
                message += f" (observed: confirms {', '.join(confirms)}, which `jaxlint check` reports at this line)"
            text_line = lines[s.line - 1] if 0 < s.line <= len(lines) else ""
            width = len(text_line.rstrip())
            col = s.col if s.col >= 0 else len(text_line) - len(text_line.lstrip())
            end = s.end_col if s.end_col > col else max(width, col)
            findings.append(Finding(
                code=s.code, name=info.name, message=message, path=shown, line=s.line,
                col=col + 1, end_line=s.line, end_col=end + 1,
                severity=Severity(info.severity), function=s.function,
                runtime={"observed": True, "count": s.count, "evidence": s.evidence,
                         "confirms": confirms}))
        if findings:
            results.append(FileResult(path=shown, findings=findings, parsed=True))
    return results, sources


def _static_findings(files: list[str], session, opts) -> dict:
    """(real path, line) -> codes `jaxlint check` reports there, for the files with events:
    each file linted alone (a forked worker, no project context: a whole project's lint
    would cost more than the run it marks)."""
    from jaxlint.lint.runner import lint_isolated

    found: dict = {}
    for real in files:
        try:
            data = Path(real).read_bytes()
            result, _tb = lint_isolated(real, data, session.store.settings_for(Path(real)),
                                        opts.file_timeout)
        except Exception:  # noqa: BLE001 - the marks are extra; the observed findings stand
            continue
        for f in result.findings if result is not None else ():
            found.setdefault((real, f.line), set()).add(f.code)
    return found


app.cli.add_command(observe_command())
