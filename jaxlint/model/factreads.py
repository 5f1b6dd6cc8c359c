"""Which of its facts a file's analysis consulted (for the project driver's rounds).

The project driver lints a file again when the facts the other modules give it
change (``jaxlint/project/driver.py``).  Most changes are to facts the file never
looks at: a class record for a name it imports but never annotates with, the
call-site kinds of a function of another module... .  The analysis is a
deterministic function of the file's text, its settings and the answers to the
questions it asks of its facts; when every answer is the same under the new
facts, so is every finding and everything the file tells its project, and the
driver keeps the result it has (``same_answers``).

``FactReads`` records the questions: the index (``model/index.py``,
``apply_facts``) holds each category of facts in a ``ReadDict`` or ``ReadSet``,
which notes each key looked up (present or not), whether the category was asked
if it is empty, and a read of the whole (iteration, length, a copy) as ``*``.
A unit's facts (``units``, ``passed``) are read for every function of the file,
whatever the facts hold.  A category the recorder does not hold (one added later,
``x64_import``) is compared whole by the driver: never a false "unchanged".
"""

from __future__ import annotations

from collections.abc import Mapping, Set as AbstractSet
from typing import Any, Iterable, Optional

WHOLE = "*"  # the whole category was read
EMPTY = "?"  # whether the category is empty was read


class FactReads:
    """The keys of each category of facts the analysis asked for."""

    __slots__ = ("keys",)

    def __init__(self) -> None:
        self.keys: dict[str, set[str]] = {}

    def track(self, category: str) -> set[str]:
        """Start recording ``category`` (an empty record: held, nothing read yet)."""
        return self.keys.setdefault(category, set())

    def note(self, category: str, key: str) -> None:
        self.keys.setdefault(category, set()).add(key)

    def note_all(self, category: str, keys: Iterable[str]) -> None:
        self.keys.setdefault(category, set()).update(keys)

    def as_json(self) -> dict[str, list[str]]:
        return {c: sorted(k) for c, k in sorted(self.keys.items())}


class _Noted:
    """What a ``ReadDict`` and a ``ReadSet`` note alike: a key asked (``in``), whether
    the facts were asked empty (``bool``), a whole read (``len``, iteration); never
    copied or pickled (what is read of the copy would not be noted)."""

    __slots__ = ()
    _items: Any
    _seen: set
    _asked_empty: bool

    def __contains__(self, key) -> bool:
        self._seen.add(key)
        return key in self._items

    def __bool__(self) -> bool:
        if not self._asked_empty:
            self._asked_empty = True
            self._seen.add(EMPTY)
        return bool(self._items)

    def __len__(self) -> int:
        self._seen.add(WHOLE)
        return len(self._items)

    def __iter__(self):
        self._seen.add(WHOLE)
        return iter(self._items)

    def __reduce__(self):
        raise TypeError(f"a {type(self).__name__} is not copied or pickled: what is read of the copy "
                        "would not be noted")


class ReadDict(_Noted, Mapping):
    """A mapping of facts that notes what is asked of it in its ``FactReads``.  Not
    a dict: C code reads a dict's items past its methods (``json.dumps``, ``d | e``),
    unseen; this one's items are reached through its methods alone, and what it
    does not offer fails loudly."""

    __slots__ = ("_items", "_seen", "_asked_empty")

    def __init__(self, reads: FactReads, category: str, data: Optional[dict]) -> None:
        self._items = dict(data or {})
        self._seen = reads.track(category)
        self._asked_empty = False

    def __getitem__(self, key):
        self._seen.add(key)
        return self._items[key]

    def get(self, key, default=None):
        self._seen.add(key)
        return self._items.get(key, default)

    def __repr__(self) -> str:
        return f"ReadDict({self._items!r})"


class ReadSet(_Noted, AbstractSet):
    """A set of facts (names) that notes what is asked of it.  Not a frozenset:
    set algebra with a built-in set on the left would read a frozenset's items in C,
    unseen; this one's ``__iter__`` is the only way to its items."""

    __slots__ = ("_items", "_seen", "_asked_empty")

    def __init__(self, reads: FactReads, category: str, data: Optional[Iterable[str]]) -> None:
        self._items = frozenset(data or ())
        self._seen = reads.track(category)
        self._asked_empty = False

    def __repr__(self) -> str:
        return f"ReadSet({sorted(self._items)!r})"

    @classmethod
    def _from_iterable(cls, it):  # what the set algebra of ``AbstractSet`` returns
        return frozenset(it)


def same_answers(reads: dict, old: dict, new: dict) -> bool:
    """Would an analysis that asked ``reads`` (``FactReads.as_json()`` of a result
    linted with the facts ``old``) get the same answers from the facts ``new``?  A
    category ``reads`` does not hold is compared whole."""
    for category in set(old) | set(new):
        a, b = old.get(category), new.get(category)
        if a == b:
            continue
        keys = reads.get(category)
        if keys is None or WHOLE in keys:
            return False
        if a is None:
            a = [] if isinstance(b, list) else {}
        if b is None:
            b = [] if isinstance(a, list) else {}
        if type(a) is not type(b) or not isinstance(a, (dict, list)):
            return False
        for key in keys:
            if key == EMPTY:
                if bool(a) != bool(b):
                    return False
            elif (key in a) != (key in b):
                return False
            elif isinstance(a, dict) and key in a and a[key] != b[key]:
                return False
    return True
