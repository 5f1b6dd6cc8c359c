"""Batch 10's misses by mechanism (issue 22, branch recallY): x64 switched on after a
module's import made arrays in a def's defaults or a class body; a function rebound to its
own jit (`f = jax.jit(f)`); a conditional expression of unhashable values in a static
position; a new Python float in a static argument.

Each INVALID program was run with JAX 0.10.2 (equinox 0.13.8) and shows what its comment
says; the VALID twins run and stay silent."""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str], select: str) -> list[tuple]:
    root.mkdir(parents=True, exist_ok=True)
    return lint_files(root, monkeypatch, files, select=select)


# 1. x64 switched on after importing a module whose import made arrays outside its top-level
# statements (case 1038, tinygp#51: `def __init__(self, scale=jnp.ones(()))`): a def's
# parameter defaults, its decorators and a class body run when the module is imported.
# Written here as a module function's default reached through the package's `__init__`
# (prints `default lengthscale dtype: float32` after x64 is on), and as class attributes
# (prints `prior scale dtype: float32`). The twins make the default in the body or in a
# `default_factory` lambda (run at call time: float64), or switch x64 on before the import.
DEFAULT_ARG = {
    "kern/__init__.py": """\
from kern.ops import rbf, scale_of

__all__ = ["rbf", "scale_of"]
""",
    "kern/ops.py": """\
import jax.numpy as jnp


def rbf(x, y, lengthscale=jnp.asarray(0.5)):
    return jnp.exp(-((x - y) / lengthscale) ** 2)


def scale_of(lengthscale=jnp.asarray(0.5)):
    return lengthscale
""",
    "main.py": """\
import jax
import kern

jax.config.update("jax_enable_x64", True)

if __name__ == "__main__":
    print("default lengthscale dtype:", kern.scale_of().dtype)
""",
}

DEFAULT_ARG_VALID = {
    "kern/__init__.py": """\
from kern.ops import rbf, scale_of

__all__ = ["rbf", "scale_of"]
""",
    "kern/ops.py": """\
import dataclasses

import jax.numpy as jnp


def rbf(x, y, lengthscale=None):
    if lengthscale is None:
        lengthscale = jnp.asarray(0.5)
    return jnp.exp(-((x - y) / lengthscale) ** 2)


def scale_of(lengthscale=None):
    return jnp.asarray(0.5) if lengthscale is None else lengthscale


@dataclasses.dataclass
class Stationary:
    scale: jnp.ndarray = dataclasses.field(default_factory=lambda: jnp.ones(()))
""",
    "main.py": """\
import jax
import kern

jax.config.update("jax_enable_x64", True)

if __name__ == "__main__":
    print("default lengthscale dtype:", kern.scale_of().dtype)
""",
}


CLASS_BODY = {
    "main.py": """\
from priors.normal import StandardNormal
import jax

jax.config.update("jax_enable_x64", True)

if __name__ == "__main__":
    print("prior scale dtype:", StandardNormal.scale.dtype)
""",
    "priors/__init__.py": """\
""",
    "priors/normal.py": """\
import jax.numpy as jnp


class StandardNormal:
    loc = jnp.zeros(())
    scale = jnp.ones(())

    def sample(self, key, shape=()):
        import jax
        return self.loc + self.scale * jax.random.normal(key, shape)
""",
}

CLASS_BODY_VALID = {
    "main.py": """\
import jax

jax.config.update("jax_enable_x64", True)

from priors.normal import StandardNormal

if __name__ == "__main__":
    print("prior scale dtype:", StandardNormal.scale.dtype)
""",
    "priors/__init__.py": """\
""",
    "priors/normal.py": """\
import jax.numpy as jnp


class StandardNormal:
    loc = jnp.zeros(())
    scale = jnp.ones(())

    def sample(self, key, shape=()):
        import jax
        return self.loc + self.scale * jax.random.normal(key, shape)
""",
}


