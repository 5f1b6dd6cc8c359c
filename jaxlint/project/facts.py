"""Facts across modules: what one file's traced code tells the modules it calls.

Each linted file of a project reports (``FileResult.project``, made by
``jaxlint/engine/project.py``):

* ``calls``: calls from traced code to functions it imports from the project,
  with the argument positions and keywords that are tracers;
* ``sites``: transformations it applies to such functions (``jax.jit(m.f, ...)``);
* ``summary``: its definitions and imports (``summary.py``), for resolution.

``incoming_facts`` resolves each call and site with the ``ProjectIndex`` and
groups them by the module that defines the callee: ``{path: {qualname: [fact]}}``.
A fact names the chain in its reason ("called from `update` (pkg/train.py:14),
which is decorated with @jax.jit"), so messages say why a helper is traced.
Unknown stays unknown: a callee that does not resolve to a function of the
project gives no fact.
"""

from __future__ import annotations

import json
import re
from typing import Callable, Iterable, Mapping, Optional

from jaxlint.model import pytrees
from jaxlint.paths import test_module
from jaxlint.project.index import ProjectIndex

Json = dict
# JAX's own packages: when the project is JAX, its functions are the transformations
_JAX_ITSELF = frozenset({"jax", "jaxlib"})
# what a call or site record holds for its own file only (engine/project.py)
_LOCAL_KEYS = frozenset({"callee", "caller", "scope", "why", "method"})


def _reason(kind: str, caller: str, path: str, line: int, why: str, cell: Optional[int] = None) -> str:
    where = f"{path}:{line}" if line else path
    if cell is not None and line:  # a notebook's line counts in its cell
        where = f"{path}:cell {cell}:{line}"
    if kind == "site":
        return f"{why} in {where}"
    who = f"`{caller}`" if caller else "module-level code"
    return f"called from {who} ({where}), which is {_article(why)}"


def _article(why: str) -> str:
    # "decorated with @jax.jit" / "wrapped by jax.jit" / "a body passed to lax.scan" /
    # "called from traced `f`" all read after "which is"
    return why


