"""Pass 2 of the model: walk each unit in flow order, track abstract values.

Units are analysed callers-first (the module, then functions in call order,
see ``schedule``), so that when a helper is reached the model already knows
which of its parameters received tracers from traced callers.  Inside a unit,
statements are walked in order, keeping an environment of abstract ``Value``s.

The interpreter knows no rule: it is handed two tables, node class -> callables,
and calls them when it enters and leaves a node (``hooks`` / ``leave_hooks``).
The engine (``jaxlint/engine``) builds those tables from the enabled rules; the
rules ask questions through ``jaxlint.engine.context.RuleContext``.

``Interpreter`` is assembled from one part per concern, each its own module:

* ``model/bindings.py``: names, scopes, environments, key identities, loop frames;
* ``model/evaluation.py``: the abstract value of an expression;
* ``model/narrowing.py``: what a condition proves, the branches no trace takes;
* ``model/calls.py``: what a call does to its callee (traced parameters, imported
  helpers recorded for their module);
* ``model/walker.py``: the walk of statements and expressions, and the rules' hooks.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.model.bindings import Bindings, LoopFrame
from jaxlint.model.calls import CallEffects, ExternalCall
from jaxlint.model.evaluation import JAX_COMPUTED, Evaluator
from jaxlint.model.index import FileIndex
from jaxlint.model.jit_calls import JitCalls, JitInfo
from jaxlint.model.journal import JournalDict
from jaxlint.model.narrowing import Narrowing
from jaxlint.model.scopes import bound_receiver
from jaxlint.model.units import Unit
from jaxlint.model.values import KeyToken, Value
from jaxlint.model.walker import Hooks, Walker
from jaxlint.model.x64 import X64Model
from jaxlint.settings import LintSettings

__all__ = ["ExternalCall", "Hooks", "Interpreter", "JAX_COMPUTED", "LoopFrame", "schedule"]


class Interpreter(Walker, CallEffects, Narrowing, Evaluator, Bindings):
    """The abstract interpreter of one file: the current unit, its environment,
    and the answers about values the rules' context passes on."""

    def __init__(
        self,
        index: FileIndex,
        text: str,
        path: str,
        settings: LintSettings,
    ) -> None:
        self.index = index
        self.module = index.module
        self.name_reads: dict[str, int] = {}  # model/arg_shapes.py
        self.loop_binds: dict[int, frozenset] = {}
        self.text = text
        self.path = path
        self.settings = settings
        self.imports = index.imports
        self.unit: Unit = index.module_unit
        # journaled (model/journal.py): a branch costs what it writes, not the whole environment
        self.env: JournalDict = JournalDict()
        self.module_env: dict[str, Value] = {}
        self.consumed: JournalDict = JournalDict()  # KeyToken -> (node, how)
        self.loop_stack: list[LoopFrame] = []
        self.x64_depth = 0  # inside `with jax.enable_x64():` or an x64 guard
        self.eager = False  # the unit runs under vmap only (see run_unit)
        # the unit is differentiated outside jit only: its tracers hold concrete values
        # (model/gradtrace.py); ``is_traced`` answers for abstract tracers, ``is_tracer``
        # for any
        self.concrete = False
        self.raises_depth = 0  # inside `with pytest.raises(...)` / `self.assertRaises(...)`
        # the exceptions the enclosing `try:` bodies of this unit handle (names as the
        # handlers spell them, qualified; a handler that only re-raises handles nothing)
        self.caught: list[frozenset[str]] = []
        self.caught_alone: list[bool] = []  # the `try:` body is one statement
        # names known not to be None on this path (after `if p is None: return ...`)
        self.not_none: set[str] = set()
        # id(unit) -> names not None at every transformation site of it seen so far, and how many
        self._not_none_at_sites: dict[int, tuple[frozenset, int]] = {}
        self._site_units: Optional[dict[int, list[Unit]]] = None
        self._memo: dict[int, Value] = {}
        self._attr_tokens: dict[str, KeyToken] = {}
        self.jit_calls = JitCalls(self)
        self.external_calls: list[ExternalCall] = []
        # calls of imported project functions, any code: (callee as written, kinds of the
        # positional arguments, (keyword, kind) pairs), None for both with *args/**kwargs
        self.arg_calls: list[tuple] = []
        self._return_kinds: dict[int, str] = {}
        # id(class) -> attribute -> the ref of the instance it holds (model/instances.py)
        self.instance_attrs: dict[int, dict[str, str]] = {}
        self._held_jits: dict[int, dict[str, bool]] = {}  # class -> attribute -> a jitted function (evaluation.py)
        self.key_fields_memo: dict[int, dict[str, str]] = {}  # flax module class -> key fields drawn from
        self.haiku_draws_memo: dict[int, str] = {}  # hk.transform'ed function -> its draw ("" none)
        # imported jit (as written) -> its parameters with defaults that calls here pass
        self.jit_passes: dict[str, set[str]] = {}
        # imported jit (as written) -> its static parameters that calls here give a
        # concrete JAX array, a NumPy array or a key -> that kind (model/calls.py)
        self.static_given: dict[str, dict[str, str]] = {}
        self._hooks: Hooks = {}
        self._leave_hooks: Hooks = {}
        self._qn_memo: dict[int, Optional[str]] = {}
        self._local_values_memo: dict[int, dict] = {}
        # reading a helper's body for what a call of it returns (model/returns.py): the
        # caller's traced-ness; the depth of such reads; their results
        self.scratch_traced: Optional[bool] = None
        self.scratch_depth = 0
        self.scratch_memo: dict = {}
        self.scratch_attrs: Optional[dict] = None
        self.x64 = X64Model(self)  # where x64 is on (after the rest: it asks qualname)

    # ------------------------------------------------------------------ queries
    @property
    def in_traced(self) -> bool:
        """True when the current code runs while JAX traces it."""
        if self.scratch_traced is not None:
            return self.scratch_traced  # a helper's body read for its caller (model/returns.py)
        return self.unit.traced and not self.unit.host

    @property
    def in_tracing(self) -> bool:
        """True when the current code runs with tracers: under a trace, or
        differentiated outside jit (tracers of concrete values)."""
        return (self.unit.traced or self.concrete) and not self.unit.host

    @property
    def x64_enabled(self) -> bool:
        return self.settings.x64 or self.index.enables_x64 or self.x64_depth > 0

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def describe_origin(self, v: Value) -> str:
        """A phrase saying where a tracer comes from, for messages."""
        params = sorted(d for d in v.deps if d not in JAX_COMPUTED)
        reasons = self.unit.grad_reasons if self.concrete else self.unit.reasons
        how = reasons[0] if reasons else "traced"
        if params:
            names = ", ".join(f"`{p}`" for p in params)
            word = "argument" if len(params) == 1 else "arguments"
            return f"it depends on the traced {word} {names} of `{self.unit.name}` ({how})"
        return f"it is computed by JAX inside `{self.unit.name}` ({how})"

    def static_hint(self, v: Value) -> str:
        """Suggest static_argnums/static_argnames when making the parameters the
        value depends on static would make it a Python value (jit/pmap only)."""
        if v.deps & JAX_COMPUTED:
            return ""
        if not self.unit.jitted_itself:
            return ""
        params = [p for p in sorted(v.deps) if self.unit.param(p) is not None]
        if not params:
            return ""
        p = self.unit.param(params[0])
        if p is not None and p.index is not None and (self.unit.cls is None or bound_receiver(self.unit) == 0):
            # a method: its position counts `self` under a jit decorator, not under
            # `jax.jit(obj.method)` or `jax.jit(Cls)`; its name is right under both
            return f"; or, if `{p.name}` is a Python value, mark it static (static_argnums={p.index})"
        return f"; or, if `{params[0]}` is a Python value, mark it static (static_argnames='{params[0]}')"

    def jit_callee(self, call: cst.Call, exact: bool = True, static_only: bool = False) -> Optional[JitInfo]:
        """The jit of this file that ``call`` invokes, with what it declares static and
        donated (see ``model/jit_calls.py``).  ``exact=False`` also answers for wraps
        whose signature is not the wrapped unit's own; ``static_only=True`` also for a
        jit of a function whose signature is unknown here (``unit`` None: only the
        literal static_argnums positions and static_argnames keywords are known)."""
        return self.jit_calls.callee(call, exact, static_only)

    def jit_declaration(self, call: cst.CSTNode) -> Optional[JitInfo]:
        """The JitInfo of a jit call written here (``jax.jit(f, ...)``, a jit decorator)."""
        return self.jit_calls.declaration(call)


