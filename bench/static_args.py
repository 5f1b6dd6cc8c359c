"""Derive jaxlint's table of arguments JAX needs as Python values from the installed JAX.

    python bench/static_args.py            # print the table (jaxlint/model/static_args.py's body)
    python bench/static_args.py --check    # exit 1 when the checked-in table differs

Two sources, both checked by running JAX:

* every public function of JAX's array namespaces that JAX itself wraps in
  ``jit(..., static_argnames=...)``: its ``_jit_info`` names the static parameters; a tracer
  there raises ``ValueError: Non-hashable static arguments are not supported`` before the
  body runs (each entry is probed with a tracer to confirm);
* functions that are not jitted but turn an argument into a Python int or tuple
  (``operator.index``, ``core.concrete_or_error``, primitive parameters): the probes below
  call each with a tracer in that argument, and the error JAX raises is recorded; and every
  public function of those namespaces whose source converts one of its parameters with
  ``core.concrete_or_error(int | operator.index, param, ...)`` or
  ``param = operator.index(param)`` (``jax.scipy.special.multigammaln``'s ``d``), probed the
  same way (the other arguments host NumPy arrays) and kept only where a traced scalar and a
  traced vector both raise, and no boolean flag of the function set the other way lets the
  tracer through (``jnp.delete(..., assume_unique_indices=True)``).

Arguments already in ``apis.SHAPE_ARGS``/``apis.MORE_SIZE_ARGS`` (shapes and sizes) and the
reductions' ``axis`` (``apis.AXIS_FUNCTIONS``) are left out: JAX202 checks those already.
"""

from __future__ import annotations

import importlib
import inspect
import pathlib
import re
import sys

NAMESPACES = (
    "jax.numpy", "jax.numpy.linalg", "jax.numpy.fft", "jax.lax", "jax.nn", "jax.random",
    "jax.image", "jax.ops", "jax.scipy.special", "jax.scipy.linalg", "jax.scipy.signal",
    "jax.scipy.fft", "jax.scipy.ndimage", "jax.scipy.stats", "jax.scipy.integrate",
)

# Not jitted: (qualified name, parameter, position or None, a call with the tracer `v` there).
PROBES = (
    ("jax.lax.integer_pow", "y", 1, "jax.lax.integer_pow(jnp.ones(3), v)"),
    ("jax.lax.reduce_precision", "exponent_bits", 1, "jax.lax.reduce_precision(jnp.ones(3), v, 3)"),
    ("jax.lax.reduce_precision", "mantissa_bits", 2, "jax.lax.reduce_precision(jnp.ones(3), 5, v)"),
    ("jax.lax.rev", "dimensions", 1, "jax.lax.rev(jnp.ones(3), (v,))"),
    ("jax.lax.argmax", "axis", 1, "jax.lax.argmax(jnp.ones(3), v, jnp.int32)"),
    ("jax.lax.argmin", "axis", 1, "jax.lax.argmin(jnp.ones(3), v, jnp.int32)"),
    ("jax.lax.slice_in_dim", "limit_index", 2, "jax.lax.slice_in_dim(jnp.ones(3), 0, v)"),
    ("jax.lax.slice_in_dim", "start_index", 1, "jax.lax.slice_in_dim(jnp.ones(3), v, 2)"),
    ("jax.lax.index_in_dim", "index", 1, "jax.lax.index_in_dim(jnp.ones(3), v)"),
    ("jax.lax.slice", "start_indices", 1, "jax.lax.slice(jnp.ones(3), (v,), (2,))"),
    ("jax.lax.slice", "limit_indices", 2, "jax.lax.slice(jnp.ones(3), (0,), (v,))"),
    ("jax.lax.transpose", "permutation", 1, "jax.lax.transpose(jnp.ones((2, 2)), (v, 0))"),
    ("jax.lax.squeeze", "dimensions", 1, "jax.lax.squeeze(jnp.ones((1, 2)), (v,))"),
    ("jax.lax.expand_dims", "dimensions", 1, "jax.lax.expand_dims(jnp.ones(2), (v,))"),
    ("jax.lax.cumsum", "axis", 1, "jax.lax.cumsum(jnp.ones(2), v)"),
    ("jax.lax.cumprod", "axis", 1, "jax.lax.cumprod(jnp.ones(2), v)"),
    ("jax.lax.cummax", "axis", 1, "jax.lax.cummax(jnp.ones(2), v)"),
    ("jax.lax.cummin", "axis", 1, "jax.lax.cummin(jnp.ones(2), v)"),
    ("jax.lax.pad", "padding_config", 2, "jax.lax.pad(jnp.ones(2), 0.0, [(v, 0, 0)])"),
    ("jax.lax.sort", "dimension", 1, "jax.lax.sort(jnp.ones(2), v)"),
    ("jax.numpy.diag", "k", 1, None),  # size table already (k changes the result's size)
    ("jax.numpy.rot90", "k", 1, "jnp.rot90(jnp.ones((3, 3)), v)"),
    ("jax.numpy.roll", "axis", 2, "jnp.roll(jnp.ones((3, 3)), 1, v)"),
    ("jax.numpy.take", "axis", 2, "jnp.take(jnp.ones((3, 3)), 0, axis=v)"),
    ("jax.numpy.take_along_axis", "axis", 2, "jnp.take_along_axis(jnp.ones((3, 3)), jnp.zeros((3, 3), int), v)"),
    ("jax.numpy.expand_dims", "axis", 1, "jnp.expand_dims(jnp.ones(3), v)"),
    ("jax.numpy.squeeze", "axis", 1, "jnp.squeeze(jnp.ones((3, 1)), v)"),
    ("jax.numpy.moveaxis", "source", 1, "jnp.moveaxis(jnp.ones((3, 1)), v, 0)"),
    ("jax.numpy.moveaxis", "destination", 2, "jnp.moveaxis(jnp.ones((3, 1)), 0, v)"),
    ("jax.numpy.concatenate", "axis", 1, "jnp.concatenate([jnp.ones(3)], v)"),
    ("jax.numpy.stack", "axis", 1, "jnp.stack([jnp.ones(3)], v)"),
    ("jax.numpy.flip", "axis", 1, "jnp.flip(jnp.ones(3), v)"),
    ("jax.numpy.repeat", "repeats", 1, None),  # JAX206's (traced repeats need total_repeat_length=)
    ("jax.numpy.repeat", "axis", 2, "jnp.repeat(jnp.ones(3), 2, v)"),
    ("jax.numpy.transpose", "axes", 1, "jnp.transpose(jnp.ones((2, 2)), (v, 0))"),
    ("jax.numpy.apply_along_axis", "axis", 1, "jnp.apply_along_axis(jnp.sum, v, jnp.ones((2, 2)))"),
    ("jax.numpy.unstack", "axis", 1, "jnp.unstack(jnp.ones((2, 2)), v)"),
    ("jax.nn.softmax", "axis", 1, "jax.nn.softmax(jnp.ones(3), v)"),
    ("jax.nn.log_softmax", "axis", 1, "jax.nn.log_softmax(jnp.ones(3), v)"),
    ("jax.nn.logsumexp", "axis", 1, "jax.nn.logsumexp(jnp.ones(3), v)"),
    ("jax.nn.standardize", "axis", 1, "jax.nn.standardize(jnp.ones(3), v)"),
    ("jax.nn.glu", "axis", 1, "jax.nn.glu(jnp.ones(4), v)"),
    ("jax.scipy.special.logsumexp", "axis", 1, "jax.scipy.special.logsumexp(jnp.ones(3), v)"),
)


