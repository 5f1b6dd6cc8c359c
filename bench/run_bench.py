#!/usr/bin/env python3
"""jaxlint's speed as ratios to bare libcst parsing of the same files.

    python bench/run_bench.py [--corpus DIR] [--rounds N] [--jobs N]

Each round times, in a rotated order:
  P        libcst.parse_module over every file, one process (the anchor)
  cold-1   `jaxlint check --no-cache -j 1` (a fresh process: start-up included)
  cold-N   `jaxlint check --no-cache -j N`
  warm-N   `jaxlint check -j N` with a cache filled by the previous run
  edit-N   the same after editing one helper module (a new function appended to
           optax/_src/utils.py, restored afterwards): only what changed is re-linted
Every jaxlint run lints the corpus as one project with the project-wide model
(`src` = the package directories, so `jax._src...`, `optax...` are module names and
facts flow between all eight packages: a worst case for the rounds).
Reports medians (and ranges) in seconds, ratios to P paired within each round,
and files/s.  Machines are noisy: read the ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def parse_all(files: list[Path]) -> float:
    code = (
        "import sys, time, libcst\n"
        "files = sys.argv[1:]\n"
        "srcs = [open(f, 'rb').read() for f in files]\n"
        "t = time.perf_counter()\n"
        "for s in srcs:\n"
        "    try:\n"
        "        libcst.parse_module(s)\n"
        "    except Exception:\n"
        "        pass\n"
        "print(time.perf_counter() - t)\n"
    )
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("\n".join(map(str, files)))
        listing = fh.name
    out = subprocess.run(
        [sys.executable, "-c", code.replace("files = sys.argv[1:]", f"files = open({listing!r}).read().split(chr(10))")],
        check=True, capture_output=True, text=True,
    )
    os.unlink(listing)
    return float(out.stdout.strip())


CONFIG = None  # a jaxlint.toml naming the corpus's package directories as source roots


def run_jaxlint(corpus: Path, jobs: int, cache: str | None) -> float:
    cmd = [sys.executable, "-m", "jaxlint", "check", ".", "-j", str(jobs),
           "--output-format", "concise", "--exit-zero", "-o", os.devnull, "--config", CONFIG]
    cmd += ["--cache-dir", cache] if cache else ["--no-cache"]
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, cwd=corpus)
    return time.perf_counter() - t


def edited(corpus: Path):
    """A context that appends a function to one helper module and restores it."""
    import contextlib

    @contextlib.contextmanager
    def ctx():
        target = next(corpus.glob("optax-*/optax/_src/utils.py"))
        original = target.read_bytes()
        try:
            target.write_bytes(original + b"\n\ndef _bench_edit(x):\n    return x + 1\n")
            yield
        finally:
            target.write_bytes(original)

    return ctx()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default="/tmp/jaxlint-corpus")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    corpus = Path(args.corpus).resolve()
    if not corpus.is_dir():
        subprocess.run([sys.executable, str(HERE / "make_corpus.py"), str(corpus)], check=True)
    global CONFIG
    config_dir = tempfile.mkdtemp()
    CONFIG = os.path.join(config_dir, "jaxlint.toml")
    with open(CONFIG, "w") as fh:
        fh.write(f'src = ["{corpus}/*"]\n')
    files = sorted(corpus.rglob("*.py"))
    n_lines = sum(p.read_bytes().count(b"\n") for p in files)
    print(f"corpus: {corpus} ({len(files)} files, {n_lines} lines), {args.rounds} rounds, jobs={args.jobs}")
    results: dict[str, list[float]] = {
        k: [] for k in ("P", "cold-1", f"cold-{args.jobs}", f"warm-{args.jobs}", f"edit-{args.jobs}")
    }
    ratios: dict[str, list[float]] = {k: [] for k in results if k != "P"}
    for r in range(args.rounds):
        with tempfile.TemporaryDirectory() as cache:
            order = ["P", "cold-1", "cold-N"]
            order = order[r % 3:] + order[: r % 3]
            times = {}
            for what in order:
                if what == "P":
                    times["P"] = parse_all(files)
                elif what == "cold-1":
                    times["cold-1"] = run_jaxlint(corpus, 1, None)
                else:
                    times[f"cold-{args.jobs}"] = run_jaxlint(corpus, args.jobs, None)
            run_jaxlint(corpus, args.jobs, cache)  # fill the cache
            times[f"warm-{args.jobs}"] = run_jaxlint(corpus, args.jobs, cache)
            with edited(corpus):
                times[f"edit-{args.jobs}"] = run_jaxlint(corpus, args.jobs, cache)
        for k, v in times.items():
            results[k].append(v)
            if k != "P":
                ratios[k].append(v / times["P"])
        print(f"round {r + 1}: " + ", ".join(f"{k} {v:.2f}s" for k, v in times.items()), flush=True)
    print()
    print("| measurement | median s (min-max) | x P (median of paired ratios) | files/s |")
    print("|---|---|---|---|")
    for k, v in results.items():
        med = statistics.median(v)
        ratio = "1.00" if k == "P" else f"{statistics.median(ratios[k]):.2f}"
        print(f"| {k} | {med:.2f} ({min(v):.2f}-{max(v):.2f}) | {ratio} | {len(files) / med:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
