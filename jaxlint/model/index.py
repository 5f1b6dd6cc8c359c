"""Pass 1: one cheap walk over the whole file.

It resolves imports, finds every function and lambda (a ``Unit``), the classes
that are flax/equinox modules, every place a function is handed to a JAX
transformation (decorators, ``jax.jit(f)``, ``lax.scan(body, ...)``), the
calls between functions of the file, and where x64 is switched on.  From the
transformation sites it decides which units are traced and which of their
parameters are static.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Optional

import libcst as cst

from jaxlint.model import (apis, arg_shapes, custom_rules, dispatch, dual_mode, factreads, gradtrace, holders, instances, keyflow, kinds,
                           module_entries, pytree_methods, pytree_read, pytrees, slots, version_guards)
from jaxlint.model.dimensions import dimension_params
from jaxlint.model.x64 import env_on, env_x64_value
from jaxlint.model.scopes import bound_once, bound_receiver, factory_binding, instance_class, writes
from jaxlint.model.imports import ImportTable
from jaxlint.model.keyflow import initializer_of, key_like_name, key_param_consumed, only_defaulted, rngs_keys
from jaxlint.model.overrides import subclass_overrides
from jaxlint.model.units import MODULE_METHOD, ClassInfo, ParamInfo, Unit, literal_const
from jaxlint.model.walk import (
    arg_at,
    config_update_args,
    bound_names,
    children,
    descendants,
    dotted_name,
    keyword_arg,
    literal_ints,
    literal_strs,
    positional_args,
    string_value,
    walk_tree,
)

_EXCEPT_STAR = getattr(cst, "ExceptStarHandler", None)  # `except* E as err`


# transformations that run eagerly under `jax.disable_jit()` (jit itself, the loop and
# branch primitives: Python control flow over concrete values)
_DISABLED_BY_DISABLE_JIT = frozenset({
    "jax.jit", "jax.pjit", "jax.experimental.pjit.pjit", "equinox.filter_jit", "jax.lax.while_loop",
    "jax.lax.fori_loop", "jax.lax.scan", "jax.lax.cond", "jax.lax.switch", "jax.lax.map",
})


@dataclass
class TransformSite:
    transform: apis.Transform
    qualname: str
    call: Optional[cst.Call]  # None for a bare decorator
    fn_expr: cst.BaseExpression
    scope: Unit  # the unit the site is written in
    seq: int = 0  # statement sequence number where the site is written
    target: Optional[Unit] = None  # decorators: the decorated function itself


def _traces(qualname: Optional[str]) -> bool:
    """Does the transformation ``qualname`` trace the function it gets (jit, vmap, scan:
    abstract tracers), rather than call it with concrete ones (grad alone)?  None: no."""
    if qualname is None:
        return False
    t = apis.transform_for(qualname) or slots.slot_for(qualname)
    return t is None or t.traces


def _listed_functions(scope: Unit, fn: cst.BaseExpression) -> list:
    """The functions of a tuple/list bound once to the name ``fn`` (here or, unbound here,
    in an enclosing scope) and given where a transformation takes a list of functions
    (``BRANCHES = [f0, f1]`` ... ``lax.switch(i, BRANCHES, x)``), every item a name or a
    dotted name; [] otherwise (a loop variable: ``_loop_functions``)."""
    if type(fn) is not cst.Name or fn.value in scope.loop_iters:
        return []
    found = scope.binding_for(fn.value, 1 << 30)  # (None for a parameter: it shadows)
    if found is None or len(found[0].bindings[fn.value]) != 1:
        return []
    seq = found[1][1]
    if type(seq) not in (cst.List, cst.Tuple) or not seq.elements:
        return []
    out = []
    for el in seq.elements:
        if type(el) is cst.StarredElement or type(el.value) not in (cst.Name, cst.Attribute):
            return []
        out.append(el.value)
    return out


@dataclass
class ExternalSite:
    """A transformation applied here to a function of another module
    (``jax.jit(losses.loss_fn, static_argnums=1)``): a fact for that module."""

    callee: str  # the function expression as written (``losses.loss_fn``, ``U.warmup``)
    transform: str  # the transformation's qualified name
    scope: str  # the qualname of the function it is written in ("" at module level)
    node: cst.CSTNode  # where it is written (for the line in messages)
    reason: str  # "wrapped by jax.jit"
    static_pos: Optional[tuple[int, ...]]  # None: declared static, but not as literals
    static_names: Optional[tuple[str, ...]]
    n_bound: int = 0
    kw_bound: tuple[str, ...] = ()
    unbatched_pos: tuple[int, ...] = ()
    kw_given: tuple[str, ...] = ()  # bound by `partial(f, k=v)` to a value that is not None
    # applied at once (`jit(grad(mod.f))(a, b, x)`): the positions of the call that pass
    # arrays (JAX or NumPy: jit makes them JAX arrays), set by the walk (model/calls.py)
    array_pos: tuple[int, ...] = ()
    # ... and the pytree class records (model/pytrees.py) of what those positions pass
    # (`jax.jit(bg.distance)(cosmo, a)`): {position: flat record}; None where two disagree
    class_pos: dict = field(default_factory=dict)
    # the function is what a factory of that module returned (`step = make_step(3)`,
    # then `jax.jit(step)`): ``callee`` names the factory
    returned: bool = False
    written: str = ""  # the name the transformation is given (for the line), when returned
    # ``callee`` is the dotted name as written, no instance's class put in its place
    # (``jax.jit(algos.DQN.train)``): a classmethod reached so has its ``cls`` bound
    as_written: bool = False


@dataclass
class FileIndex:
    module: cst.Module
    imports: ImportTable
    module_unit: Unit
    units: list[Unit] = field(default_factory=list)
    unit_of: dict[int, Unit] = field(default_factory=dict)  # id(def/lambda node) -> unit
    classes: list[ClassInfo] = field(default_factory=list)
    sites: list[TransformSite] = field(default_factory=list)
    call_edges: dict[int, set[int]] = field(default_factory=dict)  # caller unit id -> callee ids
    used_classes: frozenset = frozenset()  # module classes other modules use (facts)
    custom_rules: dict = field(default_factory=dict)  # id(rule unit) -> custom_rules.Rule
    x64_nodes: list[cst.CSTNode] = field(default_factory=list)  # where x64 gets enabled
    # x64 is enabled by a statement of the module body itself (runs at import)
    x64_at_import: bool = False
    # the file may switch x64 on when it runs: `jax.config.update("jax_enable_x64", v)` in
    # a function with a value that is not literally off (`True`, a flag, a parameter), or
    # in the module body with a value from a flag; `os.environ["JAX_ENABLE_X64"] = <not
    # off>` in a function, or in the module body with a value that is not a literal
    x64_switch: bool = False
    # module-level names assigned more than once (for the stale-global rule)
    module_assignments: dict[str, list[cst.CSTNode]] = field(default_factory=dict)
    # `try` statements whose handlers do not run where JAX is installed (an import guard:
    # model/version_guards.fallback_handlers_dead): the walk discards what they bind
    dead_handlers: set[int] = field(default_factory=set)
    # pytree classes defined at module level here: name -> record (model/pytrees.py)
    pytree_records: dict[str, dict] = field(default_factory=dict)
    # classes of other modules this file names (facts): name as written -> flat record
    imported_classes: dict[str, dict] = field(default_factory=dict)
    _flat: dict = field(default_factory=dict)
    _pallas: Optional[bool] = None  # imports_pallas, computed once
    # keys the same on every shard of a shard_map (model/keyflow.replicated_keys), computed once
    replicated_keys: Optional[dict] = None
    # transformations of functions defined in other modules (facts for those modules)
    external_sites: list[ExternalSite] = field(default_factory=list)
    # `jax.vmap(agent.update)` with `agent` a parameter: (scope qualname, parameter) -> the
    # method names transformed; the callers' instance kinds name the class (apply_facts)
    param_methods: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    # a function's parameters whose methods it calls (`module.get_params(p)`): the
    # instance kinds its callers pass there name the class (model/walker.py)
    param_receivers: dict[int, set[str]] = field(default_factory=dict)
    # jitted functions of other modules imported here by name: name -> declaration
    # (``jaxlint/project/facts.py``; ``model/jit_calls.py`` answers calls to them)
    imported_jits: dict[str, dict] = field(default_factory=dict)
    # functions of other modules imported here by name that consume a key argument:
    # name -> {"params": [[name, kind, index], ...], "consumes": {param: sampler}}
    imported_key_consumers: dict[str, dict] = field(default_factory=dict)
    # the file calls an initializer factory that draws (`lecun_normal()`): only then can a
    # call's callee hold such an initializer (keyflow.initializer_of)
    makes_initializers: bool = False
    # imported functions that advance a module-global key (model/keystate.py): name -> the
    # key, or [the key, the table keys that pick the advancing function]
    imported_key_state: dict[str, object] = field(default_factory=dict)
    # functions of other modules imported here by name that return a new function per call
    imported_factories: frozenset[str] = frozenset()
    # functions imported from the project that return a new jitted function per call
    imported_jit_factories: frozenset[str] = frozenset()
    # functions of other modules imported here whose every return has one kind
    # (model/kinds.py: a key, keys, a JAX array, a host NumPy array): name -> kind
    imported_returns: dict[str, str] = field(default_factory=dict)
    # functions of other modules that run a Pallas kernel with no derivative rule
    # (model/nograd.py's applies_kernel), as this file writes them
    imported_kernels: frozenset[str] = frozenset()
    # imported names (as written) of context managers of other modules that time the
    # block they wrap (model/timers.py)
    imported_timers: frozenset[str] = frozenset()
    # imported static/class methods (as written: ``FactorGraph.make``) that build an
    # instance of their class (model/dispatched.py)
    imported_constructors: frozenset[str] = frozenset()
    # classes of other modules whose `__init__` stores parameters as they are
    # (model/instances.py, ``stored_parameters``): name as written -> the record
    imported_stored: dict[str, dict] = field(default_factory=dict)
    # classes of other modules -> the methods an attribute access on an instance binds
    # anew (model/instances.py, ``bound_methods``): name as written -> sorted names
    imported_methods: dict[str, list] = field(default_factory=dict)
    # names (`MODE_TRAIN`, `common_types.MODE_TRAIN`) another module of the project binds
    # to a str/int/float/bool literal: name as written -> "str"/"int"/"float"/"bool"
    imported_consts: dict[str, str] = field(default_factory=dict)
    # imported names -> what the defining module knows of their value: ``{"int": 500}``
    # for an integer constant, ``{"shape": [3, 4]}`` for a function whose every return is
    # an array of that shape (model/evaluation.py, engine/project.py)
    imported_values: dict[str, dict] = field(default_factory=dict)
    # functions of other modules that hand a parameter to a transformation (facts ``takes_fns``)
    imported_takes_fns: dict = field(default_factory=dict)
    # module-level names bound to a jit whose static parameters calls in other modules
    # give unhashable values: name -> {param: [[kind, path], ...]} (JAX207)
    static_given_bound: dict = field(default_factory=dict)
    # functions of other modules that hand a parameter to a static parameter of one of
    # their module's jits (facts ``static_sinks``, engine/project.py): name as written ->
    # {"params": [...], "sinks": {param: [jit, its param, its label]}, "when": {...}}
    imported_static_sinks: dict = field(default_factory=dict)
    # module-level `NAME = Cls(...)` with `Cls` a class of this file: NAME -> "Cls"
    # (candidates only: ``constants.instance_class`` checks the name is bound once)
    instances: dict[str, str] = field(default_factory=dict)
    # `os.environ["JAX_ENABLE_X64"] = "1"` after `import jax`: JAX has read it already
    x64_env_late: list[cst.CSTNode] = field(default_factory=list)
    # ... set to a true value at module level before any `import jax` (x64 on at import)
    x64_env_early: list[cst.CSTNode] = field(default_factory=list)
    # ... set (to a value not known to be off) in a function: (statement, its unit)
    x64_env_fn: list[tuple[cst.CSTNode, Unit]] = field(default_factory=list)
    # units whose own body calls `jax.config.update("jax_enable_x64", v)`, v not literally off
    x64_config_units: set[int] = field(default_factory=set)
    # names imported from the project that switch x64 on, read it or skip without it:
    # name (or dotted ``mod.name``) -> kind (``model/x64.py``)
    imported_x64: dict[str, str] = field(default_factory=dict)
    # qualnames of this file's functions that other modules run with x64 on
    x64_units: frozenset[str] = frozenset()
    # what the project as a whole shows (project/driver.py): ``grad_free``, no file of a
    # project linted whole names a derivative or a library that consumes gradients
    project_facts: dict = field(default_factory=dict)
    # a module it imports switches x64 on when imported (`jax.config.update(...)` at its top)
    x64_imported: bool = False
    # qualnames of its public functions that the project reaches only from code no
    # derivative reaches (a test or notebook that only calls them; project/facts.py)
    # one of the project modules it imports switches x64 on when imported
    x64_by_import: bool = False
    # project modules it imports whose import makes JAX arrays while x64 is off ->
    # where ("path: statement"; project/facts.py _arrays_at_import)
    arrays_imports: dict[str, str] = field(default_factory=dict)
    # the project modules this file imports (and the packages above it) whose import
    # imports JAX: module -> the path of the module that imports it (a fact, told to a
    # file that sets `JAX_ENABLE_X64`)
    jax_imports: dict[str, str] = field(default_factory=dict)
    # this module switches x64 on at import, and another imports it too late: "arrays":
    # [path, line, code] after that one made JAX arrays; "jax": [path, line] after it
    # imported jax (for `JAX_ENABLE_X64`; project/facts.py _late_importers)
    x64_late: dict[str, list] = field(default_factory=dict)
    # ids of calls whose result is called at once (`jax.vmap(f)(keys)`)
    called_now: set[int] = field(default_factory=set)
    # id of a call applying a transformation at once (`jax.jit(f)(x, n)`) -> the function
    # it traces (with the arguments bound before the call's), or the site of another module's
    applied_units: dict[int, tuple[Unit, int]] = field(default_factory=dict)
    applied_sites: dict[int, ExternalSite] = field(default_factory=dict)
    # module-level classes whose methods call a method of `self.<attr>`: class -> attrs
    # (the `__init__` parameters stored there want the instance kinds of their callers)
    attr_receivers: dict[str, set[str]] = field(default_factory=dict)
    # holders of a function of this file (`f = hk.transform(forward)`, a GradientTransformation):
    # id of the bound value (or of the decorated def) -> attribute -> what it runs (model/holders.py)
    held: dict[int, dict[str, "holders.HeldFunction"]] = field(default_factory=dict)

    def held_function(self, expr: cst.BaseExpression, scope: Unit, seq: int = 1 << 30
                      ) -> Optional["holders.HeldFunction"]:
        """The function of this file that ``expr`` (``f.apply``, ``tx.update``) runs when
        its name is bound to a holder of one, or when it is the method of a holder built
        in place (``Model(...).apply``); None when unknown."""
        if not self.held or not isinstance(expr, cst.Attribute):
            return None
        if isinstance(expr.value, cst.Call):
            return self.held.get(id(expr.value), {}).get(expr.attr.value)
        if not isinstance(expr.value, cst.Name):
            return None
        found = scope.binding_for(expr.value.value, seq)
        if found is None:
            return None
        holder, (_, value) = found
        if value is None:
            d = holder.defs.get(expr.value.value)
            key = id(d.node) if d is not None else 0
        else:
            key = id(value)
        return self.held.get(key, {}).get(expr.attr.value)

    @property
    def imports_pallas(self) -> bool:
        """Does this module import JAX's Pallas (``jax.experimental.pallas``, ``...pallas.tpu``)?
        Its kernels take Refs annotated ``jax.Array`` and write them in place."""
        got = self._pallas
        if got is None:
            got = self._pallas = any(q == "jax.experimental.pallas" or q.startswith("jax.experimental.pallas.")
                                     for q in self.imports.names.values())
        return got

    @property
    def enables_x64(self) -> bool:
        return bool(self.x64_nodes)

    def pytree_class(self, written: Optional[str]) -> Optional["pytrees.PyClass"]:
        """The pytree class a name (as written here) denotes, flattened through its
        bases (here, in other modules, in libraries); None when unknown."""
        if written is None:
            return None
        if written in self._flat:
            return self._flat[written]
        self._flat[written] = None  # a cycle of bases resolves to nothing
        flat = self._flat_record(written)
        cls = pytrees.PyClass(flat) if flat is not None and flat.get("reg") else None
        self._flat[written] = cls
        return cls

    def class_hash(self, written: Optional[str]) -> Optional[dict]:
        """How instances of a class of another module of the project hash (its record's
        ``hash``, model/hashing.py), a pytree or not; None when unknown."""
        if written is None:
            return None
        rec = self.imported_classes.get(written)
        if rec is None:
            cls = self.pytree_class(written)
            rec = cls.flat if cls is not None else None
        return rec.get("hash") if rec is not None else None

    def flat_class(self, flat: dict) -> Optional["pytrees.PyClass"]:
        """The class of a field's flat record (one object per record)."""
        seen = self._flat.get(("id", id(flat)))
        if seen is not None and seen[0] is flat:
            return seen[1]
        key = ("flat", json.dumps(flat, sort_keys=True))  # the same class from two facts: one object
        got = self._flat.get(key)
        if got is None and flat.get("reg"):
            got = self._flat[key] = pytrees.PyClass(flat)
        self._flat[("id", id(flat))] = (flat, got)
        return got

    def _flat_record(self, written: str) -> Optional[dict]:
        rec = self.pytree_records.get(written)
        if rec is not None:
            def base_of(b: str) -> Optional[dict]:
                c = self.pytree_class(b)
                return c.flat if c is not None else None
            return pytrees.resolve(rec, base_of)
        if written in self.imported_classes:
            return self.imported_classes[written]
        if written in pytrees.LIBRARY_CLASSES:
            return pytrees.LIBRARY_CLASSES[written]
        q = self.imports.resolve_dotted(written)
        return pytrees.LIBRARY_CLASSES.get(q) if q is not None else None


_X64_OFF_VALUES = {"", "0", "false", "False", "FALSE", "no"}


def main_guard(test: cst.BaseExpression) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, cst.Equal)):
        return False
    sides = (test.left, test.comparisons[0].comparator)
    return any(isinstance(a, cst.Name) and a.value == "__name__" for a in sides) \
        and any(string_value(a) == "__main__" for a in sides)


def _literally_off(v: cst.BaseExpression) -> bool:
    """``False``, ``None``, ``0``, ``"0"``, ``"false"``: a value that switches x64 off."""
    if isinstance(v, cst.Name):
        return v.value in ("False", "None")
    if isinstance(v, cst.Integer):
        return v.value == "0"
    s = string_value(v)
    return s is not None and s in _X64_OFF_VALUES


def _all_subclasses(base: type) -> set[type]:
    out, todo = set(), [base]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in out:
                out.add(sub)
                todo.append(sub)
    return out


_STATEMENT_TYPES = frozenset(
    _all_subclasses(cst.BaseSmallStatement) | _all_subclasses(cst.BaseCompoundStatement)
)


