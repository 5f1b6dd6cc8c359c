"""Where x64 is on: the file's own switches, its helpers, and what the project says.

JAX's 64-bit mode is a process-wide switch, so whether a line runs with it on is
a fact of the code that *calls* it.  This module answers, for one file:

* which expressions switch x64 on: ``jax.enable_x64()`` (also a project helper
  that returns it, ``def _x64(): return jax.enable_x64()``, a
  ``@contextmanager`` around it, an alias ``X = jax.experimental.enable_x64``),
  ``self.enter_context(<one of those>)``, ``jax.config.update("jax_enable_x64",
  True)`` and a helper that calls it;
* which expressions read the switch: ``jax.config.jax_enable_x64``,
  ``jax.config.read("jax_enable_x64")``, a module constant bound to one
  (``X64 = jax.config.read(...)``), a helper returning one
  (``def x64_enabled(): return jax.config.x64_enabled``);
* which decorators run the code only with x64 on: ``skipUnless(<flag>)``,
  ``pytest.mark.skipif(not <flag>)``, a name bound to one
  (``requires_x64 = pytest.mark.skipif(...)``) or a helper applying one,
  ``@jax.enable_x64()`` used as a decorator, ``with_config(jax_enable_x64=True)``,
  ``pytest.mark.usefixtures("<x64 fixture>")``;
* which pytest fixtures switch it on (a parameter of that name turns x64 on for
  the test; an ``autouse`` one for its module or class);
* which units run with x64 on: guarded ones, the methods of a class whose
  ``setUp`` switches it on, and every function of the file reached (called, or
  handed to a transformation) from code that runs with x64 on, through any number
  of helper calls.  A unit that *may* run with x64 on counts as on: a rule that
  needs x64 off stays silent on it.

Names of other modules come as facts (``FileIndex.imported_x64``: the kind of each
imported name; ``FileIndex.x64_units``: this file's functions called with x64 on
elsewhere; ``FileIndex.x64_imported``: it imports a module that switches x64 on
when imported, ``tests/helpers.py`` with ``jax.config.update(...)`` at its top); the kinds of this file's module-level names and its calls from x64
code to imported functions go out to the project (``jaxlint/engine/project.py``).
All of this is computed only for a file that mentions x64 or was given x64 facts.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Optional, Sequence

import libcst as cst

from jaxlint.model import apis
from jaxlint.model.units import Unit
from jaxlint.model.walk import children, config_update_args, dotted_name, keyword_arg, positional_args, string_value, walk_tree

# kinds of names (module-level, exported to the project)
CM = "cm"  # calling it gives a context manager (or decorator) that switches x64 on
OBJ = "obj"  # it is such a context manager: `with X64_CTX:`
CALL = "call"  # calling it switches x64 on (it runs jax.config.update(...))
FLAG = "flag"  # it reads whether x64 is on
FLAG_FN = "flagfn"  # calling it reads whether x64 is on
SKIP = "skip"  # as a decorator, it runs the code only with x64 on
SKIP_FN = "skipfn"  # calling it gives such a decorator
FIXTURE = "fixture"  # a pytest fixture that switches x64 on
CASE = "case"  # a test class whose setUp switches x64 on (its subclasses' tests run with it)
KINDS = frozenset({CM, OBJ, CALL, FLAG, FLAG_FN, SKIP, SKIP_FN, FIXTURE, CASE})

_ENABLE = frozenset({"jax.enable_x64", "jax.experimental.enable_x64"})
_SKIP_DECORATORS = {"skipUnless": True, "skipIf": False, "skipif": False}
_SETUPS = frozenset({"setUp", "setUpClass", "setup_method", "setup_class", "setup"})
# 64-bit dtypes (and NumPy's aliases of them) no JAX array has with x64 off
_X64_TYPES = frozenset({"float64", "int64", "uint64", "complex128", "double", "cdouble", "longlong", "ulonglong",
                        "float_", "complex_", "int_", "uint"})
_ISSUBDTYPE = frozenset({"jax.numpy.issubdtype", "numpy.issubdtype"})
_DTYPE_CTORS = frozenset({"jax.numpy.dtype", "numpy.dtype"})
_RESULT_TYPE = frozenset({"jax.numpy.result_type", "jax.dtypes.result_type"})


def mentions_x64(text: str) -> bool:
    return "x64" in text or "X64" in text


class X64Model:
    def __init__(self, interp: Any) -> None:
        # ``interp``: the file's Interpreter (its index, imports, qualname), not imported
        # here (it imports this module)
        self.interp = interp
        index = interp.index
        self.imported: dict[str, str] = index.imported_x64
        # the whole file runs with x64 on: the project functions it reaches do too
        packages = interp.settings.project_packages
        self.whole = bool(interp.settings.x64 or index.enables_x64 or index.x64_imported) and bool(packages) and any(
            interp.imports.project_import(name, packages) for name in (*interp.imports.names, *interp.imports.relative))
        # (``whole`` first: when it holds, the facts are not asked whether they are empty)
        self.active = bool(self.whole or self.imported or index.x64_units or index.x64_imported
                           or mentions_x64(interp.text))
        self.kinds: dict[str, str] = {}  # module-level name -> kind
        self.on_units: set[int] = set()  # ids of units that run with x64 on
        self.calls: set[str] = set()  # imported names reached with x64 on (dotted, as written)
        # module-level code calls a helper that switches x64 on, or imports a module
        # that switches it on at import
        self.at_import = index.x64_imported
        if self.active:
            self._classify()
            self._mark_units()

    # -- what an expression is -------------------------------------------------
    def kind(self, e: cst.BaseExpression) -> Optional[str]:
        """The kind of a name (local module-level, or imported from the project)."""
        if isinstance(e, cst.Name):
            return self.name_kind(e.value)
        if isinstance(e, cst.Attribute):
            d = dotted_name(e)
            return self.imported.get(d) if d is not None else None
        return None

    def name_kind(self, name: str) -> Optional[str]:
        k = self.kinds.get(name)
        return k if k is not None else self.imported.get(name)

    def is_flag(self, e: cst.BaseExpression) -> bool:
        """``jax.config.jax_enable_x64``, ``config.x64_enabled``, ``FLAGS.jax_enable_x64``,
        ``jax.config.read("jax_enable_x64")``, ``jax.config.values["jax_enable_x64"]``,
        a name bound to one, a helper returning one: reads whether x64 is on."""
        if not self.active:
            return False
        if isinstance(e, cst.Comparison) and len(e.comparisons) == 1:
            c = e.comparisons[0]
            if isinstance(c.operator, (cst.Is, cst.Equal)) and isinstance(c.comparator, cst.Name) and c.comparator.value == "True":
                return self.is_flag(e.left)
            return False
        if isinstance(e, (cst.Name, cst.Attribute)):
            k = self.kind(e)
            if k is not None:
                return k == FLAG
            last = e.value if isinstance(e, cst.Name) else e.attr.value
            return "x64" in last.lower() and self.interp.qualname(e) not in _ENABLE
        if isinstance(e, cst.Call):
            if isinstance(e.func, cst.Attribute) and e.func.attr.value == "read":
                pos = positional_args(e)
                return bool(pos) and string_value(pos[0].value) == "jax_enable_x64"
            if dotted_name(e.func) == "bool" and len(e.args) == 1:
                return self.is_flag(e.args[0].value)
            return self.kind(e.func) == FLAG_FN
        if isinstance(e, cst.Subscript) and len(e.slice) == 1 and isinstance(e.slice[0].slice, cst.Index):
            return string_value(e.slice[0].slice.value) == "jax_enable_x64"
        return False

    def condition(self, test: cst.BaseExpression, host: Optional[Callable[[cst.BaseExpression], bool]] = None
                  ) -> Optional[bool]:
        """True when ``test`` holds only with x64 on, False when it fails only with
        x64 on (``not <flag>``: its ``else`` runs with x64 on), else None.

        Besides the flag: a JAX array's dtype compared with a 64-bit one
        (``x.dtype == jnp.float64``, ``x.dtype in (jnp.float64, jnp.complex128)``,
        ``jnp.issubdtype(x.dtype, jnp.float64)``, ``str(x.dtype) == "float64"``, a name
        bound once to ``x.dtype``): with x64 off no JAX array has such a dtype, so the
        branch where it holds runs only with x64 on.  ``host(e)``: ``e`` is known to
        be a NumPy value (whose dtype says nothing about x64)."""
        t = type(test)
        if t is cst.UnaryOperation and isinstance(test.operator, cst.Not):
            inner = self.condition(test.expression, host)
            return None if inner is None else not inner
        if t is cst.BooleanOperation:
            left, right = self.condition(test.left, host), self.condition(test.right, host)
            if isinstance(test.operator, cst.And) and True in (left, right):
                return True
            if isinstance(test.operator, cst.Or) and False in (left, right):
                return False
            return None
        if t is cst.Comparison or t is cst.Call:
            d = self._dtype_test(test, host)
            if d is not None:
                return d
        if not self.active:
            return None
        return True if self.is_flag(test) else None

    # -- dtype checks that imply x64 ---------------------------------------------
    def _dtype_test(self, test: cst.BaseExpression, host) -> Optional[bool]:
        if isinstance(test, cst.Comparison):
            if len(test.comparisons) != 1:
                return None
            c = test.comparisons[0]
            op = type(c.operator)
            left, right = test.left, c.comparator
            if op in (cst.Equal, cst.NotEqual, cst.Is, cst.IsNot):
                for a, b in ((left, right), (right, left)):
                    if self.is_dtype_64(b) and self._array_dtype(a, host):
                        return op is cst.Equal or op is cst.Is
                return None
            if op in (cst.In, cst.NotIn) and isinstance(right, (cst.Tuple, cst.List, cst.Set)) and right.elements \
                    and all(self.is_dtype_64(el.value) for el in right.elements) and self._array_dtype(left, host):
                return op is cst.In
            return None
        if isinstance(test, cst.Call):
            # `jnp.issubdtype(x.dtype, jnp.float64)`
            pos = positional_args(test)
            if len(pos) == 2 and self.interp.qualname(test.func) in _ISSUBDTYPE \
                    and self.is_dtype_64(pos[1].value) and self._array_dtype(pos[0].value, host):
                return True
        return None

    def is_dtype_64(self, e: cst.BaseExpression) -> bool:
        """``jnp.float64``, ``np.complex128``, ``"float64"``, ``jnp.dtype("int64")``."""
        s = string_value(e)
        if s is not None:
            return s in apis.X64_DTYPE_STRINGS
        if isinstance(e, cst.Call):
            pos = positional_args(e)
            return len(pos) == 1 and self.interp.qualname(e.func) in _DTYPE_CTORS and self.is_dtype_64(pos[0].value)
        if not isinstance(e, (cst.Name, cst.Attribute)):
            return False
        head, _, attr = (self.interp.qualname(e) or "").rpartition(".")
        return attr in _X64_TYPES and head in ("jax.numpy", "numpy")

    def _array_dtype(self, e: cst.BaseExpression, host, depth: int = 0) -> bool:
        """Is ``e`` the dtype of a value that is not known to be a NumPy one
        (``x.dtype``, ``jnp.result_type(x)``, ``str(x.dtype)``, ``x.dtype.name``, a local
        bound once to one)?"""
        if isinstance(e, cst.Attribute):
            if e.attr.value == "dtype":
                base = e.value
                if host is not None:
                    return not host(base)
                return not (isinstance(base, cst.Call) and (self.interp.qualname(base.func) or "").startswith("numpy."))
            if e.attr.value == "name":  # `x.dtype.name == "float64"`
                return self._array_dtype(e.value, host, depth)
            return False
        if isinstance(e, cst.Call):
            pos = positional_args(e)
            if dotted_name(e.func) == "str" and len(pos) == 1:
                return self._array_dtype(pos[0].value, host, depth)
            return self.interp.qualname(e.func) in _RESULT_TYPE
        if isinstance(e, cst.Name) and host is not None and depth < 2:
            # `dtype = x.dtype` ... `if dtype == jnp.float64:` (a parameter named
            # `dtype` is a request, not an array's dtype: no binding here)
            unit = getattr(self.interp, "unit", None)
            entries = unit.bindings.get(e.value) if unit is not None else None
            if entries and len(entries) == 1 and entries[0][1] is not None and e.value not in _params_of(unit):
                return self._array_dtype(entries[0][1], host, depth + 1)
        return False

    def is_enable(self, e: cst.BaseExpression) -> bool:
        """A context manager that switches x64 on: ``jax.enable_x64()``, a helper
        returning one (``_x64()``), a name bound to one."""
        if not self.active:
            return False
        if isinstance(e, cst.Call):
            q = self.interp.qualname(e.func) or ""
            if q in _ENABLE or (q.startswith("jax.") and q.endswith(".enable_x64")) or self.kind(e.func) == CM:
                pos = positional_args(e)
                return not pos or not (isinstance(pos[0].value, cst.Name) and pos[0].value.value == "False")
            # `flagsaver.flagsaver(jax_enable_x64=True)`, `jtu.global_config_context(jax_enable_x64=True)`
            return _true_keyword(e, "jax_enable_x64")
        return self.kind(e) == OBJ

    def switches_on(self, e: cst.BaseExpression, unit: Optional[Unit] = None) -> bool:
        """A call after which x64 stays on: ``jax.config.update("jax_enable_x64", True)``,
        a helper that makes it, ``self.enter_context(jax.enable_x64())``, a method that
        makes it called on an instance of its class (``Config().apply()``, ``cfg.apply()``
        with ``cfg = Config(...)`` bound once in ``unit``; the class of this file or, as a
        fact, of another module)."""
        if not self.active or not isinstance(e, cst.Call):
            return False
        func = e.func
        if isinstance(func, cst.Attribute) and self._method_kind(func, unit) == CALL:
            return True
        if isinstance(func, cst.Attribute) and func.attr.value == "enter_context":
            pos = positional_args(e)
            return bool(pos) and self.is_enable(pos[0].value)
        if isinstance(func, cst.Attribute) and func.attr.value == "update":
            pos = config_update_args(e)
            if len(pos) >= 2 and string_value(pos[0].value) == "jax_enable_x64":
                # any value but a literal False/0/None may switch it on (`update(..., val)` in a
                # config helper): x64 may be on, and unknown never reports
                v = pos[1].value
                return not (isinstance(v, cst.Name) and v.value in ("False", "None")
                            or isinstance(v, cst.Integer) and v.value == "0")
            return False
        return self.kind(func) == CALL

    def _method_kind(self, func: cst.Attribute, unit: Optional[Unit]) -> Optional[str]:
        """The kind of ``<instance>.method`` where the instance is made by calling a class
        whose method has a kind (``Cls.method``): ``Cls(...).method``, or a name of
        ``unit`` bound once to ``Cls(...)``."""
        recv = func.value
        if isinstance(recv, cst.Name) and unit is not None:
            entries = unit.bindings.get(recv.value)
            if not entries or len(entries) != 1 or recv.value in _params_of(unit):
                return None
            recv = entries[0][1]
        if not isinstance(recv, cst.Call):
            return None
        cls = dotted_name(recv.func)
        if cls is None:
            return None
        key = f"{cls}.{func.attr.value}"
        k = self.kinds.get(key)
        return k if k is not None else self.imported.get(key)

    def skip_decorated(self, decorators: Sequence[cst.Decorator]) -> bool:
        """``@absltest.skipUnless(<x64 flag>, ...)``, ``@unittest.skipIf(not <flag>, ...)``,
        ``@pytest.mark.skipif(not <flag>, ...)``, a name bound to one or a helper
        applying one, ``@jax.enable_x64()``, ``@with_config(jax_enable_x64=True)``,
        ``@pytest.mark.usefixtures("<x64 fixture>")``: the decorated code runs only
        with x64 on."""
        if not self.active:
            return False
        return any(self._x64_decorator(d.decorator) for d in decorators)

    def _x64_decorator(self, dec: cst.BaseExpression) -> bool:
        if isinstance(dec, (cst.Name, cst.Attribute)):
            return self.kind(dec) == SKIP
        if not isinstance(dec, cst.Call):
            return False
        if self.kind(dec.func) == SKIP_FN or self.is_enable(dec):
            return True
        if keyword_arg(dec, "jax_enable_x64") is not None:
            # jtu.with_config(jax_enable_x64=True), flagsaver.flagsaver(jax_enable_x64=True)
            return _true_keyword(dec, "jax_enable_x64")
        name = (dotted_name(dec.func) or "").rsplit(".", 1)[-1]
        if name == "usefixtures":
            return any(self.name_kind(string_value(a.value) or "") == FIXTURE for a in dec.args)
        runs_if = _SKIP_DECORATORS.get(name)
        pos = positional_args(dec)
        if runs_if is None or not pos:
            return False
        cond = self.condition(pos[0].value)
        return cond is not None and cond == runs_if

    def skip_guard(self, s: cst.If, host: Optional[Callable[[cst.BaseExpression], bool]] = None) -> bool:
        """``if not <x64 flag>: ...`` whose body skips the test or leaves
        (``self.skipTest``, ``pytest.skip``, ``raise unittest.SkipTest``, ``return``)."""
        if s.orelse is not None or self.condition(s.test, host) is not False:
            return False
        body = s.body.body
        small = body[-1] if body else None
        if isinstance(small, cst.SimpleStatementLine):
            small = small.body[-1] if small.body else None
        if isinstance(small, (cst.Return, cst.Raise)):
            return True
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            name = dotted_name(small.value.func) or ""
            return name.rsplit(".", 1)[-1] in ("skipTest", "skip", "exit")
        return False

    def unit_on(self, unit: Unit) -> bool:
        return self.active and (id(unit) in self.on_units or self.at_import)

    # -- module-level names ----------------------------------------------------
    def _classify(self) -> None:
        """The kind of each module-level function and name, until they settle
        (one helper may build on another, in any order)."""
        body = self.interp.module.body
        for _ in range(4):
            before = dict(self.kinds)
            for stmt in body:
                if isinstance(stmt, cst.FunctionDef):
                    k = self._function_kind(stmt)
                    if k is not None:
                        self.kinds[stmt.name.value] = k
                elif isinstance(stmt, cst.ClassDef):
                    if self._x64_case(stmt):
                        self.kinds[stmt.name.value] = CASE
                    for inner in stmt.body.body:
                        # a method that switches x64 on for its caller: `Config().apply()`
                        if isinstance(inner, cst.FunctionDef) and inner.name.value not in _SETUPS \
                                and self.body_switches_on(inner.body.body):
                            self.kinds[f"{stmt.name.value}.{inner.name.value}"] = CALL
                elif isinstance(stmt, cst.SimpleStatementLine):
                    for small in stmt.body:
                        if isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is not None:
                            targets = small.targets if isinstance(small, cst.Assign) else [small]
                            k = self._value_kind(small.value)
                            for t in targets:
                                if isinstance(t.target, cst.Name) and k is not None:
                                    self.kinds[t.target.value] = k
            if self.kinds == before:
                break

    def _x64_case(self, node: cst.ClassDef) -> bool:
        """A class whose ``setUp`` (``setUpClass``, ``setup_method``) switches x64 on,
        or that derives from one (of this file or, as a fact, of another module)."""
        if any(self.kind(b.value) == CASE for b in node.bases):
            return True
        for stmt in node.body.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value in _SETUPS:
                if self.body_switches_on(stmt.body.body):
                    return True
        return False

    def _value_kind(self, v: cst.BaseExpression) -> Optional[str]:
        if isinstance(v, (cst.Name, cst.Attribute)):
            if self.interp.qualname(v) in _ENABLE:
                return CM
            k = self.kind(v)
            if k is not None:
                return k
        if isinstance(v, cst.Call):
            fq = self.interp.qualname(v.func)
            if fq in apis.PARTIALS:
                pos = positional_args(v)
                if pos and (self.interp.qualname(pos[0].value) in _ENABLE or self.kind(pos[0].value) == CM):
                    return CM
            if self.is_enable(v):
                return OBJ
            if self._x64_decorator(v):
                return SKIP
        if self.is_flag(v):
            return FLAG
        return None

    def _function_kind(self, fn: cst.FunctionDef) -> Optional[str]:
        decorators = [dotted_name(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator) or ""
                      for d in fn.decorators]
        fixture = any(d.rsplit(".", 1)[-1] == "fixture" for d in decorators)
        body = fn.body.body
        # a body that switches x64 on for its caller (or, for a fixture, its test)
        if self.body_switches_on(body):
            return FIXTURE if fixture else CALL
        for s in body:
            if isinstance(s, cst.With) and any(self.is_enable(i.item) for i in s.items):
                if any(isinstance(n, cst.Yield) for n in _descendants(s.body)):
                    # @contextmanager def x64(): with jax.enable_x64(): yield
                    return FIXTURE if fixture else CM
        for value in _returns(body):
            if value is None:
                continue
            if self.is_enable(value):
                return CM
            if self.is_flag(value):
                return FLAG_FN
            if isinstance(value, cst.Call) and isinstance(value.func, cst.Call) and self._x64_decorator(value.func):
                return SKIP  # def requires_x64(f): return unittest.skipUnless(X64, "...")(f)
            if isinstance(value, cst.Call) and self._x64_decorator(value):
                return SKIP_FN  # def requires_x64(): return pytest.mark.skipif(not X64, ...)
        return None

    # -- units that run with x64 on ---------------------------------------------
    def _mark_units(self) -> None:
        interp = self.interp
        index = interp.index
        by_qualname = {u.qualname: u for u in index.units if not u.is_module}
        # x64 on in every unit (the settings or the file switch it on, and the whole file
        # runs with it): which units the facts name changes no answer (``unit_on`` only
        # sets the walker's ``x64_depth``), so they are not asked (model/factreads.py)
        always = self.whole and bool(interp.settings.x64 or index.enables_x64)
        base: list[Unit] = [] if always else [by_qualname[q] for q in sorted(index.x64_units) if q in by_qualname]
        autouse_module, autouse_classes = self._autouse()
        setup_classes = {id(c) for c in index.classes if self._x64_case(c.node)}
        for unit in index.units:
            if unit.is_module:
                continue
            if self._guarded(unit) or autouse_module or (unit.cls is not None and (
                    id(unit.cls) in setup_classes or id(unit.cls) in autouse_classes)):
                base.append(unit)
            elif any(self.name_kind(p.name) == FIXTURE for p in unit.params):
                base.append(unit)  # a test taking an x64 fixture
        work = []
        for u in base:
            if id(u) not in self.on_units:
                self.on_units.add(id(u))
                work.append(u)
        if self.whole:
            # every unit runs with x64 on: only the project functions they reach matter
            self._block(index.module.body, True, index.module_unit, [])
            for unit in index.units:
                if not unit.is_module:
                    self._scan_unit(unit, True, [])
            return
        # regions of every unit; then the units they reach, until none is added
        for unit in index.units:
            if id(unit) not in self.on_units:
                self._scan_unit(unit, False, work)
        while work:
            unit = work.pop()
            self._scan_unit(unit, True, work)

    def _autouse(self) -> tuple[bool, set[int]]:
        module = False
        classes: set[int] = set()
        for unit in self.interp.index.units:
            node = unit.node
            if not isinstance(node, cst.FunctionDef) or unit.parent is None:
                continue
            if not (unit.parent.is_module or unit.cls is not None):
                continue
            for d in node.decorators:
                dec = d.decorator
                if isinstance(dec, cst.Call) and (dotted_name(dec.func) or "").endswith("fixture"):
                    a = keyword_arg(dec, "autouse")
                    if a is not None and isinstance(a.value, cst.Name) and a.value.value == "True":
                        if self.body_switches_on(node.body.body) or self._function_kind(node) in (FIXTURE, CM, CALL):
                            if unit.cls is not None:
                                classes.add(id(unit.cls))
                            else:
                                module = True
        return module, classes

    def body_switches_on(self, body: Sequence[cst.CSTNode]) -> bool:
        """A statement of ``body`` switches x64 on: at its top, or under an ``if``, ``with``,
        ``try`` or loop of it (``if precision == "double": jax.config.update(...)``): once
        the body has run, x64 may be on (not in a nested ``def`` or ``class``)."""
        if any(isinstance(small, cst.Expr) and self.switches_on(small.value) for small in _smalls(body)):
            return True
        for s in body:
            if not isinstance(s, cst.BaseCompoundStatement) or isinstance(s, (cst.FunctionDef, cst.ClassDef)):
                continue
            for kid in children(s):
                if isinstance(kid, cst.BaseSuite):
                    inner = kid.body
                elif isinstance(kid, (cst.If, cst.ExceptHandler, cst.Else, cst.Finally)) or type(kid).__name__ in (
                        "ExceptStarHandler", "MatchCase"):
                    inner = [kid] if isinstance(kid, cst.If) else kid.body.body
                else:
                    continue
                if self.body_switches_on(inner):
                    return True
        return False

    def _guarded(self, unit: Unit) -> bool:
        """The unit, its class or an enclosing function is decorated to run only
        with x64 on (the module: ``pytestmark = pytest.mark.skipif(...)``)."""
        u: Optional[Unit] = unit
        while u is not None:
            node = u.node
            if isinstance(node, cst.FunctionDef) and self.skip_decorated(node.decorators):
                return True
            if u.cls is not None and self.skip_decorated(u.cls.node.decorators):
                return True
            if u.is_module:
                return self._module_mark()
            u = u.parent
        return False

    _mark: Optional[bool] = None

    def _module_mark(self) -> bool:
        if self._mark is None:
            self._mark = False
            for stmt in self.interp.module.body:
                if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign):
                    a = stmt.body[0]
                    if any(isinstance(t.target, cst.Name) and t.target.value == "pytestmark" for t in a.targets):
                        marks = [el.value for el in a.value.elements] if isinstance(a.value, (cst.List, cst.Tuple)) else [a.value]
                        if self.skip_decorated([cst.Decorator(decorator=m) for m in marks]):
                            self._mark = True
        return self._mark

    def _scan_unit(self, unit: Unit, on: bool, work: list) -> None:
        node = unit.node
        if isinstance(node, cst.Lambda):
            if on:
                self._reach(node.body, unit, work)
            return
        body = node.body if isinstance(node, cst.Module) else node.body.body
        self._block(body, on, unit, work)

    def _block(self, stmts: Iterable[cst.CSTNode], on: bool, unit: Unit, work: list) -> None:
        for s in stmts:
            t = type(s)
            if t is cst.SimpleStatementLine or isinstance(s, cst.BaseSmallStatement):
                # (the small statements of a one-line suite come one by one)
                for small in (s.body if t is cst.SimpleStatementLine else [s]):
                    if on:
                        self._reach(small, unit, work)
                    elif isinstance(small, cst.Expr) and self.switches_on(small.value, unit):
                        if unit.is_module and self.kind(small.value.func) == CALL:  # type: ignore[attr-defined]
                            self.at_import = True
                        on = True  # the rest of the block runs with x64 on
                    elif unit.is_module and self._hands_on_helper(small):
                        # `config.define(..., callback=_update_x64)`: a helper that switches x64
                        # on, handed to code that runs at import, may run then
                        self.at_import = True
            elif t is cst.If:
                if on:
                    self._reach(s.test, unit, work)
                cond = self.condition(s.test)
                self._block(s.body.body, on or cond is True, unit, work)
                orelse = s.orelse
                if orelse is not None:
                    self._block([orelse] if isinstance(orelse, cst.If) else orelse.body.body,
                                on or cond is False, unit, work)
                if self.skip_guard(s):
                    on = True
            elif t is cst.With:
                enabled = False
                for item in s.items:
                    if on:
                        self._reach(item.item, unit, work)
                    enabled = enabled or self.is_enable(item.item)
                self._block(s.body.body, on or enabled, unit, work)
            elif t is cst.FunctionDef or t is cst.ClassDef:
                if on:
                    for d in s.decorators:
                        self._reach(d.decorator, unit, work)
                    self._mark_defs(s, work)
            elif isinstance(s, cst.BaseCompoundStatement):
                if on:
                    for attr in ("test", "iter", "target"):
                        e = getattr(s, attr, None)
                        if e is not None:
                            self._reach(e, unit, work)
                for kid in children(s):
                    if isinstance(kid, cst.BaseSuite):
                        self._block(kid.body, on, unit, work)
                    elif isinstance(kid, (cst.ExceptHandler, cst.Else, cst.Finally)) or type(kid).__name__ in (
                            "ExceptStarHandler", "MatchCase"):
                        self._block(kid.body.body, on, unit, work)

    def _hands_on_helper(self, small: cst.CSTNode) -> bool:
        """Does this module-level statement pass a helper of this file that switches
        x64 on as an argument (a callback, a hook), without calling it here?"""
        for n in _descendants(small):
            if isinstance(n, cst.Arg) and isinstance(n.value, cst.Name) and self.name_kind(n.value.value) == CALL:
                return True
        return False

    def _mark_defs(self, node: cst.CSTNode, work: list) -> None:
        """A function (or class methods) defined where x64 is on runs with it on."""
        unit_of = self.interp.index.unit_of
        for n in (node, *_descendants(node)):
            if isinstance(n, (cst.FunctionDef, cst.Lambda)):
                self._add(unit_of.get(id(n)), work)

    def _add(self, unit: Optional[Unit], work: list) -> None:
        if unit is not None and not unit.is_module and id(unit) not in self.on_units:
            self.on_units.add(id(unit))
            work.append(unit)

    def _reach(self, node: cst.CSTNode, unit: Unit, work: list) -> None:
        """Code that runs with x64 on: the functions it calls or hands on run with it too."""
        unit_of = self.interp.index.unit_of

        def reached(n: cst.CSTNode) -> bool:  # True: what is below ``n`` is settled
            if isinstance(n, cst.Lambda):
                self._add(unit_of.get(id(n)), work)
                return True
            if isinstance(n, cst.Name):
                self._add(unit.lookup_def(n.value), work)
                if self._imported(n.value) and n.value not in unit.assigned:
                    self.calls.add(n.value)
                return True
            if isinstance(n, cst.Attribute):
                d = dotted_name(n)
                if d is not None:
                    head, _, attr = d.partition(".")
                    if head in ("self", "cls") and unit.cls is not None and "." not in attr:
                        m = unit.cls.methods.get(attr)
                        if m is not None:
                            self._add(m, work)
                    elif self._imported(head) and head not in unit.assigned:
                        self.calls.add(d)
                    return True
            return False

        for _ in walk_tree(node, reached):
            pass


    def _imported(self, name: str) -> bool:
        imports = self.interp.imports
        return name in imports.relative or name in imports.names


def _true_keyword(call: cst.Call, name: str) -> bool:
    a = keyword_arg(call, name)
    if a is None:
        return False
    v = a.value
    return isinstance(v, cst.Name) and v.value == "True" or isinstance(v, cst.Integer) and v.value != "0"


def _params_of(unit: Unit) -> set[str]:
    return {p.name for p in unit.params}


def _smalls(body: Sequence[cst.CSTNode]) -> list[cst.CSTNode]:
    """The small statements at the top of a body (of its lines, or a one-line suite)."""
    out: list[cst.CSTNode] = []
    for s in body:
        if isinstance(s, cst.SimpleStatementLine):
            out.extend(s.body)
        elif isinstance(s, cst.BaseSmallStatement):
            out.append(s)
    return out


def _returns(body: Sequence[cst.CSTNode]) -> list[Optional[cst.BaseExpression]]:
    """The values of the ``return`` statements of a function body (not of nested defs)."""
    def leaf(n: cst.CSTNode) -> bool:
        return isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Return, cst.BaseExpression))

    return [n.value for root in reversed(body) for n in walk_tree(root, leaf) if isinstance(n, cst.Return)]


def _descendants(node: cst.CSTNode) -> list[cst.CSTNode]:
    return list(walk_tree(node, with_root=False))


# what JAX's `bool_env` reads as true / false (jax/_src/config.py, case-insensitive)
ENV_TRUE = frozenset({"y", "yes", "t", "true", "on", "1"})
ENV_FALSE = frozenset({"n", "no", "f", "false", "off", "0", ""})
_ENVIRON = frozenset({"os.environ", "environ"})


def env_x64_value(node: cst.CSTNode, qualname: Callable[[cst.CSTNode], Optional[str]]
                  ) -> Optional[cst.BaseExpression]:
    """The value ``node`` gives the environment variable ``JAX_ENABLE_X64``:
    ``os.environ["JAX_ENABLE_X64"] = v``, ``os.environ.setdefault("JAX_ENABLE_X64", v)``,
    ``os.environ.update({"JAX_ENABLE_X64": v})`` or ``os.environ.update(JAX_ENABLE_X64=v)``
    (``environ`` also from ``from os import environ``); else None."""
    t = type(node)
    if t is cst.Assign:
        for tgt in node.targets:  # type: ignore[attr-defined]
            x = tgt.target
            if type(x) is cst.Subscript and _is_environ(x.value, qualname) and len(x.slice) == 1 \
                    and isinstance(x.slice[0].slice, cst.Index) \
                    and string_value(x.slice[0].slice.value) == "JAX_ENABLE_X64":
                return node.value  # type: ignore[attr-defined]
        return None
    if t is not cst.Call:
        return None
    func = node.func  # type: ignore[attr-defined]
    if type(func) is not cst.Attribute or func.attr.value not in ("setdefault", "update") \
            or not _is_environ(func.value, qualname):
        return None
    pos = positional_args(node)  # type: ignore[arg-type]
    if func.attr.value == "setdefault":
        if len(pos) == 2 and string_value(pos[0].value) == "JAX_ENABLE_X64":
            return pos[1].value
        return None
    kw = keyword_arg(node, "JAX_ENABLE_X64")  # type: ignore[arg-type]
    if kw is not None:
        return kw.value
    if len(pos) == 1 and type(pos[0].value) is cst.Dict:
        for el in pos[0].value.elements:
            if type(el) is cst.DictElement and string_value(el.key) == "JAX_ENABLE_X64":
                return el.value
    return None


def _is_environ(e: cst.BaseExpression, qualname: Callable[[cst.CSTNode], Optional[str]]) -> bool:
    return type(e) in (cst.Name, cst.Attribute) and (qualname(e) == "os.environ" or (
        qualname(e) is None and dotted_name(e) in _ENVIRON))


def env_on(v: cst.BaseExpression) -> Optional[bool]:
    """True / False when ``v`` is a string JAX reads as true / false, else None."""
    s = string_value(v)
    if s is None:
        return None
    s = s.lower()
    return True if s in ENV_TRUE else False if s in ENV_FALSE else None


# calls of the array modules that make functions, types or keys, not arrays of a float dtype
_NOT_ARRAYS = frozenset({"PRNGKey", "key", "finfo", "iinfo", "dtype", "vectorize", "frompyfunc"})


def makes_arrays(q: Optional[str]) -> bool:
    """Does a call of ``q`` compute JAX arrays (``jnp.asarray``, ``jnp.sqrt``,
    ``jax.random.normal``)?  Not a dtype query, a key, ``jnp.vectorize`` (a function),
    a class (``lax.GatherDimensionNumbers``) or an initializer factory."""
    if not q or not q.startswith(apis.ARRAY_MODULES) or q in apis.STATIC_RESULT_FUNCS \
            or q.startswith("jax.nn.initializers."):
        return False
    last = q.rsplit(".", 1)[1]
    return last not in _NOT_ARRAYS and not last[:1].isupper()


def main_guard(stmt: cst.CSTNode) -> bool:
    """``if __name__ == "__main__":``"""
    if type(stmt) is not cst.If or type(stmt.test) is not cst.Comparison:
        return False
    left = stmt.test.left
    return type(left) is cst.Name and left.value == "__name__"


def import_time_arrays(module: cst.Module, qualname: Callable[[cst.CSTNode], Optional[str]],
                       switches: Iterable[cst.CSTNode], imported: Callable[[str], bool],
                       ) -> tuple[Optional[str], list[tuple[str, str]]]:
    """What this module's top level runs with JAX when it is imported, before any x64
    switch of its own (not under ``if __name__ == "__main__"``, not in functions or
    classes): the first statement that calls ``jax.numpy``/``jax.lax``/``jax.random``
    (``TODAY = jnp.asarray(13.8)``; not dtype queries nor ``PRNGKey``), as its code, and
    the calls before it of names ``imported`` from the project (``TODAY =
    age_at_z0(*PLANCK15)``), as (name, code): the project says which are jitted."""
    stop = {id(n) for n in switches}
    calls: list[tuple[str, str]] = []
    for stmt in module.body:
        if main_guard(stmt):
            continue
        for part, shown in _run_at_import(stmt):
            code: Optional[str] = None
            for n in walk_tree(part, lambda n: type(n) in (cst.Lambda, cst.FunctionDef, cst.ClassDef)):
                if id(n) in stop:
                    return None, calls
                if type(n) is not cst.Call:
                    continue
                if makes_arrays(qualname(n.func)):
                    return module.code_for_node(shown).strip().splitlines()[0], calls
                name = dotted_name(n.func)
                if name is not None and imported(name.split(".", 1)[0]):
                    code = code or module.code_for_node(shown).strip().splitlines()[0]
                    calls.append((name, code))
    return None, calls


def _run_at_import(stmt: cst.CSTNode) -> Iterable[tuple[cst.CSTNode, cst.CSTNode]]:
    """The parts of a top-level statement that run when the module is imported, each
    with the code that shows it: the statement itself; of a ``def``, its decorators
    and its parameters' defaults (``def __init__(self, scale=jnp.ones(()))``), not
    its body; of a ``class``, its decorators, its bases and its body's statements
    taken the same way (a dataclass field's default ``scale: Array = jnp.ones(())``,
    a method's defaults)."""
    t = type(stmt)
    if t is cst.FunctionDef:
        for d in stmt.decorators:
            yield d.decorator, d
        p = stmt.params
        for param in (*p.posonly_params, *p.params, *p.kwonly_params):
            if param.default is not None:
                yield param.default, param
        return
    if t is cst.ClassDef:
        for d in stmt.decorators:
            yield d.decorator, d
        for a in stmt.bases:
            yield a.value, a
        for a in stmt.keywords:
            yield a.value, a
        body = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else (stmt.body,)
        for inner in body:
            yield from _run_at_import(inner)
        return
    if t is cst.SimpleStatementLine and all(
            type(s) in (cst.Import, cst.ImportFrom, cst.Expr) and (type(s) is not cst.Expr or type(s.value) in (
                cst.SimpleString, cst.ConcatenatedString)) for s in stmt.body):
        return
    if t is cst.SimpleStatementSuite:
        # `class C: x = jnp.ones(3)` on one line: its small statements
        yield stmt, stmt
        return
    yield stmt, stmt


# modules whose use runs other processes: `JAX_ENABLE_X64` set there may be meant for them
_SPAWNERS = ("subprocess", "multiprocessing", "concurrent.futures")
_SPAWN_CALLS = ("os.system(", "os.exec", "os.spawn", "os.popen(", "Popen(")


def relative_module(module: Optional[str], is_package: bool, node: cst.ImportFrom, name: str = "") -> str:
    """``from ..cosmology import TODAY`` in ``pkg.sed.weights``: ``pkg.cosmology.TODAY``
    ("" when the file's module is unknown or the dots climb above it)."""
    if not node.relative or not module:
        return ""
    parts = module.split(".")
    up = len(node.relative) - (1 if is_package else 0)
    if up >= len(parts) or up < 0:
        return ""
    base = parts[:len(parts) - up] if up else parts
    inner = dotted_name(node.module) if node.module is not None else None
    return ".".join([*base, *([inner] if inner else []), *([name] if name else [])])


def _imports_jax(node: cst.CSTNode, module: Optional[str], is_package: bool, jax_imports: dict[str, str]
                 ) -> Optional[str]:
    """Does this import statement import JAX: "" when it names ``jax`` itself, the path
    of the project module that imports it when it names one of ``jax_imports``; else None."""
    names: list[str] = []
    if type(node) is cst.Import:
        names = [dotted_name(a.name) or "" for a in node.names]  # type: ignore[attr-defined]
    elif type(node) is cst.ImportFrom:
        base = relative_module(module, is_package, node) if node.relative else (  # type: ignore[attr-defined]
            dotted_name(node.module) or "" if node.module is not None else "")  # type: ignore[attr-defined]
        if base:
            names = [base]
            if not isinstance(node.names, cst.ImportStar):  # type: ignore[attr-defined]
                names += [f"{base}.{a.name.value}" for a in node.names if type(a.name) is cst.Name]  # type: ignore[attr-defined]
    for n in names:
        if n == "jax" or n.startswith("jax."):
            return ""
    for n in names:
        parts = n.split(".")
        for i in range(len(parts), 0, -1):
            hit = jax_imports.get(".".join(parts[:i]))
            if hit is not None:
                return hit
    return None


def late_env_sets(index: Any, module_name: Optional[str], is_package: bool, text: str,
                  switched: Optional[Callable[[Unit], bool]] = None) -> dict[int, tuple[cst.CSTNode, Optional[cst.CSTNode], str, Optional[Unit]]]:
    """The statements that set ``JAX_ENABLE_X64`` when JAX has read it already, by id:
    (the statement, the import that imported JAX before it or None for the package above
    this module, where JAX comes from: "" for ``import jax`` itself, else the path of the
    project module that imports it, the function setting it or None at module level).

    JAX reads the variable once, when ``jax`` is imported (``jax/_src/config.py``:
    ``bool_state`` calls ``bool_env`` as the option is defined).  At module level: a set
    after an import of ``jax`` or of a project module whose import imports it (a fact,
    ``FileIndex.jax_imports``).  In a function: the module imports JAX at its top level
    (outside the ``__main__`` block), or a package above it does, so the function runs
    after JAX is imported.  Not a function that also calls ``jax.config.update
    ("jax_enable_x64", ...)`` (or, ``switched``, a helper that does), nor a module that runs other processes (``subprocess``,
    ``multiprocessing``, ``os.system``): the variable may be meant for them."""
    out: dict[int, tuple[cst.CSTNode, Optional[cst.CSTNode], str, Optional[Unit]]] = {}
    if not (index.x64_env_late or index.x64_env_early or index.x64_env_fn):
        return out
    jax_imports: dict[str, str] = index.jax_imports
    early = {id(n) for n in index.x64_env_early}
    late = {id(n) for n in index.x64_env_late}
    main_guarded = False
    first: Optional[tuple[cst.CSTNode, str]] = None  # the first import of JAX at the top
    first_now: Optional[tuple[cst.CSTNode, str]] = None  # ... outside the `__main__` block

    def scan(stmts: Sequence[cst.CSTNode], in_main: bool) -> None:
        nonlocal first, first_now, main_guarded
        for s in stmts:
            t = type(s)
            if t is cst.SimpleStatementLine:
                for small in s.body:  # type: ignore[attr-defined]
                    ts = type(small)
                    if ts is cst.Import or ts is cst.ImportFrom:
                        if first_now is None or first is None:
                            via = _imports_jax(small, module_name, is_package, jax_imports)
                            if via is not None:
                                first = first or (small, via)
                                if not in_main:
                                    first_now = first_now or (small, via)
                        continue
                    node = small.value if ts is cst.Expr else small  # type: ignore[attr-defined]
                    if id(node) in late and first is not None:
                        out[id(node)] = (node, first[0], first[1], None)
                    elif id(node) in early and first is not None:
                        out[id(node)] = (node, first[0], first[1], None)
            elif t is cst.If:
                test = s.test  # type: ignore[attr-defined]
                if "TYPE_CHECKING" in (dotted_name(test) or ""):
                    continue
                guard = main_guard(s)
                main_guarded = main_guarded or guard
                scan(s.body.body, in_main or guard)  # type: ignore[attr-defined]
                orelse = s.orelse  # type: ignore[attr-defined]
                if orelse is not None:
                    scan([orelse] if type(orelse) is cst.If else orelse.body.body, in_main)
            elif t in (cst.Try, cst.With) or type(s).__name__ == "TryStar":
                scan(s.body.body, in_main)  # type: ignore[attr-defined]
                for h in getattr(s, "handlers", ()):
                    scan(h.body.body, in_main)
                for extra in (getattr(s, "orelse", None), getattr(s, "finalbody", None)):
                    if extra is not None:
                        scan(extra.body.body, in_main)

    scan(index.module.body, False)
    parent: Optional[str] = None
    if module_name and not main_guarded:
        # a package above this module imports JAX: importing it imports JAX first
        parts = module_name.split(".")
        for i in range(1, len(parts) + (1 if is_package else 0)):
            hit = jax_imports.get(".".join(parts[:i]))
            if hit is not None:
                parent = hit
                break
    if parent is not None:
        for n in index.x64_env_early:
            if id(n) not in out:
                out[id(n)] = (n, None, parent, None)
    if index.x64_env_fn and not any(s in text for s in (*_SPAWNERS, *_SPAWN_CALLS)):
        for n, unit in index.x64_env_fn:
            u: Optional[Unit] = unit
            on = False
            while u is not None and not u.is_module:
                on = on or id(u) in index.x64_config_units or (switched is not None and switched(u))
                u = u.parent
            if on:
                continue
            if first_now is not None:
                out[id(n)] = (n, first_now[0], first_now[1], unit)
            elif parent is not None:
                out[id(n)] = (n, None, parent, unit)
    return out


def _import_names(node: cst.CSTNode, module: Optional[str], is_package: bool) -> list[str]:
    """The absolute modules an import statement names (``from pkg import sub``: ``pkg``
    and ``pkg.sub``, which may be a module)."""
    if type(node) is cst.Import:
        return [n for a in node.names if (n := dotted_name(a.name))]  # type: ignore[attr-defined]
    if type(node) is not cst.ImportFrom:
        return []
    base = relative_module(module, is_package, node) if node.relative else (  # type: ignore[attr-defined]
        dotted_name(node.module) or "" if node.module is not None else "")  # type: ignore[attr-defined]
    if not base:
        return []
    names = [base]
    if not isinstance(node.names, cst.ImportStar):  # type: ignore[attr-defined]
        names += [f"{base}.{a.name.value}" for a in node.names if type(a.name) is cst.Name]  # type: ignore[attr-defined]
    return names


def import_order(module: cst.Module, qualname: Callable[[cst.CSTNode], Optional[str]],
                 switches: Iterable[cst.CSTNode], module_name: Optional[str], is_package: bool,
                 line_of: Callable[[cst.CSTNode], int], keep: Callable[[str], bool] = lambda n: True
                 ) -> dict[str, list]:
    """What this module's top level imports after it has made JAX arrays, and after it
    has imported ``jax``, in program order (the ``if __name__ == "__main__":`` block runs
    last, when the file runs as a script), until a switch of x64 of its own:
    ``{"arrays": [[module, line, code of the statement that made the first arrays]],
    "jax": [[module, line]]}``, and what it imports before each (``"before_arrays"``,
    ``"before_jax"``: a module imported then has run its switch already).  A module whose import switches x64 on
    (``jax.config.update("jax_enable_x64", True)`` at its top) comes too late for the
    arrays made before; one that sets ``JAX_ENABLE_X64`` comes too late once ``jax``
    is imported (JAX reads the variable as it is imported)."""
    stop = {id(n) for n in switches}
    out: dict[str, list] = {}
    made: Optional[str] = None
    jax_in = False
    body = list(module.body)
    tail: list[cst.CSTNode] = []
    for stmt in body:
        if main_guard(stmt):
            tail.extend(stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else ())  # type: ignore[attr-defined]
    for stmt in [s for s in body if not main_guard(s)] + tail:
        if type(stmt) in (cst.FunctionDef, cst.ClassDef):
            parts = list(_run_at_import(stmt))
            imports: list[cst.CSTNode] = []
        else:
            parts = [(stmt, stmt)]
            imports = [n for n in walk_tree(stmt, lambda n: type(n) in (cst.Lambda, cst.FunctionDef, cst.ClassDef))
                       if type(n) in (cst.Import, cst.ImportFrom)]
        for imp in imports:
            names = _import_names(imp, module_name, is_package)
            if any(n == "jax" or n.startswith("jax.") for n in names):
                jax_in = True
                continue
            names = [n for n in names if keep(n)]  # the project's modules
            if not names:
                continue
            line = line_of(imp) if made is not None or jax_in else 0
            if made is not None:
                out.setdefault("arrays", []).extend([n, line, made] for n in names)
            else:
                out.setdefault("before_arrays", []).extend(names)
            if jax_in:
                out.setdefault("jax", []).extend([n, line] for n in names)
            else:
                out.setdefault("before_jax", []).extend(names)
        for part, shown in parts:
            for n in walk_tree(part, lambda n: type(n) in (cst.Lambda, cst.FunctionDef, cst.ClassDef)):
                if id(n) in stop:
                    return out
                if made is None and type(n) is cst.Call and makes_arrays(qualname(n.func)):
                    made = module.code_for_node(shown).strip().splitlines()[0]
    return out