# ---------------------------------------------------------------------------------
def schedule(index: FileIndex) -> list[Unit]:
    """Units in an order where callers and enclosing units come first."""
    units = index.units
    by_id = {id(u): u for u in units}
    order_pos = {id(u): i for i, u in enumerate(units)}
    preds: dict[int, set[int]] = {id(u): set() for u in units}
    for u in units:
        if u.parent is not None:
            preds[id(u)].add(id(u.parent))
    for caller, callees in index.call_edges.items():
        for c in callees:
            if c != caller:
                preds[c].add(caller)
    done: set[int] = set()
    out: list[Unit] = []
    remaining = sorted(by_id, key=order_pos.__getitem__)
    while remaining:
        progressed = False
        for uid in list(remaining):
            if preds[uid] <= done:
                out.append(by_id[uid])
                done.add(uid)
                remaining.remove(uid)
                progressed = True
        if not progressed:
            # a cycle: take the earliest remaining unit of the cycle itself (each caller it
            # waits for waits for it in turn: `f` and its custom_vjp rule `f_fwd`, which
            # calls `f`), not one downstream of it (`f`'s helper), whose enclosing unit is done
            uid = _cycle_entry(remaining, preds, done, by_id)
            out.append(by_id[uid])
            done.add(uid)
            remaining.remove(uid)
    return out


def _cycle_entry(remaining: list[int], preds: dict[int, set[int]], done: set[int], by_id: dict) -> int:
    """The unit to analyse first when every remaining one waits for a caller: the earliest
    whose enclosing unit is done and whose callers not yet done each wait (transitively)
    for it; else the earliest whose enclosing unit is done; else the earliest."""
    def waits_for(start: int, target: int) -> bool:
        seen = {start}
        todo = [start]
        while todo and len(seen) < 2000:
            for q in preds[todo.pop()]:
                if q == target:
                    return True
                if q not in done and q not in seen:
                    seen.add(q)
                    todo.append(q)
        return False

    fallback = None
    tried = 0
    for uid in remaining:
        parent = by_id[uid].parent
        if parent is not None and id(parent) not in done:
            continue
        if fallback is None:
            fallback = uid
        tried += 1
        if tried > 50:
            break  # (a bound on the work: the earliest then)
        if all(waits_for(p, uid) for p in preds[uid] if p not in done and p != uid):
            return uid
    return fallback if fallback is not None else remaining[0]
