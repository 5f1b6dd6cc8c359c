#!/usr/bin/env python3
"""Cost of the project model's pass 1, as ratios to bare libcst parsing.

    python bench/project_summary.py DIR [--rounds N]

One process, over every ``.py`` file below DIR (module names from DIR as the
only source root).  Each round times, in a rotated order:

  P        libcst.parse_module over every file (the anchor)
  S        extract_summary over the trees already parsed (what the engine adds)
  A        ast.parse over every file (what an `ast` extractor would add first)
  A+walk   ast.parse plus a bare ast.walk over every node (a lower bound for an
           `ast` extractor, which would also have to do the extractor's work)
  I        merging the summaries into a ProjectIndex and resolving every call
Reports medians in seconds and ratios to P paired within each round.
"""

from __future__ import annotations

import argparse
import ast
import gc
import statistics
import sys
import time
from pathlib import Path

import libcst as cst

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from jaxlint.model.summary import extract_summary  # noqa: E402
from jaxlint.project import ProjectIndex, SourceRoots  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    root = Path(args.corpus).resolve()
    roots = SourceRoots([root])
    files = []
    for p in sorted(root.rglob("*.py")):
        name = roots.module_name(p)
        if name is not None:
            files.append((name, p.read_text(encoding="utf-8")))
    lines = sum(src.count("\n") for _, src in files)
    print(f"corpus: {root.name} ({len(files)} files, {lines} lines), {args.rounds} rounds")

    def run_p():
        return [cst.parse_module(src) for _, src in files]

    trees = run_p()

    def run_s():
        return [extract_summary(t, n.name, n.is_package) for (n, _), t in zip(files, trees)]

    def run_a():
        for _, src in files:
            ast.parse(src)

    def run_aw():
        for _, src in files:
            for _ in ast.walk(ast.parse(src)):
                pass

    summaries = run_s()

    def run_i():
        idx = ProjectIndex(summaries)
        return sum(1 for s in summaries for name in s["names"] if idx.resolve(s["module"], name) is not None)

    steps = {"P": run_p, "S": run_s, "A": run_a, "A+walk": run_aw, "I": run_i}
    times: dict[str, list[float]] = {k: [] for k in steps}
    gc.disable()
    try:
        for r in range(args.rounds):
            order = list(steps)
            order = order[r % len(order):] + order[: r % len(order)]
            for k in order:
                gc.collect()
                t = time.perf_counter()
                steps[k]()
                times[k].append(time.perf_counter() - t)
    finally:
        gc.enable()
    n_names = sum(len(s["names"]) for s in summaries)
    print(f"{'step':8} {'median s':>9} {'x P (median of paired)':>24}")
    for k in steps:
        ratio = statistics.median(t / p for t, p in zip(times[k], times["P"]))
        print(f"{k:8} {statistics.median(times[k]):9.3f} {ratio:24.3f}")
    print(f"module-level names: {n_names}; resolved to a definition, module or external name: {run_i()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