class Indexer:
    def __init__(self, module: cst.Module) -> None:
        self.imports = ImportTable()
        mod_unit = Unit(node=module, name="<module>", qualname="<module>", parent=None)
        self.index = FileIndex(module=module, imports=self.imports, module_unit=mod_unit)
        self.index.units.append(mod_unit)
        self.index.unit_of[id(module)] = mod_unit
        self._pending_calls: list[tuple[Unit, cst.Call]] = []
        # `recv.attr` read in a function (a name's attribute): a property it may run
        self._attr_reads: list[tuple[Unit, str, str]] = []
        # calls through two or more attributes of a name (`pkg.optimizer.Sgd(f)`): a function of a
        # submodule a package binds, for the facts of other modules (``takes_fns``)
        self._dotted_calls: list[tuple[Unit, cst.Call]] = []
        # calls written `<receiver>.<name>(...)`, by method name (for module helper methods)
        self._method_calls: dict[str, list[tuple[Unit, cst.Call]]] = {}
        self._applied_initializer_calls: list[tuple[Unit, cst.Call]] = []
        self._dispatch_calls: list[tuple[Unit, cst.Call]] = []
        # `make_op(2.0)(x)`, `jax.tree.map(fn, tree)`: the function run (call edges)
        self._factory_calls: list[tuple[Unit, cst.Call]] = []
        # registration calls naming a class: class name -> [(qualified function, call)]
        self._reg_calls: dict[str, list[tuple[str, cst.Call]]] = {}
        self._class_stack: list[ClassInfo] = []
        self._seq = 0  # statement counter (source order)
        # id of a call whose result is called at once -> that call (`jax.vmap(f)(xs, 3)`)
        self._applied: dict[int, cst.Call] = {}
        self._jax_imported = False  # a module-level `import jax...` seen so far
        # a transformation applied to a parameter (`def fit(loss_fn): jax.jit(jax.grad(loss_fn))`):
        # (the function, the parameter, the site); what its callers pass is transformed
        self._param_sites: list[tuple[Unit, str, TransformSite]] = []
        # a def decorated by a function of the project, not by a transformation (`@compiled`):
        # the decorator applied to the def, as the call `compiled(step)` it stands for
        # (`decorator_call`); the decorated unit of each such call
        self._decorations: list[tuple[Unit, cst.Call]] = []
        self._decorated: dict[int, Unit] = {}
        # `@compiled()` of a local factory: (scope, the factory's name, the decorated def)
        self._decorator_factories: list[tuple[Unit, str, Unit]] = []
        # transformation sites of a method of a parameter (`jax.jit(agent.update)`), waiting
        # for the instance kind the callers pass (apply_facts)
        self._method_sites: list[tuple[TransformSite, int, frozenset[str], str, Optional[int], str]] = []
        # (functions handed to a transformation in the file; parameters some site
        # transforms on every path)
        self._transformed_ids: Optional[set[int]] = None
        self._disabled_calls: Optional[set[int]] = None  # calls inside `with jax.disable_jit():`
        self._always: set[tuple[int, str]] = set()
        self._fallback_imports: set[int] = set()  # imports that do not run where JAX is installed
        self._jax_flags: frozenset[str] = frozenset()  # `HAS_JAX = True` in an import guard
        self._main_ids: set[int] = set()  # calls in the module's `if __name__ == "__main__":` block

    # -- qualified names ------------------------------------------------------
    def qualname(self, expr: cst.CSTNode) -> Optional[str]:
        return self.imports.resolve_expr(expr)

    # -- the walk ---------------------------------------------------------------
    def run(self) -> FileIndex:
        module = self.index.module
        self._walk_block(module, self.index.module_unit)
        self.imports.settle(module, self._fallback_imports)
        self._pytree_records()
        self._resolve()
        self._settle_key_consumers()
        self._find_factories()
        return self.index

    def _walk_block(self, node: cst.CSTNode, unit: Unit) -> None:
        stack: list[cst.CSTNode] = list(children(node))
        stack.reverse()
        while stack:
            n = stack.pop()
            t = type(n)
            if t in _STATEMENT_TYPES:
                self._seq += 1
            if t is cst.FunctionDef:
                self._function(n, unit)
                continue
            if t is cst.Lambda:
                self._lambda(n, unit)
                continue
            if t is cst.ClassDef:
                self._class(n, unit)
                continue
            if t is cst.Import:
                self.imports.add_import(n, id(n) in self._fallback_imports)
                self._note_jax_import(n, unit)
                continue
            if t is cst.ImportFrom:
                self.imports.add_import_from(n, id(n) in self._fallback_imports)
                self._note_jax_import(n, unit)
                continue
            if t is cst.Try or t is cst.If:
                self._import_fallbacks(n)
                if t is cst.If and unit.is_module and main_guard(n.test):
                    # `if __name__ == "__main__":` runs when the file is run as a script,
                    # never when it is imported
                    self._main_ids.update(id(c) for c in walk_tree(n.body) if type(c) is cst.Call)
            if t is cst.Call:
                self._call(n, unit)
            elif t is cst.Name:
                continue
            elif t is cst.Attribute and type(n.value) is cst.Name and not unit.is_module:
                self._attr_reads.append((unit, n.value.value, n.attr.value))
            elif t is cst.Assign:
                for tgt in n.targets:
                    self._assigned(tgt.target, unit, n)
                    if isinstance(tgt.target, cst.Name):
                        unit.bindings.setdefault(tgt.target.value, []).append((self._seq, n.value))
                self._x64_env(n, unit)
            elif t is cst.AugAssign or t is cst.AnnAssign:
                self._assigned(n.target, unit, n)
            elif t is cst.For or t is cst.CompFor:
                self._assigned(n.target, unit, n)
                if isinstance(n.target, cst.Name):
                    unit.loop_iters.setdefault(n.target.value, []).append(n.iter)
                if t is cst.For:
                    _note_loop_parts(unit, n, n)
            elif t in _COMPREHENSIONS:
                # the comprehension holds the element its `for` clauses bind names for
                c = n.for_in
                while c is not None:
                    _note_loop_parts(unit, c, n)
                    c = c.inner_for_in
            elif t is cst.Global:
                unit.global_names.update(a.name.value for a in n.names)
            elif t is cst.Nonlocal:
                unit.nonlocal_names.update(a.name.value for a in n.names)
            elif t is cst.Yield:
                unit.is_generator = True
            elif t is cst.Return:
                unit.returns.append(n.value)
            elif t is cst.With:
                for item in n.items:
                    if item.asname is not None:
                        self._assigned(item.asname.name, unit, n)
                if any(isinstance(item.item, cst.Call) and self.qualname(item.item.func) in apis.COMPILE_TIME_EVAL
                       for item in n.items):
                    unit.eager_returns.update(id(r.value) for r in _own_returns(n.body))
            elif t is cst.NamedExpr:
                self._assigned(n.target, unit, n)
            elif t is cst.ExceptHandler or t is _EXCEPT_STAR:
                if n.name is not None:  # `except E as err`: binds `err`
                    self._assigned(n.name.name, unit, n)
            elif t is cst.MatchAs or t is cst.MatchStar:
                if n.name is not None:  # `case (i, k):`, `case [*rest]`: capture names
                    self._assigned(n.name, unit, n)
            elif t is cst.MatchMapping:
                if n.rest is not None:  # `case {"a": 1, **rest}`
                    self._assigned(n.rest, unit, n)
            kids = list(children(n))
            kids.reverse()
            stack.extend(kids)

    def _property_edges(self) -> None:
        """``self.Omega``, ``cosmo.k`` (a parameter's attribute) naming a property of a
        class of this file: the property may run there (model/pytree_methods.py), so it
        is analysed after the function reading it."""
        props: dict[str, list[Unit]] = {}
        for c in self.index.classes:
            for name, m in c.methods.items():
                if pytree_methods.is_property(m):
                    props.setdefault(name, []).append(m)
        if not props:
            return
        edges = self.index.call_edges
        for unit, recv, attr in self._attr_reads:
            found = props.get(attr)
            if found is None:
                continue
            if recv == "self" and unit.cls is not None:
                m = unit.cls.method(attr)
                targets = [m] if m is not None else []
            elif unit.param(recv) is not None:
                targets = found
            else:
                continue
            for m in targets:
                if m is not unit:
                    edges.setdefault(id(unit), set()).add(id(m))

    def _import_fallbacks(self, n: cst.CSTNode) -> None:
        """An import guard (``try: import jax.numpy as jnp`` / ``except ImportError:
        import numpy as jnp``; ``if HAS_JAX: ... else: ...`` on its flag): the imports of
        the path that does not run where JAX is installed only fill names nothing else
        binds; the walk discards what the dead handlers bind (``FileIndex.dead_handlers``)."""
        dead: list[cst.CSTNode] = []
        if type(n) is cst.Try:
            if not version_guards.fallback_handlers_dead(n):
                return
            self.index.dead_handlers.add(id(n))
            self._jax_flags |= version_guards.fallback_flags(n)
            dead.extend(n.handlers)
        elif self._jax_flags:
            test = n.test
            negated = type(test) is cst.UnaryOperation and type(test.operator) is cst.Not
            if negated:
                test = test.expression
            if type(test) is not cst.Name or test.value not in self._jax_flags:
                return
            if negated:
                dead.append(n.body)
            elif n.orelse is not None:
                dead.append(n.orelse)
        for block in dead:
            for d in descendants(block):
                if type(d) is cst.Import or type(d) is cst.ImportFrom:
                    self._fallback_imports.add(id(d))

    def _assigned(self, target: cst.CSTNode, unit: Unit, stmt: cst.CSTNode) -> None:
        for name in bound_names(target):
            unit.assigned.add(name.value)
            if unit.is_module:
                self.index.module_assignments.setdefault(name.value, []).append(stmt)

    def _params(self, params: cst.Parameters) -> list[ParamInfo]:
        out: list[ParamInfo] = []
        idx = 0
        for p in params.posonly_params:
            out.append(self._param(p, "posonly", idx))
            idx += 1
        for p in params.params:
            out.append(self._param(p, "pos", idx))
            idx += 1
        if isinstance(params.star_arg, cst.Param):
            out.append(self._param(params.star_arg, "vararg", None))
        for p in params.kwonly_params:
            out.append(self._param(p, "kwonly", None))
        if params.star_kwarg is not None:
            out.append(self._param(params.star_kwarg, "kwarg", None))
        return out

    def _param(self, p: cst.Param, kind: str, idx: Optional[int]) -> ParamInfo:
        ann = None
        ann_class = None
        if p.annotation is not None:
            ann_class = pytree_read.ref(pytree_read.annotation_node(p.annotation.annotation, self.qualname), self.qualname)
            a = _union_member(p.annotation.annotation, self.qualname)
            head = a.value if isinstance(a, cst.Subscript) else a
            if a is None:
                ann = "typing.Union"  # `int | str`: annotated, with no one type the model reads
            elif isinstance(head, (cst.Name, cst.Attribute)):
                dotted = dotted_name(head)
                ann = self.qualname(head) or dotted
            elif isinstance(a, cst.SimpleString):
                ann = string_value(a)
            jax_array = ann in apis.JAX_ARRAY_ANNOTATIONS
            if apis.initializer_type(ann):
                self.index.makes_initializers = True  # `weight_init: Initializer`: called with keys
            if ann in apis.JAXTYPING_DTYPES and isinstance(a, cst.Subscript) and a.slice:
                first = a.slice[0].slice  # `Float[Array, "n"]`: the array type comes first
                inner = first.value if isinstance(first, cst.Index) else None
                jax_array = isinstance(inner, (cst.Name, cst.Attribute)) and (
                    self.qualname(inner) or dotted_name(inner)) in apis.JAX_ARRAY_ANNOTATIONS
            return ParamInfo(p.name.value, kind, idx, p.default, ann, ann_class, jax_array)
        return ParamInfo(p.name.value, kind, idx, p.default, ann, ann_class)

    def _new_unit(
        self, node, name: str, parent: Unit, params: cst.Parameters, cls: Optional[ClassInfo] = None
    ) -> Unit:
        prefix = "" if parent.is_module else parent.qualname + "."
        if cls is not None:
            prefix += cls.name + "."
        unit = Unit(node=node, name=name, qualname=prefix + name, parent=parent)
        unit.params = self._params(params)
        if type(node) is cst.FunctionDef and node.decorators:
            unit.custom_primal = custom_rules.is_custom_def(unit, self.qualname)
        self.index.units.append(unit)
        self.index.unit_of[id(node)] = unit
        return unit

    _in_class_body = False

    def _function(self, node: cst.FunctionDef, parent: Unit) -> None:
        # decorators and defaults run in the enclosing scope
        for dec in node.decorators:
            self._walk_expr(dec.decorator, parent)
        for p in (*node.params.params, *node.params.kwonly_params, *node.params.posonly_params):
            if p.default is not None:
                self._walk_expr(p.default, parent)
        in_class = self._in_class_body
        cls = self._class_stack[-1] if in_class else None
        unit = self._new_unit(node, node.name.value, parent, node.params, cls)
        if cls is not None:
            unit.cls = cls
            cls.methods[node.name.value] = unit
        else:
            parent.defs[node.name.value] = unit
            parent.bindings.setdefault(node.name.value, []).append((self._seq, None))
        for dec in node.decorators:
            self._decorator(dec.decorator, unit, parent)
        if node.decorators:
            outer = node.decorators[0].decorator
            q = self.qualname(outer.func if isinstance(outer, cst.Call) else outer)
            if q in apis.PARTIALS and isinstance(outer, cst.Call) and positional_args(outer):
                q = self.qualname(positional_args(outer)[0].value)
            if q is not None and apis.transform_for(q) is not None:
                unit.outer_transform = q
        self._in_class_body = False
        self._walk_block(node.body, unit)
        self._in_class_body = in_class

    def _lambda(self, node: cst.Lambda, parent: Unit) -> None:
        for p in node.params.params:
            if p.default is not None:
                self._walk_expr(p.default, parent)
        in_class = self._in_class_body
        self._in_class_body = False
        unit = self._new_unit(node, "<lambda>", parent, node.params)
        self._walk_expr(node.body, unit)
        self._in_class_body = in_class

    def _class(self, node: cst.ClassDef, parent: Unit) -> None:
        for dec in node.decorators:
            self._walk_expr(dec.decorator, parent)
        bases = []
        for arg in node.bases:
            self._walk_expr(arg.value, parent)
            q = self.qualname(arg.value)
            if q:
                bases.append(q)
        info = ClassInfo(
            name=node.name.value,
            node=node,
            bases=bases,
            is_jax_module=any(b in apis.MODULE_BASES for b in bases),
            nnx="flax.nnx.Module" in bases,
            linen="flax.linen.Module" in bases,
            scope=parent,
        )
        # a class deriving from a class defined in this file (a jax-module class: it is one)
        # (`Base[T]`, a generic base subscripted: that class, model/overrides.py)
        written = [dotted_name(v) for v in (a.value.value if type(a.value) is cst.Subscript else a.value
                                            for a in node.bases) if isinstance(v, (cst.Name, cst.Attribute))]
        for other in self.index.classes:
            if other.name in written and other is not info:
                info.parents.append(other)
            if other.is_jax_module and other.name in written:
                info.is_jax_module = True
                info.nnx = info.nnx or other.nnx
                info.linen = info.linen or other.linen
        self.index.classes.append(info)
        self._class_stack.append(info)
        in_class = self._in_class_body
        self._in_class_body = True
        self._walk_block(node.body, parent)
        self._in_class_body = in_class
        self._class_stack.pop()

    def _pytree_records(self) -> None:
        """Read the module-level classes' pytree registrations (model/pytrees.py)."""
        mod = self.index.module_unit
        def values(name: str) -> Optional[cst.CSTNode]:
            entries = mod.bindings.get(name)
            return entries[-1][1] if entries and len(entries) == 1 else None
        def functions(name: str) -> Optional[cst.CSTNode]:
            u = mod.defs.get(name)
            if u is not None:
                return u.node
            v = values(name)
            return v if isinstance(v, cst.Lambda) else None
        top = {id(stmt) for stmt in self.index.module.body}
        for info in self.index.classes:
            if id(info.node) not in top:
                continue
            rec = pytree_read.class_record(info.node, self.qualname, values,
                                       self._reg_calls.get(info.name, []), functions)
            if rec is not None:
                self.index.pytree_records[info.name] = rec

    def _walk_expr(self, expr: cst.CSTNode, unit: Unit) -> None:
        t = type(expr)
        if t is cst.Lambda:
            self._lambda(expr, unit)
            return
        if t is cst.Call:
            self._call(expr, unit)
        in_class = self._in_class_body
        self._in_class_body = False
        self._walk_block(expr, unit)
        self._in_class_body = in_class

    # -- calls and transformation sites --------------------------------------
    def _call(self, call: cst.Call, unit: Unit) -> None:
        func = call.func
        if type(func) is cst.Attribute and func.attr.value in ("setdefault", "update"):
            self._x64_env(call, unit)
        if type(func) is cst.Call:
            self.index.called_now.add(id(func))
            self._applied[id(func)] = call
            if type(func.func) is cst.Name:
                self._factory_calls.append((unit, call))
            inject = slots.injected(call, self.qualname)
            if inject is not None:
                # `optax.inject_hyperparams(optax.adam)(learning_rate=schedule)`
                t_inj = slots.slot_for(inject[0])
                for arg in inject[1]:
                    self.index.sites.append(TransformSite(t_inj, inject[0], call, arg, unit, seq=self._seq))
            self._applied_initializer_calls.append((unit, call))  # `normal()(key, shape)`
        if type(func) is cst.Subscript or (type(func) is cst.Call and type(func.func) is cst.Attribute
                                           and func.func.attr.value == "get"):
            self._dispatch_calls.append((unit, call))  # `_FUNCS[name](x)` (model/dispatch.py)
        if isinstance(func, cst.Name) or (
            isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value != "self"
        ):
            self._pending_calls.append((unit, call))
        elif isinstance(func, cst.Attribute):
            self._method_calls.setdefault(func.attr.value, []).append((unit, call))
            if type(func.value) is cst.Attribute:
                self._dotted_calls.append((unit, call))
        if not unit.is_module:
            for name in rngs_keys(call):
                key_param_consumed(unit, name.value, "rngs=")
        q = self.qualname(func)
        if q is None:
            if not unit.is_module and type(func) is cst.Attribute:
                # `self.dropout(x, key=key)` of a field holding `eqx.nn.Dropout(rate)`: its mask
                # is drawn from `key` (unless `inference=True`)
                layer = keyflow.drawing_layer_call(call, unit, self.qualname)
                if layer is not None:
                    key = keyword_arg(call, "key")
                    if key is not None and isinstance(key.value, cst.Name):
                        key_param_consumed(unit, key.value.value, layer)
                        unit.key_draws[id(call)] = (key.value.value, layer)
            return
        if apis.initializer_factory(q):
            self.index.makes_initializers = True
        if q.startswith("jax.random.") and not unit.is_module:
            short = q.rsplit(".", 1)[1]
            if short in apis.RANDOM_CONSUMERS:
                key = arg_at(call, 0, "key")
                if isinstance(key, cst.Name):
                    key_param_consumed(unit, key.value, short)
                    unit.key_draws[id(call)] = (key.value, short)
                    unit.draw_dims |= keyflow.draw_dims(call, q, False)
        elif not unit.is_module:
            how = apis.library_key_consumer(q)
            if how is not None:
                given = keyword_arg(call, "key")
                key = given.value if given is not None else None
                if isinstance(key, cst.Name):
                    key_param_consumed(unit, key.value, how)
                    unit.key_draws[id(call)] = (key.value, how)
                    unit.draw_dims |= keyflow.draw_dims(call, q, True)
            elif q in apis.LIBRARY_KEY_ARGS and not any(a.star for a in call.args):
                # `hk.dropout(key, rate, x)`, `numpyro.sample("z", d, rng_key=key)` (unobserved)
                word, at = apis.LIBRARY_KEY_ARGS[q]
                key = arg_at(call, at, word)
                unless = apis.LIBRARY_KEY_UNLESS.get(q)
                if isinstance(key, cst.Name) and (unless is None or arg_at(call, unless[1], unless[0]) is None):
                    how = q.replace("haiku.", "hk.", 1)
                    key_param_consumed(unit, key.value, how)
                    unit.key_draws[id(call)] = (key.value, how)
        if q in ("jax.config.update", "jax.config.config.update") or q.endswith(".config.update") and q.startswith("jax"):
            at_import = unit.is_module and id(call) not in self._main_ids
            if self._x64_config_call(call, at_import) and at_import:
                self.index.x64_at_import = True
            pos = config_update_args(call)
            if len(pos) >= 2 and string_value(pos[0].value) == "jax_enable_x64" and not _literally_off(pos[1].value):
                self.index.x64_config_units.add(id(unit))
            return
        if q == "jax.enable_x64" or q == "jax.experimental.enable_x64":
            return  # a context manager: handled where it is used
        if q in pytrees.CALL_REGS:
            pos = positional_args(call)
            if pos and isinstance(pos[0].value, cst.Name):
                self._reg_calls.setdefault(pos[0].value.value, []).append((q, call))
        if q in slots.TREE_MAPS and call.args and type(call.args[0].value) is cst.Name:
            self._factory_calls.append((unit, call))  # the function mapped runs after the caller
        if q in apis.PARTIALS and call.args and call.args[0].keyword is None and type(call.args[0].value) is cst.Name:
            self._factory_calls.append((unit, call))  # `partial(check, 2)(v)` runs `check` after the caller
        t = apis.transform_for(q) or slots.slot_for(q)
        if t is None:
            return
        self._site_from_call(t, q, call, unit)

    def _site_from_call(self, t: apis.Transform, q: str, call: cst.Call, unit: Unit) -> None:
        pos = positional_args(call)
        for i in t.fn_args:
            if i < len(pos):
                self.index.sites.append(TransformSite(t, q, call, pos[i].value, unit, seq=self._seq))
        for kw in t.fn_kwargs:
            a = keyword_arg(call, kw)
            if a is not None:
                self.index.sites.append(TransformSite(t, q, call, a.value, unit, seq=self._seq))
        for i in t.fn_list_args:
            if i < len(pos) and isinstance(pos[i].value, (cst.List, cst.Tuple)):
                for el in pos[i].value.elements:
                    self.index.sites.append(TransformSite(t, q, call, el.value, unit, seq=self._seq))
            elif i < len(pos) and type(pos[i].value) is cst.Name:
                # `switch(index, BRANCHES, x)`: the list bound to that name (_listed_functions)
                self.index.sites.append(TransformSite(t, q, call, pos[i].value, unit, seq=self._seq))

    def _decorator(self, dec: cst.BaseExpression, fn: Unit, scope: Unit) -> None:
        q = self.qualname(dec)
        if q is not None:
            t = apis.transform_for(q)
            if t is not None:
                self.index.sites.append(TransformSite(t, q, None, fn.node.name, scope, target=fn))  # type: ignore[union-attr]
                return
        if dotted_name(dec) is not None and isinstance(fn.node, cst.FunctionDef):
            # `@compiled` (a function of the project): the call `compiled(step)`; what
            # its body hands to a transformation (`return jax.jit(fn)`) traces `step`
            call = cst.Call(func=dec, args=(cst.Arg(value=fn.node.name),))
            self._decorations.append((scope, call))
            self._decorated[id(call)] = fn
        if q is not None:
            return
        if isinstance(dec, cst.Call):
            fq = self.qualname(dec.func)
            if fq in apis.PARTIALS:
                pos = positional_args(dec)
                if pos:
                    tq = self.qualname(pos[0].value)
                    t = apis.transform_for(tq)
                    if t is not None:
                        self.index.sites.append(
                            TransformSite(t, tq or "", dec, fn.node.name, scope, target=fn)  # type: ignore[union-attr]
                        )
            elif fq is not None:
                t = apis.transform_for(fq)
                if t is not None and not positional_args(dec):
                    # @jax.jit(static_argnames=...) / @eqx.filter_jit(donate=...)
                    self.index.sites.append(TransformSite(t, fq, dec, fn.node.name, scope, target=fn))  # type: ignore[union-attr]
                    return
            if fq is None or apis.transform_for(fq) is None:
                self._decorator_call(dec, fn, scope)

    def _decorator_call(self, dec: cst.Call, fn: Unit, scope: Unit) -> None:
        """``@named_jit(axis_resources=...)`` or ``@compiled()`` on a def, ``named_jit``/
        ``compiled`` a function of the project: (1) given keywords only, the def is what
        its first positional parameter receives (``def named_jit(fn=None, **kw): if fn is
        None: return lambda f: named_jit(f, **kw)``); (2) a function of this file that
        returns one function (``def compiled(**kw): def deco(fn): return jax.jit(fn, **kw);
        return deco``): that function is called with the def.  What those parameters are
        handed to (``takes_fns``, ``transformed_params``) traces the def."""
        if dotted_name(dec.func) is None or not isinstance(fn.node, cst.FunctionDef) or positional_args(dec) \
                or any(a.star for a in dec.args):
            return
        call = cst.Call(func=dec.func, args=(cst.Arg(value=fn.node.name), *dec.args))
        self._decorations.append((scope, call))
        self._decorated[id(call)] = fn
        if type(dec.func) is cst.Name:
            self._decorator_factories.append((scope, dec.func.value, fn))

    def _x64_config_call(self, call: cst.Call, at_import: bool = False) -> bool:
        pos = config_update_args(call)
        if len(pos) >= 2 and string_value(pos[0].value) == "jax_enable_x64":
            v = pos[1].value
            on = isinstance(v, cst.Name) and v.value == "True" or (isinstance(v, cst.Integer) and v.value != "0")
            if not _literally_off(v) and not (at_import and on):
                # in a function, or at import with a value from a flag: when and where x64
                # is on cannot be placed (a literal True at import is: `x64_at_import`)
                self.index.x64_switch = True
            if on:
                self.index.x64_nodes.append(call)
                return True
        return False

    def _x64_env(self, node: cst.CSTNode, unit: Unit) -> None:
        """``os.environ["JAX_ENABLE_X64"] = v`` (also ``os.environ.setdefault(...)``,
        ``os.environ.update(...)``: ``model/x64.env_x64_value``).  In a function: x64 may
        be on when it has run (unless ``v`` is literally off), and where JAX is imported
        before it runs it comes too late (``x64_env_fn``, for the rule to place).  At
        module level: before the first ``import jax`` it switches x64 on at import; after
        it, JAX has read the variable already (``x64_env_late``)."""
        v = env_x64_value(node, self.qualname)
        if v is None:
            return
        if not unit.is_module:
            if not _literally_off(v):
                self.index.x64_switch = True
                if env_on(v) is not False:
                    self.index.x64_env_fn.append((node, unit))
            return
        on = env_on(v)
        if on is None and not _literally_off(v):
            self.index.x64_switch = True  # a value from a flag: unknown
        if on:
            if self._jax_imported:
                # JAX read the variable when it was imported: too late
                self.index.x64_env_late.append(node)
            else:
                self.index.x64_nodes.append(node)
                self.index.x64_at_import = True
                self.index.x64_env_early.append(node)

    def _note_jax_import(self, node, unit: Unit) -> None:
        if not unit.is_module or self._jax_imported:
            return
        if isinstance(node, cst.Import):
            names = [dotted_name(a.name) or "" for a in node.names]
        else:
            names = [dotted_name(node.module) or ""] if node.module is not None and not node.relative else []
        self._jax_imported = any(n == "jax" or n.startswith("jax.") for n in names)

    # -- resolution -------------------------------------------------------------
    def resolve_fn(
        self, expr: cst.BaseExpression, scope: Unit, seq: int = 1 << 30, depth: int = 0
    ) -> tuple[Optional[Unit], int, frozenset[str], Optional[TransformSite]]:
        """The unit a function expression denotes, with partial-bound arguments."""
        none = (None, 0, frozenset(), None)
        if depth > 6:
            return none
        if isinstance(expr, cst.Lambda):
            return self.index.unit_of.get(id(expr)), 0, frozenset(), None
        if isinstance(expr, cst.Name):
            found = scope.binding_for(expr.value, seq)
            if found is None:
                # `jax.jit(Cls)`: the class's own `__init__` runs traced, `self` bound
                init = instances.constructor_of(self.index.classes, expr.value)
                return (init, 1, frozenset(), None) if init is not None else none
            holder, (bseq, value) = found
            if value is None:
                return holder.defs.get(expr.value), 0, frozenset(), None
            if type(value) is cst.Call and type(value.func) is cst.Name and not value.args:
                # `jax.jit(layer)` of `layer = Dense()`, a plain class of this file: the
                # instance is called, so its `__call__` (own or inherited) runs, `self` bound
                for c in self.index.classes:
                    if c.name == value.func.value and not c.is_jax_module and _encloses(c.scope, holder):
                        m = c.method("__call__")
                        if m is not None:
                            return m, bound_receiver(m), frozenset(), None
            # name = partial(f, ...) / name = jax.jit(f) / name = other_name
            return self.resolve_fn(value, holder, bseq, depth + 1)
        if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name):
            if expr.value.value in ("self", "cls") and scope.cls is not None:
                # a bound method: the transformation's arguments start after `self`
                m = scope.cls.methods.get(expr.attr.value)
                return m, bound_receiver(m), frozenset(), None
            # obj.method where obj = SomeClass(...) of this file: the bound method
            found = scope.binding_for(expr.value.value, seq)
            if found is None:
                # `jax.jit(Agent.train)`, a class of this file: its method as the class
                # holds it (a classmethod has `cls` bound; a plain function takes `self`)
                for c in self.index.classes:
                    if c.name == expr.value.value and _encloses(c.scope, scope):
                        m = c.method(expr.attr.value)
                        if m is not None and isinstance(m.node, cst.FunctionDef):
                            return m, 1 if _is_classmethod(m) else 0, frozenset(), None
                        return none
            if found is not None:
                value = found[1][1]
                if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
                    for c in self.index.classes:
                        # its own method, else the one it inherits from a base of this file
                        # (`jax.jit(layer.__call__)` of `layer = Dense()`, `Layer.__call__`)
                        m = c.method(expr.attr.value) if c.name == value.func.value else None
                        if m is not None:
                            return m, bound_receiver(m), frozenset(), None
            return none
        if isinstance(expr, cst.Call):
            fq = self.qualname(expr.func)
            if fq in apis.PARTIALS:
                pos = positional_args(expr)
                if pos:
                    unit, n, kws, inner = self.resolve_fn(pos[0].value, scope, seq, depth + 1)
                    if unit is not None and any(a.star == "**" for a in expr.args):
                        # partial(f, **kwargs): any parameter may be bound
                        return unit, n + len(pos) - 1, frozenset(p.name for p in unit.params), inner
                    bound_kw = frozenset(
                        a.keyword.value for a in expr.args if a.keyword is not None
                    )
                    return unit, n + len(pos) - 1, kws | bound_kw, inner
            t = apis.transform_for(fq)
            if t is not None:
                # jax.jit(jax.grad(f)): the inner function is traced by the outer one
                return None, 0, frozenset(), TransformSite(t, fq or "", expr, expr, scope, seq=seq)
            if isinstance(expr.func, cst.Name) and fq is None:
                # `cell = get_cell(n)`: the function a factory of this file returns
                factory = scope.lookup_def(expr.func.value)
                if factory is not None and scope.binding_for(expr.func.value, seq) is not None:
                    made = returned_function(factory, self.index.unit_of)
                    if made is not None:
                        return made, 0, frozenset(), None
        return none

    def _module_instances(self) -> None:
        idx = self.index
        names = {c.name for c in idx.classes}
        if not names:
            return
        # the module's statements, and those of its `if`/`with`/`try` blocks (an `if
        # __name__ == "__main__":` block binds module-level names too)
        stmts = list(idx.module.body)
        while stmts:
            stmt = stmts.pop(0)
            if isinstance(stmt, (cst.If, cst.With, cst.Try)):
                blocks = [stmt.body]
                if isinstance(stmt, cst.If) and stmt.orelse is not None:
                    blocks.append(stmt.orelse if isinstance(stmt.orelse, cst.If) else stmt.orelse.body)
                for b in blocks:
                    if isinstance(b, cst.If):
                        stmts.append(b)
                    elif isinstance(b, cst.IndentedBlock):
                        stmts.extend(b.body)
                continue
            if not isinstance(stmt, cst.SimpleStatementLine):
                continue
            for small in stmt.body:
                if (
                    isinstance(small, cst.Assign) and len(small.targets) == 1
                    and isinstance(small.targets[0].target, cst.Name)
                    and isinstance(small.value, cst.Call) and isinstance(small.value.func, cst.Name)
                    and small.value.func.value in names
                ):
                    idx.instances[small.targets[0].target.value] = small.value.func.value
        # `m = Cls(...)` in a function (model/instances.py: its methods called from there)
        for unit in idx.units:
            if unit.is_module:
                continue
            for name, entries in unit.bindings.items():
                for _, value in entries:
                    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) \
                            and value.func.value in names and name not in idx.instances:
                        idx.instances[name] = value.func.value

    def _local_method(self, cls_name: str, name: str) -> Optional[Unit]:
        found = [c for c in self.index.classes if c.name == cls_name]
        if len(found) != 1 or found[0].is_jax_module:
            return None
        return found[0].methods.get(name)

    def _init_attr_class(self, cls: ClassInfo, attr: str) -> Optional[str]:
        """The class of this file whose instance ``__init__``/``setup`` assigns to
        ``self.attr`` (``self.sorter = Sorter()``), for the analysis order only (the
        interpreter decides what the attribute holds: model/instances.py)."""
        for init in ("__init__", "setup"):
            m = cls.methods.get(init)
            if m is None or not isinstance(m.node, cst.FunctionDef):
                continue
            for stmt in m.node.body.body:
                if not isinstance(stmt, cst.SimpleStatementLine):
                    continue
                for small in stmt.body:
                    if (isinstance(small, cst.Assign) and len(small.targets) == 1
                            and isinstance(small.targets[0].target, cst.Attribute)
                            and isinstance(small.targets[0].target.value, cst.Name)
                            and small.targets[0].target.value.value == "self"
                            and small.targets[0].target.attr.value == attr
                            and isinstance(small.value, cst.Call) and isinstance(small.value.func, cst.Name)):
                        return small.value.func.value
        return None

    def _instance_method(self, unit: Unit, func: cst.Attribute) -> Optional[Unit]:
        if func.value.value not in self.index.instances:  # type: ignore[union-attr]
            return None
        cls = instance_class(self.index, unit, func.value)
        return None if cls is None or cls.is_jax_module else cls.method(func.attr.value)

    def _bound_lambda(self, unit: Unit, name: str) -> Optional[Unit]:
        """The lambda ``name`` is bound to, once, in the nearest scope that binds it
        (``guess = lambda t: np.sin(t)``): calling the name runs it."""
        u: Optional[Unit] = unit
        while u is not None:
            if any(p.name == name for p in u.params):
                return None
            entries = u.bindings.get(name)
            if entries:
                if len(entries) == 1 and type(entries[0][1]) is cst.Lambda:
                    return self.index.unit_of.get(id(entries[0][1]))
                return None
            u = u.parent
        return None

    def _bound_wrapper(self, unit: Unit, name: str) -> Optional[Unit]:
        """The function of this file a name is bound to, once, wrapped by a transformation
        (``pick_jit = jax.jit(pick)``): calling the name runs it."""
        u: Optional[Unit] = unit
        while u is not None:
            if any(p.name == name for p in u.params) or name in u.defs:
                return None
            entries = u.bindings.get(name)
            if entries:
                value = entries[0][1] if len(entries) == 1 else None
                if type(value) is not cst.Call or not value.args or value.args[0].keyword is not None \
                        or type(value.args[0].value) is not cst.Name:
                    return None
                t = apis.transform_for(self.qualname(value.func))
                return u.lookup_def(value.args[0].value.value) if t is not None and t.wrapper else None
            u = u.parent
        return None

    def _resolve(self) -> None:
        idx = self.index
        # call edges between units, for the analysis order
        self._module_instances()
        self._holders()
        for unit, call in self._pending_calls:
            if isinstance(call.func, cst.Attribute):
                callee = self._instance_method(unit, call.func)
                if callee is None:
                    held = idx.held_function(call.func, unit)
                    callee = held.unit if held is not None else None
                if callee is None:
                    callee = instances.class_level_method(idx.classes, call.func)  # `Interval.around(x)`
                holder = _param_holder(unit, call.func.value.value) if callee is None else None  # type: ignore[union-attr]
                if holder is not None:
                    # `module.get_params(p)` on a parameter (of this function, or of one that
                    # encloses it: a factory's): its callers may pass an instance of a class of
                    # this file (model/walker.py), whose method then runs after this unit
                    idx.param_receivers.setdefault(id(holder), set()).add(call.func.value.value)  # type: ignore[union-attr]
                    for c in idx.classes:
                        m = c.methods.get(call.func.attr.value)
                        if m is not None and m is not unit:
                            idx.call_edges.setdefault(id(unit), set()).add(id(m))
                elif callee is None and type(call.func.value) is cst.Name \
                        and call.func.value.value not in idx.imports.names:
                    # `model.plot(5, 4)`, the receiver not placed: a call of the method of that
                    # name of each module class of this file (model/calls.py, `direct_kinds`),
                    # analysed after this unit
                    for c in idx.classes:
                        m = c.methods.get(call.func.attr.value)
                        if c.is_jax_module and m is not None and m is not unit:
                            idx.call_edges.setdefault(id(unit), set()).add(id(m))
            else:
                callee = unit.lookup_def(call.func.value) or self._bound_lambda(unit, call.func.value) \
                    or made_function(unit, call.func, idx.unit_of) \
                    or self._bound_wrapper(unit, call.func.value)  # type: ignore[union-attr]
                if callee is None:
                    # `Cls(x)`, `Cls(x)(y)`: its `__init__`, the checks a generated one runs,
                    # `__call__`; `m(x)` with `m = Cls()`: `__call__` (model/calls.py)
                    name = call.func.value  # type: ignore[union-attr]
                    built = [c for c in idx.classes if c.name == name]
                    own = instances.classmethod_class(unit, call.func)  # `cls(lo, hi)`
                    if own is not None:
                        built = [own]
                    members: tuple[str, ...] = ("__init__", "__call__") + instances.FIELD_CHECKS
                    if not built and name in idx.instances:
                        built = [c for c in idx.classes if c.name == idx.instances[name]]
                        members = ("__call__",)
                    if len(built) == 1:
                        for member in members:
                            m = instances.class_member(built[0], member, idx.classes)
                            if m is not None and m is not unit:
                                idx.call_edges.setdefault(id(unit), set()).add(id(m))
                    elif not built and (holder := _param_holder(unit, name)) is not None:
                        # `model(x)` on a parameter (also one of an enclosing factory: `def
                        # make_step(schedule): ... schedule(step)` in its jitted inner function):
                        # its callers may pass an instance of a class of this file
                        # (model/walker.py), whose `__call__` then runs after this unit
                        idx.param_receivers.setdefault(id(holder), set()).add(name)
                        for c in idx.classes:
                            m = c.methods.get("__call__")
                            if m is not None and m is not unit:
                                idx.call_edges.setdefault(id(unit), set()).add(id(m))
            if callee is not None and callee is not unit:
                idx.call_edges.setdefault(id(unit), set()).add(id(callee))
            if isinstance(call.func, cst.Attribute) and call.func.attr.value == "apply":
                chosen = applied_method(idx, unit, call)  # `model.apply(v, x, method=Net.encode)`
                if chosen is not None and chosen is not unit:
                    idx.call_edges.setdefault(id(unit), set()).add(id(chosen))
        self._property_edges()
        # `f.defvjp(fwd, bwd)`: the rules run where `f` runs, analysed after it
        idx.custom_rules = custom_rules.find(
            self._pending_calls, idx.units, lambda e, u: self.resolve_fn(e, u)[0], self.qualname)
        for rid, rule in idx.custom_rules.items():
            idx.call_edges.setdefault(id(rule.primal), set()).add(rid)
        # `make_op(2.0)(x)`: the function the factory of this file returns
        for unit, call in self._factory_calls:
            if type(call.func) is not cst.Call:  # `jax.tree.map(fn, tree)`: `fn`
                name = call.args[0].value.value  # type: ignore[attr-defined]
                callee = unit.lookup_def(name) or self._bound_lambda(unit, name)
            else:
                callee = made_function(unit, call.func, idx.unit_of)
            if callee is not None and callee is not unit:
                idx.call_edges.setdefault(id(unit), set()).add(id(callee))
        # `_FUNCS[name](x)`: each function of the table, analysed after the caller
        for unit, call in self._dispatch_calls:
            for value in dispatch.table_functions(unit, call.func) or ():
                callee = unit.lookup_def(value.value) if type(value) is cst.Name else None
                if callee is not None and callee is not unit:
                    idx.call_edges.setdefault(id(unit), set()).add(id(callee))
        # `self.helper(x)` in a method calls the class's `helper`: analysed after it
        for name, calls in self._method_calls.items():
            for unit, call in calls:
                recv = call.func.value  # type: ignore[union-attr]
                callee = None
                if unit.cls is not None and isinstance(recv, cst.Name) and recv.value == "self":
                    callee = unit.cls.method(name)
                    if callee is None:
                        # `self.encoder(x)` with `self.encoder = Encoder(...)` in `setup`: its `__call__`
                        built = self._init_attr_class(unit.cls, name)
                        found = [c for c in idx.classes if c.name == built] if built is not None else []
                        callee = found[0].methods.get("__call__") if len(found) == 1 else None
                    # ... and the overrides a subclass's instance runs (model/overrides.py)
                    for m in subclass_overrides(idx.classes, unit, name):
                        idx.call_edges.setdefault(id(unit), set()).add(id(m))
                elif (isinstance(recv, cst.Call) and type(recv.func) is cst.Name and recv.func.value == "super"
                      and unit.cls is not None):
                    # `super().m(x)`: the base's method (one base of this file, model/calls.py)
                    callee = unit.cls.parents[0].method(name) if len(unit.cls.parents) == 1 \
                        and len(unit.cls.node.bases) == 1 else None
                elif isinstance(recv, cst.Call) and isinstance(recv.func, cst.Name):
                    # `Cls(x).m(...)` with `Cls` a class of this file (model/instances.py);
                    # `Model(...).apply(v, x)` runs the flax module's `__call__`
                    callee = self._local_method(recv.func.value, name)
                    if callee is None:
                        held = idx.held_function(call.func, unit)
                        callee = held.unit if held is not None else None
                elif (unit.cls is not None and isinstance(recv, cst.Attribute) and isinstance(recv.value, cst.Name)
                      and recv.value.value == "self"):
                    # `self.sorter.order(x)` with `self.sorter = Sorter()` in `__init__`
                    idx.attr_receivers.setdefault(unit.cls.name, set()).add(recv.attr.value)
                    built = self._init_attr_class(unit.cls, recv.attr.value)
                    callee = self._local_method(built, name) if built is not None else None
                if callee is not None and callee is not unit:
                    idx.call_edges.setdefault(id(unit), set()).add(id(callee))
        # `jax.grad(loss)(p, x)` in a function: it calls `loss` (with its arguments; the
        # analysis sees the call in the caller, which must therefore come first)
        for site in idx.sites:
            if isinstance(site.fn_expr, cst.Name) and not site.scope.is_module:
                callee = site.scope.lookup_def(site.fn_expr.value)
                if callee is not None and callee is not site.scope:
                    idx.call_edges.setdefault(id(site.scope), set()).add(id(callee))
                elif callee is None and site.scope.param(site.fn_expr.value) is not None and site.call is not None:
                    # `jax.vmap(model)(xs)` on a parameter: the `__call__` of the class its
                    # callers pass an instance of (model/calls.py), analysed after it
                    idx.param_receivers.setdefault(id(site.scope), set()).add(site.fn_expr.value)
                    for c in idx.classes:
                        m = c.methods.get("__call__")
                        if m is not None and m is not site.scope:
                            idx.call_edges.setdefault(id(site.scope), set()).add(id(m))
            elif (isinstance(site.fn_expr, cst.Attribute) and isinstance(site.fn_expr.value, cst.Name)
                  and site.fn_expr.value.value == "self" and site.scope.cls is not None):
                # `jax.grad(self.loss)(p, x)` in a method: it calls `loss`, analysed after it
                callee = site.scope.cls.methods.get(site.fn_expr.attr.value)
                if callee is not None and callee is not site.scope:
                    idx.call_edges.setdefault(id(site.scope), set()).add(id(callee))
        # classes: methods of flax/equinox/haiku modules see traced array arguments
        pre_linen = self._pre_linen_statics()
        for cls in idx.classes:
            if not cls.is_jax_module:
                continue
            for name, m in cls.methods.items():
                if name in ("setup", "__init__", "__post_init__", "__check_init__"):
                    continue
                if any(dotted_name(d.decorator) in ("staticmethod", "classmethod", "property")
                       for d in getattr(m.node, "decorators", ())):
                    continue
                sites = self._module_method_sites(cls, name)
                if cls.nnx and name != "__call__" and not sites:
                    # an NNX module's helper method that no method of the file calls (a
                    # `generate` loop the user calls): it runs eagerly unless jitted
                    continue
                own = name != "__call__" and bool(sites) and all(_self_call(u, c, cls, True) for u, c in sites)
                if own and all(_self_call(u, c, cls) for u, c in sites):
                    # a helper method that only the class's own methods call (`self.m(...)`):
                    # the interpreter gives each parameter what those calls pass (a traced
                    # array from a traced method, a shape int, a tuple of them): nothing
                    # is assumed here
                    continue
                dims: Optional[set[str]] = None
                entries = (module_entries.entry_sites(cls, m, idx.unit_of)
                           if name == "__call__" and not sites else None)
                shown_static = pre_linen.get(id(m), ())
                asserted = _python_params(m)
                for p in m.params[1:]:
                    if p.name in shown_static:
                        continue  # a flax.nn `apply` hyper-parameter every call gives a Python value
                    if p.name in asserted:
                        # `assert isinstance(key, tuple)`: a Python value, no array (what a
                        # tuple holds is not known: unknown)
                        continue
                    if own and all(_passes(c, p, u) for u, c in sites):
                        # `self.m(y, start=0, end=cfg.n, **common)`: every call names this
                        # argument (by keyword, or by position before any `*args`), so the
                        # interpreter sees what it is, `**common` or not
                        continue
                    if cls.nnx and name == "__call__" and sites and all(
                            _static_arg(site_unit, call, p, _nnx_default) for site_unit, call in sites):
                        # an NNX submodule (`self.visual = VisionModel(...)`) whose holders pass it
                        # no value the model takes as traced (`self.model.visual(pixels)` with
                        # `pixels=None` a parameter of the holder's eager `__call__`)
                        continue
                    if p.annotation in apis.ARRAY_ANNOTATIONS or (
                        # model.apply / eqx modules are called under jit with arrays
                        p.annotation is None and p.default is None and p.kind in ("pos", "posonly")
                    ):
                        if p.annotation is None and sites and all(
                            _static_arg(site_unit, call, p, _nnx_default if cls.nnx else None)
                            for site_unit, call in sites
                        ):
                            continue  # every call in this file passes a static value (a shape, an int)
                        if entries and all(self._python_entry_arg(u, call, p) for u, call in entries):
                            # a class local to a function, used there only through
                            # `init`/`apply` given a Python value for it (not traced)
                            continue
                        if p.annotation is None and isinstance(m.node, cst.FunctionDef):
                            if dims is None:
                                dims = dimension_params(m.node, {q.name for q in m.params[1:]}, self.qualname)
                            if p.name in dims and not any(
                                    _array_arg(call, p, self.qualname) for _, call in sites):
                                # the body puts it straight into a shape and no call here
                                # passes an array: the callers give a Python value
                                continue
                        m.traced_params.add(p.name)
                if m.traced_params:
                    m.reasons.append(f"{MODULE_METHOD}{cls.name}")
        for site in list(idx.sites):
            self._apply_site(site)
        self._passed_functions(list(self._param_sites))

    def _imported_takes_fns(self) -> None:
        """``fit(hinge, w, x)`` with ``fit`` imported from a module of the project that
        hands that parameter to a transformation (facts ``takes_fns``): ``hinge`` (of
        this file, or imported: a fact for its module) is traced by it."""
        takes = self.index.imported_takes_fns
        todo = []
        for unit, call in self._pending_calls + self._dotted_calls + self._decorations:
            written = dotted_name(call.func)
            if written is None or written not in takes:
                continue
            if unit.binding_for(written.split(".", 1)[0], 1 << 30) is not None:
                continue  # a local of that name
            record = takes[written]
            params = [ParamInfo(name=n, kind=k, index=i, default=None, annotation=None) for n, k, i in record["params"]]
            callee = Unit(node=call, name=written, qualname=written, parent=None, params=params)
            when = record.get("when") or {}
            for pname, tq in sorted(record["transforms"].items()):
                t = apis.transform_for(tq) or slots.slot_for(tq)
                param = callee.param(pname)
                if t is None or param is None:
                    continue
                cond = when.get(pname)
                if cond is not None and not _picks(cond, call, callee):
                    continue  # `maybe_jit(loss, jit=False)`: the eager path
                arg = _arg_for(call, callee, param)
                if arg is None or self._eager_call(call, tq):
                    continue
                if type(arg) is cst.Name and unit.param(arg.value) is not None and arg.value not in unit.assigned \
                        and not unit.is_module:
                    unit.transformed_params.setdefault(arg.value, tq)
                    todo.append((unit, arg.value, TransformSite(t, tq, call, arg, unit, seq=1 << 30)))
                    continue
                self._apply_site(TransformSite(t, tq, call, arg, unit, seq=1 << 30,
                                               target=self._decorated.get(id(call))), 1)
        if todo:
            self._passed_functions(todo)

    def _passed_functions(self, todo: list) -> None:
        """``fit(hinge, w, x)`` where ``fit`` hands its parameter ``loss_fn`` to a
        transformation (``jax.jit(jax.grad(loss_fn))``, ``lax.scan(step_fn, ...)``): the
        function passed for it (of this file, or imported: a fact for its module) is
        traced by that transformation, as if written there.  Through one level of
        callers handing the parameter on (``train(loss_fn)`` calling ``fit(loss_fn)``)."""
        done: set[tuple[int, int]] = set()
        if not todo:
            return
        # the calls by name of each function of the file (one pass over the calls)
        calls_of: dict[int, list] = {}
        for unit, call in self._pending_calls + self._decorations:
            if type(call.func) is cst.Name:
                target = unit.lookup_def(call.func.value)
                if target is not None:
                    calls_of.setdefault(id(target), []).append((unit, call))
        for scope, name, fn in self._decorator_factories:
            factory = scope.lookup_def(name)
            inner = returned_function(factory, self.index.unit_of) if factory is not None else None
            if inner is not None and isinstance(fn.node, cst.FunctionDef):
                call = cst.Call(func=cst.Name(inner.name), args=(cst.Arg(value=fn.node.name),))
                self._decorated[id(call)] = fn
                calls_of.setdefault(id(inner), []).append((scope, call))
        while todo:
            callee, pname, site = todo.pop()
            param = callee.param(pname)
            if param is None or not isinstance(callee.node, cst.FunctionDef):
                continue
            cond = callee.transform_conditions.get(pname)
            for unit, call in calls_of.get(id(callee), ()):
                if (id(call), id(site)) in done:
                    continue
                done.add((id(call), id(site)))
                if cond is not None and not _picks(cond, call, callee):
                    continue  # the helper's path without the transformation (or unknown)
                arg = _arg_for(call, callee, param)
                if arg is None or self._eager_call(call, site.qualname):
                    continue
                if type(arg) is cst.Name and unit.param(arg.value) is not None and arg.value not in unit.assigned \
                        and not unit.is_module:
                    # handed on: the callers of `unit` pass the function
                    if len(done) < 200:
                        prev = unit.transformed_params.get(arg.value)
                        if prev is None or (site.transform.traces and not _traces(prev)):
                            unit.transformed_params[arg.value] = site.qualname
                        todo.append((unit, arg.value, site))
                    continue
                passed = TransformSite(site.transform, site.qualname, site.call, arg, unit, seq=1 << 30,
                                       target=self._decorated.get(id(call)))
                self._apply_site(passed, 1)

    def _holders(self) -> None:
        """Names bound to a holder of a function of this file (model/holders.py)."""
        idx = self.index
        for unit in idx.units:
            for name, entries in unit.bindings.items():
                for seq, value in entries:
                    if value is None:
                        d = unit.defs.get(name)
                        found = holders.decorated_methods(d, self.qualname) if d is not None else {}
                        if found:
                            idx.held[id(d.node)] = found  # type: ignore[union-attr]
                        continue
                    if not isinstance(value, cst.Call):
                        continue
                    def resolve(e: cst.BaseExpression, unit=unit, seq=seq) -> Optional[Unit]:
                        return self.resolve_fn(e, unit, seq)[0] if type(e) in (cst.Name, cst.Lambda) else None
                    found = holders.methods_of(value, self.qualname, resolve) or self._linen_holder(value)
                    if found:
                        idx.held[id(value)] = found
        # `Cls(...).apply(variables, x)` written in one expression
        for unit, call in self._method_calls.get("apply", ()):
            recv = call.func.value  # type: ignore[union-attr]
            if isinstance(recv, cst.Call):
                found = self._linen_holder(recv)
                if found:
                    idx.held[id(recv)] = found

    def _linen_holder(self, value: cst.BaseExpression) -> dict[str, "holders.HeldFunction"]:
        """``Cls(...)`` of a flax linen module class of this file: its ``apply(variables,
        *args)`` runs ``Cls.__call__(*args)``."""
        if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Name)) or self.qualname(value.func):
            return {}
        found = [c for c in self.index.classes if c.name == value.func.value]
        if len(found) != 1 or not found[0].linen:
            return {}
        call = found[0].methods.get("__call__")
        if call is None or call.host or not isinstance(call.node, cst.FunctionDef):
            return {}
        return {"apply": holders.HeldFunction(call, 1, "flax.linen.Module.apply", method=True)}

    def _python_entry_arg(self, unit: Unit, call: cst.Call, p: ParamInfo) -> bool:
        """Does ``call`` (``w.init(rng, ...)``/``w.apply(variables, ...)``, written in
        ``unit``) pass parameter ``p`` of ``__call__`` a Python value: a static
        expression, where a parameter of a function counts when it holds one
        (``_python_param``)?  The key or variables come first, where ``self`` is."""
        if any(a.star for a in call.args):
            return False
        arg = arg_at(call, p.index, p.name)
        return arg is not None and _static_expr(unit, arg, 0, self._python_param)

    def _python_param(self, unit: Unit, q: ParamInfo) -> bool:
        """Does parameter ``q`` of ``unit`` hold a Python value: a literal default
        (``canvas_size=4``), or every call of ``unit`` in this file passes a static
        one and no transformation takes ``unit``?"""
        if _literal_value(q.default):
            return True
        if unit.cls is not None or any(
                isinstance(s.fn_expr, cst.Name) and s.fn_expr.value == unit.name for s in self.index.sites):
            return False  # a method, or transformed: the calls below are not all of them
        callers = [(u, c) for u, c in self._pending_calls
                   if isinstance(c.func, cst.Name) and c.func.value == unit.name and u.lookup_def(unit.name) is unit]
        if not callers:
            return False
        for u, c in callers:
            if any(a.star for a in c.args):
                return False
            given = arg_at(c, q.index if q.kind in ("pos", "posonly") else None, q.name)
            if given is None or not _static_expr(u, given, 0):
                return False
        return True

    def _pre_linen_statics(self) -> dict[int, set[str]]:
        """Pre-Linen ``flax.nn`` modules (``class Block(nn.Module): def apply(self, x,
        nout)``): calling the class runs ``apply`` (``Block(x, 64, name="b")``), and
        ``Block.partial(nout=64)`` binds its keywords.  When every use of the class in
        this file is one of those, a parameter of ``apply`` that each passes a Python
        value (a literal, a shape, a name bound to one, or such a parameter of the
        caller's own ``apply``) holds that value, not a tracer.  Greatest fixed point
        over the file's classes: id of the ``apply`` unit -> its parameters shown static.
        Another use of the class (``Block.call(params, x)``, handed on) leaves it as before."""
        idx = self.index
        olds = {c.name: c for c in idx.classes
                if c.is_jax_module and c.linen and "apply" in c.methods and "__call__" not in c.methods}
        if not olds:
            return {}
        uses: dict[str, list] = {name: [] for name in olds}
        bad: set[str] = set()
        for unit, call in self._pending_calls:
            f = call.func
            if type(f) is cst.Name and f.value in olds:
                uses[f.value].append((unit, call, False))
            elif (type(f) is cst.Attribute and type(f.value) is cst.Name and f.value.value in olds
                  and f.attr.value == "partial" and not positional_args(call)):
                uses[f.value.value].append((unit, call, True))
        count = dict.fromkeys(olds, 0)
        for n in walk_tree(idx.module):
            if type(n) is cst.Name and n.value in count:
                count[n.value] += 1
        for name in olds:
            # the `class` statement's name, and each call written above: nothing else
            if count[name] != 1 + len(uses[name]):
                bad.add(name)
        static: dict[int, set[str]] = {}
        for name, cls in olds.items():
            m = cls.methods["apply"]
            if name not in bad and uses[name]:
                static[id(m)] = {p.name for p in m.params[1:] if p.kind in ("pos", "posonly", "kwonly")}
        def unit_static(u: Unit, q: ParamInfo) -> bool:
            # shown static so far, or a parameter with a default that no call shows traced
            return q.name in static.get(id(u), ()) or (
                q.default is not None and q.annotation not in apis.ARRAY_ANNOTATIONS and q.name not in u.traced_params)

        changed = True
        while changed:
            changed = False
            for name, cls in olds.items():
                m = cls.methods["apply"]
                shown = static.get(id(m))
                if not shown:
                    continue
                for p in list(shown):
                    for unit, call, partial in uses[name]:
                        if partial:
                            a = keyword_arg(call, p)
                            ok = a is not None and _static_expr(unit, a.value, 0, unit_static)
                        else:
                            ok = _static_arg(unit, call, m.param(p), unit_static) or (
                                not _passes(call, m.param(p)) and m.param(p).default is not None)
                        if not ok:
                            shown.discard(p)
                            changed = True
                            break
        return static

    def _module_method_sites(self, cls: ClassInfo, name: str) -> list[tuple[Unit, cst.Call]]:
        """The calls of method ``name`` of module class ``cls`` written in this file,
        when they stand for its callers: a helper method, by its calls
        ``<x>.name(...)``; ``__call__`` of a submodule that other module classes
        of this file hold as a field (``pos: Emb``, ``self.pos = Emb(...)``), by
        their calls ``self.pos(...)``.  Empty: callers unknown (traced as before)."""
        if name != "__call__":
            if name.startswith("__"):
                return []
            local = {c.name for c in self.index.classes}
            return [(u, c) for u, c in self._method_calls.get(name, ())
                    if not self._other_class(u, c, local) and not _self_of_unrelated(u, c, cls)]
        sites = []
        for attr in self._submodule_fields(cls):
            for unit, call in self._method_calls.get(attr, ()):
                recv = call.func.value  # type: ignore[union-attr]
                if not (isinstance(recv, cst.Name) and recv.value == "self") and not (
                        cls.nnx and (dotted_name(recv) or "").startswith("self.")):
                    # (an NNX submodule reached through another: `self.model.visual(...)`)
                    return []
                sites.append((unit, call))
        if not sites and not cls.nnx:
            sites = self._stored_class_sites(cls)
        return sites

    def _stored_class_sites(self, cls: ClassInfo) -> list[tuple[Unit, cst.Call]]:
        """The calls of the ``__call__`` of module class ``cls`` (or of a subclass of this
        file that inherits it) that other module classes of this file make through a
        field holding the class itself (``skip_cls: ModuleDef = Skip``), the module
        built where it is applied: ``self.skip_cls(strides)(x, y.shape)``, or through a
        local bound to it (``skip = partial(self.skip_cls, conv=...)``, then
        ``skip(strides)(x, y.shape)``).  Empty unless every use of such a field in its
        holder's methods is one of those applied calls (a module built and kept, or
        handed on, is called where the model does not look)."""
        m = cls.methods.get("__call__")
        runners = {c.name for c in self.index.classes if c.method("__call__") is m and c.is_jax_module}
        fields: dict[int, set[str]] = {}
        for other in self.index.classes:
            if other is cls or not other.is_jax_module or other.name in runners:
                continue
            for stmt in other.node.body.body:
                if isinstance(stmt, cst.SimpleStatementLine):
                    for small in stmt.body:
                        if (isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name)
                                and isinstance(small.value, cst.Name) and small.value.value in runners):
                            fields.setdefault(id(other), set()).add(small.target.value)
        if not fields:
            return []
        sites: list[tuple[Unit, cst.Call]] = []
        seen: set[int] = set()  # the `self.<field>` nodes the applied calls account for
        applied: dict[tuple[int, str], int] = {}  # (method node, local) -> its applied calls
        for unit, call in self._applied_initializer_calls:
            holder = unit.cls
            inner = call.func
            if holder is None or type(inner) is not cst.Call:
                continue
            attrs = _held_fields(holder, fields)
            if not attrs:
                continue
            ref = _stored_class_ref(unit, inner.func, attrs)
            if ref is not None:
                seen.add(id(ref))
                sites.append((unit, call))
                if type(inner.func) is cst.Name:
                    key = (id(unit.node), inner.func.value)
                    applied[key] = applied.get(key, 0) + 1
        for other in self.index.classes:
            attrs = fields.get(id(other))
            if not attrs:
                continue
            for meth in other.methods.values():
                uses: dict[str, int] = {}
                attr_names: set[int] = set()  # (`x.skip`'s `skip` is no use of a local)
                for n in walk_tree(meth.node):
                    if type(n) is cst.Attribute:
                        attr_names.add(id(n.attr))
                        if (n.attr.value in attrs and type(n.value) is cst.Name
                                and n.value.value == "self" and id(n) not in seen):
                            return []  # built and kept, handed on, or called where the model does not look
                    elif type(n) is cst.Name and (id(meth.node), n.value) in applied and id(n) not in attr_names:
                        uses[n.value] = uses.get(n.value, 0) + 1
                if any(uses.get(name, 0) != count + 1 for (node_id, name), count in applied.items()
                       if node_id == id(meth.node)):
                    return []  # the local is also used otherwise (`m = skip(s)`, handed on)
        return sites

    def _other_class(self, unit: Unit, call: cst.Call, local: set[str]) -> bool:
        """Is the receiver of ``call`` a name bound only to instances of classes not
        defined in this file (``cell = linen.LSTMCell(...)``: another class's method)?"""
        recv = call.func.value  # type: ignore[union-attr]
        if not isinstance(recv, cst.Name):
            return False
        entries = unit.bindings.get(recv.value)
        if not entries or recv.value in unit.global_names or unit.param(recv.value) is not None:
            return False
        for _, expr in entries:
            if not isinstance(expr, cst.Call):
                return False
            ctor = dotted_name(expr.func)
            if ctor is None or ctor.rsplit(".", 1)[-1] in local:
                return False
        return True

    def _submodule_fields(self, cls: ClassInfo) -> set[str]:
        """Attributes of the other module classes of this file that hold a ``cls``."""
        out: set[str] = set()
        for other in self.index.classes:
            if other is cls or not other.is_jax_module:
                continue
            for stmt in other.node.body.body:
                if isinstance(stmt, cst.SimpleStatementLine):
                    for small in stmt.body:
                        if (isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name)
                                and dotted_name(small.annotation.annotation) == cls.name):
                            out.add(small.target.value)
            for m in other.methods.values():
                for stmt in _body_statements(m.node):
                    if (isinstance(stmt, cst.Assign) and isinstance(stmt.value, cst.Call)
                            and dotted_name(stmt.value.func) == cls.name):
                        for t in stmt.targets:
                            tg = t.target
                            if isinstance(tg, cst.Attribute) and isinstance(tg.value, cst.Name) and tg.value.value == "self":
                                out.add(tg.attr.value)
        return out

    def _site_receiver_class(self, site: TransformSite) -> Optional[str]:
        """``Model`` for the site ``jax.jit(m.step)`` where ``m = Model(...)``, a class
        of this file (the name bound last before the site); None otherwise."""
        fn = site.fn_expr
        if type(fn) is not cst.Attribute or type(fn.value) is not cst.Name or fn.value.value in ("self", "cls"):
            return None
        found = site.scope.binding_for(fn.value.value, site.seq)
        value = found[1][1] if found is not None else None
        if type(value) is not cst.Call or type(value.func) is not cst.Name:
            return None
        names = {c.name for c in self.index.classes if c.name == value.func.value}
        return value.func.value if names else None

    def _apply_site(self, site: TransformSite, depth: int = 0) -> None:
        if depth > 4:
            return
        if site.target is not None:
            unit, n_bound, kw_bound, inner = site.target, 0, frozenset(), None
        elif (held := self.index.held_function(site.fn_expr, site.scope, site.seq)) is not None:
            self._apply_held(site, held)
            return
        else:
            unit, n_bound, kw_bound, inner = self.resolve_fn(site.fn_expr, site.scope, site.seq)
        if inner is not None:
            # jax.jit(jax.grad(f)) / jax.vmap(jax.jit(f)): the outer transform traces f
            call = inner.call
            assert call is not None
            t_inner = inner.transform
            for i in t_inner.fn_args:
                pos = positional_args(call)
                if i < len(pos):
                    outer = TransformSite(
                        site.transform if site.transform.traces else t_inner,
                        site.qualname if site.transform.traces else inner.qualname,
                        site.call,
                        pos[i].value,
                        site.scope,
                        seq=site.seq,
                    )
                    self._apply_site(outer, depth + 1)
            return
        if unit is None and site.target is None and type(site.fn_expr) is cst.Name:
            looped = _loop_functions(site.scope, site.fn_expr.value, site.seq, site.call)
            if looped is not None:
                # `for fn in (f, g): jax.jit(fn)(x)`: each function of the literal is traced
                for el in looped:
                    self._apply_site(TransformSite(site.transform, site.qualname, site.call, el,
                                                   site.scope, seq=site.seq), depth + 1)
                return
        if unit is None:
            fn = site.fn_expr
            listed = _listed_functions(site.scope, fn) if site.transform.fn_list_args else []
            if listed:
                # `lax.switch(i, BRANCHES, x)`: each function of the list bound to that name
                for el in listed:
                    self._apply_site(TransformSite(site.transform, site.qualname, site.call, el, site.scope,
                                                   seq=site.seq), depth + 1)
                return
            if type(fn) is cst.Name and not site.scope.is_module and site.scope.param(fn.value) is not None \
                    and fn.value not in site.scope.assigned and not site.transform.host:
                # a function-valued parameter: the callers' functions are transformed (by
                # a helper with an eager mode only where the call picks the transformed
                # path: `f = jax.jit(fn) if jit else fn` with `jit=True`; `if DISABLE_JIT:
                # body_fun(i, val) else: lax.fori_loop(..., body_fun, ...)`: a setting)
                scope = site.scope
                if self._transformed_ids is None:
                    self._transformed_ids = {id(s.fn_expr) for s in self.index.sites if not s.transform.host}
                mode = dual_mode.mode_of(scope.node, site.call if site.call is not None else fn, fn.value,
                                         {p.name: p for p in scope.params}, self._transformed_ids)
                if mode == dual_mode.UNKNOWN:
                    return
                if mode == dual_mode.ALWAYS:
                    scope.transform_conditions.pop(fn.value, None)
                    self._always.add((id(scope), fn.value))
                elif (id(scope), fn.value) not in self._always:
                    scope.transform_conditions[fn.value] = mode  # type: ignore[assignment]
                self._param_sites.append((scope, fn.value, site))
                if site.transform.traces or not _traces(scope.transformed_params.get(fn.value)):
                    # `jax.jit(jax.grad(loss_fn))`: the tracing transformation is the one the
                    # callers' function meets (a differentiation alone: concrete tracers)
                    scope.transformed_params[fn.value] = site.qualname
                return
            self._external_site(site, n_bound, kw_bound)
            return
        t = site.transform
        if t.host:
            unit.host = True
            unit.reasons.append(f"a host callback of {site.qualname}")
            return
        if not t.traces:
            # jax.grad(f)(x) outside jit: tracers of concrete values (model/gradtrace.py)
            gradtrace.mark_site(unit, site.qualname, site.call, n_bound, kw_bound)
            return
        static = self._static_params(site, unit, n_bound)
        unbatched = self._vmap_unbatched(site, unit, n_bound)
        mark_site(unit, t, _reason(site), static, n_bound, kw_bound, unbatched,
                  _partial_given(site.fn_expr, self.qualname))
        receiver = self._site_receiver_class(site) if n_bound else None
        if receiver is not None:
            # `m = Model(); jax.jit(m.step)`: `step` runs traced on a `Model`, so `self.hook()`
            # there reaches `Model.hook`, not its subclasses' overrides (model/overrides.py)
            # (":Cls": a class of this module, whose name the index does not know)
            unit.receiver_reasons.setdefault(_reason(site), set()).add(f":{receiver}")
        if not t.host:
            self._closure_params(site, unit)
        applied = self._applied.get(id(site.call)) if site.call is not None else None
        unit.note_consts(_site_consts(site.fn_expr, self.qualname, unit, n_bound, static, applied))
        if applied is not None:
            self.index.applied_units[id(applied)] = (unit, n_bound)
        site_id = id(site.call if site.call is not None else site.fn_expr)
        unit.trace_sites.add(site_id)
        if depth == 0 and site.qualname == "jax.vmap" and site.call is not None and id(site.call) in self.index.called_now:
            unit.eager_sites[site_id] = site.scope
        unit.site_reasons.add(_reason(site))

    def _eager_call(self, call: cst.Call, transform: str) -> bool:
        """Is ``call`` written inside ``with jax.disable_jit():`` and ``transform`` one that
        runs eagerly there (``jax.jit``, the loop and branch primitives: Python loops over
        concrete values)?  The function a helper hands to it is then not traced by that call."""
        if transform not in _DISABLED_BY_DISABLE_JIT:
            return False
        if self._disabled_calls is None:
            self._disabled_calls = set()
            for n in walk_tree(self.index.module_unit.node):
                if type(n) is cst.With and any(
                        type(item.item) is cst.Call and self.qualname(item.item.func) == "jax.disable_jit"
                        for item in n.items):
                    self._disabled_calls.update(id(m) for m in walk_tree(n.body) if type(m) is cst.Call)
        return id(call) in self._disabled_calls

    def _closure_params(self, site: TransformSite, unit: Unit) -> None:
        """``def _while_loop_lax(cond_fun, ...): def _cond(v): return cond_fun(v[1]) ...
        lax.while_loop(_cond, ...)``: a function of the helper that the transformation
        traces calls a parameter of the helper, so the function a call of the helper
        passes for it runs traced too, as if handed to the transformation itself
        (``_passed_functions``; on the helper's path with the transformation only)."""
        scope = site.scope
        if scope.is_module or unit.parent is not scope or not isinstance(scope.node, cst.FunctionDef) \
                or not isinstance(unit.node, cst.FunctionDef):
            return
        own = {p.name for p in unit.params} | set(unit.assigned)
        for n in walk_tree(unit.node.body):
            if type(n) is not cst.Call or type(n.func) is not cst.Name:
                continue
            name = n.func.value
            if name in own or scope.param(name) is None or name in scope.assigned \
                    or name in scope.transformed_params:
                continue
            if self._transformed_ids is None:
                self._transformed_ids = {id(s.fn_expr) for s in self.index.sites
                                         if s.transform.traces and not s.transform.host}
            mode = dual_mode.mode_of(scope.node, site.call if site.call is not None else site.fn_expr, name,
                                     {p.name: p for p in scope.params}, self._transformed_ids)
            if mode == dual_mode.UNKNOWN:
                continue
            if mode == dual_mode.ALWAYS:
                self._always.add((id(scope), name))
            elif (id(scope), name) not in self._always:
                scope.transform_conditions[name] = mode  # type: ignore[assignment]
            self._param_sites.append((scope, name, site))
            scope.transformed_params[name] = site.qualname

    def _apply_held(self, site: TransformSite, held: "holders.HeldFunction") -> None:
        """``jax.jit(f.apply)`` with ``f = hk.transform(forward)``: ``forward`` is traced
        with the arguments after those ``apply`` keeps (static positions shifted)."""
        t = site.transform
        unit = held.unit
        if not t.traces or t.host or unit.host:
            return
        static: set[str] = set()
        call = site.call
        if call is not None and (t.static_argnums_kw or t.static_argnames_kw):
            positional = unit.positional()
            a = keyword_arg(call, t.static_argnums_kw) if t.static_argnums_kw else None
            if a is not None:
                nums = literal_ints(a.value)
                if nums is None:
                    static = {p.name for p in unit.params}
                else:
                    off = 1 if held.method else 0  # a method's `self` is bound
                    static = {positional[n - held.skip + off].name for n in nums
                              if 0 <= n - held.skip and n - held.skip + off < len(positional)}
            a = keyword_arg(call, t.static_argnames_kw) if t.static_argnames_kw else None
            if a is not None:
                names = literal_strs(a.value)
                static |= set(names) if names is not None else {p.name for p in unit.params}
        reason = f"{_reason(site)} as `{dotted_name(site.fn_expr)}`"
        mark_site(unit, t, reason, static)
        unit.trace_sites.add(id(call if call is not None else site.fn_expr))
        unit.site_reasons.add(reason)

    def _find_factories(self) -> None:
        """Functions that return a function they define (``def make_step(cfg): def
        step(x): ...; return step``): each call makes a new function object."""
        for u in self.index.units:
            node = u.node
            if isinstance(node, cst.Lambda):
                # `make = lambda lr: jax.jit(partial(update, lr=lr))`
                if self._fresh_jit(u, node.body):
                    u.returns_fresh_jit = True
                continue
            if not isinstance(node, cst.FunctionDef):
                continue
            if u.cls is None and any(isinstance(v, cst.Lambda) or (isinstance(v, cst.Name) and v.value in u.defs)
                                     for v in u.returns):
                u.returns_fresh_function = True
            if node.decorators:
                continue  # `@functools.lru_cache`, `@staticmethod`...: what a call returns is not known to be new
            if u.returns and all(self._fresh_jit(u, v) for v in u.returns):
                # (a method too: `self.make_step(lr)(params, b)`)
                u.returns_fresh_jit = True

    def _fresh_jit(self, u: Unit, v: cst.CSTNode, depth: int = 0) -> bool:
        """Is ``v``, returned by ``u``, a jitted function made anew by each call of
        ``u``: a def of its body decorated with a caching jit (``@jax.jit def update``,
        ``@partial(jax.jit, ...)``), or a caching jit of a def of its body, a lambda or a
        ``partial`` (``return jax.jit(update)``), also through a name of its body bound
        once to one (``step = jax.jit(partial(update, lr=lr)); return step``)?  Its
        compile cache is new with it."""
        caching = apis.CACHING_JITS
        if v is None:
            return False
        if isinstance(v, cst.Name):
            inner = u.defs.get(v.value)
            if inner is None:
                entries = u.bindings.get(v.value)
                if depth < 2 and entries and len(entries) == 1 and entries[0][1] is not None \
                        and u.param(v.value) is None and v.value not in u.global_names \
                        and v.value not in u.nonlocal_names:
                    return self._fresh_jit(u, entries[0][1], depth + 1)
                return False
            if not isinstance(inner.node, cst.FunctionDef):
                return False
            for dec in inner.node.decorators:
                d = dec.decorator
                if isinstance(d, cst.Call):
                    if self.qualname(d.func) == "functools.partial" and d.args:
                        d = d.args[0].value
                    else:
                        d = d.func
                if self.qualname(d) in caching:
                    return True
            return False
        if isinstance(v, cst.Call) and self.qualname(v.func) in caching and v.args and v.args[0].keyword is None:
            a = v.args[0].value
            return isinstance(a, cst.Lambda) or (isinstance(a, cst.Name) and a.value in u.defs) or (
                isinstance(a, cst.Call) and self.qualname(a.func) == "functools.partial")
        return False

    def _settle_key_consumers(self) -> None:
        """A parameter rebound in the body may hold another key when it is sampled.
        A function that hands its key parameter to a consuming function of this
        file consumes it too (``def wrapped(key, x): return sample(key, x)``)."""
        self._initializer_key_consumers()
        self._haiku_apply_consumers()
        for u in self.index.units:
            for name in [n for n in u.consumes_keys if n in u.assigned and not only_defaulted(u, n)
                         and not keyflow.split_in_place(u, n, self.qualname)
                         and not keyflow.drawn_outside_comprehensions(u, n, self.qualname)]:
                del u.consumes_keys[name]
        handed = []  # (caller, parameter of the caller, callee, callee's parameter)
        self_calls = [(u, c) for calls in self._method_calls.values() for u, c in calls
                      if type(c.func.value) is cst.Name and c.func.value.value == "self"
                      and u.cls is not None and u.params and u.params[0].name == "self"]
        for unit, call in [*self._pending_calls, *self_calls]:
            if unit.is_module or any(a.star for a in call.args):
                continue
            skip = 0
            if isinstance(call.func, cst.Name):
                callee = unit.lookup_def(call.func.value)
                if callee is None and call.func.value not in unit.assigned and unit.param(call.func.value) is None:
                    # `Conv(n, key=key)` of a class of this file: its own `__init__` gets the key
                    found = [c for c in self.index.classes if c.name == call.func.value]
                    init = found[0].methods.get("__init__") if len(found) == 1 \
                        and any(st is found[0].node for st in self.index.module.body) else None
                    if init is not None and bound_receiver(init) and init.params and init.params[0].name == "self":
                        callee, skip = init, 1
            elif isinstance(call.func, cst.Attribute) and unit.cls is not None and type(call.func.value) is cst.Name \
                    and call.func.value.value == "self":
                # `self.rollout(params, rng)`: a method of this class bound to `self`
                callee = unit.cls.methods.get(call.func.attr.value)
                if callee is None or not bound_receiver(callee) or not callee.params \
                        or callee.params[0].name != "self":
                    continue
                skip = 1
            else:
                continue
            if callee is None or callee is unit or callee.is_generator or not isinstance(callee.node, cst.FunctionDef):
                continue
            positional = callee.positional()[skip:]
            for i, a in enumerate(positional_args(call)):
                if i < len(positional) and isinstance(a.value, cst.Name):
                    handed.append((unit, a.value.value, callee, positional[i].name))
            for a in call.args:
                if a.keyword is not None and isinstance(a.value, cst.Name) and callee.param(a.keyword.value):
                    handed.append((unit, a.value.value, callee, a.keyword.value))
        self._handed = handed
        self._propagate_handed()

    def _propagate_handed(self) -> None:
        """A function that hands its key parameter to a function of this file that
        consumes it consumes it too (to a fixed point)."""
        handed = self._handed
        for _ in range(len(self.index.units)):
            changed = False
            for unit, name, callee, param in handed:
                how = callee.consumes_keys.get(param)
                if how is None or name in unit.consumes_keys or unit.param(name) is None \
                        or name in unit.assigned and not only_defaulted(unit, name):
                    continue
                unit.consumes_keys[name] = how
                changed = True
            if not changed:
                break
        # a dimension handed on to a callee that draws at that size (`init_layer(key, m, n)`
        # in `def dense(key, m, n)`) is a dimension of this function's draw too
        for _ in range(3):
            changed = False
            for unit, name, callee, param in handed:
                if param in callee.draw_dims and name not in unit.draw_dims and unit.param(name) is not None \
                        and callee.consumes_keys:
                    unit.draw_dims.add(name)
                    changed = True
            if not changed:
                break

    def _haiku_apply_consumers(self) -> None:
        """``net.apply(params, rng, x)`` of ``net = hk.transform(forward)`` whose
        ``forward`` draws from haiku's key stream consumes ``rng``, a parameter of the
        function (or of one it is nested in: the loss closure of a jitted update), as
        ``rngs={"dropout": rng}`` does for flax (model/keyflow.py haiku_apply_rng)."""
        memo: dict[int, str] = {}

        def class_named(name: str):
            found = [c for c in self.index.classes if c.name == name] if "." not in name else []
            return found[0] if len(found) == 1 and any(s is found[0].node for s in self.index.module.body) else None

        def draws(unit: Unit) -> str:
            got = memo.get(id(unit))
            if got is None:
                got = memo[id(unit)] = keyflow.haiku_draws(unit, self.qualname, class_named) or ""
            return got
        for unit, call in self._pending_calls:
            if unit.is_module or type(call.func) is not cst.Attribute or call.func.attr.value != "apply":
                continue
            held = self.index.held_function(call.func, unit)
            found = keyflow.haiku_apply_rng(call, held, draws) if held is not None else None
            if found is not None and type(found[0]) is cst.Name:
                key_param_consumed(unit, found[0].value, found[1])

    def _initializer_key_consumers(self) -> None:
        """``init(key, shape)`` of an initializer that draws (``init = lecun_normal()``,
        ``normal()(key, s)``, ``self.kernel_init`` defaulting to one: keyflow.initializer_of)
        consumes ``key``, a parameter of the function (or of one it is nested in)."""
        if not self.index.makes_initializers:
            calls: list = []
        else:
            calls = [(u, c) for u, c in self._pending_calls if type(c.func) is cst.Name]
            for _, lst in self._method_calls.items():
                calls += [(u, c) for u, c in lst if type(c.func.value) is cst.Name and c.func.value.value == "self"]
            calls += self._applied_initializer_calls
        for unit, call in calls:
            if unit.is_module or any(a.star for a in call.args):
                continue
            key = arg_at(call, 0, "key")
            if type(key) is not cst.Name:
                continue
            factory = initializer_of(call.func, unit, self.index, self.qualname)
            if factory is not None:
                key_param_consumed(unit, key.value, f"{factory}()(...)")
        # `dist.sample(seed=key)` of a distrax / TFP distribution consumes `seed`
        sampled = [*self._pending_calls, *(c for lst in self._method_calls.values() for c in lst)]
        for unit, call in sampled:
            func = call.func
            if unit.is_module or type(func) is not cst.Attribute:
                continue
            seed = keyword_arg(call, "seed")
            if seed is None or type(seed.value) is not cst.Name:
                continue
            made = bound_once(self.index, unit, func.value)
            if type(made) is cst.Call and apis.distribution_class(self.qualname(made.func)) \
                    and func.attr.value in apis.DISTRIBUTION_SAMPLERS \
                    or self.qualname(func) is None and key_like_name(seed.value.value):
                # a distribution the model cannot place (`pi = actor.apply(params, obs)`) given
                # `seed=` a key: distrax's and TFP's sampling signature draws from it
                key_param_consumed(unit, seed.value.value, f"{func.attr.value}(seed=...)")

    def _external_site(self, site: TransformSite, n_bound: int, kw_bound: frozenset[str]) -> None:
        """``jax.jit(mod.f, ...)`` of a function this file imports: recorded for ``mod``."""
        t = site.transform
        if t.host or not t.traces and not gradtrace.differentiates(site.qualname):
            return  # (`jax.grad(losses.loss)`: differentiated there, outside jit: model/gradtrace.py)
        fn = site.fn_expr
        while isinstance(fn, cst.Call) and self.qualname(fn.func) in apis.PARTIALS:
            pos = positional_args(fn)  # partial(losses.hinge, 1.0): n_bound counts its arguments
            if not pos or any(a.star for a in fn.args):
                return  # partial(f, *args) / partial(f, **kw): which parameters are bound is unknown
            fn = pos[0].value
        held = self._held_import(fn, site.scope, site.seq) if fn is site.fn_expr else None
        if held is not None:
            # `jax.jit(net.apply)` with `net = hk.transform(nets.forward)`: the imported function
            # runs traced with the arguments after those `apply` keeps (what is static there
            # is not followed: with static arguments, nothing is recorded)
            if site.call is not None and any(
                    a.keyword is not None and a.keyword.value in (t.static_argnums_kw, t.static_argnames_kw)
                    for a in site.call.args):
                return
            fn = held
        callee = dotted_name(fn) if isinstance(fn, (cst.Name, cst.Attribute)) else None
        if held is not None:
            pass
        elif isinstance(fn, cst.Attribute) and fn.attr.value == "apply":
            # `jax.jit(model.apply)` with `model = models.Net(...)`, `jax.jit(models.Net().apply)`:
            # the class's `apply` (a flax linen module runs its `__call__`: project/facts.py)
            ctor = self._constructed_by(fn.value, site.scope, site.seq)
            if ctor is not None:
                callee = f"{ctor}.apply"
                fn = cst.parse_expression(callee)
        elif isinstance(fn, cst.Attribute) and isinstance(fn.value, cst.Call):
            # `jax.grad(model.Model().loss)`: the method of the imported class, its `self`
            # bound to the instance built in place
            ctor = self._constructed_by(fn.value, site.scope, site.seq)
            if ctor is None:
                return
            callee = f"{ctor}.{fn.attr.value}"
            fn = cst.parse_expression(callee)
            n_bound += 1
        elif isinstance(fn, cst.Attribute) and isinstance(fn.value, cst.Name) and fn.value.value not in ("self", "cls"):
            # `jax.jit(solver.solve)` with `solver = models.Solver(...)`: the method of the
            # imported class, its `self` bound
            ctor = self._constructed_by(fn.value, site.scope, site.seq)
            local = self._local_instance_class(fn.value, site.scope, site.seq) if ctor is None else None
            if ctor is not None:
                callee = f"{ctor}.{fn.attr.value}"
                fn = cst.parse_expression(callee)
                n_bound += 1
            elif local is not None and local.method(fn.attr.value) is None:
                # `jax.jit(env.step)` with `env = Corridor(...)`, a class of this file that
                # inherits `step` from a base of another module: that base's method, `self`
                # bound (`@:` names this module; project/facts.py follows the bases)
                callee = f"@:{local.name}.{fn.attr.value}"
                n_bound += 1
            elif not site.scope.is_module and fn is site.fn_expr:
                held = _param_element(site.scope, fn.value.value)
                if held is not None:
                    # `jax.vmap(agent.update)` with `agent` a parameter (or an element of
                    # one unpacked: `first, second = agents`): the method of the class
                    # the callers pass an instance of, once the facts say which (apply_facts)
                    param, element = held
                    self._method_sites.append((site, n_bound + 1, kw_bound, param, element, fn.attr.value))
                    self.index.param_methods.setdefault((site.scope.qualname, param), set()).add(fn.attr.value)
                    return
        if callee is None:
            return
        self._record_external(site, callee, fn, n_bound, kw_bound,
                              as_written=held is None and fn is site.fn_expr and "." in callee)

    def _record_external(self, site: TransformSite, callee: str, fn: cst.BaseExpression, n_bound: int,
                         kw_bound: frozenset[str], as_written: bool = False) -> None:
        t = site.transform
        head = callee.split(".", 1)[0]
        returned = False
        if callee.startswith("@"):
            pass  # a method of a class another module defines, named there (`@pkg.agent:Agent.update`)
        elif isinstance(fn, cst.Name) and site.scope.binding_for(head, site.seq) is not None:
            # `step = make_step(3)` ... `jax.jit(step)`: what a factory of the project returned
            made = factory_binding(site.scope, head, self.index.imports, None, site.seq)
            if made is None:
                return
            callee, head, returned = made, made.split(".", 1)[0], True
        elif site.scope.binding_for(head, site.seq) is not None or self.index.imports.resolve_dotted(head) is None:
            return  # a local value, or not an import: unknown
        static_pos: Optional[tuple[int, ...]] = ()
        static_names: Optional[tuple[str, ...]] = ()
        call = site.call
        if call is not None:
            if t.static_argnums_kw:
                a = keyword_arg(call, t.static_argnums_kw)
                if a is not None:
                    nums = literal_ints(a.value)
                    static_pos = tuple(nums) if nums is not None else None
            if t.static_argnames_kw:
                a = keyword_arg(call, t.static_argnames_kw)
                if a is not None:
                    names = literal_strs(a.value)
                    static_names = tuple(names) if names is not None else None
        unbatched: tuple[int, ...] = ()
        axes = _passed_through(site) if call is not None else None
        if axes is not None:
            if axes == "all":
                return  # nothing batched: nothing traced by this vmap
            unbatched = tuple(i + n_bound for i in axes)
        found = ExternalSite(callee, site.qualname, "" if site.scope.is_module else site.scope.qualname,
                             call or site.fn_expr, _reason(site), static_pos,
                             static_names, n_bound, tuple(sorted(kw_bound)), unbatched,
                             tuple(sorted(_partial_given(site.fn_expr, self.qualname))))
        found.returned = returned
        found.written = (dotted_name(fn) or "") if returned else ""
        found.as_written = as_written and not returned
        self.index.external_sites.append(found)
        applied = self._applied.get(id(call)) if call is not None else None
        if applied is not None:
            self.index.applied_sites[id(applied)] = found

    def _held_import(self, fn: cst.BaseExpression, scope: Unit, seq: int) -> Optional[cst.BaseExpression]:
        """``net.apply`` with ``net`` bound once to ``hk.transform(nets.forward)`` (or an
        optax ``GradientTransformation`` of imported functions): the imported function
        expression its method runs (model/holders.py); None when unknown or local."""
        if not isinstance(fn, cst.Attribute) or not isinstance(fn.value, cst.Name):
            return None
        found = scope.binding_for(fn.value.value, seq)
        if found is None or len(found[0].bindings.get(fn.value.value, ())) != 1 or found[1][1] is None:
            return None
        inner = holders.imported_function(found[1][1], fn.attr.value, self.qualname)
        if not isinstance(inner, (cst.Name, cst.Attribute)):
            return None
        written = dotted_name(inner)
        head = written.split(".", 1)[0] if written else None
        if head is None or scope.binding_for(head, seq) is not None or self.index.imports.resolve_dotted(head) is None:
            return None  # a function of this file (holders.methods_of), a local value, or unknown
        return inner

    def _local_instance_class(self, expr: cst.BaseExpression, scope: Unit, seq: int) -> Optional[ClassInfo]:
        """The module-level class of this file whose call builds ``expr`` (a name bound
        once to ``Cls(...)``, or the call written in place), with a base it does not
        define here (one another module may define); else None."""
        expr = _through_single_binding(expr, scope, seq)
        if not isinstance(expr, cst.Call) or type(expr.func) is not cst.Name:
            return None
        name = expr.func.value
        if scope.binding_for(name, seq) is not None:
            return None  # a variable of that name
        found = [c for c in self.index.classes if c.name == name]
        if len(found) != 1 or found[0].scope is None or not found[0].scope.is_module:
            return None  # (a class defined twice, or in a function: unknown)
        return found[0] if len(found[0].node.bases) > len(found[0].parents) else None

    def _constructed_by(self, expr: cst.BaseExpression, scope: Unit, seq: int) -> Optional[str]:
        """The imported name (``models.Net``) whose call builds ``expr``: written in place
        (``models.Net(...)``), or a name its scope binds once to such a call."""
        expr = _through_single_binding(expr, scope, seq)
        if not isinstance(expr, cst.Call) or not isinstance(expr.func, (cst.Name, cst.Attribute)):
            return None
        written = dotted_name(expr.func)
        if written is None:
            return None
        head = written.split(".", 1)[0]
        if scope.binding_for(head, seq) is not None or self.index.imports.resolve_dotted(head) is None:
            return None  # a local value, or not an import
        return written

    def apply_facts(self, facts: dict, reads: Optional[factreads.FactReads] = None) -> None:
        """What other modules of the project know of this file: ``units``, its
        functions' facts ``{qualname: [fact, ...]}``, each a call from traced code
        (``kind: "call"``: the positions and keywords that receive tracers) or a
        transformation applied elsewhere (``kind: "site"``); ``jits``, the jitted
        functions it imports by name.  See jaxlint/project/facts.py.  ``reads``:
        record what the analysis asks of them (``model/factreads.py``)."""
        if reads is None:
            self.index.imported_jits = dict(facts.get("jits", {}))
            self.index.imported_key_consumers = dict(facts.get("consumers", {}))
            self.index.imported_key_state = dict(facts.get("key_state", {}))
            self.index.imported_factories = frozenset(facts.get("factories", ()))
            self.index.imported_jit_factories = frozenset(facts.get("jit_factories", ()))
            self.index.imported_returns = dict(facts.get("returns", {}))
            self.index.imported_kernels = frozenset(facts.get("kernels", ()))
            self.index.imported_timers = frozenset(facts.get("timers", ()))
            self.index.imported_constructors = frozenset(facts.get("constructors", ()))
            self.index.imported_stored = dict(facts.get("stored", {}))
            self.index.imported_methods = dict(facts.get("methods", {}))
            self.index.imported_values = dict(facts.get("values", {}))
            self.index.imported_classes = dict(facts.get("classes", {}))
            self.index.imported_consts = dict(facts.get("consts", {}))
            self.index.imported_x64 = dict(facts.get("x64", {}))
            self.index.x64_units = frozenset(facts.get("x64_units", ()))
            self.index.project_facts = dict(facts.get("project", {}))
        else:
            R, S = factreads.ReadDict, factreads.ReadSet
            self.index.imported_jits = R(reads, "jits", facts.get("jits"))
            self.index.imported_key_consumers = R(reads, "consumers", facts.get("consumers"))
            self.index.imported_key_state = R(reads, "key_state", facts.get("key_state"))
            self.index.imported_factories = S(reads, "factories", facts.get("factories"))
            self.index.imported_jit_factories = S(reads, "jit_factories", facts.get("jit_factories"))
            self.index.imported_returns = R(reads, "returns", facts.get("returns"))
            self.index.imported_kernels = S(reads, "kernels", facts.get("kernels"))
            self.index.imported_timers = S(reads, "timers", facts.get("timers"))
            self.index.imported_constructors = S(reads, "constructors", facts.get("constructors"))
            self.index.imported_stored = R(reads, "stored", facts.get("stored"))
            self.index.imported_methods = R(reads, "methods", facts.get("methods"))
            self.index.imported_values = R(reads, "values", facts.get("values"))
            self.index.imported_classes = R(reads, "classes", facts.get("classes"))
            self.index.imported_consts = R(reads, "consts", facts.get("consts"))
            self.index.imported_x64 = R(reads, "x64", facts.get("x64"))
            self.index.x64_units = S(reads, "x64_units", facts.get("x64_units"))
            self.index.project_facts = R(reads, "project", facts.get("project"))
        self.index._flat.clear()
        self.index.x64_imported = bool(facts.get("x64_import"))
        self.index.x64_by_import = bool(facts.get("x64_by_import"))
        self.index.arrays_imports = dict(facts.get("arrays_imports") or {})
        self.index.jax_imports = dict(facts.get("jax_imports") or {})
        self.index.x64_late = dict(facts.get("x64_late") or {})
        by_qualname = {u.qualname: u for u in self.index.units if not u.is_module}
        # `g = lambda i: ...` bound once at module level: facts for `g` are the lambda's
        for name, entries in self.index.module_unit.bindings.items():
            if len(entries) == 1 and isinstance(entries[0][1], cst.Lambda) and name not in by_qualname:
                lam = self.index.unit_of.get(id(entries[0][1]))
                if lam is not None:
                    by_qualname[name] = lam
        if reads is not None:
            # the facts of each function of the file are read, whatever they hold
            reads.note_all("units", by_qualname)
            reads.note_all("passed", by_qualname)
            reads.note_all("static_given", by_qualname)
        if reads is not None:
            reads.note_all("attr_changes", by_qualname)
        for qualname, changes in facts.get("attr_changes", {}).items():
            # attributes of project modules another module sets between two calls
            unit = by_qualname.get(qualname)
            if unit is not None:
                for m, a, where in changes:
                    unit.attr_changes.setdefault((m, a), where)
        if reads is not None:
            reads.note_all("repeated", by_qualname)
        # module classes of this file that other modules use (project/facts.py)
        self.index.used_classes = frozenset(facts.get("used_classes", ()))
        for qualname in facts.get("repeated", ()):
            # another module calls it in a loop or a comprehension
            unit = by_qualname.get(qualname)
            if unit is not None:
                unit.repeated_elsewhere = True
        if reads is not None:
            reads.note_all("again", by_qualname)
        for qualname in facts.get("again", ()):
            # another module runs it again and again otherwise (model/repeats.py)
            unit = by_qualname.get(qualname)
            if unit is not None:
                unit.runs_again = True
        sinks = facts.get("static_sinks")
        self.index.imported_static_sinks = factreads.ReadDict(reads, "static_sinks", sinks) if reads is not None \
            else dict(sinks or {})
        takes = facts.get("takes_fns")
        self.index.imported_takes_fns = factreads.ReadDict(reads, "takes_fns", takes) if reads is not None \
            else dict(takes or {})
        if self.index.imported_takes_fns:  # (asked even when empty: a later round may fill it)
            self._imported_takes_fns()
        for qualname, names in facts.get("passed", {}).items():
            # a call in another module passes these defaulted parameters: traced
            unit = by_qualname.get(qualname)
            if unit is not None:
                unit.traced_params.update(n for n in names if n in unit.defaulted_params)
        self.index.static_given_bound = {}
        if reads is not None:
            reads.note_all("static_given", self.index.module_unit.bindings)  # (module-level jits too)
        for qualname, given in facts.get("static_given", {}).items():
            # calls in other modules give these static parameters arrays (JAX207)
            unit = by_qualname.get(qualname)
            if unit is not None:
                unit.static_given = {p: [list(g) for g in gs] for p, gs in given.items()}
            elif "." not in qualname:
                # a module-level name bound to a jit (`ask = jit(f, static_argnums=2)`)
                self.index.static_given_bound[qualname] = {p: [list(g) for g in gs] for p, gs in given.items()}
        n_fact = 0
        for qualname, items in sorted(facts.get("units", {}).items()):
            base = by_qualname.get(qualname)
            if base is None or base.host:
                continue
            for fact in items:
                unit = base
                if fact.get("returned") is not None:
                    # what the factory `qualname` returned runs there (model/calls.py)
                    made = self._made_by(base, fact["returned"])
                    if made is None:
                        continue
                    unit, skip = made
                    if skip:
                        fact = _skipped(fact, skip)
                if fact.get("kind") == "site" and _derivative_outside_jit(fact):
                    pass  # `jax.grad(losses.loss)(p, x)` there: the call's own fact tells its shapes
                elif fact.get("kind") not in ("args", "call") or fact.get("skip") or fact.get("returned") is not None \
                        or fact.get("method") or not arg_shapes.fact_site(unit, ("fact", n_fact), fact):
                    unit.foreign_uses = True  # used there other than by a call whose shapes are known
                n_fact += 1
                if fact.get("skip"):
                    # `Model(...).apply(variables, x)` there: `__call__` gets the arguments after `variables`
                    fact = _skipped(fact, int(fact["skip"]))
                if fact.get("kind") == "call" and fact.get("ctor") and unit.cls is not None \
                        and unit.name in instances.FIELD_CHECKS:
                    # `Cls(**params)` there, a generated `__init__`: the fields it gives tracers
                    fields = instances.traced_fields(
                        unit.cls, int(fact.get("n_pos", 0)), fact.get("traced_pos", ()),
                        fact.get("keywords", ()), fact.get("traced_kw", ()), bool(fact.get("star_traced")),
                        self.index.classes)
                    if fields:
                        unit.mark_traced(fact["reason"])
                        unit.traced_fields |= fields
                        origin = (fact.get("path", ""), int(fact.get("line", 0)), fact["reason"])
                        if fact.get("path") and origin not in unit.origins:
                            unit.origins.append(origin)
                    continue
                if fact.get("kind") == "call" and fact.get("star_traced"):
                    # `Cls(**params)` there with a traced dict: every parameter without a
                    # default that no other argument fills gets a tracer
                    given = {p.name for p in unit.positional()[1:][:int(fact.get("n_pos", 0))]}
                    given |= set(fact.get("keywords", ()))
                    for p in unit.params[1:]:
                        if p.kind in ("pos", "kwonly") and p.default is None and p.name not in given \
                                and p.name not in unit.static_params:
                            unit.traced_params.add(p.name)
                    fact = {**fact, "star_traced": False}
                if fact.get("kind") == "call" and _cannot_bind(unit, fact):
                    continue  # the call raises TypeError before the body runs: it passes nothing
                if fact.get("kind") == "args":
                    # what a call in another module passes (model/kinds.py), traced or not
                    _join_arg_kinds(unit, fact)
                    continue
                if fact.get("read") and not pytree_methods.is_property(unit):
                    continue  # `obj.m` read there, not called: a method that is no property does not run
                origin = (fact.get("path", ""), int(fact.get("line", 0)), fact["reason"])
                if fact.get("path") and origin not in unit.origins:
                    unit.origins.append(origin)
                if fact.get("receiver") and not fact.get("grad"):
                    # run there on an instance of a class that inherits it (model/overrides.py)
                    unit.receiver_reasons.setdefault(fact["reason"], set()).add(fact["receiver"])
                if fact.get("kind") == "site":
                    t = apis.transform_for(fact.get("transform")) or slots.slot_for(fact.get("transform"))
                    if t is not None and not t.traces and not t.host and fact.get("grad_argnums", 0) is not None:
                        # `jax.grad(metrics.ssim)(x)` there, outside jit: this function is
                        # differentiated with concrete tracers (model/gradtrace.py), as a
                        # `jax.grad` of it written here is
                        shift = 1 if fact.get("as_written") and _is_classmethod(unit) else 0
                        gradtrace.mark_site(unit, fact.get("transform") or "", None,
                                            int(fact.get("n_bound", 0)) + shift,
                                            frozenset(fact.get("kw_bound", ())),
                                            argnums=fact.get("grad_argnums"))
                        continue
                    if t is None or not t.traces or t.host:
                        continue
                    n_bound = int(fact.get("n_bound", 0))
                    shift = 1 if fact.get("as_written") and _is_classmethod(unit) else 0
                    n_bound += shift  # `jax.jit(DQN.train)`: the class is bound to `cls`
                    positional = unit.positional()[n_bound:]
                    static_pos = fact.get("static_pos")
                    static_names = fact.get("static_names")
                    if static_pos is None or static_names is None:
                        static = {p.name for p in unit.params}
                    else:
                        static = {positional[n].name for n in static_pos if -len(positional) <= n < len(positional)}
                        static |= set(static_names)
                    all_positional = unit.positional()
                    unbatched = {all_positional[i + shift].name for i in fact.get("unbatched_pos", ())
                                 if i + shift < len(all_positional)}
                    mark_site(unit, t, fact["reason"], static, n_bound,
                              frozenset(fact.get("kw_bound", ())), unbatched,
                              frozenset(fact.get("kw_given", ())))
                    for i in fact.get("array_pos", ()):  # applied at once to arrays there
                        if i < len(positional) and positional[i].name in unit.traced_params:
                            unit.array_params.add(positional[i].name)
                    for i, flat in (fact.get("classes") or {}).items():  # ... and pytree instances
                        if int(i) < len(positional) and positional[int(i)].name in unit.traced_params:
                            unit.pass_class(positional[int(i)].name, self.index.flat_class(flat) if flat else None)
                elif fact.get("kind") == "call" and fact.get("read"):
                    # `cosmo.k` there, `cosmo` a traced instance: the property runs with its leaves
                    if unit.cls is not None:
                        pytree_methods.run_on(unit, pytree_methods.index_leaves(self.index, unit.cls), fact["reason"])
                elif fact.get("kind") == "call" and fact.get("grad"):
                    # called from a function another module differentiates outside jit: the
                    # parameters given tracers hold concrete values (model/gradtrace.py)
                    params = unit.positional()
                    if unit.cls is not None and params and params[0].name in ("self", "cls"):
                        params = params[1:]
                    given = [params[i].name for i in fact.get("traced_pos", ()) if i < len(params)]
                    given += [n for n in fact.get("traced_kw", ()) if unit.param(n) is not None]
                    if given and not unit.host:
                        unit.grad_params.update(given)
                        if fact["reason"] not in unit.grad_reasons:
                            unit.grad_reasons.append(fact["reason"])
                            if fact.get("forward"):
                                unit.forward_reasons.add(fact["reason"])
                        elif not fact.get("forward"):
                            unit.forward_reasons.discard(fact["reason"])
                elif fact.get("kind") == "call":
                    if fact.get("self_leaves") and unit.cls is not None:
                        # `cosmo.distance(a)` there, `cosmo` a traced instance (model/pytree_methods.py)
                        pytree_methods.run_on(unit, pytree_methods.index_leaves(self.index, unit.cls), fact["reason"])
                    unit.mark_traced(fact["reason"])
                    (unit.fresh_reasons if fact.get("fresh") else unit.held_reasons).add(fact["reason"])
                    params = unit.positional()
                    if unit.cls is not None and params and params[0].name in ("self", "cls"):
                        params = params[1:]
                    arrays = set(fact.get("array_pos", ()))
                    array_kw = set(fact.get("array_kw", ()))
                    classes = fact.get("classes") or {}
                    for i in fact.get("traced_pos", ()):
                        if i < len(params):
                            flat = classes.get("pos", {}).get(str(i))
                            unit.pass_class(params[i].name, self.index.flat_class(flat) if flat else None)
                    for name in fact.get("traced_kw", ()):
                        flat = classes.get("kw", {}).get(name)
                        unit.pass_class(name, self.index.flat_class(flat) if flat else None)
                    for i in fact.get("traced_pos", ()):
                        if i < len(params) and params[i].name not in unit.static_params:
                            unit.traced_params.add(params[i].name)
                            if i in arrays:
                                unit.array_params.add(params[i].name)
                    for name in fact.get("traced_kw", ()):
                        p = unit.param(name)
                        if p is None:
                            unit.note_star_kw(name)
                        if p is not None and p.name not in unit.static_params:
                            unit.traced_params.add(p.name)
                            if name in array_kw:
                                unit.array_params.add(p.name)
                    # which parameters this caller passes (None-valued ones apart)
                    n_pos = int(fact.get("n_pos", 0))
                    none_pos = set(fact.get("none_pos", ()))
                    keywords = set(fact.get("keywords", ()))
                    none_kw = set(fact.get("none_kw", ()))
                    for i, p in enumerate(params):
                        if i < n_pos:
                            unit.passed_params.add(p.name)
                            if i in none_pos:
                                unit.maybe_none.add(p.name)
                        elif p.name in keywords:
                            unit.passed_params.add(p.name)
                            if p.name in none_kw:
                                unit.maybe_none.add(p.name)
                        else:
                            unit.maybe_none.add(p.name)
                    unit.traced_calls += 1
                    traced_here = frozenset(
                        [params[i].name for i in fact.get("traced_pos", ()) if i < len(params)]
                        + [n for n in fact.get("traced_kw", ()) if unit.param(n) is not None])
                    unit.note_consts(_fact_consts(fact, params, unit), traced_here)
        done: set[tuple[int, str]] = set()
        for site, n_bound, kw_bound, param, element, attr in self._method_sites:
            if (id(site.fn_expr), attr) in done:
                continue  # (an inner site reached again through the outer one: `jit(vmap(a.f))`)
            done.add((id(site.fn_expr), attr))
            # `jax.vmap(agent.update)`: the callers of other modules pass `agent` an instance
            # of one class of the project (``obj:@pkg.agent:Agent``), or a tuple of them
            # unpacked here (``objs:@pkg.agent:Agent|@pkg.agent:Agent``): its method is transformed
            k = site.scope.arg_kinds.get(param)
            ref = None
            if element is None and isinstance(k, str) and k.startswith(kinds.OBJ + "@"):
                ref = k[len(kinds.OBJ):]
            elif element is not None and isinstance(k, str) and k.startswith(kinds.OBJS + "@"):
                refs = k[len(kinds.OBJS):].split("|")
                ref = refs[element] if element < len(refs) and refs[element].startswith("@") else None
            if ref is not None:
                self._record_external(site, f"{ref}.{attr}", site.fn_expr, n_bound, kw_bound)
        self._imported_key_consumers()

    def _imported_key_consumers(self) -> None:
        """A function that hands its key parameter to a function imported from the project
        that consumes it (the consumer facts: ``from .world import imagine`` ...
        ``imagine(params, rng)``, ``world.imagine(...)``) consumes it too, and so do the
        functions of this file that hand it theirs (``self.rollout(params, rng)``)."""
        consumers = self.index.imported_key_consumers
        if not consumers:
            return
        changed = False
        for unit, call in self._pending_calls:
            if unit.is_module or any(a.star for a in call.args):
                continue
            name = dotted_name(call.func)
            if name is None:
                continue
            head = name.split(".", 1)[0]
            if unit.lookup_def(head) is not None or head in unit.assigned or unit.param(head) is not None:
                continue  # a local function or value of that name
            found = consumers.get(name)
            if found is None:
                found = consumers.get(f"{name}.__init__")  # `Conv(n, key=key)`: the class's own `__init__`
            if not isinstance(found, dict) or not found.get("consumes"):
                continue
            params = found["params"]
            positional = [p for p in params if p[1] in ("pos", "posonly")]
            given = positional_args(call)
            for pname, how in found["consumes"].items():
                arg = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == pname), None)
                if arg is None:
                    i = next((k for k, p in enumerate(positional) if p[0] == pname), None)
                    arg = given[i].value if i is not None and i < len(given) else None
                if type(arg) is not cst.Name or arg.value in unit.consumes_keys or unit.param(arg.value) is None \
                        or arg.value in unit.assigned and not only_defaulted(unit, arg.value):
                    continue
                unit.consumes_keys[arg.value] = how
                changed = True
        if changed and getattr(self, "_handed", None):
            self._propagate_handed()

    def _made_by(self, factory: Unit, attr: str) -> Optional[tuple[Unit, int]]:
        """What a call of ``factory`` returns and another module then runs: the function
        it defines and returns (``attr`` ""), or the one the holder it returns runs
        from its method ``attr`` (``optax.GradientTransformation(init_fn, update_fn)``:
        ``update``), with the leading arguments that method keeps for itself."""
        if not attr:
            made = returned_function(factory, self.index.unit_of)
            return (made, 0) if made is not None and not made.host else None
        if not isinstance(factory.node, cst.FunctionDef) or len(factory.returns) != 1:
            return None
        value = factory.returns[0]
        if isinstance(value, cst.Name):
            found = factory.binding_for(value.value, 1 << 30)
            if found is None or found[0] is not factory or len(factory.bindings.get(value.value, ())) != 1:
                return None
            value = found[1][1]
            held = self.index.held.get(id(value), {}) if value is not None else {}
        else:
            held = holders.methods_of(value, self.qualname,
                                      lambda e: self.resolve_fn(e, factory)[0])
        h = held.get(attr)
        return (h.unit, h.skip) if h is not None and not h.unit.host else None

    def _static_params(self, site: TransformSite, unit: Unit, n_bound: int = 0) -> set[str]:
        """Parameters declared static; positions count from the first parameter
        the transform sees (after any bound by functools.partial)."""
        t = site.transform
        call = site.call
        out: set[str] = set()
        if call is None:
            return out
        positional = unit.positional()[n_bound:]
        if t.static_argnums_kw:
            a = keyword_arg(call, t.static_argnums_kw)
            if a is not None:
                nums = literal_ints(a.value)
                if nums is None:
                    # not a literal: we cannot tell which are static; treat all as static
                    return {p.name for p in unit.params}
                for n in nums:
                    if -len(positional) <= n < len(positional):
                        out.add(positional[n].name)
        if t.static_argnames_kw:
            a = keyword_arg(call, t.static_argnames_kw)
            if a is not None:
                names = literal_strs(a.value)
                if names is None:
                    return {p.name for p in unit.params}
                out.update(names)
        return out

    def _vmap_unbatched(self, site: TransformSite, unit: Unit, n_bound: int) -> set[str]:
        """Parameters the transformation hands over unchanged: vmap's ``in_axes``
        entries ``None``, shard_map's ``in_specs`` entries ``None``."""
        if site.call is None or not (site.qualname.endswith("vmap") or site.qualname.endswith("shard_map")):
            return set()
        positional = unit.positional()
        out: set[str] = set()
        applied = self._applied.get(id(site.call))
        if applied is not None and not any(a.star for a in applied.args):
            # `jax.vmap(f, in_axes=axes)(xs, 3)`: a Python value given to vmap cannot be
            # mapped (vmap raises for it), so its in_axes is None, however they are written
            for i, a in enumerate(positional_args(applied)):
                j = i + n_bound
                if j < len(positional) and _static_expr(site.scope, a.value, 0):
                    out.add(positional[j].name)
        axes = _passed_through(site)
        if axes == "all":
            return {p.name for p in positional}
        for i in axes or ():
            j = i + n_bound
            if j < len(positional):
                out.add(positional[j].name)
        return out


