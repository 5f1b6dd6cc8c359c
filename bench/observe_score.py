"""Score `jaxlint observe` on the real-bug recall set (bench/recall/cases).

Each case is copied to a temporary folder (no pyproject.toml above it) and its entry
runs under observe from the case's folder:

    jaxlint observe --no-cache --output-format json --exit-zero -q --run "python ENTRY" .

(with the case's `check.env`).  `jaxlint check` runs on the same copy, as
bench/recall/score.py runs it.  A finding matches a label when its file, line and code
family agree (score.py's FAMILIES; observe's runtime-only codes JAX124, JAX211, JAX507,
JAX508, JAX509 match no static label).  Reported:

* per case: observe's findings, each marked `label` (it matches one), `read-true` or
  `read-false` (it matches none and was read: READ below says why), or `UNREAD`;
* observe: findings, right (label + read-true), precision;
* labels found by observe, by check, and by observe but not by check (sharp bits
  observe finds that check misses); true observe findings on lines with no label.

    python bench/observe_score.py -j 2               # every case
    python bench/observe_score.py 013 090 -v         # some cases, every finding shown
    python bench/observe_score.py --json out.json
    python bench/observe_score.py -j 2 --observed    # also `check --observed` with the run's facts

Use the worktree's Python (`.venv/bin/python`, with flax/optax/equinox/dm-haiku
installed for the cases whose `needs` names them).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "recall"))

from cases_lib import Case, load_cases  # noqa: E402
from score import EXTEND_SELECT, default_jaxlint, family, lint, norm  # noqa: E402

# Observe findings that match no label, read one by one (case:file:line:code -> verdict).
# "true: ..." when the run really shows that sharp bit there, "false: ..." otherwise.
READ: dict[str, str] = {
    "010-leak-global-x:main.py:15:JAX211": "true: the program turns jax_check_tracer_leaks on "
    "itself; `global x; x = y` in the jitted `f` leaks its tracer, and JAX reports it when the "
    "trace of the call at line 15 ends (the label is the write, line 10)",
    "012-vmap-dict-closure-leak:main.py:20:JAX211": "true: the program turns the leak checker "
    "on; the lambda stored in `a.dct` keeps vmap's tracer, found when the trace of the vmap "
    "call at line 20 ends (the label is the store, line 15)",
    "016-key-reset-in-loop:main.py:8:JAX507": "true: `float(a)` in a 3-step loop copies a "
    "device array to the host 3 times at this line (a performance note, not the case's bug)",
    "017-key-after-split-valid:main.py:9:JAX507": "true: `float(...)` in a 3-step loop, 3 host "
    "copies at this line (a performance note on a VALID twin: its key handling is right)",
    "042-hot-call-lambda:main.py:13:JAX509": "true: `jnp.array([3.0, 4.0])` in a 3-step loop "
    "copies the same host list to the device (float32[2]) on every iteration, 3 implicit "
    "copies JAX's transfer guard logs at this line (a performance note, not the case's bug)",
    "090-where-sqrt-nan-grad-347:main.py:6:JAX124": "true: the gradient of `sqrt` at 0 (inf) "
    "times 0 is the NaN JAX reports (`mul`), made by this line's operation; the `where` at "
    "line 8 (the label) is why the masked branch's gradient reaches it",
    "092-where-arctan2-nan-grad-1052:main.py:6:JAX124": "true: the gradient of arctan2(0, 0) "
    "divides 0 by 0 (`div`), this line's operation; the `where` at line 8 is the label",
    "128-self-cache-in-jit-method-pytroubles:main.py:28:JAX211": "true: `self.cache = out` "
    "kept apply_jit's tracer; `np.array(box.cache)` at line 28 converts it after the trace "
    "ended (the label is the store, line 19)",
    "130-float64-array-precision-652:main.py:4:JAX110": "true: the `np.array(..., "
    "dtype=np.float64)` call that JAX truncates starts at line 4; the label is the dtype "
    "argument's line 6 of the same call",
    # batch 2, read after a GPU run (JAX 0.11.2) reported them
    "210-leak-list-append-5492:main.py:15:JAX211": "true: the program turns the leak checker "
    "on (`with jax.checking_leaks()`); `lst.append(x)` at line 9 (the label) keeps the "
    "tracer, reported where the trace of the call at line 15 ends",
    "216-take-float-oob-nan-16899:main.py:6:JAX124": "true: `jnp.take` with indices 5 and 6 "
    "past a 5-element float array fills NaN (its default mode), the gather at this line (the "
    "label is the out-of-bounds read, same line, JAX121 family)",
    "247-dopamine-noisy-network-key-189:main.py:57:JAX509": "true: the NumPy `state` (and "
    "`onp.zeros(10)` at init) reaches `jnp.matmul` at this line, copied to the device on "
    "each of the 3 calls (init and two applies)",
    "247-dopamine-noisy-network-key-189:main.py:73:JAX301": "true: the module's `rng_key` "
    "field is split at init (line 70) and again by this apply: the same key consumed twice, "
    "the case's bug (labelled at the second apply, line 74)",
    "251-radec2lm-numpy-params-7545:main.py:10:JAX110": "true: `radec.dtype` is NumPy's "
    "float64; `jnp.empty(..., radec.dtype)` without x64 truncates it to float32",
    "220-autoarray-grid-slim-at-set-127-valid:main.py:14:JAX507": "true: `if not "
    "mask_2d[y, x]` on a device array in the 2x2 loop, 4 host copies (a performance note on "
    "a VALID twin: its `.at[].set` is right)",
    "257-sharp-bits-oob-at-get-15064:main.py:5:JAX124": "true: `.at[11].get(mode='fill', "
    "fill_value=jnp.nan)` makes the NaN at this line (the program asks for it; the run did "
    "produce it)",
}


OBSERVED = {"on": False}  # --observed: also `check --observed` with the facts the run wrote


def observe(jaxlint: str, cwd: Path, entry: str, env: dict, timeout: float) -> tuple[list, str, float]:
    start = time.monotonic()
    facts = ["--facts", str(cwd.parent / f"{cwd.name}.facts.json")] if OBSERVED["on"] else []
    proc = subprocess.run(
        [jaxlint, "observe", "--no-cache", "--output-format", "json", "--exit-zero", "-q",
         "--run-timeout", str(timeout), "--run", f"python {entry}", *facts, "."],
        cwd=cwd, capture_output=True, text=True, env=dict(os.environ, **env),
    )
    wall = time.monotonic() - start
    try:
        return json.loads(proc.stdout or "[]"), proc.stderr.strip(), wall
    except json.JSONDecodeError:
        return [], f"no JSON (exit {proc.returncode}): {proc.stderr.strip()[-300:]}", wall


def label_hits(case: Case, findings: list[dict]) -> tuple[list[bool], list[dict]]:
    found = [False] * len(case.labels)
    extra = []
    for f in findings:
        fam, row, fname = family(f["code"]), f["location"]["row"], norm(f["filename"])
        hit = False
        for i, lab in enumerate(case.labels):
            if lab.file == fname and lab.line == row and fam in {family(c) for c in lab.codes}:
                found[i] = hit = True
        if not hit:
            extra.append(f)
    return found, extra


def key(case: Case, f: dict) -> str:
    return f"{case.name}:{norm(f['filename'])}:{f['location']['row']}:{f['code']}"


def score_case(case: Case, tmp: Path, jaxlint: str, timeout: float) -> dict:
    dest = tmp / case.name
    shutil.copytree(case.path, dest, ignore=shutil.ignore_patterns("case.toml", "__pycache__"))
    seen, stderr, wall = observe(jaxlint, dest, case.entry, case.env, timeout)
    static = lint(jaxlint, dest, case.py_files()[0] if case.layout == "file" else ".")
    by_observe, extra = label_hits(case, seen)
    by_check, _ = label_hits(case, static)
    with_facts: dict = {}
    if OBSERVED["on"]:
        target = case.py_files()[0] if case.layout == "file" else "."
        proc = subprocess.run(
            [jaxlint, "check", "--no-cache", "--output-format", "json", "--exit-zero", "-q",
             "--extend-select", EXTEND_SELECT,  # the rules `check` (score.py's lint) runs
             f"--observed={tmp / (case.name + '.facts.json')}", target],
            cwd=dest, capture_output=True, text=True)
        try:
            found = json.loads(proc.stdout or "[]")
        except json.JSONDecodeError:
            found = []
        by_facts, _ = label_hits(case, found)
        before = {key(case, f) for f in static}
        with_facts = {"labels": sum(by_facts), "only": sum(o and not c for o, c in zip(by_facts, by_check)),
                      "new": [(key(case, f), any(lab.file == norm(f["filename"]) and lab.line == f["location"]["row"]
                                                 for lab in case.labels), f["message"][:160])
                              for f in found if key(case, f) not in before],
                      "stderr": proc.stderr.strip()[-200:]}
    rows = []
    for f in seen:
        if f not in extra:
            verdict = "label"
        else:
            reading = READ.get(key(case, f))
            verdict = "UNREAD" if reading is None else ("read-true" if reading.startswith("true")
                                                        else "read-false")
        rows.append({"key": key(case, f), "verdict": verdict, "message": f["message"],
                     "column": f["location"]["column"]})
    return {"case": case.name, "status": case.status, "concept": case.concept,
            "labels": len(case.labels), "observe_labels": sum(by_observe),
            "check_labels": sum(by_check),
            "observe_only": sum(o and not c for o, c in zip(by_observe, by_check)),
            "findings": rows, "wall_s": round(wall, 2), "with_facts": with_facts,
            "run": stderr.splitlines()[-1] if stderr else ""}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="case number prefixes or names")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per case's run")
    ap.add_argument("--jaxlint", default=default_jaxlint())
    ap.add_argument("--json", help="write every case's result here")
    ap.add_argument("-v", "--verbose", action="store_true", help="show every finding")
    ap.add_argument("--observed", action="store_true",
                    help="also `check --observed` with the facts each run wrote: labels it finds, "
                         "and every finding it adds to `check`'s")
    args = ap.parse_args(argv)
    OBSERVED["on"] = args.observed
    cases = load_cases(args.names or None)
    with tempfile.TemporaryDirectory(prefix="jaxlint-observe-") as tmp:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            results = list(pool.map(lambda c: score_case(c, Path(tmp), args.jaxlint,
                                                         args.timeout), cases))
    total = right = unread = 0
    for r in results:
        for f in r["findings"]:
            total += 1
            right += f["verdict"] in ("label", "read-true")
            unread += f["verdict"] == "UNREAD"
            if args.verbose or f["verdict"] != "label":
                print(f"{f['verdict']:10} {f['key']}:{f['column']}  {f['message'][:160]}")
    labels = sum(r["labels"] for r in results)
    print()
    print(f"cases: {len(results)} ({sum(r['status'] == 'INVALID' for r in results)} INVALID), "
          f"labels: {labels}")
    print(f"observe findings: {total}, right: {right} (labels {sum(f['verdict'] == 'label' for r in results for f in r['findings'])}, "
          f"read true {sum(f['verdict'] == 'read-true' for r in results for f in r['findings'])}), "
          f"read false: {sum(f['verdict'] == 'read-false' for r in results for f in r['findings'])}, "
          f"unread: {unread}; precision {right / total if total else 1:.3f}")
    print(f"labels found: observe {sum(r['observe_labels'] for r in results)}, check "
          f"{sum(r['check_labels'] for r in results)}, observe but not check "
          f"{sum(r['observe_only'] for r in results)}")
    print(f"true observe findings on lines with no label: "
          f"{sum(f['verdict'] == 'read-true' for r in results for f in r['findings'])}")
    print(f"wall: {sum(r['wall_s'] for r in results):.1f} s in all "
          f"({sum(r['wall_s'] for r in results) / max(1, len(results)):.2f} s per case)")
    if args.observed:
        print(f"labels found: check --observed {sum(r['with_facts'].get('labels', 0) for r in results)} "
              f"(check {sum(r['check_labels'] for r in results)}; found only with the facts "
              f"{sum(r['with_facts'].get('only', 0) for r in results)})")
        for r in results:
            for k, labelled, message in r["with_facts"].get("new", []):
                print(f"{'label' if labelled else 'NEW':6} {k}  {message}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
