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
    sharding: Optional[dict] = None  # see ``sharding_of``


@dataclass
class Host:
    value: np.ndarray
    dtype: str
    weak: bool = False
    sharding: Optional[dict] = None

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.value.shape)


def _is_key_dtype(dtype: Any) -> bool:
    try:
        return jnp.issubdtype(dtype, jax.dtypes.prng_key)
    except Exception:  # noqa: BLE001
        return False


# ----------------------------------------------------------------------------- shardings


def _spec_entries(spec: Any) -> list:
    out: list = []
    for entry in tuple(spec):
        if entry is None or isinstance(entry, str):
            out.append(entry)
        elif isinstance(entry, (tuple, list)) and all(isinstance(a, str) for a in entry):
            out.append(list(entry))
        else:
            raise ValueError(f"unsupported PartitionSpec entry {entry!r}")
    return out


def sharding_of(v: Any) -> Optional[dict]:
    """An array's sharding as plain data: a ``NamedSharding`` (mesh axis names and
    sizes, axis types, PartitionSpec, device ids when concrete) or a
    ``SingleDeviceSharding`` (device id, platform).  A tracer has the abstract mesh
    of its type (no device ids), and only when that mesh has axes, all of them
    ``Explicit`` (with ``Auto`` axes its spec is not the input's).  None otherwise."""
    try:
        s = v.aval.sharding if isinstance(v, Tracer) else v.sharding
        if isinstance(s, jax.sharding.NamedSharding):
            mesh = s.mesh
            names = [str(a) for a in mesh.axis_names]
            if not names:
                return None
            sizes = [int(n) for n in (mesh.axis_sizes if hasattr(mesh, "axis_sizes")
                                      else mesh.devices.shape)]
            devices = None
            if isinstance(mesh, jax.sharding.Mesh):
                devices = [int(d.id) for d in mesh.devices.flat]
            types = [getattr(t, "name", str(t)) for t in (getattr(mesh, "axis_types", None)
                                                           or ())]
            if isinstance(v, Tracer) and any(t != "Explicit" for t in types):
                return None  # only Explicit axes put the spec in a tracer's type
            return {"kind": "named", "axes": names, "sizes": sizes, "types": types,
                    "spec": _spec_entries(s.spec), "devices": devices}
        if isinstance(s, jax.sharding.SingleDeviceSharding):
            (device,) = s.device_set
            return {"kind": "single", "device": int(device.id), "platform": device.platform}
    except Exception:  # noqa: BLE001 - an unknown kind of sharding: none recorded
        return None
    return None


def _valid_sharding(d: Any) -> Optional[dict]:
    """``d`` if it is a sharding ``sharding_of`` could have written (from the cache)."""
    def names(xs: Any) -> bool:
        return isinstance(xs, list) and all(isinstance(x, str) for x in xs)

    if not isinstance(d, dict):
        return None
    if d.get("kind") == "single" and isinstance(d.get("device"), int):
        return d
    if d.get("kind") == "named" and names(d.get("axes")) and names(d.get("types", [])) \
            and isinstance(d.get("sizes"), list) \
            and all(isinstance(n, int) and n > 0 for n in d["sizes"]) \
            and len(d["sizes"]) == len(d["axes"]) and isinstance(d.get("spec"), list) \
            and all(e is None or isinstance(e, str) or names(e) for e in d["spec"]) \
            and (d.get("devices") is None or (isinstance(d["devices"], list) and all(
                isinstance(i, int) for i in d["devices"]))):
        return d
    return None


def spec_text(d: dict) -> str:
    """``P('data', None) on mesh {data: 2}`` or ``device 1``."""
    if d.get("kind") == "single":
        return f"device {d.get('device')}"
    entries = ", ".join("None" if e is None else repr(e) if isinstance(e, str)
                        else "(" + ", ".join(map(repr, e)) + ")" for e in d["spec"])
    mesh = ", ".join(f"{a}: {n}" for a, n in zip(d["axes"], d["sizes"]))
    return f"P({entries}) on mesh {{{mesh}}}"