_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)


def _note_loop_parts(unit: Unit, loop, owner: cst.CSTNode) -> None:
    """Record the names a ``for`` loop (or comprehension clause) ``loop`` binds: name ->
    (iterable, position in a tuple target or None, the node its body is written in)."""
    if isinstance(loop.target, cst.Name):
        unit.loop_parts.setdefault(loop.target.value, []).append((loop.iter, None, owner))
    elif isinstance(loop.target, (cst.Tuple, cst.List)):
        for i, el in enumerate(loop.target.elements):
            if isinstance(el.value, cst.Name):
                unit.loop_parts.setdefault(el.value.value, []).append((loop.iter, i, owner))


def _loop_functions(scope: Unit, name: str, seq: int, at: Optional[cst.CSTNode]) -> Optional[list[cst.BaseExpression]]:
    """The functions a loop variable takes in turn at ``at`` (a transformation's call): ``name``
    is bound in ``scope`` only by ``for`` loops and comprehensions, one of them holds ``at``,
    and it runs over a tuple or list display (``for fn in (f, g):``, ``for name, fn in
    (("f", f), ("g", g)):``, ``[jax.jit(fn) for fn in FNS]`` of ``FNS = [f, g]`` bound once),
    each item a name or an attribute; None otherwise (the body runs once for each)."""
    parts = scope.loop_parts.get(name)
    if at is None or not parts or name in scope.bindings or name in scope.defs or scope.param(name) is not None:
        return None
    holding = [p for p in parts if any(d is at for d in descendants(p[2]))]
    if len(holding) != 1:
        return None
    it, pos, _ = holding[0]
    if type(it) is cst.Name:
        found = scope.binding_for(it.value, seq)
        if found is None or len(found[0].bindings.get(it.value, ())) != 1:
            return None
        it = found[1][1]
    if type(it) not in (cst.Tuple, cst.List) or not it.elements:
        return None
    out: list[cst.BaseExpression] = []
    for el in it.elements:
        if isinstance(el, cst.StarredElement):
            return None
        v = el.value
        if pos is not None:
            if type(v) not in (cst.Tuple, cst.List) or len(v.elements) <= pos \
                    or any(isinstance(e, cst.StarredElement) for e in v.elements):
                return None
            v = v.elements[pos].value
        if type(v) not in (cst.Name, cst.Attribute):
            return None
        out.append(v)
    return out


