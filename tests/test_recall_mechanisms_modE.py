"""The new-user review's misses in ordinary code (session 16, branch modE), by mechanism:

1. an instance of a project class handed to a jitted function (`loss(model, xs)` with
   `model = GatedMLP(key)`) keeps its class in the trace: `model(x)`, `jax.vmap(model)(xs)`
   and `model.encode(x)` run that class's `__call__`/method with the call's kinds (an
   equinox Module under `eqx.filter_jit`, an NNX Module under `nnx.jit`, a flax struct
   dataclass under `jax.jit`; a class of another module through a call fact), and a library
   layer the constructor stored (`self.lin = eqx.nn.Linear(...)`) applied to a tracer gives
   a tracer;
2. a dict's entries keep their kind: a dict display of JAX arrays (`{"obs": jnp.zeros(...)}`)
   passed to a helper, and `jax.grad(loss)(params, x)` of such a dict, hold JAX arrays
   under those keys (`buffer["obs"][i] = obs` raises TypeError);
3. a def whose outermost decorator compiles it (`@jax.jit def softmax_ce`) passed by name
   to a timing helper is a jitted function there, as `jax.jit(f)` already was;
4. a method decorated with `@jax.jit` called on an instance of a plain class of the file:
   jit receives `self`, which is not a pytree (JAX209).

The review's programs (trimmed) are the INVALID cases and their corrected twins the VALID
ones; every INVALID program's error (TypeError, TracerBoolConversionError) and every silent
timing was observed with JAX 0.10.2, and the VALID twins run."""

from __future__ import annotations

from pathlib import Path

from project_files import lint_files


def _lint(root: Path, monkeypatch, files: dict[str, str], select: str) -> list[tuple]:
    return lint_files(root, monkeypatch, files, select=select)


EQX_GATE = """\
import equinox as eqx
import jax
import jax.numpy as jnp


class GatedMLP(eqx.Module):
    lin1: eqx.nn.Linear
    lin2: eqx.nn.Linear
    threshold: float

    def __init__(self, key, threshold=1.0):
        k1, k2 = jax.random.split(key)
        self.lin1 = eqx.nn.Linear(4, 16, key=k1)
        self.lin2 = eqx.nn.Linear(16, 4, key=k2)
        self.threshold = threshold

    def __call__(self, x):
        h = jax.nn.gelu(self.lin1(x))
        out = self.lin2(h)
        if jnp.linalg.norm(out) > self.threshold:
            out = out / jnp.linalg.norm(out)
        return x + out


@eqx.filter_jit
def loss(model, xs, ys):
    preds = jax.vmap(model)(xs)
    return jnp.mean((preds - ys) ** 2)


key = jax.random.PRNGKey(0)
mkey, dkey = jax.random.split(key)
model = GatedMLP(mkey)
xs = jax.random.normal(dkey, (8, 4))
print(loss(model, xs, xs))
"""

EQX_GATE_FIXED = EQX_GATE.replace("""        if jnp.linalg.norm(out) > self.threshold:
            out = out / jnp.linalg.norm(out)
""", """        norm = jnp.linalg.norm(out)
        out = jnp.where(norm > self.threshold, out / jnp.where(norm > 0, norm, 1.0), out)
""")

NNX_BLOCK = """\
import jax.numpy as jnp
from flax import nnx


class Block(nnx.Module):
    def __init__(self, din, dout, rngs):
        self.lin = nnx.Linear(din, dout, rngs=rngs)

    def __call__(self, x):
        y = self.lin(x)
        if y.mean() > 0:
            y = nnx.relu(y)
        return y


@nnx.jit
def forward(model, x):
    return model(x)


model = Block(3, 4, nnx.Rngs(0))
print(forward(model, jnp.ones((2, 3))))
"""

NNX_BLOCK_FIXED = NNX_BLOCK.replace("""        if y.mean() > 0:
            y = nnx.relu(y)
        return y
""", """        return jnp.where(y.mean() > 0, nnx.relu(y), y)
""")