# Static parameters that take strings, dtypes or configuration objects: no JAX value goes there
# (a string given a tracer is JAX207's business), so they are left out of the table.
NOT_VALUES = frozenset(
    "dtype precision preferred_element_type out_sharding method kind order algorithm mode UPLO "
    "fft_type side nan_policy bitorder".split()
)


def _error_of(thunk, arg=1) -> "str | None":
    import jax
    try:
        jax.jit(thunk)(arg)
    except Exception as e:  # noqa: BLE001 - the error is the datum
        name = type(e).__name__
        first = str(e).splitlines()[0] if str(e) else ""
        if name == "ValueError" and first.startswith("Non-hashable static arguments"):
            return "UNHASHABLE"
        if name == "TypeError" and "parameters to jaxpr equations must have __hash__" in first:
            return "PRIMITIVE"
        if name == "TypeError" and first.startswith("unhashable type"):
            return "UNHASHABLE_TYPE"
        if name == "TracerIntegerConversionError":
            return "INDEX"
        if name == "ConcretizationTypeError":
            return "CONCRETIZATION"
        if name == "TracerBoolConversionError":
            return "BOOL"
        return None
    return None


# a parameter the function's own source makes a Python int (not `None`: a concrete array, whose
# traced form is a data-dependent shape, JAX206's business)
_CONVERTS = re.compile(
    r"concrete_or_error\(\s*(?:int|operator\.index)\s*,\s*(\w+)\s*[,)]"
    r"|^\s*(\w+)\s*=\s*operator\.index\(\s*(\w+)\s*\)", re.M)


def _converted_params(fn) -> list[str]:
    """The parameters ``fn``'s source hands to ``concrete_or_error(int|operator.index, p)``
    or rebinds as ``p = operator.index(p)``, in signature order."""
    try:
        src = inspect.getsource(fn)
        sig = inspect.signature(fn)
    except (TypeError, OSError, ValueError):
        return []
    names = set()
    for m in _CONVERTS.finditer(src):
        if m.group(1):
            names.add(m.group(1))
        elif m.group(2) == m.group(3):
            names.add(m.group(2))
    return [p for p in sig.parameters if p in names]


