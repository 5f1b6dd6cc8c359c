#!/usr/bin/env python3
"""How jaxlint's time grows with the length of one expression or chain, or of a file.

    python bench/scaling.py [--sizes 1000,2000,4000,8000,16000] [--shapes add,sum,attr]
                            [--cap SECONDS] [--engine]
    python bench/scaling.py --files [--lines 10000,25000,50000,100000]
                            [--file-shapes ifs,elif,nested,funcs,assign,module] [--cap SECONDS]

``--files``: long files, each linted by the command a user runs
(``jaxlint check FILE --no-cache -j 1 --output-format concise``, a whole process);
reported: wall time, CPU time (user + system, the worker included: the figure to
compare on a loaded machine) and peak resident memory (of the process tree, as
``/usr/bin/time -v`` reports it), with the CPU time's ratio between consecutive
sizes (2.5 from 10k to 25k lines, then 2 and 2, means linear).  File shapes, n lines each:
  ifs     one jitted function: ``if n > 3: x = x + 1`` repeated (a finding per ``if``)
  elif    one jitted function of 50-branch ``if/elif/.../else`` chains
  nested  one jitted function of ``if``s nested 10 deep, repeated
  funcs   n/6 small jitted functions, each with an ``if``
  assign  one jitted function: a new variable, then an ``if`` that rebinds ``x``
          (the environment grows with the function: the branch joins' worst case)
  module  the same at module level (no finding: the fast path alone)

Shapes (each a module that imports jax.numpy and defines an array ``x``):
  add   y = a0 + a1 + ... + a{n-1}       (a left-nested chain of n-1 BinOps)
  sum   y = x.sum().sum()...             (n chained calls)
  attr  y = x.a.a...                     (n chained attributes)

Each case runs in its own subprocess with a time cap and reports its time or
what stopped it (the cap, a crash, the one-line error of the result).

Default: times ``jaxlint.lint.linter.lint_source`` as users get it: CPython parses
first (and refuses what it cannot compile: RecursionError from about 3,000
levels), then the guards refuse nesting over ``jaxlint.parse.guard.MAX_DEPTH``.
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
    from jaxlint.lint.linter import lint_source
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


HEADER = "import jax\nimport jax.numpy as jnp\n\n"


def file_source(shape: str, n: int) -> str:
    """About ``n`` lines of one of the --files shapes (see the module doc)."""
    out = [HEADER]
    if shape == "ifs":
        out.append("@jax.jit\ndef f(x, n):\n" + "    if n > 3:\n        x = x + 1\n" * (n // 2) + "    return x\n")
    elif shape == "elif":
        out.append("@jax.jit\ndef f(x, n):\n")
        for _ in range(max(n // 102, 1)):
            out.append("    if n == 0:\n        x = x + 1\n")
            out.extend(f"    elif n == {i}:\n        x = x * {i}\n" for i in range(1, 50))
            out.append("    else:\n        x = x - 1\n")
        out.append("    return x\n")
    elif shape == "nested":
        out.append("@jax.jit\ndef f(x, n):\n")
        for _ in range(max(n // 11, 1)):
            out.extend("    " * (d + 1) + f"if n > {d}:\n" for d in range(10))
            out.append("    " * 11 + "x = x + 1\n")
        out.append("    return x\n")
    elif shape == "funcs":
        out.extend(f"@jax.jit\ndef f{i}(x, n):\n    if n > {i}:\n        x = x + 1\n    return x\n\n"
                   for i in range(n // 6))
    elif shape == "assign":
        out.append("@jax.jit\ndef f(x, n):\n")
        out.extend(f"    v{i} = x + {i}\n    if n > {i}:\n        x = v{i} * 2\n" for i in range(n // 3))
        out.append("    return x\n")
    elif shape == "module":
        out.append("x = jnp.zeros(3)\nn = 3\n")
        out.extend(f"v{i} = x + {i}\nif n > {i}:\n    x = v{i} * 2\n" for i in range(n // 3))
    else:
        raise SystemExit(f"unknown file shape {shape!r} (ifs, elif, nested, funcs, assign, module)")
    return "".join(out)


def run_file(shape: str, n: int, cap: float) -> dict:
    """One ``jaxlint check`` process on a generated file: wall s, CPU s, peak RSS MiB."""
    import time

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{shape}_{n}.py"
        text = file_source(shape, n)
        path.write_text(text, encoding="utf-8")
        cmd = [sys.executable, "-m", "jaxlint", "check", path.name, "--no-cache", "-j", "1",
               "--output-format", "concise", "--file-timeout", str(cap)]
        t = time.perf_counter()
        with open(os.devnull, "wb") as devnull:
            proc = subprocess.Popen(cmd, cwd=tmp, stdout=devnull, stderr=subprocess.PIPE)
            deadline = t + cap + 30
            while True:
                pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    break
                if time.perf_counter() > deadline:
                    proc.kill()
                    pid, status, usage = os.wait4(proc.pid, 0)
                    return {"lines": text.count("\n"), "outcome": f"over the {cap:g} s cap"}
                time.sleep(0.05)
        wall = time.perf_counter() - t
        err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        proc.stderr.close()  # type: ignore[union-attr]
        code = os.waitstatus_to_exitcode(status)
        last = (err.strip().splitlines() or [""])[-1]
        outcome = {0: "no finding", 1: "findings"}.get(code, f"exit {code}: {last}")
        # wait4's rusage covers the process and the children it waited for (the worker):
        # ru_maxrss is the largest of them, in KiB on Linux
        return {"lines": text.count("\n"), "wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
                "rss": usage.ru_maxrss / 1024, "outcome": outcome}


def main_files(args) -> int:
    sizes = [int(s) for s in args.lines.split(",")]
    print("| shape | lines | wall s | CPU s | peak RSS MiB | outcome | CPU t(n)/t(prev) |")
    print("|---|---:|---:|---:|---:|---|---:|")
    for shape in args.file_shapes.split(","):
        prev = None
        for n in sizes:
            r = run_file(shape, n, args.cap)
            cpu = r.get("cpu")
            ratio = f"{cpu / prev:.1f}" if cpu is not None and prev else ""
            prev = cpu
            if cpu is None:
                print(f"| {shape} | {r['lines']} | - | - | - | {r['outcome']} | |", flush=True)
            else:
                print(f"| {shape} | {r['lines']} | {r['wall']:.1f} | {cpu:.1f} | {r['rss']:.0f} | "
                      f"{r['outcome']} | {ratio} |", flush=True)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,2000,4000,8000,16000")
    ap.add_argument("--shapes", default="add,sum,attr")
    ap.add_argument("--cap", type=float, default=120.0, help="seconds per case")
    ap.add_argument("--engine", action="store_true",
                    help="time libcst's parse and the analysis alone (no CPython parse, no guards)")
    ap.add_argument("--files", action="store_true", help="time `jaxlint check` on long generated files")
    ap.add_argument("--lines", default="10000,25000,50000,100000", help="file lengths for --files")
    ap.add_argument("--file-shapes", default="ifs,elif,nested,funcs,assign,module")
    args = ap.parse_args()
    if args.files:
        return main_files(args)
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
