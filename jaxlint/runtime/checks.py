"""Per-rule runtime checks (imported by the worker only: this module imports JAX).

Every check classifies by exception *class* and by the line the user's frame
was on when it was raised, never by message text; the first line of JAX's
message is shown as evidence only.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import io
import logging
import os
import re
import sys
import time
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import jax
import jax.numpy as jnp
import numpy as np
from jax._src import core as _jcore

from jaxlint.runtime.specs import Spec, SpecError, parse_spec, spec_from_annotation
from jaxlint.runtime.worker import first_line

# ----------------------------------------------------------------------------- verdicts


def confirmed(evidence: str, **details: Any) -> dict[str, Any]:
    return {"verdict": "confirmed", "evidence": evidence, "details": details}


def not_reproduced(evidence: str, **details: Any) -> dict[str, Any]:
    return {"verdict": "not-reproduced", "evidence": evidence, "details": details}


def skipped(reason: str, **details: Any) -> dict[str, Any]:
    return {"verdict": "skipped", "reason": reason, "details": details}


def exc_name(exc: BaseException) -> str:
    cls = type(exc)
    if getattr(jax.errors, cls.__name__, None) is cls:
        return f"jax.errors.{cls.__name__}"
    if cls.__module__ == "builtins":
        return cls.__name__
    return f"{cls.__module__}.{cls.__name__}"


# ----------------------------------------------------------------------------- compile counter


class CompileCounter:
    """Counts backend compiles (and traces) per ``fun_name`` (jax.monitoring)."""

    def __init__(self) -> None:
        self.active = False
        self.compiles: dict[str, int] = {}
        self.traces: dict[str, int] = {}
        self.compile_secs = 0.0
        jax.monitoring.register_event_duration_secs_listener(self._listen)

    def _listen(self, event: str, duration: float, **kw: Any) -> None:
        if not self.active:
            return
        name = str(kw.get("fun_name"))
        if event == "/jax/core/compile/backend_compile_duration":
            self.compiles[name] = self.compiles.get(name, 0) + 1
            self.compile_secs += duration
        elif event == "/jax/core/compile/jaxpr_trace_duration":
            self.traces[name] = self.traces.get(name, 0) + 1

    @contextlib.contextmanager
    def counting(self):
        self.compiles, self.traces, self.compile_secs = {}, {}, 0.0
        self.active = True
        try:
            yield self
        finally:
            self.active = False

    source = ""  # the user's module text: compiles of names it never mentions are JAX's own

    def user_compiles(self) -> dict[str, int]:
        """Compiles of user functions (eager jnp ops compile little jits of their own)."""
        out = {}
        for k, v in self.compiles.items():
            name = k[4:-1] if k.startswith("jit(") and k.endswith(")") else k
            if name == "<lambda>" or (name.isidentifier() and re.search(
                    rf"\b{re.escape(name)}\b", self.source)):
                out[k] = v
        return out


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.messages.append(record.getMessage())
        except Exception:  # noqa: BLE001
            pass


@contextlib.contextmanager
def cache_miss_log():
    handler = _Records()
    logger = logging.getLogger("jax")
    logger.addHandler(handler)
    try:
        with jax.explain_cache_misses(True):
            yield handler.messages
    finally:
        logger.removeHandler(handler)


# ----------------------------------------------------------------------------- functions and args


@dataclass
class Target:
    """A user function, resolved: ``obj`` as the module holds it, ``raw`` the Python function."""

    qualname: str
    obj: Any
    raw: Callable
    jitted: bool
    static_argnums: tuple[int, ...] = ()


@dataclass
class Args:
    specs: list[Spec]
    described: list[str]
    static: tuple[int, ...]
    seed: int = 0
    _concrete: Optional[list] = None

    def abstract(self, typed_keys: bool = False) -> list:
        out = []
        for s in self.specs:
            if s.kind == "array":
                out.append(jax.ShapeDtypeStruct(s.shape, jnp.dtype(s.dtype)))
            elif s.kind == "key" or (s.kind == "legacy-key" and typed_keys):
                out.append(jax.ShapeDtypeStruct((), jax.random.key(0).dtype))
            elif s.kind == "legacy-key":
                out.append(jax.ShapeDtypeStruct((2,), jnp.uint32))
            else:
                out.append(s.value)
        return out

    def concrete(self, typed_keys: bool = False) -> list:
        rng = np.random.default_rng(self.seed)
        out = []
        for i, s in enumerate(self.specs):
            if s.kind == "array":
                dt = np.dtype(s.dtype) if s.dtype != "bfloat16" else np.float32
                if np.issubdtype(dt, np.floating) or np.issubdtype(dt, np.complexfloating):
                    arr = rng.standard_normal(s.shape).astype(np.float32)
                elif dt == np.bool_:
                    arr = rng.random(s.shape) > 0.5
                else:
                    arr = rng.integers(0, 4, size=s.shape)
                out.append(jnp.asarray(arr, dtype=jnp.dtype(s.dtype)))
            elif s.kind == "key" or (s.kind == "legacy-key" and typed_keys):
                out.append(jax.random.key(self.seed + i))
            elif s.kind == "legacy-key":
                out.append(jax.random.PRNGKey(self.seed + i))
            else:
                out.append(s.value)
        return out

    def dynamic_positions(self) -> list[int]:
        return [i for i in range(len(self.specs)) if i not in self.static]


_KEY_NAMES = ("key", "rng", "prng", "rng_key", "prng_key", "subkey")


class Context:
    """One worker job: the module, its fixed twin, declared inputs, counters."""

    def __init__(self, job: dict, module: Any, fixed: Any, fixed_error: Optional[str]) -> None:
        self.job = job
        self.path = os.path.realpath(job["path"])
        self.module = module
        self.fixed = fixed
        self.fixed_error = fixed_error
        opts = job.get("options", {})
        self.default_dim = int(opts.get("default_dim", 8))
        self.runs = int(opts.get("runs", 20))
        self.seed = int(opts.get("seed", 0))
        self.max_unrolled = int(opts.get("max_unrolled_loop", 64))
        self.mode = job.get("mode", "confirm")
        self.config_inputs: dict[str, list[str]] = job.get("inputs", {})
        self.module_inputs = getattr(module, "JAXLINT_INPUTS", None) or {}
        alts = getattr(module, "JAXLINT_ALTERNATIVES", None) or {}
        self.alternatives = {str(k): str(v) for k, v in alts.items()} if isinstance(alts, dict) else {}
        self.claimed: set[str] = set()
        self.counter = CompileCounter()
        try:
            with open(self.path, encoding="utf-8", errors="replace") as fh:
                self.counter.source = job.get("fixed_source") or ""
                self.counter.source += fh.read()
        except OSError:
            pass

    # -- functions

    def resolve(self, qualname: str, module: Any = None) -> tuple[Optional[Target], Optional[str]]:
        module = module or self.module
        obj: Any = module
        owner: Any = None
        parts = qualname.split(".")
        for i, part in enumerate(parts):
            if not hasattr(obj, part):
                if i > 0 and inspect.isfunction(inspect.unwrap(obj)):
                    return None, (f"`{qualname}` is a nested function: only module-level "
                                  "functions and static methods can be called")
                return None, f"`{qualname}` is not an attribute of the imported module"
            owner = obj
            obj = getattr(obj, part)
        if inspect.isclass(owner):
            static = inspect.getattr_static(owner, parts[-1], None)
            if not isinstance(static, staticmethod):
                return None, (f"`{qualname}` is a method: it needs an instance of "
                              f"`{owner.__name__}`, which the runtime cannot build")
        if not callable(obj):
            return None, f"`{qualname}` is not callable"
        jit_info = getattr(obj, "_jit_info", None)
        raw = getattr(obj, "__wrapped__", None) if jit_info is not None else None
        if jit_info is not None and raw is not None:
            static = set(jit_info.static_argnums or ())
            try:
                names = list(inspect.signature(raw).parameters)
                static |= {names.index(n) for n in (jit_info.static_argnames or ()) if n in names}
            except (TypeError, ValueError):
                pass
            return Target(qualname, obj, raw, True, tuple(sorted(static))), None
        return Target(qualname, obj, obj, False), None

    def declared_specs(self, qualname: str) -> Optional[tuple[list[str], str]]:
        if qualname in self.config_inputs:
            return self.config_inputs[qualname], "[tool.jaxlint.runtime] inputs"
        if isinstance(self.module_inputs, dict) and qualname in self.module_inputs:
            return list(self.module_inputs[qualname]), "JAXLINT_INPUTS"
        short = qualname.split(".")[-1]
        if isinstance(self.module_inputs, dict) and short in self.module_inputs:
            return list(self.module_inputs[short]), "JAXLINT_INPUTS"
        return None

    def build_args(self, t: Target) -> tuple[Optional[Args], Optional[str]]:
        try:
            sig = inspect.signature(t.raw)
        except (TypeError, ValueError):
            return None, "its signature cannot be read"
        params = [p for p in sig.parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        declared = self.declared_specs(t.qualname)
        specs: list[Spec] = []
        described: list[str] = []
        static: set[int] = set(t.static_argnums)
        if declared is not None:
            texts, source = declared
            try:
                for text in texts:
                    specs.append(parse_spec(text, self.default_dim))
            except SpecError as exc:
                return None, f"bad input spec in {source}: {exc}"
            for i, s in enumerate(specs):
                name = params[i].name if i < len(params) else f"arg{i}"
                described.append(f"{name}: {s.text} ({source})")
                if s.kind == "static":
                    static.add(i)
            missing = [p for p in params[len(specs):] if p.default is p.empty]
            if missing:
                return None, (f"{source} gives {len(specs)} inputs but `{missing[0].name}` "
                              "has no default")
            return Args(specs, described, tuple(sorted(static)), self.seed), None
        for i, p in enumerate(params):
            spec = None
            if i in static:
                if p.default is p.empty:
                    return None, (f"needs a value for static argument `{p.name}`: declare it "
                                  "(JAXLINT_INPUTS or [tool.jaxlint.runtime] inputs, 'static:VALUE')")
                spec = Spec("static", value=p.default, text=f"static:{p.default!r} (default)")
            else:
                spec = spec_from_annotation(p.annotation if p.annotation is not p.empty else None,
                                            self.default_dim)
                if spec is None and p.default is not p.empty:
                    d = p.default
                    if isinstance(d, (int, float)) and not isinstance(d, bool) and t.jitted:
                        kind = "float32" if isinstance(d, float) else "int32"
                        spec = Spec("array", dtype=kind, shape=(),
                                    text=f"{kind[0]}{kind[-2:]}[] (default {d!r}, traced by jit)")
                    else:
                        spec = Spec("static", value=d, text=f"static:{d!r} (default)")
                        static.add(i)
                if spec is None and p.name.lower() in _KEY_NAMES or (
                        spec is None and p.name.lower().endswith("_key")):
                    spec = Spec("key", text="key (assumed from the name)")
            if spec is None:
                return None, (f"no input for argument `{p.name}`: declare it in JAXLINT_INPUTS "
                              "or [tool.jaxlint.runtime] inputs, or annotate it")
            if spec.kind == "static":
                static.add(i)
            specs.append(spec)
            described.append(f"{p.name}: {spec.text}")
        return Args(specs, described, tuple(sorted(static)), self.seed), None

    def unclaimed_pairs(self) -> list[tuple[str, str]]:
        return [(a, b) for a, b in self.alternatives.items() if a not in self.claimed]

    # -- source lines

    def user_line(self, exc: BaseException) -> Optional[int]:
        line = None
        tb = exc.__traceback__
        while tb is not None:
            if os.path.realpath(tb.tb_frame.f_code.co_filename) == self.path:
                line = tb.tb_lineno
            tb = tb.tb_next
        return line


def in_span(line: Optional[int], target: dict) -> bool:
    return line is not None and target["line"] <= line <= max(target["end_line"], target["line"])


def jitted(t: Target, args: Args) -> Callable:
    return jax.jit(t.raw, static_argnums=args.static)


def bind_static(fn: Callable, args: Args, values: list) -> tuple[Callable, list]:
    """A function of the dynamic arguments only (static ones bound), and those arguments."""
    dyn = args.dynamic_positions()
    fixed = {i: values[i] for i in args.static}

    def bound(*dyn_values):
        full = [None] * len(values)
        for i, v in fixed.items():
            full[i] = v
        for i, v in zip(dyn, dyn_values):
            full[i] = v
        return fn(*full)

    functools.update_wrapper(bound, fn)
    return bound, [values[i] for i in dyn]


# ----------------------------------------------------------------------------- jaxpr helpers


def _subjaxprs(params: dict):
    for v in params.values():
        items = v if isinstance(v, (list, tuple)) else [v]
        for it in items:
            if isinstance(it, _jcore.ClosedJaxpr):
                yield it.jaxpr
            elif isinstance(it, _jcore.Jaxpr):
                yield it


def count_eqns(jaxpr) -> tuple[int, int]:
    """(top-level equations, equations counted recursively into sub-jaxprs)."""
    j = getattr(jaxpr, "jaxpr", jaxpr)

    def rec(jx) -> int:
        n = 0
        for e in jx.eqns:
            n += 1
            for sub in _subjaxprs(e.params):
                n += rec(sub)
        return n

    return len(j.eqns), rec(j)


def _eqn_line(eqn, path: str) -> Optional[int]:
    from jax._src import source_info_util as siu

    try:
        frame = siu.user_frame(eqn.source_info.traceback)
    except Exception:  # noqa: BLE001
        return None
    if frame is None or os.path.realpath(frame.file_name) != path:
        return None
    return frame.start_line


def dead_updates(jaxpr, path: str) -> list[tuple[str, Optional[int]]]:
    """Scatter / dynamic_update_slice equations whose results nothing uses."""
    found: list[tuple[str, Optional[int]]] = []

    def rec(jx) -> None:
        used = {id(v) for v in jx.outvars}
        for e in jx.eqns:
            used |= {id(v) for v in e.invars}
        for e in jx.eqns:
            name = e.primitive.name
            if ("scatter" in name or name == "dynamic_update_slice") and all(
                    id(v) not in used for v in e.outvars):
                found.append((name, _eqn_line(e, path)))
            for sub in _subjaxprs(e.params):
                rec(sub)

    rec(getattr(jaxpr, "jaxpr", jaxpr))
    return found


def leaves_close(a: Any, b: Any) -> Optional[bool]:
    try:
        la, lb = jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)
        if len(la) != len(lb):
            return False
        for x, y in zip(la, lb):
            if hasattr(x, "dtype") and jnp.issubdtype(x.dtype, jax.dtypes.prng_key):
                x, y = jax.random.key_data(x), jax.random.key_data(y)
            x, y = np.asarray(x), np.asarray(y)
            if x.shape != y.shape or not np.allclose(x, y, rtol=1e-4, atol=1e-5, equal_nan=True):
                return False
        return True
    except Exception:  # noqa: BLE001
        return None


# ----------------------------------------------------------------------------- checks

TRACE_ERROR_RULES = {
    "JAX101": (TypeError,),
    "JAX201": (jax.errors.ConcretizationTypeError, jax.errors.TracerIntegerConversionError),
    # shapes from tracers raise a builtin TypeError ("Shapes must be 1D sequences
    # of concrete values"), traced slice bounds an IndexError; the line must match
    "JAX202": (jax.errors.ConcretizationTypeError, jax.errors.TracerIntegerConversionError,
               jax.errors.TracerArrayConversionError, TypeError, IndexError),
    "JAX203": (TypeError,),
}
_TRACE_FAMILY = (jax.errors.JAXTypeError, jax.errors.JAXIndexError, TypeError, ValueError,
                 IndexError)


def check_trace_error(ctx: Context, target: dict, t: Target, args: Args) -> dict:
    expected = TRACE_ERROR_RULES.get(target["code"], _TRACE_FAMILY)
    jax.clear_caches()
    try:
        traced = jitted(t, args).trace(*args.abstract())
    except Exception as exc:  # noqa: BLE001
        line = ctx.user_line(exc)
        ev = f"{exc_name(exc)} at line {line}: {first_line(exc)}"
        if isinstance(exc, expected) and in_span(line, target):
            return confirmed(ev, exception=exc_name(exc), line=line, message=first_line(exc),
                             how="jax.jit(f).trace(abstract inputs)")
        return skipped(f"tracing stopped elsewhere: {ev}", exception=exc_name(exc), line=line)
    eqns = count_eqns(traced.jaxpr)[0]
    return not_reproduced(f"traced without error ({eqns} jaxpr equations)")


def check_dead_update(ctx: Context, target: dict, t: Target, args: Args) -> dict:
    try:
        jaxpr = jax.make_jaxpr(t.raw, static_argnums=args.static)(*args.abstract())
    except Exception as exc:  # noqa: BLE001
        return skipped(f"tracing failed: {exc_name(exc)} at line {ctx.user_line(exc)}: "
                       f"{first_line(exc)}")
    dead = [(n, line) for n, line in dead_updates(jaxpr, ctx.path) if in_span(line, target)]
    if dead:
        name, line = dead[0]
        return confirmed(f"the `{name}` built at line {line} is dead code in the jaxpr: its "
                         "result is never used, so the update is discarded",
                         primitive=name, line=line)
    return not_reproduced("every update in the jaxpr is used")


def check_float64(ctx: Context, target: dict, t: Target, args: Args) -> dict:
    jax.clear_caches()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            traced = jitted(t, args).trace(*args.abstract())
        except Exception as exc:  # noqa: BLE001
            return skipped(f"tracing failed: {exc_name(exc)}: {first_line(exc)}")
    dtypes = sorted({str(s.dtype) for s in jax.tree_util.tree_leaves(traced.out_info)})
    hits = [w for w in caught if os.path.realpath(w.filename) == ctx.path
            and in_span(w.lineno, target)]
    x64 = bool(jax.config.jax_enable_x64)
    if hits and not x64:
        w = hits[0]
        return confirmed(f"{w.category.__name__} at line {w.lineno}: "
                         f"{str(w.message).splitlines()[0]}; outputs: {', '.join(dtypes)}",
                         output_dtypes=dtypes, line=w.lineno, x64=x64)
    return not_reproduced(f"outputs: {', '.join(dtypes)} (jax_enable_x64={x64})",
                          output_dtypes=dtypes, x64=x64)


_RANDOM_FUNCS = ("normal", "uniform", "split", "fold_in", "bernoulli", "randint", "choice",
                 "permutation", "categorical", "gumbel", "truncated_normal", "exponential",
                 "gamma", "beta", "poisson", "bits", "laplace", "logistic", "cauchy",
                 "dirichlet", "multivariate_normal", "rademacher", "orthogonal", "ball",
                 "maxwell", "t", "chisquare", "binomial", "geometric", "loggamma", "pareto",
                 "weibull_min", "triangular", "wald", "double_sided_maxwell", "generalized_normal")


@contextlib.contextmanager
def _typed_random(ctx: Context, sites: Optional[dict] = None):
    """PRNGKey -> key (so the checker sees keys made inside the function), and
    optionally record which line consumed which key object."""
    r = jax.random
    saved = {"PRNGKey": r.PRNGKey}
    r.PRNGKey = r.key  # type: ignore[assignment]
    g_saved = {}
    for modname, g in (("module", ctx.module.__dict__),):
        if g.get("PRNGKey") is saved["PRNGKey"]:
            g_saved["PRNGKey"] = g["PRNGKey"]
            g["PRNGKey"] = r.key
    if sites is not None:
        for name in _RANDOM_FUNCS:
            fn = getattr(r, name, None)
            if fn is None:
                continue
            saved[name] = fn

            def wrapper(*a, __fn=fn, __name=name, **k):
                frame = sys._getframe(1)
                if a and os.path.realpath(frame.f_code.co_filename) == ctx.path:
                    sites.setdefault(id(a[0]), []).append((frame.f_lineno, __name))
                return __fn(*a, **k)

            setattr(r, name, wrapper)
    try:
        yield
    finally:
        for name, fn in saved.items():
            setattr(r, name, fn)
        ctx.module.__dict__.update(g_saved)


def check_key_reuse(ctx: Context, target: dict, t: Target, args: Args) -> dict:
    from jax.experimental.key_reuse._core import check_key_reuse as _check

    substituted = any(s.kind == "legacy-key" for s in args.specs)
    note = " (legacy uint32 keys replaced by typed keys)" if substituted else ""
    fn, dyn = bind_static(t.raw, args, args.abstract(typed_keys=True))
    with _typed_random(ctx):
        try:
            _check(fn, *dyn)
        except jax.errors.KeyReuseError as exc:
            result = confirmed(f"KeyReuseError from check_key_reuse{note}: {first_line(exc)}",
                               exception="jax.errors.KeyReuseError", message=first_line(exc),
                               typed_key_substituted=substituted)
        except Exception as exc:  # noqa: BLE001
            return skipped(f"the key-reuse checker could not trace it: {exc_name(exc)} at line "
                           f"{ctx.user_line(exc)}: {first_line(exc)}")
        else:
            return not_reproduced(f"check_key_reuse found no reuse{note}")
    # evidence: the two use sites, from an eager run under jax.debug_key_reuse(True)
    sites: dict[int, list] = {}
    with _typed_random(ctx, sites):
        try:
            with jax.debug_key_reuse(True):
                t.raw(*args.concrete(typed_keys=True))
        except jax.errors.KeyReuseError as exc:
            line = ctx.user_line(exc)
            for uses in sites.values():
                lines = [ln for ln, _ in uses]
                if line in lines and lines.index(line) > 0:
                    first_use = uses[0]
                    second = uses[lines.index(line)]
                    result["evidence"] += (f"; key consumed by `{first_use[1]}` at line "
                                           f"{first_use[0]}, then again by `{second[1]}` at "
                                           f"line {second[0]}")
                    result["details"]["use_sites"] = [first_use[0], second[0]]
                    break
            else:
                if line is not None:
                    result["evidence"] += f"; reused at line {line}"
                    result["details"]["use_sites"] = [None, line]
        except Exception:  # noqa: BLE001 - the static check already confirmed it
            pass
    return result


def check_impurity(ctx: Context, target: dict, t: Target, args: Args) -> dict:
    # 1. leaked tracers (globals, appends, attributes)
    jax.clear_caches()
    try:
        with jax.checking_leaks():
            jitted(t, args).trace(*args.abstract())
    except Exception as exc:  # noqa: BLE001
        if type(exc) is Exception:  # the leak checker raises a bare Exception
            return confirmed(f"jax.checking_leaks: {first_line(exc)}", check="checking_leaks")
        if not isinstance(exc, _TRACE_FAMILY):
            return skipped(f"tracing failed: {exc_name(exc)}: {first_line(exc)}")
    # 2. side effects that run at trace time only: output and module globals
    jax.clear_caches()
    snapshot = _globals_snapshot(ctx.module)
    f = jitted(t, args)
    outputs = []
    try:
        for _ in range(2):
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                jax.block_until_ready(f(*args.concrete()))
            outputs.append(buf.getvalue().count("\n"))
    except Exception as exc:  # noqa: BLE001
        return skipped(f"calling it failed: {exc_name(exc)} at line {ctx.user_line(exc)}: "
                       f"{first_line(exc)}")
    changed = sorted(k for k, v in _globals_snapshot(ctx.module).items()
                     if k not in snapshot or snapshot[k] != v)
    if outputs[0] != outputs[1]:
        return confirmed(f"side effect ran at trace time only: {outputs[0]} line(s) printed on "
                         f"the first call, {outputs[1]} on the second", printed=outputs)
    if changed:
        return confirmed(f"module globals changed by the calls: {', '.join(changed)}",
                         globals_changed=changed)
    return not_reproduced(f"no leak; {outputs[0]} line(s) printed on each call; globals unchanged")


def _globals_snapshot(module: Any) -> dict[str, str]:
    out = {}
    for k, v in vars(module).items():
        if k.startswith("__") or inspect.ismodule(v) or inspect.isclass(v) or callable(v):
            continue
        try:
            out[k] = f"{type(v).__name__}:{v!r}"[:200]
        except Exception:  # noqa: BLE001
            continue
    return out


def check_grad_nan(ctx: Context, target: dict, t: Target, args: Args) -> dict:
    values = args.concrete()
    pos = next((i for i in args.dynamic_positions() if args.specs[i].kind == "array"
                and jnp.issubdtype(jnp.dtype(args.specs[i].dtype), jnp.floating)), None)
    if pos is None:
        return skipped("no floating-point argument to differentiate")
    values[pos] = jnp.zeros_like(values[pos])
    fn, dyn = bind_static(t.raw, args, values)
    k = args.dynamic_positions().index(pos)

    def scalar(*a):
        return jnp.sum(fn(*a))

    try:
        value = scalar(*dyn)
        grad = jax.grad(scalar, argnums=k)(*dyn)
    except Exception as exc:  # noqa: BLE001
        return skipped(f"jax.grad failed: {exc_name(exc)}: {first_line(exc)}")
    nans = int(jnp.isnan(grad).sum())
    if nans and not bool(jnp.isnan(value)):
        return confirmed(f"jax.grad at the boundary point (argument {pos} = 0) has {nans} NaN "
                         f"value(s) while the function value is finite ({float(value):.4g})",
                         nan_count=nans)
    return not_reproduced(f"jax.grad at argument {pos} = 0 is finite")


def check_out_of_bounds(ctx: Context, target: dict, t: Target, args: Args) -> dict:
    from jax.experimental import checkify

    fn, dyn = bind_static(t.raw, args, args.concrete())
    try:
        err, _ = checkify.checkify(fn, errors=checkify.index_checks)(*dyn)
    except Exception as exc:  # noqa: BLE001
        return skipped(f"checkify failed: {exc_name(exc)}: {first_line(exc)}")
    msg = err.get()
    if msg:
        return confirmed(f"checkify(index_checks): {msg.strip().splitlines()[0]}")
    return not_reproduced("checkify(index_checks) found no out-of-bounds index on seeded inputs")


def check_recompiles(ctx: Context, target: dict, t: Target, args: Args) -> dict:
    jax.clear_caches()
    call = t.obj if not t.jitted else jitted(t, args)
    values = args.concrete()
    try:
        with cache_miss_log() as log, ctx.counter.counting() as c:
            jax.block_until_ready(call(*values))
    except Exception as exc:  # noqa: BLE001
        return skipped(f"calling it failed: {exc_name(exc)} at line {ctx.user_line(exc)}: "
                       f"{first_line(exc)}")
    counts = c.user_compiles()
    repeated = {k: v for k, v in counts.items() if v > 1}
    explanation = _explanation(log)
    if repeated:
        name, n = max(repeated.items(), key=lambda kv: kv[1])
        return confirmed(f"{name} compiled {n} times in one call of `{t.qualname}`"
                         + (f"; explain_cache_misses: {explanation}" if explanation else ""),
                         compiles=counts, explanation=explanation)
    return not_reproduced(f"no function compiled more than once ({counts or 'no compiles'})",
                          compiles=counts)


def _explanation(log: list[str]) -> str:
    for message in reversed(log):  # the last miss says why a known function retraced
        lines = [ln.strip() for ln in message.splitlines() if ln.strip()]
        if lines and lines[0].startswith("TRACING CACHE MISS") and len(lines) > 1:
            return " / ".join(lines[1:4])
    return ""


def check_unrolled(ctx: Context, target: dict, t: Target, args: Args) -> dict:
    try:
        jaxpr = jax.make_jaxpr(t.raw, static_argnums=args.static)(*args.abstract())
    except Exception as exc:  # noqa: BLE001
        return skipped(f"tracing failed: {exc_name(exc)}: {first_line(exc)}")
    top, total = count_eqns(jaxpr)
    details: dict[str, Any] = {"eqns": top, "eqns_recursive": total}
    growth = ""
    ints = [i for i in args.static if isinstance(args.specs[i].value, int)
            and not isinstance(args.specs[i].value, bool) and args.specs[i].value >= 4]
    if ints:
        i = ints[0]
        half = args.specs[i].value // 2
        values = args.abstract()
        values[i] = half
        try:
            top2, _ = count_eqns(jax.make_jaxpr(t.raw, static_argnums=args.static)(*values))
            details["eqns_at_half"] = {"n": half, "eqns": top2}
            growth = f" ({top2} at {half})"
        except Exception:  # noqa: BLE001
            pass
    if top > ctx.max_unrolled or (ints and details.get("eqns_at_half", {}).get("eqns", top) < top / 1.5):
        return confirmed(f"{top} jaxpr equations{growth}: the Python loop is unrolled into "
                         "the program", **details)
    return not_reproduced(f"{top} jaxpr equations{growth}", **details)


def check_baked(ctx: Context, target: dict, t: Target, args: Args) -> dict:
    """Host randomness baked in at trace time: the jitted output repeats, the eager one varies."""
    values = args.concrete()
    f = jitted(t, args)
    try:
        a, b = f(*values), f(*values)
        with jax.disable_jit():
            c, d = t.raw(*values), t.raw(*values)
    except Exception as exc:  # noqa: BLE001
        return skipped(f"calling it failed: {exc_name(exc)}: {first_line(exc)}")
    if leaves_close(a, b) and leaves_close(c, d) is False:
        return confirmed("two jitted calls on the same inputs return identical outputs while "
                         "two eager calls (jax.disable_jit) differ: the host random numbers "
                         "were drawn once, at trace time")
    return not_reproduced("jitted and eager calls behave alike")


def check_runtime_error(ctx: Context, target: dict, t: Target, args: Args) -> dict:
    """Run it (concretely); an exception at the flagged line confirms (donated buffers...)."""
    try:
        jax.block_until_ready(t.obj(*args.concrete()))
    except Exception as exc:  # noqa: BLE001
        line = ctx.user_line(exc)
        ev = f"{exc_name(exc)} at line {line}: {first_line(exc)}"
        if in_span(line, target):
            return confirmed(ev, exception=exc_name(exc), line=line)
        return skipped(f"it raised elsewhere: {ev}")
    return not_reproduced("ran without error on seeded inputs")


def pick_check(code: str) -> Optional[Callable]:
    from jaxlint.runtime.rules import check_name

    name = check_name(code)
    return globals()[f"check_{name}"] if name else None


# the original cannot run for these: benchmark the fixed version only
RAISING_RULES = ("JAX101", "JAX2")


def check_target(ctx: Context, target: dict) -> dict:
    code = target["code"]
    check = pick_check(code)
    if check is None:
        return skipped(f"no runtime check for {code}")
    t, err = ctx.resolve(target["function"])
    note = None
    if t is None and check is check_trace_error and "nested function" in (err or ""):
        # a scan/cond body or other inner function: trace the module-level
        # function that defines it; the error must still come from the finding's line
        outer = target["function"].split(".")[0]
        t, outer_err = ctx.resolve(outer)
        if t is not None:
            note = f"traced through the enclosing `{outer}`"
    if t is None:
        return skipped(err or "cannot find the function")
    args, err = ctx.build_args(t)
    if args is None:
        return skipped(err or "cannot build its arguments")
    result = check(ctx, target, t, args)
    result["inputs"] = args.described
    if note is not None:
        key = "evidence" if "evidence" in result else "reason"
        result[key] = f"{result.get(key, '')} ({note})".strip()
    if ctx.mode == "bench" and result["verdict"] == "confirmed":
        from jaxlint.runtime import bench

        result["bench"] = bench.bench_finding(ctx, target, t, args)
    return result


def bench_pair(ctx: Context, slow: str, fast: str) -> dict:
    from jaxlint.runtime import bench

    return bench.bench_alternative(ctx, slow, fast)
