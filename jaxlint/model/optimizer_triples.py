"""The update of an optimizer triple of ``jax.example_libraries.optimizers``.

``@optimizer def adagrad(step_size): ... return init, update, get_params`` makes an
``(init, update, get_params)`` triple; ``update(i, g, state)`` is handed the gradients
``jax.grad`` computed and returns the next state: it post-processes gradients and is not
differentiated itself (the same role as an optax ``update_fn``).  The maker is known by
its decorator: ``jax.example_libraries.optimizers.optimizer`` (through any import or
alias), or a decorator of this file of that shape, one that unpacks what the function it
wraps returns into three names (``init, update, get_params = opt_maker(*args, **kwargs)``),
as a vendored copy of ``optimizers.py`` does.  By shape, never by the name of a project.
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jaxlint.model.walk import walk_tree

OPTIMIZER_DECORATOR = "jax.example_libraries.optimizers.optimizer"


def optimizer_update(unit, units, qualname: Callable[[cst.CSTNode], Optional[str]]) -> bool:
    """Is ``unit`` (or a function it is nested in) the ``update`` of a triple that a
    function decorated as an optimizer maker returns?  ``units``: the file's units (for a
    decorator defined in the file)."""
    inner = unit
    while inner is not None and inner.parent is not None and not inner.parent.is_module:
        outer = inner.parent
        if isinstance(inner.node, cst.FunctionDef) and isinstance(outer.node, cst.FunctionDef) \
                and _second_of_triples(outer, inner.name) and _maker(outer.node, units, qualname):
            return True
        inner = outer
    return False


def _second_of_triples(maker, name: str) -> bool:
    """Does every ``return`` of ``maker`` give a triple whose second item is ``name``?"""
    if not maker.returns:
        return False
    for r in maker.returns:
        if not isinstance(r, cst.Tuple) or len(r.elements) != 3:
            return False
        second = r.elements[1].value
        if not (isinstance(second, cst.Name) and second.value == name):
            return False
    return True


def _maker(fn: cst.FunctionDef, units, qualname) -> bool:
    for d in fn.decorators:
        dec = d.decorator
        if qualname(dec) == OPTIMIZER_DECORATOR:
            return True
        if isinstance(dec, cst.Name) and qualname(dec) is None:
            defs = [u for u in units if u.name == dec.value and u.parent is not None and u.parent.is_module
                    and isinstance(u.node, cst.FunctionDef)]
            if len(defs) == 1 and _unpacks_triple(defs[0].node):
                return True
    return False


def _unpacks_triple(dec: cst.FunctionDef) -> bool:
    """Does the decorator ``dec`` unpack what the function it takes (its first
    parameter) returns into three names: ``init, update, get_params = opt_maker(...)``?"""
    params = dec.params.params
    if not params:
        return False
    wrapped = params[0].name.value
    for n in walk_tree(dec):
        if isinstance(n, cst.Assign) and len(n.targets) == 1 and isinstance(n.value, cst.Call) \
                and isinstance(n.value.func, cst.Name) and n.value.func.value == wrapped:
            t = n.targets[0].target
            if isinstance(t, (cst.Tuple, cst.List)) and len(t.elements) == 3 \
                    and all(isinstance(e.value, cst.Name) for e in t.elements):
                return True
    return False