def rebuild_sharding(d: dict) -> tuple[Any, str]:
    """(the sharding re-created on this process's devices, or None; what was done)."""
    devices = jax.devices()
    by_id = {int(dev.id): dev for dev in devices}
    if d.get("kind") == "single":
        dev = by_id.get(int(d["device"]))
        if dev is None:
            return None, (f"device {d['device']} is not here ({len(devices)} device(s)): "
                          "the default device is used")
        return jax.sharding.SingleDeviceSharding(dev), f"re-created on device {dev.id}"
    n = int(np.prod(d["sizes"]))
    ids = d.get("devices")
    if ids is not None and len(ids) == n and all(i in by_id for i in ids):
        chosen, where = [by_id[i] for i in ids], "the recorded devices"
    elif len(devices) >= n:
        chosen, where = devices[:n], f"the first {n} device(s) here"
    else:
        return None, (f"{spec_text(d)} not re-created: it needs {n} devices and "
                      f"{len(devices)} are here; the inputs are unsharded")
    kwargs = {}
    types = d.get("types") or []
    AxisType = getattr(jax.sharding, "AxisType", None)
    if AxisType is not None and len(types) == len(d["axes"]) \
            and all(hasattr(AxisType, t) for t in types):
        kwargs["axis_types"] = tuple(getattr(AxisType, t) for t in types)
    mesh = jax.sharding.Mesh(np.array(chosen, dtype=object).reshape(d["sizes"]),
                             tuple(d["axes"]), **kwargs)
    spec = jax.sharding.PartitionSpec(*[tuple(e) if isinstance(e, list) else e
                                        for e in d["spec"]])
    return jax.sharding.NamedSharding(mesh, spec), f"{spec_text(d)} re-created on {where}"


# tracers of differentiation outside any jit (`jax.grad(loss)(params, x)` run eagerly):
# their primal is the concrete value the call was made with
_PRIMAL_TRACERS = frozenset({"LinearizeTracer", "JVPTracer"})


def _primal(v: Any) -> Any:
    """The concrete value under a differentiation tracer (same shape and dtype), or ``v``."""
    t = v
    while isinstance(t, Tracer) and type(t).__name__ in _PRIMAL_TRACERS:
        t = getattr(t, "primal", None)
    return t if isinstance(t, jax.Array) and not isinstance(t, Tracer) else v


def _snap_leaf(v: Any) -> Any:
    v = _primal(v)
    if isinstance(v, Tracer):
        aval = getattr(v, "aval", None)
        shape = tuple(getattr(aval, "shape", ()) or ())
        dtype = getattr(aval, "dtype", None)
        if dtype is None:
            return v
        if _is_key_dtype(dtype):
            return Abstract(shape, "key")
        return Abstract(shape, str(np.dtype(dtype)), bool(getattr(aval, "weak_type", False)),
                        sharding_of(v))
    if isinstance(v, jax.Array):
        if _is_key_dtype(v.dtype):
            return v  # keys are small and immutable; kept live
        sharding = sharding_of(v)
        if v.size > HOST_COPY_LIMIT:
            return Abstract(tuple(v.shape), str(v.dtype), bool(getattr(v, "weak_type", False)),
                            sharding)
        try:
            return Host(np.array(v), str(v.dtype), bool(getattr(v, "weak_type", False)),
                        sharding)
        except Exception:  # noqa: BLE001 - a deleted (donated) buffer
            return Abstract(tuple(v.shape), str(v.dtype), sharding=sharding)
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