# 2. A function rebound to its own jit, `simulate = jax.jit(simulate)` after `def simulate`
# (case 1030, QuantEcon lecture-jax#95): calls after the rebinding go through the jit, so an
# argument they pass for a defaulted parameter is traced, and `range(n_steps)` raises
# TracerIntegerConversionError (observed). The twin declares it static.
REBOUND = {
    "sim.py": """\
import jax
import jax.numpy as jnp


def simulate(x0, n_steps=100):
    x = x0
    for _ in range(n_steps):
        x = 0.5 * x + 1.0
    return x


simulate = jax.jit(simulate)

if __name__ == "__main__":
    print(simulate(jnp.ones(2)))
    try:
        print(simulate(jnp.ones(2), n_steps=500))
    except Exception as exc:
        print(type(exc).__name__)
""",
}

REBOUND_VALID = {
    "sim.py": """\
import jax
import jax.numpy as jnp


def simulate(x0, n_steps=100):
    x = x0
    for _ in range(n_steps):
        x = 0.5 * x + 1.0
    return x


simulate = jax.jit(simulate, static_argnames="n_steps")

if __name__ == "__main__":
    print(simulate(jnp.ones(2)))
    print(simulate(jnp.ones(2), n_steps=50))
""",
}


# 3. A static argument bound to a conditional expression whose branches are both unhashable
# (case 1004, long-range-arena#7: `dict(config['model_kwargs']) if ... else {}`), here a
# list either way, to a function jitted in another module (observed: `ValueError:
# Non-hashable static arguments are not supported`). The twin builds tuples.
IFEXP = {
    "main.py": """\
import jax

from model.build import init_mlp


def run(cfg):
    widths = list(cfg["widths"]) if "widths" in cfg else [32, 32]
    return init_mlp(jax.random.PRNGKey(0), widths=widths)


if __name__ == "__main__":
    try:
        run({"widths": (8, 8)})
    except Exception as exc:
        print(type(exc).__name__, str(exc).splitlines()[0][:60])
""",
    "model/__init__.py": """\
""",
    "model/build.py": """\
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("widths",))
def init_mlp(key, widths):
    params = []
    for w in widths:
        key, sub = jax.random.split(key)
        params.append(jax.random.normal(sub, (w,)))
    return params
""",
}

IFEXP_VALID = {
    "main.py": """\
import jax

from model.build import init_mlp


def run(cfg):
    widths = tuple(cfg["widths"]) if "widths" in cfg else (32, 32)
    return init_mlp(jax.random.PRNGKey(0), widths=widths)


if __name__ == "__main__":
    print(len(run({"widths": (8, 8)})))
""",
    "model/__init__.py": """\
""",
    "model/build.py": """\
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("widths",))
def init_mlp(key, widths):
    params = []
    for w in widths:
        key, sub = jax.random.split(key)
        params.append(jax.random.normal(sub, (w,)))
    return params
""",
}


# 4. A Python float written in a static argument where an earlier call in the scope wrote
# another (case 1044, diffrax#466: `{"atol": 1e-5, "rtol": 1e-5}` to an `eqx.filter_jit`
# function): every non-array leaf of an `eqx.filter_jit` function's arguments is static, and
# so is a `static_argnames` parameter; each new value compiles again (observed with
# JAX_LOG_COMPILES=1: 2 compiles each). The twins pass arrays, repeat the same float, or
# leave the float traced.
FLOATS = {
    "main.py": """\
import functools

import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit
def solve(y0, n, tol=1e-6):
    return jax.lax.fori_loop(0, n, lambda i, y: y - tol * y, y0)


@functools.partial(jax.jit, static_argnames=("temperature",))
def sample(key, logits, temperature):
    return jax.random.categorical(key, logits / temperature)


if __name__ == "__main__":
    y0 = jnp.ones(3)
    solve(y0, 10, tol=1e-6)
    solve(y0, 10, tol=1e-8)
    logits = jnp.zeros(4)
    key = jax.random.PRNGKey(0)
    sample(key, logits, temperature=0.7)
    sample(key, logits, temperature=1.0)
    print(solve._cached._cache_size() if hasattr(solve, "_cached") else "", sample._cache_size())
""",
}

