"""Lint a small project written into a temporary folder, as the recall-mechanism
tests do: ``files`` (relative path -> text) beside an empty ``pyproject.toml``,
``jaxlint check .`` run there; the findings as sorted (code, path, row, column,
message) tuples."""

import json
from pathlib import Path

from click.testing import CliRunner

from jaxlint.cli import cli


def lint_files(root: Path, monkeypatch, files: dict[str, str], *extra: str) -> list[tuple]:
    (root / "pyproject.toml").write_text("")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "json", *extra])
    assert result.exit_code in (0, 1), result.output
    return sorted(
        (f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"])
        for f in json.loads(result.stdout)
    )
