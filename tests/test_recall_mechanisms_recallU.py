"""Batch 8's misses by mechanism (issue 22, branch recallU): a `where` branch that overflows
for large inputs (NaN gradient), a removed JAX import whose `except ImportError` falls back
on no JAX, a Python number that a jitted function is given before its own strongly typed
result (a weak-type recompile), and a loop whose body calls a jitted function held in a
name.

Each INVALID program's NaN gradient, lost JAX path, second compile or unrolled loop was
observed with JAX 0.10.2; the VALID twins run (finite gradients, JAX in use, one compile)
and stay silent."""

from __future__ import annotations

import ast
from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str], select: str = "") -> list[tuple]:
    return lint_files(root, monkeypatch, files, select=select, dedent=True)


# 1. where-NaN gradients of an overflowing branch (case 802, jax#1538's ELU): `expm1`/`exp`
# are inf above about 88 in float32, and so are their derivatives; the `where` masks the
# large values out, and 0 * inf is NaN. Written three ways: `jax.numpy as np` in a package
# module, a softplus threshold with `log1p(exp(x))`, `lax.select` on a name computed above.

ACTIVATIONS = """\
import jax.numpy as np


def elu(x, alpha=1.0):
    return np.where(x > 0, x, alpha * np.expm1(x))


def softplus(x):
    return np.where(x > 20.0, x, np.log1p(np.exp(x)))
"""

SELU = """\
import jax.numpy as jnp
from jax import lax


def selu(x, alpha=1.67, scale=1.05):
    neg = alpha * (jnp.exp(x) - 1.0)
    return scale * lax.select(x > 0, x, neg)


def decay(x):
    return jnp.where(x > 0, jnp.exp(-x), 1.0)
"""

ACTIVATIONS_OK = """\
import jax.numpy as np


def elu(x, alpha=1.0):
    return np.where(x > 0, x, alpha * np.expm1(np.where(x > 0, 0.0, x)))


def softplus(x):
    return np.where(x > 20.0, x, np.log1p(np.exp(np.minimum(x, 20.0))))


def growth(x):
    return np.where(x > 0, np.exp(x), 1.0 + x)


def decay(x):
    return np.where(x < 0, np.exp(-x), 1.0)
"""

_OVER = ("for a large `{k}` there it overflows to inf (above about 88 in float32), and so does its "
         "derivative, so the gradient of this `where` is NaN (0 * inf). Guard `{k}` with the same "
         "condition too (double where: `jnp.where(cond, {k}, 0.0)` inside)")


def test_where_branch_overflowing_for_large_inputs(tmp_path, monkeypatch):
    files = {"nn_lite/__init__.py": "", "nn_lite/functions.py": ACTIVATIONS, "nn_lite/selu.py": SELU,
             "main.py": "import jax\nimport jax.numpy as jnp\nfrom nn_lite.functions import elu\n\n"
                        "print(jax.grad(lambda x: jnp.sum(elu(x)))(jnp.array([100.0])))\n"}
    assert _lint(tmp_path, monkeypatch, files, select="JAX120") == [
        ("JAX120", "nn_lite/functions.py", 5, 39,
         "`np.expm1(x)` is computed for every element, also where `x > 0` is true and masks it out; "
         + _OVER.format(k="x")),
        ("JAX120", "nn_lite/functions.py", 9, 43,
         "`np.exp(x)` is computed for every element, also where `x > 20.0` is true and masks it out; "
         + _OVER.format(k="x")),
        ("JAX120", "nn_lite/selu.py", 7, 41,
         "`neg` is computed with `jnp.exp(x)` for every element, also where `x > 0` is true; it overflows "
         "to inf for a large `x`, and so does its derivative, and the condition masks those values out, "
         "so the gradient of this `where` is NaN (0 * inf). Guard the input where `neg` is computed "
         "(double where: `jnp.where(cond, x, 0.0)` inside, so the masked elements are computed at 0)"),
        ("JAX120", "nn_lite/selu.py", 11, 29,
         "`jnp.exp(-x)` is computed for every element, also where `x > 0` is false and masks it out; "
         + _OVER.format(k="-x")),
    ]


