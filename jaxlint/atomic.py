"""Atomic file writes: readers see the old file or the new one, never half of it."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Optional


def write_atomic(
    path: Path, data: bytes, mode: Optional[int] = None, *, durable: bool = True
) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it over
    ``path``.  ``mode`` sets the permission bits; ``durable`` fsyncs first (for
    user files; the cache skips it)."""
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".jaxlint-tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
