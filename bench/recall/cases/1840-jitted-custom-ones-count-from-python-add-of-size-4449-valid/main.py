import jax
import jax.numpy as jnp


@jax.jit
def custom_ones(arr):
  count = arr.size + 1
  return jnp.ones((count,))


if __name__ == "__main__":
    a = jnp.ones((3,))
    print(custom_ones(a))