def incoming_facts(
    index: ProjectIndex,
    outputs: Iterable[tuple[str, str, Json]],
    path_of: Mapping[str, str],
    memo: Optional[dict] = None,
    text_of: Optional[Callable[[str], bytes]] = None,
) -> dict[str, dict[str, list[Json]]]:
    """``outputs``: (module name, display path, project output) of every linted file;
    ``path_of``: module name -> display path.  Returns path -> {"units": {qualname:
    [facts]}, "jits": {imported name: declaration}, "consumers": {...}, "factories":
    [...]}.  A jit, key consumer or factory reached through an imported module
    (``import pkg.ops as ops`` ... ``ops.power(x)``) is keyed by its dotted name, and
    given only to a file whose text (``text_of(path)``) names it.

    ``memo`` (a dict the caller keeps between rounds): what each output resolves
    to, reused while the output and the index are the same objects (the driver
    asks again each round, and most files' outputs are unchanged)."""
    out: dict[str, dict] = {}
    seen: dict[tuple[str, str], set[str]] = {}

    def add(module: str, qualname: str, fact: Json, key: str) -> None:
        path = path_of.get(module)
        if path is None or module.split(".", 1)[0] in _JAX_ITSELF:
            return  # linting JAX itself: its internals implement tracing, they do not run under it
        keys = seen.setdefault((path, qualname), set())
        if key not in keys:
            keys.add(key)
            out.setdefault(path, {}).setdefault("units", {}).setdefault(qualname, []).append((key, fact))

    outputs = list(outputs)
    jits_of = {module: proj.get("jits") or {} for module, _, proj in outputs}
    consumers_of = {module: proj.get("consumers") or {} for module, _, proj in outputs}
    key_state_of = {module: proj.get("key_state") or {} for module, _, proj in outputs}
    factories_of = {module: set(proj.get("factories") or ()) for module, _, proj in outputs}
    jit_factories_of = {module: set(proj.get("jit_factories") or ()) for module, _, proj in outputs}
    # (a module the prefilter skips tells only the helpers that build lists/dicts/sets)
    takes_of = {module: proj.get("takes_fns") or {} for module, _, proj in outputs}
    sinks_of = {module: proj.get("static_sinks") or {} for module, _, proj in outputs}
    any_sinks = any(sinks_of.values())
    # the functions that build a jit in their body (only they are told that they run again)
    builders_of = {module: frozenset(proj.get("builders") or ()) for module, _, proj in outputs}
    relays_of = {module: frozenset(proj.get("relays") or ()) for module, _, proj in outputs}
    returns_of = {module: proj.get("returns") or proj.get("displays") or {} for module, _, proj in outputs}
    kernels_of = {module: frozenset(proj.get("kernels") or ()) for module, _, proj in outputs}
    timers_of = {module: frozenset(proj.get("timers") or ()) for module, _, proj in outputs}
    constructors_of = {module: proj.get("constructors") or () for module, _, proj in outputs}
    # (a method's record has a dot: `Graph.solve`)
    with_methods = {m: True for m, r in returns_of.items() if any("." in k for k in r)}
    with_methods.update((m, True) for m, c in constructors_of.items() if c)
    any_methods = bool(with_methods)
    stored_of = {module: proj.get("stored") or {} for module, _, proj in outputs}
    methods_of = {module: proj.get("methods") or {} for module, _, proj in outputs}
    # module classes whose methods' parameters take their kinds from the calls of their
    # own file (model/walker.py, `_direct_calls_known`): told when another module uses them
    direct_of = {module: frozenset(proj.get("direct_classes") or ()) for module, _, proj in outputs}
    values_of = {module: proj.get("values") or {} for module, _, proj in outputs}
    # module constants some file of the project rebinds (`config.CAPACITY = n`): unknown
    # (not a test module's: a test that sets `config.CAPACITY = 2` for itself does not
    # change the number the project's own code runs with)
    rebound = {w for _, path, proj in outputs if not test_module(path)
               for w in proj.get("mod_writes") or ()}
    # the functions of each module that rebind its module-level names (`global TEMPERATURE`):
    # a call of one anywhere changes the attribute; the names are not constants either
    setters_of = {module: proj.get("setters") or {} for module, _, proj in outputs}
    rebound.update(f"{module}.{a}" for module, setters in setters_of.items()
                   for attrs in setters.values() for a in attrs)
    int_modules: dict[str, bool] = {}

    def ints_in(m: str) -> bool:
        known = int_modules.get(m)
        if known is None:
            known = int_modules[m] = _summary_has_ints(index, m)
        return known
    records_of = {module: proj.get("pytrees") or {} for module, _, proj in outputs}
    flat_memo: dict = {}

    def class_flat(target_module: str, qualname: str) -> Optional[Json]:
        return _class_flat(index, records_of, target_module, qualname, flat_memo)
    x64_of = {module: proj.get("x64_names") or {} for module, _, proj in outputs}
    any_x64 = any(x64_of.values())
    consts_memo: dict[str, dict[str, str]] = {}

    def consts_of(target_module: str) -> dict[str, str]:
        known = consts_memo.get(target_module)
        if known is None:
            known = consts_memo[target_module] = _constants(index, target_module)
        return known
    x64_at_import = _x64_at_import(outputs)
    reexports_memo: dict[str, dict[str, str]] = {}

    def reexported(target_module: str) -> dict[str, str]:
        known = reexports_memo.get(target_module)
        if known is None:
            known = reexports_memo[target_module] = _reexported_externals(index, target_module)
        return known
    arrays_at_import = _arrays_at_import(index, outputs, x64_at_import, jits_of)
    # the modules whose import imports JAX (asked only by a module setting `JAX_ENABLE_X64`)
    jax_at_import = _jax_at_import(outputs) if any(proj.get("x64_env") for _, _, proj in outputs) else {}
    # `Cls.__init__` -> the parameters that want instance kinds (model/instances.py)
    wanted = {module: proj["instances"] for module, _, proj in outputs if proj.get("instances")}
    wanted_key = json.dumps(wanted, sort_keys=True) if wanted else ""
    overridden = _override_consumers(index, consumers_of)
    for (module, qualname, name), record in overridden.items():
        # `self.sample(key)` / `gen(n, key=key)` of a class whose `sample` is left to its
        # subclasses, each of which draws from the key (model/overrides.py)
        path = path_of.get(module)
        if path is not None:
            out.setdefault(path, {}).setdefault("consumers", {})[f"@sub:{qualname}.{name}"] = record
        own = consumers_of.setdefault(module, {})
        if f"{qualname}.{name}" not in own:
            consumers_of[module] = {**own, f"{qualname}.{name}": record}
    for module, path, proj in outputs:
        known = memo.get(path) if memo is not None else None
        if known is None or known[0] is not proj or known[1] is not index or known[2] != wanted_key:
            known = (proj, index, wanted_key, *_resolved(index, module, path, proj, wanted))
            if memo is not None:
                memo[path] = known
        imported, records, modules, classes, externals = known[3], known[4], known[5], known[6], known[7]
        for name, qualname in externals:
            # `from utils import jr`, where utils/__init__.py has `from jax import random as jr`:
            # `jr` is `jax.random` here (model/imports.py, ImportTable.aliases)
            if _aliased(qualname):
                out.setdefault(path, {}).setdefault("aliases", {})[name] = qualname
        # a file the prefilter skipped (it never names JAX) is not analysed for a constant
        skipped = bool(proj.get("skipped"))
        def give(name: str, target_module: str, qualname: str, function: bool) -> None:
            """What ``name`` (used in this file) refers to, if it is a jit (its
            static/donated arguments), a key consumer or a factory."""
            decl = jits_of.get(target_module, {}).get(qualname)
            if decl is not None:
                out.setdefault(path, {}).setdefault("jits", {})[name] = decl
            if jits_of.get(target_module):
                # a class: its jitted methods (`Cls.model`), called on its instances here
                prefix = qualname + "."
                for k, method_decl in jits_of.get(target_module, {}).items():
                    if k.startswith(prefix) and "." not in k[len(prefix):]:
                        out.setdefault(path, {}).setdefault("jits", {})[name + k[len(qualname):]] = method_decl
            consumer = consumers_of.get(target_module, {}).get(qualname)
            if consumer is not None and function:
                out.setdefault(path, {}).setdefault("consumers", {})[name] = consumer
            if not function and consumers_of.get(target_module):
                # a class: its methods that draw from a key parameter, the key attributes it
                # splits and stores back (`Cls.method`, `Cls`: engine/project.py)
                prefix = qualname + "."
                for k, v in consumers_of[target_module].items():
                    if k == qualname or k.startswith(prefix):
                        out.setdefault(path, {}).setdefault("consumers", {})[name + k[len(qualname):]] = v
            if function and key_state_of:
                # a function that advances a module-global key (model/keystate.py), also
                # one a package re-exports (`ar.do` of `autoray_lite/__init__.py`)
                state = key_state_of.get(target_module, {}).get(qualname)
                if state is None:
                    found = index.resolve(target_module, qualname)
                    if found is not None and found.kind == "function":
                        state = key_state_of.get(found.module, {}).get(found.qualname)
                if state is not None:
                    out.setdefault(path, {}).setdefault("key_state", {})[name] = state
            takes = takes_of.get(target_module, {}).get(qualname)
            if takes is not None and function:
                out.setdefault(path, {}).setdefault("takes_fns", {})[name] = takes
            sinks = sinks_of.get(target_module, {}).get(qualname) if function else None
            if sinks is None and function and any_sinks:
                found = index.resolve(target_module, qualname)  # (a package re-exporting it)
                if found is not None and found.kind == "function":
                    sinks = sinks_of.get(found.module, {}).get(found.qualname)
            if sinks is not None:
                # a function handing a parameter to a jit's static one (JAX207 at `jax.jit(fn)(...)`)
                out.setdefault(path, {}).setdefault("static_sinks", {})[name] = sinks
            if qualname in timers_of.get(target_module, ()):
                timers = out.setdefault(path, {}).setdefault("timers", [])
                if name not in timers:
                    timers.append(name)  # a context manager timing the block it wraps (JAX505)
            if function and qualname in kernels_of.get(target_module, ()):
                kernels = out.setdefault(path, {}).setdefault("kernels", [])
                if name not in kernels:
                    kernels.append(name)  # runs a Pallas kernel with no derivative rule
            returned = returns_of.get(target_module, {}).get(qualname)
            if returned is not None and function:
                out.setdefault(path, {}).setdefault("returns", {})[name] = returned
            if any_methods:
                # a class (also one a package re-exports: `jaxls.FactorGraph`): its methods
                # that hand back dispatched work (`Graph.solve`, JAX505) and its static/class
                # methods that build an instance (`FactorGraph.make`)
                cls_module, cls_name = target_module, qualname
                if not (constructors_of.get(cls_module) or returns_of.get(cls_module)):
                    found = index.resolve(target_module, qualname)
                    if found is not None and found.kind == "class":
                        cls_module, cls_name = found.module, found.qualname
                prefix = cls_name + "."
                for k in constructors_of.get(cls_module, ()):
                    if k.startswith(prefix) and "." not in k[len(prefix):]:
                        made = out.setdefault(path, {}).setdefault("constructors", [])
                        if name + k[len(cls_name):] not in made:
                            made.append(name + k[len(cls_name):])
                for k, v in (returns_of.get(cls_module) or {}).items():
                    if k.startswith(prefix) and "." not in k[len(prefix):] and v.startswith("dispatched:"):
                        out.setdefault(path, {}).setdefault("returns", {})[name + k[len(cls_name):]] = v
            stored = stored_of.get(target_module, {}).get(qualname)
            if stored is not None:  # a class whose `__init__` stores its parameters (model/instances.py)
                out.setdefault(path, {}).setdefault("stored", {})[name] = stored
            methods = methods_of.get(target_module, {}).get(qualname)
            if methods is not None:  # a class: the methods an access on an instance binds anew
                out.setdefault(path, {}).setdefault("methods", {})[name] = methods
            known_value = values_of.get(target_module, {}).get(qualname)
            if known_value is None:
                known_value = _summary_int(index, target_module, qualname)  # a module JAX never names
            if known_value is not None and f"{target_module}.{qualname}" in rebound:
                known_value = None  # another module (or this one) rebinds it: not its definition's value
            if known_value is not None:  # an integer constant, what a no-argument helper returns
                out.setdefault(path, {}).setdefault("values", {})[name] = known_value
            if function and qualname in jit_factories_of.get(target_module, ()):
                made = out.setdefault(path, {}).setdefault("jit_factories", [])
                if name not in made:
                    made.append(name)
            if function and qualname in factories_of.get(target_module, ()):
                factories = out.setdefault(path, {}).setdefault("factories", [])
                if name not in factories:
                    factories.append(name)
            if qualname in records_of.get(target_module, ()):
                flat = class_flat(target_module, qualname)
                if flat is not None and (flat.get("reg") or flat.get("hash")):
                    # a pytree class, or one whose hashing is known (static arguments); the
                    # class it is, for its methods run on a traced instance (model/pytree_methods.py)
                    if flat.get("reg"):
                        flat = {**flat, "ref": f"@{target_module}:{qualname}"}
                    out.setdefault(path, {}).setdefault("classes", {})[name] = flat
            kind = x64_of.get(target_module, {}).get(qualname)
            if kind is None and any_x64 and not x64_of.get(target_module):
                # one a package re-exports (`bp.math.enable_x64` of `from .setting import *`)
                found = index.resolve(target_module, qualname)
                if found is not None and found.module != target_module:
                    kind = x64_of.get(found.module, {}).get(found.qualname)
            if kind is not None:  # an x64 helper, flag, skip decorator or fixture
                out.setdefault(path, {}).setdefault("x64", {})[name] = kind
            if not function and any_x64:
                # a class: its methods that switch x64 on (`Config().apply()` here)
                prefix = qualname + "."
                for k, v in x64_of.get(target_module, {}).items():
                    if k.startswith(prefix) and "." not in k[len(prefix):]:
                        out.setdefault(path, {}).setdefault("x64", {})[name + k[len(qualname):]] = v
            if not function and not skipped:
                _give_consts(out, path, name, consts_of(target_module), qualname)

        # imported by name from other modules
        for name, target in imported:
            give(name, target.module, target.qualname, target.kind == "function")
        for name, target in classes:
            give(name, target.module, target.qualname, False)
            if target.qualname in direct_of.get(target.module, ()):
                _used_class(out, path_of.get(target.module), target.qualname)
        # ... and reached as attributes of a project module imported here
        # (only the modules that define one are looked for in the text)
        modules = [(n, m) for n, m in modules
                   if jits_of.get(m) or consumers_of.get(m) or factories_of.get(m) or jit_factories_of.get(m)
                   or records_of.get(m)
                   or (key_state_of and _reexports(index, m, key_state_of))
                   or x64_of.get(m) or (any_x64 and _reexports(index, m, x64_of)) or returns_of.get(m) or kernels_of.get(m) or timers_of.get(m) or (any_methods and _reexports(index, m, with_methods)) or stored_of.get(m) or methods_of.get(m) or takes_of.get(m) or values_of.get(m)
                   or (any_sinks and _reexports(index, m, sinks_of))
                   or ints_in(m)
                   or (not skipped and consts_of(m)) or reexported(m) or direct_of.get(m)]
        if modules and text_of is not None:
            names = frozenset(n for n, _ in modules)
            used = memo.get(("attrs", path)) if memo is not None else None
            if used is None or used[0] is not proj or used[1] != names:
                used = (proj, names, _attributes_used(text_of(path), names))
                if memo is not None:
                    memo[("attrs", path)] = used
            for name, target_module in modules:
                for attr in sorted(used[2].get(name, ())):
                    if attr in direct_of.get(target_module, ()):
                        _used_class(out, path_of.get(target_module), attr)  # `blocks.Block(...)`
                    # consumers and factories are functions; a jit may be an assignment too
                    give(f"{name}.{attr}", target_module, attr, True)
                    if not skipped:  # `common_types.MODE_TRAIN`, `common_types.Mode.TRAIN`
                        _give_consts(out, path, f"{name}.{attr}", consts_of(target_module), attr)
                    ext = reexported(target_module).get(attr)
                    if ext is not None and _aliased(ext):  # `utils.jr` of `import utils`: `jax.random`
                        out.setdefault(path, {}).setdefault("aliases", {})[f"{name}.{attr}"] = ext
        for target_module, qualname, fact, key in records:
            add(target_module, qualname, fact, key)
        # defaulted parameters of its jits that calls in other modules pass
        for callee, passed in sorted((proj.get("jit_passes") or {}).items()):
            target = index.resolve(module, callee)
            if target is not None and target.kind == "function":
                target_path = path_of.get(target.module)
                if target_path is not None:
                    known = out.setdefault(target_path, {}).setdefault("passed", {}).setdefault(target.qualname, [])
                    known.extend(p for p in passed if p not in known)
                    known.sort()
        # static parameters of its jits that calls in other modules give arrays
        for callee, given in sorted((proj.get("static_given") or {}).items()):
            target = index.resolve(module, callee)
            # (a def, or a module-level `ask = jit(ask_cma_strategy, static_argnums=2)`)
            if target is not None and target.kind in ("function", "assign"):
                target_path = path_of.get(target.module)
                if target_path is not None:
                    known = out.setdefault(target_path, {}).setdefault("static_given", {}).setdefault(target.qualname, {})
                    for param, kind in given.items():
                        if [kind, path] not in known.setdefault(param, []):
                            known[param].append([kind, path])
                            known[param].sort()
        # functions of other modules it calls in a loop: they run again and again
        for callee in proj.get("repeats") or ():
            target = index.resolve(module, callee)
            # (and the jits it exports: a cached trace runs their Python once, JAX401)
            if target is not None and target.kind == "function" \
                    and (target.qualname in builders_of.get(target.module, ())
                         or target.qualname in relays_of.get(target.module, ())
                         or target.qualname in jits_of.get(target.module, {})):
                target_path = path_of.get(target.module)
                if target_path is not None:
                    known = out.setdefault(target_path, {}).setdefault("repeated", [])
                    if target.qualname not in known:
                        known.append(target.qualname)
                        known.sort()
        # functions of other modules it runs again and again otherwise (from a function
        # that runs so, by two statements in a row, through an instance of their class)
        for callee in proj.get("again") or ():
            target = index.resolve(module, callee)
            if target is not None and target.kind == "function" \
                    and target.qualname in relays_of.get(target.module, ()):
                target_path = path_of.get(target.module)
                if target_path is not None:
                    known = out.setdefault(target_path, {}).setdefault("again", [])
                    if target.qualname not in known:
                        known.append(target.qualname)
                        known.sort()
        # attributes of project modules it sets between two calls of another module's
        # function (a cached trace of that function may read them: JAX405)
        for callee, attrs in sorted((proj.get("attr_changes") or {}).items()):
            target = index.resolve(module, callee)
            if target is not None and target.kind == "function":
                target_path = path_of.get(target.module)
                if target_path is not None:
                    changed = []
                    for m, a in attrs:
                        if not a.endswith("()"):
                            changed.append([m, a, path])
                            continue
                        # a call of another project function between the two calls: the
                        # names its module rebinds when that function is a `global` setter
                        setter = index.resolve(module, a[:-2])
                        if setter is not None and setter.kind == "function":
                            changed.extend([setter.module, name, path]
                                           for name in setters_of.get(setter.module, {}).get(setter.qualname, ()))
                    if not changed:
                        continue
                    known = out.setdefault(target_path, {}).setdefault("attr_changes", {}).setdefault(target.qualname, [])
                    for c in changed:
                        if c not in known:
                            known.append(c)
                    known.sort()
        # it imports a module that switches x64 on when imported
        if module in x64_at_import:
            out.setdefault(path, {})["x64_import"] = True
            # ... because a module it imports does (not only its own switch): the
            # arrays its top level makes after those imports may be 64-bit already
            parts = module.split(".")
            named = set(proj["summary"].get("imported", ())) | {".".join(parts[:i]) for i in range(1, len(parts))}
            if named & x64_at_import:
                # ... not only because they import this module (`pkg/__init__` importing
                # it is on through it): what is on without its own switch
                on = x64_at_import if not proj.get("x64_import") else _x64_at_import(outputs, module)
                if named & on:
                    out[path]["x64_by_import"] = True
        # the project modules it imports whose import makes JAX arrays while x64 is off
        # (told only to a module that switches x64 on: JAX123 asks nothing else)
        if arrays_at_import and proj.get("x64_on_here"):
            named = set(proj["summary"].get("imported", ()))
            named |= {".".join(m.split(".")[:i]) for m in named for i in range(1, m.count(".") + 1)}
            made = {m: arrays_at_import[m] for m in sorted(named) if m in arrays_at_import and m != module}
            if made:
                out.setdefault(path, {})["arrays_imports"] = made
        # the project modules it imports (and the packages above it) whose import imports
        # JAX: `JAX_ENABLE_X64` set after one of them is read already (JAX123)
        if jax_at_import and proj.get("x64_env"):
            named = _imported_with_packages(module, proj)
            named |= {".".join(m.split(".")[:i]) for m in named for i in range(1, m.count(".") + 1)}
            made = {m: jax_at_import[m] for m in sorted(named) if m in jax_at_import and m != module}
            if made:
                out.setdefault(path, {})["jax_imports"] = made
        # functions of other modules reached from code that runs with x64 on
        for callee in proj.get("x64_calls", ()):
            head = (proj["summary"].get("names") or {}).get(callee.split(".", 1)[0])
            if head is not None and _outside(index, head, module):
                continue
            target = index.resolve(module, callee)
            if target is not None and target.kind == "function" and target.module.split(".", 1)[0] not in _JAX_ITSELF:
                target_path = path_of.get(target.module)
                if target_path is not None:
                    units = out.setdefault(target_path, {}).setdefault("x64_units", [])
                    if target.qualname not in units:
                        units.append(target.qualname)
    # a module switching x64 on at import, imported by another after that one made JAX
    # arrays (or imported jax, for `JAX_ENABLE_X64`): told where (JAX123)
    for target, late in _late_importers(outputs).items():
        target_path = path_of.get(target)
        if target_path is not None:
            out.setdefault(target_path, {})["x64_late"] = late
    _drop_idle_args(out)
    for facts in out.values():
        if "x64_units" in facts:
            facts["x64_units"].sort()
        units = facts.get("units")
        if units:
            for qualname, items in units.items():
                items.sort(key=lambda kf: kf[0])
                units[qualname] = [f for _, f in items]
    return out


