"""Input specs: how the runtime companion builds arguments (pure Python, no JAX).

A spec is one string per positional argument:

    f32[128,128]   a float32 array of that shape (abstract for trace checks,
                   seeded random data for behaviour checks and benchmarks)
    i32[]          a scalar int32 array;  dims may be names: f32[n,m] (each
                   name takes ``default-dim``)
    key            a typed PRNG key (``jax.random.key``)
    legacy-key     a raw uint32[2] key (``jax.random.PRNGKey``); key-reuse
                   checks substitute a typed key
    static:3       a static (hashable, concrete) Python value, any literal
    none           ``None``

Annotations are turned into specs when nothing is declared: ``jax.Array`` ->
``f32[default-dim]``, jaxtyping ``Float[Array, "n m"]`` -> ``f32[n,m]``,
``float`` -> ``f32[]``, ``int`` -> ``i32[]``, ``bool`` -> ``bool[]``.
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass, field
from typing import Any, Optional

DTYPES = {
    "f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
    "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
    "c64": "complex64", "c128": "complex128", "bool": "bool", "b1": "bool",
}
_ARRAY_RE = re.compile(r"^\s*([a-z0-9]+)\s*\[\s*([^\]]*)\]\s*$")

# jaxtyping dtype classes -> our dtype codes
_JAXTYPING = {
    "Float": "f32", "Float32": "f32", "Float64": "f64", "Float16": "f16", "BFloat16": "bf16",
    "Inexact": "f32", "Real": "f32", "Num": "f32", "Shaped": "f32",
    "Int": "i32", "Int32": "i32", "Int64": "i64", "Int8": "i8", "Integer": "i32",
    "UInt": "u32", "UInt32": "u32", "UInt8": "u8", "Bool": "bool",
    "Complex": "c64", "Complex64": "c64", "Key": "key", "PRNGKeyArray": "key",
}
_JT_RE = re.compile(r"^(?:\w+\.)*(\w+)\[\s*(?:\w+\.)*\w+\s*,\s*['\"]([^'\"]*)['\"]\s*\]$")


class SpecError(ValueError):
    """An input spec that cannot be understood (one line)."""


@dataclass(frozen=True)
class Spec:
    kind: str  # "array" | "key" | "legacy-key" | "static" | "none"
    dtype: str = ""  # numpy dtype name for arrays
    shape: tuple[int, ...] = ()
    value: Any = None  # static value
    text: str = ""  # how it was written / derived, for the report

    def describe(self) -> str:
        return self.text


def parse_spec(text: str, default_dim: int = 8) -> Spec:
    """Parse one spec string (raises SpecError)."""
    if not isinstance(text, str):
        raise SpecError(f"input spec must be a string, got {text!r}")
    s = text.strip()
    low = s.lower()
    if low == "key":
        return Spec("key", text="key")
    if low in ("legacy-key", "prngkey", "raw-key"):
        return Spec("legacy-key", text="legacy-key")
    if low == "none":
        return Spec("static", value=None, text="static:None")
    if low.startswith("static:"):
        raw = s[len("static:"):].strip()
        try:
            value = ast.literal_eval(raw)
        except (ValueError, SyntaxError):
            raise SpecError(f"static value must be a Python literal: {text!r}") from None
        return Spec("static", value=value, text=f"static:{raw}")
    m = _ARRAY_RE.match(low)
    if not m or m.group(1) not in DTYPES:
        raise SpecError(
            f"cannot read input spec {text!r} (expected e.g. 'f32[128,128]', 'i32[]', "
            "'key', 'legacy-key', 'static:3')"
        )
    dims: list[int] = []
    for part in (p.strip() for p in m.group(2).split(",")):
        if not part:
            continue
        if part.isdigit():
            dims.append(int(part))
        elif re.fullmatch(r"[a-z_*#.][\w*#.]*", part) or part == "...":
            dims.append(default_dim)  # a named (or variadic) dimension
        else:
            raise SpecError(f"bad dimension {part!r} in input spec {text!r}")
    shape = tuple(dims)
    return Spec("array", dtype=DTYPES[m.group(1)], shape=shape,
                text=f"{m.group(1)}[{','.join(map(str, shape))}]")


def _public_name(ann: Any, mod: str, name: str) -> str:
    """How the user writes a JAX type: ``jax.Array``, not where it is defined
    (``jax.jaxlib._jax.Array``); the defining module when no public one holds it."""
    import sys

    short = name.split(".")[-1]  # jax.Array calls itself `jaxlib._jax.Array`
    for public in ("jax", "jax.numpy", "jax.random", "jax.typing"):
        module = sys.modules.get(public)
        if module is not None and getattr(module, short, None) is ann:
            return f"{public}.{short}"
    return f"{mod}.{name}"


def spec_from_annotation(ann: Any, default_dim: int = 8) -> Optional[Spec]:
    """A spec derived from a parameter annotation (object or string), or None."""
    if ann is None:
        return None
    if isinstance(ann, str):
        text = ann.strip()
    else:
        mod = getattr(ann, "__module__", "") or ""
        name = getattr(ann, "__qualname__", None) or getattr(ann, "__name__", None)
        if ann is float:
            text = "float"
        elif ann is int:
            text = "int"
        elif ann is bool:
            text = "bool"
        elif mod.startswith("jaxtyping") and hasattr(ann, "dim_str"):
            base = getattr(ann, "__name__", "").split("[")[0]
            text = f"{base}[Array, '{ann.dim_str}']"
        elif name and (mod.startswith("jax") or mod.startswith("jaxlib")):
            text = _public_name(ann, mod, name)
        else:
            text = str(ann)
    text = text.replace('"', "'")
    if text in ("float", "builtins.float"):
        return Spec("array", dtype="float32", shape=(), text="f32[] (from annotation float)")
    if text in ("int", "builtins.int"):
        return Spec("array", dtype="int32", shape=(), text="i32[] (from annotation int)")
    if text in ("bool", "builtins.bool"):
        return Spec("array", dtype="bool", shape=(), text="bool[] (from annotation bool)")
    tail = text.split(".")[-1]
    if tail in ("Array", "ndarray", "ArrayLike", "ArrayImpl") and "[" not in text:
        return Spec("array", dtype="float32", shape=(default_dim,),
                    text=f"f32[{default_dim}] (from annotation {text}, default size)")
    if tail in ("PRNGKeyArray",):
        return Spec("key", text=f"key (from annotation {text})")
    m = _JT_RE.match(text)
    if m and m.group(1) in _JAXTYPING:
        code = _JAXTYPING[m.group(1)]
        if code == "key":
            return Spec("key", text=f"key (from annotation {text})")
        spec = parse_spec(f"{code}[{','.join(m.group(2).split())}]", default_dim)
        return Spec(spec.kind, spec.dtype, spec.shape, text=f"{spec.text} (from annotation {text})")
    return None


@dataclass
class RuntimeOptions:
    """What ``[tool.jaxlint.runtime]`` and the command line configure."""

    inputs: dict[str, list[str]] = field(default_factory=dict)
    default_dim: int = 8
    timeout: float = 60.0
    runs: int = 20
    device: Optional[str] = None  # cpu | gpu | tpu | None (JAX's default)
    seed: int = 0
    run_timeout: float = 600.0  # seconds per --run command
    # GiB of data memory each worker process may use (0: no limit; None: default_memory_limit())
    memory_limit: Optional[float] = None


RUNTIME_KEYS = ("inputs", "default-dim", "timeout", "runs", "run", "run-timeout", "memory-limit")


def default_memory_limit() -> float:
    """Half the machine's physical memory, in GiB (0, no limit, where it is not known)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return 0.0
    return round(total / 2 / (1 << 30), 1) if total > 0 else 0.0


