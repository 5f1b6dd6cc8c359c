"""What checks and benchmarks share (imported in the worker only: this module imports JAX).

The resolved function (``Target``), its arguments (``Args``), the per-job
``Context``, compile counting, jaxpr helpers and output comparison.  The
worker builds these; ``checks`` and ``bench`` use them and never import each
other.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import logging
import os
import sysconfig
import re
from dataclasses import dataclass
from typing import Any, Callable, Optional

import jax
import jax.numpy as jnp
import numpy as np
from jax._src import core as _jcore

from jaxlint.runtime.specs import Spec, SpecError, parse_spec, spec_from_annotation


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
        """Declared inputs (config, then JAXLINT_INPUTS), else annotations and
        defaults.  (Observed inputs come between the two: the worker asks
        ``observed.observed_args`` when nothing is declared.)"""
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
                keyish = p.name.lower() in _KEY_NAMES or p.name.lower().endswith("_key")
                if spec is None and keyish:
                    spec = Spec("key", text="key (assumed from the name)")
                elif keyish and spec is not None and spec.text.endswith(", default size)"):
                    # `key: jax.Array`: the type of every array, keys too; the name says which
                    ann = spec.text[spec.text.index("(from annotation ") + 17:-len(", default size)")]
                    spec = Spec("key", text=f"key (annotated {ann}, a key by its name)")
            if spec is None:
                return None, (f"no input for argument `{p.name}`: run code that calls it "
                              "(--run), declare it in JAXLINT_INPUTS or [tool.jaxlint.runtime] "
                              "inputs, or annotate it")
            if spec.kind == "static":
                static.add(i)
            specs.append(spec)
            described.append(f"{p.name}: {spec.text}")
        return Args(specs, described, tuple(sorted(static)), self.seed), None

    def unclaimed_pairs(self) -> list[tuple[str, str]]:
        return [(a, b) for a, b in self.alternatives.items() if a not in self.claimed]

    # -- source lines

    def user_at(self, exc: BaseException) -> str:
        """Where ``exc`` left the checked module, for a reason: ``line 27``, and where
        it was raised when that is another file of the project (not an installed
        package's, Python's or jaxlint's): ``line 27 (raised at src/pkg/losses.py:7)``."""
        line = self.user_line(exc)
        here = f"line {line}"
        roots = [os.path.realpath(p) for p in self.job.get("sys_path", []) if p]
        installed = {os.path.realpath(p) for p in
                     (sysconfig.get_paths().get("purelib"), sysconfig.get_paths().get("platlib"),
                      sysconfig.get_paths().get("stdlib")) if p}
        package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # jaxlint's
        raised = None
        tb = exc.__traceback__
        while tb is not None:
            f = os.path.realpath(tb.tb_frame.f_code.co_filename)
            if f != self.path and any(f.startswith(r + os.sep) for r in roots) and not any(
                    f.startswith(p + os.sep) for p in (*installed, package)) \
                    and "site-packages" not in f and os.path.isfile(f):
                raised = (f, tb.tb_lineno)
            elif f == self.path:
                raised = None  # the innermost frame is the module's own
            tb = tb.tb_next
        if raised is None:
            return here
        shown = os.path.relpath(raised[0])
        if shown.startswith(".."):
            shown = raised[0]
        return f"{here} (raised at {shown}:{raised[1]})"

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


def _hashable(v: Any) -> bool:
    try:
        hash(v)
    except TypeError:
        return False
    return True


def static_value(args: Args, i: int) -> Any:
    values = getattr(args, "values", None)
    return values[i] if values is not None else args.specs[i].value


def _split_static(t: Target, args: Args) -> tuple[Callable, tuple[int, ...], dict[int, Any]]:
    """Static arguments that cannot be hashed (an observed list of layer sizes) are
    closed over instead of passed to ``static_argnums``."""
    bad = {i: static_value(args, i) for i in args.static
           if not _hashable(static_value(args, i))}
    if not bad:
        return t.raw, args.static, {}
    raw = t.raw

    def closed(*a):
        full = list(a)
        for i, v in bad.items():
            full[i] = v
        return raw(*full)

    functools.update_wrapper(closed, raw)
    return closed, tuple(i for i in args.static if i not in bad), bad


class _Closed:
    """A jitted function whose unhashable static arguments are closed over: the
    caller passes all arguments; those positions are replaced by None."""

    def __init__(self, fn: Any, bad: dict[int, Any]) -> None:
        self.fn, self.bad = fn, bad

    def _args(self, a: tuple) -> list:
        return [None if i in self.bad else x for i, x in enumerate(a)]

    def __call__(self, *a: Any) -> Any:
        return self.fn(*self._args(a))

    def trace(self, *a: Any) -> Any:
        return self.fn.trace(*self._args(a))

    def lower(self, *a: Any) -> Any:
        return self.fn.lower(*self._args(a))


def jitted(t: Target, args: Args) -> Callable:
    raw, static, bad = _split_static(t, args)
    f = jax.jit(raw, static_argnums=static)
    return _Closed(f, bad) if bad else f


def make_jaxpr(t: Target, args: Args, values: list) -> Any:
    raw, static, bad = _split_static(t, args)
    return jax.make_jaxpr(raw, static_argnums=static)(
        *[None if i in bad else v for i, v in enumerate(values)])


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


def subjaxprs(params: dict):
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
            for sub in subjaxprs(e.params):
                n += rec(sub)
        return n

    return len(j.eqns), rec(j)



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


@functools.lru_cache(maxsize=8)
def _module_tree(path: str) -> Any:
    import ast

    try:
        with open(path, encoding="utf-8") as fh:
            return ast.parse(fh.read(), path)
    except (OSError, SyntaxError, ValueError):
        return None


def _numbers(node: Any) -> list[float]:
    """The numbers a comparison in ``node`` compares with (``x > 1.0``: 1.0;
    ``-2 < x``: -2.0), in the order written."""
    import ast

    out: list[float] = []
    for cmp in ast.walk(node):
        if not isinstance(cmp, ast.Compare):
            continue
        for side in (cmp.left, *cmp.comparators):
            sign = 1.0
            if isinstance(side, ast.UnaryOp) and isinstance(side.op, (ast.USub, ast.UAdd)):
                sign = -1.0 if isinstance(side.op, ast.USub) else 1.0
                side = side.operand
            if isinstance(side, ast.Constant) and isinstance(side.value, (int, float)) \
                    and not isinstance(side.value, bool):
                out.append(sign * float(side.value))
    return out


def boundary_points(path: str, target: dict) -> list[float]:
    """Where a ``where``-like call's condition switches, for JAX120's gradient probe:
    0, then the numbers its condition compares with (``jnp.where(x > 1.0, ...)``:
    1.0), read from the calls around the finding whose first argument it is not."""
    import ast

    points = [0.0]
    tree = _module_tree(path)
    line = int(target.get("line") or 0)
    # where the finding starts and ends, 0-based columns as ast counts them
    start = (line, int(target.get("col") or 1) - 1)
    end = (int(target.get("end_line") or line), int(target.get("end_col") or 1) - 1)
    if tree is None or not line:
        return points

    def holds(node: Any) -> bool:
        return (node.lineno, node.col_offset) <= start and \
            end <= (node.end_lineno or node.lineno, node.end_col_offset or 0)

    calls = [node for node in ast.walk(tree)  # the finding in another argument than the first
             if isinstance(node, ast.Call) and node.args and holds(node) and not holds(node.args[0])]
    for call in calls:
        points += [v for v in _numbers(call.args[0]) if v not in points]
    return points[:5]


def is_floating(leaf: Any) -> bool:
    if isinstance(leaf, float):
        return True
    dtype = getattr(leaf, "dtype", None)
    try:
        return dtype is not None and bool(jnp.issubdtype(dtype, jnp.floating))
    except TypeError:  # a key's dtype, an object's
        return False


def has_floating(value: Any) -> bool:
    return any(is_floating(leaf) for leaf in jax.tree_util.tree_leaves(value))
