"""A block's statements in the order they run (for state that changes between calls).

JAX's caching transformations (``jit``, ``pmap``) trace a function once per input
signature and keep what it read then: a global, a closed-over local, a module or
object attribute.  Whether a later rebinding is seen depends on the order of the
calls and the rebinding in the code that drives the function: a module's top level
(its ``if __name__ == "__main__":`` block included) or a function's body.  This
module gives that order: the bodies of ``if``/``with``/``try`` statements are
inlined, a loop stays one statement (what it rebinds, it rebinds between two of its
own iterations), nested functions and classes are not entered.
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator, Optional

import libcst as cst

from jaxlint.model.repeats import walked
from jaxlint.model.walk import block_statements, children, descendants, dotted_name, statement_nodes

_SCOPES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)
_LOOPS = (cst.For, cst.While)


def flat_statements(body: Iterable[cst.CSTNode],
                    branches: Optional[list[tuple[tuple[int, int], ...]]] = None,
                    _path: tuple[tuple[int, int], ...] = ()) -> list[cst.CSTNode]:
    """The statements of ``body`` in program order, compound ``if``/``with``/``try``
    statements replaced by their bodies (all branches, in source order).  ``branches``
    (when given) receives, for each statement, the ``if`` branches it stands in:
    (id of the ``if`` statement, number of its branch) pairs, outermost first."""
    out: list[cst.CSTNode] = []

    def add(block: cst.CSTNode, path: tuple[tuple[int, int], ...]) -> None:
        out.extend(flat_statements(block_statements(block), branches, path))

    for s in body:
        if isinstance(s, cst.If):
            add(s.body, (*_path, (id(s), 0)))
            orelse, k = s.orelse, 1
            while orelse is not None:
                add(orelse.body, (*_path, (id(s), k)))
                orelse, k = (orelse.orelse, k + 1) if isinstance(orelse, cst.If) else (None, k)
        elif isinstance(s, cst.With):
            add(s.body, _path)
        elif isinstance(s, (cst.Try, cst.TryStar)):
            add(s.body, _path)
            for h in s.handlers:
                add(h.body, _path)
            if s.orelse is not None:
                add(s.orelse.body, _path)
            if s.finalbody is not None:
                add(s.finalbody.body, _path)
        else:
            out.append(s)
            if branches is not None:
                branches.append(_path)
    return out


class Sequence:
    """The statements one block runs, in order, and where each node stands."""

    def __init__(self, body: Iterable[cst.CSTNode]) -> None:
        self._branches: list[tuple[tuple[int, int], ...]] = []
        self.stmts = flat_statements(body, self._branches)
        self.at: dict[int, int] = {}  # id(node) -> index of its statement
        self.in_loop: set[int] = set()  # nodes inside a loop of the block
        self._reads: Optional[list] = None  # see _statement_reads
        self._clears: Optional[list[int]] = None  # see clears
        for i, stmt in enumerate(self.stmts):
            stack = [(stmt, False)]
            while stack:
                n, loop = stack.pop()
                self.at[id(n)] = i
                if loop:
                    self.in_loop.add(id(n))
                if isinstance(n, _SCOPES):
                    continue  # a function's body runs when it is called, not here
                inner = loop or isinstance(n, _LOOPS)
                stack.extend((c, inner) for c in children(n))

    def index(self, node: cst.CSTNode) -> Optional[int]:
        return self.at.get(id(node))

    def exclusive(self, i: int, j: int) -> bool:
        """Do statements ``i`` and ``j`` stand in different branches of one ``if``
        (``if a: ... else: ...``), so no run of the block executes both?"""
        bi, bj = self._branches[i], self._branches[j]
        if not bi or not bj:
            return False
        mine = dict(bi)
        return any(k in mine and mine[k] != b for k, b in bj)

    def clears(self) -> list[int]:
        """The statements that call ``jax.clear_caches()`` (anywhere inside them), in
        order: one walk per block, however many rebindings ask."""
        if self._clears is None:
            self._clears = [i for i, stmt in enumerate(self.stmts)
                            if any(_clears_caches(n) for n in (stmt, *descendants(stmt)))]
        return self._clears

    def uses(self, names: set[str], defined_at: Optional[int]) -> list[tuple[int, bool]]:
        """The statements that use a function known here by ``names`` (from statement
        ``defined_at`` on when given: a def or the statement holding a lambda), in
        program order, as (index, whether the statement is a loop).  A name bound to an
        expression of it (``f = jax.jit(g)``, ``j = jit(c.calc)``) stands for it too; a
        name rebound to something else stops standing for it."""
        out: list[tuple[int, bool]] = []
        current: set[str] = set(names) if defined_at is None else set()
        reads = self._statement_reads()
        for i, stmt in enumerate(self.stmts):
            if defined_at is not None and i == defined_at:
                current |= names
                if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)) or _imports_only(stmt):
                    continue  # (`from pkg.model import last` names it; it does not call it)
            stmt_reads, binds = reads[i]
            if current and not stmt_reads.isdisjoint(current) and not _aliases_only(stmt, stmt_reads, binds, current):
                out.append((i, isinstance(stmt, _LOOPS)))
            for name, value_reads in binds:
                if value_reads is not None and not value_reads.isdisjoint(current):
                    current.add(name)
                elif defined_at is None or i != defined_at or name not in names:
                    current.discard(name)
        return out

    def _statement_reads(self) -> list[tuple[frozenset[str], list[tuple[str, Optional[frozenset[str]]]]]]:
        """For each statement: the names it reads (``mentions``), and the names it
        binds with the names their value reads, callees apart (None: not one
        expression).  Computed once per block: ``uses`` is asked for every function a
        block names (JAX's own ``lax.py`` names hundreds), each a walk of every
        statement otherwise."""
        if self._reads is None:
            self._reads = [
                (reads(stmt), [(name, None if value is None else reads(value, callee=False))
                               for name, value in bindings(stmt)])
                for stmt in self.stmts
            ]
        return self._reads

    def binds(self, i: int) -> list[str]:
        """The names statement ``i`` binds."""
        return [name for name, _ in self._statement_reads()[i][1]]


def _imports_only(stmt: cst.CSTNode) -> bool:
    """Is ``stmt`` a line of imports only (``from pkg.model import last``)?"""
    return type(stmt) is cst.SimpleStatementLine and all(
        type(s) is cst.ImportFrom or type(s) is cst.Import for s in stmt.body)  # type: ignore[attr-defined]


def _aliases_only(stmt: cst.CSTNode, stmt_reads: frozenset[str],
                  binds: list[tuple[str, Optional[frozenset[str]]]], current: set[str]) -> bool:
    """Does ``stmt`` only name the function anew (``fn = hk.transform(f)``,
    ``g = jax.vmap(fn.apply)``) without calling it: no trace runs there, so no
    value is read and kept (not a use)."""
    named = [r for _, r in binds if r is not None and not r.isdisjoint(current)]
    if not named or isinstance(stmt, _LOOPS):
        return False
    if not (stmt_reads & current) <= frozenset().union(*named):
        return False
    for n in descendants(stmt):
        if type(n) is cst.Call:
            callee = dotted_name(n.func)
            if callee is not None and (callee in current or callee.split(".", 1)[0] in current):
                return False  # `fn.init(...)`, `f(x)`: it runs
            if callee is None and mentions(n.func, current):
                return False  # `jax.jit(f)(x)`: it runs
    return True


def mentions(node: cst.CSTNode, names: set[str], callee: bool = True) -> bool:
    """Does ``node`` read one of ``names`` (or a dotted ``a.b`` among them)?  The
    names an assignment binds are not reads, nor the name a ``def``/``class`` binds (a
    function defined again under its old name); ``callee=False``: nor is a name called
    (``f(x)`` is f's result, ``jax.jit(f)`` stands for f)."""
    return any(r in names for r in _read_names(node, callee))


def reads(node: cst.CSTNode, callee: bool = True) -> frozenset[str]:
    """Every name (and dotted ``a.b``) ``node`` reads, as ``mentions`` counts reads:
    ``mentions(node, names, callee)`` is ``not reads(node, callee).isdisjoint(names)``."""
    return frozenset(_read_names(node, callee))


def _read_names(node: cst.CSTNode, callee: bool) -> Iterator[str]:
    """The names (and dotted ``a.b``) ``node`` reads, in walk order (``mentions``
    stops at the first it wants, ``reads`` takes them all)."""
    targets: set[int] = set()
    for n in (node, *descendants(node)):
        if not callee and isinstance(n, cst.Call):
            targets.add(id(n.func))
        if isinstance(n, (cst.FunctionDef, cst.ClassDef)):
            targets.add(id(n.name))
        elif isinstance(n, cst.Assign):
            targets.update(id(t.target) for t in n.targets)
        elif isinstance(n, cst.AnnAssign):
            targets.add(id(n.target))
        elif isinstance(n, cst.Arg) and n.keyword is not None:
            targets.add(id(n.keyword))  # `f(update=u)`: a parameter's name, not a read
        if id(n) in targets:
            continue
        if isinstance(n, cst.Name):
            yield n.value
        elif isinstance(n, cst.Attribute):
            targets.add(id(n.attr))  # `opt.update`: an attribute, not the name `update`
            if isinstance(n.value, cst.Name):
                yield f"{n.value.value}.{n.attr.value}"


def across(uses: list[tuple[int, bool]], at: int, defined_at: Optional[int] = None,
           seq: Optional["Sequence"] = None) -> bool:
    """Is the function used both before statement ``at`` (a rebinding) and after it,
    or in the loop that rebinds (and that does not define the function anew each
    iteration), so a cached trace can run with the old value after the new one is set?
    With ``seq``: a use in another branch of an ``if`` than the rebinding's never runs
    with it (``if jit: f = jax.jit(g) else: model = ...; f = other(g)``)."""
    if defined_at is not None and defined_at == at:
        return False
    if seq is not None:
        uses = [(i, loop) for i, loop in uses if not seq.exclusive(i, at)]
    if any(i == at and loop for i, loop in uses):
        return True
    return any(i <= at for i, _ in uses) and any(i > at for i, _ in uses)


def cleared_after(seq: "Sequence", uses: list[tuple[int, bool]], at: int) -> bool:
    """Does the block call ``jax.clear_caches()`` from the rebinding at statement ``at``
    up to the next use of the function (every cached trace dropped: the next call
    traces anew and reads the new value)?  A call in the rebinding loop counts (each
    iteration clears)."""
    later = [i for i, _ in uses if i > at]
    end = min(later) if later else len(seq.stmts)
    return any(at <= i < end for i in seq.clears())


def _clears_caches(n: cst.CSTNode) -> bool:
    return isinstance(n, cst.Call) and (dotted_name(n.func) or "").rsplit(".", 1)[-1] == "clear_caches"


def bindings(stmt: cst.CSTNode) -> list[tuple[str, Optional[cst.CSTNode]]]:
    """The names a statement binds, with the expression bound (None where it is not
    one expression: a loop target, an import, a def)."""
    if isinstance(stmt, cst.SimpleStatementLine):
        out: list[tuple[str, Optional[cst.CSTNode]]] = []
        for small in stmt.body:
            if isinstance(small, cst.Assign):
                for t in small.targets:
                    if isinstance(t.target, cst.Name):
                        out.append((t.target.value, small.value))
                    else:
                        out.extend((n.value, None) for n in descendants(t.target) if isinstance(n, cst.Name))
            elif isinstance(small, (cst.AnnAssign, cst.AugAssign)) and isinstance(small.target, cst.Name):
                out.append((small.target.value, small.value if isinstance(small, cst.AnnAssign) else None))
            elif isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(small.names, cst.ImportStar):
                for alias in small.names:
                    bound = alias.asname.name if alias.asname is not None else alias.name
                    if isinstance(bound, cst.Name):
                        out.append((bound.value, None))
        return out
    if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
        return [(stmt.name.value, None)]
    return []


def attribute_writes(stmt: cst.CSTNode, dotted: str) -> list[cst.CSTNode]:
    """The assignments in ``stmt`` (not in nested functions) whose target is the
    attribute chain ``dotted`` (``config.lr``, ``c.mul``)."""
    out: list[cst.CSTNode] = []
    for n in (stmt, *descendants(stmt)):
        targets: list[cst.CSTNode] = []
        if isinstance(n, cst.Assign):
            targets = [t.target for t in n.targets]
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign)):
            targets = [n.target]
        elif isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == "setattr":
            args = n.args
            if len(args) >= 2 and isinstance(args[1].value, cst.SimpleString):
                obj = dotted_name(args[0].value)
                attr = args[1].value.evaluated_value
                if obj is not None and isinstance(attr, str) and f"{obj}.{attr}" == dotted:
                    out.append(n)
            continue
        while targets:
            t = targets.pop()
            if isinstance(t, (cst.Tuple, cst.List)):
                targets.extend(el.value for el in t.elements)
            elif isinstance(t, cst.StarredElement):
                targets.append(t.value)
            elif isinstance(t, cst.Attribute) and dotted_name(t) == dotted:
                out.append(n)
    return out



