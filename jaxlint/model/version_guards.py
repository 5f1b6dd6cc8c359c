"""Which branch of a version check current JAX takes (the API-history rules).

Code that supports several JAX versions keeps the old API behind a check::

    if hasattr(jax, "tree"):            jax.tree.map(f, x)        # taken today
    else:                               jax.tree_multimap(f, x)   # not taken
    if version.parse(jax.__version__) >= version.parse("0.4.26"): ...
    try: from jax.experimental import optimizers                  # fails today: the probe
    except ImportError: from jax.example_libraries import optimizers

The branch JAX ``CURRENT`` (the JAX the table was checked against) does not take is
*dead* for the deprecation rules: nothing in it is reported.  A check this module cannot
decide (``hasattr(jax, "name")`` for a name the table does not know, a version kept in
an object) keeps the old behaviour: both branches are skipped.

``hasattr(M, "n")`` is decided from the table: a row that says ``M.n`` was removed by
``CURRENT`` makes it false; a replacement the table names (``jax.tree.map``), or a
transformation of ``apis.TRANSFORMS``, makes it true.  Versions compare as Python
compares them: ``jax.__version__ >= "0.4.26"`` compares strings (and is false on
0.10.2, as it is at runtime), ``parse(...)``/``Version(...)`` and
``jax.__version_info__`` compare numbers.

One walk of the file, made only when the file has something to report.
"""

from __future__ import annotations

import re
from typing import Callable, Optional, Union

import libcst as cst

from jaxlint.model import deprecations as D
from jaxlint.model.apis import TRANSFORMS
from jaxlint.model.walk import children, dotted_name

CURRENT = D.CURRENT_JAX
_VERSION_ATTRS = frozenset({"jax.__version__", "jax.version.__version__", "jax.version._version",
                            "jaxlib.__version__", "jaxlib.version.__version__"})
_VERSION_INFO = frozenset({"jax.__version_info__", "jax.version.__version_info__", "jaxlib.version.__version_info__"})
_PARSERS = frozenset({"parse", "Version", "LooseVersion", "StrictVersion", "parse_version"})
_GUARD_EXCEPTIONS = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError", "Exception", "BaseException"})

# ("str", text) | ("num", tuple of ints)
_Version = tuple[str, Union[str, tuple[int, ...]]]


def _numbers(text: str) -> Optional[tuple[int, ...]]:
    m = re.match(r"\s*v?(\d+(?:\.\d+)*)", text)
    return tuple(int(p) for p in m.group(1).split(".")) if m else None


def _known_present() -> frozenset[str]:
    names = {r.new_qualname for r in D.TABLE if r.new_qualname and r.kind in ("name", "module")}
    names |= {".".join(r.import_from) for r in D.TABLE if r.import_from}
    names |= set(TRANSFORMS)
    names |= {"jax.tree", "jax.tree.map", "jax.tree.leaves", "jax.tree.flatten", "jax.tree.unflatten",
              "jax.tree.structure", "jax.tree.reduce", "jax.enable_x64", "jax.shard_map", "jax.set_mesh",
              "jax.typeof", "jax.random.key", "jax.random.key_data", "jax.random.wrap_key_data", "jax.make_mesh",
              "jax.export", "jax.ffi", "jax.debug", "jax.debug.print", "jax.debug.callback", "jax.pure_callback",
              "jax.experimental.io_callback", "jax.clear_caches", "jax.process_count", "jax.process_index",
              "jax.example_libraries", "jax.example_libraries.optimizers", "jax.example_libraries.stax",
              "jax.extend", "jax.sharding", "jax.lax.with_sharding_constraint", "jax.nn.standardize"}
    return frozenset(names)


_PRESENT = _known_present()


def present(qualname: str) -> Optional[bool]:
    """Does ``qualname`` exist in JAX ``CURRENT``?  None when the table cannot say."""
    row = D.lookup(qualname)
    if row is not None and D.removed_by(row, CURRENT):
        return False
    if qualname in _PRESENT or any(p.startswith(qualname + ".") for p in _PRESENT):
        return True
    return None


