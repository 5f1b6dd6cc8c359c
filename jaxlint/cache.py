"""A content-addressed cache of lint results.

An entry's key is a digest of the file's bytes, the file's ``LintSettings``
fingerprint and the digest of jaxlint's sources (version, rules, model), so an
entry is valid exactly as long as all three are unchanged; nothing is ever
invalidated by hand.  Each entry is one small JSON file under a directory per
source digest and a two-character shard directory, written atomically (temporary file + rename), so concurrent
runs never see a torn entry.  The path is not part of the key: two files with
the same contents share an entry, and the findings are re-labelled on load.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Optional

from jaxlint.atomic import write_atomic
from jaxlint.findings import FileResult, Finding
from jaxlint.settings import LintSettings

DEFAULT_CACHE_DIR_NAME = ".jaxlint_cache"
_FORMAT = "v1"

def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _current_umask()

_CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by jaxlint.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)


def atomic_write_text(path: Path, text: str) -> None:
    """Write a cache file atomically (no fsync: a lost entry is only a miss)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, text.encode("utf-8"), 0o644 & ~_UMASK, durable=False)


def is_jaxlint_cache(cache_dir: Path) -> bool:
    """Whether ``cache_dir`` is a directory jaxlint created (its CACHEDIR.TAG says so)."""
    try:
        return "created by jaxlint" in (cache_dir / "CACHEDIR.TAG").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False


def prepare_cache_dir(cache_dir: Path) -> None:
    """Create the cache directory with a CACHEDIR.TAG and a catch-all .gitignore.

    An existing non-empty directory that jaxlint did not create (``--cache-dir .``)
    is used as it is: writing a ``*`` .gitignore there would hide a project from git.
    """
    if cache_dir.is_dir() and any(cache_dir.iterdir()) and not is_jaxlint_cache(cache_dir):
        return
    cache_dir.mkdir(parents=True, exist_ok=True)
    tag = cache_dir / "CACHEDIR.TAG"
    if not tag.exists():
        tag.write_text(_CACHEDIR_TAG, encoding="utf-8")
    ignore = cache_dir / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# Automatically created by jaxlint.\n*\n", encoding="utf-8")


def clean_cache(cache_dir: Path) -> bool:
    """Remove the cache directory; True when there was one.

    Raises ``OSError`` rather than delete a directory that jaxlint did not
    create (a mistyped ``--cache-dir`` must never cost anyone their files).
    """
    if not cache_dir.exists():
        return False
    if not cache_dir.is_dir() or not is_jaxlint_cache(cache_dir):
        raise OSError(f"{cache_dir} is not a jaxlint cache (no jaxlint CACHEDIR.TAG); not removed")
    shutil.rmtree(cache_dir)
    return True


class Cache:
    """Lint results stored under ``cache_dir``, keyed by content and settings."""

    def __init__(self, cache_dir: Path, rules_digest: str) -> None:
        self.dir = Path(cache_dir)
        self.rules_digest = rules_digest
        self._prepared = False
        self.hits = 0
        self.misses = 0

    def key(self, data: bytes, settings: LintSettings) -> str:
        h = hashlib.sha256(data)
        h.update(b"\0" + settings.fingerprint().encode())
        h.update(b"\0" + self.rules_digest.encode())
        return h.hexdigest()

    def _entry(self, key: str) -> Path:
        # entries of other jaxlint sources live in sibling directories; `clean` drops them
        return self.dir / _FORMAT / self.rules_digest / key[:2] / f"{key}.json"

    def get(self, key: str, path: str) -> Optional[FileResult]:
        """The cached result for ``key``, re-labelled with ``path``; None on a miss."""
        try:
            raw = self._entry(key).read_text(encoding="utf-8")
            data = json.loads(raw)
            findings = []
            for item in data["findings"]:
                item["filename"] = path
                findings.append(Finding.from_dict(item))
            result = FileResult(
                path=path,
                findings=findings,
                error=data.get("error"),
                parsed=bool(data.get("parsed")),
                from_cache=True,
                project=data.get("project"),
            )
        except (OSError, ValueError, KeyError, TypeError):
            self.misses += 1
            return None
        self.hits += 1
        return result

    def put(self, key: str, result: FileResult) -> None:
        """Store ``result`` (best effort: an unwritable cache only costs speed)."""
        payload = {
            "findings": [f.to_dict() for f in result.findings],
            "error": result.error,
            "parsed": result.parsed,
        }
        if result.project is not None:
            payload["project"] = result.project
        try:
            if not self._prepared:
                prepare_cache_dir(self.dir)
                self._prepared = True
            atomic_write_text(self._entry(key), json.dumps(payload, separators=(",", ":")))
        except OSError:
            pass
