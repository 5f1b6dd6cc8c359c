import jax
import jax.numpy as jnp

import nn_lite


def loss(x):
  return jnp.sum(nn_lite.elu(x))


if __name__ == "__main__":
  x = jnp.array([1.0, 100.0, -1.0])
  g = jax.grad(loss)(x)
  print("grad:", g)
  print("nan grad for large input:", bool(jnp.isnan(g[1])))
