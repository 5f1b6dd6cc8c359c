"""Per-rule runtime checks (imported by the worker only: this module imports JAX).

Every check classifies by exception *class* and by the line the user's frame
was on when it was raised, never by message text; the first line of JAX's
message is shown as evidence only.  Each check returns a ``Verdict``; which
rule uses which check is the table in ``rules.py``.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import types
import io
import os
import sys
import warnings
from typing import Any, Optional

import jax
import jax.numpy as jnp

from jaxlint.runtime.context import (Args, Context, Target, bind_static, boundary_points, cache_miss_log,
                                     has_floating, is_floating,
                                     count_eqns, exc_name, in_span, jitted, leaves_close,
                                     make_jaxpr, subjaxprs)
from jaxlint.runtime.observed import observed_values, signature
from jaxlint.runtime.verdicts import (Verdict, confirmed, first_line, not_exercised,
                                      not_reproduced, skipped)


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
            for sub in subjaxprs(e.params):
                rec(sub)

    rec(getattr(jaxpr, "jaxpr", jaxpr))
    return found



# ----------------------------------------------------------------------------- checks

TRACE_ERROR_RULES = {
    # item assignment: TypeError; jnp.put and the other in-place writers without
    # inplace=False: ValueError (fill_diagonal: NotImplementedError)
    "JAX101": (TypeError, ValueError, NotImplementedError),
    "JAX201": (jax.errors.ConcretizationTypeError, jax.errors.TracerIntegerConversionError),
    # shapes from tracers raise a builtin TypeError ("Shapes must be 1D sequences
    # of concrete values"), traced slice bounds an IndexError; the line must match
    "JAX202": (jax.errors.ConcretizationTypeError, jax.errors.TracerIntegerConversionError,
               jax.errors.TracerArrayConversionError, TypeError, IndexError),
    "JAX203": (TypeError,),
}
TRACE_FAMILY = (jax.errors.JAXTypeError, jax.errors.JAXIndexError, TypeError, ValueError,
                IndexError)


def check_trace_error(ctx: Context, target: dict, t: Target, args: Args) -> Verdict:
    result = _trace_error(ctx, target, t, args)
    if target["code"] != "JAX101" or result.verdict == "confirmed" \
            or result.details.get("line") is None:
        return result
    # an item assignment at a later line of a function that stopped earlier: the other
    # writes are let through (they raise the same TypeError, and a skipped write leaves
    # every shape as it was), first under jit, then called as written (eagerly: a
    # function the program never jits, or one that cannot trace for another reason)
    for eager in (False, True):
        with _writes_skipped(ctx, target) as skipped_at:
            again = _trace_error(ctx, target, t, args) if not eager else \
                _call_error(ctx, target, t, args)
        if again.verdict == "confirmed":
            how = "called without jit (jax.disable_jit)" if eager else "traced again"
            if skipped_at:
                lines = ", ".join(str(n) for n in sorted(skipped_at))
                again.annotate(f"{how}, with the item assignment(s) at line(s) {lines} let "
                               "through (each raises the same TypeError)")
            else:
                again.annotate(how)
            again.details["earlier"] = result.evidence or result.reason
            return again
    return result


@contextlib.contextmanager
def _writes_skipped(ctx: Context, target: dict):
    """``x[i] = v`` on a JAX array (concrete or traced) at a line of the user's module
    outside the finding does nothing (instead of raising); at the finding's lines it
    raises as JAX does.  Yields the lines whose writes were skipped."""
    from jax._src import core
    from jax._src.array import ArrayImpl

    lines: set[int] = set()
    saved = {cls: cls.__dict__["__setitem__"] for cls in (core.Tracer, ArrayImpl)
             if "__setitem__" in cls.__dict__}

    def make(original: Any) -> Any:
        def setitem(self: Any, index: Any, value: Any) -> Any:
            frame = sys._getframe(1)
            if os.path.realpath(frame.f_code.co_filename) == ctx.path \
                    and not in_span(frame.f_lineno, target):
                lines.add(frame.f_lineno)
                return None
            return original(self, index, value)
        return setitem

    for cls, original in saved.items():
        setattr(cls, "__setitem__", make(original))
    try:
        yield lines
    finally:
        for cls, original in saved.items():
            setattr(cls, "__setitem__", original)


def _call_error(ctx: Context, target: dict, t: Target, args: Args) -> Verdict:
    """Call it as written, with concrete inputs and jit off: a JAX101 write raises
    there too (JAX arrays are immutable eagerly as well)."""
    expected = TRACE_ERROR_RULES.get(target["code"], TRACE_FAMILY)
    try:
        with jax.disable_jit():
            jax.block_until_ready(t.raw(*args.concrete()))
    except Exception as exc:  # noqa: BLE001
        line = ctx.user_line(exc)
        ev = f"{exc_name(exc)} at line {line}: {first_line(exc)}"
        if isinstance(exc, expected) and in_span(line, target):
            return confirmed(ev, exception=exc_name(exc), line=line, message=first_line(exc),
                             how="called with concrete inputs under jax.disable_jit()")
        return skipped(f"calling it stopped elsewhere: {ev}", exception=exc_name(exc),
                       line=line)
    return not_reproduced("called without error")


def _trace_error(ctx: Context, target: dict, t: Target, args: Args) -> Verdict:
    expected = TRACE_ERROR_RULES.get(target["code"], TRACE_FAMILY)
    jax.clear_caches()
    try:
        traced = jitted(t, args).trace(*args.abstract())
    except Exception as exc:  # noqa: BLE001
        line = ctx.user_line(exc)
        ev = f"{exc_name(exc)} at line {line}: {first_line(exc)}"
        if isinstance(exc, expected) and in_span(line, target):
            return confirmed(ev, exception=exc_name(exc), line=line, message=first_line(exc),
                             how="jax.jit(f).trace(abstract inputs)")
        if line is not None and line < target["line"]:
            # the flagged line never ran: no evidence either way
            return not_exercised(f"tracing stopped earlier, at line {line}, before reaching "
                                 f"line {target['line']}: {ev}; fix that one and run confirm "
                                 "again to exercise it", exception=exc_name(exc), line=line)
        return skipped(f"tracing stopped elsewhere: {ev}", exception=exc_name(exc), line=line)
    eqns = count_eqns(traced.jaxpr)[0]
    return not_reproduced(f"traced without error ({eqns} jaxpr equations)")


def check_dead_update(ctx: Context, target: dict, t: Target, args: Args) -> Verdict:
    try:
        jaxpr = make_jaxpr(t, args, args.abstract())
    except Exception as exc:  # noqa: BLE001
        return skipped(f"tracing failed: {exc_name(exc)} at {ctx.user_at(exc)}: "
                       f"{first_line(exc)}")
    dead = [(n, line) for n, line in dead_updates(jaxpr, ctx.path) if in_span(line, target)]
    if dead:
        name, line = dead[0]
        return confirmed(f"the `{name}` built at line {line} is dead code in the jaxpr: its "
                         "result is never used, so the update is discarded",
                         primitive=name, line=line)
    return not_reproduced("every update in the jaxpr is used")


def check_float64(ctx: Context, target: dict, t: Target, args: Args) -> Verdict:
    jax.clear_caches()
    caught: list[tuple[Any, Optional[int]]] = []  # (warning, the user's line when it was issued)

    def show(message, category, filename, lineno, file=None, line=None):  # noqa: ANN001
        # JAX attributes some of its dtype warnings to its own files (`x.astype`):
        # the user's line is the innermost frame of the module on the stack
        user = lineno if os.path.realpath(filename) == ctx.path else None
        frame = sys._getframe(1)
        while user is None and frame is not None:
            if os.path.realpath(frame.f_code.co_filename) == ctx.path:
                user = frame.f_lineno
            frame = frame.f_back
        caught.append((warnings.WarningMessage(message, category, filename, lineno), user))

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = show
        try:
            traced = jitted(t, args).trace(*args.abstract())
        except Exception as exc:  # noqa: BLE001
            return skipped(f"tracing failed: {exc_name(exc)}: {first_line(exc)}")
    dtypes = sorted({str(s.dtype) for s in jax.tree_util.tree_leaves(traced.out_info)})
    hits = [(w, user) for w, user in caught if in_span(user, target)]
    x64 = bool(jax.config.jax_enable_x64)
    if hits and not x64:
        w, user = hits[0]
        return confirmed(f"{w.category.__name__} at line {user}: "
                         f"{str(w.message).splitlines()[0]}; outputs: {', '.join(dtypes)}",
                         output_dtypes=dtypes, line=user, x64=x64)
    return not_reproduced(f"outputs: {', '.join(dtypes)} (jax_enable_x64={x64})",
                          output_dtypes=dtypes, x64=x64)


RANDOM_FUNCS = ("normal", "uniform", "split", "fold_in", "bernoulli", "randint", "choice",
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
        for name in RANDOM_FUNCS:
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


def check_key_reuse(ctx: Context, target: dict, t: Target, args: Args) -> Verdict:
    from jax.experimental.key_reuse._core import check_key_reuse as _check

    from jaxlint.runtime.observed import has_raw_keys

    substituted = any(s.kind == "legacy-key" for s in args.specs) or \
        has_raw_keys(getattr(args, "values", []))
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
            return skipped(f"the key-reuse checker could not trace it: {exc_name(exc)} at "
                           f"{ctx.user_at(exc)}: {first_line(exc)}")
        else:
            shared = _unbatched_draws(ctx, target, t, args)
            if isinstance(shared, Verdict):
                return shared
            repeated = _repeated_draws(ctx, target, t, args)
            if isinstance(repeated, Verdict):
                return repeated
            return not_reproduced(f"check_key_reuse found no reuse{note}, and no draw under "
                                  "vmap took a key shared by the whole batch")
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
                    result.evidence += (f"; key consumed by `{first_use[1]}` at line "
                                           f"{first_use[0]}, then again by `{second[1]}` at "
                                           f"line {second[0]}")
                    result.details["use_sites"] = [first_use[0], second[0]]
                    break
            else:
                if line is not None:
                    result.evidence += f"; reused at line {line}"
                    result.details["use_sites"] = [None, line]
        except Exception:  # noqa: BLE001 - the static check already confirmed it
            pass
    if substituted:
        tied = _tied_draws(ctx, t, args)
        if tied:
            result.evidence += (f"; with the legacy key as given, `{tied[0][1]}` at line "
                                f"{tied[0][0]} and `{tied[1][1]}` at line {tied[1][0]} drew "
                                "from the same key bits" + (" and returned identical values"
                                                            if tied[2] else ""))
            result.details["tied_draws"] = [tied[0][0], tied[1][0]]
    return result


def _batch_traces(values: Any) -> set:
    """The vmap traces that the values (a frame's locals) are batched by."""
    from jax._src.interpreters.batching import BatchTracer

    traces = set()
    for v in values:
        try:
            leaves = jax.tree_util.tree_leaves(v)
        except Exception:  # noqa: BLE001 - an odd object
            continue
        for leaf in leaves[:64]:
            if isinstance(leaf, BatchTracer):
                traces.add(id(leaf._trace))
    return traces


def _unbatched_draws(ctx: Context, target: dict, t: Target, args: Args) -> Optional[Verdict]:
    """A draw under ``vmap`` whose key is not batched (a key captured by the vmapped
    closure, or passed with ``in_axes=None``) while the data is: the result is not
    batched either, so every example of the batch gets the same random numbers.  JAX's
    checker counts it as one use; for the program it is the key reused once per example."""
    from jax._src.interpreters.batching import BatchTracer

    r = jax.random
    hits: list[tuple[int, str, list[int]]] = []  # (line, function, the user lines on the stack)
    saved = {}
    for name in RANDOM_FUNCS:
        fn = getattr(r, name, None)
        # fold_in(key, batched index) is the fix; split draws nothing itself, and its keys
        # may be picked per example (`split(key, n)[i]` with `i` mapped): the draws decide
        if fn is None or name in ("fold_in", "split"):
            continue
        saved[name] = fn

        def wrapper(*a, __fn=fn, __name=name, **k):
            out = __fn(*a, **k)
            frame = sys._getframe(1)
            if a and os.path.realpath(frame.f_code.co_filename) == ctx.path:
                batched = _batch_traces(list(frame.f_locals.values()))
                mine = _batch_traces([a[0]]) | _batch_traces([out])
                if batched - mine:
                    hits.append((frame.f_lineno, __name, _user_lines(ctx, frame)))
            return out

        setattr(r, name, wrapper)
    jax.clear_caches()  # a cached jit would not run the Python again
    try:
        t.raw(*args.concrete(typed_keys=True))
    except Exception:  # noqa: BLE001 - the draws seen before count
        pass
    finally:
        for name, fn in saved.items():
            setattr(r, name, fn)
    del BatchTracer
    # the draw itself, or the call on the finding's line that leads to it (the finding
    # is at the `vmap` call: `jax.vmap(augment, in_axes=(None, 0))(key, images)`)
    here = [(line, name) for line, name, stack in hits
            if any(in_span(n, target) for n in stack)]
    if not here:
        return None
    line, name = here[0]
    return confirmed(f"`{name}` at line {line} runs under vmap with a key that is not batched "
                     "(captured by the vmapped function, or passed with in_axes=None) while its "
                     "data is: every example of the batch draws the same numbers from the same "
                     "key", line=line, random_function=name, oracle="vmap batching")


def _user_lines(ctx: Context, frame: Any) -> list[int]:
    """The lines of the user's module on the stack, innermost first."""
    lines = []
    while frame is not None:
        if os.path.realpath(frame.f_code.co_filename) == ctx.path:
            lines.append(frame.f_lineno)
        frame = frame.f_back
    return lines


def _key_bits(key: Any) -> Optional[bytes]:
    import numpy as np

    try:
        if jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
            key = jax.random.key_data(key)
        return np.asarray(key).tobytes() + str(np.shape(key)).encode()
    except Exception:  # noqa: BLE001 - a tracer, an odd argument
        return None


MAX_DRAWS = 64  # draws watched in one eager run of a JAX301 check


class _EnoughDraws(Exception):
    """Raised inside the user's code to stop an eager run that has drawn enough."""


def _draw_log(ctx: Context, fn: Any, values: list) -> list:
    """Call ``fn`` eagerly (jit off, so every call runs its Python) with ``jax.random``
    watched: each draw, from any module (a library's dropout layer included), as
    (the user's lines on the stack, the function's name, the key's bits)."""
    r = jax.random
    draws: list = []
    saved = {}
    for name in RANDOM_FUNCS:
        f = getattr(r, name, None)
        if f is None or name in ("split", "fold_in"):  # derivations, not draws
            continue
        saved[name] = f

        def wrapper(*a, __fn=f, __name=name, **k):
            key = a[0] if a else k.get("key")
            bits = _key_bits(key) if key is not None else None
            if bits is not None:
                draws.append((_user_lines(ctx, sys._getframe(1)), __name, bits))
                if len(draws) >= MAX_DRAWS:  # enough to judge: a long loop need not finish
                    raise _EnoughDraws
            return __fn(*a, **k)

        setattr(r, name, wrapper)
    try:
        with jax.disable_jit():
            jax.block_until_ready(fn(*values))
    except Exception:  # noqa: BLE001 - the draws seen before count (_EnoughDraws too)
        pass
    finally:
        for name, f in saved.items():
            setattr(r, name, f)
    return draws


def _other_keys(value: Any) -> tuple[Any, bool]:
    """The value with every PRNG key in it replaced by another one (typed keys and raw
    ``uint32[..., 2]`` keys), and whether there was one."""
    import numpy as np

    found = [False]

    def leaf(x: Any) -> Any:
        dtype = getattr(x, "dtype", None)
        if dtype is None or isinstance(x, jax.core.Tracer):
            return x
        if jnp.issubdtype(dtype, jax.dtypes.prng_key):
            found[0] = True
            return jax.random.wrap_key_data(jax.random.key_data(x) ^ np.uint32(0x9E3779B9),
                                            impl=jax.random.key_impl(x))
        if dtype == jnp.uint32 and getattr(x, "ndim", 0) >= 1 and x.shape[-1] == 2:
            found[0] = True
            return x ^ np.uint32(0x9E3779B9)
        return x

    try:
        out = jax.tree_util.tree_map(leaf, value)
    except Exception:  # noqa: BLE001
        return value, False
    return out, found[0]


def _with_other_keys(fn: Any, values: list) -> tuple[Any, list, bool]:
    """``fn`` and its arguments with every key the call receives replaced (keyword
    arguments bound by ``functools.partial`` included)."""
    changed = False
    new_values = []
    for v in values:
        nv, c = _other_keys(v)
        new_values.append(nv)
        changed = changed or c
    if isinstance(fn, functools.partial):
        inner, _, c1 = _with_other_keys(fn.func, [])
        pos, c2 = _other_keys(list(fn.args))
        kw, c3 = _other_keys(dict(fn.keywords))
        fn = functools.partial(inner, *pos, **kw)
        changed = changed or c1 or c2 or c3
    return fn, new_values, changed


def _repeated_draws(ctx: Context, target: dict, t: Target, args: Args) -> Optional[Verdict]:
    """What JAX's checker cannot see: the same key bits drawn twice in one call while the
    flagged line runs (a key passed again to a jitted step whose library layer derives
    the same subkey with ``fold_in`` each time: the checker counts ``fold_in`` as no
    use), or a draw at the flagged line whose key is the same whatever key the call is
    given (a key made from a constant inside the function: every call draws the same
    numbers)."""
    values = args.concrete()
    first = _draw_log(ctx, t.raw, values)
    mine = [(lines, name, bits) for lines, name, bits in first
            if any(in_span(n, target) for n in lines)]
    for i, (lines, name, bits) in enumerate(mine):
        for lines2, name2, bits2 in mine[i + 1:]:
            if bits == bits2:
                who = f"`{name}` (from line {lines[0]}) drew twice" \
                    if (name, lines[0]) == (name2, lines2[0]) else \
                    f"`{name}` (from line {lines[0]}) and `{name2}` (from line {lines2[0]}) drew"
                return confirmed(f"{who} from the same key bits while line {target['line']} "
                                 "ran: the same random numbers twice (jax.random watched in "
                                 "an eager run; the key was not split between the uses)",
                                 use_sites=[lines[0], lines2[0]], oracle="draws watched",
                                 random_function=name)
    if not mine:
        return None
    fn2, values2, changed = _with_other_keys(t.raw, values)
    if not changed:
        return None  # the call takes no key: a constant key may be meant (an init)
    second = _draw_log(ctx, fn2, values2)
    again = {(lines[0], name, bits) for lines, name, bits in second
             if any(in_span(n, target) for n in lines)}
    for lines, name, bits in mine:
        if (lines[0], name, bits) in again:
            return confirmed(f"`{name}` at line {lines[0]} drew from the same key bits when "
                             "the call was given other keys: its key does not come from the "
                             "inputs, so every call draws the same numbers",
                             line=lines[0], oracle="draws watched, keys changed",
                             random_function=name)
    return None


def _tied_draws(ctx: Context, t: Target, args: Args):
    """Run it eagerly with the legacy uint32 keys as they are: two draws at the
    user's lines from the same key bits ((line, name), (line, name), same values)."""
    import numpy as np

    r = jax.random
    draws: list = []
    saved = {}
    for name in RANDOM_FUNCS:
        fn = getattr(r, name, None)
        if fn is None or name in ("split", "fold_in"):
            continue
        saved[name] = fn

        def wrapper(*a, __fn=fn, __name=name, **k):
            out = __fn(*a, **k)
            frame = sys._getframe(1)
            if a and os.path.realpath(frame.f_code.co_filename) == ctx.path:
                try:
                    key = np.asarray(jax.random.key_data(a[0]) if jnp.issubdtype(
                        a[0].dtype, jax.dtypes.prng_key) else a[0]).tobytes()
                    draws.append((frame.f_lineno, __name, key, np.asarray(out)))
                except Exception:  # noqa: BLE001 - a tracer, an odd argument
                    pass
            return out

        setattr(r, name, wrapper)
    try:
        with jax.disable_jit():
            t.raw(*args.concrete())
    except Exception:  # noqa: BLE001
        pass
    finally:
        for name, fn in saved.items():
            setattr(r, name, fn)
    for i, (line, name, key, out) in enumerate(draws):
        for line2, name2, key2, out2 in draws[i + 1:]:
            if key == key2:
                same = out.shape == out2.shape and bool(np.array_equal(out, out2))
                return (line, name), (line2, name2), same
    return None


def check_impurity(ctx: Context, target: dict, t: Target, args: Args) -> Verdict:
    # 1. leaked tracers (globals, appends, attributes)
    jax.clear_caches()
    try:
        with jax.checking_leaks():
            jitted(t, args).trace(*args.abstract())
    except Exception as exc:  # noqa: BLE001
        if type(exc) is Exception:  # the leak checker raises a bare Exception
            return confirmed(f"jax.checking_leaks: {first_line(exc)}", check="checking_leaks")
        if not isinstance(exc, TRACE_FAMILY):
            return skipped(f"tracing failed: {exc_name(exc)}: {first_line(exc)}")
    # 2. side effects that run at trace time only: output, module globals, the
    #    method's object; compared call by call (the first call traces)
    jax.clear_caches()
    owner = getattr(t.raw, "__self__", None)
    snapshot = _globals_snapshot(ctx.module)
    f = jitted(t, args)
    outputs = []
    owner_changes = []
    try:
        for _ in range(2):
            before = _globals_snapshot(owner) if owner is not None else {}
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                jax.block_until_ready(f(*args.concrete()))
            outputs.append(buf.getvalue().count("\n"))
            if owner is not None:
                after = _globals_snapshot(owner)
                owner_changes.append(sorted(k for k, v in after.items() if before.get(k) != v))
    except Exception as exc:  # noqa: BLE001
        return skipped(f"calling it failed: {exc_name(exc)} at {ctx.user_at(exc)}: "
                       f"{first_line(exc)}")
    changed = sorted(k for k, v in _globals_snapshot(ctx.module).items()
                     if k not in snapshot or snapshot[k] != v)
    if outputs[0] != outputs[1]:
        return confirmed(f"side effect ran at trace time only: {outputs[0]} line(s) printed on "
                         f"the first call, {outputs[1]} on the second", printed=outputs)
    if owner_changes and owner_changes[0] and not owner_changes[1]:
        names = ", ".join(f"self.{k}" for k in owner_changes[0])
        return confirmed(f"side effect ran at trace time only: {names} changed on the first "
                         "jitted call and not on the second", attributes=owner_changes[0])
    if changed:
        return confirmed(f"module globals changed by the calls: {', '.join(changed)}",
                         globals_changed=changed)
    return not_reproduced(f"no leak; {outputs[0]} line(s) printed on each call; globals "
                          "unchanged" + ("; the object's attributes changed alike on each call"
                                         if owner is not None else ""))


def _globals_snapshot(module: Any) -> dict[str, str]:
    out = {}
    try:
        items = list(vars(module).items())
    except TypeError:  # no __dict__ (slots)
        return out
    for k, v in items:
        if k.startswith("__") or inspect.ismodule(v) or inspect.isclass(v) or callable(v):
            continue
        try:
            out[k] = f"{type(v).__name__}:{v!r}"[:200]
        except Exception:  # noqa: BLE001
            continue
    return out


def check_grad_nan(ctx: Context, target: dict, t: Target, args: Args) -> Verdict:
    """``jax.grad`` of the sum with respect to every floating-point argument (a pytree of
    parameters too): first at the inputs a --run observed (the run's own values), then
    with each such argument filled with each boundary point of the ``where``."""
    base = args.concrete()
    dynamic = args.dynamic_positions()
    diff = [i for i in dynamic if has_floating(base[i])]
    if not diff:
        return skipped("no floating-point argument to differentiate")
    argnums = tuple(dynamic.index(i) for i in diff)
    wrt = f" (with respect to arguments {', '.join(map(str, diff))})" if len(diff) > 1 else ""
    points = boundary_points(ctx.path, target)
    trials: list[tuple[str, list, Optional[float]]] = []
    observed = observed_values(args)
    if observed:
        trials.append(("at the inputs observed in --run", base, None))
    for point in points:
        for pos in diff:
            values = list(base)
            values[pos] = jax.tree_util.tree_map(
                lambda leaf, _p=point: jnp.full_like(leaf, _p) if is_floating(leaf) else leaf, base[pos])
            trials.append((f"at the boundary point (argument {pos} = {point:g})", values, point))
    failed: Optional[str] = None
    tried = 0
    for label, values, point in trials:
        fn, dyn = bind_static(t.raw, args, values)

        def scalar(*a, _fn=fn):
            return jnp.sum(_fn(*a))

        try:
            value = scalar(*dyn)
            # allow_int: a pytree of parameters may hold an integer leaf (a step count);
            # its gradient is float0, left out of the count below
            grads = jax.grad(scalar, argnums=argnums, allow_int=True)(*dyn)
        except Exception as exc:  # noqa: BLE001
            failed = failed or f"jax.grad failed: {exc_name(exc)}: {first_line(exc)}"
            continue  # another trial (another argument at a boundary point) may run
        tried += 1
        nans = sum(int(jnp.isnan(g).sum()) for g in jax.tree_util.tree_leaves(grads)
                   if is_floating(g))
        if nans and not bool(jnp.isnan(value)):
            return confirmed(f"jax.grad{wrt} {label} has {nans} NaN value(s) while the function "
                             f"value is finite ({float(value):.4g})", nan_count=nans,
                             **({"at": point} if point is not None else {"observed_inputs": True}))
    if not tried:
        return skipped(failed or "jax.grad failed")
    at = [f"argument {pos} = {' and at '.join(f'{p:g}' for p in points)}" for pos in diff]
    return not_reproduced(f"jax.grad{wrt} "
                          + ("at the inputs observed in --run and " if observed else "")
                          + f"at {'; at '.join(at)} is finite")


def check_out_of_bounds(ctx: Context, target: dict, t: Target, args: Args) -> Verdict:
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


def check_recompiles(ctx: Context, target: dict, t: Target, args: Args) -> Verdict:
    """Two calls with a compile counter: a user function compiled more than once in
    one call (jit in a loop, a changing static argument), or compiled again on the
    second call with the same inputs (a fresh jit per call)."""
    jax.clear_caches()
    call = t.obj if not t.jitted else jitted(t, args)
    counts = []
    failure = ""
    with cache_miss_log() as log:
        for _ in range(2):
            values = args.concrete()
            try:
                with ctx.counter.counting() as c:
                    jax.block_until_ready(call(*values))
            except Exception as exc:  # noqa: BLE001
                failure = (f"{exc_name(exc)} at {ctx.user_at(exc)}: {first_line(exc)}")
                counts.append(c.user_compiles())
                break
            counts.append(c.user_compiles())
    first = counts[0]
    second = counts[1] if len(counts) > 1 else {}
    if failure and not any(v > 1 for v in first.values()):
        return skipped(f"calling it failed: {failure}")
    if failure:  # the loop ran (and recompiled) before the call failed further down
        name, n = max(first.items(), key=lambda kv: kv[1])
        return confirmed(f"{name} compiled {n} times in one call of `{t.qualname}`, before the "
                         f"call failed further on ({failure})", compiles=first,
                         explanation=_explanation(log))
    repeated = {k: v for k, v in first.items() if v > 1}
    explanation = _explanation(log)
    hint = f"; explain_cache_misses: {explanation}" if explanation else ""
    if repeated:
        name, n = max(repeated.items(), key=lambda kv: kv[1])
        return confirmed(f"{name} compiled {n} times in one call of `{t.qualname}`" + hint,
                         compiles=first, second_call=second, explanation=explanation)
    if second:
        name, n = max(second.items(), key=lambda kv: kv[1])
        return confirmed(f"{name} compiled again on the second call of `{t.qualname}` with the "
                         "same inputs (a new function object is jitted on every call)" + hint,
                         compiles=first, second_call=second, explanation=explanation)
    replayed = _replay_calls(ctx, t, args)
    if replayed is not None:
        return replayed
    return not_reproduced(f"no function compiled more than once over 2 calls "
                          f"({first or 'no compiles'})", compiles=first, second_call=second)


def _replay_calls(ctx: Context, t: Target, args: Args) -> Optional[Verdict]:
    """The observed calls replayed in order (the first and up to a few later ones with
    other signatures): a function compiled again for calls whose arrays have the same
    shapes and dtypes was recompiled for a changed static argument."""
    calls = [args, *getattr(args, "more", [])]
    if len(calls) < 2:
        return None
    jax.clear_caches()
    call = t.obj if t.jitted else jitted(t, args)
    names = [d.split(":")[0] for d in args.described]
    groups: dict[Any, dict[str, int]] = {}
    statics: dict[Any, list[str]] = {}
    for a in calls:
        key = signature([None if i in a.static else v
                         for i, v in enumerate(getattr(a, "values", []))], None)
        try:
            with ctx.counter.counting() as c:
                jax.block_until_ready(call(*a.concrete()))
        except Exception:  # noqa: BLE001 - a call that fails counts what compiled before
            pass
        for name, n in c.user_compiles().items():
            groups.setdefault(key, {})
            groups[key][name] = groups[key].get(name, 0) + n
        statics.setdefault(key, []).append(", ".join(
            f"{names[i] if i < len(names) else f'arg{i}'}={a.specs[i].text}"
            for i in a.static) or "-")
    for key, counts in groups.items():
        name, n = max(counts.items(), key=lambda kv: kv[1], default=("", 0))
        if n > 1:
            return confirmed(f"{name} compiled {n} times over {len(statics[key])} observed calls "
                             f"with the same array shapes and dtypes; static arguments: "
                             f"{'; '.join(statics[key])}", compiles=counts,
                             observed_calls=len(calls), oracle="observed calls replayed")
    return None


def _explanation(log: list[str]) -> str:
    for message in reversed(log):  # the last miss says why a known function retraced
        lines = [ln.strip() for ln in message.splitlines() if ln.strip()]
        if lines and lines[0].startswith("TRACING CACHE MISS") and len(lines) > 1:
            return " / ".join(lines[1:4])
    return ""


def check_unrolled(ctx: Context, target: dict, t: Target, args: Args) -> Verdict:
    try:
        jaxpr = make_jaxpr(t, args, args.abstract())
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
            top2, _ = count_eqns(make_jaxpr(t, args, values))
            details["eqns_at_half"] = {"n": half, "eqns": top2}
            growth = f" ({top2} at {half})"
        except Exception:  # noqa: BLE001
            pass
    else:
        knob = _loop_bound(t, target)
        if knob is not None:
            # the loop's size is a closure cell or a module global (a `get_cell(n)`
            # factory, a `N_LAYERS` constant): the count at half of it shows the growth
            half = knob.saved // 2
            try:
                knob.put(half)
                jax.clear_caches()  # the trace of the same function is cached
                top2, _ = count_eqns(make_jaxpr(t, args, args.abstract()))
                details["eqns_at_half"] = {"n": half, "eqns": top2, "of": knob.name}
                growth = f" ({top2} with {knob.name} = {half} instead of {knob.saved})"
                ints = [knob.name]
            except Exception:  # noqa: BLE001
                pass
            finally:
                knob.put(knob.saved)
    if top > ctx.max_unrolled or (ints and details.get("eqns_at_half", {}).get("eqns", top) < top / 1.5):
        return confirmed(f"{top} jaxpr equations{growth}: the Python loop is unrolled into "
                         "the program", **details)
    return not_reproduced(f"{top} jaxpr equations{growth}", **details)


def _loop_bound(t: Target, target: dict) -> Optional["_Knob"]:
    """An int of at least 4 that the flagged lines read from a closure cell or a module
    global (the size of the loop there), as something the check can change."""
    fn = t.raw
    while isinstance(fn, functools.partial):
        fn = fn.func
    fn = inspect.unwrap(getattr(fn, "__func__", fn))
    if not hasattr(fn, "__code__") or getattr(fn, "__globals__", None) is None:
        return None
    globs, cells, attrs, at_line = _span_reads(fn, target)
    if not at_line:
        return None
    knobs, _ = _knobs(fn, t.raw, globs, cells, set())
    for k in knobs:
        v = k.saved
        if isinstance(v, int) and not isinstance(v, bool) and v >= 4:
            return k
    return None


def _compiled(t: Target, args: Args):
    """The function as JAX compiles it: the user's own jit wrapper when it has one
    (its cache is what the program used), else a fresh ``jax.jit``."""
    if t.jitted and set(args.static) == set(t.static_argnums):
        return t.obj
    return jitted(t, args)


def _calls(fn, values: list, n: int = 2, eager: bool = False) -> list:
    outs = []
    for _ in range(n):
        if eager:
            with jax.disable_jit():
                outs.append(jax.device_get(fn(*values)))
        else:
            outs.append(jax.device_get(fn(*values)))
    return outs


def differential(ctx: Context, t: Target, args: Args, n: int = 2):
    """``n`` calls compiled and ``n`` calls under ``jax.disable_jit()`` on the same
    inputs: (compiled outputs, eager outputs, eager error or None), or a skip."""
    values = args.concrete()
    try:
        compiled = _calls(_compiled(t, args), values, n)
    except Exception as exc:  # noqa: BLE001
        return skipped(f"calling it failed: {exc_name(exc)} at {ctx.user_at(exc)}: "
                       f"{first_line(exc)}")
    try:
        eager = _calls(t.raw, args.concrete(), n, eager=True)
    except Exception as exc:  # noqa: BLE001
        return compiled, None, exc
    return compiled, eager, None


def check_baked(ctx: Context, target: dict, t: Target, args: Args) -> Verdict:
    """Host randomness baked in at trace time: the jitted output repeats, the eager one varies."""
    got = differential(ctx, t, args)
    if isinstance(got, Verdict):
        return got
    (a, b), eager, err = got
    if eager is None:
        return skipped(f"the eager call (jax.disable_jit) failed: {exc_name(err)} at "
                       f"{ctx.user_at(err)}: {first_line(err)}")
    c, d = eager
    if leaves_close(a, b) and leaves_close(c, d) is False:
        return confirmed("two jitted calls on the same inputs return identical outputs while "
                         "two eager calls (jax.disable_jit) differ: the host random numbers "
                         "were drawn once, at trace time", oracle="differential")
    return not_reproduced("differential oracle: two jitted and two eager calls behave alike",
                          oracle="differential")


def check_iterator(ctx: Context, target: dict, t: Target, args: Args) -> Verdict:
    """An iterator under a transform: a trace error (an iterator is not a JAX type), or
    silently stale: consumed once at trace time, so the compiled function repeats
    what the eager one advances through."""
    traced = check_trace_error(ctx, target, t, args)
    if traced.verdict == "confirmed":
        return traced
    line = traced.details.get("line")
    if traced.details.get("exception") == "StopIteration" and in_span(line, target):
        # `next` ran while JAX traced and found the iterator spent: it is read in
        # Python, at trace time, not once per step of the compiled loop
        return confirmed(f"tracing ran line {line} and raised StopIteration: the Python "
                         "iterator is read while JAX traces (once per trace, here already "
                         "spent by earlier traces or the run), not once per step",
                         exception="StopIteration", line=line,
                         how="jax.jit(f).trace(abstract inputs)")
    if traced.verdict in ("skipped", "not-exercised") \
            and traced.details.get("line") is not None:
        return traced  # tracing stopped elsewhere
    got = differential(ctx, t, args)
    if isinstance(got, Verdict):
        return got
    compiled, eager, err = got
    if eager is None:
        if isinstance(err, (StopIteration, RuntimeError)) and ctx.user_line(err) is not None:
            return confirmed(f"the compiled function ran twice, but under jax.disable_jit the "
                             f"iterator is consumed per step and raised {exc_name(err)} at "
                             f"{ctx.user_at(err)}: the compiled one read it once, at trace "
                             "time", oracle="differential", exception=exc_name(err))
        return skipped(f"the eager call (jax.disable_jit) failed: {exc_name(err)} at "
                       f"{ctx.user_at(err)}: {first_line(err)}")
    if leaves_close(compiled[0], eager[0]) is False:
        return confirmed("the compiled function and the eager one (jax.disable_jit) disagree on "
                         "the same inputs: the iterator was read once, at trace time, and its "
                         "values are baked into the compiled function", oracle="differential")
    return not_reproduced("traced without error, and the compiled and eager (jax.disable_jit) "
                          "calls agree over 2 calls", oracle="differential")


def _perturb(value: Any) -> Any:
    """The value changed as a program would change it (a number + 1, a flag flipped, an
    array + 1, a list or dict of such values element by element), or None when the
    check cannot change it (a module, an object, a function, a dead tracer)."""
    import numpy as np

    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, jax.core.Tracer):
        return None
    if isinstance(value, (jax.Array, np.ndarray, np.generic)):
        if getattr(value, "dtype", None) is not None and (
                jnp.issubdtype(value.dtype, jnp.number)):
            return value + 1
        return None
    if isinstance(value, (list, tuple)) and value and len(value) <= 64:
        items = [_perturb(v) for v in value]
        return type(value)(items) if all(v is not None for v in items) and \
            type(value) in (list, tuple) else None
    if isinstance(value, dict) and value and len(value) <= 64:
        items = {k: _perturb(v) for k, v in value.items()}
        return items if all(v is not None for v in items.values()) and \
            type(value) is dict else None
    return None


