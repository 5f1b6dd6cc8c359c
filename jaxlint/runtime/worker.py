"""The runtime worker: ``python -m jaxlint.runtime.worker`` < job.json.

It runs in its own process (the parent enforces the time limit and survives
crashes), imports the user's module, and writes one JSON object per line to
the ``events`` file named in the job:

    {"event": "imported"}                          the module imported
    {"event": "import-failed", "error": "..."}     it did not: nothing else follows
    {"event": "start", "id": N}                    a target is being checked
    {"event": "verdict", "id": N, "result": {...}} its verdict (and benchmark)
    {"event": "pair", "result": {...}}              a declared benchmark pair

The worker orchestrates: it builds the ``context``, looks the rule up in the
``rules`` table, runs the check (``checks``) and, for bench, the benchmark
(``bench``).  Checks and benchmarks do not import each other or this module.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import traceback
import types
from typing import Any, Optional

from jaxlint.runtime.verdicts import Verdict, first_line, memory_reason, over_memory, skipped


class _Events:
    def __init__(self, path: str) -> None:
        self._fh = open(path, "a", encoding="utf-8")

    def emit(self, **event: Any) -> None:
        self._fh.write(json.dumps(event, default=str) + "\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())


def _package_of(path: str) -> tuple[Optional[str], Optional[str]]:
    """(directory to put on sys.path, dotted package name) when ``path`` lies in
    a package (directories with ``__init__.py``), so relative imports work."""
    directory = os.path.dirname(os.path.abspath(path))
    parts: list[str] = []
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        parts.append(os.path.basename(directory))
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    if not parts:
        return None, None
    return directory, ".".join(reversed(parts))


def _import_module(path: str, name: str, source: Optional[str] = None,
                   notebook: Optional[dict] = None) -> types.ModuleType:
    """Import ``path`` as module ``name`` (from ``source`` when given: the fixed
    text).  A file inside a package is imported as part of it.  A notebook's
    virtual module is run cell by cell, a cell that raises does not stop the next
    (``jaxlint.runtime.notebooks``)."""
    if notebook is not None:
        from jaxlint.runtime.notebooks import run_cells

        module = types.ModuleType(name)
        module.__file__ = path
        sys.modules[name] = module
        run_cells(path, module.__dict__, int(notebook.get("first_cell", 1)), source)
        return module
    root, package = _package_of(path)
    if package is not None:
        if root not in sys.path:
            sys.path.insert(0, root)
        if source is None:
            stem = os.path.splitext(os.path.basename(path))[0]
            return importlib.import_module(package if stem == "__init__" else f"{package}.{stem}")
    if source is None:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot import {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    module = types.ModuleType(name)
    module.__file__ = path
    if package is not None:
        module.__package__ = package  # the fixed copy resolves `from .x import y` too
    sys.modules[name] = module
    exec(compile(source, path, "exec"), module.__dict__)
    return module


def check_target(ctx: Any, target: dict) -> Verdict:
    """Resolve the function, build its inputs, run the rule's check (and benchmark)."""
    from jaxlint.runtime.rules import NoCheck, lookup

    code = target["code"]
    entry = lookup(code)
    if entry is None:
        return skipped(f"no runtime check for {code}")
    if isinstance(entry, NoCheck):
        return skipped(f"no runtime check for {code}: {entry.reason}")
    insitu = target.get("insitu")
    if insitu is not None and ctx.declared_specs(target["function"]) is None:
        result = Verdict.from_dict(insitu)
        if ctx.mode == "bench" and result.verdict == "confirmed":
            short = target["function"].split(".")[-1]
            if not target.get("has_fix") and not (ctx.alternatives.get(target["function"])
                                                  or ctx.alternatives.get(short)):
                result.bench = {"skipped": "no automatic fix and no JAXLINT_ALTERNATIVES entry"}
            else:
                kind = (target.get("observed") or {}).get("kind") or "object"
                result.bench = {"skipped": f"checked inside the --run process, on a live {kind}: "
                                           "a fixed copy cannot be rebuilt around it"}
        return result
    t, err = ctx.resolve(target["function"])
    note = None
    if t is None and entry.trace_only and "nested function" in (err or ""):
        # a scan/cond body or other inner function: trace the module-level
        # function that defines it; the error must still come from the finding's line
        outer = target["function"].split(".")[0]
        t, _outer_err = ctx.resolve(outer)
        if t is not None:
            note = f"traced through the enclosing `{outer}`"
    if t is None:
        return skipped(err or "cannot find the function")
    observed = target.get("observed") if note is None else None
    args = None
    if observed is not None and ctx.declared_specs(t.qualname) is None:
        from jaxlint.runtime.observed import observed_args

        args = observed_args(ctx, t, observed)  # declared first, then observed
    if args is None:
        args, err = ctx.build_args(t)
    if args is None:
        return skipped(err or "cannot build its arguments")
    from jaxlint.runtime.checks import run_check

    result = run_check(entry.check, ctx, target, t, args)
    if result.inputs is None:
        result.inputs = list(args.described)
    if hasattr(args, "sharding_notes"):
        from jaxlint.runtime.observed import note_shardings

        note_shardings(result, args)
    if note is not None:
        result.annotate(note)
    if ctx.mode == "bench" and result.verdict == "confirmed":
        from jaxlint.runtime import bench

        result.bench = bench.bench_finding(ctx, target, t, args)
    return result


def check_statement(ctx: Any, target: dict) -> Verdict:
    """A finding outside any function whose rule can check the statement itself."""
    from jaxlint.runtime.checks import STATEMENT_CHECKS

    check = STATEMENT_CHECKS.get(target["code"])
    if check is None:
        return skipped("not inside a function: nothing to call")
    return check(ctx, target)


