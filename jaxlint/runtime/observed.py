"""Arguments observed while the user's own code ran (imports JAX; recorder and worker side).

At a watched function's first call the recorder *snaps* its arguments: tracers
become ``Abstract`` (shape, dtype, weak type: what tracing needs), concrete
arrays become ``Host`` copies (so a later donation or deletion cannot spoil
them; large ones keep only their abstract value), anything else (Python
values, objects, iterators) stays live.  ``ObservedArgs`` turns a snapped
argument list back into abstract inputs (``jax.ShapeDtypeStruct``) for trace
checks and concrete inputs for behaviour checks.

A snap made only of containers, arrays and Python literals is *portable*:
``to_json`` writes it to the cache, and a worker in a later run rebuilds it
with ``from_json``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any, Optional

import jax
import jax.numpy as jnp
import numpy as np

from jaxlint.runtime.context import Args
from jaxlint.runtime.specs import Spec

try:  # the public alias moved between versions
    from jax.core import Tracer  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    from jax._src.core import Tracer

HOST_COPY_LIMIT = 1 << 20  # elements: larger concrete arrays keep only shape and dtype
JSON_VALUES_LIMIT = 4096  # elements: smaller arrays keep their values in the cache


class NotPortable(ValueError):
    """A snapped value that cannot be written to the cache (an object, a closure...)."""


@dataclass
class Abstract:
    shape: tuple[int, ...]
    dtype: str  # numpy dtype name, or "key" for a typed PRNG key
    weak: bool = False


@dataclass
class Host:
    value: np.ndarray
    dtype: str
    weak: bool = False

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.value.shape)


def _is_key_dtype(dtype: Any) -> bool:
    try:
        return jnp.issubdtype(dtype, jax.dtypes.prng_key)
    except Exception:  # noqa: BLE001
        return False


def _snap_leaf(v: Any) -> Any:
    if isinstance(v, Tracer):
        aval = getattr(v, "aval", None)
        shape = tuple(getattr(aval, "shape", ()) or ())
        dtype = getattr(aval, "dtype", None)
        if dtype is None:
            return v
        if _is_key_dtype(dtype):
            return Abstract(shape, "key")
        return Abstract(shape, str(np.dtype(dtype)), bool(getattr(aval, "weak_type", False)))
    if isinstance(v, jax.Array):
        if _is_key_dtype(v.dtype):
            return v  # keys are small and immutable; kept live
        if v.size > HOST_COPY_LIMIT:
            return Abstract(tuple(v.shape), str(v.dtype), bool(getattr(v, "weak_type", False)))
        try:
            return Host(np.array(v), str(v.dtype), bool(getattr(v, "weak_type", False)))
        except Exception:  # noqa: BLE001 - a deleted (donated) buffer
            return Abstract(tuple(v.shape), str(v.dtype))
    if isinstance(v, np.ndarray):
        if v.size > HOST_COPY_LIMIT:
            return Abstract(tuple(v.shape), str(v.dtype))
        return Host(v.copy(), str(v.dtype))
    return v


def snap(value: Any) -> Any:
    """What the checks need from one argument, safe to keep after the call returns."""
    try:
        return jax.tree_util.tree_map(_snap_leaf, value)
    except Exception:  # noqa: BLE001 - a pytree that will not rebuild with our leaves
        return _snap_leaf(value)


def _is_array_leaf(v: Any) -> bool:
    return isinstance(v, (Abstract, Host, jax.Array, np.ndarray))


def has_arrays(tree: Any) -> bool:
    return any(_is_array_leaf(leaf) for leaf in jax.tree_util.tree_leaves(tree))


# ----------------------------------------------------------------------------- JSON


def to_json(tree: Any) -> Any:
    if tree is None:
        return {"t": "none"}
    if isinstance(tree, (bool, int, float, str, complex, bytes)):
        return {"t": "py", "repr": repr(tree)}
    if isinstance(tree, Abstract):
        return {"t": "array", "shape": list(tree.shape), "dtype": tree.dtype, "weak": tree.weak}
    if isinstance(tree, Host):
        out = {"t": "array", "shape": list(tree.value.shape), "dtype": tree.dtype,
               "weak": tree.weak}
        if tree.value.size <= JSON_VALUES_LIMIT and tree.value.dtype.kind in "biuf":
            out["values"] = tree.value.ravel().tolist()
        return out
    if isinstance(tree, jax.Array) and _is_key_dtype(tree.dtype):
        return {"t": "array", "shape": list(tree.shape), "dtype": "key", "weak": False}
    if isinstance(tree, (list, tuple)) and type(tree) in (list, tuple):
        return {"t": type(tree).__name__, "items": [to_json(v) for v in tree]}
    if type(tree) is dict and all(isinstance(k, (str, int)) for k in tree):
        return {"t": "dict", "items": [[k, to_json(v)] for k, v in tree.items()]}
    raise NotPortable(type(tree).__name__)


def from_json(obj: Any) -> Any:
    """The inverse of ``to_json`` (raises ValueError on anything it did not write)."""
    if not isinstance(obj, dict):
        raise ValueError("not an observed value")
    t = obj.get("t")
    if t == "none":
        return None
    if t == "py":
        return ast.literal_eval(str(obj["repr"]))
    if t == "array":
        shape = tuple(int(d) for d in obj["shape"])
        dtype = str(obj["dtype"])
        if dtype != "key":
            np.dtype(dtype)  # raises on nonsense
        if "values" in obj and dtype != "key":
            value = np.asarray(obj["values"], dtype=dtype).reshape(shape)
            return Host(value, dtype, bool(obj.get("weak")))
        return Abstract(shape, dtype, bool(obj.get("weak")))
    if t in ("list", "tuple"):
        items = [from_json(v) for v in obj["items"]]
        return items if t == "list" else tuple(items)
    if t == "dict":
        return {k: from_json(v) for k, v in obj["items"]}
    raise ValueError(f"unknown observed kind {t!r}")


# ----------------------------------------------------------------------------- description


def describe(tree: Any, limit: int = 80) -> str:
    def one(v: Any) -> str:
        if isinstance(v, (Abstract, Host)):
            dtype = v.dtype if v.dtype == "key" else _short_dtype(v.dtype)
            return f"{dtype}[{','.join(map(str, v.shape))}]"
        if isinstance(v, jax.Array):
            return f"{_short_dtype(str(v.dtype))}[{','.join(map(str, v.shape))}]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{k!r}: {one(x)}" for k, x in v.items()) + "}"
        if isinstance(v, list):
            return "[" + ", ".join(one(x) for x in v) + "]"
        if isinstance(v, tuple):
            return "(" + ", ".join(one(x) for x in v) + ("," if len(v) == 1 else "") + ")"
        if v is None or isinstance(v, (bool, int, float, str)):
            return repr(v)
        return f"<{type(v).__name__}>"

    text = one(tree)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_SHORT = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16",
          "int32": "i32", "int64": "i64", "int8": "i8", "uint8": "u8", "uint32": "u32",
          "bool": "bool", "complex64": "c64"}


def _short_dtype(name: str) -> str:
    if name.startswith("key"):
        return "key"
    return _SHORT.get(name, name)


# ----------------------------------------------------------------------------- arguments


def _spec_for(tree: Any, static: bool) -> Spec:
    if static:
        return Spec("static", value=tree, text=describe(tree))
    if isinstance(tree, (Abstract, Host)):
        if tree.dtype == "key":
            return Spec("key", text="key")
        if tree.dtype == "uint32" and tuple(tree.shape) == (2,):
            return Spec("legacy-key", text="legacy-key")
        return Spec("array", dtype=tree.dtype, shape=tuple(tree.shape), text=describe(tree))
    return Spec("tree", text=describe(tree))


class ObservedArgs(Args):
    """Arguments snapped from a real call: trees with Abstract / Host / live leaves."""

    def __init__(self, values: list, described: list[str], static: tuple[int, ...],
                 seed: int = 0) -> None:
        specs = [_spec_for(v, i in static) for i, v in enumerate(values)]
        super().__init__(specs, described, static, seed)
        self.values = values

    def abstract(self, typed_keys: bool = False) -> list:
        def leaf(v: Any) -> Any:
            if isinstance(v, Abstract):
                if v.dtype == "key":
                    return jax.ShapeDtypeStruct(v.shape, jax.random.key(0).dtype)
                return jax.ShapeDtypeStruct(v.shape, jnp.dtype(v.dtype))
            if isinstance(v, Host):
                return jax.ShapeDtypeStruct(v.value.shape, jnp.dtype(v.dtype))
            if isinstance(v, jax.Array):
                return jax.ShapeDtypeStruct(v.shape, v.dtype)
            return v

        out = []
        for i, v in enumerate(self.values):
            if i in self.static:
                out.append(v)
            elif typed_keys and self.specs[i].kind == "legacy-key":
                out.append(jax.ShapeDtypeStruct((), jax.random.key(0).dtype))
            else:
                out.append(_tree_map(leaf, v))
        return out

    def concrete(self, typed_keys: bool = False) -> list:
        rng = np.random.default_rng(self.seed)
        counter = [self.seed]

        def leaf(v: Any) -> Any:
            if isinstance(v, Abstract):
                if v.dtype == "key":
                    counter[0] += 1
                    key = jax.random.key(counter[0])
                    return key if not v.shape else jax.random.split(key, int(np.prod(v.shape))
                                                                     ).reshape(v.shape)
                return _random(rng, v.shape, v.dtype)
            if isinstance(v, Host):
                return jnp.asarray(v.value, dtype=jnp.dtype(v.dtype))
            return v

        out = []
        for i, v in enumerate(self.values):
            if i in self.static:
                out.append(v)
            elif typed_keys and self.specs[i].kind == "legacy-key":
                out.append(jax.random.key(self.seed + i))
            else:
                out.append(_tree_map(leaf, v))
        return out


def _tree_map(fn: Any, tree: Any) -> Any:
    try:
        return jax.tree_util.tree_map(fn, tree)
    except Exception:  # noqa: BLE001
        return fn(tree)


def _random(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> Any:
    dt = np.dtype(dtype) if dtype != "bfloat16" else np.dtype(np.float32)
    if np.issubdtype(dt, np.floating) or np.issubdtype(dt, np.complexfloating):
        arr = rng.standard_normal(shape).astype(np.float32)
    elif dt == np.bool_:
        arr = rng.random(shape) > 0.5
    else:
        arr = rng.integers(0, 4, size=shape)
    return jnp.asarray(arr, dtype=jnp.dtype(dtype))


def static_positions(values: list, jit_static: Optional[tuple[int, ...]]) -> tuple[int, ...]:
    """Static: what the user's jit declares; for a function not jitted, the arguments
    that hold no array (Python values the code may use as shapes or flags)."""
    if jit_static is not None:
        return tuple(sorted(jit_static))
    return tuple(i for i, v in enumerate(values) if not has_arrays(v))


def observed_args(ctx: Any, t: Any, observed: dict) -> Optional[ObservedArgs]:
    """Arguments from a portable observation (the cache or this run), or None."""
    import inspect

    if not isinstance(observed.get("args"), list):
        return None
    try:
        values = [from_json(v) for v in observed["args"]]
    except (ValueError, KeyError, TypeError, SyntaxError):
        return None
    try:
        params = [p.name for p in inspect.signature(t.raw).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    names = params + [f"arg{i}" for i in range(len(params), len(values))]
    where = f"observed in --run `{observed.get('command', '')}`"
    described = [f"{n}: {describe(v)} ({where})" for n, v in zip(names, values)]
    static = static_positions(values, t.static_argnums if t.jitted else None)
    return ObservedArgs(values, described, static, ctx.seed)