def _span_reads(fn: Any, target: dict) -> tuple[set, set, set, bool]:
    """What the flagged lines read: (global names, closure cell names of ``fn``, attribute
    names), from the bytecode at those lines (in ``fn`` and the functions defined in it);
    the whole function's when no instruction sits on them.  The flag says whether the
    names came from the flagged lines."""
    import dis

    first = int(target["line"])
    span = range(first, max(int(target.get("end_line") or first), first) + 1)
    free = set(fn.__code__.co_freevars)
    found: dict[bool, tuple[set, set, set]] = {True: (set(), set(), set()),
                                                False: (set(), set(), set())}
    stack = [(fn.__code__, True)]
    while stack:
        code, own = stack.pop()
        stack.extend((c, False) for c in code.co_consts if hasattr(c, "co_code"))
        for ins in dis.get_instructions(code):
            pos = getattr(ins, "positions", None)
            line = pos.lineno if pos is not None and pos.lineno is not None else ins.starts_line
            globs, cells, attrs = found[line in span]
            if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME", "STORE_GLOBAL"):
                globs.add(ins.argval)
            elif ins.opname in ("LOAD_DEREF", "LOAD_CLASSDEREF") and own and ins.argval in free:
                cells.add(ins.argval)
            elif ins.opname in ("LOAD_ATTR", "LOAD_METHOD", "STORE_ATTR"):
                attrs.add(ins.argval)
    here = found[True]
    if any(here):
        return (*here, True)
    rest = found[False]
    return rest[0] | here[0], rest[1] | here[1], rest[2] | here[2], False


