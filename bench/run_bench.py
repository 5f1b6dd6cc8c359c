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
Reports medians (and ranges) in seconds, ratios paired within each round (cold runs
to P, warm and edit runs to cold `-j 1`),
and files/s.  Machines are noisy: read the ratios.  Each figure is given twice: wall
time, and CPU time (user + system of the process and the workers it waited for;
for P, the parse loop's own ``time.process_time``): on a machine shared with other
work, the CPU ratios are the ones to compare.

``--before DIR``: each round also times cold `-j 1` with ``PYTHONPATH=DIR`` (another
checkout of jaxlint, e.g. a worktree of main), so that before and after are paired
in the same rounds (``cold-1-before``).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def parse_all(files: list[Path]) -> tuple[float, float]:
    code = (
        "import sys, time, libcst\n"
        "files = sys.argv[1:]\n"
        "srcs = [open(f, 'rb').read() for f in files]\n"
        "t = time.perf_counter()\n"
        "c = time.process_time()\n"
        "for s in srcs:\n"
        "    try:\n"
        "        libcst.parse_module(s)\n"
        "    except Exception:\n"
        "        pass\n"
        "print(time.perf_counter() - t, time.process_time() - c)\n"
    )
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("\n".join(map(str, files)))
        listing = fh.name
    out = subprocess.run(
        [sys.executable, "-c", code.replace("files = sys.argv[1:]", f"files = open({listing!r}).read().split(chr(10))")],
        check=True, capture_output=True, text=True,
    )
    os.unlink(listing)
    wall, cpu = out.stdout.split()
    return float(wall), float(cpu)


CONFIG = None  # a jaxlint.toml naming the corpus's package directories as source roots


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_jaxlint(corpus: Path, jobs: int, cache: str | None, pythonpath: str | None = None) -> tuple[float, float]:
    """(wall, CPU) seconds of one `jaxlint check` of the corpus."""
    cmd = [sys.executable, "-m", "jaxlint", "check", ".", "-j", str(jobs),
           "--output-format", "concise", "--exit-zero", "-o", os.devnull, "--config", CONFIG]
    cmd += ["--cache-dir", cache] if cache else ["--no-cache"]
    env = None
    if pythonpath is not None:
        env = dict(os.environ, PYTHONPATH=pythonpath)
    c = _children_cpu()
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, cwd=corpus, env=env)
    return time.perf_counter() - t, _children_cpu() - c


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
    ap.add_argument("--before", default=None, metavar="DIR",
                    help="also time cold -j 1 with PYTHONPATH=DIR (another jaxlint checkout) in each round")
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
    keys = ["P", "cold-1", f"cold-{args.jobs}", f"warm-{args.jobs}", f"edit-{args.jobs}"]
    if args.before:
        keys.insert(2, "cold-1-before")
    results: dict[str, dict[str, list[float]]] = {m: {k: [] for k in keys} for m in ("wall", "cpu")}
    ratios: dict[str, dict[str, list[float]]] = {m: {k: [] for k in keys if k != "P"} for m in ("wall", "cpu")}
    for r in range(args.rounds):
        with tempfile.TemporaryDirectory() as cache:
            order = ["P", "cold-1", "cold-N"] + (["cold-1-before"] if args.before else [])
            order = order[r % len(order):] + order[: r % len(order)]
            times = {}
            for what in order:
                if what == "P":
                    times["P"] = parse_all(files)
                elif what == "cold-1":
                    times["cold-1"] = run_jaxlint(corpus, 1, None)
                elif what == "cold-1-before":
                    times["cold-1-before"] = run_jaxlint(corpus, 1, None, args.before)
                else:
                    times[f"cold-{args.jobs}"] = run_jaxlint(corpus, args.jobs, None)
            run_jaxlint(corpus, args.jobs, cache)  # fill the cache
            times[f"warm-{args.jobs}"] = run_jaxlint(corpus, args.jobs, cache)
            with edited(corpus):
                times[f"edit-{args.jobs}"] = run_jaxlint(corpus, args.jobs, cache)
        for m, i in (("wall", 0), ("cpu", 1)):
            for k, v in times.items():
                results[m][k].append(v[i])
                if k != "P":
                    # warm and edit runs against cold -j 1, the others against P
                    anchor = times["cold-1"][i] if k.startswith(("warm", "edit")) else times["P"][i]
                    ratios[m][k].append(v[i] / anchor)
        print(f"round {r + 1}: " + ", ".join(f"{k} {v[0]:.2f}s ({v[1]:.2f}s CPU)" for k, v in times.items()),
              flush=True)
    for m, title in (("wall", "wall time"), ("cpu", "CPU time (user + system)")):
        print()
        print(f"{title}; x P for P and cold runs, x cold -j 1 for warm and edit (medians of paired ratios)")
        print("| measurement | median s (min-max) | ratio (each round) | files/s |")
        print("|---|---|---|---|")
        for k, v in results[m].items():
            med = statistics.median(v)
            if k == "P":
                ratio = "1.00"
            else:
                ratio = f"{statistics.median(ratios[m][k]):.3f} ({', '.join(f'{x:.3f}' for x in ratios[m][k])})"
            print(f"| {k} | {med:.2f} ({min(v):.2f}-{max(v):.2f}) | {ratio} | {len(files) / med:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
