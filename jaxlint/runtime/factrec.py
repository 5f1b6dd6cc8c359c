"""Observed facts, inside ``jaxlint observe --run CMD``: which of the user's functions
ran under a JAX trace, with which kind of value in each parameter.

Installed by observe's ``sitecustomize`` shim (``probes.install``) when the job asks
for facts (``options.facts``).  A trace function (``sys.settrace`` and
``threading.settrace``; ``call`` events only: it returns no local trace function, so
no line runs it) looks at every call of a function of the user's code (a file inside
PATHS, not Python's library, an installed package or jaxlint) and notes:

* whether a JAX trace is active (``core.trace_ctx``), and which kinds of trace are on
  the stack: ``jit`` (a jaxpr trace: jit, scan, cond, while_loop, eval_shape...),
  ``vmap`` (a batching trace), ``grad`` (JVP/linearize: values stay concrete),
  ``other``;
* each parameter's kind: ``tracer``, ``pytree-tracers`` (a container holding tracers),
  ``array`` (a concrete ``jax.Array``), ``numpy``, ``scalar`` (a Python number or
  bool), ``static`` (a ``static_argnums``/``static_argnames`` argument of the jit that
  traced it), ``none``, ``pytree`` (a container without tracers), ``other``;
* for a jit root (a function JAX's jit calls itself), the static_argnums and
  static_argnames that jit declared.

A library frame costs one dictionary look-up by its file name (and CPython's own
price of a trace call); while a top-level package outside PATHS is imported (JAX itself) the trace
function is off.  At exit one ``facts`` event per
process goes to observe's events file; the parent (``runtime/factsfile.py``) merges
them and writes the facts file.  Nothing else is written, and nothing the program
does changes.
"""

from __future__ import annotations

import atexit
import builtins
import importlib.util
import json
import os
import sys
import threading
from typing import Any, Optional

# calls of one function in one trace state whose arguments are looked at (then counted only)
SAMPLED_CALLS = 256
_JIT_TRACES = frozenset({"DynamicJaxprTrace", "JaxprTrace"})
_VMAP_TRACES = frozenset({"BatchTrace"})
_GRAD_TRACES = frozenset({"JVPTrace", "LinearizeTrace"})
_CONTAINERS = (list, tuple, dict)
_MISSING = object()


class _Function:
    """What was seen of one code object: per trace state, calls and parameter kinds."""

    __slots__ = ("code", "file", "names", "states", "static")

    def __init__(self, code: Any, file: str) -> None:
        self.code = code
        self.file = file
        n = code.co_argcount + code.co_kwonlyargcount
        flags = code.co_flags
        n += bool(flags & 0x04) + bool(flags & 0x08)  # *args, **kwargs
        self.names = code.co_varnames[:n]
        # state (tuple of trace kinds, () untraced) -> [calls, {param: set of kinds}, root]
        self.states: dict[tuple, list] = {}
        self.static: Optional[tuple[list, list]] = None  # (argnums, argnames) of the jit

    def record(self) -> dict:
        traced = {s: v for s, v in self.states.items() if s}
        under = sorted({k for s in traced for k in s})
        kinds: dict[str, set] = {}
        for _calls, seen, _root in traced.values():
            for name, ks in seen.items():
                kinds.setdefault(name, set()).update(ks)
        out = {
            "file": self.file,
            "qualname": getattr(self.code, "co_qualname", self.code.co_name),
            "line": self.code.co_firstlineno,
            "under": under,
            "traced_calls": sum(v[0] for v in traced.values()),
            "untraced_calls": self.states.get((), [0])[0],
            "root": any(v[2] for v in traced.values()),
            "params": {n: (ks.pop() if len(ks) == 1 else "mixed") for n, ks in kinds.items()},
        }
        if self.static is not None:
            out["static_argnums"], out["static_argnames"] = self.static
        return out


