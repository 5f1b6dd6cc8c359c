"""Lint a small project written into a temporary folder, as the recall-mechanism
tests do: ``files`` (relative path -> text, dedented with ``dedent=True``) beside an
empty ``pyproject.toml``, ``jaxlint check .`` run there (``extra`` options, then
``--select select``); the findings as sorted (code, path, row, column, message) tuples."""

import json
import textwrap
from pathlib import Path

from click.testing import CliRunner

from jaxlint.cli import cli


def lint_files(root: Path, monkeypatch, files: dict[str, str], *extra: str, select: str = "",
               dedent: bool = False) -> list[tuple]:
    (root / "pyproject.toml").write_text("")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text) if dedent else text)
    monkeypatch.chdir(root)
    args = ["check", ".", "--no-cache", "--output-format", "json", *extra]
    if select:
        args += ["--select", select]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code in (0, 1), result.output
    return sorted(
        (f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"])
        for f in json.loads(result.stdout)
    )
