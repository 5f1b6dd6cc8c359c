"""What one file tells the rest of its project: the facts other modules need.

After the walk, the interpreter knows every call from traced code to a function
imported from the project's own modules (with the arguments that are tracers),
and the index knows every transformation applied here to such a function
(``jax.jit(losses.loss_fn, static_argnums=1)``).  They go out as plain JSON with
their lines, for ``jaxlint/project/facts.py`` to resolve and hand to the
modules that define those functions.
"""

from __future__ import annotations

import libcst as cst

from jaxlint.model import apis, dispatched, gradreach, gradtrace, instances, keyflow, keystate, kinds, nograd, repeats
from jaxlint.model import returns as returns_model
from jaxlint.model.interpreter import Interpreter
from jaxlint.model.jit_calls import export_of
from jaxlint.model.program_order import global_setters, imported_attribute_changes, imported_attribute_writes
from jaxlint.model.program_order import imported_instance_changes
from jaxlint.model.overrides import is_stub
from jaxlint.model.scopes import bound_receiver
from jaxlint.model.timers import module_timers
from jaxlint.model.x64 import FIXTURE, import_order, import_time_arrays
from jaxlint.settings import LintSettings


def _why(reasons: list[str]) -> str:
    return reasons[0] if reasons else "traced"


def enables_x64_below(interp: Interpreter, settings: LintSettings) -> bool:
    """Whether this file switches x64 on for the files of its folder and below:
    a ``conftest.py`` that enables it anywhere (at import, in ``pytest_configure``
    or a fixture: pytest runs it before the tests of that folder), or a package
    ``__init__.py`` that enables it at import (it runs before its submodules)."""
    index = interp.index
    if (settings.module or "").rsplit(".", 1)[-1] == "conftest":
        # also a fixture there that switches it on (`with jax.enable_x64(): yield`)
        return index.enables_x64 or FIXTURE in interp.x64.kinds.values()
    return settings.is_package and index.x64_at_import


