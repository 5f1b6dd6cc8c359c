import jax
import jax.numpy as jnp
from jax.experimental import checkify


def make_branch(i):
  @checkify.checkify
  def branch():
    result = jnp.full((1,), i)
    checkify.check(jnp.sum(result) > 0, 'Failed!')
    return result
  return branch


if __name__ == "__main__":
    index = jnp.full((), 0)
    try:
        err, result = jax.lax.switch(index, [make_branch(i) for i in range(3)])
        checkify.check_error(err)
    except TypeError as e:
        print("TypeError:", e)
