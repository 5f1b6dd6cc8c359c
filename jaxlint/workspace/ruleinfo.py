"""Light-weight rule metadata that can be had without importing libcst.

Importing ``jaxlint.rules`` pulls in libcst (the rule base class uses it), which
costs a noticeable share of a fully cached run.  The CLI needs only plain facts
about the rules (codes, names, defaults) to resolve the configuration, so this
module keeps a JSON snapshot of them next to the cache, keyed by a digest of
jaxlint's own source files.  A snapshot is rebuilt (by importing the rules)
whenever any of those files changes, so it can never go stale.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Optional

import jaxlint
from jaxlint.findings import DOCS_BASE_URL

_PACKAGE_DIR = Path(jaxlint.__file__).resolve().parent


@dataclass(frozen=True)
class RuleInfo:
    """The plain facts about one rule."""

    code: str
    name: str
    summary: str
    severity: str
    default_enabled: bool
    fix_availability: str
    what_it_does: str

    @property
    def url(self) -> Optional[str]:
        """None: no documentation address ships with jaxlint (see ``docs-url``)."""
        return f"{DOCS_BASE_URL}{self.code}.md" if DOCS_BASE_URL else None


@lru_cache(maxsize=None)
def source_digest() -> str:
    """A digest of jaxlint's version and every Python file of the package.

    Any edit to a rule or to the model changes it, which invalidates both the
    rule snapshot and every cached lint result.
    """
    h = hashlib.sha256(jaxlint.__version__.encode())
    for path in sorted(_PACKAGE_DIR.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        h.update(path.relative_to(_PACKAGE_DIR).as_posix().encode())
        h.update(b"\0")
        try:
            h.update(path.read_bytes())
        except OSError:  # pragma: no cover - a file vanished while hashing
            pass
        h.update(b"\0")
    return h.hexdigest()[:24]


def _from_registry() -> tuple[RuleInfo, ...]:
    from jaxlint.rules import all_rules  # imports libcst

    return tuple(
        RuleInfo(
            code=r.code,
            name=r.name,
            summary=r.summary,
            severity=getattr(r.severity, "value", str(r.severity)),
            default_enabled=bool(r.default_enabled),
            fix_availability=r.fix_availability,
            what_it_does=r.what_it_does,
        )
        for r in all_rules()
    )


_loaded: dict[Optional[str], tuple[RuleInfo, ...]] = {}


def load_rule_infos(cache_dir: Optional[Path] = None) -> tuple[RuleInfo, ...]:
    """Every rule's metadata, in code order.

    With ``cache_dir``, a snapshot stored there is used when it matches the
    current sources, and written when it does not (best effort).
    """
    memo_key = str(cache_dir) if cache_dir is not None else None
    if memo_key in _loaded:
        return _loaded[memo_key]
    infos: Optional[tuple[RuleInfo, ...]] = None
    snapshot = (
        Path(cache_dir) / f"rules-{source_digest()}.json" if cache_dir is not None else None
    )
    if snapshot is not None:
        try:
            data = json.loads(snapshot.read_text(encoding="utf-8"))
            infos = tuple(RuleInfo(**item) for item in data)
        except (OSError, ValueError, TypeError):
            infos = None
    if infos is None:
        infos = _from_registry()
        if snapshot is not None:
            _write_snapshot(snapshot, infos)
    _loaded[memo_key] = infos
    return infos


def _write_snapshot(snapshot: Path, infos: Iterable[RuleInfo]) -> None:
    from jaxlint.cache import atomic_write_text, prepare_cache_dir

    try:
        prepare_cache_dir(snapshot.parent)
        for old in snapshot.parent.glob("rules-*.json"):
            if old != snapshot:
                try:
                    old.unlink()
                except OSError:
                    pass
        atomic_write_text(snapshot, json.dumps([asdict(i) for i in infos]))
    except OSError:
        pass  # a read-only location: the snapshot is only an optimisation


def expand_selector(infos: Iterable[RuleInfo], selector: str) -> Optional[set[str]]:
    """The codes a selector matches, exactly as ``jaxlint.rules.expand_selector``
    resolves them (a code, a prefix such as ``JAX1``, a rule name, or ``ALL``);
    None for an unknown selector."""
    infos = tuple(infos)
    sel = selector.strip()
    if sel.upper() == "ALL":
        return {i.code for i in infos}
    for info in infos:
        if info.code == sel.upper() or info.name == sel.lower():
            return {info.code}
    prefix = sel.upper()
    if prefix.startswith("JAX"):
        matched = {i.code for i in infos if i.code.startswith(prefix)}
        return matched or None
    return None


_LOOKALIKE_DIGITS = str.maketrans({"O": "0", "I": "1", "L": "1"})


def did_you_mean(rules: Iterable, selector: str) -> str:
    """``"; did you mean JAX201?"`` for an unknown selector close to a rule's
    code or name (``rules``: anything with ``.code`` and ``.name``), else ``""``."""
    import difflib

    sel = selector.strip()
    rules = tuple(rules)
    codes = [r.code for r in rules]
    code = sel.upper()
    if code.startswith("JAX"):  # a letter typed for the digit it looks like: JAX2O1 is JAX201
        code = "JAX" + code[3:].translate(_LOOKALIKE_DIGITS)
    close = difflib.get_close_matches(code, codes, n=1, cutoff=0.75)
    if not close:
        close = difflib.get_close_matches(sel.lower(), [r.name for r in rules], n=1, cutoff=0.75)
    return f"; did you mean {close[0]}?" if close else ""


class UnknownSelector(ValueError):
    """A selector that matches no rule, where it was given (``key``, ``source``)
    and a hint (``"; did you mean JAX201?"`` or ``""``)."""

    def __init__(self, selector: str, key: str, source: Optional[str], hint: str) -> None:
        super().__init__(selector)
        self.selector, self.key, self.source, self.hint = selector, key, source, hint


def selection(infos: Iterable[RuleInfo], steps: Iterable[tuple[str, Iterable[str], str, Optional[str]]],
              start: Optional[frozenset[str]] = None) -> frozenset[str]:
    """The codes selected by ``steps`` applied in order to ``start`` (default:
    the rules enabled by default): each step is (``"="`` replace, ``"+"`` add or
    ``"-"`` remove, its selectors, the setting they were given in, where that
    setting was given or None).  Raises ``UnknownSelector`` for a selector that
    matches no rule (the first, in the order of the steps)."""
    infos = tuple(infos)
    selected = set(default_codes(infos) if start is None else start)
    for op, selectors, key, source in steps:
        codes: set[str] = set()
        for sel in selectors:
            matched = expand_selector(infos, sel)
            if matched is None:
                raise UnknownSelector(sel, key, source, did_you_mean(infos, sel))
            codes |= matched
        if op == "=":
            selected = codes
        elif op == "+":
            selected |= codes
        else:
            selected -= codes
    return frozenset(selected)


def default_codes(infos: Iterable[RuleInfo]) -> frozenset[str]:
    return frozenset(i.code for i in infos if i.default_enabled)
