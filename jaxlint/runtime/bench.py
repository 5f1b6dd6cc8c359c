"""Benchmarks: original versus fixed (or a declared alternative), in the worker.

Per variant: first call (trace + compile + run), steady-state runs (each ended
by ``jax.block_until_ready``; median, min, max, IQR), compile time (first call
minus the steady median), backend compiles (jax.monitoring), jaxpr equations,
and XLA's ``memory_analysis()`` where the function can be compiled ahead of
time.  Outputs of the two variants are compared on the same seeded inputs.
"""

from __future__ import annotations

import statistics
import time
from typing import Any, Optional

import jax
import numpy as np

from jaxlint.runtime.context import (Args, Context, Target, bind_static, boundary_points, count_eqns, exc_name,
                                     jitted, leaves_close, make_jaxpr)
from jaxlint.runtime.verdicts import first_line

# keep one benchmark bounded: stop the steady runs after this many seconds (at least 3 runs)
STEADY_BUDGET_S = 10.0


def _memory(t: Target, args: Args, values: list) -> Optional[dict]:
    try:
        stats = jitted(t, args).lower(*values).compile().memory_analysis()
    except Exception:  # noqa: BLE001
        return None
    if stats is None:
        return None
    out = {}
    for name in ("temp_size_in_bytes", "argument_size_in_bytes", "output_size_in_bytes",
                 "generated_code_size_in_bytes", "peak_memory_in_bytes"):
        v = getattr(stats, name, None)
        if isinstance(v, int):
            out[name.replace("_in_bytes", "")] = v
    return out or None


def measure(ctx: Context, t: Target, args: Args) -> tuple[dict, Any]:
    """Time one variant; return (numbers, first output)."""
    values = args.concrete()
    use_jit = t.jitted
    call = jitted(t, args) if use_jit else t.obj
    jax.clear_caches()
    with ctx.counter.counting() as c:
        t0 = time.perf_counter()
        out = call(*values)
        jax.block_until_ready(out)
        first = time.perf_counter() - t0
        first_compiles = sum(c.user_compiles().values())
        first_compile_secs = c.compile_secs
    times: list[float] = []
    with ctx.counter.counting() as c:
        start = time.perf_counter()
        for _ in range(ctx.runs):
            t0 = time.perf_counter()
            jax.block_until_ready(call(*values))
            times.append(time.perf_counter() - t0)
            if len(times) >= 3 and time.perf_counter() - start > STEADY_BUDGET_S:
                break
        steady_compiles = sum(c.user_compiles().values())
    med = statistics.median(times)
    q = np.percentile(times, [25, 75]) if len(times) >= 2 else [med, med]
    numbers: dict[str, Any] = {
        "mode": "jax.jit" if use_jit else "called as written",
        "first_call_s": first,
        # jitted: first call minus steady; called as written (it may compile on every
        # call): the backend compile time jax.monitoring reported for the first call
        "compile_s": max(first - med, 0.0) if use_jit else first_compile_secs,
        "backend_compile_s": first_compile_secs,
        "steady_median_s": med,
        "steady_min_s": min(times),
        "steady_max_s": max(times),
        "steady_iqr_s": float(q[1] - q[0]),
        "runs": len(times),
        "compiles_first_call": first_compiles,
        "compiles_per_steady_call": steady_compiles / len(times),
    }
    if use_jit:
        try:
            top, total = count_eqns(make_jaxpr(t, args, args.abstract()))
            numbers["eqns"], numbers["eqns_recursive"] = top, total
        except Exception:  # noqa: BLE001
            pass
        mem = _memory(t, args, values)
        if mem:
            numbers["memory"] = mem
    return numbers, out


def _run_variant(ctx: Context, t: Target, args: Args) -> tuple[dict, Any]:
    try:
        return measure(ctx, t, args)
    except Exception as exc:  # noqa: BLE001
        return {"error": f"{exc_name(exc)} at {ctx.user_at(exc)}: {first_line(exc)}"}, None


# rules whose original runs but computes the wrong thing: outputs are expected to differ
SILENTLY_WRONG = ("JAX102", "JAX110", "JAX120", "JAX121", "JAX203", "JAX301", "JAX4")


def compare(ctx: Context, t: Target, cand: Target, args: Args, label: str,
            original_raises: Optional[str], code: str = "", target: Optional[dict] = None) -> dict:
    import jax as _jax

    result: dict[str, Any] = {
        "candidate": label,
        "device": str(_jax.devices()[0].platform),
        "jax_version": _jax.__version__,
        "inputs": args.described,
    }
    if original_raises:
        result["original"] = {"not_run": original_raises}
        orig_out = None
    else:
        result["original"], orig_out = _run_variant(ctx, t, args)
    result["fixed"], cand_out = _run_variant(ctx, cand, args)
    if orig_out is not None and cand_out is not None:
        result["outputs_agree"] = leaves_close(orig_out, cand_out)
        if result["outputs_agree"] is False and code.startswith(SILENTLY_WRONG):
            result["outputs_note"] = "expected: the original is silently wrong"
    if code == "JAX120":  # the fix is for the gradient: compare gradients, not outputs
        result["gradients"] = _gradients(ctx, t, cand, args, target or {})
    o, f = result["original"], result["fixed"]
    if "steady_median_s" in o and "steady_median_s" in f and f["steady_median_s"] > 0:
        result["steady_speedup"] = o["steady_median_s"] / f["steady_median_s"]
    if "first_call_s" in o and "first_call_s" in f and f["first_call_s"] > 0:
        result["first_call_speedup"] = o["first_call_s"] / f["first_call_s"]
    return result


