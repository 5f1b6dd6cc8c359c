import jax
import jax.numpy as jnp


def func(x):
  return jnp.cos(x)


if __name__ == "__main__":
  res = jax.jit(func)(0.)
  print(res)