STRUCT_METHOD = """\
from flax import struct
import jax
import jax.numpy as jnp


@struct.dataclass
class Encoder:
    w: jax.Array

    def encode(self, x):
        h = x @ self.w
        if h.max() > 1.0:
            h = h / h.max()
        return h


@jax.jit
def embed(enc, x):
    return enc.encode(x)


enc = Encoder(jnp.eye(3))
print(embed(enc, jnp.ones(3)))
"""

STRUCT_METHOD_FIXED = STRUCT_METHOD.replace("""        if h.max() > 1.0:
            h = h / h.max()
        return h
""", """        return jnp.where(h.max() > 1.0, h / h.max(), h)
""")

MODELS = """\
import equinox as eqx
import jax


class Gate(eqx.Module):
    lin: eqx.nn.Linear

    def __init__(self, key):
        self.lin = eqx.nn.Linear(3, 3, key=key)

    def __call__(self, x):
        y = self.lin(x)
        if y.sum() > 0:
            y = -y
        return y
"""

MODELS_FIXED = MODELS.replace("""        if y.sum() > 0:
            y = -y
        return y
""", """        return jnp.where(y.sum() > 0, -y, y)
""").replace("import jax\n", "import jax\nimport jax.numpy as jnp\n")

TRAIN = """\
import equinox as eqx
import jax
import jax.numpy as jnp

from nets.models import Gate


@eqx.filter_jit
def loss(model, xs):
    return jnp.mean(jax.vmap(model)(xs))


if __name__ == "__main__":
    model = Gate(jax.random.PRNGKey(0))
    print(loss(model, jnp.ones((4, 3))))
"""

BUFFER = """\
import jax.numpy as jnp


def add(buffer, i, obs):
    buffer["obs"][i] = obs
    return buffer


buf = {"obs": jnp.zeros((4, 2)), "ptr": 0}
add(buf, 0, jnp.ones(2))
"""

BUFFER_FIXED = BUFFER.replace("""    buffer["obs"][i] = obs
    return buffer
""", """    return {**buffer, "obs": buffer["obs"].at[i].set(obs)}
""")

BUFFER_NUMPY = BUFFER.replace("import jax.numpy as jnp\n", "import numpy as np\n").replace(
    "jnp.zeros((4, 2))", "np.zeros((4, 2))").replace("jnp.ones(2)", "np.ones(2)")

GRADS = """\
import jax
import jax.numpy as jnp


def loss(params, x):
    return jnp.sum(params["w"] * x + params["b"])


def masked_grads(params, x):
    grads = jax.grad(loss)(params, x)
    grads["w"][0] = 0.0
    return grads


print(masked_grads({"w": jnp.ones(3), "b": jnp.zeros(())}, jnp.ones(3)))
"""

GRADS_FIXED = GRADS.replace("""    grads["w"][0] = 0.0
""", """    grads["w"] = grads["w"].at[0].set(0.0)
""")

# the entry is rebound to a NumPy copy before the write: silent
GRADS_TO_NUMPY = GRADS.replace("""    grads["w"][0] = 0.0
""", """    grads["w"] = np.array(grads["w"])
    grads["w"][0] = 0.0
""").replace("import jax\n", "import jax\nimport numpy as np\n", 1)

TIMEIT = """\
import time

import jax
import jax.numpy as jnp


def timeit(fn, *args, reps=20):
    fn(*args)
    t0 = time.time()
    for _ in range(reps):
        fn(*args)
    return (time.time() - t0) / reps


@jax.jit
def softmax_ce(logits, labels):
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * labels, -1))


logits = jnp.ones((64, 10))
labels = jax.nn.one_hot(jnp.zeros(64, int), 10)
print(f"{timeit(softmax_ce, logits, labels) * 1e3:.3f} ms")
"""

TIMEIT_FIXED = TIMEIT.replace("""    fn(*args)
    t0 = time.time()
    for _ in range(reps):
        fn(*args)
    return""", """    jax.block_until_ready(fn(*args))
    t0 = time.time()
    for _ in range(reps):
        out = fn(*args)
    jax.block_until_ready(out)
    return""")