def outgoing_facts(interp: Interpreter, settings: LintSettings) -> dict:
    out = _calls_and_sites(interp, settings)
    if interp.index.pytree_records:
        out["pytrees"] = interp.index.pytree_records
    if gradtrace.names_derivative(interp.imports, interp.text, settings.project_packages):
        out["derives"] = True  # it may take a derivative (the project is not shown derivative-free)
    # its part of the project's derivative reach: what it differentiates or hands on, what
    # each function mentions (model/gradreach.py)
    out["reach"] = gradreach.summarize(interp.module, interp.qualname)
    if enables_x64_below(interp, settings):
        out["x64"] = True
    if interp.index.x64_switch:
        # it may switch x64 on when it runs (a precision config, a service's set-up):
        # where its package's code, and the project packages it imports, run with x64
        # is then unknown
        packages = settings.project_packages
        reach = {full.split(".", 1)[0] for full in interp.imports.names.values()}
        own = (settings.module or "").split(".", 1)[0]
        out["x64_switch"] = sorted(({own} | reach) & packages | ({own} - {""}))
    if interp.jit_passes:
        # defaulted parameters of other modules' jits that calls here pass (traced there)
        out["jit_passes"] = {name: sorted(ps) for name, ps in sorted(interp.jit_passes.items())}
    if interp.static_given:
        # static parameters of other modules' jits that calls here give arrays
        out["static_given"] = {name: dict(sorted(ps.items())) for name, ps in sorted(interp.static_given.items())}
    direct = sorted({u.cls.name for u in interp.index.units
                     if u.direct_calls and u.cls is not None and u.cls.scope is interp.index.module_unit})
    if direct:
        # module classes whose methods take parameter kinds from this file's calls: the
        # modules that use them say so (`used_classes`, model/walker.py)
        out["direct_classes"] = direct
    repeated = _repeated_imports(interp, settings)
    if repeated:
        # functions of other modules this file calls in a loop (run again and again)
        out["repeats"] = repeated
    again = _run_again_imports(interp, settings)
    if again:
        # ... or runs again and again otherwise (model/repeats.callees_run_again)
        out["again"] = again
    relays = _relays(interp, settings)
    if relays:
        # its functions and methods that build a jit or call another module's function:
        # whether they run again and again matters to them or to that module
        out["relays"] = relays
    builders = _jit_builders(interp)
    if builders:
        # its functions that build a jit in their body: whether they run again and
        # again matters to them (the `repeated` facts they are given)
        out["builders"] = builders
    changes = imported_attribute_changes(interp.index, interp.imports, settings.project_packages, interp.text)
    instance_changes = imported_instance_changes(interp.index, interp.imports, settings.project_packages)
    for callee, attrs in instance_changes.items():
        # ... and attributes of an instance of a project class, between two calls of its method
        changes = dict(changes)
        changes[callee] = sorted(changes.get(callee, []) + attrs)
    if changes:
        # attributes of project modules set here between two calls of a project function
        out["attr_changes"] = changes
    rebound = imported_attribute_writes(interp.module, interp.imports.names.get, settings.project_packages,
                                        interp.text)
    if rebound:
        # attributes of project modules rebound here (`config.CAPACITY = n`): not constants
        out["mod_writes"] = rebound
    setters = global_setters(interp.module, interp.text)
    if setters:
        # its functions that rebind its module-level names (`global TEMPERATURE`)
        out["setters"] = setters
    x64 = interp.x64
    if interp.index.x64_at_import or x64.at_import:
        out["x64_import"] = True  # importing this module switches x64 on
    if interp.index.x64_at_import:
        out["x64_own"] = True  # ... by a switch of its own top level
    if interp.index.x64_nodes:
        out["x64_on_here"] = True  # it switches x64 on (at its top level or in a function)
    if interp.index.x64_env_fn or interp.index.x64_env_early:
        out["x64_env"] = True  # it sets `JAX_ENABLE_X64` (in a function, or before `import jax`)
    packages = settings.project_packages
    own, import_calls = import_time_arrays(interp.module, interp.qualname, interp.index.x64_nodes,
                                           lambda head: interp.imports.project_import(head, packages))
    if own is not None:
        out["import_arrays"] = own  # importing this module makes JAX arrays (x64 off)
    if import_calls:
        # ... or calls these project functions (arrays if they are jitted)
        out["import_calls"] = [list(c) for c in import_calls]
    if "import" in interp.text:
        # what its top level imports after making JAX arrays / after importing jax:
        # a project module switching x64 on when imported comes too late for them (JAX123)
        text = interp.text

        def line_of(node: cst.CSTNode) -> int:
            at = text.find(interp.module.code_for_node(node).strip())
            return text.count("\n", 0, at) + 1 if at >= 0 else 0

        order = import_order(interp.module, interp.qualname, interp.index.x64_nodes, settings.module,
                             settings.is_package, line_of, lambda n: n.split(".", 1)[0] in packages)
        if order:
            out["x64_order"] = order
    if x64.active:
        # what its module-level names are to x64 (helpers, flags, skip decorators,
        # fixtures), and the project functions its x64 code reaches
        if x64.kinds:
            out["x64_names"] = dict(sorted(x64.kinds.items()))
        packages = settings.project_packages
        reached = sorted(c for c in x64.calls if interp.imports.project_import(c.split(".", 1)[0], packages))
        if reached:
            out["x64_calls"] = reached
    return out


