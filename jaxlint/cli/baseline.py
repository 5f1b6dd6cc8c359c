"""The command-line side of the baseline: ``check --baseline / --write-baseline /
--no-baseline`` (the identities and the file format are in ``jaxlint.output.baseline``)."""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

from typing import Optional

from jaxlint.workspace.config import ConfigError


def load_baseline(opts, session):
    """The baseline in use (``--baseline`` or ``baseline`` in the configuration),
    or None.  Raises BaselineError for a missing, broken or foreign file, except
    that a missing one is fine when ``--write-baseline`` is about to write it."""
    from jaxlint.output import baseline as bl

    if opts.no_baseline and opts.baseline:
        raise ConfigError("--baseline and --no-baseline cannot be combined")
    if opts.write_baseline and (opts.fix or opts.fix_only or opts.diff or opts.add_noqa):
        raise ConfigError("--write-baseline cannot be combined with --fix, --fix-only, --diff or --add-noqa")
    if opts.no_baseline:
        return None
    if opts.baseline:
        path = Path(opts.baseline)
    else:
        configured = session.store.root_config.cfg.baseline_path
        if configured is None:
            return None
        path = Path(os.path.relpath(configured, session.cwd)) if configured.is_absolute() else configured
    if opts.write_baseline and not path.exists():
        return None
    return bl.load(path)


def _text_of(linted, cwd: Path):
    from jaxlint.output import OutputReport

    return OutputReport(results=[], cwd=cwd, sources=linted.sources).source_text


def match_baseline(opts, session, linted, baseline):
    from jaxlint.output.baseline import match, relative_posix

    findings = sorted((f for r in linted.results for f in r.findings), key=lambda f: f.sort_key())
    root = baseline.root
    linted_files = {relative_posix(r.path, root): r.path for r in linted.results}
    scopes = [relative_posix(p, root).rstrip("/") for p in (opts.paths or (".",)) if p != "-"]

    # a file that does not parse (JAX001) or could not be checked says nothing of its findings
    unjudged = {relative_posix(r.path, root) for r in linted.results
                if r.error or any(f.code == "JAX001" for f in r.findings)}
    text_of = _text_of(linted, session.cwd)

    def checked(rel: str) -> bool:
        # a recorded file counts as checked when it was linted, or when it is
        # gone from a folder that was linted (deleted or renamed since)
        if rel in unjudged:
            return False
        if rel in linted_files:
            return _parses(text_of(linted_files[rel]))  # JAX001 may not be selected
        if (root / rel).exists():
            return False
        return any(s in (".", "") or rel == s or rel.startswith(s + "/") for s in scopes)

    return match(baseline, findings, text_of, str(baseline.path), checked)


def _parses(text: Optional[str]) -> bool:
    import ast
    import warnings

    if text is None:
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def kept_results(results: list, outcome) -> list:
    """The results with only the findings the baseline did not hide."""
    if outcome is None:
        return results
    from jaxlint.findings import FileResult

    new = {id(f) for f in outcome.new}
    return [FileResult(path=r.path, findings=[f for f in r.findings if id(f) in new],
                       error=r.error, parsed=r.parsed, from_cache=r.from_cache) for r in results]


def write_baseline(opts, session, linted, baseline) -> Optional[str]:
    """``--write-baseline FILE``: every finding, or (with a baseline in use) the
    baseline's entries that still occur.  Returns the error line, if any."""
    from jaxlint.output import baseline as bl

    target = Path(opts.write_baseline)
    findings = sorted((f for r in linted.results for f in r.findings), key=lambda f: f.sort_key())
    root = Path(os.path.abspath(target)).parent
    text_of = _text_of(linted, session.cwd)
    note = ""
    if baseline is not None:
        outcome = match_baseline(opts, session, linted, baseline)
        kept = outcome.unchanged
        if outcome.absent:
            n = len(outcome.absent)
            note += f"; dropped {n} that no longer occur{'s' if n == 1 else ''}"
        if outcome.new:
            n = len(outcome.new)
            note += (f"; {n} new finding{'s were' if n != 1 else ' was'} not recorded "
                     "(add --no-baseline to record every finding)")
    else:
        kept = findings
    entries = bl.compute_entries(kept, text_of, root)
    if baseline is not None:
        # the entries of files this run could not judge stay as they were
        for e in outcome.unjudged:
            rel = bl.relative_posix(str(baseline.root / e.path), root)
            entries.append(dataclasses.replace(e, path=rel))
        if outcome.unjudged:
            n = len(outcome.unjudged)
            note += f"; kept {n} of files not checked this time"
    try:
        bl.write(target, entries)
    except OSError as exc:
        return f"{target}: cannot be written ({exc.strerror or exc})"
    if not opts.quiet:
        n = len(entries)
        sys.stderr.write(f"Wrote {n} finding{'s' if n != 1 else ''} to the baseline {target}{note}.\n")
    return None
