"""Is the result of a call ever read?  (a dead store, for the key-reuse rule)

``eval_keys = jax.random.split(key, n)`` whose ``eval_keys`` is rebound before any
read draws nothing anyone sees: a later use of ``key`` gets no random bits twice.
The question is asked of a call carried into the value of an assignment to names
(``a = f(...)``, ``a, *b = f(...)``, ``kw = dict(x=f(...))``, ``n = f(...) * s``);
the answer follows the unit's statements from that assignment in program order: a
name is dead when, on every path, it is rebound (or the unit ends) before it is
read.  Asked for the paths through a later node only (the second draw from the same
key), the branches that do not run that node, and those that leave the unit before
it, do not count.  A ``for`` over a literal that is not empty runs its body.  A read that only feeds another
assignment of a pure JAX call whose names are dead in turn (``k, _ = split(key)``
then ``v = normal(k, ...)`` with ``v`` never read) is no read.  Unsure (a nested
function or class naming it, ``global``/``nonlocal``, a loop around the assignment
that may read it on the next iteration, any other statement): read.
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jaxlint.model.walk import block_statements, children

Qualname = Callable[[cst.CSTNode], Optional[str]]

_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
_LOOPS = (cst.For, cst.While)
_READ, _WRITE = "read", "write"
_MAX_DEPTH = 3


def dead_result(unit_node: cst.CSTNode, call: cst.Call, qualname: Qualname, exported: bool,
                through: Optional[cst.CSTNode] = None) -> bool:
    """Is ``call``, carried into the value of an assignment to plain names in the body
    of ``unit_node`` (a function or a module), never read?  Carried: the whole value,
    or a part of a container, of an arithmetic expression or of another JAX call
    (``kw = dict(a=normal(k, ...))``, ``noise = gumbel(k, ...) * scale``).
    ``exported``: the unit's names outlive it (a module's globals, which importers
    read and a notebook's user inspects).  ``through``: only the paths that run this
    node (a later draw from the same key) count: the result may be read on other
    branches (``noise`` read under ``if mode is None:``, the key handed to another
    sampler under ``elif``)."""
    return _dead_assign(unit_node, lambda s: _carries(s.value, call, qualname), qualname, 0, exported, through)


# builtins that only hold their arguments (the result is read only where it is read)
_CONTAINERS = frozenset({"dict", "list", "tuple", "set", "frozenset"})


def _carries(value: cst.BaseExpression, call: cst.Call, qualname: Qualname) -> bool:
    """Is ``call`` ``value`` itself, or held in it with no other effect: an element of
    a literal container or of ``dict(...)``/``list(...)``, an operand of arithmetic,
    an argument of a ``jax`` function?"""
    if value is call:
        return True
    t = type(value)
    if t in (cst.Tuple, cst.List, cst.Set):
        return any(_carries(el.value, call, qualname) for el in value.elements)
    if t is cst.Dict:
        return any(_carries(el.value, call, qualname) for el in value.elements
                   if isinstance(el, cst.DictElement))
    if t is cst.BinaryOperation:
        return _carries(value.left, call, qualname) or _carries(value.right, call, qualname)
    if t is cst.UnaryOperation:
        return _carries(value.expression, call, qualname)
    if t is cst.Call:
        f = value.func
        if isinstance(f, cst.Name) and f.value in _CONTAINERS and qualname(f) is None or (
                qualname(f) or "").startswith("jax."):
            return any(_carries(a.value, call, qualname) for a in value.args)
    return False


def _dead_assign(unit_node: cst.CSTNode, match: Callable[[cst.Assign], bool], qualname: Qualname, depth: int,
                 exported: bool, through: Optional[cst.CSTNode] = None) -> bool:
    if depth > _MAX_DEPTH:
        return False
    body = block_statements(unit_node)
    path = _find(body, match)
    if path is None:
        return False
    assign = path[-1][2]
    names = _target_names(assign)
    if not names:
        return False
    if through is not None and _contains(path[-1][0][path[-1][1]], through):
        return False  # the later draw is on the assignment's own line
    for name in names:
        if _named_elsewhere(unit_node, name):
            return False
        if not _dead_after(path, name, unit_node, qualname, depth, exported, through):
            return False
    return True


def _contains(node: cst.CSTNode, target: cst.CSTNode) -> bool:
    return any(n is target for n in _all(node))


def _sub_blocks(stmt: cst.CSTNode) -> list[list[cst.CSTNode]]:
    """The statement blocks a compound statement runs (not nested scopes)."""
    if isinstance(stmt, _SCOPES) or isinstance(stmt, cst.SimpleStatementLine):
        return []
    out = []
    if hasattr(stmt, "body"):
        out.append(block_statements(stmt))
    orelse = getattr(stmt, "orelse", None)
    while orelse is not None:
        out.append(block_statements(orelse))
        orelse = orelse.orelse if isinstance(orelse, cst.If) else None
    for h in getattr(stmt, "handlers", ()):
        out.append(block_statements(h))
    final = getattr(stmt, "finalbody", None)
    if final is not None:
        out.append(block_statements(final))
    return out


def _find(block: list[cst.CSTNode], match) -> Optional[list[tuple[list, int, object]]]:
    """The path to the assignment ``match`` picks: (block, index, node) from the unit's
    body down; the last entry holds the ``Assign`` itself."""
    for i, stmt in enumerate(block):
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign) and match(small):
                    return [(block, i, small)]
            continue
        for sub in _sub_blocks(stmt):
            found = _find(sub, match)
            if found is not None:
                return [(block, i, stmt)] + found
    return None


def _target_names(assign: cst.Assign) -> list[str]:
    out: list[str] = []
    for t in assign.targets:
        if not _plain_target(t.target, out):
            return []
    return out


def _plain_target(t: cst.BaseExpression, out: list[str]) -> bool:
    if isinstance(t, cst.Name):
        out.append(t.value)
        return True
    if isinstance(t, (cst.Tuple, cst.List)):
        return all(_plain_target(el.value, out) for el in t.elements)
    return False


def _named_elsewhere(unit_node: cst.CSTNode, name: str) -> bool:
    """Does a nested function, class or lambda name ``name``, or a ``global``/
    ``nonlocal`` statement (its binding may be read where this walk does not look)?"""
    todo = list(block_statements(unit_node))
    while todo:
        n = todo.pop()
        if isinstance(n, _SCOPES) or isinstance(n, (cst.Global, cst.Nonlocal)):
            if any(isinstance(m, cst.Name) and m.value == name for m in _all(n)):
                return True
            continue
        todo.extend(children(n))
    return False


def _all(node: cst.CSTNode):
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        todo.extend(children(n))


def _dead_after(path, name: str, unit_node, qualname: Qualname, depth: int, exported: bool,
                through: Optional[cst.CSTNode] = None) -> bool:
    """From the assignment at the end of ``path`` on, is ``name`` rebound (or the unit
    left) before any read, on every path (``through``: on every path that runs that
    node)?"""
    line = path[-1][0][path[-1][1]]
    if len(line.body) > 1:
        return False  # `a = f(k); use(a)`: not followed here
    for level in range(len(path) - 1, -1, -1):
        block, i, stmt = path[level]
        if level < len(path) - 1:
            if isinstance(stmt, _LOOPS):
                # the rest of the loop's body, then its next iteration: not followed here
                return False
            if isinstance(stmt, (cst.Try, cst.TryStar)) and any(
                    _reads(h, name) for h in (*stmt.handlers, stmt.orelse, stmt.finalbody) if h is not None):
                return False  # an exception may take it to a handler that reads it, or none to `else:`
        if through is not None:
            event = _route(block[i + 1:], name, through, unit_node, qualname, depth, exported)
            if event == _PASSED:
                through = None  # from here on, every path counts
                continue
        else:
            event = _sequence(block[i + 1:], name, unit_node, qualname, depth, exported)
        if event == _READ:
            return False
        if event == _WRITE:
            return True
    return not exported


_PASSED = "passed"  # the node `through` was run, and the name not read up to it


def _route(stmts, name, through, unit_node, qualname, depth, exported) -> Optional[str]:
    """Along the paths of ``stmts`` that run ``through``: is ``name`` read first
    (READ), rebound first or the unit left right after ``through`` (WRITE), or is the
    block's end reached after ``through`` with neither (PASSED)?  None: ``through``
    is not in ``stmts``, and no statement read or rebound the name on every path."""
    for k, s in enumerate(stmts):
        if not _contains(s, through):
            e = _event(_falls_through(s), name, unit_node, qualname, depth, exported)
            if e is not None:
                return e
            continue
        if isinstance(s, cst.SimpleStatementLine):
            small = s.body[0] if len(s.body) == 1 else None
            targets: list[str] = []
            if isinstance(small, cst.Assign) and all(_plain_target(t.target, targets) for t in small.targets):
                if _reads(small.value, name):
                    return _READ
                if name in targets:
                    return _WRITE  # `kw = dict(a=normal(k))`: rebound once the later draw is made
            elif _reads(s, name):
                return _READ
            if isinstance(s.body[-1], (cst.Return, cst.Raise)):
                return _WRITE  # the unit is left: nothing after reads it
            rest = _sequence(stmts[k + 1:], name, unit_node, qualname, depth, exported)
            return rest if rest is not None else _PASSED
        if isinstance(s, cst.If):
            branch = s
            inner = None
            while isinstance(branch, cst.If):  # the tests up to the branch that runs it
                if _contains(branch.test, through) or _reads(branch.test, name):
                    return _READ
                if _contains(branch.body, through):
                    inner = block_statements(branch)
                    break
                branch = branch.orelse
            if inner is None:
                if branch is None:
                    return _READ
                inner = block_statements(branch)  # the final `else:`
            e = _route(inner, name, through, unit_node, qualname, depth, exported)
            if e != _PASSED:
                return e if e is not None else _READ
            rest = _sequence(stmts[k + 1:], name, unit_node, qualname, depth, exported)
            return rest if rest is not None else _PASSED
        if isinstance(s, _LOOPS) and (s.orelse is None or not _contains(s.orelse, through)):
            head = s.iter if isinstance(s, cst.For) else s.test
            if _contains(head, through) or _reads(head, name) or isinstance(s, cst.For) and _reads(s.target, name):
                return _READ
            # the first iteration that runs it: rebound before (or by) it, or the
            # unit left right after it, holds for every later iteration too
            e = _route(block_statements(s), name, through, unit_node, qualname, depth, exported)
            if e != _PASSED:
                return e if e is not None else _READ
            # the body neither reads nor rebinds the name: what follows the loop decides
            rest = _sequence(stmts[k + 1:], name, unit_node, qualname, depth, exported)
            return rest if rest is not None else _PASSED
        return _READ  # `with`, `try`... around it: not followed here
    return None


def _sequence(stmts, name, unit_node, qualname, depth, exported) -> Optional[str]:
    for s in stmts:
        e = _event(s, name, unit_node, qualname, depth, exported)
        if e is not None:
            return e
    return None


def _event(stmt, name, unit_node, qualname, depth, exported) -> Optional[str]:
    """What ``stmt`` does to ``name`` first: read it, rebind it on every path, or
    neither (None)."""
    if isinstance(stmt, _SCOPES):
        return _READ if _reads(stmt, name) else None
    if isinstance(stmt, cst.SimpleStatementLine):
        for small in stmt.body:
            if isinstance(small, cst.Assign):
                targets: list[str] = []
                plain = all(_plain_target(t.target, targets) for t in small.targets)
                if _reads(small.value, name) or not plain and any(_reads(t.target, name) for t in small.targets):
                    if plain and _pure_jax(small.value, qualname) and _dead_assign(
                            unit_node, lambda s, small=small: s is small, qualname, depth + 1, exported):
                        # it only feeds names nobody reads
                        if name in targets:
                            return _WRITE
                        continue
                    return _READ
                if name in targets:
                    return _WRITE
            elif _reads(small, name):
                return _READ
        return None
    if isinstance(stmt, cst.If):
        branch = stmt
        while isinstance(branch, cst.If):  # the test, then each `elif`'s
            if _reads(branch.test, name):
                return _READ
            branch = branch.orelse
        events = [_sequence(b, name, unit_node, qualname, depth, exported) for b in _sub_blocks(stmt)]
        if _READ in events:
            return _READ
        if stmt.orelse is not None and all(e == _WRITE for e in events) and _has_else(stmt):
            return _WRITE
        return None
    if isinstance(stmt, _LOOPS):
        head = stmt.iter if isinstance(stmt, cst.For) else stmt.test
        if _reads(head, name) or isinstance(stmt, cst.For) and _reads(stmt.target, name):
            return _READ
        events = [_sequence(b, name, unit_node, qualname, depth, exported) for b in _sub_blocks(stmt)]
        if _READ in events:
            return _READ
        if _runs_once(stmt) and _first_rebinds(block_statements(stmt), name, unit_node, qualname, depth, exported):
            return _WRITE  # `for case in [True, False]: kw = ...`: the body runs at least once
        return None  # the body may not run
    if isinstance(stmt, cst.With):
        if any(_reads(item, name) for item in stmt.items):
            return _READ
        return _sequence(block_statements(stmt), name, unit_node, qualname, depth, exported)
    # try, match, anything else: any mention is a read
    return _READ if _reads(stmt, name) else None


def _falls_through(stmt: cst.CSTNode) -> cst.CSTNode:
    """An ``if`` whose branches that leave the unit (end in ``return``/``raise``)
    are emptied: on the way to a later statement only the others run."""
    if not isinstance(stmt, cst.If):
        return stmt
    def leaves(b) -> bool:
        body = block_statements(b)
        last = body[-1] if body else None
        return isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], (cst.Return, cst.Raise))
    empty = cst.IndentedBlock(body=[cst.SimpleStatementLine(body=[cst.Pass()])])
    def strip(b):
        if isinstance(b, cst.If):
            return b.with_changes(body=empty if leaves(b) else b.body, orelse=strip(b.orelse))
        if isinstance(b, cst.Else) and leaves(b):
            return b.with_changes(body=empty)
        return b
    return strip(stmt)


def _runs_once(stmt: cst.CSTNode) -> bool:
    """A ``for`` over a literal list, tuple or set that is not empty (or over
    ``range(n)`` with a literal ``n`` of at least 1): its body runs at least once."""
    if not isinstance(stmt, cst.For) or stmt.orelse is not None:
        return False
    it = stmt.iter
    if isinstance(it, (cst.List, cst.Tuple, cst.Set)):
        return bool(it.elements) and not any(isinstance(el, cst.StarredElement) for el in it.elements)
    if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "range" and len(it.args) == 1:
        n = it.args[0].value
        return isinstance(n, cst.Integer) and int(n.value, 0) >= 1
    return False


def _first_rebinds(body, name, unit_node, qualname, depth, exported) -> bool:
    """Does the first run of a loop's ``body`` rebind ``name`` before reading it, with
    no ``break``/``continue`` that could skip the rebinding?"""
    for s in body:
        if any(isinstance(n, (cst.Break, cst.Continue)) for n in _all(s)):
            return False
        e = _event(s, name, unit_node, qualname, depth, exported)
        if e is not None:
            return e == _WRITE
    return False


def _has_else(stmt: cst.If) -> bool:
    orelse = stmt.orelse
    while isinstance(orelse, cst.If):
        orelse = orelse.orelse
    return orelse is not None


def _pure_jax(value: cst.BaseExpression, qualname: Qualname) -> bool:
    """A call of a ``jax`` function (``jax.random.normal(k, ...)``): no effect but its result."""
    return isinstance(value, cst.Call) and (qualname(value.func) or "").startswith("jax.")


def _reads(node: cst.CSTNode, name: str) -> bool:
    """Does ``node`` mention ``name`` as a variable (not an attribute or keyword)?"""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, cst.Name):
            if n.value == name:
                return True
            continue
        if isinstance(n, cst.Attribute):
            todo.append(n.value)
            continue
        if isinstance(n, cst.Arg):
            todo.append(n.value)
            continue
        todo.extend(children(n))
    return False