def _class_consumers(interp: Interpreter) -> dict:
    """The key consumers of this module's classes: ``Cls.method`` for a method that draws
    from a key parameter (its parameters after ``self``), and ``Cls`` with the key
    attributes a method splits and stores back (``streams``: model/keyflow.key_streams)."""
    out: dict = {}
    body = interp.module.body
    for cls in interp.index.classes:
        if not any(s is cls.node for s in body):
            continue
        streams = keyflow.key_streams(cls)
        if streams:
            out[cls.name] = {"params": [], "consumes": {}, "streams": dict(sorted(streams.items()))}
        stubs = sorted(name for name, m in cls.methods.items() if is_stub(m))
        if stubs:
            # methods left to subclasses (project/facts.py: `@sub:Cls.method`)
            out.setdefault(cls.name, {"params": [], "consumes": {}})["stubs"] = stubs
        for name, m in sorted(cls.methods.items()):
            if m.consumes_keys and not m.is_generator and isinstance(m.node, cst.FunctionDef) \
                    and bound_receiver(m) and m.params[0].name == "self":
                out[f"{cls.name}.{name}"] = {
                    "params": [[p.name, p.kind, None if p.index is None else p.index - 1] for p in m.params[1:]],
                    "consumes": dict(sorted(m.consumes_keys.items())),
                }
                dims = keyflow.draw_size_params(m)
                if dims:
                    out[f"{cls.name}.{name}"]["dims"] = dims
                returned = keyflow.returned_keys(m) if m.key_draws else {}
                if returned:
                    out[f"{cls.name}.{name}"]["returns"] = sorted(
                        [-1 if k is None else k, how] for k, how in returned.items())
    return out


def _static_sinks(interp: Interpreter) -> dict:
    """Module-level plain functions (no decorator, not jitted here) that hand one of
    their parameters, unchanged, to a static parameter of a jitted def of this file
    (``def fit(x, n_components, solver="full"): if solver == "full": return
    _fit_full(x, n_components)`` with ``_fit_full`` jitted with ``n_components`` static),
    on the path a call that leaves the defaults alone takes: the statement is at the top
    level of the body, or under ``if p == <literal>`` where ``p`` defaults to that literal
    (``when``: such a call must leave ``p`` out).  A jit of the function (``jax.jit(fit)``
    in another module) makes the parameter a tracer there (JAX207)."""
    exports = interp.jit_calls.exports()
    if not exports:
        return {}
    from jaxlint.model.walk import walk_tree
    scopes = (cst.FunctionDef, cst.Lambda, cst.ClassDef)
    out = {}
    for name, unit in sorted(interp.index.module_unit.defs.items()):
        node = unit.node
        if not isinstance(node, cst.FunctionDef) or node.decorators or node.asynchronous is not None \
                or unit.cls is not None or unit.is_generator or name in exports:
            continue
        params = {p.name: p for p in unit.params if p.kind in ("pos", "posonly", "kwonly")}
        sinks: dict = {}
        when: dict = {}

        def visit(stmts, cond) -> None:
            for stmt in stmts:
                if isinstance(stmt, cst.SimpleStatementLine):
                    for n in walk_tree(stmt, lambda n: type(n) in scopes):
                        if type(n) is not cst.Call or type(n.func) is not cst.Name:
                            continue
                        info = exports.get(n.func.value)
                        if info is None or info.unit is None or not info.exact or n.func.value in unit.assigned \
                                or n.func.value in params or n.func.value in unit.defs:
                            continue
                        for a, position, pname in info.args(n):
                            v = a.value
                            if pname is not None and type(v) is cst.Name and v.value in params \
                                    and v.value not in unit.assigned and info.is_static(position, pname) \
                                    and v.value not in sinks:
                                sinks[v.value] = [n.func.value, pname, info.label()]
                                when.update(cond)
                elif isinstance(stmt, cst.If):
                    t = stmt.test
                    if type(t) is cst.Comparison and type(t.left) is cst.Name and len(t.comparisons) == 1 \
                            and type(t.comparisons[0].operator) is cst.Equal and t.left.value in params \
                            and t.left.value not in unit.assigned:
                        p = params[t.left.value]
                        right = t.comparisons[0].comparator
                        if p.default is not None and type(right) in (cst.SimpleString, cst.Integer) \
                                and type(p.default) is type(right) and p.default.value == right.value:
                            visit(stmt.body.body, {**cond, p.name: right.value})

        visit(node.body.body, {})
        if sinks:
            out[name] = {"params": [[p.name, p.kind, p.index] for p in unit.params], "sinks": sinks}
            if when:
                out[name]["when"] = dict(sorted(when.items()))
    return out


