#!/usr/bin/env python3
"""Score `jaxlint confirm` on the recall set's programs: verdicts per concept (issue 23).

    python bench/recall/confirm_score.py [--jaxlint PATH] [--json FILE] [-j N] [-v] [CASE ...]

Every INVALID case is a runnable program with one sharp bit, from a public report, whose
`__main__` block exercises it.  For each case (copied to a temporary folder first):
  * `jaxlint check` on the case's target (the file alone, or `.` for a multi-module case),
    from the case's folder: the static findings;
  * `jaxlint confirm --run "python <entry>"` on the same target from the same folder, with
    the case's `[check] env`: a verdict for each finding (confirmed / not-reproduced /
    not-exercised / skipped with a reason).
A finding is *true* when it matches one of the case's labels (file, line, code family, as
score.py matches them); the others are *unlabelled* (extra true findings or false
positives: score.py lists them).  The figures: confirmed findings over findings, and the
true findings said "not-reproduced" (issue 23 asks for 80% and none).  A case without
static findings is not confirmed (nothing to confirm); VALID twins are skipped (their
findings, if any, are score.py's false positives).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cases_lib import Case, load_cases  # noqa: E402
from score import EXTEND_SELECT, default_jaxlint, family, norm  # noqa: E402

VERDICTS = ("confirmed", "not-reproduced", "not-exercised", "skipped")

# A skip reason's kind: the first pattern that matches (searched in the reason's text).
REASON_KINDS = [
    ("environment", r"^environment|is not installed|No module named"),
    ("no input for argument", r"no input for argument"),
    ("needs a live object", r"live object|needs an instance"),
    ("nested function", r"nested function|cannot be called from outside"),
    ("the --run never ran the line", r"never ran line|never reached|never ran"),
    ("not inside a function", r"not inside a function|outside any function|no function to call"),
    ("no check for the rule", r"no runtime check|no check for|cannot be checked"),
    ("time-out", r"timed out|time limit|time-out"),
    ("import failed", r"import|could not be imported"),
]


def reason_kind(text: str) -> str:
    for kind, pattern in REASON_KINDS:
        if re.search(pattern, text, re.IGNORECASE):
            return kind
    # otherwise the reason itself, with names and numbers taken out
    short = re.sub(r"`[^`]*`", "`…`", text.split(";")[0].split(" (")[0])
    return re.sub(r"\d+", "N", short)[:70]


def run_json(argv: list[str], cwd: Path, env: dict[str, str], timeout: float) -> tuple[list[dict], str]:
    try:
        proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True,
                              env={**os.environ, **env}, timeout=timeout)
    except subprocess.TimeoutExpired:
        return [], f"timed out after {timeout:.0f} s"
    if proc.returncode not in (0, 1):
        return [], f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}"
    try:
        data = json.loads(proc.stdout or "[]")
    except json.JSONDecodeError:
        return [], f"no JSON: {proc.stdout[:200]!r}"
    if isinstance(data, dict):  # bench-style output
        data = data.get("findings", [])
    return data, proc.stderr


def is_true(case: Case, f: dict) -> bool:
    fam, row, fname = family(f["code"]), f["location"]["row"], norm(f["filename"])
    return any(lab.file == fname and lab.line == row and fam in {family(c) for c in lab.codes}
               for lab in case.labels)


def score_case(jaxlint: str, case: Case, root: Path, timeout: float) -> dict:
    dest = root / case.name
    shutil.copytree(case.path, dest, ignore=shutil.ignore_patterns("case.toml", "__pycache__"))
    target = case.py_files()[0] if case.layout == "file" else "."
    common = ["--no-cache", "--output-format", "json"]
    static, err = run_json([jaxlint, "check", *common, "--extend-select", EXTEND_SELECT,
                            "--exit-zero", "-q", target], dest, {}, timeout)
    out = {"case": case.name, "concept": case.concept, "static": len(static), "rows": [],
           "error": ""}
    if not static:
        out["error"] = "" if isinstance(err, str) and not err.startswith(("exit", "no JSON", "timed")) else err
        return out
    start = time.perf_counter()
    # confirm has no --extend-select: it gets the codes check reported, so that it
    # judges the same findings
    codes = ",".join(sorted({f["code"] for f in static}))
    found, err = run_json([jaxlint, "confirm", *common, "--select", codes, "-j", "1",
                           "--run-timeout", str(int(timeout)),
                           "--run", f"python {case.entry}", target], dest, case.env,
                          timeout * 3)
    out["seconds"] = round(time.perf_counter() - start, 1)
    if not found:
        out["error"] = err.strip().splitlines()[-1] if err.strip() else "confirm gave no findings"
    keys = {(norm(f["filename"]), f["location"]["row"], f["location"]["column"], f["code"])
            for f in static}
    seen = set()
    for f in found:
        rt = f.get("runtime") or {}
        verdict = rt.get("verdict", "skipped")
        text = rt.get("evidence") or rt.get("reason") or ""
        key = (norm(f["filename"]), f["location"]["row"], f["location"]["column"], f["code"])
        seen.add(key)
        out["rows"].append({"file": key[0], "line": key[1], "code": key[3], "verdict": verdict,
                            "true": is_true(case, f), "text": text,
                            "kind": reason_kind(text) if verdict == "skipped" else ""})
    for key in sorted(keys - seen):  # a static finding confirm did not report
        out["rows"].append({"file": key[0], "line": key[1], "code": key[3], "verdict": "skipped",
                            "true": is_true(case, {"code": key[3], "filename": key[0],
                                                   "location": {"row": key[1]}}),
                            "text": "missing from confirm's output", "kind": "missing"})
    return out


def table(results: list[dict]) -> tuple[str, dict]:
    rows = [(r, row) for r in results for row in r["rows"]]
    per_concept: dict[str, Counter] = defaultdict(Counter)
    for r, row in rows:
        per_concept[r["concept"]][row["verdict"]] += 1
        per_concept[r["concept"]]["findings"] += 1
    total = Counter(row["verdict"] for _, row in rows)
    n = len(rows)
    true_rows = [row for _, row in rows if row["true"]]
    lines = [f"{len(results)} INVALID cases, {sum(1 for r in results if r['static'])} with "
             f"static findings; {n} findings ({len(true_rows)} true, {n - len(true_rows)} "
             "unlabelled)", ""]
    head = f"{'concept':24} {'findings':>8} " + " ".join(f"{v:>14}" for v in VERDICTS)
    lines += [head, "-" * len(head)]
    for concept in sorted(per_concept):
        c = per_concept[concept]
        lines.append(f"{concept:24} {c['findings']:>8} " + " ".join(f"{c[v]:>14}" for v in VERDICTS))
    lines.append(f"{'all':24} {n:>8} " + " ".join(f"{total[v]:>14}" for v in VERDICTS))
    confirmed = total["confirmed"]
    true_confirmed = sum(row["verdict"] == "confirmed" for row in true_rows)
    true_refuted = [(r, row) for r, row in rows if row["true"] and row["verdict"] == "not-reproduced"]
    lines += ["", f"confirmed: {confirmed}/{n} = {confirmed / n if n else 0:.3f} of the findings; "
              f"{true_confirmed}/{len(true_rows)} of the true ones; true findings "
              f"not-reproduced: {len(true_refuted)}"]
    kinds = Counter(row["kind"] for _, row in rows if row["verdict"] == "skipped")
    if kinds:
        lines += ["", "skipped, by reason:"]
        lines += [f"  {count:>3}  {kind}" for kind, count in kinds.most_common()]
    summary = {"cases": len(results), "findings": n, "true": len(true_rows),
               "verdicts": {v: total[v] for v in VERDICTS},
               "confirmed_share": round(confirmed / n, 3) if n else 0.0,
               "true_confirmed": true_confirmed, "true_not_reproduced": len(true_refuted),
               "skip_reasons": dict(kinds),
               "concepts": {c: dict(per_concept[c]) for c in sorted(per_concept)}}
    return "\n".join(lines), summary


def listing(results: list[dict], verbose: bool) -> str:
    out = []
    for r in results:
        for row in r["rows"]:
            if row["verdict"] == "not-reproduced" or (verbose and row["verdict"] != "confirmed"):
                truth = "TRUE" if row["true"] else "unlabelled"
                out.append(f"{row['verdict']:14} {truth:10} {r['case']} {row['file']}:{row['line']} "
                           f"{row['code']}  {row['text'][:160]}")
        if r["error"]:
            out.append(f"{'error':14} {'':10} {r['case']}: {r['error'][:200]}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="*", help="case names or numbers; a one- or two-digit number N selects batch N, the cases whose number // 100 is N (2: cases 200-299; 10: cases 1000-1099) (default: all)")
    ap.add_argument("--jaxlint", default=default_jaxlint(), help="the jaxlint executable")
    ap.add_argument("--json", metavar="FILE", help="also write the figures and rows as JSON")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="cases at a time")
    ap.add_argument("--timeout", type=float, default=180,
                    help="seconds for each case's run (confirm gets 3 times that)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="list every verdict but the confirmations (default: not-reproduced)")
    args = ap.parse_args(argv)
    cases = [c for c in load_cases(args.cases) if c.status == "INVALID"]
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="jaxlint-confirm-") as tmp:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            results = list(pool.map(lambda c: score_case(args.jaxlint, c, Path(tmp), args.timeout),
                                    cases))
    text, summary = table(results)
    print(text)
    detail = listing(results, args.verbose)
    if detail:
        print("\n" + detail)
    print(f"\n({time.perf_counter() - start:.0f} s)")
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": summary, "cases": results}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