# library bases that define no method a subclass of the project overrides
_BARE_BASES = frozenset({"object", "abc.ABC", "typing.Generic", "typing.Protocol", "equinox.Module",
                         "flax.nnx.Module", "flax.linen.Module", "haiku.Module"})


def _override_consumers(index: ProjectIndex, consumers_of: Mapping[str, Json]) -> dict:
    """(module, class, method) -> the key-consumer record of ``Cls.method`` where the
    class leaves ``method`` to its subclasses (it defines it as a stub,
    ``engine/project.py``'s ``stubs``, or not at all, every base being the project's or a
    bare library base) and every project subclass (any depth, any module) that defines it
    draws from the same key parameters (by whatever consumer) with the same parameters: a call of it through
    the base draws from the key whichever subclass runs.  A subclass whose override does
    not draw, or draws otherwise, makes it unknown (no record)."""
    parents: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for base, subs in index._subclasses().items():
        for sub in subs:
            parents.setdefault((sub.module, sub.qualname), []).append(base)
    if not parents:
        return {}
    wanted: set[tuple[str, str, str]] = set()
    for module, consumers in consumers_of.items():
        for k, rec in consumers.items():
            if k.count(".") != 1 or k.startswith("@") or not rec.get("consumes"):
                continue
            q, name = k.split(".")
            todo, seen = [(module, q)], set()
            while todo and len(seen) < 64:
                c = todo.pop()
                for b in parents.get(c, ()):
                    if b not in seen:
                        seen.add(b)
                        wanted.add((b[0], b[1], name))
                        todo.append(b)
    subclasses = index._subclasses()
    out: dict = {}
    for module, q, name in sorted(wanted):
        if not _left_to_subclasses(index, consumers_of, module, q, name, 0):
            continue
        found: Optional[Json] = None
        todo, seen, ok = [(module, q)], set(), True
        while todo and ok:
            c = todo.pop()
            for sub in subclasses.get(c, ()):
                key = (sub.module, sub.qualname)
                if key in seen:
                    continue
                seen.add(key)
                todo.append(key)
                rec = (index.definition(sub.module, sub.qualname) or {}).get("members", {}).get(name)
                if rec is None:
                    continue
                if rec.get("k") != "def" or name in (consumers_of.get(sub.module, {}).get(sub.qualname) or {}).get(
                        "stubs", ()):
                    ok = ok and rec.get("k") == "def"
                    continue
                drawn = consumers_of.get(sub.module, {}).get(f"{sub.qualname}.{name}")
                if drawn is None or not drawn.get("consumes") or (found is not None and (
                        set(drawn["consumes"]) != set(found["consumes"]) or drawn.get("params") != found.get("params"))):
                    ok = False
                    break
                found = found or drawn
            if len(seen) > 256:
                ok = False
        if ok and found is not None:
            out[(module, q, name)] = {"params": found["params"], "consumes": found["consumes"]}
    return out


