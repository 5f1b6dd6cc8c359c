"""The facts a long-lived front end (the language server) hands the model for a file are
read again when the file changes, and kept once per file: an edit replaces the entry
instead of adding one (the memo grew by one entry per edit)."""
from __future__ import annotations

import os
from pathlib import Path

from jaxlint.workspace.observed import ObservedFacts


def test_one_memo_entry_per_file_however_often_it_is_edited(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text("def f(x):\n    return x\n")
    facts = ObservedFacts(tmp_path / "facts.json", {}, "0" * 64)
    first = facts.for_file(src)
    for n in range(5):
        src.write_text("def f(x):\n    return x\n" + "#\n" * (n + 1))
        os.utime(src, ns=(n + 10**9, n + 10**9))
        assert facts.for_file(src) == first  # no records for it: the same (empty) facts
    assert len(facts._memo) == 1
