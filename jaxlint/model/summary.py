"""Pass 1 of the project model: a small, JSON-serialisable summary of one module.

``extract_summary(module, name, is_package)`` takes the ``libcst.Module`` the
engine already parsed and walks it once (reading dataclass fields directly, no
visitor, no metadata).  The result is plain dicts, lists, strings, numbers and
booleans, so it can be cached as JSON next to a file's findings; its layout is
versioned by ``SUMMARY_VERSION`` (a cache must drop summaries of another
version).  Layout (see docs/project-model.md for the full description)::

    {"version": 3, "module": "pkg.train", "package": false,
     "names":    {local name: binding},           # the module namespace
     "defs":     {qualname: definition},          # functions, classes, assignments
     "all":      [names] | "dynamic" | None,      # __all__
     "star_imports": [absolute module | None, ...],
     "imported": [absolute modules named by any import in the file]}

Names are bound as Python binds them; what the walk cannot know (a name bound
only at run time, a relative import above the top-level package) is recorded as
unknown, never guessed.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import libcst as cst

from jaxlint.model.walk import children, dotted_name
from jaxlint.model.summary_format import SUMMARY_VERSION, absolute_module

Json = dict[str, Any]

_FUNC = cst.FunctionDef
_CLASS = cst.ClassDef
_LAMBDA = cst.Lambda
_COMPS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
_SHAPE_ATTRS = frozenset({"shape", "ndim", "size"})
_OTHER: Json = {"k": "other"}

# node type -> what the walk does with it (absent: just descend)
_LEAF, _K_DEF, _K_LAMBDA, _K_TARGET, _K_IMPORT, _K_GLOBAL = range(1, 7)
_DISPATCH: dict[type, int] = {
    cst.Name: _LEAF, cst.Integer: _LEAF, cst.Float: _LEAF, cst.Imaginary: _LEAF,
    cst.SimpleString: _LEAF, cst.Ellipsis: _LEAF, cst.Pass: _LEAF, cst.Break: _LEAF,
    cst.Continue: _LEAF, cst.FormattedStringText: _LEAF,
    cst.FunctionDef: _K_DEF, cst.ClassDef: _K_DEF, cst.Lambda: _K_LAMBDA,
    cst.AssignTarget: _K_TARGET, cst.AugAssign: _K_TARGET, cst.AnnAssign: _K_TARGET,
    cst.NamedExpr: _K_TARGET, cst.For: _K_TARGET, cst.CompFor: _K_TARGET, cst.AsName: _K_TARGET,
    cst.Import: _K_IMPORT, cst.ImportFrom: _K_IMPORT, cst.Global: _K_GLOBAL, cst.Nonlocal: _K_GLOBAL,
}


class _Scope:
    __slots__ = ("kind", "qualname", "parent", "locals", "globals", "imports", "defs",
                 "params", "self_name", "cls")

    def __init__(self, kind: str, qualname: str, parent: Optional["_Scope"]) -> None:
        self.kind = kind  # "module" | "class" | "function"
        self.qualname = qualname
        self.parent = parent
        self.locals: set[str] = set()
        self.globals: set[str] = set()
        self.imports: dict[str, Json] = {}  # function scopes: local name -> binding
        self.defs: dict[str, str] = {}  # function scopes: nested def name -> qualname
        self.params: set[str] = set()
        self.self_name: Optional[str] = None
        self.cls: Optional[str] = None  # class qualname for methods


def _literal(node: cst.CSTNode) -> tuple[bool, Any]:
    """(True, JSON value) for a literal expression, else (False, None)."""
    t = type(node)
    try:
        if t is cst.Integer:
            try:
                return True, int(node.value, 0)  # type: ignore[attr-defined]
            except ValueError:
                return True, node.evaluated_value  # type: ignore[attr-defined]
        if t is cst.Float:
            try:
                return True, float(node.value)  # type: ignore[attr-defined]
            except ValueError:
                return True, node.evaluated_value  # type: ignore[attr-defined]
        if t is cst.SimpleString:
            raw = node.value  # type: ignore[attr-defined]
            q = raw[0]
            if (q == '"' or q == "'") and "\\" not in raw:  # no prefix, no escapes
                n = 3 if raw[:3] == q * 3 and len(raw) >= 6 else 1
                return True, raw[n:-n]
            v = node.evaluated_value  # type: ignore[attr-defined]
            return (True, v) if isinstance(v, str) else (True, None)
        if t is cst.ConcatenatedString:
            v = node.evaluated_value  # type: ignore[attr-defined]
            return (True, v) if isinstance(v, str) else (False, None)
    except Exception:  # noqa: BLE001 - an odd literal is just "other"
        return False, None
    if t is cst.Name:
        v = node.value  # type: ignore[attr-defined]
        if v == "True":
            return True, True
        if v == "False":
            return True, False
        if v == "None":
            return True, None
        return False, None
    if t is cst.Imaginary:
        return True, None
    if t is cst.UnaryOperation and type(node.operator) in (cst.Minus, cst.Plus):  # type: ignore[attr-defined]
        ok, v = _literal(node.expression)  # type: ignore[attr-defined]
        if ok and isinstance(v, (int, float)) and not isinstance(v, bool):
            return True, -v if type(node.operator) is cst.Minus else v  # type: ignore[attr-defined]
        return False, None
    if t is cst.Tuple or t is cst.List:
        out = []
        for el in node.elements:  # type: ignore[attr-defined]
            if type(el) is not cst.Element:
                return False, None
            ok, v = _literal(el.value)
            if not ok:
                return False, None
            out.append(v)
        return True, out
    return False, None


class _Extractor:
    def __init__(self, name: str, is_package: bool) -> None:
        self.name = name
        self.is_package = is_package
        self.defs: dict[str, Json] = {}
        self.names: dict[str, list[tuple[Json, bool]]] = {}
        self.class_names: dict[str, dict[str, list[tuple[Json, bool]]]] = {}
        self.all: Any = None
        self.star: list[Optional[str]] = []
        self.imported: set[str] = set()
        self.imported_now: set[str] = set()  # ... by an import that runs when the module is imported
        self.in_script = False  # in the module's `if __name__ == "__main__":` block (run as a script only)
        # deferred work: run once every scope's bindings are known
        self.pending: list[Callable[[], None]] = []

    # ---- bindings -------------------------------------------------------
    def _bind(self, scope: _Scope, name: str, binding: Json, cond: bool) -> None:
        if scope.kind == "function":
            if binding["k"] in ("module", "from"):
                scope.imports[name] = binding
                scope.locals.discard(name)
            elif binding["k"] == "def" and binding.get("nested"):
                scope.defs[name] = binding["q"]
            else:
                scope.locals.add(name)
            return
        table = self.names if scope.kind == "module" else self.class_names.setdefault(scope.qualname, {})
        table.setdefault(name, []).append((binding, cond))

    def _qual(self, scope: _Scope, name: str) -> str:
        if scope.kind == "module":
            return name
        if scope.kind == "class":
            return f"{scope.qualname}.{name}"
        return f"{scope.qualname}.<locals>.{name}"

    def _define(self, scope: _Scope, name: str, record: Json, cond: bool) -> None:
        q = self._qual(scope, name)
        self.defs[q] = record  # a redefinition replaces the earlier record
        self._bind(scope, name, {"k": "def", "q": q, "nested": scope.kind == "function"}, cond)

    def _import(self, node: cst.CSTNode, scope: _Scope, cond: bool) -> None:
        now = not self.in_script and _at_import(scope)
        if type(node) is cst.Import:
            for alias in node.names:  # type: ignore[attr-defined]
                full = dotted_name(alias.name)
                if full is None:
                    continue
                self._note_imported(full, now)
                if alias.asname is not None and type(alias.asname.name) is cst.Name:
                    self._bind(scope, alias.asname.name.value, {"k": "module", "m": full}, cond)
                else:
                    head = full.split(".", 1)[0]
                    self._bind(scope, head, {"k": "module", "m": head}, cond)
            return
        level = len(node.relative)  # type: ignore[attr-defined]
        target = dotted_name(node.module) if node.module is not None else None  # type: ignore[attr-defined]
        mod = absolute_module(self.name, self.is_package, level, target)
        if mod is not None:
            self._note_imported(mod, now)
        names = node.names  # type: ignore[attr-defined]
        if type(names) is cst.ImportStar:
            if scope.kind == "module":
                self.star.append(mod)
            return
        for alias in names:
            if type(alias.name) is not cst.Name:
                continue
            orig = alias.name.value
            local = orig
            if alias.asname is not None and type(alias.asname.name) is cst.Name:
                local = alias.asname.name.value
            if mod is not None:
                self.imported.add(f"{mod}.{orig}")
                if now:
                    self.imported_now.add(f"{mod}.{orig}")
            self._bind(scope, local, {"k": "from", "m": mod, "n": orig}, cond)

    def _note_imported(self, full: str, now: bool) -> None:
        parts = full.split(".")
        for i in range(1, len(parts) + 1):
            self.imported.add(".".join(parts[:i]))
            if now:
                self.imported_now.add(".".join(parts[:i]))

    def _targets(self, node: cst.CSTNode, out: list[str]) -> None:
        t = type(node)
        if t is cst.Name:
            out.append(node.value)  # type: ignore[attr-defined]
        elif t is cst.Tuple or t is cst.List:
            for el in node.elements:  # type: ignore[attr-defined]
                self._targets(el.value, out)
        elif t is cst.StarredElement:
            self._targets(node.value, out)  # type: ignore[attr-defined]

    # ---- statements in a module or class body --------------------------
    def stmts(self, body: Any, scope: _Scope, cond: bool) -> None:
        for stmt in body:
            self.stmt(stmt, scope, cond)

    def stmt(self, stmt: cst.CSTNode, scope: _Scope, cond: bool) -> None:
        t = type(stmt)
        if t is _FUNC:
            self.function(stmt, scope, cond)
        elif t is _CLASS:
            self.klass(stmt, scope, cond)
        elif t is cst.SimpleStatementLine:
            for small in stmt.body:  # type: ignore[attr-defined]
                self.small(small, scope, cond)
        elif t is cst.If:
            self.expr(stmt.test, scope)  # type: ignore[attr-defined]
            script = scope.kind == "module" and main_guard(stmt.test)  # type: ignore[attr-defined]
            was, self.in_script = self.in_script, self.in_script or script
            self.stmts(stmt.body.body, scope, True)  # type: ignore[attr-defined]
            self.in_script = was
            orelse = stmt.orelse  # type: ignore[attr-defined]
            if orelse is not None:
                if type(orelse) is cst.If:
                    self.stmt(orelse, scope, True)
                else:
                    self.stmts(orelse.body.body, scope, True)
        elif t is cst.Try or t is cst.TryStar:
            self.stmts(stmt.body.body, scope, True)  # type: ignore[attr-defined]
            for h in stmt.handlers:  # type: ignore[attr-defined]
                if h.type is not None:
                    self.expr(h.type, scope)
                if h.name is not None and type(h.name.name) is cst.Name:
                    self._assign_names(scope, [h.name.name.value], True)
                self.stmts(h.body.body, scope, True)
            if stmt.orelse is not None:  # type: ignore[attr-defined]
                self.stmts(stmt.orelse.body.body, scope, True)  # type: ignore[attr-defined]
            if stmt.finalbody is not None:  # type: ignore[attr-defined]
                self.stmts(stmt.finalbody.body.body, scope, cond)  # type: ignore[attr-defined]
        elif t is cst.For:
            self.expr(stmt.iter, scope)  # type: ignore[attr-defined]
            names: list[str] = []
            self._targets(stmt.target, names)  # type: ignore[attr-defined]
            self._assign_names(scope, names, True)
            self.stmts(stmt.body.body, scope, True)  # type: ignore[attr-defined]
            if stmt.orelse is not None:  # type: ignore[attr-defined]
                self.stmts(stmt.orelse.body.body, scope, True)  # type: ignore[attr-defined]
        elif t is cst.While:
            self.expr(stmt.test, scope)  # type: ignore[attr-defined]
            self.stmts(stmt.body.body, scope, True)  # type: ignore[attr-defined]
            if stmt.orelse is not None:  # type: ignore[attr-defined]
                self.stmts(stmt.orelse.body.body, scope, True)  # type: ignore[attr-defined]
        elif t is cst.With:
            for item in stmt.items:  # type: ignore[attr-defined]
                self.expr(item.item, scope)
                if item.asname is not None:
                    names = []
                    self._targets(item.asname.name, names)
                    self._assign_names(scope, names, cond)
            self.stmts(stmt.body.body, scope, cond)  # type: ignore[attr-defined]
        elif isinstance(stmt, cst.BaseSmallStatement):  # in a one-line body: `if c: import x`
            self.small(stmt, scope, cond)
        else:  # match and anything newer: bindings unknown
            self.expr(stmt, scope)

    def _assign_names(self, scope: _Scope, names: list[str], cond: bool) -> None:
        for n in names:
            self._define(scope, n, {"kind": "assign", "value": _OTHER}, cond)

    def small(self, node: cst.CSTNode, scope: _Scope, cond: bool) -> None:
        t = type(node)
        if t is cst.Import or t is cst.ImportFrom:
            self._import(node, scope, cond)
            return
        if t is cst.Assign:
            value = node.value  # type: ignore[attr-defined]
            self.expr(value, scope)
            for target in node.targets:  # type: ignore[attr-defined]
                tt = type(target.target)
                if tt is cst.Name:
                    name = target.target.value
                    if name == "__all__" and scope.kind == "module":
                        ok, v = _literal(value)
                        self.all = v if ok and isinstance(v, list) and all(isinstance(x, str) for x in v) else "dynamic"
                    rec: Json = {"kind": "assign", "value": _OTHER}
                    self.pending.append(self._value_setter(rec, value, scope))
                    self._define(scope, name, rec, cond)
                else:
                    names: list[str] = []
                    self._targets(target.target, names)
                    self._assign_names(scope, names, cond)
                    self.expr(target.target, scope)
            return
        if t is cst.AnnAssign:
            if node.value is not None:  # type: ignore[attr-defined]
                self.expr(node.value, scope)  # type: ignore[attr-defined]
                if type(node.target) is cst.Name:  # type: ignore[attr-defined]
                    rec = {"kind": "assign", "value": _OTHER}
                    self.pending.append(self._value_setter(rec, node.value, scope))  # type: ignore[attr-defined]
                    self._define(scope, node.target.value, rec, cond)  # type: ignore[attr-defined]
            return
        if t is cst.AugAssign:
            self.expr(node.value, scope)  # type: ignore[attr-defined]
            tgt = node.target  # type: ignore[attr-defined]
            if scope.kind == "module" and type(tgt) is cst.Name and tgt.value == "__all__":
                ok, v = _literal(node.value)  # type: ignore[attr-defined]
                if (type(node.operator) is cst.AddAssign and ok and isinstance(v, list)  # type: ignore[attr-defined]
                        and isinstance(self.all, list) and all(isinstance(x, str) for x in v)):
                    self.all = self.all + v
                else:
                    self.all = "dynamic"
            return
        if t is cst.Expr and scope.kind == "module":
            v = node.value  # type: ignore[attr-defined]
            if type(v) is cst.Call and type(v.func) is cst.Attribute and dotted_name(v.func) in (
                "__all__.extend", "__all__.append"
            ):
                self._all_method(v)
        self.expr(node, scope)

    def _all_method(self, call: cst.Call) -> None:
        method = call.func.attr.value  # type: ignore[attr-defined]
        ok, v = (_literal(call.args[0].value) if len(call.args) == 1 else (False, None))
        if not isinstance(self.all, list) or not ok:
            self.all = "dynamic"
        elif method == "append" and isinstance(v, str):
            self.all = self.all + [v]
        elif method == "extend" and isinstance(v, list) and all(isinstance(x, str) for x in v):
            self.all = self.all + v
        else:
            self.all = "dynamic"

    def _value_setter(self, rec: Json, value: cst.CSTNode, scope: _Scope) -> Callable[[], None]:
        def run() -> None:
            if type(value) is cst.Call:
                rec["value"] = {"k": "call", **self._call_record(value, scope, ())}
            else:
                rec["value"] = self._arg_summary(value, scope, ())
        return run

    # ---- definitions ----------------------------------------------------
    def _decorators_and_defaults(self, node: cst.CSTNode, scope: _Scope, shadow: tuple) -> None:
        for d in node.decorators:  # type: ignore[attr-defined]
            self.walk(d.decorator, scope, shadow)

    def function(self, node: cst.FunctionDef, scope: _Scope, cond: bool, shadow: tuple = ()) -> None:
        self._decorators_and_defaults(node, scope, shadow)
        name = node.name.value
        q = self._qual(scope, name)
        ps = node.params
        positional = [*ps.posonly_params, *ps.params]
        names = [p.name.value for p in (*positional, *ps.kwonly_params)]
        for p in (*positional, *ps.kwonly_params):
            if p.default is not None:
                self.walk(p.default, scope, shadow)
        if type(ps.star_arg) is cst.Param:
            names.append(ps.star_arg.name.value)
        if ps.star_kwarg is not None:
            names.append(ps.star_kwarg.name.value)
        rec: Json = {"kind": "function"}
        inner = _Scope("function", q, scope)
        inner.params = set(names)
        if scope.kind == "class":
            deco_names = {dotted_name(d.decorator) for d in node.decorators}
            if "staticmethod" not in deco_names and positional:
                inner.self_name = positional[0].name.value
                inner.cls = scope.qualname
        self._define(scope, name, rec, cond)
        self.walk(node.body, inner, ())
        if inner.imports:
            rec["imports"] = {k: v for k, v in inner.imports.items()}

    def klass(self, node: cst.ClassDef, scope: _Scope, cond: bool, shadow: tuple = ()) -> None:
        self._decorators_and_defaults(node, scope, shadow)
        for arg in node.bases:
            self.walk(arg.value, scope, shadow)
        for arg in node.keywords:
            self.walk(arg.value, scope, shadow)
        name = node.name.value
        q = self._qual(scope, name)
        bases: list[Json] = []
        rec: Json = {"kind": "class", "bases": bases}
        for arg in node.bases:
            self.pending.append(self._base_adder(bases, arg.value, scope, shadow))
        self._define(scope, name, rec, cond)
        inner = _Scope("class", q, scope)
        body = node.body
        if type(body) is cst.IndentedBlock:
            self.stmts(body.body, inner, False)
        else:
            for small in body.body:  # type: ignore[attr-defined]
                self.small(small, inner, False)
        self.pending.append(self._class_members(rec, q))

    def _class_members(self, rec: Json, q: str) -> Callable[[], None]:
        def run() -> None:
            rec["members"] = _reduce(self.class_names.get(q, {}))
        return run

    def _base_adder(self, out: list, expr: cst.CSTNode, scope: _Scope, shadow: tuple) -> Callable[[], None]:
        def run() -> None:
            # (`Base[T]`: a generic base subscripted is that class)
            d = dotted_name(expr.value if type(expr) is cst.Subscript else expr)  # type: ignore[attr-defined]
            b: Json = {"ref": d}
            if d is not None:
                b.update(self._head_binding(d, scope, shadow) or {"bind": "local"})
            out.append(b)
        return run

    # ---- expressions and function bodies --------------------------------
    def expr(self, node: cst.CSTNode, scope: _Scope) -> None:
        self.walk(node, scope, ())

    def walk(self, root: cst.CSTNode, scope: _Scope, shadow: tuple) -> None:
        """Record (in function scopes) the bindings below ``root``: definitions, imports, targets."""
        fn = scope.kind == "function"
        dispatch = _DISPATCH
        stack = [root]
        pop = stack.pop
        extend = stack.extend
        while stack:
            node = pop()
            t = type(node)
            what = dispatch.get(t, 0)
            if what:
                if what == _LEAF:
                    continue
                if what == _K_DEF:
                    if fn:
                        if t is _FUNC:
                            self.function(node, scope, False, shadow)
                        else:
                            self.klass(node, scope, False, shadow)
                    else:  # cannot happen below a module-level expression
                        self.stmt(node, scope, True)
                    continue
                elif what == _K_LAMBDA:
                    params = _all_params(node.params)  # type: ignore[attr-defined]
                    for p in params:
                        if p.default is not None:
                            self.walk(p.default, scope, shadow)
                    self.walk(node.body, scope, shadow + tuple(p.name.value for p in params))  # type: ignore[attr-defined]
                    continue
                elif fn:
                    if what == _K_TARGET:
                        names: list[str] = []
                        self._targets(node.name if t is cst.AsName else node.target, names)  # type: ignore[attr-defined]
                        g = scope.globals
                        scope.locals.update(n for n in names if n not in g)
                    elif what == _K_IMPORT:
                        self._import(node, scope, False)
                        continue
                    elif what == _K_GLOBAL:
                        for item in node.names:  # type: ignore[attr-defined]
                            if t is cst.Global:
                                scope.globals.add(item.name.value)
                            scope.locals.discard(item.name.value)
                        continue
                elif t is cst.NamedExpr and type(node.target) is cst.Name:  # type: ignore[attr-defined]
                    self._assign_names(scope, [node.target.value], True)  # type: ignore[attr-defined]
            kids = list(children(node))
            if len(kids) > 1:
                kids.reverse()
            extend(kids)

    # ---- deferred classification ---------------------------------------
    def _head_binding(self, dotted: str, scope: _Scope, shadow: tuple) -> Optional[Json]:
        """Where the head of ``dotted`` is bound, seen from ``scope``: None when
        it is a local variable (unknown), else a small dict for the index."""
        head = dotted.split(".", 1)[0]
        if head in shadow:
            return None
        s: Optional[_Scope] = scope
        first = True
        while s is not None and s.kind != "module":
            if s.kind == "class":
                if first:  # class-body code sees the class namespace
                    members = self.class_names.get(s.qualname, {})
                    if head in members:
                        return {"bind": "class", "cls": s.qualname}
                s = s.parent
                first = False
                continue
            if head in s.globals:
                break
            if head in s.imports:
                return {"bind": "scope", "scope": s.qualname}
            if head in s.defs:
                return {"bind": "def", "q": s.defs[head]}
            if first and s.self_name == head and s.cls is not None and head not in s.locals:
                return {"bind": "self", "cls": s.cls}
            if head in s.locals or head in s.params:
                return None
            s = s.parent
            first = False
        return {"bind": "module"}

    def _arg_summary(self, e: cst.CSTNode, scope: _Scope, shadow: tuple) -> Json:
        ok, v = _literal(e)
        if ok:
            return {"k": "literal", "value": v}
        t = type(e)
        if t is cst.Name:
            name = e.value  # type: ignore[attr-defined]
            if name in shadow:
                return _OTHER
            if scope.kind == "function" and name in scope.params:
                return {"k": "param", "name": name}
        if _shape_derived(e):
            return {"k": "shape"}
        if t is cst.Name or t is cst.Attribute:
            d = dotted_name(e)
            if d is not None:
                b = self._head_binding(d, scope, shadow)
                if b is not None and b["bind"] != "self":
                    return {"k": "ref", "ref": d, **b}
        return _OTHER

    def _call_record(self, node: cst.Call, scope: _Scope, shadow: tuple) -> Json:
        callee = dotted_name(node.func)
        rec: Json = {"callee": callee}
        if callee is not None:
            b = self._head_binding(callee, scope, shadow)
            rec.update(b if b is not None else {"bind": "local"})
        else:
            rec["bind"] = "expr"
        args = []
        for a in node.args:
            s = dict(self._arg_summary(a.value, scope, shadow))
            if a.keyword is not None:
                s["kw"] = a.keyword.value
            if a.star:
                s["star"] = a.star
            args.append(s)
        rec["args"] = args
        return rec

    def result(self) -> Json:
        for run in self.pending:
            run()
        return {
            "version": SUMMARY_VERSION,
            "module": self.name,
            "package": self.is_package,
            "names": _reduce(self.names),
            "defs": self.defs,
            "all": self.all,
            "star_imports": self.star,
            "imported": sorted(self.imported),
            # ... only by an import inside a function (`def main(): from pkg import sim`) or
            # the `if __name__ == "__main__":` block: not run when this module is imported
            "deferred": sorted(self.imported - self.imported_now),
        }


def main_guard(test: cst.CSTNode) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    if type(test) is not cst.Comparison or len(test.comparisons) != 1 \
            or type(test.comparisons[0].operator) is not cst.Equal:  # type: ignore[attr-defined]
        return False
    sides = (test.left, test.comparisons[0].comparator)  # type: ignore[attr-defined]
    return any(type(a) is cst.Name and a.value == "__name__" for a in sides) and any(  # type: ignore[attr-defined]
        type(a) is cst.SimpleString and a.evaluated_value == "__main__" for a in sides)  # type: ignore[attr-defined]


def _at_import(scope: _Scope) -> bool:
    """Does code of ``scope`` run when its module is imported: the module's top level,
    or a class body outside any function?"""
    s: Optional[_Scope] = scope
    while s is not None:
        if s.kind == "function":
            return False
        s = s.parent
    return True


def _all_params(ps: cst.Parameters) -> list[cst.Param]:
    out = list(ps.posonly_params) + list(ps.params) + list(ps.kwonly_params)
    if type(ps.star_arg) is cst.Param:
        out.append(ps.star_arg)
    if ps.star_kwarg is not None:
        out.append(ps.star_kwarg)
    return out


def _shape_derived(e: cst.CSTNode) -> bool:
    """``x.shape``, ``x.shape[0]``, ``x.ndim``, ``len(x)``, and arithmetic or
    tuples of those with literals: values that are static under a trace."""
    t = type(e)
    if t is cst.Attribute:
        return e.attr.value in _SHAPE_ATTRS  # type: ignore[attr-defined]
    if t is cst.Subscript:
        return _shape_derived(e.value)  # type: ignore[attr-defined]
    if t is cst.Call:
        return (type(e.func) is cst.Name and e.func.value == "len"  # type: ignore[attr-defined]
                and len(e.args) == 1 and not e.args[0].star)  # type: ignore[attr-defined]
    if t is cst.BinaryOperation:
        sides = (e.left, e.right)  # type: ignore[attr-defined]
        return any(_shape_derived(s) for s in sides) and all(
            _shape_derived(s) or _literal(s)[0] for s in sides)
    if t is cst.UnaryOperation:
        return _shape_derived(e.expression)  # type: ignore[attr-defined]
    if t is cst.Tuple:
        els = [el.value for el in e.elements]  # type: ignore[attr-defined]
        return bool(els) and any(_shape_derived(x) for x in els) and all(
            _shape_derived(x) or _literal(x)[0] for x in els)
    return False


def _reduce(table: dict[str, list[tuple[Json, bool]]]) -> dict[str, Json]:
    """One binding per name: the only one, or the last when every binding is
    unconditional; a name bound in several places, some conditionally, is
    ambiguous (unknown)."""
    out: dict[str, Json] = {}
    for name, entries in table.items():
        if len(entries) == 1 or not any(c for _, c in entries):
            b = dict(entries[-1][0])
        elif all(b == entries[0][0] for b, _ in entries):
            b = dict(entries[0][0])
        else:
            b = {"k": "ambiguous"}
        b.pop("nested", None)
        out[name] = b
    return out


def extract_summary(
    module: cst.Module,
    name: str,
    is_package: bool = False,
) -> Json:
    """The summary of a parsed module named ``name`` (``is_package``: the file
    is a package's ``__init__.py``)."""
    ex = _Extractor(name, is_package)
    top = _Scope("module", "", None)
    ex.stmts(module.body, top, False)
    return ex.result()
