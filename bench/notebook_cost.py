#!/usr/bin/env python3
"""What linting a notebook costs against linting the same code as a ``.py``.

    python bench/notebook_cost.py [CORPUS] [--files N] [--rounds R]

Takes the first N files of the pinned corpus (bench/make_corpus.py) that mention
JAX, writes each twice into a temporary folder: as ``name.py`` and as
``name.ipynb`` whose code cells are the file's top-level statements (a cell per
statement group, a markdown cell between, as a tutorial reads), then times
``jaxlint.lint.linter.lint_source`` on each form in this process (best of R rounds).
Prints the two totals and their ratio, and checks both forms give the same
findings (rule and line in the file).
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from jaxlint.lint.linter import lint_source  # noqa: E402
from jaxlint.parse.notebook import Notebook  # noqa: E402
from jaxlint.rules import default_codes  # noqa: E402
from jaxlint.settings import LintSettings  # noqa: E402


def as_notebook(text: str) -> bytes:
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    cells, start = [], 0
    for node in tree.body[1:]:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]) - 1
        if first > start:
            cells.append(lines[start:first])
            start = first
    cells.append(lines[start:])
    out = []
    for i, src in enumerate(cells):
        out.append({"cell_type": "markdown", "id": f"m{i}", "metadata": {}, "source": [f"Step {i}\n"]})
        out.append({"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [],
                    "source": src})
    nb = {"cells": out, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return (json.dumps(nb, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", nargs="?", default="/tmp/jaxlint-corpus")
    ap.add_argument("--files", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    settings = LintSettings(select=default_codes())
    pairs = []
    for path in sorted(Path(args.corpus).rglob("*.py")):
        data = path.read_bytes()
        if b"jax" not in data:
            continue
        try:
            text = data.decode("utf-8")
            nb = as_notebook(text)
        except (UnicodeDecodeError, SyntaxError, ValueError):
            continue
        pairs.append((str(path), data, nb))
        if len(pairs) >= args.files:
            break
    best = {"py": float("inf"), "ipynb": float("inf")}
    same = 0
    for _ in range(args.rounds):
        for kind in ("py", "ipynb"):
            t0 = time.perf_counter()
            for name, data, nb in pairs:
                lint_source(data if kind == "py" else nb, name[:-3] + "." + kind, settings)
            best[kind] = min(best[kind], time.perf_counter() - t0)
    for name, data, nb in pairs:
        a = [(f.code, f.line) for f in lint_source(data, name, settings).findings]
        notebook = Notebook.from_bytes(nb)
        b = []
        for f in lint_source(nb, name[:-3] + ".ipynb", settings).findings:
            line = notebook.virtual_line(f.cell, f.line)
            b.append((f.code, line - (f.cell // 2 - 1) if line else None))  # a boundary line per earlier cell
        same += a == b
    print(f"{len(pairs)} files: .py {best['py']:.2f} s, .ipynb {best['ipynb']:.2f} s, "
          f"ratio {best['ipynb'] / best['py']:.2f}x; same findings in {same}/{len(pairs)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