def _calls_and_sites(interp: Interpreter, settings: LintSettings) -> dict:
    packages = settings.project_packages
    imports = interp.imports
    sites = [
        s for s in interp.index.external_sites
        # (`@pkg.agent:Agent.update`: a method of a class the facts named where it is defined)
        if s.callee.startswith("@") or imports.project_import(s.callee.split(".", 1)[0], packages)
    ]
    jits = {}
    for name, info in sorted(interp.jit_calls.exports().items()):
        decl = export_of(info)
        if decl is not None:
            jits[name] = decl
    consumers = {}
    for name, unit in sorted(interp.index.module_unit.defs.items()):
        returned = keyflow.returned_keys(unit) if unit.key_draws else {}
        if (unit.consumes_keys or returned) and not unit.is_generator:
            consumers[name] = {
                "params": [[p.name, p.kind, p.index] for p in unit.params],
                "consumes": dict(sorted(unit.consumes_keys.items())),
            }
            dims = keyflow.draw_size_params(unit)
            if dims:
                consumers[name]["dims"] = dims  # its parameters that only size its draw
            if returned:
                # the keys it returns after drawing from them: [position (-1: the value
                # itself), consumer]
                consumers[name]["returns"] = sorted([-1 if k is None else k, how] for k, how in returned.items())
    consumers.update(_class_consumers(interp))
    factories = sorted(n for n, u in interp.index.module_unit.defs.items() if u.returns_fresh_function)
    extra = _kinds_out(interp)
    jit_factories = sorted(n for n, u in interp.index.module_unit.defs.items() if u.returns_fresh_jit)
    if jit_factories:
        extra["jit_factories"] = jit_factories  # its functions that return a new jitted function per call
    # (a file that never writes `pallas_call` applies none: no walk)
    kernels = sorted(n for n, u in interp.index.module_unit.defs.items()
                     if u.cls is None and nograd.applies_kernel(u.node, interp.qualname)) \
        if "pallas_call" in interp.text else []
    if kernels:
        extra["kernels"] = kernels  # functions that run a Pallas kernel with no derivative rule (JAX120)
    if "__exit__" in interp.text or "contextmanager" in interp.text:
        timers = module_timers(interp.index, interp.qualname)
        if timers:
            extra["timers"] = timers  # its context managers that time the block they wrap (JAX505)
    key_state = keystate.stateful_functions(interp)
    if key_state:
        extra["key_state"] = keystate.export(key_state)  # functions that advance a global key
    calls = interp.external_calls
    if not calls and not sites:
        return {"calls": [], "sites": [], "jits": jits, "consumers": consumers, "factories": factories, **extra}
    out_calls = []
    seen = set()
    for c in calls:
        key = (c.callee, c.method, c.returned, c.caller.qualname, c.traced_pos, c.traced_kw, c.array_pos, c.array_kw,
               c.n_pos, c.keywords, c.none_pos, c.none_kw, repr(c.class_pos), repr(c.class_kw), repr(c.shapes),
               c.ctor, c.star_traced, repr(c.const_pos), repr(c.const_kw), c.self_leaves, c.read, c.overrides, c.grad)
        if key in seen:
            continue
        seen.add(key)
        out_calls.append({
            "callee": c.callee,
            "caller": "" if c.caller.is_module else c.caller.qualname,
            "line": 0,  # filled in by the linter from CPython's tree (no codegen here)
            "why": _why(c.caller.grad_reasons if c.grad else c.caller.reasons),
            "traced_pos": list(c.traced_pos),
            "traced_kw": list(c.traced_kw),
            "array_pos": list(c.array_pos),
            "array_kw": list(c.array_kw),
            "n_pos": c.n_pos,
            "keywords": list(c.keywords),
            "none_pos": list(c.none_pos),
            "none_kw": list(c.none_kw),
        })
        if c.const_pos is not None:  # the constants it passes (model/narrowing.py)
            out_calls[-1]["const_pos"] = {str(i): v for i, v in c.const_pos}
            out_calls[-1]["const_kw"] = dict(c.const_kw or ())
        if c.class_pos or c.class_kw:
            out_calls[-1]["classes"] = {"pos": {str(i): f for i, f in c.class_pos}, "kw": dict(c.class_kw)}
        if c.method:
            out_calls[-1]["method"] = c.method  # the line: where `.method(` or `recv[` is written
        if c.returned is not None:
            out_calls[-1]["returned"] = c.returned  # what the factory returned runs
        if c.shapes is not None:
            out_calls[-1]["shapes"] = c.shapes  # model/arg_shapes.py
        if c.fresh:
            out_calls[-1]["fresh"] = True  # the receiver is built in the calling trace
        if c.self_leaves:
            out_calls[-1]["self_leaves"] = True  # the receiver: a traced pytree instance
            if c.read:
                out_calls[-1]["read"] = True  # an attribute read: a property runs
        if c.grad:
            out_calls[-1]["grad"] = True  # from a function differentiated outside jit (model/gradtrace.py)
            if not gradtrace.in_reverse_mode(c.caller, interp.index.units):
                out_calls[-1]["forward"] = True  # ... only in forward mode (`jax.jacfwd`, `jax.jvp`)
        if c.overrides:
            out_calls[-1]["overrides"] = True  # `self.m(...)`: the subclasses' overrides of `m` (model/overrides.py)
        if c.ctor:
            out_calls[-1]["ctor"] = True  # `Cls(x)`: its `__init__` (or `__check_init__`) runs with x
            if c.star_traced:
                out_calls[-1]["star_traced"] = True
    out_sites = []
    for s in sites:
        out_sites.append({
            "callee": s.callee,
            "transform": s.transform,
            "scope": s.scope,
            "line": 0,
            "why": s.reason,
            "static_pos": None if s.static_pos is None else list(s.static_pos),
            "static_names": None if s.static_names is None else list(s.static_names),
            "n_bound": s.n_bound,
            "kw_bound": list(s.kw_bound),
            "unbatched_pos": list(s.unbatched_pos),
            "kw_given": list(s.kw_given),
        })
        if s.array_pos:
            out_sites[-1]["array_pos"] = list(s.array_pos)
        if any(f is not None for f in s.class_pos.values()):
            out_sites[-1]["classes"] = {str(i): f for i, f in sorted(s.class_pos.items())}
        if s.returned:
            out_sites[-1]["returned"] = ""  # the function the factory returned
            out_sites[-1]["method"] = s.written  # the line: where that name is transformed
        if s.as_written:
            out_sites[-1]["as_written"] = 1  # (a classmethod reached so has `cls` bound)
        t = apis.transform_for(s.transform)
        if t is not None and not t.traces and not t.host:
            # `jax.grad(losses.loss, argnums=1)`: differentiated there (model/gradtrace.py)
            out_sites[-1]["grad_argnums"] = gradtrace.argnums_of(
                s.transform, s.node if isinstance(s.node, cst.Call) else None)
    return {"calls": out_calls, "sites": out_sites, "jits": jits, "consumers": consumers,
            "factories": factories, **extra}