def _left_to_subclasses(index: ProjectIndex, consumers_of: Mapping[str, Json], module: str, q: str,
                        name: str, depth: int) -> bool:
    """Does the class ``q`` of ``module`` leave ``name`` to its subclasses: its own
    ``name`` is a stub, or it has none and neither has any base (each a project class
    or a bare library base)?"""
    rec = index.definition(module, q)
    if rec is None or rec.get("kind") != "class" or depth > 8:
        return False
    member = (rec.get("members") or {}).get(name)
    if member is not None:
        return member.get("k") == "def" and name in (consumers_of.get(module, {}).get(q) or {}).get("stubs", ())
    for base in rec.get("bases") or ():
        ref = base.get("ref")
        if ref is None:
            return False
        if ref == "object":
            continue
        bt = index.resolve(module, ref) if base.get("bind") == "module" else None
        if bt is None:
            return False
        if bt.kind == "external":
            if bt.qualname not in _BARE_BASES:
                return False
        elif bt.kind != "class" or not _left_to_subclasses(index, consumers_of, bt.module, bt.qualname, name,
                                                           depth + 1):
            return False
    return True


# the Python types a module-level literal can have that the model tells apart
_CONST_TYPES = {str: "str", bool: "bool", int: "int", float: "float"}


# the bases of an enumeration whose members are no numbers (an `IntEnum` member is an
# int: compared with a traced int it gives a tracer)
_ENUM_BASES = frozenset({"Enum", "StrEnum"})


