import jax


def _while_loop_lax(cond_fun, body_fun, init_val, maxiter):
  """lax.while_loop with maxiter."""

  def _cond_fun(_val):
    it, val = _val
    return jax.numpy.logical_and(cond_fun(val), it <= maxiter - 1)

  def _body_fun(_val):
    it, val = _val
    val = body_fun(val)
    return it+1, val

  return jax.lax.while_loop(_cond_fun, _body_fun, (0, init_val))[1]


def while_loop(cond_fun, body_fun, init_val, maxiter, unroll=False, jit=True):
  """A while loop with a bounded number of iterations."""
  fun = _while_loop_lax
  if jit:
    fun = jax.jit(fun, static_argnums=(0, 1, 3))
  return fun(cond_fun, body_fun, init_val, maxiter)
