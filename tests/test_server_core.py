"""The language server's logic without a client (jaxlint.server.core)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("lsprotocol", reason="the [lsp] extra is not installed")

from lsprotocol import types  # noqa: E402

from jaxlint.findings import Applicability, Edit, Finding, Fix, Severity  # noqa: E402
from jaxlint.workspace.ruleinfo import load_rule_infos  # noqa: E402
from jaxlint.server import core  # noqa: E402
from jaxlint.settings import LintSettings  # noqa: E402


def finding(code="JAX101", line=1, col=1, end_line=1, end_col=2, fix=None) -> Finding:
    return Finding(code=code, name="n", message="m", path="p.py", line=line, col=col,
                   end_line=end_line, end_col=end_col, severity=Severity.ERROR, fix=fix)


def P(line, char):
    return types.Position(line, char)


def test_positions_count_utf16_utf8_utf32():
    text = "a = '\U0001F600é'; b\r\nx\ry\n"
    for enc, char in (("utf-16", 11), ("utf-8", 14), ("utf-32", 10)):
        pos = core.Positions(text, enc)
        assert pos.position(1, 11) == P(0, char)  # the `b` after the emoji and é
        assert pos.column(P(0, char)) == 11
        assert pos.at_offset(10) == P(0, char)
    pos = core.Positions(text)
    assert pos.position(2, 1) == P(1, 0) and pos.position(3, 2) == P(2, 1)
    assert pos.at_offset(text.index("y")) == P(2, 0)
    assert pos.position(9, 1) == P(3, 0)  # past the end: the end of the text
    assert pos.column(P(0, 99)) == 12  # clamped to the line


def test_syntax_error_range_covers_the_character():
    pos = core.Positions("f(:\n")
    f = finding("JAX001", 1, 3, 1, 3)
    assert pos.finding_range(f) == types.Range(P(0, 2), P(0, 3))
    at_end = finding("JAX001", 1, 4, 1, 4)
    assert pos.finding_range(at_end) == types.Range(P(0, 3), P(0, 3))


def test_diff_edit_is_minimal_and_keeps_crlf_pairs():
    pos = core.Positions("a\r\nb\r\n")
    assert core.diff_edit("a\r\nb\r\n", "a\r\nb\r\n", pos) is None
    edit = core.diff_edit("a\r\nb\r\n", "a\r\nc\r\n", pos)
    assert edit == types.TextEdit(range=types.Range(P(1, 0), P(1, 1)), new_text="c")
    edit = core.diff_edit("a\r\nb\r\n", "a\nb\r\n", pos)  # never half a \r\n
    assert edit == types.TextEdit(range=types.Range(P(0, 1), P(1, 0)), new_text="\n")


def test_noqa_edit_merges_and_respects_a_bare_noqa():
    text = "x = 1  # noqa: JAX999\ny = 2  # noqa\nz = 3\n"
    pos = core.Positions(text)
    assert core.noqa_edit(finding("JAX101", 1), text, pos) == types.TextEdit(
        range=types.Range(P(0, 21), P(0, 21)), new_text=", JAX101")
    assert core.noqa_edit(finding("JAX101", 2), text, pos) is None
    assert core.noqa_edit(finding("JAX101", 3), text, pos) == types.TextEdit(
        range=types.Range(P(2, 5), P(2, 5)), new_text="  # noqa: JAX101")
    assert core.noqa_edit(finding("JAX001", 3), text, pos) is None


def test_fix_edits_use_the_file_newline():
    text = "import jax\r\ny = 1\r\n"
    fix = Fix(Applicability.SAFE, "add import",
              (Edit(2, 1, 2, 1, "import numpy\n"), Edit(2, 5, 2, 6, "2")))
    f = finding("JAX130", 2, 1, 2, 6, fix)
    pos = core.Positions(text)
    diag = core.diagnostic(f, pos, "file:///p.py")
    action = core.fix_action(f, text, pos, "file:///p.py", 3, diag, versioned=True)
    (change,) = action.edit.document_changes
    assert change.text_document.version == 3
    assert change.edits == [
        types.TextEdit(range=types.Range(P(1, 0), P(1, 0)), new_text="import numpy\r\n"),
        types.TextEdit(range=types.Range(P(1, 4), P(1, 5)), new_text="2"),
    ]
    assert diag.data == {"code": "JAX130", "fix": "safe"}


def test_client_settings_shapes_and_problems():
    parse = core.ClientSettings.parse
    assert parse(None) == (core.ClientSettings(), [])
    ruff_like = {"settings": {"lint": {"select": ["JAX1"], "extendSelect": "JAX950, JAX122",
                                       "ignore": ["JAX101"]}, "configuration": "cfg.toml"}}
    assert parse(ruff_like) == (core.ClientSettings(
        select=("JAX1",), ignore=("JAX101",), extend_select=("JAX950", "JAX122"),
        configuration="cfg.toml"), [])
    assert parse({"jaxlint": {"extend-select": ["JAX950"], "other": 1}}) == (
        core.ClientSettings(extend_select=("JAX950",)), [])
    assert parse({"ignore": 3})[1] == ["jaxlint setting 'ignore' must be a list of rule codes, got 3"]
    assert parse([1])[1] == ["jaxlint settings must be an object, got list"]
    infos = load_rule_infos()
    settings, problems = core.ClientSettings(select=("JAX3", "nope"), ignore=("JAX9xx",)).validated(infos)
    assert settings == core.ClientSettings(select=("JAX3",), ignore=())
    assert problems == ["jaxlint settings: unknown rule selector 'nope' in 'select'",
                        "jaxlint settings: unknown rule selector 'JAX9xx' in 'ignore'"]
    # a typo in every selector of `select` would select nothing (clean-looking files): the
    # project's selection applies instead, and the client is told
    settings, problems = core.ClientSettings(select=("JAX1O1",)).validated(infos)
    assert settings == core.ClientSettings(select=None)
    assert problems == ["jaxlint settings: unknown rule selector 'JAX1O1' in 'select'",
                        "jaxlint settings: no known rule selector in 'select': the project's selection applies"]


def test_settings_resolver_finds_the_nearest_config(tmp_path: Path):
    (tmp_path / "a").mkdir()
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nignore = ["JAX101"]\n')
    (tmp_path / "a" / "jaxlint.toml").write_text('extend-select = ["JAX950"]\n')
    infos = load_rule_infos()
    resolver = core.SettingsResolver(infos, [tmp_path])
    top = resolver.settings_for(tmp_path / "m.py").select
    inner = resolver.settings_for(tmp_path / "a" / "m.py").select
    assert "JAX101" not in top and "JAX950" not in top
    assert "JAX101" in inner and "JAX950" in inner  # the nearest file wins, as in the CLI
    resolver.set_client(core.ClientSettings(ignore=("JAX950",)))
    assert "JAX950" not in resolver.settings_for(tmp_path / "a" / "m.py").select
    assert resolver.root_for(tmp_path / "a" / "m.py") == tmp_path.resolve()


def test_a_failing_rule_is_skipped(monkeypatch):
    from jaxlint.rules import all_rules

    (rule,) = [r for r in all_rules() if r.code == "JAX901"]

    def boom(self, *args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(rule.check_class(), "__init__", boom)  # the check that reports JAX901
    text = "import jax\nimport jax.numpy as jnp\nx = jnp.zeros(3)\nx[0] = 1\ny = jax.tree_map(f, x)\n"
    settings = LintSettings(select=frozenset({"JAX101", "JAX901"}))
    outcome = core.lint_text(text, "p.py", settings)
    assert [f.code for f in outcome.result.findings] == ["JAX101"]
    assert [code for code, _ in outcome.failed_rules] == ["JAX901"]
    assert "RuntimeError: boom" in outcome.failed_rules[0][1]


def test_rule_page_only_where_it_exists():
    page = core.rule_page("JAX101")
    assert page is not None and page.name == "JAX101.md" and page.is_file()
    assert core.rule_page("JAX000") is None


def test_hover_on_jaxlint_ignore_and_kinds():
    infos = load_rule_infos()
    text = "x = 1  # jaxlint: ignore[JAX101]\n"
    hover = core.noqa_hover(text, P(0, 27), infos)
    assert hover.range == types.Range(P(0, 25), P(0, 31))
    assert hover.contents.value.startswith("**JAX101** `inplace-array-update`")
    assert core.noqa_hover(text, P(0, 3), infos) is None
    assert core.kind_wanted("source.fixAll.jaxlint", ["source.fixAll"])
    assert core.kind_wanted("source.fixAll.jaxlint", ["source"])
    assert not core.kind_wanted("quickfix", ["source.fixAll"])
    assert core.kind_wanted("quickfix", None)