def signature(values: list, static: Optional[tuple[int, ...]]) -> tuple:
    """What makes JAX trace a call afresh: array shapes and dtypes, and the values
    of static arguments (every non-array value when ``static`` is None)."""
    def leaf(v: Any, traced: bool = False) -> Any:
        if isinstance(v, (Abstract, Host)):
            return (tuple(v.shape), v.dtype)
        if traced and isinstance(v, (bool, int, float, complex)):
            return ("scalar", type(v).__name__)  # traced by a jit: its value does not count
        if isinstance(v, (Tracer, jax.Array, np.ndarray)):
            aval = getattr(v, "aval", v)
            dtype = getattr(aval, "dtype", None)
            return (tuple(getattr(aval, "shape", ())), "key" if _is_key_dtype(dtype)
                    else str(np.dtype(dtype)) if dtype is not None else "?")
        try:
            hash(v)
            return ("value", v) if isinstance(v, (bool, int, float, str, type(None))) \
                else ("object", id(v))
        except TypeError:
            return ("object", id(v))

    out = []
    for i, v in enumerate(values):
        if static is not None and i in static:
            out.append(leaf(v) if not isinstance(v, (bool, int, float, str, type(None)))
                       else ("value", v))
            continue
        try:
            leaves, tree = jax.tree_util.tree_flatten(v)
            out.append((str(tree), tuple(leaf(x, static is not None) for x in leaves)))
        except Exception:  # noqa: BLE001
            out.append(leaf(v))
    return tuple(out)


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
        out = {"t": "array", "shape": list(tree.shape), "dtype": tree.dtype, "weak": tree.weak}
        if tree.sharding is not None:
            out["sharding"] = tree.sharding
        return out
    if isinstance(tree, Host):
        out = {"t": "array", "shape": list(tree.value.shape), "dtype": tree.dtype,
               "weak": tree.weak}
        if tree.value.size <= JSON_VALUES_LIMIT and tree.value.dtype.kind in "biuf":
            out["values"] = tree.value.ravel().tolist()
        if tree.sharding is not None:
            out["sharding"] = tree.sharding
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
        sharding = _valid_sharding(obj.get("sharding"))
        if "values" in obj and dtype != "key":
            value = np.asarray(obj["values"], dtype=dtype).reshape(shape)
            return Host(value, dtype, bool(obj.get("weak")), sharding)
        return Abstract(shape, dtype, bool(obj.get("weak")), sharding)
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
            text = f"{dtype}[{','.join(map(str, v.shape))}]"
            if v.sharding is not None and v.sharding.get("kind") == "named":
                text += f" sharded {spec_text(v.sharding)}"
            return text
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
        self.more: list[ObservedArgs] = []  # later calls with other signatures, in order
        self._shardings: dict[str, Any] = {}
        self.sharding_notes: list[str] = []  # what became of each observed sharding

    def _sharding(self, v: Any) -> Any:
        """The observed leaf's sharding re-created here, or None (noted either way)."""
        d = getattr(v, "sharding", None)
        if not isinstance(d, dict):
            return None
        key = repr(sorted(d.items()))
        if key not in self._shardings:
            try:
                sharding, note = rebuild_sharding(d)
            except Exception as exc:  # noqa: BLE001
                sharding, note = None, (f"{spec_text(d)} not re-created "
                                        f"({exc.__class__.__name__}: {exc}); unsharded")
            self._shardings[key] = sharding
            if d.get("kind") == "named" or sharding is None or d.get("device"):
                self.sharding_notes.append(note)
        return self._shardings[key]

    def abstract(self, typed_keys: bool = False) -> list:
        def leaf(v: Any) -> Any:
            if typed_keys and raw_key(v):  # a key in a pytree, a loop's carried state
                return jax.ShapeDtypeStruct(tuple(v.shape[:-1]), jax.random.key(0).dtype)
            if isinstance(v, Abstract):
                if v.dtype == "key":
                    return jax.ShapeDtypeStruct(v.shape, jax.random.key(0).dtype)
                return jax.ShapeDtypeStruct(v.shape, jnp.dtype(v.dtype),
                                            sharding=self._sharding(v))
            if isinstance(v, Host):
                return jax.ShapeDtypeStruct(v.value.shape, jnp.dtype(v.dtype),
                                            sharding=self._sharding(v))
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
            if typed_keys and raw_key(v):
                if isinstance(v, Host):  # the recorded bits, as a typed key
                    return jax.random.wrap_key_data(jnp.asarray(v.value, dtype=jnp.uint32))
                counter[0] += 1
                shape = tuple(v.shape[:-1])
                key = jax.random.key(counter[0])
                return key if not shape else jax.random.split(key, int(np.prod(shape))
                                                              ).reshape(shape)
            if isinstance(v, Abstract):
                if v.dtype == "key":
                    counter[0] += 1
                    key = jax.random.key(counter[0])
                    return key if not v.shape else jax.random.split(key, int(np.prod(v.shape))
                                                                     ).reshape(v.shape)
                return self._placed(_random(rng, v.shape, v.dtype), v)
            if isinstance(v, Host):
                return self._placed(jnp.asarray(v.value, dtype=jnp.dtype(v.dtype)), v)
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


    def _placed(self, array: Any, v: Any) -> Any:
        sharding = self._sharding(v)
        return jax.device_put(array, sharding) if sharding is not None else array


def raw_key(v: Any) -> bool:
    """A snapped raw ``uint32[..., 2]`` array: a legacy PRNG key (``random.PRNGKey``), which
    the key-reuse checker sees only once wrapped as a typed key (``wrap_key_data``)."""
    return isinstance(v, (Abstract, Host)) and v.dtype == "uint32" and len(v.shape) >= 1 \
        and v.shape[-1] == 2


def has_raw_keys(values: list) -> bool:
    found = [False]

    def leaf(v: Any) -> Any:
        found[0] = found[0] or raw_key(v)
        return v

    for v in values:
        _tree_map(leaf, v)
    return found[0]


def note_shardings(result: Any, args: Any) -> None:
    """What became of the observed shardings goes into the verdict's details; one
    that could not be re-created is also said in the evidence or reason."""
    notes = list(getattr(args, "sharding_notes", []))
    if notes:
        result.details["shardings"] = notes
        for note in notes:
            if "not re-created" in note or "is not here" in note:
                result.annotate(note)


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


def observed_values(args: Args) -> bool:
    """Whether every floating-point leaf of the arguments is a value the --run recorded
    (not one seeded for a shape it recorded)."""
    if not isinstance(args, ObservedArgs):
        return False
    leaves = [leaf for i in args.dynamic_positions()
              for leaf in jax.tree_util.tree_leaves(
                  args.values[i], is_leaf=lambda v: isinstance(v, (Abstract, Host)))]
    return any(isinstance(v, Host) for v in leaves) and not any(
        isinstance(v, Abstract) and v.dtype != "key" for v in leaves)