def _gradients(ctx: Context, t: Target, cand: Target, args: Args, target: dict) -> dict:
    """``jax.grad`` of ``sum(f)`` for both variants with respect to every floating-point
    argument (a pytree of parameters too), as ``confirm``'s check does: at the inputs a
    --run observed, then with each such argument in turn filled with each boundary point
    (0, or the numbers the condition compares with where the original's gradient is NaN:
    ``checks.boundary_points``); the first trial where the original's gradient holds a
    NaN is reported (else the last): NaN counts, and whether the gradients agree."""
    import jax.numpy as jnp

    from jaxlint.runtime.context import has_floating, is_floating
    from jaxlint.runtime.observed import observed_values

    base = args.concrete()
    dynamic = args.dynamic_positions()
    diff = [i for i in dynamic if has_floating(base[i])]
    if not diff:
        return {"skipped": "no floating-point argument to differentiate"}
    argnums = tuple(dynamic.index(i) for i in diff)
    points = boundary_points(ctx.path, target) if target else [0.0]
    trials: list[tuple[str, list]] = []
    if observed_values(args):
        trials.append(("the inputs observed in --run", base))
    for point in points:
        for pos in diff:
            values = list(base)
            values[pos] = jax.tree_util.tree_map(
                lambda leaf, _p=point: jnp.full_like(leaf, _p) if is_floating(leaf) else leaf,
                base[pos])
            trials.append((f"argument {pos} = {point:g}", values))
    out: dict[str, Any] = {}
    for at, values in trials:
        out = {"at": at}
        grads = []
        for label, variant in (("original", t), ("fixed", cand)):
            fn, dyn = bind_static(variant.raw, args, values)
            try:
                # allow_int: an integer leaf (a step count) has a float0 gradient, left out
                g = jax.grad(lambda *a, _fn=fn: jnp.sum(_fn(*a)), argnums=argnums,
                             allow_int=True)(*dyn)
            except Exception as exc:  # noqa: BLE001
                out[f"{label}_error"] = f"{exc_name(exc)}: {first_line(exc)}"
                grads.append(None)
                continue
            leaves = [leaf for leaf in jax.tree_util.tree_leaves(g) if is_floating(leaf)]
            out[f"{label}_nan"] = sum(int(jnp.isnan(leaf).sum()) for leaf in leaves)
            grads.append(leaves)
        if grads[0] is not None and grads[1] is not None:
            out["agree"] = leaves_close(grads[0], grads[1])
        if out.get("original_nan"):
            break  # the point that shows the NaN
    return out


_RAISING = {"JAX101": "at trace time", "JAX901": "when called (a removed API)",
            "JAX903": "when called (a removed keyword)", "JAX904": "when called (a removed method)"}


def _raises_note(target: dict) -> Optional[str]:
    code = target["code"]
    when = _RAISING.get(code) or ("at trace time" if code.startswith("JAX2") else None)
    if when:
        return f"the original raises {when} ({code}): only the fixed version is measured"
    return None


def bench_finding(ctx: Context, target: dict, t: Target, args: Args) -> dict:
    short = t.qualname.split(".")[-1]
    alt = ctx.alternatives.get(t.qualname) or ctx.alternatives.get(short)
    if alt:
        ctx.claimed.update({t.qualname, short})
        cand, err = ctx.resolve(alt)
        if cand is None:
            return {"skipped": f"JAXLINT_ALTERNATIVES: {err}"}
        return compare(ctx, t, cand, args, f"alternative `{alt}` (JAXLINT_ALTERNATIVES)",
                       _raises_note(target), target["code"], target)
    if not target.get("has_fix"):
        return {"skipped": "no automatic fix and no JAXLINT_ALTERNATIVES entry"}
    if ctx.fixed is None:
        return {"skipped": f"the fixed module does not import: {ctx.fixed_error}"
                if ctx.fixed_error else "no fixed source"}
    cand, err = ctx.resolve(t.qualname, module=ctx.fixed)
    if cand is None:
        return {"skipped": f"fixed version: {err}"}
    return compare(ctx, t, cand, args, "fixed source (jaxlint fixes applied)",
                   _raises_note(target), target["code"], target)


def bench_alternative(ctx: Context, slow: str, fast: str) -> dict:
    t, err = ctx.resolve(slow)
    if t is None:
        return {"function": slow, "skipped": err}
    args, err = ctx.build_args(t)
    if args is None:
        return {"function": slow, "skipped": err}
    cand, err = ctx.resolve(fast)
    if cand is None:
        return {"function": slow, "skipped": f"alternative: {err}"}
    result = compare(ctx, t, cand, args, f"alternative `{fast}` (JAXLINT_ALTERNATIVES)", None)
    result["function"] = slow
    return result
