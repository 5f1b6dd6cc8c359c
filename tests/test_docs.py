"""The rule documentation pages are generated and committed up to date."""

from __future__ import annotations

from pathlib import Path

from jaxlint.docs import DEFAULT_OUT_DIR, generate_docs, main, render_rule_markdown, stale_docs
from jaxlint.rules import all_rules


def test_committed_docs_are_up_to_date() -> None:
    problems = stale_docs(DEFAULT_OUT_DIR)
    assert problems == [], "run `python -m jaxlint.docs`:\n" + "\n".join(problems)


def test_page_structure() -> None:
    for rule in all_rules():
        page = render_rule_markdown(rule)
        assert page.startswith(f"# {rule.name} ({rule.code})\n")
        assert "Severity:" in page
        assert ("## Options" in page) == bool(rule.options_doc.strip())
        if rule.what_it_does:
            assert "## What it does" in page


def test_generate_and_check(tmp_path: Path) -> None:
    out = tmp_path / "rules"
    generate_docs(out)
    assert (out / "README.md").is_file()
    assert main(["--check", "--out", str(out)]) == 0
    (out / "JAX001.md").write_text("stale\n")
    (out / "JAX999.md").write_text("gone\n")
    assert main(["--check", "--out", str(out)]) == 1
    assert main(["--out", str(out)]) == 0
    assert not (out / "JAX999.md").exists()
    assert main(["--check", "--out", str(out)]) == 0
