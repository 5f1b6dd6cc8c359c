"""bench/recall: the real-bug recall set loads, its labels point at their lines, and the
scorer matches findings to labels by file, line and code family.

Running the cases with JAX is bench/recall/check.py's job (minutes); these tests only read
the files.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

RECALL = Path(__file__).resolve().parent.parent / "bench" / "recall"
sys.path.insert(0, str(RECALL))

import cases_lib  # noqa: E402
import score  # noqa: E402

LIBS = ("import flax", "from flax", "import optax", "import equinox", "import haiku")


def _finding(code: str, file: str, row: int) -> dict:
    return {"code": code, "filename": file, "location": {"row": row, "column": 1}, "message": ""}


def test_every_case_loads_and_its_labels_hold_their_text():
    cases = cases_lib.load_cases()
    assert len(cases) >= 120
    assert all(c.source.startswith("https://") for c in cases)
    assert all(c.labels for c in cases if c.status == "INVALID")
    assert not any(c.labels for c in cases if c.status == "VALID")
    per_concept = Counter(c.concept for c in cases)
    assert sum(n >= 8 for n in per_concept.values()) >= 6
    richer = [
        c for c in cases
        if c.layout == "project"
        or any(lib in (c.path / f).read_text() for f in c.py_files() for lib in LIBS)
    ]
    assert len(richer) >= 20


def _write_case(tmp_path: Path, line: int, text: str) -> Path:
    d = tmp_path / "001-x"
    d.mkdir()
    (d / "main.py").write_text("import jax\n\nkey = jax.random.key(0)\n")
    (d / "case.toml").write_text(
        'source = "https://example.org/t"\nconcept = "key-reuse"\nstatus = "INVALID"\n'
        'layout = "file"\nentry = "main.py"\n\n[check]\nexpect = "runs"\n\n'
        f'[[label]]\nfile = "main.py"\nline = {line}\ntext = "{text}"\ncodes = ["JAX301"]\n'
    )
    return d


def test_a_label_whose_line_moved_is_refused_with_one_line(tmp_path):
    assert cases_lib.load_case(_write_case(tmp_path, 3, "key = jax")).labels[0].line == 3
    (tmp_path / "001-x" / "case.toml").unlink()
    (tmp_path / "001-x" / "main.py").unlink()
    (tmp_path / "001-x").rmdir()
    with pytest.raises(cases_lib.CaseError) as err:
        cases_lib.load_case(_write_case(tmp_path, 2, "key = jax"))
    assert str(err.value) == (
        "001-x: label main.py:2 does not hold 'key = jax' (the file changed: fix the label's line)"
    )


def test_findings_match_labels_by_file_line_and_family():
    case = cases_lib.Case(
        name="c", path=Path("."), source="https://example.org", concept="tracer-bool",
        status="INVALID", layout="project", entry="a.py", expect="runs", match="",
        labels=[cases_lib.Label("pkg/a.py", 7, "if x:", ["JAX201"]),
                cases_lib.Label("a.py", 3, "jax.tree_map(", ["JAX901"])],
    )
    found, extra = score.match(case, [
        _finding("JAX202", "./pkg/a.py", 7),   # same family as JAX201: matches
        _finding("JAX902", "a.py", 3),         # API-history family: matches
        _finding("JAX301", "pkg/a.py", 7),     # right line, other family: extra
        _finding("JAX201", "pkg/a.py", 8),     # other line: extra
    ])
    assert found == [True, True]
    assert [(f["code"], f["location"]["row"]) for f in extra] == [("JAX301", 7), ("JAX201", 8)]


def test_a_short_number_selects_a_batch_of_cases_by_hundreds(tmp_path, monkeypatch):
    for name in ("017-a", "100-f", "109-g", "200-b", "201-c", "210-d", "1000-h", "1099-i",
                 "2000-e"):
        d = tmp_path / name
        d.mkdir()
        (d / "main.py").write_text("x = 1\n")
        (d / "case.toml").write_text(
            'source = "https://example.org/t"\nconcept = "key-reuse"\nstatus = "VALID"\n'
            'layout = "file"\nentry = "main.py"\n\n[check]\nexpect = "runs"\n'
        )
    monkeypatch.setattr(cases_lib, "CASES", tmp_path)
    names = lambda sel: [c.name for c in cases_lib.load_cases(sel)]  # noqa: E731
    # N selects the cases whose number // 100 == N, not a name prefix
    assert names(["2"]) == ["200-b", "201-c", "210-d"]
    assert names(["20"]) == ["2000-e"]
    assert names(["1"]) == ["100-f", "109-g"]
    assert names(["10"]) == ["1000-h", "1099-i"]
    assert names(["0"]) == ["017-a"]
    assert names(["1000"]) == ["1000-h"]         # four digits: that case only
    assert names(["017"]) == ["017-a"]          # three digits: that case only
    assert names(["201", "017-a"]) == ["017-a", "201-c"]
    with pytest.raises(SystemExit):
        cases_lib.load_cases(["3"])
