"""What a test proves: the names a condition shows to be Python values, and the
branches no trace can take (``isinstance(<tracer>, np.ndarray)``, ``p is None``
on a parameter every traced caller passes, a default no traced caller overrides)."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.model import apis
from jaxlint.model import values as V
from jaxlint.model.scopes import writes
from jaxlint.model.walk import descendants, positional_args, string_value

# the reasons a unit is traced for which the model records what each trace passes
# (calls from traced code; transformation sites, model/index.mark_site)
_RECORDED = ("called from", "wrapped by", "decorated with", "a body passed to")


class Narrowing:
    """Conditions under trace, for ``Interpreter`` (a mixin)."""

    _ARRAY_TYPES = frozenset(
        {"jax.Array", "jax.numpy.ndarray", "jax.core.Tracer", "jax._src.core.Tracer", "numpy.ndarray"}
    )

    # libraries whose `...Array`/`...Tracer` classes are JAX or NumPy arrays (`jax.Array`,
    # `jax.core.Tracer`, `chex.Array`); a class of the project named `IrrepsArray` is not
    _ARRAY_LIBRARIES = frozenset({"jax", "jaxlib", "numpy", "chex", "jaxtyping"})

    def _array_type(self, t: cst.BaseExpression) -> bool:
        """Is ``t`` (a type ``isinstance`` is given) a JAX/NumPy array or tracer type?"""
        q = self.qualname(t)
        n = q or (t.value if isinstance(t, cst.Name) else "")
        if n in self._ARRAY_TYPES:
            return True
        if not n.endswith(("Tracer", "Array", "ndarray")):
            return False
        if q is None:  # a name of this file: a class it defines is no array type
            return not any(c.name == n for c in self.index.classes)
        return q.split(".", 1)[0] in self._ARRAY_LIBRARIES

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
                is_array_check = any(self._array_type(t) for t in elts)
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

    def concrete_names(self, test: cst.BaseExpression, when_false: bool = False) -> list[str]:
        """The names ``test`` being true (``when_false``: false) proves to be Python values."""
        return self._concrete_names_if_false(test) if when_false else self._concrete_names(test)

    def _host_names(self, test: cst.BaseExpression) -> list[str]:
        """Names that ``test`` proves to be host NumPy arrays when true:
        ``isinstance(v, np.ndarray)`` (NumPy types only), and conjunctions of those."""
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            return self._host_names(test.left) + self._host_names(test.right)
        if not (isinstance(test, cst.Call) and self.builtin_name(test.func) == "isinstance"):
            return []
        pos = positional_args(test)
        if len(pos) != 2 or len(test.args) != 2 or not isinstance(pos[0].value, cst.Name):
            return []
        types = pos[1].value
        elts = [el.value for el in types.elements] if isinstance(types, cst.Tuple) else [types]
        if all(self.qualname(t) in self._HOST_TYPES for t in elts):
            v = self.lookup(pos[0].value.value)
            if v is not None and (v.kind == V.ARRAY and not v.traced or v.jax_on_some_path):
                # a JAX array on no path here (`isinstance(w, np.ndarray)`), or only on
                # some of the paths that met above: in this branch, the host array
                return [pos[0].value.value]
        return []

    def _host_names_if_false(self, test: cst.BaseExpression) -> list[str]:
        """Names that ``test`` being false proves to be host NumPy arrays:
        ``not isinstance(v, np.ndarray)``, and disjunctions of those."""
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
            return self._host_names_if_false(test.left) + self._host_names_if_false(test.right)
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self._host_names(test.expression)
        return []

    def _concrete_names_if_false(self, test: cst.BaseExpression) -> list[str]:
        """Names that ``test`` being false proves concrete: ``isinstance(v, Tracer)``,
        ``isinstance(v, jax.Array)``, ``not jax.core.is_concrete(v)``, and disjunctions."""
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
            return self._concrete_names_if_false(test.left) + self._concrete_names_if_false(test.right)
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self._concrete_names(test.expression)
        return self._concrete_names(test, negated=True)

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
          caller passes (the default applies).

        Only the first holds in a function differentiated outside jit (its tracers
        hold values, but are tracers all the same: model/gradtrace.py)."""
        if not self.in_tracing:
            return None
        by_type = self._isinstance_under_trace(test)
        if by_type is not None:
            return by_type
        if not self.in_traced:
            return None
        t = type(test)
        if t is cst.UnaryOperation and isinstance(test.operator, cst.Not):
            inner = self._truth_under_trace(test.expression)
            return None if inner is None else not inner
        unit = self.unit
        free = self._closure_not_none(test)  # which branch is dead
        if free is not None:
            return not free
        if not unit.traced_calls or not all(r.startswith(_RECORDED) for r in unit.reasons):
            return None
        if t is cst.BooleanOperation:  # `if check and ...:` with `check` False in every trace
            left = self._truth_under_trace(test.left)
            if left is not None and left == isinstance(test.operator, cst.Or):
                return left
            right = self._truth_under_trace(test.right) if left is not None else None
            return right
        if t is cst.Name:
            p = unit.param(test.value)
            if p is None or p.name in unit.assigned:
                return None
            c = self.param_const(p.name)
            if c is not None:
                return bool(c[0])
            if p.name in unit.passed_params:
                return None
            if isinstance(p.default, cst.Name) and p.default.value in ("True", "False", "None"):
                return p.default.value == "True"
            return None
        if not (t is cst.Comparison and len(test.comparisons) == 1):
            return None
        comp = test.comparisons[0]
        if not (isinstance(test.left, cst.Name) and is_none(comp.comparator)):
            return None
        name = self._alias_of(test.left.value) or test.left.value
        if unit.param(name) is None or (name in unit.assigned and self._assigned_before(name, test)):
            return None
        c = self.param_const(name)
        if c is None and name in unit.maybe_none:
            return None
        if c is not None and c[0] is None:  # every traced call passes None (or leaves a None default)
            return {cst.Is: True, cst.IsNot: False}.get(type(comp.operator))
        if isinstance(comp.operator, cst.Is):
            return False
        if isinstance(comp.operator, cst.IsNot):
            return True
        return None

    def truth_in_trace(self, test: cst.BaseExpression) -> Optional[bool]:
        """``_truth_under_trace``, and also a parameter of a jitted function left at its
        literal default by the calls the model sees (``jax.jit(train)(config, key)``
        leaves ``train_state=None``: a call passing it would make it traced).  Not for
        dead branches (a call the model cannot see may pass it): for what a condition
        hands on (``train_state or rng`` converts ``rng`` when ``train_state`` is None)."""
        truth = self._truth_under_trace(test)
        if truth is not None or type(test) is not cst.Name or not self.in_traced:
            return truth
        unit = self.unit
        p = unit.param(test.value)
        if unit.jit_root and p is not None and p.name in unit.defaulted_params \
                and p.name not in unit.traced_params and p.name not in unit.static_params \
                and p.name not in unit.assigned and isinstance(p.default, cst.Name) \
                and p.default.value in ("True", "False", "None"):
            return p.default.value == "True"
        return None

    def untraced_in_branches(self, test: cst.BaseExpression) -> Optional[tuple[frozenset, frozenset]]:
        """``if use_jax:`` on a parameter the traced calls give different constants
        (``coeffs(k, v)`` with the default True from traced code, ``coeffs(k, v,
        use_jax=False)`` given NumPy arrays): the parameters no call taking the body,
        and none taking the else branch, gives a tracer (None when unknown: a call
        not recorded, a parameter the body rebinds)."""
        if not self.in_traced:
            return None
        negated = False
        if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
            negated, test = True, test.expression
        if type(test) is not cst.Name:
            return None
        unit = self.unit
        p = unit.param(test.value)
        if p is None or p.name in unit.assigned or not unit.traced_params:
            return None
        if not unit.reasons or not all(r.startswith(_RECORDED) for r in unit.reasons):
            return None
        traces = unit.call_traces
        if not traces or len(traces) != unit.traced_calls or unit.const_calls != unit.traced_calls:
            return None
        everything = frozenset(q.name for q in unit.params)
        taken: tuple[set, set] = (set(), set())
        for consts, traced in traces:
            given = everything if traced is None else traced
            c = consts.get(p.name)
            if not isinstance(c, tuple):
                taken[0].update(given)
                taken[1].update(given)
            else:
                taken[0 if bool(c[0]) != negated else 1].update(given)
        candidates = frozenset(q for q in unit.traced_params if q not in unit.assigned and q != p.name)
        return candidates - taken[0], candidates - taken[1]

    def param_const(self, name: str) -> Optional[tuple]:
        """``(value,)``: the one Python constant every call tracing this unit gives its
        parameter ``name`` (``check=False`` at each call, a literal default none
        overrides, a constant handed down from a traced caller), while the body never
        rebinds it; None when unknown or mixed."""
        unit = self.unit
        if not self.in_traced or unit.param(name) is None or name in unit.assigned:
            return None
        if not unit.reasons or not all(r.startswith(_RECORDED) for r in unit.reasons):
            return None
        return unit.passed_const(name)

    def _assigned_before(self, name: str, test: cst.CSTNode) -> bool:
        """May ``name`` hold something else than the parameter where ``test`` is
        evaluated: assigned before it in the body, or the test runs in a loop
        (``if S is None: S = ...`` assigns only after the test: the parameter stands)."""
        if self.loop_stack:
            return True
        body = getattr(self.unit.node, "body", None)
        if body is None:
            return True
        targets = {id(w) for w in writes(self.unit.node, name)}
        for n in descendants(body):
            if n is test:
                return False
            if id(n) in targets:
                return True
        return True

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
        if not (isinstance(test.left, cst.Name) and is_none(comp.comparator)):
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
        if not self.in_tracing:
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


def none_guard(s: cst.If) -> Optional[str]:
    """``if p is None: ... return/raise`` (no else): after it, ``p`` is not None."""
    t = s.test
    if s.orelse is not None or not (isinstance(t, cst.Comparison) and len(t.comparisons) == 1):
        return None
    c = t.comparisons[0]
    if not (isinstance(t.left, cst.Name) and isinstance(c.operator, cst.Is) and is_none(c.comparator)):
        return None
    if isinstance(last_small(s), (cst.Return, cst.Raise)):
        return t.left.value
    return None

def last_small(s: cst.If) -> Optional[cst.CSTNode]:
    """The last small statement of an ``if``'s body: of its indented block, or of
    a one-line body (``if p is None: return``)."""
    body = s.body.body
    last = body[-1] if body else None
    if isinstance(last, cst.SimpleStatementLine):
        return last.body[-1] if last.body else None
    return last

def is_none(e: cst.CSTNode) -> bool:
    return isinstance(e, cst.Name) and e.value == "None"