_DOTTED_CALL = re.compile(r"\b([A-Za-z_]\w*)\.([A-Za-z_]\w*)\s*\(")
_ATTR_WRITE = re.compile(r"^[ \t]*([A-Za-z_]\w*)\.([A-Za-z_]\w*)[ \t]*(?:[-+*/]?=)(?!=)", re.M)
# an item written into, or a mutating method called on, a name or a module's attribute:
# `config.SCALES["a"] = 2.0`, `LAYERS.append(3)`, `del cache[k]`
_ITEM_WRITE = re.compile(r"^[ \t]*(?:del[ \t]+)?([A-Za-z_]\w*)(?:\.[A-Za-z_]\w*)?(?:\[|\.(?:" + "|".join(sorted(
    ("setdefault", "popitem", "append", "extend", "insert"))) + r")\()", re.M)
# (methods that few objects but lists and dicts have: `tx.update(...)`, `buffer.add(...)` of
# other objects return new state and change nothing)
_MUTATORS = frozenset({"setdefault", "popitem", "append", "extend", "insert"})
# `setattr(config, "SCALE", 2.0)`: an attribute of a name set by name
_SETATTR = re.compile(r"\bsetattr\(\s*([A-Za-z_]\w*)\s*,")


def _changed(n: cst.CSTNode, heads: dict[str, str]) -> list[tuple[str, str, str]]:
    """What ``n`` (a statement's node) changes of the project's modules: (head as
    written, module, attribute) for ``mod.attr = v`` and, in place, ``mod.attr[k] = v``,
    ``mod.attr.append(v)``, and ``NAME[k] = v``/``NAME.update(...)`` of a name imported
    from a project module (``heads``: the name as written -> its qualified name)."""
    out: list[tuple[str, str, str]] = []

    def place(t: cst.CSTNode, item: bool) -> None:
        # an in-place change is told as `attr[]`: it reaches a name imported from the
        # module too (`from pkg.config import SCALES`: the same object); a rebinding does not
        if type(t) is cst.Attribute and type(t.value) is cst.Name and t.value.value in heads:
            out.append((t.value.value, heads[t.value.value], t.attr.value + ("[]" if item else "")))
        elif item and type(t) is cst.Name and t.value in heads:
            full = heads[t.value]
            if "." in full:
                m, a = full.rsplit(".", 1)
                out.append((t.value, m, a + "[]"))

    t = type(n)
    targets: list[cst.CSTNode] = []
    if t is cst.Assign:
        targets = [x.target for x in n.targets]  # type: ignore[attr-defined]
    elif t is cst.AugAssign or t is cst.AnnAssign or t is cst.Del:
        targets = [n.target]  # type: ignore[attr-defined]
    elif t is cst.Call:
        f = n.func  # type: ignore[attr-defined]
        if type(f) is cst.Attribute and f.attr.value in _MUTATORS:
            place(f.value, True)
        else:
            named = setattr_target(n)  # `setattr(config, "SCALE", 2.0)`: `config.SCALE = 2.0`
            if named is not None and named[0] in heads:
                out.append((named[0], heads[named[0]], named[1]))
        return out
    for x in targets:
        if type(x) is cst.Subscript:
            place(x.value, True)  # type: ignore[attr-defined]
        elif t is not cst.Del:
            place(x, False)
    return out