def test_where_branch_guarded_or_selected_for_large_inputs_is_quiet(tmp_path, monkeypatch):
    # the double where (jax.nn.elu today), a clamp, and `exp` selected where it is large
    # (masked only where it is small: exp(-inf) = 0, a zero derivative)
    files = {"nn_lite/__init__.py": "", "nn_lite/functions.py": ACTIVATIONS_OK}
    assert _lint(tmp_path, monkeypatch, files, select="JAX120") == []


def test_where_overflow_fix_is_the_double_where(tmp_path, monkeypatch):
    (tmp_path / "act.py").write_text(ACTIVATIONS)
    monkeypatch.chdir(tmp_path)
    from click.testing import CliRunner

    from jaxlint.cli import cli

    result = CliRunner().invoke(cli, ["check", "act.py", "--no-cache", "--select", "JAX120", "--fix",
                                      "--unsafe-fixes"])
    assert result.exit_code == 0, result.output
    fixed = (tmp_path / "act.py").read_text()
    assert fixed == ACTIVATIONS.replace("np.expm1(x)", "np.expm1(np.where(x > 0, 0.0, x))").replace(
        "np.exp(x)", "np.exp(np.where(x > 20.0, 0.0, x))")
    ast.parse(fixed)


# 2. a removed JAX import in a `try` whose handlers fall back on no JAX (case 843, pymbar#504):
# today the import fails, the handler runs, and the program silently goes without JAX.
# Nested (a warning and a re-raise, then NumPy), and a flag in another module; a shim whose
# handler imports from JAX and an optional feature set to None stay silent.

SOLVERS = """\
import warnings

use_jit = False
try:
    try:
        from jax.config import config

        config.update("jax_enable_x64", True)
        from jax.numpy import exp
        from jax import jit as jit_or_passthrough

        use_jit = True
    except ImportError:
        warnings.warn("JAX NOT FOUND")
        raise
except ImportError:
    from numpy import exp

    def jit_or_passthrough(fn):
        return fn
"""

OPTIM = """\
try:
    import jax
    from jax.experimental import optimizers
    HAS_JAX = True
except ImportError:
    HAS_JAX = False
"""

SHIMS = """\
import jax

try:
    from jax.config import config
except ImportError:
    from jax import config

try:
    from jax.experimental import optimizers
except ImportError:
    from jax.example_libraries import optimizers

try:
    from jax.config import config as cfg
except ImportError:
    cfg = jax.config

try:
    from jax.experimental import host_callback as hcb
except ImportError:
    hcb = None
"""


def test_removed_import_whose_fallback_is_not_jax(tmp_path, monkeypatch):
    files = {"pkg/__init__.py": "", "pkg/solvers.py": SOLVERS, "pkg/optim.py": OPTIM, "pkg/shims.py": SHIMS}
    assert _lint(tmp_path, monkeypatch, files, select="JAX9") == [
        ("JAX901", "pkg/optim.py", 3, 34,
         "`from jax.experimental import optimizers` was removed in JAX 0.3.16: use "
         "`jax.example_libraries.optimizers` (or optax) instead"),
        ("JAX905", "pkg/solvers.py", 6, 32,
         "`from jax.config import config` was removed in JAX 0.4.29 (deprecated in 0.4.25): use "
         "`jax.config` (`from jax import config`) instead (the jax.config module was removed; the "
         "object is jax.config)"),
    ]


# 3. a weak-typed Python number, then the jitted function's own strongly typed result
# (case 800, jax#4274): two compiles. Straight-line at module level with a lambda, and a
# loop carry with a decorated function; typed starts, a result that stays weak and a
# single call compile once.