def _check_apis(job: dict, events: _Events, done: set) -> None:
    """Removed-API targets, before the module is imported (which they may stop)."""
    wanted = [t for t in job["targets"] if t.get("api") and t["id"] not in done]
    if not wanted:
        return
    from jaxlint.runtime.apicheck import check_api

    try:
        with open(job["path"], encoding="utf-8", errors="replace") as fh:
            source = fh.read()
    except OSError:
        return
    for target in wanted:
        events.emit(event="start", id=target["id"])
        try:
            result = check_api(source, target)
        except Exception as exc:  # noqa: BLE001
            result = skipped(f"internal error in the check: {exc.__class__.__name__}: "
                             f"{first_line(exc)}")
        if result is None:
            result = skipped("the finding spans no name the installed packages can look up")
        events.emit(event="verdict", id=target["id"], result=result.to_dict())
        done.add(target["id"])


def limit_memory(limit: int) -> None:
    """Cap this process's data memory (heap and anonymous mappings: what NumPy,
    JAX's CPU buffers and Python objects allocate) at ``limit`` bytes.  The address
    space is left alone: XLA reserves far more of it than it uses."""
    try:
        import resource

        _soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))
    except (ImportError, ValueError, OSError):  # pragma: no cover - not POSIX
        pass


def main() -> int:
    from jaxlint.runtime import procs

    procs.guard()
    try:
        return _main()
    finally:
        procs.reap()  # whatever the user's code started is gone when the worker ends


def _main() -> int:
    job = json.loads(sys.stdin.read())
    events = _Events(job["events"])
    for p in reversed(job.get("sys_path", [])):
        if p not in sys.path:
            sys.path.insert(0, p)
    if job.get("device"):
        os.environ["JAX_PLATFORMS"] = {"gpu": "cuda"}.get(job["device"], job["device"])
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    limit = int(job.get("memory_limit") or 0)
    if limit:
        limit_memory(limit)
    try:
        import jax  # noqa: F401
    except Exception as exc:  # noqa: BLE001
        error = f"{exc.__class__.__name__}: {first_line(exc)}"
        if over_memory(limit, error):
            events.emit(event="import-failed", error=memory_reason(limit), memory=True)
        else:
            events.emit(event="import-failed", error=f"JAX could not be imported: {error}")
        return 0
    try:
        jax.devices()
    except Exception as exc:  # noqa: BLE001 - e.g. --device gpu on a machine without one
        platforms = os.environ.get("JAX_PLATFORMS", "the default")
        why = first_line(exc) or f"no {platforms} device found ({exc.__class__.__name__} from jax.devices())"
        if first_line(exc):
            why = f"{exc.__class__.__name__}: {why}"
        # an error of the run, not of the module: every module meets it (exit status 2)
        events.emit(event="import-failed", backend=True,
                    error=f"JAX could not start the {platforms} backend "
                    f"(--device {job.get('device') or 'default'}): {why}")
        return 0
    done = set(job.get("skip_ids", []))
    _check_apis(job, events, done)  # the installed JAX answers them: no user code runs
    try:
        module = _import_module(job["path"], job["module_name"], notebook=job.get("notebook"))
    except BaseException as exc:  # noqa: BLE001 - user code may raise anything, even SystemExit
        error = f"{exc.__class__.__name__}: {first_line(exc)}"
        if over_memory(limit, error):
            events.emit(event="import-failed", error=memory_reason(limit), memory=True)
        elif isinstance(exc, ModuleNotFoundError) and exc.name:
            # a package missing here: an environment problem, reported once by the parent
            events.emit(event="import-failed", error=error, missing=exc.name.partition(".")[0])
        else:
            events.emit(event="import-failed", error=error, traceback=traceback.format_exc(limit=-3))
        return 0
    fixed = None
    fixed_error = None
    if job.get("fixed_source") is not None:
        try:
            fixed = _import_module(job["path"], job["module_name"] + "__jaxlint_fixed",
                                   job["fixed_source"], notebook=job.get("notebook"))
        except BaseException as exc:  # noqa: BLE001
            fixed_error = f"{exc.__class__.__name__}: {first_line(exc)}"
    events.emit(event="imported", device=str(jax.devices()[0].platform),
                jax_version=jax.__version__)

    from jaxlint.runtime.context import Context

    ctx = Context(job, module, fixed, fixed_error)
    for target in job["targets"]:
        if target["id"] in done or target.get("api"):
            continue
        events.emit(event="start", id=target["id"])
        try:
            result = check_statement(ctx, target) if target.get("statement") else \
                check_target(ctx, target)
        except Exception as exc:  # noqa: BLE001 - a bug in a check must not lose the others
            result = skipped(f"internal error in the check: {exc.__class__.__name__}: "
                             f"{first_line(exc)}")
        if over_memory(limit, result.evidence, result.reason, result.details):
            result = skipped(memory_reason(limit))
        events.emit(event="verdict", id=target["id"], result=result.to_dict())
    if job.get("mode") == "bench":
        from jaxlint.runtime import bench

        for slow, fast in ctx.unclaimed_pairs():
            key = f"pair:{slow}"
            if key in done:
                continue
            events.emit(event="start", id=key)
            try:
                pair = bench.bench_alternative(ctx, slow, fast)
            except Exception as exc:  # noqa: BLE001
                pair = {"error": f"{exc.__class__.__name__}: {first_line(exc)}"}
            events.emit(event="pair", id=key, result=pair)
    return 0


if __name__ == "__main__":
    sys.exit(main())