def setattr_target(call: cst.CSTNode) -> Optional[tuple[str, str]]:
    """``setattr(obj, "name", value)`` with a name and a literal attribute name:
    (the object as written, the attribute), as ``obj.name = value`` would give; else None."""
    if type(call) is not cst.Call or type(call.func) is not cst.Name or call.func.value != "setattr" \
            or len(call.args) != 3 or any(a.star or a.keyword is not None for a in call.args):
        return None
    obj, attr = call.args[0].value, call.args[1].value
    written = dotted_name(obj)
    if written is None or type(attr) is not cst.SimpleString or attr.prefix.lower() not in ("", "u"):
        return None
    name = attr.value[1:-1] if not attr.value.startswith(('"""', "'''")) else None
    return (written, name) if name and name.isidentifier() else None


def imported_attribute_writes(module: cst.Module, resolve, packages: frozenset[str], text: str) -> list[str]:
    """The attributes of the project's modules this file rebinds anywhere
    (``config.CAPACITY = n`` in a function or under ``__main__``, ``cfg.N += 1``,
    ``setattr(config, "CAPACITY", n)``), as ``module.attribute`` (the module as its
    import names it): such a module constant is not the number its definition gives,
    for any module that reads it.  Read from the parsed tree (a line of a string is not a
    statement); a look at the text first: most files set no module's attribute.
    ``resolve``: a name imported at the top of the file -> what it imports (None: not
    imported)."""
    if _DOTTED_ATTR_WRITE.search(text) is None and "setattr(" not in text:
        return []
    out: set[str] = set()

    def add(written: Optional[str], attr: str) -> None:
        if written is None:
            return
        head, _, rest = written.partition(".")
        full = resolve(head)
        if full is not None and full.split(".", 1)[0] in packages:
            out.add(f"{full}.{rest}.{attr}" if rest else f"{full}.{attr}")

    for n in statement_nodes(module):  # in functions and classes too
        t = type(n)
        if t is cst.Assign:
            targets = [x.target for x in n.targets]  # type: ignore[attr-defined]
        elif t is cst.AugAssign or t is cst.AnnAssign:
            targets = [n.target]  # type: ignore[attr-defined]
        elif t is cst.Call:
            named = setattr_target(n)
            if named is not None:
                add(*named)
            continue
        else:
            continue
        for x in targets:
            if type(x) is cst.Attribute:
                add(dotted_name(x.value), x.attr.value)
            elif type(x) in (cst.Tuple, cst.List):
                for e in x.elements:  # `config.A, config.B = a, b`
                    if type(e.value) is cst.Attribute:
                        add(dotted_name(e.value.value), e.value.attr.value)
    return sorted(out)


