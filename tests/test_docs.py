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


def test_seed_map_names_real_rules_and_covers_every_default_rule():
    """docs/seed-map.md (inlined into docs/rules/README.md) must not drift from the rules."""
    import re
    from pathlib import Path

    from jaxlint.rules import all_rules

    text = (Path(__file__).resolve().parent.parent / "docs" / "seed-map.md").read_text()
    mentioned = set(re.findall(r"JAX\d{3}", text))
    codes = {r.code for r in all_rules()}
    assert mentioned <= codes, f"unknown codes in the seed map: {sorted(mentioned - codes)}"
    # (the engine's own rules, JAX001 syntax-error and JAX002 unknown-noqa-code, come from no seed)
    default = {r.code for r in all_rules() if r.default_enabled and r.seed != "(engine)"}
    assert default <= mentioned, f"rules missing from the seed map: {sorted(default - mentioned)}"
