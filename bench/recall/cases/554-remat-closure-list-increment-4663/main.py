import jax
import jax.numpy as jnp


def f():
  seq = [jnp.zeros([])]
  def g():
    seq[0] += 1  # this is line 7 btw
    return seq[0]

  jax.remat(g)()
  jax.remat(g)()  # KeyError: a
  return seq[0]


if __name__ == "__main__":
  print(jax.jit(f)())
