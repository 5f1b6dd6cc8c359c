"""Pass 2 of the model: walk each unit in flow order, track abstract values.

Units are analysed callers-first (the module, then functions in call order,
see ``schedule``), so that when a helper is reached the model already knows
which of its parameters received tracers from traced callers.  Inside a unit,
statements are walked in order, keeping an environment of abstract ``Value``s.

The interpreter knows no rule: it is handed two tables, node class -> callables,
and calls them when it enters and leaves a node (``hooks`` / ``leave_hooks``).
The engine (``jaxlint/engine``) builds those tables from the enabled rules; the
rules ask questions through ``jaxlint.engine.context.RuleContext``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Optional, Sequence

import libcst as cst

from jaxlint.model import apis, pytrees
from jaxlint.model import values as V
from jaxlint.model.index import FileIndex
from jaxlint.model.jit_calls import JitCalls, JitInfo
from jaxlint.model.journal import MISSING, JournalDict
from jaxlint.model.scopes import instance_class
from jaxlint.model.shapes import constructor_facts
from jaxlint.model.transformed import differentiates, filtered_call_arrays
from jaxlint.model.units import Unit
from jaxlint.model.values import KeyToken, Value
from jaxlint.model.x64 import X64Model
from jaxlint.model.walk import bound_names, children, descendants, dotted_name, positional_args, string_value
from jaxlint.settings import LintSettings

# expression nodes without expression children
_LEAVES = frozenset(
    {cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.Ellipsis}
)
# pseudo-dependency: computed by a JAX operation inside traced code
JAX_COMPUTED = frozenset({"<jax>"})
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)
_BUILTIN_STATIC = frozenset(
    {"len", "isinstance", "issubclass", "type", "hasattr", "callable", "id", "str",
     "repr", "hash", "getattr", "dir", "vars", "format", "print", "sorted"}
)


# context managers under which JAX evaluates what does not depend on a tracer at once
_COMPILE_TIME_EVAL = frozenset({"jax.ensure_compile_time_eval", "jax.core.ensure_compile_time_eval"})


@dataclass
class ExternalCall:
    """A call from traced code to a function this file imports (a fact for the
    module that defines it): which arguments are tracers."""

    callee: str  # as written: ``losses.loss_fn``, ``U.warmup``, ``loss_fn``
    node: cst.Call
    caller: Unit
    traced_pos: tuple[int, ...]
    traced_kw: tuple[str, ...]
    # of those, the arguments known to be arrays (not lists or pytrees)
    array_pos: tuple[int, ...] = ()
    array_kw: tuple[str, ...] = ()
    # what the call passes: the number of positional arguments, the keywords, and
    # which of them are a literal None (for branches no traced caller reaches)
    n_pos: int = 0
    keywords: tuple[str, ...] = ()
    none_pos: tuple[int, ...] = ()
    none_kw: tuple[str, ...] = ()
    # the flat pytree class records (model/pytrees.py) of traced arguments of a known class
    class_pos: tuple[tuple[int, dict], ...] = ()
    class_kw: tuple[tuple[str, dict], ...] = ()


class _EntryKeys:
    """The PRNG keys consumed when a loop was entered (``token in ...``), and the
    ones the rules add for that state (``[token] = site``); read while the loop's
    frame is open."""

    __slots__ = ("_consumed", "_depth", "extra")

    def __init__(self, consumed: JournalDict, depth: int) -> None:
        self._consumed = consumed
        self._depth = depth
        self.extra: dict = {}

    def __contains__(self, token: object) -> bool:
        return token in self.extra or self._consumed.value_at(self._depth, token) is not MISSING

    def __setitem__(self, token: KeyToken, site: tuple) -> None:
        self.extra[token] = site


class LoopFrame:
    """A loop (or comprehension) being walked.  Opens a journal frame on the
    environment and on the consumed keys: the state at entry is what those frames
    undo to, read only when a rule asks (``entry_env``, ``entry_consumed``)."""

    def __init__(self, node: cst.CSTNode, depth: int, env: JournalDict, consumed: JournalDict) -> None:
        self.node = node
        self.depth = depth
        self.rebound: set[str] = set()
        self._env = env
        self._env_depth = env.open()
        self._entry_env: Optional[dict[str, Value]] = None
        self.entry_consumed = _EntryKeys(consumed, consumed.open())

    @property
    def entry_env(self) -> dict[str, Value]:
        """The environment when the loop was entered (a copy, made on first use)."""
        if self._entry_env is None:
            self._entry_env = self._env.snapshot_at(self._env_depth)
        return self._entry_env


Hooks = Mapping[type, Sequence[Callable[[cst.CSTNode], None]]]


class Interpreter:
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
        self.raises_depth = 0  # inside `with pytest.raises(...)` / `self.assertRaises(...)`
        # names known not to be None on this path (after `if p is None: return ...`)
        self.not_none: set[str] = set()
        # id(unit) -> names not None at every transformation site of it seen so far, and how many
        self._not_none_at_sites: dict[int, tuple[frozenset, int]] = {}
        self._site_units: Optional[dict[int, list[Unit]]] = None
        self._memo: dict[int, Value] = {}
        self._attr_tokens: dict[str, KeyToken] = {}
        self.jit_calls = JitCalls(self)
        self.external_calls: list[ExternalCall] = []
        # imported jit (as written) -> its parameters with defaults that calls here pass
        self.jit_passes: dict[str, set[str]] = {}
        self._hooks: Hooks = {}
        self._leave_hooks: Hooks = {}
        self._qn_memo: dict[int, Optional[str]] = {}
        self._local_values_memo: dict[int, dict] = {}
        self.x64 = X64Model(self)  # where x64 is on (after the rest: it asks qualname)

    def set_hooks(self, hooks: Hooks, leave_hooks: Hooks) -> None:
        """Callables to call, by node class, on entering and leaving a node."""
        self._hooks = hooks
        self._leave_hooks = leave_hooks

    # ------------------------------------------------------------------ queries
    @property
    def in_traced(self) -> bool:
        """True when the current code runs while JAX traces it."""
        return self.unit.traced and not self.unit.host

    @property
    def x64_enabled(self) -> bool:
        return self.settings.x64 or self.index.enables_x64 or self.x64_depth > 0

    def qualname(self, expr: cst.CSTNode) -> Optional[str]:
        """The qualified name an expression stands for (``jnp.zeros`` ->
        ``jax.numpy.zeros``), or None.  Local bindings shadow imports."""
        key = id(expr)
        memo = self._qn_memo
        if key in memo:
            return memo[key]
        q: Optional[str] = None
        t = type(expr)
        if t is cst.Name:
            v = self.lookup(expr.value)
            q = v.qualname if v is not None else self.imports.resolve_dotted(expr.value)
        elif t is cst.Attribute:
            base = self.qualname(expr.value)
            if base is not None:
                q = apis.canonical(f"{base}.{expr.attr.value}")
        memo[key] = q
        return q

    def builtin_name(self, expr: cst.CSTNode) -> Optional[str]:
        """``print``/``next``/``int``... when ``expr`` names an unshadowed builtin."""
        if isinstance(expr, cst.Name) and self.lookup(expr.value) is None:
            if self.imports.resolve_dotted(expr.value) is None:
                import builtins

                if hasattr(builtins, expr.value):
                    return expr.value
        return None

    def value(self, expr: cst.CSTNode) -> Value:
        key = id(expr)
        v = self._memo.get(key)
        if v is None:
            v = self._eval(expr)
            self._memo[key] = v
        return v

    def is_traced(self, expr: cst.CSTNode) -> bool:
        return not self.unit.host and self.value(expr).traced

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def describe_origin(self, v: Value) -> str:
        """A phrase saying where a tracer comes from, for messages."""
        params = sorted(d for d in v.deps if d not in JAX_COMPUTED)
        how = self.unit.reasons[0] if self.unit.reasons else "traced"
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
        if not any(
            ("jit" in r or "pmap" in r) and not r.startswith(("a body", "called from")) for r in self.unit.reasons
        ):
            return ""
        params = [p for p in sorted(v.deps) if self.unit.param(p) is not None]
        if not params:
            return ""
        p = self.unit.param(params[0])
        if p is not None and p.index is not None:
            return f"; or, if `{p.name}` is a Python value, mark it static (static_argnums={p.index})"
        return f"; or, if `{params[0]}` is a Python value, mark it static (static_argnames='{params[0]}')"

    def jit_callee(self, call: cst.Call, exact: bool = True) -> Optional[JitInfo]:
        """The jit of this file that ``call`` invokes, with what it declares static and
        donated (see ``model/jit_calls.py``).  ``exact=False`` also answers for wraps
        whose signature is not the wrapped unit's own."""
        return self.jit_calls.callee(call, exact)

    def jit_declaration(self, call: cst.CSTNode) -> Optional[JitInfo]:
        """The JitInfo of a jit call written here (``jax.jit(f, ...)``, a jit decorator)."""
        return self.jit_calls.declaration(call)

    # -- PRNG keys --------------------------------------------------------------
    def key_token(self, expr: cst.CSTNode) -> Optional[KeyToken]:
        """The identity of the key an expression holds (Names, ``a.b`` chains
        and literal subscripts of key arrays); None when it cannot be tracked."""
        if isinstance(expr, cst.Name):
            v = self.lookup(expr.value)
            if v is None or v.kind in (V.MODULE, V.FUNCTION, V.STATIC, V.TUPLE):
                return None
            if v.key is None:
                depth = 0
                for i, frame in enumerate(self.loop_stack):
                    if expr.value in frame.rebound:
                        depth = i + 1
                        break
                token = KeyToken(expr, depth, expr.value)
                self._rebind_key(expr.value, v.with_key(token))
                return token
            return v.key
        if isinstance(expr, cst.Attribute):
            dotted = dotted_name(expr)
            if dotted is None:
                return None
            token = self._attr_tokens.get(dotted)
            if token is None:
                token = KeyToken(expr, len(self.loop_stack), dotted)
                self._attr_tokens[dotted] = token
            return token
        return self.value(expr).key

    def _rebind_key(self, name: str, v: Value) -> None:
        if name in self.env:
            self.env[name] = v
        elif self.unit.closure_env is not None and name in self.unit.closure_env:
            self.unit.closure_env[name] = v
        else:
            self.env[name] = v

    def key_consumer(self, call: cst.Call) -> list[tuple[cst.BaseExpression, str, str]]:
        """The arguments of ``call`` whose PRNG key the callee hands straight to a
        ``jax.random`` consumer (a function of this file, or one imported from the
        project; not a generator), as (argument, callee name, consumer short name)."""
        func = call.func
        if any(a.star for a in call.args):
            return []
        if isinstance(func, cst.Attribute):  # `proposals.accept(key, ...)`: through an imported module
            name = dotted_name(func)
            found = self.index.imported_key_consumers.get(name) if name is not None else None
            if found is None or self.lookup(name.split(".", 1)[0]) is not None:  # type: ignore[union-attr]
                return []
            return self._consumed_args(call, name, [tuple(p) for p in found["params"]],  # type: ignore[arg-type,misc]
                                       found["consumes"])
        if not isinstance(func, cst.Name):
            return []
        params: list[tuple[str, str, Optional[int]]]
        consumes: dict[str, str]
        v = self.lookup(func.value)
        unit = v.unit if v is not None else self.unit.lookup_def(func.value)
        if unit is not None:
            if not unit.consumes_keys or unit.is_generator or not isinstance(unit.node, cst.FunctionDef):
                return []
            params = [(p.name, p.kind, p.index) for p in unit.params]
            consumes = unit.consumes_keys
        else:
            found = self.index.imported_key_consumers.get(func.value)
            if found is None or v is not None:
                return []
            params = [tuple(p) for p in found["params"]]  # type: ignore[misc]
            consumes = found["consumes"]
        return self._consumed_args(call, func.value, params, consumes)

    @staticmethod
    def _consumed_args(call: cst.Call, callee: str, params: list, consumes: dict[str, str]) -> list:
        out = []
        positional = [p for p in params if p[1] in ("pos", "posonly")]
        for i, a in enumerate(positional_args(call)):
            if i < len(positional) and positional[i][0] in consumes:
                out.append((a.value, callee, consumes[positional[i][0]]))
        for a in call.args:
            if a.keyword is not None and a.keyword.value in consumes:
                out.append((a.value, callee, consumes[a.keyword.value]))
        return out

    def returns_fresh_function(self, func: cst.Name) -> bool:
        """Does the function this name calls (of this file, or imported from the
        project) return a function it defines, a new object per call?"""
        v = self.lookup(func.value)
        if v is not None:
            return v.unit is not None and v.unit.returns_fresh_function
        unit = self.unit.lookup_def(func.value)
        if unit is not None:
            return unit.returns_fresh_function
        return func.value in self.index.imported_factories

    def attr_key(self, dotted: str) -> Optional[KeyToken]:
        """The key identity already given to an attribute chain (``self.key``)."""
        return self._attr_tokens.get(dotted)

    def consume_key(self, token: KeyToken, node: cst.CSTNode, how: str) -> Optional[tuple[cst.CSTNode, str]]:
        """Mark a key consumed; return the earlier consumption if it was."""
        prev = self.consumed.get(token)
        if prev is None:
            self.consumed[token] = (node, how)
        return prev

    # ------------------------------------------------------------------ walking
    def run_unit(self, unit: Unit) -> None:
        self.unit = unit
        self._memo = {}
        self._qn_memo = {}
        self._attr_tokens = {}
        self.consumed = JournalDict()
        self.loop_stack = []
        env = JournalDict()
        for p in unit.params:
            if p.name in unit.traced_params:
                is_array = p.annotation in apis.ARRAY_ANNOTATIONS or p.name in unit.array_params
                kind = V.ARRAY if is_array else V.UNKNOWN
                cls = None
                if not is_array:
                    cls = self.index.pytree_class(p.ann_class) if p.ann_class else unit.param_classes.get(p.name)
                env[p.name] = Value(kind=kind, traced=True, deps=frozenset({p.name}), cls=cls)
            else:
                env[p.name] = Value(kind=V.STATIC if p.name in unit.static_params else V.UNKNOWN)
        self.env = env
        node = unit.node
        self.x64_depth = 1 if self.x64.unit_on(unit) else 0
        # traced only by `jax.vmap(f)(...)` written in untraced code: what does not
        # touch the batched values runs eagerly (jnp of concrete data is concrete)
        # (also a helper called only from such code)
        eager_sites = bool(unit.eager_sites) and len(unit.eager_sites) == len(unit.trace_sites) and not any(
            s.traced for s in unit.eager_sites.values())
        self.eager = bool(unit.reasons) and not unit.origins and set(unit.reasons) <= (
            unit.eager_reasons | (unit.site_reasons if eager_sites else set()))
        self.raises_depth = 0
        self.not_none = set()
        if isinstance(node, cst.Module):
            self.block(node.body)
            self.module_env = dict(self.env)
        elif isinstance(node, cst.FunctionDef):
            self.block(node.body.body)
        elif isinstance(node, cst.Lambda):
            self.expr(node.body)

    def lookup(self, name: str) -> Optional[Value]:
        """The value ``name`` is bound to here: a local on this path, then the
        enclosing function's bindings, then the module's; None when unbound (an
        import or a builtin)."""
        v = self.env.get(name)
        if v is not None:
            return v
        unit = self.unit
        if name in unit.assigned and not unit.is_module and name not in unit.global_names:
            return V.UNKNOWN_VALUE  # a local not bound on this path (yet)
        if unit.closure_env is not None:
            v = unit.closure_env.get(name)
            if v is not None:
                return v
        if not unit.is_module:
            v = self.module_env.get(name)
            if v is not None:
                return v
        return None

    def _dispatch(self, node: cst.CSTNode) -> None:
        hooks = self._hooks.get(type(node))
        if hooks:
            for h in hooks:
                h(node)

    def _dispatch_leave(self, node: cst.CSTNode) -> None:
        hooks = self._leave_hooks.get(type(node))
        if hooks:
            for h in hooks:
                h(node)

    def block(self, stmts: Iterable[cst.CSTNode]) -> bool:
        """Walk statements; return True if the block always leaves early."""
        raised = 0
        guarded: list[str] = []
        try:
            for s in stmts:
                if self.statement(s):
                    return True
                if type(s) is cst.If:
                    if self.x64.skip_guard(s):
                        # `if not jax.config.jax_enable_x64: self.skipTest(...)`: the
                        # rest of the block runs only with x64 on
                        raised += 1
                        self.x64_depth += 1
                    name = _none_guard(s)
                    if name is not None:
                        # `if p is None: return ...` (also through an alias `p = param`)
                        for n in (name, self._alias_of(name)):
                            if n is not None and n not in self.not_none:
                                guarded.append(n)
                                self.not_none.add(n)
                    elif s.orelse is None and isinstance(_last_small(s), (cst.Return, cst.Raise)):
                        # `if isinstance(v, jax.core.Tracer): raise TypeError(...)`: what
                        # follows runs only where the test is false (v is concrete)
                        for n in self._concrete_names_if_false(s.test):
                            self.env[n] = V.UNKNOWN_VALUE
                elif type(s) is cst.SimpleStatementLine and self.x64.active and any(
                        isinstance(small, cst.Expr) and self.x64.switches_on(small.value) for small in s.body):
                    # `self.enter_context(jax.enable_x64())`, a helper running
                    # `jax.config.update("jax_enable_x64", True)`: on from here
                    raised += 1
                    self.x64_depth += 1
            return False
        finally:
            self.x64_depth -= raised
            self.not_none.difference_update(guarded)

    def statement(self, s: cst.CSTNode) -> bool:
        t = type(s)
        if t is not cst.SimpleStatementLine and not isinstance(s, cst.BaseCompoundStatement):
            # the small statements of a one-line suite: `def f(): x = ...; x[0] = 1`
            return self.small(s)
        if t is cst.SimpleStatementLine:
            for small in s.body:
                if self.small(small):
                    return True
            return False
        self._dispatch(s)
        if t is cst.If:
            return self._if(s)
        if t is cst.For:
            self.expr(s.iter)
            self._loop(s, lambda: self._bind(s.target, self._element_of(s.iter, s.target)), s.body, s.orelse)
        elif t is cst.While:
            self.expr(s.test)
            self._loop(s, None, s.body, s.orelse)
        elif t is cst.FunctionDef:
            self._def(s)
        elif t is cst.ClassDef:
            self._classdef(s)
        elif t is cst.With:
            x64 = 0
            raises = 0
            for item in s.items:
                self.expr(item.item)
                if self.x64.is_enable(item.item):
                    x64 += 1
                if _expects_exception(item.item):
                    raises += 1
                if item.asname is not None:
                    self._bind(item.asname.name, V.UNKNOWN_VALUE)
            self.x64_depth += x64
            self.raises_depth += raises
            # `with jax.ensure_compile_time_eval():` computes what does not depend on a
            # tracer eagerly, at trace time: jnp results of concrete data are concrete
            was_eager = self.eager
            if any(isinstance(item.item, cst.Call) and self.qualname(item.item.func) in _COMPILE_TIME_EVAL
                   for item in s.items):
                self.eager = True
            try:
                ends = self.block(s.body.body)
            finally:
                self.x64_depth -= x64
                self.raises_depth -= raises
                self.eager = was_eager
            self._dispatch_leave(s)
            return ends
        elif t is cst.Try or t is getattr(cst, "TryStar", None):
            self.block(s.body.body)
            for h in s.handlers:
                if h.type is not None:
                    self.expr(h.type)
                if h.name is not None:
                    self._bind(h.name.name, V.UNKNOWN_VALUE)
                self.block(h.body.body)
            if s.orelse is not None:
                self.block(s.orelse.body.body)
            if s.finalbody is not None:
                self.block(s.finalbody.body.body)
        elif t is cst.Match:
            self.expr(s.subject)
            envs = []
            for case in s.cases:
                self._open()
                ends = self.block(case.body.body)
                changes = self._close()
                if not ends:
                    envs.append(changes)
            self._join(envs or [({}, {})])
        self._dispatch_leave(s)
        return False

    def small(self, s: cst.CSTNode) -> bool:
        self._dispatch(s)
        t = type(s)
        if t is cst.Expr:
            self.expr(s.value)
        elif t is cst.Assign:
            self.jit_calls.note_assign(s)
            self.expr(s.value)
            v = self.value(s.value)
            if len(s.targets) > 1 and v.local_array:
                v = _replace(v, local_array=False)  # `y = z = jnp.zeros(3)`: two names, one array
            for tgt in s.targets:
                self._target_exprs(tgt.target)
                self._bind(tgt.target, v, s.value)
        elif t is cst.AugAssign:
            self.expr(s.value)
            self._target_exprs(s.target)
            old = self.value(s.target)
            new = self.value(s.value)
            if isinstance(s.target, (cst.Name, cst.Attribute)):
                combined = Value(
                    kind=V.ARRAY if V.ARRAY in (old.kind, new.kind) else (old.kind if old.kind == new.kind else V.UNKNOWN),
                    traced=old.traced or new.traced,
                    deps=old.deps | new.deps,
                )
                self._bind(s.target, combined)
        elif t is cst.AnnAssign:
            if s.value is not None:
                self.expr(s.value)
                self._bind(s.target, self.value(s.value), s.value)
        elif t is cst.Return:
            if s.value is not None:
                self.expr(s.value)
            self._dispatch_leave(s)
            return True
        elif t is cst.Raise:
            if s.exc is not None:
                self.expr(s.exc)
            self._dispatch_leave(s)
            return True
        elif t is cst.Assert:
            self.expr(s.test)
            if s.msg is not None:
                self.expr(s.msg)
        elif t is cst.Del:
            self.expr(s.target)
        elif t is cst.Continue or t is cst.Break:
            self._dispatch_leave(s)
            return True
        elif t is cst.Import or t is cst.ImportFrom:
            for name in _imported_names(s):
                self.env.pop(name, None)
        self._dispatch_leave(s)
        return False

    # -- control flow -------------------------------------------------------------
    def _if(self, s: cst.If) -> bool:
        self.expr(s.test)
        dead = self._dead_under_trace(s.test)
        if dead is True:  # `if p is None:` that no traced caller reaches
            orelse = s.orelse
            if orelse is None:
                return False
            return self.statement(orelse) if isinstance(orelse, cst.If) else self.block(orelse.body.body)
        if dead is False:
            return self.block(s.body.body)
        self._open()
        for name in self._concrete_names(s.test):
            self.env[name] = V.UNKNOWN_VALUE  # narrowed: a Python value in this branch
        x64 = self.x64.condition(s.test)  # `if jax.config.jax_enable_x64:`
        self.x64_depth += x64 is True
        try:
            body_ends = self.block(s.body.body)
        finally:
            self.x64_depth -= x64 is True
        then_state = self._close()
        self._open()
        orelse = s.orelse
        self.x64_depth += x64 is False
        try:
            if orelse is None:
                else_ends = False
            elif isinstance(orelse, cst.If):
                else_ends = self.statement(orelse)
            else:
                else_ends = self.block(orelse.body.body)
        finally:
            self.x64_depth -= x64 is False
        else_state = self._close()
        live = []
        if not body_ends:
            live.append(then_state)
        if not else_ends:
            live.append(else_state)
        self._join(live or [then_state, else_state])
        self._dispatch_leave(s)
        return body_ends and else_ends

    _ARRAY_TYPES = frozenset(
        {"jax.Array", "jax.numpy.ndarray", "jax.core.Tracer", "jax._src.core.Tracer", "numpy.ndarray"}
    )

    def _concrete_names(self, test: cst.BaseExpression, negated: bool = False) -> list[str]:
        """Names that ``test`` proves to be Python (non-array) values when true:
        ``isinstance(x, (int, float))``, ``not isinstance(x, jax.Array)``,
        ``type(x) is int``, and conjunctions of those (``negated``: of ``not test``)."""
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And) and not negated:
            return self._concrete_names(test.left) + self._concrete_names(test.right)
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) and not negated:
            negated, test = True, test.expression
        if not negated and isinstance(test, cst.Call) and (self.qualname(test.func) or "").endswith("core.is_concrete"):
            pos = positional_args(test)  # `if jax.core.is_concrete(v):`
            return [pos[0].value.value] if len(pos) == 1 and isinstance(pos[0].value, cst.Name) else []
        if isinstance(test, cst.Call) and isinstance(test.func, cst.Name) and test.func.value == "isinstance":
            pos = positional_args(test)
            if len(pos) == 2 and isinstance(pos[0].value, cst.Name):
                types = pos[1].value
                elts = [el.value for el in types.elements] if isinstance(types, cst.Tuple) else [types]
                names = [self.qualname(t) or (t.value if isinstance(t, cst.Name) else "") for t in elts]
                is_array_check = any(
                    n in self._ARRAY_TYPES or n.endswith(("Tracer", "Array", "ndarray")) for n in names
                )
                if negated == is_array_check:
                    return [pos[0].value.value]
        elif (
            not negated
            and isinstance(test, cst.Comparison)
            and isinstance(test.left, cst.Call)
            and isinstance(test.left.func, cst.Name)
            and test.left.func.value == "type"
            and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, (cst.Is, cst.Equal))
            and isinstance(test.comparisons[0].comparator, cst.Name)
            and test.comparisons[0].comparator.value in ("int", "float", "bool", "complex", "str", "tuple", "list")
        ):
            arg = positional_args(test.left)
            if arg and isinstance(arg[0].value, cst.Name):
                return [arg[0].value.value]
        return []

    def _concrete_names_if_false(self, test: cst.BaseExpression) -> list[str]:
        """Names that ``test`` being false proves concrete: ``isinstance(v, Tracer)``,
        ``isinstance(v, jax.Array)``, ``not jax.core.is_concrete(v)``, and disjunctions."""
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
            return self._concrete_names_if_false(test.left) + self._concrete_names_if_false(test.right)
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self._concrete_names(test.expression)
        return self._concrete_names(test, negated=True)

    def _alias_of(self, name: str, unit: Optional[Unit] = None) -> Optional[str]:
        """The parameter ``name`` is a copy of (``nbrs = neighbors``, bound once, the
        parameter never rebound), or None."""
        unit = unit or self.unit
        entries = unit.bindings.get(name)
        if not entries or len(entries) != 1 or unit.param(name) is not None:
            return None
        value = entries[0][1]
        if isinstance(value, cst.Name) and unit.param(value.value) is not None and value.value not in unit.assigned:
            return value.value
        return None

    # -- paths: journal frames on the environment and the consumed keys ---------
    def _open(self) -> None:
        self.env.open()
        self.consumed.open()

    def _close(self) -> tuple[dict, dict]:
        """Undo the path walked since ``_open``; return what it changed (env, consumed)."""
        return self.env.close(), self.consumed.close()

    def _join(self, states: list[tuple[dict, dict]]) -> None:
        """Where paths meet: apply their changes (as ``_close`` returns them) to the
        state they started from.  A name some path wrote gets the join of its
        values on every path (a path that did not write it has the value from
        before; a path where it is unbound does not count); consumed keys are the
        union, the first path's site first.  Costs what the paths wrote."""
        if len(states) == 1:
            env_changes, consumed_changes = states[0]
            self.env.apply(env_changes)
            self.consumed.apply(consumed_changes)
            return
        env = self.env
        names: dict[str, None] = {}
        for e, _ in states:
            names.update(dict.fromkeys(e))
        for n in names:
            before = env.get(n, MISSING)
            present = [v for v in (e.get(n, before) for e, _ in states) if v is not MISSING]
            if not present:
                env.pop(n, None)
                continue
            merged = present[0]
            for v in present[1:]:
                merged = V.join(merged, v)
            env[n] = merged
        consumed = self.consumed
        for _, c in states:
            for k, site in c.items():
                if site is not MISSING and k not in consumed:
                    consumed[k] = site

    def _loop(self, node, bind_target, body, orelse) -> None:
        frame = LoopFrame(node, len(self.loop_stack) + 1, self.env, self.consumed)
        self.loop_stack.append(frame)
        try:
            if bind_target is not None:
                bind_target()
            self.block(body.body)
            self._dispatch_leave(node)
        finally:
            self.loop_stack.pop()
        body_state = self._close()
        # the body may run zero times: the state at entry, with what the rules added to it
        zero = {k: site for k, site in frame.entry_consumed.extra.items() if k not in self.consumed}
        self._join([body_state, ({}, zero)])
        if orelse is not None:
            self.block(orelse.body.body)

    # -- definitions -----------------------------------------------------------
    def _def(self, s: cst.FunctionDef) -> None:
        for dec in s.decorators:
            self.expr(dec.decorator)
        for p in (*s.params.params, *s.params.kwonly_params, *s.params.posonly_params):
            if p.default is not None:
                self.expr(p.default)
        unit = self.index.unit_of.get(id(s))
        if unit is None:
            return
        self._note_site(id(s.name))
        unit.closure_env = dict(self.env) if not self.unit.is_module else None
        if self.unit.traced and not self.unit.host and unit.cls is None and not unit.host:
            # a function defined inside traced code runs under that trace when called
            unit.mark_traced(f"defined inside traced `{self.unit.name}`")
        self.env[s.name.value] = Value(kind=V.FUNCTION, unit=unit)

    def _classdef(self, s: cst.ClassDef) -> None:
        for dec in s.decorators:
            self.expr(dec.decorator)
        for b in s.bases:
            self.expr(b.value)
        self.env.open()
        self.block(s.body.body)
        self.env.close()  # the class body's names are not the enclosing scope's
        self.env[s.name.value] = V.UNKNOWN_VALUE

    # -- expressions -----------------------------------------------------------
    def expr(self, node: cst.CSTNode) -> None:
        """Offer every node of an expression to the rules (pre-order).  Only
        expressions are walked: the attribute name in ``a.b`` and the keyword
        in ``f(k=v)`` are not variable references and are not visited."""
        t = type(node)
        hooks = self._hooks.get(t)
        if hooks:
            for h in hooks:
                h(node)
        if t in _LEAVES:
            hooks = self._leave_hooks.get(t)
            if hooks:
                for h in hooks:
                    h(node)
            return
        if t is cst.Attribute:
            self.expr(node.value)
            self._dispatch_leave(node)
            return
        if t is cst.Arg:
            self.expr(node.value)
            self._dispatch_leave(node)
            return
        if t is cst.Lambda:
            unit = self.index.unit_of.get(id(node))
            if unit is not None:
                unit.closure_env = dict(self.env) if not self.unit.is_module else None
                if self.unit.traced and not self.unit.host and not unit.host:
                    unit.mark_traced(f"defined inside traced `{self.unit.name}`")
            for p in node.params.params:
                if p.default is not None:
                    self.expr(p.default)
            return
        if t in _COMPREHENSIONS:
            self._comprehension(node)
            return
        if t is cst.IfExp:
            truth = self._truth_under_trace(node.test)
            if truth is not None:
                # `a.shape if hasattr(a, "shape") else np.asarray(a).shape`: under
                # trace only one branch runs
                self.expr(node.test)
                self.expr(node.body if truth else node.orelse)
                self._dispatch_leave(node)
                return
            x64 = self.x64.condition(node.test)  # `jnp.float64 if X64 else jnp.float32`
            if x64 is not None:
                self.expr(node.test)
                for branch, on in ((node.body, x64), (node.orelse, not x64)):
                    self.x64_depth += on
                    try:
                        self.expr(branch)
                    finally:
                        self.x64_depth -= on
                self._dispatch_leave(node)
                return
        if t is cst.Call:
            self._call_effects(node)
        elif t is cst.NamedExpr:
            self.expr(node.value)
            self._bind(node.target, self.value(node.value))
            return
        for child in children(node):
            self.expr(child)
        self._dispatch_leave(node)

    def _comprehension(self, node) -> None:
        """A comprehension runs its element once per item: walk it like a loop."""
        self.env.open()  # the comprehension's names do not leak out
        fors = []
        f = node.for_in
        while f is not None:
            fors.append(f)
            f = f.inner_for_in
        self.expr(fors[0].iter)
        frame = LoopFrame(node, len(self.loop_stack) + 1, self.env, self.consumed)
        self.loop_stack.append(frame)
        try:
            for i, f in enumerate(fors):
                if i:
                    self.expr(f.iter)
                self._bind(f.target, self._element_of(f.iter, f.target))
                for cond in f.ifs:
                    self._dispatch(cond)
                    self.expr(cond.test)
            if isinstance(node, cst.DictComp):
                self.expr(node.key)
                self.expr(node.value)
            else:
                self.expr(node.elt)
            self._dispatch_leave(node)
        finally:
            self.loop_stack.pop()
        self.env.close()
        self.consumed.apply(self.consumed.close())  # keys consumed inside stay consumed
        self.env.close()

    def _target_exprs(self, target: cst.CSTNode) -> None:
        """Visit the sub-expressions of an assignment target (``x[i]``, ``a.b``)."""
        if isinstance(target, (cst.Subscript, cst.Attribute)):
            self.expr(target)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self._target_exprs(el.value)
        elif isinstance(target, cst.StarredElement):
            self._target_exprs(target.value)

    def _bind(self, target: cst.CSTNode, v: Value, value_node: Optional[cst.CSTNode] = None) -> None:
        if isinstance(target, cst.Name):
            name = target.value
            self.not_none.discard(name)
            if self.loop_stack:
                for frame in self.loop_stack:
                    frame.rebound.add(name)
            if v.kind == V.ARRAY and value_node is not None and v.local_array:
                # an alias of a locally created array is no longer "unaliased"
                pass
            if isinstance(value_node, cst.Name) and v.local_array:
                # y = x: both names now refer to one buffer
                v = _replace(v, local_array=False)
                src = self.env.get(value_node.value)
                if src is not None:
                    self.env[value_node.value] = _replace(src, local_array=False)
            if v.kind == V.KEYS and value_node is not None:
                v = v.with_key(KeyToken(value_node, len(self.loop_stack), name))
            self.env[name] = v
            return
        if isinstance(target, (cst.Tuple, cst.List)):
            elements = target.elements
            starred = any(isinstance(e.value, cst.StarredElement) for e in elements)
            for i, el in enumerate(elements):
                sub = el.value
                if isinstance(sub, cst.StarredElement):
                    ev = Value(kind=V.KEYS if v.kind == V.KEYS else V.UNKNOWN, traced=v.traced, deps=v.deps)
                    if ev.kind == V.KEYS:
                        ev = ev.with_key(KeyToken(sub, len(self.loop_stack), "*"))
                    self._bind(sub.value, ev)
                    continue
                if v.elements is not None and not starred and len(v.elements) == len(elements):
                    ev = v.elements[i]
                elif v.kind == V.KEYS:
                    ev = Value(kind=V.KEY, key=KeyToken(sub, len(self.loop_stack), "split"))
                elif v.kind == V.ARRAYS and v.item is not None:
                    ev = v.item
                else:
                    ev = Value(kind=V.ARRAY if v.kind == V.ARRAY else V.UNKNOWN, traced=v.traced, deps=v.deps)
                self._bind(sub, ev)
            return
        if isinstance(target, cst.Attribute):
            dotted = dotted_name(target)
            if dotted is not None:
                for k in [k for k in self._attr_tokens if k == dotted or k.startswith(dotted + ".")]:
                    del self._attr_tokens[k]
                if v.key is not None and v.kind == V.KEY:
                    self._attr_tokens[dotted] = v.key
            return
        if isinstance(target, cst.StarredElement):
            self._bind(target.value, Value(traced=v.traced, deps=v.deps))

    def _element_of(self, iterable: cst.BaseExpression, target: cst.CSTNode) -> Value:
        """The value of one element when iterating ``iterable``."""
        if isinstance(iterable, cst.Call):
            fq = self.qualname(iterable.func)
            if isinstance(iterable.func, cst.Name) and fq is None:
                name = iterable.func.value
                if name == "range":
                    return V.STATIC_VALUE
                if name == "enumerate":
                    pos = positional_args(iterable)
                    inner = self._element_of(pos[0].value, target) if pos else V.UNKNOWN_VALUE
                    return Value(kind=V.TUPLE, elements=(V.STATIC_VALUE, inner))
                if name == "zip":
                    pos = positional_args(iterable)
                    return Value(kind=V.TUPLE, elements=tuple(self._element_of(a.value, target) for a in pos))
        v = self.value(iterable)
        if v.kind == V.KEYS:
            return Value(kind=V.KEY, key=KeyToken(target, len(self.loop_stack), "element"))
        if v.kind == V.ARRAYS and v.item is not None:
            return v.item
        if v.traced and v.kind == V.ARRAY:
            return Value(kind=V.ARRAY, traced=True, deps=v.deps)
        # iterating a traced pytree of unknown kind: a dict gives its (string)
        # keys, a list its leaves; unsure, so not a tracer
        if v.kind == V.STATIC:
            return V.STATIC_VALUE
        return V.UNKNOWN_VALUE

    # -- interprocedural effects of calls ------------------------------------------
    def _jit_call_arguments(self, call: cst.Call) -> None:
        """A call of a jitted function of this file: arguments passed for
        defaulted parameters are traced too, and Python scalars become arrays."""
        func = call.func
        if self.index.imported_jits and isinstance(func, (cst.Name, cst.Attribute)):
            self._imported_jit_passes(call)
        if not isinstance(func, cst.Name):
            return
        v = self.lookup(func.value)
        unit = v.unit if v is not None else self.unit.lookup_def(func.value)
        if unit is None or not unit.jit_root:
            return
        params = unit.positional()
        passed = []
        for i, arg in enumerate(positional_args(call)):
            if i < len(params):
                passed.append((params[i], arg.value))
        for arg in call.args:
            if arg.keyword is not None:
                p = unit.param(arg.keyword.value)
                if p is not None:
                    passed.append((p, arg.value))
        for p, expr in passed:
            if p.name in unit.static_params or p.kind in ("vararg", "kwarg"):
                continue
            unit.pass_class(p.name, self.value(expr).cls)
            if p.name in unit.defaulted_params:
                unit.traced_params.add(p.name)
            if p.name in unit.traced_params:
                av = self.value(expr)
                scalar = isinstance(expr, (cst.Integer, cst.Float)) or (
                    isinstance(expr, cst.Name) and expr.value in ("True", "False")
                )
                if scalar or av.kind == V.ARRAY:
                    unit.array_params.add(p.name)

    def _imported_jit_passes(self, call: cst.Call) -> None:
        """A call of a jit of another module: the parameters with defaults it passes
        (that module keeps a default a Python value only while no call passes it)."""
        name = dotted_name(call.func)
        decl = self.index.imported_jits.get(name) if name is not None else None
        if decl is None or self.lookup(name.split(".", 1)[0]) is not None:
            return
        params = decl.get("params") or []
        positional = [p for p in params if p[1] in ("pos", "posonly")]
        passed = set()
        for i, _ in enumerate(positional_args(call)):
            if i < len(positional) and positional[i][4]:
                passed.add(positional[i][0])
        with_default = {p[0] for p in params if p[4]}
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value in with_default:
                passed.add(arg.keyword.value)
        if passed:
            self.jit_passes.setdefault(name, set()).update(passed)

    def _call_effects(self, call: cst.Call) -> None:
        """Calls from traced code make the callee traced, with the parameters
        that receive tracers marked as such."""
        self._jit_call_arguments(call)
        self._note_site(id(call))
        filtered_call_arrays(self, call)
        if not self.in_traced:
            # jax.grad(f)(x) etc. outside traced code change nothing; but a flax/equinox
            # module method runs with traced arrays (model.apply under jit): a helper of
            # another module it hands them to runs traced too
            unit = self.unit
            if unit.cls is not None and unit.cls.is_jax_module and unit.traced_params and not unit.host:
                self._module_helper_call(call)
                self._external_call(call, require_traced=True)
            return
        if self._tree_map_callback(call):
            return
        func = call.func
        target: Optional[Unit] = None
        n_bound = 0
        wrapped: Optional[cst.BaseExpression] = None  # `f` of `jax.grad(f)(x)`
        if isinstance(func, cst.Name):
            v = self.lookup(func.value)
            if v is not None and v.unit is not None:
                target = v.unit
            elif v is None:
                target = self.unit.lookup_def(func.value)
        elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            if func.value.value == "self" and self.unit.cls is not None:
                target = self.unit.cls.methods.get(func.attr.value)
                n_bound = 1
            else:
                target = self._instance_method(func)
                n_bound = 1 if target is not None else 0
                if target is None:
                    # `f.apply(params, rng, x)` of `f = hk.transform(forward)`, `tx.update(...)`
                    held = self.index.held_function(func, self.unit)
                    if held is not None and all(a.keyword is None and not a.star for a in call.args[:held.skip]):
                        target = held.unit
                        call = call.with_changes(args=call.args[held.skip:])
        elif isinstance(func, cst.Call):
            # jax.grad(f)(x), jax.vmap(f)(x), jax.checkpoint(f)(x) inside traced code
            fq = self.qualname(func.func)
            t = apis.transform_for(fq)
            if t is not None and not t.host:
                pos = positional_args(func)
                if pos:
                    inner = wrapped = pos[0].value
                    if isinstance(inner, cst.Name):
                        iv = self.lookup(inner.value)
                        target = iv.unit if iv is not None and iv.unit is not None else self.unit.lookup_def(inner.value)
                    elif isinstance(inner, cst.Lambda):
                        target = self.index.unit_of.get(id(inner))
                    elif (isinstance(inner, cst.Attribute) and isinstance(inner.value, cst.Name)
                          and inner.value.value == "self" and self.unit.cls is not None):
                        target = self.unit.cls.methods.get(inner.attr.value)  # jax.grad(self.loss)(p, x)
                        n_bound = 1 if target is not None else 0
        if target is None:
            self._external_call(call, callee_expr=wrapped)
            return
        if target is self.unit or target.host:
            return
        reason = f"called from traced `{self.unit.name}`"
        target.mark_traced(reason)
        if self.eager:
            target.eager_reasons.add(reason)
        if self.unit.origins and not target.origins:
            target.origins = list(self.unit.origins)
        params = [p for p in target.positional()]
        if n_bound:
            params = params[n_bound:]
        for i, arg in enumerate(positional_args(call)):
            if i < len(params):
                av = self.value(arg.value)
                target.pass_class(params[i].name, av.cls)
                if av.traced and params[i].name not in target.static_params:
                    target.traced_params.add(params[i].name)
        for arg in call.args:
            if arg.keyword is not None:
                av = self.value(arg.value)
                p = target.param(arg.keyword.value)
                if p is not None:
                    target.pass_class(p.name, av.cls)
                if av.traced and p is not None and p.name not in target.static_params:
                    target.traced_params.add(p.name)
        self._note_none_args(target, params, call)

    def _module_helper_call(self, call: cst.Call) -> None:
        """``self.m(...)`` in a flax/equinox/haiku module method that runs with traced
        arrays: ``m`` (a method of the same class, its parameters left to its callers by
        the index) gets traced exactly the parameters these arguments make traced."""
        func = call.func
        cls = self.unit.cls
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
                and func.value.value == "self" and cls is not None):
            return
        target = cls.methods.get(func.attr.value)
        if target is None or target is self.unit or target.host:
            return
        params = target.positional()[1:]
        marked = False
        for i, arg in enumerate(positional_args(call)):
            if i < len(params) and params[i].name not in target.static_params and self.value(arg.value).traced:
                target.traced_params.add(params[i].name)
                marked = True
        for arg in call.args:
            if arg.keyword is not None:
                p = target.param(arg.keyword.value)
                if p is not None and p.name not in target.static_params and self.value(arg.value).traced:
                    target.traced_params.add(p.name)
                    marked = True
        reason = f"a method of the module class {cls.name}"
        if marked and reason not in target.reasons:
            target.reasons.append(reason)

    def _returns_array(self, unit: Unit, call: cst.Call, arg_vals: list[Value]) -> bool:
        """Whether ``unit`` (a function of this file), called by ``call`` whose
        argument values are ``arg_vals``, surely returns an array computed by JAX:
        every ``return`` hands back a ``jnp``/``lax``/``jax.nn`` computation
        (not a shape or dtype), arithmetic on one, an array method of a parameter
        that receives a tracer here, or such a parameter itself (directly or
        through a local name assigned only such values).  Anything else (a
        tuple, a subscript, a shape, a Python value): unknown."""
        if type(unit.node) is not cst.FunctionDef or unit.is_generator or unit.cls is not None:
            return False
        if not unit.returns or any(v is None for v in unit.returns):
            return False
        if any(a.star or a.keyword is not None for a in call.args):
            return False
        traced = {p.name for p, v in zip(unit.positional(), arg_vals) if v.traced}
        if not traced:
            return False
        assigned = self._local_values(unit)
        params = {p.name for p in unit.params}
        resolve = self.imports.resolve_dotted

        def array(e: cst.BaseExpression, depth: int = 0) -> bool:
            if depth > 4:
                return False
            t = type(e)
            if t is cst.Name:
                if e.value in assigned:  # type: ignore[attr-defined]
                    values = assigned[e.value]  # type: ignore[attr-defined]
                    return all(v is not None and array(v, depth + 1) for v in values)
                return e.value in traced  # type: ignore[attr-defined]
            if t is cst.Call:
                func = e.func  # type: ignore[attr-defined]
                if type(func) is cst.Attribute and type(func.value) is cst.Name and func.value.value in traced \
                        and func.value.value not in assigned:
                    return func.attr.value in apis.ARRAY_METHODS
                d = dotted_name(func)
                if d is None or d.split(".", 1)[0] in assigned or d.split(".", 1)[0] in params:
                    return False
                q = resolve(d)
                return q is not None and q.startswith(apis.ARRAY_MODULES) and q not in apis.STATIC_RESULT_FUNCS
            if t is cst.BinaryOperation:
                return array(e.left, depth + 1) or array(e.right, depth + 1)  # type: ignore[attr-defined]
            if t is cst.UnaryOperation:
                return array(e.expression, depth + 1)  # type: ignore[attr-defined]
            return False

        return all(array(v) for v in unit.returns)

    def _local_values(self, unit: Unit) -> dict[str, list[Optional[cst.BaseExpression]]]:
        """name -> what ``unit``'s own body assigns to it (None for a binding that
        is not ``name = value``: a loop target, an unpacking, an augmented
        assignment...); read once per function."""
        memo = self._local_values_memo
        out = memo.get(id(unit))
        if out is not None:
            return out
        out = memo[id(unit)] = {}
        for n in descendants(unit.node.body):  # type: ignore[attr-defined]
            t = type(n)
            if t is cst.Assign:
                for tg in n.targets:  # type: ignore[attr-defined]
                    simple = type(tg.target) is cst.Name
                    for name in bound_names(tg.target):
                        out.setdefault(name.value, []).append(n.value if simple else None)  # type: ignore[attr-defined]
            elif t in (cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.NamedExpr):
                for name in bound_names(n.target):  # type: ignore[attr-defined]
                    out.setdefault(name.value, []).append(None)
            elif t is cst.AsName:
                for name in bound_names(n.name):  # type: ignore[attr-defined]
                    out.setdefault(name.value, []).append(None)
        return out

    def _instance_method(self, func: cst.Attribute) -> Optional[Unit]:
        """``PRE.squash`` where ``PRE`` holds an instance of a plain class of this file
        (``PRE = Preprocess()``): that class's method (flax/equinox modules excepted:
        their methods have their own rules)."""
        cls = instance_class(self.index, self.unit, func.value)
        if cls is None or cls.is_jax_module:
            return None
        return cls.methods.get(func.attr.value)

    _TREE_MAPS = frozenset({"jax.tree_util.tree_map", "jax.tree.map", "jax.tree_map"})

    def _tree_map_callback(self, call: cst.Call) -> bool:
        """``jax.tree.map(lambda p: ..., params)`` in traced code: the leaves handed to
        the function are tracers when a tree is traced."""
        if self.qualname(call.func) not in self._TREE_MAPS:
            return False
        pos = positional_args(call)
        if len(pos) < 2 or not isinstance(pos[0].value, cst.Lambda):
            return False
        target = self.index.unit_of.get(id(pos[0].value))
        if target is None or target.host:
            return False
        target.mark_traced(f"called from traced `{self.unit.name}`")
        params = target.positional()
        for i, tree in enumerate(pos[1:]):
            if i < len(params) and self.value(tree.value).traced and params[i].name not in target.static_params:
                target.traced_params.add(params[i].name)
        return True

    def _external_call(self, call: cst.Call, require_traced: bool = False,
                       callee_expr: Optional[cst.BaseExpression] = None) -> None:
        """Record a call from traced code to an imported function (``mod.f(x)``,
        ``f(x)`` after ``from mod import f``) with the arguments that are tracers;
        ``callee_expr``: the function a transformation wraps and the call applies
        (``jax.value_and_grad(losses.loss_fn)(p, b)``: ``losses.loss_fn`` gets them)."""
        if self.settings.module is None:
            return  # linted alone, outside a project
        fexpr = call.func if callee_expr is None else callee_expr
        if type(fexpr) not in (cst.Name, cst.Attribute):
            return
        callee = dotted_name(fexpr)
        if callee is None:
            return
        head = callee.split(".", 1)[0]
        if self.lookup(head) is not None or self.builtin_name(fexpr) is not None:
            return  # a local value, or a builtin: not another module's function
        if not self.imports.project_import(head, self.settings.project_packages):
            return
        if apis.transform_for(self.qualname(fexpr)) is not None:
            return  # a JAX transformation (when the project is JAX itself): not a helper
        if any(a.star for a in call.args):
            return  # *args/**kwargs: which parameter gets what is unknown
        pos = [self.value(a.value) for a in positional_args(call)]
        kws = [(a.keyword.value, self.value(a.value)) for a in call.args if a.keyword is not None]
        if require_traced and not any(v.traced for v in pos) and not any(v.traced for _, v in kws):
            return
        self.external_calls.append(ExternalCall(
            callee, call, self.unit,
            traced_pos=tuple(i for i, v in enumerate(pos) if v.traced),
            traced_kw=tuple(k for k, v in kws if v.traced),
            array_pos=tuple(i for i, v in enumerate(pos) if v.traced and v.kind == V.ARRAY),
            array_kw=tuple(k for k, v in kws if v.traced and v.kind == V.ARRAY),
            n_pos=len(pos),
            keywords=tuple(k for k, _ in kws),
            none_pos=tuple(i for i, a in enumerate(positional_args(call)) if _is_none(a.value)),
            none_kw=tuple(a.keyword.value for a in call.args if a.keyword is not None and _is_none(a.value)),
            class_pos=tuple((i, v.cls.flat) for i, v in enumerate(pos) if v.traced and v.cls is not None),
            class_kw=tuple((k, v.cls.flat) for k, v in kws if v.traced and v.cls is not None),
        ))

    def _note_none_args(self, target: Unit, params: list, call: cst.Call) -> None:
        """Record which parameters traced callers may leave None (omitted with a
        None default, or passed None), so `if p is None:` branches that no traced
        caller can reach are not analysed as traced code."""
        passed: set[str] = set()
        given: set[str] = set()  # passed at all, None included
        for i, arg in enumerate(positional_args(call)):
            if i < len(params):
                given.add(params[i].name)
            if i < len(params) and not _is_none(arg.value):
                passed.add(params[i].name)
        if any(a.star for a in call.args):
            passed.update(p.name for p in target.params)  # *args/**kwargs: unsure
        for arg in call.args:
            if arg.keyword is not None:
                given.add(arg.keyword.value)
            if arg.keyword is not None and not _is_none(arg.value):
                passed.add(arg.keyword.value)
        for p in target.params:
            if p.name not in passed:
                target.maybe_none.add(p.name)
        target.passed_params |= {p.name for p in target.params if p.name in passed or p.name in given}
        target.traced_calls += 1

    def _dead_under_trace(self, test: cst.BaseExpression) -> Optional[bool]:
        """Which branch of ``if test:`` no trace can take (True: the body, False:
        the else), or None when both may run."""
        truth = self._truth_under_trace(test)
        return None if truth is None else not truth

    def _truth_under_trace(self, test: cst.BaseExpression) -> Optional[bool]:
        """The value ``test`` has in every trace of this unit, when the model knows it:

        * ``isinstance(<tracer>, np.ndarray)`` (never true under trace),
          ``isinstance(<traced array>, jax.Array)`` and ``hasattr(<tracer>, "shape")``
          (always), and their negations;
        * ``p is None`` in a nested function on a parameter of the enclosing function
          that every site tracing it has ruled out;
        * ``p is None`` / ``p is not None`` on a parameter of a helper that every
          traced caller passes a value;
        * ``p`` / ``not p`` on a parameter with a literal default that no traced
          caller passes (the default applies)."""
        if not self.in_traced:
            return None
        by_type = self._isinstance_under_trace(test)
        if by_type is not None:
            return by_type
        t = type(test)
        if t is cst.UnaryOperation and isinstance(test.operator, cst.Not):
            inner = self._truth_under_trace(test.expression)
            return None if inner is None else not inner
        unit = self.unit
        free = self._closure_not_none(test)  # which branch is dead
        if free is not None:
            return not free
        if not unit.traced_calls or not all(r.startswith("called from") for r in unit.reasons):
            return None
        if t is cst.Name:
            p = unit.param(test.value)
            if p is None or p.name in unit.passed_params or p.name in unit.assigned:
                return None
            if isinstance(p.default, cst.Name) and p.default.value in ("True", "False", "None"):
                return p.default.value == "True"
            return None
        if not (t is cst.Comparison and len(test.comparisons) == 1):
            return None
        comp = test.comparisons[0]
        if not (isinstance(test.left, cst.Name) and _is_none(comp.comparator)):
            return None
        name = self._alias_of(test.left.value) or test.left.value
        if unit.param(name) is None or name in unit.maybe_none or name in unit.assigned:
            return None
        if isinstance(comp.operator, cst.Is):
            return False
        if isinstance(comp.operator, cst.IsNot):
            return True
        return None

    def _note_site(self, node_id: int) -> None:
        """A transformation site of a unit of this file is reached: remember which
        names are not None on this path (intersected over the unit's sites)."""
        if self._site_units is None:
            self._site_units = {}
            for u in self.index.units:
                for sid in u.trace_sites:
                    self._site_units.setdefault(sid, []).append(u)
        for u in self._site_units.get(node_id, ()):
            prev = self._not_none_at_sites.get(id(u))
            names = frozenset(self.not_none)
            self._not_none_at_sites[id(u)] = (names, 1) if prev is None else (prev[0] & names, prev[1] + 1)

    def _closure_not_none(self, test: cst.BaseExpression) -> Optional[bool]:
        """``if scale is None:`` in a nested function on a variable of the enclosing
        function that every site tracing it has ruled out (``if scale is None:
        return step`` before ``return jax.jit(step)``): which branch is dead."""
        unit = self.unit
        if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
            return None
        comp = test.comparisons[0]
        if not (isinstance(test.left, cst.Name) and _is_none(comp.comparator)):
            return None
        name = test.left.value
        parent = unit.parent
        if parent is None or parent.is_module or unit.param(name) is not None or name in unit.assigned:
            return None
        name = self._alias_of(name, parent) or name
        if parent.param(name) is None or name in parent.assigned:
            return None  # only a parameter the enclosing function never rebinds
        seen = self._not_none_at_sites.get(id(unit))
        if seen is None or seen[1] < len(unit.trace_sites) or name not in seen[0]:
            return None
        if not unit.reasons or not set(unit.reasons) <= unit.site_reasons:
            return None  # also traced another way (called from traced code...)
        if isinstance(comp.operator, cst.Is):
            return True
        if isinstance(comp.operator, cst.IsNot):
            return False
        return None

    _HOST_TYPES = frozenset(
        {"numpy.ndarray", "numpy.generic", "numpy.number", "numpy.floating", "numpy.integer",
         "numpy.bool_", "numpy.float32", "numpy.float64", "numpy.int32", "numpy.int64"}
    )
    _HOST_BUILTINS = frozenset({"int", "float", "bool", "complex"})

    def _isinstance_under_trace(self, test: cst.BaseExpression) -> Optional[bool]:
        """The truth of ``isinstance(x, T)`` (or its negation) in traced code when
        ``x`` is a tracer: False for NumPy arrays and Python scalars, True for
        ``jax.Array``/``Tracer`` when ``x`` is known to be one array; else None."""
        if not self.in_traced:
            return None
        negated = False
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            negated, test = True, test.expression
        if isinstance(test, cst.Call) and self.builtin_name(test.func) == "hasattr":
            # hasattr(<traced array>, "shape"): a tracer has the array attributes
            pos = positional_args(test)
            if len(pos) == 2 and len(test.args) == 2 and string_value(pos[1].value) in apis.STATIC_ATTRS:
                v = self.value(pos[0].value)
                if v.traced and v.kind == V.ARRAY:
                    return not negated
            return None
        if not (isinstance(test, cst.Call) and self.builtin_name(test.func) == "isinstance"):
            return None
        pos = positional_args(test)
        if len(pos) != 2 or len(test.args) != 2:
            return None
        v = self.value(pos[0].value)
        if not v.traced:
            return None
        types = pos[1].value
        elts = [el.value for el in types.elements] if isinstance(types, cst.Tuple) else [types]
        host = array = 0
        for t in elts:
            q = self.qualname(t)
            b = self.builtin_name(t)
            if q in self._HOST_TYPES or b in self._HOST_BUILTINS:
                host += 1
            elif q in self._ARRAY_TYPES - {"numpy.ndarray"}:
                array += 1
        if host == len(elts):
            result = False  # a tracer is never a NumPy array or a Python scalar
        elif array and v.kind == V.ARRAY:
            result = True
        else:
            return None
        return result != negated

    # -- evaluation ---------------------------------------------------------------
    def _field(self, base: Value, attr: str) -> Value:
        """``obj.attr`` for a traced ``obj``: a tracer only where the model can show
        it, a data leaf of a class it can read (model/pytrees.py); the array API
        (``x.T``, ``x.real``) of a value of no known class; else unknown."""
        if base.cls is None:
            if attr in pytrees.ARRAY_ATTRS:
                return Value(kind=V.ARRAY, traced=True, deps=base.deps)
            return V.UNKNOWN_VALUE  # a class it cannot read: unknown never reports
        what, ann = pytrees.attribute(base.cls.flat, attr)
        if what == "static":
            if isinstance(ann, str) and ann in apis.STATIC_ANNOTATIONS:
                return V.STATIC_VALUE
            return V.UNKNOWN_VALUE  # a Python value, of any type
        if what == "data":
            if isinstance(ann, str) and ann in apis.ARRAY_ANNOTATIONS:
                return Value(kind=V.ARRAY, traced=True, deps=base.deps)
            cls = self.index.flat_class(ann) if isinstance(ann, dict) else None
            return Value(kind=V.UNKNOWN, traced=True, deps=base.deps, cls=cls)
        return V.UNKNOWN_VALUE

    def _eval(self, e: cst.CSTNode) -> Value:
        t = type(e)
        traced_ctx = self.in_traced
        if t is cst.Name:
            v = self.lookup(e.value)
            if v is not None:
                return v
            if e.value in ("True", "False", "None"):
                return V.STATIC_VALUE
            q = self.imports.resolve_dotted(e.value)
            if q is not None:
                return Value(kind=V.FUNCTION, qualname=q)
            return V.UNKNOWN_VALUE
        if t in (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.Ellipsis):
            return V.STATIC_VALUE
        if t is cst.Attribute:
            q = self.qualname(e)
            if q is not None:
                return Value(kind=V.FUNCTION, qualname=q)
            base = self.value(e.value)
            attr = e.attr.value
            if attr in apis.STATIC_ATTRS:
                return V.STATIC_VALUE
            if attr == "at" and (base.kind == V.ARRAY or base.traced):
                return Value(kind=V.AT, traced=base.traced, deps=base.deps)
            if base.kind == V.ARRAY:
                return Value(kind=V.ARRAY, traced=base.traced, deps=base.deps)
            if base.traced:
                return self._field(base, attr)
            return V.UNKNOWN_VALUE
        if t is cst.Subscript:
            base = self.value(e.value)
            idx_traced = False
            deps = base.deps
            for el in e.slice:
                for part in _slice_parts(el.slice):
                    pv = self.value(part)
                    if pv.traced:
                        idx_traced = True
                        deps = deps | pv.deps
            if base.kind == V.STATIC:
                return Value(kind=V.STATIC) if not idx_traced else Value(traced=True, deps=deps)
            if base.kind == V.KEYS:
                return Value(kind=V.KEY, key=self._subscript_key(e, base))
            if base.kind == V.AT:
                return Value(kind=V.AT_INDEX, traced=base.traced or idx_traced, deps=deps)
            if base.kind == V.ARRAYS and base.item is not None and len(e.slice) == 1:
                sl = e.slice[0].slice
                if isinstance(sl, cst.Index):
                    return base.item
                return base  # a slice of the list: a list
            if base.kind == V.TUPLE and base.elements is not None and len(e.slice) == 1:
                sl = e.slice[0].slice
                if isinstance(sl, cst.Index) and isinstance(sl.value, cst.Integer):
                    i = int(sl.value.value)
                    if 0 <= i < len(base.elements):
                        return base.elements[i]
            if base.traced or (idx_traced and base.kind == V.ARRAY):
                return Value(kind=V.ARRAY if base.kind == V.ARRAY else V.UNKNOWN, traced=True, deps=deps)
            if base.kind == V.ARRAY:
                return Value(kind=V.ARRAY, traced=traced_ctx and base.traced)
            return V.UNKNOWN_VALUE
        if t is cst.Call:
            return self._eval_call(e)
        if t is cst.BinaryOperation:
            l, r = self.value(e.left), self.value(e.right)
            if l.kind == V.STATIC and r.kind == V.STATIC:
                return V.STATIC_VALUE
            if (l.kind in (V.LIST, V.TUPLE) or r.kind in (V.LIST, V.TUPLE)) and not (l.traced or r.traced):
                return Value(kind=V.LIST)  # sequence repetition / concatenation
            traced = l.traced or r.traced
            if traced or V.ARRAY in (l.kind, r.kind):
                hint = None
                if isinstance(e.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)) and l.dtype_hint == r.dtype_hint == "bool":
                    hint = "bool"
                elif isinstance(e.operator, cst.Divide) or "float" in (l.dtype_hint, r.dtype_hint) or isinstance(e.left, cst.Float) or isinstance(e.right, cst.Float):
                    hint = "float"
                return Value(kind=V.ARRAY, traced=traced, deps=l.deps | r.deps, dtype_hint=hint)
            return V.UNKNOWN_VALUE
        if t is cst.UnaryOperation:
            inner = self.value(e.expression)
            if isinstance(e.operator, cst.Not):
                return V.STATIC_VALUE
            hint = inner.dtype_hint if isinstance(e.operator, cst.BitInvert) else None
            return Value(kind=inner.kind if inner.kind in (V.ARRAY, V.STATIC) else V.UNKNOWN, traced=inner.traced, deps=inner.deps, dtype_hint=hint)
        if t is cst.Comparison:
            if any(isinstance(c.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for c in e.comparisons):
                return V.STATIC_VALUE
            operands = [e.left] + [c.comparator for c in e.comparisons]
            if any(isinstance(o, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)) for o in operands):
                return V.STATIC_VALUE  # `mode == "train"`: a Python string, not an array
            vals = [self.value(o) for o in operands]
            if all(v.kind == V.STATIC for v in vals):
                return V.STATIC_VALUE
            deps = frozenset().union(*(v.deps for v in vals))
            if any(v.traced for v in vals):
                return Value(kind=V.ARRAY, traced=True, deps=deps, dtype_hint="bool")
            if any(v.kind == V.ARRAY for v in vals):
                return Value(kind=V.ARRAY, dtype_hint="bool")
            return V.UNKNOWN_VALUE
        if t is cst.BooleanOperation:
            l, r = self.value(e.left), self.value(e.right)
            if l.kind == V.STATIC and r.kind == V.STATIC:
                return V.STATIC_VALUE
            # the left operand is always converted to bool; the right one only
            # matters for some Python values of the left (a guard): unsure
            return Value(traced=l.traced, deps=l.deps)
        if t is cst.IfExp:
            return V.join(self.value(e.body), self.value(e.orelse))
        if t in (cst.Tuple, cst.List):
            els = []
            for el in e.elements:
                if isinstance(el, cst.StarredElement):
                    return Value(kind=V.LIST if t is cst.List else V.UNKNOWN)
                els.append(self.value(el.value))
            if t is cst.List:
                return Value(kind=V.LIST, elements=tuple(els))
            return Value(kind=V.TUPLE, elements=tuple(els))
        if t in (cst.Dict, cst.Set) or t in _COMPREHENSIONS and t is not cst.GeneratorExp:
            return Value(kind=V.LIST)
        if t is cst.GeneratorExp:
            return Value(kind=V.ITERATOR)
        if t is cst.Lambda:
            return Value(kind=V.FUNCTION, unit=self.index.unit_of.get(id(e)))
        if t is cst.NamedExpr:
            return self.value(e.value)
        return V.UNKNOWN_VALUE

    def _collective_result(self, q: str, arg: Value, traced_ctx: bool, deps: frozenset) -> Value:
        """``lax.pmean((loss, metrics, grads), axis)`` has the structure of its
        argument: a tuple stays a tuple, a dict a dict; ``lax.psum(1, axis)`` of
        a Python number is a Python number (the axis size)."""
        if arg.kind == V.STATIC:
            if q in apis.COLLECTIVES_STATIC_FOR_STATIC:
                return V.STATIC_VALUE
            return Value(kind=V.ARRAY, traced=traced_ctx, deps=deps | JAX_COMPUTED if traced_ctx else deps)
        if arg.kind == V.TUPLE and arg.elements is not None:
            return Value(kind=V.TUPLE, elements=tuple(self._collective_result(q, el, traced_ctx, el.deps) for el in arg.elements))
        if arg.kind == V.LIST:
            return Value(kind=V.LIST, traced=traced_ctx, deps=deps)  # a dict/list of arrays
        if arg.kind == V.ARRAYS:
            return arg
        kind = V.ARRAY if arg.kind in (V.ARRAY, V.NPARRAY) else V.UNKNOWN
        return Value(kind=kind, traced=traced_ctx or arg.traced, deps=deps | JAX_COMPUTED if traced_ctx else deps)

    def _is_bool_dtype(self, call: cst.Call) -> bool:
        """``.astype(bool)`` / ``.astype(jnp.bool_)`` / ``.astype("bool")``."""
        pos = positional_args(call)
        if not pos:
            return False
        d = pos[0].value
        if self.builtin_name(d) == "bool" or string_value(d) == "bool":
            return True
        return self.qualname(d) in ("jax.numpy.bool_", "numpy.bool_", "jax.numpy.bool", "numpy.bool")

    def _subscript_key(self, e: cst.Subscript, base: Value) -> KeyToken:
        label = f"{base.key!r}[{self.code(e.slice[0]) if e.slice else ''}]"
        token = self._attr_tokens.get(label)
        if token is None:
            token = KeyToken(e, len(self.loop_stack), label)
            if all(isinstance(el.slice, cst.Index) and isinstance(el.slice.value, (cst.Integer, cst.UnaryOperation)) for el in e.slice):
                self._attr_tokens[label] = token
        return token

    def _eval_call(self, e: cst.Call) -> Value:
        func = e.func
        traced_ctx = self.in_traced
        arg_vals = [self.value(a.value) for a in e.args]
        any_traced = any(v.traced for v in arg_vals)
        deps = frozenset().union(*(v.deps for v in arg_vals)) if arg_vals else frozenset()
        written = dotted_name(func) if type(func) in (cst.Name, cst.Attribute) else None
        head = self.lookup(written.split(".", 1)[0]) if written is not None else None
        if written is not None and (head is None or head == V.UNKNOWN_VALUE):
            cls = self.index.pytree_class(written)
            if cls is not None:
                return Value(cls=cls)  # an instance of a pytree class the model reads
        q = self.qualname(func)
        if q is not None:
            if q == "functools.partial":
                return Value(kind=V.FUNCTION)
            t = apis.transform_for(q)
            if t is not None:
                return Value(kind=V.FUNCTION, transform=q)
            if q.startswith("jax.random."):
                short = q.rsplit(".", 1)[1]
                if short in ("PRNGKey", "key", "wrap_key_data", "clone", "fold_in"):
                    return Value(kind=V.KEY, key=KeyToken(e, len(self.loop_stack), short), traced=traced_ctx and (any_traced or short != "PRNGKey"), deps=deps)
                if short == "split":
                    return Value(kind=V.KEYS, traced=traced_ctx, deps=deps)
                if short in ("key_data", "key_impl"):
                    return Value(kind=V.ARRAY, traced=traced_ctx and any_traced, deps=deps)
            if q in apis.STATIC_RESULT_FUNCS:
                return V.STATIC_VALUE
            if q.rsplit(".", 1)[-1].startswith("_"):
                return V.UNKNOWN_VALUE  # private helpers (jax internals) return anything
            if q in apis.COLLECTIVES:
                pos = positional_args(e)
                if pos:
                    return self._collective_result(q, self.value(pos[0].value), traced_ctx, deps)
            n_pos = len(positional_args(e))
            if self.eager:
                traced_ctx = False  # under vmap alone, only the batched values are tracers
            if q in apis.ARRAY_SEQUENCE_FUNCS or (q in apis.ARRAY_SEQUENCE_IF_MANY and n_pos > 1) or (
                q in apis.ARRAY_SEQUENCE_IF_ONE and n_pos == 1 and len(e.args) == 1
            ):
                item = Value(kind=V.ARRAY, traced=traced_ctx or any_traced, deps=deps | JAX_COMPUTED if traced_ctx else deps)
                return Value(kind=V.ARRAYS, item=item)
            if q.startswith(apis.ARRAY_MODULES) or q.startswith("jax.numpy"):
                hint = "bool" if q in apis.BOOL_RESULT_FUNCS else None
                shape, floaty = constructor_facts(self, q, e)
                if traced_ctx:
                    deps = deps | JAX_COMPUTED  # a tracer whatever its inputs are
                return Value(kind=V.ARRAY, traced=traced_ctx or any_traced, deps=deps, local_array=True, dtype_hint=hint or floaty, shape=shape)
            if q.startswith("numpy.") or q == "numpy":
                if all(v.kind == V.STATIC for v in arg_vals):
                    return V.STATIC_VALUE
                return Value(kind=V.NPARRAY)
            if q.startswith("math."):
                return V.STATIC_VALUE if not any_traced else Value(traced=True, deps=deps)
            if q == "jax.device_get":
                # host values (NumPy arrays, a pytree of them): mutable, not JAX arrays
                return V.UNKNOWN_VALUE
            if q.startswith("jax.") and q.rsplit(".", 1)[1] in ("device_put", "block_until_ready"):
                return Value(kind=V.ARRAY, traced=traced_ctx and any_traced, deps=deps)
            return V.UNKNOWN_VALUE
        if isinstance(func, cst.Name):
            name = func.value
            local = self.lookup(name)
            if local is None:
                if name in _BUILTIN_STATIC or name in ("int", "float", "bool", "complex"):
                    return V.STATIC_VALUE
                if name == "range":
                    return V.STATIC_VALUE
                if name in ("iter", "map", "filter", "reversed"):
                    return Value(kind=V.ITERATOR)
                if name in ("enumerate", "zip"):
                    return Value(kind=V.ITERATOR)
                if name in ("list", "tuple"):
                    return Value(kind=V.LIST, traced=any_traced, deps=deps)
                if name in ("abs", "max", "min", "sum", "round", "pow", "divmod"):
                    if any_traced:
                        return Value(kind=V.ARRAY, traced=True, deps=deps)
                    if all(v.kind == V.STATIC for v in arg_vals):
                        return V.STATIC_VALUE
                return V.UNKNOWN_VALUE
            if local.unit is not None and local.unit.is_generator:
                return Value(kind=V.ITERATOR)
            if local.unit is not None and local.unit.jit_root and traced_ctx:
                # a jitted function called from traced code returns tracers
                # (a pytree of them: the kind stays unknown)
                return Value(kind=V.UNKNOWN, traced=True, deps=deps | JAX_COMPUTED)
            if traced_ctx and any_traced and local.unit is not None and self._returns_array(local.unit, e, arg_vals):
                # a helper of this file that hands back a JAX computation of what it was given
                return Value(kind=V.ARRAY, traced=True, deps=deps | JAX_COMPUTED)
            return V.UNKNOWN_VALUE
        if isinstance(func, cst.Attribute):
            base = self.value(func.value)
            m = func.attr.value
            if base.kind == V.AT_INDEX:
                return Value(kind=V.ARRAY, traced=base.traced or any_traced, deps=base.deps | deps)
            if base.kind == V.KEY and m in ("astype",):
                return base
            if m in apis.CONCRETIZING_METHODS:
                return V.STATIC_VALUE
            if base.kind == V.ARRAY:
                hint = "bool" if m == "astype" and self._is_bool_dtype(e) else None
                return Value(kind=V.ARRAY, traced=base.traced or (traced_ctx and any_traced), deps=base.deps | deps, dtype_hint=hint)
            if base.traced and m in apis.ARRAY_METHODS:
                return Value(kind=V.ARRAY, traced=True, deps=base.deps | deps)
            if base.kind == V.FUNCTION and base.transform is not None:
                return V.UNKNOWN_VALUE
            return V.UNKNOWN_VALUE
        if isinstance(func, cst.Call):
            inner = self.value(func)
            if inner.kind == V.FUNCTION and inner.transform is not None:
                if traced_ctx and not self.eager and differentiates(inner.transform, func):
                    # grad/value_and_grad under jit: the value and gradients are JAX's
                    # computation, tracers whatever the inputs (model/transformed.py)
                    return Value(kind=V.UNKNOWN, traced=True, deps=deps | JAX_COMPUTED)
                # jax.jit(f)(x) returns whatever f returns: often a pytree
                return Value(kind=V.UNKNOWN, traced=traced_ctx and any_traced, deps=deps)
            if any_traced:
                layer = self.qualname(func.func)
                if layer is not None and layer.startswith(_LAYER_MODULES) and layer.rsplit(".", 1)[1][:1].isupper():
                    # nn.Dense(4)(x), hk.Linear(8)(x) on a tracer: the layer's output is a tracer
                    return Value(kind=V.UNKNOWN, traced=True, deps=deps | JAX_COMPUTED)
        return V.UNKNOWN_VALUE


