"""Which functions of a file the file itself calls again and again.

A function is *called repeatedly* when a call of it by name (``f(...)``, or
``<x>.f(...)`` for a method) is written in the body of a ``for``/``while`` loop
or in a comprehension of the same file.  That is the evidence the per-call
rules need before they call a function "hot": a function with no such call may
run once per program (a utility, a diagnostic) and stays silent.

One cheap walk of the module, made on the first question and kept with the
module tree.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.model.walk import children, dotted_name

_LOOPS = (cst.For, cst.While, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)

# the last module asked about and the names it calls in loops
_memo: list[tuple[Optional[cst.Module], frozenset[str]]] = [(None, frozenset())]


def _names_called_in_loops(module: cst.Module, written: Optional[set] = None) -> frozenset[str]:
    """The names (``f``, a method's ``m`` of ``x.m``) the module calls in loops;
    ``written`` gets the callees as written (``f``, ``mod.f``) too."""
    out: set[str] = set()
    # (node, inside a loop's repeated part)
    stack: list[tuple[cst.CSTNode, bool]] = [(module, False)]
    while stack:
        node, looped = stack.pop()
        if looped and isinstance(node, cst.Call):
            f = node.func
            if isinstance(f, cst.Name):
                out.add(f.value)
                if written is not None:
                    written.add(f.value)
            elif isinstance(f, cst.Attribute):
                out.add(f.attr.value)
                if written is not None:
                    d = dotted_name(f)
                    if d is not None:
                        written.add(d)
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            looped = False  # defining a function in a loop does not call it there
        if isinstance(node, cst.For):
            stack.append((node.target, looped))
            stack.append((node.iter, looped))  # the iterable is evaluated once
            stack.append((node.body, True))
            if node.orelse is not None:
                stack.append((node.orelse, looped))
            continue
        if isinstance(node, cst.While):
            stack.append((node.test, True))
            stack.append((node.body, True))
            if node.orelse is not None:
                stack.append((node.orelse, looped))
            continue
        inner = looped or isinstance(node, _LOOPS)
        for c in children(node):
            stack.append((c, inner))
    return frozenset(out)


def called_repeatedly(module: cst.Module, name: str) -> bool:
    """Does ``module`` call a function or method named ``name`` inside a loop body
    or a comprehension?"""
    mod, names = _memo[0]
    if mod is not module:
        names = _names_called_in_loops(module)
        _memo[0] = (module, names)
    return name in names


def calls_in_loops(module: cst.Module) -> frozenset[str]:
    """The callees as written (``f``, ``mod.f``) that ``module`` calls inside a loop
    body or a comprehension (for the project: a function of another module run again
    and again from here)."""
    written: set[str] = set()
    _names_called_in_loops(module, written)
    return frozenset(written)
