"""Configuration discovery, layering and errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from jaxlint.cli import cli
from jaxlint.workspace.config import ConfigError, ConfigStore, Overrides, find_config_file, load_config
from jaxlint.workspace.ruleinfo import RuleInfo, expand_selector, load_rule_infos
from jaxlint.rules import expand_selector as registry_expand

BAD = "import jax\ndef f(:\n"


def _infos():
    return load_rule_infos()


def _invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_pyproject_without_table_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    sub = tmp_path / "sub"
    sub.mkdir()
    assert find_config_file(sub) is None
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\nx64 = true\n")
    assert find_config_file(sub) == tmp_path / "pyproject.toml"
    (sub / "jaxlint.toml").write_text("x64 = false\n")
    assert find_config_file(sub / "a.py") == sub / "jaxlint.toml"


def test_load_all_keys(tmp_path: Path) -> None:
    cfg_path = tmp_path / "jaxlint.toml"
    cfg_path.write_text(
        'select = ["ALL"]\nignore = []\nextend-select = ["JAX001"]\n'
        'per-file-ignores = {"tests/*" = ["JAX001"]}\nexclude = ["gen/"]\n'
        'extend-exclude = ["*_pb2.py"]\nx64 = true\nrespect-gitignore = false\n'
        'max-unrolled-loop = 32\ncache-dir = "cachehere"\n'
    )
    cfg = load_config(cfg_path)
    assert cfg.select == ["ALL"] and cfg.x64 and not cfg.respect_gitignore
    assert cfg.options == {"max-unrolled-loop": 32}
    assert cfg.per_file_ignores == {"tests/*": ["JAX001"]}
    store = ConfigStore(_infos(), Overrides(), cwd=tmp_path)
    s = store.settings_for(tmp_path / "a.py")
    assert s.x64 and s.option("max-unrolled-loop", 0) == 32 and "JAX001" in s.select
    assert "JAX001" not in store.settings_for(tmp_path / "tests" / "t.py").select


@pytest.mark.parametrize(
    "text, needle",
    [
        ("[tool.jaxlint]\nbogus = 1\n", "unknown key 'bogus'"),
        ("[tool.jaxlint]\nextend_select = ['JAX001']\n", "did you mean 'extend-select'"),
        ("[tool.jaxlint]\nx64 = 'yes'\n", "key 'x64' must be a boolean"),
        ("[tool.jaxlint]\nselect = 'JAX001'\n", "key 'select' must be a list"),
        ("[tool.jaxlint]\nmax-unrolled-loop = 0\n", "key 'max-unrolled-loop' must be a positive integer"),
        ("[tool.jaxlint]\nselect = ['JAX999']\n", "unknown rule selector 'JAX999' in 'select'"),
        ("[tool.jaxlint]\nper-file-ignores = {'a.py' = ['NOPE']}\n", "unknown rule selector 'NOPE'"),
        ("[tool.jaxlint\nselect = [\n", "invalid TOML"),
    ],
)
def test_config_errors_exit_2_with_one_line(tmp_path: Path, monkeypatch, text: str, needle: str) -> None:
    (tmp_path / "pyproject.toml").write_text(text)
    (tmp_path / "a.py").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    result = _invoke("check", "a.py")
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert needle in lines[0]
    assert "pyproject.toml" in lines[0]
    assert result.stdout == ""


def test_unknown_cli_code_is_an_error(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text(BAD)
    result = _invoke("check", "--select", "JAX001,XYZ1", "a.py")
    assert result.exit_code == 2
    assert "unknown rule selector 'XYZ1' in '--select'" in result.stderr


def test_cli_layering(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "jaxlint.toml").write_text('ignore = ["JAX001"]\n')
    (tmp_path / "a.py").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    assert _invoke("check", "--no-cache", "a.py").exit_code == 0
    # --select on the command line replaces the configured selection
    assert _invoke("check", "--no-cache", "--select", "JAX001", "a.py").exit_code == 1
    assert _invoke("check", "--no-cache", "--extend-select", "syntax-error", "a.py").exit_code == 1
    assert _invoke("check", "--no-cache", "--select", "ALL", "--ignore", "JAX0", "a.py").exit_code == 0


def test_explicit_config_and_per_file_ignores(tmp_path: Path, monkeypatch) -> None:
    conf = tmp_path / "conf" / "custom.toml"
    conf.parent.mkdir()
    conf.write_text('[tool.jaxlint]\n', encoding="utf-8")
    (tmp_path / "a.py").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    # a custom file name is read as a flat table
    flat = tmp_path / "flat.toml"
    flat.write_text('per-file-ignores = {"a.py" = ["JAX001"]}\n')
    result = _invoke("check", "--no-cache", "--config", str(flat), "a.py")
    assert result.exit_code == 0, result.output


def test_nested_config_applies_to_its_directory(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\n")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "jaxlint.toml").write_text('ignore = ["JAX001"]\n')
    (tmp_path / "a.py").write_text(BAD)
    (sub / "b.py").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    result = _invoke("check", "--no-cache", "--output-format", "concise", ".")
    assert result.exit_code == 1
    assert "a.py" in result.stdout and "b.py" not in result.stdout


def test_selector_mirror_matches_registry() -> None:
    infos = _infos()
    assert all(isinstance(i, RuleInfo) for i in infos)
    for sel in ["ALL", "all", "JAX", "JAX0", "JAX001", "jax001", "syntax-error", "JAX9", "nope", " JAX001 "]:
        assert expand_selector(infos, sel) == registry_expand(sel), sel


def test_config_error_type() -> None:
    with pytest.raises(ConfigError):
        load_config(Path("/nonexistent/jaxlint.toml"))


def test_every_problem_of_a_config_is_reported_in_one_run(tmp_path: Path, monkeypatch) -> None:
    """A misspelt key and two unknown rules: three lines, one run (only the first
    was reported, so each fix met the next error)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint]\nselct = ["JAX1"]\nextend-select = ["JAX777"]\nignore = ["JAX888", "JAX101"]\n')
    (tmp_path / "a.py").write_text("x = 1\n")
    r = CliRunner().invoke(cli, ["check", "--no-cache", "."])
    cfg = tmp_path.resolve() / "pyproject.toml"
    assert r.exit_code == 2
    assert r.output == (
        f"error: {cfg}: [tool.jaxlint] unknown key 'selct' (did you mean 'select'?); expected one of: "
        "select, ignore, extend-select, per-file-ignores, exclude, extend-exclude, include, "
        "extend-include, x64, respect-gitignore, max-unrolled-loop, cache-dir, src, baseline, "
        "observed, docs-url, runtime\n"
        f"error: {cfg}: unknown rule selector 'JAX777' in 'extend-select'\n"
        f"error: {cfg}: unknown rule selector 'JAX888' in 'ignore'\n"
    )
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nextend-select = ["JAX777"]\nignore = ["JAX888"]\n')
    r = CliRunner().invoke(cli, ["check", "--no-cache", ".", "--ignore", "JAX999"])
    assert r.exit_code == 2
    assert r.output == (
        f"error: {cfg}: unknown rule selector 'JAX777' in 'extend-select'\n"
        f"error: {cfg}: unknown rule selector 'JAX888' in 'ignore'\n"
        "error: command line: unknown rule selector 'JAX999' in '--ignore'\n"
    )
