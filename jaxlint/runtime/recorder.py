"""The recorder: active inside the user's ``--run`` command and its Python children.

``jaxlint confirm --run CMD`` starts CMD with a ``sitecustomize`` shim on
``PYTHONPATH`` and ``JAXLINT_RECORD`` naming a job file: the functions that
have findings (file, qualified name, lines).  Every Python process of the
command then calls ``install()`` at start-up, which sets a trace function
(``sys.settrace``/``threading.settrace``; it returns None, so it costs one
call per Python function call and no line events).  At a watched function's
first call it snaps the arguments (``observed.snap``) and writes an
``observed`` event:

* portable arguments (a module-level function called with containers, arrays,
  Python literals) go to the parent, which caches them (a later run without
  ``--run`` checks the function in a worker with them, like declared inputs);
* the live function and arguments are kept (a method: the live ``self``; a
  closure, a lambda, a scan or cond body: its cells), and at the process's exit
  the rule's check runs right here, its verdict written as a ``verdict``
  event.  ``confirm`` checks every observed function this way (no worker to
  start); ``bench`` only the ones that are not portable (the worker benchmarks
  the rest against their fixed versions).  Functions with declared inputs are
  left to the worker: declared inputs come first.

Only the first call is snapped, except for the recompilation rules, which keep
later calls with new signatures (up to a cap) for their oracle to replay.

Findings outside any function (a ``__main__`` block) are judged by the run
itself: the lines of their modules are traced, and at exit an exception raised
at the line, the compiles counted while it ran, or the key bits its
``jax.random`` calls got, give the verdict (``_judge_run``).

``confirm`` starts the command before it lints: until the watch list comes (a
file the parent writes), the trace function is ``gate``, which lets a module's
imports run and holds its first other statement or the first call of one of
its functions.  While a package with no watched file is imported (JAX itself),
the trace function is off (``_quiet_imports``).  Nothing is written but the
events file the parent named.
"""

from __future__ import annotations

import atexit
import builtins
import functools
import gc
import inspect
import json
import os
import sys
import threading
import time
import types
from typing import Any, Optional

ENV = "JAXLINT_RECORD"
MAX_CALLS_INSPECTED = 32  # calls of one function looked at for new signatures
GATE_WAIT = 600.0  # seconds the first user call waits for the watch list (a backstop)


def _emit(path: str, **event: Any) -> None:
    line = json.dumps(dict(event, pid=os.getpid()), default=str) + "\n"
    try:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(line)
    except OSError:
        pass


class _Observation:
    def __init__(self, entries: list[dict], func: Any, values: list, names: list[str],
                 bound: Any, has_self: bool, cells: Optional[list], jit_obj: Any,
                 jit_static: Optional[tuple[int, ...]]) -> None:
        self.entries = entries
        self.func = func
        self.values = values
        self.names = names
        self.bound = bound
        self.has_self = has_self
        self.cells = cells
        self.jit_obj = jit_obj
        self.jit_static = jit_static
        self.keywords: dict[str, Any] = {}  # keyword-only and **kwargs values, snapped
        # later calls with other abstract signatures (the first call is `values`), kept
        # for the oracles that need more than one call (recompilation)
        self.more: list[list] = []
        self.signatures: set = set()
        self.inspected = 1
        self.max_calls = max([int(e.get("calls", 1)) for e in entries] or [1])