class Guards:
    """The dead regions of one module: ids of every node in a branch that JAX
    ``CURRENT`` does not take (or that an undecidable check guards), and which
    imports bind each local name (for uses reported through an alias)."""

    def __init__(self, module: cst.Module, resolve: Callable[[str], Optional[str]]) -> None:
        self._resolve = resolve  # dotted text -> qualified name through the file's imports
        self.dead: set[int] = set()
        self.bindings: dict[str, list[bool]] = {}  # local name -> [is the import live?] per import binding it
        self.imported: dict[str, list[str]] = {}  # local name -> the qualified name each of those imports binds ("" unknown)
        self._assigned: dict[str, Optional[cst.BaseExpression]] = {}
        for stmt in module.body:  # module-level `NAME = <version>` (assigned once)
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, cst.Assign) and len(small.targets) == 1 \
                            and isinstance(small.targets[0].target, cst.Name):
                        name = small.targets[0].target.value
                        self._assigned[name] = small.value if name not in self._assigned else None
        self._walk(module)
        self._lost_imports(module)

    # -- the walk -------------------------------------------------------------------------
    def _walk(self, root: cst.CSTNode) -> None:
        stack: list[tuple[cst.CSTNode, bool]] = [(root, False)]
        while stack:
            node, dead = stack.pop()
            if dead:
                self.dead.add(id(node))
            t = type(node)
            if not dead:
                if (t is cst.If or t is cst.IfExp) and self._is_check(node.test):
                    taken = self.evaluate(node.test)  # None: undecided, both branches skipped
                    stack.append((node.test, False))
                    stack.append((node.body, taken is not True))
                    if node.orelse is not None:
                        stack.append((node.orelse, taken is not False))
                    continue
                elif t is cst.BooleanOperation and self._is_check(node.left):
                    # `hasattr(jax, "pxla") and jax.pxla.X`: the right side runs only when
                    # the left one lets it (undecided: skipped, as for an `if`)
                    taken = self.evaluate(node.left)
                    stack.append((node.left, False))
                    if isinstance(node.operator, cst.And):
                        stack.append((node.right, taken is not True))
                    else:
                        stack.append((node.right, taken is not False))
                    continue
                elif t is cst.Try and self._is_probe(node):
                    fails = self._body_fails(node.body)
                    stack.append((node.body, True))
                    for h in node.handlers:
                        stack.append((h, not fails))
                    for extra in (node.orelse, node.finalbody):
                        if extra is not None:
                            stack.append((extra, True))
                    continue
                elif t is cst.Import or t is cst.ImportFrom:
                    self._bind(node, True)
            elif t is cst.Import or t is cst.ImportFrom:
                self._bind(node, False)
            for c in children(node):
                stack.append((c, dead))

    def _bind(self, node: Union[cst.Import, cst.ImportFrom], live: bool) -> None:
        if isinstance(node, cst.ImportFrom) and isinstance(node.names, cst.ImportStar):
            return
        source = ""
        if isinstance(node, cst.ImportFrom) and not node.relative and node.module is not None:
            source = dotted_name(node.module) or ""
        for alias in node.names:  # type: ignore[union-attr]
            full = dotted_name(alias.name) or ""
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            elif isinstance(node, cst.Import):
                local = full.split(".", 1)[0]
                full = local
            else:
                local = alias.name.value if isinstance(alias.name, cst.Name) else ""
            if isinstance(node, cst.ImportFrom):
                full = f"{source}.{full}" if source and full else ""
            if local:
                self.bindings.setdefault(local, []).append(live)
                self.imported.setdefault(local, []).append(full)

    def only_live_import(self, local: str) -> bool:
        """Is ``local`` bound by exactly one import, in code current JAX runs?"""
        b = self.bindings.get(local)
        return b is not None and len(b) == 1 and b[0]

    def live_imports(self, local: str) -> Optional[list[str]]:
        """The qualified names the imports binding ``local`` import, when every one of
        them is in code current JAX runs and names what it imports (``from jax import
        tree_multimap`` then ``from jax.tree_util import tree_multimap``: whichever binds
        the name last, it is that import's name); None otherwise (an import in a dead
        branch or a probe's fallback, a relative import)."""
        b = self.bindings.get(local)
        names = self.imported.get(local)
        if not b or not names or not all(b) or not all(names):
            return None
        return names

    # -- try: the probe whose fallback is not JAX --------------------------------------------
    def _lost_imports(self, module: cst.Module) -> None:
        """A probe whose body fails today on a removed import, and no handler of it (nor of
        a ``try`` around it) imports anything from JAX or rebinds the import's names::

            try:
                from jax.config import config      # fails today: reported
                use_jax = True
            except ImportError:
                import numpy as np; use_jax = False  # NumPy, a flag, a warning, a `raise`

        is no compatibility shim: where JAX is installed, the JAX path is silently lost, and
        the removed import is what the user must change.  Those import statements are live
        (the rest of the body stays dead).  Only when the body goes on to enable JAX after
        the removed import (imports what JAX still has, or sets a flag to ``True``): a
        probe of one optional feature alone (``try: from jax.experimental import
        host_callback as hcb`` / ``except ImportError: hcb = None``) loses nothing else."""
        stack: list[tuple[cst.CSTNode, tuple]] = [(module, ())]
        while stack:
            node, handlers = stack.pop()
            t = type(node)
            if t is cst.FunctionDef or t is cst.ClassDef or t is cst.Lambda:
                handlers = ()
            if t is cst.Try and self._is_probe(node):
                inner = (*handlers, *node.handlers)
                failing = self._failing_imports(node.body)
                if failing and _enables_jax_after(node.body, failing[0]):
                    bound = {n for small in failing for n in _bound_names(small)}
                    if not any(_replaces(h, bound, self._resolve) for h in inner):
                        for small in failing:
                            self._undead(small)
                stack.append((node.body, inner))
                for c in (*node.handlers, node.orelse, node.finalbody):
                    if c is not None:
                        stack.append((c, handlers))
                continue
            for c in children(node):
                stack.append((c, handlers))

    def _undead(self, node: cst.CSTNode) -> None:
        stack = [node]
        while stack:
            n = stack.pop()
            self.dead.discard(id(n))
            stack.extend(children(n))

    @staticmethod
    def _failing_imports(body: cst.BaseSuite) -> list[cst.BaseSmallStatement]:
        """The body's own import statements of something JAX ``CURRENT`` no longer has."""
        out = []
        stmts = body.body if isinstance(body, cst.IndentedBlock) else (body,)
        for stmt in stmts:
            smalls = stmt.body if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) else ()
            for small in smalls:
                for full in _imported(small):
                    row = D.lookup(full)
                    if row is not None and D.removed_by(row, CURRENT):
                        out.append(small)
                        break
        return out

    # -- try: the probe ---------------------------------------------------------------------
    @staticmethod
    def _is_probe(node: cst.Try) -> bool:
        for h in node.handlers:
            if h.type is None:
                return True
            elems = [e.value for e in h.type.elements] if isinstance(h.type, cst.Tuple) else [h.type]
            if any((dotted_name(e) or "").rsplit(".", 1)[-1] in _GUARD_EXCEPTIONS for e in elems):
                return True
        return False

    def _body_fails(self, body: cst.BaseSuite) -> bool:
        """Does the ``try`` body import something JAX ``CURRENT`` no longer has (so
        the handler is what runs)?  Only the body's own import statements are read."""
        stmts = body.body if isinstance(body, cst.IndentedBlock) else (body,)
        for stmt in stmts:
            smalls = stmt.body if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) else ()
            for small in smalls:
                for full in _imported(small):
                    row = D.lookup(full)
                    if row is not None and D.removed_by(row, CURRENT):
                        return True
        return False

    # -- tests ---------------------------------------------------------------------------------
    def _is_check(self, test: cst.BaseExpression) -> bool:
        """A feature or version check (decided or not): `hasattr`, a version comparison."""
        t = type(test)
        if t is cst.BooleanOperation:
            return self._is_check(test.left) or self._is_check(test.right)
        if t is cst.UnaryOperation:
            return self._is_check(test.expression)
        if t is cst.Call:
            if type(test.func) is cst.Name and test.func.value in ("hasattr", "getattr"):
                return True
            return _mentions_version(test)
        if t is cst.Comparison:
            return any(_mentions_version(e) for e in (test.left, *(c.comparator for c in test.comparisons)))
        return _mentions_version(test)

    def evaluate(self, test: cst.BaseExpression) -> Optional[bool]:
        """The test's truth on JAX ``CURRENT``, or None when it cannot be decided."""
        t = type(test)
        if t is cst.BooleanOperation:
            a, b = self.evaluate(test.left), self.evaluate(test.right)
            if isinstance(test.operator, cst.And):
                return False if a is False or b is False else (True if a and b else None)
            return True if a is True or b is True else (False if a is False and b is False else None)
        if t is cst.UnaryOperation and isinstance(test.operator, cst.Not):
            v = self.evaluate(test.expression)
            return None if v is None else not v
        if t is cst.Call and type(test.func) is cst.Name and test.func.value == "hasattr" and len(test.args) == 2:
            obj, name = test.args[0].value, test.args[1].value
            base = dotted_name(obj)
            if base is None or not isinstance(name, cst.SimpleString):
                return None
            q = self._resolve(base)
            if q is None or not q.startswith(("jax.", "jaxlib.")) and q != "jax":
                return None
            return present(f"{q}.{name.evaluated_value}")
        if t is cst.Comparison and len(test.comparisons) == 1:
            left, right = self._version(test.left, 0), self._version(test.comparisons[0].comparator, 0)
            if left is None or right is None or left[0] != right[0]:
                return None
            return _compare(left[1], test.comparisons[0].operator, right[1])
        return None

    def _version(self, e: cst.BaseExpression, depth: int) -> Optional[_Version]:
        """JAX's version (as the running program sees it) or a literal version."""
        t = type(e)
        if t is cst.SimpleString:
            return ("str", e.evaluated_value)  # type: ignore[return-value]
        if t is cst.Tuple:
            nums = []
            for el in e.elements:
                if not isinstance(el.value, cst.Integer):
                    return None
                nums.append(int(el.value.value))
            return ("num", tuple(nums))
        if t is cst.Call and len(e.args) == 1 and e.args[0].keyword is None and not e.args[0].star:
            f = e.func
            fname = f.value if isinstance(f, cst.Name) else f.attr.value if isinstance(f, cst.Attribute) else ""
            if fname in _PARSERS:
                inner = self._version(e.args[0].value, depth)
                if inner is not None and inner[0] == "str":
                    nums = _numbers(inner[1])  # type: ignore[arg-type]
                    return None if nums is None else ("num", nums)
            return None
        if t is cst.Name and depth < 3 and self._resolve(e.value) is None:
            value = self._assigned.get(e.value)
            return None if value is None else self._version(value, depth + 1)
        dotted = dotted_name(e)
        if dotted is not None:
            q = self._resolve(dotted)
            if q in _VERSION_ATTRS:
                return ("str", ".".join(map(str, CURRENT)))
            if q in _VERSION_INFO:
                return ("num", CURRENT)
        return None


