"""JAX123 x64-enabled-late: `jax.config.update('jax_enable_x64', True)` after module-level code already made JAX arrays."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.engine.rule import Invalid, Rule, Valid
from jaxlint.findings import Severity
from jaxlint.model.x64 import main_guard, late_env_sets, makes_arrays
from jaxlint.model.walk import config_update_args, dotted_name, string_value, walk_tree


class LateX64Enable(Rule):
    code = "JAX123"
    name = "x64-enabled-late"
    runtime_check = 'None: a module-level ordering problem, not a function to call.'
    summary = "`jax.config.update('jax_enable_x64', True)` after module-level code already made JAX arrays"
    severity = Severity.WARNING
    seed = "The Sharp Bits § Double (64bit) precision (seed 000)"
    what_it_does = (
        "Flags `jax.config.update(\"jax_enable_x64\", True)` (at module level, or in a function) "
        "that comes after module-level statements which already created JAX arrays or ran "
        "`jax.numpy`, `jax.lax` or `jax.random` computations while x64 was off by default (arrays "
        "made after this file, or a project module it imports, switched x64 on, or while the file "
        "switched it off on purpose with `jax.config.update(\"jax_enable_x64\", False)`, do not count; "
        "dtype queries, keys and `jnp.vectorize` make no arrays), or after an import of a project module "
        "whose import made JAX arrays while x64 was off (its top level, or that of a module it imports, "
        "calls `jax.numpy`/`jax.lax`/`jax.random` or a jitted function of the project: "
        "`from ..cosmology import TODAY` with `TODAY = age_at_z0(*PLANCK15)`; what runs at import "
        "counts too: a def's parameter defaults and decorators and a class body's statements, "
        "`def __init__(self, scale=jnp.ones(()))`, `loc = jnp.zeros(())` in a class, not a "
        "`default_factory` lambda nor a function body; a module it imports only inside a function "
        "or in its `if __name__ == \"__main__\":` block is not imported with it: `main.py`'s "
        "`if __name__ == \"__main__\": from pkg.sim import simulate` runs nothing when a test imports "
        "`main`); and "
        "`os.environ[\"JAX_ENABLE_X64\"] = \"1\"` (also `os.environ.setdefault(...)`, "
        "`os.environ.update(...)`) written after JAX was imported, when JAX has already read it "
        "(JAX reads the variable once, as `jax` is imported: `jax/_src/config.py` defines the option "
        "from the environment then): at module level after `import jax`, or after importing a module "
        "of the project that imports it; in a function of a module that imports JAX at its top, or "
        "whose package's `__init__` does (BrainPy's `def enable_x64(mode): os.environ[...] = "
        "str(int(mode))`). "
        "Not a function that also calls `jax.config.update(\"jax_enable_x64\", ...)`, "
        "nor a module that starts other processes (`subprocess`, `multiprocessing`, `os.system`), "
        "for which the variable may be meant. "
        "And a module that switches x64 on by its own top level when another module "
        "of the project imports it too late (directly, or through modules whose import imports it; "
        "the importer's top level, then its `__main__` block, in order): its "
        "`jax.config.update(\"jax_enable_x64\", True)` after the importer made JAX arrays (GPJax's "
        "`__init__` imported after `before = jax.random.normal(key)`: the draws change with the import), "
        "its `os.environ.setdefault(\"JAX_ENABLE_X64\", \"1\")` after the importer imported jax (unless "
        "the module also updates the live config, naming `jax_enable_x64`); not an importer that runs "
        "with x64 on already by another module's switch."
    )
    why_bad = (
        "The seed says x64 \"only works on startup\"; current JAX (0.10, 0.12) accepts the "
        "switch at any time without a warning, which is the trap: arrays made before it stay "
        "32-bit (`x.dtype` is `float32`), arrays made after are 64-bit, mixing them promotes "
        "to 64-bit, and a function jitted on the old arrays retraces for the new ones. Results "
        "silently have mixed precision."
    )
    use_instead = "Enable x64 first, right after importing JAX (or set `JAX_ENABLE_X64=1` in the environment):\n\n```python\nimport jax\njax.config.update(\"jax_enable_x64\", True)\nimport jax.numpy as jnp\n\nx = jnp.ones(3)\n```"
    fix_safety = "No automatic fix: moving the statement changes the dtypes of everything created before it."
    VALID = [
        # the variable set before JAX is imported; a function enabling x64 in a module
        # that made no arrays at import
        Valid(
            """
            import os
            os.environ["JAX_ENABLE_X64"] = "1"
            import jax
            import jax.numpy as jnp

            def main():
                jax.config.update("jax_enable_x64", True)
                return jnp.arange(3.0)
            """
        ),
        Valid(
            """
            import jax
            import jax.numpy as jnp

            jax.config.update("jax_enable_x64", True)
            x = jnp.ones(3)
            """
        ),
        # only functions defined before
        Valid(
            """
            import jax
            import jax.numpy as jnp

            def f(x):
                return jnp.sin(x)

            jax.config.update("jax_enable_x64", True)
            print(f(jnp.ones(3)))
            """
        ),
        # x64 on before the arrays, off on purpose for a stretch, back on
        Valid(
            """
            import jax
            import jax.numpy as jnp

            jax.config.update("jax_enable_x64", True)
            a = jnp.array(1.0)
            jax.config.update("jax_enable_x64", False)
            b = jnp.array(1.0)
            jax.config.update("jax_enable_x64", True)
            """
        ),
        # dtype queries are not computations
        Valid(
            """
            import jax
            import jax.numpy as jnp

            EPS = jnp.finfo(jnp.float32).eps
            jax.config.update("jax_enable_x64", True)
            """
        ),
    ]

    INVALID = [
        Invalid(
            """
            import os
            import jax
            os.environ["JAX_ENABLE_X64"] = "1"
            import jax.numpy as jnp

            EPS = jnp.sqrt(jnp.asarray(1e-7))

            def main():
                jax.config.update("jax_enable_x64", True)
                return jnp.arange(3.0) + EPS
            """,
            expected=[(3, 1), (9, 5)],
            messages=[
                '`JAX_ENABLE_X64` is set after `import jax`: JAX reads it when it is imported, so x64 stays off here. Set it before the first `import jax` (or call `jax.config.update("jax_enable_x64", True)`)',
                "`main` enables x64 after module-level code already created JAX arrays at line 6: those stay 32-bit while arrays made after the switch are 64-bit. Enable x64 right after importing jax",
            ],
        ),
        Invalid(
            """
            import jax
            import jax.numpy as jnp

            x = jnp.ones(3)
            jax.config.update("jax_enable_x64", True)
            y = x + 1
            """,
            expected=[(5, 1)],
            messages=[
                "x64 is enabled after JAX arrays were already created at line 4: arrays made before this point stay 32-bit while later ones are 64-bit. Enable x64 right after importing jax",
            ],
        ),
    ]

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # the first array module-level code made while x64 was off by default (not
        # on, not switched off on purpose by this file)
        self._first: Optional[cst.CSTNode] = None
        self._x64: Optional[set[int]] = None
        # x64 at this point of the module's top level: None (off, by default), True
        # (switched on: here, or by importing a project module that does), False
        # (switched off here on purpose: arrays made now are meant to be 32-bit)
        self._state: Optional[bool] = None
        # when the first arrays come from importing a project module: where it makes them
        self._first_via: Optional[str] = None
        # the statements setting `JAX_ENABLE_X64` too late (by id), computed at the first one
        self._env: Optional[dict] = None

    def _project_import(self, node) -> None:
        """An import of the project's own modules when one of them switches x64 on at
        import (a fact from the project): from here on x64 may be on, so arrays made
        after it are not known to be 32-bit."""
        ctx = self.ctx
        if not ctx.unit.is_module or not ctx.index.x64_by_import or self._state is not None:
            return
        packages = ctx.settings.project_packages
        if isinstance(node, cst.ImportFrom):
            heads = [] if node.relative else [(dotted_name(node.module) or "").split(".", 1)[0]]
            if node.relative:
                self._state = True
                return
        else:
            heads = [(dotted_name(a.name) or "").split(".", 1)[0] for a in node.names]
        if any(h in packages for h in heads):
            self._state = True

    def _arrays_import(self, node) -> None:
        """An import of a project module whose import makes JAX arrays while x64 is
        off (its top level computes with JAX, or imports a module that does: a fact
        from the project): the first arrays this file's program holds are made here."""
        ctx = self.ctx
        made = ctx.index.arrays_imports
        if not made or not ctx.unit.is_module or self._first is not None or self._state is not None:
            return
        names = ctx.imports.names
        for alias in node.names if not isinstance(node.names, cst.ImportStar) else ():
            if isinstance(node, cst.ImportFrom):
                local = alias.asname.name.value if alias.asname is not None else alias.name.value  # type: ignore[union-attr]
                full = names.get(local) or _relative(ctx.settings, node, dotted_name(alias.name) or "")
            else:
                full = dotted_name(alias.name) or ""
            parts = full.split(".")
            hit = next((made[m] for m in (".".join(parts[:i]) for i in range(len(parts), 0, -1)) if m in made), None)
            if hit is not None:
                self._first, self._first_via = node, hit
                return

    def visit_Import(self, node: cst.Import) -> None:
        self._arrays_import(node)
        self._project_import(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._arrays_import(node)
        self._project_import(node)

    def _imported_late(self, node: cst.CSTNode) -> None:
        """A switch of x64 at this module's import (its top level, before any arrays of
        its own), when another module of the project imports it too late (a fact,
        ``FileIndex.x64_late``): after that module made JAX arrays, which stay 32-bit
        while those made after the import are 64-bit (``jax.config.update``); after it
        imported jax, which read ``JAX_ENABLE_X64`` then, so x64 stays off (the
        variable).  Not a module that also updates the live config (it names
        ``jax_enable_x64``: ``sys.modules["jax"].config.update(...)`` when jax is in)."""
        ctx = self.ctx
        late = ctx.index.x64_late
        if not late or not ctx.unit.is_module or self._first is not None or self._state is not None:
            return
        if any(main_guard(s) and any(n is node for n in walk_tree(s)) for s in ctx.module.body):
            return
        env = any(n is node for n in ctx.index.x64_env_early)
        if env:
            found = late.get("jax")
            if found is None or "jax_enable_x64" in ctx.text or (self._env and id(node) in self._env):
                return
            self.report(
                node,
                f"`JAX_ENABLE_X64` is set when this module is imported, but `{found[0]}` imports it (line "
                f"{found[1]}) after importing jax, which read the variable then: x64 stays off there "
                "(`jnp.float64` arrays are `float32`). Also switch the live config when jax is imported "
                "already (`jax.config.update(\"jax_enable_x64\", True)`), or set the variable before jax is imported",
            )
            return
        found = late.get("arrays")
        if found is None:
            return
        self.report(
            node,
            f"Importing this module enables x64, but `{found[0]}` imports it (line {found[1]}) after its top "
            f"level already created JAX arrays (`{found[2]}`): those stay 32-bit while arrays made after the "
            "import are 64-bit (random draws and results change with the import). Enable x64 in the "
            "program's entry point, before any array is made, not at a library's import",
        )

    def _late_env(self, node: cst.CSTNode) -> None:
        """``os.environ["JAX_ENABLE_X64"] = "1"`` (``.setdefault``, ``.update``) where JAX
        has read the variable already (``model/x64.late_env_sets``)."""
        if self._env is None:
            ctx = self.ctx
            self._env = late_env_sets(ctx.index, ctx.settings.module, ctx.settings.is_package, ctx.text,
                                      ctx.x64_switched_in)
        found = self._env.get(id(node))
        if found is None:
            if isinstance(node, cst.Assign):
                self._imported_late(node)
            return
        _, imp, via, unit = found
        fix_it = "JAX reads it once, when it is imported, so x64 stays off (`jnp.float64` arrays are `float32`)"
        if unit is None and imp is not None and not via:
            self.report(
                node,
                "`JAX_ENABLE_X64` is set after `import jax`: JAX reads it when it is imported, so "
                "x64 stays off here. Set it before the first `import jax` (or call "
                "`jax.config.update(\"jax_enable_x64\", True)`)",
            )
        elif unit is None and imp is not None:
            self.report(
                node,
                f"`JAX_ENABLE_X64` is set after `{self.ctx.code(imp).strip()}` (line {{related_line}}) imported "
                f"JAX ({via} imports it): {fix_it}. Set it before that import (or call "
                "`jax.config.update(\"jax_enable_x64\", True)`)",
                related=imp,
            )
        elif unit is None:
            self.report(
                node,
                f"`JAX_ENABLE_X64` is set after the package above this module imported JAX ({via} "
                f"imports it): {fix_it}. Call `jax.config.update(\"jax_enable_x64\", True)` instead",
            )
        elif imp is not None:
            what = "`" + self.ctx.code(imp).strip() + "`"
            if via:
                what += f" ({via} imports it)"
            self.report(
                node,
                f"`JAX_ENABLE_X64` is set in `{unit.name}`, which runs after this module imported JAX "
                f"({what}, line {{related_line}}): {fix_it}. Call "
                "`jax.config.update(\"jax_enable_x64\", True)` instead",
                related=imp,
            )
        else:
            self.report(
                node,
                f"`JAX_ENABLE_X64` is set in `{unit.name}`, which runs after the package above this module "
                f"imported JAX ({via} imports it): {fix_it}. Call "
                "`jax.config.update(\"jax_enable_x64\", True)` instead",
            )

    def visit_Assign(self, node: cst.Assign) -> None:
        self._late_env(node)

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if type(node.func) is cst.Attribute and node.func.attr.value in ("setdefault", "update"):
            self._late_env(node)
        if self._x64 is None:
            self._x64 = {id(n) for n in ctx.index.x64_nodes}
        if not ctx.unit.is_module:
            # a function switching x64 on after module-level code made arrays
            if id(node) in self._x64 and self._first is not None and self._first_via is not None:
                self.report(
                    node,
                    f"`{ctx.unit.name}` enables x64 after `{ctx.code(self._first).strip()}` (line "
                    f"{{related_line}}) already created JAX arrays while x64 was off, at import "
                    f"({self._first_via}): they stay 32-bit while arrays made after the switch are 64-bit. "
                    "Enable x64 before importing it (right after importing jax)",
                    related=self._first,
                )
            elif id(node) in self._x64 and self._first is not None:
                self.report(
                    node,
                    f"`{ctx.unit.name}` enables x64 after module-level code already created JAX "
                    "arrays at line {related_line}: those stay 32-bit while arrays made after the "
                    "switch are 64-bit. Enable x64 right after importing jax",
                    related=self._first,
                )
            return
        if id(node) in self._x64:
            self._imported_late(node)
            if self._first is not None and self._first_via is not None:
                self.report(
                    node,
                    f"x64 is enabled after `{ctx.code(self._first).strip()}` (line {{related_line}}) already "
                    f"created JAX arrays while x64 was off, at import ({self._first_via}): they stay 32-bit "
                    "while arrays made after this point are 64-bit. Enable x64 before importing it "
                    "(right after importing jax)",
                    related=self._first,
                )
            elif self._first is not None:
                self.report(
                    node,
                    "x64 is enabled after JAX arrays were already created at line {related_line}: "
                    "arrays made before this point stay 32-bit while later ones are 64-bit. Enable "
                    "x64 right after importing jax",
                    related=self._first,
                )
            self._state = True
            return
        q = ctx.qualname(node.func)
        if q is not None and q.startswith("jax.") and q.endswith("config.update") and _switches_off(node):
            self._state = False  # a deliberate 32-bit stretch (restored later, on purpose)
            return
        if self._first is not None or self._state is not None:
            return
        if not makes_arrays(q):
            return
        self._first = node


def _relative(settings, node: cst.ImportFrom, name: str) -> str:
    """``from ..cosmology import TODAY`` in ``pkg.sed.weights``: ``pkg.cosmology.TODAY``
    ("" when the file's module is unknown or the dots climb above it)."""
    if not node.relative or not settings.module:
        return ""
    parts = settings.module.split(".")
    up = len(node.relative) - (1 if settings.is_package else 0)
    if up >= len(parts) or up < 0:
        return ""
    base = parts[:len(parts) - up] if up else parts
    inner = dotted_name(node.module) if node.module is not None else None
    return ".".join([*base, *([inner] if inner else []), name])


def _switches_off(call: cst.Call) -> bool:
    """``jax.config.update("jax_enable_x64", False)`` (or ``0``)."""
    pos = config_update_args(call)
    if len(pos) < 2 or string_value(pos[0].value) != "jax_enable_x64":
        return False
    v = pos[1].value
    return isinstance(v, cst.Name) and v.value == "False" or isinstance(v, cst.Integer) and v.value == "0"