def _constants(index: ProjectIndex, module: str) -> dict[str, str]:
    """The module-level names ``module`` binds to a str/int/float/bool literal
    (``MODEL_MODE_TRAIN = "train"``, ``NUM_LAYERS: int = 4``): name -> type; and the
    members of its enumerations (``class Mode(str, enum.Enum): TRAIN = "train"``):
    ``Mode.TRAIN`` -> "enum".  The summary keeps a name's last binding; one that is
    not a literal there gives nothing."""
    summary = index.modules.get(module)
    out: dict[str, str] = {}
    if summary is None:
        return out
    defs = summary.get("defs") or {}
    for qualname, rec in defs.items():
        if "." in qualname:
            continue
        if rec.get("kind") == "class":
            if any(str(b.get("ref", "")).rsplit(".", 1)[-1] in _ENUM_BASES for b in rec.get("bases") or ()):
                for member, binding in (rec.get("members") or {}).items():
                    if (defs.get(binding.get("q", "")) or {}).get("kind") == "assign":
                        out[f"{qualname}.{member}"] = "enum"
            continue
        if rec.get("kind") != "assign":
            continue
        value = rec.get("value") or {}
        if value.get("k") == "literal":
            t = _CONST_TYPES.get(type(value.get("value")))
            if t is not None:
                out[qualname] = t
    return out


def _give_consts(out: dict, path: str, name: str, consts: Mapping[str, str], qualname: str) -> None:
    """``name`` (as the file writes it) refers to ``qualname`` of a module whose constants
    are ``consts``: the constant, or the members of the enumeration, it names."""
    const = consts.get(qualname)
    if const is not None:  # `MODE_TRAIN = "train"` there: a Python str here
        out.setdefault(path, {}).setdefault("consts", {})[name] = const
        return
    prefix = qualname + "."
    for q, kind in consts.items():
        if kind == "enum" and q.startswith(prefix):  # `Mode.TRAIN` of `class Mode(Enum)`
            out.setdefault(path, {}).setdefault("consts", {})[name + q[len(qualname):]] = kind


def _used_class(out: dict, target_path: Optional[str], qualname: str) -> None:
    """Tell the module at ``target_path`` that another module uses its module class
    ``qualname``: the calls of its own file are not all its calls (model/walker.py)."""
    if target_path is None:
        return
    known = out.setdefault(target_path, {}).setdefault("used_classes", [])
    if qualname not in known:
        known.append(qualname)
        known.sort()


def _drop_idle_args(out: dict) -> None:
    """Call-site kinds matter to a function only where some call passes it a carried
    kind (a JAX array, a key...): the records of a function that none does are
    dropped, so that a module whose functions are only ever called with Python
    values gets no fact from them (and is not linted again for nothing)."""
    for path in list(out):
        units = out[path].get("units")
        if not units:
            continue
        for qualname in list(units):
            items = units[qualname]
            args = [f for _, f in items if f.get("kind") == "args"]
            if args and not any(carries_kind(f) for f in args):
                items[:] = [(k, f) for k, f in items if f.get("kind") != "args"]
                if not items:
                    del units[qualname]
        if not units:
            del out[path]["units"]
            if not out[path]:
                del out[path]


def _summary_int(index: ProjectIndex, module: str, qualname: str) -> Optional[Json]:
    """``{"int": n}`` for a module-level name whose binding (the last, unconditional:
    what an importer sees) is an integer literal in the module's summary
    (``N_STEPS = 500`` in a configuration module that never names JAX, so that no
    analysis of it told its ``values``)."""
    summary = index.modules.get(module)
    if summary is None or "." in qualname:
        return None
    rec = summary.get("defs", {}).get(qualname)
    value = rec.get("value") if isinstance(rec, dict) and rec.get("kind") == "assign" else None
    if not isinstance(value, dict) or value.get("k") != "literal":
        return None
    n = value.get("value")
    return {"int": n} if type(n) is int else None


def _summary_has_ints(index: ProjectIndex, module: str) -> bool:
    """Does the module's summary bind a module-level name to an integer literal?"""
    summary = index.modules.get(module)
    if summary is None:
        return False
    return any(isinstance(rec, dict) and rec.get("kind") == "assign" and "." not in q
               and isinstance(rec.get("value"), dict) and rec["value"].get("k") == "literal"
               and type(rec["value"].get("value")) is int
               for q, rec in summary.get("defs", {}).items())


def _class_flat(index: ProjectIndex, records_of: Mapping[str, Json], module: str, qualname: str,
                memo: dict) -> Optional[Json]:
    """The flat record (model/pytrees.py) of the class ``qualname`` of ``module``:
    its bases and its fields' classes resolved through the project's modules."""
    key = (module, qualname)
    if key in memo:
        return memo[key]
    memo[key] = None  # a cycle resolves to nothing
    rec = records_of.get(module, {}).get(qualname)
    if rec is None:
        return None

    def base_of(written: str) -> Optional[Json]:
        t = index.resolve(module, written)
        if t is None:
            return None
        if t.kind == "class":
            return _class_flat(index, records_of, t.module, t.qualname, memo)
        if t.kind == "external":
            return pytrees.LIBRARY_CLASSES.get(t.qualname)
        return None

    flat = memo[key] = pytrees.resolve(rec, base_of)
    return flat


