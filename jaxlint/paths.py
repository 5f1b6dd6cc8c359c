"""A path's real location that a folder renamed or swapped for a link while it
is resolved cannot turn into a traceback."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Union


def resolved(path: Union[str, "os.PathLike[str]"]) -> Path:
    """``Path(path).resolve()``, except that a link removed between the moment
    it is seen and the moment it is read (os.path.realpath raises then, even
    when not strict) is retried twice, then answered with the absolute path as
    written: the caller meets the missing file, if it is missing, where it
    reads it, and says so in its own words."""
    for _ in range(3):
        try:
            return Path(path).resolve()
        except OSError:
            continue
    return Path(os.path.abspath(path))


def test_module(path: str) -> bool:
    """A test module (``test_*.py``, ``*_test.py``, ``conftest.py``): its helpers make
    inputs from a fixed seed so that every test sees the same ones, on purpose, and what
    it sets for itself (`config.N = 2`) is not what the project's own code runs with."""
    base = path.replace("\\", "/").rsplit("/", 1)[-1]
    return base == "conftest.py" or base.startswith("test_") or base.endswith(("_test.py", "_test.ipynb"))
