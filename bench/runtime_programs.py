"""Time `jaxlint confirm --run` on small programs, each with a `__main__` block.

bench/runtime_programs/ holds 28 small programs with one sharp bit each (four of them
in the `__main__` block itself), whose `__main__` block calls their functions with real
data: the only inputs the companion gets come from running them.  Two ways to measure:

* ``--mode one``: one `jaxlint confirm -j N` over the folder with one `--run "python
  pNN.py"` per program (the commands run N at a time);
* ``--mode each``: one `jaxlint confirm` per program (`--run "python pNN.py"`), the
  programs N at a time, as a harness calling jaxlint once per program would.

Reports wall time, per-program time, and the verdict counts.  The programs are
copied to a temporary folder first (nothing is written into the repository).

    python bench/runtime_programs.py --mode one -j 2
    python bench/runtime_programs.py --mode each -j 2
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent / "runtime_programs"


def _confirm(args: list[str], cwd: Path) -> tuple[list[dict], str]:
    proc = subprocess.run([sys.executable, "-m", "jaxlint", "confirm", "--no-cache",
                           "--output-format", "json", *args], cwd=cwd,
                          capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"jaxlint confirm failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return json.loads(proc.stdout), proc.stderr


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mode", choices=["one", "each"], default="one")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("-v", "--verbose", action="store_true", help="print every verdict")
    ap.add_argument("--alone", action="store_true",
                    help="also time the programs alone (python pNN.py, N at a time): the floor")
    ns = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="jaxlint-programs-") as tmp:
        root = Path(tmp) / "programs"
        shutil.copytree(HERE, root)
        programs = sorted(p.name for p in root.glob("p*.py"))
        if ns.alone:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            with ThreadPoolExecutor(max_workers=ns.jobs) as pool:
                list(pool.map(lambda p: subprocess.run(
                    [sys.executable, p], cwd=root, capture_output=True,
                    env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1")), programs))
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            print(f"the programs alone, -j {ns.jobs}: wall {wall:.1f} s "
                  f"({wall / len(programs):.2f} s per program), CPU {cpu:.1f} s")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        found: list[dict] = []
        if ns.mode == "one":
            runs = [a for p in programs for a in ("--run", f"python {p}")]
            found, _ = _confirm(["-j", str(ns.jobs), ".", *runs], root)
        else:
            with ThreadPoolExecutor(max_workers=ns.jobs) as pool:
                for part, _ in pool.map(lambda p: _confirm(
                        ["-j", "1", p, "--run", f"python {p}"], root), programs):
                    found.extend(part)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    counts = Counter(f["runtime"]["verdict"] for f in found)
    if ns.verbose:
        for f in found:
            rt = f["runtime"]
            print(f"{f['filename']}:{f['location']['row']} {f['code']} {rt['verdict']}: "
                  f"{rt.get('evidence') or rt.get('reason')}"[:200])
    print(f"mode {ns.mode}, -j {ns.jobs}: {len(programs)} programs, {len(found)} findings: "
          + ", ".join(f"{counts[k]} {k}" for k in ("confirmed", "not-reproduced", "not-exercised",
                                                      "skipped")))
    print(f"wall {wall:.1f} s ({wall / len(programs):.2f} s per program), "
          f"CPU {cpu:.1f} s, {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