def _resolved(index: ProjectIndex, module: str, path: str, proj: Json,
              wanted: Mapping[str, Json]) -> tuple[list, list, list, list]:
    """What one file's output names: (imported name, target) for its names
    imported from functions or assignments of the project; (module, qualname,
    fact, fact's canonical JSON) for each call from traced code and each
    transformation site that resolves to a project function; (name, module) for
    its names bound to a module of the project."""
    imported = []
    modules = []
    classes = []
    externals = []
    names = proj["summary"].get("names") or {}
    for name, binding in sorted(names.items()):
        k = binding.get("k")
        if k == "module":
            m = binding.get("m")
            m = index.beside(module, m) if m is not None else None
            if m is not None and m in index.modules:
                modules.append((name, m))
            continue
        if k != "from" or _outside(index, binding, module):
            continue
        target = index.resolve(module, name)
        if target is None:
            continue
        if target.kind == "external" and _aliased_library(target.qualname):
            externals.append((name, target.qualname))  # a library name a project module re-exports
            continue
        if target.kind in ("function", "assign"):
            imported.append((name, target))
        elif target.kind == "class":
            classes.append((name, target))
        elif target.kind == "module" and target.module in index.modules:
            modules.append((name, target.module))
    # ... and the submodules a package binds (`import pkg` then `pkg.optimizer.Sgd(...)`, with
    # `from pkg import optimizer` in pkg/__init__.py): `pkg.optimizer` is that module
    for name, m in list(modules):
        for sub_name, sub in _submodules(index, m):
            modules.append((f"{name}.{sub_name}", sub))
    # a call from traced code, or a transformation applied here: the record, less
    # what only this file needs, plus where it is and the chain for messages
    records = []
    for kind, recs in (("call", proj.get("calls", ())), ("site", proj.get("sites", ())),
                       ("args", proj.get("args", ()))):
        for rec in recs:
            callee = rec["callee"]
            if callee[0] == "@":
                # a method of a class another module named (`@desc.transform:Transform.check`,
                # model/instances.py): resolved in the module that defines the class
                where, _, callee = callee[1:].partition(":")
                where = where or module  # (`@:Cls.m`: a class of this file, model/index.py)
                if where not in index.modules:
                    continue
            else:
                where = module
                head = names.get(callee.split(".", 1)[0])
                if head is not None and _outside(index, head, module):
                    continue
            target = index.resolve(where, callee)
            returned = rec.get("returned")
            skip = 0
            receiver = None  # the class of the instance a method of a base of it is run on
            if target is not None and target.kind == "function" and "." in callee:
                # `jax.jit(env.step)` (`@:Corridor.step`): `Corridor` inherits `step`
                held = index.resolve(where, callee.rsplit(".", 1)[0])
                if held is not None and held.kind == "class" and (
                        held.module != target.module or not target.qualname.startswith(held.qualname + ".")):
                    receiver = f"{held.module}:{held.qualname}"
            if rec.get("overrides"):
                # `self.m(...)` in traced `Cls.caller`: the overrides of `m` in the project's
                # subclasses of other modules that inherit `caller` (model/overrides.py)
                if target is not None and target.kind == "class" and returned:
                    for sub in index.override_targets(target, returned, rec.get("caller", "").rsplit(".", 1)[-1]):
                        fact = {k: v for k, v in rec.items()
                                if k not in _LOCAL_KEYS and k not in ("returned", "overrides")}
                        fact.update(kind=kind, path=path, reason=_reason(
                            kind, rec.get("caller", ""), path, rec["line"], rec["why"], rec.get("cell")))
                        records.append((sub.module, sub.qualname, fact, json.dumps(fact, sort_keys=True)))
                inherited = index.resolve(target.module, f"{target.qualname}.{returned}") \
                    if target is not None and target.kind == "class" and returned else None
                if inherited is None or inherited.kind != "function" or inherited.module == target.module:
                    continue
                # ... and `m` itself where the class inherits it from a base of another
                # module (`class Checker(Base)`, `Base.check` in helpers.py): it runs there
                receiver = f"{target.module}:{target.qualname}"
                target, returned = inherited, None
            if target is None and kind == "site" and callee.endswith(".apply"):
                # `jax.jit(model.apply)`, `model = Model(...)` of a flax linen module class:
                # its `__call__` is traced (`self` stands where `variables` is passed)
                cls = index.resolve(where, callee[:-len(".apply")])
                if cls is not None and cls.kind == "class" and index.is_linen_class(cls):
                    target = index.resolve(cls.module, f"{cls.qualname}.__call__")
            if target is not None and target.kind == "class" and kind == "site" and not returned:
                # `jax.jit(Cls)(x, y)`: the class's `__init__` runs traced, `self` bound
                init = index.resolve(target.module, f"{target.qualname}.__init__")
                if init is None or init.kind != "function" or index.is_linen_class(target):
                    continue
                target = init
                rec = {**rec, "n_bound": int(rec.get("n_bound", 0)) + 1}
            if target is not None and target.kind == "class" and kind != "site":
                # `Cls(...)`: a call of its `__init__` (the class's own or a base's); a method
                # called on an instance (`Cls(x).m(...)`, `d[i]`: `__getitem__`, `obj(x)`)
                member = "__init__" if returned is None else returned or "__call__"
                cls = target
                target = index.resolve(cls.module, f"{cls.qualname}.{member}")
                returned = None
                if target is not None and (target.module != cls.module
                                           or not target.qualname.startswith(cls.qualname + ".")):
                    receiver = f"{cls.module}:{cls.qualname}"  # (a method `cls` inherits)
                if target is None and rec.get("ctor"):
                    # a generated `__init__` (dataclass, equinox Module): the checks it runs
                    # see the fields the call gave tracers (model/instances.py)
                    for check in ("__check_init__", "__post_init__"):
                        target = index.resolve(cls.module, f"{cls.qualname}.{check}")
                        if target is not None:
                            break
                if target is None and member == "apply" and index.is_linen_class(cls):
                    # `Model(...).apply(variables, x)`: a flax linen module runs its
                    # `__call__` with the arguments after `variables`
                    target = index.resolve(cls.module, f"{cls.qualname}.__call__")
                    skip = 1
            if target is None or target.kind not in ("function", "assign") or (
                    target.kind == "assign" and "." in target.qualname):
                # a module-level name assigned a value may hold a lambda (`g = lambda i: ...`):
                # the defining module decides (model/index.py, apply_facts)
                continue
            fact = {k: v for k, v in rec.items() if k not in _LOCAL_KEYS}
            if receiver is not None and target.kind == "function":
                fact["receiver"] = receiver  # `self` is an instance of that class (model/overrides.py)
            if returned is None:
                fact.pop("returned", None)
            if skip:
                fact["skip"] = skip
                if "method" in fact.get("keywords", ()):
                    continue  # `model.apply(v, x, method=Model.encode)`: another method runs
                _drop_apply_keywords(fact)
            if kind == "call" and rec.get("returned") is None and target.qualname.endswith(".__init__") \
                    and callee.rsplit(".", 1)[-1] != "__init__" and not rec.get("ctor"):
                continue  # `Cls(x)` in traced code: its `__init__` stores what it is given
            if kind == "args" and not fact.get("escape"):
                _instances_named(index, module, fact, (wanted.get(target.module) or {}).get(target.qualname, ()))
            fact.update(kind=kind, path=path, reason=_reason(
                kind, rec.get("caller", ""), path, rec["line"], rec["why"], rec.get("cell")))
            records.append((target.module, target.qualname, fact, json.dumps(fact, sort_keys=True)))
    return imported, records, modules, classes, externals