class Recorder:
    def __init__(self, job: dict) -> None:
        self.events = job["events"]
        self.command = job.get("command", "")
        self.options = job.get("options", {})
        self.by_file: dict[str, list[dict]] = {}
        self.warn_files: set[str] = set()  # files with findings judged by a warning
        self.module_level: dict[str, list[dict]] = {}  # file -> findings outside functions
        self.files: dict[str, bool] = {}
        # the watch list, or the file the parent writes it to once it has linted
        self.waiting: Optional[str] = None
        if "watch" in job:
            self._watch(job["watch"])
        elif not self._load_watch(job.get("watch_file")):
            self.waiting = job.get("watch_file")
        self.library: dict[str, bool] = {}
        self.import_lines: dict[str, set] = {}  # file -> lines of its top-level imports
        self.gated: dict[tuple[str, int], int] = {}  # import lines run before the list came
        self.missing: dict[tuple[str, int], str] = {}  # ModuleNotFoundError at a line: its name
        # module-level findings: the run itself is their oracle (lines run, exceptions
        # raised there, compiles while they ran)
        self.line_runs: dict[tuple[str, int], int] = {}
        self.raised: dict[tuple[str, int], tuple[type, str]] = {}
        self.line_compiles: dict[tuple[str, int], dict[str, int]] = {}
        self.where = threading.local()
        self.listening = False
        self.counting = True
        self.draws: list[tuple[str, int, str, str]] = []  # file, line, key digest, function
        self.random_patched = False
        # (file, line) -> the first warning issued while that module-level line ran
        self.warned: dict[tuple[str, int], tuple[str, str]] = {}
        self.shower: Any = None  # our warnings.showwarning, once a JAX110 line has run
        self.quiet: set[tuple[str, int]] = set()  # lines run while dtype warnings were ignored
        self.reals: dict[str, str] = {}
        self.codes: dict[Any, list] = {}
        self.seen: set = set()
        self.again: dict[Any, _Observation] = {}  # code -> observation wanting more calls
        self.pending: list[_Observation] = []
        self.outer: dict[str, tuple[dict, _Observation]] = {}  # nested id -> enclosing call
        self.registered = False
        self.lock = threading.RLock()
        self.busy = threading.local()
        self.packages: dict[str, bool] = {}  # top-level package -> holds a watched file
        self.tracer = self.trace  # one bound method, so that `sys.gettrace() is` it
        self.gater = self.gate
        # `check --observed`'s facts recorder (runtime/factrec.py) when the run records
        # them: one trace function per process, so this one hands it every call
        self.facts: Any = None

    def _watch(self, watch: list) -> None:
        for entry in watch:
            self.by_file.setdefault(entry["file"], []).append(entry)
            if entry.get("module_level"):
                self.module_level.setdefault(entry["file"], []).append(entry)
                if entry["code"] in RUN_WARNING_RULES:
                    self.warn_files.add(entry["file"])

    def _load_watch(self, path: Optional[str]) -> bool:
        if not path:
            return False
        try:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError):
            return False
        self._watch(data.get("watch") or [])
        self.options = dict(self.options, **(data.get("options") or {}))
        return True

    # -- before the watch list: the gate

    def gate(self, frame: Any, event: str, arg: Any) -> Any:
        """The trace function until the watch list comes: imports run; the first
        statement of the user's code that is not an import (at module level, or the
        first call of one of its functions) waits for the list."""
        if self.waiting is None:
            return self.trace(frame, event, arg)
        code = frame.f_code
        lib = self.library.get(code.co_filename)
        if lib is None:
            lib = self.library[code.co_filename] = _is_library(code.co_filename)
        if lib:
            return None
        if not code.co_flags & inspect.CO_OPTIMIZED:  # a module or class body
            return self._gate_lines if code.co_name == "<module>" else None
        self._wait()
        return self.trace(frame, event, arg)

    def _gate_lines(self, frame: Any, event: str, arg: Any) -> Any:
        """A module of the user's code before the list: its imports run, its first
        other statement waits."""
        if self.waiting is not None:
            if event == "line" and frame.f_lineno in self._imports_of(frame.f_code.co_filename):
                key = (frame.f_code.co_filename, frame.f_lineno)
                self.gated[key] = self.gated.get(key, 0) + 1
                return self._gate_lines
            if event not in ("line", "exception"):
                return self._gate_lines
            # a statement that is not an import, or an import that raised (a removed
            # API: the run may end right here): the list is needed to judge it
            self._wait()
        local = self._module_tracer(frame.f_code)
        return local(frame, event, arg) if local is not None else None

    def _imports_of(self, filename: str) -> set:
        found = self.import_lines.get(filename)
        if found is None:
            import ast

            found = set()
            try:
                with open(filename, "rb") as fh:
                    tree = ast.parse(fh.read())
                for node in tree.body:
                    if isinstance(node, (ast.Import, ast.ImportFrom)) or (
                            node is tree.body[0] and isinstance(node, ast.Expr)):
                        found.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
            except (OSError, SyntaxError, ValueError):
                pass
            self.import_lines[filename] = found
        return found

    def _wait(self) -> None:
        with self.lock:
            if self.waiting is None:
                return
            deadline = time.monotonic() + GATE_WAIT
            while not self._load_watch(self.waiting):
                if time.monotonic() > deadline:
                    break  # the parent holds a lifeline: this is only a backstop
                time.sleep(0.005)
            self.waiting = None
            self.files.clear()
            self.packages.clear()
            for (filename, line), n in self.gated.items():  # they ran: count them
                real = self._real(filename)
                if real in self.module_level:
                    self.line_runs[(real, line)] = self.line_runs.get((real, line), 0) + n
            # nothing to watch (and no facts to record): no tracing
            on = self.tracer if self.by_file or self.facts is not None else None
            sys.settrace(on)
            threading.settrace(on)  # type: ignore[arg-type]

    # -- module-level code: the run is the oracle

    def _real(self, filename: str) -> str:
        real = self.reals.get(filename)
        if real is None:
            real = self.reals[filename] = os.path.realpath(filename)
        return real

    def _module_tracer(self, code: Any) -> Any:
        """The line tracer for a module with findings outside its functions, or None."""
        if self._real(code.co_filename) not in self.module_level:
            return None
        with self.lock:
            if not self.registered:
                self.registered = True
                atexit.register(self.check_all)
        return self._line_trace

    def _line_trace(self, frame: Any, event: str, arg: Any) -> Any:
        key = (self._real(frame.f_code.co_filename), frame.f_lineno)
        if event == "line":
            self.line_runs[key] = self.line_runs.get(key, 0) + 1
            self.where.line = key
            if not self.listening and "jax.monitoring" in sys.modules:
                self._listen()
            if not self.random_patched and "jax.random" in sys.modules and any(
                    e["code"] == "JAX301" for e in self.module_level.get(key[0], [])):
                self._patch_random()
            if key[0] in self.warn_files:
                if self.shower is None or sys.modules["warnings"].showwarning is not self.shower:
                    self._patch_warnings()  # (again, when a catch_warnings block restored it)
                if _dtype_warnings_ignored():  # a filter hides what would confirm it
                    self.quiet.add(key)
        elif event == "exception":
            if key not in self.raised:
                exc = arg[1]
                if isinstance(exc, ModuleNotFoundError) and exc.name:
                    self.missing.setdefault(key, exc.name)
                text = str(exc).strip().splitlines()
                self.raised[key] = (arg[0], text[0][:300] if text else "")
        elif event == "return":
            self.where.line = None
        return self._line_trace

    def _patch_random(self) -> None:
        """jax.random's functions note the key bits they get from module-level code of
        a watched file (JAX301 outside any function: draws tied to the same key)."""
        self.random_patched = True
        import jax

        from jaxlint.runtime.checks import RANDOM_FUNCS

        for name in RANDOM_FUNCS:
            fn = getattr(jax.random, name, None)
            if fn is None or getattr(fn, "_jaxlint_draws", False):
                continue

            def wrapper(key: Any, *a: Any, __fn: Any = fn, __name: str = name, **k: Any) -> Any:
                try:
                    frame = sys._getframe(1)
                    real = self._real(frame.f_code.co_filename)
                    if frame.f_code.co_name == "<module>" and real in self.module_level \
                            and self.counting:
                        digest = _key_digest(key)
                        if digest is not None:
                            self.draws.append((real, frame.f_lineno, digest, __name))
                except Exception:  # noqa: BLE001 - never break the user's program
                    pass
                return __fn(key, *a, **k)

            functools.update_wrapper(wrapper, fn)
            wrapper._jaxlint_draws = True  # type: ignore[attr-defined]
            setattr(jax.random, name, wrapper)

    def _patch_warnings(self) -> None:
        """Warnings issued while a watched module-level line runs are noted at that line
        (JAX110: the float64 truncation warning), then shown as before."""
        import warnings

        original = warnings.showwarning

        def show(message: Any, category: Any, filename: str, lineno: int, file: Any = None,
                 line: Any = None) -> Any:
            try:
                real = self._real(filename)
                key = (real, lineno) if real in self.module_level else \
                    getattr(self.where, "line", None)
                if key is not None and self.counting:
                    text = str(message).strip().splitlines()
                    self.warned.setdefault(key, (category.__name__,
                                                 text[0][:300] if text else ""))
            except Exception:  # noqa: BLE001 - never break the user's program
                pass
            return original(message, category, filename, lineno, file, line)

        warnings.showwarning = self.shower = show

    def _listen(self) -> None:
        self.listening = True
        import jax.monitoring

        def count(event: str, duration: float, **kw: Any) -> None:
            key = getattr(self.where, "line", None)
            if key is None or not self.counting \
                    or event != "/jax/core/compile/backend_compile_duration":
                return
            name = str(kw.get("fun_name"))
            per_line = self.line_compiles.setdefault(key, {})
            per_line[name] = per_line.get(name, 0) + 1

        jax.monitoring.register_event_duration_secs_listener(count)

    def holds_watched(self, name: str) -> bool:
        """Whether the top-level package of module ``name`` holds a watched file
        (when in doubt, yes: the trace function stays on)."""
        top = name.partition(".")[0]
        found = self.packages.get(top)
        if found is None and self.waiting is not None:
            # no list yet: a package of the user's code (not a library) may hold one
            try:
                import importlib.util

                spec = importlib.util.find_spec(top) if top not in sys.modules else \
                    getattr(sys.modules[top], "__spec__", None)
                origin = getattr(spec, "origin", None)
                return not (origin and _is_library(origin))
            except Exception:  # noqa: BLE001
                return True
        if found is None:
            found = True
            try:
                import importlib.util

                module = sys.modules.get(top)
                spec = getattr(module, "__spec__", None) if module is not None else \
                    importlib.util.find_spec(top)
                if spec is not None:
                    origin = os.path.realpath(spec.origin) if spec.origin else None
                    places = [os.path.realpath(p) + os.sep
                              for p in (spec.submodule_search_locations or [])]
                    found = any(f == origin or any(f.startswith(p) for p in places)
                                for f in self.by_file)
            except Exception:  # noqa: BLE001 - keep tracing
                found = True
            self.packages[top] = found
        return found

    # -- the trace function: keep it cheap

    def trace(self, frame: Any, event: str, arg: Any) -> None:
        if self.facts is not None:
            try:
                self.facts.trace(frame, event, arg)
            except Exception:  # noqa: BLE001 - an error escaping a trace function would
                self.facts = None  # switch tracing off: the watched calls go unrecorded
        code = frame.f_code
        ok = self.files.get(code.co_filename)
        if ok is None:
            ok = self.files[code.co_filename] = (
                os.path.realpath(code.co_filename) in self.by_file)
        if not ok:
            return None
        if code.co_name == "<module>":
            return self._module_tracer(code)
        entries = self.codes.get(code)
        if entries is None:
            entries = self.codes[code] = self._match(code)
        if entries and not getattr(self.busy, "on", False):
            if code not in self.seen:
                self.seen.add(code)
                self.busy.on = True
                try:
                    self._observe(code, entries, frame)
                except Exception as exc:  # noqa: BLE001 - never break the user's program
                    _emit(self.events, event="observe-failed", ids=[e["id"] for e in entries],
                          error=f"{exc.__class__.__name__}: {exc}"[:300])
                finally:
                    self.busy.on = False
            elif code in self.again:
                self.busy.on = True
                try:
                    self._observe_again(code, frame)
                except Exception:  # noqa: BLE001 - the first call is what counts
                    self.again.pop(code, None)
                finally:
                    self.busy.on = False
        return None

    def _observe_again(self, code: Any, frame: Any) -> None:
        """A later call: kept when its abstract signature is new, up to the cap."""
        from jaxlint.runtime import observed as ob

        obs = self.again[code]
        obs.inspected += 1
        names = code.co_varnames[:code.co_argcount]
        values = [frame.f_locals.get(n) for n in names][1 if obs.has_self else 0:]
        signature = ob.signature(values, obs.jit_static)
        if signature not in obs.signatures:
            obs.signatures.add(signature)
            obs.more.append([ob.snap(v) for v in values])
        if 1 + len(obs.more) >= obs.max_calls or obs.inspected >= MAX_CALLS_INSPECTED:
            del self.again[code]

    def _match(self, code: Any) -> list:
        real = os.path.realpath(code.co_filename)
        qual = getattr(code, "co_qualname", code.co_name).replace(".<locals>", "")
        lines = [ln for _, _, ln in code.co_lines() if ln is not None]
        last = max(lines) if lines else code.co_firstlineno
        return [e for e in self.by_file.get(real, [])
                if e["function"] == qual and code.co_firstlineno <= e["line"]
                and ("outer_of" in e or e["line"] <= last)]

    # -- one observation

    def _observe(self, code: Any, entries: list[dict], frame: Any) -> None:
        from jaxlint.runtime import observed as ob

        func = _function_for(code, frame)
        names = list(code.co_varnames[:code.co_argcount])
        local = frame.f_locals
        values = [local.get(n) for n in names]
        bound = None
        jit_obj = None
        jit_static: Optional[tuple[int, ...]] = None
        has_self = False
        if func is not None and names:
            owner = values[0]
            attr = inspect.getattr_static(type(owner), func.__name__, None) \
                if not isinstance(owner, type) else None
            if attr is not None and _code_of(attr) is code:
                has_self, bound = True, owner
                names, values = names[1:], values[1:]
                if getattr(attr, "_jit_info", None) is not None:
                    jit_obj = getattr(owner, func.__name__, None)
                    jit_static = tuple(i - 1 for i in _jit_static(attr, func) if i > 0)
        if func is not None and not has_self and "." not in func.__qualname__:
            module = sys.modules.get(func.__module__)
            attr = getattr(module, func.__name__, None) if module is not None else None
            if attr is not None and getattr(attr, "_jit_info", None) is not None \
                    and _code_of(attr) is code:
                jit_obj, jit_static = attr, _jit_static(attr, func)
        snapped = [ob.snap(v) for v in values]
        cells = None
        if func is not None and func.__closure__:
            cells = []
            for c in func.__closure__:
                try:
                    cells.append(ob.snap(c.cell_contents))
                except ValueError:  # an empty cell
                    cells.append(_EMPTY)
        described = [f"{n}: {ob.describe(v)} (observed in --run `{self.command}`)"
                     for n, v in zip(names, snapped)]
        portable = None
        module = sys.modules.get(func.__module__) if func is not None else None
        plain = not (code.co_kwonlyargcount
                     or code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS))
        if func is not None and plain and not has_self and not cells \
                and "." not in func.__qualname__ \
                and _code_of(getattr(module, func.__name__, None)) is code:
            try:
                portable = [ob.to_json(v) for v in snapped]
            except ob.NotPortable:
                portable = None
        kind = ("method" if has_self else "closure" if cells else
                "nested function" if func is not None and "." in func.__qualname__ else
                "function")
        _emit(self.events, event="observed", ids=[e["id"] for e in entries],
              function=entries[0]["function"], kind=kind, args=portable, described=described,
              found=func is not None)
        if func is None:
            return  # no function object to call
        declared = getattr(module, "JAXLINT_INPUTS", None) if module is not None else None
        helpers = [e for e in entries if "outer_of" in e]
        entries = [e for e in entries if "outer_of" not in e and not e.get("declared") and not (
            isinstance(declared, dict) and (e["function"] in declared
                                            or e["function"].split(".")[-1] in declared))]
        if portable is not None and not self.options.get("check_portable"):
            # checked (and benchmarked) in a worker with these arguments; a module-level
            # call's callee only here, where its later calls are seen
            entries = [e for e in entries if e.get("callee")]
        if not entries and not helpers:
            return  # declared inputs come first
        obs = _Observation(entries, func, snapped, names, bound, has_self, cells, jit_obj,
                           jit_static)
        # *args become positional arguments; keyword-only and **kwargs are bound by name
        n_pos, n_kw = code.co_argcount, code.co_kwonlyargcount
        extra_names = code.co_varnames[n_pos + n_kw:]
        if code.co_flags & inspect.CO_VARARGS and extra_names:
            star = local.get(extra_names[0]) or ()
            obs.values += [ob.snap(v) for v in star]
            obs.names += [f"*{extra_names[0]}[{i}]" for i in range(len(star))]
            extra_names = extra_names[1:]
        for name in code.co_varnames[n_pos:n_pos + n_kw]:
            if name in local:
                obs.keywords[name] = ob.snap(local[name])
        if code.co_flags & inspect.CO_VARKEYWORDS and extra_names:
            more = local.get(extra_names[0]) or {}
            obs.keywords.update({k: ob.snap(v) for k, v in more.items()})
        if obs.max_calls > 1 and not (code.co_flags & inspect.CO_VARARGS):
            obs.signatures.add(ob.signature(obs.values[:code.co_argcount - has_self],
                                            jit_static))
            self.again[code] = obs
        with self.lock:
            self.pending.append(obs)
            for h in helpers:
                self.outer[h["outer_of"]["id"]] = (h["outer_of"], obs)
            if not self.registered:
                self.registered = True
                atexit.register(self.check_all)  # after JAX's own exit handlers were registered

    # -- at exit: run the checks with the live objects

    def check_all(self) -> None:
        sys.settrace(None)
        threading.settrace(None)  # type: ignore[arg-type]
        self.counting = False
        for entries in self.module_level.values():
            for entry in entries:
                try:
                    verdict = self._judge_run(entry)
                except Exception as exc:  # noqa: BLE001
                    from jaxlint.runtime.verdicts import skipped

                    verdict = skipped(f"internal error in the check: "
                                      f"{exc.__class__.__name__}: {exc}"[:300])
                _emit(self.events, event="verdict", id=entry["id"], result=verdict.to_dict())
        targets: dict[str, tuple[dict, Optional[_Observation]]] = {}
        for obs in list(self.pending):
            for entry in obs.entries:
                targets.setdefault(entry["id"], (entry, obs))
        for nested_id, (entry, _outer) in self.outer.items():
            if not entry.get("declared"):
                targets.setdefault(nested_id, (entry, None))
        for entry_id, (entry, own) in targets.items():
            _emit(self.events, event="start", id=entry_id)
            try:
                verdict = self._check_target(entry, own)
            except BaseException as exc:  # noqa: BLE001
                from jaxlint.runtime.verdicts import skipped

                verdict = skipped(f"internal error in the check: "
                                  f"{exc.__class__.__name__}: {exc}"[:300])
            _emit(self.events, event="verdict", id=entry_id, result=verdict.to_dict())

    def _judge_run(self, entry: dict) -> Any:
        """A finding outside any function, judged by what the run did at its lines:
        the exception raised there, or the compiles while they ran."""
        from jaxlint.runtime.verdicts import confirmed, not_exercised, not_reproduced, skipped

        path, first = entry["file"], entry["line"]
        # from the first line of the statement that holds it: the run reports a
        # multi-line statement's events (line, warning) at the line it starts on
        lines = range(_statement_start(path, first), max(entry.get("end_line") or first, first) + 1)
        runs = sum(self.line_runs.get((path, n), 0) for n in lines)
        where = f"in --run `{self.command}`"
        if not runs:  # no evidence either way
            package = self._missing_before(path, first)
            if package is not None:  # the run stopped at an import of a package not here
                return skipped(f"environment: `{package}` is not installed",
                               environment=package)
            return not_exercised(f"the --run never ran line {first}: {where}; a --run that "
                                 f"reaches it (the branch or the input that leads there) "
                                 f"would exercise it", line_runs=0)
        if entry["code"] in RUN_COMPILE_RULES:
            counts: dict[str, int] = {}
            for n in lines:
                for name, c in self.line_compiles.get((path, n), {}).items():
                    counts[name] = counts.get(name, 0) + c
            counts = _user_compiles(counts, path)
            name, most = max(counts.items(), key=lambda kv: kv[1], default=("", 0))
            details = {"compiles": counts, "line_runs": runs, "oracle": "the --run itself"}
            if most > 1:
                return confirmed(f"{name} compiled {most} times while line {first} ran {runs} "
                                 f"time(s) {where}", **details)
            if runs > 1:
                return not_reproduced(f"line {first} ran {runs} times {where} and no function "
                                      f"compiled more than once there", **details)
            return not_exercised(f"line {first} ran once {where}: no second run to compare; "
                                 f"a --run that runs it again (a loop, a second call) would "
                                 f"exercise it", **details)
        if entry["code"] == "JAX301":
            here = [(n, d, fn) for p, n, d, fn in self.draws if p == path and n in lines]
            if not here:
                return skipped(f"line {first} ran {where}, but no jax.random call was seen "
                               "there (a function imported before the run's first line?)")
            for n, digest, fn in here:
                others = [(m, fn2) for p, m, d, fn2 in self.draws
                          if d == digest and (p, m) != (path, n)]
                twice = sum(1 for p, m, d, _ in self.draws if (p, m, d) == (path, n, digest))
                if others or twice > 1:
                    other_line = others[0][0] if others else n
                    other_fn = others[0][1] if others else fn
                    return confirmed(f"the --run drew from the same key bits at line "
                                     f"{other_line} (`{other_fn}`) and line {n} (`{fn}`)",
                                     use_sites=sorted({other_line, n}), line=n,
                                     oracle="the --run itself")
            return not_reproduced(f"the keys used at line {first} {where} were used nowhere "
                                  "else in module-level code", oracle="the --run itself")
        if entry["code"] in RUN_WARNING_RULES:
            for n in lines:
                if (path, n) in self.warned:
                    category, message = self.warned[(path, n)]
                    return confirmed(f"the --run warned at line {n}: {category}: {message}",
                                     warning=category, line=n, message=message,
                                     oracle="the --run itself")
            import jax

            x64 = bool(jax.config.jax_enable_x64)
            if not x64 and any((path, n) in self.quiet for n in lines):
                return not_exercised(f"line {first} ran {where} while a warnings filter ignored "
                                     "JAX's dtype warning: no evidence either way; a --run "
                                     "that leaves UserWarning shown would exercise it",
                                     line_runs=runs, x64=x64)
            return not_reproduced(f"line {first} ran {runs} time(s) {where} without a warning "
                                  f"(jax_enable_x64={x64})", line_runs=runs, x64=x64,
                                  oracle="the --run itself")
        expected = _expected_exceptions(entry["code"])
        for n in lines:
            if (path, n) in self.raised:
                cls, message = self.raised[(path, n)]
                name = f"{cls.__module__}.{cls.__qualname__}".replace("builtins.", "")
                ev = f"{name} at line {n}: {message}"
                if issubclass(cls, expected):
                    return confirmed(f"the --run raised {ev}", exception=name, line=n,
                                     message=message, oracle="the --run itself")
                return skipped(f"the --run raised another exception there: {ev}")
        return not_reproduced(f"line {first} ran {runs} time(s) {where} without raising",
                              line_runs=runs, oracle="the --run itself")

    def _missing_before(self, path: str, line: int) -> Optional[str]:
        """The package a ModuleNotFoundError raised above ``line`` of ``path`` named,
        when it is not installed (``jax.config``'s error names an installed package)."""
        import importlib.util

        for (p, n), name in sorted(self.missing.items()):
            if p == path and n < line:
                top = name.partition(".")[0]
                try:
                    found = importlib.util.find_spec(top) is not None
                except (ImportError, ValueError):
                    found = False
                if not found:
                    return top
        return None

    def _check_target(self, entry: dict, own: Optional[_Observation]) -> Any:
        """The nested function as it was called, or through the call of its enclosing
        function (which builds it afresh): the first that confirms."""
        first = self._check(own, entry) if own is not None else None
        if first is not None and first.verdict == "confirmed":
            return first
        outer = self.outer.get(entry["id"])
        if outer is None:
            return first
        from jaxlint.runtime.verdicts import RANK

        second = self._check(outer[1], entry)
        second.annotate(f"called through the enclosing `{outer[1].func.__name__}`")
        if first is None or RANK[second.verdict] > RANK[first.verdict] or \
                first.verdict == second.verdict == "skipped":
            return second
        return first

    def _check(self, obs: _Observation, entry: dict) -> Any:
        from jaxlint.runtime import observed as ob
        from jaxlint.runtime.context import Context, Target
        from jaxlint.runtime.rules import NoCheck, lookup
        from jaxlint.runtime.verdicts import skipped

        check = lookup(entry["code"])
        if check is None:
            return skipped(f"no runtime check for {entry['code']}")
        if isinstance(check, NoCheck):
            return skipped(f"no runtime check for {entry['code']}: {check.reason}")
        func = obs.func
        raw: Any = func
        notes = []
        if obs.cells is not None:
            # rebuild the closure with concrete cells (the originals may hold dead tracers)
            # (for the key-reuse check, a raw uint32 key in a cell becomes a typed key)
            rebuilt = ob.ObservedArgs([c for c in obs.cells if c is not _EMPTY], [], (),
                                      int(self.options.get("seed", 0)) + 1).concrete(
                typed_keys=entry["code"] == "JAX301")
            it = iter(rebuilt)
            cells = tuple(types.CellType() if c is _EMPTY else types.CellType(next(it))
                          for c in obs.cells)
            raw = types.FunctionType(func.__code__, func.__globals__, func.__name__,
                                     func.__defaults__, cells)
            raw.__kwdefaults__ = func.__kwdefaults__
            raw.__qualname__ = func.__qualname__
            notes.append("a closure, called with the cells it had at its first call")
        if obs.keywords:
            names = sorted(obs.keywords)
            concrete = ob.ObservedArgs([obs.keywords[k] for k in names], [], (),
                                       int(self.options.get("seed", 0)) + 2).concrete()
            raw = functools.partial(raw, **dict(zip(names, concrete)))
            notes.append(f"keyword arguments {', '.join(names)} as observed")
        if obs.bound is not None:
            raw = types.MethodType(raw, obs.bound) if not obs.keywords else \
                functools.partial(raw, obs.bound)
            notes.append(f"a method, called on the live `{type(obs.bound).__name__}` object")
        module = sys.modules.get(func.__module__)
        job = {"path": entry["file"], "options": self.options, "mode": "confirm"}
        ctx = Context(job, module if module is not None else types.SimpleNamespace(), None, None)
        obj = raw
        jitted = False
        if obs.jit_obj is not None:
            obj, jitted = obs.jit_obj, True
        target = Target(entry["function"], obj, raw, jitted, tuple(obs.jit_static or ()))
        static = ob.static_positions(obs.values, obs.jit_static)
        args = ob.ObservedArgs(list(obs.values), [], static, int(self.options.get("seed", 0)))
        args.described = [f"{n}: {ob.describe(v)} (observed in --run `{self.command}`)"
                          for n, v in zip(obs.names, obs.values)]
        args.more = []
        for n, values in enumerate(obs.more):
            more = ob.ObservedArgs(list(values), [], static, int(self.options.get("seed", 0)))
            more.described = [f"{name}: {ob.describe(v)} (observed call {n + 2} in --run "
                              f"`{self.command}`)" for name, v in zip(obs.names, values)]
            args.more.append(more)
        from jaxlint.runtime.checks import run_check

        result = run_check(check.check, ctx, entry, target, args)
        if result.inputs is None:
            result.inputs = list(args.described)
        if entry.get("callee"):
            notes.append(f"`{func.__name__}`, the function this line calls, with "
                         f"{1 + len(obs.more)} observed call(s)")
        ob.note_shardings(result, args)
        for note in notes:
            result.annotate(note)
        result.details["observed"] = True
        return result


