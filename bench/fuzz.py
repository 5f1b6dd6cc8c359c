#!/usr/bin/env python3
"""Fuzz jaxlint with mutants of the pinned corpus (``make fuzz``).

    python bench/fuzz.py [--corpus DIR] [--mutants N] [--batch N] [--jobs N]
                         [--seed N] [--no-fix] [--file-timeout S]

Writes mutants of real files (tests/mutants.py: spans deleted, duplicated or
moved, lines re-indented, brackets, quotes, NUL bytes, BOMs, deep nesting and
JAX calls inserted; then every line break rewritten, in turn all ``\\r``, all
``\\r\\n`` or a random mix of ``\\n``, ``\\r\\n`` and ``\\r``; some
re-encoded as UTF-16/32 or with invalid bytes) in batches to a temporary directory and lints each batch the way ``jaxlint
check`` does (``jaxlint.lint.runner.run``: supervised worker processes).  Checks:

* every file gets a result (none lost to a crash), no internal error;
* no file hits the per-file time limit (a hang);
* JAX001 exactly when CPython refuses the decoded text;
* ``--fix --unsafe-fixes`` on every mutant that compiles and has a fixable
  finding: the result compiles and a second run changes nothing (the fixer
  itself refuses a fix that changes the tree outside its node);
* positions and edits against the mutant's LF twin (the same text with every
  line break ``\\n``: CPython's lines and columns are the same in both): the
  same findings at the same lines and columns ("wrong positions"), and the
  same fixed text up to its line endings, with no misplaced fix and the
  endings of the lines the fixes left alone kept ("wrong edits").

Prints the counts; exits 1 if any check failed.  Builds the corpus with
bench/make_corpus.py when DIR does not exist (needs PyPI).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))

from mutants import (  # noqa: E402
    ENDING_STYLES, compiles, encode, ending_problems, mutate, refused_by_python, rewrite_endings,
)

from jaxlint.fix.fixer import fix_text  # noqa: E402
from jaxlint.engine.fixes import fixable  # noqa: E402
from jaxlint.lint.linter import decode_source  # noqa: E402
from jaxlint.rules import default_codes  # noqa: E402
from jaxlint.lint.runner import run  # noqa: E402
from jaxlint.settings import LintSettings  # noqa: E402

SETTINGS = LintSettings(select=frozenset(default_codes() | {"JAX001"}))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default="/tmp/jaxlint-corpus")
    ap.add_argument("--mutants", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=250)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-fix", dest="fix", action="store_false", help="do not run --fix on the mutants")
    ap.add_argument("--file-timeout", type=float, default=60.0)
    args = ap.parse_args()
    corpus = Path(args.corpus)
    if not corpus.is_dir():
        subprocess.run([sys.executable, str(HERE / "make_corpus.py"), str(corpus)], check=True)
    sources = sorted(corpus.rglob("*.py"))
    rng = random.Random(args.seed)
    counts: Counter = Counter()
    problems: list[str] = []
    started = time.perf_counter()
    done = 0
    while done < args.mutants:
        size = min(args.batch, args.mutants - done)
        with tempfile.TemporaryDirectory() as tmp:
            files, texts = [], {}
            for i in range(size):
                src = rng.choice(sources)
                text = mutate(src.read_text(encoding="utf-8", errors="replace"), rng, rng.randrange(1, 5))
                style = ENDING_STYLES[(done + i) % len(ENDING_STYLES)]
                text = rewrite_endings(text, rng, style)
                counts[f"endings {style!r}"] += 1
                path = Path(tmp) / f"m{done + i:05}_{src.stem}.py"
                path.write_bytes(encode(text, rng))
                files.append(path)
                texts[str(path)] = text
            out = run(files, lambda p: SETTINGS, None, jobs=args.jobs, file_timeout=args.file_timeout)
            by_path = {r.path: r for r in out.results}
            counts["tracebacks"] += len(out.tracebacks)
            problems += [tb.splitlines()[0] for tb in out.tracebacks]
            for path in files:
                done += 1
                name = str(path)
                r = by_path.get(name)
                if r is None:
                    counts["lost"] += 1
                    problems.append(f"{path.name}: no result")
                    continue
                err = r.error or ""
                if "took over" in err:
                    counts["hangs"] += 1
                    problems.append(f"{path.name}: {err}")
                elif "crashed" in err or "exited" in err:
                    counts["crashes (file reported, others kept)"] += 1
                    problems.append(f"{path.name}: {err}")
                elif "internal error" in err:
                    problems.append(f"{path.name}: {err}")
                elif err.startswith("could not be checked"):
                    counts["could not be checked"] += 1
                elif err:
                    counts["not decodable"] += 1
                text, _ = decode_source(path.read_bytes())
                if text is None:
                    continue
                jax001 = any(f.code == "JAX001" for f in r.findings)
                refused = refused_by_python(text)
                counts["JAX001"] += jax001
                counts["parsed and analysed"] += r.parsed
                if jax001 != refused and "# jaxlint: skip-file" not in text:
                    counts["JAX001 mismatches"] += 1
                    problems.append(f"{path.name}: JAX001={jax001} but CPython refuses={refused}")
                if not err:
                    for problem in ending_problems(text, SETTINGS, fix=args.fix, findings=r.findings):
                        kind = "wrong positions" if problem.startswith("wrong position") else "wrong edits"
                        counts[kind] += 1
                        problems.append(f"{path.name}: {problem}")
                if args.fix and compiles(text) and any(fixable(f, True) for f in r.findings):
                    counts["fix runs"] += 1
                    fixed = fix_text(text, name, SETTINGS, unsafe=True)
                    counts["fixes applied"] += len(fixed.applied)
                    counts["fixes refused"] += len(fixed.skipped)
                    if fixed.changed:
                        try:
                            compile(fixed.text, name, "exec", dont_inherit=True)
                        except (SyntaxError, ValueError) as exc:
                            counts["fixes that do not compile"] += 1
                            problems.append(f"{path.name}: fixed text does not compile ({exc})")
                        if fix_text(fixed.text, name, SETTINGS, unsafe=True).text != fixed.text:
                            counts["fixes not idempotent"] += 1
                            problems.append(f"{path.name}: a second --fix changed the text")
        print(f"{done} mutants, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    counts["mutants"] = done
    print(f"corpus: {corpus} ({len(sources)} files), seed {args.seed}, jobs {args.jobs}, "
          f"{time.perf_counter() - started:.0f} s")
    for key in ("mutants", "parsed and analysed", "JAX001", "could not be checked", "not decodable",
                "tracebacks", "lost", "hangs", "crashes (file reported, others kept)", "JAX001 mismatches",
                "fix runs", "fixes applied", "fixes refused", "fixes that do not compile",
                "fixes not idempotent", *(f"endings {s!r}" for s in ENDING_STYLES),
                "wrong positions", "wrong edits"):
        print(f"  {key}: {counts[key]}")
    for line in problems[:50]:
        print(f"  problem: {line}")
    bad = problems or counts["tracebacks"] or counts["lost"] or counts["hangs"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