# the keywords flax's `Module.apply` takes for itself: `__call__` never receives them
_APPLY_KEYWORDS = frozenset({"rngs", "mutable", "capture_intermediates"})


def _drop_apply_keywords(fact: Json) -> None:
    """A call of a flax linen module's ``apply`` recorded for its ``__call__``:
    ``rngs=``/``mutable=`` are ``apply``'s own, not arguments of ``__call__``."""
    for key in ("keywords", "traced_kw", "array_kw", "none_kw"):
        if key in fact:
            fact[key] = [k for k in fact[key] if k not in _APPLY_KEYWORDS]
    kw = fact.get("kw")
    if isinstance(kw, dict):
        fact["kw"] = {k: v for k, v in kw.items() if k not in _APPLY_KEYWORDS}
    classes = fact.get("classes")
    if isinstance(classes, dict) and isinstance(classes.get("kw"), dict):
        classes["kw"] = {k: v for k, v in classes["kw"].items() if k not in _APPLY_KEYWORDS}


def _instances_named(index: ProjectIndex, module: str, fact: Json, wanted: Iterable[str]) -> None:
    """The instance kinds of a call-site record (``obj:Transform``, as the calling
    module writes the class) named where they are defined (``obj:@desc.transform:
    Transform``); only the parameters of a constructor that stores them as an
    attribute whose methods it calls (``wanted``: model/instances.py) get them, and a
    name that is no class of the project is unknown."""
    wanted = set(wanted)
    pos, kw = fact.get("pos"), fact.get("kw")
    if not wanted:
        if isinstance(pos, list):
            fact["pos"] = [_unknown_obj(k) for k in pos]
        if isinstance(kw, dict):
            fact["kw"] = {n: _unknown_obj(k) for n, k in kw.items()}
        return

    def named(k: object) -> object:
        if isinstance(k, str) and k.startswith(OBJS):
            refs = [named(OBJ + ref) for ref in k[len(OBJS):].split("|")]
            if any(not isinstance(r, str) or not r.startswith(OBJ + "@") for r in refs):
                return "unknown"
            return OBJS + "|".join(r[len(OBJ):] for r in refs)  # type: ignore[index]
        if not isinstance(k, str) or not k.startswith(OBJ):
            return k
        ref = k[len(OBJ):]
        if ref.startswith("@"):
            return k
        t = index.resolve(module, ref)
        return f"{OBJ}@{t.module}:{t.qualname}" if t is not None and t.kind == "class" else "unknown"

    if isinstance(pos, list):
        fact["pos"] = [named(k) for k in pos]
    if isinstance(kw, dict):
        fact["kw"] = {n: named(k) for n, k in kw.items()}


def _unknown_obj(k: object) -> object:
    return "unknown" if isinstance(k, str) and k.startswith((OBJ, OBJS)) else k


def _x64_at_import(outputs, without: str = "") -> set[str]:
    """The modules that run with x64 on once imported: those whose module-level
    code switches it on, and (transitively) those that import one or lie in a
    package whose ``__init__`` is one (importing ``pkg.sub`` runs ``pkg``'s
    ``__init__`` first).  ``without``: a module whose switch is left out (then only
    the modules that switch x64 on by their own top level count as switches, not
    those the project said are on because they import one: perhaps ``without``)."""
    on = {module for module, _, proj in outputs if (proj.get("x64_own") if without else proj.get("x64_import"))
          and module != without}
    if not on:
        return on
    imports = {module: _imported_with_packages(module, proj) for module, _, proj in outputs}
    return set(_through_imports(imports, dict.fromkeys(on, True)))


def _late_importers(outputs) -> dict[str, dict[str, list]]:
    """The modules that switch x64 on by their own top level (``x64_own``), each with
    the first importer (by path) whose top level imports it, directly or through modules
    whose import imports it, after making JAX arrays (``"arrays": [path, line, code]``)
    or after importing ``jax`` (``"jax": [path, line]``), from the importers' ``x64_order``.
    Not an importer that runs with x64 on without that module (another switches it on)."""
    outputs = list(outputs)
    own = {module for module, _, proj in outputs if proj.get("x64_own")}
    if not own or not any(proj.get("x64_order") for _, _, proj in outputs):
        return {}
    now = {module: _imported_with_packages(module, proj) - set(proj["summary"].get("deferred", ()))
           for module, _, proj in outputs}

    def runs(start: str) -> set[str]:
        """The modules importing ``start`` runs: it, the packages above it, what they import."""
        parts = start.split(".")
        todo = [start, *(".".join(parts[:i]) for i in range(1, len(parts)))]
        seen: set[str] = set()
        while todo:
            m = todo.pop()
            if m in seen or m not in now:
                continue
            seen.add(m)
            todo.extend(now[m])
        return seen

    memo: dict[str, set[str]] = {}
    on_without: dict[str, set[str]] = {}
    late: dict[str, dict[str, list]] = {}
    for module, path, proj in sorted(outputs, key=lambda o: o[1]):
        order = proj.get("x64_order")
        if not order:
            continue
        for kind in ("arrays", "jax"):
            ran: set[str] = set()  # what its imports before ran (their switches ran then)
            for name in order.get("before_" + kind, ()):
                reached = memo.get(name)
                if reached is None:
                    reached = memo[name] = runs(name)
                ran |= reached
            for entry in order.get(kind, ()):
                reached = memo.get(entry[0])
                if reached is None:
                    reached = memo[entry[0]] = runs(entry[0])
                for target in sorted(reached & own - ran):
                    if target == module or kind in late.get(target, {}):
                        continue
                    if target not in on_without:
                        on_without[target] = _x64_at_import(outputs, target)
                    if module in on_without[target]:
                        continue
                    late.setdefault(target, {})[kind] = [path, *entry[1:]]
    return late


def _arrays_at_import(index: ProjectIndex, outputs, x64_on: set[str], jits_of: dict) -> dict[str, str]:
    """The modules whose import makes JAX arrays while x64 is off, each with the
    statement that makes them (``"pkg/defaults.py: TODAY = age_at_z0(*PLANCK15)"``):
    their top level computes with JAX, or calls a jitted function of the project,
    before any x64 switch of their own; or (transitively) they import such a module
    where importing them runs that import (not in a function), or lie in a package
    whose ``__init__`` does.  Not a module that runs with x64 on
    once imported (``x64_on``), nor one importing a module that may switch it."""
    src: dict[str, str] = {}
    imports: dict[str, set[str]] = {}
    for module, path, proj in outputs:
        if module in x64_on:
            continue
        # what importing it runs: not a module imported only inside a function of it
        # (`def main(): ... config.update("jax_enable_x64", True); from pkg import sim`)
        imports[module] = _imported_with_packages(module, proj) - set(proj["summary"].get("deferred", ()))
        own = proj.get("import_arrays")
        if own:
            src[module] = f"{path}: {own}"
            continue
        for name, code in proj.get("import_calls", ()):
            target = index.resolve(module, name)
            if target is not None and target.kind == "function" \
                    and jits_of.get(target.module, {}).get(target.qualname) is not None:
                src[module] = f"{path}: {code}"
                break
    if not src:
        return src
    return _through_imports(imports, src)