_EMPTY = object()

RUN_COMPILE_RULES = ("JAX501", "JAX504")
RUN_WARNING_RULES = ("JAX110",)  # judged by a warning issued while the line ran


def _expected_exceptions(code: str) -> tuple:
    from jaxlint.runtime import checks

    return {"JAX506": (RuntimeError,), "JAX901": (AttributeError, ImportError),
            "JAX904": (AttributeError,), "JAX905": (ImportError, AttributeError),
            "JAX903": (TypeError,)}.get(code) or checks.TRACE_ERROR_RULES.get(
                code, checks.TRACE_FAMILY)


def _dtype_warnings_ignored() -> bool:
    """Whether the warnings filters now drop JAX's float64 truncation warning (the
    first filter that matches a UserWarning with its text decides)."""
    import warnings

    for action, message, category, _module, _line in warnings.filters:
        if issubclass(UserWarning, category) and (
                message is None or message.match("Explicitly requested dtype float64")):
            return action == "ignore"
    return False


def _statement_start(path: str, line: int) -> int:
    """The first line of the innermost statement of ``path`` that holds ``line``."""
    import ast

    try:
        with open(path, "rb") as fh:
            tree = ast.parse(fh.read())
    except (OSError, SyntaxError, ValueError):
        return line
    start = line
    body = list(tree.body)
    while body:
        inner = next((n for n in body if n.lineno <= line <= (n.end_lineno or n.lineno)), None)
        if inner is None:
            break
        start = inner.lineno
        body = [n for n in ast.iter_child_nodes(inner) if isinstance(n, ast.stmt)]
    return start


