"""Flax NNX objects changed in place by a function (``optimizer.update(model, grads)``).

NNX modules and optimizers are mutable Python objects: ``nnx.jit`` carries the changes
a traced function makes to the ones it is given back out of the trace; plain
``jax.jit`` flattens them to arrays and drops the changes, so the parameters after the
call are the ones before it.  This module finds, in one function, the statements that
change an NNX object one of its parameters holds:

* ``opt.update(model, grads)`` / ``opt.update(grads)`` whose result is not used, where
  ``opt`` is a parameter and the call is NNX's (``opt`` annotated ``nnx.Optimizer``, or
  an argument is an NNX object of the function or the gradients an NNX transformation
  made);
* ``nnx.update(p, state)`` on a parameter;
* ``p.attr.value = v`` / ``p.attr.value += v`` on a parameter known to hold an NNX object.

A parameter holds an NNX object when the function hands it to an NNX function
(``nnx.value_and_grad(loss)(model, x)``, ``nnx.grad``, ``nnx.state``, ``nnx.split``,
``nnx.update``) or it is annotated with an NNX class (``model: nnx.Module``, an
``nnx.Module`` class of the file).  Anything
else is unknown and gives nothing.
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jaxlint.model.units import Unit
from jaxlint.model.walk import descendants, keyword_arg, walk_tree

# NNX functions whose arguments are NNX objects (graph nodes)
_NNX_TAKERS = frozenset({"flax.nnx.state", "flax.nnx.split", "flax.nnx.update", "flax.nnx.graphdef",
                         "flax.nnx.pure", "flax.nnx.merge_state", "flax.nnx.iter_graph"})
_NNX_GRADS = frozenset({"flax.nnx.grad", "flax.nnx.value_and_grad"})


def _annotated_nnx(param: cst.Param, qualname: Callable, nnx_class: Callable[[str], bool]) -> bool:
    ann = param.annotation.annotation if param.annotation is not None else None
    if ann is None:
        return False
    if type(ann) is cst.Name and nnx_class(ann.value):
        return True  # `model: Counter`, an `nnx.Module` class of this file
    q = qualname(ann)
    return bool(q) and q.startswith("flax.nnx.")  # type: ignore[union-attr]


def nnx_params(fn: cst.FunctionDef, qualname: Callable, nnx_class: Callable[[str], bool]
               ) -> tuple[set[str], set[str], bool]:
    """(parameters known to hold NNX objects, names bound to gradients an NNX
    transformation made, whether any NNX transformation is applied in the function)."""
    params = {p.name.value: p for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)}
    held = {n for n, p in params.items() if _annotated_nnx(p, qualname, nnx_class)}
    grads: set[str] = set()
    uses_nnx = False
    for n in descendants(fn):
        if type(n) is cst.Call:
            func = n.func
            q = qualname(func) or ""
            if q in _NNX_TAKERS:
                uses_nnx = True
                held.update(a.value.value for a in n.args if type(a.value) is cst.Name and a.value.value in params)
            elif type(func) is cst.Call and (qualname(func.func) or "") in _NNX_GRADS:
                # `nnx.value_and_grad(loss_fn)(model, x)`: by default the first argument is differentiated
                uses_nnx = True
                first = n.args[0].value if n.args and n.args[0].keyword is None else None
                if type(first) is cst.Name and first.value in params:
                    held.add(first.value)
        elif type(n) is cst.Assign and type(n.value) is cst.Call and type(n.value.func) is cst.Call \
                and (qualname(n.value.func.func) or "") in _NNX_GRADS:
            for t in n.targets:
                target = t.target
                names = [target] if type(target) is cst.Name else [
                    e.value for e in target.elements] if type(target) is cst.Tuple else []
                if names and type(names[-1]) is cst.Name:
                    grads.add(names[-1].value)  # `loss, grads = nnx.value_and_grad(f)(m)`: the last
    return held & set(params), grads, uses_nnx


_HIJAX = frozenset({"flax.nnx.var_defaults", "flax.nnx.use_hijax", "flax.nnx.with_vars"})


def hijax_mode(module: cst.Module, qualname: Callable) -> bool:
    """Does the file put NNX Variables in hijax (mutable array) mode
    (``nnx.var_defaults(hijax=True)``, ``nnx.Variable(x, hijax=True)``,
    ``nnx.with_vars(...)``)?  Then ``jax.jit`` carries their changes out: unknown."""
    for n in walk_tree(module):
        if type(n) is cst.Call and ((qualname(n.func) or "") in _HIJAX or any(
                a.keyword is not None and a.keyword.value in ("hijax", "ref") for a in n.args)):
            return True
    return False


def _returned(fn: cst.FunctionDef) -> set[str]:
    """The names ``fn``'s own returns give back, anywhere in what they return
    (``return loss, model``, ``return loss, (model, optimizer)``, ``return loss,
    nnx.state((model, optimizer))``), and through a name a return gives back that the
    function bound to an expression (``out = (loss, model); return out``): the caller
    gets those objects' new state."""
    def names(e: cst.CSTNode) -> set[str]:
        """The objects ``e`` gives back whole: itself, the elements of a tuple, list or
        dict display, and what ``nnx.state(...)``/``nnx.split(...)`` is given (not
        ``model.w.value @ x``: a value computed from it)."""
        t = type(e)
        if t is cst.Name:
            return {e.value}
        if t in (cst.Tuple, cst.List, cst.Set):
            return set().union(*(names(el.value) for el in e.elements))
        if t is cst.Dict:
            return set().union(*(names(el.value) for el in e.elements if type(el) is cst.DictElement))
        if t is cst.Call and type(e.func) is cst.Attribute and e.func.attr.value in ("state", "split"):
            return set().union(*(names(a.value) for a in e.args))
        return set()

    out: set[str] = set()
    bound: dict[str, set[str]] = {}
    for n in _own_statements(fn):
        if type(n) is cst.Assign and len(n.targets) == 1 and type(n.targets[0].target) is cst.Name:
            bound.setdefault(n.targets[0].target.value, set()).update(names(n.value))
    for n in _own_statements(fn):
        if type(n) is cst.Return and n.value is not None:
            for name in names(n.value):
                out.add(name)
                out.update(bound.get(name, ()))
    return out


