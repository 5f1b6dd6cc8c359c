"""The parent side of ``jaxlint confirm`` / ``bench``: jobs, time limits, verdicts.

One worker process per module (``python -m jaxlint.runtime.worker``); every
target (and the import) gets ``timeout`` seconds.  When a worker times out or
crashes, the target it was on is skipped with the reason and the remaining
targets run in a fresh worker.  Nothing here imports JAX or the user's code.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from jaxlint.findings import FileResult, Finding
from jaxlint.runtime import notebooks, procs
from jaxlint.runtime.apicheck import API_RULES
from jaxlint.runtime.specs import RuntimeOptions, SpecError, read_runtime_table
from jaxlint.runtime.verdicts import RANK, Verdict, memory_reason, over_memory, skipped


@dataclass
class ModuleJob:
    path: Path  # absolute
    display: str
    findings: list[Finding]
    options: RuntimeOptions
    inputs: dict[str, list[str]]
    sys_path: list[str]
    fixed_source: Optional[str] = None
    max_unrolled_loop: int = 64
    root: Optional[Path] = None  # the configuration's directory
    extra: dict[int, dict] = field(default_factory=dict)  # finding index -> observed / insitu
    notebook: Any = None  # a notebook's run (runtime.notebooks.NotebookRun): path is its virtual module


@dataclass
class RuntimeReport:
    findings: list[Finding] = field(default_factory=list)  # with .runtime set
    pairs: list[dict] = field(default_factory=list)  # declared alternatives benchmarked
    errors: list[str] = field(default_factory=list)
    environment: dict[str, Any] = field(default_factory=dict)
    runs: list[dict] = field(default_factory=list)  # the --run commands and how they ended
    # environment problems, each said once (a package missing here), with the fix
    problems: list[str] = field(default_factory=list)
    # the `facts` events of the --run commands (runtime/factrec.py), for the facts file
    facts_events: list[dict] = field(default_factory=list)


# import names whose distribution on PyPI is named otherwise
_DISTRIBUTIONS = {"haiku": "dm-haiku", "sklearn": "scikit-learn", "PIL": "pillow",
                  "yaml": "pyyaml", "cv2": "opencv-python", "tree": "dm-tree",
                  "tensorflow_datasets": "tensorflow-datasets", "jraph": "jraph",
                  "flax": "flax", "optax": "optax", "equinox": "equinox", "orbax": "orbax",
                  "skimage": "scikit-image", "google": "protobuf", "attr": "attrs",
                  "dateutil": "python-dateutil", "Bio": "biopython", "ml_collections":
                  "ml-collections", "absl": "absl-py", "tf_keras": "tf-keras"}


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def install_hint(package: str, root: Optional[Path]) -> str:
    """The command that installs ``package`` (an import name): the project's extra that
    requires it when its pyproject.toml has one, else ``pip install <distribution>``."""
    dist = _DISTRIBUTIONS.get(package, package.replace("_", "-"))
    wanted = {_normal(dist), _normal(package)}
    own = _own_package(package, root)
    if own is not None and root is not None:  # the project being checked, not a namesake on PyPI
        try:
            where = "." if root.resolve() == Path.cwd().resolve() else f'"{root}"'
        except OSError:
            where = f'"{root}"'
        return f"pip install -e {where} (`{package}` is this project's own package, {own})"
    pyproject = (root / "pyproject.toml") if root is not None else None
    if pyproject is not None and pyproject.is_file():
        try:
            import tomllib

            data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        except (OSError, ValueError, ImportError):
            data = {}
        project = data.get("project") if isinstance(data.get("project"), dict) else {}

        def names(reqs: Any) -> set[str]:
            out = set()
            for req in reqs if isinstance(reqs, list) else []:
                m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", str(req))
                if m:
                    out.add(_normal(m.group(1)))
            return out

        extras = project.get("optional-dependencies")
        for extra, reqs in sorted(extras.items() if isinstance(extras, dict) else []):
            if names(reqs) & wanted:
                return (f"pip install -e \"{root}[{extra}]\" (the `{extra}` extra of "
                        f"{pyproject})")
        if names(project.get("dependencies")) & wanted:
            return f"pip install -e \"{root}\" (a dependency in {pyproject})"
    return f"pip install {dist}"


def _own_package(package: str, root: Optional[Path]) -> Optional[str]:
    """Where ``package`` lives in the project at ``root`` (``src/rejax``), or None:
    a folder or module of that name under the root or its ``src``."""
    if root is None or not package.isidentifier():
        return None
    for base in (root, root / "src"):
        for cand in (base / package, base / f"{package}.py"):
            try:
                found = cand.is_file() or cand.is_dir() and any(cand.glob("*.py"))
            except OSError:
                found = False
            if found:
                return cand.relative_to(root).as_posix()
    return None


def environment_problem(package: str, jobs: list["ModuleJob"],
                        count: Optional[int] = None) -> str:
    """One line for a package missing here: the modules it stopped and the fix
    (``count``: the findings skipped for it, default all of the modules')."""
    if count is None:
        count = sum(len(j.findings) for j in jobs)
    where = ", ".join(j.display for j in jobs[:3]) + (f" and {len(jobs) - 3} more"
                                                       if len(jobs) > 3 else "")
    skipped_part = (f" and their finding(s) are skipped ({count})" if count else
                    " (their findings were answered without importing them)")
    return (f"environment: `{package}` is not installed, so {len(jobs)} module(s) could not be "
            f"imported ({where}){skipped_part}; install it: "
            f"{install_hint(package, jobs[0].root)}")


def module_names(path: Path, root: Path) -> list[str]:
    """Names a config key may use for this file: dotted path from the root, the stem."""
    names = []
    try:
        rel = path.resolve().relative_to(root.resolve()).with_suffix("")
        parts = list(rel.parts)
        if parts and parts[-1] == "__init__":
            parts = parts[:-1]
        if parts:
            names.append(".".join(parts))
            if parts[0] == "src" and len(parts) > 1:
                names.append(".".join(parts[1:]))
    except ValueError:
        pass
    names.append(path.stem)
    return names


def inputs_for(path: Path, root: Path, table: dict[str, list[str]]) -> dict[str, list[str]]:
    """The config's ``inputs`` entries that name functions of this file, by qualname."""
    out: dict[str, list[str]] = {}
    names = module_names(path, root)
    for key, specs in table.items():
        if "::" in key:
            file_part, qual = key.split("::", 1)
            if (root / file_part).resolve() == path.resolve():
                out[qual] = specs
            continue
        for name in names:
            if key.startswith(name + "."):
                out.setdefault(key[len(name) + 1:], specs)
                break
    return out


def _signal_name(rc: int) -> str:
    try:
        return signal.Signals(-rc).name
    except ValueError:
        return f"signal {-rc}"


def _read_events(path: str) -> list[dict]:
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return []
    events = []
    for line in lines:
        try:
            events.append(json.loads(line))
        except ValueError:
            pass  # a line cut by a crash
    return events


def _tail(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = [ln.strip() for ln in fh.read().splitlines() if ln.strip()]
    except OSError:
        return ""
    return lines[-1][:200] if lines else ""


def run_worker(job: dict, timeout: float) -> tuple[list[dict], Optional[str], bool]:
    """Run one worker; return (events, failure reason or None, timed out)."""
    with tempfile.TemporaryDirectory(prefix="jaxlint-runtime-") as tmp:
        events_path = os.path.join(tmp, "events.jsonl")
        open(events_path, "w").close()
        job = dict(job, events=events_path)
        out_path, err_path = os.path.join(tmp, "stdout"), os.path.join(tmp, "stderr")
        env = dict(os.environ)
        env.setdefault("PYTHONHASHSEED", "0")
        env["PYTHONUNBUFFERED"] = "1"
        env["PYTHONDONTWRITEBYTECODE"] = "1"  # no __pycache__ in the user's tree
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            n = len(job.get("targets", [])) + 2
            proc = procs.spawn([sys.executable, "-m", "jaxlint.runtime.worker"],
                               time_limit=timeout * n + 30,
                               stdin=subprocess.PIPE, stdout=out, stderr=err, env=env,
                               cwd=os.getcwd())
            try:
                try:
                    proc.stdin.write(json.dumps(job).encode())  # type: ignore[union-attr]
                    proc.stdin.close()  # type: ignore[union-attr]
                except BrokenPipeError:
                    pass
                deadline = time.monotonic() + timeout
                seen = 0
                timed_out = False
                while proc.poll() is None:
                    time.sleep(0.05)
                    events = _read_events(events_path)
                    if len(events) != seen:
                        if any(e.get("event") in ("start", "imported") for e in events[seen:]):
                            deadline = time.monotonic() + timeout
                        seen = len(events)
                    if time.monotonic() > deadline:
                        timed_out = True
                        procs.kill_tree(proc)  # the worker, its group and its descendants
                        proc.wait()
                        break
            finally:
                procs.release(proc)
            rc = proc.returncode
        events = _read_events(events_path)
        if timed_out:
            return events, f"timed out after {timeout:g} s", True
        if rc is not None and rc < 0:
            return events, f"crashed: the process was killed by {_signal_name(rc)}", False
        if rc:
            tail = _tail(err_path)
            if over_memory(job.get("memory_limit") or 0, tail):
                return events, memory_reason(job["memory_limit"]), False
            return events, f"the process exited with status {rc}" + (f" ({tail})" if tail else ""), False
        return events, None, False


def run_module(job: ModuleJob, mode: str) -> tuple[dict[int, Verdict], list[dict], dict]:
    """Verdicts by finding index, benchmarked pairs, environment facts.  A removed-API
    finding also gets the installed JAX's answer (``apicheck``): the stronger verdict."""
    verdicts, pairs, env = _run_module(job, mode)
    missing = env.get("missing")
    for i, v in list(verdicts.items()):
        if missing is None and isinstance(i, int) and v.details.get("environment"):
            missing = v.details["environment"]  # the run stopped at the import (no worker)
    if missing is not None:
        env = dict(env, missing=missing)
        for i, f in enumerate(job.findings):
            old = verdicts.get(i)
            if not f.function and (old is None or old.verdict in ("skipped", "not-exercised")):
                # outside any function, in a module that cannot be imported here
                verdicts[i] = skipped(f"environment: `{missing}` is not installed",
                                      environment=missing)
    for key in [k for k in verdicts if isinstance(k, str) and k.startswith(("api:", "stmt:"))]:
        answer = verdicts.pop(key)
        i = int(key.split(":", 1)[1])
        old = verdicts.get(i)
        if answer.verdict != "skipped" and (old is None or RANK[answer.verdict] > RANK[old.verdict]):
            if old is not None and old.verdict != "skipped" and old.text:
                answer.annotate(f"the other check: {old.verdict}: {old.text}"[:300])
            verdicts[i] = answer
        elif (answer.verdict == "skipped" and key.startswith("stmt:") and old is not None
              and old.verdict == "skipped" and not old.details):
            # why the statement itself could not be checked, not the generic "nothing to
            # call" (an environment skip, or a --run's own verdict, has details: kept)
            verdicts[i] = answer
    return verdicts, pairs, env


def _run_module(job: ModuleJob, mode: str) -> tuple[dict, list[dict], dict]:
    targets = []
    verdicts: dict = {}
    for i, f in enumerate(job.findings):
        extra = job.extra.get(i, {})
        if not f.function and (extra.get("insitu") is not None or extra.get("run") is not None):
            # its callee checked in --run, or the run itself at these lines: the stronger
            found = [Verdict.from_dict(extra[k]) for k in ("insitu", "run") if extra.get(k)]
            verdicts[i] = max(found, key=lambda v: _RANK[v.verdict])
        elif not f.function:
            verdicts[i] = skipped(_module_level_reason(job, f))
        elif extra.get("insitu") is not None and mode == "confirm" and not extra.get("declared"):
            verdicts[i] = Verdict.from_dict(extra["insitu"])  # checked inside the --run
        else:
            targets.append(dict({"id": i, "code": f.code, "line": f.line, "end_line": f.end_line,
                                 "col": f.col, "end_col": f.end_col,
                                 "function": f.function, "has_fix": f.fix is not None},
                                **job.extra.get(i, {})))
    for i, f in enumerate(job.findings):
        if not f.function and f.code in STATEMENT_RULES and not (
                verdicts.get(i) is not None and verdicts[i].verdict == "confirmed"):
            # outside any function: the statement itself, run under the rule's check
            targets.append({"id": f"stmt:{i}", "statement": True, "code": f.code,
                            "line": f.line, "end_line": f.end_line})
        if f.code in API_RULES:  # the name looked up in the installed packages
            targets.append({"id": f"api:{i}", "api": True, "code": f.code, "line": f.line,
                            "col": f.col, "end_line": f.end_line, "end_col": f.end_col})
    has_alternatives = mode == "bench" and "JAXLINT_ALTERNATIVES" in _text(job.path)
    if not targets and not has_alternatives:
        return verdicts, [], {}
    base = {
        "path": str(job.path),
        "module_name": "_jaxlint_run_" + "".join(c if c.isalnum() else "_" for c in job.path.stem),
        "sys_path": job.sys_path,
        "mode": mode,
        "targets": targets,
        "inputs": job.inputs,
        "fixed_source": job.fixed_source,
        "device": job.options.device,
        "memory_limit": _memory_bytes(job.options),
        "options": {"default_dim": job.options.default_dim, "runs": job.options.runs,
                    "seed": job.options.seed, "max_unrolled_loop": job.max_unrolled_loop},
    }
    if job.notebook is not None:  # the worker imports it by running its cells
        base["notebook"] = {"first_cell": job.notebook.first_cell}
    pairs: list[dict] = []
    env: dict = {}
    done: set = set()
    for _attempt in range(len(targets) + 2):
        events, failure, timed_out = run_worker(dict(base, skip_ids=sorted(done, key=str)),
                                                job.options.timeout)
        imported = False
        current = None
        for e in events:
            kind = e.get("event")
            if kind == "imported":
                imported = True
                env = {k: e.get(k) for k in ("device", "jax_version")}
            elif kind == "import-failed":
                missing = e.get("missing")
                if isinstance(missing, str) and missing:
                    # said once for the whole run (RuntimeReport.problems); each finding
                    # is only marked as an environment skip
                    verdict = skipped(f"environment: `{missing}` is not installed",
                                      environment=missing)
                    env = dict(env, missing=missing)
                    for t in targets:
                        verdicts.setdefault(t["id"], Verdict.from_dict(verdict.to_dict()))
                    return verdicts, pairs, env
                if e.get("backend"):  # the device asked for is not there: an error of the run
                    env = dict(env, backend_error=str(e.get("error")))
                reason = (f"{e.get('error')} while importing the module" if e.get("memory")
                          else f"the module failed to import: {e.get('error')}")
                for t in targets:
                    verdicts.setdefault(t["id"], skipped(reason))
                return verdicts, pairs, env
            elif kind == "start":
                current = e.get("id")
            elif kind == "verdict":
                verdicts[e["id"]] = Verdict.from_dict(e["result"])
                done.add(e["id"])
                current = None
            elif kind == "pair":
                pairs.append(e["result"])
                done.add(e["id"])
                current = None
        if failure is None and current is not None:
            failure = "the process exited while checking it (exit status 0: the code ended it)"
        if failure is None:
            break
        if not imported:
            reason = (f"{failure} while importing the module" if timed_out
                      else f"{failure} while importing the module")
            for t in targets:
                verdicts.setdefault(t["id"], skipped(reason))
            return verdicts, pairs, env
        if current is None:
            break  # failed after the last target: nothing left to redo
        if isinstance(current, int) or str(current).startswith(("api:", "stmt:")):
            verdicts[current] = skipped(failure)
        else:
            pairs.append({"function": str(current).split(":", 1)[-1], "skipped": failure})
        done.add(current)
    for t in targets:
        verdicts.setdefault(t["id"], skipped("the worker stopped early"))
    return verdicts, pairs, env


def _memory_bytes(options: RuntimeOptions) -> int:
    """The worker's data memory limit in bytes (0: none)."""
    from jaxlint.runtime.specs import default_memory_limit

    gib = options.memory_limit if options.memory_limit is not None else default_memory_limit()
    return int(gib * (1 << 30))


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def build_jobs(results: list[FileResult], store, cli: RuntimeOptions, cli_set: set[str],
               mode: str, commands: Optional[list] = None) -> tuple[list[ModuleJob], list[str]]:
    """One job per linted file with findings (or with declared alternatives, for bench).
    The configurations' ``run`` commands are appended to ``commands`` as (command, cwd)."""
    from jaxlint.engine.fixes import apply_findings

    jobs: list[ModuleJob] = []
    errors: list[str] = []
    cwd = Path.cwd()
    for r in results:
        path = Path(r.path)
        absolute = path if path.is_absolute() else cwd / path
        text = None
        if not r.findings:
            if mode != "bench":
                continue
            text = _text(absolute)
            if "JAXLINT_ALTERNATIVES" not in text:
                continue
        resolved = store.for_path(absolute)
        options = dataclasses.replace(cli)
        try:
            table = read_runtime_table(resolved.cfg.runtime or {}, resolved.cfg.label)
        except SpecError as exc:
            errors.append(str(exc))
            continue
        for key in ("default_dim", "timeout", "runs", "run_timeout", "memory_limit"):
            if key in table and key not in cli_set:
                setattr(options, key, table[key])
        if commands is not None and "run" not in cli_set:
            for command in table.get("run", []):
                if (command, str(resolved.root)) not in commands:
                    commands.append((command, str(resolved.root)))
        inputs = inputs_for(absolute, resolved.root, table.get("inputs", {}))
        findings, notebook, module_path = list(r.findings), None, absolute.resolve()
        if notebooks.is_notebook(absolute):  # run cell by cell: its virtual module is the program
            try:
                notebook = notebooks.prepare(absolute.resolve(), r.path, findings)
            except notebooks.NotebookError as exc:
                errors.append(f"{r.path}: {exc}")
                continue
            findings, module_path, text = notebook.findings, notebook.virtual, notebook.nb.text
        fixed = None
        if mode == "bench" and any(f.fix is not None for f in findings):
            text = text if text is not None else _text(absolute)
            fixed, applied = apply_findings(text, findings, unsafe=True)
            if not applied:
                fixed = None
        opts = dict(resolved.options)
        jobs.append(ModuleJob(
            path=module_path, display=r.path, findings=findings, options=options,
            inputs=inputs, fixed_source=fixed,
            sys_path=[str(absolute.resolve().parent), str(resolved.root), str(cwd)],
            max_unrolled_loop=int(opts.get("max-unrolled-loop", 64)), root=resolved.root,
            notebook=notebook,
        ))
    return jobs, errors


def _run_options(cli: RuntimeOptions, mode: str, max_unrolled_loop: int = 64) -> dict:
    return {"default_dim": cli.default_dim, "seed": cli.seed, "runs": cli.runs,
            "device": cli.device, "check_portable": mode == "confirm",
            "max_unrolled_loop": max_unrolled_loop}


def start_runs(commands: list, cli: RuntimeOptions, mode: str = "confirm",
               jobs: Optional[int] = None, cli_set: frozenset = frozenset(),
               facts_paths: Optional[list[str]] = None) -> Any:
    """Start the ``--run`` commands now, before the lint that tells what to watch
    (``run_runtime(early=...)`` hands them the watch list and the configured time
    limits, or stops them).  ``facts_paths``: record `check --observed`'s facts of
    the functions there."""
    from jaxlint.runtime import observe

    return observe.CommandRuns(
        commands, _run_options(cli, mode), cli.timeout, cli.run_timeout,
        jobs or max(1, min(4, os.cpu_count() or 1)),
        guard_limit=None if "run_timeout" in cli_set else 7 * 24 * 3600.0,
        facts_paths=facts_paths)


def _time_limits(module_jobs: list[ModuleJob], cli: RuntimeOptions) -> tuple[float, float]:
    """(per finding, per command): --timeout/--run-timeout, else the configuration's
    (of the first file with findings), else the defaults."""
    options = module_jobs[0].options if module_jobs else cli
    return options.timeout, options.run_timeout


def _observe(module_jobs: list[ModuleJob], cli: RuntimeOptions, commands: list,
             cache_dir: Optional[Path], mode: str = "confirm", jobs: int = 1,
             early: Any = None, sightings: Optional[list] = None,
             facts_paths: Optional[list[str]] = None,
             facts_events: Optional[list] = None) -> list[dict]:
    """Run the --run commands with the recorder; attach what they (or the cache) saw
    to each finding as ``observed`` (portable arguments) or ``insitu`` (a verdict
    from a check run inside the command).  Returns the commands' summaries."""
    from jaxlint.runtime import observe

    watch = []
    for j, job in enumerate(module_jobs):
        for i, f in enumerate(job.findings):
            if not f.function and f.code in RUN_ORACLE_RULES:
                # outside any function: what the run does at these lines is the oracle
                watch.append({"id": f"{j}:{i}:run", "file": str(job.path), "function": None,
                              "code": f.code, "line": f.line, "end_line": f.end_line,
                              "module_level": True})
            if not f.function and f.code in RECOMPILE_RULES:
                # a call at module level (a `__main__` loop): watch the function it calls,
                # whose observed calls are replayed by the recompilation oracle
                callee = _callee_at(job.path, f.line, f.col)
                if callee is not None:
                    watch.append({"id": f"{j}:{i}", "file": str(job.path), "function": callee[0],
                                  "code": f.code, "line": callee[1], "end_line": callee[1],
                                  "has_fix": f.fix is not None, "declared": False,
                                  "calls": MAX_OBSERVED_CALLS, "callee": True})
            if f.function:
                declared = f.function in job.inputs
                entry = {"id": f"{j}:{i}", "file": str(job.path), "function": f.function,
                         "code": f.code, "line": f.line, "end_line": f.end_line,
                         "has_fix": f.fix is not None, "declared": declared,
                         # every distinct recorded call is replayed: a finding is refuted
                         # only by a check that drove its line in the state that fails
                         "calls": MAX_OBSERVED_CALLS}
                watch.append(entry)
                if "." in f.function and "<" not in f.function.split(".")[0]:
                    # a nested function: also watch the enclosing one, whose call
                    # rebuilds the inner function afresh (an iterator, a scan body, a
                    # vmapped closure); the nearest enclosing one
                    watch.append(dict(entry, id=f"{j}:{i}:outer",
                                      function=f.function.rsplit(".", 1)[0], outer_of=entry))
    seen = observe.Observed()
    options = _run_options(cli, mode, module_jobs[0].max_unrolled_loop if module_jobs else 64)
    finding_timeout, run_timeout = _time_limits(module_jobs, cli)
    # with nothing to watch the commands run only to record `check --observed`'s facts
    if early is not None:
        early.timeouts(finding_timeout, run_timeout)
        if watch or facts_paths:
            early.deliver(watch, options)
        else:
            early.stop("no finding inside a function to watch")
        seen = early.result()
    elif commands and (watch or facts_paths):
        seen = observe.run_commands(commands, watch, options, finding_timeout, run_timeout,
                                    jobs=jobs, facts_paths=facts_paths)
    elif commands:
        seen.runs = [observe.RunResult(c, cwd, "not run: no finding inside a function to watch",
                                       0.0) for c, cwd in commands]
    if sightings is not None:
        from jaxlint.runtime.sightings import sightings as read_sightings

        sightings.extend(read_sightings(seen.probe_events, ["/"]))
    if facts_events is not None and facts_paths:
        facts_events.extend(e for e in seen.probe_events if e.get("event") == "facts")
        # the commands that ran to their end (the notebooks' runs below record none)
        facts_events.append({"event": "ran", "commands": [
            r.command for r in seen.runs if procs.ran_to_end(r.status)]})
    # each notebook is a program: run it, cell by cell, with the recorder
    ran = [job.notebook for job in module_jobs if job.notebook is not None]
    if ran and watch:
        _merge(seen, observe.run_commands([(n.command, str(n.notebook.parent)) for n in ran],
                                          watch, options, finding_timeout, run_timeout,
                                          jobs=jobs), {n.command: n.label for n in ran})
    cache = observe.ObservationCache(cache_dir)
    virtual = {str(n.virtual) for n in ran}
    by_function: dict[tuple[str, str], list[dict]] = {}
    for w in watch:
        if w.get("module_level"):
            v = seen.verdicts.get(w["id"])
            if v is not None:
                j, i = (int(x) for x in w["id"].split(":")[:2])
                module_jobs[j].extra.setdefault(i, {})["run"] = v.to_dict()
            continue
        if "outer_of" in w:
            continue
        by_function.setdefault((w["file"], w["function"]), []).append(w)
    for (path, function), entries in by_function.items():
        obs = next((seen.observations[w["id"]] for w in entries
                    if w["id"] in seen.observations), None)
        fresh = {f"{w['code']}:{w['line']}": seen.verdicts[w["id"]].to_dict()
                 for w in entries if w["id"] in seen.verdicts}
        cached = None
        if path in virtual:
            pass  # a notebook's temporary module: run each time, nothing to keep
        elif obs is not None and "error" not in obs:
            cache.store(path, function, obs, fresh)
        else:
            cached = cache.load(path, function)
        for w in entries:
            j, i = (int(x) for x in w["id"].split(":"))
            extra: dict[str, Any] = {}
            if obs is not None and isinstance(obs.get("args"), list):
                extra["observed"] = {"args": obs["args"], "command": obs.get("command"),
                                     "kind": obs.get("kind")}
            elif cached is not None and isinstance(cached.get("args"), list):
                extra["observed"] = {"args": cached["args"], "command": cached.get("command"),
                                     "kind": cached.get("kind"), "cached": True}
            elif obs is not None:
                extra["observed"] = {"kind": obs.get("kind"), "command": obs.get("command")}
            if w["declared"]:
                extra["declared"] = True
            if w["id"] in seen.verdicts:
                extra["insitu"] = seen.verdicts[w["id"]].to_dict()
            elif cached is not None and (not isinstance(cached.get("args"), list)
                                         or w.get("callee")):
                # not portable (a method, a closure), or several calls replayed (a
                # module-level call's callee): the verdict checked in that run
                v = cached.get("verdicts", {}).get(f"{w['code']}:{w['line']}")
                if isinstance(v, dict):
                    verdict = Verdict.from_dict(v)
                    verdict.annotate("from the cached --run observation; the source has not "
                                     "changed since")
                    extra["insitu"] = verdict.to_dict()
                    extra.setdefault("observed", {"kind": cached.get("kind"),
                                                  "command": cached.get("command")})
            if obs is not None and "error" in obs and w["id"] not in seen.verdicts:
                extra["observe_error"] = obs["error"]
            if extra:
                module_jobs[j].extra.setdefault(i, {}).update(extra)
    return [dataclasses.asdict(r) for r in seen.runs]


def _merge(seen: Any, more: Any, labels: dict[str, str]) -> None:
    """Add what the notebooks' runs saw to what the --run commands saw."""
    seen.runs.extend(dataclasses.replace(r, command=labels.get(r.command, r.command))
                     for r in more.runs)
    for i, obs in more.observations.items():
        seen.observations.setdefault(i, obs)
    for i, v in more.verdicts.items():
        old = seen.verdicts.get(i)
        if old is None or _RANK[v.verdict] > _RANK[old.verdict]:
            seen.verdicts[i] = v


RECOMPILE_RULES = ("JAX501", "JAX504")  # their oracle may replay several observed calls
# findings outside any function that the --run itself can judge: an exception raised at
# the line, or compiles while it ran
RUN_ORACLE_RULES = ("JAX101", "JAX130", "JAX201", "JAX202", "JAX203", "JAX204", "JAX205",
                    "JAX206", "JAX207", "JAX208", "JAX209", "JAX210", "JAX501", "JAX504",
                    "JAX301", "JAX506", "JAX901", "JAX903", "JAX904", "JAX905", "JAX110")
STATEMENT_RULES = ("JAX121",)  # outside any function, the statement itself is checked
MAX_OBSERVED_CALLS = 4  # distinct signatures the recorder keeps per function


_RANK = RANK


def _callee_at(path: Path, line: int, column: int) -> Optional[tuple[str, int]]:
    """The module-level function called at (line, column), and the line its body
    starts on: ``power`` for ``power(x, n)`` in a ``__main__`` loop."""
    import ast

    from jaxlint.parse.lines import LineIndex

    text = _text(path)
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    byte_col = LineIndex(text).byte_col(line, column - 1)  # CPython's columns count UTF-8 bytes
    defs = {n.name: n.body[0].lineno for n in tree.body
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.body}
    best = None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in defs and node.end_lineno is not None \
                and (node.lineno, node.col_offset) <= (line, byte_col) \
                <= (node.end_lineno, node.end_col_offset or 0):
            if best is None or (node.lineno, node.col_offset) > (best.lineno, best.col_offset):
                best = node
    return (best.func.id, defs[best.func.id]) if best is not None else None


def _module_level_reason(job: ModuleJob, f: Finding) -> str:
    reason = "not inside a function: nothing to call"
    from jaxlint.runtime import observe
    from jaxlint.rules import all_rules  # the rules' own text (runtime.rules imports JAX)

    for rule in all_rules():
        if rule.code == f.code and rule.runtime_check.startswith("None:"):
            # no check at all: say why, not where the line is
            why = rule.runtime_check[len("None:"):].strip().rstrip(".")
            return f"no runtime check for {f.code}: {why}"

    if getattr(job, "notebook", None) is not None:  # the notebook itself was the run
        return reason if f.code not in RUN_ORACLE_RULES else (
            f"{reason}, and the notebook's run did not judge it (see how the run ended)")

    callee = _callee_at(job.path, f.line, f.col) if f.code in RECOMPILE_RULES else None
    if callee is not None:
        hint = observe.suggest_run(job.path, callee[0], job.root or job.path.parent)
        return (f"{reason}; a --run that makes this call lets the companion replay the calls "
                f"of `{callee[0]}`" + (f": try {hint}" if hint else ""))
    if f.code in RUN_ORACLE_RULES and "__main__" in _text(job.path):
        return (f"{reason}; a --run that runs this line is its check: try --run "
                f"\"{observe.script_command(job.path)}\"")
    return reason


def _failed_runs(runs: list[dict]) -> str:
    """The --run commands that did not end well, for a skip's reason: `` (`CMD` ended
    with exit status 1: its last line)``; empty when every command ran to its end."""
    failed = []
    for r in runs:
        status = str(r.get("status") or "")
        if not status or status == "ok" or status.startswith("not run"):
            continue
        from jaxlint.runtime.observe import last_line

        last = last_line(str(r.get("output_tail") or ""))
        failed.append(f"`{r.get('command')}` ended with {status}" + (f": {last[:160]}" if last else ""))
    return f" ({'; '.join(failed)})" if failed else ""


def _explain_skip(verdict: Verdict, job: ModuleJob, f: Finding, ran: list[str],
                  runs: Optional[list[dict]] = None) -> None:
    """A skip for want of inputs (or of a live object: a method, a nested function)
    says which --run would help (and how a --run that did not call it ended)."""
    if verdict.verdict != "skipped" or not (
            verdict.reason.startswith("no input for argument")
            or verdict.reason.endswith(("which the runtime cannot build",
                                        "only module-level functions and static methods can "
                                        "be called"))):
        return
    from jaxlint.runtime import observe

    extra = job.extra.get(job.findings.index(f), {})
    if extra.get("observe_error"):
        verdict.reason += f"; the recorder saw the call but failed: {extra['observe_error']}"
        return
    if getattr(job, "notebook", None) is not None:
        verdict.reason += "; the notebook's run did not call it"
        return
    root = job.root or job.path.parent
    hint = observe.suggest_run(job.path, f.function or "", root)
    if ran:
        verdict.reason += "; no --run command called it" + _failed_runs(runs or [])
    if hint and any(hint == f'--run "{c}"' for c in ran):
        hint = None  # the command that was run: suggesting it again helps nobody
    if hint:
        verdict.reason += f"; try {hint} (it calls `{(f.function or '').split('.')[0]}`)"


def run_runtime(results: list[FileResult], store, cli: RuntimeOptions, cli_set: set[str],
                mode: str = "confirm", jobs: Optional[int] = None,
                commands: Optional[list] = None, cache_dir: Optional[Path] = None,
                early: Any = None, facts_paths: Optional[list[str]] = None) -> RuntimeReport:
    """``commands``: (command, cwd) pairs from --run; the configurations' ``run``
    lists are added unless --run was given.  ``early``: those commands, already
    started by ``start_runs``."""
    report = RuntimeReport()
    commands = list(commands or [])
    if commands:
        cli_set = set(cli_set) | {"run"}
    workers = jobs or max(1, min(4, os.cpu_count() or 1))
    module_jobs: list[ModuleJob] = []
    seen_in_run: list = []  # what observe's probes saw during the --run commands
    try:
        module_jobs, report.errors = build_jobs(results, store, cli, cli_set, mode, commands)
        with ThreadPoolExecutor(max_workers=workers) as pool, procs.stopping():
            report.runs = _observe(module_jobs, cli, commands, cache_dir, mode, workers, early,
                                   seen_in_run, facts_paths, report.facts_events)
            outcomes = procs.gather([pool.submit(run_module, j, mode) for j in module_jobs])
    finally:
        if early is not None and not early.finished:  # stopped on the way: no leftovers
            early.stop("jaxlint stopped")
            early.result()
        for job in module_jobs:
            if job.notebook is not None:
                job.notebook.cleanup()
    by_path = {}
    missing: dict[str, list[ModuleJob]] = {}
    for job, (verdicts, pairs, env) in zip(module_jobs, outcomes):
        by_path[job.display] = (job, verdicts)
        report.pairs.extend(dict(p, path=job.display) for p in pairs)
        if env.get("jax_version"):
            report.environment = env
        if env.get("missing"):
            missing.setdefault(env["missing"], []).append(job)
        if env.get("backend_error") and env["backend_error"] not in report.errors:
            report.errors.append(env["backend_error"])
    for package, jobs_missing in sorted(missing.items()):
        count = sum(1 for job, (verdicts, _, _) in zip(module_jobs, outcomes)
                    if job in jobs_missing for v in verdicts.values()
                    if v.details.get("environment") == package)
        report.problems.append(environment_problem(package, jobs_missing, count))
    for r in results:
        entry = by_path.get(r.path)
        for i, f in enumerate(r.findings):
            verdict = entry[1].get(i) if entry else None
            if verdict is None:
                verdict = skipped("not run")
            elif entry is not None:
                _explain_skip(verdict, entry[0], entry[0].findings[i],  # (a notebook's: its lines)
                              [c[0] if isinstance(c, (tuple, list)) else str(c) for c in commands],
                              report.runs)
                if entry[0].notebook is not None:  # its lines back to the notebook's cells
                    verdict = notebooks.map_verdict(entry[0].notebook, verdict, f.cell)
            if seen_in_run:
                from jaxlint.runtime.sightings import confirmed_by

                verdict = confirmed_by(verdict, r.path, f, seen_in_run)
            report.findings.append(dataclasses.replace(f, runtime=verdict.to_dict()))
    report.findings.sort(key=lambda f: f.sort_key())
    return report
