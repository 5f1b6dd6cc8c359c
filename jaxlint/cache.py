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
import re
import shutil
import stat
from pathlib import Path
from typing import Optional

from jaxlint.atomic import write_atomic
from jaxlint.findings import Applicability, FileResult, Finding, Severity
from jaxlint.settings import LintSettings

DEFAULT_CACHE_DIR_NAME = ".jaxlint_cache"
# v2: an entry is the result's JSON, then on a second line the project output's
# (read only when the project driver needs it); project snapshots under projects/
_FORMAT = "v2"

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


MAX_ENTRY_BYTES = 64 * 1024 * 1024  # far above any real entry; a bound on what a bad one can cost
# the bytes ``Cache.key`` keeps for its memo: the language server keeps one Cache for
# its life, and each refresh reads the files on disk again (new bytes, new facts)
KEY_MEMO_BYTES = 256 * 1024 * 1024


class _BadEntry(Exception):
    pass


def _read_regular(path: Path) -> bytes:
    """The bytes of ``path`` if it is a regular file (not a link, a pipe, a
    device) of at most ``MAX_ENTRY_BYTES``; raises ``_BadEntry`` otherwise.
    Never blocks: a named pipe is opened non-blocking and refused."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as exc:  # a link (ELOOP), a directory, no permission
        raise _BadEntry(str(exc)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_ENTRY_BYTES:
            raise _BadEntry("not a regular file of a sane size")
        chunks = []
        left = MAX_ENTRY_BYTES + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        if left <= 0:
            raise _BadEntry("grew past the limit while read")
        return b"".join(chunks)
    finally:
        os.close(fd)


def _discard(entry: Path) -> None:
    """Remove a bad entry (best effort; ``put`` replaces it anyway)."""
    try:
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink()
    except OSError:
        pass


_SEVERITIES = {s.value for s in Severity}
_APPLICABILITIES = {a.value for a in Applicability}
_CODE_RE = re.compile(r"[A-Z]{3}[0-9]{3}\Z")


def _is_int(v: object, low: int = 1) -> bool:
    return type(v) is int and v >= low


def _is_pos(d: object) -> bool:
    return isinstance(d, dict) and set(d) == {"row", "column"} and _is_int(d["row"]) and _is_int(d["column"])


def _valid_edit(e: object) -> bool:
    return (
        isinstance(e, dict)
        and set(e) == {"content", "location", "end_location"}
        and _is_pos(e["location"]) and _is_pos(e["end_location"])
        and (e["location"]["row"], e["location"]["column"]) <= (e["end_location"]["row"], e["end_location"]["column"])
        and isinstance(e["content"], str)
    )


def _valid_finding(d: object, select: Optional[frozenset], max_line: Optional[int]) -> bool:
    if not isinstance(d, dict):
        return False
    keys = set(d)
    if not {"code", "name", "message", "filename", "location", "end_location", "severity", "fix",
            "url", "function"} <= keys <= {"code", "name", "message", "filename", "location",
                                             "end_location", "severity", "fix", "url", "function", "runtime",
                                             "related"}:
        return False
    code = d["code"]
    if not (isinstance(code, str) and _CODE_RE.match(code) and (select is None or code in select)):
        return False
    if not (isinstance(d["name"], str) and d["name"] and isinstance(d["message"], str) and d["message"]):
        return False
    if d["severity"] not in _SEVERITIES or not (d["function"] is None or isinstance(d["function"], str)):
        return False
    start, end = d["location"], d["end_location"]
    if not (_is_pos(start) and _is_pos(end) and (start["row"], start["column"]) <= (end["row"], end["column"])):
        return False
    if max_line is not None and end["row"] > max_line:
        return False
    fix = d["fix"]
    if fix is not None:
        if not (isinstance(fix, dict) and set(fix) == {"applicability", "message", "edits"}
                and fix["applicability"] in _APPLICABILITIES and isinstance(fix["message"], str)
                and isinstance(fix["edits"], list) and fix["edits"]
                and all(_valid_edit(e) for e in fix["edits"])):
            return False
        if max_line is not None and any(e["end_location"]["row"] > max_line + 1 for e in fix["edits"]):
            return False
    related = d.get("related", [])
    if not (isinstance(related, list) and all(
            isinstance(r, dict) and set(r) == {"filename", "row", "message"} and isinstance(r["filename"], str)
            and _is_int(r["row"], 0) and isinstance(r["message"], str) for r in related)):
        return False
    return "runtime" not in d or d["runtime"] is None or isinstance(d["runtime"], dict)


def _valid_project(p: object) -> bool:
    """The project output of a file (``engine/project.py`` + its summary): its shape."""
    if not isinstance(p, dict) or not {"calls", "sites", "summary"} <= set(p):
        return False
    if not (isinstance(p["calls"], list) and isinstance(p["sites"], list) and isinstance(p["summary"], dict)):
        return False
    if not all(isinstance(c, dict) and isinstance(c.get("callee"), str) and _is_int(c.get("line"), 0)
               for c in (*p["calls"], *p["sites"])):
        return False
    return all(isinstance(p.get(k, {}), (dict, list)) for k in ("jits", "consumers", "factories", "pytrees"))


def _decode_entry(raw: bytes, path: str, select: Optional[frozenset],
                  max_line: Optional[int], with_project: bool = True) -> Optional[FileResult]:
    """The result an entry holds, or None when it is not one ``put`` could have
    written.  ``with_project=False`` leaves the project output (the second line,
    a file's summary: most of the entry) unread."""
    head, newline, tail = raw.partition(b"\n")
    try:
        data = json.loads(head.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not (isinstance(data, dict) and set(data) == {"findings", "error", "parsed", "project"}
            and isinstance(data["project"], bool) and data["project"] == bool(newline)):
        return None
    project = None
    if data["project"] and with_project:
        try:
            project = json.loads(tail.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return None
        if not _valid_project(project):
            return None
    items, error, parsed = data["findings"], data["error"], data["parsed"]
    if not (isinstance(items, list) and (error is None or (isinstance(error, str) and error))
            and isinstance(parsed, bool)):
        return None
    if not all(_valid_finding(item, select, max_line) for item in items):
        return None
    try:
        findings = []
        for item in items:
            item["filename"] = path
            findings.append(Finding.from_dict(item))
    except (KeyError, TypeError, ValueError):
        return None
    return FileResult(path=path, findings=findings, error=error, parsed=parsed, from_cache=True,
                      project=project)


def _valid_snapshot(value: object) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, list) and len(v) == 3 and isinstance(v[0], str)
        and isinstance(v[1], bool) and isinstance(v[2], bool)
        for k, v in value.items())


class Cache:
    """Lint results stored under ``cache_dir``, keyed by content and settings."""

    def __init__(self, cache_dir: Path, rules_digest: str) -> None:
        self.dir = Path(cache_dir)
        self.rules_digest = rules_digest
        self._prepared = False
        self.hits = 0
        self.misses = 0
        self.discarded = 0  # bad entries removed (counted as misses too)
        self._keys: dict[tuple[bytes, LintSettings], str] = {}
        self._keys_bytes = 0  # the bytes the memo holds (each entry counted)

    def key(self, data: bytes, settings: LintSettings) -> str:
        # the same bytes are keyed several times a run (the project snapshot, each round)
        memo = (data, settings)
        try:
            key = self._keys.get(memo)
        except TypeError:  # an option value that cannot be hashed
            memo, key = None, None
        if key is None:
            h = hashlib.sha256(data)
            h.update(b"\0" + settings.fingerprint().encode())
            h.update(b"\0" + self.rules_digest.encode())
            key = h.hexdigest()
            if memo is not None:
                if self._keys_bytes + len(data) > KEY_MEMO_BYTES:
                    self._keys.clear()
                    self._keys_bytes = 0
                self._keys[memo] = key
                self._keys_bytes += len(data)
        return key

    def _entry(self, key: str) -> Path:
        # entries of other jaxlint sources live in sibling directories; `clean` drops them
        return self.dir / _FORMAT / self.rules_digest / key[:2] / f"{key}.json"

    def get(self, key: str, path: str, settings: Optional[LintSettings] = None,
            data: Optional[bytes] = None, with_project: bool = True) -> Optional[FileResult]:
        """The cached result for ``key``, re-labelled with ``path``; None on a miss.

        An entry is used only if it is a regular file of at most
        ``MAX_ENTRY_BYTES`` holding exactly the shape ``put`` writes, with
        values that can be true for this file: codes among ``settings.select``
        (when given), positions inside ``data`` (when given).  Anything else
        (a pipe, a link, a torn or edited entry) is discarded and counts as a miss.
        ``with_project=False``: the project output is not read (``result.project`` is None).
        """
        entry = self._entry(key)
        try:
            raw = _read_regular(entry)
        except FileNotFoundError:
            self.misses += 1
            return None
        except (OSError, _BadEntry):
            raw = None
        result = None
        if raw is not None:
            max_line = None if data is None else data.count(b"\n") + data.count(b"\r") + 1
            select = None if settings is None else settings.select
            result = _decode_entry(raw, path, select, max_line, with_project)
        if result is None:
            self.misses += 1
            self.discarded += 1
            _discard(entry)
            return None
        self.hits += 1
        return result

    def put(self, key: str, result: FileResult) -> None:
        """Store ``result`` (best effort: an unwritable cache only costs speed)."""
        payload = {
            "findings": [f.to_dict() for f in result.findings],
            "error": result.error,
            "parsed": result.parsed,
            "project": result.project is not None,
        }
        text = json.dumps(payload, separators=(",", ":"))
        if result.project is not None:  # JSON never holds a raw newline: the second line is the project's
            text += "\n" + json.dumps(result.project, separators=(",", ":"))
        self._write(self._entry(key), text)

    def _write(self, entry: Path, text: str) -> None:
        try:
            if not self._prepared:
                prepare_cache_dir(self.dir)
                self._prepared = True
            atomic_write_text(entry, text)
        except OSError:
            pass

    # ------------------------------------------------------------------ project snapshots
    # What the project driver settled on for a whole set of files (each file's facts,
    # whether it was analysed as a helper, whether a folder switched x64 on), keyed by
    # every file's bytes and settings: a warm run of an unchanged project takes the
    # facts from here and reads each file's result once, without its summary.

    def _snapshot(self, key: str) -> Path:
        return self.dir / _FORMAT / self.rules_digest / "projects" / f"{key}.json"

    def get_snapshot(self, key: str) -> Optional[dict[str, list]]:
        entry = self._snapshot(key)
        try:
            raw = _read_regular(entry)
            value = json.loads(raw.decode("utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, _BadEntry, UnicodeDecodeError, ValueError, RecursionError):
            value = None
        if not _valid_snapshot(value):
            _discard(entry)
            return None
        return value

    def discard_snapshot(self, key: str) -> None:
        _discard(self._snapshot(key))

    def put_snapshot(self, key: str, value: dict[str, list]) -> None:
        self._write(self._snapshot(key), json.dumps(value, separators=(",", ":"), sort_keys=True))
