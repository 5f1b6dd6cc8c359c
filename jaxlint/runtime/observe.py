"""Inputs by observation, parent side (pure Python, no JAX): ``--run`` commands and the cache.

``CommandRuns`` runs each command (``sh -c``, under ``procs``' guard, in its
own process group, with a time limit for the command and one per finding
checked inside it) with the recorder active, and reads back what it observed:
portable arguments per function, and verdicts of checks run in the process.
The commands may start before the watch list is known (``deliver`` hands it
over, ``stop`` ends them); ``run_commands`` runs them with a known list.
A command that fails or times out still yields what it observed before.

``ObservationCache`` keeps portable observations (and in-process verdicts)
under ``<cache-dir>/runtime/``, keyed by file, function and the file's source
hash, so a later ``confirm`` without ``--run`` reuses them until the code
changes.  ``suggest_run`` names the scripts and tests that call a function,
for the skip message of a function nothing observed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import stat
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from jaxlint.runtime import procs
from jaxlint.runtime.verdicts import RANK, Verdict, skipped

TAIL_CHARS = 2000  # of a command's output kept for the report
_PRIORITY = RANK


@dataclass
class RunResult:
    command: str
    cwd: str
    status: str  # "ok", "exit status N", "timed out after N s", "killed by SIGx"
    wall_s: float
    processes: int = 0
    output_tail: str = ""


@dataclass
class Observed:
    observations: dict[str, dict] = field(default_factory=dict)  # id -> observed event
    verdicts: dict[str, Verdict] = field(default_factory=dict)  # id -> in-process verdict
    runs: list[RunResult] = field(default_factory=list)
    # what observe's probes saw in the run (events; jaxlint.runtime.sightings reads
    # them), for the findings whose line an event hits ("confirmed (observed)")
    probe_events: list = field(default_factory=list)


def interpreter_command(command: str) -> str:
    """A command starting with ``python``/``python3`` runs with jaxlint's own interpreter."""
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    if words and words[0] in ("python", "python3"):
        return shlex.quote(sys.executable) + command[command.index(words[0]) + len(words[0]):]
    return command


def _shim(tmp: str) -> str:
    from jaxlint.runtime.recorder import SITECUSTOMIZE

    return write_shim(tmp, SITECUSTOMIZE)


def write_shim(tmp: str, sitecustomize: str) -> str:
    """A folder under ``tmp`` to put first on the command's ``PYTHONPATH``: a
    ``sitecustomize.py`` with this text, and the jaxlint package it imports.  Beside
    it, ``bin``: ``python`` and ``python3`` that run jaxlint's interpreter, first on
    the command's ``PATH`` (``shim_env``), so that ``cd src && python -m pkg`` or
    ``VAR=1 python x.py`` run with it as a command starting with ``python`` does."""
    shim = os.path.join(tmp, "shim")
    os.mkdir(shim)
    with open(os.path.join(shim, "sitecustomize.py"), "w", encoding="utf-8") as fh:
        fh.write(sitecustomize)
    package = Path(__file__).resolve().parent.parent  # the jaxlint package, and only it
    os.symlink(package, os.path.join(shim, "jaxlint"))
    if os.name == "posix":
        # a script, not a link: a virtual environment's interpreter finds its
        # pyvenv.cfg beside the path it was started by; the shim is put back on a
        # PYTHONPATH the command set itself (`PYTHONPATH=src python ...`)
        bindir = os.path.join(tmp, "bin")
        os.mkdir(bindir)
        q = shlex.quote(shim)
        for name in ("python", "python3"):
            exe = os.path.join(bindir, name)
            with open(exe, "w", encoding="utf-8") as fh:
                fh.write(f'#!/bin/sh\ncase ":$PYTHONPATH:" in *:{q}:*) ;; '
                         f'*) PYTHONPATH={q}${{PYTHONPATH:+:$PYTHONPATH}}; export PYTHONPATH ;; esac\n'
                         f'exec {shlex.quote(sys.executable)} "$@"\n')
            os.chmod(exe, 0o755)
    return shim