def global_setters(module: cst.Module, text: str) -> dict[str, list[str]]:
    """The module-level functions of a file that rebind one of its module-level names
    through a ``global`` statement (``def set_temperature(v): global TEMPERATURE;
    TEMPERATURE = v``): {function: [the names]}.  A call of one, anywhere in the project,
    changes the module's attribute as ``config.TEMPERATURE = v`` would.  A look at the
    text first: most files declare no global."""
    if "global " not in text:
        return {}
    out: dict[str, list[str]] = {}
    for stmt in module.body:
        if type(stmt) is not cst.FunctionDef:
            continue
        declared: set[str] = set()
        written: set[str] = set()
        for n in descendants(stmt.body):
            t = type(n)
            if t is cst.FunctionDef or t is cst.Lambda or t is cst.ClassDef:
                continue  # (descendants enters them: a nested def's `global` is its own, rarely)
            if t is cst.Global:
                declared.update(g.name.value for g in n.names)  # type: ignore[attr-defined]
            elif t is cst.Assign:
                for x in n.targets:  # type: ignore[attr-defined]
                    written.update(_target_names(x.target))
            elif t is cst.AugAssign or t is cst.AnnAssign:
                written.update(_target_names(n.target))  # type: ignore[attr-defined]
        names = sorted(declared & written)
        if names:
            out[stmt.name.value] = names
    return out


