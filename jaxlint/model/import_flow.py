"""Which import a name stands for where the file binds it to different modules.

A script run top to bottom (a Colab export) may rebind a module alias: ``import
jax.numpy as np`` at the top, ``import numpy as np`` inside one ``elif`` block and
``import jax.numpy as np`` at its end, ``import numpy as np`` again near the bottom;
``if USE_JAX: import jax.numpy as np`` / ``else: import numpy as np`` chooses one.  A
name bound to one module everywhere (or to modules that agree) needs none of this:
model/imports.py resolves it as before.  For a name bound to different modules, this
module gives each use of it (each ``Name`` node) the module it can show, or None
(unknown, never reported):

* module-level code (and class bodies) runs in order: a use sees the imports that
  reach it through the module's statements (an ``if`` joins its branches, a loop its
  iterations, a ``try`` what its body may have bound before a handler runs);
* a function runs when it is called, at a time the file does not show: its body sees
  any import that reaches its ``def`` or comes after it at module level, unless the
  function (or one enclosing it) imports the name itself;
* a name some function declares ``global`` is unknown everywhere.

One walk of the module's statements, then one of its nodes; only for files with such
a name (model/imports.py ``ImportTable.settle``).
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jaxlint.model.walk import block_statements, children, dotted_name, statement_nodes

State = dict[str, frozenset]
_EMPTY: frozenset = frozenset()
_TRY_STAR = getattr(cst, "TryStar", None)


def bound_by(node: cst.CSTNode) -> list[tuple[str, str]]:
    """(local name, module or object it names) for each name an absolute import binds
    (``import a.b`` binds ``a``); relative and star imports bind none here."""
    out: list[tuple[str, str]] = []
    if type(node) is cst.Import:
        for alias in node.names:
            full = dotted_name(alias.name)
            if full is None:
                continue
            if alias.asname is not None and type(alias.asname.name) is cst.Name:
                out.append((alias.asname.name.value, full))
            else:
                top = full.split(".", 1)[0]
                out.append((top, top))
    elif type(node) is cst.ImportFrom:
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return out
        base = dotted_name(node.module)
        if base is None:
            return out
        for alias in node.names:
            if type(alias.name) is not cst.Name:
                continue
            local = alias.name.value
            if alias.asname is not None and type(alias.asname.name) is cst.Name:
                local = alias.asname.name.value
            out.append((local, f"{base}.{alias.name.value}"))
    return out


def _join(*states: State) -> State:
    out: dict[str, frozenset] = {}
    for s in states:
        for k, v in s.items():
            had = out.get(k)
            out[k] = v if had is None else had | v
    return out


class _ModuleFlow:
    """The imports of each name that reach each module-level statement."""

    def __init__(self, names: frozenset, keep: Callable[[cst.CSTNode, str], bool],
                 canon: Callable[[str], str]) -> None:
        self.names = names
        self.keep = keep
        self.canon = canon
        self.at: dict[int, tuple[State, int]] = {}  # id(statement) -> (state on entry, position)
        self.events: set[tuple[int, str, str]] = set()  # (position, name, module) at module level
        self.pos = 0
        self.quiet = 0  # inside a class body: its imports bind class attributes

    def block(self, stmts, state: State) -> State:
        for s in stmts:
            state = self.stmt(s, state)
        return state

    def _bind(self, node: cst.CSTNode, state: State) -> State:
        for local, full in bound_by(node):
            if local in self.names and self.keep(node, local):
                full = self.canon(full)
                state = {**state, local: frozenset((full,))}
                if not self.quiet:
                    self.events.add((self.pos, local, full))
        return state

    def stmt(self, s: cst.CSTNode, state: State) -> State:
        self.pos += 1
        had = self.at.get(id(s))
        self.at[id(s)] = (_join(had[0], state) if had is not None else state, self.pos)
        t = type(s)
        if t is cst.SimpleStatementLine:
            for small in s.body:
                state = self._bind(small, state)
            return state
        if t is cst.Import or t is cst.ImportFrom:  # a one-line suite's small statement
            return self._bind(s, state)
        if t is cst.If:
            outs = []
            cur: cst.CSTNode = s
            while True:
                outs.append(self.block(block_statements(cur), state))
                orelse = cur.orelse  # type: ignore[attr-defined]
                if orelse is None:
                    outs.append(state)
                    break
                if type(orelse) is cst.If:
                    cur = orelse
                    continue
                outs.append(self.block(block_statements(orelse), state))
                break
            return _join(*outs)
        if t is cst.For or t is cst.While:
            start = self.pos
            first = self.block(block_statements(s), state)
            entry = _join(state, first)
            self.pos = start  # the same statements, their positions kept
            end = _join(entry, self.block(block_statements(s), entry))
            if s.orelse is not None:  # type: ignore[attr-defined]
                end = _join(end, self.block(block_statements(s.orelse), end))  # type: ignore[attr-defined]
            return end
        if t is cst.Try or (_TRY_STAR is not None and t is _TRY_STAR):
            before = set(self.events)
            body = self.block(block_statements(s), state)
            # a handler runs after any part of the body: what any of it bound
            partial: dict[str, frozenset] = {}
            for _, name, full in self.events - before:
                partial[name] = partial.get(name, _EMPTY) | {full}
            h_in = _join(state, body, partial)
            outs = [self.block(block_statements(h), h_in) for h in s.handlers]  # type: ignore[attr-defined]
            if s.orelse is not None:  # type: ignore[attr-defined]
                body = self.block(block_statements(s.orelse), body)  # type: ignore[attr-defined]
            end = _join(body, *outs)
            if s.finalbody is not None:  # type: ignore[attr-defined]
                end = self.block(block_statements(s.finalbody), _join(end, h_in))  # type: ignore[attr-defined]
            return end
        if t is cst.With:
            return self.block(block_statements(s), state)
        if t is cst.ClassDef:
            # a class body runs at its definition, but an import there binds a class
            # attribute (`class B: import jax.numpy as np`), not the module's name: its
            # own statements see it, the module's and the functions' do not
            self.quiet += 1
            try:
                self.block(block_statements(s), state)
            finally:
                self.quiet -= 1
            return state
        if t is cst.FunctionDef:
            return state  # its body runs when it is called (resolve below)
        if t is cst.Match:
            return _join(state, *(self.block(block_statements(c), state) for c in s.cases))
        return state


def _local_imports(fn: cst.CSTNode, names: frozenset, keep, canon) -> dict[str, frozenset]:
    """Names of ``names`` the function imports in its own body -> the modules."""
    out: dict[str, frozenset] = {}
    if type(fn) is not cst.FunctionDef:
        return out
    for n in statement_nodes(fn.body, nested=False):
        t = type(n)
        if t is cst.Import or t is cst.ImportFrom:
            for local, full in bound_by(n):
                if local in names and keep(n, local):
                    out[local] = out.get(local, _EMPTY) | {canon(full)}
    return out


def _one(mods: frozenset) -> Optional[str]:
    return next(iter(mods)) if len(mods) == 1 else None


def resolve(module: cst.Module, names: frozenset, keep: Callable[[cst.CSTNode, str], bool],
            canon: Callable[[str], str]) -> dict[int, Optional[str]]:
    """id(Name node) -> the module it stands for, or None (unknown), for every use of
    ``names`` (local names bound to different modules) in ``module``.  ``keep(import
    node, name)``: whether that import's binding of the name counts."""
    flow = _ModuleFlow(names, keep, canon)
    flow.block(module.body, {})
    declared_global = set()
    for n in statement_nodes(module):
        if type(n) is cst.Global:
            declared_global.update(a.name.value for a in n.names if a.name.value in names)
    events = sorted(flow.events)
    later_memo: dict[int, State] = {}

    def later(pos: int) -> State:
        got = later_memo.get(pos)
        if got is None:
            acc: dict[str, frozenset] = {}
            for p, name, full in events:
                if p > pos:
                    acc[name] = acc.get(name, _EMPTY) | {full}
            got = later_memo[pos] = acc
        return got

    def function_res(anchor: tuple[State, int], chain: tuple) -> dict[str, Optional[str]]:
        state, pos = anchor
        after = later(pos)
        res: dict[str, Optional[str]] = {}
        for name in names:
            if name in declared_global:
                res[name] = None
                continue
            for local in reversed(chain):
                if name in local:
                    res[name] = _one(local[name])
                    break
            else:
                res[name] = _one(state.get(name, _EMPTY) | after.get(name, _EMPTY))
        return res

    def module_res(state: State) -> dict[str, Optional[str]]:
        return {name: None if name in declared_global else _one(state.get(name, _EMPTY)) for name in names}

    out: dict[int, Optional[str]] = {}
    # (node, (resolution here, anchor: (module state, position) of the function's
    # `def` or None at module level, enclosing functions' imports, the module-level
    # statement around the node))
    top: tuple = ({name: None for name in names}, None, (), ({}, 0))
    stack: list[tuple[cst.CSTNode, tuple]] = [(s, top) for s in reversed(module.body)]
    at = flow.at
    while stack:
        node, ctx = stack.pop()
        t = type(node)
        if t is cst.Name:
            if node.value in names:
                out[id(node)] = ctx[0].get(node.value)
            continue
        res, anchor, chain, here = ctx
        if anchor is None:
            rec = at.get(id(node))
            if rec is not None:  # a module-level statement: the imports that reach it
                here = rec
                ctx = (module_res(rec[0]), None, chain, here)
        if t is cst.FunctionDef or t is cst.Lambda:
            fn_anchor = here if anchor is None else anchor
            inner = chain + (_local_imports(node, names, keep, canon),)
            fctx = (function_res(fn_anchor, inner), fn_anchor, inner, here)
            body = node.body
            stack.extend((k, fctx if k is body else ctx) for k in reversed(children(node)))
            continue
        stack.extend((k, ctx) for k in reversed(children(node)))
    return out
