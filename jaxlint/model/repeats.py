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

_COMPS = frozenset({cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp})
_DEFS = frozenset({cst.FunctionDef, cst.ClassDef, cst.Lambda})

# the last module asked about and the names it calls in loops
_memo: list[tuple[Optional[cst.Module], frozenset[str], frozenset[str]]] = [(None, frozenset(), frozenset())]


def _names_called_in_loops(module: cst.Module, written: Optional[set] = None) -> frozenset[str]:
    """The names (``f``, a method's ``m`` of ``x.m``) the module calls in loops;
    ``written`` gets the callees as written (``f``, ``mod.f``) too."""
    out: set[str] = set()
    # (node, inside a loop's repeated part); node classes compared with `type() is`
    # (libcst's classes are ABCs: isinstance() is slow, and none has a subclass)
    stack: list[tuple[cst.CSTNode, bool]] = [(module, False)]
    pop, push = stack.pop, stack.append
    call, name_t, attr_t, for_t, while_t = cst.Call, cst.Name, cst.Attribute, cst.For, cst.While
    while stack:
        node, looped = pop()
        t = type(node)
        if t is for_t:
            push((node.target, looped))
            push((node.iter, looped))  # the iterable is evaluated once
            push((node.body, True))
            if node.orelse is not None:
                push((node.orelse, looped))
            continue
        if t is while_t:
            push((node.test, True))
            push((node.body, True))
            if node.orelse is not None:
                push((node.orelse, looped))
            continue
        if looped:
            if t is call:
                f = node.func
                ft = type(f)
                if ft is name_t:
                    out.add(f.value)
                    if written is not None:
                        written.add(f.value)
                elif ft is attr_t:
                    out.add(f.attr.value)
                    if written is not None:
                        d = dotted_name(f)
                        if d is not None:
                            written.add(d)
            elif t in _DEFS:
                looped = False  # defining a function in a loop does not call it there
        elif t in _COMPS:
            looped = True
        kids = children(node)
        if kids:
            for c in kids:
                push((c, looped))
    return frozenset(out)


def _walked(module: cst.Module) -> tuple[frozenset[str], frozenset[str]]:
    """(names called in loops, callees as written), one walk per module (the last one asked)."""
    mod, names, written = _memo[0]
    if mod is not module:
        seen: set[str] = set()
        names = _names_called_in_loops(module, seen)
        written = frozenset(seen)
        _memo[0] = (module, names, written)
    return names, written


def called_repeatedly(module: cst.Module, name: str) -> bool:
    """Does ``module`` call a function or method named ``name`` inside a loop body
    or a comprehension?"""
    return name in _walked(module)[0]


def calls_in_loops(module: cst.Module) -> frozenset[str]:
    """The callees as written (``f``, ``mod.f``) that ``module`` calls inside a loop
    body or a comprehension (for the project: a function of another module run again
    and again from here)."""
    return _walked(module)[1]
