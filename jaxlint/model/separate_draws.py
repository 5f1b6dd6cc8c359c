"""Two draws from one key whose results never meet: the inputs of independent sub-cases.

A test that checks two properties draws the input of each from the same key (``x =
uniform(rng, (d,))`` for the gradient check, ``z = uniform(rng, (4, 7, 3))`` for the
Jacobian one), and a notebook starts a second experiment by drawing its data again from
the seed of the first (``x, y, a, b = create_points(rng, 19, 35, 2)`` ... ``x, y, a, b =
create_points(rng, 10**5, 10**5 + 1, 7)``).  The numbers overlap (``uniform(k, (5,))`` is
a prefix of ``uniform(k, (84,))``), but each set only feeds computations of its own: the
same key reused for an independent case is reproducibility, not correlated sampling.  Two
draws whose results meet (added, stacked, handed to one call, returned together, stored
into one object) are the bug, and stay reported; so do draws at a module's or notebook's
top level into other names (its globals outlive the run, inspected side by side): there
the second experiment rebinds the names of the first.

Each case is checked before the next is drawn: the first draw's values are used
between the two draws (two inputs drawn in a row, `x = normal(key, s)`, `y = normal(key,
s)`, are one case's, a copy-paste slip).  ``separate_draws`` follows, statement by
statement through the block that holds both draws, the names computed from each draw (plain assignments from them; an object a bare
call hands one of them to, ``costs.append(c)``, ``update(state, x)``; anything a compound
statement binds when it reads one of them), and answers True only when no statement
reads values of both.  A name rebound from other values stops being derived.  Shapes and
dtypes (``x.shape``) are not values; a lambda's or a nested function's parameters are
not reads of the names they shadow (``h = lambda x: norm(x - x)``).  One walk over the
statements of the block after the first draw."""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

_NOT_VALUES = frozenset({"shape", "ndim", "dtype", "size"})  # reads of these are not the values
_SHOWN = frozenset({"print", "display"})  # builtins (and IPython's) that only show their arguments


def separate_draws(root: cst.CSTNode, a: cst.Call, b: cst.Call,
                   qualname: Callable[[cst.CSTNode], Optional[str]], rebound: bool = False) -> bool:
    """Are ``a`` and ``b`` (two draws from one key, ``a`` first) each the whole value of an
    assignment to plain names in one block of ``root`` (a function's body, or a module's or
    notebook's top level), what the first gives used before the second is drawn (a case
    checked, then the next case drawn; not two inputs drawn in a row), the second not
    computed from the first, and what each gives never read together by one statement
    after it (module docstring)?  ``rebound``: the
    second must also rebind every name the first bound (a notebook's or script's new
    experiment: its globals outlive the run, so draws kept side by side under other names,
    `a = normal(key)` then `b = uniform(key)`, are not taken for independent ones)."""
    if isinstance(root, cst.Module):
        blocks: list = [root]
        stack: list = list(root.body)
    elif isinstance(root, cst.FunctionDef):
        blocks, stack = [], [root.body]
    else:
        return False
    while stack:  # the blocks of ``root`` (not those of the functions and classes it defines)
        n = stack.pop()
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(n, cst.IndentedBlock):
            blocks.append(n)
        stack.extend(n.children)
    for block in blocks:
        stmts = list(block.body)
        i = next((k for k, st in enumerate(stmts) if _assigned_by(st, a) is not None), None)
        j = next((k for k, st in enumerate(stmts) if _assigned_by(st, b) is not None), None)
        if i is None or j is None:
            continue
        if i >= j:
            return False
        first = set(_assigned_by(stmts[i], a) or ())
        if not first:
            return False
        derived: list[set] = [first, set()]
        checked = False  # the first case's values used before the second draw
        for k in range(i + 1, len(stmts)):
            st = stmts[k]
            if k < j and not checked:
                checked = bool(_free_reads(st, values=False) & derived[0])  # (a shape check too)
            if k == j:
                if not checked:
                    return False  # `x = normal(key, s)`, `y = normal(key, s)` in a row: two inputs
                    # of one case (a copy-paste slip), not a case checked before the next draws
                if _free_reads(st.body[0].value) & derived[0]:
                    return False  # the second draw computed from the first (`normal(key, x + 1)`)
                second = _assigned_by(st, b) or set()
                if rebound and not (_assigned_by(stmts[i], a) or set()) <= second:
                    return False
                derived[0] -= second
                derived[1] = set(second)
                continue
            if not _step(st, derived, qualname):
                return False
        return True
    return False