def _target_names(t: cst.CSTNode) -> Iterator[str]:
    if type(t) is cst.Name:
        yield t.value
    elif type(t) in (cst.Tuple, cst.List):
        for e in t.elements:
            yield from _target_names(e.value)


# `config.CAPACITY = n`, `pkg.config.CAPACITY += 8`: an attribute of a dotted name rebound
_DOTTED_ATTR_WRITE = re.compile(r"^[ \t]*([A-Za-z_][\w.]*?)\.([A-Za-z_]\w*)[ \t]*(?:[-+*/]?=)(?!=)", re.M)


def imported_attribute_changes(index, imports, packages: frozenset[str], text: str) -> dict[str, list[list[str]]]:
    """Attributes of project modules this file sets between two calls of a function
    imported from the project (``settings.g = 10.`` between two calls of
    ``f = jax.jit(impure_uses_globals)`` or of ``model.step``, at the top level or in
    a function's body, in program order), or changes in place (``config.SCALES["a"] =
    2.0``, ``LAYERS.append(3)`` with ``from pkg.config import LAYERS``): {the function
    as written here: [[module, attribute]]}.  The module that defines the function
    decides whether a cached trace of it reads the attribute; a ``jax.clear_caches()``
    between the change and the next call drops the cached traces.  A cheap look at the
    text first: most files set no module's attribute."""
    modules: dict[str, str] = {}
    for m in (*_ATTR_WRITE.finditer(text), *_ITEM_WRITE.finditer(text), *_SETATTR.finditer(text)):
        head = m.group(1)
        full = imports.names.get(head)
        if full is not None and full.split(".", 1)[0] in packages:
            modules[head] = full
    project_names = {n for n, full in imports.names.items() if full.split(".", 1)[0] in packages}
    if not modules and not project_names:
        return {}
    # the project's functions as written here: imported by name (`f`), or reached
    # through an imported project module (`model.f`)
    callees = {n for n, full in imports.names.items()
               if full.split(".", 1)[0] in packages and n not in modules}
    if project_names:
        # one scan of the text for `name.attr(` (not one scan per imported name)
        callees.update(f"{m.group(1)}.{m.group(2)}" for m in _DOTTED_CALL.finditer(text)
                       if m.group(1) in project_names)
    out: dict[str, set[tuple[str, str]]] = {}
    named_in = walked(index.module).names  # the names each function reads, its callees as written
    for unit in index.units:
        if unit.traced or isinstance(unit.node, cst.Lambda):
            continue
        body = unit.node.body if unit.is_module else block_statements(unit.node.body)
        seq: Optional[Sequence] = None
        called: Optional[set] = None  # the project functions this unit names (one walk, when needed)
        uses_of: dict[str, tuple[Optional[int], list[tuple[int, bool]]]] = {}
        calls = callees.intersection(named_in.get(0 if unit.is_module else id(unit.node), ()))
        if len(calls) > 1:
            # a call of one project function between two calls of another: the first may
            # set a module's attribute the second's cached trace read (`config.set_temperature(0.1)`,
            # a `global` setter); told as `g()`, the callee as written, which the project
            # resolves against the setters its modules define (project/facts.py)
            seq = Sequence(body)
            for name in calls:
                def_at = next((i for i in range(len(seq.stmts)) if name in seq.binds(i)), None)
                uses_of[name] = (def_at, seq.uses({name}, def_at))
            for g in calls:
                for at, _ in uses_of[g][1]:
                    for name in calls:
                        def_at, uses = uses_of[name]
                        if name != g and across(uses, at, def_at, seq) and not cleared_after(seq, uses, at):
                            out.setdefault(name, set()).add(("", g + "()"))
        if not modules:
            continue
        for n in descendants(unit.node):
            t = type(n)
            if t is not cst.Assign and t is not cst.AugAssign and t is not cst.AnnAssign and t is not cst.Del \
                    and t is not cst.Call:
                continue
            for head, module, attr in _changed(n, modules):
                if not unit.is_module and head in unit.assigned and head not in unit.global_names:
                    continue  # a local of that name
                seq = seq or Sequence(body)
                at = seq.index(n)
                if at is None:
                    continue  # in a nested function: its own unit
                if called is None:
                    called = {dotted_name(c) for c in descendants(unit.node)
                              if type(c) is cst.Name or type(c) is cst.Attribute} & callees
                    for name in called:
                        if name in uses_of:
                            continue
                        # from its import on, where this block imports it
                        def_at = next((i for i in range(len(seq.stmts)) if name in seq.binds(i)), None)
                        uses_of[name] = (def_at, seq.uses({name}, def_at))
                for name in called:
                    def_at, uses = uses_of[name]
                    if across(uses, at, def_at, seq) and not cleared_after(seq, uses, at):
                        out.setdefault(name, set()).add((module, attr))
    return {k: sorted([m, a] for m, a in v) for k, v in sorted(out.items())}


