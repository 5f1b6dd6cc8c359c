#!/usr/bin/env python3
"""Score jaxlint on the real-bug recall set: recall per concept, overall recall, precision.

    python bench/recall/score.py [--jaxlint PATH] [--json FILE] [-v] [CASE ...]

The cases are copied to a temporary folder (so that no pyproject.toml above them takes
part) and linted the way a user would:
  * a single-file case: `jaxlint check main.py` from the case's folder (the file alone);
  * a multi-module case: `jaxlint check .` from the case's folder ("from-project") AND
    `jaxlint check .` from one folder that holds every multi-module case ("from-above").
A finding matches a label when file, line and code family agree (FAMILIES below).
Recall = matched labels / labels. Every finding that matches no label (on an INVALID
case's other lines, or anywhere in a VALID twin) is a false positive: read it, and when it
is a genuine extra true finding, label it in the case file instead.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cases_lib import Case, load_cases  # noqa: E402

# Codes that report the same sharp bit from different angles: a label accepts any
# code of the family of one of its codes.
FAMILIES = {
    "concretization": {"JAX201", "JAX202", "JAX205", "JAX206"},
    "update": {"JAX101", "JAX102"},
    "numpy": {"JAX204", "JAX406"},
    "state": {"JAX402", "JAX403", "JAX404", "JAX405"},
    "api-history": {"JAX901", "JAX902", "JAX903", "JAX904", "JAX905"},
    "recompilation": {"JAX501", "JAX504"},
    "loop": {"JAX502", "JAX503"},
    "static-args": {"JAX207", "JAX208", "JAX209"},
}
FAMILY_OF = {code: fam for fam, codes in FAMILIES.items() for code in codes}

# Opt-in rules enabled for the measure: JAX503 (data-sized unrolled loops) is the rule
# for the python-loop-unroll concept; the rest is jaxlint's default selection.
EXTEND_SELECT = "JAX503"


def family(code: str) -> str:
    return FAMILY_OF.get(code, code)


def default_jaxlint() -> str:
    here = Path(sys.executable).parent / "jaxlint"
    return str(here) if here.exists() else (shutil.which("jaxlint") or "jaxlint")


def lint(jaxlint: str, cwd: Path, target: str) -> list[dict]:
    proc = subprocess.run(
        [jaxlint, "check", "--no-cache", "--output-format", "json", "--exit-zero", "-q",
         "--extend-select", EXTEND_SELECT, target],
        cwd=cwd, capture_output=True, text=True,
    )
    if proc.returncode != 0:
        sys.exit(f"jaxlint failed in {cwd} (exit {proc.returncode}): {proc.stderr.strip()[-500:]}")
    try:
        return json.loads(proc.stdout or "[]")
    except json.JSONDecodeError:
        sys.exit(f"jaxlint printed no JSON in {cwd}: {proc.stdout[:300]!r}")


def norm(path: str) -> str:
    p = path.replace(os.sep, "/")
    return p[2:] if p.startswith("./") else p


def match(case: Case, findings: list[dict]) -> tuple[list[bool], list[dict]]:
    """Which labels are found, and which findings are extra (false positives)."""
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="*", help="case names or numbers; a one- or two-digit number N selects batch N, the cases whose number // 100 is N (2: cases 200-299; 10: cases 1000-1099) (default: all)")
    ap.add_argument("--jaxlint", default=default_jaxlint(), help="the jaxlint executable")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="jaxlint processes at a time")
    ap.add_argument("-v", "--verbose", action="store_true", help="list misses and extras")
    args = ap.parse_args(argv)
    cases = load_cases(args.cases)

    with tempfile.TemporaryDirectory(prefix="jaxlint-recall-") as tmp:
        tmp = Path(tmp)
        (tmp / "files").mkdir()
        above = tmp / "projects"
        above.mkdir()
        results: dict[str, dict[str, tuple[list[bool], list[dict]]]] = {}

        def one(case: Case) -> None:
            dest = (above if case.layout == "project" else tmp / "files") / case.name
            shutil.copytree(case.path, dest, ignore=shutil.ignore_patterns("case.toml", "__pycache__"))
            if case.layout == "file":
                findings = lint(args.jaxlint, dest, case.py_files()[0])
                results[case.name] = {"alone": match(case, findings)}
            else:
                results[case.name] = {"from-project": match(case, lint(args.jaxlint, dest, "."))}

        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            list(pool.map(one, cases))
        if any(c.layout == "project" for c in cases):
            everything = lint(args.jaxlint, above, ".")
            per_case: dict[str, list[dict]] = defaultdict(list)
            for f in everything:
                head, _, rest = norm(f["filename"]).partition("/")
                per_case[head].append({**f, "filename": rest})
            for case in cases:
                if case.layout == "project":
                    results[case.name]["from-above"] = match(case, per_case.get(case.name, []))

    # Figures: single files count once; a project counts in each mode.
    modes = ["from-project", "from-above"]
    concept_rows: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    totals = {m: [0, 0, 0] for m in modes}  # found, labels, false positives
    valid_fp = {m: 0 for m in modes}
    details = []
    for case in cases:
        for mode in modes:
            key = "alone" if case.layout == "file" else mode
            found, extra = results[case.name][key]
            row = concept_rows[case.concept][mode]
            row[0] += sum(found)
            row[1] += len(found)
            totals[mode][0] += sum(found)
            totals[mode][1] += len(found)
            totals[mode][2] += len(extra)
            if case.status == "VALID":
                valid_fp[mode] += len(extra)
        for key, (found, extra) in results[case.name].items():
            for lab, ok in zip(case.labels, found):
                if not ok:
                    details.append(f"MISS  {case.name} [{key}] {lab.file}:{lab.line} {'/'.join(lab.codes)}  {lab.text.strip()}")
            for f in extra:
                details.append(f"EXTRA {case.name} [{key}] {norm(f['filename'])}:{f['location']['row']} {f['code']}  {f['message'][:100]}")

    n_inv = sum(c.status == "INVALID" for c in cases)
    n_proj = sum(c.layout == "project" for c in cases)
    print(f"{len(cases)} cases ({n_inv} INVALID, {len(cases) - n_inv} VALID twins; "
          f"{n_proj} multi-module), {sum(len(c.labels) for c in cases)} labels\n")
    print(f"{'concept':24} {'from-project':>14} {'from-above':>14}")
    for concept in sorted(concept_rows):
        cells = []
        for mode in modes:
            f, n = concept_rows[concept][mode]
            cells.append(f"{f}/{n}" + (f" {f / n:.2f}" if n else "     "))
        print(f"{concept:24} {cells[0]:>14} {cells[1]:>14}")
    summary = {}
    for mode in modes:
        f, n, fp = totals[mode]
        recall = f / n if n else 0.0
        precision = f / (f + fp) if f + fp else 1.0
        summary[mode] = {"found": f, "labels": n, "false_positives": fp,
                         "false_positives_on_valid": valid_fp[mode],
                         "recall": round(recall, 3), "precision": round(precision, 3)}
        print(f"\n{mode}: recall {f}/{n} = {recall:.3f}, precision {precision:.3f} "
              f"({fp} unmatched findings, {valid_fp[mode]} of them on VALID twins)")
    print("\n(single-file cases are linted alone and count the same in both columns)")
    if args.verbose and details:
        print("\n" + "\n".join(details))
    if args.json:
        Path(args.json).write_text(json.dumps({
            "summary": summary,
            "concepts": {c: {m: concept_rows[c][m] for m in modes} for c in sorted(concept_rows)},
            "details": details,
        }, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