def _imported(small: cst.BaseSmallStatement) -> list[str]:
    if isinstance(small, cst.Import):
        return [n for n in (dotted_name(a.name) for a in small.names) if n]
    if isinstance(small, cst.ImportFrom) and not small.relative and small.module is not None \
            and not isinstance(small.names, cst.ImportStar):
        mod = dotted_name(small.module)
        if mod:
            return [mod] + [f"{mod}.{a.name.value}" for a in small.names if isinstance(a.name, cst.Name)]
    return []


def _enables_jax_after(body: cst.BaseSuite, first: cst.BaseSmallStatement) -> bool:
    """Does ``body``, after the statement ``first``, import something current JAX has, or
    set a name to ``True`` (``use_jit = True``)?"""
    seen = False
    stack: list[cst.CSTNode] = [body]
    order: list[cst.CSTNode] = []
    while stack:  # source order
        n = stack.pop()
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        order.append(n)
        stack.extend(reversed(list(children(n))))
    for n in order:
        if n is first:
            seen = True
            continue
        if not seen:
            continue
        if isinstance(n, (cst.Import, cst.ImportFrom)):
            fulls = _imported(n)
            if fulls and fulls[0].split(".", 1)[0] in ("jax", "jaxlib") and not any(
                    (row := D.lookup(f)) is not None and D.removed_by(row, CURRENT) for f in fulls):
                return True
        elif isinstance(n, cst.Assign) and isinstance(n.value, cst.Name) and n.value.value == "True":
            return True
    return False