def _passed_through(site: TransformSite):
    """Which arguments (positions after any ``partial``-bound ones) a vmap or shard_map
    passes to the function unchanged: the ``None`` entries of ``in_axes`` (vmap: not
    mapped) or of ``in_specs`` (shard_map, jax 0.10.2: a Python int given with spec
    ``None`` is still a Python int inside, where ``P()`` makes it a tracer); "all" for
    ``in_axes=None``; None when not written as a literal sequence."""
    call = site.call
    if call is None:
        return None
    if site.qualname.endswith("vmap"):
        axes = arg_at(call, 1, "in_axes")
    elif site.qualname.endswith("shard_map"):
        # shard_map(f, mesh, in_specs, out_specs) (jax.experimental); keyword-only in jax.shard_map;
        # a `partial(shard_map, ...)` decorator's first positional argument is shard_map itself
        axes = arg_at(call, 2 if site.target is None else None, "in_specs")
    else:
        return None
    if isinstance(axes, cst.Name) and axes.value != "None":
        found = site.scope.binding_for(axes.value, site.seq)  # AXES = (0, None)
        if found is not None:
            holder, (_, value) = found
            entries = holder.bindings.get(axes.value) or []
            if len(entries) == 1 and isinstance(value, (cst.Tuple, cst.List)):
                axes = value
    if isinstance(axes, cst.Name) and axes.value == "None":
        return "all" if site.qualname.endswith("vmap") else None
    if isinstance(axes, (cst.Tuple, cst.List)):
        return tuple(
            i for i, el in enumerate(axes.elements)
            if isinstance(el.value, cst.Name) and el.value.value == "None"
        )
    return None


