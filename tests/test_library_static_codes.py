"""A tracer given to a static argument of JAX's own jitted functions is JAX207 (what JAX
raises there is "Non-hashable static arguments are not supported", which `confirm` and
`observe` file under JAX207); the other Python-value arguments stay JAX202."""

from tests.project_files import lint_files

_UNHASHABLE = "ValueError: Non-hashable static arguments are not supported"

PROGRAM = '''\
import functools

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def smooth(x, order, bits):
    return jnp.diff(x, n=order), lax.reduce_precision(x, bits, 2)


norm = jax.jit(jnp.linalg.norm)
print(norm(jnp.ones(3), ord=1))
keep = jax.jit(jnp.linalg.norm, static_argnames="ord")
print(keep(jnp.ones(3), ord=1))
uniform = jax.vmap(jax.random.uniform, in_axes=(0, None, None, 0, 0))
draws = uniform(jax.random.split(jax.random.key(0), 3), (), jnp.float32, jnp.zeros(3), jnp.ones(3))
'''


def test_static_arguments_of_jax_functions_are_jax207(tmp_path, monkeypatch):
    assert lint_files(tmp_path, monkeypatch, {"main.py": PROGRAM}, select="JAX202,JAX207") == [
        ("JAX202", "main.py", 10, 58,
         "`exponent_bits` of `lax.reduce_precision` must be a Python value (JAX compiles it into the "
         "computation), but it is traced: it depends on the traced argument `bits` of `smooth` "
         "(decorated with @jax.jit); this raises ConcretizationTypeError: Abstract tracer value "
         "encountered where concrete value is expected. Compute it from Python values (constants, "
         "shapes); or, if `bits` is a Python value, mark it static (static_argnums=2)"),
        ("JAX207", "main.py", 10, 26,
         "`n` of `jnp.diff` must be a Python value (JAX compiles it into the computation), but it is "
         "traced: it depends on the traced argument `order` of `smooth` (decorated with @jax.jit); "
         f"this raises {_UNHASHABLE}. Compute it from Python values (constants, shapes); or, if "
         "`order` is a Python value, mark it static (static_argnums=1)"),
        ("JAX207", "main.py", 14, 29,
         "`jax.jit(jnp.linalg.norm)` traces every argument it is not told is static, so `ord` of "
         f"`jnp.linalg.norm` (here `1`) becomes a tracer; it must be a Python value ({_UNHASHABLE}). "
         "Mark it static (`jax.jit(jnp.linalg.norm, static_argnames='ord')`), or bind it first: "
         "`functools.partial(jnp.linalg.norm, ord=...)`"),
    ]