def _key_digest(key: Any) -> Optional[str]:
    """The bits of a PRNG key (typed or raw uint32), or None for anything else."""
    import hashlib

    import jax
    import numpy as np

    try:
        from jax.core import Tracer  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover
        from jax._src.core import Tracer
    if isinstance(key, Tracer) or not isinstance(key, (jax.Array, np.ndarray)):
        return None
    if jax.numpy.issubdtype(key.dtype, jax.dtypes.prng_key):
        key = jax.random.key_data(key)
    elif key.dtype != np.uint32:
        return None
    return hashlib.sha256(np.asarray(key).tobytes()).hexdigest()[:16]


def _user_compiles(counts: dict[str, int], path: str) -> dict[str, int]:
    """Compiles of the user's functions (lambdas, names in the file), not of the
    little jits JAX compiles for eager operations."""
    import re

    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            source = fh.read()
    except OSError:
        source = ""
    out = {}
    for k, v in counts.items():
        name = k[4:-1] if k.startswith("jit(") and k.endswith(")") else k
        if name == "<lambda>" or (name.isidentifier() and re.search(
                rf"\b{re.escape(name)}\b", source)):
            out[k] = v
    return out


def _code_of(obj: Any) -> Any:
    for _ in range(5):
        code = getattr(obj, "__code__", None)
        if code is not None:
            return code
        inner = getattr(obj, "__wrapped__", None) or getattr(obj, "__func__", None)
        if inner is None:
            return None
        obj = inner
    return None