def _fact_consts(fact: dict, params: list, unit: Unit) -> dict[str, tuple]:
    """The constants a call fact of another module gives ``unit``'s parameters
    (``params``: those its positional arguments fill): those it passes, the literal
    defaults of those it leaves.  None known where the fact records none (a call
    with ``*args``)."""
    pos, kw = fact.get("const_pos"), fact.get("const_kw")
    if not isinstance(pos, dict) or not isinstance(kw, dict):
        return {}
    consts: dict[str, tuple] = {}
    n_pos = int(fact.get("n_pos", 0))
    keywords = set(fact.get("keywords", ()))
    given = {p.name for p in params[:n_pos]} | keywords
    for i, p in enumerate(params):
        if str(i) in pos:
            consts[p.name] = (pos[str(i)],)
    for name, v in kw.items():
        consts[name] = (v,)
    for p in unit.params:
        if p.name not in given and p.kind in ("pos", "posonly", "kwonly"):
            c = literal_const(p.default)
            if c is not None:
                consts[p.name] = c
    return consts


def _skipped(fact: dict, skip: int) -> dict:
    """A call fact of a holder's method (``f.apply(params, rng, x)``) as a call of the
    function it runs: the first ``skip`` positional arguments are the method's own."""
    out = dict(fact)
    for key in ("traced_pos", "array_pos", "none_pos"):
        out[key] = [i - skip for i in fact.get(key, ()) if i >= skip]
    out["n_pos"] = max(0, int(fact.get("n_pos", 0)) - skip)
    if isinstance(fact.get("const_pos"), dict):
        out["const_pos"] = {str(int(i) - skip): v for i, v in fact["const_pos"].items() if int(i) >= skip}
    classes = fact.get("classes")
    if classes:
        out["classes"] = {"pos": {str(int(i) - skip): f for i, f in classes.get("pos", {}).items() if int(i) >= skip},
                          "kw": classes.get("kw", {})}
    return out


