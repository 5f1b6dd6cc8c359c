"""Helpers to lint a snippet the way the CLI does."""

from __future__ import annotations

from jaxlint.lint.linter import lint_source
from jaxlint.rules import default_codes
from jaxlint.settings import LintSettings


def lint(code: str, select=None, x64: bool = False, options=()):
    settings = LintSettings(
        select=frozenset(select) if select is not None else default_codes(),
        x64=x64,
        options=tuple(options),
    )
    return lint_source(code, "example.py", settings).findings
