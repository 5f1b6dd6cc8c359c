"""Reading and writing files of the MCP workspace without leaving its roots.

A path checked once and then opened by name can be redirected between the
check and the open: a folder inside a root renamed away and replaced by a
link to an outside folder makes ``open(path)`` (and the rename of an atomic
write) land outside.  Here a file is reached from a descriptor of its root,
one folder at a time, each opened with ``O_NOFOLLOW|O_DIRECTORY`` relative to
the one before, and read or replaced through the descriptor of its folder (the
temporary file and the rename of :func:`jaxlint.atomic.write_atomic_at` too).
Where ``/proc/self/fd`` exists, the folder a descriptor really is is checked
against the roots once more just before the rename (a folder moved out of the
roots after it was opened).

Links inside the roots are followed to what they name first (the real path is
walked), so a link to a file or folder inside the roots works; a link that
leads outside is refused.  A platform without ``dir_fd`` support for
``os.open`` (Windows) gets the plain path operations after the real path is
checked.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
SUPPORTED = os.open in os.supports_dir_fd and os.rename in os.supports_dir_fd and bool(_NOFOLLOW)

OUTSIDE = "it links outside the workspace roots"
MOVED = "a folder on its path was moved or replaced by a link while it was read or written"


class Refused(Exception):
    """A file the tools must not read or write; the reason, without a full stop."""


@dataclass(frozen=True)
class ReadFile:
    """A file's bytes as read, and which file that was (to write it back only if unchanged)."""

    real: Path  # its real path, inside a root
    data: bytes
    mode: int
    identity: tuple[int, int]  # (st_dev, st_ino)


def _root_of(real: Path, roots: Sequence[Path]) -> Optional[Path]:
    for r in roots:
        if real == r or r in real.parents:
            return r
    return None


def real_path(path: Path, roots: Sequence[Path]) -> tuple[Path, Path]:
    """(its real path, the root it is under); Refused outside the roots."""
    try:
        real = Path(os.path.realpath(path))
    except (OSError, ValueError):
        raise Refused(MOVED) from None
    root = _root_of(real, roots)
    if root is None:
        raise Refused(OUTSIDE)
    return real, root


def _inside(fd: int, roots: Sequence[Path]) -> None:
    """Refused when the folder open as ``fd`` is no longer inside the roots."""
    try:
        where = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return  # no /proc: the walk from the root is the guarantee
    if _root_of(Path(where), roots) is None:
        raise Refused(OUTSIDE)


def open_dir(real_dir: Path, root: Path, roots: Sequence[Path]) -> int:
    """A descriptor of the folder ``real_dir`` (a real path under ``root``),
    reached from ``root`` without following a link."""
    fd = os.open(root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    try:
        for part in real_dir.relative_to(root).parts:
            nfd = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=fd)
            os.close(fd)
            fd = nfd
        _inside(fd, roots)
    except OSError:
        os.close(fd)
        raise Refused(MOVED) from None
    except BaseException:
        os.close(fd)
        raise
    return fd


def _read_at(dir_fd: int, name: str) -> tuple[bytes, os.stat_result]:
    fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | _NONBLOCK, dir_fd=dir_fd)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused("it is not a regular file")
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks), st
    finally:
        os.close(fd)


def read(path: Path, roots: Sequence[Path]) -> ReadFile:
    """The bytes of the file at ``path``; Refused when it is (or leads) outside
    the roots or a folder on its way is swapped meanwhile; OSError when it
    cannot be read."""
    real, root = real_path(path, roots)
    if real == root:
        raise Refused("it is not a regular file")
    if not SUPPORTED:
        data = real.read_bytes()
        st = os.stat(real)
        return ReadFile(real, data, stat.S_IMODE(st.st_mode), (st.st_dev, st.st_ino))
    dfd = open_dir(real.parent, root, roots)
    try:
        try:
            data, st = _read_at(dfd, real.name)
        except OSError as exc:
            if os.path.islink(real):  # replaced by a link since its real path was taken
                raise Refused(MOVED) from None
            raise exc
    finally:
        os.close(dfd)
    return ReadFile(real, data, stat.S_IMODE(st.st_mode), (st.st_dev, st.st_ino))


def write(was: ReadFile, data: bytes, roots: Sequence[Path]) -> None:
    """Replace the file ``was`` was read from with ``data`` (atomically, its mode
    kept), reached again from its root without following a link.  Refused when
    the file changed since it was read (other bytes, another file, a link now)
    or the way to it left the roots."""
    from jaxlint.atomic import write_atomic_at, write_through

    real, root = real_path(was.real, roots)
    if real != was.real:
        raise Refused(MOVED)
    if not SUPPORTED:
        if real.read_bytes() != was.data:
            raise Refused("it changed on disk while it was being fixed")
        links = os.stat(real).st_nlink
        if links > 1:
            raise Refused(f"it has {links} hard links, which may lie outside the workspace roots "
                          "(fix it with `jaxlint --fix`, which rewrites it in place)")
        write_through(real, data, was.mode)
        return
    dfd = open_dir(real.parent, root, roots)
    try:
        try:
            now, st = _read_at(dfd, real.name)
        except OSError:
            raise Refused(MOVED) from None
        if (st.st_dev, st.st_ino) != was.identity or now != was.data:
            raise Refused("it changed on disk while it was being fixed")
        if st.st_nlink > 1:
            # its other names may lie outside the roots, and a rename would split the links
            raise Refused(f"it has {st.st_nlink} hard links, which may lie outside the workspace roots "
                          "(fix it with `jaxlint --fix`, which rewrites it in place)")
        write_atomic_at(dfd, real.name, data, was.mode, before_rename=lambda: _inside(dfd, roots))
    finally:
        os.close(dfd)
