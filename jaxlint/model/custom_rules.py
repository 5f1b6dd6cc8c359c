"""The rules of a ``jax.custom_vjp``/``jax.custom_jvp`` function: ``f.defvjp(fwd, bwd)``,
``f.defjvp(jvp)``.  Under a trace JAX runs them in place of ``f``: ``fwd`` with ``f``'s
arguments, ``bwd`` with the residuals and the cotangents, ``jvp`` with the primals and
the tangents (after the ``nondiff_argnums``/``nondiff_argnames`` arguments, which stay
Python values); the residuals ``bwd`` receives may hold Python values (``x.shape``): only
its cotangent is taken as traced.

``find`` reads the rules of the file's functions (model/index.py); ``enter`` marks a rule
traced when the analysis reaches it and its function is traced (the function is
analysed first: model/index.py adds the call edge)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import libcst as cst

from jaxlint.model import apis
from jaxlint.model.units import Unit
from jaxlint.model.walk import keyword_arg, literal_ints, literal_strs, positional_args

_DEFINERS = {"defvjp": ("forward", "backward"), "defjvp": ("JVP",)}
_CUSTOM = frozenset({"jax.custom_vjp", "jax.custom_jvp"})


@dataclass(frozen=True)
class Rule:
    primal: Unit
    role: str  # "forward", "backward", "JVP"
    n_nondiff: int  # leading parameters that nondiff_argnums keeps Python values


def _nondiff(primal: Unit, qualname: Callable) -> Optional[int]:
    """How many leading arguments ``nondiff_argnums`` names on the primal's decorator
    (``@partial(jax.custom_vjp, nondiff_argnums=(0,))``); None: not a custom_vjp/jvp def
    or not literal."""
    found = _custom_decorator(primal, qualname)
    if found is None:
        return None
    call = found[0]
    a = keyword_arg(call, "nondiff_argnums") if call is not None else None
    b = keyword_arg(call, "nondiff_argnames") if call is not None else None
    if b is not None:
        names = literal_strs(b.value)
        return len(names) if names is not None and a is None else None
    if a is None:
        return 0
    nums = literal_ints(a.value)
    return len(nums) if nums is not None and sorted(nums) == list(range(len(nums))) else None


def _custom_decorator(unit: Unit, qualname: Callable) -> Optional[tuple]:
    """The first decorator of ``unit``'s def that is ``jax.custom_jvp``/``jax.custom_vjp``
    (also through ``partial``): (its call or None, the qualname); None if there is none."""
    node = unit.node
    if not isinstance(node, cst.FunctionDef):
        return None
    for d in node.decorators:
        dec = d.decorator
        call = dec if isinstance(dec, cst.Call) else None
        q = qualname(call.func if call is not None else dec)
        if call is not None and q in apis.PARTIALS:
            pos = positional_args(call)
            q = qualname(pos[0].value) if pos else None
        if q is not None and apis.canonical(q) in _CUSTOM:
            return call, q
    return None


def is_custom_def(unit: Unit, qualname: Callable) -> bool:
    """Is ``unit`` a def decorated with ``jax.custom_jvp``/``jax.custom_vjp`` (also through
    ``partial``)?  Differentiated outside jit, its body runs on the primal values, which
    are concrete (JAX hands the tracers to its rules): checked on jax 0.10.2, ``np.exp``
    in the body of either under ``jax.grad`` runs."""
    return _custom_decorator(unit, qualname) is not None


def find(calls: list, units: list, resolve: Callable, qualname: Callable) -> dict[int, Rule]:
    """``f.defvjp(fwd, bwd)`` / ``f.defjvp(jvp)`` among the file's calls (unit, call),
    and ``@f.defjvp`` on a def of ``units``, with ``f`` a custom_vjp/custom_jvp def of
    this file: id(rule unit) -> Rule."""
    out: dict[int, Rule] = {}
    for unit in units:
        node = unit.node
        if not isinstance(node, cst.FunctionDef) or not node.decorators or unit.parent is None:
            continue
        for d in node.decorators:
            dec = d.decorator
            if isinstance(dec, cst.Attribute) and dec.attr.value == "defjvp" and isinstance(dec.value, cst.Name):
                primal = resolve(dec.value, unit.parent)
                n_nondiff = _nondiff(primal, qualname) if primal is not None else None
                if n_nondiff is not None and primal is not unit:
                    out[id(unit)] = Rule(primal, "JVP", n_nondiff)
    for unit, call in calls:
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in _DEFINERS and isinstance(func.value, cst.Name)):
            continue
        primal = resolve(func.value, unit)
        if primal is None:
            continue
        n_nondiff = _nondiff(primal, qualname)
        if n_nondiff is None:
            continue
        pos = positional_args(call)
        for role, arg in zip(_DEFINERS[func.attr.value], pos):
            rule = resolve(arg.value, unit)
            if rule is not None and rule is not primal and id(rule) not in out:
                out[id(rule)] = Rule(primal, role, n_nondiff)
    return out


def enter(unit: Unit, rules: dict[int, Rule]) -> None:
    """Before ``unit`` is analysed: when it is a rule of a traced function, it is
    traced too (the forward rule's parameters as the function's; every other
    parameter of a backward or JVP rule past the nondiff ones)."""
    rule = rules.get(id(unit))
    if rule is None or not rule.primal.traced or rule.primal.host or unit.host:
        return
    primal = rule.primal
    params = unit.positional()
    if rule.role == "forward":
        own = primal.positional()
        traced = [params[i].name for i, p in enumerate(own) if i < len(params) and p.name in primal.traced_params]
    elif rule.role == "backward":
        # (nondiff..., residuals, cotangent): the residuals are what the forward rule
        # returned, Python values (`x.shape`) among them; the cotangent is traced
        traced = [p.name for p in params[rule.n_nondiff + 1:]]
    else:
        traced = [p.name for p in params[rule.n_nondiff:]]
    if not traced:
        return
    reason = f"the custom {rule.role} rule of traced `{primal.name}`"
    if unit.reasons and all(r.startswith("defined inside traced") for r in unit.reasons) and reason not in unit.reasons:
        unit.reasons.insert(0, reason)  # what runs it comes first in messages
    unit.mark_traced(reason)
    for name in traced:
        if name not in unit.static_params:
            unit.traced_params.add(name)