BENCH_EQX = """\
import time
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp


def bench(f, x):
    t0 = time.perf_counter()
    y = f(x)
    return time.perf_counter() - t0


@eqx.filter_jit
def double(x):
    return x * 2


@partial(jax.jit, static_argnums=1)
def power(x, n=3):
    return x ** n


bench(double, jnp.ones(3))
bench(power, jnp.ones(3))
"""

# the helper is also given a function that is not jitted: what `f(x)` runs is unknown
BENCH_MIXED = """\
import time

import jax
import jax.numpy as jnp
import numpy as np


def bench(f, x):
    t0 = time.perf_counter()
    y = f(x)
    return time.perf_counter() - t0


@jax.jit
def double(x):
    return x * 2


def host(x):
    return np.sort(x)


bench(double, jnp.ones(3))
bench(host, np.ones(3))
"""

METHOD_JIT = """\
import jax
import jax.numpy as jnp


class Linear:
    def __init__(self, key, din, dout):
        self.w = jax.random.normal(key, (din, dout))

    @jax.jit
    def __call__(self, x):
        return x @ self.w


model = Linear(jax.random.PRNGKey(0), 3, 2)
print(model(jnp.ones((4, 3))).shape)
"""

METHOD_JIT_FIXED = """\
import jax
import jax.numpy as jnp


class Linear:
    def __init__(self, key, din, dout):
        self.w = jax.random.normal(key, (din, dout))

    def __call__(self, x):
        return _forward(self.w, x)


@jax.jit
def _forward(w, x):
    return x @ w


model = Linear(jax.random.PRNGKey(0), 3, 2)
print(model(jnp.ones((4, 3))).shape)
"""

POLICY = """\
from functools import partial

import jax
import jax.numpy as jnp


class Policy:
    def __init__(self, w):
        self.w = w

    @partial(jax.jit, static_argnames="greedy")
    def act(self, obs, greedy=True):
        return jnp.argmax(obs @ self.w)


p = Policy(jnp.eye(3))
print(p.act(jnp.ones(3)))
"""

# `self` static (hashable by identity), a registered pytree class, an equinox Module
POLICY_STATIC = POLICY.replace('@partial(jax.jit, static_argnames="greedy")', '@partial(jax.jit, static_argnums=(0, 2))')

POLICY_PYTREE = POLICY.replace("class Policy:", "@jax.tree_util.register_pytree_node_class\nclass Policy:").replace(
    """    @partial""", """    def tree_flatten(self):
        return (self.w,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    @partial""")

POLICY_EQX = """\
import equinox as eqx
import jax
import jax.numpy as jnp


class Policy(eqx.Module):
    w: jax.Array

    @jax.jit
    def act(self, obs):
        return jnp.argmax(obs @ self.w)


p = Policy(jnp.eye(3))
print(p.act(jnp.ones(3)))
"""


