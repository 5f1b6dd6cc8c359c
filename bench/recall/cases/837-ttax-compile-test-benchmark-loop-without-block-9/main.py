import jax
import jax.numpy as jnp

from ttax_lite.compile_test import benchmark


def flat_inner_of_product(a, b, c):
  # a stand-in for ttax's ops.flat_inner(ops.multiply(a, b), c)
  return jnp.sum((a @ b) * c)


if __name__ == "__main__":
  rng1, rng2, rng3 = jax.random.split(jax.random.PRNGKey(0), 3)
  a = jax.random.normal(rng1, (256, 256))
  b = jax.random.normal(rng2, (256, 256))
  c = jax.random.normal(rng3, (256, 256))
  print("seconds per call:", benchmark(flat_inner_of_product, a, b, c))