def driving_callers(index, traced) -> list:
    """The functions of the file, defined at its top level and run on the
    host (not traced), that call ``traced`` in their body, directly or through another
    such function (``def generate(key): ... sample_token(k, logits)``): a call of one
    of them, in the driving code, calls ``traced``.  Read from the call graph the index
    keeps (no walk); a function that rebinds or takes ``traced``'s name is not its
    caller."""
    module = index.module_unit
    callers_of: dict[int, list] = {}
    for u in index.units:
        if u.parent is module and u.cls is None and isinstance(u.node, cst.FunctionDef) and not u.traced \
                and not u.reasons:
            for c in index.call_edges.get(id(u), ()):
                callers_of.setdefault(c, []).append(u)
    out: list = []
    todo = [traced]
    while todo:
        for u in callers_of.get(id(todo.pop()), ()):
            if u not in out and u is not traced:
                out.append(u)
                todo.append(u)
    return out


# what an instance fact names instead of a module: the object a method is called on
INSTANCE = "<instance>"


def imported_instance_changes(index, imports, packages: frozenset[str]) -> dict[str, list[list[str]]]:
    """Attributes of an instance of a project class imported here (``c = CustomClass(2,
    True)``) that this file sets between two calls of one of its methods (``c.calc(3)``
    ... ``c.mul = False`` or ``configure(c, False)``, a function of this file that sets
    ``obj.mul`` on its parameter ... ``c.calc(3)``), in program order, at the top level or
    in a function's body: {"CustomClass.calc": [["<instance>", "mul"]]}.  The module
    that defines the class decides whether a cached trace of the method reads the
    attribute (a jitted method with ``self`` static)."""
    classes = {n for n, full in imports.names.items() if full.split(".", 1)[0] in packages
               and n[:1].isupper()}
    if not classes:
        return {}
    setters = parameter_setters(index)
    out: dict[str, set[tuple[str, str]]] = {}
    for unit in index.units:
        if unit.traced or isinstance(unit.node, cst.Lambda):
            continue
        body = unit.node.body if unit.is_module else block_statements(unit.node.body)
        if not any(isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value in classes
                   for n in statement_nodes(unit.node, nested=False)):
            continue
        seq = Sequence(body)
        for made, stmt in enumerate(seq.stmts):
            if not isinstance(stmt, cst.SimpleStatementLine):
                continue
            for var, value in bindings(stmt):
                if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Name)
                        and value.func.value in classes):
                    continue
                methods = {m.group(2) for m in _DOTTED_CALL.finditer(_code_after(seq, made))
                           if m.group(1) == var}
                for i, later in enumerate(seq.stmts[made + 1:], made + 1):
                    for attr, w in instance_writes(later, var, setters):
                        if seq.at.get(id(w)) is None:
                            continue
                        at = seq.at[id(w)]
                        for m in methods:
                            uses = seq.uses({f"{var}.{m}"}, None)
                            uses = [(j, loop) for j, loop in uses if j > made]
                            if across(uses, at, None, seq) and not cleared_after(seq, uses, at):
                                out.setdefault(f"{value.func.value}.{m}", set()).add((INSTANCE, attr))
    return {k: sorted([m, a] for m, a in v) for k, v in sorted(out.items())}