def _kinds_out(interp: Interpreter) -> dict:
    """The kinds this file tells other modules (model/kinds.py): ``returns``, its
    module-level functions whose every return has one kind; ``args``, what its calls
    of imported project functions pass (``escape``: the name is also used other than
    by calling it, counted in the text)."""
    out: dict = {}
    returns = {}
    for name, unit in sorted(interp.index.module_unit.defs.items()):
        k = interp.return_kind(unit)
        if k in kinds.CARRIED:
            returns[name] = k
        else:
            # one of its arguments (a PRNG key: JAX301's only use of it across modules), or a
            # list/dict/set display (JAX207)
            given = interp.passthrough(unit)
            if given is not None and not any(keyflow.key_like_name(p.split("=")[-1].split("@")[0])
                                             for p in given.split(":", 1)[1].split(",")):
                given = None
            given = given or kinds.display_return(unit) or kinds.counter_return(unit.node) \
                or kinds.display_elements(unit.node)
            if given is None:
                # a helper handing back a jitted call's result, not waited for (JAX505)
                callee = dispatched.returns_dispatched(unit, interp.index, dispatched.imports_resolver(interp.index))
                given = dispatched.DISPATCHED + callee if callee is not None else None
            if given is not None:
                returns[name] = given
    resolver = None
    for cls in interp.index.classes:
        if cls.scope is not interp.index.module_unit or instances.local_class(interp, cls.name) is not cls:
            continue
        for mname, method in sorted(cls.methods.items()):
            if mname.startswith("__") or method.is_generator:
                continue
            # a method handing back a jitted call's result, not waited for (JAX505:
            # `graph.solve(b)` in another module, `graph = Graph(a)`)
            if dispatched.jitted_def(interp.index, method):
                returns[f"{cls.name}.{mname}"] = dispatched.DISPATCHED
                continue
            resolver = resolver or dispatched.imports_resolver(interp.index)
            callee = dispatched.returns_dispatched(method, interp.index, resolver)
            if callee is not None:
                returns[f"{cls.name}.{mname}"] = dispatched.DISPATCHED + callee
    if returns:
        out["returns"] = returns
    made = dispatched.constructors(interp.index) if returns and interp.index.classes else []
    if made:
        out["constructors"] = made  # static/class methods that build an instance of their class
    stored = {}
    for cls in interp.index.classes:
        if instances.local_class(interp, cls.name) is cls:
            record = instances.stored_parameters(interp, cls)
            if record is not None:
                stored[cls.name] = record  # `__init__` stores its parameters as they are
    if stored:
        out["stored"] = stored
    methods = {}
    assigned = instances.assigned_attributes(interp.text) if interp.index.classes else frozenset()
    for cls in interp.index.classes:
        if instances.local_class(interp, cls.name) is cls:
            bound = instances.bound_methods(cls, interp.qualname, assigned, "setattr" in interp.text)
            if bound:
                methods[cls.name] = bound  # `obj.m` binds a new method object at each access
    if methods:
        out["methods"] = methods
    values = returns_model.exported_values(interp)
    units = interp.index.units
    for name, known in kinds.display_constants(
            interp.module, lambda n: any(n in u.global_names and n in u.assigned for u in units)).items():
        values.setdefault(name, known)  # `PARAMS = {...}`: a dict, whoever imports it (JAX207)
    if values:
        out["values"] = values  # integer constants, the shapes no-argument helpers return
    takes = {}
    for name, unit in sorted(interp.index.module_unit.defs.items()):
        if unit.transformed_params and isinstance(unit.node, cst.FunctionDef) and unit.cls is None:
            takes[name] = {"params": [[p.name, p.kind, p.index] for p in unit.params],
                           "transforms": dict(sorted(unit.transformed_params.items()))}
            if unit.transform_conditions:
                # transformed on one path only: the test of a parameter that picks it
                takes[name]["when"] = dict(sorted(unit.transform_conditions.items()))
    if takes:
        out["takes_fns"] = takes  # functions that hand a parameter to a transformation
    sinks = _static_sinks(interp)
    if sinks:
        out["static_sinks"] = sinks  # functions that hand a parameter to a jit's static one
    wanted = instances.wanted_instances(interp)
    if wanted:
        out["instances"] = wanted  # `Cls.__init__` -> the parameters that want instance kinds
    records = []
    seen = set()
    count: dict[str, int] = {}
    for callee, pos, kw, shapes, *method in interp.arg_calls:
        if not method:  # (a method call on an instance is no call of the class's name)
            count[callee] = count.get(callee, 0) + 1
        key = (callee, pos, kw, repr(shapes), *method)
        if key in seen:
            continue
        seen.add(key)
        records.append({"callee": callee, "line": 0, "why": "",
                        "pos": None if pos is None else list(pos),
                        "kw": None if kw is None else dict(kw)})
        if method:
            # a method called on an instance of the class `callee` names (`self` bound)
            records[-1]["returned"] = method[0]
            records[-1]["bound"] = 1
        if shapes is not None:
            records[-1]["shapes"] = shapes  # model/arg_shapes.py
    for callee in _escaping(interp, count):
        records.append({"callee": callee, "line": 0, "why": "", "escape": True})
    if records:
        out["args"] = records
    return out