def _jit_static(wrapper: Any, func: Any) -> tuple[int, ...]:
    info = getattr(wrapper, "_jit_info", None)
    static = set(getattr(info, "static_argnums", None) or ())
    try:
        names = list(inspect.signature(func).parameters)
        static |= {names.index(n) for n in (getattr(info, "static_argnames", None) or ())
                   if n in names}
    except (TypeError, ValueError):
        pass
    return tuple(sorted(static))


def _function_for(code: Any, frame: Any) -> Any:
    """The function object being called (a closure: the one whose cells match the frame)."""
    funcs = [f for f in gc.get_referrers(code)
             if isinstance(f, types.FunctionType) and f.__code__ is code]
    if len(funcs) <= 1:
        return funcs[0] if funcs else None
    local = frame.f_locals
    for f in funcs:
        try:
            if all(local.get(name, _EMPTY) is cell.cell_contents
                   for name, cell in zip(code.co_freevars, f.__closure__ or ())):
                return f
        except ValueError:
            continue
    return funcs[-1]


ACTIVE: Optional[Recorder] = None  # this process's recorder, once installed


def install() -> None:
    """Called from the sitecustomize shim; a no-op without ``JAXLINT_RECORD``."""
    path = os.environ.get(ENV)
    if not path:
        return
    try:
        with open(path, encoding="utf-8") as fh:
            job = json.load(fh)
    except (OSError, ValueError):
        return
    global ACTIVE
    rec = ACTIVE = Recorder(job)
    _emit(rec.events, event="process", argv=sys.argv[:4], time=time.time())
    builtins.__import__ = _quiet_imports(builtins.__import__, rec)
    first = rec.gater if rec.waiting is not None else rec.tracer
    sys.settrace(first)
    threading.settrace(first)  # type: ignore[arg-type]