FLOATS_VALID = {
    "main.py": """\
import functools

import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit
def solve(y0, n, tol=1e-6):
    return jax.lax.fori_loop(0, n, lambda i, y: y - tol * y, y0)


@functools.partial(jax.jit, static_argnames=("temperature",))
def sample(key, logits, temperature):
    return jax.random.categorical(key, logits / temperature)


@jax.jit
def sample_traced(key, logits, temperature):
    return jax.random.categorical(key, logits / temperature)


if __name__ == "__main__":
    y0 = jnp.ones(3)
    solve(y0, 10, tol=jnp.asarray(1e-6))
    solve(y0, 10, tol=jnp.asarray(1e-8))
    solve(y0, 10, tol=1e-6)
    solve(y0, 10, tol=1e-6)
    logits = jnp.zeros(4)
    keys = jax.random.split(jax.random.PRNGKey(0), 4)
    sample(keys[0], logits, temperature=0.7)
    sample(keys[1], logits, temperature=0.7)
    sample_traced(keys[2], logits, 0.7)
    sample_traced(keys[3], logits, 1.0)
    print(solve._cached._cache_size() if hasattr(solve, "_cached") else "", sample._cache_size(), sample_traced._cache_size())
""",
}


def test_x64_after_import_time_default(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, DEFAULT_ARG, "JAX123") == [
        ("JAX123", "main.py", 4, 1,
         "x64 is enabled after `import kern` (line 2) already created JAX arrays while x64 was off, at "
         "import (kern/ops.py: lengthscale = jnp.asarray(0.5)): they stay 32-bit while arrays made after "
         "this point are 64-bit. Enable x64 before importing it (right after importing jax)"),
    ]


def test_x64_after_import_time_class_body(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, CLASS_BODY, "JAX123") == [
        ("JAX123", "main.py", 4, 1,
         "x64 is enabled after `from priors.normal import StandardNormal` (line 1) already created JAX "
         "arrays while x64 was off, at import (priors/normal.py: loc = jnp.zeros(())): they stay 32-bit "
         "while arrays made after this point are 64-bit. Enable x64 before importing it (right after "
         "importing jax)"),
    ]


def test_x64_after_import_valid(tmp_path, monkeypatch):
    assert _lint(tmp_path / "a", monkeypatch, DEFAULT_ARG_VALID, "JAX123") == []
    assert _lint(tmp_path / "b", monkeypatch, CLASS_BODY_VALID, "JAX123") == []


def test_rebound_jit_traces_passed_default(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, REBOUND, "JAX202,JAX502,JAX503") == [
        ("JAX202", "sim.py", 7, 14,
         "`range()` needs a concrete value, but its argument is traced: it depends on the traced argument "
         "`n_steps` of `simulate` (wrapped by jax.jit); this raises TracerIntegerConversionError. Instead, "
         "use `jax.lax.fori_loop`/`lax.scan` for loops of traced length; or, if `n_steps` is a Python "
         "value, mark it static (static_argnums=1)"),
    ]
    assert _lint(tmp_path / "v", monkeypatch, REBOUND_VALID, "JAX202") == []


def test_conditional_unhashable_static(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, IFEXP, "JAX207") == [
        ("JAX207", "main.py", 8, 51,
         "A list (`widths` is bound to `list(cfg[\"widths\"]) if \"widths\" in cf...`) is passed to "
         "`init_mlp` in a static position (parameter `widths`; static_argnames='widths'): static "
         "arguments must be hashable, so the call raises ValueError: Non-hashable static arguments are "
         "not supported. Instead, pass a tuple"),
    ]
    assert _lint(tmp_path / "v", monkeypatch, IFEXP_VALID, "JAX207") == []