def returned_function(factory: Unit, unit_of: dict) -> Optional[Unit]:
    """The one function (a nested def or a lambda) every ``return`` of ``factory``
    hands back (``def get_cell(n): def cell(x, s): ...; return cell``), or None."""
    if not isinstance(factory.node, cst.FunctionDef) or factory.node.decorators or not factory.returns:
        return None
    found: Optional[Unit] = None
    for v in factory.returns:
        if isinstance(v, cst.Name) and v.value in factory.defs and len(factory.bindings.get(v.value, ())) == 1:
            u = factory.defs[v.value]
        elif isinstance(v, cst.Lambda) and id(v) in unit_of:
            u = unit_of[id(v)]
        else:
            return None
        if found is not None and u is not found:
            return None
        found = u
    return found


def made_function(scope: Unit, func: cst.BaseExpression, unit_of: dict) -> Optional[Unit]:
    """The function of this file that calling ``func`` runs when ``func`` is what a
    factory of this file returned: ``make_op(2.0)`` written in place, or a name bound
    once (in the nearest scope that binds it) to such a call (``op = make_op(2.0)``)."""
    if type(func) is cst.Name:
        u: Optional[Unit] = scope
        while u is not None:
            if u.param(func.value) is not None or func.value in u.defs:
                return None
            entries = u.bindings.get(func.value)
            if entries:
                if len(entries) != 1 or type(entries[0][1]) is not cst.Call:
                    return None
                func, scope = entries[0][1], u
                break
            u = u.parent
        else:
            return None
    if type(func) is not cst.Call or type(func.func) is not cst.Name:
        return None
    factory = scope.lookup_def(func.func.value)
    return returned_function(factory, unit_of) if factory is not None else None