def _library_prefixes() -> tuple[str, ...]:
    import site
    import sysconfig

    paths = {sysconfig.get_paths().get(k) for k in ("stdlib", "platstdlib", "purelib",
                                                   "platlib")}
    try:
        paths.update(site.getsitepackages())
        paths.add(site.getusersitepackages())
    except Exception:  # noqa: BLE001 - some virtualenvs lack these
        pass
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # jaxlint itself
    return tuple(os.path.realpath(p) + os.sep for p in paths | {here} if p)


_LIBRARY: Optional[tuple[str, ...]] = None


def _is_library(filename: str) -> bool:
    """Python's own modules, installed packages and jaxlint: not the user's code."""
    global _LIBRARY
    if filename.startswith("<"):
        return True  # frozen modules, exec'd strings
    if _LIBRARY is None:
        _LIBRARY = _library_prefixes()
    return os.path.realpath(filename).startswith(_LIBRARY)


is_library = _is_library  # public: observe's probes ask it too


def user_path(filename: str, paths: tuple) -> Optional[str]:
    """The real path of ``filename`` when it is the user's code inside one of ``paths``
    (real paths), else None (a library, or outside them): observe's probes and the
    facts recorder ask it once per file."""
    if _is_library(filename):
        return None
    real = os.path.realpath(filename)
    if any(real == p or real.startswith(p.rstrip(os.sep) + os.sep) for p in paths):
        return real
    return None


