"""A dict that can be rolled back: the interpreter's environment at branches.

The interpreter used to copy its whole environment (every name bound so far in
the unit, and every PRNG key consumed) at each ``if``, loop, ``match`` and
comprehension, and to join the copies name by name where the paths meet: a
function of n statements with a branch every few lines cost O(n²) (a 33,000-name
function with 33,000 ``if``s: 10⁹ dict entries copied and compared).

A ``JournalDict`` instead records, while a frame is open, the value each key had
before its first write in that frame.  Closing the frame puts those values back
and returns what the frame changed, so a branch costs what it writes, and a join
looks only at the names some path wrote.  Reads are the plain dict's.
"""

from __future__ import annotations

from typing import Any

MISSING: Any = object()  # "no such key" in a change set or a frame's record


class JournalDict(dict):
    """A dict whose writes can be undone frame by frame (see the module doc).

    Only ``d[k] = v``, ``d.pop(k, ...)`` and ``del d[k]`` are journaled; the
    other mutating methods are refused, so that no write escapes the record."""

    __slots__ = ("frames",)

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.frames: list[dict] = []

    def __setitem__(self, key: Any, value: Any) -> None:
        frames = self.frames
        if frames:
            top = frames[-1]
            if key not in top:
                top[key] = dict.get(self, key, MISSING)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:
        self._note(key)
        dict.__delitem__(self, key)

    def pop(self, key: Any, *default: Any) -> Any:
        self._note(key)
        return dict.pop(self, key, *default)

    def _note(self, key: Any) -> None:
        frames = self.frames
        if frames and key not in frames[-1] and dict.__contains__(self, key):
            frames[-1][key] = dict.__getitem__(self, key)

    def _refused(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("JournalDict: only d[k] = v, d.pop and del are journaled")

    update = setdefault = popitem = clear = __ior__ = _refused  # type: ignore[assignment]

    # -- frames ------------------------------------------------------------------
    def open(self) -> int:
        """Start recording; returns the frame's depth (for ``value_at``/``snapshot_at``)."""
        self.frames.append({})
        return len(self.frames) - 1

    def close(self) -> dict:
        """Undo every write since the matching ``open``; return what they changed:
        key -> its value before the undo (``MISSING`` where it was removed), in the
        order the keys were first written."""
        record = self.frames.pop()
        changes = {}
        for key, old in record.items():
            changes[key] = dict.get(self, key, MISSING)
            if old is MISSING:
                dict.pop(self, key, None)
            else:
                dict.__setitem__(self, key, old)
        return changes

    def apply(self, changes: dict) -> None:
        """Write a change set (as ``close`` returns it), journaled in the open frame."""
        for key, value in changes.items():
            if value is MISSING:
                self.pop(key, None)
            else:
                self[key] = value

    def value_at(self, depth: int, key: Any) -> Any:
        """The value ``key`` had when frame ``depth`` was opened (``MISSING`` if
        absent); frame ``depth`` must still be open.  The outermost frame that
        recorded the key holds that value: a frame records a key's value on its
        first write, and a closed inner frame's writes come back to its parent
        through ``apply``."""
        for record in self.frames[depth:]:
            if key in record:
                return record[key]
        return dict.get(self, key, MISSING)

    def snapshot_at(self, depth: int) -> dict:
        """A plain copy of the dict as it was when frame ``depth`` was opened."""
        out = dict(self)
        for record in reversed(self.frames[depth:]):  # the outermost record wins
            for key, old in record.items():
                if old is MISSING:
                    out.pop(key, None)
                else:
                    out[key] = old
        return out