def _jax_at_import(outputs) -> dict[str, str]:
    """The modules of the project whose import imports JAX, each with the path of the
    module that imports it (``"pkg/model.py"``): their top level imports ``jax`` (not
    only in a function, nor in the ``if __name__ == "__main__":`` block), or imports a
    module that does, or lies in a package whose ``__init__`` does."""
    src: dict[str, str] = {}
    imports: dict[str, set[str]] = {}
    for module, path, proj in outputs:
        summary = proj["summary"]
        now = set(summary.get("imported", ())) - set(summary.get("deferred", ()))
        if any(m == "jax" or m.startswith("jax.") for m in now):
            src[module] = path
        imports[module] = _imported_with_packages(module, proj) - set(summary.get("deferred", ()))
    return _through_imports(imports, src) if src else src


def _imported_with_packages(module: str, proj: Json) -> set[str]:
    """The modules importing ``module`` runs first: those it imports, and the packages
    above it (importing ``pkg.sub`` runs ``pkg``'s ``__init__`` first)."""
    parts = module.split(".")
    return set(proj["summary"].get("imported", ())) | {".".join(parts[:i]) for i in range(1, len(parts))}


def _through_imports(imports: dict[str, set[str]], reached: dict) -> dict:
    """``reached`` (module -> what reaches it) grown to every module of ``imports``
    (module -> the modules importing it runs) that runs one already reached, taking
    the value of the first of them by name; changed in place and returned."""
    changed = True
    while changed:
        changed = False
        for module, named in imports.items():
            if module in reached:
                continue
            hit = sorted(named & reached.keys())
            if hit:
                reached[module] = reached[hit[0]]
                changed = True
    return reached


def _submodules(index: ProjectIndex, module: str) -> list[tuple[str, str]]:
    """(name, module) for the names ``module`` binds at module level to another module of
    the project (a package's ``from pkg import optimizer``)."""
    out = []
    summary = index.modules.get(module) or {}
    for name, binding in sorted((summary.get("names") or {}).items()):
        if binding.get("k") not in ("from", "module") or _outside(index, binding, module):
            continue
        target = index.resolve(module, name)
        if target is not None and target.kind == "module" and target.module in index.modules \
                and target.module != module:
            out.append((name, target.module))
    return out


def _attributes_used(text: bytes, names: set[str]) -> dict[str, set[str]]:
    """name -> the attributes ``name.attr`` the text reads, for each of ``names``
    (a plain search per name: a file binds few modules)."""
    out: dict[str, set[str]] = {}
    for name in names:
        needle = name.encode() + b"."
        i = text.find(needle)
        while i >= 0:
            before = text[i - 1:i]
            m = _IDENT.match(text, i + len(needle))
            if m is not None and not (before.isalnum() or before in (b"_", b".")):
                out.setdefault(name, set()).add(m.group().decode())
            i = text.find(needle, i + len(needle))
    return out


_IDENT = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


# the libraries whose names, re-exported by a module of the project (`from jax import
# random as jr` in utils/__init__.py), are told to the modules that import them from there
_ALIASED_LIBRARIES = frozenset({"jax", "jaxlib", "flax", "optax", "equinox", "haiku", "chex", "numpyro",
                                "diffrax", "distrax", "numpy"})


def _aliased_library(qualname: str) -> bool:
    return qualname.split(".", 1)[0] in _ALIASED_LIBRARIES


def _aliased(qualname: str) -> bool:
    """Is a library name re-exported by a project module given to its importers: a
    module or a function (`jax.random`, `jax.experimental.pjit.pjit`), not a class
    (`Tensor` for `jax.Array`: an annotation written with it is a claim the code's
    values need not keep: axlearn's `image: Tensor` holds a NumPy array)?"""
    last = qualname.rsplit(".", 1)[-1]
    return not last[:1].isupper() and last != "ndarray"  # (`jnp.ndarray`: a class too)


def _reexported_externals(index: ProjectIndex, module: str) -> dict[str, str]:
    """The names ``module`` binds by an import to a library name (``from jax import random
    as jr``, ``import jax.numpy as jnp``), or by an assignment at its top level (``random =
    jax.random``, trax's ``fastmath``): name -> the library's dotted name."""
    summary = index.modules.get(module)
    if summary is None:
        return {}
    out = {}
    for name, binding in (summary.get("names") or {}).items():
        if binding.get("k") not in ("from", "module", "def"):
            continue
        target = index.resolve(module, name)
        if target is not None and target.kind == "external" and _aliased_library(target.qualname):
            out[name] = target.qualname
    return out


def _outside(index: ProjectIndex, binding: Json, module: str) -> bool:
    """Whether a module-level import binding of ``module`` names a module outside the
    project (what it resolves to is then never a project function: no need to ask)."""
    k = binding.get("k")
    if k != "from" and k != "module":
        return False
    m = binding.get("m")
    if m is None:
        return False
    m = index.beside(module, m)
    return not index.is_module(m) and index.is_external(m)


# the kinds a call-site record carries (model/kinds.py CARRIED, spelled here so that a
# warm run, which reads records but analyses nothing, does not import libcst)
CARRIED_KINDS = frozenset({"array", "nparray", "key", "keys", "iterator", "jitted", "arrays", "pylist"})
# an instance of a class of the project, named where it is defined (model/kinds.py OBJ)
OBJ = "obj:"
OBJS = "objs:"  # a tuple/list display of instances (model/kinds.py OBJS)


def _carried(k: object) -> bool:
    # (an array namespace, `xnp=jnp`: model/kinds.NS)
    return k in CARRIED_KINDS or (isinstance(k, str) and (k.startswith((OBJ + "@", OBJS + "@")) or k.startswith("ns:")))


def carries_kind(record: Json) -> bool:
    """Does a call-site record (``args`` of engine/project.py) pass a carried kind?"""
    pos, kw = record.get("pos"), record.get("kw")
    return (isinstance(pos, list) and any(_carried(k) for k in pos)) or (
        isinstance(kw, dict) and any(_carried(k) for k in kw.values()))


def canonical(facts: Optional[Mapping[str, Json]]) -> str:
    """The facts of one file as the canonical JSON the cache key includes."""
    if not facts:
        return ""
    return json.dumps(facts, sort_keys=True, separators=(",", ":"))


def _reexports(index: ProjectIndex, module: str, key_state_of: dict) -> bool:
    """Does ``module`` define, or import from the project, a function that advances a
    module-global key (model/keystate.py)?  (A package's ``__init__`` that re-exports one.)"""
    if key_state_of.get(module):
        return True
    return any(m.startswith(module + ".") and states for m, states in key_state_of.items())
