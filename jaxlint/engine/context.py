"""What a rule may ask: ``RuleContext``, the one public API between rules and the model.

A rule sees the file (``module``, ``text``, ``path``, ``settings``), the model's
read-only facts (``index``: units, transform sites, module assignments;
``imports``), the unit being walked, and the interpreter's answers about values
at the current point of the walk.  Everything else of the interpreter (its
environments, memo tables, key bookkeeping) stays behind this class: a rule that
needs something new asks for a method here, it does not reach into the model.

The answers are the interpreter's own bound methods (no extra call layer on the
hot paths); ``__slots__`` keeps the surface closed.
"""

from __future__ import annotations

from typing import Callable, ItemsView, Optional

import libcst as cst

from jaxlint.engine.types import Report
from jaxlint.model.index import FileIndex
from jaxlint.model.interpreter import Interpreter, LoopFrame
from jaxlint.model.jit_calls import JitInfo
from jaxlint.model.units import Unit
from jaxlint.model.values import KeyToken, Value
from jaxlint.settings import LintSettings


class RuleContext:
    __slots__ = (
        "_interp", "_reports", "module", "text", "path", "settings", "index", "imports",
        "qualname", "builtin_name", "value", "is_traced", "code", "describe_origin",
        "static_hint", "jit_callee", "jit_declaration", "key_token", "consume_key",
        "attr_key", "lookup",
    )

    # Typed for readers; each is the interpreter's bound method (see __init__).
    qualname: Callable[[cst.CSTNode], Optional[str]]
    """The qualified name an expression stands for (``jnp.zeros`` ->
    ``jax.numpy.zeros``), or None; local bindings shadow imports."""
    builtin_name: Callable[[cst.CSTNode], Optional[str]]
    """``print``/``next``/``int``... when the expression names an unshadowed builtin."""
    value: Callable[[cst.CSTNode], Value]
    """The abstract value of an expression here (``model/values.py``)."""
    is_traced: Callable[[cst.CSTNode], bool]
    """Is the expression a tracer here?"""
    code: Callable[[cst.CSTNode], str]
    """The source text of a node."""
    describe_origin: Callable[[Value], str]
    """A phrase saying where a tracer comes from, for messages."""
    static_hint: Callable[[Value], str]
    """"; or ... mark it static (static_argnums=...)" when that would help, else ""."""
    jit_callee: Callable[..., Optional[JitInfo]]
    """``jit_callee(call, exact=True)``: the jit of this file a call invokes."""
    jit_declaration: Callable[[cst.CSTNode], Optional[JitInfo]]
    """The JitInfo of a jit written here (``jax.jit(f, ...)``, a jit decorator)."""
    key_token: Callable[[cst.CSTNode], Optional[KeyToken]]
    """The identity of the PRNG key an expression holds, or None."""
    consume_key: Callable[[KeyToken, cst.CSTNode, str], Optional[tuple[cst.CSTNode, str]]]
    """Mark a key consumed at ``node`` (``how``); the earlier consumption if there was one."""
    attr_key: Callable[[str], Optional[KeyToken]]
    """The key identity already given to an attribute chain (``"self.key"``)."""
    lookup: Callable[[str], Optional[Value]]
    """The value a name is bound to here (local, enclosing, module); None for
    imports and builtins."""

    def __init__(self, interp: Interpreter) -> None:
        self._interp = interp
        self._reports: list[Report] = []
        self.module: cst.Module = interp.module
        self.text: str = interp.text
        self.path: str = interp.path
        self.settings: LintSettings = interp.settings
        self.index: FileIndex = interp.index
        self.imports = interp.imports
        for name in (
            "qualname", "builtin_name", "value", "is_traced", "code", "describe_origin",
            "static_hint", "jit_callee", "jit_declaration", "key_token", "consume_key",
            "attr_key", "lookup",
        ):
            setattr(self, name, getattr(interp, name))

    # ------------------------------------------------------------------ where we are
    @property
    def unit(self) -> Unit:
        """The unit (module, function, lambda) being walked: ``.traced``,
        ``.reasons``, ``.traced_params``, ``.static_params``, ``.params``, ``.cls``, ``.host``."""
        return self._interp.unit

    @property
    def in_traced(self) -> bool:
        """Does the current code run while JAX traces it?"""
        return self._interp.in_traced

    @property
    def x64_enabled(self) -> bool:
        """Is ``jax_enable_x64`` on for this code (config, the file, or an enclosing
        ``with jax.enable_x64()``)?"""
        return self._interp.x64_enabled

    @property
    def loop_stack(self) -> list[LoopFrame]:
        """The Python loops around the current statement, innermost last."""
        return self._interp.loop_stack

    # ------------------------------------------------------------------ bindings
    def local(self, name: str) -> Optional[Value]:
        """The value ``name`` has in the current unit on this path, if bound here."""
        return self._interp.env.get(name)

    def module_value(self, name: str) -> Optional[Value]:
        """The value a module-level name had at the end of the module's walk."""
        return self._interp.module_env.get(name)

    def consumed_keys(self) -> ItemsView[KeyToken, tuple[cst.CSTNode, str]]:
        """The keys consumed so far in this unit on this path: token -> (node, how)."""
        return self._interp.consumed.items()

    # ------------------------------------------------------------------ engine side
    def _add_report(self, report: Report) -> None:
        unit = self._interp.unit
        report.function = None if unit.is_module else unit.qualname
        if unit.origins:
            report.origins = tuple(unit.origins)
        self._reports.append(report)