def _param_element(scope: Unit, name: str) -> Optional[tuple[str, Optional[int]]]:
    """``name`` as a parameter of ``scope`` never rebound (``(name, None)``), or as a name
    ``scope`` binds once, by unpacking such a parameter (``first, second = agents``:
    ``("agents", 1)`` for ``second``); None otherwise."""
    if scope.param(name) is not None:
        return None if name in scope.assigned else (name, None)
    if type(scope.node) is not cst.FunctionDef or name not in scope.assigned:
        return None
    # (`second.batch_update = ...` is listed too: it writes an attribute, binds nothing)
    ws = [w for w in writes(scope.node, name) if not (
        type(w) is cst.Assign and all(type(t.target) in (cst.Attribute, cst.Subscript) for t in w.targets))]
    if len(ws) != 1 or type(ws[0]) is not cst.Assign or len(ws[0].targets) != 1:
        return None
    target, value = ws[0].targets[0].target, ws[0].value
    if type(target) not in (cst.Tuple, cst.List) or type(value) is not cst.Name \
            or scope.param(value.value) is None or value.value in scope.assigned:
        return None
    names = [el.value.value if type(el) is cst.Element and type(el.value) is cst.Name else None
             for el in target.elements]
    if names.count(name) != 1 or any(type(el) is not cst.Element for el in target.elements):
        return None  # (`a, *rest, b = agents`: positions unknown)
    return value.value, names.index(name)


def _join_arg_kinds(unit: Unit, fact: dict) -> None:
    """A call of ``unit`` in another module: join the kinds it passes into the
    parameters' kinds (``escape``: that module uses the function other than by calling
    it, so its parameters may receive anything)."""
    if fact.get("escape"):
        unit.escapes = True
        return
    params = unit.params
    if unit.cls is not None:
        if fact.get("bound") and unit.name != "__init__" and not unit.cls.is_jax_module \
                and type(unit.node) is cst.FunctionDef and not unit.node.decorators and params:
            # `Diagnostics()._ps_tail(ary, n)` there: a method called on an instance of the
            # class (model/calls.py), `self` bound to it
            kinds.join_into(unit.arg_kinds, kinds.fact_kinds(params[1:], fact.get("pos"), fact.get("kw")))
            return
        if unit.name != "__init__" or not params:
            return  # a method: which instance's, and so which `self`, is not known here
        params = params[1:]  # a constructor call (`Cls(...)`, model/instances.py): `self` is new
    kinds.join_into(unit.arg_kinds, kinds.fact_kinds(params, fact.get("pos"), fact.get("kw")))


def mark_site(
    unit: Unit,
    t: apis.Transform,
    reason: str,
    static: set[str],
    n_bound: int = 0,
    kw_bound: frozenset[str] = frozenset(),
    unbatched: set[str] = frozenset(),  # type: ignore[assignment]
    kw_given: frozenset[str] = frozenset(),
) -> None:
    """Mark ``unit`` traced by transformation ``t`` and decide which of its
    parameters receive tracers (all but the static, partial-bound, unbatched,
    ``self``, defaulted and annotated-static ones).  For the branches no trace
    takes (model/narrowing.py): the keywords ``functools.partial`` binds to a value
    (``kw_given``) are not None in this trace; any other parameter may be."""
    unit.mark_traced(reason)
    for p in unit.params:
        unit.passed_params.add(p.name)
        if p.name not in kw_given:
            unit.maybe_none.add(p.name)
    unit.traced_calls += 1
    if t.wrapper and not t.filtered:
        unit.jit_root = True
    unit.static_params |= static
    unit.unbatched_params |= unbatched
    positional = unit.positional()
    is_method = unit.cls is not None and bool(positional) and positional[0].name in ("self", "cls")
    if is_method and positional[0].name == "self":
        # `@jax.jit` on a method: the call passes the instance as an argument (a pytree,
        # traced: the trace works on its own copy); `jax.jit(obj.method)`, a static
        # `self`: the object itself
        passed = n_bound == 0 and "self" not in static and "self" not in unbatched
        unit.self_sites.add("traced" if passed else "object")
    for p in unit.params:
        if p.name in static or p.name in kw_bound or p.name in unbatched:
            continue
        if p.kind in ("vararg", "kwarg"):
            continue
        if p.index is not None and p.index < n_bound:
            continue
        if is_method and p is positional[0]:
            continue
        if t.filtered:
            if p.annotation in apis.ARRAY_ANNOTATIONS:
                unit.traced_params.add(p.name)
            elif p.annotation is None and t.wrapper:
                unit.filtered_params.add(p.name)  # traced if a call passes an array
            continue
        if p.annotation in apis.STATIC_ANNOTATIONS and t.wrapper and not (
                # (a loop primitive's body or a cond branch gets arrays whatever its
                # annotations say: `def body(i: int, c)` under fori_loop, i a tracer)
                p.annotation in apis.NUMBER_ANNOTATIONS
                and (static or (t.static_argnums_kw is not None and p.default is None))):
            # `n: int` is a Python value, unless a jit (any transform that traces every
            # argument it is not told is static) leaves it out of its static arguments:
            # `@jax.jit` alone names none, and the caller's int arrives as a tracer (one
            # with a default, `train: bool = False`, is left to its callers, as before)
            continue
        if p.default is not None and t.wrapper:
            # jit(f)(x) leaves f's defaults as Python values unless passed (any default:
            # `mode=Mode.A`, `shape=SHAPE`, `dims=(3, 4)`; a call that passes one traces it)
            unit.defaulted_params.add(p.name)
            continue
        if not t.wrapper:
            # lax.scan/fori_loop/cond... pass a fixed number of operands:
            # parameters beyond them keep their defaults
            if p.default is not None:
                continue
            if t.arity is not None and p.index is not None and p.index - n_bound >= t.arity:
                continue
        unit.traced_params.add(p.name)


def _param_holder(unit: Unit, name: str) -> Optional[Unit]:
    """The function whose parameter ``name`` denotes in ``unit``: ``unit`` itself, or an
    enclosing function (a closure over a factory's parameter) that does not rebind it,
    with no function in between binding that name; else None."""
    u: Optional[Unit] = unit
    while u is not None and not u.is_module:
        if u.param(name) is not None:
            return u if u is unit or name not in u.assigned else None
        if name in u.assigned or name in u.defs:
            return None
        u = u.parent
    return None


