"""The cost of `jaxlint observe`: each program of bench/observe_programs/ run alone
(`python PROG`) and under observe (`jaxlint observe --no-cache -q --exit-zero --run
"python PROG" PROG`), alternately, REPEAT times; the medians of wall time and of CPU
time (user + system of every process), and their ratios.  ``--facts``: a third run
each time, observe recording the facts for `check --observed` as it does by default
(`--facts FILE`: the trace function of jaxlint/runtime/factrec.py on), with its ratios.

    python bench/observe_overhead.py --repeat 3 [--facts]
    python bench/observe_overhead.py --repeat 5 --before /path/to/other/checkout [--facts]

`--before DIR` also runs another jaxlint (the package in DIR, first on PYTHONPATH) in
the same rounds, alternating with this one, so that both are measured under the same
load; the load average is printed with the table.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "observe_programs"


def jaxlint_executable() -> str:
    """This Python's `jaxlint` script, else the first on PATH."""
    here = Path(sys.executable).parent / "jaxlint"
    return str(here) if here.exists() else (shutil.which("jaxlint") or "jaxlint")


def timed(argv: list[str], cwd: Path, env: dict | None = None) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env=env)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout + done.stderr


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--facts", action="store_true", help="also observe with the facts recorded")
    ap.add_argument("--before", metavar="DIR", help="also time the jaxlint package in DIR")
    ap.add_argument("programs", nargs="*")
    args = ap.parse_args(argv)
    if args.facts and not args.before:
        return with_facts(args)
    jaxlint = jaxlint_executable()
    names = args.programs or sorted(p.name for p in PROGRAMS.glob("*.py"))
    import tempfile

    variants = [("observe", dict(os.environ))]
    if args.before:
        variants.insert(0, ("before", dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(Path(args.before).resolve())] + [p for p in os.environ.get(
                "PYTHONPATH", "").split(os.pathsep) if p]))))
    # each version its own cache directory, with its rule snapshot in it (observe reads it
    # with --no-cache; a cache directory keeps one snapshot, so two versions sharing one
    # would take turns importing libcst), written by one `check` before the rounds
    for _v, env in variants:
        env["JAXLINT_CACHE_DIR"] = tempfile.mkdtemp(prefix="jaxlint-cache-")
        subprocess.run([jaxlint, "check", "-q", "--exit-zero", "observe_programs"], cwd=HERE,
                       env=env, capture_output=True)
    # --facts with --before: every observe run records the facts (as observe does by
    # default, with its cache on), in both versions

    facts = ["--facts", os.path.join(tempfile.mkdtemp(prefix="jaxlint-facts-"), "facts.json")] \
        if args.facts else []
    loads = [os.getloadavg()[0]]
    head = " | ".join(f"{v}: wall (CPU) | ratio wall | ratio CPU" for v, _ in variants)
    print(f"| program | alone: wall (CPU) | {head} | findings |")
    print("|" + " --- |" * (3 + 3 * len(variants)))
    for name in names:
        alone: list = []
        observed: dict = {v: [] for v, _ in variants}
        out = ""
        for _ in range(args.repeat):
            alone.append(timed([sys.executable, name], PROGRAMS)[:2])
            for v, env in variants:
                w, c, out = timed([jaxlint, "observe", "--no-cache", "-q", "--exit-zero",
                                   "--output-format", "concise", "--run", f"python {name}",
                                   *facts, name], PROGRAMS, env)
                observed[v].append((w, c))
            loads.append(os.getloadavg()[0])
        aw, ac = (statistics.median(x[i] for x in alone) for i in (0, 1))
        cells = []
        for v, _ in variants:
            ow, oc = (statistics.median(x[i] for x in observed[v]) for i in (0, 1))
            cells.append(f"{ow:.2f} s ({oc:.2f} s) | {ow / aw:.2f} | {oc / ac:.2f}")
        found = [line.split(" ")[1] for line in out.splitlines() if ": JAX" in line]
        print(f"| {name} | {aw:.2f} s ({ac:.2f} s) | {' | '.join(cells)} | "
              f"{', '.join(found) or '-'} |", flush=True)
    print(f"load average (1 min) during the rounds: {min(loads):.1f} to {max(loads):.1f}, "
          f"median {statistics.median(loads):.1f}")
    return 0


def with_facts(args) -> int:
    import tempfile

    jaxlint = jaxlint_executable()
    names = args.programs or sorted(p.name for p in PROGRAMS.glob("*.py"))
    facts = os.path.join(tempfile.mkdtemp(prefix="jaxlint-facts-"), "facts.json")
    print("| program | alone: wall (CPU) | observe: wall (CPU) | observe + facts: wall (CPU) "
          "| ratio CPU | ratio CPU with facts | functions recorded |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name in names:
        alone, plain, recorded = [], [], []
        base = [jaxlint, "observe", "--no-cache", "-q", "--exit-zero", "--output-format",
                "concise", "--run", f"python {name}", name]
        for _ in range(args.repeat):
            alone.append(timed([sys.executable, name], PROGRAMS)[:2])
            plain.append(timed(base, PROGRAMS)[:2])
            recorded.append(timed(base + ["--facts", facts], PROGRAMS)[:2])
        med = [tuple(statistics.median(x[i] for x in runs) for i in (0, 1))
               for runs in (alone, plain, recorded)]
        import json

        with open(facts, encoding="utf-8") as fh:
            n = len(json.load(fh)["functions"])
        (aw, ac), (pw, pc), (fw, fc) = med
        print(f"| {name} | {aw:.2f} s ({ac:.2f} s) | {pw:.2f} s ({pc:.2f} s) | {fw:.2f} s "
              f"({fc:.2f} s) | {pc / ac:.2f} | {fc / ac:.2f} | {n} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