class FactRecorder:
    def __init__(self, events: str, paths: list[str]) -> None:
        from jaxlint.runtime.recorder import is_library, user_path

        self.events = events
        self.paths = tuple(os.path.realpath(p) for p in paths or [os.getcwd()])
        # id(code) -> (code, what was seen of it, or None): keyed by id, not by the code
        # object (hashing a code object hashes its bytecode and constants on every call:
        # 10 microseconds a call on eager JAX, half of observe's cost there); the code
        # object is held, so its id is never reused
        self.functions: dict[int, tuple[Any, Optional[_Function]]] = {}
        self._is_library = is_library
        self._user_path = user_path
        self._core: Any = None
        self._tracer: Any = None
        self._array: Any = None
        self._leaves: Any = None
        self._ndarray: Any = None
        self.lock = threading.Lock()
        self.files: dict[str, Optional[str]] = {}  # co_filename -> its real path if the user's
        self.tracefunc = self.trace  # one bound method: `sys.gettrace() is rec.tracefunc`
        self.closed = False  # flushed, at exit

    # -- which code is the user's

    def _new(self, code: Any, real: str) -> Optional[_Function]:
        fn = None
        name = code.co_name
        if not name.startswith("<") or name == "<lambda>":
            fn = _Function(code, real)
        self.functions[id(code)] = (code, fn)
        return fn

    def holds_user_code(self, module: str) -> bool:
        """Whether importing top-level package ``module`` may run user code (it is not
        found among the installed packages and Python's library)."""
        try:
            spec = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            return True
        origin = getattr(spec, "origin", None) if spec is not None else None
        if not origin or origin in ("built-in", "frozen"):
            return spec is None
        return not self._is_library(origin)

    # -- the trace function

    def trace(self, frame: Any, event: str, arg: Any) -> None:
        code = frame.f_code
        filename = code.co_filename
        real = self.files.get(filename, "")  # a str key: its hash is cached
        if real is None:
            return None  # a library's code (nearly every call): one look-up
        if real == "":
            real = self.files[filename] = self._user_path(filename, self.paths)
            if real is None:
                return None
        known = self.functions.get(id(code))
        fn = known[1] if known is not None and known[0] is code else self._new(code, real)
        if fn is not None:
            try:
                self._call(fn, frame)  # type: ignore[arg-type]
            except Exception:  # noqa: BLE001 - never break the user's program
                pass
        return None

    def _jax(self) -> bool:
        if self._core is not None:
            return True
        core = sys.modules.get("jax._src.core")
        if core is None or not hasattr(core, "trace_ctx") or "jax" not in sys.modules:
            return False
        import numpy as np

        import jax

        self._tracer = core.Tracer
        self._array = jax.Array
        self._leaves = jax.tree_util.tree_leaves
        self._ndarray = (np.ndarray, np.generic)
        self._core = core
        return True

    def _state(self) -> tuple:
        core = self._core
        t = core.trace_ctx.trace
        kinds = set()
        while t is not None and not isinstance(t, core.EvalTrace):
            name = type(t).__name__
            kinds.add("jit" if name in _JIT_TRACES else "vmap" if name in _VMAP_TRACES
                      else "grad" if name in _GRAD_TRACES else "other")
            t = getattr(t, "parent_trace", None)
        return tuple(sorted(kinds))

    def _call(self, fn: _Function, frame: Any) -> None:
        state = self._state() if self._jax() else ()
        entry = fn.states.get(state)
        if entry is None:
            entry = fn.states[state] = [0, {}, False]
        entry[0] += 1
        if entry[0] > SAMPLED_CALLS or not fn.names:
            return
        local = frame.f_locals
        seen = entry[1]
        static: tuple = ()
        root = False
        if state:
            root = self._is_library(frame.f_back.f_code.co_filename) if frame.f_back is not None else False
            if root and "jit" in state:
                static = self._static_of(fn, frame)
                entry[2] = True
        for i, name in enumerate(fn.names):
            value = local.get(name, _MISSING)
            if value is _MISSING:
                continue
            kind = "static" if name in static else self._kind(value, bool(state))
            seen.setdefault(name, set()).add(kind)

    def _kind(self, v: Any, traced: bool) -> str:
        if isinstance(v, self._tracer) if self._tracer is not None else False:
            return "tracer"
        if v is None:
            return "none"
        t = type(v)
        if t in (bool, int, float, complex):
            return "scalar"
        if self._array is not None and isinstance(v, self._array):
            return "array"
        if self._ndarray is not None and isinstance(v, self._ndarray):
            return "numpy"
        if traced and self._leaves is not None:
            try:
                leaves = self._leaves(v)
            except Exception:  # noqa: BLE001
                leaves = []
            if any(isinstance(x, self._tracer) for x in leaves):
                return "pytree-tracers"
        return "pytree" if isinstance(v, _CONTAINERS) else "other"

    def _static_of(self, fn: _Function, frame: Any) -> tuple:
        """The parameters a jit root's jit declared static (JAX's ``_trace_for_jit``
        frame holds its ``PjitInfo``); () when it cannot be found."""
        f = frame.f_back
        for _ in range(40):
            if f is None:
                return ()
            if f.f_code.co_name == "_trace_for_jit":
                ji = f.f_locals.get("ji")
                if ji is None:
                    return ()
                nums = [int(n) for n in getattr(ji, "static_argnums", ()) or ()]
                names = [str(n) for n in getattr(ji, "static_argnames", ()) or ()]
                fn.static = (sorted(set(nums) | set((fn.static or ([], []))[0])),
                             sorted(set(names) | set((fn.static or ([], []))[1])))
                positional = fn.names[:fn.code.co_argcount]
                out = {positional[n] for n in nums if -len(positional) <= n < len(positional)}
                return tuple(out | (set(names) & set(fn.names)))
            if not self._is_library(f.f_code.co_filename):
                return ()  # a user function between: not this function's jit
            f = f.f_back
        return ()

    # -- at exit

    def flush(self) -> None:
        self.closed = True  # JAX's traces no longer turn the trace function on
        active = getattr(sys.modules.get("jaxlint.runtime.recorder"), "ACTIVE", None)
        if active is not None and active.facts is self:
            active.facts = None  # the recorder's trace function stops handing calls here
        if sys.gettrace() is self.tracefunc:
            sys.settrace(None)
        threading.settrace(None)  # type: ignore[arg-type]
        records = [fn.record() for _code, fn in list(self.functions.values())
                   if fn is not None and fn.states]
        if not records:
            return
        line = json.dumps({"event": "facts", "pid": os.getpid(), "functions": records},
                          default=str) + "\n"
        with self.lock:
            try:
                with open(self.events, "a", encoding="utf-8") as fh:
                    fh.write(line)
            except OSError:
                pass


