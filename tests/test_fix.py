"""The fixer without the command line: passes, overlaps, verification,
imports, atomic writes, encodings, noqa placement."""

from __future__ import annotations

import codecs
import os
import re
import stat
from pathlib import Path

import libcst as cst
import pytest

from jaxlint.fix import fixer
from jaxlint.findings import Applicability, Edit, FileResult, Finding, Fix, Severity
from jaxlint.fix.fixer import SourceFile, add_noqa, fix_text, write_atomic
from jaxlint.engine.fixes import import_edits
from jaxlint.engine.fixes import apply_edits, newline_of
from jaxlint.rules import default_codes
from jaxlint.settings import LintSettings
from jaxlint.engine.suppression import Suppressions, comment_lines

SETTINGS = LintSettings(select=frozenset({"JAX999"}))


def _finding(text: str, start: int, end: int, content: str, code: str = "JAX999",
             applicability: Applicability = Applicability.SAFE) -> Finding:
    """A finding whose fix replaces text[start:end] by content."""
    def pos(off: int) -> tuple[int, int]:
        before = text[:off]
        line = before.count("\n") + 1
        col = off - (before.rfind("\n") + 1) + 1
        return line, col

    (l1, c1), (l2, c2) = pos(start), pos(end)
    return Finding(code, "fake", "fake finding", "t.py", l1, c1, l2, c2, Severity.ERROR,
                   Fix(applicability, f"fix {code}", (Edit(l1, c1, l2, c2, content),)))


@pytest.fixture
def fake_lint(monkeypatch):
    """Replace the linter by a rule that reports every ``(...)`` group
    around a name and fixes it by dropping the parentheses."""
    rules = {"pattern": re.compile(r"\((\w+|\(\w+\))\)"), "content": None}

    def lint_source(text, path, settings, prefilter=True):
        result = FileResult(path=path, parsed=True)
        try:
            cst.parse_module(text)
        except cst.ParserSyntaxError:
            result.findings.append(Finding("JAX001", "syntax-error", "does not parse", path,
                                           1, 1, 1, 1, Severity.ERROR))
            return result
        for m in rules["pattern"].finditer(text):
            content = rules["content"] if rules["content"] is not None else m.group(1)
            result.findings.append(_finding(text, m.start(), m.end(), content))
        return result

    monkeypatch.setattr("jaxlint.lint.linter.lint_source", lint_source)
    return rules


def test_overlapping_fixes_outer_first_then_next_pass(fake_lint) -> None:
    result = fix_text("y = ((x))\nz = (w)\n", "t.py", SETTINGS)
    assert result.text == "y = x\nz = w\n"
    assert result.passes == 2
    # pass 1: the outer group and the other line; pass 2: the inner group
    assert [(a.line, a.col) for a in result.applied] == [(1, 5), (2, 5), (1, 5)]
    assert result.findings == []


def test_fix_that_breaks_the_file_is_refused_and_reported(fake_lint) -> None:
    fake_lint["content"] = "(("
    result = fix_text("y = (x)\n", "t.py", SETTINGS)
    assert result.text == "y = (x)\n"
    assert result.applied == []
    assert len(result.skipped) == 1
    assert result.skipped[0].startswith("fix for JAX999 at 1:5 skipped: would introduce a syntax error")


def test_only_the_bad_fix_of_a_pass_is_dropped(fake_lint, monkeypatch) -> None:
    real = fake_lint["pattern"]
    # `(bad)` is fixed to something that does not parse; `(ok)` is fine
    fake_lint["pattern"] = real

    def lint_source(text, path, settings, prefilter=True):
        result = FileResult(path=path, parsed=True)
        try:
            cst.parse_module(text)
        except cst.ParserSyntaxError:
            result.findings.append(Finding("JAX001", "syntax-error", "x", path, 1, 1, 1, 1,
                                           Severity.ERROR))
            return result
        for m in real.finditer(text):
            content = "(" if m.group(1) == "bad" else m.group(1)
            result.findings.append(_finding(text, m.start(), m.end(), content))
        return result

    monkeypatch.setattr("jaxlint.lint.linter.lint_source", lint_source)
    result = fix_text("a = (ok)\nb = (bad)\nc = (ok2)\n", "t.py", SETTINGS)
    assert result.text == "a = ok\nb = (bad)\nc = ok2\n"
    assert len(result.skipped) == 1 and "at 2:5" in result.skipped[0]


def test_fix_that_introduces_another_finding_is_refused(fake_lint) -> None:
    fake_lint["content"] = "(q) + (r)"  # two findings where there was one
    result = fix_text("y = (x)\n", "t.py", SETTINGS)
    assert result.text == "y = (x)\n"
    assert "would introduce JAX999" in result.skipped[0]


def test_unsafe_fixes_need_unsafe(monkeypatch) -> None:
    def lint_source(text, path, settings, prefilter=True):
        result = FileResult(path=path, parsed=True)
        i = text.find("old")
        if i >= 0:
            result.findings.append(_finding(text, i, i + 3, "new",
                                            applicability=Applicability.UNSAFE))
        return result

    monkeypatch.setattr("jaxlint.lint.linter.lint_source", lint_source)
    assert fix_text("old = 1\n", "t.py", SETTINGS).text == "old = 1\n"
    assert fix_text("old = 1\n", "t.py", SETTINGS, unsafe=True).text == "new = 1\n"


