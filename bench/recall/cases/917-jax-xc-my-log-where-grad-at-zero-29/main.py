import jax
import jax.numpy as jnp


def my_log_where(x):
  return jnp.where(x > 0., jnp.log(x), 0.)


if __name__ == "__main__":
  print("grad at 0:", jax.grad(my_log_where)(0.))
  print("vmapped grad:", jax.vmap(jax.grad(my_log_where))(jnp.array([1., 0.])))
