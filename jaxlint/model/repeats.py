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

# the last module asked about and what its walk found (model/repeats.Walk)
_memo: list = [None]


class Walk:
    """What one walk of a module finds about its calls.

    ``looped``: the names (``f``, a method's ``m`` of ``x.m``) called in a loop body or
    a comprehension; ``written``: those callees as written (``f``, ``mod.f``,
    ``x.m``); ``in_sequence``: the callees as written that two or more statements of
    one block call one after the other (``r1 = f(a)`` then ``r2 = f(b)``: both run);
    ``names``: per function (the id of its def or lambda node, 0 for the module's own
    code) the names its own body reads, called or not, and the methods it calls
    (``m`` of ``x.m(...)``), the callees written as ``mod.f``/``x.m`` too;
    ``ctors``: names the module binds, in any scope, to a call of one callee
    (``trainer = Trainer(...)``) -> that callee as written (several: ambiguous, left out)."""

    __slots__ = ("looped", "written", "in_sequence", "names", "ctors")

    def __init__(self) -> None:
        self.looped: frozenset[str] = frozenset()
        self.written: frozenset[str] = frozenset()
        self.in_sequence: frozenset[str] = frozenset()
        self.names: dict[int, set[str]] = {}
        self.ctors: dict[str, str] = {}


def _statement_callee(stmt: cst.CSTNode) -> Optional[str]:
    """The callee as written of a simple statement that is one call, or assigns one
    (``f(x)``, ``y = f(x)``, ``a, b = mod.f(x)``, ``return f(x)`` not: it ends the block)."""
    if type(stmt) is not cst.SimpleStatementLine or len(stmt.body) != 1:
        return None
    s = stmt.body[0]
    t = type(s)
    if t is cst.Expr or t is cst.Assign or t is cst.AnnAssign:
        v = s.value
        if type(v) is cst.Call:
            return dotted_name(v.func)
    return None


def _arg_names(stmt: cst.CSTNode) -> set[str]:
    """The names a statement's one call is given as arguments (``f(problem, x=model)``)."""
    call = stmt.body[0].value  # type: ignore[attr-defined]
    return {a.value.value for a in call.args if type(a.value) is cst.Name}


def _bound_in(stmts) -> set[str]:
    """The names the statements bind (assignment targets, loop and ``with`` targets)."""
    out: set[str] = set()
    for st in stmts:
        stack = [st]
        while stack:
            n = stack.pop()
            t = type(n)
            if t is cst.AssignTarget or t is cst.For or t is cst.WithItem or t is cst.AugAssign or t is cst.AnnAssign:
                tgt = n.asname.name if t is cst.WithItem and n.asname is not None else getattr(n, "target", None)
                if tgt is not None:
                    q = [tgt]
                    while q:
                        m = q.pop()
                        if type(m) is cst.Name:
                            out.add(m.value)
                        elif type(m) in (cst.Tuple, cst.List):
                            q.extend(e.value for e in m.elements)
                        elif type(m) is cst.StarredElement:
                            q.append(m.value)
            stack.extend(children(n))
    return out


def _walk(module: cst.Module) -> Walk:
    out: set[str] = set()
    written: set[str] = set()
    sequence: set[str] = set()
    names: dict[int, set[str]] = {0: set()}
    ctors: dict[str, Optional[str]] = {}
    # (node, inside a loop's repeated part, the names set of the function it is in);
    # node classes compared with `type() is` (libcst's classes are ABCs: isinstance()
    # is slow, and none has a subclass)
    stack: list[tuple[cst.CSTNode, bool, set]] = [(module, False, names[0])]
    pop, push = stack.pop, stack.append
    call, name_t, attr_t, for_t, while_t = cst.Call, cst.Name, cst.Attribute, cst.For, cst.While
    block_t, module_t, assign_t = cst.IndentedBlock, cst.Module, cst.Assign
    while stack:
        node, looped, own = pop()
        t = type(node)
        if t is for_t:
            push((node.target, looped, own))
            push((node.iter, looped, own))  # the iterable is evaluated once
            push((node.body, True, own))
            if node.orelse is not None:
                push((node.orelse, looped, own))
            continue
        if t is while_t:
            push((node.test, True, own))
            push((node.body, True, own))
            if node.orelse is not None:
                push((node.orelse, looped, own))
            continue
        if t is name_t:
            own.add(node.value)
            continue
        if t is block_t or t is module_t:
            seen: dict[str, int] = {}
            body = node.body
            for i, stmt in enumerate(body):
                c = _statement_callee(stmt)
                if c is None:
                    continue
                j = seen.get(c)
                if j is not None and not (_arg_names(stmt) & _bound_in(body[j:i])):
                    # the same function called again on the same objects (the names it
                    # is given not rebound in between: another problem, another model
                    # handed to it is another computation)
                    sequence.add(c)
                seen[c] = i
        elif t is assign_t:
            v = node.value
            if type(v) is call and len(node.targets) == 1 and type(node.targets[0].target) is name_t:
                d = dotted_name(v.func)
                n = node.targets[0].target.value
                if d is not None and ctors.get(n, d) == d:
                    ctors[n] = d
                else:
                    ctors[n] = None
        elif t is call:
            f = node.func
            ft = type(f)
            if ft is attr_t:
                own.add(f.attr.value)
                d = dotted_name(f)
                if d is not None:
                    own.add(d)
            if looped:
                if ft is name_t:
                    out.add(f.value)
                    written.add(f.value)
                elif ft is attr_t:
                    out.add(f.attr.value)
                    d = dotted_name(f)
                    if d is not None:
                        written.add(d)
        if t in _DEFS:
            looped = False  # defining a function in a loop does not call it there
            if t is not cst.ClassDef:
                own = names.setdefault(id(node), set())
        elif t in _COMPS:
            looped = True
        kids = children(node)
        if kids:
            for c in kids:
                push((c, looped, own))
    w = Walk()
    w.looped, w.written, w.in_sequence = frozenset(out), frozenset(written), frozenset(sequence)
    w.names = names
    w.ctors = {n: d for n, d in ctors.items() if d is not None}
    return w