def _body_statements(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The small statements directly in a function's body (not nested blocks)."""
    body = getattr(node, "body", None)
    out = []
    for stmt in getattr(body, "body", ()):
        if isinstance(stmt, cst.SimpleStatementLine):
            out.extend(stmt.body)
    return out


_STATIC_ATTRS = frozenset({"shape", "ndim", "size", "dtype"})
_STATIC_BUILTINS = frozenset({"len", "int", "min", "max", "abs", "round", "tuple", "sum"})


def _cannot_bind(unit: Unit, fact: dict) -> bool:
    """Does a call of ``unit`` in another module (``fact``) pass more positional
    arguments than ``unit`` takes, or a keyword it has no parameter for (and no
    ``*args``/``**kwargs`` to take them)?  Such a call raises TypeError: its
    arguments never reach the body (stale code calling an old signature)."""
    params = unit.positional()
    if unit.cls is not None and params and params[0].name in ("self", "cls"):
        params = params[1:]
    kinds = {p.kind for p in unit.params}
    if int(fact.get("n_pos", 0)) > len(params) and "vararg" not in kinds:
        return True
    names = {p.name for p in unit.params if p.kind in ("pos", "kwonly")}
    return "kwarg" not in kinds and any(k not in names for k in fact.get("keywords", ()))


def _literal_value(e: Optional[cst.BaseExpression]) -> bool:
    """Is ``e`` a number, a string or a bool (a parameter default that says its type)?"""
    if isinstance(e, cst.UnaryOperation):
        e = e.expression
    return isinstance(e, (cst.Integer, cst.Float, cst.SimpleString)) or (
        isinstance(e, cst.Name) and e.value in ("True", "False"))


def _own_returns(node: cst.CSTNode) -> list[cst.Return]:
    """The ``return`` statements of ``node``'s body that return from the function it is
    written in (not those of a nested ``def``, lambda or class)."""
    out: list[cst.Return] = []
    stack = list(children(node))
    while stack:
        n = stack.pop()
        t = type(n)
        if t is cst.Return:
            if n.value is not None:  # type: ignore[attr-defined]
                out.append(n)  # type: ignore[arg-type]
        elif t not in (cst.FunctionDef, cst.Lambda, cst.ClassDef):
            stack.extend(children(n))
    return out


def _held_fields(holder: ClassInfo, fields: dict[int, set[str]]) -> set[str]:
    """The fields holding a module class (``_stored_class_sites``) that ``holder``, or a
    base of this file it inherits from, declares."""
    out = set(fields.get(id(holder), ()))
    for p in holder.parents:
        out |= _held_fields(p, fields)
    return out


def _stored_class_ref(unit: Unit, f: cst.BaseExpression, attrs: set[str]) -> Optional[cst.Attribute]:
    """The ``self.<field>`` (a field in ``attrs``) that ``f``, the callee building the
    module in ``f(...)(...)``, stands for: ``self.skip_cls`` itself, or a local bound once,
    before, to it or to ``partial(self.skip_cls, ...)``, used nowhere but in applied calls."""
    if type(f) is cst.Attribute:
        if type(f.value) is cst.Name and f.value.value == "self" and f.attr.value in attrs:
            return f
        return None
    if type(f) is not cst.Name or unit.param(f.value) is not None:
        return None
    entries = unit.bindings.get(f.value) or []
    if len(entries) != 1 or entries[0][1] is None:
        return None
    e = entries[0][1]
    if type(e) is cst.Call and dotted_name(e.func) in ("partial", "functools.partial") and e.args \
            and e.args[0].keyword is None and not e.args[0].star:
        e = e.args[0].value
    if type(e) is cst.Attribute and type(e.value) is cst.Name and e.value.value == "self" and e.attr.value in attrs:
        return e
    return None


def _self_call(unit: Unit, call: cst.Call, cls: ClassInfo, starred: bool = False) -> bool:
    """Is ``call`` ``self.m(...)`` in a method of ``cls`` itself (or of a subclass of this
    file that inherits ``m`` from it), with no ``*args``/``**kw``
    (so the interpreter, which analyses the caller first, sees every argument)?
    ``starred``: ``*args``/``**kw`` allowed (the arguments written out are still seen)."""
    recv = call.func.value  # type: ignore[union-attr]
    return (
        isinstance(recv, cst.Name) and recv.value == "self" and unit.cls is not None
        and (unit.cls is cls or unit.cls.method(call.func.attr.value) is cls.methods.get(call.func.attr.value))  # type: ignore[union-attr]
        and (starred or not any(a.star for a in call.args))
    )


def _passes(call: cst.Call, p: ParamInfo, unit: Optional[Unit] = None) -> bool:
    """Does ``call`` (``self.m(...)``) write out the argument of parameter ``p``: by
    keyword, or by position before any ``*args`` (``**kw`` cannot pass it again), or
    from ``*key`` with ``key`` a parameter of the caller (``unit``) that it asserts is
    a Python tuple or list (``assert isinstance(key, tuple)``: its items are what the
    caller was given, no array the model assumed)?"""
    if any(a.keyword is not None and a.keyword.value == p.name for a in call.args):
        return True
    if p.kind not in ("pos", "posonly") or p.index is None:
        return False
    pos = positional_args(call)
    if 0 <= p.index - 1 < len(pos):
        return True
    rest = call.args[len(pos):]
    return (unit is not None and len(rest) == 1 and rest[0].star == "*" and type(rest[0].value) is cst.Name
            and rest[0].value.value in _python_params(unit) and unit.param(rest[0].value.value) is not None)


# the Python types an `isinstance` assertion shows a parameter is, no JAX array
_PYTHON_TYPES = frozenset({"tuple", "list", "dict", "str", "int", "bool", "float", "slice", "set"})


def _python_params(unit: Unit) -> set[str]:
    """The parameters a function asserts, before anything else runs, are Python values:
    ``assert isinstance(key, tuple)``, ``if not isinstance(idx, (tuple, list)): raise
    TypeError(...)`` at the top of its body (after a docstring)."""
    node = unit.node
    if not isinstance(node, cst.FunctionDef) or not isinstance(node.body, cst.IndentedBlock):
        return set()
    out: set[str] = set()
    for stmt in node.body.body:
        test = None
        if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
            small = stmt.body[0]
            if isinstance(small, cst.Assert):
                test = small.test
            elif isinstance(small, cst.Expr) and isinstance(small.value, (cst.SimpleString, cst.ConcatenatedString)):
                continue  # the docstring
        elif (isinstance(stmt, cst.If) and stmt.orelse is None and isinstance(stmt.test, cst.UnaryOperation)
              and isinstance(stmt.test.operator, cst.Not) and isinstance(stmt.body, cst.IndentedBlock)
              and len(stmt.body.body) == 1 and isinstance(stmt.body.body[0], cst.SimpleStatementLine)
              and isinstance(stmt.body.body[0].body[0], cst.Raise)):
            test = stmt.test.expression
        if test is None:
            break
        if isinstance(test, cst.Call) and isinstance(test.func, cst.Name) and test.func.value == "isinstance" \
                and len(test.args) == 2 and isinstance(test.args[0].value, cst.Name):
            kinds = test.args[1].value
            names = [e.value for e in kinds.elements] if isinstance(kinds, cst.Tuple) else [kinds]
            if names and all(isinstance(n, cst.Name) and n.value in _PYTHON_TYPES for n in names):
                out.add(test.args[0].value.value)
    return out


def _array_arg(call: cst.Call, p: ParamInfo, qualname) -> bool:
    """Does ``call`` (a method call ``x.m(...)``, ``self`` bound) pass parameter ``p``
    the result of a ``jax`` function (``jnp.sum(mask)``): an array?"""
    arg = arg_at(call, (p.index - 1) if p.index else None, p.name)
    return isinstance(arg, cst.Call) and (qualname(arg.func) or "").startswith("jax.")


def _nnx_default(unit: Unit, p: ParamInfo) -> bool:
    """A parameter of an undecorated NNX module method that has a default and no array
    annotation (``pixel_values=None``): NNX methods run eagerly unless a transformation
    or traced code calls them, and the model takes no such parameter as traced; what it
    passes on is no tracer the model can show."""
    cls = unit.cls
    node = unit.node
    return (cls is not None and cls.nnx and isinstance(node, cst.FunctionDef) and not node.decorators
            and p.default is not None and p.annotation not in apis.ARRAY_ANNOTATIONS
            and p.name not in unit.traced_params)


def _union_members(a: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The members of a PEP 604 union (``None | Sequence[int]``, ``jax.Array | None``);
    ``[a]`` for any other annotation."""
    if isinstance(a, cst.BinaryOperation) and isinstance(a.operator, cst.BitOr):
        return _union_members(a.left) + _union_members(a.right)
    return [a]


def _union_member(a: cst.BaseExpression, qualname) -> Optional[cst.BaseExpression]:
    """The annotation a parameter's type is read from: ``a`` itself, or for a union
    written with ``|`` its one member other than ``None`` (``shared_axes: None |
    Sequence[int]`` is a ``Sequence``), else its first array member (``x: jax.Array |
    float`` may be an array), else the union (an annotation the model does not read,
    but an annotation, not a parameter left unannotated: None)."""
    members = _union_members(a)
    if len(members) == 1:
        return a
    kept = [m for m in members if not (isinstance(m, cst.Name) and m.value == "None")]
    if len(kept) == 1:
        return kept[0]
    for m in kept:
        head = m.value if isinstance(m, cst.Subscript) else m
        if isinstance(head, (cst.Name, cst.Attribute)) and (
                qualname(head) or dotted_name(head)) in apis.ARRAY_ANNOTATIONS:
            return m
    return None


def _static_arg(unit: Unit, call: cst.Call, p: ParamInfo, param_ok=None) -> bool:
    """Does ``call`` (a method call ``x.m(...)``, ``self`` bound) pass a static value
    for parameter ``p``: a literal, a shape (``x.shape``, ``x.shape[1]``), ``len``,
    ``min``/``max`` of those, or a name bound only to such values?  Not passed: its
    default (``p`` has none here, so the call fails or uses ``*args``: unsure)."""
    if any(a.star for a in call.args):
        return False
    for a in call.args:
        if a.keyword is not None and a.keyword.value == p.name:
            return _static_expr(unit, a.value, 0, param_ok)
    pos = positional_args(call)
    i = (p.index or 0) - 1  # `self` is bound
    if p.index is not None and 0 <= i < len(pos):
        return _static_expr(unit, pos[i].value, 0, param_ok)
    return False


def _static_expr(unit: Unit, e: cst.BaseExpression, depth: int, param_ok=None) -> bool:
    if depth > 4:
        return False
    if isinstance(e, (cst.Integer, cst.Float, cst.SimpleString)):
        return True
    if isinstance(e, cst.Name):
        if e.value in ("None", "True", "False"):
            return True
        p = unit.param(e.value)
        if p is not None:
            return ((p.annotation in apis.STATIC_ANNOTATIONS and p.name not in unit.traced_params)
                    or p.name in unit.static_params or (param_ok is not None and param_ok(unit, p)))
        found = unit.binding_for(e.value, 1 << 30)
        if found is None:
            # `n_agents, steps, batch = q_vals.shape`: bound by unpacking a static value
            return _unpacked_static(unit, e.value, depth, param_ok)
        holder, _ = found
        entries = holder.bindings.get(e.value) or []
        return bool(entries) and all(x is not None and _static_expr(holder, x, depth + 1, param_ok) for _, x in entries)
    if isinstance(e, cst.UnaryOperation):
        return _static_expr(unit, e.expression, depth + 1, param_ok)
    if isinstance(e, cst.BinaryOperation):
        return _static_expr(unit, e.left, depth + 1, param_ok) and _static_expr(unit, e.right, depth + 1, param_ok)
    # (the items of a literal are no further step of a chain of names: same depth)
    if isinstance(e, (cst.Tuple, cst.List)):
        return all(
            not isinstance(el, cst.StarredElement) and _static_expr(unit, el.value, depth, param_ok) for el in e.elements
        )
    if isinstance(e, cst.Dict):
        # a table of Python values (`{50: [3, 4, 6, 3], 101: [3, 4, 23, 3]}`)
        return all(isinstance(el, cst.DictElement) and _static_expr(unit, el.key, depth, param_ok)
                   and _static_expr(unit, el.value, depth, param_ok) for el in e.elements)
    if isinstance(e, cst.Attribute):
        return e.attr.value in _STATIC_ATTRS
    if isinstance(e, cst.Subscript):
        return _static_expr(unit, e.value, depth + 1, param_ok) and all(
            isinstance(el.slice, cst.Index) and _static_expr(unit, el.slice.value, depth + 1, param_ok)
            or isinstance(el.slice, cst.Slice)
            for el in e.slice
        )
    if isinstance(e, cst.Call) and isinstance(e.func, cst.Name) and e.func.value in _STATIC_BUILTINS:
        if e.func.value == "len":
            return True
        return all(a.star == "" and _static_expr(unit, a.value, depth + 1, param_ok) for a in e.args)
    return False


def _self_of_unrelated(unit: Unit, call: cst.Call, cls: ClassInfo) -> bool:
    """Is ``call`` (``self.m(...)``) written in a method of a class of this file that
    neither is ``cls`` nor derives from it or is its base (by name): another
    class's method of the same name."""
    recv = call.func.value  # type: ignore[union-attr]
    owner = unit
    while owner is not None and owner.cls is None:
        owner = owner.parent
    if not (isinstance(recv, cst.Name) and recv.value == "self") or owner is None or owner.cls is None:
        return False
    other = owner.cls
    if other is cls:
        return False
    def names(c: ClassInfo) -> set[str]:
        return {d.rsplit(".", 1)[-1] for a in c.node.bases if (d := dotted_name(a.value)) is not None}
    return cls.name not in names(other) and other.name not in names(cls)


def _unpacked_static(unit: Unit, name: str, depth: int, param_ok=None) -> bool:
    """Is ``name`` a local of ``unit`` whose every binding unpacks a static value
    (``n, t, b = x.shape``; ``h, w = 32, 32``)?  Any other binding: unsure."""
    if name not in unit.assigned or name in unit.global_names or name in unit.nonlocal_names:
        return False
    node = unit.node
    if isinstance(node, cst.Lambda):
        return False
    found = False
    roots = list(node.body) if isinstance(node, cst.Module) else children(node.body)
    for n in (m for r in roots for m in walk_tree(r, _other_scope)):
        t = type(n)
        if t in _SCOPE_TYPES:
            continue  # another scope
        if t is cst.Assign:
            for tgt in n.targets:
                names = [b.value for b in bound_names(tgt.target)]
                if name not in names:
                    continue
                target = tgt.target
                if not isinstance(target, (cst.Tuple, cst.List)) or not any(
                    isinstance(el.value, cst.Name) and el.value.value == name and not isinstance(el, cst.StarredElement)
                    for el in target.elements
                ) or not _static_expr(unit, n.value, depth + 1, param_ok):
                    return False
                found = True
        elif t is cst.For and name in (b.value for b in bound_names(n.target)):
            # `for i, size in enumerate(SIZES[n])`: the items of a static collection, and
            # the counter `enumerate` gives
            if not _static_item(unit, n.target, n.iter, name, depth, param_ok):
                return False
            found = True
        elif t in (cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor, cst.NamedExpr, cst.AsName):
            target = n.name if t is cst.AsName else n.target
            if name in (b.value for b in bound_names(target)):
                return False
    return found


def _static_item(unit: Unit, target: cst.BaseExpression, it: cst.BaseExpression, name: str, depth: int,
                 param_ok=None) -> bool:
    """Does ``for <target> in <it>`` bind ``name`` to a Python value: an item of a
    static collection (``range(n)`` of static bounds, a literal list, a table of them),
    or the counter of ``enumerate``?"""
    if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value in ("enumerate", "range") \
            and it.args and not any(a.star for a in it.args):
        if it.func.value == "range":
            return all(_static_expr(unit, a.value, depth + 1, param_ok) for a in it.args)
        if isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == 2 \
                and not any(isinstance(el, cst.StarredElement) for el in target.elements):
            first, second = (el.value for el in target.elements)
            if isinstance(first, cst.Name) and first.value == name:
                return True  # the counter: a Python int whatever is enumerated
            if name in (b.value for b in bound_names(second)):
                return _static_expr(unit, it.args[0].value, depth + 1, param_ok)
        return False
    return _static_expr(unit, it, depth + 1, param_ok)


_SCOPE_TYPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


def _other_scope(n: cst.CSTNode) -> bool:
    return type(n) in _SCOPE_TYPES


def _partial_given(fn: cst.BaseExpression, qualname) -> frozenset[str]:
    """The keywords a ``functools.partial(f, k=v, ...)`` chain written as the
    transformed function binds to a value that is not None (``rng=PRNGKey(0)``)."""
    out: set[str] = set()
    while isinstance(fn, cst.Call) and qualname(fn.func) in apis.PARTIALS:
        for a in fn.args:
            if a.keyword is not None and not (isinstance(a.value, cst.Name) and a.value.value == "None"):
                out.add(a.keyword.value)
        pos = positional_args(fn)
        if not pos:
            break
        fn = pos[0].value
    return frozenset(out)


def _site_consts(fn: cst.BaseExpression, qualname, unit: Unit, n_bound: int, static: set[str],
                 applied: Optional[cst.Call]) -> dict[str, tuple]:
    """The Python constants one transformation site gives ``unit``'s parameters: the
    literal keywords a ``functools.partial`` chain binds (``partial(f, train=False)``)
    and, where the transformed function is applied at once (``jax.jit(f,
    static_argnames="check")(x, check=False)``), the literals its static arguments
    receive and the literal defaults of the static ones it leaves."""
    consts: dict[str, tuple] = {}
    partial = False
    while isinstance(fn, cst.Call) and qualname(fn.func) in apis.PARTIALS:
        partial = True
        for a in fn.args:
            if a.keyword is not None and a.keyword.value not in consts:
                c = literal_const(a.value)
                if c is not None:
                    consts[a.keyword.value] = c
        pos = positional_args(fn)
        if not pos:
            break
        fn = pos[0].value
    if applied is None or any(a.star for a in applied.args):
        return consts
    given: set[str] = set(consts)
    params = unit.positional()[n_bound:]
    for i, a in enumerate(positional_args(applied)):
        if partial or i >= len(params):
            return consts  # positions shifted by the partial, or too many: unsure
        given.add(params[i].name)
        c = literal_const(a.value)
        if c is not None and params[i].name in static:
            consts[params[i].name] = c
    for a in applied.args:
        if a.keyword is not None:
            given.add(a.keyword.value)
            c = literal_const(a.value)
            if c is not None and a.keyword.value in static:
                consts[a.keyword.value] = c
    for p in unit.params:
        if p.name in static and p.name not in given and p.kind in ("pos", "posonly", "kwonly"):
            c = literal_const(p.default)
            if c is not None:
                consts[p.name] = c
    return consts


def _through_single_binding(expr: Optional[cst.BaseExpression], scope: Unit, seq: int) -> Optional[cst.BaseExpression]:
    """``expr`` itself, or, for a name its scope binds exactly once (before ``seq``), the
    value bound to it; None for a name bound several times or not at all."""
    if not isinstance(expr, cst.Name):
        return expr
    found = scope.binding_for(expr.value, seq)
    if found is None:
        return None
    holder, (_, value) = found
    return value if len(holder.bindings.get(expr.value, ())) == 1 else None


def _reason(site: TransformSite) -> str:
    q = site.qualname
    short = q.replace("jax.lax.", "lax.").replace("equinox.", "eqx.")
    if site.transform.role is not None:
        return f"{site.transform.role} {short}"
    if site.call is None:
        return f"decorated with @{short}"
    if site.transform.wrapper:
        return f"wrapped by {short}"
    return f"a body passed to {short}"


def build_index(module: cst.Module, facts: Optional[dict] = None,
                reads: Optional[factreads.FactReads] = None) -> FileIndex:
    """Pass 1 over ``module``; ``facts`` are what the rest of the project knows of
    its functions (which run under a trace, with which parameters traced).
    ``reads``: record which facts the analysis asks for (even with none given)."""
    indexer = Indexer(module)
    if facts and facts.get("aliases"):
        # library names re-exported by the project's modules (model/imports.py), before the
        # walk reads the imports
        indexer.imports.aliases = dict(facts["aliases"])
    index = indexer.run()
    if facts or reads is not None:
        indexer.apply_facts(facts or {}, reads)
    return index


def _arg_for(call: cst.Call, callee: Unit, param: ParamInfo) -> Optional[cst.BaseExpression]:
    """The expression ``call`` passes for ``callee``'s parameter ``param`` (None when
    it passes none, or ``*args``/``**kwargs`` hide which)."""
    if any(a.star for a in call.args):
        return None
    for a in call.args:
        if a.keyword is not None and a.keyword.value == param.name:
            return a.value
    if param.kind not in ("pos", "posonly"):
        return None
    positional = callee.positional()
    i = next((k for k, p in enumerate(positional) if p.name == param.name), None)
    pos = [a for a in call.args if a.keyword is None]
    return pos[i].value if i is not None and i < len(pos) else None


def _picks(cond: list, call: cst.Call, callee: Unit) -> bool:
    """Does ``call`` of ``callee`` pick the path on which it transforms the function
    (the literal it passes for the condition's parameter, or that parameter's literal
    default)?  Unknown is no."""
    param = callee.param(cond[0])
    if param is None:
        return False
    arg = _arg_for(call, callee, param)
    hidden = any(a.star for a in call.args)
    return bool(dual_mode.holds(cond, dual_mode.call_value(cond, arg, hidden)))


def _encloses(outer: Optional[Unit], unit: Optional[Unit]) -> bool:
    """Is ``outer`` the unit ``unit`` or one it is nested in?"""
    while unit is not None:
        if unit is outer:
            return True
        unit = unit.parent
    return False


def _derivative_outside_jit(fact: dict) -> bool:
    """A site fact of a derivative taken outside jit (``jax.grad(metrics.ssim)`` in another
    module: model/gradtrace.py), which tells that the function is differentiated, not how
    it is called."""
    t = apis.transform_for(fact.get("transform")) or slots.slot_for(fact.get("transform"))
    return t is not None and not t.traces and not t.host


def _is_classmethod(unit: Unit) -> bool:
    """Is ``unit`` a method decorated with ``@classmethod``?"""
    return unit.cls is not None and isinstance(unit.node, cst.FunctionDef) and any(
        dotted_name(d.decorator) == "classmethod" for d in unit.node.decorators)


def applied_method(idx: "FileIndex", unit: Unit, call: cst.Call) -> Optional[Unit]:
    """``model.apply(variables, ..., method=Net.encode)`` (or ``method="encode"``) of a
    flax module class of this file held by ``model``: that method (model/calls.py gives
    it the kinds the call passes); None when unknown."""
    chosen = [a for a in call.args if a.keyword is not None and a.keyword.value == "method"]
    if len(chosen) != 1:
        return None
    held = idx.held_function(call.func, unit)
    if held is None or not held.method or held.unit is None or held.unit.cls is None or held.skip != 1:
        return None
    cls = held.unit.cls
    m = chosen[0].value
    name = None
    if type(m) is cst.Attribute and type(m.value) is cst.Name and m.value.value == cls.name:
        name = m.attr.value
    elif type(m) is cst.SimpleString and isinstance(m.evaluated_value, str):
        name = m.evaluated_value
    return cls.method(name) if name else None