def _bound_names(small: cst.BaseSmallStatement) -> set[str]:
    """The local names an import statement binds."""
    out = set()
    if isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(small.names, cst.ImportStar):
        for alias in small.names:
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                out.add(alias.asname.name.value)
            elif isinstance(small, cst.Import):
                out.add((dotted_name(alias.name) or "").split(".", 1)[0])
            elif isinstance(alias.name, cst.Name):
                out.add(alias.name.value)
    return out


def _replaces(handler: cst.ExceptHandler, names: set[str], resolve: Callable[[str], Optional[str]]) -> bool:
    """Does the handler fall back on JAX: an import from JAX (``except ImportError: from
    jax.example_libraries import optimizers``), or one of ``names`` rebound to a value
    read from JAX (``config = jax.config``) or defined there (``def config(...)``)?  A
    fallback to NumPy, a flag, a warning, ``optimizers = None`` or a ``raise`` is not."""
    stack: list[cst.CSTNode] = [handler.body]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is cst.FunctionDef or t is cst.ClassDef or t is cst.Lambda:
            if t is not cst.Lambda and n.name.value in names:  # type: ignore[union-attr]
                return True
            continue
        if t is cst.Import or t is cst.ImportFrom:
            if any(full.split(".", 1)[0] in ("jax", "jaxlib") for full in _imported(n)):
                return True
            continue
        if t is cst.Assign:
            for tgt in n.targets:  # type: ignore[union-attr]
                if any(m.value in names for m in _target_names(tgt.target)) and any(
                        (resolve(d) or "").split(".", 1)[0] in ("jax", "jaxlib")
                        for m in walk_names(n.value) for d in (dotted_name(m),) if d):  # type: ignore[union-attr]
                    return True
        stack.extend(children(n))
    return False