def read_runtime_table(table: Any, where: str) -> dict[str, Any]:
    """Validate a ``[tool.jaxlint.runtime]`` table; return normalised values."""
    if not isinstance(table, dict):
        raise SpecError(f"{where}: [tool.jaxlint.runtime] must be a table")
    out: dict[str, Any] = {}
    for key, value in table.items():
        if key == "inputs":
            if not isinstance(value, dict) or not all(
                isinstance(v, list) and all(isinstance(s, str) for s in v) for v in value.values()
            ):
                raise SpecError(f"{where}: runtime.inputs must be a table of "
                                "\"module.function\" = [\"f32[8]\", ...]")
            for name, specs in value.items():
                for s in specs:
                    try:
                        parse_spec(s)
                    except SpecError as exc:
                        raise SpecError(f"{where}: runtime.inputs.\"{name}\": {exc}") from None
            out["inputs"] = {k: list(v) for k, v in value.items()}
        elif key in ("default-dim", "runs"):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise SpecError(f"{where}: runtime.{key} must be a positive integer")
            out[key.replace("-", "_")] = value
        elif key in ("timeout", "run-timeout"):
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
                raise SpecError(f"{where}: runtime.{key} must be a positive number (seconds)")
            out[key.replace("-", "_")] = float(value)
        elif key == "memory-limit":
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
                raise SpecError(f"{where}: runtime.memory-limit must be a number of GiB "
                                "(0 for no limit)")
            out["memory_limit"] = float(value)
        elif key == "run":
            if isinstance(value, str):  # one command
                value = [value]
            if not isinstance(value, list) or not value or not all(
                    isinstance(c, str) and c.strip() and "\0" not in c for c in value):
                raise SpecError(f"{where}: runtime.run must be a command or a list of commands "
                                "(non-empty strings), e.g. \"python train.py --steps 2\", "
                                f"got {value!r}"[:300])
            out["run"] = list(value)
        else:
            raise SpecError(f"{where}: unknown key runtime.{key}; expected one of: "
                            + ", ".join(RUNTIME_KEYS))
    return out
