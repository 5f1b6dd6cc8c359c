import jax
import jax.numpy as jnp
from jax import lax


def my_log_cond(x):
  return lax.cond(x > 0., lambda _: jnp.log(x), lambda _: 0., None)


if __name__ == "__main__":
  print("grad at 0:", jax.grad(my_log_cond)(0.))
