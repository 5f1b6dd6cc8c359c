"""Import resolution: which local names stand for which qualified names.

``import jax.numpy as jnp`` makes ``jnp.zeros`` resolve to ``jax.numpy.zeros``;
``from jax import random as jr`` makes ``jr.split`` ``jax.random.split``;
``import jax.numpy as np`` makes ``np`` *jax.numpy*.  An import that does not run
where JAX is installed (``try: import jax.numpy as jnp`` / ``except ImportError: import
numpy as jnp``: model/version_guards.py) binds only a name nothing else imports.  A name that was not
imported resolves to nothing, so ``numba.jit`` is never ``jax.jit``.

A name the file binds to different modules (``import jax.numpy as np`` at the top,
``import numpy as np`` further down) is not in ``names``: each use of it resolves to
the module that reaches it (``resolve_expr``, model/import_flow.py), or to nothing where
that is not one module; a look-up by the name alone (``resolve_dotted``) finds nothing.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.model import import_flow
from jaxlint.model.apis import canonical
from jaxlint.model.walk import dotted_name as _module_name


class ImportTable:
    """Local name -> qualified name, for one file (imports in any scope)."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        # relative imports (``from .losses import f`` -> {"f": ".losses.f"}): not
        # JAX API, but they name functions of the project's other modules
        self.relative: dict[str, str] = {}
        self.star = False  # `from m import *` somewhere: any free name may come from m
        # local name -> module -> only ever bound by an import that does not run
        self._bound: dict[str, dict[str, bool]] = {}
        # names bound to different modules -> those modules (see ``settle``)
        self.ambiguous: dict[str, frozenset[str]] = {}
        self._by_node: dict[int, Optional[str]] = {}  # id(Name) -> its module (model/import_flow.py)
        # library names the project's modules re-export, as this file writes them (a fact of
        # the project: jaxlint/project/facts.py): `from utils import jr` with `from jax import
        # random as jr` in utils/__init__.py gives {"jr": "jax.random"}; `import utils` then
        # `utils.jr.shuffle` gives {"utils.jr": "jax.random"}
        self.aliases: dict[str, str] = {}

    def _set(self, local: str, full: str, fallback: bool) -> None:
        seen = self._bound.setdefault(local, {})
        key = canonical(full)
        seen[key] = seen.get(key, True) and fallback
        if local in self.ambiguous:
            return
        if self._effective(local) is not None and len(self._effective(local)) > 1:
            # bound to another module before: which one a use sees is decided per use
            # once the file is read (``settle``); unknown until then
            self.ambiguous[local] = frozenset()
            self.names.pop(local, None)
            return
        if not fallback or local not in self.names:
            self.names[local] = full

    def _effective(self, local: str) -> Optional[set[str]]:
        """The modules a name is bound to by imports that run (those of import guards'
        handlers only when nothing else binds it)."""
        seen = self._bound.get(local)
        if not seen:
            return None
        running = {m for m, fb in seen.items() if not fb}
        return running or set(seen)

    def settle(self, module: cst.Module, fallback_ids: set[int]) -> None:
        """Once the whole file is read: for each name bound to different modules, the
        module each use of it sees (model/import_flow.py)."""
        if not self.ambiguous:
            return
        names = frozenset(self.ambiguous)
        dead_only = {n for n in names if not any(not fb for fb in self._bound[n].values())}
        self.ambiguous = {n: frozenset(self._effective(n) or ()) for n in names}

        def keep(node: cst.CSTNode, name: str) -> bool:
            return id(node) not in fallback_ids or name in dead_only

        self._by_node = import_flow.resolve(module, names, keep, canonical)

    def resolve_expr(self, expr: cst.CSTNode) -> Optional[str]:
        """The qualified name a Name/Attribute chain stands for by the imports, as the
        use at this place sees them (a name bound to different modules: the one that
        reaches it, else None)."""
        dotted = _module_name(expr) if type(expr) in (cst.Name, cst.Attribute) else None
        if dotted is None:
            return None
        if self.ambiguous:
            head = expr
            while type(head) is cst.Attribute:
                head = head.value
            if head.value in self.ambiguous:  # type: ignore[attr-defined]
                base = self._by_node.get(id(head))
                if base is None:
                    return None
                rest = dotted.partition(".")[2]
                return canonical(f"{base}.{rest}" if rest else base)
        return self.resolve_dotted(dotted)

    def add_import(self, node: cst.Import, fallback: bool = False) -> None:
        """``fallback``: the import is in code that does not run where JAX is installed
        (``except ImportError: import numpy as jnp``): it binds only a name nothing
        else imports."""
        for alias in node.names:
            full = _module_name(alias.name)
            if full is None:
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self._set(alias.asname.name.value, full, fallback)
            else:
                top = full.split(".", 1)[0]
                self._set(top, top, fallback)

    def add_import_from(self, node: cst.ImportFrom, fallback: bool = False) -> None:
        if isinstance(node.names, cst.ImportStar):
            self.star = True
            return
        if node.relative or node.module is None:
            dots = "." * len(node.relative)
            base = _module_name(node.module) if node.module is not None else ""
            for alias in node.names:
                if isinstance(alias.name, cst.Name):
                    local = alias.name.value
                    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                        local = alias.asname.name.value
                    if local in self.aliases:
                        self._set(local, self.aliases[local], fallback)  # `from .utils import jnp`
                        continue
                    self.relative[local] = f"{dots}{base + '.' if base else ''}{alias.name.value}"
            return
        base = _module_name(node.module)
        if base is None:
            return
        for alias in node.names:
            if not isinstance(alias.name, cst.Name):
                continue
            local = alias.name.value
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            self._set(local, self.aliases.get(local) or f"{base}.{alias.name.value}", fallback)

    def every_binding(self) -> list[tuple[str, str]]:
        """(local name, qualified name) of every import of the file, in any scope, a
        name bound to several modules once for each (also those of import guards)."""
        return [(local, full) for local, seen in self._bound.items() for full in seen]

    def spelled(self, dotted: str) -> Optional[str]:
        """``dotted`` with its head replaced by what the imports bind it to, as written
        (not canonical): ``jr.shuffle`` -> ``jax.random.shuffle``; a library name a
        project module re-exports counts (``utils.jr.shuffle`` -> ``jax.random.shuffle``)."""
        head, _, rest = dotted.partition(".")
        base = self.names.get(head)
        if base is None:
            return None
        if self.aliases and rest:
            parts = dotted.split(".")
            for i in range(len(parts), 1, -1):
                known = self.aliases.get(".".join(parts[:i]))
                if known is not None:
                    return ".".join((known, *parts[i:]))
        return f"{base}.{rest}" if rest else base

    def resolve_dotted(self, dotted: str) -> Optional[str]:
        if self.aliases and "." in dotted:
            full = self.spelled(dotted)
            return canonical(full) if full is not None else None
        head, _, rest = dotted.partition(".")
        base = self.names.get(head)
        if base is None:
            return None
        return canonical(f"{base}.{rest}" if rest else base)

    def project_import(self, head: str, packages: frozenset[str]) -> bool:
        """Does ``head`` name something imported from the project's own modules
        (``packages``: the project's top-level names), relatively or through a
        star import?"""
        if head in self.relative:
            return True
        full = self.names.get(head)
        if full is not None:
            return full.split(".", 1)[0] in packages
        return self.star