def walk_names(e: cst.CSTNode) -> list[cst.BaseExpression]:
    """The outermost names and attribute chains in ``e`` (``jax.config`` once, not ``jax``)."""
    out: list[cst.BaseExpression] = []
    stack = [e]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.Name, cst.Attribute)) and dotted_name(n):
            out.append(n)
            continue
        stack.extend(children(n))
    return out


def _target_names(target: cst.BaseExpression) -> list[cst.Name]:
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [m for el in target.elements for m in _target_names(el.value)]
    return []


def _compare(a, op: cst.BaseCompOp, b) -> Optional[bool]:
    if isinstance(a, tuple):
        n = max(len(a), len(b))
        a, b = a + (0,) * (n - len(a)), b + (0,) * (n - len(b))
    ops = {cst.LessThan: a < b, cst.LessThanEqual: a <= b, cst.GreaterThan: a > b,
           cst.GreaterThanEqual: a >= b, cst.Equal: a == b, cst.NotEqual: a != b}
    return ops.get(type(op))


def _mentions_version(e: cst.BaseExpression) -> bool:
    """`jax.__version__`, `version`, `jax_version`, `parse(jax.__version__)`..."""
    while True:
        t = type(e)
        if t is cst.Name:
            return "version" in e.value.lower()
        if t is cst.Attribute:
            if "version" in e.attr.value.lower():
                return True
            e = e.value
        elif t is cst.Call:
            return any(_mentions_version(a.value) for a in e.args) or _mentions_version(e.func)
        elif t is cst.Subscript:
            e = e.value
        elif t in (cst.Tuple, cst.List):
            return any(_mentions_version(el.value) for el in e.elements)
        else:
            return False