def _covered(apis, q: str, param: str) -> bool:
    if q in apis.AXIS_FUNCTIONS and param == "axis":
        return True
    return any(kw == param for _, kw in apis.size_args(q))


def derive() -> dict[str, tuple[tuple["int | None", str, str], ...]]:
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
    from jaxlint.model import apis
    import jax  # noqa: F401
    import jax.numpy as jnp  # noqa: F401

    table: dict[str, list[tuple["int | None", str, str]]] = {}
    for ns in NAMESPACES:
        mod = importlib.import_module(ns)
        for name in sorted(dir(mod)):
            if name.startswith("_"):
                continue
            fn = getattr(mod, name)
            info = getattr(fn, "_jit_info", None)
            if info is None or not info.static_argnames:
                continue
            q = f"{ns}.{name}"
            sig = info.fun_signature
            params = list(sig.parameters.values()) if sig is not None else []
            for pname in info.static_argnames:
                if pname in NOT_VALUES or _covered(apis, q, pname):
                    continue
                pos = None
                for i, p in enumerate(params):
                    if p.name == pname:
                        if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD):
                            pos = i
                        break
                else:
                    continue  # a static name the signature lacks
                # the static argument is hashed before the body runs: any other argument will do
                required = sum(1 for p in params if p.default is inspect.Parameter.empty and p.kind in (
                    inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD))
                if pos is None:
                    def probe(v, fn=fn, pname=pname, n=required):
                        return fn(*([None] * n), **{pname: v})
                else:
                    def probe(v, fn=fn, pos=pos):
                        return fn(*([None] * pos), v)
                err = _error_of(probe)
                if err is not None:
                    table.setdefault(q, []).append((pos, pname, err))
    import numpy as np

    for ns in NAMESPACES:
        mod = importlib.import_module(ns)
        for name in sorted(dir(mod)):
            fn = getattr(mod, name)
            if name.startswith("_") or not callable(fn) or getattr(fn, "_jit_info", None) is not None:
                continue
            q = f"{ns}.{name}"
            try:
                params = list(inspect.signature(fn).parameters.values())
            except (TypeError, ValueError):
                continue
            positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
            required = [i for i, p in enumerate(params) if p.default is inspect.Parameter.empty and p.kind in positional]
            for pname in _converted_params(fn):
                if _covered(apis, q, pname) or any(n == pname for _, n, _ in table.get(q, ())):
                    continue
                pos = next(i for i, p in enumerate(params) if p.name == pname)
                if params[pos].kind not in positional:
                    continue

                def probe(v, fn=fn, pos=pos, n=max(required + [pos]) + 1, **kw):
                    args = [np.ones(3, np.float32) for _ in range(n)]
                    args[pos] = v
                    return fn(*args, **kw)
                err = _error_of(probe)
                # the model cannot tell a traced int from a traced vector: keep only an
                # argument that raises either way (`histogram_bin_edges` takes 1-D bins traced)
                if err is None or _error_of(probe, np.arange(3)) is None:
                    continue
                # nor a flag that lets the tracer through (`jnp.delete(..., assume_unique_indices=True)`)
                if any(_error_of(lambda v, p=p: probe(v, **{p.name: not p.default})) is None
                       for p in params if isinstance(p.default, bool)):
                    continue
                table.setdefault(q, []).append((pos, pname, err))
    env = {"jax": jax, "jnp": jax.numpy}
    for q, pname, pos, call in PROBES:
        if call is None or _covered(apis, q, pname) or any(n == pname for _, n, _ in table.get(q, ())):
            continue
        err = _error_of(eval(f"lambda v: {call}", env))  # noqa: S307 - the probes above
        if err is not None:
            table.setdefault(q, []).append((pos, pname, err))
    return {q: tuple(sorted(v, key=lambda t: (t[0] is None, t[0] or 0, t[1]))) for q, v in sorted(table.items())}


def render(table) -> str:
    lines = []
    for q, entries in table.items():
        inner = ", ".join(f"({p!r}, {n!r}, {e!r})" for p, n, e in entries)
        lines.append(f"    {q!r}: ({inner},),")
    return "\n".join(lines)


TARGET = pathlib.Path(__file__).resolve().parents[1] / "jaxlint" / "model" / "static_args.py"
BEGIN, END = "# BEGIN GENERATED", "# END GENERATED"


def main(argv) -> int:
    body = render(derive())
    if "--check" in argv:
        text = TARGET.read_text()
        current = text[text.index(BEGIN) + len(BEGIN):text.index(END)].strip("\n")
        if current != body:
            print("jaxlint/model/static_args.py differs from the installed JAX's: run bench/static_args.py --write")
            return 1
        return 0
    if "--write" in argv:
        text = TARGET.read_text()
        head, tail = text[:text.index(BEGIN) + len(BEGIN)], text[text.index(END):]
        TARGET.write_text(f"{head}\n{body}\n{tail}")
        return 0
    print(body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