def shim_env(env: dict, shim: str) -> None:
    """``shim`` first on ``env``'s ``PYTHONPATH``, its ``bin`` (``write_shim``) first on ``PATH``."""
    env["PYTHONPATH"] = os.pathsep.join([shim] + [
        p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    bindir = os.path.join(os.path.dirname(shim), "bin")
    if os.path.isdir(bindir):
        env["PATH"] = os.pathsep.join([bindir] + [
            p for p in env.get("PATH", "").split(os.pathsep) if p])


def _read_events(path: str) -> list[dict]:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if isinstance(e, dict):
            out.append(e)
    return out


def read_events(path: str) -> list[dict]:
    """The JSON-lines events a run's processes wrote (observe's probes write them too)."""
    return _read_events(path)


def _tail(path: str) -> str:
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as fh:
            fh.seek(max(0, size - TAIL_CHARS))
            text = fh.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
    return ("..." if size > TAIL_CHARS else "") + text.strip()


# what JAX prints after an exception's line: its note on the frames it filtered out,
# under a rule of dashes
_JAX_NOTE = re.compile(r"^(-{5,}|For simplicity, JAX has removed its internal frames\b.*)$")


def last_line(tail: str) -> str:
    """The line of a command's output that says how it ended: the last line, or the
    exception's line above JAX's note on filtered frames."""
    lines = [ln.strip() for ln in (tail or "").splitlines() if ln.strip()]
    noted = False
    while len(lines) > 1 and _JAX_NOTE.match(lines[-1]):
        lines.pop()
        noted = True
    if noted:  # the exception's line, above JAX's `See https://...` line
        for ln in reversed(lines[-3:]):
            if _EXCEPTION_LINE.match(ln):
                return ln
    return lines[-1] if lines else ""


_EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\b")


def output_tail(path: str) -> str:
    """The last characters of a command's output (for the report)."""
    return _tail(path)


class CommandRuns:
    """The ``--run`` commands, running (up to ``jobs`` at once), possibly started
    before the watch list is known: ``confirm`` starts them before it lints, so that
    Python's and JAX's start-up in the command overlap the lint.  Until ``deliver``
    writes the watch list, the recorder in each process lets imports and module-level
    code run and holds the first call of a function of the user's code (see
    ``recorder.Recorder.gate``); ``stop`` ends the commands (nothing to watch)."""

    def __init__(self, commands: list[tuple[str, str]], options: dict, finding_timeout: float,
                 run_timeout: float, jobs: int = 1, watch: Optional[list[dict]] = None,
                 guard_limit: Optional[float] = None, facts_paths: Optional[list[str]] = None) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.tmp = tempfile.mkdtemp(prefix="jaxlint-run-")
        self.shim = _shim(self.tmp)
        self.watch_path = os.path.join(self.tmp, "watch.json")
        self.options = options
        self.finding_timeout, self.run_timeout = finding_timeout, run_timeout
        # the guard's own limit, a backstop: the parent enforces run_timeout, which
        # the configuration may still change (``timeouts``) when the lint has read it
        self.guard_limit = guard_limit if guard_limit is not None else run_timeout + 30
        self.stopped: Optional[str] = None
        self.finished = False  # result() was called
        # record `check --observed`'s facts of the functions in these paths (factrec.py)
        self.facts_paths = facts_paths
        if watch is not None:
            self.deliver(watch, options)
        self.pool = ThreadPoolExecutor(max_workers=max(1, jobs))
        self.futures = [self.pool.submit(self._one, n, c, d)
                        for n, (c, d) in enumerate(commands)]

    def timeouts(self, finding_timeout: float, run_timeout: float) -> None:
        """The limits the configuration sets (the commands may be running already)."""
        self.finding_timeout, self.run_timeout = finding_timeout, run_timeout

    def deliver(self, watch: list[dict], options: dict) -> None:
        part = self.watch_path + ".part"
        with open(part, "w", encoding="utf-8") as fh:
            json.dump({"watch": watch, "options": options}, fh)
        os.replace(part, self.watch_path)  # the recorder never reads half a list

    def stop(self, reason: str) -> None:
        """Commands still running are killed; those not started do not start."""
        self.stopped = reason

    def _one(self, n: int, command: str, cwd: str) -> tuple[RunResult, Observed]:
        seen = Observed()
        if self.stopped:
            return RunResult(command, cwd, f"not run: {self.stopped}", 0.0), seen
        events_path = os.path.join(self.tmp, f"events-{n}.jsonl")
        open(events_path, "w").close()
        job_path = os.path.join(self.tmp, f"job-{n}.json")
        with open(job_path, "w", encoding="utf-8") as fh:
            json.dump({"events": events_path, "command": command, "options": self.options,
                       "watch_file": self.watch_path}, fh)
        env = dict(os.environ)
        shim_env(env, self.shim)
        env.pop("JAXLINT_RECORD", None)
        env["JAXLINT_RECORD_NEXT"] = job_path  # procs.run_guarded hands it on
        probes_path = os.path.join(self.tmp, f"probes-{n}.jsonl")
        env.update(_probes_env(self.tmp, n, probes_path, self.facts_paths))
        env["PYTHONDONTWRITEBYTECODE"] = "1"  # no __pycache__ in the user's tree
        env.setdefault("PYTHONHASHSEED", "0")
        env.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
        device = self.options.get("device")
        if device:
            env["JAX_PLATFORMS"] = {"gpu": "cuda"}.get(device, device)
        out_path = os.path.join(self.tmp, f"output-{n}")
        run = _run_one(interpreter_command(command), command, cwd, env, events_path,
                       out_path, self.finding_timeout, self.run_timeout, seen, self)
        seen.probe_events = [dict(e, command=command) for e in _read_events(probes_path)]
        return run, seen

    def result(self) -> Observed:
        """Wait for every command; what they saw, merged in the commands' order."""
        result = Observed()
        self.finished = True
        try:
            outcomes = procs.gather(self.futures)
        finally:
            self.pool.shutdown(wait=True)
            shutil.rmtree(self.tmp, ignore_errors=True)
        for run, seen in outcomes:
            result.runs.append(run)
            result.probe_events.extend(seen.probe_events)
            for i, obs in seen.observations.items():
                result.observations.setdefault(i, obs)
            for i, v in seen.verdicts.items():
                old = result.verdicts.get(i)
                if old is None or _PRIORITY[v.verdict] > _PRIORITY[old.verdict]:
                    result.verdicts[i] = v
        return result


def _probes_env(tmp: str, n: int, events: str, facts_paths: Optional[list[str]] = None) -> dict:
    """observe's probes in a confirm run, with only the checker that changes nothing the
    program does (explain_cache_misses: a log record per retrace); see sightings.py.
    ``facts_paths``: also record the facts of the functions there (``facts`` events)."""
    open(events, "w").close()
    job = os.path.join(tmp, f"probes-job-{n}.json")
    options = {"facts": True, "facts_paths": list(facts_paths)} if facts_paths else {}
    with open(job, "w", encoding="utf-8") as fh:
        json.dump({"events": events, "paths": ["/"], "options": options}, fh)
    return {"JAXLINT_OBSERVE_NEXT": job, "JAX_EXPLAIN_CACHE_MISSES": "1"}


def run_commands(commands: list[tuple[str, str]], watch: list[dict], options: dict,
                 finding_timeout: float, run_timeout: float, jobs: int = 1,
                 facts_paths: Optional[list[str]] = None) -> Observed:
    """Run each (command, cwd) with the recorder watching ``watch`` (up to ``jobs``
    at once); gather what they saw, merged in the commands' order."""
    if not commands:
        return Observed()
    return CommandRuns(commands, options, finding_timeout, run_timeout, jobs, watch,
                       facts_paths=facts_paths).result()


def _run_one(shell_cmd: str, label: str, cwd: str, env: dict, events_path: str,
             out_path: str, finding_timeout: float, run_timeout: float,
             result: Observed, runs: Optional[CommandRuns] = None) -> RunResult:
    limits = {"finding": finding_timeout, "run": run_timeout}
    state: dict = {"current": None, "since": 0.0, "seen": 0}

    def check(elapsed: float) -> Optional[str]:
        """Stop the command: its time-out, a check inside it that ran too long, jaxlint
        stopping (``procs.run_command`` asks every 0.05 s)."""
        events = _read_events(events_path)
        for e in events[state["seen"]:]:
            if e.get("event") == "start":
                state["current"], state["since"] = str(e.get("id")), time.monotonic()
            elif e.get("event") == "verdict":
                state["current"] = None
        state["seen"] = len(events)
        if runs is not None:  # the configuration may set them while the command runs
            limits["finding"], limits["run"] = runs.finding_timeout, runs.run_timeout
        current = state["current"]
        if current is not None and time.monotonic() - state["since"] > limits["finding"]:
            result.verdicts.setdefault(current, skipped(
                f"timed out after {limits['finding']:g} s while checking it inside "
                f"--run `{label}`"))
            return f"stopped: a check inside it timed out after {limits['finding']:g} s"
        if elapsed > limits["run"]:
            return f"timed out after {limits['run']:g} s"
        if runs is not None and runs.stopped:
            return f"stopped: {runs.stopped}"
        return None

    ran = procs.run_command(["/bin/sh", "-c", shell_cmd], cwd=cwd, env=env, out_path=out_path,
                            guard_limit=runs.guard_limit if runs is not None else run_timeout + 30,
                            check=check)
    if not ran.started:
        return RunResult(label, cwd, ran.status, 0.0)
    status = ran.status
    events = _read_events(events_path)
    pids = set()
    for e in events:
        kind = e.get("event")
        if kind == "process":
            pids.add(e.get("pid"))
        elif kind == "observed":
            for i in e.get("ids") or []:
                result.observations.setdefault(str(i), dict(e, command=label))
        elif kind == "verdict":
            v = Verdict.from_dict(e.get("result"))
            old = result.verdicts.get(str(e.get("id")))
            if old is None or _PRIORITY[v.verdict] > _PRIORITY[old.verdict]:
                result.verdicts[str(e.get("id"))] = v
        elif kind == "observe-failed":
            for i in e.get("ids") or []:
                result.observations.setdefault(str(i), {"error": e.get("error"),
                                                        "command": label})
    return RunResult(label, cwd, status, ran.wall_s, len(pids),
                     _tail(out_path) if status != "ok" else "")


# ----------------------------------------------------------------------------- the cache


def source_hash(path: str) -> Optional[str]:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


class ObservationCache:
    MAX_BYTES = 8 << 20

    def __init__(self, cache_dir: Optional[Path]) -> None:
        self.dir = Path(cache_dir) / "runtime" / "observed" if cache_dir is not None else None

    def _file(self, path: str, function: str) -> Optional[Path]:
        if self.dir is None:
            return None
        key = hashlib.sha256(f"{os.path.realpath(path)}::{function}".encode()).hexdigest()[:32]
        return self.dir / f"{key}.json"

    def load(self, path: str, function: str) -> Optional[dict]:
        """The entry for this function if its file has not changed since (validated)."""
        f = self._file(path, function)
        digest = source_hash(path)
        if f is None or digest is None:
            return None
        try:
            st = os.stat(f)
            if not stat.S_ISREG(st.st_mode) or st.st_size > self.MAX_BYTES:
                return None
            with open(f, encoding="utf-8") as fh:
                entry = json.load(fh)
        except (OSError, ValueError):
            return None
        if not (isinstance(entry, dict) and entry.get("version") == 1
                and entry.get("source_sha256") == digest
                and entry.get("function") == function
                and (entry.get("args") is None or isinstance(entry.get("args"), list))
                and isinstance(entry.get("described", []), list)
                and isinstance(entry.get("verdicts", {}), dict)):
            return None
        return entry

    def store(self, path: str, function: str, observed: dict,
              verdicts: dict[str, dict]) -> None:
        f = self._file(path, function)
        digest = source_hash(path)
        if f is None or digest is None:
            return
        from jaxlint.cache import atomic_write_text, prepare_cache_dir

        try:
            prepare_cache_dir(f.parent.parent.parent)
            f.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(f, json.dumps({
                "version": 1, "file": os.path.realpath(path), "function": function,
                "source_sha256": digest, "args": observed.get("args"),
                "described": observed.get("described") or [], "kind": observed.get("kind"),
                "command": observed.get("command"), "verdicts": verdicts,
            }))
        except OSError:
            pass  # the cache is an optimisation


# ----------------------------------------------------------------------------- suggestions


_SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", "build", "dist",
              ".jaxlint_cache", ".tox", ".mypy_cache", ".pytest_cache"}


def script_command(path: Path, cwd: Optional[Path] = None) -> str:
    """How to run ``path`` as a script from ``cwd`` (default: the current directory)."""
    return _script_command(path, Path(cwd or os.getcwd()))


def _script_command(path: Path, cwd: Path) -> str:
    """``python -m pkg.mod`` for a script inside a package (relative imports), else
    ``python path``; paths relative to ``cwd``, where a ``--run`` command runs."""
    parts = [path.stem]
    d = path.parent
    while (d / "__init__.py").is_file() and d.parent != d:
        parts.insert(0, d.name)
        d = d.parent
    if len(parts) > 1:
        module = ".".join(parts[:-1] if parts[-1] == "__main__" else parts)
        where = os.path.relpath(d, cwd)
        return ("" if where == "." else f"cd {shlex.quote(where)} && ") + f"python -m {module}"
    return f"python {shlex.quote(os.path.relpath(path, cwd))}"


def _candidates(path: Path, root: Path, limit_files: int):
    """The file itself, then its folder, then the project: where a caller is likeliest."""
    seen: set[Path] = set()
    first = [path] + sorted(p for p in path.parent.glob("*.py") if p != path)
    for p in first:
        seen.add(p.resolve())
        yield p
    count = len(first)
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS and not d.startswith("."))
        for fn in sorted(filenames):
            if not fn.endswith(".py"):
                continue
            count += 1
            if count > limit_files:
                return
            p = Path(dirpath) / fn
            if p.resolve() not in seen:
                yield p


def suggest_run(path: Path, function: str, root: Path, limit_files: int = 3000,
                cwd: Optional[Path] = None) -> Optional[str]:
    """A ``--run`` that would call ``function``: a script (``__main__``) or a test
    file that imports the function's module and calls the function by name; the
    command as it would run from ``cwd`` (default: the current directory)."""
    name = function.split(".")[0]
    if not name.isidentifier():
        return None
    cwd = Path(cwd or os.getcwd())
    call = re.compile(rf"\b{re.escape(name)}\s*\(|\b{re.escape(name)}\s*,")
    module = re.compile(rf"\b{re.escape(path.stem)}\b" if path.stem != "__init__"
                        else rf"\b{re.escape(path.parent.name)}\b")
    tests = []
    for p in _candidates(path, root, limit_files):
        try:
            text = p.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        same = p.resolve() == path.resolve()
        if not call.search(text) or not (same or module.search(text)):
            continue
        if p.name.startswith("test_") or p.name.endswith("_test.py"):
            tests.append(p)
        elif "__main__" in text:
            return f'--run "{_script_command(p, cwd)}"'
    if tests:
        return f'--run "python -m pytest -x {shlex.quote(os.path.relpath(tests[0], cwd))}"'
    return None
