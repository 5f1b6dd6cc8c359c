import timeit

import jax.numpy as jnp
import jax
jax.config.update('jax_enable_x64', True)

# Just a utility for generating random arrays.
class RandomArr:

  def __init__(self, rng=0):
    self.rng = jax.random.PRNGKey(rng)

  def __call__(self, *shape):
    self.rng, _ = jax.random.split(self.rng, 2)
    return jax.random.normal(self.rng, shape)

rnd = RandomArr()

# Method 1: two einsums done successively. Initially these were far away in the
# code, so it wasn't immediately obvious to combine them.
@jax.jit
def reduce_double_einsum(w, a, b):
  aab = jnp.einsum('xga,xgb,gs->gsab', a, a, b)
  prod = 0.5 * jnp.einsum('sg,gsab->sab', w, aab)
  return prod

# Method 2: the two einsums above combined into one einsum.
@jax.jit
def reduce_einsum(w, a, b):
  prod = 0.5 * jnp.einsum('sg,xga,xgb,gs->sab', w, a, a, b)
  return prod


if __name__ == "__main__":
    x, g, a, s = 3, 200, 8, 4
    w_arr, a_arr, b_arr = rnd(s, g), rnd(x, g, a), rnd(g, s)
    # evaluate once first so that compile time is separated out from runtime
    assert jnp.allclose(reduce_double_einsum(w_arr, a_arr, b_arr), reduce_einsum(w_arr, a_arr, b_arr))
    t1 = timeit.timeit(lambda: reduce_double_einsum(w_arr, a_arr, b_arr), number=100)
    t2 = timeit.timeit(lambda: reduce_einsum(w_arr, a_arr, b_arr), number=100)
    print("double einsum: %.2e s, single einsum: %.2e s" % (t1 / 100, t2 / 100))