def test_eqx_gate_module_call(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": EQX_GATE}, "JAX201") == [('JAX201', 'prog.py', 20, 12, 'Python `if` on a traced value: it depends on the traced argument `x` of `__call__` (called from traced `loss`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`')]


def test_eqx_gate_fixed_module_call_is_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": EQX_GATE_FIXED}, "JAX201") == []


def test_nnx_block_module_call(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": NNX_BLOCK}, "JAX201") == [('JAX201', 'prog.py', 11, 12, 'Python `if` on a traced value: it depends on the traced argument `x` of `__call__` (called from traced `forward`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`')]


def test_nnx_block_fixed_module_call_is_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": NNX_BLOCK_FIXED}, "JAX201") == []


def test_struct_method_module_call(tmp_path, monkeypatch):
    # (`self.w` is a leaf of the traced struct `enc`: branch tracG's model names it too)
    assert _lint(tmp_path, monkeypatch, {"prog.py": STRUCT_METHOD}, "JAX201") == [('JAX201', 'prog.py', 12, 12, 'Python `if` on a traced value: it depends on the traced arguments `self.w`, `x` of `encode` (called from traced `embed`); this raises TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`')]


def test_struct_method_fixed_module_call_is_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": STRUCT_METHOD_FIXED}, "JAX201") == []


def test_buffer_dict_entry(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": BUFFER}, "JAX101") == [('JAX101', 'prog.py', 5, 5, 'JAX arrays are immutable: `buffer["obs"][i] = ...` raises TypeError. Use `buffer["obs"] = buffer["obs"].at[i].set(...)`')]


def test_buffer_fixed_dict_entry_is_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": BUFFER_FIXED}, "JAX101") == []


def test_grads_dict_entry(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": GRADS}, "JAX101") == [('JAX101', 'prog.py', 11, 5, 'JAX arrays are immutable: `grads["w"][0] = ...` raises TypeError. Use `grads["w"] = grads["w"].at[0].set(...)`')]


def test_grads_fixed_dict_entry_is_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": GRADS_FIXED}, "JAX101") == []


def test_timeit_timing(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": TIMEIT}, "JAX505") == [('JAX505', 'prog.py', 12, 13, '`time.time()` is read while the JAX computation started on line 11 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`')]


def test_timeit_fixed_timing_is_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": TIMEIT_FIXED}, "JAX505") == []


def test_bench_eqx_timing(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": BENCH_EQX}, "JAX505") == [('JAX505', 'prog.py', 12, 12, '`time.perf_counter()` is read while the JAX computation started on line 11 may still be running (dispatch is asynchronous): this measures the dispatch (and, on a first call, the compilation), not the work. Wait for the result first: `jax.block_until_ready(result)` or `result.block_until_ready()`')]


def test_method_jit_method_jit(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": METHOD_JIT}, "JAX209") == [('JAX209', 'prog.py', 9, 6, '`@jax.jit` on `Linear.__call__`, a method of a class not registered as a pytree: jit receives the instance as its first argument (`self`) and makes every traced argument an abstract array, and cannot make this one, so every call raises TypeError: Error interpreting argument ... as an abstract array. Jit a function that takes the arrays it reads as arguments instead, or declare `self` static (`@partial(jax.jit, static_argnums=0)`, when the instance is hashable and never changes)')]


def test_method_jit_fixed_method_jit_is_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": METHOD_JIT_FIXED}, "JAX209") == []


def test_policy_method_jit(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": POLICY}, "JAX209") == [('JAX209', 'prog.py', 11, 6, '`@partial(jax.jit, static_argnames="greedy")` on `Policy.act`, a method of a class not registered as a pytree: jit receives the instance as its first argument (`self`) and makes every traced argument an abstract array, and cannot make this one, so every call raises TypeError: Error interpreting argument ... as an abstract array. Jit a function that takes the arrays it reads as arguments instead, or declare `self` static (`@partial(jax.jit, static_argnums=0)`, when the instance is hashable and never changes)')]


def test_instance_of_another_modules_class_vmapped_under_filter_jit(tmp_path, monkeypatch):
    files = {"nets/__init__.py": "", "nets/models.py": MODELS, "nets/train.py": TRAIN}
    assert _lint(tmp_path, monkeypatch, files, "JAX201") == [
        ("JAX201", "nets/models.py", 13, 12,
         "Python `if` on a traced value: it depends on the traced argument `x` of `__call__` (called from "
         "`loss` (nets/train.py:10), which is decorated with @eqx.filter_jit); this raises "
         "TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
    ]


def test_instance_of_another_modules_class_fixed_is_silent(tmp_path, monkeypatch):
    files = {"nets/__init__.py": "", "nets/models.py": MODELS_FIXED, "nets/train.py": TRAIN}
    assert _lint(tmp_path, monkeypatch, files, "JAX201") == []


def test_dict_of_numpy_arrays_written_in_place_is_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": BUFFER_NUMPY}, "JAX101") == []


def test_gradient_entry_rebound_to_a_numpy_copy_is_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": GRADS_TO_NUMPY}, "JAX101") == []


def test_helper_given_a_jitted_and_a_plain_function_is_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": BENCH_MIXED}, "JAX505") == []


def test_jitted_method_with_self_static_pytree_or_module_is_silent(tmp_path, monkeypatch):
    for i, prog in enumerate((POLICY_STATIC, POLICY_PYTREE, POLICY_EQX)):
        root = tmp_path / str(i)
        root.mkdir()
        assert _lint(root, monkeypatch, {"prog.py": prog}, "JAX209") == [], i


# `@jax.jit` on a method of a plain class reached only through `self.method(...)` from another
# method (scico's PGM before https://github.com/lanl/scico/commit/e17ce599b14db0216fb9c99223007677a6b80434
# "Fix incorrect jit of method"): the receiver is not a name bound once, the decorator is the bug.
PGM_STEP = """\
import jax
import jax.numpy as jnp


class PGM:
    def __init__(self, x0, L0):
        self.x = x0
        self.L = L0

    @jax.jit
    def x_step(self, v, L):
        return jnp.sign(v) * jnp.maximum(jnp.abs(v) - 1.0 / L, 0.0)

    def solve(self, n):
        for _ in range(n):
            self.x = self.x_step(self.x, self.L)
        return self.x
"""

# another way: a solver module whose jitted method is only called by a driver in another module
SOLVER = """\
from functools import partial

import jax
import jax.numpy as jnp


class Solver:
    def __init__(self, tol):
        self.tol = tol

    @partial(jax.jit, static_argnames=("n",))
    def run(self, b, n=10):
        return jnp.linalg.solve(jnp.eye(b.shape[0]) * n, b)
"""
DRIVER = """\
import jax.numpy as jnp

from pkg.solver import Solver


def main():
    return Solver(1e-6).run(jnp.ones(3))
"""

# the fixes: a plain function jitted, `self` declared static, a registered pytree class, a
# static method
PGM_FIXED = """\
from functools import partial

import jax
import jax.numpy as jnp
from jax import tree_util


def prox(v, L):
    return jnp.sign(v) * jnp.maximum(jnp.abs(v) - 1.0 / L, 0.0)


class PGM:
    def __init__(self, x0, L0):
        self.x = x0
        self.L = L0
        self._step = jax.jit(prox)

    @partial(jax.jit, static_argnums=0)
    def x_step(self, v, L):
        return prox(v, L)

    @staticmethod
    @jax.jit
    def shrink(v):
        return v * 0.5


@tree_util.register_pytree_node_class
class State:
    def __init__(self, x):
        self.x = x

    def tree_flatten(self):
        return (self.x,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    @jax.jit
    def norm(self):
        return jnp.linalg.norm(self.x)
"""


def test_jitted_method_called_through_self_is_reported_at_the_decorator(tmp_path, monkeypatch):
    msg = ("`@jax.jit` on `PGM.x_step`, a method of a class not registered as a pytree: jit receives the "
           "instance as its first argument (`self`) and makes every traced argument an abstract array, and "
           "cannot make this one, so every call raises TypeError: Error interpreting argument ... as an abstract "
           "array. Jit a function that takes the arrays it reads as arguments instead, or declare `self` static "
           "(`@partial(jax.jit, static_argnums=0)`, when the instance is hashable and never changes)")
    assert _lint(tmp_path, monkeypatch, {"prog.py": PGM_STEP}, "JAX209") == [("JAX209", "prog.py", 10, 6, msg)]


def test_jitted_method_called_from_another_module_is_reported_at_the_decorator(tmp_path, monkeypatch):
    found = _lint(tmp_path, monkeypatch, {"pkg/__init__.py": "", "pkg/solver.py": SOLVER, "pkg/driver.py": DRIVER},
                  "JAX209")
    assert [f[:4] for f in found] == [("JAX209", "pkg/solver.py", 11, 6)]
    assert found[0][4].startswith('`@partial(jax.jit, static_argnames=("n",))` on `Solver.run`, a method of a class '
                                  "not registered as a pytree")


def test_jitted_method_fixes_are_silent(tmp_path, monkeypatch):
    assert _lint(tmp_path, monkeypatch, {"prog.py": PGM_FIXED}, "JAX209") == []