def walked(module: cst.Module) -> Walk:
    """The walk of ``module``, made once (the last module asked about is kept)."""
    w = _memo[0]
    if w is None or w[0] is not module:
        w = (module, _walk(module))
        _memo[0] = w
    return w[1]


def kept(module: cst.Module) -> Optional[Walk]:
    """The walk of ``module`` if it is the one made last (to keep it with the tree)."""
    w = _memo[0]
    return w[1] if w is not None and w[0] is module else None


def adopt(module: cst.Module, walk: Walk) -> None:
    """``walk`` is the walk of ``module`` (made by an earlier lint of the same tree)."""
    _memo[0] = (module, walk)


def _walked(module: cst.Module) -> tuple[frozenset[str], frozenset[str]]:
    """(names called in loops, callees as written), one walk per module (the last one asked)."""
    w = walked(module)
    return w.looped, w.written


def called_repeatedly(module: cst.Module, name: str) -> bool:
    """Does ``module`` call a function or method named ``name`` inside a loop body
    or a comprehension?"""
    return name in _walked(module)[0]


def calls_in_loops(module: cst.Module) -> frozenset[str]:
    """The callees as written (``f``, ``mod.f``) that ``module`` calls inside a loop
    body or a comprehension (for the project: a function of another module run again
    and again from here)."""
    return _walked(module)[1]


def _last(written: str) -> str:
    return written.rsplit(".", 1)[-1]


def repeated_units(index, module: cst.Module) -> frozenset[int]:
    """The units of this file (ids) that run again and again: called in a loop or a
    comprehension of the file, or by two statements of one block one after the other
    (``r1 = f(a)``, ``r2 = f(b)``), or known from another module to run so (facts
    ``repeated``, ``again``); and, from those, each function of the file their own
    body names (calls, or hands on: a nested def stored and called later), and so on:
    a function called from one that runs again and again runs again and again too.
    Matched by name within the file, like the loop calls."""
    w = walked(module)
    memo = getattr(index, "_repeated_units", None)  # kept with the index (not in the module-level memo)
    if memo is not None and memo[0] is module:
        return memo[1]
    by_name: dict[str, list] = {}
    for u in index.units:
        if not u.is_module:
            by_name.setdefault(u.name, []).append(u)
    seeds = w.looped | {_last(c) for c in w.in_sequence}
    todo = [u for u in index.units if not u.is_module
            and (u.repeated_elsewhere or getattr(u, "runs_again", False) or u.name in seeds)]
    rep: set[int] = set()
    while todo:
        u = todo.pop()
        if id(u) in rep:
            continue
        rep.add(id(u))
        for n in w.names.get(id(u.node), ()):
            for v in by_name.get(n, ()):
                if id(v) not in rep:
                    todo.append(v)
    out = frozenset(rep)
    index._repeated_units = (module, out)
    return out


def callees_run_again(index, module: cst.Module) -> frozenset[str]:
    """The callees as written (``f``, ``mod.f``, ``Cls.m`` for ``x.m`` with ``x = Cls(...)``
    bound once in the file) that this file runs again and again: called in a loop or a
    comprehension, by two statements of one block, or from the body of a unit that
    runs again and again (``repeated_units``).  For the project: the functions of other
    modules named so run again and again as well."""
    w = walked(module)
    out = set(w.written) | set(w.in_sequence)
    for u in index.units:
        if u.is_module or id(u) not in repeated_units(index, module):
            continue
        out.update(w.names.get(id(u.node), ()))
    for c in list(out):
        head, dot, rest = c.partition(".")
        if dot and "." not in rest and head in w.ctors:
            out.add(f"{w.ctors[head]}.{rest}")
    return frozenset(out)


def unit_names(module: cst.Module, node: cst.CSTNode) -> frozenset[str]:
    """The names a function's own body reads and the callees it writes (``mod.f``, ``x.m``)."""
    return frozenset(walked(module).names.get(id(node), ()))


# the lax loops whose body runs once per step, by the reason the index gives the body
# (model/index.py ``_reason``: "a body passed to lax.scan as `step`")
_LOOP_BODY_REASONS = (("a body passed to lax.fori_loop", "lax.fori_loop"),
                      ("a body passed to lax.scan", "lax.scan"))


def lax_loop_body(unit) -> Optional[str]:
    """``lax.fori_loop``/``lax.scan`` when ``unit`` is a body one of them runs step after
    step (also through ``partial(f, ...)`` or a method: the index resolves the body);
    None otherwise.  Every step runs the body with arguments of the same shapes (a loop
    carry keeps its shape, a closure or a bound argument is the same object)."""
    for r in unit.reasons:
        for prefix, prim in _LOOP_BODY_REASONS:
            if r.startswith(prefix):
                return prim
    return None