def nnx_mutations(unit: Unit, qualname: Callable, nnx_class: Callable[[str], bool]
                  ) -> list[tuple[str, cst.CSTNode]]:
    """The statements of ``unit`` (its own body, not nested functions) that change an
    NNX object one of its parameters holds, as (parameter, statement); not one the
    function returns (``return loss, model, optimizer``: the caller gets the new
    state).  ``nnx_class``: does a name of this file name an ``nnx.Module`` class?"""
    fn = unit.node
    if not isinstance(fn, cst.FunctionDef):
        return []
    held, grads, uses_nnx = nnx_params(fn, qualname, nnx_class)
    every = {p.name for p in unit.params}
    params = every - _returned(fn)
    held &= params
    out: list[tuple[str, cst.CSTNode]] = []
    for n in _own_statements(fn):
        if type(n) is cst.Expr and type(n.value) is cst.Call:
            call = n.value
            func = call.func
            q = qualname(func) or ""
            if q == "flax.nnx.update" and call.args and type(call.args[0].value) is cst.Name \
                    and call.args[0].value.value in params:
                if not all(type(a.value) is cst.Name and a.value.value in every for a in call.args[1:]):
                    out.append((call.args[0].value.value, n))
                continue  # (`nnx.update(model, params)` of a state the caller passes: set anew each call)
            if type(func) is cst.Attribute and func.attr.value == "update" and type(func.value) is cst.Name \
                    and func.value.value in params and not q:
                recv = func.value.value
                args = [a.value for a in call.args]
                nnx_arg = any(type(a) is cst.Name and (a.value in held or a.value in grads) for a in args)
                if nnx_arg or recv in held and uses_nnx:
                    out.append((recv, n))
        elif type(n) in (cst.Assign, cst.AugAssign):
            targets = [t.target for t in n.targets] if type(n) is cst.Assign else [n.target]
            for t in targets:
                base = _value_holder(t)
                if base is not None and base in held:
                    out.append((base, n))
                    break
    return out


def _value_holder(target: cst.BaseExpression) -> Optional[str]:
    """``p.attr.value`` (``p.a.b.value``): the name ``p``."""
    if type(target) is not cst.Attribute or target.attr.value != "value":
        return None
    e: cst.BaseExpression = target.value
    if type(e) is not cst.Attribute:
        return None
    while type(e) is cst.Attribute:
        e = e.value
    return e.value if type(e) is cst.Name else None


def _own_statements(fn: cst.FunctionDef):
    """The small statements of ``fn``'s body, not those of functions or classes nested in it."""
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        n = stack.pop()
        if type(n) in (cst.FunctionDef, cst.ClassDef):
            continue
        if isinstance(n, cst.BaseSmallStatement):
            yield n
            continue
        stack.extend(reversed(n.children))


# ---------------------------------------------------------------------------------
# RNG streams drawn inside a trace.  An NNX object that holds an ``nnx.Rngs`` stream
# (``nnx.Dropout(0.5, rngs=rngs)``, a module whose ``__init__`` builds one, the
# ``nnx.Rngs`` itself) advances the stream's count each time it draws; under plain
# ``jax.jit`` the count advanced in the trace is not written back, so every call starts
# from the same count and draws the same numbers (flax 0.12.8: the same dropout mask).

