"""``jaxlint rules`` (every rule) and ``jaxlint rule CODE`` (one rule's documentation)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from jaxlint import __version__
from jaxlint.cli.app import EXIT_ERROR, cli, error
from jaxlint.workspace.config import ConfigError


# ----------------------------------------------------------------------------- rules


@cli.command("rules")
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def rules_command(output_format: str) -> None:
    """List every rule: code, name, default, fix availability, summary."""
    from jaxlint.rules import all_rules

    rules = all_rules()
    if output_format == "json":
        import json

        from jaxlint.workspace.config import find_config_file, load_config

        try:  # a rule's address only where the project configures one (docs-url)
            found = find_config_file(Path.cwd())
            docs_url = load_config(found).docs_url if found else None
        except ConfigError as exc:
            error(str(exc))
            sys.exit(EXIT_ERROR)

        data = [
            {
                "code": r.code,
                "name": r.name,
                "summary": r.summary,
                "severity": getattr(r.severity, "value", str(r.severity)),
                "default_enabled": r.default_enabled,
                "fix_availability": r.fix_availability,
                "seed": r.seed,
                "url": docs_url.replace("{code}", r.code) if docs_url else None,
            }
            for r in rules
        ]
        click.echo(json.dumps(data, indent=2))
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    count = f"{len(rules)} rule{'s' if len(rules) != 1 else ''}"
    from rich import box

    # piped or redirected: 80 columns (what `less` and a file viewer show) unless COLUMNS
    # says otherwise; `--output-format json` is the form for programs
    width = None if sys.stdout.isatty() else _columns()
    console = Console(file=sys.stdout, highlight=False, soft_wrap=False, width=width)
    narrow = console.width < 120
    table = Table(box=box.SIMPLE_HEAD if narrow else box.HEAVY_HEAD, pad_edge=not narrow)
    table.add_column("Code", style="bold", no_wrap=True)
    table.add_column("Name", overflow="fold", min_width=12)
    table.add_column("On" if narrow else "Default", no_wrap=True)
    table.add_column("Fix", no_wrap=True)
    table.add_column("Summary", ratio=1, min_width=24, overflow="fold")
    for r in rules:
        table.add_row(Text(r.code), Text(r.name), "on" if r.default_enabled else "off",
                      Text(r.fix_availability), Text(r.summary))
    console.print(Text(f"jaxlint {__version__}: {count}"))
    console.print(table)


@cli.command("rule")
@click.argument("code")
@click.option("--output-format", type=click.Choice(["text", "markdown", "json"]), default="text",
              show_default=True, help="text renders the Markdown for the terminal.")
def rule_command(code: str, output_format: str) -> None:
    """Show the documentation of one rule (by code or name)."""
    from jaxlint.docs import render_rule_markdown, rule_source
    from jaxlint.rules import get_rule

    rule = get_rule(code)
    if rule is None:
        from jaxlint.rules import all_rules
        from jaxlint.workspace.ruleinfo import did_you_mean

        error(f"unknown rule '{code}'{did_you_mean(all_rules(), code)} (see `jaxlint rules`)")
        sys.exit(EXIT_ERROR)
    text = render_rule_markdown(rule)
    if output_format == "markdown":
        click.echo(text, nl=False)
    elif output_format == "json":
        import json

        click.echo(json.dumps({
            "code": rule.code,
            "name": rule.name,
            "summary": rule.summary,
            "severity": getattr(rule.severity, "value", str(rule.severity)),
            "default_enabled": rule.default_enabled,
            "fix_availability": rule.fix_availability,
            "source": rule_source(rule),
            "explanation": text,
        }, indent=2))
    else:
        from rich.console import Console
        from rich.markdown import Markdown

        Console(file=sys.stdout).print(Markdown(text))


def _columns() -> int:
    """The width of output that is not a terminal: ``$COLUMNS``, else 80."""
    try:
        return max(int(os.environ.get("COLUMNS") or 80), 20)
    except ValueError:
        return 80
