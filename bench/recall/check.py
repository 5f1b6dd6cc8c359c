#!/usr/bin/env python3
"""Re-check every label of the recall set with real JAX.

    python bench/recall/check.py [-j N] [CASE ...]

Runs each case's entry file (its `__main__` block exercises the sharp bit) with this
Python, in the case's folder, on CPU, and compares with `[check]` in case.toml:

  expect = "error"   the program fails and its output contains `match`
  expect = "stdout"  the program succeeds and stdout contains `match` (the wrong result,
                     or for a VALID twin the right one); `min_count` occurrences at
                     least, `max_count` at most when given
  expect = "stderr"  the program succeeds and stderr contains `match` (a warning, or the
                     compile log when `env` sets JAX_LOG_COMPILES=1)
  expect = "runs"    the program succeeds (timing cases: the time is not asserted)

Every label's line must still hold its `text`. A case that no longer shows its bit, or a
case that needs a library that is not installed (`needs`), fails the run (exit 1).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cases_lib import Case, load_cases  # noqa: E402


def run_case(case: Case, timeout: float) -> tuple[str, str]:
    """Return (status, detail): status is ok, FAIL or MISSING."""
    missing = [n for n in case.needs if importlib.util.find_spec(n) is None]
    if missing:
        return "MISSING", f"needs {', '.join(missing)} (pip install them into this Python)"
    env = dict(os.environ)
    env.setdefault("JAX_PLATFORMS", "cpu")
    # the case folder first, then what the caller had (packages installed with --target)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(case.path), env.get("PYTHONPATH", "")) if p)
    env["PYTHONWARNINGS"] = "default"
    env.update(case.env)
    try:
        proc = subprocess.run(
            [sys.executable, case.entry],
            cwd=case.path,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return "FAIL", f"timed out after {timeout:.0f}s"
    out, err = proc.stdout, proc.stderr
    tail = (err.strip().splitlines() or out.strip().splitlines() or [""])[-1][:200]
    if case.expect == "error":
        if proc.returncode == 0:
            return "FAIL", "expected an error, the program succeeded"
        if case.match not in out + err:
            return "FAIL", f"failed without {case.match!r}: {tail}"
        hit = next(line for line in (out + err).splitlines() if case.match in line)
        return "ok", hit.strip()[:200]
    if proc.returncode != 0:
        return "FAIL", f"exit {proc.returncode}: {tail}"
    if case.expect == "runs":
        return "ok", "runs"
    stream = out if case.expect == "stdout" else err
    count = stream.count(case.match)
    if count < case.min_count or (case.max_count is not None and count > case.max_count):
        want = f">= {case.min_count}" + (f", <= {case.max_count}" if case.max_count is not None else "")
        return "FAIL", (
            f"{case.expect} has {count} x {case.match!r} (want {want}):"
            f" {stream.strip()[-200:]!r}"
        )
    return "ok", f"{count} x {case.match!r}" if case.min_count > 1 or case.max_count else case.match


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="*", help="case names or numbers; a one- or two-digit number N selects batch N, the cases whose number // 100 is N (2: cases 200-299; 10: cases 1000-1099) (default: all)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=180)
    args = ap.parse_args(argv)
    cases = load_cases(args.cases)
    bad = 0
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        # printed as each case (in order) is done, so a run cut short keeps what it saw
        for case, (status, detail) in zip(cases, pool.map(lambda c: run_case(c, args.timeout), cases)):
            if status != "ok":
                bad += 1
            print(f"{status:7} {case.name:45} {case.status:7} {detail}", flush=True)
    print(f"\n{len(cases) - bad}/{len(cases)} cases show their label"
          + (f"; {bad} FAILED" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