def _code_after(seq: "Sequence", i: int) -> str:
    mod = cst.Module(body=[])
    return "\n".join(mod.code_for_node(s) for s in seq.stmts[i + 1:])


def parameter_setters(index) -> dict[str, dict[int, set[str]]]:
    """The plain functions of the file's top level that set an attribute on one of
    their parameters (``def configure(obj, v): obj.mul = v``): {name: {position: attrs}}."""
    out: dict[str, dict[int, set[str]]] = {}
    for u in index.units:
        if u.parent is not index.module_unit or u.cls is not None or not isinstance(u.node, cst.FunctionDef):
            continue
        params = [p.name.value for p in u.node.params.params]
        for n in descendants(u.node):
            if isinstance(n, (cst.Assign, cst.AugAssign)):
                targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
                for t in targets:
                    if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value in params \
                            and t.value.value not in u.assigned:
                        out.setdefault(u.name, {}).setdefault(params.index(t.value.value), set()).add(t.attr.value)
    return out


def instance_writes(stmt: cst.CSTNode, var: str, setters: dict) -> list[tuple[str, cst.CSTNode]]:
    """``var.attr = v`` in ``stmt`` (not in nested functions), and calls of a setter of
    the file given ``var`` where it sets an attribute: (attribute, node)."""
    out: list[tuple[str, cst.CSTNode]] = []
    if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
        return out  # (its body runs when it is called)
    for n in (stmt, *descendants(stmt)):
        if isinstance(n, (cst.Assign, cst.AugAssign)):
            targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
            for t in targets:
                if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == var:
                    out.append((t.attr.value, n))
        elif isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value in setters:
            for pos, attrs in setters[n.func.value].items():
                if pos < len(n.args) and n.args[pos].keyword is None and isinstance(n.args[pos].value, cst.Name) \
                        and n.args[pos].value.value == var:
                    out.extend((a, n) for a in sorted(attrs))
    return out