def _assigned_by(st: cst.CSTNode, call: cst.Call) -> Optional[set]:
    """The plain names ``st`` binds to ``call`` when it is ``names = call`` (else None)."""
    if not isinstance(st, cst.SimpleStatementLine) or len(st.body) != 1 or not isinstance(st.body[0], cst.Assign) \
            or st.body[0].value is not call:
        return None
    return _plain_targets(st.body[0])


def _plain_targets(st: cst.Assign) -> Optional[set]:
    out: set[str] = set()
    for t in st.targets:
        tt = t.target
        elems = [e.value for e in tt.elements] if isinstance(tt, (cst.Tuple, cst.List)) else [tt]
        if not all(isinstance(e, cst.Name) for e in elems):
            return None
        out.update(e.value for e in elems if e.value != "_")  # (`_`: thrown away)
    return out


def _step(st: cst.CSTNode, derived: list, qualname) -> bool:
    """Carry the derived names of both draws over ``st``; False when ``st`` reads both."""
    if isinstance(st, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        return all(_small(s, derived, qualname) for s in st.body)
    if isinstance(st, (cst.If, cst.For, cst.While, cst.With, cst.Try)):
        return _branches(st, derived, qualname)
    reads = _free_reads(st)
    hit = [bool(reads & d) for d in derived]
    if all(hit):
        return False
    bound = _bound_inside(st, qualname)
    for d, h in zip(derived, hit):
        if h:
            d |= bound  # (bound only on some paths, or once per iteration: not a rebinding)
    return True


def _branches(st: cst.CSTNode, derived: list, qualname) -> bool:
    """An ``if``/``for``/``while``/``with``/``try``: its header read, then each of its suites
    statement by statement (a loop's body twice: what one iteration binds, the next reads);
    a name rebound inside may keep the draw's values on another path, so nothing derived
    before is forgotten."""
    before = [set(d) for d in derived]
    header: list = []
    bound: set[str] = set()
    if isinstance(st, (cst.If, cst.While)):
        header.append(st.test)
    elif isinstance(st, cst.For):
        header.append(st.iter)
        bound |= _roots(st.target)
    elif isinstance(st, cst.With):
        for item in st.items:
            header.append(item.item)
            if item.asname is not None:
                bound |= _roots(item.asname.name)
    reads: set[str] = set()
    for h in header:
        reads |= _free_reads(h)
    hit = [bool(reads & d) for d in derived]
    if all(hit):
        return False
    for d, h in zip(derived, hit):
        if h:
            d |= bound
    suites: list = []
    node: Optional[cst.CSTNode] = st
    while node is not None:  # `if`/`elif`/`else`, a loop's `else`, `try`'s handlers
        suites.append(node.body)
        if isinstance(node, cst.Try):
            suites.extend(h.body for h in node.handlers)
            suites.extend(x.body for x in (node.orelse, node.finalbody) if x is not None)
            break
        orelse = getattr(node, "orelse", None)
        node = orelse if isinstance(orelse, cst.If) else None
        if isinstance(orelse, cst.Else):
            suites.append(orelse.body)
    for _ in range(2 if isinstance(st, (cst.For, cst.While)) else 1):
        for suite in suites:
            inner = suite.body if isinstance(suite, cst.IndentedBlock) else [suite]
            if not all(_step(x, derived, qualname) for x in inner):
                return False
    for d, b in zip(derived, before):
        d |= b
    return True


def _small(s: cst.BaseSmallStatement, derived: list, qualname) -> bool:
    if isinstance(s, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
        if s.value is None:
            return True
        targets = [t.target for t in s.targets] if isinstance(s, cst.Assign) else [s.target]
        reads = _free_reads(s.value)
        if isinstance(s, cst.AugAssign):
            reads |= _free_reads(s.target)
        plain = _plain_targets(s) if isinstance(s, cst.Assign) else (
            {s.target.value} if isinstance(s.target, cst.Name) and isinstance(s, cst.AnnAssign) else None)
        bound: set[str] = set()
        for t in targets:
            if not isinstance(t, (cst.Name, cst.Tuple, cst.List)):
                reads |= _free_reads(t)  # `d[k] = v`, `self.x = v`: the object now holds it
            bound |= _roots(t)
        hit = [bool(reads & d) for d in derived]
        if all(hit):
            return False
        for d, h in zip(derived, hit):
            if plain is not None:
                d -= plain  # rebound from other values: no longer what the draw gave
            if h:
                d |= bound
        return True
    if isinstance(s, cst.Expr):
        reads = _free_reads(s.value)
        hit = [bool(reads & d) for d in derived]
        if all(hit):
            return False
        if any(hit) and isinstance(s.value, cst.Call):
            # a call whose result is thrown away acts on what it is handed: `costs.append(c)`,
            # `update(state, x)` leave `costs`, `state` holding the draw's values
            held = _handed(s.value, qualname)
            for d, h in zip(derived, hit):
                if h:
                    d |= held
        return True
    reads = _free_reads(s)
    return not all(reads & d for d in derived)  # `return x, z`: returned together


def _handed(call: cst.Call, qualname) -> set[str]:
    func = call.func
    last = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else ""
    if last in _SHOWN or last.lower().startswith("assert"):
        return set()  # `print(x)`, `self.assertEqual(x.shape, s)`, `np.testing.assert_allclose(...)`
    out: set[str] = set()
    if isinstance(call.func, cst.Attribute):
        root = _root_name(call.func.value)
        if root is not None and qualname(root) is None:  # an object, not a module (`plt.plot`)
            out.add(root.value)
    for arg in call.args:
        root = _root_name(arg.value)
        if root is not None and qualname(root) is None:
            out.add(root.value)
    return out


def _root_name(e: cst.BaseExpression) -> Optional[cst.Name]:
    while isinstance(e, (cst.Attribute, cst.Subscript)):
        e = e.value
    return e if isinstance(e, cst.Name) else None


def _roots(t: cst.BaseExpression) -> set[str]:
    if isinstance(t, (cst.Tuple, cst.List)):
        return set().union(*(_roots(e.value) for e in t.elements)) if t.elements else set()
    if isinstance(t, cst.StarredElement):
        return _roots(t.value)
    root = _root_name(t)
    return {root.value} if root is not None and root.value != "_" else set()


def _bound_inside(st: cst.CSTNode, qualname) -> set[str]:
    """The names a compound statement binds or hands its values to (assignment targets,
    loop and `with` targets, the names it defines, objects its bare calls act on)."""
    out: set[str] = set()
    stack = [st]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.FunctionDef, cst.ClassDef)):
            out.add(n.name.value)
            if n is not st:
                continue
        elif isinstance(n, cst.Assign):
            for t in n.targets:
                out |= _roots(t.target)
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.For)):
            out |= _roots(n.target)
        elif isinstance(n, cst.AsName):
            out |= _roots(n.name)
        elif isinstance(n, cst.Expr) and isinstance(n.value, cst.Call):
            out |= _handed(n.value, qualname)
        elif isinstance(n, cst.Lambda):
            continue
        stack.extend(n.children)
    return out


