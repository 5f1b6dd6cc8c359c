"""Import resolution: which local names stand for which qualified names.

``import jax.numpy as jnp`` makes ``jnp.zeros`` resolve to ``jax.numpy.zeros``;
``from jax import random as jr`` makes ``jr.split`` ``jax.random.split``;
``import jax.numpy as np`` makes ``np`` *jax.numpy*.  An import that does not run
where JAX is installed (``try: import jax.numpy as jnp`` / ``except ImportError: import
numpy as jnp``: model/version_guards.py) binds only a name nothing else imports.  A name that was not
imported resolves to nothing, so ``numba.jit`` is never ``jax.jit``.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

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

    def _set(self, local: str, full: str, fallback: bool) -> None:
        if not fallback or local not in self.names:
            self.names[local] = full

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
            self._set(local, f"{base}.{alias.name.value}", fallback)

    def resolve_dotted(self, dotted: str) -> Optional[str]:
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
