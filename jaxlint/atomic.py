"""Atomic file writes: readers see the old file or the new one, never half of it."""

from __future__ import annotations

import errno
import os
import secrets
import stat
import tempfile
from pathlib import Path
from typing import Callable, Optional


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


def write_in_place(fd: int, data: bytes, *, durable: bool = True) -> None:
    """Overwrite the regular file open for reading and writing as ``fd`` with ``data``
    (its inode, and so every hard link to it, kept).  Not atomic (used only for a file
    with more than one hard link, where a rename would split the links), so it never
    leaves a half-written file: the new length is reserved first (a full disk or a
    size limit fails before any byte changes), and a write that fails midway puts the
    old bytes back before the error goes up."""
    old_size = os.fstat(fd).st_size
    old = os.pread(fd, old_size, 0) if old_size else b""
    if len(data) > old_size:
        try:
            os.posix_fallocate(fd, 0, len(data))
        except OSError as e:
            if e.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
                raise  # ENOSPC, EFBIG...: nothing written yet
            os.ftruncate(fd, len(data))
        except AttributeError:  # no posix_fallocate on this platform
            os.ftruncate(fd, len(data))
    try:
        _write_all(fd, data)
        os.ftruncate(fd, len(data))
        if durable:
            os.fsync(fd)
    except BaseException:
        try:
            _write_all(fd, old)
            os.ftruncate(fd, old_size)
        except OSError:
            pass
        raise


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    os.lseek(fd, 0, os.SEEK_SET)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def write_through(path: Path, data: bytes, mode: Optional[int] = None) -> None:
    """Write a user's file the way they expect: a symbolic link is followed (its
    target is rewritten and the link stays a link), a file with several hard
    links is rewritten in place (one inode, every link sees the new text), and
    any other file is replaced atomically (:func:`write_atomic`) with ``mode``."""
    real = Path(os.path.realpath(path))
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
        fd = os.open(real, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            write_in_place(fd, data)
        finally:
            os.close(fd)
        return
    write_atomic(real, data, mode)


def write_atomic_at(
    dir_fd: int, name: str, data: bytes, mode: Optional[int] = None, *,
    durable: bool = True, before_rename: Optional[Callable[[], None]] = None,
) -> None:
    """:func:`write_atomic` relative to an open directory: the temporary file is
    created in ``dir_fd`` (``O_EXCL|O_NOFOLLOW``) and renamed over ``name`` in
    that same directory, so no path is looked up again and a folder swapped for
    a link meanwhile cannot redirect the write.  ``before_rename`` runs last
    (a check that may raise to abandon the write)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = f".{name[:200]}.{secrets.token_hex(4)}.jaxlint-tmp"
        try:
            fd = os.open(tmp, flags, 0o600, dir_fd=dir_fd)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(f"no free temporary name beside {name}")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if mode is not None:
                os.fchmod(fh.fileno(), mode)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        if before_rename is not None:
            before_rename()
        os.rename(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=dir_fd)
        except OSError:
            pass
        raise