def test_identical_edits_apply_once() -> None:
    imp = Edit(1, 1, 1, 1, "import jax\n")
    text, n = apply_edits("a\nb\n", [(imp, Edit(2, 1, 2, 2, "B")), (imp, Edit(2, 2, 2, 2, "!"))])
    assert text == "import jax\na\nB!\n" and n == 2


def test_inserted_newlines_follow_the_file() -> None:
    assert newline_of("a\r\nb") == "\r\n" and newline_of("a") == "\n"
    text, n = apply_edits("a\r\nb\r\n", [(Edit(2, 1, 2, 2, "b1\nb2"),)])
    assert text == "a\r\nb1\r\nb2\r\n"


@pytest.mark.parametrize("src,expected", [
    ("import numpy\n", "import jax\nimport numpy\n"),
    ('"""Doc."""\nfrom __future__ import annotations\n\n# c\nimport os\n',
     '"""Doc."""\nfrom __future__ import annotations\nimport jax\n\n# c\nimport os\n'),
    ("#!/usr/bin/env python\n# licence\n\nimport os\n",
     "#!/usr/bin/env python\n# licence\n\nimport jax\nimport os\n"),
    ("import jax\n", "import jax\n"),
    ("import jax.numpy\n", "import jax.numpy\n"),
    ("", "import jax\n"),
    ('"""Doc."""\r\n\r\nx = 1\r\n', '"""Doc."""\r\nimport jax\r\n\r\nx = 1\r\n'),
])
def test_needed_import_added_once(src: str, expected: str) -> None:
    edits = import_edits(cst.parse_module(src), [("jax", None)])
    text, _ = apply_edits(src, [edits, edits])  # two fixes need it: added once
    assert text == expected


def test_from_import_needed() -> None:
    src = "from jax import numpy\n"
    edits = import_edits(cst.parse_module(src), [("jax", "debug"), ("jax", "numpy")])
    assert [e.content for e in edits] == ["from jax import debug\n"]


def test_source_file_round_trips_bom_and_encoding(tmp_path: Path) -> None:
    p = tmp_path / "a.py"
    data = codecs.BOM_UTF8 + "s = 'é'\r\n".encode()
    p.write_bytes(data)
    src = SourceFile.read(p)
    assert src.text == "s = 'é'\r\n" and src.bom
    assert src.encode(src.text) == data
    latin = "# -*- coding: latin-1 -*-\ns = 'é'\n".encode("latin-1")
    p.write_bytes(latin)
    src = SourceFile.read(p)
    assert src.encoding == "iso-8859-1" and src.encode(src.text) == latin


def test_atomic_write_keeps_mode_and_never_half_writes(tmp_path: Path, monkeypatch) -> None:
    p = tmp_path / "a.py"
    p.write_text("old\n")
    os.chmod(p, 0o751)
    write_atomic(p, b"new\n", 0o751)
    assert p.read_bytes() == b"new\n" and stat.S_IMODE(os.stat(p).st_mode) == 0o751

    def boom(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(fixer.os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(p, b"newer\n", 0o751)
    assert p.read_bytes() == b"new\n"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["a.py"]  # no temporary left


def _at(line: int, code: str = "JAX101") -> Finding:
    return Finding(code, "n", "m", "t.py", line, 1, line, 2, Severity.ERROR)


def test_add_noqa_merges_and_is_idempotent() -> None:
    text = "a = 1  # noqa: E501\nb = 2  # comment\nc = 3\n"
    new, n = add_noqa(text, [_at(1), _at(2), _at(3), _at(3, "JAX110"), _at(3)])
    assert new == ("a = 1  # noqa: E501, JAX101\nb = 2  # comment  # noqa: JAX101\n"
                   "c = 3  # noqa: JAX101, JAX110\n")
    assert n == 4
    again, n2 = add_noqa(new, [_at(1), _at(2), _at(3), _at(3, "JAX110")])
    assert again == new and n2 == 0
    sup = Suppressions(new)
    assert all(sup.is_suppressed("JAX101", ln) for ln in (1, 2, 3))


def test_add_noqa_goes_where_a_comment_is_allowed() -> None:
    text = 's = f"""\n{x}\n"""\ny = 1 + \\\n    2\nz = 3\r\n'
    assert comment_lines(text) == {1: 3, 2: 3, 4: 5}
    new, n = add_noqa(text, [_at(2), _at(4, "JAX110")])
    assert new == 's = f"""\n{x}\n"""  # noqa: JAX101\ny = 1 + \\\n    2  # noqa: JAX110\nz = 3\r\n'
    compile(new, "t.py", "exec")
    sup = Suppressions(new)
    assert sup.is_suppressed("JAX101", 2) and sup.is_suppressed("JAX110", 4)
    assert not sup.is_suppressed("JAX110", 2)


def test_default_rules_verify_fixes() -> None:
    vs = fixer._verify_settings(SETTINGS)
    assert default_codes() <= vs.select and "JAX001" in vs.select and "JAX999" in vs.select