# layer classes built and applied in one expression inside a module's method
_LAYER_MODULES = ("flax.linen.", "flax.nnx.", "haiku.", "equinox.nn.")

_RAISES_CONTEXTS = frozenset(
    {"raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp", "assertRaisesWithLiteralMatch"}
)


def _expects_exception(e: cst.BaseExpression) -> bool:
    """``pytest.raises(...)``, ``self.assertRaises(...)``, ``self.assertRaisesRegex(...)``:
    a context whose body is there to raise."""
    if isinstance(e, cst.Call):
        name = dotted_name(e.func)
        return name is not None and name.rsplit(".", 1)[-1] in _RAISES_CONTEXTS
    return False


def _none_guard(s: cst.If) -> Optional[str]:
    """``if p is None: ... return/raise`` (no else): after it, ``p`` is not None."""
    t = s.test
    if s.orelse is not None or not (isinstance(t, cst.Comparison) and len(t.comparisons) == 1):
        return None
    c = t.comparisons[0]
    if not (isinstance(t.left, cst.Name) and isinstance(c.operator, cst.Is) and _is_none(c.comparator)):
        return None
    if isinstance(_last_small(s), (cst.Return, cst.Raise)):
        return t.left.value
    return None


def _last_small(s: cst.If) -> Optional[cst.CSTNode]:
    """The last small statement of an ``if``'s body: of its indented block, or of
    a one-line body (``if p is None: return``)."""
    body = s.body.body
    last = body[-1] if body else None
    if isinstance(last, cst.SimpleStatementLine):
        return last.body[-1] if last.body else None
    return last