def _escaping(interp: Interpreter, calls: dict[str, int]) -> list[str]:
    """The names imported by name from the project (``from pkg.ops import f``) that
    this file writes more often than it calls them, the import apart: passed as a
    value, stored, given as a string that is exactly the name... their parameters may
    receive anything from here (a mention in a comment or in the prose of a string is
    no use: model/kinds.py, prose_mentions).  (A substring count first: a name written no more often than called, and
    imported, needs no closer look.)"""
    packages = interp.settings.project_packages
    imports = interp.imports
    text = interp.text
    out = []
    for name in sorted(imports.names):
        n = calls.get(name, 0)
        if text.count(name) > 1 + n and imports.project_import(name, packages):
            uses, attrs = kinds.uses_of(text, name)
            # (the name in a comment or in prose of a string, `print("loss:", ...)`, is no use)
            if uses - attrs - 1 > n and uses - attrs - 1 - kinds.prose_mentions(text, name) > n:
                out.append(name)
    return out



def _repeated_imports(interp: Interpreter, settings: LintSettings) -> list[str]:
    """The functions of the project this file imports (``f``, or ``mod.f`` through an
    imported module) that it calls inside a loop or a comprehension."""
    imports = interp.imports
    packages = settings.project_packages
    heads = {n for n in imports.names if imports.project_import(n, packages)}
    if not heads:
        return []
    return sorted(c for c in repeats.calls_in_loops(interp.module) if c.split(".", 1)[0] in heads
                  and c.count(".") <= 1)


