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
from jaxlint.model.arg_shapes import rebound_in_loop
from jaxlint.model.attributes import attribute_holds_jax_array
from jaxlint.model.constants import constant_int, holds_host_numpy_array, host_array_expr
from jaxlint.model import dispatched
from jaxlint.model.keystate import call_state
from jaxlint.model.scopes import instance_class
from jaxlint.model.repeats import called_repeatedly, repeated_units
from jaxlint.model.shapes import call_site_shapes
from jaxlint.model.index import FileIndex
from jaxlint.model import values as V
from jaxlint.model.interpreter import Interpreter, LoopFrame
from jaxlint.model.jit_calls import JitInfo
from jaxlint.model.units import Unit
from jaxlint.model.values import KeyToken, Value
from jaxlint.parse.notebook import is_cell_boundary
from jaxlint.settings import LintSettings


class RuleContext:
    __slots__ = (
        "_interp", "_reports", "_built", "_multiline", "_displayed", "module", "text", "path", "settings", "index", "imports",
        "qualname", "builtin_name", "value", "is_traced", "is_tracer", "holds_tracer", "describe_origin",
        "static_hint", "jit_callee", "jit_declaration", "key_token", "consume_key",
        "attr_key", "lookup", "key_consumer", "branch_key_consumers", "draw_dim_args", "returned_keys", "returns_fresh_function", "returns_fresh_jit", "applied_key_fields",
            "instance_class", "class_streams", "caller_transform_apply_key", "flax_init_keys",
        "concrete_names", "truth_under_trace",
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
    """Is the expression an abstract tracer here (its value unknown while JAX traces)?"""
    is_tracer: Callable[[cst.CSTNode], bool]
    """Is the expression a tracer of any sort here: abstract, or a JVP tracer of a
    concrete value in a function differentiated outside jit (``jax.grad(f)(x)``:
    `if x > 0` works there, `np.asarray(x)` and `print(x)` see the tracer)?"""
    holds_tracer: Callable[[cst.CSTNode], bool]
    """Is the expression a container the model shows holds a tracer (a tuple, list or
    dict with one among its items, an instance built with one in a field), at any depth?"""
    describe_origin: Callable[[Value], str]
    """A phrase saying where a tracer comes from, for messages."""
    static_hint: Callable[[Value], str]
    """"; or ... mark it static (static_argnums=...)" when that would help, else ""."""
    jit_callee: Callable[..., Optional[JitInfo]]
    """``jit_callee(call, exact=True, static_only=False)``: the jit of this file a call
    invokes; ``static_only``: also a jit of a function whose signature is unknown here
    (``info.unit`` None; only literal static positions/keywords are known)."""
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
    returns_fresh_function: Callable[[cst.Name], bool]
    returns_fresh_jit: Callable[[cst.BaseExpression], bool]
    """Does the function a name calls (this file's or the project's) return a
    function it defines (a new object per call)?"""
    key_consumer: Callable[[cst.Call], list[tuple[cst.BaseExpression, str, str]]]
    branch_key_consumers: Callable[[cst.Call], list]
    draw_dim_args: Callable[[cst.Call], frozenset]
    returned_keys: Callable[[cst.Call], tuple[str, dict]]
    flax_init_keys: Callable[[cst.Call], list]
    """The arguments of a call to a helper (this file's or the project's) that hands
    the key it is given to a jax.random consumer: (argument, helper, consumer)."""
    applied_key_fields: Callable[[cst.Call], list[tuple[cst.BaseExpression, str, str, str]]]
    """``net.apply(...)`` of a flax module of this file built with a key field its
    methods draw from (``Noisy(rng_key=key)``): (the key given, the call as written,
    the consumer, the field)."""

    caller_transform_apply_key: Callable[[cst.Call], Optional[tuple[cst.BaseExpression, str]]]
    """``fun.apply(params, state, rng, x)`` of ``fun = hk.transform_with_state(fun)``, a
    haiku transform of a function the caller hands in: (the rng argument, the holder)."""

    concrete_names: Callable[..., list[str]]
    """``concrete_names(test, when_false=False)``: the names ``test`` being true (false,
    ``when_false``) proves to be Python values: ``isinstance(x, float)``, ``type(x) is
    int``, ``not isinstance(x, jax.Array)`` and conjunctions of those (when false:
    ``isinstance(x, jax.Array)``, disjunctions)."""

    truth_under_trace: Callable[[cst.BaseExpression], Optional[bool]]
    """The truth ``test`` has in every trace of this unit, where the model knows it
    (``p`` with a literal default no traced caller passes, a jitted function's defaulted
    parameter no call passes, ``p is None`` on a parameter every traced caller gives a
    value, ``isinstance`` of a tracer...); else None."""

    def __init__(self, interp: Interpreter) -> None:
        self._interp = interp
        self._reports: list[Report] = []
        self._built = False  # the tree was built from CPython's: the first report stops the analysis
        self._multiline: dict[str, cst.CSTNode] = {}  # an expression's code printed alone -> it
        self._displayed: Optional[frozenset[int]] = None
        self.module: cst.Module = interp.module
        self.text: str = interp.text
        self.path: str = interp.path
        self.settings: LintSettings = interp.settings
        self.index: FileIndex = interp.index
        self.imports = interp.imports
        for name in (
            "qualname", "builtin_name", "value", "is_traced", "is_tracer", "holds_tracer", "describe_origin",
            "static_hint", "jit_callee", "jit_declaration", "key_token", "consume_key",
            "attr_key", "lookup", "key_consumer", "branch_key_consumers", "draw_dim_args", "returned_keys", "returns_fresh_function", "returns_fresh_jit", "applied_key_fields",
            "instance_class", "class_streams", "caller_transform_apply_key", "flax_init_keys",
        ):
            setattr(self, name, getattr(interp, name))
        self.concrete_names = interp.concrete_names
        self.truth_under_trace = interp.truth_in_trace

    def code(self, node: cst.CSTNode) -> str:
        """The source of ``node``.  Printed alone, an expression spanning several lines
        loses the indentation of the block around it on its continuation lines (libcst
        keeps that indentation outside the node): such text is noted, and a fix whose
        text holds it gets the lines as they stand in the file (engine/reports.py)."""
        text = self.module.code_for_node(node)
        if "\n" in text and isinstance(node, cst.BaseExpression):
            self._multiline.setdefault(text, node)
        return text

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
    def in_tracing(self) -> bool:
        """Does the current code run with tracers: traced (``in_traced``), or
        differentiated outside jit (``jax.grad(f)(x)``: tracers of concrete values)?"""
        return self._interp.in_tracing

    @property
    def eager_mapped(self) -> bool:
        """Is the current unit traced only by `jax.vmap(f)(...)` called at once in untraced
        code (no `jit` around it): what it runs is dispatched operation by operation, and
        nothing is compiled as one program (model/walker.py)?"""
        return self._interp.eager

    @property
    def concrete_tracers(self) -> bool:
        """Is the current code differentiated outside jit only, so that its tracers
        hold concrete values (model/gradtrace.py)?"""
        return self._interp.concrete

    @property
    def x64_enabled(self) -> bool:
        """Is ``jax_enable_x64`` on for this code (config, the file, or an enclosing
        ``with jax.enable_x64()``)?"""
        return self._interp.x64_enabled

    def x64_switched_in(self, unit: Unit) -> bool:
        """Does the body of the function ``unit`` switch x64 on (``jax.config.update(
        "jax_enable_x64", ...)``, a helper of the file or the project that does, under an
        ``if`` too: model/x64.py)?"""
        x64 = self._interp.x64
        node = unit.node
        return x64.active and type(node) is cst.FunctionDef and x64.body_switches_on(node.body.body)

    @property
    def expects_exception(self) -> bool:
        """Is the current statement inside ``with pytest.raises(...)`` /
        ``with self.assertRaises(...)``, i.e. run for the exception it raises?"""
        return self._interp.raises_depth > 0

    def displayed(self, node: cst.Expr) -> bool:
        """Is ``node`` the expression a notebook cell ends with, which Jupyter shows as the
        cell's output (IPython's ``last_expr``; a trailing ``;`` hides it)?"""
        if self._displayed is None:
            self._displayed = _displayed_expressions(self.module) if self.path.endswith(".ipynb") else frozenset()
        return id(node) in self._displayed

    def handles(self, errors: frozenset[str]) -> bool:
        """Is the current statement inside a ``try:`` of this unit whose handlers catch
        one of ``errors`` (qualified names), and do more than re-raise it?"""
        return self._interp.handles(*errors)

    def handles_alone(self) -> bool:
        """Is the current statement alone in a ``try:`` whose handler catches anything
        (``try: t[0, 0] = 5.0`` / ``except Exception as e: print(e)``: a demonstration)?"""
        return self._interp.handles_alone()

    @property
    def loop_stack(self) -> list[LoopFrame]:
        """The Python loops around the current statement, innermost last."""
        return self._interp.loop_stack

    def rebound_in_loop(self, expr: cst.CSTNode) -> bool:
        """Does ``expr`` read a name that a loop around the current statement binds
        again (its value may change from one iteration to the next)?"""
        return rebound_in_loop(self._interp, expr)

    # ------------------------------------------------------------------ bindings
    def call_site_shapes(self, param: str) -> list[Optional[tuple[int, ...]]]:
        """The static shapes the calls of the current function in this file pass for
        ``param``: one entry per call by name (``f(jnp.ones((4096, 16)))``), None where
        the argument is not a literal constructor.  [] when there is no call."""
        return call_site_shapes(self._interp, param)

    def called_repeatedly(self, unit: Unit) -> bool:
        """Does this file call ``unit`` (by its name: ``f(...)``, ``x.f(...)``) in a
        loop body or a comprehension, or another module of the project call it so?  The evidence that a function runs again and
        again; without it a function may run once per program."""
        return not unit.is_module and (unit.repeated_elsewhere or called_repeatedly(self._interp.module, unit.name))

    def runs_repeatedly(self, unit: Unit) -> bool:
        """Does ``unit`` run again and again as far as the project shows: called in a
        loop or a comprehension, by two statements of one block one after the other, or
        from a function that runs again and again (in this file or, through the facts,
        another module; model/repeats.repeated_units)?  Wider than ``called_repeatedly``,
        whose findings say "this file calls it in a loop"."""
        return not unit.is_module and id(unit) in repeated_units(self._interp.index, self._interp.module)

    def holds_host_numpy_array(self, expr: cst.CSTNode) -> bool:
        """Is ``expr`` a name that every binding in its scope sets to a NumPy array built
        by a constructor (``BINS = np.linspace(0, 1, 16)``, ``grid = np.arange(n)``), or
        such a constructor written in place (``np.arange(x.shape[0])``)?
        The value model calls NumPy results of static inputs static; this says they
        are host arrays all the same."""
        interp = self._interp
        if type(expr) in (cst.Call, cst.BinaryOperation):
            return host_array_expr(interp.index, interp.unit, expr, interp.qualname)
        return holds_host_numpy_array(interp.index, interp.unit, expr, interp.qualname)

    def attribute_holds_jax_array(self, node: cst.CSTNode) -> bool:
        """Is ``node`` ``self.<attr>`` in a method whose class binds that attribute only
        to JAX arrays (``self.buf = jnp.zeros(n)`` in ``__init__``, ``.at[]`` updates)?"""
        unit = self._interp.unit
        cls = unit.cls
        pos = unit.positional()
        if (
            cls is None or not pos or not isinstance(node, cst.Attribute)
            or not isinstance(node.value, cst.Name) or node.value.value != pos[0].name
            or any(isinstance(d.decorator, cst.Name) and d.decorator.value == "staticmethod"
                   for d in getattr(unit.node, "decorators", ()))
        ):
            return False
        return attribute_holds_jax_array(cls, node.attr.value, self._interp.qualname)

    def iteration_count(self, it: cst.BaseExpression) -> Optional[int]:
        """How many times ``for _ in it`` runs, where the model knows it (``range`` of
        known integers, the rows of an array of known shape, a tuple, a list built by a
        comprehension of known length, ``enumerate``/``zip``/``reversed`` of such)."""
        return self._interp.iteration_count(it)

    def constant_int(self, expr: cst.CSTNode) -> Optional[int]:
        """The integer ``expr`` always holds here: an int literal, or a name its scope
        binds once to one (``NUM_CLASSES = 10``, a local ``n = 3``), or one the model's
        value knows on this path (``Value.const``: ``n = x.shape[0]``, an imported
        constant, a helper's return); else None."""
        c = constant_int(self._interp.index, self._interp.unit, expr)
        if c is None and type(expr) in (cst.Name, cst.Attribute, cst.Subscript, cst.Call, cst.BinaryOperation):
            v = self._interp.value(expr).const
            c = v if type(v) is int else None
        return c

    def bound_in_this_branch(self, name: str) -> bool:
        """Was ``name`` bound (or its paths joined) since the innermost branch, loop
        body or ``match`` case around this point began, or is none open?  When False,
        the value it holds came from before a condition that encloses this point: a
        statement here runs on some of the paths that reach that condition only."""
        frames = self._interp.env.frames
        return not frames or name in frames[-1]

    def local(self, name: str) -> Optional[Value]:
        """The value ``name`` has in the current unit on this path, if bound here."""
        return self._interp.env.get(name)

    def module_value(self, name: str) -> Optional[Value]:
        """The value a module-level name had at the end of the module's walk."""
        return self._interp.module_env.get(name)

    def rebinding_works(self, name: str) -> bool:
        """Does assigning ``name`` here rebind the variable the code reads?  True at
        module level, for a parameter or local of this function, and for a name
        declared ``global``/``nonlocal`` here; False for a global or a closure
        variable only read here (assigning it would make it a new local: the
        earlier reads raise UnboundLocalError, and the outer variable keeps its value)."""
        unit = self._interp.unit
        if unit.is_module or name in unit.global_names or name in unit.nonlocal_names:
            return True
        return name in unit.assigned or unit.param(name) is not None

    def shadowed(self, name: str) -> bool:
        """Is ``name`` bound here by something other than an import (a parameter, a
        local, an enclosing function's variable, a module-level assignment)?  A fix
        that writes ``name`` (``jax.debug.print``) must not be offered then."""
        v = self._interp.lookup(name)
        return v is not None and v.kind != V.MODULE and v.qualname is None

    def global_key_call(self, call: cst.Call) -> Optional[tuple[str, str]]:
        """(the callee as written, the global's name) when ``call`` runs a function that
        advances a module-global JAX key (``global _KEY; _KEY, sub = split(_KEY)``), of
        this file or of another module of the project (model/keystate.py)."""
        return call_state(self._interp, call)

    def dispatched_by(self, call: cst.Call) -> Optional[str]:
        """``generate(x)`` where ``generate`` (a function or lambda of this file, a method
        of a class of this file called through ``self`` or an instance, or a function of
        another module of the project) returns a jitted call's result (or a JAX
        computation's) without waiting for it: the callee it hands on, as written in the
        helper (model/dispatched.py); else None."""
        interp = self._interp
        index = interp.index
        func = call.func
        if any(a.star for a in call.args):
            return None
        qualname = dispatched.imports_resolver(index)
        unit: Optional[Unit] = None
        if type(func) is cst.Name:
            v = interp.lookup(func.value)
            if v is None:
                return dispatched.imported(index, func.value)
            if v.kind == V.FUNCTION and v.transform is None:
                unit = v.unit
        elif type(func) is cst.Attribute:
            obj = func.value
            cls = None
            if type(obj) is cst.Name and obj.value == "self" and interp.unit.cls is not None:
                cls = interp.unit.cls
            elif type(obj) is cst.Name:
                cls = instance_class(index, interp.unit, obj)
                if cls is None and interp.lookup(obj.value) is None:
                    return dispatched.imported(index, f"{obj.value}.{func.attr.value}")
                if cls is None:
                    # an instance of a class of another module: `graph = Graph(a)`, `graph.solve(b)`
                    return dispatched.imported_instance_method(index, interp.unit, obj, func.attr.value)
            if cls is not None:
                unit = cls.methods.get(func.attr.value)
                if unit is not None and dispatched.jitted_def(index, unit):
                    return f"{obj.value}.{func.attr.value}"  # a jitted method
        if unit is None:
            return None
        return dispatched.returns_dispatched(unit, index, qualname)

    def consumed_keys(self) -> ItemsView[KeyToken, tuple[cst.CSTNode, str]]:
        """The keys consumed so far in this unit on this path: token -> (node, how)."""
        return self._interp.consumed.items()

    # ------------------------------------------------------------------ engine side
    def _add_report(self, report: Report) -> None:
        unit = self._interp.unit
        report.function = None if unit.is_module else unit.qualname
        if unit.origins:
            report.origins = tuple(unit.origins)
        if self._built:
            # positions, messages and fixes come from libcst's tree, analysed again
            # from the start: the rest of this analysis would be thrown away
            raise NeedsSourceTree
        self._reports.append(report)


class NeedsSourceTree(Exception):
    """A tree built from CPython's tree got a report: positions, messages and
    fixes must come from libcst's tree of the source."""


def _displayed_expressions(module: cst.Module) -> frozenset[int]:
    """The ids of the module-level expression statements that end a notebook cell
    (the virtual module of ``jaxlint.parse.notebook``: a boundary comment opens each
    cell after the first) and have no trailing ``;``."""
    shown: set[int] = set()
    body = module.body
    for i, stmt in enumerate(body):
        if not isinstance(stmt, cst.SimpleStatementLine) or not stmt.body:
            continue
        last = stmt.body[-1]
        if not isinstance(last, cst.Expr) or isinstance(last.semicolon, cst.Semicolon):
            continue
        after = body[i + 1] if i + 1 < len(body) else None
        if after is None or any(
            line.comment is not None and is_cell_boundary(line.comment.value) for line in after.leading_lines
        ):
            shown.add(id(last))
    return frozenset(shown)