def _library_module(module: Any) -> bool:
    """A module of Python's own library, an installed package or jaxlint: its attributes
    are not the program's settings (``jnp.pi`` is not changed between calls)."""
    import sysconfig

    path = getattr(module, "__file__", None)
    if not path:
        return True
    path = os.path.realpath(path)
    roots = {os.path.realpath(p) for k, p in sysconfig.get_paths().items()
             if k in ("stdlib", "platstdlib", "purelib", "platlib")}
    roots.add(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    return any(path.startswith(r + os.sep) for r in roots) or "site-packages" in path


class _Knob:
    """One thing the function reads that the program may change between calls."""

    def __init__(self, name: str, get: Any, put: Any) -> None:
        self.name, self.get, self.put = name, get, put
        self.saved = get()


def _bound_self(raw: Any) -> Any:
    """The live object a method is called on: a bound method's ``__self__``, or the first
    argument bound by ``functools.partial`` to a function whose first parameter is
    ``self`` (the recorder binds it so when the method also gets keyword arguments)."""
    bound: list = []
    while isinstance(raw, functools.partial):
        bound[:0] = list(raw.args)
        raw = raw.func
    if inspect.ismethod(raw):
        return raw.__self__
    code = getattr(inspect.unwrap(raw), "__code__", None) if callable(raw) else None
    if bound and code is not None and code.co_argcount and code.co_varnames[0] == "self":
        return bound[0]
    return None


def _knobs(fn: Any, raw: Any, globs: set, cells: set, attrs: set) -> tuple[list, list]:
    """The values the flagged lines read that the check can change (module globals, the
    attributes of a project module, closure cells, the live object's attributes), and
    those it cannot (named, for the verdict)."""
    g = fn.__globals__
    knobs: list[_Knob] = []
    fixed: list[str] = []
    funcs: list[str] = []  # named only when the line reads nothing else: no evidence then

    def offer(name: str, value: Any, get: Any, put: Any) -> None:
        if _perturb(value) is not None:
            knobs.append(_Knob(name, get, put))
        elif inspect.isfunction(value) and not _library_module(
                types.SimpleNamespace(__file__=value.__code__.co_filename)):
            # the program's own function or lambda, which it may rebind between calls
            # (the compiled function keeps the one it traced): not changed here
            funcs.append(f"`{name}` (a function of the program)")
        elif not (inspect.ismodule(value) or inspect.isclass(value) or callable(value)):
            fixed.append(f"`{name}` ({type(value).__name__})")

    for n in sorted(globs):
        if n not in g:
            continue
        value = g[n]
        if inspect.ismodule(value):
            if _library_module(value):
                continue
            for a in sorted(attrs):
                if a in vars(value):
                    offer(f"{n}.{a}", vars(value)[a],
                          lambda m=value, a=a: getattr(m, a),
                          lambda v, m=value, a=a: setattr(m, a, v))
            continue
        offer(n, value, lambda n=n: g[n], lambda v, n=n: g.__setitem__(n, v))
    closure = fn.__closure__ or ()
    for name, cell in zip(fn.__code__.co_freevars, closure):
        if name not in cells:
            continue
        try:
            value = cell.cell_contents
        except ValueError:  # empty
            continue
        offer(name, value, lambda c=cell: c.cell_contents,
              lambda v, c=cell: setattr(c, "cell_contents", v))
    obj = _bound_self(raw)
    if obj is not None:
        own = getattr(obj, "__dict__", {})
        for a in sorted(attrs):
            if a in own:
                offer(f"self.{a}", own[a], lambda a=a: getattr(obj, a),
                      lambda v, a=a: object.__setattr__(obj, a, v))
    return knobs, (fixed if knobs or fixed else funcs)


def _snapshot(value: Any) -> Any:
    import copy

    try:
        return copy.deepcopy(value)
    except Exception:  # noqa: BLE001
        return repr(value)


def _same(a: Any, b: Any) -> bool:
    try:
        same = a == b
        if isinstance(same, bool):
            return same
    except Exception:  # noqa: BLE001
        pass
    return bool(leaves_close(a, b))


def _restore(container: Any, saved: Any) -> None:
    if isinstance(container, list):
        container[:] = saved
    elif isinstance(container, (dict, set)):
        container.clear()
        container.update(saved)


def _stale_call(t: Target, args: Args) -> Any:
    """The compiled function as the program calls it: the user's own jit with the live
    object first for a method jitted with a static ``self`` (its cache is keyed on how
    that object hashes), else a fresh ``jax.jit``."""
    obj = _bound_self(t.raw)
    if t.jitted and obj is not None and 0 in t.static_argnums:
        return lambda *v: t.obj(obj, *v)
    return jitted(t, args)


def check_stale_global(ctx: Context, target: dict, t: Target, args: Args) -> Verdict:
    """A value read at trace time (a module global, an attribute of a project module or
    of the live object, a closure cell): change it as the program would, call again; the
    compiled function still returns the old result while the eager one follows the new
    value.  A global list, dict or set that the function changes: the compiled function
    changes it on its first call only (while tracing), the eager one on every call."""
    fn = t.raw
    while isinstance(fn, functools.partial):
        fn = fn.func
    fn = inspect.unwrap(getattr(fn, "__func__", fn))
    if getattr(fn, "__globals__", None) is None or not hasattr(fn, "__code__"):
        return skipped("its globals cannot be read (not a Python function)")
    globs, cells, attrs, at_line = _span_reads(fn, target)
    knobs, fixed = _knobs(fn, t.raw, globs, cells, attrs)
    where = f"line {target['line']}" if at_line else f"`{t.qualname}`"
    values = args.concrete()
    mutated = _mutated_containers(ctx, fn, t, args, values, globs, cells)
    if isinstance(mutated, Verdict):
        return mutated
    if not knobs:
        if fixed:
            return skipped(f"{where} reads {', '.join(fixed[:3])}, which the check cannot "
                           "change as the program would: no evidence either way",
                           cannot_change=fixed)
        if mutated:
            return not_reproduced(f"the compiled and eager calls changed {mutated} alike",
                                  oracle="differential", globals=[])
        # refuted by the code itself: nothing needs to run
        return not_reproduced(f"{where} reads no number, array or container (a module "
                              "global, a project module's attribute, a closure cell, the "
                              "live object's attribute) that could change",
                              oracle="differential", globals=[], without_running=True)
    f = _stale_call(t, args)
    jax.clear_caches()
    try:
        before = jax.device_get(f(*values))
        for k in knobs:
            k.put(_perturb(k.saved))
        after = jax.device_get(f(*values))
        with jax.disable_jit():
            eager = jax.device_get(t.raw(*values))
    except Exception as exc:  # noqa: BLE001
        return skipped(f"calling it failed: {exc_name(exc)} at {ctx.user_at(exc)}: "
                       f"{first_line(exc)}")
    finally:
        for k in knobs:
            k.put(k.saved)
    changed = ", ".join(k.name for k in knobs)
    names = [k.name for k in knobs]
    if leaves_close(before, after) and leaves_close(after, eager) is False:
        return confirmed(f"after changing {changed}, the compiled function returns its old "
                         "result while the eager call (jax.disable_jit) follows the new value: "
                         "it was read once, at trace time", oracle="differential",
                         globals=names)
    if fixed:  # what it also reads may be the stale value: no evidence either way
        return skipped(f"after changing {changed} the compiled and eager calls agree, but "
                       f"{where} also reads {', '.join(fixed[:3])}, which the check cannot "
                       "change as the program would", globals=names, cannot_change=fixed)
    return not_reproduced(f"differential oracle: after changing {changed} the compiled and "
                          "eager calls agree", oracle="differential", globals=names)


def _mutated_containers(ctx: Context, fn: Any, t: Target, args: Args, values: list,
                        globs: set, cells: set) -> Any:
    """A list, dict or set the flagged lines reach (a module global, a closure cell) that a
    call changes: confirmed when two compiled calls change it on the first call only and
    two eager calls on each.  None when there is no such container; the names when the
    calls changed it alike."""
    g = fn.__globals__
    found: list[tuple[str, Any]] = [(n, g[n]) for n in sorted(globs)
                                    if n in g and type(g[n]) in (list, dict, set)]
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        if name in cells and type(value) in (list, dict, set):
            found.append((name, value))
    if not found:
        return None
    saved = [_snapshot(c) for _, c in found]

    def states() -> list:
        return [_snapshot(c) for _, c in found]

    def calls(fn_: Any, eager: bool) -> list:
        seen = [states()]
        for _ in range(2):
            if eager:
                with jax.disable_jit():
                    jax.block_until_ready(fn_(*values))
            else:
                jax.block_until_ready(fn_(*values))
            seen.append(states())
        return seen

    jax.clear_caches()  # another check may have traced it already: the first call traces
    try:
        compiled = calls(_stale_call(t, args), False)
        for (_, c), s in zip(found, saved):
            _restore(c, s)
        eager = calls(t.raw, True)
    except Exception as exc:  # noqa: BLE001
        return skipped(f"calling it failed: {exc_name(exc)} at {ctx.user_at(exc)}: "
                       f"{first_line(exc)}")
    finally:
        for (_, c), s in zip(found, saved):
            _restore(c, s)
    for i, (name, _) in enumerate(found):
        c0, c1, c2 = (s[i] for s in compiled)
        e0, e1, e2 = (s[i] for s in eager)
        if not _same(c0, c1) and _same(c1, c2) and not _same(e1, e2):
            return confirmed(f"`{name}` ({type(found[i][1]).__name__}) changed on the first "
                             "compiled call only (while JAX traced it: "
                             f"{_short(c0)} -> {_short(c1)} -> {_short(c2)}), and on every "
                             f"eager call (jax.disable_jit: {_short(e0)} -> {_short(e1)} -> "
                             f"{_short(e2)}): the compiled function does not change it again",
                             oracle="differential", globals=[name], mutated=name)
    return ", ".join(f"`{n}`" for n, _ in found)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_runtime_error(ctx: Context, target: dict, t: Target, args: Args) -> Verdict:
    """Run it (concretely); an exception at the flagged line confirms (a donated buffer
    read after donation, a removed API or keyword), and so does a deprecation warning
    issued there (a deprecated API)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            jax.block_until_ready(t.obj(*args.concrete()))
        except Exception as exc:  # noqa: BLE001
            line = ctx.user_line(exc)
            ev = f"{exc_name(exc)} at line {line}: {first_line(exc)}"
            if in_span(line, target):
                return confirmed(ev, exception=exc_name(exc), line=line)
            return skipped(f"it raised elsewhere: {ev}")
    for w in caught:
        if issubclass(w.category, (DeprecationWarning, FutureWarning)) \
                and os.path.realpath(w.filename) == ctx.path and in_span(w.lineno, target):
            return confirmed(f"{w.category.__name__} at line {w.lineno}: "
                             f"{str(w.message).splitlines()[0]}", warning=w.category.__name__,
                             line=w.lineno)
    return not_reproduced("ran without error or deprecation warning at this line")


# ----------------------------------------------------------------------------- dispatch

# rules whose oracle replays the observed calls itself (the compile counts add up)
REPLAYS_ITSELF = ("JAX501", "JAX504")


@contextlib.contextmanager
def line_coverage(path: str):
    """The lines of ``path`` that run inside the block (a trace function that returns at
    once for every other file): what a check really drove."""
    ran: set[int] = set()
    mine: dict[str, bool] = {}

    def local(frame, event, arg):  # noqa: ANN001
        if event == "line":
            ran.add(frame.f_lineno)
        return local

    def call(frame, event, arg):  # noqa: ANN001
        name = frame.f_code.co_filename
        ok = mine.get(name)
        if ok is None:
            ok = mine[name] = os.path.realpath(name) == path
        if not ok:
            return None
        ran.add(frame.f_code.co_firstlineno)
        return local

    old = sys.gettrace()
    sys.settrace(call)
    try:
        yield ran
    finally:
        sys.settrace(old)


def code_lines(fn: Any) -> set[int]:
    """The lines that hold code of ``fn`` and of the functions defined inside it."""
    while isinstance(fn, functools.partial):
        fn = fn.func
    fn = getattr(fn, "__func__", fn)
    try:
        fn = inspect.unwrap(fn)
    except ValueError:
        pass
    code = getattr(fn, "__code__", None)
    lines: set[int] = set()
    stack = [code] if code is not None else []
    while stack:
        c = stack.pop()
        lines.add(c.co_firstlineno)
        lines.update(ln for _, _, ln in c.co_lines() if ln is not None)
        stack.extend(k for k in c.co_consts if hasattr(k, "co_lines"))
    return lines


def run_check(check: Any, ctx: Context, target: dict, t: Target, args: Args) -> Verdict:
    """The rule's check over every distinct recorded call (the first, then the later
    ones with other signatures, calls that raised included), with line coverage.

    Confirmed as soon as one call confirms.  ``not-reproduced`` only when a call's check
    ran the flagged line and JAX showed nothing; a check that never drove the line
    is ``not-exercised``, with the input that would."""
    calls = [args] if target["code"] in REPLAYS_ITSELF else \
        [args, *getattr(args, "more", [])]
    first = int(target["line"])
    span = set(range(first, max(int(target.get("end_line") or first), first) + 1))
    body = code_lines(t.raw)
    # a line outside the function's code (a decorator, a signature) never "runs"
    judged = bool(span & body)
    results: list[tuple[Verdict, bool, Any]] = []
    for n, a in enumerate(calls):
        with line_coverage(ctx.path) as ran:
            result = check(ctx, target, t, a)
        if n:
            result.inputs = list(getattr(a, "described", []) or [])
        reached = bool(span & ran) or not judged or bool(result.details.get("without_running"))
        if result.verdict == "confirmed":
            if len(calls) > 1:
                result.annotate(f"observed call {n + 1} of {len(calls)} replayed")
                result.details["observed_call"] = n + 1
            return result
        results.append((result, reached, a))
    done = [(r, a) for r, reached, a in results if r.verdict == "not-reproduced" and reached]
    if done:
        result = done[0][0]
        result.details["line_ran"] = judged
        if len(calls) > 1:
            result.annotate(f"{len(calls)} distinct observed calls replayed, line {first} ran")
        left = [r for r, _, _ in results if r.verdict == "skipped"]
        if left:
            result.annotate(f"{len(left)} other call(s) could not be checked: {left[0].reason}")
        return result
    missed = [(r, a) for r, reached, a in results if r.verdict == "not-reproduced"]
    if missed:
        r, a = missed[0]
        names = [d.split(":")[0] for d in getattr(a, "described", []) or []]
        steering = ", ".join(f"{names[i] if i < len(names) else f'arg{i}'}={a.specs[i].text}"
                             for i in a.static if i < len(a.specs))
        steer = (f"; its static argument(s) {steering} chose the path, another value may "
                 "reach it") if steering else ""
        verdict = not_exercised(
            f"the check ran `{t.qualname}` on {len(calls)} call(s) (the inputs shown) and line "
            f"{first} never ran: no evidence either way{steer}. An input that reaches line "
            f"{first} (the branch or the call that leads there) would exercise it: declare one "
            f"in [tool.jaxlint.runtime] inputs, or give a --run that drives `{t.qualname}` "
            "there", check=r.evidence, line=first,
            calls=[list(getattr(c, "described", []) or []) for c in calls])
        verdict.details.update({k: v for k, v in r.details.items() if k not in verdict.details})
        return verdict
    return results[0][0]


# ----------------------------------------------------------------------------- statements

_COMPOUND = ("If", "For", "AsyncFor", "While", "With", "AsyncWith", "Try", "TryStar",
             "FunctionDef", "AsyncFunctionDef", "ClassDef", "Match")


def statement_function(ctx: Context, target: dict) -> tuple[Optional[Any], str]:
    """The simple statement that holds a finding outside any function (a module-level
    line, a ``__main__`` block's), compiled as the body of a function of no arguments
    (with its line numbers) whose globals are a copy of the imported module's: the names
    it binds are declared global there, so its assignments change the copy only.  (None, why) when there is no such statement."""
    import ast

    try:
        with open(ctx.path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), ctx.path)
    except (OSError, SyntaxError, ValueError) as exc:
        return None, f"the module cannot be read: {exc.__class__.__name__}"
    line = int(target["line"])
    best = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and type(node).__name__ not in _COMPOUND \
                and node.lineno <= line <= (node.end_lineno or node.lineno):
            best = node
    if best is None:
        return None, f"line {line} is not a simple statement (the header of a block)"
    # the names it binds are the copy's globals, as at module level: `x = x[5] + 1`
    # reads the module's `x` (local, it would be an UnboundLocalError)
    bound = sorted({n.id for n in ast.walk(best) if isinstance(n, ast.Name)
                    and isinstance(n.ctx, (ast.Store, ast.Del))}
                   | {(a.asname or a.name.split(".")[0]) for n in ast.walk(best)
                      if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names
                      if a.name != "*"})
    namespace = dict(vars(ctx.module))
    for head in ([ast.Global(names=bound)] if bound else [], []):
        fn = ast.FunctionDef(name="_jaxlint_statement",
                             args=ast.arguments(posonlyargs=[], args=[], vararg=None,
                                                kwonlyargs=[], kw_defaults=[], kwarg=None,
                                                defaults=[]),
                             body=[*head, best], decorator_list=[], returns=None, type_params=[])
        ast.copy_location(fn, best)
        for node in head:
            ast.copy_location(node, best)
        module = ast.Module(body=[fn], type_ignores=[])
        ast.fix_missing_locations(module)
        try:
            code = compile(module, ctx.path, "exec")
        except SyntaxError:  # a comprehension's own variable declared global: no `global`
            continue
        exec(code, namespace)  # noqa: S102 - defines it only
        return namespace["_jaxlint_statement"], f"line {best.lineno}"
    return None, f"line {best.lineno} cannot be compiled as a function's body"


def check_statement_bounds(ctx: Context, target: dict) -> Verdict:
    """JAX121 outside any function: the statement, run with the module's globals as the
    import left them, under ``checkify(errors=index_checks)``."""
    from jax.experimental import checkify

    fn, where = statement_function(ctx, target)
    if fn is None:
        return skipped(f"not inside a function, and {where}: nothing to call")
    how = (f"the statement at {where} run as a function under checkify(index_checks), "
           "with the module's globals as the import left them")
    try:
        err, _ = checkify.checkify(fn, errors=checkify.index_checks)()
    except NameError as exc:
        return skipped(f"not inside a function: {how}, but it reads `{exc.name}`, which the "
                       "module does not define once imported (a name the `__main__` block "
                       "or a loop binds): nothing to call", how=how)
    except Exception as exc:  # noqa: BLE001
        return skipped(f"not inside a function: {how}, which raised {exc_name(exc)} at "
                       f"{ctx.user_at(exc)}: {first_line(exc)}", how=how)
    msg = err.get()
    if msg:
        return confirmed(f"checkify(index_checks): {msg.strip().splitlines()[0]} ({how})",
                         how=how, oracle="checkify(index_checks)")
    return not_exercised(f"{how}: no out-of-bounds index; the names it reads may hold other "
                         "values when the --run reaches the line, so no evidence either way",
                         how=how, check="checkify(index_checks) found nothing")


STATEMENT_CHECKS = {"JAX121": check_statement_bounds}
