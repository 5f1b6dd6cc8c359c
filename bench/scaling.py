#!/usr/bin/env python3
"""How jaxlint's time grows with the length of one expression or chain.

    python bench/scaling.py [--sizes 1000,2000,4000,8000,16000] [--shapes add,sum,attr]
                            [--cap SECONDS] [--engine]

Shapes (each a module that imports jax.numpy and defines an array ``x``):
  add   y = a0 + a1 + ... + a{n-1}       (a left-nested chain of n-1 BinOps)
  sum   y = x.sum().sum()...             (n chained calls)
  attr  y = x.a.a...                     (n chained attributes)

Each case runs in its own subprocess with a time cap and reports its time or
what stopped it (the cap, a crash, the one-line error of the result).

Default: times ``jaxlint.linter.lint_source`` as users get it: CPython parses
first (and refuses what it cannot compile: RecursionError from about 3,000
levels), then the guards refuse nesting over ``jaxlint.guard.MAX_DEPTH``.
``--engine`` measures the engine alone, without CPython's parse or the guards:
libcst's parse and the engine's analysis (``jaxlint.engine.analyze``), timed apart,
so that the analysis's own scaling can be read at every size.

The last column is t(n) / t(n/2) for consecutive sizes: 2 means linear,
4 quadratic.  Machines are noisy: read the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

PREFIX = "import jax.numpy as jnp\n\nx = jnp.zeros(3)\n"


def source(shape: str, n: int) -> str:
    if shape == "add":
        body = "y = " + " + ".join(f"a{i}" for i in range(n))
    elif shape == "sum":
        body = "y = x" + ".sum()" * n
    elif shape == "attr":
        body = "y = x" + ".a" * n
    else:
        raise SystemExit(f"unknown shape {shape!r} (add, sum, attr)")
    return PREFIX + body + "\n"


CHILD = r"""
import gc, json, sys, time
path, engine = sys.argv[1], sys.argv[2] == "1"
text = open(path, encoding="utf-8").read()
out = {}
if engine:
    import libcst
    from jaxlint.engine import analyze
    from jaxlint.rules import all_rules, default_codes
    from jaxlint.settings import LintSettings
    settings = LintSettings(select=frozenset(default_codes()))
    gc.disable()
    t = time.perf_counter()
    module = libcst.parse_module(text)
    out["parse"] = time.perf_counter() - t
    t = time.perf_counter()
    try:
        findings = analyze(module, text, "scaling.py", settings, all_rules())
        out["outcome"] = f"{len(findings)} findings"
    except RecursionError:
        out["outcome"] = "RecursionError in the analysis"
    out["analysis"] = time.perf_counter() - t
else:
    from jaxlint.linter import lint_source
    from jaxlint.rules import default_codes
    from jaxlint.settings import LintSettings
    settings = LintSettings(select=frozenset(default_codes() | {"JAX001"}))
    t = time.perf_counter()
    result = lint_source(text, "scaling.py", settings)
    out["total"] = time.perf_counter() - t
    if result.error:
        out["outcome"] = result.error
    elif any(f.code == "JAX001" for f in result.findings):
        out["outcome"] = next(f.message for f in result.findings if f.code == "JAX001")
    else:
        out["outcome"] = f"{len(result.findings)} findings"
print(json.dumps(out))
"""


def run_case(shape: str, n: int, cap: float, engine: bool) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False, encoding="utf-8") as fh:
        fh.write(source(shape, n))
        path = fh.name
    try:
        proc = subprocess.run([sys.executable, "-c", CHILD, path, "1" if engine else "0"],
                              capture_output=True, text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return {"outcome": f"over the {cap:g} s cap"}
    finally:
        os.unlink(path)
    if proc.returncode < 0:
        return {"outcome": f"crashed ({signal.Signals(-proc.returncode).name})"}
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return {"outcome": f"exit {proc.returncode}: {last}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,2000,4000,8000,16000")
    ap.add_argument("--shapes", default="add,sum,attr")
    ap.add_argument("--cap", type=float, default=120.0, help="seconds per case")
    ap.add_argument("--engine", action="store_true",
                    help="time libcst's parse and the analysis alone (no CPython parse, no guards)")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    shapes = args.shapes.split(",")
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    key = "analysis" if args.engine else "total"
    if args.engine:
        print("| shape | n | parse s | analysis s | outcome | analysis t(n)/t(prev) |")
        print("|---|---:|---:|---:|---|---:|")
    else:
        print("| shape | n | lint_source s | outcome | t(n)/t(prev) |")
        print("|---|---:|---:|---|---:|")
    for shape in shapes:
        prev = None
        for n in sizes:
            r = run_case(shape, n, args.cap, args.engine)
            t = r.get(key)
            ratio = f"{t / prev:.1f}" if t is not None and prev else ""
            prev = t
            if args.engine:
                parse = f"{r['parse']:.2f}" if "parse" in r else "-"
                ana = f"{t:.2f}" if t is not None else "-"
                print(f"| {shape} | {n} | {parse} | {ana} | {r['outcome']} | {ratio} |", flush=True)
            else:
                tot = f"{t:.2f}" if t is not None else "-"
                print(f"| {shape} | {n} | {tot} | {r['outcome']} | {ratio} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
