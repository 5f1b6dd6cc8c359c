#!/usr/bin/env python3
"""Where a cold project run's CPU time goes, measured in one process.

    python bench/cold_profile.py [--corpus DIR] [--rounds N] [--profile OUT.prof]
                                 [--per-file PACKAGE-GLOB]

On a shared, loaded machine wall times say little: this measures CPU time
(``time.process_time``) of the project run as `jaxlint check --no-cache -j 1`
does it (the corpus as one project, ``src`` = its package directories, rounds
until the facts settle, parsed trees kept between rounds as a worker keeps
them), but in this process, and P (``libcst.parse_module`` over the same
``*.py`` files) in the same process, the two interleaved in each round.  It
reports each round's figures, the median of the paired ratios, and how many
files each round of the project pass linted.

``--profile OUT``: one more run under cProfile, its statistics written to OUT
(read it with ``python -m pstats OUT``; the top lines by own time are printed).
``--dump FILE``: the findings of the last round, one a line (to compare checkouts:
``PYTHONPATH=OTHER python bench/cold_profile.py --dump ...`` runs another one).
``--per-file GLOB``: instead, time the single-file lint (``lint_source``, every
rule, no project) of the files under GLOB (relative to the corpus), e.g. ``flax-*``,
against their libcst parse.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def parse_cpu(srcs: list[bytes]) -> float:
    import libcst

    t = time.process_time()
    for s in srcs:
        try:
            libcst.parse_module(s)
        except Exception:
            pass
    return time.process_time() - t


class _NoMemo:
    """Lint in this process, remembering nothing (every run is cold)."""

    def recall(self, name, data, settings):
        return None

    def remember(self, name, data, settings, result):
        pass

    def linting(self, name):
        pass


def project_cpu(corpus: Path, config: str, counts: list[int] | None = None, select: tuple[str, ...] = ()):
    """CPU seconds of one cold project run over ``corpus`` (in this process), and its results."""
    from jaxlint.cli.check import CheckOptions, prepare
    from jaxlint.lint import runner
    from jaxlint.lint.linter import TreeStore
    from jaxlint.project import driver

    trees = TreeStore(driver.TREE_BUDGET)
    plain_lint_one = runner.lint_one
    plain_run = driver.run

    def lint_one(path, data, settings, trees_=None):
        return plain_lint_one(path, data, settings, trees)

    def run(files, *args, **kwargs):
        if counts is not None:
            counts.append(len(files))
        return plain_run(files, *args, **kwargs)

    opts = CheckOptions(paths=(".",), select=select, ignore=(), extend_select=(), output_format="concise",
                        output_file=None, statistics=False, exit_zero=True, jobs=1, no_cache=True,
                        cache_dir=None, config=config, stdin_filename=None, force_exclude=False, x64=None,
                        quiet=True, show_files=False, verbose=False)
    old = os.getcwd()
    os.chdir(corpus)
    runner.lint_one = lint_one
    driver.run = run
    try:
        t = time.process_time()
        session = prepare(opts)
        files = session.workspace.discover(["."]).files
        outcome = driver.run_project(files, session.workspace, driver.RunOptions(jobs=1, memo=_NoMemo()))
        spent = time.process_time() - t
    finally:
        runner.lint_one = plain_lint_one
        driver.run = plain_run
        os.chdir(old)
        gc.unfreeze()
    del trees
    gc.collect()
    return spent, outcome


def per_file(corpus: Path, pattern: str, rounds: int) -> None:
    from jaxlint.lint.linter import lint_source
    from jaxlint.settings import LintSettings

    files = sorted(p for d in corpus.glob(pattern) for p in d.rglob("*.py"))
    srcs = [p.read_bytes() for p in files]
    from jaxlint.rules import all_rules

    settings = LintSettings(select=frozenset(r.code for r in all_rules()))
    lint, parse = [], []
    for r in range(rounds):
        for what in (("P", "L") if r % 2 == 0 else ("L", "P")):
            if what == "P":
                parse.append(parse_cpu(srcs))
            else:
                t = time.process_time()
                for p, s in zip(files, srcs):
                    lint_source(s, str(p), settings)
                lint.append(time.process_time() - t)
            gc.collect()
    ratios = [a / b for a, b in zip(lint, parse)]
    print(f"per-file {pattern} ({len(files)} files): lint {statistics.median(lint):.2f}s CPU, "
          f"P {statistics.median(parse):.2f}s, lint/P median {statistics.median(ratios):.3f} "
          f"({', '.join(f'{x:.3f}' for x in ratios)})")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default="/tmp/jaxlint-corpus")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--profile", default=None)
    ap.add_argument("--per-file", default=None)
    ap.add_argument("--select", default=None, help="rule selection (as `jaxlint check --select`), e.g. ALL")
    ap.add_argument("--dump", default=None, help="write the last round's findings and errors here (to diff two checkouts)")
    args = ap.parse_args()
    corpus = Path(args.corpus).resolve()
    config_dir = tempfile.mkdtemp()
    config = os.path.join(config_dir, "jaxlint.toml")
    with open(config, "w") as fh:
        fh.write(f'src = ["{corpus}/*"]\n')
    if args.per_file:
        per_file(corpus, args.per_file, args.rounds)
        return 0
    files = sorted(corpus.rglob("*.py"))
    srcs = [p.read_bytes() for p in files]
    import libcst  # noqa: F401  (imported before the first timing, as jaxlint is by its first run)

    select = (args.select,) if args.select else ()
    cold, parse, ratios = [], [], []
    for r in range(args.rounds):
        counts: list[int] = []
        times = {}
        for what in (("P", "cold") if r % 2 == 0 else ("cold", "P")):
            if what == "P":
                times["P"] = parse_cpu(srcs)
            else:
                times["cold"], outcome = project_cpu(corpus, config, counts, select)
            gc.collect()
        cold.append(times["cold"])
        parse.append(times["P"])
        ratios.append(times["cold"] / times["P"])
        n_findings = sum(len(r.findings) for r in outcome.results)
        print(f"round {r + 1}: P {times['P']:.2f}s, cold {times['cold']:.2f}s = {ratios[-1]:.3f}x P; "
              f"files per project round {counts}; {n_findings} findings", flush=True)
    if args.dump and cold:
        with open(args.dump, "w") as fh:
            for res in outcome.results:
                for f in sorted(res.findings, key=lambda f: (f.line, f.col, f.code, f.message)):
                    fh.write(f"{res.path}:{f.line}:{f.col}: {f.code} {f.message}\n")
            for line in outcome.errors:
                fh.write(f"error: {line}\n")
            for name, st in sorted(outcome.settings_of.items()):
                if st.facts or st.summarize:
                    fh.write(f"facts: {name} {st.summarize} {st.facts}\n")
    if cold:
        print(f"median: P {statistics.median(parse):.2f}s CPU, cold -j1 in-process {statistics.median(cold):.2f}s CPU, "
              f"{statistics.median(ratios):.3f}x P")
    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.enable()
        project_cpu(corpus, config)
        prof.disable()
        prof.dump_stats(args.profile)
        pstats.Stats(args.profile).sort_stats("tottime").print_stats(40)
    return 0


if __name__ == "__main__":
    sys.exit(main())
