#!/usr/bin/env python3
"""Holds ``jaxlint.parse.fastparse`` against libcst's parser on real code.

    python bench/fastparse_check.py DIR... [--analysis]

For every ``.py`` file CPython accepts: the tree built from CPython's tree must
have the shape of libcst's (``tests/fastparse_compare.py``: node classes and every
field the analysis reads; whitespace, comments and punctuation aside), and its
printed code must parse to the same CPython tree as the file.  With
``--analysis``, the findings (code, message, line, column) and the project
summary of each file must also be the same from both trees.  Prints each
difference and counts; exits 1 if there was one.  Also reports the time of
both parses (process time).
"""
from __future__ import annotations

import ast
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import libcst as cst  # noqa: E402

from fastparse_compare import first_difference  # noqa: E402
from jaxlint.lint import linter  # noqa: E402
from jaxlint.parse import fastparse  # noqa: E402


def main(argv: list[str]) -> int:
    analysis = "--analysis" in argv
    dirs = [a for a in argv if not a.startswith("--")]
    files = sorted(f for d in dirs for f in (Path(d).rglob("*.py") if Path(d).is_dir() else [Path(d)]))
    bad = unsupported = checked = 0
    t_fast = t_cst = t_ast = 0.0
    clock = time.process_time
    import gc
    gc.disable()
    for f in files:
        try:
            text, err = linter.decode_source(f.read_bytes())
        except OSError:
            continue
        if text is None:
            continue
        t0 = clock()
        tree, syntax = linter.python_syntax_error(text, str(f))
        t1 = clock()
        if tree is None:
            continue
        try:
            real = linter._parse_module(text)
        except Exception:
            continue
        t2 = clock()
        try:
            synth = fastparse.from_ast(tree, text)
        except fastparse.Unsupported as exc:
            unsupported += 1
            print(f"{f}: unsupported: {exc}")
            continue
        t3 = clock()
        t_ast += t1 - t0
        t_cst += t2 - t1
        t_fast += t3 - t2
        checked += 1
        diff = first_difference(synth, real)
        if diff is None:
            try:
                again = ast.dump(ast.parse(synth.code))
            except Exception as exc:  # noqa: BLE001
                diff = f"printed code does not parse: {exc}"
            else:
                if again != ast.dump(tree):
                    diff = "printed code parses to another tree"
        if diff is None and analysis:
            diff = _analysis_difference(f, text, real, synth)
        if diff is not None:
            bad += 1
            print(f"{f}: {diff}")
        gc.collect()
    print(f"{checked} files checked, {bad} differ, {unsupported} unsupported; "
          f"process time: CPython parse {t_ast:.2f}s, libcst parse {t_cst:.2f}s, built from CPython's tree {t_fast:.2f}s "
          f"({t_fast / max(t_cst, 1e-9):.3f}x libcst)")
    return 1 if bad else 0


def _analysis_difference(f: Path, text: str, real, synth):
    from dataclasses import replace

    from jaxlint.workspace.config import ConfigStore, Overrides
    from jaxlint.engine import analyze
    from jaxlint.model.summary import extract_summary
    from jaxlint.workspace.ruleinfo import load_rule_infos
    from jaxlint.rules import all_rules

    global _SETTINGS
    if _SETTINGS is None:
        store = ConfigStore(load_rule_infos(), Overrides(), f.parent)
        _SETTINGS = replace(store.settings_for(f), module="m", project_packages=frozenset({"m"}))
    out_r: dict = {}
    out_s: dict = {}
    fr = analyze(real, text, str(f), _SETTINGS, all_rules(), None, out_r)
    fs = analyze(synth, text, str(f), _SETTINGS, all_rules(), None, out_s)
    kr = sorted((x.code, x.message) for x in fr)
    ks = sorted((x.code, x.message) for x in fs)
    if [k[0] for k in kr] != [k[0] for k in ks]:
        return f"findings differ: libcst {kr} / built {ks}"
    out_r["summary"] = extract_summary(real, "m", False)
    out_s["summary"] = extract_summary(synth, "m", False)
    if out_r != out_s:
        for k in out_r:
            if out_r.get(k) != out_s.get(k):
                return f"project output differs in {k!r}: libcst {str(out_r.get(k))[:300]} / built {str(out_s.get(k))[:300]}"
        return "project output differs"
    return None


_SETTINGS = None

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
