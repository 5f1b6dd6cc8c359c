import jax
import jax.numpy as jnp


@jax.jit
def custom_ones(arr):
  count = jnp.add(arr.size, 1)
  return jnp.ones((count,))


if __name__ == "__main__":
    a = jnp.ones((3,))
    try:
        print(custom_ones(a))
    except TypeError as e:
        print("TypeError:", e)