def test_new_float_in_static_argument(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, FLOATS, "JAX504") == [
        ("JAX504", "main.py", 21, 23,
         "`1e-8` is a new Python float for `solve` (the call on line 20 passed `1e-6` there), an "
         "`eqx.filter_jit` function: every leaf of its arguments that is not an array is static, so this "
         "call traces and compiles `solve` again (one compile per value). Pass the number as an array "
         "(`jnp.asarray(1e-8)`), which is traced"),
        ("JAX504", "main.py", 25, 37,
         "`1.0` is a new Python float for `sample` (the call on line 24 passed `0.7` there), a jitted "
         "function that declares it static, so this call traces and compiles `sample` again (one compile "
         "per value). Pass the number as an array (`jnp.asarray(1.0)`), which is traced"),
    ]
    assert _lint(tmp_path / "v", monkeypatch, FLOATS_VALID, "JAX504") == []


# 5. Calls in branches that exclude each other (diff review of recallY): each run takes one
# of them and compiles once, so the second float is no new compile.  Written two ways: the
# body and the `else` of an `if` statement, and the two sides of a conditional expression
# (with `match` cases besides); `normalize._cache_size()` prints 1 with or without
# `--precise`.  The INVALID twins: the earlier call in the block that
# encloses the branch (it runs on every path to the later one), and both calls in one loop
# body, in different branches (the loop takes either in each iteration): each compiles
# twice (4 in all).
EXCLUSIVE = {
    "main.py": """\
import functools
import sys

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("eps",))
def normalize(x, eps):
    return x / (jnp.linalg.norm(x) + eps)


def branches(x, precise):
    if precise:
        return normalize(x, eps=1e-12)
    else:
        return normalize(x, eps=1e-6)


def expression(x, precise):
    return normalize(x, eps=1e-12) if precise else normalize(x, eps=1e-6)


def cases(x, mode):
    match mode:
        case "precise":
            y = normalize(x, eps=1e-12)
        case _:
            y = normalize(x, eps=1e-6)
    return y


if __name__ == "__main__":
    precise = "--precise" in sys.argv
    mode = "precise" if precise else "fast"
    print(branches(jnp.ones(3), precise), expression(jnp.ones(3), precise), cases(jnp.ones(3), mode))
    print(normalize._cache_size())
""",
}

BOTH_RUN = {
    "main.py": """\
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("eps",))
def normalize(x, eps):
    return x / (jnp.linalg.norm(x) + eps)


def refine(x, precise):
    y = normalize(x, eps=1e-6)
    if precise:
        y = normalize(y, eps=1e-12)
    return y


def alternate(xs):
    out = []
    for i, x in enumerate(xs):
        if i % 2:
            out.append(normalize(x, eps=1e-3))
        else:
            out.append(normalize(x, eps=1e-4))
    return out


if __name__ == "__main__":
    refine(jnp.ones(3), True)
    alternate([jnp.ones(3), jnp.ones(3)])
    print(normalize._cache_size())
""",
}


def test_new_float_in_exclusive_branches_is_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, EXCLUSIVE, "JAX504") == []


def test_new_float_where_both_calls_run(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, BOTH_RUN, "JAX504") == [
        ("JAX504", "main.py", 15, 30,
         "`1e-12` is a new Python float for `normalize` (the call on line 13 passed `1e-6` there), a jitted "
         "function that declares it static, so this call traces and compiles `normalize` again (one compile "
         "per value). Pass the number as an array (`jnp.asarray(1e-12)`), which is traced"),
        ("JAX504", "main.py", 25, 41,
         "`1e-4` is a new Python float for `normalize` (the call on line 23 passed `1e-3` there), a jitted "
         "function that declares it static, so this call traces and compiles `normalize` again (one compile "
         "per value). Pass the number as an array (`jnp.asarray(1e-4)`), which is traced"),
    ]