def _params(ps: cst.Parameters) -> set[str]:
    names = {p.name.value for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params)}
    names |= {p.name.value for p in (ps.star_arg, ps.star_kwarg) if isinstance(p, cst.Param)}
    return names


def _free_reads(node: cst.CSTNode, values: bool = True) -> set[str]:
    """The names ``node`` reads values of: not an attribute's or a keyword's name, not
    ``x.shape``/``x.dtype`` (unless not ``values``), not a lambda's or a nested function's
    own parameters."""
    out: set[str] = set()
    stack: list = [(node, frozenset())]
    while stack:
        n, shadow = stack.pop()
        if isinstance(n, cst.Name):
            if n.value not in shadow:
                out.add(n.value)
            continue
        if isinstance(n, cst.Attribute):
            if not values or n.attr.value not in _NOT_VALUES or _root_name(n.value) is None:
                stack.append((n.value, shadow))  # (`l2(l1(x)).shape` reads the values of both)
            continue
        if isinstance(n, cst.Arg):
            stack.append((n.value, shadow))
            continue
        if isinstance(n, cst.Lambda):
            stack.append((n.body, shadow | _params(n.params)))
            continue
        if isinstance(n, cst.FunctionDef):
            inner = shadow | _params(n.params)
            stack.extend((c, inner) for c in (n.body, *n.decorators))
            continue
        stack.extend((c, shadow) for c in n.children)
    return out