def _quiet_imports(original: Any, rec: Recorder) -> Any:
    """``__import__`` that turns the trace function off while it imports a package
    holding no watched file (JAX itself: 0.13 s of trace calls on a small machine), and
    back on for a package that does, even inside such an import."""
    quiet = threading.local()

    def _import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (),
                level: int = 0) -> Any:
        if level == 0 and name not in sys.modules:
            current = sys.gettrace()
            if current is rec.tracer or current is rec.gater or (
                    current is None and getattr(quiet, "on", False)):
                on = current if current is not None else quiet.tracer
                want = on if rec.holds_watched(name) or (
                    rec.facts is not None and rec.facts.holds_user_code(name.partition(".")[0])) \
                    else None
                if want is not current:
                    was, was_tracer = getattr(quiet, "on", False), getattr(quiet, "tracer", None)
                    quiet.on, quiet.tracer = want is None, on
                    sys.settrace(want)
                    try:
                        return original(name, globals, locals, fromlist, level)
                    finally:
                        back = current
                        if back is rec.gater and rec.waiting is None:  # the list came
                            back = rec.tracer if rec.by_file else None
                        sys.settrace(back)
                        quiet.on, quiet.tracer = was, was_tracer
        return original(name, globals, locals, fromlist, level)

    _import.__wrapped__ = original  # type: ignore[attr-defined]
    return _import


