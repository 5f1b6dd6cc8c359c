"""Mechanisms the lead added in the round of batch 19 (2026-11-28).

Python's reducing builtins over traced elements: ``sum(jnp.add(1, 1) for _ in range(n))``
in a jitted function is a tracer (every `jax.numpy` result is one there, constants
included), so ``assert result > 0`` raises TracerBoolConversionError; so does
``min([jnp.min(x) for x in xs])`` under ``jax.vmap``.  Checked with jax 0.10.2 on CPU:
both raise; the VALID twins (sizes of the leaves, static under jit; the same sum run
eagerly) run.
"""

from tests.project_files import lint_files

REDUCE = '''\
import jax
import jax.numpy as jnp


@jax.jit
def f():
    result = sum(jnp.add(1, 1) for _ in range(3))
    assert result > 0
    return result


def smallest(xs):
    low = min([jnp.min(x) for x in xs])
    if low < 0:
        return 0.0
    return low


@jax.jit
def g(x):
    n = sum(leaf.size for leaf in jax.tree_util.tree_leaves(x))
    if n > 3:
        return x
    return -x


def h(xs):
    total = sum(jnp.sum(x) for x in xs)
    if total > 0:
        return total
    return -total


if __name__ == "__main__":
    batched = jax.vmap(smallest)
    print(f(), batched([jnp.ones(2)]), g(jnp.ones(4)), h([jnp.ones(2)]))
'''


def test_reducing_builtins_over_traced_elements(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"red.py": REDUCE}, select="JAX201") == [
        ("JAX201", "red.py", 8, 12,
         "Python `assert` on a traced value: it is computed by JAX inside `f` (decorated with @jax.jit); this raises "
         "TracerBoolConversionError. Use `jax.experimental.checkify.check`, or assert on shapes/dtypes only"),
        ("JAX201", "red.py", 14, 8,
         "Python `if` on a traced value: it depends on the traced argument `xs` of `smallest` (wrapped by jax.vmap); "
         "this raises "
         "TracerBoolConversionError. Use `jax.lax.cond` or `jnp.where`"),
    ]
