"""``jaxlint observe``, parent side (pure Python, no JAX): run the commands with the
probes, and turn what JAX's checkers reported into findings at the user's lines.

``start_observed`` starts each ``--run`` command (``sh -c``, under ``procs``' guard, in
its own process group, with a time limit) with JAX's checkers switched on in its
environment and ``probes`` attached in each of its Python processes; its ``result()``
reads back the events.  ``sightings`` groups the events into ``Sighting``s: one per rule code
and line, with the evidence and the counts (see docs/runtime.md, "jaxlint observe").
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from jaxlint.runtime import procs
from jaxlint.runtime.observe import (RunResult, interpreter_command, output_tail, read_events, shim_env,
                                     write_shim)

# compiles of one function, for a cause, before it is reported
FRESH_COMPILES = 2  # a new function object of the same definition, compiled again
STATIC_COMPILES = 3  # a changed static argument
TYPE_COMPILES = 3  # changed shapes or dtypes (a weak-type flip: 2)
TRANSFERS = 3  # host-to-device copies (JAX509) at one line
# JAX507: a device array copied to the host at one line after new device work each time
# (a sync: the host waits for the device), at least SYNCS times, at least once every
# SYNC_GAP dispatches on median (a logging step every N steps of one jit call: N)
SYNCS = 10
SYNC_GAP = 8
# event kinds counted per line in the process (the last event of a line has its count)
COUNTED = ("transfer", "h2d", "tracer-text", "float64", "deprecation")

# a static rule's code and the codes of the same sharp bit (an event at a line where
# `check` reports one of them confirms that finding)
FAMILIES = [{"JAX201", "JAX202", "JAX205", "JAX206"}, {"JAX101", "JAX102"},
            {"JAX204", "JAX406"}, {"JAX501", "JAX504"}, {"JAX901", "JAX902", "JAX903",
                                                        "JAX904", "JAX905"},
            {"JAX120", "JAX124"}, {"JAX211", "JAX402", "JAX404"}]


# codes only a run reports, of no family above: an event of one confirms no static finding
RUN_ONLY = frozenset({"JAX507", "JAX509"})


def same_sharp_bit(observed: str, static: str) -> bool:
    return observed == static or any(observed in f and static in f for f in FAMILIES)


@dataclass
class Sighting:
    code: str
    path: str  # real path
    line: int
    col: int  # 0-based
    end_col: int
    message: str
    function: Optional[str] = None
    count: int = 1
    evidence: dict = field(default_factory=dict)


# ----------------------------------------------------------------------------- running


def _shim(tmp: str) -> str:
    from jaxlint.runtime.probes import SITECUSTOMIZE

    return write_shim(tmp, SITECUSTOMIZE)


def command_env(shim: str, job_path: str, device: Optional[str] = None,
                infs: bool = False, leaks: bool = False, nans: bool = True) -> dict:
    from jaxlint.runtime.probes import JAX_FLAGS, LEAK_FLAGS

    env = dict(os.environ)
    shim_env(env, shim)
    env.pop("JAXLINT_RECORD", None)
    env.pop("JAXLINT_OBSERVE", None)
    env["JAXLINT_OBSERVE_NEXT"] = job_path  # procs.run_guarded hands it on
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # no __pycache__ in the user's tree
    env.update(JAX_FLAGS)
    if not nans:  # with the NaN checker on, JAX does not donate (a donated array stays)
        env.pop("JAX_DEBUG_NANS", None)
    if infs:
        env["JAX_DEBUG_INFS"] = "1"
    if leaks:
        env.update(LEAK_FLAGS)
    if device:
        env["JAX_PLATFORMS"] = {"gpu": "cuda"}.get(device, device)
    return env


class ObservedRuns:
    """The commands, started at once (each in a thread of a pool of ``jobs``): ``limit``
    sets the time allowed per command while they run (the configuration is read after
    they start), ``stop`` ends them, ``result`` waits for them and reads the events."""

    def __init__(self, commands: list[tuple[str, str]], paths: list[str],
                 run_timeout: Optional[float], jobs: int = 1, device: Optional[str] = None,
                 infs: bool = False, leaks: bool = False, options: Optional[dict] = None,
                 nans: bool = True) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.commands = commands
        # until ``limit`` is called (None: the configuration may still set it) the
        # default; the guard's own backstop is then a day (the lifeline ends it with us)
        self.run_timeout = run_timeout if run_timeout is not None else DEFAULT_RUN_TIMEOUT
        self.guard_limit = (run_timeout + 30) if run_timeout is not None else 86400.0
        self.stopped: Optional[str] = None
        self.finished = False  # result() was called
        self.tmp = tempfile.mkdtemp(prefix="jaxlint-observe-")
        self.shim = _shim(self.tmp)
        self.paths, self.options = paths, options or {}
        self.env_args = (device, infs, leaks, nans)
        self.pool = ThreadPoolExecutor(max_workers=max(1, jobs))
        self.futures = [self.pool.submit(self._one, n, c, d) for n, (c, d) in enumerate(commands)]

    def limit(self, run_timeout: float) -> None:
        self.run_timeout = run_timeout

    def stop(self, reason: str) -> None:
        self.stopped = reason

    def _one(self, n: int, command: str, cwd: str) -> tuple[RunResult, list[dict]]:
        if self.stopped:
            return RunResult(command, cwd, f"not run: {self.stopped}", 0.0), []
        events_path = os.path.join(self.tmp, f"events-{n}.jsonl")
        open(events_path, "w").close()
        job_path = os.path.join(self.tmp, f"job-{n}.json")
        with open(job_path, "w", encoding="utf-8") as fh:
            json.dump({"events": events_path, "paths": self.paths,
                       "options": dict({"host_transfers": True, "key_reuse": True},
                                       **self.options)}, fh)
        env = command_env(self.shim, job_path, *self.env_args)
        run = _run(interpreter_command(command), command, cwd, env,
                   os.path.join(self.tmp, f"output-{n}"), self)
        return run, read_events(events_path)

    def result(self) -> tuple[list[RunResult], list[dict]]:
        """Wait for every command: (what each run did, every event)."""
        self.finished = True
        try:
            try:
                outcomes = procs.gather(self.futures)
            except BaseException:  # Ctrl-C: the commands' trees go before the threads end
                self.stopped = self.stopped or "jaxlint stopped"
                procs.kill_all()
                raise
            finally:
                self.pool.shutdown(wait=True)
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)
        runs = [r for r, _ in outcomes]
        events = [dict(e, command=r.command) for r, es in outcomes for e in es]
        for run, es in outcomes:
            run.processes = len({e.get("pid") for e in es if e.get("event") == "process"})
        return runs, events


DEFAULT_RUN_TIMEOUT = 600.0


def start_observed(commands: list[tuple[str, str]], paths: list[str],
                   run_timeout: Optional[float], jobs: int = 1, device: Optional[str] = None,
                   infs: bool = False, leaks: bool = False, options: Optional[dict] = None,
                   nans: bool = True) -> ObservedRuns:
    """Start each (command, cwd) with the probes (see ``ObservedRuns``)."""
    return ObservedRuns(commands, paths, run_timeout, jobs, device, infs, leaks, options, nans)


def _run(shell_cmd: str, label: str, cwd: str, env: dict, out_path: str,
         runs: ObservedRuns) -> RunResult:
    def check(elapsed: float) -> Optional[str]:
        """Stop the command: its time-out (``limit`` may change it while it runs), or
        jaxlint stopping (``procs.run_command`` asks every 0.02 s)."""
        if elapsed > runs.run_timeout:
            return f"timed out after {runs.run_timeout:g} s"
        if runs.stopped:
            return f"stopped: {runs.stopped}"
        return None

    ran = procs.run_command(["/bin/sh", "-c", shell_cmd], cwd=cwd, env=env, out_path=out_path,
                            guard_limit=runs.guard_limit, check=check, interval=0.02)
    return RunResult(label, cwd, ran.status, ran.wall_s if ran.started else 0.0, 0,
                     output_tail(out_path) if ran.started and ran.status != "ok" else "")


# ----------------------------------------------------------------------------- events -> sightings


def exception_code(e: dict) -> Optional[str]:
    """The rule of the sharp bit an ``exception`` event names, or None (the program's
    own error)."""
    return _exception_code(list(e.get("classes") or []), str(e.get("exception")),
                           str(e.get("message") or ""))


def _exception_code(classes: list[str], exception: str, message: str) -> Optional[str]:
    """The rule of a sharp bit JAX raised for, or None (the program's own errors)."""
    names = set(classes)
    if "KeyReuseError" in names:
        return "JAX301"
    if "FloatingPointError" in names and "encountered in" in message:
        return "JAX124"
    if "UnexpectedTracerError" in names or (exception == "Exception"
                                            and message.startswith("Leaked ")) \
            or ("TypeError" in names and re.search(  # a leaked tracer passed to a jit
                r"of type <class '[\w.]*Tracer'> is not a valid JAX type", message)):
        return "JAX211"
    if "TracerBoolConversionError" in names:
        return "JAX201"
    if "NonConcreteBooleanIndexError" in names:
        return "JAX205"
    if "TracerArrayConversionError" in names:
        return "JAX204"
    if "TracerIntegerConversionError" in names or "ConcretizationTypeError" in names:
        return "JAX202"
    if "RuntimeError" in names and message.startswith("Array has been deleted"):
        return "JAX506"
    if ("ValueError" in names or "TypeError" in names) and \
            "Non-hashable static arguments" in message:
        return "JAX207"
    if "TypeError" in names and "item assignment" in message and "immutable" in message:
        return "JAX101"
    if ("AttributeError" in names and re.match(r"module 'jax[.\w]*' has no attribute", message)) \
            or ("ImportError" in names and re.search(r"from 'jax[.\w]*'", message)) \
            or ("ModuleNotFoundError" in names and re.match(r"No module named 'jax\.", message)):
        return "JAX901"
    return None


_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _definition(file: str, line: int) -> tuple[Optional[ast.AST], list]:
    """The ``def``/``lambda`` at ``line`` of ``file`` (decorators included) and its
    ancestors, innermost first; (None, []) when it is not found."""
    try:
        tree = ast.parse(Path(file).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return None, []
    stack: list = [(tree, [])]
    while stack:
        node, parents = stack.pop()
        if isinstance(node, _FUNCS):
            first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            if first <= line <= node.lineno:
                return node, parents
        for child in ast.iter_child_nodes(node):
            stack.append((child, [node] + parents))
    return None, []


def _nested(file: str, line: int) -> bool:
    """Whether the definition at ``file:line`` runs again and again: inside a function or
    a loop (a module-level ``def`` made afresh is a wrapper built at the call: `grad(f)`)."""
    node, parents = _definition(file, line)
    return node is not None and any(
        isinstance(p, _FUNCS + (ast.For, ast.While, ast.ListComp, ast.SetComp, ast.DictComp,
                               ast.GeneratorExp)) for p in parents)


def _within(stack: list, traced: list, roots: Optional[list[str]] = None) -> bool:
    """Whether the function JAX was tracing (``[name, file, line]``) was running when the
    error was raised: one of the user's frames of the traceback (``stack``, [file, line]
    each) is inside its body.  True when that cannot be told: among others when the traced
    function is not the user's (``jax.jit(model.apply)`` traces flax's ``apply``, whose
    frames ``stack`` never holds)."""
    _name, file, start = traced
    if roots is not None and not inside(str(file), roots):
        return True
    node, _ = _definition(file, int(start))
    if node is None or not stack:
        return True
    end = node.end_lineno or node.lineno
    return any(f == file and node.lineno <= int(n) <= end for f, n in stack)


def _params(defined: str, cache: dict) -> list[str]:
    """The parameter names of the function defined at ``file:line`` (from its source)."""
    if defined in cache:
        return cache[defined]
    path, _, line_s = defined.rpartition(":")
    names: list[str] = []
    try:
        tree = ast.parse(Path(path).read_bytes())
        line = int(line_s)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and \
                    (node.lineno == line or (not isinstance(node, ast.Lambda) and any(
                        d.lineno == line for d in node.decorator_list))):
                a = node.args
                names = [p.arg for p in a.posonlyargs + a.args]
                break
    except (OSError, SyntaxError, ValueError):
        pass
    cache[defined] = names
    return names


def _argument(path: str, params: list[str]) -> str:
    """``[0][1]`` (positional argument 1) or ``[1]['n']`` (keyword n) -> a name."""
    m = re.match(r"\[0\]\[(\d+)\]", path)
    if m:
        i = int(m.group(1))
        return f"`{params[i]}`" if i < len(params) else f"positional argument {i}"
    m = re.match(r"\[1\]\[['\"](\w+)['\"]\]", path)
    if m:
        return f"`{m.group(1)}`"
    return f"argument at {path}"


def _short(path: str, here: str) -> str:
    return f"line {path.rpartition(':')[2]}" if path.rpartition(":")[0] == here \
        else f"{os.path.basename(path.rpartition(':')[0])}:{path.rpartition(':')[2]}"


_VIA = {"__float__": "`float()`", "__int__": "`int()`", "__bool__": "`bool()` (an `if`)",
        "__index__": "an index", "__array__": "`np.asarray()`", "item": "`.item()`",
        "tolist": "`.tolist()`", "__repr__": "printing", "__str__": "printing",
        "__format__": "formatting", "__complex__": "`complex()`"}


def sightings(events: list[dict], roots: Optional[list[str]] = None) -> list[Sighting]:
    """One sighting per (code, file, line), with counts and evidence; ``roots``: PATHS."""
    out: dict[tuple[str, str, int], Sighting] = {}
    counted: dict[tuple, int] = {}  # (pid, kind, file, line) -> highest count seen

    def add(s: Sighting) -> None:
        key = (s.code, s.path, s.line)
        old = out.get(key)
        if old is None:
            out[key] = s
        else:
            old.count += s.count

    hits = [e for e in events if e.get("event") == "hit"]
    for e in hits:
        kind = e.get("kind")
        if kind in COUNTED:
            k = (e.get("pid"), kind, e.get("file"), e.get("line"))
            counted[k] = max(counted.get(k, 0), int(e.get("count") or 1))
    last: dict[tuple, dict] = {}
    for e in hits:
        if e.get("kind") in COUNTED:
            last[(e.get("pid"), e.get("kind"), e.get("file"), e.get("line"))] = e
    for (pid, kind, file, line), e in last.items():
        n = counted[(pid, kind, file, line)]
        where = dict(path=str(file), line=int(line), col=int(e.get("col") or 0),
                     end_col=int(e.get("end_col") or 0), function=e.get("function"))
        if kind == "transfer":
            gap = e.get("gap")
            if n < SYNCS or (gap is not None and int(gap) > SYNC_GAP):
                continue  # a handful of copies, or a periodic one (a logging step)
            via = _VIA.get(str(e.get("via")), f"`{e.get('via')}`")
            add(Sighting("JAX507", message="", count=n, evidence={
                "via": via, "aval": e.get("aval"), "copies": e.get("copies"), "gap": gap,
                "command": e.get("command")}, **where))
        elif kind == "h2d":
            # only arrays: a Python scalar (`x * 2`, `f(x, 0.1)`) is copied on every use by
            # design; a line where JAX named a scalar may owe its count to it (the copies
            # on jit's C++ fast path come without an aval), so it is left out
            if e.get("arrays") and not e.get("scalars"):
                add(Sighting("JAX509", message="", count=n, evidence={
                    "arrays": list(e.get("arrays") or []), "command": e.get("command")},
                    **where))
        elif kind == "tracer-text":
            add(Sighting("JAX401", message="", count=n, evidence={
                "aval": e.get("aval"), "via": e.get("via"), "command": e.get("command")},
                **where))
        elif kind == "float64":
            add(Sighting("JAX110", message="", count=n, evidence={
                "warning": e.get("message"), "command": e.get("command")}, **where))
        elif kind == "deprecation":
            add(Sighting("JAX902", message="", count=n, evidence={
                "warning": e.get("message"), "command": e.get("command")}, **where))
    for e in hits:
        kind = e.get("kind")
        where = dict(path=str(e.get("file")), line=int(e.get("line") or 0),
                     col=int(e.get("col") or 0), end_col=int(e.get("end_col") or 0),
                     function=e.get("function"))
        if kind == "exception":
            code = _exception_code(list(e.get("classes") or []), str(e.get("exception")),
                                   str(e.get("message") or ""))
            traced = e.get("traced")
            if code in ("JAX201", "JAX202", "JAX204", "JAX205") and traced and \
                    not _within(e.get("stack") or [], traced, roots):
                code = "JAX211"  # a tracer used after its function's trace ended
            if code is not None:
                add(Sighting(code, message="", evidence={
                    "exception": e.get("exception"), "error": e.get("message"),
                    "traced": traced, "command": e.get("command")}, **where))
        elif kind == "raw-key-reuse":
            add(Sighting("JAX301", message="", evidence={
                "name": e.get("name"), "first": e.get("first"),
                "first_line": e.get("first_line"), "first_file": e.get("first_file"),
                "command": e.get("command")}, **where))
    _recompilations([e for e in hits if e.get("kind") == "miss"], add, roots or [])
    result = sorted(out.values(), key=lambda s: (s.path, s.line, s.col, s.code))
    for s in result:
        text = describe(s)
        s.message = text[:1].upper() + text[1:]  # a sentence, as check's messages are
    return result


def _recompilations(misses: list[dict], add, roots: list[str]) -> None:
    """Tracing cache misses of one function (per process: its definition), by cause."""
    by_fn: dict[tuple, list[dict]] = {}
    for e in misses:
        if e.get("traced_for") not in (None, "jit"):  # a scan body, make_jaxpr: no cache to hit
            continue
        by_fn.setdefault((e.get("pid"), e.get("defined"), e.get("name")), []).append(e)
    params_cache: dict[str, list[str]] = {}
    for (_pid, defined, name), es in by_fn.items():
        compiles = len(es)
        fresh = [e for e in es if e.get("reason") == "fresh"]
        static = [e for e in es if e.get("reason") == "static"]
        weak = [e for e in es if e.get("reason") == "weak_type"]
        types = [e for e in es if e.get("reason") == "types"]
        common = {"name": name, "defined": defined, "compiles": compiles,
                  "command": es[0].get("command")}

        def at(e: dict) -> dict:
            return dict(path=str(e.get("file")), line=int(e.get("line") or 0),
                        col=int(e.get("col") or 0), end_col=int(e.get("end_col") or 0),
                        function=e.get("function"))

        if fresh and compiles >= FRESH_COMPILES:  # (a fresh miss may be another function's)
            # at the definition that ran again (the `def`/`lambda` jitted afresh), when it
            # is inside PATHS (the calls' lines are in the evidence); else at the call
            place = at(fresh[0])
            dfile, _, dline = str(defined).rpartition(":")
            if roots and inside(dfile, roots) and _nested(dfile, int(dline)):
                place = dict(path=dfile, line=int(dline), col=-1, end_col=-1, function=None)
            add(Sighting("JAX501", message="", count=1 + len(fresh),
                         evidence=dict(common, cause="fresh",
                                       calls=sorted({e.get("line") for e in fresh})), **place))
        params = _params(str(defined), params_cache)
        changed: dict[str, list[str]] = {}
        for e in static:
            try:
                where, now, before = json.loads(e.get("detail") or "[]")
            except ValueError:
                continue
            values = changed.setdefault(_argument(where, params), [before])
            if now not in values:
                values.append(now)
        # distinct values, not traces: one call may trace twice (make_jaxpr of a jit)
        if changed and max(len(v) for v in changed.values()) >= STATIC_COMPILES:
            add(Sighting("JAX504", message="", count=1 + len(static),
                         evidence=dict(common, cause="static", changed=changed,
                                       lines=sorted({e.get("line") for e in static})),
                         **at(static[0])))
        details = []
        for e in weak or types:
            try:
                change = json.loads(e.get("detail") or "[]")
            except ValueError:
                continue
            if change not in details:
                details.append(change)
        if (weak and details) or (types and 1 + len(details) >= TYPE_COMPILES):
            flips = weak or types
            add(Sighting("JAX508", message="", count=1 + len(flips),
                         evidence=dict(common, cause="weak_type" if weak else "types",
                                       changes=details[:4]), **at(flips[0])))


def _aval(text: str) -> str:
    """``ShapedArray(float32[8,3])`` -> ``float32[8,3]``."""
    m = re.match(r"\w*Array\((.*)\)$", text.strip())
    return m.group(1) if m else text


def _times(n: int) -> str:
    return "" if n == 1 else f" ({n} times)"


def _sentence(text: object) -> str:
    """The first sentence of a warning (JAX's go on with advice and addresses)."""
    first = str(text or "").split(". ")[0].rstrip(".")
    return first + "."


def inside(path: str, roots: list[str]) -> bool:
    """A file of the user's code inside PATHS (not an installed package under them)."""
    from jaxlint.runtime.recorder import is_library

    real = os.path.realpath(path)
    return not is_library(real) and any(
        real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


def describe(s: Sighting) -> str:
    ev = s.evidence
    here = s.path
    if s.code == "JAX507":
        gap = ev.get("gap")
        every = "" if gap is None else (
            " after each dispatch of device work" if int(gap) <= 1 else
            f" once every {gap} dispatches of device work (median)")
        return (f"the run copied a device array ({ev.get('aval')}) to the host {s.count} "
                f"times at this line, through {ev.get('via')},{every}: each copy waits for "
                f"the device to finish the work before it, so the host cannot queue the next "
                f"step meanwhile; keep the value on the device (accumulate there), or fetch "
                f"it every N steps or once after the loop")
    if s.code == "JAX509":
        arrays = ", ".join(_aval(a) for a in ev.get("arrays") or [])
        return (f"the run copied host data ({arrays}) to the device {s.count} times at this "
                f"line, implicitly (JAX's transfer guard logged each copy): a NumPy array "
                f"passed to a jitted function or a `jnp` operation is copied on every call; "
                f"put data that does not change on the device once, before the loop "
                f"(`jax.device_put`), and prefetch new batches with `jax.device_put` ahead of "
                f"the step that uses them")
    if s.code == "JAX401":
        where = "an f-string" if ev.get("via") == "an f-string" else "`print`"
        return (f"the run turned a tracer ({ev.get('aval')}) into text with {where} while JAX "
                f"traced `{s.function}`{_times(s.count)}: it shows the abstract value, once per "
                f"trace, not the values; use `jax.debug.print`")
    if s.code == "JAX110":
        return (f"the run requested float64 without x64{_times(s.count)}: "
                f"{_sentence(ev.get('warning'))}")
    if s.code == "JAX902":
        return (f"the run used a deprecated JAX API{_times(s.count)}: "
                f"{_sentence(ev.get('warning'))}")
    if s.code == "JAX301" and "first_line" in ev:
        if ev.get("first_file") == here and ev.get("first_line") == s.line:
            return (f"the run consumed one PRNG key twice on this line: `{ev.get('first')}` "
                    f"and then `{ev.get('name')}` with the same key array; split the key "
                    f"and use each part once")
        first = f"line {ev['first_line']}" if ev.get("first_file") == here else \
            f"{os.path.basename(str(ev.get('first_file')))}:{ev['first_line']}"
        return (f"the run consumed one PRNG key twice: `{ev.get('name')}` here, and "
                f"`{ev.get('first')}` at {first} with the same key array; split the key "
                f"and use each part once")
    if s.code in ("JAX501", "JAX504", "JAX508"):
        name, defined = ev.get("name"), _short(str(ev.get("defined")), here)
        head = f"`{name}` (defined at {defined}) was traced {ev.get('compiles')} times"
        if s.code == "JAX501":
            return (f"{head}: each call jitted a new function object of the same definition "
                    f"(explain_cache_misses: \"seen another function defined on the same "
                    f"line\"), so the compilation cache never hits; jit the function once, outside the "
                    f"loop or the function that calls it, and call that jitted function")
        if s.code == "JAX504":
            parts = [f"{arg} changed {len(vals) - 1} times ({', '.join(vals[:6])}"
                     f"{', ...' if len(vals) > 6 else ''})" for arg, vals in
                     sorted(ev.get("changed", {}).items())]
            return (f"{head}: static argument {'; '.join(parts) or 'values changed'}; every "
                    f"new value of a static argument compiles again")
        changes = ev.get("changes") or []
        # one entry per argument, its values in the order the retraces saw them (JAX's
        # explanation of each cache miss names the argument that differed first)
        seen: dict[str, list[str]] = {}
        for c in changes:
            if len(c) != 3:
                continue
            vals = seen.setdefault(str(c[0]), [str(c[2])])
            for v in (str(c[2]), str(c[1])):
                if v not in vals:
                    vals.append(v)
        what = "; ".join(f"`{n}` {' -> '.join(vals[:6])}{' -> ...' if len(vals) > 6 else ''}"
                         for n, vals in seen.items())
        if ev.get("cause") == "weak_type":
            return (f"{head}: an argument's weak type flipped ({what}): a Python scalar "
                    f"and a typed array of the same dtype compile separately; pass one kind")
        return (f"{head}: the argument shapes or dtypes changed ({what}); pad or bucket "
                f"the inputs to a few shapes")
    exc = ev.get("exception", "")
    error = ev.get("error", "")
    if s.code == "JAX124":
        # what jax_debug_nans does (jax 0.10.2): eagerly it checks every operation's
        # result, so a NaN a `where` then drops (`where(m > 0, log(m), 0.)`) stops the run;
        # a jitted function is checked at its output, and when that holds a NaN JAX runs
        # it again operation by operation and stops at the first NaN made, which can be
        # such a masked forward NaN rather than the gradient's
        return (f"the run made its first NaN here (jax_debug_nans stops at the first operation "
                f"whose result holds a NaN, also one a `where` drops afterwards): {exc}: {error}")
    if s.code == "JAX211":
        traced = ev.get("traced")
        if traced and s.code == "JAX211" and "Leaked" not in error and \
                "UnexpectedTracer" not in exc:
            return (f"the run used a tracer of `{traced[0]}` (traced at "
                    f"{_short(f'{traced[1]}:{traced[2]}', here)}) after its trace ended: "
                    f"{exc}: {error}")
        return f"the run leaked a tracer out of its transformation: {exc}: {error}"
    if s.code == "JAX301":
        return f"the run reused a PRNG key (jax_debug_key_reuse): {exc}: {error}"
    return f"the run raised {exc}: {error}"


def confirmed_by(verdict, path: str, finding, seen: list[Sighting]):
    """``confirm``: a finding whose line an event of the run hits, of the same sharp bit,
    is confirmed by the run itself ("confirmed (observed)"), whatever its check said."""
    from jaxlint.runtime.verdicts import confirmed

    if verdict.verdict == "confirmed":
        return verdict
    real = os.path.realpath(path)
    for s in seen:
        if s.path == real and finding.line <= s.line <= finding.end_line and \
                same_sharp_bit(s.code, finding.code):
            out = confirmed(f"observed in --run `{s.evidence.get('command')}`: {s.message}",
                            observed=True, oracle="the --run, with JAX's checkers "
                            "(jaxlint observe's probes)", code=s.code, line=s.line,
                            count=s.count)
            out.inputs = verdict.inputs
            out.details["before"] = verdict.to_dict()
            return out
    return verdict