# the end of every sitecustomize shim jaxlint writes (this one, and observe's in
# probes.py): the sitecustomize the shim shadows on sys.path, if there is one, still runs
CHAIN_SHADOWED = '''\
# then the sitecustomize this one shadows, if there is one
_here = _os.path.dirname(_os.path.abspath(__file__))
for _dir in list(_sys.path):
    if _dir and _os.path.abspath(_dir) != _here and \\
            _os.path.isfile(_os.path.join(_dir, "sitecustomize.py")):
        _path = _os.path.join(_dir, "sitecustomize.py")
        with open(_path, "rb") as _fh:
            exec(compile(_fh.read(), _path, "exec"), {"__name__": "sitecustomize",
                                                     "__file__": _path})
        break
'''

SITECUSTOMIZE = '''\
# written by jaxlint confirm --run: the recorder (jaxlint/runtime/recorder.py)
import os as _os
import sys as _sys

try:
    from jaxlint.runtime import recorder as _jaxlint_recorder
    _jaxlint_recorder.install()
    from jaxlint.runtime import probes as _jaxlint_probes  # observe's probes (JAXLINT_OBSERVE)
    _jaxlint_probes.install()
except Exception as _exc:  # never break the user's program
    _sys.stderr.write("jaxlint: the recorder could not start: %r\\n" % (_exc,))

''' + CHAIN_SHADOWED