WEAK = """\
import jax
import jax.numpy as jnp
import numpy as np

x = 0.
f = jax.jit(lambda x: x + np.float32(0.))
y = f(x)
z = f(y)


@jax.jit
def update(total, batch):
    return total + jnp.sum(batch).astype(jnp.float32)


def accumulate(batches):
    total = 0
    for b in batches:
        total = update(total, b)
    return total
"""

WEAK_OK = """\
import jax
import jax.numpy as jnp


@jax.jit
def update(total, batch):
    return total + jnp.sum(batch).astype(jnp.float32)


def accumulate(batches):
    total = jnp.float32(0.0)
    for b in batches:
        total = update(total, b)
    return total


def once(b):
    total = 0.0
    total = update(total, b)
    return total


g = jax.jit(lambda x: x * 2.0)


def doubled(n):
    x = 1.0
    for _ in range(n):
        x = g(x)
    return x
"""


def test_weak_number_then_own_strong_result(tmp_path, monkeypatch):
    files = {"main.py": WEAK, "ok.py": WEAK_OK}
    assert _lint(tmp_path, monkeypatch, files, select="JAX508") == [
        ("JAX508", "main.py", 5, 5,
         "`x` starts as the Python number `0.`, weakly typed, and is given to the jitted `f`, which is "
         "later given its own strongly typed result (line 8): `f` compiles twice, once per weak type. "
         "Start from a typed value (`jnp.float32(0.)`, `jnp.asarray(0., jnp.float32)`)"),
        ("JAX508", "main.py", 17, 13,
         "`total` starts as the Python number `0`, weakly typed, and is given to the jitted `update`, "
         "which is later given its own strongly typed result (line 19): `update` compiles twice, once "
         "per weak type. Start from a typed value (`jnp.float32(0)`, `jnp.asarray(0, jnp.float32)`)"),
    ]


# 4. a Python loop whose body calls a jitted gradient held in a name (case 830's loop at
# 150 steps; the case's 75 are under the threshold): the body does JAX work, in a module
# under tests/ traced from main.py's jit. The same loop doing Python arithmetic only, and
# the loop under the threshold, stay silent.

MINIMIZE = """\
import functools

import jax
import jax.numpy as jnp
import numpy as onp
from jax.example_libraries import optimizers

opt_init, opt_update, get_params = optimizers.sgd(5e-2)
x0 = onp.ones(3, dtype=onp.float32)


def energy(x, k):
    return jnp.sum(k * x ** 2)


def minimize(k):
    grad_fn = jax.jit(jax.grad(functools.partial(energy, k=k)))
    opt_state = opt_init(x0)
    for i in range({n}):
        g = grad_fn(get_params(opt_state))
        opt_state = opt_update(i, g, opt_state)
    return jnp.sum(get_params(opt_state))


def count(k):
    n = 0
    for i in range(150):
        n = n + i
    return k * n
"""

MAIN = """\
import jax
from tests.test_opt import minimize, count

print(jax.jit(jax.grad(minimize))(1.0), jax.jit(count)(1.0))
"""


def test_loop_calling_a_jitted_function_held_in_a_name(tmp_path, monkeypatch):
    files = {"tests/__init__.py": "", "tests/test_opt.py": MINIMIZE.format(n=150), "main.py": MAIN}
    assert _lint(tmp_path, monkeypatch, files, select="JAX502") == [
        ("JAX502", "tests/test_opt.py", 19, 14,
         "this Python loop runs 150 times while JAX traces `minimize`, so it is unrolled into 150 copies "
         "of its body: compile time grows with the trip count. Use `lax.fori_loop` (or `lax.scan` to "
         "collect per-step outputs)"),
    ]


def test_loop_under_the_threshold_is_quiet(tmp_path, monkeypatch):
    files = {"tests/__init__.py": "", "tests/test_opt.py": MINIMIZE.format(n=75), "main.py": MAIN}
    assert _lint(tmp_path, monkeypatch, files, select="JAX502") == []
