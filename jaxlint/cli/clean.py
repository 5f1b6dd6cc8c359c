"""``jaxlint clean``: remove the cache."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import click

from jaxlint.cli.app import EXIT_ERROR, cli, error
from jaxlint.workspace.config import ConfigError, cache_dir_for


# ----------------------------------------------------------------------------- clean


@cli.command("clean")
@click.option("--cache-dir", type=click.Path(file_okay=False), envvar="JAXLINT_CACHE_DIR",
              help="The cache directory to remove.")
@click.option("--config", type=click.Path(dir_okay=False), help="Configuration file to read cache-dir from.")
def clean_command(cache_dir: Optional[str], config: Optional[str]) -> None:
    """Remove the cache directory."""
    from jaxlint.cache import clean_cache

    try:
        target = cache_dir_for(Path.cwd(), cache_dir, Path(config) if config else None)
    except ConfigError as exc:
        error(str(exc))
        sys.exit(EXIT_ERROR)
    try:
        removed = clean_cache(target)
    except OSError as exc:
        error(f"{target}: cannot be removed ({exc.strerror or exc})" if exc.strerror else str(exc))
        sys.exit(EXIT_ERROR)
    click.echo(f"Removed cache at {target}" if removed else f"No cache at {target}")
