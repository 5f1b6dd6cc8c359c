"""The project index: module summaries merged, imports resolved across modules.

``ProjectIndex.resolve(module, "U.warmup")`` answers where a name used in a
module is defined: a ``Target`` (a project function, class, assignment or
module, or an ``external`` dotted name such as ``jax.numpy.zeros``), or None
when it cannot be known.

Every resolution is bounded (``max_steps`` look-ups), protected against import
cycles, and memoised, so resolving every call a project's traced code makes
costs work linear in the number of those calls.  The rules are described in
docs/project-model.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Optional

from jaxlint.model.summary_format import SUMMARY_VERSION


Json = dict[str, Any]

DEFAULT_MAX_STEPS = 256


@dataclass(frozen=True)
class Target:
    """What a name resolves to.

    ``kind``: "function", "class", "assign" (a module- or class-level
    assignment), "module" (a project module or namespace package; ``qualname``
    is ""), or "external" (outside the project: ``module`` is "" and
    ``qualname`` the full dotted name, e.g. "jax.numpy.zeros").
    """

    kind: str
    module: str
    qualname: str

    def __str__(self) -> str:
        if self.kind == "external":
            return self.qualname
        return f"{self.module}:{self.qualname}" if self.qualname else self.module


class _Exhausted(Exception):
    pass


class ProjectIndex:
    def __init__(self, summaries: Iterable[Json] = (), max_steps: int = DEFAULT_MAX_STEPS) -> None:
        self.max_steps = max_steps
        self.modules: dict[str, Json] = {}
        self.paths: dict[str, str] = {}
        self.duplicates: set[str] = set()
        self._dup_tops: set[str] = set()
        self._packages: set[str] = set()
        self._imported: set[str] = set()
        self._memo: dict[tuple, Optional[Target]] = {}
        self._active: set[tuple] = set()
        self._cuts = 0
        self._steps = 0
        self._exhausted = False
        for s in summaries:
            self.add(s)

    # ---- building -------------------------------------------------------
    def add(self, summary: Json, path: Optional[str] = None) -> bool:
        """Add one module's summary; False (and nothing added) when its version
        is not this one.  Two files naming the same module make it unknown."""
        if summary.get("version") != SUMMARY_VERSION:
            return False
        name = summary["module"]
        if name in self.modules or name in self.duplicates:
            self.modules.pop(name, None)
            self.paths.pop(name, None)
            self.duplicates.add(name)
            self._dup_tops.add(name.split(".", 1)[0])
        else:
            self.modules[name] = summary
            if path is not None:
                self.paths[name] = path
        parts = name.split(".")
        for i in range(1, len(parts)):
            self._packages.add(".".join(parts[:i]))
        self._imported.update(summary.get("imported", ()))
        self._memo.clear()
        return True

    def is_module(self, name: str) -> bool:
        """A project module, or a package directory (with or without __init__)."""
        return name in self.modules or (name in self._packages and name not in self.duplicates)

    # ---- resolution -----------------------------------------------------
    def resolve(self, module: str, dotted: str) -> Optional[Target]:
        """What ``dotted`` (``name`` or ``name.attr.attr``), used at module level
        of ``module``, refers to; None when unknown.  Memoised until a summary is
        added (the project driver asks again each round)."""
        key = ("r", module, dotted)
        if key in self._memo:
            return self._memo[key]
        cuts = self._cuts
        result = self._run(lambda: self._dotted(self._lookup(module, dotted.split(".", 1)[0]), dotted, 1))
        if self._cuts == cuts and not self._exhausted:  # a whole answer, not one cut short
            self._memo[key] = result
        return result

    def resolve_in_scope(self, module: str, dotted: str, where: Json) -> Optional[Target]:
        """Resolve ``dotted`` as the summary says its head is bound (``where`` is
        an argument summary of kind "ref", a base or an assigned value)."""
        bind = where.get("bind")
        if dotted is None:
            return None
        if bind == "module":
            return self.resolve(module, dotted)

        def run() -> Optional[Target]:
            head, _, rest = dotted.partition(".")
            summary = self.modules.get(module)
            if summary is None:
                return None
            if bind == "scope":
                fn = summary["defs"].get(where.get("scope"), {})
                b = fn.get("imports", {}).get(head)
                if b is None:
                    return None
                return self._dotted(self._binding(module, b), dotted, 1)
            if bind == "def":
                t = self._def_target(module, where.get("q"))
                return self._dotted(t, dotted, 1)
            if bind == "self":
                if not rest:
                    return None
                cls = self._def_target(module, where.get("cls"))
                return self._dotted(cls, rest, 0)
            if bind == "class":
                cls = self._def_target(module, where.get("cls"))
                return self._dotted(cls, dotted, 0)
            return None

        return self._run(run)

    def _run(self, fn: Any) -> Optional[Target]:
        self._steps = 0
        self._exhausted = False
        try:
            return fn()
        except _Exhausted:
            self._exhausted = True
            return None
        finally:
            self._active.clear()

    def _step(self) -> None:
        self._steps += 1
        if self._steps > self.max_steps:
            raise _Exhausted

    def _dotted(self, t: Optional[Target], dotted: str, start: int) -> Optional[Target]:
        parts = dotted.split(".")
        for p in parts[start:]:
            if t is None:
                return None
            t = self._attr(t, p)
        return t

    def _def_target(self, module: str, q: Optional[str]) -> Optional[Target]:
        summary = self.modules.get(module)
        if summary is None or q is None:
            return None
        rec = summary["defs"].get(q)
        if rec is None:
            return None
        return Target(rec["kind"], module, q)

    def _memoised(self, key: tuple, compute: Any) -> Optional[Target]:
        if key in self._memo:
            return self._memo[key]
        if key in self._active:  # an import cycle: unknown on this path
            self._cuts += 1
            return None
        self._step()
        self._active.add(key)
        cuts = self._cuts
        try:
            result = compute()
        finally:
            self._active.discard(key)
        if self._cuts == cuts:  # a result cut short by a cycle is not kept
            self._memo[key] = result
        return result

    def _lookup(self, module: str, name: str) -> Optional[Target]:
        """``getattr(module, name)``: the module's own binding, else a name its
        star imports export, else a submodule that is imported somewhere."""
        return self._memoised(("n", module, name), lambda: self._lookup_uncached(module, name))

    def _lookup_uncached(self, module: str, name: str) -> Optional[Target]:
        summary = self.modules.get(module)
        if summary is not None:
            b = summary["names"].get(name)
            if b is not None:
                return self._binding(module, b)
            for star in reversed(summary.get("star_imports", [])):
                if star is None:
                    return None
                if not self.is_module(star):
                    return None  # an external star import may provide any name
                if self._exports(star, name):
                    return self._lookup(star, name)
                if star in self.modules and self.modules[star].get("all") == "dynamic":
                    return None
        elif not self.is_module(module):
            return None
        sub = f"{module}.{name}"
        if self.is_module(sub) and sub in self._imported:
            return Target("module", sub, "")
        return None

    def _exports(self, module: str, name: str) -> bool:
        """Does ``from module import *`` bind ``name``?"""
        summary = self.modules.get(module)
        if summary is None:
            return False
        exported = summary.get("all")
        if isinstance(exported, list):
            return name in exported
        if exported == "dynamic" or name.startswith("_"):
            return False
        return self._lookup(module, name) is not None

    def _binding(self, module: str, b: Json) -> Optional[Target]:
        k = b.get("k")
        if k == "def":
            q = b["q"]
            rec = self.modules[module]["defs"].get(q)
            if rec is None:
                return None
            if rec["kind"] == "assign":
                value = rec.get("value", {})
                if value.get("k") == "ref":
                    aliased = self._memoised(
                        ("a", module, q), lambda: self.resolve_in_scope_nested(module, value)
                    )
                    if aliased is not None:
                        return aliased
            return Target(rec["kind"], module, q)
        if k == "module":
            m = self.beside(module, b["m"])
            return Target("module", m, "") if self.is_module(m) else self._external(m)
        if k == "from":
            m, n = b.get("m"), b["n"]
            if m is None:
                return None
            m = self.beside(module, m)
            if self.is_module(m):
                t = self._lookup(m, n)
                if t is None and self.is_module(f"{m}.{n}"):
                    t = Target("module", f"{m}.{n}", "")
                return t
            return self._external(f"{m}.{n}")
        return None

    def beside(self, module: str, name: str) -> str:
        """The module an absolute import of ``name`` in ``module`` loads: ``name``
        when the project has it; else a module of that name beside the importer
        (``lib/run.py``'s ``import util`` is ``lib/util.py``: a script run as
        ``python lib/run.py`` has its own folder first on ``sys.path``), when that
        folder is no package (a package's modules are imported: ``import random`` in
        ``pkg/augment.py`` is the standard library's, not ``pkg/random.py``); else
        ``name`` (outside the project)."""
        if self.is_module(name) or "." not in module:
            return name
        folder = module.rsplit(".", 1)[0]
        if folder in self.modules:  # a package (its `__init__.py`): its modules are imported, not run
            return name
        beside = f"{folder}.{name}"
        return beside if beside in self.modules or self.is_module(beside) else name

    def is_external(self, name: str) -> bool:
        """Whether the module ``name`` is outside the project (its top-level
        package is not one of the project's)."""
        top = name.split(".", 1)[0]
        return not (top in self.modules or top in self._packages or top in self._dup_tops)

    def _external(self, name: str) -> Optional[Target]:
        """A name outside the project; None when its top-level package is a
        project package (a module missing from the index is not external)."""
        top = name.split(".", 1)[0]
        if top in self.modules or top in self._packages or top in self._dup_tops:
            return None
        return Target("external", "", name)

    def resolve_in_scope_nested(self, module: str, value: Json) -> Optional[Target]:
        """An alias assignment's right-hand side (module scope), inside a running
        resolution (shares its step budget and cycle guard)."""
        dotted = value["ref"]
        if value.get("bind") != "module":
            return None
        return self._dotted(self._lookup(module, dotted.split(".", 1)[0]), dotted, 1)

    def _attr(self, t: Target, name: str) -> Optional[Target]:
        self._step()
        if t.kind == "module":
            return self._lookup(t.module, name)
        if t.kind == "external":
            return Target("external", "", f"{t.qualname}.{name}")
        if t.kind == "class":
            return self._member(t, name)
        return None

    def _member(self, cls: Target, name: str) -> Optional[Target]:
        """A class attribute: the class's own member, else one of its project
        base classes' (depth first, in order); unknown past an external base."""
        return self._memoised(("m", cls.module, cls.qualname, name),
                              lambda: self._member_uncached(cls, name))

    def _member_uncached(self, cls: Target, name: str) -> Optional[Target]:
        summary = self.modules.get(cls.module)
        if summary is None:
            return None
        rec = summary["defs"].get(cls.qualname, {})
        b = rec.get("members", {}).get(name)
        if b is not None:
            return self._binding(cls.module, b)
        for base in rec.get("bases", []):
            ref = base.get("ref")
            if ref is None or ref == "object":
                if ref is None:
                    return None
                continue
            bt = self.resolve_in_scope_nested(cls.module, base) if base.get("bind") == "module" else None
            if bt is None or bt.kind != "class":
                return None
            found = self._member(bt, name)
            if found is not None:
                return found
        return None

    def is_linen_class(self, cls: Target) -> bool:
        """Does the class ``cls`` derive from ``flax.linen.Module`` (through project bases)?"""
        return self._run(lambda: self._memoised(("linen", cls.module, cls.qualname),
                                                lambda: self._linen(cls, 0))) is True

    def _linen(self, cls: Target, depth: int) -> bool:
        summary = self.modules.get(cls.module)
        if summary is None or depth > 8:
            return False
        for base in summary["defs"].get(cls.qualname, {}).get("bases", []):
            if base.get("ref") is None or base.get("bind") != "module":
                continue
            bt = self.resolve_in_scope_nested(cls.module, base)
            if bt is None:
                continue
            if bt.kind == "external" and bt.qualname == "flax.linen.Module":
                return True
            if bt.kind == "class" and self._memoised(("linen", bt.module, bt.qualname),
                                                     lambda bt=bt: self._linen(bt, depth + 1)) is True:
                return True
        return False

    def override_targets(self, cls: Target, name: str, caller: str) -> list[Target]:
        """The methods ``name`` that ``self.name(...)`` in ``cls``'s method ``caller``
        runs on instances of the project's subclasses of ``cls`` defined in other modules
        (model/overrides.py): each subclass's own ``name``, where neither it nor a class
        between it and ``cls`` defines ``caller`` (it inherits the caller).  A subclass
        whose base does not resolve is not found: unknown reaches nothing."""
        out: list[Target] = []
        todo = [(cls, False)]
        seen = {(cls.module, cls.qualname)}
        while todo and len(seen) < 256:
            base, shadowed = todo.pop()
            for sub in self._subclasses().get((base.module, base.qualname), ()):
                if (sub.module, sub.qualname) in seen:
                    continue
                seen.add((sub.module, sub.qualname))
                members = (self.definition(sub.module, sub.qualname) or {}).get("members") or {}
                hides = shadowed or caller in members or caller == name
                if not hides and sub.module != cls.module and members.get(name, {}).get("k") == "def":
                    t = self._def_target(sub.module, f"{sub.qualname}.{name}")
                    if t is not None and t.kind == "function" and t not in out:
                        out.append(t)
                todo.append((sub, hides))
        return out

    def _subclasses(self) -> dict[tuple[str, str], list[Target]]:
        """Each project class -> the module-level classes of the project whose written
        bases resolve to it (built once per set of summaries)."""
        memo = self._memo.get(("subclasses",))
        if memo is not None:
            return memo  # type: ignore[return-value]
        out: dict[tuple[str, str], list[Target]] = {}
        for module, summary in self.modules.items():
            for q, rec in (summary.get("defs") or {}).items():
                if rec.get("kind") != "class" or "." in q:
                    continue
                for base in rec.get("bases") or ():
                    if base.get("ref") is None or base.get("bind") != "module":
                        continue
                    bt = self.resolve(module, base["ref"])
                    if bt is not None and bt.kind == "class":
                        out.setdefault((bt.module, bt.qualname), []).append(Target("class", module, q))
        self._memo[("subclasses",)] = out  # type: ignore[assignment]
        return out

    def definition(self, module: str, qualname: str) -> Optional[Json]:
        """The summary record of a definition."""
        summary = self.modules.get(module)
        return None if summary is None else summary["defs"].get(qualname)
