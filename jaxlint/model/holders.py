"""Objects that hold a function of the file and call it from a method of theirs.

``f = hk.transform(forward)`` makes ``f.apply(params, rng, x)`` run ``forward(x)``;
``tx = optax.GradientTransformation(init_fn, update_fn)`` makes ``tx.update(g, s, p)``
run ``update_fn(g, s, p)``.  So ``jax.jit(f.apply)``, or ``f.apply(...)`` called from
traced code, traces ``forward``, with the arguments after the ones ``apply`` keeps
for itself (``params``, ``rng``; ``state`` for ``transform_with_state``).

A flax linen module class of the file is one too (model/index.py): ``Model(...).apply(
variables, x)`` runs ``Model.__call__(x)``, its ``self`` bound (``HeldFunction.method``).

``read`` finds these holders where the file binds them (an assignment whose value is
such a constructor, or a ``def`` decorated with ``@hk.transform``); ``HeldFunction``
says which function an attribute runs and how many leading arguments the method
consumes before the function's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import libcst as cst

from jaxlint.model.units import Unit
from jaxlint.model.walk import keyword_arg, positional_args

# haiku: `apply(params, rng, *args)`; with state `apply(params, state, rng, *args)`;
# `init(rng, *args)`.  without_apply_rng drops the apply's rng.
_HAIKU = {
    "haiku.transform": {"apply": 2, "init": 1},
    "haiku.transform_with_state": {"apply": 3, "init": 1},
    "haiku.multi_transform": {},  # returns (init, apply) of several functions: not followed
}
_WITHOUT_RNG = "haiku.without_apply_rng"
# optax: the methods are the functions themselves (positional order: init, update)
_OPTAX = {
    "optax.GradientTransformation": ("init", "update"),
    "optax.GradientTransformationExtraArgs": ("init", "update"),
    "optax._src.base.GradientTransformation": ("init", "update"),
    "optax._src.base.GradientTransformationExtraArgs": ("init", "update"),
}


@dataclass(frozen=True)
class HeldFunction:
    unit: Unit  # the function the method runs
    skip: int  # leading arguments of the method that the function does not receive
    holder: str  # how the holder was made, for messages: "hk.transform"
    # the function is a method of the holder (a flax linen module's ``__call__``): its
    # ``self`` is bound, and a call naming ``method=`` runs another method instead
    method: bool = False


Resolve = Callable[[cst.BaseExpression], Optional[Unit]]


def methods_of(value: cst.BaseExpression, qualname: Callable[[cst.CSTNode], Optional[str]],
               resolve: Resolve) -> dict[str, HeldFunction]:
    """attribute -> held function, for a holder built by ``value`` (a call), else {}."""
    if not isinstance(value, cst.Call):
        return {}
    q = qualname(value.func)
    if q == _WITHOUT_RNG:
        pos = positional_args(value)
        inner = methods_of(pos[0].value, qualname, resolve) if pos else {}
        return {m: HeldFunction(h.unit, h.skip - 1 if m == "apply" else h.skip, h.holder)
                for m, h in inner.items()}
    if q in _HAIKU:
        fn = _first_function(value, ("f", "fn"))
        unit = resolve(fn) if fn is not None else None
        if unit is None:
            return {}
        label = "hk." + q.rsplit(".", 1)[1]
        return {m: HeldFunction(unit, skip, label) for m, skip in _HAIKU[q].items()}
    if q in _OPTAX:
        out = {}
        pos = positional_args(value)
        for i, name in enumerate(_OPTAX[q]):
            a = keyword_arg(value, name)
            expr = a.value if a is not None else (pos[i].value if i < len(pos) else None)
            unit = resolve(expr) if expr is not None else None
            if unit is not None:
                out[name] = HeldFunction(unit, 0, "optax.GradientTransformation")
        return out
    return {}


def decorated_methods(unit: Unit, qualname: Callable[[cst.CSTNode], Optional[str]]) -> dict[str, HeldFunction]:
    """``@hk.transform`` (``@hk.without_apply_rng`` over it) on a def: the name holds it."""
    node = unit.node
    if not isinstance(node, cst.FunctionDef) or not node.decorators:
        return {}
    skips: Optional[dict[str, int]] = None
    label = ""
    for dec in reversed(node.decorators):  # the innermost decorator applies first
        q = qualname(dec.decorator)
        if q in _HAIKU and skips is None:
            skips = dict(_HAIKU[q])
            label = "hk." + q.rsplit(".", 1)[1]
        elif q == _WITHOUT_RNG and skips is not None and "apply" in skips:
            skips["apply"] -= 1
        else:
            return {}  # another decorator: what the name holds is unknown
    return {m: HeldFunction(unit, s, label) for m, s in (skips or {}).items()}


def _first_function(call: cst.Call, keywords: tuple[str, ...]) -> Optional[cst.BaseExpression]:
    for kw in keywords:
        a = keyword_arg(call, kw)
        if a is not None:
            return a.value
    pos = positional_args(call)
    return pos[0].value if pos else None


def imported_function(value: cst.BaseExpression, attr: str,
                      qualname: Callable[[cst.CSTNode], Optional[str]]) -> Optional[cst.BaseExpression]:
    """The function expression (as written: ``nets.forward``, ``forward``) that the
    method ``attr`` of a holder built by ``value`` runs, when that holder is a haiku
    transform (``apply``) or an optax ``GradientTransformation`` (``init``/``update``);
    None otherwise.  The caller decides whether it names another module's function."""
    if not isinstance(value, cst.Call):
        return None
    q = qualname(value.func)
    if q == _WITHOUT_RNG:
        pos = positional_args(value)
        return imported_function(pos[0].value, attr, qualname) if pos else None
    if q in _HAIKU and attr in _HAIKU[q]:
        return _first_function(value, ("f", "fn"))
    if q in _OPTAX and attr in _OPTAX[q]:
        i = _OPTAX[q].index(attr)
        a = keyword_arg(value, attr)
        pos = positional_args(value)
        return a.value if a is not None else (pos[i].value if i < len(pos) else None)
    return None