def _is_none(e: cst.CSTNode) -> bool:
    return isinstance(e, cst.Name) and e.value == "None"


def _replace(v: Value, **kw) -> Value:
    from dataclasses import replace

    return replace(v, **kw)


def _slice_parts(sl: cst.CSTNode) -> list[cst.CSTNode]:
    if isinstance(sl, cst.Index):
        return [sl.value]
    if isinstance(sl, cst.Slice):
        return [p for p in (sl.lower, sl.upper, sl.step) if p is not None]
    return []


def _imported_names(s: cst.CSTNode) -> list[str]:
    out = []
    names = getattr(s, "names", None)
    if isinstance(names, (list, tuple)):
        for alias in names:
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                out.append(alias.asname.name.value)
            elif isinstance(alias.name, cst.Name):
                out.append(alias.name.value)
            elif isinstance(alias.name, cst.Attribute):
                d = dotted_name(alias.name)
                if d:
                    out.append(d.split(".")[0])
    return out


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
            # a cycle: take the earliest remaining unit whose enclosing unit is done
            for uid in remaining:
                parent = by_id[uid].parent
                if parent is None or id(parent) in done:
                    break
            else:
                uid = remaining[0]
            out.append(by_id[uid])
            done.add(uid)
            remaining.remove(uid)
    return out
