"""Batch 6's group C by mechanism (issue 22, branch recallO): which functions are traced.
Transform targets that are not plain defs (a lambda bound to a name and jitted with static
positions, a class given to jit, a method of an imported class's instance); functions handed to
a library's callback slot (optax schedules, flax/haiku lifted transforms, tree maps in traced
code); closures returned by a project factory and called in traced code; Python ints given to
`eqx.filter_jit` in a loop.  Each INVALID line was run with JAX 0.10.2 (optax, flax, equinox in
the .venv) and fails (or retraces) as the message says; each VALID twin runs (or traces once)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from jaxlint.cli import cli


def _lint(root: Path, monkeypatch, files: dict[str, str], *extra: str) -> list[tuple]:
    (root / "pyproject.toml").write_text("")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    monkeypatch.chdir(root)
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--output-format", "json", *extra])
    assert result.exit_code in (0, 1), result.output
    return sorted(
        (f["code"], f["filename"], f["location"]["row"], f["location"]["column"], f["message"])
        for f in json.loads(result.stdout)
    )


def _static_msg(name: str, param: str, nums: str) -> str:
    return (f"A JAX array is passed to `{name}` in a static position (parameter `{param}`; static_argnums={nums}): "
            "static arguments must be hashable, so the call raises ValueError: Non-hashable static arguments "
            "are not supported. Instead, pass it as a traced (non-static) argument, or pass a hashable value "
            "(tuple, int, str)")


TARGET_OPS = """\
import jax
import jax.numpy as jnp

scale = lambda v, n: v * n
scale_jit = jax.jit(scale, static_argnums=(1,))


class Base:
    def __init__(self, x):
        if jnp.any(x < 0):
            raise ValueError("negative")
        self.x = x


class Grid(Base):
    pass


class Store:
    def __init__(self, x, check=False):
        self.x = x
        self.check = check


class Solver:
    def __init__(self, tol):
        self.tol = tol

    def solve(self, x):
        if x.sum() > self.tol:
            return x
        return -x
"""

TARGET_MAIN = """\
import jax
import jax.numpy as jnp

from pkg.ops import Grid, Solver, Store, scale_jit


def run(x):
    weights = jnp.ones(3)
    y = scale_jit(x, weights)
    z = scale_jit(x, 3)
    g = jax.jit(Grid)(x)
    st = jax.jit(Store)(x)
    s = Solver(1.0)
    r = jax.jit(s.solve)(x)
    return y, z, g, st, r


def local(x):
    norm = lambda v, ord: jnp.linalg.norm(v, ord)
    f = jax.jit(norm, static_argnums=1)
    return f(x, jnp.array(2)), f(x, 2), f(x, (2,))


class Interval:
    def __init__(self, lo, hi):
        if lo > hi:
            raise ValueError("empty")
        self.lo, self.hi = lo, hi


class Box:
    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi


intervals = jax.vmap(Interval)(jnp.zeros(3), jnp.ones(3))
boxes = jax.jit(Box)(jnp.zeros(3), jnp.ones(3))
"""


def test_transform_targets_that_are_not_plain_defs(tmp_path, monkeypatch):
    """`f = lambda ...; jax.jit(f, static_argnums=...)` maps static positions like a def (here
    and imported); `jax.jit(Cls)` / `jax.vmap(Cls)` trace the class's `__init__` (its own or a
    base's, in another module); `jax.jit(obj.method)` with `obj` an imported class's instance
    traces the method.  VALID: hashable static arguments, constructors that only store."""
    found = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/ops.py": TARGET_OPS,
                                          "main.py": TARGET_MAIN})
    assert found == [
        ("JAX201", "main.py", 26, 12,
         "Python `if` on a traced value: it depends on the traced arguments `hi`, `lo` of `__init__` "
         "(wrapped by jax.vmap); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
        ("JAX201", "pkg/ops.py", 10, 12,
         "Python `if` on a traced value: it depends on the traced argument `x` of `__init__` (wrapped by "
         "jax.jit in main.py:11); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
        ("JAX201", "pkg/ops.py", 30, 12,
         "Python `if` on a traced value: it depends on the traced argument `x` of `solve` (wrapped by "
         "jax.jit in main.py); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`; "
         "or, if `x` is a Python value, mark it static (static_argnames='x')"),
        ("JAX207", "main.py", 9, 22, _static_msg("scale_jit", "n", "1")),
        ("JAX207", "main.py", 21, 17, _static_msg("f", "ord", "1")),
    ]