# -- import fallbacks: which binding is live where JAX is installed ------------------------
# A linter for JAX code assumes JAX is installed (and what JAX itself needs):
#     try:                         import jax.numpy as jnp;  HAS_JAX = True
#     except ImportError:          import numpy as jnp;      HAS_JAX = False   # does not run
_INSTALLED_WITH_JAX = frozenset({"jax", "jaxlib", "numpy", "scipy", "ml_dtypes", "opt_einsum"})
# parts of JAX that import more than JAX installs (TensorFlow, Triton...): their import may fail
_NEEDS_MORE = ("jax.experimental", "jax.tools")
_FALLBACK_CAUGHT = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def fallback_handlers_dead(node: cst.CSTNode) -> bool:
    """Do the handlers of ``try`` statement ``node`` never run where JAX is installed?
    True for an import guard: the body only imports JAX or what JAX installs with it
    (NumPy, SciPy) and sets plain constants, none of its imports is an
    API current JAX removed (then the handler is the live path: ``_body_fails``), and
    every handler catches an import failure (``ImportError``, ``ModuleNotFoundError``,
    ``Exception``, or a bare ``except``).  Its ``else`` block runs."""
    if type(node) is not cst.Try or not node.handlers:
        return False
    for h in node.handlers:
        if h.type is not None:
            elems = [e.value for e in h.type.elements] if isinstance(h.type, cst.Tuple) else [h.type]
            if not all((dotted_name(e) or "").rsplit(".", 1)[-1] in _FALLBACK_CAUGHT for e in elems):
                return False
    imports = False
    for stmt in node.body.body:
        if type(stmt) is not cst.SimpleStatementLine:
            return False
        for small in stmt.body:
            t = type(small)
            if t is cst.Import or t is cst.ImportFrom:
                if t is cst.ImportFrom and (small.relative or small.module is None):
                    return False
                fulls = _imported(small)
                if not fulls:
                    return False
                for full in fulls:
                    if full.split(".", 1)[0] not in _INSTALLED_WITH_JAX or full.startswith(_NEEDS_MORE):
                        return False  # (`jax.experimental.jax2tf` needs TensorFlow: it may fail)
                    row = D.lookup(full)
                    if row is not None and D.removed_by(row, CURRENT):
                        return False
                imports = True
            elif t is cst.Assign:
                if not isinstance(small.value, (cst.Name, cst.Integer, cst.SimpleString, cst.Float)):
                    return False
            elif t is not cst.Pass and not (t is cst.Expr and isinstance(small.value, cst.SimpleString)):
                return False
    return imports


def fallback_flags(node: cst.Try) -> frozenset[str]:
    """The names an import guard's body sets to ``True`` (``HAS_JAX = True``): true
    where JAX is installed (call only when ``fallback_handlers_dead(node)``)."""
    out = set()
    for stmt in node.body.body:
        for small in stmt.body:  # type: ignore[attr-defined]
            if type(small) is cst.Assign and type(small.value) is cst.Name and small.value.value == "True":
                out.update(t.target.value for t in small.targets if type(t.target) is cst.Name)
    return frozenset(out)