_DROPOUTS = frozenset({"flax.nnx.Dropout"})
_RNGS = frozenset({"flax.nnx.Rngs"})
# methods that switch an NNX module's dropout off (then it draws nothing)
_DETERMINISTIC_METHODS = frozenset({"eval", "set_attributes", "set_mode"})


def _keyword(call: cst.Call, name: str) -> Optional[cst.BaseExpression]:
    a = keyword_arg(call, name)
    return a.value if a is not None else None


def _drawing_dropout(call: cst.BaseExpression, qualname: Callable) -> bool:
    """``nnx.Dropout(0.5, rngs=rngs)``: a dropout that keeps an RNG stream and draws its
    mask from it when called (not ``deterministic=True``, nor a rate of literal 0)."""
    if type(call) is not cst.Call or (qualname(call.func) or "") not in _DROPOUTS or _keyword(call, "rngs") is None:
        return False
    det = _keyword(call, "deterministic")
    if det is not None and not (type(det) is cst.Name and det.value == "False"):
        return False
    return True


def _init_dropouts(cls_node: cst.ClassDef, qualname: Callable) -> list[str]:
    """The attributes ``__init__`` of an NNX module class binds to a drawing dropout
    (``self.dropout = nnx.Dropout(0.3, rngs=rngs)``)."""
    out = []
    for stmt in cls_node.body.body:
        if type(stmt) is not cst.FunctionDef or stmt.name.value != "__init__":
            continue
        for n in walk_tree(stmt):
            if type(n) is cst.Assign and len(n.targets) == 1 and _drawing_dropout(n.value, qualname):
                t = n.targets[0].target
                if type(t) is cst.Attribute and type(t.value) is cst.Name and t.value.value == "self":
                    out.append(t.attr.value)
    return out


def rng_holder(call: cst.BaseExpression, qualname: Callable,
               nnx_class: Callable[[str], Optional[cst.ClassDef]]) -> Optional[tuple[str, bool]]:
    """What ``call`` builds, if it is an NNX object that draws from a stream it holds:
    (a description, whether it is an ``nnx.Rngs`` itself: drawn by ``rngs.stream()``,
    not by calling it).  ``nnx_class``: the ``nnx.Module`` class of this file a name
    names (None for anything else)."""
    if type(call) is not cst.Call:
        return None
    q = qualname(call.func) or ""
    if q in _RNGS:
        return "an `nnx.Rngs`", True
    if _drawing_dropout(call, qualname):
        return "an `nnx.Dropout` given `rngs=`", False
    if type(call.func) is cst.Name:
        cls = nnx_class(call.func.value)
        if cls is not None and _keyword(call, "deterministic") is None:
            attrs = _init_dropouts(cls, qualname)
            if attrs:
                return (f"an instance of `{call.func.value}`, whose `{attrs[0]}` is an `nnx.Dropout` "
                        f"given `rngs=`"), False
    return None


def switched_off(module: cst.Module, name: str) -> bool:
    """Does the file call ``name.eval()`` / ``name.set_attributes(...)`` (dropout
    switched off: nothing is drawn), or hand ``name`` to ``nnx.set_mode``..., anywhere?"""
    for n in walk_tree(module):
        if type(n) is cst.Call and type(n.func) is cst.Attribute:
            f = n.func
            if f.attr.value in _DETERMINISTIC_METHODS and (
                    (type(f.value) is cst.Name and f.value.value == name)
                    or any(type(a.value) is cst.Name and a.value.value == name for a in n.args)):
                return True
    return False


def rng_draw(fn: cst.FunctionDef, param: str, rngs: bool) -> Optional[cst.CSTNode]:
    """The first statement of ``fn``'s own body that draws from the stream the NNX
    object ``param`` holds: ``param(x)`` (a dropout or a module holding one, not given
    ``deterministic=``/``rngs=``), ``param.stream()`` / ``param()`` for an ``nnx.Rngs``;
    None when ``fn`` returns ``param`` (the caller gets the advanced stream back)."""
    if param in _returned(fn):
        return None
    for stmt in _own_statements(fn):
        for n in walk_tree(stmt):
            if type(n) is not cst.Call:
                continue
            f = n.func
            if type(f) is cst.Name and f.value == param:
                if rngs or (_keyword(n, "deterministic") is None and _keyword(n, "rngs") is None):
                    return stmt
            elif rngs and type(f) is cst.Attribute and type(f.value) is cst.Name and f.value.value == param \
                    and not n.args:
                return stmt
    return None
