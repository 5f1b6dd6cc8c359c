"""C-level log lines of this process, read in the thread that writes them (no JAX).

JAX's transfer guard (``jax.transfer_guard("log")``) reports each implicit copy from
C++ (absl's ``LOG(WARNING)``, written with ``fwrite`` to the C library's ``stderr``),
not through Python's ``logging``, so no Python hook sees it.  ``install`` points the
C library's ``stderr`` at a stream of our own (``fopencookie``, glibc and musl) whose
write function is a Python callback: it runs in the thread that logs, while that
thread's Python frames (the line that caused the copy) are still on its stack, so
``sys._getframe(1)`` inside the callback is the frame that called into JAX's C++
code.  A line the listener takes is kept out of the program's output; everything
else goes on to file descriptor 2 as before.

The stream is unbuffered and not locked by the C library (``__fsetlocking``): a
thread that writes without holding the GIL waits for it in the callback, and must
not hold the stream's lock while it waits (the thread holding the GIL may be
writing too).  ``remove`` (run at exit) puts the original ``stderr`` back before
the interpreter shuts down.  Only ``jaxlint observe``'s probes use it.
"""

from __future__ import annotations

import ctypes
import os
import sys
from typing import Any, Callable, Optional

_WRITE = ctypes.CFUNCTYPE(ctypes.c_ssize_t, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)


class _Functions(ctypes.Structure):  # cookie_io_functions_t
    _fields_ = [("read", ctypes.c_void_p), ("write", _WRITE), ("seek", ctypes.c_void_p),
                ("close", ctypes.c_void_p)]


_IONBF = 2
_FSETLOCKING_BYCALLER = 2

# what the C library needs alive while the stream exists (never freed: C code may
# hold the stream pointer after ``remove``)
_KEEP: list = []
_state: dict[str, Any] = {}


def install(listener: Callable[[bytes, Any], bool]) -> bool:
    """Route the C library's ``stderr`` through ``listener(chunk, frame)`` (the bytes
    of one write and the Python frame that called into C); a chunk it returns True for
    is dropped, the others are written to file descriptor 2.  False when this C
    library cannot do it (not Linux, no ``fopencookie``); nothing is changed then."""
    if _state or not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None)
        fopencookie = libc.fopencookie
        pointer = ctypes.c_void_p.in_dll(libc, "stderr")
    except (OSError, AttributeError, ValueError):
        return False
    fopencookie.restype = ctypes.c_void_p
    fopencookie.argtypes = [ctypes.c_void_p, ctypes.c_char_p, _Functions]

    def write(_cookie: Any, buf: Any, size: int) -> int:
        try:
            data = ctypes.string_at(buf, size)
            try:
                taken = listener(data, sys._getframe(1))
            except Exception:  # noqa: BLE001 - the output goes on whatever the listener does
                taken = False
            if not taken:
                _forward(data)
        except BaseException:  # noqa: BLE001 - never raise into C
            pass
        return size

    callback = _WRITE(write)
    functions = _Functions(None, callback, None, None)
    stream = fopencookie(None, b"w", functions)
    if not stream:
        return False
    try:
        libc.setvbuf.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_size_t]
        libc.setvbuf(stream, None, _IONBF, 0)
        setlocking = getattr(libc, "__fsetlocking", None)
        if setlocking is not None:
            setlocking.argtypes = [ctypes.c_void_p, ctypes.c_int]
            setlocking(stream, _FSETLOCKING_BYCALLER)
        fflush = libc.fflush
        fflush.argtypes = [ctypes.c_void_p]
        fflush(pointer.value)  # what the original stream holds goes out first
    except (OSError, AttributeError):
        return False
    _KEEP.extend([callback, functions, write, stream])
    _state.update(pointer=pointer, original=pointer.value, stream=stream)
    pointer.value = stream
    return True


def remove() -> None:
    """The original ``stderr`` back (at exit: no callback into a finalising interpreter)."""
    if _state and _state["pointer"].value == _state["stream"]:
        _state["pointer"].value = _state["original"]


def installed() -> bool:
    return bool(_state) and _state["pointer"].value == _state["stream"]


def _forward(data: bytes) -> None:
    view: Optional[memoryview] = memoryview(data)
    while view:
        try:
            n = os.write(2, view)
        except InterruptedError:
            continue
        except OSError:
            return
        view = view[n:]
