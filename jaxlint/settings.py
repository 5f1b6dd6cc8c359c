"""The settings one file is linted with (resolved from config and command line)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Optional


@dataclass(frozen=True)
class LintSettings:
    # rule codes enabled for this file (after select/ignore/per-file-ignores)
    select: frozenset[str]
    # the project enables jax_enable_x64 at start-up ([tool.jaxlint] x64 = true)
    x64: bool = False
    # rule options, e.g. {"max-unrolled-loop": 64}; kept sorted for hashing
    options: tuple[tuple[str, object], ...] = field(default_factory=tuple)
    # --- the project-wide model (set by the project driver; empty for one file alone)
    module: Optional[str] = None  # this file's module name in its project
    is_package: bool = False  # an __init__.py
    project_packages: frozenset[str] = frozenset()  # the project's top-level module names
    facts: str = ""  # what other modules know of this file's functions (canonical JSON)
    summarize: bool = False  # analyse even without a JAX import (a project helper module)
    # `check --observed`: what `jaxlint observe` saw this file's functions do, as canonical
    # JSON with the facts file's content hash (jaxlint/workspace/observed.py); "" when off
    observed: str = ""

    def option(self, name: str, default: object) -> object:
        for key, value in self.options:
            if key == name:
                return value
        return default

    def fingerprint(self) -> str:
        """A stable digest of everything that changes lint output (for the cache)."""
        h = hashlib.sha256()
        h.update(",".join(sorted(self.select)).encode())
        h.update(b"x64" if self.x64 else b"-")
        h.update(repr(sorted(self.options, key=lambda kv: kv[0])).encode())
        if self.module is not None:
            h.update(f"\0{self.module}\0{self.is_package}\0{','.join(sorted(self.project_packages))}\0".encode())
            h.update(self.facts.encode())
            h.update(b"S" if self.summarize else b"-")
        if self.observed:
            h.update(b"\0observed\0" + self.observed.encode())
        return h.hexdigest()[:16]