def _run_again_imports(interp: Interpreter, settings: LintSettings) -> list[str]:
    """The functions of the project this file imports (``f``, ``mod.f``, ``Cls.m`` for a
    method called on an instance of an imported class) that it runs again and again
    other than by a call in a loop of its own (those are ``repeats``)."""
    imports = interp.imports
    packages = settings.project_packages
    heads = {n for n in imports.names if imports.project_import(n, packages)}
    if not heads:
        return []
    looped = repeats.calls_in_loops(interp.module)
    return sorted(c for c in repeats.callees_run_again(interp.index, interp.module) - looped
                  if c.split(".", 1)[0] in heads and c.count(".") <= 1)


def _relays(interp: Interpreter, settings: LintSettings) -> list[str]:
    """The functions and methods of this file (qualified names, outermost: ``f``,
    ``Cls.m``) that build a jit in their body or call a function of another module of
    the project: another module's facts that they run again and again are passed on."""
    imports = interp.imports
    packages = settings.project_packages
    heads = {n for n in imports.names if imports.project_import(n, packages)}
    out: set[str] = set()
    for site in interp.index.sites:
        if site.qualname in _CACHING:
            u = _outermost(site.scope)
            if u is not None:
                out.add(u.qualname)
    # (and those that call a function of this file that jits its function parameter:
    # `maybe_jit(loop_fn)`)
    wrappers = {u.name for u in interp.index.units if not u.is_module and u.parent is not None
                and u.parent.is_module and u.cls is None and u.params
                and any(s.qualname in _CACHING and s.scope is u and type(s.fn_expr) is cst.Name
                        and s.fn_expr.value == u.params[0].name for s in interp.index.sites)}
    if heads or wrappers:
        for u in interp.index.units:
            if u.is_module or u.parent is None or not u.parent.is_module:
                continue
            names = repeats.unit_names(interp.module, u.node)
            if any(n.split(".", 1)[0] in heads for n in names) or (wrappers & names and u.name not in wrappers):
                out.add(u.qualname)
    return sorted(out)


def _outermost(u):
    """The module-level function, or the method of a module-level class, that ``u`` is in."""
    while u is not None and u.parent is not None and not u.parent.is_module:
        u = u.parent
    return None if u is None or u.is_module else u


_CACHING = apis.CACHING_JITS


def _jit_builders(interp: Interpreter) -> list[str]:
    """The functions of this file (not methods) whose body (or a function nested in
    it) applies jit/pmap to something: a compile per call when they run again."""
    out = set()
    for site in interp.index.sites:
        if site.qualname not in _CACHING:
            continue
        u = site.scope
        while u is not None and u.parent is not None and not u.parent.is_module:
            u = u.parent
        if u is not None and not u.is_module and u.cls is None:
            out.add(u.qualname)
    return sorted(out)
