import numpy as onp

from jax import lax
import jax.numpy as jnp

pi = onp.pi


def _constant_like(x, const):
  return onp.array(const, dtype=jnp.result_type(x))


def _promote_dtypes_inexact(*args):
  dtype = jnp.result_type(*args, jnp.float32)
  return [lax.convert_element_type(a, dtype) for a in args]


def sinc(x):
  x, = _promote_dtypes_inexact(x)
  eq_zero = lax.eq(x, _constant_like(x, 0))
  safe_x = jnp.where(eq_zero, _constant_like(x, 1), x)
  pi_x = lax.mul(_constant_like(x, pi), safe_x)
  return jnp.where(eq_zero, _constant_like(x, 1), lax.div(lax.sin(pi_x), pi_x))
