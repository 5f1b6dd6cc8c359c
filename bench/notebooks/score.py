#!/usr/bin/env python3
"""Precision and recall of jaxlint on notebooks (``bench/notebooks/``).

    python bench/notebooks/score.py [--jaxlint PATH]

Lints ``jax_docs/`` (code cells of JAX's documentation notebooks) and ``cases/``
(notebooks written here in the shape of tutorials, with sharp bits that span cells
and magics), each from its own folder, and matches every finding to ``labels.json``
by (notebook, cell, line, code):

* ``found``: each finding, read and judged (``true``: JAX raises or gives a wrong
  result or timing there; ``false``: it does not);
* ``missed``: sharp bits in ``cases/`` that jaxlint does not report (recall).

A finding with no label fails the run: every finding must be read.  Prints precision
over both folders and recall over ``cases/`` (the documentation notebooks' own unfound
bits are not labelled, so no recall is claimed for them).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jaxlint", default=str(Path(sys.executable).with_name("jaxlint")))
    args = ap.parse_args()
    labels = json.loads((HERE / "labels.json").read_text())
    judged = {(x["file"], x["cell"], x["line"], x["code"]): x["verdict"] for x in labels["found"]}
    missed = labels["missed"]
    true = false = 0
    unlabeled = []
    seen = set()
    for folder in ("jax_docs", "cases"):
        out = subprocess.run([args.jaxlint, "check", ".", "--no-cache", "--output-format", "json", "--exit-zero"],
                             cwd=HERE / folder, capture_output=True, text=True, check=True).stdout
        for f in json.loads(out):
            key = (f"{folder}/{f['filename']}", f.get("cell"), f["location"]["row"], f["code"])
            seen.add(key)
            verdict = judged.get(key)
            if verdict == "true":
                true += 1
            elif verdict == "false":
                false += 1
            else:
                unlabeled.append(f"{key}: {f['message'][:100]}")
    gone = [k for k, v in judged.items() if v == "true" and k not in seen]
    case_true = sum(1 for k, v in judged.items() if v == "true" and k[0].startswith("cases/") and k in seen)
    n_missed = len(missed) + sum(1 for k in gone if k[0].startswith("cases/"))
    print(f"findings: {true + false} ({true} true, {false} false); precision {true / max(true + false, 1):.3f}")
    print(f"cases/: {case_true} of {case_true + n_missed} labelled sharp bits found; recall "
          f"{case_true / max(case_true + n_missed, 1):.3f}")
    for k in gone:
        print(f"  true finding no longer reported: {k}")
    for m in missed:
        print(f"  missed: {m['file']} cell {m['cell']} line {m['line']} ({m['concept']}): {m['why']}")
    if unlabeled:
        print("unlabelled findings (read them, then label them in labels.json):")
        print("\n".join(f"  {u}" for u in unlabeled))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