def _quiet_imports(rec: FactRecorder) -> None:
    """``__import__`` that turns the trace function off while it imports a top-level
    package that holds no user code (JAX, NumPy), and back on for one that does."""
    original = builtins.__import__
    quiet = threading.local()
    verdicts: dict[str, bool] = {}

    def _import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (),
                level: int = 0) -> Any:
        if level == 0 and name not in sys.modules and not getattr(quiet, "busy", False):
            top = name.partition(".")[0]
            user = verdicts.get(top)
            if user is None:
                quiet.busy = True  # find_spec may import
                try:
                    user = verdicts[top] = rec.holds_user_code(top)
                finally:
                    quiet.busy = False
            current = sys.gettrace()
            if not user and current is rec.tracefunc:
                sys.settrace(None)
                was = getattr(quiet, "on", False)
                quiet.on = True
                try:
                    return original(name, globals, locals, fromlist, level)
                finally:
                    quiet.on = was
                    sys.settrace(rec.tracefunc)
            if user and current is None and getattr(quiet, "on", False):
                sys.settrace(rec.tracefunc)
                try:
                    return original(name, globals, locals, fromlist, level)
                finally:
                    sys.settrace(None)
        return original(name, globals, locals, fromlist, level)

    _import.__wrapped__ = original  # type: ignore[attr-defined]
    builtins.__import__ = _import


def _follow_jax_traces(rec: FactRecorder) -> None:
    """The trace function on only while this thread runs under a JAX trace: JAX's
    ``TracingContext.set_trace`` (every trace JAX enters or leaves: jit, scan, vmap,
    grad, and back to eager) turns it on or off.  Eager code, and everything the
    program does outside JAX's traces, runs with no trace function: a trace function
    makes CPython build a frame object for every call (363,000 calls, 0.5 s of CPU, on
    300 steps of eager ``jnp`` with the checkers on), and the model uses only what
    ran traced.  A trace function of someone else's (a debugger, coverage) is left
    alone."""
    core = sys.modules.get("jax._src.core")
    cls = getattr(core, "TracingContext", None)
    eval_cls = getattr(core, "EvalTrace", None)
    original = getattr(cls, "set_trace", None)
    if original is None or eval_cls is None or getattr(original, "_jaxlint_facts", False):
        return
    ours = rec.tracefunc
    gettrace, settrace = sys.gettrace, sys.settrace

    def set_trace(self: Any, trace: Any) -> None:
        original(self, trace)
        want = None if trace is None or type(trace) is eval_cls or rec.closed else ours
        current = gettrace()
        if current is not want and (current is None or current is ours):
            settrace(want)

    set_trace._jaxlint_facts = True  # type: ignore[attr-defined]
    cls.set_trace = set_trace
    rec._jax()  # noqa: SLF001 - what _state and _kind need, now that JAX is here


def install(job: dict, probes: Any = None) -> None:
    """Called from observe's shim with its job (a no-op unless it asks for facts).
    Under ``confirm --run`` the recorder's trace function is on already (one per
    process): it hands this one every call instead, and its own import hook turns
    both off while a package that holds no user code is imported.  Under ``observe``
    the trace function is on only while JAX traces (``_follow_jax_traces``, once the
    probes see JAX imported)."""
    options = job.get("options") or {}
    if not options.get("facts"):
        return
    rec = FactRecorder(job["events"], options.get("facts_paths") or job.get("paths") or [])
    atexit.register(rec.flush)
    from jaxlint.runtime import recorder

    if recorder.ACTIVE is not None:
        recorder.ACTIVE.facts = rec
        return
    if probes is None:  # no hook on JAX's traces: every call, as before
        _quiet_imports(rec)
        sys.settrace(rec.tracefunc)
        threading.settrace(rec.tracefunc)  # type: ignore[arg-type]
        return
    _quiet_imports(rec)
    probes.on_attach.append(lambda: _follow_jax_traces(rec))
