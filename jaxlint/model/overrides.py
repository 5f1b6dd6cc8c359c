"""Which method ``self.m(...)`` runs: the one ``self``'s class resolves, or an override.

``Environment.step`` (jitted) calls ``self.step_env(...)``; run on an instance of a
subclass that overrides ``step_env`` and inherits ``step``, the override runs, under the
same trace.  Each such override of the file's subclasses (any depth, through the bases
written in this file; ``Base[T]`` written for a generic base is ``Base``) is a target of
the call; a subclass that overrides the calling method itself does not reach the
override through it.  Across modules the caller's module tells the call
(``model/calls.py``, ``"overrides"`` on the record) and ``project/facts.py`` gives it to
the overrides of the project's subclasses in other modules.  A subclass the model cannot
place (a base it cannot resolve) is not a target: unknown reaches nothing."""

from __future__ import annotations

from typing import Iterable, Optional

from jaxlint.model.units import ClassInfo, Unit


def _derives(cls: ClassInfo, base: ClassInfo, depth: int = 0) -> bool:
    if depth > 16:
        return False
    return any(p is base or _derives(p, base, depth + 1) for p in cls.parents)


def subclass_overrides(classes: Iterable[ClassInfo], caller: Unit, name: str) -> list[Unit]:
    """The methods ``name`` of the subclasses (of this file) of ``caller``'s class that
    ``self.name(...)`` in ``caller`` runs on their instances: each subclass that
    inherits ``caller`` (its own method of that name is ``caller``) and whose ``name``
    is not the one ``caller``'s class resolves."""
    own: Optional[ClassInfo] = caller.cls
    if own is None or caller.name in ("__init__", "__post_init__"):
        return []
    base_target = own.method(name)
    out: list[Unit] = []
    for c in classes:
        if c is own or not _derives(c, own):
            continue
        if c.method(caller.name) is not caller:
            continue  # it overrides the caller: `self.name` there is reached another way
        m = c.method(name)
        if m is not None and m is not base_target and m not in out:
            out.append(m)
    return out
